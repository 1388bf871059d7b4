"""What after31c learnt in stop 31 after scoring fresh-123 (one vLLM dependency at the wrong version) and fresh-124 (a
model file or folder of another tool or format): each class from the programs' own sources, tested on another real
wording than the batch log's and on a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.12/site-packages"
LLAMA_FAIL = "llama_model_load_from_file_impl: failed to load model\n"

CASES = [
    # llama.cpp's loader dumping the metadata of convert_lora_to_gguf.py's output given as -m (llama.cpp#12857, build
    # 5092: 12 key-value pairs, general.type = adapter, then the first hyperparameter missing)
    (
        "lora-adapter-as-model",
        "llama_model_loader: - kv   0:                       general.architecture str              = llama\n"
        "llama_model_loader: - kv   1:                               general.type str              = adapter\n"
        "llama_model_loader: - kv   2:                               adapter.type str              = lora\n"
        "llama_model_load: error loading model: error loading model hyperparameters: key not found in model: "
        "llama.context_length\n" + LLAMA_FAIL,
    ),
    # transformers' utils/versions.py _compare_versions through accelerate's check (another package, a lower bound)
    (
        "dependency-version-refused",
        "ImportError: huggingface-hub>=0.21.0 is required for a normal functioning of this module, "
        "but found huggingface-hub==0.20.3.\n",
    ),
    # setuptools' pkg_resources refusing the same way (ContextualVersionConflict's repr)
    (
        "dependency-version-refused",
        f"pkg_resources.ContextualVersionConflict: (safetensors 0.3.1 ({SITE}), "
        "Requirement.parse('safetensors>=0.4.1'), {'transformers'})\n",
    ),
    # transformers 4.33's pin refusing a newer tokenizers (the classic skew), worded by the same function
    (
        "transformers-version-mismatch",
        "ImportError: tokenizers>=0.11.1,!=0.11.3,<0.14 is required for a normal functioning of this module, "
        "but found tokenizers==0.14.1.\n",
    ),
    # Python 3.12 under Cython < 0.29.36 output (PyYAML 5.4's sdist): gcc's member error
    (
        "package-release-predates-python",
        "      ext/_yaml.c:1234:45: error: 'PyLongObject' {aka 'struct _longobject'} has no member named 'ob_digit'\n"
        "      error: command '/usr/bin/gcc' failed with exit code 1\n"
        "  ERROR: Failed building wheel for PyYAML\n",
    ),
    # clang's wording of the 3.11 header (macOS), under pip's generic failure
    (
        "package-release-predates-python",
        "      src/gevent/_gevent_c_hub_local.c:2010:10: fatal error: 'longintrepr.h' file not found\n"
        "  error: subprocess-exited-with-error\n",
    ),
    # Python 3.11: PyThreadState.frame became cframe (greenlet 1.x)
    (
        "package-release-predates-python",
        "src/greenlet/greenlet.c:1234:23: error: 'PyThreadState' {aka 'struct _ts'} has no member named 'frame'\n",
    ),
    # an xgrammar-like dependency vLLM declares, found on PYTHONPATH (a --target folder), not under site-packages
    (
        "python-import-name-missing",
        "ImportError: cannot import name 'Grammar' from 'outlines_core' (/srv/deps/outlines_core/__init__.py)\n",
    ),
    # the reverse direction: FP8 weights loaded into bf16 parameters (the quantization_config stripped); learn45a: the
    # warning alone is no proof (an fp8 tensor widens into bf16 exactly: fresh-372's healthy st-lm-head-float8), a
    # stripped config shows the refused scale tensor beside it, and the refusal's own family names the same cause
    (
        "quantization-not-detected",
        "WARNING 05-02 10:11:12 [utils.py:333] Attempted to load weight model.layers.3.mlp.gate_up_proj.weight with "
        "dtype torch.float8_e4m3fn into parameter with dtype torch.bfloat16\n"
        "KeyError: 'model.layers.3.mlp.gate_up_proj.weight_scale'\n",
    ),
]

NEAR_MISSES = [
    # a missing -dev package is build-header-missing's, not a release older than the interpreter
    (
        "package-release-predates-python",
        "      src/foo.c:1:10: fatal error: Python.h: No such file or directory\n",
    ),
    # another hyperparameter missing (a GGUF written without it) is not an adapter
    (
        "lora-adapter-as-model",
        "llama_model_load: error loading model: error loading model hyperparameters: key not found in model: "
        "llama.block_count\n" + LLAMA_FAIL,
    ),
    # the bare first-key wording is only a hint (a GGUF written without hyperparameters reads the same)
    (
        "lora-adapter-as-model",
        "llama_model_load: error loading model: error loading model hyperparameters: key not found in model: "
        "qwen2.context_length\n" + LLAMA_FAIL,
    ),
    # a plain float cast is not a quantization mismatch
    (
        "quantization-config-does-not-match-weights",
        "WARNING [utils.py:333] Attempted to load weight lm_head.weight with dtype torch.float16 into parameter "
        "with dtype torch.bfloat16\n",
    ),
    # a two-sided range: which side is stale the words do not say
    (
        "dependency-version-refused",
        "ImportError: numpy>=1.17,<2.0 is required for a normal functioning of this module, but found numpy==2.1.0.\n",
    ),
    # transformers' tokenizers refusal is a hint only
    (
        "transformers-version-mismatch",
        "ImportError: tokenizers>=0.22.0,<=0.23.0 is required for a normal functioning of this module, "
        "but found tokenizers==0.21.0.\n",
    ),
    # an application's own module lacking a name stays unexplained (not under site-packages, not the engine's stack)
    (
        "python-import-name-missing",
        "ImportError: cannot import name 'helper' from 'myutils' (/home/me/app/myutils.py)\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_missing_key_other_than_the_first_stays_metadata_missing():
    top = top_cause(
        run(
            "llama_model_load: error loading model: error loading model hyperparameters: key not found in model: "
            "llama.block_count\n" + LLAMA_FAIL
        )
    )
    assert top.id == "llamacpp-gguf-metadata-missing"


def test_the_first_key_missing_reads_as_an_adapter_guess():
    top = top_cause(
        run(
            "llama_model_load: error loading model: error loading model hyperparameters: key not found in model: "
            "llama.context_length\n" + LLAMA_FAIL
        )
    )
    assert top.id == "lora-adapter-as-model" and top.confidence < 0.7


def test_python_h_stays_a_missing_dev_header():
    top = top_cause(run("      src/foo.c:1:10: fatal error: Python.h: No such file or directory\n"))
    assert top is not None and top.id != "package-release-predates-python"
