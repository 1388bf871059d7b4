"""Which side of a version skew is the copy out of place: the package that checks, or the one it refuses (learn50d).

A second copy of a library earlier on sys.path (pip's `--target D`, a PYTHONPATH folder) makes two wordings whose
words alone do not say what the user must change:
- transformers' import-time check (utils/versions.py _compare_versions, vendored by accelerate and diffusers):
  "REQ is required for a normal functioning of this module, but found PKG==V". An old tokenizers under the engine's
  transformers and an old transformers under the engine's tokenizers (or huggingface-hub, learn54e) both print it;
  only one of them is out of place, and removing (not downgrading to) that one is the fix;
- "No module named 'M'" raised while an out-of-place copy of another package imports M (an old openai installed
  --no-deps imports its own dependency distro): installing M only reaches the copy's next incompatibility.
The log decides: a found version under the range's floor is the dependency too old (dependency-version-refused,
whichever copy the log shows); one over its ceiling is the checker's doing only where the checker's frames lie in a
copy outside site-packages (an absolute path: triage cuts an installed file's path after site-packages/), and with no
copy shown it stays the hint it was (which of the two is stale the words do not say). For a missing module, the
importing frame must lie in a copy of a package pip says it installed in this log ('Successfully installed PKG-V').
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from servebox.doctor.package_copy import DIST, INSTALLED, PIP_INSTALLED, _norm
from servebox.doctor.triage import Hits

if TYPE_CHECKING:
    from servebox.doctor.results import RaisedException
    from servebox.doctor.triage import Triage

REFUSED = "dependency-version-refused"
OLD_CHECKER = "stale-transformers-copy-refuses-newer-dependency"
MISMATCH = "transformers-version-mismatch"
MODULE_MISSING = "python-module-missing"
REQUIREMENT = re.compile(
    r"(?<![\w.-])(?P<req>(?P<pkg>[A-Za-z][\w.-]*?)(?P<spec>[<>=!~][^ ]*)) is required for a normal functioning of "
    r"this module, but found (?P<found_pkg>[\w.-]+)==(?P<found>[\w.+-]+?)\.?$"
)
TOP_MODULE = re.compile(r"No module named '(?P<module>\w+)'")
# an absolute path or a drive's: triage keeps a frame's whole path only outside site-packages / dist-packages
OUTSIDE = re.compile(r"^(?:/|[A-Za-z]:[\\/])")


def pip_versions(t: Triage) -> dict[str, str]:
    """What pip says it installed in this log: import name (folded) -> version."""
    hit = t.hits.get(INSTALLED)
    found: dict[str, str] = {}
    for _, line in hit.evidence if hit else ():
        if m := PIP_INSTALLED.search(line):
            for word in m["names"].split():
                if d := DIST.match(word):
                    found[_norm(d["name"])] = word[len(d["name"]) + 1 :]
    return found


def _copy_of(frame: str, installed: dict[str, str]) -> tuple[str, str] | None:
    """(package, folder) where a frame's file lies in a copy outside site-packages: the path's component that names
    a package pip installed in this log, else (for the checker, whose folder holds utils/versions.py) the component
    above 'utils'."""
    path = frame.rsplit(":", 1)[0]
    if not OUTSIDE.match(path):
        return None
    parts = re.split(r"[\\/]", path)
    for i, part in enumerate(parts[:-1]):
        if _norm(part) in installed or (parts[i + 1 : i + 3] == ["utils", "versions.py"]):
            return part, "/".join(parts[:i]) or "/"
    return None


def _direction(spec: str, found: str) -> str:
    """'old' where the found version is under a floor of the range, 'new' over a ceiling, '' where it cannot tell."""
    try:
        version, specs = Version(found), SpecifierSet(spec)
    except (InvalidSpecifier, InvalidVersion):
        return ""
    for s in specs:
        if not s.contains(version, prereleases=True):
            return "old" if s.operator in (">=", ">", "~=") else "new" if s.operator in ("<", "<=") else ""
    return ""


def _requirement(t: Triage, e: RaisedException, installed: dict[str, str]) -> None:
    m = REQUIREMENT.search(e.message)
    if m is None:
        return
    checker = _copy_of(e.raised_in, installed)
    dependency = _norm(m["pkg"])
    checker_moved = checker is not None and _norm(checker[0]) != dependency
    dependency_moved = dependency in installed and not checker_moved
    # a found version under the range's floor is the dependency too old, whichever copy the log shows (an editable
    # transformers refusing an old tokenizers is not a stale transformers); over the ceiling, the checker's copy shown
    # out of place is the stale one; with no copy shown there, it stays transformers-version-mismatch's hint
    direction = _direction(m["spec"], m["found"])
    side = "dependency" if direction == "old" or (not direction and dependency_moved) else ""
    side = side or ("checker" if checker_moved else "")
    text = f"{e.type}: {e.message}"[:400]
    if side == "dependency":
        groups = {"pkg": m["pkg"], "found": f"{m['pkg']}=={m['found']}", "req": m["req"]}
        _answer(t, REFUSED, e, groups, text, drop=(OLD_CHECKER, MISMATCH))
    elif (
        side == "checker"
        and checker is not None
        and _norm(checker[0]) == "transformers"
        and (direction == "new" or dependency == "tokenizers")
    ):
        # the copy's table refuses a dependency newer than it allows (tokenizers, huggingface-hub, ...: learn54e)
        groups = {"req": m["req"], "found": f"{m['pkg']}=={m['found']}", "copy": checker[1], "pkg": m["pkg"]}
        _answer(t, OLD_CHECKER, e, groups, text, drop=(MISMATCH, REFUSED))
    # else another checker's copy refusing its dependency: dependency-version-refused's hint names both sides


def _missing_from_copy(t: Triage, e: RaisedException, installed: dict[str, str]) -> bool:
    """A top-level module missing where a copy pip put outside site-packages imports it: that copy is the cause."""
    m = TOP_MODULE.search(e.message)
    copy = _copy_of(e.importer or e.raised_in, installed) if m else None
    if m is None or copy is None or _norm(copy[0]) == _norm(m["module"]) or _norm(copy[0]) not in installed:
        return False
    pkg, folder = copy
    found = (
        f"{installed[_norm(pkg)]}, the copy in {folder}, which imports '{m['module']}', not installed either"
    )
    groups = {"pkg": pkg, "found": found, "req": f"the {pkg} release the engine requires"}
    _answer(t, REFUSED, e, groups, f"{e.type}: {e.message}"[:400], drop=(MODULE_MISSING,))
    return True


def _answer(t: Triage, sig: str, e: RaisedException, groups: dict, text: str, drop: tuple[str, ...]) -> None:
    """The family `sig` answers on the exception's line; the families reading the other side are dropped."""
    for other in drop:
        t.hits.pop(other, None)
    t.hits[sig] = Hits(count=1, first_line=e.line, last_line=e.line, groups=groups, evidence=[(e.line, text)])


def read_sides(t: Triage, raised: list[RaisedException]) -> None:
    """Where an import error of the engine's environment shows which copy is out of place, answer with the family
    that names that copy. The tokenizers family's wording counts only where raised in a transformers copy outside
    site-packages (its raised_where) and is dropped here where the found version is under the floor; the first refusal
    decides, and a missing module only where a copy imported it."""
    installed = pip_versions(t)
    for e in raised:
        if REQUIREMENT.search(e.message):
            _requirement(t, e, installed)
            return
        if not e.handled and e.type == "ModuleNotFoundError" and _missing_from_copy(t, e, installed):
            return
