"""fresh-407: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 13. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py,
fresh355.py, fresh363.py, fresh369.py, fresh374.py, fresh388.py and fresh404.py made, with a new seed:
tools/doctor_corpus_fresh404.py's procedure copied exactly (seed 2407, N = 10).

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's and now
fresh-404's kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set (manifest headers and the tools' first lines checked on main at eb1a30f1): all that
fresh-404 left out, and fresh-403 (OLD GROUND, NEW DRAW over llama-server's own tools, none in TOOLS). No other
batch of this theme exists on main after fresh-404 (fresh-405, 406, 408, 409 are sibling branches of stop 47, not on
main; not read).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh407_draw.txt, before any case
ran): r = random.Random(2407); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388 or 404 kept it, or when it repeats a triple kept here.
`--draws` lists the kept triples and every triple drawn anew with its reason. `--draws` was run TWICE with
PYTHONHASHSEED=0 and the two outputs were compared (`cmp`, silent) before the draw file was committed. Nothing is
redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-404): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit = fresh-228's
BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh407 and ports 25810-25819 (router 25810,
engines 25811 / 25812). One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh407-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh404.py and its _draw.txt, fresh-374's container_case, fresh-388's
systemd_case, the drawn tools' CONDITIONS and case builders (228, 236, 277, 289, 290, 293), the manifest's batch
headers; vllm 0.32's platforms/cpu.py (block_size warning), envs.py (VLLM_CACHE_ROOT), model_executor/models/
registry.py (the modelinfos cache), v1/worker/startup_plan.py; tools/corpus_tools.py names.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh407.py --draws | --values | K ...
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

SEED, N = 2407, 10
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


# ---- VALUES
# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh407-servebox-up-vllm-block-size-16-warns-serves",
        "fresh-289's `servebox up` with the tiny Llama on vLLM (router 25810, engine 25811), flags block-size = 16"
        " (fresh-289's own value for this class); one chat request through the router",
        "platforms/cpu.py: 16 % 32 != 0, so the engine warns 'CPU backend prefers block_size is multiples of 32,"
        " otherwise the performance is not optimized.' and serves; the chat request answers 200",
        "none",
    ),
    2: (
        "fresh407-client-asyncopenai-create-not-awaited-vllm",
        "fresh-290's vLLM server (tiny Llama served as tiny-llama, port 25811) and openai 3.63.0 (a client venv of"
        " this batch): async def main(): resp = client.chat.completions.create(...) without await, then"
        " print(resp.choices[0].message.content), under asyncio.run(main())",
        "AttributeError: 'coroutine' object has no attribute 'choices' in the user's script, and a RuntimeWarning:"
        " coroutine 'AsyncCompletions.create' was never awaited; exit 1; the server's log shows no request",
        "no family names a coroutine not awaited, so new:openai-async-call-not-awaited (checked after the run)",
    ),
    3: (
        "fresh407-systemd-llama-swap-oneshot-fetch-model-restartforceexitstatus-1",
        "llama-swap.service (base k=3: BASES[2]) Requires=/After= a llama-swap-fetch-model.service (Type=oneshot,"
        " RemainAfterExit=yes) holding RestartForceExitStatus=1 (fresh-277's mutate); systemd-analyze verify of both",
        "systemd 252's service_verify refuses only Restart=always/on-success for oneshot; RestartForceExitStatus= is"
        " accepted (a oneshot may be restarted on failure since 244), so verify prints nothing, exit 0",
        "none (unless verify says otherwise: then the family its words name)",
    ),
    4: (
        "fresh407-systemd-vllm-wants-nvidia-persistenced-no-suffix",
        "vllm.service (base k=4: BASES[0]) with Wants=nvidia-persistenced and After=nvidia-persistenced (fresh-228's"
        " mutate); systemd-analyze verify",
        "unit_name_is_valid fails for a name without a suffix: 'Failed to add dependency on nvidia-persistenced,"
        " ignoring: Invalid argument' for each line; the dependency is dropped, exit 0",
        "systemd-bad-value",
    ),
    5: (
        "fresh407-container-vllm-uid-12345-home-root-no-cache-vars",
        "fresh-293's vLLM command (tiny Llama, --max-model-len 512 --enforce-eager, port 25811) in `unshare -m` as"
        " uid/gid 12345 (setpriv --reuid --regid --clear-groups), HOME=/, no USER/LOGNAME, XDG_CACHE_HOME and"
        " VLLM_CACHE_ROOT unset (so the caches default to /.cache under root's 0755 /); root's pyenv made reachable"
        " in the namespace (as fresh-374 draw 5); one chat request",
        "VLLM_CACHE_ROOT = /.cache/vllm: the model registry's modelinfos cache write fails and is logged ('Error"
        " saving model info cache.' with a PermissionError traceback on '/.cache'), caught; the server comes up and"
        " the chat request answers 200 -- unless another cache write (huggingface, torch) is fatal, then that",
        "none (a healthy run with an alarming traceback), else the family the fatal error names",
    ),
    6: (
        "fresh407-systemd-llama-swap-loadcredential-no-id",
        "llama-swap.service (base k=6: BASES[2]) with LoadCredential=/etc/llm/hf_token after Group= (fresh-236's"
        " mutate); systemd-analyze verify",
        "config_parse_load_credential takes the text before ':' as the ID; '/etc/llm/hf_token' is not a valid"
        " credential name: 'Credential name is invalid, ignoring: /etc/llm/hf_token' (or similar); exit 0",
        "systemd-bad-value",
    ),
    7: (
        "fresh407-systemd-vllm-environment-hf-home-dollar-home",
        "vllm.service (base k=7: BASES[0]) with Environment=HF_HOME=${HOME}/.cache/huggingface after Group="
        " (fresh-236's mutate); systemd-analyze verify",
        "Environment= values are not expanded and verify does not check them: no output, exit 0; at run time"
        " HF_HOME is the literal '${HOME}/.cache/huggingface' (a relative folder named '${HOME}' in the working"
        " directory)",
        "new:systemd-environment-var-not-expanded (or a family whose cause names $VAR not expanded in Environment=;"
        " chosen after reading the hesitated families' full causes); stated_absent",
    ),
    8: (
        "fresh407-systemd-llama-server-loadcredential-equals-for-colon",
        "llama-server.service (base k=8: BASES[1]) with LoadCredential=HF_TOKEN=/etc/llm/hf_token after Group="
        " (fresh-236's mutate); systemd-analyze verify",
        "no ':' so the whole 'HF_TOKEN=/etc/llm/hf_token' is the ID, not a valid credential name: 'Credential name"
        " is invalid, ignoring: HF_TOKEN=/etc/llm/hf_token' (or similar); exit 0",
        "systemd-bad-value",
    ),
    9: (
        "fresh407-systemd-llama-swap-conditionpathexists-snapshot-no-models-prefix",
        "llama-swap.service (base k=9: BASES[2]) with ConditionPathExists=/opt/hf/hub/Qwen--Qwen2.5-7B-Instruct"
        " while /opt/hf/hub/models--Qwen--Qwen2.5-7B-Instruct exists (fresh-228's mutate); systemd-analyze verify,"
        " then systemd-analyze condition --root=... ConditionPathExists=...",
        "verify is silent (exit 0); condition prints 'ConditionPathExists=/opt/hf/hub/Qwen--Qwen2.5-7B-Instruct"
        " failed.' and 'Conditions failed.', exit non-zero: the unit would be skipped at boot, never started",
        "new:systemd-condition-path-missing (no family names a failed Condition*=; checked after the run)",
    ),
    10: (
        "fresh407-systemd-vllm-nonewprivileges-enabled",
        "vllm.service (base k=10: BASES[0]) with NoNewPrivileges=enabled after LimitMEMLOCK= (fresh-228's mutate);"
        " systemd-analyze verify",
        "parse_boolean does not take 'enabled': 'Failed to parse boolean value, ignoring: enabled'; exit 0",
        "systemd-bad-value",
    ),
}

WORK = Path("/tmp/fresh407")
ROUTER, PORT_A, PORT_B = 25810, 25811, 25812
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PYENV = "/root/.pyenv"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """fresh-388's / 374's systemd_case: fresh-228's, 236's and 277's own mutate, root and log."""
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
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def container_case(k: int, value: str) -> str:
    """fresh-374's container_case (uid 12345, HOME=/) without VLLM_TRACE_FUNCTION and without cache variables."""
    t = tool(293)
    t.BASE = WORK / "srv"
    t.RUN, t.MODEL, t.GGUF = t.BASE / "run", t.BASE / "model", t.BASE / "tiny-f32.gguf"
    t.VLLM_PORT, t.LLAMA_PORT = PORT_A, PORT_B
    t.SPECS[value] = t.Spec(
        "uid-12345-home-root-no-cache-vars",
        "docker run --user 12345:12345 (HOME=/ as docker sets it for a uid with no passwd line; no USER / LOGNAME;"
        " no XDG_CACHE_HOME / VLLM_CACHE_ROOT / HF_HOME set): here setpriv --reuid 12345 --regid 12345"
        " --clear-groups; root's pyenv (the venv's interpreter) made reachable in the namespace",
        setup=[
            "chmod 0755 {d}",
            "mkdir -p /run/fresh407-pyenv && mount --bind " + PYENV + " /run/fresh407-pyenv",
            "mount -t tmpfs -o mode=0755 tmpfs /root && mkdir "
            + PYENV
            + " && mount --move /run/fresh407-pyenv "
            + PYENV,
        ],
        prefix=["setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", "--"],
        env={"HOME": "/", "USER": None, "LOGNAME": None, "XDG_CACHE_HOME": None, "VLLM_CACHE_ROOT": None},
    )
    t.case_id = lambda v: VALUES[k][0]
    t.prepare()
    for p in [WORK, t.BASE]:
        p.chmod(0o755)
    return t.make_case(value)


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    return t.case_maker(condition, value)()


ASYNC_NOT_AWAITED_PY = """import asyncio

from openai import AsyncOpenAI

client = AsyncOpenAI(base_url="http://127.0.0.1:25811/v1", api_key="sk-no-key-required")


async def main():
    resp = client.chat.completions.create(
        model="tiny-llama",
        messages=[{"role": "user", "content": "Write a haiku about the sea."}],
        max_tokens=32,
    )
    print(resp.choices[0].message.content)


asyncio.run(main())
"""


def client_tool():
    """fresh-404's client_tool: fresh-290's runner with this batch's folder, ports and client venv."""
    import subprocess

    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    return t


def client_case(k: int) -> None:
    t = client_tool()
    cid = VALUES[k][0]
    t.vllm_cases([t.Case(cid, "vllm", ["python async_chat.py"], {"async_chat.py": ASYNC_NOT_AWAITED_PY})])


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 277):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
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
