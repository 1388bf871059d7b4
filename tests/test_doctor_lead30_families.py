"""Families the lead widened or added in stop 30 after scoring its unseen batches, from the four confident wrong
answers they showed, each tested on a wording other than the batch's (another release's rendering, another program)
and a near miss that must not be read the same way.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

GEN_FRAME = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/config/model.py", line 1812, in try_get_generation_config\n'
    "    config = try_get_generation_config(\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/transformers_utils/config.py", line 1228, in '
    "try_get_generation_config\n"
    "    config = get_config(\n"
)

CASES = [
    # llama.cpp's own vocab test file given to -m, as an older build (create_tensor) and llama-cli print it
    (
        "llamacpp-gguf-vocab-only",
        "llama_load_model_from_file: loading model 'models/ggml-vocab-qwen2.gguf'\n"
        "llama_model_load: error loading model: create_tensor: tensor 'token_embd.weight' not found\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
    # --generation-config given a file (vLLM 0.32's path through try_get_generation_config)
    (
        "generation-config-path-invalid",
        GEN_FRAME + "ValueError: Invalid repository ID or local directory specified: "
        "'/models/qwen3/generation_config.json'.\n",
    ),
    # Ollama's structured slog rendering of the same envconfig warning, then the client's failed dial
    (
        "listen-address-malformed",
        'time=2025-03-01T10:00:00.000+01:00 level=WARN source=config.go:58 msg="invalid port, using default" '
        "port=/usr/share/ollama default=11434\n"
        'Error: Head "http://tmp:11434/": dial tcp: lookup tmp on 127.0.0.53:53: no such host\n'
        "Error: could not connect to ollama app, is it running?\n",
    ),
    # a drive letter taken for a host by a client's base URL
    ("listen-address-malformed", 'Error: Get "http://D:11434/api/tags": dial tcp: lookup D: no such host\n'),
    # an attention projection narrower than the hidden size: Gemma's head_dim on a build before it (llama-cpp-python)
    (
        "llamacpp-build-predates-model-variant",
        "llama_model_load: error loading model: check_tensor_dims: tensor 'blk.0.attn_q.weight' has wrong shape; "
        "expected  3584,  3584, got  3584,  4096,     1,     1\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
]

NEAR_MISSES = [
    # another tensor missing is a mismatch, not a file without weights
    (
        "llamacpp-gguf-vocab-only",
        "llama_model_load: error loading model: check_tensor_dims: tensor 'blk.27.ffn_down.weight' not found\n",
    ),
    # the model's own bad path (no try_get_generation_config frame) is not the generation config's
    (
        "generation-config-path-invalid",
        "ValueError: Invalid repository ID or local directory specified: '/models/qwen3'.\n",
    ),
    # the warning alone, with the server then serving, is no failure
    (
        "listen-address-malformed",
        'level=WARN source=config.go:58 msg="invalid port, using default" port=abc default=11434\n'
        'level=INFO source=routes.go:1200 msg="Listening on 127.0.0.1:11434 (version 0.6.2)"\n',
    ),
    # a real host name that does not resolve is the machine's DNS, not a path
    ("listen-address-malformed", "dial tcp: lookup registry.ollama.ai on 127.0.0.53:53: no such host\n"),
    # the vocabulary dimension differing is another mismatch (a fine-tune's added tokens), not a head width
    (
        "llamacpp-build-predates-model-variant",
        "llama_model_load: error loading model: check_tensor_dims: tensor 'token_embd.weight' has wrong shape; "
        "expected  4096, 32000, got  4096, 32064,     1,     1\n",
    ),
    # a lone watchdog line names no cause confidently
    (
        "nccl-watchdog-timeout",
        "[rank1]:[E ProcessGroupNCCL.cpp:523] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600327 milliseconds "
        "before timing out.\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
