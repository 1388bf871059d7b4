"""The spec's `[kubernetes]` table: what `servebox render --kubernetes` needs that a host spec does not say.
Values are checked as Kubernetes and the OCI runtimes will read them (image references, RFC 1123 names), so a
bad one is one line naming the key, never a manifest kubectl refuses later."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from servebox.deploy.spec_values import AbsPath, Strict

# A container image reference (registry[:port]/path[:tag][@sha256:digest]), lower-case path components.
IMAGE_RE = re.compile(
    r"^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]{1,5})?(/[a-z0-9]+([._-]{1,2}[a-z0-9]+)*)*"
    r"(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$"
)
DNS_LABEL_RE = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")  # RFC 1123 label: namespaces
DNS_SUBDOMAIN_RE = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")


def _matching(pattern: re.Pattern[str], what: str, limit: int) -> AfterValidator:
    """A validator that names what the value must be instead of printing the regex."""

    def check(value: str) -> str:
        if len(value) > limit or not pattern.match(value):
            raise ValueError(f"not {what}: {value!r:.80}")
        return value

    return AfterValidator(check)


Image = Annotated[
    str, _matching(IMAGE_RE, "a container image reference (registry/path:tag[@sha256:...])", 512)
]
K8sLabel = Annotated[str, _matching(DNS_LABEL_RE, "a Kubernetes name (RFC 1123 label: a-z, 0-9, '-')", 63)]
K8sSubdomain = Annotated[
    str, _matching(DNS_SUBDOMAIN_RE, "a Kubernetes object name (RFC 1123 subdomain)", 253)
]
Word = Annotated[str, _matching(re.compile(r"^[A-Za-z0-9_./-]{1,256}$"), "a command name or path", 256)]


class Kubernetes(Strict):
    """What `servebox render --kubernetes` needs that a host spec does not say: images, namespace, model storage."""

    image: Image | None = Field(
        None,
        description="The vLLM container image (e.g. vllm/vllm-openai:v0.32.0); required for a vLLM model. Its python3 runs the engine.",
    )
    llama_cpp_image: Image | None = Field(
        None,
        description="The llama.cpp server image; required for a llama.cpp model (its `binary` path is inside it).",
    )
    fetch_image: Image | None = Field(
        None,
        description="An image with servebox installed: an init container runs `servebox fetch-model` in it for a hub-id checkpoint.",
    )
    namespace: K8sLabel = Field("default", description="The namespace every manifest is written for.")
    python: Word = Field(
        "python3",
        description="The Python inside `image` that runs vLLM (a name on its PATH or an absolute path).",
    )
    model_pvc: K8sSubdomain | None = Field(
        None,
        description="A PersistentVolumeClaim holding the checkpoints: mounted read-only at model_mount (read-write when fetch-model fills it).",
    )
    model_mount: AbsPath = Field(
        "/models", description="Where the model volume is mounted; a path checkpoint must lie under it."
    )
    shm_gib: float = Field(
        16,
        gt=0,
        le=4096,
        description="Size of /dev/shm (an emptyDir of medium Memory): NCCL and torch.distributed keep buffers there.",
    )
    memory_gib: float | None = Field(
        None,
        gt=0,
        le=65536,
        description="Memory request and limit of each engine pod; default: the model's memory_max_gib (one of the two is needed).",
    )
    service_type: Literal["ClusterIP", "NodePort", "LoadBalancer"] = Field(
        "ClusterIP", description="The type of each model's API Service."
    )
