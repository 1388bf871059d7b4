"""What fresh-465 (code that is not vLLM's, run by vLLM, round 6) taught, learn51d.

- stat-logger-plugin-entry-point-not-class: v1/metrics/loggers.py load_stat_logger_plugin_factories refuses a
  vllm.stat_logger_plugins entry point that is not a StatLoggerBase subclass (a factory function, an instance, a class
  of its own): "TypeError: Stat logger plugin 'X' must be a subclass of StatLoggerBase (got ...)".
- plugin-entry-point-group-misspelt: a plugin package's entry point under a vllm.* group vLLM never reads (the user's
  pyproject.toml / setup.py / entry_points.txt shown in the log), so the parser or model it registers is unknown.
- tool-parser-plugin-lacks-extract-tool-calls: ToolParser's base methods raise NotImplementedError ('AbstractToolParser.
  extract_tool_calls has not been implemented!'); the request answers 501.
- attribution [[constructs]]: a stat-logger plugin class (StatLoggerManager: factory(vllm_config, engine_index)) or an
  IO-processor plugin class (cls(vllm_config, renderer)) whose __init__ lacks a parameter: the class author's.
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

VLLM = "/opt/venv/lib/python3.12/site-packages/vllm"
STAT_TYPE = (
    "$ vllm serve acme/chat-7b\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/v1/engine/async_llm.py", line 147, in __init__\n'
    "    custom_stat_loggers.extend(load_stat_logger_plugin_factories())\n"
    f'  File "{VLLM}/v1/metrics/loggers.py", line 91, in load_stat_logger_plugin_factories\n    raise TypeError(\n'
    "TypeError: Stat logger plugin {plugin!r} must be a subclass of StatLoggerBase (got {got}).\n"
)
PYPROJECT = (
    '$ cat acme_tools/pyproject.toml\n[project]\nname = "acme-tools"\n\n'
    '[project.entry-points.{group}]\nacme = "acme_tools:register"\n'
    "$ pip install ./acme_tools\n$ vllm serve m --enable-auto-tool-choice --tool-call-parser acme_xml\n"
    "KeyError: 'invalid tool call parser: acme_xml (chose from {{ hermes,llama3_json,mistral }})'\n"  # rendered
)
ENTRY_POINTS_TXT = (
    "$ cat /opt/venv/lib/python3.12/site-packages/acme_models-0.2.dist-info/entry_points.txt\n"
    "[{group}]\nacme_models = acme_models:register\n"
    "$ vllm serve /models/acme-moe\n"
    "ValueError: Model architectures ['AcmeMoeForCausalLM'] are not supported for now. Supported architectures: "
    "dict_keys(['LlamaForCausalLM'])\n"  # rendered
)
STREAM_REPLY = (
    "$ vllm serve m --tool-parser-plugin /srv/acme_parser.py --tool-call-parser acme --enable-auto-tool-choice\n"
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:51000 - "POST /v1/chat/completions HTTP/1.1" 501 Not Implemented\n'
    '{{"error":{{"message":"AbstractToolParser.{method} has not been implemented!","type":"NotImplementedError",'
    '"param":null,"code":501}}}}\n'
)
STAT_CTOR = (
    "$ vllm serve m\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/v1/engine/async_llm.py", line 197, in __init__\n    self.logger_manager = StatLoggerManager(\n'
    f'  File "{VLLM}/v1/metrics/loggers.py", line 1410, in __init__\n'
    "    global_stat_logger = PerEngineStatLoggerAdapter(\n"
    f'  File "{VLLM}/v1/metrics/loggers.py", line 443, in __init__\n'
    "    self.per_engine_stat_loggers[engine_index] = per_engine_stat_logger_factory(\n"
    "TypeError: {message}\n"
)

CASES = [
    (
        "stat-logger-plugin-entry-point-not-class",
        STAT_TYPE.format(plugin="acme_otel", got="<class 'acme.Otel'>"),
    ),
    (
        "stat-logger-plugin-entry-point-not-class",
        STAT_TYPE.format(plugin="acme_otel", got="<acme_otel.OtelLogger object at 0x7f00deadbeef>"),
    ),
    ("plugin-entry-point-group-misspelt", PYPROJECT.format(group='"vllm.general-plugins"')),
    ("plugin-entry-point-group-misspelt", ENTRY_POINTS_TXT.format(group="vllm.plugins")),
    (
        "plugin-entry-point-group-misspelt",
        "$ cat setup.py\nsetup(name='acme', entry_points={'vllm.general_plugin': ['acme = acme:register']})\n"
        "KeyError: \"Reasoning parser 'acme_think' not found. Available parsers: deepseek_r1, qwen3\"\n",  # rendered
    ),
    (
        "tool-parser-plugin-lacks-extract-tool-calls",
        STREAM_REPLY.format(method="extract_tool_calls_streaming"),
    ),
    ("tool-parser-plugin-lacks-extract-tool-calls", STREAM_REPLY.format(method="extract_tool_calls")),
    (
        "third-party-package-raised",
        STAT_CTOR.format(message="OtelLogger.__init__() missing 1 required positional argument: 'endpoint'"),
    ),
]

NEAR_MISSES = [
    # the group spelt right: the plugin was found; an unknown name is then a misspelt parser (or its own register())
    ("plugin-entry-point-group-misspelt", PYPROJECT.format(group='"vllm.general_plugins"')),
    ("plugin-entry-point-group-misspelt", ENTRY_POINTS_TXT.format(group="vllm.general_plugins")),
    # a misspelt group with nothing unknown (the failure is another): not this cause
    (
        "plugin-entry-point-group-misspelt",
        PYPROJECT.format(group='"vllm.general_plugin"').replace(
            "KeyError: 'invalid tool call parser: acme_xml (chose from { hermes,llama3_json,mistral })'",
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
            "79.19 GiB of which 1.06 GiB is free.",
        ),
    ),
    # vLLM's own log line [vllm.py:725] holds '[vllm.' but is no entry-point group
    (
        "plugin-entry-point-group-misspelt",
        "(APIServer pid=5) WARNING 05-01 09:00:01 [vllm.py:725] Model Runner V2 requires Triton\n"
        "KeyError: 'invalid tool call parser: acme_xml (chose from { hermes,mistral })'\n",
    ),
    # a healthy server answering tool requests: the parser lacks nothing
    (
        "tool-parser-plugin-lacks-extract-tool-calls",
        STREAM_REPLY.format(method="x").split("INFO:     127")[0]
        + 'INFO:     127.0.0.1:51000 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_group_misspelt_outranks_pick_a_listed_name():
    """The misspelt group is the cause; parser-unknown's 'pick a name from the list' must not be the answer."""
    result = run(PYPROJECT.format(group='"vllm.general_plugin"'))
    assert top_cause(result).id == "plugin-entry-point-group-misspelt"
    assert "tool call parser 'acme_xml'" in top_cause(result).cause
    assert not any(d.id == "parser-unknown" and d.role == "cause" for d in result.diagnoses)


