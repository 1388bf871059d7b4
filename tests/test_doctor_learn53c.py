"""What fresh-491 (code that is not vLLM's, run by vLLM, round 8) taught, learn53c.

- port-in-use is `engine_called` (caller.loaded_aside): 'Address already in use' raised below a general plugin's
  register() (vLLM's plugins/__init__.py load_general_plugins runs it in EVERY process it starts: "plugins can be
  loaded for multiple times in different processes"), so a plugin binding a fixed port fails in the engine core after
  the API server bound it. That is the plugin's port, not the engine's --port: read as third-party-package-raised
  naming the plugin's line (attribution._loaded_by now takes a resource the loaded code asked for).
- path-not-found is `engine_called` too, and `engine_called` now also counts an exception raised in a file of code
  loaded into the engine itself (caller.raised_by_loaded: a stat logger plugin's log_engine_initialized opening a file
  in a folder that is not there, called by vLLM's v1/metrics/loggers.py).
- entry_point_module.py: a plugin whose entry point names a module its package does not ship: EntryPoint.load's own
  import_module (importlib/metadata/__init__.py) raises ModuleNotFoundError with no frame of the plugin's file, so it is
  no package to install (python-module-missing steps aside) and vllm-plugin-not-loaded answers, naming the entry point.
  A plugin's own `import x` of a missing package (fresh-484 draw 2) stays python-module-missing.
- middleware-function-returns-no-response (plugins.toml): a middleware function that returns nothing; starlette's
  BaseHTTPMiddleware.__call__ does `await response(scope, wrapped_receive, send)` on what it returned: TypeError
  "'NoneType' object is not callable" raised in starlette/middleware/base.py on every request.
Logs are written here from vLLM 0.32's, Python's and starlette's sources, with other names, paths, ports and
Python versions than the corpus logs'.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, family_tests, run, top_cause

VLLM = "/opt/venv/lib/python3.12/site-packages/vllm"
PY = "/usr/lib/python3.12"
CORE = "(EngineCore_DP0 pid=311) ERROR 03-11 09:12:40 [core.py:1510] "

# a general plugin's register() run by the engine core's load_general_plugins; {lib} are the frames below it
PLUGIN_RAISED = (
    "$ PYTHONPATH=/srv/plugins vllm serve m --port 8011\n"
    "(APIServer pid=300) INFO 03-11 09:12:01 [api_utils.py:286] non-default args: {{'port': 8011}}\n"
    f"{CORE}EngineCore failed to start.\n"
    f"{CORE}Traceback (most recent call last):\n"
    f'{CORE}  File "{VLLM}/v1/engine/core.py", line 1482, in run_engine_core\n'
    f"{CORE}    engine_core = EngineCoreProc(*args, engine_index=dp_rank, **kwargs)\n"
    f'{CORE}  File "{VLLM}/v1/engine/core.py", line 129, in __init__\n'
    f"{CORE}    load_general_plugins()\n"
    f'{CORE}  File "{VLLM}/plugins/__init__.py", line 90, in load_general_plugins\n'
    f"{CORE}    func()\n"
    f'{CORE}  File "{{plugin}}", line 21, in register\n'
    f"{CORE}    {{call}}\n"
    "{lib}"
    f"{CORE}{{exception}}\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
)
SOCKETSERVER = (
    f'{CORE}  File "{PY}/socketserver.py", line 457, in __init__\n{CORE}    self.server_bind()\n'
    f'{CORE}  File "{PY}/socketserver.py", line 478, in server_bind\n'
    f"{CORE}    self.socket.bind(self.server_address)\n"
)
PROMETHEUS = (
    f'{CORE}  File "/opt/venv/lib/python3.12/site-packages/prometheus_client/exposition.py", line 230, in '
    "start_wsgi_server\n"
    f"{CORE}    httpd = make_server(addr, port, app, TmpServer, handler_class=_SilentHandler)\n"
    f'{CORE}  File "{PY}/socketserver.py", line 478, in server_bind\n'
    f"{CORE}    self.socket.bind(self.server_address)\n"
)

# the stat logger manager calling each logger's log_engine_initialized in the API server (v1/metrics/loggers.py)
STAT_LOGGER = (
    "$ vllm serve m\n"
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/v1/engine/async_llm.py", line 205, in __init__\n'
    "    self.logger_manager.log_engine_initialized()\n"
    f'  File "{VLLM}/v1/metrics/loggers.py", line 1453, in log_engine_initialized\n'
    "    per_engine_logger.log_engine_initialized()\n"
    f'  File "{VLLM}/v1/metrics/loggers.py", line 470, in log_engine_initialized\n'
    "    logger.log_engine_initialized()\n"
    '  File "{plugin}", line 17, in log_engine_initialized\n'
    '    self.out = open(self.path, "a")\n'
    "{exception}\n"
)
# the same open in a user's own script: no vLLM frame calls it
SCRIPT_OPEN = (
    "$ python bench_report.py\nTraceback (most recent call last):\n"
    '  File "/home/ana/bench_report.py", line 9, in <module>\n    out = open(sys.argv[1], "w")\n'
    "FileNotFoundError: [Errno 2] No such file or directory: '/home/ana/reports/run1.csv'\n"
)

# vLLM's plugins/__init__.py load_plugins_by_group: `func = plugin.load()` inside try, logger.exception on failure
LOADER = "(APIServer pid=41) ERROR 03-11 09:13:02 [__init__.py:72] "


def plugin_failed(name: str, importlib_dir: str, own_file: str, missing: str) -> str:
    """'Failed to load plugin NAME' with EntryPoint.load's traceback; `own_file` ("" for none): the plugin's module
    that ran and imported `missing`."""
    own = (
        f'{LOADER}  File "<frozen importlib._bootstrap>", line 488, in _call_with_frames_removed\n'
        f'{LOADER}  File "{own_file}", line 4, in <module>\n{LOADER}    import {missing}\n'
        if own_file
        else ""
    )
    return (
        "$ vllm serve m\n"
        f"{LOADER}Failed to load plugin {name}\n"
        f"{LOADER}Traceback (most recent call last):\n"
        f'{LOADER}  File "{VLLM}/plugins/__init__.py", line 69, in load_plugins_by_group\n'
        f"{LOADER}    func = plugin.load()\n"
        f'{LOADER}  File "{importlib_dir}/metadata/__init__.py", line 205, in load\n'
        f"{LOADER}    module = import_module(match.group('module'))\n"
        f'{LOADER}  File "{importlib_dir}/__init__.py", line 90, in import_module\n'
        f"{LOADER}    return _bootstrap._gcd_import(name[level:], package, level)\n"
        f'{LOADER}  File "<frozen importlib._bootstrap>", line 1387, in _gcd_import\n'
        f'{LOADER}  File "<frozen importlib._bootstrap>", line 1324, in _find_and_load_unlocked\n'
        f"{own}"
        f"{LOADER}ModuleNotFoundError: No module named '{missing}'\n"
        "(APIServer pid=41) INFO 03-11 09:14:10 [launcher.py:47] Route: /v1/chat/completions, Methods: POST\n"
        "INFO:     Application startup complete.\n"
        'INFO:     127.0.0.1:40112 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    )


# uvicorn's 'Exception in ASGI application' through starlette's BaseHTTPMiddleware.__call__ (middleware/base.py)
STARLETTE = "/opt/venv/lib/python3.12/site-packages/starlette"
ASGI = (
    "$ vllm serve m --middleware {option}\n"
    'INFO:     10.0.0.7:5012 - "GET /v1/models HTTP/1.1" 400 Bad Request\n'
    "ERROR:    Exception in ASGI application\n"
    "Traceback (most recent call last):\n"
    f'  File "{STARLETTE}/middleware/errors.py", line 164, in __call__\n'
    "    await self.app(scope, receive, _send)\n"
    '  File "{file}", line {line}, in __call__\n'
    "    {source}\n"
    "TypeError: '{returned}' object is not callable\n"
)

CASES = [
    # a general plugin's own metrics server, bound again in the engine core (http.server, prometheus_client)
    (
        "third-party-package-raised",
        PLUGIN_RAISED.format(
            plugin="/srv/plugins/acme_probe.py",
            call='server = HTTPServer(("", 9464), Probe)',
            lib=SOCKETSERVER,
            exception="OSError: [Errno 98] Address already in use",
        ),
    ),
    (
        "third-party-package-raised",
        PLUGIN_RAISED.format(
            plugin="/opt/venv/lib/python3.12/site-packages/acme_exporter/__init__.py",
            call="start_http_server(9100)",
            lib=PROMETHEUS,
            exception="OSError: [Errno 98] Address already in use",
        ),
    ),
    # a plugin's own open() of a path that is not there (a log folder, a config file)
    (
        "third-party-package-raised",
        STAT_LOGGER.format(
            plugin="/opt/plugins/jsonl_stats.py",
            exception="FileNotFoundError: [Errno 2] No such file or directory: '/var/log/acme/engine.jsonl'",
        ),
    ),
    (
        "third-party-package-raised",
        PLUGIN_RAISED.format(
            plugin="/srv/plugins/acme_audit/hooks.py",
            call='cfg = yaml.safe_load(open("/etc/acme/audit.yaml"))',
            lib="",
            exception="FileNotFoundError: [Errno 2] No such file or directory: '/etc/acme/audit.yaml'",
        ),
    ),
    # an entry point whose module the package does not ship (Python 3.12's importlib; a dotted name)
    ("vllm-plugin-not-loaded", plugin_failed("acme_trace", f"{PY}/importlib", "", "acme_tracing")),
    ("vllm-plugin-not-loaded", plugin_failed("acme_trace", f"{PY}/importlib", "", "acme.trace_hooks")),
    # a middleware function that returns nothing, or call_next un-awaited (starlette 1.x's and 0.27's line)
    (
        "middleware-function-returns-no-response",
        ASGI.format(
            option="timing.add_timing",
            file=f"{STARLETTE}/middleware/base.py",
            line=204,
            source="await response(scope, wrapped_receive, send)",
            returned="NoneType",
        ),
    ),
    (
        "middleware-function-returns-no-response",
        ASGI.format(
            option="timing.add_timing",
            file="/usr/local/lib/python3.10/dist-packages/starlette/middleware/base.py",
            line=109,
            source="await response(scope, receive, send)",
            returned="coroutine",
        ),
    ),
]

NEAR_MISSES = [
    # a TypeError of the same words raised in the user's own middleware file is that code's bug, not this family
    (
        "middleware-function-returns-no-response",
        ASGI.format(
            option="timing.add_timing",
            file="/srv/mw/timing.py",
            line=12,
            source="hook = HOOKS.get(request.url.path)(request)",
            returned="NoneType",
        ),
    ),
    # a healthy server with a --middleware: nothing failed
    (
        "middleware-function-returns-no-response",
        "$ vllm serve m --middleware timing.add_timing\nINFO:     Application startup complete.\n"
        'INFO:     10.0.0.7:5012 - "GET /health HTTP/1.1" 200 OK\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_plugin_bind_names_the_plugin_not_the_engine_port():
    log = PLUGIN_RAISED.format(
        plugin="/srv/plugins/acme_probe.py",
        call='server = HTTPServer(("", 9464), Probe)',
        lib=SOCKETSERVER,
        exception="OSError: [Errno 98] Address already in use",
    )
    top = top_cause(run(log))
    assert top.id == "third-party-package-raised" and "acme_probe" in top.cause and top.confidence < 0.70
    assert "port-in-use" not in answer_ids(log)


def test_engine_own_bind_stays_port_in_use():
    """vLLM's own create_server_socket (launchers/launcher.py) or uvicorn's bind failing: the engine's --port (main's
    corpus: fresh-385 and 14 more, whose uvloop frame first read as loaded code)."""
    own = (  # uvloop's compiled frame (uvloop/loop.pyx) is the stack's, no code loaded into the engine
        "$ vllm serve m --port 8000\nTraceback (most recent call last):\n"
        f'  File "{VLLM}/entrypoints/launchers/api_server/entry.py", line 232, in main\n'
        "    uvloop.run(run_server(args))\n"
        '  File "uvloop/loop.pyx", line 1518, in uvloop.loop.Loop.run_until_complete\n'
        f'  File "{VLLM}/entrypoints/launchers/api_server/entry.py", line 170, in run_server\n'
        "    sock = setup_server(args)\n"
        f'  File "{VLLM}/entrypoints/launchers/launcher.py", line 348, in create_server_socket\n'
        "    sock.bind(addr)\nOSError: [Errno 98] Address already in use\n"
    )
    uvicorn = "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n"
    for log in (own, uvicorn):
        top = top_cause(run(log))
        assert top.id == "port-in-use" and top.confidence >= 0.70 and "--port" in top.fix


def test_plugin_open_names_its_file():
    log = STAT_LOGGER.format(
        plugin="/opt/plugins/jsonl_stats.py",
        exception="FileNotFoundError: [Errno 2] No such file or directory: '/var/log/acme/engine.jsonl'",
    )
    top = top_cause(run(log))
    assert "jsonl_stats.py:17" in top.fix and "log_engine_initialized" not in top.id


def test_a_script_of_ones_own_stays_path_not_found():
    top = top_cause(run(SCRIPT_OPEN))
    assert top.id == "path-not-found" and "/home/ana/reports/run1.csv" in top.cause


def test_entry_point_module_named_and_not_installed():
    top = top_cause(run(plugin_failed("acme_trace", f"{PY}/importlib", "", "acme_tracing")))
    assert top.id == "vllm-plugin-not-loaded" and "'acme_tracing'" in top.cause and "entry point" in top.fix
    assert "python-module-missing" not in answer_ids(
        plugin_failed("acme_trace", f"{PY}/importlib", "", "acme_tracing")
    )


def test_plugin_importing_a_missing_package_stays_module_missing():
    """fresh-484 draw 2's story with other names: the plugin's own file ran and imported what is not installed."""
    log = plugin_failed(
        "acme_trace", f"{PY}/importlib", "/srv/site/acme_trace.py", "opentelemetry_exporter_x"
    )
    top = top_cause(run(log))
    assert top.id == "python-module-missing" and "entry point names" not in top.cause


def test_middleware_fix_says_return_the_response():
    log = ASGI.format(
        option="timing.add_timing",
        file=f"{STARLETTE}/middleware/base.py",
        line=204,
        source="await response(scope, wrapped_receive, send)",
        returned="NoneType",
    )
    top = top_cause(run(log))
    assert top.confidence >= 0.70 and "return response" in top.fix and "None" in top.cause
