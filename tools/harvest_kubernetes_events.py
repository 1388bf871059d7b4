"""Write Kubernetes' pod-failure vocabulary (event reasons, STATUS words, message formats) into a catalogue.

Why: benchmarks/doctor_coverage_kubernetes_events.py measures how much of what Kubernetes prints about a failed
vLLM / llama.cpp pod doctor can name. No kubelet or scheduler is on this machine (the kubectl here, v1.32.4, holds
none of these texts), so each entry below was read by hand from the Kubernetes source (kubernetes/kubernetes, the
files and commits in SOURCES) and from the NVIDIA device plugin; this tool keeps that reading as data (reason,
format string, the file it is printed from), fills each format as `kubectl describe pod` / `kubectl get pods` /
the container's lastState show it, and writes benchmarks/data/kubernetes_events.json. No code was copied: the
formats are the printed texts, as a log shows them.
Run: python tools/harvest_kubernetes_events.py benchmarks/data/kubernetes_events.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# the files read (kubernetes/kubernetes unless named) and the commit of the version read
SOURCES = {
    "event.go": "pkg/kubelet/events/event.go @ 819ecd4dbe6afbaa4f6227d22b9c46938d48e603 (event reasons)",
    "images/types.go": "pkg/kubelet/images/types.go @ 64c0164cec061bebeb9ed31a487b4c49d3a5104a (image errors)",
    "eviction/helpers.go": "pkg/kubelet/eviction/helpers.go @ de663b934f1fadd966d4136ea515c298f1e7f34a and "
    "later versions (nodeLowMessageFmt, containerEphemeralStorageMessageFmt, podEphemeralStorageMessageFmt)",
    "prober.go": "pkg/kubelet/prober/prober.go (recordContainerEvent: '%s probe failed: %s', '%s probe errored: %v')",
    "worker.go": "pkg/kubelet/prober/worker.go + kuberuntime_manager.go ('Container %s failed %s probe, will be "
    "restarted'; startup: 'failed startup probe, will be restarted')",
    "kuberuntime_container.go": "pkg/kubelet/kuberuntime/kuberuntime_container.go (BackOff: 'Back-off restarting "
    "failed container %s in pod %s'; CrashLoopBackOff: 'back-off %s restarting failed container=%s pod=%s')",
    "kuberuntime_manager.go": "pkg/kubelet/kuberuntime/kuberuntime_manager.go ('Pod sandbox changed, it will be "
    "killed and re-created.')",
    "fit.go": "pkg/scheduler/framework/plugins/noderesources/fit.go ('Insufficient ' + resource name); "
    "pkg/scheduler/framework/types.go FitError ('0/%v nodes are available: %v.')",
    "http.go": "pkg/probe/http/http.go ('HTTP probe failed with statuscode: %d'); Go net/http's client errors "
    "(dial tcp ...: connect: connection refused; context deadline exceeded (Client.Timeout exceeded while "
    "awaiting headers))",
    "active_deadline.go": "pkg/kubelet/active_deadline.go (reason DeadlineExceeded, 'Pod was active on the node "
    "longer than the specified deadline')",
    "kubelet_pods.go": "pkg/kubelet/kubelet_pods.go + container/sync_result.go (CreateContainerConfigError, "
    "'couldn't find key %v in ConfigMap/Secret', 'secret %q not found')",
    "volumemanager": "pkg/kubelet/volumemanager/volume_manager.go ('Unable to attach or mount volumes: unmounted "
    "volumes=%v, unattached volumes=%v, failed to process volumes=%v: %s')",
    "cri": "the container runtime's terminated state: reason OOMKilled / Error / ContainerCannotRun, exitCode",
    "devicemanager": "pkg/kubelet/cm/devicemanager/manager.go (admission: 'Allocate failed due to %v, which is "
    "unexpected'; 'requested number of devices unavailable for %s. Requested: %d, Available: %d')",
    "nodeaffinity": "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (ErrReasonPod: 'node(s) didn't "
    "match Pod's node affinity/selector')",
    "preemption": "pkg/scheduler/framework/preemption/preemption.go (event Preempted: 'Preempted by pod %v on node %v')",
    "kubelet.go": "pkg/kubelet/kubelet.go (NetworkNotReady: 'network is not ready: %v')",
    "nvidia-device-plugin": "NVIDIA/k8s-device-plugin (cmd/nvidia-device-plugin/main.go, internal/rm/...): "
    "'Failed to initialize NVML: %v', 'If this is a GPU node, did you configure the NVIDIA Container Toolkit?'",
}

E = "  Warning  {reason:<22} 12s (x4 over 2m)  {src:<17} {msg}"
HEALTH = 'Get "http://10.244.1.7:8000/health": '
PROBE_ERRORS = {
    "connection refused": HEALTH + "dial tcp 10.244.1.7:8000: connect: connection refused",
    "Client.Timeout": HEALTH + "context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
}


# The builders below hold what a family of entries shares (the printed text around the varying part), so each
# row says only what differs; a row is (group, reason, STATUS word or None, the format as printed, a filled
# example, source key).
def terminated(reason: str, code: str, fmt_code: str, status: str | None = None, before: str = "") -> tuple:
    """A container's lastState block as `kubectl describe pod` prints it (not an event)."""
    block = f"    Last State:     Terminated\n      Reason:       {reason}\n      Exit Code:    {code}"
    fmt = f"Last State: Terminated / Reason: {reason} / Exit Code: {fmt_code}"
    return ("container", reason, status or reason, fmt, before + block, "cri")


