"""What fresh-508 (code that is not vLLM's, run by vLLM, round 9) taught, learn54c.

- remote-code-imports-name-installed-lacks (plugins.toml): a checkpoint's own Python file (auto_map, run with
  --trust-remote-code from HF_MODULES_CACHE/transformers_modules/) written for another transformers imports a name or
  submodule the installed one lacks (transformers 5 removed LLAMA_PRETRAINED_CONFIG_ARCHIVE_MAP and the like). Read only
  where the innermost frame is under transformers_modules/ (raised_where): the fix is the checkpoint's code, since vLLM
  0.32 requires the transformers 5 it has. The same words raised in vLLM's own file or a plugin's stay
  transformers-version-mismatch (first contact answered that, 0.75: confident wrong).
- logits-processor-plugin-lacks-abstract-method (plugins.toml): a LogitsProcessor subclass (vllm.logits_processors
  entry point, --logits-processors) missing is_argmax_invariant / update_state (new_req_logits_processor for
  AdapterLogitsProcessor): Python's "Can't instantiate abstract class" raised in vLLM's build_logitsprocs; a sibling of
  stat-logger-plugin-lacks-abstract-method, keyed on the methods only each base declares.
- system_exit.py: a bare message, the last line before exit status 1, no traceback, in a vLLM log that nothing else
  explains: a SystemExit with text from code loaded into vLLM (a general plugin's register() calling sys.exit('...'),
  which vLLM's load_general_plugins calls unguarded): third-party-package-raised, below the confident line.
- caller.served: an exception whose traceback starts in uvicorn running a request and is raised in (or asked for by) a
  file outside the engine's stack is that loaded code's (an endpoint plugin's route handler), with no vLLM frame above
  it: third-party-package-raised naming the file, not uncaught-exception.
Logs are written here from vLLM 0.32's, transformers 5's, Python's and uvicorn's wordings, with other names, paths and
Python versions than the corpus logs'.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.12/site-packages"
VLLM = f"{SITE}/vllm"
TF = f"{SITE}/transformers"
API = "(APIServer pid=812) ERROR 03-11 10:02:{s} [repo_utils.py:124] "

# vLLM 0.32's get_config -> with_retry -> AutoConfig.from_pretrained -> get_class_from_dynamic_module -> the copy of the
# checkpoint's file; {retry} the with_retry ERROR lines, {file} the innermost frame's file, {exception} the last line
REMOTE = (
    "$ vllm serve /models/acme-7b --trust-remote-code\n"
    "{retry}"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/transformers_utils/config.py", line 865, in <lambda>\n'
    "    lambda: config_parser.parse(\n"
    f'  File "{VLLM}/transformers_utils/config.py", line 399, in parse\n'
    "    config = AutoConfig.from_pretrained(\n"
    f'  File "{TF}/models/auto/configuration_auto.py", line 414, in from_pretrained\n'
    "    config_class = get_class_from_dynamic_module(\n"
    f'  File "{TF}/dynamic_module_utils.py", line 309, in get_class_in_module\n'
    "    module_spec.loader.exec_module(module)\n"
    '  File "<frozen importlib._bootstrap_external>", line 995, in exec_module\n'
    '  File "<frozen importlib._bootstrap>", line 488, in _call_with_frames_removed\n'
    '  File "{file}", line 7, in <module>\n'
    "    {source}\n"
    "{exception}\n"
)
HF_MODULES = "/home/ana/.cache/huggingface/modules/transformers_modules"
ARCHIVE = (
    "ImportError: cannot import name 'QWEN_PRETRAINED_CONFIG_ARCHIVE_MAP' from "
    f"'transformers.models.qwen2.configuration_qwen2' ({TF}/models/qwen2/configuration_qwen2.py)"
)


def retry_lines(message: str) -> str:
    """vLLM 0.32's with_retry: 'Error parsing config for PATH: MSG, retrying 1 of 2', then the last attempt's line."""
    return (
        f"{API.format(s='11')}Error parsing config for /models/acme-7b: {message}, retrying 1 of 2\n"
        f"{API.format(s='13')}Error parsing config for /models/acme-7b: {message}\n"
    )


CASES = [
    # a configuration file importing a table transformers 5 removed (the retry lines above the traceback)
    (
        "remote-code-imports-name-installed-lacks",
        REMOTE.format(
            retry=retry_lines(ARCHIVE.split(": ", 1)[1]),
            file=f"{HF_MODULES}/acme-7b/configuration_acme.py",
            source="from transformers.models.qwen2.configuration_qwen2 import QWEN_PRETRAINED_CONFIG_ARCHIVE_MAP",
            exception=ARCHIVE,
        ),
    ),
    # a modelling file importing a helper from transformers' top level (a Hub repo's hashed folder), no retry lines
    (
        "remote-code-imports-name-installed-lacks",
        REMOTE.format(
            retry="",
            file=f"{HF_MODULES}/acme/acme_hyphen_7b/0f3a9c2e/modeling_acme.py",
            source="from transformers.utils import is_flash_attn_greater_or_equal_2_10",
            exception="ImportError: cannot import name 'is_flash_attn_greater_or_equal_2_10' from "
            f"'transformers.utils' ({TF}/utils/__init__.py)",
        ),
    ),
    # a tokenizer file importing a module transformers 5 no longer ships
    (
        "remote-code-imports-name-installed-lacks",
        REMOTE.format(
            retry="",
            file=f"{HF_MODULES}/acme-7b/tokenization_acme.py",
            source="from transformers.models.llama.tokenization_llama_fast import LlamaTokenizerFast",
            exception="ModuleNotFoundError: No module named 'transformers.models.llama.tokenization_llama_fast'",
        ),
    ),
]

# the same ImportError raised in vLLM's own config class, or in a plugin's file: the engine's or plugin's skew
OWN = REMOTE.format(
    retry="",
    file=f"{VLLM}/transformers_utils/configs/acme.py",
    source="from transformers.models.qwen2.configuration_qwen2 import QWEN_PRETRAINED_CONFIG_ARCHIVE_MAP",
    exception=ARCHIVE,
)
PLUGIN = REMOTE.format(
    retry="",
    file="/srv/plugins/acme_models/config.py",
    source="from transformers.models.qwen2.configuration_qwen2 import QWEN_PRETRAINED_CONFIG_ARCHIVE_MAP",
    exception=ARCHIVE,
)
# vLLM's retry lines alone: which file imported is not shown
RETRY_ONLY = "$ vllm serve /models/acme-7b --trust-remote-code\n" + retry_lines(ARCHIVE.split(": ", 1)[1])
# a checkpoint's file importing a package that is not installed at all: remote-code-packages-missing's
REMOTE_PACKAGE = REMOTE.format(
    retry="",
    file=f"{HF_MODULES}/acme-7b/modeling_acme.py",
    source="import flash_rope",
    exception="ModuleNotFoundError: No module named 'flash_rope'",
)

# the worker building each logits processor class (v1/sample/logits_processor/__init__.py build_logitsprocs)
WORKER = "(Worker_TP0 pid=933) ERROR 03-11 10:04:40 [multiproc_executor.py:953] "
LOGITS = (
    "$ vllm serve m --logits-processors acme_lp:{cls}\n"
    f"{WORKER}WorkerProc failed to start.\n"
    f"{WORKER}Traceback (most recent call last):\n"
    f'{WORKER}  File "{VLLM}/v1/worker/gpu_model_runner.py", line 725, in __init__\n'
    f"{WORKER}    logitsprocs=build_logitsprocs(\n"
    f'{WORKER}  File "{VLLM}/v1/sample/logits_processor/state.py", line 157, in __init__\n'
    f"{WORKER}    for logitproc in logitsprocs:\n"
    f'{WORKER}  File "{VLLM}/v1/sample/logits_processor/__init__.py", line 220, in <genexpr>\n'
    f"{WORKER}    ctor(vllm_config, device, is_pin_memory)\n"
    f"{WORKER}TypeError: Can't instantiate abstract class {{cls}} {{words}}\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
)

CASES += [
    (
        "logits-processor-plugin-lacks-abstract-method",
        LOGITS.format(cls="NoRepeat", words="with abstract method update_state"),
    ),
    (
        "logits-processor-plugin-lacks-abstract-method",
        LOGITS.format(cls="NoRepeat", words="with abstract methods apply, is_argmax_invariant"),
    ),
    (
        "logits-processor-plugin-lacks-abstract-method",
        LOGITS.format(
            cls="NoRepeat", words="without an implementation for abstract method 'is_argmax_invariant'"
        ),
    ),
    (
        "logits-processor-plugin-lacks-abstract-method",
        LOGITS.format(
            cls="PerReqBan", words="without an implementation for abstract method 'new_req_logits_processor'"
        ),
    ),
]

# a general plugin's register() ending the API server with sys.exit('...'): Python prints the text bare, exits 1
SYS_EXIT = (
    "$ VLLM_PLUGINS=acme_licence vllm serve m --port 8123\n"
    "INFO 03-11 10:06:01 [__init__.py:216] Automatically detected platform cuda.\n"
    "{message}\n"
    "{exit}\n"
)
CASES += [
    (
        "third-party-package-raised",
        SYS_EXIT.format(
            message="acme_licence: ACME_LICENCE_FILE is unset, refusing to serve", exit="# exit: 1"
        ),
    ),
    (
        "third-party-package-raised",
        SYS_EXIT.format(message="licence check failed for this host; contact sales", exit="exit status 1"),
    ),
]

# uvicorn's 'Exception in ASGI application' for an endpoint plugin's own route (no vLLM frame)
STARLETTE = f"{SITE}/starlette"
ROUTE = (
    "$ VLLM_PLUGINS=acme_admin vllm serve m\n"
    "(APIServer pid=870) INFO 03-11 10:08:10 [launcher.py:195] Route: /admin/stats, Methods: GET\n"
    "INFO:     Application startup complete.\n"
    'INFO:     10.0.0.9:5500 - "GET /admin/stats HTTP/1.1" 500 Internal Server Error\n'
    "ERROR:    Exception in ASGI application\n"
    "Traceback (most recent call last):\n"
    f'  File "{SITE}/uvicorn/protocols/http/h11_impl.py", line 403, in run_asgi\n'
    "    result = await app(  # type: ignore[func-returns-value]\n"
    f'  File "{STARLETTE}/routing.py", line 73, in app\n'
    "    response = await f(request)\n"
    f'  File "{SITE}/fastapi/routing.py", line 212, in run_endpoint_function\n'
    "    return await dependant.call(**values)\n"
    "{inner}"
    "{exception}\n"
)
ADMIN = '  File "/srv/plugins/acme_admin/routes.py", line 31, in stats\n    {source}\n'
STRPTIME = (
    '  File "/usr/lib/python3.12/_strptime.py", line 653, in _strptime_datetime\n'
    "    tt, fraction, gmtoff_fraction = _strptime(data_string, format)\n"
    '  File "/usr/lib/python3.12/_strptime.py", line 432, in _strptime\n'
    '    raise ValueError("time data %r does not match format %r" %\n'
)
CASES += [
    (
        "third-party-package-raised",
        ROUTE.format(
            inner=ADMIN.format(source="return {'mean': TOTAL / COUNT}"),
            exception="ZeroDivisionError: division by zero",
        ),
    ),
    # the handler asked the stdlib for what it refused (a date query parameter in another format)
    (
        "third-party-package-raised",
        ROUTE.format(
            inner=ADMIN.format(source='since = datetime.strptime(request.query_params["since"], "%Y-%m-%d")')
            + STRPTIME,
            exception="ValueError: time data '11/03/2026' does not match format '%Y-%m-%d'",
        ),
    ),
]

NEAR_MISSES = [
    ("remote-code-imports-name-installed-lacks", OWN),
    ("remote-code-imports-name-installed-lacks", PLUGIN),
    ("remote-code-imports-name-installed-lacks", RETRY_ONLY),
    ("remote-code-imports-name-installed-lacks", REMOTE_PACKAGE),
    # a stat logger's missing method is its own family's; another library's ABC missing only apply() is no vLLM plugin's
    (
        "logits-processor-plugin-lacks-abstract-method",
        "$ vllm serve m\nTypeError: Can't instantiate abstract class CsvStats with abstract method record\n",
    ),
    (
        "logits-processor-plugin-lacks-abstract-method",
        "$ python train.py\nTypeError: Can't instantiate abstract class Scaler with abstract method apply\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_remote_code_names_the_checkpoint_file_not_a_transformers_pin():
    log = CASES[0][1]
    top = top_cause(run(log))
    assert top.confidence >= 0.70 and "configuration_acme.py" in top.cause and "revision" in top.fix
    assert "transformers-version-mismatch" not in answer_ids(log)


def test_engine_or_plugin_import_stays_transformers_version_mismatch():
    for log in (OWN, PLUGIN, RETRY_ONLY):
        top = top_cause(run(log))
        assert top.id == "transformers-version-mismatch", (top.id, log)


def test_remote_code_missing_package_stays_packages_missing():
    top = top_cause(run(REMOTE_PACKAGE))
    assert top.id == "remote-code-packages-missing" and "flash_rope" in top.cause


def test_stat_logger_stays_its_own_family():
    log = "$ vllm serve m\nTypeError: Can't instantiate abstract class CsvStats with abstract method record\n"
    assert top_cause(run(log)).id == "stat-logger-plugin-lacks-abstract-method"


def test_logits_processor_fix_names_the_method():
    top = top_cause(run(CASES[3][1]))
    assert "is_argmax_invariant(self) -> bool" in top.fix and "NoRepeat" in top.cause


def test_sys_exit_message_is_read_below_the_confident_line():
    top = top_cause(run(CASES[7][1]))
    assert top.confidence < 0.70 and "acme_licence" in top.cause and "sys.exit" in top.cause


def test_sys_exit_reading_needs_exit_one_a_bare_line_and_vllm():
    healthy = (
        "$ vllm serve m\nINFO:     Application startup complete.\n^C\nINFO:     Shutting down\n# exit: 0\n"
    )
    vllm_line = SYS_EXIT.format(
        message="(APIServer pid=3) INFO 03-11 10:06:02 [api_server.py:1] vLLM API server version 0.32.0",
        exit="# exit: 1",
    )
    argparse = SYS_EXIT.format(message="vllm serve: error: unrecognized arguments: --fast", exit="# exit: 2")
    other = "$ ./train.sh\nacme: dataset path is unset, refusing to start\n# exit: 1\n"
    for log in (healthy, vllm_line, argparse, other):
        assert "third-party-package-raised" not in answer_ids(log), log


def test_route_handler_names_the_plugin_file():
    top = top_cause(run(CASES[9][1]))
    assert "acme_admin" in top.cause and "/srv/plugins/acme_admin/routes.py:31" in top.fix


def test_vllm_own_route_is_not_a_plugin():
    own = ROUTE.format(
        inner=f'  File "{VLLM}/entrypoints/openai/chat_completion/api_router.py", line 58, in create_chat_completion\n'
        "    handler = chat(raw_request)\n",
        exception="AttributeError: 'NoneType' object has no attribute 'create_chat_completion'",
    )
    assert "third-party-package-raised" not in answer_ids(own)
