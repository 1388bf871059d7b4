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


_RUN_BATCH = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/openai/run_batch.py", line 190, in read_file\n'
    '    with open(path_or_url, encoding="utf-8") as f:\n'
    "FileNotFoundError: [Errno 2] No such file or directory: 'batches/today.jsonl'\n"
)


def test_the_batch_runner_s_missing_input_names_the_path() -> None:
    # fresh-176's '-i -' in an older release's layout (entrypoints/openai/run_batch.py) with a relative path
    top = top_cause(run(_RUN_BATCH))
    assert top is not None and top.id == "batch-runner-file-missing" and "batches/today.jsonl" in top.cause


def test_a_missing_file_opened_elsewhere_is_not_the_batch_runner_s() -> None:
    log = _RUN_BATCH.replace("run_batch.py", "hf_loader.py").replace("in read_file", "in load_weights")
    top = top_cause(run(log))
    assert top is None or top.id != "batch-runner-file-missing"
