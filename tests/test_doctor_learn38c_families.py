"""What the scored batches fresh-257 (two settings combined on the GPU, real vLLM 0.26 on an H100) and fresh-261 (two
llama-server request fields combined) taught after scoring, with the neighbourhood of each miss in the engines' source.

- flash-attn-gpu-unsupported (outlived_when_refused, a code rule: root_exception.outlived_before): vLLM's
  fa_utils.get_flash_attn_version logs 'Cannot use FA version N is not supported due to ...', then catches its own
  assert and returns None; a later refusal another entry explains (the selector's 'Selected backend ... is not valid',
  'No valid attention backend found') is the cause and the FA-version line a note. Where the bare AssertionError ends
  the run (0.7's uncaught assert; its text is 'AssertionError: ', which the entry's `explains` now takes) or nothing
  known refuses later, the FA-version line stays the cause.
- llamacpp-context-shift-shared-prompt (new): server-context.cpp pre_decode's send_error 'context shift cannot be used
  for shared prompt' for the parent and child tasks of an n > 1 request that outgrew its slot with --context-shift on;
  its siblings stay where they were ('context shift is disabled': request-longer-than-context; n above -np:
  request-sampling-param-out-of-range).
- llamacpp-shift-disabled-for-context: common/common.cpp's 'KV cache shifting is not supported for this context,
  disabling KV cache shifting' (a note).
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

CORE = "(EngineCore_DP0 pid=77) ERROR 01-02 03:04:05 [core.py:1099] "
# vLLM 0.32 fa_utils.py get_flash_attn_version's ERROR (rendered: FA3 forced on a GPU without it)
FA3_LINE = (
    "(EngineCore_DP0 pid=77) ERROR 01-02 03:04:05 [fa_utils.py:213] Cannot use FA version 3 is not supported due to "
    "FA3 is only supported on devices with compute capability >= 8 excluding 8.6 and 8.9\n"
)


def _core_traceback(last: str, where: str = "vllm/platforms/cuda.py", line: int = 460) -> str:
    return (
        f"{CORE}EngineCore failed to start.\n"
        f"{CORE}Traceback (most recent call last):\n"
        f'{CORE}  File "/usr/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 1001, in run_engine_core\n'
        f"{CORE}    engine_core = EngineCoreProc(*args, **kwargs)\n"
        f'{CORE}  File "/usr/lib/python3.12/site-packages/{where}", line {line}, in get_attn_backend_cls\n'
        f"{CORE}    raise ValueError(\n"
        f"{CORE}{last}\n"
        "(APIServer pid=70) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
    )


LLAMA_UP = (
    "0.00.133.977 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 1024, kv_unified = 'false'\n"
    "0.00.135.618 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)

CASES = [
    # the FA-version line, then the selector's refusal of the forced backend for another reason (sinks; rendered from
    # v1/attention/backend.py validate_configuration and platforms/cuda.py)
    (
        "attention-backend-not-valid",
        FA3_LINE
        + _core_traceback(
            "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. "
            "Reason: ['attention sinks not supported']"
        ),
    ),
    # ... then every backend refused (platforms/cuda.py 'No valid attention backend found ...'; rendered)
    (
        "attention-backend-none-valid",
        FA3_LINE
        + _core_traceback(
            "ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=64, "
            "dtype=torch.float16, kv_cache_dtype=fp8, block_size=16). Reasons: {FLASH_ATTN: [kv_cache_dtype not "
            "supported], TRITON_ATTN: [compute capability not supported]}."
        ),
    ),
    # 0.7's uncaught assert after the same line (v1/attention/backends/flash_attn.py): the FA-version line is the cause
    (
        "flash-attn-gpu-unsupported",
        "ERROR 03-01 10:00:00 flash_attn.py:152] Cannot use FA version 3 is not supported due to FA3 is only supported "
        "on devices with compute capability >= 8 excluding 8.6 and 8.9\n"
        "ERROR 03-01 10:00:00 core.py:210] EngineCore hit an exception: Traceback (most recent call last):\n"
        'ERROR 03-01 10:00:00 core.py:210]   File "/opt/vllm/vllm/v1/attention/backends/flash_attn.py", line 156, in '
        "__init__\n"
        "ERROR 03-01 10:00:00 core.py:210]     assert is_fa_version_supported(self.fa_version)\n"
        "ERROR 03-01 10:00:00 core.py:210] AssertionError\n",
    ),
    # a lone FA-version line (a cut log: nothing later refuses) stays the cause
    ("flash-attn-gpu-unsupported", FA3_LINE),
    # pre_decode's refusal for a shared prompt, the client's side (HTTP 500 server_error body, as format_error_response)
    (
        "llamacpp-context-shift-shared-prompt",
        LLAMA_UP
        + '# request: POST http://127.0.0.1:8080/v1/completions {"prompt": "Once", "n": 3, "max_tokens": 2000}\n'
        "HTTP/1.1 500 Internal Server Error\n"
        '{"error":{"code":500,"message":"context shift cannot be used for shared prompt","type":"server_error"}}\n',
    ),
    # ... the server's side for a child task (send_error), without the body
    (
        "llamacpp-context-shift-shared-prompt",
        LLAMA_UP
        + "1.22.333.444 E srv    send_error: task id = 7, error: context shift cannot be used for shared prompt\n"
        "1.22.333.450 I slot      release: id  2 | task 7 | stop processing: n_tokens = 1023, truncated = 0\n",
    ),
]

NEAR_MISSES = [
    # the sibling of the same pre_decode check, context shift off: request-longer-than-context's, not the new family
    (
        "llamacpp-context-shift-shared-prompt",
        LLAMA_UP + "1.22.333.444 E srv    send_error: task id = 7, error: context shift is disabled\n",
    ),
    # a lone task shifted (context shift on, n 1): nothing refused
    (
        "llamacpp-context-shift-shared-prompt",
        LLAMA_UP
        + "0.09.964.999 W slot   operator(): id  0 | task 0 | slot context shift, n_keep = 252, n_left = 3, "
        "n_discard = 1\n",
    ),
    # the FA-version line before the selector's refusal is not the confident answer
    (
        "flash-attn-gpu-unsupported",
        FA3_LINE
        + _core_traceback(
            "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. "
            "Reason: ['kv_cache_dtype not supported']"
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_fa_version_line_before_another_refusal_is_a_note():
    """outlived_when_refused: the FA-version line stays in the answer, as a note below the refusal that ended the run."""
    result = run(
        FA3_LINE
        + _core_traceback(
            "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. "
            "Reason: ['kv_cache_dtype not supported']"
        )
    )
    fa = next(d for d in result.diagnoses if d.id == "flash-attn-gpu-unsupported")
    assert fa.role == "note" and not fa.fatal and fa.confidence <= 0.3
    assert "went on from it" in fa.cause


def test_the_fa_version_line_before_an_unknown_exception_stays_a_cause():
    """Near miss of the rule: a later exception no entry explains does not make the FA-version line a note (it is
    capped, as every cause beside an unexplained root exception, but it stays a cause)."""
    result = run(
        FA3_LINE + _core_traceback("ValueError: frobnicator 12 is out of tune", "vllm/foo/bar.py", 9)
    )
    fa = next(d for d in result.diagnoses if d.id == "flash-attn-gpu-unsupported")
    assert fa.role == "cause"


def test_the_bare_assertion_is_explained_by_the_fa_version_line():
    """'AssertionError' with no message (its text 'AssertionError: ') is the FA-version check's: no uncaught exception
    competes, the answer is confident. Its reason here, FA2's compiled module missing from the install, is
    vllm-package-missing-own-submodule's since learn46h (fresh-395: a vLLM install without _vllm_fa2_C); a GPU's
    own refusal of an FA version stays flash-attn-gpu-unsupported's (the FA3 tests above)."""
    top = top_cause(
        run(
            "ERROR 03-01 10:00:00 flash_attn.py:152] Cannot use FA version 2 is not supported due to FA2 is "
            "unavailable due to: No module named 'vllm.vllm_flash_attn._vllm_fa2_C'\n"
            "ERROR 03-01 10:00:00 core.py:210] EngineCore hit an exception: Traceback (most recent call last):\n"
            'ERROR 03-01 10:00:00 core.py:210]   File "/opt/vllm/vllm/v1/attention/backends/flash_attn.py", line 156, '
            "in __init__\n"
            "ERROR 03-01 10:00:00 core.py:210]     assert is_fa_version_supported(self.fa_version)\n"
            "ERROR 03-01 10:00:00 core.py:210] AssertionError\n"
        )
    )
    # stop 54: the harvest now counts a raised_where wording only where it was placed, so this family's words are 4
    # corpus logs (2 its own) and the corpus cap is 0.67; nothing competing lowers it: it is confident or only capped
    assert top is not None and top.id == "vllm-package-missing-own-submodule"
    assert top.confidence >= 0.7 or (top.confidence_kind == "calibrated" and top.confidence >= 0.6)


def test_kv_cache_shifting_switched_off_is_a_note():
    """common/common.cpp's switch-off of --context-shift for a context that cannot shift (rendered): a note."""
    result = run(
        "common_init_from_params: KV cache shifting is not supported for this context, disabling KV cache shifting\n"
        + LLAMA_UP
    )
    assert top_cause(result) is None
    assert any(d.id == "llamacpp-shift-disabled-for-context" and d.role == "note" for d in result.diagnoses)


def test_n_above_the_slots_stays_the_range_family():
    """Near miss: n above -np is server-schema.cpp's hard limit, refused before any slot runs (rendered)."""
    assert_named(
        "request-sampling-param-out-of-range",
        LLAMA_UP
        + '0.01.2 E srv    operator(): got exception: {"error":{"code":400,"message":"Field \'n\': Value must '
        'be between 1 <= value <= 4, but got 6","type":"invalid_request_error"}}\n',
    )
