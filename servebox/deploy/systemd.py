"""systemd units for an engine (JIT-safe hardening) and for the router (web hardening, W^X on).

The engine tier keeps everything a JIT engine survives (no MemoryDenyWriteExecute: Triton,
TorchInductor and tilelang write and map code; a real StateDirectory for HOME and every cache,
because a .so behind a symlink into a 0700 tree cannot be mapped; AF_NETLINK for NCCL's
getifaddrs). ExecStart is exactly one line whose words survive systemd's own unquoting: each
argument is quoted for systemd's parser, with `%` and `$` escaped, so a JSON argument reaches the
engine byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from servebox.deploy.spec import Host, Model, Router, Spec

SAFE_WORD = re.compile(r"^[A-Za-z0-9_@+=:,./-]+$")
STATE_ROOT = "/var/lib/servebox"
CONFIG_CREDENTIAL = "llama-swap.yaml"
# vLLM's uvicorn writes two access-log lines per request, and the router polls /health every few seconds:
# the engine's journal grows without a request served. vLLM 0.32's make_arg_parser accepts this flag
# (launchers/cli_args.py: disable_uvicorn_access_log, checked by parsing it in tests/test_render_cluster.py).
QUIET_ACCESS_LOG = "--disable-uvicorn-access-log"
# Flags that vLLM defines as BooleanOptionalAction: false renders as --no-<flag>.
NEGATABLE = {"enable-prefix-caching", "enable-chunked-prefill", "async-scheduling", "enable-log-requests"}


def systemd_quote(arg: str) -> str:
    """One word for systemd's command-line parser: specifiers (%) and variables ($) escaped, quotes when needed."""
    escaped = arg.replace("%", "%%").replace("$", "$$")
    if SAFE_WORD.match(escaped):
        return escaped
    inner = escaped.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{inner}"'


def systemd_unquote_runtime(word: str) -> str:
    """What the process receives of a word systemd's parser produced: `$$` collapses at exec time."""
    return word.replace("$$", "$")


def flag_args(flags: dict[str, Any]) -> list[str]:
    """vLLM/llama.cpp flags by their own names -> argv, JSON values serialised as JSON."""
    args: list[str] = []
    for key, value in flags.items():
        flag = "--" + key.lstrip("-") if not key.startswith("-") else key
        if value is True:
            args.append(flag)
        elif value is False:
            if key.lstrip("-") in NEGATABLE:
                args.append("--no-" + key.lstrip("-"))
        elif value is None:
            continue
        elif isinstance(value, dict | list):
            args += [flag, json.dumps(value)]
        else:
            args += [flag, str(value)]
    return args


def engine_argv(model: Model) -> list[str]:
    if model.engine == "vllm":
        python = f"{model.venv}/bin/python" if model.venv else "/usr/bin/python3"
        head = [
            python,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            model.checkpoint,
            "--host",
            "127.0.0.1",
            "--port",
            str(model.port),
            "--served-model-name",
            model.name,
        ]
        if not {"disable-uvicorn-access-log", "--disable-uvicorn-access-log"} & set(model.flags):
            head.append(QUIET_ACCESS_LOG)
    else:
        head = [
            model.binary or "llama-server",
            "-m",
            model.checkpoint,
            "--host",
            "127.0.0.1",
            "--port",
            str(model.port),
            "--alias",
            model.name,
        ]
    return head + flag_args(model.flags)


def service_user(model: Model) -> str:
    """The system user an engine unit runs as: `servebox-NAME` when NAME makes a valid user name
    (systemd-sysusers: at most 31 characters, no dots), else a short form with a hash of NAME."""
    if re.fullmatch(r"[A-Za-z0-9_-]{1,22}", model.name):
        return f"servebox-{model.name}"
    digest = hashlib.sha256(model.name.encode()).hexdigest()[:8]
    return f"servebox-{re.sub(r'[^A-Za-z0-9_-]', '_', model.name)[:13]}-{digest}"


