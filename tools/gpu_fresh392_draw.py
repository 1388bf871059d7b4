"""Draw the fresh-392 GPU cases: THE DEPLOYMENT'S KIND OF MODEL ON THE GPU, ROUND 4 -- hybrid (Gated DeltaNet, Mamba2,
Mamba1), MoE and multimodal checkpoints CUT to a few layers, started with ONE serve setting users pick for such models:
a re-draw over fresh-292's universe (tools/gpu_fresh292_draw.py RULES U01-U16, MODEL, build_args, imported unchanged)
as fresh-378 (round 3) did, with a new seed, every (condition, class) pair fresh-292, fresh-349 or fresh-378 DREW
skipped as already made, and a walk that ends short of 12 FILLED from NEW classes U17-U19 written here from vLLM
0.26.0's source before the draw. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy
weights, no tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh392_draw.py                  writes tools/gpu-fresh392-cases.json and prints the draw
       python3 tools/gpu_fresh392_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh392_draw.py --rule-check     the pick rule run over 300 OTHER seeds (run before seed
                                                           2392 was drawn)
       python3 tools/gpu_fresh392_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (the published configs, cut as fresh-292 cut them)
Run (ONE device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh392-cases.json LEFT 8 0.95
       <the file's "order">

THE UNIVERSE is fresh-292's, IMPORTED from tools/gpu_fresh292_draw.py unchanged (16 conditions U01-U16, 54 classes,
MODEL: the 8 cut checkpoints, their U and base flags; build_args; mem_of; the one step: POST /v1/completions, 50 token
ids, max_tokens 16), with fresh-349's FIT rule imported unchanged (HYBRID, FIT, MAX_NUM_SEQS_COND: every hybrid case
whose condition is not U10 carries --max-num-seqs 64; "fit" says whether it got it), MoE cases with
VLLM_USE_DEEP_GEMM=0, and fresh-378's cost classes, FIT bound, two-wave check and schedule simulation (copied).
SOURCES READ for this draw: tools/gpu_fresh292_draw.py, tools/gpu_fresh349_draw.py, tools/gpu_fresh378_draw.py (the
round re-drawn), tools/gpu-fresh292/349/378-cases.json (the pairs drawn), tools/gpu_draw_models.py; vLLM 0.26.0's own
source from the kit's wheel (unzipped into /tmp/gpu391): config/parallel.py (ParallelConfig.__post_init__: EPLB needs
enable_expert_parallel and TP / PCP / DP > 1; num_redundant_experts without EPLB), config/kernel.py (MoEBackend
choices), model_executor/layers/fused_moe/oracle/unquantized.py (map_unquantized_backend: triton, flashinfer_trtllm,
flashinfer_cutlass, aiter only; _return_or_raise), oracle/mxfp4.py (map_mxfp4_backend: marlin, triton (triton_kernels),
...), engine/arg_utils.py (--enable-eplb, --eplb-config, --moe-backend). Not read: doctor, its knowledge, its tests,
any earlier batch's logs.
EARLIER GPU MAKERS: fresh-292 (round 1), fresh-349 (round 2, its e08-e12 made as fresh-367), fresh-378 (round 3): their
36 drawn pairs are SKIPPED (read from their cases files, asserted to be 36); the makers fresh-292's docstring lists
were avoided by the universe already. For the NEW classes: no GPU batch's cases file holds the same command (asserted
at import); fresh-99's tool names --enable-eplb / --eplb-config / --moe-backend among flags, no fresh-99 case ran them;
EPLB and --moe-backend were made on the CPU engine by CPU makers (fresh-100, 243, 278; tools' names only).

WHAT IS LEFT (fixed before the draw): THE POOL: the 18 pairs no round drew: U02 valid, U03 fp8_e5m2, U03 valid, U04
qwen35, U06 100, U07 flashinfer, U07 omitted, U08 jamba, U09 valid, U10 1024, U11 cpu, U12 llama4-10485761, U12
qnext-262145, U13 mtp-2, U13 mtp-no-tokens, U13 qwen3_next_mtp-1, U14 valid, U15 qnext (8 qwen3.5 starts of ~248 s,
4 refusals, 6 other starts). 18 >= 12, but two waves of qwen3.5 / qwen3-next starts do not fit 450 s: the plain walk
ended short of 12 in ALL of 300 other seeds (9-11 taken in most). So, decided before the draw, a short walk is FILLED
from the NEW pool below (the same generator, the same FIT), each NEW pair asserted new to the universe (its condition
id U17-U19 is none of U01-U16) and its command new to every GPU cases file.
NEW CLASSES (CONDITIONS U17-U19, value classes, EXPECT per class in NEW below, written from 0.26.0's source before the
draw and before anything ran; on the cheapest MoE cuts, mixtral 2 layers (U 0.12) and gpt-oss 4 layers (U 0.10)):
  U17 --enable-eplb / --eplb-config at TP 1: mixtral-no-ep (parse: EPLB without expert parallel), mixtral-ep (parse:
      EPLB needs TP / PCP / DP > 1), gptoss-redundant (parse: num_redundant_experts 2 without EPLB);
  U18 --moe-backend on the bf16 mixtral cut: triton (start, healthy), cutlass (start; the engine core refuses it for
      unquantized MoE), flashinfer_cutlass (start; FlashInfer not in the kit);
  U19 --moe-backend on gpt-oss (MXFP4 experts): marlin (start, likely healthy), triton (start, unknown: triton_kernels).
COST CLASSES (fresh-378's): "parse" (refused by the parser or while the API server builds its config: U01 / U13
mtp-no-tokens, U01 eagle-no-model, U06 100, U07 auto, U12 qnext-262145, U12 llama4-10485761, and NEW U17's three):
booked 0.05, timeout 90, need 30, DUR 40; every other class: booked its model's U (+ class extra), timeout 320, need =
DUR, DUR by model: qwen35 240, qnext 260 (280 with MTP), nemo 210, jamba 210, llama4 180, qvl 180, gptoss 150, mixtral
150; + 8 s for the POST.
THE DRAW (fixed before seed 2392 was drawn): r = random.Random(2392); pool = the 18 pairs sorted; r.shuffle(pool); walk
it in order and TAKE a pair if the pairs taken so far plus it still FIT, else PASS it over (recorded in "passed_over");
stop at 12 taken. If fewer than 12 are taken: new = the 8 NEW pairs sorted; r.shuffle(new) (the same r); walk it the
same way. Cases e01.. in the order taken. Nothing is redrawn; a draw still short is kept short, said so.
FIT (the brief's bound): with the cases in "order" ("parse" first, then the starts by DUR, longest first, each in draw
order), (a) the order splits into two waves, each at most 8 cases and at most 0.95 booked; (b) the driver's start rule
simulated with the DUR figures (1 s between starts) ends by 450 s.
MEMORY BOUND BY CONSTRUCTION: every started case has the fixed 2 GiB KV budget (no profile grows it; neighbours cannot
move it), the driver keeps the running bookings within 0.95 (at most 8 at once), a "parse" booking of 0.05 holds at
most a CUDA context before it exits; no co-tenant. --max-num-seqs 64 only lowers what a hybrid case asks; a
--moe-backend choice does not change the weights' size.
RULE CHECK (--rule-check, run before this commit, before seed 2392 was drawn, over 300 OTHER seeds): '300 seeds: pairs
passed over per draw 8.64; mean simulated end 441 s; NEW classes taken per draw 2.33; draws short of 12: 3'.
THE DRAW GAVE (printed once by --draw-only after the tool was committed in 65de777c, before the cases file was written;
only this paragraph and EXPECTED were added after it): 10 pairs passed over by FIT (9 old: U03 fp8_e5m2, U13
qwen3_next_mtp-1, U02 valid, U09 valid, U07 flashinfer, U04 qwen35, U07 omitted, U13 mtp-no-tokens, U10 1024, and
NEW U17 gptoss-redundant: each would have broken the two-wave split or the simulated 450 s given the pairs already
taken); the old walk took 9, so the NEW pool filled THREE, all of U18 (the shuffle's first three that fit):
e10 U18 flashinfer_cutlass, e11 U18 triton, e12 U18 cutlass (left as drawn: one NEW condition three times). 12 taken:
3 refusals booked "parse" (e03 U12 llama4-10485761, e06 U12 qnext-262145, e07 U06 100), 9 starts: qwen3-next e04 (U13
mtp-2) and e01 (U15 qnext EP), qwen3.5 e02 (U03 valid), nemotron-h e05 (U11 cpu), jamba e08 (U08 jamba), qwen2.5-vl e09
(U14 valid), mixtral e10 e11 e12 (NEW U18). "order": e03 e06 e07 e04 e01 e02 e05 (wave 1: 3 x 0.05 + 0.28 + 0.24 + 0.17
+ 0.10 = 0.94) e08 e09 e10 e11 e12 (wave 2: 0.24 + 0.12 x 4 = 0.72); bookings 1.66 in all. Simulated (the DUR figures):
wave 2 from ~224 s (e08) as the nemotron-h and qwen3.5 cases answer, e12 at ~291 s; end 449 s; nothing skipped at LEFT
490 (e08 needs 210: keep TOTAL 545; with LEFT below ~440 e08 may be skipped). e05 is booked as a nemotron-h start but
is likely refused in seconds (below), which only frees memory earlier.
EXPECTED for the drawn twelve, before anything ran (each case's "expect_class" is its class's EXPECT; refined here from
vLLM 0.26.0's source in /tmp/gpu391 and the fresh-378 header's account of its round on the device):
  e01 U15 qwen3-next cut --enable-expert-parallel at TP 1 (+ --max-num-seqs 64): healthy: one EP rank holds all 512
      experts of each layer; ready ~260 s; 200;
  e02 U03 qwen3.5 --kv-cache-dtype auto (valid, + 64): healthy (as fresh-378's qwen3.5 valid controls), 200;
  e03 U12 llama-4 cut --max-model-len 10485761: REFUSED at config time in the API server: 'User-specified
      max_model_len (10485761) is greater than the derived max_model_len (max_position_embeddings=10485760 ...)',
      naming VLLM_ALLOW_LONG_MAX_MODEL_LEN, exit 1 (fresh-378's e05 showed 10485760 itself is taken);
  e04 U13 qwen3-next {"method": "mtp", "num_speculative_tokens": 2} (+ 64): healthy: n_predict read from
      num_nextn_predict_layers, absent on qwen3-next -> None, no divisibility check; the one MTP layer runs twice (the
      WARNING about running the MTP layer more than once, if 0.26 logs it); ready ~280 s; 200;
  e05 U11 nemotron-h --mamba-backend cpu (+ 64): REFUSED before any engine core: MambaBackendEnum has only TRITON and
      FLASHINFER: the parser's invalid choice ('argument --mamba-backend: invalid choice: 'cpu'', exit 2) if the enum
      becomes choices, else the config validator's 'Unknown Mamba SSU backend: 'CPU'. Valid options are: TRITON,
      FLASHINFER', exit 1;
  e06 U12 qwen3-next cut --max-model-len 262145 (+ 64): REFUSED at config time: 'User-specified max_model_len (262145)
      is greater than the derived max_model_len (max_position_embeddings=262144 ...)', exit 1;
  e07 U06 nemotron-h --mamba-block-size 100 (+ 64, prefix caching off by default in 0.26): REFUSED at config time
      (config/vllm.py): '--mamba-block-size can only be set with --enable-prefix-caching', exit 1 (fresh-292's e09 the
      same for 256);
  e08 U08 jamba cut --no-enable-chunked-prefill (+ 64): healthy with the WARNING 'This model does not officially
      support disabling chunked prefill. ...' (fresh-378's e02 on nemotron-h), 200; unknown only for Mamba1 on SM90;
  e09 U14 qwen2.5-vl --limit-mm-per-prompt {"image": 0, "video": 0} (valid): likely healthy: every modality limited to
      0, so no multimodal processor is built (text only) and the POST 200; else refused as fresh-378's e10 while AsyncLLM
      builds its input processor (no preprocessor_config.json / no tokenizer), exit 1;
  e10 U18 (NEW) mixtral cut --moe-backend flashinfer_cutlass: FAILS in the engine core when the MoE layer picks its
      kernel: FlashInfer is not in the kit, the kernel class reports the config unsupported: 'Unquantized MoE backend
      flashinfer_cutlass does not support the deployment configuration since ...' (or without 'since'), ValueError ->
      'Engine core initialization failed', exit 1 (or an ImportError of flashinfer at the same place);
  e11 U18 (NEW) mixtral cut --moe-backend triton: healthy, 'Using triton Unquantized MoE backend ...', 200;
  e12 U18 (NEW) mixtral cut --moe-backend cutlass: FAILS in the engine core: "moe_backend='cutlass' is not supported
      for unquantized MoE. Expected one of ['triton', 'flashinfer_trtllm', 'flashinfer_cutlass', 'aiter']." ValueError
      -> 'Engine core initialization failed', exit 1.
So: 4 refusals before an engine core (e03, e05, e06, e07), 2 engine-core failures at start (e10, e12), 6 healthy (e01,
e02, e04, e08, e09, e11; e02 and e09 valid controls; e09 and e08 least sure).
THE GO CALL: TOTAL 545 leaves LEFT ~490-520 s after the kit's set-up: the simulated end (449 s) fits, tightly.
"""

