"""Draw the fresh-168 H200 cases: a SECOND round of fresh-151's space (THE ENVIRONMENT AROUND vLLM that is not vLLM's
own: variables read by CUDA, PyTorch, Triton and the Hugging Face libraries, and the process's limits) that draws only
value classes that BITE, each condition with a value class, by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh168_draw.py               writes tools/gpu-fresh168-cases.json and prints the draw
       python3 tools/gpu_fresh168_draw.py --draw-only   prints the universe's counts, the BITES list, the draw
The cases are run by tools/gpu_serve_requests.py (a case's "ulimit" is set by gpu_serve_drive.start in the server's
shell) through tools/gpu_fresh168_go.sh (real vLLM 0.26.0 `vllm serve`, one H200, starts side by side). Both attempts
below carried tools/gpu_fresh168_requests.py, a copy of that driver with the ulimit added, since merged into it.

BASE (fixed before the draw, fresh-151's unchanged): google/gemma-3-1b-it's published config.json
(tests/fixtures/checkpoints/gemma-3-1b-it), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init
--load-format dummy --max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648`, with the
drawn condition set in the server's environment (or, for a ulimit, in its shell before python starts), and the kit's
environment otherwise (tools/gpu_serve_drive.py BASE_ENV; a drawn variable replaces the kit's value of the same name).
Once the server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16} with a
50-token prompt (token ids 1000..1049).

THE UNIVERSE: fresh-151's KEPT list (196 conditions; its lists and drop rules are imported from tools/gpu_fresh151_draw.py,
whose docstring says where each came from), less the twelve fresh-151 drew (F151_DRAWN):
184. TORCHINDUCTOR_CACHE_DIR and XDG_CACHE_HOME are not in it (fresh-151's scan took only the CUDA_/PYTORCH_/TORCH_/
TRITON_/NCCL_/HF_/TRANSFORMERS_/TOKENIZERS_ prefixes and OMP_NUM_THREADS), so they cannot be drawn here.
THE RESTRICTION (fixed before the draw): of those 184, BITES keeps only the conditions whose reader refuses a value
(raises on it, not: compares with "1", warns and ignores) or whose value changes what the start can do, each with the
value classes that bite for it (FAMILIES below say which and why). Everything else in the 184 is left out: switches
read only as "== '1'" or a word list, c10 boolean flags that warn and ignore (fresh-151 e04), verbosity/log levels
that warn and fall back, debug/profiling/dump switches, TunableOp, JIT/TensorExpr (TorchScript, not used by a vLLM
start), Hub switches with no effect on a local model folder, and core-dump settings that act only on a crash.
THE DRAW: r = random.Random(2168); names = r.sample(sorted(BITES), 12). Then for each drawn condition in draw order:
u = r.random(); u < 1/6 -> "valid" (a healthy control, a value the reader takes), else r.choice(BITES[name]'s classes).
The concrete value per (condition, class) is VALUES below, written after the draw and before anything ran on the
device. "Not writable": the device runs as root, so a mode-000 folder is writable to it; a path under /proc (read-only
to new files) or a path whose parent is a plain file is what cannot be written.
Run order (fixed here, not by outcome): all twelve start side by side (16 cores, one GPU at 0.1 each) in draw order.
NOT RUN YET (stop 33, engineer fresh168): the bundle's six part calls began (p0..p4 landed in 5 calls), then the last
call (bash .gpu/run/gpu_fresh168_go.sh 480 p5 gpu_fresh168_requests.py .gpu/run/gpu-fresh168-cases.json LEFT 12 1.0
e01 .. e12) came back "the device machine was taken back for other work before the call finished", with no output;
the three fresh starts asked for after it (04:42, 04:59 and one refused at once) got no machine. Device time: status
1043 s at the start, 619 s at the end (424 s used, none of it producing a log). No log exists and no case was written:
a later session can run this draw unchanged (the values above were fixed before anything ran).
SECOND ATTEMPT (stop 33, fresh168 again, 05:07-05:25 UTC): the bundle was rebuilt exactly as above (build-bundle.sh
/work/main/.gpu 30: p0..p4 of 30 MiB, p5 of 7 MiB; .gpu/whl = the 23 kit wheels + the 13 API-server wheels, unpinned,
which resolved to fresh-151's versions; .gpu/run = gpu_fresh168_go.sh, gpu_serve_drive.py, gpu_fresh168_requests.py,
gpu-fresh168-cases.json; .gpu/models/gemma-3-1b/config.json). `status` allowed a try only at 05:20; the first part
call (carry .gpu/p0, timeout_s 90) was refused ("no device machine could be started right now ... in about 10 min"),
and that refusal cost 90 s of budget (619 -> 529 s: the call's timeout_s, not 15 s). The next try would have been
about 05:32, past the brief's 05:30 stop line, so nothing more was asked; /work/main/.gpu was removed. Still no log,
no case; the draw and its values stay unchanged for a later session (needs: 6 part calls back to back within the
30 s idle release, then the go call, about 185 s in fresh-151; ask with a small timeout_s on part calls).
"""

