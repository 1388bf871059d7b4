"""Three real vLLM 0.26 GPU start-ups held out from the Gated DeltaNet activation fits, with servebox's prediction for
each written before any of them ran.

The 0.26 profile's GDN forward widths are fitted on one log each: Qwen3.5's gdn_factor 6.03 on c10 (compiled, 16,384
batched tokens, 1,024 sequences, where the sampler term is as large), Qwen3-Next's gdn_factor_by_class 8.56 on h03
(eager, the same batch shape). These starts change what a fit can hide: the batched tokens (is the forward linear in
them?), the sequences (a small sampler term, so the forward alone sets the peak) and compiled vs eager for Qwen3-Next.
Same 8-layer configs as tools/gpu_state_dtype_cases.py (their folders under tests/fixtures/gpu-logs/models/).

  python tools/gpu_activation_cases.py .gpu     # writes .gpu/models/<model>/config.json and .gpu/run/cases/*.json
  then, on the device, with the kit (shared/gpu/README.md): bash .gpu/run/drive.sh 560 s50a... s50b... s50c...
  and compare each log's 'Actual usage ... X GiB for peak activation' and 'Available KV cache memory' with PREDICTED.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.gpu_state_dtype_cases import write_kit  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "tests" / "fixtures" / "gpu-logs" / "models"
BASE = {"gpu_memory_utilization": 0.9, "max_model_len": 32768, "enable_prefix_caching": False}
GDN = {"gdn_prefill_backend": "triton"}  # the kit's note for Gated DeltaNet models on SM90
NO_VISION = {"limit_mm_per_prompt": {"image": 0, "video": 0}}
# case -> (model folder, extra LLM kwargs, predicted (peak activation GiB, available KV GiB) on an 80 GB H100 as
# torch sees it (79.18 GiB), servebox plan with profile 0.26.0 at the commit that added this file, before the start ran)
CASES = {
    # Qwen3-Next eager at half the batched tokens and 64 sequences: the forward alone, is 8.56 linear in tokens?
    "s50a-qwen3next-8l-eager-mnbt8192-seqs64": (
        "qwen3-next-8l-64e",
        {**GDN, "enforce_eager": True, "max_num_batched_tokens": 8192, "max_num_seqs": 64},
        (1.73, 64.58),
    ),
    # Qwen3-Next compiled (CUDA graphs), the default batch shape: does the compiled forward follow the eager fit?
    # (plan: the compiled MoE term, 5.92 x top-10 x 2048, outgrows the GDN one; 51 capture sizes, 0.12 GiB subtracted)
    "s50b-qwen3next-8l-compiled": ("qwen3-next-8l-64e", {**GDN}, (4.00, 62.20)),
    # Qwen3.5 eager at 4,096 batched tokens and 64 sequences: gdn_factor 6.03 with no sampler term to hide behind
    "s50c-qwen35-8l-eager-mnbt4096-seqs64": (
        "qwen3.5-27b-8l",
        {**GDN, **NO_VISION, "enforce_eager": True, "max_num_batched_tokens": 4096, "max_num_seqs": 64},
        (0.91, 59.59),
    ),
}


def write(kit: Path) -> list[Path]:
    models = {m: json.loads((MODELS / m / "config.json").read_text()) for m, _, _ in CASES.values()}
    return write_kit(kit, models, CASES, BASE)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gpu_activation_cases.py KIT_DIR (e.g. .gpu)")
    for path in write(Path(sys.argv[1])):
        print(path)
