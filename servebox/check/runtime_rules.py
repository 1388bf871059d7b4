"""Rules on the engine at run time: KV dtype x backend, scheduler and positions, plan fit, MTP, offloading."""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding
from servebox.engines.vllm.profile import load_profile

LENGTH_ROPE_TYPES_WITHOUT_FACTOR = (
    "su",
    "longrope",
    "llama3",
    "yarn",
    "deepseek_yarn",
    "deepseek_llama_scaling",
)


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
            finding(
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
                finding(
                    "attention-backend",
                    "error",
                    f"{ctx.engine.name} has no attention backend {forced!r}",
                    evidence,
                    f"choose one of {', '.join(backends)}",
                )
            ]
        if forced not in serving:
            return [
                finding(
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
            finding(
                "kv-dtype-speculative",
                "error",
                f"Selected backend {needed} is not valid for this configuration. Reason: ['kv_cache_dtype not supported']: "
                f"speculative decoding ({spec.get('method', 'draft')}) runs on {needed}, and {dtype} is served only by {', '.join(serving)}",
                evidence,
                "drop the speculative config or use a KV dtype the speculative backend supports (e.g. fp8_e5m2)",
            )
        ]
    return []


def rule_scheduler(ctx: Context, shape: tuple[int, int]) -> list[Finding]:
    """`shape`: (max_num_seqs, max_num_batched_tokens) the engine will run with (profile.batch_shape_of)."""
    seqs, tokens = shape
    out = []
    if tokens < seqs:
        out.append(
            finding(
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
                finding(
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
    from servebox.errors import InputError
    from servebox.plan import make_plan

    build = "upstream" if ctx.engine.name.startswith("vllm-") else ctx.engine.name
    try:
        plan = make_plan(ctx.ckpt, ctx.flags, ctx.gpu, load_profile(ctx.engine.version), build=build)
    except (
        InputError
    ) as exc:  # what the planner does not model (e.g. a draft-model drafter): say so, do not pass
        return [finding("plan", "warn", f"not planned: {exc.message}", [str(exc)])]
    if plan.fits and plan.unmodelled:
        from servebox.report.plan_view import unmodelled_verdict

        return [finding("plan", "warn", unmodelled_verdict(plan), plan.log_lines)]
    if plan.fits:
        calibrated = plan.calibration_status.get("calibrated")
        return [
            finding(
                "plan",
                "info" if calibrated else "warn",
                ("" if calibrated else "uncalibrated, ")
                + f"fits: {plan.kv_cache_tokens:,} KV tokens, {plan.max_concurrency:.2f}x at {plan.max_model_len:,} "
                f"(largest that fits {plan.max_model_len_that_fits:,})",
                ([] if calibrated else [plan.calibration_status["line"]]) + plan.log_lines,
            )
        ]
    return [
        finding(
            "plan",
            "error",
            plan.error or "does not fit",
            plan.log_lines + plan.explain[-3:],
            _plan_fix(plan),
        )
    ]


def _plan_fix(plan) -> str:
    """A context that fits where some does; where none does (the weights and overheads alone exceed the budget, fresh-298
    printed '--max-model-len 0 or less'), only more memory or fewer weight bytes per GPU."""
    if plan.max_model_len_that_fits > 0:
        return f"--max-model-len {plan.max_model_len_that_fits} or less, or more memory (utilization, fp8 KV, TP)"
    return (
        "no context fits: the weights and start-up overheads alone exceed this GPU's budget; use a larger GPU or a higher"
        " --gpu-memory-utilization, a quantized checkpoint, or split the weights with --tensor-parallel-size"
    )


def rule_mtp(ctx: Context) -> list[Finding]:
    spec = ctx.flags.speculative_config or {}
    method = str(spec.get("method") or "")
    if "mtp" not in method:
        return []
    comps = ctx.ckpt.inventory.bytes_by_component if ctx.ckpt.inventory else {}
    if not ctx.ckpt.architecture.mtp_layers or not comps.get("mtp"):
        return [
            finding(
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
            finding(
                "hybrid-kv-offloading",
                "warn",
                "KV offloading on a hybrid (GDN/Mamba) model: a measured 2x V100 deployment's engine died after 13-19 minutes "
                "(offloading connector assertion with --mamba-cache-mode align)",
                [f"--kv-offloading-size {ctx.flags.kv_offloading_size}"],
                "no KV offloading on hybrid models",
            )
        ]
    return []
