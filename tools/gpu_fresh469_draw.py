"""Draw the fresh-469 GPU cases: OLD GROUND ON THE GPU, NEW DRAW, ROUND 3 -- ENGINE ARGUMENTS DRAWN AT RANDOM -- a
re-draw over fresh-370's universe (tools/gpu_fresh370_draw.py, which re-drew fresh-340's, which re-drew fresh-99's),
with seed 2469, every (flag, class) pair fresh-99, fresh-340 or fresh-370 drew skipped as already made, a walk under a
FIT bound, and a walk that ends short of 10 FILLED from NEW classes written here from vLLM 0.26.0's source before the
draw. Real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no tokenizer.
Sampled, not chosen.

Usage: python3 tools/gpu_fresh469_draw.py              writes tools/gpu-fresh469-cases.json and prints the draw
       python3 tools/gpu_fresh469_draw.py --flags      prints stage 1 (the walked flags) only
       python3 tools/gpu_fresh469_draw.py --draw-only  prints the draw and the schedule figures, writes nothing
       python3 tools/gpu_fresh469_draw.py --rule-check the rule run over 300 OTHER seeds (run before seed 2469 was drawn)
       python3 tools/gpu_fresh469_draw.py --models DIR writes DIR/gemma-3-1b/config.json (the fixture, byte for byte)
Run (ONE device call; the cases file, gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into
.gpu/run, the model folder into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 420 p3 gpu_serve_requests.py .gpu/run/gpu-fresh469-cases.json LEFT 8 0.95
       <the cases file's "order">

THE UNIVERSE is fresh-370's (= fresh-340's = fresh-99's), IMPORTED unchanged from tools/gpu_fresh370_draw.py: ALL_FLAGS
(every option of vLLM 0.26.0's `vllm serve` parser, 274), DROPPED (123, reasons in tools/gpu_fresh99_draw.py), KEPT
(151, sorted: the pool of flags); fresh-99's four value classes (valid / out-of-range / wrong-type / incompatible, as
fresh-370's docstring defines them); the MODEL and BASE flags (fresh-340's BASE .gpu/models/gemma-3-1b, google/gemma-3-
1b-it's published config.json unedited, FLAGS --skip-tokenizer-init --load-format dummy --max-model-len 4096, PARALLEL
--gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648); the STEPS (BODY: one POST /v1/completions, 50 token
ids 1000..1049, max_tokens 16); TIME (parse: timeout 75, need 25; start: timeout 240, need 150); MEM (parse 0.05, start
0.12); with_base / make_case (a drawn flag the base carries REPLACES the base's value). APPLIES (the classes that apply
to a flag) is written per walked flag from 0.26.0's source after stage 1, as fresh-370 did.
THE SKIP SET: the 36 (flag, class) pairs already made in this universe: fresh-99's 12 and fresh-340's 12 (fresh-370's
own SKIP, imported) and fresh-370's 12 (its VALUES' keys). The brief named fresh-340's and fresh-370's; fresh-99's are
skipped too because they were made on the same base and fresh-370 skipped them (a superset: nothing already made is
re-made).
NEW CLASSES (used only to fill a walk that ends short of 10; written from vLLM 0.26.0's source, the official wheel
unzipped into /tmp/gpu469/src, before the draw): a fifth value class kind, "parser-form": an argument form that only
vLLM's own FlexibleArgumentParser reads (utils/argparse_utils.py: parse_args turns underscores into dashes in a flag's
name, WARNS 'Found duplicate keys %s' for a flag given twice (the last value wins); human_readable_int takes k/m/g/t
(decimal) and K/M/G/T (binary) suffixes on max_num_batched_tokens, max_num_scheduled_tokens, kv_cache_memory_bytes,
safetensors_prefetch_block_size (engine/arg_utils.py) and refuses a decimal with a binary suffix: 'Decimals are not
allowed with binary suffixes like G. Did you mean to use 1.5g instead?'). Four pairs (NEW below); each asserted new by
new_check(): its (flag, class) is no earlier case's "flag"/"class", and its extra args appear as a contiguous run in
no earlier case's args, over every tools/gpu-fresh*-cases.json. A first "human-suffix" value, --kv-cache-memory-bytes
2G, then 2g, were REPLACED by 1536M before the draw: the check found both in fresh-348's cases.
THE DRAW (fixed before seed 2469 was drawn): r = random.Random(2469); flags = r.sample(KEPT, 10) (stage 1, printed by
--flags after this tool was committed); APPLIES written for those 10 from 0.26.0's source; then stage 2, fresh-370's
rule, walking the flags in draw order: left = [c for c in APPLIES[flag] if (flag, c) not in SKIP]; valid_ok = (flag,
"valid") not in SKIP; u = r.random(); "valid" if valid_ok and (u < 0.25 or not left), else r.choice(left); a flag with
no class left is DROPPED (recorded); a pair is TAKEN if the cases taken so far plus it still FIT, else PASSED OVER
(recorded). If fewer than 10 are taken: new = the NEW pairs sorted; r.shuffle(new) (the same r); walk it the same way
(taken while FIT) until 10. VALUES (the concrete value per drawn pair, as a user gets it wrong) is written after stage
2, before anything ran. Cases g01.. numbered by the walk's position (a dropped flag leaves its number unused), NEW
fills n01... Nothing is redrawn; a draw still short is kept short, said so.
DUR (seconds from a case's start to its end, booked in the simulation), from the real H100 timings in the manifest
headers: fresh-370 (this base, gemma-3-1b full, up to 8 side by side on an H100): argparse refusals exit at 29-30 s,
the config-build refusal (g10) at 56 s, the four healthy controls ready at 135-138 s and g06 (refused after a whole
engine start) at 136 s; fresh-427 (2-layer cuts, 8 starts at once on an H100): ready at 73-93 s, set-up 32 s. So
"parse" 60 (the config-build refusal's 56 s bounds the argparse ones from above) and "start" 150 (the slowest
fresh-370 start, 138 s, + the POST and a margin for more starts at once than fresh-370's five).
FIT (the brief's bound): "order" = the cases by DUR, longest first (walk order among equals); the driver's start rule
(tools/gpu_serve_requests.py main(): in order, blocking, at most 8 at once, the running "mem" plus the next within 0.95,
1 s between starts, a case skipped when it would start after LEFT - its "need") simulated with DUR and LEFT 390 (TOTAL
420 less the kit's ~30 s set-up) must skip nothing and end by 370 s. fresh-427's simulate() (fresh-392's), its code.
MEMORY: every engine runs at --gpu-memory-utilization 0.1 (0.1 x 79.2 GiB = 7.9 GiB cap each) with the fixed 2 GiB KV
cache; the driver books 0.12 a start, 0.05 a parse case, so at most 7 starts (0.84) + 1 parse case at once (0.89).
RULE CHECK (--rule-check, over 300 OTHER seeds, run before seed 2469 was drawn; APPLIES exists only for the walked
flags, so the check books every case as the worst class, "start"): '300 seeds, every case booked 'start' (150 s,
0.12): mean simulated end 302 s; draws short of 10 by FIT: 0; walked flags an earlier round drew (at risk of no class
left) 2.10 per draw'. So FIT is not expected to bind (10 starts: 7 at t=0, 3 at ~150 s, end ~302 s <= 370); a fill
from NEW happens only where walked flags have no class left (fresh-370 had four such flags, all "valid" by the rule).
THE DRAW GAVE (stage 1 printed by --flags after 9d670d49 committed the tool; APPLIES committed b531704e before stage
2; VALUES, EXPECTED_DRAWN and this paragraph written after stage 2 was printed, before the cases file was written and
before anything ran): stage 1: 1 --h11-max-header-count, 2 --generation-config, 3 --cpu-offload-gb, 4 --max-cpu-loras,
5 --kv-cache-memory-bytes, 6 --enable-sleep-mode, 7 --override-generation-config, 8 --safetensors-load-strategy, 9
--ir-op-priority, 10 --num-gpu-blocks-override. Stage 2: draw 2 (--generation-config) DROPPED (valid and wrong-type
already made by fresh-370 / fresh-99: no class left); none passed over by FIT; the walk took 9, so the NEW pairs were
shuffled and walked: the first, (--kv-cache-memory-bytes, binary-decimal), was taken as n01. Cases: g01
--h11-max-header-count 0 (out-of-range, start), g03 --cpu-offload-gb 1 (valid, start), g04 --enable-lora --max-loras 2
--max-cpu-loras 4 (valid, start), g05 --kv-cache-memory-bytes 2GiB (wrong-type, parse), g06 --enable-sleep-mode true
(wrong-type, parse), g07 --override-generation-config '{"temperature": 0.5}' (valid, start), g08
--safetensors-load-strategy mmap (wrong-type, parse), g09 --ir-op-priority '{"rms_norm": "native"}' (wrong-type,
parse), g10 --num-gpu-blocks-override 16 (out-of-range, start), n01 --kv-cache-memory-bytes 1.5G (NEW binary-decimal,
parse): 3 valid, 4 wrong-type, 2 out-of-range, 1 NEW; 5 start, 5 parse. "order" (DUR longest first): g01 g03 g04 g07
g10 g05 g06 g08 g09 n01; simulated: the first 8 start at 0-7 s (5 x 0.12 + 3 x 0.05 = 0.75 of 0.95), g09 at 65 s and
n01 at 66 s as the first parse cases end; end 154 s at LEFT 390 (bound 370), nothing skipped.
EXPECTED per case: EXPECTED_DRAWN below (written from 0.26.0's source before anything ran): 3 healthy controls (g03,
g04, g07), g01 server up with its POST likely refused by the header limit (unknown), g10 refused in the engine core at
KV cache sizing, five argparse exits (g05, g06, g08, g09, n01).
SOURCES READ: tools/gpu_fresh370_draw.py, gpu_fresh340_draw.py, gpu_fresh99_draw.py (the universe), gpu_fresh427_draw.py
(the form, simulate()), tools/gpu_serve_requests.py main(), tools/gpu_fresh151_go.sh, tools/gpu_draw_models.py, the
manifest's fresh-370 and fresh-427 HEADER lines (up to their lead's measured block); vLLM 0.26.0 (the wheel in
/work/main/.gpu/build, unzipped to /tmp/gpu469/src): utils/argparse_utils.py, engine/arg_utils.py, and the files named
in APPLIES. Not read: doctor, its knowledge, its tests, any batch's logs.
"""

