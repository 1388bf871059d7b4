"""A plain message as vLLM's last line before exit status 1, with no traceback: a SystemExit with text, raised by code
loaded into the engine.

learn54c (s54, fresh-508's fresh508-vllm-05-general-plugin-register-sys-exit, doctor none at first contact): a general
plugin's register() called sys.exit('tiny_guard: TINY_GUARD_KEY is not set; refusing to start'). vLLM 0.32's
plugins/__init__.py load_general_plugins() calls every vllm.general_plugins function unguarded (only plugin.load(),
the import, is under `except Exception`, and SystemExit is no Exception), and for that default group it logs at DEBUG
only, so nothing of vLLM's says a plugin ran. Python prints a SystemExit's text to stderr, bare, with no traceback, and
exits 1. vLLM itself never exits with a message of its own (its sys.exit calls pass codes), and its lines carry its
format ('(APIServer pid=N) ERROR mm-dd ...', 'INFO:', a traceback): a bare sentence that is the log's last word before
'exit 1' is someone else's -- a plugin, a --middleware or parser file, a wrapper script. Doctor reads it as
third-party-package-raised only where nothing else explains the failure (no cause, no symptom, no exception), the log
shows vLLM, and the exit status is 1; not confident (0.55, the reading's figure): the log does not say which code
printed it. A message prefixed like a module ('tiny_guard: ...', the habit of such messages) names its author.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.attribution import readings
from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

THIRD_PARTY = "third-party-package-raised"
SURE = 0.55
# the exit status a wrapper, a shell or an IDE wrote under the output: 1 only (SystemExit(str) exits 1; argparse's 2,
# a signal's 128+N are other stories)
EXIT_ONE = re.compile(
    r"^\s*(?:#\s*)?(?:exit(?: status| code)?:?\s*1|(?:the )?(?:process|command|program) (?:exited|finished|failed)"
    r" with (?:exit )?(?:code|status):? 1)\b(?!\.\d)\s*(?:\(.*\))?\s*$",
    re.IGNORECASE,
)
# a line in a program's format (a logger's level or vLLM's process prefix, uvicorn's 'INFO:'), a traceback's or a
# warning's, a shell's: not a bare message
FORMATTED = re.compile(
    r"^\s|^\(\w+ pid=\d+\)|\b(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b\s*[:\[\d]|^\[|Traceback|Warning:|"
    r"^[\w./\\:-]+\.py:\d+|^[$#>%]|^\^C|^`{3}|Error: |Exception: ",
)
WORDS = re.compile(r"[A-Za-z]{3,}\W+\w+")
AUTHOR = re.compile(r"^(?P<who>[A-Za-z_][\w.-]{1,60}):\s")
TAIL = 8192
CAUSE = answer_text("system_exit", "cause")
FIX = answer_text("system_exit", "fix")
WHO = answer_text("system_exit", "who")  # the author a module-like prefix names


def _numbered_tail(t: Triage) -> list[tuple[int, str]]:
    """The log's last lines with their numbers, blank lines left out."""
    lines = t._tail_bytes[-TAIL:].decode("utf-8", "replace").split("\n")
    first = t.lines - (len(lines) - 1) + 1
    return [(first + i, s.rstrip()) for i, s in enumerate(lines) if s.strip()]


def exit_message(t: Triage, diagnoses: list[Diagnosis]) -> Diagnosis | None:
    """third-party-package-raised for a bare message that is vLLM's last line before exit status 1, where nothing else
    explains the failure (module doc)."""
    if t.raised or any(d.role in ("cause", "symptom") for d in diagnoses):
        return None
    tail = _numbered_tail(t)
    at = next((i for i in range(len(tail) - 1, -1, -1) if EXIT_ONE.match(tail[i][1])), None)
    if not at or "vllm" not in " ".join(s for _, s in tail).lower():
        return None
    line, msg = tail[at - 1]
    if FORMATTED.search(msg) or not WORDS.search(msg) or len(msg) > 400:
        return None
    m = AUTHOR.match(msg)
    who = WHO.format(who=m["who"]) if m else ""
    return Diagnosis(
        id=THIRD_PARTY,
        category=readings()[THIRD_PARTY]["category"],
        role="cause",
        cause=CAUSE.format(msg=msg.strip(), line=line, who=who),
        fix=FIX,
        confidence=min(SURE, float(readings()[THIRD_PARTY]["confidence"])),
        occurrences=1,
        first_line=line,
        evidence=[Evidence(line=line, text=msg.strip())],
        fatal=True,
    )
