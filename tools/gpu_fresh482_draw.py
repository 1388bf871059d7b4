"""Draw the fresh-482 GPU cases: OLD GROUND ON THE GPU, NEW DRAW, ROUND 4 -- ENGINE ARGUMENTS DRAWN AT RANDOM -- a
re-draw over fresh-469's universe (= fresh-370's = fresh-340's = fresh-99's; tools/gpu_fresh469_draw.py imported), with
seed 2482, every (flag, class) pair fresh-99, fresh-340, fresh-370 or fresh-469 drew skipped as already made, the same
walk under the same FIT bound, and a walk that ends short of 10 FILLED from NEW classes written before the draw.
Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no tokenizer.
Sampled, not chosen.

Usage: python3 tools/gpu_fresh482_draw.py              writes tools/gpu-fresh482-cases.json and prints the draw
       python3 tools/gpu_fresh482_draw.py --flags      prints stage 1 (the walked flags) only
       python3 tools/gpu_fresh482_draw.py --draw-only  prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh482_draw.py --rule-check the rule run over 300 OTHER seeds (run before seed 2482 was drawn)
       python3 tools/gpu_fresh482_draw.py --models DIR writes DIR/gemma-3-1b/config.json (the fixture, byte for byte)
Run (ONE device call; the cases file, gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into
.gpu/run, the model folder into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 420 p3 gpu_serve_requests.py .gpu/run/gpu-fresh482-cases.json LEFT 8 0.95
       <the cases file's "order">

THE PROCEDURE is fresh-469's, exactly (its docstring, tools/gpu_fresh469_draw.py): the universe (ALL_FLAGS 274,
DROPPED 123, KEPT 151), fresh-99's four value classes, the MODEL and BASE (.gpu/models/gemma-3-1b, google/gemma-3-1b-
it's published config.json unedited; --skip-tokenizer-init --load-format dummy --max-model-len 4096
--gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648; a drawn flag the base carries REPLACES the base's
value), the STEPS (one POST /v1/completions, 50 token ids 1000..1049, max_tokens 16), TIME (parse: timeout 75, need
25; start: timeout 240, need 150), MEM (parse 0.05, start 0.12), DUR (parse 60, start 150), FIT (the driver's start
rule simulated with DUR at LEFT 390 = TOTAL 420 less ~30 s set-up: nothing skipped, end by 370 s), P_VALID 0.25, N 10,
the walk (stage 1 r.sample(KEPT, 10); APPLIES written per walked flag from 0.26.0's source after stage 1; stage 2
fresh-370's rule; a flag with no class left DROPPED; a pair that breaks FIT PASSED OVER; a short walk filled from the
NEW pairs sorted then r.shuffle'd with the same r, taken while FIT, until 10), all IMPORTED or copied unchanged.
CHANGED: SEED 2482; the SKIP set; the NEW pool; the names (fresh-482, gpu-fresh482-cases.json).
THE SKIP SET: 46 pairs: fresh-469's 36 (fresh-99's, fresh-340's, fresh-370's) plus fresh-469's drawn pairs, its
VALUES' 9 keys and its n01 fill (--kv-cache-memory-bytes, binary-decimal).
NEW CLASSES (used only to fill a walk that ends short of 10; written from vLLM 0.26.0's source, the official wheel
/work/main/.gpu/build/vllm-0.26.0-*.whl unzipped into /tmp/gpu482/src, before the draw): fresh-469's "parser-form"
pairs not yet used (human-suffix 1536M, duplicate --max-num-seqs, underscore --max_logprobs), plus two more of the
same kind from utils/argparse_utils.py: "dotted" (FlexibleArgumentParser.parse_args turns `--compilation-config.X V`
into --compilation-config '{"X": V}'; a value that is not JSON and not a human-readable int stays a string;
config/compilation.py's validate_cudagraph_mode_before maps a string to CUDAGraphMode[value.upper()]) and
"decimal-suffix" (human_readable_int: a lower-case k is x1000, so 16k is 16000, not 16384, for
--max-num-batched-tokens; engine/arg_utils.py lists max_num_batched_tokens among its human_readable_int_args). Each
asserted new by new_check(): its (flag, class) is no earlier case's "flag"/"class", and its extra args appear as a
contiguous run in no earlier case's args, over every tools/gpu-fresh*-cases.json (fresh-469's included).
THE DRAW (fixed before seed 2482 was drawn): r = random.Random(2482); the rest as fresh-469's.
RULE CHECK (--rule-check, 300 OTHER seeds, run before seed 2482 was drawn, every case booked the worst class,
'start'): '300 seeds, every case booked 'start' (150 s, 0.12): mean simulated end 302 s; draws short of 10 by FIT: 0;
walked flags an earlier round drew (at risk of no class left) 2.41 per draw'. So FIT is not expected to bind; a fill
from NEW happens only where walked flags have no class left.
THE DRAW GAVE (stage 1 printed by --flags after 3e8b0b69 committed the tool; APPLIES committed 5511fbab before stage
2; VALUES, EXPECTED_DRAWN and this paragraph written after stage 2 was printed, before the cases file was written and
before anything ran): stage 1: 1 --enable-prefix-caching, 2 --quantization-config, 3 --tool-call-parser, 4 --convert,
5 --optimization-level (wrong-type already made), 6 --max-cudagraph-capture-size, 7 --cudagraph-metrics, 8
--enable-force-include-usage, 9 --lora-target-modules (valid already made), 10 --kv-offloading-backend. Stage 2:
nothing dropped, nothing passed over by FIT, the walk took 10, so NO NEW pair was used (the NEW pool stays unused).
Cases: g01 --enable-prefix-caching=false (wrong-type, parse), g02 --quantization online --quantization-config
'{"linear": "fp8_per_tensor"}' (valid, start), g03 --enable-auto-tool-choice --tool-call-parser pythonic (valid,
start), g04 --convert embedding (wrong-type, parse), g05 --optimization-level 0 (valid, start), g06
--max-cudagraph-capture-size auto (wrong-type, parse), g07 --cudagraph-metrics on (wrong-type, parse), g08
--enable-force-include-usage=True (wrong-type, parse), g09 --enable-lora --lora-target-modules all-linear (wrong-type,
start), g10 --kv-offloading-backend cpu (wrong-type, parse): 3 valid, 7 wrong-type; 4 start, 6 parse. "order" (DUR
longest first, walk order among equals): g02 g03 g05 g09 g01 g04 g06 g07 g08 g10; simulated: the first 8 start at 0-7
s (4 x 0.12 + 4 x 0.05 = 0.68 of 0.95), g08 at 64 s and g10 at 65 s as the first parse cases end; end 153 s at LEFT
390 (bound 370), nothing skipped.
EXPECTED per case: EXPECTED_DRAWN below (written from 0.26.0's source before anything ran).
LOCAL PARSER CHECK (after the cases file was committed, 3c28200b; nothing ran on the device; EXPECTED_DRAWN left as
committed): every case's args, as the driver passes them (`serve ARGS --port 8201`), given to vLLM 0.26.0's own
`vllm serve` parser (the wheel's source, /tmp/gpu482/src, on this machine's .venv-vllm Python 3.11 and its CPU torch,
a stub dist-info naming the version 0.26.0+cpu so the platform resolves; the device runs Python 3.12): g02 g03 g05
g09 parsed (g02 quantization 'online' with QuantizationConfigArgs(linear=QuantSpec(fp8 static per-tensor)); g05
optimization_level the string '0', which pydantic's lax mode turns into O0; g09 lora_target_modules ['all-linear']);
the six parse cases exit 2 with: g01 "argument --enable-prefix-caching/--no-enable-prefix-caching: ignored explicit
argument 'false'", g04 "argument --convert: invalid choice: 'embedding' (choose from 'auto', 'classify', 'embed',
'none')", g06 "argument --max-cudagraph-capture-size: invalid int value: 'auto'" (NOT the predicted 'Value auto
cannot be converted to <class 'int'>.': this flag's type is plain int), g07 'unrecognized arguments: on' (from the
top-level parser), g08 "... ignored explicit argument 'True'", g10 "argument --kv-offloading-backend: invalid choice:
'cpu' (choose from 'lmcache', 'native')"
SOURCES READ: tools/gpu_fresh469_draw.py, gpu_fresh370_draw.py (the universe, via import), tools/gpu_serve_requests.py,
the manifest's fresh-469 HEADER (up to the lead's measured block); vLLM 0.26.0 (unzipped to /tmp/gpu482/src):
utils/argparse_utils.py, engine/arg_utils.py, config/compilation.py, and the files named in APPLIES. Not read: doctor,
its knowledge, its tests, any batch's logs.
"""

