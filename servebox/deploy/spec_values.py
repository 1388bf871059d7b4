"""Value rules for the spec: what a string may hold before it lands in a systemd unit.

A unit file is line-oriented and its ExecStart words take special prefixes, so types alone are not
enough: a newline in any value adds a directive, and `+`, `!`, `-`, `@`, `:` in front of a binary
change how systemd runs it (`+` runs it as root outside the sandbox). Every string is refused if it
holds a control character; paths must be absolute (which also rules out the prefixes); numbers must
be finite and in range; listen addresses are parsed (IPv4, `[IPv6]:port`, a resolvable hostname).
"""

from __future__ import annotations

import ipaddress
import math
import re
import socket
import threading
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

from servebox.checkpoint.hub_id import HUB_REPO_RE

CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# The ExecStart prefixes of systemd.service(5) (and `|` of newer releases).
SYSTEMD_PREFIXES = "+-!@:|"
NAME_RE = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$")
HOSTNAME_RE = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)
FLAG_NAME_RE = re.compile(r"^-{0,2}[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MEMLOCK_RE = re.compile(r"^(infinity|[0-9]{1,18}[KMGTPE]?)(:(infinity|[0-9]{1,18}[KMGTPE]?))?$")
RESOLVE_TIMEOUT_S = 3.0
MAX_FLAG_DEPTH = 8


def control_character(value: str) -> str | None:
    """The first control character in VALUE, as U+XXXX, or None."""
    match = CONTROL_RE.search(value)
    return f"U+{ord(match.group()):04X}" if match else None


def no_control(value: str) -> str:
    bad = control_character(value)
    if bad:
        raise ValueError(f"holds a control character ({bad}): a newline would add a systemd directive")
    return value


def absolute_path(value: str) -> str:
    no_control(value)
    if value[:1] and value[0] in SYSTEMD_PREFIXES:
        raise ValueError(
            f"starts with {value[0]!r}, one of systemd's special prefixes ({SYSTEMD_PREFIXES}): "
            "'+' would run the engine as root outside the sandbox"
        )
    if not value.startswith("/"):
        raise ValueError(f"must be an absolute path, got {value!r}")
    return value


def checkpoint_ref(value: str) -> str:
    """An absolute path or a hub repo id: never something the engine reads as an option."""
    no_control(value)
    if value.startswith("/") or HUB_REPO_RE.match(value):
        return value
    raise ValueError(f"must be an absolute path or a hub repo id 'org/name', got {value!r}")


def name(value: str) -> str:
    if not NAME_RE.match(value):
        raise ValueError(
            "must be 1-64 characters of letters, digits, '_', '.', '-', starting with a letter or digit"
        )
    return value


def hostname(value: str) -> str:
    if not HOSTNAME_RE.match(value):
        raise ValueError(f"not a host name: {value!r}")
    return value


def memlock(value: str) -> str:
    if not MEMLOCK_RE.match(value):
        raise ValueError(f"must be 'infinity' or a size like 64M (LimitMEMLOCK=), got {value!r}")
    return value


def api_key(value: str) -> str:
    no_control(value)
    if not value or any(c.isspace() for c in value):
        raise ValueError("an API key must be non-empty and hold no whitespace")
    return value


Text = Annotated[str, StringConstraints(max_length=4096), AfterValidator(no_control)]
AbsPath = Annotated[str, StringConstraints(max_length=4096), AfterValidator(absolute_path)]
CheckpointRef = Annotated[str, StringConstraints(max_length=4096), AfterValidator(checkpoint_ref)]
Name = Annotated[str, AfterValidator(name)]
HostName = Annotated[str, AfterValidator(hostname)]
Memlock = Annotated[str, AfterValidator(memlock)]
ApiKey = Annotated[str, StringConstraints(max_length=512), AfterValidator(api_key)]


def _resolves(host: str) -> bool:
    """getaddrinfo in a thread, waited on for RESOLVE_TIMEOUT_S: a dead resolver cannot hang render."""
    result: list[bool] = []

    def lookup() -> None:
        try:
            result.append(bool(socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)))
        except (OSError, UnicodeError):
            result.append(False)

    thread = threading.Thread(target=lookup, daemon=True)
    thread.start()
    thread.join(RESOLVE_TIMEOUT_S)
    return bool(result and result[0])


