"""What fresh-484 (code that is not vLLM's, run by vLLM, round 7) taught, learn52d.

- remote-code-relative-import-file-missing: a checkpoint's auto_map file (--trust-remote-code) imports a sibling module
  the model folder lacks (`from .rope_utils import ...`); transformers' dynamic_module_utils.py follows the relative
  imports before running the file: 5.x get_relative_imports opens it, 4.x get_cached_module_file shutil.copy()s it,
  both 'FileNotFoundError: [Errno 2] No such file or directory: '.../x.py''.
- logits-processor-not-logitsprocessor-subclass, grown: a vllm.logits_processors entry point is not checked for the
  base class, so a plain class fails later in v1/sample/logits_processor/state.py ("'X' object has no attribute
  'is_argmax_invariant'").
- logits-processor-fqcn-not-module-colon-type: _load_logitsprocs_by_fqcns refuses a --logits-processors value that is
  not exactly module:type ("Invalid logits processor FQCN 'a.b.C'. Expected format: '<module>:<type>'").
- reasoning-parser-plugin-raises-on-model-output: a --reasoning-parser-plugin's extract_reasoning raising Python's own
  message on a reply without its tag ('substring not found', 'not enough values to unpack ...'); vLLM returns it as
  the request's error body (400 for ValueError/TypeError, 500 otherwise), no traceback.
fresh-484's case 9 (a logits processor plugin's apply() raising, pip --target into a folder named site/) needs the
general attribution of a user's package (learn52c's), not a family here.
Messages are the sources' format strings rendered with other values than the corpus logs'.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

TF = "/opt/venv/lib/python3.12/site-packages/transformers"
VLLM = "/opt/venv/lib/python3.12/site-packages/vllm"
REMOTE_5X = (
    "$ vllm serve /models/acme-7b --trust-remote-code\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/transformers_utils/config.py", line 399, in parse\n    config = AutoConfig.from_pretrained(\n'
    f'  File "{TF}/dynamic_module_utils.py", line 442, in get_cached_module_file\n'
    f'  File "{TF}/dynamic_module_utils.py", line 164, in get_relative_import_files\n'
    "    new_imports.extend(get_relative_imports(f))\n"
    f'  File "{TF}/dynamic_module_utils.py", line 133, in get_relative_imports\n'
    '    with open(module_file, encoding="utf-8") as f:\n'
    "FileNotFoundError: [Errno 2] No such file or directory: '/models/acme-7b/{module}.py'\n"
)
REMOTE_4X = (
    ">>> AutoModelForCausalLM.from_pretrained('/srv/ckpt/moe-mini', trust_remote_code=True)\n"
    "Traceback (most recent call last):\n"
    f'  File "{TF}/dynamic_module_utils.py", line 313, in get_cached_module_file\n'
    "    shutil.copy(module_needed_file, submodule_path / module_needed)\n"
    '  File "/usr/lib/python3.10/shutil.py", line 417, in copy\n    copyfile(src, dst, follow_symlinks=follow_symlinks)\n'
    "  File \"/usr/lib/python3.10/shutil.py\", line 254, in copyfile\n    with open(src, 'rb') as fsrc:\n"
    "FileNotFoundError: [Errno 2] No such file or directory: '/srv/ckpt/moe-mini/modeling_moe_utils.py'\n"
)
ARGMAX = (
    "$ pip install ./acme-procs\n$ vllm serve m\n"
    f'(Worker pid=4100) ERROR 05-01 09:00:01 [multiproc_executor.py:953]   File "{VLLM}/v1/sample/logits_processor/'
    'state.py", line 160, in __init__\n'
    "(Worker pid=4100) ERROR 05-01 09:00:01 [multiproc_executor.py:953] AttributeError: '{cls}' object has no "
    "attribute 'is_argmax_invariant'\n"
    "(EngineCore pid=4000) ERROR 05-01 09:00:02 [core.py:1100] EngineCore failed to start.\n"
)
FQCN = (
    "$ vllm serve m --logits-processors {value}\n"
    f'(Worker pid=71) ERROR 05-01 09:00:01 [multiproc_executor.py:953]   File "{VLLM}/v1/sample/logits_processor/'
    '__init__.py", line 130, in _load_logitsprocs_by_fqcns\n'
    "(Worker pid=71) ERROR 05-01 09:00:01 [multiproc_executor.py:953] ValueError: Invalid logits processor FQCN "
    "'{value}'. Expected format: '<module>:<type>'\n"
    "(Worker pid=71) ERROR 05-01 09:00:01 [multiproc_executor.py:953] WorkerProc failed to start.\n"
)
REASONING = (
    "$ vllm serve m --reasoning-parser-plugin {plugin} --reasoning-parser acme_think\n"
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" {status}\n'
    "{body}\n"
)
BODY_JSON = '{{"error":{{"message":"{why}","type":"{kind}","param":null,"code":{code}}}}}'
BODY_CLIENT = (
    "openai.BadRequestError: Error code: 400 - {{'error': {{'message': '{why}', 'type': 'BadRequestError'}}}}"
)

CASES = [
    ("remote-code-relative-import-file-missing", REMOTE_5X.format(module="yarn_scaling")),
    ("remote-code-relative-import-file-missing", REMOTE_4X),
    ("logits-processor-not-logitsprocessor-subclass", ARGMAX.format(cls="NoRepeatNgram")),
    ("logits-processor-fqcn-not-module-colon-type", FQCN.format(value="acme.procs.NoRepeat")),
    ("logits-processor-fqcn-not-module-colon-type", FQCN.format(value="acme:procs:NoRepeat")),
    # the value and the format unquoted (as a fork's tests of the same check assert it)
    (
        "logits-processor-fqcn-not-module-colon-type",
        "ValueError: Invalid logits processor FQCN math.gcd. Expected format: <module>:<type>\n",
    ),
    (
        "reasoning-parser-plugin-raises-on-model-output",
        REASONING.format(
            plugin="/srv/acme_think.py",
            status="400 Bad Request",
            body=BODY_CLIENT.format(why="not enough values to unpack (expected 2, got 1)"),
        ),
    ),
    (
        "reasoning-parser-plugin-raises-on-model-output",
        REASONING.format(
            plugin="./parsers/acme_think.py",
            status="500 Internal Server Error",
            body=BODY_JSON.format(why="list index out of range", kind="InternalServerError", code=500),
        ),
    ),
]

NEAR_MISSES = [
    # a FileNotFoundError for a .py file that transformers' loader did not open: a script or a path of the user's
    (
        "remote-code-relative-import-file-missing",
        "$ python /srv/run_acme.py\nTraceback (most recent call last):\n"
        '  File "/srv/run_acme.py", line 3, in <module>\n    exec(open("helpers.py").read())\n'
        "FileNotFoundError: [Errno 2] No such file or directory: '/srv/helpers.py'\n",
    ),
    # a logits processor that IS a subclass and raised its own AttributeError: not the base-class cause
    (
        "logits-processor-not-logitsprocessor-subclass",
        ARGMAX.replace("is_argmax_invariant", "banned_ids").format(cls="NoRepeatNgram"),
    ),
    # a right FQCN: vLLM's debug line loading it is no refusal
    (
        "logits-processor-fqcn-not-module-colon-type",
        "DEBUG 05-01 09:00:01 [__init__.py:118] - Loading logits processor acme.procs:NoRepeat\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_relative_import_names_the_module_and_the_folder():
    top = top_cause(run(REMOTE_5X.format(module="yarn_scaling")))
    assert "yarn_scaling.py" in top.fix and "/models/acme-7b" in top.fix and top.confidence >= 0.7


def test_fqcn_fix_says_colon():
    top = top_cause(run(FQCN.format(value="acme.procs.NoRepeat")))
    assert "'acme.procs.NoRepeat'" in top.cause and "colon" in top.fix


def test_reasoning_body_without_the_plugin_flag_is_not_the_plugins():
    """The same refusal with no parser plugin in the log: a request refusal, not a plugin's bug."""
    log = REASONING.format(
        plugin="x",
        status="400 Bad Request",
        body=BODY_JSON.format(why="substring not found", kind="B", code=400),
    ).replace("--reasoning-parser-plugin x ", "")
    assert all(d.id != "reasoning-parser-plugin-raises-on-model-output" for d in run(log).diagnoses)


def test_reasoning_plugin_is_inferred_not_stated():
    """The body names only Python's message: the plugin is inferred from the flag, so below 0.70."""
    body = BODY_JSON.format(why="substring not found", kind="BadRequestError", code=400)
    top = top_cause(run(REASONING.format(plugin="/srv/p.py", status="400 Bad Request", body=body)))
    assert top.id == "reasoning-parser-plugin-raises-on-model-output" and top.confidence < 0.7
    assert "str.find" in top.fix and not top.fatal


def test_tool_parser_json_error_stays_the_tool_parsers():
    log = (
        "$ vllm serve m --tool-parser-plugin /srv/t.py --tool-call-parser t --reasoning-parser-plugin /srv/r.py\n"
        '{"error":{"message":"Expecting value: line 1 column 1 (char 0)","type":"BadRequestError","code":400}}\n'
    )
    assert top_cause(run(log)).id == "tool-parser-plugin-raises-on-model-output"
