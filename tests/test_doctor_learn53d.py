"""What fresh-486, fresh-489, fresh-490 and fresh-494 (vLLM 0.32 and its clients, first contact) taught, each cause on
wordings written here from vLLM 0.32's source (config/cache.py, serving.py's _check_model), Python's logging, httpx's,
requests' and aiohttp's raise-on-status texts and systemd-tmpfiles 252, not copied from the batches' logs.

- block-size-not-positive (fresh-486's block-size-negative, new): CacheConfig's block_size / mamba_block_size are
  Field(gt=0); pydantic's 'Input should be greater than 0' under the field's line, errors()'s dict form, and vLLM
  0.8-0.10's argparse choice list refusing 0 or a negative. A positive size the choices lack stays cli-invalid-choice's.
- engine-killed-from-outside (fresh-494's ctrl-c-start-github-fence; fresh-430's like case was ruled so): a '^C' the
  engine did not obey, then a wrapper's bare '# exit: 137' (SIGKILL): someone killed it; below confident (0.65), the
  sender is not named. A stop the engine obeyed (its shutdown lines, exit 0 / 130) is not it.
- tmpfiles-line-invalid is fatal only where the log shows a failure it caused (its setup unit failing, a path error):
  beside an engine's own fatal exception (fresh-489's VLLM_LOGGING_LEVEL=VERBOSE) it ranks below it, in either order.
- model-name-not-served's hint (fresh-490's httpx-model-tinyy): a client's raise-on-status 404 for the server's own
  /v1/chat/completions or /v1/completions, the body never printed: the model named is the usual reason (0.50).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, family_tests, run, top_cause

BLOCK = "block-size-not-positive"
KILLED = "engine-killed-from-outside"
TMPFILES = "tmpfiles-line-invalid"
ENV = "vllm-env-invalid-choice"
MODEL = "model-name-not-served"

API = "(APIServer pid=4121) INFO 12-07 09:14:02 "
SITE = "/opt/venv/lib/python3.12/site-packages"


def _cache_refused(field: str, value: str, kind: str = "int") -> str:
    return (
        f"$ vllm serve Qwen/Qwen3-0.6B --{field.replace('_', '-')} {value}\n"
        f"{API}[utils.py:253] non-default args: {{'model': 'Qwen/Qwen3-0.6B', '{field}': {value}}}\n"
        f"{API}[model.py:733] Resolved architecture: Qwen3ForCausalLM\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/engine/arg_utils.py", line 2265, in create_engine_config\n'
        "    cache_config = CacheConfig(\n"
        f'  File "{SITE}/pydantic/_internal/_dataclasses.py", line 121, in __init__\n'
        "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\n"
        f"{field}\n"
        f"  Input should be greater than 0 [type=greater_than, input_value={value}, input_type={kind}]\n"
        "    For further information visit https://errors.pydantic.dev/2.11/v/greater_than\n"
    )


ERRORS_FORM = (
    "Traceback (most recent call last):\n"
    '  File "/srv/launch.py", line 40, in build\n'
    "    raise ValueError(e.errors())\n"
    "ValueError: [{'type': 'greater_than', 'loc': ('block_size',), 'msg': 'Input should be greater than 0', "
    "'input': 0, 'ctx': {'gt': 0}, 'url': 'https://errors.pydantic.dev/2.11/v/greater_than'}]\n"
)
OLD_CHOICES = (
    "usage: api_server.py [-h] [--block-size {{1,8,16,32,64,128}}] ...\n"
    "api_server.py: error: argument --block-size: invalid choice: {value} (choose from 1, 8, 16, 32, 64, 128)\n"
)

VLLM_START = (
    "$ python -m vllm.entrypoints.openai.api_server --model /srv/models/tiny --port 8000\n"
    f"{API}[api_utils.py:286] non-default args: {{'port': 8000, 'model': '/srv/models/tiny'}}\n"
    f"{API}[model.py:733] Resolved architecture: LlamaForCausalLM\n"
)
GOES_ON = (
    f"{API}[model.py:2152] Using max model len 2048\n"
    f"{API}[vllm.py:725] Model Runner V2 requires Triton; using the V1 model runner instead.\n"
    "(EngineCore pid=4410) INFO 12-07 09:14:31 [core.py:133] Initializing a V1 LLM engine (v0.32.0) with config: "
    "model='/srv/models/tiny'\n"
)
LLAMA_START = (
    "$ llama-server -m /srv/models/tiny-q8_0.gguf --port 8080\n"
    "0.00.000.412 I main: build: 11434 (5f1c2a9) with cc for x86_64-linux-gnu\n"
    "0.00.000.902 I llama_model_loader: loaded meta data with 29 key-value pairs\n"
)

UNIT_CHECKS = (
    "$ cat /etc/tmpfiles.d/vllm.conf\n"
    "d /var/cache/vllm {mode} vllm vllm 30d\n"
    "$ systemd-tmpfiles --create --root=/srv/root vllm.conf\n"
    "/srv/root/etc/tmpfiles.d/vllm.conf:1: Invalid mode '{mode}'.\n"
    "# exit: 65\n"
)
LEVEL_DEATH = (
    "$ export VLLM_LOGGING_LEVEL={level}\n"
    "$ vllm serve /srv/models/tiny --port 8000\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.12/logging/config.py", line 581, in configure\n'
    "    handler = self.configure_handler(handlers[name])\n"
    '  File "/usr/lib/python3.12/logging/__init__.py", line 214, in _checkLevel\n'
    '    raise ValueError("Unknown level: %r" % level)\n'
    "ValueError: Unknown level: '{level}'\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    f'  File "{SITE}/vllm/logger.py", line 277, in _configure_vllm_root_logger\n'
    "    dictConfig(logging_config)\n"
    '  File "/usr/lib/python3.12/logging/config.py", line 588, in configure\n'
    "    raise ValueError('Unable to configure handler '\n"
    "ValueError: Unable to configure handler 'vllm'\n"
    "# exit: 1\n"
)

HTTPX_404 = (
    "$ python ask.py\n"
    "Traceback (most recent call last):\n"
    '  File "/home/me/ask.py", line 9, in <module>\n'
    "    resp.raise_for_status()\n"
    f'  File "{SITE}/httpx/_models.py", line 829, in raise_for_status\n'
    "    raise HTTPStatusError(message, request=request, response=self)\n"
    "httpx.HTTPStatusError: Client error '404 Not Found' for url '{url}'\n"
    "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/404\n"
)
REQUESTS_404 = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/bench.py", line 21, in <module>\n'
    "    r.raise_for_status()\n"
    f'  File "{SITE}/requests/models.py", line 1026, in raise_for_status\n'
    "    raise HTTPError(http_error_msg, response=self)\n"
    "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: {url}\n"
)
AIOHTTP_404 = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/load.py", line 30, in one\n'
    "    resp.raise_for_status()\n"
    f'  File "{SITE}/aiohttp/client_reqrep.py", line 1161, in raise_for_status\n'
    "    raise ClientResponseError(\n"
    "aiohttp.client_exceptions.ClientResponseError: 404, message='Not Found', url='{url}'\n"
)

CASES = [
    (BLOCK, _cache_refused("block_size", "-16")),
    (BLOCK, _cache_refused("block_size", "0")),
    (BLOCK, _cache_refused("mamba_block_size", "-8")),
    (BLOCK, ERRORS_FORM),
    (BLOCK, OLD_CHOICES.format(value="0")),
    (BLOCK, OLD_CHOICES.format(value="-32")),
    (KILLED, VLLM_START + "^C\n" + GOES_ON + "# exit: 137\n"),
    (KILLED, VLLM_START + "^C\n" + GOES_ON + "# exit status: 137\n"),
    (KILLED, LLAMA_START + "^C\n0.00.004.118 I load_tensors: loading model tensors\n# exit: 137\n"),
    (MODEL, HTTPX_404.format(url="http://127.0.0.1:8000/v1/chat/completions")),
    (MODEL, HTTPX_404.format(url="https://llm.internal.example:443/v1/completions")),
    (MODEL, REQUESTS_404.format(url="http://10.0.0.5:8000/v1/chat/completions")),
    (MODEL, AIOHTTP_404.format(url="http://localhost:8000/v1/chat/completions")),
]
NEAR_MISSES = [
    # a positive size the old choice list lacks: that list's refusal, not a size that cannot be
    (BLOCK, OLD_CHOICES.format(value="24")),
    # the same bound on another CacheConfig field
    (BLOCK, _cache_refused("gpu_memory_utilization", "0.0", "float")),
    # a healthy start that names --block-size
    (BLOCK, VLLM_START.replace("--port 8000", "--port 8000 --block-size 32") + GOES_ON),
    # an interrupt the server obeyed: its shutdown lines, exit 0
    (
        KILLED,
        VLLM_START
        + "^C\n"
        + f"{API}[launcher.py:110] Shutting down FastAPI HTTP server.\n"
        + "INFO:     Shutting down\nINFO:     Application shutdown complete.\n# exit: 0\n",
    ),
    # a 404 for a base URL without /v1, and for /v1 twice: the URL's, not the model's
    (MODEL, HTTPX_404.format(url="http://127.0.0.1:8000/chat/completions")),
    (MODEL, HTTPX_404.format(url="http://127.0.0.1:8000/v1/v1/chat/completions")),
    # the hub's 404 for a file
    (MODEL, HTTPX_404.format(url="https://huggingface.co/Qwen/Qwen3-0.6B/resolve/main/config.json")),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_block_size_names_the_flag_and_the_value():
    top = top_cause(run(_cache_refused("block_size", "-16")))
    assert top.id == BLOCK and top.confidence >= 0.7
    assert "-16" in top.cause and "--block-size 16" in top.fix
    mamba = top_cause(run(_cache_refused("mamba_block_size", "-8")))
    assert "--mamba-block-size" in mamba.cause and "-8" in mamba.cause
    assert "config-validation-error" not in answer_ids(_cache_refused("block_size", "-16"))


def test_a_kill_after_an_unobeyed_interrupt_is_not_confident():
    top = top_cause(run(VLLM_START + "^C\n" + GOES_ON + "# exit: 137\n"))
    assert top.id == KILLED and top.confidence < 0.7


def test_a_bare_137_without_an_interrupt_is_not_read_as_this_kill():
    assert KILLED not in answer_ids(VLLM_START + GOES_ON + "# exit: 137\n")


@pytest.mark.parametrize("engine_first", [False, True])
def test_the_engines_death_outranks_a_tmpfiles_line(engine_first):
    checks = UNIT_CHECKS.format(mode="rwxrwxr-x")
    death = LEVEL_DEATH.format(level="TRACE")
    log = death + checks if engine_first else checks + death
    ids = answer_ids(log)
    assert ids[0] == ENV, ids
    assert TMPFILES in ids
    tmp = next(d for d in run(log).diagnoses if d.id == TMPFILES)
    assert not tmp.fatal


def test_a_tmpfiles_line_alone_is_still_the_answer():
    top = top_cause(run(UNIT_CHECKS.format(mode="u=rwx,g=rx")))
    assert top.id == TMPFILES and "octal" in top.cause


def test_a_tmpfiles_line_whose_setup_unit_failed_is_fatal():
    log = UNIT_CHECKS.format(mode="rwxr-x---") + (
        "Dec 07 09:10:02 host systemd[1]: systemd-tmpfiles-setup.service: Main process exited, code=exited, "
        "status=65/DATAERR\n"
        "Dec 07 09:10:02 host systemd[1]: Failed to start systemd-tmpfiles-setup.service - Create Volatile Files "
        "and Directories.\n"
    )
    tmp = next(d for d in run(log).diagnoses if d.id == TMPFILES)
    assert tmp.fatal


def test_the_404_hint_says_to_print_the_body():
    top = top_cause(run(HTTPX_404.format(url="http://127.0.0.1:8000/v1/chat/completions")))
    assert top.id == MODEL and top.confidence < 0.7
    assert "GET /v1/models" in top.fix and "r.text" in top.fix
