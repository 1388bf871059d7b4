"""`servebox bench` and `servebox eval` as tables, and the bench HTML report."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from servebox.measure.bench import BenchReport
from servebox.measure.evaluate import EvalReport
from servebox.report.bench_compare import LATENCIES, Run, run_from_report
from servebox.report.html import write_html
from servebox.report.svg_chart import PALETTE, Reference, Series, chart


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.1f}"


def show_bench(report: BenchReport, console: Console) -> None:
    head = Text(f"{report.started} {report.url} model {report.model}: ")
    counted = [lv.prompt_tokens_mean for lv in report.levels if lv.prompt_tokens_mean]
    prompt = (
        f"{sum(counted) / len(counted):.0f} prompt tokens by the server's count (usage)"
        if counted
        else ("prompt tokens not reported by the server")
    )
    head.append(
        f"{report.input_tokens} requested -> {prompt} / {report.output_tokens} out tokens (prompts: {report.prompt_source})"
    )
    console.print(head)
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
        load = f"rate={lv.request_rate:g}/s" if lv.request_rate else f"c={lv.concurrency}"
        if lv.request_rate and lv.concurrency:
            load += f" cap {lv.concurrency}"
        kv = lv.engine.get("kv_usage_max")
        table.add_row(
            load,
            str(lv.requests),
            Text(str(lv.errors), style="red" if lv.errors else ""),
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
    console.print(
        "measured: client-side timings and the server's usage counts; engine columns from its /metrics"
    )
    for lv in report.levels:
        if lv.goodput_per_s is not None:
            console.print(
                f"goodput at {lv.concurrency or lv.request_rate}: {lv.goodput_per_s:.2f} req/s within the SLOs"
            )
        if lv.reconnects:
            console.print(
                f"{lv.reconnects} requests were sent again on a fresh connection: the server had closed "
                "the kept-alive one (llama-server does after every streamed response); their time includes it"
            )
        for e in lv.error_samples:
            console.print(Text.assemble(("error", "red"), f": {e}"))


def _latency_chart(runs: list[Run], metric: str, slo_ms: float | None) -> str:
    series = []
    for i, run in enumerate(runs):
        prefix = f"{run.name}: " if len(runs) > 1 else ""
        pts = [(r.x, r.latency_ms[metric][0]) for r in run.rows if r.latency_ms[metric][0] is not None]
        band = [(r.x, *r.latency_ms[metric]) for r in run.rows if None not in r.latency_ms[metric]]
        series.append(Series(f"{prefix}{LATENCIES[metric]} p50", pts, band, color=PALETTE[i], dashed=i == 1))
    refs = [Reference(slo_ms, f"SLO {LATENCIES[metric]} {slo_ms:g} ms")] if slo_ms else []
    names = {r.x: r.x_name for run in runs for r in run.rows}
    return chart(series, runs[0].x_label, f"{LATENCIES[metric]} (ms)", refs, names)


def _simple_chart(runs: list[Run], y_label: str, figures: dict[str, Any]) -> str:
    series = []
    for i, run in enumerate(runs):
        for j, (label, get) in enumerate(figures.items()):
            pts = [(r.x, v) for r in run.rows if (v := get(r)) is not None]
            name = f"{run.name}: {label}" if len(runs) > 1 else label
            series.append(
                Series(name, pts, color=PALETTE[(i * len(figures) + j) % len(PALETTE)], dashed=i == 1)
            )
    if not any(s.points for s in series):
        return "<p><i>not reported by this server</i></p>"
    names = {r.x: r.x_name for run in runs for r in run.rows}
    return chart(series, runs[0].x_label, y_label, x_names=names)


def write_runs_html(
    runs: list[Run], path: Path, slo: dict[str, float], title: str, extra: list[str] | None = None
) -> None:
    """Latency (p50 line, p50-p99 band, the SLO line), throughput and the engine's own gauges per level."""
    esc = html.escape
    body = [f"<h1>{esc(title)}</h1>"]
    for run in runs:
        failed = sum(r.errors for r in run.rows)
        total = sum(r.requests for r in run.rows)
        prompt = (
            f", {run.prompt_tokens_mean:.0f} prompt tokens per request by the server's count"
            if run.prompt_tokens_mean
            else ""
        )
        cls = "nofit" if failed else "fits"
        body.append(
            f'<p class="verdict {cls}">{esc(run.name)} ({esc(run.model)}): {total - failed} of {total} requests completed{prompt}</p>'
        )
    body.append(
        "<p>Measured on the client (timers start when a request is created); engine gauges sampled from its /metrics every 0.25 s.</p>"
    )
    for metric, key in (("ttft", "ttft_s"), ("tpot", "tpot_s"), ("e2el", None), ("itl", None)):
        slo_ms = 1000 * slo[key] if key and key in slo else None
        body += [f"<h2>{LATENCIES[metric]}</h2>", _latency_chart(runs, metric, slo_ms)]
    body += [
        "<h2>Throughput</h2>",
        _simple_chart(runs, "output tokens/s", {"output tokens/s": lambda r: r.output_tps}),
        "<h2>Engine (its /metrics during the level)</h2>",
        _simple_chart(
            runs,
            "requests",
            {
                "running (max)": lambda r: r.engine.get("running_max"),
                "waiting (max)": lambda r: r.engine.get("waiting_max"),
            },
        ),
        _simple_chart(
            runs,
            "KV cache usage (max, %)",
            {
                "KV cache usage max %": lambda r: (
                    None if r.engine.get("kv_usage_max") is None else 100 * r.engine["kv_usage_max"]
                )
            },
        ),
    ]
    write_html(title, body + (extra or []), path)


def write_bench_html(report: BenchReport, path: Path, slo: dict[str, float] | None = None) -> None:
    run = run_from_report(report, "this run")
    write_runs_html([run], path, slo or {}, f"servebox bench: {report.model} at {report.url}")


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
