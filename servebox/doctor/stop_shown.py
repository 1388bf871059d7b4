"""A paste whose server part is only its orderly stop: the stop is what it shows, the answer below the confident line.

learn54b (s54, fresh-510's fresh510-vllm-openai-sync-server-sigterm-mid-answer, first contact none: shutdown-requested
as a note). The user pasted a client script with its whole answer, then the server's last 40 lines: vLLM 0.32's
shutdown after a SIGTERM, with the signal's own line ('[shutdown] EngineCore: trigger received signal=SIGTERM' / 'API
server: shutdown triggered') above the tail. A stop after the last answer stays a note where the log shows the server
coming up and serving (many healthy logs end with their maker's own SIGTERM: the run is what they show). Here the log
shows no start, no request cut and no failure: the stop is all it shows of the server, so the stop is the answer --
the server ended because it was asked to, nothing failed.

Which lines say a stop was asked for (vLLM 0.32's own source): entrypoints/launchers/launcher.py prints '[shutdown] API
server: shutdown triggered' in its SIGINT/SIGTERM handler and, only after that handler set the shutdown event, 'API
server: stopping engine client mode=M timeout=Ns', 'engine client stopped', 'signalling HTTP server shutdown', and
'shutting down FastAPI HTTP server' (the server task cancelled by that handler). v1/engine/core.py's EngineCore
'trigger received signal=SIGTERM' does not count: vLLM's own process manager (v1/utils.py) sends its engine SIGTERM at
every exit, an offline LLM's and run-batch's included (the first try of this module read it, and took 60 healthy
offline runs). v1/engine/core_client.py's MPClient lines ('start timeout=', 'stopping
engine manager', 'engine manager stopped', 'complete') and uvicorn's 'Shutting down' also follow an engine death
('[shutdown] MPClient: engine core exited unexpectedly; starting cleanup', with timeout=default, and the watchdog's
should_exit): they do not count here, and any cause or symptom named in the log keeps the stop a note (the caller asks
only where none is). llama-server's own stop line ('cleaning up before exit...', its SIGINT/SIGTERM handler) counts
the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from servebox.doctor.afterwards import ANSWERED, IN_FLIGHT, LISTENING, REFUSED, SERVING
from servebox.doctor.signatures import load_signatures
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Triage

STOP = "shutdown-requested"
# the family's wordings that the server's own stop handler prints, on the signal's path only: vLLM's launcher ('API
# server: shutdown triggered', 'API server: stopping engine client mode=' ...) and llama-server's ('cleaning up before
# exit...'). Its others are printed on other paths too: the EngineCore's 'trigger received signal=SIGTERM' (vLLM's own
# process manager sends that signal to its engine at every exit, an offline LLM's or run-batch's end included),
# uvicorn's 'Shutting down', a shell's 'Terminated', systemd's and llama-swap's stops
HANDLER_WORDS = ("API server: ", r"cleaning up before exit\.")


@lru_cache(maxsize=1)
def asked() -> tuple[re.Pattern[str], ...]:
    """The stop-handler wordings of the shutdown-requested family (knowledge/service-machine.toml): one source for the
    words, this module only picks which of them a stop signal alone prints."""
    family = next(s for s in load_signatures() if s.id == STOP)
    return tuple(p for p in family.patterns if p.pattern.startswith(HANDLER_WORDS))


# a figure below the confident line: the stop is what the paste shows, not who sent it
SHOWN = 0.5
CAUSE = answer_text("stop_shown", "cause")
FIX = answer_text("stop_shown", "fix")


def stop_alone(t: Triage, d: Diagnosis) -> bool:
    """The asked-for stop `d` is the answer where the log shows the server's own stop lines and nothing of its start or
    its requests (no up, listening, answered, refused or open-at-stop line): the paste is of the stop. The caller asks
    only where no cause or symptom is named."""
    if any(t.hits.get(x) is not None for x in (SERVING, LISTENING, ANSWERED, REFUSED, IN_FLIGHT)):
        return False
    asked_line = next((e for e in d.evidence if any(p.search(e.text) for p in asked())), None)
    if asked_line is None:
        return False
    words = asked_line.text.split("[shutdown] ", 1)[-1].strip()[:120]
    d.role, d.confidence = "cause", SHOWN
    d.cause, d.fix = CAUSE.format(line=asked_line.line, text=words), FIX
    return True
