"""What fresh-418 (code that is not vLLM's, run by vLLM, round 4) taught, learn47g.

- logits-processor-not-logitsprocessor-subclass (knowledge/plugins.toml): vLLM V1's _load_logitsprocs_by_fqcns
  refusing a --logits-processors class that is not a LogitsProcessor subclass (or not a class at all).
- remote-code-raises-at-import (knowledge/plugins.toml): a checkpoint's auto_map file raising at import, read by
  vLLM's 'Error parsing config for PATH: name 'X' is not defined' retry line or by the exception's place
  (transformers_modules/).
- torch-without-cuda's `engine_called`: a plugin's own call to torch.cuda on a CPU-only build is the plugin's
  (third-party-package-raised naming the plugin's file), not the install's.
- 'No module named <a path>' (vLLM's import_plugin trying the path as a module name) is noise: the parser plugin
  file's own SyntaxError is the plugin's (third-party-package-raised).
- engine_features.toml [[constructs]]: a TypeError of a custom logits processor's own signature at vLLM's
  build_logitsprocs is that class's (third-party-package-raised).
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

W = "(Worker pid=4102) ERROR 03-14 11:02:17 [multiproc_executor.py:953] "
SITE = "/opt/venv/lib/python3.12/site-packages"
NOT_SUBCLASS_PYTHON = (  # rendered: the already-loaded-type branch's f"{logitproc.__name__} is not a subclass of ..."
    W + "ValueError: RepetitionGuard is not a subclass of LogitsProcessor\n"
)
NOT_A_TYPE = (  # rendered: "Loaded logit processor must be a type." (a function named by module:qualname)
    "$ vllm serve m --logits-processors guards.rules:ban_fn\n"
    + W
    + "ValueError: Loaded logit processor must be a type.\n"
)
NOT_SUBCLASS_FQCN = (
    W + "ValueError: NoRepeat must be a subclass of LogitsProcessor\n"
)  # rendered: another class

REMOTE_RETRY = (  # rendered: repo_utils.with_retry's logger.error("%s: %s", log_msg, e) for another name
    "(APIServer pid=88) ERROR 03-14 11:02:17 [repo_utils.py:124] Error parsing config for /models/acme-7b: name "
    "'ACME_ROPE_DEFAULTS' is not defined\n"
)


def _remote_trace(
    file: str, error: str
) -> str:  # rendered: get_class_in_module's exec_module of a checkpoint file
    return (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/transformers/dynamic_module_utils.py", line 309, in get_class_in_module\n'
        "    module_spec.loader.exec_module(module)\n"
        '  File "<frozen importlib._bootstrap_external>", line 940, in exec_module\n'
        f'  File "/root/.cache/huggingface/modules/transformers_modules/acme/7b/{file}", line 12, in <module>\n'
        f"{error}\n"
    )


def _plugin_trace(
    plugin: str, error: str
) -> str:  # rendered: load_general_plugins calling a plugin's register()
    return (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/engine/arg_utils.py", line 3202, in add_cli_args\n'
        "    load_general_plugins()\n"
        f'  File "{SITE}/vllm/plugins/__init__.py", line 90, in load_general_plugins\n'
        "    func()\n"
        f'  File "{plugin}", line 7, in register\n'
        "    torch.cuda.set_device(0)\n"
        f'  File "{SITE}/torch/cuda/__init__.py", line 560, in set_device\n'
        "    torch._C._cuda_setDevice(device)\n"
        f'  File "{SITE}/torch/cuda/__init__.py", line 522, in _lazy_init\n'
        '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
        f"{error}\n"
    )


P = "(APIServer pid=311) ERROR 03-14 11:02:17 [import_utils.py:95] "


def _parser_plugin(
    error_lines: list[str],
) -> str:  # rendered: import_plugin's logger.exception, two chained errors
    lines = [
        "Failed to load module 'acme_reasoner' from /srv/plugins/acme_reasoner.py.",
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm/utils/import_utils.py", line 89, in import_plugin',
        "    return importlib.import_module(plugin_path)",
        "ModuleNotFoundError: No module named '/srv/plugins/acme_reasoner'",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm/utils/import_utils.py", line 93, in import_plugin',
        "    return import_from_path(module_name, plugin_path)",
        f'  File "{SITE}/vllm/utils/import_utils.py", line 115, in import_from_path',
        "    spec.loader.exec_module(module)",
        '  File "<frozen importlib._bootstrap_external>", line 936, in exec_module',
        *error_lines,
    ]
    return "".join(P + x + "\n" for x in lines) + (
        "KeyError: \"Reasoning parser 'acme_reasoner' not found. Available parsers: deepseek_r1, qwen3\"\n"
    )


def _constructor(
    message: str,
) -> str:  # rendered: build_logitsprocs' ctor(vllm_config, device, is_pin_memory)
    return (
        W + "Traceback (most recent call last):\n"
        f'{W}  File "{SITE}/vllm/v1/sample/logits_processor/__init__.py", line 219, in build_logitsprocs\n'
        f"{W}    return LogitsProcessors(\n"
        f'{W}  File "{SITE}/vllm/v1/sample/logits_processor/__init__.py", line 220, in <genexpr>\n'
        f"{W}    ctor(vllm_config, device, is_pin_memory)\n"
        f"{W}TypeError: {message}\n"
    )


CASES = [
    ("logits-processor-not-logitsprocessor-subclass", NOT_SUBCLASS_PYTHON),
    ("logits-processor-not-logitsprocessor-subclass", NOT_A_TYPE),
    ("logits-processor-not-logitsprocessor-subclass", NOT_SUBCLASS_FQCN),
    ("remote-code-raises-at-import", REMOTE_RETRY),
    ("remote-code-raises-at-import", _remote_trace("modeling_acme.py", "SyntaxError: invalid syntax")),
    (
        "remote-code-raises-at-import",
        _remote_trace("tokenization_acme.py", "NameError: name 'SPIECE_UNDERLINE' is not defined"),
    ),
]

NEAR_MISSES = [
    # vLLM's own refusal of a processor for pooling models: not the class's kind
    (
        "logits-processor-not-logitsprocessor-subclass",
        W + "ValueError: Pooling models do not support custom logits processors.\n",
    ),
    # a NameError in vLLM's own code, not a checkpoint's file
    (
        "remote-code-raises-at-import",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/config/model.py", line 88, in __post_init__\n'
        "NameError: name 'hf_config' is not defined\n",
    ),
    # remote code raising a ValueError of its own check at call time: not an import-time error
    (
        "remote-code-raises-at-import",
        _remote_trace("modeling_acme.py", "ValueError: rope_theta must be positive"),
    ),
    # vLLM asking torch for CUDA itself on a CPU-only build stays torch-without-cuda: no plugin named here
    ("third-party-package-raised", "AssertionError: Torch not compiled with CUDA enabled\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_plugins_cuda_call_on_a_cpu_build_is_the_plugins():
    result = run(
        "$ vllm serve m\n"
        + _plugin_trace("/srv/site/acme_pin.py", "AssertionError: Torch not compiled with CUDA enabled")
    )
    top = top_cause(result)
    assert (top.id, "acme_pin" in top.cause) == ("third-party-package-raised", True) and top.confidence < 0.7
    assert "torch-without-cuda" not in [d.id for d in result.diagnoses]


def test_torch_without_cuda_stays_where_vllm_itself_asked():
    log = (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/platforms/cuda.py", line 120, in set_device\n'
        "    torch.cuda.set_device(device)\n"
        f'  File "{SITE}/torch/cuda/__init__.py", line 522, in _lazy_init\n'
        "AssertionError: Torch not compiled with CUDA enabled\n"
    )
    assert top_cause(run(log)).id == "torch-without-cuda"


def test_a_parser_plugin_files_syntax_error_is_the_plugins():
    log = _parser_plugin(
        [
            '  File "/srv/plugins/acme_reasoner.py", line 14',
            "    return [t for t in ids if t != self.end_id",
            "SyntaxError: '[' was never closed",
        ]
    )
    result = run(log)
    top = top_cause(result)
    assert (top.id, "acme_reasoner" in top.cause) == ("third-party-package-raised", True)
    assert "python-module-missing" not in [d.id for d in result.diagnoses]


def test_a_module_name_without_a_path_is_still_missing():
    assert (
        top_cause(run("ModuleNotFoundError: No module named 'acme_reasoner'\n")).id == "python-module-missing"
    )


def test_a_custom_processors_wrong_constructor_is_the_class():
    for message in (
        "NoRepeat.__init__() missing 1 required positional argument: 'window'",
        "NoRepeat.__init__() takes from 2 to 3 positional arguments but 4 were given",
    ):
        top = top_cause(run(_constructor(message)))
        assert (top.id, "NoRepeat" in top.cause) == ("third-party-package-raised", True)


def test_a_builtin_processors_type_error_stays_vllms():
    top = top_cause(
        run(_constructor("MinPLogitsProcessor.__init__() takes 3 positional arguments but 4 were given"))
    )
    assert top.id != "third-party-package-raised"
