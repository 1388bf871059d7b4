"""The deployment spec: one TOML file describing a host, its router and its models.

A strict pydantic schema (unknown keys are errors, so a misplaced option cannot be silently ignored
the way systemd ignored `script` in the deployment servebox grew from; no type coercion; numbers
finite and in range) with value rules from `spec_values` (no control characters, no systemd
prefixes, absolute paths, parsed listen addresses). Every field carries its one line of why, from
which `tools/gen_spec_reference.py` writes docs/spec.md. Every error names the key path and links
the reference. Engine flags keep vLLM's own names (`max-model-len`, `tensor-parallel-size`, ...).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from servebox.deploy.provision import ProvisionSpec
from servebox.deploy.spec_kubernetes import Kubernetes
from servebox.deploy.spec_values import (
    NAME_RE,
    AbsPath,
    ApiKey,
    CheckpointRef,
    HostName,
    Memlock,
    Name,
    Strict,
    Text,
    check_flags,
    find_control_characters,
    parse_listen,
    set_from_spec,
)
from servebox.errors import InputError
from servebox.hardware import CATALOG

REFERENCE = "docs/spec.md"
MAX_SPEC_BYTES = 1 << 20
ENV_NAME = r"^[A-Z_][A-Z0-9_]{0,127}$"
# The why of fields whose model lives elsewhere (deploy/provision.py), for docs/spec.md.
FIELD_NOTES = {
    "models.provision": "A pinned engine venv: `servebox provision` builds it, switches it atomically, rolls it back.",
    "models.provision.wheel": "The engine wheel: a path or an http(s) URL.",
    "models.provision.sha256": "The wheel's sha256: checked before anything is installed.",
    "models.provision.requirements": "A requirements lock with --hash lines (`servebox lock` writes one).",
    "models.provision.python": "The Python the venv is built with.",
    "models.provision.venv_root": "Where built venvs live; default: beside the `venv` link.",
    "models.provision.find_links": "Install only from this directory (offline, air-gapped hosts): pip --no-index --find-links.",
}


class Host(Strict):
    """The machine the units are rendered for."""

    name: HostName = Field("localhost", description="Host name, for your records and the plan's report.")
    gpus: list[str] = Field(
        [],
        max_length=64,
        description="GPU catalog names, one per device (e.g. v100-32gb): plan and DeviceAllow use them.",
    )
    memory_gib: float | None = Field(
        None, gt=0, le=65536, description="Host RAM in GiB, to budget CPU offload and swap space."
    )
    address: HostName | None = Field(
        None,
        description="A cluster host's address (IP or DNS name) the other nodes reach it at; the head's is vLLM's --master-addr / Ray's --address.",
    )

    @field_validator("gpus")
    @classmethod
    def known_gpus(cls, value: list[str]) -> list[str]:
        for gpu in value:
            if gpu not in CATALOG:
                raise ValueError(f"unknown GPU {gpu!r}; known: {', '.join(CATALOG)}")
        return value


class Toolchain(Strict):
    """What a JIT engine's compilers need: each one cost a crash to find in the real deployment."""

    cuda_home: AbsPath | None = Field(None, description="CUDA_HOME: where nvcc and the CUDA headers live.")
    triton_libcuda_path: AbsPath | None = Field(
        None, description="TRITON_LIBCUDA_PATH: the directory of the driver's libcuda.so, for Triton's JIT."
    )
    cc: AbsPath | None = Field(None, description="CC: the C compiler Triton and TorchInductor build with.")
    cxx: AbsPath | None = Field(None, description="CXX: the C++ compiler for extensions built at start-up.")
    ld_library_path: list[AbsPath] = Field(
        [], max_length=64, description="LD_LIBRARY_PATH entries (absolute; joined with ':')."
    )
    nvcc_prepend_flags: Text | None = Field(
        None, description="NVCC_PREPEND_FLAGS: extra nvcc flags, e.g. an include directory."
    )

    @field_validator("ld_library_path")
    @classmethod
    def no_colon(cls, value: list[str]) -> list[str]:
        for entry in value:
            if ":" in entry:
                raise ValueError(f"entry {entry!r} holds ':', the separator of LD_LIBRARY_PATH")
        return value


