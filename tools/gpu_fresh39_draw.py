"""Draw the fresh-39 H200 cases (engine features and backends) by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh39_draw.py MODELS_DIR
Writes tools/gpu-fresh39-cases.json (cases for tools/gpu_serve_requests.py, run by tools/gpu-go.sh on the H200).

The draw (Python's random.Random(2039)); MODELS, KNOBS and their VALUES fixed below before it ran:
  MODELS = five unedited public config.json files in MODELS_DIR, copied from tests/fixtures/checkpoints/ (transcribed
  there from the Hugging Face repos named in SOURCES), two of them quantized checkpoints (quantization_config in
  config.json: AWQ int4, block fp8), so that --quantization meets a checkpoint that is or is not quantized.
  Every server starts as a user types it: `vllm serve MODEL --skip-tokenizer-init --load-format dummy` (no weights,
  no tokenizer on the device), vLLM's defaults otherwise (utilization 0.9, the model's own max length: the cases run
  one at a time), then the knob's flags and environment.
  14 times: model = r.choice(MODELS); knob = r.choice(sorted(KNOBS)); value = r.choice(KNOBS[knob]); a (model, knob)
  pair drawn again is drawn anew. No case is fixed by hand: the healthy ones are the draws whose server comes up.
  Every server that comes up gets one request: POST /v1/completions, a 50-token prompt (token ids), max_tokens 32;
  the "long-prompt" knob sends a 12,000-token prompt; the "structured-outputs" knob's value names the request's
  structured-output field (the server flag, if any, is the value's flags).
"""

import json
import os
import random
import sys

OUT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-fresh39-cases.json")
SEED = 2039
MODELS = ["gemma-3-1b", "llama-3.1-8b", "qwen2.5-7b", "qwen2.5-7b-awq", "qwen3-8b-fp8"]
SOURCES = {
    "gemma-3-1b": "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)",
    "llama-3.1-8b": "huggingface.co/meta-llama/Llama-3.1-8B-Instruct (tests/fixtures/checkpoints/llama-3.1-8b-instruct/config.json)",
    "qwen2.5-7b": "huggingface.co/Qwen/Qwen2.5-7B-Instruct (tests/fixtures/checkpoints/qwen2.5-7b-instruct/config.json)",
    "qwen2.5-7b-awq": "huggingface.co/Qwen/Qwen2.5-7B-Instruct-AWQ (tests/fixtures/checkpoints/qwen2.5-7b-instruct-awq/config.json)",
    "qwen3-8b-fp8": "huggingface.co/Qwen/Qwen3-8B-FP8 (tests/fixtures/checkpoints/qwen3-8b-fp8/config.json)",
}  # fmt: skip
SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
          "required": ["name", "age"]}  # fmt: skip
