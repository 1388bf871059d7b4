"""Kubernetes manifests for a spec: a LeaderWorkerSet per multi-node model, a Deployment per one-node model,
and a Service for each model's API.

What each node runs is deploy/node_argv.py's command, moved into a container: the engine listens on
0.0.0.0 (the Service and the probes reach it through the pod network), the venv's python becomes the
image's, the checkpoint becomes its path in the model volume, and on LWS workers the head's address
and the node rank become `$(LWS_LEADER_ADDRESS)` and `$(LWS_WORKER_INDEX)`, which the LWS controller
injects into every container and the kubelet expands. Kubernetes also expands `$(NAME)` in any
command, argument or env value, so every `$` that comes from the spec is written `$$` (its escape)
and only servebox's own references stay live. Ray's head runs `ray start --head` and then the engine
in one leader container (a POSIX shell line built with shlex quoting).

GPUs per pod are derived: tensor x pipeline x data parallel sizes over the nodes; memory comes from
the spec (kubernetes.memory_gib or the model's memory_max_gib). The startup probe allows 1.5x the
declared cold start (the router's own default margin); /dev/shm is an emptyDir of medium Memory.
"""

from __future__ import annotations

import hashlib
import math
import re
import shlex
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from servebox.deploy.node_argv import NodeCommand, node_commands
from servebox.deploy.spec import Kubernetes, Model, Spec
from servebox.errors import InputError

LWS_API = "leaderworkerset.x-k8s.io/v1"
NAME_LABEL = "app.kubernetes.io/name"
ROLE_LABEL = "app.kubernetes.io/component"
PROBE_PERIOD_S = 10
STARTUP_MARGIN = 1.5  # x cold_start_s, as the router's health_check_timeout default
CACHE_MOUNT = "/var/cache/servebox"
LEADER_ADDRESS = "$(LWS_LEADER_ADDRESS)"
WORKER_INDEX = "$(LWS_WORKER_INDEX)"


def k8s_name(model: Model) -> str:
    """A DNS-1035 label (a Service name starts with a letter) short enough for LWS's pod names."""
    slug = re.sub(r"[^a-z0-9-]+", "-", model.name.lower()).strip("-")
    name = f"servebox-{slug}"
    if slug != model.name or len(name) > 40:
        digest = hashlib.sha256(model.name.encode()).hexdigest()[:8]
        name = f"{name[:31].rstrip('-')}-{digest}"
    return name


def escape(value: str) -> str:
    """A spec value as Kubernetes reads it literally: `$(X)` is a reference, `$$` a dollar."""
    return value.replace("$", "$$")


def render_manifests(spec: Spec, source: str = "spec") -> dict[str, str]:
    """{kubernetes/NAME.yaml: the model's documents} for every model of SPEC."""
    if spec.kubernetes is None:
        raise InputError(source, "kubernetes", "add a [kubernetes] table (image, namespace, model storage)")
    files = {}
    for model in spec.models:
        docs = model_manifests(spec, spec.kubernetes, model, source)
        header = f"# servebox: {model.name} ({model.engine}) for Kubernetes; apply with kubectl apply -f\n"
        files[f"kubernetes/{k8s_name(model)}.yaml"] = header + yaml.dump_all(
            docs, Dumper=_PlainDumper, sort_keys=False, default_flow_style=False, width=1000
        )
    return files


