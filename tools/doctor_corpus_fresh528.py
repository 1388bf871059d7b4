"""fresh-528: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 24. fresh-506's procedure
(itself fresh-488's, 476's, 464's, 451's, 446's and 437's) repeated with seed 2528, N = 10; fresh-506's kept draws
join the already-made set. Ports 27340-27349 (router 27340, engines 27341 / 27342), work dir /tmp/fresh528.

IMPORTED, not copied (batch.md step 2): tools/doctor_corpus_fresh506.py (F506) and through it F488 / F476 / F464 and
fresh-293's, 298's and 228's modules. F506.draw() (itself F488.draw()'s loop, unchanged) IS the draw: draw() here sets
F506.SEED = 2528, F506.N = 10, F506.PREDECESSOR_EARLIER = its list + ["F506"] with F476.F506 a stand-in whose draw()
returns fresh-506's committed kept triples (F506.kept_draws()), so they are skipped as 'kept by fresh-506'.

THE POOL WAS EMPTY: every (tool, condition, class) of the ten tools (343 triples) is made by its own batch or kept by
fresh-304 ... 506 (checked before the draw: 0 left), so F488's loop would never end (a first `--draws` ran 12 minutes,
10 GB, and was stopped). As batch.md says (the pool runs short: add NEW classes BEFORE the draw), NEW below adds 13
classes to used-up conditions of fresh-228, 293 and 298, built with corpus_tools.pool_after (it checks that each
condition is used up and each class new). The loop sees them through F488's module globals `tool` and `made`, read at
call time: `tool` is wrapped so the three tools' CONDITIONS are pool_after's merged dicts (old classes first, order
kept), `made` answers from the tools' own draws computed BEFORE (fresh-228 / 293 / 298's draws() read their CONDITIONS,
so their own made set must not see the new classes). No module's CONDITIONS is changed; no file of theirs is edited.
Makers: F506.point_f488 / F488.systemd_case (fresh-228's mutate takes each new 228 value verbatim, as its branches do),
F506.container_case (fresh-464's runner for fresh-293, vLLM bound 1200 s) with F506's module globals pointed here and
Specs written here for the new fresh-293 classes; fresh-298's vllm_spec / spec_case / shell / run / render for the new
render classes (render_case here).
Task rule (as fresh-476 ... 506): no log pastes `servebox up`'s INCIDENT lines or incidents.jsonl (none drawn runs up).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh528.py --draws | --values | K ...
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh506 as F506  # noqa: E402
from corpus_tools import pool_after  # noqa: E402

F488, F476 = F506.F488, F506.F476
SEED, N = 2528, 10
TOOLS, tool, made = F506.TOOLS, F506.tool, F506.made

C228 = {
    "rs": "systemd.service: RestartSec= with a unit systemd does not know",
    "bool": "systemd.exec: a boolean word systemd does not take",
    "kill": "systemd.kill: KillMode= a mode it does not have",
    "cpuw": "systemd.resource-control: CPUWeight= out of range",
    "umask": "systemd.exec: UMask= not in octal",
    "sched": "systemd.exec: CPUSchedulingPolicy= a policy it does not have",
    "amb": "systemd.exec: AmbientCapabilities= capability name misspelt (for mlock)",
}
C293 = {
    "nofile": "a low open-files limit (docker --ulimit nofile=SOFT:HARD)",
    "as": "an address-space limit (prlimit --as, a runtime's or PAM's RLIMIT_AS)",
    "cpu": "one CPU (docker --cpuset-cpus=1: the cpuset cgroup) against the engine's thread settings",
}
C298 = {
    "type": "render: a spec value of the wrong type",
    "router": "render: a [router] value out of range or unknown",
    "file": "render: the spec file itself",
}
# New value classes (written before the draw; each extends a used-up condition, pool_after checks it).
NEW = {
    228: {
        C228["rs"]: ["PT5S"],
        C228["bool"]: ["PrivateTmp=disabled"],
        C228["kill"]: ["SIGTERM"],
        C228["cpuw"]: ["50%"],
        C228["umask"]: ["022 # group-readable"],
        C228["sched"]: ["SCHED_FIFO (the kernel's name)"],
        C228["amb"]: ["cap_ipc_lock (lower case)"],
    },
    293: {
        C293["nofile"]: ["llama: 32:32"],
        C293["as"]: ["llama: 1 GiB"],
        C293["cpu"]: ["llama: -t 16 under taskset -c 0"],
    },
    298: {
        C298["type"]: ["[models.flags] max-model-len = '8192' (a string)"],
        C298["router"]: ["listen = '127.0.0.1:80800' (port above 65535)"],
        C298["file"]: ["the spec saved as UTF-8 with a BOM (EF BB BF first)"],
    },
}


def kept_everywhere() -> set[tuple[int, str, str]]:
    """Every triple fresh-304 ... 506 kept (the same sources F488.draw() and F506.draw() read)."""
    kept = set(F476.draw()[0]) | set(F488.kept_draws()) | set(F506.kept_draws())
    for m in F488.EARLIER:
        kept |= set(getattr(F476, m).draw()[0])
    return kept


def merged_conditions() -> tuple[dict, dict]:
    """pool_after per tool with NEW: (tool -> merged conditions, tool -> its made-by-own-batch set, computed first)."""
    made0 = {n: made(n) for n in TOOLS}
    kept = kept_everywhere()
    merged = {}
    for n, new in NEW.items():
        already = made0[n] | {(c, v) for m, c, v in kept if m == n}
        merged[n], _ = pool_after(tool(n).CONDITIONS, already, new)
    return merged, made0


def draw():
    """F506.draw() itself (F488's loop) with SEED / N here, fresh-506's kept triples added, NEW classes visible."""
    merged, made0 = merged_conditions()
    kept506 = F506.kept_draws()
    saved = (F506.SEED, F506.N, F506.PREDECESSOR_EARLIER, F488.tool, F488.made)
    F476.F506 = types.SimpleNamespace(draw=lambda: (kept506, []))
    F506.SEED, F506.N = SEED, N
    F506.PREDECESSOR_EARLIER = list(saved[2]) + ["F506"]
    F488.tool = lambda n: types.SimpleNamespace(CONDITIONS=merged[n]) if n in merged else tool(n)
    F488.made = lambda n: made0[n]
    try:
        return F506.draw()
    finally:
        F506.SEED, F506.N, F506.PREDECESSOR_EARLIER, F488.tool, F488.made = saved
        F488.EARLIER = list(saved[2])


WORK = Path("/tmp/fresh528")
ROUTER, PORT_A, PORT_B = 27340, 27341, 27342
OUT = F506.OUT
KEY = "sk-fresh528-local"

# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
SYSTEMD_UNIT = "fresh-228's base unit BASES[(k-1) % 3] with fresh-228's mutate (the value verbatim), build_root, log_for;"
VALUES = {
    1: (
        "fresh528-systemd-vllm-cpuschedulingpolicy-sched-fifo",
        f"vllm.service ({SYSTEMD_UNIT} k=1: BASES[0]) with CPUSchedulingPolicy=SCHED_FIFO after LimitMEMLOCK=;"
        " systemd-analyze verify",
        "systemd 252 takes only other / batch / idle / fifo / rr: 'Failed to parse CPU scheduling policy, ignoring:"
        " SCHED_FIFO' (or close words) for vllm.service, verify exit 0 (the unit runs with the default policy)",
        "systemd-bad-value",
    ),
    2: (
        "fresh528-systemd-llama-server-umask-inline-comment",
        f"llama-server.service ({SYSTEMD_UNIT} k=2: BASES[1]) with 'UMask=022 # group-readable' after Group=;"
        " systemd-analyze verify",
        "systemd takes no inline comment: the whole '022 # group-readable' is the value, parse_mode refuses it:"
        " 'Failed to parse mode value, ignoring: 022 # group-readable' (or close words), verify exit 0",
        "systemd-bad-value",
    ),
    3: (
        "fresh528-container-llama-taskset-one-cpu-threads-16",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 27342) with -t 16 under `taskset -c 0`"
        " (docker run --cpuset-cpus=0 IMAGE ... -t 16): 16 threads on one CPU; one chat request",
        "llama-server starts (system_info shows n_threads = 16), loads and answers 200, slowly; nothing fails",
        "none (healthy: threads above the CPUs given only slow it)",
    ),
    4: (
        "fresh528-systemd-vllm-ambientcapabilities-lower-case",
        f"vllm.service ({SYSTEMD_UNIT} k=4: BASES[0]) with AmbientCapabilities=cap_ipc_lock after LimitMEMLOCK=;"
        " systemd-analyze verify (and, outside the log, `systemd-analyze security --offline=yes` on the case's"
        " root, as fresh-506 checked its silent case)",
        "systemd's capability names are looked up without regard to case (systemctl show prints them lower case):"
        " verify prints nothing, exit 0, and the capability is granted",
        "none (a valid value, written lower case)",
    ),
    5: (
        "fresh528-container-llama-ulimit-nofile-32",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 27342) under `prlimit --nofile=32:32 --`"
        " (docker run --ulimit nofile=32:32); one chat request",
        "llama-server needs a few descriptors (the GGUF, the listening socket, one per connection, the backend"
        " libraries while loading): it starts and answers 200",
        "none (healthy; if it dies on 'Too many open files', corrected to the run's truth)",
    ),
    6: (
        "fresh528-container-llama-address-space-1g",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 27342) under `prlimit --as=1073741824 --`"
        " (RLIMIT_AS 1 GiB); one chat request",
        "the tiny model, its KV cache and the threads' stacks fit in 1 GiB of address space: it starts and answers"
        " 200 (if thread stacks or glibc's arenas run it out: a thread that cannot be created, or bad_alloc)",
        "none (healthy; else thread-creation-refused / address-space-limit-too-small by what the log shows)",
    ),
    7: (
        "fresh528-systemd-vllm-restartsec-iso8601",
        f"vllm.service ({SYSTEMD_UNIT} k=7: BASES[0]) with RestartSec=PT5S (an ISO 8601 duration);"
        " systemd-analyze verify",
        "parse_sec refuses 'PT5S': 'Failed to parse RestartSec= parameter, ignoring: PT5S' (or close words), exit 0",
        "systemd-bad-value",
    ),
    8: (
        "fresh528-systemd-llama-server-privatetmp-disabled",
        f"llama-server.service ({SYSTEMD_UNIT} k=8: BASES[1]) with PrivateTmp=disabled after LimitMEMLOCK=;"
        " systemd-analyze verify",
        "'disabled' is no boolean: 'Failed to parse boolean value, ignoring: disabled' (or close words), exit 0",
        "systemd-bad-value",
    ),
    9: (
        "fresh528-servebox-render-router-listen-port-80800",
        "fresh-298's base vLLM spec with [router] listen = '127.0.0.1:80800'; `servebox render spec.toml --out out`"
        " (fresh-298's spec_case / render)",
        "servebox's listen parser refuses a port above 65535 (an error naming the router's listen and the port),"
        " non-zero exit (2 likely), nothing written",
        "servebox-spec-invalid",
    ),
    10: (
        "fresh528-systemd-vllm-killmode-sigterm",
        f"vllm.service ({SYSTEMD_UNIT} k=10: BASES[0]) with KillMode=SIGTERM after TimeoutStartSec= (a signal where a"
        " mode belongs: KillSignal='s value); systemd-analyze verify",
        "'Failed to parse kill mode, ignoring: SIGTERM' (or close words) for vllm.service, verify exit 0",
        "systemd-bad-value",
    ),
}

DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh528_draw.txt"
ORDER = [
    9,
    1,
    2,
    7,
    8,
    10,
    4,
    6,
    5,
    3,
]  # expected failures first (quick ones), healthy / uncertain engines last


def point() -> None:
    """F506's (and through it F488's / F476's) makers read these module globals at call time: point them here."""
    F506.WORK, F506.VALUES, F506.KEY = WORK, VALUES, KEY
    F506.ROUTER, F506.PORT_A, F506.PORT_B = ROUTER, PORT_A, PORT_B
    F506.point_f488()


def container_specs() -> None:
    """fresh-293 Specs for the new classes drawn here (fresh-293 had none for them), in its own Spec form."""
    t = tool(293)
    t.SPECS["llama: 32:32"] = t.Spec(
        "ulimit-nofile-32",
        "docker run --ulimit nofile=32:32: prlimit --nofile=32:32",
        prefix=["prlimit", "--nofile=32:32", "--"],
    )
    t.SPECS["llama: 1 GiB"] = t.Spec(
        "address-space-1g",
        "a runtime's or PAM's RLIMIT_AS of 1 GiB (ulimit -v 1048576): prlimit --as=1073741824",
        prefix=["prlimit", "--as=1073741824", "--"],
    )
    t.SPECS["llama: -t 16 under taskset -c 0"] = t.Spec(
        "taskset-one-cpu-threads-16",
        "docker run --cpuset-cpus=0 IMAGE ... -t 16: here taskset -c 0, -t 16",
        prefix=["taskset", "-c", "0"],
        flags=["-t", "16"],
    )


def container_case(k: int, value: str) -> str:
    """F506.container_case (fresh-464's runner for fresh-293, draw number 100 + k) with F506's globals pointed here."""
    point()
    container_specs()
    return F506.container_case(k, value)


def render_case(k: int) -> str:
    """fresh-298's base vLLM spec with the router's listen port out of range, its spec_case and render()."""
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    t.WORK.mkdir(parents=True, exist_ok=True)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    spec = t.vllm_spec().replace('listen = "127.0.0.1:8080"', 'listen = "127.0.0.1:80800"')
    assert "80800" in spec
    return t.spec_case(case, spec, t.render())


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
    print(f"draw {k} ({cid}) starts {time.strftime('%H:%M:%S', time.gmtime())} UTC", flush=True)
    point()
    if n == 228:
        text = F488.systemd_case(k, n, condition, value)
    elif n == 298:
        text = render_case(k)
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
