"""A self-contained HTML report of a plan: the per-rank memory bar on a GiB axis and the context x
concurrency chart, with the verdict impossible to miss (a red banner, the overflow drawn past the
requested memory, the region below one request shaded). Plain SVG (svg_chart.py); no scripts, no network.
"""

from __future__ import annotations

import html
from pathlib import Path

from servebox.plan import Plan
from servebox.report.svg_chart import Reference, Series, chart, fmt, nice_ticks

COLORS = {
    "weights_gib": "#4e79a7",
    "activation_gib": "#f28e2b",
    "non_torch_gib": "#bab0ac",
    "cudagraph_gib": "#e15759",
    "kv_cache_gib": "#59a14f",
    "unrequested_gib": "#eeeeee",
}
LABELS = {
    "weights_gib": "weights",
    "activation_gib": "activation peak",
    "non_torch_gib": "non-torch",
    "cudagraph_gib": "CUDA graphs",
    "kv_cache_gib": "KV cache",
    "unrequested_gib": "1 - utilization",
}
STYLE = (
    "body{font-family:sans-serif;max-width:920px;margin:16px auto;color:#222}"
    "pre{white-space:pre-wrap;background:#f6f6f6;padding:8px}"
    ".verdict{padding:10px 14px;border-radius:4px;font-size:18px;font-weight:bold}"
    ".fits{background:#e3f4e1;color:#1e6b24}.nofit{background:#fbe3e3;color:#a11}"
    "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}"
    "td.nofit,th.nofit{background:#fbe3e3;color:#a11}"
)


def memory_bar(plan: Plan, width: int = 860) -> str:
    """Stacked GiB per rank on an axis from 0 to the GPU's total, the requested share marked; memory
    the plan needs beyond what was requested (a negative KV budget) is drawn in red past the mark."""
    total = plan.gpu_total_gib
    overflow = max(-plan.available_kv_gib, 0.0)
    scale_top = nice_ticks(total + overflow, 8)
    left, plot_w = 20, width - 40

    def gx(gib: float) -> float:
        return left + plot_w * gib / scale_top[-1]

    x, parts = 0.0, []
    for key, color in COLORS.items():
        gib = max(plan.breakdown.get(key, 0.0), 0.0)
        if gib <= 0:
            continue
        parts.append(
            f'<rect x="{gx(x):.1f}" y="30" width="{gx(x + gib) - gx(x):.1f}" height="40" fill="{color}" stroke="#fff">'
            f"<title>{LABELS[key]}: {gib:.2f} GiB</title></rect>"
        )
        if gx(x + gib) - gx(x) > 70:
            ink = "#333" if key == "unrequested_gib" else "#fff"
            parts.append(
                f'<text x="{gx(x) + 4:.1f}" y="54" font-size="12" fill="{ink}">{LABELS[key]} {gib:.2f}</text>'
            )
        x += gib
    if overflow:
        start = plan.requested_gib
        parts.append(
            f'<rect x="{gx(start):.1f}" y="30" width="{gx(start + overflow) - gx(start):.1f}" height="40" fill="#e15759" '
            f'fill-opacity="0.35" stroke="#c0392b" stroke-dasharray="4 3"/><text x="{gx(start) + 4:.1f}" y="88" font-size="12" '
            f'fill="#c0392b">{overflow:.2f} GiB more than requested: does not fit</text>'
        )
    gpu = gx(total)
    parts.append(
        f'<line x1="{gpu:.1f}" x2="{gpu:.1f}" y1="26" y2="76" stroke="#888" stroke-dasharray="3 2"/>'
        f'<text x="{gpu + 3:.1f}" y="17" font-size="11" fill="#666">GPU {total:g} GiB</text>'
    )
    lx = left
    for key, color in COLORS.items():  # legend with every part's value, the small ones included
        label = f"{LABELS[key]} {max(plan.breakdown.get(key, 0.0), 0.0):.2f}"
        parts.append(
            f'<rect x="{lx}" y="146" width="12" height="10" fill="{color}" stroke="#aaa"/>'
            f'<text x="{lx + 16}" y="155" font-size="12" class="legend">{label}</text>'
        )
        lx += 28 + 6.4 * len(label)
    req = gx(plan.requested_gib)
    parts.append(
        f'<line x1="{req:.1f}" x2="{req:.1f}" y1="22" y2="76" stroke="#222" stroke-width="2"/>'
        f'<text x="{req - 4:.1f}" y="17" font-size="12" text-anchor="end">requested {plan.requested_gib:.2f} GiB '
        f"({plan.gpu_memory_utilization:g} x {total:g})</text>"
    )
    for t in scale_top:
        parts.append(
            f'<line x1="{gx(t):.1f}" x2="{gx(t):.1f}" y1="96" y2="101" stroke="#888"/>'
            f'<text x="{gx(t):.1f}" y="115" font-size="11" text-anchor="middle" class="xtick">{fmt(t)}</text>'
        )
    parts.append(
        f'<line x1="{left}" x2="{gx(scale_top[-1]):.1f}" y1="96" y2="96" stroke="#888"/>'
        f'<text x="{left + plot_w / 2}" y="134" font-size="13" text-anchor="middle" class="xlabel">GiB per rank (GPU total {total:g} GiB)</text>'
    )
    return f'<svg width="{width}" height="166" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif">{"".join(parts)}</svg>'