import glob
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh370_draw as F  # noqa: E402
import gpu_fresh469_draw as P  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402

ALL_FLAGS, DROPPED, KEPT = F.ALL_FLAGS, F.DROPPED, F.KEPT
BASE, FLAGS, PARALLEL, BODY, TIME, MEM = F.BASE, F.FLAGS, F.PARALLEL, F.BODY, F.TIME, F.MEM
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh482-cases.json")
SEED = 2482
N = 10
P_VALID = F.P_VALID
N01 = ("--kv-cache-memory-bytes", "binary-decimal")  # fresh-469's NEW fill, made
SKIP = P.SKIP | frozenset(P.VALUES) | {N01}  # fresh-469's 36 + its 9 drawn pairs + n01 = 46
DUR = {"parse": 60, "start": 150}
END_MAX, LEFT, CAP, PAR = 370, 390, 0.95, 8

# NEW "parser-form" pairs, written before the draw from utils/argparse_utils.py, engine/arg_utils.py and
# config/compilation.py: (flag, class) -> (extra serve args, cost class, why, EXPECTED from 0.26.0's source).
# fresh-469's pool less its n01 (made), then two more.
NEW = {k: v for k, v in P.NEW.items() if k != N01}
NEW[("--compilation-config", "dotted")] = (
    ["--compilation-config.cudagraph_mode", "none"],
    "start",
    "one field of a JSON config flag set with the dotted form and a lower-case enum name (no CUDA graphs)",
    'healthy (expected none): parse_args folds it into --compilation-config \'{"cudagraph_mode": "none"}\', '
    "validate_cudagraph_mode_before maps it to CUDAGraphMode.NONE, no graph capture, the POST 200",
)
NEW[("--max-num-batched-tokens", "decimal-suffix")] = (
    ["--max-num-batched-tokens", "16k"],
    "start",
    "16k meant as 16384, read by human_readable_int as the decimal 16000 (lower-case k is x1000)",
    "healthy (expected none): max_num_batched_tokens 16000 (non-default args), >= max_model_len 4096, the POST 200",
)

