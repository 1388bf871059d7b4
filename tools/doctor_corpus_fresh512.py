"""fresh-512: an unseen made-here batch: HOW AN OPERATOR CONFIGURES vLLM OUTSIDE ITS FLAGS, ROUND 3.

fresh-495's procedure (itself fresh-480's) repeated with SEED 2512, N = 10, ports 27090-27099, work dir /tmp/fresh512.
Everything that does not change is IMPORTED from tools/doctor_corpus_fresh495.py (never copied, never edited), and
through it fresh-480's: CONDITIONS, ALREADY_MADE, draws(), run_case() (fresh-480's make() with fresh-495's
_argv_without_empty_model and _spec_env), systemd_env() and bash_env().

What changes, and how it is parametrised without copying: fresh-495's run_case() reads its module's globals WORK,
TINY, PORT, COMPLETION, SPECS and REPO and writes REPO/tests/fixtures/doctor-corpus/fresh495-vllm-NN-SLUG.log.
run_case() below points those globals at this batch (/tmp/fresh512, port 27090, this batch's SPECS) and REPO at a
scratch folder (/tmp/fresh512/out495), so the predecessor's runner can never write over a fresh-495 log; the log it
wrote there is then moved to tests/fixtures/doctor-corpus/fresh512-vllm-NN-SLUG.log.

Two things written here because fresh-495's code has none:
- systemd_env(): fresh-495's asserts that no value is quoted (none of its drawn cases was); draw 1 here is a
  double-quoted value, so this wrapper reads a value whose first non-blank character is a quote as systemd.exec(5)
  says (the quotes removed, the text between kept verbatim; no backslash in the drawn value, asserted) and hands every
  other line to fresh-495's systemd_env(). run_case() sets fresh-495's module global to it.
- a spec key "typed" (draw 6: `export VLLM_LOGGING_LEVEL = DEBUG`, a line the operator typed in bash before the
  engine command; fresh-480's make() shows only files, one `$ export` and the command): the line is run once by the
  real bash (`bash --norc --noprofile -c LINE`) in the case folder with the engine's environment; what it prints is
  kept as printed, and whatever it exports (compared with the environment it got) joins the engine's environment. The
  log then gets `$ LINE` and bash's output inserted right after its `$ cd` line (the only change to the runner's
  bytes; bash -c's message names 'line 1', as a non-interactive shell does).

Already made (skipped): fresh-495's ALREADY_MADE (18 pairs: fresh-480's 8 plus its 10 draws) plus fresh-495's own 10
draws (recomputed through its draws(); its header: 'Made: 10 of 10'): 28 pairs. fresh-480's grep of the manifest's
batch HEADER lines (--config, config.yaml, VLLM_PORT, VLLM_HOST_IP, VLLM_ENGINE_READY_TIMEOUT_S, VLLM_RPC_TIMEOUT,
VLLM_CONFIGURE_LOGGING, VLLM_LOGGING_CONFIG_PATH) repeated on the header lines after fresh-495's block: no hit.
POOL = corpus_tools.pool_after(CONDITIONS, ALREADY_MADE): 23 pairs in 13 conditions (3 used up: the model key in the
file vs the positional, VLLM_PORT, engine start timeout), enough for 10 distinct conditions: no new class.

Draw: corpus_tools.draw_distinct_conditions(2512, POOL, 10). No SHOWN / paste rule: every log is whole.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh512.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f495 = corpus_tools.load("fresh495", "doctor_corpus_fresh495.py")

SEED, N = 2512, 10
ALREADY_MADE: set[tuple[str, str]] = set(f495.ALREADY_MADE) | set(f495.draws()[0])
assert len(ALREADY_MADE) == 28, len(ALREADY_MADE)
CONDITIONS, POOL = corpus_tools.pool_after(f495.CONDITIONS, ALREADY_MADE)

WORK = Path("/tmp/fresh512")
TINY = str(WORK / "tiny")
PORT = 27090
REPO = Path(__file__).resolve().parent.parent
COMPLETION = ("POST", "/v1/completions", {"model": TINY, "prompt": "Hello, my name is", "max_tokens": 8}, {})
KEYED = ("POST", "/v1/completions", COMPLETION[2], {"Authorization": "Bearer sk-local-123"})

# draw -> fresh-480's spec form (slug, kind "api" | "serve", flags, env, files, model, max_len, calls), plus
# fresh-495's env_from and this file's typed.
SPECS: dict[int, dict] = {
    1: dict(
        slug="systemd-envfile-api-key-double-quoted",
        files={"vllm.env": 'VLLM_API_KEY="sk-local-123"\n'},
        env_from=("systemd", "vllm.env"),
        calls=[KEYED],
    ),
    2: dict(slug="configure-logging-0", env={"VLLM_CONFIGURE_LOGGING": "0"}),
    3: dict(
        slug="transformers-offline-empty-hf-home",
        env={"TRANSFORMERS_OFFLINE": "1", "HF_HOME": str(WORK / "hf")},
    ),
    4: dict(
        slug="config-enforce-eager-quoted-false",
        kind="serve",
        files={"serve.yaml": "enforce-eager: 'false'\n"},
        flags=["--config", "serve.yaml"],
    ),
    5: dict(slug="cpu-omp-threads-bind-nobind", env={"VLLM_CPU_OMP_THREADS_BIND": "nobind"}),
    6: dict(slug="export-logging-level-spaces-round-equals", typed="export VLLM_LOGGING_LEVEL = DEBUG"),
    7: dict(slug="vllm-api-key-same-bearer", env={"VLLM_API_KEY": "sk-local-123"}, calls=[KEYED]),
    8: dict(slug="target-device-cpu", env={"VLLM_TARGET_DEVICE": "cpu"}),
    9: dict(
        slug="config-top-level-yaml-list",
        kind="serve",
        files={"serve.yaml": "- max-num-seqs: 4\n- enforce-eager: true\n"},
        flags=["--config", "serve.yaml"],
    ),
    10: dict(
        slug="config-equals-form-served-model-name",
        kind="serve",
        files={"serve.yaml": "served-model-name: tiny-chat\n"},
        flags=["--config=serve.yaml"],
        calls=[("POST", "/v1/completions", {**COMPLETION[2], "model": "tiny-chat"}, {})],
    ),
}
ORDER = [9, 4, 10, 6, 2, 1, 7, 3, 5, 8]

PREDICTIONS = """Written after the draw was committed (3dfd289c), before any case ran; from vLLM-cpu 0.32's source
(utils/argparse_utils.py parse_args / _pull_args_from_config / load_config_file / error, entrypoints/launchers/
cli_args.py's --config option, envs.py VLLM_CONFIGURE_LOGGING), systemd.exec(5) and the bash line run above:
 1 systemd EnvironmentFile `VLLM_API_KEY="sk-local-123"`: systemd removes the double quotes, the engine gets
   sk-local-123; the server starts, the completion with Bearer sk-local-123 gets 200. Expected none.
 2 VLLM_CONFIGURE_LOGGING=0: vLLM leaves logging alone, so its INFO lines are not printed (the logger has no handler;
   only WARNING and above through Python's last-resort handler, bare text, and uvicorn's own lines); healthy, the
   completion 200. Expected none.
 3 TRANSFORMERS_OFFLINE=1, HF_HOME an empty /tmp/fresh512/hf, the local folder: nothing is fetched for a local
   folder; healthy, the completion 200. Expected none.
 4 vllm serve TINY --config serve.yaml (`enforce-eager: 'false'`): the value is the string 'false', so the file gives
   `--enforce-eager false` after the positional; --enforce-eager takes no value (BooleanOptionalAction), so argparse
   ends with the usage and "vllm serve: error: unrecognized arguments: false", exit 2, within seconds. Candidate:
   vllm-config-value-wrong-type.
 5 VLLM_CPU_OMP_THREADS_BIND=nobind: no thread binding (maybe a line saying so); healthy, the completion 200.
   Expected none.
 6 `export VLLM_LOGGING_LEVEL = DEBUG` in bash: bash prints "bash: line 1: export: `=': not a valid identifier"
   (seen when the tool was checked) and exports nothing with a value; the engine runs at the default INFO level;
   healthy, the completion 200. Expected none (the operator's DEBUG never took effect; nothing failed).
 7 VLLM_API_KEY=sk-local-123, the request with Bearer sk-local-123: healthy, 200. Expected none.
 8 VLLM_TARGET_DEVICE=cpu: healthy, 200. Expected none.
 9 vllm serve TINY --config serve.yaml holding a top-level list (`- max-num-seqs: 4` / `- enforce-eager: true`):
   yaml.safe_load gives a list, config.items() raises AttributeError: 'list' object has no attribute 'items' in
   load_config_file, exit 1 within seconds. Candidate: vllm-config-file-empty (not a key: value mapping).
10 vllm serve TINY --config=serve.yaml (served-model-name: tiny-chat): `"--config" in args` is false for the equals
   form, so the file is never read; argparse takes --config=serve.yaml as cli_args' real --config option and
   ignores it; the server starts serving TINY under its path; the completion for model tiny-chat gets 404 ("The
   model `tiny-chat` does not exist."). No error line besides the 404 access line. Candidate: the id for a request
   naming a model the server does not serve (chosen from ids.py when the manifest is written).
Run order (decided before running; failing at start first, the request failure next, healthy last): 9 4 10 6 2 1 7
3 5 8.
"""


def systemd_env(text: str) -> dict[str, str]:
    """fresh-495's systemd_env(), plus systemd.exec(5)'s quoted values: a value whose first non-blank character is a
    quote loses the quotes and keeps what is between verbatim (no backslash escapes handled: asserted absent)."""
    env = {}
    for line in text.split("\n"):
        key, eq, value = line.strip(" \t\r").partition("=")
        value = value.strip(" \t\r")
        if eq and key and key[0] not in ";#" and value[:1] in ("'", '"'):
            assert value.endswith(value[0]) and len(value) > 1 and "\\" not in value, line
            env[key.strip()] = value[1:-1]
        else:
            env.update(_ORIG_SYSTEMD_ENV(line))
    return env


_ORIG_SYSTEMD_ENV = f495.systemd_env


def typed(run: Path, line: str) -> tuple[str, dict[str, str]]:
    """LINE run once by the real bash in RUN with the engine's environment: (what bash printed, the variables it
    exported or changed), so the engine gets exactly what the shell would hand it."""
    import os
    import subprocess

    base = corpus_tools.engine_env(WORK)
    bash = ["bash", "--norc", "--noprofile", "-c"]
    shown = subprocess.run([*bash, line], cwd=run, env=base, capture_output=True)
    after = subprocess.run([*bash, f"{line} 2>/dev/null; env -0"], cwd=run, env=base, capture_output=True)
    got = dict(kv.split("=", 1) for kv in after.stdout.decode().split("\0") if "=" in kv)
    skip = {"PWD", "SHLVL", "_", "OLDPWD"}
    changed = {k: v for k, v in got.items() if k not in skip and base.get(k) != v and os.environ.get(k) != v}
    return (shown.stdout + shown.stderr).decode(), changed


def run_case(n: int) -> Path:
    """fresh-495's run_case() once for draw N with its globals pointed at this batch (WORK, TINY, PORT, COMPLETION,
    SPECS, systemd_env) and REPO at WORK/out495, so its log lands there; then moved to
    tests/fixtures/doctor-corpus/fresh512-vllm-NN-SLUG.log, with a typed line and bash's output inserted after `$ cd`."""
    spec = dict(SPECS[n])
    run = WORK / "run" / f"{n:02d}"
    run.mkdir(parents=True, exist_ok=True)
    insert = ""
    if "typed" in spec:
        printed, changed = typed(run, spec["typed"])
        spec["env"] = {**spec.get("env", {}), **changed}
        insert = f"$ {spec['typed']}\n{printed}"
    out495 = WORK / "out495"
    (out495 / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    f495.WORK, f495.TINY, f495.PORT, f495.COMPLETION = WORK, TINY, PORT, COMPLETION
    f495.REPO, f495.SPECS, f495.systemd_env = out495, {n: spec}, systemd_env
    made = f495.run_case(n)
    data = made.read_bytes()
    if insert:
        first, rest = data.split(b"\n", 1)
        data = first + b"\n" + insert.encode() + rest
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh512-vllm-{n:02d}-{spec['slug']}.log"
    dest.write_bytes(data)
    made.unlink()
    return dest


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    kept, redrawn = draws()
    for i, (c, v) in enumerate(kept, 1):
        print(f"draw {i}: {c} | {v}")
    for c, v, why in redrawn:
        print(f"drawn anew: {c} | {v} ({why})")
    print(
        f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions; already made: {len(ALREADY_MADE)}"
    )


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    import time

    corpus_tools.tiny_model(WORK)
    for arg in sys.argv[1:] or [str(k) for k in ORDER]:
        t = time.monotonic()
        dest = run_case(int(arg))
        print(
            f"{dest.name}: {len(dest.read_text().splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )
