"""after33a (stop 33): what fresh-153 (speculative decoding in llama-server) and fresh-155 (constrained output in
llama-server) taught after scoring, each in a wording other than its corpus log's, with near misses.

Where the wordings came from: llama-server 11434 (.llama-cpp/bin) run here on the tiny GGUF of
tests/engine/make_tiny_gguf.py (ports 19440-19441): --json-schema-file of a file with a trailing comma and of one with
an unresolvable $ref; --grammar-file with an unclosed group; --spec-type draft-simple without -md; with --jinja, a chat
request with grammar beside tools and one whose assistant tool call lacks its name. The rest from llama.cpp's source
(b11434): common/speculative.cpp's checks of each --spec-type, common/chat.cpp's tools parsing (nlohmann's at()).
"""

from __future__ import annotations

import io

from servebox.doctor.abort_cause import abort_explained
from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.triage import triage_stream
from tests.doctor_text import family_tests

LLAMA = "0.00.003.355 I srv    load_model: loading model '/srv/models/qwen3-8b-q4_k_m.gguf'\n"
UP = "0.00.287.326 I srv  llama_server: model loaded\n0.00.289.647 I srv  llama_server: listening on http://0.0.0.0:8080\n"
ABORT = "terminate called after throwing an instance of 'std::runtime_error'\n  what():  failed to parse grammar\n"

CASES = [
    # run here: -jf of a file that is not JSON (a trailing comma), refused while handling the argument
    (
        "llamacpp-arg-file-unreadable",
        'error while handling argument "--json-schema-file": [json.exception.parse_error.101] parse error at line 1, '
        "column 58: syntax error while parsing object key - unexpected '}'; expected string literal\n\nusage:\n",
    ),
    # run here: -jf of a schema whose $ref has no definition
    (
        "llamacpp-arg-file-unreadable",
        'error while handling argument "--json-schema-file": JSON schema conversion failed:\n'
        "JSON schema error at #/properties/a: cannot resolve $ref #/$defs/Missing, $defs not found\n\nusage:\n",
    ),
    # run here: --spec-type draft-simple with no -md at all (after33a read it as cli-missing-argument's; learn38a, s38:
    # the kind asked for has no draft of its kind)
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        LLAMA
        + "0.00.012.411 E srv    load_model: failed to initialize speculative decoding context: draft-simple "
        "requires a draft context\n" + UP,
    ),
    # run here: --grammar-file with an unclosed group: parsed while loading, then the abort (a start-up grammar:
    # llamacpp-grammar-file-invalid since learn38a, s38)
    (
        "llamacpp-grammar-file-invalid",
        LLAMA + "parse: error parsing grammar: expecting ')' at \n\n"
        'root ::= "a" ( "b" \n\n'
        "0.00.009.970 E failed to parse grammar\n" + ABORT,
    ),
    # common/speculative.cpp: draft-mtp with a draft (or target) whose rows are not the target's MTP head
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        LLAMA
        + "/llama.cpp/common/speculative.cpp:1437: GGML_ASSERT(n_embd == llama_model_n_embd_out(llama_get_model("
        'ctx_tgt)) && "MTP input row width must match the target h_nextn width") failed\nAborted (core dumped)\n',
    ),
    # common/speculative.cpp: draft-dflash given a plain draft, ggml's assert
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        LLAMA
        + '/llama.cpp/common/speculative.cpp:1033: GGML_ASSERT(target_layer_ids_n > 0 && "DFlash model has no '
        'target_layer_ids") failed\nAborted (core dumped)\n',
    ),
    # common/speculative.cpp: draft-dspark's thrown check
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        LLAMA + "E srv    load_model: failed to initialize speculative decoding context: DSpark draft has no "
        "confidence head: please set --spec-draft-p-min 0\n" + UP,
    ),
    # run here (--jinja): an assistant tool call without its function name
    (
        "request-field-missing",
        UP
        + '0.00.536.867 W srv    operator(): got exception: {"error":{"code":500,"message":"Failed to parse '
        'messages: Missing tool call name: {\\"type\\":\\"function\\",\\"function\\":{\\"arguments\\":\\"{}\\"}}",'
        '"type":"server_error"}}\n',
    ),
    # common/chat.cpp: a tool without "function" read with at(): nlohmann's out_of_range.403 for another key
    (
        "request-field-missing",
        UP + '{"error":{"code":500,"message":"Failed to parse tools: [json.exception.out_of_range.403] key '
        '\'function\' not found; tools = [\\n  {\\n    \\"type\\": \\"function\\"\\n  }\\n]","type":'
        '"server_error"}}\n',
    ),
    # run here (--jinja): grammar beside tools (learn38b: a constraint beside the server's own tool-call grammar is
    # request-structured-outputs-with-named-tool-choice's, no longer the two-constraints family's)
    (
        "request-structured-outputs-with-named-tool-choice",
        UP
        + '0.00.527.619 W srv    operator(): got exception: {"error":{"code":400,"message":"Cannot use custom '
        'grammar constraints with tools.","type":"invalid_request_error"}}\n',
    ),
]

