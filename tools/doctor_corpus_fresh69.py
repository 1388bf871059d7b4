"""The sixty-ninth fresh batch of doctor's corpus (batch "fresh-69"): THE LIMITS A SERVICE MANAGER OR SHELL PUTS ON THE
ENGINE PROCESS (a systemd unit's Limit*= lines, `ulimit` in a wrapper script, a container's defaults), on the real
engines, DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch measures doctor on what that procedure
produces (earlier made-here batches drew flags, the process environment, filesystems and mounts (fresh-55), ...).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2069):
  14 cases, each drawn in turn (tools/corpus_tools.draw_per_engine): engine = r.choice(("vllm", "llama")); condition =
  r.choice(list(CONDITIONS[engine])); value = r.choice(CONDITIONS[engine][condition]). A draw whose (engine, condition)
  was drawn before is drawn anew (all three, same r). Values marked "(healthy control)" are limits set high enough (or
  settings) expected to leave the engine healthy; the outcome is whatever happens.
  Every limit is a real kernel limit, applied by util-linux `prlimit --RESOURCE=SOFT:HARD -- CMD` (sizes in bytes), or
  `taskset -c CPU`, `nice -n 19`, `ionice -c 3` as a command prefix; the engine is exec'd under it. RLIMIT_NPROC is only
  enforced for a non-root user, so that condition runs llama-server as nobody: `prlimit --nproc=N:N -- setpriv
  --reuid=nobody --regid=nogroup --clear-groups BIN`, BIN a copy of llama-server in /var/tmp/fresh69/bin (nobody cannot
  reach /root), HOME a case directory owned by nobody. (vLLM's interpreter lives under /root, mode 0700, which nobody
  cannot reach without changing the machine: vLLM has no RLIMIT_NPROC condition.)
  Engines: vLLM = the tiny Llama of tests/engine/make_tiny_model.py (/var/tmp/fresh69/tiny) through `python -m
  vllm.entrypoints.openai.api_server --model TINY --port 19400 --max-model-len 512` (tools/doctor-corpus.py's VLLM and
  ENV: VLLM_CPU_KVCACHE_SPACE=1 VLLM_NO_USAGE_STATS=1 PYTHONUNBUFFERED=1), every vLLM case with its own empty compile
  caches (VLLM_CACHE_ROOT, TORCHINDUCTOR_CACHE_DIR, TRITON_CACHE_DIR and XDG_CACHE_HOME under its case directory), so
  each start compiles and writes its caches as a first start does; llama-server 11434 = `llama-server -m GGUF --port
  19401 -c 512` (+ the flags a value names) on tests/engine/make_tiny_gguf.py's GGUF (/var/tmp/fresh69/tiny-f32.gguf).
  Each case: start under the limit, wait until /health answers or the process exits (vLLM 240 s, llama-server 60 s),
  one chat request (max_tokens 8) if it answered, then SIGTERM to its process group (SIGKILL after 30 s). Case log =
  the first line `# limits: PREFIX` (the command prefix, shell-quoted), then the engine's whole log (stdout and stderr
  together), then `# client:` lines (the response's status line and first 400 bytes, or why no request was sent) and
  `# exit:` with the exit status or signal (and whether the maker had sent SIGTERM). One engine at a time.
  Case directories under /var/tmp/fresh69-run/CASE.
Usage (from the repository root; ports 19400-19401 of this batch's range 19400-19499):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh69.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_per_engine,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19400, "/var/tmp/fresh69/tiny-f32.gguf")
TMP = Path("/var/tmp/fresh69-run")
BIN = Path("/var/tmp/fresh69/bin")
K, M, G = 1024, 1024**2, 1024**3


def prl(**limits: str | int) -> list[str]:
    """`prlimit --RES=SOFT:HARD ... --` (an int: soft = hard)."""
    return [
        "prlimit",
        *(f"--{k}={v}:{v}" if isinstance(v, int) else f"--{k}={v}" for k, v in limits.items()),
        "--",
    ]


NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

# each engine's conditions: value -> (case-name words, command prefix, extra engine flags, run as nobody)
SPECS: dict[str, dict[str, dict[str, tuple]]] = {
    "vllm": {
        "RLIMIT_NOFILE (LimitNOFILE=)": {
            "nofile 16:16": ("nofile-16", prl(nofile=16), [], False),
            "nofile 64:64": ("nofile-64", prl(nofile=64), [], False),
            "nofile 256:256": ("nofile-256", prl(nofile=256), [], False),
            "nofile 1024 soft, 524288 hard (systemd's default; healthy control)": (
                "nofile-1024-soft",
                prl(nofile="1024:524288"),
                [],
                False,
            ),
        },
        "RLIMIT_AS (LimitAS=)": {
            "as 2 GiB": ("as-2g", prl(**{"as": 2 * G}), [], False),
            "as 6 GiB": ("as-6g", prl(**{"as": 6 * G}), [], False),
            "as 64 GiB (healthy control)": ("as-64g", prl(**{"as": 64 * G}), [], False),
        },
        "RLIMIT_DATA (LimitDATA=)": {
            "data 512 MiB": ("data-512m", prl(data=512 * M), [], False),
            "data 3 GiB": ("data-3g", prl(data=3 * G), [], False),
            "data 64 GiB (healthy control)": ("data-64g", prl(data=64 * G), [], False),
        },
        "RLIMIT_STACK (LimitSTACK=)": {
            "stack 16 KiB": ("stack-16k", prl(stack=16 * K), [], False),
            "stack 256 KiB": ("stack-256k", prl(stack=256 * K), [], False),
            "stack 8 MiB (the usual default; healthy control)": ("stack-8m", prl(stack=8 * M), [], False),
        },
        "RLIMIT_FSIZE (LimitFSIZE=), empty compile caches": {
            "fsize 0": ("fsize-0", prl(fsize=0), [], False),
            "fsize 64 KiB": ("fsize-64k", prl(fsize=64 * K), [], False),
            "fsize 1 MiB": ("fsize-1m", prl(fsize=M), [], False),
            "fsize 256 MiB (healthy control)": ("fsize-256m", prl(fsize=256 * M), [], False),
        },
        "RLIMIT_CPU (LimitCPU=)": {
            "cpu 5 s": ("cpu-5s", prl(cpu=5), [], False),
            "cpu 30 s": ("cpu-30s", prl(cpu=30), [], False),
            "cpu 3600 s (healthy control)": ("cpu-3600s", prl(cpu=3600), [], False),
        },
        "RLIMIT_MEMLOCK (LimitMEMLOCK=)": {
            "memlock 0": ("memlock-0", prl(memlock=0), [], False),
            "memlock 64 KiB": ("memlock-64k", prl(memlock=64 * K), [], False),
            "memlock 8 MiB (healthy control)": ("memlock-8m", prl(memlock=8 * M), [], False),
        },
        "RLIMIT_CORE (LimitCORE=)": {
            "core 0 (healthy control)": ("core-0", prl(core=0), [], False),
            "core unlimited (healthy control)": (
                "core-unlimited",
                prl(core="unlimited:unlimited"),
                [],
                False,
            ),
        },
        "one CPU (taskset, CPUAffinity=)": {
            "taskset -c 0": ("taskset-cpu0", ["taskset", "-c", "0"], [], False),
            "taskset -c 1": ("taskset-cpu1", ["taskset", "-c", "1"], [], False),
        },
        "low priority (nice, Nice=, IOSchedulingClass=)": {
            "nice -n 19": ("nice-19", ["nice", "-n", "19"], [], False),
            "ionice -c 3 and nice -n 19": (
                "ionice-idle-nice-19",
                ["ionice", "-c", "3", "nice", "-n", "19"],
                [],
                False,
            ),
        },
        "a hardened unit's Limit*= lines together": {
            "nofile 1024, nproc 512, core 0, memlock 64 KiB (healthy control)": (
                "unit-limits-mild",
                prl(nofile=1024, nproc=512, core=0, memlock=64 * K),
                [],
                False,
            ),
            "nofile 64, as 4 GiB, stack 256 KiB": (
                "unit-limits-tight",
                prl(nofile=64, **{"as": 4 * G}, stack=256 * K),
                [],
                False,
            ),
        },
    },
    "llama": {
        "RLIMIT_NOFILE (LimitNOFILE=)": {
            "nofile 8:8": ("nofile-8", prl(nofile=8), [], False),
            "nofile 16:16": ("nofile-16", prl(nofile=16), [], False),
            "nofile 256:256 (healthy control)": ("nofile-256", prl(nofile=256), [], False),
        },
        "RLIMIT_AS (LimitAS=)": {
            "as 64 MiB": ("as-64m", prl(**{"as": 64 * M}), [], False),
            "as 256 MiB": ("as-256m", prl(**{"as": 256 * M}), [], False),
            "as 4 GiB (healthy control)": ("as-4g", prl(**{"as": 4 * G}), [], False),
        },
        "RLIMIT_DATA (LimitDATA=)": {
            "data 8 MiB": ("data-8m", prl(data=8 * M), [], False),
            "data 32 MiB": ("data-32m", prl(data=32 * M), [], False),
            "data 1 GiB (healthy control)": ("data-1g", prl(data=G), [], False),
        },
        "RLIMIT_STACK (LimitSTACK=)": {
            "stack 16 KiB": ("stack-16k", prl(stack=16 * K), [], False),
            "stack 64 KiB": ("stack-64k", prl(stack=64 * K), [], False),
            "stack 8 MiB (the usual default; healthy control)": ("stack-8m", prl(stack=8 * M), [], False),
        },
        "RLIMIT_FSIZE (LimitFSIZE=)": {
            "fsize 0 with --log-file": ("fsize-0-log-file", prl(fsize=0), ["--log-file", "LOGFILE"], False),
            "fsize 16 KiB with --log-file": (
                "fsize-16k-log-file",
                prl(fsize=16 * K),
                ["--log-file", "LOGFILE"],
                False,
            ),
            "fsize 1 KiB, no --log-file (healthy control)": ("fsize-1k", prl(fsize=K), [], False),
        },
        "RLIMIT_CPU (LimitCPU=)": {
            "cpu 1 s": ("cpu-1s", prl(cpu=1), [], False),
            "cpu 3 s": ("cpu-3s", prl(cpu=3), [], False),
            "cpu 600 s (healthy control)": ("cpu-600s", prl(cpu=600), [], False),
        },
        "RLIMIT_MEMLOCK (LimitMEMLOCK=) with --load-mode mlock": {
            "memlock 0, --load-mode mlock": (
                "mlock-memlock-0",
                prl(memlock=0),
                ["--load-mode", "mlock"],
                False,
            ),
            "memlock 64 KiB, --load-mode mlock": (
                "mlock-memlock-64k",
                prl(memlock=64 * K),
                ["--load-mode", "mlock"],
                False,
            ),
            "memlock unlimited, --load-mode mlock (healthy control)": (
                "mlock-memlock-unlimited",
                prl(memlock="unlimited:unlimited"),
                ["--load-mode", "mlock"],
                False,
            ),
        },
        "RLIMIT_CORE (LimitCORE=)": {
            "core 0 (healthy control)": ("core-0", prl(core=0), [], False),
            "core unlimited (healthy control)": (
                "core-unlimited",
                prl(core="unlimited:unlimited"),
                [],
                False,
            ),
        },
        "one CPU (taskset, CPUAffinity=)": {
            "taskset -c 0": ("taskset-cpu0", ["taskset", "-c", "0"], [], False),
            "taskset -c 0 with -t 8": ("taskset-cpu0-threads-8", ["taskset", "-c", "0"], ["-t", "8"], False),
        },
        "low priority (nice, Nice=, IOSchedulingClass=)": {
            "nice -n 19": ("nice-19", ["nice", "-n", "19"], [], False),
            "ionice -c 3 and nice -n 19": (
                "ionice-idle-nice-19",
                ["ionice", "-c", "3", "nice", "-n", "19"],
                [],
                False,
            ),
        },
        "RLIMIT_NPROC (LimitNPROC=) as nobody": {
            "nproc 1, as nobody": ("nobody-nproc-1", [*prl(nproc=1), *NOBODY], [], True),
            "nproc 8, as nobody": ("nobody-nproc-8", [*prl(nproc=8), *NOBODY], [], True),
            "nproc 256, as nobody (healthy control)": (
                "nobody-nproc-256",
                [*prl(nproc=256), *NOBODY],
                [],
                True,
            ),
        },
        "a hardened unit's Limit*= lines together": {
            "nofile 1024, nproc 512, core 0, memlock 64 KiB (healthy control)": (
                "unit-limits-mild",
                prl(nofile=1024, nproc=512, core=0, memlock=64 * K),
                [],
                False,
            ),
            "nofile 16, as 256 MiB, stack 64 KiB": (
                "unit-limits-tight",
                prl(nofile=16, **{"as": 256 * M}, stack=64 * K),
                [],
                False,
            ),
        },
    },
}

# what the draw chooses from: each engine's conditions and each condition's values, fixed before the draw
CONDITIONS = {engine: {c: list(values) for c, values in by_c.items()} for engine, by_c in SPECS.items()}


def draws():
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    return draw_per_engine(2069, CONDITIONS)


def case_id(engine: str, condition: str, value: str) -> str:
    return f"fresh69-{engine}-{SPECS[engine][condition][value][0]}"


def exit_line(proc: subprocess.Popen, stopped: bool) -> str:
    rc = proc.returncode
    by = " (after the maker's SIGTERM)" if stopped else " (before the maker stopped it)"
    if rc is None:
        return "# exit: still running\n"
    if rc < 0:
        return f"# exit: signal {-rc} ({signal.Signals(-rc).name}){by}\n"
    return f"# exit: status {rc}{by}\n"


def serve(h, prefix: list[str], argv: list[str], port: int, timeout: float, env: dict, body: dict) -> str:
    """`# limits:`, then PREFIX+ARGV's whole log, `# client:` and `# exit:` (fresh-35's serve, with those lines)."""
    from doctor_corpus_fresh35 import client  # `# client:`, the status line, the body's first 400 bytes

    with tempfile.TemporaryFile() as log:
        log.write(f"# limits: {shlex.join(prefix)}\n".encode())
        log.flush()
        proc = subprocess.Popen(
            [*prefix, *argv], stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        answer, deadline, up = "", time.monotonic() + timeout, False
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    up = True
                    time.sleep(1)
                    answer = client(f"http://127.0.0.1:{port}/v1/chat/completions", body)
                    time.sleep(2)
                    break
        finally:
            stopped = proc.poll() is None
            stop_group(proc, grace=30)
        if not up:
            why = "it exited" if not stopped else f"/health did not answer within {timeout:.0f} s"
            answer = f"# client:\nno request sent: {why}\n"
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        text += ("\n" if text and not text.endswith("\n") else "") + answer
        return text + exit_line(proc, stopped)


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order."""
    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    base = {**os.environ, **h.ENV}
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def case_dir(name: str) -> Path:
        d = TMP / name
        if d.exists():
            subprocess.run(["rm", "-rf", str(d)], check=False)
        d.mkdir(parents=True)
        return d

    def one(engine: str, condition: str, value: str):
        words, prefix, flags, nobody = SPECS[engine][condition][value]
        name = f"{engine}-{words}"

        def make() -> str:
            d = case_dir(name)
            if engine == "vllm":
                caches = {
                    "VLLM_CACHE_ROOT": "vllm",
                    "TORCHINDUCTOR_CACHE_DIR": "inductor",
                    "TRITON_CACHE_DIR": "triton",
                    "XDG_CACHE_HOME": "xdg",
                }
                env = {**base, **{k: str(d / "cache" / s) for k, s in caches.items()}}
                argv = [*h.VLLM, str(tiny), "--port", vport, "--max-model-len", "512", *flags]
                return serve(h, prefix, argv, int(vport), timeout, env, {"model": str(tiny), **chat})
            env = dict(base)
            binary = h.LLAMA
            if nobody:
                BIN.mkdir(parents=True, exist_ok=True)
                binary = str(BIN / "llama-server")
                if not Path(binary).exists():
                    shutil.copy2(h.LLAMA, binary)
                    os.chmod(binary, 0o755)
                home = d / "home"
                home.mkdir()
                os.chown(home, 65534, 65534)
                d.chmod(0o755)
                env["HOME"] = str(home)
            flags2 = [str(d / "llama.log") if f == "LOGFILE" else f for f in flags]
            argv = [binary, "-m", str(gguf), "--port", lport, "-c", "512", *flags2]
            text = serve(h, prefix, argv, int(lport), 60, env, chat)
            logfile = d / "llama.log"
            if logfile.exists():  # said on the maker's output, not in the case log
                print(f"{name}: --log-file {logfile} holds {logfile.stat().st_size} bytes", flush=True)
            return text

        return make

    kept, _ = draws()
    return {case_id(*d): one(*d) for d in kept}


def main() -> None:
    maker_main(draws, makers, "/var/tmp/fresh69/tiny", vllm_timeout="240")


if __name__ == "__main__":
    main()
