"""The words of the answers doctor's code modules make: their cause, fix and note texts live in texts.toml, not in code.

A module that derives an answer in code (stop_shown.py, system_exit.py, afterwards.py ...) keeps how it reads the log
(its regexes, thresholds, the order of its checks) and names its texts by module and key; texts.toml holds them, with
the {placeholders} the module fills by str.format, so a text is edited, reviewed and searched where the knowledge
base's own causes and fixes are (knowledge/*.toml; knowledge/readings.toml holds the texts of the readings that have
an id of their own). Loaded once and cached, like the knowledge base. tests/test_doctor_texts.py checks that every key
the code names is there, that the placeholders the code fills are the text's, and that no text is left unused.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def all_texts() -> dict[str, dict[str, str]]:
    """texts.toml: one table per module, its keys the module's texts."""
    return tomllib.loads((resources.files("servebox.doctor") / "texts.toml").read_text())


def answer_text(module: str, key: str) -> str:
    """The text `key` of `module` (its file name without .py) as texts.toml words it, placeholders unfilled."""
    return all_texts()[module][key]
