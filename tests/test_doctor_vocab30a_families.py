"""The GPU stack's own error vocabularies, as an LLM server's log shows them (stop 30, engineer vocab30a).

Vocabulary worked through (where each came from), and what became of it:
- CUDA driver API CUresult, 105 names (/usr/local/cuda-13.0/include/cuda.h, CUDA_ERROR_*; cuGetErrorString's text is the
  runtime's for every code both have, already in benchmarks/data/cuda_errors.json). Printers: Triton's
  backends/nvidia/driver.c gpuAssert 'Triton Error [CUDA]: <text>', 'CUDA driver error: <text>' (C10_CUDA_DRIVER_CHECK
  style macros in kernel libraries), cupy 'CUDADriverError: CUDA_ERROR_X: <text>', numba 'Call to cuX results in
  CUDA_ERROR_X'. Widened: the runtime twins' families in cuda-runtime.toml (16 families, 46 names), driver-too-old
  (CALL_REQUIRES_NEWER_DRIVER). Already read right: NO_DEVICE, INVALID_DEVICE, DEVICE_UNAVAILABLE, NO_BINARY_FOR_GPU,
  UNSUPPORTED_PTX_VERSION, STUB_LIBRARY, SYSTEM_DRIVER_MISMATCH, COMPAT_NOT_SUPPORTED_ON_DEVICE, SYSTEM_NOT_READY,
  DEVICE_NOT_LICENSED, LAUNCH_FAILED's text. Left: OUT_OF_MEMORY, ILLEGAL_ADDRESS, MISALIGNED_ADDRESS, ASSERT, INVALID_IMAGE
  by bare name (their families live in other engineers' files; their texts are read in every printer); profiler,
  graphics-interop, mapping, texture, key-rotation, CDP codes (not met by a server user).
- cuBLAS/hipBLAS/cuSPARSE/cuSOLVER status names, cuFFT results, rocBLAS rocblas_status_*, cuDNN statuses and
  'cuDNN Frontend error:' (torch aten/src/ATen/cuda/Exceptions.h checks; rocBLAS tensile_host.cpp 'hipBLASLt error:
  Heuristic Fetch Failed!'): widened cuda-math-library-failed; NOT_INITIALIZED/ALLOC_FAILED stay cublas-handle-failed's;
  LICENSE_ERROR, NOT_IMPLEMENTED-style API misuse left.
- NCCL: ncclGetErrorString's 9 texts (src/init.cc: all already read: nccl-error, nccl-unhandled-cuda-error,
  nccl-invalid-usage, nccl-call-timeout, distributed-peer-lost) and its WARN lines (601 distinct in src/; taken: the ones
  naming a cause or met first): CUDACHECK 'Cuda failure [N] '<text>'' (the text's family; new nccl-cuda-oom),
  'Mismatched NCCL version detected' (new), 'Multiple Ranks are using the same GPU/Partition' (nccl-duplicate-gpu),
  'socketProgress: Connection closed by remote peer' (distributed-peer-lost), 'NET/Socket : peer .. message truncated'
  (new symptom), 'NET/IB : Got completion from peer .. with status=' and
  'async fatal event' (new symptom), 'Attempted to connect incompatible devices' (new cause nccl-ib-link-type-mismatch), 'Failed to
  initialize any NET plugin' (new cause nccl-net-plugin-unavailable, seen for real with NCCL_NET=IB), 'P2P is disabled between
  NVLINK connected GPUs' (new cause nvlink-p2p-disabled), 'No transport found for rank' (new symptom), '[Proxy Service N] Failed to execute
  operation' (new symptom: it was systemd-exec-failed's), 'Call to ibv_create_cq failed with error Cannot allocate
  memory' (new), 'nvmlInit() failed: Driver/library version mismatch' (cuda-driver-mismatch), 'CUDA Driver version found
  is N. Minimum requirement is M' (driver-too-old); torch c10d 'retrieving ncclUniqueId from [0] .. got error' (new symptom),
  'NCCL communicator was aborted on rank N.' (new symptom), 'Heartbeat monitor timed out!' (nccl-watchdog-stuck), 'ProcessGroupNCCL
  is only supported with GPUs, no GPUs found!' (no-gpu-driver-in-container), the 'Last error:' detail (its WARN's family).
  The rest (config validation, internal asserts, ncclCommGrow, GIN) are not met by a server user.
- torch/cuda/__init__.py (_lazy_init, _check_cubins, the NVML-backed helpers): 'No published PyTorch CUDA builds for
  release X support this GPU' (compute-capability-unsupported), 'device N is not visible (CUDA_VISIBLE_DEVICES=..)'
  (cuda-invalid-device-ordinal), 'cuda driver can't be loaded, is cuda enabled?' (no-gpu-driver-in-container); already read:
  forked re-init, 'Torch not compiled with CUDA enabled', 'No CUDA GPUs are available', the sm_NN warnings. Left: 'PyTorch was
  compiled without CUDA support' (install.toml's torch-without-cuda is another engineer's), libcudart broken build, amdsmi.
- Checked for real on an H200 (torch 2.11.0+cu130, NCCL 2.28.9, driver 580.159.04): cuGetErrorName/String and nvmlErrorString
  for every code (texts as above; NVML 16 reads 'GPU requires reset' there), two ranks on one GPU (Duplicate GPU detected),
  NCCL init with the GPU full (Cuda failure 'out of memory'), a Triton kernel's fault (reported by torch, not Triton), invalid
  ordinal, device assert, capture error, empty/absent CUDA_VISIBLE_DEVICES: each read as its family here.
- NVML: 29 NVML_ERROR_* (vllm/third_party/pynvml.py, as NVMLError_<Name>: <text>) and nvidia-smi's lines: GpuIsLost
  (xid-gpu-fell-off-bus), 'NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver'
  (no-gpu-driver-in-container), Insufficient Permissions (new nvml-no-permission), Unknown/ResetRequired/
  CorruptedInforom/IrqIssue and 'Unable to determine the device handle' (new symptom nvml-gpu-query-failed); the nvml.h names
  (ERROR_LIB_RM_VERSION_MISMATCH, ERROR_GPU_IS_LOST, ERROR_DRIVER_NOT_LOADED, ERROR_NO_PERMISSION) as go-nvml prints them.
- HIP: hipGetErrorString texts were already covered (benchmarks/data/vulkan_hip_errors.json) but one (401's 'the operation
  cannot be performed in the present state', now hip-runtime-error's); Triton's backends/amd driver.c 'Triton Error [HIP]:
  Code: N, Messsage: <text>' added to every '(ROCm|HIP) error:' wording; torch ROCm's 'No HIP GPUs are available' (hip-no-device).
  HSA statuses already read (hip-kernel-fault, hip-code-object-load, hsa-out-of-resources); ROCr's 'HW Exception by GPU node-N
  .. reason :GPU Hang' and amdgpu's 'ring .. timeout' (hip-kernel-fault), '.. reason :ECC' (cuda-ecc-uncorrectable). Left: MIOpen
  statuses (ROCm's cuDNN: convolutions, not met serving LLMs).
"""

