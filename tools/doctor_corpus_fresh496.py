r"""fresh-496: llama-server run as a service, round 2 (round 1: fresh-481) -- API keys, TLS, unix sockets, --api-prefix /
--path, LLAMA_ARG_* variables, logging, as an operator sets them -- on the real llama-server b11434 (.llama-cpp/bin,
CPU-only build without SSL) with corpus_tools.tiny_gguf's GGUF made in /tmp/fresh496 (sha256 0647b7d8a284e419..., the
same bytes fresh-481 used).
The predecessor's procedure (tools/doctor_corpus_fresh481.py) repeated with SEED 2496, N = 10, ports 26840-26849, work
dir /tmp/fresh496. IMPORTED from fresh-481, not copied: CONDITIONS (its 14 conditions, 39 value classes), draws() (for
its own 10 draws), _chat, _slots, _sh, _healthy and run_case. Only what changes is written here: SEED, the already-made
set (fresh-481's ALREADY was empty; its 10 draws, recomputed through its draws(), join it here), ports, work dir, the
case makers for this draw. Pool: 39 - 10 = 29 pairs over all 14 conditions, enough for 10 distinct conditions, so no
NEW class was added. The draw: corpus_tools.draw_distinct_conditions(2496, pool(), 10), fresh-481's rule.
Wrapped, not edited: fresh-481's run_case reads its module's WORK, PORT0 and LONG_SOCK (the unix socket _healthy polls)
and CASES, and writes the log as fresh481-llama-NN-SLUG.log; _point_base() sets those globals of the imported module to
this batch's values (in this process only) and run_case() here renames the log to fresh496-llama-NN-SLUG.log, refusing
a name that would land on an existing fresh-481 log. fresh-481's file is unchanged.
Predictions (written after the draw, before any case ran, from llama.cpp b11434's source as fresh-481 unpacked it under
/tmp/fresh481/src: common/arg.cpp, tools/server/server-http.cpp, server-context.cpp, server.cpp,
vendor/cpp-httplib/httplib.cpp; each server is `[PREFIX]llama-server -m tiny-f32.gguf --host 127.0.0.1 --port 2684X
-c 512 FLAGS`):
 1 --api-key sk-a, the client sends 'Authorization: sk-a' (no 'Bearer '): the key middleware strips 'Bearer ' only if
   present and compares the rest: accepted, 200. Healthy.
 2 --path index.html (a regular file): set_mount_point("/", "index.html") refuses a non-directory: E 'static assets path
   not found: index.html', then 'failed to initialize HTTP server', exit 1 before the model loads; no client.
 3 --timeout 0, a chat: read/write timeouts 0 s. cpp-httplib waits for the first bytes with its keep-alive timeout (5 s)
   and curl sends a small POST's headers and body in one write, so the whole request is in the first read: 200 (less
   sure: if the body came in a second segment, poll(0) would fail the read and curl would get an empty reply / 400).
 4 --api-key-file with 'sk-a\n' and 'sk-b  \n' (two trailing spaces), the client sends Bearer sk-b: getline keeps the
   spaces, the held key is 'sk-b  ', so 401 {"error":{"code":401,"message":"Invalid API Key",...}} and W 'unauthorized:
   Invalid API Key'; the server keeps serving.
 5 LLAMA_ARG_THREADS_HTTP='4 threads': the env value goes through std::stoi, which reads the leading '4' and ignores the
   rest: no error, 4 HTTP threads (logged only at trace level), chat 200. Healthy.
 6 LLAMA_ARG_ENDPOINT_METRICS=yes: --metrics is a handler_void option, run from the environment only when the value
   is_truthy (on|enabled|true|1); 'yes' is silently skipped. The chat answers 200, GET /metrics 501 'This server does not
   support metrics endpoint. Start it with `--metrics`'.
 7 --log-prefix --log-timestamps -lv 4: healthy; the log lines carry timestamps and level prefixes ('I ', 'W '), trace
   lines appear; chat 200.
 8 --alias tiny-chat, the client asks for gpt-4o: a single-model server does not route by name: 200, the reply's model
   is the client's or the alias. Healthy.
 9 LLAMA_ARG_CONT_BATCHING=yes from an env file (env $(cat llama.env)): a handler_bool option; parse_bool_value throws:
   'error while handling environment variable "LLAMA_ARG_CONT_BATCHING": invalid boolean value', the usage hint, exit 1
   before the model loads.
10 a stale .sock file: an earlier llama-server on --host /tmp/fresh496/run/d10/llama-server.sock is killed with SIGKILL
   (shown in the setup), leaving the socket file; the new server's bind fails (EADDRINUSE; neither llama-server nor
   cpp-httplib unlinks it): 'couldn't bind HTTP server socket, hostname: /tmp/fresh496/run/d10/llama-server.sock, port:
   26849', 'exiting due to HTTP server error', exit 1, no reason named.
Expected ids (EXPECT, written with the predictions): see EXPECT below; judgement calls there.
Read: common.md, batch.md, the brief, fresh-481's manifest header and first [[case]], tools/doctor_corpus_fresh481.py,
tools/corpus_tools.py (draw_distinct_conditions, tiny_gguf), the manifest's batch header lines after fresh-481 grepped
for this theme's words, the llama.cpp files above, ids.py. NOT read: doctor's code, knowledge, statement.toml,
tests/test_doctor*.py, benchmark internals, any corpus log.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh481 as base  # noqa: E402

SEED = 2496
N = 10
PORT0 = 26840  # draw N listens on PORT0 + N - 1 (26840..26849)
WORK = Path("/tmp/fresh496")
CONDITIONS = base.CONDITIONS
STALE_SOCK = "/tmp/fresh496/run/d10/llama-server.sock"


def already() -> dict[tuple[str, str], str]:
    """fresh-481's ALREADY (empty) plus its 10 draws, recomputed through its own draws()."""
    made = dict(base.ALREADY)
    for i, pair in enumerate(base.draws()[0], 1):
        made[pair] = f"fresh481 draw {i}"
    return made


