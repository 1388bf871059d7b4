"""The thirty-first fresh batch of doctor's corpus (batch "fresh-31"): REQUESTS a user gets wrong and EVENTS while a
server runs, on the real engines, DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch measures doctor
on what that procedure produces (fresh-20 drew flags, fresh-23 mistakes around the engine, fresh-25 model files).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2031):
  1. 12 request cases, each drawn in turn: engine = r.choice(ENGINES); endpoint = r.choice(ENDPOINTS[engine]);
     field = r.choice(FIELDS[engine, endpoint]); kind = r.choice(KINDS), drawn again (same r) until it applies to the
     field (applies(): "missing required" only to a field the endpoint requires, "too large for the context" only to a
     sized field, "unknown name" only to a field that holds a name, "out of range" only to a field with a range or a
     set of values; "wrong type" to every field).
     ENDPOINTS: the brief's five, each checked in the engine's own routes (vLLM 0.32: the routers under
     vllm/entrypoints; llama-server 11434: the route strings of the binary); both serve all five (vLLM's
     /v1/embeddings on a pooling model). FIELDS: the request fields each endpoint documents (OpenAI's API for the /v1
     ones, plus each engine's extras in its docs; llama-server's /tokenize takes content/add_special/with_pieces,
     vLLM's prompt/messages/add_special_tokens); /v1/models takes no body, so its one input is the API key (the
     Authorization header of a server started with --api-key).
     The concrete value follows the kind: wrong type = the value as a string where a number/bool/list/object is wanted
     (or a number where a string is); out of range = beyond the documented range or outside the set; unknown name = a
     name the server does not know (model, role, type, function, key); too large for the context = a size beyond the
     server's context (-c 512 / --max-model-len 512); missing required = the required field (or its required part) left
     out. The value chosen for each draw is written in `how`.
     The server is started healthy with the flags a user would use for that endpoint (llama-server -m GGUF --port P
     -c 512, plus --embeddings for embeddings, --api-key for /v1/models; vLLM api_server --model TINY --port P
     --max-model-len 512, plus --runner pooling for embeddings, --api-key for /v1/models), sent the one request, and
     stopped with SIGTERM. Case log = the server's whole log, then a line `# client:` and the response's status line
     and the first 400 bytes of its body (fresh-21 did this because servers log only an access line for a refused
     request). One server per draw, vLLM too.
  2. 4 running-server events, each drawn in turn: event = r.choice(EVENTS); engine = r.choice(ENGINES). Every event
     runs on a server started as in 1 (chat requests where a request is needed).
  Repeated draws (the procedure has no redraw for them) keep their place and get another value of the same kind.
  As run: the llama-server embeddings draws use --embeddings --pooling mean (with --embeddings alone the tiny GGUF,
  a generative Llama without a pooling type, refused every embeddings request for pooling 'none', masking the draw);
  /v1/models was not drawn; the context event used the server's default (context shift disabled in 11434).
Healthy outcomes (the server answers properly) are kept as they came; their expected is "none" unless the log shows a
refusal a user needs explained. Engines start as tools/doctor_corpus_fresh20.py, fresh23 and fresh25 start them
(tools/doctor-corpus.py's VLLM/LLAMA/ENV, corpus_tools). Every engine started is killed (its process group).
Usage (from the repository root; ports 18900-18902 of this batch's range 18900-18999):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh31.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
from corpus_tools import load, stop_group, use_ports  # tools/ is on sys.path: the makers run as scripts

use_ports(18900, "/tmp/fresh31/tiny-f32.gguf")

ENGINES = ["llama-server", "vllm"]
ENDPOINTS = {
    "llama-server": ["/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/tokenize", "/v1/models"],
    "vllm": ["/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/tokenize", "/v1/models"],
}
_CHAT = [
    "model",
    "messages",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "top_p",
    "top_k",
    "n",
    "stop",
]
_CHAT += [
    "seed",
    "logprobs",
    "top_logprobs",
    "response_format",
    "tools",
    "tool_choice",
    "stream",
    "stream_options",
]
_CHAT += ["logit_bias", "presence_penalty", "frequency_penalty"]
_COMPL = [
    "model",
    "prompt",
    "max_tokens",
    "temperature",
    "top_p",
    "top_k",
    "n",
    "stop",
    "seed",
    "logprobs",
    "echo",
]
_COMPL += ["stream", "stream_options", "logit_bias", "presence_penalty", "frequency_penalty"]
_LLAMA_EXTRA = ["grammar", "cache_prompt"]
_EMBED = ["model", "input", "encoding_format", "dimensions"]
FIELDS = {
    ("llama-server", "/v1/chat/completions"): _CHAT + _LLAMA_EXTRA,
    ("llama-server", "/v1/completions"): _COMPL + _LLAMA_EXTRA,
    ("llama-server", "/v1/embeddings"): _EMBED,
    ("llama-server", "/tokenize"): ["content", "add_special", "with_pieces"],
    ("llama-server", "/v1/models"): ["Authorization"],
    ("vllm", "/v1/chat/completions"): _CHAT,
    ("vllm", "/v1/completions"): _COMPL,
    ("vllm", "/v1/embeddings"): _EMBED,
    ("vllm", "/tokenize"): ["model", "prompt", "messages", "add_special_tokens"],
    ("vllm", "/v1/models"): ["Authorization"],
}
KINDS = ["wrong type", "out of range", "unknown name", "too large for the context", "missing required"]
REQUIRED = {"messages", "prompt", "input", "content", "Authorization"}
SIZED = {"messages", "prompt", "input", "content", "max_tokens", "max_completion_tokens"}
NAMED = {"model", "messages", "response_format", "tools", "tool_choice", "stream_options", "encoding_format"}
NAMED |= {"grammar", "Authorization"}
RANGED = {"max_tokens", "max_completion_tokens", "temperature", "top_p", "top_k", "n", "seed", "top_logprobs"}
RANGED |= {
    "logit_bias",
    "presence_penalty",
    "frequency_penalty",
    "response_format",
    "tool_choice",
    "encoding_format",
}
RANGED |= {"dimensions", "logprobs"}
EVENTS = [
    "client disconnects mid-stream",
    "SIGTERM during a request",
    "SIGINT",
    "a second server started on the same port",
    "the model file deleted/renamed while the server runs, then a request",
    "a request beyond the context with context shift off/on",
    "parallel requests above --parallel / --max-num-seqs",
]


def applies(field: str, kind: str) -> bool:
    """Whether a value of KIND exists for FIELD (the redraw rule of the procedure)."""
    return {
        "wrong type": True,
        "out of range": field in RANGED,
        "unknown name": field in NAMED,
        "too large for the context": field in SIZED,
        "missing required": field in REQUIRED,
    }[kind]


def draws() -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str]]]:
    """The 12 request draws (engine, endpoint, field, kind) and the 4 event draws (event, engine)."""
    r = random.Random(2031)
    requests = []
    for _ in range(12):
        engine = r.choice(ENGINES)
        endpoint = r.choice(ENDPOINTS[engine])
        field = r.choice(FIELDS[engine, endpoint])
        kind = r.choice(KINDS)
        while not applies(field, kind):
            kind = r.choice(KINDS)
        requests.append((engine, endpoint, field, kind))
    events = []
    for _ in range(4):
        event = r.choice(EVENTS)
        events.append((event, r.choice(ENGINES)))
    return requests, events


@contextmanager
def server(h, argv: list[str], port: int, timeout: float):
    """A running engine (its log file's path; None if it never answered /health); killed (process group) after."""
    with tempfile.NamedTemporaryFile(
        prefix="fresh31-", suffix=".log", delete=False
    ) as log:  # read after the kill
        env = {**os.environ, **h.ENV}
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            ok = h.wait_healthy(port, time.monotonic() + timeout)
            time.sleep(1)
            yield Path(log.name) if ok else None, Path(log.name)
        finally:
            stop_group(proc, grace=30)
            time.sleep(1)


def client(method: str, url: str, body: dict | None, headers: dict | None = None) -> str:
    """What the client saw: `# client:`, the status line, the body's first 400 bytes."""
    try:
        r = httpx.request(method, url, json=body, headers=headers, timeout=120)
        line = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
        return f"# client:\n{line}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"# client:\n{type(exc).__name__}: {exc}\n"


def read(path: Path, start: int = 0) -> str:
    return path.read_bytes()[start:].decode("utf-8", "replace")


def llama_request(
    h, flags: list[str], path: str, body: dict | None, method: str = "POST", headers=None
) -> str:
    """One llama-server (-c 512 and FLAGS), one request; its whole log, then the client's lines."""
    port = h.LLAMA_PORT
    argv = [h.LLAMA, "-m", str(h.GGUF), "--port", port, "-c", "512", *flags]
    with server(h, argv, int(port), 60) as (ok, log):
        answer = client(method, f"http://127.0.0.1:{port}{path}", body, headers) if ok else ""
    return read(log) + answer


def vllm_request(h, tiny: Path, flags: list[str], path: str, body: dict, timeout: float) -> str:
    """One vLLM (--max-model-len 512 and FLAGS), one request; its whole log, then the client's lines."""
    port = os.environ["DOCTOR_CORPUS_PORT"]
    argv = [*h.VLLM, str(tiny), "--port", port, "--max-model-len", "512", *flags]
    with server(h, argv, int(port), timeout) as (ok, log):
        answer = client("POST", f"http://127.0.0.1:{port}{path}", body) if ok else ""
        time.sleep(2)
    return read(log) + answer


def chat(text: str = "hello", **extra) -> dict:
    return {"messages": [{"role": "user", "content": text}], "max_tokens": 8, **extra}


def vllm_makers(h, tiny: Path, timeout: float) -> dict:
    m = str(tiny)
    requests = {
        # draw 2: a whole document sent to /tokenize to count it (4001 tokens; the context is 512)
        "fresh31-vllm-tokenize-prompt-4000-tokens": (
            "/tokenize",
            {"model": m, "prompt": "hello world " * 1000},
        ),
        # draw 3: the model given as a number
        "fresh31-vllm-tokenize-model-number": ("/tokenize", {"model": 7, "prompt": "hello"}),
        # draw 4: stream as the string "true"
        "fresh31-vllm-completions-stream-string-true": (
            "/v1/completions",
            {"model": m, "prompt": "hello", "max_tokens": 8, "stream": "true"},
        ),
        # draw 5 (same draw as 2, another value): a shorter prompt over the context (1201 tokens)
        "fresh31-vllm-tokenize-prompt-1200-tokens": ("/tokenize", {"model": m, "prompt": "hello " * 600}),
        # draw 6: chat's logprobs (a bool) given completions' count
        "fresh31-vllm-chat-logprobs-5": ("/v1/chat/completions", {"model": m, **chat(logprobs=5)}),
        # draw 7 (same draw as 4, another value): stream as the string "True"
        "fresh31-vllm-completions-stream-string-True": (
            "/v1/completions",
            {"model": m, "prompt": "hello", "max_tokens": 8, "stream": "True"},
        ),
        # draw 9: stream_options given as a string instead of an object
        "fresh31-vllm-chat-stream-options-string": (
            "/v1/chat/completions",
            {"model": m, **chat(stream=True, stream_options="include_usage")},
        ),
        # draw 12: top_logprobs as the string "5"
        "fresh31-vllm-chat-top-logprobs-string": (
            "/v1/chat/completions",
            {"model": m, **chat(logprobs=True, top_logprobs="5")},
        ),
    }
    return {k: (lambda p=p, b=b: vllm_request(h, tiny, [], p, b, timeout)) for k, (p, b) in requests.items()}


def llama_makers(h) -> dict:
    # --pooling mean stands in for the pooling type a real embedding GGUF carries (the tiny one, a generative Llama,
    # has none: with --embeddings alone every /v1/embeddings request is refused for pooling 'none', masking the draw)
    emb = ["--embeddings", "--pooling", "mean"]
    return {
        # draw 1: an encoding_format OpenAI does not have (float and base64 are the two)
        "fresh31-llama-embeddings-encoding-format-float32": lambda: llama_request(
            h, emb, "/v1/embeddings", {"input": "hello", "encoding_format": "float32"}
        ),
        # draw 8: a temperature below the range
        "fresh31-llama-chat-temperature-negative": lambda: llama_request(
            h, [], "/v1/chat/completions", chat(temperature=-1)
        ),
        # draw 10 (same draw as 1, another value): int8
        "fresh31-llama-embeddings-encoding-format-int8": lambda: llama_request(
            h, emb, "/v1/embeddings", {"input": "hello", "encoding_format": "int8"}
        ),
        # draw 11: a document longer than the context embedded in one input (4001 tokens)
        "fresh31-llama-embeddings-input-4000-tokens": lambda: llama_request(
            h, emb, "/v1/embeddings", {"input": "hello world " * 1000}
        ),
    }


def event_makers(h) -> dict:
    port = h.LLAMA_PORT
    base = f"http://127.0.0.1:{port}"

    def llama(*flags: str, model: Path | None = None) -> list[str]:
        return [h.LLAMA, "-m", str(model or h.GGUF), "--port", port, "-c", "512", *flags]

    def beyond_context() -> str:
        # the server's default (context shift disabled in 11434): a prompt of about 2000 tokens to a -c 512 server
        body = {"prompt": "hello world " * 1000, "max_tokens": 16}
        with server(h, llama(), int(port), 60) as (ok, log):
            answer = client("POST", f"{base}/v1/completions", body) if ok else ""
        return read(log) + answer

    def model_renamed() -> str:
        # the GGUF moved away (renamed) while the server runs, then a chat request
        with tempfile.TemporaryDirectory(prefix="fresh31-") as d:
            gguf = Path(d) / "tiny-f32.gguf"
            shutil.copy2(h.GGUF, gguf)
            with server(h, llama(model=gguf), int(port), 60) as (ok, log):
                gguf.rename(Path(d) / "tiny-f32.gguf.old")
                time.sleep(1)
                answer = client("POST", f"{base}/v1/chat/completions", chat()) if ok else ""
        return read(log) + answer

    def parallel_above_slots() -> str:
        # --parallel 1 and four chat requests sent at once
        answers: list[str] = ["", "", "", ""]

        def send(i: int) -> None:
            answers[i] = client("POST", f"{base}/v1/chat/completions", chat(f"hello {i}", max_tokens=64))

        with server(h, llama("--parallel", "1"), int(port), 60) as (ok, log):
            if ok:
                threads = [threading.Thread(target=send, args=(i,)) for i in range(4)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(150)
        return read(log) + "".join(answers)

    def second_server_same_port() -> str:
        # a healthy server on the port, then the same command again in another terminal: the second one's log
        with server(h, llama(), int(port), 60) as (ok, _first):
            if not ok:
                return read(_first)
            with server(h, llama(), int(port), 15) as (_, second):
                time.sleep(3)
                return read(second)

    return {
        "fresh31-llama-event-prompt-beyond-context-shift-off": beyond_context,
        "fresh31-llama-event-model-file-renamed-then-request": model_renamed,
        "fresh31-llama-event-four-requests-parallel-1": parallel_above_slots,
        "fresh31-llama-event-second-server-same-port": second_server_same_port,
    }


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        requests, events = draws()
        for i, d in enumerate(requests, 1):
            print(f"request {i}: {' | '.join(d)}")
        for i, d in enumerate(events, 1):
            print(f"event {i}: {' | '.join(d)}")
        return
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/fresh31/tiny"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
    wanted = set(sys.argv[1:])
    makers = {**llama_makers(h), **event_makers(h)}
    makers.update(vllm_makers(h, tiny, timeout))
    f5.write_cases(h, makers, wanted)


if __name__ == "__main__":
    main()