import glob
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_fresh370_draw as F  # noqa: E402
from gpu_draw_models import write_models  # noqa: E402

ALL_FLAGS, DROPPED, KEPT = F.ALL_FLAGS, F.DROPPED, F.KEPT
BASE, FLAGS, PARALLEL, BODY, TIME, MEM = F.BASE, F.FLAGS, F.PARALLEL, F.BODY, F.TIME, F.MEM
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh469-cases.json")
SEED = 2469
N = 10
P_VALID = F.P_VALID
SKIP = frozenset(F.SKIP) | frozenset(F.VALUES)  # fresh-99's, fresh-340's and fresh-370's 36 pairs
DUR = {"parse": 60, "start": 150}
END_MAX, LEFT, CAP, PAR = 370, 390, 0.95, 8

# NEW "parser-form" pairs, written before the draw from utils/argparse_utils.py and engine/arg_utils.py:
# (flag, class) -> (extra serve args, cost class, why, EXPECTED from 0.26.0's source)
NEW = {
    ("--kv-cache-memory-bytes", "binary-decimal"): (
        ["--kv-cache-memory-bytes", "1.5G"],
        "parse",
        "one and a half gigabytes written with the binary suffix (human_readable_int refuses decimals with K/M/G/T)",
        "argparse exit 2: 'argument --kv-cache-memory-bytes: Decimals are not allowed with binary suffixes like G. "
        "Did you mean to use 1.5g instead?'",
    ),
    ("--kv-cache-memory-bytes", "human-suffix"): (
        ["--kv-cache-memory-bytes", "1536M"],
        "start",
        "a healthy control: a 1.5 GiB KV budget in the binary human-readable form (1536M = 1536 * 2**20 bytes)",
        "healthy (expected none): a KV cache of 1,610,612,736 bytes (3/4 of the base's), the POST 200",
    ),
    ("--max-num-seqs", "duplicate"): (
        ["--max-num-seqs", "128", "--max-num-seqs", "32"],
        "start",
        "a flag given twice (a launch script's default and the user's override): the last value wins",
        "healthy (expected none): WARNING 'Found duplicate keys --max-num-seqs', max_num_seqs 32, the POST 200",
    ),
    ("--max-logprobs", "underscore"): (
        ["--max_logprobs", "50"],
        "start",
        "the Python field name with underscores (parse_args turns it into --max-logprobs)",
        "healthy (expected none): max_logprobs 50 (non-default args), the POST 200",
    ),
}

