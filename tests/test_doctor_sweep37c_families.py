"""sweep37c: llama-server's and common/'s own checks that a flag, a GGUF or a request field trips (llama.cpp b11434's
source, swept before any batch met them): knowledge/llama-server-checks.toml's families, and the families widened
in place (request-field-wrong-type, request-prompt-empty, request-field-missing, request-field-value-not-allowed,
request-tool-field-wrong-type, request-sampling-param-out-of-range, request-longer-than-context).

Each message is the source's format string filled with other values than the coverage harness's, wrapped as
llama-server prints it: ex_wrapper's 'srv    operator(): got exception: {...}' (the client's body is the same JSON),
send_error's 'srv    send_error: task id = N, error: ...', a loader's 'llama_model_load: error loading model: ...',
GGML_ABORT's 'file:line: ...'.
"""

from __future__ import annotations

import json

import pytest

from tests.doctor_text import family_tests, run, top_cause


def srv(message: str, code: int = 400) -> str:
    """ex_wrapper's log line for a refused request (tools/server/server.cpp): the reply's body after 'got exception:'."""
    kind = "invalid_request_error" if code == 400 else "server_error"
    body = json.dumps({"error": {"code": code, "message": message, "type": kind}}, separators=(",", ":"))
    return f"srv    operator(): got exception: {body}\n"


def client(message: str, code: int = 400) -> str:
    """What a client printed: the status and the body."""
    kind = "invalid_request_error" if code == 400 else "server_error"
    body = json.dumps({"error": {"code": code, "message": message, "type": kind}})
    return f"# request: POST http://127.0.0.1:8080/v1/chat/completions\nHTTP/1.1 {code}\n{body}\n"


