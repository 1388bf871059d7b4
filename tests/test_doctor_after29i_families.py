"""What the scored batch fresh-83 (llama.cpp-family threads sampled by the exception the user saw) taught after it was
scored: each family by the class of its wording, tested on another program's, release's or path's wording than the
corpus log it was learnt from (where each comes from is said beside it); the near misses check what must not match,
above all the two confident wrong answers of first contact (a complete old GGML .bin read as a truncated file, a bare
std::bad_alloc read as exhausted RAM).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, assert_not_confident, family_tests, run, top_cause

OLD_GGML = "ggml-bin-older-than-ggjt-v3"
EOF_LINE = (
    "error loading model: unexpectedly reached end of file\nllama_init_from_file: failed to load model\n"
)

CASES = [
    # ggml-bin-older-than-ggjt-v3: llama.cpp of March-April 2023 as pyllamacpp ran it (nomic-ai/pyllamacpp thread)
    (
        OLD_GGML,
        "llama_model_load: loading model from './gpt4all-lora-quantized.bin' - please wait ...\n"
        "llama_model_load: invalid model file './gpt4all-lora-quantized.bin' (too old, regenerate your model files or "
        "convert them with convert-unversioned-ggml-to-ggml.py!)\nllama_init_from_file: failed to load model\n",
    ),
    # ... llama.cpp of March 2023's shorter refusal (llama.cpp#329's title)
    (
        OLD_GGML,
        "main: invalid model file './models/ggml-alpaca-7b-q4.bin' (too old, regenerate your model files!)\n",
    ),
    # ... the GGML-era loader's own format line naming the old unversioned format (llama_file_version_name, May 2023)
    (
        OLD_GGML,
        "llama.cpp: loading model from ./models/7B/ggml-model-q4_0.bin\n"
        "llama.cpp: can't use mmap because tensors are not aligned; convert to new format to avoid this\n"
        "llama_model_load_internal: format     = 'ggml' (old version with low tokenizer quality and no mmap support)\n"
        + EOF_LINE,
    ),
    # ... a ggjt v2 file under a ggjt v3 loader
    (
        OLD_GGML,
        "llama.cpp: loading model from models/vicuna-13b/ggml-vicuna-13b-q5_1.bin\n"
        "llama_model_load_internal: format     = ggjt v2 (pre #1508)\n" + EOF_LINE,
    ),
    # ... a third-party GGML-era loader (ctransformers) on another model: only a guess, but it outranks a truncated file
    (
        OLD_GGML,
        "from ctransformers import AutoModelForCausalLM\n"
        "llm = AutoModelForCausalLM.from_pretrained('models/ggml-vicuna-7b-q4_0.bin', model_type='llama')\n"
        + EOF_LINE,
    ),
    # llamacpp-mmproj-load-failed: clip.cpp's get_key_idx (examples/llava/clip.cpp) on a language model given to
    # --mmproj: its first required key is clip.has_text_encoder
    (
        "llamacpp-mmproj-load-failed",
        "key clip.has_text_encoder not found in file\n"
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  Missing required key: clip.has_text_encoder\nAborted (core dumped)\n",
    ),
    # llamacpp-mtmd-projector-abort: the llava-era clip.cpp's assert in the newer GGML_ASSERT format
    (
        "llamacpp-mtmd-projector-abort",
        "/llama.cpp/examples/llava/clip.cpp:1051: GGML_ASSERT(new_clip->has_llava_projector) failed\n",
    ),
    # ... clip_model_load's refusal of a projector type it names but does not wire (clip.cpp of 2024)
    (
        "llamacpp-mtmd-projector-abort",
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  clip_model_load: don't support projector with: resampler currently\n\nAborted (core dumped)\n",
    ),
    # llama-cpp-python-quiet-mode-stdout-without-fileno: llama_cpp/_utils.py's suppress_stdout_stderr raising itself
    # (no LangChain wrapper), under a console whose stdout is an io.StringIO
    (
        "llama-cpp-python-quiet-mode-stdout-without-fileno",
        "Traceback (most recent call last):\n"
        '  File "C:\\Python311\\Lib\\site-packages\\llama_cpp\\llama.py", line 323, in __init__\n'
        "    with suppress_stdout_stderr(disable=self.verbose):\n"
        '  File "C:\\Python311\\Lib\\site-packages\\llama_cpp\\_utils.py", line 23, in __enter__\n'
        "    self.old_stdout_fileno_undup = sys.stdout.fileno()\nio.UnsupportedOperation: fileno\n",
    ),
    # ... a windowed process (pythonw / PyInstaller --noconsole): sys.stdout is None
    (
        "llama-cpp-python-quiet-mode-stdout-without-fileno",
        '  File "app\\llama_cpp\\_utils.py", line 23, in __enter__\n'
        "    self.old_stdout_fileno_undup = sys.stdout.fileno()\n"
        "AttributeError: 'NoneType' object has no attribute 'fileno'\n",
    ),
    # ... LangChain's wrapper in pydantic v2's wording
    (
        "llama-cpp-python-quiet-mode-stdout-without-fileno",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for LlamaCpp\n"
        "  Value error, Could not load Llama model from path: /home/u/models/llama-2-7b.Q4_0.gguf. Received error "
        "fileno [type=value_error, input_value={'model_path': '/home/u/m...'}, input_type=dict]\n",
    ),
    # convert-legacy-script-wrong-architecture: convert.py's own output without its command line (llama.cpp#4186's
    # form of the lines), an InternLM2 checkpoint
    (
        "convert-legacy-script-wrong-architecture",
        "Loading model file models/internlm2-chat-7b/pytorch_model-00001-of-00008.bin\n"
        "params = Params(n_vocab=92544, n_embd=4096, n_layer=32, n_ctx=32768, n_ff=14336, n_head=32, n_head_kv=8, "
        "f_norm_eps=1e-05, ftype=None, path_model=PosixPath('models/internlm2-chat-7b'))\n"
        "Traceback (most recent call last):\nKeyError: 'model.tok_embeddings.weight'\n",
    ),
    # windows-dll-import-order-conflict: torch imported first, the writing form of ctypes' exception
    (
        "windows-dll-import-order-conflict",
        "import torch\nfrom llama_cpp import Llama\n"
        'llm = Llama(model_path="C:/models/phi-3-mini-4k-instruct-q4.gguf", n_gpu_layers=-1)\n'
        "OSError: exception: access violation writing 0x0000000000000000\n",
    ),
    # segfault: the same exception with no other package imported in view stays a native crash
    (
        "segfault",
        "from llama_cpp import Llama\nLlama(model_path='models/user-bge-m3-q4_k_m.gguf')\n"
        "OSError: exception: access violation reading 0x0000000000000000\n",
    ),
]

NEAR_MISSES = [
    # llama.cpp#1569 (the corpus' truncated file): a GGML-era llama.cpp, no format line: a truncated file
    (
        OLD_GGML,
        "./main -m ./models/7B/ggml-model-q4_0.bin -p 'x'\nmain: build = 584 (2e6cd4b)\n"
        "llama.cpp: loading model from ./models/7B/ggml-model-q4_0.bin\n"
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  unexpectedly reached end of file\n",
    ),
    # the latest GGML format read to its end: truncated, not older
    (
        OLD_GGML,
        "llama_model_load_internal: format     = ggjt v3 (latest)\n" + EOF_LINE,
    ),
    # a bare std::bad_alloc (llama.cpp#4928's title form): nothing says RAM ran out
    (
        "host-memory-exhausted",
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nAborted (core dumped)\n",
    ),
    # a key a clip loader requires that is not the projector's own: not read as a wrong --mmproj
    (
        "llamacpp-mmproj-load-failed",
        "key general.name not found in file\nMissing required key: general.name\n",
    ),
    # Python's UnsupportedOperation: fileno from another library (requests' super_len on a BytesIO)
    (
        "llama-cpp-python-quiet-mode-stdout-without-fileno",
        '  File "/testbed/requests/utils.py", line 47, in super_len\n'
        "    return os.fstat(o.fileno()).st_size\nio.UnsupportedOperation: fileno\n",
    ),
    # vLLM's weight loader raising the same KeyError words on a worker (a vLLM issue's log): not convert.py
    (
        "convert-legacy-script-wrong-architecture",
        "(VllmWorker TP1 pid=21355) ERROR 08-22 09:46:12 [multiproc_executor.py:559] "
        "KeyError: 'model.layers.0.self_attn.q_proj.weight'\n",
    ),
    # a bare KeyError on a tensor name, no program named (fresh-83's own one-line case stays a miss on purpose)
    ("convert-legacy-script-wrong-architecture", "KeyError: 'model.layers.0.attention.wo.weight'\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_truncated_ggml_era_file_stays_a_truncated_file():
    top = top_cause(run(NEAR_MISSES[0][1]))
    assert top is not None and top.id == "llamacpp-bad-gguf" and top.confidence >= 0.7


def test_the_ctransformers_reading_is_only_a_guess():
    top = top_cause(run(CASES[4][1]))
    assert top.id == OLD_GGML and top.confidence < 0.7 and "truncated" in top.cause


def test_bad_alloc_with_memory_evidence_stays_confident():
    log = (
        "MemAvailable:     1203456 kB\n"
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n"
    )
    top = top_cause(run(log))
    assert top.id == "host-memory-exhausted" and top.confidence >= 0.7


def test_a_bare_bad_alloc_names_both_readings():
    top = top_cause(run(NEAR_MISSES[2][1]))
    assert top.id == "host-memory-exhausted" and "defect" in top.cause


def test_the_unknown_projector_type_stays_a_newer_mmproj():
    assert_named(
        "llamacpp-unknown-arch",
        "clip_init: failed to load model: load_hparams: unknown projector type: qwen3vl\n",
    )


def test_a_bare_access_violation_is_not_the_import_order():
    assert_not_confident("windows-dll-import-order-conflict", CASES[-1][1])
