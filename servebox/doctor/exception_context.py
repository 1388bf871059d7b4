"""What surrounds a raised exception's line in a log chunk: the lines its message goes on onto (pydantic's reason, a
message that starts below its type) and the innermost traceback frame the same process printed above it. Split from
triage.py, which reads the chunk and keeps what these find."""

from __future__ import annotations

import re

from servebox.doctor.caller import loaded_caller, script_called, served, traceback_frames
from servebox.doctor.structure import frame_below, match_frame, split_prefix

PYDANTIC_INPUT = re.compile(r"\s*\[type=\w+, input_value=.*$")
ENGINE_FRAMES_KEPT = 3
IMPORT_MACHINERY = re.compile(r"^<frozen importlib|(?:^|[/\\])importlib[/\\]__init__\.py$")


def line_at(chunk: bytes, position: int) -> tuple[int, int]:
    start = chunk.rfind(b"\n", 0, position) + 1
    end = chunk.find(b"\n", position)
    end = end if end >= 0 else len(chunk)
    # a line saved on Windows ends "\r\n": wordings anchored at the end must still match
    return start, end - 1 if end > start and chunk[end - 1] == 13 else end


# a message that ends in ':' and goes on as a numbered checklist ('Check that:\n1. The server is running\n2. ...'),
# then one closing 'Label: text' line (vllm bench serve's get_first_model_from_server puts 'Error: {the aiohttp error}'
# there, the refusal that made it; learn49c): Python prints str(e) as written, so those lines are the message's own
LIST_ITEM = re.compile(r"\d{1,2}[.)] \S")
LIST_TAIL = re.compile(r"[A-Z][A-Za-z ]{1,20}: \S")
LIST_LINES = 6


def following_lines(chunk: bytes, end: int, count: int, indented: bool = False) -> tuple[list[str], int]:
    """The payloads of the next `count` lines (pydantic's reason; with `indented`, only the indented run of a
    message that starts on the line below its type, or a numbered checklist and its closing 'Label: text' line, up to
    LIST_LINES), and how many lines were read."""
    out: list[str] = []
    listed = False
    while len(out) < (LIST_LINES if listed else count) and end < len(chunk):
        nxt = chunk.find(b"\n", end + 1)
        nxt = len(chunk) if nxt < 0 else nxt
        prefix = split_prefix(chunk[end + 1 : nxt].decode("utf-8", "replace"))
        payload = prefix.payload
        if indented and not payload[:1].isspace():
            if prefix.level or not (LIST_ITEM.match(payload) or (listed and LIST_TAIL.match(payload))):
                break
            if not LIST_ITEM.match(payload):  # the closing line ends the list
                out.append(payload.strip())
                break
            listed = True
        out.append(payload.strip())
        end = nxt
    # pydantic appends the whole input ("[type=value_error, input_value=ArgsKwargs(...") to the reason
    read = len(out)
    out = [PYDANTIC_INPUT.sub("", t) for t in out]
    return [t for t in out if t and not t.startswith("For further information")], read


def innermost_frame(chunk: bytes, start: int, end: int, component: str) -> dict:
    """RaisedException's fields of where: the file of the innermost traceback frame printed above an exception line by the same
    process (interleaved logs put other processes' lines in between), the innermost few in vLLM's
    tree (the engine's code that called the library that raised: attribution.py), whether the run's own script called,
    the innermost frame outside Python's import machinery (who imported, for an import error: registered_model.py), and
    code loaded into the engine that called the library that raised (caller.loaded_caller)."""
    floor, at, innermost, engine, importer = max(0, start - 16384), start, "", [], ""
    for looked in range(16):  # 8 lines to find the innermost frame (as ever), 8 more for the engine's
        at = chunk.rfind(b"File ", floor, at) if innermost or looked < 8 else -1
        if at < 0 or len(engine) == ENGINE_FRAMES_KEPT:
            break
        s, e = line_at(chunk, at)
        prefix = split_prefix(chunk[s:e].decode("utf-8", "replace"))
        m = match_frame(prefix.payload)
        if m and prefix.component == component:
            file = m["file"].split("site-packages/", 1)[-1] + f":{m['line']}"
            innermost = innermost or file
            importer = importer or ("" if IMPORT_MACHINERY.search(m["file"]) else file)
            if "vllm/" in file:
                engine.append(file)
    if not innermost and (innermost := frame_below(chunk, end, component)) and "vllm/" in innermost:
        engine.append(innermost)
    frames = traceback_frames(chunk, start, component)
    return {
        "raised_in": innermost,
        "engine_frames": engine,
        "script_called": script_called([f for f, _ in frames]),
        "importer": importer,
        "loaded_by": loaded_caller(frames),
        "served": served([f for f, _ in frames]),
    }
