"""Families learnt by after35e from fresh-205's misses (the Hugging Face cache, an unreachable hub), after scoring,
each on a wording other than its corpus log's, with near misses where the reading must stay below 0.70."""

from __future__ import annotations

from tests.doctor_text import assert_not_confident, family_tests, run, top_cause

LOADER = "(Worker pid=41) ERROR 12-05 10:01:02 [multiproc_executor.py:953] "
HF_SNAPSHOT = "/root/.cache/huggingface/hub/models--org--m/snapshots/0123456789abcdef0123456789abcdef01234567"

# llama.cpp common/download.cpp common_download_get_hf_plan, b11434 (format strings rendered: '%s: no GGUF files found
# in repository %s', '%s: file '%s' not found in repository'); 'failed to resolve commit for %s' is the Hub listing
# failing (strings of llama-server 11434.0.0); earlier builds threw "no GGUF files found in Hugging Face repo '%s'"
EMPTY_PATH = (
    "E llama_model_load_from_file_impl: exactly one out metadata, path_model, and file must be defined\n"
    "E srv    load_model: failed to load model, ''\n"
)
CASES = [
    # vLLM 0.32 weight_utils.py _get_checkpoints_size_bytes: os.path.getsize on a snapshot link to a blob never written
    (
        "weights-missing",
        f"{LOADER}FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/model-00002-of-00004.safetensors'\n",
    ),
    # sibling: pt_weights_iterator's torch.load of a *.bin behind the same dangling link
    (
        "weights-missing",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/pytorch_model.bin'\n",
    ),
    # the neighbourhood: the same dangling link in front of the tokenizer's or the config's file (their own families)
    (
        "tokenizer-missing",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/tokenizer.json'\n",
    ),
    (
        "tokenizer-missing",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/tokenizer.model'\n",
    ),
    (
        "model-dir-invalid",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/config.json'\n",
    ),
    # the mode shown: the flag on a command line, the variable, or the Hub listing having failed
    (
        "llamacpp-offline-cache-miss",
        "+ llama-server --offline -hf bartowski/Qwen3-8B-GGUF:Q6_K --port 8080\n"
        "E common_download_get_hf_plan: no GGUF files found in repository bartowski/Qwen3-8B-GGUF\n"
        "I Available GGUF files:\nI  - Qwen3-8B-Q4_K_M.gguf\n" + EMPTY_PATH,
    ),
    (
        "llamacpp-offline-cache-miss",
        "Environment=LLAMA_ARG_OFFLINE=1\n"
        "E common_download_get_hf_plan: file 'Qwen3-8B-Q6_K.gguf' not found in repository\n" + EMPTY_PATH,
    ),
    (
        "llamacpp-offline-cache-miss",
        "E get_repo_commit: failed to resolve commit for unsloth/gemma-3-4b-it-GGUF\n"
        "E common_download_get_hf_plan: no GGUF files found in repository unsloth/gemma-3-4b-it-GGUF\n"
        + EMPTY_PATH,
    ),
    (
        "llamacpp-offline-cache-miss",
        "llama-server -hf org/m-GGUF --offline\n"
        "what():  no GGUF files found in Hugging Face repo 'org/m-GGUF'\n",
    ),
]
NEAR_MISSES = [
    # a LoRA adapter's own file is lora-adapter-not-found's; a tokenizer or config file is not a weight file
    (
        "weights-missing",
        "FileNotFoundError: [Errno 2] No such file or directory: '/srv/lora/bot/adapter_model.safetensors'\n",
    ),
    (
        "weights-missing",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/tokenizer.json'\n",
    ),
    (
        "weights-missing",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{HF_SNAPSHOT}/config.json'\n",
    ),
    (
        "model-dir-invalid",
        "FileNotFoundError: [Errno 2] No such file or directory: '/srv/lora/bot/adapter_config.json'\n",
    ),
    # without the mode in the log, neither reading of 'no GGUF files found' is confident
    (
        "llamacpp-hf-repo-no-gguf",
        "E common_download_get_hf_plan: no GGUF files found in repository Qwen/Qwen3-8B\n",
    ),
    (
        "llamacpp-offline-cache-miss",
        "E common_download_get_hf_plan: no GGUF files found in repository Qwen/Qwen3-8B\nI Available GGUF files:\n"
        + EMPTY_PATH,
    ),
    # a path that merely ends in '-offline' is no offline flag
    (
        "llamacpp-offline-cache-miss",
        "I loading /srv/run/case-offline/x\nE common_download_get_hf_plan: no GGUF files found in repository a/b\n",
    ),
]
test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)

# huggingface_hub 2.4 _snapshot_download.py, offline: both branches' text ('local_files_only=False' and the
# OfflineModeIsEnabled one, rendered from the source)
SNAPSHOT_NOT_FOUND = (
    "Cannot find an appropriate cached snapshot folder for the specified revision on the local disk and outgoing "
    "traffic has been disabled. To enable repo look-ups and downloads online, set 'HF_HUB_OFFLINE=0' as environment "
    "variable."
)


def test_snapshot_folder_not_found_is_hub_offline_below_confident():
    """The line cannot tell a repo never cached where the process reads from refs/main naming a missing snapshot."""
    log = (
        '  File "/x/huggingface_hub/_snapshot_download.py", line 382, in snapshot_download\n'
        "    raise LocalEntryNotFoundError(\n"
        f"huggingface_hub.errors.LocalEntryNotFoundError: {SNAPSHOT_NOT_FOUND}\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "hub-offline" and top.confidence < 0.7, (
        top and top.id,
        top and top.confidence,
    )
    assert "refs/" in top.cause and "HF_HUB_CACHE" in top.cause


def test_a_file_level_offline_miss_stays_confident():
    """A near miss: file_download.py's own offline refusal is not the snapshot hint."""
    log = (
        "huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and "
        "outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set 'local_files_only' to "
        "False.\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "hub-offline" and top.confidence >= 0.7


def test_a_hint_line_after_an_unmet_context_wording_still_counts():
    """triage keeps a hint's line after a context wording's hit, so an entry whose context is absent is still
    offered as a hint (llamacpp-offline-cache-miss: 'no GGUF files found' without the mode, then the empty path)."""
    log = (
        "E common_download_get_hf_plan: no GGUF files found in repository a/b-GGUF\n"
        "E llama_model_load_from_file_impl: exactly one out metadata, path_model, and file must be defined\n"
    )
    ids = {d.id: d.confidence for d in run(log).diagnoses}
    assert ids.get("llamacpp-offline-cache-miss") == 0.65 and ids.get("llamacpp-hf-repo-no-gguf") == 0.6, ids
    assert_not_confident("llamacpp-offline-cache-miss", log)
