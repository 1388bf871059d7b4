"""Draw the fresh-30 H200 cases (features users switch on) by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh30_draw.py MODELS_DIR
Writes tools/gpu-fresh30-cases.json (cases for tools/gpu_serve_requests.py, run by tools/gpu-go.sh on the H200).

The draw (Python's random.Random(2030)), FEATURES and their VALUES fixed below before it ran:
  MODELS = fresh-24's: the unedited public config.json files in MODELS_DIR whose bf16 dummy weights fit beside the
  other cases on one H200 (llama-3.1-70b left out: ~141 GB; the hand-edited copies of earlier batches left out).
  14 times: model = r.choice(MODELS); feature = r.choice(sorted(FEATURES)); value = r.choice(FEATURES[feature]);
  a (model, feature) pair drawn again is drawn anew. The value's flags are added to the common start line (the
  --max-model-len feature replaces the common 4096). Every server gets one request once it is up.
  2 healthy starts (fixed, not drawn): the first two distinct models of the draw, each with settings that print
  alarming-looking warnings on a working server (an fp8 KV cache with no scales in the checkpoint; a KV cache too
  small for the requests sent at once, so requests wait), under a load of requests at once.
"""

import json
import os
import random
import sys

OUT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-fresh30-cases.json")
SEED = 2030
GiB = 1 << 30
MODELS = ["deepseek-v2-lite", "gemma-3-1b", "llama-3.1-8b", "qwen2.5-7b", "qwen3-8b"]
MEM = {
    "deepseek-v2-lite": 0.3,
    "gemma-3-1b": 0.035,
}  # share of the GPU each server asks of the driver; else 0.14
SPEC = [
    {"method": "ngram", "num_speculative_tokens": 4},
    {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4},
    {"model": ".gpu/models/gemma-3-1b", "num_speculative_tokens": 4},
    {"method": "eagle", "num_speculative_tokens": 3},
    {"method": "mtp", "num_speculative_tokens": 1},
    {"method": "ngram", "num_speculative_tokens": 0, "prompt_lookup_max": 4},
    {"method": "ngram", "num_speculative_tokens": 20, "prompt_lookup_max": 4},
]
YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
# value = (flags, env); "MAX" / "2MAX" stand for the model's max_position_embeddings (and twice it)
FEATURES = {
    "quantization": [(["--quantization", q], {}) for q in
                     ["fp8", "awq", "gptq", "bitsandbytes", "gguf", "compressed-tensors", "experts_int8"]],
    "kv-cache-dtype": [(["--kv-cache-dtype", d], {}) for d in ["fp8", "fp8_e5m2", "fp8_e4m3", "int8", "auto"]],
    "speculative-config": [(["--speculative-config", json.dumps(s)], {}) for s in SPEC],
    "lora": [(["--enable-lora", "--max-lora-rank", str(r), "--max-loras", "4"], {}) for r in [8, 64, 300]],
    "prefix-caching": [(["--enable-prefix-caching"], {}), (["--no-enable-prefix-caching"], {})],
    "chunked-prefill": [(["--enable-chunked-prefill", "--max-num-batched-tokens", str(n)], {})
                        for n in [16, 2048, 10**6]],
    "max-model-len": [(["--max-model-len", v], {}) for v in ["1024", "MAX", "2MAX", "1000000"]],
    "parallel": [(["--tensor-parallel-size", "2"], {}), (["--pipeline-parallel-size", "2"], {})],
    "cpu-offload-gb": [(["--cpu-offload-gb", g], {}) for g in ["4", "1000"]],
    "enforce-eager": [(["--enforce-eager"], {})],
    "compilation": [(["-O0"], {}), (["-O3"], {}), (["--compilation-config", "3"], {}),
                    (["--compilation-config", '{"cudagraph_mode":"FULL"}'], {})],
    "attention-backend": [(["--attention-backend", b], {}) for b in
                          ["FLASH_ATTN", "FLASHINFER", "TRITON_ATTN", "XFORMERS", "FLASHMLA"]]
                         + [([], {"VLLM_ATTENTION_BACKEND": b}) for b in
                            ["FLASH_ATTN", "FLASHINFER", "TRITON_ATTN", "XFORMERS", "FLASHMLA"]],
    "dtype": [(["--dtype", d], {}) for d in ["float16", "bfloat16", "float32", "half"]],
    "max-num-seqs": [(["--max-num-seqs", n], {}) for n in ["0", "1", "100000"]],
    "rope": [(["--rope-scaling", json.dumps(YARN)], {}),
             (["--hf-overrides", json.dumps({"rope_scaling": YARN})], {}),
             (["--hf-overrides", json.dumps({"rope_scaling": {"rope_type": "linear", "factor": 2.0}})], {}),
             (["--hf-overrides", json.dumps({"rope_theta": 1000000})], {})],
    "generation-config": [(["--generation-config", g], {}) for g in ["auto", "vllm", "/models/generation-config"]],
    "tokenizer-mode": [(["--tokenizer-mode", m], {}) for m in ["auto", "slow", "mistral"]],
    "structured-outputs": [(["--guided-decoding-backend", "xgrammar"], {}),
                           (["--guided-decoding-backend", "outlines"], {}),
                           (["--structured-outputs-config", '{"backend":"guidance"}'], {}),
                           (["--structured-outputs-config", '{"backend":"lm-format-enforcer"}'], {}),
                           (["--structured-outputs-config", '{"backend":"outlines"}'], {})],
}  # fmt: skip


