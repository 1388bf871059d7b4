"""Charts a user can read without hovering: inline SVG with y and x axes (ticks, values, units), a
value on every point, shaded p50-p99 bands, labelled reference lines (the user's SLOs, "1 request"),
and shaded regions (what does not fit). No scripts, no network: the page is one self-contained file.

X positions are categorical (concurrency 1, 2, 4, 8 are doublings; a single level sits in the middle),
labelled with their values; y is linear from zero with 1-2-5 ticks.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f"]


@dataclass
class Series:
    name: str
    points: list[tuple[float, float]]  # (x value, y)
    band: list[tuple[float, float, float]] = field(default_factory=list)  # (x value, low, high)
    color: str | None = None
    dashed: bool = False
    point_colors: dict[float, str] = field(default_factory=dict)  # x -> colour (e.g. red where it fails)


@dataclass
class Reference:
    y: float
    label: str
    color: str = "#c0392b"


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """0 .. >= TOP in 1-2-5 steps."""
    if top <= 0 or not math.isfinite(top):  # all zero: a 0-1 scale still shows where zero is
        top = 1.0
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return [i * step for i in range(int(math.ceil(top / step - 1e-9)) + 1)]


def fmt(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def chart(
    series: list[Series],
    x_label: str,
    y_label: str,
    references: list[Reference] | None = None,
    x_names: dict[float, str] | None = None,
    shade_below: tuple[float, str] | None = None,
    width: int = 860,
    height: int = 320,
) -> str:
    """An SVG line chart; SHADE_BELOW=(y, label) shades the region under y (e.g. 'does not fit')."""
    references = references or []
    xs = sorted({x for s in series for x, _ in s.points} | {x for s in series for x, _, _ in s.band})
    if not xs:
        return "<p><i>no data to chart</i></p>"
    ys = [y for s in series for _, y in s.points] + [hi for s in series for _, _, hi in s.band]
    ys += [r.y for r in references] + ([shade_below[0]] if shade_below else [])
    ticks = nice_ticks(max(ys) * 1.08 if ys else 1.0)
    left, right, top_pad, bottom = 78, 24, 44, 58
    plot_w, plot_h = width - left - right, height - top_pad - bottom

    def px(x: float) -> float:
        return left + plot_w * (xs.index(x) + 0.5) / len(xs)

    def py(y: float) -> float:
        return top_pad + plot_h * (1 - y / ticks[-1])

    parts = [
        f'<rect x="{left}" y="{top_pad}" width="{plot_w}" height="{plot_h}" fill="#fcfcfc" stroke="#ccc"/>'
    ]
    if shade_below:
        y0, label = shade_below
        parts.append(
            f'<rect x="{left}" y="{py(y0):.1f}" width="{plot_w}" height="{py(0) - py(y0):.1f}" fill="#e15759" fill-opacity="0.12"/>'
            f'<text x="{left + 6}" y="{py(y0) + 14:.1f}" font-size="12" fill="#c0392b" class="shade">{_esc(label)}</text>'
        )
    for t in ticks:  # y axis: gridline, tick value
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{py(t):.1f}" y2="{py(t):.1f}" stroke="#e6e6e6"/>'
            f'<text x="{left - 8}" y="{py(t) + 4:.1f}" font-size="12" text-anchor="end" class="ytick">{fmt(t)}</text>'
        )
    for x in xs:  # x axis: tick label
        name = (x_names or {}).get(x, fmt(x))
        parts.append(
            f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{top_pad + plot_h}" y2="{top_pad + plot_h + 5}" stroke="#888"/>'
            f'<text x="{px(x):.1f}" y="{top_pad + plot_h + 20}" font-size="12" text-anchor="middle" class="xtick">{_esc(name)}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 8}" font-size="13" text-anchor="middle" class="xlabel">{_esc(x_label)}</text>'
        f'<text transform="translate(18,{top_pad + plot_h / 2}) rotate(-90)" font-size="13" text-anchor="middle" class="ylabel">{_esc(y_label)}</text>'
    )
    for ref in references:
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{py(ref.y):.1f}" y2="{py(ref.y):.1f}" stroke="{ref.color}" stroke-width="1.5" stroke-dasharray="6 4"/>'
            f'<text x="{left + plot_w - 4}" y="{py(ref.y) - 5:.1f}" font-size="12" text-anchor="end" fill="{ref.color}" class="ref">{_esc(ref.label)}</text>'
        )
    for i, s in enumerate(series):
        parts += _series(s, s.color or PALETTE[i % len(PALETTE)], px, py, len(xs))
    parts.append(_legend(series, left))
    return f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif">{"".join(parts)}</svg>'


def _series(s: Series, color: str, px, py, n_x: int) -> list[str]:
    parts = []
    if s.band:
        band = sorted(s.band)
        if len(band) == 1:  # one level: a bar from low to high
            x, lo, hi = band[0]
            parts.append(
                f'<rect x="{px(x) - 14:.1f}" y="{py(hi):.1f}" width="28" height="{max(py(lo) - py(hi), 1):.1f}" fill="{color}" fill-opacity="0.18"/>'
            )
        else:
            poly = [f"{px(x):.1f},{py(hi):.1f}" for x, _, hi in band]
            poly += [f"{px(x):.1f},{py(lo):.1f}" for x, lo, _ in reversed(band)]
            parts.append(f'<polygon points="{" ".join(poly)}" fill="{color}" fill-opacity="0.15"/>')
        p50 = dict(s.points)
        for x, _, hi in band:  # the p99 value beside the band's top, where it clears the p50 label
            if x not in p50 or py(p50[x]) - py(hi) > 16:
                parts.append(
                    f'<text x="{px(x) + 9:.1f}" y="{py(hi) + 4:.1f}" font-size="10" fill="{color}" class="band">p99 {fmt(hi)}</text>'
                )
    pts = sorted(s.points)
    if len(pts) > 1:
        dash = ' stroke-dasharray="5 3"' if s.dashed else ""
        poly = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        parts.append(f'<polyline points="{poly}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
    for x, y in pts:
        dot = s.point_colors.get(x, color)
        parts.append(
            f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="{dot}"><title>{_esc(s.name)}: {fmt(y)}</title></circle>'
            f'<text x="{px(x):.1f}" y="{py(y) - 8:.1f}" font-size="11" text-anchor="middle" fill="{dot}" class="value">{fmt(y)}</text>'
        )
    return parts


def _legend(series: list[Series], left: int) -> str:
    parts, x = [], left
    for i, s in enumerate(series):
        color = s.color or PALETTE[i % len(PALETTE)]
        label = s.name + (" (band: p50 to p99)" if s.band else "")
        parts.append(
            f'<rect x="{x}" y="12" width="14" height="10" fill="{color}"/>'
            f'<text x="{x + 18}" y="21" font-size="12" class="legend">{_esc(label)}</text>'
        )
        x += 30 + 6.5 * len(label)
    return "".join(parts)
