"""A unit systemd refused ('Unit configuration has fatal error, unit will not be started', 'has a bad unit file
setting') never starts: the setting it refused is met before anything the engine says when its command is run by hand
further down the log (learn43d, fresh-341's ExecStart= with an unescaped % above a refused flag pair). The systemd cause
reported above the refusal then ranks above the later causes of other categories, whatever their figures; where no
systemd cause explains the refusal, a later cause is not confident and the refusal itself ranks first, as a cause: it
is what the user must fix first (learn44a, fresh-365's OnFailureJobMode=isolate with two OnFailure= units above a
request refused for a token id out of the vocabulary)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.shared_wording import BELOW_CONFIDENT

if TYPE_CHECKING:
    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Diagnosis, Hits, Triage

REFUSED = "systemd-unit-refused"
REFUSAL_MET_FIRST = 0.6  # the refusal is met first, but only the line above it says which setting
SYSTEMD = "systemd"
# the unit a refusal line names ('Unit llama-server.socket has a bad unit file setting.')
UNIT_NAME = re.compile(r"[\w@:.\\-]+\.(service|socket|timer|path|mount|automount|swap|slice|target|scope)\b")


def _only_helper_units(evidence: list[tuple[int, str]]) -> bool:
    """Every refused unit the lines name is a helper of the service (a .socket, .timer, .path, ...): the engine's
    .service still starts by itself (fresh-353: a refused Accept=yes socket above the engine's own fatal error), so
    what the engine says is not behind the refusal. A line that names no unit counts as the service's."""
    kinds = [m.group(1) if (m := UNIT_NAME.search(text)) else "service" for _, text in evidence]
    return "service" not in kinds


def behind_refused_unit(t: Triage, diagnoses: list[Diagnosis]) -> set[int]:
    """Ids of the causes of other categories below a refused unit, which rank after the systemd cause that refused
    it; the refusing cause becomes fatal. With no such systemd cause, those later causes drop below confident."""
    hit = t.hits.get(REFUSED)
    if hit is None or not hit.evidence or _only_helper_units(hit.evidence):
        return set()
    first, last = hit.evidence[0][0], hit.evidence[-1][0]
    later = [d for d in diagnoses if d.role == "cause" and d.category != SYSTEMD and d.first_line > last]
    refusing = [d for d in diagnoses if d.role == "cause" and d.category == SYSTEMD and d.first_line <= first]
    if not refusing:
        for d in later:
            d.confidence = min(d.confidence, BELOW_CONFIDENT)
        return _refusal_first(diagnoses, later)
    for d in refusing:
        d.fatal = True
    return {id(d) for d in later}


def _refusal_first(diagnoses: list[Diagnosis], later: list[Diagnosis]) -> set[int]:
    """No systemd cause explains the refusal: the refusal (its symptom, which points at the line systemd printed above
    it) becomes the fatal cause, below confident, and the later causes rank after it (ids of those)."""
    if not later:
        return set()
    for d in diagnoses:
        if d.id == REFUSED:
            d.role, d.fatal, d.confidence = "cause", True, REFUSAL_MET_FIRST
    return {id(d) for d in later}


BY_HAND = "engine-run-by-hand"  # the marker entry of a shell prompt that starts the engine itself (learn46a)


def run_by_hand_between(t: Triage, sig: Signature, hit: Hits, up: int) -> bool:
    """A systemd cause (the unit refused, a setting it cannot apply at start) above a prompt that started the engine by
    hand, whose server is the one that came up at `up`: that server went round the unit, so it did not outlive the
    cause (learn46a, fresh-390: a mount unit misnamed, a comma group list, then `$ vllm serve` served)."""
    marker = t.hits.get(BY_HAND)
    if sig.category != SYSTEMD or marker is None:
        return False
    lines = {marker.first_line, marker.last_line, *(n for n, _ in marker.evidence)}
    return any(hit.last_line < n < up for n in lines)
