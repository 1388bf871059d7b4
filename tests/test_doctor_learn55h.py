"""What fresh-493 (vLLM 0.26.0 on an H100: compilation, CUDA graphs, attention backends, round 3) taught.

1. capture_size.py with the markers cc-capture-size-not-positive and graph-capture-frame: vLLM 0.26 and 0.32 take
   -cc cudagraph_capture_sizes with a size of 0 or below without a word (only sizes above --max-num-batched-tokens
   are dropped), and the start fails when the runner captures that size: the gpu/ runner's InputBatch.make_dummy
   `assert 0 < num_reqs <= num_tokens`, the classic runner's _dummy_run (ZeroDivisionError for 0, IndexError for a
   negative size) or its padded-size table (cudagraph_dispatcher.py). compilation-config-invalid names the size.
2. torch_backend.py's qualname reading: at -cc mode 1-2 a backend torch did not register is imported by its dotted
   path (resolve_obj_by_qualname in init_backend); a ModuleNotFoundError / AttributeError on that path itself, or a
   name without a dot that cannot be split, is the -cc value's (compilation-config-invalid), its fix naming both
   the qualname and the engine's venv. A module the backend's package imports stays python-module-missing's.
Lines are vLLM's and Python's formats filled with other models, sizes, backends, frames and versions than the corpus
logs (which had [-4, 1, 2] on the gpu/ runner, and 'mypkg.compile_backend' at mode 1).
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, assert_named, family_tests, run, top_cause

CORE = "(EngineCore_DP0 pid=4410) ERROR 05-11 14:02:09 [core.py:1108] "
SITE = "/opt/venv/lib/python3.12/site-packages"
VLLM = f"{SITE}/vllm"
FAILED = (
    "(APIServer pid=4101) RuntimeError: Engine core initialization failed. See root cause above. "
    "Failed core proc(s): {}\n"
)


def trace(frames: list[tuple[str, int, str, str]], last: str) -> str:
    """An engine core's start-up traceback: (file, line, function, source) frames, innermost last, then the exception."""
    out = [CORE + "EngineCore failed to start.", CORE + "Traceback (most recent call last):"]
    for path, line, func, src in frames:
        out += [CORE + f'  File "{path}", line {line}, in {func}', CORE + f"    {src}"]
    out.append(CORE + last)
    return "\n".join(out) + "\n" + FAILED


WORKER = (
    f"{VLLM}/v1/worker/gpu_worker.py",
    612,
    "compile_or_warm_up_model",
    "self.model_runner.capture_model()",
)


def capture_sizes_args(sizes: str) -> str:
    """The API server's non-default args line as vLLM prints a -cc holding cudagraph_capture_sizes."""
    return (
        "(APIServer pid=4101) INFO 05-11 14:01:02 [utils.py:253] non-default args: {'model': 'Qwen/Qwen3-8B', "
        f"'compilation_config': {{'mode': None, 'cudagraph_capture_sizes': [{sizes}], 'cudagraph_mode': None}}}}\n"
    )


# vLLM 0.32's gpu/ runner, a 0 among the sizes given in the JSON (any order): make_dummy's assert
ZERO_GPU_RUNNER = (
    """$ vllm serve Qwen/Qwen3-8B --compilation-config '{"cudagraph_capture_sizes": [8, 0, 16]}'\n"""
    + "(EngineCore_DP0 pid=4410) INFO 05-11 14:01:40 [gpu_worker.py:518] Using V2 Model Runner\n"
    + trace(
        [
            WORKER,
            (
                f"{VLLM}/v1/worker/gpu/model_runner.py",
                1012,
                "capture_model",
                "self.cudagraph_manager.capture(",
            ),
            (
                f"{VLLM}/v1/worker/gpu/cudagraph_utils.py",
                611,
                "prepare_inputs_to_capture",
                "InputBatch.make_dummy(",
            ),
            (f"{VLLM}/v1/worker/gpu/input_batch.py", 135, "make_dummy", "assert 0 < num_reqs <= num_tokens"),
        ],
        "AssertionError",
    )
)

# the classic runner's _dummy_run: size 0 splits the tokens over no request (printed config, no command line)
ZERO_CLASSIC = capture_sizes_args("0, 4, 8") + trace(
    [
        WORKER,
        (f"{VLLM}/v1/worker/gpu_model_runner.py", 6790, "capture_model", "self._capture_cudagraphs("),
        (f"{VLLM}/v1/worker/gpu_model_runner.py", 6870, "_capture_cudagraphs", "self._warmup_and_capture("),
        (f"{VLLM}/v1/worker/gpu_model_runner.py", 6838, "_warmup_and_capture", "self._dummy_run("),
        (
            f"{VLLM}/v1/worker/gpu_model_runner.py",
            5607,
            "_dummy_run",
            "min_tokens_per_req = num_tokens // num_reqs",
        ),
    ],
    "ZeroDivisionError: integer division or modulo by zero",
)

