"""What fresh-427 (vLLM 0.26.0 on an H100: compilation, CUDA graphs, attention backends) taught.

torch_backend.py with the marker compile-backend-to-torch: at -cc mode 1-2 vLLM hands the backend to torch.compile
unchecked (config/compilation.py init_backend; the mode-3-only 'Invalid backend for piecewise compilation'), so a backend
that cannot run vLLM's forward fails at the first forward inside torch's compile stack: compilation-config-invalid, not
an engine bug. Lines are vLLM's and torch's formats filled with other models, backends, modes and frames than the
corpus log (which had mode 1, 'cudagraphs', the recorder's bare assert at the first request).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

CORE = "(EngineCore pid=912) ERROR 03-04 09:12:40 [core.py:1332] "
SITE = "/usr/local/lib/python3.12/dist-packages"


def non_default(mode: str, backend: str) -> str:
    """The API server's non-default args line as vLLM 0.26 prints a -cc it was given."""
    return (
        "(APIServer pid=15) INFO 03-04 09:11:02 [api_utils.py:273] non-default args: {'model_tag': 'Qwen/Qwen3-0.6B', "
        f"'model': 'Qwen/Qwen3-0.6B', 'compilation_config': {{'mode': <CompilationMode.{mode}>, "
        "'debug_dump_path': None, 'cache_dir': '/root/.cache/vllm/torch_compile_cache', "
        f"'compile_cache_save_format': 'binary', 'backend': '{backend}', 'custom_ops': [], 'splitting_ops': None}}}}\n"
    )


def trace(frames: list[tuple[str, int, str, str]], last: str) -> str:
    """An engine core's fatal traceback: (file, line, function, source) frames, innermost last, then the exception."""
    out = [CORE + "EngineCore encountered a fatal error.", CORE + "Traceback (most recent call last):"]
    for path, line, func, src in frames:
        out += [CORE + f'  File "{path}", line {line}, in {func}', CORE + f"    {src}"]
    out.append(CORE + last)
    tail = (
        "(APIServer pid=15) ERROR 03-04 09:12:40 [async_llm.py:704] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause.\n"
        '(APIServer pid=15) INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
    )
    return "\n".join(out) + "\n" + tail


RUNNER = (f"{SITE}/vllm/v1/worker/gpu_model_runner.py", 3848, "_model_forward", "return self.model(")
UP = "(APIServer pid=15) INFO:     Application startup complete.\n"

# mode 2 (read from the command's -cc) with AOT autograd's eager backend: dynamo wraps the backend's failure as BackendCompilerFailed
AOT_EAGER = (
    """$ vllm serve Qwen/Qwen3-0.6B -cc '{"mode": 2, "backend": "aot_eager"}'\n"""
    + non_default("DYNAMO_TRACE_ONCE: 2", "aot_eager")
    + UP
    + trace(
        [
            RUNNER,
            (
                f"{SITE}/torch/_dynamo/output_graph.py",
                2041,
                "_call_user_compiler",
                "raise BackendCompilerFailed(",
            ),
        ],
        "torch._dynamo.exc.BackendCompilerFailed: backend='aot_eager' raised:\n"
        + CORE
        + "RuntimeError: Cannot access data pointer of Tensor (e.g. FakeTensor, FunctionalTensor).",
    )
)

# dotted flags on the command, the recorder's assert at another line of another torch
DOTTED = (
    "$ vllm serve meta-llama/Llama-3.2-1B-Instruct -cc.mode=1 -cc.backend=cudagraphs --port 9000\n"
    + UP
    + trace(
        [
            RUNNER,
            (
                f"{SITE}/torch/_inductor/cudagraph_trees.py",
                1012,
                "__init__",
                "recording_inputs = self._allocate_an",
            ),
            (
                f"{SITE}/torch/_inductor/cudagraph_trees.py",
                1745,
                "_allocate_and_copy_recording_inputs",
                "assert",
            ),
        ],
        "AssertionError",
    )
)