# written after stage 1 (the flags) and before stage 2 (the classes), from vLLM 0.26.0's source
APPLIES = {
    # bool | None, a --x / --no-x switch (engine/arg_utils.py; config/cache.py); no pair check read
    "--enable-prefix-caching": ["wrong-type"],
    # dict | QuantizationConfigArgs, JSON (config/model.py, config/quantization.py): unknown keys refused by the
    # dataclass; resolve_quantization_config raises 'quantization_config is only supported when quantization is ...'
    # beside a --quantization that is not an online shorthand (the pair)
    "--quantization-config": ["wrong-type", "incompatible"],
    # str | None (entrypoints/openai/cli_args.py), a registered parser's name (api_server.validate_api_server_args:
    # 'invalid tool call parser: X (chose from ...)'); the --enable-auto-tool-choice check is the other flag's
    "--tool-call-parser": ["wrong-type"],
    # Literal auto / none / embed / classify (config/model.py); no pair check that gemma-3 reaches
    "--convert": ["wrong-type"],
    # OptimizationLevel IntEnum 0..3 (config/vllm.py); wrong-type already made (fresh-99's O3)
    "--optimization-level": ["out-of-range", "wrong-type"],
    # int | None (config/compilation.py); VllmConfig asserts 'Maximum cudagraph size should be greater than or equal
    # to 1 when using cuda graph.'; with --cudagraph-capture-sizes whose max differs: ValueError 'customized
    # max_cudagraph_capture_size(=N) should be consistent with the max value of cudagraph_capture_sizes(=M)' (the pair)
    "--max-cudagraph-capture-size": ["out-of-range", "wrong-type", "incompatible"],
    # bool switch (config/observability.py); no pair check
    "--cudagraph-metrics": ["wrong-type"],
    # bool switch (entrypoints/openai/cli_args.py); no pair check
    "--enable-force-include-usage": ["wrong-type"],
    # list[str] | None (config/lora.py); a name no module matches (lora/model_manager.py); valid already made
    "--lora-target-modules": ["wrong-type"],
    # Literal native / lmcache (config/cache.py); only read when --kv-offloading-size is set (config/vllm.py
    # _post_init_kv_transfer_config), no check naming the pair
    "--kv-offloading-backend": ["wrong-type"],
}

