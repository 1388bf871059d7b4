"""Rules on quantization: compute-capability gates, native formats, quantized groups, forced kernels."""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding, module_dims
from servebox.engines.vllm.profile import load_profile
from servebox.plan.weights import refused_quantization_flag


def unknown_method(ctx: Context) -> bool:
    """The checkpoint's quant_method is not one this release knows (the profile's quantization_methods, read from
    its QuantizationMethods) and no override claims it (quantization_claimed): ModelConfig refuses it. A profile
    without the list (a fork) is not judged."""
    q, known = ctx.ckpt.facts.quantization, ctx.engine.data.get("quantization_methods")
    if q.method == "none" or ctx.ckpt.facts.kind == "gguf" or known is None:
        return False
    return q.method not in known and q.method not in ctx.engine.data.get("quantization_claimed", {})


def rule_unknown_method(ctx: Context) -> list[Finding]:
    """vLLM 0.32.0 has no bitsandbytes and neither 0.26.0 nor 0.32.0 a gguf method: a config.json naming one ends
    the start in ModelConfig._verify_quantization with these words (measured on the installed 0.32.0's ModelConfig:
    'Unknown quantization method: bitsandbytes. Must be one of [...]')."""
    if not unknown_method(ctx):
        return []
    q, known = ctx.ckpt.facts.quantization, ctx.engine.data["quantization_methods"]
    return [
        finding(
            "quantization-method-unknown",
            "error",
            f"vLLM {ctx.engine.version} refuses the checkpoint at start: 'Unknown quantization method: {q.method}. "
            f"Must be one of {known}.'",
            [
                f"config.json quantization_config.quant_method = {q.method!r}; {ctx.engine.name} has no such method"
            ],
            "use a checkpoint in a method this release knows (or a release that has it: bitsandbytes is in 0.26.0)",
        )
    ]


def rule_quantization_flag(ctx: Context) -> list[Finding]:
    """A --quantization the checkpoint's method does not take ends vLLM's start (ModelConfig._verify_quantization)."""
    q = ctx.ckpt.facts.quantization
    if q.method == "none" or ctx.ckpt.facts.kind == "gguf" or unknown_method(ctx):
        return []
    refused = refused_quantization_flag(
        q.method, ctx.flags.quantization, load_profile(ctx.engine.version), q.format
    )
    if refused is None:
        return []
    return [
        finding(
            "quantization-flag",
            "error",
            refused,
            [
                f"config.json quantization_config.quant_method = {q.method!r}; --quantization {ctx.flags.quantization}"
            ],
            "drop --quantization (vLLM picks the kernel for the checkpoint's method), or name one it takes",
        )
    ]


def rule_quant_capability(ctx: Context) -> list[Finding]:
    q = ctx.ckpt.facts.quantization
    if q.method == "none" or ctx.ckpt.facts.kind == "gguf" or unknown_method(ctx):
        return []
    key = f"{q.method}:{q.scheme}" if q.method == "compressed-tensors" else q.method
    if q.method != "compressed-tensors" and q.format and ctx.engine.quant_gate(f"{q.method}:{q.format}"):
        key = (
            f"{q.method}:{q.format}"  # one method, configs that gate apart (ModelOpt's quant_algo in 0.26.0)
        )
    gate = ctx.engine.quant_gate(key)
    if gate is None and q.method == "compressed-tensors":
        gate = ctx.engine.quant_gate(f"compressed-tensors:{q.scheme.split(' ')[0]}")
    evidence = [
        f"config.json quantization_config.quant_method = {q.method!r}, scheme {q.scheme}"
        + (f", format {q.format}" if q.format else "")
    ]
    if gate is None:
        return [
            finding(
                "quantization-capability",
                "warn",
                f"{ctx.engine.name} has no recorded gate for {key}; servebox cannot tell whether it loads",
                evidence,
                "check the engine's quantization/<method>.py get_min_capability()",
            )
        ]
    evidence.append(f"{ctx.engine.name}: minimum capability {gate}; {ctx.gpu.name}: {ctx.cc}")
    if ctx.cc < gate:
        return [
            finding(
                "quantization-capability",
                "error",
                f"The quantization method {q.method} ({q.scheme}) is not supported for the current GPU. Minimum capability: {gate}. "
                f"Current capability: {ctx.cc}.",
                evidence,
                "use a checkpoint in a scheme this GPU supports (e.g. real AWQ on the Volta fork), or another GPU",
            )
        ]
    return []


