"""Draw the fresh-67 H200 cases (LoRA adapters as users receive them) by a procedure fixed before anything ran:
sampled, not chosen.

Usage: python3 tools/gpu_fresh67_draw.py            writes tools/gpu-fresh67-cases.json and prints the draw
       python3 gpu_fresh67_draw.py --write DIR      (on the device, torch + safetensors there) writes the base
                                                    model's config.json into DIR/gemma-3-1b and each case's adapter
                                                    folder DIR/f67-cNN/ from the committed cases JSON beside it
                                                    (or tools/gpu-fresh67-cases.json)
The cases are run by tools/gpu_serve_requests.py through tools/gpu-go.sh (real vLLM 0.26.0 `vllm serve`, one H200,
one server at a time).

BASE (fixed before the draw): google/gemma-3-1b-it's published config.json (tests/fixtures/checkpoints/gemma-3-1b-it,
the smallest base earlier H200 batches used; hidden 1152, 26 layers, 4 heads x 256, 1 KV head, MLP 6912, vocab
262144), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init --load-format dummy --max-model-len 4096
--enforce-eager --enable-lora --lora-modules my-lora=.gpu/models/f67-cNN` (dummy weights and no tokenizer as earlier
batches; --max-model-len 4096 and --enforce-eager keep each start short; vLLM's defaults otherwise: --max-lora-rank
16, --max-loras 1). The healthy adapter: PEFT's layout (adapter_config.json with peft_type LORA, r 8, lora_alpha 16,
target_modules ["q_proj", "v_proj"], bias "none"; adapter_model.safetensors holding
base_model.model.model.layers.N.self_attn.{q,v}_proj.lora_A.weight [r, in] and .lora_B.weight [out, r] for the 26
layers, bf16, small random values). Once the server is up: one POST /v1/completions {"model": "my-lora",
"max_tokens": 16} with a 50-token prompt (token ids 1000..1049; no tokenizer on the server).

KNOBS (10) and their VALUES (each case edits the base ONE way; names and checks read from vLLM 0.26's
vllm/lora/peft_helper.py, lora_model.py, utils.py, worker_manager.py, config/lora.py and
entrypoints/openai/models/serving.py, and PEFT's saved layout):
  rank: above-max (r 32, default --max-lora-rank 16) / equal-max (r 16) / max-64 (r 64 with --max-lora-rank 64) /
        config-smaller (config says r 8, tensors are rank 16)
  target-modules: foreign-names (GPT-2 style c_attn / c_proj tensors and config) / config-lists-missing (config
        names q_proj, v_proj and c_attn; tensors only q/v, as PEFT writes when a name matched nothing) / all-linear
        (config "all-linear", tensors for all seven projections)
  base-shapes: gemma-3-4b (hidden 2560, q 2048, v 1024, 34 layers) / llama-3.1-8b (hidden 4096, q 4096, v 1024, 32
        layers) / swapped-ab (lora_A and lora_B shapes exchanged)
  dora: use-dora (use_dora true, lora_magnitude_vector tensors) / rslora (use_rslora true)
  modules-to-save: lm-head (modules_to_save ["lm_head"], the full lm_head.weight saved) / embed-tokens
        (modules_to_save ["embed_tokens"], full embed_tokens.weight) / target-embed-tokens (embed_tokens as a LoRA
        target: lora_embedding_A [r, vocab], lora_embedding_B [hidden, r]) / target-lm-head (lm_head as a LoRA target)
  bias: all / lora_only (config only; Gemma has no bias tensors)
  file: bin (adapter_model.bin, torch.save, no .safetensors) / config-missing (no adapter_config.json) /
        weights-missing (adapter_config.json only) / both-files (.safetensors and .bin)
  tensor-names: adapter-name-kept (.lora_A.default.weight, a raw state_dict) / no-base-prefix (model.layers...) /
        language-model-prefix (base_model.model.model.language_model.layers..., Gemma-3 multimodal naming)
  serve-flags: json-form (--lora-modules '{"name": ..., "path": ..., "base_model_name": ...}') / max-lora-rank-24
        (not an allowed rank) / cpu-loras-below-max (--max-loras 4 --max-cpu-loras 2) / no-enable-lora
        (--lora-modules without --enable-lora)
  request: unknown-name (the request names "sql-lora", not served) / base-model (the request names the base model)
        / runtime-load (no --lora-modules; VLLM_ALLOW_RUNTIME_LORA_UPDATING=True; POST /v1/load_lora_adapter, then
        the request) / runtime-load-disabled (the same POST and request without that variable)
THE DRAW: random.Random(2067); 12 times: knob = r.choice(sorted(KNOBS)), value = r.choice(sorted(KNOBS[knob])); a
(knob, value) pair drawn again is drawn anew. No case is fixed by hand: the healthy ones are the draws whose server
comes up and answers. Run order (fixed here, not by outcome): cases whose flags vLLM refuses while parsing first, then
draw order. Each case has its own time bound ("timeout", seconds).
"""

