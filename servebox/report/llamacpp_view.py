"""`servebox plan model.gguf --engine llama.cpp` as tables: buffers per device, the KV caches, the fit answers."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from servebox.engines.llamacpp.plan import LlamaPlan


def _f(v: float | None) -> str:
    return "" if v is None else f"{v:,.2f}"


def show_llamacpp_plan(plan: LlamaPlan, console: Console, explain: bool = False) -> None:
    console.print(
        f"[bold]{plan.source}[/bold]: {plan.architecture}, {plan.layers} layers, trained context "
        f"{plan.trained_context:,}; llama.cpp b{plan.build.split('.')[0]}",
        highlight=False,
    )
    console.print(
        f"n_ctx {plan.n_ctx:,} ({plan.n_ctx_seq:,} per sequence), {plan.parallel} slots, kv_unified "
        f"{str(plan.kv_unified).lower()}, n_ubatch {plan.n_ubatch}, flash attention "
        f"{'on' if plan.flash_attn else 'off'}, -ngl {plan.n_gpu_layers}",
        highlight=False,
    )
    table = Table("device", "layers", "model", "KV", "recurrent", "compute*", "output", "total", "budget")
    table.title = "Buffers llama-server will allocate (MiB)"
    for r in plan.devices:
        table.add_row(
            r.device, str(r.layers), _f(r.model_mib), _f(r.kv_mib), _f(r.recurrent_mib), _f(r.compute_mib),
            _f(r.output_mib), _f(r.total_mib), _f(r.budget_mib),
        )  # fmt: skip
    console.print(table)
    if plan.kv:
        kv = Table("device", "cache", "cells", "layers", "K", "V", title="KV caches (MiB)")
        for k in plan.kv:
            kind = "sliding window" if k.kind == "swa" else "full"
            kv.add_row(
                k.device,
                kind,
                f"{k.cells:,}",
                str(k.layers),
                f"{k.k_mib:,.2f} ({k.k_type})",
                f"{k.v_mib:,.2f} ({k.v_type})",
            )
        console.print(kv)
    console.print("[green]fits[/green]" if plan.fits else "[red]does not fit[/red]", end="")
    console.print(f"; largest context that fits: {plan.largest_context or 'none'}", highlight=False)
    if plan.n_gpu_layers_that_fit is not None:
        console.print(
            f"-ngl that fits at n_ctx {plan.n_ctx:,}: {plan.n_gpu_layers_that_fit}", highlight=False
        )
    if plan.n_cpu_moe_that_fits is not None:
        console.print(
            f"--n-cpu-moe that fits at n_ctx {plan.n_ctx:,}: {plan.n_cpu_moe_that_fits}", highlight=False
        )
    flags = " ".join(plan.fit.flags) or "(no change)"
    console.print(f"--fit would reach: {flags}" if plan.fit.fits else "--fit would fail", highlight=False)
    if explain:
        terms = ", ".join(f"{k} {v:,.2f}" for k, v in plan.compute_terms_mib.items())
        console.print(f"  compute buffer = masks + the largest stage (MiB): {terms}", highlight=False)
        for step in plan.fit.steps:
            console.print(f"  fit: {step}", highlight=False)
        for what, how in plan.provenance.items():
            console.print(f"  {what}: {how}", markup=False, highlight=False)
    else:
        console.print(f"[dim]* {plan.provenance['compute']}[/dim]", highlight=False)
    if plan.unknown_flags:
        console.print(
            f"[yellow]llama-server b11434 would refuse: {' '.join(plan.unknown_flags)}[/yellow] (servebox check says why)",
            highlight=False,
        )
    if plan.ignored_flags:
        console.print(
            f"[dim]flags that do not change memory: {' '.join(plan.ignored_flags)}[/dim]", highlight=False
        )


def show_model_sets(sets, router: dict, version: int | None, console: Console) -> None:
    totals = " + ".join(f"GPU{i} {t:,.0f}" for i, t in enumerate(sets.gpu_total_mib))
    table = Table(
        "model", "engine", *[f"GPU{i} MiB" for i in range(len(sets.gpu_total_mib))], "cold start", "basis"
    )
    table.title = f"Memory per GPU (of {totals} MiB)"
    for m in sets.models:
        per = [_f(m.mib_per_gpu.get(i)) for i in range(len(sets.gpu_total_mib))]
        table.add_row(m.name, m.engine, *per, f"{m.cold_start_s} s", m.basis)
    console.print(table)
    for m in sets.models:
        if not m.fits_alone:
            console.print(
                f"[red]{m.name} does not fit its GPUs even alone[/red] (servebox plan {m.name}'s GGUF says how to make it fit)",
                highlight=False,
            )
    if sets.sets:
        for members in sets.sets:
            console.print(f"fit together: {' & '.join(members)}", highlight=False)
    else:
        console.print("no two models fit together: each runs alone", highlight=False)
    which = f"matrix (llama-swap v{version} >= v202)" if "matrix" in router else "legacy groups"
    console.print(f"llama-swap {which}:", highlight=False)
    import yaml

    console.print(yaml.safe_dump(router, sort_keys=False).rstrip(), markup=False, highlight=False)
    console.print(
        f"servebox router groups: {', '.join(f'{g}={members}' for g, members in sets.groups.items())}",
        highlight=False,
    )


def show_calibration(rows: list[dict], console: Console) -> None:
    table = Table(
        "device", "figure", "planned MiB", "logged MiB", "error", title="Planned vs llama-server's log"
    )
    for r in rows:
        err = "" if r["relative_error"] is None else f"{100 * r['relative_error']:+.2f}%"
        table.add_row(r["device"], r["figure"], _f(r["predicted_mib"]), _f(r["reported_mib"]), err)
    console.print(table)
