"""What the measured batch fresh-318 (vLLM-CPU 0.32 and a deployment around it, two things wrong at once) taught after
scoring, with the neighbourhood of each miss.

- engine-binary-missing (widened): the shells' own refusal of an engine's interpreter or binary PATH (a slash in it, so
  no PATH lookup): dash/busybox 'sh: N: PATH: not found', bash 'NAME: line N: PATH: No such file or directory' and
  'bash: PATH: ...', coreutils env "env: 'PATH': No such file or directory", a shebang's 'bad interpreter', zsh's
  'no such file or directory: PATH', fish's 'Unknown command: PATH'. systemd's own forms stay systemd-exec-failed's.
- systemd-environment-path-not-expanded (new): Environment=PATH=$PATH:/x is literal under systemd (man systemd.exec:
  no variable expansion in Environment=), so a program run by name is not found (exit 127).
Lines marked 'rendered' are the program's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

VLLM = "(APIServer pid=7) INFO 12-06 06:03:36 [model.py:2152] Using max model len 512\n"
LSCPU_127 = (
    "/bin/sh: 1: lscpu: not found\n"
    "(EngineCore pid=9) ERROR 12-06 06:03:44 [core.py:1510] EngineCore failed to start.\n"
    "subprocess.CalledProcessError: Command 'lscpu --json --extended=CPU,CORE,NODE --online' returned non-zero exit "
    "status 127.\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore': 1}\n"
)
UNIT_HEAD = (
    "$ cat /etc/systemd/system/vllm.service\n[Unit]\nDescription=vLLM\n\n[Service]\nType=simple\nUser=vllm\n"
)
EXEC = "ExecStart=/opt/vllm/.venv/bin/vllm serve /opt/vllm/models/tiny --port 8000\n"

CASES = [
    # dash (as /bin/sh) refusing a unit's ExecStart path run by hand (rendered: dash's exec error, 'not found')
    (
        "engine-binary-missing",
        "$ /opt/vllm/.venv/bin/vllm serve /srv/models/qwen --port 8000\n/bin/sh: 1: /opt/vllm/.venv/bin/vllm: not found\n",
    ),
    # bash running a start script whose venv python was removed (rendered: bash's 'line N: PATH: strerror')
    (
        "engine-binary-missing",
        "$ /usr/local/bin/start-vllm.sh\n"
        "/usr/local/bin/start-vllm.sh: line 3: /srv/venvs/vllm/bin/python3: No such file or directory\n",
    ),
    # interactive bash, llama-server not built yet (rendered)
    (
        "engine-binary-missing",
        "$ /opt/llama.cpp/build/bin/llama-server -m /srv/models/q.gguf\n"
        "bash: /opt/llama.cpp/build/bin/llama-server: No such file or directory\n",
    ),
    # coreutils env, a wrapper's `env VAR=1 PATH...` naming the venv's python (rendered: env's quote style)
    (
        "engine-binary-missing",
        "/usr/bin/env: '/opt/venv/bin/python3.11': No such file or directory\n",
    ),
    # the venv's vllm entry point whose shebang names a python that is gone (a venv moved; rendered)
    (
        "engine-binary-missing",
        "$ /opt/vllm/.venv/bin/vllm serve tiny\n"
        "bash: /opt/vllm/.venv/bin/vllm: /home/ci/build/.venv/bin/python3: bad interpreter: No such file or directory\n",
    ),
    # zsh and fish (rendered)
    ("engine-binary-missing", "zsh: no such file or directory: /opt/venvs/vllm/bin/vllm\n"),
    ("engine-binary-missing", "fish: Unknown command: /opt/llama.cpp/build/bin/llama-server\n"),
    # a program in a venv's bin/ that is not an engine name (a uvicorn launcher)
    ("engine-binary-missing", "sh: 1: /opt/venvs/serve/bin/uvicorn: not found\n"),
    # systemctl show of the unit's environment, a braced ${PATH} last, and bash's 'command not found' (rendered)
    (
        "systemd-environment-path-not-expanded",
        "$ systemctl show llama-server -p Environment\n"
        "Environment=LLAMA_ARG_HOST=0.0.0.0 PATH=/opt/llama.cpp/bin:${PATH}\n"
        "llama-server.service: start.sh[812]: /opt/llama.cpp/start.sh: line 5: nvidia-smi: command not found\n"
        "llama-server.service: Main process exited, code=exited, status=127/n/a\n",
    ),
    # systemd-analyze dump's exec context ('\tEnvironment: %s', rendered) and Python's ENOENT on a bare name
    (
        "systemd-environment-path-not-expanded",
        "-> Unit vllm.service:\n\tEnvironment: PATH=$PATH:/usr/local/cuda/bin\n\tEnvironment: HF_HOME=/srv/hf\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/subprocess.py", line 1950, in _execute_child\n'
        "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'\n",
    ),
    # a quoted assignment among several on one Environment= line (the man page's own form), vLLM-CPU's lscpu
    (
        "systemd-environment-path-not-expanded",
        UNIT_HEAD + 'Environment="HF_HOME=/srv/hf" "PATH=/opt/bin:$PATH"\n' + EXEC + VLLM + LSCPU_127,
    ),
    # the engine printing its environment (Python's repr keeps the literal value)
    (
        "systemd-environment-path-not-expanded",
        "environ({'HOME': '/var/lib/vllm', 'PATH': '$PATH:/opt/bin'})\n" + VLLM + LSCPU_127,
    ),
]

NEAR_MISSES = [
    # a build tool's path, not an engine's: the compiler missing is the toolchain's (fresh corpus wording)
    ("engine-binary-missing", "  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found\n"),
    # a bare command not found (no path) stays command-not-found's
    ("engine-binary-missing", "/bin/sh: 1: lscpu: not found\n"),
    # another program's absolute path
    ("engine-binary-missing", "bash: /usr/bin/nvidia-smi: No such file or directory\n"),
    # a script saved with CRLF line ends: the interpreter is '/usr/bin/python3\r', not a missing python
    (
        "engine-binary-missing",
        "bash: ./serve.py: /usr/bin/python3^M: bad interpreter: No such file or directory\n",
    ),
    # a shell's export, which the shell expands: a program truly not installed
    (
        "systemd-environment-path-not-expanded",
        "$ export PATH=$PATH:/opt/bin\n$ vllm serve /srv/tiny\n" + VLLM + LSCPU_127,
    ),
    (
        "systemd-environment-path-not-expanded",
        '$ export PATH="${PATH}:/opt/bin"\n$ vllm serve /srv/tiny\n' + VLLM + LSCPU_127,
    ),
    # systemd-run typed in a shell: the shell expanded $PATH before systemd-run saw it
    (
        "systemd-environment-path-not-expanded",
        "$ systemd-run -p Environment=PATH=$PATH:/opt/bin vllm serve /srv/tiny\n" + VLLM + LSCPU_127,
    ),
    # the literal PATH in a unit whose engine ran nothing by name: no failure it caused
    (
        "systemd-environment-path-not-expanded",
        UNIT_HEAD
        + "Environment=PATH=$PATH:/opt/bin\n"
        + EXEC
        + VLLM
        + "(APIServer pid=7) INFO:     Application startup complete.\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
