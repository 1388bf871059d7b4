"""learn55c (s55): stop_shown.py reads the shutdown-requested family's own wordings instead of a copy of them.

stop_shown.ASKED was a regex of its own repeating the family's stop-handler patterns (knowledge/service-machine.toml:
vLLM 0.32 launcher.py's 'API server: shutdown triggered', 'stopping engine client mode=', 'engine client stopped',
'signalling HTTP server shutdown', 'shutting down FastAPI HTTP server'; llama-server's 'cleaning up before exit...'):
two sources for one wording. It now picks those patterns from the family (stop_shown.asked()). These lines are written
from vLLM 0.32's and llama.cpp b11434's own format strings, not copied from a batch's log.
"""

from __future__ import annotations

import pytest

from servebox.doctor.stop_shown import asked

HANDLER = [
    "(APIServer pid=88) INFO 12-08 00:10:02 [launcher.py:120] [shutdown] API server: shutdown triggered",
    "(APIServer pid=88) INFO 12-08 00:10:02 [launcher.py:131] [shutdown] API server: stopping engine client mode=abort"
    " timeout=0s",
    "(APIServer pid=88) INFO 12-08 00:10:03 [launcher.py:140] [shutdown] API server: engine client stopped",
    "(APIServer pid=88) INFO 12-08 00:10:03 [launcher.py:142] [shutdown] API server: signalling HTTP server shutdown",
    "(APIServer pid=88) INFO 12-08 00:10:03 [launcher.py:150] [shutdown] API server: shutting down FastAPI HTTP server",
    "srv    operator(): cleaning up before exit...",
]
NOT_HANDLER = [
    # the engine's own handler: vLLM's process manager sends its engine SIGTERM at every exit
    "(EngineCore pid=90) INFO 12-08 00:10:02 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGTERM",
    "INFO:     Shutting down",  # uvicorn's, after an engine death too
    "(APIServer pid=88) INFO 12-08 00:10:03 [core_client.py:700] [shutdown] MPClient: engine manager stopped",
    "Terminated",
]


def test_the_stop_handler_wordings_come_from_the_family():
    assert len(asked()) == 3  # vLLM's two launcher patterns and llama-server's one


@pytest.mark.parametrize("line", HANDLER)
def test_each_stop_handler_line_is_read(line):
    assert any(p.search(line) for p in asked())


@pytest.mark.parametrize("line", NOT_HANDLER)
def test_a_stop_line_printed_on_other_paths_is_not(line):
    assert not any(p.search(line) for p in asked())