from __future__ import annotations

from tests.doctor_text import family_tests

NCCL = "node1:1234:1290 [0] "
TORCH_NCCL = "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3\n"

CASES = [
    # driver API text under Triton's and the driver-check printers (triton backends/nvidia/driver.c gpuAssert)
    ("cuda-api-misuse", "RuntimeError: Triton Error [CUDA]: invalid argument\n"),
    ("cuda-init-failed", "RuntimeError: CUDA driver error: initialization error\n"),
    ("cuda-op-not-supported", "RuntimeError: CUDA driver error: operation not supported\n"),
    ("cuda-launch-out-of-resources", "RuntimeError: Triton Error [CUDA]: too many resources requested for launch\n"),
    # CUresult names (cuda.h) as cupy / numba print them
    ("cuda-kernel-fault", "numba.cuda.cudadrv.driver.CudaAPIError: [719] Call to cuCtxSynchronize results in CUDA_ERROR_LAUNCH_FAILED\n"),
    ("cuda-graph-capture-failed", "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: operation not permitted when stream is capturing\n"),
    ("cuda-teardown-error", "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_DEINITIALIZED: driver shutting down\n"),
    ("cuda-module-load-failed", "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_NOT_FOUND: named symbol not found\n"),
    ("cuda-mps-failure", "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_MPS_CONNECTION_FAILED\n"),
    ("driver-too-old", "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER\n"),
    ("gpu-kernel-image-invalid", "RuntimeError: CUDA driver error: device kernel image is invalid\n"),
    ("gpu-kernel-image-invalid", "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid\n"),
    ("cuda-api-misuse", "RuntimeError: Triton Error [CUDA]: invalid host pointer\n"),
    # math libraries' status names (torch Exceptions.h; rocBLAS tensile_host.cpp)
    ("cuda-math-library-failed", "RuntimeError: CUDA error: HIPBLAS_STATUS_NOT_SUPPORTED when calling `hipblasLtMatmul( ltHandle, computeDesc.descriptor(), &alpha_val)`\n"),
    ("cuda-math-library-failed", "RuntimeError: CUDA error: CUSPARSE_STATUS_INTERNAL_ERROR when calling `cusparseCreate(handle)`\n"),
    ("cuda-math-library-failed", "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\n"),
    ("cuda-math-library-failed", "RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.\n"),
    ("cuda-math-library-failed", "hipBLASLt error: Heuristic Fetch Failed!\n"),
    # Triton's HIP printer (backends/amd/driver.c), its own spelling 'Messsage'
    ("hip-runtime-error", "RuntimeError: Triton Error [HIP]:  Code: 1, Messsage: invalid argument\n"),
    ("rocm-gfx-unsupported", "RuntimeError: Triton Error [HIP]:  Code: 98, Messsage: invalid device function\n"),
    # ROCr's hardware-exception handler (rocr-runtime src/core/runtime/runtime.cpp) and amdgpu's job timeout
    ("hip-kernel-fault", "HW Exception by GPU node-1 (Agent handle: 0x5614b3a7a0e0) reason :GPU Hang\n"),
    ("cuda-ecc-uncorrectable", "HW Exception by GPU node-1 (Agent handle: 0x5614b3a7a0e0) reason :ECC\n"),
    ("hip-kernel-fault", "kernel: [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=1234, emitted seq=1236\n"),
    # NCCL WARN lines (NVIDIA/nccl src/)
    ("nccl-cuda-oom", NCCL + "include/alloc.h:125 NCCL WARN Cuda failure 'out of memory'\n" + TORCH_NCCL),
    ("nccl-cuda-oom", NCCL + "include/alloc.h:125 NCCL WARN Cuda failure 2 'out of memory'\n"),
    ("vgpu-uvm-disabled", NCCL + "init.cc:426 NCCL WARN Cuda failure 801 'operation not supported'\n"),
    ("nccl-version-mismatch", NCCL + "init.cc:1043 NCCL WARN Mismatched NCCL version detected : rank 0 version 22105 rank 1 version 22703\n"),
    ("nccl-duplicate-gpu", NCCL + "init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this feature\n"),
    ("distributed-peer-lost", NCCL + "misc/socket.cc:58 NCCL WARN socketProgress: Connection closed by remote peer node2<41234>\n"),
    ("nccl-message-truncated", NCCL + "transport/net_socket.cc:560 NCCL WARN NET/Socket : peer 10.0.0.2<42123> message truncated : receiving 1048576 bytes instead of 65536.\n"),
    ("nccl-ib-completion-error", NCCL + "transport/net_ib.cc:688 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<52311> with status=transport retry counter exceeded(12) opcode=SEND(0) vendor_err=129\n"),
    ("nccl-message-truncated", NCCL + "misc/socket.cc:224 NCCL WARN Message truncated : received 1024 bytes instead of 4\n"),
    ("nccl-ib-completion-error", NCCL + "transport/net_ib.cc:123 NCCL WARN NET/IB : mlx5_0:1 async fatal event: local catastrophic error\n"),
    ("nccl-ib-link-type-mismatch", NCCL + "transport/net_ib.cc:1522 NCCL WARN NET/IB : Attempted to connect incompatible devices: [1]mlx5_1:1/RoCE and [0]mlx5_0:1/IB. Try selecting NICs of only one link type using NCCL_IB_HCA\n"),
    ("nccl-net-plugin-unavailable", NCCL + "plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin\ntorch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9\n"),
    ("nvlink-p2p-disabled", NCCL + "graph/paths.cc:396 NCCL WARN P2P is disabled between NVLINK connected GPUs 1 and 2. This should not be the case given their connectivity, and is probably due to a hardware issue. If you still want to proceed, you can set NCCL_IGNORE_DISABLED_P2P=1.\n" + TORCH_NCCL),
    ("nccl-no-transport", NCCL + "transport.cc:39 NCCL WARN No transport found for rank 0[1000] -> rank 1[2000]\n"),
    ("nccl-proxy-failed", NCCL + "proxy.cc:1905 NCCL WARN [Proxy Service 1] Failed to execute operation Connect from rank 1, retcode 3\n"),
    ("nccl-ib-resource-limit", NCCL + "misc/ibvwrap.cc:120 NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory\n"),
    ("cuda-driver-mismatch", NCCL + "misc/nvmlwrap.cc:186 NCCL WARN nvmlInit_v2() failed: Driver/library version mismatch\n"),
    ("driver-too-old", NCCL + "misc/cudawrap.cc:190 NCCL WARN CUDA Driver version found is 11040. Minimum requirement is 12020\n"),
    # torch c10d: getNcclErrorDetailStr's 'Last error:' (ncclGetLastError without the WARN prefix), the communicator abort,
    # the heartbeat monitor, ProcessGroupNCCL's constructor check (ProcessGroupNCCL.cpp)
    ("nccl-cuda-oom", "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\nncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\nCuda failure 'out of memory'\n"),
    ("nccl-communicator-aborted", "torch.distributed.DistBackendError: NCCL communicator was aborted on rank 1.\n"),
    ("nccl-ib-resource-limit", "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.28.9\nLast error:\nCall to ibv_create_qp failed with error Cannot allocate memory\n"),
    ("nccl-watchdog-stuck", "[rank1]:[E1204 10:00:00.000000000 ProcessGroupNCCL.cpp:1367] [PG ID 0 PG GUID 0(default_pg) Rank 1] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1\n"),
    ("no-gpu-driver-in-container", "ValueError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!\n"),
    # torch c10d ProcessGroupNCCL.cpp broadcastUniqueNCCLID
    ("nccl-unique-id-not-received", "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout\n"),
    # torch aten/src/ATen/cuda/CUDAContext.cpp getDeviceProperties, relayed by torch.cuda's lazy init (a hint, 0.6)
    ("cuda-invalid-device-ordinal", 'torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "/pytorch/aten/src/ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch. device=1, num_gpus=1\n'),
    # torch/cuda/__init__.py: _check_cubins' newer warning, the visibility check, the NVML-backed queries' DriverNotLoaded
    ("compute-capability-unsupported", "UserWarning: No published PyTorch CUDA builds for release 2.3.0+cu121 support this GPU. Visit https://pytorch.org/get-started/locally/ to find a compatible release.\n"),
    ("cuda-invalid-device-ordinal", "RuntimeError: device 2 is not visible (CUDA_VISIBLE_DEVICES=[0, 1])\n"),
    ("no-gpu-driver-in-container", "RuntimeError: cuda driver can't be loaded, is cuda enabled?\n"),
    # NVML (pynvml NVMLError_<Name>: <text>; nvidia-smi)
    ("xid-gpu-fell-off-bus", "pynvml.NVMLError_GpuIsLost: GPU is lost\n"),
    ("xid-gpu-fell-off-bus", "Unable to determine the device handle for GPU0000:01:00.0: GPU is lost.  Reboot the system to recover this GPU\n"),
    ("cuda-driver-mismatch", "vllm.third_party.pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.\n"),
    ("no-gpu-driver-in-container", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"),
    ("nvml-no-permission", "Failed to initialize NVML: Insufficient Permissions\n"),
    ("nvml-gpu-query-failed", "Unable to determine the device handle for GPU0000:01:00.0: Unknown Error\n"),
    ("nvml-gpu-query-failed", "pynvml.NVMLError_ResetRequired: GPU requires restart\n"),
    # nvml.h names as Go's go-nvml prints them (Kubernetes device plugin, DCGM exporter)
    ("cuda-driver-mismatch", "E1204 10:00:00.000000       1 main.go:132] Failed to initialize NVML: ERROR_LIB_RM_VERSION_MISMATCH\n"),
    ("xid-gpu-fell-off-bus", "E1204 10:00:00.000000       1 health.go:88] nvml.DeviceGetHandleByIndex: ERROR_GPU_IS_LOST\n"),
    # HIP: torch's ROCm build's hipified lazy-init wording, and HIP's text of hipErrorIllegalState
    ("hip-no-device", "RuntimeError: No HIP GPUs are available\n"),
    ("hip-runtime-error", "RuntimeError: HIP error: the operation cannot be performed in the present state\n"),
]  # fmt: skip

NEAR_MISSES = [
    # the same words outside NCCL's CUDA check / the math libraries / NVML
    ("nccl-cuda-oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB.\n"),
    ("nccl-ib-resource-limit", NCCL + "misc/ibvwrap.cc:183 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Cannot allocate memory\n"),
    ("nvml-no-permission", "pynvml.NVMLError_NoPermission: Insufficient Permissions\n"),
    ("nvml-gpu-query-failed", "No devices were found\n"),
    ("cuda-api-misuse", "ValueError: CUDA_ERROR_INVALID_VALUES_IN_CONFIG is not a valid option\n"),
    ("nccl-proxy-failed", "systemd[1]: llama.service: Failed to execute /opt/llama/bin/llama-server: Permission denied\n"),
    # the abort with its original reason is that reason's (the watchdog timeout), not the abort's
    ("nccl-communicator-aborted", "RuntimeError: NCCL communicator was aborted on rank 0. Original reason for failure was: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800100 milliseconds before timing out.\n"),
]  # fmt: skip

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
