"""The fit questions, answered from the plan before any download: the largest context that fits, the -ngl
and --n-cpu-moe that fit a given context, and what llama-server's --fit would settle on.

--fit (common/fit.cpp) first keeps everything and checks each device against its target margin; if it does
not fit and -c was not given it shrinks the context towards --fit-ctx (4096); if that is not enough and
-ngl was not given it moves layers (dense) or expert tensors (MoE) to the CPU. This module follows the same
order on the planned figures; it is servebox's reading of that code, not llama.cpp's own search (which
refines per device and per tensor), so the flags it prints are the ones to pass, checked against the plan.
"""

from __future__ import annotations

from pydantic import BaseModel

from servebox.engines.llamacpp.flags import EXPS_REGEX, Override, ServerFlags
from servebox.engines.llamacpp.planner import Evaluation, Problem, evaluate, fits


class FitAnswer(BaseModel):
    fits: bool
    ctx_size: int | None = None
    n_gpu_layers: int | None = None
    n_cpu_moe: int | None = None
    flags: list[str] = []
    steps: list[str] = []


def _with(flags: ServerFlags, **changes) -> ServerFlags:
    return flags.model_copy(update=changes)


def _cpu_moe(flags: ServerFlags, n: int) -> ServerFlags:
    extra = [Override(pattern=rf"blk\.{i}{EXPS_REGEX}", buffer="CPU") for i in range(n)]
    return _with(flags, overrides=list(flags.overrides) + extra)


def _ok(problem: Problem, flags: ServerFlags, n_ctx: int | None = None) -> tuple[bool, Evaluation]:
    ev = evaluate(problem, flags, n_ctx)
    return fits(problem, flags, ev), ev


def largest_context(problem: Problem, flags: ServerFlags, ceiling: int | None = None) -> int | None:
    """The largest -c (a multiple of 256 per stream) that fits with these flags, up to the trained length."""
    step = 256 * (1 if flags.unified else flags.n_seq)
    top = (ceiling or problem.layout.n_ctx_train) // step
    if top < 1 or not _ok(problem, flags, step)[0]:
        return None
    lo, hi = 1, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _ok(problem, flags, mid * step)[0]:
            lo = mid
        else:
            hi = mid - 1
    return lo * step


def layers_that_fit(problem: Problem, flags: ServerFlags, n_ctx: int | None = None) -> int | None:
    """The largest -ngl (the output layer counts as one) that fits at this context; None if not even 0."""
    top = problem.layout.n_layer_all + 1
    if not _ok(problem, _with(flags, n_gpu_layers=0), n_ctx)[0]:
        return None
    lo, hi = 0, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _ok(problem, _with(flags, n_gpu_layers=mid), n_ctx)[0]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def cpu_moe_that_fits(problem: Problem, flags: ServerFlags, n_ctx: int | None = None) -> int | None:
    """The smallest --n-cpu-moe with every layer on the GPUs that fits; None for a dense model or no fit."""
    if not problem.layout.n_expert:
        return None
    full = _with(flags, n_gpu_layers=-1)
    n = problem.layout.n_layer_all
    if not _ok(problem, _cpu_moe(full, n), n_ctx)[0]:
        return None
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if _ok(problem, _cpu_moe(full, mid), n_ctx)[0]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def emulate_fit(problem: Problem, flags: ServerFlags) -> FitAnswer:
    """What --fit would change, in its order: nothing, then the context, then layers or experts."""
    if not problem.gpu_bytes:
        return FitAnswer(fits=_ok(problem, flags)[0], steps=["no GPU: --fit only checks host memory"])
    if _ok(problem, flags)[0]:
        return FitAnswer(fits=True, steps=["fits as given: --fit changes nothing"])
    ans = FitAnswer(fits=False)
    ctx = None
    if not flags.ctx_given:
        floor = min(flags.fit_ctx, problem.layout.n_ctx_train)
        ctx = _interpolated_context(problem, flags, floor)
        if ctx is not None and _ok(problem, flags, ctx)[0]:
            ans.steps.append(f"context reduced from {problem.layout.n_ctx_train} to {ctx}")
            return _done(ans, ctx=ctx)
        ctx = ctx or floor
        ans.steps.append(f"context reduced to {ctx}; not enough alone on every device")
    if flags.ngl_given:
        ans.steps.append("-ngl was given: --fit does not move layers; it does not fit")
        return ans
    moe = cpu_moe_that_fits(problem, flags, ctx)
    if moe is not None:
        ans.steps.append(f"expert tensors of the first {moe} layers moved to the CPU")
        return _done(ans, ctx=ctx, moe=moe)
    ngl = layers_that_fit(problem, flags, ctx)
    if ngl is None:
        ans.steps.append("even with no layer on a GPU it does not fit")
        return ans
    ans.steps.append(f"{ngl} of {problem.layout.n_layer_all + 1} layers kept on the GPUs")
    return _done(ans, ctx=ctx, ngl=ngl)


def _interpolated_context(problem: Problem, flags: ServerFlags, floor: int) -> int | None:
    """common/fit.cpp's step 2: interpolate linearly between the projected use at --fit-ctx and at the
    full context towards the summed free-memory targets, round down to 256 x streams; None if the floor
    itself does not meet them. With several GPUs it keeps back (GPUs + 1) x half a layer (a sixth for MoE)."""
    top = problem.layout.n_ctx_train
    used = {n: sum(d.total for d in evaluate(problem, flags, n).gpu_rows()) for n in (floor, top)}
    target = sum(problem.budgets(flags))
    n_gpu = len(problem.gpu_bytes)
    if n_gpu > 1:
        ev = evaluate(problem, flags, floor)
        per_layer = sum(d.model for d in ev.gpu_rows()) // max(1, problem.layout.n_layer_all)
        target -= (n_gpu + 1) * per_layer // (6 if problem.layout.n_expert else 2)
    if top <= floor or target <= used[floor]:
        return None
    n_ctx = floor + (top - floor) * (target - used[floor]) // max(1, used[top] - used[floor])
    align = 256 * (1 if flags.unified else flags.n_seq)
    return max(n_ctx - n_ctx % align, floor)


def _done(
    ans: FitAnswer, ctx: int | None = None, ngl: int | None = None, moe: int | None = None
) -> FitAnswer:
    ans.fits, ans.ctx_size, ans.n_gpu_layers, ans.n_cpu_moe = True, ctx, ngl, moe
    if ctx is not None:
        ans.flags += ["-c", str(ctx)]
    if ngl is not None:
        ans.flags += ["-ngl", str(ngl)]
    if moe is not None:
        ans.flags += ["--n-cpu-moe", str(moe)]
    return ans