# written after stage 1 (the flags) and before stage 2 (the classes), from vLLM 0.26.0's source
APPLIES = {
    # int (FrontendArgs), handed to uvicorn's h11 (entrypoints/launcher.py), no bound checked at start (fresh-340's
    # reading; valid already made)
    "--h11-max-header-count": ["out-of-range", "wrong-type"],
    # str "auto" / "vllm" / a folder (config/model.py try_get_generation_config); fresh-370's reading; valid and
    # wrong-type already made: nothing left, dropped by the rule
    "--generation-config": ["wrong-type"],
    # float, Field(default=0, ge=0) (config/offload.py UVAOffloadConfig); with --offload-backend prefetch only WARNS
    # 'UVA offload fields are set but offload_backend='prefetch'', so no refusing pair
    "--cpu-offload-gb": ["out-of-range", "wrong-type"],
    # int | None (config/lora.py); fresh-340's reading ('max_cpu_loras (C) must be >= max_loras (L)', the pair with
    # --max-loras; incompatible already made)
    "--max-cpu-loras": ["out-of-range", "wrong-type", "incompatible"],
    # int | None, human_readable_int (engine/arg_utils.py), no Field bound; a budget too small for --max-model-len is
    # refused once the KV cache is sized (v1/core/kv_cache_utils.py _check_enough_kv_cache_memory); no flag-pair check
    "--kv-cache-memory-bytes": ["out-of-range", "wrong-type"],
    # bool switch (config/model.py); its refusal 'Sleep mode is not supported on current platform.' is the platform,
    # not a flag pair (valid already made)
    "--enable-sleep-mode": ["wrong-type"],
    # dict[str, Any], a JSON object (config/model.py), merged into the generation config; no check
    "--override-generation-config": ["wrong-type"],
    # Literal lazy / eager / prefetch / torchao | None (config/load.py); no pair check
    "--safetensors-load-strategy": ["wrong-type"],
    # IrOpPriorityConfig, a JSON object of per-op lists of str (config/kernel.py); no pair check
    "--ir-op-priority": ["wrong-type"],
    # int | None (config/cache.py); a count too small for --max-model-len is refused once the KV cache is sized
    # (kv_cache_utils: the override replaces the profiled memory before _check_enough_kv_cache_memory); no flag-pair
    # check (wrong-type already made)
    "--num-gpu-blocks-override": ["out-of-range", "wrong-type"],
}

