r"""fresh-513: llama-server run as a service, round 3 (rounds 1-2: fresh-481, fresh-496) -- API keys, TLS, unix sockets,
--api-prefix / --path, LLAMA_ARG_* variables, logging, as an operator sets them -- on the real llama-server b11434
(.llama-cpp/bin, CPU-only build without SSL) with corpus_tools.tiny_gguf's GGUF made in /tmp/fresh513 (sha256
0647b7d8a284e419..., the same bytes fresh-481 and fresh-496 used).
fresh-496's procedure (itself fresh-481's) repeated with SEED 2513, N = 10, ports 27100-27109 (draw N on 27100+N-1),
work dir /tmp/fresh513 (cases in /tmp/fresh513/run/dN). IMPORTED, not copied (batch.md step 2): fresh-481's CONDITIONS
(14 conditions, 39 value classes), _chat, CHAT_BODY and run_case (through fresh-496's run_case wrapper); fresh-496's
ALREADY and draws() (for its own 10 draws). Written here only: SEED, N, ports, work dir, the already-made set
(fresh-496's ALREADY, i.e. fresh-481's 10 draws, plus fresh-496's own 10 draws, recomputed through its draws()), the
case makers of this draw, EXPECT, RUN_ORDER. Pool: corpus_tools.pool_after(CONDITIONS, ALREADY) = 19 pairs over all 14
conditions, enough for 10 distinct conditions, so no NEW class was added. The draw:
corpus_tools.draw_distinct_conditions(2513, pool, 10), the predecessors' rule.
Wrapped, not edited: fresh-481's run_case reads its module's WORK, PORT0, LONG_SOCK and CASES (fresh-496's module
already points them at fresh-496 when imported); _point_base() points them at this batch (this process only).
fresh-496's run_case sets fresh-481's CASES from fresh-496's module CASES and renames fresh481-... to fresh496-...;
run_case() here sets fresh-496's CASES to this batch's, calls it, and renames fresh496-llama-NN-SLUG.log to
fresh513-llama-NN-SLUG.log, asserting first that no fresh-496 (or fresh-481) log has that name. Draw 6 alone runs with
HOME=/tmp/fresh513/home (so the shown `mkdir -p ~/slots` stays inside the work dir), set in os.environ around that
case only. Neither predecessor file is changed.
Predictions (written after the draw, before any case ran, from llama.cpp b11434's source as fresh-481 unpacked it
under /tmp/fresh481/src: common/arg.cpp (env handling before the command line: int via std::stoi, bool via
parse_bool_value; --api-key via parse_csv_row; --slot-save-path fs_is_directory; --sleep-idle-seconds; --log-disable =
common_log_pause; --alias split on ',' and stripped), common/log.cpp (pause discards messages; set_file pauses then
resumes), tools/server/server.cpp, server-http.cpp (routes = api_prefix + path), server-context.cpp (ui config parsed
with json::parse in load_model). Each server is `[PREFIX]llama-server -m tiny-f32.gguf --host 127.0.0.1 --port 2710X
-c 512 FLAGS`):
 1 --webui-config "{'theme': 'dark', 'showTokensPerSecond': true}": accepted by the parser (a string option); the model
   loads, then load_model's json::parse throws: E 'load_model: failed to parse UI config: [json.exception.parse_error.101]
   parse error at line 1, column 2: syntax error while parsing object key - invalid literal; last read: ''{''...; expected
   string literal', then 'exiting due to model loading error', exit 1; no client (/health never 200).
 2 env LLAMA_ARG_LOG_PREFIX=yes: a bool option read from the environment before the command line; parse_bool_value
   throws: 'error while handling environment variable "LLAMA_ARG_LOG_PREFIX": invalid boolean value', exit 1 before the
   model loads, no usage hint (as fresh-496's draw 9).
 3 --api-prefix /llm/, the client calls /llm/v1/chat/completions: every route is registered as '/llm/' + path, i.e.
   '/llm//v1/chat/completions' and '/llm//health' (fresh-481's _healthy polls the latter, so the server counts as up);
   the client's path matches nothing: HTTP 404 {"error":{"code":404,"message":"File Not Found","type":"not_found_error"}},
   nothing logged by the server for it; the server keeps serving. (Less sure: if cpp-httplib folded '//' the poll would
   fail and the case end with ^C after 180 s and no client.)
 4 --threads-http 99999999999: std::stoi throws out_of_range, rethrown as 'error while handling argument
   "--threads-http": stoi', the usage block of --threads-http, 'to show complete usage, run with -h', exit 1.
 5 --api-key 'sk-a, sk-b', the client sends Bearer sk-b: parse_csv_row splits on ',' and keeps the space, so the keys are
   'sk-a' and ' sk-b'; 'sk-b' matches neither: HTTP 401 'Invalid API Key' and the server's W 'unauthorized: Invalid API
   Key'; the server keeps serving.
 6 --slot-save-path '~/slots' (quoted, so bash does not expand it; ~/slots exists, made in the shown setup): the
   parser's fs_is_directory("~/slots") is false (no folder '~' in the cwd): 'error while handling argument
   "--slot-save-path": not a directory: ~/slots', the usage block, exit 1 before the model loads.
 7 --sleep-idle-seconds 0: 'error while handling argument "--sleep-idle-seconds": invalid value: cannot be 0 or less than
   -1', the usage block, exit 1.
 8 --log-file llama.log --log-disable: the file is opened (truncated), then the logger is paused, and a paused logger
   discards every message: the terminal shows (almost) nothing from llama-server, llama.log stays 0 bytes; the server
   serves, the chat answers 200, ^C stops it. Nothing fatal ("none"); the operator's empty log is what --log-disable does.
 9 LLAMA_ARG_CTX_SIZE="512" in llama.env, `env $(cat llama.env)` (the quotes kept in the value): std::stoi('"512"')
   throws: 'error while handling environment variable "LLAMA_ARG_CTX_SIZE": stoi', exit 1 before the model loads; the
   command line's -c 512 does not help (the environment is read first and the error stops the parse).
10 --alias 'tiny-chat,tiny', GET /v1/models then a chat naming model 'tiny': healthy; /v1/models 200 listing the model
   with its aliases; the chat 200.
Expected ids (EXPECT, written with the predictions): see EXPECT below; judgement calls there.
Read: common.md, batch.md, the brief, fresh-496's manifest header (to its lead's measurement line) and first [[case]],
tools/doctor_corpus_fresh496.py and its draw file, tools/doctor_corpus_fresh481.py, tools/corpus_tools.py (pool_after,
draw_distinct_conditions, tiny_model, tiny_gguf), the manifest's batch header lines after fresh-496 grepped for this
theme's words, the llama.cpp files above, ids.py's list, --grep and --cases for this draw's words. NOT read: doctor's
code, knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh481 as base  # noqa: E402
import doctor_corpus_fresh496 as prev  # noqa: E402

SEED = 2513
N = 10
PORT0 = 27100  # draw N listens on PORT0 + N - 1 (27100..27109)
WORK = Path("/tmp/fresh513")


def already() -> dict[tuple[str, str], str]:
    """fresh-496's ALREADY (fresh-481's 10 draws) plus fresh-496's own 10 draws, recomputed through its draws()."""
    made = dict(prev.ALREADY)
    for i, pair in enumerate(prev.draws()[0], 1):
        made[pair] = f"fresh496 draw {i}"
    return made


