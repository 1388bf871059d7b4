"""Draw the fresh-371 GPU cases: WILL THIS CONTEXT FIT, ROUND 3 -- a re-draw over fresh-302's universe (the memory and
context sizing settings of the deployment in /work/shared/seed/DIGEST.md on a cut copy of its hybrid Qwen3.5-27B and a
cut dense llama), every (setting, class) and (event, class) pair that fresh-302 or fresh-348 DREW skipped as already
made, and no case that needs the card alone. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200),
SM90; dummy weights, no tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh371_draw.py                  writes tools/gpu-fresh371-cases.json and prints the draw
       python3 tools/gpu_fresh371_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh371_draw.py --rule-check     the pick rule run over 300 OTHER seeds (how often it passes
                                                           a pair over; run before seed 2371 was drawn)
       python3 tools/gpu_fresh371_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (ONE device call, after the bundle's part calls; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 450 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh371-cases.json LEFT 8 0.95
       <the file's "order">
(tools/gpu_serve_requests.py UNCHANGED: cases start in the order given while the running cases' "mem" plus the next
one's stays within MEM_CAP (0.95), at most PARALLEL (8) at once, in order (a case that does not fit blocks the ones
behind it); a case not started by TOTAL_S - its "need" is skipped and writes no rlogs/NAME.done, so a second call with
the same names runs only what the first did not reach. TOTAL 450 leaves LEFT ~420 s after the kit's 17-35 s set-up.)

THE UNIVERSE is fresh-302's, IMPORTED from tools/gpu_fresh302_draw.py unchanged: SETTINGS (S01-S12, their classes'
model, flags, booking and EXPECT), EVENTS (E1-E3), MODEL (the two cut folders and their U), the base flags and
make_case() (the base command, a drawn flag replacing the base's, the steps). Its docstring holds the sources (vLLM
0.26.0's own source from the kit's wheel) and the earlier GPU makers it checked; fresh-348's docstring adds
config/compilation.py's seqs-vs-Mamba-blocks check. Read here besides: tools/gpu_fresh348_draw.py (its schedule
figures and SCHED bookings, reused), tools/gpu-fresh302-cases.json and tools/gpu-fresh348-cases.json (the pairs drawn),
the manifest HEADERS of fresh-302, fresh-348 and fresh-367 (what ran, how long: qwen3.5 cut ready in 186-248 s when
5-9 start together, 144-172 s with 2-3, 66 s alone; llama cut 86-138 s; parser refusals 18-31 s; fresh-348's e06,
S01 0.13 profiled alone, run late in fresh-367: 'No available memory for the cache blocks' in 126 s),
tools/gpu_serve_requests.py (the start rule, need / timeout, done markers), tools/gpu_fresh151_go.sh. Not read:
doctor, its knowledge, its tests, any earlier batch's logs.
EARLIER GPU MAKERS: fresh-302 (round 1) and fresh-348 (round 2) of this universe: their 24 drawn (setting, class) pairs
and their 6 event pairs are SKIPPED; those their docstrings list (fresh-13 .. fresh-292, fresh-339).

WHAT IS LEFT (fixed before the draw):
  SKIPPED, drawn by fresh-302: S01 0.95, S02 valid, S03 auto, S04 256, S05 256, S06 valid, S07 0, S08 eager, S09 40,
    S10 kv-offloading-8, S11 16, S12 0.04-4G; by fresh-348: S01 0.13, S02 1m, S03 524288, S04 1, S05 131072, S06
    fp8_e5m2, S07 2g, S08 max-capture-1024, S09 valid, S10 kv-offloading-8-llama, S11 64, S12 1.0-2G. EVENTS: all six
    pairs were drawn (fresh-302 E1 8GiB, E2 262145, E2 96299, E3 64x4096, E3 8x65536; fresh-348 E1 12GiB-util-0.9), so
    by fresh-348's rule no event pair is left: NO case here carries an event (each gets the base's one POST).
  EXCLUDED, needs the card alone (the brief: none such): S01 valid and S01 0.10 (profiled, no KV budget, booked 0.95).
  THE POOL (18 pairs): S02 auto / -1 / 262145 / 168340; S03 400000; S04 valid; S05 valid; S06 turboquant_k8v4 / nvfp4
    / int8_per_token_head; S07 valid / 1.5G; S08 O0 / sizes-1-64; S09 6; S10 swap-space-16; S11 2048; S12 valid.
    By model and cost: 13 qwen3.5 starts (booked 0.17), 2 llama starts (S07 valid 0.14, S12 valid 0.13), 3 parser
    refusals (S02 262145, S07 1.5G, S10 swap-space-16; booked 0.05 as fresh-348's "parse").

THE DRAW (fixed before seed 2371 was drawn): r = random.Random(2371); pool = the 18 pairs sorted; r.shuffle(pool);
walk the shuffled pool in order and TAKE a pair if the pairs taken so far plus it still FIT, else PASS it over
(recorded in the cases file's "passed_over"); stop at 12 taken. The "valid" classes are pairs like the others (4 of
18): the pool has no per-setting "u < 1/6" step because four settings have only "valid" left. Nothing is redrawn.
FIT (the brief's bound: two waves of at most 8 side by side within 0.95, total engine time <= 420 s): with the
cases in "order" (below), (a) the order splits into a prefix (wave 1) and the rest (wave 2), each at most 8 cases
and at most 0.95 booked; and (b) the driver's start rule simulated with fresh-348's measured figures (qwen3.5 ready
in 200 s side by side, llama 100 s, parser refusals 30 s, + 8 s for the POST; 1 s between starts) ends by 420 s.
In effect: at most 9-10 qwen3.5 starts, and no llama beside five qwen3.5 (0.85 + 0.13 > 0.95).
--rule-check, run before this commit over 300 OTHER seeds (2049..2349 without 2348), printed: see RULE CHECK below.

SCHEDULE (fresh-348's, reused): the cases' args, env, steps are fresh-302's make_case() output unchanged; "parse"
classes (refused by the parser or the engine config in the API server before an engine core touches the GPU: S02
262145 by _get_and_verify_max_len, S07 1.5G by human_readable_int, S10 swap-space-16: no such option in 0.26) are
booked 0.05, timeout 75, need 25; every other case keeps fresh-302's booking (its U: 0.17 qwen3.5, 0.14 / 0.13 llama),
timeout 300, need 180 for qwen3.5 and 110 for llama (fresh-348's 200 would skip a wave-2 qwen3.5 whose wave 1 runs
past LEFT - 200 = ~220 s; 180 lets it start up to ~240 s and still leaves it its side-by-side ready time).
"order" = the parse cases (draw order), then the qwen3.5 starts (draw order), then the llama starts (draw order):
the quick refusals run while wave 1 loads, the long starts first, the ~100 s llama starts last (they fit beside four
qwen3.5 of wave 2, not beside five).
MEMORY BOUND BY CONSTRUCTION: every started case has a fixed KV budget (the profile is skipped; neighbours cannot
move its pool), the driver keeps the running bookings within 0.95 (at most 8 at once), the parse bookings of 0.05
hold at most a CUDA context (~0.6 GiB) before they exit; no profiled case, no co-tenant.

RULE CHECK (--rule-check, run before this commit, before seed 2371 was drawn, over 300 OTHER seeds): '300 seeds:
pairs passed over per draw 2.07; draws with a pass-over 0.56; mean simulated end 420 s; mean qwen3.5 starts 8.11'
(qwen3.5 starts per draw: 7 in 62, 8 in 145, 9 in 90, 10 in 3; every simulated end 420 s: the two waves of qwen3.5
starts, ~208 s each, set it whatever the mix). So the bound passes over about two pairs in half the draws (a
fifth or sixth qwen3.5 start in wave 2, or a llama that would have to sit beside five qwen3.5): the price of
fitting one call; the pairs passed over are recorded, not hidden.
THE DRAW GAVE (printed once by --draw-only after the tool was committed in 8d8d1c74, before the cases file was
written; only this paragraph changed after it): no pair passed over; 12 pairs: 8 qwen3.5 starts, 2 llama starts,
2 parser / config refusals; three "valid" classes (e03 S12, e04 S07, e09 S05), left as drawn; S02 three
times (262145, auto, 168340), S06 twice (turboquant_k8v4, nvfp4), S08 twice (sizes-1-64, O0). "order": e06 e07 (parse)
e01 e02 e05 e08 e09 (wave 1: 2 x 0.05 + 5 x 0.17 = 0.95) e10 e11 e12 e03 e04 (wave 2: 3 x 0.17 + 0.13 + 0.14 = 0.78).
Simulated (fresh-348's figures): wave 2 starts at ~210 s as wave 1's qwen3.5 end, everything ends by 420 s; nothing
skipped at LEFT 420. If e08 is refused early (expected below), e10 starts then (~60 s) and the end comes earlier.
EXPECTED for the drawn twelve (each case's "expect" is its class's EXPECT from fresh-302; refined here from vLLM
0.26.0's source (the kit's wheel unzipped into /tmp/gpu371: platforms/cuda.py get_attn_backend_cls,
v1/attention/backends/{flashinfer,triton_attn,turboquant_attn}.py, engine/arg_utils.py's TurboQuant set-up,
model_executor/layers/quantization/turboquant/config.py, config/vllm.py OPTIMIZATION_LEVEL_00), before anything ran):
  e01 S03 --max-model-len 400000 with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (2 GiB): healthy with the long-length WARNING
      (over the 262144 positions, allowed by the variable); 400000 x 4 KiB = 1.53 GiB + GDN states fits; the POST 200;
  e02 S08 --cudagraph-capture-sizes 1 2 4 8 16 32 64: healthy, 7 sizes captured; the POST 200;
  e03 S12 utilization 0.13 with a 2G budget on llama at 131072: healthy, exactly one 131072 request ('Maximum
      concurrency ... 1.00x'), the info line that kv_cache_memory_bytes does not respect the utilization; the POST 200;
  e04 S07 --kv-cache-memory-bytes 4G on llama at 131072: healthy, 2.00x; the POST 200;
  e05 S06 --kv-cache-dtype turboquant_k8v4 at 262144 in 1G: unknown, leaning healthy: the WARNING 'TurboQuant is not
      yet compatible with FlashAttention >= 3. Overriding flash_attn_version to 2', 'TQ hybrid: full-attention layers
      [3]' (no boundary layers skipped on a hybrid), the TURBOQUANT backend (the only one listing turboquant_*), a
      smaller page than bf16 so 262144 fits 1 GiB; or a failure in the TurboQuant path on SM90 with the hybrid's
      aligned attention block (at KV-cache set-up or the first forward);
  e06 S02 --max-model-len 262145: REFUSED at config time in the API server: 'User-specified max_model_len (262145) is
      greater than the derived max_model_len ...' naming VLLM_ALLOW_LONG_MAX_MODEL_LEN; exit 1 in ~20-30 s;
  e07 S10 --swap-space 16: REFUSED by the parser: 'unrecognized arguments: --swap-space 16' (0.26 has no such option),
      exit 2 in ~20 s;
  e08 S06 --kv-cache-dtype nvfp4 at 262144 in 1G: REFUSED in the engine core while the model's attention layers are
      built: only FlashInfer lists nvfp4 among the SM90 non-MLA backends, and the kit has no flashinfer package
      (fresh-367 e09), so: ValueError 'No valid attention backend found for cuda with ... Reasons: {FLASH_ATTN:
      [kv_cache_dtype not supported], FLASHINFER: [ImportError], TRITON_ATTN: [kv_cache_dtype not supported], ...}';
      (with flashinfer present it would still refuse: '--kv-cache-dtype nvfp4 requires the SM100 trtllm-gen
      FlashInfer path.'); 'Engine core initialization failed', exit 1 in ~40-90 s;
  e09 S05 --max-num-batched-tokens 8192 at 131072: healthy; the POST 200;
  e10 S08 -O0: healthy: no torch.compile (CompilationMode.NONE), cudagraph_mode NONE, a quicker start; the POST 200;
  e11 S02 --max-model-len auto: healthy: 'Auto-fit max_model_len: full model context length 262144 fits' (1 GiB + GDN
      states in 2 GiB); the POST 200;
  e12 S02 --max-model-len 168340 (the deployment's length): healthy; the POST 200.
So: 3 refusals expected (e06 at config time, e07 in the parser, e08 in the engine core), 8 healthy (e01-e04, e09-e12),
1 unknown (e05).
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh302_draw as f302  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402
from gpu_fresh302_draw import SETTINGS  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh371-cases.json")
MADE = [os.path.join(HERE, f"gpu-fresh{n}-cases.json") for n in (302, 348)]
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2371
N = 12
PARSE = {("S02", "262145"), ("S02", "1m"), ("S07", "1.5G"), ("S10", "swap-space-16")}
SCHED = {"parse": (0.05, 75, 25)}  # cost -> (mem, timeout, need)
NEED = {"qwen35": 180, "llama": 110}
END_MAX, CAP, PAR = 420, 0.95, 8
DUR = {"qwen35": 200, "llama": 100, "parse": 30}  # fresh-348's schedule figures (s), + 8 s for the POST
RANK = {"parse": 0, "qwen35": 1, "llama": 2}


def made():
    pairs = set()
    for path in MADE:
        with open(path) as f:
            for c in json.load(f)["cases"].values():
                pairs.add((c["setting"], c["class"]))
    return pairs


def pool():
    kept = made()
    return sorted(
        (name, cls)
        for name in SETTINGS
        for cls, spec in SETTINGS[name].items()
        if (name, cls) not in kept and spec[2] != f302.ALONE
    )


def case_of(i, name, cls):
    c = f302.make_case(i, name, cls, 0.0, 1.0, None)
    if (name[:3], cls) in PARSE:
        c["cost"] = "parse"
        c["mem"], c["timeout"], c["need"] = SCHED["parse"]
    else:
        c["need"] = NEED[c["model_key"]]
    c["draw"] = f"fresh-371 draw {i}: {name}: {cls}; event: none (no event pair left)"
    return c


def kind(c):
    return "parse" if c["cost"] == "parse" else c["model_key"]


def order_of(cases):
    return sorted(cases, key=lambda k: (RANK[kind(cases[k])], k))


def two_waves(cases, order):
    for cut in range(len(order) + 1):
        w1, w2 = order[:cut], order[cut:]
        if all(len(w) <= PAR and sum(cases[k]["mem"] for k in w) <= CAP + 1e-9 for w in (w1, w2)):
            return True
    return False


def simulate(cases, order, total=10_000):
    """The driver's start rule (in order, blocking; within CAP and PAR): returns (end, starts, skipped)."""
    running, clock, end, starts, skipped = [], 0.0, 0.0, [], []
    for k in order:
        c = cases[k]
        while True:
            running = [x for x in running if x[0] > clock]
            if not running or (len(running) < PAR and sum(m for _, m in running) + c["mem"] <= CAP + 1e-9):
                break
            clock = min(t for t, _ in running)
        if clock > total - c["need"]:
            skipped.append(k)
            continue
        d = DUR[kind(c)] + (0 if kind(c) == "parse" else 8)
        running.append((clock + d, c["mem"]))
        starts.append(f"{k}@{clock:.0f}")
        end = max(end, clock + d)
        clock += 1
    return round(end), starts, skipped


