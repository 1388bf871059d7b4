"""What the scored batch fresh-232 (tokenizers on both engines, 3rd round) taught after scoring, with the neighbourhood
of each miss's check in llama.cpp b11434's source (src/llama-vocab.cpp, tools/server).

- src/llama-vocab's feature row (llamacpp_features.toml) skips the checks that fail on what the GGUF holds: a token text
  held twice, no newline token, add_bos / add_eos / add_sep without the id, no vocabulary; the tokenizer code's own
  state checks stay llamacpp-feature-defect's.
- request-prompt-token-id-out-of-vocab: llama-server's 'Prompt contains invalid tokens' (server_tokens::validate).
- gguf-token-types-unused-empty-text: an empty reply at the length limit with the 'control-looking token' warning.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

ABORT = "{path}:{line}: GGML_ASSERT({check}) failed\n#1  0x000055896fe0 in ggml_print_backtrace ()\n#2  in ggml_abort ()\n"
OLLAMA = "/go/src/github.com/ollama/ollama/llama/llama.cpp/src/llama-vocab.cpp"
WARN = (
    "llama_model_loader: loaded meta data with 30 key-value pairs\n"
    "load: control-looking token: {id:6d} '{text}' was not control-type; this is probably a bug in the model. its type "
    "will be overridden\n"
)

CASES = [
    # fresh232-llama-byte-space-renamed's assert in another tree and line (an ollama vendor path; rendered)
    (
        "llamacpp-assert",
        ABORT.format(path=OLLAMA, line=2231, check="id_to_token.size() == token_to_id.size()"),
    ),
    # its siblings in tokenize: tokenizer.ggml.add_bos_token true with no bos id (rendered from b11434 :3477, :604)
    (
        "llamacpp-assert",
        ABORT.format(
            path="/src/llama.cpp/src/llama-vocab.cpp", line=3477, check="special_bos_id != LLAMA_TOKEN_NULL"
        ),
    ),
    (
        "llamacpp-assert",
        ABORT.format(
            path="/src/llama.cpp/src/llama-vocab.cpp", line=604, check="vocab.token_eos() != LLAMA_TOKEN_NULL"
        ),
    ),
    # the newline-token assert, already named by the GGUF family, now that the feature row leaves it (rendered :2611)
    (
        "llamacpp-gguf-metadata-missing",
        ABORT.format(
            path="/src/llama.cpp/src/llama-vocab.cpp",
            line=2611,
            check='!ids.empty() && "model vocab missing newline token"',
        ),
    ),
    # fresh232-llama-prompt-ids-negative's refusal as the OpenAI route's client sees it (server-context.cpp :1907)
    (
        "request-prompt-token-id-out-of-vocab",
        "srv  params_from_: Chat format: Content-only\n"
        "srv    send_error: task id = 12, error: Prompt contains invalid tokens\n"
        '# request: POST http://127.0.0.1:8080/v1/completions {"prompt": [151643, 9707], "max_tokens": 16}\n'
        "HTTP/1.1 400 Bad Request\n"
        '{"error":{"code":400,"message":"Prompt contains invalid tokens","type":"invalid_request_error"}}\n',
    ),
    # fresh232-llama-tt-all-unused's empty reply in /completion's form (server-task.cpp to_json_non_oaicompat; rendered)
    (
        "gguf-token-types-unused-empty-text",
        WARN.format(id=151645, text="<|im_end|>")
        + '{"index":0,"content":"","tokens":[],"id_slot":0,"stop":true,"model":"q.gguf","tokens_predicted":16,'
        '"tokens_evaluated":5,"generation_settings":{"n_predict":16},"prompt":"hi","has_new_line":false,'
        '"truncated":false,"stop_type":"limit","stopping_word":"","tokens_cached":20}\n',
    ),
    # ... and in /v1/completions' form (to_json_oaicompat; rendered)
    (
        "gguf-token-types-unused-empty-text",
        WARN.format(id=2, text="</s>")
        + '{"choices":[{"text":"","index":0,"logprobs":null,"finish_reason":"length"}],"created":1796474159,'
        '"model":"m.gguf","system_fingerprint":"b11434","object":"text_completion","usage":{"completion_tokens":32,'
        '"prompt_tokens":3,"total_tokens":35}}\n',
    ),
]

NEAR_MISSES = [
    # vLLM's logit_bias refusal stays the logit_bias family's (not the prompt's)
    (
        "request-prompt-token-id-out-of-vocab",
        '{"error":{"message":"token_id(s) [128009] in logit_bias contain out-of-vocab token ids. Vocabulary size: '
        '1024","type":"BadRequestError","param":null,"code":400}}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_tokenizer_code_checks_stay_the_features():
    """A check of the tokenizer's own state (tokenizer_st_partition's offsets) is still the feature's defect."""
    assert_named(
        "llamacpp-feature-defect",
        ABORT.format(
            path="/src/llama.cpp/src/llama-vocab.cpp", line=1816, check="offset + length <= raw_text.length()"
        ),
    )


def test_decode_batch_id_stays_the_llama_family():
    """A decode batch's out-of-vocab id (src/llama-batch.cpp) is still llamacpp-token-id-out-of-vocab's."""
    assert_named(
        "llamacpp-token-id-out-of-vocab", "decode: invalid token[3] = -3\nllama_decode: failed to decode\n"
    )


def test_slot_file_ids_stay_the_slot_family():
    """'Invalid tokens in slot save file' (a slot file of another model) is not a request's prompt ids."""
    assert_named(
        "llamacpp-slot-state-mismatch",
        "srv    send_error: task id = 3, error: Unable to restore slot: Invalid tokens in slot save file\n",
    )


def _not_token_types(log: str) -> None:
    top = top_cause(run(log))
    assert top is None or top.id != "gguf-token-types-unused-empty-text", (top and top.id, log)


CHAT_EMPTY = (
    '{{"choices":[{{"finish_reason":"{why}","index":0,"message":{{"role":"assistant","content":""}}}}],'
    '"created":1,"model":"m.gguf","object":"chat.completion","usage":{{"completion_tokens":{n},"prompt_tokens":9}}}}\n'
)


def test_the_warning_alone_is_healthy():
    """A control-looking warning with a reply that has text (fresh-232's healthy NORMAL '<|eot_id|>')."""
    _not_token_types(
        WARN.format(id=128009, text="<|eot_id|>")
        + '{"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant","content":"Hi there"}}],'
        '"usage":{"completion_tokens":8,"prompt_tokens":9}}\n'
    )


def test_an_empty_reply_alone_or_stopped_at_once_is_not_the_types():
    """Empty text without the warning, or a model that stopped at its first token, says nothing of the token types."""
    _not_token_types(CHAT_EMPTY.format(why="length", n=8))
    _not_token_types(WARN.format(id=2, text="</s>") + CHAT_EMPTY.format(why="stop", n=1))
    _not_token_types(WARN.format(id=2, text="</s>") + CHAT_EMPTY.format(why="length", n=1))
