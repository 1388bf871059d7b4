"""llama-server's command line, with its own flag names and defaults (common/arg.cpp, common/common.h and
tools/server/server.cpp of the pinned build), reduced to what decides memory.

Flags that do not change memory (--host, --port, --jinja, -t, ...) are accepted and listed as ignored, so
a real command line can be pasted; an unknown flag or a bad value is bad input naming the flag.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from servebox.errors import InputError

CACHE_TYPES = ("f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1")
EXPS_REGEX = r"\.ffn_(up|down|gate|gate_up)_(ch|)exps"
DENSE_FFN_REGEX = r"\.ffn_(up|down|gate)\."


class Override(BaseModel):
    pattern: str
    buffer: str  # CPU, CUDA0, ...


class ServerFlags(BaseModel):
    model: str | None = None
    ctx_size: int = 0  # 0 = the model's trained context
    parallel: int = -1  # -1 = auto: 4 slots and a unified KV cache (server.cpp)
    kv_unified: bool | None = None
    n_gpu_layers: int = -1  # -1 auto (all, then --fit), -2 all
    tensor_split: list[float] = []
    split_mode: str = "layer"
    main_gpu: int = 0
    overrides: list[Override] = []
    cache_type_k: str = "f16"
    cache_type_v: str = "f16"
    flash_attn: str = "auto"
    swa_full: bool = False
    batch: int = 2048
    ubatch: int = 512
    kv_offload: bool = True
    mmap: bool = True
    repack: bool = True  # the CPU backend's weight repacking (--no-repack turns it off)
    mmproj: str | None = None
    fit: bool = True
    fit_ctx: int = 4096
    fit_target_mib: list[int] = [1024]
    chat_template_kwargs: dict = {}
    ignored: list[str] = []  # accepted by llama-server, no effect on memory
    unknown: list[str] = []  # not accepted by the pinned llama-server: it would exit with 'invalid argument'
    # 'FLAG VALUE' whose unit or word llama.cpp drops after the number ('-c 8k' is 8)
    truncated: list[str] = []

    @property
    def n_seq(self) -> int:
        return 4 if self.parallel < 0 else max(1, self.parallel)

    @property
    def unified(self) -> bool:
        if self.kv_unified is not None:
            return self.kv_unified
        return self.parallel < 0

    @property
    def ctx_given(self) -> bool:
        return self.ctx_size > 0

    @property
    def ngl_given(self) -> bool:
        return self.n_gpu_layers >= 0


_VALUED = {
    "-m": "model", "--model": "model", "-c": "ctx_size", "--ctx-size": "ctx_size", "-np": "parallel",
    "--parallel": "parallel", "-ngl": "n_gpu_layers", "--gpu-layers": "n_gpu_layers",
    "--n-gpu-layers": "n_gpu_layers", "-ts": "tensor_split", "--tensor-split": "tensor_split",
    "-sm": "split_mode", "--split-mode": "split_mode", "-mg": "main_gpu", "--main-gpu": "main_gpu",
    "-ot": "override", "--override-tensor": "override", "-ncmoe": "n_cpu_moe", "--n-cpu-moe": "n_cpu_moe",
    "-ncffn": "n_cpu_ffn", "--n-cpu-ffn": "n_cpu_ffn", "-ctk": "cache_type_k", "--cache-type-k": "cache_type_k",
    "-ctv": "cache_type_v", "--cache-type-v": "cache_type_v", "-fa": "flash_attn", "--flash-attn": "flash_attn",
    "-b": "batch", "--batch-size": "batch", "-ub": "ubatch", "--ubatch-size": "ubatch", "-mm": "mmproj",
    "--mmproj": "mmproj", "-fit": "fit", "--fit": "fit", "-fitc": "fit_ctx", "--fit-ctx": "fit_ctx",
    "--chat-template-kwargs": "chat_template_kwargs", "-fitt": "fit_target_mib", "--fit-target": "fit_target_mib", "-lm": "load_mode", "--load-mode": "load_mode",
}  # fmt: skip
_SWITCHES = {
    "--swa-full": ("swa_full", True), "-nkvo": ("kv_offload", False), "--no-kv-offload": ("kv_offload", False),
    "-kvu": ("kv_unified", True), "--kv-unified": ("kv_unified", True), "-no-kvu": ("kv_unified", False),
    "--no-kv-unified": ("kv_unified", False), "--no-mmap": ("mmap", False), "--mmap": ("mmap", True),
    "-nr": ("repack", False), "--no-repack": ("repack", False), "-cmoe": ("cpu_moe", True), "--cpu-moe": ("cpu_moe", True),
}  # fmt: skip
# Flags that take a value but do not change memory: accepted so that a real command line parses.
_IGNORED_VALUED = {
    "--host", "--port", "-a", "--alias", "-t", "--threads", "-tb", "--threads-batch", "--temp", "--top-p",
    "--top-k", "--min-p", "--repeat-penalty", "-n", "--n-predict", "--chat-template", "--chat-template-file",
    "--reasoning-format", "--reasoning-budget", "--api-key", "--slot-save-path",
    "-to", "--timeout", "--seed", "-s", "--log-file", "--metrics-port", "--cache-reuse", "--rope-scaling",
    "--rope-scale", "--yarn-orig-ctx", "--rope-freq-base", "-dev", "--device", "--spec-default",
}  # fmt: skip


def _split(arg: str) -> tuple[str, str, str]:
    """A long flag's inline value ('--ctx-size=8192'): (flag, '=', value); any other token as (token, '', '')."""
    return arg.partition("=") if arg.startswith("--") else (arg, "", "")


