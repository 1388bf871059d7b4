#!/bin/bash
# fresh-17: usage go.sh TOTAL ; installs the bundle (parts already in $HOME/stash + p3 carried), then group A (6 at once), group B (3 at once)
# Copied from .gpu/run/go.sh of the ../shared/gpu kit layout (parts p0..p2 carried into $HOME/stash by three earlier calls;
# .gpu/whl also holds uvicorn, h11, click, anyio, idna, prometheus_client, prometheus-fastapi-instrumentator,
# model-hosting-container-standards, jmespath, supervisor, watchfiles, setproctitle, python-multipart).
T0=$(date +%s)
mkdir -p $HOME/stash && cp .gpu/p3/part.* $HOME/stash/ && ls -la $HOME/stash
bash .gpu/run/install.sh || exit 3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $HOME/site .gpu/whl/*.whl 2>&1 | grep -v -i warning | tail -3
export OUT
PYTHONPATH=$HOME/site python3 -c "import vllm.entrypoints.openai.api_server as a; import vllm.entrypoints.cli.serve; print('api_server import ok')" || exit 4
echo "setup secs $(( $(date +%s) - T0 ))"
A="quantization-awq-on-bf16 gpu-memory-utilization-95-percent chunked-prefill-off-batched-below-max-len max-num-batched-tokens-below-max-num-seqs rope-scaling-type-typo speculative-draft-model-missing lora-rank-1024-out-of-range hf-overrides-not-json auto-tool-choice-without-parser tool-call-parser-unknown-name chat-template-path-missing"
B="port-already-taken healthy-attention-backend-env-removed healthy-qwen25-float16 kv-cache-fp8-flex-attention load-format-safetensors-no-files max-model-len-131072-util-0.2"
python3 .gpu/run/serve_drive.py $(( $1 - ($(date +%s) - T0) )) 6 $A
echo "A done at $(( $(date +%s) - T0 ))"; nvidia-smi --query-gpu=memory.used --format=csv
python3 .gpu/run/serve_drive.py $(( $1 - ($(date +%s) - T0) )) 3 $B
echo "B done at $(( $(date +%s) - T0 ))"
