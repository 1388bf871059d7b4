"""How much of vLLM's own error surface doctor can name (measured on the installed vLLM source).

Why: the corpus scores doctor on the failures someone met; this scores it on every failure vLLM can
print. The stdlib `ast` reads every `raise X(<message>)` and `logger.error/critical/exception(...)`
in .venv-vllm's vllm package; each message is rendered to a sample (str, f-string, %, .format, +, and
a name assigned in the same function; placeholders get plausible values by their name: ints for
sizes, a model name, a dtype...), wrapped as vLLM prints it (a traceback under a `(APIServer pid=N)`
or `(EngineCore_DP0 pid=N)` prefix whose innermost frame is the real file, or an ERROR log line),
triaged (triage_stream on a BytesIO) and classified:
  specific  the top diagnosis is a cause family whose wording matched the sample;
  generic   the top is the fallback (uncaught-exception), a `generic` entry, a symptom, or a family
            that matched only by where the exception was raised (config-validation-error's raised_in);
  nothing   no diagnosis at all.
Prints coverage overall and per area, and the uncovered messages ranked by how likely a user meets
them (a judgement, in `likelihood`: configuration, start-up, loading, GPU capability, kernels and
memory first; asserts, internals and developer paths last).
Run: python benchmarks/doctor_coverage_vllm.py [--uncovered N] [--area PREFIX] [--json FILE] [--source DIR]
(--source: another version's vllm/ package, e.g. unzipped from `pip download --no-deps vllm==0.8.5`: public
threads come from many versions, and their wordings differ)
Needs .venv-vllm (the real vLLM 0.32 source); without it, says so and exits 0.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import io
import json
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from servebox.doctor.signatures import load_signatures
from servebox.doctor.triage import triage_stream

ROOT = Path(__file__).resolve().parent.parent
LOG_METHODS = {"error": "ERROR", "critical": "CRITICAL", "exception": "ERROR"}
AREAS = (
    "model_executor/layers/quantization", "model_executor/layers/fused_moe", "model_executor/layers",
    "model_executor/models", "model_executor/model_loader", "v1/attention", "v1/engine", "v1/worker",
    "v1/core", "v1/spec_decode", "v1/executor", "v1/sample", "v1/kv_offload", "distributed/kv_transfer",
    "entrypoints/openai", "entrypoints/serve", "engine/arg_utils.py",
)  # fmt: skip
API_SIDE = ("config/", "engine/", "entrypoints/", "transformers_utils/", "tokenizers/", "renderers/")
# placeholder values by the words in the expression (first match wins); ints vary by position
VALUES = (
    (r"_len\b|len\(|num_|_size\b|max_|min_|count", "#int"), (r"capab", "89"), (r"dtype", "torch.bfloat16"), (r"quant|method", "fp8"), (r"backend", "FLASH_ATTN"),
    (r"arch|model_cls|class|cls\b", "LlamaForCausalLM"), (r"path|file|dir\b|directory|url|uri", "/models/llama-3-8b"),
    (r"model", "meta-llama/Llama-3.1-8B-Instruct"), (r"device", "cuda:0"), (r"version", "2.9.0"),
    (r"port", "18555"), (r"host|addr|ip\b", "10.0.0.5"), (r"name|key|type|kind|mode|task|runner|parser", "auto"),
    (r"gib|gb\b|memory|mem\b|bytes|_size_in", "12.5"), (r"shape", "(4096, 128)"),
    (r"len|size|num|count|tokens|seqs|rank|dim|block|heads|layers|world|tp\b|pp\b|dp\b|idx|index|max|min|limit|_id\b|id\b|n\b|k\b|batch", "#int"),
)  # fmt: skip
EXC_ENDS = ("Error", "Exception", "Exit")
GENERIC_IDS = {"uncaught-exception", "config-validation-error"}


@dataclass
class Message:
    file: str  # relative to the vllm package
    line: int
    kind: str  # "raise" or "log"
    type: str  # the exception class as printed (or the log level)
    func: str
    text: str  # the rendered message
    rendered: bool  # every part of the message could be rendered
    area: str = ""
    verdict: str = ""  # specific, generic, nothing
    top: str = ""
    likelihood: int = 0


class Renderer:
    """Render a message expression to a plausible text; `ok` turns False when a part had to be guessed."""

    def __init__(self, assigns: dict[str, list[tuple[int, ast.expr, bool]]], line: int):
        self.assigns, self.line, self.ok, self.n = assigns, line, True, 0

    def value(self, expr: ast.expr, spec: str = "") -> str:
        src = ast.unparse(expr).lower()
        if isinstance(expr, ast.Constant):
            return str(expr.value)
        for pattern, val in VALUES:
            if re.search(pattern, src):
                if val == "#int":
                    self.n += 1
                    val = str((2, 4096, 8, 16, 3, 32768)[self.n % 6])
                return _fmt(val, spec)
        return _fmt("auto", spec)

    def render(self, expr: ast.expr, depth: int = 0) -> str:
        if depth > 6:
            self.ok = False
            return ""
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return expr.value
        if isinstance(expr, ast.JoinedStr):
            return "".join(self._part(v, depth) for v in expr.values)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return self.render(expr.left, depth + 1) + self.render(expr.right, depth + 1)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
            args = expr.right.elts if isinstance(expr.right, ast.Tuple) else [expr.right]
            return self.percent(self.render(expr.left, depth + 1), args)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format":
            return self._format(self.render(expr.func.value, depth + 1), expr)
        if isinstance(expr, ast.Name) and expr.id in self.assigns:
            before = [a for a in self.assigns[expr.id] if a[0] < self.line]
            start = max((i for i, a in enumerate(before) if not a[2]), default=None)
            if start is not None:
                return "".join(self.render(a[1], depth + 1) for a in before[start:])
        self.ok = False
        return self.value(expr)

    def _part(self, v: ast.expr, depth: int) -> str:
        if isinstance(v, ast.Constant):
            return str(v.value)
        assert isinstance(v, ast.FormattedValue)
        spec = ast.unparse(v.format_spec)[2:-1] if v.format_spec else ""
        if isinstance(v.value, ast.Constant | ast.JoinedStr) or (
            isinstance(v.value, ast.Name) and self._textual(v.value.id)
        ):
            return self.render(v.value, depth + 1)
        return self.value(v.value, spec)

    def _textual(self, name: str) -> bool:
        """A name assigned a text (a string, an f-string) before the message: rendered, not guessed."""
        before = [a for a in self.assigns.get(name, ()) if a[0] < self.line]
        return (
            bool(before)
            and isinstance(before[-1][1], ast.Constant | ast.JoinedStr)
            and (not isinstance(before[-1][1], ast.Constant) or isinstance(before[-1][1].value, str))
        )

    def percent(self, fmt: str, args: list[ast.expr]) -> str:
        values = iter(args)

        def sub(m: re.Match) -> str:
            if m[0] == "%%":
                return "%"
            arg = next(values, None)
            return self.value(arg, m[1]) if arg is not None else m[0]

        return re.sub(r"%%|%[-#0 +]*(\d*(?:\.\d+)?[sdrifgxe])", sub, fmt)

    def _format(self, fmt: str, call: ast.Call) -> str:
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        pos = iter(call.args)

        def sub(m: re.Match) -> str:
            arg = kw.get(m[1]) if m[1] and not m[1].isdigit() else next(pos, None)
            return self.value(arg, m[2] or "") if arg is not None else "auto"

        return re.sub(r"\{(\w*)(?::([^}]*))?\}", sub, fmt)


def _fmt(val: str, spec: str) -> str:
    if not spec:
        return val
    try:
        return format(float(val) if re.search(r"[fge%]$", spec) else int(val), spec)
    except ValueError:
        return val


def _assigns(func: ast.AST) -> dict[str, list[tuple[int, ast.expr, bool]]]:
    """name -> [(line, value, is_append)] of the function's `msg = ...` and `msg += ...`."""
    out: dict[str, list[tuple[int, ast.expr, bool]]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.setdefault(node.targets[0].id, []).append((node.lineno, node.value, False))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            out.setdefault(node.target.id, []).append((node.lineno, node.value, False))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append((node.lineno, node.value, True))
    for v in out.values():
        v.sort(key=lambda a: a[0])
    return out


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def harvest_file(path: Path, rel: str, classes: dict[str, str]) -> list[Message]:
    tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    out: list[Message] = []

    def visit(node: ast.AST, scope: ast.AST, fname: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child, child.name)
                continue
            call, kind = None, ""
            if isinstance(child, ast.Raise) and isinstance(child.exc, ast.Call) and child.exc.args:
                call, kind = child.exc, "raise"
            elif (
                isinstance(child, ast.Expr)
                and isinstance(child.value, ast.Call)
                and isinstance(child.value.func, ast.Attribute)
                and child.value.func.attr in LOG_METHODS
                and "log" in ast.unparse(child.value.func.value).lower()
                and child.value.args
            ):
                call, kind = child.value, "log"
            if call is not None:
                r = Renderer(_assigns(scope), child.lineno)
                text = r.render(call.args[0])
                if kind == "log" and len(call.args) > 1:
                    text = r.percent(text, call.args[1:])
                elif len(call.args) > 1:  # an exception of several arguments prints as their tuple
                    text = repr((text, *(r.value(a) for a in call.args[1:])))
                name = _name(call.func)
                typ = LOG_METHODS[name] if kind == "log" else classes.get(name, name)
                if text.strip():
                    out.append(Message(rel, child.lineno, kind, typ, fname, text.strip(), r.ok))
            visit(child, scope, fname)

    visit(tree, tree, "<module>")
    return out


def area_of(rel: str) -> str:
    for a in AREAS:
        if rel.startswith(a):
            return a
    return rel.split("/", 1)[0] if "/" in rel else "(top)"


def sample(m: Message) -> str:
    who = "APIServer" if m.file.startswith(API_SIDE) else "EngineCore_DP0"
    p = f"({who} pid=4711) "
    lines = m.text.splitlines() or [""]
    if m.kind == "log":
        head = f"{p}{m.type} 12-03 10:00:00 [{Path(m.file).name}:{m.line}] {lines[0]}"
        return "\n".join([head, *(p + x for x in lines[1:])]) + "\n"
    site = f"/opt/venv/lib/python3.12/site-packages/vllm/{m.file}"
    tb = [
        f"{p}Traceback (most recent call last):",
        f'{p}  File "{site}", line {m.line}, in {m.func}',
        f"{p}    raise {m.type.rsplit('.', 1)[-1]}(",
        f"{p}{m.type}: {lines[0]}",
        *(p + x for x in lines[1:]),
    ]
    return "\n".join(tb) + "\n"


def classify(m: Message, sigs: dict) -> None:
    text = sample(m)
    r = triage_stream(io.BytesIO(text.encode()), m.file)
    d = r.diagnoses[0] if r.diagnoses else None
    m.top = d.id if d else "none"
    if d is None:
        m.verdict = "nothing"
        return
    sig = sigs.get(d.id)
    worded = sig is not None and any(sig.search(x) for x in text.splitlines())
    specific = (
        d.role == "cause" and d.id not in GENERIC_IDS and sig is not None and not sig.generic and worded
    )
    m.verdict = "specific" if specific else "generic"


USER_WORDS = re.compile(
    r"(?i)not supported|unsupported|please|install|--[a-z]|compute capability|capability|gpu|cuda|rocm|memory|"
    r"must be|should be|cannot|can't|requires?|set |env|version|flag|quantiz|dtype|checkpoint|weights?|"
    r"tokenizer|not found|does not exist|no such|kv cache|max_model_len|tensor.parallel|divisible|backend|"
    r"kernel|flash|triton|download|token|out of|failed to"
)
INTERNAL = re.compile(
    r"(?i)assert|should not|shouldn't|unreachable|internal|bug|unexpected|not implemented|invariant|"
    r"must not happen|impossible|sanity|\bTODO\b|developer"
)
USER_AREAS = (
    "config/", "engine/arg_utils.py", "platforms/", "model_executor/model_loader", "model_executor/layers/quantization",
    "v1/attention", "transformers_utils/", "entrypoints/", "v1/engine", "v1/worker/gpu_worker", "distributed/",
    "model_executor/models/registry", "lora/", "v1/core/kv_cache_utils", "attention/", "utils/",
)  # fmt: skip


def likelihood(m: Message) -> int:
    """How likely a user meets this message (a judgement): user-facing areas and words up, internals down."""
    score = 3 * any(m.file.startswith(a) for a in USER_AREAS)
    score += min(4, len(USER_WORDS.findall(m.text)))
    score += 2 * (m.type in ("ValueError", "ImportError", "ModuleNotFoundError", "OSError", "CRITICAL"))
    score -= 4 * bool(INTERNAL.search(m.text)) + 3 * (m.type in ("AssertionError", "NotImplementedError"))
    score -= 3 * m.file.startswith(
        ("benchmarks/", "third_party/", "profiler/", "entrypoints/openai/", "tool_parsers")
    )
    score -= 2 * (len(m.text) < 25)
    return score


def find_vllm() -> Path | None:
    found = sorted(ROOT.glob(".venv-vllm/lib/python3.*/site-packages/vllm"))
    return found[-1] if found else None


def harvest(vllm: Path) -> list[Message]:
    files = sorted(vllm.rglob("*.py"))
    classes: dict[str, str] = {}
    for f in files:  # non-builtin exception classes print module-qualified in a traceback
        mod = "vllm." + ".".join(f.relative_to(vllm).with_suffix("").parts)
        for cls in re.findall(r"^class (\w+(?:Error|Exception))\b", f.read_text(errors="replace"), re.M):
            classes.setdefault(cls, f"{mod}.{cls}")
    out = []
    for f in files:
        for m in harvest_file(f, str(f.relative_to(vllm)), classes):
            if m.kind == "log" or m.type in dir(builtins) or "." in m.type or m.type.endswith(EXC_ENDS):
                out.append(m)
    return out


def report(msgs: list[Message], args: argparse.Namespace) -> None:
    def line(label: str, group: list[Message]) -> str:
        c = Counter(m.verdict for m in group)
        n = len(group)
        return (
            f"{label:<36} {n:>5}  specific {c['specific']:>5} ({100 * c['specific'] / n:5.1f}%)"
            f"  generic {c['generic']:>5}  nothing {c['nothing']:>4}"
        )

    unrendered = sum(not m.rendered for m in msgs)
    print(f"vLLM messages harvested: {len(msgs)} ({unrendered} with a part that could not be rendered)")
    print(line("overall", msgs))
    print(line("  raises", [m for m in msgs if m.kind == "raise"]))
    print(line("  logger.error/critical/exception", [m for m in msgs if m.kind == "log"]))
    user = [m for m in msgs if m.likelihood >= 6]
    print(line("  likely met by users (likelihood>=6)", user))
    by_area: dict[str, list[Message]] = {}
    for m in msgs:
        by_area.setdefault(m.area, []).append(m)
    print("per area:")
    for area, group in sorted(by_area.items(), key=lambda kv: -len(kv[1])):
        if len(group) >= 10 or args.all_areas:
            print(line("  " + area, group))
    missed = [m for m in msgs if m.verdict != "specific" and m.file.startswith(args.area or "")]
    missed.sort(key=lambda m: (-m.likelihood, m.file, m.line))
    print(f"uncovered, most likely met first ({args.uncovered} of {len(missed)}):")
    for m in missed[: args.uncovered]:
        print(f"  [{m.likelihood:>2}] {m.file}:{m.line} {m.type}: {m.text[:150]!r} -> {m.top}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncovered", type=int, default=40, help="how many uncovered messages to list")
    ap.add_argument("--area", default="", help="list only uncovered messages under this path prefix")
    ap.add_argument("--all-areas", action="store_true", help="print areas with fewer than 10 messages too")
    ap.add_argument("--json", help="write every message with its verdict to this file")
    ap.add_argument(
        "--source", help="another vLLM's package directory (e.g. vllm/ unzipped from an older wheel)"
    )
    args = ap.parse_args()
    vllm = Path(args.source) if args.source else find_vllm()
    if vllm is None:
        print("skipped: no .venv-vllm/lib/python3.*/site-packages/vllm (the real vLLM source) here")
        return 0
    msgs = harvest(vllm)
    sigs = {s.id: s for s in load_signatures()}
    for m in msgs:
        m.area, m.likelihood = area_of(m.file), likelihood(m)
        classify(m, sigs)
    report(msgs, args)
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(m) for m in msgs], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
