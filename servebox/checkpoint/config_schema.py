"""config.json as a checked schema: every field servebox reads, typed and ranged, with cross-field rules.

A config.json comes from a stranger. Without this, a string where an int belongs reached pydantic
deep inside the planner (a traceback), `full_attention_interval: 0` divided by zero, and
100,000,000 layers took 10 s and 2.3 GB before anything complained. The ranges are wide enough for
every public model (a 1M-token context, a 1M vocabulary, 4096 layers) and narrow enough that a
value outside them is a typo or an attack, never a model.
"""

# no `from __future__ import annotations`: pydantic builds its models faster from real annotations
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from servebox.errors import InputError

Layers = Field(None, ge=1, le=4096)
Heads = Field(None, ge=0, le=16384)
Dim = Field(None, ge=1, le=1 << 20)
Small = Field(None, ge=1, le=4096)


class _Checked(BaseModel):
    # defer_build: a schema is built when first used, so a plan without quantization never builds those
    model_config = ConfigDict(extra="allow", strict=True, allow_inf_nan=False, defer_build=True)


class TextConfigSchema(_Checked):
    """The language model's fields (top level, or under text_config / llm_config)."""

    num_hidden_layers: int | None = Layers
    n_layer: int | None = Layers
    num_layers: int | None = Layers
    hidden_size: int | None = Dim
    d_model: int | None = Dim
    n_embd: int | None = Dim
    num_attention_heads: int | None = Heads
    n_head: int | None = Heads
    num_key_value_heads: int | None = Heads
    head_dim: int | None = Field(None, ge=1, le=65536)
    intermediate_size: int | None = Field(None, ge=1, le=1 << 22)
    vocab_size: int | None = Field(None, ge=1, le=1 << 24)
    max_position_embeddings: int | None = Field(None, ge=1, le=1 << 27)
    sliding_window: int | None = Field(None, ge=1, le=1 << 27)
    max_window_layers: int | None = Field(None, ge=0, le=4096)
    sliding_window_pattern: int | None = Small
    full_attention_interval: int | None = Small
    attn_layer_period: int | None = Small
    attn_layer_offset: int | None = Field(None, ge=0, le=4096)
    layer_types: list[str] | None = Field(None, max_length=4096)
    hybrid_override_pattern: str | None = Field(None, max_length=4096)
    linear_num_key_heads: int | None = Heads
    linear_num_value_heads: int | None = Heads
    linear_key_head_dim: int | None = Field(None, ge=1, le=65536)
    linear_value_head_dim: int | None = Field(None, ge=1, le=65536)
    linear_conv_kernel_dim: int | None = Small
    mamba_n_heads: int | None = Heads
    mamba_d_head: int | None = Field(None, ge=1, le=65536)
    mamba_d_state: int | None = Field(None, ge=1, le=65536)
    ssm_state_size: int | None = Field(None, ge=1, le=65536)
    mamba_n_groups: int | None = Small
    n_groups: int | None = Small
    mamba_d_conv: int | None = Small
    kv_lora_rank: int | None = Dim
    qk_rope_head_dim: int | None = Field(None, ge=1, le=65536)
    qk_nope_head_dim: int | None = Field(None, ge=1, le=65536)
    v_head_dim: int | None = Field(None, ge=1, le=65536)
    num_experts: int | None = Field(None, ge=0, le=65536)
    num_local_experts: int | None = Field(None, ge=0, le=65536)
    n_routed_experts: int | None = Field(None, ge=0, le=65536)
    num_experts_per_tok: int | None = Field(None, ge=0, le=65536)
    moe_intermediate_size: int | None = Field(None, ge=1, le=1 << 22)
    n_shared_experts: int | None = Field(None, ge=0, le=65536)
    shared_expert_intermediate_size: int | None = Field(None, ge=0, le=1 << 22)
    mtp_num_hidden_layers: int | None = Field(None, ge=0, le=64)
    num_nextn_predict_layers: int | None = Field(None, ge=0, le=64)
    tie_word_embeddings: bool | None = None
    torch_dtype: str | None = Field(None, max_length=64)
    dtype: str | None = Field(None, max_length=64)
    model_type: str | None = Field(None, max_length=256)
    rope_scaling: dict[str, Any] | None = None

    @model_validator(mode="after")
    def consistent(self) -> "TextConfigSchema":
        heads, kv = self.num_attention_heads or self.n_head, self.num_key_value_heads
        if heads and kv and heads % kv:
            raise ValueError(f"num_attention_heads {heads} is not a multiple of num_key_value_heads {kv}")
        if kv and heads is not None and kv > heads:
            raise ValueError(f"num_key_value_heads {kv} exceeds num_attention_heads {heads}")
        hidden = self.hidden_size or self.d_model or self.n_embd
        if heads and hidden and not self.head_dim and hidden % heads:
            raise ValueError(
                f"hidden_size {hidden} is not a multiple of num_attention_heads {heads} (and no head_dim)"
            )
        experts = self.num_experts or self.num_local_experts or self.n_routed_experts
        if experts and self.num_experts_per_tok and self.num_experts_per_tok > experts:
            raise ValueError(f"num_experts_per_tok {self.num_experts_per_tok} exceeds the {experts} experts")
        return self


