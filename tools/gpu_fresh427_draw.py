"""Draw the fresh-427 GPU cases: COMPILATION, CUDA GRAPHS AND ATTENTION BACKENDS, ROUND 2 -- a re-draw over
fresh-395's pool (tools/gpu_fresh395_draw.py: UNIVERSE K01-K17, MODELS, DRAWN_MODELS, BASE, STEPS, TIMEOUT, NEED,
imported unchanged), every (condition, class) pair fresh-395 DREW skipped as already made, a walk under a FIT bound,
and a walk that ends short of 12 FILLED from NEW classes K18-K19 written here from vLLM 0.26.0's source before the
draw. A HEALTHY small model (a published config.json cut to 2 layers; real vLLM 0.26.0 `vllm serve`, torch
2.11+cu130, one H100 80GB or H200, SM90; dummy weights, --skip-tokenizer-init, token-id prompts) started with ONE
drawn compile / graph / attention setting. Sampled, not chosen.

Usage: python3 tools/gpu_fresh427_draw.py                  writes tools/gpu-fresh427-cases.json and prints the draw
       python3 tools/gpu_fresh427_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh427_draw.py --rule-check     the walk run over 300 OTHER seeds (run before seed 2427
                                                           was drawn)
       python3 tools/gpu_fresh427_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (fresh-395's cuts: config.json only, a few KB)
Run (ONE device call; the cases file, gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into
.gpu/run, the model folders into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 450 p3 gpu_serve_requests.py .gpu/run/gpu-fresh427-cases.json LEFT 8 0.95
       <the cases file's "order">

THE UNIVERSE is fresh-395's, IMPORTED from tools/gpu_fresh395_draw.py unchanged: 17 conditions K01-K17, 62 classes,
each class's value class ("vc": healthy / changed / parse / config / start / capture), flags, env, model and EXPECT
(written there from 0.26.0's source); MODELS (the llama-3.1-8b / qwen2.5-7b / gemma-3-1b cuts to 2 layers, U 0.08 /
0.08 / 0.06), DRAWN_MODELS (a class that names no model gets r.choice of llama / qwen2.5), BASE (--skip-tokenizer-init
--load-format dummy --max-model-len 4096 --kv-cache-memory-bytes 1073741824, then --gpu-memory-utilization U, then the
class's flags; a base flag the class carries is replaced), STEPS (a POST /v1/completions of 50 token ids, max_tokens
16; 4 more at once in the background, max_tokens 32; 6 s; one more POST), TIMEOUT 220, NEED 150, "mem" = U. The only
change: the model folders are named f427-<model> (the same config.json content as fresh-395's f395-<model>).
THE SKIP SET: the 12 (condition, class) pairs fresh-395 drew, read from tools/gpu-fresh395-cases.json (asserted 12,
each in the universe): K01 valid, K02 valid, K04 all-above-batched, K05 above-batched, K06 valid, K07 unknown-op, K08
valid, K09 eager-interactivity, K11 valid, K12 fa2-full-mode-0, K15 standalone-off-compile-sizes, K17 fp8-full.
THE POOL: the other 50 pairs of the universe. No other GPU batch drew from this universe (only fresh-395's tool and
cases file name it).
NEW CLASSES (used only to fill a walk that ends short of 12; written from vLLM 0.26.0's source, the official wheel
unzipped into /tmp/gpu427/src, before the draw and before anything ran; each asserted new: its condition id is none
of K01-K17, and by the mechanical check new_check() its (flags, env) equals no case of any tools/gpu-fresh*-cases.json
(fresh-395's included), is no flag list / env dict in the constants of any other tools/gpu_fresh*_draw.py (fresh-395's
UNIVERSE included), and appears inside no earlier case's flags with the same env):
  K18 the top-level graph-size flags (engine/arg_utils.py create_engine_config: "max_cudagraph_capture_size and
      compilation_config.max_cudagraph_capture_size are mutually exclusive" ValueError; config/vllm.py
      _set_cudagraph_sizes: the default list [1, 2, 4] + multiples of 8 below the max, "Truncating
      max_cudagraph_capture_size to N" when the given max is off the list; performance_mode interactivity: every size
      1..min(max, 32), then multiples of 8 up to the max). fresh-242 drew --cudagraph-capture-sizes with -cc sizes,
      sizes with an inconsistent max, and max 0: not re-made here.
  K19 VLLM_* compile / graph environment settings with a compile flag (envs.py: VLLM_USE_AOT_COMPILE defaults to "1"
      on torch >= 2.10 unless VLLM_DISABLE_COMPILE_CACHE; VLLM_ENABLE_CUDAGRAPH_GC=1 keeps the garbage collector on
      during capture (gpu_model_runner: should_freeze = not VLLM_ENABLE_CUDAGRAPH_GC)). A class VLLM_COMPILE_CACHE_
      SAVE_FORMAT=zip with -O3 was written and DROPPED before the draw: the mechanical check found fresh-79's
      save-format-zip (the same env value alone; the refusal does not depend on -O3).
DUR (seconds from a case's start to its end, booked in the simulation), from fresh-395's header's real timings on the
H100 (8 side by side, summary.txt): "healthy" / "changed" 150 (the slowest healthy start, e04 ready at 136 s with
compile_sizes, + 14 s for the steps; the nine healthy were ready at 47-136 s); "parse" / "config" / "start" 55
(fresh-395 e08, an engine-core failure at the profile run, exited at 55 s; a parse or config refusal stops earlier, in
the API server; fresh-395 drew none, so 55 bounds them from above); "capture" 220 (fresh-395 e07 hung until the
driver's 220 s timeout; e06 exited at 108 s).
THE DRAW (fixed before seed 2427 was drawn): r = random.Random(2427); pool = the 50 pairs sorted; r.shuffle(pool);
walk it in order: for each pair its model (the class's own, else r.choice(sorted(DRAWN_MODELS))), then TAKE it if the
pairs taken so far plus it still FIT, else PASS it over (recorded in "passed_over"); stop at 12 taken. If fewer than
12 are taken: new = the NEW pairs sorted; r.shuffle(new) (the same r); walk it the same way. Cases e01.. in the order
taken. Nothing is redrawn; a draw still short is kept short, said so.
FIT (the brief's bound): "order" = the cases by DUR, longest first (draw order among equals); the driver's start rule
(tools/gpu_serve_requests.py main(): in order, blocking, at most 8 at once, the running "mem" plus the next within
0.95, 1 s between starts, a case skipped when it would start after LEFT - its "need") simulated with DUR and LEFT 410
(TOTAL 450 less the kit's ~40 s set-up) must skip nothing and end by 400 s. fresh-392's simulate(), adapted to DUR by
value class.
MEMORY BOUND BY CONSTRUCTION (fresh-395's): every case has the fixed 1 GiB KV budget; a case uses <= ~5.8 GB of its
0.08 x 79.2 GiB (gemma ~3.3 GB of 0.06); 8 at once <= 0.64 < 0.95. No NEW class changes the weights or the KV budget;
K18's 40-graph class (interactivity + max 64) adds graphs of a 2-layer model (tens of MB).
RULE CHECK (--rule-check, run before the tool was committed, before seed 2427 was drawn, over 300 OTHER seeds):
  '300 seeds: pairs passed over per draw 0.00; mean simulated end 242 s; NEW classes taken per draw 0.00; draws short
  of 12: 0'. So FIT is not expected to bind and the NEW classes are not expected to be used: the pool holds only five
  "capture" classes (220 s), and twelve cases of 150 s or less end by ~300 s.
THE DRAW GAVE (printed by --draw-only, twice, identical, after the tool was committed in 19f57a22; only this paragraph
and EXPECTED_DRAWN were added after it, before the cases file was written and before anything ran): the walk took the
first 12 pairs of the shuffled pool, none passed over, no NEW class used. e01 K10 rocm-on-cuda (qwen, start), e02 K09
valid (llama, healthy), e03 K02 stock-cudagraphs (llama, capture), e04 K11 kind-absent (gemma, changed), e05 K08
attn-quant-on-bf16 (llama), e06 K12 flex-full-decode-only (llama), e07 K07 empty-default-mode (qwen), e08 K14 v2-runner
(llama, env VLLM_USE_V2_MODEL_RUNNER=1), e09 K04 valid (llama), e10 K08 sp-at-tp1 (llama), e11 K05 valid (llama), e12
K16 equals-2 (qwen): 3 healthy controls, 7 changed, 1 capture, 1 start; K08 twice. Models: llama x8, qwen2.5 x3,
gemma x1. "order" (DUR, longest first): e03 e02 e04 e05 e06 e07 e08 e09 e10 e11 e12 e01; simulated: e03-e09 start at
0-7 s, e10 e11 e12 e01 at 151-154 s, end 303 s at LEFT 410 (within 400), nothing skipped; 8 at once <= 0.62 of 0.95.
By 0.26.0's source ten are expected healthy (several with WARNINGs), e03 unknown and e01 unknown (see EXPECTED).
EXPECTED per drawn case (EXPECTED_DRAWN below; written after --draw-only printed the draw, before anything ran; from
vLLM 0.26.0's source and fresh-395's account of its round on the H100).
SOURCES READ: tools/gpu_fresh395_draw.py and its cases file, tools/gpu_fresh392_draw.py (the form, simulate()),
tools/gpu_fresh242_draw.py / gpu_fresh79_draw.py (their graph-size classes, to keep NEW classes new),
tools/gpu_serve_requests.py main() and Case (the start rule), tools/gpu_fresh151_go.sh, tools/gpu_draw_models.py,
manifest.toml's fresh-395 header lines; vLLM 0.26.0: config/vllm.py (_set_cudagraph_sizes), config/compilation.py,
engine/arg_utils.py (the graph-size flags, create_engine_config), envs.py. Not read: doctor, its knowledge, its tests,
any batch's logs.
"""