CASES = [
    (
        "llamacpp-file-url-needs-media-path",
        client("file:// URLs are not allowed unless --media-path is specified"),
    ),
    ("llamacpp-media-path-file-refused", srv("file path is not allowed: /etc/hosts")),
    ("llamacpp-media-path-file-refused", srv("file does not exist or cannot be opened: scans/page-01.jpg")),
    ("llamacpp-media-data-uri-invalid", srv("Invalid uri format: data:application/pdf;base64")),
    ("llamacpp-media-data-uri-invalid", client("uri must be base64 encoded")),
    ("llamacpp-media-data-uri-invalid", srv("Invalid uri-encoded base64 value")),
    ("llamacpp-media-url-download-failed", srv("Failed to download image", 500)),
    (
        "llamacpp-assistant-prefill-conflict",
        srv("Cannot set both add_generation_prompt and continue_final_message to true."),
    ),
    (
        "llamacpp-assistant-prefill-conflict",
        client("Cannot have 2 or more assistant messages at the end of the list."),
    ),
    (
        "llamacpp-assistant-prefill-conflict",
        srv("Cannot continue an assistant message that contains tool calls."),
    ),
    ("llamacpp-logprobs-with-tools-stream", client("logprobs is not supported with tools + stream")),
    ("request-top-logprobs-without-logprobs", srv("top_logprobs requires logprobs to be set to true")),
    ("llamacpp-openai-param-unsupported", srv("Unsupported param: suffix", 500)),
    ("llamacpp-openai-param-unsupported", srv("Only no echo is supported", 500)),
    ("llamacpp-responses-field-unsupported", srv("llama.cpp does not support 'previous_response_id'.")),
    ("llamacpp-responses-field-unsupported", srv("'input_file' is not supported by llamacpp at this moment")),
    (
        "llamacpp-responses-input-item-invalid",
        srv("Output of tool call should be 'Input text' or 'Input image'"),
    ),
    ("llamacpp-responses-input-item-invalid", srv("item['content'] is empty")),
    ("llamacpp-responses-input-item-invalid", srv("Cannot determine type of 'item'")),
    (
        "llamacpp-k-shift-unsupported-model",
        "main: context full, shifting: n_past = 4095, n_left = 4094, n_keep = 0, n_discard = 2047\n"
        "/opt/llama.cpp/src/llama-kv-cache.cpp:877: The current KV cache / model configuration does not support K-shift\n"
        "/opt/llama.cpp/build/bin/libggml-base.so(+0x16f8b)[0x7f0c2a5c8f8b]\n",
    ),
    (
        "gguf-tensor-row-not-block-multiple",
        "gguf_init_from_reader: tensor 'blk.7.ffn_up.weight' of type 8 (q8_0) has 1000 elements per row, not a multiple "
        "of block size (32)\ngguf_init_from_file_impl: failed to read tensor info\n"
        "llama_model_load: error loading model: llama_model_loader: failed to load model from /m/x.gguf\n",
    ),
    # src/llama-vocab.cpp's array checks, checked and already named (the harness renders their string concatenation
    # badly): no family of this file for them
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: Index out of array bounds for toktypes "
        "(151643 < 151936)\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: invalid gguf type for "
        "tokenizer.ggml.merges\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: Byte token for <0x7F> is not set\n",
    ),
    # widened in place
    (
        "request-field-wrong-type",
        srv('invalid type for "enable_thinking" (expected boolean, got string)'),
    ),
    (
        "request-field-wrong-type",
        srv(
            "Failed to parse messages: Invalid 'content' type: expected string or array, got 42 "
            "(ref: https://github.com/ggml-org/llama.cpp/issues/8367)",
            500,
        ),
    ),
    (
        "request-field-wrong-type",
        srv("Failed to parse messages: Expected 'message' to be an object, got 7", 500),
    ),
    (
        "request-field-wrong-type",
        srv(
            '"prompt" elements must be a string, a list of tokens, a JSON object containing a prompt string, or a list '
            "of mixed strings & tokens."
        ),
    ),
    ("request-prompt-empty", srv('"prompt" must not be empty')),
    (
        "request-field-missing",
        srv(
            "Failed to parse messages: Expected 'content' or 'tool_calls' (ref: "
            "https://github.com/ggml-org/llama.cpp/issues/8367 & https://github.com/ggml-org/llama.cpp/issues/12279)",
            500,
        ),
    ),
    (
        "request-field-value-not-allowed",
        srv(
            'Failed to parse messages: Unsupported tool call type: {"function":{"name":"f"},"type":"custom"}',
            500,
        ),
    ),
    (
        "request-tool-field-wrong-type",
        srv(
            'Failed to parse tools: Expected \'tools\' to be an array, got {"type":"function"}; tools = {}',
            500,
        ),
    ),
    (
        "request-sampling-param-out-of-range",
        "srv    send_error: task id = 12, error: Failed to initialize samplers: penalty_repeat must be finite and "
        "greater than 0\n",
    ),
    (
        "request-sampling-param-out-of-range",
        srv("Failed to initialize samplers: penalty_freq must be finite"),
    ),
    (
        "request-longer-than-context",
        "find_slot: n_tokens = 2048 > size = 512\ndecode: failed to find a memory slot\n",
    ),
    # second pass: built-in /tools, the synthetic-acceptance flags, chat output parsing, the loader and cache families
    ("llamacpp-builtin-tool-not-enabled", srv('unknown tool "browser_search"')),
    ("llamacpp-builtin-tool-not-enabled", srv('tool "edit_file" does not support stream = true')),
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "terminate called after throwing an instance of 'std::invalid_argument'\n"
        "  what():  synthetic acceptance rates must contain 8 values, got 3\n",
    ),
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "terminate called after throwing an instance of 'std::invalid_argument'\n"
        "  what():  synthetic acceptance length must be finite and within [1, 5]\n",
    ),
    (
        "llamacpp-model-output-breaks-chat-format",
        "common_chat_peg_parse: unparsed peg-gemma4 output: <|tool_call>call:get_weather{city:\n"
        + srv("The model produced output that does not match the expected peg-gemma4 format", 500),
    ),
    (
        "llamacpp-no-buffer-type-for-tensor",
        "llama_model_load: error loading model: no suitable buffer type found\n"
        "llama_model_load_from_file_impl: failed to load model\n",
    ),
    (
        "llamacpp-home-unset",
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  Failed to determine HF cache directory\nAborted (core dumped)\n",
    ),
    (
        "llamacpp-cache-dir-unwritable",
        "common_pull_file: error closing file: /models/cache/unsloth_Qwen3-8B-GGUF_Qwen3-8B-Q4_K_M.gguf.downloadInProgress\n",
    ),
    # third pass: /v1/systemone's decision requests, grammar beside tools
    ("llamacpp-decision-request-invalid", srv('"questions" must be a non-empty object')),
    ("llamacpp-decision-request-invalid", srv("questions.tone: must be an object")),
    ("llamacpp-decision-request-invalid", client("too many images, the maximum is 8")),
    ("llamacpp-decision-request-invalid", srv("images must be data URLs (data:image/...;base64,...)")),
    # (learn38b: a grammar beside the server's own tool-call grammar, no longer the two-constraints family)
    ("request-structured-outputs-with-named-tool-choice", srv("Cannot specify grammar with tools", 500)),
    # no speculative decoding at all (fresh137-llama-spec-synth-without-spec, once a near miss here as
    # cli-missing-argument's): the synthetic-acceptance family's since learn38a (s38)
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "0.00.071.902 E srv    load_model: synthetic acceptance requires an initialized speculative decoding context\n"
        "0.00.072.140 E srv  llama_server: exiting due to model loading error\n",
    ),
]

