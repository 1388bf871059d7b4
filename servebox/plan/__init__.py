"""`servebox plan`: what vLLM will print at startup, per rank, before anyone waits for a cold start.

vLLM (v1/worker/gpu_worker.py determine_available_memory) requests ceil(total * utilization) and gives the
KV cache what is left after the weights ('Model loading took'), the profile run's peak activation, the
memory outside torch that appeared since start-up, and, from v0.21, its CUDA-graph estimate. The KV layout
turns that into blocks, tokens and concurrency. make_plan (plan/make.py) takes those steps in order; each
figure says whether it is derived, given, calibrated or assumed, and the first line whether the engine
profile was ever calibrated for this start-up.
"""

from servebox.plan.kv import derived_max_len
from servebox.plan.labels import calibration_status, check_requirements, compare_with_log, quant_path
from servebox.plan.make import MTP_METHODS, make_plan
from servebox.plan.model import Plan

__all__ = [
    "MTP_METHODS",
    "Plan",
    "calibration_status",
    "check_requirements",
    "compare_with_log",
    "derived_max_len",
    "make_plan",
    "quant_path",
]
