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
    console.print("[dim]vLLM will log (per rank):[/dim]")
    labels = [
        plan.labels.get(k, "")
        for k in ("model_loading_gib", "available_kv_gib", "kv_cache_tokens", "max_concurrency")
    ]
    for line, label in zip(plan.log_lines, labels + [""] * len(plan.log_lines), strict=False):
        console.print(f"  {line}" + (f"   [{label}]" if label else ""), markup=False, highlight=False)
    bound = " (the model's position limit)" if plan.largest_bounded_by == "model positions" else ""
    if plan.fits:
        verdict = "fits" if cal.get("calibrated") else "fits (uncalibrated: check the assumed terms)"
        console.print(
            f"[green]{verdict}[/green]: max_model_len {plan.max_model_len:,}; the largest that fits is "
            f"{plan.max_model_len_that_fits:,}{bound}"
        )
    else:
        console.print("[red]does not fit[/red]")
        console.print(plan.error, markup=False, highlight=False)
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
