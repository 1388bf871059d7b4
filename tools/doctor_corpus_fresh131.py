"""The 131st fresh batch of doctor's corpus (batch "fresh-131", made here): TWO LLAMA-SERVER OPTIONS THAT ACT ON EACH
OTHER, each with a value valid alone, on the real llama-server (.llama-cpp/bin, llama.cpp 11434.0.0).

fresh-127 drew pairs from the whole --help and 12 of 14 were healthy (most options sit unused unless another is set).
This batch draws pairs INSIDE groups of options that act on each other (GROUPS below, written from the help text and
what llama.cpp's common/arg.cpp, tools/server/*.cpp, src/llama-context.cpp and src/llama-kv-cache*.cpp do with them),
each option with ONE value its help accepts alone, fixed here before the draw was printed. Left out: the removed
options (--spec-ngram-size-n/-m, --spec-ngram-min-hits, --draft-max/-min: their handler refuses any value), options
the help no longer lists (--mlock, --no-mmap, -cd: -lm/--load-mode took their place), --help/--version/--list-devices,
and --ssl-key-file/--ssl-cert-file (whether either is accepted alone depends on the build's SSL support, which could
not be judged without running it).
Procedure (fixed and committed before any case ran): CONDITIONS = {"GROUP: FIRST": [every other option of GROUP]};
draw_distinct_conditions(2131, CONDITIONS, 14): r = random.Random(2131), condition = r.choice(list(CONDITIONS)) (a group
weighted by its option count, and its first option), second = r.choice(its list); a condition drawn before is drawn anew.
Each case: llama-server -m TINY --port 18721 plus the pair's arguments (TINY = tests/engine/make_tiny_gguf.py's F32
GGUF of tests/engine/make_tiny_model.py's model, in /tmp/fresh131; no -c unless drawn: the model's 2048), waited for
until /health answers or it exits (120 s); if it answered, ONE request that exercises the pair where it can (request()),
then SIGTERM (SIGKILL after 20 s). Case log = `$ ` and the command, the server's whole stdout+stderr, then a line
`# request: METHOD PATH BODY` and the reply's status line and first 600 bytes of its body. One server at a time.
Ports 18720-18739.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh131.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 18721
use_ports(18720, "/tmp/fresh131/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh131")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"
TEMPLATE_FILE = WORK / "chat-template.jinja"
STATIC_DIR = WORK / "static"

# group -> option -> the arguments of that option with its one value (accepted alone, judged from the help and source)
GROUPS: dict[str, dict[str, list[str]]] = {
    "context and slots": {
        "--ctx-size": ["--ctx-size", "128"],
        "--parallel": ["--parallel", "8"],
        "--kv-unified": ["--kv-unified"],
        "--n-predict": ["--n-predict", "16"],
        "--keep": ["--keep", "32"],
        "--ctx-checkpoints": ["--ctx-checkpoints", "0"],
        "--kv-unified-per-slot": ["--kv-unified-per-slot", "64"],
    },
    "batching": {
        "--batch-size": ["--batch-size", "64"],
        "--ubatch-size": ["--ubatch-size", "128"],
        "--no-cont-batching": ["--no-cont-batching"],
    },
    "kv cache": {
        "--cache-type-k": ["--cache-type-k", "q8_0"],
        "--cache-type-v": ["--cache-type-v", "q4_0"],
        "--flash-attn": ["--flash-attn", "off"],
        "--swa-full": ["--swa-full"],
        "--no-kv-offload": ["--no-kv-offload"],
        "--cache-reuse": ["--cache-reuse", "256"],
    },
    "rope/yarn": {
        "--rope-scaling": ["--rope-scaling", "yarn"],
        "--rope-freq-base": ["--rope-freq-base", "500000"],
        "--rope-scale": ["--rope-scale", "4"],
        "--yarn-orig-ctx": ["--yarn-orig-ctx", "4096"],
        "--yarn-ext-factor": ["--yarn-ext-factor", "1.0"],
        "--yarn-attn-factor": ["--yarn-attn-factor", "1.0"],
        "--ctx-size": ["--ctx-size", "8192"],
    },
    "sampling": {
        "--samplers": ["--samplers", "min_p;temperature"],
        "--sampling-seq": ["--sampling-seq", "kt"],
        "--top-k": ["--top-k", "0"],
        "--min-p": ["--min-p", "0.2"],
        "--mirostat": ["--mirostat", "2"],
        "--dry-multiplier": ["--dry-multiplier", "0.8"],
        "--dry-allowed-length": ["--dry-allowed-length", "4"],
    },
    "speculative": {
        "--model-draft": ["--model-draft", str(TINY_GGUF)],
        "--spec-draft-n-max": ["--spec-draft-n-max", "8"],
        "--spec-draft-n-min": ["--spec-draft-n-min", "4"],
        "--spec-type": ["--spec-type", "ngram-simple"],
        "--spec-draft-p-min": ["--spec-draft-p-min", "0.5"],
        "--spec-default": ["--spec-default"],
    },
    "embeddings/rerank": {
        "--embedding": ["--embedding"],
        "--pooling": ["--pooling", "last"],
        "--reranking": ["--reranking"],
        "--ubatch-size": ["--ubatch-size", "8"],
        "--ctx-size": ["--ctx-size", "64"],
    },
    "templates": {
        "--no-jinja": ["--no-jinja"],
        "--chat-template": ["--chat-template", "chatml"],
        "--chat-template-file": ["--chat-template-file", str(TEMPLATE_FILE)],
        "--reasoning-format": ["--reasoning-format", "deepseek"],
        "--reasoning-budget": ["--reasoning-budget", "0"],
    },
    "threads and memory": {
        "--threads": ["--threads", "2"],
        "--threads-batch": ["--threads-batch", "1"],
        "--load-mode": ["--load-mode", "mlock"],
        "--numa": ["--numa", "distribute"],
    },
    "server": {
        "--host": ["--host", "0.0.0.0"],
        "--port": ["--port", "18722"],
        "--path": ["--path", str(STATIC_DIR)],
        "--api-prefix": ["--api-prefix", "/llama"],
        "--api-key": ["--api-key", "fresh131-key"],
        "--timeout": ["--timeout", "1"],
        "--metrics": ["--metrics"],
        "--no-slots": ["--no-slots"],
        "--props": ["--props"],
    },
}

CONDITIONS = {
    f"{group}: {first}": [second for second in options if second != first]
    for group, options in GROUPS.items()
    for first in options
}

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"


def draws():
    return draw_distinct_conditions(2131, CONDITIONS, 14)


def slug(option: str) -> str:
    return option.lstrip("-")


def concrete() -> dict[str, list[str]]:
    """Each kept draw's case id and arguments (first option's, then second's), in draw order."""
    kept, _ = draws()
    cases = {}
    for condition, second in kept:
        group, first = condition.split(": ", 1)
        case_id = f"fresh131-llama-{slug(first)}-{slug(second)}"
        cases[case_id] = [*GROUPS[group][first], *GROUPS[group][second]]
    return cases