import copy
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh67-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2067
N = 12
BASE = ".gpu/models/gemma-3-1b"
PROMPT = {"prompt_len": 50, "max_tokens": 16}
# projection -> (in, out) for a base: gemma-3-1b and the two other bases adapters are borrowed from
SHAPES = {
    "gemma-3-1b": {"layers": 26, "q_proj": (1152, 1024), "k_proj": (1152, 256), "v_proj": (1152, 256),
                   "o_proj": (1024, 1152), "gate_proj": (1152, 6912), "up_proj": (1152, 6912),
                   "down_proj": (6912, 1152)},
    "gemma-3-4b": {"layers": 34, "q_proj": (2560, 2048), "v_proj": (2560, 1024)},
    "llama-3.1-8b": {"layers": 32, "q_proj": (4096, 4096), "v_proj": (4096, 1024)},
}  # fmt: skip
ATTN = ("q_proj", "k_proj", "v_proj", "o_proj")
VOCAB, HIDDEN = 262144, 1152


def base_adapter():
    """The healthy adapter: config and a tensor plan (name, shape) in PEFT's saved layout."""
    cfg = {"peft_type": "LORA", "task_type": "CAUSAL_LM", "base_model_name_or_path": "google/gemma-3-1b-it",
           "r": 8, "lora_alpha": 16, "lora_dropout": 0.05, "target_modules": ["q_proj", "v_proj"], "bias": "none",
           "fan_in_fan_out": False, "inference_mode": True, "init_lora_weights": True, "modules_to_save": None,
           "use_rslora": False, "use_dora": False, "revision": None}  # fmt: skip
    return {"config": cfg, "base": "gemma-3-1b", "modules": ["q_proj", "v_proj"], "rank": 8,
            "prefix": "base_model.model.model.layers", "a_suffix": "lora_A.weight", "b_suffix": "lora_B.weight",
            "swap": False, "extra": [], "files": ["adapter_config.json", "adapter_model.safetensors"]}  # fmt: skip


def tensor_plan(a):
    """[(name, shape)] for an adapter description."""
    sh, plan = SHAPES[a["base"]], []
    for i in range(sh["layers"]):
        for m in a["modules"]:
            fin, fout = sh[m]
            part = "self_attn" if m in ATTN else "mlp"
            if m in ("c_attn", "c_proj"):
                part = "attn"
            stem = f"{a['prefix']}.{i}.{part}.{m}"
            sa, sb = [a["rank"], fin], [fout, a["rank"]]
            if a["swap"]:
                sa, sb = sb, sa
            plan.append((f"{stem}.{a['a_suffix']}", sa))
            plan.append((f"{stem}.{a['b_suffix']}", sb))
    return plan + [tuple(x) for x in a["extra"]]


def _rank(v):
    def f(a, c):
        a["config"]["r"] = {"above-max": 32, "equal-max": 16, "max-64": 64, "config-smaller": 8}[v]
        a["rank"] = {"above-max": 32, "equal-max": 16, "max-64": 64, "config-smaller": 16}[v]
        if v == "max-64":
            c["flags"] += ["--max-lora-rank", "64"]

    return f


def _targets(v):
    def f(a, c):
        if v == "foreign-names":
            SHAPES["gemma-3-1b"]["c_attn"] = (1152, 3456)  # GPT-2's fused qkv on this hidden size
            SHAPES["gemma-3-1b"]["c_proj"] = (1152, 1152)
            a["config"]["target_modules"] = ["c_attn", "c_proj"]
            a["modules"] = ["c_attn", "c_proj"]
            a["prefix"] = "base_model.model.transformer.h"
        elif v == "config-lists-missing":
            a["config"]["target_modules"] = ["q_proj", "v_proj", "c_attn"]
        else:
            a["config"]["target_modules"] = "all-linear"
            a["modules"] = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

    return f


