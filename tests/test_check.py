"""servebox check: the digest's failures reproduced from metadata alone, public vLLM issues whose
checkpoint failed for a metadata-visible reason (each cited), and no false errors on checkpoints that load."""

from __future__ import annotations

import json
import shutil

import pytest

from servebox.check import load_engine_rules, run_check
from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.hardware import GPU, get_gpu
from tests.conftest import CHECKPOINTS
from tests.fixtures import build_headers as bh


def check(source, *argv, gpu="h100-80gb", profile="vllm-0.32", metadata_only=True, marlin=False):
    flags, rest = parse_flags(list(argv))
    device = gpu if isinstance(gpu, GPU) else get_gpu(gpu)
    return run_check(
        load_checkpoint(str(source)), flags, device, load_engine_rules(profile), rest, metadata_only, marlin
    )


def errors(report):
    return {f.rule for f in report.findings if f.severity == "error"}


def warns(report):
    return {f.rule for f in report.findings if f.severity == "warn"}


def build(tmp_path, name, config, quant=None, skip=lambda m: m.endswith("lm_head")):
    """A header-only checkpoint for CONFIG, laid out as its real checkpoint is (tests/fixtures/build_headers.py)."""
    d = tmp_path / name
    d.mkdir()
    (d / "config.json").write_text(json.dumps(config))
    tensors = bh.transformer(config)
    if quant:
        tensors = bh.quantize(tensors, quant, skip)
    bh.write(d, tensors)
    return d


def qwen35(**changes):
    cfg = json.loads((CHECKPOINTS / "qwen3.5-27b" / "config.json").read_text())
    cfg.update(changes)
    return cfg


# ---- the deployment digest's failures, from metadata alone ----


def test_digest_compressed_tensors_w4a16_on_the_volta_fork(tmp_path):
    d = tmp_path / "ct-w4a16"
    shutil.copytree(CHECKPOINTS / "qwen3.5-27b", d)
    w4a16 = {
        "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": True},
        "targets": ["Linear"],
    }
    (d / "config.json").write_text(
        json.dumps(
            qwen35(
                quantization_config={
                    "quant_method": "compressed-tensors",
                    "format": "pack-quantized",
                    "config_groups": {"group_0": w4a16},
                    "ignore": ["lm_head"],
                }
            )
        )
    )
    r = check(d, "-tp", "2", "--max-model-len", "32768", gpu="v100-32gb", profile="1cat-vllm-1.5-volta")
    err = next(f for f in r.findings if f.rule == "quantization-capability")
    assert err.severity == "error" and "Minimum capability: 75. Current capability: 70." in err.message
    # the same checkpoint as real AWQ passes the fork's gate of 70
    awq = check(
        CHECKPOINTS / "qwen3.5-27b-digest-awq",
        "-tp",
        "2",
        "--max-model-len",
        "32768",
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
    )
    assert "quantization-capability" not in errors(awq)


def test_digest_quantized_vision_tower_cannot_shard_at_tp2(tmp_path):
    # mattbucci/Qwen3.8-27B-AWQ of the digest: empty modules_to_not_convert, so the tower is quantized too
    cfg = qwen35(
        quantization_config={
            "bits": 4,
            "group_size": 128,
            "modules_to_not_convert": None,
            "quant_method": "awq",
            "version": "gemm",
            "zero_point": True,
        }
    )
    d = build(tmp_path, "awq-tower", cfg, "awq")
    r = check(d, "-tp", "2", "--max-model-len", "32768", gpu="v100-32gb", profile="1cat-vllm-1.5-volta")
    align = next(f for f in r.findings if f.rule == "row-parallel-group-alignment")
    assert align.severity == "error" and "vision_tower" in align.message
    assert any("model.visual.blocks.0.attn.proj: input 1152 / TP 2 = 576" in e for e in align.evidence)
    assert "quantized-vision-tower" in warns(r)
    # at TP 1 nothing has to be split
    assert "row-parallel-group-alignment" not in errors(
        check(d, "--max-model-len", "32768", gpu="v100-32gb", profile="1cat-vllm-1.5-volta")
    )


