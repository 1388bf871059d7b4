"""fresh-417: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
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

SEED, N = 2417, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326/331/342/353/365/376/396 (any
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326/331/342/353/365/376/396"
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
# llama-server's checks, as in fresh-396: LLAMA_ARG_* variables -> the command line -> chat template check -> HTTP
# init/bind -> model load -> context -> requests; systemd-analyze verify before the unit starts; servebox render
# refuses before any engine starts; servebox up starts the engine, whose own log says why it failed). `expected` is
# the cause the user must fix FIRST: the one that stops the service earliest, or the one the other depends on. A case
# whose run contradicts the prediction says so in its manifest entry.
EXPECT = {
    1: (
        "llamacpp-lora-load-failed",
        "servebox up starts llama-server with --lora /srv/lora/adapter.gguf (missing): the model loads (the str "
        "override of an int key only warns), the adapter fails, the engine exits and up restarts it to its start "
        "limit; the user pastes incidents.jsonl alone (uncertain: servebox-start-limit-reached if it holds no reason)",
    ),
    2: (
        "systemd-groups-comma-list",
        "verify: SupplementaryGroups=video;render is one invalid group name, the line is dropped; on a CPU build the "
        "engine serves anyway (NoNewPrivileges is harmless) and --defrag-thold only warns (uncertain: none)",
    ),
    3: (
        "chat-template-invalid",
        "servebox up passes --chat-template '{{ messages[0].content' (unclosed tag): llama-server refuses the template "
        "at start and exits, up restarts it to its start limit; LLAMA_ARG_CTX is silently ignored (uncertain: "
        "servebox-spec-invalid if up refuses the flag first)",
    ),
    4: (
        "llamacpp-no-ssl-support",
        "the --ssl-* flags on a build without SSL stop llama-server before the model loads; CapabilityBoundingSet= "
        "without CAP_IPC_LOCK beside AmbientCapabilities=CAP_IPC_LOCK is latent (no --mlock) or a verify note",
    ),
    5: (
        "llamacpp-too-many-sequences",
        "-np 300 is above LLAMA_MAX_SEQ (256): the context is refused and llama-server exits; the openai SDK client "
        "with base_url='localhost:22641/v1' (no scheme) then fails on its own (unsupported protocol), a second thing",
    ),
    6: (
        "llamacpp-invalid-argument",
        "--override-kv llama.context_length=i32:4096: the parser refuses the type and llama-server exits at once, "
        "under servebox up to its start limit; it never serves, so the truncate-then-SIGKILL step is never reached",
    ),
    7: (
        "client-base-url-v1-doubled",
        "LLAMA_ARG_PORT=8080 is overwritten by --port (a warn line) and the server serves; the openai SDK with "
        "OPENAI_BASE_URL=.../v1/v1 posts /v1/v1/chat/completions: 404",
    ),
    8: (
        "llamacpp-model-path-is-a-directory",
        "in the container --prio 2 cannot get SCHED_FIFO without CAP_SYS_NICE (a warning, llama-server goes on); "
        "-m a directory then fails the model load (uncertain: llamacpp-gguf-unreadable)",
    ),
    9: (
        "servebox-spec-invalid",
        "render cannot read the UTF-16 spec (not UTF-8 TOML) and refuses before anything; the flag n-threads "
        "(--n-threads, no such option) is latent",
    ),
    10: (
        "llamacpp-invalid-argument",
        "the first servebox up starts llama-server with --pooling avg, which the parser refuses: the engine exits, up "
        "restarts it; the second servebox up with the same state dir is refused at once (servebox-up-already-running, "
        "the second thing) (uncertain: servebox-up-already-running)",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed): fresh-396's systemd maker (its run_engine and
# systemd_part, reused with this batch's globals), fresh-289's own case_maker for the servebox up cases (its globals set
# to this batch's ports and folders, the engine condition put into the spec's flags/env), an openai SDK client after
# fresh-290's chat.py (its port 22641 read as 25900), a container with Docker's default capability set after
# fresh-293 (root, bounding set cut with setpriv), and a render of a UTF-16 spec after fresh-298.
import os  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh417")
PORT = 25900
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")
CLIENT_PY = str(REPO / ".venv-vllm" / "bin" / "python")  # has openai 3.63.0, fresh-290's client version

SLUGS = {
    1: "servebox-up-lora-missing-incidents-and-override-kv-str-for-int",
    2: "systemd-supplementarygroups-semicolon-and-defrag-thold",
    3: "servebox-up-chat-template-unclosed-and-llama-arg-ctx",
    4: "systemd-capabilityboundingset-ambient-ipc-lock-and-ssl-on-build-without-ssl",
    5: "openai-base-url-without-scheme-and-np-300",
    6: "servebox-up-gguf-truncated-sigkill-and-override-kv-i32",
    7: "openai-base-url-env-v1-twice-and-llama-arg-port-beside-port",
    8: "container-default-caps-prio-2-and-model-path-directory",
    9: "servebox-render-utf16-spec-and-n-threads-flag",
    10: "servebox-up-second-up-same-state-and-pooling-avg",
}
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
# the engine side: (flags after the base command, LLAMA_ARG_* environment, the request)
ENGINE = {
    2: (["--defrag-thold", "0.1"], {}, PLAIN),
    4: (["--ssl-key-file", "./key.pem", "--ssl-cert-file", "./cert.pem"], {}, PLAIN),
    5: (["-np", "300"], {}, PLAIN),
    7: ([], {"LLAMA_ARG_PORT": "8080"}, PLAIN),
}
# the servebox up cases: the engine condition as the spec's flags / env
UP = {
    1: ({"override-kv": "llama.context_length=str:4096"}, {}),
    3: ({}, {"LLAMA_ARG_CTX": "4096"}),
    6: ({"override-kv": "llama.context_length=i32:4096"}, {}),
    10: ({"pooling": "avg"}, {}),
}


def t396():
    t = _t(396)
    t.ENGINE, t.PORT, t.WORK, t.MODEL = ENGINE, PORT, WORK, {}
    return t


def up_case(k: int) -> str:
    t = _t(289)
    t.WORK, t.RUN, t.ROUTER, t.PORT_A, t.PORT_B = WORK, WORK / "run", PORT + 1, PORT, PORT + 2
    flags, env = UP[k]
    plain = t.spec_text

    def spec_text(router, models):
        models[0]["flags"].update(flags)
        if env:
            models[0].setdefault("env", {}).update(env)
        return plain(router, models)

    t.spec_text = spec_text
    (_, _), (_, acond, avalue) = draws()[0][k - 1]
    try:
        text = t.case_maker(acond, avalue)()
    finally:
        t.spec_text = plain
    d = WORK / "run" / t.case_id(acond, avalue)
    eng_log = d / ".servebox" / "logs" / "tiny.log"  # the engine's own output, which the user pastes too
    if "(incidents.jsonl pasted)" not in avalue and eng_log.exists():
        text = text.rstrip("\n") + "\n$ cat .servebox/logs/tiny.log\n" + eng_log.read_text(errors="replace")
    return text.replace(str(d), "/srv/llm").replace(LLAMA, "/opt/llama.cpp/build/bin/llama-server")


def openai_client(k: int):
    """5 / 7: fresh-290's chat.py (openai 3.63.0) against the server, its port read as this batch's."""
    body = (
        "from openai import OpenAI\n\n"
        + (
            "client = OpenAI(base_url='localhost:25900/v1', api_key=\"sk-no-key-required\")\n"
            if k == 5
            else 'client = OpenAI(api_key="sk-no-key-required")\n'
        )
        + "resp = client.chat.completions.create(\n"
        '    model="tiny-llama",\n'
        '    messages=[{"role": "user", "content": "Hello, who are you?"}],\n'
        "    max_tokens=32,\n)\nprint(resp.choices[0].message.content)\n"
    )
    lines = (["export OPENAI_BASE_URL=http://127.0.0.1:25900/v1/v1"] if k == 7 else []) + ["python chat.py"]

    def run(case: Path) -> str:
        (case / "chat.py").write_text(body)
        env = {n: v for n, v in os.environ.items() if not n.startswith(("LLAMA_", "OPENAI_"))}
        if k == 7:
            env["OPENAI_BASE_URL"] = "http://127.0.0.1:25900/v1/v1"
        p = subprocess.run(
            [CLIENT_PY, "chat.py"],
            cwd=case,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
            check=False,
        )
        out = p.stdout.decode("utf-8", "replace").replace(str(REPO / ".venv-vllm"), "/home/alice/.venv")
        shown = f"$ cat chat.py\n{body}" + "".join(f"$ {x}\n" for x in lines)
        return shown + out + ("" if out.endswith("\n") or not out else "\n") + f"# exit: {p.returncode}\n"

    return run


def container_case(k: int) -> str:
    """8: llama-server as root with Docker's default capability set (the bounding set cut with setpriv, so
    CAP_SYS_NICE is not there), -m the model's directory, --prio 2."""
    from corpus_tools import _ask_with, _healthy_before_exit, stop_group, tiny_model

    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    model = d / "tiny-llama"
    shutil.copytree(tiny_model(WORK), model)
    caps = (
        "chown,dac_override,fowner,fsetid,kill,setgid,setuid,setpcap,net_bind_service,net_raw,sys_chroot,mknod,"
        "audit_write,setfcap"
    )
    argv = [LLAMA, "-m", str(model), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", "--prio", "2"]
    wrap = ["setpriv", "--bounding-set", "-all," + ",".join("+" + c for c in caps.split(","))]
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root"}
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*wrap, *argv], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                answer = _ask_with(PORT, *PLAIN, 2)
        finally:
            stopped = proc.poll() is None
            stop_group(proc, grace=20)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    shown = ["/app/llama-server", "-m", "/models/tiny-llama", *argv[3:]]
    head = (
        "# container: docker run --rm -v /srv/models:/models -p 25900:25900 ghcr.io/ggml-org/llama.cpp:server "
        "(root, Docker's default capability set: no CAP_SYS_NICE; made here as root with setpriv --bounding-set "
        "cut to that set)\n"
        f"$ {shlex.join(shown)}\n"
    )
    out = out.replace(str(model), "/models/tiny-llama")
    who = "after the maker's SIGTERM" if stopped else "by itself"
    return head + out + ("" if out.endswith("\n") else "\n") + answer + f"# exit: {proc.returncode} ({who})\n"


