"""Batch fresh-345 (made here, unseen): OLD GROUND, NEW DRAW, round 8 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh333.py's procedure, which is fresh-330's,
fresh-322's, fresh-316's, fresh-309's, fresh-307's and fresh-299's), with a new seed and one more "already made" set, on
the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(
/tmp/fresh345)).

READ: tools/doctor_corpus_fresh333.py (docstring, procedure, runners: this file is it with seed 2345, N = 10 and
fresh-333's kept triples joining the already-made set) and tools/doctor_corpus_fresh299.py (TOOLS, vllm_conditions,
made_before, imported unchanged); the draw file of fresh-333 (its draws() output is what is checked), never its logs;
of the drawn tools (fresh-267 234 275 271 230 254 278 260 224 229) their CONDITIONS and the case spec behind the drawn
value (fresh-267's SPECS structural-tag-blank-string-xgrammar and backend(), fresh-234's `request: stop`, fresh-275's
COMPILE and its bash ulimit runner, fresh-271's `certs` fixture and value grammar, fresh-230's DEV env and
sleep-no-sleep-mode-then-chat, fresh-254's kv-cache-memory-bytes.negative, fresh-278's kvspace-1-kvbytes-256ki,
fresh-260's logging-level-verbose-log-level-info, fresh-224's cross1 model and rerank-query-tokens-minus5 request,
fresh-229's template-refuses-tools, OWN and WEATHER), never their logs; the installed vLLM 0.32's sources:
sampling_params.py (structural_tag blank -> VLLMValidationError; check_json_nesting), envs.py (VLLM_MAX_STOP_STRINGS
int(), VLLM_LOGGING_LEVEL .upper()), entrypoints/generate/base/protocol.py (Field(max_length=envs.VLLM_MAX_STOP_STRINGS)
at import), uvicorn/config.py Config.load (`assert self.ssl_certfile` when only a key is given),
entrypoints/launchers/launcher.py / api_server/entry.py (ssl flags passed to uvicorn), entrypoints/serve/dev/sleep,
v1/engine/core.py sleep (pause_scheduler) and v1/worker/cpu_worker.py sleep (ignored on CPU),
utils/argparse_utils.py human_readable_int (one suffix letter), platforms/cpu.py check_and_update_config
(VLLM_CPU_KVCACHE_SPACE overrides kv_cache_memory_bytes), config/logging.py + logger.py (LoggingConfig.log_level
from the env, replaced by --log-level), entrypoints/pooling/scoring/io_processor.py _validate_token_limit.

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322, 330 and 333 have no condition space of their own, so their kept triples
only join the already-made set; batches made since fresh-333 (fresh-334..338, 342) are not vLLM-cpu makers of
fresh-299's kind (llama-server, around-the-engines, two-things, tool calling, embeddings on llama-server) and are left
out, as fresh-333 left fresh-331, 332 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2345); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322, 330 or 333 kept it. `--draws` prints the kept
triples and every one drawn anew with the reason (tools/doctor_corpus_fresh345_draw.txt).
REPRODUCIBILITY (fresh-333's note: fresh-251's condition list may come out in string-hash order): `--draws` was run
twice with PYTHONHASHSEED=0 before any case (about 11 minutes each: the earlier makers' draws() nest); both gave the same
kept and drawn-anew lines (identical, byte for byte), so no order fix was needed here. The committed draw file is the
second run's output with each draw's `concrete:` / `expected:` lines (CASES, written after the draw, before any case)
inserted as main() prints them (a third 11-minute run was not spent on it).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 25150 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh345) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound; each request's client timeout 120 s). Model changes (fresh-224's cross1, fresh-229's template) are made
on a copy in the case folder; the ulimit case runs the command under fresh-275's `bash -c 'ulimit -s 256 && exec "$@"'
bash ...` (no setpriv: lowering a limit needs no capability). Case log = `$ export` lines and `$ command`, the
engine's whole stdout+stderr, then each `# request: ...` with its reply's status and first 1000 bytes. One engine at
a time; ports 25150-25174 (only 25150 used); work dirs under /tmp/fresh345.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh345.py [--draws | CASE ...]
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

SEED, N = 2345, 10
PORT = 25150

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {
        n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py") for n in (299, 307, 309, 316, 322, 330, 333)
    }
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


WORK = Path("/tmp/fresh345")
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

CASES: dict[int, dict] = {
    1: {
        "words": "structural-tag-blank-string-xgrammar",
        "value": '--structured-outputs-config {"backend": "xgrammar"}; a chat with structured_outputs {"structural_tag": '
        '"   "} (three spaces)',
        "expect": "SamplingParams' structured-output checks: 'structured_outputs.structural_tag cannot be an empty "
        "string' (VLLMValidationError): HTTP 400, the server stays up: request-grammar-invalid",
        "flags": ["--structured-outputs-config", '{"backend": "xgrammar"}'],
        "requests": [
            (
                CHAT,
                {
                    "model": "TINY",
                    "messages": HELLO,
                    "max_tokens": 24,
                    "structured_outputs": {"structural_tag": "   "},
                },
            )
        ],  # fmt: skip
    },
    2: {
        "words": "max-stop-strings-four",
        "value": 'VLLM_MAX_STOP_STRINGS=four; a chat with stop ["\\n"]',
        "expect": "envs.py reads int(os.environ['VLLM_MAX_STOP_STRINGS']) when entrypoints/generate/base/protocol.py "
        "builds its pydantic Field at import: ValueError invalid literal for int() with base 10: 'four'; the API "
        "server dies at import before serving: vllm-env-value-not-integer",
        "env": {"VLLM_MAX_STOP_STRINGS": "four"},
        "requests": [(CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 24, "stop": ["\n"]})],
    },
    3: {
        "words": "ulimit-s-256-compile-mode-3",
        "value": "ulimit -s 256 (bash, before exec; fresh-275's way, no setpriv: lowering needs no capability) and "
        "--compilation-config '{\"mode\": 3}'",
        "expect": "a 256 KiB stack (also the default stack of every thread glibc starts) is far below what torch "
        "dynamo / inductor's deep recursion needs while compiling the model at start: a segmentation fault (or "
        "RecursionError / 'Fatal Python error: Segmentation fault') in the engine core, which dies before "
        "serving: stack-limit-too-small",
        "flags": ["--compilation-config", '{"mode": 3}'],
        "ulimit": "ulimit -s 256",
        "setpriv": False,
    },
    4: {
        "words": "ssl-keyfile-without-certfile",
        "value": "--ssl-keyfile CASE/key.pem (fresh-271's self-signed key; no --ssl-certfile); request: a chat over "
        "https (not verified)",
        "expect": "vLLM passes both to uvicorn; uvicorn's Config.load (at server.serve, after the engine started) "
        "takes is_ssl from the key alone and hits `assert self.ssl_certfile`: a bare AssertionError, the API server "
        "dies before /health answers; the cause (a TLS key without its certificate) no vLLM family names: "
        "new:vllm-ssl-keyfile-without-certfile",
        "case_setup": make_certs,
        "flags": ["--ssl-keyfile", "CASE/key.pem"],
        "requests": [(CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 8})],
    },
    5: {
        "words": "sleep-no-sleep-mode-then-chat",
        "value": "VLLM_SERVER_DEV_MODE=1, no --enable-sleep-mode; POST /sleep?level=1 then a chat",
        "expect": "/sleep pauses the scheduler (mode abort) and the CPU worker only warns 'sleep mode is not "
        "supported on CPU, ignore it.'; /sleep answers 200 {status: sleeping}; the chat then waits on the paused "
        "scheduler until the client's 120 s timeout (ReadTimeout): nothing failed, the engine was left paused "
        "without /wake_up: engine-paused-request-waits",
        "env": {"VLLM_SERVER_DEV_MODE": "1"},
        "requests": [("/sleep?level=1", {}), (CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 8})],
    },
    6: {
        "words": "kv-cache-memory-bytes-minus-1",
        "value": "--kv-cache-memory-bytes -1",
        "expect": "human_readable_int takes '-1' as int -1 and CacheConfig has no lower bound; on CPU, "
        "check_and_update_config then replaces it with VLLM_CPU_KVCACHE_SPACE (set to 1 by the base environment) "
        "* GiB: starts with a 1 GiB KV cache and the completion answers 200: none",
        "flags": ["--kv-cache-memory-bytes", "-1"],
    },
    7: {
        "words": "kvspace-1-kvbytes-256ki",
        "value": "VLLM_CPU_KVCACHE_SPACE=1 and --kv-cache-memory-bytes 256Ki",
        "expect": "human_readable_int accepts one suffix letter only ([kKmMgGtT]); '256Ki' falls to int('256Ki'): "
        "argparse 'argument --kv-cache-memory-bytes: invalid human_readable_int value: '256Ki'', exit 2 before "
        "the env could override it: cli-invalid-value",
        "flags": ["--kv-cache-memory-bytes", "256Ki"],
        "env": {"VLLM_CPU_KVCACHE_SPACE": "1"},
    },
    8: {
        "words": "logging-level-verbose-log-level-info",
        "value": "VLLM_LOGGING_LEVEL=VERBOSE and --log-level info",
        "expect": "the env only seeds LoggingConfig.log_level's default; --log-level info replaces it "
        "(configure_logging_from_args / create_logging_config) before any dictConfig is applied, so VERBOSE is never "
        "used: starts and the completion answers 200: none (if a process applies the env's level: "
        "logging's 'Unknown level: VERBOSE' -> vllm-env-invalid-choice) -- written as none",
        "env": {"VLLM_LOGGING_LEVEL": "VERBOSE"},
        "flags": ["--log-level", "info"],
    },
    9: {
        "words": "rerank-max-tokens-per-query-minus5",
        "value": 'fresh-224\'s cross1 (LlamaForSequenceClassification, one score row); POST /rerank {"query": "What '
        'is a fox?", documents (3), "max_tokens_per_query": -5}',
        "expect": "scoring io_processor _validate_token_limit: 'max_tokens_per_query must be a non-negative "
        "integer' (ValueError): HTTP 400, the server stays up: request-sampling-param-out-of-range",
        "setup": cross1,
        "requests": [
            (
                "/rerank",
                {
                    "model": "TINY",
                    "query": "What is a fox?",
                    "documents": [
                        "A fox is a small wild animal.",
                        "Paris is in France.",
                        "Foxes live in dens.",
                    ],
                    "max_tokens_per_query": -5,
                },
            )
        ],
    },
    10: {
        "words": "template-refuses-tools",
        "value": "chat_template.jinja raising 'This model does not support tool use.' when given tools; a chat with "
        "tools [get_weather]",
        "expect": "the renderer applies the template with tools: jinja2's TemplateError from raise_exception, "
        "answered HTTP 400 with the template's message; the server stays up: chat-template-rejects-request",
        "setup": template_refuses_tools,
        "requests": [(CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 8, "tools": [WEATHER]})],
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
        case_id = f"fresh345-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
