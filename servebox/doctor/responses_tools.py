"""Tools a vLLM Responses request asked for that the server, by its start flags, cannot serve -- answered with a 200.

learn50c (fresh-450's responses-tool-auto-no-tool-flags and responses-web-search-preview-tool). vLLM 0.32's
/v1/chat/completions and /v1/messages refuse tools the server has no flags for (HTTP 400, tool-choice-needs-parser's
wording); its /v1/responses route (entrypoints/openai/responses/serving.py) refuses neither of two such requests:
  - a built-in tool (web_search_preview, code_interpreter, container, mcp) is offered to the model only through a tool
    server (create_responses: available_tools is [] where tool_server is None): echoed in the reply, never used;
  - function tools with tool_choice auto are rendered, but without a --tool-call-parser the output is never parsed
    ('Fallback when no parser is configured': one message item of text), so no function_call can come back.
    + learn54f (fresh-517's responses-named-tool-choice-no-tool-flags, doctor none 0.10 at first contact): a named
    ({"type": "function", "name": N}) or "required" tool_choice alike. responses/protocol.py check_tool_usage only
    checks the name against the tools; extract_structured_outputs reads text.format, never tool_choice; only the
    parser (parser/abstract_parser.py, built from --tool-call-parser) constrains a forced call. Without one the choice
    is echoed and the model writes free text (HTTP 200), where /v1/chat/completions and /v1/messages refuse the same
    choice with 'requires --tool-call-parser to be set'.
The log shows all it takes: vLLM's 'non-default args' line (the flags given) and the Responses reply that echoes the
tools and holds the output items. Only where both are in view, the flags lack what the tools need and the output holds
no call of that kind; and never beside a cause found by wording (a refusal of the same request says more).
Below the confident line: the model may not have wanted a tool this time, but it never could have had one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.attribution import readings
from servebox.doctor.bench_context import first_lines
from servebox.doctor.results import Diagnosis
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

ARGS, REPLY = "vllm-start-args-shown", "responses-reply-tools-shown"
BUILTIN, PARSER = "responses-builtin-tool-needs-tool-server", "tool-choice-needs-parser"
BUILTIN_TYPE = re.compile(r'"type":\s*"(?P<tool>web_search_preview\w*|code_interpreter|container|mcp)"')
FUNCTION_TYPE = re.compile(r'"type":\s*"function"')
# the choices that ask for a function call: auto, required, or one named ({"type": "function" | "custom", "name": N})
CALLING = re.compile(r'^(?:auto|required|\{[^}]*"type":\s*"(?:function|custom)")')
SURE = 0.6
PARSER_CAUSE = answer_text("responses_tools", "parser_cause")


def _fix(t: Triage, id_: str) -> str:
    """The entry's own fix: a family's (t.signatures) or a reading's (knowledge/readings.toml)."""
    sig = t.signature(id_)
    return sig.fix if sig is not None else readings()[id_]["fix"]


def _answer(t: Triage, id_: str, cause: str, reply_at: int) -> Diagnosis:
    return Diagnosis(
        id=id_,
        category="requests",
        role="cause",
        cause=cause,
        fix=_fix(t, id_),
        confidence=SURE,
        occurrences=1,
        first_line=reply_at,
        evidence=first_lines(t.hits[ARGS], t.hits[REPLY]),
        fatal=False,
    )


def tools_not_served(t: Triage, diagnoses: list[Diagnosis]) -> Diagnosis | None:
    """A built-in tool without --tool-server, or function tools with tool_choice auto without a tool-call parser, on
    the Responses route, with no call of that kind in the reply's output: the tool was silently never served."""
    args, reply = t.hits.get(ARGS), t.hits.get(REPLY)
    if args is None or reply is None or any(d.role == "cause" for d in diagnoses):
        return None
    flags, tools, output = (
        args.groups.get("args", ""),
        reply.groups.get("tools", ""),
        reply.groups.get("output", ""),
    )
    builtin = BUILTIN_TYPE.search(tools)
    if builtin and "'tool_server'" not in flags and f'"{builtin["tool"]}_call"' not in output:
        cause = readings()[BUILTIN]["cause"].format(tool=builtin["tool"])
        return _answer(t, BUILTIN, cause, reply.first_line)
    choice = reply.groups.get("choice", "").strip('"')
    if (
        CALLING.match(choice)
        and FUNCTION_TYPE.search(tools)
        and "'tool_call_parser'" not in flags
        and '"function_call"' not in output
    ):
        cause = PARSER_CAUSE.format(choice=choice, at=reply.first_line, args_at=args.first_line)
        return _answer(t, PARSER, cause, reply.first_line)
    return None
