"""Draw the fresh-79 H200 cases (compilation and CUDA graphs as users set them) by a procedure fixed before anything
ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh79_draw.py     writes tools/gpu-fresh79-cases.json and prints the draw
The cases are run by tools/gpu_serve_requests.py through tools/gpu-go.sh (real vLLM 0.26.0 `vllm serve`, one H200,
one server at a time, cheapest first).

BASE (fixed before the draw): google/gemma-3-1b-it's published config.json (tests/fixtures/checkpoints/gemma-3-1b-it,
the base fresh-67 used), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init --load-format dummy
--max-model-len 4096` (dummy weights, no tokenizer; NO --enforce-eager: compilation and graph capture are the point;
vLLM's defaults otherwise, so torch.compile at mode 3 and FULL_AND_PIECEWISE graphs on a cold cache). Once the server
is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16} with a 50-token prompt (token
ids 1000..1049).

KNOBS (8) and their VALUES; each case changes the base ONE way. Key names, values and variables read from vLLM
0.26.0's wheel (vllm/config/compilation.py: CompilationMode 0-3, CUDAGraphMode NONE/PIECEWISE/FULL/FULL_DECODE_ONLY/
FULL_AND_PIECEWISE, cudagraph_capture_sizes, max_cudagraph_capture_size, custom_ops '+op'/'-op'/'all'/'none',
splitting_ops, backend; vllm/config/vllm.py: OptimizationLevel O0-O3, capture sizes from max_num_seqs;
vllm/utils/argparse_utils.py: -O<n>; vllm/envs.py: VLLM_CACHE_ROOT, VLLM_DISABLE_COMPILE_CACHE,
VLLM_COMPILE_CACHE_SAVE_FORMAT binary/unpacked). `-cc` below is --compilation-config.
  cudagraph-mode: full (-cc '{"cudagraph_mode": "FULL"}') / full-decode-only ("FULL_DECODE_ONLY") / piecewise
        ("PIECEWISE") / bad-name ("FULL_PIECEWISE", not a member)
  capture-sizes: small-list ({"cudagraph_capture_sizes": [1, 2, 4, 8]}) / inconsistent-max (the same list with
        "max_cudagraph_capture_size": 16) / above-batched-tokens ({"max_cudagraph_capture_size": 16384}) /
        zero-in-list ({"cudagraph_capture_sizes": [0, 1, 2, 4]})
  mode-level: level-key ({"level": 3}, the pre-0.11 key) / mode-bad-name ({"mode": "MAX"}) / o0 (-O0) / o4 (-O4)
  backend-ops: custom-ops-all ({"custom_ops": ["all"]}) / custom-op-no-sign ({"custom_ops": ["rms_norm"]}) /
        backend-eager ({"backend": "eager"}) / backend-cudagraphs ({"backend": "cudagraphs"})
  json: malformed ('{"cudagraph_mode": FULL}', unquoted) / unknown-key ({"use_inductor": false}) /
        splitting-empty-piecewise ({"splitting_ops": [], "cudagraph_mode": "PIECEWISE"})
  eager-combo: eager-full (--enforce-eager -cc '{"cudagraph_mode": "FULL"}') / eager-o3 (--enforce-eager -O3) /
        eager-sizes (--enforce-eager -cc '{"cudagraph_capture_sizes": [1, 2, 4]}')
  seqs: seqs-8-sizes-above (--max-num-seqs 8 -cc '{"cudagraph_capture_sizes": [16, 32]}') / seqs-1024
        (--max-num-seqs 1024) / seqs-1 (--max-num-seqs 1)
  env-cache: disable-cache (VLLM_DISABLE_COMPILE_CACHE=1) / save-format-zip (VLLM_COMPILE_CACHE_SAVE_FORMAT=zip) /
        cache-root-read-only (VLLM_CACHE_ROOT=/sys/fs/vllm-cache: sysfs, which nobody may write, root included; the
        device runs as root, so a chmod'ed folder would not refuse) / cache-root-is-file (VLLM_CACHE_ROOT=
        /tmp/vllm-cache-file, a plain file the device command writes before the driver starts)
THE DRAW: random.Random(2079); 8 times: knob = r.choice(sorted(KNOBS)), value = r.choice(sorted(KNOBS[knob])); a
(knob, value) pair drawn again is drawn anew. No case is fixed by hand: the healthy ones are the draws whose server
comes up and answers. Run order (fixed here, not by outcome): by each value's expected cost class, "parse" (a flag or
JSON vLLM may refuse before any engine starts; timeout 60 s), "eager" (no compilation; 120 s), "compile" (torch.compile
and graph capture on a cold cache; 170 s), then draw order. Each case has its own time bound ("timeout", seconds).
"""

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh79-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2079
N = 8
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIME = {"parse": (60, 20), "eager": (120, 50), "compile": (170, 80)}  # cost class -> (timeout, need)
RANK = {"parse": 0, "eager": 1, "compile": 2}


