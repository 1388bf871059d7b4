"""A Ctrl-C that is the log's last word while the engine was still starting: the stop ended the start.

Why (learn53b, fresh-494's fresh494-llama-ctrl-c-start-kubectl-prefix, read as a 0.00 note): the terminal echoes the
interrupt key as '^C' (the tty's ECHOCTL) and sends SIGINT to the foreground process group. llama-server b11434 installs
its SIGINT handler only after the model has loaded (tools/server/server.cpp), so a Ctrl-C during the load ends it at
once by the default action, and it prints nothing more; vLLM's API server raises KeyboardInterrupt, whose lines follow.
afterwards.stopped_mid_start counts such a stop as the start's end only where a line says the process died of it (a
wrapper's 'exit 130', a shell's 'Terminated'); a paste with no exit line (kubectl's `logs --prefix`, a plain terminal
copy, a journal cut at the ^C) left it a note. Here the same stop counts where the '^C' is the last thing in the log:
nothing after it but blank lines, '#' notes, a bare shell prompt or a Markdown fence, so the engine said nothing after
the interrupt, and the server had not come up before it. Not confident (0.50, as stopped_mid_start): the log shows the
interrupt and the silence, not the process's exit. A '^C' the engine printed on after (vLLM carrying on: fresh-494's
github-fence case) or one after the server came up is not this.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.afterwards import LISTENING, MID_START, MID_START_CAUSE, SERVING
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Triage

STOP = "shutdown-requested"
# the terminal's echo of Ctrl-C, alone on its line (once or repeated)
INTERRUPT = re.compile(r"^(?:\^C)+\s*$")
# what may follow the interrupt without being the engine's: a wrapper's or the user's '#' note, a bare prompt
# ('$', 'user@host:~$', '%', '>>>'), a Markdown fence
AFTER = re.compile(r"^\s*(?:#.*|(?:[\w.-]+@[\w.-]+(?::\S*)?\s*)?[$%>#]{1,3}\s*|`{3,}\s*)$")
LAST_WORD = answer_text("interrupt_last", "last_word")
FIX = answer_text("interrupt_last", "fix")


def interrupt_ended_start(t: Triage, d: Diagnosis) -> bool:
    """The asked-for stop `d` is a '^C' that the log ends with (only AFTER lines below it) and the server had not come
    up: the stop is the cause, below the confident line (module doc)."""
    if d.id != STOP or t.hits.get(SERVING) is not None or t.hits.get(LISTENING) is not None:
        return False
    ending = [line for line in t.statements.ending if not AFTER.match(line)]
    if not ending or not INTERRUPT.match(ending[-1]):
        return False
    line = max((n for n, text in t.hits[STOP].evidence if text.startswith("^C")), default=d.first_line)
    d.role, d.confidence = "cause", MID_START
    d.cause = MID_START_CAUSE.format(line=d.first_line) + LAST_WORD.format(line=line)
    d.fix = FIX
    return True
