"""What fresh-410 (code that is not vLLM's, run by vLLM, round 3) taught, learn47b (knowledge/plugins.toml,
registered_model.py).

- architecture-inspection-failed: a class registered by path (ModelRegistry.register_model(ARCH, "MODULE:CLASS"), a
  general plugin's register()) whose MODULE the installed package does not ship: the registry's own
  importlib.import_module of a dotted name ("No module named 'P.sub'", "...; 'P' is not a package") is neither a
  package to install (python-module-missing) nor a file shadowing a library (engine-package-shadowed-by-source-tree);
  the inspection symptom answers. A missing top-level package, or an import raised below a module of the plugin's own,
  stays as it was.
- vllm-plugins-allowlist-excludes-plugin: an architecture a general plugin registers, unknown because VLLM_PLUGINS does
  not name the plugin (registry.py _raise_for_unsupported; the Transformers fallback's refusal).
- endpoint-plugin-not-allowlisted: load_endpoint_plugins' warning with VLLM_PLUGINS unset.
Messages are vLLM 0.32's format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

P = "(APIServer pid=411) ERROR 03-02 10:00:05 [registry.py:1120] "
SITE = "/opt/venv/lib/python3.12/site-packages"


def inspection(missing: str, own_frame: str = "") -> str:
    """The inspection subprocess's traceback relayed by the API server, then the start's refusal (rendered)."""
    lines = [
        "Error in inspecting model architecture 'MistralForCausalLM'",
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm/model_executor/models/registry.py", line 1572, in _run_in_subprocess',
        "    raise RuntimeError(",
        "RuntimeError: Error raised in subprocess:",
        "Traceback (most recent call last):",
        '  File "<frozen runpy>", line 198, in _run_module_as_main',
        f'  File "{SITE}/vllm/model_executor/models/registry.py", line 1588, in _run',
        "    result = fn()",
        f'  File "{SITE}/vllm/model_executor/models/registry.py", line 1093, in load_model_cls',
        "    mod = importlib.import_module(self.module_name)",
        '  File "/usr/lib/python3.12/importlib/__init__.py", line 90, in import_module',
        "    return _bootstrap._gcd_import(name[level:], package, level)",
        '  File "<frozen importlib._bootstrap>", line 1387, in _gcd_import',
        '  File "<frozen importlib._bootstrap>", line 1360, in _find_and_load',
        *([own_frame, "    import zmq.asyncio"] if own_frame else []),
        '  File "<frozen importlib._bootstrap>", line 1324, in _find_and_load_unlocked',
        f"ModuleNotFoundError: {missing}",
    ]
    return (
        "$ vllm serve /models/m\n"
        + "".join(P + t + "\n" for t in lines)
        + (
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
            "  Value error, Model architectures ['MistralForCausalLM'] failed to be inspected. Please check the logs for "
            "more details. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
        )
    )


UNSUPPORTED = (  # rendered: registry.py _raise_for_unsupported
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
    "  Value error, Model architectures ['AcmeMoeForCausalLM'] are not supported for now. Supported architectures: "
    "dict_keys(['AfmoeForCausalLM', 'ApertusForCausalLM', 'LlamaForCausalLM']) [type=value_error, "
    "input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
)
NO_IMPL = (  # rendered: the Transformers fallback's refusal (0.8+)
    "ValueError: AcmeMoeForCausalLM has no vLLM implementation and the Transformers implementation is not compatible "
    "with vLLM.\n"
)
ENDPOINT = (  # rendered: plugins/__init__.py load_endpoint_plugins
    "(APIServer pid=88) WARNING 03-02 10:01:00 [__init__.py:125] Found endpoint plugin(s) ['acme_admin', 'acme_batch']"
    " but VLLM_PLUGINS is not set. Endpoint plugins add HTTP routes and must be explicitly allowlisted via VLLM_PLUGINS"
    " to be loaded.\n"
    "(APIServer pid=88) INFO 03-02 10:01:03 [launcher.py:190] Starting vLLM server on http://0.0.0.0:8000\n"
    'INFO:     10.0.0.7:51234 - "GET /admin/queue HTTP/1.1" 404 Not Found\n'
)

CASES = [
    (
        "architecture-inspection-failed",
        inspection("No module named 'acme_models.mistral_fast'; 'acme_models' is not a package"),
    ),
    ("architecture-inspection-failed", inspection("No module named 'acme_models.fast.mistral'")),
    (
        "vllm-plugins-allowlist-excludes-plugin",
        "$ VLLM_PLUGINS=acme-moe vllm serve /models/acme\n" + UNSUPPORTED,
    ),
    ("vllm-plugins-allowlist-excludes-plugin", 'Environment="VLLM_PLUGINS="\n' + UNSUPPORTED),
    (
        "vllm-plugins-allowlist-excludes-plugin",
        "$ export VLLM_PLUGINS=acme_tools\n$ vllm serve m\n" + NO_IMPL,
    ),
    ("endpoint-plugin-not-allowlisted", "$ vllm serve m\n" + ENDPOINT),
]

NEAR_MISSES = [
    # no VLLM_PLUGINS: an architecture this vLLM lacks stays unknown-architecture's
    ("vllm-plugins-allowlist-excludes-plugin", "$ vllm serve /models/acme\n" + UNSUPPORTED),
    # VLLM_PLUGINS set to names: only a hint, never confident
    (
        "vllm-plugins-allowlist-excludes-plugin",
        "$ VLLM_PLUGINS=acme_moe vllm serve /models/acme\n" + UNSUPPORTED,
    ),
    # the plugins were allowlisted and loaded (no warning): a 404 alone is not this family's
    (
        "endpoint-plugin-not-allowlisted",
        '$ VLLM_PLUGINS=acme_admin vllm serve m\nINFO:     10.0.0.7:51234 - "GET /admin/queue HTTP/1.1" 404 Not Found\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_registered_path_is_neither_shadowing_nor_an_install():
    result = run(inspection("No module named 'acme_models.mistral_fast'; 'acme_models' is not a package"))
    ids = {d.id for d in result.diagnoses if d.role == "cause"}
    assert not ids & {"engine-package-shadowed-by-source-tree", "python-module-missing", "uncaught-exception"}
    assert "register_model" in top_cause(result).cause


def test_a_missing_top_level_package_stays_an_install_problem():
    """'No module named P' (undotted): Python found no P at all, the registered package is not installed."""
    top = top_cause(run(inspection("No module named 'acme_models'")))
    assert top.id == "python-module-missing"


def test_a_library_shadowed_below_the_plugins_own_module_stays_shadowing():
    """The plugin's module (its frame, not the registry's, imported) imports zmq.asyncio over a zmq.py of the user's."""
    own = '  File "/srv/plugins/acme_models/mistral_fast.py", line 3, in <module>'
    top = top_cause(run(inspection("No module named 'zmq.asyncio'; 'zmq' is not a package", own_frame=own)))
    assert top.id == "engine-package-shadowed-by-source-tree"


def test_endpoint_plugin_warning_is_not_fatal_and_names_the_plugins():
    top = top_cause(run("$ vllm serve m\n" + ENDPOINT))
    assert not top.fatal and "'acme_admin', 'acme_batch'" in top.cause


def test_endpoint_plugin_warning_stays_below_a_death():
    log = ENDPOINT + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    assert top_cause(run(log)).id != "endpoint-plugin-not-allowlisted"


def test_an_empty_allowlist_in_a_unit_hides_the_plugins_architecture_confidently():
    top = top_cause(run('Environment="VLLM_PLUGINS="\n' + UNSUPPORTED))
    assert (top.id, top.confidence) == ("vllm-plugins-allowlist-excludes-plugin", 0.85)
    assert "model architecture 'AcmeMoeForCausalLM'" in top.cause


def test_a_named_allowlist_is_a_hint_naming_both_causes():
    top = top_cause(run("$ VLLM_PLUGINS=acme-moe vllm serve /models/acme\n" + UNSUPPORTED))
    assert top.confidence < 0.7 and "entry-point names" in top.cause and "itself is not one" in top.cause
