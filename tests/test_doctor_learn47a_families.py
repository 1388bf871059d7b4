"""What the measured batch fresh-407 (systemd-analyze verify on rendered units, an openai client) taught, with the
neighbourhood of each miss in systemd 252's own strings (libsystemd-core-252.so, libsystemd-shared-252.so, systemctl)
and the openai SDK's async client. Lines marked 'rendered' were printed by systemd 252's systemd-analyze here (verify
at debug level for the parsed-unit dump, condition for the checks); the others are the source's format strings filled.

- systemd-oneshot-restart (widened): service_verify's 'Service has RestartForceExitStatus= set, which isn't allowed
  for Type=oneshot services. Refusing.' and systemd < 244's 'Restart= setting other than no'.
- systemd-bad-value (widened): load-fragment.c's credential refusals (LoadCredential= without ID:, '=' for ':', a
  relative source, SetCredential= with a bad name, a duplicate).
- systemd-condition-not-met (new): an unmet Condition*= as analyze condition, the journal, systemctl status say it.
- systemd-environment-var-not-expanded (new): a literal $VAR in effect (systemd's parsed-unit dump, an OS error on the
  literal path), never the unit's own line alone (a later assignment or EnvironmentFile= may replace it).
- openai-async-call-not-awaited (new): an AsyncOpenAI call without await.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

VERIFY = "$ systemd-analyze verify --man=no /etc/systemd/system/{unit}\n"


def verify(unit: str, lines: str, code: int = 0) -> str:
    return VERIFY.format(unit=unit) + lines + f"# exit: {code}\n"


ASYNC_SCRIPT = (
    "$ cat bench_async.py\nfrom openai import AsyncOpenAI\n"
    'client = AsyncOpenAI(base_url="http://127.0.0.1:8000/v1", api_key="x")\n'
)


def traceback(last: str, script: str = ASYNC_SCRIPT) -> str:
    return (
        f"{script}$ python bench_async.py\nTraceback (most recent call last):\n"
        '  File "/home/u/bench_async.py", line 12, in main\n    for chunk in stream:\n'
        f"{last}\n# exit: 1\n"
    )


CASES = [
    # service_verify, a download unit given a server's restart settings (rendered, systemd 252)
    (
        "systemd-oneshot-restart",
        verify(
            "vllm-fetch.service",
            "vllm-fetch.service: Service has RestartForceExitStatus= set, which isn't allowed for Type=oneshot "
            "services. Refusing.\nUnit vllm-fetch.service has a bad unit file setting.\n",
            1,
        ),
    ),
    # ... systemd < 244's wording, any Restart= but no
    (
        "systemd-oneshot-restart",
        "Dec 03 10:00:00 gpu systemd[1]: /etc/systemd/system/hf-download.service: Service has Restart= setting other "
        "than no, which isn't allowed for Type=oneshot services. Refusing.\n",
    ),
    # the credential refusals (rendered: LoadCredential=tok:relative/path, SetCredential=/bad:xx)
    (
        "systemd-bad-value",
        verify(
            "vllm.service",
            '/etc/systemd/system/vllm.service:9: Credential source "relative/path" not valid, ignoring.\n',
        ),
    ),
    (
        "systemd-bad-value",
        verify(
            "vllm.service",
            '/etc/systemd/system/vllm.service:11: Credential name "/bad" not valid, ignoring.\n',
        ),
    ),
    (
        "systemd-bad-value",
        verify(
            "vllm.service",
            "/etc/systemd/system/vllm.service:12: Duplicated credential value 'hf_token', ignoring assignment: "
            "hf_token:/etc/llm/other\n",
        ),
    ),
    # analyze condition on a negated check (its '%s=%s%s%s %s.' as rendered here on other paths), the journal and systemctl status (unit.c, systemctl)
    (
        "systemd-condition-not-met",
        "$ systemd-analyze condition 'ConditionPathIsDirectory=!/srv/models'\n"
        "test.service: ConditionPathIsDirectory=!/srv/models failed.\nConditions failed.\n# exit: 1\n",
    ),
    (
        "systemd-condition-not-met",
        "Dec 03 10:00:00 gpu systemd[1]: llama-server.service was skipped because of an unmet condition check "
        "(ConditionFileNotEmpty=/srv/models/qwen.gguf).\n",
    ),
    (
        "systemd-condition-not-met",
        "$ systemctl status vllm\n○ vllm.service - vLLM\n     Loaded: loaded (/etc/systemd/system/vllm.service; "
        "enabled)\n     Active: inactive (dead)\n  Condition: start condition failed at Sun 2026-12-06 10:00:00 UTC; "
        "5s ago\n             └─ ConditionPathExists=/opt/hf/hub/Qwen--Qwen2.5-7B was not met\n",
    ),
    (
        "systemd-condition-not-met",
        "Dec 03 10:00:00 gpu systemd[1]: Condition check resulted in vllm.service being skipped.\n",
    ),
    # systemd 252's parsed unit (verify at debug level, rendered from Environment=X=$HOME/a)
    (
        "systemd-environment-var-not-expanded",
        "$ SYSTEMD_LOG_LEVEL=debug systemd-analyze verify /etc/systemd/system/vllm.service\n"
        "\t-> Unit vllm.service:\n\t\tEnvironment: HF_HOME=$HOME/.cache/huggingface\n"
        "\t\tEnvironment: VLLM_NO_USAGE_STATS=1\n",
    ),
    # an OS error on the literal path, the unit shown (Python's PermissionError through huggingface_hub)
    (
        "systemd-environment-var-not-expanded",
        "$ cat /etc/systemd/system/vllm.service\n[Service]\nEnvironment=HF_HOME=${XDG_CACHE_HOME}/huggingface\n"
        "WorkingDirectory=/\nExecStart=/opt/vllm/bin/vllm serve Qwen/Qwen2.5-0.5B-Instruct\n"
        "Dec 03 10:00:00 gpu vllm[812]: PermissionError: [Errno 13] Permission denied: '${XDG_CACHE_HOME}'\n",
    ),
    # the async client's other calls and readings (Python 3.11's own wordings)
    (
        "openai-async-call-not-awaited",
        traceback(
            "TypeError: 'coroutine' object is not iterable\n"
            "sys:1: RuntimeWarning: coroutine 'AsyncCompletions.create' was never awaited"
        ),
    ),
    (
        "openai-async-call-not-awaited",
        traceback("TypeError: 'async for' requires an object with __aiter__ method, got coroutine"),
    ),
    (
        "openai-async-call-not-awaited",
        traceback("AttributeError: 'coroutine' object has no attribute 'data'"),
    ),
    (
        "openai-async-call-not-awaited",
        "/home/u/embed.py:9: RuntimeWarning: coroutine 'AsyncEmbeddings.create' was never awaited\n"
        "  vecs = client.embeddings.create(model='bge', input=['a'])\n",
    ),
]

NEAR_MISSES = [
    # ExitType=cgroup's oneshot refusal is no restart setting
    (
        "systemd-oneshot-restart",
        verify(
            "fetch.service",
            "fetch.service: Service has ExitType=cgroup set, which isn't allowed for Type=oneshot services. "
            "Refusing.\n",
            1,
        ),
    ),
    # a trigger condition that failed while another held decides nothing; a check that succeeded is no failure
    (
        "systemd-condition-not-met",
        "$ systemd-analyze condition 'ConditionPathExists=|/nope' 'ConditionPathExists=|/opt'\n"
        "test.service: ConditionPathExists=|/nope failed.\ntest.service: ConditionPathExists=|/opt succeeded.\n"
        "Conditions succeeded.\n# exit: 0\n",
    ),
    # the unit's own line alone: a later assignment replaces it (systemd 252 keeps the last), as fresh-407's log
    (
        "systemd-environment-var-not-expanded",
        verify(
            "vllm.service",
            "",
        ).replace(
            "$ systemd",
            "$ cat /etc/systemd/system/vllm.service\n[Service]\nEnvironment=HF_HOME=${HOME}/.cache/huggingface\n"
            "Environment=HF_HOME=/opt/vllm/hf-cache\nExecStart=/opt/vllm/bin/vllm serve m\n$ systemd",
        ),
    ),
    # a literal path error with no unit in the log (a shell script's own quoting)
    (
        "systemd-environment-var-not-expanded",
        "$ python fetch.py\nPermissionError: [Errno 13] Permission denied: '${HOME}'\n",
    ),
    # another library's coroutine, no async openai client in the log
    (
        "openai-async-call-not-awaited",
        traceback(
            "AttributeError: 'coroutine' object has no attribute 'json'",
            "$ cat poll.py\nimport aiohttp\n",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
