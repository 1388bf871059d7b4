"""Draw the fresh-34 H200 cases (memory and sizing) by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh34_draw.py MODELS_DIR
Writes tools/gpu-fresh34-cases.json (cases for tools/gpu_fresh34_drive.py, run by tools/gpu-go.sh on the H200).

The draw (Python's random.Random(2034)); MODELS, KNOBS and their VALUES fixed below before it ran:
  MODELS = the unedited public config.json files in MODELS_DIR, the 70B included (the hand-edited copies of earlier
  batches left out). Every server starts as a user types it: `vllm serve MODEL --skip-tokenizer-init --load-format
  dummy` (no weights, no tokenizer on the device) plus a per-model --gpu-memory-utilization BASE (the share a user
  sharing the GPU gives it, so small models run side by side; the 70B gets none: vLLM's default 0.9) and no
  --max-model-len (the model's own), then the knob's flags (a knob naming a flag replaces that base flag).
  14 times: model = r.choice(MODELS); knob = r.choice(sorted(KNOBS)); value = r.choice(KNOBS[knob]); the knobs
  "dtype-float32-70b" and "load-70b-tp1" name their model (the 70B) in place of the drawn one; a (model, knob) pair
  drawn again is drawn anew. "MAX" / "4MAX" stand for the model's max_position_embeddings (and 4x it). The
  "second-engine" knob first starts the same model at --gpu-memory-utilization 0.8, waits until it serves, then
  starts the case at 0.5. Every server that comes up gets one request.
  2 healthy starts (fixed, not drawn): the first two distinct models of the draw, each with a memory setting that
  prints an alarming-looking WARNING on a working server (--max-model-len 2x its max with
  VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0), and one request.
"""

import json
import os
import random
import sys

OUT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-fresh34-cases.json")
SEED = 2034
MODELS = ["deepseek-v2-lite", "gemma-3-1b", "llama-3.1-70b", "llama-3.1-8b", "qwen2.5-7b", "qwen3-8b"]
BASE = {
    "deepseek-v2-lite": 0.35,
    "gemma-3-1b": 0.1,
    "llama-3.1-8b": 0.3,
    "qwen2.5-7b": 0.25,
    "qwen3-8b": 0.25,
}
BIG = "llama-3.1-70b"
KV_FLAGS = ["--kv-cache-memory-bytes", "--kv-cache-memory"]
KNOBS = {
    "gpu-memory-utilization": [["--gpu-memory-utilization", v] for v in ["0.05", "0.3", "0.95", "0.99", "1.0", "1.5"]],
    "max-model-len": [["--max-model-len", v] for v in ["MAX", "4MAX", "1000000", "128"]],
    "max-num-seqs": [["--max-num-seqs", v] for v in ["1", "1024", "4096"]],
    "max-num-batched-tokens": [["--max-num-batched-tokens", v] for v in ["64", "1000000"]],
    "kv-cache-memory": [[f, v] for f in KV_FLAGS for v in ["1G", "100G", "1"]],
    "cpu-offload-gb": [["--cpu-offload-gb", v] for v in ["0", "10", "500"]],
    "swap-space": [["--swap-space", v] for v in ["0", "64", "1000"]],
    "block-size": [["--block-size", v] for v in ["8", "16", "32", "256"]],
    "second-engine": [["--gpu-memory-utilization", "0.5"]],
    "enforce-eager": [["--enforce-eager", "--max-num-seqs", "1024"]],
    "dtype-float32-70b": [["--dtype", "float32"]],
    "load-70b-tp1": [["--tensor-parallel-size", "1"]],
}  # fmt: skip
FORCED = {"dtype-float32-70b": BIG, "load-70b-tp1": BIG}


def serve(model, extra=()):
    """The start line: the base, with a base flag the knob also names left out."""
    base = [f".gpu/models/{model}", "--skip-tokenizer-init", "--load-format", "dummy"]
    if model in BASE and "--gpu-memory-utilization" not in extra:
        base += ["--gpu-memory-utilization", str(BASE[model])]
    return base + list(extra)


