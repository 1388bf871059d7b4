"""What after34s learnt in stop 34 after scoring fresh-194 (vLLM's parallelism and process layout on the CPU, a third
round): each family tested on another wording than the batch log's (another vLLM version's source, another device) and on a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

WORKER = "(Worker pid=27382) ERROR 12-05 07:40:41 [multiproc_executor.py:953] "
# api_utils.py's echo of the flags given (0.32), and a shell's command line (any version)
ARGS_GPU_WORKER = (
    "(APIServer pid=27156) INFO 12-05 07:40:23 [api_utils.py:286] non-default args: {'model': '/models/tiny', "
    "'worker_cls': 'vllm.v1.worker.gpu_worker.Worker'}\n"
)
CMD_GPU_WORKER = "$ vllm serve /models/tiny --worker-cls vllm.v1.worker.gpu_worker.Worker\n"
GPU_FRAME = (
    WORKER
    + '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_worker.py", line 221, in init_device\n'
)

CASES = [
    # vLLM 0.9-0.11 config/parallel.py: the EPLB refusal naming CUDA alone (fresh-194's log had 0.32's
    # 'CUDA devices or ROCm devices or XPU devices now.'): the platform is the cause, not the flags' fit
    (
        "feature-needs-other-platform",
        "ValueError: Expert parallelism load balancing is only supported on CUDA devices now.\n",
    ),
    # 0.32 as pydantic's reason line on an XPU-less ROCm-less box, another header
    (
        "feature-needs-other-platform",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n"
        "  Value error, Expert parallelism load balancing is only supported on CUDA devices or ROCm devices now. "
        "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n",
    ),
    # vLLM 0.8-0.11 v1/worker/gpu_worker.py init_device's older wording, --worker-cls on a shell's command line
    (
        "feature-needs-other-platform",
        CMD_GPU_WORKER + GPU_FRAME + WORKER + "RuntimeError: Not support device type: cpu\n",
    ),
    # 0.32's wording echoed by api_utils.py's flags, on an XPU box (the GPU worker's check names the device it met)
    (
        "feature-needs-other-platform",
        ARGS_GPU_WORKER + GPU_FRAME + WORKER + "RuntimeError: Unsupported device type: xpu\n",
    ),
]

NEAR_MISSES = [
    # the same words with no worker class chosen by hand: a detection or install problem, not a foreign worker
    ("feature-needs-other-platform", GPU_FRAME + WORKER + "RuntimeError: Unsupported device type: cpu\n"),
    # a worker class option naming a user's own class (no platform's worker module)
    (
        "feature-needs-other-platform",
        "$ vllm serve /models/tiny --worker-cls my_pkg.MyWorker\nRuntimeError: Unsupported device type: cpu\n",
    ),
    # an EPLB refusal that names no platform stays the flags' family
    ("feature-needs-other-platform", "ValueError: Async EPLB is only supported with the default policy.\n"),
    ("feature-needs-other-platform", "ValueError: enable_expert_parallel must be True to use EPLB.\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
