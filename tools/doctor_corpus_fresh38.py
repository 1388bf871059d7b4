"""The thirty-eighth fresh batch of doctor's corpus (batch "fresh-38"): CHAT TEMPLATES, TOKENIZER SPECIAL TOKENS AND
GENERATION SETTINGS that a user supplies or edits, and the chat request that meets them, on the real engines, DRAWN AT
RANDOM by a procedure fixed before any case ran (fresh-20 drew flags, fresh-23 mistakes around the engine, fresh-25
model files, fresh-31 requests and running-server events, fresh-35 the process environment).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2038):
  14 cases, each drawn in turn: engine = r.choice(("vllm", "llama")); condition = r.choice(list(CONDITIONS[engine]))
  (the conditions valid for that engine); value = r.choice(CONDITIONS[engine][condition]). A draw whose
  (engine, condition) was drawn before is drawn anew (all three, same r).
  The templates named by the values (TEMPLATES below, fixed here): "syntax error" = the tiny model's own template
  with its {% endfor %} removed; "raise_exception" = the own template behind a guard that calls
  raise_exception('The first message must be a system prompt') when messages[0] is not a system message;
  "undefined filter" = the own template with `| shout` on the content; "missing key" = the own template that prints
  m['name'].strip() (messages carry no name); "alternating" = a Mistral-style template that calls
  raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') when the roles do not
  alternate starting with user; "no generation prompt" = the own template without its add_generation_prompt block.
  A user's template is given to vLLM as --chat-template FILE and to llama-server as --jinja --chat-template-file FILE;
  "inline" = the own template's text given as the flag's value (vLLM --chat-template TEXT; llama-server --jinja
  --chat-template TEXT). The model's own template is vLLM's checkpoint chat_template.jinja (a copy of the tiny
  model; "no template" deletes it) and llama-server's GGUF tokenizer.chat_template (the tiny GGUF written again by
  tests/engine/make_tiny_gguf.py with that one key changed, or not written). Token ids and names are edited the same
  way (vLLM: the copy's JSON files; llama-server: the GGUF's tokenizer.ggml.* keys).
  Each case: the engine started with the condition and the flags a user would use (vLLM api_server --model TINY
  --port P --max-model-len 512, with tools/doctor-corpus.py's ENV; llama-server -m GGUF --port P -c 512), waited for
  until /health answers or it exits (vLLM 420 s, llama-server 60 s), then the case's request if it answered (a chat
  request {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}, plus "model" for vLLM, unless the
  value names another body), then SIGTERM to its process group (SIGKILL after 30 s). Case log = the engine's whole
  log (stdout+stderr), then `# client:` and the response's status line and first 400 bytes (as fresh-31/fresh-35).
Usage (from the repository root; ports 18300-18301 of this batch's range 18300-18399):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh38.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_per_engine,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(18300, "/tmp/fresh38/tiny-f32.gguf")
TMP = Path(tempfile.gettempdir()) / "fresh38-run"
MISSING_TEMPLATE = "/srv/templates/tiny-chat.jinja"

# each engine's conditions and their values, fixed before the draw
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "weather for a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
CONDITIONS = {
    "vllm": {
        "user template broken": [
            "--chat-template FILE with a syntax error",
            "--chat-template FILE calling raise_exception",
            "--chat-template FILE with an undefined filter",
            "--chat-template FILE reading a missing key",
        ],
        "user template given": [
            "--chat-template an empty file",
            "--chat-template a path that does not exist (/srv/templates/tiny-chat.jinja)",
            "--chat-template the template inline",
        ],
        "model's own template edited": [
            "chat_template.jinja with a syntax error",
            "chat_template.jinja calling raise_exception",
            "no template (chat_template.jinja deleted)",
            "chat_template.jinja without the generation prompt",
        ],
        "special tokens": [
            "generation_config.json eos_token_id 50000 (vocabulary 1024)",
            "tokenizer_config.json eos_token '<|eot_id|>' (not in the vocabulary)",
            "bos/eos removed from config.json, generation_config.json and tokenizer_config.json",
        ],
        "generation_config.json": [
            "not valid JSON (a trailing comma)",
            "temperature -1 and top_p 5",
            "max_new_tokens 0",
            "--generation-config a directory that does not exist",
        ],
        "server sampling defaults": [
            "--override-generation-config '{\"top_p\": 5}'",
            "--override-generation-config 'temperature=0.7' (not JSON)",
            "--override-generation-config '{\"max_new_tokens\": 0}'",
        ],
        "content format": [
            "--chat-template-content-format openai",
            "--chat-template-content-format string",
            "--chat-template-content-format text",
        ],
        "tool calling": [
            "--enable-auto-tool-choice --tool-call-parser hermes; a request with tools",
            "--enable-auto-tool-choice alone",
            "--tool-call-parser hermes alone; a request with tools and tool_choice auto",
        ],
        "request role": [
            "alternating template; a system message first",
            "alternating template; two user messages in a row",
            "own template; a message of role 'developer'",
            "own template; a 'tool' message without tool_call_id",
        ],
        "generation prompt flags": [
            "add_generation_prompt and continue_final_message both true, final message assistant",
            "continue_final_message true with a final user message",
            "a final assistant message (prefill), defaults",
        ],
        "chat_template_kwargs": [
            '{"enable_thinking": false}',
            '{"add_generation_prompt": false}',
            "a string 'enable_thinking=false'",
        ],
        "template by name": ["--chat-template chatml", "--chat-template chatmll"],
        "reasoning": [
            "--reasoning-parser deepseek_r1",
            "--reasoning-parser qwen3",
            "--reasoning-parser deepseek-r1 (dash)",
        ],
    },
    "llama": {
        "user template broken": [
            "--jinja --chat-template-file FILE with a syntax error",
            "--jinja --chat-template-file FILE calling raise_exception",
            "--jinja --chat-template-file FILE with an undefined filter",
            "--jinja --chat-template-file FILE reading a missing key",
        ],
        "user template given": [
            "--jinja --chat-template-file an empty file",
            "--jinja --chat-template-file a path that does not exist (/srv/templates/tiny-chat.jinja)",
            "--jinja --chat-template the template inline",
        ],
        "model's own template edited": [
            "GGUF chat_template with a syntax error",
            "GGUF chat_template calling raise_exception",
            "no template (GGUF written without tokenizer.chat_template)",
            "GGUF chat_template without the generation prompt",
        ],
        "special tokens": [
            "GGUF eos_token_id 50000 (vocabulary 1024)",
            "GGUF bos_token_id 50000 (vocabulary 1024)",
            "GGUF without bos/eos ids",
        ],
        "server sampling defaults": ["--top-p 5", "--temp abc", "-n 0"],
        "tool calling": [
            "--jinja; a request with tools",
            "--no-jinja; a request with tools",
            "--jinja; a request with tools and tool_choice required",
        ],
        "request role": [
            "alternating template (--jinja --chat-template-file); a system message first",
            "alternating template (--jinja --chat-template-file); two user messages in a row",
            "own template; a message of role 'developer'",
            "own template; a 'tool' message without tool_call_id",
        ],
        "generation prompt flags": [
            "add_generation_prompt and continue_final_message both true, final message assistant",
            "continue_final_message true with a final user message",
            "a final assistant message (prefill), defaults",
        ],
        "chat_template_kwargs": [
            '{"enable_thinking": false}',
            '{"add_generation_prompt": false}',
            "a string 'enable_thinking=false'",
        ],
        "template by name": ["--chat-template chatml", "--chat-template chatmll"],
        "reasoning": [
            "--reasoning-format deepseek",
            "--reasoning-budget 0",
            "--reasoning-format deepseek-r1 (dash)",
        ],
    },
}


def draws():
    """The 14 kept draws (engine, condition, value), and every draw made anew."""
    return draw_per_engine(2038, CONDITIONS, reason=None)


OWN = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
TEMPLATES = {
    "own": OWN,
    "syntax error": OWN.replace("{% endfor %}", ""),
    "raise_exception": "{% if messages[0]['role'] != 'system' %}"
    "{{ raise_exception('The first message must be a system prompt') }}{% endif %}" + OWN,
    "undefined filter": OWN.replace("{{ m['content'] }}", "{{ m['content'] | shout }}"),
    "missing key": OWN.replace("{{ m['content'] }}", "{{ m['name'].strip() }}: {{ m['content'] }}"),
    "alternating": "{{ bos_token }}{% for message in messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}"
    "{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token }}"
    "{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}",
    "no generation prompt": OWN.split("{% if add_generation_prompt %}")[0],
}
HELLO = [{"role": "user", "content": "hello"}]


def serve(h, argv: list[str], port: int, timeout: float, body: dict) -> str:
    """Start ARGV; once /health answers, the case's chat request; then SIGTERM. Whole log + client lines."""
    env = {**os.environ, **h.ENV}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        answer, deadline = "", time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    answer = client(f"http://127.0.0.1:{port}/v1/chat/completions", body)
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        return text + ("\n" if answer and text and not text.endswith("\n") else "") + answer


