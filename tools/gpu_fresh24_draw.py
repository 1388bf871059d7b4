"""Draw the fresh-24 H200 cases by a procedure fixed before anything ran, so the batch is sampled, not chosen.

Usage: python3 tools/gpu_fresh24_draw.py VLLM_026_ENVS_PY VLLM_032_ENVS_PY MODELS_DIR [CONFIG_OUT_DIR]
Writes tools/gpu-fresh24-cases.json (cases for tools/gpu_serve_requests.py); with CONFIG_OUT_DIR it also writes the
edited config.json copies there (.gpu/run/m24/ on this machine, carried to the device; never committed).

The draws (all with Python's random.Random(2028)):
  env:    NAMES = sorted keys of `environment_variables` in vLLM 0.32's envs.py that start with VLLM_ and are also
          keys in 0.26.0's envs.py (read from the device bundle's core.zip); Random(2028).sample(NAMES, 8).
          Each drawn name gets one wrong value by ENV_RULE (chosen after the draw from the name's parser in 0.26's
          envs.py, by the kind of value it reads), on an otherwise healthy gemma-3-1b server, one request sent.
  config: a fresh Random(2028); MODELS = the unedited public config.json files in MODELS_DIR whose bf16 dummy
          weights fit beside the other cases on one H200 (llama-3.1-70b left out: ~141 GB of weights; the four
          hand-edited copies of earlier batches left out: not public files). Six times: model = r.choice(MODELS);
          field = r.choice(sorted(top-level keys)); op = r.choice(OPS); a (model, field) pair drawn again is drawn
          anew. Values: wrong-type by WRONG_TYPE below; zero-or-negative = r.choice([0, -1]) whatever the type.
  healthy: two fixed cases, healthy servers under load whose logs carry alarming-looking lines (a KV cache full
          with requests waiting; fp8 KV cache's scaling-factor warning).
"""

import ast
import json
import os
import random
import sys

OUT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-fresh24-cases.json")
SEED = 2028
OPS = ["delete", "wrong-type", "zero-or-negative"]
MODELS = ["deepseek-v2-lite", "gemma-3-1b", "llama-3.1-8b", "qwen2.5-7b", "qwen3-8b"]
MEM = {
    "deepseek-v2-lite": 0.3,
    "gemma-3-1b": 0.035,
}  # share of the GPU each server asks of the driver; else 0.14
GiB = 1 << 30

# value per drawn env name (rule: misspelt choice / a word where a number is wanted / a path that does not exist);
# filled in after the draw from each name's parser in vLLM 0.26.0's envs.py (quoted after each value)
ENV_RULE = {
    "VLLM_IMAGE_FETCH_TIMEOUT": (
        "5s",
        "int(getenv(..., '5')): a word where a number is wanted (units added)",
    ),
    "VLLM_USE_AOT_COMPILE": ("true", "getenv(...) == '1': a word where 0/1 is wanted"),
    "VLLM_DISABLE_REQUEST_ID_RANDOMIZATION": (
        "true",
        "bool(int(getenv(..., '0'))): a word where 0/1 is wanted",
    ),
    "VLLM_ROCM_USE_AITER_FUSION_SHARED_EXPERTS": ("ture", "lower() in ('true', '1'): a misspelt choice"),
    "VLLM_ASSETS_CACHE": ("/mnt/models/vllm-assets", "expanduser(getenv(...)): a path that does not exist"),
    "VLLM_LOGGING_COLOR": ("always", "getenv(..., 'auto') compared with '0'/'1': a misspelt choice"),
    "VLLM_KEEP_ALIVE_ON_ENGINE_DEATH": ("yes", "bool(int(getenv(..., '0'))): a word where 0/1 is wanted"),
    "VLLM_ENABLE_V1_MULTIPROCESSING": ("false", "bool(int(getenv(..., '1'))): a word where 0/1 is wanted"),
}


def env_keys(path):
    """The keys of envs.py's `environment_variables` dict literal."""
    for node in ast.parse(open(path).read()).body:
        target = getattr(node, "target", None)
        if isinstance(target, ast.Name) and target.id == "environment_variables":
            return [k.value for k in node.value.keys]
    raise SystemExit(f"no environment_variables in {path}")


def wrong_type(value):
    """The same value in a type a hand edit plausibly gives it."""
    if isinstance(value, bool):
        return str(value).lower()  # "false" for false
    if isinstance(value, (int, float)):
        return str(value)  # a quoted number
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return value[0] if len(value) == 1 else ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)  # the block as a string
    return "none"  # null


