"""What after34l learnt in stop 34 after scoring fresh-185 (vLLM's parallelism and process layout on the CPU): each
family tested on another wording than the batch log's (vLLM's or torch's own source, another version, another value),
and on a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CORE = "(EngineCore_DP0 pid=811) ERROR 03-02 10:11:12 [core.py:708] "
LAUNCHER = "INFO 03-02 10:11:02 [__init__.py:93] Using external launcher for distributed inference.\n"
# distributed/utils.py get_pp_indices (0.6 on): the partition it chose, one figure per stage
SPLIT = (
    "(Worker_PP{r} pid=90) INFO 03-02 10:11:20 [utils.py:159] Hidden layers were unevenly partitioned: {split}. "
    "This can be manually overridden using the VLLM_PP_LAYER_PARTITION environment variable\n"
)
ZERO = CORE + "ZeroDivisionError: integer division or modulo by zero\n"

CASES = [
    # torch/distributed/rendezvous.py _env_error, the env:// rendezvous of an external_launcher script run with python
    # instead of torchrun (vLLM's tests/distributed/test_torchrun_example.py outside torchrun)
    (
        "external-launcher-without-torchrun",
        LAUNCHER
        + "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
        "RANK expected, but not set\n",
    ),
    # uniproc_executor.py _distributed_args with RANK set by hand but not LOCAL_RANK
    ("external-launcher-without-torchrun", LAUNCHER + CORE + "KeyError: 'LOCAL_RANK'\n"),
    # gloo's tcp/device.cc from an older torch build (relative third_party path, another line), GLOO_SOCKET_IFNAME=eth1
    (
        "gloo-socket-ifname-missing",
        "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. "
        "Unable to find address for: eth1\n",
    ),
    # 0.32's ompmultiprocessing.py with three lists for a local world of 4 (TP 2 x PP 2)
    (
        "cpu-omp-bind-list-count-mismatch",
        CORE
        + "AssertionError: Given number of CPU id list ['0-7', '8-15', '16-23'] doesn't match local world size 4.\n",
    ),
    # vLLM 0.5-0.11's cpu_worker.py init_device: the list indexed by rank, a traceback then IndexError
    (
        "cpu-omp-bind-list-count-mismatch",
        '  File "/usr/lib/python3/site-packages/vllm/v1/worker/cpu_worker.py", line 64, in init_device\n'
        '    self.local_omp_cpuid = omp_cpuids.split("|")[self.rank]\n'
        "IndexError: list index out of range\n",
    ),
    # worker_base.py's assert on the GPU worker, an RLHF extension that defines its own init_device
    (
        "worker-extension-attribute-conflict",
        "AssertionError: Worker class <class 'vllm.v1.worker.gpu_worker.Worker'> already has an attribute "
        "init_device, which conflicts with the worker extension class <class 'rlhf_utils.WorkerExtension'>.\n",
    ),
    # PP 3 over 2 layers: an empty last stage, then the KV-cache sizing's division
    ("pp-not-dividing-layers", SPLIT.format(r=0, split="[1,1,0]") + ZERO),
    # the V0-era wording still stands
    (
        "pp-not-dividing-layers",
        "ValueError: Total number of hidden layers (30) must be divisible by pipeline parallel size (4).\n",
    ),
]

NEAR_MISSES = [
    # KeyError 'RANK' of another program, no external_launcher in view
    ("external-launcher-without-torchrun", "Traceback (most recent call last):\nKeyError: 'RANK'\n"),
    # an uneven split with every stage holding layers, then a division by zero elsewhere
    ("pp-not-dividing-layers", SPLIT.format(r=0, split="[10,11,11]") + ZERO),
    # a ZeroDivisionError with no pipeline split at all
    ("pp-not-dividing-layers", ZERO),
    # NCCL's own interface variable is nccl-socket-ifname's, not Gloo's
    ("gloo-socket-ifname-missing", "NCCL WARN Bootstrap : no socket interface found\n"),
    # the automatic binding's NUMA check is another family
    (
        "cpu-omp-bind-list-count-mismatch",
        "AssertionError: Not enough allowed NUMA nodes to bind threads of 2 local CPUWorkers. Allowed NUMA nodes are [0].\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_uneven_split_without_an_empty_stage_is_no_failure():
    top = top_cause(run(SPLIT.format(r=1, split="[10,11,11]")))
    assert top is None
