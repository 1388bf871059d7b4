"""What the scored batch fresh-368 (llama-server b11434, re-draw round 10) taught after scoring.

- request-prompt-token-id-out-of-vocab: llama-server's /tokenize with with_pieces true looks a content list's ids up
  (server-context.cpp post_tokenize: tokenize_mixed keeps numbers as ids, common_token_to_piece -> id_to_token.at), so
  an id outside the vocabulary fails with HTTP 500 and libstdc++'s what() 'vector::_M_range_check: __n (which is %zu)
  >= this->size() (which is %zu)', as /detokenize's does (learn43c); a negative id shows wrapped to size_t.
- request-longer-than-context (afterwards.cut_at_context): not where the log shows the reply reporting its stop at a
  limit (the OpenAI routes' finish_reason "length", /completion's "stop_type": "limit"): llama-server's stop at a full
  slot with context shift off is designed and told to the client (fresh368-llama-fill-ctx-no-context-shift, healthy);
  where the log shows no reply the reading stays, below the confident line (the corpus's makers read it both ways).
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

UP = (
    "$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --host 0.0.0.0 --port 8080 -c 4096 -np 2\n"
    "0.00.412.118 I srv    load_model: initializing, n_slots = 2, n_ctx_slot = 2048, kv_unified = 'true'\n"
    "0.00.431.002 I srv  llama_server: listening on http://0.0.0.0:8080\n"
)


def range_check(n: int, size: int) -> str:
    """libstdc++'s std::vector::at message as llama-server's ex_wrapper answers it (rendered)."""
    return (
        f'{{"error":{{"code":500,"message":"vector::_M_range_check: __n (which is {n}) >= this->size() '
        f'(which is {size})","type":"server_error"}}}}\n'
    )


def cut(reply: str = "", fields: str = '"max_tokens": 3000') -> str:
    """A chat asking more new tokens than the 2048-token slot holds, stopped at the slot's end (rendered numbers)."""
    return (
        UP
        + "1.20.118.440 I slot      release: id  1 | task 7 | stop processing: n_tokens = 2047, truncated = 1\n"
        f'# request: POST http://127.0.0.1:8080/v1/chat/completions {{"messages": [{{"role": "user", "content": '
        f'"Write a novel."}}], {fields}}}\nHTTP/1.1 200 OK\n' + reply
    )


CASES = [
    # curl's body after the URL: a mixed content list holding an id one past a 151936-token vocabulary
    (
        "request-prompt-token-id-out-of-vocab",
        UP
        + '$ curl -s http://127.0.0.1:8080/tokenize -d \'{"content": ["Hello", 151936], "with_pieces": true}\'\n'
        + range_check(151936, 151936),
    ),
    # a Python client (True), a negative pad -2 wrapped to size_t, the server's own 'got exception' line
    (
        "request-prompt-token-id-out-of-vocab",
        UP
        + '>>> requests.post("http://127.0.0.1:8080/tokenize", json={"content": [9707, -2], "with_pieces": True})\n'
        "1.02.553.101 W srv    operator(): got exception: "
        + range_check(18446744073709551614, 151936)
        + "<Response [500]>\n",
    ),
    # the bare shape (no reply shown): still read as cut at the context, below the confident line
    ("request-longer-than-context", cut()),
]

NEAR_MISSES = [
    # /tokenize without with_pieces echoes ids back: a range check beside it is some other .at()
    (
        "request-prompt-token-id-out-of-vocab",
        UP
        + '$ curl -s http://127.0.0.1:8080/tokenize -d \'{"content": ["Hello", 151936], "with_pieces": false}\'\n'
        + range_check(151936, 151936),
    ),
    # vLLM's route list names /tokenize on every start: no request of it
    (
        "request-prompt-token-id-out-of-vocab",
        "INFO 05-02 10:00:01 [launcher.py:46] Route: /tokenize, Methods: POST\n"
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 4)\n",
    ),
    # the designed stop at a full slot, told to the client: an OpenAI reply's finish_reason length
    (
        "request-longer-than-context",
        cut(
            '{"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant","content":"It was"}}]}\n'
        ),
    ),
    # ... a streamed chat's last chunk
    (
        "request-longer-than-context",
        cut(
            'data: {"choices":[{"finish_reason":"length","index":0,"delta":{}}],"object":"chat.completion.chunk"}\n'
        ),
    ),
    # ... the openai SDK's repr of the reply
    (
        "request-longer-than-context",
        cut(
            "ChatCompletion(id='chatcmpl-4', choices=[Choice(finish_reason='length', index=0, logprobs=None)])\n"
        ),
    ),
    # ... the native /completion's reply (server-task.cpp to_json_non_oaicompat)
    (
        "request-longer-than-context",
        cut(
            '{"index":0,"content":"It was","stop":true,"tokens_predicted":2010,"truncated":true,"stop_type":"limit"}\n',
            '"n_predict": 3000',
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_reported_stop_is_not_named_at_all():
    """Stronger than not confident: a reply that reports the limit leaves no request-longer-than-context."""
    for family, log in NEAR_MISSES[2:]:
        assert all(d.id != family for d in run(log).diagnoses), log


def test_the_bare_cut_is_below_the_confident_line():
    top = top_cause(run(cut()))
    assert top is not None and top.id == "request-longer-than-context" and 0.5 <= top.confidence < 0.7


def test_a_reply_that_stopped_for_another_reason_does_not_clear_the_cut():
    """finish_reason stop (a stop word, EOS) says nothing about the cut slot: the reading stays."""
    log = cut(
        '{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"."}}]}\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "request-longer-than-context"
