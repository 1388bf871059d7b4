"""The 128th fresh batch of doctor's corpus (batch "fresh-128", made here): A FAILURE AS THE CLIENT SEES IT. A real
llama-server 11434.0.0 (.llama-cpp/bin/llama-server) serves the tiny GGUF of tests/engine/make_tiny_gguf.py (written
from the tokenizer of tests/engine/make_tiny_model.py's tiny Llama, under /tmp/fresh128), and a real client a user
would write or run talks to it with ONE thing wrong on the client's side or between them: the `openai` Python package
3.60 (.venv-vllm), curl 7.88, requests 2.34 or httpx 0.29, or the server stopped mid-request; 4 of the 22 conditions
are a correct client (healthy: about 1 in 5 of a draw). Every value below is concrete as written here, before the draw
was printed; each value's file-name words are in SLUG, written with it.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2128, CONDITIONS, 14)
(r = random.Random(2128): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Each case: under /tmp/fresh128/run/caseNN (NN its draw number), ONE llama-server start
(`llama-server -m tiny.gguf --alias tiny-llama --port 18640 -c 2048` plus the case's server flags: --api-key for the
key conditions, -c 512 for the context one), waited for /health (60 s), then the client run once in that folder
(`python chat.py` with .venv-vllm's interpreter, shown as `python`; or the curl command), 120 s limit; for the
"server stopped" condition the server is killed (SIGKILL) or stopped (SIGTERM) as soon as the client printed its first
byte, or after 0.3 s. Then SIGTERM to the server (SIGKILL after 10 s). Case log = `$ ` and the client's command
line, then the client's whole stdout+stderr (merged, in order): what the user sees and would paste. The server's log
stays in /tmp/fresh128/run/caseNN/server.log, never in the case. One engine at a time. Ports 18640-18659 (18641 and
18649: nothing listens there).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh128.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path: the makers run as scripts

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
WORK = Path("/tmp/fresh128")
TINY_GGUF = (
    WORK / "tiny-f32.gguf"
)  # make_tiny_gguf.py /tmp/fresh128/tiny/tokenizer.json /tmp/fresh128/tiny-f32.gguf
PORT = 18640
URL = f"http://127.0.0.1:{PORT}"
KEY = "sk-servebox-128"  # the key the --api-key server is started with

CONDITIONS = {
    "openai: base_url without /v1": ["http://127.0.0.1:18640", "http://localhost:18640/"],
    "openai: base_url with a trailing path": [
        "http://127.0.0.1:18640/v1/chat/completions",
        "http://127.0.0.1:18640/v1/completions",
    ],
    "openai: https on the http port": ["https://127.0.0.1:18640/v1", "https://localhost:18640/v1"],
    "openai: wrong port": ["http://127.0.0.1:18641/v1", "http://127.0.0.1:18649/v1"],
    "openai: hostname that does not resolve": [
        "http://llama-server.invalid:18640/v1",
        "http://gpu-box:18640/v1",
    ],
    "openai: wrong api key against --api-key": ["api_key='sk-wrong-key'", "api_key='EMPTY'"],
    "missing api key against --api-key": [
        "requests.post without Authorization",
        "curl without Authorization",
    ],
    "openai: model name the server does not serve": ["gpt-4o-mini", "meta-llama/Llama-3.1-8B-Instruct"],
    "openai: timeout shorter than the answer": [
        "timeout=0.05, max_tokens=1900",
        "timeout=0.2, max_tokens=1900",
    ],
    "streaming read as non-streaming": [
        "openai stream=True then .choices[0]",
        "requests stream body then .json()",
    ],
    "openai: request field of the wrong type": ["max_tokens='128'", "temperature='warm'"],
    "openai: request field out of range": ["top_logprobs=100", "max_tokens=-5"],
    "openai: prompt longer than the context": [
        "chat, 3000-word message, -c 512",
        "completions, 2500 words, -c 512",
    ],
    "openai: JSON-schema or tool request the server refuses": [
        "response_format json_schema with a $ref to a missing definition",
        "tools request to a server started with --no-jinja",
    ],
    "curl: malformed JSON body": ["trailing comma", "single-quoted keys"],
    "curl: missing Content-Type": ["curl -d JSON without -H", "curl --data-binary @body.json without -H"],
    "requests/httpx: wrong method": ["requests.get on /v1/chat/completions", "httpx.put on /v1/completions"],
    "server stopped mid-request": ["SIGKILL at the first streamed byte", "SIGTERM 0.3 s into a long answer"],
    "healthy: openai chat": ["max_tokens=32"],
    "healthy: openai streaming chat": ["stream=True, printing deltas"],
    "healthy: curl completions": ["POST /v1/completions with -H Content-Type"],
    "healthy: openai with the right api key against --api-key": ["api_key='sk-servebox-128'"],
}

# each value's file-name words (fresh128-client-<words>.log), written with the values, before the draw was printed
SLUG = {
    "http://127.0.0.1:18640": "openai-base-url-no-v1",
    "http://localhost:18640/": "openai-base-url-localhost-no-v1",
    "http://127.0.0.1:18640/v1/chat/completions": "openai-base-url-chat-completions-path",
    "http://127.0.0.1:18640/v1/completions": "openai-base-url-completions-path",
    "https://127.0.0.1:18640/v1": "openai-https-on-http-port",
    "https://localhost:18640/v1": "openai-https-localhost-on-http-port",
    "http://127.0.0.1:18641/v1": "openai-wrong-port-18641",
    "http://127.0.0.1:18649/v1": "openai-wrong-port-18649",
    "http://llama-server.invalid:18640/v1": "openai-host-invalid-tld",
    "http://gpu-box:18640/v1": "openai-host-gpu-box-unresolved",
    "api_key='sk-wrong-key'": "openai-wrong-api-key",
    "api_key='EMPTY'": "openai-api-key-empty-string",
    "requests.post without Authorization": "requests-no-authorization-header",
    "curl without Authorization": "curl-no-authorization-header",
    "gpt-4o-mini": "openai-model-gpt-4o-mini",
    "meta-llama/Llama-3.1-8B-Instruct": "openai-model-hf-repo-id",
    "timeout=0.05, max_tokens=1900": "openai-timeout-50ms",
    "timeout=0.2, max_tokens=1900": "openai-timeout-200ms",
    "openai stream=True then .choices[0]": "openai-stream-read-as-completion",
    "requests stream body then .json()": "requests-sse-body-json",
    "max_tokens='128'": "openai-max-tokens-string",
    "temperature='warm'": "openai-temperature-string",
    "top_logprobs=100": "openai-top-logprobs-100",
    "max_tokens=-5": "openai-max-tokens-negative",
    "chat, 3000-word message, -c 512": "openai-chat-prompt-over-context",
    "completions, 2500 words, -c 512": "openai-completion-prompt-over-context",
    "response_format json_schema with a $ref to a missing definition": "openai-json-schema-missing-ref",
    "tools request to a server started with --no-jinja": "openai-tools-no-jinja",
    "trailing comma": "curl-json-trailing-comma",
    "single-quoted keys": "curl-json-single-quotes",
    "curl -d JSON without -H": "curl-no-content-type",
    "curl --data-binary @body.json without -H": "curl-data-binary-no-content-type",
    "requests.get on /v1/chat/completions": "requests-get-chat-completions",
    "httpx.put on /v1/completions": "httpx-put-completions",
    "SIGKILL at the first streamed byte": "openai-stream-server-killed",
    "SIGTERM 0.3 s into a long answer": "openai-server-stopped-mid-answer",
    "max_tokens=32": "openai-chat-healthy",
    "stream=True, printing deltas": "openai-stream-healthy",
    "POST /v1/completions with -H Content-Type": "curl-completions-healthy",
    "api_key='sk-servebox-128'": "openai-right-api-key-healthy",
}

MSG = '[{"role": "user", "content": "Write a haiku about GPUs."}]'


def openai_chat(
    base: str = URL + "/v1", key: str = "sk-no-key-required", extra: str = "", model: str = "tiny-llama"
):
    return (
        "from openai import OpenAI\n\n"
        f'client = OpenAI(base_url="{base}", api_key="{key}")\n'
        "resp = client.chat.completions.create(\n"
        f'    model="{model}",\n'
        f"    messages={MSG},\n"
        f"    {extra or 'max_tokens=32,'}\n"
        ")\n"
        "print(resp.choices[0].message.content)\n"
    )


def spec(condition: str, value: str) -> dict:
    """server: extra llama-server flags; files: the client's files; cmd: what runs in the case folder (python means
    .venv-vllm's); stop: how the server is stopped mid-request (None: it is not)."""
    s = {"server": [], "files": {}, "cmd": ["python", "chat.py"], "stop": None}
    long_words = " ".join(["the quick brown fox jumps over the lazy dog"] * 340)  # ~3000 words
    if condition in (
        "openai: base_url without /v1",
        "openai: base_url with a trailing path",
        "openai: https on the http port",
        "openai: wrong port",
        "openai: hostname that does not resolve",
    ):
        s["files"]["chat.py"] = openai_chat(base=value)
    elif condition == "openai: wrong api key against --api-key":
        s["server"] = ["--api-key", KEY]
        s["files"]["chat.py"] = openai_chat(key=value.split("'")[1])
    elif condition == "healthy: openai with the right api key against --api-key":
        s["server"] = ["--api-key", KEY]
        s["files"]["chat.py"] = openai_chat(key=KEY)
    elif condition == "missing api key against --api-key":
        s["server"] = ["--api-key", KEY]
        body = '{"model": "tiny-llama", "messages": ' + MSG + ', "max_tokens": 32}'
        if value.startswith("requests"):
            s["files"]["chat.py"] = (
                "import requests\n\n"
                f'r = requests.post("{URL}/v1/chat/completions", json={body})\n'
                "r.raise_for_status()\n"
                'print(r.json()["choices"][0]["message"]["content"])\n'
            )
        else:
            s["cmd"] = [
                "curl",
                "-sS",
                f"{URL}/v1/chat/completions",
                "-H",
                "Content-Type: application/json",
                "-d",
                body,
            ]
    elif condition == "openai: model name the server does not serve":
        s["files"]["chat.py"] = openai_chat(model=value)
    elif condition == "openai: timeout shorter than the answer":
        t = value.split(",")[0].split("=")[1]
        s["files"]["chat.py"] = openai_chat(
            extra=f'max_tokens=1900, timeout={t}, extra_body={{"ignore_eos": True}},'
        )
    elif condition == "streaming read as non-streaming":
        if value.startswith("openai"):
            s["files"]["chat.py"] = openai_chat(extra="max_tokens=32, stream=True,")
        else:
            s["files"]["chat.py"] = (
                "import requests\n\n"
                "r = requests.post(\n"
                f'    "{URL}/v1/chat/completions",\n'
                f'    json={{"model": "tiny-llama", "messages": {MSG}, "max_tokens": 32, "stream": True}},\n'
                ")\n"
                'print(r.json()["choices"][0]["message"]["content"])\n'
            )
    elif condition == "openai: request field of the wrong type":
        s["files"]["chat.py"] = openai_chat(
            extra=value + ("," if value.startswith("max") else ", max_tokens=32,")
        )
    elif condition == "openai: request field out of range":
        extra = (
            "max_tokens=32, logprobs=True, top_logprobs=100," if value.startswith("top") else "max_tokens=-5,"
        )
        s["files"]["chat.py"] = openai_chat(extra=extra)
    elif condition == "openai: prompt longer than the context":
        s["server"] = ["-c", "512", "-np", "1"]
        if value.startswith("chat"):
            s["files"]["chat.py"] = (
                "from openai import OpenAI\n\n"
                f'client = OpenAI(base_url="{URL}/v1", api_key="sk-no-key-required")\n'
                'doc = open("report.txt").read()\n'
                "resp = client.chat.completions.create(\n"
                '    model="tiny-llama",\n'
                '    messages=[{"role": "user", "content": "Summarise this report:\\n" + doc}],\n'
                "    max_tokens=128,\n"
                ")\n"
                "print(resp.choices[0].message.content)\n"
            )
        else:
            s["files"]["chat.py"] = (
                "from openai import OpenAI\n\n"
                f'client = OpenAI(base_url="{URL}/v1", api_key="sk-no-key-required")\n'
                'doc = open("report.txt").read()\n'
                'resp = client.completions.create(model="tiny-llama", prompt=doc + "\\nTL;DR:", max_tokens=64)\n'
                "print(resp.choices[0].text)\n"
            )
        words = long_words.split()
        s["files"]["report.txt"] = " ".join(words[: 3000 if value.startswith("chat") else 2500]) + "\n"
    elif condition == "openai: JSON-schema or tool request the server refuses":
        if value.startswith("response_format"):
            rf = (
                'response_format={"type": "json_schema", "json_schema": {"name": "haiku", "schema": '
                '{"type": "object", "properties": {"lines": {"$ref": "#/$defs/Lines"}}, "required": ["lines"]}}},'
            )
            s["files"]["chat.py"] = openai_chat(extra="max_tokens=64,\n    " + rf)
        else:
            s["server"] = ["--no-jinja"]
            tools = (
                'tools=[{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",'
                ' "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],'
            )
            s["files"]["chat.py"] = openai_chat(extra="max_tokens=64,\n    " + tools)
    elif condition == "curl: malformed JSON body":
        if value == "trailing comma":
            body = '{"model": "tiny-llama", "prompt": "Once upon a time", "max_tokens": 16,}'
        else:
            body = "{'model': 'tiny-llama', 'prompt': 'Once upon a time', 'max_tokens': 16}"
        s["cmd"] = [
            "curl",
            "-sS",
            f"{URL}/v1/completions",
            "-H",
            "Content-Type: application/json",
            "-d",
            body,
        ]
    elif condition == "curl: missing Content-Type":
        body = '{"model": "tiny-llama", "prompt": "Once upon a time", "max_tokens": 16}'
        if value.startswith("curl -d"):
            s["cmd"] = ["curl", "-sS", f"{URL}/v1/completions", "-d", body]
        else:
            s["files"]["body.json"] = body + "\n"
            s["cmd"] = ["curl", "-sS", f"{URL}/v1/completions", "--data-binary", "@body.json"]
    elif condition == "requests/httpx: wrong method":
        if value.startswith("requests"):
            s["files"]["chat.py"] = (
                "import requests\n\n"
                f'r = requests.get("{URL}/v1/chat/completions", '
                f'json={{"model": "tiny-llama", "messages": {MSG}, "max_tokens": 32}})\n'
                "r.raise_for_status()\n"
                'print(r.json()["choices"][0]["message"]["content"])\n'
            )
        else:
            s["files"]["chat.py"] = (
                "import httpx\n\n"
                f'r = httpx.put("{URL}/v1/completions", '
                'json={"model": "tiny-llama", "prompt": "Once upon a time", "max_tokens": 16})\n'
                "r.raise_for_status()\n"
                'print(r.json()["choices"][0]["text"])\n'
            )
    elif condition == "server stopped mid-request":
        if value.startswith("SIGKILL"):
            s["stop"] = ("first-byte", signal.SIGKILL)
            s["files"]["chat.py"] = (
                "from openai import OpenAI\n\n"
                f'client = OpenAI(base_url="{URL}/v1", api_key="sk-no-key-required")\n'
                "stream = client.chat.completions.create(\n"
                '    model="tiny-llama",\n'
                f"    messages={MSG},\n"
                '    max_tokens=1900, stream=True, extra_body={"ignore_eos": True},\n'
                ")\n"
                "for chunk in stream:\n"
                "    if chunk.choices and chunk.choices[0].delta.content:\n"
                '        print(chunk.choices[0].delta.content, end="", flush=True)\n'
                "print()\n"
            )
        else:
            s["stop"] = ("0.3s", signal.SIGTERM)
            s["files"]["chat.py"] = openai_chat(extra='max_tokens=1900, extra_body={"ignore_eos": True},')
    elif condition == "healthy: openai chat":
        s["files"]["chat.py"] = openai_chat()
    elif condition == "healthy: openai streaming chat":
        s["files"]["chat.py"] = (
            "from openai import OpenAI\n\n"
            f'client = OpenAI(base_url="{URL}/v1", api_key="sk-no-key-required")\n'
            f'stream = client.chat.completions.create(model="tiny-llama", messages={MSG}, max_tokens=32, stream=True)\n'
            "for chunk in stream:\n"
            "    if chunk.choices and chunk.choices[0].delta.content:\n"
            '        print(chunk.choices[0].delta.content, end="", flush=True)\n'
            "print()\n"
        )
    elif condition == "healthy: curl completions":
        body = '{"model": "tiny-llama", "prompt": "Once upon a time", "max_tokens": 16}'
        s["cmd"] = [
            "curl",
            "-sS",
            f"{URL}/v1/completions",
            "-H",
            "Content-Type: application/json",
            "-d",
            body,
        ]
    else:
        raise KeyError(condition)
    return s