def cc(d):
    return ["--compilation-config", json.dumps(d)]


# value -> (extra serve args, env, cost class)
KNOBS = {
    "cudagraph-mode": {
        "full": (cc({"cudagraph_mode": "FULL"}), {}, "compile"),
        "full-decode-only": (cc({"cudagraph_mode": "FULL_DECODE_ONLY"}), {}, "compile"),
        "piecewise": (cc({"cudagraph_mode": "PIECEWISE"}), {}, "compile"),
        "bad-name": (cc({"cudagraph_mode": "FULL_PIECEWISE"}), {}, "parse"),
    },
    "capture-sizes": {
        "small-list": (cc({"cudagraph_capture_sizes": [1, 2, 4, 8]}), {}, "compile"),
        "inconsistent-max": (
            cc({"cudagraph_capture_sizes": [1, 2, 4, 8], "max_cudagraph_capture_size": 16}),
            {},
            "parse",
        ),
        "above-batched-tokens": (cc({"max_cudagraph_capture_size": 16384}), {}, "compile"),
        "zero-in-list": (cc({"cudagraph_capture_sizes": [0, 1, 2, 4]}), {}, "compile"),
    },
    "mode-level": {
        "level-key": (cc({"level": 3}), {}, "parse"),
        "mode-bad-name": (cc({"mode": "MAX"}), {}, "parse"),
        "o0": (["-O0"], {}, "eager"),
        "o4": (["-O4"], {}, "parse"),
    },
    "backend-ops": {
        "custom-ops-all": (cc({"custom_ops": ["all"]}), {}, "compile"),
        "custom-op-no-sign": (cc({"custom_ops": ["rms_norm"]}), {}, "parse"),
        "backend-eager": (cc({"backend": "eager"}), {}, "compile"),
        "backend-cudagraphs": (cc({"backend": "cudagraphs"}), {}, "parse"),
    },
    "json": {
        "malformed": (["--compilation-config", '{"cudagraph_mode": FULL}'], {}, "parse"),
        "unknown-key": (cc({"use_inductor": False}), {}, "parse"),
        "splitting-empty-piecewise": (
            cc({"splitting_ops": [], "cudagraph_mode": "PIECEWISE"}),
            {},
            "compile",
        ),
    },
    "eager-combo": {
        "eager-full": (["--enforce-eager", *cc({"cudagraph_mode": "FULL"})], {}, "eager"),
        "eager-o3": (["--enforce-eager", "-O3"], {}, "eager"),
        "eager-sizes": (["--enforce-eager", *cc({"cudagraph_capture_sizes": [1, 2, 4]})], {}, "eager"),
    },
    "seqs": {
        "seqs-8-sizes-above": (
            ["--max-num-seqs", "8", *cc({"cudagraph_capture_sizes": [16, 32]})],
            {},
            "compile",
        ),
        "seqs-1024": (["--max-num-seqs", "1024"], {}, "compile"),
        "seqs-1": (["--max-num-seqs", "1"], {}, "compile"),
    },
    "env-cache": {
        "disable-cache": ([], {"VLLM_DISABLE_COMPILE_CACHE": "1"}, "compile"),
        "save-format-zip": ([], {"VLLM_COMPILE_CACHE_SAVE_FORMAT": "zip"}, "parse"),
        "cache-root-read-only": ([], {"VLLM_CACHE_ROOT": "/sys/fs/vllm-cache"}, "compile"),
        "cache-root-is-file": ([], {"VLLM_CACHE_ROOT": "/tmp/vllm-cache-file"}, "compile"),
    },
}


def make_case(knob, value):
    extra, env, cost = KNOBS[knob][value]
    timeout, need = TIME[cost]
    return {"args": [BASE, *FLAGS, *extra], "env": dict(env), "timeout": timeout, "need": need, "mem": 1.0,
            "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": cost,
            "knob": knob, "value": value}  # fmt: skip


def draw():
    r = random.Random(SEED)
    seen, cases, raw = set(), {}, 0
    while len(cases) < N:
        raw += 1
        knob = r.choice(sorted(KNOBS))
        value = r.choice(sorted(KNOBS[knob]))
        if (knob, value) in seen:
            print(f"raw draw {raw}: {knob} {value} repeats a pair: drawn anew")
            continue
        seen.add((knob, value))
        key = f"g{len(cases) + 1:02d}"
        cases[key] = make_case(knob, value)
        cases[key]["draw"] = f"draw {len(cases)} (raw {raw}): {knob}: {value}"
    order = sorted(cases, key=lambda k: (RANK[cases[k]["cost"]], k))
    why = ("fresh-79 doctor-corpus cases (tools/gpu_fresh79_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, one at a time, via ../shared/gpu). Drawn, not chosen: see "
           "the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as published.")  # fmt: skip
    return {"why": why, "seed": SEED, "raw_draws": raw, "source": SOURCE, "order": order, "cases": cases}


if __name__ == "__main__":
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["cost"], c["env"], " ".join(c["args"][6:]))