def sysusers(spec: Spec) -> str:
    """A sysusers.d(5) file creating each engine unit's user (the router runs with DynamicUser=)."""
    lines = [
        f'u {service_user(m)} - "servebox engine {m.name}" {state_dir(m)} -'
        for m in spec.models
        if m.own_unit
    ]
    if not lines:
        return ""
    return (
        "# servebox: the users its engine units run as; install into /etc/sysusers.d/, then run systemd-sysusers\n"
        + "\n".join(lines)
        + "\n"
    )


def state_dir(model: Model) -> str:
    return f"{STATE_ROOT}/{model.name}"


def cache_environment(model: Model) -> dict[str, str]:
    """HOME and every JIT cache inside the unit's StateDirectory (real, mappable, persistent)."""
    root = state_dir(model)
    return {
        "HOME": root,
        "XDG_CACHE_HOME": f"{root}/cache",
        "TRITON_CACHE_DIR": f"{root}/cache/triton",
        "TORCHINDUCTOR_CACHE_DIR": f"{root}/cache/torchinductor",
        "TILELANG_CACHE_DIR": f"{root}/cache/tilelang",
        "VLLM_CACHE_ROOT": f"{root}/cache/vllm",
        "HF_HOME": f"{root}/cache/huggingface",
        "HF_HUB_OFFLINE": "1",
        "VLLM_NO_USAGE_STATS": "1",
    }


def toolchain_environment(model: Model) -> dict[str, str]:
    t = model.toolchain
    env: dict[str, str] = {}
    if t.cuda_home:
        env["CUDA_HOME"] = t.cuda_home
    if t.triton_libcuda_path:
        env["TRITON_LIBCUDA_PATH"] = t.triton_libcuda_path
    if t.cc:
        env["CC"] = t.cc
    if t.cxx:
        env["CXX"] = t.cxx
    if t.ld_library_path:
        env["LD_LIBRARY_PATH"] = ":".join(t.ld_library_path)
    if t.nvcc_prepend_flags:
        env["NVCC_PREPEND_FLAGS"] = t.nvcc_prepend_flags
    return env


def environment_file(model: Model) -> str:
    """KEY=value lines for EnvironmentFile=, values quoted the way systemd reads them."""
    env = {**toolchain_environment(model), **model.env}
    lines = [f"# servebox: environment of {model.name}"]
    for key, value in env.items():
        if "\n" in value:
            raise ValueError(f"environment value of {key} holds a newline")
        lines.append(f'{key}="{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"')
    return "\n".join(lines) + "\n"


def gpu_devices(spec: Spec, model: Model, host: Host | None = None) -> list[str]:
    """The device nodes MODEL's unit may open on HOST (default the spec's one box)."""
    indexes = model.gpus or list(range(len((host or spec.host).gpus) or 1))
    return ["/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"] + [
        f"/dev/nvidia{i}" for i in indexes
    ]


# What both tiers share: no privileges, a read-only system, private /tmp, kernel and control groups untouchable.
BASE_HARDENING = """\
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RemoveIPC=yes
CapabilityBoundingSet=
AmbientCapabilities=
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM
UMask=0077
"""

# The engine tier: everything that does not break a JIT engine, plus netlink for NCCL and localhost-only IP.
JIT_SAFE_HARDENING = (
    BASE_HARDENING
    + """\
SystemCallFilter=~@privileged @mount @swap @reboot @obsolete @cpu-emulation @debug @module @raw-io
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
IPAddressDeny=any
# MemoryDenyWriteExecute is deliberately absent: a JIT engine (Triton, TorchInductor, tilelang) maps the code it writes.
"""
)

# The web tier of the router: W^X on, its own user namespace, no resource-tuning syscalls, no netlink.
WEB_HARDENING = (
    BASE_HARDENING
    + """\
PrivateUsers=yes
ProcSubset=pid
MemoryDenyWriteExecute=yes
SystemCallFilter=~@privileged @resources @mount @swap @reboot @obsolete @cpu-emulation @debug @module @raw-io
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
"""
)


