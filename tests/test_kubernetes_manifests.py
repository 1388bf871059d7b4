"""servebox render --kubernetes (issue 16 part 2b). Deployments, Services and the LeaderWorkerSet's pod
templates (wrapped as core/v1 PodTemplates) are validated with kubernetes-validate's offline schemas in
strict mode (unknown fields are errors). The LeaderWorkerSet itself is a CRD those schemas do not carry:
its top level is checked against `LWSv1` below, a pydantic model written by hand from the LWS v1 API
documentation (kubernetes-sigs/lws api/leaderworkerset/v1/leaderworkerset_types.go: LeaderWorkerSetSpec,
LeaderWorkerTemplate, RolloutStrategy, NetworkConfig); no schema file is fetched or committed."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field

from servebox.deploy.kubernetes import render_manifests
from servebox.deploy.spec import load_spec

kv = pytest.importorskip("kubernetes_validate.utils", reason="kubernetes-validate (test extra) not installed")
K8S_VERSION = "1.31"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class LWSMetadata(_Strict):
    name: str = Field(pattern=r"^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$")
    namespace: str
    labels: dict[str, str] = {}


class LWSTemplate(_Strict):
    """LeaderWorkerTemplate: the pod templates themselves are validated as core/v1 PodTemplateSpec."""

    leaderTemplate: dict[str, Any] | None = None  # noqa: N815 - the API's own names
    workerTemplate: dict[str, Any]  # noqa: N815
    size: int = Field(1, ge=1)
    restartPolicy: Literal["Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None"] = (  # noqa: N815
        "RecreateGroupOnPodRestart"
    )
    subGroupPolicy: dict[str, Any] | None = None  # noqa: N815
    volumeClaimTemplates: list[dict[str, Any]] = []  # noqa: N815


class LWSRollout(_Strict):
    type: Literal["RollingUpdate"] = "RollingUpdate"
    rollingUpdateConfiguration: dict[str, Any] | None = None  # noqa: N815


class LWSNetwork(_Strict):
    subdomainPolicy: Literal["Shared", "UniquePerReplica"]  # noqa: N815


class LWSSpec(_Strict):
    replicas: int = Field(1, ge=0)
    leaderWorkerTemplate: LWSTemplate  # noqa: N815
    rolloutStrategy: LWSRollout | None = None  # noqa: N815
    startupPolicy: Literal["LeaderCreated", "LeaderReady"] = "LeaderCreated"  # noqa: N815
    networkConfig: LWSNetwork | None = None  # noqa: N815


class LWSv1(_Strict):
    apiVersion: Literal["leaderworkerset.x-k8s.io/v1"]  # noqa: N815
    kind: Literal["LeaderWorkerSet"]
    metadata: LWSMetadata
    spec: LWSSpec


def spec_toml(backend: str = "mp", kubernetes: str = "", small_flags: str = "") -> str:
    table = (
        kubernetes
        or """
[kubernetes]
image = "vllm/vllm-openai:v0.32.0"
namespace = "llm"
model_pvc = "models"
model_mount = "/var/lib/models"
"""
    )
    return f"""
[[hosts]]
name = "gpu-a"
address = "10.0.0.11"
gpus = ["h100-80gb", "h100-80gb", "h100-80gb", "h100-80gb"]

[[hosts]]
name = "gpu-b"
address = "10.0.0.12"
gpus = ["h100-80gb", "h100-80gb", "h100-80gb", "h100-80gb"]

[[models]]
name = "llama-70b"
checkpoint = "/var/lib/models/llama-70b"
port = 18430
nodes = ["gpu-a", "gpu-b"]
multi_node_backend = "{backend}"
master_port = 18431
cold_start_s = 600
memory_max_gib = 200

[models.flags]
tensor-parallel-size = 4
pipeline-parallel-size = 2