# JSON with the backend before the mode; a qualname backend raising inside its own package
QUALNAME = (
    "$ python -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-Instruct-v0.3 "
    """--compilation-config '{"backend": "mycompiler.backends.fast", "mode": 1}'\n"""
    + UP
    + trace(
        [
            RUNNER,
            (
                f"{SITE}/mycompiler/backends/fast.py",
                88,
                "compile_fx",
                "raise NotImplementedError(node.target)",
            ),
        ],
        "NotImplementedError: vllm.unified_attention_with_output.default",
    )
)

CASES = [
    ("compilation-config-invalid", AOT_EAGER),
    ("compilation-config-invalid", DOTTED),
    ("compilation-config-invalid", QUALNAME),
]

HEALTHY = (
    non_default("STOCK_TORCH_COMPILE: 1", "cudagraphs")
    + "(EngineCore pid=912) WARNING 03-04 09:11:30 [gpu_model_runner.py:6747] Skipping CUDA graph capture.\n"
    + UP
    + '(APIServer pid=15) INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
)

# mode 1 and torch's cudagraphs backend, but the run died in vLLM's own code: not the backend's doing
OWN_CODE = (
    non_default("STOCK_TORCH_COMPILE: 1", "cudagraphs")
    + UP
    + trace(
        [
            RUNNER,
            (
                f"{SITE}/vllm/v1/worker/gpu_input_batch.py",
                411,
                "add_request",
                "req_index = self.req_id_to_index[r]",
            ),
        ],
        "KeyError: 'chatcmpl-5b1e'",
    )
)

NEAR_MISSES = [
    ("compilation-config-invalid", HEALTHY),
    ("compilation-config-invalid", OWN_CODE),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_cause_names_mode_backend_and_where_torch_raised():
    """The answer says which mode and backend the -cc asked for and where torch raised, so the user sees the flag."""
    top = top_cause(run(DOTTED))
    assert top.id == "compilation-config-invalid" and top.confidence >= 0.7
    assert (
        "'cudagraphs'" in top.cause
        and "mode 1 (STOCK_TORCH_COMPILE)" in top.cause
        and "cudagraph_trees.py" in top.cause
    )


def test_default_inductor_compile_failure_stays_torch_compile_failed():
    """The default -cc (mode 3, inductor) and Inductor failing to compile: a toolchain failure, not the -cc value."""
    log = non_default("VLLM_COMPILE: 3", "inductor") + trace(
        [(f"{SITE}/torch/_inductor/compile_fx.py", 912, "fx_codegen_and_compile", "raise InductorError(e)")],
        "torch._inductor.exc.InductorError: LoweringException: AssertionError: target: aten.mm.default",
    )
    assert_named("torch-compile-failed", log)


def test_cpu_default_mode_2_inductor_is_not_the_cc_value():
    """vLLM-CPU's own default is mode 2 with inductor: a failure there is Inductor's, whatever the mode."""
    log = non_default("DYNAMO_TRACE_ONCE: 2", "inductor") + trace(
        [
            (
                f"{SITE}/torch/_dynamo/output_graph.py",
                2041,
                "_call_user_compiler",
                "raise BackendCompilerFailed(",
            )
        ],
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        + CORE
        + "LoweringException: AssertionError: target: aten.bmm.default",
    )
    assert_named("torch-compile-failed", log)


def test_vllm_own_capture_failure_stays_cuda_graph_capture_failed():
    """vLLM capturing its own graphs (default -cc) and an op that cannot be recorded: the capture's failure."""
    log = (
        "(EngineCore pid=912) INFO 03-04 09:11:40 [gpu_model_runner.py:5981] Capturing CUDA graphs (mixed prefill-"
        "decode, PIECEWISE): 12%\n"
        + trace(
            [(f"{SITE}/vllm/compilation/cuda_graph.py", 240, "__call__", "torch.cuda.synchronize()")],
            "RuntimeError: CUDA error: operation not permitted when stream is capturing",
        )
    )
    assert_named("cuda-graph-capture-failed", log)
