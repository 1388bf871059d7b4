"""An older copy of one package, put in front of the engine's environment, failing against another (learn51b).

`pip install --no-deps --target D PKG==OLD` with D on PYTHONPATH puts an older PKG before the engine's own, beside the
environment's newer packages it was not written for. What fails is then the copy's call or import into its newer
neighbour, in the copy's own frame, with words that blame the neighbour or read like a plain bug:
- TypeError "X.__init__() got an unexpected keyword argument 'k'" raised in the copy's file (fresh-468's fastapi
  0.115.12 passing on_startup to starlette 1.10's Router, which dropped it): a version mismatch between two
  third-party packages, the copy the stale side (dependency-version-refused, whose cause names a stale copy);
- pydantic's exact pin on pydantic-core: its import-time check ("The installed pydantic-core version (F) is
  incompatible with the current pydantic version, which requires R") read by its direction -- F newer than R raised
  in a pydantic copy is the stale pydantic (the family's raised_where), F older than R is pydantic-core too old
  (dependency-version-refused); an older pydantic whose check did not run fails on a name the newer pydantic-core
  removed ("cannot import name 'validate_core_schema' from 'pydantic_core'", imported in the copy).
The copy must be one pip installed in this log into a folder outside site-packages (copy_side's reading of frames):
the same TypeError from a file of the user's own, or within one environment, says nothing about a stale copy.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from packaging.version import InvalidVersion, Version

from servebox.doctor.copy_side import REFUSED, _answer, _copy_of, pip_versions
from servebox.doctor.package_copy import _norm

if TYPE_CHECKING:
    from servebox.doctor.results import RaisedException
    from servebox.doctor.triage import Triage

PYDANTIC = "pydantic-older-copy-refuses-installed-pydantic-core"
NAME_MISSING = "python-import-name-missing"
KEYWORD = re.compile(r"(?P<callee>[\w.<>]+)\(\) got an unexpected keyword argument '(?P<kw>\w+)'")
CORE_PIN = re.compile(
    r"installed pydantic-core version \((?P<found>[\w.+-]+)\) is incompatible with the current pydantic version, "
    r"which requires (?P<req>[\w.+-]+?)\.?(?:\s|$)"
)
CORE_NAME = re.compile(r"cannot import name '(?P<name>\w+)' from 'pydantic_core(?:\.\w+)*'")


def _older(a: str, b: str) -> bool | None:
    try:
        return Version(a) < Version(b)
    except InvalidVersion:
        return None


def _keyword_from_copy(t: Triage, e: RaisedException, installed: dict[str, str]) -> bool:
    """A keyword refused inside a copy pip put outside site-packages: that copy calls a newer neighbour."""
    m = KEYWORD.search(e.message) if e.type == "TypeError" else None
    copy = _copy_of(e.raised_in, installed) if m else None
    if m is None or copy is None or _norm(copy[0]) not in installed:
        return False
    pkg, folder = copy
    found = (
        f"{installed[_norm(pkg)]}, the copy in {folder}, whose call {m['callee']}(..., {m['kw']}=...) the "
        "installed library it calls no longer takes"
    )
    groups = {"pkg": pkg, "found": found, "req": f"the {pkg} release the engine requires"}
    _answer(t, REFUSED, e, groups, f"{e.type}: {e.message}"[:400], drop=(NAME_MISSING,))
    return True


def _pydantic(t: Triage, e: RaisedException, installed: dict[str, str]) -> bool:
    """pydantic against pydantic-core, read by which side is older."""
    if (m := CORE_PIN.search(e.message)) and _older(m["found"], m["req"]):
        groups = {
            "pkg": "pydantic-core",
            "found": f"pydantic-core=={m['found']}",
            "req": f"pydantic-core=={m['req']}",
        }
        _answer(t, REFUSED, e, groups, f"{e.type}: {e.message}"[:400], drop=(PYDANTIC,))
        return True
    m = CORE_NAME.search(e.message)
    copy = _copy_of(e.importer or e.raised_in, installed) if m else None
    if m is None or copy is None or _norm(copy[0]) != "pydantic":
        return False
    groups = {"copy": copy[1], "found": f"a release without {m['name']}"}
    _answer(t, PYDANTIC, e, groups, f"{e.type}: {e.message}"[:400], drop=(NAME_MISSING, REFUSED))
    return True


def read_older_copies(t: Triage, raised: list[RaisedException]) -> None:
    """The first unhandled exception that shows an older copy failing against its newer neighbour answers."""
    installed = pip_versions(t)
    for e in raised:
        if e.handled:
            continue
        if _pydantic(t, e, installed) or _keyword_from_copy(t, e, installed):
            return
