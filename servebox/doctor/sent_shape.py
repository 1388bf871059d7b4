"""A request refused with 400 whose reason the log does not show, where a body the log shows sent a field as a JSON
kind the API never takes for it: the body names the cause (request-field-wrong-type).

learn50b (fresh-456's fresh456-vllm-httpx-messages-an-object, read as uncaught-exception 0.45): a script posted chat
`messages` as ONE message object; vLLM answered 400 (its access line '"POST /v1/chat/completions HTTP/1.1" 400 Bad
Request', the reason only in the reply) and httpx's raise_for_status() printed only "Client error '400 Bad Request'"
(requests' '400 Client Error: Bad Request for url', aiohttp's '400, message='Bad Request'' alike). The paste still
shows the body the script sent (request-body-shown: curl's -d, a '# request:' line, Python's json= / json.dumps(...),
JS's JSON.stringify(...)). vLLM validates a body with pydantic in lax mode (entrypoints/serve/engine/protocol.py
OpenAIBaseModel; chat_completion/protocol.py ChatCompletionRequest, rendered here): it coerces '32' to an integer,
'0.7' to a number and 'true' to a boolean, but never an object or a string to a list, a list or an object to a
scalar, a number to a string, nor a word to a number ('Input should be a valid list [type=list_type, ...]'). So where
such a body is shown beside a 400 (on the same route where both name one), and no entry read the server's own reason,
the field is the cause. Only the kinds pydantic never coerces count; a value it would accept ('32' for max_tokens)
proves nothing, and the bare refusal stays request-refused-no-reason.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.triage import Hits

if TYPE_CHECKING:
    from servebox.doctor.triage import RaisedException, Triage

WRONG_TYPE = "request-field-wrong-type"
SENT = "request-body-shown"
BARE = "request-refused-no-reason"
# the kinds each field of the OpenAI-style routes takes (vLLM 0.32 ChatCompletionRequest / CompletionRequest)
TAKES = {
    "messages": ("list",),
    "tools": ("list",),
    "model": ("string",),
    "logit_bias": ("object",),
    "response_format": ("object",),
    "stream_options": ("object",),
    "stop": ("string", "list"),
    "prompt": ("string", "list"),
    **dict.fromkeys(("max_tokens", "max_completion_tokens", "n", "seed", "top_k", "min_tokens", "top_logprobs"), ("integer",)),
    **dict.fromkeys(("temperature", "top_p", "min_p", "presence_penalty", "frequency_penalty", "repetition_penalty"), ("number",)),
    **dict.fromkeys(("stream", "echo", "ignore_eos", "skip_special_tokens"), ("boolean",)),
}  # fmt: skip
NAMED = {
    "list": "a list",
    "object": "an object",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
}
NAMED["boolean"] = "a boolean"
FIELD = re.compile(r"""["'](?P<field>""" + "|".join(TAKES) + r""")["']\s*:\s*(?P<value>[^\n]{1,60})""")
# pydantic's lax bool strings (pydantic-core's str_as_bool)
BOOL_WORDS = {"0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes"}
# a client's own words for a 400 answer: httpx, requests, aiohttp, curl --fail, the openai client
CLIENT_400 = re.compile(
    r"\b400\b[^\n]{0,20}Bad Request|Bad Request[^\n]{0,20}\b400\b|\b400, message=|Error code: 400\b|returned error: 400\b"
)
# where a shown body starts: knowledge/requests.toml request-body-shown's own markers
BODY = re.compile(
    r"""(?:# request: (?:POST|PUT) \S+\s*|\s(?:-d|--data(?:-raw)?) '|\bjson\s*=\s*|json\.dumps\(\s*|JSON\.stringify\(\s*)(\{.*)"""
)
PATH = re.compile(r"https?://[^/\s'\"]+(/[^\s'\"?]*)|\"(?:POST|PUT) (/\S*) HTTP")


