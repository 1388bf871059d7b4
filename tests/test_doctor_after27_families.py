"""What the scored batches fresh-36 (public vLLM threads), fresh-37 (public llama.cpp threads) and fresh-38 (chat
templates, made here) taught after they were scored: one family added, widened or narrowed per miss.

Each log is written in ANOTHER wording than its corpus log (another program, package, version, symbol or path), so the
test checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # engine-package-shadowed-by-source-tree (public-vllm-script-named-vllm-py-cannot-import-llm, vllm#475): another
    # top-level public name, Python naming the user's own vllm.py
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'SamplingParams' from 'vllm' (/home/ana/experiments/vllm.py)\n",
    ),
    # the same script run as `python vllm.py` on Python >= 3.8: the module imports itself half-initialised
    (
        "engine-package-shadowed-by-source-tree",
        "AttributeError: partially initialized module 'vllm' has no attribute 'LLM' (most likely due to a circular "
        "import)\n",
    ),
    # any package shadowed by a file of the user's named like it (llama-cpp-python's Llama)
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'Llama' from 'llama_cpp' (/srv/bot/llama_cpp.py)\n",
    ),
    # vllm-native-windows-unsupported (public-vllm-windows-native-no-vllm-c-module, vllm#14714): another drive and
    # venv, and the other Windows wording of the same cause, a Unix-only stdlib module vLLM imports (vllm/utils:
    # `import resource`)
    (
        "vllm-native-windows-unsupported",
        "Traceback (most recent call last):\n"
        '  File "D:\\envs\\llm\\Lib\\site-packages\\vllm\\utils\\system_utils.py", line 9, in <module>\n'
        "    import resource\n"
        "ModuleNotFoundError: No module named 'resource'\n",
    ),
    (
        "vllm-native-windows-unsupported",
        '  File "E:\\ai\\.venv\\Lib\\site-packages\\vllm\\_custom_ops.py", line 9, in <module>\n'
        "    import vllm._C\n"
        "ModuleNotFoundError: No module named 'vllm._C'\n",
    ),
    # python-import-name-missing (public-vllm-014-pydantic-v1-no-rootmodel): another installed package, a Windows
    # site-packages path
    (
        "python-import-name-missing",
        "ImportError: cannot import name 'soft_unicode' from 'markupsafe' "
        "(C:\\Python311\\Lib\\site-packages\\markupsafe\\__init__.py)\n",
    ),
    # engine-binary-missing (public-vllm-ocrflux-pipeline-vllm-cli-not-on-path): a wrapper that spawns llama-server
    # by name, traceback cut
    (
        "engine-binary-missing",
        "FileNotFoundError: [Errno 2] No such file or directory: 'llama-server'\n",
    ),
    # stale-shared-library (public-llama-server-stale-usr-local-lib-undefined-mtmd-symbol): llama.cpp#8695 (train
    # side), llama-cli linked to whisper.cpp's older libggml -- another program, library and symbol
    (
        "stale-shared-library",
        "./llama-cli: symbol lookup error: llama.cpp/build/src/libllama.so: undefined symbol: ggml_cpu_has_llamafile\n",
    ),
    # (public-llama-cpp-python-libllama-undefined-symbol-n-ctx-train): macOS ctypes' and dyld's wordings
    (
        "stale-shared-library",
        "AttributeError: dlsym(0x9e8c3f70, llama_sampler_init_dry): symbol not found\n",
    ),
    (
        "stale-shared-library",
        "dyld[4512]: Symbol not found: _llama_model_load_from_file\n"
        "  Referenced from: <5C1F2A> /opt/homebrew/bin/llama-server\n",
    ),
    # spec-draft-vocab-mismatch (public-vllm-spec-decode-r1-distill-7b-1p5b-vocab-assert): the assert's frame lines
    # from another pair of models
    (
        "spec-draft-vocab-mismatch",
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/spec_decode/spec_decode_worker.py", line 580, in '
        "_vocab_size\n"
        "    assert all(vocab_sizes[0] == vocab_size for vocab_size in vocab_sizes)\n"
        "AssertionError\n",
    ),
    # vllm-no-platform-detected (public-vllm-073-cpu-serve-no-platform-detected): another version's log prefix
    (
        "vllm-no-platform-detected",
        "DEBUG 01-20 10:02:11 [__init__.py:295] No platform detected, vLLM is running on UnspecifiedPlatform\n"
        "NotImplementedError\n",
    ),
    # reasoning-parser-tokens-missing (fresh38-vllm-reasoning-parser-deepseek-r1): vLLM 0.32's step3 reasoning parser
    # and a tool parser (tool_parsers/deepseekv3_tool_parser.py), the same mismatch of parser and model
    (
        "reasoning-parser-tokens-missing",
        "RuntimeError: Step3 reasoning parser could not locate think end token in the tokenizer!\n",
    ),
    (
        "reasoning-parser-tokens-missing",
        "RuntimeError: DeepSeek-V3 Tool parser could not locate tool call start/end tokens in the tokenizer!\n",
    ),
    # vllm-processor-fast-image-processor-mismatch (public-vllm-092-qwen2vl-fast-image-processor-rejected): another model
    (
        "vllm-processor-fast-image-processor-mismatch",
        "ValueError: Received a Qwen2_5_VLImageProcessorFast for argument image_processor, but a "
        "Qwen2_5_VLImageProcessor was expected.\n",
    ),
    # vllm-internal-module-moved (public-vllm-ray-serve-poolingoutput-no-embedding): another output class
    (
        "vllm-internal-module-moved",
        "AttributeError: 'EmbeddingRequestOutput' object has no attribute 'embedding'\n",
    ),
    # convert-vocab-size-mismatch (public-llama-convert-vocab-size-mismatch-added-tokens): the later convert.py's
    # wording (ValueError, with its advice)
    (
        "convert-vocab-size-mismatch",
        "ValueError: Vocab size mismatch (model has 32016, but /models/codellama-7b/tokenizer.model has 32000).  Most "
        "likely you are missing added_tokens.json (should be in /models/codellama-7b). Add the --pad-vocab option and "
        "try again.\n",
    ),
    # convert-script-removed (public-llama-convert-py-removed): the 2024 rename of convert-hf-to-gguf.py
    (
        "convert-script-removed",
        "python: can't open file '/home/u/src/llama.cpp/convert-hf-to-gguf.py': [Errno 2] No such file or directory\n",
    ),
    # windows-non-ascii-user-path (public-llama-ollama-windows-non-ascii-user-path): '?' for the lost letters, llama.cpp's
    # gguf open
    (
        "windows-non-ascii-user-path",
        "gguf_init_from_file: failed to open 'C:\\Users\\????\\models\\qwen2.5-7b-q4_k_m.gguf': 'No such file or "
        "directory'\n",
    ),
    # llamacpp-model-file-missing (public-llama-llamafile-mmproj-file-missing): the model of -m, perror-style
    (
        "llamacpp-model-file-missing",
        "/models/Meta-Llama-3-8B-Instruct.Q4_0.gguf: No such file or directory\n",
    ),
    # llamacpp-gguf-metadata-missing (public-llama-ollama-gguf-no-tokenizer-merges): llama.cpp's own log line
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: cannot find tokenizer merges in model "
        "file\n",
    ),
    # chat-template-invalid (public-llama-ik-server-gpt-oss-template-strftime-now): llama.cpp's server wording
    (
        "chat-template-invalid",
        "validate_model_chat_template: failed to apply template: Unknown filter 'tojson' for type String\n",
    ),
]

# wordings that must NOT take the family: the same shape for another cause
NEAR_MISSES = [
    # an INSTALLED vllm lacking an internal name is a version skew, not shadowing
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'FlexibleArgumentParser' from 'vllm.utils' "
        "(/venv/lib/python3.12/site-packages/vllm/utils/__init__.py)\n",
    ),
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'PoolingParams' from 'vllm' (/venv/lib/python3.12/site-packages/vllm/__init__.py)\n",
    ),
    # vllm._C missing on Linux (an uncompiled checkout) is not a Windows install
    (
        "vllm-native-windows-unsupported",
        '  File "/home/u/vllm/vllm/_custom_ops.py", line 9, in <module>\n'
        "ModuleNotFoundError: No module named 'vllm._C'\n",
    ),
    # the user's own module (no site-packages path) stays unexplained
    (
        "python-import-name-missing",
        "ImportError: cannot import name 'helper' from 'myapp.utils' (/srv/app/myapp/utils.py)\n",
    ),
    # the user's own module named utils.py lacking a name is the user's bug, not a package shadowed
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'load_config' from 'utils' (/srv/app/utils.py)\n",
    ),
    # a relative DATA path is not a program
    (
        "engine-binary-missing",
        "FileNotFoundError: [Errno 2] No such file or directory: 'vllm/config.json'\n",
    ),
    # a Python extension built against another torch stays extension-abi-mismatch
    (
        "stale-shared-library",
        "ImportError: /opt/venv/lib/python3.12/site-packages/vllm/_C.abi3.so: undefined symbol: "
        "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs\n",
    ),
    # any project's convert.py outside llama.cpp is only a hint, below 0.70
    (
        "convert-script-removed",
        "python3: can't open file '/home/u/tools/run_server.py': [Errno 2] No such file or directory\n",
    ),
    # llama-run's own 'failed to apply the chat template' is another cause (fresh-33's new: case)
    (
        "chat-template-invalid",
        "llama-run granite-code\nfailed to apply the chat template\n",
    ),
    # 'failed to apply template' of any other program
    (
        "chat-template-invalid",
        "E1204 11:02:03 failed to apply template: template: page:1: unexpected EOF\n",
    ),
    # an ASCII Windows path that does not exist is a missing file, not a mangled name
    (
        "windows-non-ascii-user-path",
        "gguf_init_from_file: failed to open 'C:\\Users\\ana\\models\\qwen2.5-7b-q4_k_m.gguf': 'No such file or "
        "directory'\n",
    ),
    # a parser flag vLLM does not know is parser-unknown's, not a token mismatch
    (
        "reasoning-parser-tokens-missing",
        "vllm serve: error: argument --reasoning-parser: invalid choice: 'deepseek-r1' (choose from 'deepseek_r1', "
        "'qwen3')\n",
    ),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_convert_py_outside_llama_cpp_is_only_a_hint():
    top = top_cause(
        run("python3: can't open file '/home/u/project/convert.py': [Errno 2] No such file or directory\n")
    )
    assert top is not None and top.id == "convert-script-removed" and top.confidence < 0.7
