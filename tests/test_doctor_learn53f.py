"""What fresh-501's misses (first contact 2/10, stop 53: signals the engines do not handle, sent during traffic or
while idle; a grammar refused after a long run) taught, each on logs written here from llama.cpp b11434's and vLLM
0.32's own wordings, not copies of the batch's logs.

- engine-killed-from-outside (router.toml): a wrapper's or runner's words naming a signal that only an outsider sends
  and no engine handles ('exit status: 129 (killed by signal SIGHUP)', 'terminated by signal 3 (SIGQUIT)'): llama-server
  handles SIGINT / SIGTERM only (tools/server/server.cpp), vLLM's API server SIGTERM only; and a `kill -HUP` / `-QUIT` /
  `-ABRT` / `-BUS` ... typed in the paste before a client found the server gone (the sender named). The client's
  refused connections are the symptom. A kill -HUP with no refusal after it (a server that handled it), and a
  SIGTERM / Ctrl-C stop, are not it.
- idle_at_death.py: a llama-server ended by SIGBUS / SIGFPE (exit 135 / 136, no line of its own) after a long run with
  every task it started finished (no 'processing task' without its 'stop processing') computed nothing: a kill from
  outside is likelier than a bus error on the mapped GGUF or a division by zero, below 0.70 (the sender is not named).
  A SIGBUS under a task in flight stays model-file-changed-while-mapped.
- background_refusals.own_spread: llama-server writes no access line, so its finished tasks place a refusal burst; a
  grammar refused after a minute of chat whose one malformed body was the background is the story
  (request-grammar-invalid), while a last burst that repeats the background's own malformed body stays background.
- fresh501-vllm-03 (kill -ABRT to the EngineCore): no 'Fatal Python error: Aborted', no faulthandler dump, the kill typed
  in the paste: engine-killed-from-outside as labelled (fresh-409's relabel), no proposal.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

KILLED = "engine-killed-from-outside"
MAPPED = "model-file-changed-while-mapped"
GRAMMAR = "request-grammar-invalid"

LLAMA_HEAD = (
    "$ llama-server -m /srv/models/qwen-0.5b-q8.gguf --host 0.0.0.0 --port 8088 -c 2048 -np 2\n"
    "0.00.004.100 I srv  llama_server: initializing ...\n"
    "0.00.381.560 I srv    load_model: initializing, n_slots = 2, n_ctx_slot = 1024, kv_unified = 'true'\n"
    "0.00.402.911 I srv  llama_server: model loaded\n"
    "0.00.402.950 I srv  llama_server: listening on http://0.0.0.0:8088\n"
)


def _task(n: int, slot: int = 0, done: bool = True) -> str:
    lines = f"0.{10 + n:02d}.100.000 I slot launch_slot_: id  {slot} | task {n * 17} | processing task, is_child = 0\n"
    if done:
        lines += (
            f"0.{10 + n:02d}.130.000 I slot print_timing: id  {slot} | task {n * 17} |       total time =      30.00 ms"
            " /    24 tokens\n"
            f"0.{10 + n:02d}.130.100 I slot      release: id  {slot} | task {n * 17} | stop processing: n_tokens = 24,"
            " truncated = 0\n"
        )
    return lines


def _traffic(n: int = 30) -> str:
    return "".join(_task(i, i % 2) for i in range(n))


REFUSED = "# request: POST http://127.0.0.1:8088/v1/chat/completions\nConnectError: [Errno 111] Connection refused\n"


@pytest.mark.parametrize(
    "ending",
    [
        "# exit status: 129 (killed by signal SIGHUP)\n",
        "exit status: 131 (killed by SIGQUIT)\n",
        "runner: llama-server terminated by signal 10 (SIGUSR1)\n",
        "llama-server killed by signal SIGALRM\n",
    ],
)
def test_a_named_no_handler_signal_after_traffic_is_a_kill_from_outside(ending):
    """The wrapper names the signal; nothing in the server's own output: the cause is the kill, not the refusals."""
    log = LLAMA_HEAD + _traffic() + ending + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == KILLED, answer_ids(log)
    assert "SIGHUP" in top.cause and "nohup" in top.fix


VLLM_TAIL = (
    '(APIServer pid=7311) INFO:     127.0.0.1:40112 - "POST /v1/completions HTTP/1.1" 200 OK\n'
    '(APIServer pid=7311) INFO:     127.0.0.1:40114 - "POST /v1/completions HTTP/1.1" 200 OK\n'
)


