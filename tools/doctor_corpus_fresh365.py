"""fresh-365: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 4.

fresh-353's procedure (tools/doctor_corpus_fresh353.py, round 3) unchanged except: seed random.Random(2365), N = 10,
and fresh-353's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-342's, fresh-331's and the earlier rounds'). Ports 25490-25499 (base engine on 25490, servebox up's router on
25491), work dirs under /tmp/fresh365 (and /var/tmp/fresh365 for a container case). It imports what fresh-353 imports,
unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). The draw (`--draws`) was run TWICE with
PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh365_draw.txt); it was committed before
any case ran. What follows is fresh-353's text, kept for the procedure; where it says 2353 / 25300 / /tmp/fresh353
read 2365 / 25490 / /tmp/fresh365.

fresh-353: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 3.

fresh-342's procedure (tools/doctor_corpus_fresh342.py, round 2) unchanged except: seed random.Random(2353), N = 10,
and fresh-342's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-331's and the earlier rounds'). Ports 25300-25324 (base engine on 25300), work dirs under /tmp/fresh353. It
imports what fresh-342 imports, unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). What follows is
fresh-342's text, kept for the procedure; where it says 2342 / 25075 / /tmp/fresh342 read 2353 / 25300 / /tmp/fresh353.

fresh-342: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 2.

fresh-331's procedure (tools/doctor_corpus_fresh331.py, round 1) unchanged except: seed random.Random(2342), N = 10,
and fresh-331's kept pairs join the already-made set of rule (d) (their unordered value-class pairs). Ports
25075-25099 (base engine on 25075), work dirs under /tmp/fresh342. What follows is fresh-331's text, kept for the
procedure; where it says 2331 / 8 / 24800 / /tmp/fresh331 read 2342 / 10 / 25075 / /tmp/fresh342.

fresh-331: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server and a deployment around it.

fresh-318's procedure with the engine side taken from llama-server b11434: each case carries TWO drawn conditions that
act on ONE run: one from llama-server b11434's condition space exactly as tools/doctor_corpus_fresh306.py defined it
(its CONDITIONS, imported: 15 conditions, stages written there from common/arg.cpp, tools/server/server.cpp,
src/llama-context.cpp), and one from AROUND the engine, from the condition spaces of the ten tools that
tools/doctor_corpus_fresh304.py re-draws over (its TOOLS: fresh-228/236/277/287/295 systemd units checked by systemd
252's systemd-analyze, fresh-289 `servebox up`, fresh-290 the client's side, fresh-293 the engine confined as a
container confines it, fresh-296 provision/lock/fetch-model, fresh-298 render/check/plan). `expected` is the family of
the cause that ENDED the run or that the user meets FIRST, read from the programs' own order of checks (EXPECT, written
after the draw was committed and before any case ran); the case's `cause` says what the other condition did.

Sources read (before anything ran): tools/doctor_corpus_fresh318.py (docstring, procedure, one-run rule, EXPECT, draw
file), tools/doctor_corpus_fresh306.py (docstring with llama-server's order of checks, CONDITIONS, case_spec,
run_case), tools/doctor_corpus_fresh304.py's TOOLS and the CONDITIONS of its ten tools; the draws() of fresh-301, 303,
306, 312, 318, 320, 324, 326 (the earlier "two things wrong at once" rounds) for the repeat rule;
tools/corpus_tools.py.

ONE RUN rule (fresh-318's, turned round for llama-server; fixed here before the draw, mechanical). Drawn anew, with
the reason listed, when
  (a) the around value is for another engine than llama-server: it starts with 'vllm' (a vLLM server: 'vllm: ...',
      'vLLM --served-model-name ...', 'vLLM venv = ...', 'vllm as uid ...'), except the clients 'vllm chat' / 'vllm
      complete' which may point at llama-server, or it sets engine = 'vllm';
  (b) it is fresh-296's (provision / lock / fetch-model) or a fresh-298 check / plan condition: those verbs never start
      the engine;
  (c) the engine condition is a [stage 6: request] one and the around one is the client's side (fresh-290) or a
      request of fresh-289's ('a request beyond ...'): two request-side conditions would be one request;
  (d) the unordered pair of value classes repeats a pair kept by fresh-301/303/306/312/318/320/324/326, or the
      unordered pair of conditions was kept before here.
The systemd tools' conditions go on the llama-server unit (the base llama-server.service of fresh-228) and the engine
is run as that unit would run it (its ExecStart= and Environment= by hand: no systemd runs here); servebox-up / render
cases put the engine condition into the spec's flags/env; client cases point the drawn client at the engine.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2331); for case k = 1..8:
engine condition = r.choice(fresh-306's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
Base engine: `llama-server -m TINY.gguf --host 127.0.0.1 --port 24800 -c 512` on corpus_tools.tiny_gguf(/tmp/fresh331)
(cwd /tmp/fresh331/run/dK, no LLAMA_ARG_* inherited); ports 24800-24849. Log = what the user pastes, in the order they
met it: `$ cat` of the unit/spec/client file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`, the
engine's whole stdout+stderr, `# request: ...` / the client's output, `# exit status: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh331.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2365, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326/331/342/353 (any engine), from their
    draws()."""
    out = set()
    for n in (301, 312, 326):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306, 320, 324):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(318).draws()[0]:
        out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(331).draws()[0]:  # fresh-342: round 1's kept pairs join the made set
        out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(342).draws()[0]:  # fresh-353: round 2's kept pairs join the made set
        out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(353).draws()[0]:  # fresh-365: round 3's kept pairs join the made set
        out.add(frozenset((v1, v2)))
    return out


