"""`vllm serve`'s own option strings, and a command line read the way vLLM's parser reads it.

Why: vLLM's FlexibleArgumentParser turns underscores into dashes (--max_model_len) and argparse takes a unique prefix
(--max-model); servebox's parser knows only the flags the planner models, so both forms were passed over and the
plan used the defaults. The list is data (profiles/<file>, written by tools/vllm_serve_options.py from the real
parser), one file per build; `DEFAULT` is the newest recorded build's.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

DEFAULT = "vllm-0.32.0-serve-options.json"
_NUMBER = re.compile(r"-\d")  # a negative number is a value, not a flag


@lru_cache(maxsize=4)
def serve_options(file: str = DEFAULT) -> tuple[frozenset[str], str]:
    """The option strings of one build's `vllm serve`, and where the list came from."""
    record = json.loads(resources.files("servebox.engines.vllm").joinpath(f"profiles/{file}").read_text())
    return frozenset(record["options"]), f"{file} ({record['how']})"


def is_flag(token: str) -> bool:
    return token.startswith("-") and token not in ("-", "--") and not _NUMBER.match(token)


def base_name(token: str) -> str:
    """The option a token names as vLLM reads it: before '=', before a JSON key's '.', underscores as dashes."""
    name = token.split("=", 1)[0]
    return "--" + name[2:].split(".", 1)[0].replace("_", "-") if name.startswith("--") else name


def prefixed(name: str, options: frozenset[str]) -> list[str]:
    return sorted(o for o in options if o.startswith(name))


def as_vllm_reads(argv: list[str], options: frozenset[str] | None = None) -> list[str]:
    """Each long flag spelt as the option vLLM takes it for (--max_model_len, --max-model -> --max-model-len); a
    flag vLLM would refuse is left as written."""
    options = options if options is not None else serve_options()[0]
    out = []
    for token in argv:
        if not token.startswith("--") or token == "--":
            out.append(token)
            continue
        name, eq, value = token.partition("=")
        _, dot, key = name[2:].partition(".")
        base = base_name(token)
        if base not in options and len(found := prefixed(base, options)) == 1:
            base = found[0]
        out.append(base + dot + key + eq + value)
    return out


def refusal(token: str, options: frozenset[str]) -> str | None:
    """What vLLM's parser says of one leftover flag, or None when it takes it (exactly, or as a unique prefix)."""
    name = base_name(token)
    if name in options:
        return None
    if not name.startswith("--"):
        return "unrecognized arguments"
    found = prefixed(name, options)
    if len(found) == 1:
        return None
    return f"ambiguous option: {name} could match {', '.join(found)}" if found else "unrecognized arguments"
