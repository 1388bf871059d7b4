"""The memory vLLM's start-up takes besides weights and KV: activation peak, non-torch memory, CUDA-graph pool.

vLLM measures these in its profile run; no config holds them. A profile with a `[profile."X".non_kv]` table
in vllm.toml (0.26+) is modelled from real H200 start-up logs (tests/fixtures/gpu-logs/): which model runner
vLLM picks, the profile run's forward peak per batched token, non-torch memory, and whether the graph
estimate comes out of the KV budget. Older profiles keep the shape estimate and the [assumptions] table.
A value the caller gives (measured, or from a saved calibration) replaces the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from servebox.checkpoint.architecture import Architecture
from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.kv_spec import capture_sizes, cdiv
from servebox.engines.vllm.profile import EngineProfile, vllm_toml
from servebox.units import GiB, MiB


@dataclass
class NonKV:
    activation: int
    non_torch: int
    graphs: int
    subtract_graphs: bool  # whether this vLLM takes the graph estimate out of the KV budget
    capture_sizes: list[int]
    explain: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    model_runner: str | None = None  # "v1" | "v2" where the profile knows vLLM runs two
    # parts of the profile run's peak no estimate here covers; a "fits" must then say what they may take
    unmodelled: list[str] = field(default_factory=list)


def _profiles() -> dict:
    return vllm_toml()["profile"]


def non_kv_model(profile: EngineProfile) -> dict | None:
    """The profile's measured non-KV model (`[profile."X".non_kv]`), or None where it has none."""
    return _profiles().get(profile.matched, {}).get("non_kv")


def model_runner(arch: Architecture, model: dict, env: dict[str, str] | None = None) -> str:
    """V2 unless the model is MoE, hybrid or attention-free and its class is not on the V2 default list
    (vllm/config/vllm.py use_v2_model_runner; what the 0.26 logs showed is recorded in vllm.toml). The
    profile's `runner_env` variable, when the engine's environment sets it, decides instead (vLLM reads it
    as bool(int(value)))."""
    forced = (env or {}).get(model.get("runner_env", ""), "").strip()
    if forced.lstrip("-").isdigit():
        return "v2" if int(forced) else "v1"
    kinds = set(arch.layer_kinds)
    special = arch.moe is not None or bool(kinds & {"linear_attention", "mamba"})
    if special and arch.architecture not in model["v2_default_architectures"]:
        return "v1"
    return "v2"


def _layer_widths(
    arch: Architecture, tp: int, mode: str, model: dict, quant: str = "none"
) -> dict[str, float]:
    """Per-token activation elements of the widest op in each kind of layer, as the logs measured them (the MoE
    workspace per quantization method where its kernels were measured apart: moe_factor_<method>)."""
    widths: dict[str, float] = {}
    h = arch.hidden_size
    inter = arch.intermediate_size or 4 * h
    widths["MLP 3 x I/TP"] = 3 * inter / tp
    if arch.moe is not None:
        moe_i = arch.moe.moe_intermediate_size or inter
        factors = {**model["moe_factor"], **model.get(f"moe_factor_{quant}", {})}
        k = factors.get(mode) or factors.get(mode.split("_")[0]) or factors[f"{mode.split('_')[0]}_compiled"]
        shared = 3 * moe_i * arch.moe.shared_experts / tp
        widths[f"MoE {k} x top-{arch.moe.experts_per_token} x max(2I, H)/TP + shared"] = (
            k * arch.moe.experts_per_token * max(2 * moe_i, h) / tp + shared
        )
    la = arch.linear_attention
    if la is not None:
        width = 2 * la.num_key_heads * la.key_head_dim + 2 * la.num_value_heads * la.value_head_dim
        factor = model.get("gdn_factor_by_class", {}).get(arch.architecture, model["gdn_factor"])
        widths[f"GDN {factor} x (2 q/k + 2 v/z dims)/TP"] = factor * width / tp
    return widths


