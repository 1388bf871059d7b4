"""What after31b learnt in stop 31 after scoring fresh-122 (vLLM's offline Python API in a user's script): a keyword the
callee lacks is read by WHERE THE CALL CAME FROM (servebox/doctor/caller.py). Called straight from the script the user
ran, it is that script's misspelt or absent argument (cli-unrecognized-argument for LLM()/EngineArgs, the new
sampling-params-unknown-keyword for SamplingParams); called by a plugin or a framework's own modules, it stays
vllm-internal-module-moved (a caller built for another vLLM release).
"""

from __future__ import annotations

from servebox.doctor.caller import script_called
from tests.doctor_text import family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.11/site-packages"


def _traceback(*files: str, error: str) -> str:
    frames = "".join(f'  File "{f}", line {n + 10}, in f{n}\n    call()\n' for n, f in enumerate(files))
    return f"Traceback (most recent call last):\n{frames}{error}\n"


# the user's own script building AsyncEngineArgs directly (vllm/engine/arg_utils.py's dataclass refuses the keyword)
SCRIPT_ASYNC = _traceback(
    "/home/me/serve.py",
    error="TypeError: AsyncEngineArgs.__init__() got an unexpected keyword argument 'max_num_seq'",
)
# the same refusal where LLaMA-Factory's installed module called vLLM: a framework built for another vLLM
PLUGIN = _traceback(
    f"{SITE}/llamafactory/cli.py",
    f"{SITE}/llamafactory/chat/vllm_engine.py",
    f"{SITE}/vllm/engine/arg_utils.py",
    error="TypeError: AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
)
# a framework run from its source checkout: the caller is the framework's module, not the file the run started in
CHECKOUT = _traceback(
    "/home/me/LLaMA-Factory/src/webui.py",
    "/home/me/LLaMA-Factory/src/llamafactory/chat/vllm_engine.py",
    error="TypeError: Unexpected keyword argument 'use_beam_search'",
)

CASES = [
    ("cli-unrecognized-argument", SCRIPT_ASYNC),
    # vLLM < 0.6's SamplingParams (a plain class) from the user's script, through vLLM's own frame
    (
        "sampling-params-unknown-keyword",
        _traceback(
            "/home/me/run.py",
            f"{SITE}/vllm/sampling_params.py",
            error="TypeError: SamplingParams.__init__() got an unexpected keyword argument 'max_new_tokens'",
        ),
    ),
    # msgspec's own wording (0.6+), raised in C: the script's frame is the innermost one
    (
        "sampling-params-unknown-keyword",
        _traceback("/home/me/run.py", error="TypeError: Unexpected keyword argument 'best_of'"),
    ),
    ("vllm-internal-module-moved", PLUGIN),
    ("vllm-internal-module-moved", CHECKOUT),
]

NEAR_MISSES = [
    # the refusal quoted alone (a thread's title, no traceback): who called cannot be told, so it is no typo verdict
    ("sampling-params-unknown-keyword", "TypeError: Unexpected keyword argument 'use_beam_search'\n"),
    (
        "cli-unrecognized-argument",
        "TypeError: EngineArgs.__init__() got an unexpected keyword argument 'x'\n",
    ),
    ("cli-unrecognized-argument", PLUGIN),
    ("sampling-params-unknown-keyword", CHECKOUT),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_caller_is_the_innermost_frame_outside_the_engines_stack():
    """vLLM's frames, the stdlib's and the engine's declared packages are skipped; an installed plugin is the caller."""
    assert script_called(["/tmp/x/script.py", "/tmp/x/script.py", f"{SITE}/vllm/entrypoints/llm.py"])
    assert script_called(
        ["/tmp/x/script.py", "/usr/lib/python3.11/functools.py", f"{SITE}/torch/nn/modules.py"]
    )
    assert not script_called([f"{SITE}/llamafactory/cli.py", f"{SITE}/vllm/engine/arg_utils.py"])
    assert not script_called(
        ["/usr/local/bin/llamafactory-cli", f"{SITE}/llamafactory/cli.py", f"{SITE}/vllm/x.py"]
    )
    assert not script_called([])


def test_the_script_reading_names_the_keyword():
    top = top_cause(run(SCRIPT_ASYNC))
    assert "max_num_seq" in top.cause and top.confidence >= 0.7
