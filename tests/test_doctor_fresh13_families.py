"""What the unseen batch fresh-13 (vLLM 0.26 on an H200) taught: a ranking rule, a first-pass rule, families.

Short logs written from the engines' own texts (vLLM's pydantic configs, its logger's prefixes, speculative.py,
bitsandbytes.py, platforms/cuda.py, the attention layer's FP8 assert, gpu_worker.py, pynvml), with other models,
sizes, GPUs, ordinals and processes than the corpus logs. The negatives pin what each rule must NOT do: a pydantic
error no family knows stays config-validation-error's, a traceback raised for real still counts, healthy lines name
nothing, and the neighbouring families keep their own cases.
"""

from __future__ import annotations

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run

API = "(APIServer pid=7311) "
CORE = "(EngineCore_DP0 pid=7420) "
TAIL = " [type=value_error, input_value=ArgsKwargs((), {'model': 'x'}), input_type=ArgsKwargs]\n"


def ids(result) -> list[str]:
    return [d.id for d in result.diagnoses]


def pydantic(config: str, reason: str) -> str:
    return (
        API + "Traceback (most recent call last):\n"
        + API + '  File "/usr/lib/python3.12/site-packages/pydantic/_internal/_dataclasses.py", line 121, in __init__\n'
        + API + f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {config}\n"
        + API + f"  Value error, {reason}" + TAIL
        + API + "    For further information visit https://errors.pydantic.dev/2.12/v/value_error\n"
    )  # fmt: skip


# ---- the ranking rule: the pydantic header is a wrapper


def test_a_family_that_explains_the_pydantic_reason_outranks_the_header():
    r = run(
        pydantic(
            "ModelConfig",
            "The model type 'gemma2' does not support float16. Reason: Numerical instability. "
            "Please use bfloat16 or float32 instead.",
        )
    )
    assert ids(r) == ["model-dtype-unsupported"]
    tp = run(
        pydantic(
            "ParallelConfig", "World size (8) is larger than the number of available GPUs (4) in this node."
        )
    )
    assert ids(tp) == ["parallel-size-exceeds-gpus"] and tp.exception is None


def test_a_pydantic_error_no_family_knows_stays_config_validation_error():
    """Named, with the message; not confident: the corpus saw pydantic's words under 21 other causes."""
    r = run(pydantic("SchedulerConfig", "max_num_seqs must be at least 1, got 0."))
    top = r.diagnoses[0]
    assert top.id == "config-validation-error" and top.confidence < CONFIDENT
    assert top.confidence_kind == "calibrated"
    assert "max_num_seqs must be at least 1" in top.cause


def test_a_family_elsewhere_in_the_log_does_not_push_the_header_aside():
    """Only an entry that explains the header's own exception (a line it spans) makes it step aside."""
    elsewhere = (
        CORE + "ValueError: World size (2) is larger than the number of available GPUs (1) in this node.\n"
    )
    r = run(elsewhere + pydantic("CacheConfig", "gpu_memory_utilization must be at most 1, got 1.7."))
    assert "config-validation-error" in ids(r)


# ---- the first-pass rule: a traceback the engine's logger printed below ERROR was caught


def warmup(level: str) -> str:
    p = API + f"{level} 03-14 08:15:02 [base.py:380] "
    return (
        p + "Chat template warmup failed\n"
        + p + "Traceback (most recent call last):\n"
        + p + '  File "/opt/vllm/vllm/renderers/base.py", line 1049, in render_chat\n'
        + p + "ValueError: Tokenizer not available when `skip_tokenizer_init=True`\n"
    )  # fmt: skip


SERVING = (
    API + "INFO 03-14 08:15:03 [api_server.py:677] Starting vLLM server on http://0.0.0.0:9123\n"
    + API + "INFO:     Application startup complete.\n"
)  # fmt: skip


def test_a_warning_level_traceback_of_a_healthy_start_names_nothing():
    for level in ("WARNING", "DEBUG", "INFO"):
        r = run(warmup(level) + SERVING)
        assert ids(r) == [] and r.exception is None and not r.fatal, level
        assert r.exceptions and r.exceptions[0].handled


def test_an_error_level_or_bare_traceback_still_counts():
    r = run(warmup("ERROR"))
    # learn42d: skip-tokenizer-init-needs-tokenizer now holds the bare wording (as a script's raise), so likeness may
    # offer it (0.50, below confident) ahead of the bare exception: either way the raise counts
    top = r.diagnoses[0]
    assert r.exception is not None and top.confidence < 0.7
    assert top.id in ("uncaught-exception", "skip-tokenizer-init-needs-tokenizer")
    bare = API + "ValueError: Tokenizer not available when `skip_tokenizer_init=True`\n"
    assert run(bare).exception is not None
    # logged as a warning first, then raised out of the process: the raise counts
    again = run(warmup("WARNING") + bare)
    assert again.exception is not None and not again.exception.handled


# ---- families


def test_mtp_on_a_model_without_mtp_layers():
    spec = (
        API + '  File "/opt/vllm/vllm/config/speculative.py", line 1390, in __post_init__\n'
        + API + "NotImplementedError: Unsupported speculative method: 'mtp'\n"
    )  # fmt: skip
    r = run(spec)
    assert ids(r) == ["spec-mtp-model-without-mtp-layers"] and r.diagnoses[0].confidence >= CONFIDENT
    inkling = run("ValueError: The Inkling checkpoint does not contain MTP weights\n")
    assert inkling.diagnoses[0].id == "spec-mtp-model-without-mtp-layers"
    # another method's refusal is not MTP's
    assert "spec-mtp-model-without-mtp-layers" not in ids(
        run("NotImplementedError: Unsupported speculative method: 'medusa'\n")
    )


