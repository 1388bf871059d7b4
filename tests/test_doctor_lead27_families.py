"""What the lead learnt after scoring fresh-39 (real vLLM 0.26 on the H200): the attention selector's refusal whose
every reason is the KV-cache dtype is that dtype's refusal, not the model's attention (kv-cache-dtype-unsupported-on-gpu);
a refusal with any other reason stays attention-backend-none-valid."""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream

SELECTOR = (
    "(EngineCore pid=4085) ValueError: No valid attention backend found for cuda with AttentionSelectorConfig("
    "head_size=256, dtype=torch.bfloat16, kv_cache_dtype={dtype}, block_size=None, use_mla=False, has_sink=False, "
    "attn_type=AttentionType.DECODER, has_sliding_window=True). Reasons: {{{reasons}}}."
)


def _top(line: str) -> str:
    result = triage_stream(io.BytesIO((line + "\n").encode()), "log")
    return next(d.id for d in result.diagnoses if d.role == "cause")


def test_every_backend_refusing_the_kv_dtype_is_the_kv_dtype():
    # another dtype and another set of backends than fresh-39's fp8_inc log
    reasons = "FLASH_ATTN: [kv_cache_dtype not supported], FLASHINFER: [ImportError], TRITON_ATTN: [kv_cache_dtype not supported, sliding window not supported]"
    assert _top(SELECTOR.format(dtype="fp8_ds_mla", reasons=reasons)) == "kv-cache-dtype-unsupported-on-gpu"


def test_a_backend_refusing_for_another_reason_leaves_the_selector_family():
    reasons = "FLASH_ATTN: [kv_cache_dtype not supported], TRITON_ATTN: [head_size not supported]"
    assert _top(SELECTOR.format(dtype="fp8_inc", reasons=reasons)) == "attention-backend-none-valid"