def test_digest_forced_marlin_tile():
    r = check(
        CHECKPOINTS / "qwen3.5-27b-digest-w4a4",
        "-tp",
        "2",
        "--max-model-len",
        "32768",
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
        marlin=True,
    )
    tile = next(f for f in r.findings if f.rule == "marlin-tile")
    assert tile.severity == "error" and any("in_proj_b: size_n = 48" in e for e in tile.evidence)
    assert "marlin-tile" not in errors(
        check(
            CHECKPOINTS / "qwen3.5-27b-digest-w4a4",
            "-tp",
            "2",
            "--max-model-len",
            "32768",
            gpu="v100-32gb",
            profile="1cat-vllm-1.5-volta",
        )
    )


def test_digest_turboquant_kv_with_mtp_and_forced_backend():
    base = ("-tp", "2", "--max-model-len", "32768", "--kv-cache-dtype", "turboquant_k8v4")
    mtp = check(
        CHECKPOINTS / "qwen3.5-27b-digest-awq",
        *base,
        "--speculative-config",
        '{"method": "mtp", "num_speculative_tokens": 4}',
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
    )
    assert "kv-dtype-speculative" in errors(mtp)
    forced = check(
        CHECKPOINTS / "qwen3.5-27b-digest-awq",
        *base,
        "--attention-backend",
        "FLASH_ATTN_V100",
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
    )
    f = next(f for f in forced.findings if f.rule == "kv-dtype-backend")
    assert "Selected backend FLASH_ATTN_V100 is not valid for this configuration" in f.message
    plain = check(
        CHECKPOINTS / "qwen3.5-27b-digest-awq", *base, gpu="v100-32gb", profile="1cat-vllm-1.5-volta"
    )
    assert not {"kv-dtype-backend", "kv-dtype-speculative"} & errors(plain)
    # upstream vLLM has no turboquant dtype at all
    assert "kv-dtype-backend" in errors(check(CHECKPOINTS / "qwen3.5-27b-digest-awq", *base, gpu="h100-80gb"))


def test_digest_w4a4_gdn_quality_warning_and_template():
    r = check(
        CHECKPOINTS / "qwen3.5-27b-digest-w4a4",
        "-tp",
        "2",
        "--max-model-len",
        "81920",
        "--kv-cache-dtype",
        "fp8_e5m2",
        "--default-chat-template-kwargs",
        '{"reasoning_effort": "medium", "preserve_thinking": true, "enable_thinking": true}',
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
    )
    assert {"linear-attention-w4a4", "template-no-branch", "fp4-emulated"} <= warns(r)
    medium = next(f for f in r.findings if f.rule == "template-no-branch")
    assert "'medium'" in medium.message and "'xhigh'" in medium.message
    infos = {f.rule for f in r.findings if f.severity == "info"}
    assert {"reasoning-default-on", "reasoning-end-not-eos"} <= infos
    # the W4A16 checkpoint that kept GDN in 16 bit gets no quality warning
    assert "linear-attention-w4a4" not in warns(
        check(
            CHECKPOINTS / "qwen3.5-27b-digest-awq",
            "-tp",
            "2",
            "--max-model-len",
            "81920",
            gpu="v100-32gb",
            profile="1cat-vllm-1.5-volta",
        )
    )


def test_template_kwarg_the_template_never_reads():
    r = check(
        CHECKPOINTS / "qwen3-8b-fp8",
        "--max-model-len",
        "8192",
        "--default-chat-template-kwargs",
        '{"reasoning_effort": "low"}',
    )
    assert "template-kwarg-unread" in warns(r)


