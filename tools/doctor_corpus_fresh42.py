"""The forty-second fresh batch of doctor's corpus (batch "fresh-42"): ADAPTERS AND AUXILIARY MODELS a user adds to
a base model, on the real engines, DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch measures
doctor on what that procedure produces (fresh-20 drew flags, fresh-23 mistakes around the engine, fresh-25 model
files, fresh-31 requests and running-server events, fresh-35 the process environment, fresh-38 chat templates and
generation settings).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2042):
  14 cases, each drawn in turn: engine = r.choice(("vllm", "llama")); condition = r.choice(list(CONDITIONS[engine]));
  value = r.choice(CONDITIONS[engine][condition]). A draw whose (engine, condition) was drawn before is drawn anew
  (all three, same r). A condition is an auxiliary file (a LoRA adapter; a draft model / speculative method; a
  projector) in one state: missing, corrupt (truncated, wrong format, a file of the wrong kind), mismatched with the
  base, or healthy, so about 1 in 4 conditions (and draws) is healthy.
  The files are made here, small and real: the base models are tests/engine/make_tiny_model.py's tiny Llama (vLLM;
  hidden 256, 2 layers, vocab ~1024) and tests/engine/make_tiny_gguf.py's GGUF of it (llama-server). A vLLM LoRA
  adapter is a PEFT directory (adapter_config.json + adapter_model.safetensors, tensors
  base_model.model.model.layers.N.self_attn.{q,v}_proj.lora_{A,B}.weight, rank 8, alpha 16) written with
  safetensors; a llama.cpp LoRA is a GGUF (general.type adapter, adapter.type lora, adapter.lora.alpha,
  blk.N.attn_{q,v}.weight.lora_{a,b}); a draft model is a copy of the base (vLLM: the tiny Llama directory; llama:
  the tiny GGUF), or a variant of it made the same way; a projector is a GGUF of general.architecture clip.
  Each case: the engine started with the condition and the flags a user would use (vLLM: api_server --model TINY
  --port P --max-model-len 512 [+ --enable-lora --lora-modules NAME=PATH | --speculative-config JSON]; llama-server
  -m GGUF --port P -c 512 [+ --lora / --lora-scaled | -md DRAFT --draft-max N | --mmproj FILE]), waited for until
  /health answers or it exits (vLLM 420 s, llama-server 60 s), then one request (chat, max_tokens 8; the model field
  names the adapter where the condition is about a vLLM LoRA adapter) if it answered, then SIGTERM to its process
  group (SIGKILL after 30 s). Case log = the engine's whole log (stdout and stderr together), then `# client:` and
  the response's status line and first 400 bytes (as fresh-35).
  Environment: tools/doctor-corpus.py's ENV (VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1).
Usage (from the repository root; ports 18600-18601 of this batch's range 18600-18699):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh42.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import random
import sys

# each engine's conditions and each condition's values, fixed before the draw
CONDITIONS = {
    "vllm": {
        "LoRA adapter missing": [
            "--lora-modules ada=PATH where PATH does not exist",
            "adapter directory without adapter_model.safetensors (only adapter_config.json)",
            "adapter directory without adapter_config.json (only adapter_model.safetensors)",
        ],
        "LoRA adapter corrupt": [
            "adapter_model.safetensors truncated to half its bytes",
            "adapter_config.json truncated (not valid JSON)",
            "adapter_model.safetensors is a GGUF file (wrong format)",
        ],
        "LoRA adapter mismatched": [
            "rank 64, above the default --max-lora-rank",
            "adapter made for hidden size 512 (base 256)",
            "target_modules names modules the base lacks (c_attn, c_proj)",
        ],
        "LoRA adapter healthy": [
            "rank 8 on q_proj,v_proj, --max-loras 1",
            "rank 16 on q_proj,k_proj,v_proj,o_proj, --max-lora-rank 16",
        ],
        "draft model missing": [
            '--speculative-config {"model": PATH, "num_speculative_tokens": 3}, PATH does not exist',
            "draft directory with config.json but no weights",
        ],
        "draft model corrupt": [
            "draft model.safetensors truncated to half its bytes",
            "draft config.json truncated (not valid JSON)",
        ],
        "draft model mismatched": [
            "draft with vocab_size 2048 (base ~1024)",
            "draft with max_position_embeddings 128 (below --max-model-len 512)",
        ],
        "speculative healthy": [
            '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}',
            '{"model": a copy of the base, "num_speculative_tokens": 2}',
        ],
    },
    "llama": {
        "LoRA adapter missing": ["--lora PATH, PATH does not exist", "--lora-scaled PATH 0.5, PATH does not exist"],
        "LoRA adapter corrupt": [
            "LoRA GGUF truncated to half its bytes",
            "a PEFT adapter_model.safetensors given as --lora (wrong format)",
            "the base model GGUF given as --lora (a GGUF of the wrong kind)",
        ],
        "LoRA adapter mismatched": [
            "LoRA GGUF made for hidden size 512 (base 256)",
            "LoRA GGUF of general.architecture qwen2 (base llama)",
        ],
        "LoRA adapter healthy": ["--lora LORA.gguf", "--lora-scaled LORA.gguf 0.5"],
        "draft model missing": ["-md PATH --draft-max 4, PATH does not exist"],
        "draft model corrupt": [
            "draft GGUF truncated to half its bytes",
            "a text file given as -md (wrong format)",
        ],
        "draft model mismatched": [
            "draft GGUF with a vocabulary of 2048 tokens (base ~1024)",
            "draft GGUF whose token texts differ from the base's",
        ],
        "draft model healthy": ["-md COPY-OF-BASE.gguf --draft-max 4", "-md COPY-OF-BASE.gguf --draft-max 8 --draft-min 1"],
        "projector missing": ["--mmproj PATH, PATH does not exist"],
        "projector corrupt": [
            "projector GGUF truncated to half its bytes",
            "the base model GGUF given as --mmproj (a GGUF of the wrong kind)",
        ],
        "projector mismatched": ["clip projector whose output size is 512 (base hidden 256)"],
        "projector healthy": ["clip projector whose output size is 256 (the base's hidden size)"],
    },
}


def draws() -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str, str]]]:
    """The 14 kept draws (engine, condition, value), and every draw made anew with its reason."""
    r = random.Random(2042)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < 14:
        engine = r.choice(("vllm", "llama"))
        condition = r.choice(list(CONDITIONS[engine]))
        value = r.choice(CONDITIONS[engine][condition])
        if any((engine, condition) == (e, c) for e, c, _ in kept):
            redrawn.append((engine, condition, value, "(engine, condition) drawn before"))
        else:
            kept.append((engine, condition, value))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {' | '.join(d)}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    raise SystemExit("the makers are added after the draw is committed")


if __name__ == "__main__":
    main()