def plan_name(plan: Plan, letter: str) -> str:
    """'A: model on GPU, TP, utilization, length' and, for a plan that does not fit, says so in the name."""
    model = plan.model.rstrip("/").rsplit("/", 1)[-1]
    name = (
        f"{letter}: {model} on {plan.gpu} x TP {plan.tensor_parallel_size}, "
        f"util {plan.gpu_memory_utilization:g}, {plan.max_model_len:,} tokens"
    )
    return name if plan.fits else f"{name} (does NOT fit)"


def short_name(plan: Plan, letter: str) -> str:
    """The chart legend's name: short enough for two side by side, the verdict kept."""
    name = f"{letter}: {plan.gpu}, util {plan.gpu_memory_utilization:g}, {plan.max_model_len:,} tokens"
    return name if plan.fits else f"{name} (does NOT fit)"


def concurrency_chart(plans: list[Plan]) -> str:
    """Requests that fit at full context, per context length (one series per plan); below 1 does not fit."""
    series = []
    names: dict[float, str] = {}
    for letter, plan in zip("AB", plans, strict=False):
        rows = [r for r in plan.context_table if r["max_concurrency"] is not None]
        for r in rows:
            star = " (max_model_len)" if r["context"] == plan.max_model_len and len(plans) == 1 else ""
            names[float(r["context"])] = f"{r['context'] / 1024:g}k{star}"
        series.append(
            Series(
                name=short_name(plan, letter) if len(plans) > 1 else "requests at full context",
                points=[(float(r["context"]), r["max_concurrency"]) for r in rows],
                point_colors={float(r["context"]): "#c0392b" for r in rows if r["max_concurrency"] < 1},
            )
        )
    return chart(
        series,
        "context length per request (tokens)",
        "concurrent requests (KV cache)",
        references=[Reference(1.0, "1 request")],
        x_names=names,
        shade_below=(1.0, "below 1 request: does not fit"),
    )


def write_html(title: str, body: list[str], path: Path) -> None:
    doc = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>"
    )
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(doc, encoding="utf-8")
    tmp.replace(path)


def verdict(plan: Plan) -> str:
    esc = html.escape
    if plan.fits:
        return (
            f'<p class="verdict fits">fits: max_model_len {plan.max_model_len:,}, '
            f"{plan.max_concurrency:.2f} requests at full context, {plan.kv_cache_tokens:,} KV tokens</p>"
        )
    why = f": {esc(plan.error)}" if plan.error else ""
    return (
        f'<p class="verdict nofit">does NOT fit at max_model_len {plan.max_model_len:,}{why} '
        f"(largest that fits: {plan.max_model_len_that_fits:,})</p>"
    )


