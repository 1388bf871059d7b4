"""Families after31a widened in stop 31 after scoring the unseen batches fresh-113..120, and the general rule it added:
a failure a program retried past is not its failure. Each is learnt as the class of situation from the programs' own
source (llama.cpp's common/arg.cpp reading LLAMA_ARG_* variables as their flags; the NVIDIA Container Toolkit's and
dockerd's readers of daemon.json; a client's Ollama routes under an OpenAI base URL; urllib3's and pip's retries) and
tested here on another real wording of the class, with a near miss that must not be read the same way.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

PIP_RETRY = (
    "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken "
    "by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f1>: Failed to establish a "
    "new connection: [Errno -3] Temporary failure in name resolution')': /simple/vllm/\n"
)

CASES = [
    # common/arg.cpp: a LLAMA_ARG_* variable refused as its flag would be ('error while handling environment variable
    # "%s": %s'), here through llama-cli's own env name of the same flag (after35h: llama.cpp's 'failed to open file'
    # of any file argument, this one included, is llamacpp-arg-file-unreadable's: missing and unreadable read alike)
    (
        "llamacpp-arg-file-unreadable",
        'error while handling environment variable "LLAMA_ARG_CHAT_TEMPLATE_FILE": error: failed to open file '
        "'/etc/llama/templates/qwen3.jinja'\n",
    ),
    # nvidia-ctk on a zero-length daemon.json (a build interrupted mid-write): io.EOF from the JSON decoder
    (
        "config-json-invalid",
        "INFO[0000] Loading config from /etc/docker/daemon.json\n"
        "ERRO[0000] unable to load config for runtime docker: EOF\n",
    ),
    # dockerd itself refusing the same file (daemon/config's 'unable to configure the Docker daemon with file %s: %v')
    (
        "config-json-invalid",
        "unable to configure the Docker daemon with file /etc/docker/daemon.json: invalid character '\\n' in string "
        "literal\n",
    ),
    # LiteLLM or Open WebUI given http://host:8000/v1 as an Ollama base URL, against vLLM's uvicorn
    (
        "ollama-api-route-on-openai-server",
        'INFO:     10.0.0.7:51234 - "GET /v1/api/tags HTTP/1.1" 404 Not Found\n',
    ),
    # FastAPI's own 422 body under pydantic 1 (loc before msg), for a parameter an older server never defined
    (
        "request-field-unknown-to-server",
        'HTTP 422 {"detail":[{"loc":["body","max_completion_tokens"],"msg":"extra fields not permitted",'
        '"type":"value_error.extra"}]}\n',
    ),
    # the demo server (vllm/entrypoints/api_server.py) asked for the model list by an OpenAI client
    (
        "openai-route-on-demo-api-server",
        "$ python -m vllm.entrypoints.api_server --model /models/qwen2-7b --port 8000\n"
        'INFO:     127.0.0.1:50312 - "GET /v1/models HTTP/1.1" 404 Not Found\n',
    ),
    # GNU tar and gzip on a .tar.gz cut by an interrupted download
    (
        "archive-truncated",
        "$ tar xzf llama-b4000-bin-ubuntu-x64.tar.gz\n\ngzip: stdin: unexpected end of file\n"
        "tar: Unexpected EOF in archive\ntar: Error is not recoverable: exiting now\n",
    ),
    # Python's zipfile on a download that is an HTML page
    ("archive-truncated", "zipfile.BadZipFile: File is not a zip file\n"),
    # pip's retries with no success after them (the log ends there) stay the name that does not resolve
    ("host-unresolvable", PIP_RETRY * 2),
]

NEAR_MISSES = [
    # a variable holding a bad number is the argument's own form, not a template file
    (
        "chat-template-not-found",
        'error while handling environment variable "LLAMA_ARG_N_GPU_LAYERS": stoi\n',
    ),
    # a daemon.json that parses but holds an unknown key is not a JSON syntax error
    (
        "config-json-invalid",
        "unable to configure the Docker daemon with file /etc/docker/daemon.json: the following directives don't "
        "match any configuration option: default\n",
    ),
    # Ollama's own server answering 404 on its route: the route exists, the model does not
    (
        "ollama-api-route-on-openai-server",
        '[GIN] 2025/01/01 - 10:00:00 | 404 |    1.2ms |  127.0.0.1 | POST     "/api/chat"\n',
    ),
    # an engine config's extra key (a pydantic dataclass, not a request body) is the configuration's
    (
        "request-field-unknown-to-server",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for KVTransferConfig\nkv_conector\n"
        "  Extra inputs are not permitted [type=extra_forbidden, input_value='x', input_type=str]\n",
    ),
    # the OpenAI server answering 404 on a chat route without the demo server in view is not the demo server
    (
        "openai-route-on-demo-api-server",
        "$ vllm serve /models/bge-m3 --port 8000\n"
        'INFO:     127.0.0.1:50312 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_retries_pip_survived_are_not_its_failure():
    """pip retried the index five times per package, then installed from another index and said so: nothing failed."""
    log = PIP_RETRY * 3 + "Installing collected packages: idna\nSuccessfully installed idna-3.20\n"
    assert top_cause(run(log)) is None


def test_a_retried_error_before_a_server_came_up_keeps_its_reading():
    """A server coming up is not a completed run: an ERROR line vLLM retried stays named unless its requests succeeded
    (after29m's rule); only a one-shot run's own 'done' line explains retries away."""
    log = (
        "(APIServer pid=18997) ERROR 12-04 13:53:51 [repo_utils.py:126] Error retrieving file list: [Errno -2] Name or "
        "service not known, retrying 1 of 2\n"
        "(APIServer pid=18997) INFO:     Application startup complete.\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "hub-offline" and top.role == "cause", top and top.id


def test_a_failure_that_was_no_retry_stays_a_cause_after_success():
    """A name that did not resolve, said once with no retry, is not explained away by a later success line."""
    log = "socket.gaierror: [Errno -2] Name or service not known\nSuccessfully installed idna-3.20\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "host-unresolvable", top and top.id