# written after stage 2 and before anything ran on the device: (extra serve args, cost class, why)
VALUES = {
    ("--h11-max-header-count", "out-of-range"): (
        ["--h11-max-header-count", "0"], "start", "0 meant as 'no limit' where it is the most headers a request may carry"),
    ("--cpu-offload-gb", "valid"): (["--cpu-offload-gb", "1"], "start", "a healthy control: 1 GB of weights on the CPU"),
    ("--max-cpu-loras", "valid"): (
        ["--enable-lora", "--max-loras", "2", "--max-cpu-loras", "4"], "start",
        "a healthy control: more CPU LoRA slots than GPU slots, as LoRAConfig asks"),
    ("--kv-cache-memory-bytes", "wrong-type"): (
        ["--kv-cache-memory-bytes", "2GiB"], "parse", "a unit name (GiB) where the parser takes a number or 2G / 2g"),
    ("--enable-sleep-mode", "wrong-type"): (["--enable-sleep-mode", "true"], "parse", "'true' given to a switch"),
    ("--override-generation-config", "valid"): (
        ["--override-generation-config", '{"temperature": 0.5}'], "start", "a healthy control: a default temperature"),
    ("--safetensors-load-strategy", "wrong-type"): (
        ["--safetensors-load-strategy", "mmap"], "parse",
        "the mechanism's name (mmap) where the choices are lazy / eager / prefetch / torchao"),
    ("--ir-op-priority", "wrong-type"): (
        ["--ir-op-priority", '{"rms_norm": "native"}'], "parse",
        "one provider as a string where each op takes a list of providers"),
    ("--num-gpu-blocks-override", "out-of-range"): (
        ["--num-gpu-blocks-override", "16"], "start",
        "16 blocks (256 tokens at block size 16), too few for --max-model-len 4096"),
}  # fmt: skip

