"""The general reader of a log's own statement of its cause (servebox/doctor/statement.py)."""

from __future__ import annotations

import io

from servebox.doctor.statement import KEPT, StatementReader, score_line
from servebox.doctor.triage import triage_stream


def answer(text: str):
    r = triage_stream(io.StringIO(text), "t")
    return r, (r.diagnoses[0] if r.diagnoses else None)


def test_the_line_that_says_why_beats_the_lines_that_point_at_it() -> None:
    log = (
        "starting widget server\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/widget/main.py", line 12, in <module>\n'
        "    raise SystemExit('bad config')\n"
        "widget: cannot open shard '/models/w-00002.bin': no such file or directory\n"
        "widget: exited with code 1, see root cause above\n"
    )
    r, top = answer(log)
    assert top is not None and top.id == "stated-cause" and top.first_line == 5
    assert r.verdict == "stated by the log" and top.confidence < 0.7 and r.fatal


def test_a_run_that_only_warns_gets_no_statement() -> None:
    log = (
        "WARNING 12-04 10:00:00 [config.py:1] max_num_seqs is not set; using 256 instead\n"
        "0.00.100.000 I slot      release: id  3 | task 0 | stop processing: n_tokens = 12, truncated = 0\n"
        "/x/site-packages/vllm/api_server.py:24: DeprecationWarning: this module is deprecated, use another instead\n"
        "INFO 12-04 10:00:01 [api_server.py:1] Application startup complete.\n"
    )
    _, top = answer(log)
    assert top is None


def test_a_completion_s_text_is_data_not_a_statement() -> None:
    reader = StatementReader()
    reader.offer('{"choices":[{"finish_reason":"length","message":{"content":"invalid error fatal"}}]}', 1)
    assert reader.best() == [] and not reader.failed


def test_a_known_family_is_not_replaced_by_the_general_reading() -> None:
    log = "OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n"
    _, top = answer(log)
    assert top is not None and top.id != "stated-cause"


def test_a_cause_word_alone_describes_and_a_failure_word_says_it_failed() -> None:
    assert score_line("rope_finetuned = unknown")[1] is False
    assert score_line("plugin 'zeta' failed: quux mismatch (expected 3, got 4)")[1] is True
    assert score_line("quux mismatch", "ERROR")[1] is True
    assert score_line("cache_invalidating env vars")[0] == 0.0  # a word inside an identifier is not the word


def test_the_reader_keeps_a_bounded_number_of_lines_and_the_earliest_of_equals() -> None:
    reader = StatementReader()
    for n in range(1, 5001):
        reader.offer("error: cannot open file: permission denied", n)
    assert len(reader.heap) == KEPT and [s.line for s in reader.best(3)] == [1, 2, 3]


def test_distinct_messages_are_remembered_up_to_a_bound() -> None:
    from servebox.doctor.statement import SCORES_KEPT

    reader = StatementReader()
    for n in range(SCORES_KEPT + 10):
        reader.offer(f"error: cannot open /models/shard-{n}.bin: permission denied", n + 1)
    assert len(reader.scored) <= SCORES_KEPT and reader.failed and reader.best(1)[0].line == 1


def test_an_access_line_is_the_refusal_and_its_body_the_reason() -> None:
    log = (
        'INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
        'client: HTTP 400 {"error":{"message":"Stream options can only be defined when `stream=True`."}}\n'
    )
    reader = StatementReader()
    for n, text in enumerate(log.splitlines(), 1):
        reader.offer(text, n)
    assert reader.best(1)[0].line == 2


def test_a_cause_stated_where_the_output_ends_is_why_it_stopped() -> None:
    # no failure word, no level: but the program's last words say what is wrong (a pasted excerpt, a CLI's refusal)
    _, top = answer("loading frobnicator\nunknown quux kind: 'zeta9' (have 'zeta8')\n")
    assert top is not None and top.id == "stated-cause" and top.first_line == 2
    # the same words earlier, then a healthy end: not a failure
    _, top = answer("unknown quux kind: 'zeta9' (have 'zeta8')\nserving on port 8080\nrequest done\n")
    assert top is None
    # a warning that happens to end the log is not why it stopped
    _, top = answer(
        "INFO 12-04 10:00:00 [a.py:1] ready\nWARNING 12-04 10:00:01 [a.py:2] unknown key 'foo' ignored\n"
    )
    assert top is None


def test_an_ending_that_reports_a_zero_exit_status_is_not_why_it_stopped() -> None:
    # llama-bench's healthy table ends 'build: unknown (0)' (fresh-146): with the run's exit status 0 after it, in any
    # of the ways shells, compose, IDEs and systemd print it, the program succeeded
    # (a banner no longer reads as a statement, so the line here is one that would: the rule is the ending's)
    body = "| model | t/s |\n| llama | 46321.09 |\n\nsampler: unknown mode (0)\n"
    for ending in ("# exit: 0", "vllm-1 exited with code 0", "Process finished with exit code 0"):
        _, top = answer(body + ending + "\n")
        assert top is None, ending
    # a non-zero status, or none at all, leaves the ending rule as it was
    for ending in ("# exit: 1\n", ""):
        _, top = answer(body + ending)
        assert top is not None and top.id == "stated-cause", ending


def test_a_version_banner_is_not_a_statement() -> None:
    # fresh-164's llama-quantize into a read-only folder: its banner's 'commit unknown' (a build without git metadata)
    # had been quoted as why it failed; the failure it printed at the end is the statement
    log = (
        "version: 0.6.0-dev (build 0, commit unknown)\n"
        "built with GNU 12.2.0 for Linux x86_64\n"
        "llama_model_quantize: failed to quantize: basic_ios::clear: iostream error\n"
        "llama_quantize: failed to quantize model from 'model-f16.gguf'\n"
    )
    _, top = answer(log)
    # (after33j: llamacpp-tool-output-write-failed now names that line's failure; either answer quotes it, not the banner)
    assert top is not None and top.id in ("stated-cause", "llamacpp-tool-output-write-failed")
    assert top.first_line in (3, 4)
    for banner in ("version: 0.6.0-dev (build 0, commit unknown)", "build: unknown (0)", "commit = unknown"):
        assert score_line(banner)[0] == 0.0, banner
    # a line that only begins like a banner, then says what failed, is still read
    assert score_line("build: failed to find CUDA toolkit, nvcc not found")[0] > 0


def test_a_command_echoed_after_a_prompt_is_not_a_statement() -> None:
    # fresh-121's curl log: the command names the missing file too, and names more things than the error does
    log = "$ curl -sS --cacert missing-ca.pem https://127.0.0.1:18461/\ncurl: (77) error setting certificate file: missing-ca.pem\n"
    _, top = answer(log)
    assert top is not None and top.id in ("stated-cause", "ssl-file-missing") and top.first_line == 2


def test_the_reader_reads_a_long_log_s_end_with_its_line_numbers() -> None:
    # the reader searches only the stream's last 64 KiB (and every raised exception's line): numbers must still count
    head = "INFO 12-04 10:00:00 [a.py:1] step ok\n" * 20000
    r, top = answer(head + "widget: plugin zeta failed to load: quux table has 3 columns, expected 4\n")
    assert top is not None and top.id == "stated-cause" and top.first_line == 20001


def test_a_raised_line_says_what_failed_in_any_words() -> None:
    # no cause word at all, but an exception: the line itself is the statement
    reader = StatementReader()
    reader.offer("ValueError: Ray does not allocate any GPUs on the driver node.", 1)
    assert reader.failed and reader.best(1)[0].score >= 3.0