# the top-level flag and a negative size: the classic dispatcher's padded-size table writes past its list
NEGATIVE_TABLE = (
    "$ python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct "
    "--cudagraph-capture-sizes -8 1 2 4\n"
    + trace(
        [
            (
                f"{VLLM}/v1/worker/gpu_model_runner.py",
                7127,
                "initialize_cudagraph_keys_for_runner",
                "initialize(",
            ),
            (f"{VLLM}/v1/cudagraph_dispatcher.py", 176, "initialize_cudagraph_keys", "self._compute_bs_("),
            (
                f"{VLLM}/v1/cudagraph_dispatcher.py",
                88,
                "_compute_bs_to_padded_graph_size",
                "self._bs_to_padded_graph_size[bs] = start",
            ),
        ],
        "IndexError: list assignment index out of range",
    )
)

# vLLM 0.32, mode 2 by dotted flags, a backend whose submodule is not there
QUALNAME_MODULE = (
    "$ vllm serve microsoft/Phi-4-mini-instruct -cc.mode=2 -cc.backend=fastcomp.backends.trt_compile\n"
    + trace(
        [
            (
                f"{VLLM}/v1/worker/gpu_model_runner.py",
                5120,
                "load_model",
                "backend = self.vllm_config.compilation_",
            ),
            (
                f"{VLLM}/config/compilation.py",
                1119,
                "init_backend",
                "return resolve_obj_by_qualname(self.backend)",
            ),
            (
                f"{VLLM}/utils/import_utils.py",
                109,
                "resolve_obj_by_qualname",
                "module = importlib.import_module(",
            ),
            ("<frozen importlib._bootstrap>", 1324, "_find_and_load_unlocked", ""),
        ],
        "ModuleNotFoundError: No module named 'fastcomp.backends'",
    )
)

# the module imports, the callable's name is misspelt: getattr's AttributeError
QUALNAME_ATTRIBUTE = (
    """$ vllm serve Qwen/Qwen3-8B -cc '{"backend": "fastcomp.backends.compile_fx", "mode": "STOCK_TORCH_COMPILE"}'\n"""
    + trace(
        [
            (
                f"{VLLM}/config/compilation.py",
                1087,
                "init_backend",
                "return resolve_obj_by_qualname(self.backend)",
            ),
            (
                f"{VLLM}/utils/import_utils.py",
                110,
                "resolve_obj_by_qualname",
                "return getattr(module, obj_name)",
            ),
        ],
        "AttributeError: module 'fastcomp.backends' has no attribute 'compile_fx'",
    )
)

# a torch backend name torch did not register in this process (no dot to split): rsplit's ValueError
UNREGISTERED_NAME = (
    """$ vllm serve Qwen/Qwen3-8B --compilation-config '{"mode": 1, "backend": "tensorrt"}'\n"""
    + trace(
        [
            (
                f"{VLLM}/config/compilation.py",
                1087,
                "init_backend",
                "return resolve_obj_by_qualname(self.backend)",
            ),
            (
                f"{VLLM}/utils/import_utils.py",
                108,
                "resolve_obj_by_qualname",
                'module_name, obj_name = qualname.rsplit(".", 1)',
            ),
        ],
        "ValueError: not enough values to unpack (expected 2, got 1)",
    )
)

CASES = [
    ("compilation-config-invalid", ZERO_GPU_RUNNER),
    ("compilation-config-invalid", ZERO_CLASSIC),
    ("compilation-config-invalid", NEGATIVE_TABLE),
    ("compilation-config-invalid", QUALNAME_MODULE),
    ("compilation-config-invalid", QUALNAME_ATTRIBUTE),
    ("compilation-config-invalid", UNREGISTERED_NAME),
]

# vLLM's own sizes and the same assert at capture: nothing the user set names it
DEFAULT_SIZES_ASSERT = trace(
    [
        WORKER,
        (f"{VLLM}/v1/worker/gpu/model_runner.py", 727, "capture_model", "self.cudagraph_manager.capture("),
        (f"{VLLM}/v1/worker/gpu/input_batch.py", 109, "make_dummy", "assert 0 < num_reqs <= num_tokens"),
    ],
    "AssertionError",
)

# a size of 0 given, but the start died loading weights, before any capture
SIZE_GIVEN_LOAD_FAILED = capture_sizes_args("0, 8") + trace(
    [
        (
            f"{VLLM}/model_executor/model_loader/default_loader.py",
            291,
            "load_weights",
            "loaded = model.load_weights(",
        ),
        (f"{VLLM}/model_executor/models/qwen3.py", 402, "load_weights", "param = params_dict[name]"),
    ],
    "KeyError: 'model.layers.0.mlp.gate_up_proj.weight_scale'",
)

