"""fresh-354: an unseen made-here batch, llama-server (the real b11434): CHAT TEMPLATES, TOOLS AND REASONING ON
LLAMA-SERVER, NEW DRAW, round 2. The condition space fresh-266 defined (tools/doctor_corpus_fresh266.py: a template
source -- GGUF tokenizer.chat_template / .tool_use, --chat-template, --chat-template-file, --jinja / --no-jinja --
crossed with a second setting; 12 conditions, 35 value classes), its CONDITIONS and CASES imported UNCHANGED, drawn
anew with another seed and without the (condition, value class) pairs fresh-266 already made.

Read: common.md and batch.md of stop 43; tools/doctor_corpus_fresh266.py (docstring, CONDITIONS, CASES, make) and its
draw (tools/doctor_corpus_fresh266_draw.txt); tools/doctor_corpus_fresh304.py (the re-draw style followed here);
tools/corpus_tools.py (draw_distinct_conditions, serve_and_ask, gguf_edited, tiny_gguf); the manifest's batch headers.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs. Doctor
is never run on these logs.

Procedure (fixed here and committed, with its --draws output, before any case ran): the stream of
corpus_tools.draw_distinct_conditions(2354, CONDITIONS, N): r = random.Random(2354); repeat until N = 10 kept:
  condition = r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[condition]);
  the pair is skipped (and listed, with its reason, by --draws) if fresh-266 already made it (a kept pair of fresh-266's
  own draws(), i.e. its *_draw.txt "draw N" lines), else if its condition was kept before in this draw
  (draw_distinct_conditions' own rule: conditions distinct); otherwise it is kept. Nothing is redrawn afterwards; a case
  that could not be made is said so in the manifest header, not replaced.
Realisation: each kept pair is fresh-266's own Case for it (its concrete template, flags, GGUF keys, environment and
requests, as fresh-266 wrote them before its run), with its id's prefix fresh266- turned to fresh354-; run by fresh-266's
make() unchanged, with its module globals WORK/RUN/PORT pointed at this batch's /tmp/fresh354 and port 25325: the real
llama-server (.llama-cpp/bin/llama-server) -m the tiny GGUF (or a copy with the case's template keys) --host 127.0.0.1
--port 25325 -c 512 plus the case's flags, in /tmp/fresh354/run/ID, through corpus_tools.serve_and_ask (start bound
120 s), one server at a time, its process group killed after. Log = `$ export ...` for the case's environment, `$ ` and
the command, the server's whole stdout+stderr, per request `# request: ...` with the status line and first 1000 bytes.
Files tests/fixtures/doctor-corpus/fresh354-llama-<slug>.log. Ports 25325-25349 (only 25325 used).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh354.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh266 as f266  # noqa: E402
from corpus_tools import tiny_gguf  # noqa: E402

SEED, N = 2354, 10
CONDITIONS = f266.CONDITIONS
CASES = f266.CASES
WORK = Path("/tmp/fresh354")
PORT = 25325
OUT = f266.OUT


def draw():
    """The kept (condition, value class) pairs and every skipped draw with its reason."""
    made = set(f266.draws()[0])
    r = random.Random(SEED)
    kept: list[tuple[str, str]] = []
    skipped: list[tuple[str, str, str]] = []
    while len(kept) < N:
        condition = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[condition])
        if (condition, value) in made:
            skipped.append((condition, value, "made by fresh-266 already"))
        elif any(condition == c for c, _ in kept):
            skipped.append((condition, value, "condition drawn before"))
        else:
            kept.append((condition, value))
    return kept, skipped


def case(condition: str, value: str) -> f266.Case:
    c = CASES[(condition, value)]
    return dataclasses.replace(c, id=c.id.replace("fresh266-", "fresh354-", 1))


def main() -> None:
    kept, skipped = draw()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes (fresh-266's, unchanged); seed {SEED}, N {N}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {case(cond, value).id}: {cond} | {value}")
        for cond, value, why in skipped:
            print(f"skipped ({why}): {cond} | {value}")
        return
    f266.WORK, f266.RUN, f266.PORT = WORK, WORK / "run", PORT
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    for cond, value in kept:
        c = case(cond, value)
        if wanted and c.id not in wanted:
            continue
        text = f266.make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