# written after stage 2 and before anything ran on the device: (extra serve args, cost class, why)
VALUES = {
    ("--enable-prefix-caching", "wrong-type"): (
        ["--enable-prefix-caching=false"], "parse", "'=false' given to an on/off switch (the off form is --no-...)"),
    ("--quantization-config", "valid"): (
        ["--quantization", "online", "--quantization-config", '{"linear": "fp8_per_tensor"}'], "start",
        "a healthy control: online FP8 (per-tensor weights) for the linear layers, the documented online form"),
    ("--tool-call-parser", "valid"): (
        ["--enable-auto-tool-choice", "--tool-call-parser", "pythonic"], "start",
        "a healthy control: auto tool choice with a registered parser (gemma-3's usual pythonic)"),
    ("--convert", "wrong-type"): (
        ["--convert", "embedding"], "parse", "the old task's name (embedding) where the choices are auto/none/embed/classify"),
    ("--optimization-level", "valid"): (
        ["--optimization-level", "0"], "start", "a healthy control: level 0 (no compilation, no CUDA graphs)"),
    ("--max-cudagraph-capture-size", "wrong-type"): (
        ["--max-cudagraph-capture-size", "auto"], "parse", "'auto' where the flag takes a number (leave it out for auto)"),
    ("--cudagraph-metrics", "wrong-type"): (["--cudagraph-metrics", "on"], "parse", "'on' given to an on/off switch"),
    ("--enable-force-include-usage", "wrong-type"): (
        ["--enable-force-include-usage=True"], "parse", "'=True' given to an on/off switch"),
    ("--lora-target-modules", "wrong-type"): (
        ["--enable-lora", "--lora-target-modules", "all-linear"], "start",
        "PEFT's keyword all-linear where the flag takes module suffixes (qkv_proj, o_proj ...)"),
    ("--kv-offloading-backend", "wrong-type"): (
        ["--kv-offloading-backend", "cpu"], "parse", "where the KV goes (cpu) where the choices are native / lmcache"),
}  # fmt: skip

EXPECTED_DRAWN = {  # written after the draw was printed, before anything ran (0.26.0's source as cited)
    "g01": 'argparse exit 2: "argument --enable-prefix-caching/--no-enable-prefix-caching: ignored explicit argument '
    "'false'\" (a BooleanOptionalAction, engine/arg_utils.py; a switch takes no =value)",
    "g02": "healthy (expected none): resolve_quantization_config takes quantization online with linear fp8_per_tensor "
    "(config/quantization.py); the linear layers quantized online at load (Model loading below the unquantized "
    "~1.96 GiB), the POST 200; if an FP8 kernel the bundle lacks is needed, a load-time error instead (unknown)",
    "g03": "healthy (expected none): pythonic is a registered tool parser (tool_parsers/__init__.py), "
    "validate_api_server_args passes, the parser class is only resolved, the POST 200",
    "g04": "argparse exit 2: \"argument --convert: invalid choice: 'embedding' (choose from 'auto', 'classify', "
    "'embed', 'none')\" (literal_to_kwargs: sorted choices)",
    "g05": "healthy (expected none): optimization level 0 (no torch.compile, no CUDA graph capture), a faster start, "
    "the POST 200",
    "g06": 'argparse exit 2: "argument --max-cudagraph-capture-size: Value auto cannot be converted to <class '
    "'int'>.\" (optional_type / parse_type)",
    "g07": "argparse exit 2: 'unrecognized arguments: on' (a BooleanOptionalAction takes no value; the serve "
    "positional is already the model)",
    "g08": 'argparse exit 2: "argument --enable-force-include-usage/--no-enable-force-include-usage: ignored explicit '
    "argument 'True'\"",
    "g09": "unknown, most likely healthy (then none): target_modules ['all-linear'] matches no module suffix "
    "(lora/utils.py is_in_target_modules), so no layer is wrapped and nothing says so; the POST 200. A failure at "
    "LoRA set-up with no wrapped layer is possible (then read from the log)",
    "g10": "argparse exit 2: \"argument --kv-offloading-backend: invalid choice: 'cpu' (choose from 'lmcache', "
    "'native')\"",
}


