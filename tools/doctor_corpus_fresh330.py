"""Batch fresh-330 (made here, unseen): OLD GROUND, NEW DRAW, round 6 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh322.py's procedure, which is fresh-316's,
fresh-309's, fresh-307's and fresh-299's), with a new seed and one more "already made" set, on the real vLLM-cpu 0.32
(.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh330)).

READ: tools/doctor_corpus_fresh322.py (docstring, procedure, runners: this file is it with a new seed, N = 10 and
fresh-322's kept triples joining the already-made set) and tools/doctor_corpus_fresh299.py (TOOLS, vllm_conditions,
made_before, imported unchanged); the draw files of fresh-299, 307, 309, 316 and 322 (their draws() output is what is
checked), never their logs; of the drawn tools (fresh-225 230 243 246 260 265 267 269 297) their CONDITIONS and the
case specs behind the drawn value (fresh-225's {MISSING} path, fresh-297's LLM(model=Path), fresh-269's
external-lb-dp-1 flags, fresh-265's NGRAM spec + xgrammar + json_schema request, fresh-246's value classes
(wrong-type: bool -> "true"/"false"), fresh-230's render-chat-no-scale-out request, fresh-243's switch class,
fresh-260's HF_HUB_OFFLINE + repo id, fresh-267's outlines regex "^[0-9]{3}$"), never their logs; the installed vLLM
0.32's sources: transformers_utils/utils.py maybe_model_redirect (a path that does not exist: the model name is kept),
config/parallel.py:547 ('data_parallel_external_lb can only be set when data_parallel_size > 1'), config/lora.py
specialize_active_lora (read only with a LoRA config), entrypoints/scale_out/factories.py (the render routes only with
--enable-scale-out), v1/structured_output/backend_outlines.py validate_regex_is_buildable / _prefix_needs_context;
transformers 5.19's @strict PreTrainedConfig (chunk_size_feed_forward: int = 0).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316 and 322 have no condition space of their own, so their kept triples only join
the already-made set; batches made since fresh-322 (fresh-323..329) are not vLLM-cpu makers of fresh-299's kind and
are left out, as fresh-322 left fresh-317..321 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2330); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316 or 322 kept it. `--draws` prints the kept triples and
every one drawn anew with the reason (tools/doctor_corpus_fresh330_draw.txt).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 24750 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh330) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound); the offline-API case (draw 2) is a short script run as `python script.py` (fresh-297's way, 300 s
bound, `# script.py:` lines then its output and `# exit status: N`). Case log = `$ export` lines and `$ command`, the
engine's whole stdout+stderr, then each `# request: ...` with its reply's status and first 1000 bytes. One engine at a
time; ports 24750-24799 (only 24750 used).
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh330.py [--draws | CASE ...]
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

SEED, N = 2330, 10
PORT = 24750

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py") for n in (299, 307, 309, 316, 322)}
TOOLS = F299.TOOLS
assert len(TOOLS) == 54


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


WORK = Path("/tmp/fresh330")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
HUBREPO = "fresh330/tiny-llama"
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "hello"}]
# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built: flags / env / config.json edit / model setup /
# requests on the base command, or an offline script. CASE in flags and env stands for the case's folder, TINY for
# the model's.
SCRIPT2 = """from pathlib import Path

from vllm import LLM, SamplingParams

llm = LLM(model=Path("TINY"), max_model_len=512)
out = llm.generate(["hello"], SamplingParams(max_tokens=8))
print("generated:", repr(out[0].outputs[0].text))
"""


def fuse_unk_string(model: Path) -> None:
    """fresh-246's wrong-type class for a bool: tokenizer.json model.fuse_unk true -> the string "true"."""
    tok = json.loads((model / "tokenizer.json").read_text())
    tok["model"]["fuse_unk"] = "true"
    (model / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False))


