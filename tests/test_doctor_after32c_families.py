"""What after32c learnt in stop 32 after scoring fresh-134 (public threads sampled by the user's symptom words) and
fresh-135 (public threads sampled by the wrapper or front end): each class from the programs' own sources, tested on
another real wording than the batch log's and on a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

WIN_SITE = r"C:\Users\me\miniconda3\envs\xinf\Lib\site-packages"
LINUX_SITE = "/opt/conda/lib/python3.12/site-packages"

CASES = [
    # LocalAI v3's model loader (pkg/model/initializers.go grpcModel: xlog.Error("Backend not found", "backend", ...))
    # for a model configured for a backend the gallery has not installed
    ("localai-backend-not-installed", 'Jan 07 09:55:05 ERROR Backend not found backend="vllm"\n'),
    # the same error as the request's error wraps it (v3)
    (
        "localai-backend-not-installed",
        'ERROR Failed to load model modelID="bge" error=failed to load model with internal loader: backend not found: '
        'transformers backend="transformers"\n',
    ),
    # v3's greedy loader (no backend configured: every registered one is tried) logging one backend's failure
    ("localai-backend-not-installed", 'INF Fails backend=whisper error="backend not found: whisper"\n'),
    # v2's loader: the gRPC binary missing from the asset dir, as its greedy loader logs it
    (
        "localai-backend-not-installed",
        "5:04PM INF [bert-embeddings] Fails: backend not found: "
        "/tmp/localai/backend_data/backend-assets/grpc/bert-embeddings\n",
    ),
    # ggml_abort's assert line cut before its ') failed' by a paste's wrap (llama.cpp#9455 posted it so), in a file
    # that names a feature (llava's clip.cpp), the rest on the next line
    (
        "llamacpp-feature-defect",
        "/build/llama.cpp/examples/llava/clip.cpp:1200: GGML_ASSERT(n_patches > 0 &&\n n_patches < 99) failed\n",
    ),
    # ... and in ggml's core, behind a wrapper's stderr relay prefix (LocalAI's GRPC(...)), the rest unprefixed
    (
        "llamacpp-assert",
        "10:25PM DBG GRPC(m.gguf-127.0.0.1:42747): stderr /b/llama.cpp/ggml/src/ggml.c:1740: "
        "GGML_ASSERT(view_src == NULL ||\n data_size == 0) failed\n",
    ),
    # xinference's embedding loader on native Windows (xinference/model/embedding/vllm/core.py words a failed
    # `from vllm import LLM` as vLLM missing; the frame above it is a Windows site-packages path)
    (
        "vllm-native-windows-unsupported",
        "Traceback (most recent call last):\n"
        f'  File "{WIN_SITE}\\xinference\\model\\embedding\\vllm\\core.py", line 60, in load\n'
        "    raise ImportError(f\"{error_message}\\n\\n{''.join(installation_guide)}\")\n"
        "ImportError: Failed to import module 'vllm'\n",
    ),
    # a plain script under a Windows venv importing vllm
    (
        "vllm-native-windows-unsupported",
        "Traceback (most recent call last):\n"
        f'  File "{WIN_SITE}\\mytool\\serve.py", line 3, in <module>\n'
        "    import vllm\n"
        "ModuleNotFoundError: No module named 'vllm'\n",
    ),
]

NEAR_MISSES = [
    # ggml's own MoE worker naming a device it cannot find: not LocalAI's backend gallery
    ("localai-backend-not-installed", "[moe-worker] backend not found: CUDA0\n"),
    # a load balancer's own missing backend URL
    ("localai-backend-not-installed", "Error: backend not found: http://10.0.0.5:8080\n"),
    # xinference's wording under Linux: vLLM is simply not installed there (python-module-missing)
    (
        "vllm-native-windows-unsupported",
        "Please make sure 'vllm' is installed. You can install it by `pip install vllm`\n"
        "Traceback (most recent call last):\n"
        f'  File "{LINUX_SITE}/xinference/model/llm/vllm/core.py", line 360, in load\n'
        "    from vllm.engine.arg_utils import AsyncEngineArgs\n"
        "ModuleNotFoundError: No module named 'vllm'\n",
    ),
    # another engine missing under Windows is not vLLM's missing Windows build
    (
        "vllm-native-windows-unsupported",
        "Traceback (most recent call last):\n"
        f'  File "{WIN_SITE}\\xinference\\model\\llm\\sglang\\core.py", line 1, in load\n'
        "ModuleNotFoundError: No module named 'sglang'\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_linux_xinference_vllm_import_stays_a_module_to_install():
    top = top_cause(run(NEAR_MISSES[2][1]))
    assert top is not None and top.id == "python-module-missing"


def test_a_source_line_quoting_the_macro_is_not_an_assert():
    # a compiler's note and the quoted source line (FILE:LINE:COL:, an ending ';'): no assert fired
    top = top_cause(
        run(
            "/b/llama.cpp/ggml/src/ggml.c:13835:5: note: in expansion of macro 'GGML_ASSERT'\n"
            "   13835 |     GGML_ASSERT(i01 >= 0 && i01 < ne01);\n"
            "ggml.c:13835: GGML_ASSERT(i01 >= 0 && i01 < ne01);\n"
        )
    )
    assert top is None or top.id not in ("llamacpp-assert", "llamacpp-feature-defect")


def test_a_python_exception_behind_a_wrapper_prefix_is_read():
    # LocalAI's GRPC(...) stderr relay before a Python backend's traceback: the exception line is still read
    top = top_cause(
        run(
            "10:25PM DBG GRPC(m-127.0.0.1:42747): stderr Traceback (most recent call last):\n"
            '10:25PM DBG GRPC(m-127.0.0.1:42747): stderr   File "/b/backend.py", line 3, in <module>\n'
            "10:25PM DBG GRPC(m-127.0.0.1:42747): stderr torch.OutOfMemoryError: CUDA out of memory. Tried to "
            "allocate 2.00 GiB. GPU 0 has a total capacity of 23.68 GiB of which 1.20 GiB is free.\n"
        )
    )
    assert top is not None and top.id == "cuda-oom-generic"
