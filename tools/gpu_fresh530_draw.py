"""Draw the fresh-530 GPU cases: OLD GROUND ON THE GPU, NEW DRAW, ROUND 6 -- ENGINE ARGUMENTS DRAWN AT RANDOM -- a
re-draw over fresh-492's universe (= fresh-482's = fresh-469's = fresh-370's = fresh-340's = fresh-99's), with seed
2530, every (flag, class) pair fresh-99, fresh-340, fresh-370, fresh-469, fresh-482 or fresh-492 drew skipped as
already made, the same walk under the same FIT bound, and a walk that ends short of 10 FILLED from NEW classes fixed
before the draw. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no
tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh530_draw.py              writes tools/gpu-fresh530-cases.json and prints the draw
       python3 tools/gpu_fresh530_draw.py --flags      prints stage 1 (the walked flags) only
       python3 tools/gpu_fresh530_draw.py --draw-only  prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh530_draw.py --rule-check the rule run over 300 OTHER seeds (run before seed 2530 was drawn)
       python3 tools/gpu_fresh530_draw.py --models DIR writes DIR/gemma-3-1b/config.json (the fixture, byte for byte)
Run (ONE device call; the cases file, gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into
.gpu/run, the model folder into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 420 p3 gpu_serve_requests.py .gpu/run/gpu-fresh530-cases.json LEFT 8 0.95
       <the cases file's "order">

THE PROCEDURE is fresh-492's, exactly (its docstring, tools/gpu_fresh492_draw.py, which is fresh-482's), and its CODE
IS IMPORTED, not copied (stop 55's batch.md step 2): gpu_fresh492_draw's walk, relabel, draw, print_draw and
rule_check, and through it gpu_fresh482_draw's draw_flags, case_of, order_of, simulate, fits, walk and new_check.
Those functions read module globals (gpu_fresh482_draw: SKIP, NEW, OUT_JSON; gpu_fresh492_draw: SKIP, NEW, OUT_JSON,
APPLIES, VALUES, EXPECTED_DRAWN, LABEL); neither file is edited: _parametrise() below, once at import, sets those
globals on the two imported modules to fresh-530's values (importing gpu_fresh492_draw first set gpu_fresh482_draw's
to fresh-492's; this overrides them), so gpu_fresh492_draw.relabel writes 'fresh-530 draw i' for the imported
'fresh-482 draw i'. Their default arguments (seed=2492) are bound at definition, so every call here passes SEED. The
draw()'s "why" text names fresh-492; main() below replaces it with fresh-530's. Everything else as fresh-492: the
universe (ALL_FLAGS 274, DROPPED 123, KEPT 151), fresh-99's four value classes, the MODEL and BASE
(.gpu/models/gemma-3-1b, google/gemma-3-1b-it's published config.json unedited; --skip-tokenizer-init --load-format
dummy --max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648; a drawn flag the base
carries REPLACES the base's value), the STEPS (one POST /v1/completions, 50 token ids 1000..1049, max_tokens 16),
TIME (parse: timeout 75, need 25; start: timeout 240, need 150), MEM (parse 0.05, start 0.12), DUR (parse 60, start
150), FIT (the driver's start rule simulated with DUR at LEFT 390 = TOTAL 420 less ~30 s set-up: nothing skipped, end
by 370 s), P_VALID 0.25, N 10, the walk (stage 1 r.sample(KEPT, 10); APPLIES written per walked flag from 0.26.0's
source after stage 1; stage 2 fresh-370's rule: "valid" when u < 0.25 and not already made, else r.choice of the
classes left; a flag with no class left DROPPED; a pair that breaks FIT PASSED OVER; a short walk filled from the NEW
pairs sorted then r.shuffle'd with the same r, taken while FIT, until 10).
CHANGED: SEED 2530; the SKIP set; the names (fresh-530, gpu-fresh530-cases.json).
THE SKIP SET: 66 pairs: fresh-492's 56 plus fresh-492's 10 drawn pairs (its VALUES' keys; fresh-492 had no NEW fill,
so no n01 to add).
NEW CLASSES (used only to fill a walk that ends short of 10): fresh-492's pool (= fresh-482's), all five still unused
(human-suffix --kv-cache-memory-bytes 1536M, duplicate --max-num-seqs 128 / 32, underscore --max_logprobs 50, dotted
--compilation-config.cudagraph_mode none, decimal-suffix --max-num-batched-tokens 16k), written from vLLM 0.26.0's
source by fresh-469 / fresh-482 (utils/argparse_utils.py, engine/arg_utils.py, config/compilation.py) and re-read for
this batch in the official wheel /work/main/.gpu/build/vllm-0.26.0-*.whl unzipped into /tmp/gpu530/src before the
draw. No further NEW class added before the draw (a short walk of more than 5 is not expected: the rule check below).
Each asserted new by gpu_fresh482_draw.new_check() run with OUT_JSON = this batch's file: its (flag, class) is no
earlier case's "flag"/"class", and its extra args appear as a contiguous run in no earlier case's args, over every
tools/gpu-fresh*-cases.json (fresh-492's and fresh-493's included).
THE DRAW (fixed before seed 2530 was drawn): r = random.Random(2530); the rest as fresh-492's.
RULE CHECK (--rule-check = gpu_fresh492_draw.rule_check with this SKIP: the same 300 OTHER seeds 2100.. (none of
2099, 2340, 2370, 2469, 2482, 2492, 2530), every case booked the worst class, 'start'), run before seed 2530 was
drawn: '300 seeds, every case booked 'start' (150 s, 0.12): mean simulated end 302 s; draws short of 10 by FIT: 0;
walked flags an earlier round drew (at risk of no class left) 3.29 per draw'. new_check: the 5 NEW pairs new against
570 earlier cases.
THE DRAW GAVE (stage 1 printed by --flags after 8720a34b committed the tool; APPLIES committed 72c50ef3 before stage
2; VALUES, EXPECTED_DRAWN and this paragraph written after stage 2 was printed, before the cases file was written and
before anything ran): stage 1: 1 --safetensors-prefetch-num-threads (wrong-type already made), 2
--enable-layerwise-nvtx-tracing, 3 --kv-cache-memory-bytes (binary-decimal, wrong-type already made), 4
--h11-max-incomplete-event-size, 5 --linear-backend, 6 --max-lora-rank, 7 --use-tqdm-on-load, 8
--return-tokens-as-token-ids, 9 --max-num-partial-prefills, 10 --generation-config (valid, wrong-type already made).
Stage 2: draw 10 --generation-config DROPPED (no class left: APPLIES ["wrong-type"] and valid both made), nothing
passed over by FIT; the walk took 9, so ONE NEW pair filled: n01 --max-num-seqs duplicate (the NEW pool sorted then
r.shuffle'd with the same r; its first). Cases: g01 --safetensors-prefetch-num-threads 0 (out-of-range, parse), g02
--enable-layerwise-nvtx-tracing 1 (wrong-type, parse), g03 --kv-cache-memory-bytes -1 (out-of-range, start; REPLACES
the base's 2147483648), g04 --h11-max-incomplete-event-size 8MB (wrong-type, parse), g05 --linear-backend cublas
(wrong-type, parse), g06 --enable-lora --max-lora-rank auto (wrong-type, parse), g07 --use-tqdm-on-load=false
(wrong-type, parse), g08 --return-tokens-as-token-ids true (wrong-type, parse), g09 --max-num-partial-prefills 4
--no-enable-chunked-prefill (incompatible, parse), n01 --max-num-seqs 128 --max-num-seqs 32 (NEW duplicate, start;
fresh-469's value and expectation, unchanged): 0 valid, 6 wrong-type, 2 out-of-range, 1 incompatible, 1 NEW; 2 start,
8 parse. "order": g03 n01 g01 g02 g04 g05 g06 g07 g08 g09 (DUR longest first, walk order among equals, the fill
last); simulated: the first 8 start at 0-7 s (2 x 0.12 + 6 x 0.05 = 0.54 of 0.95), g08 at 62 s and g09 at 63 s; end
151 s at LEFT 390 (bound 370), nothing skipped.
EXPECTED per case: EXPECTED_DRAWN below (written from 0.26.0's source before anything ran); n01's in its "expect".
LOCAL CHECKS (after the cases file was committed, b4d6602c; nothing ran on the device; EXPECTED_DRAWN left as
committed). (1) The driver's reader: tools/gpu_serve_requests.py imported (HOME=/tmp/gpu530/home), the file read as its
main() reads it (json ["cases"], the names of "order"): 10 cases, each with args (strings), env, timeout/need/mem
(start 240/150/0.12, parse 75/25/0.05), one POST /v1/completions step with prompt_len 50 (the driver turns it into
token ids), steps equal to fresh-492's. (2) vLLM 0.26.0's own `vllm serve` parser (the wheel's source, /tmp/gpu530/src,
on .venv-vllm's Python 3.11 and CPU torch, a stub dist-info naming 0.26.0+cpu first on PYTHONPATH, as fresh-492 did;
/tmp/gpu530/pcheck.py), each case's args as the driver passes them (`serve ARGS --port 8201`), then
EngineArgs.from_cli_args: g03 n01 g01 g09 parsed (g03 kv_cache_memory_bytes -1; n01 max_num_seqs 32, the last of the
two; g01 safetensors_prefetch_num_threads 0; g09 max_num_partial_prefills 4, enable_chunked_prefill False), and built
alone LoadConfig(safetensors_prefetch_num_threads=0) raises pydantic's 'Input should be greater than or equal to 1' and
SchedulerConfig(max_model_len=4096, max_num_partial_prefills=4, enable_chunked_prefill=False, ...) raises 'Value
error, Chunked prefill must be enabled to set max_num_partial_prefills > 1.', so g01 and g09 are refused in the API
server with a traceback (exit 1), not by argparse; exit 2: g02 'unrecognized arguments: 1', g04 "argument
--h11-max-incomplete-event-size: invalid int value: '8MB'", g05 "argument --linear-backend: invalid choice: 'cublas'
(choose from 'aiter', 'auto', ... 'xpu_woq')", g06 "argument --max-lora-rank: invalid int value: 'auto'", g07
"argument --use-tqdm-on-load/--no-use-tqdm-on-load: ignored explicit argument 'false'", g08 'unrecognized arguments:
true'. All as EXPECTED_DRAWN; g03's KV sizing and n01's start need the device.
SOURCES READ: tools/gpu_fresh492_draw.py, gpu_fresh482_draw.py (imported), tools/gpu_serve_requests.py,
gpu_serve_drive.py, gpu_fresh151_go.sh, the manifest's fresh-492 HEADER (up to the lead's measured block) and
/work/notes/s55/gpu492/RUN.md; vLLM 0.26.0 (unzipped to /tmp/gpu530/src): utils/argparse_utils.py,
engine/arg_utils.py, v1/worker/gpu_worker.py, v1/core/kv_cache_utils.py and the files named in APPLIES. Not read:
doctor, its knowledge, its tests, any batch's logs.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh492_draw as Q  # noqa: E402  (importing it sets gpu_fresh482_draw's globals to fresh-492's)
from gpu_draw_models import write_models  # noqa: E402

P, F = Q.P, Q.F
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh530-cases.json")
SEED = 2530
N = P.N
SKIP = Q.SKIP | frozenset(Q.VALUES)  # fresh-492's 56 + its 10 drawn pairs = 66
NEW = dict(Q.NEW)  # fresh-492's five NEW "parser-form" pairs (fresh-482's), none used yet
LABEL = "fresh-530 "
MODELS = {"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}}

# written after stage 1 (the flags) and before stage 2 (the classes), from vLLM 0.26.0's source (/tmp/gpu530/src)
APPLIES = {
    # fresh-492's reading (int, Field(ge=1), config/load.py; no pair); wrong-type already made
    "--safetensors-prefetch-num-threads": ["out-of-range", "wrong-type"],
    # bool switch (config/observability.py); beside CUDA graphs only a debug line ('layerwise NVTX tracing is not
    # supported ...', v1/worker/gpu_model_runner.py), no refusing pair
    "--enable-layerwise-nvtx-tracing": ["wrong-type"],
    # fresh-469's / fresh-482's reading (int | None, a human_readable_int arg, engine/arg_utils.py, config/cache.py);
    # wrong-type (and NEW binary-decimal) already made
    "--kv-cache-memory-bytes": ["out-of-range", "wrong-type"],
    # int (entrypoints/openai/cli_args.py), handed to uvicorn's h11 config unchecked (entrypoints/launcher.py): no
    # bound, no pair
    "--h11-max-incomplete-event-size": ["wrong-type"],
    # Literal LinearBackend (config/kernel.py), lower-cased and '-' -> '_' by a before-validator; no pair check read
    "--linear-backend": ["wrong-type"],
    # Literal[1, 8, 16, 32, 64, 128, 256, 320, 512] (config/lora.py MaxLoRARanks); the rank check against an adapter
    # (lora/model_manager.py) needs an adapter loaded, not a flag pair
    "--max-lora-rank": ["wrong-type"],
    # bool switch (config/load.py); no pair
    "--use-tqdm-on-load": ["wrong-type"],
    # bool switch (entrypoints/openai/cli_args.py); no pair
    "--return-tokens-as-token-ids": ["wrong-type"],
    # int, Field(default=1, ge=1) (config/scheduler.py); verify_max_model_len refuses > 1 without chunked prefill
    # ('Chunked prefill must be enabled to set max_num_partial_prefills > 1.') and max_long_partial_prefills above it
    # (the pairs)
    "--max-num-partial-prefills": ["out-of-range", "wrong-type", "incompatible"],
    # earlier rounds' reading (str, config/model.py: auto / vllm / a folder); valid and wrong-type already made
    "--generation-config": ["wrong-type"],
}

# written after stage 2 and before anything ran on the device: (extra serve args, cost class, why)
VALUES = {
    ("--safetensors-prefetch-num-threads", "out-of-range"): (
        ["--safetensors-prefetch-num-threads", "0"], "parse", "0 meant as 'no prefetch threads' where the least is 1"),
    ("--enable-layerwise-nvtx-tracing", "wrong-type"): (
        ["--enable-layerwise-nvtx-tracing", "1"], "parse", "a value '1' given to an on/off switch"),
    ("--kv-cache-memory-bytes", "out-of-range"): (
        ["--kv-cache-memory-bytes", "-1"], "start",
        "-1 meant as 'auto' (as --max-model-len takes it) where the flag takes a byte count"),
    ("--h11-max-incomplete-event-size", "wrong-type"): (
        ["--h11-max-incomplete-event-size", "8MB"], "parse", "'8MB' where the flag takes a plain number of bytes"),
    ("--linear-backend", "wrong-type"): (
        ["--linear-backend", "cublas"], "parse", "a library's name (cublas) that is not one of the backend choices"),
    ("--max-lora-rank", "wrong-type"): (
        ["--enable-lora", "--max-lora-rank", "auto"], "parse", "'auto' where the flag takes one of the listed ranks"),
    ("--use-tqdm-on-load", "wrong-type"): (
        ["--use-tqdm-on-load=false"], "parse", "'=false' given to an on/off switch (the off form is --no-...)"),
    ("--return-tokens-as-token-ids", "wrong-type"): (
        ["--return-tokens-as-token-ids", "true"], "parse", "a value 'true' given to an on/off switch"),
    ("--max-num-partial-prefills", "incompatible"): (
        ["--max-num-partial-prefills", "4", "--no-enable-chunked-prefill"], "parse",
        "concurrent partial prefills asked for with chunked prefill switched off"),
}  # fmt: skip

EXPECTED_DRAWN = {  # written after the draw was printed, before anything ran (0.26.0's source as cited)
    "g01": "refused before the engine starts: LoadConfig's Field(ge=1) (config/load.py) refuses 0, pydantic "
    "'safetensors_prefetch_num_threads Input should be greater than or equal to 1', in create_engine_config in the "
    "API server (a traceback, exit 1; the parser's type is a plain int), or at parse (exit 2)",
    "g02": "argparse exit 2: 'unrecognized arguments: 1' (a BooleanOptionalAction takes no value, engine/arg_utils.py)",
    "g03": "the engine starts, loads the dummy weights and runs the profile pass, then fails sizing the KV cache: "
    "determine_available_memory returns kv_cache_memory_bytes -1 as it stands (v1/worker/gpu_worker.py, the 'reserved "
    "... GiB memory for KV Cache as specified by kv_cache_memory_bytes' line with a negative figure), and "
    "v1/core/kv_cache_utils.py raises ValueError 'No available memory for the cache blocks. Try increasing "
    "`gpu_memory_utilization` when initializing the engine.'; 'Engine core initialization failed', exit 1. "
    "human_readable_int('-1') is int('-1') (utils/argparse_utils.py), so the parser takes it",
    "g04": "argparse exit 2: \"argument --h11-max-incomplete-event-size: invalid int value: '8MB'\" (a plain int in "
    "FrontendArgs, entrypoints/openai/cli_args.py)",
    "g05": "argparse exit 2: \"argument --linear-backend: invalid choice: 'cublas' (choose from ...)\" (literal_to_kwargs "
    "choices; the lower-casing before-validator in config/kernel.py is never reached)",
    "g06": "argparse exit 2: \"argument --max-lora-rank: invalid int value: 'auto'\" (a Literal of ints: type int with "
    "choices)",
    "g07": "argparse exit 2: \"argument --use-tqdm-on-load/--no-use-tqdm-on-load: ignored explicit argument 'false'\"",
    "g09": "refused before the engine starts: SchedulerConfig.verify_max_model_len (config/scheduler.py) raises "
    "'Chunked prefill must be enabled to set max_num_partial_prefills > 1.' in create_engine_config in the API "
    "server (a pydantic 'Value error, ...' or a ValueError traceback), exit 1",
    "g08": "argparse exit 2: 'unrecognized arguments: true'",
}


def _parametrise():
    """Point the imported walk()/new_check()/draw() globals at fresh-530's values (both files stay unedited)."""
    P.SKIP, P.NEW, P.OUT_JSON = SKIP, NEW, OUT_JSON
    Q.SKIP, Q.NEW, Q.OUT_JSON, Q.LABEL = SKIP, NEW, OUT_JSON, LABEL
    Q.APPLIES, Q.VALUES, Q.EXPECTED_DRAWN = APPLIES, VALUES, EXPECTED_DRAWN


