"""learn54a: real llama-server logs that test background_refusals' rule (learn53f) on orders it was not tuned on.

learn53f's rule (servebox/doctor/background_refusals.py) places llama-server's refusals by its finished-task lines
('slot release: ... stop processing') when it writes no access lines, and keeps a late burst background when another
refusal family refused within about two requests' worth of lines before it. It was tuned on two logs
(fresh385-llama-sigsegv-during-traffic, fresh501-llama-04-invalid-grammar-requests-400). These cases mix refusals and
a real ending in other orders. EXPECTED (each case's answer, written and committed before doctor ran on any of them):

1 grammar-early-then-sigkill: two /completion requests with a grammar that does not parse right after start, then
  ~50 s of chat, then a second load and kill -9 of the server from outside: engine-killed-from-outside.
2 grammar-throughout-healthy-then-sigterm: chat traffic with every 12th request a /completion whose grammar does not
  parse, ~60 s, idle, the maker's clean-up SIGTERM: none (the refusals are the traffic's background; nothing failed).
3 every-request-over-context: every request's prompt over the 512-token slot context, ~40 s, then SIGTERM:
  request-longer-than-context (the refusals are all the traffic: the story).
4 malformed-background-then-context-burst: chat with every 25th body malformed (the traffic's own 400s) for ~60 s;
  in its last ~10 s five prompts over the context, the traffic still running; then a chat (200), SIGTERM:
  request-longer-than-context (a burst of a new refusal after a long healthy run: the story, as fresh-501 labelled).
5 context-throughout-then-sigabrt: chat with every 10th request over the context for ~50 s, then a second load and
  kill -ABRT of the server from outside: engine-killed-from-outside.
6 context-background-then-grammar-burst: chat with every 10th request over the context for ~60 s; in its last ~10 s
  three /completion requests with a grammar that does not parse, the traffic still running; a chat (200), SIGTERM:
  request-grammar-invalid (the mirror of 4).

Tools: the real llama-server b11434 (.llama-cpp/bin), corpus_tools.tiny_gguf's GGUF, fresh-383's Server / Load / ask /
healthy / exit_line, the log assembled as fresh-501's run_llama does. Port 27070, work dir /tmp/learn54a.
Usage (repository root): .venv/bin/python tools/doctor_corpus_learn54a.py K ...
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/learn54a")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 27070
SLUGS = {
    1: "grammar-early-then-sigkill",
    2: "grammar-throughout-healthy-then-sigterm",
    3: "every-request-over-context",
    4: "malformed-background-then-context-burst",
    5: "context-throughout-then-sigabrt",
    6: "context-background-then-grammar-burst",
}
BAD_GRAMMAR = 'root ::= ("yes" | "no"'
LONG = "the quick brown fox jumps over the lazy dog " * 120
CHAT = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}


class Mixed(l383.Load):
    """fresh-383's Load whose every EVERY-th request is KIND ('grammar': a /completion whose grammar does not parse;
    'context': a chat whose prompt is over the slot's context; 'all-context': every request over it)."""

    def __init__(self, port: int, kind: str, every: int = 0):
        super().__init__(
            port, "a few dozen requests", "chat with some 400s" if kind == "malformed" else "chat"
        )
        self.kind, self.every = kind, every
        self.traffic = {"malformed": "chat with some 400s (every 25th body malformed)"}.get(
            kind, f"chat with every {every}th request {kind}" if every else f"chat, every request {kind}"
        )

    def body(self, i: int):
        if self.kind == "all-context" or (self.kind == "context" and i % self.every == self.every - 1):
            return "/v1/chat/completions", {
                "messages": [{"role": "user", "content": f"{LONG} #{i}"}],
                "max_tokens": 16,
            }
        if self.kind == "grammar" and i % self.every == self.every - 1:
            return "/completion", {
                "prompt": f"Answer yes or no ({i}):",
                "n_predict": 8,
                "grammar": BAD_GRAMMAR,
            }
        return super().body(i)


def kill_during_load(p, load: l383.Load, sig: int) -> str:
    t = threading.Thread(target=load.run, args=(6,), daemon=True)
    t.start()
    time.sleep(3)
    os.kill(p.pid, sig)
    t.join(30)
    p.wait(30)
    return load.summary().replace("in the healthy phase", "around the signal")


def burst_at_end(load: l383.Load, seconds: float, burst) -> str:
    """LOAD runs SECONDS; in its last ~10 s the BURST requests go out one by one, the traffic still running."""
    t = threading.Thread(target=load.run, args=(seconds,), daemon=True)
    t.start()
    time.sleep(seconds - 10)
    after = ""
    for path, body in burst:
        after += l383.ask(PORT, path, body)
        time.sleep(1.5)
    t.join(60)
    return after


def event(k: int, p) -> tuple[str, str]:
    """Case K on the running server P: (client summary lines, client lines after)."""
    if k == 1:
        first = "".join(
            l383.ask(
                PORT,
                "/completion",
                {"prompt": f"Answer yes or no ({i}):", "n_predict": 8, "grammar": BAD_GRAMMAR},
            )
            for i in range(2)
        )
        load = Mixed(PORT, "chat")
        load.run(50)
        return first + load.summary(), kill_during_load(p, Mixed(PORT, "chat"), signal.SIGKILL) + l383.ask(
            PORT, "/v1/chat/completions", CHAT
        )
    if k in (2, 3):
        load = Mixed(PORT, "grammar", 12) if k == 2 else Mixed(PORT, "all-context")
        load.run(60 if k == 2 else 40)
        time.sleep(3)
        return load.summary(), ""
    if k == 5:
        load = Mixed(PORT, "context", 10)
        load.run(50)
        return load.summary(), kill_during_load(p, Mixed(PORT, "context", 10), signal.SIGABRT) + l383.ask(
            PORT, "/v1/chat/completions", CHAT
        )
    if k == 4:
        load = Mixed(PORT, "malformed")
        burst = [
            ("/v1/chat/completions", {"messages": [{"role": "user", "content": f"summarise ({i}): {LONG}"}]})
            for i in range(5)
        ]
    else:
        load = Mixed(PORT, "context", 10)
        burst = [
            ("/completion", {"prompt": f"Answer yes or no ({i}):", "n_predict": 8, "grammar": BAD_GRAMMAR})
            for i in range(3)
        ]
    after = burst_at_end(load, 60, burst)
    time.sleep(2)
    return load.summary(), after + l383.ask(PORT, "/v1/chat/completions", CHAT)


def run(k: int) -> str:
    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    (d / "models").mkdir(parents=True)
    shutil.copy(corpus_tools.tiny_gguf(WORK), d / "models" / "tiny-f32.gguf")
    args = ["-m", "models/tiny-f32.gguf", "--host", "127.0.0.1", "--port", str(PORT), "-c", "512"]
    s = l383.Server(d, args, "run1")
    s.start()
    try:
        if not l383.healthy(PORT, s.proc, 600):
            return s.command() + s.text() + "# never healthy\n"
        summary, after = event(k, s.proc)
    finally:
        s.stop()  # the maker's clean-up (nothing when the event already ended it)
    text = s.command() + s.text()
    text += ("" if text.endswith("\n") else "\n") + l383.exit_line(s.proc) + summary + after
    return text.replace(str(d) + "/", "").replace(str(d), ".")


def main() -> None:
    for k in map(int, sys.argv[1:]):
        t = time.monotonic()
        text = run(k)
        name = f"learn54a-llama-{SLUGS[k]}.log"
        (WORK / "out").mkdir(parents=True, exist_ok=True)
        (WORK / "out" / name).write_text(text)
        print(f"case {k}: {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
