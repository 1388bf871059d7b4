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


def concurrency_curve(plan: Plan, width: int = 760, height: int = 260) -> str:
    rows = [r for r in plan.context_table if r["max_concurrency"]]
    if not rows:
        return ""
    xs = list(range(len(rows)))
    top = max(r["max_concurrency"] for r in rows)

    def px(i):
        return 50 + (width - 70) * i / max(1, len(rows) - 1)

    def py(c):
        return height - 30 - (height - 50) * c / top

    points = " ".join(f"{px(i):.1f},{py(r['max_concurrency']):.1f}" for i, r in zip(xs, rows, strict=True))
    marks = "".join(
        f'<circle cx="{px(i):.1f}" cy="{py(r["max_concurrency"]):.1f}" r="4" fill="{"#59a14f" if r["max_concurrency"] >= 1 else "#e15759"}">'
        f"<title>{r['context']:,} tokens: {r['max_concurrency']:.2f}x</title></circle>"
        f'<text x="{px(i):.1f}" y="{height - 10}" font-size="11" text-anchor="middle">{r["context"] // 1024}k</text>'
        for i, r in zip(xs, rows, strict=True)
    )
    one = (
        f'<line x1="50" x2="{width - 20}" y1="{py(1):.1f}" y2="{py(1):.1f}" stroke="#999" stroke-dasharray="4"/>'
        if top >= 1
        else ""
    )
    return (
        f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">{one}'
        f'<polyline points="{points}" fill="none" stroke="#4e79a7" stroke-width="2"/>{marks}'
        f'<text x="5" y="15" font-size="12">max concurrency (requests at full context)</text></svg>'
    )


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
    doc = f"<!doctype html><html><head><meta charset='utf-8'><title>servebox plan</title></head><body style='font-family:sans-serif'><style>pre{{white-space:pre-wrap}}</style>{''.join(body)}</body></html>"
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(doc, encoding="utf-8")
    tmp.replace(path)