@pytest.mark.parametrize(
    "kill",
    [
        "$ kill -HUP 7311\n",
        "$ kill -SIGHUP -- -7290   # the whole group\n",
        "user@box:~$ kill -s QUIT 7311\n",
        "# kill -ABRT 7342\n",
        "$ sudo kill -1 7311\n",
    ],
)
def test_a_typed_kill_before_refused_requests_names_the_sender(kill):
    """vLLM's processes handle neither SIGHUP nor SIGQUIT; the typed kill, then the refused request, is the story."""
    log = VLLM_TAIL + kill + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == KILLED, answer_ids(log)
    assert "killed from outside" in top.cause


def test_a_typed_kill_hup_the_server_lived_through_is_not_a_kill():
    """Near miss: no client found the server gone (it handled or ignored the hang-up): nothing failed."""
    log = VLLM_TAIL + "$ kill -HUP 7311\n" + VLLM_TAIL
    assert KILLED not in answer_ids(log)


def test_a_sigterm_stop_is_not_a_kill_from_outside():
    """Near miss: SIGTERM is an asked-for stop, whatever the wrapper calls it."""
    log = (
        LLAMA_HEAD + _traffic() + "0.45.000.000 I srv    operator(): operator(): cleaning up before exit...\n"
    )
    log += "# exit status: 143 (killed by signal SIGTERM)\n"
    assert KILLED not in answer_ids(log)


@pytest.mark.parametrize(
    "ending",
    [
        "# exit status: 135 (killed by signal SIGBUS)\n",
        "Bus error\n",
        "# exit status: 136 (killed by signal SIGFPE)\n",
    ],
)
def test_a_fault_signal_with_no_task_in_flight_reads_as_sent(ending):
    """Every started task finished before the death: no read of the mapping, no kernel running; below 0.70."""
    log = LLAMA_HEAD + _traffic() + ending + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == KILLED, answer_ids(log)
    assert top.confidence < 0.7 and "computed nothing" in top.cause


def test_a_bus_error_under_a_task_in_flight_stays_the_mapped_file():
    """Near miss: the death came while a task computed (its 'stop processing' never came): the GGUF's story."""
    log = LLAMA_HEAD + _traffic() + _task(40, done=False) + "Bus error\n" + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == MAPPED, answer_ids(log)


def test_a_bus_error_at_the_first_request_stays_the_mapped_file():
    """Near miss: too short a run to call it idle (one finished task)."""
    log = LLAMA_HEAD + _traffic(1) + "Bus error\n" + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == MAPPED, answer_ids(log)


BAD_BODY = (
    '0.20.000.000 W srv    operator(): got exception: {"error":{"code":400,"message":"Expected \'messages\' to be an'
    ' array","type":"invalid_request_error"}}\n'
)
GRAMMAR_REFUSED = (
    "parse: error parsing grammar: expecting ')' at \n\n"
    'root ::= ("yes" | "no"\n'
    "0.50.000.000 E failed to parse grammar\n"
    "0.50.000.100 E srv    send_error: task id = 901, error: Failed to initialize samplers: failed to parse grammar\n"
    "0.50.000.110 E srv  process_sing: failed to launch slot with task, id_task = 901\n"
)
TOTALS = "# client: 2 threads, chat, 41 requests in the healthy phase (200: 40, 400: 1)\n"


@pytest.mark.parametrize(
    "refusal",
    [
        GRAMMAR_REFUSED,
        GRAMMAR_REFUSED.replace("expecting ')'", "Undefined rule identifier 'answer'").replace(
            '("yes" | "no"', "answer"
        ),
    ],
)
def test_a_grammar_refused_after_a_long_run_is_the_story(refusal):
    """The background's one malformed body sits early in the traffic; the grammar refusals come after it."""
    log = LLAMA_HEAD + _traffic(10) + BAD_BODY + _traffic(30) + refusal + refusal + _task(45) + TOTALS
    top = top_cause(run(log))
    assert top is not None and top.id == GRAMMAR, answer_ids(log)
    assert "grammar" in top.cause and "kept serving" in top.cause


def test_a_last_burst_repeating_the_background_mistake_stays_background():
    """Near miss: the last probes repeat the traffic's malformed body, then omit a field: more of the same."""
    missing = (
        '0.51.000.000 W srv    operator(): got exception: {"error":{"code":400,"message":"\'messages\' is required",'
        '"type":"invalid_request_error"}}\n'
    )
    log = LLAMA_HEAD + _traffic(10) + BAD_BODY + _traffic(30) + BAD_BODY + missing + _task(45) + TOTALS
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.7, answer_ids(log)
