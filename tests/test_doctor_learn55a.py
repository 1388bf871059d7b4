"""What fresh-521 (code that is not vLLM's, run by vLLM, round 10) taught, learn55a.

- remote-code-refuses-transformers-version (plugins.toml; fresh-521 draw 2's new:remote-code-asserts-transformers-
  version, widened): a checkpoint's own Python file (auto_map, --trust-remote-code) refuses the installed transformers
  by a check of its own (an assert on transformers.__version__, a raise after a version compare, transformers'
  require_version). vLLM 0.32 logs it through with_retry's 'Error parsing config for PATH: MSG' and, for an assert in
  ModelConfig's validation, pydantic's 'Assertion failed, MSG'; an older vLLM shows the traceback through the copy under
  transformers_modules/. The fix is the checkpoint's code: vLLM 0.32 requires transformers 5. First contact answered
  config-validation-error 0.69. vLLM's own 'Transformers modeling backend requires transformers>=X' and a plugin's
  version assert are not this family.
- middleware-raises-on-request (plugins.toml; fresh-521 draw 4, left a known_miss): a --middleware FUNCTION raises in a
  frame named after the function, not 'in dispatch'; reading that frame needs a keyword on every traceback frame (6.7%
  of the corpus's lines, over test_doctor_bounds' 3%), so only the dispatch hit's explains / supersedes were kept; the
  function cases here check that nothing answers them confidently.
- engine_features.toml [[constructs]] for vllm/config/reasoning.py and vllm/parser/abstract_parser.py, and
  config-validation-error's exception_unless (fresh-521 draw 6): a --reasoning-parser-plugin class whose __init__ does
  not take the tokenizer raises its TypeError already at start, inside VllmConfig's validation (ReasoningConfig.
  initialize_token_ids: `parser_cls(tokenizer)`); the place (vllm/config/) no longer explains a class's own signature
  mismatch, which attribution.py reads as third-party-package-raised naming the class and vLLM's call. First contact
  answered config-validation-error 0.60. vLLM's own parser class keeps no such reading.
Logs are written here from vLLM 0.32's, pydantic's, transformers' and starlette's wordings, with other names, paths and
Python versions than the corpus logs'.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, family_tests, run, top_cause

SITE = "/srv/venv/lib/python3.12/site-packages"
VLLM = f"{SITE}/vllm"
API = "(APIServer pid=4410) ERROR 02-03 08:15:{s} [repo_utils.py:{n}] "
HF_MODULES = "/home/kai/.cache/huggingface/modules/transformers_modules"


def retried(message: str) -> str:
    """vLLM 0.32's with_retry lines around the config read (the first attempt, then the last)."""
    return (
        f"{API.format(s='20', n='126')}Error parsing config for /data/orca-3b: {message}, retrying 1 of 2\n"
        f"{API.format(s='22', n='124')}Error parsing config for /data/orca-3b: {message}\n"
    )


