"""The forty-second fresh batch of doctor's corpus (batch "fresh-42"): ADAPTERS AND AUXILIARY MODELS a user adds to
a base model, on the real engines, DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch measures
doctor on what that procedure produces (fresh-20 drew flags, fresh-23 mistakes around the engine, fresh-25 model
files, fresh-31 requests and running-server events, fresh-35 the process environment, fresh-38 chat templates and
generation settings).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2042):
  14 cases, each drawn in turn: engine = r.choice(("vllm", "llama")); condition = r.choice(list(CONDITIONS[engine]));
  value = r.choice(CONDITIONS[engine][condition]). A draw whose (engine, condition) was drawn before is drawn anew
  (all three, same r). A condition is an auxiliary file (a LoRA adapter; a draft model / speculative method; a
  projector) in one state: missing, corrupt (truncated, wrong format, a file of the wrong kind), mismatched with the
  base, or healthy, so about 1 in 4 conditions (and draws) is healthy.
  The files are made here, small and real: the base models are tests/engine/make_tiny_model.py's tiny Llama (vLLM;
  hidden 256, 2 layers, vocab ~1024) and tests/engine/make_tiny_gguf.py's GGUF of it (llama-server). A vLLM LoRA
  adapter is a PEFT directory (adapter_config.json + adapter_model.safetensors, tensors
  base_model.model.model.layers.N.self_attn.{q,v}_proj.lora_{A,B}.weight, rank 8, alpha 16) written with
  safetensors; a llama.cpp LoRA is a GGUF (general.type adapter, adapter.type lora, adapter.lora.alpha,
  blk.N.attn_{q,v}.weight.lora_{a,b}); a draft model is a copy of the base (vLLM: the tiny Llama directory; llama:
  the tiny GGUF), or a variant of it made the same way; a projector is a GGUF of general.architecture clip.
  Each case: the engine started with the condition and the flags a user would use (vLLM: api_server --model TINY
  --port P --max-model-len 512 [+ --enable-lora --lora-modules NAME=PATH | --speculative-config JSON]; llama-server
  -m GGUF --port P -c 512 [+ --lora / --lora-scaled | -md DRAFT --draft-max N | --mmproj FILE]), waited for until
  /health answers or it exits (vLLM 420 s, llama-server 60 s), then one request (chat, max_tokens 8; the model field
  names the adapter where the condition is about a vLLM LoRA adapter) if it answered, then SIGTERM to its process
  group (SIGKILL after 30 s). Case log = the engine's whole log (stdout and stderr together), then `# client:` and
  the response's status line and first 400 bytes (as fresh-35).
  Environment: tools/doctor-corpus.py's ENV (VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1).
Usage (from the repository root; ports 18600-18601 of this batch's range 18600-18699):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh42.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_per_engine,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(18600, "/tmp/fresh42/tiny-f32.gguf")
TMP = Path(tempfile.gettempdir()) / "fresh42-run"

# each engine's conditions and each condition's values, fixed before the draw
CONDITIONS = {
    "vllm": {
        "LoRA adapter missing": [
            "--lora-modules ada=PATH where PATH does not exist",
            "adapter directory without adapter_model.safetensors (only adapter_config.json)",
            "adapter directory without adapter_config.json (only adapter_model.safetensors)",
        ],
        "LoRA adapter corrupt": [
            "adapter_model.safetensors truncated to half its bytes",
            "adapter_config.json truncated (not valid JSON)",
            "adapter_model.safetensors is a GGUF file (wrong format)",
        ],
        "LoRA adapter mismatched": [
            "rank 64, above the default --max-lora-rank",
            "adapter made for hidden size 512 (base 256)",
            "target_modules names modules the base lacks (c_attn, c_proj)",
        ],
        "LoRA adapter healthy": [
            "rank 8 on q_proj,v_proj, --max-loras 1",
            "rank 16 on q_proj,k_proj,v_proj,o_proj, --max-lora-rank 16",
        ],
        "draft model missing": [
            '--speculative-config {"model": PATH, "num_speculative_tokens": 3}, PATH does not exist',
            "draft directory with config.json but no weights",
        ],
        "draft model corrupt": [
            "draft model.safetensors truncated to half its bytes",
            "draft config.json truncated (not valid JSON)",
        ],
        "draft model mismatched": [
            "draft with vocab_size 2048 (base ~1024)",
            "draft with max_position_embeddings 128 (below --max-model-len 512)",
        ],
        "speculative healthy": [
            '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}',
            '{"model": a copy of the base, "num_speculative_tokens": 2}',
        ],
    },
    "llama": {
        "LoRA adapter missing": [
            "--lora PATH, PATH does not exist",
            "--lora-scaled PATH 0.5, PATH does not exist",
        ],
        "LoRA adapter corrupt": [
            "LoRA GGUF truncated to half its bytes",
            "a PEFT adapter_model.safetensors given as --lora (wrong format)",
            "the base model GGUF given as --lora (a GGUF of the wrong kind)",
        ],
        "LoRA adapter mismatched": [
            "LoRA GGUF made for hidden size 512 (base 256)",
            "LoRA GGUF of general.architecture qwen2 (base llama)",
        ],
        "LoRA adapter healthy": ["--lora LORA.gguf", "--lora-scaled LORA.gguf 0.5"],
        "draft model missing": ["-md PATH --draft-max 4, PATH does not exist"],
        "draft model corrupt": [
            "draft GGUF truncated to half its bytes",
            "a text file given as -md (wrong format)",
        ],
        "draft model mismatched": [
            "draft GGUF with a vocabulary of 2048 tokens (base ~1024)",
            "draft GGUF whose token texts differ from the base's",
        ],
        "draft model healthy": [
            "-md COPY-OF-BASE.gguf --draft-max 4",
            "-md COPY-OF-BASE.gguf --draft-max 8 --draft-min 1",
        ],
        "projector missing": ["--mmproj PATH, PATH does not exist"],
        "projector corrupt": [
            "projector GGUF truncated to half its bytes",
            "the base model GGUF given as --mmproj (a GGUF of the wrong kind)",
        ],
        "projector mismatched": ["clip projector whose output size is 512 (base hidden 256)"],
        "projector healthy": ["clip projector whose output size is 256 (the base's hidden size)"],
    },
}


def draws():
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    return draw_per_engine(2042, CONDITIONS)


def serve(h, argv: list[str], port: int, timeout: float, body: dict) -> str:
    """Start ARGV; once /health answers, one chat request; then SIGTERM. Whole log + client lines (as fresh-35)."""
    with tempfile.TemporaryFile() as log:
        env = {**os.environ, **h.ENV}
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        answer, deadline = "", time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    answer = client(f"http://127.0.0.1:{port}/v1/chat/completions", body)
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        return text + ("\n" if answer and text and not text.endswith("\n") else "") + answer


def client(url: str, body: dict) -> str:
    """What the client saw: `# client:`, the status line, the body's first 400 bytes (as fresh-35)."""
    try:
        r = httpx.post(url, json=body, timeout=120)
        line = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
        return f"# client:\n{line}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"# client:\n{type(exc).__name__}: {exc}\n"