def not_one_run(econd: str, n: int, acond: str, aval: str) -> str | None:
    low = aval.lower()
    if (
        low.startswith("vllm") and not low.startswith(("vllm chat", "vllm complete"))
    ) or "engine = 'vllm'" in low:
        return "(a) the around value is for another engine than llama-server"
    if n == 296:
        return "(b) provision/lock/fetch-model never start the engine"
    if n == 298 and (acond.startswith(("check", "plan")) or low.startswith(("check", "plan"))):
        return "(b) check/plan never start the engine"
    if "[stage 6: request]" in econd and (n == 290 or (n == 289 and acond.startswith("a request"))):
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326/331/342/353"
        if why is None and any(econd == a[0] and (n, acond) == b[:2] for a, b in kept):
            why = "(d) pair of conditions kept before here"
        if why:
            redrawn.append((pair, why))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (ec, ev), (n, ac, av) = d
    return f"llama-server: {ec} = {ev} || fresh-{n}: {ac} = {av}"


# ---- EXPECT: written after the draw was committed and before any case ran (prediction from fresh-306's order of
# llama-server's checks, as in fresh-353: LLAMA_ARG_* variables -> the command line -> chat template check -> HTTP
# init/bind -> model load -> context -> control vector / draft -> requests; systemd-analyze verify before the unit
# starts; servebox render refuses before any engine starts). `expected` is the cause the user must fix FIRST: the one
# that stops the service earliest, or the one the other depends on; where neither outranks the other the case's
# `cause` says so. A case whose run contradicts the prediction says so in its manifest entry.
EXPECT = {
    1: (
        "llamacpp-control-vector-unusable",
        "UMask=0o022 is not octal to systemd (ignored: the default 0022 is the same mask, so it changes nothing); the "
        "missing --control-vector is logged and the server serves WITHOUT the steering the user asked for (fresh-353 "
        "saw it non-fatal): neither stops the service; the control vector is the one with an effect (uncertain)",
    ),
    2: (
        "servebox-spec-invalid",
        "render refuses [host] gpus = ['L4'] (not a catalog name) before anything starts; -np 300 (above 256) would "
        "stop the engine at context creation, latent",
    ),
    3: (
        "systemd-unit-refused",
        "systemd refuses the unit (OnFailureJobMode=isolate with two OnFailure= units): the service never starts; "
        "by hand the server serves and the /completion with token 999999 is refused (a request error, met later) "
        "(uncertain: the family may be systemd-bad-value or systemd-service-refused)",
    ),
    4: (
        "llamacpp-too-many-sequences",
        "-np 300 stops llama-server at context creation; PrivateIPC=yes is harmless to llama-server (no SysV IPC)",
    ),
    5: (
        "llamacpp-invalid-argument",
        "--n-threads is no option: the parser exits before the model loads; AmbientCapabilities=CAP_IPC_LOK is "
        "ignored by systemd (the server would run without CAP_IPC_LOCK)",
    ),
    6: (
        "servebox-spec-invalid",
        "render refuses [[models]] chekpoint (the required checkpoint missing) before anything starts; --host "
        "10.255.255.1 would stop the engine at bind, latent",
    ),
    7: (
        "llamacpp-too-many-sequences",
        "-np 300 stops llama-server at context creation; IPAddressAllow=127.0.0.1:PORT is not a prefix (ignored: with "
        "IPAddressDeny=any the unit would then be cut off from localhost too), met only after the engine is fixed",
    ),
    8: (
        "llamacpp-endpoint-needs-flag",
        "AmbientCapabilities=IPC_LOCK (no CAP_) is ignored by systemd; the server serves and POST /v1/rerank is "
        "refused (501) for want of --reranking: the one the user meets (uncertain if the unit uses --mlock)",
    ),
    9: (
        "llamacpp-model-file-missing",
        "--model-draft ./draft.gguf does not exist: the server exits at the draft load; TasksMax=64 is not reached "
        "(the run by hand does not apply it; llama-server's threads on 2 cores stay well below 64)",
    ),
    10: (
        "llamacpp-bind-failed",
        "--host 10.255.255.1 is not an address of this machine: the server exits before the model loads; "
        "RuntimeRandomizedExtraSec= with RuntimeMaxSec=infinity in override.conf does nothing (not fatal)",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed; fresh-353's, adapted: systemd by hand, render)
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh365")
PORT = 25490
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SHOWN_BIN, SHOWN_MODEL, SHOWN_WD = (
    "/opt/llama.cpp/build/bin/llama-server",
    "/opt/models/tiny.gguf",
    "/opt/llama.cpp",
)

SLUGS = {
    1: "systemd-umask-0o022-and-missing-control-vector",
    2: "servebox-render-gpu-name-not-in-catalog-and-parallel-300",
    3: "systemd-onfailure-two-units-isolate-and-prompt-token-out-of-vocab",
    4: "systemd-privateipc-and-parallel-300",
    5: "systemd-ambient-cap-ipc-lok-and-n-threads-unknown-flag",
    6: "servebox-render-chekpoint-misspelt-and-host-not-on-machine",
    7: "systemd-ipaddressallow-with-port-and-parallel-300",
    8: "systemd-ambient-ipc-lock-no-prefix-and-rerank-without-reranking",
    9: "systemd-tasksmax-64-and-missing-draft-model",
    10: "systemd-runtime-randomized-extra-max-infinity-and-host-not-on-machine",
}
# the engine side of each case: (flags after the base command, LLAMA_ARG_* environment, the request)
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
ENGINE = {
    1: (["--control-vector", "./cv.gguf"], {}, PLAIN),
    2: (["-np", "300"], {}, PLAIN),
    3: ([], {}, ("POST", "/completion", {"prompt": [999999], "n_predict": 8}, {})),
    4: (["-np", "300"], {}, PLAIN),
    5: (["--n-threads", "2"], {}, PLAIN),
    6: (["--host", "10.255.255.1"], {}, PLAIN),
    7: (["-np", "300"], {}, PLAIN),
    8: (
        [],
        {},
        (
            "POST",
            "/v1/rerank",
            {"query": "what is a panda?", "documents": ["hi", "The giant panda is a bear."]},
            {},
        ),
    ),
    9: (["--model-draft", "./draft.gguf"], {}, PLAIN),
    10: (["--host", "10.255.255.1"], {}, PLAIN),
}
MODEL: dict[int, tuple[str, str]] = {}


def unit_for(k: int) -> str:
    """fresh-228's llama-server.service with its ExecStart= the case's command (as deployed under /opt) and the case's
    engine variables as Environment= lines."""
    from doctor_corpus_fresh228 import BASES

    flags, env, _ = ENGINE[k]
    base = dict(BASES)["llama-server.service"]
    args = [
        "-m",
        MODEL[k][1] if k in MODEL else SHOWN_MODEL,
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    cmd = f"ExecStart={SHOWN_BIN} " + " ".join(shlex.quote(a) for a in args)
    unit = re.sub(r"^ExecStart=.*?\n(?=Restart=)", cmd + "\n", base, flags=re.M | re.S)
    for key, val in env.items():
        unit = unit.replace(
            "Environment=LLAMA_ARG_THREADS=8\n", f"Environment=LLAMA_ARG_THREADS=8\nEnvironment={key}={val}\n"
        )
    return unit


def systemd_part(k: int, n: int, condition: str, value: str, unit: str) -> tuple[str, str, dict]:
    """(log text of cat + systemd-analyze, the final unit, files shown) through the earlier tool's own mutate/root."""
    name = "llama-server.service"
    root = WORK / "roots" / f"d{k}"
    shutil.rmtree(root, ignore_errors=True)
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
    unit2, drop, shown = t.mutate(name, unit, condition, value)  # 287: verify + security
    t.build_root(root, name, unit2, drop, shown)
    return t.log_for(root, name, unit2, drop, shown), unit2, shown


def unit_env(unit: str) -> dict[str, str]:
    """The unit's Environment= lines as systemd passes them: no $ expansion."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^Environment=(\w+)=(.*)$", unit, re.M)}


def run_engine(k: int, env_shown: dict, by_hand: bool, client=None) -> str:
    from corpus_tools import _ask_with, _healthy_before_exit, stop_group, tiny_gguf

    flags, _, call = ENGINE[k]
    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    model, shown_model = str(tiny_gguf(WORK)), SHOWN_MODEL
    if k in MODEL:
        model, shown_model = str(case / MODEL[k][0]), MODEL[k][1]
    argv = [
        LLAMA,
        "-m",
        model,
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    env = {n: v for n, v in os.environ.items() if not n.startswith("LLAMA_")}
    env.update(env_shown)
    text = "".join(f"$ export {n}={shlex.quote(v)}\n" for n, v in env_shown.items())
    if by_hand:  # the unit's ExecStart= run by hand in its WorkingDirectory=
        text += f"$ cd {SHOWN_WD}\n$ " + shlex.join([SHOWN_BIN, "-m", shown_model, *argv[3:]]) + "\n"
    else:
        text += "$ " + shlex.join(["llama-server", *argv[1:]]) + (" &" if client else "") + "\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                answer = client(case) if client else _ask_with(PORT, *call, 2)
        finally:
            stop_group(proc, grace=20)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    if by_hand:  # the model as deployed (the unit's path), not this machine's copy
        out = out.replace(model, shown_model).replace(str(tiny_gguf(WORK)), SHOWN_MODEL)
        answer = answer.replace(model, shown_model).replace(str(tiny_gguf(WORK)), SHOWN_MODEL)
    text += out if out.endswith("\n") or not out else out + "\n"
    if client is not None:
        return text + answer + f"# exit status (llama-server, stopped after the client): {proc.returncode}\n"
    return text + answer + f"# exit status: {proc.returncode}\n"


def render_case(k: int) -> str:
    """fresh-342's render maker: servebox render of a llama.cpp spec (fresh-298's base, llama.cpp values) with the
    engine condition in the model's flags and the around condition in the spec; shown as the user pastes it."""
    from corpus_tools import tiny_gguf

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    host_gpus = '["L4"]' if k == 2 else '["l4-24gb"]'
    ckpt_key = "chekpoint" if k == 6 else "checkpoint"
    flag = "parallel = 300\n" if k == 2 else 'host = "10.255.255.1"\n'
    spec = (
        f'[host]\nname = "gpu1"\ngpus = {host_gpus}\n\n[router]\nlisten = "127.0.0.1:{PORT + 1}"\n\n'
        f'[[models]]\nname = "tiny"\nengine = "llama.cpp"\n{ckpt_key} = "{tiny_gguf(WORK)}"\nport = {PORT}\n'
        f'binary = "{Path(LLAMA).resolve()}"\n[models.flags]\nctx-size = 512\n{flag}'
    )
    (case / "spec.toml").write_text(spec)
    p = subprocess.run(
        [str(REPO / ".venv" / "bin" / "servebox"), "render", "spec.toml", "--out", "out"],
        cwd=case,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"},
        check=False,
    )
    text = f"$ cat spec.toml\n{spec}$ servebox render spec.toml --out out\n{p.stdout.rstrip()}\n# exit: {p.returncode}\n"
    return text.replace(str(tiny_gguf(WORK)), SHOWN_MODEL).replace(str(Path(LLAMA).resolve()), SHOWN_BIN)


def run_case(k: int) -> str:
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n in (228, 236, 277, 287, 295):
        text, unit2, _ = systemd_part(k, n, acond, avalue, unit_for(k))
        return text + run_engine(k, unit_env(unit2), True)
    if n == 298:
        return render_case(k)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh365-llama-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {show(d)} -- {why}")
        return
    make([int(a) for a in sys.argv[1:]])


if __name__ == "__main__":
    main()
