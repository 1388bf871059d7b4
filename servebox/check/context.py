"""What every check rule sees (checkpoint, flags, GPU, engine facts) and what it returns (findings).

Engine facts per build (quantization gates, attention backends and their KV dtypes) are data in
engines/vllm/profiles/engines.toml; EngineRules only reads them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.errors import InputError
from servebox.hardware import GPU


class Finding(BaseModel):
    rule: str
    severity: str  # error, warn, info
    message: str
    evidence: list[str]
    fix: str | None = None


class CheckReport(BaseModel):
    source: str
    gpu: str
    engine_profile: str
    findings: list[Finding]
    errors: int
    warnings: int


@dataclass(frozen=True)
class EngineRules:
    name: str
    data: dict[str, Any]

    @property
    def version(self) -> str:
        return self.data["version"]

    def quant_gate(self, key: str) -> int | None:
        return self.data.get("quant_min_capability", {}).get(key)

    @property
    def backends(self) -> dict[str, dict[str, Any]]:
        return self.data.get("backends", {})


@cache
def _engine_profiles() -> dict[str, Any]:
    """engines.toml, parsed once per process: `plan --engine-profile` reads it for the version and again for
    the option list."""
    data = tomllib.loads(
        resources.files("servebox.engines.vllm").joinpath("profiles/engines.toml").read_text()
    )
    return data["profile"]


def load_engine_rules(name: str) -> EngineRules:
    profiles = _engine_profiles()
    if name not in profiles:
        raise InputError(
            "--engine-profile", None, f"unknown engine profile {name!r}; known: {', '.join(profiles)}"
        )
    return EngineRules(name, profiles[name])


@dataclass
class Context:
    ckpt: Checkpoint
    flags: ServeFlags
    gpu: GPU
    engine: EngineRules
    metadata_only: bool
    env_forces_marlin: bool
    template_kwargs: dict[str, Any]

    @property
    def cc(self) -> int:
        return self.gpu.compute_capability[0] * 10 + self.gpu.compute_capability[1]


def finding(rule: str, severity: str, message: str, evidence: list[str], fix: str | None = None) -> Finding:
    return Finding(rule=rule, severity=severity, message=message, evidence=evidence, fix=fix)


def module_dims(ctx: Context, module: str) -> tuple[int, int] | None:
    """(out_features, in_features) of a linear module from its stored tensors, undoing each format's packing."""
    shapes = ctx.ckpt.inventory.tensor_shapes if ctx.ckpt.inventory else {}
    method = ctx.ckpt.facts.quantization.method
    if f"{module}.qweight" in shapes:
        rows, cols = shapes[f"{module}.qweight"][1]
        bits = ctx.ckpt.facts.quantization.weight_bits or 4
        pack = 32 // bits
        return (cols * pack, rows) if method.startswith("awq") else (cols, rows * pack)
    if f"{module}.weight_packed" in shapes:
        rows, cols = shapes[f"{module}.weight_packed"][1]
        return rows, cols * (8 // (ctx.ckpt.facts.quantization.weight_bits or 4))
    if f"{module}.weight" in shapes and len(shapes[f"{module}.weight"][1]) == 2:
        out, inp = shapes[f"{module}.weight"][1]
        return out, inp
    return None


# ---- rules ----