# what std::stoi reads: the leading integer of a value; a unit or word after it is dropped without a word
_LEADING_INT = re.compile(r"\s*([+-]?\d+)")
# a number followed by a unit or word ('8GiB', '4k', '0.7x'): the shape llama.cpp silently truncates
_NUMBER_WITH_SUFFIX = re.compile(r"[+-]?\d+(?:\.\d*)?[A-Za-z%]+")


def _int(flag: str, value: str) -> int:
    """The value as llama-server reads it (std::stoi): '8k' is 8 (truncated() says so); no leading digits at all is
    what llama-server refuses too ('error while handling argument'), so bad input here."""
    leading = _LEADING_INT.match(value)
    if leading is None:
        raise InputError("llama-server flags", flag, f"expects an integer, got {value!r}")
    return int(leading[1])


@cache
def numeric_flags() -> frozenset[str]:
    """The flags llama.cpp reads with std::stoi / std::stof (tools/harvest_llamacpp_numeric_flags.py)."""
    data = tomllib.loads((Path(__file__).parent / "numeric_flags.toml").read_text())
    return frozenset(data["int"]) | frozenset(data["float"])


def truncated_values(args: list[str]) -> list[str]:
    """'FLAG VALUE' for each numeric flag whose value (or a comma-separated part of it) carries a unit or word
    after its number: llama.cpp keeps the number and drops the rest, so '--cache-ram 8GiB' is an 8 MiB cache."""
    out = []
    for i, arg in enumerate(args):
        flag, eq, inline = _split(arg)
        if flag not in numeric_flags():
            continue
        value = inline if eq else (args[i + 1] if i + 1 < len(args) else "")
        if any(_NUMBER_WITH_SUFFIX.fullmatch(part) for part in re.split(r"[,/]", value)):
            out.append(f"{flag} {value}")
    return out


def _apply(flags: dict, extra: dict, name: str, flag: str, value: str) -> None:
    if name in ("ctx_size", "parallel", "main_gpu", "batch", "ubatch", "fit_ctx"):
        flags[name] = _int(flag, value)
    elif name == "n_gpu_layers":
        flags[name] = {"auto": -1, "all": -2}.get(value) or _int(flag, value)
    elif name == "tensor_split":
        try:
            flags[name] = [float(v) for v in re.split(r"[,/]", value)]
        except ValueError:
            raise InputError("llama-server flags", flag, f"expects N0,N1,..., got {value!r}") from None
    elif name == "split_mode":
        if value not in ("none", "layer", "row", "tensor"):
            raise InputError("llama-server flags", flag, f"expects none|layer|row|tensor, got {value!r}")
        flags[name] = value
    elif name in ("cache_type_k", "cache_type_v"):
        if value.lower() not in CACHE_TYPES:
            raise InputError(
                "llama-server flags", flag, f"unknown cache type {value!r} ({', '.join(CACHE_TYPES)})"
            )
        flags[name] = value.lower()
    elif name == "flash_attn":
        flags[name] = _onoff(flag, value, allow_auto=True)
    elif name == "fit":
        flags[name] = _onoff(flag, value) == "on"
    elif name == "fit_target_mib":
        flags[name] = [_int(flag, v) for v in value.split(",")]
    elif name == "override":
        flags.setdefault("overrides", []).extend(_overrides(flag, value))
    elif name == "chat_template_kwargs":
        flags[name] = _json_object(flag, value)
    elif name == "load_mode":
        flags["mmap"] = value in ("auto", "mmap", "mmap+mlock")
    elif name in ("n_cpu_moe", "n_cpu_ffn"):
        extra[name] = _int(flag, value)
    else:
        flags[name] = value


