"""What after34j learnt from fresh-180's fills-context-no-shift-v2 and fresh-184's sigwinch-mid-generation, after
scoring.

- request-longer-than-context by afterwards.cut_at_context (a general mechanism): llama-server released a generation
  at its slot's end ('stop processing: n_tokens = N, truncated = 1'; older builds 'n_past = N'; 2024's JSON log
  '"msg":"slot released",...,"truncated":true') with no 'slot context shift' in the log (a shift sets truncated too),
  while a request body the log shows asked for more new tokens (n_predict / max_tokens / max_completion_tokens) than
  a slot holds (11434's 'load_model: initializing, n_slots = N, n_ctx_slot = M'; older 'new slot n_ctx_slot = M'; JSON
  '"n_ctx_slot":M'): the answer was cut at the context. Confident where the release says the slot was full (n_tokens
  = M - 1); only a symptom beside another named failure (a client's read timeout).
- Not where the request set no limit (ending at the context is what it asked for), where its limit fits the slot, nor
  under context shift.

Each log is written in another wording than its corpus log (other versions' lines, sizes, endpoints).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, run, top_cause

NEW_SLOTS = (
    "0.00.749.202 I srv    load_model: initializing, n_slots = 2, n_ctx_slot = 1024, kv_unified = 'true'\n"
)
UP = "0.00.766.684 I srv  llama_server: listening on http://127.0.0.1:8080\n"
NEW_FULL = (
    "0.09.379.970 I slot      release: id  1 | task 4 | stop processing: n_tokens = 1023, truncated = 1\n"
)
# llama.cpp b4xxx-b6xxx (server.cpp SLT_INF 'new slot n_ctx_slot = %d', release 'n_past = %d')
OLD_SLOTS = "slot         init: id  0 | task -1 | new slot n_ctx_slot = 4096\n"
OLD_UP = "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
OLD_FULL = "slot      release: id  0 | task 0 | stop processing: n_past = 4095, truncated = 1\n"
# 2024's JSON log (keys in alphabetical order, as some builds printed them)
JSON_SLOTS = '{"tid":"1","timestamp":1,"level":"INFO","function":"init","line":1,"msg":"new slot","id_slot":0,"n_ctx_slot":512}\n'
JSON_FULL = (
    '{"function":"update_slots","level":"INFO","line":1721,"msg":"slot released","n_cache_tokens":512,"n_ctx":512,'
    '"n_past":511,"n_system_tokens":0,"slot_id":0,"task_id":0,"tid":"1","timestamp":1,"truncated":true}\n'
)
STOP = "1.10.398.394 I srv    operator(): operator(): cleaning up before exit...\n"


def body(fields: str) -> str:
    return f'# request: POST http://127.0.0.1:8080/v1/chat/completions {{"messages": [], {fields}}}\nHTTP/1.1 200 OK\n'


def assert_cut(log: str, confident: bool = True) -> None:
    top = top_cause(run(log))
    assert top is not None and (top.id, top.role) == ("request-longer-than-context", "cause"), (top, log)
    # learn44f: the slot-full figure (0.60) is below the confident line; "confident" reads it against the 0.50 below
    assert (top.confidence >= 0.6) is confident, top.confidence


def test_a_chat_asking_more_tokens_than_the_slot_holds_is_cut():
    assert_cut(NEW_SLOTS + UP + NEW_FULL + STOP + body('"max_tokens": 1500'))


def test_older_wordings_and_max_completion_tokens():
    assert_cut(OLD_SLOTS + OLD_UP + OLD_FULL + body('"max_completion_tokens": 8000'))


def test_the_json_log_and_n_predict():
    curl = """$ curl http://127.0.0.1:8080/completion -d '{"prompt": "hi", "n_predict": 700}'\n"""
    assert_cut(JSON_SLOTS + curl + JSON_FULL)


def test_a_release_short_of_the_slots_end_is_below_the_confident_line():
    short = NEW_FULL.replace("n_tokens = 1023", "n_tokens = 1000")
    assert_cut(NEW_SLOTS + UP + short + body('"max_tokens": 1500'), confident=False)


def test_no_limit_in_the_request_is_what_it_asked_for():
    assert top_cause(run(NEW_SLOTS + UP + NEW_FULL + STOP + body('"ignore_eos": true'))) is None
    assert top_cause(run(NEW_SLOTS + UP + NEW_FULL + STOP + body('"n_predict": -1'))) is None


def test_a_limit_the_slot_holds_is_not_this():
    assert top_cause(run(NEW_SLOTS + UP + NEW_FULL + STOP + body('"max_tokens": 900'))) is None


def test_no_request_shown_says_nothing():
    assert top_cause(run(NEW_SLOTS + UP + NEW_FULL + STOP)) is None


def test_under_context_shift_the_answer_was_not_cut():
    shift = "0.05.964.999 W slot   operator(): id  1 | task 4 | slot context shift, n_keep = 0, n_left = 1022, n_discard = 511\n"
    assert top_cause(run(NEW_SLOTS + UP + shift + NEW_FULL + STOP + body('"max_tokens": 1500'))) is None


def test_beside_a_clients_timeout_it_is_only_a_symptom():
    log = NEW_SLOTS + UP + NEW_FULL + body('"max_tokens": 1500') + "ReadTimeout: timed out\n"
    assert_named("client-read-timeout", log)
    cut = [d for d in run(log).diagnoses if d.id == "request-longer-than-context"]
    assert cut and cut[0].role == "symptom" and cut[0].confidence < 0.7
