"""The fifty-first fresh batch of doctor's corpus (batch "fresh-51"): THE HUGGING FACE CACHE, HUB IDS AND OFFLINE MODE
as users meet them on a machine without network, on the real engines, DRAWN AT RANDOM by a procedure fixed before any
case ran, so the batch measures doctor on what that procedure produces (earlier made-here batches drew flags
(fresh-20), mistakes around the engine (23), model files (25), requests and running-server events (31), the process
environment (35), chat templates and generation settings (38), adapters and auxiliary models (42), parallelism and
threading (46)). This machine reaches no hub (huggingface.co does not resolve): an air-gapped box, as users have them.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2051):
  14 cases, each drawn in turn: engine = r.choice(("vllm", "llama")); condition = r.choice(list(CONDITIONS[engine]));
  value = r.choice(CONDITIONS[engine][condition]). A draw whose (engine, condition) was drawn before is drawn anew (all
  three, same r). Healthy values are part of the conditions (about 1 in 4 draws).
  The cache: a fresh HF_HOME per case (under /tmp/fresh51-run/CASE/hf) in huggingface_hub's layout, built by
  build_repo(): hub/models--ORG--NAME/{blobs/<hash>, refs/main (the commit, no newline), snapshots/<commit>/FILE ->
  ../../blobs/<hash> (relative symlinks)}; a blob is named by the file's sha256 for weights (.safetensors, .gguf) and
  its git blob sha1 otherwise, as the hub's etags are. Repos: "fresh51/tiny-llama" (tests/engine/make_tiny_model.py's
  tiny Llama: config.json, generation_config.json, model.safetensors, tokenizer.json, tokenizer_config.json,
  chat_template.jinja) and "fresh51/tiny-llama-GGUF" (tests/engine/make_tiny_gguf.py's GGUF of it, as
  tiny-llama-F32.gguf). Unless a value says otherwise: vLLM gets HF_HOME = that cache and HF_HUB_OFFLINE=1 (what a
  user of an air-gapped box sets) and --model fresh51/tiny-llama; llama-server gets HF_HOME = that cache and
  -hf fresh51/tiny-llama-GGUF:F32 --offline. "no offline variable" / "without --offline" = the hub is tried, and is
  unreachable (DNS fails at once, so nothing waits on the network for minutes; were a start to hang on a hub call,
  its bound ends it and the log is what it is).
  Each case: the engine started under the condition with the flags a user would use (vLLM api_server MODEL --port P
  --max-model-len 512 [+ the value's flags]; llama-server --port P -c 512 and -hf/-m [+ the value's flags]), waited for
  until /health answers or it exits (vLLM 420 s, llama-server 60 s), then one chat request (max_tokens 8; vLLM's model
  field = the --model as given) if it answered, then SIGTERM to its process group (SIGKILL after 30 s). Case log = the
  engine's whole log (stdout and stderr together), then `# client:` and the response's status line and first 400
  bytes (as fresh-35). Environment: tools/doctor-corpus.py's ENV (VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1,
  PYTHONUNBUFFERED=1) on top of the maker's environment (which sets no HF_*, TRANSFORMERS_* or LLAMA_* variable).
  A read-only directory is the directory bind-mounted read-only onto itself in a private mount namespace
  (`unshare -m`: root is not refused writes by mode bits).
Usage (from the repository root; ports 18900-18901 of this batch's range 18900-18999):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh51.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_per_engine,
    maker_main,
    use_ports,
)

use_ports(18900, "/tmp/fresh51/tiny-f32.gguf")
TMP = Path("/tmp/fresh51-run")
REPO_ID, GGUF_REPO, GGUF_FILE = "fresh51/tiny-llama", "fresh51/tiny-llama-GGUF", "tiny-llama-F32.gguf"
NOT_CACHED, NOT_CACHED_GGUF = "Qwen/Qwen2.5-0.5B-Instruct", "ggml-org/gemma-3-1b-it-GGUF"

# each engine's conditions and each condition's values, fixed before the draw
CONDITIONS = {
    "vllm": {
        "repo id cached": [  # healthy
            "HF_HUB_OFFLINE=1, --model fresh51/tiny-llama",
            "HF_HUB_OFFLINE=1 and TRANSFORMERS_OFFLINE=1, --model fresh51/tiny-llama --revision main",
            "no offline variable (hub unreachable), --model fresh51/tiny-llama",
        ],
        "repo id not cached": [
            f"HF_HUB_OFFLINE=1, --model {NOT_CACHED}",
            f"no offline variable (hub unreachable), --model {NOT_CACHED}",
            f"TRANSFORMERS_OFFLINE=1 only (no HF_HUB_OFFLINE), --model {NOT_CACHED}",
        ],
        "revision not in refs": [
            "--revision v1.0",
            "--revision a 40-hex commit not in the cache",
            "--tokenizer-revision dev",
        ],
        "snapshot damaged": [
            "model.safetensors' blob deleted (a dangling symlink)",
            "config.json's blob deleted (a dangling symlink)",
            "model.safetensors' blob truncated to half its bytes",
            "tokenizer.json only as blobs/<sha>.incomplete (no snapshot link)",
        ],
        "refs/main broken": [
            "refs/main names a commit with no snapshot",
            "refs/main missing (the snapshot is there)",
            "refs/main empty",
        ],
        "cache location unusable": [
            "HF_HOME the cache, read-only",
            "HF_HOME a regular file",
            "HF_HUB_CACHE a regular file (HF_HOME the cache)",
        ],
        "stale lock": [
            "a stale hub/.locks/models--fresh51--tiny-llama/<sha>.lock, snapshot complete",
            "a stale .lock beside model.safetensors only as .incomplete, no offline variable (hub unreachable)",
        ],
        "--download-dir another cache": [
            "--download-dir an empty directory (HF_HOME the cache)",
            "--download-dir the cache's hub directory, HF_HOME an empty directory",
            "--download-dir a missing directory (HF_HOME the cache)",
        ],
        "repo id malformed": [
            "--model fresh51/tiny-llama/main (org/name/extra)",
            "--model fresh51/tiny-llama/ (trailing slash)",
            "--model 'fresh51/tiny llama' (a space)",
            "--model fresh51/tiny-lama (a typo)",
        ],
        "local directory named like the repo id": [
            "./fresh51/tiny-llama in the working directory, empty",
            "./fresh51/tiny-llama in the working directory, config.json only",
            "./fresh51/tiny-llama in the working directory, a full copy of the model (healthy)",
        ],
        "--tokenizer repo id": [
            f"--tokenizer {NOT_CACHED} (not cached)",
            "--tokenizer fresh51/tiny-llama (cached; healthy)",
        ],
        "--trust-remote-code": [
            "config.json's auto_map names configuration_tiny.py, absent from the snapshot",
            "config.json's auto_map names configuration_tiny.py, present (healthy)",
            "--code-revision v1.0 (not in refs), configuration_tiny.py present",
        ],
    },
    "llama": {
        "-hf cached": [  # healthy
            "-hf fresh51/tiny-llama-GGUF:F32 --offline",
            "-hf fresh51/tiny-llama-GGUF (no tag) --offline",
            "-hf fresh51/tiny-llama-GGUF:F32 without --offline (hub unreachable)",
        ],
        "-hf not cached": [
            f"-hf {NOT_CACHED_GGUF} --offline",
            f"-hf {NOT_CACHED_GGUF} without --offline (hub unreachable)",
            "HF_HOME an empty directory, -hf fresh51/tiny-llama-GGUF:F32 --offline",
        ],
        "quant tag not cached": [
            "-hf fresh51/tiny-llama-GGUF:Q4_K_M --offline",
            "-hf fresh51/tiny-llama-GGUF:Q8_0 without --offline (hub unreachable)",
        ],
        "--hf-file": [
            "-hf fresh51/tiny-llama-GGUF --hf-file tiny-llama-F32.gguf --offline (cached; healthy)",
            "-hf fresh51/tiny-llama-GGUF --hf-file tiny-llama-Q4_K_M.gguf --offline (not in the repo)",
            "-hf fresh51/tiny-llama-GGUF --hf-file tiny-llama-F32.gguf without --offline (hub unreachable)",
        ],
        "snapshot damaged": [
            "the GGUF's blob deleted (a dangling symlink)",
            "the GGUF's blob truncated to half its bytes",
            "the GGUF only as blobs/<sha>.incomplete (no snapshot link)",
        ],
        "refs/main broken": [
            "refs/main names a commit with no snapshot",
            "refs/main missing (the snapshot is there)",
        ],
        "cache location unusable": [
            "HF_HOME a regular file",
            "HF_HUB_CACHE a regular file (HF_HOME the cache)",
            "LLAMA_CACHE a regular file (HF_HOME the cache)",
            "HF_HOME the cache, read-only",
        ],
        "LLAMA_CACHE": [
            "LLAMA_CACHE the cache's hub directory, HF_HOME an empty directory",
            "LLAMA_CACHE an empty directory, HF_HOME the cache",
        ],
        "repo id malformed": [
            "-hf fresh51/tiny-llama-GGUF/:F32 (trailing slash)",
            "-hf fresh51/tiny-llama-GGUF/main:F32 (org/name/extra)",
            "-hf 'fresh51/tiny llama-GGUF:F32' (a space)",
            "-hf fresh51/tiny-lama-GGUF:F32 (a typo)",
        ],
        "-m given a repo id": [
            "-m fresh51/tiny-llama-GGUF (no such local path)",
            "-m fresh51/tiny-llama-GGUF, a local directory of that name in the working directory",
            "-m the cached snapshot's tiny-llama-F32.gguf path (healthy)",
        ],
        "download left unfinished": [
            "a stale <blob>.downloadInProgress beside the complete cached GGUF, --offline",
            "the GGUF only as <blob>.downloadInProgress, without --offline (hub unreachable)",
        ],
        "draft from the hub": [
            "-hfd fresh51/tiny-llama-GGUF:F32 (cached) --offline",
            f"-hfd {NOT_CACHED_GGUF} (not cached) --offline",
        ],
    },
}


def draws():
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    return draw_per_engine(2051, CONDITIONS)


def git_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def commit_of(repo_id: str, tag: str = "") -> str:
    """A fixed 40-hex commit per repo (what refs/main names)."""
    return hashlib.sha1(f"{repo_id}@{tag}".encode()).hexdigest()


def build_repo(hub: Path, repo_id: str, files: dict[str, Path]) -> Path:
    """huggingface_hub's cache layout for REPO_ID holding FILES (name -> source); returns the snapshot directory."""
    repo = hub / ("models--" + repo_id.replace("/", "--"))
    commit = commit_of(repo_id)
    snap = repo / "snapshots" / commit
    (repo / "blobs").mkdir(parents=True, exist_ok=True)
    (repo / "refs").mkdir(exist_ok=True)
    snap.mkdir(parents=True, exist_ok=True)
    for name, src in files.items():
        data = src.read_bytes()
        blob = (
            hashlib.sha256(data).hexdigest() if name.endswith((".safetensors", ".gguf")) else git_sha1(data)
        )
        (repo / "blobs" / blob).write_bytes(data)
        link = snap / name
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(repo / "blobs" / blob, link.parent))
    (repo / "refs" / "main").write_text(commit)
    return snap


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    from doctor_corpus_fresh35 import serve, shell  # fresh-35's start/wait/request/stop and `bash -c` wrapper

    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HF_", "HUGGINGFACE", "TRANSFORMERS_", "LLAMA_"))
    }
    base = {**clean, **h.ENV}
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def caches(d: Path) -> tuple[Path, Path, Path]:
        """HF_HOME with both repos cached; the tiny Llama's and the GGUF's snapshot directories."""
        hf = d / "hf"
        snap = build_repo(hf / "hub", REPO_ID, {f.name: f for f in sorted(tiny.iterdir()) if f.is_file()})
        gsnap = build_repo(hf / "hub", GGUF_REPO, {GGUF_FILE: gguf})
        return hf, snap, gsnap

    def vllm(model: str, flags: list[str], env: dict, wrap=None) -> str:
        argv = [*h.VLLM, model, "--port", vport, "--max-model-len", "512", *flags]
        body = {"model": model, **chat}
        return serve(h, wrap(argv) if wrap else argv, int(vport), timeout, env, body)

    def llama(flags: list[str], env: dict, wrap=None) -> str:
        argv = [h.LLAMA, "--port", lport, "-c", "512", *flags]
        return serve(h, wrap(argv) if wrap else argv, int(lport), 60, env, chat)

    def read_only(path: Path):
        """ARGV run with PATH bind-mounted read-only onto itself in a private mount namespace."""
        mount = f"mount --bind {path} {path} && mount -o remount,bind,ro {path} {path}"
        return lambda argv: ["unshare", "-m", *shell(mount, argv)]

    def blob_of(snap: Path, name: str) -> Path:
        return (snap / name).resolve()

    def d1_stale_lock_incomplete() -> str:
        d = case_dir("vllm-stale-lock")
        hf, snap, _ = caches(d)
        blob = blob_of(snap, "model.safetensors")
        (snap / "model.safetensors").unlink()
        blob.rename(blob.with_name(blob.name + ".incomplete"))
        locks = hf / "hub" / ".locks" / ("models--" + REPO_ID.replace("/", "--"))
        locks.mkdir(parents=True)
        (locks / (blob.name + ".lock")).touch()
        old = time.time() - 6 * 3600  # left by a download killed hours ago
        os.utime(locks / (blob.name + ".lock"), (old, old))
        return vllm(REPO_ID, [], {**base, "HF_HOME": str(hf)})

    def d2_hf_not_cached() -> str:
        hf, _, _ = caches(case_dir("llama-hf-not-cached"))
        return llama(["-hf", NOT_CACHED_GGUF, "--offline"], {**base, "HF_HOME": str(hf)})

    def d3_repo_typo() -> str:
        hf, _, _ = caches(case_dir("vllm-repo-typo"))
        return vllm("fresh51/tiny-lama", [], {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"})

    def d4_remote_code_absent() -> str:
        hf, snap, _ = caches(case_dir("vllm-remote-code-absent"))
        cfg = json.loads((snap / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        new = snap.parent.parent / "blobs" / "config-with-auto-map"
        new.write_text(json.dumps(cfg, indent=2))
        blob = blob_of(snap, "config.json")
        (snap / "config.json").unlink()
        blob.unlink()
        data = new.read_bytes()
        new.rename(blob.with_name(git_sha1(data)))
        (snap / "config.json").symlink_to(os.path.relpath(blob.with_name(git_sha1(data)), snap))
        env = {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"}
        return vllm(REPO_ID, ["--trust-remote-code"], env)

    def d5_local_dir_full_copy() -> str:
        d = case_dir("vllm-local-dir")
        hf, _, _ = caches(d)
        work = d / "work"
        shutil.copytree(tiny, work / REPO_ID)
        env = {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"}
        return vllm(REPO_ID, [], env, lambda a: shell(f"cd {work}", a))

    def d6_llama_cache_empty() -> str:
        d = case_dir("llama-cache-empty")
        hf, _, _ = caches(d)
        (d / "llama-cache").mkdir()
        env = {**base, "HF_HOME": str(hf), "LLAMA_CACHE": str(d / "llama-cache")}
        return llama(["-hf", f"{GGUF_REPO}:F32", "--offline"], env)

    def d7_draft_not_cached() -> str:
        hf, _, _ = caches(case_dir("llama-hfd-not-cached"))
        flags = ["-hf", f"{GGUF_REPO}:F32", "--offline", "-hfd", NOT_CACHED_GGUF]
        return llama(flags, {**base, "HF_HOME": str(hf)})

    def d8_hf_home_read_only() -> str:
        hf, _, _ = caches(case_dir("llama-hf-home-ro"))
        flags = ["-hf", f"{GGUF_REPO}:F32", "--offline"]
        return llama(flags, {**base, "HF_HOME": str(hf)}, read_only(hf))

    def d9_download_dir_missing() -> str:
        d = case_dir("vllm-download-dir-missing")
        hf, _, _ = caches(d)
        env = {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"}
        return vllm(REPO_ID, ["--download-dir", str(d / "missing" / "models")], env)

    def d10_cached_healthy() -> str:
        hf, _, _ = caches(case_dir("vllm-cached-revision-main"))
        env = {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        return vllm(REPO_ID, ["--revision", "main"], env)

    def d11_hf_file_cached() -> str:
        hf, _, _ = caches(case_dir("llama-hf-file-cached"))
        flags = ["-hf", GGUF_REPO, "--hf-file", GGUF_FILE, "--offline"]
        return llama(flags, {**base, "HF_HOME": str(hf)})

    def d12_refs_main_empty() -> str:
        hf, snap, _ = caches(case_dir("vllm-refs-main-empty"))
        (snap.parent.parent / "refs" / "main").write_text("")
        return vllm(REPO_ID, [], {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"})

    def d13_download_in_progress() -> str:
        hf, _, gsnap = caches(case_dir("llama-download-in-progress"))
        blob = blob_of(gsnap, GGUF_FILE)
        (gsnap / GGUF_FILE).unlink()
        blob.rename(blob.with_name(blob.name + ".downloadInProgress"))
        return llama(["-hf", f"{GGUF_REPO}:F32"], {**base, "HF_HOME": str(hf)})

    def d14_tokenizer_not_cached() -> str:
        hf, _, _ = caches(case_dir("vllm-tokenizer-not-cached"))
        env = {**base, "HF_HOME": str(hf), "HF_HUB_OFFLINE": "1"}
        return vllm(REPO_ID, ["--tokenizer", NOT_CACHED], env)

    return {
        "fresh51-vllm-stale-lock-incomplete-weights": d1_stale_lock_incomplete,
        "fresh51-llama-hf-repo-not-cached-offline": d2_hf_not_cached,
        "fresh51-vllm-repo-id-typo-offline": d3_repo_typo,
        "fresh51-vllm-remote-code-file-absent": d4_remote_code_absent,
        "fresh51-vllm-local-dir-like-repo-id": d5_local_dir_full_copy,
        "fresh51-llama-llama-cache-empty-dir": d6_llama_cache_empty,
        "fresh51-llama-hf-draft-not-cached": d7_draft_not_cached,
        "fresh51-llama-hf-home-read-only": d8_hf_home_read_only,
        "fresh51-vllm-download-dir-missing": d9_download_dir_missing,
        "fresh51-vllm-offline-revision-main": d10_cached_healthy,
        "fresh51-llama-hf-file-cached-offline": d11_hf_file_cached,
        "fresh51-vllm-refs-main-empty": d12_refs_main_empty,
        "fresh51-llama-gguf-download-in-progress": d13_download_in_progress,
        "fresh51-vllm-tokenizer-repo-not-cached": d14_tokenizer_not_cached,
    }


def main() -> None:
    maker_main(draws, makers, "/tmp/fresh51/tiny")


if __name__ == "__main__":
    main()