def test_the_quantizations_own_install_hint_names_the_package():
    line = (
        CORE
        + "ImportError: Please install bitsandbytes>=0.46.1 via `pip install bitsandbytes>=0.46.1` to use bitsandbytes quantizer.\n"
    )
    r = run(CORE + "ModuleNotFoundError: No module named 'bitsandbytes'\n" + line)
    assert ids(r)[0] == "quant-package-missing" and "python-module-missing" not in ids(r)
    assert "bitsandbytes" in r.diagnoses[0].cause
    old = run("ImportError: bitsandbytes version is wrong. Please install bitsandbytes>=0.42.0.\n")
    assert old.diagnoses[0].id == "quant-package-missing"
    # another package's bare import stays python-module-missing
    assert ids(run("ModuleNotFoundError: No module named 'xformers'\n")) == ["python-module-missing"]


def test_a_selected_flashinfer_backend_that_cannot_be_imported():
    v026 = "ValueError: Selected backend AttentionBackendEnum.FLASHINFER_MLA is not valid for this configuration. Reason: ['ImportError']\n"
    v032 = "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: [ImportError: No module named 'flashinfer']\n"
    for line in (v026, v032):
        r = run(CORE + line)
        assert ids(r)[0] == "flashinfer-missing-or-old" and "attention-backend-not-valid" not in ids(r), line
    # a backend's own refusal (not an import) stays attention-backend-not-valid, and so does FLASH_ATTN's import
    sinks = "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: ['attention sinks not supported']\n"
    assert ids(run(sinks))[0] == "attention-backend-not-valid"
    fa = "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. Reason: ['ImportError']\n"
    assert ids(run(fa))[0] == "attention-backend-not-valid"


def test_the_fp8_query_quant_assert_is_the_kv_cache_dtype():
    under_dynamo = (
        CORE + "torch._dynamo.exc.Unsupported: Data-dependent assertion failed (cannot compile partial graph)\n"
        + CORE + "from user code:\n"
        + CORE + '  File "/opt/vllm/vllm/model_executor/layers/attention/attention.py", line 515, in forward\n'
        + CORE + '    assert self.kv_cache_dtype in {"fp8", "fp8_e4m3"} or (\n'
    )  # fmt: skip
    eager = (
        "Traceback (most recent call last):\n"
        '  File "/opt/vllm/vllm/model_executor/layers/attention/attention.py", line 520, in forward\n'
        '    assert self.kv_cache_dtype in {"fp8", "fp8_e4m3", "nvfp4"}\n'
        "AssertionError\n"
    )
    for log in (under_dynamo, eager):
        r = run(log)
        assert ids(r)[0] == "kv-cache-dtype-unsupported-on-gpu" and r.diagnoses[0].confidence >= CONFIDENT
        assert "uncaught-exception" not in ids(r)


def test_no_visible_gpu_at_the_index_the_engine_asked_for():
    empty = CORE + "AssertionError: DP adjusted local rank 2 is out of bounds for 0 devices.\n"
    r = run(empty)
    assert ids(r)[0] == "visible-device-mismatch" and r.diagnoses[0].confidence < CONFIDENT
    assert "?" not in r.diagnoses[0].cause
    nvml = (
        API + '  File "/opt/vllm/vllm/platforms/cuda.py", line 631, in get_device_capability\n'
        + API + "    handle = pynvml.nvmlDeviceGetHandleByIndex(physical_device_id)\n"
        + API + "vllm.third_party.pynvml.NVMLError_InvalidArgument: Invalid Argument\n"
    )  # fmt: skip
    assert ids(run(nvml))[0] == "visible-device-mismatch"
    # NVML's Invalid Argument elsewhere (not the mapped physical index) is not this
    assert "visible-device-mismatch" not in ids(run("pynvml.NVMLError_InvalidArgument: Invalid Argument\n"))
    # a local rank beyond a nonzero device count is not an empty mask
    assert "visible-device-mismatch" not in ids(
        run("AssertionError: DP adjusted local rank 3 is out of bounds for 2 devices.\n")
    )


def test_the_model_inspection_subprocess_error_only_points_at_its_output():
    log = (
        API + "subprocess.CalledProcessError: Command '['/srv/venv/bin/python3', '-m', "
        "'vllm.model_executor.models.registry']' returned non-zero exit status 1.\n"
    )
    r = run(log)
    assert r.exception is None and r.exceptions[0].classification == "symptom"
    other = run(
        "subprocess.CalledProcessError: Command '['nvcc', '--version']' returned non-zero exit status 127.\n"
    )
    assert other.exception is not None


def test_healthy_h100_lines_name_none_of_these():
    lines = [
        "(EngineCore_DP0 pid=88) INFO 03-14 08:14:41 [cuda.py:482] Using FLASHINFER attention backend out of potential backends: ['FLASHINFER', 'TRITON_ATTN'].",
        "(APIServer pid=87) INFO 03-14 08:14:20 [cache.py:285] Using fp8_e4m3 data type to store kv cache. It reduces the GPU memory footprint and boosts the performance.",
        "(EngineCore_DP0 pid=88) INFO 03-14 08:14:21 [bitsandbytes_loader.py:758] Loading weights with BitsAndBytes quantization. May take a while ...",
        "(EngineCore_DP0 pid=88) INFO 03-14 08:14:21 [parallel_state.py:1946] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0",
        "(APIServer pid=87) WARNING 03-14 08:14:19 [system_utils.py:299] Found ulimit of 4096 and failed to automatically increase with error current limit exceeds maximum limit.",
    ]
    r = run("\n".join(lines) + "\n" + SERVING)
    assert [d for d in r.diagnoses if d.role in ("cause", "symptom")] == [], ids(r)