def test_digest_kv_offloading_on_a_hybrid_and_does_not_fit():
    r = check(
        CHECKPOINTS / "qwen3.5-27b-digest-awq",
        "-tp",
        "2",
        "--max-model-len",
        "32768",
        "--kv-offloading-size",
        "8",
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
    )
    assert "hybrid-kv-offloading" in warns(r)
    big = check(
        CHECKPOINTS / "qwen3.5-27b",
        "-tp",
        "2",
        "--max-model-len",
        "131072",
        gpu="v100-32gb",
        profile="1cat-vllm-1.5-volta",
    )
    plan = next(f for f in big.findings if f.rule == "plan")
    assert plan.severity == "error" and "estimated maximum model length" in plan.message


def test_mtp_requested_without_mtp_weights():
    r = check(
        CHECKPOINTS / "llama-3.1-8b-instruct",
        "--max-model-len",
        "8192",
        "--speculative-config",
        '{"method": "mtp", "num_speculative_tokens": 1}',
    )
    assert "mtp-weights" in errors(r)


def test_completeness_and_tokenizer_when_not_a_metadata_copy(tmp_path):
    r = check(CHECKPOINTS / "llama-3.1-8b-instruct", "--max-model-len", "8192", metadata_only=False)
    assert not errors(r) and "header-only" in {f.rule for f in r.findings}  # a header-only copy is named
    d = tmp_path / "cut"
    shutil.copytree(CHECKPOINTS / "llama-3.1-8b-instruct", d)
    last = d / "model-00004-of-00004.safetensors"
    last.write_bytes(last.read_bytes() + b"\0" * 64)  # data started, then the download stopped
    r = check(d, "--max-model-len", "8192", metadata_only=False)
    assert {"completeness", "tokenizer-files"} <= errors(r)


def test_scheduler_batch_tokens_below_seqs():
    r = check(
        CHECKPOINTS / "llama-3.1-8b-instruct",
        "--max-model-len",
        "8192",
        "--max-num-seqs",
        "256",
        "--max-num-batched-tokens",
        "128",
    )
    f = next(f for f in r.findings if f.rule == "scheduler-batch")
    assert f.message == "max_num_batched_tokens (128) must be greater than or equal to max_num_seqs (256)."


# ---- no false errors on checkpoints that load ----


@pytest.mark.parametrize(
    ("name", "gpu", "argv"),
    [
        ("llama-3.1-8b-instruct", "h100-80gb", ["--max-model-len", "32768"]),
        ("qwen2.5-7b-instruct-awq", "a100-40gb", ["--max-model-len", "32768"]),
        ("qwen2.5-7b-instruct-gptq-int4", "t4-16gb", ["--max-model-len", "8192"]),
        ("qwen3-8b-fp8", "l40s-48gb", ["--max-model-len", "32768"]),
        ("mixtral-8x7b-instruct", "h100-80gb", ["-tp", "2", "--max-model-len", "32768"]),
        (
            "qwen3.5-27b-digest-awq",
            "v100-32gb",
            ["-tp", "2", "--max-model-len", "81920", "--kv-cache-dtype", "fp8_e5m2"],
        ),
    ],
)
def test_no_false_errors(name, gpu, argv):
    profile = "1cat-vllm-1.5-volta" if gpu == "v100-32gb" else "vllm-0.32"
    r = check(CHECKPOINTS / name, *argv, gpu=gpu, profile=profile)
    assert r.errors == 0, [(f.rule, f.message) for f in r.findings if f.severity == "error"]


def test_cli_exit_codes(run_cli):
    ok = run_cli(
        "check",
        CHECKPOINTS / "llama-3.1-8b-instruct",
        "--gpu",
        "h100-80gb",
        "--max-model-len",
        "8192",
        "--metadata-only",
        "--json",
    )
    assert ok.code == 0 and ok.json()["errors"] == 0
    bad = run_cli("check", CHECKPOINTS / "qwen2.5-7b-instruct-awq", "--gpu", "v100-32gb", "--metadata-only")
    assert bad.code == 1 and "quantization-capability" in bad.out
    assert (
        run_cli(
            "check", CHECKPOINTS / "llama-3.1-8b-instruct", "--gpu", "h100-80gb", "--engine-profile", "nope"
        ).code
        == 2
    )


