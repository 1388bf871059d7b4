"""fresh-342: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
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

SEED, N = 2342, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326/331 (any engine), from their draws()."""
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326/331"
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
# llama-server's checks: LLAMA_ARG_* variables -> the command line -> chat template check -> HTTP init/bind -> model
# load -> context -> control vector / draft -> requests; systemd-analyze verify before the unit starts, servebox render
# before anything runs). As in fresh-331: a fatal engine condition is what the user fixes first over a systemd line
# that is only ignored; where the engine only warns, the around condition (if it does anything) is expected. A case
# whose run contradicts it says so in its manifest entry.
EXPECT = {
    1: (
        "systemd-setting-has-no-effect",
        "verify warns that RuntimeRandomizedExtraSec= has no RuntimeMaxSec= (the drop-in's RuntimeMaxSec=infinity "
        "undid the 24h cap, so the random extra is ignored); by hand the engine warns about the str override of an "
        "int key (the file's context_length kept) and serves",
    ),
    2: (
        "llamacpp-no-ssl-support",
        "verify refuses MemoryHigh=150% (ignored: the unit would run without the soft cap); by hand llama-server "
        "exits before the model loads: the build has no SSL support",
    ),
    3: (
        "llamacpp-bad-gguf",
        "verify refuses ProtectHome=read_only (ignored, not hardened); by hand the loader refuses tokenizer.json "
        "(not a GGUF: bad magic) and the server exits",
    ),
    4: (
        "llamacpp-model-path-is-a-directory",
        "verify: the drop-in's LimitMEMLOCK=infinity is outside any section (ignored); by hand -m names a folder: "
        "the GGUF header cannot be read and the server exits",
    ),
    5: (
        "none",
        "PrivateTmp=True is a boolean systemd accepts (case-insensitive); LLAMA_ARG_PORT=8080 is overwritten by "
        "--port with a warn line; the server serves (prediction uncertain on PrivateTmp)",
    ),
    6: (
        "llamacpp-arg-file-unreadable",
        "verify refuses Slice=llm (not a slice name; the unit would go to system.slice); by hand the handler of "
        "--chat-template-file cannot open ./template.jinja and exits 1",
    ),
    7: (
        "servebox-spec-invalid",
        "render refuses the model's gpus = [0, 1] on a host with one GPU; the engine (whose --api-key-file "
        "./keys.txt does not exist) never starts",
    ),
    8: (
        "llamacpp-too-many-sequences",
        "HF_HOME=${HOME}/... kept literally (harmless for a local GGUF); by hand llama_context refuses n_seq_max "
        "300 > 256 and the server exits",
    ),
    9: (
        "servebox-spec-invalid",
        "render refuses [router] log_level = 'warning' (debug/info/warn/error); the engine (whose --host "
        "10.255.255.1 is not an address here) never starts",
    ),
    10: (
        "llamacpp-too-many-sequences",
        "verify: the drop-in's LimitMEMLOCK=infinity is outside any section (ignored); by hand llama_context "
        "refuses n_seq_max 300 > 256",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed; fresh-331's, adapted)
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh342")
PORT = 25075
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SHOWN_BIN, SHOWN_MODEL, SHOWN_WD = (
    "/opt/llama.cpp/build/bin/llama-server",
    "/opt/models/tiny.gguf",
    "/opt/llama.cpp",
)

SLUGS = {
    1: "systemd-runtime-randomized-extra-without-max-and-override-kv-str-on-int",
    2: "systemd-memoryhigh-150-percent-and-ssl-on-build-without-ssl",
    3: "systemd-protecthome-read-underscore-only-and-model-is-tokenizer-json",
    4: "systemd-dropin-without-service-header-and-model-is-a-directory",
    5: "systemd-privatetmp-capital-true-and-llama-arg-port-beside-port",
    6: "systemd-slice-without-suffix-and-missing-chat-template-file",
    7: "servebox-render-gpu-indexes-on-one-gpu-host-and-missing-api-key-file",
    8: "systemd-environment-home-unexpanded-and-parallel-300",
    9: "servebox-render-router-log-level-warning-and-host-not-on-machine",
    10: "systemd-dropin-without-service-header-and-parallel-300",
}
# the engine side of each case: (flags after the base command, LLAMA_ARG_* environment, the request); the model path
# of cases 3 and 4 is in MODEL (as run here, as shown in the unit)
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
ENGINE = {
    1: (["--override-kv", "llama.context_length=str:4096"], {}, PLAIN),
    2: (["--ssl-key-file", "./key.pem", "--ssl-cert-file", "./cert.pem"], {}, PLAIN),
    3: ([], {}, PLAIN),
    4: ([], {}, PLAIN),
    5: ([], {"LLAMA_ARG_PORT": "8080"}, PLAIN),
    6: (["--chat-template-file", "./template.jinja"], {}, PLAIN),
    8: (["-np", "300"], {}, PLAIN),
    10: (["-np", "300"], {}, PLAIN),
}
MODEL = {3: ("tokenizer.json", "/opt/models/tiny/tokenizer.json"), 4: ("models", "/opt/models/tiny")}


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
    if k == 2:  # the key pair is there (a self-signed pair a user made); the build is what lacks SSL
        (case / "key.pem").write_text("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n")
        (case / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")
    if k == 3:
        from corpus_tools import tiny_model

        shutil.copy(tiny_model(WORK) / "tokenizer.json", case / "tokenizer.json")
    if k == 4:
        (case / "models").mkdir()
        os.link(tiny_gguf(WORK), case / "models" / "tiny.gguf")
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
    """servebox render of a llama.cpp spec (fresh-298's base, llama.cpp values) with the engine condition in the
    model's flags and the around condition in the spec; shown as the user pastes it."""
    from corpus_tools import tiny_gguf

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    model_extra = "gpus = [0, 1]\n" if k == 7 else ""
    router_extra = 'log_level = "warning"\n' if k == 9 else ""
    flag = 'api-key-file = "./keys.txt"\n' if k == 7 else 'host = "10.255.255.1"\n'
    spec = (
        f'[host]\nname = "gpu1"\ngpus = ["l4-24gb"]\n\n[router]\nlisten = "127.0.0.1:{PORT + 1}"\n{router_extra}\n'
        f'[[models]]\nname = "tiny"\nengine = "llama.cpp"\ncheckpoint = "{tiny_gguf(WORK)}"\nport = {PORT}\n'
        f'binary = "{Path(LLAMA).resolve()}"\n{model_extra}[models.flags]\nctx-size = 512\n{flag}'
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
    if n in (228, 236, 277, 287):
        text, unit2, _ = systemd_part(k, n, acond, avalue, unit_for(k))
        return text + run_engine(k, unit_env(unit2), True)
    if n == 298:
        return render_case(k)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh342-llama-{SLUGS[k]}.log"
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
