"""Request-time refusals of a healthy server (issue 12, fresh-7/fresh-8's request families), from the engines'
own texts: vLLM 0.32's serving/renderer/sampling-params/structured-output messages, llama-server's error bodies
(validate_operation_support, send_error, common/jinja's raise_exception, json-schema-to-grammar), llama-swap's
proxymanager. Synthetic lines with other values, prefixes and quoting than the corpus logs: as a server log line,
as a client's JSON body (raw and JSON-escaped), as a Python client's repr. A refusal is request-level: doctor
names it and exits 0; an engine that died of something else still comes first."""

from __future__ import annotations

import io

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream

API = "(APIServer pid=931) "
LLAMA = "0.03.114.201 E srv    send_error: task id = 7, error: "


def body(message: str, code: int = 400, kind: str = "invalid_request_error") -> str:
    """llama-server's / vLLM's OpenAI-shaped error body, as a client prints it."""
    escaped = message.replace("\\", "\\\\").replace('"', '\\"')
    return f'HTTP {code} {{"error":{{"code":{code},"message":"{escaped}","type":"{kind}"}}}}\n'


def run(log: str):
    return triage_stream(io.BytesIO(log.encode()), "synthetic.log")


CASES = [
    ("model-name-not-served", body("The model `llama3:8b` does not exist.", 404, "NotFoundError")),
    (
        "model-name-not-served",
        API + "ERROR 12-03 11:00:02 [serving.py:274] Error with model error=ErrorInfo(message='The model "
        "`Qwen/Qwen3-8B` does not exist. Valid aliases: qwen3.', type='NotFoundError', param='model', code=404)\n",
    ),
    (
        "model-name-not-served",
        '[INFO] Request 10.0.0.4 "POST /v1/chat/completions HTTP/1.1" 400 64\n'
        "client: 400 could not find suitable inference handler for gpt-4o-mini\n",
    ),
    (
        "request-longer-than-context",
        body(
            "max_completion_tokens=32768 cannot be greater than max_model_len=8192. Please request fewer output tokens."
        ),
    ),
    (
        "request-longer-than-context",
        LLAMA + "request (9120 tokens) exceeds the available context size (4096 tokens), try increasing it\n",
    ),
    (
        "request-longer-than-context",
        body("the request exceeds the available context size, try increasing it"),
    ),
    (
        "request-longer-than-context",
        "WARNING 03-12 10:00:00 scheduler.py:683] Input prompt (5120 tokens) is too long and exceeds limit of 4096\n",
    ),
    (
        "request-longer-than-context",
        body("Input length (9001) exceeds model's maximum context length (8192)."),
    ),
    (
        "request-longer-than-context",
        body("The engine prompt length 40960 exceeds the max_model_len 32768. Please reduce prompt."),
    ),
    (
        "request-logprobs-above-max",
        body("Requested prompt logprobs of 40, which is greater than max allowed: 20"),
    ),
    (
        "structured-output-schema-unsupported",
        body('Grammar error: Unimplemented keys: ["patternProperties"]'),
    ),
    (
        "request-json-schema-invalid",
        body("Failed to transform json schema into a grammar: Unsupported type 'tuple'"),
    ),
    ("request-json-schema-invalid", body("JSON schema error at #/items: cannot resolve $ref #/$defs/Row")),
    (  # a valid schema the backend cannot compile is its own family (fresh-9: vllm#17845)
        "structured-output-schema-unsupported",
        body("The provided JSON schema contains features not supported by xgrammar."),
    ),
    ("request-grammar-invalid", body("Invalid grammar specification.")),
    ("request-grammar-invalid", 'parse: error parsing grammar: expecting name at ::= "a"\n'),
    (
        "llamacpp-endpoint-needs-flag",
        body("This server does not support embeddings. Start it with `--embeddings`", 501),
    ),
    (
        "llamacpp-endpoint-needs-flag",
        body("This server does not support slots action. Start it with `--slot-save-path`", 501),
    ),
    ("model-lacks-fim-tokens", body("Infill is not supported by this model: middle token is missing. ", 501)),
    ("llamacpp-tools-need-jinja", body("tool_choice param requires --jinja flag", 500, "server_error")),
    (
        "llamacpp-tools-need-jinja",
        "openai.InternalServerError: Error code: 500 - {'error': {'message': 'tools param requires --jinja flag'}}\n",
    ),
    (
        "tool-choice-needs-parser",
        body('"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'),
    ),
    ("tool-choice-needs-parser", body('tool_choice="required" requires --tool-call-parser to be set')),
    (
        "chat-template-rejects-request",
        API
        + "WARNING 12-03 11:00:00 [hf.py:839] Chat template rejected the request: reasoning_effort must be one of low, medium, high\n",
    ),
    (
        "chat-template-rejects-request",
        body("Jinja Exception: Only user, assistant and tool roles are supported!", 500, "server_error"),
    ),
    (
        "chat-template-rejects-request",
        "jinja2.exceptions.TemplateError: After the optional system message, conversation roles must alternate user/assistant/user/assistant/...\n",
    ),
    (
        "embeddings-need-pooling",
        body("Pooling type 'none' is not OAI compatible. Please use a different pooling type"),
    ),
    (
        "embeddings-need-pooling",
        "RuntimeError: Failed to get embeddings from sequence, pooling type is not set\n",
    ),
    (
        "bnb-prequant-no-tensor-parallel",
        "[rank0]: ValueError: Prequant BitsAndBytes models with tensor parallelism is not supported. Please try with pipeline parallelism.\n",
    ),
    (
        "gguf-no-tensor-parallel",
        "ERROR 09-01 12:00:00 worker_base.py:464] ValueError: GGUF quantization hasn't supported tensor parallelism yet.\n",
    ),
    (
        "spec-method-unsupported-in-version",
        API
        + "NotImplementedError: Speculative decoding with draft model is not supported yet. Please consider using other methods.\n",
    ),
    ("request-refused", body("unsupported value for reasoning_effort: extreme")),
    ("request-sampling-param-out-of-range", body("temperature must be non-negative, got -0.5.")),
    (
        "request-refused",
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"'messages' must contain the word 'json'\", "
        "'type': 'BadRequestError', 'param': None, 'code': 400}\n",
    ),
]


