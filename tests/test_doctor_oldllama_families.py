"""Older llama.cpp builds' wordings (llama-cpp-python's vendor/llama.cpp 0.2.20, 0.2.60, 0.2.90, 0.3.8): one case per
family widened from their message harvest (tools/harvest_llama_messages.py, tools/union_uncovered_llama.py).

Why: public threads come from builds up to two years older than the b11434 catalogue; each log is the message as that
build prints it (its function prefix, its wrapper), and the test checks the family and that no other is confident.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

CASES = [
    # 0.2.20 llama.cpp:3316 llm_load_tensors, inside llama_load_model_from_file's catch
    (
        "llamacpp-unknown-arch",
        "llama_model_loader: - kv   0:                       general.architecture str              = phi2\n"
        "llama_model_load: error loading model: unknown architecture\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
    # 0.3.8 src/llama-model.cpp:1266 load_hparams
    (
        "llamacpp-unknown-arch",
        "llama_model_load: error loading model: unsupported model architecture\n"
        "llama_model_load_from_file_impl: failed to load model\n",
    ),
    # 0.2.20 llama.cpp:1530 llama_kv_cache_init, then the context constructor's own line
    (
        "llamacpp-kv-cache-alloc-failed",
        "llama_kv_cache_init: failed to allocate memory for kv cache\n"
        "llama_new_context_with_model: llama_kv_cache_init() failed for self-attention cache\n",
    ),
    # 0.2.60 llama.cpp:2293
    ("llamacpp-kv-cache-alloc-failed", "llama_kv_cache_init: failed to allocate context for kv cache\n"),
    # 0.2.60 llama.cpp:14278 / 0.2.90 src/llama.cpp:17722 / 0.3.8 src/llama.cpp:9850
    (
        "llamacpp-backend-init-failed",
        "llama_new_context_with_model: n_ctx      = 4096\n"
        "llama_new_context_with_model: failed to initialize CUDA1 backend\n",
    ),
    (
        "llamacpp-backend-init-failed",
        "llama_new_context_with_model: failed to initialize SYCL0 (index 0) backend\n",
    ),
    ("llamacpp-backend-init-failed", "llama_init_from_model: failed to initialize Vulkan0 backend\n"),
    # 0.2.20 common/common.cpp:705 gpt_params_parse, printed by the server's catch before the usage
    ("llamacpp-invalid-argument", "error: invalid parameter for argument: --n-gpu-layers\n"),
    # 0.2.60 common/common.cpp:1192 (--override-kv), 0.2.90/0.3.8 string_parse_kv_override
    (
        "llamacpp-invalid-argument",
        "error: Invalid type for KV override: tokenizer.ggml.add_bos_token=boolean:false\n",
    ),
    (
        "llamacpp-invalid-argument",
        "string_parse_kv_override: invalid boolean value for KV override 'tokenizer.ggml.add_bos_token=bool:no'\n",
    ),
    # 0.2.60 common/common.cpp:1652 kv_cache_type_from_str, an uncaught runtime_error
    (
        "llamacpp-invalid-argument",
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  Invalid cache type: q4\n"
        "Aborted (core dumped)\n",
    ),
    # 0.2.90 common/common.cpp:2560 llama_download_file (--hf-repo / --model-url)
    ("llamacpp-download-unauthorized", "llama_download_file: invalid http status code received: 403\n"),
    ("llamacpp-hf-repo-invalid", "llama_download_file: HEAD invalid http status code received: 404\n"),
    # 0.3.8 common/common.cpp:1564 common_get_hf_file (-hf), an uncaught runtime_error
    (
        "llamacpp-download-unauthorized",
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  error: model is private or does not exist; if you are accessing a gated model, "
        "please provide a valid HF token\n",
    ),
    (
        "llamacpp-hf-repo-no-gguf",
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  error: model does not have ggufFile\n",
    ),
    # 0.2.90 common/common.cpp:2553
    (
        "llamacpp-download-unreachable",
        "llama_download_file: curl_easy_perform() failed: Couldn't resolve host name\n"
        "llama_init_from_gpt_params: error: failed to load model 'models/phi-3.gguf'\n",
    ),
    # 0.2.20 ggml.c:18347, 0.2.60 ggml.c:20542 and :20681, 0.3.8 gguf.cpp:302
    (
        "llamacpp-bad-gguf",
        "gguf_init_from_file: failed to read the tensor data\n"
        "error loading model: llama_model_loader: failed to load model from /models/phi-3.gguf\n",
    ),
    ("llamacpp-bad-gguf", "gguf_fread_str: invalid string length (4294967295)\n"),
    ("llamacpp-bad-gguf", "gguf_init_from_file: array size is too large (18446744073709551615)\n"),
    (
        "llamacpp-bad-gguf",
        "gguf_read_emplace_helper: encountered length_error while reading value for key 'tokenizer.ggml.tokens'\n",
    ),
    # 0.2.90 ggml/src/ggml.c:21577
    ("llamacpp-gguf-duplicate-entry", "gguf_init_from_file: duplicated tensor name blk.0.attn_q.weight\n"),
    # 0.2.60 llama.cpp:10039 llama_output_reserve
    ("llamacpp-alloc-failed", "llama_output_reserve: failed to allocate output buffer of size 250.25 MiB\n"),
    # 0.2.20 llama.cpp:587 / 0.2.90 src/llama.cpp:4423 get_key / get_arr, unwrapped
    (
        "llamacpp-gguf-metadata-missing",
        # (after31c: the key was phi2.context_length; the first hyperparameter read missing now reads as
        # lora-adapter-as-model's hint, llama.cpp#12857; any other key keeps this unwrapped wording's family)
        "llama_model_load: error loading model: key not found in model: phi2.block_count\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: array key not found in model: qwen2vl.rope.dimension_sections\n",
    ),
    # 0.2.20 llama.cpp:1978 create_tensor (the classic 'output.weight' of a tied-embedding model on an old build)
    (
        "llamacpp-tensor-mismatch",
        "llama_model_load: error loading model: create_tensor: tensor 'output.weight' not found\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
    # 0.2.60 llama.cpp:3275 create_tensor_as_view
    (
        "llamacpp-tensor-mismatch",
        "llama_model_load: error loading model: create_tensor_as_view: tensor 'output.weight' has wrong type; "
        "expected q6_K, got q8_0\n",
    ),
    # 0.2.20 llama.cpp:2246 and :3393, 0.3.8 src/llama-model.cpp:2162 (load_hparams' checks of the values read)
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: invalid n_rot: 64, expected 80\n",
    ),
    ("llamacpp-gguf-metadata-missing", "llama_model_load: error loading model: vocab size mismatch\n"),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: n_expert_used must be > 0 for QWEN2MOE\n",
    ),
    # 0.2.20 examples/server/server.cpp:2907; 0.2.90 server.cpp:3392 as its default JSON log line and as --log-format text
    ("llamacpp-bind-failed", "\ncouldn't bind to server socket: hostname=0.0.0.0 port=8080\n\n"),
    (
        "llamacpp-bind-failed",
        '{"tid":"139871922831360","timestamp":1719230000,"level":"ERR","function":"main","line":3392,'
        '"msg":"couldn\'t bind HTTP server socket","hostname":"0.0.0.0","port":8080}\n'
        '{"tid":"139871922831360","timestamp":1719230000,"level":"ERR","function":"main","line":3397,'
        '"msg":"exiting due to HTTP server error"}\n',
    ),
    (
        "llamacpp-bind-failed",
        'ERR [                    main] couldn\'t bind HTTP server socket | tid="139871922831360" '
        'timestamp=1719230000 hostname="127.0.0.1" port=8080\n',
    ),
    # 0.2.90 examples/server/server.cpp:2355 (JSON log line), 0.3.8 :3150 (SRV_ERR): a request past the slot's context
    (
        "request-longer-than-context",
        '{"tid":"140230","timestamp":1719230000,"level":"ERR","function":"update_slots","line":2355,'
        '"msg":"failed to decode the batch: KV cache is full - try increasing it via the context size",'
        '"i":0,"n_batch":1,"ret":1}\n',
    ),
    (
        "request-longer-than-context",
        "srv  update_slots: failed to decode the batch: KV cache is full - try increasing it via the context size, "
        "i = 0, n_batch = 1, ret = 1\n",
    ),
    # 0.2.60 ggml-metal.m:2706, 0.3.8 ggml-metal/ggml-metal.m:4548
    (
        "llamacpp-metal-oom",
        "ggml_backend_metal_buffer_type_alloc_buffer: error: failed to allocate buffer, size = 18432.00 MiB\n"
        "llama_model_load: error loading model: unable to allocate backend buffer\n",
    ),
    # 0.2.60 ggml-vulkan.cpp:1282 (std::cerr, then the uncaught runtime_error)
    (
        "llamacpp-device-index-invalid",
        "ggml_vulkan: Device with index 1 does not exist.\n"
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  Device not found\n"
        "Aborted (core dumped)\n",
    ),
    # 0.2.20 common/common.cpp:519/:541, 0.2.60 :921 (a CPU-only build, e.g. llama-cpp-python installed without CMAKE_ARGS)
    (
        "llamacpp-no-gpu",
        "warning: not compiled with GPU offload support, --n-gpu-layers option will be ignored\n"
        "warning: see main README.md for information on enabling GPU BLAS support\n",
    ),
    (
        "llamacpp-no-gpu",
        "warning: llama.cpp was compiled without cuBLAS. It is not possible to set a main GPU.\n",
    ),
    (
        "llamacpp-no-gpu",
        "warning: llama.cpp was compiled without CUDA/SYCL/Vulkan. Setting a tensor split has no effect.\n",
    ),
    # 0.2.60 llama.cpp:2950
    (
        "llamacpp-split-gguf-not-first-part",
        "llama_model_load: error loading model: illegal split file: 2, model must be loaded with the first split\n",
    ),
    # 0.2.20 ggml-metal.m:544
    (
        "llamacpp-metal-oom",
        "ggml_metal_add_buffer: error: failed to allocate 'data            ' buffer, size = 26000.50 MiB\n",
    ),
    # 0.2.60 llama.cpp:2797, 0.2.90 common/common.cpp:263, 0.3.8 common/arg.cpp:326
    (
        "llamacpp-invalid-argument",
        "llama_model_load: error loading model: Unsupported attempt to override bool type for metadata key "
        "tokenizer.ggml.add_bos_token\n",
    ),
    ("llamacpp-invalid-argument", "error: --hf-repo requires either --hf-file or --model\n"),
    (
        "llamacpp-invalid-argument",
        "error: either --embedding or --reranking can be specified, but not both\n",
    ),
    # 0.2.20 llama.cpp:8551 (the context constructor's line, alone), 0.2.60 llama.cpp:14392
    (
        "llamacpp-kv-cache-alloc-failed",
        "llama_new_context_with_model: llama_kv_cache_init() failed for self-attention cache\n"
        "llama_init_from_gpt_params: error: failed to create context with model 'models/mixtral.gguf'\n",
    ),
    ("llamacpp-alloc-failed", "llama_new_context_with_model: failed to reserve initial output buffer\n"),
    # 0.2.20 ggml-metal.m:261 to 0.3.8: the Metal compiler refusing a kernel
    (
        "llamacpp-metal-init-failed",
        "ggml_metal_init: error: load pipeline error: Error Domain=AGXMetalG13X Code=3 "
        '"Compiler encountered an internal error" UserInfo={NSLocalizedDescription=Compiler encountered an internal error}\n',
    ),
    # 0.2.60 llama.cpp:5492: the weights' buffer, named 'backend' whatever its device, after ggml-cuda's OOM line
    (
        "llamacpp-cuda-oom",
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 7100.25 MiB on device 0: cudaMalloc failed: out of memory\n"
        "llama_model_load: error loading model: unable to allocate backend buffer\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
    # 0.2.20 ggml.h:247 / 0.2.60 :261: the older assert form, file:line before the condition
    (
        "llamacpp-assert",
        "GGML_ASSERT: /tmp/pip-install-3k2/llama-cpp-python/vendor/llama.cpp/llama.cpp:7880: n_tokens <= n_batch\n"
        "Aborted (core dumped)\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "GGML_ASSERT: /home/u/llama.cpp/llama.cpp:3052: hparams.n_expert <= LLAMA_MAX_EXPERTS\n",
    ),
    # 0.2.90 ggml/src/ggml.c:21390: the older gguf reader quotes strerror
    (
        "path-is-directory",
        "gguf_init_from_file: failed to open '/srv/models/': 'Is a directory'\n"
        "llama_model_load: error loading model: llama_model_loader: failed to load model from /srv/models/\n",
    ),
    (
        "path-permission-denied",
        "gguf_init_from_file: failed to open '/srv/models/phi3.gguf': 'Permission denied'\n",
    ),
    # 0.2.60 common/common.cpp:1829 and :1905 (--hf-repo / --model-url into an unwritable cache)
    (
        "llamacpp-cache-dir-unwritable",
        "llama_download_file: error opening local file for writing: /var/lib/llama/.cache/phi-3.gguf.downloadInProgress\n",
    ),
    (
        "llamacpp-cache-dir-unwritable",
        "llama_download_file: unable to rename file: /models/phi-3.gguf.downloadInProgress to /models/phi-3.gguf\n",
    ),
    # 0.2.90 src/llama.cpp:5931..5935 (a new family: a BPE GGUF converted before tokenizer.ggml.pre existed)
    (
        "llamacpp-gguf-missing-pre-tokenizer",
        "llm_load_vocab: missing pre-tokenizer type, using: 'default'\n"
        "llm_load_vocab:                                             \n"
        "llm_load_vocab: ************************************        \n"
        "llm_load_vocab: GENERATION QUALITY WILL BE DEGRADED!        \n"
        "llm_load_vocab: CONSIDER REGENERATING THE MODEL             \n"
        "llm_load_vocab: ************************************        \n",
    ),
    # 0.2.90 src/llama.cpp:18001 llama_build_graph's abort; 0.2.90 :4437/:4517 get_arr; 0.2.60 llama.cpp:4475
    ("llamacpp-unknown-arch", "/tmp/pip-build/vendor/llama.cpp/src/llama.cpp:18001: unknown architecture\n"),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: n > N_MAX: 5 > 4 for key qwen2vl.rope.dimension_sections\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: model has expert layers but no expert layers are used\n",
    ),
    # 0.3.8 examples/server/server.cpp:298 (a request's parameter, answered as HTTP 500 by that build)
    (
        "request-sampling-param-out-of-range",
        'srv    operator(): got exception: {"error": {"code": 500, "message": "Error: repeat_last_n must be >= -1", '
        '"type": "server_error"}}\n',
    ),
    # a new family: 0.2.60 llama.cpp:14297 (Vulkan) and common/common.cpp:883 (SYCL) refusing -sm row
    (
        "llamacpp-split-mode-row-unsupported",
        "llama_new_context_with_model: Row split not supported. Failed to initialize Vulkan backend\n"
        "llama_init_from_gpt_params: error: failed to create context with model 'models/mixtral.gguf'\n",
    ),
    (
        "llamacpp-split-mode-row-unsupported",
        "warning: The split mode value:[row] is not supported by llama.cpp with SYCL. It's developing.\nExit!\n",
    ),
    # 0.2.20 llama.cpp:1575, 0.2.90 src/llama.cpp:3588: a batch longer than the whole KV cache
    (
        "request-longer-than-context",
        "llama_kv_cache_find_slot: n_tokens=4096 > n_ctx=2048\nllama_decode: failed to decode, ret = 1\n",
    ),
]


@pytest.mark.parametrize(("expected", "log"), CASES, ids=[c[0] + f"-{i}" for i, c in enumerate(CASES)])
def test_the_family_names_the_cause(expected, log):
    result = run(log)
    top = top_cause(result)
    assert top is not None and top.id == expected, (top and top.id, log)
    others = [d.id for d in result.diagnoses if d.id != expected and d.confidence >= 0.70]
    assert not others, others


def test_a_vocabulary_key_is_a_missing_gguf_key():
    """The unwrapped 'key not found' wording names a tokenizer key the GGUF lacks as well as a hyperparameter's
    (after32j, fresh-150: the corpus's vocabulary-key cases re-adjudicated to llamacpp-gguf-metadata-missing)."""
    top = top_cause(
        run("llama_model_load: error loading model: key not found in model: tokenizer.ggml.model\n")
    )
    assert top is not None and top.id == "llamacpp-gguf-metadata-missing"


def test_a_negative_decode_result_is_not_taken_for_a_full_cache():
    """ret < 0 is another llama_decode failure printed under the same words: no answer from this wording."""
    result = run(
        "srv  update_slots: failed to decode the batch: KV cache is full - try increasing it via the context size, "
        "i = 0, n_batch = -3, ret = -3\n"
    )
    assert all(d.id != "request-longer-than-context" for d in result.diagnoses)