FIGURES = (
    ("fits", "verdict", "{}"),
    ("max_model_len", "max_model_len (tokens)", "{:,}"),
    ("model_loading_gib", "weights per rank (GiB)", "{:.2f}"),
    ("available_kv_gib", "available KV cache (GiB)", "{:.2f}"),
    ("kv_cache_tokens", "KV cache (tokens)", "{:,}"),
    ("max_concurrency", "requests at full context", "{:.2f}"),
    ("max_model_len_that_fits", "largest that fits (tokens)", "{:,}"),
)


def comparison_table(plans: list[Plan]) -> str:
    """The figures vLLM will log, one column per plan; a plan that does not fit has its column in red."""
    head = "".join(
        f'<th class="{"fits" if p.fits else "nofit"}">{html.escape(plan_name(p, letter))}</th>'
        for letter, p in zip("AB", plans, strict=False)
    )
    rows = []
    for key, label, form in FIGURES:
        cells = []
        for p in plans:
            value = getattr(p, key)
            text = ("fits" if value else "does NOT fit") if key == "fits" else form.format(value)
            tag = p.labels.get(key)
            cells.append(
                f'<td class="{"fits" if p.fits else "nofit"}">{text}{f" ({tag})" if tag else ""}</td>'
            )
        rows.append(f"<tr><th>{label}</th>{''.join(cells)}</tr>")
    return f'<table class="compare"><tr><th></th>{head}</tr>{"".join(rows)}</table>'


def write_plan_html(plan: Plan, path: Path, other: Plan | None = None) -> None:
    if other is not None:
        return write_comparison_html(plan, other, path)
    esc = html.escape
    body = [
        f"<h1>servebox plan: {esc(plan.model)}</h1>",
        verdict(plan),
        f"<p>{esc(plan.gpu)} ({plan.gpu_total_gib} GiB) &times; TP {plan.tensor_parallel_size}, vLLM {esc(plan.vllm_profile)}, "
        f"utilization {plan.gpu_memory_utilization}. Figures are derived from the checkpoint's metadata and the "
        "engine profile (see Assumptions), not measured.</p>",
        "<h2>Memory per rank</h2>",
        memory_bar(plan),
        "<pre>" + esc("\n".join(plan.log_lines)) + "</pre>",
        "<h2>Context &times; concurrency</h2>",
        concurrency_chart([plan]),
    ]
    body += [
        "<h2>Arithmetic</h2><pre>" + esc("\n".join(plan.explain)) + "</pre>",
        "<h2>Assumptions</h2><ul>" + "".join(f"<li>{esc(a)}</li>" for a in plan.assumptions) + "</ul>",
    ]
    write_html("servebox plan", body, path)


def write_comparison_html(a: Plan, b: Plan, path: Path) -> None:
    """Two plans: the figures side by side, both concurrency curves on one chart, each memory bar with its
    verdict (the one that does not fit in red), then each plan's arithmetic."""
    esc = html.escape
    body = [
        "<h1>servebox plan: two configurations compared</h1>",
        comparison_table([a, b]),
        "<h2>Context &times; concurrency</h2>",
        concurrency_chart([a, b]),
    ]
    for letter, p in (("A", a), ("B", b)):
        body += [
            f"<h2>{esc(plan_name(p, letter))}</h2>",
            verdict(p),
            memory_bar(p),
            "<pre>" + esc("\n".join(p.log_lines)) + "</pre>",
        ]
    for letter, p in (("A", a), ("B", b)):
        body.append(f"<h2>{letter}: arithmetic</h2><pre>" + esc("\n".join(p.explain)) + "</pre>")
    write_html("servebox plan comparison", body, path)
