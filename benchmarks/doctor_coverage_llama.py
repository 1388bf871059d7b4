"""How much of llama.cpp's and llama-swap's own error surface `servebox doctor` can name.

Why: the corpus measures doctor on the failures people reported; this measures it on everything the
programs can print. benchmarks/data/llama_messages.json holds their message templates (made once by
tools/harvest_llama_messages.py from llama.cpp b11434 and llama-swap's sources, with file:line). Each
template is rendered as the program prints it (printf/Go verbs filled with plausible values, wrapped the
way the caller prints it: `llama_model_load: error loading model: ...`, an uncaught exception's
`what():`, ggml_abort's `file:line:`, llama-swap's slog `error="..."`), fed alone to triage_stream,
and classified by the top diagnosis: named by a specific family, generic only (a catch-all, a symptom
or the bare exception), or nothing.
Run: python benchmarks/doctor_coverage_llama.py [--uncovered N] [--kind error|warning|assert|all] [--json]
     [--data FILE]  (another harvest, e.g. an old llama.cpp tree's: see tools/union_uncovered_llama.py)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import classify, generic_ids, print_table  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "llama_messages.json"
AREAS = (
    "arg parsing", "server", "model loading", "GGUF", "KV/context", "backends",
    "llama-swap config", "llama-swap proxy",
)  # fmt: skip
# catch-alls: they say "llama.cpp failed" (or where to look), not why
UMBRELLA = {
    "llamacpp-load-failed", "llamacpp-context-failed", "llamacpp-assert", "native-abort", "uncaught-exception",
    "router-config-invalid",
    "llamacpp-feature-defect",  # a reading of where the check failed (its file's feature), not a family's wording
}  # fmt: skip
FAILS = ("error", "throw", "abort")  # what stops a start or a request; warnings and asserts apart
C_SPEC = re.compile(r"%(?:%|[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcspn]))")
GO_SPEC = re.compile(r"%(?:%|[-+# 0]*\d*(?:\.\d+)?([vsdqwxXftTp]))")
# (words in the argument expression, value): the first that fits fills a %s
TEXT_VALUES = (
    (("__func__",), None), (("fname", "path", "file", "dir"), "/srv/models/Mistral-7B-Instruct-Q4_K_M.gguf"),
    (("url", "endpoint"), "https://huggingface.co/bartowski/Mistral-7B-GGUF/resolve/main/model.gguf"),
    (("arch",), "mistral3"), (("key",), "general.architecture"), (("type",), "q4_K"),
    (("tensor", "name"), "blk.3.attn_k.weight"), (("model",), "mistral-7b"), (("repo",), "bartowski/Mistral-7B-GGUF"),
    (("arg", "opt", "flag"), "--ctx-size"), (("dev", "gpu", "buft", "backend"), "CUDA0"),
    (("what()", "err", "msg", "status"), "unexpected error"), (("tmpl", "template"), "chatml"),
)  # fmt: skip
NUM_VALUES = ((("size", "bytes", "mem", "nbytes"), "2147483648"), (("ctx",), "32768"), (("batch",), "512"))


def _c_value(conv: str, arg: str, func: str) -> str:
    a = arg.lower()
    if conv in "sp" and conv == "s":
        for words, value in TEXT_VALUES:
            if any(w.lower() in a for w in words):
                return func or "load_model" if value is None else value
        return "mistral"
    if conv == "p":
        return "0x7f3a2c000000"
    if conv == "c":
        return "x"
    if conv in "eEfgG":
        return "1.50"
    for words, value in NUM_VALUES:
        if any(w in a for w in words):
            return value
    return "ff" if conv in "xX" else "3"


def render_c(msg: dict) -> str:
    """A C template filled the way the program fills it, then wrapped as its caller prints it."""
    args, out, func = list(msg["args"]), [], msg["func"]

    def fill(m: re.Match) -> str:
        if m.group(0) == "%%":
            return "%"
        if "*" in m.group(0) and args:
            args.pop(0)  # the width/precision argument
        return _c_value(m.group(1), args.pop(0) if args else "", func)

    text = C_SPEC.sub(fill, msg["template"]).strip() if msg.get("printf", True) else msg["template"].strip()
    call, area, src = msg["call"], msg["area"], msg["src"]
    prefix = {
        "SRV_ERR": f"srv  {func[:12]:>12}: ", "SRV_WRN": f"srv  {func[:12]:>12}: ",
        "SLT_ERR": f"slot {func[:12]:>12}: id  0 | task 57 | ", "SLT_WRN": f"slot {func[:12]:>12}: id  0 | task 57 | ",
        "QUE_ERR": f"que  {func[:12]:>12}: ", "QUE_WRN": f"que  {func[:12]:>12}: ",
    }.get(call, "")  # fmt: skip
    out.append(prefix + text)
    if call in (
        "LOG_ERROR",
        "LOG_WARNING",
    ):  # an old examples/server's JSON log line (its default, 2023-2024)
        level = "ERR" if call == "LOG_ERROR" else "WARN"
        fields = {"tid": "140230", "timestamp": 1717000000, "level": level, "function": func, "line": 1}
        return json.dumps({**fields, "msg": text}, separators=(",", ":"))
    if text.startswith(
        "GGML_ASSERT: %s: "
    ):  # an old ggml.h's assert (until mid 2024): file:line after the name
        return text.replace("%s", f"/build/llama.cpp/{src}", 1)
    if msg["kind"] == "abort" or msg["kind"] == "assert":
        return f"/build/llama.cpp/{src}: {text}"
    if msg["kind"] != "throw":
        return out[0]
    if area == "model loading" and src.startswith(
        ("src/", "llama.cpp:")
    ):  # an old tree: llama.cpp at the top
        return f"llama_model_load: error loading model: {text}"
    if area == "KV/context":
        return f"llama_init_from_model: failed to initialize the context: {text}"
    if src.startswith("common/arg.cpp") and func != "common_params_parse_ex":
        # an option's handler (or a helper it calls) threw: the parser names the option (arg.cpp)
        return f'error while handling argument "--{func.replace("_", "-")[:20]}": {text}'
    if src.startswith("common/arg.cpp"):
        return text
    if area == "server" and src.startswith(
        ("tools/server/", "examples/server/")
    ):  # before the move to tools/
        code, kind = (
            (400, "invalid_request_error") if call == "std::invalid_argument" else (500, "server_error")
        )
        body = json.dumps({"error": {"code": code, "message": text, "type": kind}})
        return f"srv    operator(): got exception: {body}"
    return f"terminate called after throwing an instance of '{call}'\n  what():  {text}"


def render_go(msg: dict) -> str:
    """A Go template filled, then printed the way llama-swap prints it (slog for config, its logger else)."""
    names = iter(("mistral-7b", "qwen3-8b", "gpu0", "/etc/llama-swap/config.yaml"))

    def fill(m: re.Match) -> str:
        conv = m.group(1)
        if m.group(0) == "%%":
            return "%"
        if conv in "dx":
            return "8"
        if conv == "w":
            return "open /srv/models/x.gguf: no such file or directory"
        value = next(names, "foo")
        return f'"{value}"' if conv == "q" else value

    text = GO_SPEC.sub(fill, msg["template"])
    call = msg["call"]
    if msg["area"] == "llama-swap config" and call in ("fmt.Errorf", "errors.New"):
        quoted = json.dumps(text)
        return f'2026/12/03 13:00:00 ERROR failed to load config config=/etc/llama-swap/config.yaml config-dir="" error={quoted}'
    if call.startswith("slog."):
        return f"2026/12/03 13:00:00 {'WARN' if 'Warn' in call else 'ERROR'} {text}"
    return f"[{'WARN' if msg['kind'] == 'warning' else 'ERROR'}] {text}"


def render(msg: dict) -> str:
    return render_go(msg) if msg["area"].startswith("llama-swap") else render_c(msg)


LIKELY_WORDS = re.compile(
    r"(?i)failed to (?:load|open|read|find|allocate|initiali[sz]e|create|parse|bind|listen|download)|not found|no such|"
    r"out of memory|invalid|unknown|not supported|unsupported|cannot|can't|could not|unable|requires?|must|"
    r"too (?:large|long|many|small)|exceeds|does not exist|missing|permission|denied|mismatch|expected"
)
INTERNAL_WORDS = re.compile(
    r"(?i)should not|not implemented|unreachable|bug|internal|TODO|fatal error$|nullptr"
)
AREA_WEIGHT = {
    "arg parsing": 3, "model loading": 3, "llama-swap config": 3, "GGUF": 2, "KV/context": 2,
    "backends": 2, "llama-swap proxy": 2, "server": 1,
}  # fmt: skip
STARTUP_FUNCS = re.compile(r"(?i)load|init|main|parse|common_|server_|llama_model|create|open|read|start")


def likelihood(msg: dict) -> int:
    """Our judgement of how likely a user meets this message (higher first): start-up paths users
    configure (flags, model files, configs) over request-time and internal checks."""
    score = AREA_WEIGHT[msg["area"]] + (2 if LIKELY_WORDS.search(msg["template"]) else 0)
    score += 1 if STARTUP_FUNCS.search(msg["func"]) else 0
    score -= 3 if INTERNAL_WORDS.search(msg["template"]) else 0
    score -= {"assert": 3, "abort": 1, "warning": 1}.get(msg["kind"], 0)
    return score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--uncovered", type=int, default=40, help="list this many uncovered messages, likeliest first"
    )
    ap.add_argument("--kind", default="error", choices=("error", "warning", "assert", "all"))
    ap.add_argument("--json", action="store_true", help="one JSON line per message instead of the report")
    ap.add_argument(
        "--data", type=Path, default=DATA, help="a harvest file (default: the committed b11434 one)"
    )
    a = ap.parse_args(argv)
    doc = json.loads(a.data.read_text())
    generic = generic_ids(UMBRELLA)
    kinds = {
        "error": FAILS,
        "warning": ("warning",),
        "assert": ("assert",),
        "all": (*FAILS, "warning", "assert"),
    }
    msgs = [m for m in doc["messages"] if m["kind"] in kinds[a.kind]]
    per_area: dict[str, Counter] = defaultdict(Counter)
    results = []
    for m in msgs:
        line = render(m)
        verdict, fam = classify(line, generic)
        per_area[m["area"]][verdict] += 1
        results.append((m, line, verdict, fam))
        if a.json:
            print(
                json.dumps(
                    {"src": m["src"], "area": m["area"], "verdict": verdict, "family": fam, "line": line}
                )
            )
    if a.json:
        return 0
    print(f"sources: {doc['sources']}; left out: {doc['left_out']}")
    print(f"kind: {a.kind} ({', '.join(kinds[a.kind])}); {len(msgs)} distinct templates")
    print_table(AREAS, per_area)
    uncovered = sorted((r for r in results if r[2] != "named"), key=lambda r: -likelihood(r[0]))
    print(f"\nuncovered (generic or none), likeliest first ({a.uncovered} of {len(uncovered)}):")
    for m, line, verdict, fam in uncovered[: a.uncovered]:
        print(f"  [{likelihood(m)}] {m['area']:17} {m['src']:42} {verdict:7} {fam[:28]:28} {line[:140]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
