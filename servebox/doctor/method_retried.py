"""A 405 the client put right: the same route answered with success after it (learn55b).

Why (fresh-522's fresh522-vllm-04-messages-count-tokens-get: a GET to vLLM's POST-only /v1/messages/count_tokens, answered
405 Method Not Allowed): request-method-not-allowed names the refused method as the cause. A client that then sent the
route its method (a user who retried with curl -X POST, an SDK falling back) and got a 2xx for it failed at nothing in the
end: uvicorn's access log shows the 405 and, below it, '"POST /v1/messages/count_tokens HTTP/1.1" 200 OK' (the
request-answered progress entry's line). Then the 405 is no cause and its hit is dropped. Only the answered lines the
progress entry keeps (its first few) are read: a retry past them leaves the 405 standing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

REFUSED = "request-method-not-allowed"
ANSWERED = "request-answered"  # knowledge/engine-runtime.toml: '"POST /PATH HTTP/1.1" 2xx', llama-server's 'request: POST'


def _names_route(text: str, path: str) -> bool:
    """Whether an answered request's line is for `path` (the path alone, or with a query)."""
    return f" {path} " in text or f" {path}?" in text


def retried_aside(t: Triage) -> None:
    """Drop request-method-not-allowed where a request to the same route was answered with success below its first
    line (not its last: a pasted log puts the client's view of the 405 after the server's access lines, the retry's
    among them): the client sent the route's method after all, and nothing failed."""
    hit, answered = t.hits.get(REFUSED), t.hits.get(ANSWERED)
    if hit is None or answered is None or hit.relayed:
        return
    path = hit.groups.get("path")
    if not path:
        return
    if any(n > hit.first_line and _names_route(text, path) for n, text in answered.evidence):
        del t.hits[REFUSED]
