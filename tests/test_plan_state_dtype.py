"""The recurrent-state dtype rule (engines/vllm/state_dtype.py) against vLLM 0.32's own source: the flag wins, then
the model class's config field (model_executor/models/config.py), then the conv state's dtype. The figures of a
whole plan are checked against vLLM itself by tests/test_plan_vllm_oracle.py and test_plan_nodes_oracle.py."""

from __future__ import annotations

import json
import shutil

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.state_dtype import state_dtypes
from tests.conftest import CHECKPOINTS


def _arch(tmp_path, name: str, **fields):
    d = tmp_path / name
    shutil.copytree(CHECKPOINTS / name, d)
    cfg = json.loads((d / "config.json").read_text())
    (cfg.get("text_config") or cfg).update(fields)
    (d / "config.json").write_text(json.dumps(cfg))
    return load_checkpoint(str(d), False).architecture


def _dtypes(arch, *argv):
    return state_dtypes(arch, parse_flags(list(argv))[0], "bfloat16")[:2]


def test_nemotron_h_reads_its_config_field_and_defaults_to_float32(tmp_path):
    plain = load_checkpoint(str(CHECKPOINTS / "nemotron-h-8b-base"), False).architecture
    assert _dtypes(plain) == ("bfloat16", "float32")
    assert _dtypes(_arch(tmp_path, "nemotron-h-8b-base", mamba_ssm_cache_dtype="bfloat16")) == (
        "bfloat16",
        "bfloat16",
    )


def test_a_class_without_a_rule_follows_the_conv_state(tmp_path):
    nxt = load_checkpoint(str(CHECKPOINTS / "qwen3-next-80b-a3b"), False).architecture
    assert _dtypes(nxt) == ("bfloat16", "bfloat16")
    assert _dtypes(nxt, "--mamba-cache-dtype", "float32") == ("float32", "float32")
    # a field only another class reads changes nothing
    assert _dtypes(_arch(tmp_path, "qwen3-next-80b-a3b", mamba_ssm_dtype="float32")) == (
        "bfloat16",
        "bfloat16",
    )


def test_the_flag_wins_over_the_config(tmp_path):
    q35 = load_checkpoint(str(CHECKPOINTS / "qwen3.5-27b"), False).architecture
    assert _dtypes(q35) == ("bfloat16", "float32")
    assert _dtypes(q35, "--mamba-ssm-cache-dtype", "float16") == ("bfloat16", "float16")
    assert _dtypes(q35, "--mamba-ssm-cache-dtype", "auto") == ("bfloat16", "float32")


def test_plan_says_which_dtype_and_why(run_cli):
    result = run_cli(
        "plan",
        CHECKPOINTS / "qwen3-next-80b-a3b",
        "--gpu",
        "h100-80gb",
        "-tp",
        "4",
        "--weights-gib",
        "40",
        "--mamba-ssm-cache-dtype",
        "float32",
        "--json",
    )
    notes = [e for e in result.json()["explain"] if e.startswith("recurrent state")]
    assert notes == [
        "recurrent state in float32 (--mamba-ssm-cache-dtype), conv state in bfloat16: derived from vLLM's rule"
    ]


def test_a_dtype_vllm_does_not_take_is_bad_input(run_cli):
    result = run_cli(
        "plan", CHECKPOINTS / "qwen3-next-80b-a3b", "--gpu", "h100-80gb", "--mamba-ssm-cache-dtype", "fp8"
    )
    assert result.code == 2
    assert "--mamba-ssm-cache-dtype" in result.err and "Traceback" not in result.err + result.out


def test_the_gpu_cases_predictions_are_what_plan_says(tmp_path):
    """tools/gpu_state_dtype_cases.py's PREDICTED blocks (written before those starts run on a GPU) are today's plan."""
    import sys

    from servebox.engines.vllm.profile import load_profile
    from servebox.hardware import custom_gpu
    from servebox.plan import make_plan
    from tests.conftest import REPO

    sys.path.insert(0, str(REPO))
    from tools.gpu_state_dtype_cases import CASES, PREDICTED, write

    write(tmp_path)
    for name in CASES:
        case = json.loads((tmp_path / "run" / "cases" / f"{name}.json").read_text())
        kw = case["llm_kwargs"]
        argv = ["--max-model-len", str(kw["max_model_len"]), "--enforce-eager", "--no-enable-prefix-caching"]
        argv += ["--language-model-only"] if "limit_mm_per_prompt" in kw else []
        argv += (
            ["--mamba-ssm-cache-dtype", kw["mamba_ssm_cache_dtype"]] if "mamba_ssm_cache_dtype" in kw else []
        )
        plan = make_plan(
            load_checkpoint(kw["model"], False),
            parse_flags(argv)[0],
            custom_gpu(139.8, (9, 0)),
            load_profile("0.26.0"),
            weights_gib=5,
        )
        assert plan.block_size == PREDICTED[name], name
