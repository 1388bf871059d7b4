"""Draw the fresh-379 GPU cases: WILL THIS CHECKPOINT LOAD ON THIS GPU, ROUND 3: a RE-DRAW over fresh-319's universe
(a published checkpoint's config.json cut to 2 layers (4 text layers for the deployment's Qwen3.5-27B) carrying a
DRAWN quantization_config or torch_dtype, started with ONE DRAWN serve setting; real vLLM 0.26.0 `vllm serve`, torch
2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, --skip-tokenizer-init), as tools/gpu_fresh359_draw.py
(round 2) did, with a new seed and every (condition, class) pair that fresh-319 OR fresh-359 drew skipped on both axes.
Sampled, not chosen.

Usage: python3 tools/gpu_fresh379_draw.py                  writes tools/gpu-fresh379-cases.json and prints the draw
       python3 tools/gpu_fresh379_draw.py --draw-only      prints the draw and the memory / time figures, writes nothing
       python3 tools/gpu_fresh379_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh379-cases.json LEFT 8 0.95
       <the file's "order">
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running
cases' "mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its
"need" is skipped; a case's deadline is min(TOTAL end, its start + its "timeout").)

THE UNIVERSE is fresh-319's, IMPORTED from tools/gpu_fresh319_draw.py unchanged (CHECKPOINTS Q1-Q9 and SETTINGS S1-S5,
each class's model key, config edits, flags and EXPECT written by gpu319 before its draw; MODEL, FLAGS, MATCH /
CONFLICT, make_case), exactly as tools/gpu_fresh359_draw.py imported it.
SOURCES READ for this draw: tools/gpu_fresh319_draw.py, tools/gpu_fresh359_draw.py, tools/gpu-fresh319-cases.json and
tools/gpu-fresh359-cases.json (their 'checkpoint'/'checkpoint_class' and 'serve_setting'/'serve_class' fields); the
manifest's batch "fresh-359" HEADER (what happened on the device: 12 made, 8 healthy, 4 refused; the driver done at
172 s, so two waves fit); tools/gpu_serve_requests.py (the start rule, deadlines); vLLM 0.26.0's own source from the
kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_x86_64.whl, unzipped into /tmp/gpu379) for the
EXPECTED below. Not read: doctor, its knowledge, tests/test_doctor*, any batch's logs.
EARLIER GPU MAKERS: as listed in fresh-319's docstring (fresh-227/237, 242/257, 264, 302, 39/79), plus fresh-319 and
fresh-359 themselves: their twenty-four cases are the SKIP below.

SKIP (fixed before the draw, read from the two cases files by skipped()): every (condition, class) pair fresh-319 or
fresh-359 drew, on both axes: 21 checkpoint pairs of 29 and 14 setting pairs of 16. LEFT (printed by --draw-only):
8 checkpoint classes: Q2 published-128x128, Q3 W8A8-FP8-channel-token, Q3 W8A8-INT8-channel-token, Q3
w4a4-deployment-qwen3.5, Q5 desc_act-true, Q6 8bit, Q8 NVFP4, Q9 float16 (Q1, Q4, Q7 have none left); 2 setting
classes: S1 conflicting, S4 FLASHINFER (S2, S3, S5 have none left). So 8 x 2 = 16 (checkpoint class, setting class)
pairs are left, of which 12 are drawn; no case of fresh-319 or fresh-359 can come again, and neither any class they ran.

THE DRAW (fixed before it ran): r = random.Random(2379); qs = r.sample(LEFT_Q, 8) + r.sample(LEFT_Q, 4) (LEFT_Q the 8
checkpoint (condition, class) pairs left, sorted: every class once, four of them twice: fresh-319's "every condition
once, some twice" rule on the classes left); then per case in that order: a class's FIRST case takes its setting class
= r.choice(LEFT_S) (LEFT_S the 2 setting pairs left, sorted), its SECOND case the other setting class (so no (checkpoint
class, setting class) pair comes twice, and the 12 are 12 of the 16 pairs). Nothing is redrawn; a case that cannot be
made is said so, not replaced. "order" = the cut Qwen3.5 cases (draw order), then the others (draw order).

BASE (fresh-319's): `vllm serve .gpu/models/<folder> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization U` (+ for the cut Qwen3.5 --language-model-only
--gdn-prefill-backend triton --max-num-seqs 64; VLLM_USE_DEEP_GEMM=0 for the block-fp8 checkpoint), the drawn flags
appended (S1 conflicting: `--quantization X`, X by fresh-319's fixed CONFLICT rule from the config's method; S4
FLASHINFER: `--attention-backend FLASHINFER`). Every server that comes up gets one POST /v1/completions, 50 token ids,
max_tokens 16. Model folders are named f379-<model key>-<class> (fresh-319's names with 379: a warm device's f319 /
f359 folders are never reused); a checkpoint class drawn twice uses one folder.

MEMORY BOUND BY CONSTRUCTION: every case's "mem" is its model's U (0.07-0.11: fresh-319's figures, a fixed 1 GiB KV
budget, no profiling a neighbour could move); 8 x 0.11 = 0.88 <= 0.95, so ANY 8 cases fit side by side and the
driver's only limit is PARALLEL 8: the first 8 of "order" start at once (wave 1), the other 4 as wave-1 cases end
(wave 2). Fresh-319's and fresh-359's runs on an H100 held the same figures (12 cases each, 8 at once, no memory
failure).
TIME, TWO WAVES BY CONSTRUCTION (fresh-359's figures): "timeout" (to be ready) 240 for the cut Qwen3.5 (always in wave
1: "order" puts it first and at most 2 exist), 195 for the others; "need" 150. Worst case: a wave-2 case starts when
the first wave-1 case ends (<= 195 s + its request + 2 s) and lasts <= 195 s + its request: ~400-450 s; fresh-359's
real figures: refusals in 35-53 s, ready in 61-86 s with 8 starting together, the driver done at 172 s. The go call's
TOTAL 545 leaves ~490 s after the kit's setup (17-55 s). --draw-only prints a rolling simulation of the start rule at
90, 130 and 195 s starts (Qwen3.5 +40 s) and asserts the 195 s one ends by 450 s.

THE DRAW GAVE: DRAW_GAVE below (filled after --draw-only printed the draw once, before the cases file was written and
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it).
In short: 6 refusals at config expected (e01, e03, e04, e06, e08 by the --quantization check or the missing awq
config file), 5 engine-core failures at model init (e05, e09, e10, e11, e12: FLASHINFER not importable; e07
bitsandbytes not importable first), one HEALTHY server whose --quantization fp8 is silently overridden (e02).
EXPECTED for the drawn twelve: EXPECTED_DRAWN below (also each case's "expect_drawn"), written after the draw was
printed by --draw-only and before anything ran, from 0.26.0's source as cited.
"""

