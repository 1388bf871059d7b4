"""What fresh-461 (code that is not vLLM's, run by vLLM, round 5) taught, learn50e.

- attribution [[calls]]: a plugin function vLLM calls with no arguments (load_general_plugins' `func()`) whose own
  signature wants one: the TypeError is raised in vLLM's frame (Python raises a call's mismatch in the caller), yet it
  is the plugin's (third-party-package-raised naming the function).
- logits-processor-class-missing-from-module: --logits-processors module:Class (getattr in v1/sample/logits_processor/)
  or a vllm.logits_processors entry point (logged 'Failed to load LogitsProcessor plugin EntryPoint(...): ...').
- parser-plugin-path-with-leading-dot: import_plugin tries './x.py' as a module name first; importlib's relative-import
  TypeError ends the start.
- vllm-plugins-entry-with-whitespace: VLLM_PLUGINS='a, b' (envs.py splits on ',' without strip): ' b' names no plugin.
- endpoint-plugin-skipped-for-required-tasks: load_endpoint_plugins' INFO 'Skipping endpoint plugin NAME: requires one
  of tasks ..., server supports ...': non-fatal, below any death.
- remote_import: "No module named 'X'" raised by a checkpoint's own file (transformers_modules/), an import
  transformers' check_imports skipped: remote-code-packages-missing.
- demotions: a symptom (path-not-found) followed by a server that came up and answered every request is a note.
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

VLLM = "/opt/venv/lib/python3.12/site-packages/vllm"
PLUGIN_CALL = (
    "$ PYTHONPATH=/opt/plugins vllm serve m\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/engine/arg_utils.py", line 3190, in add_cli_args\n    load_general_plugins()\n'
    f'  File "{VLLM}/plugins/__init__.py", line 90, in load_general_plugins\n    func()\n'
    "TypeError: {message}\n"
)
W = "(VllmWorker-0 pid=41) ERROR 05-01 09:00:01 [multiproc_executor.py:953] "
FQCN = (
    "$ vllm serve m --logits-processors acme.procs:Outer.NoRepeat\n"
    f"{W}Traceback (most recent call last):\n"
    f'{W}  File "{VLLM}/v1/sample/logits_processor/__init__.py", line 154, in _load_logitsprocs_by_fqcns\n'
    f"{W}    obj = getattr(obj, attr)\n"
    f"{W}AttributeError: type object 'Outer' has no attribute 'NoRepeat'\n"  # rendered
)
ENTRY_POINT = (
    "$ vllm serve m\n(EngineCore pid=9) ERROR 05-01 09:00:01 [__init__.py:79] Failed to load LogitsProcessor plugin "
    "EntryPoint(name='no_repeat', value='acme_lp:NoRepeatProc', group='vllm.logits_processors'): module 'acme_lp' "
    "has no attribute 'NoRepeatProc'\n"  # rendered
    "(EngineCore pid=9) ERROR 05-01 09:00:01 [core.py:1510] RuntimeError: Failed to load LogitsProcessor plugin "
    "EntryPoint(name='no_repeat', value='acme_lp:NoRepeatProc', group='vllm.logits_processors')\n"
)
DOT_PATH = (
    "$ vllm serve m --tool-parser-plugin ../parsers/acme_tool.py --tool-call-parser acme --enable-auto-tool-choice\n"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/utils/import_utils.py", line 89, in import_plugin\n'
    "    return importlib.import_module(plugin_path)\n"
    '  File "/usr/lib/python3.12/importlib/__init__.py", line 84, in import_module\n'
    "    raise TypeError(msg.format(name))\n"
    "TypeError: the 'package' argument is required to perform a relative import for '../parsers/acme_tool.py'\n"
)
UNKNOWN_REASONING = (
    "KeyError: \"Reasoning parser 'acme_r' not found. Available parsers: deepseek_r1, qwen3\"\n"  # rendered
)
REMOTE = (
    "$ vllm serve acme/tiny-moe --trust-remote-code\nTraceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/dynamic_module_utils.py", line 309, in get_class_in_module\n'
    '  File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed\n'
    '  File "/root/.cache/huggingface/modules/transformers_modules/acme/tiny_moe/0f3c/modeling_tiny_moe.py", line 12, in '
    "<module>\n    from moe_kernels.ops import grouped_gemm\n"
    "ModuleNotFoundError: No module named 'moe_kernels'\n"
)
SKIPPED = (
    "$ VLLM_PLUGINS=acme_asr vllm serve m\n(APIServer pid=5) INFO 05-01 09:00:01 [__init__.py:147] Skipping endpoint "
    "plugin acme_asr: requires one of tasks ('transcription',), server supports None\n"  # rendered
    "INFO:     Application startup complete.\n"
)
HEALTHY_AFTER = (
    "$ vllm serve m\nacme_quota: no config, using defaults\nTraceback (most recent call last):\n"
    '  File "/opt/plugins/acme_quota.py", line 8, in register\n    open("/etc/acme/quota.yaml")\n'
    "FileNotFoundError: [Errno 2] No such file or directory: '/etc/acme/quota.yaml'\n"
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:5000 - "POST /v1/completions HTTP/1.1" 200 OK\n'
)

CASES = [
    (
        "third-party-package-raised",
        PLUGIN_CALL.format(message="setup() missing 2 required positional arguments: 'cfg' and 'registry'"),
    ),
    ("logits-processor-class-missing-from-module", FQCN),
    ("logits-processor-class-missing-from-module", ENTRY_POINT),
    ("parser-plugin-path-with-leading-dot", DOT_PATH),
    ("endpoint-plugin-skipped-for-required-tasks", SKIPPED),
    ("remote-code-packages-missing", REMOTE),
    (
        "vllm-plugins-entry-with-whitespace",
        'Environment="VLLM_PLUGINS=acme_hooks , acme_reason"\n$ vllm serve m --reasoning-parser acme_r\n'
        + UNKNOWN_REASONING,
    ),
    (
        "vllm-plugins-entry-with-whitespace",
        '$ docker run -e "VLLM_PLUGINS=acme_hooks, acme_arch" vllm/vllm-openai m\n'
        "ValueError: Model architectures ['AcmeForCausalLM'] are not supported for now. Supported architectures: "
        "dict_keys(['LlamaForCausalLM'])\n",  # rendered
    ),
]

NEAR_MISSES = [
    # a module lacking an attribute in the user's own script, not a logits processor's load
    (
        "logits-processor-class-missing-from-module",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n    np.float\n'
        "AttributeError: module 'numpy' has no attribute 'float'\n",
    ),
    # a relative import of a module name (no path, no .py): a package's own bug, not a plugin path
    (
        "parser-plugin-path-with-leading-dot",
        DOT_PATH.replace("../parsers/acme_tool.py'", ".acme_tool'"),
    ),
    # the same skip line, then the engine died of something else: that death is the answer
    (
        "endpoint-plugin-skipped-for-required-tasks",
        SKIPPED + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
        "capacity of 79.19 GiB of which 1.06 GiB is free.\n",
    ),
    # the checkpoint's file imported an installed package, which lacks ITS dependency: that package's, not the model's
    (
        "remote-code-packages-missing",
        REMOTE.replace(
            "ModuleNotFoundError",
            '  File "/opt/venv/lib/python3.12/site-packages/moe_kernels/ops.py", line 3, in <module>\n'
            "    import zstd_fast\nModuleNotFoundError",
        ).replace("'moe_kernels'", "'zstd_fast'"),
    ),
    # a sibling file the checkpoint lacks (transformers_modules.REPO.x), not a package to install
    (
        "remote-code-packages-missing",
        REMOTE.replace("'moe_kernels'", "'transformers_modules.acme.tiny_moe.utils'"),
    ),
    # the list written without spaces: the whitespace is not the cause (the hint of the allowlist may stand, below 0.7)
    (
        "vllm-plugins-entry-with-whitespace",
        "$ VLLM_PLUGINS='acme_hooks,acme_reason' vllm serve m --reasoning-parser acme_r\n"
        + UNKNOWN_REASONING,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_plugin_call_names_the_function_and_how_vllm_calls_it():
    top = top_cause(
        run(PLUGIN_CALL.format(message="setup() missing 1 required keyword-only argument: 'cfg'"))
    )
    assert top.id == "third-party-package-raised" and "setup() with no arguments" in top.cause


def test_other_type_error_in_the_plugin_loader_is_not_a_signature():
    """A TypeError at the same call site that is not a call's argument mismatch names no function."""
    top = top_cause(run(PLUGIN_CALL.format(message="'NoneType' object is not callable")))
    assert top is None or top.id != "third-party-package-raised"


def test_symptom_before_a_healthy_server_is_a_note():
    result = run(HEALTHY_AFTER)
    assert top_cause(result) is None
    assert any(d.id == "path-not-found" and d.role == "note" for d in result.diagnoses)


def test_symptom_before_a_refused_request_stays():
    """A 500 after the server came up: served_after does not hold, the missing file stays an answer."""
    log = (
        HEALTHY_AFTER
        + 'INFO:     127.0.0.1:5001 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "path-not-found"


def test_remote_import_names_the_package():
    top = top_cause(run(REMOTE))
    assert top.id == "remote-code-packages-missing" and top.cause.endswith("moe_kernels.")


def test_skipped_endpoint_plugin_is_not_fatal():
    top = top_cause(run(SKIPPED))
    assert (top.id, top.fatal) == ("endpoint-plugin-skipped-for-required-tasks", False)
    assert "'transcription'" in top.cause and "None" in top.cause
