"""What fresh-410 (code that is not vLLM's, run by vLLM, round 3) taught, learn47c (knowledge/plugins.toml).

- parser-plugin-file-not-found: vllm/utils/import_utils.py import_plugin's 'Failed to load module 'M' from PATH.' with
  the loader's FileNotFoundError for the .py (a --tool-parser-plugin / --reasoning-parser-plugin path that is not there);
  parser-unknown and python-module-missing (import_module(PATH)'s noise) are its consequences.
- remote-code-auto-map-names-missing-class: transformers' dynamic_module_utils.get_class_in_module's
  `getattr(module, class_name)` on a transformers_modules.* module (auto_map names a class the file lacks).
- chat-content-format-string-with-parts-template: vLLM's 'You specified `--chat-template-content-format string` which
  is different from the detected format 'openai'' (renderers/hf.py; chat_utils.py before), non-fatal, below 0.7.
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

P = "(APIServer pid=311) ERROR 02-11 09:14:02 [import_utils.py:95] "
REASONING_FILE_MISSING = (  # rendered: import_plugin's logger.exception, the loader's FileNotFoundError
    "$ vllm serve Qwen/Qwen3-0.6B --reasoning-parser-plugin ./plugins/my_think.py --reasoning-parser my_think\n"
    + P
    + "Failed to load module 'my_think' from ./plugins/my_think.py.\n"
    + P
    + "Traceback (most recent call last):\n"
    + P
    + "ModuleNotFoundError: No module named './plugins/my_think'\n"
    + P
    + "FileNotFoundError: [Errno 2] No such file or directory: '/home/ops/plugins/my_think.py'\n"
    "KeyError: \"Reasoning parser 'my_think' not found. Available parsers: deepseek_r1, granite, qwen3\"\n"
)
TOOL_FILE_MISSING_JOURNAL = (  # rendered: the pre-0.11 ToolParserManager.import_tool_parser's own logger.exception
    "Feb 11 09:14:02 gpu1 vllm[2211]: ERROR 02-11 09:14:02 [abstract_tool_parser.py:171] Failed to load module "
    "'acme_calls' from /opt/acme/acme_calls.py.\n"
    "Feb 11 09:14:02 gpu1 vllm[2211]: FileNotFoundError: [Errno 2] No such file or directory: "
    "'/opt/acme/acme_calls.py'\n"
    "Feb 11 09:14:03 gpu1 vllm[2211]: KeyError: 'invalid tool call parser: acme_calls (chose from { hermes,mistral })'\n"
)
REMOTE_MODELING = (  # rendered: get_class_in_module's getattr, transformers 4.x module naming (a Hub repo)
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/dynamic_module_utils.py", line 553, in '
    "get_class_from_dynamic_module\n"
    "    return get_class_in_module(class_name, final_module, force_reload=force_download)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/dynamic_module_utils.py", line 250, in '
    "get_class_in_module\n"
    "    return getattr(module, class_name)\n"
    "AttributeError: module 'transformers_modules.acme-labs.Acme-7B-Chat.3f9c2e1d.modeling_acme' has no attribute "
    "'AcmeForCausalLM'\n"
)
REMOTE_VLLM_RETRY = (  # rendered: vLLM 0.32 repo_utils.with_retry's line for a tokenizer class
    "(APIServer pid=12) ERROR 02-11 09:14:02 [repo_utils.py:124] Error parsing config for /models/acme: module "
    "'transformers_modules.acme.5e1d0c9b8a7f6e5d.tokenization_acme' has no attribute 'AcmeTokenizerFast'\n"
)
WARN_STRING = (  # rendered: resolve_chat_template_content_format's warning_once
    "WARNING 11-20 08:00:01 chat_utils.py:419] You specified `--chat-template-content-format string` which is "
    "different from the detected format 'openai'. If our automatic detection is incorrect, please consider opening a "
    "GitHub issue so that we can improve it: https://github.com/vllm-project/vllm/issues/new/choose\n"
)
UP = "INFO:     Application startup complete.\n"

CASES = [
    ("parser-plugin-file-not-found", REASONING_FILE_MISSING),
    ("parser-plugin-file-not-found", TOOL_FILE_MISSING_JOURNAL),
    (
        "remote-code-auto-map-names-missing-class",
        "$ vllm serve acme-labs/Acme-7B-Chat --trust-remote-code\n" + REMOTE_MODELING,
    ),
    ("remote-code-auto-map-names-missing-class", REMOTE_VLLM_RETRY),
    (
        "chat-content-format-string-with-parts-template",
        "$ vllm serve m --chat-template-content-format string\n" + WARN_STRING + UP,
    ),
]

NEAR_MISSES = [
    # the plugin file is there; a data file it opens is not: the plugin's own bug, not a wrong plugin path
    (
        "parser-plugin-file-not-found",
        P
        + "Failed to load module 'acme_calls' from /opt/acme/acme_calls.py.\n"
        + P
        + "FileNotFoundError: [Errno 2] No such file or directory: '/opt/acme/schema.json'\n",
    ),
    # a missing .py with no plugin loader in play (the user's own script)
    (
        "parser-plugin-file-not-found",
        'Traceback (most recent call last):\n  File "/srv/run.py", line 4, in <module>\n'
        "FileNotFoundError: [Errno 2] No such file or directory: '/srv/hooks.py'\n",
    ),
    # transformers itself lacking a class (too old), not a checkpoint's remote code
    (
        "remote-code-auto-map-names-missing-class",
        "AttributeError: module 'transformers' has no attribute 'Qwen3VLForConditionalGeneration'\n",
    ),
    # remote code reaching for a transformers internal that moved: version skew, not auto_map
    (
        "remote-code-auto-map-names-missing-class",
        "AttributeError: module 'transformers.models.llama.modeling_llama' has no attribute 'LlamaFlashAttention2'\n",
    ),
    # the other direction (openai forced over a detected string) is not this family's
    (
        "chat-content-format-string-with-parts-template",
        WARN_STRING.replace("format string`", "format openai`").replace("format 'openai'", "format 'string'")
        + UP,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_forced_format_is_a_non_fatal_guess():
    top = top_cause(run("$ vllm serve m --chat-template-content-format string\n" + WARN_STRING + UP))
    assert (top.id, top.fatal) == (
        "chat-content-format-string-with-parts-template",
        False,
    ) and top.confidence < 0.7


def test_a_template_that_raised_is_the_content_type_mismatch():
    log = (
        WARN_STRING
        + UP
        + "ERROR 11-20 08:00:09 [serving_chat.py:198] Chat template rejected the request: 'str object' has no "
        "attribute 'text'\n"
    )
    assert top_cause(run(log)).id == "chat-template-content-type-mismatch"


def test_a_missing_plugin_file_hides_the_unknown_parser():
    ids = [d.id for d in run(REASONING_FILE_MISSING).diagnoses]
    assert "parser-unknown" not in ids and "python-module-missing" not in ids