import json
import os
import random
import sys

import gpu_fresh319_draw as U  # the script's folder is on sys.path when run
from gpu_draw_models import write_models

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh379-cases.json")
SEED = 2379
N = 12
CHECKPOINTS, SETTINGS = U.CHECKPOINTS, U.SETTINGS
TIMEOUT_QWEN35, TIMEOUT_OTHER, NEED = 240, 195, 150


def skipped():
    q, s = set(), set()
    for n in (319, 359):
        with open(os.path.join(HERE, f"gpu-fresh{n}-cases.json")) as f:
            cases = json.load(f)["cases"]
        assert len(cases) == 12, (n, len(cases))
        q |= {(c["checkpoint"], c["checkpoint_class"]) for c in cases.values()}
        s |= {(c["serve_setting"], c["serve_class"]) for c in cases.values()}
    assert all(k in CHECKPOINTS and v in CHECKPOINTS[k] for k, v in q), q
    assert all(k in SETTINGS and v in SETTINGS[k] for k, v in s), s
    return q, s


SKIP_Q, SKIP_S = skipped()
LEFT_Q = sorted((k, c) for k, v in CHECKPOINTS.items() for c in v if (k, c) not in SKIP_Q)
LEFT_S = sorted((k, c) for k, v in SETTINGS.items() for c in v if (k, c) not in SKIP_S)
assert len(LEFT_Q) == 8 and len(LEFT_S) == 2, (LEFT_Q, LEFT_S)

