"""fresh-404: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 12. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py, fresh363.py, fresh369.py, fresh374.py and fresh388.py made, with a new seed:
tools/doctor_corpus_fresh388.py's procedure copied exactly.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's and now fresh-388's
kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set (manifest headers and the tools' first lines checked on main at 22799fa2): as
fresh-388 left them out, fresh-362, 368, 372, 373 (llama-server / vLLM re-draws over other tools, none in TOOLS),
fresh-364, 365, 375, 376, 384 (two conditions at once: pair procedures, not kept (tool, condition, value class)
triples of this re-draw), fresh-366 (vLLM pooling), fresh-382, 383, 385 (a failure after a long healthy run) and
fresh-359/360/367/370/371/377-381 (vLLM on an H100); and since fresh-388: fresh-386, 387, 402 (OLD GROUND, NEW DRAW
over the engines' own tools, none in TOOLS), fresh-389 (after a long healthy run), fresh-390, 396, 397 (two things
wrong at once), fresh-398, 400 (failures as users paste them), fresh-399, 401 (code that is not vLLM's) and
fresh-391/393/394/395 (vLLM on an H100): none draws triples from these TOOLS, so none can collide with a triple drawn
here. No other batch of this theme exists on main after fresh-388.

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh404_draw.txt, before any case
ran): r = random.Random(2404); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374 or 388 kept it, or when it repeats a triple kept here. `--draws`
lists the kept triples and every triple drawn anew with its reason. `--draws` was run TWICE with PYTHONHASHSEED=0 and
the two outputs were compared (`cmp`) before the draw file was committed. Nothing is redrawn afterwards; a case that
cannot be made in time is said so in the manifest header, not replaced. A drawn case too slow for this shared machine
(a full `servebox provision` of vLLM) is not made and said so.
Realisation (as fresh-388): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit = fresh-228's
BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh404 and ports 25780-25789 (router 25780,
engines 25781 / 25782). One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh404-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh388.py and its _draw.txt, the manifest's batch headers; the drawn
tools' CONDITIONS and case builders; tools/corpus_tools.py names.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh404.py --draws | --values | K ...
"""

from __future__ import annotations

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

SEED, N = 2404, 10
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


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


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES: dict[int, tuple[str, str, str, str]] = {}  # written next, before any case runs

WORK = Path("/tmp/fresh404")
ROUTER, PORT_A, PORT_B = 25780, 25781, 25782
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-363's / 374's systemd_case: fresh-228's mutate and root, fresh-277's, fresh-295's (277's root)."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 228:
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n == 277:
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    from doctor_corpus_fresh277 import build_root

    unit, drop, shown = t.mutate(name, base, condition, value)
    build_root(root, name, unit, drop, shown)
    with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
        groups.write("video:x:44:\nrender:x:105:\n")
    return t.log_for(root, name, unit, drop, shown)


HF_TOKEN_SPEC = '[models.env]\nHF_TOKEN = """hf_qLmTzVbXnWcRyDsKaPoE\nUjHgFiNdMxBwQeZrTlVk"""\n'


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    if k == 2:
        return t.run(
            case, ["servebox", "plan", t.QWEN, "--gpu", "l4-24gb", "--gpu-memory-utilisation", "0.9"]
        )
    if k == 8:
        return t.spec_case(case, t.vllm_spec(model=HF_TOKEN_SPEC), t.render())
    raise SystemExit(f"draw {k}: no fresh-298 maker")


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = Path("/srv/fresh388")
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 4:
        limit = str(3 << 30)
        t.SPECS[value] = t.Spec(
            "memory-3g-kvcache-space-unset",
            "docker run -m 3g (memory cgroup limit 3 GiB, swap limit the same; VLLM_CPU_KVCACHE_SPACE not set): a"
            " cgroup v1 memory child, memory.limit_in_bytes = memory.memsw.limit_in_bytes = 3221225472,"
            " bind-mounted at /sys/fs/cgroup/memory",
            setup=[t.cg_view("memory")],
            env={"VLLM_CPU_KVCACHE_SPACE": None},
            cgroups={"memory": {"memory.limit_in_bytes": limit, "memory.memsw.limit_in_bytes": limit}},
        )
    elif k == 10:
        t.SPECS[value] = t.Spec(
            "docker-caps-nofile-1024-4096",
            "docker run as root with Docker's default capabilities (no CAP_IPC_LOCK, CAP_SYS_NICE,"
            " CAP_SYS_RESOURCE) and --ulimit nofile=1024:4096: prlimit --nofile, setpriv --bounding-set",
            prefix=[
                "prlimit",
                "--nofile=1024:4096",
                "--",
                "setpriv",
                f"--bounding-set={t.DOCKER_CAPS}",
                "--",
            ],
        )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    return t.make_case(value)


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    return t.case_maker(condition, value)()


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 277, 295):
        text = systemd_case(k, n, condition, value)
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
