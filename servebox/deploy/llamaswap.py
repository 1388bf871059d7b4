"""The llama-swap config: passthrough entries for engines in their own units, managed ones for llama.cpp.

Only keys llama-swap documents are rendered, and `LlamaSwapConfig` below (servebox's own model of
the schema of llama-swap's config-schema.json, `aliases` as strings) rejects anything else. Which models
run together is either the user's `group`s (legacy groups, one member at a time) or, when computed from
the plans (deploy/model_sets.py), llama-swap's `matrix` (introduced in v202, mostlygeek/llama-swap#646:
`vars` of 1-8 alphanumerics, positive integer `evict_costs`, `sets` in its & | () DSL; never together
with `groups`) or, for a pinned version before v202, legacy groups that partition the models. A passthrough entry proxies to the engine's fixed port, checks /health,
and carries an inert `cmd` (the key is required; the engine lives in its own unit).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from servebox.deploy.spec import Model, Spec
from servebox.deploy.systemd import engine_argv

INERT_CMD = "/bin/sleep infinity"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LSModel(_Strict):
    cmd: str = Field(min_length=1)
    cmdStop: str | None = None  # noqa: N815 - llama-swap's own key names
    name: str | None = Field(default=None, max_length=128)
    description: str | None = Field(default=None, max_length=1024)
    env: list[str] = []
    proxy: str | None = None
    aliases: list[str] = []
    checkEndpoint: str = "/health"  # noqa: N815
    ttl: int = Field(default=0, ge=0)
    useModelName: str | None = None  # noqa: N815
    metadata: dict[str, Any] = {}
    concurrencyLimit: int = Field(default=0, ge=0)  # noqa: N815
    unlisted: bool = False

    @field_validator("env")
    @classmethod
    def env_format(cls, value: list[str]) -> list[str]:
        for item in value:
            if not re.match(r"^[A-Z_][A-Z0-9_]*=.*$", item):
                raise ValueError(f"env entry {item!r} must be NAME=value")
        return value

    @field_validator("checkEndpoint")
    @classmethod
    def endpoint(cls, value: str) -> str:
        if not (value.startswith("/") or value == "none"):
            raise ValueError("checkEndpoint must start with / or be 'none'")
        return value


class LSGroup(_Strict):
    swap: bool = True
    exclusive: bool = True
    persistent: bool = False
    members: list[str]


MATRIX_SINCE = 202  # first llama-swap release with `matrix` (v202, PR #646)


class LSMatrix(_Strict):
    vars: dict[str, str] = Field(min_length=1)
    evict_costs: dict[str, int] = {}
    sets: dict[str, str] = Field(min_length=1)

    @field_validator("vars")
    @classmethod
    def var_names(cls, value: dict[str, str]) -> dict[str, str]:
        for key in value:
            if not re.match(r"^[a-zA-Z0-9]{1,8}$", key):
                raise ValueError(f"matrix var {key!r} must be 1-8 letters or digits")
        return value

    @field_validator("evict_costs")
    @classmethod
    def costs(cls, value: dict[str, int]) -> dict[str, int]:
        for key, cost in value.items():
            if cost < 1:
                raise ValueError(f"evict_costs[{key}] must be a positive integer")
        return value


class LlamaSwapConfig(_Strict):
    healthCheckTimeout: int = Field(default=120, ge=15)  # noqa: N815
    logLevel: str = "info"  # noqa: N815
    logToStdout: str = "proxy"  # noqa: N815
    startPort: int = 5800  # noqa: N815
    apiKeys: list[str] = []  # noqa: N815
    models: dict[str, LSModel]
    groups: dict[str, LSGroup] = {}
    matrix: LSMatrix | None = None

    @model_validator(mode="after")
    def groups_or_matrix(self) -> LlamaSwapConfig:
        if self.matrix is not None and self.groups:
            raise ValueError("llama-swap takes either groups or matrix, not both")
        if self.matrix is not None:
            for short, model in self.matrix.vars.items():
                if model not in self.models:
                    raise ValueError(f"matrix var {short} names {model!r}, which is not a model")
        return self


def model_entry(model: Model) -> LSModel:
    common = {
        "name": model.name,
        "description": f"{model.engine} {model.checkpoint}",
        "concurrencyLimit": model.concurrency_limit or int(model.flags.get("max-num-seqs", 0) or 0),
        "metadata": {"servebox": {"engine": model.engine, "port": model.port}},
    }
    if model.own_unit:
        # The engine runs as its own systemd unit: the router only proxies. cmd is required by llama-swap, so it is inert.
        return LSModel(
            cmd=INERT_CMD, proxy=f"http://127.0.0.1:{model.port}", checkEndpoint="/health", ttl=0, **common
        )
    return LSModel(
        cmd=shlex.join(engine_argv(model)),
        proxy=f"http://127.0.0.1:{model.port}",
        checkEndpoint="/health",
        ttl=model.ttl_s,
        env=[f"{k}={v}" for k, v in model.env.items()],
        **common,
    )


def router_programs(spec: Spec) -> list[str]:
    """The programs llama-swap itself starts (each model without a unit of its own): its cmd's first word. Checking
    only the router's unit passed a missing llama-server unsaid (fresh-325)."""
    return sorted({engine_argv(model)[0] for model in spec.models if not model.own_unit})


