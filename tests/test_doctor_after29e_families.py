"""What the scored batch fresh-74 (public vLLM threads sampled by the exception type the user saw) taught after it
was scored: each miss's family widened by the class of its wording.

Each log is written in ANOTHER wording than its corpus log (another framework, version or class, from the engine's
source or a train-side thread), so the test checks the class of wording, not the one line it was learnt from; the
near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # vllm-internal-module-moved (fresh-74's LlamaFactory use_beam_search): a framework passing SamplingParams a keyword
    # the installed vLLM never had or dropped -- the plain-class wording of vLLM < 0.6 (litellm#1134, train) ...
    (
        "vllm-internal-module-moved",
        '  File "/home/u/miniconda3/envs/llm/lib/python3.10/site-packages/litellm/llms/vllm.py", line 60, in completion\n'
        "    sampling_params = SamplingParams(**optional_params)\n"
        "TypeError: SamplingParams.__init__() got an unexpected keyword argument 'max_retries'\n",
    ),
    # ... msgspec's wording (SamplingParams is a msgspec Struct since 0.6) under another framework's frame and prefix
    # (FastChat's vllm_worker.py building SamplingParams, FastChat#3600, train; here best_of, which vLLM 0.7 dropped)
    (
        "vllm-internal-module-moved",
        "2025-01-02 10:00:00 | ERROR | stderr |   File "
        '"/usr/local/lib/python3.10/dist-packages/fastchat/serve/vllm_worker.py", line 106, in generate_stream\n'
        "2025-01-02 10:00:00 | ERROR | stderr |     sampling_params = SamplingParams(\n"
        "2025-01-02 10:00:00 | ERROR | stderr | TypeError: Unexpected keyword argument 'best_of'\n",
    ),
    # ... and LLM's entry point: vLLM 0.10.2 removed LLM.generate(prompt_token_ids=...) (vllm PR 18800; ROLL PR 189,
    # train: 'TypeError: LLM.generate() got an unexpected keyword argument 'prompt_token_ids'')
    (
        "vllm-internal-module-moved",
        "TypeError: LLM.generate() got an unexpected keyword argument 'prompt_token_ids'\n",
    ),
    # unknown-architecture (fresh-74's StableLM-alpha, the head alone): vLLM 0.8's automatic Transformers fallback,
    # its full refusal (model_loader/utils.py resolve_transformers_fallback), no --model-impl in view
    (
        "unknown-architecture",
        "ValueError: InternLM3ForCausalLM has no vLLM implementation and the Transformers implementation is not "
        "compatible with vLLM.\n",
    ),
    # transformers-impl-unavailable: the same refusal's head where --model-impl transformers is in view
    (
        "transformers-impl-unavailable",
        "INFO 03-19 10:00:00 api_server.py:912] args: Namespace(model='org/odd-7b', model_impl='transformers')\n"
        "ExaoneForCausalLM has no vLLM implementation\n",
    ),
]

NEAR_MISSES = [
    # a Hugging Face model's own generate() refusing vLLM's keyword is not vLLM's signature
    (
        "vllm-internal-module-moved",
        "TypeError: GenerationMixin.generate() got an unexpected keyword argument 'prompt_token_ids'\n",
    ),
    # any other class refusing a keyword
    (
        "vllm-internal-module-moved",
        "TypeError: TrainingArguments.__init__() got an unexpected keyword argument 'evaluation_strategy'\n",
    ),
    # the fallback's INFO line (vLLM 0.32's model_loader/utils.py) is no refusal: the model serves through Transformers
    (
        "unknown-architecture",
        "WARNING 12-01 10:00:00 [utils.py:313] Qwen9ForCausalLM has no vLLM implementation, falling back to "
        "Transformers implementation. Some features may not be supported and performance may not be optimal.\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
