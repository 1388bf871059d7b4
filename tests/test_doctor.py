"""servebox doctor: every knowledge-base excerpt, whole logs with causes buried under symptoms, and
environment probes run against real failing conditions (MDWE, prlimit, a noexec mount, a taken port)."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import sys

import pytest

from servebox.doctor.engine_gone import KILLED, REPORTED
from servebox.doctor.signatures import knowledge_entries
from servebox.doctor.triage import load_signatures, triage_stream
from servebox.doctor.unwrap import unwrap
from tests.conftest import FIXTURES

LOGS = FIXTURES / "logs"
ENTRIES = knowledge_entries()


def test_knowledge_base_is_large_and_well_formed():
    assert len(ENTRIES) >= 45
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) == len(set(ids))
    assert {e["role"] for e in ENTRIES} == {"cause", "symptom", "progress", "shutdown", "note", "reading"}
    assert len(load_signatures()) == len([e for e in ENTRIES if e["role"] != "reading"])


DIAGNOSES = [e for e in ENTRIES if e["role"] in ("cause", "symptom")]
ALONE_ANSWERS = {REPORTED: KILLED}


@pytest.mark.parametrize("entry", DIAGNOSES, ids=[e["id"] for e in DIAGNOSES])
def test_each_excerpt_is_diagnosed_as_its_entry(entry):
    context = entry.get("context", "") + "\n" if entry.get("context") else ""
    # a `raised_where` (or `script_pattern`) entry's context is the traceback frame above the exception line; an
    # `above` entry without `requires` counts only after its above line, so its context goes above too (after29q: llamacpp-mmproj-gpu-oom)
    placed = bool(
        entry.get("raised_where")
        or (entry.get("script_pattern") and entry.get("context"))  # after31b: the user's script's traceback
        or (entry.get("above") and entry.get("context") and not entry.get("requires"))
        or (
            entry.get("above_pattern")
            and entry.get("context")
            and entry.get("pattern") == entry["above_pattern"]
        )
    )  # learn43c: an entry whose every wording waits for its `above` line has that line (and `requires`) in context
    log = context + entry["excerpt"] + "\n" if placed else entry["excerpt"] + "\n" + context
    result = triage_stream(io.StringIO(log), "excerpt")
    assert result.diagnoses, f"{entry['id']}: nothing matched"
    top = result.diagnoses[0]
    # learn41b: vLLM's report of its dead engine, alone, answers the family it was merged into (engine_gone.py)
    assert top.id in {entry["id"], ALONE_ANSWERS.get(entry["id"], entry["id"])}, [
        d.id for d in result.diagnoses
    ]
    # evidence quotes the engine's line: a collector's record (a JSON log line) shows the message it carries
    shown = unwrap(entry["excerpt"].strip().encode()).decode()[:400]
    assert (
        top.evidence[0].line == (context.count("\n") + 1 if placed else 1) and top.evidence[0].text == shown
    )
    assert "?" not in top.cause or "?" in entry["cause"], top.cause  # every {placeholder} was filled


def test_triton_cause_under_router_symptoms():
    with open(LOGS / "digest-llama-swap-triton.log") as handle:
        result = triage_stream(handle, "log")
    assert result.verdict == "cause found"
    top = result.diagnoses[0]
    assert top.id == "jit-cache-cannot-map" and top.evidence[0].line == 10
    symptoms = [d.id for d in result.diagnoses if d.role == "symptom"]
    assert "router-upstream-exited" in symptoms and "subprocess-error" in symptoms
    assert result.diagnoses.index(next(d for d in result.diagnoses if d.id == "router-upstream-exited")) > 0


def test_graph_capture_oom_under_worker_and_core_symptoms():
    with open(LOGS / "vllm-tp2-graph-capture-oom.log") as handle:
        result = triage_stream(handle, "log")
    assert result.diagnoses[0].id == "cudagraph-capture-oom"
    ids = [d.id for d in result.diagnoses]
    assert "cuda-oom-generic" not in ids  # the specific entry replaces the generic one
    assert {"worker-failed", "engine-core-init-failed"} <= set(ids)


def test_hang_is_traced_to_memlock():
    with open(LOGS / "vllm-hang-memlock.log") as handle:
        result = triage_stream(handle, "log")
    assert result.diagnoses[0].id == "memlock-page-table"
    stall = next(d for d in result.diagnoses if d.id == "shm-broadcast-stall")
    assert stall.occurrences == 2 and "60 s" in stall.cause


def test_systemd_crash_loop_names_the_json_quotes():
    with open(LOGS / "systemd-json-quotes-crashloop.log") as handle:
        result = triage_stream(handle, "log")
    top = result.diagnoses[0]
    assert top.id == "json-arg-quotes-stripped" and "{enable_thinking:true}" in top.cause


def test_unknown_log_is_not_guessed_but_its_own_statement_is_quoted(run_cli):
    # no entry knows a frobnicator: the answer is the log's own line saying why, never a family, never confident
    result = run_cli("doctor", "--log", LOGS / "unknown.log", "--json")
    data = result.json()["triage"]
    assert result.code == 1 and data["verdict"] == "stated by the log"
    [top] = data["diagnoses"]
    assert top["id"] == "stated-cause" and top["confidence"] < 0.7 and top["first_line"] == 3
    assert "quux mismatch (expected 3, got 4)" in top["cause"]
    assert data["last_error_lines"][-1]["line"] == 3 and "failed" in data["last_error_lines"][-1]["text"]


def test_symptoms_only_point_elsewhere(run_cli):
    log = "RuntimeError: Engine core initialization failed. See root cause above.\n"
    data = triage_stream(io.StringIO(log), "x")
    assert data.verdict == "symptoms only" and data.diagnoses[0].id == "engine-core-init-failed"


# `python -m servebox` too (fresh-18's engineer tried it)
@pytest.mark.parametrize("module", ["servebox.cli", "servebox"])
def test_cli_reads_stdin_and_exits_1_on_a_cause(module):
    proc = subprocess.run(
        [sys.executable, "-m", module, "doctor", "--log", "-"],
        input=(LOGS / "digest-llama-swap-triton.log").read_text(),
        capture_output=True,
        text=True,
        timeout=600,  # only a bound on a hang: a fresh interpreter loading the knowledge base on a busy CI took > 60 s
    )
    assert proc.returncode == 1 and "jit-cache-cannot-map" in proc.stdout and "line 10" in proc.stdout


def test_chunk_boundaries_do_not_lose_lines():
    from servebox.doctor.triage import Triage

    text = (LOGS / "digest-llama-swap-triton.log").read_text()
    t = Triage("pieces")
    for i in range(0, len(text), 37):  # feed in odd-sized pieces that cut lines
        t.feed(text[i : i + 37].encode())
    result = t.result()
    assert result.diagnoses[0].id == "jit-cache-cannot-map" and result.diagnoses[0].evidence[0].line == 10
    assert result.lines == text.count("\n")


def test_missing_log_is_bad_input(run_cli, tmp_path):
    r = run_cli("doctor", "--log", tmp_path / "nope.log")
    assert r.code == 2 and "nope.log" in r.err


# ---- probes against real conditions ----


def probe_json(*args, prefix=()):
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "servebox.cli", "doctor", "--env", "--json", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    import json

    return {p["name"]: p for p in json.loads(proc.stdout)["probes"]}, proc.returncode


def test_write_execute_probe_under_real_mdwe():
    # PR_SET_MDWE (Linux >= 6.3) is what MemoryDenyWriteExecute= becomes on new kernels: set it in a child for real.
    code = (
        "import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True)\n"
        "if libc.prctl(65, 1, 0, 0, 0) != 0: sys.exit(77)\n"
        "from servebox.doctor.probes import probe_write_execute; p = probe_write_execute(); print(p.status); print(p.evidence)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    if proc.returncode == 77:
        pytest.skip("kernel without PR_SET_MDWE (needs Linux >= 6.3)")
    status, evidence = proc.stdout.splitlines()[:2]
    assert status == "fail" and "PROT_WRITE|PROT_EXEC" in evidence
    from servebox.doctor.probes import probe_write_execute

    assert probe_write_execute().status == "pass"  # and this process, without MDWE, may


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="prlimit (util-linux) not installed")
def test_memlock_probe_under_prlimit():
    # a real 8 MiB RLIMIT_MEMLOCK (the digest's hang): 1 GiB needed fails, 4 MiB needed passes
    low, rc = probe_json("--memlock-need-gib", "1", prefix=("prlimit", "--memlock=8388608:8388608"))
    assert low["memlock"]["status"] == "fail" and "8 MiB" in low["memlock"]["evidence"] and rc == 1
    ok, _ = probe_json("--memlock-need-gib", "0.004", prefix=("prlimit", "--memlock=8388608:8388608"))
    assert ok["memlock"]["status"] == "pass"


def test_noexec_cache_dir(tmp_path):
    mnt = tmp_path / "noexec"
    mnt.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "noexec,size=1m", "tmpfs", str(mnt)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a noexec tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        from servebox.doctor.probes import probe_exec_mappable

        bad = probe_exec_mappable(mnt / "triton")
        assert bad.status == "fail" and "mapping a file executable fails" in bad.evidence
        good = probe_exec_mappable(tmp_path / "cache")
        assert good.status == "pass"
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_port_probe_sees_a_taken_port():
    from servebox.doctor.probes import probe_port

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert probe_port(port).status == "fail"
    assert probe_port(port).status == "pass"


def test_socket_families_open_here():
    from servebox.doctor.probes import probe_socket_families

    assert {p.name: p.status for p in probe_socket_families()} == {
        "socket AF_UNIX": "pass",
        "socket AF_INET": "pass",
        "socket AF_INET6": "pass",
        "socket AF_NETLINK": "pass",
    }


def test_unloadable_library_fails():
    from servebox.doctor.probes import probe_library

    assert probe_library("libdefinitely-not-here.so.9").status == "fail"
    assert probe_library("libz.so.1").status == "pass"


def test_cuda_toolkit_probe_follows_nvcc_itself(tmp_path, monkeypatch):
    from servebox.doctor.probes import probe_cuda_toolkit

    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "nvcc").write_text("#!/bin/sh\necho '#$ INCLUDES=\"-I/nonexistent/include\"' >&2\n")
    (fake / "nvcc").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    monkeypatch.delenv("NVCC_PREPEND_FLAGS", raising=False)
    p = probe_cuda_toolkit()
    assert p.status == "fail" and "/nonexistent/include" in p.evidence and "NVCC_PREPEND_FLAGS" in p.fix


def test_keyword_finder_without_re2_gives_the_same_hits(monkeypatch):
    from servebox.doctor import triage as triage_mod

    text = (LOGS / "vllm-tp2-graph-capture-oom.log").read_bytes()
    words = [k for s in load_signatures() for k in s.keywords]
    fast = triage_mod.KeywordFinder(words).iter(text)
    monkeypatch.setitem(sys.modules, "re2", None)  # import re2 now raises ImportError
    slow = triage_mod.KeywordFinder(words).iter(text)
    assert sorted(fast) == sorted(slow) and fast


def test_overlapping_keywords_at_one_spot_are_all_found():
    from servebox.doctor.triage import KeywordFinder

    hits = KeywordFinder(["health check", "ealth check", "out of memory"]).iter(
        b"x health check timed out; out of memory\n"
    )
    assert {w for _, w in hits} == {"health check", "ealth check", "out of memory"}


def test_the_printed_confidence_says_it_is_the_knowledge_bases_assumed_figure():
    """Every printed number says its kind: a diagnosis's confidence is assigned with its entry."""
    from rich.console import Console

    from servebox.report.doctor_view import show_triage

    result = triage_stream(io.StringIO("OSError: [Errno 98] Address already in use\n"), "x.log")
    console = Console(record=True, width=300)
    show_triage(result, console)
    text = console.export_text()
    assert "confidence 0.90 assumed" in text and "(assumed), capped" in text and "(calibrated)" in text
    assert all(d.confidence_kind == "assumed" for d in result.diagnoses)
    assert '"confidence_kind":"assumed"' in result.diagnoses[0].model_dump_json()