def config_error(fmt: str, example: str) -> tuple:
    reason = "CreateContainerConfigError"
    return ("container", reason, reason, fmt, example, "kubelet_pods.go")


def probe_failed(probe: str, error: str) -> tuple:
    """An Unhealthy event for a probe whose GET got no answer (error: a PROBE_ERRORS key)."""
    fmt = f"{probe} probe failed: %s ({error})"
    return ("probe", "Unhealthy", None, fmt, f"{probe} probe failed: {PROBE_ERRORS[error]}", "prober.go")


def probe_status(probe: str, code: int) -> tuple:
    text = f"{probe} probe failed: HTTP probe failed with statuscode: "
    return ("probe", "Unhealthy", None, text + "%d", f"{text}{code}", "http.go")


def probe_killing(probe: str) -> tuple:
    text = "Container {} failed " + probe + " probe, will be restarted"
    return ("probe", "Killing", None, text.format("%s"), text.format("vllm"), "worker.go")


def unschedulable(why_fmt: str, nodes: int, why: str, preemption: str = "", src: str = "fit.go") -> tuple:
    """A FailedScheduling event: the scheduler's FitError, with its preemption verdict where the thread shows one."""
    example = f"0/{nodes} nodes are available: {why}"
    if preemption:
        example += f" preemption: 0/{nodes} nodes are available: {nodes} {preemption}"
    return ("scheduling", "FailedScheduling", "Pending", f"0/%v nodes are available: {why_fmt}", example, src)


def insufficient(resource: str, nodes: int, preemption: str = "") -> tuple:
    why = f"Insufficient {resource}."
    return unschedulable(f"%v {why}", nodes, f"{nodes} {why}", preemption)


NO_VICTIMS = "No preemption victims found for incoming pod."
NOT_HELPFUL = "Preemption is not helpful for scheduling."


def pull_failed(why: str, image: str, code: str, error: str) -> tuple:
    """An ErrImagePull event: containerd's 'failed to pull and unpack image' around the registry's answer."""
    # containerd names a Docker Hub image in full (docker.io/...); a registry host stays as given
    ref = image if image.startswith("nvcr.io/") else f"docker.io/{image}"
    example = (
        f'Failed to pull image "{image}": rpc error: code = {code} desc = failed to pull and unpack image '
        f'"{ref}": {error.format(ref=ref)}'
    )
    fmt = f'Failed to pull image "%s": %s ({why})'
    return ("image", "Failed", "ErrImagePull", fmt, example, "images/types.go")


def evicted(fmt: str, example: str) -> tuple:
    return ("eviction", "Evicted", "Evicted", fmt, example, "eviction/helpers.go")


def node_low(resource: str, threshold: str, available: str, using: str, request: str) -> tuple:
    """The eviction manager's nodeLowMessageFmt with the container it picked."""
    example = (
        f"The node was low on resource: {resource}. Threshold quantity: {threshold}, available: {available}. "
        f"Container vllm was using {using}, request is {request}, has larger consumption of {resource}."
    )
    return evicted(f"The node was low on resource: %v. ({resource})", example)


def mount_failed(fmt: str, example: str) -> tuple:
    return ("volume", "FailedMount", "ContainerCreating", fmt, example, "volumemanager")


