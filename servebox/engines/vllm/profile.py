"""Load the vLLM engine profile for a version from profiles/vllm.toml (engine facts as data), and say
whether a planned configuration lies inside what the profile was calibrated on (the `calibrated` schema
described at the top of vllm.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from servebox.errors import InputError

# compute capability (major) -> architecture name used by `gpu_arch` in vllm.toml
# MRoPE's cos/sin cache rows per position where a profile names no factor: vLLM 0.26's get_rope keeps
# max_position x 4 for every MRoPE model (rotary_embedding/mrope.py); later releases pass a factor per class
MROPE_DEFAULT = {"default": 4}
GPU_ARCHS = {6: "pascal", 7: "volta", 8: "ampere", 9: "hopper", 10: "blackwell", 12: "blackwell"}


def gpu_arch(compute_capability: tuple[int, int]) -> str:
    major, minor = compute_capability
    if (major, minor) == (7, 5):
        return "turing"
    if (major, minor) == (8, 9):
        return "ada"
    return GPU_ARCHS.get(major, f"sm{major}{minor}")


@dataclass(frozen=True)
class Calibration:
    builds: tuple[str, ...]
    gpu_arch: str
    quant: tuple[str, ...]
    tp: tuple[int, ...] | None
    source: str


@dataclass(frozen=True)
class EngineProfile:
    version: str
    matched: str
    kv_report: str
    subtract_cudagraph_estimate: bool
    default_block_size: int
    source: str
    assumptions: dict
    covers: str = ""
    async_scheduling: bool = False  # the release's default: two batches in flight (sliding windows hold both)
    # method -> gpu arch -> {factor, source}: what repacking at load does to weights (calibrated, vllm.toml)
    weight_load: dict = field(default_factory=dict)
    # checkpoint quant_method -> the --quantization values vLLM takes for it (vllm.toml [quantization_flag])
    quantization_flag: dict = field(default_factory=dict)
    # "method:quant_algo" whose config an override claims whatever --quantization says (vllm.toml, per release)
    quantization_flag_overridden: tuple[str, ...] = ()
    mamba_cache_modes: tuple[str, ...] = ("none", "align", "all")
    # the mode prefix caching picks when --mamba-cache-mode is not given: 'all' for these architectures
    # (SupportsMambaPrefixCaching in that release), 'align' for every other recurrent model
    mamba_all_mode_archs: tuple[str, ...] = ()
    null_block_reserved: bool = True  # auto-fit and the memory check plan against num_blocks - 1
    # the sampler warm-up's peak bytes per logit (top-k/top-p path of the release); None: [assumptions]
    sampler_bytes_per_logit: float | None = None
    # MRoPE's cos/sin cache rows per position: "default" and by model class (vllm.toml, per release)
    mrope_cache_positions_factor: dict = field(default_factory=lambda: dict(MROPE_DEFAULT))
    calibrated: tuple[Calibration, ...] = field(default_factory=tuple)

    def calibration_for(self, build: str, arch: str, quant: str, tp: int) -> Calibration | None:
        """The entry covering this build (an engines.toml name, "upstream" for releases), GPU arch, quant path
        and TP size; None when the profile's measured terms were never checked on such a start-up."""
        for c in self.calibrated:
            if build in c.builds and c.gpu_arch == arch and quant in c.quant and (c.tp is None or tp in c.tp):
                return c
        return None

    def at_least(self, since: str) -> bool:
        """Whether this plan's vLLM release is `since` or later (for data entries that say where they start)."""
        return _key(self.version) >= _key(since)


