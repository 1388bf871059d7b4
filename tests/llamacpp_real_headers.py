"""Header-only GGUFs of real public models, from the config.json fixtures (tests/fixtures/README.md says
where each came from): the metadata keys llama.cpp's convert_hf_to_gguf.py writes for the architecture
and the tensor table with real names and shapes, followed by a sparse hole where the weights would be
(the file has its real size; nothing large touches the disk). Matrices are Q4_K, norms F32.
"""

from __future__ import annotations

import json
from pathlib import Path

import gguf
import numpy as np

CHECKPOINTS = Path(__file__).parent / "fixtures" / "checkpoints"
Q4K, F32 = gguf.GGMLQuantizationType.Q4_K, gguf.GGMLQuantizationType.F32


class _Header:
    def __init__(self, path: Path, arch: str) -> None:
        self.w, self.total = gguf.GGUFWriter(str(path), arch), 0
        self.path = path

    def t(self, name: str, *ggml_shape: int) -> None:
        qtype = Q4K if len(ggml_shape) >= 2 and ggml_shape[0] % 256 == 0 else F32
        blck, size = gguf.GGML_QUANT_SIZES[qtype]
        n = int(np.prod(ggml_shape))
        nbytes = n // blck * size
        np_shape = list(reversed(ggml_shape))
        if qtype != F32:
            np_shape[-1] = np_shape[-1] // blck * size
        self.w.add_tensor_info(
            name, np_shape, np.dtype(np.float32 if qtype == F32 else np.uint8), nbytes, raw_dtype=qtype
        )
        self.total += (nbytes + 31) // 32 * 32

    def close(self) -> Path:
        self.w.write_header_to_file()
        self.w.write_kv_data_to_file()
        self.w.write_ti_data_to_file()
        self.w.close()
        with open(self.path, "r+b") as f:
            end = f.seek(0, 2)
            f.truncate((end + 31) // 32 * 32 + self.total)
        return self.path


def _common(h: _Header, c: dict, vocab_tokens: int) -> None:
    w = h.w
    w.add_context_length(c["max_position_embeddings"])
    w.add_embedding_length(c["hidden_size"])
    w.add_block_count(c["num_hidden_layers"])
    w.add_head_count(c["num_attention_heads"])
    w.add_layer_norm_rms_eps(1e-5)
    w.add_tokenizer_model("gpt2")
    w.add_token_list([f"t{i}" for i in range(vocab_tokens)])
    h.t("token_embd.weight", c["hidden_size"], c["vocab_size"])
    h.t("output_norm.weight", c["hidden_size"])
    h.t("output.weight", c["hidden_size"], c["vocab_size"])


def _attention(h: _Header, p: str, c: dict, hd: int, q_mult: int = 1) -> None:
    e, heads, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    h.t(p + "attn_q.weight", e, heads * hd * q_mult)
    h.t(p + "attn_k.weight", e, kv * hd)
    h.t(p + "attn_v.weight", e, kv * hd)
    h.t(p + "attn_output.weight", heads * hd, e)


def llama(out: Path, fixture: str) -> Path:
    c = json.loads((CHECKPOINTS / fixture / "config.json").read_text())
    h = _Header(out, "llama")
    _common(h, c, c["vocab_size"])
    e, ff, hd = c["hidden_size"], c["intermediate_size"], c["hidden_size"] // c["num_attention_heads"]
    h.w.add_head_count_kv(c["num_key_value_heads"])
    h.w.add_feed_forward_length(ff)
    experts = c.get("num_local_experts", 0)
    if experts:
        h.w.add_expert_count(experts)
        h.w.add_expert_used_count(c["num_experts_per_tok"])
    for i in range(c["num_hidden_layers"]):
        p = f"blk.{i}."
        h.t(p + "attn_norm.weight", e)
        _attention(h, p, c, hd)
        h.t(p + "ffn_norm.weight", e)
        if experts:
            h.t(p + "ffn_gate_inp.weight", e, experts)
            for name, shape in (("gate", (e, ff)), ("up", (e, ff)), ("down", (ff, e))):
                h.t(p + f"ffn_{name}_exps.weight", *shape, experts)
        else:
            for name, shape in (("gate", (e, ff)), ("up", (e, ff)), ("down", (ff, e))):
                h.t(p + f"ffn_{name}.weight", *shape)
    return h.close()


def qwen35(out: Path) -> Path:
    c = json.loads((CHECKPOINTS / "qwen3.5-27b" / "config.json").read_text())
    c = c.get("text_config", c)
    h = _Header(out, "qwen35")
    _common(h, c, 1000)  # the vocabulary list is shortened: it only costs header bytes
    e, ff, hd = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    kd, vd = c["linear_key_head_dim"], c["linear_value_head_dim"]
    nk, nv = c["linear_num_key_heads"], c["linear_num_value_heads"]
    w = h.w
    w.add_head_count_kv(c["num_key_value_heads"])
    w.add_key_length(hd)
    w.add_value_length(hd)
    w.add_feed_forward_length(ff)
    w.add_ssm_conv_kernel(c["linear_conv_kernel_dim"])
    w.add_ssm_state_size(kd)
    w.add_ssm_group_count(nk)
    w.add_ssm_time_step_rank(nv)
    w.add_ssm_inner_size(vd * nv)
    w.add_full_attention_interval(c["full_attention_interval"])
    w.add_rope_dimension_sections([11, 11, 10, 0])
    for i in range(c["num_hidden_layers"]):
        p = f"blk.{i}."
        h.t(p + "attn_norm.weight", e)
        if (i + 1) % c["full_attention_interval"]:
            h.t(p + "attn_qkv.weight", e, 2 * nk * kd + nv * vd)
            h.t(p + "attn_gate.weight", e, nv * vd)
            h.t(p + "ssm_out.weight", nv * vd, e)
        else:
            _attention(h, p, c, hd, q_mult=2)
        for name, shape in (("gate", (e, ff)), ("up", (e, ff)), ("down", (ff, e))):
            h.t(p + f"ffn_{name}.weight", *shape)
    return h.close()


def nemotron_h(out: Path) -> Path:
    c = json.loads((CHECKPOINTS / "nemotron-h-8b-base" / "config.json").read_text())
    h = _Header(out, "nemotron_h")
    _common(h, c, 1000)
    pattern = c["hybrid_override_pattern"]  # M mamba, * attention, - MLP
    e, ff, hd = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    w = h.w
    w.add_head_count_kv([c["num_key_value_heads"] if k == "*" else 0 for k in pattern])
    w.add_feed_forward_length([ff if k == "-" else 0 for k in pattern])
    w.add_key_length(hd)
    w.add_value_length(hd)
    w.add_ssm_conv_kernel(c["conv_kernel"])
    w.add_ssm_state_size(c["ssm_state_size"])
    w.add_ssm_group_count(c["n_groups"])
    w.add_ssm_time_step_rank(c["mamba_num_heads"])
    w.add_ssm_inner_size(c["mamba_num_heads"] * c["mamba_head_dim"])
    for i, kind in enumerate(pattern):
        p = f"blk.{i}."
        h.t(p + "attn_norm.weight", e)
        if kind == "*":
            _attention(h, p, c, hd)
        elif kind == "-":
            h.t(p + "ffn_up.weight", e, ff)
            h.t(p + "ffn_down.weight", ff, e)
        else:
            inner = c["mamba_num_heads"] * c["mamba_head_dim"]
            h.t(
                p + "ssm_in.weight",
                e,
                2 * inner + 2 * c["n_groups"] * c["ssm_state_size"] + c["mamba_num_heads"],
            )
            h.t(p + "ssm_out.weight", inner, e)
    return h.close()
