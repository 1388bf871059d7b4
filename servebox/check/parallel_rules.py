"""Rules on dtype and tensor-parallel sharding: heads per rank, row-parallel group alignment."""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding, module_dims

ROW_PARALLEL_SUFFIXES = (
    "o_proj",
    "down_proj",
    "out_proj",
    "attn.proj",
    "linear_fc2",
    "w2",
    "fc2",
    "dense_4h_to_h",
    "wo",
)


def rule_dtype(ctx: Context) -> list[Finding]:
    arch = ctx.ckpt.architecture
    dtype = ctx.flags.dtype if ctx.flags.dtype != "auto" else (arch.torch_dtype or "bfloat16")
    if dtype in ("bfloat16", "bf16") and ctx.cc < ctx.engine.data["bf16_min_capability"]:
        if ctx.flags.dtype in ("bfloat16", "bf16"):
            return [
                finding(
                    "bf16-capability",
                    "error",
                    f"Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your {ctx.gpu.model} GPU has "
                    f"compute capability {ctx.gpu.compute_capability[0]}.{ctx.gpu.compute_capability[1]}.",
                    [f"--dtype {ctx.flags.dtype}"],
                    "pass --dtype half",
                )
            ]
        return [
            finding(
                "bf16-capability",
                "info",
                f"the checkpoint is bfloat16; on {ctx.gpu.name} vLLM casts it to float16",
                [f"config.json torch_dtype = {arch.torch_dtype!r}"],
                "pass --dtype half to make it explicit",
            )
        ]
    return []


def rule_tensor_parallel(ctx: Context) -> list[Finding]:
    tp, a = ctx.flags.tensor_parallel_size, ctx.ckpt.architecture
    out = []
    if a.num_attention_heads % tp:
        out.append(
            finding(
                "tp-heads",
                "error",
                f"Total number of attention heads ({a.num_attention_heads}) must be divisible by tensor parallel size ({tp}).",
                [f"config.json num_attention_heads = {a.num_attention_heads}"],
                "choose a TP size that divides the heads",
            )
        )
    kv = a.num_key_value_heads
    if kv % tp and tp % kv:
        out.append(
            finding(
                "tp-kv-heads",
                "error",
                f"{kv} KV heads can be neither split nor replicated evenly over TP {tp}",
                [f"config.json num_key_value_heads = {kv}"],
                "choose a TP size that divides or is a multiple of the KV heads",
            )
        )
    elif kv < tp:
        out.append(
            finding(
                "tp-kv-heads",
                "info",
                f"{kv} KV heads < TP {tp}: each KV head is replicated on {tp // kv} ranks (more KV memory per token)",
                [f"config.json num_key_value_heads = {kv}"],
            )
        )
    la = a.linear_attention
    if la and (la.num_value_heads % tp or la.num_key_heads % tp):
        out.append(
            finding(
                "tp-linear-heads",
                "error",
                f"linear-attention heads ({la.num_key_heads} k, {la.num_value_heads} v) are not divisible by TP {tp}",
                ["config.json linear_num_key_heads / linear_num_value_heads"],
                "choose a TP size that divides them",
            )
        )
    return out


def rule_row_parallel_groups(ctx: Context) -> list[Finding]:
    """A row-parallel quantized layer splits its input over TP ranks; each rank's share must hold whole groups."""
    q, tp, inv = ctx.ckpt.facts.quantization, ctx.flags.tensor_parallel_size, ctx.ckpt.inventory
    if tp == 1 or not q.group_size or q.group_size <= 0 or inv is None:
        return []
    bad: dict[str, list[str]] = {}
    for m in inv.modules.values():
        if not m.quantized or not m.name.endswith(ROW_PARALLEL_SUFFIXES):
            continue
        dims = module_dims(ctx, m.name)
        if dims and (dims[1] % tp or (dims[1] // tp) % q.group_size):
            bad.setdefault(m.component, []).append(
                f"{m.name}: input {dims[1]} / TP {tp} = {dims[1] / tp:g}, not a multiple of group {q.group_size}"
            )
    out = []
    for component, lines in bad.items():
        out.append(
            finding(
                "row-parallel-group-alignment",
                "error",
                f"The input size is not aligned with the quantized weight shape: {len(lines)} quantized row-parallel layer(s) of the {component} cannot be split over TP {tp}",
                lines[:5] + ([f"... and {len(lines) - 5} more"] if len(lines) > 5 else []),
                "use a checkpoint that keeps these layers unquantized (modules_to_not_convert / ignore)"
                if component == "vision_tower"
                else "use a TP size whose per-rank share holds whole groups, or a checkpoint with another group size",
            )
        )
    return out
