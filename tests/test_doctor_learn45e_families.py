"""What fresh-383's misses taught (llama-server b11434 failing after a long healthy run: the log a whole journal).

- engine-killed-from-outside: a wrapper's or supervisor's report that names the signal ('exit status: 137 (killed by
  signal SIGKILL)', 'killed by SIGKILL', 'terminated by signal 9 (SIGKILL)', and the same for SIGABRT where the engine
  printed no reason), ranked above the client's own 4xx refusals of the healthy part. An abort that says why
  ('terminate called after throwing', glibc's 'Assertion `...' failed.', a gdb backtrace) stays its crash's.
- llamacpp-relative-model-path steps aside (unless_served_before, marker llamacpp-model-opened) where the same path was
  opened and served earlier in the log: the file went since, llamacpp-model-file-missing's reading.
Lines are rendered from the sources' format strings (server-context.cpp 'loading model '%s'', gguf.cpp 'failed to open
GGUF file '%s' (%s)', llama-model-loader.cpp 'loaded meta data with %d key-value pairs and %d tensors from %s
(version %s)'), not the corpus logs' own text; the wrappers' lines are of the kinds named above.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CMD = "$ llama-server -m {path} --host 0.0.0.0 --port 8080 -c 4096\n"
UP = (
    "0.00.010.000 I srv    load_model: loading model '{path}'\n"
    "0.01.200.000 I srv  llama_server: listening on http://0.0.0.0:8080\n"
)
TRAFFIC = (
    "1.10.000.000 I slot launch_slot_: id  0 | task 90 | processing task, is_child = 0\n"
    '1.10.100.000 W srv    operator(): got exception: {"error":{"code":400,"message":"[json.exception.type_error.302]'
    ' type must be array, but is string","type":"invalid_request_error"}}\n'
    "1.12.000.000 I slot      release: id  0 | task 90 | stop processing: n_tokens = 40, truncated = 0\n"
    "1.15.000.000 I slot launch_slot_: id  1 | task 120 | processing task, is_child = 0\n"
)


def served(path: str = "models/qwen.gguf") -> str:
    return CMD.format(path=path) + UP.format(path=path) + TRAFFIC


def refused_open(path: str, errno: str = "No such file or directory") -> str:
    return (
        CMD.format(path=path)
        + f"0.00.009.000 I srv    load_model: loading model '{path}'\n"
        + f"0.00.009.100 E gguf_init_from_file: failed to open GGUF file '{path}' ({errno})\n"
        + f"0.00.009.200 E llama_model_load: error loading model: llama_model_loader: failed to load model from {path}\n"
        + f"0.00.009.300 E srv    load_model: failed to load model, '{path}'\n"
        + "0.00.009.400 E srv  llama_server: exiting due to model loading error\n"
    )


CASES = [
    # a Python supervisor's report of its child (subprocess returncode -9 rendered by the supervisor), mid-traffic
    ("engine-killed-from-outside", served() + "supervisor: llama-server (pid 4242) killed by SIGKILL\n"),
    # a job runner's wording with the number and the name
    ("engine-killed-from-outside", served() + "[runner] llama-server terminated by signal 9 (SIGKILL)\n"),
    # a shell function's report after a kill -ABRT with nothing printed by the engine, then a refused request
    (
        "engine-killed-from-outside",
        served()
        + "# exit status: 134 (killed by SIGABRT)\n# request: POST http://127.0.0.1:8080/completion {}\n"
        + "ConnectError: [Errno 111] Connection refused\n",
    ),
    # the same path served in the journal's first start, gone at the restart (deleted; the older loader's meta line)
    (
        "llamacpp-model-file-missing",
        CMD.format(path="qwen.gguf")
        + "llama_model_loader: loaded meta data with 26 key-value pairs and 291 tensors from qwen.gguf (version GGUF V3"
        " (latest))\n0.01.200.000 I srv  llama_server: listening on http://0.0.0.0:8080\n"
        + TRAFFIC
        + "0.05.000.000 I srv    operator(): operator(): cleaning up before exit...\n"
        + refused_open("qwen.gguf"),
    ),
    # a './' path served, then the folder renamed under a router (the relative reading's context seen)
    (
        "llamacpp-model-file-missing",
        "llama-swap listening on http://0.0.0.0:8080\n"
        + served("./m/qwen.gguf")
        + "0.05.000.000 I srv    operator(): operator(): cleaning up before exit...\n"
        + refused_open("./m/qwen.gguf"),
    ),
]

NEAR_MISSES: list[tuple[str, str]] = []

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_abort_that_says_why_is_not_from_outside():
    """A SIGABRT below std::terminate's or assert()'s own words is the engine's abort, not an outsider's signal."""
    for why in (
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  failed to parse grammar\n",
        "llama-server: ggml.c:1234: ggml_new_tensor_impl: Assertion `n_dims >= 1' failed.\n",
    ):
        top = top_cause(run(served() + why + "# exit status: 134 (killed by signal SIGABRT)\n"))
        assert top is None or top.id != "engine-killed-from-outside" or top.role != "cause", (
            top and top.id,
            why,
        )


def test_a_sigterm_report_is_no_kill_from_outside():
    """'killed by signal SIGTERM' is an asked-for stop, not this entry's; SIGKILL by systemd's own timeout neither."""
    top = top_cause(run(served() + "# exit status: 143 (killed by signal SIGTERM)\n"))
    assert top is None or top.id != "engine-killed-from-outside", top.id


def test_a_relative_path_never_served_stays_the_relative_reading():
    """A bare relative path that did not open at the first start (no earlier start served it) keeps its own entry."""
    top = top_cause(run(refused_open("qwen.gguf")))
    assert top is not None and top.id == "llamacpp-relative-model-path", top and top.id


def test_another_path_served_before_keeps_the_relative_reading():
    """An earlier start that served ANOTHER file says nothing about this path."""
    log = (
        served("models/small.gguf")
        + "0.05.000.000 I srv    operator(): operator(): cleaning up before exit...\n"
        + refused_open("models/big.gguf")
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "llamacpp-relative-model-path", top and top.id
