"""What the scored batches fresh-158 (vLLM's API-server options) and fresh-159 (llama-server's router mode, a second
round) taught after they were scored: a Unix socket bound in a missing folder, the router's refusals as one class,
and a negative --models-max.

Each log is in ANOTHER wording than its corpus log: uvicorn --uds on uvloop and asyncio (run here, Python 3.11), a
llama-server --host ending in .sock (build 11434, run here), the router's other refusals as
tools/server/server-models.cpp and common/preset.cpp of 11434 write them, and --models-max 0 with a load-on-startup
preset model (run here). The near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# uvicorn --uds /tmp/after33f/nope/u.sock app:app (uvicorn of .venv-vllm, uvloop's loop), its last frames
UVICORN_UDS = (
    "INFO:     Started server process [10411]\n"
    "INFO:     Waiting for application startup.\n"
    "INFO:     Application startup complete.\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/uvicorn/server.py", line 171, in startup\n'
    "    server = await loop.create_unix_server(\n"
    '  File "uvloop/loop.pyx", line 2193, in create_unix_server\n'
    '  File "uvloop/loop.pyx", line 2184, in uvloop.loop.Loop.create_unix_server\n'
    "FileNotFoundError: [Errno 2] No such file or directory\n"
)
# asyncio's own loop (asyncio.run of loop.create_unix_server(path=...)), as printed here
ASYNCIO_UDS = (
    "$ python serve.py --uds /run/llm/api.sock\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/asyncio/unix_events.py", line 317, in create_unix_server\n'
    "    sock.bind(path)\n"
    "FileNotFoundError: [Errno 2] No such file or directory\n"
)
# llama-server -m tiny.gguf --host /tmp/after33f/nope/x.sock (11434): a missing folder, and a file already at the path
# print the same line
LLAMA_SOCK = (
    "0.00.014.866 E srv         start: couldn't bind HTTP server socket, hostname: /tmp/after33f/nope/x.sock, port: 8080\n"
    "0.00.014.929 E srv  llama_server: exiting due to HTTP server error\n"
)
ROUTER = (
    "0.00.014.692 I srv    operator(): Available models (2):\n"
    "0.00.018.149 I srv    operator():   [models_dir] qwen3\n"
    "0.00.018.161 I srv    operator():   [    preset] gemma\n"
    "0.00.018.630 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)


def refused(message: str, code: int = 500) -> str:
    """The router's handler wrapper logs the exception it answers with (as fresh-159's logs show)."""
    kind = "server_error" if code == 500 else "invalid_request_error"
    return f'0.03.336.416 W srv    operator(): got exception: {{"error":{{"code":{code},"message":"{message}","type":"{kind}"}}}}\n'


CASES = [
    (
        "unix-socket-path-unbindable",
        UVICORN_UDS.replace("INFO:", "$ uvicorn --uds /srv/sock/u.sock app:app\nINFO:", 1),
    ),
    ("unix-socket-path-unbindable", UVICORN_UDS),
    ("unix-socket-path-unbindable", ASYNCIO_UDS),
    ("llamacpp-bind-failed", LLAMA_SOCK),
    # --models-max 0 with one load-on-startup model (run here) and a negative limit with two
    (
        "llamacpp-router-models-max",
        "E srv  llama_server: failed to initialize router models: number of models to load on startup (1) exceeds "
        "models_max (0)\n",
    ),
    (
        "llamacpp-router-models-max",
        "E srv  llama_server: failed to initialize router models: number of models to load on startup (2) exceeds "
        "models_max (-3)\n",
    ),
    # server-models.cpp's request refusals about a model
    (
        "llamacpp-router-model-state-refused",
        ROUTER + refused("model name=gemma is not removable (not from cache)"),
    ),
    ("llamacpp-router-model-state-refused", ROUTER + refused("model limit reached, try again later")),
    (
        "llamacpp-router-model-state-refused",
        ROUTER + refused("request cancelled while waiting for model name=qwen3"),
    ),
    ("llamacpp-router-model-state-refused", ROUTER + refused("model name=qwen3 is not running", 400)),
    (
        "llamacpp-router-model-state-refused",
        ROUTER + refused("model 'unsloth/Qwen3-8B-GGUF' already exists", 400),
    ),
    (
        "llamacpp-router-model-state-refused",
        ROUTER + refused("model validation failed, unable to download", 400),
    ),
    ("model-name-not-served", ROUTER + refused("model name=qwen3-coder is not found")),
    (
        "llamacpp-router-alias-conflict",
        "E srv  llama_server: failed to initialize router models: model 'qwen3' appears multiple times\n",
    ),
    (
        "llamacpp-router-preset-option",
        "E srv  llama_server: failed to initialize router models: option 'model-url' is not allowed in remote presets\n",
    ),
    ("llamacpp-router-instance-failed", ROUTER + refused("model name=gemma failed to load")),
    ("llamacpp-router-instance-failed", ROUTER + refused("failed to spawn server instance")),
]

NEAR_MISSES = [
    # a missing file that names itself is that file's, not a socket's folder
    (
        "unix-socket-path-unbindable",
        "$ vllm serve m --uds /run/vllm.sock\nFileNotFoundError: [Errno 2] No such file or directory: '/models/m/config.json'\n",
    ),
    # a bare ENOENT with no Unix socket anywhere in the log
    (
        "unix-socket-path-unbindable",
        "Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory\n",
    ),
    # a TCP bind failure stays the port's
    (
        "unix-socket-path-unbindable",
        "0.00.007.600 E srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080\n",
    ),
    # 'already exists' outside the router (no router line in the log) is not the router's refusal
    (
        "llamacpp-router-model-state-refused",
        '{"error":{"code":400,"message":"model \'llama3\' already exists"}}\n',
    ),
    # a limit within range is not refused
    ("llamacpp-router-models-max", "I srv  llama_server: --models-max 4: up to 4 models at once\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_socket_path_comes_from_the_flag_above():
    top = top_cause(run(ASYNCIO_UDS))
    assert "/run/llm/api.sock" in top.cause and "/run/llm/api.sock" in top.fix


def test_a_llama_server_sock_host_names_the_reasons_it_cannot_tell_apart():
    top = top_cause(run(LLAMA_SOCK))
    assert ".sock" in top.cause and "leftover socket file" in top.cause and "folder is missing" in top.cause


def test_the_instance_own_cause_outranks_the_router_report():
    """fresh159-llama-router-split-parts-top-level: the child's split-part refusal above the router's 500."""
    log = (
        ROUTER
        + "[41235] llama_model_load: error loading model: llama_model_loader: failed to load model from "
        "/srv/m/tiny-00002-of-00002.gguf\n" + refused("model name=tiny-00002-of-00002 failed to load")
    )
    assert top_cause(run(log)).id != "llamacpp-router-instance-failed"


def test_a_negative_limit_names_it():
    top = top_cause(
        run(
            "E srv  llama_server: failed to initialize router models: number of models to load on startup (0) exceeds models_max (-1)\n"
        )
    )
    assert top.id == "llamacpp-router-models-max" and "-1" in top.cause
