"""The ninetieth fresh batch of doctor's corpus (batch "fresh-90"): a SECOND batch of LLAMA.CPP'S CONVERSION AND FILE
TOOLS (convert_hf_to_gguf.py, llama-quantize, llama-gguf-split, then llama-server on what they produced), made to
measure whether what was learnt from fresh-68 (tools/doctor_corpus_fresh68.py, 14 cases, learnt after scoring)
transfers to draws it did not see. Same programs as fresh-68 (llama.cpp 11434.0.0: the sdist's converter run by
.venv-vllm's python with PYTHONPATH=<sdist>/llama.cpp/gguf-py; llama-quantize and llama-gguf-split in
~/.cache/servebox/llama-tools-11434.0.0/; llama-server = tools/doctor-corpus.py's), same inputs made the same way
(fresh-68's prepare(), here under /tmp/fresh90: TINY = tests/engine/make_tiny_model.py's model, TINY_SP = TINY with a
SentencePiece tokenizer.model trained here, F16 / Q8 = the converter's f16 / q8_0 GGUFs of TINY_SP) and fresh-68's case
log format (each command as `$ CMD` and its whole output, then llama-server's log and `# client:` lines).

Conditions (fixed before the draw was printed and before any case ran): fresh-68's 15 conditions with OTHER values than
its 14 draws used (its manifest cases' `how` lines), plus conditions it did not have: llama-quantize's
--token-embedding-type / --output-tensor-type, --pure, --keep-split, an --imatrix file of another model or cut short,
--include-weights / --exclude-weights; llama-gguf-split's --split-max-tensors 0, --dry-run, --merge into an unwritable
folder; the converter's --outtype q8_0 / tq1_0, --vocab-only, --split-max-size, --remote without network, a model folder
with two shard indexes. Read to design it: fresh-68's maker and manifest cases, llama-quantize's and llama-gguf-split's
--help, the converter's --help, and the sdist's common/imatrix-loader.cpp for the legacy imatrix layout (int32 entries;
per entry int32 name length, name, int32 ncall, int32 nval, nval float32; then int32 last call, int32 length, dataset),
which imatrix() below writes (no llama-imatrix was built).

Procedure (the same as fresh-68's, seed 2090); r = random.Random(2090): 14 cases, each drawn in turn: condition =
r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]); a draw whose condition was drawn before is drawn
anew. Values marked "(meant healthy)" and the healthy-pipeline condition are the healthy ones (mean share over
conditions 0.27, about 1 in 4 by design). Each case runs in a fresh folder /tmp/fresh90-run/CASE; its commands run in
order (300 s each, stdout and stderr together, a non-zero exit ends the case); unless one failed, the case ends with
`llama-server -m PRODUCT --port 20501 -c 512` (60 s to /health or exit), one chat (max_tokens 8) if it answered, SIGTERM
(fresh-68's server()). Read-only folders and small tmpfs are made in a private mount namespace (fresh-68's ns()).
Usage (from the repository root; ports 20500-20502 of this batch's range 20500-20599):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh90.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    maker_main,
    use_ports,
)  # tools/ is on sys.path: the makers run as scripts

use_ports(20500)  # before fresh-68's module is loaded (its own use_ports only sets what is not set)

import doctor_corpus_fresh68 as f68  # noqa: E402

# each condition's values, fixed before the draw
CONDITIONS = {
    "converter: architecture in config.json": [
        "architectures = ['Qwen2ForCausalLM'], model_type qwen2 (a model with no q/k/v bias tensors)",
        "architectures a plain string 'LlamaForCausalLM' instead of a list",
        "model_type removed, architectures kept (meant healthy)",
    ],
    "converter: config.json field missing or broken": [
        "num_hidden_layers removed",
        "vocab_size 2048 (the embedding and the tokenizer have 1024)",
        "intermediate_size 1024 (the weights have 512)",
        "num_key_value_heads 3 (does not divide 4 heads)",
    ],
    "converter: tokenizer": [
        "tokenizer.model replaced by an empty file",
        "tokenizer.model plus a tokenizer_config.json cut short",
        "added_tokens.json naming id 5000 (past the vocab)",
        "tokenizer.model plus a tokenizer_config.json that matches it (meant healthy)",
    ],
    "converter: weights": [
        "model.safetensors replaced by an empty file",
        "model.safetensors replaced by a git-lfs pointer file",
        "one tensor (model.layers.1.mlp.down_proj.weight) removed from model.safetensors",
        "one tensor renamed to model.layers.0.mlp.extra_proj.weight (a name the converter does not map)",
        "model.safetensors in 2 shards with model.safetensors.index.json (meant healthy)",
    ],
    "converter: --outtype": [
        "--outtype tq1_0, then llama-server on it",
        "--outtype tq2_0, then llama-server on it",
        "--outtype bf16, then llama-server on it (meant healthy)",
        "--outtype q4_0 (not a choice)",
    ],
    "converter: output path": [
        "--outfile in a missing folder",
        "--outfile in a read-only folder (a read-only bind mount in a private mount namespace)",
        "--outfile an existing directory",
        "--outfile on a 4m tmpfs already 3m full",
        "--outfile model-{ftype}.gguf (the converter fills in the type) (meant healthy)",
    ],
    "converter: --vocab-only": [
        "--vocab-only, then llama-server on it",
        "--vocab-only, then llama-quantize Q4_K_M on it",
        "--vocab-only --outtype q8_0, then llama-server on the full f16 GGUF converted after it (meant healthy)",
    ],
    "converter: --split-max-size": [
        "--split-max-size 1M, then llama-server on part 1 (meant healthy)",
        "--split-max-size 1K",
        "--split-max-size 500K",
        "--split-max-size 1M, then llama-server on part 2",
    ],
    "converter: --remote without network": [
        "--remote HuggingFaceTB/SmolLM2-135M-Instruct (this machine has no network)",
        "--remote HuggingFaceTB/SmolLM2-135M-Instruct with HF_HUB_OFFLINE=1",
    ],
    "converter: a model folder with two shard indexes": [
        "model.safetensors.index.json with 2 safetensors shards and pytorch_model.bin.index.json with 2 .bin shards",
        "model.safetensors.index.json with its 2 shards and a stray model.safetensors (the whole model) beside them",
    ],
    "llama-quantize: type name": [
        "q4_k_m (lower case)",
        "Q4_0_4_4 (a type llama.cpp dropped)",
        "15 (Q4_K_M's number) (meant healthy)",
        "Q4_K (an alias it lists for Q4_K_M) (meant healthy)",
    ],
    "llama-quantize: requantize": [
        "the Q8_0 GGUF to Q4_K_M without --allow-requantize",
        "the f16 GGUF to Q4_K_M, then that Q4_K_M GGUF to Q8_0 without --allow-requantize",
        "the Q8_0 GGUF to Q8_0 without --allow-requantize",
        "the Q8_0 GGUF to Q4_K_M with --allow-requantize --leave-output-tensor (meant healthy)",
    ],
    "llama-quantize: importance matrix": [
        "IQ2_XXS without --imatrix",
        "Q2_K_S without --imatrix",
        "IQ2_XS with --imatrix naming a missing file",
        "IQ3_XXS without --imatrix",
        "IQ4_NL without --imatrix (meant healthy)",
    ],
    "llama-quantize: --imatrix file": [
        "an imatrix of another model (hidden 128: every entry's size differs)",
        "an imatrix cut short (half its bytes)",
        "an imatrix of this model, IQ2_XS (meant healthy)",
    ],
    "llama-quantize: --include-weights / --exclude-weights": [
        "--include-weights a name no tensor has, IQ2_XS with an imatrix of this model",
        "--include-weights and --exclude-weights together",
        "--exclude-weights blk.0.attn_q.weight, IQ4_XS with an imatrix of this model (meant healthy)",
    ],
    "llama-quantize: tensor type options": [
        "--token-embedding-type q4_k_xl (no such type)",
        "--output-tensor-type iq2_xxs without an imatrix",
        "--output-tensor-type q8_0 --token-embedding-type q8_0, Q4_K_M (meant healthy)",
        "--pure Q4_K_M (meant healthy)",
    ],
    "llama-quantize: --keep-split": [
        "--keep-split on a 3-part split input, then llama-server on part 1 (meant healthy)",
        "--keep-split on a 3-part split input given part 2",
        "--keep-split on a single file, then llama-server on the output name",
    ],
    "llama-quantize: input not a GGUF": [
        "the input is model.safetensors",
        "the input is an empty file",
        "the input is the HF model directory",
    ],
    "llama-quantize: argument order": [
        "the type before the files: llama-quantize Q4_K_M IN OUT",
        "the thread count before the type: llama-quantize IN OUT 2 Q4_K_M",
        "the output named the same as the input",
        "the thread count after the type: llama-quantize IN OUT Q4_K_M 2 (meant healthy)",
    ],
    "llama-gguf-split: --split": [
        "--split-max-size 500K (a unit it does not take)",
        "--split-max-tensors 0",
        "--split-max-size 1M with GGUF_OUT model.gguf, then llama-server -m model.gguf",
        "--dry-run, then llama-server on the part 1 it planned",
        "--split-max-tensors 8, then llama-server on part 1 (meant healthy)",
    ],
    "llama-gguf-split: --merge": [
        "--merge with part 2 of 3 removed",
        "--merge given part 2 as GGUF_IN",
        "--merge onto an output file that exists",
        "--merge into an unwritable folder (a read-only bind mount in a private mount namespace)",
        "--merge of a --split-max-tensors 8 split, then llama-server on the merged file (meant healthy)",
    ],
    "converter, healthy pipeline": [
        "convert --outtype bf16, llama-quantize Q4_K_M, then llama-server on it",
        "convert --outtype f16, llama-gguf-split --split-max-size 1M, llama-quantize --keep-split Q8_0, serve part 1",
        "convert --outtype q8_0 --outfile model.gguf into a subfolder, then llama-server on it",
    ],
    "llama-server on a file the tools produced": [
        "a GGUF the converter wrote with --bigendian",
        "part 2 of a gguf-split split given as -m",
        "a GGUF the converter wrote with --outtype auto (meant healthy)",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2090, CONDITIONS, 14)


TMP = Path("/tmp/fresh90-run")
f68.PREP = Path("/tmp/fresh90")  # fresh-68's prepare() makes TINY_SP, F16 and Q8 here

RENAME = """
import sys
from safetensors.torch import load_file, save_file
path, old, new = sys.argv[1:4]
tensors = load_file(path)
tensors[new] = tensors.pop(old)
save_file(tensors, path, metadata={"format": "pt"})
"""


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order (written after the draw was printed; the draw's number in the name)."""
    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    conv_env = {**base, "PYTHONPATH": f68.GGUF_PY}
    QUANTIZE, SPLIT = f68.QUANTIZE, f68.SPLIT

    def inputs() -> tuple[Path, Path, Path]:
        return f68.prepare(tiny, conv_env)

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def convert(*args: str) -> list[str]:
        return [f68.VENV_PY, f68.CONVERT, *args]

    def pipeline(d: Path, steps: list, serve=None) -> str:
        """fresh-68's pipeline: each step in order, stopping at a failure; then llama-server on SERVE."""
        text = ""
        for step in steps:
            argv = step() if callable(step) else step
            env = conv_env if f68.CONVERT in argv else base
            out, rc = f68.command(argv, d, env)
            text += out
            if rc != 0:
                return text
        if serve is not None:
            text += f68.server(h, serve() if callable(serve) else serve, d, base)
        return text

    def model_copy(d: Path) -> Path:
        tiny_sp, _, _ = inputs()
        shutil.copytree(tiny_sp, d / "model")
        return d / "model"

    def gguf_copy(d: Path, which: str) -> str:
        _, f16, q8 = inputs()
        name = {"f16": "model-f16.gguf", "q8_0": "model-q8_0.gguf"}[which]
        shutil.copyfile(f16 if which == "f16" else q8, d / name)
        return name

    def first(d: Path, pattern: str, default: str):
        def find() -> str:
            found = sorted(p.name for p in d.glob(pattern))
            return found[0] if found else default

        return find

    def f16_convert(*extra: str) -> list[str]:
        return convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16", *extra)

    def d1_split_max_size_500k() -> str:
        d = case_dir("convert-split-max-size-500k")
        model_copy(d)
        steps = [f16_convert("--split-max-size", "500K")]
        return pipeline(d, steps, first(d, "model-f16-00001-of-*.gguf", "model-f16-00001-of-00001.gguf"))

    def d2_token_embedding_type_unknown() -> str:
        d = case_dir("token-embedding-type-unknown")
        src = gguf_copy(d, "f16")
        steps = [[QUANTIZE, "--token-embedding-type", "q4_k_xl", src, "model-Q4_K_M.gguf", "Q4_K_M"]]
        return pipeline(d, steps, "model-Q4_K_M.gguf")

    def d3_outtype_q4_0() -> str:
        d = case_dir("outtype-q4-0")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-q4_0.gguf", "--outtype", "q4_0")]
        return pipeline(d, steps, "model-q4_0.gguf")

    def d4_tokenizer_config_cut_short() -> str:
        d = case_dir("tokenizer-config-cut-short")
        m = model_copy(d)
        config = {
            "add_bos_token": True,
            "add_eos_token": False,
            "bos_token": "<s>",
            "eos_token": "</s>",
            "unk_token": "<unk>",
            "model_max_length": 2048,
            "tokenizer_class": "LlamaTokenizer",
            "clean_up_tokenization_spaces": False,
        }
        text = json.dumps(config, indent=2)
        (m / "tokenizer_config.json").write_text(text[: len(text) // 2])
        return pipeline(d, [f16_convert()], "model-f16.gguf")

    def d5_vocab_only_then_quantize() -> str:
        d = case_dir("vocab-only-then-quantize")
        model_copy(d)
        steps = [
            convert("model", "--vocab-only", "--outfile", "model-vocab.gguf", "--outtype", "f16"),
            [QUANTIZE, "model-vocab.gguf", "model-Q4_K_M.gguf", "Q4_K_M"],
        ]
        return pipeline(d, steps, "model-Q4_K_M.gguf")

    def d6_outtype_auto() -> str:
        d = case_dir("outtype-auto")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-auto.gguf", "--outtype", "auto")]
        return pipeline(d, steps, "model-auto.gguf")

    def d7_quantize_input_directory() -> str:
        d = case_dir("quantize-input-directory")
        model_copy(d)
        return pipeline(d, [[QUANTIZE, "model", "model-Q4_K_M.gguf", "Q4_K_M"]], "model-Q4_K_M.gguf")

    def d8_quant_type_q4_0_4_4() -> str:
        d = case_dir("quant-type-q4-0-4-4")
        src = gguf_copy(d, "f16")
        return pipeline(d, [[QUANTIZE, src, "model-Q4_0_4_4.gguf", "Q4_0_4_4"]], "model-Q4_0_4_4.gguf")

    def d9_tensor_renamed() -> str:
        d = case_dir("tensor-renamed")
        m = model_copy(d)
        old, new = "model.layers.0.mlp.down_proj.weight", "model.layers.0.mlp.extra_proj.weight"
        subprocess.run([f68.VENV_PY, "-c", RENAME, str(m / "model.safetensors"), old, new], check=True)
        return pipeline(d, [f16_convert()], "model-f16.gguf")

    def d10_requantize_leave_output() -> str:
        d = case_dir("requantize-leave-output")
        src = gguf_copy(d, "q8_0")
        steps = [
            [QUANTIZE, "--allow-requantize", "--leave-output-tensor", src, "model-Q4_K_M.gguf", "Q4_K_M"]
        ]
        return pipeline(d, steps, "model-Q4_K_M.gguf")

    def d11_split_tensors_merge() -> str:
        d = case_dir("split-tensors-merge")
        src = gguf_copy(d, "f16")
        part1 = first(d, "tiny-split-00001-of-*.gguf", "tiny-split-00001-of-00001.gguf")
        steps = [
            [SPLIT, "--split", "--split-max-tensors", "8", src, "tiny-split"],
            lambda: [SPLIT, "--merge", part1(), "tiny-merged.gguf"],
        ]
        return pipeline(d, steps, "tiny-merged.gguf")

    def d12_iq2_xxs_no_imatrix() -> str:
        d = case_dir("iq2-xxs-no-imatrix")
        src = gguf_copy(d, "f16")
        return pipeline(d, [[QUANTIZE, src, "model-IQ2_XXS.gguf", "IQ2_XXS"]], "model-IQ2_XXS.gguf")

    def d13_outfile_ftype_template() -> str:
        d = case_dir("outfile-ftype-template")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-{ftype}.gguf", "--outtype", "f16")]
        return pipeline(d, steps, first(d, "model-*.gguf", "model-f16.gguf"))

    def d14_qwen2_architecture() -> str:
        d = case_dir("qwen2-architecture")
        m = model_copy(d)
        cfg = json.loads((m / "config.json").read_text())
        cfg["architectures"], cfg["model_type"] = ["Qwen2ForCausalLM"], "qwen2"
        (m / "config.json").write_text(json.dumps(cfg, indent=2))
        return pipeline(d, [f16_convert()], "model-f16.gguf")

    return {
        "fresh90-llama-convert-split-max-size-500k": d1_split_max_size_500k,
        "fresh90-llama-quantize-token-embedding-type-unknown": d2_token_embedding_type_unknown,
        "fresh90-llama-convert-outtype-q4-0": d3_outtype_q4_0,
        "fresh90-llama-convert-tokenizer-config-cut-short": d4_tokenizer_config_cut_short,
        "fresh90-llama-convert-vocab-only-then-quantize": d5_vocab_only_then_quantize,
        "fresh90-llama-convert-outtype-auto-then-serve": d6_outtype_auto,
        "fresh90-llama-quantize-input-model-directory": d7_quantize_input_directory,
        "fresh90-llama-quantize-type-q4-0-4-4": d8_quant_type_q4_0_4_4,
        "fresh90-llama-convert-tensor-renamed": d9_tensor_renamed,
        "fresh90-llama-quantize-requantize-leave-output-tensor": d10_requantize_leave_output,
        "fresh90-llama-gguf-split-tensors-merge-then-serve": d11_split_tensors_merge,
        "fresh90-llama-quantize-iq2-xxs-without-imatrix": d12_iq2_xxs_no_imatrix,
        "fresh90-llama-convert-outfile-ftype-template": d13_outfile_ftype_template,
        "fresh90-llama-convert-qwen2-architecture": d14_qwen2_architecture,
    }


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh90/tiny")


if __name__ == "__main__":
    main()
