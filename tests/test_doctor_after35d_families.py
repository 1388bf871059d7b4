"""What after35d learnt in stop 35 after scoring fresh-207 (things that happen to a running llama-server, 3rd round):
- a GGUF that llama.cpp cannot open is read by strerror's words on gguf.cpp's gguf_init_from_file line ("failed to open
  GGUF file '%s' (%s)"), not by the loader's consequence lines ("failed to load model from %s", "failed to load lora
  adapter file from %s", "failed to load CLIP model from %s. Does this file exist?"): Permission denied / Operation not
  permitted -> path-permission-denied, another errno -> that errno's family, only ENOENT the relative / missing path;
- the rest of glibc's strsignal words (which bash and dash print for a job ended by a signal) for signals no engine
  raises on itself: SIGSYS 'Bad system call', SIGTRAP, SIGSTKFLT, SIGPWR, SIGIO, real-time signals, and zsh's names;
- systemd's own time-limit line of service.c service_dispatch_timer ('Service reached runtime time limit. Stopping.')
  as systemd-result-timeout, even without "Failed with result 'timeout'"; its start siblings ('%s operation timed out.
  Terminating.' in both cases of the state's name, 'Start-post operation timed out. Stopping.') systemd-start-timeout.
Each on another wording than the batch log's, rendered from the engine's format string where no log had it, with
near misses that must stay with their own families.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# llama-server starting (tools/server), before the model's load
LLAMA_START = (
    "0.00.000.790 I srv  llama_server: initializing ...\n"
    "0.00.003.414 I srv    load_model: loading model '/srv/models/q.gguf'\n"
)
# llama-server up (tools/server)
LLAMA_UP = (
    "0.00.352.313 I srv  llama_server: model loaded\n"
    "0.00.359.868 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
LOAD_FAILED = (
    "0.00.003.570 E srv    load_model: failed to load model, '/srv/models/q.gguf'\n"
    "0.00.006.934 E srv  llama_server: exiting due to model loading error\n"
)


def gguf_open(path: str, errno_words: str) -> str:
    """gguf.cpp gguf_init_from_file: GGML_LOG_ERROR("%s: failed to open GGUF file '%s' (%s)\\n", ..., strerror(errno))"""
    return f"0.00.003.476 E gguf_init_from_file: failed to open GGUF file '{path}' ({errno_words})\n"


# llama-adapter.cpp llama_adapter_lora_init_impl: throw "failed to load lora adapter file from " + path, caught and
# printed by llama_adapter_lora_init ("%s: failed to apply lora adapter: %s") and common.cpp ("failed to load lora
# adapter '%s'"): rendered from the format strings
LORA_DENIED = (
    LLAMA_START
    + "llama_adapter_lora_init_impl: loading lora adapter from 'adapters/style.gguf' ...\n"
    + gguf_open("adapters/style.gguf", "Permission denied")
    + "llama_adapter_lora_init: failed to apply lora adapter: failed to load lora adapter file from adapters/style.gguf\n"
    + "common_init_from_params: failed to load lora adapter 'adapters/style.gguf'\n"
    + LOAD_FAILED
)
# mtmd's clip.cpp clip_model_loader: "%s: failed to load CLIP model from %s. Does this file exist?\n" (rendered)
MMPROJ_DENIED = (
    LLAMA_START
    + gguf_open("mmproj-F16.gguf", "Permission denied")
    + "clip_model_loader: failed to load CLIP model from mmproj-F16.gguf. Does this file exist?\n"
    + "mtmd_init_from_file: error: Failed to load CLIP model from mmproj-F16.gguf\n"
    + "0.00.004.100 E srv    load_model: failed to load multimodal model, 'mmproj-F16.gguf'\n"
)
# the model's own relative path with EPERM (a sandbox or an immutable-file policy), then the loader's lines
MODEL_EPERM = (
    LLAMA_START
    + gguf_open("models/q.gguf", "Operation not permitted")
    + "0.00.003.540 E llama_model_load: error loading model: llama_model_loader: failed to load model from models/q.gguf\n"
    + LOAD_FAILED
)
# llama-mmap.cpp llama_file::impl: throw format("failed to open %s: %s", fname, strerror(errno)) (rendered)
MMAP_DENIED = (
    LLAMA_START
    + "0.00.003.540 E llama_model_load: error loading model: failed to open models/q.gguf: Permission denied\n"
    + LOAD_FAILED
)
# a relative path on a network mount that failed: EIO is the storage's, not the path's
MODEL_EIO = (
    LLAMA_START
    + gguf_open("models/q.gguf", "Input/output error")
    + "0.00.003.540 E llama_model_load: error loading model: llama_model_loader: failed to load model from models/q.gguf\n"
    + LOAD_FAILED
)
# the same lines with ENOENT: the relative / missing path, as before
MODEL_ENOENT = (
    LLAMA_START
    + gguf_open("models/q.gguf", "No such file or directory")
    + "0.00.003.540 E llama_model_load: error loading model: llama_model_loader: failed to load model from models/q.gguf\n"
    + LOAD_FAILED
)

# bash's job report for a signal-killed job (jobs.c: strsignal's words padded to a column, then the command)
CMD = "llama-server -m /m/q.gguf --port 8080"
REFUSED = "ConnectError: [Errno 111] Connection refused\n"

# systemd's journal (service.c service_dispatch_timer and service_enter_*), unit llama.service
J = "Dec 05 09:00:00 gpu-box systemd[1]: llama.service: "

CASES = [
    ("path-permission-denied", LORA_DENIED),
    ("path-permission-denied", MMPROJ_DENIED),
    ("path-permission-denied", MODEL_EPERM),
    ("path-permission-denied", MMAP_DENIED),
    ("storage-io-error", MODEL_EIO),
    ("llamacpp-relative-model-path", MODEL_ENOENT),
    # SIGSYS: interactive job control, a script's bare word, zsh's name
    ("engine-killed-from-outside", LLAMA_UP + f"[1]+  Bad system call         {CMD}\n"),
    ("engine-killed-from-outside", LLAMA_UP + "Bad system call\nexit status 159\n" + REFUSED),
    ("engine-killed-from-outside", LLAMA_UP + f"zsh: invalid system call  {CMD}\n"),
    # the other terminating signals no engine raises on itself, as bash -c reports them
    ("engine-killed-from-outside", LLAMA_UP + f"bash: line 1:  4410 Trace/breakpoint trap   {CMD}\n"),
    ("engine-killed-from-outside", LLAMA_UP + f"bash: line 1:  4410 Stack fault             {CMD}\n"),
    ("engine-killed-from-outside", LLAMA_UP + f"bash: line 3:  4410 Power failure           {CMD}\n"),
    ("engine-killed-from-outside", LLAMA_UP + f"bash: line 1:  4410 I/O possible            {CMD}\n"),
    ("engine-killed-from-outside", LLAMA_UP + f"bash: line 1:  4410 Real-time signal 3      {CMD}\n"),
    ("engine-killed-from-outside", LLAMA_UP + "Real-time signal 0\nexit status 162\n"),
    # systemd's own limit lines, without the "Failed with result 'timeout'" line after them
    (
        "systemd-result-timeout",
        LLAMA_UP
        + J
        + "Service reached runtime time limit. Stopping.\n"
        + "0.10.015.409 I srv    operator(): operator(): cleaning up before exit...\n"
        + J
        + "Main process exited, code=exited, status=0/SUCCESS\n",
    ),
    ("systemd-start-timeout", LLAMA_START + J + "start operation timed out. Terminating.\n"),
    ("systemd-start-timeout", LLAMA_START + J + "Start-post operation timed out. Stopping.\n"),
    ("systemd-start-timeout", LLAMA_START + J + "start-pre operation timed out. Killing.\n"),
    # the runtime limit with the result line and a SIGKILL after the stop timeout, as users' journals show it
    (
        "systemd-result-timeout",
        LLAMA_UP
        + J
        + "Service reached runtime time limit. Stopping.\n"
        + J
        + "Main process exited, code=killed, status=9/KILL\n"
        + J
        + "Failed with result 'timeout'.\n",
    ),
]

NEAR_MISSES = [
    # the words inside a sentence are no shell's report of a death by signal
    (
        "engine-killed-from-outside",
        LLAMA_UP + "W srv  tool_call: Bad system call number in the request, ignoring\n",
    ),
    ("systemd-result-timeout", "httpx.ReadTimeout: The read operation timed out\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def _top_id(log: str) -> str | None:
    top = top_cause(run(log))
    return top.id if top is not None else None


def test_the_loader_consequence_lines_no_longer_read_as_a_relative_path():
    for log in (MODEL_EPERM, MODEL_EIO):
        ids = [d.id for d in run(log).diagnoses]
        assert "llamacpp-relative-model-path" not in ids[:1], ids


def test_an_unrelated_permission_error_leaves_a_missing_relative_model_alone():
    log = "open /var/log/llama/server.log: Permission denied\n" + MODEL_ENOENT
    assert _top_id(log) == "llamacpp-relative-model-path"


def test_a_seccomp_kill_with_a_core_stays_the_seccomp_family():
    log = LLAMA_UP + J + "Main process exited, code=dumped, status=31/SYS\n"
    assert _top_id(log) == "systemd-seccomp-killed"
    assert _top_id(LLAMA_UP + "Bad system call (core dumped)\n") == "systemd-seccomp-killed"


def test_a_seccomp_audit_record_makes_a_bare_bad_system_call_the_seccomp_family():
    audit = (
        "audit: type=1326 audit(1733389200.123:88): auid=4294967295 uid=65534 gid=65534 ses=4294967295 pid=1853 "
        'comm="llama-server" exe="/usr/bin/llama-server" sig=31 arch=c000003e syscall=425 compat=0 ip=0x7f code=0x0\n'
    )
    assert (
        _top_id(LLAMA_UP + audit + f"bash: line 1:  1853 Bad system call         {CMD}\n")
        == "systemd-seccomp-killed"
    )


def test_an_assert_above_a_trap_is_the_engine_s_own_crash():
    crash = "/src/ggml/src/ggml-cpu/ops.cpp:4123: GGML_ASSERT(ne00 % 32 == 0) failed\n"
    assert _top_id(LLAMA_UP + crash + "Trace/breakpoint trap (core dumped)\n") != "engine-killed-from-outside"
    assert _top_id(LLAMA_UP + crash + f"bash: line 1:  4410 Trace/breakpoint trap   {CMD}\n") != (
        "engine-killed-from-outside"
    )


def test_crash_signals_keep_their_crash_families():
    assert _top_id(LLAMA_UP + "Segmentation fault (core dumped)\n") != "engine-killed-from-outside"
    assert (
        _top_id(LLAMA_UP + f"bash: line 1:  4410 Aborted (core dumped)   {CMD}\n")
        != "engine-killed-from-outside"
    )


def test_the_crash_signals_job_lines_are_read_by_their_crash_families():
    """bash's job report for SIGILL / SIGABRT without a core (core dumps off), and zsh's names (its signal messages
    'illegal hardware instruction', 'abort'): the crash families, never engine-killed-from-outside."""
    assert (
        _top_id(LLAMA_UP + f"bash: line 1:  4410 Illegal instruction     {CMD}\n")
        == "cpu-illegal-instruction"
    )
    assert _top_id(LLAMA_UP + f"zsh: illegal hardware instruction  {CMD}\n") == "cpu-illegal-instruction"
    assert _top_id(LLAMA_UP + f"bash: line 1:  4410 Aborted                 {CMD}\n") == "native-abort"
    assert _top_id(LLAMA_UP + f"[1]+  Aborted                 {CMD}\n") == "native-abort"


def test_systemd_s_stop_and_watchdog_lines_keep_their_families():
    stop = LLAMA_UP + J + "State 'stop-sigterm' timed out. Killing.\n" + J + "Failed with result 'timeout'.\n"
    assert _top_id(stop) == "systemd-stop-timeout-killed"
    dog = LLAMA_UP + J + "Watchdog timeout (limit 3min)!\n" + J + "Failed with result 'watchdog'.\n"
    assert _top_id(dog) == "systemd-watchdog-timeout"


def test_a_plain_stop_is_not_a_time_limit():
    log = (
        LLAMA_UP
        + "0.10.015.409 I srv    operator(): operator(): cleaning up before exit...\nexit status 0\n"
        + REFUSED
    )
    assert _top_id(log) != "systemd-result-timeout"
