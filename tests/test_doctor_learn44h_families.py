"""What the scored batch fresh-371 (real vLLM 0.26.0 on an H100, will this context fit, round 3) taught after scoring.

- turboquant-kv-cache-hybrid-v1-runner (new): TurboQuantConfig.from_cache_dtype's 'Unknown TurboQuant cache dtype: {!r}.
  Valid presets: {valid}' (model_executor/layers/quantization/turboquant/config.py) with a value that is no
  turboquant_* name: the V1 model runner's 'auto' for a TurboQuant layer (vLLM 0.25-0.26 on a hybrid, vllm#50709), at
  the KV layout or at the profiling cache, or a forked mixed-dtype runner's own dtype.
- flash-attn-gpu-unsupported (went_on_after, root_exception.went_on_past): fa_utils' caught 'Cannot use FA version 2 is
  not supported due to ...' ERROR followed by vLLM choosing another attention backend is only a note, even where no
  entry knows the exception that then ended the run; with FlashAttention chosen (0.7's V1 assert) it stays the cause.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import assert_named, family_tests, run, top_cause

CORE = "(EngineCore pid=41) ERROR 08-02 10:00:09 [core.py:1330] "
PRESETS = "turboquant_k8v4, turboquant_4bit_nc, turboquant_k3v4_nc, turboquant_3bit_nc"
FA2 = (
    "(EngineCore pid=41) ERROR 08-02 10:00:02 [fa_utils.py:253] Cannot use FA version 2 is not supported due to FA2 is "
    "unavailable due to: cannot import name '_vllm_fa2_C' from partially initialized module 'vllm.vllm_flash_attn'\n"
)
FA2_GPU = (
    "(EngineCore pid=41) ERROR 08-02 10:00:02 [fa_utils.py:253] Cannot use FA version 2 is not supported due to FA2 is "
    "only supported on devices with compute capability >= 8\n"
)
FA_LINE_FAMILIES = ("flash-attn-gpu-unsupported", "vllm-package-missing-own-submodule")


def start(dtype: str, model: str = "Qwen/Qwen3-Next-80B-A3B-Instruct") -> str:
    return (
        f"$ vllm serve {model} --kv-cache-dtype {dtype} --max-model-len 65536\n"
        f"(APIServer pid=7) INFO 08-02 10:00:00 [model.py:1788] Using max model len 65536\n"
        "(APIServer pid=7) INFO 08-02 10:00:00 [config.py:201] TQ hybrid: full-attention layers [3, 7, 11]\n"
    )


def died(frames: str, message: str) -> str:
    """The engine core's traceback (the lines vLLM logs under 'EngineCore failed to start.'), then the API server's."""
    lines = [
        "EngineCore failed to start.",
        "Traceback (most recent call last):",
        *frames.splitlines(),
        message,
    ]
    return (
        "".join(CORE + line + "\n" for line in lines)
        + "(APIServer pid=7) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
    )


LAYOUT = (
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 7359, in _reshape_kv_cache_tensors\n'
    "    kv_cache_shape = attn_backend.get_kv_cache_shape(\n"
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/quantization/turboquant/config.py", line 222, in from_cache_dtype\n'
    "    raise ValueError(\n"
)
PROFILING = (
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 390, in determine_available_memory\n'
    "    self.model_runner._init_minimal_kv_cache_for_profiling()\n"
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/turboquant_attn.py", line 162, in get_kv_cache_shape\n'
    "    tq_config = TurboQuantConfig.from_cache_dtype(cache_dtype_str, head_size)\n"
)
CHOSEN = (
    "(EngineCore pid=41) INFO 08-02 10:00:02 [cuda.py:482] Using TURBOQUANT attention backend out of potential "
    "backends: ['TURBOQUANT'].\n"
    "(EngineCore pid=41) INFO 08-02 10:00:03 [gpu_model_runner.py:5347] Model loading took 14.2 GiB memory\n"
)

CASES = [
    # turboquant_4bit_nc on Qwen3-Next, dying at the profiling cache (vllm#50709's title) (rendered)
    (
        "turboquant-kv-cache-hybrid-v1-runner",
        start("turboquant_4bit_nc")
        + died(PROFILING, f"ValueError: Unknown TurboQuant cache dtype: 'auto'. Valid presets: {PRESETS}"),
    ),
    # ... turboquant_3bit_nc at the KV layout, the FA2 ERRORs above it as the kit's build logs them (rendered)
    (
        "turboquant-kv-cache-hybrid-v1-runner",
        start("turboquant_3bit_nc", "Qwen/Qwen3.5-27B")
        + FA2 * 3
        + CHOSEN
        + died(LAYOUT, f"ValueError: Unknown TurboQuant cache dtype: 'auto'. Valid presets: {PRESETS}"),
    ),
    # a forked mixed-dtype runner handing its fp8 pool's dtype to the TurboQuant backend (as that fork's comment quotes)
    (
        "turboquant-kv-cache-hybrid-v1-runner",
        start("turboquant_k8v4")
        + died(
            LAYOUT,
            "ValueError: Unknown TurboQuant cache dtype: 'fp8_e4m3'. Valid presets: turboquant_k8v4, turboquant_4bit_nc",
        ),
    ),
    # 0.7's V1 FlashAttention backend chosen, its FA-version ERROR then the bare assert: the FA line stays the cause
    (
        "flash-attn-gpu-unsupported",
        "INFO 02-17 20:51:49 cuda.py:158] Using Flash Attention backend on V1 engine.\n"
        "ERROR 02-17 20:51:49 flash_attn.py:152] Cannot use FA version 2 is not supported due to FA2 is only supported "
        "on devices with compute capability >= 8\n"
        "ERROR 02-17 20:51:49 core.py:210] EngineCore hit an exception: Traceback (most recent call last):\n"
        'ERROR 02-17 20:51:49 core.py:210]   File "/opt/vllm/v1/attention/backends/flash_attn.py", line 156, in __init__\n'
        "ERROR 02-17 20:51:49 core.py:210]     assert is_fa_version_supported(self.fa_version)\n"
        "ERROR 02-17 20:51:49 core.py:210] AssertionError\n",
    ),
]

NEAR_MISSES = [
    # a turboquant_* name the release lacks (a newer preset through a JSON config): the user's value, not the runner's
    (
        "turboquant-kv-cache-hybrid-v1-runner",
        start("turboquant_2bit_nc")
        + died(
            LAYOUT,
            f"ValueError: Unknown TurboQuant cache dtype: 'turboquant_2bit_nc'. Valid presets: {PRESETS}",
        ),
    ),
    # another quantizer's refusal of 'auto' is not TurboQuant's
    (
        "turboquant-kv-cache-hybrid-v1-runner",
        start("fp8") + died(LAYOUT, "ValueError: Unknown cache dtype: 'auto'"),
    ),
    # the FA2 ERRORs, TurboQuant chosen after them, then an exception no entry knows: not the FA line, confidently or not
    (
        "flash-attn-gpu-unsupported",
        start("turboquant_k8v4")
        + FA2 * 2
        + CHOSEN
        + died(LAYOUT, "ValueError: frobnicated slot layout: 612 % 16 != 0"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_fa_line_outlived_by_another_backend_is_a_note_below_the_unknown_exception():
    """went_on_past: the exception that ended the run answers (a reading of where it was raised, or the bare
    exception), the FA line a note below it."""
    log = (
        start("turboquant_k8v4")
        + FA2 * 2
        + CHOSEN
        + died(LAYOUT, "ValueError: frobnicated slot layout: 612 % 16 != 0")
    )
    result = run(log)
    assert top_cause(result).id in ("engine-feature-refused", "uncaught-exception")
    # the kernel file absent from the install is learn46h's vllm-package-missing-own-submodule (the kit's FA2 .so was
    # missing: fresh-395); either family, the FA line is a note below the exception that ended the run
    fa = next(d for d in result.diagnoses if d.id in FA_LINE_FAMILIES)
    assert fa.role == "note" and "went on past it" in fa.cause


@pytest.mark.parametrize(
    ("expected", "fa_line"),
    [
        # the kernel file absent ('cannot import name _vllm_fa2_C'): an incomplete install (learn46h, stop 46)
        ("vllm-package-missing-own-submodule", FA2),
        # the GPU's own refusal (0.26's fa_utils wording, rendered): flash-attn-gpu-unsupported's
        ("flash-attn-gpu-unsupported", FA2_GPU),
    ],
)
def test_fa_line_with_only_a_vit_flash_attn_backend_stays_the_cause(expected, fa_line):
    """A ViT's 'Using backend ... FLASH_ATTN for vit attention' is no other backend: the bare assert stays the FA line's."""
    log = (
        "(EngineCore pid=41) INFO 08-02 10:00:01 [cuda.py:541] Using backend AttentionBackendEnum.FLASH_ATTN for vit attention\n"
        + fa_line
        + died(
            '  File "/opt/vllm/v1/attention/backends/flash_attn.py", line 156, in __init__\n'
            "    assert is_fa_version_supported(self.fa_version)\n",
            "AssertionError",
        )
    )
    assert_named(expected, log)


def test_the_marker_reads_only_a_backend_other_than_flash_attention():
    """attention-backend-chosen: vLLM's selector lines for another backend (cuda.py, xpu.py, rocm.py, 0.8-0.10's V1
    wording; rendered), never FlashAttention, an MLA backend, a ViT's backend or the Transformers model backend."""
    from servebox.doctor.signatures import load_signatures

    sig = next(s for s in load_signatures() if s.id == "attention-backend-chosen")
    chosen = [
        "Using FLASHINFER attention backend out of potential backends: ['FLASHINFER', 'TRITON_ATTN'].",
        "Using AttentionBackendEnum.TRITON_ATTN backend.",
        "Using TurboQuant attention backend.",
        "Using FlashInfer backend on V1 engine.",
        "Using ROCM_AITER_FA backend (selected via --attention-backend).",
    ]
    not_chosen = [
        "Using FLASH_ATTN attention backend out of potential backends: ['FLASH_ATTN', 'FLASHINFER'].",
        "Using AttentionBackendEnum.FLASH_ATTN backend.",
        "Using FLASH_ATTN_MLA attention backend out of potential backends: ['FLASH_ATTN_MLA'].",
        "Using AttentionBackendEnum.FLASHMLA backend.",
        "Using backend AttentionBackendEnum.FLASH_ATTN for vit attention",
        "Using Transformers backend.",
        "Using Flash Attention backend on V1 engine.",
    ]
    assert all(sig.search(line) for line in chosen)
    assert not any(sig.search(line) for line in not_chosen)