def mla_profile_buffer(
    arch: Architecture, tp: int, max_len: int, seqs: int, act_bytes: int, model: dict
) -> int:
    """The profile run's stand-in for MLA's up-projected prefill context: with no attention metadata each MLA
    layer allocates chunked_prefill_workspace_size x heads x (qk_nope + v) (vLLM mla_attention.py), rows =
    min(max(8 x max_model_len, 4 x max_num_seqs x 16), cap). Its size does not follow the batched tokens."""
    cap = model.get("mla_profile_rows_cap")
    if arch.mla is None or not cap:
        return 0
    rows = min(max(8 * max_len, 4 * seqs * 16), cap)
    heads = max(arch.num_attention_heads // tp, 1)
    return rows * heads * (arch.mla.qk_nope_head_dim + arch.mla.v_head_dim) * act_bytes


def activation_measured_model(
    arch: Architecture,
    tp: int,
    tokens: int,
    seqs: int,
    act_bytes: int,
    runner: str,
    eager: bool,
    model: dict,
    mla_buffer: int = 0,
    spec_decode: bool = False,
    quant: str = "none",
) -> tuple[int, str]:
    """The profile run's peak: its forward over the batched tokens and, on the V1 runner only, the sampler
    warm-up over max_num_seqs rows of logits (V2's did not show in the logs), whichever is larger."""
    mode = f"{runner}_eager" if eager else f"{runner}_compiled"
    widths = _layer_widths(arch, tp, mode, model, quant)
    widest = max(widths, key=widths.__getitem__)
    per_token = model["hidden_factor"] * arch.hidden_size + widths[widest]
    forward = int(tokens * per_token * act_bytes)
    line = (
        f"forward {tokens} batched tokens x ({model['hidden_factor']} x H {arch.hidden_size} + widest op: "
        f"{widest} = {widths[widest]:.0f}) x {act_bytes} B = {forward / GiB:.2f} GiB"
    )
    if mla_buffer:  # the attention layer's peak: the stand-in beside the hidden states, when it is larger
        attention = mla_buffer + tokens * model["hidden_factor"] * arch.hidden_size * act_bytes
        line = (
            f"max({line}, MLA profile stand-in {mla_buffer / GiB:.2f} GiB + hidden states "
            f"{(attention - mla_buffer) / GiB:.2f} GiB)"
        )
        forward = max(forward, attention)
    per_logit = model["sampler_bytes_per_logit"].get(runner, 0)
    if spec_decode:  # the rejection sampler's warm-up follows the sampler's, its tensors beside them
        per_logit += model.get("spec_sampler_bytes_per_logit", {}).get(runner, 0)
    if not per_logit:
        return (
            forward,
            f"activation peak = {line} (the {runner.upper()} runner's sampler warm-up did not show)",
        )
    sampler = seqs * arch.vocab_size * per_logit
    with_spec = " (with the rejection sampler's)" if spec_decode else ""
    sampler_line = (
        f"sampler{with_spec} {seqs} seqs x vocab {arch.vocab_size} x {per_logit} B = {sampler / GiB:.2f} GiB"
    )
    return max(forward, sampler), f"activation peak = max({line}, {sampler_line})"


def activation_bytes(
    ckpt: Checkpoint, tp: int, tokens: int, seqs: int, act_bytes: int, per_logit: float = 16
) -> tuple[int, str]:
    """Shape estimate of the profile run's peak: its forward, or the sampler warm-up over max_num_seqs rows of
    logits at the release's bytes per logit (its top-k/top-p path), whichever is larger."""
    a = ckpt.architecture
    inter = a.intermediate_size or 4 * a.hidden_size
    if a.moe is not None:
        inter = (a.moe.moe_intermediate_size or inter) * max(1, a.moe.experts_per_token)
    qkv = (a.num_attention_heads + 2 * a.num_key_value_heads) * a.head_dim
    forward = tokens * (2 * inter // tp + qkv // tp + 2 * a.hidden_size) * act_bytes
    sampler = int(seqs * a.vocab_size * per_logit)
    peak = max(forward, sampler)
    which = "forward" if forward >= sampler else "sampler warm-up"
    return peak, (
        f"activation peak = max(forward {tokens} tokens x (2*{inter}/TP + {qkv}/TP + 2*{a.hidden_size}) x {act_bytes} B = "
        f"{forward / GiB:.2f} GiB, sampler {seqs} seqs x vocab {a.vocab_size} x {per_logit:g} B = {sampler / GiB:.2f} GiB) "
        f"= {peak / GiB:.2f} GiB ({which})"
    )


def _sizes(
    flags: ServeFlags, seqs: int, n_spec: int, arch: Architecture, profile: EngineProfile
) -> list[int]:
    """The captured batch sizes: the user's, else vLLM's default list up to the user's maximum, the model
    class's own override (profile data: gpt-oss raises it to 1024 whatever max_num_seqs is), or its default."""
    if flags.enforce_eager:
        return []
    cc = flags.compilation_config or {}
    if cc.get("cudagraph_capture_sizes"):
        return cc["cudagraph_capture_sizes"]
    largest = cc.get("max_cudagraph_capture_size") or _capture_override(arch, profile)
    return capture_sizes(seqs, n_spec, largest)


def _capture_override(arch: Architecture, profile: EngineProfile) -> int | None:
    entry = vllm_toml().get("max_capture_size_by_arch", {}).get(arch.architecture)
    if entry and profile.at_least(entry["since"]):
        return entry["max"]
    return None


def non_kv_memory(
    ckpt: Checkpoint,
    flags: ServeFlags,
    profile: EngineProfile,
    tp: int,
    pp: int,
    seqs: int,
    tokens: int,
    n_spec: int,
    dtype_bytes: int,
    activation_gib: float | None,
    non_torch_gib: float | None,
    cudagraph_gib: float | None,
) -> NonKV:
    """Per-rank non-KV terms; a value given by the caller (measured or calibrated) replaces the estimate."""
    arch = ckpt.architecture
    model = non_kv_model(profile)
    runner = model_runner(arch, model, flags.env) if model else None
    explain: list[str] = []
    assumptions: list[str] = []
    if runner:
        why = (
            "set by " + model["runner_env"]
            if model.get("runner_env") in flags.env
            else "picks it by architecture"
        )
        explain.append(f"model runner: {runner.upper()} (vLLM {profile.matched} {why})")
    if activation_gib is not None:
        activation = int(activation_gib * GiB)
        explain.append(f"activation peak = {activation_gib:.2f} GiB (given: measured or calibrated)")
    elif model:
        max_len = int(flags.max_model_len) if str(flags.max_model_len).isdigit() else None
        buffer = mla_profile_buffer(
            arch, tp, max_len or arch.max_position_embeddings or 0, seqs, dtype_bytes, model
        )
        activation, line = activation_measured_model(
            arch,
            tp,
            tokens,
            seqs,
            dtype_bytes,
            runner,
            flags.enforce_eager,
            model,
            buffer,
            n_spec > 0,
            ckpt.facts.quantization.method,
        )
        explain.append(line)
        if "mamba" in arch.layer_kinds:
            assumptions.append(
                "the Mamba2 mixer's activation is not measured on a GPU log yet: MLP and hidden terms only"
            )
    else:
        per_logit = profile.sampler_bytes_per_logit or profile.assumptions["sampler_bytes_per_logit"]
        activation, line = activation_bytes(ckpt, tp, tokens, seqs, dtype_bytes, per_logit)
        explain.append(line)
        assumptions.append(
            "activation peak estimated from shapes (pass --activation-gib with the measured value)"
        )
    unmodelled = []
    if activation_gib is None and arch.vision is not None and not flags.language_model_only:
        unmodelled.append(
            "the vision encoder's profiling pass (the tower is loaded; no GPU log here measured one)"
        )
    a = model or profile.assumptions
    if non_torch_gib is None:
        non_torch_gib = a["non_torch_gib_tp1"] + (a["non_torch_gib_per_extra_rank"] if tp * pp > 1 else 0.0)
        label = "measured on H200 logs at TP 1" if model and tp * pp == 1 else "assumed"
        assumptions.append(
            f"non-torch memory {non_torch_gib:.2f} GiB {label} (pass --non-torch-gib to override)"
        )
    non_torch = int(non_torch_gib * GiB)
    graphs, subtract, sizes = _graphs(
        arch, flags, profile, model, runner, pp, seqs, n_spec, cudagraph_gib, assumptions
    )
    explain.append(
        f"CUDA graphs: {len(sizes)} capture sizes {sizes[:4]}...{sizes[-1:] if sizes else ''} -> estimate {graphs / GiB:.2f} GiB"
        + (
            " (estimate subtracted from the KV budget)"
            if subtract
            else " (not subtracted: it comes out of the 1 - utilization headroom)"
        )
    )
    return NonKV(activation, non_torch, graphs, subtract, sizes, explain, assumptions, runner, unmodelled)


def _graphs(arch, flags, profile, model, runner, pp, seqs, n_spec, cudagraph_gib, assumptions):
    sizes = _sizes(flags, seqs, n_spec, arch, profile)
    layers_per_rank = cdiv(sum(1 for k in arch.layer_kinds if k != "mlp_only"), pp)
    if model:
        subtract = bool(sizes) and model["subtract_graph_estimate"][runner]
        mib = model["graph_mib_per_layer_per_size"][runner]
    else:
        subtract = profile.subtract_cudagraph_estimate and bool(sizes)
        mib = profile.assumptions["cudagraph_mib_per_layer_per_size"]
    if cudagraph_gib is not None:
        return int(cudagraph_gib * GiB), subtract, sizes
    full_graphs = flags.optimization_level != 1  # -O1: piecewise graphs only
    graphs = int(_graph_count(sizes, seqs, n_spec, model, full_graphs) * layers_per_rank * mib * MiB)
    if sizes:
        what = "vLLM's own estimate" if subtract else "graph pool"
        assumptions.append(f"{what} taken as {mib} MiB per layer per captured size (pass --cudagraph-gib)")
    return graphs, subtract, sizes


def _graph_count(
    sizes: list[int], seqs: int, n_spec: int, model: dict | None, full_graphs: bool = True
) -> float:
    """Captured sizes, weighted: FULL_AND_PIECEWISE captures piecewise graphs at every size but full (decode) graphs
    only up to max_num_seqs x (1 + speculative tokens); `full_graph_share` (profile data) is a full graph's part of
    one size's cost. Without the share every size counts whole."""
    share = (model or {}).get("full_graph_share", 0.0)
    full = sum(1 for x in sizes if x <= seqs * (1 + n_spec)) if full_graphs else 0
    return len(sizes) * (1 - share) + full * share
