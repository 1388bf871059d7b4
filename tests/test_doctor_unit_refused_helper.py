"""A refused helper unit (a .socket, .timer, .path) does not stop the engine's .service from starting by itself, so the
engine's own fatal error below it is not behind the refusal (fresh-353: a refused Accept=yes socket above llama-server's
quantized-V-cache refusal); a refused .service still puts its systemd cause first (fresh-341). Wordings: systemd 252's
'Unit %s has a bad unit file setting.' and 'Unit configuration has fatal error, unit will not be started.', llama.cpp
b11434's llama_init_from_model refusal, vLLM 0.32's argparse error."""

from __future__ import annotations

from tests.doctor_text import assert_named

ENGINE = (
    "$ llama-server -m /models/tiny.gguf -ctv q8_0 -fa off --port 8080\n"
    "0.00.042.960 E llama_init_from_model: quantized V cache requires flash_attn to be enabled\n"
    "0.00.044.900 E common_init_from_params: failed to create context with model '/models/tiny.gguf'\n"
    "# exit: 1\n"
)


def test_a_refused_socket_leaves_the_engines_fatal_error_first():
    log = (
        "$ systemd-analyze verify llama-server.socket llama-server.service\n"
        "llama-server.socket: Explicit service configuration for accepting socket units not supported. Refusing.\n"
        "Unit llama-server.socket has a bad unit file setting.\n"
        "# exit: 1\n" + ENGINE
    )
    assert_named("llamacpp-v-cache-quant-needs-flash-attn", log)


def test_a_refused_service_puts_its_setting_first():
    log = (
        "$ systemd-analyze verify vllm.service\n"
        "vllm.service: Failed to resolve unit specifiers in 'serve --port %5': Invalid slot\n"
        "vllm.service: Unit configuration has fatal error, unit will not be started.\n"
        "Unit vllm.service has a bad unit file setting.\n"
        "# exit: 1\n"
        "$ vllm serve /models/tiny --kv-cache-dtype fp9\n"
        "vllm serve: error: argument --kv-cache-dtype: invalid choice: 'fp9' (choose from 'auto', 'fp8')\n"
        "# exit: 2\n"
    )
    assert_named("systemd-bad-value", log)