import glob
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh292_draw as U  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402
from gpu_fresh349_draw import FIT, HYBRID, MAX_NUM_SEQS_COND  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh392-cases.json")
MADE = [os.path.join(HERE, f"gpu-fresh{n}-cases.json") for n in (292, 349, 378)]
SEED = 2392
N = 12
MODEL = U.MODEL

# NEW classes (written here from vLLM 0.26.0's source before the draw; used only to fill a walk that ends short):
# condition -> class -> (model key, flags, extra mem, EXPECT), as U.RULES
NEW = {
    "U17 --enable-eplb / --eplb-config on a MoE at TP 1 (expert load balancing switched on by hand)": {
        "mixtral-no-ep": ("mixtral", ["--enable-eplb"], 0.0,
                          "refused at config time (ParallelConfig, in the API server): 'enable_expert_parallel must "
                          "be True to use EPLB.'"),
        "mixtral-ep": ("mixtral", ["--enable-expert-parallel", "--enable-eplb"], 0.0,
                       "refused at config time: 'EPLB requires tensor, prefill-context, or data parallelism, but got "
                       "TP=1, PCP=1, DP=1.'"),
        "gptoss-redundant": ("gptoss", ["--eplb-config", json.dumps({"num_redundant_experts": 2})], 0.0,
                             "refused at config time: 'num_redundant_experts is set to 2 but EPLB is not enabled. "
                             "Either enable EPLB or unset num_redundant_experts.'"),
    },
    "U18 --moe-backend on a bf16 MoE (the mixtral cut, unquantized experts, TP 1)": {
        "triton": ("mixtral", ["--moe-backend", "triton"], 0.0, "healthy: the Triton fused MoE (the default's pick)"),
        "cutlass": ("mixtral", ["--moe-backend", "cutlass"], 0.0,
                    "the engine core fails building the MoE layer (map_unquantized_backend): \"moe_backend='cutlass' "
                    "is not supported for unquantized MoE. Expected one of ['triton', 'flashinfer_trtllm', "
                    "'flashinfer_cutlass', 'aiter'].\" -> 'Engine core initialization failed', exit 1"),
        "flashinfer_cutlass": ("mixtral", ["--moe-backend", "flashinfer_cutlass"], 0.0,
                               "the engine core fails: FlashInfer is not in the kit: the backend's kernel reports the "
                               "config unsupported (\"Unquantized MoE backend 'flashinfer_cutlass' does not support "
                               "...\" / ValueError) or an ImportError of flashinfer; exit 1"),
    },
    "U19 --moe-backend on gpt-oss (mxfp4 experts, the cut, TP 1)": {
        "marlin": ("gptoss", ["--moe-backend", "marlin"], 0.0,
                   "likely healthy: Marlin's MXFP4 MoE runs on SM90; 200"),
        "triton": ("gptoss", ["--moe-backend", "triton"], 0.0,
                   "unknown: the Triton MXFP4 MoE (gpt_oss_triton_kernels_moe) needs the triton_kernels package: "
                   "healthy (200) if the kit's vLLM wheel vendors it, else the engine core refuses the backend "
                   "(\"... does not support the deployment configuration\" or an import error), exit 1"),
    },
}  # fmt: skip
RULES = {**U.RULES, **NEW}
PARSE = {("U01", "mtp-no-tokens"), ("U13", "mtp-no-tokens"), ("U01", "eagle-no-model"), ("U06", "100"),
         ("U07", "auto"), ("U12", "qnext-262145"), ("U12", "llama4-10485761"),
         ("U17", "mixtral-no-ep"), ("U17", "mixtral-ep"), ("U17", "gptoss-redundant")}  # fmt: skip
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
    assert len(pairs) == 36 and all(n in U.RULES and c in U.RULES[n] for n, c in pairs), pairs
    return pairs


