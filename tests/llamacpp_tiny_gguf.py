"""Write tiny GGUFs of real llama.cpp architectures (llama, qwen2, qwen3, qwen3moe, gemma3, qwen35) with
random weights, small enough for the real llama-server to load on this machine in a second.

Tensor names and shapes follow the pinned llama.cpp's loaders (src/models/<arch>.cpp); only the sizes
are tiny. The tokenizer is a byte-level `gpt2` vocabulary (256 byte tokens, padded with filler tokens to
the requested vocabulary size), enough for llama-server to start and warm up.
Usage: python tests/llamacpp_tiny_gguf.py ARCH OUT.gguf
"""

from __future__ import annotations

import sys
from pathlib import Path

import gguf
import numpy as np

# Each architecture's shape: small, but with the features the planner must get right (GQA, head_dim
# unlike hidden/heads, sliding window, experts, recurrent layers).
SHAPES: dict[str, dict] = {
    "llama": dict(hidden=256, ffn=512, layers=4, heads=8, kv_heads=2, vocab=1024, tied=False),
    "qwen2": dict(hidden=256, ffn=512, layers=3, heads=4, kv_heads=2, vocab=1100, tied=True, qkv_bias=True),
    "qwen3": dict(hidden=256, ffn=512, layers=4, heads=4, kv_heads=2, head_dim=96, vocab=1024, tied=True),
    "qwen3moe": dict(
        hidden=256, ffn=512, layers=3, heads=4, kv_heads=1, head_dim=64, vocab=1024, experts=8, used=2, ffn_exp=128
    ),
    "gemma3": dict(hidden=256, ffn=512, layers=7, heads=4, kv_heads=2, head_dim=64, vocab=1024, window=128, tied=True),
    "qwen35": dict(
        hidden=256, ffn=512, layers=8, heads=4, kv_heads=2, head_dim=64, vocab=1024, tied=False,
        ssm_conv=4, ssm_state=32, ssm_groups=2, ssm_v_heads=4,
    ),
}  # fmt: skip


