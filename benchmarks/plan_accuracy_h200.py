"""How close `plan` lands to real vLLM start-ups: end-to-end error on the H200 logs in tests/fixtures/gpu-logs/
(KV tokens, available KV memory, model loading), with the worst case, and the calibrate-on-one /
predict-the-others error per model (a log of the same model calibrates the plans of its other logs).

Each case's JSON beside its log holds the exact vllm.LLM arguments; the plan is made with those flags, the
scheduler values the log resolved (max_num_batched_tokens, max_num_seqs) and the GPU total the log printed.
Baseline in the same run: the planner without the 0.26 profile (the 0.21-0.25 profile's shape estimates).

Run: .venv/bin/python benchmarks/plan_accuracy.py [--json]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm import calibration
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.logs import read_startup_figures
from servebox.engines.vllm.profile import load_profile
from servebox.hardware import custom_gpu
from servebox.plan import make_plan

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "fixtures" / "gpu-logs"
FIGURES = ("kv_cache_tokens", "available_kv_gib", "model_loading_gib")
BASELINE = "0.21"  # the profile a 0.26 plan fell back to before this work


@dataclass
class Case:
    name: str
    model: Path
    argv: list[str]
    figures: object
    log: Path
    env: dict[str, str]  # the engine's environment the case set (servebox plan --env)


def _argv(kw: dict, figures) -> list[str]:
    argv = ["--gpu-memory-utilization", str(kw.get("gpu_memory_utilization", 0.9))]
    if kw.get("max_model_len"):
        argv += ["--max-model-len", str(kw["max_model_len"])]
    argv += ["--max-num-batched-tokens", str(figures.max_num_batched_tokens)]
    argv += ["--max-num-seqs", str(figures.max_num_seqs)]
    if kw.get("enforce_eager"):
        argv.append("--enforce-eager")
    if kw.get("kv_cache_dtype"):
        argv += ["--kv-cache-dtype", kw["kv_cache_dtype"]]
    if kw.get("enable_prefix_caching") is False or "enable_prefix_caching=False" in figures.log_text:
        argv.append("--no-enable-prefix-caching")
    elif kw.get("enable_prefix_caching"):
        argv.append("--enable-prefix-caching")
    for key in ("dtype", "quantization", "mamba_ssm_cache_dtype", "mamba_cache_dtype"):
        if kw.get(key):
            argv += [f"--{key.replace('_', '-')}", kw[key]]
    if kw.get("speculative_config"):
        argv += ["--speculative-config", json.dumps(kw["speculative_config"])]
    limits = kw.get("limit_mm_per_prompt") or {}
    if limits and not any(limits.values()):
        argv.append("--language-model-only")
    return argv


def load_cases() -> list[Case]:
    cases = []
    for spec_path in sorted(LOGS.glob("*.json")):
        spec = json.loads(spec_path.read_text())
        log = spec_path.with_suffix(".log")
        figures = read_startup_figures(log)
        figures.log_text = log.read_text()  # type: ignore[attr-defined]
        model = ROOT / spec["model_config"]["checkpoint"]
        argv = _argv(spec["llm_kwargs"], figures)
        cases.append(Case(spec["case"], model, argv, figures, log, dict(spec.get("env", {}))))
    return cases


def plan_case(case: Case, version: str, terms=None):
    flags, _ = parse_flags(case.argv)
    flags.env = case.env
    ckpt = load_checkpoint(str(case.model), with_template=False)
    gpu = custom_gpu(case.figures.total_gib, (9, 0))  # the H200 the logs came from: Hopper, sm90
    given = (terms.activation_gib, terms.non_torch_gib, terms.cudagraph_gib) if terms else (None, None, None)
    weights = terms.weights_gib if terms else None  # the log's 'Model loading took' offset, carried
    return ckpt, flags, gpu, make_plan(ckpt, flags, gpu, load_profile(version), *given, weights_gib=weights)


def errors(plan, figures) -> dict[str, float]:
    out = {}
    for name in FIGURES:
        reported = getattr(figures, name)
        if reported:
            out[name] = (getattr(plan, name) - reported) / reported
    return out


def end_to_end(cases: list[Case], version: str) -> list[dict]:
    rows = []
    for case in cases:
        *_, plan = plan_case(case, version)
        f = case.figures
        terms = {
            "activation_gib": (plan.activation_gib, f.activation_gib),
            "non_torch_gib": (plan.non_torch_gib, f.non_torch_gib),
            "graph_subtracted_gib": (
                plan.cudagraph_estimate_gib if plan.cudagraph_subtracted else 0.0,
                f.graph_estimate_gib or 0.0,
            ),
        }
        rows.append({"case": case.name, "runner": f.model_runner, **errors(plan, f), "terms": terms})
    return rows


def calibrate_on_one(cases: list[Case]) -> dict[str, list[dict]]:
    by_model: dict[str, list[Case]] = {}
    for case in cases:
        by_model.setdefault(case.model.name, []).append(case)
    result = {}
    for model, group in by_model.items():
        rows = []
        for source in group:
            ckpt, flags, gpu, plan = plan_case(source, source.figures.vllm_version)
            profile = load_profile(source.figures.vllm_version)
            tokens, sizes = calibration.batch_shape(flags, gpu, ckpt.architecture, profile)
            cal = calibration.from_log(source.figures, plan, ckpt, "0.26", source.log, tokens, sizes)
            for target in group:
                if target is source:
                    continue
                *_, estimate = plan_case(target, target.figures.vllm_version)
                terms = calibration.terms_for(cal, estimate)
                *_, predicted = plan_case(target, target.figures.vllm_version, terms)
                rows.append({"from": source.name, "to": target.name, **errors(predicted, target.figures)})
        result[model] = rows
    return result


def summary(rows: list[dict]) -> dict[str, dict]:
    out = {}
    for name in FIGURES:
        values = [(abs(r[name]), r.get("case") or f"{r['from']} -> {r['to']}") for r in rows if name in r]
        if values:
            worst = max(values)
            out[name] = {
                "mean_abs": sum(v for v, _ in values) / len(values),
                "worst": worst[0],
                "worst_case": worst[1],
            }
    return out


def main() -> None:
    cases = load_cases()
    report = {
        "cases": len(cases),
        "end_to_end": end_to_end(cases, "0.26.0"),
        "baseline_end_to_end": end_to_end(cases, BASELINE),
        "calibrate_on_one": calibrate_on_one(cases),
    }
    report["summary"] = summary(report["end_to_end"])
    report["baseline_summary"] = summary(report["baseline_end_to_end"])
    pairs = [r for rows in report["calibrate_on_one"].values() for r in rows]
    report["calibrated_summary"] = summary(pairs) if pairs else "no model has two logs"
    if "--json" in sys.argv:
        print(json.dumps(report, indent=1))
        return
    print(f"{len(cases)} real H200 start-ups (vLLM 0.26.0), plan vs log, relative error")
    for r in report["end_to_end"]:
        cells = "  ".join(f"{k} {r[k]:+.2%}" for k in FIGURES if k in r)
        terms = "  ".join(f"{k} {p:.2f}/{m:.2f}" for k, (p, m) in r["terms"].items())
        print(f"  {r['case']:<22} {r['runner'] or '?':<3} {cells}\n      planned/measured GiB: {terms}")
    for label in ("summary", "baseline_summary", "calibrated_summary"):
        print(f"{label}: {json.dumps(report[label], indent=None)}")


if __name__ == "__main__":
    main()
