"""Families of vLLM's GPU-kernel domain (issue 12), enumerated from vLLM's own source rather than from logs:
quantization methods, fused-MoE backend oracles and EP, attention backends, the CUDA platform's checks,
DeepGEMM and FlashInfer availability.

Each positive line is written from the source text with other prefixes and values than the knowledge base's
excerpts; the negative cases pin what each family must NOT claim.
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream


def top(text: str):
    r = triage_stream(io.StringIO(text + "\n"), "t")
    return r.diagnoses[0]


POSITIVE = [
    (
        "quant-act-order-unsupported",
        "(EngineCore_DP0 pid=412) ValueError: GPTQ group activation ordering (desc_act=True) is no longer"
        " supported, but is enabled by dynamic rule model.layers.3. Use a checkpoint with static activation"
        " ordering or desc_act=False.",
    ),
    (
        "quant-act-order-unsupported",
        "ValueError: Compressed-tensors group/dynamic activation ordering (actorder=dynamic) is no longer supported.",
    ),
    (
        "fp8-online-quant-renamed",
        "[rank0]: ValueError: The `fp8` quantization method no longer supports online quantization. Please use"
        " `--quantization fp8_per_tensor` instead.",
    ),
    ("marlin-input-dtype-unsupported", "RuntimeError: MXFP4 weight + INT8 activation is not supported."),
    ("marlin-input-dtype-unsupported", "(Worker_TP1 pid=99) RuntimeError: Marlin W8A8 is not supported."),
    ("quant-kernel-needs-newer-gpu", "NotImplementedError: DeepGEMM MegaMoE requires SM100 GPUs."),
    ("quant-kernel-needs-newer-gpu", "ValueError: Block-quantized dense weights require b12x on SM12x"),
    (
        "quant-kernel-needs-newer-gpu",
        "ValueError: --kv-cache-dtype nvfp4 requires the SM100 trtllm-gen FlashInfer path.",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        "ValueError: bfloat16 KV cache is not supported on Quadro RTX 8000 (compute capability 7.5); bfloat16"
        " requires SM80+. Re-run with --kv-cache-dtype float16.",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        "NotImplementedError: FlashAttention does not support fp8_e4m3 kv-cache on this device.",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        "ValueError: Unsupported FP8 kv_cache_dtype fp8_ds_mla: should be one of 'fp8', 'fp8_e4m3', 'fp8_e5m2'.",
    ),
    (
        "checkpoint-kv-cache-scheme-unsupported",
        "NotImplementedError: Invalid strategy for compressed-tensors KV cache. Expected strategies: ['tensor'],"
        " found strategy: group",
    ),
    (
        "checkpoint-kv-cache-scheme-unsupported",
        "NotImplementedError: Currently supported kv cache quantization is dtype=fp8_e4m3, however received int8",
    ),
    (
        "attention-sinks-backend-unsupported",
        "NotImplementedError: FlashInfer BatchDCPPrefillWrapper does not support attention sinks. Please use TRTLLM"
        " on Blackwell or FlashAttention on earlier GPUs.",
    ),
    (
        "attention-backend-lacks-model-feature",
        "NotImplementedError: CutlassMLAImpl does not support one of the following: alibi_slopes, sliding_window, logits_soft_cap",
    ),
    (
        "attention-backend-lacks-model-feature",
        "NotImplementedError: FlexAttention does not support logits soft cap yet.",
    ),
    (
        "attention-backend-lacks-model-feature",
        "NotImplementedError: Encoder self-attention and encoder/decoder cross-attention are not implemented for FlashMLAImpl",
    ),
    (
        "flashinfer-sliding-window-per-layer",
        "(EngineCore pid=7) ValueError: Window left is not the same for all layers. One potential fix is to set disable_sliding_window=True",
    ),
    (
        "attention-backend-name-unknown",
        "ValueError: Unknown attention backend: 'FLASH_ATTENTION'. Valid options are: FLASH_ATTN, TRITON_ATTN",
    ),
    # after34p: XFORMERS is a name older vLLMs had (removed in PR #29262): the removed-backend family
    (
        "attention-backend-removed",
        "ValueError: Unknown attention backend: 'XFORMERS'. Valid options are: FLASH_ATTN, TRITON_ATTN",
    ),
    (
        "flashinfer-missing-or-old",
        "RuntimeError: FlashInfer MoE-EP requires the public API shipped with FlashInfer 0.8.1 or newer",
    ),
    ("flashinfer-missing-or-old", "ValueError: The installed FlashInfer does not support SITU"),
    (
        "deepgemm-not-installed",
        "RuntimeError: FlashInfer MoE-EP DeepGEMM requires a usable DeepGEMM installation",
    ),
    (
        "deepgemm-not-installed",
        "RuntimeError: DeepGEMM MegaMoE requires a DeepGEMM build with bf16_mega_gate.",
    ),
    (
        "moe-no-backend-for-config",
        "NotImplementedError: No NvFp4 MoE backend supports the deployment configuration.",
    ),
    ("moe-no-backend-for-config", "ValueError: No MXFP8 MoE backends available."),
    (
        "moe-backend-choice-invalid",
        "ValueError: moe_backend='marlin' is not supported for NvFP4 MoE. Expected one of ['flashinfer_cutlass'].",
    ),
    (
        "moe-backend-choice-invalid",
        "RuntimeError: pre-processed weights require FLASHINFER_TRTLLM_MXFP4_MXFP8 moe backend, got triton",
    ),
    (
        "eplb-uneven-experts",
        "ValueError: EPLB currently only supports even distribution of experts across ranks. Got 384 experts and 7 EP ranks.",
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        "NotImplementedError: No quark compatible scheme was found. Weight config: {'dtype': 'int2'}, Input config: None",
    ),
    ("checkpoint-quant-scheme-unsupported", "ValueError: AutoGPTQMoEMethod only supports int4 and int8 now."),
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Unsupported ModelOpt FP8 quant_algo for vLLM: FP8_BLOCK. Supported: FP8 / FP8_PER_CHANNEL_PER_TOKEN.",
    ),
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: MXFP8 quantization requires the following fields in hf_quant_config.json: ['kv_cache_quant_algo']",
    ),
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: Quark W4A16 INT4/UINT4 configs must specify weight.symmetric",
    ),
    (
        "fused-layer-shards-quantized-differently",
        "ValueError: Found different quantization schemes for the shards of model.layers.9.self_attn.qkv_proj. vLLM requires all to use the same scheme.",
    ),
    (
        "fused-layer-shards-quantized-differently",
        "ValueError: Mixed quant_algo within fused layer model.layers.0.self_attn.qkv_proj: {'FP8', None}. All shards must use the same quantization.",
    ),
    (
        "quant-package-missing",
        "ImportError: The package `amd-quark` is required to use MX-FP6 models. Please install it with `pip install amd-quark`.",
    ),
    (
        "quant-package-missing",
        "ImportError: Please install torchao>=0.10.0 via `pip install torchao>=0.10.0` to use torchao quantization.",
    ),
    (
        "nvfp4-layer-stored-unquantized",
        "RuntimeError: NVFP4 weight_scale for layer lm_head was never loaded (still NaN). The checkpoint likely stores this layer as BF16 (not FP4).",
    ),
    ("kernel-dtype-requires-bf16", "ValueError: Block-quantized routed experts require BF16 activations"),
    (
        "kernel-dtype-requires-bf16",
        "ValueError: Unquantized Moe Backend FlashInfer TRTLLM requires bfloat16 weights",
    ),
    (
        "quant-method-not-on-platform",
        "ValueError: awq_marlin quantization is currently not supported in xpu.",
    ),
    (
        "visible-device-mismatch",
        "IndexError: visible device ordinal 3 is out of range for CUDA_VISIBLE_DEVICES=1,2",
    ),
    ("vllm-env-var-unknown", "ValueError: Unknown vLLM environment variable detected: VLLM_USE_DEEPGEMM"),
    (
        "mx-quant-needs-serialized-checkpoint",
        "ValueError: MXFP8 quantization requires a serialized checkpoint. Dynamic quantization is not supported.",
    ),
    (
        "quant-method-deprecated",
        "ValueError: ('The quantization method %s is deprecated and will be removed in future versions of vLLM."
        " To bypass, set `--allow-deprecated-quantization`.', 'experts_int8')",
    ),
    (
        "eplb-config-inconsistent",
        "ValueError: num_redundant_experts is set to 16 but EPLB is not enabled. Either enable EPLB or unset num_redundant_experts.",
    ),
    (
        "eplb-config-inconsistent",
        "NotImplementedError: EPLB is not supported CompressedTensorsWNA16MoEMethod.",
    ),
    ("moe-backend-no-lora", "NotImplementedError: LoRA is not supported for B12xExperts"),
    (
        "quant-transform-no-tensor-parallel",
        "(Worker_TP3 pid=5) NotImplementedError: Online transforms with tensor parallelism is not supported",
    ),
    (
        "moe-backend-choice-invalid",
        "ValueError: moe_backend=flashinfer_nvlink_one_sided is only supported for DeepSeek-V4 models (['A']), but the model is ['B'].",
    ),
    (
        "marlin-gpu-too-old",
        "Server error: 400 - [address=0.0.0.0:4000, pid=9] Marlin does not support weight_bits = uint4b8. Only types = []"
        " are supported (for group_size = 64, min_capability = 75, zp = False)",
    ),
    (
        "marlin-config-unsupported",
        "ValueError: Marlin does not support weight_bits = uint8. Only types = [ScalarType.uint4] are supported"
        " (for group_size = 128, device_capability = 90, zp = True).",
    ),
    (
        "marlin-config-unsupported",
        "ValueError: Marlin does not support group_size = 16. Only group_sizes = [-1, 32, 64, 128] are supported.",
    ),
    (
        "attention-backend-lacks-model-feature",
        "NotImplementedError: FlexAttention does not support sliding window yet.",
    ),
    # older vLLM wordings (awq.py/gptq.py bit widths, XFormers, the fp8 checkpoint KV check)
    (
        "attention-backend-lacks-model-feature",
        "ERROR 03-11 09:12:44 engine.py:366] ValueError: XFormers does not support attention logits soft capping.",
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Currently, only 2/3/4/8-bit weight quantization is supported for GPTQ, but got 6 bits.",
    ),
    (
        "fp8-e5m2-kv-with-fp8-checkpoint",
        "(VllmWorker rank=1 pid=77) ValueError: fp8_e5m2 kv-cache is not supported with fp8 checkpoints.",
    ),
    # extensions of existing families
    (
        "quantized-input-not-aligned",
        "ValueError: MXFP8 requires input_size_per_partition (1440) to be divisible by 32.",
    ),
    (
        "quantized-input-not-aligned",
        "ValueError: Input size per partition (2000) must be divisible by group size (16)",
    ),
    ("block-size-unsupported", "ValueError: b12x requires --block-size in (32, 64), got 128."),
    (
        "block-size-unsupported",
        "ValueError: Aligned KV cache block size 96 is not supported by attention backend(s): CUTLASS_MLA, FLASHMLA.",
    ),
    (
        "attention-backend-none-valid",
        "ValueError: No valid MLA prefill backend found with cfg(head=192). Reasons: {TRTLLM_RAGGED: [compute capability not supported]}.",
    ),
    ("unknown-quantization-method", "(EngineCore pid=8) ValueError: Invalid quantization method: awq_gemv"),
    ("rope-parameters-invalid", "ValueError: Unknown RoPE scaling type mrope_v9"),
]


@pytest.mark.parametrize(("family", "line"), POSITIVE)
def test_a_vllm_gpu_kernel_failure_is_named(family, line):
    d = top(line)
    assert d.id == family, (d.id, line)
    # confident, unless the corpus saw these words carry another cause too (shared_wording.py: then capped and
    # labelled calibrated, with the other causes named)
    assert d.confidence >= CONFIDENT or (d.confidence_kind == "calibrated" and d.shared_with), d


NEGATIVE = [
    # a Triton build without FP8 is not a KV-cache choice: the existing fp8 family keeps it
    ("kv-cache-dtype-unsupported-on-gpu", "RuntimeError: type fp8e4nv not supported in this architecture"),
    # an online quant on a Blackwell-only path is not a missing package, and vice versa
    ("quant-package-missing", "ModuleNotFoundError: No module named 'flashinfer'"),
    # a request that names a backend the user did not choose is not an unknown backend
    ("attention-backend-name-unknown", "INFO Using FLASH_ATTN backend."),
    # MoE: one backend excluding the GPU stays its own family; it is not 'no backend at all'
    (
        "moe-no-backend-for-config",
        "ValueError: MoE backend 'flashinfer_cutlass' does not support the deployment configuration",
    ),
    # an EPLB warning without the even-split wording
    ("eplb-uneven-experts", "WARNING EPLB is enabled; rebalancing every 3000 steps"),
    # a plain visibility message from Ray is not a device-mask mismatch
    ("visible-device-mismatch", "WARNING ray: CUDA_VISIBLE_DEVICES is set to 0,1"),
    # fp8 block shapes: the TP split family keeps them, not the unsupported-scheme family
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Weight output_partition_size = 96 is not divisible by weight quantization block_n = 128.",
    ),
    # a bare import of bitsandbytes, without the quantizer's own install hint, is python-module-missing's
    # (the hint itself is quant-package-missing's since fresh-13)
    ("quant-package-missing", "ModuleNotFoundError: No module named 'bitsandbytes'"),
    # the warning printed when the deprecated method is allowed is not a failure
    (
        "quant-method-deprecated",
        "WARNING The quantization method fbgemm_fp8 is deprecated and will be removed in future versions of vLLM.",
    ),
    # a LoRA refusal that is not about a MoE backend
    ("moe-backend-no-lora", "ValueError: LoRA is not supported for Mamba2ForCausalLM"),
    # fused MoE runs fp32 too: its compute_type refusal is not a --dtype bfloat16 answer
    ("kernel-dtype-requires-bf16", "ValueError: Unsupported compute_type: torch.float8_e4m3fn"),
    # the warning (strict env check off) is not the refusal
    ("vllm-env-var-unknown", "WARNING Unknown vLLM environment variable detected: VLLM_FOO"),
]


@pytest.mark.parametrize(("family", "line"), NEGATIVE)
def test_a_vllm_gpu_kernel_family_does_not_overclaim(family, line):
    r = triage_stream(io.StringIO(line + "\n"), "t")
    assert all(d.id != family for d in r.diagnoses), [d.id for d in r.diagnoses]


def test_a_kv_dtype_refusal_outranks_the_backend_selector_that_wraps_it():
    d = top(
        "ValueError: Selected backend TRITON_ATTN is not valid for this configuration. Reason: ['kv_cache_dtype not supported']\n"
        "ValueError: FP8 KV cache is not supported by the Triton attention backend on Tesla V100 (compute capability 7.0);"
        " native FP8 (fp8e4nv) requires SM89+. Re-run with --kv-cache-dtype auto."
    )
    assert d.id == "kv-cache-dtype-unsupported-on-gpu"


def test_no_moe_backend_outranks_one_backend_excluding_the_gpu():
    d = top(
        "WARNING MoE backend 'flashinfer_trtllm' does not support the deployment configuration since compute capability\n"
        "NotImplementedError: No MXFP4 MoE backend supports the deployment configuration."
    )
    assert d.id == "moe-no-backend-for-config"


def test_a_config_dump_naming_the_moe_backend_is_not_a_refusal():
    r = triage_stream(
        io.StringIO(
            "INFO [core.py:93] Initializing a V1 LLM engine with config: ... moe_backend='auto', enforce_eager=False\n"
        ),
        "t",
    )
    assert all(d.id != "moe-backend-choice-invalid" for d in r.diagnoses)
