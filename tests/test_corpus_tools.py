"""tools/corpus_tools.py's draws: the procedure every made-here batch's maker commits before its cases run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from corpus_tools import draw_distinct_conditions, draw_per_engine  # noqa: E402

CONDITIONS = {f"c{i}": [f"v{i}a", f"v{i}b"] for i in range(5)}


def test_a_one_engine_draw_keeps_distinct_conditions_and_lists_the_redrawn():
    kept, redrawn = draw_distinct_conditions(7, CONDITIONS, 5)
    assert sorted(c for c, _ in kept) == sorted(CONDITIONS)
    assert all(v in CONDITIONS[c] for c, v in kept)
    assert all(
        reason == "condition drawn before" and any(c == k for k, _ in kept) for c, _, reason in redrawn
    )
    assert (kept, redrawn) == draw_distinct_conditions(7, CONDITIONS, 5)  # the seed fixes it


def test_a_draw_that_could_never_finish_is_refused_at_once():
    with pytest.raises(ValueError, match="need 6 conditions"):
        draw_distinct_conditions(7, CONDITIONS, 6)
    with pytest.raises(ValueError, match="distinct"):
        draw_per_engine(7, {"vllm": {"a": ["x"]}, "llama": {"b": ["y"]}}, 3)
