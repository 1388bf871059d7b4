"""What the scored batch fresh-233 (generation settings on both engines, 3rd round) taught after scoring, with the
neighbourhood of each miss's check in vLLM 0.32's own source.

- request-structured-output-constraints-conflict: sampling_params.py StructuredOutputsParams.__post_init__ refuses
  count > 1 and count < 1 of one count, so 'none are specified' is this family's (it was request-field-value-not-allowed's,
  a confident wrong); the content checks of _validate_structured_outputs stay there.
- request-sampling-param-out-of-range: validate_thinking_token_budget with an integer value; _validate_logprobs'
  prompt_logprob_start and _verify_extra_args' 64-bit bound.
- request-field-missing: protocol.py validate_response_format, response_format json_schema without its json_schema.
- request-json-schema-invalid: sampling_params.py check_json_nesting, a schema nested past vLLM's limit.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
ASK = "# request: POST http://127.0.0.1:8000/v1/completions {...}\nHTTP/1.1 400 Bad Request\n"
TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/run.py", line 9, in <module>\n'
    "    params = SamplingParams(structured_outputs=StructuredOutputsParams())\n"
)
FIELDS = (
    "{'json': None, 'regex': None, 'choice': None, 'grammar': None, 'json_object': None, "
    "'disable_any_whitespace': False, 'disable_additional_properties': False, 'whitespace_pattern': None, "
    "'structural_tag': None, '_backend': None, '_backend_was_auto': False}"
)
BUDGET = "`thinking_token_budget` must be a non-negative integer or -1 for unlimited."

CASES = [
    # StructuredOutputsParams() with no constraint in the Python API (rendered from __post_init__'s format string)
    (
        "request-structured-output-constraints-conflict",
        TB
        + "vllm.exceptions.VLLMValidationError: You must use one kind of structured outputs constraint but none "
        "are specified: " + FIELDS + "\n",
    ),
    # ... on /v1/completions with every constraint null (rendered)
    (
        "request-structured-output-constraints-conflict",
        ASK
        + REPLY.format(
            msg="You must use one kind of structured outputs constraint but none are specified: " + FIELDS,
            param="null",
        ),
    ),
    # its twin, more than one (rendered), still the same family
    (
        "request-structured-output-constraints-conflict",
        ASK
        + REPLY.format(
            msg="You can only use one kind of structured outputs constraint but multiple are specified: "
            + FIELDS.replace("'regex': None", "'regex': '[a-z]+'").replace(
                "'choice': None", "'choice': ['a']"
            ),
            param="null",
        ),
    ),
    # validate_thinking_token_budget on /v1/completions with another negative integer (rendered)
    (
        "request-sampling-param-out-of-range",
        ASK
        + REPLY.format(
            msg=BUDGET + " (parameter=thinking_token_budget, value=-2)", param='"thinking_token_budget"'
        ),
    ),
    # ... raised by SamplingParams in the Python API (rendered)
    (
        "request-sampling-param-out-of-range",
        TB
        + "vllm.exceptions.VLLMValidationError: "
        + BUDGET
        + " (parameter=thinking_token_budget, value=-10)\n",
    ),
    # _validate_logprobs and _verify_extra_args (rendered)
    (
        "request-sampling-param-out-of-range",
        ASK
        + REPLY.format(
            msg="prompt_logprob_start must be non-negative. (parameter=prompt_logprob_start, value=-3)",
            param='"prompt_logprob_start"',
        ),
    ),
    (
        "request-sampling-param-out-of-range",
        ASK
        + REPLY.format(
            msg="extra_args integers must be between -2**63 and 2**64 - 1. (parameter=extra_args)",
            param='"extra_args"',
        ),
    ),
    # validate_response_format (rendered)
    (
        "request-field-missing",
        ASK
        + REPLY.format(
            msg="When response_format type is 'json_schema', the 'json_schema' field must be provided. "
            "(parameter=response_format)",
            param='"response_format"',
        ),
    ),
    # check_json_nesting (rendered with another limit): a schema the server will not compile
    (
        "request-json-schema-invalid",
        ASK
        + REPLY.format(
            msg="The JSON schema is nested too deeply: objects and arrays may nest at most 32 levels",
            param="null",
        ),
    ),
    # the same budget words with a float are the wrong type, not out of range (after30f)
    (
        "request-field-wrong-type",
        ASK
        + REPLY.format(
            msg=BUDGET + " (parameter=thinking_token_budget, value=10.5)", param='"thinking_token_budget"'
        ),
    ),
]

NEAR_MISSES = [
    # no-constraint is no longer a value outside a set
    (
        "request-field-value-not-allowed",
        ASK
        + REPLY.format(
            msg="You must use one kind of structured outputs constraint but none are specified: " + FIELDS,
            param="null",
        ),
    ),
    # an empty choice list is a content check (_validate_structured_outputs), not a count of constraints
    (
        "request-structured-output-constraints-conflict",
        ASK + REPLY.format(msg="Choice '[]' cannot be an empty list", param="null"),
    ),
    # json_object false is counted as a constraint and refused by its own content check
    (
        "request-structured-output-constraints-conflict",
        ASK
        + REPLY.format(
            msg="structured_outputs.json_object must be True if set; omit structured_outputs to disable structured "
            "outputs",
            param="null",
        ),
    ),
    # a boolean budget is the wrong type, not out of range
    (
        "request-sampling-param-out-of-range",
        ASK
        + REPLY.format(
            msg=BUDGET + " (parameter=thinking_token_budget, value=True)", param='"thinking_token_budget"'
        ),
    ),
    # a budget without a reasoning parser is another family
    (
        "request-sampling-param-out-of-range",
        ASK
        + REPLY.format(
            msg="thinking_token_budget is set but reasoning_config is not configured. Please set --reasoning-parser "
            "and/or --reasoning-config to use thinking_token_budget.",
            param="null",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