[[models]]
name = "Small_Model.v2"
checkpoint = "/var/lib/models/small"
port = 18440
cold_start_s = 120
memory_max_gib = 24.5
{small_flags}
{table}
"""


def render(tmp_path: Path, text: str) -> dict[str, list[dict[str, Any]]]:
    path = tmp_path / "spec.toml"
    path.write_text(text)
    files = render_manifests(load_spec(path), str(path))
    return {name: list(yaml.safe_load_all(body)) for name, body in files.items()}


def pod_template(template: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "t"}, "template": template}


def validate_all(docs: list[dict[str, Any]]) -> None:
    for doc in docs:
        if doc["kind"] == "LeaderWorkerSet":
            lws = LWSv1.model_validate(doc)
            templates = [
                lws.spec.leaderWorkerTemplate.leaderTemplate,
                lws.spec.leaderWorkerTemplate.workerTemplate,
            ]
            for template in templates:
                kv.validate(pod_template(template), K8S_VERSION, strict=True)
        else:
            kv.validate(doc, K8S_VERSION, strict=True)


def engine(template: dict[str, Any]) -> dict[str, Any]:
    return template["spec"]["containers"][0]


@pytest.mark.parametrize("backend", ["mp", "ray"])
def test_every_manifest_passes_the_schemas(tmp_path, backend):
    rendered = render(tmp_path, spec_toml(backend))
    assert len(rendered) == 2 and "kubernetes/servebox-llama-70b.yaml" in rendered
    kinds = sorted(doc["kind"] for docs in rendered.values() for doc in docs)
    assert kinds == ["Deployment", "LeaderWorkerSet", "Service", "Service"]
    for docs in rendered.values():
        validate_all(docs)


def test_the_validators_do_reject(tmp_path):
    """The checks above could fail: a wrong field is refused by each of them."""
    lws, service = render(tmp_path, spec_toml())["kubernetes/servebox-llama-70b.yaml"]
    service["spec"]["bogus"] = 1
    with pytest.raises(kv.ValidationError):
        kv.validate(service, K8S_VERSION, strict=True)
    lws["spec"]["leaderWorkerTemplate"]["size"] = 0
    with pytest.raises(ValueError):
        LWSv1.model_validate(lws)
    worker = lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]
    engine(worker)["resources"]["limits"]["nvidia.com/gpu"] = [2]
    with pytest.raises(kv.ValidationError):
        kv.validate(pod_template(worker), K8S_VERSION, strict=True)


def test_leaderworkerset_for_a_two_node_model(tmp_path):
    lws, service = render(tmp_path, spec_toml("mp"))["kubernetes/servebox-llama-70b.yaml"]
    group = lws["spec"]["leaderWorkerTemplate"]
    assert group["size"] == 2 and lws["metadata"]["namespace"] == "llm"
    leader, worker = engine(group["leaderTemplate"]), engine(group["workerTemplate"])
    for container in (leader, worker):
        # derived: TP 4 x PP 2 = 8 GPUs over 2 nodes
        assert container["resources"]["limits"] == {"nvidia.com/gpu": 4, "memory": "204800Mi"}
        assert container["resources"]["requests"] == container["resources"]["limits"]
        assert {"name": "dshm", "mountPath": "/dev/shm"} in container["volumeMounts"]
        argv = container["command"] + container["args"]
        assert argv[argv.index("--master-addr") + 1] == "$(LWS_LEADER_ADDRESS)"
        assert argv[argv.index("--host") + 1] == "0.0.0.0"
        assert argv[argv.index("--model") + 1] == "/var/lib/models/llama-70b"
        assert argv[0] == "python3" and "--disable-uvicorn-access-log" in argv
    leader_argv, worker_argv = leader["command"] + leader["args"], worker["command"] + worker["args"]
    assert "--headless" not in leader_argv and worker_argv[-1] == "--headless"
    assert worker_argv[worker_argv.index("--node-rank") + 1] == "$(LWS_WORKER_INDEX)"
    assert leader_argv[leader_argv.index("--node-rank") + 1] == "0"
    start = leader["startupProbe"]
    assert start["httpGet"] == {"path": "/health", "port": "http"}
    assert start["periodSeconds"] * start["failureThreshold"] >= 600 * 1.5  # derived from cold_start_s
    assert leader["readinessProbe"]["httpGet"]["path"] == "/health" and "livenessProbe" in leader
    assert "startupProbe" not in worker and "ports" not in worker  # a headless node serves no API
    volumes = {v["name"]: v for v in group["leaderTemplate"]["spec"]["volumes"]}
    assert volumes["dshm"]["emptyDir"]["medium"] == "Memory"
    assert volumes["model"]["persistentVolumeClaim"] == {"claimName": "models", "readOnly": True}
    assert service["spec"]["selector"]["app.kubernetes.io/component"] == "leader"
    assert group["leaderTemplate"]["metadata"]["labels"]["app.kubernetes.io/component"] == "leader"
    assert service["spec"]["ports"][0]["port"] == 18430


def test_ray_leader_starts_the_head_then_the_engine(tmp_path):
    lws, _ = render(tmp_path, spec_toml("ray"))["kubernetes/servebox-llama-70b.yaml"]
    group = lws["spec"]["leaderWorkerTemplate"]
    leader, worker = engine(group["leaderTemplate"]), engine(group["workerTemplate"])
    assert leader["command"] == ["/bin/sh"] and leader["args"][0] == "-c"
    head, engine_line = leader["args"][1].split(" && exec ")
    assert shlex.split(head) == ["ray", "start", "--head", "--port", "18431"]
    assert shlex.split(engine_line)[-2:] == ["--distributed-executor-backend", "ray"]
    assert worker["command"] + worker["args"] == [
        "ray",
        "start",
        "--address",
        "$(LWS_LEADER_ADDRESS):18431",
        "--block",
    ]


def test_deployment_for_a_one_node_model(tmp_path):
    rendered = render(tmp_path, spec_toml())
    name = next(n for n in rendered if "small" in n)
    deployment, service = rendered[name]
    assert deployment["kind"] == "Deployment" and deployment["spec"]["strategy"] == {"type": "Recreate"}
    assert deployment["metadata"]["name"].startswith("servebox-small-model-v2-")  # a DNS label
    container = engine(deployment["spec"]["template"])
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 1, "memory": "25088Mi"}
    argv = container["command"] + container["args"]
    assert "--nnodes" not in argv and argv[argv.index("--port") + 1] == "18440"
    start = container["startupProbe"]
    assert start["periodSeconds"] * start["failureThreshold"] >= 120 * 1.5
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"] | {
        "app.kubernetes.io/component": "server"
    }


def test_hub_checkpoint_is_fetched_by_an_init_container(tmp_path):
    table = """
