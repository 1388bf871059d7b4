"""fresh-325: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 4. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py, fresh311.py and fresh321.py made, with a new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made), fresh-304's kept triples (its draw()), fresh-311's and fresh-321's kept triples (their draw(),
imported unchanged).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh325_draw.txt, before any case
ran): r = random.Random(2325); repeat until N = 11 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311 or 321 kept it, or when it repeats a triple kept here. `--draws` lists the kept triples and every triple
drawn anew with its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the
manifest header, not replaced. A drawn case too slow for this shared machine (a full `servebox provision` of vLLM) is
not made and said so (none drawn).
Realisation (as fresh-304 / 311 / 321): each kept triple gets one concrete value of the maker's choosing inside its
class, written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as
the earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit =
fresh-228's BASES[(k-1) % 3] for draw k), with this batch's folders /tmp/fresh325 (/var/tmp/fresh325 for the
container cases) and ports 24600-24649 (router 24600, engines 24601 / 24602). One engine at a time, timeouts, each
engine's process group killed after the case (the earlier runners do this).
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh325-<kind>-<slug>.log (fresh-293's / 289's writers name theirs
from the case id; those are renamed fresh325-...).
Read: common.md, batch.md, tools/doctor_corpus_fresh304.py, 311 and 321, the three _draw.txt files; the drawn tools'
CONDITIONS and case builders (228, 236, 277, 289, 293, 295, 298); tools/corpus_tools.py names. Not read:
servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh325.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402
import doctor_corpus_fresh321 as F321  # noqa: E402

SEED, N = 2325, 11
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {
        "fresh-304": set(F304.draw()[0]),
        "fresh-311": set(F311.draw()[0]),
        "fresh-321": set(F321.draw()[0]),
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
        "fresh325-container-vllm-home-nonexistent-read-only-tmpfs-tmp",
        "fresh-293's vLLM command (tiny model, --max-model-len 512, --enforce-eager, port 24601) in `unshare -m`:"
        " a tmpfs at /tmp, / remounted read-only, HOME=/nonexistent, XDG_CACHE_HOME / VLLM_CACHE_ROOT unset",
        "vLLM's default cache root is ~/.cache/vllm = /nonexistent/.cache/vllm on a read-only root: a makedirs there"
        " raises OSError [Errno 30] Read-only file system (or the engine catches it and serves with a warning);"
        " guess: start fails on the cache folder",
        "a read-only-file-system / cache-not-writable family (named after the run)",
    ),
    2: (
        "fresh325-systemd-llama-server-inaccessiblepaths-opt-models-srv",
        "llama-server.service (base k=2) with InaccessiblePaths=/opt/models /srv after Group= (fresh-295's mutate,"
        " video/render groups appended to the root's /etc/group as fresh-295 did); verify + security",
        "InaccessiblePaths= parses: verify clean, exit 0; security counts it; the offline tools state no problem"
        " (at run time the model under /opt/models would be hidden: -m fails to open, which these tools cannot show)",
        "none",
    ),
    3: (
        "fresh325-systemd-llama-swap-socket-accept-yes-service-named",
        "llama-swap.socket (base k=3 llama-swap.service) with Accept=yes and Service=llama-swap.service (fresh-236's"
        " mutate); verify",
        "socket.c refuses Service= on an Accept=yes socket: 'Explicit service configuration for accepting socket units"
        " not supported. Refusing.' and the socket fails to load; verify exit non-zero",
        "a systemd socket Accept=/Service= family (named after the run)",
    ),
    4: (
        "fresh325-container-vllm-pids-limit-200",
        "fresh-293's vLLM command under `unshare -m` joined to a cgroup v1 pids child with pids.max = 200"
        " bind-mounted at /sys/fs/cgroup/pids (docker run --pids-limit 200); /health (600 s), one chat request",
        "the API server, the engine core and their torch/OMP threads on a 2-core machine stay well under 200 tasks:"
        " vLLM starts and answers the request; nothing fails",
        "none",
    ),
    5: (
        "fresh325-servebox-render-check-llama-binary-absent",
        'fresh-298\'s llama.cpp base spec with binary = "/opt/llama.cpp/build/bin/llama-server" (absent here);'
        " `servebox render spec.toml --out out --check`",
        "the rendered unit's ExecStart= names a missing program: systemd-analyze verify prints 'Command"
        " /opt/llama.cpp/build/bin/llama-server is not executable: No such file or directory' and servebox's --check"
        " reports the failure, non-zero exit",
        "a systemd command-not-found family (named after the run)",
    ),
    6: (
        "fresh325-systemd-llama-swap-cpuschedulingpolicy-realtime",
        "llama-swap.service (base k=6) with CPUSchedulingPolicy=realtime (fresh-228's mutate); verify",
        "load-fragment.c: 'Failed to parse CPU scheduling policy, ignoring: realtime' (a warning; the setting is"
        " dropped); verify exits 0 otherwise",
        "a systemd invalid-value family (named after the run)",
    ),
    7: (
        "fresh325-systemd-vllm-protecthome-yes-model-under-home",
        "vllm.service (base k=7) with ProtectHome=yes and --model /home/alice/models/... (fresh-277's mutate); verify",
        "both parse: verify clean, exit 0 (the hidden /home only shows at run time, which verify cannot show)",
        "none",
    ),
    8: (
        "fresh325-systemd-llama-server-protecthome-read-only-cache-under-home",
        "llama-server.service (base k=8) with ProtectHome=read-only and LLAMA_CACHE=/home/alice/.cache/llama.cpp"
        " (fresh-277's mutate); verify",
        "both parse: verify clean, exit 0; -m is a local file, so the read-only cache would not even be written",
        "none",
    ),
    9: (
        "fresh325-up-llama-sigstop-during-stream",
        "fresh-289's `servebox up` with the tiny GGUF on llama.cpp (router 24600, engine 24601); a streamed chat"
        " request, llama-server SIGSTOPped mid-stream (fresh-289's steps: wait for servebox's health watch to"
        " restart it, then one chat request)",
        "the stream stops; servebox's health check times out on the frozen engine, records an incident, kills and"
        " restarts it; the later request is answered",
        "a frozen-engine / health-check-timeout family (named after the run)",
    ),
    10: (
        "fresh325-systemd-vllm-after-network-online-no-suffix",
        "vllm.service (base k=10) with After=network-online (fresh-228's mutate); verify",
        "load-fragment.c: 'Failed to add dependency on network-online, ignoring: Invalid argument' (a warning);"
        " verify exit 0 otherwise",
        "a systemd unit-name-without-suffix family (named after the run)",
    ),
    11: (
        "fresh325-container-llama-cpuset-1-t4-cpu-range-0-3",
        "fresh-293's llama-server command (tiny GGUF, -c 512, port 24602) with -t 4 --cpu-range 0-3 under `unshare"
        " -m` joined to a cgroup v1 cpuset child, cpuset.cpus = 1, cpuset.mems = 0, bind-mounted at"
        " /sys/fs/cgroup/cpuset (docker run --cpuset-cpus=1); /health (120 s), one chat request",
        "ggml's threadpool sets each thread's affinity to CPUs 0-3; CPUs outside the cpuset make"
        " pthread_setaffinity_np fail (EINVAL): 'warn: failed to set affinity mask' lines, then it serves on CPU 1;"
        " the request is answered",
        "none",
    ),
}

WORK = Path("/tmp/fresh325")
ROUTER, PORT_A, PORT_B = 24600, 24601, 24602
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
    unit, drop, shown = t.mutate(name, base, condition, value)  # 295: fresh-277's root builder
    t.build_root(root, name, unit, drop, shown)
    with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
        groups.write("video:x:44:\nrender:x:105:\n")
    return t.log_for(root, name, unit, drop, shown)


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    spec = t.llama_spec().replace(
        f'binary = "{t.LLAMA_SERVER}"', 'binary = "/opt/llama.cpp/build/bin/llama-server"'
    )
    assert "/opt/llama.cpp/build/bin/llama-server" in spec
    return t.spec_case(case, spec, t.render("spec.toml", "--check"))


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    return t.case_maker(condition, value)()


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = Path("/var/tmp/fresh325")
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 1:
        t.SPECS[value] = t.Spec(
            "home-nonexistent-read-only-tmpfs-tmp",
            "docker run --read-only --tmpfs /tmp -e HOME=/nonexistent (no XDG_CACHE_HOME / VLLM_CACHE_ROOT / HF_HOME):"
            " here a tmpfs rw,nosuid,nodev,noexec at /tmp, then / remounted read-only in the namespace",
            setup=["mount -t tmpfs -o rw,nosuid,nodev,noexec tmpfs /tmp", t.RO_ROOT],
            env={"HOME": "/nonexistent", "XDG_CACHE_HOME": None, "VLLM_CACHE_ROOT": None},
        )
    elif k == 4:
        t.SPECS[value] = t.Spec(
            "pids-limit-200",
            "docker run --pids-limit 200: a cgroup v1 pids child, pids.max = 200, bind-mounted at /sys/fs/cgroup/pids",
            setup=[t.cg_view("pids")],
            cgroups={"pids": {"pids.max": "200"}},
        )
    elif k == 11:
        t.SPECS[value] = t.Spec(
            "cpuset-cpus-1-t4-cpu-range-0-3",
            "docker run --cpuset-cpus=1: a cgroup v1 cpuset child, cpuset.cpus = 1, cpuset.mems = 0, bind-mounted at"
            " /sys/fs/cgroup/cpuset; llama-server -t 4 --cpu-range 0-3",
            setup=[t.cg_view("cpuset")],
            cgroups={"cpuset": {"cpuset.cpus": "1", "cpuset.mems": "0"}},
            flags=["-t", "4", "--cpu-range", "0-3"],
        )
    t.prepare()
    return t.make_case(value)


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 277, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 289:
        text = up_case(k, condition, value)
    elif n == 293:
        text = container_case(k, value)
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
