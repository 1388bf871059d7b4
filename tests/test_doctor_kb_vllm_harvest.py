"""Families harvested from vLLM 0.32's own error surface (then knowledge/vllm-harvest.toml; now in knowledge/ by domain), found by
benchmarks/doctor_coverage_vllm.py.

Each positive line is a source wording rendered with OTHER values than the benchmark's (which fills
'auto', 4096, 18555...), under a process prefix; the negatives are vLLM's own WARNING wordings of the
same phrases (a healthy start prints them) and the real healthy start-up logs, which must name none
of these families.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.signatures import knowledge_entries
from servebox.doctor.triage import triage_stream

NEW_IDS = frozenset(
    {
        "attention-backend-removed",
        "backend-lacks-feature",
        "backend-name-unknown",
        "cudagraph-mode-conflict",
        "custom-class-not-loadable",
        "deepep-needs-nccl-gin",
        # harvest's dp-launch-flags-invalid, merged into data-parallel-launch-invalid (learn39c, s39: one cause)
        "data-parallel-launch-invalid",
        "dtype-unsupported-by-quantization",
        "external-launcher-process-group",
        "feature-needs-other-platform",
        "gpu-arch-required-for-feature",
        "gpu-visibility-env-conflict",
        "kv-connector-expandable-segments",
        "kv-connector-without-hma",
        "mamba-backend-option-mismatch",
        "model-runner-v2-required",
        "mtp-weights-missing",
        "nccl-library-load-failed",
        "nixl-pd-config-mismatch",
        "option-requires-option",
        "optional-package-missing",
        "options-incompatible",
        "pooling-api-needs-convert",
        "profiler-not-configured",
        "rocm-gcn-arch-unknown",
        "rocm-model-arch-unsupported",
        "triton-kernels-import-failed",
        "visible-devices-not-indices",
        "vllm-env-invalid-choice",
        "vllm-port-env-invalid",
        "xpu-arc-bf16-accuracy",
    }
)  # the families that harvest added (they now live in knowledge/ by domain)
LOGS = Path(__file__).parent / "fixtures" / "logs"
API = "(APIServer pid=3141) "
CORE = "(EngineCore_DP0 pid=2718) "


def top(text: str):
    return triage_stream(io.StringIO(text), "t").diagnoses[0]


CASES = [
    (
        "optional-package-missing",
        CORE + "ImportError: FlexKV is not installed. Please install it to use FlexKVConnectorV1.",
    ),
    (
        "optional-package-missing",
        API + "ImportError: mcp is not installed. Please run `pip install mcp` to use MCPToolServer.",
    ),
    (
        "optional-package-missing",
        CORE
        + "ImportError: Helion kernel requires helion to be installed. Install it with: pip install helion",
    ),
    (
        "optional-package-missing",
        API
        + "ModuleNotFoundError: xxhash is required for the 'xxhash_cbor' prefix caching hash algorithms. Install it via `pip install xxhash`.",
    ),
    (
        "optional-package-missing",
        API
        + "ImportError: Please install modelscope>=1.18.1 via `pip install modelscope>=1.18.1` to use ModelScope.",
    ),
    (
        "optional-package-missing",
        CORE
        + "ValueError: Ray Compiled Graph is not installed. Run `pip install ray[cgraph]` to install it.",
    ),
    (
        "optional-package-missing",
        API
        + "ImportError: gRPC mode requires smg-grpc-servicer. If not installed, run: pip install vllm[grpc].",
    ),
    (
        "optional-package-missing",
        API
        + "ERROR 12-04 08:15:02 [main.py:26] --omni flag requires a valid instance of vllm-omni to be installed.",
    ),
    (
        "gpu-arch-required-for-feature",
        CORE + "ValueError: SparseMQAIndexer requires an SM100-class GPU and DeepGEMM >= 2.8.",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        CORE
        + "ValueError: bfloat16 KV cache is not supported by the Triton MLA backend on Tesla T4 (compute capability 75); bfloat16 requires SM80+. Re-run with --kv-cache-dtype float16.",
    ),
    (
        "gpu-arch-required-for-feature",
        API
        + "ValueError: indexer_kv_dtype='mxfp4' requires Blackwell datacenter GPUs (sm_10x, e.g. B200/GB200).",
    ),
    (
        "gpu-arch-required-for-feature",
        CORE + "ValueError: ROCM_SEGMENTED_ATTN requires AMD RDNA GPUs on ROCm",
    ),
    (
        "feature-needs-other-platform",
        API + "ValueError: --kda-prefill-backend=fused is only available on ROCm.",
    ),
    ("feature-needs-other-platform", API + "ValueError: HiSparse currently requires NVIDIA CUDA."),
    ("feature-needs-other-platform", CORE + "NotImplementedError: Sparse Attention is not supported on CPU."),
    (
        "options-incompatible",
        API
        + "ValueError: --enable-return-routed-experts is incompatible with context parallelism (DCP/PCP > 1).",
    ),
    (
        "options-incompatible",
        API
        + "ValueError: --grpc and --grpc-port are mutually exclusive. Use --grpc --port for the Python gRPC server.",
    ),
    # learn39c (s39): serve.py's --headless check, the same check as run_headless's 'api_server_count can't be set in
    # headless mode', is a data-parallel launch refusal like it
    (
        "data-parallel-launch-invalid",
        API
        + "ValueError: --api-server-count=2 cannot be used with --headless (no API servers are started in headless mode).",
    ),
    (
        "options-incompatible",
        API
        + "  Value error, Cannot set both `pooling_type` and `tok_pooling_type` [type=value_error, input_value=ArgsKwargs(()), input_type=ArgsKwargs]",
    ),
    (
        "kv-connector-expandable-segments",
        API
        + "ValueError: KV connector MooncakeConnector is incompatible with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True unless enable_cumem_allocator is also enabled.",
    ),
    (
        "data-parallel-launch-invalid",
        API + "ValueError: Error: --data-parallel-size-local cannot exceed --data-parallel-size",
    ),
    (
        "data-parallel-launch-invalid",
        API
        + "ValueError: --data-parallel-start-rank + --data-parallel-size-local (6) exceeds --data-parallel-size (4)",
    ),
    (
        "backend-lacks-feature",
        CORE
        + "ValueError: FP8 PTPC online MoE quant is not supported with the CUTLASS backend, which does not implement per-output-channel weight scales.",
    ),
    # after33k (s33): a request's constraint kind the structured-output backend lacks is a request refusal (HTTP 400),
    # now structured-output-schema-unsupported's (fresh-166's outlines json_object); backend-lacks-feature keeps a
    # start's configuration
    (
        "structured-output-schema-unsupported",
        API
        + "vllm.exceptions.VLLMValidationError: Outlines structured outputs backend does not support grammar specifications",
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        CORE
        + "ValueError: For INT8 Fused MoE layers, we require channelwise, dynamic per token quantization. Found QuantizationStrategy.TENSOR, True",
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        CORE + "ValueError: Unsupported quantization config: bits=3, sym=False",
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        CORE
        + "ValueError: WNA8Int requires per-token or per-group activation quantization, got strategy=tensor",
    ),
    (
        "rocm-gcn-arch-unknown",
        CORE
        + "ValueError: Parsed unknown ROCm architecture from GCN arch 'gfx803': major=8, minor=0. Major version < 9 is not expected for any supported AMD GPU.",
    ),
    (
        "gpu-visibility-env-conflict",
        CORE
        + "ValueError: Inconsistent GPU visibility env vars: HIP_VISIBLE_DEVICES='0' vs CUDA_VISIBLE_DEVICES='1'. Please set only one, or ensure they match.",
    ),
    (
        "visible-devices-not-indices",
        CORE
        + "ValueError: Non-integer device ID 'MIG-1a2b3c4d-0000-1111-2222-333344445555' is not supported by xpu.",
    ),
    (
        "xpu-arc-bf16-accuracy",
        API + "ValueError: Intel Arc A750 have bfloat16 accuracy known issue. You can use float16 instead.",
    ),
    (
        "profiler-not-configured",
        CORE + "RuntimeError: Profiling is not enabled. Please set --profiler-config to enable profiling.",
    ),
    (
        "vllm-port-env-invalid",
        API
        + "ValueError: VLLM_PORT 'tcp://172.20.4.9:8000' appears to be a URI. This may be caused by a Kubernetes service discovery issue",
    ),
    ("vllm-port-env-invalid", API + "ValueError: VLLM_PORT 'eighty' must be a valid integer"),
    (
        "vllm-env-invalid-choice",
        API
        + "ValueError: Invalid value 'fastest' for VLLM_ATTENTION_BACKEND. Valid options: ['FLASH_ATTN', 'FLASHINFER'].",
    ),
    (
        "rocm-model-arch-unsupported",
        API + "ValueError: Model architecture 'MambaForCausalLM' is not supported by ROCm for now.",
    ),
    (
        "custom-class-not-loadable",
        API
        + "RuntimeError: Failed to load the processor. If the processor is a custom processor not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True`",
    ),
    ("mamba-backend-option-mismatch", API + "ValueError: RecoverSSM requires --mamba-backend triton"),
    (
        "triton-kernels-import-failed",
        CORE
        + "ERROR 12-04 08:15:02 [mxfp4.py:76] Failed to import Triton kernels. Please make sure your triton version is compatible. Error: cannot import name 'matmul_ogs'",
    ),
    # wordings added to families of other files
    (
        "trust-remote-code",
        API
        + "RuntimeError: Failed to load the model config. If the model is a custom model not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True`",
    ),
    (
        "quantization-min-capability",
        CORE
        + "ValueError: The quantization method moe_wna16 + gptq is not supported for the current GPU. Minimum capability: 80. Current capability: 75.",
    ),
]


@pytest.mark.parametrize(("expected", "line"), CASES, ids=[f"{i}-{e}" for i, (e, _) in enumerate(CASES)])
def test_family_names_its_message(expected: str, line: str) -> None:
    d = top(line + "\n")
    assert d.id == expected, (d.id, d.cause)
    assert "?" not in d.cause.split(":")[0]  # the cause's own words have no unfilled placeholder


def test_every_new_family_has_a_case() -> None:
    assert NEW_IDS <= {e for e, _ in CASES + ROUND_2 + ROUND_3 + ROUND_4 + ROUND_5}


def test_confidence_is_high_only_for_unambiguous_wordings() -> None:
    entries = [e for e in knowledge_entries() if e["id"] in NEW_IDS]
    broad = {"optional-package-missing", "gpu-arch-required-for-feature", "feature-needs-other-platform",
             "options-incompatible", "backend-lacks-feature"}  # fmt: skip
    for e in entries:
        if e["id"] in broad:
            assert e["confidence"] <= 0.75, e["id"]
        if e["id"] == "triton-kernels-import-failed":
            assert e["confidence"] < CONFIDENT and e["fatal"] is False


# vLLM's own WARNING/INFO wordings of the same phrases (a healthy start prints these)
HEALTHY = [
    API
    + "WARNING 12-04 08:15:02 [utils.py:226] To make v1/embeddings API fast, please install orjson by `pip install orjson`",
    CORE
    + "WARNING 12-04 08:15:02 [hpc_ihc.py:54] HPC iHC disabled: 'hpc' package is not installed. Please install the HPC library (.so) to enable fused kernels.",
    CORE
    + "WARNING 12-04 08:15:02 [compilation.py:1258] fuse_attn_quant is incompatible with piecewise cudagraph when use_inductor_graph_partition is off.",
    API + "WARNING 12-04 08:15:02 [cpu.py:224] Triton is not installed. triton-cpu is expected on x86 CPUs.",
    API
    + "WARNING 12-04 08:15:02 [api_router.py:301] VLLM_ENABLE_COHERE_API=1 but the `cohere` SDK is not installed; /cohere/v2/chat will not be exposed. Install with `pip install cohere` to enable the endpoints.",
    API + "INFO 12-04 08:15:02 [download_kernels.py:31] FlashInfer is not installed; skipping its kernels.",
]


def test_healthy_warnings_name_none_of_them() -> None:
    r = triage_stream(io.StringIO("\n".join(HEALTHY) + "\n"), "t")
    assert not {d.id for d in r.diagnoses} & NEW_IDS, [d.id for d in r.diagnoses]


@pytest.mark.parametrize("log", ["vllm-cpu-0.32-startup.log", "llama31-8b-h100-startup.log"])
def test_healthy_startup_logs_name_none_of_them(log: str) -> None:
    with (LOGS / log).open("rb") as handle:
        r = triage_stream(handle, log)
    assert not {d.id for d in r.diagnoses} & NEW_IDS, [d.id for d in r.diagnoses]


ROUND_2 = [
    ("backend-name-unknown", CORE + "ValueError: Unknown NvFP4 MoE backend: marlin_v2"),
    (
        "backend-name-unknown",
        CORE + "ValueError: Unknown MLA prefill backend: 'CUDNN_V9'. Valid options are: FLASHINFER, TRITON",
    ),
    (
        "backend-name-unknown",
        API + "ValueError: Invalid weight transfer backend: gloo. Available engines: ['nccl', 'ipc']",
    ),
    (
        "mtp-weights-missing",
        CORE + "ValueError: MTP speculative decoding layer 47 weights missing from checkpoint.",
    ),
    (
        "model-runner-v2-required",
        API + "ValueError: HiSparse requires Model Runner V2; remove VLLM_USE_V2_MODEL_RUNNER=0.",
    ),
    (
        "kv-connector-without-hma",
        API + "ValueError: Connector NixlConnector does not support HMA but HMA is enabled.",
    ),
    ("deepep-needs-nccl-gin", CORE + "RuntimeError: DeepEPv2 requires NCCL GIN (GPU-Initiated Networking)."),
    (
        "dtype-unsupported-by-quantization",
        API
        + "ValueError: torch.bfloat16 is not supported for quantization method gptq. Supported dtypes: [torch.half]",
    ),
    (
        "option-requires-option",
        API + "ValueError: Error: --enable-log-outputs requires --enable-log-requests",
    ),
    (
        "option-requires-option",
        API + "ValueError: --mamba-block-size can only be set with --enable-prefix-caching",
    ),
    (
        "quant-package-missing",
        CORE + "ValueError: Please use torchao version >= 0.16.0 to load torchao safetensors checkpoint",
    ),
    (
        "tool-choice-needs-parser",
        API + "ValueError: Error: --enable-auto-tool-choice requires --tool-call-parser",
    ),
]


@pytest.mark.parametrize(("expected", "line"), ROUND_2, ids=[f"{i}-{e}" for i, (e, _) in enumerate(ROUND_2)])
def test_round_two_family_names_its_message(expected: str, line: str) -> None:
    d = top(line + "\n")
    assert d.id == expected, (d.id, d.cause)


ROUND_3 = [
    (
        "nixl-pd-config-mismatch",
        CORE
        + "RuntimeError: NIXL compatibility hash mismatch. Local: a1b2c3d4, Remote: e5f6a7b8. Prefill and decode instances have incompatible configurations.",
    ),
    (
        "pooling-api-needs-convert",
        API
        + "ValueError: Classification API is not supported by this model. Try converting the model using `--convert classify`.",
    ),
    (
        "external-launcher-process-group",
        "[rank1]: RuntimeError: External launcher initialized the default process group without a CPU (gloo) backend.",
    ),
    ("optional-package-missing", API + "ImportError: gpt_oss >= 0.0.9 is required, but 0.0.7 is installed."),
    ("feature-needs-other-platform", CORE + "ValueError: InstantTensor requires NVIDIA GPUs"),
    (
        "quantization-min-capability",
        CORE
        + "RuntimeError: Quantization scheme is not supported for the current GPU. Required capability: 90. Current capability: 86.",
    ),
    (
        "checkpoint-quant-scheme-unsupported",
        CORE + "ValueError: WNA4Int requires dynamic activation quantization, got dynamic=False",
    ),
]


@pytest.mark.parametrize(("expected", "line"), ROUND_3, ids=[f"{i}-{e}" for i, (e, _) in enumerate(ROUND_3)])
def test_round_three_family_names_its_message(expected: str, line: str) -> None:
    d = top(line + "\n")
    assert d.id == expected, (d.id, d.cause)


ROUND_4 = [
    (
        "attention-backend-removed",
        API + "  Value error, Attention backend 'XFORMERS' has been removed (See PR #29262 for details).",
    ),
    (
        "nccl-library-load-failed",
        "(Worker_TP0 pid=77) ERROR 12-04 08:15:02 [pynccl_wrapper.py:385] Failed to load NCCL library from /opt/nccl/libnccl.so.2. It is expected if you are not running on NVIDIA/AMD GPUs.",
    ),
    (
        "optional-package-missing",
        API
        + "ValueError: Elastic EP with async EPLB requires the NIXL package. Either install NIXL or set --eplb-config.use_async=false.",
    ),
]


@pytest.mark.parametrize(("expected", "line"), ROUND_4, ids=[f"{i}-{e}" for i, (e, _) in enumerate(ROUND_4)])
def test_round_four_family_names_its_message(expected: str, line: str) -> None:
    d = top(line + "\n")
    assert d.id == expected, (d.id, d.cause)


ROUND_5 = [
    (
        "cudagraph-mode-conflict",
        API + "ValueError: Proton PC sampling requires CUDA graphs to be disabled. Use --enforce-eager.",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        CORE
        + "ValueError: FP8 KV cache is not supported by the Triton MLA backend on NVIDIA A100-SXM4-80GB (compute capability 80); native FP8 (fp8e4nv) requires SM89+.",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        API + "ValueError: nvfp4 KV cache is not supported with MLA (Multi-head Latent Attention) backends.",
    ),
]


@pytest.mark.parametrize(("expected", "line"), ROUND_5, ids=[f"{i}-{e}" for i, (e, _) in enumerate(ROUND_5)])
def test_round_five_family_names_its_message(expected: str, line: str) -> None:
    d = top(line + "\n")
    assert d.id == expected, (d.id, d.cause)