NEAR_MISSES = [
    # an inline --json-schema (no file) refused: a value of the flag, llamacpp-invalid-argument's
    (
        "llamacpp-arg-file-unreadable",
        'error while handling argument "--json-schema": [json.exception.parse_error.101] parse error at line 1, '
        "column 2: syntax error while parsing object key - invalid literal\n",
    ),
    # a draft of another tokenizer is llamacpp-draft-model-incompatible's, not a --spec-type mismatch
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        LLAMA + "E spec   draft_simpl: the target and draft vocabs are not compatible\n"
        "E srv    load_model: failed to initialize speculative decoding context: draft model vocab type must match "
        "target model to use speculation\n" + UP,
    ),
    # nlohmann's out_of_range outside a request (an index, not a missing key)
    (
        "request-field-missing",
        UP
        + '{"error":{"code":500,"message":"[json.exception.out_of_range.401] array index 3 is out of range",'
        '"type":"server_error"}}\n',
    ),
    # run here: json_schema (response_format) beside grammar on /v1/chat/completions was answered HTTP 200
    (
        "request-structured-output-constraints-conflict",
        UP + "srv  log_server_r: request: POST /v1/chat/completions 127.0.0.1 200\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def _triage(text: str):
    return triage_stream(io.StringIO(text), "t")


def test_value_refusal_of_inline_schema_stays_invalid_argument():
    log = 'error while handling argument "--json-schema": JSON schema conversion failed:\nUnrecognized schema: 3\n'
    assert _triage(log).diagnoses[0].id == "llamacpp-invalid-argument"


def test_eagle3_wording_left_draft_model_incompatible():
    log = (
        LLAMA
        + "E srv    load_model: failed to initialize speculative decoding context: draft model is not eagle3 "
    )
    log += "(expected 3 extract layers, got 0)\n" + UP
    ids = [d.id for d in _triage(log).diagnoses]
    assert ids[0] == "llamacpp-spec-type-draft-kind-mismatch"
    assert "llamacpp-draft-model-incompatible" not in ids


def _d(id_: str, line: int, category: str = "requests") -> Diagnosis:
    return Diagnosis(
        id=id_,
        category=category,
        role="cause",
        cause="",
        fix="",
        confidence=0.8,
        occurrences=1,
        first_line=line,
        evidence=[Evidence(line=line, text="")],
        fatal=False,
    )


def test_error_line_just_above_an_abort_is_its_cause():
    """abort_cause.py: the cause entry on a line directly above the abort ends the program; the abort is its symptom."""
    abort, grammar = _d("native-abort", 10, "crash"), _d("request-grammar-invalid", 9)
    abort_explained([abort, grammar])
    assert (abort.role, grammar.fatal) == ("symptom", True)


def test_error_line_far_above_an_abort_is_not():
    abort, refusal = _d("native-abort", 40, "crash"), _d("request-grammar-invalid", 9)
    abort_explained([abort, refusal])
    assert (abort.role, refusal.fatal) == ("cause", False)
