"""The eighty-ninth fresh batch of doctor's corpus (batch "fresh-89"): a SECOND batch of THE LIMITS A SERVICE MANAGER OR
SHELL PUTS ON THE ENGINE PROCESS, on the real engines, drawn at random by a procedure fixed before any case ran. fresh-69
(tools/doctor_corpus_fresh69.py) drew 14 cases of this space and was learnt after scoring; this batch measures whether
that learning transfers to draws it did not see: fresh-69's conditions with OTHER values than its draws (and its
lists) used, plus what it could not draw -- RLIMIT_NPROC and RLIMIT_MEMLOCK as a non-root user (root is exempt from both:
CAP_SYS_RESOURCE / CAP_IPC_LOCK), llama-server's mlock load modes under a small memlock as nobody, and two limits
together.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2089):
  fresh-69's procedure and helpers, imported: 14 cases, tools/corpus_tools.draw_per_engine(2089, CONDITIONS):
  engine = r.choice(("vllm", "llama")); condition = r.choice(list(CONDITIONS[engine])); value =
  r.choice(CONDITIONS[engine][condition]); a repeated (engine, condition) is drawn anew (all three, same r). Values
  marked "(healthy control)" are limits expected to leave the engine healthy (about 1 in 4 values); the outcome is
  whatever happens. Limits by util-linux `prlimit --RES=SOFT:HARD --` (fresh-69's prl), `taskset -c`, `nice -n`.
  "as nobody": `setpriv --reuid=nobody --regid=nogroup --clear-groups` (fresh-69's NOBODY) after prlimit, on a copy of
  llama-server in /var/tmp/fresh89/bin and a copy of the GGUF in /var/tmp/fresh89 (both readable by nobody), HOME and the
  case directory owned by nobody. vLLM's interpreter lives under /root (mode 0700), out of nobody's reach without changing
  the machine, so vLLM has no as-nobody condition (and no NPROC / MEMLOCK one: as root neither is enforced).
  This llama-server has no --mlock flag; its `--load-mode mlock` and `--load-mode mmap+mlock` are what --mlock became.
  Engines and each case exactly as fresh-69 (its serve(): `# limits:` line, whole log, `# client:`, `# exit:`): vLLM =
  the tiny Llama (/var/tmp/fresh89/tiny, a copy of fresh-69's) through tools/doctor-corpus.py's VLLM/ENV on port 20400
  with --max-model-len 512 and its own empty compile caches, 240 s bound; llama-server 11434 `-m GGUF --port 20401 -c 512`
  (+ the value's flags), 60 s bound. One engine at a time. Case directories under /var/tmp/fresh89-run/CASE.
Usage (from the repository root; ports 20400-20401 of this batch's range 20400-20499):
  .venv/bin/python tools/doctor_corpus_fresh89.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from corpus_tools import draw_per_engine, maker_main, use_ports  # tools/ is on sys.path

use_ports(20400, "/var/tmp/fresh89/tiny-f32.gguf")  # before fresh-69's module sets its own defaults

from doctor_corpus_fresh69 import NOBODY, prl, serve  # noqa: E402  (fresh-69's helpers)

TMP = Path("/var/tmp/fresh89-run")
HERE = Path("/var/tmp/fresh89")
BIN = HERE / "bin"
K, M, G = 1024, 1024**2, 1024**3

# each engine's conditions: value -> (case-name words, command prefix, extra engine flags, run as nobody)
SPECS: dict[str, dict[str, dict[str, tuple]]] = {
    "vllm": {
        "RLIMIT_NOFILE (LimitNOFILE=)": {
            "nofile 32:32": ("nofile-32", prl(nofile=32), [], False),
            "nofile 128:128": ("nofile-128", prl(nofile=128), [], False),
            "nofile 512:512": ("nofile-512", prl(nofile=512), [], False),
            "nofile 65536:65536 (healthy control)": ("nofile-65536", prl(nofile=65536), [], False),
        },
        "RLIMIT_AS (LimitAS=)": {
            "as 1 GiB": ("as-1g", prl(**{"as": G}), [], False),
            "as 3 GiB": ("as-3g", prl(**{"as": 3 * G}), [], False),
            "as 12 GiB": ("as-12g", prl(**{"as": 12 * G}), [], False),
            "as 128 GiB (healthy control)": ("as-128g", prl(**{"as": 128 * G}), [], False),
        },
        "RLIMIT_DATA (LimitDATA=)": {
            "data 128 MiB": ("data-128m", prl(data=128 * M), [], False),
            "data 1 GiB": ("data-1g", prl(data=G), [], False),
            "data 2 GiB": ("data-2g", prl(data=2 * G), [], False),
            "data 32 GiB (healthy control)": ("data-32g", prl(data=32 * G), [], False),
        },
        "RLIMIT_STACK (LimitSTACK=)": {
            "stack 32 KiB": ("stack-32k", prl(stack=32 * K), [], False),
            "stack 128 KiB": ("stack-128k", prl(stack=128 * K), [], False),
            "stack 1 MiB": ("stack-1m", prl(stack=M), [], False),
            "stack 64 MiB (healthy control)": ("stack-64m", prl(stack=64 * M), [], False),
        },
        "RLIMIT_FSIZE (LimitFSIZE=), empty compile caches": {
            "fsize 4 KiB": ("fsize-4k", prl(fsize=4 * K), [], False),
            "fsize 256 KiB": ("fsize-256k", prl(fsize=256 * K), [], False),
            "fsize 16 MiB": ("fsize-16m", prl(fsize=16 * M), [], False),
            "fsize 4 GiB (healthy control)": ("fsize-4g", prl(fsize=4 * G), [], False),
        },
        "RLIMIT_CPU (LimitCPU=)": {
            "cpu 2 s": ("cpu-2s", prl(cpu=2), [], False),
            "cpu 15 s": ("cpu-15s", prl(cpu=15), [], False),
            "cpu 10 s soft, 20 s hard": ("cpu-10s-soft-20s-hard", prl(cpu="10:20"), [], False),
            "cpu 7200 s (healthy control)": ("cpu-7200s", prl(cpu=7200), [], False),
        },
        "two limits together": {
            "nofile 128 and as 4 GiB": ("nofile-128-as-4g", prl(nofile=128, **{"as": 4 * G}), [], False),
            "stack 128 KiB and data 2 GiB": ("stack-128k-data-2g", prl(stack=128 * K, data=2 * G), [], False),
            "cpu 20 s and fsize 1 MiB": ("cpu-20s-fsize-1m", prl(cpu=20, fsize=M), [], False),
            "nofile 4096 and data 32 GiB (healthy control)": (
                "nofile-4096-data-32g",
                prl(nofile=4096, data=32 * G),
                [],
                False,
            ),
        },
        "CPU affinity with low priority (CPUAffinity=, Nice=)": {
            "taskset -c 1 and nice -n 10 (healthy control)": (
                "taskset-cpu1-nice-10",
                ["taskset", "-c", "1", "nice", "-n", "10"],
                [],
                False,
            ),
            "taskset -c 0,1 and nice -n 5 (healthy control)": (
                "taskset-cpu01-nice-5",
                ["taskset", "-c", "0,1", "nice", "-n", "5"],
                [],
                False,
            ),
        },
    },
    "llama": {
        "RLIMIT_NOFILE (LimitNOFILE=)": {
            "nofile 4:4": ("nofile-4", prl(nofile=4), [], False),
            "nofile 6:6": ("nofile-6", prl(nofile=6), [], False),
            "nofile 12:12": ("nofile-12", prl(nofile=12), [], False),
            "nofile 64:64 (healthy control)": ("nofile-64", prl(nofile=64), [], False),
        },
        "RLIMIT_AS (LimitAS=)": {
            "as 32 MiB": ("as-32m", prl(**{"as": 32 * M}), [], False),
            "as 128 MiB": ("as-128m", prl(**{"as": 128 * M}), [], False),
            "as 512 MiB": ("as-512m", prl(**{"as": 512 * M}), [], False),
            "as 2 GiB (healthy control)": ("as-2g", prl(**{"as": 2 * G}), [], False),
        },
        "RLIMIT_DATA (LimitDATA=)": {
            "data 4 MiB": ("data-4m", prl(data=4 * M), [], False),
            "data 16 MiB": ("data-16m", prl(data=16 * M), [], False),
            "data 64 MiB": ("data-64m", prl(data=64 * M), [], False),
            "data 512 MiB (healthy control)": ("data-512m", prl(data=512 * M), [], False),
        },
        "RLIMIT_STACK (LimitSTACK=)": {
            "stack 8 KiB": ("stack-8k", prl(stack=8 * K), [], False),
            "stack 32 KiB": ("stack-32k", prl(stack=32 * K), [], False),
            "stack 128 KiB": ("stack-128k", prl(stack=128 * K), [], False),
            "stack 16 MiB (healthy control)": ("stack-16m", prl(stack=16 * M), [], False),
        },
        "RLIMIT_FSIZE (LimitFSIZE=) with --log-file": {
            "fsize 2 KiB with --log-file": (
                "fsize-2k-log-file",
                prl(fsize=2 * K),
                ["--log-file", "LOGFILE"],
                False,
            ),
            "fsize 4 KiB with --log-file": (
                "fsize-4k-log-file",
                prl(fsize=4 * K),
                ["--log-file", "LOGFILE"],
                False,
            ),
            "fsize 64 KiB with --log-file": (
                "fsize-64k-log-file",
                prl(fsize=64 * K),
                ["--log-file", "LOGFILE"],
                False,
            ),
            "fsize 64 MiB with --log-file (healthy control)": (
                "fsize-64m-log-file",
                prl(fsize=64 * M),
                ["--log-file", "LOGFILE"],
                False,
            ),
        },
        "RLIMIT_CPU (LimitCPU=)": {
            "cpu 4 s": ("cpu-4s", prl(cpu=4), [], False),
            "cpu 2 s soft, 4 s hard": ("cpu-2s-soft-4s-hard", prl(cpu="2:4"), [], False),
            "cpu 2 s with -t 2": ("cpu-2s-threads-2", prl(cpu=2), ["-t", "2"], False),
            "cpu 1200 s (healthy control)": ("cpu-1200s", prl(cpu=1200), [], False),
        },
        "RLIMIT_NPROC (LimitNPROC=) as nobody": {
            "nproc 2, as nobody": ("nobody-nproc-2", [*prl(nproc=2), *NOBODY], [], True),
            "nproc 4, as nobody": ("nobody-nproc-4", [*prl(nproc=4), *NOBODY], [], True),
            "nproc 16, as nobody": ("nobody-nproc-16", [*prl(nproc=16), *NOBODY], [], True),
            "nproc 1024, as nobody (healthy control)": (
                "nobody-nproc-1024",
                [*prl(nproc=1024), *NOBODY],
                [],
                True,
            ),
        },
        "RLIMIT_MEMLOCK (LimitMEMLOCK=) with --load-mode mlock, as nobody": {
            "memlock 0, --load-mode mlock, as nobody": (
                "nobody-mlock-memlock-0",
                [*prl(memlock=0), *NOBODY],
                ["--load-mode", "mlock"],
                True,
            ),
            "memlock 64 KiB, --load-mode mlock, as nobody": (
                "nobody-mlock-memlock-64k",
                [*prl(memlock=64 * K), *NOBODY],
                ["--load-mode", "mlock"],
                True,
            ),
            "memlock 1 MiB, --load-mode mlock, as nobody": (
                "nobody-mlock-memlock-1m",
                [*prl(memlock=M), *NOBODY],
                ["--load-mode", "mlock"],
                True,
            ),
            "memlock unlimited, --load-mode mlock, as nobody (healthy control)": (
                "nobody-mlock-memlock-unlimited",
                [*prl(memlock="unlimited:unlimited"), *NOBODY],
                ["--load-mode", "mlock"],
                True,
            ),
        },
        "RLIMIT_MEMLOCK (LimitMEMLOCK=) with --load-mode mmap+mlock, as nobody": {
            "memlock 0, --load-mode mmap+mlock, as nobody": (
                "nobody-mmap-mlock-memlock-0",
                [*prl(memlock=0), *NOBODY],
                ["--load-mode", "mmap+mlock"],
                True,
            ),
            "memlock 2 MiB, --load-mode mmap+mlock, as nobody": (
                "nobody-mmap-mlock-memlock-2m",
                [*prl(memlock=2 * M), *NOBODY],
                ["--load-mode", "mmap+mlock"],
                True,
            ),
            "memlock 8 MiB (the usual default), --load-mode mmap+mlock, as nobody": (
                "nobody-mmap-mlock-memlock-8m",
                [*prl(memlock=8 * M), *NOBODY],
                ["--load-mode", "mmap+mlock"],
                True,
            ),
            "memlock 256 MiB, --load-mode mmap+mlock, as nobody (healthy control)": (
                "nobody-mmap-mlock-memlock-256m",
                [*prl(memlock=256 * M), *NOBODY],
                ["--load-mode", "mmap+mlock"],
                True,
            ),
        },
        "two limits together": {
            "nofile 12 and nproc 4, as nobody": (
                "nobody-nofile-12-nproc-4",
                [*prl(nofile=12, nproc=4), *NOBODY],
                [],
                True,
            ),
            "as 128 MiB and stack 1 MiB": ("as-128m-stack-1m", prl(**{"as": 128 * M}, stack=M), [], False),
            "data 16 MiB and fsize 4 KiB with --log-file": (
                "data-16m-fsize-4k-log-file",
                prl(data=16 * M, fsize=4 * K),
                ["--log-file", "LOGFILE"],
                False,
            ),
            "memlock 64 KiB with --load-mode mlock and nproc 64, as nobody": (
                "nobody-mlock-memlock-64k-nproc-64",
                [*prl(memlock=64 * K, nproc=64), *NOBODY],
                ["--load-mode", "mlock"],
                True,
            ),
            "nofile 64 and cpu 900 s (healthy control)": (
                "nofile-64-cpu-900s",
                prl(nofile=64, cpu=900),
                [],
                False,
            ),
        },
        "CPU affinity with low priority (CPUAffinity=, Nice=)": {
            "taskset -c 1 with -t 4": ("taskset-cpu1-threads-4", ["taskset", "-c", "1"], ["-t", "4"], False),
            "nice -n 10 (healthy control)": ("nice-10", ["nice", "-n", "10"], [], False),
        },
    },
}

# what the draw chooses from: each engine's conditions and each condition's values, fixed before the draw
CONDITIONS = {engine: {c: list(values) for c, values in by_c.items()} for engine, by_c in SPECS.items()}


def draws():
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    return draw_per_engine(2089, CONDITIONS)


def case_id(engine: str, condition: str, value: str) -> str:
    return f"fresh89-{engine}-{SPECS[engine][condition][value][0]}"


def setup(h) -> tuple[Path, Path]:
    """Copies of fresh-69's tiny model and GGUF (and llama-server) under /var/tmp/fresh89, readable by nobody."""
    BIN.mkdir(parents=True, exist_ok=True)
    HERE.chmod(0o755)
    BIN.chmod(0o755)
    tiny, gguf = HERE / "tiny", HERE / "tiny-f32.gguf"
    if not tiny.exists():
        shutil.copytree("/var/tmp/fresh69/tiny", tiny)
    if not gguf.exists():
        shutil.copy2("/var/tmp/fresh69/tiny-f32.gguf", gguf)
    gguf.chmod(0o644)
    binary = BIN / "llama-server"
    if not binary.exists():
        shutil.copy2(h.LLAMA, binary)
    binary.chmod(0o755)
    return tiny, gguf


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (fresh-69's makers, with this batch's SPECS and paths)."""
    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    base = {**os.environ, **h.ENV}
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    tiny, gguf = setup(h)

    def case_dir(name: str) -> Path:
        d = TMP / name
        if d.exists():
            subprocess.run(["rm", "-rf", str(d)], check=False)
        d.mkdir(parents=True)
        TMP.chmod(0o755)
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
            binary = str(BIN / "llama-server")
            if nobody:
                home = d / "home"
                home.mkdir()
                os.chown(home, 65534, 65534)
                os.chown(d, 65534, 65534)
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
    maker_main(draws, makers, "/var/tmp/fresh89/tiny", vllm_timeout="240")


if __name__ == "__main__":
    main()
