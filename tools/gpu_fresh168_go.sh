#!/bin/bash
# The last device call of batch fresh-168 (fresh-151's tools/gpu_fresh151_go.sh, copied; two changes: it makes the plain
# file /tmp/f168-a-file that two drawn cases point a cache folder at, and the driver is tools/gpu_fresh168_requests.py,
# which applies a case's "ulimit"). Before it, one call per part .gpu/p0 .. .gpu/p4 (build-bundle.sh /work/main/.gpu 30:
# five parts of 30 MiB and one of 7 MiB, so that the lead's ~27 MiB checkout + one part stays under a call's 64 MiB)
# each copied into $HOME/stash:
#   mkdir -p $HOME/stash && cp .gpu/pN/part.* $HOME/stash/
# This one carries .gpu/p5, .gpu/run (this script, gpu_serve_drive.py, gpu_fresh168_requests.py, the case file),
# .gpu/models and .gpu/whl (the API server's wheels), installs the bundle into $HOME/site, checks that the API server
# imports, then runs the driver; the word LEFT becomes the seconds left of TOTAL.
# Usage (from the project root on the device): bash .gpu/run/gpu_fresh168_go.sh TOTAL LASTPART DRIVER ARGS...
# As run: gpu_fresh168_go.sh TOTAL p5 gpu_fresh168_requests.py .gpu/run/gpu-fresh168-cases.json LEFT 12 1.0 e01 ... e12
T0=$(date +%s)
TOTAL=$1; LAST=$2; shift 2
mkdir -p $HOME/stash && cp .gpu/$LAST/part.* $HOME/stash/ && ls -la $HOME/stash
bash .gpu/run/install.sh || exit 3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $HOME/site .gpu/whl/*.whl 2>&1 | grep -v -i warning | tail -3
export OUT
PYTHONPATH=$HOME/site python3 -c "import vllm.entrypoints.openai.api_server as a; import vllm.entrypoints.cli.serve; print('api_server import ok')" || exit 4
echo not-a-folder > /tmp/f168-a-file
echo "setup secs $(( $(date +%s) - T0 ))"
script=$1; shift
args=()
for a in "$@"; do [ "$a" = LEFT ] && a=$(( TOTAL - ($(date +%s) - T0) )); args+=("$a"); done
python3 .gpu/run/$script "${args[@]}"
echo "$script done at $(( $(date +%s) - T0 ))"; nvidia-smi --query-gpu=memory.used --format=csv