def test_a_keyword_that_starts_inside_an_earlier_match_is_found():
    """ "cuda error" ends inside "error: out of memory": resuming the search after the first match's
    end would miss the second keyword, whose line then never reaches its signature."""
    from servebox.doctor.triage import KeywordFinder

    finder = KeywordFinder(["cuda error", "error: out of memory", "memory"])
    hits = finder.iter(b"x CUDA error: out of memory\n")
    assert (2, "cuda error") in hits and (7, "error: out of memory") in hits
    assert (21, "memory") in hits  # and one inside the second, at its own position


def test_the_overlap_fix_finds_the_same_hits_with_and_without_re2(monkeypatch):
    from servebox.doctor import triage as triage_mod

    words = ["abcd", "cdef", "def", "bc", "zz"]
    text = b"xabcdefz abcdzz\nzzz\n"
    fast = triage_mod.KeywordFinder(words).iter(text)
    monkeypatch.setitem(sys.modules, "re2", None)
    slow = triage_mod.KeywordFinder(words).iter(text)
    assert sorted(fast) == sorted(slow)
    assert {(1, "abcd"), (2, "bc"), (3, "cdef"), (4, "def"), (13, "zz"), (16, "zz"), (17, "zz")} <= set(fast)


def _top(text: str):
    result = triage_stream(io.StringIO(text), "console.log")
    return result.diagnoses[0] if result.diagnoses else None