# ---- public vLLM issues: a checkpoint failed for a reason visible in its metadata ----

LLAMA_33B = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 6656,
    "intermediate_size": 17920,
    "num_hidden_layers": 60,
    "num_attention_heads": 52,
    "vocab_size": 32000,
    "max_position_embeddings": 2048,
    "torch_dtype": "float16",
}
QWEN2_72B = {
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 8192,
    "intermediate_size": 29568,
    "num_hidden_layers": 80,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "vocab_size": 152064,
    "max_position_embeddings": 32768,
    "torch_dtype": "float16",
    "use_sliding_window": False,
    "quantization_config": {
        "bits": 4,
        "group_size": 128,
        "quant_method": "awq",
        "version": "gemm",
        "zero_point": True,
    },
}


def test_vllm_4202_awq_on_v100():
    # vllm-project/vllm#4202 (and #1488): "The quantization method awq is not supported for the current GPU.
    # Minimum capability: 75. Current capability: 70." on a Tesla V100
    for gpu in ("v100-32gb", "v100-16gb"):
        r = check(CHECKPOINTS / "qwen2.5-7b-instruct-awq", "--max-model-len", "8192", gpu=gpu)
        assert "quantization-capability" in errors(r)


def test_vllm_14154_bitsandbytes_on_maxwell(tmp_path):
    # vllm-project/vllm#14154: bitsandbytes needs capability 70, the GPU had 52. 0.26.0 still has BitsAndBytesConfig
    # (min 70); 0.32.0 has no bitsandbytes method at all (its profile once held a gate of 70 no 0.32.0 file has)
    cfg = json.loads((CHECKPOINTS / "llama-3.1-8b-instruct" / "config.json").read_text())
    cfg["quantization_config"] = {
        "quant_method": "bitsandbytes",
        "load_in_4bit": True,
        "bnb_4bit_quant_type": "nf4",
    }
    d = tmp_path / "bnb"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    maxwell = GPU("m40-24gb", "Tesla M40", (5, 2), 24 * 2**30, True, "test", bf16=False)
    r = check(d, "--max-model-len", "4096", gpu=maxwell, profile="vllm-0.26")
    f = next(f for f in r.findings if f.rule == "quantization-capability")
    assert f.severity == "error" and "Minimum capability: 70. Current capability: 52." in f.message
    r = check(d, "--max-model-len", "4096", gpu=maxwell)
    assert not any(f.rule == "quantization-capability" for f in r.findings)
    (f,) = [f for f in r.findings if f.rule == "quantization-method-unknown"]
    assert (
        f.severity == "error"
        and "Unknown quantization method: bitsandbytes. Must be one of ['awq'," in f.message
    )


@pytest.mark.parametrize(
    ("issue", "config", "tp", "heads"),
    [
        ("vllm-project/vllm#2652 (WizardLM-33B, TP 8)", LLAMA_33B, 8, 52),
        ("vllm-project/vllm#414 (LLaMA 33B on 3 V100)", LLAMA_33B, 3, 52),
        (
            "vllm-project/vllm#596 (LLaMA-2-13B, TP 3)",
            {
                **LLAMA_33B,
                "hidden_size": 5120,
                "intermediate_size": 13824,
                "num_hidden_layers": 40,
                "num_attention_heads": 40,
                "max_position_embeddings": 4096,
            },
            3,
            40,
        ),
        (
            "vllm-project/vllm#4232 (Qwen1.5-32B on 6 T4)",
            {
                **QWEN2_72B,
                "hidden_size": 5120,
                "intermediate_size": 27392,
                "num_hidden_layers": 64,
                "num_attention_heads": 40,
                "num_key_value_heads": 8,
                "quantization_config": None,
            },
            6,
            40,
        ),
        ("vllm-project/vllm#11797 (Qwen2-7B, 28 heads, TP 8)", None, 8, 28),
    ],
)
def test_vllm_heads_not_divisible_by_tp(tmp_path, issue, config, tp, heads):
    source = (
        CHECKPOINTS / "qwen2.5-7b-instruct"
        if config is None
        else build(tmp_path, "m", {k: v for k, v in config.items() if v is not None})
    )
    r = check(source, "-tp", str(tp), "--max-model-len", "2048")
    f = next(f for f in r.findings if f.rule == "tp-heads")
    assert (
        f.severity == "error" and f"({heads}) must be divisible by tensor parallel size ({tp})" in f.message
    ), issue


