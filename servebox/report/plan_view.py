"""`servebox plan` as vLLM's own log lines, a context x concurrency table, and the arithmetic."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from servebox.plan import Plan


def show_plan(plan: Plan, console: Console, explain: bool) -> None:
    cal = plan.calibration_status
    colour = "green" if cal.get("calibrated") else "yellow"
    console.print(f"[{colour}]{cal.get('line', '')}[/{colour}]", highlight=False)
    console.print(
        f"[bold]{plan.model}[/bold] on {plan.gpu} ({plan.gpu_total_gib} GiB) x TP {plan.tensor_parallel_size} "
        f"x PP {plan.pipeline_parallel_size}, vLLM {plan.vllm_profile}, utilization {plan.gpu_memory_utilization}"
    )
    which = f"; stage {plan.deciding_stage}'s, whose pool decides" if len(plan.stages) > 1 else ""
    console.print(f"[dim]vLLM will log (per rank{which}):[/dim]")
    labels = [
        plan.labels.get(k, "")
        for k in ("model_loading_gib", "available_kv_gib", "kv_cache_tokens", "max_concurrency")
    ]
    for line, label in zip(plan.log_lines, labels + [""] * len(plan.log_lines), strict=False):
        console.print(f"  {line}" + (f"   [{label}]" if label else ""), markup=False, highlight=False)
    bound = " (the model's position limit)" if plan.largest_bounded_by == "model positions" else ""
    if plan.fits and plan.unmodelled:
        console.print(f"[yellow]{unmodelled_verdict(plan)}[/yellow]", highlight=False)
    elif plan.fits:
        verdict = "fits" if cal.get("calibrated") else "fits (uncalibrated: check the assumed terms)"
        console.print(
            f"[green]{verdict}[/green]: max_model_len {plan.max_model_len:,}; the largest that fits is "
            f"{plan.max_model_len_that_fits:,}{bound}"
        )
    else:
        console.print("[red]does not fit[/red]")
        console.print(plan.error, markup=False, highlight=False)
    if len(plan.stages) > 1 or plan.nodes > 1 or plan.data_parallel_size > 1:
        show_ranks(plan, console)
    table = Table(
        "context", "blocks / request", "max concurrency", title="Context x concurrency (per the KV pool)"
    )
    for row in plan.context_table:
        table.add_row(f"{row['context']:,}", str(row["blocks_per_request"]), f"{row['max_concurrency']:.2f}x")
    console.print(table)
    if explain:
        console.print("[bold]Arithmetic[/bold]")
        for line in plan.explain:
            console.print(f"  {line}", markup=False, highlight=False)
    for line in plan.assumptions:
        console.print(f"[yellow]assumption:[/yellow] {line}", highlight=False)


def show_calibration(rows: list[dict], console: Console) -> None:
    table = Table("figure", "predicted", "reported (log)", "error", "log line", title="Predicted vs reported")
    for r in rows:
        err = "" if r["relative_error"] is None else f"{100 * r['relative_error']:+.2f}%"
        table.add_row(
            r["figure"], f"{r['predicted']:,.2f}", f"{r['reported']:,.2f}", err, str(r["log_line"] or "")
        )
    console.print(table)


def _label(plan: Plan) -> str:
    kv = plan.labels.get("available_kv_gib", "derived")
    return "derived" if kv == "derived" else f"derived; KV {kv}"


def _span(items: list[int]) -> str:
    return f"{items[0]}-{items[-1]}" if len(items) > 1 else str(items[0])


def show_ranks(plan: Plan, console: Console) -> None:
    """Per rank (one row per pipeline stage: its TP ranks hold the same figures) and per node, GiB."""
    replicas = f", x{plan.data_parallel_size} data-parallel replicas" if plan.data_parallel_size > 1 else ""
    table = Table(
        "stage",
        "ranks",
        "node",
        "layers",
        "weights",
        "non-KV",
        "available KV",
        "own blocks",
        "KV allocated",
        "used",
        title=f"Per rank (GiB, {_label(plan)}; each stage's TP ranks alike{replicas})",
    )
    for st in plan.stages:
        mark = " <- decides" if st["decides"] else ""
        table.add_row(
            str(st["stage"]),
            _span(st["ranks"]),
            _span(st["nodes"]),
            f"{st['layers'][0]}-{st['layers'][1] - 1}",
            f"{st['weights_gib']:.2f}",
            f"{st['non_kv_gib']:.2f}",
            f"{st['available_kv_gib']:.2f}",
            f"{st['num_blocks']:,}{mark}",
            f"{st['kv_allocated_gib']:.2f}",
            f"{st['used_gib']:.2f}",
        )
    console.print(table)
    if len(plan.stages) > 1:
        console.print(
            f"the engine's KV pool is stage {plan.deciding_stage}'s {plan.num_blocks:,} blocks: vLLM gives every "
            "worker the smallest stage's count (kv_cache_utils.get_kv_cache_configs)",
            highlight=False,
        )
    if plan.data_parallel_size > 1:
        dp = plan.data_parallel_size
        console.print(
            f"data parallel: {dp} replicas, each its own TP x PP engine with this KV pool: {dp} x "
            f"{plan.kv_cache_tokens:,} = {dp * plan.kv_cache_tokens:,} KV tokens, {dp * plan.max_concurrency:.2f}x "
            f"requests of {plan.max_model_len:,} tokens in all",
            highlight=False,
        )
    nodes = Table(
        "node",
        "ranks",
        "GPUs used",
        "weights",
        "non-KV",
        "KV allocated",
        "used",
        "vLLM budget",
        "GPU memory",
        title=f"Per node (GiB, {_label(plan)}; sums of its ranks)",
    )
    for n in plan.node_memory:
        nodes.add_row(
            str(n["node"]),
            _span(n["ranks"]),
            f"{n['gpus_used']} of {n['gpus']}",
            f"{n['weights_gib']:.2f}",
            f"{n['non_kv_gib']:.2f}",
            f"{n['kv_allocated_gib']:.2f}",
            f"{n['used_gib']:.2f}",
            f"{n['requested_gib']:.2f}",
            f"{n['gpu_memory_gib']:.2f}",
        )
    console.print(nodes)


def unmodelled_verdict(plan) -> str:
    """A "fits" that rests on a term servebox does not model: say which, and the most it may take."""
    return (
        f"fits only if {' and '.join(plan.unmodelled)} takes less than {plan.margin_gib:.2f} GiB "
        f"(the KV memory left at max_model_len {plan.max_model_len:,}): not modelled here; measure it "
        "(--calibrate a start-up log, or --activation-gib) or plan with --language-model-only"
    )