import glob
import importlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh395_draw as F  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh427-cases.json")
MADE = os.path.join(HERE, "gpu-fresh395-cases.json")
SEED = 2427
N = 12
PREFIX = ".gpu/models/f427-"
UNIVERSE, MODELS, DRAWN_MODELS = F.UNIVERSE, F.MODELS, F.DRAWN_MODELS
k, cc = F.k, F.cc

NEW = {
    "K18 the top-level graph-size flags (not fresh-242's three)": {
        "max-both-places": k("config", ["--max-cudagraph-capture-size", "16", *cc({"max_cudagraph_capture_size": 32})],
                             "refused at config in the API server (create_engine_config): ValueError "
                             "'max_cudagraph_capture_size and compilation_config.max_cudagraph_capture_size are "
                             "mutually exclusive', exit 1"),
        "max-off-stride": k("changed", ["--max-cudagraph-capture-size", "12"], "accepted and changed: sizes [1, 2, 4, "
                            "8], WARNING 'Truncating max_cudagraph_capture_size to 8'; healthy, 200s"),
        "interactivity-max-64": k("changed", ["--performance-mode", "interactivity", "--max-cudagraph-capture-size",
                                              "64"], "accepted: sizes 1..32 then 40, 48, 56, 64 (36 graphs); "
                                  "healthy, 200s"),
    },
    "K19 a VLLM_* compile / graph environment setting with a compile flag": {
        "aot-off-O3": k("changed", ["-O3"], "accepted: -O3 through the non-AOT compile path (AOT is the default on "
                        "torch 2.11); healthy, 200s", env={"VLLM_USE_AOT_COMPILE": "0"}),
        "cache-off-compile-sizes": k("changed", cc({"compile_sizes": [1, 2, 4]}), "accepted: inductor compiles sizes "
                                     "1, 2, 4 besides the general range with the compile cache off (a longer cold "
                                     "start, no cache written); healthy, 200s",
                                     env={"VLLM_DISABLE_COMPILE_CACHE": "1"}),
        "cudagraph-gc-full": k("changed", cc({"cudagraph_mode": "FULL"}), "accepted: full graphs captured with the "
                               "garbage collector left on (slower capture); FA3 is ALWAYS; healthy, 200s",
                               env={"VLLM_ENABLE_CUDAGRAPH_GC": "1"}),
    },
}  # fmt: skip
ALL = {**UNIVERSE, **NEW}
DUR = {"healthy": 150, "changed": 150, "parse": 55, "config": 55, "start": 55, "capture": 220}
END_MAX, LEFT, CAP, PAR = 400, 410, 0.95, 8

EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26.0's source as cited)
    "e01": "unknown, the brief's 'start' class may not hold (expected by class: attention-backend refusal): qwen cut, "
    "--attention-backend ROCM_ATTN on SM90: RocmAttentionBackend's validate_configuration passes on CUDA (head 128, "
    "block multiple of 16, supports_compute_capability True by default, its imports guarded), so likely 'Using "
    "AttentionBackendEnum.ROCM_ATTN backend.' and then either healthy on its Triton kernels (200s) or a failure at the "
    "profile run / first forward in the engine core (vllm.platforms.rocm's use_rocm_custom_paged_attention on a CUDA "
    "card); only if validation fails: ValueError 'Selected backend AttentionBackendEnum.ROCM_ATTN is not valid for "
    "this configuration. Reason: [...]', exit 1",
    "e02": "healthy (expected none): llama cut, --enforce-eager --async-scheduling: WARNING 'Enforce eager set, "
    "disabling torch.compile and CUDAGraphs'; async scheduling on the uni executor; 200s",
    "e03": "unknown (capture class): llama cut, -cc mode 1 with torch's 'cudagraphs' backend: accepted (the backend "
    "check is only at mode 3), FULL_AND_PIECEWISE overridden to NONE at mode 1 (info); torch's cudagraph trees around "
    "the forward: healthy (200s) or a failure at the profile / warm-up run in the engine core ('Engine core "
    "initialization failed'); possibly a hang as fresh-395's e07 (then killed at 220 s)",
    "e04": "healthy (expected none): gemma cut, backend_per_kind full_attention FLEX_ATTENTION: the cut has only "
    "sliding-window layers, no effect; FLASH_ATTN picked; 200s",
    "e05": "healthy (expected none), small risk: llama cut, pass_config fuse_attn_quant true on bf16: splitting_ops set "
    "to [] and WARNING 'fuse_attn_quant is incompatible with piecewise cudagraph when use_inductor_graph_partition is "
    "off. ... cudagraph_mode will be set to FULL.'; FA3 is ALWAYS; nothing to fuse; 200s",
    "e06": "healthy (expected none): llama cut, FLEX_ATTENTION with FULL_DECODE_ONLY: 'Using "
    "AttentionBackendEnum.FLEX_ATTENTION backend.', decode graphs full, prefill compiled without graphs; 200s",
    "e07": "healthy (expected none): qwen cut, splitting_ops []: WARNINGs on piecewise cudagraph with empty "
    "splitting_ops, cudagraph_mode set to FULL; FA3 is ALWAYS; 200s",
    "e08": "likely healthy (expected none): llama cut, VLLM_USE_V2_MODEL_RUNNER=1 with --async-scheduling: the V2 "
    "runner supports async; 200s; else a refusal naming the V2 runner ('Model Runner V2 does not yet support ...')",
    "e09": "healthy (expected none): llama cut, capture sizes [16, 4, 4, 1, 8]: de-duplicated and sorted to [1, 4, 8, "
    "16]; 200s",
    "e10": "healthy (expected none): llama cut, pass_config enable_sp true at TP 1: WARNING 'Sequence Parallelism "
    "requires TP>1, disabling'; 200s",
    "e11": "healthy (expected none): llama cut, compile_sizes ['cudagraph_capture_sizes'] with max capture 8: sizes "
    "1, 2, 4, 8 compiled besides the general range (a longer cold start, as fresh-395's e04 at 136 s); 200s",
    "e12": "healthy (expected none): qwen cut, -O=2: rewritten to --optimization-level 2 (the default); 200s",
}  # fmt: skip