class VisionConfigSchema(_Checked):
    depth: int | None = Field(None, ge=0, le=1024)
    num_hidden_layers: int | None = Field(None, ge=0, le=1024)
    hidden_size: int | None = Dim
    embed_dim: int | None = Dim
    model_type: str | None = Field(None, max_length=256)


class ConfigSchema(_Checked):
    architectures: list[str] = Field(min_length=1, max_length=16)
    model_type: str | None = Field(None, max_length=256)
    vision_config: VisionConfigSchema | None = None
    tie_word_embeddings: bool | None = None
    torch_dtype: str | None = Field(None, max_length=64)


def check_config(config: dict[str, Any], text: dict[str, Any], source: str) -> None:
    """Raise an InputError naming the first field of config.json that is mistyped or out of range."""
    nested = _text_key(config)
    for model, data in ((ConfigSchema, config), (TextConfigSchema, text)):
        try:
            model.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            # a cross-field rule has no location: its message starts with the field it names
            where = ".".join(str(p) for p in err["loc"]) if err["loc"] else err["msg"].split()[2]
            if model is TextConfigSchema and nested and where.split(".")[0] in config[nested]:
                where = f"{nested}.{where}"
            value = err.get("input")
            shown = f" (got {value!r:.60})" if err["loc"] and not isinstance(value, dict | list) else ""
            raise InputError(source, where, err["msg"].removeprefix("Value error, ") + shown) from None


def _text_key(config: dict[str, Any]) -> str | None:
    for key in ("text_config", "llm_config", "language_config"):
        if isinstance(config.get(key), dict) and config[key]:
            return key
    return None


Names = Field(None, max_length=100_000)


class QuantArgsSchema(_Checked):
    """compressed-tensors `weights` / `input_activations` of one config group."""

    num_bits: int | None = Field(None, ge=1, le=64)
    type: str | None = Field(None, max_length=32)
    group_size: int | None = Field(None, ge=-1, le=1 << 20)
    symmetric: bool | None = None
    dynamic: bool | str | None = None
    strategy: str | None = Field(None, max_length=32)


class QuantGroupSchema(_Checked):
    weights: QuantArgsSchema | None = None
    input_activations: QuantArgsSchema | None = None
    targets: list[str] | None = Names


class ModelOptSchema(_Checked):
    """hf_quant_config.json's `quantization` table."""

    quant_algo: str | None = Field(None, max_length=64)
    group_size: int | None = Field(None, ge=-1, le=1 << 20)
    kv_cache_quant_algo: str | None = Field(None, max_length=64)
    exclude_modules: list[str] | None = Names


class QuantConfigSchema(_Checked):
    """quantization_config (or quantize_config.json): the fields servebox reads, typed."""

    quant_method: str | None = Field(None, max_length=64)
    bits: int | None = Field(None, ge=1, le=64)
    w_bit: int | None = Field(None, ge=1, le=64)
    group_size: int | None = Field(None, ge=-1, le=1 << 20)
    q_group_size: int | None = Field(None, ge=-1, le=1 << 20)
    sym: bool | None = None
    version: str | None = Field(None, max_length=64)
    checkpoint_format: str | None = Field(None, max_length=64)
    format: str | None = Field(None, max_length=64)
    fmt: str | None = Field(None, max_length=64)
    activation_scheme: str | None = Field(None, max_length=64)
    weight_block_size: list[int] | None = Field(None, max_length=4)
    load_in_4bit: bool | None = None
    bnb_4bit_quant_type: str | None = Field(None, max_length=64)
    config_groups: dict[str, QuantGroupSchema] | None = None
    kv_cache_scheme: dict[str, Any] | None = None
    ignore: list[str] | None = Names
    modules_to_not_convert: list[str] | None = Names
    ignored_layers: list[str] | None = Names
    llm_int8_skip_modules: list[str] | None = Names


def check_quant_config(qc: dict[str, Any], where: str, schema: type[BaseModel] = QuantConfigSchema) -> None:
    """Raise an InputError naming the first mistyped quantization field (config.json or hf_quant_config.json)."""
    prefix = "quantization_config." if schema is QuantConfigSchema else "quantization."
    try:
        schema.model_validate(qc)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = prefix + ".".join(str(p) for p in err["loc"])
        raise InputError(where, field, err["msg"].removeprefix("Value error, ")) from None