def fits(pairs):
    cases = {f"e{i:02d}": case_of(i, *p) for i, p in enumerate(pairs, 1)}
    order = order_of(cases)
    return two_waves(cases, order) and simulate(cases, order)[0] <= END_MAX


def draw_pairs(seed=SEED):
    r = random.Random(seed)
    p = pool()
    r.shuffle(p)
    taken, passed = [], []
    for pair in p:
        if len(taken) == N:
            break
        (taken if fits(taken + [pair]) else passed).append(pair)
    return taken, passed


def draw(seed=SEED):
    taken, passed = draw_pairs(seed)
    cases = {f"e{i:02d}": case_of(i, *p) for i, p in enumerate(taken, 1)}
    order = order_of(cases)
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = ("fresh-371 doctor-corpus cases (tools/gpu_fresh371_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95, in two waves). "
           "Round 3 of fresh-302's universe (imported unchanged), the pairs fresh-302 and fresh-348 drew skipped, no "
           "alone case, no event (none left); drawn, not chosen: see the draw script's docstring. "
           "'models': python3 tools/gpu_fresh371_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "universe": len(SETTINGS) + len(f302.EVENTS), "pool": [list(p) for p in pool()],
            "skipped_pairs": sorted(map(list, made())), "passed_over": [list(p) for p in passed], "order": order,
            "models": models, "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:] == ["--rule-check"]:
    seeds = [s for s in range(2049, 2350) if s != 2348][:300]
    n_passed, any_passed, ends, qwens = 0, 0, 0, 0
    for s in seeds:
        out = draw(s)
        n_passed += len(out["passed_over"])
        any_passed += bool(out["passed_over"])
        ends += simulate(out["cases"], out["order"])[0]
        qwens += sum(kind(c) == "qwen35" for c in out["cases"].values())
    k = len(seeds)
    print(f"{k} seeds: pairs passed over per draw {n_passed / k:.2f}; draws with a pass-over {any_passed / k:.2f}; "
          f"mean simulated end {ends / k:.0f} s; mean qwen3.5 starts {qwens / k:.2f}")  # fmt: skip
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    cs = out["cases"]
    for k in out["order"]:
        c = cs[k]
        print(k, c["draw"], "|", c["cost"], "|", " ".join(c["args"][1:]), c["env"] or "", "mem", c["mem"],
              "need", c["need"])  # fmt: skip
    print("passed over:", out["passed_over"])
    end, starts, skipped = simulate(cs, out["order"])
    print("simulated end", end, "starts", " ".join(starts), "skipped", skipped)
    print("at LEFT 420:", simulate(cs, out["order"], 420)[::2])
    print("order:", " ".join(out["order"]))