def _kind(value: str) -> tuple[str, str]:
    """The JSON kind of a value as a body or a Python dict literal writes it, and the scalar's text."""
    head = value.lstrip()
    if head[:1] in "[{":
        return ("list" if head[0] == "[" else "object"), ""
    if head[:1] in "\"'":
        end = head.find(head[0], 1)
        return "string", head[1:end] if end > 0 else head[1:]
    word = re.match(r"[^\s,}\]]+", head)
    text = word.group(0) if word else ""
    if text in ("true", "false", "True", "False"):
        return "boolean", text
    if text in ("null", "None"):
        return "null", text
    return ("number" if re.fullmatch(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", text) else "other"), text


def _number(text: str, whole: bool) -> bool:
    try:
        value = float(text.strip())
    except ValueError:
        return False
    return value.is_integer() if whole else True


def _accepts(want: str, kind: str, text: str) -> bool:
    """Whether pydantic's lax mode takes a value of this kind for a field of kind `want`."""
    if kind in ("null", "other") or kind == want:
        return kind != "number" or want != "integer" or _number(text, True)
    if want in ("integer", "number"):
        return kind == "boolean" or (kind in ("string", "number") and _number(text, want == "integer"))
    if want == "boolean":
        return kind in ("string", "number") and text.strip().lower() in BOOL_WORDS
    return False


def _top_keys(body: str):
    """The matches of FIELD at the body's top level only: a tool's JSON schema may name a property "temperature" or
    "model" whose value is an object, which is no field of the request."""
    depth, quote, i = 0, "", 0
    while i < len(body):
        c = body[i]
        if quote:
            i += 2 if c == "\\" else 1
            if c == quote:
                quote = ""
            continue
        if depth == 1 and c in "\"'" and (m := FIELD.match(body, i)) is not None:
            yield m
        if c in "\"'":
            quote = c
        depth += (c in "[{") - (c in "]}")
        i += 1


def _shown(value: str) -> str:
    """The value as sent, up to its own end (a container's closing bracket, a scalar's comma), at most 40 characters."""
    depth, quote = 0, ""
    for i, c in enumerate(value):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif (c in "]}" and depth == 0) or (c == "," and depth == 0):
            value = value[:i]
            break
        elif c in "]}" and (depth := depth - 1) == 0:
            value = value[: i + 1]
            break
    return value if len(value) <= 40 else value[:40] + "..."


def _misshapen(text: str) -> tuple[str, str] | None:
    """(field, what was sent against what it takes) for the first field of a shown body the API cannot take."""
    shown = BODY.search(text)
    for m in _top_keys(shown.group(1) if shown else ""):
        kind, scalar = _kind(m.group("value"))
        wants = TAKES[m.group("field")]
        if not any(_accepts(want, kind, scalar) for want in wants):
            taken = " or ".join(NAMED[w] for w in wants)
            sent = _shown(m.group("value").strip())
            return m.group("field"), f"sent as {NAMED.get(kind, 'a ' + kind)}, {sent}, where it takes {taken}"
    return None


def _path(text: str) -> str:
    m = PATH.search(text)
    return (m.group(1) or m.group(2) or "").rstrip("/") if m else ""


def _refusals(t: Triage, raised: list[RaisedException]) -> list[tuple[int, str]]:
    """The lines that show a 400 answer: the server's access lines, a client's raised error."""
    bare = t.hits.get(BARE)
    lines = [(n, s) for n, s in (bare.evidence if bare else []) if re.search(r"\b400\b", s)]
    return lines + [(e.line, f"{e.type}: {e.message}") for e in raised if CLIENT_400.search(e.message)]


def _reason_read(t: Triage, sig) -> bool:
    """A request family read the refusal's own words (a hint, which guesses from the bare 400 too, does not count)."""
    hit = t.hits.get(sig.id)
    return (
        hit is not None
        and sig.role == "cause"
        and sig.category == "requests"
        and not (hit.weak or hit.contextual)
    )


def shape_refused(t: Triage, raised: list[RaisedException]) -> None:
    """Add request-field-wrong-type's hit where a 400 is shown, no entry read the server's reason (no cause entry of
    the requests category matched), and a body the log shows sent a field as a kind the API never takes; its
    evidence is the body and the refusal (a client's raised 400 among it, so the family explains that exception). A
    family that read the server's own reason answers instead."""
    body = t.hits.get(SENT)
    if body is None or any(_reason_read(t, sig) for sig in t.signatures):
        return
    refusals = _refusals(t, raised)
    if not refusals:
        return
    for n, text in body.evidence:
        found = _misshapen(text)
        where = _path(text)
        if found is None or (where and all(_path(s) not in ("", where) for _, s in refusals)):
            continue
        field, msg = found
        t.hits[WRONG_TYPE] = Hits(
            count=1,
            first_line=n,
            last_line=max(m for m, _ in refusals),
            groups={"field": field, "msg": msg},
            evidence=[(n, text), *refusals[:3]],
        )
        return
