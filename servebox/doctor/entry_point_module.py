"""A plugin entry point naming a module its package does not ship (learn53c, fresh-491's misspelt general plugin).

vLLM's plugins/__init__.py load_plugins_by_group calls `plugin.load()` on each entry point of a plugin group inside a
try, and on any exception logs 'Failed to load plugin NAME' (plugin_load.py reads that story). EntryPoint.load
(importlib/metadata/__init__.py, or the importlib_metadata backport) does `import_module(match.group('module'))` on the
entry point's own `module:attr` value. Where the import error is raised right there, with no frame of the plugin's own
file between the loader and Python's import machinery, Python never found the module the entry point names: the
package's pyproject names a module it does not ship (a misspelt or renamed module), or the package's files are gone
beside its metadata. Installing the missing name (python-module-missing's fix) is no fix: the name is not a package
anyone ships. So the causes that read only that exception's lines step aside, and the marker 'Failed to load plugin'
(vllm-plugin-not-loaded) answers, its cause and fix naming the entry point. An import error raised below a module of
the plugin's own (its `import x` line, a frame of its file) is a dependency the plugin lacks: that stays as it was.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.plugin_load import MARKER, plugin_exceptions
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis, RaisedException
    from servebox.doctor.triage import Triage

ENTRY_POINT_LOAD = re.compile(r"(?:^|/)importlib(?:/|_)metadata/__init__\.py:\d+$")
MISSING = re.compile(r"No module named '(?P<module>[\w.]+)'")
CAUSE = answer_text("entry_point_module", "cause")
FIX = answer_text("entry_point_module", "fix")


def entry_point_missing(exc: RaisedException) -> str:
    """The module name, where an import error was raised by EntryPoint.load's own import (no plugin file imported)."""
    m = MISSING.search(exc.message)
    return m["module"] if m and ENTRY_POINT_LOAD.search(exc.importer) else ""


def entry_point_aside(t: Triage, raised: list[RaisedException]) -> None:
    """Drop the cause hits (other than the marker) whose every line lies in such an exception vLLM caught loading a
    plugin; remember the module for the marker's text (entry_point_named)."""
    caught = plugin_exceptions(t, raised) if MARKER in t.hits else {}
    missing = [e for e in raised if e.line in caught and entry_point_missing(e)]
    spans = {n for e in missing for n in e.span(t.exception_ends)}
    if not spans:
        return
    roles = {sig.id: sig.role for sig in t.signatures}
    for sid, hit in list(t.hits.items()):
        if (
            sid != MARKER
            and roles.get(sid) == "cause"
            and hit.evidence
            and all(n in spans for n, _ in hit.evidence)
        ):
            del t.hits[sid]
    t.hits[MARKER].groups["entry_point_module"] = entry_point_missing(missing[0])


def entry_point_named(t: Triage, diagnoses: list[Diagnosis]) -> None:
    """The marker's cause and fix say the entry point names a module that is not there (entry_point_aside found one)."""
    hit = t.hits.get(MARKER)
    module = hit.groups.get("entry_point_module", "") if hit is not None else ""
    for d in diagnoses:
        if module and d.id == MARKER and d.role == "cause":
            d.cause += CAUSE.format(module=module)
            d.fix = FIX  # not 'install what it imports': nothing of the plugin's ran
