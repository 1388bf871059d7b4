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
VALUES: dict[int, tuple[str, str, str, str]] = {}

DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh528_draw.txt"
ORDER: list[int] = []


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