class Router(Strict):
    """The OpenAI-compatible front (llama-swap) that every model is reached through."""

    kind: Literal["llama-swap"] = Field(
        "llama-swap", description="The router program; llama-swap is the one rendered."
    )
    binary: AbsPath = Field(
        "/usr/local/bin/llama-swap", description="Absolute path of the router binary (ExecStart)."
    )
    listen: Text = Field(
        "127.0.0.1:8080",
        description="Address the router binds: IPv4:PORT, [IPv6]:PORT, HOST:PORT (resolved) or :PORT.",
    )
    api_keys: list[ApiKey] = Field(
        [], max_length=64, description="Keys clients must send; empty: no key needed."
    )
    health_check_timeout_s: int | None = Field(
        None,
        ge=15,
        le=86400,
        description="Seconds llama-swap waits for /health; default: 1.5x the slowest cold start, at least 120.",
    )
    log_level: Literal["debug", "info", "warn", "error"] = Field(
        "info", description="llama-swap's log level."
    )
    llama_swap_version: int | None = Field(
        None,
        ge=1,
        le=100000,
        description="Pinned llama-swap release number (e.g. 250): `matrix` sets from v202, legacy groups before.",
    )

    @field_validator("listen")
    @classmethod
    def parsed(cls, value: str) -> str:
        parse_listen(value)
        return value

    @property
    def listen_host(self) -> str:
        """The host part of `listen` without brackets ('' = every interface)."""
        return parse_listen(self.listen)[0]

    @property
    def listen_port(self) -> int:
        return parse_listen(self.listen)[1]


class Model(Strict):
    """One served model: its engine, its flags, and how it is run."""

    name: Name = Field(description="The served model name clients ask for; also names its unit and user.")
    checkpoint: CheckpointRef = Field(
        description="Absolute path of the checkpoint (or .gguf), or a hub repo id org/name."
    )
    engine: Literal["vllm", "llama.cpp"] = Field("vllm", description="Which engine serves it.")
    engine_profile: Name = Field(
        "vllm-0.32", description="The engine build's facts for plan/check (servebox/engines/vllm/profiles)."
    )
    port: int = Field(
        ge=1024,
        le=65535,
        description="Local port the engine listens on (127.0.0.1); the router proxies to it.",
    )
    group: Name | None = Field(
        None, description="llama-swap group: models in one exclusive group swap the GPUs."
    )
    venv: AbsPath | None = Field(None, description="vLLM: the venv whose bin/python runs the engine.")
    binary: AbsPath | None = Field(
        None, description="llama.cpp: absolute path of llama-server (required for llama.cpp)."
    )
    run_as_unit: bool | None = Field(
        None,
        description="true: systemd runs the engine as its own unit and servebox only proxies it; default: servebox runs it (`up` starts it).",
    )
    cold_start_s: int = Field(
        360,
        ge=1,
        le=86400,
        description="Seconds a cold start takes (compile, graph capture): the give-up budget of each start-up phase.",
    )
    memory_max_gib: float | None = Field(
        None, gt=0, le=65536, description="MemoryMax= of the unit in GiB (host RAM cap)."
    )
    memlock: Memlock = Field(
        "infinity", description="LimitMEMLOCK=: 'infinity' or a size; 8 MiB hung an engine that pins pages."
    )
    gpus: list[Annotated[int, Field(ge=0, le=255)]] = Field(
        [], max_length=256, description="Device indexes this engine may open; default all host GPUs."
    )
    flags: dict[str, Any] = Field(
        {},
        description="Engine flags by the engine's own names (max-model-len = 8192); true is --flag, a table is passed as JSON.",
    )
    env: dict[Annotated[str, Field(pattern=ENV_NAME)], Text] = Field(
        {}, description="Extra environment variables of the engine (names ^[A-Z_][A-Z0-9_]*$)."
    )
    toolchain: Toolchain = Field(Toolchain(), description="Compiler and CUDA paths a JIT engine needs.")
    ttl_s: int = Field(
        0, ge=0, le=31_536_000, description="llama-swap unloads a managed model idle this long; 0 = never."
    )
    concurrency_limit: int | None = Field(
        None,
        ge=1,
        le=1_000_000,
        description="Requests llama-swap lets through at once; default max-num-seqs.",
    )
    provision: ProvisionSpec | None = Field(
        None, description="A pinned engine venv servebox provision builds (wheel, sha256, lock)."
    )
    nodes: list[HostName] = Field(
        [],
        max_length=64,
        description="Names of [[hosts]] this model spans, head first (node rank = position); empty: one box.",
    )
    multi_node_backend: Literal["mp", "ray"] = Field(
        "mp",
        description="Across nodes: 'mp' is vLLM's own (--nnodes/--node-rank/--master-addr, --headless workers); 'ray' is a Ray head and workers.",
    )
    master_port: int = Field(
        29501,
        ge=1024,
        le=65535,
        description="Across nodes: the head's rendezvous port (--master-port, or Ray's port).",
    )

    @field_validator("flags")
    @classmethod
    def clean_flags(cls, value: dict[str, Any]) -> dict[str, Any]:
        return check_flags(value)

    @field_validator("flags")
    @classmethod
    def router_reads_max_num_seqs(cls, value: dict[str, Any]) -> dict[str, Any]:
        seqs = value.get("max-num-seqs")
        if seqs is not None and (type(seqs) is not int or not 1 <= seqs <= 1_000_000):
            raise ValueError(
                f"max-num-seqs must be an integer 1-1000000 (the router's concurrency limit), got {seqs!r:.40}"
            )
        return value

    @model_validator(mode="after")
    def engine_needs(self) -> Model:
        if self.engine == "llama.cpp" and not self.binary:
            raise ValueError("a llama.cpp model needs `binary` (the llama-server path)")
        refused = set_from_spec(self.engine, self.flags)
        if refused:
            raise ValueError(refused)
        return self

    @property
    def own_unit(self) -> bool:
        return bool(self.run_as_unit)


