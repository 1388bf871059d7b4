"""The fifty-fifth fresh batch of doctor's corpus (batch "fresh-55"): FILESYSTEMS AND MOUNTS as containers and
hardened systemd units give them, on the real engines, DRAWN AT RANDOM by a procedure fixed before any case ran, so
the batch measures doctor on what that procedure produces (earlier made-here batches drew flags (fresh-20), mistakes
around the engine (23), model files (25), requests and running-server events (31), the process environment (35),
chat templates and generation settings (38), adapters and auxiliary models (42), parallelism and threading (46), the
HF cache and offline mode (51)).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2055):
  14 cases, each drawn in turn: engine = r.choice(("vllm", "llama")); condition = r.choice(list(CONDITIONS[engine]));
  value = r.choice(CONDITIONS[engine][condition]). A draw whose (engine, condition) was drawn before is drawn anew (all
  three, same r). Healthy controls are part of the conditions (values marked "(healthy control)").
  Every condition is applied in a private mount namespace (`unshare -m --propagation private`, then `bash -c 'MOUNTS;
  exec ENGINE'`), so this machine's mounts are not changed (this session runs as root). "a N tmpfs" = `mount -t tmpfs
  -o size=N tmpfs DIR`; "read-only DIR" = DIR bind-mounted onto itself and remounted ro (root is not refused writes by
  mode bits; a read-only mount refuses everyone); "noexec DIR" = the same with noexec; "/dev/shm absent" = an empty
  directory made here, mode 0555, bind-mounted read-only over /dev/shm (what a runtime that gives no /dev/shm leaves:
  the path is there and nothing can be created in it). The model lives outside /tmp (/var/tmp/fresh55: the tiny Llama
  of tests/engine/make_tiny_model.py and tests/engine/make_tiny_gguf.py's GGUF of it, tiny-f32.gguf), so a mount over
  /tmp does not hide it. "copied onto a tmpfs": inside the namespace the model's directory (vLLM) or GGUF (llama) is
  copied onto the tmpfs (cp's own errors discarded: the copy of a container's entrypoint, whose failure goes unnoticed)
  and the engine pointed at the copy. "as nobody": `setpriv --reuid 65534 --regid 65534 --clear-groups`, the binary
  copied where nobody can run it (llama-server only: vLLM's interpreter lives under /root, mode 0700, which nobody can
  reach without changing the machine). "ProtectSystem=strict" = / remounted read-only (bind, ro) with a fresh tmpfs on
  /tmp, as systemd's ProtectSystem=strict + PrivateTmp=yes give a unit that lists no ReadWritePaths.
  Each case: the engine started under the condition with the flags a user would use (vLLM api_server --model TINY
  --port P --max-model-len 512; llama-server -m GGUF --port P -c 512 [+ --log-file where the value says]), waited for
  until /health answers or it exits (vLLM 420 s, llama-server 60 s), then one chat request (max_tokens 8) if it
  answered, then SIGTERM to its process group (SIGKILL after 30 s). Case log = the engine's whole log (stdout and stderr
  together), then `# client:` and the response's status line and first 400 bytes (fresh-35's serve()). Environment:
  tools/doctor-corpus.py's ENV (VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1) on top of the
  maker's own.
Usage (from the repository root; ports 18950-18951 of this batch's range 18950-18999):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh55.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

from corpus_tools import load, use_ports  # tools/ is on sys.path: the makers run as scripts

use_ports(18950, "/var/tmp/fresh55/tiny-f32.gguf")
TMP = Path("/var/tmp/fresh55-run")

CACHE_VARS = {
    "vllm": "XDG_CACHE_HOME, VLLM_CACHE_ROOT, TRITON_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR and HF_HOME",
    "llama": "XDG_CACHE_HOME, LLAMA_CACHE and HF_HOME",
}


def _shared(engine: str) -> dict[str, list[str]]:
    """The conditions both engines get (the cache variables and the model's form are the engine's own)."""
    model = "the model's directory" if engine == "vllm" else "the GGUF"
    folder = "the model's directory" if engine == "vllm" else "the GGUF's directory"
    return {
        "/tmp a small tmpfs": ["/tmp a 64k tmpfs", "/tmp a 1m tmpfs", "/tmp a 256m tmpfs (healthy control)"],
        "/tmp mount options": ["/tmp noexec", "/tmp read-only", "/tmp nosuid,nodev (healthy control)"],
        "/dev/shm a small tmpfs": [
            "/dev/shm a 64k tmpfs",
            "/dev/shm a 1m tmpfs",
            "/dev/shm a 64m tmpfs (Docker's default size)",
        ],
        "/dev/shm options or absent": [
            "/dev/shm noexec",
            "/dev/shm read-only",
            "/dev/shm absent (an empty mode-0555 directory bind-mounted read-only over it)",
        ],
        "cache directories on one small mount": [
            f"{CACHE_VARS[engine]} under one 64k tmpfs",
            f"{CACHE_VARS[engine]} under one 1m tmpfs",
            f"{CACHE_VARS[engine]} under one read-only directory",
        ],
        "model copied onto a small tmpfs": [
            f"{model} copied onto a 64k tmpfs",
            f"{model} copied onto a 1m tmpfs",
            f"{model} copied onto a 64m tmpfs (healthy control)",
        ],
        "model read-only": [
            f"{folder} a read-only bind mount",
            f"{model} copied onto a tmpfs then remounted read-only, noexec",
        ],
        "model behind a dangling symlink": [
            f"{model} given as a symlink to a path since removed",
            f"{model} given inside a directory that is a symlink to a missing mount point",
        ],
        "TMPDIR": [
            "TMPDIR a missing directory",
            "TMPDIR a read-only directory",
            "TMPDIR a 64k tmpfs",
        ],
        "working directory read-only": [
            "the working directory a read-only bind mount",
            "the working directory an empty read-only tmpfs",
        ],
        "ProtectSystem=strict": [
            "/ read-only, a fresh tmpfs on /tmp (ProtectSystem=strict, PrivateTmp=yes)",
            "/ read-only and /tmp read-only too (ProtectSystem=strict, no PrivateTmp)",
        ],
    }


# each engine's conditions and each condition's values, fixed before the draw
CONDITIONS = {
    "vllm": {
        **_shared("vllm"),
        "HOME on a small mount": ["HOME a 64k tmpfs", "HOME a read-only directory"],
    },
    "llama": {
        **_shared("llama"),
        "weights unreadable as nobody": [
            "the GGUF mode 000, llama-server as nobody",
            "the GGUF's directory mode 000, llama-server as nobody",
            "the GGUF mode 0644, llama-server as nobody (healthy control)",
        ],
        "--log-file on a full filesystem": [
            "--log-file on a 64k tmpfs",
            "--log-file on a 64k tmpfs already full",
            "--log-file in a read-only directory",
        ],
    },
}


def draws() -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str, str]]]:
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    r = random.Random(2055)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < 14:
        engine = r.choice(("vllm", "llama"))
        condition = r.choice(list(CONDITIONS[engine]))
        value = r.choice(CONDITIONS[engine][condition])
        if any((engine, condition) == (e, c) for e, c, _ in kept):
            redrawn.append((engine, condition, value, "(engine, condition) drawn before"))
        else:
            kept.append((engine, condition, value))
    return kept, redrawn


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    return {}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {' | '.join(d)}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    h = load("doctor_corpus", "doctor-corpus.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/var/tmp/fresh55/tiny"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
    wanted = set(sys.argv[1:])
    for case_id, make in makers(h, tiny, timeout).items():
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make()  # the whole log, untrimmed
        (h.OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
