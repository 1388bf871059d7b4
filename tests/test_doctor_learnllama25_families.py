"""What the scored batches fresh-29 (public llama.cpp, llama-cpp-python and convert-script threads) and fresh-31
(requests made here) taught: one case per family added or widened.

Each log is written in another wording than its corpus log (other models, tensors, paths, fields, values), so the
test checks the family, not the one line it was learnt from.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # lora-converter-extra-tensor (public-llama-lora-rope-freqs-unexpected-suffix): another stray tensor, llama-server
    (
        "lora-converter-extra-tensor",
        "llama_adapter_lora_init_impl: loading lora adapter from '/srv/lora/mistral-sql.gguf' ...\n"
        "llama_adapter_lora_init: failed to apply lora adapter: LoRA tensor 'token_embd.weight' has unexpected suffix\n"
        "common_init_from_params: failed to load lora adapter '/srv/lora/mistral-sql.gguf'\n",
    ),
    # llamacpp-invalid-argument widened (public-llama-quantize-invalid-nthread-arg-order): the type refused instead
    (
        "llamacpp-invalid-argument",
        "$ ./build/bin/llama-quantize 8 model-f16.gguf out.gguf Q9_X\nmain: invalid ftype 'model-f16.gguf'\n",
    ),
    # llamacpp-feature-defect's quantizer rows (public-llama-quantize-mtp-layer-bad-layer): another model's layer
    # index, and a failed check the quantizer's file names
    (
        "llamacpp-feature-defect",
        "llama_model_quantize: failed to quantize: Bad layer 61 for tensor blk.61.ffn_gate_exps.weight. "
        "Must be in [0, 61)\nmain: failed to quantize model from 'GLM-5.1-BF16.gguf'\n",
    ),
    (
        "llamacpp-feature-defect",
        "[  12/ 803]            blk.0.ffn_down_exps.weight - [ 2048,  7168,   256,     1], type =   bf16, "
        "converting to q4_K .. /src/llama.cpp/src/llama-quant.cpp:961: GGML_ASSERT(qs.n_ffn_down == n_layer) failed\n"
        "Aborted (core dumped)\n",
    ),
    # convert-legacy-script-wrong-architecture (public-llama-convert-py-qwen-keyerror): a GPT-NeoX style name
    (
        "convert-legacy-script-wrong-architecture",
        "$ python examples/convert_legacy_llama.py ./pythia-1b --outtype f16\n"
        "Traceback (most recent call last):\n"
        '  File "examples/convert_legacy_llama.py", line 1214, in convert_model_names\n'
        "KeyError: 'gpt_neox.layers.0.attention.query_key_value.weight'\n",
    ),
    # convert-unexpected-tensor-vision-tower (public-llama-convert-py-mobilevlm-vision-tower-tensor): a projector
    (
        "convert-unexpected-tensor-vision-tower",
        "python3 convert.py ./llava-v1.6-vicuna-7b\n"
        "Exception: Unexpected tensor name: model.mm_projector.0.weight. Use --skip-unknown to ignore it (e.g. LLaVA)\n",
    ),
    # unknown-architecture widened (public-llama-convert-hf-llamaforcausallm-not-supported): the newer quoting
    (
        "unknown-architecture",
        "INFO:hf-to-gguf:Loading model: FancyNet-3B\n"
        "NotImplementedError: Architecture 'FancyNetForCausalLM' not supported!\n",
    ),
    # pip-wheel-invalid-incomplete-download (public-llama-cpp-python-cuda-wheel-invalid): a Linux pip cache path
    (
        "pip-wheel-invalid-incomplete-download",
        "Processing /home/ana/wheels/vllm-0.9.2-cp38-abi3-manylinux1_x86_64.whl\n"
        "ERROR: Wheel 'vllm' located at /home/ana/wheels/vllm-0.9.2-cp38-abi3-manylinux1_x86_64.whl is invalid.\n",
    ),
    # request-refused widened (fresh31-vllm-tokenize-model-number): a body printed without its code
    (
        "request-refused",
        'INFO:     127.0.0.1:40110 - "POST /v1/embeddings HTTP/1.1" 422 Unprocessable Entity\n'
        "# client:\n"
        '{"error": {"message": "input: Field required", "type": "BadRequestError", "param": "input"}}\n',
    ),
]


test_the_family_names_the_cause, _ = family_tests(CASES)