ALREADY = already()


def pool() -> dict[str, list[str]]:
    """CONDITIONS less the ALREADY pairs; a condition with no class left is dropped (fresh-481's pool())."""
    left = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, pool(), N)


def show() -> None:
    kept, redrawn = draws()
    p = pool()
    print(f"fresh-496 draw: seed {SEED}, {len(p)} conditions, {sum(map(len, p.values()))} pairs in the pool")
    print(f"already made (fresh-481's draws, left out): {len(ALREADY)}")
    for i, (c, v) in enumerate(kept, 1):
        print(f"{i:2d} {c} | {v}")
    print(f"drawn anew ({len(redrawn)}):")
    for c, v, why in redrawn:
        print(f"   {c} | {v} ({why})")


# ---- expected answers and case makers (written after the draw, before any case ran) ----

# Judgement calls: 2 -- llamacpp-static-path-missing's cause says the --path 'does not exist'; here it exists but is a
# file, so it is not stretched: new:llamacpp-static-path-not-a-directory. 4 -- api-key-missing: the request came with
# another key than the one held ('sk-b  '), and its fix names checking that each --api-key-file line holds exactly a
# key; llamacpp-api-key-file-crlf is about '\r' only. 6 -- llamacpp-endpoint-needs-flag: /metrics refused with 501 until
# the server runs with --metrics; the variable's value 'yes' was silently skipped (no id names that; the alternative was
# new:llamacpp-env-flag-not-truthy-ignored). 10 -- llamacpp-bind-failed: its cause names a leftover socket file.
EXPECT: dict[int, str] = {
    1: "none",
    2: "new:llamacpp-static-path-not-a-directory",
    3: "none",
    4: "api-key-missing",
    5: "none",
    6: "llamacpp-endpoint-needs-flag",
    7: "none",
    8: "none",
    9: "llamacpp-invalid-argument",
    10: "llamacpp-bind-failed",
}

# expected failures first (at start, then at the request), healthy ones last
RUN_ORDER = [2, 9, 10, 4, 6, 3, 1, 5, 7, 8]


def _point_base() -> None:
    """Point the imported fresh-481 module's globals (read by its _port, _chat, _healthy, run_case) at this batch."""
    base.WORK = WORK
    base.PORT0 = PORT0
    base.LONG_SOCK = STALE_SOCK