class _PlainDumper(yaml.SafeDumper):
    """Safe YAML without anchors: a volume shared by two templates is written out twice, as kubectl expects."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def apply_steps(files: dict[str, str], out: Path) -> list[str]:
    steps = []
    if any(f"apiVersion: {LWS_API}" in text for text in files.values()):
        steps.append(
            "# LeaderWorkerSet needs its controller and CRD installed in the cluster (kubernetes-sigs/lws)"
        )
    return steps + [f"kubectl apply -f {out}/kubernetes/"]


def model_manifests(spec: Spec, k: Kubernetes, model: Model, source: str) -> list[dict[str, Any]]:
    where = f"models[{model.name}]"
    nodes = node_commands(spec, model)
    if len(nodes) > 1 and model.engine != "vllm":
        raise InputError(source, f"{where}.nodes", "only vLLM runs across nodes; llama.cpp runs on one")
    storage = _storage(k, model, source)
    pod = _PodParts(spec, k, model, storage, _gpus_per_node(model, len(nodes), source, where), source)
    name = k8s_name(model)
    if len(nodes) == 1:
        workload = _deployment(
            k, name, pod.template(_container_argv(nodes[0], k, model, storage), True, "server")
        )
    else:
        leader = pod.template(_container_argv(nodes[0], k, model, storage), True, "leader")
        worker = pod.template(_container_argv(nodes[1], k, model, storage), False, "worker")
        workload = _leaderworkerset(k, name, len(nodes), leader, worker)
    return [workload, _service(k, name, model, leader=len(nodes) > 1)]


def _gpus_per_node(model: Model, nodes: int, source: str, where: str) -> int:
    """Derived: vLLM needs TP x PP x DP GPUs, split evenly over the nodes; llama.cpp its listed GPUs."""
    if model.engine != "vllm":
        return max(1, len(model.gpus))
    world = 1
    for flag in ("tensor-parallel-size", "pipeline-parallel-size", "data-parallel-size"):
        value = model.flags.get(flag, 1)
        if type(value) is not int or not 1 <= value <= 4096:
            raise InputError(source, f"{where}.flags.{flag}", f"must be an integer 1-4096, got {value!r:.40}")
        world *= value
    if world % nodes:
        raise InputError(source, f"{where}.nodes", f"{world} GPUs do not split evenly over {nodes} nodes")
    return world // nodes


class _Storage:
    """Where the checkpoint is inside the pod and the volume and init container that put it there."""

    def __init__(self, path: str, volume: dict[str, Any], read_only: bool, init: dict[str, Any] | None):
        self.path, self.volume, self.read_only, self.init = path, volume, read_only, init


def _storage(k: Kubernetes, model: Model, source: str) -> _Storage:
    mount = PurePosixPath(k.model_mount)
    claim = {"persistentVolumeClaim": {"claimName": k.model_pvc}} if k.model_pvc else None
    if model.checkpoint.startswith("/"):
        if claim is None:
            raise InputError(
                source,
                "kubernetes.model_pvc",
                f"{model.name}'s checkpoint is a path: name the PVC that holds it",
            )
        if (
            not PurePosixPath(model.checkpoint).is_relative_to(mount)
            or ".." in PurePosixPath(model.checkpoint).parts
        ):
            raise InputError(
                source,
                f"models[{model.name}].checkpoint",
                f"is not under kubernetes.model_mount {mount}: the pod sees only that volume",
            )
        read_only_claim = {"persistentVolumeClaim": {"claimName": k.model_pvc, "readOnly": True}}
        return _Storage(model.checkpoint, {"name": "model", **read_only_claim}, True, None)
    if k.fetch_image is None:
        raise InputError(
            source,
            "kubernetes.fetch_image",
            f"{model.name}'s checkpoint is a hub id: name an image with servebox to fetch it",
        )
    path = str(mount / model.checkpoint.split("@", 1)[0])
    init = {
        "name": "fetch-model",
        "image": k.fetch_image,
        "command": ["servebox", "fetch-model", escape(model.checkpoint), "--dir", escape(path)],
        "volumeMounts": [{"name": "model", "mountPath": str(mount)}],
        "securityContext": _security_context(),
    }
    return _Storage(path, {"name": "model", **(claim or {"emptyDir": {}})}, False, init)


def _container_argv(node: NodeCommand, k: Kubernetes, model: Model, storage: _Storage) -> list[str]:
    """NODE's commands as one container's argv (see the module docstring)."""
    commands = [_in_container(argv, k, model, storage, node.head) for argv in node.commands]
    if len(commands) == 1:
        return commands[0]
    # Ray's head: start the head (without --block), then the engine in its place.
    return ["/bin/sh", "-c", " && exec ".join(shlex.join(argv) for argv in commands)]


def _in_container(argv: list[str], k: Kubernetes, model: Model, storage: _Storage, head: bool) -> list[str]:
    if argv[1:2] == ["start"]:  # ray start ...
        return _ray_in_container(argv, head)
    out = [escape(a) for a in argv]
    out[0] = k.python if model.engine == "vllm" else escape(argv[0])
    model_flag = "--model" if model.engine == "vllm" else "-m"  # vLLM's argv has python's own -m
    replace = {"--host": "0.0.0.0", model_flag: escape(storage.path), "--master-addr": LEADER_ADDRESS}
    if not head:
        replace["--node-rank"] = WORKER_INDEX
    for i, word in enumerate(argv[:-1]):
        if word in replace:
            out[i + 1] = replace[word]
    return out


def _ray_in_container(argv: list[str], head: bool) -> list[str]:
    out = ["ray"] + [escape(a) for a in argv[1:] if not (head and a == "--block")]
    if not head and "--address" in argv:
        i = argv.index("--address")
        out[i + 1] = f"{LEADER_ADDRESS}:{argv[i + 1].rsplit(':', 1)[1]}"
    return out


class _PodParts:
    """The parts every pod of MODEL shares: image, resources, volumes, environment."""

    def __init__(self, spec: Spec, k: Kubernetes, model: Model, storage: _Storage, gpus: int, source: str):
        self.k, self.model, self.storage, self.gpus = k, model, storage, gpus
        self.image = k.image if model.engine == "vllm" else k.llama_cpp_image
        if self.image is None:
            field = "image" if model.engine == "vllm" else "llama_cpp_image"
            raise InputError(
                source, f"kubernetes.{field}", f"{model.name} ({model.engine}) needs its container image"
            )
        memory = k.memory_gib or model.memory_max_gib
        if memory is None:
            raise InputError(
                source,
                "kubernetes.memory_gib",
                f"set it or models[{model.name}].memory_max_gib: each pod's memory",
            )
        self.memory = f"{math.ceil(memory * 1024)}Mi"

    def template(self, argv: list[str], serves_api: bool, role: str) -> dict[str, Any]:
        limits = {"nvidia.com/gpu": self.gpus, "memory": self.memory}
        container: dict[str, Any] = {
            "name": "engine",
            "image": self.image,
            "command": argv[:1],
            "args": argv[1:],
            "env": self._env(),
            "resources": {"limits": limits, "requests": dict(limits)},
            "volumeMounts": [
                {"name": "model", "mountPath": self.k.model_mount, "readOnly": self.storage.read_only},
                {"name": "dshm", "mountPath": "/dev/shm"},
                {"name": "cache", "mountPath": CACHE_MOUNT},
            ],
            "securityContext": _security_context(),
        }
        if serves_api:
            container["ports"] = [{"name": "http", "containerPort": self.model.port, "protocol": "TCP"}]
            container.update(self._probes())
        spec: dict[str, Any] = {
            "containers": [container],
            "volumes": [
                self.storage.volume,
                {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": f"{self.k.shm_gib:g}Gi"}},
                {"name": "cache", "emptyDir": {}},
            ],
        }
        if self.storage.init:
            spec["initContainers"] = [self.storage.init]
        labels = {NAME_LABEL: k8s_name(self.model), ROLE_LABEL: role}
        return {"metadata": {"labels": labels}, "spec": spec}

    def _env(self) -> list[dict[str, str]]:
        env = {
            "HOME": CACHE_MOUNT,
            "XDG_CACHE_HOME": CACHE_MOUNT,
            "HF_HUB_OFFLINE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            **{key: escape(value) for key, value in self.model.env.items()},
        }
        return [{"name": key, "value": value} for key, value in env.items()]

    def _probes(self) -> dict[str, Any]:
        def http(period: int, failures: int, timeout: int) -> dict[str, Any]:
            return {
                "httpGet": {"path": "/health", "port": "http"},
                "periodSeconds": period,
                "failureThreshold": failures,
                "timeoutSeconds": timeout,
            }

        budget_s = self.model.cold_start_s * STARTUP_MARGIN
        return {
            "startupProbe": http(PROBE_PERIOD_S, max(1, math.ceil(budget_s / PROBE_PERIOD_S)), 5),
            "readinessProbe": http(PROBE_PERIOD_S, 3, 5),
            "livenessProbe": http(30, 3, 10),
        }


def _security_context() -> dict[str, Any]:
    """No privilege escalation, no capabilities, the runtime's seccomp profile (no W^X: JIT engines)."""
    return {
        "allowPrivilegeEscalation": False,
        "capabilities": {"drop": ["ALL"]},
        "seccompProfile": {"type": "RuntimeDefault"},
    }


