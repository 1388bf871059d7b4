"""fresh-331: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server and a deployment around it.

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

SEED, N = 2331, 8


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326 (any engine), from their draws()."""
    out = set()
    for n in (301, 312, 326):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306, 320, 324):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(318).draws()[0]:
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326"
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
# load -> context -> control vector / draft -> requests; systemd-analyze verify before the unit starts, tmpfiles before
# the service, a client after the engine was launched). A case whose run contradicts it says so in its manifest entry.
EXPECT = {
    1: (
        "llamacpp-arg-file-unreadable",
        "verify of the unit passes (ConditionPathExists= is a run-time check); run "
        "by hand the engine dies at the command line: --chat-template-file's handler cannot open ./template.jinja",
    ),
    2: (
        "llamacpp-control-vector-unusable",
        "verify passes (a deny-first SystemCallFilter= is accepted; the drop-in's "
        "allow line is read as more deny); by hand no seccomp applies: the model loads, the context is made, then "
        "the control vector ./cv.gguf cannot be loaded and the server exits",
    ),
    3: (
        "cli-invalid-value",
        "Environment=HF_HOME=${HOME}/... is kept literally (harmless for a local GGUF); "
        "LLAMA_ARG_BATCH=99999999999 from the unit's Environment= ends it before the command line: std::stoi "
        "out_of_range -> 'error while handling environment variable'",
    ),
    4: (
        "chat-template-invalid",
        "the first servebox up starts llama-server, which refuses the unparsable Jinja "
        "template after the command line; the second up with the same state dir is refused at once "
        "(servebox-up-already-running) -- the template is what keeps the model from serving",
    ),
    5: (
        "none",
        "-c 1024 twice only warns (last wins); --log-file /var/log/llama/tiny.log with no such directory: "
        "the log file cannot be opened, llama-server goes on logging to the console and serves (prediction uncertain)",
    ),
    6: (
        "openai-sdk-chat-create-without-messages",
        "--top_k 20 is folded into --top-k, the server serves; the SDK "
        "refuses chat.completions.create(model, prompt=...) before sending: messages is missing",
    ),
    7: (
        "request-prompt-token-id-out-of-vocab",
        "verify warns on StateDirectory=NAME/../models (not a valid "
        "relative path, ignored); by hand the engine serves; /completion with prompt [999999] is refused 400 "
        "(invalid tokens)",
    ),
    8: (
        "cli-unrecognized-argument",
        "systemd-tmpfiles refuses the 'age 30 days' line (the cache dir is not made); "
        "the engine dies at the command line: 'error: invalid argument: --n-threads'",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed)
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh331")
PORT = 24800
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SHOWN_BIN, SHOWN_MODEL, SHOWN_WD = (
    "/opt/llama.cpp/build/bin/llama-server",
    "/opt/models/tiny.gguf",
    "/opt/llama.cpp",
)

SLUGS = {
    1: "systemd-condition-snapshot-typo-and-missing-chat-template-file",
    2: "systemd-syscallfilter-deny-first-and-missing-control-vector",
    3: "systemd-environment-home-unexpanded-and-batch-variable-out-of-range",
    4: "servebox-up-twice-and-jinja-template-unparsable",
    5: "servebox-up-log-file-dir-missing-and-ctx-twice",
    6: "underscore-top-k-and-sdk-chat-create-with-prompt",
    7: "systemd-dynamicuser-statedirectory-dotdot-and-token-id-out-of-vocab",
    8: "systemd-tmpfiles-age-space-and-unknown-n-threads",
}
# the engine side of each case: (flags after the base command, LLAMA_ARG_* environment, the request)
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
ENGINE = {
    1: (["--chat-template-file", "./template.jinja"], {}, PLAIN),
    2: (["--control-vector", "./cv.gguf"], {}, PLAIN),
    3: ([], {"LLAMA_ARG_BATCH": "99999999999"}, PLAIN),
    6: (["--top_k", "20"], {}, None),
    7: ([], {}, ("POST", "/completion", {"prompt": [999999], "n_predict": 8}, {})),
    8: (["--n-threads", "2"], {}, PLAIN),
}


def unit_for(k: int) -> str:
    """fresh-228's llama-server.service with its ExecStart= the case's command (as deployed under /opt) and the case's
    engine variables as Environment= lines."""
    from doctor_corpus_fresh228 import BASES

    flags, env, _ = ENGINE[k]
    base = dict(BASES)["llama-server.service"]
    args = ["-m", SHOWN_MODEL, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
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
    argv = [
        LLAMA,
        "-m",
        str(tiny_gguf(WORK)),
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
        text += f"$ cd {SHOWN_WD}\n$ " + shlex.join([SHOWN_BIN, "-m", SHOWN_MODEL, *argv[3:]]) + "\n"
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
        out = out.replace(str(tiny_gguf(WORK)), SHOWN_MODEL)
    text += out if out.endswith("\n") or not out else out + "\n"
    if client is not None:
        return text + answer + f"# exit status (llama-server, stopped after the client): {proc.returncode}\n"
    return text + answer + f"# exit status: {proc.returncode}\n"


SDK = f"""from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:{PORT}/v1", api_key="none")
out = client.chat.completions.create(model="tiny", prompt="Say hello in one word.", max_tokens=8)
print(out.choices[0].message.content)
"""


def sdk_client(case: Path) -> str:
    (case / "ask.py").write_text(SDK)
    p = subprocess.run(
        [str(REPO / ".venv-vllm" / "bin" / "python"), "ask.py"],
        cwd=case,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=120,
        check=False,
    )
    out = p.stdout.decode("utf-8", "replace")
    out = out.replace(str(REPO / ".venv-vllm"), "/home/alice/.venv")
    return f"$ cat ask.py\n{SDK}$ python ask.py\n{out}{'' if out.endswith(chr(10)) else chr(10)}# exit: {p.returncode}\n"


def run_case(k: int) -> str:
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n in (228, 236, 287):
        text, unit2, _ = systemd_part(k, n, acond, avalue, unit_for(k))
        return text + run_engine(k, unit_env(unit2), True)
    if k == 6:
        return run_engine(k, {}, False, client=sdk_client)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh331-llama-{SLUGS[k]}.log"
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
