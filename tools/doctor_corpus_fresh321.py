"""fresh-321: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 3. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py and tools/doctor_corpus_fresh311.py made, with a new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order; its docstring says why fresh-23, the process-environment, version-drift and engine-option
tools are left out), each tool's CONDITIONS (the condition spaces) and its made() (the (condition, value class) pairs
each tool's own batch already made = its own draws()' kept pairs), fresh-304's own kept triples (its draw()) and
fresh-311's kept triples (tools/doctor_corpus_fresh311.py's draw(), imported unchanged).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh321_draw.txt, before any case
ran): r = random.Random(2321); repeat until N = 11 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304 or fresh-311 kept it, or when it repeats a triple kept here. `--draws` lists the kept triples and every
triple drawn anew with its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the
manifest header, not replaced. A drawn case too slow for this shared 2-core machine (a full `servebox provision` of
vLLM, ~12 min) would be made with a smaller equivalent input only where VALUES says so before it runs (none drawn).
Realisation (as fresh-304 / fresh-311): each kept triple gets one concrete value of the maker's choosing inside its
class, written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as
the earlier tool built it (its base units / spec / server command / runner, imported), with this batch's folder
/tmp/fresh321 (/var/tmp/fresh321 for the container case) and ports 24350-24399 (router 24350, engines 24351 / 24352).
One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh321-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh304.py and fresh311.py, both _draw.txt files, fresh-311's manifest
header; the drawn tools' CONDITIONS and case builders; tools/corpus_tools.py. Not read: servebox/doctor/*.py, knowledge
patterns, tests/test_doctor*.py, benchmarks internals, earlier logs. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh321.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402

SEED, N = 2321, 11
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    kept304 = set(F304.draw()[0])
    kept311 = set(F311.draw()[0])
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif (n, condition, value) in kept304:
            skipped.append((n, condition, value, "kept by fresh-304"))
        elif (n, condition, value) in kept311:
            skipped.append((n, condition, value, "kept by fresh-311"))
        elif (n, condition, value) in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append((n, condition, value))
    return kept, skipped


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family)
VALUES = {
    1: (
        "fresh321-servebox-check-qwen-h100-80gb-ctx-8192",
        "`servebox check QWEN --gpu h100-80gb --max-model-len 8192` on the bundled fixture"
        " tests/fixtures/checkpoints/qwen2.5-7b-instruct (absolute path), as fresh-298's run() runs check",
        "a 7B bf16 checkpoint (~15 GB) with an 8192 context fits an 80 GB card easily: check prints its table (and"
        " perhaps advice) and exits 0; nothing fails",
        "none",
    ),
    2: (
        "fresh321-servebox-render-port-float",
        "fresh-298's vLLM base spec with `port = 8001.0` in place of `port = 8001`; `servebox render spec.toml --out out`",
        "the spec schema is strict pydantic (Strict: strict=True): a float is not an int, so render refuses the spec"
        " with one 'servebox: error: ...' line naming models.0.port, exit 2; nothing written",
        "servebox-spec-invalid",
    ),
    3: (
        "fresh321-servebox-lock-out-read-only-bind",
        "fresh-296's lock base (python3.11 venv, requests==2.32.3, pyyaml==6.0.2) and a folder ./locks made"
        " read-only in a private mount namespace (`unshare -m`: mount --bind locks locks; mount -o remount,bind,ro"
        " locks), then `servebox lock VENV --out locks/vllm.lock` (the maker is root: only the ro mount refuses)",
        "cli/provision.py's _check_writable_folder runs before pip: os.access(folder, W_OK) is False on a read-only"
        " mount (EROFS), so 'servebox: error: ... --out ...: its folder .../locks is not writable', exit 2; no lock",
        "servebox-spec-invalid",
    ),
    4: (
        "fresh321-systemd-vllm-restrictaddressfamilies-deny-then-allow-dropin",
        "vllm.service (base k=4) with RestrictAddressFamilies=~AF_PACKET after Group=, and the override.conf drop-in"
        " adding RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 (fresh-287's mutate); verify + security",
        "systemd takes the list's kind from the first assignment (a deny list); the drop-in's plain words then REMOVE"
        " AF_UNIX/AF_INET/AF_INET6 from the deny set (they were not in it): the effective setting denies AF_PACKET only."
        " verify is clean (exit 0); security shows RestrictAddressFamilies exposure as if unrestricted for the"
        " other families; the engine would run (nothing it opens is denied): nothing fails",
        "none",
    ),
    5: (
        "fresh321-systemd-llama-server-protectproc-invisible-procsubset-pid",
        "llama-server.service (base k=5) with ProtectProc=invisible and ProcSubset=pid after Group= (fresh-295's"
        " mutate, video/render groups in the root's /etc/group as fresh-295 did); verify + security",
        "both settings parse: verify clean, exit 0; security lists them as set; the offline tools state no problem"
        " (at run time /proc/cpuinfo, /proc/meminfo would be hidden, which these tools cannot show)",
        "none",
    ),
    6: (
        "fresh321-systemd-llama-swap-dropin-execstart-reset-then-execstrat",
        "llama-swap.service (base k=6) with override.conf 'ExecStart=' then 'ExecStrat=<the new command>' (fresh-277's"
        " mutate); verify",
        "verify: 'Unknown key name 'ExecStrat' in section 'Service', ignoring.' then the service has no ExecStart=:"
        " 'Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.', exit non-zero",
        "systemd-no-execstart",
    ),
    7: (
        "fresh321-systemd-vllm-dynamicuser-supplementarygroups-render-video",
        "vllm.service (base k=7) with User=/Group= removed, DynamicUser=yes and SupplementaryGroups=render video after"
        " Type=, the drop-in made a ROCm one (HIP_VISIBLE_DEVICES) (fresh-295's mutate; video/render in /etc/group);"
        " verify + security",
        "all parse; render and video exist in the root's /etc/group: verify clean, exit 0; security reports the"
        " dynamic user; nothing the offline tools state fails",
        "none",
    ),
    8: (
        "fresh321-container-llama-pids-limit-3",
        "fresh-293's llama-server command (tiny GGUF, -c 512, default threads, port 24352) under `unshare -m` joined"
        " to a cgroup v1 pids child with pids.max = 3 bind-mounted at /sys/fs/cgroup/pids (docker run --pids-limit 3);"
        " wait for /health (120 s), one chat request if up",
        "the third task cannot be made: a thread creation of llama-server (the log worker, the HTTP pool or ggml's"
        " threadpool) gets EAGAIN; std::thread throws std::system_error 'Resource temporarily unavailable' ->"
        " terminate -> SIGABRT (or a GGML_ASSERT on pthread_create's rc), before /health answers; no request",
        "thread-creation-refused",
    ),
    9: (
        "fresh321-systemd-llama-swap-privatedevices-yes",
        "llama-swap.service (base k=9) with PrivateDevices=yes after Group= (fresh-295's mutate, NVIDIA value: the"
        " drop-in unchanged); verify + security",
        "PrivateDevices=yes parses: verify clean, exit 0; security counts it as set; the offline tools state no"
        " problem (at run time the children would see no /dev/nvidia*)",
        "none",
    ),
    10: (
        "fresh321-servebox-render-llama-binary-plus-prefix",
        'fresh-298\'s llama.cpp base spec with binary = "+/usr/local/bin/llama-server"; `servebox render spec.toml'
        " --out out`",
        "spec_values.absolute_path refuses a value starting with one of systemd's prefixes: 'servebox: error: ..."
        " starts with '+', one of systemd's special prefixes ...: '+' would run the engine as root outside the"
        " sandbox', exit 2; nothing written",
        "servebox-spec-invalid",
    ),
    11: (
        "fresh321-client-openai-base-url-host-v1-plus-v1-vllm",
        "openai SDK 3.63.0 (fresh-290's client venv, made here) with HOST = 'http://127.0.0.1:24351/v1' and"
        " OpenAI(base_url=f'{HOST}/v1'), chat.completions.create against vLLM (fresh-290's server command, port 24351)",
        "the SDK posts to /v1/v1/chat/completions; vLLM answers 404 {'detail': 'Not Found'}; the SDK raises"
        " NotFoundError, exit 1; the server stays healthy (its access log shows the 404)",
        "client-base-url-v1-doubled",
    ),
}

WORK = Path("/tmp/fresh321")
ROUTER, PORT_A, PORT_B = 24350, 24351, 24352
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 277:
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    unit, drop, shown = t.mutate(name, base, condition, value)  # 287 / 295: fresh-277's root builder
    t.build_root(root, name, unit, drop, shown)
    if n == 295:
        with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
            groups.write("video:x:44:\nrender:x:105:\n")
    return t.log_for(root, name, unit, drop, shown)


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    if k == 1:
        return t.run(case, ["servebox", "check", t.QWEN, "--gpu", "h100-80gb", "--max-model-len", "8192"])
    if k == 2:
        return t.spec_case(case, t.vllm_spec().replace("port = 8001\n", "port = 8001.0\n"), t.render())
    if k == 10:
        spec = t.llama_spec().replace(
            f'binary = "{t.LLAMA_SERVER}"', 'binary = "+/usr/local/bin/llama-server"'
        )
        assert "+/usr/local/bin/llama-server" in spec
        return t.spec_case(case, spec, t.render())
    raise ValueError(k)


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
    locks = case / "locks"
    locks.mkdir()
    out = locks / "vllm.lock"
    mounts = [f"mount --bind {locks} {locks}", f"mount -o remount,bind,ro {locks}"]
    inner = " && ".join(mounts) + f" && exec {t.BIN / 'servebox'} lock {venv} --out {out}"
    block, _ = t.run(f"servebox lock {venv} --out {out}", ["unshare", "-m", "sh", "-c", inner], timeout=900)
    # shown as the user ran it: the two mounts (silent), then servebox, all in one private mount namespace
    text = "".join(f"$ {m}\n" for m in mounts) + block
    if out.exists():
        text += f"$ cat {out}\n{out.read_text()}"
    return text


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = Path("/var/tmp/fresh321")
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    t.SPECS[value] = t.Spec(
        "pids-limit-3",
        "docker run --pids-limit 3: a cgroup v1 pids child, pids.max = 3, bind-mounted at /sys/fs/cgroup/pids",
        setup=[t.cg_view("pids")],
        cgroups={"pids": {"pids.max": "3"}},
    )
    t.prepare()
    return t.make_case(value)


CHAT_V1_TWICE_PY = """from openai import OpenAI

HOST = "http://127.0.0.1:24351/v1"  # copied from the server's startup lines

client = OpenAI(base_url=f"{HOST}/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=32,
)
print(resp.choices[0].message.content)
"""


def client_case(k: int) -> None:
    import subprocess

    t = tool(
        290
    )  # fresh-290's runner, re-pointed to this batch's folder and ports (as fresh-304's client_tool)
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    cid = VALUES[k][0]
    t.vllm_cases([t.Case(cid, "vllm", ["python chat.py"], {"chat.py": CHAT_V1_TWICE_PY}, bound=120)])


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (277, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 296:
        text = lock_case(k)
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
