"""A new user's walk, literally: the servebox invocations of the README's first command, parsed from
README.md and run as written (from the repository root, as the README assumes), and the deployment's
spec (servebox/examples/digest-2xv100.toml) from `render` to the install steps it prints.

The README's venv and pip steps are not re-run: the test runs under the venv the suite was installed
into, which is what those steps build."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO / "servebox" / "examples" / "digest-2xv100.toml"


def first_command() -> str:
    block = re.search(r"```bash\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    assert block, "README.md has no ```bash block"
    return next(line for line in block.group(1).splitlines() if line.strip() and not line.startswith("#"))


def servebox_invocations(command: str) -> list[list[str]]:
    calls = []
    for part in command.split("&&"):
        argv = shlex.split(part)
        if argv and Path(argv[0]).name == "servebox":
            calls.append(argv[1:])
    return calls


def run(args: list[str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}  # as piped from a shell
    return subprocess.run(
        [sys.executable, "-m", "servebox.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def test_the_readme_first_command_runs_as_written():
    calls = servebox_invocations(first_command())
    assert len(calls) >= 2, calls  # inspect, then plan
    for args in calls:
        proc = run(args)
        assert proc.returncode == 0, (
            f"servebox {shlex.join(args)} -> {proc.returncode}\n{proc.stderr[-2000:]}"
        )
        assert proc.stdout.strip() and "Traceback" not in proc.stderr
        if args[0] == "plan":  # what vLLM will log, as the verbs table promises
            assert (
                "Model loading took" in proc.stdout and "Maximum concurrency for 8,192 tokens" in proc.stdout
            )
        if args[0] == "inspect":
            assert "Qwen3_5" in proc.stdout or "qwen3" in proc.stdout.lower()
        assert not re.search(r"\w…$", proc.stdout, re.M)  # nothing cut short at 80 columns when piped
    wide = run(calls[0])
    assert max(len(line) for line in wide.stdout.splitlines()) > 80  # tables use the width, not 80


def test_the_readme_shows_every_verb_exists():
    """Each verb in the README's table answers --help (the table is what the user reads first)."""
    verbs = re.findall(r"^\| `servebox ([a-z-]+)", (REPO / "README.md").read_text(), re.M)
    assert {"inspect", "plan", "check", "render", "provision", "bench"} <= set(verbs)
    assert run(["--version"]).stdout.startswith("servebox ")
    # typer detects the shell from the process tree (shellingham): asked from bash, as a user types it (a test
    # runner started outside any shell, e.g. by setsid, has no shell ancestor and typer answers "Shell  not supported")
    line = f"{shlex.quote(sys.executable)} -m servebox.cli --show-completion; exit $?"
    completion = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert completion.returncode == 0 and "_servebox_completion" in completion.stdout, completion.stderr


def test_piped_output_takes_the_width_it_is_given():
    args = ["plan", "tests/fixtures/checkpoints/llama-3.1-8b-instruct", "--gpu", "h100-80gb", "--explain"]
    env = {**os.environ, "COLUMNS": "100"}
    narrow = subprocess.run(
        [sys.executable, "-m", "servebox.cli", *args], cwd=REPO, capture_output=True, text=True, env=env
    )
    lines = narrow.stdout.splitlines()
    assert max(len(x) for x in lines) <= 100 and max(len(x) for x in run(args).stdout.splitlines()) > 100


def test_the_deployment_spec_from_render_to_install_steps(tmp_path):
    out = tmp_path / "rendered"
    proc = run(["render", str(SPEC), "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    units = sorted(p.name for p in (out / "systemd").glob("*.service"))
    assert units == ["servebox-qwen38-nvfp4.service", "servebox-router.service"]
    engine = (out / "systemd" / "servebox-qwen38-nvfp4.service").read_text()
    assert "ExecStart=/var/lib/vllm/venv/bin/python -m vllm.entrypoints.openai.api_server" in engine
    assert "--tensor-parallel-size 2 --max-model-len 168340" in engine
    assert "EnvironmentFile=-/etc/servebox/env/servebox-qwen38-nvfp4.env" in engine
    assert (out / "env" / "servebox-qwen38-nvfp4.env").is_file() and (out / "llama-swap.yaml").is_file()
    users = set(re.findall(r"^User=(\S+)", engine, re.M))
    steps = proc.stdout
    for unit in units:
        assert unit in steps and "/etc/systemd/system" in steps
    assert "systemctl daemon-reload" in steps and "enable --now" in steps
    assert "/etc/servebox" in steps  # where the env files and the router config go
    sysusers = list(out.rglob("*.conf"))  # the sysusers.d entry for each service user
    declared = {
        line.split()[1] for f in sysusers for line in f.read_text().splitlines() if line.startswith("u ")
    }
    assert users <= declared, (users, declared)
