"""What the scored batches fresh-53 (public vLLM threads by version and hardware) and fresh-56 (public vLLM threads by
model family) taught after they were scored: one family added or widened per miss.

Each log is written in ANOTHER wording than its corpus log (another program, version, model or list format), so the
test checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

NO_PLATFORM_07 = (
    "INFO 05-09 15:43:15 __init__.py:211] No platform detected, vLLM is running on UnspecifiedPlatform\n"
)
CUSTOM_ARCH = (
    "ValueError: Cannot find model module. '{arch}' is not a registered model in the Transformers library (only "
    "relevant if the model is meant to be in Transformers) and 'AutoModel' is not present in the model config's "
    "'auto_map' (relevant if the model is custom).\n"
)

CASES = [
    # architecture-removed (public-vllm-olmo-legacy-olmoforcausallm-not-supported, vllm#8753, a 2024 list): vLLM
    # 0.5/0.6's dict_keys form of the supported list, the legacy name at the end of a longer list
    (
        "architecture-removed",
        "ERROR 10-02 08:11:40 engine.py:160] ValueError: Model architectures ['OLMoForCausalLM'] are not supported for "
        "now. Supported architectures: dict_keys(['AquilaModel', 'AquilaForCausalLM', 'LlamaForCausalLM', "
        "'MistralForCausalLM', 'OlmoeForCausalLM', 'OlmoForCausalLM', 'OPTForCausalLM'])\n",
    ),
    # unknown-architecture (public-vllm-092-voxtral-mm-whisper-embeddings-not-in-llama, vllm#21176): dots.ocr#257, the
    # Transformers fallback built a text-only class for a vision checkpoint (posted lower-case)
    (
        "unknown-architecture",
        "valueerror: there is no module or parameter named 'vision_tower' in transformerForCausalLM\n",
    ),
    (
        "unknown-architecture",
        "ValueError: There is no module or parameter named 'audio_tower' in Qwen2ForCausalLM\n",
    ),
    # automounted-driver-not-on-ld-library-path (public-vllm-090-gke-no-platform-driver-path, vllm#19184): vLLM 0.7's
    # platform line and the older collect_env layout ('Is CUDA available: True')
    (
        "automounted-driver-not-on-ld-library-path",
        NO_PLATFORM_07 + "Collecting environment information...\nPyTorch version: 2.5.1+cu124\n"
        "Is CUDA available: True\nCUDA runtime version: 12.4.131\nNvidia driver version: Could not collect\n",
    ),
    # mistral-config-format-without-params-json (public-vllm-mistral-small-autoround-load-params-config-assert,
    # vllm#15300, the bare assert): the message vLLM PR 17132 put in its place (transformers_utils/config.py)
    (
        "mistral-config-format-without-params-json",
        "ValueError: Failed to load mistral 'params.json' config for model TheBloke/Mistral-7B-Instruct-v0.2-AWQ. "
        "Please check if the model is a mistral-format model and if the config file exists.\n",
    ),
    # model-runner-v2-unsupported (public-vllm-v2-model-runner-rejects-hybrid-mamba): another feature, under pytest's
    # prefix (the 'Before' block of a vLLM pull request adding prompt embeds to the V2 runner)
    (
        "model-runner-v2-unsupported",
        "E       pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "E         Value error, VLLM_USE_V2_MODEL_RUNNER does not yet support: prompt embeds [type=value_error, "
        "input_value=ArgsKwargs((), {'model_config': ...}), input_type=ArgsKwargs]\n",
    ),
    # gpu-arch-required-for-feature (public-vllm-strix-halo-gfx1151-aiter-sampling): ROCm flash-attention's setup.py
    # check of the same shape
    (
        "gpu-arch-required-for-feature",
        "AssertionError: One of GPU archs of ['gfx1030'] is invalid or not supported by Flash-Attention\n",
    ),
    # pooling-api-needs-convert (public-vllm-qwen3-reranker-rerank-score-api-unsupported): the Embeddings API's 400 body
    # as a client quoted it (Qwen3-Embedding served as a generative model)
    (
        "pooling-api-needs-convert",
        '{"object":"error","message":"The model does not support Embeddings API","type":"BadRequestError",'
        '"param":null,"code":400}\n',
    ),
]

NEAR_MISSES = [
    # a refused name with no twin of another case in the list was never known: not a removal
    (
        "architecture-removed",
        "ValueError: Model architectures ['FancyNewForCausalLM'] are not supported for now. Supported architectures: "
        "['LlamaForCausalLM', 'OlmoForCausalLM']\n",
    ),
    # torch sees no CUDA either: no driver at all, not a loader path
    (
        "automounted-driver-not-on-ld-library-path",
        NO_PLATFORM_07 + "Is CUDA available: False\nCUDA runtime version: No CUDA\n",
    ),
    # a bare assert on config_dict outside Mistral's params.json reader
    (
        "mistral-config-format-without-params-json",
        '  File "/app/loader.py", line 12, in read\n    assert isinstance(config_dict, dict)\nAssertionError\n',
    ),
    # the one-line custom-model refusal stands for two causes: never confident
    ("custom-model-auto-map-lacks-automodel", CUSTOM_ARCH.format(arch="MiniMaxM1ForCausalLM")),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_custom_model_without_automodel_is_named_below_confident():
    """SGLang's loader says the same for a custom model whose checkpoint ships no auto_map (LightRFT's Ursa): the
    family is named, with both fixes, below 0.70."""
    top = top_cause(run(CUSTOM_ARCH.format(arch="UrsaForConditionalGeneration")))
    assert top is not None and top.id == "custom-model-auto-map-lacks-automodel" and top.confidence < 0.7
    assert "auto_map" in top.fix and "upgrade" in top.fix


def test_with_model_impl_transformers_it_is_that_flags_refusal():
    log = "INFO [utils.py:253] non-default args: {'model': '/models/x', 'model_impl': 'transformers'}\n"
    assert_named("transformers-impl-unavailable", log + CUSTOM_ARCH.format(arch="MiniMindForCausalLM"))


def test_a_renamed_tensor_in_a_multimodal_class_stays_a_tensor_name():
    """A vision tower's tensor missing from a class that HAS a vision tower (vllm#45478's CI failure) is a tensor name,
    and so is a text tensor in a text class."""
    assert_named(
        "checkpoint-tensor-name-unexpected",
        "ValueError: There is no module or parameter named 'model.vision_tower.vision_model' in "
        "LlavaForConditionalGeneration\n",
    )
    assert_named(
        "checkpoint-tensor-name-unexpected",
        "ValueError: There is no module or parameter named 'layers' in LlamaForCausalLM\n",
    )


def test_a_never_known_name_stays_unknown():
    assert_named("unknown-architecture", NEAR_MISSES[0][1])