# positive sizes and a healthy start
HEALTHY_SIZES = (
    """$ vllm serve Qwen/Qwen3-8B --compilation-config '{"cudagraph_capture_sizes": [1, 2, 4, 8]}'\n"""
    + "(EngineCore_DP0 pid=4410) INFO 05-11 14:01:58 [gpu_model_runner.py:6851] Graph capturing finished in 3 secs, "
    "took 0.42 GiB\n" + "(APIServer pid=4101) INFO:     Application startup complete.\n"
)

# a qualname backend whose own package imports a dependency that is missing: that dependency is what to install
DEPENDENCY_OF_BACKEND = (
    """$ vllm serve Qwen/Qwen3-8B -cc '{"mode": 1, "backend": "fastcomp.trt_backend"}'\n"""
    + trace(
        [
            (
                f"{VLLM}/config/compilation.py",
                1087,
                "init_backend",
                "return resolve_obj_by_qualname(self.backend)",
            ),
            (
                f"{VLLM}/utils/import_utils.py",
                109,
                "resolve_obj_by_qualname",
                "module = importlib.import_module(",
            ),
            (f"{SITE}/fastcomp/trt_backend.py", 3, "<module>", "import tensorrt"),
        ],
        "ModuleNotFoundError: No module named 'tensorrt'",
    )
)

NEAR_MISSES = [
    ("compilation-config-invalid", DEFAULT_SIZES_ASSERT),
    ("compilation-config-invalid", SIZE_GIVEN_LOAD_FAILED),
    ("compilation-config-invalid", HEALTHY_SIZES),
    ("compilation-config-invalid", DEPENDENCY_OF_BACKEND),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_capture_answer_names_the_size_and_its_list():
    """The answer names the size below 1 and the list it came in, and the fix asks for positive sizes."""
    top = top_cause(run(ZERO_GPU_RUNNER))
    assert top.id == "compilation-config-invalid" and top.confidence >= 0.7
    assert "holds the size 0" in top.cause and "[8, 0, 16]" in top.cause
    assert "positive capture sizes" in top.fix
    assert any("assert 0 < num_reqs <= num_tokens" in e.text for e in top.evidence)


def test_negative_size_from_the_top_level_flag():
    top = top_cause(run(NEGATIVE_TABLE))
    assert "holds the size -8" in top.cause and "IndexError" in top.cause


def test_qualname_answer_names_the_backend_and_both_fixes():
    """A dotted -cc backend that does not import: the answer names it, the typo and the engine's venv."""
    top = top_cause(run(QUALNAME_MODULE))
    assert top.id == "compilation-config-invalid" and top.confidence >= 0.7
    assert "'fastcomp.backends.trt_compile'" in top.cause and "mode 2 (DYNAMO_TRACE_ONCE)" in top.cause
    assert "'fastcomp.backends' did not import" in top.cause
    assert "correct the dotted path" in top.fix and "engine's venv" in top.fix


def test_unregistered_name_says_torch_does_not_know_it():
    top = top_cause(run(UNREGISTERED_NAME))
    assert "neither a backend torch registered" in top.cause and "'tensorrt'" in top.fix


def test_default_sizes_capture_assert_is_not_the_cc_value():
    """With vLLM's own sizes the capture's assert stays unexplained (an engine bug), not the -cc value."""
    assert "compilation-config-invalid" not in answer_ids(DEFAULT_SIZES_ASSERT)


def test_backends_own_dependency_stays_python_module_missing():
    """The backend's package imported, then asked for a module that is missing: install that module."""
    assert_named("python-module-missing", DEPENDENCY_OF_BACKEND)


def test_vllm_optional_dependency_stays_python_module_missing():
    """vLLM's own optional dependency missing, with a default -cc: nothing the user set in -cc names it."""
    log = trace(
        [
            (
                f"{VLLM}/v1/worker/gpu_model_runner.py",
                5384,
                "load_model",
                "self.model = model_loader.load_model(",
            ),
            (
                f"{VLLM}/model_executor/layers/quantization/bitsandbytes.py",
                210,
                "__init__",
                "import bitsandbytes",
            ),
        ],
        "ModuleNotFoundError: No module named 'bitsandbytes'",
    )
    assert "compilation-config-invalid" not in answer_ids(log)


def test_vllm_own_capture_failure_with_default_sizes_stays_cuda_graph_capture_failed():
    log = trace(
        [
            WORKER,
            (f"{VLLM}/v1/worker/gpu_model_runner.py", 6790, "capture_model", "self._capture_cudagraphs("),
            (f"{VLLM}/compilation/cuda_graph.py", 240, "__call__", "torch.cuda.synchronize()"),
        ],
        "RuntimeError: CUDA error: operation not permitted when stream is capturing",
    )
    assert_named("cuda-graph-capture-failed", log)
