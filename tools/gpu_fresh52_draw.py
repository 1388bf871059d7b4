"""Draw the fresh-52 H200 cases (the checkpoint's own files as users receive them) by a procedure fixed before anything
ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh52_draw.py [MODELS_DIR]
Writes tools/gpu-fresh52-cases.json (cases for tools/gpu_serve_requests.py, run by tools/gpu-go.sh on the H200) and,
given MODELS_DIR (on the device: .gpu/models), one folder per case, MODELS_DIR/f52-dNN/, holding the case's edited
config.json (and generation_config.json where the knob writes one). The edited files are also kept whole in the cases
JSON ("config", "generation_config"), so what the device read is committed.

The draw (Python's random.Random(2052)); MODELS, KNOBS and their VALUES fixed below before it ran:
  MODELS = four public config.json files, transcribed into tests/fixtures/checkpoints/ from the Hugging Face repos
  named in SOURCES (gemma-3-1b-it, Llama-3.1-8B-Instruct and Qwen2.5-7B-Instruct as fresh-39 used them, and
  Mistral-7B-v0.1).
  Each case takes one model's config.json and edits it ONE way, a way real checkpoints differ from what vLLM 0.26
  (transformers 5.17 on the device) expects: a config written by another transformers version, dtype forms, rope
  scaling forms, max_position_embeddings, another tool's quantization_config on dummy weights, architectures, the
  attention shape (head_dim, num_key_value_heads), vocab_size, sliding window / layer_types, generation_config.json.
  Every server starts as a user types it: `vllm serve MODEL_DIR --skip-tokenizer-init --load-format dummy` (no
  weights, no tokenizer on the device), vLLM's defaults otherwise (utilization 0.9, the model's own max length: the
  cases run one at a time).
  14 times: model = r.choice(MODELS); knob = r.choice(sorted(KNOBS)); value = r.choice(sorted(KNOBS[knob])); a (model,
  knob) pair drawn again is drawn anew. No case is fixed by hand: the healthy ones are the draws whose server comes up.
  Every server that comes up gets one request: POST /v1/completions, a 50-token prompt (token ids 1000..1049),
  max_tokens 32.
"""

import copy
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh52-cases.json")
CHECKPOINTS = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2052
MODELS = {"gemma-3-1b": "gemma-3-1b-it", "llama-3.1-8b": "llama-3.1-8b-instruct",
          "mistral-7b": "mistral-7b-v0.1", "qwen2.5-7b": "qwen2.5-7b-instruct"}  # fmt: skip
SOURCES = {
    "gemma-3-1b": "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)",
    "llama-3.1-8b": "huggingface.co/meta-llama/Llama-3.1-8B-Instruct (tests/fixtures/checkpoints/llama-3.1-8b-instruct/config.json)",
    "mistral-7b": "huggingface.co/mistralai/Mistral-7B-v0.1 (tests/fixtures/checkpoints/mistral-7b-v0.1/config.json)",
    "qwen2.5-7b": "huggingface.co/Qwen/Qwen2.5-7B-Instruct (tests/fixtures/checkpoints/qwen2.5-7b-instruct/config.json)",
}  # fmt: skip
FAMILY = {"gemma-3-1b": ("Gemma3", "Gemma4"), "llama-3.1-8b": ("Llama", "Llama5"),
          "mistral-7b": ("Mistral", "Mistral4"), "qwen2.5-7b": ("Qwen2", "Qwen4")}  # fmt: skip
COMPRESSED_TENSORS_W4A16 = {
    "quant_method": "compressed-tensors", "format": "pack-quantized", "quantization_status": "compressed",
    "config_groups": {"group_0": {"targets": ["Linear"], "input_activations": None, "output_activations": None,
                                  "weights": {"num_bits": 4, "type": "int", "symmetric": True, "strategy": "group",
                                              "group_size": 128, "dynamic": False, "actorder": None,
                                              "observer": "minmax", "observer_kwargs": {}}}},
    "ignore": ["lm_head"], "kv_cache_scheme": None, "global_compression_ratio": None, "sparsity_config": {},
}  # fmt: skip


# A value edits (config, generation_config) in place; generation_config starts as None (no file written).
def _unknown_fields(c, g, m):
    c.update({"transformers_version": "5.3.0", "use_kernels": True, "attn_implementation": "sdpa",
              "qk_layernorm_eps": 1e-06, "output_router_logits": False, "pad_head_dim_to_multiple_of": None})  # fmt: skip