SKIP = made()
assert not set(NEW) & set(U.RULES) and not {n[:3] for n in NEW} & {
    n[:3] for n in U.RULES
}  # NEW pairs are new
assert all(any(k.startswith(n) and c in RULES[k] for k in RULES) for n, c in PARSE)
assert MAX_NUM_SEQS_COND in RULES


def pool():
    return sorted((n, c) for n in U.RULES for c in U.RULES[n] if (n, c) not in SKIP)


def new_pool():
    return sorted((n, c) for n in NEW for c in NEW[n])


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
            "cost": kind, "condition": name, "class": cls, "new_class": name in NEW, "model_key": key,
            "fixture": fixture, "config_edit": cut, "fit": FIT if fit else None, "expect_class": expect,
            "draw": f"fresh-392 draw {i}: {name}: {cls}"}  # fmt: skip


def earlier_args():
    out = set()
    for path in glob.glob(os.path.join(HERE, "gpu-fresh*-cases.json")):
        if path != OUT_JSON:
            with open(path) as f:
                for c in json.load(f).get("cases", {}).values():
                    if "args" in c:
                        out.add(json.dumps(c["args"]))
    return out


EARLIER = earlier_args()
for _n, _c in new_pool():  # every NEW pair's command is one no earlier GPU batch ran
    assert json.dumps(case_of(0, _n, _c)["args"]) not in EARLIER, (_n, _c)


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
    """Walk the shuffled old pool under FIT; if it ends short of N, walk the shuffled NEW pool (same generator)."""
    r = random.Random(seed)
    taken, passed = [], []
    for p in (pool(), new_pool()):
        r.shuffle(p)
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
    why = ("fresh-392 doctor-corpus cases (tools/gpu_fresh392_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95, in two waves). "
           "Round 4 of fresh-292's universe (imported unchanged, fresh-349's FIT rule), the pairs fresh-292, fresh-349 "
           "and fresh-378 drew skipped, a short walk filled from NEW classes U17-U19; drawn, not chosen: see the draw "
           "script's docstring. 'models': python3 tools/gpu_fresh392_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "universe": sum(len(v) for v in U.RULES.values()),
            "new_classes": sum(len(v) for v in NEW.values()), "pool": [list(p) for p in pool()],
            "new_pool": [list(p) for p in new_pool()], "skipped_pairs": sorted(map(list, SKIP)),
            "passed_over": [list(p) for p in passed], "order": order, "models": models, "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], U.FIXTURES)
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:] == ["--rule-check"]:
    seeds = [s for s in range(2049, 2360) if s not in (2292, 2349, 2378, 2392)][:300]
    n_passed, ends, short, filled = 0, 0, 0, 0
    for s in seeds:
        out = draw(s)
        n_passed += len(out["passed_over"])
        ends += simulate(out["cases"], out["order"])[0]
        short += len(out["cases"]) < N
        filled += sum(c["new_class"] for c in out["cases"].values())
    k = len(seeds)
    print(f"{k} seeds: pairs passed over per draw {n_passed / k:.2f}; mean simulated end {ends / k:.0f} s; "
          f"NEW classes taken per draw {filled / k:.2f}; draws short of {N}: {short}")  # fmt: skip
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    cs = out["cases"]
    print(
        len(out["pool"]),
        "pairs in the pool;",
        len(out["new_pool"]),
        "NEW;",
        len(out["skipped_pairs"]),
        "skipped",
    )
    for k in out["order"]:
        c = cs[k]
        print(k, c["draw"], "|", c["cost"], "| new" if c["new_class"] else "|", " ".join(c["args"][1:]),
              c["env"] or "", "mem", c["mem"], "need", c["need"])  # fmt: skip
    print("passed over:", out["passed_over"])
    end, starts, skipped = simulate(cs, out["order"])
    print("simulated end", end, "starts", " ".join(starts), "skipped", skipped)
    print("at LEFT 490:", simulate(cs, out["order"], 490)[::2])
    print("mem in all", round(sum(c["mem"] for c in cs.values()), 2), "; order:", " ".join(out["order"]))
