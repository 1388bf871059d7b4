"""What the scored batch fresh-86 (desktop apps built on llama.cpp: KoboldCpp, LM Studio, Jan, GPT4All, llamafile)
taught after it was scored, each family on another program's or release's real wording than the corpus log it was
learnt from (where it came from beside it), and the near misses that must not be named confidently.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

CASES = [
    # gguf-arch-not-a-language-model: llama.cpp's own loader (b6106, llama.cpp#15143) given a Qwen-Image GGUF
    (
        "gguf-arch-not-a-language-model",
        "llama_model_load: error loading model: error loading model architecture: unknown model architecture: "
        "'qwen_image'\nllama_model_load_from_file_impl: failed to load model\n",
    ),
    # ... a newer build's llama_model_create default (src/llama-model.cpp 'unsupported model architecture: '%s'')
    (
        "gguf-arch-not-a-language-model",
        "llama_model_load: error loading model: unsupported model architecture: 'wan'\n",
    ),
    # ... KoboldCpp's terminal, an SDXL GGUF in its text-model slot (ComfyUI-GGUF IMG_ARCH_LIST's 'sdxl')
    ("gguf-arch-not-a-language-model", "error loading model: unknown model architecture: 'sdxl'\n"),
    # llamacpp-mmproj-as-main-model: LM Studio 0.2.24's error JSON for an mmproj loaded as the model (llama.cpp#7779)
    (
        "llamacpp-mmproj-as-main-model",
        "  \"cause\": \"llama.cpp error: 'error loading model architecture: unknown model architecture: 'clip''\",\n",
    ),
    # storage-io-error over the loader's generic failure: llama-mmap.cpp's llama_file open, strerror(EIO) on a mount
    (
        "storage-io-error",
        "llama_model_load: error loading model: failed to open /mnt/nas/models/qwen3-8b-q4_k_m.gguf: "
        "Input/output error\nllama_model_load_from_file_impl: failed to load model\n",
    ),
    # engine-image-missing-own-library: a llama.cpp macOS release zip (llama.cpp#11321 / #11083), dyld's own words
    (
        "engine-image-missing-own-library",
        "dyld[18622]: Library not loaded: @rpath/libllama.dylib\n  Referenced from: <A6F7> /Users/u/Downloads/"
        "4409-llamacpp/bin/llama-server\n  Reason: tried: '/Users/runner/work/llama.cpp/llama.cpp/build/src/"
        "libllama.dylib' (no such file)\n",
    ),
    # ... llama-cpp-python's re-raise of dlopen (llama-cpp-python#1559): its libllama.so without its libggml.so
    (
        "engine-image-missing-own-library",
        "RuntimeError: Failed to load shared library '/venv/lib/python3.10/site-packages/llama_cpp/libllama.so': "
        "libggml.so: cannot open shared object file: No such file or directory\n",
    ),
    # ... an app's engine file itself absent under its own folder (dlopen of a full path)
    (
        "engine-image-missing-own-library",
        "Failed to load LLM engine from path: /home/u/.lmstudio/extensions/backends/llama.cpp-linux-x86_64-avx2-1.20.0"
        "/llm_engine.node. /home/u/.lmstudio/extensions/backends/llama.cpp-linux-x86_64-avx2-1.20.0/libllm_engine.so: "
        "cannot open shared object file: No such file or directory\n",
    ),
    # llamacpp-relative-model-path: the GGML-era loader (llama.cpp / alpaca.cpp of March 2023) on a relative .bin
    (
        "llamacpp-relative-model-path",
        "llama_model_load: loading model from 'models/7B/ggml-model-q4_0.bin' - please wait ...\n"
        "llama_model_load: failed to open 'models/7B/ggml-model-q4_0.bin'\n"
        "main: failed to load model from 'models/7B/ggml-model-q4_0.bin'\n",
    ),
    # host-memory-exhausted (a hint): ggml.c's newer GGML_ASSERT form, ggml_init's buffer malloc returned NULL
    (
        "host-memory-exhausted",
        "/src/ggml/src/ggml.c:1597: GGML_ASSERT(ctx->mem_buffer != NULL) failed\nAborted\n",
    ),
    # ... whisper.cpp's bundled ggml, the older form
    ("host-memory-exhausted", "GGML_ASSERT: ggml.c:4336: ctx->mem_buffer != NULL\n"),
]

NEAR_MISSES = [
    # an LLM architecture newer than the build stays llamacpp-unknown-arch (it is named below)
    ("gguf-arch-not-a-language-model", "error loading model: unknown model architecture: 'qwen35'\n"),
    # a name that only begins like one of the diffusion ones
    ("gguf-arch-not-a-language-model", "error loading model: unknown model architecture: 'wanda2'\n"),
    # llama-quantize given an mmproj: the quantizer does not take projectors, not an mmproj given as -m
    (
        "llamacpp-mmproj-as-main-model",
        "llama_model_quantize: failed to quantize: unknown model architecture: 'clip'\n",
    ),
    # llama-quantize given a FLUX GGUF: ComfyUI-GGUF patches llama-quantize for it
    (
        "gguf-arch-not-a-language-model",
        "llama_model_quantize: failed to quantize: unknown model architecture: 'flux'\n",
    ),
    # a SYSTEM library missing on macOS (Homebrew's libomp), not the app's own
    (
        "engine-image-missing-own-library",
        "OSError: dlopen(/venv/lib/python3.11/site-packages/llama_cpp/lib/libggml-cpu.dylib, 0x0006): Library not "
        "loaded: /opt/homebrew/opt/libomp/lib/libomp.dylib\n",
    ),
    # ... on Linux: the driver's libcuda.so.1, or the compiler runtime
    (
        "engine-image-missing-own-library",
        "RuntimeError: Failed to load shared library '/app/libllama.so': libcuda.so.1: cannot open shared object "
        "file: No such file or directory\n",
    ),
    (
        "engine-image-missing-own-library",
        "ImportError: libgomp.so.1: cannot open shared object file: No such file\n",
    ),
    # Windows' error 126 names a DLL that may be there with a dependency missing: a hint, never confident
    (
        "engine-image-missing-own-library",
        'Could not load library "C:\\Users\\u\\jan\\engines\\cortex.llamacpp\\windows-amd64-avx2-cuda-12-0\\v0.1.49/'
        'engine.dll" The specified module could not be found.\n',
    ),
    # an absolute path that failed to open is not a relative-path lookup
    (
        "llamacpp-relative-model-path",
        "llama_model_load: failed to open '/home/u/models/ggml-model-q4_0.bin'\n",
    ),
    # ggml's fixed context pool too small is not host RAM
    (
        "host-memory-exhausted",
        "ggml_new_object: not enough space in the context's memory pool (needed 268435456, available 134217728)\n"
        "GGML_ASSERT: ggml.c:4128: false\n",
    ),
    # the mem_buffer assert alone is only a hint
    ("host-memory-exhausted", "GGML_ASSERT: ggml.c:4411: ctx->mem_buffer != NULL\nAborted\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_llm_architecture_newer_than_the_build_stays_unknown_arch():
    assert_named("llamacpp-unknown-arch", "error loading model: unknown model architecture: 'qwen35'\n")


def test_the_loaders_generic_failure_still_stands_alone():
    """`generic` hides llamacpp-load-failed only behind a specific cause: with none, it is still the answer."""
    assert_named(
        "llamacpp-load-failed",
        "llama_model_load: error loading model: error loading model vocabulary: unknown pre-tokenizer type\n",
    )


def test_an_os_error_on_the_loaders_line_outranks_the_generic_failure():
    """The general rule: a specific cause on the line the loader's failure matched (errno's text in its {why})
    explains it; ESTALE on an NFS mount as well as EIO."""
    top = top_cause(run("llama_model_load: error loading model: read error: Stale file handle\n"))
    assert top is not None and top.id == "nfs-stale-file-handle"
    ids = [
        d.id for d in run("llama_model_load: error loading model: read error: Input/output error\n").diagnoses
    ]
    assert ids[0] == "storage-io-error" and "llamacpp-load-failed" not in ids


def test_the_windows_hint_names_the_dll_and_a_missing_dependency():
    top = top_cause(
        run(
            'Could not load library "D:\\jan\\engines\\cortex.llamacpp\\v0.1.55/engine.dll" The specified module '
            "could not be found.\n"
        )
    )
    assert top is not None and top.id == "engine-image-missing-own-library" and top.confidence < 0.7
    assert "engine.dll" in top.cause and "depends on" in top.cause


def test_dylds_incompatible_architecture_stays_the_architecture_family():
    assert_named(
        "shared-library-built-for-other-cpu-arch",
        "OSError: dlopen(/x/llama_cpp/lib/libllama.dylib, 0x0006): Library not loaded: @rpath/libggml.dylib "
        "(mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64'))\n",
    )