def _rope_parameters(c, g, m):  # transformers 5 writes rope_theta and rope_scaling into one rope_parameters
    theta = c.pop("rope_theta", 10000.0)
    scaling = c.pop("rope_scaling", None) or {}
    if m == "gemma-3-1b":
        local = c.pop("rope_local_base_freq", 10000)
        c["rope_parameters"] = {"full_attention": {"rope_type": "default", "rope_theta": theta},
                                "sliding_attention": {"rope_type": "default", "rope_theta": local}}  # fmt: skip
    else:
        p = {"rope_type": "default", "rope_theta": theta}
        p.update(scaling)
        c["rope_parameters"] = p
    c["transformers_version"] = "5.3.0"


def _text_config(
    c, g, m
):  # the text model's fields nested under text_config, as multimodal-era exports write
    inner = {k: v for k, v in c.items() if k not in ("architectures", "transformers_version")}
    keep = {"architectures": c["architectures"], "model_type": c["model_type"], "text_config": inner,
            "transformers_version": "5.3.0"}  # fmt: skip
    c.clear()
    c.update(keep)


def _renamed_act(c, g, m):  # hidden_act <-> hidden_activation (Gemma's name vs the rest's)
    if "hidden_activation" in c:
        c["hidden_act"] = c.pop("hidden_activation")
    else:
        c["hidden_activation"] = c.pop("hidden_act")


def _set(key, value):
    def f(c, g, m):
        c[key] = value

    return f


def _drop(*keys):
    def f(c, g, m):
        for k in keys:
            c.pop(k, None)

    return f


def _dtype_key(c, g, m):
    c["dtype"] = c.pop("torch_dtype")


def _arch(kind):
    def f(c, g, m):
        a = c["architectures"][0]
        if kind == "future-class":
            c["architectures"] = [a.replace(FAMILY[m][0], FAMILY[m][1], 1)]
        elif kind == "two":
            c["architectures"] = [a, a.replace("ForCausalLM", "ForSequenceClassification")]
        elif kind == "base-model":
            c["architectures"] = [a.replace("ForCausalLM", "Model")]
        else:
            del c["architectures"]

    return f


def _shape(kind):
    def f(c, g, m):
        heads, hidden = c["num_attention_heads"], c["hidden_size"]
        natural = c.get("head_dim") or hidden // heads
        if kind == "head-dim-larger":
            c["head_dim"] = natural * 2
        elif kind == "head-dim-smaller":
            c["head_dim"] = natural // 2
        elif kind == "kv-heads-not-dividing":
            c["num_key_value_heads"] = 3 if heads == 4 else heads // 4 - 1
        else:  # more KV heads than attention heads
            c["num_key_value_heads"] = heads * 2

    return f


def _vocab(kind):
    def f(c, g, m):
        if kind == "odd":
            c["vocab_size"] = c["vocab_size"] + 1
        elif kind == "tiny":
            c["vocab_size"] = 1000
        else:
            del c["vocab_size"]

    return f


def _sliding(kind):
    def f(c, g, m):
        n = c["num_hidden_layers"]
        if kind == "string":
            c["sliding_window"] = str(c.get("sliding_window") or 4096)
        elif kind == "enabled-small":
            c["sliding_window"] = 64
            if "use_sliding_window" in c:
                c["use_sliding_window"] = True
        elif kind == "layer-types-short":
            c["layer_types"] = ["full_attention"] * (n - 2)
        else:  # an attention kind transformers 5 writes for other models
            c["layer_types"] = ["chunked_attention" if i % 4 == 3 else "full_attention" for i in range(n)]

    return f


def _gen(extra):
    def f(c, g, m):
        base = {"bos_token_id": c.get("bos_token_id"), "eos_token_id": c.get("eos_token_id"),
                "transformers_version": c.get("transformers_version")}  # fmt: skip
        base.update(extra)
        g.update(base)

    return f


