#!/bin/bash
# fresh-21: usage go.sh TOTAL ; parts p0..p2 already in $HOME/stash (three earlier calls), p3 + whl + run + models carried.
# Installs the bundle and the API server's wheels, then drives every case of tools/gpu-fresh21-cases.json
# (copied to .gpu/run/) with tools/gpu_serve_requests.py (and tools/gpu_serve_drive.py beside it): 4 heavy + 9 small request cases at once, then the two
# memory cases alone.
T0=$(date +%s)
mkdir -p $HOME/stash && cp .gpu/p3/part.* $HOME/stash/ && ls -la $HOME/stash
bash .gpu/run/install.sh || exit 3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $HOME/site .gpu/whl/*.whl 2>&1 | grep -v -i warning | tail -3
export OUT
PYTHONPATH=$HOME/site python3 -c "import vllm.entrypoints.openai.api_server as a; import vllm.entrypoints.cli.serve; print('api_server import ok')" || exit 4
echo "setup secs $(( $(date +%s) - T0 ))"
H="engine-core-sigkill-mid-request healthy-cuda-graphs-requests healthy-enforce-eager-requests prompt-longer-than-max-model-len"
S="max-tokens-beyond-context temperature-negative n-zero logit-bias-out-of-vocab response-format-bad-schema sigterm-during-request served-model-name-wrong-model embeddings-on-generate-model lora-adapter-never-loaded"
M="cuda-graphs-no-memory-left-1024-seqs two-engines-0.55-each-one-gpu"
python3 .gpu/run/gpu_serve_requests.py .gpu/run/gpu-fresh21-cases.json $(( $1 - ($(date +%s) - T0) )) 13 0.9 $H $S $M
echo "all done at $(( $(date +%s) - T0 ))"; nvidia-smi --query-gpu=memory.used --format=csv
