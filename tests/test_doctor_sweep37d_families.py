"""The source sweep of vLLM 0.32's checks a user trips by the checkpoint (sweep37d): config.json fields, quantization
config files, tokenizer and LoRA loading, load formats the platform refuses (knowledge/vllm-loading-checks.toml), and
the families widened to their 0.32 wordings (lora-vocab-too-large, config-heads-inconsistent, rope-parameters-invalid,
visible-devices-not-indices, checkpoint-quant-scheme-unsupported, mm-prompt-placeholders-mismatch).
Each message is the source's format string filled with other values than the coverage harness's, wrapped as vLLM
prints it (an EngineCore or APIServer traceback, a script's traceback, an HTTP 400 body).
"""

from __future__ import annotations

from tests.doctor_text import family_tests


def engine(exc: str, msg: str, where: str = "model_executor/models/llama.py") -> str:
    """A worker's traceback under EngineCore's prefix, innermost frame in vLLM's `where`."""
    p = "(EngineCore_DP0 pid=4121) "
    return (
        f"{p}ERROR 12-05 15:02:11 [core.py:1012] EngineCore failed to start.\n"
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 1003, in run_engine_core\n'
        f"{p}    engine_core = EngineCoreProc(*args, **kwargs)\n"
        f'{p}  File "/opt/venv/lib/python3.12/site-packages/vllm/{where}", line 211, in __init__\n'
        f"{p}    raise {exc.rsplit('.', 1)[-1]}(\n"
        f"{p}{exc}: {msg}\n"
    )


def api(exc: str, msg: str, where: str = "transformers_utils/config.py") -> str:
    """The API server's own traceback (config parsing happens before the engine starts)."""
    p = "(APIServer pid=3990) "
    return (
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py", line 1900, in <module>\n'
        f"{p}    uvloop.run(run_server(args))\n"
        f'{p}  File "/opt/venv/lib/python3.12/site-packages/vllm/{where}", line 590, in f\n'
        f"{p}    raise {exc}(\n"
        f"{p}{exc}: {msg}\n"
    )


def script(exc: str, msg: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/me/run.py", line 14, in <module>\n'
        "    outs = llm.generate(prompts, params, lora_request=req)\n"
        f"{exc}: {msg}\n"
    )


def reply(msg: str, param: str = "null") -> str:
    return (
        '# request: POST http://127.0.0.1:8000/v1/chat/completions {"model": "m", "messages": [...]}\n'
        "HTTP/1.1 400 Bad Request\n"
        f'{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
    )