ALREADY = already()
# no class is new: the pool below keeps 14 conditions (19 pairs), enough for 10 distinct conditions
CONDITIONS, POOL = corpus_tools.pool_after(base.CONDITIONS, set(ALREADY))


def pool() -> dict[str, list[str]]:
    """fresh-481's CONDITIONS less the ALREADY pairs (corpus_tools.pool_after)."""
    return POOL


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, pool(), N)


def show() -> None:
    kept, redrawn = draws()
    p = pool()
    print(f"fresh-513 draw: seed {SEED}, {len(p)} conditions, {sum(map(len, p.values()))} pairs in the pool")
    print(f"already made (fresh-481's and fresh-496's draws, left out): {len(ALREADY)}")
    for i, (c, v) in enumerate(kept, 1):
        print(f"{i:2d} {c} | {v}")
    print(f"drawn anew ({len(redrawn)}):")
    for c, v, why in redrawn:
        print(f"   {c} | {v} ({why})")


# ---- expected answers and case makers (written after the draw, before any case ran) ----

# Judgement calls: 1 -- llamacpp-invalid-argument: the value of --webui-config is of the wrong form (not JSON; single
# quotes), and its fix (correct the flag's value) is the fix, though the refusal comes from load_model after the model
# loaded, not from the argument parser (the other reading: new:llamacpp-ui-config-not-json). 2, 4, 7, 9 --
# llamacpp-invalid-argument: a value of the wrong form refused while parsing (its fix names booleans and quotes kept by
# an env file). 3 -- llamacpp-api-prefix-malformed: a trailing '/' is in its cause word for word ('/api//v1/...').
# 5 -- api-key-missing: the request came with another key than the ones held (' sk-b' with its space), as fresh-496's
# draw 4. 6 -- path-tilde-not-expanded: a quoted argument's '~' (the lead's label of fresh-455's quoted tilde);
# llamacpp-invalid-argument is the second reading. 8, 10 -- none: nothing failed (8: the log is empty because the
# operator paused it; the server served).
EXPECT: dict[int, str] = {
    1: "llamacpp-invalid-argument",
    2: "llamacpp-invalid-argument",
    3: "llamacpp-api-prefix-malformed",
    4: "llamacpp-invalid-argument",
    5: "api-key-missing",
    6: "path-tilde-not-expanded",
    7: "llamacpp-invalid-argument",
    8: "none",
    9: "llamacpp-invalid-argument",
    10: "none",
}

