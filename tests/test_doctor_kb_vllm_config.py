"""vLLM configuration and engine start-up families (issue 12), from vLLM 0.32's own raise texts
(grown as knowledge/vllm-config-engine.toml, now in knowledge/ by domain).

Synthetic lines written from the source wordings with other prefixes and values than the entries'
excerpts; the negative cases pin what each entry must NOT claim, and that a message raised inside a
pydantic config is that family's, not its header's (config-validation-error, a wrapper).
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream

PREFIX = "(EngineCore_DP0 pid=4242) "


def top(text: str):
    r = triage_stream(io.StringIO(text), "t")
    return r.diagnoses[0]


CASES = [
    (
        "parallel-size-exceeds-gpus",
        "ValueError: World size (16) is larger than the number of available GPUs (2) in this node.",
    ),
    (
        "parallel-size-exceeds-gpus",
        "ValueError: Tensor parallel size (4) cannot be larger than the number of available GPUs (2).",
    ),
    (
        "parallel-size-exceeds-gpus",
        "ValueError: Cannot provide a placement group requiring 8 GPUs (placement_group_specs=[{'GPU': 1.0}]) within 1800 seconds.",
    ),
    (
        "ray-node-without-gpu",
        "ValueError: Current node has no GPU available. current_node_resource={'CPU': 4.0}.",
    ),
    (
        "scheduler-token-budget-invalid",
        "ValueError: max_num_batched_tokens (512) must be greater than or equal to max_num_seqs (1024).",
    ),
    (
        "spec-decode-token-budget",
        "ValueError: max_num_scheduled_tokens is set to 0 based on the speculative decoding settings, which does",
    ),
    (
        "model-no-pipeline-parallel",
        "NotImplementedError: Pipeline parallelism is not supported for this model.",
    ),
    ("runner-unsupported-by-model", "ValueError: This model does not support `--runner generate`."),
    (
        "runner-unsupported-by-model",
        "RuntimeError: Model XLMRobertaModel does not support any pooling tasks. See https://docs.vllm.ai/",
    ),
    (
        "cudagraph-config-invalid",
        "ValueError: customized max_cudagraph_capture_size(=256) should be consistent with the max value of cudagraph_capture_sizes(=512)",
    ),
    ("compilation-config-invalid", "ValueError: Invalid compilation mode: 7. Valid modes are: [0, 1, 2, 3]"),
    ("compilation-config-invalid", "ValueError: custom_ops can contain only one base mode: 'all' or 'none'"),
    (
        "setting-given-twice",
        "ValueError: --num-speculative-tokens and --speculative-config['num_speculative_tokens'] are mutually exclusive",
    ),
    (
        "quant-method-deprecated",
        "ValueError: The quantization method tpu_int8 is deprecated and will be removed in future versions of vLLM.",
    ),
    (
        "object-storage-needs-streamer",
        "RuntimeError: Cannot find any safetensors model weights with `gs://bucket/llama`",
    ),
    (
        "data-parallel-launch-invalid",
        "ValueError: data_parallel_size_local (4) must be <= data_parallel_size (2)",
    ),
    (
        "data-parallel-launch-invalid",
        "RuntimeError: Remote engine 3 must use --headless unless in external or hybrid dp lb mode",
    ),
    ("executor-backend-unknown", "ValueError: Unknown distributed executor backend: mpi"),
    ("context-parallel-config-invalid", "ValueError: tp_size=4 must be divisible by dcp_size=3."),
    ("eplb-config-inconsistent", "ValueError: enable_expert_parallel must be True to use EPLB."),
    (
        "lora-slots-too-few",
        "RuntimeError: Number of requested LoRAs (9) is greater than the number of GPU LoRA slots (4).",
    ),
    ("lora-model-unsupported", "ValueError: Model Phi4MMForCausalLM is not supported for LoRA."),
    (
        "spec-config-invalid",
        "ValueError: 'tensor_parallel_size' is not a valid argument in the speculative_config. Please pass",
    ),
    ("spec-config-invalid", "ValueError: prompt_lookup_min=5 must be <= prompt_lookup_max=3"),
    (
        "spec-draft-vocab-mismatch",
        "ValueError: Target and draft model should have the same vocabulary size. Target model vocab_size=32000. Draft model vocab_size=50257.",
    ),
    (
        "suffix-decoding-needs-arctic",
        "ImportError: Arctic Inference is required for suffix decoding. Install via `pip install arctic-inference==0.2.0`.",
    ),
    ("async-scheduling-incompatible", "ValueError: `ray` does not support async scheduling yet."),
    (
        "architecture-removed",
        "ValueError: Model architecture FooLM is not supported in-tree anymore. Please install the plugin at https://example.org/foo if",
    ),
    (
        "model-config-format-undetected",
        "ValueError: Failed to load mistral 'params.json' config for model /srv/m. Please check",
    ),
    ("weights-not-initialized", "ValueError: Missing keys {'lm_head.weight'} in loaded state!"),
    (
        "sharded-state-not-presharded",
        "ValueError: Could not find checkpoint files 'model-rank-*-part-*.pt', only pre-sharded checkpoints are currently supported!",
    ),
    ("model-loader-extra-config-invalid", "ValueError: concurrency is not an allowed Tensorizer argument."),
    ("model-loader-extra-config-invalid", "ValueError: Unknown load_format: safetensor"),
    ("pp-layer-partition-invalid", "ValueError: len(partitions)=3 does not match pp_size=2."),
    (
        "kv-cache-below-one-token",
        "ValueError: To serve at least one request with the model's max seq len (8192), (2.00 GiB KV cache is needed, which is larger than the available KV cache memory (0.5 GiB). Try increasing `gpu_memory_utilization`",
    ),
    (
        "external-weights-exceed-utilization",
        "ValueError: Externally held weights on device cuda:0 (12.0/24.0 GiB) exceed the desired GPU memory utilization (0.4, 9.6 GiB).",
    ),
    (
        "hybrid-kv-manager-forced",
        "ValueError: Hybrid KV cache manager was explicitly enabled but is not supported in this configuration.",
    ),
    (
        "model-dtype-unsupported",
        "ValueError: The model type gemma2 does not support float16. Reason: overflow",
    ),
    (
        "kv-transfer-role-invalid",
        "ValueError: Unsupported kv_role: producer. Supported roles are ['kv_producer', 'kv_consumer', 'kv_both']",
    ),
    (
        "otlp-tracing-unavailable",
        "ValueError: collect_detailed_traces requires `--otlp-traces-endpoint` to be set.",
    ),
    (
        "structured-output-option-backend",
        "ValueError: disable_any_whitespace is only supported for xgrammar and guidance backends.",
    ),
]


@pytest.mark.parametrize(("expected", "line"), CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)])
def test_a_source_wording_names_its_family(expected: str, line: str):
    d = top(PREFIX + line + "\n")
    assert d.id == expected, (d.id, line)
    # confident, unless the corpus saw the family's words under another cause (shared_wording.py's cap, by design)
    assert d.confidence >= CONFIDENT or d.confidence_kind == "calibrated", (d.confidence, line)


def test_a_message_raised_inside_a_pydantic_config_is_its_family_not_the_header():
    """The header is a wrapper (fresh-13): the family that explains its reason line ranks instead."""
    log = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n"
        "  Value error, World size (4) is larger than the number of available GPUs (1) in this node."
        " [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
    )
    r = triage_stream(io.StringIO(log), "t")
    assert [d.id for d in r.diagnoses] == ["parallel-size-exceeds-gpus"]
    assert r.diagnoses[0].confidence >= CONFIDENT


def test_an_estimate_keeps_the_kv_family_that_names_the_fitting_length():
    d = top(
        "ValueError: To serve at least one request with the model's max seq len (32768), (4.00 GiB KV cache is"
        " needed, which is larger than the available KV cache memory (1.50 GiB). Based on the available memory,"
        " the estimated maximum model length is 12288. Try increasing `gpu_memory_utilization`\n"
    )
    assert d.id == "max-model-len-exceeds-kv"


@pytest.mark.parametrize(
    "line",
    [
        # a normal start-up's config dump mentions these words without failing
        "INFO 12-03 10:00:00 [core.py:93] Initializing a V1 LLM engine with config: compilation_config={'custom_ops': ['none'], 'cudagraph_mode': 'PIECEWISE'}, enable_eplb=False",
        "WARNING 12-03 10:00:00 [arg_utils.py:1] --async-scheduling is on; ray is not supported with it yet",
        "INFO 12-03 10:00:00 [parallel_state.py:1] world_size=2 rank=0 local_rank=0 distributed_init_method=tcp://127.0.0.1:29500",
        "INFO 12-03 10:00:00 [gpu_model_runner.py:1] Model loading took 14.99 GiB memory and 6.2 seconds",
    ],
)
def test_ordinary_start_up_lines_name_none_of_these_families(line: str):
    r = triage_stream(io.StringIO(line + "\n"), "t")
    ids = {c[0] for c in CASES}
    assert not any(d.id in ids for d in r.diagnoses), [d.id for d in r.diagnoses]


def test_a_removed_architecture_is_not_called_unknown():
    d = top(
        "ValueError: Model architecture ChatGLMModel was supported in vLLM until v0.9.1, and is not supported anymore.\n"
    )
    assert d.id == "architecture-removed" and "older" in d.fix


def test_a_handshake_wait_is_named_but_not_confidently():
    d = top("RuntimeError: Did not receive response from front-end process within 10 minutes\n")
    assert d.id == "dp-frontend-handshake-timeout" and d.confidence < CONFIDENT


def test_the_tokenizer_mode_is_named_in_the_cause():
    d = top("ValueError: mistral_format=True is not supported with tokenizer_mode='hf'\n")
    assert "--tokenizer-mode hf" in d.cause


@pytest.mark.parametrize(
    "line",
    [
        "ERROR 12-03 10:00:00 [serving.py:1] This model does not support the 'generate' task. The chat completion endpoint is not available for this model.",
        "ValueError: Unsupported task: 'classify' Supported tasks: ['embed']",
    ],
)
def test_a_request_time_task_refusal_is_not_a_start_up_runner_problem(line: str):
    r = triage_stream(io.StringIO(line + "\n"), "t")
    assert all(d.id != "runner-unsupported-by-model" for d in r.diagnoses)
