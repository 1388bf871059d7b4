"""What the scored batch fresh-72 (vLLM / llama.cpp in deployment stacks: docker builds, podman, Kubernetes, Helm, GKE,
ramalama, GPUStack) taught after it was scored: each miss's family added or widened by the class of its wording.

Each log is written in ANOTHER wording than its corpus log (another linker, another runtime, another cloud, another
Helm message), taken from the tools' own sources or their users' posts as named beside it, so the test checks the class
of wording, not the one line it was learnt from; the near misses check what must not match (a toolkit library in the
linker's same 'needed by' words, Triton's run-time link, a quota refusal, a file that is there but not executable).
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import family_tests, run, top_cause

# ninja's failed link step around the linker's words (the corpus log's build, another target and version)
LINK_STEP = (
    "FAILED: bin/llama-server\n"
    ": && /usr/bin/c++ -O3 -DNDEBUG tools/server/CMakeFiles/llama-server.dir/server.cpp.o -o bin/llama-server "
    "bin/libllama.so bin/libggml-cuda.so && :\n"
)

CASES = [
    # docker-build-link-without-driver-libcuda (public-llama-cpp-python-docker-build-link-libcuda-so1-not-found): GNU
    # ld's DT_NEEDED warning for the driver library needed by another CUDA library (libcudart's own dependency)
    (
        "docker-build-link-without-driver-libcuda",
        "#12 88.41 /usr/bin/ld: warning: libcuda.so.1, needed by /usr/local/cuda/lib64/libcudart.so.12, not found "
        "(try using -rpath or -rpath-link)\n"
        "#12 88.41 /usr/bin/ld: /usr/local/cuda/lib64/libcudart.so.12: undefined reference to `cuGetProcAddress_v2'\n"
        "#12 88.42 collect2: error: ld returned 1 exit status\n",
    ),
    # ld's 'cannot find -lcuda' inside a CMake/ninja build (llama.cpp's CUDA backend linked in an image build)
    (
        "docker-build-link-without-driver-libcuda",
        LINK_STEP + "/usr/bin/ld: cannot find -lcuda: No such file or directory\n"
        "collect2: error: ld returned 1 exit status\nninja: build stopped: subcommand failed.\n",
    ),
    # cuda-arch-native-without-gpu-at-build (public-llama-cpp-python-docker-build-cuda-arch-native-no-gpu): the same
    # CMake refusal from llama.cpp's own ggml-cuda target, and torch's extension build in a `docker build` with no
    # visible GPU and no TORCH_CUDA_ARCH_LIST (torch/utils/cpp_extension.py's _get_cuda_arch_flags)
    (
        "cuda-arch-native-without-gpu-at-build",
        "-- Using CUDA architectures: native\n"
        "CMake Error in ggml/src/ggml-cuda/CMakeLists.txt:\n"
        '  CUDA_ARCHITECTURES is set to "native", but no GPU was detected.\n'
        "-- Generating done (0.1s)\nCMake Generate step failed.  Build files cannot be regenerated correctly.\n",
    ),
    (
        "cuda-arch-native-without-gpu-at-build",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/cpp_extension.py", line 1980, in '
        "_get_cuda_arch_flags\n"
        "      arch_list[-1] += '+PTX'\n"
        "  IndexError: list index out of range\n",
    ),
    # cloud-gpu-stockout-autoscaler-scale-up-failed (public-stack-gke-vllm-pod-pending-gce-out-of-resources): the
    # cluster-autoscaler's whole event beside the scheduler's (cluster-autoscaler's scale-up event text), Karpenter's
    # InsufficientCapacityError (karpenter's cloudprovider: 'all requested instance types were unavailable during
    # launch'), and EC2's own refusal as the EKS cluster-autoscaler logs it
    (
        "cloud-gpu-stockout-autoscaler-scale-up-failed",
        "  Warning  FailedScheduling  3m  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu. "
        "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.\n"
        "  Warning  FailedScaleUp  2m  cluster-autoscaler  Node scale up in zones us-central1-c associated with this "
        "pod failed: GCE out of resources. Pod is at risk of not being scheduled.\n",
    ),
    (
        "cloud-gpu-stockout-autoscaler-scale-up-failed",
        '{"level":"ERROR","time":"2025-06-02T10:11:12Z","logger":"controller","message":"failed launching nodeclaim",'
        '"error":"creating instance, insufficient capacity, all requested instance types were unavailable during '
        'launch"}\n',
    ),
    (
        "cloud-gpu-stockout-autoscaler-scale-up-failed",
        "W0602 10:11:12.000000 1 auto_scaling_groups.go:453] Instance group gpu-p4d has unhealthy instances: "
        "InsufficientInstanceCapacity: We currently do not have sufficient p4d.24xlarge capacity in the Availability "
        "Zone you requested (us-east-1a).\n",
    ),
    # helm-chart-name-not-in-repo (public-stack-production-stack-helm-chart-name-not-found): Helm 3's version miss
    # (pkg/downloader/chart_downloader.go with a version) and its repository-URL form (pkg/repo/chartrepo.go)
    (
        "helm-chart-name-not-in-repo",
        "$ helm install vllm vllm/vllm-stack --version 0.9.9\n"
        'Error: INSTALLATION FAILED: chart "vllm-stack" matching 0.9.9 not found in vllm index. '
        "(try 'helm repo update'): no chart version found for vllm-stack-0.9.9\n",
    ),
    (
        "helm-chart-name-not-in-repo",
        'Error: chart "kserve-vllm" version "0.14.0" not found in https://kserve.github.io/charts repository\n',
    ),
    # vllm-no-platform-detected (public-vllm-podman-compose-unspecified-platform-notimplemented): another base-platform
    # method (get_device_name, from the model runner) raising in platforms/interface.py, no 'No platform detected' line
    (
        "vllm-no-platform-detected",
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/worker/worker.py", line 180, in init_device\n'
        "    gpu_name = current_platform.get_device_name()\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/platforms/interface.py", line 176, in get_device_name\n'
        "    raise NotImplementedError\n"
        "NotImplementedError\n",
    ),
    # container-command-not-on-path (public-stack-ramalama-vllm-runtime-catatonit-exec-pid1-enoent): the same cause in
    # docker-init/tini's, dumb-init's, runc's (Kubernetes StartError) and crun's words
    (
        "container-command-not-on-path",
        "[FATAL tini (7)] exec /opt/venv/bin/vllm failed: No such file or directory\n",
    ),
    (
        "container-command-not-on-path",
        "[dumb-init] /usr/local/bin/start-llama.sh: No such file or directory\n",
    ),
    (
        "container-command-not-on-path",
        "      Reason:       StartError\n"
        "      Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: "
        'runc create failed: unable to start container process: exec: "/app/llama-server": stat /app/llama-server: '
        "no such file or directory: unknown\n",
    ),
    ("container-command-not-on-path", "exec /docker-entrypoint.sh: no such file or directory\n"),
    (
        "container-command-not-on-path",
        "Error: crun: exec container process `/usr/bin/python3`: No such file or directory: OCI runtime attempted to "
        "invoke a command that was not found\n",
    ),
    # engine-binary-missing (public-vllm-gpustack-030-image-vllm-binary-missing): a manager's own words around
    # Python's ENOENT for a program under a venv's bin/ and Windows' Scripts\, no subprocess frame
    (
        "engine-binary-missing",
        "ERROR 2025-03-01 10:00:00 Failed to start llama-box: [Errno 2] No such file or directory: "
        "'/opt/venv/bin/llama-box'\n",
    ),
    (
        "engine-binary-missing",
        r"serve failed: [Errno 2] No such file or directory: 'C:\Users\me\venv\Scripts\vllm.exe'" + "\n",
    ),
    # Go's spawn of a missing program (a Go manager or router; os/exec's 'fork/exec PATH: no such file or directory')
    (
        "engine-binary-missing",
        'time=2025-01-01T10:00:00Z level=ERROR msg="failed to start runner" error="fork/exec '
        '/usr/local/bin/llama-server: no such file or directory"\n',
    ),
    # Helm's OCI chart reference the registry lacks, and a bare chart name with no repo/ (pkg/downloader)
    (
        "helm-chart-name-not-in-repo",
        "Error: INSTALLATION FAILED: oci://ghcr.io/example/charts/vllm-stack:0.9.9: not found\n",
    ),
    (
        "helm-chart-name-not-in-repo",
        "Error: INSTALLATION FAILED: non-absolute URLs should be in form of repo_name/path_to_chart, got: "
        "production-stack\n",
    ),
    # AKS/ARM's capacity refusal of a GPU VM size
    (
        "cloud-gpu-stockout-autoscaler-scale-up-failed",
        'Code="SkuNotAvailable" Message="The requested VM size for resource \'Following SKUs have failed for Capacity '
        "Restrictions: Standard_NC24ads_A100_v4' is currently not available in location 'eastus'.\"\n",
    ),
]

NEAR_MISSES = [
    # a TOOLKIT library in the linker's same words is the toolkit's lib64 not on the link path, not the driver
    # (a llama.cpp build note: 'libcublas.so.12, needed by bin/libggml-cuda.so.0.21.0, not found')
    (
        "docker-build-link-without-driver-libcuda",
        "/usr/bin/ld: warning: libcublas.so.12, needed by bin/libggml-cuda.so.0.21.0, not found "
        "(try using -rpath or -rpath-link)\n"
        "/usr/bin/ld: bin/libggml-cuda.so.0.21.0: undefined reference to `cublasSetStream_v2@libcublas.so.12'\n",
    ),
    # Triton's JIT link at run time (no build around it) stays Triton's
    (
        "docker-build-link-without-driver-libcuda",
        "INFO 01-28 13:54:38 weight_utils.py:251] Using model weights format ['*.safetensors']\n"
        "/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status\n",
    ),
    # the loader at run time (not a link step): another family
    (
        "docker-build-link-without-driver-libcuda",
        "OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n",
    ),
    # an explicit architecture list or an empty one is not "native without a GPU"
    ("cuda-arch-native-without-gpu-at-build", "  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.\n"),
    ("cuda-arch-native-without-gpu-at-build", "IndexError: list index out of range\n"),
    # a quota refusal has another fix (ask for quota), and a scheduler-only shortage is the cluster's own GPUs
    (
        "cloud-gpu-stockout-autoscaler-scale-up-failed",
        "  Warning  FailedScaleUp  1m  cluster-autoscaler  Node scale up in zones us-central1-a associated with this "
        "pod failed: GCE quota exceeded. Pod is at risk of not being scheduled.\n",
    ),
    (
        "cloud-gpu-stockout-autoscaler-scale-up-failed",
        "  Warning  FailedScheduling  30s  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n",
    ),
    # a repository never added is not a chart missing from it (helm repo add is the fix)
    ("helm-chart-name-not-in-repo", "Error: INSTALLATION FAILED: repo vllm not found\n"),
    # catatonit's Permission denied is a file that is there (a noexec or FUSE mount, an unmapped user)
    ("container-command-not-on-path", "ERROR (catatonit:2): failed to exec pid1: Permission denied\n"),
    # the NVIDIA runtime's hook missing is its own family, not the engine's binary
    (
        "engine-binary-missing",
        "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create "
        "failed: unable to start container process: error during container init: error running hook #1: fork/exec "
        "/usr/bin/nvidia-container-runtime-hook: no such file or directory: unknown.\n",
    ),
    # Errno 2 on a data file is not a program
    (
        "engine-binary-missing",
        "Failed to load: [Errno 2] No such file or directory: '/models/bin-q4/config.json'\n",
    ),
    # a NotImplementedError raised elsewhere in vLLM is not a missing platform
    (
        "vllm-no-platform-detected",
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/quantization/base_config.py", '
        "line 50, in get_min_capability\n    raise NotImplementedError\nNotImplementedError\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_triton_keeps_its_run_time_link():
    """The Triton case's own wording (no build around it) is still Triton's, confidently."""
    top = top_cause(run(NEAR_MISSES[1][1]))
    assert top is not None and top.id == "triton-libcuda-not-found" and top.confidence >= CONFIDENT


@pytest.mark.parametrize(
    "log",
    [
        "/usr/bin/ld: CMakeFiles/app.dir/main.cpp.o: undefined reference to `cuMemCreate'\n",
        # lld's wording (--no-allow-shlib-undefined, its default for executables)
        "ld.lld: error: undefined reference due to --no-allow-shlib-undefined: cuDeviceGetAttribute\n"
        ">>> referenced by bin/libggml-cuda.so\n",
    ],
)
def test_undefined_driver_symbols_alone_are_only_a_guess(log):
    """Undefined cu* symbols without the 'needed by' line name the family below the confident line (a build that
    forgot CUDA::cuda_driver reads the same)."""
    top = top_cause(run(log))
    assert (
        top is not None
        and top.id == "docker-build-link-without-driver-libcuda"
        and top.confidence < CONFIDENT
    )


def test_no_platform_via_interface_is_not_confident():
    """A bare NotImplementedError in platforms/interface.py names no platform only as a guess (a plugin lacking one
    method raises the same)."""
    top = top_cause(run(CASES[9][1]))
    assert top is not None and top.confidence < CONFIDENT


def test_the_autoscaler_backing_off_is_only_a_guess():
    """The autoscaler's later 'in backoff after failed scale-up' says a scale-up failed, not why (stockout or quota)."""
    log = (
        "  Normal   NotTriggerScaleUp  2m  cluster-autoscaler  pod didn't trigger scale-up: "
        "1 in backoff after failed scale-up\n"
    )
    top = top_cause(run(log))
    assert (
        top is not None
        and top.id == "cloud-gpu-stockout-autoscaler-scale-up-failed"
        and top.confidence < CONFIDENT
    )