class Spec(Strict):
    """A host, its router and its models."""

    host: Host = Field(Host(), description="The machine.")
    hosts: list[Host] = Field(
        [],
        max_length=64,
        description="A cluster's hosts ([[hosts]] tables, each with a name and an address); models span them with `nodes`.",
    )
    router: Router = Field(Router(), description="The router in front of every model.")
    models: list[Model] = Field(
        min_length=1, max_length=256, description="The served models ([[models]] tables)."
    )
    kubernetes: Kubernetes | None = Field(
        None,
        description="What `render --kubernetes` needs: images, namespace, model storage ([kubernetes] table).",
    )

    @model_validator(mode="after")
    def unique(self) -> Spec:
        names = [m.name for m in self.models]
        ports = [m.port for m in self.models]
        for what, values in (("name", names), ("port", ports)):
            dup = {v for v in values if values.count(v) > 1}
            if dup:
                raise ValueError(f"models: duplicate {what} {sorted(dup)[0]!r}")
        return self

    @model_validator(mode="after")
    def nodes_are_hosts(self) -> Spec:
        names = [h.name for h in self.hosts]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"hosts: duplicate name {sorted(dup)[0]!r}")
        for model in self.models:
            if len(set(model.nodes)) != len(model.nodes):
                raise ValueError(f"models.{model.name}.nodes: a host is listed twice")
            for node in model.nodes:
                if node not in names:
                    raise ValueError(f"models.{model.name}.nodes: {node!r} is not a [[hosts]] name")
            head = next((h for h in self.hosts if model.nodes and h.name == model.nodes[0]), None)
            if len(model.nodes) > 1 and head is not None and head.address is None:
                raise ValueError(f"hosts.{head.name}.address: the head of {model.name} needs an address")
        return self

    def nodes_of(self, model: Model) -> list[Host]:
        """The hosts MODEL spans, head first; one box: [self.host]."""
        by_name = {h.name: h for h in self.hosts}
        return [by_name[n] for n in model.nodes] or [self.host]


def load_spec(path: Path) -> Spec:
    return validate_spec(_read_toml(path), str(path))


def validate_spec(data: dict[str, Any], source: str) -> Spec:
    """Parsed TOML -> Spec, or an InputError naming SOURCE, the key path, and the reference."""
    found = find_control_characters(data)
    if found:
        raise InputError(
            source, _named(found[0], data), f"holds a control character ({found[1]}) (see {REFERENCE})"
        )
    try:
        return Spec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-"))]
        where = _named(_dotted(loc), data) or "spec"
        msg = err["msg"].removeprefix("Value error, ")
        # a whole-spec check has no location: its message starts with the section it is about ("models: ...")
        section = next((str(p) for p in loc if isinstance(p, str)), "") or msg.split(":", 1)[0]
        anchor = f"#{section}" if section.isidentifier() else ""
        raise InputError(source, where, f"{msg} (see {REFERENCE}{anchor})") from None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        if path.is_dir() or (path.exists() and not path.is_file()):
            raise InputError(str(path), None, "not a regular file (a spec is a TOML file)")
        raw = path.read_bytes()[: MAX_SPEC_BYTES + 1]
        if len(raw) > MAX_SPEC_BYTES:
            raise InputError(str(path), None, f"larger than {MAX_SPEC_BYTES} bytes: not a spec")
        return tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(str(path), None, f"not UTF-8 text: {exc.reason}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), None, f"malformed TOML: {exc}") from None
    except RecursionError:
        raise InputError(str(path), None, "malformed TOML: nested too deep") from None


def _dotted(loc: list[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _named(where: str, data: dict[str, Any]) -> str:
    """`models[0].memlock` -> `models[qwen].memlock` when the model has a usable name."""
    if not where.startswith("models["):
        return where
    index_text, _, rest = where[len("models[") :].partition("]")
    models = data.get("models")
    if not index_text.isdigit() or not isinstance(models, list) or int(index_text) >= len(models):
        return where
    entry = models[int(index_text)]
    label = entry.get("name") if isinstance(entry, dict) else None
    if isinstance(label, str) and NAME_RE.match(label):
        return f"models[{label}]{rest}"
    return where
