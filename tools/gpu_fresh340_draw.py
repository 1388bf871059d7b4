"""Draw the fresh-340 GPU cases: ROUND 2 of fresh-99's space -- engine arguments drawn at random from vLLM 0.26's own
`vllm serve` parser, each with the value a user gets wrong -- by a procedure fixed before anything ran: sampled, not
chosen. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no tokenizer.

Usage: python3 tools/gpu_fresh340_draw.py              writes tools/gpu-fresh340-cases.json and prints the draw
       python3 tools/gpu_fresh340_draw.py --flags      prints the drawn flags only (stage 1 of the draw)
       python3 tools/gpu_fresh340_draw.py --models DIR writes DIR/gemma-3-1b/config.json (the fixture, byte for byte)
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh340-cases.json LEFT 8 0.95
       <the file's "order">
(tools/gpu_serve_requests.py, unchanged: it starts cases in the order given while the running cases' "mem" plus the
next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need" is skipped.)

THE UNIVERSE is fresh-99's, imported from tools/gpu_fresh99_draw.py unchanged: ALL_FLAGS (every option of vLLM
0.26.0's `vllm serve` parser, 274), DROPPED (123, each with its reason there) and KEPT (151, sorted).
SOURCES: vLLM 0.26.0's OWN source, read from the wheel the kit is built from (/work/main/.gpu/build/vllm-0.26.0-cp38-
abi3-manylinux_2_28_x86_64.whl; engine/arg_utils.py, config/*.py, entrypoints/openai/cli_args.py unzipped into
/tmp/gpu340), for APPLIES and VALUES below. Not read: doctor, its knowledge, tests, any earlier batch's logs.
EARLIER GPU MAKERS checked (their universes only: docstrings of tools/gpu_fresh*_draw.py, the draw lines of
tools/gpu-fresh*-cases.json, the manifest's batch headers): fresh-99 (this space, round 1: its twelve drawn (flag,
value class) pairs are SKIPPED here, read from its VALUES), fresh-105 (env variables on the same base, side by side).

BASE (fixed before the draw): fresh-99's base (google/gemma-3-1b-it's published config.json,
tests/fixtures/checkpoints/gemma-3-1b-it; the device folder .gpu/models/gemma-3-1b), with fresh-105's side-by-side
pair so that the 12 cases fit one device call: `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init
--load-format dummy --max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648` (a fixed
2 GiB KV cache skips the memory profiling neighbours would disturb). A drawn flag the base carries REPLACES the base's
value. Once a server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16} with a
50-token prompt (token ids 1000..1049).

THE DRAW: r = random.Random(2340); flags = r.sample(KEPT, 12) (stage 1). APPLIES (the error classes that apply to
each drawn flag, from 0.26's source, same class definitions as fresh-99) is written after stage 1 and before stage 2.
Stage 2, per drawn flag in draw order: left = [c for c in APPLIES[flag] if (flag, c) not in SKIP] (SKIP = fresh-99's
twelve pairs); valid_ok = (flag, "valid") not in SKIP; u = r.random(); "valid" if valid_ok and (u < 0.25 or not
left), else r.choice(left); a flag with no class left is dropped and not replaced. VALUES (the concrete value per
drawn (flag, class), as a user gets it wrong) is written after stage 2 and before anything ran on the device.
Classes (fresh-99's): valid (a healthy control); out-of-range (a number below its minimum or above a maximum the
source checks; numeric flags only); wrong-type (a value of the wrong type or an unknown choice; for a switch, a value
given to it); incompatible (valid alone, refused with another flag a user would plausibly combine it with, only
where 0.26's source has a check naming the pair).
MEMORY BOUND BY CONSTRUCTION: every engine runs at --gpu-memory-utilization 0.1 (a cap of 8 GB on an 80 GB card:
gemma-3-1b's ~2 GB of weights, the fixed 2 GiB KV cache, graphs, activations); 8 at once cannot pass ~64 GB + CUDA
contexts whatever each case does. Booking ("mem", what the driver sums within 0.95): "start" cases 0.12, "parse"
cases 0.05 (they are expected to exit before any engine core takes the GPU; if one does start, the 0.1 cap still
holds it to 8 GB).
TIME: cost class "parse" = refused while the CLI is parsed or the engine config is built in the API server
process, before any engine core or GPU work (seconds after vLLM's imports, ~20-50 s a case; timeout 75, need 25);
"start" = an engine start (a cold start of 40-130 s, slower side by side; timeout 240, need 150). "order" = the
start cases (draw order), then the parse cases (draw order). DISCLOSED: stage 1's commit said parse first and booked
every case at 0.12; the order and the parse booking were changed after the values were written (before anything ran),
for the schedule only: no case's arguments changed, only when it starts, so the four long starts overlap the parse
cases. With 8 at once: 4 starts + 4 parse at t=0, the other 4 parse as the first end: all done by ~150-250 s of the ~490
left after the go script's setup.

THE DRAW GAVE (stage 1 printed by --flags, stage 2 by draw_classes(), each after the commit before it): 12 flags,
none of them among fresh-99's; 3 valid (draws 5, 8, 9: u = 0.152, 0.249, 0.159), 6 wrong-type, 3 incompatible; no
flag dropped. Cases (cost class; EXPECTED, written from 0.26's source before anything ran):
  g01 --enable-log-deltas false (parse): argparse exit 2, 'unrecognized arguments: false';
  g02 --kernel-config '{"enable_flashinfer_autotune": false}' --no-enable-flashinfer-autotune (parse, config build):
      ValueError 'enable_flashinfer_autotune and kernel_config.enable_flashinfer_autotune are mutually exclusive';
  g03 --dtype float32 --attention-backend FLASH_ATTN (START: refused in the engine core's worker while the model's
      attention layers pick their backend, before weights: ~40-70 s): ValueError 'Selected backend
      AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. Reason: [... 'dtype not supported' ...]',
      then the engine core's initialization failure in the API server;
  g04 --disable-fastapi-docs=true (parse): argparse exit 2, 'ignored explicit argument 'true'';
  g05 --enable-lora --lora-target-modules q_proj v_proj (START, full cold start): healthy, the POST 200;
  g06 --enable-auto-tool-choice hermes (parse): argparse exit 2, 'unrecognized arguments: hermes' (the argparse
      error comes before the serve check that the switch needs --tool-call-parser);
  g07 --kv-events-config '{"enable_kv_cache_events": true, "publisher": "zeromq"}' (parse): argparse exit 2, the
      pydantic literal error for publisher ('null' or 'zmq') inside 'argument --kv-events-config: ...';
  g08 --max-num-batched-tokens 8k (START, full cold start): healthy (8000 batched tokens), the POST 200;
  g09 --h11-max-header-count 128 (START, full cold start): healthy, the POST 200;
  g10 --seed random (parse): argparse exit 2, "argument --seed: invalid int value: 'random'";
  g11 --disable-chunked-mm-input 1 (parse): argparse exit 2, 'unrecognized arguments: 1';
  g12 --enable-lora --max-loras 4 --max-cpu-loras 2 (parse, config build): pydantic ValidationError from LoRAConfig,
      'max_cpu_loras (2) must be >= max_loras (4)'.
So 8 cases end in seconds (6 at argparse, exit 2; g02 / g12 while the engine config is built, before any engine
core), 1 is refused early in an engine start (g03), 3 are full cold starts (g05, g08, g09).
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_draw_models import write_models  # noqa: E402
from gpu_fresh99_draw import ALL_FLAGS, DROPPED, KEPT  # noqa: E402
from gpu_fresh99_draw import VALUES as F99_VALUES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh340-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2340
N = 12
P_VALID = 0.25
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
PARALLEL = ["--gpu-memory-utilization", "0.1", "--kv-cache-memory-bytes", "2147483648"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIME = {"parse": (75, 25), "start": (240, 150)}  # cost class -> (timeout, need)
RANK = {"start": 0, "parse": 1}  # starts first: they are the long ones (schedule only; see the docstring)
MEM = {"start": 0.12, "parse": 0.05}
SKIP = frozenset(F99_VALUES)  # fresh-99's twelve (flag, class) pairs

# written after stage 1 (the flags) and before stage 2 (the classes), from vLLM 0.26.0's source
APPLIES = {
    # bool field with default True (cli_args.FrontendArgs): a switch with a --no- form; 'Relevant only if
    # --enable-log-outputs is set', but nothing checks the pair
    "--enable-log-deltas": ["wrong-type"],
    # a JSON object parsed into KernelConfig (config/kernel.py: moe_backend / linear_backend Literals, ir_op_priority);
    # arg_utils.create_engine_config: 'enable_flashinfer_autotune and kernel_config.enable_flashinfer_autotune are
    # mutually exclusive' (the pair with --enable-flashinfer-autotune)
    "--kernel-config": ["wrong-type", "incompatible"],
    # ModelDType Literal auto/half/float16/bfloat16/float/float32 (config/model.py); the attention backend check
    # (v1/attention/backend.py validate_configuration: 'dtype not supported'; platforms/cuda.py 'Selected backend ...
    # is not valid for this configuration') names it with --attention-backend (FLASH_ATTN takes float16/bfloat16 only)
    "--dtype": ["wrong-type", "incompatible"],
    # a switch (FrontendArgs); with --enable-offline-docs only an elif (api_server.py), no refusal
    "--disable-fastapi-docs": ["wrong-type"],
    # list[str] | None (LoRAConfig.target_modules, nargs +), module suffixes; ignored without --enable-lora (no check
    # names the pair); an unknown suffix matches nothing (lora/utils.is_in_target_modules)
    "--lora-target-modules": ["wrong-type"],
    # a switch; cli_args.validate_parsed_serve_args: 'Error: --enable-auto-tool-choice requires --tool-call-parser'
    "--enable-auto-tool-choice": ["wrong-type", "incompatible"],
    # a JSON object parsed into KVEventsConfig (config/kv_events.py: publisher Literal null/zmq, endpoint, ints);
    # without --enable-prefix-caching or with publisher but events off only WARNS (config/vllm.py): no refusing pair
    "--kv-events-config": ["wrong-type"],
    # int, Field(ge=1), human_readable_int (config/scheduler.py); verify_max_model_len refuses batched tokens <
    # max_num_seqs (the pair with --max-num-seqs) and < max_model_len without chunked prefill (with
    # --no-enable-chunked-prefill)
    "--max-num-batched-tokens": ["out-of-range", "wrong-type", "incompatible"],
    # int (FrontendArgs), handed to uvicorn's h11 config (entrypoints/launcher.py), no bound checked at start
    "--h11-max-header-count": ["out-of-range", "wrong-type"],
    # int (config/model.py), no bound in vLLM; utils/torch_utils.set_random_seed passes it to np.random.seed
    # (0 .. 2**32-1) in the worker; no pair check
    "--seed": ["out-of-range", "wrong-type"],
    # a switch (config/scheduler.py); its only assertion is for Mamba align mode (config/vllm.py), not reachable on
    # the dense base, and no flag pair
    "--disable-chunked-mm-input": ["wrong-type"],
    # int | None (config/lora.py); arg_utils passes values <= 0 as None; LoRAConfig refuses 'max_cpu_loras (C) must
    # be >= max_loras (L)' (the pair with --max-loras, under --enable-lora)
    "--max-cpu-loras": ["out-of-range", "wrong-type", "incompatible"],
}

# written after stage 2 and before anything ran on the device: (extra serve args, cost class, why)
VALUES = {
    ("--enable-log-deltas", "wrong-type"): (
        ["--enable-log-deltas", "false"],
        "parse",
        "a value given to a switch to turn it off (the switch takes none; --no-enable-log-deltas is the off form)",
    ),
    ("--kernel-config", "incompatible"): (
        ["--kernel-config", '{"enable_flashinfer_autotune": false}', "--no-enable-flashinfer-autotune"],
        "parse",
        "the autotune switch set both in the kernel config and by its own flag, which create_engine_config refuses",
    ),
    ("--dtype", "incompatible"): (
        ["--dtype", "float32", "--attention-backend", "FLASH_ATTN"],
        "start",
        "full precision with the FlashAttention backend named (it takes float16 / bfloat16 only)",
    ),
    ("--disable-fastapi-docs", "wrong-type"): (
        ["--disable-fastapi-docs=true"],
        "parse",
        "flag=true for a switch (argparse: an explicit argument to a BooleanOptionalAction)",
    ),
    ("--lora-target-modules", "valid"): (
        ["--enable-lora", "--lora-target-modules", "q_proj", "v_proj"],
        "start",
        "a healthy control: PEFT's usual pair (gemma3 packs them into qkv_proj; the packed mapping matches them)",
    ),
    ("--enable-auto-tool-choice", "wrong-type"): (
        ["--enable-auto-tool-choice", "hermes"],
        "parse",
        "the parser's name given to the switch instead of to --tool-call-parser",
    ),
    ("--kv-events-config", "wrong-type"): (
        ["--kv-events-config", '{"enable_kv_cache_events": true, "publisher": "zeromq"}'],
        "parse",
        "an unknown publisher: the choices are null and zmq, a user writes the library's full name",
    ),
    ("--max-num-batched-tokens", "valid"): (
        ["--max-num-batched-tokens", "8k"],
        "start",
        "a healthy control in the human-readable form (8k = 8000)",
    ),
    ("--h11-max-header-count", "valid"): (["--h11-max-header-count", "128"], "start", "a healthy control"),
    ("--seed", "wrong-type"): (
        ["--seed", "random"],
        "parse",
        "a word for a random seed where the flag takes an int",
    ),
    ("--disable-chunked-mm-input", "wrong-type"): (
        ["--disable-chunked-mm-input", "1"],
        "parse",
        "1 given to a switch",
    ),
    ("--max-cpu-loras", "incompatible"): (
        ["--enable-lora", "--max-loras", "4", "--max-cpu-loras", "2"],
        "parse",
        "fewer CPU LoRA slots than GPU slots, which LoRAConfig refuses (max_cpu_loras must be >= max_loras)",
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
    why = ("fresh-340 doctor-corpus cases (tools/gpu_fresh340_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100/H200, side by side). Round 2 of fresh-99's space, drawn, "
           "not chosen: see the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as "
           "published.")  # fmt: skip
    return {"why": why, "seed": SEED, "all_flags": len(ALL_FLAGS), "dropped": len(DROPPED), "kept": len(KEPT),
            "skipped_pairs": sorted(map(list, SKIP)), "source": SOURCE, "order": order, "cases": cases}  # fmt: skip


if __name__ == "__main__":
    assert len(SKIP) == 12 and all(f in KEPT for f, _ in SKIP)
    if sys.argv[1:2] == ["--models"]:
        write_models({"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}}, sys.argv[2], FIXTURES)
        sys.exit(0)
    if sys.argv[1:] == ["--flags"]:
        for i, f in enumerate(draw_flags()[1], 1):
            print(
                i,
                f,
                "(in fresh-99: " + ", ".join(c for g, c in sorted(SKIP) if g == f) + ")"
                if any(g == f for g, _ in SKIP)
                else "",
            )
        sys.exit(0)
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{len(ALL_FLAGS)} flags, {len(DROPPED)} dropped, {len(KEPT)} kept, {len(SKIP)} pairs skipped")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["cost"], " ".join(c["args"][1:]))
