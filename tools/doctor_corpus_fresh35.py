"""The thirty-fifth fresh batch of doctor's corpus (batch "fresh-35"): THE PROCESS ENVIRONMENT a service runs in, on
the real engines, DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch measures doctor on what that
procedure produces (fresh-20 drew flags, fresh-23 mistakes around the engine, fresh-25 model files, fresh-31 requests
and running-server events).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2035):
  16 cases, each drawn in turn: engine = r.choice(ENGINES); condition = r.choice(list(CONDITIONS));
  value = r.choice(CONDITIONS[condition]). A draw whose (engine, condition) was drawn before is drawn anew (all
  three, same r), and so is (vllm, process-count limit): root is exempt from RLIMIT_NPROC, so the limit applies only
  to an engine run as another user, and vLLM's interpreter lives under /root (mode 0700), which no other user can run
  without a root-only change to the machine (llama-server's binary is copied where nobody can run it).
  Every condition is applied without changing the machine (this session runs as root):
    ulimit -n/-v/-f: `bash -c 'ulimit -X N; exec ENGINE'`; ulimit -u: the same under `setpriv --reuid 65534
    --regid 65534 --clear-groups` (nobody), with the engine's files copied where nobody can read them.
    read-only directory: a directory made here, bind-mounted read-only onto itself in a private mount namespace
    (`unshare -m`; root is not refused writes by mode bits, a read-only mount refuses everyone); missing directory:
    a path under a fresh temporary directory that does not exist.
    The file-size limit gives the engine fresh, empty cache directories (XDG_CACHE_HOME, VLLM_CACHE_ROOT, HF_HOME)
    so it writes what it writes there on a first start, and llama-server --log-file FILE.
    Environment variables are added to the maker's usual environment (tools/doctor-corpus.py's ENV:
    VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1), replacing a same-named one; "unset" removes
    it; `env -i` gives the engine an empty environment (the engine named by its absolute path).
    stdin closed: `bash -c 'exec 0<&-; exec ENGINE'`; stdout to a closed pipe: stdout is the write end of a pipe
    whose read end is closed (SIGPIPE restored to default, as a service manager leaves it); stderr is kept.
    working directory deleted: `bash -c 'cd D && rmdir D && exec ENGINE'`.
  Each case: the engine started under the condition with the flags a user would use (llama-server -m GGUF --port P
  -c 512; vLLM api_server --model TINY --port P --max-model-len 512), waited for until /health answers or it exits
  (vLLM 420 s, llama-server 60 s), then one chat request (max_tokens 8) if it answered, then SIGTERM to its process
  group (SIGKILL after 30 s). Case log = the engine's whole log (stdout and stderr together; stderr alone where stdout
  is the condition), then `# client:` and the response's status line and first 400 bytes, as fresh-31.
Healthy outcomes are kept as they came; their expected is "none" unless the log shows a refusal a user needs explained.
Usage (from the repository root; ports 19000-19001 of this batch's range 19000-19099):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh35.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import shutil
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

use_ports(19000, "/tmp/fresh35/tiny-f32.gguf")
TMP = Path(tempfile.gettempdir()) / "fresh35-run"

ENGINES = ["llama-server", "vllm"]
# each condition's values, fixed before the draw; "A / B" = what the value is on llama-server / on vLLM
CONDITIONS = {
    "open-files limit": ["ulimit -n 16", "ulimit -n 64"],
    "address-space limit": ["ulimit -v 1 GiB", "ulimit -v 4 GiB"],
    "file-size limit": ["ulimit -f 64 KiB", "ulimit -f 1 MiB"],
    "process-count limit": ["ulimit -u 16", "ulimit -u 64"],
    "HOME": ["HOME unset", "HOME a missing directory", "HOME a read-only directory"],
    "cache directory": [
        f"{var} a {state} directory"
        for var in ("HF_HOME", "XDG_CACHE_HOME", "TMPDIR", "VLLM_CACHE_ROOT")
        for state in ("read-only", "missing")
    ],
    "offline, hub id not cached": [
        "HF_HUB_OFFLINE=1, empty HF_HOME; -hf ggml-org/gemma-3-1b-it-GGUF / --model Qwen/Qwen2.5-0.5B-Instruct"
    ],
    "minimal PATH": ["PATH an empty directory", "PATH only the engine's own bin directory"],
    "missing locale": ["LANG=en_US.UTF-8", "LC_ALL=de_DE.UTF-8"],
    "engine variable wrong value": [
        "port as a Kubernetes service link: LLAMA_ARG_PORT / VLLM_PORT=tcp://10.96.0.12:8000",
        "a number with a unit: LLAMA_ARG_CTX_SIZE=4k / VLLM_ENGINE_READY_TIMEOUT_S=10m",
        "a switch as yes: LLAMA_ARG_FLASH_ATTN=yes / VLLM_ALLOW_LONG_MAX_MODEL_LEN=yes",
    ],
    "stdio": ["stdin closed", "stdout to a closed pipe"],
    "working directory deleted": ["cwd deleted before exec"],
    "env -i": ["an empty environment"],
    "odd device/thread variables": [
        "CUDA_VISIBLE_DEVICES=''",
        "CUDA_VISIBLE_DEVICES=0,1",
        "OMP_NUM_THREADS=0",
        "OMP_NUM_THREADS=64",
        "VLLM_CPU_KVCACHE_SPACE=0",
        "VLLM_CPU_KVCACHE_SPACE=200",
    ],
}


def draws() -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str, str]]]:
    """The 16 kept draws (engine, condition, value), and every draw made anew with its reason."""
    r = random.Random(2035)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < 16:
        engine = r.choice(ENGINES)
        condition = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[condition])
        if any((engine, condition) == (e, c) for e, c, _ in kept):
            redrawn.append((engine, condition, value, "(engine, condition) drawn before"))
        elif (engine, condition) == ("vllm", "process-count limit"):
            redrawn.append((engine, condition, value, "RLIMIT_NPROC cannot apply to vLLM here"))
        else:
            kept.append((engine, condition, value))
    return kept, redrawn


def shell(script: str, argv: list[str]) -> list[str]:
    """ARGV run by bash after SCRIPT (a ulimit, a cd): `bash -c 'SCRIPT; exec "$@"' bash ARGV`."""
    return ["bash", "-c", f'{script}; exec "$@"', "bash", *argv]


def serve(h, argv: list[str], port: int, timeout: float, env: dict, body: dict) -> str:
    """Start ARGV with exactly ENV; once /health answers, one chat request; then SIGTERM. Whole log + client lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        answer, deadline = "", time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    answer = client(f"http://127.0.0.1:{port}/v1/chat/completions", body)
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        return text + ("\n" if answer and text and not text.endswith("\n") else "") + answer


