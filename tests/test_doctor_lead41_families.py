"""Families the lead widened in stop 41, each on wordings other than the corpus log's (rendered from the source's
format strings, marked so), with a near miss that must not match."""

from __future__ import annotations

from tests.doctor_text import run, top_cause


def top(text: str) -> tuple[str, float]:
    d = top_cause(run(text))
    return (d.id, d.confidence) if d else ("", 0.0)


def test_asyncio_create_server_bind_refusal_is_the_address_not_on_this_machine():
    # asyncio base_events.create_server: 'error while attempting to bind on address %r: %s' (strerror lower-cased),
    # logged by uvicorn as 'ERROR:    ' + it; rendered here for an IPv6 tuple and a bare OSError line
    for line in (
        "ERROR:    [Errno 99] error while attempting to bind on address ('2001:db8::7', 8000, 0, 0): "
        "cannot assign requested address",
        "OSError: [Errno 99] error while attempting to bind on address ('10.9.9.9', 9000): cannot assign requested address",
    ):
        assert top(line) == ("bind-address-not-on-machine", 0.85), line


def test_a_numa_binding_refusal_is_not_the_listen_address():
    near = (
        "ERROR:    [Errno 99] error while attempting to numa bind on node 3: cannot assign requested address"
    )
    assert top(near)[0] != "bind-address-not-on-machine"
