"""after32f (stop 32): what fresh-138 (files an engine reads beside its model) and fresh-140 (llama.cpp's refusals
after argument parsing) taught after scoring, each in a wording other than its corpus log's, with near misses.

Where the wordings came from: llama-server 11434 (.llama-cpp/bin) run here on the tiny GGUF of
tests/engine/make_tiny_gguf.py (ports 18940-18942: `--json-schema-file` of a missing file; `--control-vector` given a
GGUF whose header is cut, and a text file; `--path` of a folder without the file asked for); llama.cpp's source
(common/arg.cpp read_file, src/llama-context.cpp, tools/server's params_from_json_cmpl); vLLM 0.32's
lora/peft_helper.py (PEFTHelper.from_local_dir opens PATH/adapter_config.json) and importlib's read of a module.
"""

from __future__ import annotations

import io

from servebox.doctor import shared_wording
from servebox.doctor.triage import triage_stream
from tests.doctor_text import family_tests

LLAMA = "0.00.003.355 I srv    load_model: loading model '/srv/models/qwen3-8b-q4_k_m.gguf'\n"
VLLM = "(APIServer pid=812) INFO 12-05 01:07:34 [api_server.py:1000] vLLM API server version 0.32.0\n"
TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/serve/middleware/register.py", line 67, in init\n'
    "    imported = getattr(importlib.import_module(module_path), object_name)\n"
    '  File "<frozen importlib._bootstrap_external>", line 1130, in get_data\n'
)

CASES = [
    # a general family steps aside where the specific one matched the same refusal (the confident wrong class)
    (
        "llamacpp-arg-file-unreadable",  # run here: --json-schema-file of a missing file
        "error while handling argument \"--json-schema-file\": error: failed to open file '/srv/schemas/answer.json'\n",
    ),
    (
        "llamacpp-v-cache-quant-needs-flash-attn",  # src/llama-context.cpp's later throw
        LLAMA
        + "E llama_init_from_model: failed to initialize the context: quantized V cache was requested, but "
        "this requires Flash Attention\n",
    ),
    (
        "llamacpp-control-vector-unusable",  # run here: a control vector whose header is cut
        LLAMA
        + "0.00.011.225 E gguf_init_from_reader: number of tensors is 3271134372315685223 but must be in [0, 53624256028225440]\n"
        "0.00.011.226 E gguf_init_from_reader: failed to read header\n"
        "0.00.011.227 E cmn  common_contr: failed to load control vector file from /srv/vectors/calm.gguf\n"
        "0.00.011.228 E cmn  common_contr: no valid control vector files passed\n"
        "0.00.012.368 I srv  llama_server: model loaded\n",
    ),
    (
        "llamacpp-control-vector-unusable",  # run here: a text file given as the control vector
        LLAMA + "0.00.009.614 E gguf_init_from_reader: invalid magic characters: 'hell', expected 'GGUF'\n"
        "0.00.009.625 E cmn  common_contr: failed to load control vector file from /srv/vectors/notes.gguf\n",
    ),
    # a module or plugin the server reads, not a cache it writes (--tool-parser-plugin's file, made mode 000)
    (
        "path-permission-denied",
        VLLM + TRACE + "PermissionError: [Errno 13] Permission denied: '/tmp/plugins/my_tool_parser.py'\n",
    ),
    # --lora-modules given a file: the engine core's RuntimeError quoting the worker's error
    (
        "lora-adapter-not-found",
        VLLM
        + "(EngineCore pid=2785) ERROR 12-05 01:10:01 [core.py:1750] RuntimeError: Worker failed with error "
        "'[Errno 20] Not a directory: '/srv/lora/support-bot-f16.gguf/adapter_config.json'', please check the stack "
        "trace above for the root cause\n",
    ),
    # tools/server's refusal of an empty dry_sequence_breakers, as an older build's body carries it
    (
        "request-sampling-param-out-of-range",
        LLAMA
        + '{"error":{"code":400,"message":"Error: dry_sequence_breakers must be a non-empty array of strings",'
        '"type":"invalid_request_error"}}\n',
    ),
    # --path: the log_server_request line of a build that logs requests
    (
        "llamacpp-static-path-unreadable",
        "$ llama-server -m /srv/models/q.gguf --path /srv/webui\n"
        + LLAMA
        + "srv  log_server_r: request: GET /index.html 127.0.0.1 404\n",
    ),
]

NEAR_MISSES = [
    # an argument refused for its value, not a file: still llamacpp-invalid-argument's (asserted below)
    ("llamacpp-arg-file-unreadable", 'error while handling argument "--ctx-size": stoi\n'),
    # another context refusal of the list: not the V-cache family
    (
        "llamacpp-v-cache-quant-needs-flash-attn",
        LLAMA + "E llama_init_from_model: SPLIT_MODE_TENSOR requires flash_attn to be enabled\n",
    ),
    # a damaged model with no control vector in sight: not the control vector's
    (
        "llamacpp-control-vector-unusable",
        LLAMA + "E gguf_init_from_reader: key 'general.architecture' has invalid GGUF type 99\n"
        "E gguf_init_from_reader: failed to read key-value pairs\n",
    ),
    # the same 404 body without --path in the log: an unknown route, not a static folder
    (
        "llamacpp-static-path-unreadable",
        LLAMA + '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n',
    ),
    # a browser's favicon under --path is no failure
    (
        "llamacpp-static-path-unreadable",
        "$ llama-server -m /srv/models/q.gguf --path /srv/webui\n"
        + LLAMA
        + "srv  log_server_r: request: GET /favicon.ico 127.0.0.1 404\n",
    ),
    # a model GGUF given as --model to vLLM (config.json, not a LoRA's adapter_config.json)
    (
        "lora-adapter-not-found",
        VLLM
        + "NotADirectoryError: [Errno 20] Not a directory: '/srv/models/qwen3-8b-q4_k_m.gguf/config.json'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def _triage(text: str):
    return triage_stream(io.StringIO(text), "t")


def test_a_cache_folder_stays_cache_permission_denied():
    """A .py file inside a cache (torch.compile's inductor output) is still a cache the engine cannot write."""
    log = (
        VLLM
        + "PermissionError: [Errno 13] Permission denied: '/root/.cache/vllm/torch_compile_cache/ab12/x.py'\n"
    )
    assert _triage(log).diagnoses[0].id == "cache-permission-denied"


def test_value_refusal_stays_invalid_argument():
    top = _triage('error while handling argument "--ctx-size": stoi\n').diagnoses[0]
    assert top.id == "llamacpp-invalid-argument"


def test_order_follows_the_calibrated_figures(monkeypatch):
    """A family capped by shared_wording.py ranks below one whose shown figure is higher (fresh-138: a capped 0.78 was
    listed above 0.80): the order a reader sees is the figures' order."""
    shared = {"llamacpp-bind-failed": {"matched": 4, "own": 1, "others": {"a": 1, "b": 1, "c": 1}}}
    monkeypatch.setattr(shared_wording, "shared", lambda: shared)
    log = (
        "0.00.009.121 E cmn  common_contr: failed to load control vector file from /srv/vectors/calm.gguf\n"
        "0.00.010.000 E srv    start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080\n"
    )
    causes = [d for d in _triage(log).diagnoses if d.role == "cause"]
    assert [d.id for d in causes[:2]] == ["llamacpp-control-vector-unusable", "llamacpp-bind-failed"]
    assert causes[1].confidence_kind == "calibrated" and causes[1].confidence == 0.5
    figures = [d.confidence for d in causes]
    assert figures == sorted(figures, reverse=True)
