"""Three real vLLM 0.26 GPU start-ups that decide what raises the Gated DeltaNet models' profile peak at 1,024 sequences,
with each hypothesis' prediction written before any of them ran.

tools/gpu_gdn_chunk_cases.py's four starts (stop 51, H100, 2026-12-07 10:47-10:54 UTC) held tokens at 16,384: Qwen3-Next
peaked at 2.85 GiB with 64, 256 and 512 sequences alike, and Qwen3.5 at 2.60 with 256, where 1,024 sequences gave 3.46
(h03) and 3.64 (h01). So the forward is linear in tokens (2 x h05's 1.44 = 2.88), neither per 64-token chunk nor per
sequence, and something takes over only at 1,024 sequences. Two readings fit every log so far:
  sampler   the V1 sampler warm-up (seqs x vocab rows) is larger than the 16 B a logit servebox models for these
            classes (Qwen3-Next 23.9 B, Qwen3.5 15.4 B, if 3.46 and 3.64 are its peaks): it scales with the vocabulary
  forward   a forward term per sequence (3.4-3.6 MiB) that outgrows the per-token one only at 1,024 sequences: it does
            not see the vocabulary
A config with its vocabulary halved (dummy weights, no tokenizer: nothing else changes) tells them apart. The third
start is vllm serve's default shape (8,192 batched tokens, 1,024 sequences), where servebox's plan gives 2.32.
Predicted peak activation, GiB on an 80 GB H100:
  case                                     plan   sampler  forward
  s51e Qwen3-Next, 8,192 / 1,024            2.32   3.46     3.46
  s51f Qwen3-Next vocab 75,968, 16,384/1,024 3.46   2.85     3.46
  s51g Qwen3.5 vocab 124,160, 16,384/1,024   3.64   2.60     3.64

  python tools/gpu_gdn_seqs_cases.py .gpu     # writes .gpu/models/<model>/config.json and .gpu/run/cases/*.json
  then, on the device: bash .gpu/run/drive.sh 560 s51e... s51f... s51g...
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.gpu_gdn_chunk_cases import BASE, MODELS, NO_VISION  # noqa: E402
from tools.gpu_state_dtype_cases import write_kit  # noqa: E402

CASES = {
    "s51e-qwen3next-8l-eager-mnbt8192-seqs1024": (
        "qwen3-next-8l-64e",
        {"max_num_batched_tokens": 8192, "max_num_seqs": 1024},
        {"plan": 2.32, "sampler": 3.46, "forward": 3.46},
    ),
    "s51f-qwen3next-8l-v76k-eager-seqs1024": (
        "qwen3-next-8l-64e-v76k",
        {"max_num_seqs": 1024},
        {"plan": 3.46, "sampler": 2.85, "forward": 3.46},
    ),
    "s51g-qwen35-8l-v124k-eager-seqs1024": (
        "qwen3.5-27b-8l-v124k",
        {**NO_VISION, "max_num_seqs": 1024},
        {"plan": 3.64, "sampler": 2.60, "forward": 3.64},
    ),
}
PREDICTED = {name: peaks for name, (_, _, peaks) in CASES.items()}


def _halved(config: dict) -> dict:
    """The same config with half the vocabulary (text_config's where the model nests one)."""
    out = copy.deepcopy(config)
    text = out.get("text_config", out)
    text["vocab_size"] //= 2
    return out


def configs() -> dict[str, dict]:
    nxt = json.loads((MODELS / "qwen3-next-8l-64e" / "config.json").read_text())
    q35 = json.loads((MODELS / "qwen3.5-27b-8l" / "config.json").read_text())
    return {
        "qwen3-next-8l-64e": nxt,
        "qwen3-next-8l-64e-v76k": _halved(nxt),
        "qwen3.5-27b-8l-v124k": _halved(q35),
    }


def write(kit: Path) -> list[Path]:
    return write_kit(kit, configs(), CASES, BASE)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gpu_gdn_seqs_cases.py KIT_DIR (e.g. .gpu)")
    for path in write(Path(sys.argv[1])):
        print(path)