def _byte_tokens() -> list[str]:
    """GPT-2's byte-to-unicode table: every byte becomes one printable character."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


def _tokenizer(w: gguf.GGUFWriter, vocab: int) -> None:
    tokens = _byte_tokens() + ["<s>", "</s>", "ab", "th", "the"]
    tokens += [f"<filler_{i}>" for i in range(vocab - len(tokens))]
    types = [gguf.TokenType.NORMAL] * 256 + [gguf.TokenType.CONTROL] * 2
    types += [gguf.TokenType.NORMAL] * 3 + [gguf.TokenType.CONTROL] * (len(tokens) - 261)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(["a b", "t h", "th e"])  # llama.cpp refuses a BPE vocabulary without merges
    w.add_bos_token_id(256)
    w.add_eos_token_id(257)
    w.add_chat_template(
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )


class _Tensors:
    def __init__(self, w: gguf.GGUFWriter, dtype: str) -> None:
        self.w, self.dtype, self.rng = w, dtype, np.random.default_rng(0)

    def norm(self, name: str, n: int) -> None:
        self.w.add_tensor(name, np.ones(n, dtype=np.float32))

    def mat(self, name: str, *shape: int) -> None:
        """shape in numpy order (outer first), as the gguf package writes it."""
        data = (self.rng.standard_normal(shape) * 0.02).astype(np.float32)
        if self.dtype == "f16":
            self.w.add_tensor(name, data.astype(np.float16))
        elif self.dtype in ("q8_0", "q4_0"):
            qtype = gguf.GGMLQuantizationType[self.dtype.upper()]
            self.w.add_tensor(name, gguf.quants.quantize(data, qtype), raw_dtype=qtype)
        else:
            self.w.add_tensor(name, data)


def write(arch: str, out: Path, dtype: str = "f16", split_max_tensors: int = 0) -> Path:
    """Write the model; with split_max_tensors, as llama.cpp's -00001-of-0000N.gguf parts (the first returned)."""
    s = SHAPES[arch]
    hidden, ffn, layers, heads, kv = s["hidden"], s["ffn"], s["layers"], s["heads"], s["kv_heads"]
    hd = s.get("head_dim", hidden // heads)
    w = gguf.GGUFWriter(str(out), arch, split_max_tensors=split_max_tensors)
    w.add_name(f"servebox tiny {arch}")
    w.add_context_length(8192)
    w.add_embedding_length(hidden)
    w.add_block_count(layers)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv)
    if "head_dim" in s:
        w.add_key_length(hd)
        w.add_value_length(hd)
    w.add_rope_dimension_count(hd)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16 if dtype == "f16" else gguf.LlamaFileType.ALL_F32)
    if arch == "qwen3moe":
        w.add_expert_count(s["experts"])
        w.add_expert_used_count(s["used"])
        w.add_expert_feed_forward_length(s["ffn_exp"])
    if arch == "gemma3":
        w.add_sliding_window(s["window"])
    if arch == "qwen35":
        w.add_ssm_conv_kernel(s["ssm_conv"])
        w.add_ssm_state_size(s["ssm_state"])
        w.add_ssm_group_count(s["ssm_groups"])
        w.add_ssm_time_step_rank(s["ssm_v_heads"])
        w.add_ssm_inner_size(s["ssm_state"] * s["ssm_v_heads"])
        w.add_full_attention_interval(4)
        w.add_rope_dimension_sections([hd // 4, hd // 8, hd // 8, 0])
    _tokenizer(w, s["vocab"])
    t = _Tensors(w, dtype)
    vocab = s["vocab"]
    t.mat("token_embd.weight", vocab, hidden)
    t.norm("output_norm.weight", hidden)
    if not s.get("tied"):
        t.mat("output.weight", vocab, hidden)
    for i in range(layers):
        _layer(t, arch, s, i, hidden, ffn, heads, kv, hd)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    if split_max_tensors:
        return sorted(out.parent.glob(f"{out.stem}-00001-of-*.gguf"))[0]
    return out


def _layer(
    t: _Tensors, arch: str, s: dict, i: int, hidden: int, ffn: int, heads: int, kv: int, hd: int
) -> None:
    p = f"blk.{i}."
    t.norm(p + "attn_norm.weight", hidden)
    recurrent = arch == "qwen35" and (i + 1) % 4 != 0
    if recurrent:
        k_dim, v_dim = s["ssm_state"] * s["ssm_groups"], s["ssm_state"] * s["ssm_v_heads"]
        t.mat(p + "attn_qkv.weight", 2 * k_dim + v_dim, hidden)
        t.mat(p + "attn_gate.weight", v_dim, hidden)
        t.w.add_tensor(p + "ssm_conv1d.weight", np.ones((2 * k_dim + v_dim, s["ssm_conv"]), dtype=np.float32))
        t.norm(p + "ssm_dt.bias", s["ssm_v_heads"])
        t.norm(p + "ssm_a", s["ssm_v_heads"])
        t.mat(p + "ssm_beta.weight", s["ssm_v_heads"], hidden)
        t.mat(p + "ssm_alpha.weight", s["ssm_v_heads"], hidden)
        t.norm(p + "ssm_norm.weight", s["ssm_state"])
        t.mat(p + "ssm_out.weight", hidden, v_dim)
    else:
        q_out = heads * hd * (2 if arch == "qwen35" else 1)
        t.mat(p + "attn_q.weight", q_out, hidden)
        t.mat(p + "attn_k.weight", kv * hd, hidden)
        t.mat(p + "attn_v.weight", kv * hd, hidden)
        t.mat(p + "attn_output.weight", hidden, heads * hd)
        if s.get("qkv_bias"):
            for name, n in (("attn_q", heads * hd), ("attn_k", kv * hd), ("attn_v", kv * hd)):
                t.norm(p + f"{name}.bias", n)
        if arch in ("qwen3", "qwen3moe", "gemma3", "qwen35"):
            t.norm(p + "attn_q_norm.weight", hd)
            t.norm(p + "attn_k_norm.weight", hd)
    if arch in ("gemma3", "qwen35"):
        t.norm(p + "post_attention_norm.weight", hidden)
    if arch != "qwen35":
        t.norm(p + "ffn_norm.weight", hidden)
    if arch == "gemma3":
        t.norm(p + "post_ffw_norm.weight", hidden)
    if arch == "qwen3moe":
        n_exp, f = s["experts"], s["ffn_exp"]
        t.mat(p + "ffn_gate_inp.weight", n_exp, hidden)
        t.mat(p + "ffn_gate_exps.weight", n_exp, f, hidden)
        t.mat(p + "ffn_up_exps.weight", n_exp, f, hidden)
        t.mat(p + "ffn_down_exps.weight", n_exp, hidden, f)
    else:
        t.mat(p + "ffn_gate.weight", ffn, hidden)
        t.mat(p + "ffn_up.weight", ffn, hidden)
        t.mat(p + "ffn_down.weight", hidden, ffn)


if __name__ == "__main__":
    print(write(sys.argv[1], Path(sys.argv[2]), *(sys.argv[3:4] or [])))
