"""The lead's fix at stop 55 (fresh-532 draw 2, confident wrong at first contact): a --middleware entry whose own
module is found but imports a package that is not installed is python-module-missing, not middleware-import-failed.

vLLM 0.32's init_entrypoints_middleware (entrypoints/serve/middleware/register.py) imports the entry's module with
importlib.import_module; where the module itself is missing the traceback ends in importlib's _find_and_load_unlocked,
and where the module's own top-level import fails it runs through _bootstrap_external's exec_module into the user's
file. Logs written here from those frames (not copies of the batch's log)."""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream

HEAD = """$ vllm serve /models/tiny --middleware {entry}
(APIServer pid=41) INFO 12-08 01:37:31 [api_utils.py:286] non-default args: {{'middleware': ['{entry}']}}
Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/vllm/entrypoints/launchers/app.py", line 54, in build_app
    init_entrypoints_middleware(args, app, supported_tasks)
  File "/srv/venv/lib/python3.11/site-packages/vllm/entrypoints/serve/middleware/register.py", line 67, in init_entrypoints_middleware
    imported = getattr(importlib.import_module(module_path), object_name)
  File "/usr/lib/python3.11/importlib/__init__.py", line 126, in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
  File "<frozen importlib._bootstrap>", line 1204, in _gcd_import
  File "<frozen importlib._bootstrap>", line 1176, in _find_and_load
  File "<frozen importlib._bootstrap>", line 1140, in _find_and_load_unlocked
"""
OWN_IMPORT = """  File "<frozen importlib._bootstrap>", line 690, in _load_unlocked
  File "<frozen importlib._bootstrap_external>", line 940, in exec_module
  File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed
  File "/opt/gateway/audit_mw.py", line 2, in <module>
    import prometheus_async
ModuleNotFoundError: No module named 'prometheus_async'
"""
ENTRY_MISSING = "ModuleNotFoundError: No module named 'audit_mw'\n"


def _top(text: str) -> str:
    result = triage_stream(io.BytesIO(text.encode()), "mw.log")
    causes = [d for d in result.diagnoses if d.role in ("cause", "symptom")]
    return causes[0].id if causes else "none"


def test_entry_module_importing_a_missing_package_is_the_package():
    assert _top(HEAD.format(entry="audit_mw.log_requests") + OWN_IMPORT) == "python-module-missing"


def test_entry_module_itself_missing_stays_middleware_import_failed():
    assert _top(HEAD.format(entry="audit_mw.log_requests") + ENTRY_MISSING) == "middleware-import-failed"
