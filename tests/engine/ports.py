"""A free TCP port inside a given range: a test that shares the machine with other engineers' runs
keeps to the ports it was given (servebox's own free_port helper takes any the kernel offers)."""

from __future__ import annotations

import socket


def free_port_in(low: int, high: int, taken: set[int] | None = None) -> int:
    """The first port in [LOW, HIGH] that binds on 127.0.0.1 and is not in TAKEN."""
    for port in range(low, high + 1):
        if taken and port in taken:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {low}-{high}")
