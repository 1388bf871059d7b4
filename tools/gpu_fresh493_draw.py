"""Draw the fresh-493 GPU cases: COMPILATION, CUDA GRAPHS AND ATTENTION BACKENDS, ROUND 3 -- fresh-427's procedure
(tools/gpu_fresh427_draw.py) repeated with seed 2493, N 10 and TOTAL 420 s, over fresh-427's universe (fresh-395's
K01-K17 and fresh-427's K18-K19), every (condition, class) pair fresh-395 AND fresh-427 drew skipped. A HEALTHY small
model (a published config.json cut to 2 layers; real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB or
H200, SM90; dummy weights, --skip-tokenizer-init, token-id prompts) started with ONE drawn compile / graph / attention
setting. Sampled, not chosen.

Usage: python3 tools/gpu_fresh493_draw.py                  writes tools/gpu-fresh493-cases.json and prints the draw
       python3 tools/gpu_fresh493_draw.py --draw-only      prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh493_draw.py --rule-check     the walk run over 300 OTHER seeds (run before seed 2493
                                                           was drawn)
       python3 tools/gpu_fresh493_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (fresh-395's cuts: config.json only, a few KB)
Run (ONE device call; the cases file, gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into
.gpu/run, the model folders into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 420 p3 gpu_serve_requests.py .gpu/run/gpu-fresh493-cases.json LEFT 8 0.95
       <the cases file's "order">

CODE: IMPORTED, not copied (batch.md step 2). fresh-427's functions pool(), new_pool(), case_of(), order_of(),
simulate(), fits(), draw_pairs() and draw() run UNCHANGED; they read their module's globals, so bind() below points
those globals of the imported module (tools/gpu_fresh427_draw.py, its file not edited) at fresh-493's values: UNIVERSE
(= fresh-427's ALL), NEW, ALL, SKIP, N, PREFIX, LEFT, END_MAX, OUT_JSON, EXPECTED_DRAWN, and simulate (fresh-427's own
simulate with total=LEFT: its default total=410 is bound at definition, so fits() is given a partial). Written here,
because fresh-427 baked them into its __main__ block or its text: the skip set's reader (two cases files), the rule
check's loop, the printout, --models (fresh-395's FIXTURES, fresh-427's write_models), and after draw() the case's
"draw" label ("fresh-493 draw i"), "why", and "new_class" (NEW is fresh-493's; K18-K19 are marked "k427_new").

THE UNIVERSE is fresh-427's ALL, IMPORTED unchanged: fresh-395's 17 conditions K01-K17 (62 classes) and fresh-427's
K18 (top-level graph-size flags: max-both-places, max-off-stride, interactivity-max-64) and K19 (VLLM_* compile /
graph environment settings with a compile flag: aot-off-O3, cache-off-compile-sizes, cudagraph-gc-full), 68 pairs;
each class's value class ("vc"), flags, env, model and EXPECT as written there from 0.26.0's source. MODELS,
DRAWN_MODELS, BASE, STEPS, TIMEOUT 220, NEED 150, "mem" = U and DUR (healthy / changed 150, parse / config / start 55,
capture 220) are fresh-395's / fresh-427's, unchanged. The only change in a case: the model folders are named
f493-<model> (the same config.json content as f395- / f427-).
READING OF THE BRIEF (a judgement call): "the pairs fresh-395 AND fresh-427 drew (fresh-427's new K18-K19 classes
included) in the SKIP set" is read as: the universe is fresh-427's, K18-K19 included, and the skip set holds every pair
drawn from it. fresh-427 drew no K18-K19 pair (its walk did not end short), so all six K18-K19 classes are in the pool;
they are walked in ONE pool with K01-K17 (they are no longer a fill pool: they were written before fresh-427's draw and
are part of the universe this round inherits).
THE SKIP SET: the 24 pairs read from tools/gpu-fresh395-cases.json (12) and tools/gpu-fresh427-cases.json (12, the
four run in stop 50 as fresh-457 included), asserted 24 distinct, each in the universe.
THE POOL: the other 44 pairs (K01-K19). No other GPU batch drew from this universe.
NEW CLASSES: none written. The brief allows them only if the walk ends short; the rule check below (run before seed
2493 was drawn) found no walk of 300 other seeds short of 10 (44 pairs for 10 cases), so NEW = {} and the fill stage
(fresh-427's new_pool()) is empty. Had it found short walks, classes would have been written from 0.26.0's source
before the draw and checked with fresh-427's new_check().
FIT (fresh-427's rule): "order" = the cases by DUR, longest first (draw order among equals); the driver's start rule
(in order, blocking, at most 8 at once, running "mem" plus the next within 0.95, 1 s between starts, a case skipped
when it would start after LEFT - its "need") simulated with DUR and LEFT 380 (TOTAL 420 less the kit's ~40 s set-up,
as fresh-427's 410 of 450) must skip nothing and end by END_MAX 370 (LEFT - 10, as fresh-427's 400 of 410).
THE DRAW (fixed before seed 2493 was drawn; fresh-427's draw_pairs()): r = random.Random(2493); pool = the 44 pairs
sorted; r.shuffle(pool); walk it in order: for each pair its model (the class's own, else r.choice(sorted(DRAWN_MODELS)))
then TAKE it if the pairs taken so far plus it still FIT, else PASS it over (recorded in "passed_over"); stop at 10
taken. Cases e01.. in the order taken. Nothing is redrawn; a draw still short is kept short, said so.
RULE CHECK (--rule-check, run before the tool was committed, before seed 2493 was drawn, over 300 OTHER seeds):
  '300 seeds: pairs passed over per draw 0.00; mean simulated end 204 s; draws short of 10: 0'. So FIT is not
  expected to bind and no NEW class is needed.
THE DRAW GAVE (printed by --draw-only, twice, identical, after the tool was committed in 6abf830d; only this
paragraph and EXPECTED_DRAWN were added after it, before the cases file was written and before anything ran): the walk
took the first 10 pairs of the shuffled pool, none passed over, no NEW class (none exists). e01 K18 max-both-places
(llama, config), e02 K01 lowercase-trace-once (llama, changed), e03 K19 aot-off-O3 (qwen, changed, env
VLLM_USE_AOT_COMPILE=0), e04 K17 fp8-flex-decode (gemma, start), e05 K06 unknown-op (llama, changed), e06 K19
cache-off-compile-sizes (qwen, changed, env VLLM_DISABLE_COMPILE_CACHE=1), e07 K04 negative-size (qwen, capture), e08
K02 stock-missing-qualname (llama, start), e09 K10 hpc-gemma-256-sliding (gemma, start), e10 K12 valid (qwen,
healthy): 1 healthy control, 4 changed, 1 capture, 3 start, 1 config; K18 and K19 (fresh-427's classes) three times.
Models: llama x4, qwen2.5 x4, gemma x2. "order" (DUR, longest first): e07 e02 e03 e05 e06 e10 e01 e04 e08 e09;
simulated: e07-e04 start at 0-7 s, e08 e09 at 61-62 s (when e01 and e04, 55 s each, end), end 220 s at LEFT 380
(within 370), nothing skipped; mems 0.76 in all, 8 at once <= 0.62 of 0.95. By 0.26.0's source five are expected
healthy (e06 with a risk of the driver's 220 s timeout), four refused (e01 at config in the API server; e04, e08, e09
in the engine core) and e07 unknown (see EXPECTED_DRAWN).
MEMORY BOUND BY CONSTRUCTION (fresh-395's): every case has the fixed 1 GiB KV budget; a case uses <= ~5.8 GB of its
0.08 x 79.2 GiB (gemma ~3.3 GB of 0.06); 8 at once <= 0.64 < 0.95.
TIMING SEEN SINCE (not used to change DUR; the brief keeps fresh-427's FIT rule): fresh-427's eight healthy servers on
the H100 were ready at 73-93 s side by side; fresh-457's K05 compile_sizes case took 227 s to be ready (four side by
side), longer than its DUR 150 and beyond the driver's timeout 220 had it been one of eight: a compile-sizes class
(K19 cache-off-compile-sizes) may run past the timeout.
SOURCES READ: tools/gpu_fresh427_draw.py, tools/gpu_fresh395_draw.py, their cases files, tools/gpu_serve_requests.py
main() and Case, tools/gpu_fresh151_go.sh, tools/gpu_draw_models.py, manifest.toml's fresh-427 and fresh-457 headers;
vLLM 0.26.0 (the wheel unzipped into /tmp/gpu493/src) for EXPECTED_DRAWN. Not read: doctor, its knowledge, its tests,
any batch's logs.
"""