@pytest.mark.parametrize(
    ("issue", "tp"),
    [
        ("vllm-project/vllm#5675 (Qwen2-72B AWQ, TP 4)", 4),
        ("QwenLM/Qwen3#698 (Qwen 72B AWQ on 4 GPUs)", 4),
        ("QwenLM/Qwen3-VL#831 (Qwen2.5-VL-72B-Instruct-AWQ, TP 2)", 2),
        ("vllm-project/vllm#13677 (Qwen2.5-VL-72B-AWQ on 8x 4090)", 8),
    ],
)
def test_vllm_awq_intermediate_not_aligned(tmp_path, issue, tp):
    # 29568 / TP is not a multiple of the AWQ group of 128 (Qwen's later AWQ builds pad it to 29696)
    d = build(tmp_path, "qwen72b-awq", QWEN2_72B, "awq")
    r = check(d, "-tp", str(tp), "--max-model-len", "4096", gpu="a100-80gb")
    f = next(f for f in r.findings if f.rule == "row-parallel-group-alignment")
    assert f.severity == "error" and "down_proj: input 29568" in f.evidence[0], issue
    padded = build(tmp_path, "qwen72b-awq-padded", {**QWEN2_72B, "intermediate_size": 29696}, "awq")
    assert "row-parallel-group-alignment" not in errors(
        check(padded, "-tp", str(tp), "--max-model-len", "4096", gpu="a100-80gb")
    )


@pytest.mark.parametrize(
    ("issue", "gpu"),
    [("vllm-project/vllm#946 (V100)", "v100-32gb"), ("vllm-project/vllm#1157 (T4)", "t4-16gb")],
)
def test_vllm_bf16_on_volta_and_turing(issue, gpu):
    r = check(CHECKPOINTS / "qwen2.5-7b-instruct", "--dtype", "bfloat16", "--max-model-len", "2048", gpu=gpu)
    f = next(f for f in r.findings if f.rule == "bf16-capability")
    assert f.severity == "error" and "--dtype half" in f.fix, issue
    assert "bf16-capability" not in errors(
        check(CHECKPOINTS / "qwen2.5-7b-instruct", "--dtype", "half", "--max-model-len", "2048", gpu=gpu)
    )


@pytest.mark.parametrize(
    ("issue", "config", "want"),
    [
        (
            "vllm-project/vllm#3676 (c4ai-command-r-v01, 131072 > 8192)",
            {
                "architectures": ["CohereForCausalLM"],
                "model_type": "cohere",
                "hidden_size": 8192,
                "intermediate_size": 22528,
                "num_hidden_layers": 40,
                "num_attention_heads": 64,
                "num_key_value_heads": 64,
                "vocab_size": 256000,
                "max_position_embeddings": 8192,
                "torch_dtype": "float16",
            },
            131072,
        ),
        (
            "vllm-project/vllm#2565 (Yi-34B-Chat, 204800 > 4096)",
            {
                "architectures": ["LlamaForCausalLM"],
                "model_type": "llama",
                "hidden_size": 7168,
                "intermediate_size": 20480,
                "num_hidden_layers": 60,
                "num_attention_heads": 56,
                "num_key_value_heads": 8,
                "vocab_size": 64000,
                "max_position_embeddings": 4096,
                "torch_dtype": "bfloat16",
            },
            204800,
        ),
    ],
)
def test_vllm_max_model_len_beyond_positions(tmp_path, issue, config, want):
    r = check(build(tmp_path, "m", config), "-tp", "4", "--max-model-len", str(want), gpu="a100-80gb")
    f = next(f for f in r.findings if f.rule == "max-model-len-positions")
    assert f.severity == "error" and f"User-specified max_model_len ({want})" in f.message, issue


