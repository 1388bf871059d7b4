"""What the measured batch fresh-445 (vLLM's own batch and bench commands, round 3) taught (learn49e).

- vllm-bench-latency-dummy-ids-past-small-vocab (new): vllm bench latency's dummy prompts are random ids below 10000
  (vllm/benchmarks/latency.py np.random.randint(10000)), refused as 'Token id N is out of vocabulary' on a model with a
  smaller vocabulary; the same refusal outside bench latency stays request-prompt-token-id-out-of-vocab.
- vllm-bench-random-len-flags-ignored (new): bench throughput with --dataset-name random prefers --random-input-len /
  --random-output-len (their defaults) over --input-len / --output-len (validate_args' warning), then its own
  max_model_len assert stops it; without that warning the assert stays request-longer-than-context.
- batch-runner-file-missing: run_batch's read_file fetches an http(s) -i with aiohttp, whose raise_for_status on a 404
  raises ClientResponseError '404, message=..., url=...'.
The wordings are vLLM 0.32's and aiohttp 3.x's format strings filled with other models, paths and values than
fresh-445's logs hold.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, assert_not_confident, run, top_cause

VOCAB = "vllm.exceptions.VLLMValidationError: Token id {id} is out of vocabulary\n# exit: 1\n"
LATENCY_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/cli/benchmark/latency.py", line 22, in cmd\n'
    "    main(args)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/benchmarks/latency.py", line 114, in llm_generate\n'
    "    llm.generate(dummy_prompts, sampling_params=sampling_params, use_tqdm=False)\n"
)
ASSERT = (
    "AssertionError: Please ensure that max_model_len is greater than the sum of prompt_len and "
    "expected_output_len for all requests.\n# exit: 1\n"
)
PREFERRED = (
    "/opt/venv/lib/python3.12/site-packages/vllm/benchmarks/throughput.py:998: UserWarning: Both --output-len and "
    "--random-output-len are specified. The random version (--random-output-len) will be preferred in this run.\n"
    "  validate_args(args)\n"
)
READ_FILE = (
    '  File "/srv/venv/lib/python3.12/site-packages/vllm/entrypoints/launchers/run_batch.py", line 345, in read_file\n'
    "    resp.raise_for_status()\n"
)


def test_bench_latency_ids_past_a_small_vocabulary_from_its_frames():
    log = LATENCY_FRAMES + VOCAB.format(id=8191)
    assert_named("vllm-bench-latency-dummy-ids-past-small-vocab", log)


def test_bench_latency_named_by_its_command_only():
    log = "$ vllm bench latency --model ./toy-bytes --batch-size 8 --input-len 128\n" + VOCAB.format(id=4242)
    top = top_cause(run(log))
    assert top.id == "vllm-bench-latency-dummy-ids-past-small-vocab" and "4242" in top.cause


def test_out_of_vocab_id_outside_bench_latency_stays_the_request_family():
    log = (
        "$ python gen.py\n"
        '  File "/home/u/gen.py", line 9, in <module>\n    llm.generate(TokensPrompt(prompt_token_ids=ids))\n'
        + VOCAB.format(id=151700)
    )
    assert_named("request-prompt-token-id-out-of-vocab", log)
    assert_not_confident("vllm-bench-latency-dummy-ids-past-small-vocab", log)


def test_random_dataset_dropping_the_given_output_len():
    log = (
        "$ vllm bench throughput --model Qwen/Qwen3-0.6B --max-model-len 256 --dataset-name random "
        "--output-len 16 --num-prompts 5\n"
        + PREFERRED
        + "INFO [utils.py:88] Sampling input_len from [1024, 1024] "
        "and output_len from [128, 128]\nTraceback (most recent call last):\n" + ASSERT
    )
    assert_named("vllm-bench-random-len-flags-ignored", log)


def test_random_lengths_given_and_too_long_stay_longer_than_context():
    log = (
        "$ vllm bench throughput --model Qwen/Qwen3-0.6B --max-model-len 256 --dataset-name random "
        "--random-input-len 512 --random-output-len 64\nTraceback (most recent call last):\n" + ASSERT
    )
    top = top_cause(run(log))
    assert top is None or top.id != "vllm-bench-random-len-flags-ignored"


def test_run_batch_https_url_answering_404():
    log = (
        "$ vllm run-batch -i https://files.example.org/jobs/7/batch.jsonl -o out.jsonl --model m\n"
        "Traceback (most recent call last):\n"
        + READ_FILE
        + "aiohttp.client_exceptions.ClientResponseError: 404, "
        "message='Not Found', url='https://files.example.org/jobs/7/batch.jsonl'\n# exit: 1\n"
    )
    top = top_cause(run(log))
    assert top.id == "batch-runner-file-missing" and "files.example.org/jobs/7/batch.jsonl" in top.cause


def test_run_batch_url_refused_403_is_no_missing_file():
    log = (
        "Traceback (most recent call last):\n"
        + READ_FILE
        + "aiohttp.client_exceptions.ClientResponseError: 403, "
        "message='Forbidden', url='https://bucket.s3.amazonaws.com/batch.jsonl'\n# exit: 1\n"
    )
    assert_not_confident("batch-runner-file-missing", log)
