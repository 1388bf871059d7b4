"""What the scored batch fresh-227 (H200, vLLM 0.26: quantized checkpoints and quantization options) taught after
scoring, with the neighbourhood of its miss: FlashAttention 3's dtype and head-size checks in mha_fwd
(Dao-AILab/flash-attention hopper/flash_api.cpp, built into vLLM as vllm_flash_attn's _vllm_fa3_C).

- kernel-dtype-requires-bf16: FA3 writes only BF16 output for FP8 input; vLLM hands it an FP8 query (an fp8 KV cache)
  with an output buffer in the model dtype, so a float16 model (GPTQ/AWQ, --dtype float16) dies in the first forward.
- kv-cache-dtype-unsupported-on-gpu: FA3 takes FP8 q/k/v only on Hopper, and not with a V head size above 256.
- flash-attn-head-size-unsupported: FA3's head-size alignment (8 elements, 16 for FP8).
Messages are the source's TORCH_CHECK strings (rendered where they carry a number), not the batch's log line.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CORE = "(EngineCore_DP0 pid=812) ERROR 03-02 10:11:12 [core.py:708] "
FA3_CALL = (
    CORE
    + "Traceback (most recent call last):\n"
    + CORE
    + '  File "/usr/local/lib/python3.12/dist-packages/vllm/vllm_flash_attn/flash_attn_interface.py", '
    "line 300, in flash_attn_varlen_func\n"
    + CORE
    + "    out, softmax_lse, *rest = torch.ops._vllm_fa3_C.fwd(\n"
)

CASES = [
    # FA3's output-dtype check, as the bare exception line of a process other than vLLM's core (a script calling
    # flash_attn_interface with an fp8 query and a float16 out=)
    (
        "kernel-dtype-requires-bf16",
        "Traceback (most recent call last):\n"
        '  File "/opt/app/bench.py", line 41, in <module>\n'
        "    out = flash_attn_func(q8, k8, v8, out=o16)\n"
        "RuntimeError: For FP16/BF16 input, output must have the same dtype as inputs. "
        "For FP8 input, output must have dtype BF16\n",
    ),
    # ... inside vLLM's engine core (the AWQ case: float16 forced by the checkpoint, --kv-cache-dtype fp8)
    (
        "kernel-dtype-requires-bf16",
        "INFO 03-02 10:10:01 [cache.py:285] Using fp8 data type to store kv cache.\n"
        + FA3_CALL
        + CORE
        + "RuntimeError: For FP16/BF16 input, output must have the same dtype as inputs. "
        "For FP8 input, output must have dtype BF16\n",
    ),
    # FA3 with FP8 input on an SM8x card (an fp8 KV cache where FA3 was forced on Ada)
    (
        "kv-cache-dtype-unsupported-on-gpu",
        FA3_CALL
        + CORE
        + "RuntimeError: FlashAttention on Ampere/Ada cards only supports fp16 and bf16 data type\n",
    ),
    # FA3 with FP8 input and a V head size above 256 (an MLA-style head with an fp8 KV cache)
    (
        "kv-cache-dtype-unsupported-on-gpu",
        FA3_CALL + CORE + "RuntimeError: HeaddimV > 256 requires fp16 and bf16 data type\n",
    ),
    # FA3's head-size alignment (rendered: 16 for FP8 input, 8 otherwise)
    (
        "flash-attn-head-size-unsupported",
        FA3_CALL + CORE + "RuntimeError: head_size should be a multiple of 16\n",
    ),
    (
        "flash-attn-head-size-unsupported",
        FA3_CALL + CORE + "RuntimeError: head_size_v should be a multiple of 8\n",
    ),
]

NEAR_MISSES = [
    # FA3's input-dtype check (a float32 model) is flash-attn-gpu-unsupported's, not a bfloat16 requirement
    (
        "kernel-dtype-requires-bf16",
        FA3_CALL + CORE + "RuntimeError: FlashAttention only supports fp16, bf16, and fp8_e4m3 data type\n",
    ),
    # FA3's q/k dtype mismatch (a drafter's unquantized query against an fp8 cache) names no dtype the model needs
    (
        "kernel-dtype-requires-bf16",
        FA3_CALL + CORE + "RuntimeError: query and key must have the same dtype\n",
    ),
    # the output-dtype check is not an unsupported KV type on this GPU: the GPU takes fp8 with a bfloat16 model
    (
        "kv-cache-dtype-unsupported-on-gpu",
        FA3_CALL + CORE + "RuntimeError: For FP16/BF16 input, output must have the same dtype as inputs. "
        "For FP8 input, output must have dtype BF16\n",
    ),
    # a multiple-of check of another tensor is not the head size
    ("flash-attn-head-size-unsupported", "ValueError: block_size should be a multiple of 16\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