# expected failures first (at start, then after the load, then at the request), healthy ones last
RUN_ORDER = [2, 4, 6, 7, 9, 1, 5, 3, 8, 10]
HOME6 = WORK / "home"  # draw 6's HOME


def _point_base() -> None:
    """Point fresh-481's module globals (read by its _port, _chat, _healthy, run_case) at this batch: fresh-496's import
    pointed them at fresh-496."""
    base.WORK = WORK
    base.PORT0 = PORT0
    base.LONG_SOCK = str(WORK / "run" / "unused.sock")  # no draw here has a unix socket


_point_base()
_P = PORT0 - 1  # draw n's port is _P + n

# the form of fresh-481's CASES: draw -> (slug, setup, server command prefix, flags, client, after commands)
CASES: dict[int, tuple[str, list[str], str, str, str, list[str]]] = {
    1: (
        "webui-config-single-quoted-keys",
        [],
        "",
        "--webui-config \"{'theme': 'dark', 'showTokensPerSecond': true}\"",
        base._chat(1),
        [],
    ),
    2: ("env-log-prefix-yes", [], "env LLAMA_ARG_LOG_PREFIX=yes ", "", base._chat(2), []),
    3: (
        "api-prefix-trailing-slash",
        [],
        "",
        "--api-prefix /llm/",
        base._chat(3, path="/llm/v1/chat/completions"),
        [],
    ),
    4: ("threads-http-beyond-int", [], "", "--threads-http 99999999999", base._chat(4), []),
    5: ("api-key-comma-space", [], "", "--api-key 'sk-a, sk-b'", base._chat(5, auth="Bearer sk-b"), []),
    6: (
        "slot-save-path-quoted-tilde",
        ["mkdir -p ~/slots", "ls -ld ~/slots"],
        "",
        "--slot-save-path '~/slots'",
        base._chat(6),
        [],
    ),
    7: ("sleep-idle-seconds-zero", [], "", "--sleep-idle-seconds 0", base._chat(7), []),
    8: (
        "log-file-with-log-disable",
        [],
        "",
        "--log-file llama.log --log-disable",
        base._chat(8),
        ["ls -l llama.log", "wc -c llama.log"],
    ),
    9: (
        "env-file-ctx-size-quoted",
        ["printf 'LLAMA_ARG_CTX_SIZE=\"512\"\\n' > llama.env", "cat llama.env"],
        "env $(cat llama.env) ",
        "",
        base._chat(9),
        [],
    ),
    10: (
        "alias-two-names-models-then-second",
        [],
        "",
        "--alias 'tiny-chat,tiny'",
        f"curl -sS -i http://127.0.0.1:{_P + 10}/v1/models; echo; " + base._chat(10),
        [],
    ),
}


def run_case(n: int) -> Path:
    """fresh-496's run_case (fresh-481's runner) on this batch's case n, its log renamed fresh496-... -> fresh513-...."""
    import os

    slug = CASES[n][0]
    corpus = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "doctor-corpus"
    made = corpus / f"fresh496-llama-{n:02d}-{slug}.log"
    assert not made.exists(), made  # never overwrite a fresh-496 log
    corpus_tools.tiny_gguf(WORK)
    prev.CASES = CASES
    _point_base()
    home = os.environ.get("HOME")
    if n == 6:
        HOME6.mkdir(parents=True, exist_ok=True)
        os.environ["HOME"] = str(HOME6)
    try:
        log = prev.run_case(n)
    finally:
        if home is not None:
            os.environ["HOME"] = home
    assert log == made, log
    final = made.with_name(f"fresh513-llama-{n:02d}-{slug}.log")
    log.rename(final)
    return final


if __name__ == "__main__":
    if "--draws" in sys.argv:
        show()
    if "--run" in sys.argv:
        for arg in sys.argv[sys.argv.index("--run") + 1 :]:
            print(run_case(int(arg)), flush=True)