# a value is (flags, env, request extras); "prompt_len" in the extras replaces the 50-token prompt
KNOBS = {
    "kv-cache-dtype": [(["--kv-cache-dtype", d], {}, {}) for d in ["fp8", "fp8_e5m2", "fp8_ds_mla", "fp8_inc"]],
    "attention-backend": [(["--attention-backend", "FLASHINFER"], {}, {}),
                          (["--attention-backend", "FLEX_ATTENTION"], {}, {}),
                          ([], {"VLLM_ATTENTION_BACKEND": "TRITON_ATTN"}, {}),
                          ([], {"VLLM_ATTENTION_BACKEND": "FLASHMLA"}, {})],
    "compilation": [(["-O0"], {}, {}), (["-O3"], {}, {}),
                    (["--compilation-config", '{"cudagraph_mode": "FULL"}'], {}, {}),
                    (["--enforce-eager", "--compilation-config", '{"cudagraph_mode": "FULL_AND_PIECEWISE"}'], {}, {})],
    "quantization": [(["--quantization", q], {}, {}) for q in ["fp8", "awq", "gptq", "bitsandbytes"]],
    "speculative": [(["--speculative-config", json.dumps(s)], {}, {}) for s in [
                        {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4},
                        {"model": ".gpu/models/gemma-3-1b", "num_speculative_tokens": 3},
                        {"method": "mtp", "num_speculative_tokens": 1},
                        {"method": "ngram", "num_speculative_tokens": 4}]],
    "lora": [(["--enable-lora", "--max-lora-rank", r], {}, {}) for r in ["16", "320", "1024"]],
    "long-prompt": [(["--no-enable-prefix-caching"], {}, {"prompt_len": 12000}),
                    (["--no-enable-chunked-prefill"], {}, {"prompt_len": 12000}),
                    (["--no-enable-chunked-prefill", "--max-num-batched-tokens", "4096"], {}, {"prompt_len": 12000})],
    "structured-outputs": [(["--structured-outputs-config", '{"backend": "xgrammar"}'], {},
                            {"structured_outputs": {"json": SCHEMA}}),
                           (["--structured-outputs-config", '{"backend": "outlines"}'], {},
                            {"structured_outputs": {"regex": "[0-9]{3}"}}),
                           ([], {}, {"response_format": {"type": "json_object"}}),
                           ([], {}, {"guided_json": SCHEMA})],
    "dtype": [(["--dtype", d], {}, {}) for d in ["float16", "bfloat16", "float32"]],
    "scheduler": [(["--max-num-seqs", "3"], {}, {}), (["--max-num-batched-tokens", "100"], {}, {}),
                  (["--max-num-seqs", "4096", "--max-num-batched-tokens", "2048"], {}, {}),
                  (["--max-num-batched-tokens", "1000001"], {}, {})],
}  # fmt: skip


def serve(model, extra=()):
    return [f".gpu/models/{model}", "--skip-tokenizer-init", "--load-format", "dummy"] + list(extra)


def request(model, extras):
    body = {"model": f".gpu/models/{model}", "prompt_len": 50, "max_tokens": 32}
    body.update(extras)
    return [{"post": "/v1/completions", "body": body}]


def short(flags, env, extras):
    parts = [" ".join(flags)] if flags else []
    parts += [f"{k}={v}" for k, v in env.items()]
    if extras:
        parts.append("request " + json.dumps(extras, sort_keys=True))
    return "; ".join(parts)


def draw():
    r = random.Random(SEED)
    seen, cases, order, raw = set(), {}, [], 0
    while len(order) < 14:
        raw += 1
        model = r.choice(MODELS)
        knob = r.choice(sorted(KNOBS))
        flags, env, extras = r.choice(KNOBS[knob])
        if (model, knob) in seen:
            print(f"raw draw {raw}: {model} {knob} {short(flags, env, extras)} repeats a pair: drawn anew")
            continue
        seen.add((model, knob))
        i = len(order) + 1
        key = f"d{i:02d}"
        cases[key] = {"args": serve(model, flags), "env": dict(env), "timeout": 240, "need": 60, "mem": 1.0,
                      "steps": request(model, extras), "model": model, "knob": knob,
                      "draw": f"draw {i} (raw {raw}): {model} {knob}: {short(flags, env, extras)}"}  # fmt: skip
        order.append(key)
    why = ("fresh-39 doctor-corpus cases (tools/gpu_fresh39_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, one at a time, via ../shared/gpu). Drawn, not chosen: see "
           "the draw script's docstring. Every server runs --skip-tokenizer-init with dummy weights and gets one "
           "request once it is up.")  # fmt: skip
    return {"why": why, "seed": SEED, "raw_draws": raw, "sources": SOURCES, "order": order, "cases": cases}


if __name__ == "__main__":
    models_dir = sys.argv[1]
    for m in MODELS:  # the configs must be there (the device reads them), unedited
        json.load(open(os.path.join(models_dir, m, "config.json")))
    out = draw()
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        print(k, out["cases"][k]["draw"])
