"""Causes that decide nothing between them. Two whose figures are within a hair of each other: the figures are
written by hand per family, so a lead that small decides nothing, and neither cause is confident (calib38, stop 38).
And causes that stopped nothing beside one that ended the run (warnings_beside_a_death, ignored_unit_line)."""

from __future__ import annotations

from servebox.doctor.results import CONFIDENT
from servebox.doctor.root_exception import REQUESTS
from servebox.doctor.shared_wording import BELOW_CONFIDENT
from servebox.doctor.triage import Diagnosis

CLOSE = 0.05  # a lead no larger than this over the next cause decides nothing


def close_causes(diagnoses: list[Diagnosis], aside: set[int]) -> bool:
    """Ranked diagnoses whose top cause leads the next by CLOSE or less: both families' words are in the log and the
    figures, written by hand per family, are all that tells them apart, so neither is confident. Every cause drops by
    the same amount (the top to just under 0.70): order and gaps stay. True when it did. Chosen at first contact
    (benchmarks/doctor_evidence_study.py: each unseen batch run with the servebox that first scored it): on the batches
    first measured before stop 32 it took 5 confident wrong answers below 0.70 and 5 right ones; held out (stop 32 on),
    6 and none. The log's own evidence did worse there: an answer whose lines are not the refusal line, or whose
    patterns miss it or cover little of it, was wrong once for about three times right, no better than the figure."""
    causes = [d for d in diagnoses if d.role == "cause" and id(d) not in aside]
    if len(causes) < 2 or causes[0].confidence < CONFIDENT:
        return False
    if round(causes[0].confidence - causes[1].confidence, 2) > CLOSE:
        return False
    _drop_below_confident(diagnoses, causes[0])
    return True


def _drop_below_confident(diagnoses: list[Diagnosis], top: Diagnosis) -> None:
    """Every cause drops by the same amount, the top to just under 0.70: order and gaps stay."""
    drop = top.confidence - BELOW_CONFIDENT
    for d in diagnoses:
        if d.role == "cause":
            d.confidence = max(0.0, round(d.confidence - drop, 2))


INDEPENDENT = frozenset({"requests", "systemd"})  # a refused request, a unit-file line systemd ignored


def independent_warnings(
    diagnoses: list[Diagnosis], aside: set[int], blocking: set[int] = frozenset()
) -> bool:
    """The top two causes are both non-fatal and of the two parts that fail apart from each other (a request the
    server refused and stayed up, a unit-file setting systemd ignored and loaded the unit without): nothing in the
    log orders them (which bites first depends on how the user runs it: under the unit, or by hand), so neither is
    confident; they drop as close causes do, order kept. True when it did. learn43g (fresh-358: IPAddressAllow=
    ignored beside a top_p 1.5 refused, a confident wrong answer for either order). `blocking`: ids of unit lines
    whose loss leaves the service unable to serve (blocking_unit_line.py): such a line comes first (learn55f)."""
    causes = [d for d in diagnoses if d.role == "cause" and id(d) not in aside]
    if len(causes) < 2 or causes[0].confidence < CONFIDENT or causes[0].fatal or causes[1].fatal:
        return False
    if {causes[0].category, causes[1].category} != INDEPENDENT:
        return False
    first, second = causes[0], causes[1]
    _drop_below_confident(diagnoses, first)
    if id(second) in blocking and first.category == "requests":
        # the unit line is met first under the unit: it takes the top place and the top figure (gaps stay)
        a, b = diagnoses.index(first), diagnoses.index(second)
        diagnoses[a], diagnoses[b] = second, first
        first.confidence, second.confidence = second.confidence, first.confidence
    elif (
        id(first) not in blocking and first.confidence == second.confidence and second.category == "requests"
    ):
        # a tie: the refusal the user met comes before a line systemd only warned of
        a, b = diagnoses.index(first), diagnoses.index(second)
        diagnoses[a], diagnoses[b] = second, first
    return True


# a non-fatal cause of another category stays a rival: a caught error the engine went on from can be what then
# failed (fresh-276's slot file, fresh-203's fp8 scales, fresh-290's client URL broke when every one was set aside)
BESIDE_A_DEATH = (REQUESTS, "systemd")


def warnings_beside_a_death(diagnoses: list[Diagnosis], quiet: frozenset[str] = frozenset()) -> set[int]:
    """The causes that stopped nothing (non-fatal: request refusals, unit-file lines systemd ignores) of a log where
    something of another category also ended the run: they rank below that death and do not compete with it (ids of
    the diagnoses). learn43b (fresh-342: a drop-in without its [Service] header, ignored, beside llama-server's exit
    on a model path that is a directory) widened it from request refusals to every non-fatal cause. `quiet`: ids of
    entries marked `beside_a_death` (an option the server ignored without a word), below a death of any category
    (learn46d). A cause read on no line but the death's own lines is another reading of that death, not a warning
    beside it: it competes at its figure (learn55g: two hints on one bare 'NotFoundError: Error code: 404')."""
    deaths = [d for d in diagnoses if d.role == "cause" and d.fatal]
    dead = {d.category for d in deaths}
    death_lines = {e.line for d in deaths for e in d.evidence}
    return {
        id(d)
        for d in diagnoses
        if d.role == "cause"
        and not d.fatal
        and ((d.category in BESIDE_A_DEATH and dead - {d.category}) or (d.id in quiet and dead))
        and not (d.evidence and {e.line for e in d.evidence} <= death_lines)
    }


def ignored_unit_line(d: Diagnosis, blocking: set[int] = frozenset()) -> bool:
    """A unit-file line systemd only warned of and loaded the unit without (a non-fatal systemd cause): at the same
    figure as another cause it ranks after it, whatever the line order (a log shows `systemd-analyze verify` before
    the engine runs): the engine's fault shows in the run, while the ignored line may change nothing at all (learn44a,
    fresh-365: UMask=0o022 ignored, the default 0022 the very mask meant, beside a control vector never loaded).
    Not one in `blocking` (a line whose loss changes what the whole service does: blocking_unit_line.py, learn55f)."""
    return d.role == "cause" and d.category == "systemd" and not d.fatal and id(d) not in blocking
