"""What after33c learnt in stop 33 from the misses of batch fresh-156 (the process environment around a correct
`vllm serve` on the CPU), after it was scored: one READING mechanism (an exception a process logged at ERROR and then
went on from, vLLM's 'Error saving model info cache.', is caught, not what ended the process: structure.survived),
wordings of existing families (libzmq's, torch's and other [Errno 24] forms of too-many-open-files; a regex.py or a
standard-library name shadowed on PYTHONPATH; int()'s ValueError inside VllmConfig's validation, an environment
variable's; a cache folder os.makedirs cannot create) and one new family (python-startup-env-invalid, CPython's own
start-up refusal of a PYTHON* variable). Each is tested on a wording other than the batch's and on a near miss.
"""

from __future__ import annotations

from servebox.doctor.structure import survived
from tests.doctor_text import family_tests, run, top_cause

# vLLM's registry logs a failed model-info cache save at ERROR and goes on (vllm/model_executor/models/registry.py)
LOGGED_AND_SURVIVED = (
    "(APIServer pid=7) ERROR 12-05 03:20:22 [registry.py:1041] Error saving model info cache.\n"
    "(APIServer pid=7) ERROR 12-05 03:20:22 [registry.py:1041] Traceback (most recent call last):\n"
    '(APIServer pid=7) ERROR 12-05 03:20:22 [registry.py:1041]   File "/usr/lib/python3.12/pathlib.py", line 1311, '
    "in mkdir\n"
    "(APIServer pid=7) ERROR 12-05 03:20:22 [registry.py:1041]     os.mkdir(self, mode)\n"
    "(APIServer pid=7) ERROR 12-05 03:20:22 [registry.py:1041] FileNotFoundError: [Errno 2] No such file or "
    "directory: '/sys/x/.cache/vllm/modelinfos'\n"
    "(APIServer pid=7) INFO 12-05 03:20:22 [model.py:733] Resolved architecture: Qwen2ForCausalLM\n"
)
# the worker's os.makedirs of the compile cache under a root where no folder can be made (a HOME of /sys/x)
WORKER_MAKEDIRS = (
    "(Worker pid=9) ERROR 12-05 03:21:11 [multiproc_executor.py:1063] WorkerProc hit an exception.\n"
    "(Worker pid=9) ERROR 12-05 03:21:11 [multiproc_executor.py:1063] Traceback (most recent call last):\n"
    '(Worker pid=9) ERROR 12-05 03:21:11 [multiproc_executor.py:1063]   File "/opt/venv/lib/python3.12/site-packages/'
    'vllm/compilation/decorators.py", line 575, in __call__\n'
    "(Worker pid=9) ERROR 12-05 03:21:11 [multiproc_executor.py:1063]     os.makedirs(inductor_cache, exist_ok=True)\n"
    '(Worker pid=9) ERROR 12-05 03:21:11 [multiproc_executor.py:1063]   File "<frozen os>", line 225, in makedirs\n'
    "(Worker pid=9) ERROR 12-05 03:21:11 [multiproc_executor.py:1063] FileNotFoundError: [Errno 2] No such file or "
    "directory: '/sys/x/.cache/vllm'\n"
)