def parse_listen(value: str) -> tuple[str, int]:
    """HOST:PORT, [IPv6]:PORT or :PORT (every interface) -> (host, port); the host is an IP address
    or a name that resolves here."""
    no_control(value)
    bracketed = re.fullmatch(r"\[([^\]]+)\]:([0-9]{1,5})", value)
    if bracketed:
        try:
            host = str(ipaddress.IPv6Address(bracketed.group(1)))
        except ValueError:
            raise ValueError(f"{bracketed.group(1)!r} is not an IPv6 address") from None
        port_text = bracketed.group(2)
    else:
        host, sep, port_text = value.rpartition(":")
        if not sep or not re.fullmatch(r"[0-9]{1,5}", port_text):
            raise ValueError(f"must be HOST:PORT, [IPv6]:PORT or :PORT, got {value!r}")
        if ":" in host:
            raise ValueError(f"an IPv6 address needs brackets, e.g. [::1]:{port_text}")
        if host and not _is_ipv4(host):
            hostname(host)
            if not _resolves(host):
                raise ValueError(f"host {host!r} does not resolve on this machine")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} is outside 1-65535")
    return host, port


def _is_ipv4(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


def check_flag_value(value: Any, where: str, depth: int = 0) -> None:
    """A flag value is a finite number, a bool, a clean string, or JSON of those (bounded depth)."""
    if depth > MAX_FLAG_DEPTH:
        raise ValueError(f"{where}: nested deeper than {MAX_FLAG_DEPTH} levels")
    if isinstance(value, str):
        bad = control_character(value)
        if bad:
            raise ValueError(f"{where}: holds a control character ({bad})")
        if len(value) > 65536:
            raise ValueError(f"{where}: longer than 65536 characters")
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where}: must be a finite number")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_flag_value(item, f"{where}[{i}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_flag_value(key, f"{where} key", depth + 1)
            check_flag_value(item, f"{where}.{key}", depth + 1)
    elif not isinstance(value, bool | int | float) and value is not None:
        raise ValueError(f"{where}: a {type(value).__name__} is not a flag value")


# the flags render writes itself from the model's own fields (systemd.engine_argv): a second copy in `flags` is argv
# twice, and the engine takes the last (fresh-507 draw 10: a checkpoint and a flags `model` served the flags' one)
SET_FROM_SPEC = {
    "vllm": {"model": "checkpoint", "host": "", "port": "port", "served-model-name": "name"},
    "llama.cpp": {
        "m": "checkpoint",
        "model": "checkpoint",
        "host": "",
        "port": "port",
        "a": "name",
        "alias": "name",
    },
}


def set_from_spec(engine: str, flags: dict[str, Any]) -> str | None:
    """The first flag of `flags` that render already sets for this engine, as a one-line refusal; None if none."""
    for key in flags:
        field = SET_FROM_SPEC[engine].get(key.lstrip("-").replace("_", "-"))
        if field is not None:
            where = (
                f"from the model's `{field}`; set that instead" if field else "(127.0.0.1, behind the router)"
            )
            return f"flags.{key}: servebox writes this {engine} flag itself {where}"
    return None


def check_flags(flags: dict[str, Any]) -> dict[str, Any]:
    for key, value in flags.items():
        if not FLAG_NAME_RE.match(key):
            raise ValueError(f"flag name {key!r} must be letters, digits, '-', '_', '.' (at most 64)")
        check_flag_value(value, key)
    return flags


def find_control_characters(data: Any, path: str = "") -> tuple[str, str] | None:
    """(key path, U+XXXX) of the first control character in any key or string of a parsed TOML tree."""
    if isinstance(data, str):
        bad = control_character(data)
        return (path, bad) if bad else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        shown = key.encode("unicode_escape").decode("ascii") if isinstance(key, str) else key
        where = f"{path}[{shown}]" if isinstance(key, int) else (f"{path}.{shown}" if path else str(shown))
        if isinstance(key, str) and control_character(key):
            return where, control_character(key) or ""
        found = find_control_characters(value, where)
        if found:
            return found
    return None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)
