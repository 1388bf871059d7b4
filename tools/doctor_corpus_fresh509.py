"""fresh-509: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 6, both engines: fresh-501's
procedure (fresh-409's draws(): case k on vLLM for k odd, llama for k even; condition, then value, drawn anew when
already made or kept) repeated with seed 2509, N = 10, ports 27050 (engine) / 27051 (reserved), work dir /tmp/fresh509.

Imported, not copied (batch.md step 2): fresh-501's draws() (itself fresh-409's, wrapped), made_before(), ENGINES,
make_vllm (fresh-409's make_vllm with fresh-382's Journal / Traffic / probe / trimmed), vev_core_signal, run_llama and
llama_event. Their constants are module globals baked into them (SEED, N, ENGINES, made_before; PORT, WORK, SRC,
VLLM_EVENTS, SLUGS, llama_event), so each call here sets fresh-501's globals for the call and puts them back; no
predecessor file was edited. fresh-501's make_vllm names its log fresh501-vllm-NN-<slug>; it is renamed at once to
fresh509-vllm-NN-<slug> (the slugs are new, so no fresh-501 file can be clobbered: checked before the call).

Already made: fresh-501's made_before() (fresh-382/383/385/389/409/419's kept pairs) plus fresh-501's 10 kept draws.
The pool ran short (checked before the draw, printed by `--pool`): of every pair of both engines only two are left
(vLLM 'SIGSEGV to the EngineCore pid', llama 'a /completion prompt longer than -c 512'), so N = 10 would give 8 x NONE
LEFT. batch.md: add NEW classes (from the engines' own source) BEFORE the draw. Five new classes per engine, each
added to a USED-UP condition of its theme (what ends or degrades a server that has served well for a while), the pool
built by corpus_tools.pool_after (which checks the used-up rule): vLLM 0.32 -- api_server / uvicorn handle SIGINT and
SIGTERM, EngineCore (v1/engine/core.py run_engine_core) installs a SIGTERM / SIGINT handler that raises SystemExit,
'"auto" tool choice requires --enable-auto-tool-choice' (serving_chat / protocol validation), a text-only model given
an image part; llama.cpp b11434 -- server.cpp handles SIGINT / SIGTERM only; signal(7): SIGILL / SIGTRAP / SIGQUIT
dump core, SIGUSR1 terminates.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh509.py [--pool | --draws | K ...]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh501 as f501  # noqa: E402

SEED = 2509
N = 10

# NEW classes (the pool of both engines is used up but for one pair each), each for a used-up condition of its engine.
VLLM_NEW = {
    "the API server process SIGKILLed": [
        "kill -9 of the whole process group (API server and EngineCore) while traffic runs",
    ],
    "the EngineCore child SIGTERMed (someone kills it by pid)": [
        "SIGINT to the EngineCore pid while traffic runs",
    ],
    "the API server asked to stop (an operator's stop or deploy)": [
        "SIGTERM to the whole process group while traffic runs (a stop that signals every process)",
    ],
    "requests the server refuses after a long run (it survives)": [
        "chat requests with tools and tool_choice 'auto' (started without --enable-auto-tool-choice)",
    ],
    "bad requests after a long run (the engine survives)": [
        "chat requests with an image part (the model is text-only)",
    ],
}
LLAMA_NEW = {
    "server stopped by SIGTERM": ["SIGINT (Ctrl-C) while requests are in flight"],
    "server crashes by a fatal signal": ["SIGILL delivered to the server"],
    "server killed by another fatal signal": [
        "SIGTRAP delivered to the server (a stray breakpoint trap)",
        "SIGUSR1 delivered to the server (it has no handler for it)",
    ],
    "server hung up (SIGHUP) or quit (SIGQUIT)": ["SIGQUIT while requests are in flight"],
}
NEW = {"vllm": VLLM_NEW, "llama": LLAMA_NEW}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382/383/385/389/409/419 and fresh-501 kept (made into cases)."""
    out = f501.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f501.draws()[0] if c != "NONE LEFT"}
    return out


BEFORE = made_before()


def pools() -> tuple[dict, dict]:
    """ENGINES with the new classes (checked by corpus_tools.pool_after) and each engine's pool left to draw."""
    engines, left = {}, {}
    for e, (conds, lengths, traffic) in f501.ENGINES.items():
        already = {(c, v) for ee, c, v in BEFORE if ee == e}
        merged, pool = corpus_tools.pool_after(conds, already, NEW[e])
        engines[e], left[e] = (merged, lengths, traffic), pool
    return engines, left


