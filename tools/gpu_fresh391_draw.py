"""Draw the fresh-391 GPU cases: SPECULATIVE DECODING AND MTP ON THE GPU, ROUND 3 -- a re-draw over fresh-339's universe
(tools/gpu_fresh339_draw.py RULES S01-S14, FOLDERS, the base, the steps, imported unchanged) as fresh-377 (round 2) did,
with a new seed, every (condition, class) pair fresh-339 or fresh-377 DREW skipped as already made, and a walk that
ends short of 12 FILLED from NEW classes S15-S17 written here from vLLM 0.26.0's source before the draw. Real vLLM
0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, --skip-tokenizer-init, token-id
prompts. Sampled, not chosen.

Usage: python3 tools/gpu_fresh391_draw.py                  writes tools/gpu-fresh391-cases.json and prints the draw
       python3 tools/gpu_fresh391_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh391_draw.py --rule-check     the pick rule run over 300 OTHER seeds (run before seed
                                                           2391 was drawn)
       python3 tools/gpu_fresh391_draw.py --models DIR     writes DIR/<name>/config.json for every folder the cases
                                                           name (targets and draft / EAGLE folders; config.json only)
Run (ONE device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh391-cases.json LEFT 8 0.95
       <the file's "order">

THE UNIVERSE is fresh-339's, IMPORTED from tools/gpu_fresh339_draw.py unchanged (14 conditions S01-S14, 40 classes,
each class's target folder, flags, booking, EXPECT and steps written by gpu339 from vLLM 0.26.0's source before its
draw; its docstring holds the sources, the folders and the base), with fresh-377's ONE CHANGE TO THE BASE (every
qwen3.5 case carries --max-num-seqs 64 before the class's flags: fresh-339's e08 / e11 failed on 'max_num_seqs (1024)
exceeds available Mamba cache blocks'; each case's "fit" says whether it got it), and fresh-377's cost classes, FIT
rule, two-wave check and schedule simulation (copied here unchanged in shape).
SOURCES READ for this draw: tools/gpu_fresh339_draw.py, tools/gpu_fresh377_draw.py (the round re-drawn),
tools/gpu_fresh378_draw.py, tools/gpu-fresh339-cases.json and tools/gpu-fresh377-cases.json (the pairs drawn),
tools/gpu_draw_models.py; vLLM 0.26.0's own source from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-
manylinux_2_28_x86_64.whl unzipped into /tmp/gpu391): config/speculative.py (RejectionSampleMethod standard /
synthetic / block, DraftSampleMethod greedy / probabilistic, _resolve_synthetic_acceptance_rates, _verify_args,
use_heterogeneous_vocab, verify_equal_vocab_size_if_draft_model, parallel_drafting), v1/spec_decode/llm_base_proposer.py
(_init_parallel_drafting_params), config/vllm.py, engine/arg_utils.py. Not read: doctor, its knowledge, its tests, any
earlier batch's logs.
EARLIER GPU MAKERS: fresh-339 (round 1) and fresh-377 (round 2): their 24 drawn pairs are SKIPPED (read from their
cases files, asserted to be 24); the makers fresh-339's docstring lists (fresh-30, 39, 292, 327; CPU fresh-265) were
avoided by its universe already. For the NEW classes: no GPU batch's cases file (tools/gpu-fresh*-cases.json) holds the
same command (asserted at import); rejection_sample_method / synthetic rates / heterogeneous vocab / draft_sample_method
were made on the CPU engine by CPU makers (fresh-165, 174, 265; their tools' names only), never on the GPU.

WHAT IS LEFT (fixed before the draw): THE POOL: the 16 pairs of fresh-339's universe neither round drew: S01 null, S02
mtp-7, S03 fp8, S04 262144, S05 eagle-no-tokens, S06 disable-padded-3, S07 B512, S08 true, S09 min1-max8-6tok, S10
medusa-3, S11 mtp-qwen35-json, S12 8192, S13 draft_tp-1-mtp, S13 draft_tp-2, S14 method-mtp-tokens-2-qwen35, S14
method-ngram-tokens-3 (7 qwen3.5 starts, 5 llama starts, 4 refused in the API server's config). 16 >= 12, but under
the two-wave FIT bound at most ~4 qwen3.5 starts fit, so the walk alone ends short of 12 in about half the draws (the
rule-check of the plain walk over 300 other seeds: 159 short). So, decided before the draw, a short walk is FILLED
from the NEW pool below (the same generator, the same FIT), each NEW pair asserted new to the universe (its condition
id S15-S17 is none of S01-S14) and its command new to every GPU cases file.
NEW CLASSES (CONDITIONS S15-S17, value classes, EXPECT per class in NEW below, written from 0.26.0's source before the
draw and before anything ran; all on the 2-layer llama cut, the cheapest target; "parse" = refused while the API
server builds SpeculativeConfig, before an engine core is spawned):
  S15 synthetic rejection sampling with ngram 3: synthetic-neither (parse: neither rates nor length), synthetic-
      length-2.5 (llama start), rates-rising [0.5, 0.9, 0.2] (parse: not non-increasing), length-standard (parse:
      a length without rejection_sample_method synthetic);
  S16 the draft's vocabulary: vocab-32000 (parse: a 1-layer draft folder f391-llama-3.1-8b-instruct-draft-1l-
      vocab32000, vocab_size edited to 32000, vs the target's 128256), hetero-ngram (parse: use_heterogeneous_vocab
      with ngram);
  S17 drafting options with the 1-layer draft (draft_model 3): parallel-drafting (llama start; the proposer needs a
      pard_token the draft lacks), probabilistic (llama start), block (llama start), rejection-greedy (parse: not a
      RejectionSampleMethod).
COST CLASSES (fresh-377's; booking, timeout, need; DUR the schedule figure in s, + 10 s for the steps): "parse" 0.05,
90, 30, DUR 45; "qwen35" (booked its class's U 0.19 / 0.21) 340, 250, DUR 280; "llama" (0.09 / 0.13) 250, 140, DUR 150.
THE DRAW (fixed before seed 2391 was drawn): r = random.Random(2391); pool = the 16 pairs sorted; r.shuffle(pool); walk
it in order and TAKE a pair if the pairs taken so far plus it still FIT, else PASS it over (recorded in "passed_over");
stop at 12 taken. If fewer than 12 are taken: new = the 10 NEW pairs sorted; r.shuffle(new) (the same r); walk it the
same way. Cases e01.. in the order taken. Nothing is redrawn; a draw still short is kept short, said so.
FIT (the brief's bound: within two waves of at most 8 side by side within 0.95, total engine time <= 450 s): with the
cases in "order" ("parse" first, then qwen3.5, then llama, each in draw order), (a) the order splits into a prefix
(wave 1) and the rest (wave 2), each at most 8 cases and at most 0.95 booked; (b) the driver's start rule simulated
with the DUR figures (1 s between starts) ends by 450 s.
MEMORY BOUND BY CONSTRUCTION: every started case has the fixed 2 GiB KV budget (no profile can grow it; neighbours
cannot move it), the driver keeps the running bookings within 0.95 (at most 8 at once), a "parse" booking of 0.05 holds
at most a CUDA context before it exits; no co-tenant. The NEW vocab-32000 draft folder is 1 layer with a smaller
embedding: below the 0.13 booking of the other draft folder.
RULE CHECK (--rule-check, run before this commit, before seed 2391 was drawn, over 300 OTHER seeds): '300 seeds: pairs
passed over per draw 5.45; mean simulated end 370 s; mean qwen3.5 starts 3.57; NEW classes taken per draw 0.76; draws
short of 12: 14'.
THE DRAW GAVE (printed once by --draw-only after the tool was committed in 2f2c05b8, before the cases file was written;
only this paragraph and EXPECTED were added after it): 5 old pairs passed over by FIT (S14 method-mtp-tokens-2-qwen35,
S13 draft_tp-1-mtp, S02 mtp-7: a 5th qwen3.5 start does not fit; S07 B512, S08 true: llama starts past the two-wave
bound); the old walk took 11, so the NEW pool filled ONE: e12 S16 vocab-32000. 12 taken: 5 refused in the API server's
config ("parse": e06 S13 draft_tp-2, e09 S10 medusa-3, e10 S12 8192, e11 S05 eagle-no-tokens, e12 S16 vocab-32000
(NEW)), 4 qwen3.5 starts (e01 S01 null: the mtp_num_hidden_layers null copy, e03 S04 262144, e04 S11 mtp-qwen35-json,
e05 S03 fp8), 3 llama starts (e02 S06 disable-padded-3, e07 S09 min1-max8-6tok, e08 S14 method-ngram-tokens-3). "order":
e06 e09 e10 e11 e12 e01 e03 e04 e05 e02 e07 e08; bookings 1.32 in all. Simulated (the DUR figures): the 5 refusals and 3
qwen3.5 at 0-7 s (0.25 + 0.57 = 0.82), e05 and e02 at ~46-48 s once the refusals exit, e07 / e08 at ~208 s as the
first qwen3.5 answer; end 369 s; nothing skipped at LEFT 490. Models: f339-llama-3.1-8b-instruct-2l, its draft-1l,
eagle-1l, eagle3-1l folders, f339-qwen3.5-27b-4l, -mtpnull, and the NEW f391-llama-3.1-8b-instruct-draft-1l-vocab32000.
EXPECTED for the drawn twelve, before anything ran (each case's "expect_class" is its class's EXPECT; refined here from
vLLM 0.26.0's source in /tmp/gpu391 and the fresh-377 header's account of what its round did on the device):
  e01 S01 mtp 2 on the copy with text_config.mtp_num_hidden_layers null (+ --max-num-seqs 64): LIKELY FAILS in the
      engine core when the drafter is built: n_predict = None (read from text_config) so no divisibility check at config
      time; Qwen3_5MTP takes num_mtp_layers = getattr(config, "mtp_num_hidden_layers", 1) = None and builds
      range(None): "TypeError: 'NoneType' object cannot be interpreted as an integer" -> 'Engine core initialization
      failed', exit 1 (healthy only if transformers' config turns the null back into 1);
  e02 S06 EAGLE3 head 3 tokens with disable_padded_drafter_batch true on the 2-layer llama: FAILS in the engine core as
      fresh-377's e11 did: the WARNING that async scheduling is disabled with disable_padded_drafter_batch, 'Using
      Eagle3 auxiliary layers from model: (2, 1, -1)', then 'mat1 and mat2 shapes cannot be multiplied (...x8192 and
      12288x4096)' in the profiling dummy run, exit 1 (the drawn setting is not what kills it);
  e03 S04 mtp 1 with --max-model-len 262144 on qwen3.5 (+ --max-num-seqs 64): LIKELY REFUSED at KV-cache set-up in the
      engine core: one 262144-token request needs ~2 GiB of full-attention KV (1 full layer + the MTP layer, 4 KV heads
      x 256 x bf16) plus its GDN state pages, over the fixed 2 GiB budget: 'To serve at least one request with the
      models's max seq len (262144), (... GiB KV cache is needed, which is larger than the available KV cache memory
      (2.0 GiB). ... Try increasing `gpu_memory_utilization` or decreasing `max_model_len`', exit 1; healthy if the
      hybrid page arithmetic fits it exactly;
  e04 S11 mtp 2 on qwen3.5 with a structured (json schema) request between two plain ones: server healthy; the plain
      POSTs 200; the structured one 400 'Structured outputs requires a tokenizer so it can't be used with
      'skip_tokenizer_init'' (fresh-377's e01 on llama did exactly this) (expected none: a client's request refused);
  e05 S03 mtp 1 with --kv-cache-dtype fp8 (+ --max-num-seqs 64): likely healthy: FLASH_ATTN (FA3) takes fp8 KV on SM90,
      and fp8 (e4m3) passes the FP8 query-quantization assertion that killed fresh-377's fp8_e5m2 case; 200 / 200;
  e06 S13 draft_model 2 with draft_tensor_parallel_size 2 (target TP 1): REFUSED at config time:
      'speculative_draft_tensor_parallel_size=2 cannot be other value than 1 or target model tensor_parallel_size', exit 1;
  e07 S09 ngram 6 tokens, lookup 1..8: healthy, 200 / 200 (the repetitive prompt gets drafts);
  e08 S14 --spec-method ngram --spec-tokens 3: healthy (lookups 5/5 by default), 200 / 200;
  e09 S10 medusa 3 without a model: REFUSED at config time: 'num_speculative_tokens was provided but without
      speculative model.', exit 1;
  e10 S12 draft_model 2 with speculative max_model_len 8192 over --max-model-len 4096: REFUSED at config time:
      'speculative_max_model_len=8192 cannot be larger than target_max_model_len=4096', exit 1;
  e11 S05 eagle head without num_speculative_tokens: REFUSED at config time (__post_init__, before _verify_args): 'A
      speculative model was provided, but `num_speculative_tokens` was not provided', exit 1;
  e12 S16 (NEW) draft_model 2 with a 1-layer draft of vocab_size 32000: REFUSED at config time (_verify_args): 'Target
      and draft model should have the same vocabulary size. Target model vocab_size=128256. Draft model
      vocab_size=32000. Using models with different tokenizers can cause out-of-bounds errors during speculative
      decoding.', exit 1.
So: 5 config refusals (e06, e09, e10, e11, e12), 2 likely engine-core failures at start (e01, e02), 1 likely KV-budget
refusal (e03), 1 healthy server with a refused request (e04), 3 healthy (e05, e07, e08).
THE GO CALL: TOTAL 545 leaves LEFT ~490-520 s after the kit's set-up: the simulated end (369 s) fits.
"""