import functools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh395_draw as F  # noqa: E402
import gpu_fresh427_draw as G  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh493-cases.json")
MADE = [os.path.join(HERE, f"gpu-fresh{b}-cases.json") for b in (395, 427)]
SEED = 2493
N = 10
TOTAL = 420
LEFT = TOTAL - 40
END_MAX = LEFT - 10
PREFIX = ".gpu/models/f493-"
K427_NEW = dict(G.NEW)  # fresh-427's K18-K19, now part of the universe
UNIVERSE = dict(G.ALL)  # K01-K19
NEW = {}  # none written: see NEW CLASSES in the docstring
SIMULATE_427 = G.simulate

EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26.0's source as cited)
    "e01": "refused at config in the API server (expected: a config-refusal id, the graph-size flags given twice): "
    "llama cut, --max-cudagraph-capture-size 16 with -cc max_cudagraph_capture_size 32: engine/arg_utils.py "
    "create_engine_config raises ValueError 'max_cudagraph_capture_size and compilation_config."
    "max_cudagraph_capture_size are mutually exclusive' before any engine core starts; traceback, exit 1; no request "
    "answered (the driver's steps never run)",
    "e02": "healthy (expected none): llama cut, -cc mode 'dynamo_trace_once': upper-cased to DYNAMO_TRACE_ONCE (mode "
    "2), backend '' becomes the platform's 'inductor'; the default FULL_AND_PIECEWISE needs mode 3, so INFO 'Cudagraph "
    "mode FULL_AND_PIECEWISE is not compatible with compilation mode 2.Overriding to NONE.'; Dynamo traces once, "
    "inductor compiles, no CUDA graphs; 200s",
    "e03": "healthy (expected none): qwen cut, -O3 with VLLM_USE_AOT_COMPILE=0: O3 is 'currently the same as -O2'; "
    "the non-AOT compile path (AOT is the default on torch >= 2.10); piecewise + full graphs captured; 200s",
    "e04": "refused in the engine core (expected: an attention-backend refusal): gemma cut, --kv-cache-dtype fp8 with "
    "--attention-backend FLEX_ATTENTION and FULL_DECODE_ONLY: FlexAttentionBackend's supported_kv_cache_dtypes are "
    "auto / float16 / bfloat16, so platforms/cuda.py get_attn_backend_cls raises ValueError 'Selected backend "
    "AttentionBackendEnum.FLEX_ATTENTION is not valid for this configuration. Reason: ['kv_cache_dtype not "
    "supported']' at model init; 'Engine core initialization failed. See root cause above.', exit 1",
    "e05": "healthy (expected none): llama cut, custom_ops ['+fused_rms_norm_xyz']: config/compilation.py "
    "custom_op_log_check WARNING \"Op 'fused_rms_norm_xyz' doesn't exist (or wasn't imported/registered), enabling "
    "with '+fused_rms_norm_xyz' has no effect\"; 200s",
    "e06": "healthy (expected none), slow: qwen cut, compile_sizes [1, 2, 4] with VLLM_DISABLE_COMPILE_CACHE=1 (AOT "
    "compile off with it): inductor compiles the general range and sizes 1, 2 and 4, nothing cached; a long cold "
    "start beside seven others (fresh-457's compile_sizes case was ready at 227 s with four side by side), so it may "
    "not be ready by the driver's 220 s timeout: then the driver kills it while it compiles (no request sent; not a "
    "failure of vLLM); else 200s",
    "e07": "unknown (capture class): qwen cut, cudagraph_capture_sizes [-4, 1, 2]: no validator refuses a negative "
    "size (config/vllm.py _set_cudagraph_sizes only drops sizes above max_num_batched_tokens): sizes [-4, 1, 2], max "
    "capture size 2; the V2 runner's cudagraph_utils builds FULL and PIECEWISE descriptors for num_tokens -4 and "
    "captures them last (largest first): most likely a failure while capturing at -4 in the engine core (a "
    "RuntimeError / assertion on a negative or mismatched size, 'Engine core initialization failed', exit 1); else "
    "healthy, 200s",
    "e08": "refused in the engine core (expected: a compile-backend import failure): llama cut, -cc mode 1 with "
    "backend 'mypkg.compile_backend': accepted at config (the backend check is only at mode 3); 'Model Runner V2 does "
    "not yet support stock torch.compile; using the V1 model runner instead.'; gpu_model_runner load_model -> "
    "compilation_config.init_backend -> resolve_obj_by_qualname -> ModuleNotFoundError \"No module named 'mypkg'\" "
    "after the dummy weights load; 'Engine core initialization failed', exit 1",
    "e09": "refused in the engine core (expected: an attention-backend refusal): gemma cut (head 256, sliding-window "
    "layers), --attention-backend HPC_ATTN: HpcAttnBackend supports head size 128 only and no sliding window "
    "(kernel block 64 too): ValueError 'Selected backend AttentionBackendEnum.HPC_ATTN is not valid for this "
    "configuration. Reason: [...]' naming at least 'head_size not supported' and 'sliding window not supported' (and "
    "'block_size not supported' if the block size is known then); 'Engine core initialization failed', exit 1",
    "e10": "healthy (expected none, the control): qwen cut, --attention-backend TRITON_ATTN with cudagraph_mode FULL: "
    "'Using AttentionBackendEnum.TRITON_ATTN backend.', Triton is ALWAYS so FULL graphs for mixed batches; 200s",
}  # fmt: skip


