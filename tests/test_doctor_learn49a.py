"""What the measured batch fresh-437 (old ground around the engines, round 17) taught (learn49a).

- llamacpp-priority-not-raised (new note): llama.cpp b11434's refused priority (common/common.cpp set_process_priority
  'failed to set process priority %d : %s (%d)', ggml-cpu.c 'warn: failed to set thread priority %d : %s (%d)') is a
  warning it goes on from, not operation-not-permitted's cause.
- servebox-install-root-not-writable (new): servebox provision's lock (root_lock.py 'cannot create the install root's
  lock: STRERROR') or its venv build folder (provision.py '.NAME-DIGEST.building') refused in the install root.
- temp_fallback.py: a socket path too long because a read-only root left no writable /tmp (tempfile fell back to the
  working directory) is read-only-filesystem's; with a temporary folder given it stays zmq-ipc-path-too-long.
The wordings are the engines' and servebox's format strings filled with other values than fresh-437's logs hold.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, run, top_cause

PRIO = (
    "$ llama-server -m /models/qwen2.5-7b-q4_k_m.gguf --prio 3 --prio-batch 3 -t 8 --port 8080\n"
    "0.00.020.101 W cmn  set_process_: failed to set process priority 3 : Operation not permitted (1)\n"
    "warn: failed to set thread priority 3 : Operation not permitted (1)\n"
    "warn: failed to set thread priority 3 : Permission denied (13)\n"
    "0.00.900.000 I srv  llama_server: model loaded\n"
    "0.00.900.100 I srv  llama_server: listening on http://0.0.0.0:8080\n"
)
ULONG = "/data/jobs/2026-12-07/team-inference/run-000173/working-directory"
IPC = (
    'zmq.error.ZMQError: ipc path "{d}/0b9f2e11-3c4d-4e5f-8a9b-0c1d2e3f4a5b" is longer than 107 characters '
    "(sizeof(sockaddr_un.sun_path)). zmq.IPC_PATH_MAX_LEN constant can be used to check addr length (if it is "
    "defined).\n# exit: 1\n"
)


def test_refused_priority_on_a_serving_llama_server_is_no_failure():
    result = run(PRIO + "# request: POST /v1/chat/completions\nHTTP/1.1 200 OK\n")
    assert top_cause(result) is None
    assert any(d.id == "llamacpp-priority-not-raised" for d in result.diagnoses)


def test_refused_priority_does_not_hide_the_real_cause():
    log = PRIO.replace(
        "0.00.900.000 I srv  llama_server: model loaded\n",
        "gguf_init_from_file: failed to open GGUF file '/models/qwen2.5-7b-q4_k_m.gguf' (Permission denied)\n",
    )
    assert top_cause(run(log)).id == "path-permission-denied"


def test_install_root_lock_refused():
    assert_named(
        "servebox-install-root-not-writable",
        "$ servebox provision /etc/servebox/llm.toml\n"
        "servebox: error: /srv/llm/venvs/.servebox-provision.lock: cannot create the install root's lock: "
        "Read-only file system\n# exit: 1\n",
    )


def test_build_folder_refused_by_venv():
    line = "Error: [Errno 13] Permission denied: '/opt/engines/.llama-0123456789abcdef.building'"
    assert_named(
        "servebox-install-root-not-writable",
        f"servebox: creating a venv with python3.12\n{line}\n"
        f"servebox: error: python -m venv: failed with exit code 1: {line}\n# exit: 1\n",
    )


def test_venv_failing_for_another_reason_is_not_the_install_root():
    log = (
        "servebox: creating a venv with python3.11\nThe virtual environment was not created successfully because "
        "ensurepip is not\navailable.\nservebox: error: python -m venv: failed with exit code 1: apt install "
        "python3.11-venv\n# exit: 1\n"
    )
    assert top_cause(run(log)).id != "servebox-install-root-not-writable"


def test_read_only_root_without_tmp_falls_back_to_the_working_directory():
    log = f"$ podman run --read-only -v work:{ULONG} -w {ULONG} vllm-cpu --model /m\n" + IPC.format(d=ULONG)
    d = top_cause(run(log))
    assert d.id == "read-only-filesystem"
    assert "fell back" in d.cause and "--tmpfs /tmp" in d.fix


def test_deep_tmpdir_given_stays_a_deep_tmpdir():
    log = f"$ docker run --read-only --tmpfs /tmp -e TMPDIR={ULONG} vllm-cpu --model /m\n" + IPC.format(
        d=ULONG
    )
    assert top_cause(run(log)).id == "zmq-ipc-path-too-long"


def test_deep_tmpdir_without_a_read_only_root_stays():
    log = f"$ TMPDIR={ULONG} vllm serve /m\n" + IPC.format(d=ULONG)
    assert top_cause(run(log)).id == "zmq-ipc-path-too-long"
