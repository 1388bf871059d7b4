"""The seventh fresh batch of doctor's corpus (batch "fresh-7"): the fast real parts broken in ordinary
ways the earlier batches did not try (llama-server flags of older guides or of other builds, its router
mode, a prompt longer than its context; systemd-analyze on units with other mistakes; `servebox check`,
`plan` and `render` on inputs that will not work). It reuses the helpers of tools/doctor-corpus.py and
tools/doctor_corpus_fresh5.py (loaded by path) and writes tests/fixtures/doctor-corpus/<id>.log the same
way. The expected answers were written in manifest.toml after reading each log and before doctor was run
on it; servebox/doctor/* was not changed. The public excerpts of the batch are hand-copied from the
threads the manifest names (not made by this tool).
Usage (from the repository root; ports 18200-18299 by default):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_MODEL_DIR .venv/bin/python tools/doctor_corpus_fresh7.py [CASE_ID ...]
(LOADABLE.gguf: tests/engine/make_tiny_gguf.py's output; TINY_MODEL_DIR: tests/engine/make_tiny_model.py's)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_tools import load  # tools/ is on sys.path: the makers run as scripts

for _var, _port in (("DOCTOR_CORPUS_PORT", "18200"), ("DOCTOR_CORPUS_LLAMA_PORT", "18201")):
    os.environ.setdefault(_var, _port)
SERVE_PORT = int(os.environ.get("DOCTOR_CORPUS_SERVE_PORT", "18240"))
HERE = Path(__file__).resolve().parent


def llama_serve_then(h, request: dict, *flags: str, path: str = "/v1/chat/completions") -> str:
    """Start llama-server on a loadable GGUF, wait until /health answers, send one client request (as a
    user would), then stop the server with SIGTERM; the server's whole log, the client's answer after it."""
    import httpx

    argv = [h.LLAMA, "--port", str(SERVE_PORT), "-m", str(h.GGUF), *flags]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            answer = "(no answer)"
            if h.wait_healthy(SERVE_PORT, time.monotonic() + 60):
                r = httpx.post(f"http://127.0.0.1:{SERVE_PORT}{path}", json=request, timeout=60)
                answer = f"client: HTTP {r.status_code} {r.text[:400]}"
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        log.seek(0)
        return log.read().decode("utf-8", "replace") + answer + "\n"


def llama_cases(h) -> dict:
    """llama-server started with an ordinary mistake each."""
    m = ("-m", str(h.GGUF_NO_VOCAB))
    long_prompt = " ".join(["the quick brown fox jumps over the lazy dog"] * 60)
    return {
        "llama-mlock-flag-removed": lambda: h.llama(*m, "--mlock"),
        "llama-rpc-not-in-build": lambda: h.llama(*m, "--rpc", "192.168.1.20:50052,192.168.1.21:50052"),
        "llama-router-models-dir-missing": lambda: h.run(
            [h.LLAMA, "--port", h.LLAMA_PORT, "--models-dir", "/srv/llm/gguf"], 30
        ),
        "llama-prompt-longer-than-context": lambda: llama_serve_then(
            h, {"messages": [{"role": "user", "content": long_prompt}], "max_tokens": 8}, "-c", "128"
        ),
    }


def systemd_cases(h) -> dict:
    """systemd-analyze verify on a unit with an ordinary mistake each."""
    u = h.UNIT.format
    return {
        "systemd-oom-score-adjust-out-of-range": lambda: h.systemd_verify(u(extra="OOMScoreAdjust=-2000\n")),
        "systemd-cpuaffinity-not-a-cpu": lambda: h.systemd_verify(u(extra="CPUAffinity=0-7,gpu\n")),
        "systemd-supplementary-groups-comma": lambda: h.systemd_verify(
            u(extra="SupplementaryGroups=video,render\n")
        ),
    }


def servebox_cases(h, f5, tiny: Path, tmp: Path) -> dict:
    """servebox's own verbs on inputs that will not work (their console, as the user sees it)."""
    exe = str(h.REPO / ".venv" / "bin" / "servebox")
    bad_toml = f5.SPEC.format(
        router=SERVE_PORT + 10,
        models=f5.MODEL.format(name="qwen", checkpoint=h.GGUF, binary=h.LLAMA, port=SERVE_PORT + 11),
    ).replace('engine = "llama.cpp"', 'engine = "llama.cpp')
    return {
        "servebox-check-bf16-on-v100": lambda: h.run(
            [exe, "check", str(tiny), "--gpu", "v100-32gb", "--dtype", "bfloat16"], 60
        ),
        "servebox-plan-max-model-len-above-positions": lambda: h.run(
            [exe, "plan", str(tiny), "--gpu", "l4-24gb", "--max-model-len", "131072"], 60
        ),
        "servebox-render-unclosed-string": lambda: f5.servebox(h, tmp, "render", bad_toml),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    h.LLAMA = str(h.REPO / ".llama-cpp" / "bin" / "llama-server")
    wanted = set(sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="doctor-fresh7-") as tmp:
        tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df5/tiny"))
        cases = {**llama_cases(h), **systemd_cases(h), **servebox_cases(h, f5, tiny, Path(tmp))}
        f5.write_cases(h, cases, wanted)


if __name__ == "__main__":
    main()