def made():
    pairs = []
    for path in MADE:
        with open(path) as f:
            pairs += [(c["condition"], c["class"]) for c in json.load(f)["cases"].values()]
    assert len(pairs) == 24 == len(set(pairs)), pairs
    assert all(n in UNIVERSE and c in UNIVERSE[n] for n, c in pairs), pairs
    return set(pairs)


SKIP = made()


def bind():
    """Point the imported fresh-427 module's globals at fresh-493's values, so its functions run this round."""
    G.UNIVERSE, G.NEW, G.ALL, G.SKIP = UNIVERSE, NEW, {**UNIVERSE, **NEW}, SKIP
    G.N, G.PREFIX, G.LEFT, G.END_MAX, G.OUT_JSON = N, PREFIX, LEFT, END_MAX, OUT_JSON
    G.EXPECTED_DRAWN = EXPECTED_DRAWN
    G.simulate = functools.partial(SIMULATE_427, total=LEFT)


def draw(seed=SEED):
    bind()
    out = G.draw(seed)
    for c in out["cases"].values():
        c["draw"] = c["draw"].replace("fresh-427 draw", "fresh-493 draw")
        c["new_class"] = c["condition"] in NEW
        c["k427_new"] = c["condition"] in K427_NEW
    out["why"] = (
        "fresh-493 doctor-corpus cases (tools/gpu_fresh493_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95). Round 3 of "
        "fresh-427's universe (fresh-395's K01-K17 and fresh-427's K18-K19, imported unchanged), the pairs fresh-395 "
        "and fresh-427 drew skipped; drawn, not chosen: see the draw script's docstring. 'models': python3 "
        "tools/gpu_fresh493_draw.py --models .gpu/models."
    )
    out["universe"] = sum(len(v) for v in UNIVERSE.values())
    return out