CASES = [
    # models/qwen2.py Qwen2MLP (and ~30 siblings): config.json hidden_act
    (
        "model-activation-unsupported",
        engine("ValueError", "Unsupported activation: gelu_new. Only silu is supported for now."),
    ),
    (
        "model-activation-unsupported",
        engine(
            "ValueError",
            "Unsupported activation: relu2. Only silu and fatrelu are supported for now.",
            "model_executor/models/minicpm.py",
        ),
    ),
    (
        "model-activation-unsupported",
        engine(
            "ValueError",
            "Activation function silu is not supported for Gemma models.",
            "model_executor/models/gemma.py",
        ),
    ),
    # models/utils.py AutoWeightsLoader._check_skipped_aliases
    (
        "tied-weight-source-missing",
        engine(
            "ValueError",
            "'lm_head.weight' was skipped because it is tied to 'model.embed_tokens.weight' in Qwen2ForCausalLM, but "
            "'model.embed_tokens.weight' was not found in the checkpoint, so the tied weight is uninitialized.",
            "model_executor/models/utils.py",
        ),
    ),
    (
        "model-tied-embeddings-unsupported",
        engine(
            "ValueError",
            "tie_word_embeddings is not supported for Dbrx models.",
            "model_executor/models/dbrx.py",
        ),
    ),
    (
        "model-config-attention-heads-missing",
        api(
            "ValueError",
            "The text_config extracted from the model config does not have `num_attention_heads` attribute. This "
            "indicates a mismatch between the model config and vLLM's expectations. Please ensure that the model "
            "config is compatible with vLLM.",
        ),
    ),
    (
        "model-config-attention-heads-missing",
        api(
            "RuntimeError",
            "Could not determine the number of key-value attention heads from model configuration. Architecture: "
            "['DeciLMForCausalLM']. This usually indicates an unsupported model architecture or missing configuration.",
            "transformers_utils/model_arch_config_convertor.py",
        ),
    ),
    ("config-format-unknown", api("ValueError", "Unknown config format `yaml`.")),
    (
        "quant-config-files-ambiguous",
        engine(
            "ValueError",
            "Found multiple config files for gptq: ['/data/qwen-gptq/quantize_config.json', '/data/qwen-gptq/quant_config.json']",
            "model_executor/model_loader/weight_utils.py",
        ),
    ),
    (
        "mistral-params-quantization-unknown",
        api(
            "ValueError",
            "Found unknown quantization='{'qformat_weight': 'nf4', 'quant_method': 'bnb'}' in config",
            "transformers_utils/configs/mistral.py",
        ),
    ),
    (
        "fastokens-enabled-not-installed",
        api(
            "ImportError",
            "The 'fastokens' package (>= 0.3.1) is required when VLLM_USE_FASTOKENS=1.",
            "tokenizers/fastokens.py",
        ),
    ),
    (
        "fastokens-enabled-not-installed",
        api(
            "ImportError",
            "fastokens >= 0.2.0 is required when VLLM_USE_FASTOKENS=1 (found unknown).",
            "tokenizers/fastokens.py",
        ),
    ),
    (
        "bidirectional-pooling-field-missing",
        api(
            "ValueError",
            "This bidirectional model requires a 'pooling' field in its HF config (one of 'avg', 'cls', 'last'), but "
            "none was found. Unlike the VL variants, no default is assumed here because silently picking a pooling "
            "for an embedding model can produce wrong embeddings.",
            "model_executor/models/config.py",
        ),
    ),
    (
        "bidirectional-pooling-field-missing",
        api("ValueError", "pool_type 'mean' not supported", "model_executor/models/config.py"),
    ),
    (
        "transformers-too-old-for-model-config",
        engine(
            "ValueError",
            "Laguna requires the `LagunaConfig` from Transformers, which is available from v5.18.2. Please update "
            "Transformers to run this model.",
            "model_executor/models/laguna.py",
        ),
    ),
    (
        "lora-resolver-unknown",
        api(
            "KeyError",
            "\"LoRA resolver 's3' not found. Available resolvers: ['lora_filesystem_resolver', 'hf_hub']\"",
            "lora/resolver.py",
        ),
    ),
    ("lora-request-id-not-positive", script("ValueError", "id must be > 0, got -1")),
    (
        "lora-moe-3d-weights-need-flag",
        engine(
            "ValueError",
            "LoRA adapter 2 contains fused 3D MoE weights for 'model.layers.11.mlp.experts', but the model uses a 2D "
            "MoE LoRA wrapper. Start the engine with enable_mixed_moe_lora_format=True (--enable-mixed-moe-lora-format) "
            "and set is_3d_lora_weight=True on the LoRA request.",
            "lora/model_manager.py",
        ),
    ),
    (
        "tensorizer-serialized-model-mismatch",
        engine(
            "ValueError",
            "The serialized model contains tensors on the meta device, indicating that some tensors were not loaded "
            "properly. Please check that the parameters of the model being specified match that of the serialized "
            "model, such as its quantization.",
            "model_executor/model_loader/tensorizer.py",
        ),
    ),
    (
        "load-format-ipc-cache-needs-cuda",
        engine(
            "vllm.model_executor.model_loader.weight_cache.protocol.UnsupportedPlatformForIPCError",
            "platform 'xpu' does not support CUDA IPC weight sharing; only CUDA and ROCm are supported. Use the "
            "default --load-format for this platform.",
            "model_executor/model_loader/weight_cache/protocol.py",
        ),
    ),
    (
        "mistral-tokenizer-chat-template-refused",
        reply(
            "chat_template is not supported for Mistral tokenizers. (parameter=chat_template)",
            '"chat_template"',
        ),
    ),
    # widened: lora-vocab-too-large (0.32's lora/layers/logits_processor.py wording)
    (
        "lora-vocab-too-large",
        engine(
            "ValueError", "When using LoRA, vocab size must be <= 258048", "lora/layers/logits_processor.py"
        ),
    ),
    # widened: config-heads-inconsistent (the models' attention __init__s)
    (
        "config-heads-inconsistent",
        engine(
            "ValueError",
            "embed_dim must be divisible by num_heads (got `embed_dim`: 1150 and `num_heads`: 16).",
            "model_executor/models/siglip.py",
        ),
    ),
    (
        "config-heads-inconsistent",
        engine(
            "ValueError",
            "d_model (1282) must be divisible by encoder_attention_heads (20).",
            "model_executor/models/moss_audio.py",
        ),
    ),
    # widened: rope-parameters-invalid (transformers_utils/config.py _patch_legacy_rope_type)
    (
        "rope-parameters-invalid",
        api(
            "ValueError",
            "Found conflicts between 'rope_type=yarn' (modern field) and 'type=dynamic' (legacy field). You should only "
            "specify one of them.",
        ),
    ),
    (
        "rope-parameters-invalid",
        api("ValueError", "Legacy rope_type 'mrope' requires 'mrope_section' in rope_parameters"),
    ),
    # widened: checkpoint-quant-scheme-unsupported (marlin_utils.py: GPTQ/AWQ bits other than 4 or 8)
    (
        "checkpoint-quant-scheme-unsupported",
        engine(
            "Exception",
            "num_bits must be 4 or 8, got 2",
            "model_executor/layers/quantization/utils/marlin_utils.py",
        ),
    ),
    # widened: mm-prompt-placeholders-mismatch (vLLM's own HF processors)
    (
        "mm-prompt-placeholders-mismatch",
        engine(
            "ValueError",
            "Number of '<image>' tokens in prompt (1) does not match number of images (2).",
            "transformers_utils/processors/deepseek_vl2.py",
        ),
    ),
    (
        "mm-prompt-placeholders-mismatch",
        engine(
            "ValueError",
            "Found 3 <|AUDIO|> tokens in provided text but received 2 audios",
            "transformers_utils/processors/funasr.py",
        ),
    ),
    (
        "mm-prompt-placeholders-mismatch",
        engine(
            "ValueError",
            "0 video sentinel(s) in text but 1 video(s) given.",
            "transformers_utils/processors/muse_glimmer.py",
        ),
    ),
    # online/base.py: --quantization-config for online quantization
    (
        "online-quantization-config-invalid",
        engine(
            "ValueError",
            "OnlineQuantizationConfig requires at least one of quantization_config.linear, quantization_config.moe, "
            "or quantization_config.targets to be set.",
            "model_executor/layers/quantization/online/base.py",
        ),
    ),
    (
        "online-quantization-config-invalid",
        engine(
            "ValueError",
            "Found different quantization_config.targets values for the shards of model.layers.3.mlp.gate_up_proj: "
            "['re:.*gate.*', 're:.*up.*']. vLLM requires all shards of a fused layer to use the same target.",
            "model_executor/layers/quantization/online/base.py",
        ),
    ),
    (
        "online-quantization-config-invalid",
        engine(
            "ValueError",
            "online quantization for FusedMoE with weight=int4 is not supported; supported weight keys: ['fp8', 'mxfp8']",
            "model_executor/layers/quantization/online/base.py",
        ),
    ),
    # widened: checkpoint-quant-config-incomplete (Quark, ModelOpt, INC readers of the quantization config)
    (
        "checkpoint-quant-config-incomplete",
        engine(
            "ValueError",
            "Quark W4A16 weight.group_size must be a positive int, got -1",
            "model_executor/layers/quantization/quark/utils.py",
        ),
    ),
    (
        "checkpoint-quant-config-incomplete",
        engine(
            "ValueError",
            "MIXED_PRECISION quant_algo requires a non-empty 'quantized_layers' mapping in the quantization config.",
            "model_executor/layers/quantization/modelopt.py",
        ),
    ),
    (
        "checkpoint-quant-config-incomplete",
        engine(
            "ValueError",
            "INC block-wise FP8 requires group_size to be a 2-D integer sequence, but found 64.",
            "model_executor/layers/quantization/inc/config_parser.py",
        ),
    ),
    # widened: checkpoint-quant-scheme-unsupported (ModelOpt quant_algo, WNA16 MoE format, MoeWNA16 bits)
    (
        "checkpoint-quant-scheme-unsupported",
        api(
            "ValueError",
            "Unknown ModelOpt quant algo: INT4_AWQ",
            "transformers_utils/model_arch_config_convertor.py",
        ),
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        engine(
            "ValueError",
            "For Fused MoE layers, only format: pack-quantized and bits: [4, 8] is supported but got format: "
            "int-quantized and bits: 4",
            "model_executor/layers/quantization/compressed_tensors/compressed_tensors_moe/compressed_tensors_moe.py",
        ),
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        engine(
            "ValueError",
            "MoeWNA16Method only supports int4 and int8 now.",
            "model_executor/layers/quantization/moe_wna16.py",
        ),
    ),
    # widened: fused-layer-shards-quantized-differently (the experts' projections; INC's fused modules)
    (
        "fused-layer-shards-quantized-differently",
        engine(
            "ValueError",
            "Fused module 'model.layers.7.self_attn.qkv_proj' requires consistent quant config for "
            "['model.layers.7.self_attn.q_proj', 'model.layers.7.self_attn.k_proj', 'model.layers.7.self_attn.v_proj']",
            "model_executor/layers/quantization/inc/config_parser.py",
        ),
    ),
    # lora/model_manager.py _create_lora_modules: --lora-target-modules selects a module with no LoRA layer
    (
        "lora-target-module-not-wrappable",
        engine(
            "ValueError",
            "LoRA target module model.layers.5.mlp.shared_expert_gate (ReplicatedLinear) matched the deployment "
            "configuration but could not be wrapped by any LoRA layer implementation. target_modules=['o_proj', "
            "'shared_expert_gate']",
            "lora/model_manager.py",
        ),
    ),
    (
        "lora-moe-expert-ranks-differ",
        engine(
            "ValueError",
            "The experts of model.layers.9.mlp.experts have different LoRA ranks for the same projection, which is not "
            "supported.",
            "lora/lora_weights.py",
        ),
    ),
    # tokenizers/mistral.py: the request's final-message flags against the last role (HTTP 400; LLM.chat)
    (
        "mistral-tokenizer-final-message-flags",
        reply(
            "Cannot set `continue_final_message` to True when the last message is not from the assistant. "
            "(parameter=continue_final_message)"
        ),
    ),
    (
        "mistral-tokenizer-final-message-flags",
        script(
            "ValueError",
            "Cannot set `add_generation_prompt` to True when the last message is from the assistant. Consider using "
            "`continue_final_message` instead.",
        ),
    ),
    # transformers_utils/configs/speculators/: a speculators-format draft's config
    (
        "speculators-config-invalid",
        api(
            "ValueError",
            "Expected one of: dict_keys(['eagle', 'eagle3']). Please ensure you're loading a speculators-format model.",
            "transformers_utils/configs/speculators/base.py",
        ),
    ),
    (
        "speculators-config-invalid",
        api(
            "ValueError",
            "Missing 'speculative_tokens' in proposal method. Got: {'proposal_type': 'sample'}",
            "transformers_utils/configs/speculators/base.py",
        ),
    ),
    (
        "speculators-config-invalid",
        api(
            "ValueError",
            "Unsupported model_type gemma3 for PEagle speculator",
            "transformers_utils/configs/speculators/algos.py",
        ),
    ),
    # widened: tokenizer-missing (tokenizers/kimi_audio.py's tiktoken files)
    (
        "tokenizer-missing",
        api(
            "ValueError",
            "Could not find tiktoken.model or tokenizer.model in /srv/models/kimi-audio",
            "tokenizers/kimi_audio.py",
        ),
    ),
    # models/pixtral.py, voxtral.py: a mistral_common processor needs the Mistral tokenizer
    (
        "model-needs-mistral-tokenizer-mode",
        engine(
            "ValueError", "This model requires `--tokenizer-mode mistral`", "model_executor/models/voxtral.py"
        ),
    ),
    # widened within the file: transformers-too-old-for-model-config (the Transformers modeling backend's own check)
    (
        "transformers-too-old-for-model-config",
        engine(
            "ImportError",
            "Transformers modeling backend requires transformers>=4.57.0 for multimodal models, but got 4.53.2",
            "model_executor/models/transformers/base.py",
        ),
    ),
    # widened: visible-devices-not-indices (a UUID left in HIP_VISIBLE_DEVICES, as 0.32 prints it)
    (
        "visible-devices-not-indices",
        engine(
            "ValueError",
            "Non-integer device ID 'GPU-8d1e2c40-77aa' is not supported by rocm.",
            "platforms/interface.py",
        ),
    ),
    # widened: quantized-input-not-aligned (0.32's per-TP-partition checks of WNA16 MoE, online MX and ModelOpt)
    (
        "quantized-input-not-aligned",
        engine(
            "ValueError",
            "CompressedTensors WNA16 MoE with static group scales requires the MoE intermediate size per "
            "tensor-parallel partition (352) to be divisible by group_size (128). Scale groups would otherwise cross "
            "TP shard boundaries; use a compatible TP size or enable expert parallelism.",
            "model_executor/layers/quantization/compressed_tensors/compressed_tensors_moe/compressed_tensors_moe_wna16.py",
        ),
    ),
    (
        "quantized-input-not-aligned",
        engine(
            "ValueError",
            "Online MXFP8 MoE requires hidden/intermediate sizes divisible by 32.",
            "model_executor/layers/quantization/online/mxfp8.py",
        ),
    ),
    # lora/model_manager.py get_dummy_lora_warmup_rank: --fully-sharded-loras at a TP the max rank cannot divide
    (
        "fully-sharded-lora-rank-below-tp",
        engine(
            "ValueError",
            "Unable to choose a dummy LoRA warmup rank compatible with fully sharded MoE modules: default_rank=8, "
            "required_multiple=12, max_lora_rank=8",
            "lora/model_manager.py",
        ),
    ),
    # widened: tp-not-dividing-heads (models/qwen3_next.py shared expert, moss_audio.py encoder heads)
    (
        "tp-not-dividing-heads",
        engine(
            "ValueError",
            "Shared-expert intermediate size 5120 must be divisible by tensor-parallel size 3.",
            "model_executor/models/qwen3_next.py",
        ),
    ),
    (
        "tp-not-dividing-heads",
        engine(
            "ValueError",
            "MOSS-Audio encoder_attention_heads must be divisible by tensor parallel size. Got "
            "encoder_attention_heads=20 and tensor_parallel_size=6.",
            "model_executor/models/moss_audio.py",
        ),
    ),
    # widened: quantized-input-not-aligned (models/qwen3_next.py: a Quark OCP MX shared expert under TP)
    (
        "quantized-input-not-aligned",
        engine(
            "ValueError",
            "The Quark OCP MX shared expert cannot be tensor-parallelized: intermediate size 512 with TP size 8 "
            "produces a partition of 64, which is not divisible by the OCP MX group size 32.",
            "model_executor/models/qwen3_next.py",
        ),
    ),
]

