"""fresh-464: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 20. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py ... fresh446.py and fresh451.py made, with a new seed:
tools/doctor_corpus_fresh451.py's procedure (itself fresh-446's and fresh-437's) copied exactly (seed 2464, N = 10);
fresh-451's kept draws join the already-made set.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's, 422's, 433's, 437's, 446's and now fresh-451's kept triples (their draw(), imported unchanged) join the
already-made set. Left out of the already-made set: all that fresh-451 left out (fresh-403, 405, 406: OLD GROUND, NEW
DRAW over the engines' own tools, none in TOOLS). No other batch of this theme is on main at 248a0397 after fresh-451
(manifest batch header first lines checked for 'AROUND THE ENGINES': fresh-325 ... fresh-446, fresh-451 only).
Speed only: each earlier tool's draw() is wrapped in functools.cache on its module before the draw (each calls its
predecessors' draw() through the module attribute, so the chain ran many times over; the results are the same lists).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh464_draw.txt, before any case
ran): r = random.Random(2464); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414, 422, 433, 437, 446 or 451 kept it, or when
it repeats a triple kept here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws`
is run TWICE with PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed. Nothing is
redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-451): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh464 and ports 26510-26519 (router 26510, engines
26511 / 26512). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh464-<kind>-<slug>.log.
Time: the task gives 45 minutes; cases that cannot be made in that time are said so (fewer cases, not overrun).
Read: common.md, batch.md, the task, tools/doctor_corpus_fresh451.py (whole) and its _draw.txt, fresh-451's manifest
header (down to its Judgement calls), the manifest's batch header first lines, the makers of the earlier tools named
in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh464.py --draws | --values | K ...
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

SEED, N = 2464, 10
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


WORK = Path("/tmp/fresh464")
ROUTER, PORT_A, PORT_B = 26510, 26511, 26512
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh464-servebox-render-spec-path-a-directory",
        "fresh-298's llama.cpp spec (tiny f32 GGUF, binary = the real llama-server) saved as deploy/spec.toml; `$ ls"
        " deploy`; the user gives the folder: `servebox render deploy --out out` (fresh-298's runner)",
        "servebox opens 'deploy' as the spec file: an IsADirectoryError ('[Errno 21] Is a directory: 'deploy'') or"
        " servebox's own words that the spec is a directory; exit non-zero, nothing rendered",
        "the family naming a spec path that is not a readable spec file (chosen after the run)",
    ),
    2: (
        "fresh464-container-vllm-tmpdir-nonexistent-read-only-root",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 26511) with TMPDIR ="
        " /nonexistent-tmp, / remounted read-only in `unshare -m` (docker --read-only, no --tmpfs /tmp) and only the"
        " cache volumes ({d}/cache, {d}/vllm-cache: XDG_CACHE_HOME, VLLM_CACHE_ROOT) bind-mounted writable; the"
        " working directory {d} read-only; one chat if it serves",
        "Python's tempfile finds no usable folder (TMPDIR absent, /tmp, /var/tmp and the working directory read-only):"
        " 'FileNotFoundError: [Errno 2] No usable temporary directory found in [...]' where vLLM first asks for a"
        " temp folder (its ZMQ ipc path base, VLLM_RPC_BASE_PATH's default); exit non-zero",
        "the family naming an unusable TMPDIR / temp folder (chosen after the run)",
    ),
    3: (
        "fresh464-up-llama-state-dir-a-regular-file",
        "fresh-289's `servebox up --state-dir state` with llama-server (tiny f32 GGUF, engine 26511, router 26510),"
        " ./state an existing regular file (fresh-289's maker writes it); one chat",
        "servebox cannot make its state folder: FileExistsError / NotADirectoryError ('[Errno 20] Not a directory:"
        " 'state/...'') or its own refusal; up exits non-zero before any engine starts; the chat is refused"
        " (connection refused)",
        "the family naming a state dir that is a file (chosen after the run)",
    ),
    4: (
        "fresh464-systemd-vllm-tasksmax-64",
        "vllm.service (base k=4: BASES[0]) with TasksMax=64 (fresh-295's mutate); systemd-analyze verify and security"
        " --offline (fresh-295's log_for)",
        "TasksMax=64 parses: verify is clean (exit 0) and security prints its exposure table; the limit would bite only"
        " at run time (vLLM's threads above 64)",
        "none (nothing in the offline tools' output fails), as fresh-295's rule",
    ),
    5: (
        "fresh464-client-vllm-bench-header-authorization-no-bearer-llama",
        "fresh-290's llama-server (tiny f32 GGUF, -c 512, port 26512) with --api-key sk-fresh464-local; `vllm bench"
        " serve --dataset-name random --num-prompts 10 --backend openai --base-url http://127.0.0.1:26512 --model"
        " tiny-llama --tokenizer TINY --random-input-len 64 --random-output-len 32 --header"
        " Authorization=sk-fresh464-local` (fresh-290's VLLM_CLI launcher); Ctrl-C 30 s after 'Waiting for"
        " endpoint' as fresh-290's no-key case",
        "the header overrides bench's own (no OPENAI_API_KEY): llama-server gets 'Authorization: sk-fresh464-local'"
        " without 'Bearer ' and answers 401 Invalid API Key; bench's ready check keeps retrying until the Ctrl-C"
        " (KeyboardInterrupt / cancelled, exit non-zero); the server log shows the 401s",
        "the family naming a missing / wrong API key header (chosen after the run)",
    ),
    6: (
        "fresh464-systemd-tmpfiles-model-cache-age-30-days",
        "llama-swap.service (base k=6: BASES[2]) with fresh-236's tmpfiles.d line for the model cache,"
        " its age written '30 days' (fresh-236's mutate); systemd-analyze verify and systemd-tmpfiles --create --root",
        "'30 days' splits into age '30' and an argument 'days': tmpfiles either warns that d lines take no argument"
        " (and keeps age 30 = 30 seconds) or refuses the line ('Failed to parse ...'); exit 0 or 65",
        "systemd-bad-value-like family if refused, else none (chosen after the run)",
    ),
    7: (
        "fresh464-systemd-vllm-cache-var-cache-protectsystem-strict",
        "vllm.service (base k=7: BASES[0]) with ProtectSystem=strict and its EnvironmentFile= HF_HOME under"
        " /var/cache/vllm, no CacheDirectory= (fresh-295's mutate); verify and security --offline",
        "parses: verify clean, security table; at run time the cache is read-only (not shown offline)",
        "none (nothing in the offline tools' output fails), as fresh-295's rule",
    ),
    8: (
        "fresh464-up-llama-prompt-600-words-ctx-256",
        "fresh-289's `servebox up` with llama-server (tiny f32 GGUF, flags ctx-size = 256, engine 26511, router"
        " 26510), one chat whose content is 600 words (fresh-289's maker)",
        "the prompt is longer than the 256-token context: llama-server answers 400 'the request exceeds the available"
        " context size, try increasing it' (exceed_context_size_error) and the router relays it; the engine stays up",
        "request-longer-than-context",
    ),
    9: (
        "fresh464-systemd-llama-swap-restrictaddressfamilies-no-af-unix",
        "llama-swap.service (base k=9: BASES[2]) with RestrictAddressFamilies=AF_INET AF_INET6 (fresh-295's mutate);"
        " verify and security --offline",
        "parses: verify clean, security table (AF_UNIX absent is only scored); run-time socket() refusals not shown",
        "none (nothing in the offline tools' output fails), as fresh-295's rule",
    ),
    10: (
        "fresh464-systemd-vllm-execstart-api-key-percent",
        "vllm.service (base k=10: BASES[0]) with ' --api-key Pa%5word' appended to ExecStart= (fresh-228's mutate);"
        " systemd-analyze verify",
        "'%5' is no specifier: verify says it failed to resolve specifiers in ExecStart= (or like words) and exits"
        " non-zero; the fix is '%%'",
        "the family naming an unescaped % specifier (chosen after the run)",
    ),
}

# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-433's systemd_case for 228 and 236, fresh-437's for 295 (their own mutate, root and log)."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 228:
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n == 236:
        unit, shown, verify, extra = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, shown, condition)
        return t.log_for(root, name, unit, shown, verify, extra)
    if n == 295:
        unit, drop, shown = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
            groups.write("video:x:44:\nrender:x:105:\n")
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def up_case(k: int, condition: str, value: str) -> str:
    """fresh-289's case_maker; any INCIDENT line of servebox up's console is left out (the task's rule)."""
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    t.case_id = lambda c, v: VALUES[k][0]
    text = t.case_maker(condition, value)()
    kept = [line for line in text.splitlines(keepends=True) if "INCIDENT" not in line]
    if len(kept) != len(text.splitlines()):
        print(f"draw {k}: {len(text.splitlines()) - len(kept)} INCIDENT lines left out", flush=True)
    return "".join(kept)


KEY = "sk-fresh464-local"


def client_case(k: int) -> None:
    """fresh-290's llama_case / run_client (its server argv, its runner, its VLLM_CLI shim) with this draw's bench
    line, as fresh-290's own no-key bench case (Ctrl-C 30 s after the ready check began)."""
    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.LLAMA_ARGV = [str(a) for a in t.LLAMA_ARGV]
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("-m") + 1] = t.GGUF
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("--port") + 1] = str(PORT_B)
    t.WORK.mkdir(parents=True, exist_ok=True)
    tiny = t.tiny_model(t.WORK)
    t.tiny_gguf(t.WORK)
    t.vllm_shim()
    line = (
        f"{t.BENCH} --backend openai --base-url http://127.0.0.1:{PORT_B} --model tiny-llama"
        f" --tokenizer {tiny} --random-input-len 64 --random-output-len 32 --header Authorization={KEY}"
    )
    t.llama_case(t.Case(VALUES[k][0], "llama", [line], flags=["--api-key", KEY], ctrl_c=30))


