"""Which start option asked for an optional package that is missing (learn51b).

vLLM imports some packages only where an option asks for them: ray for `--data-parallel-backend ray` (v1/engine/
utils.py CoreEngineActorManager imports it bare) and `--distributed-executor-backend ray` (v1/executor/ray_utils.py,
ray_executor.py). "No module named 'ray'" then means that option's package is not installed, not a broken
environment, and the user's choice is to install it or drop the option. optional-package-missing's hint wording
counts only where the log shows such an option (its hint_requires literals in knowledge/install.toml, recorded as
seen: the one list of them); this names the one the log shows, so the answer says which option to drop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

OPTIONAL = "optional-package-missing"


def user_words(literal: str) -> str:
    """The option a hint_requires literal shows, in a user's words: the Python API's `name='ray'` stays as it is."""
    name = "distributed_executor_backend" if "distributed" in literal else "data_parallel_backend"
    if literal.startswith(f"{name}="):
        return f"{name}='ray'"
    return "--" + name.replace("_", "-") + " ray"


def name_option(t: Triage) -> None:
    """Fill the optional-package hint's {option} with the options the log shows (in a stable order)."""
    hit = t.hits.get(OPTIONAL)
    if hit is None or not hit.weak:
        return
    literals = next(sig.hint_requires for sig in t.signatures if sig.id == OPTIONAL)
    shown = sorted({user_words(w) for w in t.seen_requirements if w in literals})
    if shown:
        hit.groups["option"] = " and ".join(shown)
