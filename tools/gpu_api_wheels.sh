#!/usr/bin/env bash
# The API server's wheels for the device kit (../shared/gpu builds .gpu/whl with only the 23 wheels vLLM's engine
# imports): gpu-go.sh and gpu_fresh151_go.sh check `import vllm.entrypoints.openai.api_server` on the device, which
# needs uvicorn and the rest below. Stop 52's first go call on a fresh machine died there ("No module named
# 'uvicorn'", device time spent for nothing). Run this once after build-bundle.sh, before any device call:
#   bash tools/gpu_api_wheels.sh [.gpu/whl]
# Python 3.12 manylinux wheels (the device's interpreter), no dependencies resolved (the kit installs --no-deps).
set -euo pipefail
dest=${1:-.gpu/whl}
mkdir -p "$dest"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d "$dest" \
  uvicorn h11 click anyio idna sniffio prometheus_client prometheus-fastapi-instrumentator \
  model-hosting-container-standards jmespath supervisor watchfiles setproctitle python-multipart httptools uvloop
ls "$dest" | grep -c . | xargs echo "wheels in $dest:"
