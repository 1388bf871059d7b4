"""What four first-contact misses of stop 54 taught (fresh-504, fresh-505, fresh-509, fresh-510), each on logs written
here from the engines' own source wordings (vLLM 0.32, llama.cpp b11434), not copies of the batches' logs.

- structured-output-schema-unsupported (requests.toml): vLLM 0.32's outlines and lm-format-enforcer backends have no
  compile_grammar branch for a structural_tag (their request validators let it through), so the engine core raises
  'Invalid request type for Outlines backend (StructuredOutputOptions.STRUCTURAL_TAG)' / '... for LM Format Enforcer
  backend(StructuredOutputOptions.STRUCTURAL_TAG)' and that request fails with HTTP 500 (not 400); the server serves
  on (fresh-504's fresh504-vllm-08-outlines-structural-tag-chat, first contact engine-feature-refused 0.55).
- lora-alora-invocation-token-out-of-vocab (llama-server-checks.toml, new): an aLoRA adapter whose
  adapter.alora.invocation_tokens hold an id past the vocabulary loads; GET /lora-adapters turns each id into its text
  through id_to_token.at() and throws std::out_of_range ('vector::_M_range_check'), which aborts llama-server. Only
  beside a GET of /lora-adapters, and below 0.70: no line names the adapter (fresh-505's
  fresh505-llama-alora-minus-one-get, first contact native-abort 0.45).
- cpu-illegal-instruction (gpu-kernels.toml) reads a wrapper's 'exit status: 132 (killed by signal SIGILL)', and
  idle_at_death.py takes SIGILL with SIGBUS / SIGFPE: a llama-server idle after a long served run had no instruction
  to run that it had not run many times, so engine-killed-from-outside (0.55) answers; a SIGILL at the first request
  stays the CPU family, one inside a task after a served run keeps it below 0.70 (fresh-509's
  fresh509-llama-06-sigill-from-kill-during-traffic, first contact peer-connection-refused 0.50).
- shutdown-requested (service-machine.toml) reads vLLM's API-server stop lines printed only on the signal's path
  (launcher.py), and stop_shown.py makes an orderly stop the answer where it is all the log shows of the server (a
  tail pasted after the signal's own line, no start, no failure); a stop after a run the log shows stays a note, and
  an engine death before the same lines stays the death's (fresh-510's
  fresh510-vllm-openai-sync-server-sigterm-mid-answer, first contact none).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

SCHEMA = "structured-output-schema-unsupported"
ALORA = "lora-alora-invocation-token-out-of-vocab"
ILLEGAL = "cpu-illegal-instruction"
KILLED = "engine-killed-from-outside"
STOP = "shutdown-requested"

# ---- structured output: a kind the backend's compile_grammar has no branch for

VLLM_UP = (
    '$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8000 --structured-outputs-config \'{"backend": "%s"}\'\n'
    "(APIServer pid=4100) INFO 05-02 10:00:01 [launcher.py:195] Route: /v1/chat/completions, Methods: POST\n"
    "INFO:     Application startup complete.\n"
)


def _compile_refused(backend: str, message: str) -> str:
    where = "backend_outlines.py" if backend == "outlines" else "backend_lm_format_enforcer.py"
    return VLLM_UP % backend + (
        "(EngineCore pid=4188) ERROR 05-02 10:00:09 [__init__.py:208] Failed to compile grammar for request"
        " chatcmpl-91c2-0a1b\n"
        "(EngineCore pid=4188) ERROR 05-02 10:00:09 [__init__.py:208] Traceback (most recent call last):\n"
        f'(EngineCore pid=4188) ERROR 05-02 10:00:09 [__init__.py:208]   File "/opt/venv/lib/python3.12/site-packages/'
        f'vllm/v1/structured_output/{where}", line 74, in compile_grammar\n'
        "(EngineCore pid=4188) ERROR 05-02 10:00:09 [__init__.py:208]     raise ValueError(\n"
        f"(EngineCore pid=4188) ERROR 05-02 10:00:09 [__init__.py:208] ValueError: {message}\n"
        "(APIServer pid=4100) ERROR 05-02 10:00:09 [serving.py:203] Request chatcmpl-91c2 failed with an internal"
        " error during generation\n"
        'INFO:     10.0.0.7:51422 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
    )


@pytest.mark.parametrize(
    ("backend", "message", "word"),
    [
        (
            "outlines",
            "Invalid request type for Outlines backend (StructuredOutputOptions.STRUCTURAL_TAG)",
            "Outlines",
        ),
        (
            "lm-format-enforcer",
            "Invalid request type for LM Format Enforcer backend(StructuredOutputOptions.STRUCTURAL_TAG)",
            "LM Format Enforcer",
        ),
        (
            "outlines",
            "Invalid request type for Outlines backend (StructuredOutputOptions.GRAMMAR)",
            "Outlines",
        ),
    ],
)
def test_a_kind_the_backend_cannot_compile_is_structured_output_unsupported(backend, message, word):
    log = _compile_refused(backend, message)
    top = top_cause(run(log))
    assert top is not None and top.id == SCHEMA, answer_ids(log)
    assert word in top.cause and "500" in top.cause and "xgrammar" in top.fix
    assert top.confidence >= 0.7


def test_xgrammars_validation_should_have_occurred_is_not_taken():
    """xgrammar's 'grammar is not of valid supported types' follows vLLM's own 'Please file an issue': a kind no
    backend knows, vLLM's bug, not a backend lacking a kind."""
    log = _compile_refused(
        "xgrammar", "grammar is not of valid supported types. (StructuredOutputOptions.FOO)"
    )
    assert SCHEMA not in answer_ids(log)