import glob
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh339_draw as F  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh391-cases.json")
MADE = [os.path.join(HERE, f"gpu-fresh{n}-cases.json") for n in (339, 377)]
SEED = 2391
N = 12
FIT = ["--max-num-seqs", "64"]
L = F.L
DRAFT = F.DRAFT
DRAFT32K_FOLDER = "f391-llama-3.1-8b-instruct-draft-1l-vocab32000"
DRAFT32K = F.M + DRAFT32K_FOLDER
FOLDERS = {
    **F.FOLDERS,
    DRAFT32K_FOLDER: ("llama-3.1-8b-instruct", {"num_hidden_layers": 1, "vocab_size": 32000}),
}
sc = F.sc

# NEW classes (written here from vLLM 0.26.0's source before the draw; used only to fill a walk that ends short):
# condition -> class -> (target folder, flags, mem, EXPECT, steps or None for F.STEPS), as F.RULES
NEW = {
    "S15 synthetic rejection sampling (rejection_sample_method) with ngram 3 on the llama cut": {
        "synthetic-neither": (L, sc(method="ngram", num_speculative_tokens=3, rejection_sample_method="synthetic"),
                              0.09, "refused at config time (SpeculativeConfig._verify_args): \"rejection_sample_"
                                    "method='synthetic' requires exactly one of synthetic_acceptance_rates or "
                                    "synthetic_acceptance_length.\"", None),
        "synthetic-length-2.5": (L, sc(method="ngram", num_speculative_tokens=3, rejection_sample_method="synthetic",
                                       synthetic_acceptance_length=2.5), 0.09,
                                 "likely healthy: rates [1.0, 0.5, 0.0] from the length; the POSTs 200", None),
        "rates-rising": (L, sc(method="ngram", num_speculative_tokens=3, rejection_sample_method="synthetic",
                               synthetic_acceptance_rates=[0.5, 0.9, 0.2]), 0.09,
                         "refused at config time: 'synthetic_acceptance_rates must be non-increasing, got [0.5, 0.9, "
                         "0.2].'", None),
        "length-standard": (L, sc(method="ngram", num_speculative_tokens=3, synthetic_acceptance_length=2.0), 0.09,
                            "refused at config time: 'synthetic_acceptance_rates / synthetic_acceptance_length are "
                            "only valid with rejection_sample_method='synthetic'.'", None),
    },
    "S16 the draft's vocabulary (draft_model / ngram, 2 tokens, on the llama cut)": {
        "vocab-32000": (L, sc(model=DRAFT32K, num_speculative_tokens=2), 0.13,
                        "refused at config time (verify_equal_vocab_size_if_draft_model): 'Target and draft model "
                        "should have the same vocabulary size. Target model vocab_size=128256. Draft model "
                        "vocab_size=32000. ...'", None),
        "hetero-ngram": (L, sc(method="ngram", num_speculative_tokens=2, use_heterogeneous_vocab=True), 0.09,
                         "refused at config time: \"use_heterogeneous_vocab only works with method='draft_model'\"",
                         None),
    },
    "S17 drafting options with the 1-layer draft (draft_model, 3 tokens, on the llama cut)": {
        "parallel-drafting": (L, sc(model=DRAFT, num_speculative_tokens=3, parallel_drafting=True), 0.13,
                              "the engine core fails when the proposer is built (_init_parallel_drafting_params): "
                              "'For parallel drafting, the draft model config must have `pard_token`, `ptd_token_id`, "
                              "or `dflash_config.mask_token_id` specified in its config.json.' -> 'Engine core "
                              "initialization failed', exit 1", None),
        "probabilistic": (L, sc(model=DRAFT, num_speculative_tokens=3, draft_sample_method="probabilistic"), 0.13,
                          "likely healthy: the draft samples from its logits (kept for the ratio test); 200", None),
        "block": (L, sc(model=DRAFT, num_speculative_tokens=3, rejection_sample_method="block"), 0.13,
                  "unknown, leaning healthy: block verification of the 3 drafts; 200", None),
        "rejection-greedy": (L, sc(model=DRAFT, num_speculative_tokens=3, rejection_sample_method="greedy"), 0.13,
                             "refused at config time by pydantic: rejection_sample_method \"Input should be "
                             "'standard', 'synthetic' or 'block'\" (greedy is a draft_sample_method value)", None),
    },
}  # fmt: skip
RULES = {**F.RULES, **NEW}
PARSE = {("S04", "524288"), ("S05", "eagle-no-tokens"), ("S08", "true-async"), ("S09", "min3-max1"),
         ("S10", "medusa-3"), ("S12", "8192"), ("S13", "draft_tp-2"), ("S14", "model-draft-no-tokens"),
         ("S15", "synthetic-neither"), ("S15", "rates-rising"), ("S15", "length-standard"), ("S16", "vocab-32000"),
         ("S16", "hetero-ngram"), ("S17", "rejection-greedy")}  # fmt: skip
