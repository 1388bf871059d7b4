"""Draw the fresh-359 GPU cases: WILL THIS CHECKPOINT LOAD ON THIS GPU, ROUND 2: a RE-DRAW over fresh-319's universe
(a published checkpoint's config.json cut to 2 layers (4 text layers for the deployment's Qwen3.5-27B) carrying a
DRAWN quantization_config or torch_dtype, started with ONE DRAWN serve setting: --quantization, --dtype,
--kv-cache-dtype fp8 kinds, the attention backend, eager / compilation; real vLLM 0.26.0 `vllm serve`, torch
2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, --skip-tokenizer-init), with a new seed and fresh-319's
drawn cases excluded. Sampled, not chosen.

Usage: python3 tools/gpu_fresh359_draw.py                  writes tools/gpu-fresh359-cases.json and prints the draw
       python3 tools/gpu_fresh359_draw.py --draw-only      prints the draw and the memory / time figures, writes nothing
       python3 tools/gpu_fresh359_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh359-cases.json LEFT 8 0.95
       <the file's "order">
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running
cases' "mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its
"need" is skipped; a case's deadline is min(TOTAL end, its start + its "timeout").)

THE UNIVERSE is fresh-319's, IMPORTED from tools/gpu_fresh319_draw.py unchanged: CHECKPOINTS (9 conditions Q1-Q9, each
class's model key, config edits, method and EXPECT written by gpu319 before its draw from vLLM 0.26.0's source),
SETTINGS (5 conditions S1-S5, each class's flags and EXPECT), MODEL (the cut checkpoints, their U, base flags and env),
FLAGS (the base), MATCH / CONFLICT (the fixed --quantization rule), make_case (a drawn flag the base carries replaces
it; ("ENV", K, V) adds a variable; llama with float32 gets U 0.11). Its docstring says what each model is, what fits
side by side and why.
SOURCES READ for this draw: tools/gpu_fresh319_draw.py and tools/gpu-fresh319-cases.json; the manifest's batch
"fresh-319" HEADER (what happened on the device: 7 up, 5 refused; W4A16 on Machete; auto_awq / auto_gptq names; not
its logs); tools/gpu_fresh348_draw.py / gpu_fresh349_draw.py and the fresh-348/349 headers (a TOTAL too short for a
third wave lost 5 cases in fresh-349: hence the two-wave bound below); tools/gpu_serve_requests.py (the start rule,
deadlines); vLLM 0.26.0's own source from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_
x86_64.whl, unzipped into /tmp/gpu359) for the EXPECTED below. Not read: doctor, its knowledge, tests/test_doctor*,
any batch's logs.
EARLIER GPU MAKERS: as listed in fresh-319's docstring (fresh-227/237, 242/257, 264, 302, 39/79), plus fresh-319
itself: its twelve cases are the SKIP below.

SKIP (fixed before the draw): fresh-319's twelve cases are in the corpus (manifest batch "fresh-319", all twelve made),
so on BOTH axes every (condition, class) pair that fresh-319 drew is skipped (read from tools/gpu-fresh319-cases.json,
its 'checkpoint'/'checkpoint_class' and 'serve_setting'/'serve_class' fields):
  checkpoint pairs (9): Q1 static, Q2 block-64x64, Q3 W4A16-int4-g128, Q4 deployment-qwen3.5, Q5 published,
    Q6 storage-bfloat16, Q7 gpt-oss-20b-published, Q8 W4A8_AWQ, Q9 null;
  setting pairs (9): S1 matching, S1 fp8_per_tensor, S2 bfloat16, S2 float32, S3 fp8_e4m3, S4 FLASH_ATTN,
    S4 env-VLLM_ATTENTION_BACKEND-FLASHINFER, S5 O3, S5 enforce-eager.
Left: 20 checkpoint classes (every condition keeps at least one: Q7 only on-dense-llama), 7 setting classes (S1
conflicting, S2 float16, S3 fp8 / fp8_e5m2, S4 TRITON_ATTN / FLASHINFER, S5 cudagraph_mode-FULL). So no case of
fresh-319 can come again, and no checkpoint class it ran; setting classes repeat within this batch (7 for 12 cases),
each over a different checkpoint.

THE DRAW (fixed before it ran): r = random.Random(2359); qs = r.sample(sorted(CHECKPOINTS), 9) +
r.sample(sorted(CHECKPOINTS), 3) (every checkpoint condition once, three twice: fresh-319's rule); then per case in
that order: its class = r.choice(its classes not skipped); s = r.choice(sorted(SETTINGS)); its class = r.choice(its
classes not skipped). A (checkpoint class, setting class) pair drawn twice in this batch is kept (said so), not
redrawn. Nothing is redrawn; a case that cannot be made is said so, not replaced. "order" = the cut Qwen3.5 cases
(draw order), then the others (draw order).

BASE (fresh-319's): `vllm serve .gpu/models/<folder> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization U` (+ for the cut Qwen3.5 --language-model-only
--gdn-prefill-backend triton --max-num-seqs 64; VLLM_USE_DEEP_GEMM=0 for the block-fp8 checkpoint), the drawn flags
appended. Every server that comes up gets one POST /v1/completions, 50 token ids, max_tokens 16. Model folders are
named f359-<model key>-<class> (fresh-319's names with 359, so a warm device's f319 folders are never reused).

MEMORY BOUND BY CONSTRUCTION: every case's "mem" is its model's U (0.07-0.11: fresh-319's figures, a fixed 1 GiB KV
budget, no profiling a neighbour could move); 8 x 0.11 = 0.88 <= 0.95, so ANY 8 cases fit side by side and the
driver's only limit is PARALLEL 8: the first 8 of "order" start at once (wave 1), the other 4 as wave-1 cases end
(wave 2). Fresh-319's run on an H100 showed the same figures holding (12 cases, 8 at once, no memory failure).
TIME, TWO WAVES BY CONSTRUCTION: "timeout" (to be ready) 240 for the cut Qwen3.5 (always in wave 1: "order" puts it
first and at most 8 exist), 195 for the others; "need" 150. Worst case: a wave-2 case starts when the first wave-1
case ends (<= 195 s + its request (<= 120 s only if a server hangs on a reply; ~2 s seen) + 2 s), and lasts <= 195 s
+ its request: ~400-450 s; fresh-319's real figures were refusals in 26-76 s, ready in 72-111 s (qwen3.5 cut
208 s, gpt-oss 171 s) with 8 starting together, all 12 done by ~210 s. The go call's TOTAL 545 leaves ~490 s after the kit's setup
(35-55 s), so LEFT - need (~340 s) is never the limit for a wave-2 start. --draw-only prints a rolling simulation of
the start rule at 90 and 130 s starts (Qwen3.5 +40 s).

THE DRAW GAVE (printed by --draw-only after the tool's procedure was committed in 3d3366bb; nothing changed after it
but EXPECTED_DRAWN and this paragraph): every checkpoint condition once, Q1, Q4 and Q8 twice; no cut Qwen3.5 (Q3's
w4a4-deployment-qwen3.5 class not drawn); 12 model folders, none shared; settings S2 float16 x4 (e01, e05, e06, e07),
S5 cudagraph_mode-FULL x3 (e03, e08, e09), S3 fp8_e5m2 x2 (e10, e12), S4 TRITON_ATTN x2 (e02, e04), S3 fp8 x1 (e11);
S1 conflicting and S4 FLASHINFER not drawn. No (checkpoint class, setting class) pair twice. Mems sum to 0.94 (the
heaviest 8: 0.66); "order" = e01 .. e12 (no Qwen3.5). Simulated: all 12 end by ~199 s at 90 s starts, ~279 s at 130 s,
~409 s if every case ran to its 195 s timeout (8 at once, then 4).
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
OUT_JSON = os.path.join(HERE, "gpu-fresh359-cases.json")
SEED = 2359
N = 12
CHECKPOINTS, SETTINGS = U.CHECKPOINTS, U.SETTINGS
TIMEOUT_QWEN35, TIMEOUT_OTHER, NEED = 240, 195, 150


def kept_319():
    with open(os.path.join(HERE, "gpu-fresh319-cases.json")) as f:
        cases = json.load(f)["cases"]
    q = {(c["checkpoint"], c["checkpoint_class"]) for c in cases.values()}
    s = {(c["serve_setting"], c["serve_class"]) for c in cases.values()}
    assert len(cases) == 12 and all(k in CHECKPOINTS and v in CHECKPOINTS[k] for k, v in q), q
    assert all(k in SETTINGS and v in SETTINGS[k] for k, v in s), s
    return q, s


SKIP_Q, SKIP_S = kept_319()
LEFT_Q = {k: [c for c in v if (k, c) not in SKIP_Q] for k, v in CHECKPOINTS.items()}
LEFT_S = {k: [c for c in v if (k, c) not in SKIP_S] for k, v in SETTINGS.items()}
assert all(LEFT_Q.values()) and all(LEFT_S.values())

EXPECTED_DRAWN = {  # written after the draw was printed (--draw-only), before anything ran; 0.26.0's source as cited
    "e01": "healthy: the float32 config served in float16 (config/model.py: INFO 'Downcasting torch.float32 to "
    "torch.float16.'), FA3; 200",
    "e02": "healthy: published 128x128 block fp8 with fp16 activations (CutlassFp8BlockScaledMMKernel on SM90, "
    "DeepGEMM off; Triton block kernel otherwise), the Triton attention backend as asked; 200",
    "e03": "healthy: fp8 per-tensor dynamic with layer 0's down_proj left in bf16; cudagraph_mode FULL is taken as "
    "is (FlashAttention 3's cudagraph support is ALWAYS, flash_attn.py); 200",
    "e04": "healthy: ModelOpt FP8 (a 'Detected ModelOpt fp8 checkpoint' WARNING possible) on TRITON_ATTN with the "
    "auto KV dtype (no query quantization); 200",
    "e05": "refused at config (VllmConfig, before the engine core): gptq is overridden to auto_gptq, whose TYPE_MAP has "
    "only (4, True) and (8, True): ValueError 'Unsupported quantization config: bits=4, sym=False' "
    "(auto_gptq.py); 0.26 keeps no non-Marlin GPTQ method to fall back to; --dtype float16 never reached",
    "e06": "healthy with a WARNING: NVFP4 W4A4 on SM90 has no native kernel (CUTLASS NVFP4 needs SM100, FlashInfer "
    "not in the kit): MarlinNvFp4LinearKernel, 'Your GPU does not have native support for FP4 computation but FP4 "
    "quantization is being used. Weight-only FP4 compression will be used leveraging the Marlin kernel.'; fp16 as "
    "asked; 200",
    "e07": "fails in the engine core at model init: a bitsandbytes config forces load_format bitsandbytes over dummy "
    "(arg_utils.py), and BitsAndBytesLinearMethod's _check_bitsandbytes_version raises ImportError 'Please install "
    "bitsandbytes>=0.48.1 via `pip install bitsandbytes>=0.48.1` to use bitsandbytes quantizer.' (the package is "
    "not in the kit); if the device's Python had it, the bitsandbytes loader would find no weight files instead",
    "e08": "healthy, silently unquantized: Mxfp4Config gives every Linear UnquantizedLinearMethod (DEBUG only), no "
    "RoutedExperts in a dense llama; bf16 (mxfp4's only act dtype) from the config; FULL graphs on FA3; 200",
    "e09": "likely healthy, silently unoptimized: zero_point false gives uint4 without zero points, not a Marlin type "
    "(marlin_utils: uint4 only WITH zero points), so auto_awq returns AutoAWQLinearMethod (awq_gemm / "
    "awq_dequantize) with no log line; the qzeros are still created and dummy-filled; FULL graphs on FA3; 200",
    "e10": "fails in the engine core at the first forward (profile / compile run): FA3 takes fp8 / fp8_e4m3 KV only, "
    "so the selector picks TRITON_ATTN (which lists fp8_e5m2); on CUDA the Triton impl supports query "
    "quantization, Attention.__init__ sets query_quant for any 'fp8*' KV dtype, and Attention.forward's "
    "'assert self.kv_cache_dtype in {\"fp8\", \"fp8_e4m3\", \"nvfp4\"}' fails for fp8_e5m2 (under torch.compile "
    "reported by Dynamo as a data-dependent assertion), as fresh-348 e07 on the cut qwen3.5; 'Engine core "
    "initialization failed'",
    "e11": "healthy: fp8 per-tensor dynamic with an fp8 (e4m3) KV cache on FA3, the 'Using KV cache scaling factor "
    "1.0 for fp8_e4m3' WARNING (kv_cache.py); 200",
    "e12": "fails as e10: the explicit --kv-cache-dtype fp8_e5m2 wins over the config's kv_cache_quant_algo FP8 "
    "(resolve_kv_cache_dtype_string reads the config only for 'auto'), FA3 refuses e5m2, TRITON_ATTN is picked "
    "and the first forward fails on the e4m3-only query-quant assertion",
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    qs = r.sample(sorted(CHECKPOINTS), 9) + r.sample(sorted(CHECKPOINTS), 3)
    out = []
    for q in qs:
        qc = r.choice(LEFT_Q[q])
        s = r.choice(sorted(SETTINGS))
        sc = r.choice(LEFT_S[s])
        out.append((q, qc, s, sc))
    return out


def make_case(i, q, qc, s, sc):
    c = U.make_case(i, q, qc, s, sc)
    old = c["args"][0]
    new = old.replace("/f319-", "/f359-", 1)
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
        "fresh-359 doctor-corpus cases (tools/gpu_fresh359_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95). A re-draw over "
        "fresh-319's universe, fresh-319's drawn pairs skipped: see the draw script's docstring. 'models': "
        "python3 tools/gpu_fresh359_draw.py --models .gpu/models writes them."
    )
    skip = {"checkpoint": sorted(map(list, SKIP_Q)), "setting": sorted(map(list, SKIP_S))}
    return {"why": why, "seed": SEED, "universe": len(CHECKPOINTS) + len(SETTINGS), "skip": skip, "order": order,
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
    print(len(SKIP_Q), "checkpoint pairs and", len(SKIP_S), "setting pairs skipped;",
          sum(map(len, LEFT_Q.values())), "checkpoint classes and", sum(map(len, LEFT_S.values())), "setting classes left")  # fmt: skip
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
    print("order:", " ".join(out["order"]))
