"""config.json -> the model's shape: every layer's kind, heads, dims, MoE, MTP, vision tower.

Each known architecture names the layout rule that gives its layer kinds. An architecture that is
not in the table, or a layer kind that no rule knows, is an error: a planner that silently treats
a Mamba hybrid as dense would promise a KV cache that does not exist.
"""

# no `from __future__ import annotations`: pydantic builds its models faster from real annotations
from collections import Counter
from typing import Any

from pydantic import BaseModel

from servebox.checkpoint.config_schema import check_config
from servebox.errors import InputError, UnknownArchitectureError

# Layer kinds servebox models. "mlp_only" layers (Nemotron-H '-'/'E') carry no sequence state.
LAYER_KINDS = (
    "full_attention",
    "sliding_attention",
    "chunked_attention",
    "mla",
    "linear_attention",
    "mamba",
    "mlp_only",
)
LAYER_TYPE_NAMES = {
    "full_attention": "full_attention",
    "attention": "full_attention",
    "global": "full_attention",
    "sliding_attention": "sliding_attention",
    "sliding_window": "sliding_attention",
    "local": "sliding_attention",
    "linear_attention": "linear_attention",
    "mamba": "mamba",
    "mamba2": "mamba",
}

# architecture class -> layout rule. The rule reads the config fields that decide each layer's kind.
ARCHITECTURES: dict[str, str] = {
    **dict.fromkeys(
        [
            "LlamaForCausalLM",
            "MistralForCausalLM",
            "Qwen2ForCausalLM",
            "Qwen3ForCausalLM",
            "Phi3ForCausalLM",
            "GemmaForCausalLM",
            "GraniteForCausalLM",
            "Olmo2ForCausalLM",
            "InternLM3ForCausalLM",
            "CohereForCausalLM",
            "BaichuanForCausalLM",
            "MixtralForCausalLM",
            "Qwen2MoeForCausalLM",
            "Qwen3MoeForCausalLM",
            "GraniteMoeForCausalLM",
            "LlavaForConditionalGeneration",
            "Qwen2VLForConditionalGeneration",
            "Qwen2_5_VLForConditionalGeneration",
            "Qwen3VLForConditionalGeneration",
            "Qwen3VLMoeForConditionalGeneration",
            "Mistral3ForConditionalGeneration",
        ],
        "transformer",
    ),
    **dict.fromkeys(
        ["Gemma2ForCausalLM", "Gemma3ForCausalLM", "Gemma3ForConditionalGeneration", "GptOssForCausalLM"],
        "interleaved_sliding",
    ),
    **dict.fromkeys(["DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "KimiK2ForCausalLM"], "mla"),
    **dict.fromkeys(
        [
            "Qwen3NextForCausalLM",
            "Qwen3_5ForCausalLM",
            "Qwen3_5ForConditionalGeneration",
            "Qwen3_5MoeForCausalLM",
            "Qwen3_5MoeForConditionalGeneration",
        ],
        "gated_deltanet_hybrid",
    ),
    "GraniteMoeHybridForCausalLM": "layer_types",
    "Llama4ForCausalLM": "llama4",
    "Llama4ForConditionalGeneration": "llama4",
    "NemotronHForCausalLM": "nemotron_h",
    "JambaForCausalLM": "jamba",
    "Mamba2ForCausalLM": "mamba",
}


class LinearAttentionShape(BaseModel):
    num_key_heads: int
    num_value_heads: int
    key_head_dim: int
    value_head_dim: int
    conv_kernel_dim: int


class MambaShape(BaseModel):
    num_heads: int
    head_dim: int
    state_size: int
    n_groups: int
    conv_kernel: int
    intermediate_size: int
    chunk_size: int | None = (
        None  # the SSD kernel's chunk (vLLM's get_mamba_chunk_size): 'all' mode aligns blocks to it
    )


class MLAShape(BaseModel):
    kv_lora_rank: int
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int


class MoEShape(BaseModel):
    num_experts: int
    experts_per_token: int
    moe_intermediate_size: int | None
    shared_experts: int = 0


class VisionShape(BaseModel):
    depth: int | None
    hidden_size: int | None
    model_type: str | None


class Architecture(BaseModel):
    """Facts from config.json, names as vLLM and transformers use them."""

    architecture: str
    model_type: str | None
    layout: str
    num_layers: int
    layer_kinds: list[str]
    layer_kind_counts: dict[str, int]
    hidden_size: int
    intermediate_size: int | None
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    vocab_size: int
    max_position_embeddings: int | None
    rope_scaling: dict[str, Any] | None
    sliding_window: int | None
    torch_dtype: str | None
    tie_word_embeddings: bool
    linear_attention: LinearAttentionShape | None = None
    mamba: MambaShape | None = None
    mla: MLAShape | None = None
    moe: MoEShape | None = None
    mtp_layers: int = 0
    vision: VisionShape | None = None
    attention_chunk_size: int | None = None  # Llama-4 chunked local attention
    local_rope_theta: float | None = None  # sliding layers' own rotary base (Gemma-3), when it differs
    # the share of head_dim that rotates: in rope_parameters / rope_scaling, or top-level (Qwen3-Next, GLM-4), which
    # transformers folds into rope_parameters before vLLM's get_rope sizes its cos/sin cache with it
    partial_rotary_factor: float = 1.0
    # the config's own recurrent-state dtype fields (mamba_ssm_cache_dtype, mamba_ssm_dtype) where it has them: the
    # model class reads one (engines/vllm/state_dtype.py)
    state_dtype_fields: dict[str, str] = {}


def _partial_rotary_factor(text: dict[str, Any], rope: Any) -> float:
    """The rope dict's factor, else the config's top-level one, else 1 (the whole head rotates)."""
    factor = rope.get("partial_rotary_factor") if isinstance(rope, dict) else None
    factor = factor if factor is not None else text.get("partial_rotary_factor")
    return float(factor) if isinstance(factor, (int, float)) and 0 < factor <= 1 else 1.0


def _local_rope_theta(text: dict[str, Any]) -> float | None:
    """The sliding layers' rotary base when it is not the global one: vLLM then builds a second rotary cache."""
    params = text.get("rope_parameters")
    if isinstance(params, dict) and isinstance(params.get("sliding_attention"), dict):
        local = params["sliding_attention"].get("rope_theta")
        full = (params.get("full_attention") or {}).get("rope_theta", text.get("rope_theta"))
    else:
        local, full = text.get("rope_local_base_freq"), text.get("rope_theta")
    return float(local) if isinstance(local, (int, float)) and local != full else None


def _int(cfg: dict[str, Any], key: str, source: str, *alts: str, default: int | None = None) -> int:
    for name in (key, *alts):
        value = cfg.get(name)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(source, name, f"must be an integer, got {value!r}")
            return value
    if default is not None:
        return default
    raise InputError(source, key, "missing")


def _layer_types(cfg: dict[str, Any], n: int, source: str) -> list[str]:
    raw = cfg.get("layer_types")
    if not isinstance(raw, list) or len(raw) != n:
        raise InputError(source, "layer_types", f"must list one kind per layer ({n}), got {raw!r:.80}")
    kinds = []
    for i, name in enumerate(raw):
        if name not in LAYER_TYPE_NAMES:
            raise UnknownArchitectureError(source, f"layer_types[{i}]", f"unknown layer kind {name!r}")
        kinds.append(LAYER_TYPE_NAMES[name])
    return kinds


def _layer_kinds(layout: str, cfg: dict[str, Any], n: int, source: str) -> list[str]:
    if cfg.get("layer_types") is not None and layout in (
        "transformer",
        "interleaved_sliding",
        "gated_deltanet_hybrid",
        "layer_types",
    ):
        return _layer_types(cfg, n, source)
    if layout == "transformer":
        window = cfg.get("sliding_window")
        uses_window = window and cfg.get("use_sliding_window", True)
        if uses_window and cfg.get("max_window_layers") is not None:
            # Qwen2 convention: layers below max_window_layers use full attention.
            return [
                "full_attention" if i < cfg["max_window_layers"] else "sliding_attention" for i in range(n)
            ]
        return ["sliding_attention" if uses_window else "full_attention"] * n
    if layout == "interleaved_sliding":
        pattern = cfg.get("sliding_window_pattern")
        if pattern is None:
            pattern = 2  # Gemma 2: alternate local and global, local first
        return ["full_attention" if (i + 1) % pattern == 0 else "sliding_attention" for i in range(n)]
    if layout == "mla":
        return ["mla"] * n
    if layout == "gated_deltanet_hybrid":
        interval = _int(cfg, "full_attention_interval", source)
        return ["full_attention" if (i + 1) % interval == 0 else "linear_attention" for i in range(n)]
    if layout == "nemotron_h":
        pattern = cfg.get("hybrid_override_pattern")
        if not isinstance(pattern, str) or len(pattern) != n:
            raise InputError(source, "hybrid_override_pattern", f"must be a string of {n} layer codes")
        codes = {"M": "mamba", "*": "full_attention", "-": "mlp_only", "E": "mlp_only"}
        for i, code in enumerate(pattern):
            if code not in codes:
                raise UnknownArchitectureError(
                    source, f"hybrid_override_pattern[{i}]", f"unknown layer code {code!r}"
                )
        return [codes[c] for c in pattern]
    if layout == "llama4":
        # transformers' Llama4TextConfig: no_rope_layers[i] == 0 marks a global NoPE layer (default every 4th);
        # the RoPE layers attend within attention_chunk_size-token chunks when it is set
        flags = cfg.get("no_rope_layers") or [int((i + 1) % 4 != 0) for i in range(n)]
        local = "chunked_attention" if cfg.get("attention_chunk_size") else "full_attention"
        return [local if flags[i] else "full_attention" for i in range(n)]
    if layout == "jamba":
        # Jamba's Mamba1 (selective-scan) state has another shape than Mamba2's: not modelled, so refused
        raise UnknownArchitectureError(
            source,
            "architectures",
            "Mamba1 layers (Jamba) are not modelled: servebox has no KV/state model for them",
        )
    if layout == "mamba":
        return ["mamba"] * n
    raise UnknownArchitectureError(source, "layer_types", f"no rule for layout {layout!r}")


def text_config_of(config: dict[str, Any]) -> dict[str, Any]:
    """Multimodal configs nest the language model under text_config (or llm_config)."""
    for key in ("text_config", "llm_config", "language_config"):
        nested = config.get(key)
        if isinstance(nested, dict) and nested:
            merged = {k: v for k, v in config.items() if k not in ("text_config", "vision_config")}
            merged.update(nested)
            return merged
    return config


def parse_architecture(config: dict[str, Any], source: str) -> Architecture:
    archs = config.get("architectures")
    if not isinstance(archs, list) or not archs or not isinstance(archs[0], str):
        raise InputError(source, "architectures", "missing: config.json must name the model class")
    arch = archs[0]
    layout = ARCHITECTURES.get(arch)
    if layout is None:
        raise UnknownArchitectureError(
            source,
            "architectures",
            f"unknown architecture {arch!r}: servebox has no layer model for it (it will not guess dense)",
        )
    text = text_config_of(config)
    check_config(config, text, source)
    n = _int(text, "num_hidden_layers", source, "n_layer", "num_layers")
    hidden = _int(text, "hidden_size", source, "d_model", "n_embd")
    heads = _int(text, "num_attention_heads", source, "n_head", default=0)
    kv_heads = _int(text, "num_key_value_heads", source, default=heads)
    head_dim = text.get("head_dim") or (hidden // heads if heads else 0)
    kinds = _layer_kinds(layout, text, n, source)
    if {"full_attention", "sliding_attention"} & set(kinds) and not (heads and kv_heads and head_dim):
        field = (
            "num_attention_heads" if not heads else ("num_key_value_heads" if not kv_heads else "head_dim")
        )
        raise InputError(source, field, "missing or 0, yet the model has attention layers")

    linear = None
    if "linear_attention" in kinds:
        linear = LinearAttentionShape(
            num_key_heads=_int(text, "linear_num_key_heads", source),
            num_value_heads=_int(text, "linear_num_value_heads", source),
            key_head_dim=_int(text, "linear_key_head_dim", source),
            value_head_dim=_int(text, "linear_value_head_dim", source),
            conv_kernel_dim=_int(text, "linear_conv_kernel_dim", source, default=4),
        )
    mamba = None
    if "mamba" in kinds:
        expand = text.get("mamba_expand", text.get("expand", 2))
        m_heads = _int(text, "mamba_n_heads", source, "mamba_num_heads", "num_heads")
        m_head_dim = _int(text, "mamba_d_head", source, "mamba_head_dim", "head_dim")
        mamba = MambaShape(
            num_heads=m_heads,
            head_dim=m_head_dim,
            state_size=_int(text, "mamba_d_state", source, "ssm_state_size", "state_size"),
            n_groups=_int(text, "mamba_n_groups", source, "n_groups", default=1),
            conv_kernel=_int(text, "mamba_d_conv", source, "conv_kernel", default=4),
            intermediate_size=m_heads * m_head_dim if m_heads and m_head_dim else int(expand * hidden),
            chunk_size=text.get("mamba_chunk_size") or text.get("chunk_size"),
        )
    mla = None
    if layout == "mla":
        mla = MLAShape(
            kv_lora_rank=_int(text, "kv_lora_rank", source),
            qk_rope_head_dim=_int(text, "qk_rope_head_dim", source),
            qk_nope_head_dim=_int(text, "qk_nope_head_dim", source),
            v_head_dim=_int(text, "v_head_dim", source),
        )
    moe = None
    n_experts = text.get("num_experts") or text.get("num_local_experts") or text.get("n_routed_experts")
    if n_experts:
        moe = MoEShape(
            num_experts=n_experts,
            experts_per_token=text.get("num_experts_per_tok")
            or text.get("num_experts_per_token")
            or text.get("moe_topk")
            or 0,
            moe_intermediate_size=text.get("moe_intermediate_size"),
            shared_experts=text.get("n_shared_experts")
            or (1 if text.get("shared_expert_intermediate_size") else 0),
        )
    vision = None
    vcfg = config.get("vision_config")
    if isinstance(vcfg, dict):
        vision = VisionShape(
            depth=vcfg.get("depth") or vcfg.get("num_hidden_layers"),
            hidden_size=vcfg.get("hidden_size") or vcfg.get("embed_dim"),
            model_type=vcfg.get("model_type"),
        )
    rope = text.get("rope_scaling") or text.get("rope_parameters")
    return Architecture(
        architecture=arch,
        model_type=config.get("model_type"),
        layout=layout,
        num_layers=n,
        layer_kinds=kinds,
        layer_kind_counts=dict(Counter(kinds)),
        hidden_size=hidden,
        intermediate_size=text.get("intermediate_size"),
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=head_dim,
        vocab_size=_int(text, "vocab_size", source),
        max_position_embeddings=text.get("max_position_embeddings"),
        rope_scaling=rope if isinstance(rope, dict) else None,
        sliding_window=text.get("sliding_window") if "sliding_attention" in kinds else None,
        attention_chunk_size=text.get("attention_chunk_size") if "chunked_attention" in kinds else None,
        local_rope_theta=_local_rope_theta(text),
        partial_rotary_factor=_partial_rotary_factor(text, rope),
        torch_dtype=text.get("torch_dtype") or text.get("dtype") or config.get("torch_dtype"),
        tie_word_embeddings=bool(text.get("tie_word_embeddings", config.get("tie_word_embeddings", False))),
        linear_attention=linear,
        mamba=mamba,
        mla=mla,
        moe=moe,
        mtp_layers=int(text.get("mtp_num_hidden_layers") or text.get("num_nextn_predict_layers") or 0),
        vision=vision,
        state_dtype_fields={
            k: str(v)
            for k in ("mamba_ssm_cache_dtype", "mamba_ssm_dtype")
            if (v := text.get(k, config.get(k))) is not None
        },
    )
