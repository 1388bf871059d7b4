"""Families widened or added from older vLLM releases' own message texts (0.6.6.post1 to 0.11.0, read from their wheels'
sources): public threads come from those versions, whose wordings differ from the installed one. Each log is the message
rendered as that version prints it (a traceback under the engine process's prefix, or its ERROR line); each case is
named by the family's own wording (not by where it was raised) and forbids any other confident answer."""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.signatures import load_signatures
from tests.doctor_text import run, top_cause

CORE = "(EngineCore_DP0 pid=4711) "
SITE = "/usr/local/lib/python3.12/dist-packages/vllm/"


def tb(file: str, line: int, func: str, exc: str, prefix: str = CORE) -> str:
    """A traceback as vLLM's engine process prints it, innermost frame the message's own file and line."""
    return (
        f"{prefix}Traceback (most recent call last):\n"
        f'{prefix}  File "{SITE}{file}", line {line}, in {func}\n'
        f"{prefix}    raise ValueError(\n" + "".join(f"{prefix}{x}\n" for x in exc.splitlines())
    )


CASES = [
    # 0.7.3 v1/core/kv_cache_utils.py:465 (GB, no estimate) and 0.8.5 :545 (the estimate lost by a bug)
    (
        "max-model-len-exceeds-kv",
        tb(
            "v1/core/kv_cache_utils.py",
            465,
            "check_enough_kv_cache_memory",
            "ValueError: To serve at least one "
            "request with the models's max seq len (32768), (4.00 GB KV cache is needed, which is larger than the "
            "available KV cache memory (2.31 GB). Try increasing `gpu_memory_utilization` or decreasing "
            "`max_model_len` when initializing the engine.",
        ),
    ),
    (
        "max-model-len-exceeds-kv",
        tb(
            "v1/core/kv_cache_utils.py",
            545,
            "check_enough_kv_cache_memory",
            "ValueError: To serve at least one "
            "request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the "
            "available KV cache memory (9.12 GiB). Based on the available memory,  Try increasing "
            "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
        ),
    ),
    # 0.6.6-0.11 marlin_utils.py:137 / bitblas_utils.py:129: the per-rank split against the group size
    (
        "quantized-input-not-aligned",
        tb(
            "model_executor/layers/quantization/utils/marlin_utils.py",
            137,
            "verify_marlin_supports_shape",
            "ValueError: Weight input_size_per_partition = 3584 is not divisible by group_size = 128. Consider "
            "reducing tensor_parallel_size or running with --quantization gptq.",
        ),
    ),
    # 0.6.6-0.11 gptq_marlin_24.py:165
    (
        "marlin-tile-not-divisible",
        tb(
            "model_executor/layers/quantization/gptq_marlin_24.py",
            165,
            "create_weights",
            "ValueError: Weight output_size_per_partition = 1376 is not divisible by min_n_threads = 128.",
        ),
    ),
    # 0.8.5-0.11 config.py / config/model.py:419
    (
        "flashinfer-missing-or-old",
        tb(
            "config.py",
            419,
            "_verify_with_expert_parallelism",
            "ValueError: VLLM_ATTENTION_BACKEND is set to FLASHINFER, but flashinfer module was not found. See "
            "https://github.com/vllm-project/vllm/blob/main/docker/Dockerfile for instructions on how to install it.",
            prefix="",
        ),
    ),
    # 0.6.6 attention/selector.py:22
    (
        "attention-backend-name-unknown",
        tb(
            "attention/selector.py",
            22,
            "backend_name_to_enum",
            "ValueError: Invalid attention backend 'FLASH_ATTENTION'. Available backends: FLASH_ATTN, XFORMERS, "
            "ROCM_FLASH, TORCH_SDPA, OPENVINO, FLASHINFER, HPU_ATTN, PALLAS, IPEX, NO_ATTENTION (case-sensitive).",
            prefix="",
        ),
    ),
    # 0.8.5-0.11 gptq_bitblas.py:74
    (
        "optional-package-missing",
        tb(
            "model_executor/layers/quantization/gptq_bitblas.py",
            74,
            "__init__",
            "ValueError: Trying to use the bitblas backend, but could not importwith the following error: No module "
            "named 'bitblas'. Please install bitblas through the following command: `pip install bitblas>=0.1.0`",
        ),
    ),
    # 0.6.6-0.7.3 transformers_utils/tokenizer_group/__init__.py:46
    (
        "optional-package-missing",
        tb(
            "transformers_utils/tokenizer_group/__init__.py",
            46,
            "get_tokenizer_group",
            "ImportError: RayTokenizerGroupPool is not available. Please install the ray package to use the Ray "
            "tokenizer group pool.",
            prefix="",
        ),
    ),
    # 0.10-0.11 utils/deep_gemm.py:65
    (
        "deepgemm-not-installed",
        tb(
            "utils/deep_gemm.py",
            65,
            "_missing",
            "RuntimeError: DeepGEMM backend is not available. Please install the `deep_gemm` package to enable FP8 "
            "kernels.",
        ),
    ),
    # 0.6.6-0.7.3 v1/engine/processor.py:259 (a request: the server keeps serving)
    (
        "request-longer-than-context",
        "ERROR 01-20 09:12:44 serving_chat.py:170] Error in preprocessing prompt inputs\n"
        "ERROR 01-20 09:12:44 serving_chat.py:170] ValueError: The prompt (total length 9216) is too long to fit "
        "into the model (context length 8192). Make sure that `max_model_len` is no smaller than the number of text "
        "tokens plus multimodal tokens. For image inputs, the number of image tokens depends on the number of images, "
        "and possibly their aspect ratios as well.\n",
    ),
    # 0.6.6-0.9.2 entrypoints/llm.py: the older pooling refusal names --task
    (
        "pooling-api-needs-convert",
        tb(
            "entrypoints/llm.py",
            1199,
            "score",
            "ValueError: Score API is only enabled for `--task embed or --task score`",
            prefix="",
        ),
    ),
    # 0.6.6 model_loader/loader.py:1058
    (
        "bnb-prequant-no-tensor-parallel",
        tb(
            "model_executor/model_loader/loader.py",
            1058,
            "_load_weights",
            "ValueError: Prequant BitsAndBytes models with TP is not supported.Please try with PP.",
        ),
    ),
    # 0.7.3 attention/backends/rocm_flash_attn.py:498
    (
        "attention-backend-lacks-model-feature",
        tb(
            "attention/backends/rocm_flash_attn.py",
            498,
            "__init__",
            "ValueError: ROCm Triton FlashAttention does not support attentionlogits soft capping. please try using "
            "the ROCm CK FA backend instead by setting the env var `VLLM_USE_TRITON_FLASH_ATTN=0`",
        ),
    ),
    # 0.8.5-0.11 modelopt.py:861
    (
        "quantization-min-capability",
        tb(
            "model_executor/layers/quantization/modelopt.py",
            861,
            "create_weights",
            "ValueError: Current platform does not support NVFP4 quantization. Please use Blackwell and above.",
        ),
    ),
    # 0.6.6-0.8.5 platforms/cuda.py:48 (new family)
    (
        "cuda-visible-devices-empty",
        tb(
            "platforms/cuda.py",
            48,
            "device_id_to_physical_device_id",
            "RuntimeError: CUDA_VISIBLE_DEVICES is set to empty string, which means GPU support is disabled. If you "
            "are using ray, please unset the environment variable `CUDA_VISIBLE_DEVICES` inside the worker/actor. "
            "Check https://github.com/vllm-project/vllm/issues/8402 for more information.",
            prefix="",
        ),
    ),
    # 0.8.5-0.10.2 v1/engine/processor.py ('no longer supported'), 0.11 ('not supported') (new family)
    (
        "request-structured-output-backend-per-request",
        "ERROR 05-02 11:04:19 [serving_chat.py:200] Error in preprocessing prompt inputs\n"
        "ERROR 05-02 11:04:19 [serving_chat.py:200] ValueError: Request-level structured output backend selection is "
        "no longer supported. The request specified 'outlines', but vLLM was initialised with 'xgrammar'. This error "
        "can be resolved by removing backend selection from the request.\n",
    ),
    (
        "request-structured-output-backend-per-request",
        tb(
            "v1/engine/processor.py",
            241,
            "_validate_structured_output",
            "ValueError: Request-level structured output backend selection is not supported. The request specified "
            "'guidance', but vLLM was initialised with 'xgrammar'. This error can be resolved by removing '_backend' "
            "from the request.",
            prefix="(APIServer pid=1) ",
        ),
    ),
    # 0.6.6-0.11 kernels/mixed_precision/__init__.py:90 (new family)
    (
        "quant-linear-no-kernel",
        tb(
            "model_executor/layers/quantization/kernels/mixed_precision/__init__.py",
            90,
            "choose_mp_linear_kernel",
            "ValueError: Failed to find a kernel that can implement the WNA16 linear layer. Reasons: \n"
            "MacheteLinearKernel requires capability 90, current compute  capability is 75\n"
            " AllSparkLinearKernel cannot implement due to: For Ampere GPU, AllSpark does not support group_size = 32.\n"
            " MarlinLinearKernel cannot implement due to: Group size (32) not supported by Marlin, supported group "
            "sizes are: [-1, 128, 64]",
        ),
    ),
    # 0.6.6 config.py:1007 (CacheConfig) and 0.11 config/cache.py:169 (a pydantic validator's 'Value error, ') (new family)
    (
        "gpu-memory-utilization-above-one",
        tb(
            "config.py",
            1007,
            "_verify_args",
            "ValueError: GPU memory utilization must be less than 1.0. Got 90.0.",
            prefix="",
        ),
    ),
    (
        "gpu-memory-utilization-above-one",
        "(APIServer pid=1) pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\n"
        "(APIServer pid=1)   Value error, GPU memory utilization must be less than 1.0. Got 95.0. [type=value_error, "
        "input_value=ArgsKwargs((), {'block_size': None, 'gpu_memory_utilization': 95.0}), input_type=ArgsKwargs]\n"
        "(APIServer pid=1)     For further information visit https://errors.pydantic.dev/2.11/v/value_error\n",
    ),
    # 0.8.5 config.py:1441, 0.11 config/cache.py:218 (new family)
    (
        "swap-space-too-large",
        tb(
            "config.py",
            1441,
            "verify_with_parallel_config",
            "ValueError: Too large swap space. 32.00 GiB out of the "
            "31.26 GiB total CPU memory is allocated for the swap space.",
            prefix="",
        ),
    ),
    # 0.6.6-0.11 lora/models.py:431 (new family)
    (
        "lora-bias-needs-flag",
        tb(
            "lora/models.py",
            431,
            "activate_adapter",
            "ValueError: Adapter bias cannot be used for "
            "model.layers.0.self_attn.qkv_proj without --enable-lora-bias.",
        ),
    ),
    # 0.6.6-0.9.2 engine/arg_utils.py:1203 (a parenthesis after the second option)
    (
        "options-incompatible",
        tb(
            "engine/arg_utils.py",
            1203,
            "create_engine_config",
            "ValueError: Speculative decoding is not supported with multi-step (--num-scheduler-steps > 1)",
            prefix="",
        ),
    ),
    # 0.6.6-0.11 compressed_tensors_wNa16.py:55
    (
        "checkpoint-quant-scheme-unsupported",
        tb(
            "model_executor/layers/quantization/compressed_tensors/schemes/compressed_tensors_wNa16.py",
            55,
            "__init__",
            "ValueError: Marlin kernels require group quantization or channelwise quantization, but found no group "
            "size and strategy is not channelwise.",
        ),
    ),
    # 0.10-0.11 engine/arg_utils.py:1296 and :1302
    (
        "options-incompatible",
        tb(
            "engine/arg_utils.py",
            1296,
            "create_engine_config",
            "ValueError: Async scheduling is not supported with pipeline-parallel-size > 1.",
            prefix="(APIServer pid=1) ",
        ),
    ),
    (
        "options-incompatible",
        tb(
            "engine/arg_utils.py",
            1302,
            "create_engine_config",
            "ValueError: Currently, speculative decoding is not supported with async scheduling.",
            prefix="(APIServer pid=1) ",
        ),
    ),
    # 0.7.3 entrypoints/cli/serve.py:27
    (
        "vllm-serve-model-flag",
        tb(
            "entrypoints/cli/serve.py",
            27,
            "cmd",
            "ValueError: With `vllm serve`, you should provide the model as a "
            "positional argument instead of via the `--model` option.",
            prefix="",
        ),
    ),
    # 0.6.6-0.7.3 engine/arg_utils.py:1111/1118, 0.8.5 :1033 (new family)
    (
        "bnb-quantization-load-format-mismatch",
        tb(
            "engine/arg_utils.py",
            1111,
            "create_load_config",
            "ValueError: BitsAndBytes quantization and QLoRA adapter "
            "only support 'bitsandbytes' load format, but got auto",
            prefix="",
        ),
    ),
    (
        "bnb-quantization-load-format-mismatch",
        tb(
            "engine/arg_utils.py",
            1033,
            "create_load_config",
            "ValueError: QLoRA adapter only support 'bitsandbytes' quantization, but got None",
            prefix="",
        ),
    ),
    # 0.10-0.11 entrypoints/llm.py:969 (new family)
    (
        "llm-method-runner-mismatch",
        tb(
            "entrypoints/llm.py",
            969,
            "encode",
            "ValueError: LLM.encode() is only supported for pooling models. Try "
            "passing `--runner pooling` to use the model as a pooling model.",
            prefix="",
        ),
    ),
    # 0.6.6-0.11 transformers_utils/processor.py:228 (image processor), 0.8.5-0.11 :181 (feature extractor)
    (
        "custom-class-not-loadable",
        tb(
            "transformers_utils/processor.py",
            228,
            "get_image_processor",
            "RuntimeError: Failed to load the image "
            "processor. If the image processor is a custom processor not yet available in the HuggingFace transformers "
            "library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.",
        ),
    ),
    (
        "custom-class-not-loadable",
        tb(
            "transformers_utils/processor.py",
            181,
            "get_feature_extractor",
            "RuntimeError: Failed to load the feature "
            "extractor. If the feature extractor is a custom extractor not yet available in the HuggingFace transformers "
            "library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.",
        ),
    ),
    # 0.9.2-0.11 entrypoints/utils.py:178, 0.10-0.11 entrypoints/renderer.py:284 (new family)
    (
        "request-truncation-above-context",
        "(APIServer pid=1) ERROR 09-20 10:11:12 [serving_embedding.py:154] Error in preprocessing prompt inputs\n"
        "(APIServer pid=1) ERROR 09-20 10:11:12 [serving_embedding.py:154] ValueError: truncate_prompt_tokens value "
        "(16384) is greater than max_model_len (8192). Please, select a smaller truncation size.\n",
    ),
    (
        "request-truncation-above-context",
        tb(
            "entrypoints/renderer.py",
            284,
            "_validate_and_normalize_truncate_tokens",
            "ValueError: "
            "truncate_prompt_tokens (4096) cannot be greater than max_length (512). Please select a smaller truncation "
            "size.",
            prefix="(APIServer pid=1) ",
        ),
    ),
    # 0.9.2-0.11 v1/core/kv_cache_utils.py:1146 (new family)
    (
        "hybrid-kv-manager-disabled",
        tb(
            "v1/core/kv_cache_utils.py",
            1146,
            "unify_hybrid_kv_cache_specs",
            "ValueError: Hybrid KV cache manager is "
            "disabled but failed to convert the KV cache specs to one unified type.",
        ),
    ),
    # 0.8.5-0.9.2 entrypoints/chat_utils.py:569 ('in one request'; a refused request)
    (
        "request-over-mm-limit",
        "ERROR 05-06 07:08:09 [serving_chat.py:200] Error in preprocessing prompt inputs\n"
        "ERROR 05-06 07:08:09 [serving_chat.py:200] ValueError: At most 1 image(s) may be provided in one request. You "
        "can set `--limit-mm-per-prompt` to increase this limit if the model supports it.\n",
    ),
    # 0.7.3 modelopt.py:59
    (
        "checkpoint-quant-scheme-unsupported",
        tb(
            "model_executor/layers/quantization/modelopt.py",
            59,
            "from_config",
            "ValueError: ModelOpt currently only "
            "supports static FP8quantization in vLLM. Please check the `hf_quant_config.json` file for your model's quant "
            "configuration.",
        ),
    ),
    # 0.8.5 config.py ('Must be either'), 0.11 config/model.py:740 ('Must be one of'): a mode name that does not exist
    # is the flag's value (after35l: cli-invalid-choice, no longer tokenizer-mode-mismatch)
    (
        "cli-invalid-choice",
        tb(
            "config.py",
            475,
            "_verify_tokenizer_mode",
            "ValueError: Unknown tokenizer mode: mistal. Must be either "
            "'auto', 'slow', 'mistral' or 'custom'.",
            prefix="",
        ),
    ),
    (
        "cli-invalid-choice",
        "(APIServer pid=1) pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        "(APIServer pid=1)   Value error, Unknown tokenizer mode: hf_fast. Must be one of ('auto', 'slow', 'mistral', "
        "'custom'). [type=value_error, input_value=ArgsKwargs((), {'model': 'Qwen/Qwen3-8B'}), input_type=ArgsKwargs]\n",
    ),
    # 0.8.5 v1/core/kv_cache_utils.py:325, 0.10.2 :450 (new family)
    (
        "mm-hashing-disabled-with-prefix-caching",
        tb(
            "v1/core/kv_cache_utils.py",
            325,
            "hash_request_tokens",
            "ValueError: The number of multi-modal positions and "
            "hashes must match. This is likely because you do not enable MM preprocessor hashing. Please set "
            "disable_mm_preprocessor_cache=False.",
        ),
    ),
    (
        "mm-hashing-disabled-with-prefix-caching",
        tb(
            "v1/core/kv_cache_utils.py",
            450,
            "_gen_mm_extra_hash_keys",
            "ValueError: The number of multi-modal positions "
            "and hashes must match. This is likely because you did not enable MM hashing. Please set "
            "`mm_processor_cache_gb > 0`.",
        ),
    ),
    # 0.6.6-0.11 v1/engine/llm_engine.py (new family)
    (
        "skip-tokenizer-init-needs-tokenizer",
        tb(
            "v1/engine/llm_engine.py",
            255,
            "get_tokenizer_group",
            "ValueError: Unable to get tokenizer because skip_tokenizer_init is True",
            prefix="",
        ),
    ),
    # 0.9.2-0.11 gguf.py:379, and the kernels' NotImplementedError (0.6.6-0.11 gguf.py:144) (new family)
    (
        "vllm-gguf-quant-type-unsupported",
        tb(
            "model_executor/layers/quantization/gguf.py",
            379,
            "process_weights_after_loading",
            "ValueError: Unsupported "
            "GGUF quantization type GGMLQuantizationType.IQ1_M in layer QKVParallelLinear(in_features=4096).",
        ),
    ),
    (
        "vllm-gguf-quant-type-unsupported",
        tb(
            "model_executor/layers/quantization/gguf.py",
            144,
            "_fuse_mul_mat",
            "NotImplementedError: Unsupported GGUF quantization type: GGMLQuantizationType.TQ1_0",
        ),
    ),
    # 0.7.3-0.11 compressed_tensors_24.py:75, 0.6.6 :44 ('built withCUDA') (new family)
    (
        "sparse-cutlass-unsupported",
        tb(
            "model_executor/layers/quantization/compressed_tensors/schemes/compressed_tensors_24.py",
            44,
            "create_weights",
            "ValueError: Sparse CUTLASS not supported. vLLM must be built withCUDA 12.2 or later to "
            "use this feature",
        ),
    ),
    # 0.11 transformers_utils/processor.py:278
    (
        "custom-class-not-loadable",
        tb(
            "transformers_utils/processor.py",
            278,
            "get_video_processor",
            "RuntimeError: Failed to load the video "
            "processor. If the video processor is a custom processor not yet available in the HuggingFace transformers "
            "library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.",
            prefix="(APIServer pid=1) ",
        ),
    ),
    # 0.10-0.11 entrypoints/tool.py:31
    (
        "optional-package-missing",
        tb(
            "entrypoints/tool.py",
            31,
            "validate_gpt_oss_install",
            "ImportError: Package 'gpt_oss' is not installed.",
            prefix="(APIServer pid=1) ",
        ),
    ),
    # 0.10.2 config/__init__.py:1307 (Qwen2.5-1M), 0.10-0.11 models/motif.py:184 (new family)
    (
        "model-needs-attention-backend",
        tb(
            "config/__init__.py",
            1307,
            "_verify_dual_chunk_attention",
            "ValueError: please set VLLM_ATTENTION_BACKEND to DUAL_CHUNK_FLASH_ATTN",
            prefix="(APIServer pid=1) ",
        ),
    ),
    (
        "model-needs-attention-backend",
        tb(
            "model_executor/models/motif.py",
            200,
            "__init__",
            'ValueError: Set VLLM_ATTENTION_BACKEND="DIFFERENTIAL_FLASH_ATTN" '
            "to enable Differential Flash Attention.",
        ),
    ),
    # 0.8.5-0.11 executor/ray_distributed_executor.py:535, 0.6.6-0.7.3 :514 ('is set.Run')
    (
        "optional-package-missing",
        tb(
            "executor/ray_distributed_executor.py",
            535,
            "_compiled_ray_dag",
            "ValueError: cupy is not installed but "
            "required since VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE is set to 'nccl'. Run `pip install ray[cgraph]` and "
            "check cupy installation.",
            prefix="",
        ),
    ),
    (
        "optional-package-missing",
        tb(
            "executor/ray_distributed_executor.py",
            514,
            "_compiled_ray_dag",
            "ValueError: cupy is not installed but "
            "required since VLLM_USE_RAY_COMPILED_DAG_NCCL_CHANNEL is set.Run `pip install ray[adag]` and check cupy "
            "installation.",
            prefix="",
        ),
    ),
    # 0.6.6-0.7.3 config.py:2462/2636, 0.9.2 config.py:3625 (new family)
    (
        "guided-decoding-backend-invalid",
        tb(
            "config.py",
            2636,
            "__post_init__",
            "ValueError: Invalid guided_decoding_backend 'xgrammer,must be one of "
            "['outlines', 'lm-format-enforcer', 'xgrammar']",
            prefix="",
        ),
    ),
    (
        "guided-decoding-backend-invalid",
        tb(
            "config.py",
            3625,
            "__post_init__",
            "ValueError: Invalid backend 'outlines', must be one of ('auto', 'xgrammar', 'guidance')",
            prefix="",
        ),
    ),
    # 0.6.6-0.11 entrypoints/chat_utils.py:1074
    (
        "chat-template-not-found",
        tb(
            "entrypoints/chat_utils.py",
            1074,
            "load_chat_template",
            "ValueError: The supplied chat template "
            "(./examples/tool_chat_template_llama3.1_json.jinja) looks like a file path, but it failed to be opened. "
            "Reason: [Errno 2] No such file or directory: './examples/tool_chat_template_llama3.1_json.jinja'",
            prefix="",
        ),
    ),
    # 0.6.6-0.11 lora/models.py:288 (new family)
    (
        "lora-target-modules-unsupported",
        tb(
            "lora/models.py",
            288,
            "from_local_checkpoint",
            "ValueError: While loading /data/adapters/chat-lora, "
            "expected target modules in ['qkv_proj', 'o_proj', 'gate_up_proj', 'down_proj'] but received "
            "['embed_tokens', 'lm_head']. Please verify that the loaded LoRA module is correct",
        ),
    ),
    # 0.6.6-0.11 lora/layers/logits_processor.py:89 (new family)
    (
        "lora-vocab-too-large",
        tb(
            "lora/layers/logits_processor.py",
            89,
            "create_lora_weights",
            "ValueError: When using LoRA, vocab size must be 32000 >= vocab_size <= 257024",
        ),
    ),
    # 0.6.6-0.11 bitsandbytes.py:55
    (
        "checkpoint-quant-scheme-unsupported",
        tb(
            "model_executor/layers/quantization/bitsandbytes.py",
            55,
            "__init__",
            "ValueError: Unsupported bnb_4bit_quant_storage: bfloat16",
        ),
    ),
    # 0.6.6-0.11 bitsandbytes_loader.py:516 (new family)
    (
        "bnb-loader-on-other-quant-checkpoint",
        tb(
            "model_executor/model_loader/bitsandbytes_loader.py",
            516,
            "_load_weights",
            "ValueError: BitsAndBytes loader does not support gptq quantization",
        ),
    ),
    # 0.8.5 config.py:2681, 0.11 config/lora.py:107 (new family)
    (
        "lora-rank-not-allowed",
        tb(
            "config.py",
            2681,
            "__post_init__",
            "ValueError: max_lora_rank (100) must be one of (8, 16, 32, 64, 128, 256, 320, 512).",
            prefix="",
        ),
    ),
    # 0.11 config/__init__.py:657
    (
        "object-storage-needs-streamer",
        tb(
            "config/__init__.py",
            657,
            "__post_init__",
            "ValueError: To load a model from S3, 'load_format' must be "
            "'runai_streamer', but got 'auto'. Model: s3://models/llama-3-8b",
            prefix="(APIServer pid=1) ",
        ),
    ),
    # 0.7.3-0.11 ptpc_fp8.py:39, 0.10-0.11 petit.py:60
    (
        "feature-needs-other-platform",
        tb(
            "model_executor/layers/quantization/ptpc_fp8.py",
            39,
            "__init__",
            "ValueError: ptpc_fp8 quantization is supported only on ROCm.",
        ),
    ),
    (
        "feature-needs-other-platform",
        tb(
            "model_executor/layers/quantization/petit.py",
            60,
            "from_config",
            "ValueError: The 'petit' quantization "
            "backend is designed for AMD GPUs and is not supported on the CUDA platform. For NVIDIA GPUs, please use a "
            "different quantization method such as FP8, AWQ, or GPTQ.",
        ),
    ),
    # 0.9.2 gpu_model_runner.py:2374, 0.9.2-0.11 flashattn_mla.py:85 (new family)
    (
        "full-cudagraph-unsupported",
        tb(
            "v1/worker/gpu_model_runner.py",
            2374,
            "initialize_attn_backend",
            "ValueError: Full CUDAGraph not supported "
            "for FlashInferBackend. Turn off CompilationConfig.full_cuda_graph or use a different attention backend.",
        ),
    ),
    (
        "full-cudagraph-unsupported",
        tb(
            "v1/attention/backends/mla/flashattn_mla.py",
            85,
            "__init__",
            "ValueError: Capture size larger than 992 is not supported for full cuda graph.",
        ),
    ),
]


@pytest.mark.parametrize(("family", "log"), CASES)
def test_old_vllm_wording_named(family: str, log: str) -> None:
    result = run(log)
    top = top_cause(result)
    assert top is not None and top.id == family
    sig = next(s for s in load_signatures() if s.id == family)
    assert any(sig.search(x) for x in log.splitlines()), "named by its wording, not by where it was raised"
    others = [
        d.id for d in result.diagnoses if d.id != family and d.role == "cause" and d.confidence >= CONFIDENT
    ]
    assert others == []
