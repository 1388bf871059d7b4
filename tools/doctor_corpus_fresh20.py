"""The twentieth fresh batch of doctor's corpus (batch "fresh-20"): flags DRAWN AT RANDOM, not chosen, so the batch
measures doctor on the failures a procedure fixed in advance produces, not on the ones we expect it to know.

Procedure (fixed before any case ran, and before doctor ran on any log):
  vLLM: the long options that take a value in the usage of `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server
  --help` (223, in the order the usage lists them; `--no-*` negations and bare switches left out; `vllm serve` dies on
  missing 'vllm' package metadata in this venv), `random.Random(2026).sample(flags, 16)`, taken in order; a draw is
  skipped only if no value can fail at start-up (--api-key, --disable-access-log-for-endpoints: any string is taken,
  a wrong one shows only at request time). Each kept flag gets a value a user plausibly gets wrong.
  llama-server: the first long option of each option line of `llama-server --help` (200, `--no-*` left out),
  `random.Random(2026).sample(flags, 12)`, the first five (none skipped).
  Machine/service (chosen, written down before running): a unit whose TimeoutStartSec= says 'infinite', a unit with
  WantedBy= in [Service], VLLM_CPU_KVCACHE_SPACE given in MiB (4096), HOME on a full 64 KiB tmpfs. (vLLM as a service
  user that cannot read the model was dropped before running: /root, where the venv's interpreter lives, is 0700.)
Healthy or exotic outcomes are kept as they came. Reuses tools/doctor-corpus.py's helpers and
tools/doctor_corpus_fresh5.py's write_cases. Nothing in the tests needs this tool. Run as root (it mounts a tmpfs).
Usage (from the repository root; ports 18600-18602, this batch's range is 18600-18699):
  DOCTOR_CORPUS_TINY=TINY_MODEL_DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh20.py [CASE_ID ...]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    load,
    until_failed_or_served,
    use_ports,
)

use_ports(18600, "/tmp/df20/tiny-f32.gguf")


def vllm_cases(h, tiny: Path, tmp: Path, timeout: float) -> dict:
    port = os.environ["DOCTOR_CORPUS_PORT"]

    def vllm(*flags: str, env: dict | None = None) -> str:
        argv = [*h.VLLM, str(tiny), "--port", port, "--max-model-len", "512", *flags]
        return until_failed_or_served(h, argv, port, timeout, env)

    def full_home() -> str:
        # HOME (and the caches under it) on a small filesystem that is already full
        home = tmp / "home"
        home.mkdir(exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(home)], check=True)
        try:
            subprocess.run(["dd", "if=/dev/zero", f"of={home}/fill", "bs=4k"], capture_output=True)
            return vllm(env={"HOME": str(home)})
        finally:
            subprocess.run(["umount", str(home)], check=False)

    return {
        # draw 2: the choice written capitalised, as FlashInfer's docs write it
        "vllm-mamba-ssu-algorithm-capitalised": lambda: vllm("--mamba-ssu-algorithm", "Horizontal"),
        # draw 3: a list given comma-separated (argparse wants space-separated values)
        "vllm-kv-cache-skip-layers-comma-list": lambda: vllm("--kv-cache-dtype-skip-layers", "0,1"),
        # draw 4: a block size that is not a multiple of 8 (the help says it must be)
        "vllm-mamba-block-size-not-multiple-of-8": lambda: vllm("--mamba-block-size", "100"),
        # draw 5: fewer CPU LoRA slots than GPU ones (the help says it must be >= max_loras)
        "vllm-max-cpu-loras-below-max-loras": lambda: vllm(
            "--enable-lora", "--max-loras", "4", "--max-cpu-loras", "2"
        ),
        # draw 6: the backend name spelt as the library is
        "vllm-gdn-prefill-backend-misspelt": lambda: vllm("--gdn-prefill-backend", "flash_infer"),
        # draw 8: the mode given half (raw/processed without _logprobs)
        "vllm-logprobs-mode-half-name": lambda: vllm("--logprobs-mode", "processed"),
        # draw 9: a dtype the option does not take
        "vllm-mm-encoder-attn-dtype-fp16": lambda: vllm("--mm-encoder-attn-dtype", "fp16"),
        # draw 10: the IPC method abbreviated
        "vllm-mm-tensor-ipc-shm": lambda: vllm("--mm-tensor-ipc", "shm"),
        # machine: a KV cache size meant in MiB (the variable is in GiB)
        "vllm-env-kvcache-space-mib": lambda: vllm(env={"VLLM_CPU_KVCACHE_SPACE": "4096"}),
        # machine: a full disk under HOME
        "vllm-home-on-full-disk": full_home,
    }


def llama_cases(h) -> dict:
    gguf = str(h.GGUF)

    def llama(*flags: str, timeout: float) -> str:
        return until_failed_or_served(h, [h.LLAMA, "--port", h.LLAMA_PORT, *flags], h.LLAMA_PORT, timeout)

    return {
        # draw 1: the type written as a word (int, float, bool, str are the types)
        "llama-override-kv-type-boolean": lambda: llama(
            "-m", gguf, "--override-kv", "tokenizer.ggml.add_bos_token=boolean:false", timeout=30
        ),
        # draw 2: the priority as a word
        "llama-prio-draft-word": lambda: llama("-m", gguf, "--spec-draft-prio", "high", timeout=30),
        # draw 3: a switch given a value, as a compose file does
        "llama-mmproj-offload-given-value": lambda: llama(
            "-m", gguf, "--mmproj-offload", "false", timeout=30
        ),
        # draw 4: a number option given 'auto'
        "llama-image-max-tokens-auto": lambda: llama("-m", gguf, "--image-max-tokens", "auto", timeout=30),
        # draw 5: --cache-reuse with prompt caching off (the help says it requires it)
        "llama-cache-reuse-without-prompt-cache": lambda: llama(
            "-m", gguf, "--cache-reuse", "256", "--no-cache-prompt", timeout=30
        ),
    }


def systemd_cases(h) -> dict:
    unit = h.UNIT
    return {
        "systemd-timeoutstartsec-infinite": lambda: h.systemd_verify(
            unit.format(extra="TimeoutStartSec=infinite\n")
        ),
        "systemd-wantedby-in-service-section": lambda: h.systemd_verify(
            unit.format(extra="WantedBy=multi-user.target\n")
        ),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df20/tiny"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "150"))
    with tempfile.TemporaryDirectory(prefix="doctor-fresh20-") as tmp:
        makers = dict(systemd_cases(h))
        makers.update(llama_cases(h))
        makers.update(vllm_cases(h, tiny, Path(tmp), timeout))
        f5.write_cases(h, makers, set(sys.argv[1:]))


if __name__ == "__main__":
    main()