import json
import os
import random
import sys

from gpu_fresh151_draw import CONDS, DROPPED, KEPT

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh168-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2168
N = 12
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
PARALLEL = ["--gpu-memory-utilization", "0.1", "--kv-cache-memory-bytes", "2147483648"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIMEOUT = 400  # fresh-151: twelve starts side by side were all up in 108-119 s

# fresh-151's universe, unchanged: every condition it listed (CONDS: name -> where it was read), its drop rules'
# verdicts (DROPPED) and what they kept (KEPT), from tools/gpu_fresh151_draw.py itself rather than a copy

F151_DRAWN = [
    "TORCH_STRICT_PRECOMPILE", "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK", "TORCH_COMPILE_USE_LAZY_GRAPH_MODULE",
    "TORCH_SHOW_CPP_STACKTRACES", "HF_ASSETS_CACHE", "TRANSFORMERS_NO_ADVISORY_WARNINGS",
    "PYTORCH_CUDA_ALLOC_CONF:release_lock_on_cudamalloc", "TORCH_SERIALIZATION_DEBUG", "TRITON_OVERRIDE_DIR",
    "TRITON_KERNEL_OVERRIDE", "TORCH_COMPILE_GRAPH_FORMAT", "HF_HUB_DISABLE_SYMLINKS_WARNING",
]  # fmt: skip
UNIVERSE = [n for n in KEPT if n not in F151_DRAWN]

# family -> (its conditions, the value classes that bite for them, why they bite)
FAMILIES = {
    "devices": (
        ["CUDA_VISIBLE_DEVICES"],
        ["empty", "minus-one", "missing-index", "uuid-nothing", "mig-nothing"],
        "the driver enumerates only the devices the list names: a list naming none leaves the process no GPU",
    ),
    "alloc-number": (
        ["PYTORCH_CUDA_ALLOC_CONF:max_split_size_mb", "PYTORCH_CUDA_ALLOC_CONF:max_non_split_rounding_mb",
         "PYTORCH_CUDA_ALLOC_CONF:garbage_collection_threshold", "PYTORCH_CUDA_ALLOC_CONF:roundup_power2_divisions",
         "PYTORCH_CUDA_ALLOC_CONF:pinned_num_register_threads",
         "PYTORCH_CUDA_ALLOC_CONF:pinned_reserve_segment_size_mb",
         "PYTORCH_CUDA_ALLOC_CONF:per_process_memory_fraction"],
        ["malformed", "out-of-range"],
        "c10's allocator config parser TORCH_CHECKs each option's number (a word, or a value out of its range)",
    ),
    "alloc-bool": (
        ["PYTORCH_CUDA_ALLOC_CONF:expandable_segments", "PYTORCH_CUDA_ALLOC_CONF:pinned_use_background_threads",
         "PYTORCH_CUDA_ALLOC_CONF:pinned_use_cuda_host_register",
         "PYTORCH_CUDA_ALLOC_CONF:graph_capture_record_stream_reuse", "PYTORCH_CUDA_ALLOC_CONF:backend"],
        ["malformed"],
        "c10's allocator config parser TORCH_CHECKs True/False (backend: native/cudaMallocAsync)",
    ),
    "alloc-whole": (
        ["PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF"],
        ["unknown-key", "malformed"],
        "c10's allocator config parser TORCH_CHECKs each key it meets and the key:value form",
    ),
    "cuda-switch": (
        ["CUDA_MODULE_LOADING", "CUDA_MODULE_DATA_LOADING", "CUDA_DEVICE_MAX_CONNECTIONS",
         "CUDA_DEVICE_MAX_COPY_CONNECTIONS", "CUDA_LAUNCH_BLOCKING", "CUDA_SCALE_LAUNCH_QUEUES", "CUDA_DEVICE_ORDER",
         "CUDA_AUTO_BOOST", "CUDA_GRAPHS_USE_NODE_PRIORITY", "CUDA_DEVICE_WAITS_ON_EXCEPTION", "CUDA_CACHE_DISABLE",
         "CUDA_CACHE_MAXSIZE", "CUDA_MANAGED_FORCE_DEVICE_ALLOC"],
        ["bad-value"],
        "read by the CUDA driver at cuInit (and by torch/c10 for CUDA_MODULE_LOADING and CUDA_LAUNCH_BLOCKING): a "
        "word where it takes a number or one of its words",
    ),
    "cuda-jit": (
        ["CUDA_FORCE_PTX_JIT", "CUDA_FORCE_JIT", "CUDA_DISABLE_PTX_JIT", "CUDA_DISABLE_JIT"],
        ["on"],
        "1 changes which of a library's kernel images the driver may load (forced JIT from PTX / no JIT)",
    ),
    "cache-dir": (
        ["TRITON_CACHE_DIR", "TRITON_HOME", "HF_HOME", "HF_HUB_CACHE", "HF_MODULES_CACHE", "CUDA_CACHE_PATH",
         "PYTORCH_KERNEL_CACHE_PATH"],
        ["under-proc", "on-a-file"],
        "a folder the start may create or write (compiled kernels, the Hub's caches, the driver's JIT cache)",
    ),
    "tool-path": (
        ["TRITON_PTXAS_PATH", "TRITON_LIBDEVICE_PATH", "TRITON_CUDART_PATH", "TRITON_CUDACRT_PATH",
         "TRITON_LIBCUDA_PATH"],
        ["points-at-nothing"],
        "where Triton finds ptxas, libdevice, the CUDA runtime headers or libcuda to build a kernel",
    ),
    "switch-changes-start": (
        ["PYTORCH_NO_CUDA_MEMORY_CACHING", "TRITON_INTERPRET", "TRITON_OVERRIDE_ARCH", "OMP_NUM_THREADS"],
        ["bad-value", "on"],
        "the caching allocator off, Triton's CPU interpreter on, Triton compiling for another arch; OMP_NUM_THREADS "
        "refused by libgomp / torch",
    ),
    "ulimit": (
        ["ulimit -n", "ulimit -l", "ulimit -s", "ulimit -v"],
        ["too-small"],
        "a limit too small for a start: open files, locked memory, stack, virtual memory",
    ),
}  # fmt: skip
BITES = {n: classes for names, classes, _ in FAMILIES.values() for n in names}
FAMILY_OF = {n: fam for fam, (names, _, _) in FAMILIES.items() for n in names}
assert all(n in UNIVERSE for n in BITES), [n for n in BITES if n not in UNIVERSE]


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(BITES), N)
    out = []
    for name in names:
        u = r.random()
        cls = "valid" if u < 1 / 6 else r.choice(BITES[name])
        out.append((name, cls, u))
    return out


