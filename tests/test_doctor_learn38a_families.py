"""What the scored batches fresh-253 (two llama-server options combined) and fresh-255 (other value classes of
llama-server options) taught after scoring, with the neighbourhood of each miss's check in llama.cpp b11434's source.

- llamacpp-spec-type-draft-kind-mismatch: common/speculative.cpp's draft-simple check ('draft-simple requires a draft
  context', no -md), which after32d had read as cli-missing-argument: the kind asked for has no draft of its kind.
- llamacpp-spec-synthetic-acceptance-invalid: server-context.cpp load_model's 'synthetic acceptance requires an
  initialized speculative decoding context' (the flags, or their LLAMA_ARG_SPEC_SYNTH_* variables, with no speculative
  decoder set up), and 'requires at least one speculative token', both cli-missing-argument's until now.
- llamacpp-grammar-file-invalid (new): a grammar given at start (--grammar, --grammar-file, or the GBNF converted from
  -j) that does not parse aborts while loading ('what():  failed to parse grammar'); a request's grammar that does not
  parse stays request-grammar-invalid's (HTTP 400, the server serves on).
Logs marked 'run here' are the real llama-server b11434 (.llama-cpp/bin/llama-server, the tiny GGUF); 'rendered' is the
source's format string filled with a value.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

LOAD = "0.00.004.119 I srv    load_model: loading model '/tmp/learn38a/tiny-f32.gguf'\n"
SLOTS = "0.00.012.439 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 512, kv_unified = 'true'\n"
EXIT = (
    "0.00.020.428 I srv    operator(): operator(): cleaning up before exit...\n"
    "0.00.020.713 E srv  llama_server: exiting due to model loading error\n"
)
UP = "0.01.135.447 I srv  llama_server: model loaded\n0.01.135.470 I srv  llama_server: listening on http://127.0.0.1:22100\n"
ABORT = "terminate called after throwing an instance of 'std::runtime_error'\n  what():  failed to parse grammar\n"

CASES = [
    # run here: --spec-type draft-simple,ngram-mod on the command line, no -md: logged, then served without speculation
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        "$ llama-server -m tiny-f32.gguf --port 22100 -c 512 --spec-type draft-simple,ngram-mod\n"
        + LOAD
        + SLOTS
        + "0.01.133.618 E srv    load_model: failed to initialize speculative decoding context: draft-simple requires "
        "a draft context\n" + UP,
    ),
    # run here: LLAMA_ARG_SPEC_SYNTH_LEN=2 in the environment, no speculative type
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "$ export LLAMA_ARG_SPEC_SYNTH_LEN=2\n$ llama-server -m tiny-f32.gguf --port 22100 -c 512\n"
        + LOAD
        + SLOTS
        + "0.00.428.427 E srv    load_model: synthetic acceptance requires an initialized speculative decoding context\n"
        + EXIT,
    ),
    # run here: --spec-type draft-eagle3 with no -md (no draft context, so no EAGLE3 speculator) and --spec-synth-rates
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "$ llama-server -m tiny-f32.gguf --port 22100 -c 512 --spec-type draft-eagle3 --spec-synth-rates 0.5\n"
        + LOAD
        + SLOTS
        + "0.00.013.370 E srv    load_model: synthetic acceptance requires an initialized speculative decoding context\n"
        + EXIT,
    ),
    # run here: ngram-mod with --spec-ngram-mod-n-max 0 and --spec-synth-len 2 (common_speculative_synth_rates_resolve)
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        LOAD
        + SLOTS
        + "0.00.020.415 E srv    load_model: failed to initialize speculative decoding context: synthetic acceptance "
        "requires at least one speculative token\n" + EXIT,
    ),
    # run here: --grammar 'main ::= "a"' (llama_grammar_init_impl: no root rule)
    (
        "llamacpp-grammar-file-invalid",
        LOAD + "0.00.015.859 E grammar does not contain a 'root' symbol\n" + ABORT,
    ),
    # run here: --grammar-file of 'root ::= [a-z' (an unclosed class)
    (
        "llamacpp-grammar-file-invalid",
        LOAD
        + "parse: error parsing grammar: unexpected end of input\n\nroot ::= [a-z\n\n"
        + "0.00.013.463 E failed to parse grammar\n"
        + ABORT,
    ),
    # run here: -j of a schema whose minItems 3000 becomes {2999,}, above the 2000 repetition limit
    (
        "llamacpp-grammar-file-invalid",
        "$ llama-server -m tiny-f32.gguf --port 22100 -c 512 -j "
        '\'{"type":"array","items":{"type":"string"},"minItems":3000}\'\n'
        + LOAD
        + "parse: error parsing grammar: number of repetitions exceeds sane defaults, please reduce the number of "
        "repetitions\n\n"
        'root ::= "[" space string ("," space string){2999,} space "]"\n'
        'space ::= | " " | "\\n"{1,2} [ \\t]{0,20}\n\n'
        "0.00.035.435 E failed to parse grammar\n" + ABORT,
    ),
    # run here: --grammar '%llguidance {} ...' on a build without llguidance (common/sampling.cpp)
    (
        "llamacpp-grammar-file-invalid",
        LOAD
        + "terminate called after throwing an instance of 'std::runtime_error'\n"
        + "  what():  failed to parse grammar: llguidance is not enabled\n",
    ),
]

NEAR_MISSES = [
    # the draft-simple constructor's next check: a draft of another vocabulary is llamacpp-draft-model-incompatible's
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        SLOTS
        + "0.01.001.122 E spec common_specu: the target and draft vocabs are not compatible\n"
        + "0.01.001.267 E srv    load_model: failed to initialize speculative decoding context: draft model vocab type "
        "must match target model to use speculation\n" + UP,
    ),
    # run here: a -md path that does not exist (LLAMA_ARG_SPEC_DRAFT_MODEL) is a missing file, not the speculative setup
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "0.00.468.803 E gguf_init_from_file: failed to open GGUF file '/tmp/learn38a/nope.gguf' (No such file or "
        "directory)\n"
        "0.00.468.850 E common_speculative_init_result: failed to load draft model, '/tmp/learn38a/nope.gguf'\n"
        "0.00.468.856 E srv    load_model: failed to load draft model, '/tmp/learn38a/nope.gguf'\n" + EXIT,
    ),
    # the same parse failing on a request's grammar: refused with 400, the server serves on (fresh-140's shape)
    (
        "llamacpp-grammar-file-invalid",
        UP + 'parse: error parsing grammar: expecting \')\' at \n\nroot ::= ("yes" | "no"\n'
        "0.02.026.748 E failed to parse grammar\n"
        "0.02.026.835 E srv    send_error: task id = 0, error: Failed to initialize samplers: failed to parse grammar\n"
        '# request: POST /completion {"prompt": "Q", "grammar": "root ::= (\\"yes\\" | \\"no\\""}\n'
        "HTTP/1.1 400 Bad Request\n"
        '{"error":{"code":400,"message":"Failed to initialize samplers: failed to parse grammar",'
        '"type":"invalid_request_error"}}\n',
    ),
    # rendered: a request's %llguidance grammar on a build without it is caught the same way (launch_slot)
    (
        "llamacpp-grammar-file-invalid",
        UP
        + "0.00.502.312 E srv    send_error: task id = 0, error: Failed to initialize samplers: failed to parse "
        "grammar: llguidance is not enabled\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_requests_grammar_stays_the_requests():
    """Without the start-up abort, a grammar that does not parse is the request's refusal."""
    assert_named(
        "request-grammar-invalid",
        UP + "parse: error parsing grammar: unexpected end of input\n\nroot ::= [a-z\n"
        "0.00.502.263 E failed to parse grammar\n"
        "0.00.502.312 E srv    send_error: task id = 0, error: Failed to initialize samplers: failed to parse grammar\n",
    )


def test_argparse_required_arguments_stay_missing_arguments():
    """cli-missing-argument keeps the command line's own refusals (argparse's, llama-perplexity's)."""
    assert_named(
        "cli-missing-argument", "vllm serve: error: the following arguments are required: model_tag\n"
    )
    assert_named(
        "cli-missing-argument",
        "kl_divergence: you must provide a name of a file containing the log probabilities of the base model\n",
    )
