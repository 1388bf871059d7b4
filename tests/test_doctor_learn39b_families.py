"""What the scored batches fresh-274 (events on a running llama-server), fresh-276 (its process environment) and
fresh-279 (three options combined) taught after scoring, with the neighbourhood of each miss's check in llama.cpp
b11434's own source.

- model-file-changed-while-mapped: a llama.cpp process dying of SIGBUS reads its model through an mmap of the GGUF
  (src/llama-mmap.cpp); llama.cpp uses no /dev/shm, so not bus-error-shm's.
- slot-save-file-truncated: src/llama-context.cpp state_seq_load_file's 'token count in sequence state file exceeds
  the file size' and llama_file's 'unexpectedly reached end of file' under llama_state_*load_file; a state from
  another model ('exceeded capacity', magic, types) stays llamacpp-slot-state-mismatch's.
- llamacpp-mlock-failed: llama_mlock::raw_lock's warnings (Linux, macOS, Windows, no mlock) are a cause even where the
  server served after them (pinning is only tried when asked for); not the unlock at exit.
- llamacpp-override-kv-breaks-hparams: llama_init_from_model's 'n_ctx and model->hparams.n_ctx_train cannot both be
  zero' beside an --override-kv of a model key; its flag-only siblings stay llamacpp-context-params-invalid's.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

LOADED = (
    "llama_model_loader: loaded meta data with 24 key-value pairs and 291 tensors from /models/q4.gguf (version GGUF V3)\n"
    "main: server is listening on http://0.0.0.0:8080 - starting the main loop\n"
)
SERVER = (
    "0.00.025.308 I srv    load_model: loading model '/srv/models/q4.gguf'\n"
    "0.01.053.524 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)

CASES = [
    # bash -c's report of the server's SIGBUS, with the core dump (rendered as bash prints it)
    (
        "model-file-changed-while-mapped",
        LOADED
        + "bash: line 1:  4411 Bus error               (core dumped) llama-server -m /models/q4.gguf -c 4096\n",
    ),
    # systemd's record of a llama-server unit killed by SIGBUS
    (
        "model-file-changed-while-mapped",
        SERVER
        + "Dec 05 21:16:02 box systemd[1]: llama.service: Main process exited, code=dumped, status=7/BUS\n",
    ),
    # a container's exit status 135 (128 + SIGBUS)
    ("model-file-changed-while-mapped", LOADED + "llama-server exited with code 135\n"),
    # state_seq_load_file's first check in the session file's twin wording and other figures (rendered)
    (
        "slot-save-file-truncated",
        "llama_state_load_file: token count in session file exceeds the file size! 4096 > 17\n",
    ),
    # a cut inside the KV data: llama_file::read_raw's end of file under llama_state_seq_load_file (rendered)
    (
        "slot-save-file-truncated",
        SERVER
        + "0.02.998.511 E llama_state_seq_load_file: error loading sequence state file: unexpectedly reached end"
        " of file\n"
        "0.02.998.638 E srv    send_error: task id = 18, error: Unable to restore slot: No available space in KV"
        " cache or invalid slot save file\n",
    ),
    # raw_lock's warning with EPERM (no suggestion line), then the server serving (rendered)
    (
        "llamacpp-mlock-failed",
        "0.00.121.698 W warning: failed to mlock 7340032-byte buffer (after previously locking 0 bytes): Operation not"
        " permitted\n" + SERVER,
    ),
    # macOS's suggestion line (MLOCK_SUGGESTION under __APPLE__)
    (
        "llamacpp-mlock-failed",
        "warning: failed to mlock 4194304000-byte buffer (after previously locking 0 bytes): Resource temporarily "
        "unavailable\nTry increasing the sysctl values 'vm.user_wire_limit' and 'vm.global_user_wire_limit' and/or "
        "decreasing 'vm.global_no_user_wire_amount'.  Also try increasing RLIMIT_MEMLOCK (ulimit -l).\n"
        + LOADED,
    ),
    # Windows' VirtualLock (rendered)
    (
        "llamacpp-mlock-failed",
        "warning: failed to VirtualLock 2147483648-byte buffer (after previously locking 0 bytes): Insufficient "
        "quota to complete the requested service.\n" + LOADED,
    ),
    # a system without mlock
    ("llamacpp-mlock-failed", "warning: mlock not supported on this system\n" + LOADED),
    # the context-length override in the environment's form, -c left at 0 (rendered)
    (
        "llamacpp-override-kv-breaks-hparams",
        "LLAMA_ARG_OVERRIDE_KV=qwen2.context_length=int:0\n$ llama-server -m /m/q.gguf -c 0\n"
        "llama_init_from_model: n_ctx and model->hparams.n_ctx_train cannot both be zero\n"
        "common_init_from_params: failed to create context with model '/m/q.gguf'\n",
    ),
]

NEAR_MISSES = [
    # a vLLM worker's bus error (no llama.cpp in the log) stays the shared-memory family's
    (
        "model-file-changed-while-mapped",
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
        "Bus error (core dumped)\n",
    ),
    # a state from another model or context: 'exceeded capacity' is the mismatch family's
    (
        "slot-save-file-truncated",
        "state_seq_load_file: token count in sequence state file exceeded capacity! 9000 > 4096\n",
    ),
    # the GGUF loader's own end of file is the model file's, not a slot file's
    (
        "slot-save-file-truncated",
        "llama_model_load: error loading model: unexpectedly reached end of file\n",
    ),
    # the unlock at exit is no failure to pin
    ("llamacpp-mlock-failed", LOADED + "warning: failed to munlock buffer: Cannot allocate memory\n"),
    # -c 0 on a model stating no context, no override: the context family's
    (
        "llamacpp-override-kv-breaks-hparams",
        "$ llama-server -m /m/q.gguf -c 0\nllama_init_from_model: n_ctx and model->hparams.n_ctx_train cannot both"
        " be zero\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_vllm_bus_error_stays_shm():
    """No llama.cpp in the log: the SIGBUS is a PyTorch worker's shared memory."""
    assert_named(
        "bus-error-shm",
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory "
        "(shm).\nBus error (core dumped)\n",
    )


