"""doctor's answer texts live in data (servebox/doctor/texts.toml), not in code: the keys the code names and the keys
the file holds are the same, and each text's {placeholders} are the ones its module fills.

learn55c (s55): the cause, fix and note texts of the answers made in code (stop_shown, system_exit, afterwards ...)
moved from Python string constants to texts.toml, byte for byte. The code names a text as
`NAME = answer_text("module", "key")` at module level and fills it with NAME.format(field=...) (in its own module or one that
imports NAME); these tests read that from the source, so a text renamed, dropped or given a new placeholder on one side
only fails here rather than in a user's answer (a KeyError from str.format, or a '{field}' printed as is).
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from servebox.doctor.texts import all_texts, answer_text

DOCTOR = Path(__file__).resolve().parent.parent / "servebox" / "doctor"


def _assigned() -> dict[tuple[str, str], tuple[str, str]]:
    """(module, NAME) -> (text module, key) for every module-level NAME = answer_text("module", "key")."""
    named: dict[tuple[str, str], tuple[str, str]] = {}
    for f in sorted(DOCTOR.glob("*.py")):
        for node in ast.parse(f.read_text()).body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                continue
            call = node.value
            if isinstance(call.func, ast.Name) and call.func.id == "answer_text":
                args = [a.value for a in call.args if isinstance(a, ast.Constant)]
                assert len(args) == 2 == len(call.args), f"{f.name}: answer_text() takes two literal strings"
                named[(f.stem, node.targets[0].id)] = (args[0], args[1])
    return named


def _named() -> dict[tuple[str, str], tuple[str, str]]:
    """_assigned() and each import of such a NAME by another doctor module (afterwards' MID_START_CAUSE, filled by
    interrupt_last too)."""
    named = _assigned()
    for f in sorted(DOCTOR.glob("*.py")):
        mod = f.stem
        for node in ast.parse(f.read_text()).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("servebox.doctor."):
                source = node.module.rsplit(".", 1)[-1]
                for alias in node.names:
                    if (source, alias.name) in named:
                        named[(mod, alias.asname or alias.name)] = named[(source, alias.name)]
    return named


def _filled() -> dict[tuple[str, str], list[tuple[set[str], bool] | None]]:
    """(text module, key) -> the fields of each NAME.format(...) call on it, and whether that call is shared with
    another text (None for one given **mapping)."""
    named = _named()
    filled: dict[tuple[str, str], list[tuple[set[str], bool] | None]] = {}
    for f in sorted(DOCTOR.glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr != "format":
                continue
            target = node.func.value  # NAME.format(...), or (A if c else B).format(...)
            names = [target] if not isinstance(target, ast.IfExp) else [target.body, target.orelse]
            for name in names:
                if isinstance(name, ast.Name) and (f.stem, name.id) in named:
                    fields = {k.arg for k in node.keywords}
                    call = None if None in fields else (fields, len(names) > 1)
                    filled.setdefault(named[(f.stem, name.id)], []).append(call)
    return filled


def _placeholders(s: str) -> set[str]:
    return {
        name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(s) if name is not None
    }


def test_every_key_the_code_names_is_in_the_data_and_under_its_own_module():
    named = _assigned()
    assert named, "no answer_text() names found: the test reads the source wrongly"
    for (mod, name), (module, key) in named.items():
        assert module == mod, (
            f"{mod}.py names {module}'s text {key}: a module's texts sit under its own table"
        )
        assert key == name.lower(), (
            f"{mod}.{name} names key {key}: the key is the constant's name, lower case"
        )
        assert answer_text(module, key)


def test_no_text_in_the_data_is_unused():
    used = set(_named().values())
    held = {(m, k) for m, keys in all_texts().items() for k in keys}
    assert held - used == set(), "texts.toml holds keys no code names"
    assert all(isinstance(v, str) for keys in all_texts().values() for v in keys.values())


def test_each_texts_placeholders_are_the_ones_its_code_fills():
    filled = _filled()
    for module, keys in all_texts().items():
        for key, words in keys.items():
            want = _placeholders(words)
            calls = filled.get((module, key), [])
            if not calls:
                assert not want, f"{module}.{key} has placeholders {want} but no code fills it with .format"
                assert "{" not in words and "}" not in words, (
                    f"{module}.{key}: braces in a text never formatted"
                )
            for call in calls:
                if call is None:
                    continue
                fields, shared = call
                assert want <= fields, (
                    f"{module}.{key}: the text has {sorted(want - fields)}, which the code never fills"
                )
                # one call filling two texts fills the union of their fields: each text need only use its own
                assert shared or fields <= want, (
                    f"{module}.{key}: the code fills {sorted(fields - want)}, not in it"
                )


@pytest.mark.parametrize("module", sorted(all_texts()))
def test_a_modules_texts_load_as_its_constants(module):
    """The module's constants are the data's texts (loaded once at import: no copy kept in code)."""
    mod = __import__(f"servebox.doctor.{module}", fromlist=["_"])
    for key, words in all_texts()[module].items():
        assert getattr(mod, key.upper()) == words