def test_truthiness_test_is_a_true_branch(tmp_path):
    """`if enable_thinking is not defined or enable_thinking` handles True; with an `is false`
    branch beside it, passing enable_thinking=true must not be told it matches no branch."""
    d = tmp_path / "ckpt"
    shutil.copytree(CHECKPOINTS / "qwen3.5-27b-digest-w4a4", d)
    r = check(
        d,
        "-tp",
        "2",
        "--max-model-len",
        "8192",
        "--default-chat-template-kwargs",
        '{"enable_thinking": true}',
    )
    assert "template-no-branch" not in warns(r), [f.message for f in r.findings]
    r = check(
        d,
        "-tp",
        "2",
        "--max-model-len",
        "8192",
        "--default-chat-template-kwargs",
        '{"reasoning_effort": "medium"}',
    )
    assert "template-no-branch" in warns(r)  # a string with no branch is still caught


@pytest.mark.parametrize("flag", ["gptq", "fp8", "bitsandbytes"])
def test_a_quantization_flag_the_checkpoint_does_not_take_is_vllms_start_error(flag):
    # expected, written first (vLLM 0.32 ModelConfig._verify_quantization): an AWQ checkpoint with --quantization
    # gptq / fp8 / bitsandbytes ends the start with 'Quantization method specified in the model config (awq) does not
    # match ...'; check used to warn 'not modelled' and pass
    report = check(CHECKPOINTS / "qwen2.5-7b-instruct-awq", "--quantization", flag, gpu="a100-80gb")
    assert "quantization-flag" in errors(report) and "plan" not in warns(report)
    (f,) = [f for f in report.findings if f.rule == "quantization-flag"]
    assert "model config (awq) does not match" in f.message and f"argument ({flag})" in f.message


@pytest.mark.parametrize("flag", ["awq", "awq_marlin", "marlin", "moe_wna16"])
def test_a_quantization_flag_vllm_takes_for_the_checkpoint_plans_as_usual(flag):
    # expected: auto_awq.py / moe_wna16.py claim an AWQ checkpoint for these names: no error, and the plan holds
    report = check(CHECKPOINTS / "qwen2.5-7b-instruct-awq", "--quantization", flag, gpu="a100-80gb")
    assert "quantization-flag" not in errors(report)
    assert not any(f.rule == "plan" and "not planned" in f.message for f in report.findings)


def test_check_keeps_a_long_finding_on_one_line_when_piped():
    # expected: rich folded findings at the console width, cutting vLLM's quoted wording in two (doctor had to
    # rejoin it); piped at COLUMNS=60 the error's message is one line holding the whole quote
    import os
    import subprocess
    import sys

    argv = [sys.executable, "-m", "servebox", "check", str(CHECKPOINTS / "qwen2.5-7b-instruct-awq")]
    env = {**os.environ, "COLUMNS": "60"}
    out = subprocess.run(
        [*argv, "--gpu", "a100-80gb", "--quantization", "gptq"], capture_output=True, text=True, env=env
    )
    assert out.returncode == 1, out.stderr
    (line,) = [ln for ln in out.stdout.splitlines() if ln.startswith("error quantization-flag")]
    assert (
        "(awq) does not match the quantization method specified in the `quantization` argument (gptq)" in line
    )
