"""`structure.survived` jumps between the lines that name the component by byte searches (a failure log's every
traceback line looks SURVIVAL_LINES ahead). It must answer exactly as reading every one of those lines does: the
reference below is that per-line reading, checked on logs built from real vLLM prefixes."""

import random

import pytest

from servebox.doctor import structure
from servebox.doctor.structure import _STOPPING, _SURVIVED_LEVELS, SURVIVAL_LINES, split_prefix, survived


def reference(chunk: bytes, end: int, component: str, level: str) -> bool:
    """Every line of the window read and peeled, one by one."""
    if not component or level != "ERROR":
        return False
    at = end
    for _ in range(SURVIVAL_LINES):
        if at >= len(chunk):
            return False
        nxt = chunk.find(b"\n", at + 1)
        nxt = len(chunk) if nxt < 0 else nxt
        prefix = split_prefix(chunk[at + 1 : nxt].decode("utf-8", "replace"))
        at = nxt
        if prefix.component != component or prefix.level in ("", level):
            continue
        return prefix.level in _SURVIVED_LEVELS and not _STOPPING.search(prefix.payload)
    return False


LINES = [
    "(EngineCore_DP0 pid=77) ERROR 12-02 10:00:01 [core.py:1] Traceback (most recent call last):",
    '(EngineCore_DP0 pid=77) ERROR 12-02 10:00:01 [core.py:1]   File "x.py", line 3, in f',
    "(EngineCore_DP0 pid=77) INFO 12-02 10:00:02 [core.py:9] Resuming after the cache error",
    "(EngineCore_DP0 pid=77) WARNING 12-02 10:00:02 [core.py:9] Engine core shutting down",
    "(APIServer pid=12) INFO 12-02 10:00:03 [api_server.py:1] Started server process",
    "(APIServer pid=12) ERROR 12-02 10:00:03 [api_server.py:1] ValueError: x",
    "(Worker_TP1 pid=90) INFO 12-02 10:00:04 [gpu_worker.py:1] EngineCore_DP0 is mentioned here",
    "plain line without a prefix",
    "",
]


def _log(rng: random.Random, n: int, crlf: bool) -> bytes:
    ending = "\r\n" if crlf else "\n"
    return ending.join(rng.choice(LINES) for _ in range(n)).encode()


@pytest.mark.parametrize("seed", range(40))
def test_the_jumps_answer_as_reading_every_line(seed):
    rng = random.Random(seed)
    chunk = _log(rng, rng.choice([5, 50, SURVIVAL_LINES + 30]), crlf=seed % 3 == 0)
    ends = [i for i, b in enumerate(chunk) if b == 10 or (b == 13 and chunk[i + 1 : i + 2] == b"\n")]
    for end in [*ends, len(chunk)]:
        for component in ("EngineCore_DP0", "APIServer", "Worker_TP1", "rank0"):
            assert survived(chunk, end, component, "ERROR") == reference(chunk, end, component, "ERROR")


def test_the_decisive_line_past_the_window_is_not_read():
    other = b"(APIServer pid=12) INFO 12-02 10:00:03 [api_server.py:1] Started server process\n"
    caught = b"(EngineCore_DP0 pid=77) INFO 12-02 10:00:02 [core.py:9] Resuming with the next request\n"
    head = b"(EngineCore_DP0 pid=77) ERROR 12-02 10:00:01 [core.py:1] ValueError: x\n"
    end = len(head) - 1
    inside = head + other * (SURVIVAL_LINES - 1) + caught
    outside = head + other * SURVIVAL_LINES + caught
    assert survived(inside, end, "EngineCore_DP0", "ERROR")
    assert not survived(outside, end, "EngineCore_DP0", "ERROR")


def test_a_name_the_decoding_replaced_reads_every_line(monkeypatch):
    seen = []
    monkeypatch.setattr(structure, "split_prefix", lambda text: seen.append(text) or split_prefix(text))
    chunk = b"x\n" + b"(APIServer pid=1) INFO 12-02 10:00:03 [a.py:1] ok\n" * 3
    assert not survived(chunk, 1, "Engine\ufffdCore", "ERROR")
    assert len(seen) == 4  # the three lines and the empty one after the last newline