def test_without_the_setup_in_the_log_the_name_stays_unknown():
    top = top_cause(run("KeyError: 'invalid tool call parser: acme_xml (chose from { hermes,mistral })'\n"))
    assert top.id == "parser-unknown"


def test_stat_logger_names_the_entry_point_and_what_it_got():
    top = top_cause(run(STAT_TYPE.format(plugin="acme_otel", got="<function build at 0x7f0011223344>")))
    assert "'acme_otel'" in top.cause and "<function build" in top.cause and top.fatal


def test_streaming_only_parser_says_which_method_and_the_other_mode():
    top = top_cause(run(STREAM_REPLY.format(method="extract_tool_calls_streaming")))
    assert "extract_tool_calls_streaming" in top.fix and "stream=false" in top.fix


def test_stat_logger_ctor_names_how_vllm_builds_it():
    top = top_cause(
        run(STAT_CTOR.format(message="Otel.__init__() takes 2 positional arguments but 3 were given"))
    )
    assert top.id == "third-party-package-raised" and "engine_index" in top.cause


def test_vllm_own_stat_logger_mismatch_is_not_a_plugin():
    """A TypeError of vLLM's own logger class at the same site stays vLLM's (own = [...])."""
    message = "PrometheusStatLogger.__init__() got an unexpected keyword argument 'engine_indexes'"
    top = top_cause(run(STAT_CTOR.format(message=message)))
    assert top is None or top.id != "third-party-package-raised"


ENDPOINT_METHOD = (
    "$ VLLM_PLUGINS=acme_admin vllm serve m\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/entrypoints/openai/api_server.py", line 900, in init_app_state\n'
    "    await init_endpoint_plugins_state(engine_client, state, args)\n"
    f'  File "{VLLM}/plugins/endpoint_plugins/interface.py", line 164, in init_endpoint_plugins_state\n'
    "    await plugin.init_state(engine_client, state, args)\n"
    "TypeError: {message}\n"
)


def test_endpoint_plugin_method_mismatch_is_the_plugins():
    """vLLM calls init_state(engine_client, state, args): a plugin's method that takes fewer is the plugin author's."""
    message = "AdminPlugin.init_state() takes 3 positional arguments but 4 were given"  # rendered
    top = top_cause(run(ENDPOINT_METHOD.format(message=message)))
    assert (
        top.id == "third-party-package-raised" and "init_state(self, engine_client, state, args)" in top.cause
    )


def test_a_method_the_site_does_not_call_is_not_read_as_the_plugins():
    message = "AdminPlugin.helper() takes 1 positional argument but 2 were given"
    top = top_cause(run(ENDPOINT_METHOD.format(message=message)))
    assert top is None or top.id != "third-party-package-raised"