NEAR_MISSES = [
    # a --media-path that is no directory is the flag's own refusal at start (arg.cpp), not a request's
    (
        "llamacpp-file-url-needs-media-path",
        'error while handling argument "--media-path": not a directory: /srv/media\n',
    ),
    (
        "llamacpp-media-path-file-refused",
        srv("file:// URLs are not allowed unless --media-path is specified"),
    ),
    # an http image the server fetched but could not decode is another refusal
    ("llamacpp-media-url-download-failed", srv("Failed to load image or audio file", 400)),
    ("llamacpp-media-data-uri-invalid", srv("Failed to download image", 500)),
    # another request's refusal of tools: a grammar with tools
    ("llamacpp-logprobs-with-tools-stream", srv("Cannot use custom grammar constraints with tools.")),
    ("request-top-logprobs-without-logprobs", srv("logprobs is not supported with tools + stream")),
    ("llamacpp-openai-param-unsupported", srv('Unsupported content part type: "input_audio"', 500)),
    # an old build's refusal of tools is its age (llamacpp-build-predates-tool-calls), not an OpenAI field it lacks
    ("llamacpp-openai-param-unsupported", srv("Unsupported param: tools", 500)),
    ("llamacpp-responses-field-unsupported", srv("'input' is required")),
    ("llamacpp-responses-input-item-invalid", srv("Output of tool call missing 'type' field")),
    # llama-server switched the shift off itself: the note, not the abort
    (
        "llamacpp-k-shift-unsupported-model",
        "srv    load_model: ctx_shift is not supported by this context, it will be disabled\n",
    ),
    (
        "gguf-tensor-row-not-block-multiple",
        "gguf_init_from_reader: tensor 'blk.0.attn_q.weight' has invalid ggml type 42. should be in [0, 41)\n",
    ),
    (
        "llamacpp-env-overridden-by-flag",
        "DEPRECATED: argument '-c' specified multiple times, use comma-separated values instead (only last value will "
        "be used)\n",
    ),
    ("request-prompt-empty", srv('"prompt" must be a string')),
    (
        "request-field-missing",
        srv("Failed to parse messages: Expected 'messages' to be an array, got {}", 500),
    ),
    # second pass: built-in /tools, the synthetic-acceptance flags, chat output parsing, the loader and cache families
    ("llamacpp-builtin-tool-not-enabled", srv("Cannot use custom grammar constraints with tools.")),
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        'error while handling argument "--spec-type": unknown speculative type: eagle9\n',
    ),
    (
        "llamacpp-model-output-breaks-chat-format",
        srv("Failed to parse messages: Unsupported tool call type: {}", 500),
    ),
    ("llamacpp-home-unset", "common_download_file_single_online: no previous model file found /x.gguf\n"),
    # third pass
    # a question without its instructions is a missing field (request-field-missing), not the decision family's
    ("llamacpp-decision-request-invalid", srv('questions.tone: "instructions" must be provided')),
    ("llamacpp-decision-request-invalid", srv("Invalid uri format: data:text/plain;base64")),
]

# notes: a line worth explaining that stops nothing (role note): shown, never the answer
NOTES = [
    (
        "llamacpp-shift-disabled-for-context",
        "srv    load_model: ctx_shift is not supported by multimodal, it will be disabled\n",
    ),
    (
        "llamacpp-env-overridden-by-flag",
        "warn: LLAMA_ARG_N_GPU_LAYERS environment variable is set, but will be overwritten by command line argument -ngl\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize(("family", "log"), NOTES)
def test_notes_are_shown_not_answers(family, log):
    """The note is among the diagnoses, and no cause or symptom is made of its line."""
    result = run(log)
    assert family in [d.id for d in result.diagnoses], [d.id for d in result.diagnoses]
    assert top_cause(result) is None