DRAW_GAVE = (  # filled after --draw-only printed the draw once (the tool committed before it, 9c33ddf1)
    "checkpoint classes drawn twice: Q3 w4a4-deployment-qwen3.5 (e01, e12), Q8 NVFP4 (e02, e11), Q3 "
    "W8A8-FP8-channel-token (e03, e10), Q3 W8A8-INT8-channel-token (e04, e09); once: Q2 published-128x128 (e05), Q5 "
    "desc_act-true (e06), Q6 8bit (e07), Q9 float16 (e08). Settings: S1 conflicting x6 (e01 fp8, e02 fp8, e03 fp8, e04 "
    "fp8, e06 awq, e08 awq), S4 FLASHINFER x6 (e05, e07, e09, e10, e11, e12). The 4 pairs of the 16 not drawn: Q2 "
    "published-128x128 x conflicting, Q5 desc_act-true x FLASHINFER, Q6 8bit x conflicting, Q9 float16 x FLASHINFER. "
    "8 model folders (e01/e12, e02/e11, e03/e10, e04/e09 share theirs); two cut Qwen3.5 (e01, e12: both in wave 1). "
    "Mems sum to 1.0 (the heaviest 8: 0.70). order e01 e12 e02 e03 e04 e05 e06 e07 | e08 e09 e10 e11. Simulated: all "
    "12 end by ~201 s at 90 s starts, ~281 s at 130 s, ~411 s if every case ran to its timeout (<= 450)."
)
EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran; 0.26.0's source as cited
    "e01": "refused at config in the API process (ModelConfig._verify_quantization, config/model.py): the cut "
    "Qwen3.5's top-level quantization_config is compressed-tensors (W4A4 NVFP4); no override method claims it for a "
    "user 'fp8' (the overrides are auto_gptq/auto_awq (gptq/awq configs only), moe_wna16, modelopt*, mxfp4, inc, "
    "humming): ValueError 'Quantization method specified in the model config (compressed-tensors) does not match the "
    "quantization method specified in the `quantization` argument (fp8).'; no engine core, rc 1 in ~20-40 s",
    "e02": "HEALTHY, the --quantization fp8 silently overridden: ModelOptNvFp4Config.override_quantization_method "
    "(modelopt.py) returns 'modelopt_fp4' for any modelopt config whose quant_algo holds NVFP4/FP4 WHATEVER the user "
    "asked, and _verify_quantization then sets self.quantization to the override, so 'fp8' vs the config never "
    "compares (no log line says so; the 'non-default args' line shows quantization 'fp8', the engine config "
    "quantization=modelopt_fp4); WARNING 'Detected ModelOpt NVFP4 checkpoint (quant_algo=NVFP4). Please note that the "
    "format is experimental ...'; NVFP4 on SM90: MarlinNvFp4LinearKernel (init_nvfp4_linear_kernel; CUTLASS NVFP4 "
    "needs SM100) with the 'Your GPU does not have native support for FP4 computation ...' WARNING, the dummy-weight "
    "global-scale WARNINGs as fresh-359 e06; 200 (expected none)",
    "e03": "refused at config as e01: 'Quantization method specified in the model config (compressed-tensors) does not "
    "match the quantization method specified in the `quantization` argument (fp8).' (W8A8 FP8 channel/token config)",
    "e04": "refused at config as e01 and e03 (W8A8 INT8 channel/token config): '... model config (compressed-tensors) "
    "does not match ... `quantization` argument (fp8).'",
    "e05": "fails in the engine core at model init (layer 0's Attention.__init__ -> get_attn_backend -> "
    "CudaPlatform.get_attn_backend_cls, platforms/cuda.py): v1/attention/backends/flashinfer.py imports flashinfer at "
    "module level, the kit has no flashinfer, the ImportError is caught and reported as ValueError 'Selected backend "
    "AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: [\'ImportError\']' (no fallback "
    "for an explicitly selected backend), then 'Engine core initialization failed'; the block-fp8 Linear layers of "
    "layer 0 were created before it (CUTLASS block fp8, DeepGEMM off); if flashinfer were importable it would serve",
    "e06": "refused at config: the GPTQ config (desc_act true) with --quantization awq: auto_gptq's override accepts "
    "only gptq / gptq_marlin / auto_gptq / marlin, auto_awq's only an awq config, moe_wna16 only a user "
    "'moe_wna16': ValueError 'Quantization method specified in the model config (gptq) does not match the quantization "
    "method specified in the `quantization` argument (awq).'",
    "e07": "at config the 8-bit bitsandbytes WARNING 'CUDA graph is not supported on BitsAndBytes 8bit yet, fallback "
    "to the eager mode.' (_verify_bnb_config) and load_format forced to bitsandbytes; then fails in the engine core at "
    "model init, at layer 0's qkv_proj BEFORE any Attention: BitsAndBytesLinearMethod's version check raises "
    "ImportError 'Please install bitsandbytes>=0.48.1 via `pip install bitsandbytes>=0.48.1` to use bitsandbytes "
    "quantizer.' (bitsandbytes not in the kit; fresh-359 e07 showed this on the device); the FLASHINFER choice is "
    "never reached; 'Engine core initialization failed'",
    "e08": "refused at VllmConfig in the API process (_get_quantization_config -> get_quant_config, "
    "model_loader/weight_utils.py): the float16 llama has no quantization_config, so awq's config is looked for in "
    "the folder's quantize_config.json / quant_config.json: ValueError 'Cannot find the config file for awq'; no "
    "engine core, rc 1",
    "e09": "fails in the engine core at model init as e05 ('Selected backend AttentionBackendEnum.FLASHINFER is not "
    "valid for this configuration. Reason: [\'ImportError\']'), after layer 0's W8A8 INT8 Linear layers were "
    "created (CompressedTensorsW8A8Int8, CUTLASS int8)",
    "e10": "fails in the engine core at model init as e05, after layer 0's W8A8 FP8 channel/token Linear layers were "
    "created (CompressedTensorsW8A8Fp8)",
    "e11": "the config's 'Detected ModelOpt NVFP4 checkpoint' WARNING, then fails in the engine core at model init as "
    "e05 (FLASHINFER: ImportError); the NVFP4 kernel is chosen at layer creation (Marlin on SM90) but its 'does not "
    "have native support for FP4' WARNING (process_weights_after_loading) is never reached",
    "e12": "fails in the engine core at model init as e05, at the cut Qwen3.5's FIRST full-attention layer (layer 3; "
    "layers 0-2 are GDN linear attention with their own backend, their W4A4 NVFP4 Linear layers created with the "
    "Marlin kernel, which checks no shape before loading): 'Selected backend AttentionBackendEnum.FLASHINFER is not "
    "valid for this configuration. Reason: [\'ImportError\']'; the Marlin repack of the W4A4 weights (after loading) "
    "is never reached; start ~60-100 s",
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    qs = r.sample(LEFT_Q, 8) + r.sample(LEFT_Q, 4)
    first, out = {}, []
    for q, qc in qs:
        if (q, qc) in first:
            s, sc = [p for p in LEFT_S if p != first[(q, qc)]][0]
        else:
            s, sc = first[(q, qc)] = r.choice(LEFT_S)
        out.append((q, qc, s, sc))
    assert len({(q, qc, s, sc) for q, qc, s, sc in out}) == N
    return out


