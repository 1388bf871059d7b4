"""Which llama.cpp feature failed its own check: a GGML_ASSERT / GGML_ABORT line names its source file.

llama.cpp has no Python traceback, but its failed checks print 'PATH/FILE:LINE: ...'. A file that belongs to one
feature (flash attention's kernels, the KV cache, the projector...) says which feature to start without: the
llamacpp-feature-defect entry of the knowledge base finds the line, this module keeps it only when the file is a
feature's (llamacpp_features.toml, read from the llama.cpp tree) and ranks it as a refinement: above the generic
llamacpp-assert / native-abort, below every other family that matched. A structural inference: below 0.70.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from servebox.doctor.attribution import place_readings
from servebox.doctor.signatures import Signature, load_signatures
from servebox.doctor.triage import Diagnosis, Hits

LLAMA_FEATURE = "llamacpp-feature-defect"
# the catch-alls this reading refines: it ranks above them, below everything else
REFINES = frozenset({"llamacpp-assert", "native-abort", "uncaught-exception"})


@dataclass(frozen=True)
class Row:
    path: str
    feature: str
    off: str
    check: re.Pattern[str] | None


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    """The feature rows, longest path fragment first."""
    text = resources.files("servebox.doctor").joinpath("llamacpp_features.toml").read_text()
    found = [
        Row(r["path"], r["feature"], r["off"], re.compile(r["check"], re.I) if "check" in r else None)
        for r in tomllib.loads(text)["row"]
    ]
    return tuple(sorted(found, key=lambda r: -len(r.path)))


@lru_cache(maxsize=1)
def _entry() -> Signature:
    return next(s for s in load_signatures() if s.id == LLAMA_FEATURE)


def feature_of(file: str, check: str) -> Row | None:
    """The row whose fragment the printed path holds at a '/' boundary (any vendoring root), or None."""
    path = "/" + file.replace("\\", "/").lower()  # Windows builds, and logs shown upper-cased
    for row in rows():
        if "/" + row.path.lower() in path and (row.check is None or row.check.search(check)):
            return row
    return None


def _located(text: str) -> tuple[Row, re.Match[str]] | None:
    """The feature row of one line the entry matched, with the match, or None."""
    m = _entry().search(text)
    row = feature_of(m["file"], m["check"]) if m is not None else None
    return (row, m) if row is not None and m is not None else None


def in_a_feature(hit: Hits) -> bool:
    """Whether a line the entry matched names a feature's file: the entry counts only then (ranking.py)."""
    return any(_located(text) is not None for _, text in hit.evidence)


def _read(d: Diagnosis) -> bool:
    """Fill the diagnosis from the first evidence line whose file is a feature's; False when none is."""
    for ev in d.evidence:
        if (found := _located(ev.text)) is None:
            continue
        row, m = found
        name = m["file"].replace("\\", "/").rsplit("/", 1)[-1]
        values = {"feature": row.feature, "off": row.off, "check": m["check"].strip(), "file": name}
        # a path-less error line names its printing function instead (llamacpp_features.toml): no line number
        line = m.groupdict().get("line")
        values["where"] = f"{name}:{line}" if line else name
        d.cause, d.fix = _entry().cause.format(**values), _entry().fix.format(**values)
        return True
    return False


def refine(diagnoses: list[Diagnosis]) -> list[Diagnosis]:
    """Ranked diagnoses with the feature reading kept only where its file is a feature's, placed just above
    the first catch-all it refines (or the first non-cause) and no more confident than any cause above it."""
    readings = [d for d in diagnoses if d.id == LLAMA_FEATURE]
    if not readings:
        return diagnoses
    kept = [d for d in readings if _read(d)][:1]
    rest = [d for d in diagnoses if d.id != LLAMA_FEATURE]
    at = next((i for i, d in enumerate(rest) if d.id in REFINES or d.role != "cause"), len(rest))
    return place_readings(kept, rest, at)