# Written after the draw and before anything ran on the device: the concrete value per drawn (condition, class), from
# the reader's own code where it could be read (this machine's torch/triton copies; CUDA's documentation for the
# driver's variables): (environment or shell limit, why). No condition drew "valid" (no u < 1/6): the batch has no
# healthy control by the draw. Draw 9 (TRITON_INTERPRET, class bad-value) is a flaw of the family list, seen only after
# the draw and left as drawn: triton and torch read it as a boolean ("1"/on/true), so a bad value reads as off.
A_FILE = "/tmp/f168-a-file"  # a plain file, made by tools/gpu_fresh168_go.sh before the servers start
VALUES = {
    # CUDA driver: CUDA_DEVICE_ORDER takes FASTEST_FIRST (default) or PCI_BUS_ID
    ("CUDA_DEVICE_ORDER", "bad-value"): (
        {"CUDA_DEVICE_ORDER": "PCI_BUS"},
        "'PCI_BUS', a near miss of PCI_BUS_ID (the driver takes FASTEST_FIRST or PCI_BUS_ID)",
    ),
    # c10/cuda/CUDACachingAllocator: PYTORCH_NO_CUDA_MEMORY_CACHING set -> every allocation straight to cudaMalloc
    ("PYTORCH_NO_CUDA_MEMORY_CACHING", "on"): (
        {"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"},
        "1: torch's caching allocator off (every tensor a cudaMalloc/cudaFree; CUDA graph capture needs the pool)",
    ),
    # bash's ulimit -v (KiB) in the server's shell: the CUDA driver reserves far more virtual address space than 16 GiB
    ("ulimit -v", "too-small"): (
        {"ulimit": "ulimit -v 16777216"},
        "virtual memory 16 GiB (16777216 KiB): enough to import torch, too small for the CUDA driver's reservations",
    ),
    # CUDA driver: a MIG instance is named MIG-<UUID>; this one matches no instance (the H200 is not in MIG mode)
    ("CUDA_VISIBLE_DEVICES", "mig-nothing"): (
        {"CUDA_VISIBLE_DEVICES": "MIG-5f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"},
        "a MIG-style name (MIG-<UUID>) that matches no MIG instance on a host with none",
    ),
    # CUDA driver: CUDA_DEVICE_MAX_COPY_CONNECTIONS takes a number of copy connections
    ("CUDA_DEVICE_MAX_COPY_CONNECTIONS", "bad-value"): (
        {"CUDA_DEVICE_MAX_COPY_CONNECTIONS": "eight"},
        "'eight', a word where the driver takes a number",
    ),
    # huggingface_hub/constants.py: HF_HOME roots the Hub cache, the token file and the assets cache
    ("HF_HOME", "on-a-file"): (
        {"HF_HOME": A_FILE},
        "a plain file where a folder is expected",
    ),
    # transformers/utils/hub.py: HF_MODULES_CACHE is where remote-code modules are copied (init_hf_modules makes it)
    ("HF_MODULES_CACHE", "on-a-file"): (
        {"HF_MODULES_CACHE": A_FILE + "/modules"},
        "a folder under a plain file (its parent is a file: it can be neither made nor written)",
    ),
    # CUDA driver: CUDA_FORCE_PTX_JIT=1 ignores embedded binary code and JIT-compiles each kernel's PTX
    ("CUDA_FORCE_PTX_JIT", "on"): (
        {"CUDA_FORCE_PTX_JIT": "1"},
        "1: the driver JIT-compiles PTX for every kernel and refuses kernels shipped without PTX",
    ),
    # triton (C++ getenv_bool: on/true/1, off/false/0) and torch/_inductor (== "1")
    ("TRITON_INTERPRET", "bad-value"): (
        {"TRITON_INTERPRET": "yes"},
        "'yes', a word the boolean readers do not take (triton: on/true/1; torch: == '1'): read as off",
    ),
    # libgomp parses OMP_NUM_THREADS as a list of positive numbers; torch's set_num_threads needs a positive number
    ("OMP_NUM_THREADS", "bad-value"): (
        {"OMP_NUM_THREADS": "four"},
        "'four', a word where OpenMP takes a positive number",
    ),
    # c10 CUDAAllocatorConfig::parsePinnedNumRegisterThreads: a power of 2, at most 128
    ("PYTORCH_CUDA_ALLOC_CONF:pinned_num_register_threads", "out-of-range"): (
        {"PYTORCH_CUDA_ALLOC_CONF": "pinned_num_register_threads:256"},
        "256, a power of two over the parser's limit of 128",
    ),
    # c10 AcceleratorAllocatorConfig: expandable_segments takes True or False
    ("PYTORCH_CUDA_ALLOC_CONF:expandable_segments", "malformed"): (
        {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:yes"},
        "'yes' where the parser takes True or False",
    ),
}


def make_case(name, cls):
    env, why = VALUES[(name, cls)]
    env = dict(env)
    ulimit = env.pop("ulimit", None)
    c = {"args": [BASE, *FLAGS, *PARALLEL], "env": env, "timeout": TIMEOUT, "need": 200, "mem": 0.08,
         "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": "start",
         "var": name, "family": FAMILY_OF[name], "source_of_name": CONDS[name], "class": cls, "value_why": why}  # fmt: skip
    if ulimit:
        c["ulimit"] = ulimit
    return c


def draw():
    cases = {}
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        key = f"e{i:02d}"
        cases[key] = make_case(name, cls)
        cases[key]["draw"] = f"draw {i}: {name}: {cls} (u={u:.3f})"
    why = ("fresh-168 doctor-corpus cases (tools/gpu_fresh168_draw.py wrote this file; tools/gpu_serve_requests.py "
           "runs them on real vLLM 0.26.0 'vllm serve', one H200, side by side, via ../shared/gpu). Drawn, not "
           "chosen: see the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as "
           "published.")  # fmt: skip
    return {"why": why, "seed": SEED, "conditions": len(CONDS), "kept": len(KEPT), "universe": len(UNIVERSE),
            "bites": len(BITES), "source": SOURCE, "order": list(cases), "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(
        f"{len(CONDS)} conditions, {len(DROPPED)} dropped, {len(KEPT)} kept, {len(UNIVERSE)} not drawn by fresh-151, "
        f"{len(BITES)} in BITES"
    )
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        print(i, name, FAMILY_OF[name], cls, f"u={u:.3f}")
    sys.exit(0)


if __name__ == "__main__":
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["env"], c.get("ulimit", ""))
