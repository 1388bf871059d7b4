"""Draw the fresh-370 GPU cases: ROUND 3 of fresh-99's space -- engine arguments drawn at random from vLLM 0.26's own
`vllm serve` parser, each with the value a user gets wrong -- a re-draw of tools/gpu_fresh340_draw.py's universe with
a new seed, every (flag, value class) fresh-340 and its predecessor fresh-99 drew left out as already made. Real vLLM
0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh370_draw.py              writes tools/gpu-fresh370-cases.json and prints the draw
       python3 tools/gpu_fresh370_draw.py --flags      prints the drawn flags only (stage 1 of the draw)
       python3 tools/gpu_fresh370_draw.py --schedule   prints the worst-case schedule (every case at its timeout)
       python3 tools/gpu_fresh370_draw.py --models DIR writes DIR/gemma-3-1b/config.json (the fixture, byte for byte)
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folder into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh370-cases.json LEFT 8 0.95
       <the file's "order">
(tools/gpu_serve_requests.py starts cases in the order given while the running cases' "mem" plus the next one's stays
within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need" is skipped.)

THE UNIVERSE is fresh-99's (and fresh-340's), imported unchanged: ALL_FLAGS (every option of vLLM 0.26.0's `vllm
serve` parser, 274), DROPPED (123, each with its reason in tools/gpu_fresh99_draw.py) and KEPT (151, sorted); the
value classes, the base, the body, the cost classes, the bookings and the case shape are fresh-340's (make_case and
with_base below are its code).
SOURCES: vLLM 0.26.0's OWN source, read from the wheel the kit is built from (/work/main/.gpu/build/vllm-0.26.0-cp38-
abi3-manylinux_2_28_x86_64.whl; engine/arg_utils.py, config/*.py, entrypoints/openai/cli_args.py, entrypoints/serve,
v1/core/kv_cache_utils.py unzipped into /tmp/gpu370), for APPLIES and VALUES below. Not read: doctor, its knowledge,
tests, any earlier batch's logs.
EARLIER GPU MAKERS checked (their universes only: the docstrings of tools/gpu_fresh99_draw.py and
tools/gpu_fresh340_draw.py, tools/gpu-fresh340-cases.json's draw lines, the manifest's fresh-340 batch HEADER):
fresh-99 (this space, round 1) and fresh-340 (round 2): their 24 drawn (flag, value class) pairs are SKIPPED here
(read from their VALUES). Also left out: a class whose only refusal is the very check a skipped pair already made
(named in APPLIES where it happens).

BASE (fresh-340's, fixed before the draw): `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init --load-format dummy
--max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648` (google/gemma-3-1b-it's
published config.json, tests/fixtures/checkpoints/gemma-3-1b-it, unedited). A drawn flag the base carries REPLACES the
base's value. Once a server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16}
with a 50-token prompt (token ids 1000..1049).

THE DRAW: r = random.Random(2370); flags = r.sample(KEPT, 12) (stage 1). APPLIES (the error classes that apply to
each drawn flag, from 0.26's source, fresh-99's class definitions) is written after stage 1 and before stage 2.
Stage 2, per drawn flag in draw order: left = [c for c in APPLIES[flag] if (flag, c) not in SKIP] (SKIP = fresh-99's
and fresh-340's 24 pairs); valid_ok = (flag, "valid") not in SKIP; u = r.random(); "valid" if valid_ok and (u < 0.25
or not left), else r.choice(left); a flag with no class left is dropped and not replaced. VALUES (the concrete value
per drawn (flag, class), as a user gets it wrong) is written after stage 2 and before anything ran on the device.
Classes (fresh-99's): valid (a healthy control); out-of-range (a number below its minimum or above a maximum the
source checks; numeric flags only); wrong-type (a value of the wrong type or an unknown choice; for a switch, a value
given to it); incompatible (valid alone, refused with another flag a user would plausibly combine it with, only
where 0.26's source has a check naming the pair).
MEMORY BOUND BY CONSTRUCTION (fresh-340's): every engine runs at --gpu-memory-utilization 0.1 (a cap of 8 GB on an
80 GB card); 8 at once cannot pass ~64 GB + CUDA contexts. Booking ("mem"): "start" cases 0.12, "parse" cases 0.05.
TIME (fresh-340's classes): "parse" = refused while the CLI is parsed or the engine config is built in the API server
process (timeout 75, need 25); "start" = an engine start (timeout 240, need 150). "order" = the start cases (draw
order), then the parse cases (draw order).
"""