CASES: dict[int, dict] = {
    1: {
        "words": "model-redirect-path-missing",
        "value": "VLLM_MODEL_REDIRECT_PATH=CASE/model-redirect.json, a path that does not exist",
        "expect": "maybe_model_redirect returns the model name unchanged when the redirect path does not exist (no "
        "message); starts and the completion answers 200: none",
        "env": {"VLLM_MODEL_REDIRECT_PATH": "CASE/model-redirect.json"},
    },
    2: {
        "words": "offline-llm-model-pathlib-path",
        "value": "an offline script: LLM(model=pathlib.Path(TINY), max_model_len=512), generate one prompt",
        "expect": "EngineArgs keeps the Path; if vLLM 0.32 turns it into a string (or only uses it as os.PathLike) the "
        "script generates and exits 0: none (if a str method is called on it, an AttributeError names PosixPath: "
        "llm-model-not-a-path) -- written as none",
        "script": SCRIPT2,
    },
    3: {
        "words": "data-parallel-external-lb-dp-1",
        "value": "--data-parallel-external-lb --data-parallel-size 1",
        "expect": "ParallelConfig's check at config/parallel.py:547 refuses it while the engine config is built: "
        "'data_parallel_external_lb can only be set when data_parallel_size > 1'; the server exits before "
        "serving: data-parallel-launch-invalid",
        "flags": ["--data-parallel-external-lb", "--data-parallel-size", "1"],
    },
    4: {
        "words": "ngram-xgrammar-json-schema",
        "value": '--speculative-config {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4} '
        '--structured-outputs-config {"backend": "xgrammar"}, a completion with response_format json_schema '
        '{"type": "object", "properties": {"a": {"type": "integer"}}} on a repetitive prompt',
        "expect": "xgrammar supports speculative decoding (its matcher rolls back rejected drafts) and ngram runs on "
        "the CPU; the structured completion answers 200: none",
        "flags": [
            "--speculative-config",
            '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}',
            "--structured-outputs-config",
            '{"backend": "xgrammar"}',
        ],
        "requests": [
            (
                "/v1/completions",
                {
                    "model": "TINY",
                    "prompt": "a b c a b c a b c a b c",
                    "max_tokens": 8,
                    "response_format": {
                        "type": "json_schema",
                        "json_schema": {
                            "name": "a",
                            "schema": {"type": "object", "properties": {"a": {"type": "integer"}}},
                        },
                    },
                },
            )
        ],
    },
    5: {
        "words": "tokenizer-json-fuse-unk-string",
        "value": 'tokenizer.json model.fuse_unk "true" (a string where the BPE model takes a bool)',
        "expect": 'the tokenizers library cannot deserialize the model section (\'invalid type: string "true", '
        "expected a boolean') while the tokenizer loads; the server exits before serving: tokenizer-corrupt",
        "setup": fuse_unk_string,
    },
    6: {
        "words": "config-chunk-size-feed-forward-null",
        "value": "config.json chunk_size_feed_forward null (the tiny has no such field; transformers' default 0)",
        "expect": "transformers 5.19's @strict PreTrainedConfig types chunk_size_feed_forward as int and refuses None "
        "while config.json is read; the server exits before serving: config-json-field-wrong-type",
        "edit": ("config.json", {"chunk_size_feed_forward": None}),
    },
    7: {
        "words": "chat-render-route-without-scale-out",
        "value": "POST /v1/chat/completions/render (a chat) on the base server, started without --enable-scale-out",
        "expect": "the render routes are registered only with --enable-scale-out: HTTP 404 {'detail': 'Not Found'}; "
        "the server stays up: new:render-route-needs-enable-scale-out",
        "requests": [("/v1/chat/completions/render", {"model": "TINY", "messages": HELLO})],
    },
    8: {
        "words": "specialize-active-lora-switch",
        "value": "--specialize-active-lora (the switch on its own; no --enable-lora)",
        "expect": "a valid switch of LoRAConfig, unused without --enable-lora (no LoRA config is built); starts and "
        "answers 200: none",
        "flags": ["--specialize-active-lora"],
    },
    9: {
        "words": "hf-hub-offline-model-repo-id-not-cached",
        "value": "HF_HUB_OFFLINE=1, HF_HOME=CASE/hf (empty), --model fresh330/tiny-llama (a repo id not in the cache)",
        "expect": "offline, the config of a repo id not in the cache cannot be fetched: huggingface_hub's offline "
        "error (or vLLM's 'Invalid repository ID or local directory' wording) and the server exits before "
        "serving: hub-offline",
        "model": HUBREPO,
        "env": {"HF_HUB_OFFLINE": "1", "HF_HOME": "CASE/hf"},
        "requests": [("/v1/completions", {"model": HUBREPO, "prompt": "hello", "max_tokens": 8})],
    },
    10: {
        "words": "outlines-regex-caret-anchor",
        "value": '--structured-outputs-config {"backend": "outlines"}, a completion with structured_outputs '
        '{"regex": "^[0-9]{3}$"}',
        "expect": "validate_regex_is_buildable finds the ^ anchor before any consumer: HTTP 400 'Regex does not have "
        "a anchored universal start state...'; the server stays up: structured-output-schema-unsupported",
        "flags": ["--structured-outputs-config", '{"backend": "outlines"}'],
        "requests": [
            (
                "/v1/completions",
                {
                    "model": "TINY",
                    "prompt": "hello",
                    "max_tokens": 8,
                    "structured_outputs": {"regex": "^[0-9]{3}$"},
                },
            )
        ],
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
    """fresh-322's serve_case, with a case-folder setup, a model given otherwise (a repo id) and CASE substituted."""
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
    env = engine_env(WORK, **extra)
    shown = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
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


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    if "script" in spec:
        return run_script(spec, case_dir)
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
        case_id = f"fresh330-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
