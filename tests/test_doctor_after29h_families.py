"""What the scored batches fresh-82 (public vLLM threads reported in Chinese) and fresh-77 (requests a healthy vLLM
0.32 refuses) taught after they were scored: each family by the class of its wording, tested on ANOTHER wording
(another field, module, release or program, from vLLM's and the packages' sources as cited), with the near misses
that must not be taken; and `raised_where`, which lets only the exception's innermost frame name its importer.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

OWN_CLI = (
    # vLLM >= 0.8's console script (pyproject [project.scripts] vllm = "vllm.entrypoints.cli.main:main") over an
    # install whose package lacks the module it names (an older vllm package left under a newer script)
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/bin/vllm", line 5, in <module>\n'
    "    from vllm.entrypoints.cli.main import main\n"
    "ModuleNotFoundError: No module named 'vllm.entrypoints.cli'\n"
)
OWN_BENCHMARK = (
    # vLLM 0.8.x entrypoints/cli/benchmark/latency.py importing its own vllm.benchmarks (the subpackage of vllm#15812)
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/entrypoints/cli/main.py", line 7, in <module>\n'
    "    import vllm.entrypoints.cli.benchmark.main\n"
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/entrypoints/cli/benchmark/latency.py", line 4, in <module>\n'
    "    from vllm.benchmarks.latency import add_cli_args, main\n"
    "ModuleNotFoundError: No module named 'vllm.benchmarks'\n"
)
PLUGIN_INNERMOST = (
    # vLLM's plugin loader calls a plugin, and the plugin's own import fails: a version skew, not vLLM's packaging
    '  File "/usr/local/lib/python3.10/site-packages/vllm/plugins/__init__.py", line 41, in load_plugins_by_group\n'
    "    func = plugin.load()\n"
    '  File "/usr/local/lib/python3.10/site-packages/vllm_ascend/patch/platform/patch_common.py", line 3, in <module>\n'
    "    from vllm.distributed.parallel_state import GroupCoordinator\n"
    "ModuleNotFoundError: No module named 'vllm.distributed.parallel_state'\n"
)
LMFE_OWN_LINE = (
    # lm-format-enforcer's integrations/vllm.py (lines 1-7): any ImportError of vLLM becomes this misleading line
    '  File "/usr/local/lib/python3.10/dist-packages/lmformatenforcer/integrations/vllm.py", line 7, in <module>\n'
    "    raise ImportError('vllm is not installed. Please install it with \"pip install vllm\"')\n"
    'ImportError: vllm is not installed. Please install it with "pip install vllm"\n'
)
OUTLINES_IMPORT = (
    # the same class in outlines' vLLM integration (outlines/models/vllm.py imports vLLM's sampling classes)
    '  File "/opt/venv/lib/python3.11/site-packages/outlines/models/vllm.py", line 9, in <module>\n'
    "    from vllm.sampling_params import GuidedDecodingParams\n"
    "ImportError: cannot import name 'GuidedDecodingParams' from 'vllm.sampling_params'\n"
)


def body(message: str, code: int = 400) -> str:
    """A client's print of vLLM's error body, as openai-python shows it."""
    return (
        f"openai.BadRequestError: Error code: {code} - {{'object': 'error', 'message': {message!r}, "
        f"'type': 'BadRequestError', 'param': None, 'code': {code}}}\n"
    )


CASES = [
    ("vllm-package-missing-own-submodule", OWN_CLI),
    ("vllm-package-missing-own-submodule", OWN_BENCHMARK),
    ("vllm-internal-module-moved", PLUGIN_INNERMOST),
    ("structured-output-backend-too-old-for-vllm", LMFE_OWN_LINE),
    ("structured-output-backend-too-old-for-vllm", OUTLINES_IMPORT),
    # vLLM 0.4-0.10 entrypoints/openai/protocol.py and the tools variant of 0.32's chat_completion/protocol.py
    (
        "request-structured-output-constraints-conflict",
        body(
            "You can only use one kind of guided decoding ('guided_json', 'guided_regex' or 'guided_choice')."
        ),
    ),
    # (learn38b: a constraint beside a named tool_choice is its own family now, no longer the two-constraints one)
    (
        "request-structured-outputs-with-named-tool-choice",
        body("You can only either use constraints for structured outputs or tools, not both."),
    ),
    # vLLM 0.4-0.8 entrypoints/openai/logits_processors.py
    (
        "request-logit-bias-key-not-token-id",
        body("Found token_id in logit_bias that is not an integer or string representing an integer"),
    ),
    # vLLM 0.32 completion/protocol.py and v1/engine/input_processor.py
    ("request-prompt-empty", body("Either prompt or prompt_embeds must be provided and non-empty.")),
    ("request-prompt-empty", body("The decoder prompt cannot be empty")),
    # another field each: vLLM 0.8's str(exc) (loc a tuple, FastAPI's function-wrap marker in it), FastAPI's own 422,
    # pydantic v1, and sampling_params.py's own check
    (
        "request-field-wrong-type",
        body(
            "[{'type': 'float_parsing', 'loc': ('body', 'function-wrap[__log_extra_fields__()]', 'temperature'), "
            "'msg': 'Input should be a valid number, unable to parse string as a number', 'input': 'warm'}]"
        ),
    ),
    (
        "request-field-wrong-type",
        'HTTP/1.1 422 Unprocessable Entity\n{"detail":[{"type":"int_parsing","loc":["body","max_tokens"],'
        '"msg":"Input should be a valid integer, unable to parse string as an integer","input":"64k"}]}\n',
    ),
    (
        "request-field-wrong-type",
        "{'loc': ('body', 'n'), 'msg': 'value is not a valid integer', 'type': 'type_error.integer'}\n",
    ),
    (
        "request-field-wrong-type",
        "vllm.exceptions.VLLMValidationError: n must be an int, but is of type <class 'str'>\n",
    ),
    # another op of the same model-file slip, in vLLM's engine-core log
    (
        "vllm-model-code-passes-tuple",
        "(EngineCore_DP0 pid=211) ERROR 05-02 10:11:12 [core.py:700] EngineCore failed to start.\n"
        "(EngineCore_DP0 pid=211) ERROR 05-02 10:11:12 [core.py:700] TypeError: silu(): argument 'input' "
        "(position 1) must be Tensor, not tuple\n",
    ),
    # vLLM 0.6+ AsyncLLMEngine.generate and 0.10+ LLM.generate dropped prompt_token_ids, which older callers pass
    (
        "vllm-internal-module-moved",
        "TypeError: AsyncLLMEngine.generate() got an unexpected keyword argument 'prompt_token_ids'\n",
    ),
    (
        "vllm-internal-module-moved",
        "TypeError: LLM.generate() got an unexpected keyword argument 'prompt_token_ids'\n",
    ),
]

NEAR_MISSES = [
    # vLLM's own code importing a compiled extension: a build's absence, not packaging
    (
        "vllm-package-missing-own-submodule",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/platforms/cuda.py", line 15, in <module>\n'
        "    import vllm._C  # noqa\nModuleNotFoundError: No module named 'vllm._C'\n",
    ),
    # a user's script in a folder named vllm is not vLLM's own code
    (
        "vllm-package-missing-own-submodule",
        '  File "/home/me/vllm/serve_it.py", line 3, in <module>\n'
        "    from vllm.entrypoints.openai.serving_engine import OpenAIServing\n"
        "ModuleNotFoundError: No module named 'vllm.entrypoints.openai.serving_engine'\n",
    ),
    ("vllm-package-missing-own-submodule", PLUGIN_INNERMOST),
    # vLLM's own structured-output module is not a backend package
    (
        "structured-output-backend-too-old-for-vllm",
        '  File "/opt/venv/lib/python3.11/site-packages/vllm/v1/structured_output/backend_xgrammar.py", line 20\n'
        "ModuleNotFoundError: No module named 'vllm.v1.structured_output.utils'\n",
    ),
    # (after36i: 'none are specified' is now this family's, the zero half of the same count; see
    # tests/test_doctor_after36i_families.py)
    ("request-prompt-empty", body("Prompt cannot be empty")),
    (
        "request-field-wrong-type",
        body(
            "[{'type': 'literal_error', 'loc': ('body', 'messages', 0, 'role'), 'msg': \"Input should be 'user'\"}]"
        ),
    ),
    (
        "vllm-model-code-passes-tuple",
        '  File "train.py", line 40, in forward\n    return self.head(self.lstm(x))\n'
        "TypeError: linear(): argument 'input' (position 1) must be Tensor, not tuple\n",
    ),
    (
        "vllm-internal-module-moved",
        "TypeError: generate() got an unexpected keyword argument 'max_new_token'\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_importer_and_backend_are_named():
    own = top_cause(run(OWN_BENCHMARK))
    assert "vllm/entrypoints/cli/benchmark/latency.py" in own.cause and "vllm.benchmarks" in own.cause
    assert "bin/vllm" in top_cause(run(OWN_CLI)).cause
    backend = top_cause(run(LMFE_OWN_LINE))
    assert "lmformatenforcer" in backend.cause and "lm-format-enforcer" in backend.fix


def test_refusals_that_keep_their_families():
    """The narrower families leave the refusals other families name: ids out of the vocabulary, an empty chat (an
    empty request's since after36e), a field missing, a tool definition's field of the wrong type."""
    vocab = body("token_id(s) [128009] in logit_bias contain out-of-vocab token ids. Vocabulary size: 1024")
    assert top_cause(run(vocab)).id == "request-logit-bias-out-of-vocab"
    empty_chat = body("Cannot apply chat template to an empty conversation. Provide at least one message.")
    # after36e (s36): an empty chat is request-prompt-empty's now (fresh-229's label; fresh-77's adjudicated to it)
    assert top_cause(run(empty_chat)).id == "request-prompt-empty"
    missing = body("[{'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field required', 'input': {}}]")
    assert top_cause(run(missing)).id == "request-field-missing"
    tool = body(
        "[{'type': 'string_type', 'loc': ('body', 'tools', 0, 'function', 'description'), "
        "'msg': 'Input should be a valid string', 'input': None}]"
    )
    assert top_cause(run(tool)).id == "request-tool-field-wrong-type"


def test_only_the_innermost_frame_names_the_importer():
    """`raised_where` reads the file of the exception's innermost frame: a vLLM frame further out (vLLM's plugin
    loader calling a plugin) does not make the plugin's import vLLM's own."""
    log = (
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/cli/main.py", line 7, in <module>\n'
        "    load_general_plugins()\n"
        '  File "/opt/venv/lib/python3.12/site-packages/myplugin/hooks.py", line 2, in <module>\n'
        "    from vllm.benchmarks.serve import main\n"
        "ModuleNotFoundError: No module named 'vllm.benchmarks.serve'\n"
    )
    assert all(d.id != "vllm-package-missing-own-submodule" for d in run(log).diagnoses)
    assert top_cause(run(log)).id == "vllm-internal-module-moved"