def serve(model, extra=(), kv=GiB, max_len="4096"):
    base = [model, "--skip-tokenizer-init", "--load-format", "dummy", "--gpu-memory-utilization", "0.05",
            "--kv-cache-memory", str(kv)]  # fmt: skip
    if "--max-model-len" not in extra:
        base += ["--max-model-len", max_len]
    return base + list(extra)


def one_request(model):
    return [{"post": "/v1/completions", "body": {"model": model, "prompt_len": 50, "max_tokens": 32}}]


def load(model, n, prompt_len, max_tokens, wait):
    body = {"model": model, "prompt_len": prompt_len, "max_tokens": max_tokens, "ignore_eos": True}
    return [{"post": "/v1/completions", "body": body, "bg": True} for _ in range(n)] + [{"sleep": wait}]


def mem(model, flags):
    share = MEM.get(model, 0.14)
    if "float32" in flags:
        share *= 2
    return share


def draw(models_dir):
    r = random.Random(SEED)
    seen, cases, order = set(), {}, []
    while len(order) < 14:
        model = r.choice(MODELS)
        feature = r.choice(sorted(FEATURES))
        flags, env = r.choice(FEATURES[feature])
        if (model, feature) in seen:
            continue
        seen.add((model, feature))
        mx = json.load(open(os.path.join(models_dir, model, "config.json")))["max_position_embeddings"]
        flags = [str(mx) if f == "MAX" else str(2 * mx) if f == "2MAX" else f for f in flags]
        path = f".gpu/models/{model}"
        i = len(order) + 1
        key = f"d{i:02d}"
        cases[key] = {"args": serve(path, flags), "env": env, "timeout": 330, "need": 120, "mem": mem(model, flags),
                      "steps": one_request(path), "model": model, "feature": feature,
                      "draw": f"draw {i}: {model} {feature}: {' '.join(flags)} {json.dumps(env) if env else ''}".strip()}  # fmt: skip
        order.append(key)
    firsts = list(dict.fromkeys(cases[k]["model"] for k in order))[:2]
    a, b = (f".gpu/models/{m}" for m in firsts)
    cases["h1"] = {"args": serve(a, ["--kv-cache-dtype", "fp8"]), "env": {}, "timeout": 330, "need": 150,
                   "mem": MEM.get(firsts[0], 0.14), "steps": load(a, 16, 300, 200, 40), "linger": 10,
                   "model": firsts[0], "feature": "healthy",
                   "draw": f"healthy 1: {firsts[0]}, fp8 KV cache (no scales in the checkpoint), 16 requests of 300+200 tokens at once"}  # fmt: skip
    cases["h2"] = {"args": serve(b, kv=GiB // 2, max_len="2048"), "env": {}, "timeout": 330, "need": 150,
                   "mem": MEM.get(firsts[1], 0.14), "steps": load(b, 32, 300, 400, 50), "linger": 10,
                   "model": firsts[1], "feature": "healthy",
                   "draw": f"healthy 2: {firsts[1]}, 0.5 GiB KV cache, 32 requests of 300+400 tokens at once (requests wait)"}  # fmt: skip
    heavy = sorted(order + ["h1", "h2"], key=lambda k: -cases[k]["mem"])
    why = ("fresh-30 doctor-corpus cases (tools/gpu_fresh30_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, via ../shared/gpu). Drawn, not chosen: see the draw "
           "script's docstring. Every server runs --skip-tokenizer-init with dummy weights, --kv-cache-memory and "
           "utilization 0.05 (as fresh-21/24), and gets one request (or the load) once it is up.")  # fmt: skip
    return {"why": why, "seed": SEED, "order": heavy, "cases": cases}


if __name__ == "__main__":
    out = draw(sys.argv[1])
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        print(k, out["cases"][k]["draw"])
