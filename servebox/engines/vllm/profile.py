"""Load the vLLM engine profile for a version from profiles/vllm.toml (engine facts as data)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from servebox.errors import InputError


@dataclass(frozen=True)
class EngineProfile:
    version: str
    matched: str
    kv_report: str
    subtract_cudagraph_estimate: bool
    default_block_size: int
    source: str
    assumptions: dict


def _key(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def load_profile(version: str) -> EngineProfile:
    data = tomllib.loads(resources.files("servebox.engines.vllm").joinpath("profiles/vllm.toml").read_text())
    wanted = _key(version)
    if not wanted:
        raise InputError("--vllm-version", None, f"not a version: {version!r}")
    candidates = sorted((k for k in data["profile"] if _key(k) <= wanted), key=_key)
    if not candidates:
        raise InputError(
            "--vllm-version",
            None,
            f"{version} predates the V1 engine profiles servebox models (oldest {min(data['profile'], key=_key)})",
        )
    match = candidates[-1]
    p = data["profile"][match]
    return EngineProfile(
        version,
        match,
        p["kv_report"],
        p["subtract_cudagraph_estimate"],
        p["default_block_size"],
        p["source"],
        data["assumptions"],
    )
