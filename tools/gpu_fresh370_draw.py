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
process (timeout 75, need 25); "start" = an engine start (timeout 240, need 150). "order" = the PARSE cases (draw
order), then the START cases (draw order) -- unlike fresh-340, fixed after VALUES and before anything ran, for the
schedule only (no case's arguments change): with 7 parse and 5 start cases, starts-first puts 5 starts + 3 parse in
the first 8 slots and leaves 4 parse for 3 slots (a third wave if the parse cases ran to their timeout), parse-first
gives two waves: 7 parse + 1 start at t=0, the other 4 starts as the parse cases end (~25-50 s; at the latest 75 s).
--schedule simulates the driver's rule with every case at its timeout: all done by 315 s <= 420 (the assert in
__main__ holds the file to 12 cases, two waves, <= 420 s). Memory at most 7 x 0.05 + 0.12 = 0.47, then 5 x 0.12 =
0.60 of the card's 0.95.

THE DRAW GAVE (stage 1 printed by --flags, committed 2ba96dac before APPLIES; APPLIES committed 6b69bee9 before
stage 2; stage 2 by draw_classes()): 12 flags, four of them drawn before (3 --allow-deprecated-quantization and 5
--generation-config: fresh-99's wrong-type; 11 --kv-events-config and 12 --enable-log-deltas: fresh-340's wrong-type)
whose only class left was none, so "valid" by the rule; 4 valid (draws 3, 5, 11, 12), 6 wrong-type, 1 out-of-range, 1
incompatible; no flag dropped. Cases (cost class; EXPECTED, written from 0.26's source before anything ran):
  g01 --max-parallel-loading-workers auto (parse): argparse exit 2, "argument --max-parallel-loading-workers: Value
      auto cannot be converted to <class 'int'>." (arg_utils.optional_type / parse_type);
  g02 --enable-chunked-prefill False (parse): argparse exit 2, 'unrecognized arguments: False';
  g03 --allow-deprecated-quantization (START, full cold start): healthy, the POST 200;
  g04 --aggregate-engine-logging=true (parse): argparse exit 2, "argument --aggregate-engine-logging: ignored
      explicit argument 'true'";
  g05 --generation-config vllm (START, full cold start): healthy, the POST 200;
  g06 --block-size 16 --prefix-match-unit 32 (START: refused in the engine core once the KV cache groups are known,
      v1/engine/core.py -> kv_cache_utils.resolve_kv_cache_block_sizes, ~60-120 s): ValueError 'Invalid
      prefix_match_unit=32; all KV cache group block sizes must be divisible by prefix_match_unit. Got group block
      sizes=[16, ...]', then the API server's engine core initialization failure, exit 1. (If 0.26 gives gemma-3 one
      KV cache group, the check is not reached and the server comes up healthy: to be said so, not replaced.)
  g07 --exclude-tools-when-tool-choice-none yes (parse): argparse exit 2, 'unrecognized arguments: yes';
  g08 --enable-flashinfer-autotune=0 (parse): argparse exit 2, "argument --enable-flashinfer-autotune: ignored
      explicit argument '0'";
  g09 --fingerprint-mode off (parse): argparse exit 2, "argument --fingerprint-mode: invalid choice: 'off' (choose
      from full, hash, custom, none)";
  g10 --kv-cache-metrics --kv-cache-metrics-sample 5 (parse, config build): pydantic ValidationError from
      ObservabilityConfig, kv_cache_metrics_sample 'Input should be less than or equal to 1', exit 1, before any
      engine core;
  g11 --kv-events-config '{"enable_kv_cache_events": true, "publisher": "zmq"}' (START, full cold start): healthy
      (events published on tcp://*:5557 with no subscriber), the POST 200;
  g12 --enable-log-requests --enable-log-outputs --enable-log-deltas (START, full cold start): healthy, the POST 200,
      with the request / output log lines.
So 7 cases end in seconds (6 at argparse, exit 2; g10 while the engine config is built), 1 is refused in the engine
core's start (g06), 4 are full cold starts (g03, g05, g11, g12).
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_draw_models import write_models  # noqa: E402
from gpu_fresh99_draw import ALL_FLAGS, DROPPED, KEPT  # noqa: E402
from gpu_fresh99_draw import VALUES as F99_VALUES  # noqa: E402
from gpu_fresh340_draw import BASE, BODY, FLAGS, MEM, PARALLEL, TIME  # noqa: E402
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
RANK = {
    "parse": 0,
    "start": 1,
}  # parse first: 5 starts + 7 parse fit two waves only this way (see the docstring)
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
VALUES = {
    ("--max-parallel-loading-workers", "wrong-type"): (
        ["--max-parallel-loading-workers", "auto"],
        "parse",
        "'auto' for an int | None flag (other flags take auto)",
    ),
    ("--enable-chunked-prefill", "wrong-type"): (
        ["--enable-chunked-prefill", "False"],
        "parse",
        "the old optional-bool form (older vLLM took --enable-chunked-prefill False); now a switch with a --no- form",
    ),
    ("--allow-deprecated-quantization", "valid"): (
        ["--allow-deprecated-quantization"],
        "start",
        "a healthy control (the switch on an unquantized model: nothing to allow)",
    ),
    ("--aggregate-engine-logging", "wrong-type"): (
        ["--aggregate-engine-logging=true"],
        "parse",
        "flag=true for a store_true switch",
    ),
    ("--generation-config", "valid"): (
        ["--generation-config", "vllm"],
        "start",
        "a healthy control (vLLM's own sampling defaults instead of the model's)",
    ),
    ("--prefix-match-unit", "incompatible"): (
        ["--block-size", "16", "--prefix-match-unit", "32"],
        "start",
        "a match unit coarser than the KV block (the unit must divide every KV cache group's block size)",
    ),
    ("--exclude-tools-when-tool-choice-none", "wrong-type"): (
        ["--exclude-tools-when-tool-choice-none", "yes"],
        "parse",
        "'yes' given to a switch",
    ),
    ("--enable-flashinfer-autotune", "wrong-type"): (
        ["--enable-flashinfer-autotune=0"],
        "parse",
        "flag=0 to turn a switch off (the off form is --no-enable-flashinfer-autotune)",
    ),
    ("--fingerprint-mode", "wrong-type"): (
        ["--fingerprint-mode", "off"],
        "parse",
        "an unknown choice: the choices are full, hash, custom and none; a user turning it off writes off",
    ),
    ("--kv-cache-metrics-sample", "out-of-range"): (
        ["--kv-cache-metrics", "--kv-cache-metrics-sample", "5"],
        "parse",
        "a percentage (5 %) where the field is a fraction, Field(gt=0, le=1)",
    ),
    ("--kv-events-config", "valid"): (
        ["--kv-events-config", '{"enable_kv_cache_events": true, "publisher": "zmq"}'],
        "start",
        "a healthy control: KV cache events on the zmq publisher (its default endpoint tcp://*:5557)",
    ),
    ("--enable-log-deltas", "valid"): (
        ["--enable-log-requests", "--enable-log-outputs", "--enable-log-deltas"],
        "start",
        "a healthy control: request and output logging with deltas (--enable-log-outputs needs --enable-log-requests)",
    ),
}


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


def with_base(extra):
    """The base's args with the drawn ones; a drawn flag the base carries replaces the base's value."""
    base = [*FLAGS, *PARALLEL]
    for j in range(len(base) - 1, -1, -1):
        if base[j].startswith("--") and base[j] in extra:
            del base[j : j + 2]
    return [BASE, *base, *extra]


def make_case(flag, cls):
    extra, cost, why = VALUES[(flag, cls)]
    timeout, need = TIME[cost]
    return {"args": with_base(extra), "env": {}, "timeout": timeout, "need": need, "mem": MEM[cost],
            "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": cost,
            "flag": flag, "class": cls, "value_why": why}  # fmt: skip


def draw():
    cases = {}
    for i, flag, cls, u in draw_classes():
        if cls is None:
            continue
        key = f"g{i:02d}"
        cases[key] = make_case(flag, cls)
        cases[key]["draw"] = f"draw {i}: {flag}: {cls} (u={u:.3f})"
    order = sorted(cases, key=lambda k: (RANK[cases[k]["cost"]], k))
    why = ("fresh-370 doctor-corpus cases (tools/gpu_fresh370_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100/H200, side by side). Round 3 of fresh-99's space, drawn, "
           "not chosen, fresh-99's and fresh-340's pairs skipped: see the draw script's docstring. The base model's "
           "config.json is google/gemma-3-1b-it's as published.")  # fmt: skip
    return {"why": why, "seed": SEED, "all_flags": len(ALL_FLAGS), "dropped": len(DROPPED), "kept": len(KEPT),
            "skipped_pairs": sorted(map(list, SKIP)), "source": SOURCE, "order": order, "cases": cases}  # fmt: skip


def schedule(out):
    """The driver's start rule with every case running to its timeout (the worst case): returns (end, waves)."""
    running, t, waves = [], 0.0, []  # running: (end, mem)
    for k in out["order"]:
        c = out["cases"][k]
        while running and (
            len(running) >= PARALLEL_MAX or sum(m for _, m in running) + c["mem"] > MEM_CAP + 1e-9
        ):
            running.sort()
            t = max(t, running.pop(0)[0])
        if not waves or t > waves[-1][0]:
            waves.append((t, []))
        waves[-1][1].append(k)
        running.append((t + c["timeout"], c["mem"]))
    return max(e for e, _ in running), waves


if __name__ == "__main__":
    assert len(SKIP) == 24 and all(f in KEPT for f, _ in SKIP)
    if sys.argv[1:] == ["--flags"]:
        for i, f in enumerate(draw_flags()[1], 1):
            done = ", ".join(c for g, c in sorted(SKIP) if g == f)
            print(i, f, f"(already made: {done})" if done else "")
        sys.exit(0)
    if sys.argv[1:2] == ["--models"]:
        write_models({"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}}, sys.argv[2], FIXTURES)
        sys.exit(0)
    out = draw()
    end, waves = schedule(out)
    assert len(out["cases"]) == N and end <= ENGINE_S and len(waves) <= 2, (end, waves)
    if sys.argv[1:] == ["--schedule"]:
        for t, ks in waves:
            print(f"start at {t:.0f} s:", " ".join(ks))
        print(f"worst case (every case at its timeout): all done by {end:.0f} s <= {ENGINE_S}")
        sys.exit(0)
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{len(ALL_FLAGS)} flags, {len(DROPPED)} dropped, {len(KEPT)} kept, {len(SKIP)} pairs skipped")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["cost"], " ".join(c["args"][1:]))
