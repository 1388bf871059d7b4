"""What the scored batch fresh-87 (public: vLLM / llama.cpp in deployment stacks) taught after it was scored: each
miss's family added or widened by the class of its wording.

Each log is written in ANOTHER wording than its corpus log (numactl's and libnuma's texts, runc's older and crun's
forms, other wrap points of vLLM's startup check, a ZeroDivisionError beside vLLM's own config line), so the test checks
the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from servebox.doctor.resemblance import family_text
from servebox.doctor.signatures import load_signatures
from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # numa-memory-policy-not-permitted (fresh-87's vllm-cpu numa_migrate_pages errno 1, vllm#10556): numactl's perror
    # texts in a container without CAP_SYS_NICE (as a horovod/NGC guide and a compose README quote them)
    (
        "numa-memory-policy-not-permitted",
        "[1,0]<stderr>:+ exec numactl --physcpubind=0-7 --membind=0 -- python3 -m vllm.entrypoints.openai.api_server\n"
        "[1,0]<stderr>:set_mempolicy: Operation not permitted\n"
        "[1,0]<stderr>:setting membind: Operation not permitted\n",
    ),
    ("numa-memory-policy-not-permitted", "llama-chat-1  | mbind: Operation not permitted\n"),
    # ... and vLLM-cpu's own check (csrc/cpu/utils.cpp init_cpu_threads_env), raised through a worker's traceback
    (
        "numa-memory-policy-not-permitted",
        "(VllmWorkerProcess pid=312) ERROR 01-09 10:02:11 multiproc_worker_utils.py:233] RuntimeError: "
        "numa_migrate_pages failed. errno: 1\n",
    ),
    # path-permission-denied (fresh-87's runc 'chdir to cwd ("/workspace") ...'): older runc's escaped form inside
    # 'starting container process caused', and crun's
    (
        "path-permission-denied",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:348: starting container "
        'process caused "chdir to cwd (\\"/root\\") set in config.json failed: permission denied": unknown.\n',
    ),
    ("path-permission-denied", "Error: OCI runtime error: crun: chdir to `/workspace`: Permission denied\n"),
    # free-memory-below-utilization (fresh-87's message wrapped after 'is less'): a wrap at two other points, each
    # leaving only the head or only the tail readable on its own line (vLLM's v1/worker/utils.py request_memory)
    (
        "free-memory-below-utilization",
        "(EngineCore_DP0 pid=211) ValueError: Free memory on device cuda:0 (3.1/23.5\n"
        "GiB) on startup is less than desired GPU memory utilization (0.9, 21.15 GiB). Decrease GPU memory\n"
        "utilization or reduce GPU memory used by other processes.\n",
    ),
    (
        "free-memory-below-utilization",
        "ValueError: Free\n"
        "memory on device cuda:1 (40.02/79.19 GiB) on startup is less than desired GPU memory utilization (0.9,\n"
        "71.27 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n",
    ),
    # ... the CPU worker's check cut just after 'on startup' (v1/worker/cpu_worker.py)
    (
        "free-memory-below-utilization",
        "ValueError: Available memory on node 0 (10.20/62.70 GiB) on startup\n"
        "is less than desired CPU memory utilization (0.9, 56.43 GiB).\n",
    ),
    # no-gpu-driver-in-container (fresh-87's KServe ZeroDivisionError, no NVIDIA runtime class): the division by the
    # GPU count where the log shows that count is 0 (vLLM's config line, tensor_parallel_size taken from
    # torch.cuda.device_count())
    (
        "no-gpu-driver-in-container",
        "INFO 06-12 08:11:02 llm_engine.py:100] Initializing an LLM engine (v0.4.3) with config: "
        "model='/mnt/models', dtype=torch.float16, tensor_parallel_size=0, disable_custom_all_reduce=False\n"
        "ERROR:kserve:Failed to start model server: integer division or modulo by zero\n",
    ),
]

NEAR_MISSES = [
    # libnuma's migrate_pages refused for another reason (EINVAL: a node that does not exist) is not the capability
    ("numa-memory-policy-not-permitted", "RuntimeError: numa_migrate_pages failed. errno: 22\n"),
    ("numa-memory-policy-not-permitted", "set_mempolicy: Invalid argument\n"),
    # runc's working directory that is missing (or no directory) is no permission refusal
    (
        "path-permission-denied",
        "OCI runtime create failed: runc create failed: unable to start container process: chdir to cwd "
        '("/workspace") set in config.json failed: no such file or directory: unknown\n',
    ),
    # vLLM's informational memory line at startup and the externally-held-weights refusal are not this check
    (
        "free-memory-below-utilization",
        "INFO 06-01 10:00:00 gpu_worker.py:290] Free memory on device (70.1/79.2 GiB) on startup. Desired GPU memory "
        "utilization is (0.9, 71.3 GiB). Actual usage is 15.2 GiB for consumed memory\n",
    ),
    (
        "free-memory-below-utilization",
        "ValueError: Externally held weights on device cuda:0 (75.00/79.19 GiB) exceed the desired GPU memory "
        "utilization (0.9, 71.27 GiB). Increase GPU memory utilization or reduce GPU memory used by other processes.\n",
    ),
    # a division by zero with no GPU count in the log is no missing GPU
    (
        "no-gpu-driver-in-container",
        "ERROR:kserve:Failed to start model server: integer division or modulo by zero\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_numa_refusal_of_another_errno_is_not_named():
    """errno 22 from numa_migrate_pages is no capability refusal: no wording of the family matches it (it may still
    be offered by likeness of the words, below 0.70)."""
    result = run("RuntimeError: numa_migrate_pages failed. errno: 22\n")
    named = [d.id for d in result.diagnoses if d.confidence_kind != "resemblance"]
    assert "numa-memory-policy-not-permitted" not in named


def test_numa_refusal_hides_the_generic_eperm():
    result = run("set_mempolicy: Operation not permitted\n")
    assert top_cause(result).id == "numa-memory-policy-not-permitted"
    assert "operation-not-permitted" not in [d.id for d in result.diagnoses]


def test_zero_division_without_a_gpu_count_is_not_a_missing_gpu():
    """The division alone says nothing of GPUs (fresh-87's one-line KServe log stays a known miss)."""
    logs = [
        "ERROR:kserve:Failed to start model server: integer division or modulo by zero\n",
        "ZeroDivisionError: division by zero\n",
    ]
    for log in logs:
        assert "no-gpu-driver-in-container" not in [d.id for d in run(log).diagnoses]


def test_runc_missing_working_directory_is_not_a_permission_refusal():
    log = (
        "OCI runtime create failed: runc create failed: unable to start container process: chdir to cwd "
        '("/workspace") set in config.json failed: no such file or directory: unknown\n'
    )
    assert "path-permission-denied" not in [d.id for d in run(log).diagnoses]


def test_external_weights_refusal_is_not_the_startup_check():
    log = (
        "ValueError: Externally held weights on device cuda:0 (75.00/79.19 GiB) exceed the desired GPU memory "
        "utilization (0.9, 71.27 GiB). Increase GPU memory utilization or reduce GPU memory used by other processes.\n"
    )
    assert "free-memory-below-utilization" not in [d.id for d in run(log).diagnoses]


def test_a_hint_that_needs_its_context_lends_no_words_to_resemblance():
    """resemblance.family_text leaves out a hint with hint_requires: likeness to a bare division by zero must not
    offer no-gpu-driver-in-container (its hint counts only beside a GPU count of 0)."""
    sig = next(s for s in load_signatures() if s.id == "no-gpu-driver-in-container")
    assert sig.hint_requires
    assert "modulo" not in family_text(sig)