def value(flags: list[str], option: str) -> str | None:
    return flags[flags.index(option) + 1] if option in flags else None


def request(flags: list[str]) -> tuple[str, str, dict | None]:
    """The one request that exercises the pair where it can: an embedding for --embedding (or --pooling), a rerank for
    --reranking, a chat for a template option, a GET of /metrics or /props or /slots for those server options,
    otherwise a completion (n_predict 8 unless -n was drawn: then the server's own limit)."""
    prefix = value(flags, "--api-prefix") or ""
    if "--embedding" in flags or "--pooling" in flags:
        return "POST", f"{prefix}/embedding", {"content": PROMPT}
    if "--reranking" in flags:
        return "POST", f"{prefix}/rerank", {"query": "fox", "documents": [PROMPT, "a dog"]}
    if any(o in flags for o in GROUPS["templates"]):
        return (
            "POST",
            f"{prefix}/v1/chat/completions",
            {"messages": [{"role": "user", "content": "Hello, who are you?"}], "max_tokens": 8},
        )
    for option, path in (("--metrics", "/metrics"), ("--props", "/props"), ("--no-slots", "/slots")):
        if option in flags:
            return "GET", f"{prefix}{path}", None
    body: dict = {"prompt": PROMPT}
    if "--n-predict" not in flags:
        body["n_predict"] = 8
    return "POST", f"{prefix}/completion", body


def healthy(port: int, prefix: str) -> bool:
    for path in {f"{prefix}/health", "/health"}:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
                if r.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
    return False


def send(port: int, flags: list[str]) -> str:
    method, path, body = request(flags)
    headers = {"Content-Type": "application/json"}
    if "--api-key" in flags:
        headers["Authorization"] = f"Bearer {value(flags, '--api-key')}"
    data = json.dumps(body).encode() if body is not None else None
    line = f"# request: {method} {path} {json.dumps(body) if body is not None else ''}".rstrip()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            reply = f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        reply = f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        reply = f"{type(e).__name__}: {e}"
    return f"{line}\n{reply}"


def serve(flags: list[str]) -> str:
    argv = [LLAMA, "-m", str(TINY_GGUF), "--port", str(PORT), *flags]
    port = int(value(flags, "--port") or PORT)  # a drawn --port comes later on the line and wins
    prefix = value(flags, "--api-prefix") or ""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(port, prefix):
                up = True
                break
            time.sleep(0.5)
        client = send(port, flags) if up else None
        time.sleep(1)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if client is None:
        why = f"exited with {proc.returncode}" if not up and proc.returncode is not None else "never answered"
        client = f"# request: (none: the server {why})"
    return f"$ {' '.join(argv)}\n{text.rstrip()}\n{client}\n"


def make_files() -> None:
    """The files GROUPS names: a chat template that is no commonly used one (the tiny model's own, as a file) and an
    empty folder of static files."""
    WORK.mkdir(parents=True, exist_ok=True)
    STATIC_DIR.mkdir(parents=True, exist_ok=True)
    TEMPLATE_FILE.write_text(
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}\n"
    )


def makers() -> dict:
    make_files()
    return {case_id: (lambda flags=flags: serve(flags)) for case_id, flags in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(GROUPS)} groups, {len(CONDITIONS)} conditions")
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, flags in concrete().items():
            print(f"{case_id}: {' '.join(flags)}")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