def rule_check():
    seeds = [s for s in range(2100, 2500) if s not in (2392, 2395, 2427, 2457, 2493)][:300]
    n_passed, ends, short = 0, 0, 0
    for s in seeds:
        out = draw(s)
        n_passed += len(out["passed_over"])
        ends += G.simulate(out["cases"], out["order"])[0]
        short += len(out["cases"]) < N
    n = len(seeds)
    print(
        f"{n} seeds: pairs passed over per draw {n_passed / n:.2f}; mean simulated end {ends / n:.0f} s; "
        f"draws short of {N}: {short}"
    )


def show(out):
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
        print(
            key,
            c["draw"],
            "|",
            c["vc"],
            "|",
            " ".join(flags),
            c["env"] or "",
            "| mem",
            c["mem"],
            "dur",
            c["dur"],
        )
    print("passed over:", out["passed_over"])
    end, starts, skipped = G.simulate(cs, out["order"])
    print("simulated end", end, "at LEFT", LEFT, "starts", " ".join(starts), "skipped", skipped)
    print("mem in all", round(sum(c["mem"] for c in cs.values()), 2), "; order:", " ".join(out["order"]))


def main(argv):
    if argv[:1] == ["--models"]:
        with open(OUT_JSON) as f:
            write_models(json.load(f)["models"], argv[1], F.FIXTURES)
        return
    if argv == ["--rule-check"]:
        rule_check()
        return
    out = draw()
    if argv != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    show(out)


if __name__ == "__main__":
    main(sys.argv[1:])