KNOBS = {
    "newer-transformers": {"unknown-fields": _unknown_fields, "rope-parameters": _rope_parameters,
                           "text-config": _text_config, "renamed-act": _renamed_act},
    "dtype": {"float32": _set("torch_dtype", "float32"), "absent": _drop("torch_dtype"), "dtype-key": _dtype_key,
              "float8": _set("torch_dtype", "float8_e4m3fn")},
    "rope-scaling": {"type-linear": _set("rope_scaling", {"type": "linear", "factor": 2.0}),
                     "yarn-no-original": _set("rope_scaling", {"rope_type": "yarn", "factor": 4.0}),
                     "factor-string": _set("rope_scaling", {"rope_type": "dynamic", "factor": "2.0"}),
                     "llama3-partial": _set("rope_scaling", {"rope_type": "llama3", "factor": 8.0})},
    "max-position": {"small-512": _set("max_position_embeddings", 512), "absent": _drop("max_position_embeddings"),
                     "huge": _set("max_position_embeddings", 1000000000)},
    "quantization-config": {"compressed-tensors": _set("quantization_config", COMPRESSED_TENSORS_W4A16),
                            "fp8-bad-block": _set("quantization_config", {"quant_method": "fp8", "activation_scheme": "dynamic", "fmt": "e4m3", "weight_block_size": [128, 100]}),
                            "awq": _set("quantization_config", {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}),
                            "bitsandbytes": _set("quantization_config", {"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4", "bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_use_double_quant": True})},
    "architectures": {"future-class": _arch("future-class"), "two": _arch("two"), "absent": _arch("absent"),
                      "base-model": _arch("base-model")},
    "attention-shape": {"head-dim-larger": _shape("head-dim-larger"), "head-dim-smaller": _shape("head-dim-smaller"),
                        "kv-heads-not-dividing": _shape("kv-heads-not-dividing"),
                        "kv-heads-over-heads": _shape("kv-heads-over-heads")},
    "vocab": {"odd": _vocab("odd"), "tiny-1000": _vocab("tiny"), "absent": _vocab("absent")},
    "sliding-window": {"string": _sliding("string"), "enabled-small": _sliding("enabled-small"),
                       "layer-types-short": _sliding("layer-types-short"),
                       "layer-types-unknown": _sliding("layer-types-unknown")},
    "generation-config": {"temperature-string": _gen({"temperature": "0.7", "do_sample": True}),
                          "max-new-tokens-1": _gen({"max_new_tokens": 1}),
                          "eos-out-of-vocab": _gen({"eos_token_id": [2, 999999999]}),
                          "repetition-penalty-0": _gen({"repetition_penalty": 0.0})},
}  # fmt: skip


def base_config(model):
    with open(os.path.join(CHECKPOINTS, MODELS[model], "config.json")) as f:
        return json.load(f)


def draw():
    r = random.Random(SEED)
    seen, cases, order, raw = set(), {}, [], 0
    while len(order) < 14:
        raw += 1
        model = r.choice(sorted(MODELS))
        knob = r.choice(sorted(KNOBS))
        value = r.choice(sorted(KNOBS[knob]))
        if (model, knob) in seen:
            print(f"raw draw {raw}: {model} {knob} {value} repeats a pair: drawn anew")
            continue
        seen.add((model, knob))
        i = len(order) + 1
        key = f"d{i:02d}"
        cfg, gen = copy.deepcopy(base_config(model)), {}
        KNOBS[knob][value](cfg, gen, model)
        mdir = f".gpu/models/f52-{key}"
        cases[key] = {"args": [mdir, "--skip-tokenizer-init", "--load-format", "dummy"], "env": {}, "timeout": 240,
                      "need": 60, "mem": 1.0,
                      "steps": [{"post": "/v1/completions", "body": {"model": mdir, "prompt_len": 50, "max_tokens": 32}}],
                      "model": model, "knob": knob, "value": value, "config": cfg, "generation_config": gen or None,
                      "draw": f"draw {i} (raw {raw}): {model} {knob}: {value}"}  # fmt: skip
        order.append(key)
    why = ("fresh-52 doctor-corpus cases (tools/gpu_fresh52_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, one at a time, via ../shared/gpu). Drawn, not chosen: see "
           "the draw script's docstring. Each case's edited config.json (and generation_config.json) is kept whole "
           "here; every server runs --skip-tokenizer-init with dummy weights and gets one request once it is up.")  # fmt: skip
    return {"why": why, "seed": SEED, "raw_draws": raw, "sources": SOURCES, "order": order, "cases": cases}


def write_models(out, models_dir):
    for key in out["order"]:
        c = out["cases"][key]
        d = os.path.join(models_dir, f"f52-{key}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(c["config"], f, indent=2)
        if c["generation_config"]:
            with open(os.path.join(d, "generation_config.json"), "w") as f:
                json.dump(c["generation_config"], f, indent=2)


if __name__ == "__main__":
    out = draw()
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    if len(sys.argv) > 1:
        write_models(out, sys.argv[1])
    for k in out["order"]:
        print(k, out["cases"][k]["draw"])
