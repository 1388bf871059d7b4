"""A plugin vLLM could not load, and went on without (learn46e, fresh-399's general plugins).

vLLM's plugins/__init__.py load_plugins_by_group imports each entry point of a plugin group (vllm.general_plugins,
vllm.platform_plugins, vllm.io_processor_plugins, vllm.endpoint_plugins, vllm.stat_logger_plugins) inside `try: plugin.load()` and on any
exception logs 'Failed to load plugin NAME' with the traceback (logger.exception; io_processors' own loop 'Failed to
load plugin NAME.' with exc_info), then goes on without it; load_endpoint_plugins likewise 'Failed to instantiate
endpoint plugin NAME'. Every process that loads plugins (API server, engine core, each worker) prints it again. The
engine starts and serves, but what the plugin adds is absent: that is the log's story where nothing else failed.

So the exception printed under such a line (the first of that process after it) is caught, never the root, and a
cause whose every line is such an exception (python-module-missing for a dependency the plugin lacks,
vllm-internal-module-moved for a plugin written for another vLLM) stays the answer, but non-fatal and below the
confident line, and below any real failure where the server never came up. The marker entry itself (MARKER) answers
where no family names the plugin's exception, and is only a note where one does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.afterwards import serving_after
from servebox.doctor.structure import split_prefix
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis, RaisedException
    from servebox.doctor.triage import Hits, Triage

MARKER = "vllm-plugin-not-loaded"  # knowledge/engine-config.toml: 'Failed to load plugin NAME'
SPAN = 120  # lines a plugin's import traceback may take below its marker (nested imports add frames)
SERVED_ON = 0.5  # the server came up without the plugin: the answer where nothing else failed
NOT_UP = 0.4  # the server never came up: below a real failure (an unexplained exception answers at 0.45)
CAUSE = answer_text("plugin_load", "cause")
FIX = answer_text("plugin_load", "fix")


def _markers(t: Triage) -> list[tuple[int, str, str]]:
    """(line, component, plugin name) of the marker lines the triage kept (its first few and its last)."""
    hit = t.hits.get(MARKER)
    sig = t.signature(MARKER)
    if hit is None or sig is None:
        return []
    out = []
    for n, text in hit.evidence:
        m = sig.search(text)
        out.append((n, split_prefix(text).component, (m and m.groupdict().get("plugin")) or ""))
    if hit.last_line not in {n for n, _, _ in out}:
        out.append((hit.last_line, out[-1][1] if out else "", hit.groups.get("plugin", "")))
    return out


def plugin_exceptions(t: Triage, raised: list[RaisedException]) -> dict[int, tuple[str, int]]:
    """Line of each exception vLLM caught loading a plugin -> (plugin name, marker line): the first exception the same
    process printed within SPAN lines below a marker, raised under the plugin loader (a vllm/plugins/ frame among the
    innermost vLLM frames, or none of vLLM's: the plugin's own import chain), not a later failure of vLLM's own."""
    found: dict[int, tuple[str, int]] = {}
    for line, component, plugin in _markers(t):
        exc = next((e for e in raised if line < e.line <= line + SPAN and e.component == component), None)
        if exc is not None and _under_loader(exc):
            found[exc.line] = (plugin, line)
    return found


def _under_loader(exc: RaisedException) -> bool:
    return not exc.engine_frames or any(f.startswith("vllm/plugins/") for f in exc.engine_frames)


def lines_of(t: Triage, raised: list[RaisedException]) -> set[int]:
    """Every line those exceptions span (rank's `consumed`: never the root)."""
    ends = t.exception_ends
    return {n for line in plugin_exceptions(t, raised) for n in range(line, ends.get(line, line) + 1)}


def plugin_skipped(d: Diagnosis, t: Triage, hit: Hits) -> bool:
    """A cause whose every line is an exception vLLM caught loading a plugin: non-fatal, at SERVED_ON where the server
    came up after it (NOT_UP otherwise), its text saying the engine went on without the plugin."""
    if d.role != "cause" or d.id == MARKER or not hit.evidence or MARKER not in t.hits:
        return False  # no plugin failed to load: nothing to sort or search (this runs for every cause of every log)
    raised = sorted(t.raised.values(), key=lambda e: e.line)
    caught = plugin_exceptions(t, raised)
    ends = t.exception_ends
    spans = {n: at for at in caught for n in range(at, ends.get(at, at) + 1)}
    if not all(n in spans for n, _ in hit.evidence):
        return False
    plugin, marker = caught[spans[hit.evidence[0][0]]]
    up = serving_after(t, hit.last_line)
    d.fatal, d.confidence = False, min(d.confidence, SERVED_ON if up else NOT_UP)
    where = f" (the server came up at line {up})" if up else ""
    d.cause = CAUSE.format(plugin=plugin, line=marker, up=where) + d.cause
    d.fix = FIX + d.fix
    return True


def marker_aside(diagnoses: list[Diagnosis]) -> None:
    """Where a family names the plugin's exception (plugin_skipped rewrote it), the marker is only a note beside it."""
    said = CAUSE.split("{", 1)[0]
    if not any(d.id != MARKER and d.cause.startswith(said) for d in diagnoses):
        return
    for d in diagnoses:
        if d.id == MARKER and d.role == "cause":
            d.role, d.confidence = "note", min(d.confidence, 0.3)