CASES = [
    # libzmq's errno_assert (src/err.hpp "%s (%s:%d)") under `ulimit -n`, from another of its sources
    ("too-many-open-files", "Too many open files (src/signaler.cpp:269)\nAborted (core dumped)\n"),
    # torch's shared-memory refusal (DataLoader workers, torch.multiprocessing), strerror and the errno in parentheses
    (
        "too-many-open-files",
        "RuntimeError: unable to open shared memory object </torch_1234_567_0> in read-write mode: "
        "Too many open files (24)\n",
    ),
    # an [Errno 24] under another head (uvicorn's accept loop logs it)
    ("too-many-open-files", "ERROR:    [Errno 24] Too many open files: '/proc/self/fd'\n"),
    # a regex.py on PYTHONPATH shadows the regex package another library imports
    (
        "engine-package-shadowed-by-source-tree",
        '  File "/opt/venv/lib/python3.12/site-packages/tiktoken/core.py", line 80, in __init__\n'
        "    self._pat = regex.compile(pat_str)\n"
        "AttributeError: module 'regex' has no attribute 'compile'\n",
    ),
    # a typing.py in the working directory shadows the standard library's
    (
        "engine-package-shadowed-by-source-tree",
        "AttributeError: module 'typing' has no attribute 'Optional'\n",
    ),
    # int()'s ValueError inside VllmConfig's validation (VLLM_CPU_KVCACHE_SPACE=2G), no envs.py line
    (
        "vllm-env-value-not-integer",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, invalid literal for int() with base 10: '2G' [type=value_error, input_value=ArgsKwargs((), "
        "{'model_config': ...}), input_type=ArgsKwargs]\n",
    ),
    # CPython's start-up refusals, as CPython 3.11 prints them (run here: env VAR=value python -c pass)
    (
        "python-startup-env-invalid",
        'Fatal Python error: config_init_hash_seed: PYTHONHASHSEED must be "random" or an integer in range '
        "[0; 4294967295]\nPython runtime state: preinitialized\n",
    ),
    (
        "python-startup-env-invalid",
        "Fatal Python error: preconfig_init_allocator: PYTHONMALLOC: unknown allocator\n"
        "Python runtime state: preinitializing\n",
    ),
    (
        "python-startup-env-invalid",
        "Fatal Python error: init_stdio_encoding: failed to get the Python codec name of the stdio encoding\n"
        "Python runtime state: core initialized\nLookupError: unknown encoding: utf-9\n",
    ),
    (
        "python-startup-env-invalid",
        "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding\n"
        "Python runtime state: core initialized\nModuleNotFoundError: No module named 'encodings'\n",
    ),
    # the worker's fatal makedirs, with the API server's survived error above it
    ("cache-permission-denied", LOGGED_AND_SURVIVED + WORKER_MAKEDIRS),
]

NEAR_MISSES = [
    # vLLM's own start-up warning quotes the OSError in backticks: a warning about a low limit, not the failure
    (
        "too-many-open-files",
        "WARNING 12-05 03:32:04 [system_utils.py:255] Found ulimit of 1024 and failed to automatically increase "
        "with error current limit exceeds maximum limit. This can cause fd limit errors like `OSError: [Errno 24] "
        "Too many open files`. Consider increasing with ulimit -n\n",
    ),
    # an attribute only some releases have (regex's newer API, re's removed template) is version skew, not shadowing
    ("engine-package-shadowed-by-source-tree", "AttributeError: module 're' has no attribute 'template'\n"),
    # int()'s ValueError of a user's own script, no VLLM_ line and no VllmConfig: not an environment variable's
    ("vllm-env-value-not-integer", "ValueError: invalid literal for int() with base 10: '4GiB'\n"),
    # Python's other fatal errors are crashes, not a start-up setting
    (
        "python-startup-env-invalid",
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call first):\n",
    ),
    # a FileNotFoundError reading a missing file (pathlib's open) is no folder that cannot be made
    (
        "cache-permission-denied",
        '  File "/usr/lib/python3.12/pathlib.py", line 1013, in open\n'
        "    return io.open(self, mode, buffering, encoding, errors, newline)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/root/.cache/app/config.json'\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_error_the_process_went_on_from_is_not_the_root():
    """A log whose only error is one the process logged and went on from: no uncaught exception is its answer."""
    top = top_cause(run(LOGGED_AND_SURVIVED))
    assert top is None or top.id != "uncaught-exception", top


def test_survived_reads_the_same_process_next_ordinary_line():
    text = LOGGED_AND_SURVIVED.encode()
    end = text.find(b"\n", text.find(b"FileNotFoundError"))
    assert survived(text, end, "APIServer", "ERROR")
    # the next line of that process is about its stop: it did not go on
    stopping = (
        text[: end + 1] + b"(APIServer pid=7) INFO 12-05 03:20:23 [launcher.py:110] Shutting down FastAPI.\n"
    )
    assert not survived(stopping, end, "APIServer", "ERROR")
    # another process's ordinary line says nothing about this one
    other = text[: end + 1] + b"(EngineCore pid=8) INFO 12-05 03:20:23 [core.py:90] Initializing engine\n"
    assert not survived(other, end, "APIServer", "ERROR")
