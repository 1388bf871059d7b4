"""How long `servebox plan model.gguf --engine llama.cpp` takes as a whole command (target: under 0.5 s) on
a GGUF with a real model's header: Qwen3-8B's shape (tests/fixtures/checkpoints/qwen3-8b-fp8/config.json:
36 layers, hidden 4096, 32/8 heads, head_dim 128, ffn 12288, vocabulary 151,936 with as many merges) and
Q4_K_M-style types, written by the gguf package as a header followed by a sparse hole where the 4.7 GB of
weights would be (nothing is downloaded, nothing large is written). Baseline in the same run: a bare
interpreter start, and `gguf.GGUFReader` on the same file (what the reader replaced).
Run: python benchmarks/llamacpp_plan_speed.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gguf
import numpy as np
from timing import best_of, child_cpu

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "tests" / "fixtures" / "checkpoints" / "qwen3-8b-fp8" / "config.json"
TARGET_S = 0.5
Q4K, Q6K, F32 = gguf.GGMLQuantizationType.Q4_K, gguf.GGMLQuantizationType.Q6_K, gguf.GGMLQuantizationType.F32


def write_header_only(path: Path) -> None:
    c = json.loads(CONFIG.read_text())
    hidden, layers, heads, kv = (
        c["hidden_size"],
        c["num_hidden_layers"],
        c["num_attention_heads"],
        c["num_key_value_heads"],
    )
    hd, ffn, vocab = c.get("head_dim", hidden // heads), c["intermediate_size"], c["vocab_size"]
    w = gguf.GGUFWriter(str(path), "qwen3")
    w.add_context_length(c["max_position_embeddings"])
    w.add_embedding_length(hidden)
    w.add_block_count(layers)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv)
    w.add_key_length(hd)
    w.add_value_length(hd)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_tokenizer_model("gpt2")
    w.add_token_list([f"t{i}" for i in range(vocab)])
    w.add_token_types([1] * vocab)
    w.add_token_merges([f"a{i} b{i}" for i in range(vocab - 549)])
    total = 0

    def info(name: str, shape: tuple[int, ...], qtype) -> None:
        nonlocal total
        blck, size = gguf.GGML_QUANT_SIZES[qtype]
        n = int(np.prod(shape))
        nbytes = n // blck * size
        np_shape = list(reversed(shape))  # outer dimension first; quantized rows are given in bytes
        if qtype != F32:
            np_shape[-1] = np_shape[-1] // blck * size
        w.add_tensor_info(
            name, np_shape, np.dtype(np.float32 if qtype == F32 else np.uint8), nbytes, raw_dtype=qtype
        )
        total += (nbytes + 31) // 32 * 32  # the writer aligns every tensor to 32 bytes

    info("token_embd.weight", (hidden, vocab), Q4K)
    info("output_norm.weight", (hidden,), F32)
    info("output.weight", (hidden, vocab), Q6K)
    for i in range(layers):
        p = f"blk.{i}."
        for name, shape, t in (
            ("attn_norm.weight", (hidden,), F32), ("attn_q.weight", (hidden, heads * hd), Q4K),
            ("attn_k.weight", (hidden, kv * hd), Q4K), ("attn_v.weight", (hidden, kv * hd), Q6K if i % 2 else Q4K),
            ("attn_output.weight", (heads * hd, hidden), Q4K), ("attn_q_norm.weight", (hd,), F32),
            ("attn_k_norm.weight", (hd,), F32), ("ffn_norm.weight", (hidden,), F32),
            ("ffn_gate.weight", (hidden, ffn), Q4K), ("ffn_up.weight", (hidden, ffn), Q4K),
            ("ffn_down.weight", (ffn, hidden), Q6K if i % 2 else Q4K),
        ):  # fmt: skip
            info(p + name, shape, t)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    with open(path, "r+b") as f:
        end = f.seek(0, 2)
        f.truncate(
            (end + 31) // 32 * 32 + total
        )  # a hole: the file has its real size, the weights take no disk


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "qwen3-8b-Q4_K_M-header.gguf"
        write_header_only(model)
        cmd = [sys.executable, "-m", "servebox.cli", "plan", str(model), "-c", "32768", "-np", "1",
               "--gpu", "rtx4090-24gb", "--json"]  # fmt: skip
        out = subprocess.run(cmd, capture_output=True, text=True)
        plan = json.loads(out.stdout)
        print(f"{model.name}: {model.stat().st_size / 2**30:.2f} GiB file, "
              f"{sum(d['model_mib'] for d in plan['devices']):,.0f} MiB of weights planned, fits={plan['fits']}")  # fmt: skip
        whole = best_of(lambda: subprocess.run(cmd, capture_output=True), repeats=3)
        floor = best_of(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeats=3)
        cpu = child_cpu(cmd)
        cpu_floor = child_cpu([sys.executable, "-c", "pass"])
        start = time.perf_counter()
        gguf.GGUFReader(model)
        reader = time.perf_counter() - start
        verdict = "ok" if whole < TARGET_S else "TOO SLOW"
        print(f"whole command: {whole:.3f} s wall (target < {TARGET_S} s: {verdict}); bare interpreter {floor:.3f} s "
              f"(ratio {whole / floor:.1f}x); gguf.GGUFReader alone on the same file: {reader:.2f} s")  # fmt: skip
        print(f"CPU time of the command (user+sys, insensitive to a busy machine): {cpu:.3f} s; bare interpreter "
              f"{cpu_floor:.3f} s (ratio {cpu / cpu_floor:.1f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