def test_an_up_incident_line_is_read_back_to_the_cause_it_names():
    """up's console only: the incident's cause text is the entry's own template filled in."""
    line = (
        "2026-12-03T07:31:28Z tiny: INCIDENT dead: the engine process is gone; diagnosis: llama.cpp could"
        " not load the GGUF: failed to allocate buffer."
        " (fix: Check that the file is complete.); restart after 2 s\n"
    )
    # (after32j: a {why} naming a missing GGUF key is read by llamacpp-gguf-metadata-missing itself, so the
    # template's read-back is shown with a {why} no specific entry takes)
    top = _top(line)
    assert top is not None and top.id == "llamacpp-load-failed" and top.first_line == 1
    assert "failed to allocate buffer" in top.cause  # its field, recovered


def test_up_giving_up_names_the_cause_id_outright():
    line = "m: FAILED, not restarting: gave up (same cause twice in a row: port-in-use): whatever it said\n"
    top = _top(line)
    assert top is not None and top.id == "port-in-use"


def test_an_incident_without_a_known_cause_names_none():
    for line in (
        "m: INCIDENT dead: gone; diagnosis: no known cause; last error line: boom; restart after 2 s\n",
        "m: INCIDENT dead: gone; diagnosis: something no entry says at all (fix: x); restart after 2 s\n",
        "m: FAILED: gave up (same cause twice in a row: not-an-entry-id): x\n",
    ):
        top = _top(line)
        assert top is None or top.role != "cause" or top.confidence < 0.7, line


