"""`servebox bench` and `servebox eval` as tables, and the bench HTML report."""

from __future__ import annotations

import html
from pathlib import Path

from rich.console import Console
from rich.table import Table

from servebox.measure.bench import BenchReport
from servebox.measure.evaluate import EvalReport
from servebox.report.html import line_chart, write_html


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.1f}"


def show_bench(report: BenchReport, console: Console) -> None:
    console.print(
        f"[bold]{report.url}[/bold] model {report.model}: {report.input_tokens} in / {report.output_tokens} out tokens "
        f"(prompts: {report.prompt_source})"
    )
    table = Table(
        "load",
        "req",
        "err",
        "req/s",
        "out tok/s",
        "TTFT p50/p99 ms",
        "TPOT p50 ms",
        "ITL p99 ms",
        "e2e p50 ms",
        "running max",
        "KV max",
        "preempt",
    )
    for lv in report.levels:
        load = f"c={lv.concurrency}" if lv.concurrency else f"rate={lv.request_rate}"
        kv = lv.engine.get("kv_usage_max")
        table.add_row(
            load,
            str(lv.requests),
            str(lv.errors),
            f"{lv.requests_per_s:.2f}",
            f"{lv.output_tokens_per_s:.1f}",
            f"{_ms(lv.ttft_s['p50'])}/{_ms(lv.ttft_s['p99'])}",
            _ms(lv.tpot_s["p50"]),
            _ms(lv.itl_s["p99"]),
            _ms(lv.e2e_s["p50"]),
            str(lv.engine.get("running_max")),
            "-" if kv is None else f"{100 * kv:.0f}%",
            str(lv.engine.get("preemptions")),
        )
    console.print(table)
    for lv in report.levels:
        if lv.goodput_per_s is not None:
            console.print(f"goodput at c={lv.concurrency}: {lv.goodput_per_s:.2f} req/s within the SLOs")
        for e in lv.error_samples:
            console.print(f"[red]error[/red]: {e}", markup=False)


def write_bench_html(report: BenchReport, path: Path) -> None:
    xs = [lv.concurrency or lv.request_rate or 0 for lv in report.levels]
    latency = {
        "TTFT p50 (ms)": [
            (x, 1000 * (lv.ttft_s["p50"] or 0)) for x, lv in zip(xs, report.levels, strict=True)
        ],
        "TPOT p50 (ms)": [
            (x, 1000 * (lv.tpot_s["p50"] or 0)) for x, lv in zip(xs, report.levels, strict=True)
        ],
        "e2e p50 (ms)": [(x, 1000 * (lv.e2e_s["p50"] or 0)) for x, lv in zip(xs, report.levels, strict=True)],
    }
    throughput = {
        "output tokens/s": [(x, lv.output_tokens_per_s) for x, lv in zip(xs, report.levels, strict=True)]
    }
    body = [
        f"<h1>servebox bench: {html.escape(report.model)} at {html.escape(report.url)}</h1>",
        f"<p>{report.input_tokens} input / {report.output_tokens} output tokens; prompts: {html.escape(report.prompt_source)}</p>",
        "<h2>Latency</h2>",
        line_chart(latency, "concurrency", "latency (ms)"),
        "<h2>Throughput</h2>",
        line_chart(throughput, "concurrency", "output tokens/s"),
    ]
    write_html("servebox bench", body, path)


def show_eval(report: EvalReport, console: Console) -> None:
    console.print(f"[bold]{report.model}[/bold]: {report.summary}")
    table = Table("kind", "correct", "wrong", "degenerate", "total")
    for kind, counts in sorted(report.by_kind.items()):
        table.add_row(
            kind,
            str(counts.get("correct", 0)),
            str(counts.get("wrong", 0)),
            str(counts.get("degenerate", 0)),
            str(counts["total"]),
        )
    console.print(table)
    if report.transcripts:
        console.print(f"transcripts: {report.transcripts}")