_parametrise()

WHY = (
    "fresh-530 doctor-corpus cases (tools/gpu_fresh530_draw.py wrote this file; tools/gpu_serve_requests.py runs "
    "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95). Round 6 "
    "(a new draw) of fresh-492's universe, imported unchanged; the 66 pairs fresh-99, fresh-340, fresh-370, "
    "fresh-469, fresh-482 and fresh-492 drew skipped; a short walk filled from NEW 'parser-form' classes; drawn, not "
    "chosen: see the draw script's docstring. 'models': python3 tools/gpu_fresh530_draw.py --models .gpu/models."
)


def draw(seed=SEED):
    out = Q.draw(seed)
    out["why"] = WHY
    return out


def print_flags():
    for i, f in enumerate(P.draw_flags(SEED)[1], 1):
        done = ", ".join(c for g, c in sorted(SKIP) if g == f)
        print(i, f, f"(already made: {done})" if done else "")


def main():
    assert len(SKIP) == 66 and all(f in F.KEPT for f, _ in SKIP)
    if sys.argv[1:2] == ["--models"]:
        return write_models(MODELS, sys.argv[2], F.FIXTURES)
    if sys.argv[1:] == ["--rule-check"]:
        return Q.rule_check()
    if sys.argv[1:] == ["--flags"]:
        return print_flags()
    print(f"novelty: {len(NEW)} NEW pairs new against {P.new_check()} earlier cases")
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(os.path.join(F.FIXTURES, "gemma-3-1b-it", "config.json")) as f:
            out["base_config"] = json.load(f)
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    Q.print_draw(out)


if __name__ == "__main__":
    main()
