"""What the scored batches fresh-265 (vLLM speculative decoding, pairs) and fresh-268 (llama-server's router, pairs)
taught after scoring, with the neighbourhood of each miss's check in the engines' own source.

- hub-offline: vLLM 0.32's get_config (transformers_utils/config.py) refuses a name it finds neither as a folder nor in
  the hub cache with 'Invalid repository ID or local directory specified: 'X'': offline, repo_utils swallows
  OfflineModeIsEnabled, so where the log shows offline mode and X is shaped as a repo id, the hub was never asked; a
  path, or no offline mode, stays model-dir-invalid's.
- path-permission-denied / path-not-found / path-component-not-a-directory: a C++ std::filesystem_error as llama.cpp
  prints it ('filesystem error: OPERATION: STRERROR [PATH]', libstdc++; libc++ 'in FUNC: ... ["PATH"]'), around the
  router's 'failed to initialize router models: %s', which is its consequence.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

REFUSED = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for {cls}\n"
    "  Value error, Invalid repository ID or local directory specified: '{name}'.\n"
    "Please verify the following requirements:\n"
    "1. Provide a valid Hugging Face repository ID.\n"
)
ROUTER = (
    "$ llama-server --models-dir /srv/models --port 8080\n"
    "0.00.001.231 I srv  llama_server: initializing ...\n"
    "0.00.011.953 E srv  llama_server: failed to initialize router models: filesystem error: {what}\n"
)

CASES = [
    # the main model's sibling under ModelConfig (rendered), offline set in a systemd unit's environment
    (
        "hub-offline",
        'Environment="HF_HUB_OFFLINE=1"\n' + REFUSED.format(cls="ModelConfig", name="Qwen/Qwen3-8B"),
    ),
    # a draft named by a single-part id, offline shown by TRANSFORMERS_OFFLINE in an environment dump (rendered)
    (
        "hub-offline",
        "TRANSFORMERS_OFFLINE=true\n" + REFUSED.format(cls="SpeculativeConfig", name="gpt2"),
    ),
    # offline shown by the hub's own wording elsewhere in the log (huggingface_hub utils/_http.py OfflineModeIsEnabled)
    (
        "hub-offline",
        "WARNING hub lookup failed: Cannot reach https://huggingface.co/api/models/org/draft: offline mode is enabled.\n"
        + REFUSED.format(cls="SpeculativeConfig", name="org/draft"),
    ),
    # libstdc++'s directory_iterator over a models dir the service user may not read (rendered)
    (
        "path-permission-denied",
        ROUTER.format(what="directory iterator cannot open directory: Permission denied [/srv/models]"),
    ),
    # libc++'s form (rendered)
    (
        "path-permission-denied",
        ROUTER.format(
            what='in directory_iterator::directory_iterator(...): Permission denied ["/var/lib/llama"]'
        ),
    ),
    # the missing-path family: a cache folder vanished under the scan (rendered; libstdc++ as g++ prints it here)
    (
        "path-not-found",
        ROUTER.format(
            what="recursive directory iterator cannot open directory: No such file or directory "
            "[/root/.cache/huggingface/hub/models--org--x/snapshots/abc]"
        ),
    ),
    # a file where a folder belongs (rendered; libstdc++ as g++ prints it here)
    (
        "path-component-not-a-directory",
        ROUTER.format(what="directory iterator cannot open directory: Not a directory [/srv/models/a.gguf]"),
    ),
]

NEAR_MISSES = [
    # no offline mode: the id may not exist on the hub at all
    ("hub-offline", REFUSED.format(cls="SpeculativeConfig", name="org/draft")),
    # offline mode off (=0) is no offline mode
    ("hub-offline", "$ export HF_HUB_OFFLINE=0\n" + REFUSED.format(cls="ModelConfig", name="org/model")),
    # a folder path refused while offline: the folder, not the hub
    (
        "hub-offline",
        "$ export HF_HUB_OFFLINE=1\n" + REFUSED.format(cls="ModelConfig", name="/srv/models/qwen"),
    ),
    ("hub-offline", "$ export HF_HUB_OFFLINE=1\n" + REFUSED.format(cls="SpeculativeConfig", name="./draft")),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_folder_refused_offline_stays_model_dir_invalid():
    """A path the user gave is a folder problem whatever the hub mode: model-dir-invalid keeps it."""
    assert_named(
        "model-dir-invalid",
        "$ export HF_HUB_OFFLINE=1\n" + REFUSED.format(cls="ModelConfig", name="/srv/models/qwen"),
    )


def test_repo_id_refused_online_stays_model_dir_invalid():
    """Without offline mode the refusal of an id stays model-dir-invalid's (a typo'd or private id)."""
    assert_named("model-dir-invalid", REFUSED.format(cls="SpeculativeConfig", name="org/draft"))


def test_other_filesystem_errors_are_not_permission():
    """Another strerror in the router's filesystem error is not a permission problem (here the fd limit's)."""
    assert_named(
        "too-many-open-files",
        ROUTER.format(what="directory iterator cannot open directory: Too many open files [/srv/models]"),
    )


def test_router_reason_of_its_own_stays_router():
    """The router's own refusals (not a filesystem error) stay the router family's."""
    assert_named(
        "llamacpp-router-init-failed",
        "E srv  llama_server: failed to initialize router models: subprocess is not enabled on this build\n",
    )