[kubernetes]
image = "vllm/vllm-openai:v0.32.0"
fetch_image = "registry.example:5000/servebox:0.1"
"""
    text = spec_toml(kubernetes=table).replace(
        'checkpoint = "/var/lib/models/small"', 'checkpoint = "Qwen/Qwen3-0.6B"'
    )
    text = text.replace('checkpoint = "/var/lib/models/llama-70b"', 'checkpoint = "meta-llama/Llama-3.3-70B"')
    rendered = render(tmp_path, text)
    lws = rendered["kubernetes/servebox-llama-70b.yaml"][0]
    for template in lws["spec"]["leaderWorkerTemplate"].values():
        if not isinstance(template, dict):
            continue
        init = template["spec"]["initContainers"][0]
        assert init["command"] == [
            "servebox",
            "fetch-model",
            "meta-llama/Llama-3.3-70B",
            "--dir",
            "/models/meta-llama/Llama-3.3-70B",
        ]
        assert {"name": "model", "emptyDir": {}} in template["spec"]["volumes"]
        argv = engine(template)["args"]
        assert argv[argv.index("--model") + 1] == "/models/meta-llama/Llama-3.3-70B"
    for docs in rendered.values():
        validate_all(docs)


def test_a_dollar_from_the_spec_is_never_a_kubernetes_reference(tmp_path):
    flags = '[models.flags]\napi-key = "$(SECRET_TOKEN)"\n\n[models.env]\nGREETING = "$(HOME)"\n'
    rendered = render(tmp_path, spec_toml(small_flags=flags))
    deployment, _ = next(docs for name, docs in rendered.items() if "small" in name)
    container = engine(deployment["spec"]["template"])
    assert "$$(SECRET_TOKEN)" in container["args"] and "$(SECRET_TOKEN)" not in container["args"]
    assert {"name": "GREETING", "value": "$$(HOME)"} in container["env"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            lambda t: t.replace('image = "vllm/vllm-openai:v0.32.0"', 'image = "vllm/x:1 --privileged"'),
            "kubernetes.image",
        ),
        (
            lambda t: t.replace('image = "vllm/vllm-openai:v0.32.0"', 'image = "vllm/x:1\\nkind: Pod"'),
            "kubernetes.image",
        ),
        (lambda t: t.replace('namespace = "llm"', 'namespace = "kube-system\\n---"'), "kubernetes.namespace"),
        (lambda t: t.replace('namespace = "llm"', 'namespace = "Bad_NS"'), "kubernetes.namespace"),
        (lambda t: t.replace('model_pvc = "models"', 'model_pvc = "../models"'), "kubernetes.model_pvc"),
        (
            lambda t: t.replace('model_mount = "/var/lib/models"', 'model_mount = "/srv"'),
            "models[llama-70b].checkpoint",
        ),
        (lambda t: t.replace('model_pvc = "models"\n', ""), "kubernetes.model_pvc"),
        (lambda t: t[: t.index("[kubernetes]")], "kubernetes"),
        (lambda t: t.replace("memory_max_gib = 24.5", ""), "kubernetes.memory_gib"),
        (
            lambda t: t.replace(
                "tensor-parallel-size = 4\npipeline-parallel-size = 2", "tensor-parallel-size = 3"
            ),
            "models[llama-70b].nodes",
        ),
    ],
    ids=[
        "image-flag",
        "image-newline",
        "namespace-newline",
        "namespace-case",
        "pvc",
        "outside-mount",
        "no-pvc",
        "no-table",
        "no-memory",
        "uneven",
    ],
)
def test_bad_kubernetes_input_is_one_line_exit_2(run_cli, tmp_path, change, field):
    spec = tmp_path / "spec.toml"
    spec.write_text(change(spec_toml()))
    out = tmp_path / "out"
    r = run_cli("render", spec, "--kubernetes", "--out", out)
    assert r.code == 2, r.out
    line = r.err.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line and field in line, line
    assert not out.exists()


def test_cli_writes_the_manifests_and_the_apply_step(run_cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_toml())
    r = run_cli("render", spec, "--kubernetes", "--out", tmp_path / "k", "--json")
    assert r.code == 0, r.err
    assert r.json()["install"][-1] == f"kubectl apply -f {tmp_path / 'k'}/kubernetes/"
    text = (tmp_path / "k/kubernetes/servebox-llama-70b.yaml").read_text()
    assert "&id" not in text and "*id" not in text  # no YAML anchors: each template stands alone


def test_a_llama_cpp_model_gets_its_own_image_and_argv(run_cli, tmp_path):
    gguf = """
[[models]]
name = "gemma"
checkpoint = "/var/lib/models/gemma.gguf"
engine = "llama.cpp"
binary = "/app/llama-server"
port = 18450
gpus = [0, 1]
memory_max_gib = 16
"""
    text = spec_toml().replace("[kubernetes]", gguf + "\n[kubernetes]")
    spec = tmp_path / "spec.toml"
    spec.write_text(text)
    r = run_cli("render", spec, "--kubernetes", "--out", tmp_path / "k")
    assert r.code == 2 and "kubernetes.llama_cpp_image" in r.err  # no image for llama.cpp yet
    text = text.replace(
        'namespace = "llm"', 'namespace = "llm"\nllama_cpp_image = "ghcr.io/ggml-org/llama.cpp:server"'
    )
    deployment, service = render(tmp_path, text)["kubernetes/servebox-gemma.yaml"]
    container = engine(deployment["spec"]["template"])
    argv = container["command"] + container["args"]
    assert container["image"] == "ghcr.io/ggml-org/llama.cpp:server" and argv[0] == "/app/llama-server"
    assert (
        argv[argv.index("-m") + 1] == "/var/lib/models/gemma.gguf"
        and argv[argv.index("--host") + 1] == "0.0.0.0"
    )
    assert container["resources"]["limits"]["nvidia.com/gpu"] == 2
    validate_all([deployment, service])
