"""Stop 35, the lead: one environment-variable class met under three libraries in one stop (vLLM's CPU platform, torch's
config modules, huggingface_hub's constants) is taught once for any module: int() / float() of os.environ.get /
os.getenv on the source line Python prints above the ValueError names the variable. The wordings are Python 3.11's own
traceback of a module that reads its setting at import (rendered, not run: a plugin's config module is any file)."""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream


def top(text: str):
    result = triage_stream(io.BytesIO(text.encode()), "t.log")
    return result.diagnoses[0] if result.diagnoses else None


def _traceback(source_line: str, value: str, kind: str = "int() with base 10") -> str:
    error = (
        f"ValueError: invalid literal for {kind}: '{value}'"
        if kind.startswith("int")
        else f"ValueError: could not convert string to float: '{value}'"
    )
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 3, in <module>\n'
        "    import somelib\n"
        '  File "/opt/venv/lib/python3.11/site-packages/somelib/config.py", line 12, in <module>\n'
        f"    {source_line}\n"
        f"{error}\n"
    )


def test_any_modules_numeric_environment_read_names_its_variable():
    d = top(_traceback('TIMEOUT = int(os.environ.get("SOMELIB_TIMEOUT", "10"))', "ten"))
    assert d.id == "vllm-env-value-not-integer" and d.confidence >= 0.7
    assert "SOMELIB_TIMEOUT" in d.cause and "'ten'" in d.cause
    d = top(_traceback('RATIO = float(os.getenv("PLUGIN_RATIO", "0.5"))', "half", kind="float"))
    assert d.id == "vllm-env-value-not-integer" and "PLUGIN_RATIO" in d.cause


def test_a_numeric_read_of_something_else_is_not_an_environment_variable():
    """Near miss: int() of a config file's value in the same module stays what it was (a package's own error)."""
    d = top(_traceback('TIMEOUT = int(settings["timeout"])', "ten"))
    assert d is None or d.id != "vllm-env-value-not-integer"
