"""Draw the fresh-99 H200 cases (engine arguments drawn at random from vLLM 0.26's own `vllm serve --help`, each with
the value a user gets wrong) by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh99_draw.py            writes tools/gpu-fresh99-cases.json and prints the draw
       PYTHONPATH=<0.26 wheel unpacked> python3 tools/gpu_fresh99_draw.py --list
                                                     prints every option of 0.26's `vllm serve` parser (how ALL_FLAGS
                                                     below was made; run with .venv-vllm's python, vLLM 0.26.0's
                                                     vllm/ package from the wheel first on the path, device type
                                                     set by hand: the CPU box cannot infer one)
The cases are run by tools/gpu_serve_requests.py through tools/gpu-go.sh (real vLLM 0.26.0 `vllm serve`, one H200,
one server at a time, cheapest first).

BASE (fixed before the draw): google/gemma-3-1b-it's published config.json (tests/fixtures/checkpoints/gemma-3-1b-it,
the base fresh-67 and fresh-79 used), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init
--load-format dummy --max-model-len 4096` (dummy weights, no tokenizer; vLLM's defaults otherwise, compilation and
graphs included). Once the server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens":
16} with a 50-token prompt (token ids 1000..1049).

THE FLAGS: ALL_FLAGS is every option of vLLM 0.26.0's `vllm serve` parser (make_arg_parser of
vllm/entrypoints/openai/cli_args.py with vllm/engine/arg_utils.py's EngineArgs.add_cli_args and AsyncEngineArgs, the
serve subcommand's own options; each option by its first spelling; -h dropped): 274. DROPPED below, each with its
reason, are the flags that need files, services or hardware this device cannot give (one H200, one host, no network,
a text-only dense checkpoint without tokenizer or weights): a file, path, URL, hub revision or Python import path as
the value; more GPUs, nodes, NUMA sockets, Ray or another vendor's kernels; a model kind absent here (MoE,
multimodal, Mamba/hybrid, pooling, diffusion); a peer or service (KV transfer, OTLP, weight transfer); and the flags
the procedure itself fixes (--port, --host, --uds: the driver reaches the server on its TCP port; the base's
--skip-tokenizer-init, --load-format, --max-model-len; the model, given as the positional). Everything else is KEPT,
whether or not doctor might know it.

THE DRAW: r = random.Random(2099); flags = r.sample(KEPT, 12) (KEPT sorted). Then for each drawn flag in draw order,
its value class: r.random() < 0.25 -> "valid" (a healthy control); else r.choice over the error classes that APPLY to
that flag (APPLIES below, filled after the flags were drawn and before the classes were, from 0.26's source):
  out-of-range: a number below its minimum (negative, zero) or above a maximum the source checks; numeric flags only
  wrong-type: a value of the wrong type or an unknown choice (for a switch: a value given to it)
  incompatible: valid alone but refused with another flag a user would plausibly combine it with; only where 0.26's
      source has a check naming the pair (named in APPLIES)
The concrete value per (flag, class) is VALUES below, written after the draw and before anything ran on the device,
from 0.26's own checks and choices (the value a user gets wrong, not the one doctor might know).
Run order (fixed here, not by outcome): by cost class, "parse" (refused while the CLI is parsed; timeout 60 s),
"start" (an engine start; 170 s), then draw order. Each case has its own time bound ("timeout", seconds).
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh99-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2099
N = 12
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIME = {"parse": (60, 20), "start": (170, 100)}  # cost class -> (timeout, need)
RANK = {"parse": 0, "start": 1}

# every option of vLLM 0.26.0's `vllm serve` parser, in the parser's order (--list prints it)
ALL_FLAGS = [
    "--headless",
    "--api-server-count",
    "--config",
    "--grpc",
    "--lora-modules",
    "--chat-template",
    "--chat-template-content-format",
    "--trust-request-chat-template",
    "--default-chat-template-kwargs",
    "--response-role",
    "--return-tokens-as-token-ids",
    "--enable-auto-tool-choice",
    "--exclude-tools-when-tool-choice-none",
    "--tool-call-parser",
    "--tool-parser-plugin",
    "--tool-server",
    "--log-config-file",
    "--max-log-len",
    "--enable-prompt-tokens-details",
    "--enable-per-request-metrics",
    "--enable-server-load-tracking",
    "--enable-force-include-usage",
    "--enable-tokenizer-info-endpoint",
    "--enable-log-outputs",
    "--enable-log-deltas",
    "--log-error-stack",
    "--tokens-only",
    "--fingerprint-mode",
    "--fingerprint-value",
    "--host",
    "--port",
    "--data-parallel-supervisor-port",
    "--dp-supervisor-probe-interval-s",
    "--dp-supervisor-probe-timeout-s",
    "--dp-supervisor-probe-failure-threshold",
    "--uds",
    "--uvicorn-log-level",
    "--disable-uvicorn-access-log",
    "--disable-access-log-for-endpoints",
    "--allow-credentials",
    "--allowed-origins",
    "--allowed-methods",
    "--allowed-headers",
    "--api-key",
    "--ssl-keyfile",
    "--ssl-certfile",
    "--ssl-ca-certs",
    "--enable-ssl-refresh",
    "--ssl-cert-reqs",
    "--ssl-ciphers",
    "--root-path",
    "--middleware",
    "--enable-request-id-headers",
    "--disable-fastapi-docs",
    "--h11-max-incomplete-event-size",
    "--h11-max-header-count",
    "--enable-offline-docs",
    "--enable-flash-late-interaction",
    "--model",
    "--runner",
    "--convert",
    "--tokenizer",
    "--tokenizer-mode",
    "--trust-remote-code",
    "--dtype",
    "--seed",
    "--hf-config-path",
    "--allowed-local-media-path",
    "--allowed-media-domains",
    "--revision",
    "--code-revision",
    "--tokenizer-revision",
    "--max-model-len",
    "--quantization",
    "--quantization-config",
    "--allow-deprecated-quantization",
    "--enforce-eager",
    "--enable-return-routed-experts",
    "--max-logprobs",
    "--logprobs-mode",
    "--use-fp64-gumbel",
    "--disable-sliding-window",
    "--disable-cascade-attn",
    "--skip-tokenizer-init",
    "--enable-prompt-embeds",
    "--served-model-name",
    "--config-format",
    "--hf-token",
    "--hf-overrides",
    "--model-class-overrides",
    "--pooler-config",
    "--generation-config",
    "--override-generation-config",
    "--enable-sleep-mode",
    "--enable-cumem-allocator",
    "--model-impl",
    "--override-attention-dtype",
    "--logits-processors",
    "--io-processor-plugin",
    "--renderer-num-workers",
    "--load-format",
    "--download-dir",
    "--safetensors-load-strategy",
    "--safetensors-prefetch-num-threads",
    "--safetensors-prefetch-block-size",
    "--model-loader-extra-config",
    "--ignore-patterns",
    "--use-tqdm-on-load",
    "--pt-load-map-location",
    "--attention-backend",
    "--mamba-backend",
    "--enable-mamba-cache-stochastic-rounding",
    "--mamba-cache-philox-rounds",
    "--reasoning-parser",
    "--reasoning-parser-plugin",
    "--distributed-executor-backend",
    "--pipeline-parallel-size",
    "--master-addr",
    "--master-port",
    "--nnodes",
    "--node-rank",
    "--distributed-timeout-seconds",
    "--cpu-distributed-timeout-seconds",
    "--numa-bind",
    "--numa-bind-nodes",
    "--numa-bind-cpus",
    "--device-ids",
    "--tensor-parallel-size",
    "--decode-context-parallel-size",
    "--dcp-comm-backend",
    "--dcp-kv-cache-interleave-size",
    "--cp-kv-cache-interleave-size",
    "--prefill-context-parallel-size",
    "--data-parallel-size",
    "--data-parallel-rank",
    "--data-parallel-start-rank",
    "--data-parallel-size-local",
    "--data-parallel-address",
    "--data-parallel-rpc-port",
    "--data-parallel-backend",
    "--data-parallel-hybrid-lb",
    "--data-parallel-external-lb",
    "--data-parallel-multi-port-external-lb",
    "--enable-expert-parallel",
    "--enable-ep-weight-filter",
    "--all2all-backend",
    "--enable-dbo",
    "--ubatch-size",
    "--enable-elastic-ep",
    "--dbo-decode-token-threshold",
    "--dbo-prefill-token-threshold",
    "--disable-nccl-for-dp-synchronization",
    "--enable-eplb",
    "--eplb-config",
    "--expert-placement-strategy",
    "--max-parallel-loading-workers",
    "--ray-workers-use-nsight",
    "--disable-custom-all-reduce",
    "--worker-cls",
    "--worker-extension-cls",
    "--block-size",
    "--gpu-memory-utilization",
    "--kv-cache-memory-bytes",
    "--kv-cache-dtype",
    "--num-gpu-blocks-override",
    "--enable-prefix-caching",
    "--prefix-caching-hash-algo",
    "--calculate-kv-scales",
    "--kv-cache-dtype-skip-layers",
    "--kv-sharing-fast-prefill",
    "--mamba-cache-dtype",
    "--mamba-ssm-cache-dtype",
    "--mamba-block-size",
    "--prefix-match-unit",
    "--mamba-cache-mode",
    "--kv-offloading-size",
    "--kv-offloading-backend",
    "--offload-backend",
    "--cpu-offload-gb",
    "--cpu-offload-params",
    "--offload-group-size",
    "--offload-num-in-group",
    "--offload-prefetch-step",
    "--offload-params",
    "--language-model-only",
    "--limit-mm-per-prompt",
    "--enable-mm-embeds",
    "--media-io-kwargs",
    "--mm-processor-kwargs",
    "--mm-processor-cache-gb",
    "--mm-processor-cache-type",
    "--mm-shm-cache-max-object-size-mb",
    "--mm-encoder-only",
    "--mm-encoder-tp-mode",
    "--mm-encoder-attn-backend",
    "--mm-encoder-attn-dtype",
    "--mm-encoder-fp8-scale-path",
    "--mm-encoder-fp8-scale-save-path",
    "--mm-encoder-fp8-scale-save-margin",
    "--interleave-mm-strings",
    "--skip-mm-profiling",
    "--video-pruning-rate",
    "--mm-tensor-ipc",
    "--mm-ipc-gpu-memory-gb",
    "--enable-lora",
    "--max-loras",
    "--max-lora-rank",
    "--lora-dtype",
    "--enable-tower-connector-lora",
    "--max-cpu-loras",
    "--fully-sharded-loras",
    "--lora-target-modules",
    "--default-mm-loras",
    "--specialize-active-lora",
    "--enable-mixed-moe-lora-format",
    "--enable-moe-shared-loras",
    "--show-hidden-metrics-for-version",
    "--otlp-traces-endpoint",
    "--collect-detailed-traces",
    "--kv-cache-metrics",
    "--kv-cache-metrics-sample",
    "--cudagraph-metrics",
    "--enable-layerwise-nvtx-tracing",
    "--enable-mfu-metrics",
    "--enable-logging-iteration-details",
    "--jit-monitor-mode",
    "--jit-monitor-verbose",
    "--max-num-batched-tokens",
    "--max-num-scheduled-tokens",
    "--max-num-seqs",
    "--max-num-partial-prefills",
    "--max-long-partial-prefills",
    "--long-prefill-token-threshold",
    "--scheduling-policy",
    "--enable-chunked-prefill",
    "--disable-chunked-mm-input",
    "--scheduler-cls",
    "--scheduler-reserve-full-isl",
    "--watermark",
    "--prefill-schedule-interval",
    "--disable-hybrid-kv-cache-manager",
    "--async-scheduling",
    "--stream-interval",
    "--cudagraph-capture-sizes",
    "--max-cudagraph-capture-size",
    "--ir-op-priority",
    "--enable-flashinfer-autotune",
    "--enable-bf16x3-router-gemm",
    "--moe-backend",
    "--linear-backend",
    "--speculative-config",
    "--spec-method",
    "--spec-model",
    "--spec-tokens",
    "--diffusion-config",
    "--kv-transfer-config",
    "--kv-events-config",
    "--ec-transfer-config",
    "--compilation-config",
    "--attention-config",
    "--reasoning-config",
    "--kernel-config",
    "--additional-config",
    "--structured-outputs-config",
    "--profiler-config",
    "--optimization-level",
    "--performance-mode",
    "--weight-transfer-config",
    "--disable-log-stats",
    "--aggregate-engine-logging",
    "--fail-on-environ-validation",
    "--shutdown-timeout",
    "--gdn-prefill-backend",
    "--enable-log-requests",
]

_FILE = "its value is a file, path, URL or import path this device does not have"
_HUB = "its value names a Hugging Face Hub revision or token: the device has no network"
_GPUS = "needs more than one GPU, node or NUMA socket (one H200 in one host)"
_MOE = "acts on MoE models only (the base is dense)"
_MM = "acts on multimodal models only (the base is text-only)"
_MAMBA = "acts on Mamba / hybrid (GDN) models only (the base is a plain transformer)"
_PEER = "needs a peer process or an external service that does not exist here"
_FIXED = "fixed by the procedure (the base start or the driver, which reaches the server on its TCP port)"

DROPPED = {
    "--headless": _GPUS + " (a headless node serves another node's API server)",
    "--config": _FILE + " (a YAML file)",
    "--grpc": "needs vLLM's grpc extra (grpcio), not in the bundle, and a gRPC client",
    "--lora-modules": _FILE + " (LoRA adapter folders)",
    "--chat-template": _FILE + " (a Jinja template file)",
    "--tool-parser-plugin": _FILE,
    "--tool-server": _PEER + " (an MCP tool server)",
    "--log-config-file": _FILE,
    "--host": _FIXED,
    "--port": _FIXED,
    "--data-parallel-supervisor-port": _GPUS + " (data parallel)",
    "--dp-supervisor-probe-interval-s": _GPUS + " (data parallel)",
    "--dp-supervisor-probe-timeout-s": _GPUS + " (data parallel)",
    "--dp-supervisor-probe-failure-threshold": _GPUS + " (data parallel)",
    "--uds": _FIXED,
    "--ssl-keyfile": _FILE + " (a key)",
    "--ssl-certfile": _FILE + " (a certificate)",
    "--ssl-ca-certs": _FILE + " (CA certificates)",
    "--enable-ssl-refresh": _FILE + " (acts on the SSL files)",
    "--ssl-cert-reqs": _FILE + " (acts only with SSL files)",
    "--ssl-ciphers": _FILE + " (acts only with SSL files)",
    "--middleware": _FILE + " (a Python import path)",
    "--model": _FIXED + " (the model is the positional argument)",
    "--tokenizer": _FILE + " (a tokenizer folder or repo)",
    "--hf-config-path": _FILE,
    "--allowed-local-media-path": _FILE + "; " + _MM,
    "--allowed-media-domains": _MM,
    "--revision": _HUB,
    "--code-revision": _HUB,
    "--tokenizer-revision": _HUB,
    "--hf-token": _HUB,
    "--enable-return-routed-experts": _MOE,
    "--skip-tokenizer-init": _FIXED,
    "--pooler-config": "acts on pooling models only (the base generates)",
    "--logits-processors": _FILE + " (Python import paths)",
    "--io-processor-plugin": _FILE + " (a plugin)",
    "--load-format": _FIXED,
    "--download-dir": _FILE,
    "--mamba-backend": _MAMBA,
    "--enable-mamba-cache-stochastic-rounding": _MAMBA,
    "--mamba-cache-philox-rounds": _MAMBA,
    "--reasoning-parser-plugin": _FILE,
    "--pipeline-parallel-size": _GPUS,
    "--master-addr": _GPUS + " (multi-node)",
    "--master-port": _GPUS + " (multi-node)",
    "--nnodes": _GPUS + " (multi-node)",
    "--node-rank": _GPUS + " (multi-node)",
    "--numa-bind": _GPUS + " (NUMA binding)",
    "--numa-bind-nodes": _GPUS + " (NUMA binding)",
    "--numa-bind-cpus": _GPUS + " (NUMA binding)",
    "--tensor-parallel-size": _GPUS,
    "--decode-context-parallel-size": _GPUS,
    "--dcp-comm-backend": _GPUS,
    "--dcp-kv-cache-interleave-size": _GPUS,
    "--cp-kv-cache-interleave-size": _GPUS,
    "--prefill-context-parallel-size": _GPUS,
    "--data-parallel-size": _GPUS,
    "--data-parallel-rank": _GPUS,
    "--data-parallel-start-rank": _GPUS,
    "--data-parallel-size-local": _GPUS,
    "--data-parallel-address": _GPUS,
    "--data-parallel-rpc-port": _GPUS,
    "--data-parallel-backend": _GPUS,
    "--data-parallel-hybrid-lb": _GPUS,
    "--data-parallel-external-lb": _GPUS,
    "--data-parallel-multi-port-external-lb": _GPUS,
    "--enable-expert-parallel": _GPUS + "; " + _MOE,
    "--enable-ep-weight-filter": _GPUS + "; " + _MOE,
    "--all2all-backend": _GPUS + "; " + _MOE,
    "--enable-dbo": _GPUS + " (dual-batch overlap over expert parallel)",
    "--ubatch-size": _GPUS + " (micro-batches over expert parallel)",
    "--enable-elastic-ep": _GPUS + "; " + _MOE,
    "--dbo-decode-token-threshold": _GPUS + " (dual-batch overlap)",
    "--dbo-prefill-token-threshold": _GPUS + " (dual-batch overlap)",
    "--disable-nccl-for-dp-synchronization": _GPUS + " (data parallel)",
    "--enable-eplb": _GPUS + "; " + _MOE,
    "--eplb-config": _GPUS + "; " + _MOE,
    "--expert-placement-strategy": _GPUS + "; " + _MOE,
    "--ray-workers-use-nsight": "needs Ray (not in the bundle) and Nsight",
    "--disable-custom-all-reduce": _GPUS + " (all-reduce between GPUs)",
    "--worker-cls": _FILE + " (a Python import path)",
    "--worker-extension-cls": _FILE + " (a Python import path)",
    "--mamba-cache-dtype": _MAMBA,
    "--mamba-ssm-cache-dtype": _MAMBA,
    "--mamba-block-size": _MAMBA,
    "--mamba-cache-mode": _MAMBA,
    "--language-model-only": _MM,
    "--limit-mm-per-prompt": _MM,
    "--enable-mm-embeds": _MM,
    "--media-io-kwargs": _MM,
    "--mm-processor-kwargs": _MM,
    "--mm-processor-cache-gb": _MM,
    "--mm-processor-cache-type": _MM,
    "--mm-shm-cache-max-object-size-mb": _MM,
    "--mm-encoder-only": _MM,
    "--mm-encoder-tp-mode": _MM,
    "--mm-encoder-attn-backend": _MM,
    "--mm-encoder-attn-dtype": _MM,
    "--mm-encoder-fp8-scale-path": _MM + "; " + _FILE,
    "--mm-encoder-fp8-scale-save-path": _MM + "; " + _FILE,
    "--mm-encoder-fp8-scale-save-margin": _MM,
    "--interleave-mm-strings": _MM,
    "--skip-mm-profiling": _MM,
    "--video-pruning-rate": _MM,
    "--mm-tensor-ipc": _MM,
    "--mm-ipc-gpu-memory-gb": _MM,
    "--enable-tower-connector-lora": _MM,
    "--default-mm-loras": _MM + "; " + _FILE,
    "--enable-mixed-moe-lora-format": _MOE,
    "--enable-moe-shared-loras": _MOE,
    "--otlp-traces-endpoint": _PEER + " (an OpenTelemetry collector; opentelemetry is not in the bundle)",
    "--collect-detailed-traces": _PEER + " (acts only with --otlp-traces-endpoint)",
    "--scheduler-cls": _FILE + " (a Python import path)",
    "--enable-bf16x3-router-gemm": _MOE,
    "--moe-backend": _MOE,
    "--spec-model": _FILE + " (a draft model)",
    "--diffusion-config": "acts on diffusion models only",
    "--kv-transfer-config": _PEER + " (a KV connector's peer)",
    "--ec-transfer-config": _PEER + " (an encoder-cache connector's peer)",
    "--weight-transfer-config": _PEER + " (a trainer sending weights)",
    "--gdn-prefill-backend": _MAMBA,
    "--enable-flash-late-interaction": "acts on late-interaction pooling models only",
    "--max-model-len": _FIXED,
}
KEPT = sorted(f for f in ALL_FLAGS if f not in DROPPED)

# Written after the flags were drawn and before their classes were, from vLLM 0.26.0's source (the wheel):
# which error classes APPLY to each drawn flag ("valid" always applies; it is drawn with probability 0.25).
APPLIES = {
    # str parsed into OptimizationLevel(IntEnum O0..O3) (config/vllm.py); no check names it with another flag
    # (--enforce-eager over -O3 only warns: fresh-79's g07)
    "--optimization-level": ["out-of-range", "wrong-type"],
    # a switch (BooleanOptionalAction); its only refusal is Model Runner V2's, set by an environment variable, not a flag
    "--enable-prompt-embeds": ["wrong-type"],
    # int | None (config/cache.py), no bounds; the KV admission check (v1/core/kv_cache_utils.py) plans with
    # override * bytes-per-block and refuses a cache that cannot hold one --max-model-len request
    "--num-gpu-blocks-override": ["out-of-range", "wrong-type", "incompatible"],
    # Literal["warn", "error"] (config/observability.py); no pair check
    "--jit-monitor-mode": ["wrong-type"],
    # store_true; cli_args.validate_parsed_serve_args: '--enable-per-request-metrics requires engine statistics
    # logging; remove --disable-log-stats'
    "--disable-log-stats": ["wrong-type", "incompatible"],
    # a switch; deprecated, only warns (config/cache.py); the attention layer turns it off without refusal
    "--calculate-kv-scales": ["wrong-type"],
    # a switch; it is the bypass of the deprecated-quantization refusal (config/model.py), refuses nothing itself
    "--allow-deprecated-quantization": ["wrong-type"],
    # str: "auto", "vllm" or a folder (config/model.py try_get_generation_config); no pair check
    "--generation-config": ["wrong-type"],
    # dict or JSON string (config/load.py); DummyModelLoader refuses any extra config: 'Model loader extra config
    # is not supported for load format dummy' (model_executor/model_loader/dummy_loader.py)
    "--model-loader-extra-config": ["wrong-type", "incompatible"],
    # str | None validated by packaging's parse (config/observability.py); no bound, no pair check
    "--show-hidden-metrics-for-version": ["wrong-type"],
    # a switch; refused only on a platform without sleep mode (config/model.py), not by another flag
    "--enable-sleep-mode": ["wrong-type"],
    # float, Field(ge=0.0, lt=1.0) (config/scheduler.py); no pair check
    "--watermark": ["out-of-range", "wrong-type"],
}

# Written after the classes were drawn and before anything ran on the device: the concrete value per drawn
# (flag, class), from 0.26's own checks and choices, as a user gets it wrong: (extra serve args, cost class, why).
VALUES = {
    ("--optimization-level", "wrong-type"): (
        ["--optimization-level", "O3"],
        "parse",
        "the level's name as the docs write it (O3) where the flag takes the number (-O3 is the shorthand)",
    ),
    ("--enable-prompt-embeds", "valid"): (["--enable-prompt-embeds"], "start", "a healthy control"),
    ("--num-gpu-blocks-override", "wrong-type"): (
        ["--num-gpu-blocks-override", "auto"],
        "parse",
        "'auto' for an int | None flag (other flags take auto)",
    ),
    ("--jit-monitor-mode", "wrong-type"): (
        ["--jit-monitor-mode", "off"],
        "parse",
        "an unknown choice: the choices are warn and error, a user turning the monitor off writes off",
    ),
    ("--disable-log-stats", "incompatible"): (
        ["--disable-log-stats", "--enable-per-request-metrics"],
        "parse",
        "the pair cli_args.validate_parsed_serve_args refuses",
    ),
    ("--calculate-kv-scales", "valid"): (
        ["--calculate-kv-scales"],
        "start",
        "a healthy control (deprecated)",
    ),
    ("--allow-deprecated-quantization", "wrong-type"): (
        ["--allow-deprecated-quantization", "true"],
        "parse",
        "a value given to a switch",
    ),
    ("--generation-config", "wrong-type"): (
        ["--generation-config", "none"],
        "start",
        "'none' where the values are auto, vllm (vLLM's own defaults) or a folder",
    ),
    ("--model-loader-extra-config", "wrong-type"): (
        ["--model-loader-extra-config", "enable_multithread_load=true"],
        "start",
        "key=value where the flag takes a JSON object",
    ),
    ("--show-hidden-metrics-for-version", "valid"): (
        ["--show-hidden-metrics-for-version", "0.25"],
        "start",
        "a healthy control (the previous minor release)",
    ),
    ("--enable-sleep-mode", "valid"): (["--enable-sleep-mode"], "start", "a healthy control"),
    ("--watermark", "out-of-range"): (
        ["--watermark", "10"],
        "parse",
        "a percentage where the field is a fraction, Field(ge=0.0, lt=1.0)",
    ),
}


def make_case(flag, cls):
    extra, cost, why = VALUES[(flag, cls)]
    timeout, need = TIME[cost]
    return {"args": [BASE, *FLAGS, *extra], "env": {}, "timeout": timeout, "need": need, "mem": 1.0,
            "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": cost,
            "flag": flag, "class": cls, "value_why": why}  # fmt: skip


def draw():
    r = random.Random(SEED)
    flags = r.sample(KEPT, N)
    cases = {}
    for i, flag in enumerate(flags, 1):
        u = r.random()
        cls = "valid" if u < 0.25 else r.choice(APPLIES[flag])
        key = f"a{i:02d}"
        cases[key] = make_case(flag, cls)
        cases[key]["draw"] = f"draw {i}: {flag}: {cls} (u={u:.3f})"
    order = sorted(cases, key=lambda k: (RANK[cases[k]["cost"]], k))
    why = ("fresh-99 doctor-corpus cases (tools/gpu_fresh99_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H200, one at a time, via ../shared/gpu). Drawn, not chosen: see "
           "the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as published.")  # fmt: skip
    return {"why": why, "seed": SEED, "all_flags": len(ALL_FLAGS), "dropped": len(DROPPED), "kept": len(KEPT),
            "source": SOURCE, "order": order, "cases": cases}  # fmt: skip


def list_flags():
    """Every option of 0.26's `vllm serve` parser (needs 0.26's vllm/ package on the path)."""
    import vllm.platforms as platforms

    platforms.current_platform.device_type = (
        "cuda"  # the CPU box infers none; the parser's option set needs one
    )
    from vllm.entrypoints.openai.cli_args import make_arg_parser
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    parser = make_arg_parser(FlexibleArgumentParser())
    for action in parser._actions:
        if action.option_strings and action.option_strings[0] != "-h":
            print(action.option_strings[0])


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        list_flags()
        sys.exit(0)
    assert all(f in ALL_FLAGS for f in DROPPED) and len(ALL_FLAGS) == len(set(ALL_FLAGS))
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{len(ALL_FLAGS)} flags, {len(DROPPED)} dropped, {len(KEPT)} kept")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["cost"], " ".join(c["args"][6:]))
