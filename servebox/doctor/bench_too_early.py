"""A benchmark refused a connection by a server the log shows still starting: it ran before the server listened.

learn48c (fresh-425's fresh425-vllm-05-bench-serve-while-server-loading, read as peer-connection-refused 0.50):
vllm bench serve 0.32 skips its endpoint ready check by default (--ready-check-timeout-sec 0: 'Skipping endpoint ready
check.'), so started before the server listens it sends every request at once, each failing with ConnectionRefusedError
/ ClientConnectorError ('Connect call failed'), and exits 0. A vLLM server opens its port only after its model has loaded
and warmed up; until then a connection to it is refused exactly as to a port nothing serves. So 'connection refused'
alone cannot tell 'not up yet' from 'not running' or 'another port' (peer-connection-refused, a symptom, names them
all). The log tells them apart only where it shows the server's own start (vLLM's start lines that knowledge/engine-runtime.toml's progress
entries read: progress-compile's 'Loading weights took' / 'Warming up done' / 'Application startup complete',
progress-step-opened's warm-up, server-listening's 'Starting vLLM server on URL'; not llama-server's, which listens
before it loads and answers 503 instead of refusing), with no death of the server to
explain the refusal (a fatal cause found) and the same port as the benchmark asked (bench's --port / --base-url or the
refused address; a server on another port is a wrong port, not a slow start): then server-still-loading-model.
"""

from __future__ import annotations

import re

from servebox.doctor.bench_context import first_lines
from servebox.doctor.results import Diagnosis
from servebox.doctor.texts import answer_text

REFUSED, BENCH = "peer-connection-refused", "bench-model-named"
# vLLM's start lines, the one that says the port first
STARTING = ("server-listening", "progress-compile", "progress-step-opened")
SERVER_LINES = ("server-served-names-shown", "server-model-tag-shown")
LOADING = "server-still-loading-model"
DEFAULT_PORT = "8000"  # vllm serve's and vllm bench serve's default --port
REFUSED_PORT = re.compile(r"Connect call failed \('[^']*', (\d+)\)|Cannot connect to host \S+?:(\d+)\b")
BENCH_PORT = re.compile(r"--port[= ](\d+)|--base-url[= ]\S+?:(\d+)")
LISTEN_PORT = re.compile(r"server(?: \d+)? on https?://\S*?:(\d+)|--port[= ](\d+)")
CAUSE = answer_text("bench_too_early", "cause")
FIX = answer_text("bench_too_early", "fix")
SURE = 0.75


def _first(pattern: re.Pattern, texts) -> str:
    for text in texts:
        if (m := pattern.search(text)) is not None:
            return next(g for g in m.groups() if g)
    return ""


def _texts(*hits) -> list[str]:
    return [text for h in hits if h is not None for _, text in h.evidence]


def bench_before_server_up(t, diagnoses) -> Diagnosis | None:
    """server-still-loading-model where vllm bench serve was refused connections on the port a vLLM server the log
    shows starting was to listen on, and no fatal cause explains the refusal; None otherwise (then the refusal stays
    peer-connection-refused's: the log cannot say whether the server was starting, dead or elsewhere)."""
    refused, bench = t.hits.get(REFUSED), t.hits.get(BENCH)
    starting = next((t.hits[i] for i in STARTING if i in t.hits), None)
    if refused is None or bench is None or starting is None or refused.weak and not refused.evidence:
        return None
    if any(d.role == "cause" and d.fatal for d in diagnoses):
        return None  # the server died (or something else stopped the run): that cause, not a slow start
    asked = _first(BENCH_PORT, _texts(bench)) or _first(REFUSED_PORT, _texts(refused)) or DEFAULT_PORT
    listens = _first(LISTEN_PORT, _texts(starting, *(t.hits.get(i) for i in SERVER_LINES))) or DEFAULT_PORT
    if asked != listens:
        return None  # a server on another port: a wrong port, which the refusal's own reading names
    start_text = starting.evidence[0][1] if starting.evidence else "its start"
    return Diagnosis(
        id=LOADING,
        category="requests",
        role="cause",
        cause=CAUSE.format(
            port=asked, start=starting.first_line, start_text=start_text[:160], refused=refused.first_line
        ),
        fix=FIX.format(port=asked),
        confidence=SURE,
        occurrences=refused.count,
        first_line=refused.first_line,
        evidence=first_lines(*(bench, starting, refused)),
        fatal=False,
    )
