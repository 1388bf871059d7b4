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
