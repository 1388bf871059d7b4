"""The seventy-eighth fresh batch of doctor's corpus (batch "fresh-78"): CHAT TEMPLATES on the real llama-server, as
users meet them: the GGUF's own template (as made, or edited in the GGUF's tokenizer.chat_template metadata), a
--chat-template-file (a Jinja syntax error, a raise_exception on a role order it refuses, a filter or method the
server's Jinja engine may lack, no add_generation_prompt, one reading tools / tool_calls, an empty file, a missing
file), the built-in --chat-template NAME, --reasoning-format / --reasoning-budget / --reasoning values,
--chat-template-kwargs, and requests whose messages the template then refuses. DRAWN AT RANDOM by a procedure fixed
and committed before any case ran (earlier made-here llama.cpp batches drew flags, files, requests, the router).

What was read to design it: llama-server's own --help (--jinja/--no-jinja: enabled by default; --chat-template NAME
and its list of built-in names; --chat-template-file; --chat-template-kwargs "must be a valid json object string";
--reasoning-format none|deepseek|deepseek-legacy; --reasoning on|off|auto; --reasoning-budget N: -1, 0 or N>0;
--reasoning-effort), and the strings of its binary for the chat-template messages ("failed to apply template",
"failed to initialize chat template", "please consider disabling jinja via --no-jinja, or using another chat
template"). Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2078):
  14 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r). 14 conditions, 2-4 values each; healthy
  values are part of the conditions (about 1 in 4 draws). llama-server only, so corpus_tools.draw_per_engine (which
  draws an engine among vLLM and llama.cpp first) is not used: this is fresh-64's one-engine draw.
  The model is tests/engine/make_tiny_gguf.py's loadable GGUF (its own template:
  `{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}{% if add_generation_prompt %}
  <|assistant|>{% endif %}`); a value that edits the GGUF's template writes a new GGUF through the same maker with
  GGUFWriter.add_chat_template replaced (another template, or none at all).
  Each case: llama-server -m GGUF --port P -c 512 and the value's flags, run from the case directory
  (/tmp/fresh78-run/CASE; template files are written there), waited for until /health answers or it exits (60 s),
  then the value's one or two chat requests in order (POST /v1/chat/completions, max_tokens 8; default messages
  [{"role": "user", "content": "hello"}]), each with a 90 s bound, then SIGTERM to its process group (SIGKILL after
  30 s). Case log = the server's whole log (stdout and stderr together), then `# client:` and, for each request,
  the response's status line and first 400 bytes. Environment: the maker's, without LLAMA_* variables, plus
  tools/doctor-corpus.py's ENV.
Usage (from the repository root; port 19801 of this batch's range 19800-19899):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh78.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
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

use_ports(19800, "/tmp/fresh78/tiny-f32.gguf")
TMP = Path("/tmp/fresh78-run")

# templates the values name (written to the case directory as template.jinja, or into the GGUF)
GEN = "{% if add_generation_prompt %}<|assistant|>{% endif %}"
LOOP = "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
TEMPLATES = {
    "syntax-unclosed-for": "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>" + GEN,
    "syntax-unbalanced-braces": "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }<|end|>{% endfor %}"
    + GEN,
    "syntax-stray-endif": LOOP + "{% endif %}" + GEN,
    "alternate": (
        "{% for m in messages %}{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}"
        "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
        "{% endif %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}" + GEN
    ),
    "system-first": (
        "{% for m in messages %}{% if m['role'] == 'system' and not loop.first %}"
        "{{ raise_exception('System message must be at the beginning.') }}"
        "{% endif %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}" + GEN
    ),
    "filter-wordcount": "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] | wordcount }}<|end|>"
    "{% endfor %}" + GEN,
    "method-splitlines": "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'].splitlines() | join(' ') }}"
    "<|end|>{% endfor %}" + GEN,
    "filter-pprint": "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] | pprint }}<|end|>{% endfor %}"
    + GEN,
    "no-generation-prompt": LOOP,
    "no-generation-prompt-constant": "<|user|>say hello<|end|>",
    "tools": (
        "{% if tools %}<|tools|>{{ tools | tojson }}<|end|>{% endif %}"
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}"
        "{% for c in m['tool_calls'] %}<|call|>{{ c['function']['name'] }}"
        "{{ c['function']['arguments'] | tojson }}{% endfor %}<|end|>{% endfor %}" + GEN
    ),
    "own": LOOP + GEN,
}

# each condition's values, fixed before the draw
CONDITIONS = {
    "GGUF's own template, healthy": [  # healthy
        "--jinja (the default) with the GGUF's own template; user hello",
        "--no-jinja with the GGUF's own template; user hello",
        "--jinja with the GGUF's own template; system, then user",
    ],
    "template file with a Jinja syntax error": [
        "--chat-template-file with an unclosed {% for %}",
        "--chat-template-file with an unbalanced {{ ... }",
        "--chat-template-file with a stray {% endif %}",
    ],
    "template raise_exception on role order": [
        "alternating-roles template; request user, user (two users in a row)",
        "system-first template; request user, system (system after user)",
        "alternating-roles template; request user, assistant, user (healthy order)",
    ],
    "filter or method the Jinja engine may lack": [
        "--chat-template-file using | wordcount",
        "--chat-template-file using .splitlines()",
        "--chat-template-file using | pprint",
    ],
    "template without add_generation_prompt": [
        "--chat-template-file with the messages loop but no add_generation_prompt",
        "--chat-template-file a constant text (no messages, no add_generation_prompt)",
    ],
    "template reading tools / tool_calls": [
        "tools template; request with a tools list",
        "tools template; request with an assistant tool_calls message and a tool message",
        "tools template; plain user hello (no tools)",
    ],
    "template file empty, missing or a directory": [
        "--chat-template-file an empty file",
        "--chat-template-file a path that does not exist",
        "--chat-template-file a directory",
    ],
    "--chat-template NAME": [
        "--chat-template chatml2 (a name it does not know)",
        "--chat-template llama3 (a real name for the wrong model)",
        "--no-jinja --chat-template gemma; system, then user",
        "--chat-template chatml (healthy)",
    ],
    "--reasoning-format value": [
        "--reasoning-format deepsek (misspelt)",
        "--reasoning-format deepseek (healthy)",
        "--reasoning-format none (healthy)",
    ],
    "--reasoning-budget value": [
        "--reasoning-budget -2",
        "--reasoning-budget lots",
        "--reasoning-budget 0 with a template that has no thinking",
    ],
    "--reasoning / --reasoning-effort value": [
        "--reasoning maybe",
        "--reasoning on with a template that has no thinking",
        "--reasoning-effort extreme",
    ],
    "--chat-template-kwargs value": [
        "--chat-template-kwargs '{enable_thinking: false}' (not JSON)",
        "--chat-template-kwargs '[1, 2]' (JSON, not an object)",
        "--chat-template-kwargs '{\"enable_thinking\": false}' (healthy)",
    ],
    "GGUF's own template edited": [
        "GGUF tokenizer.chat_template with an unclosed {% for %}",
        "GGUF tokenizer.chat_template with the alternating-roles raise_exception; request user, user",
        "GGUF without tokenizer.chat_template",
        "GGUF tokenizer.chat_template an empty string",
    ],
    "request messages the template then refuses": [
        "content parts: user content a list of {type: text} parts",
        "content parts: user content with an image_url part (text-only model)",
        "a tool message with no preceding tool call",
        "the last message from the assistant (prefill)",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2078, CONDITIONS, 14)


USER = [{"role": "user", "content": "hello"}]
SYSTEM_USER = [{"role": "system", "content": "be brief"}, *USER]


def client(port: int, body: dict) -> str:
    """One request's lines: its messages' roles, the status line, the body's first 400 bytes."""
    roles = ", ".join(m["role"] for m in body["messages"])
    what = f"POST /v1/chat/completions (messages: {roles}{'; tools' if 'tools' in body else ''})"
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=body, timeout=90)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def serve(h, argv: list[str], port: int, env: dict, cwd: Path, requests: list[dict]) -> str:
    """Start ARGV in CWD with exactly ENV; once /health answers, REQUESTS in order; then SIGTERM its group.
    Whole log + `# client:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answers, deadline = [], time.monotonic() + 60
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    answers = [client(port, body) for body in requests]
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answers:
            text += ("" if text.endswith("\n") or not text else "\n") + "# client:\n" + "".join(answers)
        return text


def chat(messages: list[dict], **extra) -> dict:
    return {"messages": messages, "max_tokens": 8, **extra}


def gguf_with_template(tiny: Path, out: Path, template: str | None) -> Path:
    """make_tiny_gguf.py's GGUF with tokenizer.chat_template = TEMPLATE (None: no such key)."""
    import gguf

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))
    import make_tiny_gguf

    class Writer(gguf.GGUFWriter):
        def add_chat_template(self, value) -> None:
            if template is not None:
                super().add_chat_template(template)

    writer = make_tiny_gguf.gguf.GGUFWriter
    make_tiny_gguf.gguf.GGUFWriter = Writer
    try:
        make_tiny_gguf.main(tiny / "tokenizer.json", out)
    finally:
        make_tiny_gguf.gguf.GGUFWriter = writer
    return out


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_maker(h, tiny: Path, condition: str, value: str):
    """The maker of one draw: FLAGS, the GGUF and the requests its value names."""
    port = int(h.LLAMA_PORT)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def make() -> str:
        d = TMP / slug(value)
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model, flags, requests = gguf, [], [chat(USER)]

        def template_file(name: str) -> None:
            (d / "template.jinja").write_text(TEMPLATES[name])
            flags.extend(["--chat-template-file", "template.jinja"])

        v = value
        if condition == "GGUF's own template, healthy":
            if v.startswith("--no-jinja"):
                flags.append("--no-jinja")
            else:
                flags.append("--jinja")
            if "system, then user" in v:
                requests = [chat(SYSTEM_USER)]
        elif condition == "template file with a Jinja syntax error":
            name = {"unclosed": "syntax-unclosed-for", "unbalanced": "syntax-unbalanced-braces"}
            template_file(next((t for k, t in name.items() if k in v), "syntax-stray-endif"))
        elif condition == "template raise_exception on role order":
            if v.startswith("system-first"):
                template_file("system-first")
                requests = [chat([*USER, {"role": "system", "content": "be brief"}])]
            elif "two users" in v:
                template_file("alternate")
                requests = [chat([*USER, {"role": "user", "content": "are you there?"}])]
            else:
                template_file("alternate")
                turns = [*USER, {"role": "assistant", "content": "hi"}, {"role": "user", "content": "ok"}]
                requests = [chat(turns)]
        elif condition == "filter or method the Jinja engine may lack":
            template_file(
                "filter-wordcount"
                if "wordcount" in v
                else "method-splitlines"
                if "splitlines" in v
                else "filter-pprint"
            )
        elif condition == "template without add_generation_prompt":
            template_file("no-generation-prompt-constant" if "constant" in v else "no-generation-prompt")
        elif condition == "template reading tools / tool_calls":
            template_file("tools")
            tools = [
                {
                    "type": "function",
                    "function": {
                        "name": "get_time",
                        "description": "the time now",
                        "parameters": {"type": "object", "properties": {}},
                    },
                }
            ]
            if "tools list" in v:
                requests = [chat(USER, tools=tools)]
            elif "tool_calls" in v:
                call = {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": "{}"},
                }
                turns = [
                    *USER,
                    {"role": "assistant", "content": "", "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "12:00"},
                ]
                requests = [chat(turns, tools=tools)]
        elif condition == "template file empty, missing or a directory":
            if "empty" in v:
                (d / "template.jinja").write_text("")
                flags.extend(["--chat-template-file", "template.jinja"])
            elif "does not exist" in v:
                flags.extend(["--chat-template-file", "templates/chatml.jinja"])
            else:
                (d / "templates").mkdir()
                flags.extend(["--chat-template-file", "templates"])
        elif condition == "--chat-template NAME":
            if v.startswith("--no-jinja"):
                flags.extend(["--no-jinja", "--chat-template", "gemma"])
                requests = [chat(SYSTEM_USER)]
            else:
                flags.extend(["--chat-template", v.split()[1]])
        elif condition == "--reasoning-format value":
            flags.extend(["--reasoning-format", v.split()[1]])
        elif condition == "--reasoning-budget value":
            flags.extend(["--reasoning-budget", v.split()[1]])
        elif condition == "--reasoning / --reasoning-effort value":
            flags.extend(v.split()[:2])
        elif condition == "--chat-template-kwargs value":
            flags.extend(["--chat-template-kwargs", v.split("'")[1]])
        elif condition == "GGUF's own template edited":
            template = (
                None
                if v.startswith("GGUF without")
                else ""
                if "empty string" in v
                else TEMPLATES["syntax-unclosed-for"]
                if "unclosed" in v
                else TEMPLATES["alternate"]
            )
            model = gguf_with_template(tiny, d / "edited.gguf", template)
            if "user, user" in v:
                requests = [chat([*USER, {"role": "user", "content": "are you there?"}])]
        elif condition == "request messages the template then refuses":
            if "image_url" in v:
                parts = [
                    {"type": "text", "text": "what is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ]
                requests = [chat([{"role": "user", "content": parts}])]
            elif "content parts" in v:
                parts = [{"type": "text", "text": "hello"}, {"type": "text", "text": "there"}]
                requests = [chat([{"role": "user", "content": parts}])]
            elif "tool message" in v:
                requests = [chat([*USER, {"role": "tool", "tool_call_id": "call_9", "content": "12:00"}])]
            else:
                requests = [chat([*USER, {"role": "assistant", "content": "Hello, I"}])]
        else:
            raise ValueError(condition)
        argv = [h.LLAMA, "-m", str(model), "--port", str(port), "-c", "512", *flags]
        return serve(h, argv, port, env, d, requests)

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh78-llama-<words of the value>."""
    kept, _ = draws()
    out = {}
    for condition, value in kept:
        words = slug(value).split("-")
        while len("-".join(words)) > 48:
            words.pop()
        case_id = "fresh78-llama-" + "-".join(words)
        out[case_id] = case_maker(h, tiny, condition, value)
    return out


def main() -> None:
    # its makers take no vLLM bound (llama-server only)
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh78/tiny")


if __name__ == "__main__":
    main()