SCHED = {
    "parse": (0.05, 90, 30),
    "qwen35": (None, 340, 250),
    "llama": (None, 250, 140),
}  # (mem, timeout, need)
DUR = {
    "parse": 45,
    "qwen35": 280,
    "llama": 150,
}  # schedule figures (s); + STEP_S for the steps of a started case
STEP_S = 10
END_MAX, CAP, PAR = 450, 0.95, 8
RANK = {"parse": 0, "qwen35": 1, "llama": 2}


def made():
    pairs = set()
    for path in MADE:
        with open(path) as f:
            pairs |= {(c["condition"], c["class"]) for c in json.load(f)["cases"].values()}
    assert len(pairs) == 24 and all(n in F.RULES and c in F.RULES[n] for n, c in pairs), pairs
    return pairs


SKIP = made()
assert not set(NEW) & set(F.RULES) and not {n[:3] for n in NEW} & {
    n[:3] for n in F.RULES
}  # NEW pairs are new
assert all(any(k.startswith(n) and c in RULES[k] for k in RULES) for n, c in PARSE)


def pool():
    return sorted((n, c) for n in F.RULES for c in F.RULES[n] if (n, c) not in SKIP)


def new_pool():
    return sorted((n, c) for n in NEW for c in NEW[n])


def kind_of(name, cls):
    if (name[:3], cls) in PARSE:
        return "parse"
    return "qwen35" if RULES[name][cls][0].startswith("f339-qwen3.5") else "llama"