NEAR_MISSES = [
    # a fused-MoE kernel's activation refusal is not config.json's hidden_act
    (
        "model-activation-unsupported",
        engine(
            "ValueError",
            "Unsupported activation 'gelu'",
            "model_executor/layers/fused_moe/experts/cpu_int4_moe.py",
        ),
    ),
    (
        "model-activation-unsupported",
        engine(
            "ValueError",
            "Unsupported activation scheme per_token",
            "model_executor/layers/quantization/fp8.py",
        ),
    ),
    # the loader's generic 'not initialized' list stays weights-not-initialized's
    (
        "tied-weight-source-missing",
        engine(
            "ValueError",
            "Following weights were not initialized from checkpoint: {'lm_head.weight'}",
            "model_executor/model_loader/default_loader.py",
        ),
    ),
    (
        "model-tied-embeddings-unsupported",
        "INFO 12-05 15:00:01 [model.py:541] tie_word_embeddings=True for this model\n",
    ),
    # a head-count mismatch between heads and KV heads is config-heads-inconsistent's, not the missing-field family
    (
        "model-config-attention-heads-missing",
        engine(
            "AssertionError",
            "num_heads (28) is not divisible by num_kv_heads (3)",
            "model_executor/layers/attention.py",
        ),
    ),
    # the quantization's missing config file is quantization-config-missing's, not the ambiguous one
    (
        "quant-config-files-ambiguous",
        engine(
            "ValueError",
            "Cannot find the config file for gptq",
            "model_executor/model_loader/weight_utils.py",
        ),
    ),
    (
        "config-format-unknown",
        api("ValueError", "Unknown quantization method: foo. Must be one of ['fp8', 'awq']."),
    ),
    (
        "fastokens-enabled-not-installed",
        api("ModuleNotFoundError", "No module named 'fastokens'", "tokenizers/hf.py"),
    ),
    (
        "bidirectional-pooling-field-missing",
        api("ValueError", "pooling_type must be one of ['MEAN', 'CLS']", "config/pooler.py"),
    ),
    # transformers' import error is transformers-version-mismatch's
    (
        "transformers-too-old-for-model-config",
        api(
            "ImportError",
            "cannot import name 'LagunaConfig' from 'transformers' (/opt/venv/lib/transformers/__init__.py)",
        ),
    ),
    ("lora-resolver-unknown", api("KeyError", "'lm_head.weight'", "model_executor/models/utils.py")),
    # another id check (a request's own id) is not the LoRA id's
    ("lora-request-id-not-positive", script("ValueError", "request_id must be a non-empty string, got ''")),
    (
        "lora-moe-3d-weights-need-flag",
        engine(
            "ValueError",
            "The experts of model.layers.3.mlp have different LoRA ranks for the same projection, which is not supported.",
            "lora/lora_weights.py",
        ),
    ),
    (
        "tensorizer-serialized-model-mismatch",
        api(
            "ValueError",
            "tensorizer_uri must be specified for serialization.",
            "model_executor/model_loader/tensorizer.py",
        ),
    ),
    (
        "load-format-ipc-cache-needs-cuda",
        engine(
            "vllm.model_executor.model_loader.weight_cache.protocol.WeightCacheUnavailableError",
            "Socket directory /run/vllm is not owned by the current user",
            "model_executor/model_loader/weight_cache/protocol.py",
        ),
    ),
    (
        "mistral-tokenizer-chat-template-refused",
        reply("Cannot set both `add_generation_prompt` and `continue_final_message` to True."),
    ),
    (
        "mm-prompt-placeholders-mismatch",
        engine(
            "ValueError",
            "Either images or video should be provided.",
            "transformers_utils/processors/ovis2_5.py",
        ),
    ),
    (
        "rope-parameters-invalid",
        api(
            "ValueError",
            "Bailing V3 VL has conflicting layer_types and layers_block_type",
            "transformers_utils/configs/bailing_moe_v3_vl.py",
        ),
    ),
    # a checkpoint's own shards quantized differently stay the checkpoint family's, not the flag's
    (
        "online-quantization-config-invalid",
        engine(
            "ValueError",
            "Detected some but not all shards of model.layers.0.self_attn.qkv_proj are quantized. All shards of fused "
            "layers to have the same precision.",
            "model_executor/layers/quantization/utils/quant_utils.py",
        ),
    ),
    # a quantization config file that is missing is quantization-config-missing's, not an incomplete one
    (
        "checkpoint-quant-config-incomplete",
        engine(
            "ValueError", "Cannot find the config file for awq", "model_executor/model_loader/weight_utils.py"
        ),
    ),
    # the warning form (no --lora-target-modules: vLLM ignores the module and goes on) is no refusal
    (
        "lora-target-module-not-wrappable",
        "(EngineCore_DP0 pid=77) WARNING 12-05 15:02:11 [model_manager.py:606] LoRA target module "
        "model.layers.0.mlp.gate (ReplicatedLinear) matched the deployment configuration but could not be wrapped by "
        "any LoRA layer implementation. It will be ignored.\n",
    ),
    # the OpenAI protocol's own word order is the entrypoints' check, not the Mistral tokenizer's
    (
        "mistral-tokenizer-final-message-flags",
        reply("Cannot set both `continue_final_message` and `add_generation_prompt` to True."),
    ),
    # Eagle's own config method check (transformers_utils/configs/eagle.py) is not a speculators-format config
    (
        "speculators-config-invalid",
        api(
            "ValueError",
            "Invalid method medusa. Supported methods are eagle, eagle3, and dflash.",
            "transformers_utils/configs/eagle.py",
        ),
    ),
    # Mistral-format weights with an HF tokenizer mode is mistral-format-needs-mistral-tokenizer's
    (
        "model-needs-mistral-tokenizer-mode",
        api(
            "ValueError",
            "mistral_format=True is not supported with tokenizer_mode='hf'",
            "tokenizers/registry.py",
        ),
    ),
    # the same file's sliding_window check is not the quantization block's
    (
        "mistral-params-quantization-unknown",
        api(
            "ValueError",
            "Unsupported sliding_window type: <class 'str'>",
            "transformers_utils/configs/mistral.py",
        ),
    ),
    # an adapter's embedding size against the vocabulary is lora-adapter-vocab-mismatch's, not the kernels' limit
    (
        "lora-vocab-too-large",
        engine(
            "RuntimeError",
            "The embedding LoRA size(32000) must be consistent with the base model's vocabulary size(151936).",
            "lora/lora_model.py",
        ),
    ),
    # a vision head's own divisibility rule is no head-count mismatch of config.json
    (
        "config-heads-inconsistent",
        engine(
            "ValueError",
            "MuseGlimmer vision head dimension must be divisible by 4",
            "model_executor/models/muse_glimmer.py",
        ),
    ),
    # Marlin's own refusal stays marlin-config-unsupported's
    (
        "checkpoint-quant-scheme-unsupported",
        engine(
            "ValueError",
            "Marlin does not support weight_bits = uint3. Only types = [uint4b8, uint8b128] are supported.",
            "model_executor/layers/quantization/utils/marlin_utils.py",
        ),
    ),
    # the Mistral tokenizer's own type check is not a missing tokenizer file
    ("tokenizer-missing", api("TypeError", "Unsupported tokenizer: <class 'dict'>", "tokenizers/mistral.py")),
    # the zero points' packing against hidden_size is no tensor-parallel split
    (
        "quantized-input-not-aligned",
        engine(
            "ValueError",
            "CompressedTensors WNA16 MoE: hidden_size (2050) must be divisible by packed_factor (8) for correct ZP "
            "unpacking.",
            "model_executor/layers/quantization/compressed_tensors/compressed_tensors_moe/compressed_tensors_moe_wna16.py",
        ),
    ),
    # an adapter whose rank is above --max-lora-rank is lora-rank-too-large's
    (
        "fully-sharded-lora-rank-below-tp",
        script("ValueError", "LoRA rank 64 is greater than max_lora_rank 16."),
    ),
    # a checkpoint's own width against its heads is config-heads-inconsistent's, not a TP split
    (
        "tp-not-dividing-heads",
        engine(
            "ValueError",
            "embed_dim must be divisible by num_heads (got `embed_dim`: 1000 and `num_heads`: 16).",
            "model_executor/models/clip.py",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
