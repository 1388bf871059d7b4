"""What fresh-399 (code that is not vLLM's, run by vLLM: plugins, remote code) taught, learn46e.

- A plugin vLLM could not load: vllm/plugins/__init__.py load_plugins_by_group logs 'Failed to load plugin NAME' with
  the traceback (logger.exception) in every process and goes on without it; plugins/io_processors 'Failed to load
  plugin NAME.' (WARNING, exc_info); load_endpoint_plugins 'Failed to instantiate endpoint plugin NAME'. The family
  naming the plugin's exception answers, non-fatal below the confident line (plugin_load.py); the marker entry
  vllm-plugin-not-loaded where none names it; a real failure ranks above it; a register() that raises (called bare by
  load_general_plugins, no such line) stays that exception's fatal cause.
- remote-code-config-class-rejects-config-keys (new): transformers' PretrainedConfig.from_dict `cls(**config_dict)`
  building a foreign config class without **kwargs, in vLLM's with_retry wording 'Error parsing config for PATH: MSG'
  and as a bare TypeError under a from_dict frame.
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

ENGINE = "(EngineCore pid=812) ERROR 03-02 10:00:05 [__init__.py:72] "
UP = (
    "(APIServer pid=790) INFO 03-02 10:00:30 [launcher.py:46] Route: /v1/chat/completions, Methods: POST\n"
    "(APIServer pid=790) INFO:     Application startup complete.\n"
    '(APIServer pid=790) INFO:     127.0.0.1:40312 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
)


def plugin_failed(name: str, module: str, last: str, prefix: str = "", header: str = "") -> str:
    """load_plugins_by_group's logger.exception (rendered): the header, then importlib's traceback into the plugin."""
    header = header or f"Failed to load plugin {name}"
    frames = [
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/plugins/__init__.py", line 69, in load_plugins_by_group',
        "    func = plugin.load()",
        '  File "/usr/lib/python3.12/importlib/metadata/__init__.py", line 205, in load',
        "    module = import_module(match.group('module'))",
        '  File "<frozen importlib._bootstrap>", line 1387, in _gcd_import',
        f'  File "/opt/plugins/{module}.py", line 4, in <module>',
        "    import something",
        last,
    ]
    return "".join(f"{prefix}{line}\n" for line in [header, *frames])


START = "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8000\n"

CASES = [
    # a plugin written for vLLM v0 importing its worker module, twice (API server untagged, engine core), then served
    (
        "vllm-internal-module-moved",
        START
        + plugin_failed("kv_stats", "kv_stats", "ModuleNotFoundError: No module named 'vllm.worker.worker'")
        + plugin_failed(
            "kv_stats", "kv_stats", "ModuleNotFoundError: No module named 'vllm.worker.worker'", ENGINE
        )
        + UP,
    ),
    # a plugin's dependency left out of a --no-deps install (rendered: opentelemetry), engine core only, then served
    (
        "python-module-missing",
        START
        + plugin_failed(
            "otel_hooks", "otel_hooks", "ModuleNotFoundError: No module named 'opentelemetry.sdk'", ENGINE
        )
        + UP,
    ),
    # a plugin's own exception at import that no family names: the marker answers
    (
        "vllm-plugin-not-loaded",
        START
        + plugin_failed("audit_log", "audit_log", "RuntimeError: AUDIT_LOG_DIR is not set", ENGINE)
        + UP,
    ),
    # io_processors' WARNING with exc_info, 'Failed to load plugin NAME.' (rendered)
    (
        "vllm-plugin-not-loaded",
        START
        + plugin_failed(
            "prithvi",
            "prithvi_io",
            "AssertionError",
            "(APIServer pid=790) WARNING 03-02 10:00:05 [__init__.py:71] ",
            "Failed to load plugin prithvi.",
        )
        + UP,
    ),
    # load_endpoint_plugins' 'Failed to instantiate endpoint plugin NAME' (rendered)
    (
        "vllm-plugin-not-loaded",
        START
        + plugin_failed(
            "admin_routes",
            "admin_routes",
            "ValueError: admin token missing",
            "(APIServer pid=790) ERROR 03-02 10:00:05 [__init__.py:140] ",
            "Failed to instantiate endpoint plugin admin_routes",
        )
        + UP,
    ),
    # remote config classes: vLLM's with_retry wording for another key and class (rendered)
    (
        "remote-code-config-class-rejects-config-keys",
        "$ vllm serve /models/chatglm3-6b --trust-remote-code\n"
        "(APIServer pid=51) ERROR 03-02 10:00:01 [repo_utils.py:126] Error parsing config for /models/chatglm3-6b: "
        "ChatGLMConfig.__init__() got an unexpected keyword argument 'transformers_version', retrying 1 of 2\n"
        "(APIServer pid=51) ERROR 03-02 10:00:03 [repo_utils.py:124] Error parsing config for /models/chatglm3-6b: "
        "ChatGLMConfig.__init__() got an unexpected keyword argument 'transformers_version'\n",
    ),
    # ... and a script's AutoConfig.from_pretrained with transformers 4.x, the bare TypeError under from_dict (rendered)
    (
        "remote-code-config-class-rejects-config-keys",
        "$ python load.py\nTraceback (most recent call last):\n"
        '  File "/home/u/load.py", line 3, in <module>\n'
        '    cfg = AutoConfig.from_pretrained("/models/mini", trust_remote_code=True)\n'
        '  File "/home/u/.venv/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", '
        "line 1053, in from_pretrained\n"
        "    return config_class.from_pretrained(pretrained_model_name_or_path, **kwargs)\n"
        '  File "/home/u/.venv/lib/python3.10/site-packages/transformers/configuration_utils.py", line 605, '
        "in from_pretrained\n"
        "    return cls.from_dict(config_dict, **kwargs)\n"
        '  File "/home/u/.venv/lib/python3.10/site-packages/transformers/configuration_utils.py", line 761, '
        "in from_dict\n"
        "    config = cls(**config_dict)\n"
        "TypeError: MiniConfig.__init__() got an unexpected keyword argument 'torch_dtype'\n",
    ),
]

NEAR_MISSES = [
    # a remote MODEL class refusing a keyword (modeling_utils, no from_dict frame): not the config class's family
    (
        "remote-code-config-class-rejects-config-keys",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/transformers/modeling_utils.py", line 4971, in from_pretrained\n'
        "    model = cls(config, *model_args, **model_kwargs)\n"
        "TypeError: MiniForCausalLM.__init__() got an unexpected keyword argument 'attn_implementation'\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_plugin_not_loaded_is_not_fatal_and_below_confident():
    """vLLM served on without the plugin: the family naming why answers, non-fatal at 0.5, the marker a note."""
    log = START + plugin_failed(
        "kv_stats", "kv_stats", "ModuleNotFoundError: No module named 'langchain'", ENGINE
    )
    result = run(log + UP)
    top = top_cause(result)
    assert (top.id, top.fatal, top.confidence) == ("python-module-missing", False, 0.5)
    assert "Failed to load plugin" in top.cause and "kv_stats" in top.cause
    assert {d.id: d.role for d in result.diagnoses}.get("vllm-plugin-not-loaded") == "note"
    assert result.exception is None  # caught by vLLM: never the root


def test_register_that_raises_stays_fatal():
    """A register() raising is not caught (load_general_plugins calls it bare; no 'Failed to load plugin')."""
    log = (
        START + "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/plugins/__init__.py", line 90, in load_general_plugins\n'
        "    func()\n"
        '  File "/opt/plugins/otel_hooks.py", line 9, in register\n'
        "    import opentelemetry.sdk\n"
        "ModuleNotFoundError: No module named 'opentelemetry.sdk'\n"
    )
    top = top_cause(run(log))
    assert (top.id, top.fatal) == ("python-module-missing", True) and top.confidence > 0.5  # not the 0.5 cap


def test_real_failure_ranks_above_a_plugin_not_loaded():
    """A plugin not loaded, then the start failing by itself before the server came up: that failure answers."""
    log = (
        START
        + plugin_failed("kv_stats", "kv_stats", "ModuleNotFoundError: No module named 'langchain'", ENGINE)
        + "(EngineCore pid=812) ERROR 03-02 10:00:09 [core.py:708] ValueError: To serve at least one request "
        "with the models's max seq len (32768), (3.50 GiB KV cache is needed, which is larger than the available "
        "KV cache memory (1.20 GiB). Based on the available memory, the estimated maximum model length is 11216. "
        "Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n"
    )
    top = top_cause(run(log))
    assert top.id != "python-module-missing" and top.id != "vllm-plugin-not-loaded", top.id


def test_corpus_wording_for_the_new_family():
    """The corpus log's own wording (model_type refused), for reference."""
    assert_named(
        "remote-code-config-class-rejects-config-keys",
        "ERROR 12-06 18:14:10 [repo_utils.py:124] Error parsing config for /tmp/x/tiny: "
        "TinyLlamaConfig.__init__() got an unexpected keyword argument 'model_type'\n",
    )