def matrix_from_sets(sets: list[list[str]], cold_start_s: dict[str, int]) -> LSMatrix | None:
    """llama-swap's matrix for the computed sets: short vars, evict costs = cold start seconds."""
    if not sets:
        return None
    names = list(cold_start_s)
    short = {name: f"m{i + 1}" for i, name in enumerate(names)}
    return LSMatrix(
        vars={short[n]: n for n in names},
        evict_costs={short[n]: max(1, int(cold_start_s[n])) for n in names},
        sets={f"s{i + 1}": " & ".join(short[n] for n in members) for i, members in enumerate(sets)},
    )


def groups_from_partition(partition: dict[str, list[str]]) -> dict[str, LSGroup]:
    """Legacy groups: members of a group run together (swap false); another group's request unloads it."""
    return {
        name: LSGroup(swap=len(members) == 1, exclusive=True, members=members)
        for name, members in partition.items()
    }


def render_config(spec: Spec, sets=None) -> LlamaSwapConfig:
    """Which models run together: the user's `group`s when any model names one; otherwise, when the host
    lists its GPUs, the sets computed from the plans (`sets`, a model_sets.ModelSets, or computed here)."""
    if sets is None and spec.host.gpus and not any(m.group for m in spec.models):
        from servebox.deploy.model_sets import compute_sets

        sets = compute_sets(spec)
    slowest = max(m.cold_start_s for m in spec.models)
    timeout = spec.router.health_check_timeout_s or max(120, int(slowest * 1.5))
    if timeout < slowest:
        raise ValueError(
            f"router.health_check_timeout_s {timeout} is below the slowest cold start ({slowest} s)"
        )
    groups: dict[str, LSGroup] = {}
    matrix = None
    version = getattr(spec.router, "llama_swap_version", None)
    if sets is not None and version is not None and version >= MATRIX_SINCE:
        matrix = matrix_from_sets(sets.sets, {m.name: m.cold_start_s for m in spec.models})
    elif sets is not None:
        groups = groups_from_partition(sets.groups)
    for m in spec.models if sets is None else []:
        if m.group:
            groups.setdefault(m.group, LSGroup(swap=True, exclusive=True, members=[])).members.append(m.name)
    return LlamaSwapConfig(
        healthCheckTimeout=timeout,
        logLevel=spec.router.log_level,
        logToStdout="both",
        apiKeys=spec.router.api_keys,
        models={m.name: model_entry(m) for m in spec.models},
        groups=groups,
        matrix=matrix,
    )


def to_yaml(config: LlamaSwapConfig) -> str:
    data = config.model_dump(exclude_defaults=False, exclude_none=True)
    if config.matrix is not None:
        data.pop("groups", None)  # llama-swap takes groups or matrix, never both
    header = "# llama-swap config rendered by servebox: engines in their own units are proxied, llama.cpp models are managed.\n"
    return header + yaml.safe_dump(data, sort_keys=False, default_flow_style=False, width=1000)
