"""servebox's own console reports (`servebox check`, `servebox plan`) as rich word-wrapped them, rejoined.

Why: check prints each finding's message and evidence through rich, which wraps a long line at the console's width
(80 when piped, COLUMNS otherwise) at a word boundary: the engine's wording that check quotes ('... which is' /
'larger than the available KV cache memory ...', 'Minimum capability: 75. Current capability:' / '70.') is cut in
two lines, and no wording matches either half (fresh-298's check logs, learn40h). Unlike a hard-wrapped paste
(unwrap.rejoin_hard_wrapped) the lines have no common length; what marks a cut is rich's own shape: the rest goes on
at column 0, where none of the report's own lines begins (a finding's header, its evidence indented 8 spaces, the
report's header, a prompt), and the cut line is long or keeps the space rich broke at.
One line out per line in: the rest is joined to the cut line, its own line left empty (line numbers still point
into the file). Only chunks that hold such a report are read (a byte search for its header's marks).
"""

from __future__ import annotations

import re

from servebox.doctor.line_join import join_runs

# the report's header ('SOURCE on GPU with PROFILE: 1 error(s), 2 warning(s)') and plan's 'vLLM will log (per rank):'
MARKERS = (b"error(s), ", b"vLLM will log (per rank):")
MIN_CUT = 60  # a cut line at the narrowest console (80 columns) still holds most of its width
# how a line of the report (or of what follows it in a paste) begins: a finding's header, an indented line, a prompt,
# servebox's own one-line refusal, an exception's header, plan's own lines (learn46a: its assumption / requirement /
# refused-flag lines, servebox/report/plan_view.py and cli/plan.py), a table's frame; an engine's log pasted
# below it (a level, a stamp, vLLM's '(EngineCore_DP0 pid=N)', a journal's 'unit[pid]: ', llama.cpp's own stamp)
_OWN_LINE = re.compile(
    r"\s|$|(?:error|warn|info) +[\w.-]+: |\$ |# |servebox: |[\w.]*(?:Error|Exception|Warning)\b|uncalibrated: "
    r"|calibrated: |vLLM will log|does not fit|fits\b|[\u2500-\u257f]|\[|\d{4}-\d\d-\d\d|Traceback|File \""
    r"|assumption: |requirement not met: |vLLM refuses the flag: |calibration saved: |Arithmetic$"
    r"|(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\b|\([^)]{0,40}pid=\d+\)|\w{3} [ \d]\d \d\d:|[\w.@-]+\[\d+\]: "
    r"|\d+\.\d\d\.\d{3}\.\d{3} [IWEDT] "
)


def rejoin_console_wrapped(chunk: bytes) -> bytes:
    """`chunk` with each line rich cut inside a servebox check / plan report joined to the line it was cut from."""
    at = min((i for i in (chunk.find(m) for m in MARKERS) if i >= 0), default=-1)
    if at < 0:
        return chunk
    start = chunk.rfind(b"\n", 0, at) + 1
    lines = chunk[start:].decode("utf-8", "replace").split("\n")
    join_runs(lines, lambda joined, _last, after: _cut(joined, after), _glue)
    return chunk[:start] + "\n".join(lines).encode()


def _glue(joined: str, rest: str) -> str:
    """rich broke at a space: kept at the cut line's end, or dropped (then put back)."""
    return joined + rest if joined.endswith(" ") else joined + " " + rest


def _cut(line: str, after: str) -> bool:
    """`after` is the rest of `line` that rich carried over: `line` is long or ends at the space it broke at, is no
    prompt, and `after` does not begin like a line of its own."""
    long_enough = len(line) >= MIN_CUT or (line.endswith(" ") and len(line.strip()) >= 20)
    return long_enough and not line.startswith("$ ") and not _OWN_LINE.match(after)
