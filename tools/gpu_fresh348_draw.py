"""Draw the fresh-348 GPU cases: WILL THIS CONTEXT FIT, ROUND 2 -- a re-draw over fresh-302's universe (the memory and
context sizing settings of the deployment in /work/shared/seed/DIGEST.md on a cut copy of its hybrid Qwen3.5-27B and a
cut dense llama, each case with one drawn setting and, half the time, one drawn event), skipping every (condition,
value class) fresh-302 kept. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy
weights, no tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh348_draw.py                  writes tools/gpu-fresh348-cases.json and prints the draw
       python3 tools/gpu_fresh348_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh348_draw.py --order-check    the schedule rule simulated over 300 OTHER seeds (the
                                                           rule below was chosen from this, before seed 2348 was drawn)
       python3 tools/gpu_fresh348_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh348-cases.json LEFT 8 0.95
       <the file's "order">
(tools/gpu_serve_requests.py, UNCHANGED (its "hog" step is fresh-302's): cases start in the order given while the
running cases' "mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once, in order (a case that does not
fit blocks the ones behind it); a case not started by TOTAL_S - its "need" is skipped; a case with rlogs/NAME.done is
not rerun, so a second call with the same names runs only what the first did not reach.)

THE UNIVERSE is fresh-302's, IMPORTED from tools/gpu_fresh302_draw.py unchanged: SETTINGS (12 conditions S01-S12,
their classes' model, flags, booking and EXPECT), EVENTS (E1-E3 and their classes), MODEL (the two cut folders and
their U), the base flags and build() / make_case() (the base command, a drawn flag replacing the base's, the event's
steps, the hog). Its docstring holds the sources (vLLM 0.26.0's own source from the kit's wheel) and the earlier GPU
makers it checked. Read here besides: vLLM 0.26.0's config/compilation.py (the wheel unzipped into /tmp/gpu348): the
check 'max_num_seqs (N) exceeds available Mamba cache blocks (B) ... Please lower max_num_seqs' is raised for a model
with Mamba/GDN layers when FULL decode CUDA graphs are on and max_num_seqs > the pool's blocks. Not read: doctor, its
knowledge, its tests, any earlier batch's logs (fresh-302's manifest header was read for what it kept and what ran).
EARLIER GPU MAKERS: fresh-302 (this universe, round 1; its twelve (setting, class) pairs and its event pairs, read
from tools/gpu-fresh302-cases.json, are SKIPPED), and those fresh-302's docstring lists; fresh-339 (this stop: the
Mamba-blocks failure above, on a cut qwen3.5 with a 2 GiB budget and the default 1024 seqs).

--max-num-seqs ON THE HYBRID (the brief's point from fresh-339): fresh-302's base already gives every qwen3.5 case
`--max-num-seqs 64` (the deployment's 64); no class of the universe drops it; S04's classes replace it with 64 / 256 /
1. A 2 GiB budget holds ~642 blocks (fresh-339's figure), a 1 GiB one ~320 (fresh-302's e08 ran 256 seqs in 1 GiB):
64 fits both, so no case here fails on the seqs-vs-blocks check unless that is its point. The one place it can
still come: S01's profiled classes (no budget; the pool is what the utilization leaves): at 0.13 a pool under 64
blocks would be refused by exactly that check -- that IS that class's point (too small a share), so it is left as is.
Nothing in the universe was changed for this.

THE DRAW: r = random.Random(2348); names = r.sample(sorted(SETTINGS), 12) (every setting once, in a drawn order);
per case in that order: left = its classes minus fresh-302's kept class for that setting; u = r.random(); "valid"
if u < 1/6 and "valid" in left, else r.choice(left minus "valid") (every setting has a non-valid class left); then
v = r.random(); if v < 1/2: the event pairs left = (event, class) pairs not kept by fresh-302 AND not already drawn
earlier in this draw; if any are left, e = r.choice(sorted(events with a pair left)), class = r.choice(its classes
left); else no event. Nothing is redrawn.
WHY "NOT ALREADY DRAWN EARLIER IN THIS DRAW" (fixed before the draw, disclosed): fresh-302 kept five of the six event
pairs (E1 8GiB, E2 96299, E2 262145, E3 64x4096, E3 8x65536), so only E1 12GiB-util-0.9 is left; drawn with
replacement it would come to ~6 of 12 cases and refuse them all at worker start with the same free-memory line,
hiding their settings. Taking a pair once (as a setting is taken once) gives it to at most one case.
KEPT BY FRESH-302 (skipped): S01 0.95, S02 valid, S03 auto, S04 256, S05 256, S06 valid, S07 0, S08 eager, S09 40,
S10 kv-offloading-8, S11 16, S12 0.04-4G; events E1 8GiB, E2 262145, E2 96299, E3 64x4096, E3 8x65536.
LEFT: S01 valid / 0.10 / 0.13 (all profiled, booked ALONE at 0.95); S02 auto / -1 / 262145 / 1m / 168340; S03 524288 /
400000; S04 valid / 1; S05 valid / 131072; S06 fp8_e5m2 / turboquant_k8v4 / nvfp4 / int8_per_token_head; S07 valid /
2g / 1.5G; S08 O0 / sizes-1-64 / max-capture-1024; S09 valid / 6; S10 swap-space-16 / kv-offloading-8-llama; S11 64
/ 2048; S12 valid / 1.0-2G; event E1 12GiB-util-0.9.

SCHEDULE (not the universe; fixed before the draw): the cases' args, env, steps and hog are fresh-302's make_case()
output unchanged; what changes is WHEN they start and what the driver books:
  "parse" classes (refused by the argument parser or while the engine config is built in the API server, before any
    engine core touches the GPU, per the universe's EXPECT and 0.26's source: S02 262145 and 1m (_get_and_verify_max_len
    in ModelConfig), S07 1.5G (human_readable_int in argparse), S10 swap-space-16 (no such option in 0.26)): booked
    0.05, timeout 75, need 25 (fresh-340's figures);
  "early" (S12 1.0-2G: refused at worker start by the free-memory check, which a 1.0 share can never pass; the engine
    core holds only its CUDA context then): booked 0.05, timeout 150, need 60;
  a hog case adds the co-tenant's GiB / 80 + 0.01 (fresh-302's rule);
  every other case keeps fresh-302's booking (its U: 0.17 for qwen3.5, 0.13/0.14 for llama, 0.31 for the two
    0.31 classes; S01's classes 0.95, alone), timeout 300, need 200 (150 alone).
  "order" = the parse and early cases (draw order), then the other budgeted cases (draw order), then the S01 alone
  case LAST (it starts when nothing runs, and nothing starts beside it).
  Chosen by --order-check, run before this commit and before seed 2348 was drawn, over 300 OTHER seeds (2049..2349
  without 2348), simulating the driver's rule at 480 s with fresh-302's MEASURED side-by-side figures (qwen3.5 ready in
  ~200 s when 5-9 start together (186-248 s there), llama ~100 s; a qwen3.5 alone ~100 s; parse refusals ~30 s; the
  early refusal ~60 s; a flood +35 s, other steps +8 s). It printed:
    fresh-302's (alone last): mean end 429 s; cases skipped per draw 1.48; draws with a skip 1.00
    parse first, alone last: mean end 433 s; cases skipped per draw 1.48; draws with a skip 1.00
    alone first: mean end 366 s; cases skipped per draw 4.42; draws with a skip 1.00
  (the alone case first pushes the second wave of qwen3.5 starts past its 200 s "need"). Parse first costs nothing
  and lets the quick refusals run while the first wave loads.
  TIME, honestly: fresh-302's bookings (qwen3.5 at 0.17: only 5 at once, 5 x 0.17 = 0.85) make ~10 qwen3.5 starts
  two waves of ~200 s, and the alone case a third step of ~100 s: ~510 s for a draw with few quick cases, beyond the
  ~480 s a call leaves. In every simulated draw the driver SKIPS (time) about 1.5 cases, mostly the alone one; it
  writes no .done for them, so a SECOND call with the same names (~100-200 s of engine time) runs just those. Nothing
  is replaced, and no booking was lowered (a lower booking would let the free-memory check at worker start fail
  beside neighbours: a failure of the schedule, not of the case).
MEMORY BOUND BY CONSTRUCTION: fresh-302's (every case but S01's has a fixed KV budget, so the profile is skipped and
neighbours cannot move its pool; the running bookings stay within 0.95; S01's profiled class runs alone); the parse /
early bookings of 0.05 hold nothing but a CUDA context at most (~0.6 GiB) before they exit.

THE DRAW GAVE (printed once by --draw-only after the tool was committed in c63195d5, before the cases file was
written; only this paragraph changed after it): every setting once; one "valid" class (e02, u = 0.112); one event (e01:
E1 12GiB-util-0.9, the only event pair left; draws 1-3 had v < 1/2, so by the once-only rule e02 and e03 got none);
nine cases on the cut qwen3.5, three on the cut llama; one alone case (e06, S01 0.13), run last. --max-num-seqs on the
hybrid: every qwen3.5 case carries the base's 64 (e03: its drawn 1), well under the ~642 (2 GiB) / ~320 (1 GiB)
Mamba blocks, so the fresh-339 seqs-vs-blocks refusal cannot come from the base; e06 (profiled, 0.13) is the one place
it may come, as that class's own point. Simulated (the schedule's figures): e04, e05, e01, e02, e03, e07 start at
once (0.94 booked), e08 / e09 as e01 and the quick refusals end, e10-e12 as the first wave ends; the budgeted eleven
end by ~420 s; e06 (alone, need 150) is most likely SKIPPED (time) in the first call: run it in a second call
(`... LEFT 8 0.95 e06`, ~100 s of engine time). e01 books 0.33 (0.17 + the 12 GiB co-tenant) though it asks 0.9: it
is refused before it allocates anything.
EXPECTED for the drawn twelve (each case's "expect" / "event_expect" is its class's EXPECT from fresh-302; in short,
before anything ran):
  e01 S03 524288 with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 + a 12 GiB co-tenant and utilization 0.9: the long-length
      warning at config time, then REFUSED at worker start: 'Free memory on device (X/Y GiB) on startup is less than
      desired GPU memory utilization (0.9, Z GiB)' (the co-tenant's 12 GiB and the neighbours); the KV check the
      setting aims at is never reached;
  e02 S09 --cpu-offload-gb 2: healthy, the POST 200;
  e03 S04 --max-num-seqs 1 at 168340 in 1 GiB: healthy (graphs for 1 and 2 only), the POST 200;
  e04 S12 utilization 1.0 with a 2G budget (llama): REFUSED at worker start by the same free-memory check (1.0 of the
      card can never be free);
  e05 S02 --max-model-len 1m: REFUSED at config time in the API server, '1m' = 1,000,000 > the derived 262144
      (names VLLM_ALLOW_LONG_MAX_MODEL_LEN);
  e06 S01 utilization 0.13, profiled, 262144 (alone): unknown, at the edge: ~10.4 GB asked leaves 0-1.5 GiB for the
      pool: refused with an estimated maximum model length (one 262144 request needs ~1 GiB + GDN states), or the
      seqs-vs-Mamba-blocks refusal if the pool is under 64 blocks, or healthy near 1x;
  e07 S06 --kv-cache-dtype fp8_e5m2 at 262144 in 1 GiB: likely healthy (2 KiB a token), the POST 200;
  e08 S08 --max-cudagraph-capture-size 1024 with 64 seqs: likely healthy (sizes clipped or adjusted, maybe a warning);
  e09 S07 --kv-cache-memory-bytes 2g on llama at 131072: REFUSED at the KV check after the model loads: '2g' is
      2,000,000,000 bytes, short of one 131072 request (2 GiB); an estimated maximum model length ~122k;
  e10 S05 --max-num-batched-tokens 131072 at 131072: unknown: healthy with a large warm-up / activation figure, or a
      CUDA OOM while warming up (booked 0.31 as fresh-302 booked it; if it overruns, a neighbour may see the OOM);
  e11 S11 --block-size 64 on the hybrid: likely healthy with the block raised to the GDN-aligned size (fresh-302's 16
      was silently replaced by a 400-token block);
  e12 S10 --kv-offloading-size 8 on the cut llama: likely healthy (native CPU KV offloading on a dense model).
So: 4 refusals expected (e01, e04 at worker start, e05 at config time, e09 at the KV check), 6 healthy or likely
healthy (e02, e03, e07, e08, e11, e12), 2 unknown (e06, e10).
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh302_draw as f302  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402
from gpu_fresh302_draw import EVENTS, SETTINGS  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh348-cases.json")
F302_JSON = os.path.join(HERE, "gpu-fresh302-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2348
N = 12
P_VALID = f302.P_VALID  # 1/6
P_EVENT = f302.P_EVENT  # 1/2
PARSE = {("S02", "262145"), ("S02", "1m"), ("S07", "1.5G"), ("S10", "swap-space-16")}
EARLY = {("S12", "1.0-2G")}
SCHED = {"parse": (0.05, 75, 25), "early": (0.05, 150, 60)}  # cost -> (mem, timeout, need)


def kept302():
    with open(F302_JSON) as f:
        cases = json.load(f)["cases"].values()
    settings = {(c["setting"], c["class"]) for c in cases}
    events = {(c["event"], c["event_class"]) for c in cases if "event" in c}
    return settings, events


def draw_classes(seed=SEED):
    kept_s, kept_e = kept302()
    taken_e = set(kept_e)
    r = random.Random(seed)
    names = r.sample(sorted(SETTINGS), N)
    out = []
    for name in names:
        left = [c for c in SETTINGS[name] if (name, c) not in kept_s]
        bites = [c for c in left if c != "valid"]
        u = r.random()
        cls = "valid" if u < P_VALID and "valid" in left else r.choice(bites)
        v = r.random()
        ev = None
        if v < P_EVENT:
            open_ev = sorted(e for e in EVENTS if any((e, k) not in taken_e for k in EVENTS[e]))
            if open_ev:
                e = r.choice(open_ev)
                ev = (e, r.choice([k for k in EVENTS[e] if (e, k) not in taken_e]))
                taken_e.add(ev)
        out.append((name, cls, u, v, ev))
    return out


def cost_of(name, cls, mem):
    key = (name[:3], cls)
    if key in PARSE:
        return "parse"
    if key in EARLY:
        return "early"
    return "alone" if mem == f302.ALONE else "start"


def draw(seed=SEED):
    cases = {}
    for i, (name, cls, u, v, ev) in enumerate(draw_classes(seed), 1):
        c = f302.make_case(i, name, cls, u, v, ev)
        cost = cost_of(name, cls, c["mem"])
        c["cost"] = cost
        if cost in SCHED:
            mem, c["timeout"], c["need"] = SCHED[cost]
            hog = c.get("hog", {}).get("gib", 0)
            c["mem"] = round(mem + (hog / 80 + 0.01 if hog else 0), 2)
        c["draw"] = c["draw"].replace("draw ", "fresh-348 draw ", 1)
        cases[f"e{i:02d}"] = c
    rank = {"parse": 0, "early": 0, "start": 1, "alone": 2}
    order = sorted(cases, key=lambda k: (rank[cases[k]["cost"]], k))
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    kept_s, kept_e = kept302()
    why = ("fresh-348 doctor-corpus cases (tools/gpu_fresh348_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95; the alone case last). "
           "Round 2 of fresh-302's universe (imported unchanged), fresh-302's kept pairs skipped; drawn, not chosen: "
           "see the draw script's docstring. 'models': python3 tools/gpu_fresh348_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "universe": len(SETTINGS) + len(EVENTS),
            "skipped_pairs": sorted(map(list, kept_s | kept_e)), "order": order, "models": models,
            "cases": cases}  # fmt: skip


DUR = {"qwen35": 200, "llama": 100}  # fresh-302's measured side-by-side ready times (s)


def dur(c):
    if c["cost"] == "parse":
        return 30
    if c["cost"] == "early":
        return 60
    if c["cost"] == "alone":
        return 100
    return DUR[c["model_key"]] + (35 if any(s.get("bg") for s in c["steps"]) else 8)


def simulate(out, order, total=480):
    """The driver's start rule (in order, blocking; within 0.95 and 8): returns (end, skipped)."""
    running, clock, end, skipped = [], 0.0, 0.0, []
    for k in order:
        c = out["cases"][k]
        while True:
            running = [x for x in running if x[0] > clock]
            if not running or (len(running) < 8 and sum(m for _, m in running) + c["mem"] <= 0.95):
                break
            clock = min(t for t, _ in running)
        if clock > total - c["need"]:
            skipped.append(k)
            continue
        d = dur(c)
        running.append((clock + d, c["mem"]))
        end = max(end, clock + d)
        clock += 1
    return round(end), skipped


