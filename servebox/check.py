"""`servebox check`: will this checkpoint load and behave on this engine build and GPU?

Each rule is a small function of (checkpoint facts, vLLM flags, GPU, engine profile) that returns
findings with a severity (error: will not load; warn: loads but degrades; info), the evidence
(config field, tensor name and shape, template line) and the fix. Engine facts (minimum compute
capability per quantization scheme, attention backends and their KV dtypes) live in
engines/vllm/profiles/engines.toml, not in code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from pydantic import BaseModel

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.profile import load_profile
from servebox.errors import InputError
from servebox.hardware import GPU

ROW_PARALLEL_SUFFIXES = (
    "o_proj",
    "down_proj",
    "out_proj",
    "attn.proj",
    "linear_fc2",
    "w2",
    "fc2",
    "dense_4h_to_h",
    "wo",
)
LENGTH_ROPE_TYPES_WITHOUT_FACTOR = (
    "su",
    "longrope",
    "llama3",
    "yarn",
    "deepseek_yarn",
    "deepseek_llama_scaling",
)


class Finding(BaseModel):
    rule: str
    severity: str  # error, warn, info
    message: str
    evidence: list[str]
    fix: str | None = None


class CheckReport(BaseModel):
    source: str
    gpu: str
    engine_profile: str
    findings: list[Finding]
    errors: int
    warnings: int


@dataclass(frozen=True)
class EngineRules:
    name: str
    data: dict[str, Any]

    @property
    def version(self) -> str:
        return self.data["version"]

    def quant_gate(self, key: str) -> int | None:
        return self.data.get("quant_min_capability", {}).get(key)

    @property
    def backends(self) -> dict[str, dict[str, Any]]:
        return self.data.get("backends", {})


def load_engine_rules(name: str) -> EngineRules:
    data = tomllib.loads(
        resources.files("servebox.engines.vllm").joinpath("profiles/engines.toml").read_text()
    )
    profiles = data["profile"]
    if name not in profiles:
        raise InputError(
            "--engine-profile", None, f"unknown engine profile {name!r}; known: {', '.join(profiles)}"
        )
    return EngineRules(name, profiles[name])


@dataclass
class Context:
    ckpt: Checkpoint
    flags: ServeFlags
    gpu: GPU
    engine: EngineRules
    metadata_only: bool
    env_forces_marlin: bool
    template_kwargs: dict[str, Any]

    @property
    def cc(self) -> int:
        return self.gpu.compute_capability[0] * 10 + self.gpu.compute_capability[1]


def _finding(rule: str, severity: str, message: str, evidence: list[str], fix: str | None = None) -> Finding:
    return Finding(rule=rule, severity=severity, message=message, evidence=evidence, fix=fix)


def _module_dims(ctx: Context, module: str) -> tuple[int, int] | None:
    """(out_features, in_features) of a linear module from its stored tensors, undoing each format's packing."""
    shapes = ctx.ckpt.inventory.tensor_shapes if ctx.ckpt.inventory else {}
    method = ctx.ckpt.facts.quantization.method
    if f"{module}.qweight" in shapes:
        rows, cols = shapes[f"{module}.qweight"][1]
        bits = ctx.ckpt.facts.quantization.weight_bits or 4
        pack = 32 // bits
        return (cols * pack, rows) if method.startswith("awq") else (cols, rows * pack)
    if f"{module}.weight_packed" in shapes:
        rows, cols = shapes[f"{module}.weight_packed"][1]
        return rows, cols * (8 // (ctx.ckpt.facts.quantization.weight_bits or 4))
    if f"{module}.weight" in shapes and len(shapes[f"{module}.weight"][1]) == 2:
        out, inp = shapes[f"{module}.weight"][1]
        return out, inp
    return None


# ---- rules ----


def rule_quant_capability(ctx: Context) -> list[Finding]:
    q = ctx.ckpt.facts.quantization
    if q.method in ("none", "gguf"):
        return []
    key = f"{q.method}:{q.scheme}" if q.method == "compressed-tensors" else q.method
    gate = ctx.engine.quant_gate(key)
    if gate is None and q.method == "compressed-tensors":
        gate = ctx.engine.quant_gate(f"compressed-tensors:{q.scheme.split(' ')[0]}")
    evidence = [
        f"config.json quantization_config.quant_method = {q.method!r}, scheme {q.scheme}"
        + (f", format {q.format}" if q.format else "")
    ]
    if gate is None:
        return [
            _finding(
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
            _finding(
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
            _finding(
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
            _finding(
                "fp4-emulated",
                "warn",
                f"{q.scheme} is emulated on {ctx.gpu.name} (native FP4 needs capability "
                f"{ctx.engine.data['native_fp4_min_capability']})",
                [f"scheme {q.scheme}"],
                "prefer an INT4 (AWQ/GPTQ, W4A16) checkpoint on this GPU",
            )
        )
    return out


def rule_dtype(ctx: Context) -> list[Finding]:
    arch = ctx.ckpt.architecture
    dtype = ctx.flags.dtype if ctx.flags.dtype != "auto" else (arch.torch_dtype or "bfloat16")
    if dtype in ("bfloat16", "bf16") and ctx.cc < ctx.engine.data["bf16_min_capability"]:
        if ctx.flags.dtype in ("bfloat16", "bf16"):
            return [
                _finding(
                    "bf16-capability",
                    "error",
                    f"Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your {ctx.gpu.model} GPU has "
                    f"compute capability {ctx.gpu.compute_capability[0]}.{ctx.gpu.compute_capability[1]}.",
                    [f"--dtype {ctx.flags.dtype}"],
                    "pass --dtype half",
                )
            ]
        return [
            _finding(
                "bf16-capability",
                "info",
                f"the checkpoint is bfloat16; on {ctx.gpu.name} vLLM casts it to float16",
                [f"config.json torch_dtype = {arch.torch_dtype!r}"],
                "pass --dtype half to make it explicit",
            )
        ]
    return []


def rule_tensor_parallel(ctx: Context) -> list[Finding]:
    tp, a = ctx.flags.tensor_parallel_size, ctx.ckpt.architecture
    out = []
    if a.num_attention_heads % tp:
        out.append(
            _finding(
                "tp-heads",
                "error",
                f"Total number of attention heads ({a.num_attention_heads}) must be divisible by tensor parallel size ({tp}).",
                [f"config.json num_attention_heads = {a.num_attention_heads}"],
                "choose a TP size that divides the heads",
            )
        )
    kv = a.num_key_value_heads
    if kv % tp and tp % kv:
        out.append(
            _finding(
                "tp-kv-heads",
                "error",
                f"{kv} KV heads can be neither split nor replicated evenly over TP {tp}",
                [f"config.json num_key_value_heads = {kv}"],
                "choose a TP size that divides or is a multiple of the KV heads",
            )
        )
    elif kv < tp:
        out.append(
            _finding(
                "tp-kv-heads",
                "info",
                f"{kv} KV heads < TP {tp}: each KV head is replicated on {tp // kv} ranks (more KV memory per token)",
                [f"config.json num_key_value_heads = {kv}"],
            )
        )
    la = a.linear_attention
    if la and (la.num_value_heads % tp or la.num_key_heads % tp):
        out.append(
            _finding(
                "tp-linear-heads",
                "error",
                f"linear-attention heads ({la.num_key_heads} k, {la.num_value_heads} v) are not divisible by TP {tp}",
                ["config.json linear_num_key_heads / linear_num_value_heads"],
                "choose a TP size that divides them",
            )
        )
    return out


def rule_row_parallel_groups(ctx: Context) -> list[Finding]:
    """A row-parallel quantized layer splits its input over TP ranks; each rank's share must hold whole groups."""
    q, tp, inv = ctx.ckpt.facts.quantization, ctx.flags.tensor_parallel_size, ctx.ckpt.inventory
    if tp == 1 or not q.group_size or q.group_size <= 0 or inv is None:
        return []
    bad: dict[str, list[str]] = {}
    for m in inv.modules.values():
        if not m.quantized or not m.name.endswith(ROW_PARALLEL_SUFFIXES):
            continue
        dims = _module_dims(ctx, m.name)
        if dims and (dims[1] % tp or (dims[1] // tp) % q.group_size):
            bad.setdefault(m.component, []).append(
                f"{m.name}: input {dims[1]} / TP {tp} = {dims[1] / tp:g}, not a multiple of group {q.group_size}"
            )
    out = []
    for component, lines in bad.items():
        out.append(
            _finding(
                "row-parallel-group-alignment",
                "error",
                f"The input size is not aligned with the quantized weight shape: {len(lines)} quantized row-parallel layer(s) of the {component} cannot be split over TP {tp}",
                lines[:5] + ([f"... and {len(lines) - 5} more"] if len(lines) > 5 else []),
                "use a checkpoint that keeps these layers unquantized (modules_to_not_convert / ignore)"
                if component == "vision_tower"
                else "use a TP size whose per-rank share holds whole groups, or a checkpoint with another group size",
            )
        )
    return out


def rule_quantized_groups(ctx: Context) -> list[Finding]:
    q = ctx.ckpt.facts.quantization
    out = []
    vision = q.groups.get("vision_tower")
    if vision and not vision.fully_excluded and ctx.flags.tensor_parallel_size > 1:
        out.append(
            _finding(
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
            _finding(
                "linear-attention-w4a4",
                "warn",
                f"{gdn.quantized_in_tensors} of {gdn.modules} linear-attention (GDN) modules are quantized with 4-bit activations "
                f"({q.scheme}): the recurrent state degrades (the digest measured 18/30 correct against 30/30 with GDN kept 16-bit)",
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
        dims = _module_dims(ctx, m.name)
        if dims and (dims[0] % tile_n or dims[1] % tile_k):
            bad.append(f"{m.name}: size_n = {dims[0]}, size_k = {dims[1]}")
    if not bad:
        return []
    return [
        _finding(
            "marlin-tile",
            "error",
            f"the marlin kernel is forced and {len(bad)} quantized layer(s) do not divide its tile "
            f"(size_n % {tile_n}, size_k % {tile_k}): gptq_marlin_repack will fail at load",
            bad[:5],
            "do not force marlin for this checkpoint (unset VLLM_SM70_QUANT_BACKEND=marlin)",
        )
    ]


def rule_kv_backend(ctx: Context) -> list[Finding]:
    dtype = ctx.flags.kv_cache_dtype
    backends = ctx.engine.backends
    serving = [
        n
        for n in ctx.engine.data["backend_order"]
        if dtype in backends[n]["kv_cache_dtypes"] and ctx.cc >= backends[n]["min_capability"]
    ]
    evidence = [f"--kv-cache-dtype {dtype}"] + [
        f"{n}: {', '.join(backends[n]['kv_cache_dtypes'])} (capability >= {backends[n]['min_capability']})"
        for n in ctx.engine.data["backend_order"]
    ]
    if not serving:
        return [
            _finding(
                "kv-dtype-backend",
                "error",
                f"no attention backend of {ctx.engine.name} serves kv_cache_dtype {dtype} on {ctx.gpu.name}",
                evidence,
                "choose a KV cache dtype one of the backends supports",
            )
        ]
    forced = ctx.flags.attention_backend
    if forced:
        if forced not in backends:
            return [
                _finding(
                    "attention-backend",
                    "error",
                    f"{ctx.engine.name} has no attention backend {forced!r}",
                    evidence,
                    f"choose one of {', '.join(backends)}",
                )
            ]
        if forced not in serving:
            return [
                _finding(
                    "kv-dtype-backend",
                    "error",
                    f"Selected backend {forced} is not valid for this configuration. Reason: ['kv_cache_dtype not supported']",
                    evidence,
                    f"{dtype} is served by {', '.join(serving)}: drop --attention-backend (the dtype implies the backend)",
                )
            ]
    spec = ctx.flags.speculative_config or {}
    needed = ctx.engine.data.get("spec_decode_backend")
    if spec and needed and needed not in serving:
        return [
            _finding(
                "kv-dtype-speculative",
                "error",
                f"Selected backend {needed} is not valid for this configuration. Reason: ['kv_cache_dtype not supported']: "
                f"speculative decoding ({spec.get('method', 'draft')}) runs on {needed}, and {dtype} is served only by {', '.join(serving)}",
                evidence,
                "drop the speculative config or use a KV dtype the speculative backend supports (e.g. fp8_e5m2)",
            )
        ]
    return []


def rule_scheduler(ctx: Context, defaults: tuple[int, int]) -> list[Finding]:
    seqs = ctx.flags.max_num_seqs or defaults[0]
    tokens = ctx.flags.max_num_batched_tokens or defaults[1]
    out = []
    if tokens < seqs:
        out.append(
            _finding(
                "scheduler-batch",
                "error",
                f"max_num_batched_tokens ({tokens}) must be greater than or equal to max_num_seqs ({seqs}).",
                [f"--max-num-batched-tokens {tokens}", f"--max-num-seqs {seqs}"],
                "raise max_num_batched_tokens or lower max_num_seqs",
            )
        )
    a = ctx.ckpt.architecture
    if ctx.flags.max_model_len not in (None, "auto") and a.max_position_embeddings:
        derived = a.max_position_embeddings
        rope = a.rope_scaling or {}
        rope_type = rope.get("rope_type") or rope.get("type")
        if rope_type and rope_type not in LENGTH_ROPE_TYPES_WITHOUT_FACTOR and rope.get("factor"):
            derived = int(derived * rope["factor"])
        want = int(ctx.flags.max_model_len)
        if want > derived:
            out.append(
                _finding(
                    "max-model-len-positions",
                    "error",
                    f"User-specified max_model_len ({want}) is greater than the derived max_model_len (max_position_embeddings={derived})",
                    [
                        f"config.json max_position_embeddings = {a.max_position_embeddings}, rope_scaling = {rope or None}"
                    ],
                    "lower --max-model-len, or add a rope scaling the model was trained for (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 risks NaNs)",
                )
            )
    return out


def rule_plan(ctx: Context) -> list[Finding]:
    from servebox.plan import make_plan

    plan = make_plan(ctx.ckpt, ctx.flags, ctx.gpu, load_profile(ctx.engine.version))
    if plan.fits:
        return [
            _finding(
                "plan",
                "info",
                f"fits: {plan.kv_cache_tokens:,} KV tokens, {plan.max_concurrency:.2f}x at {plan.max_model_len:,} "
                f"(largest that fits {plan.max_model_len_that_fits:,})",
                plan.log_lines,
            )
        ]
    return [
        _finding(
            "plan",
            "error",
            plan.error or "does not fit",
            plan.log_lines + plan.explain[-3:],
            f"--max-model-len {plan.max_model_len_that_fits} or less, or more memory (utilization, fp8 KV, TP)",
        )
    ]


def rule_mtp(ctx: Context) -> list[Finding]:
    spec = ctx.flags.speculative_config or {}
    method = str(spec.get("method") or "")
    if "mtp" not in method:
        return []
    comps = ctx.ckpt.inventory.bytes_by_component if ctx.ckpt.inventory else {}
    if not ctx.ckpt.architecture.mtp_layers or not comps.get("mtp"):
        return [
            _finding(
                "mtp-weights",
                "error",
                f"--speculative-config method {method!r} needs MTP weights, and the checkpoint has none",
                [
                    f"config.json mtp layers = {ctx.ckpt.architecture.mtp_layers}, MTP tensors = {comps.get('mtp', 0)} bytes"
                ],
                "use a checkpoint that ships its MTP head, or drop the speculative config",
            )
        ]
    return []


def rule_hybrid_offloading(ctx: Context, rest: list[str]) -> list[Finding]:
    a = ctx.ckpt.architecture
    if (a.linear_attention or a.mamba) and (
        ctx.flags.kv_offloading_size or any(r.startswith("--kv-offloading") for r in rest)
    ):
        return [
            _finding(
                "hybrid-kv-offloading",
                "warn",
                "KV offloading on a hybrid (GDN/Mamba) model: the digest's engine died after 13-19 minutes "
                "(offloading connector assertion with --mamba-cache-mode align)",
                [f"--kv-offloading-size {ctx.flags.kv_offloading_size}"],
                "no KV offloading on hybrid models",
            )
        ]
    return []


def rule_template(ctx: Context) -> list[Finding]:
    ct = ctx.ckpt.facts.chat_template
    if ct is None:
        return [
            _finding(
                "chat-template",
                "warn",
                "no chat template: /v1/chat/completions will refuse requests",
                ["tokenizer_config.json chat_template absent"],
                "pass --chat-template FILE",
            )
        ]
    out = []
    for name, value in ctx.template_kwargs.items():
        var = ct.variable(name)
        if var is None:
            out.append(
                _finding(
                    "template-kwarg-unread",
                    "warn",
                    f"the chat template never reads {name!r}: passing it changes nothing",
                    [f"{ct.source}: variables read: {', '.join(v.name for v in ct.variables) or 'none'}"],
                    f"drop {name} or use the template's own name",
                )
            )
        elif var.branch_values and value not in var.branch_values:
            out.append(
                _finding(
                    "template-no-branch",
                    "warn",
                    f"{name}={value!r} has no branch in the template (it compares against {var.branch_values}): it matches no branch"
                    + (
                        f" (the template's own default, used when the kwarg is absent, is {var.default!r})"
                        if var.default_source
                        else ""
                    ),
                    [f"{ct.source} lines {var.lines[:6]}"],
                    f"use one of {var.branch_values}",
                )
            )
    if ct.reasoning is not None:
        if ct.reasoning_default_on:
            effort = ct.variable("reasoning_effort")
            detail = (
                f"; reasoning_effort defaults to {effort.default!r}"
                if effort and effort.default_source
                else ""
            )
            out.append(
                _finding(
                    "reasoning-default-on",
                    "info",
                    f"the template turns reasoning on by default{detail}",
                    [f"{ct.source}"],
                    "set enable_thinking / reasoning_effort knowingly (--default-chat-template-kwargs) and pass --reasoning-parser",
                )
            )
        if not ct.reasoning.end_is_eos:
            out.append(
                _finding(
                    "reasoning-end-not-eos",
                    "info",
                    f"{ct.reasoning.end} (id {ct.reasoning.end_token_id}) is not an EOS token: a model that "
                    "never closes its reasoning runs to max_tokens and returns empty content",
                    [f"EOS: {', '.join(ct.eos_tokens)}"],
                    "budget max_tokens; `servebox eval` measures how often reasoning never closes",
                )
            )
    return out


def rule_completeness(ctx: Context) -> list[Finding]:
    facts = ctx.ckpt.facts
    out = []
    if ctx.metadata_only:
        return [
            _finding(
                "completeness",
                "info",
                "metadata-only copy: shard sizes and tokenizer files not checked",
                [facts.source],
            )
        ]
    if facts.tensors and not facts.tensors.complete:
        bad = [f"{s['file']}: {s['problem']}" for s in facts.tensors.shards if not s["complete"]]
        out.append(
            _finding(
                "completeness",
                "error",
                f"{len(bad)} shard(s) incomplete: the download is partial or corrupt",
                bad[:5],
                "re-download the listed shards (`huggingface-cli download --resume` / servebox fetch-model)",
            )
        )
    if not facts.tokenizer_files:
        out.append(
            _finding(
                "tokenizer-files",
                "error",
                "no tokenizer file (tokenizer.json, tokenizer.model, vocab.json)",
                [facts.source],
                "copy the tokenizer files from the base model, or pass --tokenizer",
            )
        )
    return out


SEVERITY_ORDER = {"error": 0, "warn": 1, "info": 2}


def run_check(
    ckpt: Checkpoint,
    flags: ServeFlags,
    gpu: GPU,
    engine: EngineRules,
    rest: list[str] | None = None,
    metadata_only: bool = False,
    env_forces_marlin: bool = False,
    template_kwargs: dict[str, Any] | None = None,
) -> CheckReport:
    rest = rest or []
    kwargs = {**flags.default_chat_template_kwargs, **(template_kwargs or {})}
    ctx = Context(ckpt, flags, gpu, engine, metadata_only, env_forces_marlin, kwargs)
    big = gpu.total_bytes >= 70 * 2**30
    findings: list[Finding] = []
    for rule in (
        rule_completeness,
        rule_quant_capability,
        rule_native_formats,
        rule_dtype,
        rule_tensor_parallel,
        rule_row_parallel_groups,
        rule_quantized_groups,
        rule_marlin_tiles,
        rule_kv_backend,
        rule_mtp,
        rule_template,
    ):
        findings += rule(ctx)
    findings += rule_scheduler(ctx, (1024, 8192) if big else (256, 2048))
    findings += rule_hybrid_offloading(ctx, rest)
    if not any(
        f.severity == "error" and f.rule in ("tp-heads", "tp-kv-heads", "kv-dtype-backend") for f in findings
    ):
        findings += rule_plan(ctx)
    findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return CheckReport(
        source=ckpt.facts.source,
        gpu=gpu.name,
        engine_profile=engine.name,
        findings=findings,
        errors=sum(f.severity == "error" for f in findings),
        warnings=sum(f.severity == "warn" for f in findings),
    )
