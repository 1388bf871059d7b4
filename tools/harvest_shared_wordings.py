"""Which failure families' wordings the corpus has also seen as the surface of other causes.

A family such as config-validation-error or nccl-error matches the words a whole program prints for many
reasons; when a more specific family is known it hides the generic one, but on a log whose specific reason
doctor has never seen the generic family stands alone, confident, and names a fix that may not apply (stop
25: 4 of 5 confident wrong answers were such families). This reads, for every corpus log, which cause
families' wordings matched (before any hiding: the raw hits, each entry's `requires` context satisfied, and
a `context_pattern` hit's `context_requires`)
and what the case's expected cause is. A family whose wording matched logs of other causes is written out
with those causes; doctor (servebox/doctor/shared_wording.py) caps its confidence by how many different
causes its words were seen to carry, and names them.

Usage: python tools/harvest_shared_wordings.py [OUT]   (default servebox/doctor/shared_wordings.json)
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

from servebox.doctor.caller import loaded_aside, scripted
from servebox.doctor.ranking import placed
from servebox.doctor.signatures import context_met
from servebox.doctor.triage import Triage

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "doctor-corpus"
OUT = ROOT / "servebox" / "doctor" / "shared_wordings.json"


def raw_causes(path: Path) -> set[str]:
    """The cause families whose wording matched this log, before ranking hid any of them."""
    triage = Triage(path.name)
    triage.feed(path.read_bytes())
    triage.close()
    # a `script_pattern` wording counts only raised out of the run's own script (learn42d: vLLM's warm-up WARNING of
    # 'Tokenizer not available when `skip_tokenizer_init=True`' in 130 healthy logs is not skip-tokenizer-init's words)
    raised = sorted(triage.raised.values(), key=lambda e: e.line)
    # a `raised_where` wording counts only raised in a file it names, as ranking.py reads it (stop 53: counted raw, a
    # family's words were seen under causes whose exception some other file raised)
    placed(triage, raised)
    scripted(triage, raised)
    # an `engine_called` wording counts only where code loaded into the engine did not raise or ask for it (learn53c: a
    # general plugin's own bind of a fixed port is not port-in-use's words, as ranking.py reads it)
    loaded_aside(triage, raised)
    return {
        sig.id
        for sig in triage.signatures
        if sig.id in triage.hits
        and sig.role == "cause"
        # a hit of `context_pattern` wordings only where its `context_requires` was seen (vocab30d, stop 30: counting
        # them raw made every JSONDecodeError of the corpus another cause of weights-corrupt)
        and context_met(sig, triage.seen_requirements, triage.hits[sig.id].contextual)
        # a likelier reason named by `unless_seen` makes its words that reason's surface here, not this family's
        and not triage.seen_requirements.intersection(sig.unless_seen)
        # a hint's hit is not the family's words: the hint says its own hedged cause, already below the confident line
        # (after32d, stop 32: host-oom-kill's bare-SIGKILL hint on fresh-129's `kill -9` capped the kernel's own
        # 'Out of memory: Killed process' line to 0.67)
        and not triage.hits[sig.id].weak
    }


def harvest(corpus: Path = CORPUS) -> dict[str, dict]:
    matched: Counter[str] = Counter()
    own: Counter[str] = Counter()
    others: dict[str, Counter[str]] = {}
    for case in tomllib.loads((corpus / "manifest.toml").read_text())["case"]:
        for family in raw_causes(corpus / case["file"]):
            matched[family] += 1
            if case["expected"] == family:
                own[family] += 1
            else:
                others.setdefault(family, Counter())[case["expected"]] += 1
    return {
        family: {"matched": matched[family], "own": own[family], "others": dict(sorted(seen.items()))}
        for family, seen in sorted(others.items())
    }


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    data = harvest()
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{out}: {len(data)} families whose wording the corpus also saw under other causes")


if __name__ == "__main__":
    main()