def model_config_refused(reason: str) -> str:
    """create_model_config -> ModelConfig(...): pydantic's report of an exception raised in its validation."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{VLLM}/engine/arg_utils.py", line 1955, in create_model_config\n'
        "    return ModelConfig(\n"
        f'  File "{SITE}/pydantic/_internal/_dataclasses.py", line 121, in __init__\n'
        "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        f"  {reason} [type=assertion_error, input_value=ArgsKwargs((), {{'model': '/data/orca-3b'}}), "
        "input_type=ArgsKwargs]\n"
        "    For further information visit https://errors.pydantic.dev/2.11/v/assertion_error\n"
    )


TRUST = "$ vllm serve /data/orca-3b --trust-remote-code --port 8011\n"
ASSERTED = (
    TRUST
    + retried("orca requires transformers>=4.38,<5.0")
    + model_config_refused("Assertion failed, orca requires transformers>=4.38,<5.0")
)
# transformers' utils/versions.py require_version, called at the top of the checkpoint's modeling file
REQUIRED = (
    "transformers<5 is required for a normal functioning of this module, but found transformers==5.19.0."
)
REQUIRE_VERSION = (
    "(APIServer pid=77) INFO 02-03 08:15:01 [api_utils.py:286] non-default args: {'model': 'acme/orca-3b', "
    "'trust_remote_code': True}\n" + retried(REQUIRED) + "Traceback (most recent call last):\n"
    f'  File "{HF_MODULES}/acme/orca-3b/9f1c2d/configuration_orca.py", line 4, in <module>\n'
    '    require_version("transformers<5")\n'
    f'  File "{SITE}/transformers/utils/versions.py", line 111, in require_version\n'
    "    _compare_versions(op, got_ver, want_ver, requirement, pkg, hint)\n"
    f'  File "{SITE}/transformers/utils/versions.py", line 44, in _compare_versions\n'
    "    raise ImportError(\n"
    f"ImportError: {REQUIRED}\n"
)
# an older vLLM (no with_retry): the traceback through the copy, its own raise after a version compare
OLD_VLLM = (
    "$ python -m vllm.entrypoints.openai.api_server --model /models/orca --trust-remote-code\n"
    "Traceback (most recent call last):\n"
    f'  File "{SITE}/transformers/dynamic_module_utils.py", line 250, in get_class_in_module\n'
    "    module_spec.loader.exec_module(module)\n"
    f'  File "{HF_MODULES}/orca/modeling_orca.py", line 12, in <module>\n'
    "    raise RuntimeError(\n"
    "RuntimeError: modeling_orca only supports transformers 4.44 to 4.49, found 5.2.0\n"
)

CASES = [
    ("remote-code-refuses-transformers-version", ASSERTED),
    ("remote-code-refuses-transformers-version", REQUIRE_VERSION),
    ("remote-code-refuses-transformers-version", OLD_VLLM),
]

# vLLM's own version check (the Transformers modeling backend), with --trust-remote-code on
OWN_CHECK = (
    TRUST + "Traceback (most recent call last):\n"
    f'  File "{VLLM}/model_executor/models/transformers/base.py", line 824, in check_version\n'
    "    raise ImportError(\n"
    "ImportError: Transformers modeling backend requires transformers>=5.3.0 for Mamba support, but got 5.1.0\n"
)
# a general plugin's own version assert: no checkpoint code runs
PLUGIN_ASSERT = (
    "$ VLLM_PLUGINS=orca_ext vllm serve /data/orca-3b\n"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/plugins/__init__.py", line 82, in load_general_plugins\n'
    "    func()\n"
    '  File "/srv/plugins/orca_ext.py", line 5, in register\n'
    '    assert transformers.__version__.startswith("4."), "orca_ext needs transformers 4.x"\n'
    "AssertionError: orca_ext needs transformers 4.x\n"
)
# transformers' unknown model type (it names 'your version of Transformers', no version): not the checkpoint's check
UNKNOWN_TYPE = (
    "The checkpoint you are trying to load has model type `orca3` but Transformers does not recognize this "
    "architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is "
    "out of date. You can update Transformers with the command `pip install --upgrade transformers`."
)

# --- middleware: a function given with --middleware (app.middleware("http") wraps it as BaseHTTPMiddleware's
# dispatch_func), raising per request; the server lives
STARLETTE = f"{SITE}/starlette"


def asgi_error(frames: str, exception: str, path: str = "/v1/completions") -> str:
    """uvicorn's 'Exception in ASGI application' for one request, through starlette's middleware stack."""
    return (
        f'INFO:     10.0.0.7:51214 - "POST {path} HTTP/1.1" 500 Internal Server Error\n'
        "ERROR:    Exception in ASGI application\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi\n'
        "    result = await app(  # type: ignore[func-returns-value]\n"
        f'  File "{STARLETTE}/middleware/errors.py", line 165, in __call__\n'
        "    await self.app(scope, receive, _send)\n"
        f'  File "{STARLETTE}/middleware/base.py", line 191, in __call__\n'
        "    response = await self.dispatch_func(request, call_next)\n"
        f"{frames}{exception}\n"
    )


BODY_LOGGER = (
    "(APIServer pid=901) INFO 02-03 09:00:00 [api_utils.py:286] non-default args: {'model': '/data/orca-3b', "
    "'middleware': ['hooks.audit.log_body']}\n"
    "INFO:     Application startup complete.\n"
    + asgi_error(
        '  File "/opt/hooks/audit.py", line 9, in log_body\n'
        "    payload = json.loads(await request.body())\n"
        '  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads\n'
        "    return _default_decoder.decode(s)\n",
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    )
)
API_KEY_CHECK = (
    "$ vllm serve /data/orca-3b --middleware=gate.check_key\n"
    "INFO:     Application startup complete.\n"
    + asgi_error(
        '  File "/home/kai/gate.py", line 14, in check_key\n'
        "    owner = _lookup(request)\n"
        '  File "/home/kai/gate.py", line 6, in _lookup\n'
        '    return KEYS[request.headers.get("authorization").split()[1]]\n',
        "AttributeError: 'NoneType' object has no attribute 'split'",
        path="/health",
    )
)


# a user's frame that is not the listed middleware function (a tool parser plugin's), --middleware given for another
OTHER_FRAME = (
    "$ vllm serve /data/orca-3b --middleware gate.check_key --tool-parser-plugin /srv/orca_tools.py\n"
    "INFO:     Application startup complete.\n"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/entrypoints/openai/chat_completion/serving.py", line 1120, in chat_completion_full_generator\n'
    "    tool_call_info = tool_parser.extract_tool_calls(\n"
    '  File "/srv/orca_tools.py", line 31, in extract_tool_calls\n'
    '    calls = json.loads(text)["calls"]\n'
    "KeyError: 'calls'\n"
)

# --- a parser plugin class whose __init__ does not fit how vLLM builds it
REASONING_AT_START = (
    "$ vllm serve /data/orca-3b --reasoning-parser-plugin /srv/orca_think.py --reasoning-parser orca\n"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/engine/arg_utils.py", line 2838, in create_engine_config\n'
    "    config = VllmConfig(\n"
    f'  File "{SITE}/pydantic/_internal/_dataclasses.py", line 121, in __init__\n'
    "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
    f'  File "{VLLM}/config/vllm.py", line 2123, in __post_init__\n'
    "    self.reasoning_config.initialize_token_ids(self.model_config)\n"
    f'  File "{VLLM}/config/reasoning.py", line 87, in initialize_token_ids\n'
    "    reasoning_parser = parser_cls(tokenizer)\n"
    "{exception}\n"
)
TOOL_PER_REQUEST = (
    "$ vllm serve /data/orca-3b --tool-parser-plugin /srv/orca_tools.py --tool-call-parser orca\n"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/entrypoints/openai/chat_completion/serving.py", line 211, in _make_parser\n'
    "    return self.parser_cls(\n"
    f'  File "{VLLM}/parser/abstract_parser.py", line 149, in __init__\n'
    "    self._tool_parser = self.__class__.tool_parser_cls(tokenizer, tools)\n"
    "TypeError: OrcaToolParser.__init__() takes 2 positional arguments but 3 were given\n"
)
MISSING_ARG = "TypeError: OrcaThinkParser.__init__() missing 1 required positional argument: 'vocab'"
CASES += [
    ("third-party-package-raised", REASONING_AT_START.format(exception=MISSING_ARG)),
    ("third-party-package-raised", TOOL_PER_REQUEST),
]

# vLLM's own reasoning parser raising the same kind of TypeError there is no user's class
OWN_PARSER = REASONING_AT_START.format(
    exception="TypeError: Qwen3ParserReasoningAdapter.__init__() got an unexpected keyword argument 'vocab'"
)
# vLLM's own check in reasoning.py stays the configuration reading
OWN_REFUSAL = REASONING_AT_START.format(
    exception="ValueError: ReasoningConfig: failed to tokenize reasoning strings: start='<think>' end='</think>'"
)

NEAR_MISSES = [
    ("remote-code-refuses-transformers-version", OWN_CHECK),
    ("remote-code-refuses-transformers-version", PLUGIN_ASSERT),
    ("remote-code-refuses-transformers-version", TRUST + retried(UNKNOWN_TYPE)),
    ("middleware-raises-on-request", OTHER_FRAME),
    ("third-party-package-raised", OWN_PARSER),
    ("third-party-package-raised", OWN_REFUSAL),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_remote_check_fix_changes_the_code_not_transformers():
    top = top_cause(run(ASSERTED))
    assert "orca requires transformers>=4.38,<5.0" in top.cause
    assert "revision" in top.fix and "breaks vLLM" in top.fix
    assert top.confidence >= 0.7
    assert "config-validation-error" not in answer_ids(ASSERTED)


def test_remote_check_names_the_copy_when_the_traceback_shows_it():
    assert "modeling_orca.py" in top_cause(run(OLD_VLLM)).cause


def test_plugin_and_engine_version_checks_are_not_the_checkpoints():
    for log in (OWN_CHECK, PLUGIN_ASSERT):
        assert "remote-code-refuses-transformers-version" not in answer_ids(log), log


def test_middleware_function_is_not_read_confidently_as_another_cause():
    """A --middleware function's frame is not read yet (its keyword would wake 6.7% of the corpus's lines); until it
    is, nothing may answer confidently (fresh-521 draw 4: third-party-package-raised 0.55 naming the file)."""
    for log in (BODY_LOGGER, API_KEY_CHECK):
        top = top_cause(run(log))
        assert top is None or top.confidence < 0.7, (top.id, top.confidence)


def test_unlisted_user_frame_is_not_the_middleware():
    assert "middleware-raises-on-request" not in answer_ids(OTHER_FRAME)


def test_parser_plugin_class_reading_names_the_signature_vllm_calls():
    top = top_cause(run(REASONING_AT_START.format(exception=MISSING_ARG)))
    assert "OrcaThinkParser" in top.cause and "tokenizer" in top.cause
    assert top.confidence < 0.7  # a reading from the place, not a wording that names the cause


def test_own_refusal_in_reasoning_config_stays_a_config_check():
    assert top_cause(run(OWN_REFUSAL)).id == "config-validation-error"