def made():
    with open(MADE) as f:
        pairs = {(c["condition"], c["class"]) for c in json.load(f)["cases"].values()}
    assert len(pairs) == 12 and all(n in UNIVERSE and c in UNIVERSE[n] for n, c in pairs), pairs
    return pairs


SKIP = made()
assert not {n[:3] for n in NEW} & {n[:3] for n in UNIVERSE}  # NEW conditions are new ids
assert all(c["vc"] in DUR for cl in ALL.values() for c in cl.values())


def pool():
    return sorted((n, c) for n in UNIVERSE for c in UNIVERSE[n] if (n, c) not in SKIP)


def new_pool():
    return sorted((n, c) for n in NEW for c in NEW[n])


def earlier_all():
    """Every earlier GPU case's (flags, env), base stripped, and every flag list / env dict in the constants of every
    other draw module (fresh-395's included, this one excluded): F.earlier()'s walk, without its fresh-395 skip."""
    settings, case_args, flags, envs = set(), [], set(), set()
    for f in sorted(glob.glob(os.path.join(HERE, "gpu-fresh*-cases.json"))):
        if f == OUT_JSON:
            continue
        with open(f) as fh:
            d = json.load(fh)
        cs = d.get("cases", d)
        for c in cs.values() if isinstance(cs, dict) else cs:
            if isinstance(c, dict) and "args" in c:
                a, e = F.strip_base([str(x) for x in c["args"][1:]]), F.canon_env(c.get("env", {}))
                settings.add((a, e))
                case_args.append((a, e))
    for f in sorted(glob.glob(os.path.join(HERE, "gpu_fresh*_draw.py"))):
        name = os.path.basename(f)[:-3]
        if name == "gpu_fresh427_draw":
            continue
        try:
            m = importlib.import_module(name)
        except Exception as ex:
            print("novelty: could not import", name, type(ex).__name__)
            continue
        for attr in dir(m):
            if attr.isupper():
                F.walk(getattr(m, attr), flags, envs)
    return settings, case_args, flags, envs


