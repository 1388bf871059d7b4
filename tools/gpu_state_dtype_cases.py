"""Four real vLLM 0.26 GPU start-ups that test plan's recurrent-state dtype rule (engines/vllm/state_dtype.py), with
servebox's prediction for each written before any of them ran.

Stop 49 changed the rule from source (vLLM 0.32's model_executor/models/config.py and layers/mamba/mamba_utils.py):
--mamba-ssm-cache-dtype, else the class's config field (Qwen3.5: mamba_ssm_dtype), else the conv state's dtype. The
only GPU evidence so far is c10 (Qwen3.5-27B without the field: attention block 400, bf16 state) and s05/s09
(NemotronH: float32). These cases add the other branches: the published Qwen3.5 config (field float32), the flag
overriding the field, and Qwen3-Next (a class with no rule) with and without the flag. 8-layer configs (the block size
does not depend on the layer count) and --enforce-eager keep each start short. Run in stop 50 on a lent H100
(2026-12-07 07:31-07:39 UTC): all four printed the predicted block size; the logs are tests/fixtures/gpu-logs/h01-h04.

  python tools/gpu_state_dtype_cases.py .gpu        # writes .gpu/models/<model>/config.json and .gpu/run/cases/*.json
  then, on the device, with the kit (shared/gpu/README.md): bash .gpu/run/drive.sh 900 s49a... s49b... s49c... s49d...
  and compare each log's 'Setting attention block size to N tokens' with PREDICTED (block) below.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "checkpoints"
BASE = {
    "gpu_memory_utilization": 0.9,
    "max_model_len": 32768,
    "enforce_eager": True,
    "enable_prefix_caching": False,
    "gdn_prefill_backend": "triton",  # the kit's note for Gated DeltaNet models on SM90
}
NO_VISION = {"limit_mm_per_prompt": {"image": 0, "video": 0}}
# case -> (model folder, extra LLM kwargs, predicted attention block size: servebox plan, profile 0.26.0, TP 1)
CASES = {
    "s49a-qwen35-8l-published": (
        "qwen3.5-27b-8l",
        NO_VISION,
        784,
    ),  # mamba_ssm_dtype float32: the class reads it
    "s49b-qwen35-8l-ssm-bf16": ("qwen3.5-27b-8l", {**NO_VISION, "mamba_ssm_cache_dtype": "bfloat16"}, 400),
    "s49c-qwen3next-8l-default": ("qwen3-next-8l-64e", {}, 544),  # no class rule: the model dtype
    "s49d-qwen3next-8l-ssm-fp32": ("qwen3-next-8l-64e", {"mamba_ssm_cache_dtype": "float32"}, 1056),
}
PREDICTED = {name: block for name, (_, _, block) in CASES.items()}


def configs() -> dict[str, dict]:
    """The two 8-layer configs, cut from the bundled fixtures (their first 8 layers; Qwen3-Next with 64 experts)."""
    q35 = json.loads((FIXTURES / "qwen3.5-27b" / "config.json").read_text())
    text = q35["text_config"]
    text["num_hidden_layers"], text["layer_types"] = 8, text["layer_types"][:8]
    nxt = json.loads((FIXTURES / "qwen3-next-80b-a3b" / "config.json").read_text())
    nxt["num_hidden_layers"], nxt["num_experts"] = 8, 64
    return {"qwen3.5-27b-8l": q35, "qwen3-next-8l-64e": nxt}


def write_kit(kit: Path, models: dict[str, dict], cases: dict, base: dict) -> list[Path]:
    """Each model's config.json under KIT/models/ and each case's run_case.py file under KIT/run/cases/ (the kit's
    layout, shared/gpu/README.md); cases map name -> (model folder, extra LLM kwargs, prediction)."""
    written = []
    for model, config in models.items():
        folder = kit / "models" / model
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text(json.dumps(config, indent=2))
        written.append(folder / "config.json")
    for name, (model, extra, _) in cases.items():
        case = {"case": name, "llm_kwargs": {"model": f"{kit}/models/{model}", **base, **extra}, "env": {}}
        path = kit / "run" / "cases" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(case, indent=1))
        written.append(path)
    return written


def write(kit: Path) -> list[Path]:
    return write_kit(kit, configs(), CASES, BASE)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gpu_state_dtype_cases.py KIT_DIR (e.g. .gpu)")
    for path in write(Path(sys.argv[1])):
        print(path)