def test_the_keyword_prefilter_fits_re2s_memory_and_prints_nothing():
    """RE2 ran out of its 8 MiB DFA budget once the knowledge base passed ~1,500 keywords: it fell back to a
    slower engine and printed 'DFA out of memory' on stderr. A knowledge base twice today's size must not."""
    code = (
        "import io, random, string, sys\n"
        "from servebox.doctor.keyword_finder import KeywordFinder\nfrom servebox.doctor.signatures import load_signatures\n"
        "words = [k for s in load_signatures() for k in s.keywords]\n"
        "rng = random.Random(7)\n"
        "words += [''.join(rng.choice(string.ascii_lowercase + ' ') for _ in range(24)) for _ in range(len(words))]\n"
        "finder = KeywordFinder(words)\n"
        "hits = finder.iter(b'x ' * 1000 + words[0].encode() + b'\\n')\n"
        "assert hits and hits[-1][1] == words[0].lower(), hits[-3:]\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "DFA out of memory" not in run.stderr and "re2" not in run.stderr.lower(), run.stderr[-2000:]


def test_doctor_keeps_each_cause_and_quoted_line_whole_when_piped(tmp_path):
    # expected, written first: piped at COLUMNS=60, the rank header, the cause and the quoted log line are each one
    # line (rich folded them at the console width, cutting the engine's words the reader greps for)
    import os
    import subprocess
    import sys

    log = tmp_path / "vllm.log"
    log.write_text(
        "$ vllm serve /srv/m\nTraceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/vllm/entrypoints/cli/main.py", line 60, in main\n'
        "importlib.metadata.PackageNotFoundError: No package metadata was found for vllm\n"
    )
    argv = [sys.executable, "-m", "servebox", "doctor", "--log", str(log)]
    out = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "COLUMNS": "60"}).stdout
    lines = out.splitlines()
    assert any(ln.startswith("1. ") and ln.rstrip().endswith("x)") for ln in lines), out
    assert any(
        ln.startswith("   line 4: ") and ln.endswith("No package metadata was found for vllm") for ln in lines
    ), out
    (cause,) = [ln for ln in lines if ln.startswith("   cause: ")]
    assert cause.rstrip().endswith(".") and len(cause) > 60
