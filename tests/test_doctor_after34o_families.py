"""What after34o learnt from fresh-191's misses, after scoring.

- start_defaults.set_at_start (a general mechanism): a refused value and the start-up line's value agree where both are
  NaN (NaN is never equal to itself, so 'repetition_penalty must be a finite number, got nan.' beside
  `{'repetition_penalty': nan}` did not hand the refusal to generation-config-invalid), where both are the same
  infinity, and where the refusal names no number (a type's name: 'top_k must be an integer, got str').
- override-generation-config-invalid (new; fresh-191's new:override-generation-config-wrong-type): a sampling
  default given by --override-generation-config that cannot be used, a string (read from vLLM's 'non-default args:'
  line, or a command line's JSON) or a number out of range (set_at_start's `flag`: the flag's line lists the refused
  field; max_tokens is the flag's max_new_tokens). vLLM 0.32's warning says the model's generation_config.json set
  it either way; the file is untouched, so generation-config-invalid's fix does not reach it.
- generation-config-invalid widened: transformers' validate() comparing an id field with 0 ("TypeError: '<' not
  supported between instances of 'str' and 'int'", generation/configuration_utils.py) where the log shows vLLM
  reading the file (try_get_generation_config / GenerationConfig.from_pretrained).

Each log is written in another wording than its corpus log (other fields, values, versions' lines).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

UP = "INFO:     Started server process [4242]\nINFO:     Application startup complete.\n"


def _defaults(fields: str) -> str:
    return (
        "(APIServer pid=9) WARNING 03-04 10:00:00 [model.py:1893] Default vLLM sampling parameters have been "
        f"overridden by the model's `generation_config.json`: `{fields}`. If this is not intended, please relaunch "
        "vLLM instance with `--generation-config vllm`.\n"
    )


def _args(extra: str) -> str:
    return (
        "(APIServer pid=9) INFO 03-04 09:59:59 [api_utils.py:286] non-default args: {'model': '/srv/m', "
        f"'max_model_len': 4096{extra}}}\n"
    )


def _refused(message: str) -> str:
    return f'{{"error":{{"message":"{message}","type":"BadRequestError","param":null,"code":400}}}}\n'


TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/config/model.py", line 1825, in try_get_generation_config\n'
    "    config = try_get_generation_config(\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/generation/configuration_utils.py", line 1121, '
    "in from_pretrained\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/generation/configuration_utils.py", line 690, '
    "in validate\n"
    "    if self.eos_token_id is not None and self.eos_token_id < 0:\n"
)

CASES = [
    # NaN: a presence_penalty NaN in the file, refused by SamplingParams
    (
        "generation-config-invalid",
        _defaults("{'presence_penalty': nan}")
        + UP
        + _refused("presence_penalty must be a finite number, got nan."),
    ),
    # inf: temperature Infinity in the file
    (
        "generation-config-invalid",
        _defaults("{'temperature': inf, 'top_p': 0.9}")
        + UP
        + _refused("temperature must be in [0, 2], got inf."),
    ),
    # a refusal naming a type, not a number
    (
        "generation-config-invalid",
        _defaults("{'top_k': 12.5}") + UP + _refused("top_k must be an integer, got float."),
    ),
    # the override flag, a quoted temperature, as a command line shows it
    (
        "override-generation-config-invalid",
        '$ vllm serve /srv/m --override-generation-config \'{"temperature": "0.6", "top_p": 0.9}\'\n'
        + _defaults("{'temperature': '0.6', 'top_p': 0.9}")
        + UP
        + _refused("'<' not supported between instances of 'str' and 'int'"),
    ),
    # the override flag, a number out of range, as vLLM's non-default args line prints it
    (
        "override-generation-config-invalid",
        _args(", 'override_generation_config': {'min_p': 1.5}")
        + _defaults("{'min_p': 1.5}")
        + UP
        + _refused("min_p must be in [0, 1], got 1.5."),
    ),
    # max_tokens refused, the flag's max_new_tokens
    (
        "override-generation-config-invalid",
        _args(", 'override_generation_config': {'max_new_tokens': 0}")
        + _defaults("{'max_tokens': 0}")
        + UP
        + _refused("max_tokens must be at least 1, got 0."),
    ),
    # transformers' validate(): an eos_token_id string in the file, vLLM reading it at start
    (
        "generation-config-invalid",
        TRACE + "TypeError: '<' not supported between instances of 'str' and 'int'\n",
    ),
]

NEAR_MISSES = [
    # an override of a field vLLM does not take, with the server up: nothing failed
    ("override-generation-config-invalid", _args(", 'override_generation_config': {'seed': '1234'}") + UP),
    # the same TypeError with no generation config read anywhere in the log
    (
        "generation-config-invalid",
        '  File "/srv/app/sort.py", line 3, in key\n'
        "TypeError: '<' not supported between instances of 'str' and 'int'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_a_nan_the_request_sent_stays_the_requests():
    body = '# request: POST http://h:8000/v1/chat/completions {"messages": [], "presence_penalty": NaN}\n'
    log = (
        _defaults("{'presence_penalty': nan}")
        + UP
        + body
        + _refused("presence_penalty must be a finite number, got nan.")
    )
    assert_named("request-sampling-param-out-of-range", log)


def test_a_finite_file_value_beside_a_refused_nan_stays_the_requests():
    log = (
        _defaults("{'presence_penalty': 0.5}")
        + UP
        + _refused("presence_penalty must be a finite number, got nan.")
    )
    assert_named("request-sampling-param-out-of-range", log)


def test_an_override_of_another_field_leaves_the_files_value_the_files():
    log = (
        _args(", 'override_generation_config': {'top_p': 0.9}")
        + _defaults("{'top_p': 0.9, 'min_p': 1.5}")
        + UP
        + _refused("min_p must be in [0, 1], got 1.5.")
    )
    assert_named("generation-config-invalid", log)


def test_a_valid_numeric_override_with_the_server_up_is_no_failure():
    log = (
        _args(", 'override_generation_config': {'temperature': 0.2}") + _defaults("{'temperature': 0.2}") + UP
    )
    assert top_cause(run(log)) is None
