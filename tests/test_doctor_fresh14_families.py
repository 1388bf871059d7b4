"""Families learnt from the unseen batch fresh-14: what its misses and confident-wrong answers taught.

Short lines written from the programs' own message texts (systemd's conf-parser, llama.cpp b11434's server and
preset parser, asyncio's and Go's bind errors, vLLM 0.32's connector factory and envs, transformers 4.x, openai-
harmony), with paths, ports and names unlike the corpus logs. The negative cases pin what each family must NOT
claim: a bind failure on a port >= 1024, a missing (not unreadable) GGUF, a preset that cannot be opened, a literal
error inside a config's traceback, a healthy start.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run


def top(text: str):
    result = run(text)
    return result.diagnoses[0] if result.diagnoses else None


def test_a_line_without_equals_is_a_broken_continuation_not_a_bad_value():
    d = top("/etc/systemd/system/llama-7b.service:23: Missing '=', ignoring line.\n")
    assert d.id == "systemd-line-continuation-broken" and d.confidence >= CONFIDENT
    assert "Line 23 of /etc/systemd/system/llama-7b.service" in d.cause and "backslash" in d.cause
    # systemd before 240 said only "Missing '='."
    old = top("[/run/systemd/system/x.service:4] Missing '='.\n")
    assert (
        old.id == "systemd-line-continuation-broken"
        and "Line 4 of /run/systemd/system/x.service" in old.cause
    )
    # a value systemd cannot use is still systemd-bad-value, beside the broken line
    both = run(
        "/run/u/a.service:3: Invalid memory limit 'lotsG', ignoring: Invalid argument\n"
        "/run/u/a.service:9: Missing '=', ignoring line.\n"
    )
    assert {d.id for d in both.diagnoses} >= {"systemd-bad-value", "systemd-line-continuation-broken"}


def test_an_unreadable_gguf_is_a_permission_not_a_missing_file():
    line = "E gguf_init_from_file: failed to open GGUF file '/var/lib/models/mistral-q5.gguf' (Permission denied)\n"
    after = "E llama_model_load: error loading model: llama_model_loader: failed to load model from /var/lib/models/mistral-q5.gguf\n"
    d = top(line + after)
    assert d.id == "path-permission-denied" and "/var/lib/models/mistral-q5.gguf" in d.cause
    missing = "E gguf_init_from_file: failed to open GGUF file '/var/lib/models/mistral-q5.gguf' (No such file or directory)\n"
    assert top(missing + after).id == "llamacpp-model-file-missing"


@pytest.mark.parametrize(
    "line, port",
    [
        ("E srv         start: couldn't bind HTTP server socket, hostname: 10.0.0.5, port: 443\n", "443"),
        ("E srv         start: couldn't bind HTTP server socket, hostname: ::, port: 1023\n", "1023"),
        (
            "ERROR:    [Errno 13] error while attempting to bind on address ('0.0.0.0', 81): permission denied\n",
            "81",
        ),
        (
            "ERROR:    [Errno 13] error while attempting to bind on address ('::', 443, 0, 0): permission denied\n",
            "443",
        ),
        ("Error: listen tcp 0.0.0.0:80: bind: permission denied\n", "80"),
    ],
)
def test_a_privileged_port_is_its_own_family(line, port):
    d = top(line)
    assert d.id == "privileged-port-without-capability" and d.confidence >= CONFIDENT
    assert f"port {port}" in d.cause and "CAP_NET_BIND_SERVICE" in d.fix


def test_a_bind_failure_on_an_unprivileged_port_stays_what_it_was():
    llama = "E srv         start: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 1024\n"
    assert top(llama).id == "llamacpp-bind-failed"
    uvicorn = "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8443): address already in use\n"
    assert top(uvicorn).id == "port-in-use"


def test_a_healthy_start_on_a_low_port_names_nothing():
    healthy = (
        "I srv  llama_server: initializing ...\n"
        "I main: HTTP server is listening, hostname: 0.0.0.0, port: 80, http threads: 7\n"
        "I srv  update_slots: all slots are idle\n"
    )
    result = run(healthy)
    assert not result.fatal
    assert all(d.role != "cause" for d in result.diagnoses)


def test_a_preset_that_does_not_parse_is_not_an_unreadable_file():
    d = top(
        "E srv  llama_server: failed to initialize router models: failed to parse server config file: /opt/l/p.ini\n"
    )
    assert d.id == "llamacpp-models-preset-unparsable" and "/opt/l/p.ini" in d.cause
    unopened = "E srv  llama_server: failed to initialize router models: failed to open server preset file: /opt/l/p.ini\n"
    assert top(unopened).id == "llamacpp-arg-file-unreadable"


def test_an_unknown_kv_connector_is_named_over_the_validation_error():
    log = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, Unsupported connector type: MooncakeConnectorV0 [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
    )
    d = top(log)
    assert d.id == "kv-connector-unknown" and "MooncakeConnectorV0" in d.cause and d.confidence >= CONFIDENT


def test_a_literal_error_under_argparse_is_an_invalid_choice_with_value_and_choices():
    log = (
        "api_server.py: error: argument --structured-outputs-config: 1 validation error for StructuredOutputsConfig\n"
        "backend\n"
        "  Input should be 'none', 'eager' or 'max' [type=literal_error, input_value='fast', input_type=str]\n"
    )
    d = top(log)
    assert d.id == "cli-invalid-choice" and "'fast'" in d.cause and "'none', 'eager' or 'max'" in d.fix
    # after34p: under CompilationConfig's header the -cc key's family answers, quoting pydantic's reason
    cc = top(
        log.replace("structured-outputs-config", "compilation-config").replace(
            "StructuredOutputs", "Compilation"
        )
    )
    assert cc.id == "compilation-config-invalid" and "CompilationConfig" in cc.cause
    # the same error raised inside SpeculativeConfig's traceback (no argparse line) is spec-config-invalid's (after37e,
    # s37: its header is that family's, any reason); another dict-built config's stays config-validation-error
    traceback = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig\n"
        "method\n"
        "  Input should be 'ngram' or 'eagle' [type=literal_error, input_value='oracle', input_type=str]\n"
    )
    assert top(traceback).id == "spec-config-invalid"
    assert top(traceback.replace("SpeculativeConfig", "KVEventsConfig")).id == "config-validation-error"


def test_lora_modules_without_a_path_is_an_invalid_value():
    d = top("api_server.py: error: Invalid JSON format for --lora-modules: chat-adapter\n")
    assert d.id == "cli-invalid-value" and "--lora-modules" in d.cause


def test_zmq_running_out_of_descriptors_is_too_many_open_files():
    d = top(
        "(Worker_TP1 pid=77) ERROR 01-02 03:04:05 [multiproc_executor.py:9] zmq.error.ZMQError: Too many open files\n"
    )
    assert d.id == "too-many-open-files"
    warning = (
        "WARNING [system_utils.py:255] Found ulimit of 256 and failed to automatically increase with error x. "
        "This can cause fd limit errors like `OSError: [Errno 24] Too many open files`. Consider increasing with ulimit -n\n"
    )
    assert all(d.id != "too-many-open-files" for d in run(warning).diagnoses)


def test_a_router_alias_that_clashes_with_a_model_name():
    line = "main: failed to initialize router models: alias 'fast' for model 'org/Phi-4-GGUF:Q4_K_M' conflicts with existing model name\n"
    d = top(line)
    assert d.id == "llamacpp-router-alias-conflict" and "'fast'" in d.cause
    other = "E srv  failed to initialize router models: model name 'chat' conflicts with alias of model 'org/x:Q8_0'\n"
    assert top(other).id == "llamacpp-router-alias-conflict"
    reload = "W srv  (reload) alias 'fast' for model 'a' conflicts with model 'b', skipping\n"
    assert all(d.id != "llamacpp-router-alias-conflict" for d in run(reload).diagnoses)


def test_a_transformers_5_tokenizer_read_by_transformers_4():
    log = (
        '  File "/srv/venv/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", line 1199, in _set_model_specific_special_tokens\n'
        "    self.SPECIAL_TOKENS_ATTRIBUTES = self.SPECIAL_TOKENS_ATTRIBUTES + list(special_tokens.keys())\n"
        "AttributeError: 'list' object has no attribute 'keys'\n"
    )
    d = top(log)
    assert d.id == "transformers-too-old-for-tokenizer" and d.confidence >= CONFIDENT
    # another 'list' without keys is not this family
    other = "AttributeError: 'list' object has no attribute 'keys'\n"
    assert top(other).id != "transformers-too-old-for-tokenizer"


def test_an_embedding_input_message_wrapped_over_two_lines():
    log = (
        'srv error: {"code":500,"message":"input (1333 tokens) is too large to process.\n'
        'increase the physical batch size (current batch size: 1024)","type":"server_error"}\n'
    )
    assert top(log).id == "llamacpp-ubatch-below-input"


def test_harmony_vocabulary_that_cannot_be_fetched():
    d = top("(APIServer pid=12) openai_harmony.HarmonyError: error downloading or loading vocab file\n")
    assert d.id == "harmony-vocab-download-blocked" and "TIKTOKEN_ENCODINGS_BASE" in d.fix
    d = top("HarmonyError: the env var TIKTOKEN_ENCODINGS_BASE is not set, or invalid\n")
    assert d.id == "harmony-vocab-download-blocked"


def test_vllm_port_set_by_a_kubernetes_service():
    d = top(
        "ValueError: VLLM_PORT 'tcp://10.1.2.3:9000' appears to be a URI. This may be caused by a Kubernetes "
        "service discovery issue,check the warning in: https://docs.vllm.ai/en/latest/configuration/env_vars.html\n"
    )
    assert d.id == "vllm-port-env-invalid" and "tcp://10.1.2.3:9000" in d.cause
    older = "    port = envs.VLLM_PORT\nValueError: invalid literal for int() with base 10: 'tcp://10.1.2.3:9000'\n"
    assert top(older).id == "vllm-port-env-invalid"
    unrelated = "ValueError: invalid literal for int() with base 10: 'tcp://10.1.2.3:9000'\n"
    assert top(unrelated).id != "vllm-port-env-invalid"


def test_a_template_that_fell_back_to_chatml():
    line = (
        "common_chat_templates_init: failed to parse chat template (defaulting to chatml): Expected closing "
        "statement token at row 3, column 9:\n"
    )
    assert top(line).id == "chat-template-invalid"


def test_an_empty_model_path_suggests_an_uncached_hf_repo_but_not_confidently():
    log = (
        "I srv    load_model: loading model 'bartowski/Llama-3.2-1B-Instruct-GGUF'\n"
        "E llama_model_load_from_file_impl: exactly one out metadata, path_model, and file must be defined\n"
        "E srv    load_model: failed to load model, ''\n"
    )
    d = top(log)
    assert d.id == "llamacpp-offline-cache-miss" and d.confidence < CONFIDENT
    full = "E common_download_file_single_online: required file is not available in cache (offline mode): a/b/c.gguf\n"
    d = top(full + log)
    # the offline line makes it the answer; its figure is confident unless the corpus saw these words carry another
    # cause, and then it says which (stop 35: fresh-214's '-hf REPO:FILE.gguf --offline' was a tag, not a cache miss)
    assert d.id == "llamacpp-offline-cache-miss"
    assert d.confidence >= CONFIDENT or (d.confidence_kind == "calibrated" and d.shared_with)


VLLM_BIND = (
    "(APIServer pid=311) INFO 12-03 09:12:44 [api_utils.py:286] non-default args: {'host': '127.0.0.1', 'port': 443}\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/entrypoints/launchers/launcher.py", line 398, in setup_server\n'
    "    sock = create_server_socket(sock_addr, reuse_port=reuse_port)\n"
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/entrypoints/launchers/launcher.py", line 348, in create_server_socket\n'
    "    sock.bind(addr)\n"
    "PermissionError: [Errno 13] Permission denied\n"
)


def test_vllm_binding_its_own_socket_on_a_low_port():
    """vLLM 0.32 binds the API socket itself: the bare PermissionError (the traceback of a real run as nobody with
    --port 80, values changed) is known by where it was raised, not by a wording."""
    d = top(VLLM_BIND)
    assert d.id == "privileged-port-without-capability" and d.confidence >= CONFIDENT
    elsewhere = VLLM_BIND.replace(
        "entrypoints/launchers/launcher.py", "model_executor/model_loader/weight_utils.py"
    )
    assert top(elsewhere).id != "privileged-port-without-capability"


@pytest.mark.parametrize(
    "line",
    [
        "2026/01/02 10:11:12 http: Accept error: accept tcp [::]:9292: accept4: too many open files; retrying in 5ms\n",
        "E gguf_init_from_file: failed to open GGUF file '/m/a.gguf' (Too many open files)\n",
    ],
)
def test_running_out_of_descriptors_in_go_and_c_wordings(line):
    assert top(line).id == "too-many-open-files"