EXPECTED_DRAWN = {  # written after the draw was printed, before anything ran (0.26.0's source as cited)
    "g01": "unknown, server up then the POST refused: --h11-max-header-count 0 is set on uvicorn's config "
    "(entrypoints/launcher.py: config.h11_max_header_count = 0, no bound checked); the server comes up healthy and "
    "the POST (a few headers) is most likely refused by the HTTP layer (a 4xx such as 431 / 400 or the connection "
    "closed); if 0 is not enforced, the POST 200 (then none)",
    "g03": "healthy (expected none): UVA CPU offload of 1 GB of gemma-3-1b's weights, the POST 200",
    "g04": "healthy (expected none): LoRA on with max_loras 2, max_cpu_loras 4 (LoRAConfig accepts C >= L), the POST 200",
    "g05": "argparse exit 2: \"argument --kv-cache-memory-bytes: invalid human_readable_int value: '2GiB'\" "
    "(human_readable_int's fall-through int(value) raises ValueError)",
    "g06": "argparse exit 2: 'unrecognized arguments: true'",
    "g07": "healthy (expected none): the POST 200 at temperature 0.5 (the server's default sampling params logged)",
    "g08": "argparse exit 2: \"argument --safetensors-load-strategy: invalid choice: 'mmap' (choose from ...)\"",
    "g09": "argparse exit 2 while the JSON is parsed into IrOpPriorityConfig: 'argument --ir-op-priority: ...' with "
    "pydantic's 'rms_norm Input should be a valid list'",
    "g10": "refused in the engine core when the KV cache is sized (v1/core/kv_cache_utils.py: 'Overriding "
    "num_gpu_blocks=N with num_gpu_blocks_override=16', then _check_enough_kv_cache_memory's ValueError that the "
    "model's max seq len (4096) needs more KV cache than is available, naming --max-model-len / "
    "--gpu-memory-utilization), 'Engine core initialization failed', exit 1",
    "n01": NEW[("--kv-cache-memory-bytes", "binary-decimal")][3],
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
            key: case_of(key, spec, flag, cls, f"fresh-469 draw {i}: {flag}: {cls} (u={u:.3f})"),
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
            trial = {**cases, key: case_of(key, NEW[(flag, cls)], flag, cls, f"fresh-469 fill {j}: {flag}: {cls} "
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
    why = ("fresh-469 doctor-corpus cases (tools/gpu_fresh469_draw.py wrote this file; tools/gpu_serve_requests.py runs "
           "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95). Round 3 "
           "(a new draw) of fresh-370's universe, imported unchanged; the 36 pairs fresh-99, fresh-340 and fresh-370 "
           "drew skipped; a short walk filled from NEW 'parser-form' classes; drawn, not chosen: see the draw script's "
           "docstring. 'models': python3 tools/gpu_fresh469_draw.py --models .gpu/models.")  # fmt: skip
    return {"why": why, "seed": seed, "all_flags": len(ALL_FLAGS), "dropped_flags": len(DROPPED), "kept": len(KEPT),
            "skipped_pairs": sorted(map(list, SKIP)), "new_pairs": sorted(map(list, NEW)),
            "walk_dropped": [list(x) for x in dropped], "passed_over": [list(x) for x in passed],
            "order": order_of(cases), "models": {"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}},
            "source": F.SOURCE, "cases": cases}  # fmt: skip


if __name__ == "__main__":
    assert len(SKIP) == 36 and all(f in KEPT for f, _ in SKIP)
    if sys.argv[1:2] == ["--models"]:
        write_models({"gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}}}, sys.argv[2], F.FIXTURES)
        sys.exit(0)
    if sys.argv[1:] == ["--rule-check"]:
        seeds = [s for s in range(2100, 2469) if s not in (2099, 2340, 2370)][:300]
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