def new_check():
    settings, case_args, flags, envs = earlier_all()
    for cond, classes in NEW.items():
        for cls, c in classes.items():
            mine = (F.strip_base(c["flags"]), F.canon_env(c["env"]))
            assert mine not in settings, (cond, cls, "an earlier case drew this setting")
            if not c["env"]:
                assert mine[0] not in flags, (cond, cls, "an earlier universe holds these flags")
            else:
                assert not (mine[1] in envs and mine[0] in flags), (cond, cls, "env + flags old")
            for a, e in case_args:
                if e == mine[1]:
                    L = len(mine[0])
                    assert not any(a[i : i + L] == mine[0] for i in range(len(a) - L + 1)), (cond, cls, a)
    return len(settings), len(flags), len(envs)


def case_of(i, name, cls, mkey):
    fixture, edit, util = MODELS[mkey]
    c = ALL[name][cls]
    model = PREFIX + mkey
    base = list(F.BASE)
    for f in [f for f in c["flags"] if f.startswith("--")]:
        if f in base:
            j = base.index(f)
            del base[j : j + 2]
    args = [model, *base, "--gpu-memory-utilization", str(util), *c["flags"]]
    return {"args": args, "env": dict(c["env"]), "timeout": F.TIMEOUT, "need": F.NEED, "mem": util,
            "steps": F.fill(F.STEPS, model), "condition": name, "class": cls, "vc": c["vc"], "dur": DUR[c["vc"]],
            "new_class": name in NEW, "model_key": mkey, "fixture": fixture, "config_edit": edit,
            "expect": c["expect"], "draw": f"fresh-427 draw {i}: {name}: {cls}; model {mkey}"}  # fmt: skip


def order_of(cases):
    keys = list(cases)
    return sorted(keys, key=lambda x: (-cases[x]["dur"], keys.index(x)))


