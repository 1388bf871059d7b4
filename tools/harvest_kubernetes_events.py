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
# (group, reason, STATUS word or None, the format as printed, a filled example, source key)
RAW = [
    ("container", "BackOff", "CrashLoopBackOff", "Back-off restarting failed container %s in pod %s",
     "Back-off restarting failed container vllm in pod vllm-7d9c6b5f4-x2kqp_default(4b1f0c2e-1d3a-4c55-9e0f-2a7b9c1d3e5f)",
     "kuberuntime_container.go"),
    ("container", "CrashLoopBackOff", "CrashLoopBackOff", "back-off %s restarting failed container=%s pod=%s",
     "back-off 5m0s restarting failed container=vllm pod=vllm-7d9c6b5f4-x2kqp_default(4b1f0c2e)",
     "kuberuntime_container.go"),
    ("container", "OOMKilled", "OOMKilled", "Last State: Terminated / Reason: OOMKilled / Exit Code: 137",
     "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137", "cri"),
    ("container", "Error", "Error", "Last State: Terminated / Reason: Error / Exit Code: %d",
     "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1", "cri"),
    ("container", "ContainerCannotRun", "ContainerCannotRun", "Reason: ContainerCannotRun / Message: %s",
     "      Reason:       ContainerCannotRun\n      Message:      failed to create task for container: "
     "OCI runtime create failed: exec: \"vllm\": executable file not found in $PATH", "cri"),
    ("container", "Failed", "RunContainerError", "Error: failed to create containerd task: %s",
     "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: "
     "exec: \"vllm\": executable file not found in $PATH: unknown", "kuberuntime_container.go"),
    ("container", "CreateContainerConfigError", "CreateContainerConfigError", "Error: secret %q not found",
     'Error: secret "hf-token" not found', "kubelet_pods.go"),
    ("container", "CreateContainerConfigError", "CreateContainerConfigError",
     "Error: couldn't find key %v in Secret %v/%v", "Error: couldn't find key HF_TOKEN in Secret default/hf-token",
     "kubelet_pods.go"),
    ("container", "CreateContainerConfigError", "CreateContainerConfigError", "Error: configmap %q not found",
     'Error: configmap "vllm-config" not found', "kubelet_pods.go"),
    ("probe", "Unhealthy", None, "Liveness probe failed: %s (connection refused)",
     'Liveness probe failed: Get "http://10.244.1.7:8000/health": dial tcp 10.244.1.7:8000: connect: connection refused',
     "prober.go"),
    ("probe", "Unhealthy", None, "Liveness probe failed: %s (Client.Timeout)",
     'Liveness probe failed: Get "http://10.244.1.7:8000/health": context deadline exceeded '
     "(Client.Timeout exceeded while awaiting headers)", "prober.go"),
    ("probe", "Unhealthy", None, "Liveness probe failed: HTTP probe failed with statuscode: %d",
     "Liveness probe failed: HTTP probe failed with statuscode: 503", "http.go"),
    ("probe", "Unhealthy", None, "Readiness probe failed: %s (connection refused)",
     'Readiness probe failed: Get "http://10.244.1.7:8000/health": dial tcp 10.244.1.7:8000: connect: connection refused',
     "prober.go"),
    ("probe", "Unhealthy", None, "Readiness probe failed: HTTP probe failed with statuscode: %d",
     "Readiness probe failed: HTTP probe failed with statuscode: 503", "http.go"),
    ("probe", "Unhealthy", None, "Startup probe failed: %s (connection refused)",
     'Startup probe failed: Get "http://10.244.1.7:8000/health": dial tcp 10.244.1.7:8000: connect: connection refused',
     "prober.go"),
    ("probe", "Unhealthy", None, "Startup probe failed: %s (Client.Timeout)",
     'Startup probe failed: Get "http://10.244.1.7:8000/health": context deadline exceeded '
     "(Client.Timeout exceeded while awaiting headers)", "prober.go"),
    ("probe", "Unhealthy", None, "Liveness probe errored: %v",
     "Liveness probe errored: rpc error: code = Unknown desc = failed to exec in container: container is in "
     "CONTAINER_EXITED state", "prober.go"),
    ("probe", "Killing", None, "Container %s failed liveness probe, will be restarted",
     "Container vllm failed liveness probe, will be restarted", "worker.go"),
    ("probe", "Killing", None, "Container %s failed startup probe, will be restarted",
     "Container vllm failed startup probe, will be restarted", "worker.go"),
    ("scheduling", "FailedScheduling", "Pending", "0/%v nodes are available: %v Insufficient nvidia.com/gpu.",
     "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: "
     "3 No preemption victims found for incoming pod.", "fit.go"),
    ("scheduling", "FailedScheduling", "Pending", "0/%v nodes are available: %v Insufficient memory.",
     "0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: "
     "2 No preemption victims found for incoming pod.", "fit.go"),
    ("scheduling", "FailedScheduling", "Pending", "0/%v nodes are available: %v Insufficient cpu.",
     "0/2 nodes are available: 2 Insufficient cpu.", "fit.go"),
    ("scheduling", "FailedScheduling", "Pending", "0/%v nodes are available: %v Insufficient ephemeral-storage.",
     "0/2 nodes are available: 2 Insufficient ephemeral-storage.", "fit.go"),
    ("scheduling", "FailedScheduling", "Pending",
     "0/%v nodes are available: %v node(s) had untolerated taint {%s}.",
     "0/1 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: present}.", "fit.go"),
    ("scheduling", "FailedScheduling", "Pending",
     "0/%v nodes are available: pod has unbound immediate PersistentVolumeClaims.",
     "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are "
     "available: 1 Preemption is not helpful for scheduling.", "fit.go"),
    ("scheduling", "FailedScheduling", "Pending",
     "0/%v nodes are available: %v node(s) didn't match Pod's node affinity/selector.",
     "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are "
     "available: 3 Preemption is not helpful for scheduling.", "nodeaffinity"),
    ("scheduling", "Preempted", None, "Preempted by pod %v on node %v",
     "Preempted by pod 6f0b2c1e-8a4d-4e2f-9c3b-1d2e3f4a5b6c on node gpu-node-1", "preemption"),
    ("container", "Completed", "CrashLoopBackOff", "Last State: Terminated / Reason: Completed / Exit Code: 0",
     "    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n"
     "      Reason:       Completed\n      Exit Code:    0", "cri"),
    ("pod", "NetworkNotReady", "ContainerCreating", "network is not ready: %v",
     "network is not ready: container runtime network not ready: NetworkReady=false "
     "reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", "kubelet.go"),
    ("image", "Failed", "ErrImagePull", 'Failed to pull image "%s": %s (not found)',
     'Failed to pull image "vllm/vllm-openai:v0.99.0": rpc error: code = NotFound desc = failed to pull and '
     'unpack image "docker.io/vllm/vllm-openai:v0.99.0": failed to resolve reference '
     '"docker.io/vllm/vllm-openai:v0.99.0": docker.io/vllm/vllm-openai:v0.99.0: not found', "images/types.go"),
    ("image", "Failed", "ErrImagePull", 'Failed to pull image "%s": %s (unauthorized)',
     'Failed to pull image "nvcr.io/nim/meta/llama3-8b-instruct:1.0.0": rpc error: code = Unknown desc = failed '
     'to pull and unpack image "nvcr.io/nim/meta/llama3-8b-instruct:1.0.0": failed to resolve reference '
     '"nvcr.io/nim/meta/llama3-8b-instruct:1.0.0": failed to authorize: failed to fetch anonymous token: '
     "unexpected status: 401 Unauthorized", "images/types.go"),
    ("image", "Failed", "ErrImagePull", 'Failed to pull image "%s": %s (toomanyrequests)',
     'Failed to pull image "vllm/vllm-openai:latest": rpc error: code = Unknown desc = failed to pull and unpack '
     'image "docker.io/vllm/vllm-openai:latest": failed to copy: httpReadSeeker: failed open: unexpected status '
     "code https://registry-1.docker.io/v2/vllm/vllm-openai/manifests/sha256:5a1b: 429 Too Many Requests - "
     "Server message: toomanyrequests: You have reached your pull rate limit.", "images/types.go"),
    ("image", "Failed", "ErrImagePull", 'Failed to pull image "%s": %s (no space left on device)',
     'Failed to pull image "vllm/vllm-openai:latest": rpc error: code = Unknown desc = failed to pull and unpack '
     'image "docker.io/vllm/vllm-openai:latest": failed to extract layer sha256:9f2c: write /var/lib/containerd/'
     "io.containerd.snapshotter.v1.overlayfs/snapshots/412/fs/usr/local/lib/python3.12/dist-packages/torch/lib/"
     "libtorch_cuda.so: no space left on device: unknown", "images/types.go"),
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
    ("eviction", "Evicted", "Evicted", "The node was low on resource: %v. (ephemeral-storage)",
     "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 8Gi. Container vllm "
     "was using 52Gi, request is 0, has larger consumption of ephemeral-storage.", "eviction/helpers.go"),
    ("eviction", "Evicted", "Evicted", "The node was low on resource: %v. (memory)",
     "The node was low on resource: memory. Threshold quantity: 100Mi, available: 62Mi. Container vllm was using "
     "58Gi, request is 16Gi, has larger consumption of memory.", "eviction/helpers.go"),
    ("eviction", "Evicted", "Evicted", "Container %s exceeded its local ephemeral storage limit %q.",
     'Container vllm exceeded its local ephemeral storage limit "20Gi". ', "eviction/helpers.go"),
    ("eviction", "Evicted", "Evicted", "Pod ephemeral local storage usage exceeds the total limit of containers %s.",
     "Pod ephemeral local storage usage exceeds the total limit of containers 20Gi. ", "eviction/helpers.go"),
    ("eviction", "Evicted", "Evicted", 'Usage of EmptyDir volume "%s" exceeds the limit "%s".',
     'Usage of EmptyDir volume "dshm" exceeds the limit "16Gi". ', "eviction/helpers.go"),
    ("eviction", "Evicted", "Evicted", "The node had condition: %v.",
     "The node had condition: [DiskPressure]. ", "eviction/helpers.go"),
    ("pod", "DeadlineExceeded", "DeadlineExceeded", "Pod was active on the node longer than the specified deadline",
     "Pod was active on the node longer than the specified deadline", "active_deadline.go"),
    ("pod", "SandboxChanged", None, "Pod sandbox changed, it will be killed and re-created.",
     "Pod sandbox changed, it will be killed and re-created.", "kuberuntime_manager.go"),
    ("pod", "FailedCreatePodSandBox", "ContainerCreating", "Failed to create pod sandbox: %v",
     'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime '
     'for "nvidia" is configured', "kuberuntime_manager.go"),
    ("volume", "FailedMount", "ContainerCreating",
     "MountVolume.SetUp failed for volume %q : %v",
     'MountVolume.SetUp failed for volume "models" : mount failed: exit status 32', "volumemanager"),
    ("volume", "FailedMount", "ContainerCreating",
     "Unable to attach or mount volumes: unmounted volumes=[%v], unattached volumes=[%v]: timed out waiting "
     "for the condition",
     "Unable to attach or mount volumes: unmounted volumes=[models], unattached volumes=[models dshm "
     "kube-api-access-7xk2p]: timed out waiting for the condition", "volumemanager"),
    ("volume", "FailedMount", "ContainerCreating", 'MountVolume.SetUp failed for volume %q : secret %q not found',
     'MountVolume.SetUp failed for volume "hf-token" : secret "hf-token" not found', "volumemanager"),
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