def draws():
    return draw_distinct_conditions(2128, CONDITIONS, 14)


def case_id(condition: str, value: str) -> str:
    return f"fresh128-client-{SLUG[value]}"


def wait_health(proc: subprocess.Popen, limit: float = 60) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end and proc.poll() is None:
        try:
            with urllib.request.urlopen(URL + "/health", timeout=2) as r:
                if r.status == 200:
                    return True
        except Exception:
            pass
        time.sleep(0.3)
    return False


def stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def make(i: int, condition: str, value: str) -> str:
    d = WORK / "run" / f"case{i:02d}"
    d.mkdir(parents=True, exist_ok=True)
    s = spec(condition, value)
    for name, text in s["files"].items():
        (d / name).write_text(text)
    server_cmd = [LLAMA, "-m", str(TINY_GGUF), "--alias", "tiny-llama", "--port", str(PORT), "-c", "2048"]
    server_cmd += s["server"]  # a later -c replaces the first
    with open(d / "server.log", "wb") as slog:
        server = subprocess.Popen(server_cmd, stdout=slog, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        if not wait_health(server):
            raise RuntimeError(f"llama-server did not come up for case {i}: see {d / 'server.log'}")
        cmd = [VPY if c == "python" else c for c in s["cmd"]]
        env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
        env["PYTHONUNBUFFERED"] = "1"
        client = subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        out = b""
        if s["stop"]:
            when, sig = s["stop"]
            if when == "first-byte":
                out = client.stdout.read(1)
            else:
                time.sleep(0.3)
            stop(server, sig)
        try:
            rest, _ = client.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            client.kill()
            rest, _ = client.communicate()
        out += rest
    finally:
        stop(server)
    shown = " ".join(shlex.quote(c) for c in s["cmd"])
    text = out.decode("utf-8", "replace")
    return f"$ {shown}\n{text}" + ("" if text.endswith("\n") else "\n")


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} = {v} -> {case_id(c, v)}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} = {v} ({why})")
        return
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(c, v)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make(i, c, v)
        (OUT / f"{cid}.log").write_text(text)
        print(f"{cid}: {len(text)} bytes, {time.monotonic() - t:.1f} s", flush=True)


if __name__ == "__main__":
    main()
