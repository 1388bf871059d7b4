"""Draw the fresh-492 GPU cases: OLD GROUND ON THE GPU, NEW DRAW, ROUND 5 -- ENGINE ARGUMENTS DRAWN AT RANDOM -- a
re-draw over fresh-482's universe (= fresh-469's = fresh-370's = fresh-340's = fresh-99's), with seed 2492, every
(flag, class) pair fresh-99, fresh-340, fresh-370, fresh-469 or fresh-482 drew skipped as already made, the same walk
under the same FIT bound, and a walk that ends short of 10 FILLED from NEW classes fixed before the draw.
Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no tokenizer.
Sampled, not chosen.

Usage: python3 tools/gpu_fresh492_draw.py              writes tools/gpu-fresh492-cases.json and prints the draw
       python3 tools/gpu_fresh492_draw.py --flags      prints stage 1 (the walked flags) only
       python3 tools/gpu_fresh492_draw.py --draw-only  prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh492_draw.py --rule-check the rule run over 300 OTHER seeds (run before seed 2492 was drawn)
       python3 tools/gpu_fresh492_draw.py --models DIR writes DIR/gemma-3-1b/config.json (the fixture, byte for byte)
Run (ONE device call; the cases file, gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into
.gpu/run, the model folder into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 420 p3 gpu_serve_requests.py .gpu/run/gpu-fresh492-cases.json LEFT 8 0.95
       <the cases file's "order">

THE PROCEDURE is fresh-482's, exactly (its docstring, tools/gpu_fresh482_draw.py), and its CODE IS IMPORTED, not
copied (stop 53's batch.md step 2): draw_flags, case_of, order_of, simulate, fits, walk and new_check are
gpu_fresh482_draw's own functions. Its walk() and new_check() read three module globals of gpu_fresh482_draw (SKIP,
NEW, OUT_JSON) and write the label 'fresh-482 draw i' / 'fresh-482 fill j' into each case; that file is NOT edited:
this file sets those three globals on the imported module to fresh-492's values (_parametrise(), once, at import) and
relabels each drawn case's "draw" line 'fresh-482 ' -> 'fresh-492 ' after the walk (relabel()). Everything else:
the universe (ALL_FLAGS 274, DROPPED 123, KEPT 151), fresh-99's four value classes, the MODEL and BASE
(.gpu/models/gemma-3-1b, google/gemma-3-1b-it's published config.json unedited; --skip-tokenizer-init --load-format
dummy --max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648; a drawn flag the base
carries REPLACES the base's value), the STEPS (one POST /v1/completions, 50 token ids 1000..1049, max_tokens 16),
TIME (parse: timeout 75, need 25; start: timeout 240, need 150), MEM (parse 0.05, start 0.12), DUR (parse 60, start
150), FIT (the driver's start rule simulated with DUR at LEFT 390 = TOTAL 420 less ~30 s set-up: nothing skipped, end
by 370 s), P_VALID 0.25, N 10, the walk (stage 1 r.sample(KEPT, 10); APPLIES written per walked flag from 0.26.0's
source after stage 1; stage 2 fresh-370's rule: "valid" when u < 0.25 and not already made, else r.choice of the
classes left; a flag with no class left DROPPED; a pair that breaks FIT PASSED OVER; a short walk filled from the NEW
pairs sorted then r.shuffle'd with the same r, taken while FIT, until 10).
CHANGED: SEED 2492; the SKIP set; the names (fresh-492, gpu-fresh492-cases.json); the NEW pool is fresh-482's.
THE SKIP SET: 56 pairs: fresh-482's 46 (fresh-99's, fresh-340's, fresh-370's, fresh-469's drawn pairs and its n01
fill) plus fresh-482's 10 drawn pairs (its VALUES' keys; fresh-482 had no NEW fill).
NEW CLASSES (used only to fill a walk that ends short of 10): fresh-482's pool, all five unused by it (human-suffix
--kv-cache-memory-bytes 1536M, duplicate --max-num-seqs 128 / 32, underscore --max_logprobs 50, dotted
--compilation-config.cudagraph_mode none, decimal-suffix --max-num-batched-tokens 16k), each written from vLLM 0.26.0's
source by fresh-469 / fresh-482 (utils/argparse_utils.py, engine/arg_utils.py, config/compilation.py) and re-read for
this batch in the official wheel /work/main/.gpu/build/vllm-0.26.0-*.whl unzipped into /tmp/gpu492/src before the
draw. No further NEW class added (the rule check below shows a short walk is unlikely). Each asserted new by
gpu_fresh482_draw.new_check() run with OUT_JSON = this batch's file: its (flag, class) is no earlier case's
"flag"/"class", and its extra args appear as a contiguous run in no earlier case's args, over every
tools/gpu-fresh*-cases.json (fresh-482's included).
THE DRAW (fixed before seed 2492 was drawn): r = random.Random(2492); the rest as fresh-482's.
THE DRAW GAVE (stage 1 printed by --flags after 33665e54 committed the tool; APPLIES committed e7f8da25 before stage
2; VALUES, EXPECTED_DRAWN and this paragraph written after stage 2 was printed, before the cases file was written and
before anything ran): stage 1: 1 --prefill-schedule-interval, 2 --disable-log-stats (incompatible already made), 3
--attention-config, 4 --cudagraph-metrics (wrong-type already made), 5 --fingerprint-value, 6 --max-loras, 7
--model-class-overrides, 8 --cpu-offload-gb (valid already made), 9 --safetensors-prefetch-num-threads, 10
--profiler-config. Stage 2: nothing dropped, nothing passed over by FIT, the walk took 10, so NO NEW pair was used.
Cases: g01 --prefill-schedule-interval 0 (out-of-range, parse), g02 --disable-log-stats=true (wrong-type, parse), g03
--attention-backend TRITON_ATTN --attention-config '{"backend": "FLASH_ATTN"}' (incompatible, parse), g04
--cudagraph-metrics (valid, start), g05 --fingerprint-mode custom --fingerprint-value gemma-dev-1 (valid, start), g06
--enable-lora --max-loras 2.0 (wrong-type, parse), g07 --model-class-overrides
Gemma3ForCausalLM=my_models.gemma:MyGemma (wrong-type, parse), g08 --cpu-offload-gb -1 (out-of-range, parse), g09
--safetensors-prefetch-num-threads all (wrong-type, parse), g10 --profiler-config '{"active_iterations": 0}'
(out-of-range, parse): 2 valid, 4 wrong-type, 3 out-of-range, 1 incompatible; 2 start, 8 parse. "order": g04 g05
g01 g02 g03 g06 g07 g08 g09 g10 (DUR longest first, walk order among equals); simulated: the first 8 start at 0-7 s
(2 x 0.12 + 6 x 0.05 = 0.54 of 0.95), g09 at 62 s and g10 at 63 s; end 151 s at LEFT 390 (bound 370), nothing skipped.
EXPECTED per case: EXPECTED_DRAWN below (written from 0.26.0's source before anything ran).
LOCAL PARSER CHECK (after the cases file was committed, cc43092d; nothing ran on the device; EXPECTED_DRAWN left as
committed): every case's args, as the driver passes them (`serve ARGS --port 8201`), given to vLLM 0.26.0's own
`vllm serve` parser (the wheel's source, /tmp/gpu492/src, on this machine's .venv-vllm Python 3.11 and its CPU torch,
a stub dist-info naming the version 0.26.0+cpu, as fresh-482 did), then EngineArgs.from_cli_args: g04 g05 g01 g03
g08 parsed (g01 prefill_schedule_interval 0, g03 attention_backend 'TRITON_ATTN' beside AttentionConfig(backend=
FLASH_ATTN), g08 cpu_offload_gb -1.0; their refusals are in create_engine_config, not run here; SchedulerConfig(...,
prefill_schedule_interval=0) and UVAOffloadConfig(cpu_offload_gb=-1) built alone raise pydantic's 'Input should be
greater than or equal to 1' / '... 0', so g01 and g08 are refused in the API server with a traceback, exit 1, not
by argparse); exit 2: g02 "argument --disable-log-stats: ignored explicit argument 'true'", g06 "argument
--max-loras: invalid int value: '2.0'", g07 'argument --model-class-overrides: Value
Gemma3ForCausalLM=my_models.gemma:MyGemma cannot be converted to <function loads at 0x...>.', g09 "argument
--safetensors-prefetch-num-threads: invalid int value: 'all'", g10 'argument --profiler-config: 1 validation error
for ProfilerConfig' / 'active_iterations' / 'Input should be greater than or equal to 1' (argparse, exit 2).
RULE CHECK (--rule-check, 300 OTHER seeds, run before seed 2492 was drawn, every case booked the worst class,
'start'): '300 seeds, every case booked 'start' (150 s, 0.12): mean simulated end 302 s; draws short of 10 by FIT: 0;
walked flags an earlier round drew (at risk of no class left) 2.90 per draw'. new_check: the 5 NEW pairs new against
550 earlier cases.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh482_draw as P  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402

F = P.F
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh492-cases.json")
SEED = 2492
N = P.N
SKIP = P.SKIP | frozenset(P.VALUES)  # fresh-482's 46 + its 10 drawn pairs = 56
NEW = dict(P.NEW)  # fresh-482's five NEW "parser-form" pairs, none used by it
LABEL_OLD, LABEL = "fresh-482 ", "fresh-492 "


def _parametrise():
    """Point gpu_fresh482_draw's walk()/new_check() globals at fresh-492's values (that file stays unedited)."""
    P.SKIP, P.NEW, P.OUT_JSON = SKIP, NEW, OUT_JSON


_parametrise()

# written after stage 1 (the flags) and before stage 2 (the classes), from vLLM 0.26.0's source (/tmp/gpu492/src)
APPLIES = {
    # int, Field(default=1, ge=1) (config/scheduler.py); read only by v1/engine/core.py's DP step counter; no pair check
    "--prefill-schedule-interval": ["out-of-range", "wrong-type"],
    # bool switch; fresh-99's reading (the pair with --enable-per-request-metrics; incompatible already made)
    "--disable-log-stats": ["wrong-type", "incompatible"],
    # AttentionConfig, a JSON object (config/attention.py: backend enum, flash_attn_version Literal 2/3/4 ...);
    # engine/arg_utils.py refuses --attention-backend beside attention_config.backend ('attention_backend and
    # attention_config.backend ...', the pair)
    "--attention-config": ["out-of-range", "wrong-type", "incompatible"],
    # bool switch (config/observability.py); no pair check (wrong-type already made)
    "--cudagraph-metrics": ["wrong-type"],
    # str | None (entrypoints/openai/cli_args.py), any string; only read when --fingerprint-mode custom
    # (entrypoints/serve/utils/fingerprint.py), otherwise ignored with no check: no refusing class
    "--fingerprint-value": [],
    # int, Field(default=1, ge=1) (config/lora.py); LoRAConfig refuses max_cpu_loras < max_loras (the pair)
    "--max-loras": ["out-of-range", "wrong-type", "incompatible"],
    # dict[str, str], a JSON object arch -> target class (config/model.py _maybe_register_model_class_overrides,
    # ModelRegistry.register_model); no pair check
    "--model-class-overrides": ["wrong-type"],
    # fresh-469's reading (float, Field(ge=0), config/offload.py; no refusing pair); valid already made
    "--cpu-offload-gb": ["out-of-range", "wrong-type"],
    # int, Field(ge=1) (config/load.py); used only by the safetensors prefetch (not by --load-format dummy); no pair
    "--safetensors-prefetch-num-threads": ["out-of-range", "wrong-type"],
    # ProfilerConfig, a JSON object (config/profiler.py): iteration counts Field(ge=0 / ge=1), profiler
    # ProfilerKind; _validate_profiler_config refuses profiler 'torch' without torch_profiler_dir and a dir without
    # profiler 'torch' (field pairs)
    "--profiler-config": ["out-of-range", "wrong-type", "incompatible"],
}

# written after stage 2 and before anything ran on the device: (extra serve args, cost class, why)
VALUES = {
    ("--prefill-schedule-interval", "out-of-range"): (
        ["--prefill-schedule-interval", "0"], "parse", "0 meant as 'no interval' where the least is 1 (every step)"),
    ("--disable-log-stats", "wrong-type"): (
        ["--disable-log-stats=true"], "parse", "'=true' given to a store_true switch"),
    ("--attention-config", "incompatible"): (
        ["--attention-backend", "TRITON_ATTN", "--attention-config", '{"backend": "FLASH_ATTN"}'], "parse",
        "the backend named twice, by --attention-backend and inside --attention-config"),
    ("--cudagraph-metrics", "valid"): (
        ["--cudagraph-metrics"], "start", "a healthy control: CUDA graph metrics switched on"),
    ("--fingerprint-value", "valid"): (
        ["--fingerprint-mode", "custom", "--fingerprint-value", "gemma-dev-1"], "start",
        "a healthy control: a custom system_fingerprint, with the mode that reads it"),
    ("--max-loras", "wrong-type"): (
        ["--enable-lora", "--max-loras", "2.0"], "parse", "a float written where the flag takes an integer count"),
    ("--model-class-overrides", "wrong-type"): (
        ["--model-class-overrides", "Gemma3ForCausalLM=my_models.gemma:MyGemma"], "parse",
        "ARCH=TARGET written where the flag takes a JSON object"),
    ("--cpu-offload-gb", "out-of-range"): (
        ["--cpu-offload-gb", "-1"], "parse", "-1 meant as 'as much as needed' where the least is 0"),
    ("--safetensors-prefetch-num-threads", "wrong-type"): (
        ["--safetensors-prefetch-num-threads", "all"], "parse",
        "'all' (every core) where the flag takes a number of threads"),
    ("--profiler-config", "out-of-range"): (
        ["--profiler-config", '{"active_iterations": 0}'], "parse",
        "0 active iterations where the least is 1"),
}  # fmt: skip

EXPECTED_DRAWN = {  # written after the draw was printed, before anything ran (0.26.0's source as cited)
    "g01": "refused before the engine starts: SchedulerConfig's Field(ge=1) (config/scheduler.py) refuses 0, pydantic "
    "'prefill_schedule_interval Input should be greater than or equal to 1', either at parse (argparse exit 2) or "
    "in create_engine_config in the API server (a traceback, exit 1)",
    "g02": "argparse exit 2: \"argument --disable-log-stats: ignored explicit argument 'true'\" (action store_true, "
    "engine/arg_utils.py)",
    "g03": "refused in create_engine_config in the API server (engine/arg_utils.py): ValueError 'attention_backend and "
    "attention_config.backend are mutually exclusive', a traceback, exit 1",
    "g04": "healthy (expected none): CUDA graph metrics on (config/observability.py), the POST 200",
    "g05": "healthy (expected none): system_fingerprint 'gemma-dev-1' (entrypoints/serve/utils/fingerprint.py), "
    "the POST 200",
    "g06": "argparse exit 2: \"argument --max-loras: invalid int value: '2.0'\" (a plain int flag, as fresh-482's g06 "
    "showed)",
    "g07": "argparse exit 2: 'argument --model-class-overrides: ...' naming the value that is not JSON (parse_type("
    "json.loads): 'Value Gemma3ForCausalLM=my_models.gemma:MyGemma cannot be converted to <function loads ...>')",
    "g08": "refused before the engine starts: UVAOffloadConfig's Field(ge=0) (config/offload.py) refuses -1, pydantic "
    "'cpu_offload_gb Input should be greater than or equal to 0', at parse (exit 2) or in create_engine_config "
    "(a traceback, exit 1)",
    "g09": "argparse exit 2: \"argument --safetensors-prefetch-num-threads: invalid int value: 'all'\"",
    "g10": "refused before the engine starts: ProfilerConfig's Field(ge=1) (config/profiler.py) refuses "
    "active_iterations 0, pydantic 'active_iterations Input should be greater than or equal to 1', at parse "
    "(argparse exit 2) or in create_engine_config (a traceback, exit 1)",
}


def relabel(cases):
    for c in cases.values():
        c["draw"] = c["draw"].replace(LABEL_OLD, LABEL, 1)
    return cases


def walk(seed=SEED, worst=False):
    cases, dropped, passed = P.walk(seed, values=VALUES, applies=APPLIES, worst=worst)
    return relabel(cases), dropped, passed


def draw(seed=SEED):
    cases, dropped, passed = walk(seed)
    for key, text in EXPECTED_DRAWN.items():
        if key in cases:
            cases[key]["expect_drawn"] = text
    why = ("fresh-492 doctor-corpus cases (tools/gpu_fresh492_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95). Round 5 "
           "(a new draw) of fresh-482's universe, imported unchanged; the 56 pairs fresh-99, fresh-340, fresh-370, "
           "fresh-469 and fresh-482 drew skipped; a short walk filled from NEW 'parser-form' classes; drawn, not "
           "chosen: see the draw script's docstring. 'models': python3 tools/gpu_fresh492_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "all_flags": len(F.ALL_FLAGS), "dropped_flags": len(F.DROPPED),
            "kept": len(F.KEPT), "skipped_pairs": sorted(map(list, SKIP)), "new_pairs": sorted(map(list, NEW)),
            "walk_dropped": [list(x) for x in dropped], "passed_over": [list(x) for x in passed],
            "order": P.order_of(cases), "models": {"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}},
            "source": F.SOURCE, "cases": cases}  # fmt: skip


def rule_check():
    seeds = [s for s in range(2100, 2492) if s not in (2099, 2340, 2370, 2469, 2482)][:300]
    at_risk = ends = short = 0
    for s in seeds:
        at_risk += sum(any(g == f for g, _ in SKIP) for f in P.draw_flags(s)[1])
        cs, _, _ = walk(s, worst=True)
        short += len(cs) < N
        ends += P.simulate(cs, P.order_of(cs))[0]
    n = len(seeds)
    print(f"{n} seeds, every case booked 'start' (150 s, 0.12): mean simulated end {ends / n:.0f} s; draws short "
          f"of {N} by FIT: {short}; walked flags an earlier round drew (at risk of no class left) {at_risk / n:.2f} "
          "per draw")  # fmt: skip


def print_draw(out):
    cs = out["cases"]
    print(
        f"{len(F.ALL_FLAGS)} flags, {len(F.DROPPED)} dropped, {len(F.KEPT)} kept, {len(SKIP)} pairs skipped"
    )
    print("walk dropped (no class left):", out["walk_dropped"], "; passed over:", out["passed_over"])
    for key in out["order"]:
        c = cs[key]
        print(key, c["draw"], "|", c["cost"], "| new" if c["new_class"] else "|", " ".join(c["args"][len(F.FLAGS) +
              len(F.PARALLEL) + 1 :]), "| mem", c["mem"], "dur", c["dur"])  # fmt: skip
    end, starts, skipped = P.simulate(cs, out["order"])
    print(
        "simulated end",
        end,
        "at LEFT",
        P.LEFT,
        "(bound",
        P.END_MAX,
        ") starts",
        " ".join(starts),
        "skipped",
        skipped,
    )
    print("cases", len(cs), "; order:", " ".join(out["order"]))


def main():
    assert len(SKIP) == 56 and all(f in F.KEPT for f, _ in SKIP)
    if sys.argv[1:2] == ["--models"]:
        write_models({"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}}, sys.argv[2], F.FIXTURES)
        return
    if sys.argv[1:] == ["--rule-check"]:
        return rule_check()
    if sys.argv[1:] == ["--flags"]:
        for i, f in enumerate(P.draw_flags(SEED)[1], 1):
            done = ", ".join(c for g, c in sorted(SKIP) if g == f)
            print(i, f, f"(already made: {done})" if done else "")
        return
    print(f"novelty: {len(NEW)} NEW pairs new against {P.new_check()} earlier cases")
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(os.path.join(F.FIXTURES, "gemma-3-1b-it", "config.json")) as f:
            out["base_config"] = P.json.load(f)
        with open(OUT_JSON, "w") as f:
            P.json.dump(out, f, indent=1)
            f.write("\n")
    print_draw(out)


if __name__ == "__main__":
    main()