RESOLVE = 'failed to resolve reference "{ref}": '
RAW = [
    ("container", "BackOff", "CrashLoopBackOff", "Back-off restarting failed container %s in pod %s",
     "Back-off restarting failed container vllm in pod vllm-7d9c6b5f4-x2kqp_default(4b1f0c2e-1d3a-4c55-9e0f-2a7b9c1d3e5f)",
     "kuberuntime_container.go"),
    ("container", "CrashLoopBackOff", "CrashLoopBackOff", "back-off %s restarting failed container=%s pod=%s",
     "back-off 5m0s restarting failed container=vllm pod=vllm-7d9c6b5f4-x2kqp_default(4b1f0c2e)",
     "kuberuntime_container.go"),
    terminated("OOMKilled", "137", "137"),
    terminated("Error", "1", "%d"),
    ("container", "ContainerCannotRun", "ContainerCannotRun", "Reason: ContainerCannotRun / Message: %s",
     "      Reason:       ContainerCannotRun\n      Message:      failed to create task for container: "
     "OCI runtime create failed: exec: \"vllm\": executable file not found in $PATH", "cri"),
    ("container", "Failed", "RunContainerError", "Error: failed to create containerd task: %s",
     "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: "
     "exec: \"vllm\": executable file not found in $PATH: unknown", "kuberuntime_container.go"),
    config_error("Error: secret %q not found", 'Error: secret "hf-token" not found'),
    config_error("Error: couldn't find key %v in Secret %v/%v", "Error: couldn't find key HF_TOKEN in Secret default/hf-token"),
    config_error("Error: configmap %q not found", 'Error: configmap "vllm-config" not found'),
    probe_failed("Liveness", "connection refused"),
    probe_failed("Liveness", "Client.Timeout"),
    probe_status("Liveness", 503),
    probe_failed("Readiness", "connection refused"),
    probe_status("Readiness", 503),
    probe_failed("Startup", "connection refused"),
    probe_failed("Startup", "Client.Timeout"),
    ("probe", "Unhealthy", None, "Liveness probe errored: %v",
     "Liveness probe errored: rpc error: code = Unknown desc = failed to exec in container: container is in "
     "CONTAINER_EXITED state", "prober.go"),
    probe_killing("liveness"),
    probe_killing("startup"),
    insufficient("nvidia.com/gpu", 3, NO_VICTIMS),
    insufficient("memory", 2, NO_VICTIMS),
    insufficient("cpu", 2),
    insufficient("ephemeral-storage", 2),
    unschedulable("%v node(s) had untolerated taint {%s}.", 1, "1 node(s) had untolerated taint {nvidia.com/gpu: present}."),
    unschedulable("pod has unbound immediate PersistentVolumeClaims.", 1,
                  "pod has unbound immediate PersistentVolumeClaims.", NOT_HELPFUL),
    unschedulable("%v node(s) didn't match Pod's node affinity/selector.", 3,
                  "3 node(s) didn't match Pod's node affinity/selector.", NOT_HELPFUL, "nodeaffinity"),
    ("scheduling", "Preempted", None, "Preempted by pod %v on node %v",
     "Preempted by pod 6f0b2c1e-8a4d-4e2f-9c3b-1d2e3f4a5b6c on node gpu-node-1", "preemption"),
    terminated("Completed", "0", "0", "CrashLoopBackOff",
               "    State:          Waiting\n      Reason:       CrashLoopBackOff\n"),
    ("pod", "NetworkNotReady", "ContainerCreating", "network is not ready: %v",
     "network is not ready: container runtime network not ready: NetworkReady=false "
     "reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", "kubelet.go"),
    pull_failed("not found", "vllm/vllm-openai:v0.99.0", "NotFound", RESOLVE + "{ref}: not found"),
    pull_failed("unauthorized", "nvcr.io/nim/meta/llama3-8b-instruct:1.0.0", "Unknown",
                RESOLVE + "failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized"),
    pull_failed("toomanyrequests", "vllm/vllm-openai:latest", "Unknown",
                "failed to copy: httpReadSeeker: failed open: unexpected status code "
                "https://registry-1.docker.io/v2/vllm/vllm-openai/manifests/sha256:5a1b: 429 Too Many Requests - "
                "Server message: toomanyrequests: You have reached your pull rate limit."),
    pull_failed("no space left on device", "vllm/vllm-openai:latest", "Unknown",
                "failed to extract layer sha256:9f2c: write /var/lib/containerd/"
                "io.containerd.snapshotter.v1.overlayfs/snapshots/412/fs/usr/local/lib/python3.12/dist-packages/"
                "torch/lib/libtorch_cuda.so: no space left on device: unknown"),
    ("image", "Failed", "ImagePullBackOff", "Error: ImagePullBackOff", "Error: ImagePullBackOff", "images/types.go"),
    ("image", "BackOff", "ImagePullBackOff", 'Back-off pulling image "%s"',
     'Back-off pulling image "vllm/vllm-openai:v0.99.0"', "images/types.go"),
    ("image", "Failed", "ErrImagePull", "Error: ErrImagePull", "Error: ErrImagePull", "images/types.go"),
    ("image", "ErrImageNeverPull", "ErrImageNeverPull",
     'Container image "%s" is not present with pull policy of Never',
     'Container image "local/llama-server:cuda" is not present with pull policy of Never', "images/types.go"),
    ("image", "InspectFailed", "InvalidImageName", 'Failed to apply default image tag "%s": %v',
     'Failed to apply default image tag "ghcr.io/ggml-org/llama.cpp:server cuda": couldn\'t parse image name '
     '"ghcr.io/ggml-org/llama.cpp:server cuda": invalid reference format', "images/types.go"),
    node_low("ephemeral-storage", "10Gi", "8Gi", "52Gi", "0"),
    node_low("memory", "100Mi", "62Mi", "58Gi", "16Gi"),
    evicted("Container %s exceeded its local ephemeral storage limit %q.",
            'Container vllm exceeded its local ephemeral storage limit "20Gi". '),
    evicted("Pod ephemeral local storage usage exceeds the total limit of containers %s.",
            "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. "),
    evicted('Usage of EmptyDir volume "%s" exceeds the limit "%s".', 'Usage of EmptyDir volume "dshm" exceeds the limit "16Gi". '),
    evicted("The node had condition: %v.", "The node had condition: [DiskPressure]. "),
    ("pod", "DeadlineExceeded", "DeadlineExceeded", "Pod was active on the node longer than the specified deadline",
     "Pod was active on the node longer than the specified deadline", "active_deadline.go"),
    ("pod", "SandboxChanged", None, "Pod sandbox changed, it will be killed and re-created.",
     "Pod sandbox changed, it will be killed and re-created.", "kuberuntime_manager.go"),
    ("pod", "FailedCreatePodSandBox", "ContainerCreating", "Failed to create pod sandbox: %v",
     'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime '
     'for "nvidia" is configured', "kuberuntime_manager.go"),
    mount_failed("MountVolume.SetUp failed for volume %q : %v",
                 'MountVolume.SetUp failed for volume "models" : mount failed: exit status 32'),
    mount_failed("Unable to attach or mount volumes: unmounted volumes=[%v], unattached volumes=[%v]: timed out "
                 "waiting for the condition",
                 "Unable to attach or mount volumes: unmounted volumes=[models], unattached volumes=[models dshm "
                 "kube-api-access-7xk2p]: timed out waiting for the condition"),
    mount_failed("MountVolume.SetUp failed for volume %q : secret %q not found",
                 'MountVolume.SetUp failed for volume "hf-token" : secret "hf-token" not found'),
    ("gpu", "UnexpectedAdmissionError", "UnexpectedAdmissionError",
     "Allocate failed due to %v, which is unexpected",
     "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, "
     "Available: 0, which is unexpected", "devicemanager"),
    ("gpu", "device-plugin", None, "Failed to initialize NVML: %v",
     "E1203 10:00:00.000000       1 main.go:132] Failed to initialize NVML: could not load NVML library.",
     "nvidia-device-plugin"),
    ("gpu", "device-plugin", None, "If this is a GPU node, did you configure the NVIDIA Container Toolkit?",
     "E1203 10:00:00.000000       1 factory.go:115] Incompatible platform detected\nE1203 10:00:00.000000"
     "       1 factory.go:116] If this is a GPU node, did you configure the NVIDIA Container Toolkit?",
     "nvidia-device-plugin"),
]  # fmt: skip