def test_foreign_slot_state_stays_mismatch():
    """A state written by another model or cache type is not a truncated file."""
    assert_named("llamacpp-slot-state-mismatch", "state_read_data: mismatched key type (8 != 1, layer 0)\n")
    assert_named(
        "llamacpp-slot-state-mismatch",
        "state_seq_load_file: token count in sequence state file exceeded capacity! 9000 > 4096\n",
    )


def test_context_zero_without_override_is_the_context_family():
    assert_named(
        "llamacpp-context-params-invalid",
        "$ llama-server -m /m/q.gguf -c 0\nllama_init_from_model: n_ctx and model->hparams.n_ctx_train cannot both"
        " be zero\n",
    )


def test_flag_refusal_beside_an_override_stays_the_context_family():
    """An override in view does not take llama_init_from_model's checks of the flags alone."""
    assert_named(
        "llamacpp-context-params-invalid",
        "$ llama-server -m /m/q.gguf --override-kv llama.context_length=int:4096 -b 0 -ub 0\n"
        "llama_init_from_model: n_batch and n_ubatch cannot both be zero\n",
    )


def test_mlock_warning_is_named_below_a_death():
    """The unpinned model is a cause of its own, but a later death outranks it."""
    top = top_cause(
        run(
            "warning: failed to mlock 1081344-byte buffer (after previously locking 0 bytes): Cannot allocate memory\n"
            "Try increasing RLIMIT_MEMLOCK ('ulimit -l' as root).\n" + LOADED + "Killed\n"
        )
    )
    assert top is not None and top.id != "llamacpp-mlock-failed", top and top.id


def test_healthy_start_without_mlock_names_nothing():
    assert top_cause(run(LOADED)) is None


def test_gguf_end_of_file_stays_the_gguf_family():
    """llama_file's end of file while loading the model is the GGUF's, with or without a server in view."""
    assert_named(
        "llamacpp-bad-gguf", "llama_model_load: error loading model: unexpectedly reached end of file\n"
    )
