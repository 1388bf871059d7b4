"""What after34g learnt from fresh-181's and fresh-179's misses, after scoring.

- generation-config-invalid by set_at_start (a general mechanism: start_defaults.set_at_start): a sampling field refused
  with the value vLLM took at start from a generation config (0.32 config/model.py 'Default vLLM sampling parameters
  have been overridden by the model's `generation_config.json` | by PATH: `{...}`'; 0.7-0.11 serving_chat's 'Using
  default chat sampling params from model: {...}'), where no request body the log shows sent that field: the file's
  value, not the request's. Where the request sent the field, where the file's number is not the refused one, or
  where no start-up line set it, the refusal stays request-sampling-param-out-of-range's.
- request-sampling-param-out-of-range widened: vLLM 0.32 sampling_params.py's bad_words checks ('bad_words cannot
  contain an empty string. Got bad_words=[...]', 'bad_words entries must tokenize to at least one token.', 'Too many
  bad words after tokenization: N. The max number is M.').
- shutdown-requested: a client's read timeout after uvicorn waited on connections still open at the stop ('Waiting
  for connections to close. (CTRL+C to force quit)', printed only while one is) is a request the stop cut
  (afterwards.stopped_mid_request); vLLM's EngineCore stopped by SIGINT ('trigger received signal=SIGINT') after the
  server came up, then a refused request, is the stop's doing (afterwards.stopped_then_refused), not a kill without
  a reason.

Each log is written in another wording than its corpus log (other versions' lines, paths, values).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

UP = "INFO:     Started server process [4242]\nINFO:     Application startup complete.\n"
OLD_DEFAULTS = (
    "INFO 03-04 10:00:00 [serving_chat.py:120] Using default chat sampling params from model: "
    "{'temperature': 3.0, 'top_p': 0.9}\n"
)
FOLDER_DEFAULTS = (
    "(APIServer pid=9) WARNING 03-04 10:00:00 [model.py:1893] Default vLLM sampling parameters have been overridden "
    "by /srv/genconfig: `{'top_p': 0.0}`. If this is not intended, please relaunch vLLM instance with "
    "`--generation-config vllm`.\n"
)
TEMP_REFUSED = (
    '{"object":"error","message":"temperature must be in [0, 2], got 3.0.","type":"BadRequestError"}\n'
)
TOP_P_REFUSED = '{"error":{"message":"top_p must be in (0, 1], got 0.0. (parameter=top_p, value=0.0)"}}\n'

CASES = [
    # 0.7-era start-up line, a chat that sent no temperature
    (
        "generation-config-invalid",
        OLD_DEFAULTS
        + UP
        + '$ curl localhost:8000/v1/chat/completions -d \'{"messages": [{"role": "user", "content": "hi"}]}\'\n'
        + TEMP_REFUSED,
    ),
    # 0.32's line for a --generation-config folder, no request body shown
    ("generation-config-invalid", FOLDER_DEFAULTS + UP + TOP_P_REFUSED),
    # bad_words: 0.32's tokenizer-side checks
    (
        "request-sampling-param-out-of-range",
        '{"error":{"message":"bad_words entries must tokenize to at least one token. (parameter=bad_words, '
        'value=[\' \'])","code":400}}\n',
    ),
    (
        "request-sampling-param-out-of-range",
        'openai.BadRequestError: Error code: 400 - {"error": {"message": "Too many bad words after tokenization: '
        '129. The max number is 128."}}\n',
    ),
    (
        "request-sampling-param-out-of-range",
        "ValueError: bad_words cannot contain an empty string. Got bad_words=['ok', '']\n",
    ),
]

NEAR_MISSES = [
    # a SamplingParams repr naming bad_words is no refusal
    (
        "request-sampling-param-out-of-range",
        "INFO 03-04 10:00:01 [logger.py:41] Received request cmpl-1: params: SamplingParams(n=1, temperature=1.0, "
        "bad_words=[], max_tokens=16)\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_a_field_the_request_sent_stays_the_requests():
    body = '# request: POST http://h:8000/v1/chat/completions {"messages": [], "temperature": 3.0}\n'
    assert_named("request-sampling-param-out-of-range", OLD_DEFAULTS + UP + body + TEMP_REFUSED)


def test_a_file_value_other_than_the_refused_one_stays_the_requests():
    defaults = FOLDER_DEFAULTS.replace("'top_p': 0.0", "'top_p': 0.95")
    assert_named("request-sampling-param-out-of-range", defaults + UP + TOP_P_REFUSED)


def test_a_field_no_start_up_line_set_stays_the_requests():
    assert_named("request-sampling-param-out-of-range", OLD_DEFAULTS + UP + TOP_P_REFUSED)


API_STOP = (
    "INFO 03-04 10:01:00 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
    "INFO:     Shutting down\n"
)
OPEN = "INFO:     Waiting for connections to close. (CTRL+C to force quit)\n"
TIMEOUT = "httpx.ReadTimeout: timed out\n"


def test_a_read_timeout_on_a_stream_the_stop_left_open_is_the_stops():
    top = top_cause(run(UP + API_STOP + OPEN + "INFO:     Application shutdown complete.\n" + TIMEOUT))
    assert top is not None and (top.id, top.role) == ("shutdown-requested", "cause") and top.confidence < 0.7


def test_a_read_timeout_with_no_connection_open_at_the_stop_stays_the_clients():
    assert_named(
        "client-read-timeout", UP + API_STOP + "INFO:     Application shutdown complete.\n" + TIMEOUT
    )


CORE_SIGINT = (
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1454] EngineCore: trigger received signal=SIGINT\n"
)
CORE_GONE = "(APIServer pid=70) ERROR 03-04 10:01:05 [core_client.py:600] Engine core process EngineCore_DP0 died unexpectedly.\n"
REFUSED = 'INFO:     127.0.0.1:5000 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error\n'


def test_an_engine_core_stopped_by_sigint_then_a_refused_request_is_the_stop():
    top = top_cause(run(UP + CORE_SIGINT + CORE_GONE + REFUSED))
    assert top is not None and (top.id, top.role) == ("shutdown-requested", "cause") and top.confidence < 0.7


def test_an_engine_core_gone_without_a_signal_line_stays_killed():
    assert_named(
        "engine-killed-from-outside", UP + CORE_GONE + REFUSED
    )  # learn41b (s41): vLLM's report alone answers the merged family


def test_an_engine_core_stopped_by_sigint_with_no_request_after_is_no_failure():
    assert top_cause(run(UP + CORE_SIGINT + CORE_GONE)) is None
