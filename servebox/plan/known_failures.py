"""Start-ups a release is reported to fail where the arithmetic says they fit (vllm.toml [[known_failures]]).

Some failures are a release's regression, not memory arithmetic: vllm#33155 (gpt-oss-120b on one H100 runs out of
memory on 0.14.1 at any length, where 0.11.2 served 85K and 0.26 keeps 13.6 GiB of KV on the same budget). No
constant is fitted to them: a plan that matches an entry says "does not fit" with the report, so that no plan calls
"fits" what the real engine refused."""

from __future__ import annotations

from servebox.engines.vllm.profile import EngineProfile, vllm_toml


def _entries() -> list[dict]:
    return vllm_toml().get("known_failures", [])


def known_failure(
    profile: EngineProfile, architecture: str, gpu_arch: str, total_gib: float, world: int
) -> dict | None:
    """The first entry matching this release, model class, GPU architecture, GPU size and TP x PP, or None."""
    for e in _entries():
        if (
            profile.version in e["versions"]
            and architecture == e["architecture"]
            and gpu_arch == e["gpu_arch"]
            and total_gib <= e.get("max_gpu_gib", float("inf"))
            and world in e.get("world_sizes", [world])
        ):
            return e
    return None


def failure_message(entry: dict, version: str) -> str:
    return f"vLLM {version} is reported to fail here: {entry['what']} ({entry['source']}); {entry['instead']}"
