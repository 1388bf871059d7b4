#!/bin/bash
# The last device call of a batch made on the H200 (../shared/gpu kit), shared by fresh-17, fresh-21 and fresh-24.
# Before it, three calls each carried one of .gpu/p0 .. .gpu/p2 and copied it: mkdir -p $HOME/stash && cp .gpu/pN/part.*
# $HOME/stash/ (a call carries at most 64 MiB). This one carries .gpu/p3, .gpu/run (this script, the drivers, the
# case file), .gpu/models and .gpu/whl (the API server's wheels: uvicorn, h11, click, anyio, idna, prometheus_client,
# prometheus-fastapi-instrumentator, model-hosting-container-standards, jmespath, supervisor, watchfiles,
# setproctitle, python-multipart). It installs the bundle into $HOME/site, checks that the API server imports, then
# runs each driver command in turn; the word LEFT in a command becomes the seconds left of TOTAL.
# Usage (from the project root on the device): bash .gpu/run/gpu-go.sh TOTAL DRIVER ARGS... [-- DRIVER ARGS...]
# DRIVER is a script in .gpu/run/ (tools/gpu_serve_drive.py copied there as serve_drive.py for fresh-13/17's scases/
# layout, or as gpu_serve_drive.py beside tools/gpu_serve_requests.py). As run:
#   fresh-17: gpu-go.sh 560 serve_drive.py LEFT 6 <group A> -- serve_drive.py LEFT 3 <group B>
#   fresh-21: gpu-go.sh 560 gpu_serve_requests.py .gpu/run/gpu-fresh21-cases.json LEFT 13 0.9 <cases>
#             (rerun: ... LEFT 2 0.5 sigterm-during-request ctrl-c-during-request)
#   fresh-24: gpu-go.sh 575 gpu_serve_requests.py .gpu/run/gpu-fresh24-cases.json LEFT 16 0.95 <cases in its order>
T0=$(date +%s)
TOTAL=$1; shift
mkdir -p $HOME/stash && cp .gpu/p3/part.* $HOME/stash/ && ls -la $HOME/stash
bash .gpu/run/install.sh || exit 3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $HOME/site .gpu/whl/*.whl 2>&1 | grep -v -i warning | tail -3
export OUT
PYTHONPATH=$HOME/site python3 -c "import vllm.entrypoints.openai.api_server as a; import vllm.entrypoints.cli.serve; print('api_server import ok')" || exit 4
echo "setup secs $(( $(date +%s) - T0 ))"
run() {
  local script=$1; shift
  local args=() a
  for a in "$@"; do [ "$a" = LEFT ] && a=$(( TOTAL - ($(date +%s) - T0) )); args+=("$a"); done
  python3 .gpu/run/$script "${args[@]}"
  echo "$script done at $(( $(date +%s) - T0 ))"; nvidia-smi --query-gpu=memory.used --format=csv
}
cmd=()
for a in "$@"; do
  if [ "$a" = -- ]; then run "${cmd[@]}"; cmd=(); else cmd+=("$a"); fi
done
[ ${#cmd[@]} -gt 0 ] && run "${cmd[@]}"
