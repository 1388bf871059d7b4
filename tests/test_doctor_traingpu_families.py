"""What the traingpu stop's TRAIN-side public threads taught (grown as knowledge/vllm-gpu-threads.toml, now in knowledge/ by domain).

Lines in the other shapes the same failure takes (torch's old THC text, the driver-API name, llama.cpp's
CUDA init), not the corpus excerpts, so a family answers the failure and not one thread's log.
"""

from __future__ import annotations

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run, top_cause


def test_error_802_names_the_fabric_manager_in_every_shape():
    for line in (
        "RuntimeError: cuda runtime error (802) : system not yet initialized at THCGeneral.cpp:50\n",
        "RuntimeError: CUDA driver error: CUDA_ERROR_SYSTEM_NOT_READY\n",
        "(Worker_TP1 pid=7) ERROR [multiproc_executor.py:870] RuntimeError: CUDA error: system not yet initialized\n",
    ):
        top = top_cause(run(line))
        assert top.id == "cuda-system-not-ready-fabric-manager" and top.confidence >= CONFIDENT, line
        assert "nvidia-fabricmanager" in top.fix


def test_llama_cpp_failing_cuda_init_with_802_is_the_fabric_not_a_generic_init_failure():
    r = run("ggml_cuda_init: failed to initialize CUDA: system not yet initialized\n")
    assert top_cause(r).id == "cuda-system-not-ready-fabric-manager"
    assert "llamacpp-cuda-init-failed" not in [d.id for d in r.diagnoses]


def test_other_cuda_init_errors_are_not_the_fabric_manager():
    """803/804 are a driver/runtime mismatch, already their own family."""
    r = run(
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
        "NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on "
        "non supported HW\n"
    )
    assert top_cause(r).id != "cuda-system-not-ready-fabric-manager"


def test_uva_unavailable_is_pinned_memory_off_in_the_v2_runner_traceback():
    r = run(
        "(EngineCore pid=93) WARNING 07-02 10:00:01 [cuda.py:316] Using 'pin_memory=False' as WSL is detected.\n"
        '(EngineCore pid=93)   File ".../vllm/v1/worker/gpu/buffer_utils.py", line 47, in __init__\n'
        '(EngineCore pid=93)     raise RuntimeError("UVA is not available")\n'
        "(EngineCore pid=93) RuntimeError: UVA is not available\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
    )
    top = top_cause(r)
    assert top.id == "uva-unavailable-pinned-memory-off" and top.confidence >= CONFIDENT
    assert "VLLM_WSL2_ENABLE_PIN_MEMORY=1" in top.fix


def test_engram_offload_needing_uva_names_what_needs_it():
    top = top_cause(run("RuntimeError: Engram CPU offload requires UVA support\n"))
    assert top.id == "uva-unavailable-pinned-memory-off"
    assert top.cause.startswith("Engram CPU offload needs UVA")


def test_the_wsl_pin_memory_warning_alone_is_not_a_failure():
    """vLLM prints it on every healthy WSL2 start (V1 runner, no UVA needed)."""
    r = run(
        "WARNING 05-22 10:02:31 [interface.py:729] Using 'pin_memory=False' as WSL is detected. This may slow down "
        "the performance.\n"
        "INFO 05-22 10:03:40 [api_server.py:1000] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
    )
    assert "uva-unavailable-pinned-memory-off" not in [d.id for d in r.diagnoses]


def test_flashinfer_bare_could_not_find_nvcc_in_vllms_worker_wrapper():
    """FlashInfer 0.4.0's get_cuda_path() says only 'Could not find nvcc'; vLLM re-raises it in its own words."""
    r = run(
        "RuntimeError: Worker failed with error 'Could not find nvcc', please check the stack trace above for the "
        "root cause\n"
    )
    assert top_cause(r).id == "flashinfer-jit-failed"


def test_flashinfer_nvcc_refusing_an_option_is_the_jit_build():
    r = run(
        "INFO 08-21 07:45:01 [topk_topp_sampler.py:50] Using FlashInfer for top-p & top-k sampling.\n"
        "nvcc fatal   : Unknown option '-static-global-template-stub=false'\n"
    )
    top = top_cause(r)
    assert top.id == "flashinfer-jit-failed" and top.confidence < CONFIDENT


def test_nvcc_missing_outside_flashinfer_is_not_flashinfers_jit():
    """flash-attn's setup.py, a vLLM source build, another tool's own message: nvcc missing or refusing, no FlashInfer."""
    for log in (
        '    raw_output = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)\n'
        "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'\n",
        "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n",
        "RuntimeError: Could not find nvcc compiler. Please ensure CUDA is installed and nvcc is in PATH\n",
    ):
        assert "flashinfer-jit-failed" not in [d.id for d in run(log).diagnoses], log