ENGINES, POOL = pools()


def draws():
    """fresh-501's draws() (fresh-409's) with this batch's SEED, N, ENGINES and already-made set, put back after."""
    names = ("SEED", "N", "ENGINES", "made_before")
    saved = [getattr(f501, a) for a in names]
    f501.SEED, f501.N, f501.ENGINES, f501.made_before = SEED, N, ENGINES, lambda: BEFORE
    try:
        kept, redrawn = f501.draws()
    finally:
        for a, v in zip(names, saved, strict=True):
            setattr(f501, a, v)
    why = {"made by fresh-382/383/385/389/409/419": "made by fresh-382/383/385/389/409/419/501"}
    return kept, [(e, c, v, why.get(w, w)) for e, c, v, w in redrawn]


def main() -> None:
    if sys.argv[1:2] == ["--pool"]:
        for e, pool in POOL.items():
            for c, vs in pool.items():
                print(f"pool ({e}): {c} | {' / '.join(vs)}")
        return
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = [int(a) for a in sys.argv[1:]] or list(RUN_ORDER)
    # the engines must get the default actions of the signals drawn (fresh-501's harness fault: nohup / a background
    # job of a non-interactive shell ignore SIGHUP / SIGQUIT / SIGINT, and children inherit that)
    for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    prepare()
    for k in wanted:
        e, c, v, ln, tr = kept[k - 1]
        if c == "NONE LEFT":
            print(f"draw {k}: NONE LEFT, no case", flush=True)
            continue
        globals()["make_" + e](k, c, v, ln, tr)  # the case makers, added after the draw


# ---- case makers and expected outcomes (added after the draw was committed, before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh509")
PORT = 27050  # vLLM's cases (27051: fresh-382's SQUAT, set by fresh-409's make_vllm, unused by these events)
LLAMA_PORT = 27052  # llama's cases: run at the same time as vLLM's (time), so on a port of their own
SRC = WORK / "src"

# Run order, fixed before any case ran: llama's (one process) and vLLM's (another) run side by side, each engine's
# expected failures first (the kills), the requests refused while the server lives last.
RUN_ORDER = [6, 10, 8, 4, 2, 1, 3, 9, 5, 7]

# Expected outcome of each draw, written from the engines' sources BEFORE the case ran.
EXPECTED_BEFORE = {
    1: "vLLM: SIGSEGV to the EngineCore pid: no handler, so the engine process dies at once (faulthandler may print "
    "'Fatal Python error: Segmentation fault' and a stack, else nothing); the API server logs the engine core died "
    "unexpectedly, EngineDeadError 500s for the requests in flight and after, the API server shuts down -> "
    "engine-killed-from-outside (the lead's label for fresh-409 / fresh-501's EngineCore kills; nothing faulted)",
    2: "llama: 2 /completion prompts of ~1200 tokens with -c 512 after ~60 s of 4-thread streaming chat: HTTP 400 "
    "'the request exceeds the available context size, try increasing it' (exceed_context_size_error), the server "
    "serves the next chat (200) and ends by the maker's clean-up SIGTERM (exit 0) -> a context-size-exceeded request "
    "id (the server lives); the log is likely over 190 KB: fresh-383's cut applied",
    3: "vLLM: SIGINT to the EngineCore pid: run_engine_core's handler logs '[shutdown] EngineCore: trigger received "
    "signal=SIGINT' and the engine core shuts down (SystemExit); the API server sees the engine core gone: "
    "EngineDeadError 500s, the API server shuts down -> the label of fresh-382's EngineCore SIGTERM case",
    4: "llama: SIGINT during streaming traffic: server.cpp's handler starts a clean shutdown ('cleaning up before "
    "exit'), in-flight streams cut, exit 130? no: handled, so exit 0 (or 130 if a second signal); the request after "
    "ConnectError -> the label of fresh-383's SIGTERM-in-flight case (an operator's stop)",
    5: "vLLM: chat requests with an image_url part to the text-only tiny Llama: HTTP 400 (ValueError 'tiny is not a "
    "multimodal model' or a chat-parse error naming the image), the server keeps serving -> a request / model-"
    "capability id (found when labelling), the server lives",
    6: "llama: SIGILL sent by kill during traffic: no handler, default action core: exit 132 (killed by signal "
    "SIGILL), no server line -> engine-killed-from-outside (nothing executed an illegal instruction: "
    "cpu-illegal-instruction would be the wrong story)",
    7: "vLLM: chat requests with tools and tool_choice 'auto' on a server started without --enable-auto-tool-choice: "
    "HTTP 400 '\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' each, the "
    "server lives -> an auto-tool-choice-not-enabled id",
    8: "llama: SIGQUIT during traffic: no handler, default core: exit 131 (killed by signal SIGQUIT), no server line; "
    "in-flight requests fail, the request after ConnectError -> engine-killed-from-outside",
    9: "vLLM: SIGTERM to the whole process group during traffic: the API server (uvicorn) shuts down cleanly "
    "('Shutting down', 'Application shutdown complete'), the EngineCore's handler logs its SIGTERM; in-flight "
    "requests cut, exit 0; probes ConnectError -> the label of fresh-382's SIGTERM-to-API-server case (an operator's "
    "stop: likely none)",
    10: "llama: SIGUSR1 during /completion traffic: no handler, default action terminate: exit 138 (killed by "
    "signal SIGUSR1), no server line -> engine-killed-from-outside",
}