def rule_native_formats(ctx: Context) -> list[Finding]:
    q = ctx.ckpt.facts.quantization
    out = []
    if (
        "FP8" in q.scheme
        and (q.activation_bits or 16) == 8
        and ctx.cc < ctx.engine.data["native_fp8_min_capability"]
    ):
        out.append(
            finding(
                "fp8-emulated",
                "warn",
                f"FP8 W8A8 runs weight-only (Marlin) on {ctx.gpu.name}: no FP8 tensor cores below "
                f"capability {ctx.engine.data['native_fp8_min_capability']}",
                [f"scheme {q.scheme}"],
                "expect FP16-speed GEMMs; memory is still saved",
            )
        )
    if "FP4" in q.scheme and ctx.cc < ctx.engine.data["native_fp4_min_capability"]:
        out.append(
            finding(
                "fp4-emulated",
                "warn",
                f"{q.scheme} is emulated on {ctx.gpu.name} (native FP4 needs capability "
                f"{ctx.engine.data['native_fp4_min_capability']})",
                [f"scheme {q.scheme}"],
                "prefer an INT4 (AWQ/GPTQ, W4A16) checkpoint on this GPU",
            )
        )
    return out


def rule_quantized_groups(ctx: Context) -> list[Finding]:
    q = ctx.ckpt.facts.quantization
    out = []
    vision = q.groups.get("vision_tower")
    if vision and not vision.fully_excluded and ctx.flags.tensor_parallel_size > 1:
        out.append(
            finding(
                "quantized-vision-tower",
                "warn",
                f"the vision tower is quantized ({vision.quantized_in_tensors} of {vision.modules} linear modules) and TP is "
                f"{ctx.flags.tensor_parallel_size}: towers are rarely quantized with sharding in mind",
                [f"declared exclusions: {q.declared_exclusions[:6] or 'none'}"],
                "prefer a checkpoint that lists the vision tower in modules_to_not_convert / ignore",
            )
        )
    gdn = q.groups.get("linear_attention")
    if gdn and gdn.quantized_in_tensors and (q.activation_bits or 16) <= 4:
        out.append(
            finding(
                "linear-attention-w4a4",
                "warn",
                f"{gdn.quantized_in_tensors} of {gdn.modules} linear-attention (GDN) modules are quantized with 4-bit activations "
                f"({q.scheme}): the recurrent state degrades (a measured deployment scored 18/30 correct against 30/30 with GDN kept 16-bit)",
                [
                    f"declared exclusions: {len(q.declared_exclusions)} entries, {gdn.declared_excluded} linear-attention"
                ],
                "prefer a checkpoint that excludes linear_attn modules from quantization (W4A16 or ignore list)",
            )
        )
    return out


def rule_marlin_tiles(ctx: Context) -> list[Finding]:
    if not (ctx.env_forces_marlin or ctx.engine.data.get("forces_marlin")) or ctx.ckpt.inventory is None:
        return []
    tile_n, tile_k = ctx.engine.data["marlin_tile_n"], ctx.engine.data["marlin_tile_k"]
    bad = []
    for m in ctx.ckpt.inventory.modules.values():
        if not m.quantized:
            continue
        dims = module_dims(ctx, m.name)
        if dims and (dims[0] % tile_n or dims[1] % tile_k):
            bad.append(f"{m.name}: size_n = {dims[0]}, size_k = {dims[1]}")
    if not bad:
        return []
    return [
        finding(
            "marlin-tile",
            "error",
            f"the marlin kernel is forced and {len(bad)} quantized layer(s) do not divide its tile "
            f"(size_n % {tile_n}, size_k % {tile_k}): gptq_marlin_repack will fail at load",
            bad[:5],
            "do not force marlin for this checkpoint (unset VLLM_SM70_QUANT_BACKEND=marlin)",
        )
    ]
