"""What the measured batch fresh-414 taught: servebox's own one-line refusals (InputError, exit 2) whose message names
a cause more specific than servebox-spec-invalid's 'correct the file and field'.

- model-path-not-found (widened): checkpoint/source.py open_source's 'PATH: neither an existing directory, a .gguf
  file, nor a hub repo id 'org/name[@revision]'' and engines/llamacpp/source.py open_gguf's 'PATH: no such .gguf file
  (a hub file is org/name/file.gguf[@revision])', for a path-shaped source (/, ./, ../, ~, a drive letter).
- servebox-rollback-nothing-recorded (new): deploy/provision.py _rollback_locked's 'LINK: rollback: no previous venv
  recorded'.
- servebox-rollback-previous-gone (new): the same function's 'LINK.previous: rollback: the previous venv TARGET is gone'.
Messages are rendered through servebox's own InputError.one_line(), as servebox/cli prints them ('servebox: error: ').
"""

from __future__ import annotations

import pytest

from servebox.errors import InputError
from tests.doctor_text import assert_named, family_tests

NEITHER = "neither an existing directory, a .gguf file, nor a hub repo id 'org/name[@revision]'"
NO_GGUF = "no such .gguf file (a hub file is org/name/file.gguf[@revision])"


def refusal(command: str, source: str, field: str | None, message: str) -> str:
    """servebox's one-line refusal (exit 2), as servebox/cli prints an InputError (rendered)."""
    return (
        f"$ servebox {command}\nservebox: error: {InputError(source, field, message).one_line()}\n# exit: 2\n"
    )


CASES = [
    # open_source's refusal of path-shaped sources with nothing there (rendered; not the corpus logs' paths)
    ("model-path-not-found", refusal("inspect ../ckpt/Llama-3.1-8B", "../ckpt/Llama-3.1-8B", None, NEITHER)),
    (
        "model-path-not-found",
        refusal("plan ~/models/qwen3-8b --gpu h100", "~/models/qwen3-8b", None, NEITHER),
    ),
    (
        "model-path-not-found",
        refusal("check /mnt/nfs/models/mistral-7b", "/mnt/nfs/models/mistral-7b", None, NEITHER),
    ),
    ("model-path-not-found", refusal("plan D:\\models\\phi-4", "D:\\models\\phi-4", None, NEITHER)),
    # open_gguf's refusal of a .gguf path with no file there (plan-llamacpp / check-llamacpp)
    (
        "model-path-not-found",
        refusal("plan-llamacpp ./Qwen3-8B-Q4_K_M.gguf", "./Qwen3-8B-Q4_K_M.gguf", None, NO_GGUF),
    ),
    (
        "model-path-not-found",
        refusal(
            "check-llamacpp /srv/gguf/gemma-3-4b-it-Q4_K_M.gguf",
            "/srv/gguf/gemma-3-4b-it-Q4_K_M.gguf",
            None,
            NO_GGUF,
        ),
    ),
    # _rollback_locked: no LINK.previous recorded (a root provisioned once, another link name)
    (
        "servebox-rollback-nothing-recorded",
        refusal(
            "provision /etc/llm/llm.toml --rollback",
            "/opt/llm/venvs/llama",
            "rollback",
            "no previous venv recorded",
        ),
    ),
    # ... the previous venv recorded, then deleted
    (
        "servebox-rollback-previous-gone",
        refusal(
            "provision /etc/llm/llm.toml --rollback",
            "/opt/llm/venvs/vllm.previous",
            "rollback",
            "the previous venv /opt/llm/venvs/vllm-3f2a9c0d11e4b7a5 is gone",
        ),
    ),
]

NEAR_MISSES = [
    # a name that is no path (no / . ~ in front) is hub-bad-repo-id's, not a missing path
    ("model-path-not-found", refusal("plan qwen2.5-7b", "qwen2.5-7b", None, NEITHER)),
    # a hub-shaped name without a file in it, refused by open_gguf: no local path was meant
    (
        "model-path-not-found",
        refusal("plan-llamacpp Qwen/Qwen3-8B-GGUF", "Qwen/Qwen3-8B-GGUF", None, NO_GGUF),
    ),
    # a path that is there but is a file is not a missing path
    (
        "model-path-not-found",
        refusal(
            "check /srv/models/qwen/config.json", "/srv/models/qwen/config.json", None, "not a directory"
        ),
    ),
    # the spec's wheel field naming no file: a field of the spec, not a rollback
    (
        "servebox-rollback-nothing-recorded",
        refusal("provision llm.toml", "/srv/wheels/vllm.whl", "wheel", "no such file"),
    ),
    # `servebox down` with nothing recorded is servebox-down-nothing-running's, not a rollback
    (
        "servebox-rollback-nothing-recorded",
        refusal(
            "down",
            ".servebox/up.json",
            None,
            "nothing recorded: is servebox up running with this --state-dir?",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize(
    ("command", "source", "field", "message"),
    [
        # real spec-field refusals stay servebox's own (servebox/deploy/provision.py, spec.py, cli/provision.py)
        ("provision llm.toml", "/srv/wheels/vllm.whl", "wheel", "no such file"),
        ("provision llm.toml", "/srv/locks/vllm.lock", "requirements", "no such file"),
        (
            "lock --out /srv/x/vllm.lock",
            "/srv/x/vllm.lock",
            "--out",
            "its folder /srv/x does not exist; create it first",
        ),
        (
            "render spec.toml",
            "/srv/llm.toml",
            "models[qwen].venv",
            "must be an absolute path, got 'venvs/vllm'",
        ),
    ],
)
def test_a_spec_field_refusal_stays_servebox_spec_invalid(command, source, field, message):
    assert_named("servebox-spec-invalid", refusal(command, source, field, message))
