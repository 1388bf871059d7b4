"""An older typing_extensions put in front of the environment's, failing inside Python's typing machinery (learn54e).

typing_extensions backports typing's newer features (TypeVar defaults, PEP 696; TypeIs; ReadOnly; ...) and patches
typing's own generic-argument check where the interpreter lacks them. torch, pydantic-core and vLLM use those
features in their own annotations, evaluated at import; a typing_extensions older than they need (pip's `--target D`
with D on PYTHONPATH, the user site, a downgrade) makes their class bodies fail in typing.py's frames, with words
that name neither the package nor a version: fresh-515's typing_extensions 4.10.0 (torch's declared floor, under
pydantic-core's >=4.16.0) on Python 3.11 left `CSE[Any]` (CSE generic in two TypeVars, the second with a default)
to typing's unpatched check: "TypeError: Too few arguments for <class 'torch._inductor.codegen.common.CSE'>;
actual 1, expected 2", raised in typing.py _check_generic.

Only the log's pip lines show the cause: 'Successfully installed typing_extensions-V' above an exception raised in a
typing.py / typing_extensions.py frame. That is an inference from the install and where the failure happened, so
dependency-version-refused answers at its exception_confidence (below 0.70), its exception_cause naming the copy
pip put there. The same TypeError with no such install (a real annotation bug, Python's own typing) stays the
uncaught exception it was.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.copy_side import REFUSED, pip_versions
from servebox.doctor.package_copy import INSTALLED
from servebox.doctor.triage import Hits

if TYPE_CHECKING:
    from servebox.doctor.results import RaisedException
    from servebox.doctor.triage import Triage

PACKAGE = "typing_extensions"
# the innermost frame in the standard library's typing.py or in typing_extensions' own module (any folder)
TYPING_FRAME = re.compile(r"(?:^|[\\/])typing(?:_extensions)?\.py(?::\d+)?$")
FAILED_HERE = ("TypeError", "AttributeError", "NameError")


def _installed_above(t: Triage, line: int) -> bool:
    """pip's 'Successfully installed ... typing_extensions-V' on a line above `line`."""
    hit = t.hits.get(INSTALLED)
    pattern = re.compile(r"\btyping[-_.]extensions-\d", re.IGNORECASE)
    return any(n < line and pattern.search(text) for n, text in hit.evidence) if hit else False


def stale_typing_hits(t: Triage, raised: list[RaisedException]) -> set[str]:
    """Count the first unhandled exception raised in typing's frames as dependency-version-refused's where this log
    installed a typing_extensions above it; returns the id so its exception_cause (an inference) answers."""
    version = pip_versions(t).get(PACKAGE)
    first = next((e for e in raised if not e.handled), None)
    if (
        version is None
        or first is None
        or REFUSED in t.hits
        or not any(s.id == REFUSED for s in t.signatures)
    ):
        return set()
    short = first.type.rsplit(".", 1)[-1]
    if (
        short not in FAILED_HERE
        or not TYPING_FRAME.search(first.raised_in)
        or not _installed_above(t, first.line)
    ):
        return set()
    groups = {
        "pkg": PACKAGE,
        "found": f"{PACKAGE}=={version}",
        "req": f"the {PACKAGE} the environment's packages need (`pip check` names it)",
    }
    text = f"{first.type}: {first.message}"[:400]
    t.hits[REFUSED] = Hits(first.occurrences, first.line, first.line, groups, [(first.line, text)])
    return {REFUSED}
