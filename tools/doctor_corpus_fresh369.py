"""fresh-369: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 9. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py and fresh363.py made, with a new seed: tools/doctor_corpus_fresh363.py's procedure copied exactly.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's and now fresh-363's kept triples (their
draw(), imported unchanged) join the already-made set.
Left out of the already-made set (manifest headers and the tools' first lines checked on main at 9c80aca9):
fresh-362 (a llama-server re-draw over other tools: fresh-300, 310, 317, 323, 332, 334, 346, 356, none in TOOLS),
fresh-364 and fresh-365 (two conditions at once, an engine's plus one around it, fresh-318/341/358's and
fresh-331/342/353's pair procedures: their around-condition is half of a pair acting with an engine condition on one
run, not a kept (tool, condition, value class) triple of this re-draw, as fresh-363 left out fresh-357/358),
fresh-366 (vLLM pooling on an encoder-only model) and fresh-359/360/367 (vLLM on an H100): none draws triples from
these TOOLS, so none can collide with a triple drawn here. No other batch of this theme exists after fresh-363.

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh369_draw.txt, before any case
ran): r = random.Random(2369); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355 or 363 kept it, or when it repeats a triple kept here. `--draws` lists the
kept triples and every triple drawn anew with its reason. `--draws` was run TWICE with PYTHONHASHSEED=0 and the two
outputs were compared (identical, byte for byte: `cmp` silent) before the draw file was committed. Nothing is redrawn
afterwards; a case that cannot be made in time is said so in the manifest header, not replaced. A drawn case too slow
for this shared machine (a full `servebox provision` of vLLM) is not made and said so.
Realisation (as fresh-363): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit = fresh-228's
BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh369 and ports 25530-25539 (router 25530,
engines 25531 / 25532). One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh369-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh363.py and its _draw.txt, the first lines of fresh362/364/365/366's
tools and the manifest's batch headers; the drawn tools' CONDITIONS and case builders; tools/corpus_tools.py names.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh369.py --draws | --values | K ...
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

SEED, N = 2369, 10
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
        "fresh369-container-llama-read-only-root-nothing-writable",
        "fresh-293's llama-server command (tiny GGUF, -c 512, port 25532) in `unshare -m` with / remounted read-only"
        " (docker run --read-only, no --tmpfs, no volume); one chat request",
        "llama-server with a local -m writes nothing (no cache, no slot save path): it starts and answers 200",
        "none",
    ),
    2: (
        "fresh369-systemd-llama-server-syscallfilter-one-line-tilde-mid-list",
        "llama-server.service (base k=2) with SystemCallFilter=@system-service ~@privileged @resources on one line"
        " (fresh-287's mutate); verify and security --offline",
        "systemd 252 takes '~' only as the first character of the value: mid-list '~@privileged' is read as a set"
        " name with a tilde: 'Failed to parse system call, ignoring: ~@privileged' (or similar) for each, exit 0",
        "a systemd value-ignored family (named after the run)",
    ),
    3: (
        "fresh369-container-vllm-uid-12345-no-writable-tmp",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 25531) in `unshare -m`:"
        " /tmp and /var/tmp tmpfs mode 0755 owned by root, TMPDIR unset, working directory root's 0755, run as"
        " uid/gid 12345 (setpriv --reuid --regid --clear-groups), HOME=/ (docker's for a uid with no passwd line),"
        " XDG_CACHE_HOME / VLLM_CACHE_ROOT on a folder owned by 12345 (a writable volume); root's pyenv made"
        " reachable in the namespace (an image's interpreter is world-readable); one chat request",
        "the first tempfile use (vLLM's ZMQ ipc:// paths or the multiprocessing context) fails: FileNotFoundError:"
        " [Errno 2] No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', CWD]; the server"
        " exits non-zero before /health",
        "a temp-dir-not-writable family (named after the run), else new:no-usable-temporary-directory",
    ),
    4: (
        "fresh369-servebox-up-vllm-sigstop-enginecore-mid-stream",
        "fresh-289's `servebox up` with the tiny Llama on vLLM (router 25530, engine 25531); a streamed chat"
        " request, vLLM's EngineCore SIGSTOPped once the stream runs (fresh-289's steps: wait for servebox's"
        " health watch to restart the engine, then one more chat request)",
        "the stream stalls; the API server's /health (it asks the engine core) times out, servebox's health watch"
        " records an incident and restarts the engine; the next request answers 200 (or the restart is still"
        " under way at the bound)",
        "an engine-hung / health-check-timeout family (named after the run)",
    ),
    5: (
        "fresh369-container-llama-home-nonexistent-read-only",
        "fresh-293's llama-server command (tiny GGUF, -c 512, port 25532) with HOME=/nonexistent in `unshare -m`"
        " with / remounted read-only; one chat request",
        "with -m a local GGUF llama-server never reads HOME (its cache is only for -hf / -mu): it starts and"
        " answers 200",
        "none",
    ),
    6: (
        "fresh369-systemd-llama-swap-supplementarygroups-semicolon",
        "llama-swap.service (base k=6: BASES[5 % 3]; first written as vllm.service, corrected after the run) with NoNewPrivileges=yes and SupplementaryGroups=video;render (fresh-287's mutate);"
        " verify and security --offline",
        "'video;render' is one word, not a valid group name: verify says '...: Invalid supplementary group name"
        " video;render, ignoring' (or the exec would fail to resolve it), exit 0 or 1",
        "a systemd value-ignored / group-not-found family (named after the run)",
    ),
    7: (
        "fresh369-servebox-up-vllm-checkpoint-gguf-file",
        "fresh-289's `servebox up` with engine = vllm and checkpoint = the tiny GGUF file (router 25530, engine"
        " 25531); one chat request",
        "servebox refuses the GGUF checkpoint for vLLM before starting (a checkpoint check), or vLLM starts and fails"
        " to read a GGUF without --tokenizer ('... is not a valid model' / config not found); exit non-zero, the"
        " request 503 or refused",
        "a wrong-checkpoint-format family (named after the run)",
    ),
    8: (
        "fresh369-systemd-llama-server-protectkernelmodules",
        "llama-server.service (base k=8) with ProtectKernelModules=yes (fresh-295's mutate); verify and security"
        " --offline",
        "verify clean, security rates ProtectKernelModules= as set; on a CUDA host nvidia_uvm could not be loaded"
        " by the first CUDA call (only at run time, on a GPU host): a clean-verify case",
        "none",
    ),
    9: (
        "fresh369-servebox-fetch-model-offline-partial-dir",
        "`HF_HUB_OFFLINE=1 servebox fetch-model Qwen/Qwen2.5-0.5B-Instruct --dir D` where D holds an earlier run's"
        " config.json and a 37 MiB .incomplete under .cache/huggingface/download (fresh-296's partial folder)",
        "HubSource.open asks the hub for the repo's listing: huggingface_hub refuses in offline mode"
        " (OfflineModeIsEnabled ... HF_HUB_OFFLINE=1); servebox reports it on one line, exit 2",
        "a hub-offline family (named after the run), else new:hf-hub-offline-mode",
    ),
    10: (
        "fresh369-servebox-render-router-log-level-warning",
        'fresh-298\'s vLLM base spec with [router] log_level = "warning"; `servebox render spec.toml --out out`',
        "spec.py: log_level is Literal debug/info/warn/error: 'servebox: error: ... router.log_level: Input should be"
        " 'debug', 'info', 'warn' or 'error'', exit 2, nothing written",
        "servebox-spec-invalid",
    ),
}

WORK = Path("/tmp/fresh369")
ROUTER, PORT_A, PORT_B = 25530, 25531, 25532
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    from doctor_corpus_fresh228 import BASES
    from doctor_corpus_fresh277 import build_root

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n in (287, 295):
        unit, drop, shown = t.mutate(name, base, condition, value)
        build_root(root, name, unit, drop, shown)
        if n == 295:
            with open(root / "etc/group", "a") as groups:  # fresh-295's GPU host groups (Debian's ids)
                groups.write("video:x:44:\nrender:x:105:\n")
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


PYENV = "/root/.pyenv"


def container_case(k: int, value: str) -> str:
    t = tool(293)
    t.BASE = Path("/srv/fresh369")  # not under /tmp or /var/tmp: draw 3 mounts tmpfs over both
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    if k == 1:
        t.SPECS[value] = t.Spec(
            "read-only-root-nothing-writable",
            "docker run --read-only (no --tmpfs, no volume): / remounted read-only in the namespace",
            setup=[t.RO_ROOT],
        )
    elif k == 5:
        t.SPECS[value] = t.Spec(
            "home-nonexistent-read-only-root",
            "docker run --read-only -e HOME=/nonexistent (a system user's passwd HOME):"
            " / remounted read-only in the namespace, HOME=/nonexistent",
            setup=[t.RO_ROOT],
            env={"HOME": "/nonexistent"},
        )
    elif k == 3:
        t.SPECS[value] = t.Spec(
            "uid-12345-tmp-var-tmp-root-0755",
            "docker run --user 12345:12345 (an image whose /tmp and /var/tmp lack the 1777 bit: root's, 0755; no"
            " TMPDIR; WORKDIR root's 0755; HOME=/ as docker sets it for a uid with no passwd line) -v"
            " cache:{d}/cache owned by 12345: here tmpfs mode=0755 at /tmp and /var/tmp, setpriv --reuid 12345"
            " --regid 12345 --clear-groups; root's pyenv (the venv's interpreter) made reachable in the namespace",
            setup=[
                "mkdir -p {d}/cache {d}/vllm-cache && chown 12345:12345 {d}/cache {d}/vllm-cache && chmod 0755 {d}",
                f"mkdir -p /run/fresh369-pyenv && mount --bind {PYENV} /run/fresh369-pyenv",
                f"mount -t tmpfs -o mode=0755 tmpfs /root && mkdir {PYENV} && mount --move /run/fresh369-pyenv {PYENV}",
                "mount -t tmpfs -o mode=0755 tmpfs /tmp",
                "mount -t tmpfs -o mode=0755 tmpfs /var/tmp",
            ],
            prefix=["setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", "--"],
            env={"HOME": "/", "TMPDIR": None},
        )
        # fresh-293's case_id keeps the value's head 'vllm as uid 12345' (spaces), which broke the setup script's
        # unquoted paths on the first try (bash: syntax error near 'as', exit 2: a maker error, not a case)
        t.case_id = lambda v: f"fresh293-vllm-{t.SPECS[v].slug}"
    t.prepare()
    return t.make_case(value)


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    if k == 4:
        # fresh-289's engine_core_pids looks for 'EngineCore' in /proc/PID/comm, which the kernel cuts to 15 bytes:
        # vLLM 0.32's title VLLM::EngineCore reads 'VLLM::EngineCor' there, so the first run signalled nothing (a
        # healthy run: the stream finished, the last request 200; discarded, said so in the manifest header).
        # Matched here on the cut name; nothing else of fresh-289's steps changes.
        def engine_core_pids(port: int) -> list[int]:
            parents = set(t.engine_pids(port))
            kids = []
            for p in Path("/proc").iterdir():
                if not p.name.isdigit():
                    continue
                try:
                    stat = (p / "stat").read_text()
                    comm = (p / "comm").read_text().strip()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) in parents and "EngineCor" in comm:
                    kids.append(int(p.name))
            return kids

        t.engine_core_pids = engine_core_pids
    return t.case_maker(condition, value)()


def fetch_case(k: int) -> str:
    import base64
    import hashlib
    import os

    t = tool(296)
    t.WORK = WORK / "s296"
    t.RUN = t.WORK / "run"
    case = t.fresh(VALUES[k][0])
    target = case / "Qwen2.5-0.5B-Instruct"
    dl = (
        target / ".cache" / "huggingface" / "download"
    )  # fresh-296's partial folder (make_fetch's .incomplete)
    dl.mkdir(parents=True)
    cfg = REPO / "tests" / "fixtures" / "checkpoints" / "qwen2.5-0.5b-instruct" / "config.json"
    (target / "config.json").write_text(cfg.read_text() if cfg.is_file() else '{"model_type": "qwen2"}\n')
    (dl / "config.json.metadata").write_text(
        "a5e3a8a5a4e1d37e6ed3d6e3b4c1b5f4b5f0f1a2\n" + "0" * 64 + "\n1700000000.0\n"
    )
    (dl / "model.safetensors.lock").write_text("")
    short = base64.urlsafe_b64encode(hashlib.sha1(b"model.safetensors.metadata").digest()).decode()
    etag = "fdf756fa7fcbe7404d5c60e26bff1e0c8b8aa1f72ced49e7dd0210fe288fb7fe"
    with (dl / f"{short}.{etag}.incomplete").open("wb") as handle:
        handle.write(os.urandom(37 << 20))
    text, _ = t.run(
        f"find {target} -type f -printf '%s %p\\n'",
        ["find", str(target), "-type", "f", "-printf", "%s %p\\n"],
    )
    repo = "Qwen/Qwen2.5-0.5B-Instruct"
    block, _ = t.run(
        f"HF_HUB_OFFLINE=1 servebox fetch-model {repo} --dir {target}",
        t.sb(f"fetch-model {repo} --dir {target}"),
        timeout=300,
        environ=t.env(HF_HUB_OFFLINE="1"),
    )
    return text + block


def render_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    return t.spec_case(case, t.vllm_spec(router='log_level = "warning"\n'), t.render())


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 293:
        text = container_case(k, value)
    elif n == 289:
        text = up_case(k, condition, value)
    elif n == 296:
        text = fetch_case(k)
    elif n == 298:
        text = render_case(k)
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
