"""The load `servebox bench` sends when a flag is not given: one source for the CLI's defaults and
run_bench()'s, which used to restate the same numbers (and could drift apart).

Kept in a module of plain constants so the CLI can build its options without importing the HTTP
client. The sizes match `vllm bench serve`'s random dataset in spirit (short prompts, short answers)
but are servebox's own choice (assumed): small enough to finish in seconds on a tiny model.
"""

from __future__ import annotations

REQUESTS = 32  # requests per load level (--num-prompts)
INPUT_TOKENS = 128  # synthetic prompt length, tokens (--random-input-len)
OUTPUT_TOKENS = 64  # completion length, tokens (--random-output-len)
TIMEOUT_S = 600.0  # one request's limit, seconds: a long answer on a slow engine still completes
