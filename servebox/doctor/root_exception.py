"""The root exception of a log: the first raised exception that is not a wrapper, whether a matched entry explains it,
and its own diagnosis when none does ("no known signature: X raised Y at line N"). Split from ranking.py, which
orders what these decide."""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.afterwards import survived
from servebox.doctor.attribution import attribute
from servebox.doctor.triage import Diagnosis, Evidence, Hits, RaisedException

if TYPE_CHECKING:
    from servebox.doctor.signatures import Signature

UNEXPLAINED_CAP = 0.6  # a cause entry that does not explain the root exception is not confident
NOT_ROOT = {"symptom", "warning"}
REQUESTS = "requests"  # request-level causes: a server that refused one request and kept serving


def first_root(raised: list[RaisedException]) -> RaisedException | None:
    """The first raised exception that is not a wrapper's or a warning's: the one that ended the run, where any did."""
    return next((e for e in raised if e.classification not in NOT_ROOT), None)


def root_of(
    raised: list[RaisedException], consumed: set[int], ends: dict[int, int], pointers: tuple = ()
) -> RaisedException | None:
    """The first exception that is not a wrapper: not classified as one, none of its lines one that a symptom entry
    matched (vLLM's 'failed to be inspected' is a ValueError that only points back), and its text no wording of such an
    entry (`pointers`; a hint's wording too, as its lines are consumed like a full one's): an entry keeps only a few lines
    as evidence, and a refusal logged five times before it was raised must not leave the raise unexplained, nor the
    wrapper raised from the errno line above it (learn42c, fresh-313's upload to a URL nothing listens at)."""
    for exc in raised:
        lines = range(exc.line, ends.get(exc.line, exc.line) + 1)
        if exc.classification in NOT_ROOT or consumed.intersection(lines):
            continue
        text = f"{exc.type}: {exc.message}"
        if not any(sig.search(text) or sig.hint(text) for sig in pointers):
            return exc
    return None


def explains(sig: Signature, hit: Hits, exc: RaisedException, end: int = 0) -> bool:
    """The entry matched a line of the exception (its first, or one its message spans), or its text."""
    lines = range(exc.line, max(end, exc.line) + 1)
    if any(n in lines for n, _ in hit.evidence) or hit.first_line == exc.line:
        return True
    text = f"{exc.type}: {exc.message}"
    return sig.search(text) is not None or any(p.search(text) for p in sig.explains)


def exception_diagnosis(exc: RaisedException) -> Diagnosis:
    who = f"the {exc.component} process" if exc.component else "the program"
    where = f" in {exc.raised_in}" if exc.raised_in else ""
    return Diagnosis(
        id="uncaught-exception",
        category=exc.classification,
        role="cause",
        cause=f"No known signature: {who} raised {exc.type}: {exc.message} at line {exc.line}{where} ({exc.classification}).",
        fix="Read the exception's message: it names what the engine refused; check the flag, file or value it mentions.",
        confidence=0.45,
        occurrences=exc.occurrences,
        first_line=exc.line,
        evidence=[Evidence(line=exc.line, text=f"{exc.type}: {exc.message}"[:400])],
    )


def weigh_root(diagnoses: list[Diagnosis], causes: list, root: RaisedException | None, end: int) -> bool:
    """Add the root exception as a cause when no cause entry explains it; True when it competes."""
    if root is None:
        return False
    explaining = [d for d, sig, hit in causes if explains(sig, hit, root, end)]
    for d in explaining:
        # a warning's wording raised as the exception that ended the program (llama-cpp-python's ValueError for
        # a split over more devices than a GPU-less build has) is what stopped it, not a warning
        if not d.fatal and d.category != REQUESTS and any(e.line == root.line for e in d.evidence):
            d.fatal = True
    if explaining:
        outlived_before(causes, explaining, root)
        return False
    for d, _, _ in causes:
        d.confidence = min(d.confidence, UNEXPLAINED_CAP)
    # who raised it (a plugin outside the engine's stack, one feature's own code) ranks above the bare exception
    diagnoses.extend(d for d in (attribute(root), exception_diagnosis(root)) if d is not None)
    return bool(causes)


def outlived_before(causes: list, explaining: list[Diagnosis], root: RaisedException) -> None:
    """A cause marked `outlived_when_refused` (an error the engine logs and goes on from: vLLM's 'Cannot use FA version
    N is not supported', after which it picks another FA version) all of whose lines come before the root exception,
    which it does not explain and another cause (not a request's refusal) does, is only a note: that later refusal
    ended the run (learn38c). `explaining`: weigh_root's causes that explain the root exception."""
    if not any(d.category != REQUESTS for d in explaining):
        return
    ids = {id(d) for d in explaining}
    for d, sig, hit in causes:
        if sig.outlived_when_refused and d.role == "cause" and id(d) not in ids and hit.last_line < root.line:
            why = f"Logged, and the engine went on from it: the exception that ended the run (line {root.line}) is another refusal's. "
            survived(d, why, "describes")


def went_on_past(causes: list, root: RaisedException | None, hits: dict, end: int = 0) -> list:
    """A cause whose entry names `went_on_after` markers, one of whose lines comes after the cause's first line and
    before the root exception it does not explain: the engine went on past it another way (vLLM's caught 'Cannot use
    FA version 2 ...' ERROR, then 'Using TURBOQUANT attention backend'), so it is only a note and the exception that
    ended the run answers, known or not (learn44h). Returns the causes still standing."""
    if root is None:
        return causes
    for d, sig, hit in causes:
        later = (m for i in sig.went_on_after if (m := hits.get(i)) is not None)
        line = next(
            (n for m in later for n in (m.first_line, m.last_line) if hit.first_line < n < root.line), None
        )
        if line is not None and d.role == "cause" and not explains(sig, hit, root, end):
            why = f"Logged, and the engine went on past it (line {line}); the exception that ended the run (line {root.line}) is another. "
            survived(d, why, "describes")
    return [c for c in causes if c[0].role == "cause"]


def wrappers_aside(
    found: list[tuple[Signature, Hits]], raised: list[RaisedException], ends: dict[int, int]
) -> tuple[list[tuple[Signature, Hits]], list[Hits]]:
    """A wrapper entry whose exception another matched entry explains steps aside (hidden, its lines
    consumed like a superseded entry's): 'N validation error for ModelConfig' over the reason it wraps."""
    at = {e.line: e for e in raised}
    aside = []
    for sig, hit in found:
        exc = next((at[n] for n, _ in hit.evidence if n in at), None) if sig.wrapper else None
        if exc is not None and any(
            not other.wrapper
            and other.role in ("cause", "symptom")
            and explains(other, h, exc, ends.get(exc.line, 0))
            for other, h in found
            if other is not sig
        ):
            aside.append(hit)
    gone = {id(h) for h in aside}
    return [(s, h) for s, h in found if id(h) not in gone], aside
