"""What fresh-401 (code that is not vLLM's, run by vLLM, round 2) taught, learn46g (knowledge/plugins.toml).

- vllm-plugins-allowlist-excludes-plugin: VLLM_PLUGINS='' (envs.py: split(",") of the empty string, an allowlist naming
  no plugin) hides the general plugin that registers the parser named; parser-unknown steps aside.
- plugin-target-dir-not-on-pythonpath: a plugin pip-installed with --target, no PYTHONPATH: its entry point is never
  seen, the parser it registers is unknown.
- general-plugin-entry-point-names-missing-attribute: importlib.metadata EntryPoint.load's getattr refusing the attr.
- tool-parser-plugin-raises-on-model-output: json's decode error as the 400's message with --tool-parser-plugin.
- middleware-raises-on-request: a --middleware dispatch frame outside site-packages in the 500's traceback.
- chat-content-format-openai-with-string-template: --chat-template-content-format openai with a custom template.
- attribution: a file called by vLLM's plugin loader (a frame in vllm/plugins/) from a folder of its own is a
  plugin's (third-party-package-raised, its module's name).
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

UNKNOWN_REASONING = "KeyError: \"Reasoning parser 'my_think' not found. Available parsers: deepseek_r1, granite, qwen3\"\n"  # rendered
UNKNOWN_TOOL = "KeyError: 'invalid tool call parser: acme_calls (chose from { hermes,llama3_json,mistral })'\n"  # rendered
ENTRY_POINT = (
    "(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72] Failed to load plugin acme_hooks\n"
    "(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72] Traceback (most recent call last):\n"
    '(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72]   File "/opt/venv/lib/python3.12/site-packages/vllm/'
    'plugins/__init__.py", line 69, in load_plugins_by_group\n'
    "(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72]     func = plugin.load()\n"
    '(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72]   File "/usr/lib/python3.12/importlib/metadata/'
    '__init__.py", line 205, in load\n'
    "(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72]     return functools.reduce(getattr, attrs, module)\n"
    "(EngineCore pid=77) ERROR 03-02 10:00:05 [__init__.py:72] AttributeError: module 'acme_hooks' has no attribute "
    "'setup'\n"
)
MIDDLEWARE = (
    "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --middleware audit.AuditMiddleware\n"
    'INFO:     10.0.0.5:40312 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error\n'
    "ERROR:    Exception in ASGI application\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/starlette/middleware/base.py", line 198, in __call__\n'
    "    response = await self.dispatch_func(request, call_next)\n"
    '  File "/srv/app/audit.py", line 22, in dispatch\n'
    '    body = json.loads(await request.body())["prompt"]\n'
    "KeyError: 'prompt'\n"
)

CASES = [
    (
        "vllm-plugins-allowlist-excludes-plugin",
        'export VLLM_PLUGINS=""\n$ vllm serve m --reasoning-parser my_think\n' + UNKNOWN_REASONING,
    ),
    (
        "vllm-plugins-allowlist-excludes-plugin",
        "$ docker run -e VLLM_PLUGINS= vllm/vllm-openai --enable-auto-tool-choice"
        " --tool-call-parser acme_calls\n" + UNKNOWN_TOOL,
    ),
    (
        "plugin-target-dir-not-on-pythonpath",
        "$ pip install --target=/opt/plugins ./acme-calls\n"
        "$ vllm serve m --enable-auto-tool-choice --tool-call-parser acme_calls\n" + UNKNOWN_TOOL,
    ),
    ("general-plugin-entry-point-names-missing-attribute", "$ vllm serve m\n" + ENTRY_POINT),
    (
        "tool-parser-plugin-raises-on-model-output",
        "$ vllm serve m --tool-parser-plugin ./acme.py --tool-call-parser "
        "acme --enable-auto-tool-choice\n"
        '{"error":{"message":"Extra data: line 1 column 5 (char 4)","type":"BadRequestError","param":null,"code":400}}\n',
    ),
    ("middleware-raises-on-request", MIDDLEWARE),
    (
        "chat-content-format-openai-with-string-template",
        "$ vllm serve m --chat-template=/srv/t.jinja --chat-template-content-format=openai\n",
    ),
]

NEAR_MISSES = [
    # no allowlist, no --target: a misspelt parser name stays parser-unknown's
    (
        "vllm-plugins-allowlist-excludes-plugin",
        "$ vllm serve m --reasoning-parser my_think\n" + UNKNOWN_REASONING,
    ),
    (
        "plugin-target-dir-not-on-pythonpath",
        "$ pip install --target /opt/plugins ./acme-calls\n"
        "$ PYTHONPATH=/opt/plugins vllm serve m --tool-call-parser acme_calls\n" + UNKNOWN_TOOL,
    ),
    # a module lacking an attribute in the user's own code, not an entry point's load
    (
        "general-plugin-entry-point-names-missing-attribute",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n    np.float\n'
        "AttributeError: module 'numpy' has no attribute 'float'\n",
    ),
    # json's error with no tool parser plugin in play
    (
        "tool-parser-plugin-raises-on-model-output",
        "$ vllm serve m\n"
        '{"error":{"message":"Expecting value: line 1 column 1 (char 0)","type":"BadRequestError","code":400}}\n',
    ),
    # a dispatch frame with no --middleware (a framework's own)
    ("middleware-raises-on-request", MIDDLEWARE.replace(" --middleware audit.AuditMiddleware", "")),
    (
        "chat-content-format-openai-with-string-template",
        "$ vllm serve m --chat-template-content-format openai\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_parser_unknown_steps_aside_for_the_allowlist():
    top = top_cause(run("$ VLLM_PLUGINS= vllm serve m --tool-call-parser acme_calls\n" + UNKNOWN_TOOL))
    assert (top.id, top.confidence) == ("vllm-plugins-allowlist-excludes-plugin", 0.85)


def test_non_empty_allowlist_is_only_a_hint():
    top = top_cause(
        run("$ VLLM_PLUGINS=acme_hooks vllm serve m --tool-call-parser acme_calls\n" + UNKNOWN_TOOL)
    )
    assert top.id == "vllm-plugins-allowlist-excludes-plugin" and top.confidence < 0.7


def test_entry_point_attribute_is_not_fatal():
    top = top_cause(run("$ vllm serve m\n" + ENTRY_POINT))
    assert (top.id, top.fatal) == ("general-plugin-entry-point-names-missing-attribute", False)


def test_register_raising_from_a_target_folder_is_the_plugins():
    """load_general_plugins calls register() bare: the plugin's file, on a folder of its own, names the package."""
    log = (
        "$ PYTHONPATH=/opt/plugins vllm serve m\nTraceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 3190, in add_cli_args\n'
        "    load_general_plugins()\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/plugins/__init__.py", line 90, in load_general_plugins\n'
        "    func()\n"
        '  File "/opt/plugins/acme_router.py", line 12, in register\n'
        "    raise ValueError(url)\n"
        "ValueError: ACME_URL malformed\n"
    )
    top = top_cause(run(log))
    assert top.id == "third-party-package-raised" and "acme_router" in top.cause
