#!/bin/bash
# fresh-21 rerun: usage go2.sh TOTAL ; as gpu-fresh21-go.sh, for the two signal cases only (run together).
T0=$(date +%s)
mkdir -p $HOME/stash && cp .gpu/p3/part.* $HOME/stash/ && ls -la $HOME/stash
bash .gpu/run/install.sh || exit 3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $HOME/site .gpu/whl/*.whl 2>&1 | grep -v -i warning | tail -3
export OUT
PYTHONPATH=$HOME/site python3 -c "import vllm.entrypoints.openai.api_server as a; import vllm.entrypoints.cli.serve; print('api_server import ok')" || exit 4
echo "setup secs $(( $(date +%s) - T0 ))"
python3 .gpu/run/gpu_serve_requests.py .gpu/run/gpu-fresh21-cases.json $(( $1 - ($(date +%s) - T0) )) 2 0.5 sigterm-during-request ctrl-c-during-request
echo "all done at $(( $(date +%s) - T0 ))"; nvidia-smi --query-gpu=memory.used --format=csv
