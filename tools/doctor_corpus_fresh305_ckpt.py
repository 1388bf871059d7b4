"""Tiny Qwen2 checkpoint: tests/fixtures/checkpoints/qwen2.5-7b-instruct/config.json shrunk, random bf16 weights
(transformers' Qwen2ForCausalLM init, seed 0, saved with safetensors), and Qwen2's real BPE tokenizer rebuilt from
llama.cpp b11434's models/ggml-vocab-qwen2.gguf (tokens, merges, special tokens, chat template)."""

import json
import sys
from pathlib import Path

sdist, fixture, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(sdist / "gguf-py"))
import gguf  # noqa: E402
import torch  # noqa: E402
from transformers import Qwen2Config, Qwen2ForCausalLM  # noqa: E402

out.mkdir(parents=True, exist_ok=True)
r = gguf.GGUFReader(str(sdist / "models" / "ggml-vocab-qwen2.gguf"))
tokens = r.fields["tokenizer.ggml.tokens"].contents()
types = r.fields["tokenizer.ggml.token_type"].contents()
merges = r.fields["tokenizer.ggml.merges"].contents()
template = r.fields["tokenizer.chat_template"].contents()
normal = {t: i for i, (t, ty) in enumerate(zip(tokens, types, strict=True)) if ty == 1}
special = [(i, t) for i, (t, ty) in enumerate(zip(tokens, types, strict=True)) if ty == 3]
from transformers import Qwen2TokenizerFast  # noqa: E402

tok = Qwen2TokenizerFast(
    vocab=normal,
    merges=[tuple(m.split(" ", 1)) for m in merges],
    unk_token=None,
    bos_token=None,
    eos_token=None,
    pad_token=None,
)
tok.add_special_tokens({"additional_special_tokens": [t for _, t in sorted(special)]})
tok.eos_token, tok.pad_token = "<|im_end|>", "<|endoftext|>"
tok.chat_template = template
tok.save_pretrained(str(out))
print("tokenizer", len(tok), [(t, tok.convert_tokens_to_ids(t)) for _, t in special[:4]])
cfg = json.loads((fixture / "config.json").read_text())
cfg.update(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_window_layers=2,
)
torch.manual_seed(0)
model = Qwen2ForCausalLM(Qwen2Config(**cfg)).to(torch.bfloat16)
model.save_pretrained(str(out), safe_serialization=True)
(out / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")  # the fixture's own keys, shrunk