def make_case(i, q, qc, s, sc):
    c = U.make_case(i, q, qc, s, sc)
    old = c["args"][0]
    new = old.replace("/f319-", "/f379-", 1)
    c["args"][0] = new
    c["steps"][0]["body"]["model"] = new
    c["timeout"] = TIMEOUT_QWEN35 if c["model_key"].startswith("qwen35") else TIMEOUT_OTHER
    c["need"] = NEED
    c.pop("expect_drawn", None)  # fresh-319's expectation for ITS e-number: not this case's
    if f"e{i:02d}" in EXPECTED_DRAWN:
        c["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return c


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    order = [k for k in cases if cases[k]["model_key"].startswith("qwen35")]
    order += [k for k in cases if k not in order]
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-379 doctor-corpus cases (tools/gpu_fresh379_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95, two waves). A re-draw over "
        "fresh-319's universe, fresh-319's and fresh-359's drawn pairs skipped: see the draw script's docstring. "
        "'models': python3 tools/gpu_fresh379_draw.py --models .gpu/models writes them."
    )
    skip = {"checkpoint": sorted(map(list, SKIP_Q)), "setting": sorted(map(list, SKIP_S))}
    return {"why": why, "seed": SEED, "universe": len(LEFT_Q) * len(LEFT_S), "skip": skip, "order": order,
            "models": models, "cases": cases}  # fmt: skip


def time_estimate(out, other_s):
    """The driver's start rule, simulated: each case lasts its model's start + 8 s of steps, capped at its timeout."""
    running, clock, end, starts = [], 0.0, 0.0, []
    for k in out["order"]:
        c = out["cases"][k]
        while True:
            running = [r for r in running if r[0] > clock]
            if not running or (len(running) < 8 and sum(m for _, m in running) + c["mem"] <= 0.95):
                break
            clock = min(t for t, _ in running)
        dur = min((other_s + 40 if c["model_key"].startswith("qwen35") else other_s), c["timeout"]) + 8
        running.append((clock + dur, c["mem"]))
        starts.append(f"{k}@{clock:.0f}")
        end = max(end, clock + dur)
        clock += 1
    return round(end), starts


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], U.FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    print(len(SKIP_Q), "checkpoint pairs and", len(SKIP_S), "setting pairs skipped; left:", LEFT_Q, LEFT_S)
    for k in out["order"]:
        c = out["cases"][k]
        print(
            k, c["draw"], "|", " ".join(c["args"]), c["env"] or "", "mem", c["mem"], "timeout", c["timeout"]
        )
    print(
        "mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; models", len(out["models"])
    )
    print(
        "heaviest 8 side by side:",
        round(sum(sorted((c["mem"] for c in out["cases"].values()), reverse=True)[:8]), 2),
    )
    for q in (90, 130, 195):
        end, starts = time_estimate(out, q)
        print(f"starts of {q} s (qwen3.5 +40): done at ~{end} s; starts", " ".join(starts))
        assert end <= 450, end
    print("order:", " ".join(out["order"]))