SLUGS = {
    1: "enginecore-sigsegv-during-traffic",
    2: "prompt-over-context-after-stream-flood",
    3: "enginecore-sigint-during-traffic",
    4: "sigint-during-streaming-traffic",
    5: "image-part-to-text-only-model",
    6: "sigill-from-kill-during-traffic",
    7: "tool-choice-auto-not-enabled",
    8: "sigquit-during-traffic",
    9: "process-group-sigterm-during-traffic",
    10: "sigusr1-during-completion-traffic",
}


def prepare() -> None:
    """The tiny model and GGUF, made fresh here once (corpus_tools.tiny_model / tiny_gguf)."""
    corpus_tools.tiny_gguf(SRC)


# ---- vLLM: fresh-501's make_vllm (fresh-409's), its globals set for the call; events for the new classes ----


def vev_group(j, p, t, model, extra, sig=signal.SIGTERM):  # draw 9 (fresh-501's vev_hup, another signal)
    j.note(f"$ kill -{sig.name[3:]} -- -{p.pid}   # (the whole process group: API server and EngineCore)")
    os.killpg(p.pid, sig)
    time.sleep(5)
    tail = t.end()
    time.sleep(3)
    out = tail + "\n" + v382.probe() + v382.probe("/health")
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass
    rc = p.returncode
    return out + (f"# exit: {rc}\n" if rc is not None else "# (the API server process is still running)\n")