def _shapes(v):
    def f(a, c):
        if v == "swapped-ab":
            a["swap"] = True
        else:
            a["base"] = v
            a["config"]["base_model_name_or_path"] = {"gemma-3-4b": "google/gemma-3-4b-it",
                                                      "llama-3.1-8b": "meta-llama/Llama-3.1-8B-Instruct"}[v]  # fmt: skip

    return f


def _dora(v):
    def f(a, c):
        if v == "use-dora":
            a["config"]["use_dora"] = True
            sh = SHAPES["gemma-3-1b"]
            a["extra"] = [(f"{a['prefix']}.{i}.self_attn.{m}.lora_magnitude_vector", [sh[m][1]])
                          for i in range(sh["layers"]) for m in a["modules"]]  # fmt: skip
        else:
            a["config"]["use_rslora"] = True

    return f


def _save(v):
    def f(a, c):
        if v == "lm-head":
            a["config"]["modules_to_save"] = ["lm_head"]
            a["extra"] = [("base_model.model.lm_head.weight", [VOCAB, HIDDEN])]
        elif v == "embed-tokens":
            a["config"]["modules_to_save"] = ["embed_tokens"]
            a["extra"] = [("base_model.model.model.embed_tokens.weight", [VOCAB, HIDDEN])]
        elif v == "target-embed-tokens":
            a["config"]["target_modules"] = ["q_proj", "v_proj", "embed_tokens"]
            a["extra"] = [("base_model.model.model.embed_tokens.lora_embedding_A", [a["rank"], VOCAB]),
                          ("base_model.model.model.embed_tokens.lora_embedding_B", [HIDDEN, a["rank"]])]  # fmt: skip
        else:
            a["config"]["target_modules"] = ["q_proj", "v_proj", "lm_head"]
            a["extra"] = [("base_model.model.lm_head.lora_A.weight", [a["rank"], HIDDEN]),
                          ("base_model.model.lm_head.lora_B.weight", [VOCAB, a["rank"]])]  # fmt: skip

    return f


def _bias(v):
    def f(a, c):
        a["config"]["bias"] = v

    return f


def _file(v):
    def f(a, c):
        a["files"] = {"bin": ["adapter_config.json", "adapter_model.bin"],
                      "config-missing": ["adapter_model.safetensors"],
                      "weights-missing": ["adapter_config.json"],
                      "both-files": ["adapter_config.json", "adapter_model.safetensors", "adapter_model.bin"]}[v]  # fmt: skip

    return f


def _names(v):
    def f(a, c):
        if v == "adapter-name-kept":
            a["a_suffix"], a["b_suffix"] = "lora_A.default.weight", "lora_B.default.weight"
        elif v == "no-base-prefix":
            a["prefix"] = "model.layers"
        else:
            a["prefix"] = "base_model.model.model.language_model.layers"

    return f


def _flags(v):
    def f(a, c):
        if v == "json-form":
            spec = {"name": "my-lora", "path": c["path"], "base_model_name": BASE}
            c["lora_arg"] = ["--lora-modules", json.dumps(spec)]
        elif v == "max-lora-rank-24":
            c["flags"] += ["--max-lora-rank", "24"]
            c["order"] = 0
        elif v == "cpu-loras-below-max":
            c["flags"] += ["--max-loras", "4", "--max-cpu-loras", "2"]
            c["order"] = 0
        else:
            c["flags"].remove("--enable-lora")

    return f