def folders_of(args):
    out = {args[0].split("/")[-1]}
    for a in args:
        for f in FOLDERS:
            if F.M + f in a and not f.startswith("f339-qwen"):
                out.add(f)
    return out


def case_of(i, name, cls):
    folder, flags, mem, expect, steps = RULES[name][cls]
    kind = kind_of(name, cls)
    fit = folder.startswith("f339-qwen3.5")
    args = F.build_args(folder, (FIT if fit else []) + list(flags), mem)
    book, timeout, need = SCHED[kind]
    return {"args": args, "env": {}, "timeout": timeout, "need": need, "mem": book if book is not None else mem,
            "steps": F.fill(steps if steps is not None else F.STEPS, F.M + folder), "cost": kind,
            "condition": name, "class": cls, "new_class": name in NEW, "folders": sorted(folders_of(args)),
            "fit": FIT if fit else None, "expect_class": expect, "draw": f"fresh-391 draw {i}: {name}: {cls}"}  # fmt: skip


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
    return sorted(cases, key=lambda k: (RANK[cases[k]["cost"]], k))


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
    used = sorted({f for c in cases.values() for f in c["folders"]})
    models = {f: {"fixture": FOLDERS[f][0], "edit": FOLDERS[f][1]} for f in used}
    why = ("fresh-391 doctor-corpus cases (tools/gpu_fresh391_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95, in two waves). "
           "Round 3 of fresh-339's universe (imported unchanged), the pairs fresh-339 and fresh-377 drew skipped, "
           "--max-num-seqs 64 on every qwen3.5 case, a short walk filled from NEW classes S15-S17; drawn, not chosen: "
           "see the draw script's docstring. 'models': python3 tools/gpu_fresh391_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "universe": sum(len(v) for v in F.RULES.values()),
            "new_classes": sum(len(v) for v in NEW.values()), "pool": [list(p) for p in pool()],
            "new_pool": [list(p) for p in new_pool()], "skipped_pairs": sorted(map(list, SKIP)),
            "passed_over": [list(p) for p in passed], "order": order, "models": models, "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], F.FIXTURES)
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:] == ["--rule-check"]:
    seeds = [s for s in range(2049, 2360) if s not in (2339, 2377, 2391)][:300]
    n_passed, ends, qwens, short, filled = 0, 0, 0, 0, 0
    for s in seeds:
        out = draw(s)
        n_passed += len(out["passed_over"])
        ends += simulate(out["cases"], out["order"])[0]
        qwens += sum(c["cost"] == "qwen35" for c in out["cases"].values())
        short += len(out["cases"]) < N
        filled += sum(c["new_class"] for c in out["cases"].values())
    k = len(seeds)
    print(f"{k} seeds: pairs passed over per draw {n_passed / k:.2f}; mean simulated end {ends / k:.0f} s; mean "
          f"qwen3.5 starts {qwens / k:.2f}; NEW classes taken per draw {filled / k:.2f}; draws short of {N}: {short}")  # fmt: skip
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
        print(k, c["draw"], "|", c["cost"], "| new" if c["new_class"] else "|", " ".join(c["args"][1:]), "mem",
              c["mem"], "need", c["need"])  # fmt: skip
    print("passed over:", out["passed_over"])
    end, starts, skipped = simulate(cs, out["order"])
    print("simulated end", end, "starts", " ".join(starts), "skipped", skipped)
    print("at LEFT 490:", simulate(cs, out["order"], 490)[::2])
    print("mem in all", round(sum(c["mem"] for c in cs.values()), 2), "; order:", " ".join(out["order"]))
