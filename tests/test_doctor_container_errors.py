"""Docker's, Podman's and the NVIDIA Container Toolkit's refusals (benchmarks/data/container_errors.json) named.

Why: an engine in a container often fails before it prints a line of its own; the runtime's words (a runtime
name Docker does not know, a host port another container publishes, an image with no build for this CPU, a
registry rate limit, the NVIDIA hook or its cgroup rules) are all the user has, and a message that has more
than one reading (the toolkit's 'detection error') must never be a confident answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from servebox.doctor.signatures import load_signatures
from tests.doctor_text import run, top_cause

ROOT = Path(__file__).resolve().parent.parent
OURS = {
    "container-runtime-unknown", "container-port-allocated", "container-image-platform-missing",
    "container-pull-rate-limited", "container-toolkit-hook-missing", "container-toolkit-cgroup-denied",
    "container-toolkit-detection-failed", "docker-daemon-not-running", "docker-socket-permission-denied",
    "container-name-conflict", "container-registry-unauthorized", "container-registry-unreachable",
    "container-toolkit-rpc-timeout", "container-toolkit-cgroup-v2-unsupported", "container-toolkit-hook-failed",
}  # fmt: skip
HOOK = (
    "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: "
    "unable to start container process: error during container init: error running hook #0: error running hook: "
    "exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: {}: unknown.\n"
)


@pytest.mark.parametrize(
    "text, family",
    [
        ("Error response from daemon: unknown or invalid runtime name: nvidia\n", "container-runtime-unknown"),
        ("docker: Error response from daemon: Unknown runtime specified nvidia.\nSee 'docker run --help'.\n", "container-runtime-unknown"),
        # a port another container publishes is Docker's, not a process's: the specific family outranks port-in-use
        ("Error response from daemon: driver failed programming external connectivity on endpoint llama (9a1b): Bind for 0.0.0.0:8080 failed: port is already allocated\n", "container-port-allocated"),
        ("docker: Error response from daemon: no matching manifest for linux/arm64/v8 in the manifest list entries.\n", "container-image-platform-missing"),
        ('Error: choosing an image from manifest list docker://docker.io/vllm/vllm-openai:latest: no image found in manifest list for architecture arm64, variant "v8", OS linux\n', "container-image-platform-missing"),
        ("Error: initializing source docker://vllm/vllm-openai:latest: reading manifest latest in docker.io/vllm/vllm-openai: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit\n", "container-pull-rate-limited"),
        ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: fork/exec /usr/bin/nvidia-container-runtime-hook: no such file or directory: unknown.\n", "container-toolkit-hook-missing"),
        (HOOK.format("mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted"), "container-toolkit-cgroup-denied"),
        (HOOK.format("detection error: nvml error: unknown error"), "container-toolkit-detection-failed"),
        # a detection error whose reason has one reading is that reading's cause, not the symptom
        (HOOK.format("detection error: nvml error: driver/library version mismatch"), "cuda-driver-mismatch"),
        ("Cannot connect to the Docker daemon at unix:///run/user/1000/docker.sock. Is the docker daemon running?\n", "docker-daemon-not-running"),
        # the socket's EACCES is Docker's group, not a file's modes
        ('permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json": dial unix /var/run/docker.sock: connect: permission denied\n', "docker-socket-permission-denied"),
        ('Error response from daemon: Conflict. The container name "/llama-server" is already in use by container "9f0e". You have to remove (or rename) that container to be able to reuse that name.\n', "container-name-conflict"),
        ('Error response from daemon: Head "https://nvcr.io/v2/nvidia/tritonserver/manifests/25.01-vllm-python-py3": unauthorized: <html>\n', "container-registry-unauthorized"),
        ('Error response from daemon: Get "https://ghcr.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)\n', "container-registry-unreachable"),
        # the driver is there but slow: not the 'no GPU driver' reading the initialization-error class had
        (HOOK.format("initialization error: driver rpc error: timed out"), "container-toolkit-rpc-timeout"),
        (HOOK.format("container error: cgroup subsystem devices not found"), "container-toolkit-cgroup-v2-unsupported"),
        ("Error: OCI runtime error: crun: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1)\n", "container-toolkit-hook-failed"),
        (HOOK.format("initialization error: nvml error: driver/library version mismatch"), "cuda-driver-mismatch"),
        # the families already there keep their wordings
        (HOOK.format("initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory"), "no-gpu-driver-in-container"),
        (HOOK.format("requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container"), "container-image-cuda-newer-than-driver"),
    ],
)  # fmt: skip
def test_the_runtime_refusal_is_named(text, family):
    d = top_cause(run(text))
    assert d is not None and d.id == family, (text, d and (d.id, d.role, d.confidence))


def test_the_detection_symptom_is_never_confident():
    d = top_cause(run(HOOK.format("detection error: nvml error: unknown error")))
    assert d.role == "symptom" and d.confidence <= 0.60 and "(nvml error: unknown error)" in d.cause


def test_consequences_are_never_confident():
    """The confidence policy: symptoms at <= 0.60, causes at >= 0.70 only where the message has one reading."""
    seen = set()
    for s in load_signatures():
        if s.id in OURS:
            seen.add(s.id)
            assert (s.role == "symptom" and s.confidence <= 0.60) or (
                s.role == "cause" and s.confidence >= 0.70
            ), s.id
    assert seen == OURS


def test_every_catalogue_entry_is_named_or_pointed_at():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from doctor_coverage_container_errors import DATA, measure

    rows = measure(json.loads(DATA.read_text()))
    assert len(rows) >= 40
    missed = [(r["id"], r["per_format"]) for r in rows if r["verdict"] not in ("named", "symptom")]
    assert not missed
