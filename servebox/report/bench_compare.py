"""Bench runs as rows a chart or a comparison reads: from servebox's own `bench --json` report or from
a `--save-result` file (servebox's or vLLM's own `vllm bench serve --save-result`, same keys), so two
runs, even one of each tool, are compared on the same axes. Latencies in ms, p50 and p99.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from servebox.errors import InputError

LATENCIES = {"ttft": "TTFT", "tpot": "TPOT", "itl": "ITL", "e2el": "e2e latency"}


@dataclass
class Row:
    """One load level: where it sits on the x axis, and what it measured."""

    x: float
    x_name: str
    requests: int
    errors: int
    output_tps: float
    request_s: float
    latency_ms: dict[str, tuple[float | None, float | None]]  # metric -> (p50, p99)
    engine: dict[str, Any] = field(default_factory=dict)


@dataclass
class Run:
    name: str
    model: str
    x_label: str
    rows: list[Row]
    prompt_tokens_mean: float | None = None


def _ms(stats: dict[str, Any], key: str) -> float | None:
    return None if stats.get(key) is None else 1000 * stats[key]


def _place(concurrency: int | None, rate: float | str | None) -> tuple[float, str, str]:
    if rate not in (None, "inf"):
        cap = f", at most {concurrency} in flight" if concurrency else ""
        return float(rate), f"{rate:g} req/s", f"Poisson arrival rate (requests/s){cap}"
    return float(concurrency or 1), f"{concurrency or 1}", "concurrency (requests in flight)"


def run_from_report(report: Any, name: str) -> Run:
    """servebox's BenchReport (as a model or its --json dict)."""
    data = report if isinstance(report, dict) else report.model_dump(mode="json")
    rows, x_label = [], "concurrency (requests in flight)"
    for lv in data["levels"]:
        x, x_name, x_label = _place(lv["concurrency"], lv["request_rate"])
        lat = {
            m: (_ms(lv[a], "p50"), _ms(lv[a], "p99"))
            for m, a in zip(LATENCIES, ("ttft_s", "tpot_s", "itl_s", "e2e_s"), strict=True)
        }
        rows.append(
            Row(
                x,
                x_name,
                lv["requests"],
                lv["errors"],
                lv["output_tokens_per_s"],
                lv["requests_per_s"],
                lat,
                lv["engine"],
            )
        )
    means = [lv.get("prompt_tokens_mean") for lv in data["levels"] if lv.get("prompt_tokens_mean")]
    return Run(name, data["model"], x_label, rows, sum(means) / len(means) if means else None)


def run_from_vllm(data: dict[str, Any], name: str) -> Run:
    """One `--save-result` file (vLLM's keys; servebox's extras read when present)."""
    x, x_name, x_label = _place(data.get("max_concurrency"), data.get("request_rate"))
    lat = {m: (data.get(f"median_{m}_ms"), data.get(f"p99_{m}_ms")) for m in LATENCIES}
    completed, failed = int(data.get("completed", 0)), int(data.get("failed", 0) or 0)
    extra = data.get("servebox") or {}
    row = Row(
        x,
        x_name,
        completed + failed,
        failed,
        data["output_throughput"],
        data["request_throughput"],
        lat,
        extra.get("engine") or {},
    )
    prompt_mean = (
        data["total_input_tokens"] / completed if completed and data.get("total_input_tokens") else None
    )
    return Run(name, str(data.get("model_id", "?")), x_label, [row], prompt_mean)


def load_run(path: Path) -> Run:
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(str(path), f"line {exc.lineno}", f"not JSON ({exc.msg})") from None
    try:
        if isinstance(data, dict) and "levels" in data:
            return run_from_report(data, path.name)
        if isinstance(data, dict) and "output_throughput" in data:
            return run_from_vllm(data, path.name)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(str(path), str(exc), "missing or malformed in this bench result") from None
    raise InputError(str(path), None, "neither a servebox bench --json report nor a --save-result file")


def compare_runs(runs: list[Run]) -> dict[str, Any]:
    """Per load level both runs share: each figure for A and B and B/A."""
    a, b = runs
    rows = []
    for ra in a.rows:
        rb = next((r for r in b.rows if r.x == ra.x and r.x_name == ra.x_name), None)
        if rb is None:
            continue
        figures = {"output tok/s": (ra.output_tps, rb.output_tps), "req/s": (ra.request_s, rb.request_s)}
        for m, label in LATENCIES.items():
            figures[f"{label} p50 ms"] = (ra.latency_ms[m][0], rb.latency_ms[m][0])
            figures[f"{label} p99 ms"] = (ra.latency_ms[m][1], rb.latency_ms[m][1])
        figures["failed"] = (ra.errors, rb.errors)
        for figure, (va, vb) in figures.items():
            ratio = (vb / va) if (va and vb is not None) else None
            rows.append({"load": ra.x_name, "figure": figure, "a": va, "b": vb, "b_over_a": ratio})
    return {"a": a.name, "b": b.name, "rows": rows}


def show_comparison(table: dict[str, Any], console: Console) -> None:
    t = Table("load", "figure", f"A: {table['a']}", f"B: {table['b']}", "B/A")
    for r in table["rows"]:
        t.add_row(r["load"], r["figure"], _cell(r["a"]), _cell(r["b"]), _ratio(r["b_over_a"]))
    console.print(t)
    if not table["rows"]:
        console.print("the two runs share no load level (same concurrency or rate) to compare", markup=False)


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def write_compare_html(runs: list[Run], path: Path) -> None:
    import html

    from servebox.report.bench_view import write_runs_html

    table = compare_runs(runs)
    rows = "".join(
        f"<tr><td>{html.escape(r['load'])}</td><td style='text-align:left'>{html.escape(r['figure'])}</td>"
        f"<td>{_cell(r['a'])}</td><td>{_cell(r['b'])}</td><td>{_ratio(r['b_over_a'])}</td></tr>"
        for r in table["rows"]
    )
    head = (
        f"<tr><th>load</th><th>figure</th><th>A: {html.escape(table['a'])}</th>"
        f"<th>B: {html.escape(table['b'])}</th><th>B/A</th></tr>"
    )
    extra = ["<h2>Side by side</h2>", f"<table>{head}{rows}</table>"]
    write_runs_html(runs, path, {}, f"servebox bench: {runs[0].name} vs {runs[1].name}", extra)
