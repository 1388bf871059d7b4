"""The deployment spec: one TOML file describing a host, its router and its models.

Validated with pydantic (unknown keys are errors, so a misplaced option cannot be silently
ignored the way systemd ignored `script` in the digest); every error names the key path.
Engine flags keep vLLM's own names (`max-model-len`, `tensor-parallel-size`, ...).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from servebox.deploy.provision import ProvisionSpec
from servebox.errors import InputError
from servebox.hardware import CATALOG

NAME_RE = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Host(Strict):
    name: str = "localhost"
    gpus: list[str] = []
    memory_gib: float | None = None

    @field_validator("gpus")
    @classmethod
    def known_gpus(cls, value: list[str]) -> list[str]:
        for gpu in value:
            if gpu not in CATALOG:
                raise ValueError(f"unknown GPU {gpu!r}; known: {', '.join(CATALOG)}")
        return value


class Toolchain(Strict):
    """What a JIT engine's compilers need, per the digest: each one cost a crash to find."""

    cuda_home: str | None = None
    triton_libcuda_path: str | None = None
    cc: str | None = None
    cxx: str | None = None
    ld_library_path: list[str] = []
    nvcc_prepend_flags: str | None = None


class Router(Strict):
    kind: Literal["llama-swap"] = "llama-swap"
    binary: str = "/usr/local/bin/llama-swap"
    listen: str = "127.0.0.1:8080"
    api_keys: list[str] = []
    health_check_timeout_s: int | None = None  # default: the slowest model's cold start, at least 120
    log_level: Literal["debug", "info", "warn", "error"] = "info"
    llama_swap_version: int | None = None  # pinned release number (e.g. 250): `matrix` from v202, else groups


class Model(Strict):
    name: str
    checkpoint: str
    engine: Literal["vllm", "llama.cpp"] = "vllm"
    engine_profile: str = "vllm-0.32"
    port: int = Field(ge=1024, le=65535)
    group: str | None = None
    venv: str | None = None  # vLLM: the venv whose python runs the engine
    binary: str | None = None  # llama.cpp: llama-server
    run_as_unit: bool | None = None  # default: vLLM in its own unit, llama.cpp managed by the router
    cold_start_s: int = 360
    memory_max_gib: float | None = None
    memlock: str = "infinity"
    gpus: list[int] = []  # device indexes this engine may open; default all host GPUs
    flags: dict[str, Any] = {}
    env: dict[str, str] = {}
    toolchain: Toolchain = Toolchain()
    ttl_s: int = 0
    concurrency_limit: int | None = None
    provision: ProvisionSpec | None = None

    @field_validator("name")
    @classmethod
    def good_name(cls, value: str) -> str:
        if not NAME_RE.match(value):
            raise ValueError("must be 1-64 characters of letters, digits, '_', '.', '-'")
        return value

    @field_validator("env")
    @classmethod
    def env_names(cls, value: dict[str, str]) -> dict[str, str]:
        for key in value:
            if not re.match(r"^[A-Z_][A-Z0-9_]*$", key):
                raise ValueError(f"environment variable name {key!r} must match ^[A-Z_][A-Z0-9_]*$")
        return value

    @model_validator(mode="after")
    def engine_needs(self) -> Model:
        if self.engine == "llama.cpp" and not self.binary:
            raise ValueError("a llama.cpp model needs `binary` (the llama-server path)")
        return self

    @property
    def own_unit(self) -> bool:
        return self.run_as_unit if self.run_as_unit is not None else self.engine == "vllm"


class Spec(Strict):
    host: Host = Host()
    router: Router = Router()
    models: list[Model]

    @model_validator(mode="after")
    def unique(self) -> Spec:
        names = [m.name for m in self.models]
        ports = [m.port for m in self.models]
        for what, values in (("name", names), ("port", ports)):
            dup = {v for v in values if values.count(v) > 1}
            if dup:
                raise ValueError(f"models: duplicate {what} {sorted(dup)[0]!r}")
        return self


def load_spec(path: Path) -> Spec:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), None, f"malformed TOML: {exc}") from None
    try:
        return Spec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "spec"
        if isinstance(err["loc"][0:1], tuple) and err["loc"][:1] == ("models",) and len(err["loc"]) > 1:
            index = err["loc"][1]
            models = data.get("models") or []
            if (
                isinstance(index, int)
                and index < len(models)
                and isinstance(models[index], dict)
                and models[index].get("name")
            ):
                where = f"models[{models[index]['name']}]" + (
                    "." + ".".join(map(str, err["loc"][2:])) if len(err["loc"]) > 2 else ""
                )
        return _raise(path, where, err["msg"])


def _raise(path: Path, where: str, msg: str):
    raise InputError(str(path), where, msg.removeprefix("Value error, "))