def fresh(name: str) -> Path:
    d = TMP / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def truncate_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def peft_adapter(out: Path, rank: int, modules: list[str], hidden: int = 256, kv: int = 128) -> Path:
    """A PEFT LoRA adapter directory for the tiny Llama's 2 layers (or for another hidden size)."""
    import numpy as np
    from safetensors.numpy import save_file

    out.mkdir(parents=True, exist_ok=True)
    outs = {"q_proj": hidden, "k_proj": kv, "v_proj": kv, "o_proj": hidden}
    rng = np.random.default_rng(42)
    tensors = {}
    for layer in range(2):
        for m in modules:
            key = f"base_model.model.model.layers.{layer}.self_attn.{m}"
            tensors[f"{key}.lora_A.weight"] = (rng.standard_normal((rank, hidden)) * 0.01).astype(np.float32)
            tensors[f"{key}.lora_B.weight"] = (rng.standard_normal((outs[m], rank)) * 0.01).astype(np.float32)
    save_file(tensors, str(out / "adapter_model.safetensors"))
    config = {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": None,
        "r": rank,
        "lora_alpha": 2 * rank,
        "lora_dropout": 0.0,
        "bias": "none",
        "target_modules": modules,
        "fan_in_fan_out": False,
        "inference_mode": True,
        "modules_to_save": None,
    }
    (out / "adapter_config.json").write_text(json.dumps(config, indent=2))
    return out


def lora_gguf(out: Path, arch: str = "llama", rank: int = 8, hidden: int = 256, kv: int = 128) -> Path:
    """A llama.cpp LoRA GGUF (general.type adapter) on blk.N.attn_q/attn_v of the tiny GGUF's 2 layers."""
    import gguf
    import numpy as np

    rng = np.random.default_rng(42)
    w = gguf.GGUFWriter(str(out), arch)
    w.add_string("general.type", "adapter")
    w.add_string("adapter.type", "lora")
    w.add_float32("adapter.lora.alpha", float(2 * rank))
    for layer in range(2):
        for name, n_out in (("attn_q", hidden), ("attn_v", kv)):
            w.add_tensor(
                f"blk.{layer}.{name}.weight.lora_a",
                (rng.standard_normal((rank, hidden)) * 0.01).astype(np.float32),
            )
            w.add_tensor(
                f"blk.{layer}.{name}.weight.lora_b",
                (rng.standard_normal((n_out, rank)) * 0.01).astype(np.float32),
            )
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


