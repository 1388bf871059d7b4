"""fresh-396: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 6.

fresh-376's procedure (tools/doctor_corpus_fresh376.py, round 5) unchanged except: seed random.Random(2396), N = 10,
and fresh-376's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-365's, fresh-353's, fresh-342's, fresh-331's and the earlier rounds'). Ports 25700-25709 (base engine on 25700,
servebox up's router on 25701), work dirs under /tmp/fresh396 (and /var/tmp/fresh396 for a container case). It imports
what fresh-376 imports, unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). The draw (`--draws`)
was run TWICE with PYTHONHASHSEED=0 and the two outputs were compared (tools/doctor_corpus_fresh396_draw.txt); it was
committed before any case ran. What follows is fresh-376's text, kept for the procedure; where it says 2376 / 25590 /
/tmp/fresh376 read 2396 / 25700 / /tmp/fresh396.

fresh-376: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 5.

fresh-365's procedure (tools/doctor_corpus_fresh365.py, round 4) unchanged except: seed random.Random(2376), N = 10,
and fresh-365's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-353's, fresh-342's, fresh-331's and the earlier rounds'). Ports 25590-25599 (base engine on 25590, servebox up's
router on 25591), work dirs under /tmp/fresh376 (and /var/tmp/fresh376 for a container case). It imports what
fresh-365 imports, unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). The draw (`--draws`) was run
TWICE with PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh376_draw.txt); it was
committed before any case ran. What follows is fresh-365's text, kept for the procedure; where it says 2365 / 25490 /
/tmp/fresh365 read 2376 / 25590 / /tmp/fresh376.

fresh-365: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
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

SEED, N = 2396, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326/331/342/353/365/376 (any
    engine), from their
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
    for (_, v1), (_, _, v2) in _t(365).draws()[0]:  # fresh-376: round 4's kept pairs join the made set
        out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(376).draws()[0]:  # fresh-396: round 5's kept pairs join the made set
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326/331/342/353/365/376"
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
# llama-server's checks, as in fresh-376: LLAMA_ARG_* variables -> the command line -> chat template check -> HTTP
# init/bind -> model load -> context -> control vector / draft -> requests; systemd-analyze verify before the unit
# starts; servebox render refuses before any engine starts; servebox up starts the engine, whose own log says why it
# failed). `expected` is the cause the user must fix FIRST: the one that stops the service earliest, or the one the
# other depends on; where neither outranks the other the case's `cause` says so. A case whose run contradicts the
# prediction says so in its manifest entry.
EXPECT = {
    1: (
        "systemd-bad-value",
        "verify: EnvironmentFile=$CREDENTIALS_DIRECTORY/hf.env is not an absolute path (systemd expands no $VAR there) "
        "and the line is ignored: the unit runs without the token file; --override-kv llama.context_length=str:4096 "
        "only warns and the server serves (uncertain: none, if verify says nothing)",
    ),
    2: (
        "none",
        "LLAMA_ARG_PORT=8080 is overwritten by --port (a warn line) and the server serves on --port; "
        "MemoryDenyWriteExecute=yes with SystemCallArchitectures=native is harmless to a CPU llama-server (no JIT) "
        "(uncertain: llamacpp-env-overridden-by-flag)",
    ),
    3: (
        "llamacpp-invalid-argument",
        "LLAMA_ARG_BATCH=99999999999 is out of int range: the environment handler throws and llama-server exits "
        "before anything else; IPAddressAllow= with commas is a verify warning (ignored line, so IPAddressDeny=any "
        "would cut even 127.0.0.1), latent behind the exit",
    ),
    4: (
        "llamacpp-invalid-argument",
        "LLAMA_ARG_N_PREDICT=unlimited: std::stoi throws and llama-server exits at once; ProtectProc=invisible with "
        "ProcSubset=pid is latent (verify/security may mention it)",
    ),
    5: (
        "llamacpp-endpoint-needs-flag",
        "verify: %F in ExecStartPre= is no specifier (the line is ignored or refused; uncertain: systemd-bad-value); "
        "the server serves and POST /slots/0?action=save is refused (501) because --slot-save-path was not given",
    ),
    6: (
        "servebox-spec-invalid",
        "render refuses nodes = ['gpu2'] that names no [[hosts]] entry before anything starts; the checkpoint that is "
        "a tokenizer.json is latent (render may name it too)",
    ),
    7: (
        "llamacpp-bad-gguf",
        "servebox up starts llama-server on tokenizer.json as -m: invalid GGUF magic, the engine exits (restarts "
        "until up's start limit); it never serves, so the GGUF-deleted-then-SIGKILL step is never reached "
        "(uncertain: up refuses the checkpoint first: servebox-spec-invalid)",
    ),
    8: (
        "llamacpp-no-ssl-support",
        "llama-server exits before the model loads (a build without SSL); LimitNPROC=64 is latent behind it",
    ),
    9: (
        "mount-unit-name-not-escaped",
        "verify refuses mnt-llm-models.mount (Where=/mnt/llm-models escapes to mnt-llm\\x2dmodels.mount): the "
        "service Requires= it and would not start; run by hand the server serves and the slot save is refused (501, "
        "no --slot-save-path), a second thing the user meets later",
    ),
    10: (
        "api-key-missing",
        "-sm row on the CPU-only build has no effect (warns or nothing); the server runs with --api-key and curl "
        "sends the literal 'Bearer $LLAMA_API_KEY' (single quotes): 401 invalid API key",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed; fresh-376's systemd maker, servebox up maker and
# render maker, adapted to this draw; a curl client after fresh-290's)
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh396")
PORT = 25700
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SHOWN_BIN, SHOWN_MODEL, SHOWN_WD = (
    "/opt/llama.cpp/build/bin/llama-server",
    "/opt/models/tiny.gguf",
    "/opt/llama.cpp",
)

SLUGS = {
    1: "systemd-environmentfile-credentials-dir-and-override-kv-str-for-int",
    2: "systemd-memorydenywriteexecute-and-llama-arg-port-beside-port",
    3: "systemd-ipaddressallow-commas-and-llama-arg-batch-out-of-range",
    4: "systemd-protectproc-invisible-and-llama-arg-n-predict-unlimited",
    5: "systemd-execstartpre-percent-f-and-slot-save-without-slot-save-path",
    6: "servebox-render-nodes-unknown-host-and-tokenizer-json-as-model",
    7: "servebox-up-gguf-deleted-sigkill-and-tokenizer-json-as-model",
    8: "systemd-limitnproc-64-and-ssl-on-build-without-ssl",
    9: "systemd-mount-unit-not-escaped-and-slot-save-without-slot-save-path",
    10: "curl-bearer-single-quoted-and-split-mode-row-on-cpu",
}
# the engine side of each case: (flags after the base command, LLAMA_ARG_* environment, the request)
KEY = "sk-local-4d1c9e"
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
SLOTSAVE = ("POST", "/slots/0?action=save", {"filename": "slot0.bin"}, {})
ENGINE = {
    1: (["--override-kv", "llama.context_length=str:4096"], {}, PLAIN),
    2: ([], {"LLAMA_ARG_PORT": "8080"}, PLAIN),
    3: ([], {"LLAMA_ARG_BATCH": "99999999999"}, PLAIN),
    4: ([], {"LLAMA_ARG_N_PREDICT": "unlimited"}, PLAIN),
    5: ([], {}, SLOTSAVE),
    8: (["--ssl-key-file", "./key.pem", "--ssl-cert-file", "./cert.pem"], {}, PLAIN),
    9: ([], {}, SLOTSAVE),
    10: (["-sm", "row", "--api-key", KEY], {}, PLAIN),
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
    if client is not None and not answer:  # the user runs the client whether the server came up or not
        answer = client(case)
    if by_hand:  # the model as deployed (the unit's path), not this machine's copy
        out = out.replace(model, shown_model).replace(str(tiny_gguf(WORK)), SHOWN_MODEL)
        answer = answer.replace(model, shown_model).replace(str(tiny_gguf(WORK)), SHOWN_MODEL)
    text += out if out.endswith("\n") or not out else out + "\n"
    if client is not None:
        return text + answer + f"# exit status (llama-server, stopped after the client): {proc.returncode}\n"
    return text + answer + f"# exit status: {proc.returncode}\n"


def up_case(k: int) -> str:
    """7: fresh-376's servebox up maker (fresh-289's spec layout, spec_text; the router on PORT + 1, the engine on
    PORT) with the checkpoint the tiny model's tokenizer.json (fresh-306's value) and fresh-289's step: once the
    engine serves, one request, the checkpoint file deleted and llama-server SIGKILLed, up's restart watched (90 s),
    one request again. If the engine never serves (up's /health or every model failed, 120 s), the step has nothing
    to act on: one request through the router, then servebox down."""
    import httpx
    from corpus_tools import engine_env, tiny_model

    t289 = _t(289)
    router_port = PORT + 1
    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    ckpt = d / "tiny-llama" / "tokenizer.json"
    ckpt.parent.mkdir()
    shutil.copy(tiny_model(WORK) / "tokenizer.json", ckpt)
    m = {
        "name": "tiny",
        "engine": "llama.cpp",
        "binary": LLAMA,
        "checkpoint": str(ckpt),
        "port": PORT,
        "flags": {"ctx-size": 2048},
    }
    router: dict = {"listen": f"127.0.0.1:{router_port}"}
    call = (
        "POST",
        "/v1/chat/completions",
        {"model": "tiny", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
    )
    (d / "spec.toml").write_text(t289.spec_text(router, [m]))
    env = engine_env(WORK)
    servebox = str(REPO / ".venv" / "bin" / "servebox")
    clients = ""

    def ask() -> str:
        method, path, body = call
        what = f"# request: {method} {path} (router {router_port})"
        try:
            r = httpx.request(method, f"http://127.0.0.1:{router_port}{path}", json=body, timeout=120)
            return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
        except httpx.HTTPError as exc:
            return f"{what}\n{type(exc).__name__}: {exc}\n"

    def served() -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=3).status_code == 200
        except httpx.HTTPError:
            return False

    with (d / "up.out").open("wb") as log:
        proc = subprocess.Popen(
            [servebox, "up", "spec.toml"],
            cwd=d,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 120
            ok = False
            while proc.poll() is None and time.monotonic() < deadline:
                if served():
                    ok = True
                    break
                try:
                    r = httpx.get(f"http://127.0.0.1:{router_port}/v1/models", timeout=3)
                    states = [x.get("status") or x.get("state") for x in r.json().get("data", [])]
                    if states and all(x == "failed" for x in states):
                        break
                except (httpx.HTTPError, ValueError, AttributeError):
                    pass
                time.sleep(2)
            if proc.poll() is None:
                clients += ask()
                if ok:  # fresh-289's step: the GGUF deleted, then llama-server SIGKILLed
                    ckpt.unlink()
                    t289.signal_all(t289.engine_pids(PORT), signal.SIGKILL)
                    clients += "# the checkpoint file deleted, then llama-server SIGKILLed (kill -9)\n"
                    time.sleep(60)
                    clients += ask()
                time.sleep(8)
                subprocess.run(
                    [servebox, "down"], cwd=d, env=env, capture_output=True, timeout=120, check=False
                )
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            for port in (PORT, router_port):
                t289.signal_all(t289.engine_pids(port), signal.SIGKILL)
    text = f"$ cat spec.toml\n{(d / 'spec.toml').read_text()}$ servebox up spec.toml\n"
    text += (d / "up.out").read_text(errors="replace")
    if proc.returncode:
        text = text.rstrip("\n") + f"\n# exit: {proc.returncode}\n"
    text = text.rstrip("\n") + "\n" + clients
    eng_log = d / ".servebox" / "logs" / "tiny.log"  # the engine's own output, which the user pastes too
    if eng_log.exists():
        text += "$ cat .servebox/logs/tiny.log\n" + eng_log.read_text(errors="replace")
    return (
        text.replace(str(ckpt.parent), "/srv/models/tiny-llama")
        .replace(LLAMA, SHOWN_BIN)
        .replace(str(d), "/srv/llm")
    )


def curl_client(case: Path) -> str:
    """10: fresh-290's curl against --api-key: the key exported in the user's shell, the header single-quoted so the
    shell passes '$LLAMA_API_KEY' as written."""
    cmd = (
        f"curl -sS -i http://127.0.0.1:{PORT}/v1/chat/completions -H 'Content-Type: application/json' "
        "-H 'Authorization: Bearer $LLAMA_API_KEY' "
        '-d \'{"model": "tiny", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}\''
    )
    p = subprocess.run(
        ["bash", "-c", cmd],
        cwd=case,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=120,
        env={**os.environ, "LLAMA_API_KEY": KEY},
        check=False,
    )
    out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    return f"$ export LLAMA_API_KEY={KEY}\n$ {cmd}\n{out}{'' if out.endswith(chr(10)) else chr(10)}# exit: {p.returncode}\n"


def render_case(k: int) -> str:
    """6: fresh-376's render maker: servebox render of a llama.cpp spec (fresh-298's [[hosts]] layout, llama.cpp
    values) with the engine condition (the checkpoint the tiny model's tokenizer.json) and the around condition
    (nodes = ['gpu2'], no such [[hosts]] entry)."""
    from corpus_tools import tiny_model

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    tok = tiny_model(WORK) / "tokenizer.json"
    spec = (
        '[[hosts]]\nname = "gpu1"\ngpus = ["l4-24gb"]\naddress = "10.0.0.11"\n\n'
        f'[router]\nlisten = "127.0.0.1:{PORT + 1}"\n\n'
        f'[[models]]\nname = "tiny"\nengine = "llama.cpp"\ncheckpoint = "{tok}"\nport = {PORT}\n'
        f'binary = "{Path(LLAMA).resolve()}"\nnodes = ["gpu2"]\n[models.flags]\nctx-size = 512\n'
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
    return text.replace(str(tok), "/srv/models/tiny-llama/tokenizer.json").replace(
        str(Path(LLAMA).resolve()), SHOWN_BIN
    )


def run_case(k: int) -> str:
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n in (228, 236, 277, 287, 295):
        text, unit2, _ = systemd_part(k, n, acond, avalue, unit_for(k))
        return text + run_engine(k, unit_env(unit2), True)
    if n == 289:
        return up_case(k)
    if (
        n == 290
    ):  # the server started in the background, then the client; shown as the user's home and model path
        from corpus_tools import tiny_gguf

        text = run_engine(k, {}, False, client=curl_client)
        text = text.replace(str(WORK / "run" / f"d{k}"), "/home/alice").replace(
            str(tiny_gguf(WORK)), "/srv/models/tiny-f32.gguf"
        )
        return text.replace(
            "# exit status (llama-server, stopped after the client)", "# exit status (llama-server)"
        )
    if n == 298:
        return render_case(k)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh396-llama-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] in ([], ["--draws"]):
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {show(d)} -- {why}")
        return
    make([int(a) for a in sys.argv[1:]])


if __name__ == "__main__":
    main()
