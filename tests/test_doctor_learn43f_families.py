"""What the first-contact misses of fresh-346, fresh-354 and fresh-355 taught (learn43f, s43).

- llamacpp-reasoning-off-refused-by-template (new): llama.cpp b11434's `-rea, --reasoning off` (common/arg.cpp: off,
  disabled, false, 0 set the template kwarg enable_thinking false), the deprecated --chat-template-kwargs, a request's
  chat_template_kwargs / reasoning_effort "none" (tools/server/server-common.cpp), against a template that raises on
  thinking off; vLLM's 'Error in applying chat template from request: ...' with --default-chat-template-kwargs.
- ollama-model-lacks-capability no longer reads a chat template's own 'This template/model does not support tools'.
- systemd-unit-not-found reads every unit type and systemd 252's 'Failed to create %s/start: %s' (systemd-analyze),
  'Unit %s not found, cannot analyze.' and systemctl's 'Unit %s could not be found.'.
- weights-load-oom reads `servebox plan`'s weights per rank above its card's GiB (exceeds_above).
The template raises are rendered messages (no template in b11434's models/templates raises on thinking off); the plan
outputs are `servebox plan`'s own (mixtral-8x7b-instruct on l4-24gb TP 2; qwen2.5-7b-instruct on t4-16gb; llama-3.1-70b
on a100-80gb TP 2).
"""

from __future__ import annotations

from tests.doctor_text import family_tests

LLAMA = "0.00.020.638 I srv  llama_server: listening on http://127.0.0.1:8080\n"


def llama_refusal(command: str, body: str, message: str) -> str:
    """llama-server started with `command`, one chat and its 400 (the parser generation's Jinja raise), rendered."""
    text = (
        "Unable to generate parser for this template. Automatic parser generation failed: \\n------------\\n"
        f"While executing CallExpression at line 1, column 40 in source:\\n...\\nError: Jinja Exception: {message}"
    )
    error = f'{{"error":{{"code":400,"message":"{text}","type":"invalid_request_error"}}}}'
    return (
        f"$ {command}\n{LLAMA}0.01.780.706 W srv    operator(): got exception: {error}\n"
        f"# request: POST http://127.0.0.1:8080/v1/chat/completions {body}\nHTTP/1.1 400 Bad Request\n{error}\n"
    )


CHAT = '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}'
TOOLS = (
    '{"messages": [{"role": "user", "content": "weather?"}], "tools": [{"type": "function", "function": '
    '{"name": "get_weather", "parameters": {"type": "object"}}}]}'
)

PLAN_OVER_CARD = """$ servebox plan tests/fixtures/checkpoints/mixtral-8x7b-instruct --gpu l4-24gb --tensor-parallel-size 2
tests/fixtures/checkpoints/mixtral-8x7b-instruct on l4-24gb (22.49 GiB) x TP 2 x PP 1, vLLM 0.32.0 (profile 0.32), \
utilization 0.9
vLLM will log (per rank):
  Model loading took 43.5051 GiB   [derived]
  Available KV cache memory: -24.87 GiB   [assumed]
  GPU KV cache size: 0 tokens   [derived from assumed KV memory]
does not fit
ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the \
engine.
# exit: 1
"""