def source_of(reason: str) -> str:
    return "default-scheduler" if reason in {"FailedScheduling", "Preempted"} else "kubelet"


def entries() -> list[dict]:
    out = []
    for group, reason, status, fmt, example, src in RAW:
        if group in ("container",) and reason in ("OOMKilled", "Error", "ContainerCannotRun", "Completed"):
            log = example  # `kubectl describe pod`'s container state block, not an event
        elif reason == "device-plugin":
            log = example  # the device plugin pod's own log (`kubectl logs -n gpu-operator ...`)
        else:
            log = E.format(reason=reason, src=source_of(reason), msg=example)
        out.append(
            {"group": group, "reason": reason, "status": status, "format": fmt, "message": example, "log": log,
             "source": SOURCES[src]}
        )  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    a = ap.parse_args(argv)
    doc = {
        "about": "Kubernetes' pod-failure vocabulary as `kubectl describe pod` shows it, for "
        "benchmarks/doctor_coverage_kubernetes_events.py; made by tools/harvest_kubernetes_events.py.",
        "sources": {"kubernetes": "kubernetes/kubernetes source (read through the search store; files and commits "
                    "per entry)", "event line": "kubectl describe pod's Events table: Type, Reason, Age, From, "
                    "Message"},
        "entries": entries(),
    }  # fmt: skip
    lines = [json.dumps(e) for e in doc["entries"]]
    head = json.dumps({k: v for k, v in doc.items() if k != "entries"})[:-1]
    a.out.write_text(head + ', "entries": [\n' + ",\n".join(lines) + "\n]}\n")
    print(f"{len(lines)} entries -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