def render_case(k: int) -> str:
    """9: servebox render of a llama.cpp spec (fresh-298's layout) saved as UTF-16 (with its BOM, as an editor
    writes it), the model's flags carrying n-threads = 2 (llama-server has no --n-threads)."""
    from corpus_tools import tiny_gguf

    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    spec = (
        '[[hosts]]\nname = "gpu1"\ngpus = ["l4-24gb"]\naddress = "10.0.0.11"\n\n'
        f'[router]\nlisten = "127.0.0.1:{PORT + 1}"\n\n'
        f'[[models]]\nname = "tiny"\nengine = "llama.cpp"\ncheckpoint = "{tiny_gguf(WORK)}"\nport = {PORT}\n'
        f'binary = "{Path(LLAMA).resolve()}"\nnodes = ["gpu1"]\n[models.flags]\nctx-size = 512\nn-threads = 2\n'
    )
    (d / "spec.toml").write_bytes(spec.encode("utf-16"))
    f = subprocess.run(["file", "spec.toml"], cwd=d, capture_output=True, text=True, check=False)
    p = subprocess.run(
        [SERVEBOX, "render", "spec.toml", "--out", "out"],
        cwd=d,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"},
        check=False,
    )
    text = f"$ file spec.toml\n{f.stdout}$ servebox render spec.toml --out out\n{p.stdout.rstrip()}\n"
    text += f"# exit: {p.returncode}\n"
    return (
        text.replace(str(tiny_gguf(WORK)), "/srv/models/tiny-f32.gguf")
        .replace(str(Path(LLAMA).resolve()), "/opt/llama.cpp/build/bin/llama-server")
        .replace(str(d), "/srv/llm")
    )


def run_case(k: int) -> str:
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n in (228, 236, 277, 287, 295):
        t = t396()
        text, unit2, _ = t.systemd_part(k, n, acond, avalue, t.unit_for(k))
        return text + t.run_engine(k, t.unit_env(unit2), True)
    if n == 289:
        return up_case(k)
    if n == 290:
        from corpus_tools import tiny_gguf

        t = t396()
        text = t.run_engine(k, ENGINE[k][1], False, client=openai_client(k))
        text = text.replace(str(WORK / "run" / f"d{k}"), "/home/alice").replace(
            str(tiny_gguf(WORK)), "/srv/models/tiny-f32.gguf"
        )
        return text.replace(
            "# exit status (llama-server, stopped after the client)", "# exit status (llama-server)"
        )
    if n == 293:
        return container_case(k)
    if n == 298:
        return render_case(k)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh417-llama-{SLUGS[k]}.log"
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