def _key(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _calibrations(entries: list[dict]) -> tuple[Calibration, ...]:
    return tuple(
        Calibration(
            tuple(e.get("builds", ["upstream"])),
            e["gpu_arch"],
            tuple(e["quant"]),
            tuple(e["tp"]) if "tp" in e else None,
            e.get("source", ""),
        )
        for e in entries
    )


def _by_release(value, version: str):
    """A profile value that changed inside the profile's range: a list of {since, bytes} tables, the newest
    `since` at or below VERSION wins; a plain value applies to the whole range."""
    if not isinstance(value, list):
        return value
    fitting = [e for e in value if _key(e["since"]) <= _key(version)]
    return max(fitting, key=lambda e: _key(e["since"]))["bytes"] if fitting else None


def weight_load_entry(profile: EngineProfile, method: str, arch: str) -> dict | None:
    """The repacking entry for METHOD on ARCH at this profile's version: the newest `since` at or below it
    (vllm.toml [weight_load]); a plain table is one entry for every release."""
    entries = profile.weight_load.get(method, {}).get(arch)
    if entries is None or isinstance(entries, dict):
        return entries
    wanted = _key(profile.version)
    fitting = [e for e in entries if _key(e["since"]) <= wanted]
    return max(fitting, key=lambda e: _key(e["since"])) if fitting else None


@lru_cache(maxsize=1)
def vllm_toml() -> dict:
    """profiles/vllm.toml, parsed once per process (every reader shares it: read only)."""
    return tomllib.loads(resources.files("servebox.engines.vllm").joinpath("profiles/vllm.toml").read_text())


def batch_defaults(profile: EngineProfile, gpu_total_bytes: int, gpu_model: str = "") -> tuple[int, int]:
    """(max_num_seqs, max_num_batched_tokens) vLLM's API server takes on this GPU when the flags leave them
    unset: vllm.toml [[batch_defaults]], the first tier of this release the device reaches."""
    name = gpu_model.lower()
    for tier in vllm_toml()["batch_defaults"]:
        if tier.get("since") and not profile.at_least(tier["since"]):
            continue
        if gpu_total_bytes >= tier["min_gib"] * 2**30 and not any(
            n in name for n in tier.get("not_names", ())
        ):
            return tier["max_num_seqs"], tier["max_num_batched_tokens"]
    raise ValueError("vllm.toml [[batch_defaults]] has no tier for 0 GiB")


def batch_shape_of(flags, profile: EngineProfile, gpu) -> tuple[int, int]:
    """(max_num_seqs, max_num_batched_tokens) the engine runs with: the flags', else batch_defaults."""
    seqs, tokens = batch_defaults(profile, gpu.total_bytes, gpu.model)
    return flags.max_num_seqs or seqs, flags.max_num_batched_tokens or tokens


def mtp_load_entry(build: str) -> dict | None:
    """vllm.toml [mtp_load.BUILD]: what this engine build's MTP drafter loads beyond its layers (None: upstream's
    rule alone)."""
    return vllm_toml().get("mtp_load", {}).get(build)


def load_profile(version: str) -> EngineProfile:
    data = vllm_toml()
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
        version=version,
        matched=match,
        kv_report=p["kv_report"],
        subtract_cudagraph_estimate=p["subtract_cudagraph_estimate"],
        default_block_size=p["default_block_size"],
        source=p["source"],
        assumptions=data["assumptions"],
        covers=p.get("covers", ""),
        async_scheduling=p.get("async_scheduling", False),
        weight_load=data.get("weight_load", {}),
        quantization_flag=data.get("quantization_flag", {}),
        quantization_flag_overridden=tuple(p.get("quantization_flag_overridden", ())),
        mamba_cache_modes=tuple(p.get("mamba_cache_modes", ("none", "align", "all"))),
        mamba_all_mode_archs=tuple(p.get("mamba_all_mode_archs", ())),
        null_block_reserved=p.get("null_block_reserved", True),
        sampler_bytes_per_logit=_by_release(p.get("sampler_bytes_per_logit"), version),
        mrope_cache_positions_factor=p.get("mrope_cache_positions_factor", MROPE_DEFAULT),
        calibrated=_calibrations(p.get("calibrated", [])),
    )


def engine_profile_names() -> str:
    """The build names engines.toml holds, comma-separated, for the --engine-profile help of check and plan: read
    from the data, so a profile added there is listed without touching the CLI (a plain parse, no check imports)."""
    text = resources.files("servebox.engines.vllm").joinpath("profiles/engines.toml").read_text()
    return ", ".join(tomllib.loads(text)["profile"])


def resolve_engine(engine_profile: str | None, vllm_version: str | None) -> tuple[EngineProfile, str]:
    """(profile, build) for `plan`: --engine-profile names a build in engines.toml (its version picks the
    profile; a fork keeps its own name for calibration), --vllm-version an upstream release; default 0.32.0."""
    if engine_profile and vllm_version:
        raise InputError("--engine-profile", None, "give --engine-profile or --vllm-version, not both")
    if not engine_profile:
        return load_profile(vllm_version or "0.32.0"), "upstream"
    from servebox.check.context import load_engine_rules

    version = load_engine_rules(engine_profile).version
    return load_profile(version), "upstream" if engine_profile.startswith("vllm-") else engine_profile
