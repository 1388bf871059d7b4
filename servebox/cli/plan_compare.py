"""`servebox plan --compare A.json B.json --html F`: two saved plans (written by `plan --json`) side by side.

The plans are read back, not re-planned: what was decided for each configuration is what is compared. The
HTML puts both memory bars on one GiB axis each, both concurrency curves on one chart, a table of the figures
vLLM will log, and marks the plan that does not fit in red (its banner, its series name, its points below one
request). Exit 1 when either plan does not fit, as `plan` does for one.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from pydantic import ValidationError

from servebox.cli.app import emit_json, out
from servebox.errors import InputError


def read_plan(path: str):
    """A `plan --json` file as a Plan; a missing file, bad JSON or a missing field is one line naming it."""
    from servebox.plan import Plan

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(path, None, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(path, None, f"not UTF-8 text: {exc.reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            path, f"line {exc.lineno} column {exc.colno}", f"malformed JSON: {exc.msg}"
        ) from None
    if not isinstance(data, dict):
        raise InputError(path, None, "must hold one plan as `servebox plan --json` writes it")
    try:
        return Plan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise InputError(path, field, f"{first['msg']} (not a `servebox plan --json` file?)") from None


def compare_plans(paths: tuple[str, str], html_path: str | None, as_json: bool, extra: list) -> None:
    """EXTRA: the checkpoint and flags given alongside, refused: the plans are compared as they were saved."""
    stray = [str(x) for x in extra if x is not None]
    if stray:
        raise InputError("plan", "--compare", f"compares two saved plans; drop {' '.join(stray)[:300]}")
    a, b = (read_plan(p) for p in paths)
    if html_path:
        from servebox.report.html import write_plan_html

        write_plan_html(a, Path(html_path), other=b)
    rows = [
        {"plan": p, "file": path, "fits": x.fits, "max_model_len": x.max_model_len,
         "available_kv_gib": round(x.available_kv_gib, 2),
         "available_kv_label": x.labels.get("available_kv_gib", "derived"), "kv_cache_tokens": x.kv_cache_tokens,
         "max_concurrency": round(x.max_concurrency, 2), "largest_that_fits": x.max_model_len_that_fits}
        for p, path, x in (("A", paths[0], a), ("B", paths[1], b))
    ]  # fmt: skip
    if as_json:
        emit_json({"compared": rows, "html": html_path})
    else:
        for r in rows:
            verdict = "fits" if r["fits"] else "[red]does NOT fit[/red]"
            out.print(
                f"{r['plan']} {r['file']}: {verdict} at {r['max_model_len']:,}; KV {r['available_kv_gib']} GiB "
                f"({r['available_kv_label']}), {r['kv_cache_tokens']:,} tokens, {r['max_concurrency']}x",
                highlight=False,
            )
        if html_path:
            out.print(f"comparison written to {html_path}", highlight=False)
    if not (a.fits and b.fits):
        raise typer.Exit(1)
