"""What the measured batch fresh-482 (real vLLM 0.26.0 on an H100, engine arguments at random, round 4) taught.

- lora-target-modules-match-nothing (new): --lora-target-modules is a list of module-name suffixes that vLLM's
  lora/utils.py is_in_target_modules compares literally (a packed parent's children too: q_proj selects qkv_proj).
  A list that names no module of the model (PEFT's 'all-linear', a typo such as q_porj, a comma-joined list, which
  argparse's nargs '+' keeps as ONE value) wraps no layer, silently; the start then dies in the memory profile's
  dummy LoRA run, where lora/model_manager.py _create_merged_loras_inplace's
  `first_lora: LoRALayerWeights = next(iter(lora_model.loras.values()))` raises StopIteration ('RuntimeError:
  generator raised StopIteration'; 0.26's line 817, 0.32's line 915, the same code). Confident only where the log shows
  the flag (vLLM's args line, the command, or a script's lora_target_modules=[...]); the bare StopIteration there
  without it is a hint below 0.70.

The logs below are written from 0.26's and 0.32's source (frames, line numbers, the args line's form), with other
models, values and prefixes than fresh-482's log.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

FAMILY = "lora-target-modules-match-nothing"


def _warmup_traceback(prefix: str, line: int) -> str:
    """The engine core's traceback through the dummy LoRA warm-up, as vLLM prints it (0.32's frames by default)."""
    frames = [
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.11/site-packages/vllm/v1/worker/lora_model_runner_mixin.py", line 134, '
        "in maybe_setup_dummy_loras",
        "    self.lora_manager.add_dummy_lora(lr, rank=lora_warmup_rank)",
        '  File "/usr/local/lib/python3.11/site-packages/vllm/lora/worker_manager.py", line 187, in add_dummy_lora',
        "    return self._adapter_manager.add_adapter(dummy_lora)",
        '  File "/usr/local/lib/python3.11/site-packages/vllm/lora/model_manager.py", line 414, in _add_adapter',
        "    self._create_merged_loras_inplace(lora)",
        f'  File "/usr/local/lib/python3.11/site-packages/vllm/lora/model_manager.py", line {line}, '
        "in _create_merged_loras_inplace",
        "    first_lora: LoRALayerWeights = next(iter(lora_model.loras.values()))",
        "StopIteration",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.11/site-packages/vllm/v1/worker/lora_model_runner_mixin.py", line 269, '
        "in maybe_dummy_run_with_lora",
        "    with (",
        '  File "/usr/lib/python3.11/contextlib.py", line 137, in __enter__',
        "    return next(self.gen)",
        "RuntimeError: generator raised StopIteration",
    ]
    return "".join(f"{prefix}{f}\n" for f in frames)


CORE = "(EngineCore_DP0 pid=4410) ERROR 03-02 10:11:12 [core.py:1024] "
API = "(APIServer pid=4321) "
DIED = (
    f"{API}RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
)

# 0.32's args line: a typo in every name
TYPO_ARGS = (
    f"{API}INFO 03-02 10:09:40 [utils.py:253] non-default args: {{'model': 'meta-llama/Llama-3.2-1B-Instruct', "
    "'enable_lora': True, 'max_loras': 2, 'lora_target_modules': ['q_porj', 'v_porj']}\n"
    + _warmup_traceback(CORE, 915)
    + DIED
)

# a pasted command alone (no args line), the list comma-joined: one value
COMMA_COMMAND = (
    "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --enable-lora --lora-target-modules=q_proj,k_proj,v_proj,o_proj "
    "--max-lora-rank 16\n" + _warmup_traceback("", 817) + DIED
)

# an offline script's LLM(...) with PEFT's keyword, as the traceback's echo of the script shows it
SCRIPT_ALL_LINEAR = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/offline.py", line 5, in <module>\n'
    '    llm = LLM("google/gemma-3-1b-it", enable_lora=True, lora_target_modules=["all-linear"])\n'
    + _warmup_traceback("", 915)
)

# the flag given, but the warm-up failed otherwise (a neighbouring StopIteration, not the LoRA's)
OTHER_STOPITERATION = (
    "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --enable-lora --lora-target-modules q_proj v_proj\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.11/site-packages/vllm/model_executor/models/utils.py", line 88, in first_param\n'
    "    param = next(iter(module.parameters()))\n"
    "StopIteration\n"
)

# the flag with names that exist: the server came up
HEALTHY = (
    f"{API}INFO 03-02 10:09:40 [utils.py:253] non-default args: {{'model': 'Qwen/Qwen2.5-0.5B-Instruct', "
    "'enable_lora': True, 'lora_target_modules': ['q_proj', 'v_proj']}\n"
    f"{API}INFO 03-02 10:11:40 [api_server.py:1351] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
    f"{API}INFO:     Application startup complete.\n"
)

# the neighbouring family: an adapter whose own target_modules vLLM does not support
ADAPTER_TARGETS = (
    "$ vllm serve meta-llama/Llama-3.2-1B-Instruct --enable-lora --lora-target-modules q_proj v_proj "
    "--lora-modules sql=/adapters/sql\n"
    "ValueError: While loading /adapters/sql, expected target modules in ['q_proj', 'v_proj'] but received "
    "['lm_head']. Please verify that the loaded LoRA module is correct\n"
)

# the bare StopIteration at the warm-up with no --lora-target-modules in view: only a hint
BARE = "$ vllm serve my-org/odd-model --enable-lora\n" + _warmup_traceback("", 915) + DIED


@pytest.mark.parametrize(
    ("log", "words"),
    [
        pytest.param(TYPO_ARGS, ("q_porj", "q_proj k_proj v_proj"), id="typo-args-line-0.32"),
        pytest.param(
            COMMA_COMMAND, ("q_proj,k_proj,v_proj,o_proj", "space-separated"), id="comma-command-0.26"
        ),
        pytest.param(SCRIPT_ALL_LINEAR, ("PEFT", "drop the flag"), id="all-linear-script"),
    ],
)
def test_names_the_cause(log, words):
    top = top_cause(run(log))
    assert top is not None and top.id == FAMILY and top.confidence >= 0.7, (top and top.id, log)
    text = f"{top.cause} {top.fix}"
    assert all(w in text for w in words), text


def test_bare_warmup_stopiteration_is_only_a_hint():
    top = top_cause(run(BARE))
    assert top is not None and top.id == FAMILY and top.confidence < 0.7, (
        top and top.id,
        top and top.confidence,
    )
    assert "--lora-target-modules" in top.cause


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(OTHER_STOPITERATION, id="other-stopiteration"),
        pytest.param(HEALTHY, id="healthy"),
        pytest.param(ADAPTER_TARGETS, id="adapter-targets-unsupported"),
    ],
)
def test_near_miss_is_not_it(log):
    top = top_cause(run(log))
    assert top is None or top.id != FAMILY, (top.id, top.confidence, log)


def test_adapter_targets_stays_its_own_family():
    top = top_cause(run(ADAPTER_TARGETS))
    assert top is not None and top.id == "lora-target-modules-unsupported", top and top.id
