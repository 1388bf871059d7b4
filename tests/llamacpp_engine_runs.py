"""Start the real llama-server on the tiny GGUFs with several flag sets, read the buffers it prints, and
compare them with servebox's plan. Shared by tests/test_llamacpp_plan_engine.py and
benchmarks/llamacpp_plan_accuracy.py.

Each case is (architecture, flags). Held-back cases (HELD_BACK) were not looked at while the compute
estimate was calibrated; the benchmark reports them separately.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from servebox.engines.llamacpp.flags import parse_server_args
from servebox.engines.llamacpp.logs import StartupBuffers, read_startup_buffers
from servebox.engines.llamacpp.plan import LlamaPlan, plan_gguf
from tests.llamacpp_tiny_gguf import SHAPES, write

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / ".llama-cpp" / "bin" / "llama-server"

CASES: list[tuple[str, list[str]]] = [
    ("llama", ["-c", "4096", "-np", "1"]),
    ("llama", ["-c", "8192", "-np", "4", "-ctk", "q8_0", "-ctv", "q8_0", "-fa", "on"]),
    ("llama", ["-c", "3000", "-np", "2", "-kvu", "-fa", "off", "-ub", "256"]),
    ("qwen2", ["-c", "4096", "-np", "1", "-fa", "off"]),
    ("qwen2", ["-c", "6000", "-np", "3", "-ctk", "q4_0", "-ctv", "q8_0", "-fa", "on"]),
    ("qwen2", ["-c", "2048", "-lm", "none", "-b", "1024", "-ub", "128"]),
    ("qwen3", ["-c", "4096", "-np", "1"]),
    ("qwen3", ["-c", "8192", "-np", "2", "-fa", "off"]),
    ("qwen3", ["-c", "4096", "-np", "4", "-kvu", "-ctk", "q8_0"]),
    ("qwen3moe", ["-c", "4096", "-np", "1"]),
    ("qwen3moe", ["-c", "8192", "-np", "2", "-fa", "off", "-ub", "256"]),
    ("qwen3moe", ["-c", "2048", "-np", "1", "-ctk", "bf16", "-ctv", "bf16", "-lm", "none"]),
    ("gemma3", ["-c", "4096", "-np", "1"]),
    ("gemma3", ["-c", "8192", "-np", "2", "-fa", "off"]),
    ("gemma3", ["-c", "4096", "-np", "1", "--swa-full", "-ub", "256"]),
    ("qwen35", ["-c", "4096", "-np", "1"]),
    ("qwen35", ["-c", "8192", "-np", "4", "-fa", "off"]),
    ("qwen35", ["-c", "2048", "-np", "2", "-kvu", "-ctk", "q8_0", "-ctv", "q8_0"]),
    ("llama-q8_0", ["-c", "4096", "-np", "1"]),
    ("qwen3moe-q8_0", ["-c", "4096", "-np", "2", "-lm", "none"]),
    ("llama-q4_0", ["-c", "4096", "-np", "1"]),  # Q4_0 matrices go to the CPU_REPACK buffer
    ("llama-q4_0", ["-c", "4096", "-np", "1", "-lm", "none"]),
    ("qwen3moe-q4_0", ["-c", "4096", "-np", "1"]),
    ("qwen3moe-q4_0", ["-c", "4096", "-np", "1", "--no-repack"]),
    ("qwen3-split", ["-c", "4096", "-np", "1"]),
]
HELD_BACK: list[tuple[str, list[str]]] = [
    ("llama", ["-c", "6144", "-np", "3", "-fa", "on", "-ub", "384"]),
    ("qwen3", ["-c", "5000", "-np", "1", "-fa", "off", "-ub", "64"]),
    ("qwen3moe", ["-c", "4096", "-np", "4", "-kvu", "-ctv", "q8_0"]),
    ("gemma3", ["-c", "6000", "-np", "3", "-kvu", "-fa", "on"]),
    ("qwen35", ["-c", "3072", "-np", "1", "-fa", "off", "-ub", "128"]),
]


@dataclass
class Comparison:
    arch: str
    flags: list[str]
    figure: str
    predicted_mib: float
    reported_mib: float
    tolerance: float  # relative; 0 means exact at the log's two decimals
    parts: int = 1  # how many rounded log lines were summed into reported_mib

    @property
    def error(self) -> float:
        if self.reported_mib == 0:
            return 0.0 if self.predicted_mib == 0 else 1.0
        return (self.predicted_mib - self.reported_mib) / self.reported_mib

    @property
    def ok(self) -> bool:
        if self.tolerance == 0:
            return (
                abs(self.predicted_mib - self.reported_mib) <= 0.006 * self.parts
            )  # each line rounds to 0.01 MiB
        return abs(self.error) <= self.tolerance


def make_models(directory: Path) -> dict[str, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    out = {}
    for name in [*SHAPES, "llama-q8_0", "qwen3moe-q8_0", "llama-q4_0", "qwen3moe-q4_0"]:  # F16, Q8_0, Q4_0
        arch, _, dtype = name.partition("-q")
        path = directory / f"{name}.gguf"
        if not path.exists():
            write(arch, path.with_suffix(".tmp"), "q" + dtype if dtype else "f16")
            path.with_suffix(".tmp").rename(path)
        out[name] = path
    split = directory / "split" / "qwen3.gguf"  # three -0000N-of-00003 parts, as big models ship
    if not split.parent.exists():
        split.parent.mkdir()
        write("qwen3", split, split_max_tensors=20)
    out["qwen3-split"] = sorted(split.parent.glob("qwen3-00001-of-*.gguf"))[0]
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_server(model: Path, flags: list[str], timeout: float = 120.0) -> str:
    """Start llama-server, wait until it listens (or exits), stop it; return its log."""
    argv = [str(SERVER), "-m", str(model), "--host", "127.0.0.1", "--port", str(_free_port()), "-t", "1",
            "--no-warmup", "-lv", "4", *flags]  # fmt: skip
    log = model.parent / f"run-{os.getpid()}-{time.monotonic_ns()}.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and proc.poll() is None:
                text = log.read_text(errors="replace")
                if "listening on http" in text or "exiting due to" in text:
                    break
                time.sleep(0.2)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    text = log.read_text(errors="replace")
    log.unlink()
    return text


def compare(arch: str, flags: list[str], plan: LlamaPlan, seen: StartupBuffers) -> list[Comparison]:
    cpu = next(d for d in plan.devices if d.device == "CPU")
    rows = [
        Comparison(arch, flags, "model buffer", cpu.model_mib, sum(seen.model.values()), 0, seen.model_lines),
        Comparison(arch, flags, "output buffer", cpu.output_mib, sum(seen.output.values()), 0),
        Comparison(arch, flags, "compute buffer", cpu.compute_mib, sum(seen.compute.values()), 0.10),
    ]
    logged = {"attn": seen.kv_caches[:1], "swa": seen.kv_caches[1:2]}
    for kind in ("attn", "swa"):
        mine, theirs = [k for k in plan.kv if k.kind == kind], logged[kind]
        if mine or theirs:
            rows.append(
                Comparison(
                    arch,
                    flags,
                    f"KV {kind} cells",
                    sum(k.cells for k in mine),
                    sum(k.cells for k in theirs),
                    0,
                )
            )
            rows.append(
                Comparison(
                    arch, flags, f"KV {kind} K", sum(k.k_mib for k in mine), sum(k.k_mib for k in theirs), 0
                )
            )
            rows.append(
                Comparison(
                    arch, flags, f"KV {kind} V", sum(k.v_mib for k in mine), sum(k.v_mib for k in theirs), 0
                )
            )
    if seen.rs or cpu.recurrent_mib:
        rows.append(Comparison(arch, flags, "recurrent state", cpu.recurrent_mib, sum(seen.rs.values()), 0))
    return rows


def run_case(models: dict[str, Path], arch: str, flags: list[str]) -> tuple[list[Comparison], str]:
    text = run_server(models[arch], flags)
    seen = read_startup_buffers(text)
    if not seen.compute:
        raise RuntimeError(f"llama-server printed no compute buffer for {arch} {flags}:\n{text[-3000:]}")
    plan = plan_gguf(str(models[arch]), parse_server_args(flags), [])
    return compare(arch, flags, plan, seen), text
