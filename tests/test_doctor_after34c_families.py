"""What after34c learnt in stop 34 after scoring fresh-180 (things that happen to a running llama-server: signals,
files changing under it): each class tested on another wording than the batch log's, and on a near miss that must
not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# newer llama-server (tools/server): it listens, a slot takes a request
UP = (
    "0.00.350.732 I srv    load_model: initializing, n_slots = 1, n_ctx_slot = 2048, kv_unified = 'false'\n"
    "0.00.352.313 I srv  llama_server: model loaded\n"
    "0.00.359.868 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    "0.01.650.309 I slot get_availabl: id  0 | task -1 | selected slot by LRU, t_last = -1\n"
    "0.01.650.416 I slot launch_slot_: id  0 | task 7 | processing task, is_child = 0\n"
)
CUT = "httpx.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)\n"
ANSWERED = (
    "0.03.348.508 I slot      release: id  0 | task 7 | stop processing: n_tokens = 45, truncated = 0\n"
)
STOP = "0.04.822.581 I srv    operator(): operator(): cleaning up before exit...\n"

CASES = [
    # bash's strsignal words alone on a line after the job it ran (a script's `wait`, `set -m`): SIGHUP, SIGUSR2,
    # SIGALRM (bash's siglist), then the shell's exit status; nothing about memory in the log
    ("engine-killed-from-outside", UP + "Hangup\nexit status 129\n"),
    ("engine-killed-from-outside", UP + "User defined signal 2\n"),
    ("engine-killed-from-outside", UP + "Alarm clock\nexit status 142\n"),
    # bash -c's report with its line and pid, and job control's, for SIGHUP (the terminal closed)
    ("engine-killed-from-outside", "bash: line 1:  4411 Hangup                  llama-server -m /m/q.gguf\n"),
    ("engine-killed-from-outside", "[1]+  Hangup                  nohup-less llama-server -m /m/q.gguf\n"),
    # llama-server's second ctrl-C (tools/server/server.cpp's signal handler) while a request streamed
    ("shutdown-requested", UP + "Received second interrupt, terminating immediately.\n" + CUT),
    # its orderly stop with a request in flight, the client's (requests/urllib3) wording of the cut answer
    (
        "shutdown-requested",
        UP
        + STOP
        + "requests.exceptions.ChunkedEncodingError: ('Connection broken: IncompleteRead(12 bytes read)', "
        "IncompleteRead(12 bytes read))\n",
    ),
    # a slot restore whose file cannot be opened (llama_state_seq_load_file's llama_file error, strerror)
    (
        "llamacpp-slot-file-unopenable",
        "E llama_state_seq_load_file: error loading sequence state file: failed to open /srv/slots/a.bin: "
        "No such file or directory\n"
        "E srv    send_error: task id = 3, error: Unable to restore slot\n",
    ),
    (
        "llamacpp-slot-file-unopenable",
        "E llama_state_seq_save_file: error saving sequence state file: failed to open /srv/slots/a.bin: "
        "Permission denied\n",
    ),
]

NEAR_MISSES = [
    # a stale state file that opened but does not fit is the mismatch family's, not a path problem
    ("llamacpp-slot-file-unopenable", "state_read_data: mismatched key type (8 != 1, layer 0)\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_word_killed_inside_a_sentence_is_not_a_shells_report():
    top = top_cause(run(UP + "INFO: Killed 3 stale requests after 30 s\n"))
    assert top is None or top.id != "engine-killed-from-outside"


def test_a_bare_killed_with_the_kernels_oom_line_is_the_oom_killer():
    log = "kernel: Out of memory: Killed process 2102 (llama-server) total-vm:81234567kB\n" + UP + "Killed\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "host-oom-kill" and top.confidence >= 0.7


def test_vllms_own_kill_after_its_fatal_error_is_not_from_outside():
    log = (
        "CRITICAL 02-17 20:51:49 core_client.py:158] Got fatal signal from worker processes, shutting down. "
        "See stack trace above for root cause issue.\nKilled\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != "engine-killed-from-outside" or top.confidence < 0.5


def test_a_healthy_server_stopped_after_its_answers_is_no_failure():
    top = top_cause(run(UP + ANSWERED + STOP + "exit status 0\n"))
    assert top is None


def test_a_failure_before_the_stop_stays_the_answer():
    log = (
        UP
        + "0.02.000.000 E llama_state_seq_save_file: error saving sequence state file: failed to open s/a.bin: Not a directory\n"
    )
    top = top_cause(run(log + STOP + CUT))
    assert top is not None and top.id == "llamacpp-slot-file-unopenable"


def test_a_crash_after_the_second_interrupt_is_the_stops_symptom():
    r = run(UP + "Received second interrupt, terminating immediately.\nSegmentation fault\n" + CUT)
    ids = [(d.id, d.role) for d in r.diagnoses]
    assert ids[0] == ("shutdown-requested", "cause") and ("segfault", "symptom") in ids