def serve(model, extra=(), kv=GiB, max_len=4096):
    return [model, "--skip-tokenizer-init", "--load-format", "dummy", "--gpu-memory-utilization", "0.05",
            "--kv-cache-memory", str(kv), "--max-model-len", str(max_len), *extra]  # fmt: skip


def one_request(model):
    return [{"post": "/v1/completions", "body": {"model": model, "prompt_len": 50, "max_tokens": 32}}]


def load(model, n, prompt_len, max_tokens, wait):
    body = {"model": model, "prompt_len": prompt_len, "max_tokens": max_tokens, "ignore_eos": True}
    return [{"post": "/v1/completions", "body": body, "bg": True} for _ in range(n)] + [{"sleep": wait}]


def draw(envs26, envs32, models_dir, config_out=None):
    names = sorted(set(k for k in env_keys(envs32) if k.startswith("VLLM_")) & set(env_keys(envs26)))
    env_draw = random.Random(SEED).sample(names, 8)
    cases, order, edits = {}, [], {}
    gemma = ".gpu/models/gemma-3-1b"
    for i, name in enumerate(env_draw, 1):
        value, why = ENV_RULE[name]
        key = f"env{i}"
        cases[key] = {"args": serve(gemma), "env": {name: value}, "timeout": 330, "need": 120, "mem": 0.035,
                      "steps": one_request(gemma), "draw": f"env draw {i}: {name}={value!r} ({why})"}  # fmt: skip
        order.append(key)
    r = random.Random(SEED)
    seen = set()
    while len(edits) < 6:
        model = r.choice(MODELS)
        cfg = json.load(open(os.path.join(models_dir, model, "config.json")))
        field = r.choice(sorted(cfg))
        op = r.choice(OPS)
        if (model, field) in seen:
            continue
        seen.add((model, field))
        i = len(edits) + 1
        old = cfg[field]
        if op == "delete":
            del cfg[field]
            new = "(deleted)"
        else:
            new = wrong_type(old) if op == "wrong-type" else r.choice([0, -1])
            cfg[field] = new
        path = f".gpu/run/m24/{model}-c{i}"  # a neutral name: the model path is printed in the log
        edits[f"cfg{i}"] = (path, cfg)
        cases[f"cfg{i}"] = {"args": serve(path), "env": {}, "timeout": 330, "need": 120, "mem": MEM.get(model, 0.14),
                            "steps": one_request(path),
                            "draw": f"config draw {i}: {model} {field}: {json.dumps(old)} -> {op} {json.dumps(new)}"}  # fmt: skip
    llama, qwen = ".gpu/models/llama-3.1-8b", ".gpu/models/qwen2.5-7b"
    cases["load1"] = {"args": serve(llama, kv=GiB // 2, max_len=2048), "env": {}, "timeout": 330, "need": 150,
                      "mem": 0.14, "steps": load(llama, 48, 300, 400, 60), "linger": 12,
                      "draw": "healthy 1: llama-3.1-8b, 0.5 GiB KV cache (about 4k tokens), 48 requests of 300+400 tokens at once"}  # fmt: skip
    cases["load2"] = {"args": serve(qwen, ["--kv-cache-dtype", "fp8"]), "env": {}, "timeout": 330, "need": 150,
                      "mem": 0.14, "steps": load(qwen, 64, 500, 300, 45), "linger": 12,
                      "draw": "healthy 2: qwen2.5-7b, fp8 KV cache (no scales in the checkpoint), 64 requests of 500+300 tokens at once"}  # fmt: skip
    heavy = sorted((k for k in cases if k.startswith("cfg")), key=lambda k: -cases[k]["mem"])
    order = heavy + ["load1", "load2"] + order
    if config_out:
        for path, cfg in edits.values():
            d = os.path.join(config_out, os.path.basename(path))
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "config.json"), "w") as f:
                json.dump(cfg, f, indent=1)
    why = ("fresh-24 doctor-corpus cases (tools/gpu_fresh24_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, via ../shared/gpu). Drawn, not chosen: see the draw "
           "script's docstring. Every server runs --skip-tokenizer-init with dummy weights, --kv-cache-memory and "
           "utilization 0.05 (as fresh-21), and gets one request (or the load) once it is up.")  # fmt: skip
    return {"why": why, "names_count": len(names), "env_draw": env_draw, "order": order, "cases": cases}


if __name__ == "__main__":
    out = draw(*sys.argv[1:4], *(sys.argv[4:5] or [None]))
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        print(k, out["cases"][k]["draw"])