_point_base()
_GPT4O_BODY = '{"model": "gpt-4o", "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 16}'
_EARLIER = (
    f"llama-server -m tiny-f32.gguf --port {PORT0 + 9} -c 512 --host {STALE_SOCK} > earlier-run.out 2>&1 & "
    f"for i in $(seq 240); do curl -s --unix-socket {STALE_SOCK} http://localhost/health | grep -q ok && break; "
    "sleep 1; done; kill -9 $!; wait $! 2>/dev/null; echo killed the earlier server with SIGKILL"
)

# A RUNNER DEFECT, FOUND AFTER THE FIRST RUN (not a redraw): fresh-481's run_case starts the server as
# `bash -c "exec " + command`, and `exec VAR=value llama-server` is refused by bash ('exec: VAR=value: not found', exit
# 127): draws 5 and 6 first ran with a bare `VAR=value ` prefix and never started llama-server (logs in 5ab3514c and
# 6e074b52). Their prefix is now `env VAR=value ` (what fresh-481's draw 6 did with `env $(cat llama.env) `); each was
# run once more and its committed log is the second run.
# the form of fresh-481's CASES: draw -> (slug, setup, server command prefix, flags, client, after commands)
CASES: dict[int, tuple[str, list[str], str, str, str, list[str]]] = {
    1: ("api-key-header-without-bearer", [], "", "--api-key sk-a", base._chat(1, auth="sk-a"), []),
    2: (
        "path-names-a-file",
        ["printf '<html><body>llama</body></html>\\n' > index.html", "ls -l index.html"],
        "",
        "--path index.html",
        base._chat(2),
        [],
    ),
    3: ("timeout-zero", [], "", "--timeout 0", base._chat(3), []),
    4: (
        "api-key-file-trailing-spaces",
        ["printf 'sk-a\\nsk-b  \\n' > api-keys.txt", "od -c api-keys.txt"],
        "",
        "--api-key-file api-keys.txt",
        base._chat(4, auth="Bearer sk-b"),
        [],
    ),
    5: ("env-threads-http-with-word", [], "env LLAMA_ARG_THREADS_HTTP='4 threads' ", "", base._chat(5), []),
    6: (
        "env-endpoint-metrics-yes",
        [],
        "env LLAMA_ARG_ENDPOINT_METRICS=yes ",
        "",
        base._chat(6) + "; echo; " + f"curl -sS -i http://127.0.0.1:{PORT0 + 5}/metrics",
        [],
    ),
    7: ("log-prefix-timestamps-lv4", [], "", "--log-prefix --log-timestamps -lv 4", base._chat(7), []),
    8: (
        "alias-client-asks-gpt-4o",
        [],
        "",
        "--alias tiny-chat",
        f"curl -sS -i http://127.0.0.1:{PORT0 + 7}/v1/chat/completions -H 'Content-Type: application/json' "
        f"-d '{_GPT4O_BODY}'",
        [],
    ),
    9: (
        "env-file-cont-batching-yes",
        ["printf 'LLAMA_ARG_CONT_BATCHING=yes\\n' > llama.env", "cat llama.env"],
        "env $(cat llama.env) ",
        "",
        base._chat(9),
        [],
    ),
    10: (
        "stale-sock-file-from-killed-run",
        [_EARLIER, f"ls -l {STALE_SOCK}"],
        "",
        f"--host {STALE_SOCK}",
        f"curl -sS -i --unix-socket {STALE_SOCK} http://localhost/v1/chat/completions "
        f"-H 'Content-Type: application/json' -d '{base.CHAT_BODY}'",
        [],
    ),
}


def run_case(n: int) -> Path:
    """fresh-481's run_case on this batch's case n, its log renamed from fresh481-... to fresh496-...."""
    slug = CASES[n][0]
    repo = Path(__file__).resolve().parent.parent
    made = repo / "tests" / "fixtures" / "doctor-corpus" / f"fresh481-llama-{n:02d}-{slug}.log"
    final = made.with_name(f"fresh496-llama-{n:02d}-{slug}.log")
    assert not made.exists(), made  # never overwrite a fresh-481 log
    base.CASES = CASES
    log = base.run_case(n)
    assert log == made, log
    log.rename(final)
    return final


if __name__ == "__main__":
    if "--draws" in sys.argv:
        show()
    if "--run" in sys.argv:
        for arg in sys.argv[sys.argv.index("--run") + 1 :]:
            print(run_case(int(arg)), flush=True)
