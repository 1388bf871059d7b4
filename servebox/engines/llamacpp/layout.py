"""A GGUF's memory layout as the pinned llama.cpp reads it: per layer, attention (full or sliding window),
recurrent state or nothing, with the K/V widths, the recurrent R/S widths, and which tensors belong to
which layer. The rules follow src/llama-model.cpp (load_hparams) and src/llama-hparams.cpp; the
per-architecture defaults live in architectures.toml, not in code.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from servebox.checkpoint.gguf_header import GGUFHeader, GGUFTensor
from servebox.errors import InputError, UnknownArchitectureError

_LAYER_RE = re.compile(r"^blk\.(\d+)\.")


@cache
def arch_table() -> dict:
    return tomllib.loads((Path(__file__).parent / "architectures.toml").read_text())


@dataclass
class LayerMem:
    index: int
    kind: str  # attn, swa, recr, none
    k_width: int = 0  # n_embd_k_gqa: K elements per cell
    v_width: int = 0  # n_embd_v_gqa: V elements per cell
    tensors: list[GGUFTensor] = field(default_factory=list)


@dataclass
class Layout:
    arch: str
    n_layer: int  # trunk layers (without MTP / NextN layers)
    n_layer_all: int
    n_embd: int
    n_vocab: int
    n_ctx_train: int
    n_head: int
    head_k: int  # K (and Q) head size of full-attention layers
    n_ff: int
    n_expert: int
    n_expert_used: int
    n_swa: int
    n_embd_r: int  # recurrent conv state per sequence per layer (elements, F32)
    n_embd_s: int  # recurrent SSM state per sequence per layer (elements, F32)
    mla: bool
    layers: list[LayerMem]
    input_tensors: list[GGUFTensor]  # token_embd.*: always on the CPU
    output_tensors: list[GGUFTensor]  # output_norm, output: on the output layer's device
    tied_output: bool  # no output.weight: token_embd is duplicated to the output device
    rope_scaling: str | None
    rope_factor: float | None
    rope_orig_ctx: int | None

    @property
    def v_width_max(self) -> int:
        return max((la.v_width for la in self.layers if la.kind in ("attn", "swa")), default=0)


def _per_layer(value, n: int, default: int = 0) -> list[int]:
    if value is None:
        return [default] * n
    if isinstance(value, list):
        return [int(v) for v in value] + [int(value[-1]) if value else default] * (n - len(value))
    return [int(value)] * n


def _swa_layers(h: GGUFHeader, spec: dict, n_layer: int, n_layer_all: int) -> list[bool]:
    window = h.get("attention.sliding_window")
    if not window or "swa_pattern" not in spec:
        return [False] * n_layer_all
    pattern = h.get("attention.sliding_window_pattern", spec["swa_pattern"])
    if isinstance(pattern, list):  # per-layer booleans
        return [bool(v) for v in pattern] + [False] * (n_layer_all - len(pattern))
    n, dense_first = int(pattern), spec.get("swa_dense_first", False)
    if dense_first:
        flags = [n == 0 or il % n != 0 for il in range(n_layer)]
    else:
        flags = [n == 0 or il % n < n - 1 for il in range(n_layer)]
    return flags + [False] * (n_layer_all - n_layer)


def _recurrent_layers(
    h: GGUFHeader, rule: str | None, kv: list[int], ff: list[int], n_layer: int, n_all: int
):
    if rule is None:
        return [False] * n_all
    if rule == "all":
        return [True] * n_all
    if rule == "interval":
        explicit = h.get("attention.recurrent_layers")
        if isinstance(explicit, list):
            return [bool(v) for v in explicit] + [False] * (n_all - len(explicit))
        every = int(h.get("full_attention_interval", 4))
        return [il < n_layer and (il + 1) % every != 0 for il in range(n_all)]
    if rule == "kv_heads_zero":
        return [kv[il] == 0 for il in range(n_all)]
    if rule == "kv_heads_and_ffn_zero":
        return [il < n_layer and kv[il] == 0 and ff[il] == 0 for il in range(n_all)]
    raise ValueError(f"unknown recurrent rule {rule!r}")


def _recurrent_widths(h: GGUFHeader, n_embd: int) -> tuple[int, int]:
    """n_embd_r / n_embd_s of llama_hparams for Mamba-style and Gated DeltaNet layers."""
    d_conv = int(h.get("ssm.conv_kernel", 0))
    d_inner = int(h.get("ssm.inner_size", 0))
    d_state = int(h.get("ssm.state_size", 0))
    n_group = int(h.get("ssm.group_count", 0))
    conv = (d_conv - 1 if d_conv > 0 else 0) * (d_inner + 2 * n_group * d_state)
    return conv, d_state * d_inner


def _need(h: GGUFHeader, key: str) -> int:
    value = h.get(key)
    if value is None:
        raise InputError(h.source, f"{h.arch}.{key}", "missing (llama.cpp requires it)")
    return int(value[0] if isinstance(value, list) else value)


def read_layout(h: GGUFHeader) -> Layout:
    table = arch_table()
    arch = h.arch
    if not arch:
        raise InputError(h.source, "general.architecture", "missing")
    if arch not in table["build"]["known"]:
        raise UnknownArchitectureError(
            h.source, "general.architecture", f"{arch!r} is unknown to llama.cpp b11434"
        )
    spec = table["memory"].get(arch)
    if spec is None:
        raise UnknownArchitectureError(
            h.source,
            "general.architecture",
            f"servebox has no memory model for {arch!r} yet (it never guesses)",
        )
    unknown = h.unknown_types()
    if unknown:
        name, kind = next(iter(unknown.items()))
        raise InputError(h.source, f"tensor {name}", f"ggml type {kind} is unknown to llama.cpp b11434")
    n_all, n_embd = _need(h, "block_count"), _need(h, "embedding_length")
    n_nextn = int(h.get("nextn_predict_layers", 0) or 0)
    n_layer = n_all - n_nextn
    heads = _per_layer(h.get("attention.head_count"), n_all)
    kv = (
        _per_layer(h.get("attention.head_count_kv"), n_all)
        if h.get("attention.head_count_kv") is not None
        else heads
    )
    ff = _per_layer(h.get("feed_forward_length"), n_all)
    n_head = heads[0]
    hk = int(h.get("attention.key_length", n_embd // n_head if n_head else 0))
    hv = int(h.get("attention.value_length", n_embd // n_head if n_head else 0))
    hk_swa, hv_swa = int(h.get("attention.key_length_swa", hk)), int(h.get("attention.value_length_swa", hv))
    swa = _swa_layers(h, spec, n_layer, n_all)
    recr = _recurrent_layers(h, spec.get("recurrent"), kv, ff, n_layer, n_all)
    mla_rank = h.get("attention.kv_lora_rank")
    layers = []
    for il in range(n_all):
        if recr[il]:
            kind = "recr"
        elif il >= n_layer or spec.get("recurrent") == "all" or kv[il] == 0:
            kind = "none"  # MTP/NextN layers, MLP-only layers of hybrids: no cache in the main context
        else:
            kind = "swa" if swa[il] else "attn"
        k_head, v_head = (hk_swa, hv_swa) if swa[il] else (hk, hv)
        layers.append(LayerMem(il, kind, kv[il] * k_head, kv[il] * v_head))
    inputs, outputs = _assign_tensors(h, layers)
    n_r, n_s = _recurrent_widths(h, n_embd)
    vocab = h.get("vocab_size") or h.kv.get("tokenizer.ggml.tokens") or 0
    return Layout(
        arch=arch,
        n_layer=n_layer,
        n_layer_all=n_all,
        n_embd=n_embd,
        n_vocab=int(vocab),
        n_ctx_train=_need(h, "context_length"),
        n_head=n_head,
        head_k=hk,
        n_ff=max(ff),
        n_expert=int(h.get("expert_count", 0) or 0),
        n_expert_used=int(h.get("expert_used_count", 0) or 0),
        n_swa=int(h.get("attention.sliding_window", 0) or 0),
        n_embd_r=n_r,
        n_embd_s=n_s,
        mla=bool(mla_rank),
        layers=layers,
        input_tensors=inputs,
        output_tensors=outputs,
        tied_output=not any(t.name == "output.weight" for t in h.tensors),
        rope_scaling=h.get("rope.scaling.type"),
        rope_factor=h.get("rope.scaling.factor"),
        rope_orig_ctx=h.get("rope.scaling.original_context_length"),
    )


def _assign_tensors(h: GGUFHeader, layers: list[LayerMem]) -> tuple[list[GGUFTensor], list[GGUFTensor]]:
    inputs, outputs = [], []
    for t in h.tensors:
        m = _LAYER_RE.match(t.name)
        if m and int(m.group(1)) < len(layers):
            layers[int(m.group(1))].tensors.append(t)
        elif t.name.startswith("token_embd"):
            inputs.append(t)
        else:
            outputs.append(t)
    return inputs, outputs
