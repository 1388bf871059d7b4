"""What the scored batch fresh-234 (the process environment around a correct command, 4th round, both engines) taught
after scoring, with each miss's neighbourhood.

- shell-ulimit-value-invalid: a launcher's limit refused for its VALUE before the engine ran (EINVAL: a hard limit
  below the soft one, a soft one above the hard one; or not a number), in bash's, dash's and zsh's ulimit, util-linux
  prlimit's and CPython resource.setrlimit's words; the privilege refusal (EPERM) stays systemd-sandbox-not-applicable's.
- vllm-env-thread-count-zero: ThreadPoolExecutor's refusal of 0 workers under the vLLM frame that sizes its pool from a
  VLLM_* count (multimodal/media/connector.py, speech_to_text's serving.py), or with that count set to 0 in the log.
Messages marked 'rendered' are the program's format string filled with a value (bash 5 and dash run here); the others
are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

THREAD_TB = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/{file}", line {line}, in {func}\n'
    "    {code}\n"
    '  File "/usr/lib/python3.12/concurrent/futures/thread.py", line 144, in __init__\n'
    '    raise ValueError("max_workers must be greater than 0")\n'
    "ValueError: max_workers must be greater than 0\n"
)
USER_TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/fetch_all.py", line 12, in <module>\n'
    "    pool = ThreadPoolExecutor(max_workers=len(urls))\n"
    '  File "/usr/lib/python3.12/concurrent/futures/thread.py", line 144, in __init__\n'
    '    raise ValueError("max_workers must be greater than 0")\n'
    "ValueError: max_workers must be greater than 0\n"
)

CASES = [
    # dash's ulimit, a hard limit below the soft one (rendered: dash -c 'ulimit -Hn 64')
    (
        "shell-ulimit-value-invalid",
        "$ ulimit -Hn 128\nsh: 1: ulimit: error setting limit (Invalid argument)\n",
    ),
    # bash in a script, a soft limit above the hard one, another resource (rendered: bash's '%s: cannot modify limit')
    (
        "shell-ulimit-value-invalid",
        "./start-vllm.sh: line 3: ulimit: max user processes: cannot modify limit: Invalid argument\n",
    ),
    # bash's sh_invalidnum for a value with a unit (rendered: bash -c 'ulimit -n 64k')
    ("shell-ulimit-value-invalid", "bash: line 1: ulimit: 64k: invalid number\n"),
    # dash's own words for the same (rendered: dash -c 'ulimit -n 64k')
    ("shell-ulimit-value-invalid", "dash: 1: ulimit: bad number\n"),
    # a negative number read as an option (rendered: bash -c 'ulimit -n -5'; dash -c 'ulimit -n -5')
    (
        "shell-ulimit-value-invalid",
        "bash: line 1: ulimit: -5: invalid option\nulimit: usage: ulimit [-SHabc] [limit]\n",
    ),
    ("shell-ulimit-value-invalid", "dash: 1: ulimit: Illegal option -5\n"),
    # zsh's zsetlimit ('setrlimit failed: %e', its builtin-name:line form)
    ("shell-ulimit-value-invalid", "run.zsh:ulimit:2: setrlimit failed: invalid argument\n"),
    # util-linux prlimit with SOFT above HARD
    (
        "shell-ulimit-value-invalid",
        "$ prlimit --nofile=4096:1024 llama-server -m m.gguf\nprlimit: failed to set the NOFILE resource limit: "
        "Invalid argument\n",
    ),
    # CPython's resource.setrlimit (Modules/resource.c) with soft above hard
    (
        "shell-ulimit-value-invalid",
        "Traceback (most recent call last):\n"
        '  File "/home/me/launch.py", line 4, in <module>\n'
        "    resource.setrlimit(resource.RLIMIT_NOFILE, (65536, 1024))\n"
        "ValueError: current limit exceeds maximum limit\n",
    ),
    # the speech-to-text pool (entrypoints/speech_to_text/base/serving.py, VLLM_MAX_AUDIO_PREPROCESS_WORKERS; rendered)
    (
        "vllm-env-thread-count-zero",
        THREAD_TB.format(
            file="entrypoints/speech_to_text/base/serving.py",
            line=148,
            func="__init__",
            code="self._preprocess_executor = ThreadPoolExecutor(",
        ),
    ),
    # the media pool under a unit's Environment= with a negative count (Python 3.12 paths; rendered)
    (
        "vllm-env-thread-count-zero",
        "Environment=VLLM_MEDIA_LOADING_THREAD_COUNT=-1\n"
        + THREAD_TB.format(
            file="multimodal/media/connector.py",
            line=44,
            func="<module>",
            code="global_thread_pool = ThreadPoolExecutor(",
        ),
    ),
]

NEAR_MISSES = [
    # the privilege refusal (raising a hard limit: EPERM) is systemd-sandbox-not-applicable's
    (
        "shell-ulimit-value-invalid",
        "bash: line 1: ulimit: open files: cannot modify limit: Operation not permitted\n",
    ),
    # another program's 'invalid number' / 'invalid option' is no ulimit refusal
    ("shell-ulimit-value-invalid", "error: invalid number '4k' for --ctx-size\n"),
    ("shell-ulimit-value-invalid", "llama-server: invalid option -- 'z'\n"),
    # a pool of the user's own script, no vLLM frame and no count set to 0
    ("vllm-env-thread-count-zero", USER_TB),
    # ... nor with the media count set to a positive number
    ("vllm-env-thread-count-zero", "$ export VLLM_MEDIA_LOADING_THREAD_COUNT=16\n" + USER_TB),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_raising_a_hard_limit_stays_the_privilege_family():
    """EPERM from bash's ulimit is the sandbox / privilege family's; only EINVAL and a bad value are the new one's."""
    assert_named(
        "systemd-sandbox-not-applicable",
        "bash: line 1: ulimit: open files: cannot modify limit: Operation not permitted\n",
    )


def test_a_count_that_is_no_number_stays_the_integer_family():
    """VLLM_MEDIA_LOADING_THREAD_COUNT=1k fails in int() before any pool: vllm-env-value-not-integer's."""
    assert_named(
        "vllm-env-value-not-integer",
        "$ export VLLM_MEDIA_LOADING_THREAD_COUNT=1k\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/envs.py", line 1016, in <lambda>\n'
        '    "VLLM_MEDIA_LOADING_THREAD_COUNT": lambda: int(\n'
        "ValueError: invalid literal for int() with base 10: '1k'\n",
    )