def draw_flags(seed=SEED):
    r = random.Random(seed)
    return r, r.sample(KEPT, N)


def case_of(key, spec, flag, cls, draw_line, new=False):
    extra, cost, why = spec[:3]
    timeout, need = TIME[cost]
    c = {"args": F.with_base(extra), "env": {}, "timeout": timeout, "need": need, "mem": MEM[cost],
         "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": cost, "dur": DUR[cost],
         "flag": flag, "class": cls, "value_why": why, "new_class": new, "draw": draw_line}  # fmt: skip
    if new:
        c["expect"] = spec[3]
    return c


def order_of(cases):
    keys = list(cases)
    return sorted(keys, key=lambda x: (-cases[x]["dur"], keys.index(x)))


def simulate(cases, order, total=LEFT):
    """The driver's start rule (in order, blocking; within CAP and PAR; skip past total - need): (end, starts, skipped).
    fresh-427's simulate(), unchanged."""
    running, clock, end, starts, skipped = [], 0.0, 0.0, [], []
    for key in order:
        c = cases[key]
        while True:
            running = [x for x in running if x[0] > clock]
            if not running or (len(running) < PAR and sum(m for _, m in running) + c["mem"] <= CAP + 1e-9):
                break
            clock = min(t for t, _ in running)
        if clock > total - c["need"]:
            skipped.append(key)
            continue
        running.append((clock + c["dur"], c["mem"]))
        starts.append(f"{key}@{clock:.0f}")
        end = max(end, clock + c["dur"])
        clock += 1
    return round(end), starts, skipped


def fits(cases):
    end, _, skipped = simulate(cases, order_of(cases))
    return end <= END_MAX and not skipped


def walk(seed=SEED, values=None, applies=None, worst=False):
    """The draw rule. worst=True (the rule check): every walked flag's class is 'drawn' and booked as a start."""
    values = VALUES if values is None else values
    applies = APPLIES if applies is None else applies
    r, flags = draw_flags(seed)
    cases, dropped, passed = {}, [], []
    for i, flag in enumerate(flags, 1):
        if worst:
            u, cls = r.random(), "drawn"
            spec = (["--x"], "start", "")
        else:
            left = [c for c in applies[flag] if (flag, c) not in SKIP]
            valid_ok = (flag, "valid") not in SKIP
            u = r.random()
            if valid_ok and (u < P_VALID or not left):
                cls = "valid"
            elif left:
                cls = r.choice(left)
            else:
                dropped.append((i, flag))
                continue
            spec = values.get((flag, cls))
            if spec is None:  # stage 2 printed before VALUES are written
                spec = (["<value>"], "start", "VALUES not yet written")
        key = f"g{i:02d}"
        trial = {
            **cases,
            key: case_of(key, spec, flag, cls, f"fresh-482 draw {i}: {flag}: {cls} (u={u:.3f})"),
        }
        if fits(trial):
            cases = trial
        else:
            passed.append((i, flag, cls))
    if len(cases) < N:
        new = sorted(NEW)
        r.shuffle(new)
        for j, (flag, cls) in enumerate(new, 1):
            if len(cases) == N:
                break
            key = f"n{j:02d}"
            trial = {**cases, key: case_of(key, NEW[(flag, cls)], flag, cls, f"fresh-482 fill {j}: {flag}: {cls} "
                                           "(NEW)", new=True)}  # fmt: skip
            if fits(trial):
                cases = trial
            else:
                passed.append((key, flag, cls))
    return cases, dropped, passed


