"""One engine process: started in its own process group with its log in a file, its start-up phase
read from that log, its readiness from /health, stopped (and frozen children woken) by group.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from servebox.deploy.spec import Model
from servebox.deploy.systemd import engine_argv

# Start-up phases in the order vLLM and llama.cpp log them: (phase, pattern).
PHASES = [
    (
        "importing",
        re.compile(r"vLLM API server version|Automatically detected platform|llama server listening|build:"),
    ),
    (
        "loading weights",
        re.compile(
            r"Loading weights|Loading safetensors|Starting to load model|llama_model_load|load_tensors"
        ),
    ),
    ("profiling", re.compile(r"Model loading took|memory profiling|Memory profiling")),
    ("compiling", re.compile(r"torch\.compile|Compiling a graph|Dynamo bytecode transform")),
    ("kv cache", re.compile(r"Available KV cache memory|KV cache size|llama_kv_cache")),
    ("graph capture", re.compile(r"Capturing CUDA graph|Graph capturing")),
    (
        "ready",
        re.compile(
            r"Application startup complete|Starting vLLM API server|server is listening|main: server is listening"
        ),
    ),
]


def read_phase(log: Path) -> str:
    try:
        with log.open("rb") as handle:
            handle.seek(max(0, log.stat().st_size - 256 * 1024))
            tail = handle.read().decode("utf-8", "replace")
    except OSError:
        return "starting"
    phase = "starting"
    for name, pattern in PHASES:
        if pattern.search(tail):
            phase = name
    return phase


def children(pid: int) -> list[int]:
    """Every descendant of PID (from /proc: no extra dependency)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def process_title(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


@dataclass
class EngineProcess:
    model: Model
    log_path: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    starts: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.model.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        log.write(f"\n==== servebox: starting {self.model.name} (start {self.starts + 1}) ====\n".encode())
        log.flush()
        env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            **self.model.env,
            **self.extra_env,
        }
        self.proc = subprocess.Popen(
            engine_argv(self.model),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        log.close()
        self.started_at = time.monotonic()
        self.starts += 1

    def healthy(self, timeout_s: float = 3.0) -> bool:
        try:
            return httpx.get(f"{self.base_url}/health", timeout=timeout_s).status_code == 200
        except httpx.HTTPError:
            return False

    def wait_ready(self, timeout_s: float, on_phase=None, interval_s: float = 1.0) -> bool:
        deadline = time.monotonic() + timeout_s
        last = None
        while time.monotonic() < deadline:
            if not self.alive():
                return False
            phase = read_phase(self.log_path)
            if phase != last and on_phase:
                on_phase(phase)
                last = phase
            if self.healthy():
                if on_phase:
                    on_phase("ready")
                return True
            time.sleep(interval_s)
        return False

    def stop(self, grace_s: float = 20.0) -> None:
        """SIGCONT then SIGTERM to the whole group (a SIGSTOPped engine core cannot exit otherwise), then SIGKILL."""
        if self.proc is None:
            return
        pgid = self.proc.pid
        for sig in (signal.SIGCONT, signal.SIGTERM):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                break
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def engine_core_pid(self) -> int | None:
        """The vLLM engine-core child (its process title says EngineCore), where a real hang lives."""
        if not self.alive():
            return None
        for pid in children(self.proc.pid):
            if "EngineCore" in process_title(pid):
                return pid
        return None

    def log_tail(self, lines: int = 200) -> str:
        try:
            with self.log_path.open("rb") as handle:
                handle.seek(max(0, self.log_path.stat().st_size - 512 * 1024))
                return "\n".join(handle.read().decode("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return ""
