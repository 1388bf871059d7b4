"""`servebox inspect` as tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from servebox.checkpoint.facts import CheckpointFacts
from servebox.units import fmt_bytes


def show_inspect(facts: CheckpointFacts, console: Console) -> None:
    console.print(f"[bold]{facts.source}[/bold]  ({facts.kind})")
    if facts.gguf is not None:
        g = facts.gguf
        table = Table("field", "value", title="GGUF")
        for key in (
            "architecture",
            "name",
            "context_length",
            "block_count",
            "embedding_length",
            "head_count",
            "head_count_kv",
            "file_type",
        ):
            table.add_row(key, str(getattr(g, key)))
        table.add_row("tensors", f"{g.tensor_count} ({fmt_bytes(g.total_bytes)})")
        for name, nbytes in g.bytes_by_type.items():
            table.add_row(f"  {name}", fmt_bytes(nbytes))
        console.print(table)
        return
    a = facts.architecture
    assert a is not None
    table = Table("field", "value", title="Architecture (config.json)")
    table.add_row("architecture", f"{a.architecture} ({a.model_type}, layout {a.layout})")
    table.add_row(
        "layers", f"{a.num_layers}: " + ", ".join(f"{n} {k}" for k, n in a.layer_kind_counts.items())
    )
    table.add_row(
        "attention heads / kv heads / head_dim",
        f"{a.num_attention_heads} / {a.num_key_value_heads} / {a.head_dim}",
    )
    table.add_row(
        "hidden / intermediate / vocab", f"{a.hidden_size} / {a.intermediate_size} / {a.vocab_size}"
    )
    table.add_row("max positions / rope scaling", f"{a.max_position_embeddings} / {a.rope_scaling}")
    if a.sliding_window:
        table.add_row("sliding window", str(a.sliding_window))
    if a.linear_attention:
        la = a.linear_attention
        table.add_row(
            "linear attention (GDN)",
            f"k heads {la.num_key_heads}, v heads {la.num_value_heads}, dims {la.key_head_dim}/{la.value_head_dim}, conv {la.conv_kernel_dim}",
        )
    if a.mamba:
        m = a.mamba
        table.add_row(
            "mamba",
            f"heads {m.num_heads} x {m.head_dim}, state {m.state_size}, groups {m.n_groups}, conv {m.conv_kernel}",
        )
    if a.mla:
        table.add_row("MLA", f"kv_lora_rank {a.mla.kv_lora_rank}, rope dim {a.mla.qk_rope_head_dim}")
    if a.moe:
        table.add_row(
            "MoE",
            f"{a.moe.num_experts} experts, {a.moe.experts_per_token} per token, shared {a.moe.shared_experts}",
        )
    table.add_row("MTP layers", str(a.mtp_layers))
    table.add_row(
        "vision tower", f"depth {a.vision.depth}, hidden {a.vision.hidden_size}" if a.vision else "none"
    )
    table.add_row("dtype", str(a.torch_dtype))
    console.print(table)
    t = facts.tensors
    if t is not None:
        table = Table(
            "component",
            "bytes",
            "stored elements",
            title=f"Tensors: {t.tensor_count} in {len(t.shards)} shard(s), {fmt_bytes(t.total_bytes)}",
        )
        for comp, nbytes in t.bytes_by_component.items():
            table.add_row(comp, fmt_bytes(nbytes), f"{t.elements_by_component.get(comp, 0):,}")
        table.add_row(
            "[dim]by dtype[/dim]", ", ".join(f"{k} {fmt_bytes(v)}" for k, v in t.bytes_by_dtype.items()), ""
        )
        console.print(table)
        bad = [s for s in t.shards if not s["complete"]]
        if not t.shards:
            console.print("[red]no weights:[/red] no safetensors shard in this checkpoint")
        elif t.header_only:
            console.print(
                "[cyan]header-only copy:[/cyan] every shard holds its header and no tensor data; "
                "the figures above come from the headers"
            )
        elif bad:
            console.print(
                f"[yellow]incomplete:[/yellow] {len(bad)} shard(s), e.g. {bad[0]['file']}: {bad[0]['problem']}",
                highlight=False,
            )
        else:
            console.print("[green]complete:[/green] every shard present with the size its header implies")
    q = facts.quantization
    console.print(
        f"[bold]Quantization:[/bold] {q.method} {q.scheme}"
        + (f", format {q.format}" if q.format else "")
        + (f", group size {q.group_size}" if q.group_size else "")
    )
    if q.groups:
        table = Table("group", "linear modules", "declared excluded", "quantized (tensors)", "excluded")
        for group, g in q.groups.items():
            table.add_row(
                group,
                str(g.modules),
                str(g.declared_excluded),
                str(g.quantized_in_tensors),
                "yes" if g.fully_excluded else "no",
            )
        console.print(table)
    ct = facts.chat_template
    if ct is not None:
        table = Table(
            "kwarg", "default", "branch values", title=f"Chat template ({ct.source}, {ct.chars} chars)"
        )
        for v in ct.variables:
            table.add_row(
                v.name,
                repr(v.default) if v.default_source else "[dim]undefined[/dim]",
                ", ".join(map(repr, v.branch_values)),
            )
        console.print(table)
        if ct.reasoning:
            r = ct.reasoning
            console.print(
                f"reasoning markers {r.start} ... {r.end} (id {r.end_token_id}); end marker is EOS: {r.end_is_eos}; "
                f"reasoning on by default: {ct.reasoning_default_on}"
            )
        console.print(
            f"EOS tokens: {', '.join(ct.eos_tokens) or 'none declared'}; sample render in sandbox: "
            + ("ok" if ct.sample_render_ok else f"failed ({ct.sample_render_error})")
        )
    console.print(f"tokenizer files: {', '.join(facts.tokenizer_files) or '[red]none[/red]'}")