def orders(out):
    cs = out["cases"]
    rank302 = sorted(cs, key=lambda k: (cs[k]["cost"] == "alone", k))
    alone_first = sorted(
        cs, key=lambda k: ({"alone": 0, "parse": 1, "early": 1, "start": 2}[cs[k]["cost"]], k)
    )
    return {
        "fresh-302's (alone last)": rank302,
        "parse first, alone last (used)": out["order"],
        "alone first": alone_first,
    }


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:] == ["--order-check"]:
    seeds = [s for s in range(2049, 2350) if s != SEED][:300]
    stats = {}
    for s in seeds:
        out = draw(s)
        for name, order in orders(out).items():
            end, skipped = simulate(out, order)
            st = stats.setdefault(name, [0, 0, 0])
            st[0] += end
            st[1] += len(skipped)
            st[2] += bool(skipped)
    for name, (e, sk, any_sk) in stats.items():
        print(f"{name}: mean end {e / len(seeds):.0f} s; cases skipped per draw {sk / len(seeds):.2f}; "
              f"draws with a skip {any_sk / len(seeds):.2f}")  # fmt: skip
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], "|", c["cost"], "|", " ".join(c["args"][1:]), c["env"] or "", c.get("hog") or "",
              "mem", c["mem"])  # fmt: skip
    for name, order in orders(out).items():
        print(name, "-> simulated end / skipped at 480 s:", *simulate(out, order))
    print("order:", " ".join(out["order"]))
