"""What the measured batches fresh-450 (vLLM's Responses API) and fresh-451 (servebox up) taught learn50c.

- responses-builtin-tool-needs-tool-server (new) and tool-choice-needs-parser on the Responses route: vLLM 0.32's
  responses/serving.py offers built-in tools only through a --tool-server and parses tool calls only with a
  --tool-call-parser; the route answers 200 either way (responses_tools.py reads the start flags and the reply).
- engine-killed-from-outside over servebox-start-limit-reached where every start reached ready, then vanished with
  nothing in the engine's log (ready_then_gone.py).
"""

from __future__ import annotations

from tests.doctor_text import run, top_cause

ARGS = (
    "(APIServer pid=4100) INFO 01-02 10:00:00 [api_utils.py:286] non-default args: {{'model_tag': 'Qwen/Qwen3-8B',"
    " 'port': 8000{extra}}}\n"
    "(APIServer pid=4100) INFO 01-02 10:01:00 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
    'INFO:     10.0.0.5:40122 - "POST /v1/responses HTTP/1.1" 200 OK\n'
)
REPLY = (
    '{{"id":"resp_1","created_at":1,"incomplete_details":null,"instructions":null,"metadata":null,"model":"Qwen/Qwen3-8B",'
    '"object":"response","output":[{output}],"parallel_tool_calls":true,"temperature":0.7,"tool_choice":"{choice}",'
    '"tools":[{tools}],"top_p":1.0,"status":"completed"}}\n'
)
TEXT = '{"id":"msg_1","content":[{"annotations":[],"text":"Let me look.","type":"output_text"}],"role":"assistant","type":"message"}'
CALL = '{"arguments":"{\\"city\\":\\"Oslo\\"}","call_id":"call_1","name":"weather","type":"function_call","id":"fc_1"}'
FUNC = '{"name":"weather","parameters":{"type":"object"},"type":"function","description":"weather"}'


def log(extra: str = "", output: str = TEXT, choice: str = "auto", tools: str = FUNC) -> str:
    return ARGS.format(extra=extra) + REPLY.format(output=output, choice=choice, tools=tools)


def top(text: str):
    return top_cause(run(text))


def test_code_interpreter_without_tool_server_is_the_builtin_family():
    d = top(log(tools='{"type":"code_interpreter","container":{"type":"auto"}}'))
    assert (
        d is not None and d.id == "responses-builtin-tool-needs-tool-server" and "code_interpreter" in d.cause
    )


def test_builtin_tool_with_a_tool_server_is_not_it():
    d = top(log(extra=", 'tool_server': 'demo'", tools='{"type":"web_search_preview"}'))
    assert d is None or d.id != "responses-builtin-tool-needs-tool-server"


def test_function_tools_auto_without_parser_on_responses_is_tool_choice_needs_parser():
    d = top(log())
    assert d is not None and d.id == "tool-choice-needs-parser" and d.confidence < 0.7


def test_function_tools_with_parser_flags_is_not_it():
    flags = ", 'enable_auto_tool_choice': True, 'tool_call_parser': 'hermes'"
    d = top(log(extra=flags))
    assert d is None or d.id != "tool-choice-needs-parser"


def test_a_function_call_in_the_output_is_not_it():
    d = top(log(output=CALL))
    assert d is None or d.id != "tool-choice-needs-parser"


def test_tool_choice_none_is_not_it():
    d = top(log(choice="none"))
    assert d is None or d.id != "tool-choice-needs-parser"


def up(events: list[str], give_up: str = "no known cause in the log") -> str:
    lines = ["$ servebox up spec.toml"]
    for i, e in enumerate(events):
        why = "start" if i == 0 else f"restart {i}"
        lines.append(
            f"2027-01-02T10:0{i}:00Z qwen: started pid {900 + i} ({why}), log .servebox/logs/qwen.log"
        )
        if e == "ready":
            lines.append(f"2027-01-02T10:0{i}:40Z qwen: ready (40 s after start, measured)")
    lines.append(
        f"2027-01-02T10:09:00Z qwen: FAILED, not restarting: gave up (start limit: {len(events) - 1} restarts in 600 s):"
        f" {give_up}; fix it, then start servebox up again"
    )
    return "\n".join(lines) + "\n"


def test_ready_every_start_then_start_limit_is_a_kill():
    d = top(up(["ready"] * 4))
    assert d is not None and d.id == "engine-killed-from-outside" and d.role == "cause"


def test_a_start_that_never_got_ready_stays_the_start_limit():
    d = top(up(["ready", "died", "ready"]))
    assert d is not None and d.id != "engine-killed-from-outside"


def test_a_crash_loop_short_of_ready_stays_the_start_limit():
    d = top(up(["died"] * 3))
    assert d is not None and d.id == "servebox-start-limit-reached"


def test_a_relayed_note_is_not_read_as_a_kill():
    note = "no known cause; note: An orderly stop was asked for (SIGTERM/SIGINT, systemctl stop)."
    d = top(up(["ready"] * 3, give_up=note))
    assert d is None or d.id != "engine-killed-from-outside"