def _chats(bodies: list[dict]) -> str:
    out = ""
    for b in bodies:
        out += v382.probe("/v1/chat/completions", b)
    time.sleep(12)  # one more stats interval
    plain = {"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}
    return out + v382.probe("/v1/chat/completions", plain)


PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def vev_image(j, p, t, model, extra):  # draw 5
    tail = t.end() + "\n"
    bodies = []
    for i in range(4):
        content = [
            {"type": "text", "text": f"What is in this picture? ({i})"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_1X1}"}},
        ]
        bodies.append({"model": "tiny", "messages": [{"role": "user", "content": content}], "max_tokens": 16})
    return tail + _chats(bodies)


def vev_tools(j, p, t, model, extra):  # draw 7
    tail = t.end() + "\n"
    fn = {
        "name": "get_weather",
        "description": "Current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    }
    bodies = [
        {
            "model": "tiny",
            "messages": [{"role": "user", "content": f"What is the weather in Paris? ({i})"}],
            "tools": [{"type": "function", "function": fn}],
            "tool_choice": "auto",
            "max_tokens": 16,
        }
        for i in range(4)
    ]
    return tail + _chats(bodies)


VLLM_EVENTS = {
    1: lambda j, p, t, model, extra: f501.vev_core_signal(j, p, t, model, extra, sig=signal.SIGSEGV),
    3: lambda j, p, t, model, extra: f501.vev_core_signal(j, p, t, model, extra, sig=signal.SIGINT),
    5: vev_image,
    7: vev_tools,
    9: vev_group,
}


def make_vllm(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    """fresh-501's make_vllm with its WORK / PORT / SRC / VLLM_EVENTS / SLUGS set for the call (put back after); its
    log, fresh501-vllm-NN-<slug> (a slug new to that batch: checked), renamed to fresh509-vllm-NN-<slug>."""
    src = OUT / f"fresh501-vllm-{k:02d}-{SLUGS[k]}.log"
    if src.exists():
        raise SystemExit(f"{src.name} exists: it would be clobbered")
    names = ("WORK", "PORT", "SRC", "VLLM_EVENTS", "SLUGS")
    saved = [getattr(f501, a) for a in names]
    f501.WORK, f501.PORT, f501.SRC, f501.VLLM_EVENTS, f501.SLUGS = WORK, PORT, SRC, VLLM_EVENTS, SLUGS
    try:
        f501.make_vllm(k, cond, value, length, traffic)
    finally:
        for a, v in zip(names, saved, strict=True):
            setattr(f501, a, v)
    dst = OUT / f"fresh509-vllm-{k:02d}-{SLUGS[k]}.log"
    src.rename(dst)
    print(f"draw {k}: renamed to {dst.name}", flush=True)


# ---- llama-server: fresh-501's run_llama / llama_event (fresh-383's Server / Load / ask), new signals added ----

LLAMA_SIGNALS = {
    "SIGINT (Ctrl-C)": signal.SIGINT,
    "SIGILL": signal.SIGILL,
    "SIGTRAP": signal.SIGTRAP,
    "SIGUSR1": signal.SIGUSR1,
    "SIGQUIT while requests": signal.SIGQUIT,
}
EVENT_AT: dict[
    int, int
] = {}  # draw -> bytes of the server's output when the event began (for fresh-383's cut)


def llama_event(k: int, value: str, p: subprocess.Popen, length: str, traffic: str) -> str:
    """The new classes' signal while requests are in flight (fresh-501's SIGHUP / SIGBUS / SIGFPE path, other
    signals; a handled SIGINT may take longer to end, so its wait does not raise); fresh-501's events otherwise."""
    d = WORK / "llama" / "run" / f"d{k}"
    before = (d / "run1.out").read_bytes().decode(errors="replace")
    EVENT_AT[k] = len(before.replace(str(d) + "/", "").replace(str(d), ".").encode())  # as run_llama shows it
    sig = next((s for name, s in LLAMA_SIGNALS.items() if value.startswith(name)), None)
    if sig is None:
        return f501_llama_event(k, value, p, length, traffic)
    chat = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}
    load2 = l383.Load(LLAMA_PORT, length, traffic)
    th = threading.Thread(target=load2.run, args=(6,), daemon=True)
    th.start()
    time.sleep(3)
    os.kill(p.pid, sig)
    th.join(60)
    try:
        p.wait(60)
    except subprocess.TimeoutExpired:
        pass
    around = load2.summary().replace("in the healthy phase", "around the signal")
    return around + l383.ask(LLAMA_PORT, "/v1/chat/completions", chat)


f501_llama_event = f501.llama_event


def cut_383(text: str, head: int, event_at: int) -> tuple[str, tuple[int, int] | None]:
    """fresh-383's run_case cut (inline there, so written out here): a log whose server output passes 190 KB keeps the
    start through `listening on` plus ~45 KB of traffic and the last ~45 KB of the healthy phase (the output before
    the event, EVENT_AT bytes); returns (text, (1-based log line where the cut starts, lines cut) or None)."""
    raw = text.encode()
    if len(raw) - head < 190_000:
        return text, None
    lines = raw[head : head + event_at].decode(errors="replace").splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if "listening on" in ln), 0) + 1
    a, size = start, 0
    while a < len(lines) and size < 45_000:
        size += len(lines[a].encode())
        a += 1
    b, size = len(lines), 0
    while b > a and size < 45_000:
        b -= 1
        size += len(lines[b].encode())
    if b <= a:
        return text, None
    kept = (
        raw[:head].decode() + "".join(lines[:a] + lines[b:]) + raw[head + event_at :].decode(errors="replace")
    )
    return kept, (a + 2, b - a)


def make_llama(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    """fresh-501's run_llama with its WORK / PORT / SRC / llama_event set for the call (put back after)."""
    t0 = time.monotonic()
    names = ("WORK", "PORT", "SRC", "llama_event")
    saved = [getattr(f501, a) for a in names]
    f501.WORK, f501.PORT, f501.SRC, f501.llama_event = WORK, LLAMA_PORT, SRC, llama_event
    try:
        text, notes = f501.run_llama(k, cond, value, length, traffic)
    finally:
        for a, v in zip(names, saved, strict=True):
            setattr(f501, a, v)
    head = len(text.split("\n", 1)[0].encode()) + 1  # the `$ command` line
    text, cut = cut_383(text, head, EVENT_AT.get(k, 0))
    # as fresh-383's run_case: no mark in the log; the manifest's `how` says where and how many lines were cut
    name = f"fresh509-llama-{k:02d}-{SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
        f"{time.monotonic() - t0:.0f} s, notes {notes}, cut {cut}",
        flush=True,
    )


if __name__ == "__main__":
    main()
