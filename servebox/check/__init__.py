"""`servebox check`: will this checkpoint load and behave on this engine build and GPU?

Each rule is a small function of (checkpoint facts, vLLM flags, GPU, engine profile) that returns
findings with a severity (error: will not load; warn: loads but degrades; info), the evidence
(config field, tensor name and shape, template line) and the fix. Engine facts (minimum compute
capability per quantization scheme, attention backends and their KV dtypes) live in
engines/vllm/profiles/engines.toml, not in code.
"""

from __future__ import annotations

from typing import Any

from servebox.check.context import CheckReport, Context, EngineRules, Finding, load_engine_rules
from servebox.check.file_rules import rule_completeness
from servebox.check.flag_rules import rule_unknown_flags
from servebox.check.nodes_rules import rule_nodes
from servebox.check.parallel_rules import rule_dtype, rule_row_parallel_groups, rule_tensor_parallel
from servebox.check.quantization_rules import (
    rule_marlin_tiles,
    rule_native_formats,
    rule_quant_capability,
    rule_quantization_flag,
    rule_quantized_groups,
    rule_unknown_method,
)
from servebox.check.runtime_rules import (
    rule_hybrid_offloading,
    rule_kv_backend,
    rule_mtp,
    rule_plan,
    rule_scheduler,
)
from servebox.check.template_rules import rule_template
from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.profile import batch_shape_of, load_profile
from servebox.hardware import GPU

__all__ = ["CheckReport", "EngineRules", "Finding", "load_engine_rules", "run_check"]

SEVERITY_ORDER = {"error": 0, "warn": 1, "info": 2}


def run_check(
    ckpt: Checkpoint,
    flags: ServeFlags,
    gpu: GPU,
    engine: EngineRules,
    rest: list[str] | None = None,
    metadata_only: bool = False,
    env_forces_marlin: bool = False,
    template_kwargs: dict[str, Any] | None = None,
) -> CheckReport:
    rest = rest or []
    kwargs = {**flags.default_chat_template_kwargs, **(template_kwargs or {})}
    ctx = Context(ckpt, flags, gpu, engine, metadata_only, env_forces_marlin, kwargs)
    findings: list[Finding] = []
    for rule in (
        rule_completeness,
        rule_unknown_method,
        rule_quant_capability,
        rule_quantization_flag,
        rule_native_formats,
        rule_dtype,
        rule_tensor_parallel,
        rule_nodes,
        rule_row_parallel_groups,
        rule_quantized_groups,
        rule_marlin_tiles,
        rule_kv_backend,
        rule_mtp,
        rule_template,
    ):
        findings += rule(ctx)
    findings += rule_scheduler(ctx, batch_shape_of(flags, load_profile(engine.version), gpu))
    findings += rule_hybrid_offloading(ctx, rest)
    findings += rule_unknown_flags(ctx, rest)
    if not any(
        f.severity == "error"
        and f.rule
        in ("tp-heads", "tp-kv-heads", "kv-dtype-backend", "quantization-flag", "quantization-method-unknown")
        for f in findings
    ):
        findings += rule_plan(ctx)
    findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return CheckReport(
        source=ckpt.facts.source,
        gpu=gpu.name,
        engine_profile=engine.name,
        findings=findings,
        errors=sum(f.severity == "error" for f in findings),
        warnings=sum(f.severity == "warn" for f in findings),
    )
