"""fresh-294's sampling rule, fixed and committed before any search: vLLM 0.32's own error messages, drawn at random
from its installed source, each then searched for in public GitHub threads (so what users posted, not what a maker
thinks of querying, decides the batch).

THE LIST: in the installed vLLM 0.32 source (PATH = .venv-vllm/lib/python3.11/site-packages/vllm; every *.py file but
those under a tests/ or benchmarks/ folder):
- every `raise ValueError(...)` / `raise RuntimeError(...)` / `raise NotImplementedError(...)` /
  `raise AssertionError(...)` / `raise TypeError(...)` (the name bare or as an attribute, e.g. builtins.ValueError),
- every `logger.error(...)` / `logger.exception(...)` (error level; `logger` or `self.logger` / `cls.logger`),
whose first argument is a literal message: a string constant, an f-string (its literal parts), a `+` concatenation
with at least one string constant (its constant parts), `"..." % x` or `"...".format(...)` (the format's literal).
Placeholders ({...}, %-conversions, the non-literal parts) become gaps. Fixed text = the message with its gaps
removed and its whitespace collapsed; kept when it has at least 4 words (tokens holding a letter or digit);
deduplicated by fixed text (the first file:line in sorted path order kept).
THE DRAW: random.Random(2294).sample(sorted(LIST), 60).
THE QUERY of a message: its longest placeholder-free run (the run between gaps with most words; at most its first 12
words) plus " vllm", searched with the `search` tool, corpus "issues".

Usage: .venv/bin/python tools/public_sample_fresh294.py PATH  (prints the list's size and the draw of 60).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from pathlib import Path

SEED = 2294
N = 60
SKIP_DIRS = {"tests", "benchmarks"}
RAISES = {"ValueError", "RuntimeError", "NotImplementedError", "AssertionError", "TypeError"}
LOGS = {"error", "exception"}
# %s, %d, %r, %(name)s, %.2f, %5.1f ... (logging's and %-format placeholders)
PERCENT = re.compile(r"%(\([^)]*\))?[-+ #0]*(\d+|\*)?(\.(\d+|\*))?[sdrfieEgGxXoc%]")
BRACES = re.compile(r"\{[^{}]*\}")
GAP = "\x00"
WORD = re.compile(r"[A-Za-z0-9]")


def _const(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _raw(node: ast.AST) -> tuple[str, bool] | None:
    """(text with GAPs, whether {...} / %-conversions in it are placeholders) or None when no literal message."""
    if _const(node) is not None:
        return _const(node), True
    if isinstance(node, ast.JoinedStr):
        parts = [_const(v) if _const(v) is not None else GAP for v in node.values]
        return "".join(parts), False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _raw(node.left), _raw(node.right)
        if left is None and right is None:
            return None
        lt = left[0] if left else GAP
        rt = right[0] if right else GAP
        return lt + rt, bool((left and left[1]) or (right and right[1]))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _const(node.left) is not None:
        return _const(node.left), True
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and _const(node.func.value) is not None
    ):
        return _const(node.func.value), True
    return None


def _literal(node: ast.AST) -> str | None:
    got = _raw(node)
    if got is None:
        return None
    text, _ = got
    text = BRACES.sub(GAP, text)
    return PERCENT.sub(lambda m: "%" if m.group(0) == "%%" else GAP, text)


def _name(func: ast.AST) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _call(node: ast.AST) -> ast.Call | None:
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and _name(node.exc.func) in RAISES:
        return node.exc
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in LOGS
        and _name(node.func.value) == "logger"
    ):
        return node
    return None


def words(text: str) -> list[str]:
    return [w for w in text.split() if WORD.search(w)]


def messages(root: Path) -> dict[str, tuple[str, str, str]]:
    """fixed text -> (file:line, kind, query), over the whole source."""
    found: dict[str, tuple[str, str, str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if SKIP_DIRS & set(rel.parts[:-1]):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        hits = [(n, c) for n in ast.walk(tree) if (c := _call(n)) is not None and c.args]
        for node, call in sorted(hits, key=lambda h: h[1].lineno):
            text = _literal(call.args[0])
            if text is None:
                continue
            fixed = " ".join(text.replace(GAP, " ").split())
            if len(words(fixed)) < 4 or fixed in found:
                continue
            runs = [" ".join(r.split()) for r in text.split(GAP)]
            best = max(runs, key=lambda r: len(words(r)))
            query = " ".join(best.split()[:12]) + " vllm"
            kind = f"raise {_name(call.func)}" if isinstance(node, ast.Raise) else f"logger.{call.func.attr}"
            found[fixed] = (f"vllm/{rel}:{call.lineno}", kind, query)
    return found


def main(argv: list[str]) -> None:
    found = messages(Path(argv[1]))
    print(
        f"# tools/public_sample_fresh294.py on the installed vLLM 0.32 source ({argv[1]}), SEED {SEED}, "
        f"drawn before any search"
    )
    print(f"list size: {len(found)}")
    draw = random.Random(SEED).sample(sorted(found), N)
    for i, fixed in enumerate(draw, 1):
        where, kind, query = found[fixed]
        print(f"{i:2d}. {where} {kind} | {fixed[:200]} | query: {query}")


if __name__ == "__main__":
    main(sys.argv)
