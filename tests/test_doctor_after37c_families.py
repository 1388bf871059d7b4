"""What the scored batch fresh-244 (llama-server's options drawn at random) taught after scoring, with the neighbourhood
of each miss's check in llama.cpp b11434's own source (common/arg.cpp, common/hf-cache.cpp, tools/server/server.cpp).

- llamacpp-preset-overrides-port: a preset switch (common/arg.cpp's '// presets': --embd-gemma-default 8011,
  --fim-qwen-*-default/-spec 8012, --gpt-oss-*-default 8013, --vision-gemma-*-default 8014) after --port (or with
  LLAMA_ARG_PORT) sets its own port; counted only where the server then listens on a preset port.
- llamacpp-download-no-https (outlived_when_up): hf-cache.cpp's caught 'get_repo_commit: error: HTTPS is not supported'
  is only a note where the server came up after it (an -m file to fall back on); it stays the cause where it did not.
- llamacpp-invalid-argument: common_params_parse_ex's LLAMA_ARG_* refusals ('error while handling environment variable
  "X": ...': parse_bool_value, std::stoi, a handler's own) name the variable and the quoting an env file keeps.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

HTTPS = (
    "0.00.002.772 E get_repo_commit: error: HTTPS is not supported. Please rebuild with one of:\n"
    "  -DLLAMA_BUILD_BORINGSSL=ON\n"
    "  -DLLAMA_BUILD_LIBRESSL=ON\n"
    "  -DLLAMA_OPENSSL=ON (default, requires OpenSSL dev files installed)\n"
    "0.00.002.777 W get_repo_files: failed to resolve commit for {repo}\n"
)
LOADED = (
    "0.00.012.572 I srv    load_model: loading model '{repo}'\n"
    "0.00.752.479 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 4096, kv_unified = 'true'\n"
    "0.00.760.778 I srv  llama_server: model loaded\n"
    "0.00.765.779 I srv  llama_server: listening on http://{host}:{port}\n"
)
NO_FILE = (
    "0.00.009.673 I srv    load_model: loading model '{repo}'\n"
    "0.00.009.785 E llama_model_load_from_file_impl: exactly one out metadata, path_model, and file must be defined\n"
    "0.00.009.858 E cmn  common_init_: failed to load model ''\n"
    "0.00.009.873 E srv    load_model: failed to load model, ''\n"
    "0.00.010.366 E srv  llama_server: exiting due to model loading error\n"
)


def started(command: str, repo: str, port: int, host: str = "0.0.0.0") -> str:
    """A llama-server start whose Hub lookup failed for want of HTTPS, then loaded the -m file and listened."""
    return f"$ {command}\n" + HTTPS.format(repo=repo) + LOADED.format(repo=repo, host=host, port=port)


CASES = [
    # another preset (--vision-gemma-4b-default, port 8014) after the user's --port (rendered from common/arg.cpp)
    (
        "llamacpp-preset-overrides-port",
        started(
            "llama-server -m /models/gemma-3-4b-it-Q4_K_M.gguf --port 9000 --vision-gemma-4b-default",
            "ggml-org/gemma-3-4b-it-qat-GGUF",
            8014,
        ),
    ),
    # the port from LLAMA_ARG_PORT, read before the command line, replaced by --gpt-oss-20b-default's 8013
    (
        "llamacpp-preset-overrides-port",
        started(
            "LLAMA_ARG_PORT=8080 llama-server -m /srv/gpt-oss-20b-mxfp4.gguf --gpt-oss-20b-default",
            "ggml-org/gpt-oss-20b-GGUF",
            8013,
            "127.0.0.1",
        ),
    ),
    # the preset spelt with underscores (common_params_parse_ex turns '_' into '-' after a leading '--')
    (
        "llamacpp-preset-overrides-port",
        started(
            "llama-server -m /m/embeddinggemma.gguf --port 8081 --embd_gemma_default",
            "ggml-org/embeddinggemma-300M-qat-q4_0-GGUF",
            8011,
        ),
    ),
    # the same preset run with no -m to fall back on: the server never listens, the missing HTTPS client is the cause
    (
        "llamacpp-download-no-https",
        "$ llama-server --port 9000 --fim-qwen-3b-default\n"
        + HTTPS.format(repo="ggml-org/Qwen2.5-Coder-3B-Q8_0-GGUF")
        + NO_FILE.format(repo="ggml-org/Qwen2.5-Coder-3B-Q8_0-GGUF"),
    ),
    # server.cpp's own refusal of a download (return 1) stays the cause
    (
        "llamacpp-download-no-https",
        "$ llama-server -hf ggml-org/gemma-3-1b-it-GGUF --port 9000\n"
        "0.00.010.296 E srv  llama_server: failed to download model: HTTPS is not supported. Please rebuild with one of:\n"
        "  -DLLAMA_BUILD_BORINGSSL=ON\n",
    ),
    # the env-parsing siblings of 'invalid boolean value' (common_params_parse_ex; rendered): an int's std::stoi, a
    # string option's own refusal (--flash-attn's handler), a removed option's
    (
        "llamacpp-invalid-argument",
        '$ export LLAMA_ARG_CTX_SIZE="8192"\nerror while handling environment variable "LLAMA_ARG_CTX_SIZE": stoi\n',
    ),
    (
        "llamacpp-invalid-argument",
        'error while handling environment variable "LLAMA_ARG_FLASH_ATTN": error: unknown value for --flash-attn: '
        "'yes'\n",
    ),
    (
        "llamacpp-invalid-argument",
        'error while handling environment variable "LLAMA_ARG_ENDPOINT_METRICS": invalid boolean value\n',
    ),
]

NEAR_MISSES = [
    # the preset first and the user's --port after it: the user's port wins, nothing is overridden
    (
        "llamacpp-preset-overrides-port",
        started(
            "llama-server -m /m/q.gguf --fim-qwen-7b-default --port 9000",
            "ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF",
            9000,
        ),
    ),
    # a preset with no port of the user's: listening on the preset's own port is what was asked for
    (
        "llamacpp-preset-overrides-port",
        started(
            "llama-server -m /m/q.gguf --fim-qwen-7b-default", "ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF", 8012
        ),
    ),
    # a preset after --port whose server never came up (no -m): the download's failure, not the port
    (
        "llamacpp-preset-overrides-port",
        "$ llama-server --port 9000 --gpt-oss-120b-default\n"
        + HTTPS.format(repo="ggml-org/gpt-oss-120b-GGUF")
        + NO_FILE.format(repo="ggml-org/gpt-oss-120b-GGUF"),
    ),
    # a model file named after a preset is no preset switch
    (
        "llamacpp-preset-overrides-port",
        started(
            "llama-server --port 9000 -m /m/gpt-oss-20b-default.gguf -hf ggml-org/gpt-oss-20b-GGUF",
            "x/y",
            8013,
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_https_lookup_outlived_by_the_server_is_a_note():
    """-m and -hf together, no HTTPS: hf-cache.cpp logs the refusal at E, the -m file loads and the server listens on
    the user's port; nothing failed (as fresh-64's router instance), so the missing download is only a note."""
    result = run(
        started("llama-server -m /m/alpha.gguf -hf ggml-org/gemma-3-1b-it-GGUF --port 9000", "x/y", 9000)
    )
    assert top_cause(result) is None
    note = next(d for d in result.diagnoses if d.id == "llamacpp-download-no-https")
    assert note.role == "note" and note.cause.startswith("Not fatal here")


def test_env_variable_refusal_names_the_variable_and_its_quotes():
    """The cause speaks of the LLAMA_ARG_* variable, not of the command line; the fix of the forms and the quotes."""
    log = '$ export LLAMA_ARG_LOG_TIMESTAMPS=\'"true"\'\nerror while handling environment variable "LLAMA_ARG_LOG_TIMESTAMPS": invalid boolean value\n'
    assert_named("llamacpp-invalid-argument", log)
    top = top_cause(run(log))
    assert "refused its environment variable at LLAMA_ARG_LOG_TIMESTAMPS:" in top.cause
    assert "no quotes" in top.fix and "true/1/on/enabled" in top.fix


def test_an_older_console_quoting_the_cause_still_fills_the_flag():
    """servebox up's INCIDENT line quotes the cause as it was ('refused its command line at --ctx-size: ...'):
    incidents.py reads it back through the template, so {what} and {arg} still come out of it."""
    log = (
        "tiny: INCIDENT dead: the engine process is gone; diagnosis: llama-server (or another llama.cpp tool: "
        "llama-quantize, llama-cli) refused its command line at --ctx-size: an unknown flag, a value of the wrong "
        "form, or positional arguments out of order. (fix: Correct --ctx-size); restart after 5s\n"
    )
    top = top_cause(run(log))
    assert top.id == "llamacpp-invalid-argument" and "refused its command line at --ctx-size:" in top.cause