@dataclass(frozen=True)
class Placement:
    """What an engine-tier unit runs and where: the defaults are the one-box engine; a cluster node
    (deploy/cluster_units.py) gives its own argv, its host, its role and the peers it must reach."""

    argv: list[str] | None = None
    host: Host | None = None
    role: str = "engine"
    peers: tuple[str, ...] = ()  # IP addresses beyond localhost the unit may talk to (NCCL, Gloo, Ray)
    unit_lines: tuple[str, ...] = ()  # extra [Unit] directives (ordering, a shared /tmp)
    environment: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # comment lines for the operator


def engine_unit(spec: Spec, model: Model, env_path: str, placement: Placement | None = None) -> str:
    where = placement or Placement()
    argv = where.argv or engine_argv(model)
    env = {**cache_environment(model), **where.environment}
    devices = "\n".join(f"DeviceAllow={d} rw" for d in gpu_devices(spec, model, where.host))
    memory = f"MemoryMax={model.memory_max_gib:g}G\n" if model.memory_max_gib else ""
    allow = " ".join(["localhost", *where.peers])
    return (
        "".join(f"# {note}\n" for note in where.notes)
        + f"""[Unit]
Description=servebox {where.role} {model.name} ({model.engine})
Documentation=man:systemd.exec(5)
After=network-online.target
Wants=network-online.target
"""
        + "".join(f"{line}\n" for line in where.unit_lines)
        + f"""StartLimitIntervalSec={max(600, model.cold_start_s * 6)}
StartLimitBurst=5

[Service]
Type=exec
User={service_user(model)}
Group={service_user(model)}
DynamicUser=no
StateDirectory=servebox/{model.name}
StateDirectoryMode=0750
WorkingDirectory={state_dir(model)}
"""
        + "".join(f"Environment={systemd_quote(f'{k}={v}')}\n" for k, v in env.items())
        + f"""EnvironmentFile=-{env_path}
ExecStart={" ".join(systemd_quote(a) for a in argv)}
Restart=on-failure
RestartSec=15
TimeoutStartSec={model.cold_start_s * 3 + 60}
TimeoutStopSec=90
KillMode=control-group
LimitMEMLOCK={model.memlock}
{memory}DevicePolicy=closed
{devices}
IPAddressAllow={allow}
"""
        + JIT_SAFE_HARDENING
        + """
[Install]
WantedBy=multi-user.target
"""
    )


def router_unit(spec: Spec, config_path: str) -> str:
    r: Router = spec.router
    managed = [m for m in spec.models if not m.own_unit]
    if managed:  # llama.cpp children run inside the router's unit and need the GPUs (their kernels are built ahead: W^X is fine)
        devices = "DevicePolicy=closed\n" + "".join(
            f"DeviceAllow={d} rw\n" for d in sorted({d for m in managed for d in gpu_devices(spec, m)})
        )
        private_devices = ""
    else:
        devices = ""
        private_devices = "PrivateDevices=yes\n"
    # The config may hold API keys: it stays root-only (0600) on disk, and systemd hands the
    # dynamic user a copy in the unit's private credentials directory (%d).
    exec_start = " ".join(
        [systemd_quote(r.binary), "--config", f"%d/{CONFIG_CREDENTIAL}", "--listen", systemd_quote(r.listen)]
    )
    return (
        f"""[Unit]
Description=servebox router (llama-swap) on {r.listen}
After=network-online.target
Wants=network-online.target

[Service]
Type=exec
DynamicUser=yes
StateDirectory=servebox/router
CacheDirectory=servebox/router
Environment=HOME=/var/lib/servebox/router
LoadCredential={CONFIG_CREDENTIAL}:{config_path}
ExecStart={exec_start}
Restart=on-failure
RestartSec=5
{devices}{private_devices}"""
        + WEB_HARDENING
        + """
[Install]
WantedBy=multi-user.target
"""
    )
