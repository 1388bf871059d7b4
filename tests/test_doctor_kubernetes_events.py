"""Kubernetes' pod-failure vocabulary (kubelet and scheduler events, lastState, device plugin) as doctor names it.

Each log is `kubectl describe pod` as the kubelet's and scheduler's format strings fill it (the catalogue is
benchmarks/data/kubernetes_events.json, made by tools/harvest_kubernetes_events.py), in the order the events
come. The cases that could go wrong: a probe's kill (exit 137) is not the OOM killer, a crash loop or a probe
failure is never the cause when the engine's own error is there, nvidia-smi's 'Unknown Error' is not the
device plugin's missing library, and a GPU shortage is named over the cpu one beside it.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.conftest import load_script
from tests.doctor_text import run, top_cause


def ev(kind: str, reason: str, msg: str, src: str = "kubelet") -> str:
    return f"  {kind:<8} {reason:<22} 30s (x5 over 8m)  {src:<17} {msg}\n"


STARTUP_KILL = (
    "    State:          Waiting\n      Reason:       CrashLoopBackOff\n"
    "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137\n"
    + ev("Warning", "Unhealthy", 'Startup probe failed: Get "http://10.244.1.7:8000/health": dial tcp 10.244.1.7:8000: connect: connection refused')
    + ev("Normal", "Killing", "Container vllm failed startup probe, will be restarted")
    + ev("Warning", "BackOff", "Back-off restarting failed container vllm in pod vllm-7d9c6b5f4-x2kqp_default(4b1f0c2e)")
)  # fmt: skip

# (expected top family, log, the answer must be confident)
CASES = [
    # a slow vLLM start killed by its startup probe: the probe's SIGKILL (137) is not the OOM killer
    ("k8s-probe-killed-start", STARTUP_KILL, True),
    ("k8s-probe-killed-start",
     ev("Warning", "Unhealthy", 'Liveness probe failed: Get "http://10.244.1.7:8000/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)')
     + ev("Normal", "Killing", "Container llama-server failed liveness probe, will be restarted"), True),
    # the same kill after the engine said it was up is a hang or a busy server, not a slow start
    ("k8s-probe-killed-after-start",
     "INFO:     Application startup complete.\n"
     + ev("Warning", "Unhealthy", 'Liveness probe failed: Get "http://10.244.1.7:8000/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)')
     + ev("Normal", "Killing", "Container vllm failed liveness probe, will be restarted"), False),
    # a probe that fails without a kill only says the server is not answering (yet)
    ("k8s-probe-failed", ev("Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"), False),
    ("k8s-probe-failed",
     ev("Warning", "Unhealthy", 'Liveness probe failed: Get "http://10.244.1.7:8000/health": dial tcp 10.244.1.7:8000: connect: connection refused'), False),
    # the container's memory limit, not the GPU's
    ("k8s-container-oomkilled",
     "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n"
     + ev("Warning", "BackOff", "Back-off restarting failed container vllm in pod vllm-0_default(1a2b)"), True),
    # a crash loop alone is only a symptom; with the engine's own error beside it, the engine's error wins
    ("k8s-crashloop-backoff", ev("Warning", "BackOff", "Back-off restarting failed container vllm in pod vllm-0_default(1a2b)"), False),
    ("uid-without-passwd-entry",
     "KeyError: 'getpwuid(): uid not found: 1003520000'\n"
     + ev("Warning", "BackOff", "Back-off restarting failed container vllm in pod vllm-0_default(1a2b)"), True),
    # the scheduler: a GPU shortage is named over the cpu shortage on the same line
    ("k8s-insufficient-gpu",
     ev("Warning", "FailedScheduling", "0/3 nodes are available: 1 Insufficient cpu, 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", "default-scheduler"), True),
    ("k8s-insufficient-resource",
     ev("Warning", "FailedScheduling", "0/2 nodes are available: 2 Insufficient memory.", "default-scheduler"), True),
    ("k8s-untolerated-taint",
     ev("Warning", "FailedScheduling", "0/1 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: present}.", "default-scheduler"), True),
    # image pulls: the Failed event's reason names it; the back-off after it does not
    ("container-image-unauthorized",
     ev("Warning", "Failed", 'Failed to pull image "nvcr.io/nim/meta/llama3-8b-instruct:1.0.0": rpc error: code = Unknown desc = failed to pull and unpack image "nvcr.io/nim/meta/llama3-8b-instruct:1.0.0": failed to resolve reference "nvcr.io/nim/meta/llama3-8b-instruct:1.0.0": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized')
     + ev("Warning", "Failed", "Error: ErrImagePull") + ev("Warning", "Failed", "Error: ImagePullBackOff"), True),
    ("container-image-not-found",
     ev("Warning", "Failed", 'Failed to pull image "vllm/vllm-openai:v0.99.0": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/vllm/vllm-openai:v0.99.0": failed to resolve reference "docker.io/vllm/vllm-openai:v0.99.0": docker.io/vllm/vllm-openai:v0.99.0: not found')
     + ev("Normal", "BackOff", 'Back-off pulling image "vllm/vllm-openai:v0.99.0"'), True),
    ("container-pull-rate-limited",
     ev("Warning", "Failed", 'Failed to pull image "vllm/vllm-openai:latest": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/vllm/vllm-openai:latest": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/vllm/vllm-openai/manifests/sha256:5a1b: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.'), True),
    ("k8s-image-pull-backoff", ev("Warning", "Failed", "Error: ImagePullBackOff"), False),
    # evictions: the pod's own limit, or the node's disk
    ("k8s-evicted-container-disk", ev("Warning", "Evicted", 'Container vllm exceeded its local ephemeral storage limit "20Gi". '), True),
    ("k8s-evicted-node-disk",
     ev("Warning", "Evicted", "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 8Gi. Container vllm was using 52Gi, request is 0, has larger consumption of ephemeral-storage. "), True),
    ("k8s-missing-secret-or-configmap", ev("Warning", "Failed", 'Error: secret "hf-token" not found'), True),
    # an entry process that exits 0 in a crash loop: the server is not the foreground process
    ("k8s-container-completed-loop",
     "    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n"
     "      Reason:       Completed\n      Exit Code:    0\n", True),
    ("k8s-node-selector-mismatch",
     ev("Warning", "FailedScheduling", "0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector.", "default-scheduler"), True),
    ("k8s-preempted", ev("Normal", "Preempted", "Preempted by pod 6f0b2c1e-8a4d on node gpu-node-1", "default-scheduler"), True),
    ("k8s-network-not-ready",
     ev("Warning", "NetworkNotReady", "network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"), True),
    # NVML: the device plugin's missing library is not nvidia-smi's 'Unknown Error' in a container
    ("k8s-device-plugin-nvml", "E1203 10:00:00.000000       1 main.go:132] Failed to initialize NVML: could not load NVML library.\n", True),
    ("container-nvml-lost-devices", "Failed to initialize NVML: Unknown Error\n", False),
]  # fmt: skip


@pytest.mark.parametrize("expected,log,confident", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_kubernetes_vocabulary_is_named(expected, log, confident):
    r = run(log)
    top = top_cause(r)
    assert top is not None and top.id == expected, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert (top.confidence >= CONFIDENT) == confident, top.confidence
    assert all(d.id == expected or d.confidence < CONFIDENT for d in r.diagnoses)


def test_a_probe_kill_says_how_to_size_the_startup_probe():
    fix = top_cause(run(STARTUP_KILL)).fix
    assert "startupProbe" in fix and "failureThreshold x periodSeconds" in fix and "servebox plan" in fix


def test_a_finished_container_without_a_crash_loop_is_no_failure():
    """A Job's pod that ran to the end says 'Reason: Completed' too."""
    r = run("    State:          Terminated\n      Reason:       Completed\n      Exit Code:    0\n")
    assert top_cause(r) is None, [(d.id, d.role) for d in r.diagnoses]


def test_every_failure_of_the_catalogue_is_at_least_generic(capsys):
    """The committed catalogue, offline: at most the bare 'Reason: Error' leaves doctor silent."""
    bench = load_script("benchmarks/doctor_coverage_kubernetes_events.py")
    assert bench.main(["--uncovered", "0"]) == 0
    overall = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("overall"))
    n, named, generic, none = (int(x) for x in overall.split()[1:5])
    assert none <= 1 and n >= 45 and named >= 30
