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


# RECORD of the batch (part of it, public.md rule 3): the search was done after the draw was committed (a4d29174)
# and finished by 12:00 UTC by `date`. For each drawn message in draw order: the `search` tool, corpus "issues", with the
# message's query; then corpus "pages" with the same query, since "issues" gave no case for any message. A thread would
# be taken when it (a) shows the message in a pasted vLLM log, (b) has a confirmed cause, (c) its address is not in
# the manifest, and tools/corpus_split.py says `measure` (tests/test_corpus_split.py forbids an unseen batch's case
# from a train-side thread). NO drawn message gave a case: 53 no usable result, 4 results without log, 1 no confirmed
# cause, 2 met (a)-(c) only in train-side threads; "pages" gave no usable result for any of the 60.
#  1. issues: results without log (generic 'does X support vllm' threads); pages: no usable result
#  2. issues: met (a)-(c) but TRAIN side: rank 1 https://github.com/vllm-project/vllm/pull/56677 (merged
#     CI fix; 'Failure: NotImplementedError: MRV2 PCP + DCP requires dcp_comm_backend=ag_rs; got a2a') --
#     tools/corpus_split.py says train, so not taken; no other result shows the message; pages: no usable
#     result
#  3. issues: no usable result (nearest: a vllm-ascend mooncake kv_group2layeridx warning, not this
#     message); pages: no usable result
#  4. issues: no usable result (dtype/bf16 threads, none shows the message); pages: no usable result
#  5. issues: results without log (DeepSeek-V4 vision feature threads); pages: no usable result
#  6. issues: no usable result (PR 51076 shows another error, 'Cannot handle this data type'); pages: no
#     usable result
#  7. issues: no usable result; pages: no usable result
#  8. issues: no usable result; pages: no usable result
#  9. issues: no usable result; pages: no usable result
# 10. issues: no usable result (FA2/FA3 compute-capability threads, not this message); pages: no usable
#     result
# 11. issues: no usable result; pages: no usable result
# 12. issues: no usable result; pages: no usable result
# 13. issues: results without log (PR 49877 names the duplicate-fetch guard, no log); pages: no usable
#     result
# 14. issues: no usable result; pages: no usable result
# 15. issues: no usable result (threads show 'max_tokens must be at least 1', another check); pages: no
#     usable result (generic max_tokens tutorials, none this message)
# 16. issues: no usable result; pages: no usable result
# 17. issues: no usable result; pages: no usable result
# 18. issues: no usable result; pages: no usable result
# 19. issues: met (a)-(c) only on the TRAIN side: rank 10 https://github.com/vllm-project/vllm/pull/35354
#     (merged fix of a regression; the error quoted) and rank 11 issues/6605 (reporter confirmed) are
#     train; measure-side results: rank 2 issues/3000 (error pasted, no confirmed cause: closed stale, a
#     bystander's unconfirmed workaround), rank 3 issues/3460 (no log, no cause), rank 4 issues/3994 (the
#     message not in what search showed), rank 5 issues/2599 (another error); rank 1 PR 34773 and rank 6
#     PR 7146 are diffs without a log; pages: no usable result (LoRA serving tutorials, none shows the
#     message)
# 20. issues: no usable result; pages: no usable result
# 21. issues: no confirmed cause: rank 2 PR 55443 (open, the author's own diagnosis, not merged; also
#     train side) pastes the error; rank 1 PR 28662 is a diff without a log; pages: no usable result
# 22. issues: no usable result; pages: no usable result
# 23. issues: no usable result; pages: no usable result
# 24. issues: no usable result; pages: no usable result
# 25. issues: no usable result; pages: no usable result
# 26. issues: no usable result; pages: no usable result
# 27. issues: no usable result; pages: no usable result
# 28. issues: no usable result; pages: no usable result
# 29. issues: no usable result (NIXL PCP/DCP PRs describe the guard, no log); pages: no usable result
# 30. issues: no usable result (#56837 shows another message); pages: no usable result (API doc pages
#     showing the source, no thread)
# 31. issues: no usable result; pages: no usable result
# 32. issues: no usable result; pages: no usable result
# 33. issues: no usable result; pages: no usable result
# 34. issues: no usable result; pages: no usable result
# 35. issues: no usable result (FA2 compute-capability threads, another message); pages: no usable result
# 36. issues: no usable result; pages: no usable result
# 37. issues: results without log (DiffusionGemma PRs, none shows the message); pages: no usable result
#     (docs/recipes, no thread with the message)
# 38. issues: no usable result; pages: no usable result
# 39. issues: no usable result; pages: no usable result
# 40. issues: no usable result; pages: no usable result
# 41. issues: no usable result (NVML threads show other errors); pages: no usable result
# 42. issues: no usable result; pages: no usable result
# 43. issues: no usable result (other buffer-size messages); pages: no usable result
# 44. issues: no usable result (#16738 shows another structured-output message); pages: no usable result
# 45. issues: no usable result; pages: no usable result
# 46. issues: no usable result; pages: no usable result
# 47. issues: no usable result; pages: no usable result
# 48. issues: no usable result; pages: no usable result
# 49. issues: no usable result (pooling PRs, none shows the message); pages: no usable result
# 50. issues: no usable result (#33074 shows another num_kv_heads assertion); pages: no usable result
# 51. issues: no usable result; pages: no usable result
# 52. issues: no usable result; pages: no usable result
# 53. issues: no usable result (pixel_values/embeds threads of transformers, not this message); pages: no
#     usable result
# 54. issues: no usable result; pages: no usable result
# 55. issues: no usable result (#28589 shows another sink message); pages: no usable result
# 56. issues: no usable result (audio threads show other errors); pages: no usable result
# 57. issues: no usable result; pages: no usable result
# 58. issues: no usable result; pages: no usable result
# 59. issues: no usable result (xgrammar structural-tag PRs show other errors); pages: no usable result
# 60. issues: no usable result; pages: no usable result
