"""The 127th fresh batch of doctor's corpus (batch "fresh-127", made here): TWO LLAMA-SERVER ARGUMENTS TOGETHER, each
valid alone, drawn at random from the real llama-server's own `--help` (llama.cpp 11434.0.0, .llama-cpp/bin).

fresh-101 drew one argument at a time; this batch draws PAIRS, so it measures interactions. What was drawn from: every
option line of `llama-server --help` (help_options() parses it: the first `--` name of each line; 256 lines, the same
names as tools/doctor_corpus_fresh101.py's FLAGS, which this file reuses), less fresh-101's EXCLUDED (options that need
network, which this machine lacks, or whose value must name GPU hardware this CPU-only machine lacks).
Procedure (fixed before the draw was printed and before any case ran): PAIRS = {option: [every other option]};
draw_distinct_conditions(2127, PAIRS, 14): r = random.Random(2127), first = r.choice(list(PAIRS)), second =
r.choice(PAIRS[first]); a first option drawn before is drawn anew. For each option of a kept pair, one value that
llama-server accepts ALONE (judged from its help text and llama.cpp's source, not by running): CONCRETE, written after
`--draws` printed the draw and committed before any case ran.
Each case: llama-server -m TINY --port 18621 -c 512 plus the pair's arguments (TINY = tests/engine/make_tiny_gguf.py's
F32 GGUF of tests/engine/make_tiny_model.py's model, in /tmp/fresh127), waited for until /health answers or it exits
(120 s), one POST /completion (n_predict 8) if it answered, then SIGTERM (SIGKILL after 20 s). Case log = the server's
whole stdout+stderr, then `# client:` and the request's status line and first 400 bytes of its body. One server at a
time. Ports 18620-18639.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh127.py [--draws | --help-check | CASE_ID ...]
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load, maker_main, use_ports  # tools/ is on sys.path

PORT = 18621
use_ports(18620, "/tmp/fresh127/tiny-f32.gguf")

F101 = load("doctor_corpus_fresh101", "doctor_corpus_fresh101.py")
F101.PORT = PORT  # its serve() reads the module's PORT
REPO = Path(__file__).resolve().parent.parent
LLAMA = F101.LLAMA
WORK = Path("/tmp/fresh127")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"


def help_options() -> list[str]:
    """The first `--` name of each option line of the real `llama-server --help`."""
    text = subprocess.run([LLAMA, "--help"], capture_output=True, text=True).stdout
    names = []
    for line in text.splitlines():
        if line.startswith("-") and not line.startswith("-----"):
            head = re.split(r"\s{2,}(?=[^\s-])", line, maxsplit=1)[0]
            names.append(re.search(r"--[\w.-]+", head).group(0))
    return names


OPTIONS = [name for name, _ in F101.FLAGS if name not in F101.EXCLUDED]
PAIRS = {first: [second for second in OPTIONS if second != first] for first in OPTIONS}


def draws():
    return draw_distinct_conditions(2127, PAIRS, 14)


def main() -> None:
    if sys.argv[1:2] == ["--help-check"]:
        names = help_options()
        print(
            f"{len(names)} option lines; same names as fresh-101's FLAGS: {names == [n for n, _ in F101.FLAGS]}"
        )
        return
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(F101.FLAGS)} options, {len(F101.EXCLUDED)} excluded, {len(OPTIONS)} drawn from")
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


def makers() -> dict:
    make_files()
    return {
        case_id: (lambda flags=flags: F101.serve(TINY_GGUF, flags, prefix(flags)))
        for case_id, flags in CONCRETE.items()
    }


def make_files() -> None:
    """The files CONCRETE names, each what its option expects for the tiny model (judged from llama.cpp's source):
    a control vector (common/common.cpp common_control_vector_load_one: F32 1-D tensors `direction.<layer>`, layer >= 1,
    n_embd long), a LLaVA-style MLP projector (tools/mtmd/clip.cpp load_hparams / load_tensors: a 1-block ViT on 28x28
    images of 14x14 patches, mm.0 and mm.2 projecting to the text model's n_embd 256), and an empty static n-gram cache
    (common/ngram-cache.cpp common_ngram_cache_load reads entries until the end: none is a valid cache)."""
    import gguf
    import numpy as np

    rng = np.random.default_rng(2127)
    WORK.mkdir(parents=True, exist_ok=True)
    cv = gguf.GGUFWriter(str(CONTROL_VECTOR), "controlvector")
    cv.add_string("controlvector.model_hint", "llama")
    cv.add_uint32("controlvector.layer_count", 2)
    for layer in (1, 2):
        cv.add_tensor(f"direction.{layer}", (rng.standard_normal(256) * 0.01).astype(np.float32))
    write(cv)

    n_embd, n_ff, image, patch, proj = 64, 128, 28, 14, 256
    n_pos = (image // patch) ** 2
    mm = gguf.GGUFWriter(str(MMPROJ), "clip")
    mm.add_string("clip.projector_type", "mlp")
    mm.add_bool("clip.has_vision_encoder", True)
    mm.add_bool("clip.use_gelu", True)
    mm.add_uint32("clip.vision.embedding_length", n_embd)
    mm.add_uint32("clip.vision.feed_forward_length", n_ff)
    mm.add_uint32("clip.vision.block_count", 1)
    mm.add_uint32("clip.vision.projection_dim", proj)
    mm.add_uint32("clip.vision.attention.head_count", 4)
    mm.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-6)
    mm.add_uint32("clip.vision.image_size", image)
    mm.add_uint32("clip.vision.patch_size", patch)
    mm.add_array("clip.vision.image_mean", [0.5, 0.5, 0.5])
    mm.add_array("clip.vision.image_std", [0.5, 0.5, 0.5])

    def t(name: str, *shape: int) -> None:
        mm.add_tensor(name, (rng.standard_normal(shape) * 0.02).astype(np.float32))

    t("v.patch_embd.weight", n_embd, 3, patch, patch)
    t("v.position_embd.weight", n_pos, n_embd)
    for part in ("attn_q", "attn_k", "attn_v", "attn_out"):
        t(f"v.blk.0.{part}.weight", n_embd, n_embd)
        t(f"v.blk.0.{part}.bias", n_embd)
    for part in ("ln1", "ln2"):
        mm.add_tensor(f"v.blk.0.{part}.weight", np.ones(n_embd, dtype=np.float32))
        mm.add_tensor(f"v.blk.0.{part}.bias", np.zeros(n_embd, dtype=np.float32))
    t("v.blk.0.ffn_up.weight", n_ff, n_embd)
    t("v.blk.0.ffn_up.bias", n_ff)
    t("v.blk.0.ffn_down.weight", n_embd, n_ff)
    t("v.blk.0.ffn_down.bias", n_embd)
    t("mm.0.weight", proj, n_embd)
    t("mm.0.bias", proj)
    t("mm.2.weight", proj, proj)
    t("mm.2.bias", proj)
    write(mm)
    LOOKUP_STATIC.write_bytes(b"")


def write(w) -> None:
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def prefix(flags: list[str]) -> str:
    return flags[flags.index("--api-prefix") + 1] if "--api-prefix" in flags else ""


CONTROL_VECTOR = WORK / "control-vector.gguf"
MMPROJ = WORK / "mmproj-tiny.gguf"
LOOKUP_STATIC = WORK / "lookup-static.bin"

# Each drawn pair's concrete values: written after `--draws` printed the draw (commit f2ca467), before any case ran.
# draws 1-2: --spec-ngram-min-hits and --spec-ngram-size-n take NO value llama-server accepts alone (common/arg.cpp:
# their handler is arg_removed(...), whatever the number); each is given a plain number, as a user of an older guide.
CONCRETE: dict[str, list[str]] = {
    "fresh127-llama-yarn-attn-factor-spec-ngram-min-hits": [
        "--yarn-attn-factor",
        "1.0",
        "--spec-ngram-min-hits",
        "1",
    ],
    "fresh127-llama-spec-ngram-size-n-cors-headers": [
        "--spec-ngram-size-n",
        "12",
        "--cors-headers",
        "Content-Type,Authorization",
    ],
    "fresh127-llama-frequency-penalty-reasoning-off": ["--frequency-penalty", "0.5", "--reasoning", "off"],
    "fresh127-llama-log-prompts-dir-list-devices": [
        "--log-prompts-dir",
        str(WORK / "prompts"),
        "--list-devices",
    ],
    "fresh127-llama-mtmd-batch-max-tokens-spec-ngram-mod-n-min": [
        "--mtmd-batch-max-tokens",
        "512",
        "--spec-ngram-mod-n-min",
        "16",
    ],
    "fresh127-llama-spec-type-ngram-simple-special": ["--spec-type", "ngram-simple", "--special"],
    "fresh127-llama-spec-ngram-mod-n-max-threads-http": [
        "--spec-ngram-mod-n-max",
        "96",
        "--threads-http",
        "4",
    ],
    "fresh127-llama-ubatch-size-spec-draft-n-max": ["--ubatch-size", "256", "--spec-draft-n-max", "8"],
    "fresh127-llama-log-disable-control-vector-scaled": [
        "--log-disable",
        "--control-vector-scaled",
        f"{CONTROL_VECTOR}:0.5",
    ],
    "fresh127-llama-xtc-probability-escape": ["--xtc-probability", "0.5", "--escape"],
    "fresh127-llama-video-fps-keep": ["--video-fps", "2", "--keep", "16"],
    "fresh127-llama-perf-special": ["--perf", "--special"],
    "fresh127-llama-mmproj-offload-mmproj": ["--mmproj-offload", "--mmproj", str(MMPROJ)],
    "fresh127-llama-mmproj-auto-lookup-cache-static": [
        "--mmproj-auto",
        "--lookup-cache-static",
        str(LOOKUP_STATIC),
    ],
}

if __name__ == "__main__":
    main()
