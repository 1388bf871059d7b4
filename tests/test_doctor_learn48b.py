"""What fresh-392 (vLLM 0.26.0 on an H100, no flashinfer) and fresh-421 (llama-server b11434) taught.

- flashinfer_device.py: vLLM 0.26's fused-MoE kernels refuse 'current device cuda' both on a GPU outside the kernel's
  families and where the FlashInfer API it calls is missing (experts/flashinfer_cutlass_moe.py, trtllm_*_moe.py,
  flashinfer_b12x_moe.py): the GPU the log shows (gpu-arch-shown) decides, both below confident where none.
- llamacpp-model-not-gguf (new): a llama.cpp model flag given a checkpoint of another format (b11434's loader lines).
Lines are the engines' format strings filled with other models, paths and backends than the corpus logs.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

TRACE = (
    '(EngineCore pid=77) ERROR 01-02 10:00:02 [core.py:1330]   File "/opt/vllm/model_executor/layers/fused_moe/oracle/'
    '{oracle}.py", line 272, in _return_or_raise\n'
    "(EngineCore pid=77) ERROR 01-02 10:00:02 [core.py:1330]     raise ValueError(_make_log_unsupported(backend, reason))\n"
    "(EngineCore pid=77) ERROR 01-02 10:00:02 [core.py:1330] ValueError: {kind} MoE backend {backend} does not support "
    "the deployment configuration since kernel does not support current device cuda.\n"
    "(APIServer pid=70) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
)


def moe_log(
    gpu_line: str, kind: str = "FP8", backend: str = "FLASHINFER_CUTLASS", oracle: str = "fp8"
) -> str:
    head = "$ vllm serve Qwen/Qwen3-30B-A3B-FP8 --moe-backend flashinfer_cutlass\n"
    return head + gpu_line + TRACE.format(kind=kind, backend=backend, oracle=oracle)


H200 = "(EngineCore pid=77) INFO 01-02 10:00:01 [gpu_model_runner.py:1] GPU: NVIDIA H200 (device_name=NVIDIA_H200)\n"
B200 = "(EngineCore pid=77) INFO 01-02 10:00:01 [flash_attn.py:776] Using FlashAttention version 4\n"
L40S = "(EngineCore pid=77) INFO 01-02 10:00:01 [platform.py:1] Device: NVIDIA L40S, compute capability 8.9\n"

CASES = [
    # FP8 oracle's wording of FlashInfer CUTLASS on an H200 (SM90, in its families): the package
    ("flashinfer-missing-or-old", moe_log(H200)),
    # TRTLLM (SM100 family only) on a B200 shown by FA4: the package
    ("flashinfer-missing-or-old", moe_log(B200, "Unquantized", "FlashInfer TRTLLM", "unquantized")),
    # TRTLLM on an H200: outside its SM100 family, the GPU
    ("moe-backend-excludes-gpu", moe_log(H200, "NvFp4", "FLASHINFER_TRTLLM", "nvfp4")),
    # CUTLASS on an Ada card: the GPU
    ("moe-backend-excludes-gpu", moe_log(L40S)),
    # llama-server's --lora given a PyTorch adapter file (.pt): convert it
    (
        "llamacpp-model-not-gguf",
        "0.00.040.100 I srv    load_model: loading lora adapter from '/srv/lora/adapter_model.pt' ...\n"
        "0.00.040.120 E gguf_init_from_reader: invalid magic characters: 'PK??', expected 'GGUF'\n"
        "0.00.040.130 E cmn  common_init_from_params: failed to load lora adapter '/srv/lora/adapter_model.pt'\n",
    ),
    # -m given a PyTorch .bin (zip): its magic alone says so
    (
        "llamacpp-model-not-gguf",
        "0.00.010.200 E gguf_init_from_reader: invalid magic characters: 'PK??', expected 'GGUF'\n"
        "0.00.010.300 E llama_model_load: error loading model: llama_model_loader: failed to load model from "
        "/models/pytorch_model-00001-of-00002.bin\n",
    ),
]

NEAR_MISSES = [
    # a truncated .gguf (a real GGUF's magic, the read fails later): the download, not a conversion
    (
        "llamacpp-model-not-gguf",
        "0.00.010.200 E gguf_init_from_reader: failed to read tensor info\n"
        "0.00.010.300 E llama_model_load: error loading model: llama_model_loader: failed to load model from "
        "/models/qwen3-8b-q4_k_m.gguf\n",
    ),
    # an old GGML .bin ('tjgg' magic): llama.cpp's own old format, not another framework's checkpoint
    (
        "llamacpp-model-not-gguf",
        "0.00.010.200 E gguf_init_from_reader: invalid magic characters: 'tjgg', expected 'GGUF'\n"
        "0.00.010.300 E llama_model_load: error loading model: llama_model_loader: failed to load model from "
        "/models/ggml-model-q4_0.bin\n",
    ),
    # a healthy start that shows the GPU and loads a safetensors checkpoint in vLLM: no refusal at all
    (
        "flashinfer-missing-or-old",
        H200
        + "(EngineCore pid=77) INFO 01-02 10:00:03 [default_loader.py:1] Loading weights took 3.1 seconds "
        "from /models/q/model.safetensors\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_no_gpu_shown_names_both_below_confident():
    """The refusal without a GPU line: both causes are possible, so the answer says both and is not confident."""
    top = top_cause(run(moe_log("")))
    assert top is not None and top.confidence < 0.7
    assert "flashinfer-python" in top.cause and "GPU" in top.cause


def test_gpu_named_on_the_refusal_line_of_older_releases_is_left_alone():
    """vLLM 0.15's own 'FlashInfer-CUTLASS MoE kernel does not support current device sm_120' names the GPU its
    release's check missed (no package check there): still the GPU, whatever the log's other lines show."""
    log = H200 + "ValueError: FlashInfer-CUTLASS MoE kernel does not support current device sm_120\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "moe-backend-excludes-gpu" and top.confidence >= 0.7
