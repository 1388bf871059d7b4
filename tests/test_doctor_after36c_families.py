"""What the scored batches fresh-226 (vLLM's offline Python API, 3rd round) and fresh-228 (systemd units written by
hand) taught after scoring, with the neighbourhood of each miss's check in the engine's own source.

- request-logit-bias-out-of-vocab: vLLM 0.32 sampling_params.py SamplingParams.verify's other id lists against the
  vocabulary: allowed_token_ids ('contains out-of-vocab token id!'), logprob_token_ids / trace_decode_token_ids (the
  'token_id(s) [..] in FIELD' format), prompt_logprob_token_ids, and /generative_scoring's label_token_ids.
- request-prompt-token-id-out-of-vocab (new): renderers/base.py validate_token_ids, the prompt's own ids.
- request-sampling-param-out-of-range: _validate_allowed_token_ids' empty list.
- model-not-multimodal: a text-only model's other refusals of multimodal input (renderers/base.py get_mm_processor
  for a prompt with multi_modal_data; pooling/scoring/utils.py for score / rerank content parts).
- systemd-timespan-months-for-minutes (new, the maker's id): a time limit written with 'M' (months) and systemd's own
  reading of it in months or years; systemd-bad-value: `systemd-analyze timespan` refusing a unit it lacks.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a tool printed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/run.py", line 9, in <module>\n'
    "    outs = llm.generate(prompts, params)\n"
)
UNIT = (
    "$ cat /etc/systemd/system/vllm.service\n[Unit]\nDescription=vLLM\n\n[Service]\nUser=vllm\n"
    "ExecStart=/opt/vllm/bin/python -m vllm.entrypoints.openai.api_server --model /models/qwen --port 8000\n"
    "Restart=on-failure\n{line}\n\n[Install]\nWantedBy=multi-user.target\n"
)

CASES = [
    # sampling_params.py _validate_allowed_token_ids as the server's reply (rendered, with parameter= and value=)
    (
        "request-logit-bias-out-of-vocab",
        "# request: POST http://127.0.0.1:8000/v1/completions {...}\nHTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="allowed_token_ids contains out-of-vocab token id! (parameter=allowed_token_ids, "
            "value=[151643, 151645])",
            param='"allowed_token_ids"',
        ),
    ),
    # ... 0.8-0.11's v1/engine/processor.py, the same words as a plain ValueError (rendered)
    (
        "request-logit-bias-out-of-vocab",
        TB + "ValueError: allowed_token_ids contains out-of-vocab token id!\n",
    ),
    # _validate_logprobs' logprob_token_ids and prompt_logprob_token_ids (rendered)
    (
        "request-logit-bias-out-of-vocab",
        TB
        + "vllm.exceptions.VLLMValidationError: token_id(s) [32000] in logprob_token_ids contain out-of-vocab "
        "token ids. Vocabulary size: 32000 (parameter=logprob_token_ids, value=[32000])\n",
    ),
    (
        "request-logit-bias-out-of-vocab",
        TB + "vllm.exceptions.VLLMValidationError: prompt_logprob_token_ids contain out-of-vocab token ids "
        "(-1 pads a row). Vocabulary size: 32000 (parameter=prompt_logprob_token_ids, value=[-1, 40000])\n",
    ),
    # entrypoints/generate/generative_scoring/serving.py label_token_ids (rendered, the reply)
    (
        "request-logit-bias-out-of-vocab",
        REPLY.format(
            msg="label_token_id 151936 is out of vocabulary range [0, 151936). Please provide valid token IDs.",
            param="null",
        ),
    ),
    # renderers/base.py validate_token_ids: a -1 pad left in a TokensPrompt (rendered)
    (
        "request-prompt-token-id-out-of-vocab",
        TB + "vllm.exceptions.VLLMValidationError: Token id -1 is out of vocabulary\n",
    ),
    # ... online_renderer.py's kv_transfer_params ids, as the reply (rendered)
    (
        "request-prompt-token-id-out-of-vocab",
        REPLY.format(
            msg="Token id 128256 is out of vocabulary (parameter=kv_transfer_params.prompt_token_ids)",
            param='"kv_transfer_params.prompt_token_ids"',
        ),
    ),
    # _validate_allowed_token_ids' first check, an empty list (rendered)
    (
        "request-sampling-param-out-of-range",
        TB + "vllm.exceptions.VLLMValidationError: allowed_token_ids is not None and empty! "
        "(parameter=allowed_token_ids, value=[])\n",
    ),
    # renderers/base.py get_mm_processor from LLM.embed with an image (rendered)
    (
        "model-not-multimodal",
        "Traceback (most recent call last):\n"
        '  File "/home/me/embed.py", line 12, in <module>\n'
        '    out = llm.embed([{"prompt": "a cat", "multi_modal_data": {"image": img}}])\n'
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/renderers/base.py", line 230, in get_mm_processor\n'
        '    raise ValueError("Multi-modal processor not available for text-only models")\n'
        "ValueError: Multi-modal processor not available for text-only models\n",
    ),
    # pooling/scoring/utils.py _validate_mm_score_input: /rerank with image content on a text cross-encoder (rendered)
    (
        "model-not-multimodal",
        "# request: POST http://127.0.0.1:8000/rerank {...}\nHTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="MultiModalParam is not supported for XLMRobertaForSequenceClassification", param="null"
        ),
    ),
    # RestartSec=5M read by `systemctl show` (systemd prints the property as a time span)
    (
        "systemd-timespan-months-for-minutes",
        UNIT.format(line="RestartSec=5M")
        + "$ systemctl show -p RestartUSec vllm.service\nRestartUSec=5month\n",
    ),
    # WatchdogSec= with a space before M, checked with systemd-analyze timespan (its three lines)
    (
        "systemd-timespan-months-for-minutes",
        UNIT.format(line="WatchdogSec=10 M")
        + "$ systemd-analyze timespan '10 M'\nOriginal: 10 M\n      μs: 26298000000000\n   Human: 10month\n",
    ),
    # 12M prints only years
    (
        "systemd-timespan-months-for-minutes",
        UNIT.format(line="TimeoutStopSec=12M")
        + "$ systemd-analyze timespan 12M\nOriginal: 12M\n      μs: 31557600000000\n   Human: 1y\n",
    ),
    # analyze-timespan.c refusing a unit systemd lacks (as systemd 252 prints it)
    (
        "systemd-bad-value",
        UNIT.format(line="TimeoutStartSec=15mins")
        + "$ systemd-analyze timespan 15mins\nFailed to parse time span '15mins': Invalid argument\n# exit: 1\n",
    ),
]

NEAR_MISSES = [
    # the prompt's own ids are the prompt family's, not the SamplingParams one's
    (
        "request-logit-bias-out-of-vocab",
        TB + "vllm.exceptions.VLLMValidationError: Token id 5000 is out of vocabulary\n",
    ),
    # an empty allowed list is a value out of range, not an id past the vocabulary
    (
        "request-logit-bias-out-of-vocab",
        TB + "vllm.exceptions.VLLMValidationError: allowed_token_ids is not None and empty! "
        "(parameter=allowed_token_ids, value=[])\n",
    ),
    # llama.cpp's batch check of an id past the vocabulary is llamacpp-token-id-out-of-vocab's
    ("request-prompt-token-id-out-of-vocab", "decode: invalid token[0] = 151936\n"),
    # a transcription request to a model without the task (the route is not served) is not this family
    (
        "model-not-multimodal",
        REPLY.format(msg="The model does not support Transcriptions API", param="null"),
    ),
    # minutes written right: 'm' reads as minutes
    (
        "systemd-timespan-months-for-minutes",
        UNIT.format(line="TimeoutStartSec=30m")
        + "$ systemd-analyze timespan 30m\nOriginal: 30m\n      μs: 1800000000\n   Human: 30min\n",
    ),
    # 'M' in the unit, but nothing of systemd's reading of it: the log does not show months
    (
        "systemd-timespan-months-for-minutes",
        UNIT.format(line="TimeoutStartSec=30M")
        + "$ systemd-analyze verify /etc/systemd/system/vllm.service\n# exit: 0\n",
    ),
    # a timer's period may well be a month
    (
        "systemd-timespan-months-for-minutes",
        "$ cat /etc/systemd/system/rotate.timer\n[Timer]\nOnUnitActiveSec=1M\n"
        "$ systemd-analyze timespan 1M\nOriginal: 1M\n      μs: 2629800000000\n   Human: 1month\n",
    ),
    # a year written as a year
    (
        "systemd-timespan-months-for-minutes",
        UNIT.format(line="RuntimeMaxSec=1y")
        + "$ systemd-analyze timespan 1y\nOriginal: 1y\n      μs: 31557600000000\n   Human: 1y\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
