"""Four real vLLM 0.26 GPU start-ups that decide what the Gated DeltaNet forward's profile-run peak follows, with three
predictions for each written before any of them ran.

Stop 50's held-out starts (tests/fixtures/gpu-logs/h05-h07) showed the single per-token GDN factor exact only at the
16,384-token / 1,024-sequence profile batch. vLLM's dummy profile run spreads max_num_batched_tokens evenly over
max_num_seqs sequences, and the chunked Gated DeltaNet kernels keep a state per 64-token chunk of each sequence, so
chunks = seqs x ceil(tokens / seqs / 64): at 16,384 tokens, 1,024 sequences give 1,024 chunks, 256 or 64 give 256.
Each hypothesis below is two parameters fitted on the same two logs per model (Qwen3-Next: h03 16,384 / 1,024 -> 3.46
GiB, h05 8,192 / 64 -> 1.44; Qwen3.5: h01 16,384 / 1,024 -> 3.64, h07 4,096 / 64 -> 0.67), so every figure here is
out of sample; the cases hold tokens fixed at 16,384 and change only the sequences:
  plan      servebox plan as it stands (profile 0.26.0, one per-token factor): the peak does not move with seqs
  chunk     per token + per 64-token chunk (Qwen3-Next 0.77 MiB a chunk, Qwen3.5 1.28): 256 chunks at 64 and 256 seqs
  sequence  per token + per sequence (Qwen3-Next 0.66 MiB a sequence): 64 seqs below 256 seqs
The V1 sampler warm-up (seqs x vocab x 16 B: 0.15 / 0.58 / 1.16 GiB for Qwen3-Next at 64 / 256 / 512 seqs, 0.95 for
Qwen3.5 at 256) stays under every forward predicted, so the logged peak is the forward's.

  python tools/gpu_gdn_chunk_cases.py .gpu     # writes .gpu/models/<model>/config.json and .gpu/run/cases/*.json
  then, on the device: bash .gpu/run/drive.sh 560 s51a... s51b... s51c... s51d...
  and compare each log's 'Actual usage ... X GiB for peak activation' with PREDICTED.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.gpu_state_dtype_cases import write_kit  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "tests" / "fixtures" / "gpu-logs" / "models"
BASE = {
    "gpu_memory_utilization": 0.9,
    "max_model_len": 32768,
    "enable_prefix_caching": False,
    "enforce_eager": True,
    "gdn_prefill_backend": "triton",  # the kit's note for Gated DeltaNet models on SM90
    "max_num_batched_tokens": 16384,
}
NO_VISION = {"limit_mm_per_prompt": {"image": 0, "video": 0}}
# case -> (model folder, extra LLM kwargs, predicted peak activation GiB by hypothesis on an 80 GB H100)
CASES = {
    "s51a-qwen3next-8l-eager-seqs256": (
        "qwen3-next-8l-64e",
        {"max_num_seqs": 256},
        {"plan": 3.46, "chunk": 2.88, "sequence": 2.96},
    ),
    "s51b-qwen3next-8l-eager-seqs512": (
        "qwen3-next-8l-64e",
        {"max_num_seqs": 512},
        {"plan": 3.46, "chunk": 3.07, "sequence": 3.13},
    ),
    "s51c-qwen3next-8l-eager-seqs64": (
        "qwen3-next-8l-64e",
        {"max_num_seqs": 64},
        {"plan": 3.46, "chunk": 2.88, "sequence": 2.84},
    ),
    "s51d-qwen35-8l-eager-seqs256": (
        "qwen3.5-27b-8l",
        {**NO_VISION, "max_num_seqs": 256},
        {"plan": 3.64, "chunk": 2.68, "sequence": 2.68},
    ),
}
PREDICTED = {name: peaks for name, (_, _, peaks) in CASES.items()}


def write(kit: Path) -> list[Path]:
    models = {m: json.loads((MODELS / m / "config.json").read_text()) for m, _, _ in CASES.values()}
    return write_kit(kit, models, CASES, BASE)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gpu_gdn_chunk_cases.py KIT_DIR (e.g. .gpu)")
    for path in write(Path(sys.argv[1])):
        print(path)
