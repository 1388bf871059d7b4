"""What the scored batch fresh-50 (public threads of programs that WRAP vLLM or llama.cpp: LocalAI, FastChat, h2oGPT,
pygpt4all, GPT4All, privateGPT, Ray Serve, koboldcpp) taught after it was scored: two reader mechanisms (a wrapper's
own `| LEVEL | name |` log prefix; an entry explaining what the entries it supersedes explain) and one family added or
widened per miss.

Each log is written in ANOTHER wording than its corpus log (another program, backend, package, version or format), so
the test checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

import pytest

from servebox.doctor.structure import split_prefix
from tests.doctor_text import assert_named, family_tests, run, top_cause

CASES = [
    # vllm-internal-module-moved (public-wrap-fastchat-vllm-worker-asyncllm-no-engine-attr): another wrapper reading a
    # V0 engine attribute on V1's AsyncLLM (lmdeploy/OpenRLHF-style code reading engine.engine.model_executor), and the
    # OpenAI serving classes whose constructors changed between releases
    (
        "vllm-internal-module-moved",
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.11/site-packages/openrlhf/trainer/ray/vllm_engine.py", line 88, in init\n'
        "    self.model = self.llm.llm_engine.model_executor.driver_worker\n"
        "AttributeError: 'LLMEngine' object has no attribute 'model_executor'\n",
    ),
    (
        "vllm-internal-module-moved",
        "AttributeError: 'OpenAIServingChat' object has no attribute 'engine_client'\n",
    ),
    # the same AttributeError under FastChat's logger prefix of another worker (its controller relaying stderr)
    (
        "vllm-internal-module-moved",
        "2024-11-02 09:14:03 | ERROR | stderr | Traceback (most recent call last):\n"
        '2024-11-02 09:14:03 | ERROR | stderr |   File "/srv/FastChat/fastchat/serve/vllm_worker.py", line 60, in __init__\n'
        "2024-11-02 09:14:03 | ERROR | stderr |     self.context_len = llm_engine.engine.model_config.max_model_len\n"
        "2024-11-02 09:14:03 | ERROR | stderr | AttributeError: 'AsyncLLMEngine' object has no attribute 'engine'\n",
    ),
    # llamacpp-gguf-version-unsupported (public-wrap-privategpt-llamacpp-ggmlv3-unknown-magic-version): an older ggmf
    # file under a newer GGML-era loader, with llama-cpp-python's own ValueError re-raising it
    (
        "llamacpp-gguf-version-unsupported",
        "llama.cpp: loading model from ./models/alpaca-7b-q4.bin\n"
        "error loading model: unknown (magic, version) combination: 67676d66, 00000001; is this really a GGML file?\n"
        "llama_init_from_file: failed to load model\n"
        "ValueError: Failed to load model from file: ./models/alpaca-7b-q4.bin\n",
    ),
    # llamacpp-unknown-arch (public-wrap-koboldcpp-stablelm-neox-missing-tok-embeddings): a Falcon GGML file under
    # llama-cpp-python 0.1.x's loader (another program, another architecture, the llama_model_load prefix)
    (
        "llamacpp-unknown-arch",
        "llama.cpp: loading model from /models/falcon-7b-instruct.ggccv1.q4_0.bin\n"
        "llama_model_load: error loading model: missing tok_embeddings.weight\n"
        "llama_init_from_file: failed to load model\n",
    ),
    # triton-passmanager-failed (public-wrap-ray-serve-llm-v100-triton-mma-ampere-assert): the assertion as glibc prints
    # it with its condition, under plain vllm serve (vllm#6723's wording)
    (
        "triton-passmanager-failed",
        "python3: /project/lib/Analysis/Allocation.cpp:43: std::pair<llvm::SmallVector<unsigned int>, "
        "llvm::SmallVector<unsigned int> > mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute): Assertion "
        '`!(srcMmaLayout && dstMmaLayout && !srcMmaLayout.isAmpere()) && "mma -> mma layout conversion is only '
        "supported on Ampere\"' failed.\n"
        "Aborted (core dumped)\n",
    ),
    # localai-backend-not-installed (public-wrap-localai-*): LocalAI's MLX worker (core/cli/worker/p2p_mlx.go), another
    # backend and another of its wordings
    (
        "localai-backend-not-installed",
        '3:04PM ERR failed to start worker error="mlx-distributed backend not found, install it first"\n',
    ),
    (
        "localai-backend-not-installed",
        '11:02AM ERR llama-cpp backend not found, failed to install it error="no backend found with name llama-cpp"\n',
    ),
    # the hint: another Python backend on an older LocalAI's loading line, no external backend registered
    (
        "localai-backend-not-installed",
        "9:40AM DBG Loading Model BAAI/bge-m3 with gRPC (file: /models/BAAI/bge-m3) (backend: sentencetransformers): "
        "{backendString:sentencetransformers model:BAAI/bge-m3 threads:8 externalBackends:map[] grpcAttempts:20}\n",
    ),
    # ggml-file-type-unsupported-by-loader (public-wrap-gpt4all-python-ggml-q4-2-bad-f16-value): ggml's gpt-j example
    # (gpt4all-j's loader) refusing a q4_3 file, and llama.cpp's per-tensor wording of the same refusal
    (
        "ggml-file-type-unsupported-by-loader",
        "gptj_model_load: loading model from 'ggml-gpt4all-j-v1.3-groovy.bin' - please wait ...\n"
        "gptj_model_load: invalid model file 'ggml-gpt4all-j-v1.3-groovy.bin' (bad f16 value 6)\n"
        "GPT-J ERROR: failed to load model from ggml-gpt4all-j-v1.3-groovy.bin\n",
    ),
    # the per-tensor wording of a type newer than the loader is llamacpp-build-too-old-for-tensor-type's (after28a,
    # learnt in parallel from fresh-49's babyagi case): the lead merged the two readings into that family
    (
        "llamacpp-build-too-old-for-tensor-type",
        "llama.cpp: loading model from models/wizardlm-13b.ggmlv3.q4_K_M.bin\n"
        "error loading model: unrecognized tensor type 12\n"
        "llama_init_from_file: failed to load model\n",
    ),
    # python-import-name-missing's hint (public-wrap-h2ogpt-*, public-wrap-pygpt4all-*): LlamaIndex calling a
    # llama-cpp-python method with a keyword of another release
    (
        "python-import-name-missing",
        "TypeError: Llama.create_completion() got an unexpected keyword argument 'logits_processor'\n",
    ),
]

# wordings that must NOT take the family (confidently): the same shape for another cause
NEAR_MISSES = [
    # a user's own object: an AttributeError on a class that is not vLLM's
    ("vllm-internal-module-moved", "AttributeError: 'MyEngine' object has no attribute 'engine'\n"),
    # a non-GGML magic (a safetensors/PyTorch file handed to the GGML-era loader) is not a format revision
    (
        "llamacpp-gguf-version-unsupported",
        "error loading model: unknown (magic, version) combination: 04034b50, 00000000; is this really a GGML file?\n",
    ),
    # GGUF's missing token embedding is an incomplete or mis-converted file, not an unknown architecture
    ("llamacpp-unknown-arch", "llama_model_load: error loading model: missing tensor 'token_embd.weight'\n"),
    # another program's 'backend X not found' (an agent runner looking up a binary) is no LocalAI backend
    ("localai-backend-not-installed", 'Error: backend goose not found in PATH: exec: "goose": not found\n'),
    # a loading line WITH external backends registered is a healthy start
    (
        "localai-backend-not-installed",
        "12:21PM DBG Loading Model qwen with gRPC (file: /models/qwen) (backend: vllm): {backendString:vllm "
        "externalBackends:map[vllm:/build/backend/python/vllm/run.sh] grpcAttempts:20}\n",
    ),
    # a keyword mismatch is never a confident version skew
    (
        "python-import-name-missing",
        "TypeError: SamplingParams.__init__() got an unexpected keyword argument 'max_token'\n",
    ),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize(
    ("line", "payload", "level"),
    [
        # FastChat's build_logger: "%(asctime)s | %(levelname)s | %(name)s | %(message)s"
        ("2025-03-24 22:04:27 | ERROR | stderr | ValueError: bad", "ValueError: bad", "ERROR"),
        # loguru's default format (Xinference, LightLLM)
        (
            "2024-05-01 10:00:00.123 | ERROR    | xinference.core.worker:launch_builtin_model:842 - ValueError: bad",
            "ValueError: bad",
            "ERROR",
        ),
        # the engine's own level inside the wrapper's wins
        ("2025-03-24 22:04:27 | ERROR | stderr | INFO 03-24 22:04:20 [core.py:12] up", "up", "INFO"),
        # a markdown table row is not a logger prefix: no level taken from it
        ("| ERROR | 3 | 4 |", "ERROR | 3 | 4 |", ""),
    ],
)
def test_a_wrappers_logger_prefix_is_peeled(line, payload, level):
    p = split_prefix(line)
    assert (p.payload, p.level) == (payload, level)


def test_a_loguru_traceback_is_read_as_raised():
    """The reader fix: under loguru's prefix the traceback's exception is found (it was not before)."""
    log = (
        "2024-05-01 10:00:00.123 | ERROR    | xinference.api:run:12 - Traceback (most recent call last):\n"
        '2024-05-01 10:00:00.123 | ERROR    | xinference.api:run:12 -   File "/srv/app/worker.py", line 57, in init\n'
        "2024-05-01 10:00:00.123 | ERROR    | xinference.api:run:12 - AttributeError: 'AsyncLLM' object has no "
        "attribute 'engine'\n"
    )
    assert_named("vllm-internal-module-moved", log)


def test_a_bindings_re_raise_of_a_load_failure_does_not_outrank_it():
    """The ranking mechanism: LangChain's pydantic ValidationError (pydantic 2's wording, another binding version)
    wrapping llama.cpp's load failure steps aside for the failure it re-raises, here with only the generic
    llamacpp-load-failed to explain it (0.65 under the wrapper's 0.80 before)."""
    log = (
        "llama_model_load: error loading model: done_getting_tensors: wrong number of tensors; expected 292, got 291\n"
        "llama_load_model_from_file: failed to load model\n"
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for LlamaCpp\n"
        "  Value error, Could not load Llama model from path: /models/llama3.gguf. Received error Failed to load "
        "model from file: /models/llama3.gguf [type=value_error, input_value={...}, input_type=dict]\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id != "config-validation-error", top
