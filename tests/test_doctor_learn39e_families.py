"""What the scored batch fresh-275 (the process environment x the vLLM setting that reads it) taught after scoring, with
the neighbourhood of each miss: the other wordings of the same failure from the program that prints it.

- chat-template-not-found: vLLM 0.32 _load_chat_template's 'failed to be opened ... Reason: {e}' only for ENOENT; EACCES
  is path-permission-denied's, EISDIR path-is-directory's; the same for --config's loader (vllm-config-file-not-found).
- working-directory-deleted: getcwd() failing in a deleted working directory (bash, dash, pwd, pyenv, Python, torch's
  oneMKL).
- ascii-locale-encoding: Python's 'ascii' codec errors under an ASCII locale with UTF-8 mode off; Click 7's refusal.
- zmq-ipc-path-too-long: pyzmq's bind refusal, its connect's errno, Python's AF_UNIX limit; zmq-ipc-folder-unusable: the
  same bind in a folder that is missing or not writable (VLLM_RPC_BASE_PATH).
- umask-blocks-ipc-sockets: the engine core's handshake timeout beside a umask that masks the owner's write bit.
Messages marked 'rendered' are the source's format string filled with a value; 'run here' were printed on this machine.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

TB = "Traceback (most recent call last):\n"
CORE = "(EngineCore_DP0 pid=411) ERROR 03-02 10:15:00 [core.py:1510] "
TIMEOUT = CORE + "RuntimeError: Did not receive response from front-end process within 2 minutes\n"


def chat_template_reply(reason: str) -> str:
    """renderers/chat_utils.py _load_chat_template's refusal (rendered), as the serve command's traceback ends."""
    return (
        "vllm.exceptions.VLLMValidationError: The supplied chat template (/etc/vllm/tool_chat.jinja) looks like a "
        "file path, but it failed to be opened. Tried: /etc/vllm/tool_chat.jinja and /opt/venv/lib/python3.12/"
        f"site-packages/vllm/transformers_utils/chat_templates/etc/vllm/tool_chat.jinja. Reason: {reason} "
        "(parameter=chat_template)\n"
    )


CASES = [
    # _load_chat_template's EACCES as a one-line log (no chained PermissionError; rendered)
    (
        "path-permission-denied",
        chat_template_reply("[Errno 13] Permission denied: '/etc/vllm/tool_chat.jinja'"),
    ),
    # ... ENOENT stays the missing template
    (
        "chat-template-not-found",
        chat_template_reply("[Errno 2] No such file or directory: '/etc/vllm/tool_chat.jinja'"),
    ),
    # ... EISDIR: the flag named a folder (rendered)
    ("path-is-directory", chat_template_reply("[Errno 21] Is a directory: '/etc/vllm/tool_chat.jinja'")),
    # vLLM's --config loader (utils/argparse_utils.py load_config_file) above an unreadable file (rendered)
    (
        "path-permission-denied",
        "ERROR 12-05 00:10:11 [argparse_utils.py:610] Unable to read the config file at /etc/vllm/serve.yaml. Check "
        "path correctness\n" + TB + "    with open(file_path) as config_file:\n"
        "PermissionError: [Errno 13] Permission denied: '/etc/vllm/serve.yaml'\n",
    ),
    # ... and above a missing one: still the config file's own family
    (
        "vllm-config-file-not-found",
        "ERROR 12-05 00:10:11 [argparse_utils.py:610] Unable to read the config file at /etc/vllm/serve.yaml. Check "
        "path correctness\n" + TB + "    with open(file_path) as config_file:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/etc/vllm/serve.yaml'\n",
    ),
    # bash started in a deleted folder (run here), then the engine's first line
    (
        "working-directory-deleted",
        "shell-init: error retrieving current directory: getcwd: cannot access parent directories: No such file or "
        "directory\nIntel oneMKL FATAL ERROR: Cannot load /opt/venv/lib/python3.12/site-packages/torch/lib/"
        "libtorch_cpu.so.\n",
    ),
    # dash (a container's sh -c) and pyenv's shim (run here)
    ("working-directory-deleted", "sh: 0: getcwd() failed: No such file or directory\n"),
    ("working-directory-deleted", "pyenv: cannot change working directory to `/srv/app/releases/current'\n"),
    # Python's os.path.abspath in a deleted folder (run here)
    (
        "working-directory-deleted",
        TB + '  File "/srv/app/start.py", line 3, in <module>\n    here = os.path.abspath("models")\n'
        '  File "<frozen posixpath>", line 404, in abspath\nFileNotFoundError: [Errno 2] No such file or directory\n',
    ),
    # the oneMKL line alone: the hint
    (
        "working-directory-deleted",
        "Intel oneMKL FATAL ERROR: Cannot load /home/me/venv/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so.\n",
    ),
    # the encode form under LANG=C PYTHONUTF8=0 (run here: print of vLLM's banner character)
    (
        "ascii-locale-encoding",
        "$ LANG=C PYTHONUTF8=0 vllm serve Qwen/Qwen3-0.6B\n"
        + TB
        + "UnicodeEncodeError: 'ascii' codec can't encode character '\\u2588' in position 0: ordinal not in range(128)\n",
    ),
    # Click 7's own check (click/_unicodefun.py, 7.1 wording)
    (
        "ascii-locale-encoding",
        "RuntimeError: Click will abort further execution because Python was configured to use ASCII as encoding for "
        "the environment. Consult https://click.palletsprojects.com/unicode-support/ for mitigation steps.\n",
    ),
    # pyzmq's bind refusal under a deep VLLM_RPC_BASE_PATH (rendered, cffi backend: no IPC_PATH_MAX_LEN sentence)
    (
        "zmq-ipc-path-too-long",
        TB
        + 'zmq.error.ZMQError: ipc path "/scratch/job-77/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'
        'c0ffee00-1111-2222-3333-444455556666" is longer than 107 characters (sizeof(sockaddr_un.sun_path)).\n',
    ),
    # Python's socket under --uds with a deep path (socketmodule.c)
    ("zmq-ipc-path-too-long", TB + "    sock.bind(path)\nOSError: AF_UNIX path too long\n"),
    # the same bind in a VLLM_RPC_BASE_PATH that does not exist (pyzmq's ENOENT wording, rendered) or is not writable
    (
        "zmq-ipc-folder-unusable",
        TB
        + '    socket.bind(path)\nzmq.error.ZMQError: No such file or directory for ipc path "/run/vllm/rpc/'
        '6f1c2a9e-0d1b-4b8e-9a57-1c2d3e4f5a6b".\n',
    ),
    (
        "zmq-ipc-folder-unusable",
        TB + "    socket.bind(path)\nzmq.error.ZMQError: Permission denied (addr='ipc:///srv/rpc/"
        "6f1c2a9e-0d1b-4b8e-9a57-1c2d3e4f5a6b')\n",
    ),
    # a unit's UMask= shown beside the handshake timeout
    ("umask-blocks-ipc-sockets", "systemd[1]: vllm.service: UMask=0277\n" + TIMEOUT),
    ("umask-blocks-ipc-sockets", "$ umask 277\n$ vllm serve /models/tiny\n" + TIMEOUT),
]

NEAR_MISSES = [
    # MKL's own libraries missing is not a deleted folder
    (
        "working-directory-deleted",
        "Intel MKL FATAL ERROR: Cannot load libmkl_avx2.so.2 or libmkl_def.so.2.\n",
    ),
    # a bare FileNotFoundError from an --uds bind is unix-socket-path-unbindable's, not a deleted folder
    (
        "working-directory-deleted",
        "non-default args: {'uds': '/run/vllm/api.sock'}\n" + TB + "    sock.bind(path)\n"
        "FileNotFoundError: [Errno 2] No such file or directory\n",
    ),
    # an 'ascii' decode error with no locale in sight: a hint at most
    (
        "ascii-locale-encoding",
        TB + "    name = raw.decode('ascii')\n"
        "UnicodeDecodeError: 'ascii' codec can't decode byte 0xc3 in position 4: ordinal not in range(128)\n",
    ),
    # a long file name (not a socket) stays path-name-too-long's
    (
        "zmq-ipc-path-too-long",
        "OSError: [Errno 36] File name too long: '/root/.cache/vllm/torch_compile_cache/" + "a" * 260 + "'\n",
    ),
    # a taken tcp port is not the ipc folder
    ("zmq-ipc-folder-unusable", TB + "zmq.error.ZMQError: Address already in use (addr='tcp://*:5557')\n"),
    # the handshake timeout under a sane umask stays the data-parallel reading
    ("umask-blocks-ipc-sockets", "$ umask 0022\n" + TIMEOUT),
    ("umask-blocks-ipc-sockets", "$ umask 077\n" + TIMEOUT),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_handshake_timeout_alone_stays_the_data_parallel_reading():
    """Without a umask in the log the timeout is a front end that never came (headless or remote)."""
    assert_named("dp-frontend-handshake-timeout", TIMEOUT)