def test_a_later_failure_of_vllm_is_not_the_plugins():
    """A plugin's traceback the reader did not take as an exception, then vLLM's own failure in the same process
    within the span: raised in vLLM's code (no plugins frame), so it stays fatal, not the plugin's."""
    log = (
        START + ENGINE + "Failed to load plugin kv_stats\n" + ENGINE + "Traceback (most recent call last):\n"
        "(EngineCore pid=812) INFO 03-02 10:00:06 [core.py:133] Initializing a V1 LLM engine\n"
        "(EngineCore pid=812) ERROR 03-02 10:00:09 [core.py:708] Traceback (most recent call last):\n"
        '(EngineCore pid=812) ERROR 03-02 10:00:09 [core.py:708]   File "/opt/venv/lib/python3.12/site-packages/'
        'vllm/v1/engine/core.py", line 699, in run_engine_core\n'
        "(EngineCore pid=812) ERROR 03-02 10:00:09 [core.py:708]     raise ModuleNotFoundError(\"No module named 'triton'\")\n"
        "(EngineCore pid=812) ERROR 03-02 10:00:09 [core.py:708] ModuleNotFoundError: No module named 'triton'\n"
    )
    top = top_cause(run(log))
    assert top.fatal and top.confidence > 0.5, (top.id, top.fatal, top.confidence)