def simulate(cases, order, total=LEFT):
    """The driver's start rule (in order, blocking; within CAP and PAR; skip past total - need): (end, starts, skipped)."""
    running, clock, end, starts, skipped = [], 0.0, 0.0, [], []
    for key in order:
        c = cases[key]
        while True:
            running = [x for x in running if x[0] > clock]
            if not running or (len(running) < PAR and sum(m for _, m in running) + c["mem"] <= CAP + 1e-9):
                break
            clock = min(t for t, _ in running)
        if clock > total - c["need"]:
            skipped.append(key)
            continue
        running.append((clock + c["dur"], c["mem"]))
        starts.append(f"{key}@{clock:.0f}")
        end = max(end, clock + c["dur"])
        clock += 1
    return round(end), starts, skipped


def fits(taken):
    cases = {f"e{i:02d}": case_of(i, *p) for i, p in enumerate(taken, 1)}
    end, _, skipped = simulate(cases, order_of(cases))
    return end <= END_MAX and not skipped


def draw_pairs(seed=SEED):
    r = random.Random(seed)
    taken, passed = [], []
    for p in (pool(), new_pool()):
        r.shuffle(p)
        for name, cls in p:
            if len(taken) == N:
                break
            mkey = ALL[name][cls]["model"] or r.choice(sorted(DRAWN_MODELS))
            (taken if fits(taken + [(name, cls, mkey)]) else passed).append((name, cls, mkey))
    return taken, passed


def draw(seed=SEED):
    taken, passed = draw_pairs(seed)
    cases = {f"e{i:02d}": case_of(i, *p) for i, p in enumerate(taken, 1)}
    for key, text in EXPECTED_DRAWN.items():
        cases[key]["expect_drawn"] = text
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = ("fresh-427 doctor-corpus cases (tools/gpu_fresh427_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95). Round 2 of "
           "fresh-395's universe (imported unchanged), the pairs fresh-395 drew skipped, a short walk filled from NEW "
           "classes K18-K19; drawn, not chosen: see the draw script's docstring. 'models': python3 "
           "tools/gpu_fresh427_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "universe": sum(len(v) for v in UNIVERSE.values()),
            "new_classes": sum(len(v) for v in NEW.values()), "pool": [list(p) for p in pool()],
            "new_pool": [list(p) for p in new_pool()], "skipped_pairs": sorted(map(list, SKIP)),
            "passed_over": [list(p) for p in passed], "order": order_of(cases), "models": models,
            "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], F.FIXTURES)
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:] == ["--rule-check"]:
    seeds = [s for s in range(2100, 2420) if s not in (2392, 2395)][:300]
    n_passed, ends, short, filled = 0, 0, 0, 0
    for s in seeds:
        out = draw(s)
        n_passed += len(out["passed_over"])
        ends += simulate(out["cases"], out["order"])[0]
        short += len(out["cases"]) < N
        filled += sum(c["new_class"] for c in out["cases"].values())
    n = len(seeds)
    print(f"{n} seeds: pairs passed over per draw {n_passed / n:.2f}; mean simulated end {ends / n:.0f} s; "
          f"NEW classes taken per draw {filled / n:.2f}; draws short of {N}: {short}")  # fmt: skip
    sys.exit(0)

if __name__ == "__main__":
    st, fl, en = new_check()
    print(
        f"novelty: {len(new_pool())} NEW classes new against {st} earlier settings, {fl} flag lists, {en} env dicts"
    )
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
    for key in out["order"]:
        c = cs[key]
        flags = c["args"][c["args"].index("--gpu-memory-utilization") + 2 :]
        print(key, c["draw"], "|", c["vc"], "| new" if c["new_class"] else "|", " ".join(flags), c["env"] or "",
              "| mem", c["mem"], "dur", c["dur"])  # fmt: skip
    print("passed over:", out["passed_over"])
    end, starts, skipped = simulate(cs, out["order"])
    print("simulated end", end, "at LEFT", LEFT, "starts", " ".join(starts), "skipped", skipped)
    print("mem in all", round(sum(c["mem"] for c in cs.values()), 2), "; order:", " ".join(out["order"]))
