"""What the scored batches fresh-218 (vLLM scheduler and request limits, 2nd round) and fresh-219 (LoRA on vLLM, 3rd
round) taught after scoring, with the neighbourhood of each miss's check in vLLM 0.32's own source.

- lora-rank-not-allowed: argparse's refusal of --max-lora-rank (config/lora.py MaxLoRARanks as the flag's choices)
  supersedes the generic cli-invalid-choice; other flags' invalid choices stay generic.
- request-sampling-param-out-of-range: sampling_params.py SamplingParams._verify_args 'stop cannot contain an empty
  string.' beside bad_words' twin; the GPU runner's per-request table limits (v1/worker/gpu/sample/logit_bias.py,
  bad_words.py).
- request-logit-bias-out-of-vocab: sampling_params.py _validate_stop_token_ids, the same words for stop_token_ids.
- sampling-param-needs-companion-param: _verify_args 'stop strings are only supported when detokenize is True'.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/run.py", line 9, in <module>\n'
    "    outs = llm.generate(prompts, params)\n"
)

CASES = [
    # fresh219-vllm-max-lora-rank-12's refusal in another program name and value (vllm serve; rendered by argparse)
    (
        "lora-rank-not-allowed",
        "usage: vllm serve [model_tag] [options]\nvllm serve: error: argument --max-lora-rank: invalid choice: 100 "
        "(choose from 1, 8, 16, 32, 64, 128, 256, 320, 512)\n",
    ),
    # ... argparse with string choices (older vLLM typed the choices as strings: quoted value)
    (
        "lora-rank-not-allowed",
        "api_server.py: error: argument --max-lora-rank: invalid choice: '24' (choose from '8', '16', '32', '64')\n",
    ),
    # fresh218-vllm-stop-empty-string's reason in the Python API's form (sampling_params.py _verify_args)
    (
        "request-sampling-param-out-of-range",
        TB + "vllm.exceptions.VLLMValidationError: stop cannot contain an empty string.\n",
    ),
    # ... the chat route's reply (as the completions reply the batch logged)
    (
        "request-sampling-param-out-of-range",
        "# request: POST http://127.0.0.1:8000/v1/chat/completions {...}\nHTTP/1.1 400 Bad Request\n"
        + REPLY.format(msg="stop cannot contain an empty string.", param="null"),
    ),
    # the GPU model runner's per-request tables (v1/worker/gpu/sample/logit_bias.py, bad_words.py; rendered)
    (
        "request-sampling-param-out-of-range",
        "(EngineCore_DP0 pid=77) ValueError: Too many logit bias tokens: 2000. The max size is 1024.\n",
    ),
    (
        "request-sampling-param-out-of-range",
        "(EngineCore_DP0 pid=77) ValueError: Too many stop tokens: 300. The max size is 128.\n",
    ),
    # sampling_params.py _validate_stop_token_ids (rendered), the reply's form with parameter= appended
    (
        "request-logit-bias-out-of-vocab",
        REPLY.format(
            msg="token_id(s) [50000] in stop_token_ids contain out-of-vocab token ids. Vocabulary size: 256 "
            "(parameter=stop_token_ids, value=[50000])",
            param='"stop_token_ids"',
        ),
    ),
    # sampling_params.py _verify_args, stop with detokenize=False (rendered; the Python API)
    (
        "sampling-param-needs-companion-param",
        TB + "vllm.exceptions.VLLMValidationError: stop strings are only supported when detokenize is True. "
        "Set detokenize=True to use stop.\n",
    ),
    # siblings already named (checked, not widened): min_tokens above max_tokens, seed out of int64 (pydantic ge/le)
    (
        "request-sampling-param-out-of-range",
        REPLY.format(msg="min_tokens must be less than or equal to max_tokens=8, got 16.", param="null"),
    ),
    (
        "request-sampling-param-out-of-range",
        "{\"error\":{\"message\":\"1 validation error:\\n  {'type': 'less_than_equal', 'loc': 'body.seed', "
        "'msg': 'Input should be less than or equal to 9223372036854775807', 'input': 18446744073709551616}\","
        '"type":"Bad Request","param":"body.seed","code":400}}\n',
    ),
]

NEAR_MISSES = [
    # another flag's invalid choice stays cli-invalid-choice's (no LoRA rank family takes it)
    (
        "lora-rank-not-allowed",
        "api_server.py: error: argument --lora-dtype: invalid choice: 'fp8' (choose from 'auto', 'bfloat16', "
        "'float16')\n",
    ),
    # a stop string in a healthy request echo is not a refusal
    (
        "request-sampling-param-out-of-range",
        '# request: POST http://127.0.0.1:8000/v1/completions {"prompt": "hi", "stop": ["\\n"]}\nHTTP/1.1 200 OK\n',
    ),
    # the adapter's own rank above the limit is lora-rank-too-large's, not the allowed-values family
    ("lora-rank-not-allowed", TB + "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_another_flags_invalid_choice_stays_generic():
    """The rule is per flag: --lora-dtype has no family of its own, so argparse's refusal stays cli-invalid-choice."""
    assert_named(
        "cli-invalid-choice",
        "api_server.py: error: argument --lora-dtype: invalid choice: 'fp8' (choose from 'auto', 'bfloat16', "
        "'float16')\n",
    )
