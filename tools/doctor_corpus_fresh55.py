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
  maker's own less any HF_*, XDG_*, VLLM_*, TRITON_*, TORCHINDUCTOR_*, LLAMA_* and TMPDIR variable (so the value alone
  decides where files go; HOME=/root). Case directories under /var/tmp/fresh55-run/CASE.
Usage (from the repository root; ports 18950-18951 of this batch's range 18950-18999):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh55.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_per_engine,
    maker_main,
    use_ports,
)

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


def draws():
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    return draw_per_engine(2055, CONDITIONS)


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    from doctor_corpus_fresh35 import serve, shell  # fresh-35's start/wait/request/stop and `bash -c` wrapper

    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    # the maker's environment without cache/temp/engine variables, so each value alone decides where files go
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HF_", "XDG_", "VLLM_", "TRITON_", "TORCHINDUCTOR_", "LLAMA_", "TMPDIR"))
    }
    base = {**clean, **h.ENV}
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def case_dir(name: str) -> Path:
        d = TMP / name
        if d.exists():
            subprocess.run(["rm", "-rf", str(d)], check=False)
        d.mkdir(parents=True)
        return d

    def ns(script: str):
        """ARGV run after SCRIPT (the mounts) in a private mount namespace."""
        return lambda argv: ["unshare", "-m", "--propagation", "private", *shell(script, argv)]

    def vllm(script: str, model: Path | None = None, env: dict | None = None) -> str:
        m = str(model or tiny)
        argv = [*h.VLLM, m, "--port", vport, "--max-model-len", "512"]
        return serve(
            h, ns(script)(argv), int(vport), timeout, base if env is None else env, {"model": m, **chat}
        )

    def llama(script: str, model: Path | None = None, env: dict | None = None, *flags: str) -> str:
        argv = [h.LLAMA, "-m", str(model or gguf), "--port", lport, "-c", "512", *flags]
        return serve(h, ns(script)(argv), int(lport), 60, base if env is None else env, chat)

    def tmpfs(path: Path | str, size: str, opts: str = "") -> str:
        return f"mount -t tmpfs -o size={size}{',' + opts if opts else ''} tmpfs {path}"

    def rebind(path: Path | str, opts: str) -> str:
        return f"mount --bind {path} {path} && mount -o remount,bind,{opts} {path} {path}"

    def d1_vllm_caches_64k() -> str:
        d = case_dir("vllm-caches-64k")
        c = d / "cache"
        c.mkdir()
        subs = {
            "XDG_CACHE_HOME": "xdg",
            "VLLM_CACHE_ROOT": "vllm",
            "TRITON_CACHE_DIR": "triton",
            "TORCHINDUCTOR_CACHE_DIR": "inductor",
            "HF_HOME": "hf",
        }
        mk = " ".join(str(c / s) for s in subs.values())
        env = {**base, **{k: str(c / s) for k, s in subs.items()}}
        return vllm(f"{tmpfs(c, '64k')} && mkdir -p {mk}", env=env)

    def d2_llama_tmp_noexec() -> str:
        return llama(rebind("/tmp", "noexec"))

    def d3_vllm_shm_1m() -> str:
        return vllm(tmpfs("/dev/shm", "1m"))

    def d4_llama_shm_absent() -> str:
        d = case_dir("llama-shm-absent")
        e = d / "empty-shm"
        e.mkdir()
        e.chmod(0o555)
        return llama(f"mount --bind {e} /dev/shm && mount -o remount,bind,ro {e} /dev/shm")

    def d5_vllm_tmp_1m() -> str:
        return vllm(tmpfs("/tmp", "1m"))

    def d6_vllm_cwd_ro_tmpfs() -> str:
        d = case_dir("vllm-cwd-ro-tmpfs")
        w = d / "work"
        w.mkdir()
        return vllm(f"{tmpfs(w, '1m', 'ro')} && cd {w}")

    def protect_strict() -> str:
        return f"mount -o remount,bind,ro / && {tmpfs('/tmp', '256m')}"

    def d7_llama_protect_strict() -> str:
        return llama(protect_strict())

    def d8_llama_dir_symlink_dangling() -> str:
        d = case_dir("llama-dir-symlink-dangling")
        (d / "models").symlink_to("/mnt/fresh55-models")  # a mount point that is not there
        return llama("true", d / "models" / gguf.name)

    def d9_vllm_home_64k() -> str:
        d = case_dir("vllm-home-64k")
        home = d / "home"
        home.mkdir()
        return vllm(tmpfs(home, "64k"), env={**base, "HOME": str(home)})

    def d10_vllm_model_copy_64k() -> str:
        d = case_dir("vllm-model-copy-64k")
        m = d / "model"
        m.mkdir()
        return vllm(f"{tmpfs(m, '64k')} && {{ cp -r {tiny}/. {m}/ 2>/dev/null || true; }}", m)

    def d11_llama_tmpdir_ro() -> str:
        d = case_dir("llama-tmpdir-ro")
        t = d / "tmpdir"
        t.mkdir()
        return llama(rebind(t, "ro"), env={**base, "TMPDIR": str(t)})

    def d12_vllm_shm_noexec() -> str:
        return vllm("mount -o remount,bind,noexec /dev/shm")

    def d13_vllm_model_ro() -> str:
        d = case_dir("vllm-model-ro")
        m = d / "model"
        shutil.copytree(tiny, m)
        return vllm(rebind(m, "ro"), m)

    def d14_vllm_protect_strict() -> str:
        return vllm(protect_strict())

    return {
        "fresh55-vllm-cache-dirs-64k-tmpfs": d1_vllm_caches_64k,
        "fresh55-llama-tmp-noexec": d2_llama_tmp_noexec,
        "fresh55-vllm-dev-shm-1m-tmpfs": d3_vllm_shm_1m,
        "fresh55-llama-dev-shm-absent": d4_llama_shm_absent,
        "fresh55-vllm-tmp-1m-tmpfs": d5_vllm_tmp_1m,
        "fresh55-vllm-cwd-read-only-tmpfs": d6_vllm_cwd_ro_tmpfs,
        "fresh55-llama-protect-system-strict": d7_llama_protect_strict,
        "fresh55-llama-model-dir-symlink-dangling": d8_llama_dir_symlink_dangling,
        "fresh55-vllm-home-64k-tmpfs": d9_vllm_home_64k,
        "fresh55-vllm-model-copy-64k-tmpfs": d10_vllm_model_copy_64k,
        "fresh55-llama-tmpdir-read-only": d11_llama_tmpdir_ro,
        "fresh55-vllm-dev-shm-noexec": d12_vllm_shm_noexec,
        "fresh55-vllm-model-dir-read-only": d13_vllm_model_ro,
        "fresh55-vllm-protect-system-strict": d14_vllm_protect_strict,
    }


def main() -> None:
    maker_main(draws, makers, "/var/tmp/fresh55/tiny")


if __name__ == "__main__":
    main()
