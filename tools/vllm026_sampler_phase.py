"""vLLM 0.26's V1 profile-run peak at the sampler warm-up, read from its code and not fitted: a proposal for the
planner (stop 52, branch gdn52), printed against every H100 log in tests/fixtures/gpu-logs (h*). Not used by plan.

gpu_model_runner.profile_run keeps the forward's `hidden_states` (tokens x hidden x 2 B) alive through
_dummy_sampler_run, and the modular MoE kernel's workspace (TritonExperts: workspace13 + workspace2 = tokens x top-k x
(max(I, H) + max(2I, H)) x 2 B, from WorkspaceManager, never freed) stays allocated. The warm-up then holds, per logit,
the bf16 logits (2 B), Sampler.forward's fp32 copy (4), forward_native's fp32 probs (4) and random_sample's fp32 noise
(4): 14 B (apply_top_k_top_p_triton masks in place, no sort), plus the Triton top-k/top-p buffer cached per vocab
(min(pow2(seqs), SMs) x vocab x 4 B) and two seqs x hidden rows (last_hidden_states, rand_like). The second sampler call
(a generator) repeats the same tensors after the first's are freed. The forward column is measured, not derived:
linear in tokens from h08-h11 (Qwen3-Next 2.85, Qwen3.5 2.60 GiB at 16,384).

  .venv/bin/python tools/vllm026_sampler_phase.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from servebox.engines.vllm.logs import read_startup_figures  # noqa: E402

GiB = 2**30
SMS = 132  # H100 SXM and H200 streaming multiprocessors: the Triton sampler's buffer rows
FORWARD_PER_TOKEN = {"Qwen3NextForCausalLM": 2.85 / 16384, "Qwen3_5ForConditionalGeneration": 2.60 / 16384}


def sampler_phase_gib(tokens: int, seqs: int, cfg: dict) -> float:
    t = cfg.get("text_config", cfg)
    h, v, topk, inter = (
        t["hidden_size"],
        t["vocab_size"],
        t.get("num_experts_per_tok"),
        t.get("moe_intermediate_size"),
    )
    workspace = tokens * topk * (max(inter, h) + max(2 * inter, h)) * 2 if topk else 0
    buffer = min(1 << (min(SMS, seqs) - 1).bit_length(), SMS) * v * 4
    return (workspace + tokens * h * 2 + 2 * seqs * h * 2 + buffer + seqs * v * 14) / GiB


def main() -> None:
    for log in sorted((ROOT / "tests" / "fixtures" / "gpu-logs").glob("h*.log")):
        spec = json.loads(log.with_suffix(".json").read_text())
        cfg = json.loads((ROOT / spec["model_config"]["checkpoint"] / "config.json").read_text())
        fig = read_startup_figures(log)
        tokens, seqs = fig.max_num_batched_tokens, fig.max_num_seqs
        forward = FORWARD_PER_TOKEN[cfg["architectures"][0]] * tokens
        sampler = sampler_phase_gib(tokens, seqs, cfg)
        peak = max(forward, sampler)
        which = "sampler" if sampler > forward else "forward"
        print(
            f"{log.stem:42} {tokens:>6} / {seqs:>4}  forward {forward:.2f}  sampler phase {sampler:.2f}  "
            f"-> {peak:.2f} ({which})  logged {fig.activation_gib:.2f}  {peak - fig.activation_gib:+.2f}"
        )


if __name__ == "__main__":
    main()