def _metadata(k: Kubernetes, name: str) -> dict[str, Any]:
    return {
        "name": name,
        "namespace": k.namespace,
        "labels": {NAME_LABEL: name, "app.kubernetes.io/managed-by": "servebox"},
    }


def _deployment(k: Kubernetes, name: str, template: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _metadata(k, name),
        "spec": {
            "replicas": 1,
            "strategy": {"type": "Recreate"},  # a rolling update would need a second set of GPUs
            "selector": {"matchLabels": {NAME_LABEL: name}},
            "template": template,
        },
    }


def _leaderworkerset(k: Kubernetes, name: str, size: int, leader: dict, worker: dict) -> dict[str, Any]:
    return {
        "apiVersion": LWS_API,
        "kind": "LeaderWorkerSet",
        "metadata": _metadata(k, name),
        "spec": {
            "replicas": 1,
            "startupPolicy": "LeaderCreated",
            "leaderWorkerTemplate": {
                "size": size,
                "restartPolicy": "RecreateGroupOnPodRestart",  # a lost node breaks the engine's process group
                "leaderTemplate": leader,
                "workerTemplate": worker,
            },
        },
    }


def _service(k: Kubernetes, name: str, model: Model, leader: bool) -> dict[str, Any]:
    selector = {NAME_LABEL: name, ROLE_LABEL: "leader" if leader else "server"}
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": _metadata(k, name),
        "spec": {
            "type": k.service_type,
            "selector": selector,
            "ports": [{"name": "http", "port": model.port, "targetPort": "http", "protocol": "TCP"}],
        },
    }