def _json_object(flag: str, value: str) -> dict:
    import json

    try:
        data = json.loads(value)
    except ValueError as exc:
        raise InputError("llama-server flags", flag, f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InputError("llama-server flags", flag, "expects a JSON object")
    return data


def _onoff(flag: str, value: str, allow_auto: bool = False) -> str:
    v = value.lower()
    if v in ("on", "1", "true", "enabled"):
        return "on"
    if v in ("off", "0", "false", "disabled"):
        return "off"
    if allow_auto and v == "auto":
        return "auto"
    raise InputError(
        "llama-server flags", flag, f"expects on|off{'|auto' if allow_auto else ''}, got {value!r}"
    )


def _overrides(flag: str, value: str) -> list[Override]:
    out = []
    for item in value.split(","):
        pattern, sep, buffer = item.partition("=")
        if not sep or not pattern or not buffer:
            raise InputError("llama-server flags", flag, f"expects <pattern>=<buffer type>, got {item!r}")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise InputError("llama-server flags", flag, f"bad pattern {pattern!r}: {exc}") from None
        out.append(Override(pattern=pattern, buffer=buffer))
    return out


def _is_value(token: str) -> bool:
    """After an unknown flag: a number, a word or JSON is its value; a .gguf path is the model."""
    return not token.endswith(".gguf")


@cache
def accepted_flags() -> frozenset[str]:
    data = tomllib.loads((Path(__file__).parent / "server_flags.toml").read_text())
    return frozenset(data["accepted"])


@cache
def removed_flags() -> dict[str, str]:
    return tomllib.loads((Path(__file__).parent / "server_flags.toml").read_text())["removed"]


def parse_server_args(args: list[str]) -> ServerFlags:
    """Parse llama-server arguments (the program name and the model may lead)."""
    if args and args[0].endswith("llama-server"):
        args = args[1:]
    flags: dict = {}
    extra: dict = {}
    ignored: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        flag, eq, inline = _split(arg)
        if flag in _SWITCHES:
            name, value = _SWITCHES[flag]
            (extra if name == "cpu_moe" else flags)[name] = value
            i += 1
        elif flag in _VALUED or flag in _IGNORED_VALUED:
            if eq:
                value, i = inline, i + 1
            elif i + 1 < len(args):
                value, i = args[i + 1], i + 2
            else:
                raise InputError("llama-server flags", flag, "expects a value")
            if flag in _VALUED:
                _apply(flags, extra, _VALUED[flag], flag, value)
            else:
                ignored.append(flag)
        elif flag == "-fa" or flag == "--flash-attn":
            flags["flash_attn"], i = "on", i + 1
        elif flag.startswith("-"):
            # a flag that does not change memory (--jinja, --metrics, --ctx-checkpoints N, ...): its value too
            ignored.append(flag)
            nxt = args[i + 1] if not eq and i + 1 < len(args) and not args[i + 1].startswith("-") else None
            i += 2 if nxt is not None and ("model" in flags or _is_value(nxt)) else 1
        elif "model" not in flags:
            flags["model"], i = arg, i + 1
        else:
            raise InputError("llama-server flags", arg, "unexpected positional argument")
    seen = [_split(a)[0] for a in args if a.startswith("-") and a[1:2] != ""]
    unknown = [f for f in dict.fromkeys(seen) if f not in accepted_flags() and not _is_number(f)]
    overrides = list(flags.pop("overrides", []))
    if extra.get("cpu_moe"):
        overrides.append(Override(pattern=EXPS_REGEX, buffer="CPU"))
    for i in range(extra.get("n_cpu_moe", 0)):
        overrides.append(Override(pattern=rf"blk\.{i}{EXPS_REGEX}", buffer="CPU"))
    for i in range(extra.get("n_cpu_ffn", 0)):
        overrides.append(Override(pattern=rf"blk\.{i}{DENSE_FFN_REGEX}", buffer="CPU"))
    ignored = [f for f in ignored if f not in unknown]
    truncated = truncated_values(args)
    return ServerFlags(**flags, overrides=overrides, ignored=ignored, unknown=unknown, truncated=truncated)


def _is_number(token: str) -> bool:
    try:
        float(token)
        return True
    except ValueError:
        return False


def parse_server_command(command: str) -> ServerFlags:
    try:
        return parse_server_args(shlex.split(command))
    except ValueError as exc:
        raise InputError("llama-server command", None, f"cannot split: {exc}") from None