def container_case(k: int, value: str) -> str:
    """fresh-451's container_case: fresh-293's runner with a Spec for this draw's value; vLLM's start
    bound raised to 1200 s (the task: the machine is loaded)."""
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    healthy = t._healthy_before_exit
    t._healthy_before_exit = lambda proc, port, end: healthy(proc, port, max(end, t.time.monotonic() + 1200))
    if k == 2:
        t.SPECS[value] = t.Spec(
            "tmpdir-nonexistent-read-only-root",
            "docker run --read-only -e TMPDIR=/nonexistent-tmp -v cache:{d}/cache -v vllm-cache:{d}/vllm-cache (no"
            " --tmpfs /tmp; XDG_CACHE_HOME, VLLM_CACHE_ROOT on the volumes): here the two cache folders bind-mounted"
            " onto themselves, then / remounted read-only in the namespace (/tmp, /var/tmp and the working directory"
            " {d} read-only; /nonexistent-tmp absent)",
            setup=[
                "mkdir -p {d}/cache {d}/vllm-cache",
                "mount --bind {d}/cache {d}/cache",
                "mount --bind {d}/vllm-cache {d}/vllm-cache",
                t.RO_ROOT,
            ],
            env={"TMPDIR": "/nonexistent-tmp"},
        )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    for folder in (WORK, t.BASE):
        folder.chmod(0o755)
    return t.make_case(value)


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh464_draw.txt"


def kept_draws() -> list[tuple[int, str, str]]:
    """The committed draw file's kept lines (its `--draws` output, run twice and compared before it was committed)."""
    kept = []
    for line in DRAW_FILE.read_text().splitlines():
        if line.startswith("draw "):
            n, c, v = line.split(": ", 1)[1].split(" | ")
            kept.append((int(n.removeprefix("fresh-")), c, v))
    assert len(kept) == N
    return kept


def servebox_298_case(k: int) -> str:
    """fresh-298's llama spec and runner; the spec in deploy/, the folder given as the spec path."""
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    t.WORK.mkdir(parents=True, exist_ok=True)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    (case / "deploy").mkdir(parents=True)
    (case / "deploy" / "spec.toml").write_text(t.llama_spec())
    text = t.shell(case, "cat deploy/spec.toml") + t.shell(case, "ls deploy")
    return text + t.run(case, ["servebox", "render", "deploy", "--out", "out"])


def make(k: int) -> None:
    import time

    n, condition, value = kept_draws()[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 293:
        text = container_case(k, value)
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
