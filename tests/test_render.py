"""servebox render: units verified by systemd's own tools, argv read back through systemd's parser,
the router config parsed back and validated, atomic output."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import yaml

from servebox.deploy.llamaswap import LlamaSwapConfig
from servebox.deploy.render import render_files, write_output
from servebox.deploy.spec import load_spec
from servebox.deploy.systemd import systemd_unquote_runtime
from servebox.deploy.verify import check_units, parsed_exec_start

EXAMPLE = Path(__file__).resolve().parent.parent / "servebox" / "examples" / "digest-2xv100.toml"
needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed"
)


def local_spec(tmp_path: Path) -> Path:
    """The digest's spec with binaries that exist on this machine, so verify judges the units, not the host."""
    venv = Path(sys.executable).parent.parent
    text = EXAMPLE.read_text().replace('venv = "/var/lib/vllm/venv"', f'venv = "{venv}"')
    text = text.replace('binary = "/usr/local/bin/llama-swap"', 'binary = "/bin/true"').replace(
        'binary = "/usr/local/bin/llama-server"', 'binary = "/bin/true"'
    )
    path = tmp_path / "spec.toml"
    path.write_text(text)
    return path


def test_render_writes_every_artifact(run_cli, tmp_path):
    r = run_cli("render", EXAMPLE, "--out", tmp_path / "out", "--json")
    assert r.code == 0
    files = set(r.json()["files"])
    assert files == {
        "env/servebox-qwen38-nvfp4.env",
        "llama-swap.yaml",
        "systemd/servebox-qwen38-nvfp4.service",
        "systemd/servebox-router.service",
        "sysusers.d/servebox.conf",
    }


def test_engine_unit_properties(tmp_path):
    files = render_files(load_spec(EXAMPLE))
    unit = files["systemd/servebox-qwen38-nvfp4.service"]
    lines = unit.splitlines()
    assert sum(line.startswith("ExecStart=") for line in lines) == 1
    assert "MemoryDenyWriteExecute" not in "\n".join(line for line in lines if not line.startswith("#"))
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK" in lines
    assert "LimitMEMLOCK=infinity" in lines and "MemoryMax=16G" in lines
    assert "StateDirectory=servebox/qwen38-nvfp4" in lines
    assert "Environment=TRITON_CACHE_DIR=/var/lib/servebox/qwen38-nvfp4/cache/triton" in lines
    assert int(next(line for line in lines if line.startswith("TimeoutStartSec="))[16:]) >= 360
    assert {"DeviceAllow=/dev/nvidia0 rw", "DeviceAllow=/dev/nvidia1 rw", "DevicePolicy=closed"} <= set(lines)
    router = files["systemd/servebox-router.service"].splitlines()
    assert (
        "MemoryDenyWriteExecute=yes" in router
        and "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in router
    )
    env = files["env/servebox-qwen38-nvfp4.env"]
    assert (
        'TRITON_LIBCUDA_PATH="/run/opengl-driver/lib"' in env
        and 'NVCC_PREPEND_FLAGS="-I/opt/cuda-12.8/include"' in env
    )


def test_router_config_parses_back_and_matches_the_schema():
    config = yaml.safe_load(render_files(load_spec(EXAMPLE))["llama-swap.yaml"])
    LlamaSwapConfig.model_validate(config)  # extra keys or wrong types raise
    vllm = config["models"]["qwen38-nvfp4"]
    assert (
        vllm["proxy"] == "http://127.0.0.1:5810"
        and vllm["checkEndpoint"] == "/health"
        and vllm["cmd"] == "/bin/sleep infinity"
    )
    assert config["healthCheckTimeout"] >= 360
    assert config["groups"]["gpu-llm"]["members"] == ["qwen38-nvfp4", "gemma3-12b-q4"]
    llama = config["models"]["gemma3-12b-q4"]
    assert llama["cmd"].startswith("/usr/local/bin/llama-server -m ") and llama["ttl"] == 600


@needs_systemd
def test_units_pass_systemd_analyze_and_exposure_targets(tmp_path):
    out = tmp_path / "out"
    write_output(render_files(load_spec(local_spec(tmp_path))), out)
    verdicts = {v.unit: v for v in check_units(out / "systemd")}
    engine, router = verdicts["servebox-qwen38-nvfp4.service"], verdicts["servebox-router.service"]
    assert engine.verify_rc == 0 and not engine.missing_here, engine.verify_output
    assert router.verify_rc == 0, router.verify_output
    assert engine.exposure is not None and engine.exposure <= 4.0
    assert router.exposure is not None and router.exposure <= 2.5


