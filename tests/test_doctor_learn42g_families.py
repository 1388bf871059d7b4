"""What fresh-319 (vLLM 0.26 on an H100) and fresh-321 (systemd 252) taught learn42g, with each miss's neighbourhood
in the source. Messages are rendered from the source's format strings (not the corpus logs' lines), marked so.

- dtype-unsupported-by-quantization: the weight-only kernels' float32 refusals (csrc's Machete prepack / GEMM dispatch,
  'not implemented for a_type=Float'; model_executor/kernels/linear/mixed_precision/*.py can_implement reasons and
  Marlin's / moe_wna16's csrc refusals, which name no dtype: only beside a float32 start).
- checkpoint-quant-scheme-unsupported: modelopt.py's 'ModelOpt currently only supports: {QUANT_ALGOS} quantizations
  in vLLM' with a list past 80 characters (0.32's), the per-config quant_algo refusals, MIXED_PRECISION's.
- systemd-no-execstart: an unknown Exec*-like key in [Service] (a misspelt ExecStart) where the unit was refused for no
  ExecStart is this cause's own line, not a rival reason; the fix names the rename.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

FP32_START = (
    "(APIServer pid=41) INFO 01-02 10:00:00 [api_utils.py:273] non-default args: {'model': '/models/m-w4a16', "
    "'dtype': 'float32', 'max_model_len': 4096}\n"
)
BF16_START = (
    "(APIServer pid=41) INFO 01-02 10:00:00 [api_utils.py:273] non-default args: {'model': '/models/m-w4a16', "
    "'dtype': 'bfloat16', 'max_model_len': 4096}\n"
)
CORE = "(EngineCore pid=77) ERROR 01-02 10:00:09 [core.py:1330] "


def core_error(message: str, start: str = FP32_START) -> str:
    return f"{start}{CORE}Traceback (most recent call last):\n{CORE}{message}\n"


def modelopt_refusal(message: str) -> str:
    """pydantic's wrap of a quantization config's ValueError while VllmConfig is built (the shape vLLM prints)."""
    return (
        "(APIServer pid=9) pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        f"(APIServer pid=9)   Value error, {message} [type=value_error, input_value=ArgsKwargs((), {{}}), "
        "input_type=ArgsKwargs]\n"
    )


def verify(dropin: str, lines: str) -> str:
    """systemd-analyze verify over a unit with a drop-in, as a user pastes it (systemd 252's wordings)."""
    return (
        "$ cat /etc/systemd/system/vllm.service.d/override.conf\n"
        f"[Service]\nExecStart=\n{dropin}\n"
        "$ systemd-analyze verify /etc/systemd/system/vllm.service\n"
        f"{lines}"
    )


NO_EXECSTART = "vllm.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.\n"

CASES = [
    # csrc machete_mm_launcher's dispatch (rendered): the GEMM, not the prepack, refusing float32 activations
    (
        "dtype-unsupported-by-quantization",
        core_error(
            "RuntimeError: machete_mm(..) is not implemented for a_type=Float, b_type=uint4b8, "
            "with_group_scale_type=Float, with_group_zeropoint_type=void, out_type=Float"
        ),
    ),
    # the prepack's own wording, with no float32 flag in sight: Float is itself the evidence (rendered)
    (
        "dtype-unsupported-by-quantization",
        core_error(
            "RuntimeError: prepack_B_dispatch(..) is not implemented for atype = Float, b_type = uint8b128, "
            "with_group_scales_type= Float",
            start="",
        ),
    ),
    # choose_mp_linear_kernel's refusal listing the can_implement reasons (0.32 exllama.py / triton_w4a16.py), float32
    (
        "dtype-unsupported-by-quantization",
        core_error(
            "ValueError: Failed to find a kernel that can implement the WNA16 linear layer. Reasons: \n"
            f"{CORE} MacheteLinearKernel Machete requires compute capability of 90 (Hopper).\n"
            f"{CORE}ExllamaLinearKernel Exllama only supports float16 activations."
        ),
    ),
    # Marlin's csrc refusal of an activation type beside the engine's float32 config line (rendered)
    (
        "dtype-unsupported-by-quantization",
        "(EngineCore pid=77) INFO 01-02 10:00:01 [core.py:116] Initializing a V1 LLM engine (v0.26.0) with config: "
        "model='/models/m-gptq', dtype=torch.float32, quantization=gptq_marlin\n"
        f"{CORE}RuntimeError: unsupported `a` scalar_type\n",
    ),
    # modelopt.py from_config with 0.32's longer QUANT_ALGOS (rendered: a list past the old 80-character window)
    (
        "checkpoint-quant-scheme-unsupported",
        modelopt_refusal(
            "ModelOpt currently only supports: ['FP8', 'FP8_PER_CHANNEL_PER_TOKEN', 'FP8_PB_WO', 'FP8_BLOCK', "
            "'NVFP4', 'W4A16_NVFP4', 'MXFP8', 'MXFP4', 'MIXED_PRECISION'] quantizations in vLLM. Please check the "
            "`hf_quant_config.json` file for your model's quant configuration."
        ),
    ),
    # ModelOptNvFp4Config's own check (rendered)
    (
        "checkpoint-quant-scheme-unsupported",
        modelopt_refusal(
            "Unsupported ModelOpt NVFP4 quant_algo: W4A8_NVFP4. Supported: NVFP4 / W4A16_NVFP4."
        ),
    ),
    # 0.32's MIXED_PRECISION reader: block-FP8 MoE layers of two group sizes (rendered)
    (
        "checkpoint-quant-scheme-unsupported",
        modelopt_refusal(
            "MIXED_PRECISION currently requires all block-FP8 MoE layers to use one group_size, got [64, 128]."
        ),
    ),
    # systemd 252: other misspellings of ExecStart in a drop-in after the reset (rendered from config_parse's wording)
    (
        "systemd-no-execstart",
        verify(
            "Exec_Start=/opt/vllm/bin/vllm serve /models/m",
            "/etc/systemd/system/vllm.service.d/override.conf:3: Unknown key 'Exec_Start' in section [Service], "
            f"ignoring.\n{NO_EXECSTART}",
        ),
    ),
    # systemd 240-249's older wording of the key line, a lowercase key (keys are case-sensitive)
    (
        "systemd-no-execstart",
        verify(
            "execstart=/opt/vllm/bin/vllm serve /models/m",
            "/etc/systemd/system/vllm.service.d/override.conf:3: Unknown key name 'execstart' in section 'Service', "
            f"ignoring.\n{NO_EXECSTART}",
        ),
    ),
]

NEAR_MISSES = [
    # the same can_implement reason under a float16 start: another reason (the kernel's other checks) is the cause
    (
        "dtype-unsupported-by-quantization",
        core_error("RuntimeError: unsupported `a` scalar_type", start=BF16_START),
    ),
    # Machete refusing a weight type under float16 activations: the checkpoint's, not the dtype's
    (
        "dtype-unsupported-by-quantization",
        core_error(
            "RuntimeError: machete_mm(..) is not implemented for a_type=Half, b_type=uint2b2, "
            "with_group_scale_type=Half",
            start="",
        ),
    ),
    # ModelOpt's refusal of an activation override is no quant_algo (modelopt.py, rendered)
    (
        "checkpoint-quant-scheme-unsupported",
        modelopt_refusal(
            "Unsupported ModelOpt NVFP4 MoE activation override: fp8_dynamic. Use "
            "quantization_config.moe.activation='nvfp4_per_token' or omit the override."
        ),
    ),
    # a misspelt Environment= beside a unit with no ExecStart: the unknown key is not what emptied it
    (
        "systemd-no-execstart",
        verify(
            "Enviroment=HF_HOME=/srv/hf",
            "/etc/systemd/system/vllm.service.d/override.conf:3: Unknown key 'Enviroment' in section [Service], "
            f"ignoring.\n{NO_EXECSTART}",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_execstart_misspelling_names_the_rename():
    log = verify(
        "ExceStart=/opt/vllm/bin/vllm serve /models/m",
        "/etc/systemd/system/vllm.service.d/override.conf:3: Unknown key 'ExceStart' in section [Service], "
        f"ignoring.\n{NO_EXECSTART}",
    )
    top = top_cause(run(log))
    assert top.id == "systemd-no-execstart" and top.confidence >= 0.7
    assert "ExceStart -> ExecStart" in top.fix


def test_exec_like_unknown_key_without_the_refusal_stays_unknown_key():
    # the misspelt ExecStartPre in a unit that still has its ExecStart: nothing was emptied
    assert_named(
        "systemd-unknown-key",
        "/etc/systemd/system/vllm.service:9: Unknown key 'ExecStratPre' in section [Service], ignoring.\n",
    )


def test_execstart_in_the_unit_section_stays_unknown_key():
    # ExecStart written in [Unit] (a misplaced key, not a misspelt one): moving it is the fix
    assert_named(
        "systemd-unknown-key",
        "/etc/systemd/system/vllm.service:4: Unknown key 'ExecStart' in section [Unit], ignoring.\n"
        + NO_EXECSTART
        + "Unit vllm.service has a bad unit file setting.\n",
    )
