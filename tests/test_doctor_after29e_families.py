"""What the scored batch fresh-74 (public vLLM threads sampled by the exception type the user saw) taught after it
was scored: each miss's family widened by the class of its wording.

Each log is written in ANOTHER wording than its corpus log (another framework, version or class, from the engine's
source or a train-side thread), so the test checks the class of wording, not the one line it was learnt from; the
near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

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


# ---- engine-feature-defect beyond the feature rows (fresh-74's three engine defects): an invariant failing in vLLM's
# own code under a path no row names is read as that code's defect, below a row's confidence, never over a family
def _top(log: str):
    return top_cause(run(log))


def test_an_assertion_in_vllms_own_core_code_is_its_defect():
    # vLLM 0.32's v1/core/sched/scheduler.py (an assert with its own message), in the V1 engine core's log format
    log = (
        "(EngineCore_DP0 pid=88) ERROR 12-01 10:00:00 [core.py:866] Traceback (most recent call last):\n"
        '(EngineCore_DP0 pid=88) ERROR 12-01 10:00:00 [core.py:866]   File "/opt/venv/lib/python3.12/site-packages/'
        'vllm/v1/core/sched/scheduler.py", line 2621, in add_request\n'
        "(EngineCore_DP0 pid=88) ERROR 12-01 10:00:00 [core.py:866]     assert existing.streaming_queue is not None\n"
        "(EngineCore_DP0 pid=88) ERROR 12-01 10:00:00 [core.py:866] AssertionError: duplicate request id\n"
    )
    top = _top(log)
    assert top.id == "engine-feature-defect" and top.confidence < 0.5, (top.id, top.confidence)
    assert "scheduler" in top.cause


def test_a_recursion_logged_before_its_traceback_reads_the_frame_below():
    # vLLM 0.6's multiprocessing engine logs repr(e) first and the traceback after it (engine.py's logger.exception);
    # RecursionError's wording is Python's own
    log = (
        "ERROR 11-06 16:00:35 engine.py:158] RecursionError('maximum recursion depth exceeded')\n"
        "ERROR 11-06 16:00:35 engine.py:158] Traceback (most recent call last):\n"
        'ERROR 11-06 16:00:35 engine.py:158]   File "/usr/lib/python3.10/site-packages/vllm/core/scheduler.py", line 1180, in schedule\n'
        "ERROR 11-06 16:00:35 engine.py:158]     scheduler_outputs = self._schedule()\n"
    )
    top = _top(log)
    assert top.id == "engine-feature-defect", top.id
    assert run(log).exception.raised_in == "vllm/core/scheduler.py:1180"


def test_a_setting_named_in_the_message_is_not_read_as_a_defect():
    # a transformers config class lacking an attribute vLLM's model file reads is a version or checkpoint matter
    log = (
        'ERROR 01-02 10:00:00 [core.py:700]   File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/models/'
        'llama.py", line 160, in __init__\n'
        "ERROR 01-02 10:00:00 [core.py:700] AttributeError: 'LlamaConfig' object has no attribute 'rope_theta'\n"
    )
    assert _top(log).id != "engine-feature-defect"


def test_a_user_script_assertion_is_not_vllms():
    log = '  File "/home/u/bench.py", line 12, in main\n    assert ok\nAssertionError: outputs differ\n'
    assert _top(log).id != "engine-feature-defect"


def test_other_invariants_in_vllms_own_code_name_their_module():
    # vLLM 0.32's v1/worker/gpu_model_runner.py assert, and Python's AttributeError wording from a layer's file (a
    # layer whose forward reads an attribute its __init__ never set), each in a worker's log prefix
    prefix = "(Worker_TP0 pid=9) ERROR 12-01 10:00:00 [multiproc_executor.py:863] "
    runner = (
        f'{prefix}  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 6694, in '
        f"initialize_attn_backend\n{prefix}AssertionError: Attention backends are already initialized\n"
    )
    layer = (
        f'{prefix}  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/activation.py", line 88, in '
        f"forward_cuda\n{prefix}AttributeError: 'SiluAndMul' object has no attribute 'op'\n"
    )
    for log, module in ((runner, "gpu_model_runner"), (layer, "activation")):
        top = _top(log)
        assert top.id == "engine-feature-defect" and module in top.cause, (top.id, top.cause)
