"""A model class registered by module path whose module is not there (learn47b, fresh-410's general plugin).

vLLM's ModelRegistry.register_model(ARCH, "MODULE:CLASS") (model_executor/models/registry.py, what a general plugin's
register() or a user's script calls) keeps the string; the class is imported only when the architecture is inspected or
loaded: _LazyRegisteredModel.load_model_cls does `importlib.import_module(self.module_name)` (in the inspection
subprocess, 'Error in inspecting model architecture ARCH' then "Model architectures [ARCH] failed to be inspected";
in-process, 'Error in loading model architecture ARCH'). Where that import itself fails with a DOTTED name missing
("No module named 'P.sub'", or "...; 'P' is not a package"), Python found P and not the submodule: the registered path
names a module the installed package does not ship (a single-module package, a renamed file), not a package to install
(python-module-missing) nor a file of the user's shadowing a library (engine-package-shadowed-by-source-tree). So the
causes that read only that exception's lines step aside, and the inspection symptom (its cause naming the registered
path) answers. A top-level name missing ("No module named 'P'") is a package not installed: that stays as it was, and
so does an import error raised below a module of the plugin's own (its frame, not the registry's, imported).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.results import RaisedException
    from servebox.doctor.triage import Triage

REGISTRY = re.compile(r"(?:^|/)vllm/model_executor/models/registry\.py:\d+$")
# a dotted name outside vLLM's own tree (vllm.* missing is a broken or moved install: other families read it)
SUBMODULE = re.compile(r"No module named '(?!vllm\.)(?P<module>\w+\.[\w.]+)'")


def registered_path_missing(exc: RaisedException) -> bool:
    """An import error the registry's load_model_cls raised itself, for a submodule of a package Python found."""
    return bool(REGISTRY.search(exc.importer) and SUBMODULE.search(exc.message))


def registered_module_aside(t: Triage, raised: list[RaisedException]) -> set[int]:
    """Drop the cause hits whose every line lies in such an exception (its message and the lines it spans); those
    lines (never the root: the symptom that follows answers)."""
    spans = {n for e in raised if registered_path_missing(e) for n in e.span(t.exception_ends)}
    if not spans:
        return spans
    roles = {sig.id: sig.role for sig in t.signatures}
    for sid, hit in list(t.hits.items()):
        if roles.get(sid) == "cause" and hit.evidence and all(n in spans for n, _ in hit.evidence):
            del t.hits[sid]
    return spans
