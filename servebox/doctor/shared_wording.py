"""A family's confidence, capped by how many other causes its words were seen to carry.

A family whose wording is a whole program's refusal (pydantic's validation error, NCCL's "unhandled system
error", llama.cpp's "failed to load model") is right when it stands alone only if the log's specific reason
is one doctor does not know. The corpus shows how often that happens: tools/harvest_shared_wordings.py
records, per family, the corpus logs its words matched and the causes those logs really had
(shared_wordings.json). When such a family is a cause here, its confidence is at most
1 - S / (N + 2) (S other causes among N logs; never below 0.50: it stays an answer), labelled "calibrated",
and the other causes are named so a reader checks them first. A family whose words were more often another
cause's than its own (fewer of the N logs its own than others', N at least 20: a whole program's refusal,
not a rare wording seen twice) is never confident alone: the formula rises towards 1 as the corpus grows with
the same S, and pydantic's refusal, seen in 175 logs of which 29 were config-validation-error, had crossed
0.70 that way (stop 37). The rule was chosen on a backtest: each of
30 earlier unseen batches (498 logs) run with the servebox and the corpus of the commit it was first
measured at, the rule fed only that corpus (benchmarks/doctor_first_contact.py).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from servebox.doctor.results import CONFIDENT
from servebox.doctor.triage import Diagnosis

DATA = Path(__file__).with_name("shared_wordings.json")
PRIOR = 2  # logs added to N: one family seen once under another cause is not yet a pattern
FLOOR = 0.5  # the cap never drops a family below an offered answer
SHOWN = 5  # other causes named, most often seen first
BELOW_CONFIDENT = round(CONFIDENT - 0.01, 2)  # just under the confident line
WIDE = 20  # logs matched before "mostly other causes' words" is a finding, not chance


@cache
def shared() -> dict[str, dict]:
    return json.loads(DATA.read_text())


def cap(family: str) -> float | None:
    """The most confidence `family`'s words can carry, or None when the corpus saw them only for it."""
    seen = shared().get(family)
    if seen is None:
        return None
    limit = max(FLOOR, 1 - len(seen["others"]) / (seen["matched"] + PRIOR))
    if seen["matched"] >= WIDE and seen["own"] < seen["matched"] - seen["own"]:  # mostly others' words
        limit = min(limit, BELOW_CONFIDENT)
    return limit


def calibrate(diagnoses: list[Diagnosis]) -> None:
    """Cap each cause whose words the corpus saw under other causes, and name those causes."""
    for d in diagnoses:
        limit = cap(d.id) if d.role == "cause" else None
        if limit is None or limit >= d.confidence:
            continue
        seen = shared()[d.id]
        others = sorted(seen["others"], key=lambda k: (-seen["others"][k], k))
        d.confidence, d.confidence_kind = round(limit, 2), "calibrated"
        d.shared_with = others[:SHOWN]
        d.shared_basis = (
            f"these words matched {seen['matched']} corpus logs, {seen['own']} of them this cause; "
            f"{len(others)} other causes"
        )