@pytest.mark.parametrize(("expected", "log"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_refusal_is_named_from_the_engines_own_wording(expected, log):
    r = run(log)
    ids = [d.id for d in r.diagnoses if d.role in ("cause", "symptom")]
    assert ids and ids[0] == expected, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert "?" not in r.diagnoses[0].cause, r.diagnoses[0].cause
    request_level = r.diagnoses[0].category == "requests"
    assert r.fatal is not request_level, (
        "a refused request leaves the server running; a start-up refusal does not"
    )


def test_a_refused_request_exits_0(run_cli, tmp_path):
    log = tmp_path / "client.log"
    log.write_text(
        body("max_tokens=9000 cannot be greater than max_model_len=4096. Please request fewer output tokens.")
    )
    result = run_cli("doctor", "--log", log, "--json")
    top = result.json()["triage"]["diagnoses"][0]
    assert result.code == 0 and top["id"] == "request-longer-than-context" and top["fatal"] is False


def test_an_engine_death_outranks_an_earlier_refusal_and_does_not_compete_with_it():
    log = (
        body("The model `gpt-4` does not exist.", 404, "NotFoundError")
        + "(EngineCore_DP0 pid=77) ERROR 12-03 11:00:09 [core.py:1510] torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.54 GiB of which 1.02 GiB is free.\n"
    )
    r = run(log)
    assert r.diagnoses[0].category != "requests" and r.fatal
    assert r.verdict != "competing causes"
    assert "model-name-not-served" in [d.id for d in r.diagnoses]


def test_the_generic_refusal_steps_aside_for_a_known_one_and_claims_no_5xx():
    known = run(body("Requested sample logprobs of 30, which is greater than max allowed: 5"))
    assert [d.id for d in known.diagnoses] == ["request-logprobs-above-max"]
    unknown = run(body("temperature must be non-negative", 400))
    assert unknown.diagnoses[0].id == "request-refused" and unknown.diagnoses[0].confidence < CONFIDENT
    assert "temperature must be non-negative" in unknown.diagnoses[0].cause
    server_error = run(
        body(
            "EngineCore encountered an issue. See stack trace for the root cause.", 500, "InternalServerError"
        )
    )
    assert "request-refused" not in [d.id for d in server_error.diagnoses]


def test_a_template_broken_at_start_up_is_not_a_refused_request():
    log = (
        "0.00.120.000 E common_chat_templates_init: failed to initialize chat template\n"
        "0.00.120.001 E Jinja Exception: Conversation roles must alternate user/assistant/user/assistant/...\n"
    )
    r = run(log)
    assert r.diagnoses[0].id == "chat-template-invalid"
    assert [d.role for d in r.diagnoses if d.id == "chat-template-rejects-request"] == ["symptom"]


def test_a_traceback_cut_at_validate_legal_suggests_the_rank_without_claiming_it():
    frame = "(EngineCore pid=86) ERROR 06-01 13:18:12 [core.py:1341]     peft_helper.validate_legal(self.lora_config)\n"
    r = run(frame)
    assert r.diagnoses[0].id == "lora-rank-too-large" and r.diagnoses[0].confidence < CONFIDENT
    full = run(
        frame + "(EngineCore pid=86) ERROR ValueError: LoRA rank 128 is greater than max_lora_rank 64.\n"
    )
    assert full.diagnoses[0].confidence >= CONFIDENT and "128" in full.diagnoses[0].cause


def test_an_access_log_refusal_alone_is_a_symptom_not_a_failure():
    log = (
        'INFO:     10.1.2.3:40112 - "GET /health HTTP/1.1" 200 OK\n'
        'INFO:     10.1.2.3:40114 - "GET /favicon.ico HTTP/1.1" 404 Not Found\n'
        'INFO:     10.1.2.3:40118 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n'
    )
    r = run(log)
    assert [d.id for d in r.diagnoses] == ["request-refused-no-reason"]
    assert r.verdict == "symptoms only" and not r.fatal and "/v1/completions" in r.diagnoses[0].cause
    assert run('INFO:     10.1.2.3:40118 - "POST /v1/completions HTTP/1.1" 200 OK\n').diagnoses == []


SWAP = "[INFO] llama-swap listening on http://0.0.0.0:8080\n"


def test_an_upstream_on_the_routers_own_port_is_named_from_both_lines():
    listening = SWAP + "0.00.021.310 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    assert run(listening).diagnoses[0].id == "router-upstream-same-port"
    # on Linux the upstream cannot bind: the same cause, over the bare bind failure it explains
    bind = (
        SWAP
        + "0.00.014.866 E srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080\n"
    )
    r = run(bind)
    assert [d.id for d in r.diagnoses] == ["router-upstream-same-port"] and r.fatal
    vllm = (
        "llama-swap listening on :9000\n"
        + "(APIServer pid=5) INFO 12-03 10:00:00 [api_server.py:1] Starting vLLM API server 0 on http://0.0.0.0:9000\n"
    )
    assert run(vllm).diagnoses[0].id == "router-upstream-same-port"


def test_an_upstream_on_its_own_port_or_without_a_router_is_no_conflict():
    assert (
        run(SWAP + "0.00.021.310 I srv  llama_server: listening on http://127.0.0.1:5801\n").diagnoses == []
    )
    assert run("0.00.021.310 I srv  llama_server: listening on http://127.0.0.1:8080\n").diagnoses == []
    bind = (
        SWAP
        + "0.00.014.866 E srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 5801\n"
    )
    assert run(bind).diagnoses[0].id == "llamacpp-bind-failed"
