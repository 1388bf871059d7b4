"""Harvest what Docker, Podman and the NVIDIA Container Toolkit print when an engine's container cannot start.

Why: a vLLM / llama.cpp user in a container often sees only the runtime's refusal (no GPU runtime, the
toolkit's nvidia-container-cli, CDI, a pull, a port, /dev/shm); doctor names it only if a family knows
the words. Source: Debian 12's packages docker.io 20.10.24+dfsg1-1+deb12u1+b6, podman 4.3.1+ds1-8+deb12u1+b3,
runc 1.1.5+ds1-1+deb12u1, crun 1.8.1-1+deb12u1 (`apt-get download`, unpacked into /tmp): each entry's anchor, a
literal piece of its format string, must be in the named binary or the harvest fails. The NVIDIA toolkit
is not packaged by Debian: its texts come from NVIDIA/libnvidia-container src/cli/configure.c (commit
09df17a2, `warnx("<class> error: %s")` printed as 'nvidia-container-cli: <class> error: ...') and the
wordings its issue tracker and docs quote; newer moby wordings (>= 23: 'unknown or invalid runtime name',
>= 25: 'CDI device injection failed') from moby/moby's daemon; registry texts from the distribution
error codes (TOOMANYREQUESTS) and Docker Hub's rate-limit reply. Those entries carry no anchor.
Run: python tools/harvest_container_errors.py [--root /tmp/ctrpkg/root] [--out benchmarks/data/container_errors.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "data" / "container_errors.json"
PACKAGES = ["docker.io", "podman", "runc", "crun"]
UP = "upstream source (not in Debian's binaries)"

# How each kind reaches the log a user pastes. docker CLI 20.10 (cli/command/container/run.go) prints a
# failed `docker run` as "docker: %v.\nSee 'docker run --help'." around the client's "Error response from
# daemon: %s"; `docker compose up` prints the daemon's error after "Error response from daemon: "; podman's
# main prints "Error: %s"; what the container itself prints reaches `docker logs` as is, and a vLLM worker's
# lines carry vLLM 0.32's "(Worker_TP1 pid=N) " prefix; the docker CLI prints its own connection errors bare.
FORMATS = [
    {"id": "docker-run", "kind": "daemon", "prefix": "",
     "template": "docker: Error response from daemon: {msg}.\nSee 'docker run --help'."},
    {"id": "compose", "kind": "daemon", "prefix": "",
     "template": "Error response from daemon: {msg}"},
    {"id": "podman", "kind": "podman", "prefix": "", "template": "Error: {msg}"},
    {"id": "cli", "kind": "cli", "prefix": "", "template": "{msg}"},
    {"id": "container-log", "kind": "inner", "prefix": "", "template": "{msg}"},
    {"id": "vllm-worker", "kind": "inner", "prefix": "(Worker_TP1 pid=4243) ", "template": "{msg}"},
]  # fmt: skip

# runc 1.1's wrapping of a failed prestart hook (libcontainer: 'runc create failed: unable to start container
# process: error during container init: error running hook #%d: %w'), as dockerd 20.10 reports it
HOOK = ("failed to create shim task: OCI runtime create failed: runc create failed: unable to start container "
        "process: error during container init: error running hook #0: error running hook: exit status 1, stdout: "
        ", stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: {inner}: unknown")  # fmt: skip
NVC = UP + ": NVIDIA/libnvidia-container src/cli/configure.c@09df17a2 ('{cls} error: %s')"

# id, layer, kind, message, source (binary under the Debian root, or UP...), anchor ('' for UP)
E = [
    ("gpu-driver-missing", "docker", "daemon", 'could not select device driver "" with capabilities: [[gpu]]',
     "usr/sbin/dockerd", "could not select device driver %q with capabilities: %v"),
    ("runtime-unknown", "docker", "daemon", "unknown or invalid runtime name: nvidia",
     UP + ": moby/moby daemon (>= 23) runtime lookup", ""),
    ("runtime-unknown-legacy", "docker", "daemon", "Unknown runtime specified nvidia",
     "usr/sbin/dockerd", "Unknown runtime specified %s"),
    ("port-allocated", "docker", "daemon", "driver failed programming external connectivity on endpoint vllm "
     "(3f2a9c): Bind for 0.0.0.0:8000 failed: port is already allocated",
     "usr/sbin/dockerd", "Bind for %s:%d failed: port is already allocated"),
    ("port-userland-proxy", "docker", "daemon", "driver failed programming external connectivity on endpoint vllm "
     "(3f2a9c): Error starting userland proxy: listen tcp4 0.0.0.0:8000: bind: address already in use",
     "usr/sbin/dockerd", "Error starting userland proxy"),
    ("pull-no-platform", "docker", "daemon", "no matching manifest for linux/arm64/v8 in the manifest list entries",
     "usr/sbin/dockerd", "no matching manifest for %s in the manifest list entries"),
    ("pull-manifest-unknown", "docker", "daemon", "manifest for vllm/vllm-openai:v0.99.0 not found: manifest "
     "unknown: manifest unknown", "usr/sbin/dockerd", "manifest for %s not found"),
    ("pull-access-denied", "docker", "daemon", "pull access denied for ggml-org/llama.cpp, repository does not "
     "exist or may require 'docker login': denied: requested access to the resource is denied",
     "usr/sbin/dockerd", "repository does not exist or may require 'docker login'"),
    ("pull-rate-limit", "docker", "daemon", "toomanyrequests: You have reached your pull rate limit. You may "
     "increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit",
     UP + ": distribution errcode TOOMANYREQUESTS + Docker Hub's reply text", ""),
    ("daemon-not-running", "docker", "cli", "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is "
     "the docker daemon running?", "usr/bin/docker", "Cannot connect to the Docker daemon at %s. Is the docker daemon "
     "running?"),
    ("daemon-socket-denied", "docker", "cli", "permission denied while trying to connect to the Docker daemon socket "
     "at unix:///var/run/docker.sock: Post \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/create\": dial unix "
     "/var/run/docker.sock: connect: permission denied", "usr/bin/docker",
     "permission denied while trying to connect to the Docker daemon socket at %v"),
    ("name-conflict", "docker", "daemon", 'Conflict. The container name "/vllm" is already in use by container '
     '"3f2a9c0d1e2b". You have to remove (or rename) that container to be able to reuse that name',
     "usr/sbin/dockerd", "is already in use by container %q. You have to remove (or rename) that container"),
    ("pull-no-space", "docker", "daemon", "failed to register layer: write /usr/local/lib/python3.12/dist-packages/"
     "torch/lib/libtorch_cuda.so: no space left on device", "usr/sbin/dockerd", "failed to register layer"),
    ("pull-unauthorized", "docker", "daemon", 'Head "https://nvcr.io/v2/nvidia/tritonserver/manifests/25.01-vllm-'
     'python-py3": unauthorized: authentication required', "usr/sbin/dockerd", "authentication required"),
    ("pull-timeout", "docker", "daemon", 'Get "https://registry-1.docker.io/v2/": net/http: request canceled while '
     "waiting for connection (Client.Timeout exceeded while awaiting headers)", "usr/sbin/dockerd",
     "Client.Timeout exceeded while awaiting headers"),
    ("hook-missing", "docker", "daemon", "failed to create shim task: OCI runtime create failed: runc create "
     "failed: unable to start container process: error during container init: error running hook #0: fork/exec "
     "/usr/bin/nvidia-container-runtime-hook: no such file or directory: unknown",
     "usr/sbin/runc", "error running hook #%d: %w"),
    ("cdi-unresolvable-docker", "cdi", "daemon", "CDI device injection failed: unresolvable CDI devices "
     "nvidia.com/gpu=all", UP + ": moby/moby daemon (>= 25) oci CDI injection", ""),
    ("nvc-load-nvml", "nvidia-container-cli", "daemon", HOOK.format(inner="initialization error: load library "
     "failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory"),
     NVC.format(cls="initialization"), ""),
    ("nvc-init-driver-not-loaded", "nvidia-container-cli", "daemon",
     HOOK.format(inner="initialization error: nvml error: driver not loaded"), NVC.format(cls="initialization"), ""),
    ("nvc-init-version-mismatch", "nvidia-container-cli", "daemon",
     HOOK.format(inner="initialization error: nvml error: driver/library version mismatch"),
     NVC.format(cls="initialization"), ""),
    ("nvc-init-rpc-timeout", "nvidia-container-cli", "daemon",
     HOOK.format(inner="initialization error: driver rpc error: timed out"), NVC.format(cls="initialization"), ""),
    ("nvc-container-cgroup-v2", "nvidia-container-cli", "daemon",
     HOOK.format(inner="container error: cgroup subsystem devices not found"), NVC.format(cls="container"), ""),
    ("podman-crun-hook-failed", "podman", "podman", "OCI runtime error: crun: error executing hook "
     "`/usr/bin/nvidia-container-runtime-hook` (exit code: 1)", "usr/bin/crun",
     "error executing hook `%s` (exit code: %d)"),
    ("nvc-requirement", "nvidia-container-cli", "daemon", HOOK.format(inner="requirement error: unsatisfied "
     "condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container"),
     NVC.format(cls="requirement"), ""),
    ("nvc-detection-unknown", "nvidia-container-cli", "daemon",
     HOOK.format(inner="detection error: nvml error: unknown error"), NVC.format(cls="detection"), ""),
    ("nvc-device-unknown", "nvidia-container-cli", "daemon", HOOK.format(inner="device error: 3: unknown device"),
     NVC.format(cls="device"), ""),
    ("nvc-mount-file-exists", "nvidia-container-cli", "daemon", HOOK.format(inner="mount error: file creation "
     "failed: /var/lib/docker/overlay2/9c1e/merged/usr/bin/nvidia-smi: file exists"), NVC.format(cls="mount"), ""),
    ("nvc-mount-cgroup-rules", "nvidia-container-cli", "daemon", HOOK.format(inner="mount error: failed to add "
     "device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query("
     "BPF_CGROUP_DEVICE) failed: operation not permitted"), NVC.format(cls="mount"), ""),
    ("nvc-ldcache", "nvidia-container-cli", "daemon", HOOK.format(inner="ldcache error: open failed: "
     "/sbin/ldconfig.real: no such file or directory"), NVC.format(cls="ldcache"), ""),
    ("podman-cdi-unresolvable", "cdi", "podman", "setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
     "usr/bin/podman", "unresolvable CDI devices %s"),
    ("podman-port-in-use", "podman", "podman", "cannot listen on the TCP port: listen tcp4 :8000: bind: address "
     "already in use", "usr/bin/podman", "cannot listen on the TCP port: %w"),
    ("podman-manifest-unknown", "podman", "podman", "initializing source docker://ghcr.io/ggml-org/llama.cpp:server-"
     "cuda-b99999: reading manifest server-cuda-b99999 in ghcr.io/ggml-org/llama.cpp: manifest unknown",
     "usr/bin/podman", "reading manifest %s in %s"),
    ("podman-no-platform", "podman", "podman", "choosing an image from manifest list docker://docker.io/vllm/"
     "vllm-openai:latest: no image found in manifest list for architecture arm64, variant \"v8\", OS linux",
     "usr/bin/podman", "no image found in manifest list for architecture %s, variant %q, OS %s"),
    ("podman-rate-limit", "podman", "podman", "initializing source docker://vllm/vllm-openai:latest: reading manifest "
     "latest in docker.io/vllm/vllm-openai: toomanyrequests: You have reached your pull rate limit. You may increase "
     "the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit",
     "usr/bin/podman", "initializing source %s"),
    ("exec-format", "inside", "inner", "exec /usr/bin/python3: exec format error", "usr/sbin/runc",
     "exec format error"),
    ("crun-exec-format", "inside", "inner", '{"msg":"exec container process `/usr/bin/llama-server`: Exec format '
     'error","level":"error","time":"2026-12-03T20:41:07.000000Z"}', "usr/bin/crun", "exec container process `%s`"),
    ("nvml-unknown-error", "inside", "inner", "Failed to initialize NVML: Unknown Error",
     UP + ": NVML's nvmlErrorString(NVML_ERROR_UNKNOWN) as nvidia-smi prints it (nvidia-container-toolkit #48)", ""),
    ("nccl-shm-create", "inside", "inner", "NCCL WARN Error while creating shared memory segment "
     "/dev/shm/nccl-3Lc9Qx (size 9637888)", UP + ": NCCL src/misc/shmutils.cc", ""),
    ("nccl-shm-extend", "inside", "inner", "NCCL WARN Error: failed to extend /dev/shm/nccl-3Lc9Qx to 9637892 bytes",
     UP + ": NCCL src/misc/shmutils.cc", ""),
    ("bus-error-shm", "inside", "inner", "ERROR: Unexpected bus error encountered in worker. This might be caused by "
     "insufficient shared memory (shm).", UP + ": torch/csrc/DataLoader.cpp SIGBUS handler", ""),
]  # fmt: skip


def debian_root(root: Path) -> Path:
    """The unpacked Debian packages: downloaded and unpacked into /tmp unless already there (no daemon needed)."""
    if (root / "usr/sbin/dockerd").exists():
        return root
    work = root.parent
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=work, check=True)
    for deb in sorted(work.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def versions(root: Path) -> list[str]:
    """The versions of PACKAGES as their .deb file names carry them (other .deb files beside them are not sources)."""
    debs = (d.name.removesuffix("_amd64.deb").split("_") for d in sorted(root.parent.glob("*.deb")))
    return [f"{name} {version}" for name, version in debs if name in PACKAGES]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("/tmp/ctrpkg/root"))
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    root = debian_root(a.root)
    entries = []
    for eid, layer, kind, msg, where, anchor in E:
        if anchor and anchor.encode() not in (root / where).read_bytes():
            raise SystemExit(f"anchor not found in {where}: {anchor!r}")
        entries.append({"id": eid, "layer": layer, "kind": kind, "message": msg, "source": where})
    doc = {
        "about": "What Docker, Podman and the NVIDIA Container Toolkit print when an engine's container cannot "
        "start or loses its GPU (for benchmarks/doctor_coverage_container_errors.py); made by "
        "tools/harvest_container_errors.py.",
        "sources": [
            *versions(root),
            "NVIDIA/libnvidia-container src/cli/configure.c@09df17a2",
            "moby/moby daemon",
        ],
        "formats": FORMATS,
        "entries": entries,
    }
    a.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(entries)} entries from {', '.join(doc['sources'])} -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
