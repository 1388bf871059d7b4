"""What the lead learnt after scoring this stop's batches: a Jinja chat template whose compile error reaches Python's
compiler (jinja2 passes '{% break %}' / '{% continue %}' outside a loop through to it) is a broken template, read
where vLLM's start-up warm-up failed with it (fresh-171's compile-break-outside-loop)."""

from __future__ import annotations

from tests.doctor_text import run, top_cause

W = "(APIServer pid=77) WARNING 12-05 10:00:00 [base.py:380] "
E = "(APIServer pid=77) ERROR 12-05 10:00:00 [hf.py:486] "


def test_a_python_syntax_error_from_compiling_the_template_is_a_broken_template() -> None:
    # jinja2 3.1's own words for '{% continue %}' outside a loop, run here with the loopcontrols extension vLLM loads
    log = (
        f"{E}Error when compiling Jinja template\n{E}SyntaxError: 'continue' not properly in loop\n"
        f"{W}Chat template warmup failed\n{W}SyntaxError: 'continue' not properly in loop\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "chat-template-invalid"


def test_a_syntax_error_with_no_template_warm_up_is_not_the_template() -> None:
    # a user's own script that does not parse: nothing says a chat template was compiled
    log = "Traceback (most recent call last):\n  File \"/srv/app/serve.py\", line 3\n    if x\nSyntaxError: expected ':'\n"
    top = top_cause(run(log))
    assert top is None or top.id != "chat-template-invalid"