import json  # noqa: F401 (used once stage 2 is written)
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_draw_models import write_models  # noqa: E402, F401
from gpu_fresh99_draw import ALL_FLAGS, DROPPED, KEPT  # noqa: E402, F401
from gpu_fresh99_draw import VALUES as F99_VALUES  # noqa: E402
from gpu_fresh340_draw import BASE, BODY, FLAGS, MEM, PARALLEL, RANK, TIME  # noqa: E402, F401
from gpu_fresh340_draw import VALUES as F340_VALUES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh370-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2370
N = 12
P_VALID = 0.25
SKIP = frozenset(F99_VALUES) | frozenset(F340_VALUES)  # fresh-99's and fresh-340's 24 (flag, class) pairs
PARALLEL_MAX, MEM_CAP, ENGINE_S = 8, 0.95, 420  # the go call's PARALLEL, MEM_CAP; the engine-time bound

# written after stage 1 (the flags) and before stage 2 (the classes), from vLLM 0.26.0's source
APPLIES = {
    # int | None, Field(ge=1) (config/parallel.py); ParallelConfig only warns 'max_parallel_loading_workers is
    # currently not supported and will be ignored'; no pair check
    "--max-parallel-loading-workers": ["out-of-range", "wrong-type"],
    # bool | None (config/scheduler.py, a switch with a --no- form); SchedulerConfig.verify_max_model_len refuses
    # 'max_num_batched_tokens (B) is smaller than max_model_len (L)' when chunked prefill is off (the pair with
    # --max-num-batched-tokens) and 'Chunked prefill must be enabled to set max_num_partial_prefills > 1'
    "--enable-chunked-prefill": ["wrong-type", "incompatible"],
    # a switch; the bypass of the deprecated-quantization refusal (config/model.py), refuses nothing itself
    # (fresh-99's reading; wrong-type already made by fresh-99)
    "--allow-deprecated-quantization": ["wrong-type"],
    # store_true (arg_utils), handed to AsyncLLM's stat loggers (v1/metrics/loggers.py), acts only with data
    # parallelism; no check
    "--aggregate-engine-logging": ["wrong-type"],
    # str: "auto", "vllm" or a folder (config/model.py); no pair check (fresh-99's reading; wrong-type already made)
    "--generation-config": ["wrong-type"],
    # int | None, Field(gt=0) (config/cache.py); v1/core/kv_cache_utils.py refuses 'Invalid prefix_match_unit=U;
    # all KV cache group block sizes must be divisible by prefix_match_unit' when the model has several KV cache
    # groups (gemma-3's sliding-window and full-attention layers) and prefix caching is on (the pair with
    # --block-size, whose value the groups' block size follows)
    "--prefix-match-unit": ["out-of-range", "wrong-type", "incompatible"],
    # bool switch (FrontendArgs), passed to the chat serving; no check
    "--exclude-tools-when-tool-choice-none": ["wrong-type"],
    # bool | None switch (config/kernel.py); its only refusal is create_engine_config's 'enable_flashinfer_autotune
    # and kernel_config.enable_flashinfer_autotune are mutually exclusive' -- the very check fresh-340's g02
    # (--kernel-config, incompatible) made, so "incompatible" is left out here as already made
    "--enable-flashinfer-autotune": ["wrong-type"],
    # Literal full/hash/custom/none (FrontendArgs); custom without --fingerprint-value returns None, no refusal
    "--fingerprint-mode": ["wrong-type"],
    # float, Field(gt=0, le=1) (config/observability.py); read only with --kv-cache-metrics, no pair check
    "--kv-cache-metrics-sample": ["out-of-range", "wrong-type"],
    # a JSON object parsed into KVEventsConfig; no refusing pair, only warnings (fresh-340's reading; wrong-type
    # already made)
    "--kv-events-config": ["wrong-type"],
    # bool switch (FrontendArgs); no pair check (fresh-340's reading; wrong-type already made)
    "--enable-log-deltas": ["wrong-type"],
}

# written after stage 2 and before anything ran on the device: (extra serve args, cost class, why)
VALUES = {}


def draw_flags():
    r = random.Random(SEED)
    return r, r.sample(KEPT, N)


def draw_classes():
    r, flags = draw_flags()
    out = []
    for i, flag in enumerate(flags, 1):
        left = [c for c in APPLIES[flag] if (flag, c) not in SKIP]
        valid_ok = (flag, "valid") not in SKIP
        u = r.random()
        if valid_ok and (u < P_VALID or not left):
            cls = "valid"
        elif left:
            cls = r.choice(left)
        else:
            cls = None  # no class left: dropped, not replaced
        out.append((i, flag, cls, u))
    return out


if __name__ == "__main__":
    assert len(SKIP) == 24 and all(f in KEPT for f, _ in SKIP)
    if sys.argv[1:] == ["--flags"]:
        for i, f in enumerate(draw_flags()[1], 1):
            done = ", ".join(c for g, c in sorted(SKIP) if g == f)
            print(i, f, f"(already made: {done})" if done else "")
        sys.exit(0)