@needs_systemd
def test_verify_catches_a_broken_setting(tmp_path):
    out = tmp_path / "out"
    write_output(render_files(load_spec(local_spec(tmp_path))), out)
    unit = out / "systemd" / "servebox-router.service"
    unit.write_text(unit.read_text().replace("DeviceAllow=/dev/nvidia0 rw", "DeviceAllow=/dev/nvidia0 rwz"))
    verdict = next(v for v in check_units(out / "systemd") if v.unit == "servebox-router.service")
    assert verdict.verify_rc != 0 and "Invalid device rights" in verdict.verify_output


@needs_systemd
def test_json_and_special_characters_reach_the_engine_through_systemd(tmp_path):
    out = tmp_path / "out"
    spec = load_spec(local_spec(tmp_path))
    spec.models[0].flags["override-generation-config"] = {"stop": ["50% off", "$HOME", "a\\b", 'quote"d']}
    write_output(render_files(spec), out)
    argv = parsed_exec_start(out / "systemd" / "servebox-qwen38-nvfp4.service")
    received = [systemd_unquote_runtime(a) for a in argv]
    i = received.index("--default-chat-template-kwargs")
    assert received[i + 1] == '{"enable_thinking": true}'
    j = received.index("--override-generation-config")
    assert received[j + 1] == '{"stop": ["50% off", "$HOME", "a\\\\b", "quote\\"d"]}'


def test_bad_spec_names_the_key(run_cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text().replace("cold_start_s = 360", "cold_start_s = 360\nscript = 'oops'"))
    r = run_cli("render", bad, "--out", tmp_path / "out")
    assert r.code == 2 and "models[qwen38-nvfp4].script" in r.err and len(r.err.strip().splitlines()) == 1
    bad.write_text("[[models]]\nname = 'x'\ncheckpoint = '/m'\nport = 80\n")
    r = run_cli("render", bad, "--out", tmp_path / "out")
    assert r.code == 2 and "port" in r.err
    bad.write_text("[[models]\n")
    assert run_cli("render", bad, "--out", tmp_path / "out").code == 2
    assert not (tmp_path / "out").exists()  # nothing half-written


def test_render_error_leaves_the_old_output_untouched(run_cli, tmp_path):
    out = tmp_path / "out"
    assert run_cli("render", EXAMPLE, "--out", out).code == 0
    before = {p.name: p.read_text() for p in out.rglob("*") if p.is_file()}
    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text().replace("health_check_timeout_s = 900", "health_check_timeout_s = 60"))
    r = run_cli("render", bad, "--out", out)
    assert r.code == 2 and "cold start" in r.err
    assert {p.name: p.read_text() for p in out.rglob("*") if p.is_file()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]


@needs_systemd
def test_render_check_prints_systemd_analyzes_reason(tmp_path, capsys):
    # expected, written first: a unit verify fails is shown with verify's own line, not only 'verify rc 1'
    from servebox.cli import render as render_cli

    out = tmp_path / "out"
    write_output(render_files(load_spec(local_spec(tmp_path))), out)
    unit = out / "systemd" / "servebox-router.service"
    unit.write_text(unit.read_text().replace("DeviceAllow=/dev/nvidia0 rw", "DeviceAllow=/dev/nvidia0 rwz"))
    verdicts = [v.__dict__ for v in check_units(out / "systemd")]
    render_cli._show({"files": [], "install": [], "units": verdicts}, out)
    shown = capsys.readouterr().out
    assert "servebox-router.service: verify rc 1" in shown and "Invalid device rights" in shown
    ok = next(v for v in verdicts if v["unit"] != "servebox-router.service")
    assert ok["verify_rc"] == 0 and ok["reasons"] == []


@needs_systemd
def test_render_check_names_the_engine_binary_the_router_starts(run_cli, tmp_path):
    # expected, written first (fresh-325 draw 5): a llama.cpp model the router starts itself (no unit of its own) runs
    # the `binary` from llama-swap.yaml's cmd; render --check listed only llama-swap as absent and passed that
    # llama-server silently. It is named beside the router's own binary, still not a failure (another host may have it)
    spec = tmp_path / "spec.toml"
    absent = tmp_path / "llama.cpp" / "build" / "bin" / "llama-server"
    spec.write_text(
        '[host]\nname = "gpu1"\ngpus = ["l4-24gb"]\n\n[router]\nlisten = "127.0.0.1:8080"\n\n'
        f'[[models]]\nname = "tiny"\nengine = "llama.cpp"\ncheckpoint = "{tmp_path}/tiny.gguf"\nport = 8002\n'
        f'binary = "{absent}"\n'
    )
    r = run_cli("render", spec, "--out", tmp_path / "out", "--check")
    assert r.code == 0, r.err
    line = next(ln for ln in r.out.splitlines() if "not on this machine" in ln)
    assert str(absent) in line
    r = run_cli("render", spec, "--out", tmp_path / "out2", "--check", "--json")
    router = next(
        u for u in __import__("json").loads(r.out)["units"] if u["unit"] == "servebox-router.service"
    )
    assert str(absent) in router["missing_here"] and router["verify_rc"] == 0