def new_check():
    """Each NEW pair new to every tools/gpu-fresh*-cases.json: no earlier case has its (flag, class), and no earlier
    case's args hold its extra args as a contiguous run."""
    n_cases = 0
    for f in sorted(glob.glob(os.path.join(HERE, "gpu-fresh*-cases.json"))):
        if f == OUT_JSON:
            continue
        with open(f) as fh:
            d = json.load(fh)
        cs = d.get("cases", d) if isinstance(d, dict) else d
        for c in cs.values() if isinstance(cs, dict) else cs:
            if not isinstance(c, dict):
                continue
            n_cases += 1
            a = [str(x) for x in c.get("args", [])]
            for (flag, cls), spec in NEW.items():
                assert (c.get("flag"), c.get("class")) != (flag, cls), (f, flag, cls)
                L = len(spec[0])
                assert not any(a[i : i + L] == spec[0] for i in range(len(a) - L + 1)), (f, flag, cls, a)
    for flag, cls in NEW:
        assert (flag, cls) not in SKIP and cls not in ("valid", "out-of-range", "wrong-type", "incompatible")
    return n_cases


def draw(seed=SEED):
    cases, dropped, passed = walk(seed)
    for key, text in EXPECTED_DRAWN.items():
        if key in cases:
            cases[key]["expect_drawn"] = text
    why = ("fresh-482 doctor-corpus cases (tools/gpu_fresh482_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95). Round 4 "
           "(a new draw) of fresh-469's universe, imported unchanged; the 46 pairs fresh-99, fresh-340, fresh-370 and "
           "fresh-469 drew skipped; a short walk filled from NEW 'parser-form' classes; drawn, not chosen: see the draw "
           "script's docstring. 'models': python3 tools/gpu_fresh482_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "all_flags": len(ALL_FLAGS), "dropped_flags": len(DROPPED), "kept": len(KEPT),
            "skipped_pairs": sorted(map(list, SKIP)), "new_pairs": sorted(map(list, NEW)),
            "walk_dropped": [list(x) for x in dropped], "passed_over": [list(x) for x in passed],
            "order": order_of(cases), "models": {"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}},
            "source": F.SOURCE, "cases": cases}  # fmt: skip


if __name__ == "__main__":
    assert len(SKIP) == 46 and all(f in KEPT for f, _ in SKIP)
    if sys.argv[1:2] == ["--models"]:
        write_models({"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}}, sys.argv[2], F.FIXTURES)
        sys.exit(0)
    if sys.argv[1:] == ["--rule-check"]:
        seeds = [s for s in range(2100, 2482) if s not in (2099, 2340, 2370, 2469)][:300]
        at_risk = ends = short = 0
        for s in seeds:
            at_risk += sum(any(g == f for g, _ in SKIP) for f in draw_flags(s)[1])
            cs, _, passed = walk(s, worst=True)
            short += len(cs) < N
            ends += simulate(cs, order_of(cs))[0]
        n = len(seeds)
        print(f"{n} seeds, every case booked 'start' (150 s, 0.12): mean simulated end {ends / n:.0f} s; draws short "
              f"of {N} by FIT: {short}; walked flags an earlier round drew (at risk of no class left) {at_risk / n:.2f} "
              "per draw")  # fmt: skip
        sys.exit(0)
    if sys.argv[1:] == ["--flags"]:
        for i, f in enumerate(draw_flags()[1], 1):
            done = ", ".join(c for g, c in sorted(SKIP) if g == f)
            print(i, f, f"(already made: {done})" if done else "")
        sys.exit(0)
    print(f"novelty: {len(NEW)} NEW pairs new against {new_check()} earlier cases")
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(
            os.path.join(F.HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
        ) as f:
            out["base_config"] = json.load(f)
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    cs = out["cases"]
    print(f"{len(ALL_FLAGS)} flags, {len(DROPPED)} dropped, {len(KEPT)} kept, {len(SKIP)} pairs skipped")
    print("walk dropped (no class left):", out["walk_dropped"], "; passed over:", out["passed_over"])
    for key in out["order"]:
        c = cs[key]
        print(key, c["draw"], "|", c["cost"], "| new" if c["new_class"] else "|", " ".join(c["args"][len(FLAGS) +
              len(PARALLEL) + 1 :]), "| mem", c["mem"], "dur", c["dur"])  # fmt: skip
    end, starts, skipped = simulate(cs, out["order"])
    print(
        "simulated end",
        end,
        "at LEFT",
        LEFT,
        "(bound",
        END_MAX,
        ") starts",
        " ".join(starts),
        "skipped",
        skipped,
    )
    print("cases", len(cs), "; order:", " ".join(out["order"]))