def clip_gguf(out: Path, projection: int = 256) -> Path:
    """A small llava-style (projector_type mlp) clip GGUF: a vision tower of 1 block and a 2-layer projector."""
    import gguf
    import numpy as np

    rng = np.random.default_rng(7)
    dim, ffn, image, patch = 64, 128, 32, 8
    w = gguf.GGUFWriter(str(out), "clip")
    w.add_bool("clip.has_text_encoder", False)
    w.add_bool("clip.has_vision_encoder", True)
    w.add_bool("clip.has_llava_projector", True)
    w.add_string("clip.projector_type", "mlp")
    w.add_bool("clip.use_gelu", True)
    w.add_uint32("clip.vision.image_size", image)
    w.add_uint32("clip.vision.patch_size", patch)
    w.add_uint32("clip.vision.embedding_length", dim)
    w.add_uint32("clip.vision.feed_forward_length", ffn)
    w.add_uint32("clip.vision.projection_dim", projection)
    w.add_uint32("clip.vision.attention.head_count", 4)
    w.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-5)
    w.add_uint32("clip.vision.block_count", 1)
    w.add_array("clip.vision.image_mean", [0.5, 0.5, 0.5])
    w.add_array("clip.vision.image_std", [0.5, 0.5, 0.5])

    def t(name: str, *shape: int) -> None:
        w.add_tensor(name, (rng.standard_normal(shape) * 0.02).astype(np.float32))

    n_pos = (image // patch) ** 2 + 1
    t("v.patch_embd.weight", dim, 3, patch, patch)
    t("v.class_embd", dim)
    t("v.position_embd.weight", n_pos, dim)
    t("v.pre_ln.weight", dim)
    t("v.pre_ln.bias", dim)
    for name, shape in (
        ("attn_q", (dim, dim)),
        ("attn_k", (dim, dim)),
        ("attn_v", (dim, dim)),
        ("attn_out", (dim, dim)),
        ("ffn_up", (ffn, dim)),
        ("ffn_down", (dim, ffn)),
    ):
        t(f"v.blk.0.{name}.weight", *shape)
        t(f"v.blk.0.{name}.bias", shape[0])
    for ln in ("ln1", "ln2"):
        t(f"v.blk.0.{ln}.weight", dim)
        t(f"v.blk.0.{ln}.bias", dim)
    t("v.post_ln.weight", dim)
    t("v.post_ln.bias", dim)
    t("mm.0.weight", projection, dim)
    t("mm.0.bias", projection)
    t("mm.2.weight", projection, projection)
    t("mm.2.bias", projection)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


def permuted_gguf(tiny: Path, out: Path) -> Path:
    """The tiny GGUF made again from a tokenizer.json whose non-special tokens' ids run in reverse order: the same
    vocabulary size and special tokens, but the token text at (almost) every id differs from the base's."""
    tok = json.loads((tiny / "tokenizer.json").read_text())
    special = {a["content"] for a in tok.get("added_tokens", [])}
    vocab = tok["model"]["vocab"]
    normal = sorted((i for t, i in vocab.items() if t not in special))
    names = [t for t, i in sorted(vocab.items(), key=lambda kv: kv[1]) if t not in special]
    tok["model"]["vocab"] = {
        **{t: i for t, i in vocab.items() if t in special},
        **dict(zip(reversed(names), normal, strict=False)),
    }
    src = out.with_suffix(".tokenizer.json")
    src.write_text(json.dumps(tok))
    subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve().parent.parent / "tests" / "engine" / "make_tiny_gguf.py"),
            str(src),
            str(out),
        ],
        check=True,
    )
    return out


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}

    def llama(*flags: str) -> str:
        argv = [h.LLAMA, "-m", str(h.GGUF), "--port", lport, "-c", "512", *flags]
        return serve(h, argv, int(lport), 60, chat)

    def vllm(*flags: str, model: str | None = None) -> str:
        argv = [*h.VLLM, str(tiny), "--port", vport, "--max-model-len", "512", *flags]
        return serve(h, argv, int(vport), timeout, {"model": model or str(tiny), **chat})

    def spec(draft: Path, n: int) -> str:
        return vllm("--speculative-config", json.dumps({"model": str(draft), "num_speculative_tokens": n}))

    def draft_copy(name: str) -> Path:
        d = fresh(name) / "draft"
        shutil.copytree(tiny, d)
        return d

    def draw1() -> str:
        p = clip_gguf(fresh("mmproj-trunc") / "mmproj-tiny-f32.gguf")
        truncate_half(p)
        return llama("--mmproj", str(p))

    def draw6() -> str:
        d = peft_adapter(fresh("lora-trunc") / "tiny-lora", 8, ["q_proj", "v_proj"])
        truncate_half(d / "adapter_model.safetensors")
        return vllm("--enable-lora", "--lora-modules", f"ada={d}", model="ada")

    def draw8() -> str:
        d = draft_copy("draft-config-trunc")
        truncate_half(d / "config.json")
        return spec(d, 3)

    def draw9() -> str:
        d = draft_copy("draft-short-ctx")
        h.edit_config(d, max_position_embeddings=128)
        return spec(d, 3)

    def draw10() -> str:
        d = peft_adapter(fresh("lora-r16") / "tiny-lora", 16, ["q_proj", "k_proj", "v_proj", "o_proj"])
        return vllm("--enable-lora", "--max-lora-rank", "16", "--lora-modules", f"ada={d}", model="ada")

    def draw13() -> str:
        d = peft_adapter(fresh("lora-h512") / "tiny-lora", 8, ["q_proj", "v_proj"], hidden=512, kv=128)
        return vllm("--enable-lora", "--lora-modules", f"ada={d}", model="ada")

    return {
        # 1: llama-server --mmproj, a clip projector GGUF truncated to half its bytes
        "fresh42-llama-mmproj-truncated": draw1,
        # 2: vLLM --speculative-config naming a draft model path that does not exist
        "fresh42-vllm-draft-model-missing": lambda: spec(TMP / "nowhere" / "tiny-draft", 3),
        # 3: llama-server --lora naming a file that does not exist
        "fresh42-llama-lora-missing": lambda: llama("--lora", str(TMP / "nowhere" / "tiny-lora-f32.gguf")),
        # 4: vLLM with a draft model (a copy of the base), num_speculative_tokens 2 (healthy)
        "fresh42-vllm-draft-model-healthy": lambda: spec(draft_copy("draft-ok"), 2),
        # 5: llama-server --mmproj naming a file that does not exist
        "fresh42-llama-mmproj-missing": lambda: llama(
            "--mmproj", str(TMP / "nowhere" / "mmproj-tiny-f32.gguf")
        ),
        # 6: vLLM LoRA adapter whose adapter_model.safetensors is truncated to half; the request names it
        "fresh42-vllm-lora-truncated": draw6,
        # 7: llama-server -md naming a draft file that does not exist
        "fresh42-llama-draft-missing": lambda: llama(
            "-md", str(TMP / "nowhere" / "draft-f32.gguf"), "--draft-max", "4"
        ),
        # 8: vLLM draft model whose config.json is truncated
        "fresh42-vllm-draft-config-truncated": draw8,
        # 9: vLLM draft model with max_position_embeddings 128 under --max-model-len 512
        "fresh42-vllm-draft-short-context": draw9,
        # 10: vLLM LoRA rank 16 on q,k,v,o with --max-lora-rank 16 (healthy); the request names it
        "fresh42-vllm-lora-healthy": draw10,
        # 11: llama-server -md, a draft GGUF whose token texts differ from the base's
        "fresh42-llama-draft-vocab-differs": lambda: llama(
            "-md", str(permuted_gguf(tiny, fresh("draft-vocab") / "draft-f32.gguf")), "--draft-max", "4"
        ),
        # 12: llama-server --lora, a LoRA GGUF made for the base (healthy)
        "fresh42-llama-lora-healthy": lambda: llama(
            "--lora", str(lora_gguf(fresh("lora-ok") / "tiny-lora-f32.gguf"))
        ),
        # 13: vLLM LoRA adapter made for hidden size 512; the request names it
        "fresh42-vllm-lora-hidden-512": draw13,
        # 14: llama-server --lora, a LoRA GGUF of general.architecture qwen2
        "fresh42-llama-lora-arch-qwen2": lambda: llama(
            "--lora", str(lora_gguf(fresh("lora-qwen2") / "tiny-lora-f32.gguf", arch="qwen2"))
        ),
    }


def main() -> None:
    maker_main(draws, makers, "/tmp/fresh42/tiny")


if __name__ == "__main__":
    main()
