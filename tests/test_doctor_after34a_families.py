"""What stop 34's new: cases taught (after34a): the families a log states, and the generic follow-on sentence.

- batch-input-not-utf8: vLLM's batch runner (run_batch's read_file, open(path, encoding="utf-8")) given a JSONL that
  is not UTF-8: a UTF-16 file's byte-order mark (0xff little-endian, 0xfe big-endian) at position 0, or a legacy code
  page's byte further in. The wordings are Python 3.11's own, run here on such files; read only under read_file.
- scheduler-cls-not-found: --scheduler-cls's dotted path that resolve_obj_by_qualname cannot import (Python's own
  AttributeError / ModuleNotFoundError / unpack ValueError of its three steps), read only under the scheduler's
  resolution (0.32's get_scheduler_cls; the older core.py line).
- dependency-version-refused widened: prometheus_client before 0.18.0 refusing vLLM's 'mostrecent' gauge mode
  (prometheus_client's metrics.py 'Invalid multiprocess mode: ' + mode).
- path-component-not-a-directory: ENOTDIR on a path (Python's [Errno 20], coreutils' and Go's wordings): a folder of
  the path is a regular file; a LoRA module given as a file stays lora-adapter-not-found's.
- server-response-fails-own-schema: FastAPI's ResponseValidationError (fastapi/exceptions.py's str: 'N validation
  errors:' then one pydantic error a line, loc starting 'response'): the server's reply failed its own response model.
- client-base-url-trailing-slash: a 404 for a path with '//' (uvicorn's access line; llama-server's two formats, as
  corpus logs of llama-server print them): the client's base URL ends with '/'.
- stack-limit-too-small: a segfault where the log sets a stack limit far below 8 MiB (prlimit --stack= bytes,
  LimitSTACK=, ulimit -s KiB); an 8 MiB limit beside a segfault stays the plain segfault.
- opencl-mesa-clover-no-libclc-for-gpu: clang's "cannot open file '.../clc/<target>-amdgcn-mesa-mesa3d.bc'" under
  Mesa's OpenCL (public clinfo / miner build logs print it in CL_PROGRAM_BUILD_LOG).
- follows_from's sentence is generic: it names the line and the value the earlier line and this one share, not the
  LoRA load's words.

Each log is written in another wording than its corpus log (other paths, bytes, versions' file layout).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run

READ_FILE_OLD = (
    "Traceback (most recent call last):\n"
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/entrypoints/openai/run_batch.py", line 301, in main\n'
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/entrypoints/openai/run_batch.py", line 88, in read_file\n'
    "    return f.read()\n"
    '  File "<frozen codecs>", line 322, in decode\n'
)

CASES = [
    # a big-endian UTF-16 file (FE FF), the older run_batch module's layout
    (
        "batch-input-not-utf8",
        READ_FILE_OLD
        + "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xfe in position 0: invalid start byte\n",
    ),
    # a cp1252 file ('café' as 0xe9) further in: Python's 'invalid continuation byte'
    (
        "batch-input-not-utf8",
        READ_FILE_OLD
        + "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1843: invalid continuation byte\n",
    ),
]

SCHED_FRAME = (
    'ERROR 01-02 03:04:05 [core.py:1510]   File "/srv/venv/lib/python3.12/site-packages/vllm/config/scheduler.py", '
    "line 250, in get_scheduler_cls\n"
)
CASES += [
    # a module that does not exist (a typo in the package part), 0.32's layout
    (
        "scheduler-cls-not-found",
        SCHED_FRAME + "ERROR 01-02 03:04:05 [core.py:1510] ModuleNotFoundError: No module named 'my_sched'\n",
    ),
    # a bare class name with no module: rsplit('.', 1) gives one value (the older core.py statement above it)
    (
        "scheduler-cls-not-found",
        'Traceback (most recent call last):\n  File "/opt/vllm/vllm/v1/engine/core.py", line 103, in __init__\n'
        "    vllm_config.scheduler_config.scheduler_cls)\n"
        '  File "/opt/vllm/vllm/utils.py", line 2077, in resolve_obj_by_qualname\n'
        '    module_name, obj_name = qualname.rsplit(".", 1)\n'
        "ValueError: not enough values to unpack (expected 2, got 1)\n",
    ),
    # prometheus_client 0.17 on the path under a vLLM that asks for a livemostrecent gauge
    (
        "dependency-version-refused",
        '  File "/home/u/.local/lib/python3.10/site-packages/prometheus_client/metrics.py", line 360, in __init__\n'
        "    raise ValueError('Invalid multiprocess mode: ' + multiprocess_mode)\n"
        "ValueError: Invalid multiprocess mode: livemostrecent\n",
    ),
]

CASES += [
    # coreutils' mkdir (run here: mkdir -p under a regular file) and Go's os.MkdirAll
    ("path-component-not-a-directory", "mkdir: cannot create directory '/srv/models': Not a directory\n"),
    ("path-component-not-a-directory", "Error: mkdir /var/lib/ollama/models/blobs: not a directory\n"),
    # the LoRA module that is a file keeps its own, more specific family
    (
        "lora-adapter-not-found",
        "NotADirectoryError: [Errno 20] Not a directory: '/data/loras/sql.safetensors/adapter_config.json'\n",
    ),
]

CASES += [
    # another server, another model and field (a models list whose owned_by came back None)
    (
        "server-response-fails-own-schema",
        "fastapi.exceptions.ResponseValidationError: 1 validation error:\n"
        "  {'type': 'string_type', 'loc': ('response', 'ModelList', 'data', 0, 'owned_by'), "
        "'msg': 'Input should be a valid string', 'input': None}\n",
    ),
]

CASES += [
    # llama-server's access lines, a base URL http://host:8080/ joined with /v1/chat/completions
    (
        "client-base-url-trailing-slash",
        "srv  log_server_r: request: POST //v1/chat/completions 192.168.1.20 404\n",
    ),
    (
        "client-base-url-trailing-slash",
        "0.04.466.952 I srv        log_server_response: rid 4441 | GET //v1/models 192.168.0.172:53924 | status 404 | cost 0.00s\n",
    ),
]

CASES += [
    # a shell wrapper's `ulimit -s 64` (KiB), bash's report of the crash
    (
        "stack-limit-too-small",
        "+ ulimit -s 64\n+ exec ./llama-server -m /models/q.gguf\n./run.sh: line 3: 4121 Segmentation fault      (core dumped) ./llama-server\n",
    ),
    # a systemd unit's LimitSTACK=128K, systemd's exit line
    (
        "stack-limit-too-small",
        "LimitSTACK=128K\nsystemd[1]: llama.service: Main process exited, code=dumped, status=11/SEGV\n",
    ),
]

CASES += [
    # clinfo's build log on an RX 5500 (gfx1012), Fedora's /usr/share/clc
    (
        "opencl-mesa-clover-no-libclc-for-gpu",
        "=== CL_PROGRAM_BUILD_LOG ===\n"
        "fatal error: cannot open file '/usr/share/clc/gfx1012-amdgcn-mesa-mesa3d.bc': No such file or directory\n",
    ),
]

NEAR_MISSES = [
    # another missing file of an OpenCL build (a kernel source the program ships): not libclc's target bitcode
    (
        "opencl-mesa-clover-no-libclc-for-gpu",
        "fatal error: cannot open file '/opt/app/kernels/matmul.cl': No such file or directory\n",
    ),
    # the usual 8 MiB limit written out beside a segfault: not a small stack
    (
        "stack-limit-too-small",
        "+ ulimit -s 8192\n./run.sh: line 3: 4121 Segmentation fault      (core dumped) ./llama-server\n",
    ),
    # a '//' only in the query (a URL parameter), and a 404 on a clean path: not a doubled slash in the route
    (
        "client-base-url-trailing-slash",
        'INFO:     127.0.0.1:50770 - "GET /v1/files?url=https://example.com/a.jsonl HTTP/1.1" 404 Not Found\n',
    ),
    (
        "client-base-url-trailing-slash",
        'INFO:     127.0.0.1:50770 - "GET /v1/model HTTP/1.1" 404 Not Found\n',
    ),
    # the REQUEST's validation (loc 'body'): the client's fault, another family
    (
        "server-response-fails-own-schema",
        "  {'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field required', 'input': {'model': 'm'}}\n",
    ),
    # prose about directories, no errno
    (
        "path-component-not-a-directory",
        "WARNING: --download-dir is not a directory yet; it will be created\n",
    ),
    # a module missing with no scheduler resolution anywhere: another import's failure
    ("scheduler-cls-not-found", "ModuleNotFoundError: No module named 'my_sched'\n"),
    # a mode no prometheus_client ever had: a typo in the caller, not an old library
    ("dependency-version-refused", "ValueError: Invalid multiprocess mode: newest\n"),
    # the same refusal with no batch runner's read_file above it: another file's (a chat template read by a script)
    (
        "batch-input-not-utf8",
        'Traceback (most recent call last):\n  File "/home/me/render.py", line 12, in <module>\n'
        "    template = open(path, encoding='utf-8').read()\n"
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte\n",
    ),
    # a UTF-8 file the batch runner read, refused later by JSON: not an encoding problem
    (
        "batch-input-not-utf8",
        READ_FILE_OLD.replace("read_file", "run_batch")
        + "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_follow_on_sentence_names_the_shared_value_not_lora_words():
    """A later 404 for a name an earlier load refused: the sentence names that line and the shared model name in
    generic words (the mechanism serves any follows_from pair), never the LoRA load's 'tried to load'."""
    log = (
        '$ curl -s localhost:8000/v1/load_lora_adapter -d \'{"lora_name": "tone"}\'\n'
        '{"error":{"message":"Both \'lora_name\' and \'lora_path\' must be provided.","type":"BadRequestError",'
        '"param":null,"code":400}}\n'
        '{"object":"error","message":"The model `tone` does not exist.","type":"NotFoundError","param":"model",'
        '"code":404}\n'
    )
    after = {d.id: d for d in run(log).diagnoses}["model-name-not-served"]
    assert after.role == "symptom"
    assert "It follows from line 1, earlier in the log, which concerns the same model 'tone'" in after.cause
    assert "tried to load" not in after.cause