def one_request(model):
    return [
        {
            "post": "/v1/completions",
            "body": {"model": f".gpu/models/{model}", "prompt_len": 50, "max_tokens": 32},
        }
    ]


def share(model, knob, flags):
    """The share of the GPU the driver books for a case; 1.0 = runs alone (it may take, or fight for, the GPU)."""
    if model == BIG or knob in ("second-engine", "max-num-batched-tokens"):
        return 1.0
    if knob == "gpu-memory-utilization" and float(flags[1]) >= 0.9:
        return 1.0
    if knob == "kv-cache-memory" and flags[1] == "100G":
        return 1.0
    if knob == "gpu-memory-utilization":
        return max(float(flags[1]), BASE[model]) + 0.05
    return BASE[model] + 0.05


def draw(models_dir):
    r = random.Random(SEED)
    seen, cases, order, raw = set(), {}, [], 0
    while len(order) < 14:
        raw += 1
        model = r.choice(MODELS)
        knob = r.choice(sorted(KNOBS))
        flags = r.choice(KNOBS[knob])
        model = FORCED.get(knob, model)
        if (model, knob) in seen:
            print(f"raw draw {raw}: {model} {knob} {' '.join(flags)} repeats a pair: drawn anew")
            continue
        seen.add((model, knob))
        mx = json.load(open(os.path.join(models_dir, model, "config.json")))["max_position_embeddings"]
        flags = [str(mx) if f == "MAX" else str(4 * mx) if f == "4MAX" else f for f in flags]
        i = len(order) + 1
        key = f"d{i:02d}"
        mem = round(share(model, knob, flags), 2)
        c = {"args": serve(model, flags), "env": {}, "timeout": 330, "need": 120, "mem": mem,
             "steps": one_request(model), "model": model, "knob": knob,
             "draw": f"draw {i} (raw {raw}): {model} {knob}: {' '.join(flags)}"}  # fmt: skip
        if knob == "second-engine":
            c["first"] = serve(model, ["--gpu-memory-utilization", "0.8"])
            c["draw"] += " (after the same model started at --gpu-memory-utilization 0.8 and serving)"
        cases[key] = c
        order.append(key)
    firsts = list(dict.fromkeys(cases[k]["model"] for k in order))[:2]
    a, b = firsts
    ma = json.load(open(os.path.join(models_dir, a, "config.json")))["max_position_embeddings"]
    cases["h1"] = {"args": serve(a, ["--max-model-len", str(2 * ma)]), "env": {"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "1"},
                   "timeout": 330, "need": 120, "mem": round(share(a, "healthy", []), 2), "steps": one_request(a),
                   "model": a, "knob": "healthy",
                   "draw": f"healthy 1: {a}, --max-model-len {2 * ma} (2x its max) with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"}  # fmt: skip
    cases["h2"] = {"args": serve(b), "env": {"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS": "0"},
                   "timeout": 330, "need": 120, "mem": round(share(b, "healthy", []), 2), "steps": one_request(b),
                   "model": b, "knob": "healthy",
                   "draw": f"healthy 2: {b}, VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 (CUDA graph memory not profiled)"}  # fmt: skip
    keys = order + ["h1", "h2"]
    heavy = sorted(keys, key=lambda k: cases[k]["mem"] < 1.0)  # the GPU-wide cases first, one at a time
    why = ("fresh-34 doctor-corpus cases (tools/gpu_fresh34_draw.py wrote this file; tools/gpu_fresh34_drive.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, via ../shared/gpu). Drawn, not chosen: see the draw "
           "script's docstring. Every server runs --skip-tokenizer-init with dummy weights and gets one request once "
           "it is up.")  # fmt: skip
    return {"why": why, "seed": SEED, "raw_draws": raw, "order": heavy, "cases": cases}


if __name__ == "__main__":
    out = draw(sys.argv[1])
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        print(k, out["cases"][k]["mem"], out["cases"][k]["draw"])
