"""What the scored batch fresh-281 (vLLM version drift: an older release's commands, variables and requests run on
vLLM 0.32) taught after scoring, with the neighbourhood of each miss checked on 0.32 (argparse and runpy runs).

- vllm-internal-module-moved: `python -m` of a module the installed vLLM lacks, in runpy's own unquoted words
  ('<python>: No module named vllm.X': the parent package imported, the module has no spec), as an old tutorial's
  `python -m vllm.entrypoints.api_server` (the demo server, gone from 0.32) prints it.
- bool-switch-value-taken-as-model-tag: 0.32's on/off switches take no value, so `--enable-chunked-prefill False`
  under `python -m vllm.entrypoints.openai.api_server --model M` leaves 'False' as the optional positional model_tag
  and turns the feature ON; only the start's 'non-default args:' line shows it.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a run printed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

ARGS = "(APIServer pid=4410) INFO 12-05 09:12:40 [api_utils.py:286] non-default args: {args}\n"

CASES = [
    # runpy's 'No module named %s' for the 0.5-era `python -m vllm.scripts serve` (as 0.32 printed it here)
    ("vllm-internal-module-moved", "/opt/venv/bin/python3: No module named vllm.scripts\n"),
    # ... a parent package that is gone: runpy quotes the import error (as 0.32 printed it here)
    (
        "vllm-internal-module-moved",
        "/opt/venv/bin/python3: Error while finding module specification for 'vllm.entrypoints.fastchat.api_server' "
        "(ModuleNotFoundError: No module named 'vllm.entrypoints.fastchat')\n",
    ),
    # another switch and another off-word (rendered: log_non_default_args' dict for `--enforce-eager 0`)
    (
        "bool-switch-value-taken-as-model-tag",
        ARGS.format(
            args="{'model_tag': '0', 'host': '0.0.0.0', 'model': '/models/qwen', 'enforce_eager': True}"
        ),
    ),
    # ... lower-case false to a frontend store_true switch (as 0.32's parser set it here: model_tag 'false')
    (
        "bool-switch-value-taken-as-model-tag",
        ARGS.format(args="{'model_tag': 'false', 'model': '/m', 'trust_remote_code': True}"),
    ),
]

NEAR_MISSES = [
    # a stray True leaves the switch on as asked: nothing inverted
    (
        "bool-switch-value-taken-as-model-tag",
        ARGS.format(args="{'model_tag': 'True', 'model': '/m', 'enforce_eager': True}"),
    ),
    # `vllm serve M` sets model_tag to the model itself (cli/serve.py copies it to model)
    (
        "bool-switch-value-taken-as-model-tag",
        ARGS.format(args="{'model_tag': '/models/qwen', 'model': '/models/qwen', 'enforce_eager': True}"),
    ),
    # under `vllm serve M` the word is refused, not swallowed: another family answers
    (
        "bool-switch-value-taken-as-model-tag",
        "usage: vllm serve [model_tag] [options]\nvllm serve: error: unrecognized arguments: False\n",
    ),
    # vLLM itself missing is not a version skew
    ("vllm-internal-module-moved", "/usr/bin/python3: No module named vllm\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_switch_given_an_explicit_value_stays_an_invalid_value():
    """`--enable-chunked-prefill=False` is refused by argparse on 0.32 (as it printed it here): cli-invalid-value's."""
    assert_named(
        "cli-invalid-value",
        "api_server.py: error: argument --enable-chunked-prefill/--no-enable-chunked-prefill: ignored explicit "
        "argument 'False'\n",
    )


def test_vllm_missing_stays_python_module_missing():
    """runpy's words for a missing top-level package name no vllm submodule: not vLLM's version skew."""
    assert_named(
        "python-module-missing",
        "/opt/venv/bin/python3: Error while finding module specification for 'vllm.entrypoints.openai.api_server' "
        "(ModuleNotFoundError: No module named 'vllm')\n",
    )
