"""What the scored batches fresh-25 (GGUF metadata and HF model-file draws) and fresh-27 (public llama.cpp,
llama-cpp-python and llama-swap threads) taught: one case per family added or widened.

Each log is written in another wording than its corpus log (other models, tensors, fields, devices, paths), so the
test checks the family, not the one line it was learnt from.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

WORKER = "(Worker pid=2210) ERROR 12-03 09:14:02 [multiproc_executor.py:953] "

CASES = [
    # checkpoint-tensor-name-unexpected (fresh25-vllm-st-model...-rename): another tensor, another architecture
    (
        "checkpoint-tensor-name-unexpected",
        WORKER + "ValueError: There is no module or parameter named 'transformer.h' in Qwen2ForCausalLM. "
        "The available parameters belonging to  (Qwen2ForCausalLM) are: {'model.norm.weight'}\n",
    ),
    # llamacpp-gguf-metadata-missing widened (fresh25-llama-*-out-of-range): the scores array, the expert count
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: "
        "Index out of array bounds for scores (32000 < 32064)\n"
        "llama_model_load_from_file_impl: failed to load model\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "/build/llama.cpp/src/llama-model.cpp:1363: GGML_ASSERT(hparams.n_expert <= LLAMA_MAX_EXPERTS) failed\n"
        "Aborted (core dumped)\n",
    ),
    # llamacpp-gguf-version-unsupported widened (public-llama-*-gguf-magic): an old loader's 'bad magic' wording
    (
        "llamacpp-gguf-version-unsupported",
        "llama_model_load: invalid model file 'models/mistral-7b.Q4_K_M.gguf' (bad magic [got 0x46554747 want "
        "0x67676a74])\nllama_init_from_file: failed to load model\n",
    ),
    (
        "llamacpp-gguf-version-unsupported",
        "llama.cpp: loading model from /models/phi-2.Q5_K_M.gguf\nerror loading model: unknown (magic, version) "
        "combination: 46554747, 00000001; is this really a GGML file?\n",
    ),
    # llamacpp-no-gpu widened (public-llama-cpp-python-max-devices-1-*): a three-way split from Python
    (
        "llamacpp-no-gpu",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/venv/lib/python3.11/site-packages/llama_cpp/llama.py", line 370, in __init__\n'
        "    raise ValueError(\n"
        "ValueError: Attempt to split tensors that exceed maximum supported devices. Current LLAMA_MAX_DEVICES=1\n",
    ),
    # llamacpp-split-mode-needs-more-gpus (public-llama-ik-split-mode-graph-without-gpus): mainline's -sm tensor
    (
        "llamacpp-split-mode-needs-more-gpus",
        "llama_model_load_from_file_impl: LLAMA_SPLIT_MODE_TENSOR needs >= 1 devices\n"
        "common_init_from_params: failed to load model '/models/qwen3-8b-q8_0.gguf'\n",
    ),
    (
        "llamacpp-split-mode-needs-more-gpus",
        "llama_model_load: error loading model: It is not possible to use split mode 'row' with less than 2 devices\n",
    ),
    # cmake-cuda-cublas-not-found (public-llama-cpp-python-cmake-cublas-target-missing): cublasLt, older FindCUDA
    (
        "cmake-cuda-cublas-not-found",
        "CMake Error at ggml/src/ggml-cuda/CMakeLists.txt:150 (target_link_libraries):\n"
        '  Target "ggml-cuda" links to:\n\n    CUDA::cublasLt\n\n  but the target was not found.  Possible reasons '
        "include:\n",
    ),
    (
        "cmake-cuda-cublas-not-found",
        "CMake Error: The following variables are used in this project, but they are set to NOTFOUND.\n"
        "CUDA_cublas_LIBRARY (ADVANCED)\n",
    ),
    # llama-swap-upstream-ui-root-paths (public-swap-*-404): another model, a JS asset, the API call
    (
        "llama-swap-upstream-ui-root-paths",
        '[INFO] Request 10.1.2.3 "GET /upstream/gemma3-12b/ HTTP/1.1" 200 841022 "Mozilla/5.0 (Macintosh)" 3.1ms\n'
        '[INFO] Request 10.1.2.3 "GET /_app/immutable/entry/app.Bq3x.js HTTP/2.0" 404 0 "Mozilla/5.0 (Macintosh)" 5µs\n'
        '[INFO] Request 10.1.2.3 "GET /props HTTP/2.0" 404 0 "Mozilla/5.0 (Macintosh)" 4µs\n',
    ),
    # llamacpp-chat-template-unrecognised-chatml-fallback (public-llama-server-granite-...): the wording without "yet"
    (
        "llamacpp-chat-template-unrecognised-chatml-fallback",
        "srv  load_model: loaded model 'models/exaone-3.5-7.8b-q6_k.gguf'\n"
        "srv  init: The chat template that comes with this model is not supported, falling back to chatml. "
        "This may cause the model to output suboptimal responses\n"
        "main: server is listening on http://0.0.0.0:8012 - starting the main loop\n",
    ),
    # llamacpp-chat-template-file-renders-empty-prompt (public-llama-ramalama-...): llama_decode's own prefix
    (
        "llamacpp-chat-template-file-renders-empty-prompt",
        "main: chat template file: /etc/llm/templates/custom.jinja\n"
        "llama_decode: n_tokens == 0\n"
        "srv  send_error: task id = 4, error: failed to decode\n",
    ),
]


test_the_family_names_the_cause, _ = family_tests(CASES)