def client(url: str, body: dict) -> str:
    """What the client saw: `# client:`, the status line, the body's first 400 bytes (as fresh-31)."""
    try:
        r = httpx.post(url, json=body, timeout=120)
        line = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
        return f"# client:\n{line}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"# client:\n{type(exc).__name__}: {exc}\n"


def template_file(name: str) -> str:
    TMP.mkdir(parents=True, exist_ok=True)
    f = TMP / f"{name.replace(' ', '-')}.jinja"
    f.write_text(TEMPLATES[name])
    return str(f)


def model_copy(tiny: Path, name: str) -> Path:
    d = TMP / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(tiny, d)
    return d


def makers(h, tiny: Path, timeout: float) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]

    def vllm(*flags: str, body: dict | None = None, model: Path | None = None):
        m = str(model or tiny)
        argv = [*h.VLLM, m, "--port", vport, "--max-model-len", "512", *flags]
        return serve(
            h, argv, int(vport), timeout, {"model": m, "max_tokens": 8, **(body or {"messages": HELLO})}
        )

    def llama(*flags: str, body: dict | None = None):
        argv = [h.LLAMA, "-m", str(h.GGUF), "--port", lport, "-c", "512", *flags]
        return serve(h, argv, int(lport), 60, {"max_tokens": 8, **(body or {"messages": HELLO})})

    def no_template() -> str:
        m = model_copy(tiny, "no-template")
        (m / "chat_template.jinja").unlink()
        return vllm(model=m)

    def generation_config_trailing_comma() -> str:
        m = model_copy(tiny, "genconfig-comma")
        g = m / "generation_config.json"
        text = g.read_text().rstrip()
        assert text.endswith("}")
        g.write_text(text[:-1].rstrip() + ",\n}\n")
        return vllm(model=m)

    weather = [{"role": "user", "content": "What is the weather in Paris?"}]
    system_first = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "hello"}]
    assert not Path(MISSING_TEMPLATE).exists()
    return {
        # 1: vLLM --enable-auto-tool-choice --tool-call-parser hermes; a request with tools
        "fresh38-vllm-hermes-parser-tools-request": lambda: vllm(
            "--enable-auto-tool-choice",
            "--tool-call-parser",
            "hermes",
            body={"messages": weather, "tools": TOOLS},
        ),
        # 2: vLLM --chat-template FILE (alternating roles); a system message first
        "fresh38-vllm-alternating-template-system-message": lambda: vllm(
            "--chat-template", template_file("alternating"), body={"messages": system_first}
        ),
        # 3: vLLM on a checkpoint whose chat_template.jinja was deleted
        "fresh38-vllm-own-template-deleted": no_template,
        # 4: vLLM on a checkpoint whose generation_config.json has a trailing comma
        "fresh38-vllm-generation-config-trailing-comma": generation_config_trailing_comma,
        # 5: llama-server --jinja --chat-template-file FILE (alternating roles); a system message first
        "fresh38-llama-alternating-template-system-message": lambda: llama(
            "--jinja", "--chat-template-file", template_file("alternating"), body={"messages": system_first}
        ),
        # 6: llama-server --jinja; a request with tools and tool_choice required
        "fresh38-llama-tools-choice-required": lambda: llama(
            "--jinja", body={"messages": weather, "tools": TOOLS, "tool_choice": "required"}
        ),
        # 7: llama-server --jinja --chat-template-file a path that does not exist
        "fresh38-llama-template-file-missing": lambda: llama(
            "--jinja", "--chat-template-file", MISSING_TEMPLATE
        ),
        # 8: vLLM --chat-template-content-format string
        "fresh38-vllm-content-format-string": lambda: vllm("--chat-template-content-format", "string"),
        # 9: vLLM --chat-template chatmll (a misspelt name)
        "fresh38-vllm-chat-template-chatmll": lambda: vllm("--chat-template", "chatmll"),
        # 10: llama-server, a final assistant message (prefill), defaults
        "fresh38-llama-assistant-prefill": lambda: llama(
            body={"messages": [*HELLO, {"role": "assistant", "content": "Sure, here"}]}
        ),
        # 11: vLLM --reasoning-parser deepseek_r1
        "fresh38-vllm-reasoning-parser-deepseek-r1": lambda: vllm("--reasoning-parser", "deepseek_r1"),
        # 12: vLLM --chat-template a path that does not exist
        "fresh38-vllm-template-file-missing": lambda: vllm("--chat-template", MISSING_TEMPLATE),
        # 13: llama-server --temp abc
        "fresh38-llama-temp-abc": lambda: llama("--temp", "abc"),
        # 14: llama-server --chat-template chatml
        "fresh38-llama-chat-template-chatml": lambda: llama("--chat-template", "chatml"),
    }


def main() -> None:
    maker_main(draws, makers, "/tmp/fresh38/tiny")


if __name__ == "__main__":
    main()