# ---- aLoRA invocation tokens past the vocabulary

LLAMA_LORA = (
    "$ llama-server -m /models/llama-3.2-1b-q8_0.gguf --port 8080 --lora /models/alora-uncertainty.gguf\n"
    "0.00.020.100 I srv  llama_server: initializing ...\n"
    "0.00.030.500 I srv    load_model: loading model '/models/llama-3.2-1b-q8_0.gguf'\n"
    "0.00.410.000 I srv  llama_server: model loaded\n"
    "0.00.410.050 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
THROW = (
    "terminate called after throwing an instance of 'std::out_of_range'\n"
    "  what():  vector::_M_range_check: __n (which is 128262) >= this->size() (which is 128256)\n"
    "Aborted (core dumped)\n"
)


@pytest.mark.parametrize(
    "request_line",
    [
        "$ curl -s http://127.0.0.1:8080/lora-adapters\ncurl: (52) Empty reply from server\n",
        "# request: GET http://127.0.0.1:8080/lora-adapters\nRemoteProtocolError: Server disconnected without sending"
        " a response.\n",
    ],
)
def test_get_lora_adapters_range_check_is_an_alora_token_past_the_vocabulary(request_line):
    log = LLAMA_LORA + THROW.replace("Aborted", request_line + "Aborted", 1)
    top = top_cause(run(log))
    assert top is not None and top.id == ALORA, answer_ids(log)
    assert "128262" in top.cause and "invocation" in top.fix
    assert top.confidence < 0.7  # no line names the adapter


def test_libcxx_wording_after_get_lora_adapters():
    log = (
        LLAMA_LORA + "$ curl http://127.0.0.1:8080/lora-adapters\n"
        "libc++abi: terminating due to uncaught exception of type std::out_of_range: vector\n"
    )
    assert top_cause(run(log)).id == ALORA, answer_ids(log)


def test_range_check_without_lora_adapters_request_is_not_alora():
    """The same throw on a completion: any .at() in the engine; not this family."""
    log = LLAMA_LORA + "# request: POST http://127.0.0.1:8080/completion\n" + THROW
    assert ALORA not in answer_ids(log)


def test_post_lora_adapters_sets_scales_and_looks_no_token_up():
    log = (
        LLAMA_LORA
        + '$ curl -X POST http://127.0.0.1:8080/lora-adapters -d \'[{"id": 0, "scale": 0.5}]\'\n'
        + THROW
    )
    assert ALORA not in answer_ids(log)


# ---- SIGILL after a served run

LLAMA_HEAD = (
    "$ llama-server -m /srv/models/qwen-0.5b-q8.gguf --host 0.0.0.0 --port 8088 -c 2048 -np 2\n"
    "0.00.004.100 I srv  llama_server: initializing ...\n"
    "0.00.402.911 I srv  llama_server: model loaded\n"
    "0.00.402.950 I srv  llama_server: listening on http://0.0.0.0:8088\n"
)
REFUSED = "# request: POST http://127.0.0.1:8088/v1/chat/completions\nConnectError: [Errno 111] Connection refused\n"


def _task(n: int, done: bool = True) -> str:
    slot = n % 2
    lines = f"0.{10 + n:02d}.100.000 I slot launch_slot_: id  {slot} | task {n * 9} | processing task, is_child = 0\n"
    if done:
        lines += (
            f"0.{10 + n:02d}.130.100 I slot      release: id  {slot} | task {n * 9} | stop processing: n_tokens = 20,"
            " truncated = 0\n"
        )
    return lines


@pytest.mark.parametrize(
    "ending",
    [
        "# exit status: 132 (killed by signal SIGILL)\n",
        "runner: llama-server terminated by signal 4 (SIGILL)\n",
    ],
)
def test_sigill_idle_after_a_served_run_is_a_kill_from_outside(ending):
    log = LLAMA_HEAD + "".join(_task(i) for i in range(30)) + ending + REFUSED
    result = run(log)
    top = top_cause(result)
    assert top is not None and top.id == KILLED, answer_ids(log)
    assert "kill -ILL" in top.cause and top.confidence < 0.7
    illegal = next(d for d in result.diagnoses if d.id == ILLEGAL)
    assert illegal.confidence < 0.5


def test_sigill_at_the_first_request_is_the_cpu():
    log = LLAMA_HEAD + _task(0, done=False) + "# exit status: 132 (killed by signal SIGILL)\n" + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == ILLEGAL, answer_ids(log)
    assert "GGML_NATIVE" in top.fix


def test_sigill_inside_a_task_after_a_served_run_keeps_the_cpu_below_confident():
    tasks = "".join(_task(i) for i in range(30)) + _task(30, done=False)
    log = LLAMA_HEAD + tasks + "# exit status: 132 (killed by signal SIGILL)\n" + REFUSED
    top = top_cause(run(log))
    assert top is not None and top.id == ILLEGAL, answer_ids(log)
    assert top.confidence < 0.7 and "kill -ILL" in top.cause


# ---- an orderly stop that is all the paste shows of the server

STOP_TAIL = (
    "(APIServer pid=2210) INFO 05-02 11:20:41 [launcher.py:270] [shutdown] API server: stopping engine client"
    " mode=abort timeout=0s\n"
    "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:770] [shutdown] MPClient: start timeout=0s\n"
    "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:774] [shutdown] MPClient: engine manager stopped\n"
    "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:777] [shutdown] MPClient: complete\n"
    "(APIServer pid=2210) INFO 05-02 11:20:41 [launcher.py:279] [shutdown] API server: engine client stopped\n"
    "(APIServer pid=2210) INFO 05-02 11:20:41 [launcher.py:282] [shutdown] API server: signalling HTTP server"
    " shutdown\n"
    "(APIServer pid=2210) INFO 05-02 11:20:41 [launcher.py:304] [shutdown] API server: shutting down FastAPI HTTP"
    " server\n"
    "INFO:     Shutting down\n"
    "INFO:     Waiting for application shutdown.\n"
    "INFO:     Application shutdown complete.\n"
)
CLIENT = "$ python ask.py\nThe sea rolls in, grey and slow, over stones the tide has worn.\n\n"


def test_a_pasted_stop_without_its_signal_line_is_shutdown_requested():
    log = CLIENT + "$ tail -n 10 vllm.log\n" + STOP_TAIL
    top = top_cause(run(log))
    assert top is not None and top.id == STOP, answer_ids(log)
    assert "asked" in top.cause and top.confidence < 0.7


def test_a_stop_after_a_run_the_log_shows_stays_a_note():
    """A healthy run ending with its maker's SIGTERM: the run is what the log shows; nothing failed."""
    log = (
        "(APIServer pid=2210) INFO 05-02 11:18:02 [api_server.py:1020] Starting vLLM server on http://0.0.0.0:8000\n"
        "INFO:     Application startup complete.\n"
        'INFO:     127.0.0.1:40112 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
        "(APIServer pid=2210) INFO 05-02 11:20:41 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
        + STOP_TAIL
    )
    assert answer_ids(log) == []


def test_an_engine_death_before_the_same_lines_is_not_a_stop():
    log = (
        "(APIServer pid=2210) WARNING 05-02 11:20:40 [core_client.py:818] [shutdown] MPClient: engine core exited"
        " unexpectedly; starting cleanup\n"
        "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:770] [shutdown] MPClient: start timeout=default\n"
        "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:774] [shutdown] MPClient: engine manager stopped\n"
        "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:777] [shutdown] MPClient: complete\n"
        "INFO:     Shutting down\n"
        "INFO:     Application shutdown complete.\n"
    )
    ids = answer_ids(log)
    assert ids and ids[0] != STOP, ids


def test_mpclient_lines_alone_are_not_a_stop():
    """MPClient's lines also follow an engine death whose own line is above the tail: no answer from them alone."""
    log = CLIENT + (
        "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:774] [shutdown] MPClient: engine manager stopped\n"
        "(APIServer pid=2210) INFO 05-02 11:20:41 [core_client.py:777] [shutdown] MPClient: complete\n"
        "INFO:     Shutting down\n"
    )
    assert STOP not in answer_ids(log)