def _request(v):
    def f(a, c):
        if v == "unknown-name":
            c["model"] = "sql-lora"
        elif v == "base-model":
            c["model"] = BASE
        else:
            c["lora_arg"] = []
            if v == "runtime-load":
                c["env"]["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] = "True"
            c["pre"] = [
                {"post": "/v1/load_lora_adapter", "body": {"lora_name": "my-lora", "lora_path": c["path"]}}
            ]

    return f


KNOBS = {
    "rank": {v: _rank(v) for v in ("above-max", "equal-max", "max-64", "config-smaller")},
    "target-modules": {v: _targets(v) for v in ("foreign-names", "config-lists-missing", "all-linear")},
    "base-shapes": {v: _shapes(v) for v in ("gemma-3-4b", "llama-3.1-8b", "swapped-ab")},
    "dora": {v: _dora(v) for v in ("use-dora", "rslora")},
    "modules-to-save": {v: _save(v) for v in ("lm-head", "embed-tokens", "target-embed-tokens", "target-lm-head")},
    "bias": {v: _bias(v) for v in ("all", "lora_only")},
    "file": {v: _file(v) for v in ("bin", "config-missing", "weights-missing", "both-files")},
    "tensor-names": {v: _names(v) for v in ("adapter-name-kept", "no-base-prefix", "language-model-prefix")},
    "serve-flags": {v: _flags(v) for v in ("json-form", "max-lora-rank-24", "cpu-loras-below-max", "no-enable-lora")},
    "request": {v: _request(v) for v in ("unknown-name", "base-model", "runtime-load", "runtime-load-disabled")},
}  # fmt: skip


def make_case(key, knob, value):
    path = f".gpu/models/f67-{key}"
    a = base_adapter()
    c = {"flags": ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096", "--enforce-eager",
                   "--enable-lora"],
         "lora_arg": ["--lora-modules", f"my-lora={path}"], "env": {}, "model": "my-lora", "pre": [], "order": 1,
         "path": path}  # fmt: skip
    saved = copy.deepcopy(SHAPES)
    KNOBS[knob][value](a, c)
    plan = tensor_plan(a)
    SHAPES.clear()
    SHAPES.update(saved)
    body = dict(PROMPT, model=c["model"])
    case = {"args": [BASE, *c["flags"], *c["lora_arg"]], "env": c["env"], "timeout": 150, "need": 45, "mem": 1.0,
            "steps": [*c["pre"], {"post": "/v1/completions", "body": body}], "order": c["order"],
            "knob": knob, "value": value, "adapter_dir": path, "adapter_files": a["files"],
            "adapter_config": a["config"], "tensors": plan}  # fmt: skip
    return case


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
        key = f"c{len(cases) + 1:02d}"
        cases[key] = make_case(key, knob, value)
        cases[key]["draw"] = f"draw {len(cases)} (raw {raw}): {knob}: {value}"
    order = sorted(cases, key=lambda k: (cases[k]["order"], k))
    why = ("fresh-67 doctor-corpus cases (tools/gpu_fresh67_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve' with --enable-lora, one H200, one at a time, via ../shared/gpu). "
           "Drawn, not chosen: see the draw script's docstring. Each case keeps its adapter_config.json whole and its "
           "tensor plan (name, shape; values small random bf16 from torch.manual_seed(67)); the base model's config.json "
           "is google/gemma-3-1b-it's as published.")  # fmt: skip
    return {"why": why, "seed": SEED, "raw_draws": raw, "source": SOURCE, "order": order, "cases": cases}


def write_models(out, models_dir):  # on the device: torch and safetensors are there
    import torch
    from safetensors.torch import save_file

    base = os.path.join(models_dir, "gemma-3-1b")
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "config.json"), "w") as f:
        json.dump(out["base_config"], f, indent=2)
    torch.manual_seed(67)
    for key in out["order"]:
        c = out["cases"][key]
        d = os.path.join(models_dir, f"f67-{key}")
        os.makedirs(d, exist_ok=True)
        tensors = {n: (torch.randn(*s) * 0.01).to(torch.bfloat16).contiguous() for n, s in c["tensors"]}
        files = c["adapter_files"]
        if "adapter_config.json" in files:
            with open(os.path.join(d, "adapter_config.json"), "w") as f:
                json.dump(c["adapter_config"], f, indent=2)
        if "adapter_model.safetensors" in files:
            save_file(tensors, os.path.join(d, "adapter_model.safetensors"), metadata={"format": "pt"})
        if "adapter_model.bin" in files:
            torch.save(tensors, os.path.join(d, "adapter_model.bin"))
        print(key, c["draw"], sorted(os.listdir(d)), len(tensors), "tensors", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--write":
        here_json = os.path.join(HERE, "gpu-fresh67-cases.json")
        with open(here_json) as f:
            write_models(json.load(f), sys.argv[2])
        sys.exit(0)
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        print(k, out["cases"][k]["draw"], " ".join(out["cases"][k]["args"][1:]))