CASES = [
    # --reasoning off (the long flag), another raise wording (rendered)
    (
        "llamacpp-reasoning-off-refused-by-template",
        llama_refusal(
            "llama-server -m /srv/models/thinker.gguf --port 8080 --reasoning off",
            CHAT,
            "Reasoning cannot be turned off for this model",
        ),
    ),
    # thinking off per request: chat_template_kwargs enable_thinking false (server-common.cpp), rendered
    (
        "llamacpp-reasoning-off-refused-by-template",
        llama_refusal(
            "llama-server -m /srv/models/thinker.gguf --port 8080",
            '{"messages": [{"role": "user", "content": "hi"}], "chat_template_kwargs": {"enable_thinking": false}}',
            "This model requires thinking mode",
        ),
    ),
    # reasoning_effort "none" ('"none" disables reasoning'), rendered
    (
        "llamacpp-reasoning-off-refused-by-template",
        llama_refusal(
            "llama-server -m /srv/models/thinker.gguf --port 8080",
            '{"messages": [{"role": "user", "content": "hi"}], "reasoning_effort": "none"}',
            "This template does not support disabling thinking",
        ),
    ),
    # vLLM with --default-chat-template-kwargs: its chat-template error, rendered
    (
        "llamacpp-reasoning-off-refused-by-template",
        "$ vllm serve deepseek-ai/DeepSeek-V3.2 --default-chat-template-kwargs '{\"enable_thinking\": false}'\n"
        "(APIServer pid=41) INFO:     Application startup complete.\n"
        '{"object":"error","message":"Error in applying chat template from request: Thinking mode is required '
        'for this model","type":"BadRequestError","param":null,"code":400}\n',
    ),
    # a template's own tools raise on llama-server: the template's refusal, not Ollama's (rendered)
    (
        "chat-template-rejects-request",
        llama_refusal(
            "llama-server -m /srv/models/plain.gguf --port 8080", TOOLS, "This model does not support tools"
        ),
    ),
    # systemd-analyze verify on a unit that Wants= a misspelled timer (the core's bus error, rendered)
    (
        "systemd-unit-not-found",
        "$ systemd-analyze verify /etc/systemd/system/llama-server.service\n"
        "llama-server.service: Failed to create llama-server.service/start: Unit model-sync.timer not found.\n"
        "# exit: 1\n",
    ),
    # systemctl status on a mount unit named without escaping (rendered)
    (
        "systemd-unit-not-found",
        "$ systemctl status srv-llm-models.mount\nUnit srv-llm-models.mount could not be found.\n",
    ),
    # servebox plan: weights per rank (43.5 GiB) over an L4's 22.49 GiB even at TP 2
    ("weights-load-oom", PLAN_OVER_CARD),
]

NEAR_MISSES = [
    # the same thinking raise with no reasoning-off setting in the log: the template's refusal (chat-template-rejects-
    # request answers), not the flag's
    (
        "llamacpp-reasoning-off-refused-by-template",
        llama_refusal(
            "llama-server -m /srv/models/thinker.gguf --port 8080 -rea on",
            CHAT,
            "Thinking cannot be disabled for this model",
        ),
    ),
    # -rea off with a template that refuses something else (roles): not the reasoning setting's
    (
        "llamacpp-reasoning-off-refused-by-template",
        llama_refusal(
            "llama-server -m /srv/models/thinker.gguf --port 8080 -rea off",
            CHAT,
            "Conversation roles must alternate user/assistant/user/assistant/...",
        ),
    ),
    # a template's raise naming no model: not Ollama's capability check
    (
        "ollama-model-lacks-capability",
        llama_refusal(
            "llama-server -m /srv/models/plain.gguf --port 8080",
            TOOLS,
            "This template does not support tools",
        ),
    ),
    # servebox plan with the weights (14.25 GiB) inside the card (15.0 GiB) but over the 0.9 budget: the KV cache's
    (
        "weights-load-oom",
        "$ servebox plan tests/fixtures/checkpoints/qwen2.5-7b-instruct --gpu t4-16gb\n"
        "tests/fixtures/checkpoints/qwen2.5-7b-instruct on t4-16gb (15.0 GiB) x TP 1 x PP 1, vLLM 0.32.0 (profile 0.32), "
        "utilization 0.9\nvLLM will log (per rank):\n  Model loading took 14.2487 GiB   [derived]\n"
        "  Available KV cache memory: -2.32 GiB   [assumed]\ndoes not fit\nValueError: No available memory for the "
        "cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n# exit: 1\n",
    ),
    # a real vLLM start's own 'Model loading took' line (no plan header above it): loading went fine
    (
        "weights-load-oom",
        "(EngineCore_DP0 pid=77) INFO 12-06 09:00:00 [gpu_model_runner.py:2600] Model loading took 131.4478 GiB and "
        "60.1 seconds\n(APIServer pid=41) INFO:     Application startup complete.\n",
    ),
    # systemd's debug line about an alias it drops: nothing refused
    (
        "systemd-unit-not-found",
        "systemd[1]: Unit models.mount not found, removing name.\nsystemd[1]: Started llama-server.service.\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
