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

import random
import sys

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


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {' | '.join(d)}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    raise SystemExit("the makers come after the draw is committed")


if __name__ == "__main__":
    main()
