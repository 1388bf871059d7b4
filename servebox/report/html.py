"""A self-contained HTML report of a plan: the per-rank memory bar and the context x concurrency curve.

Plain SVG written here (a bar and a polyline need no plotting library); no scripts, no network.
"""

from __future__ import annotations

import html
from pathlib import Path

from servebox.plan import Plan

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


def memory_bar(plan: Plan, width: int = 760) -> str:
    total = plan.gpu_total_gib
    x, parts = 0.0, []
    for key, color in COLORS.items():
        gib = max(plan.breakdown.get(key, 0.0), 0.0)
        w = width * gib / total if total else 0
        parts.append(
            f'<rect x="{x:.1f}" y="20" width="{w:.1f}" height="40" fill="{color}"><title>{LABELS[key]}: {gib:.2f} GiB</title></rect>'
        )
        if w > 60:
            parts.append(
                f'<text x="{x + 4:.1f}" y="45" font-size="12" fill="#fff">{LABELS[key]} {gib:.2f}</text>'
            )
        x += w
    return f'<svg width="{width}" height="70" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'


def line_chart(
    series: dict[str, list[tuple[float, float]]],
    x_label: str,
    y_label: str,
    width: int = 760,
    height: int = 260,
    x_ticks: list[str] | None = None,
    reference_y: float | None = None,
) -> str:
    """An SVG line chart of one or more series over the same x positions (points are (x index or value, y))."""
    points = [p for pts in series.values() for p in pts]
    if not points:
        return ""
    xs = sorted({x for x, _ in points})
    top = max(y for _, y in points) or 1.0

    def px(x: float) -> float:
        return 50 + (width - 70) * (xs.index(x) / max(1, len(xs) - 1))

    def py(y: float) -> float:
        return height - 30 - (height - 50) * y / top

    colors = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2"]
    parts = []
    if reference_y is not None and reference_y <= top:
        parts.append(
            f'<line x1="50" x2="{width - 20}" y1="{py(reference_y):.1f}" y2="{py(reference_y):.1f}" stroke="#999" stroke-dasharray="4"/>'
        )
    for (name, pts), color in zip(series.items(), colors, strict=False):
        poly = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        parts.append(
            f'<polyline points="{poly}" fill="none" stroke="{color}" stroke-width="2"><title>{html.escape(name)}</title></polyline>'
        )
        parts += [
            f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{color}"><title>{html.escape(name)}: {y:.3g}</title></circle>'
            for x, y in pts
        ]
    labels = x_ticks or [f"{x:g}" for x in xs]
    parts += [
        f'<text x="{px(x):.1f}" y="{height - 10}" font-size="11" text-anchor="middle">{html.escape(label)}</text>'
        for x, label in zip(xs, labels, strict=False)
    ]
    legend = " · ".join(
        f'<tspan fill="{c}">{html.escape(n)}</tspan>' for n, c in zip(series, colors, strict=False)
    )
    parts.append(
        f'<text x="5" y="15" font-size="12">{html.escape(y_label)} vs {html.escape(x_label)}: {legend}</text>'
    )
    return f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'


def concurrency_curve(plan: Plan) -> str:
    rows = [r for r in plan.context_table if r["max_concurrency"]]
    points = [(i, r["max_concurrency"]) for i, r in enumerate(rows)]
    return line_chart(
        {"max concurrency": points},
        "context",
        "requests at full context",
        x_ticks=[f"{r['context'] // 1024}k" for r in rows],
        reference_y=1.0,
    )


def write_html(title: str, body: list[str], path: Path) -> None:
    doc = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
        f"<body style='font-family:sans-serif'><style>pre{{white-space:pre-wrap}}</style>{''.join(body)}</body></html>"
    )
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(doc, encoding="utf-8")
    tmp.replace(path)


def write_plan_html(plan: Plan, path: Path) -> None:
    esc = html.escape
    verdict = "fits" if plan.fits else "does NOT fit"
    body = [
        f"<h1>servebox plan: {esc(plan.model)}</h1>",
        f"<p>{esc(plan.gpu)} ({plan.gpu_total_gib} GiB) &times; TP {plan.tensor_parallel_size}, vLLM {esc(plan.vllm_profile)}, "
        f"utilization {plan.gpu_memory_utilization}: <b>{verdict}</b> at max_model_len {plan.max_model_len:,} "
        f"(largest that fits {plan.max_model_len_that_fits:,}).</p>",
        "<h2>Memory per rank</h2>",
        memory_bar(plan),
        "<p>"
        + " ".join(
            f'<span style="background:{c};padding:0 8px">&nbsp;</span> {LABELS[k]} {max(plan.breakdown.get(k, 0.0), 0.0):.2f} GiB &nbsp;'
            for k, c in COLORS.items()
        )
        + "</p>",
        "<pre>" + esc("\n".join(plan.log_lines)) + "</pre>",
        "<h2>Context &times; concurrency</h2>",
        concurrency_curve(plan),
        "<h2>Arithmetic</h2><pre>" + esc("\n".join(plan.explain)) + "</pre>",
        "<h2>Assumptions</h2><ul>" + "".join(f"<li>{esc(a)}</li>" for a in plan.assumptions) + "</ul>",
    ]
    write_html("servebox plan", body, path)
