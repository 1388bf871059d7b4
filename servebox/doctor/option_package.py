"""Which start option asked for an optional package that is missing (learn51b).

vLLM imports some packages only where an option asks for them: ray for `--data-parallel-backend ray` (v1/engine/
utils.py CoreEngineActorManager imports it bare) and `--distributed-executor-backend ray` (v1/executor/ray_utils.py,
ray_executor.py). "No module named 'ray'" then means that option's package is not installed, not a broken
environment, and the user's choice is to install it or drop the option. optional-package-missing's hint wording
counts only where the log shows such an option (its hint_requires literals, recorded as seen); this names the one the
log shows, so the answer says which option to drop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

OPTIONAL = "optional-package-missing"
# a literal the log may show (lower case, as triage records it) -> the option in a user's words
OPTIONS = {
    "--data-parallel-backend ray": "--data-parallel-backend ray",
    "--data-parallel-backend=ray": "--data-parallel-backend ray",
    "-dpb ray": "--data-parallel-backend ray",
    "-dpb=ray": "--data-parallel-backend ray",
    "'data_parallel_backend': 'ray'": "--data-parallel-backend ray",
    "data_parallel_backend='ray'": "data_parallel_backend='ray'",
    'data_parallel_backend="ray"': "data_parallel_backend='ray'",
    "starting ray-based data parallel backend": "--data-parallel-backend ray",
    "--distributed-executor-backend ray": "--distributed-executor-backend ray",
    "--distributed-executor-backend=ray": "--distributed-executor-backend ray",
    "'distributed_executor_backend': 'ray'": "--distributed-executor-backend ray",
    "distributed_executor_backend='ray'": "distributed_executor_backend='ray'",
    'distributed_executor_backend="ray"': "distributed_executor_backend='ray'",
}


def name_option(t: Triage) -> None:
    """Fill the optional-package hint's {option} with the options the log shows (in a stable order)."""
    hit = t.hits.get(OPTIONAL)
    if hit is None or not hit.weak:
        return
    shown = sorted({OPTIONS[w] for w in t.seen_requirements if w in OPTIONS})
    if shown:
        hit.groups["option"] = " and ".join(shown)
