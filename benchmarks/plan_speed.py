"""How long one `servebox plan` takes (issue 11 target: under 0.5 s as a whole command, import time counted),
split into where the time goes, each against a baseline measured in the same run: make_plan in process against
loading the checkpoint's metadata, and the whole command against a bare interpreter start and against importing
the checkpoint reader alone (what a plan cannot avoid paying before its own arithmetic).
Run: python benchmarks/plan_speed.py [--baseline OTHER_CHECKOUT]
--baseline: the same command at another revision (a checkout with its own .venv, e.g. /work/main), run from that
checkout (so its code, not this one's, is imported), interleaved with this one in the same run: the ratio holds
on a loaded machine where absolute seconds do not.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from timing import best_of, child_cpu

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.hardware import get_gpu
from servebox.plan import make_plan

CHECKPOINTS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "checkpoints"
CASES = {
    "llama-3.1-8b-instruct": ["--max-model-len", "auto"],
    "qwen3.5-27b": ["-tp", "2", "--speculative-config", '{"method":"mtp","num_speculative_tokens":3}'],
    "gpt-oss-120b": ["--max-model-len", "131072"],
    "nemotron-h-8b-base": ["--max-model-len", "auto"],
}
TARGET_S = 0.5


def main() -> None:
    gpu, profile = get_gpu("h100-80gb"), load_profile("0.32.0")
    print(f"{'fixture':24} {'make_plan s':>11} {'load metadata s':>15} {'ratio':>6}")
    for name, argv in CASES.items():
        ckpt = load_checkpoint(str(CHECKPOINTS / name), False)
        flags, _ = parse_flags(argv)
        planned = best_of(lambda ckpt=ckpt, flags=flags: make_plan(ckpt, flags, gpu, profile))
        loaded = best_of(lambda name=name: load_checkpoint(str(CHECKPOINTS / name), False))
        print(f"{name:24} {planned:11.4f} {loaded:15.4f} {planned / loaded:6.2f}x")
    cmd = [
        sys.executable,
        "-m",
        "servebox.cli",
        "plan",
        str(CHECKPOINTS / "qwen3.5-27b"),
        "--gpu",
        "h100-80gb",
    ]
    whole = best_of(lambda: subprocess.run([*cmd, "--json"], capture_output=True), repeats=3)
    bare = best_of(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeats=3)
    reader = best_of(
        lambda: subprocess.run([sys.executable, "-c", "import servebox.checkpoint.facts"], check=True),
        repeats=3,
    )
    cli_floor = best_of(
        lambda: subprocess.run([sys.executable, "-c", "import typer, rich.console"]), repeats=3
    )
    print(f"whole command: {whole:.3f} s (target < {TARGET_S} s: {'ok' if whole < TARGET_S else 'TOO SLOW'})")
    print(
        f"  bare interpreter {bare:.3f} s (ratio {whole / bare:.1f}x); the CLI framework alone (typer + rich) "
        f"{cli_floor:.3f} s (ratio {whole / cli_floor:.2f}x); importing the checkpoint reader {reader:.3f} s"
    )
    cpu, cpu_bare = child_cpu([*cmd, "--json"]), child_cpu([sys.executable, "-c", "pass"])
    print(
        f"  CPU time of the command (user+sys, what a busy machine cannot stretch): {cpu:.3f} s "
        f"(target < {TARGET_S} s: {'ok' if cpu < TARGET_S else 'TOO SLOW'}); bare interpreter {cpu_bare:.3f} s "
        f"(ratio {cpu / cpu_bare:.1f}x)"
    )
    hub_import = "from huggingface_hub import parse_local_safetensors_file_metadata"
    hub = best_of(lambda: subprocess.run([sys.executable, "-c", hub_import]), repeats=3)
    print(f"  (the huggingface_hub header reader's import, off a local plan's path now: {hub:.3f} s)")
    share = whole - reader
    print(
        f"  the plan's own share (imports beyond the reader, CLI, arithmetic): {share:.3f} s (negative: within noise)"
    )
    if "--baseline" in sys.argv:
        other = Path(sys.argv[sys.argv.index("--baseline") + 1]).resolve()
        theirs_cmd = [str(other / ".venv" / "bin" / "python"), *cmd[1:], "--json"]
        mine, theirs, mine_cpu, theirs_cpu = [], [], [], []
        for _ in range(9):  # interleaved, so both see the same machine load
            mine.append(best_of(lambda: subprocess.run([*cmd, "--json"], capture_output=True), repeats=1))
            theirs.append(
                best_of(lambda: subprocess.run(theirs_cmd, capture_output=True, cwd=other), repeats=1)
            )
            mine_cpu.append(child_cpu([*cmd, "--json"], repeats=1))
            theirs_cpu.append(child_cpu(theirs_cmd, repeats=1, cwd=other))
        print(
            f"  against the baseline revision ({other}): wall {min(mine):.3f} s vs {min(theirs):.3f} s "
            f"(ratio {min(mine) / min(theirs):.2f}x); CPU {min(mine_cpu):.3f} s vs {min(theirs_cpu):.3f} s "
            f"(ratio {min(mine_cpu) / min(theirs_cpu):.2f}x); measured, min of 9 interleaved"
        )


if __name__ == "__main__":
    main()
