"""A free TCP port inside a given range: a test that shares the machine with other engineers' runs
keeps to the ports it was given (servebox's own free_port helper takes any the kernel offers). The range is
walked from a random start: two clones running the suite at once took the same first free port, and one of
their engines found it bound by the other's a second later (measured: a fresh-clone CI pair)."""

from __future__ import annotations

import random
import socket


def free_port_in(low: int, high: int, taken: set[int] | None = None) -> int:
    """A port in [LOW, HIGH] that binds on 127.0.0.1 and is not in TAKEN, searched from a random start."""
    ports = list(range(low, high + 1))
    start = random.randrange(len(ports))
    for port in ports[start:] + ports[:start]:
        if taken and port in taken:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {low}-{high}")