def client(url: str, body: dict) -> str:
    """What the client saw: `# client:`, the status line, the body's first 400 bytes (as fresh-31)."""
    try:
        r = httpx.post(url, json=body, timeout=120)
        line = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
        return f"# client:\n{line}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"# client:\n{type(exc).__name__}: {exc}\n"


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    base = {**os.environ, **h.ENV}
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}

    def llama(
        env: dict | None = None, wrap=None, gguf: Path | None = None, binary: str | None = None, *flags
    ):
        argv = [binary or h.LLAMA, "-m", str(gguf or h.GGUF), "--port", lport, "-c", "512", *flags]
        return serve(h, wrap(argv) if wrap else argv, int(lport), 60, base if env is None else env, chat)

    def vllm(env: dict | None = None, wrap=None):
        argv = [*h.VLLM, str(tiny), "--port", vport, "--max-model-len", "512"]
        body = {"model": str(tiny), **chat}
        return serve(h, wrap(argv) if wrap else argv, int(vport), timeout, base if env is None else env, body)

    def fresh(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def without(*names: str) -> dict:
        return {k: v for k, v in base.items() if k not in names}

    def file_size_64k() -> str:
        d = fresh("fsize")
        for sub in ("cache", "hf"):
            (d / sub).mkdir()
        env = {**base, "XDG_CACHE_HOME": str(d / "cache"), "HF_HOME": str(d / "hf")}
        return llama(env, lambda a: shell("ulimit -f 64", a), None, None, "--log-file", str(d / "llama.log"))

    def nproc_64() -> str:
        # as nobody (root is exempt from RLIMIT_NPROC): the binary and GGUF copied where nobody can read them
        d = fresh("nobody")
        d.chmod(0o755)
        binary, gguf = d / "llama-server", d / "tiny-f32.gguf"
        shutil.copy2(h.LLAMA, binary)
        shutil.copy2(h.GGUF, gguf)
        gguf.chmod(0o644)
        drop = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
        return llama(None, lambda a: drop + shell("ulimit -u 64", a), gguf, str(binary))

    def cwd_deleted(start) -> str:
        d = fresh("cwd-deleted")
        return start(None, lambda a: shell(f"cd {d} && rmdir {d}", a))

    return {
        # 1: vLLM under `env -i` (the interpreter by its absolute path)
        "fresh35-vllm-env-i": lambda: vllm({}, lambda a: ["env", "-i", *a]),
        # 2: llama-server with ulimit -n 64
        "fresh35-llama-ulimit-n-64": lambda: llama(None, lambda a: shell("ulimit -n 64", a)),
        # 3: vLLM started in a working directory deleted before exec
        "fresh35-vllm-cwd-deleted": lambda: cwd_deleted(vllm),
        # 4: VLLM_CPU_KVCACHE_SPACE=200 (GiB) on a machine of 23 GiB
        "fresh35-vllm-kvcache-space-200": lambda: vllm({**base, "VLLM_CPU_KVCACHE_SPACE": "200"}),
        # 5: LLAMA_ARG_PORT as a Kubernetes service link
        "fresh35-llama-arg-port-service-link": lambda: llama(
            {**base, "LLAMA_ARG_PORT": "tcp://10.96.0.12:8000"}
        ),
        # 6: LC_ALL a locale this machine does not have
        "fresh35-vllm-lc-all-missing-locale": lambda: vllm({**base, "LC_ALL": "de_DE.UTF-8"}),
        # 7: llama-server under `env -i`
        "fresh35-llama-env-i": lambda: llama({}, lambda a: ["env", "-i", *a]),
        # 8: llama-server with HOME unset
        "fresh35-llama-home-unset": lambda: llama(without("HOME")),
        # 9: XDG_CACHE_HOME a missing directory
        "fresh35-llama-xdg-cache-missing": lambda: llama(
            {**base, "XDG_CACHE_HOME": str(fresh("xdg") / "missing" / "cache")}
        ),
        # 10: vLLM with HOME a missing directory
        "fresh35-vllm-home-missing": lambda: vllm({**base, "HOME": str(fresh("home") / "missing-home")}),
        # 11: VLLM_CACHE_ROOT a missing directory
        "fresh35-vllm-cache-root-missing": lambda: vllm(
            {**base, "VLLM_CACHE_ROOT": str(fresh("vcache") / "missing" / "vllm")}
        ),
        # 12: llama-server with stdin closed
        "fresh35-llama-stdin-closed": lambda: llama(None, lambda a: shell("exec 0<&-", a)),
        # 13: ulimit -f 64 KiB, llama-server writing --log-file, fresh empty cache directories
        "fresh35-llama-ulimit-f-64k": file_size_64k,
        # 14: llama-server started in a working directory deleted before exec
        "fresh35-llama-cwd-deleted": lambda: cwd_deleted(llama),
        # 15: vLLM with ulimit -n 64
        "fresh35-vllm-ulimit-n-64": lambda: vllm(None, lambda a: shell("ulimit -n 64", a)),
        # 16: llama-server as nobody with ulimit -u 64
        "fresh35-llama-ulimit-u-64-nobody": nproc_64,
    }


def main() -> None:
    maker_main(draws, makers, "/tmp/fresh35/tiny")


if __name__ == "__main__":
    main()
