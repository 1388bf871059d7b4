"""fresh-220's sampling rule, fixed before any search: vLLM's own error messages, drawn at random from its source,
each then searched for in public threads (so the batch is not shaped by what a maker thinks of querying).

THE LIST: in the installed vLLM 0.32 source (PATH = .../site-packages/vllm; tests/ and benchmarks/ folders left out),
every `raise <Name>Error(...)` / `raise <Name>Exception(...)` whose first argument is a string literal or an f-string,
and every `logger.error(...)` / `logger.exception(...)` whose first argument is one. Its fixed text is the literal
with {...} and %-placeholders removed; messages with fewer than 4 words of fixed text are dropped; the list is
deduplicated by fixed text (the first file:line in sorted path order kept). The query of a message is its longest
placeholder-free run of words (at most 12 words) plus "vllm".

Usage: .venv/bin/python tools/public_sample_fresh220.py PATH  (prints the list's size and the draw of 60).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from pathlib import Path

SEED = 2220
N = 60
SKIP_DIRS = {"tests", "benchmarks"}
# %s, %d, %r, %(name)s, %.2f, %5.1f ... (logging's placeholders)
PERCENT = re.compile(r"%(\([^)]*\))?[-+ #0]*\d*(\.\d+)?[sdrfieEgGxXoc%]")
BRACES = re.compile(r"\{[^{}]*\}")
GAP = "\x00"


def _literal(node: ast.AST) -> str | None:
    """The literal's text with every placeholder turned into GAP, or None when NODE is no string literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else GAP for v in node.values
        )
    else:
        return None
    text = BRACES.sub(GAP, text)
    return PERCENT.sub(lambda m: "%" if m.group(0) == "%%" else GAP, text)


def _words(text: str) -> list[str]:
    return [w for w in text.split() if re.search(r"[A-Za-z0-9]", w)]


def _is_error_raise(node: ast.AST) -> ast.Call | None:
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name.endswith("Error") or name.endswith("Exception"):
            return node.exc
    return None


def _is_logger_error(node: ast.AST) -> ast.Call | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("error", "exception")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "logger"
    ):
        return node
    return None


def messages(root: Path) -> dict[str, tuple[str, str]]:
    """fixed text -> (file:line, query), over the whole source."""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if SKIP_DIRS & set(rel.parts[:-1]):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            call = _is_error_raise(node) or _is_logger_error(node)
            if call is None or not call.args:
                continue
            text = _literal(call.args[0])
            if text is None:
                continue
            fixed = " ".join(text.replace(GAP, " ").split())
            if len(_words(fixed)) < 4 or fixed in found:
                continue
            runs = [" ".join(r.split()) for r in text.split(GAP)]
            best = max(runs, key=lambda r: len(r.split()))
            query = " ".join(best.split()[:12]) + " vllm"
            found[fixed] = (f"vllm/{rel}:{call.lineno}", query)
    return found


def main(argv: list[str]) -> None:
    found = messages(Path(argv[1]))
    print(f"list size: {len(found)}")
    draw = random.Random(SEED).sample(sorted(found), N)
    for i, fixed in enumerate(draw, 1):
        where, query = found[fixed]
        print(f"{i:2d}. {where} | {fixed[:160]} | query: {query}")


if __name__ == "__main__":
    main(sys.argv)
