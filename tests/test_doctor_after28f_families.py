"""What the scored batch fresh-64 (llama-server's router mode: --models-dir, --models-preset, made here with build
11434) taught after it was scored: each miss's family added or widened, and one general rule (a router child instance
that outlives an error).

Each log is written in ANOTHER wording than its corpus log (another part number, another endpoint, the router's other
refusals from tools/server/server-models.cpp), so the test checks the class of wording, not the one line it was learnt
from; the near misses check what must not match.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import assert_named, assert_not_confident, params, run, top_cause

ROUTER_START = (
    "0.00.008.253 I srv    operator(): Available models (2):\n"
    "0.00.008.294 I srv    operator():   [    preset] qwen3\n"
    "0.00.008.294 I srv    operator():   [    preset] gemma\n"
    "0.00.009.737 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
HTTPS = (
    "[{port}] 0.00.002.177 E get_repo_commit: error: HTTPS is not supported. Please rebuild with one of:\n"
    "[{port}]   -DLLAMA_OPENSSL=ON (default, requires OpenSSL dev files installed)\n"
)
LOADED = "[{port}] 0.00.012.098 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 4096, kv_unified = 'true'\n"
EXITED = "[{port}] 0.00.010.816 E srv  llama_server: exiting due to model loading error\n"
# the router's own line when it starts a child (build 11434, fresh64-llama-router-truncated-gguf-in-dir.log line 14)
SPAWN = "0.03.025.999 I srv          load: spawning server instance with name={name} on port {port}\n"


def body(message: str, code: int = 400) -> str:
    return f'{{"error":{{"code":{code},"message":"{message}","type":"invalid_request_error"}}}}\n'


CASES = [
    # llamacpp-gguf-split-incomplete (fresh64-llama-router-split-part-missing-subdir): a later part of a 5-part split,
    # the open failure alone and with the loader's split line (src/llama-model-loader.cpp)
    (
        "llamacpp-gguf-split-incomplete",
        "gguf_init_from_file_impl: failed to open GGUF file '/srv/m/Qwen3-235B-A22B-Q4_K_M-00003-of-00005.gguf' "
        "(No such file or directory)\n",
    ),
    (
        "llamacpp-gguf-split-incomplete",
        "E gguf_init_from_file: failed to open GGUF file 'DeepSeek-R1-Q2_K-00002-of-00004.gguf'\n"
        "E llama_model_load: error loading model: llama_model_loader: failed to load GGUF split from "
        "DeepSeek-R1-Q2_K-00002-of-00004.gguf\n",
    ),
    # model-name-not-served (fresh64-llama-router-mmproj-named-model): router_validate_model's refusal of a name it
    # does not list, as a client prints the body
    ("model-name-not-served", "HTTP/1.1 400 Bad Request\n" + body("model 'qwen3-coder:30b' not found")),
    # llamacpp-router-model-state-refused (fresh64-llama-router-unload-never-loaded): the router's other state refusals
    # (post_router_models_load, router_validate_model with autoload off) and the unload one
    ("llamacpp-router-model-state-refused", "POST /models/load 'qwen3'\n" + body("model is already running")),
    (
        "llamacpp-router-model-state-refused",
        "POST /v1/chat/completions 'gemma'\n" + body("model is not loaded"),
    ),
    ("llamacpp-router-model-state-refused", "openai.BadRequestError: " + body("model is not running")),
    # llamacpp-router-no-models (fresh64-llama-router-models-dir-empty): log_models' empty list, alone and above the
    # refusal of a request by name, which is only its consequence
    ("llamacpp-router-no-models", "I srv    operator(): Available models (0):\n"),
    (
        "llamacpp-router-no-models",
        "I srv    operator(): Available models (0):\n"
        "I srv    operator():   no models found on the system (visit https://llama.app/models for suggestions)\n"
        "I srv  llama_server: listening on http://0.0.0.0:8080\n" + body("model 'qwen3' not found"),
    ),
]

NEAR_MISSES = [
    # the first part of a split missing is the path given to -m (or the models dir), not a missing later part
    (
        "llamacpp-gguf-split-incomplete",
        "gguf_init_from_file: failed to open GGUF file '/srv/m/Qwen3-00001-of-00003.gguf' (No such file or directory)\n",
    ),
    # Ollama's wording of a model never pulled is its own (pull it), not the router's unlisted name
    ("model-name-not-served", body("model 'llama3' not found, try pulling it first", 404)),
    # a router that lists its models is not empty
    ("llamacpp-router-no-models", ROUTER_START),
    # a model state in prose, not the router's error body
    ("llamacpp-router-model-state-refused", "INFO: the model is not loaded yet, waiting for it\n"),
]


@pytest.mark.parametrize(("expected", "log"), params(CASES))
def test_the_family_names_the_cause(expected, log):
    assert_named(expected, log)


@pytest.mark.parametrize(("family", "log"), params(NEAR_MISSES))
def test_a_near_miss_is_not_named_confidently(family, log):
    assert_not_confident(family, log)


def test_the_first_split_part_missing_stays_a_missing_model_file():
    assert_named("llamacpp-model-file-missing", NEAR_MISSES[0][1])


def test_an_error_the_router_instance_outlived_is_only_a_note():
    """fresh64-llama-preset-model-and-hf-repo: the instance could not reach its hf-repo, fell back to its model file
    and loaded; the error is a note, and nothing in the log failed."""
    result = run(ROUTER_START + HTTPS.format(port=40111) + LOADED.format(port=40111))
    assert top_cause(result) is None and not result.fatal
    assert result.diagnoses[0].id == "llamacpp-download-no-https" and result.diagnoses[0].role == "note"


def test_another_instance_loading_does_not_clear_the_error():
    """Instance 40111 failed; instance 40222 (another model) loading later does not make 40111's error a note."""
    log = ROUTER_START + HTTPS.format(port=40111) + EXITED.format(port=40111) + LOADED.format(port=40222)
    assert_named("llamacpp-download-no-https", log)


def test_a_new_instance_on_the_same_port_does_not_clear_the_error():
    """The router may hand a freed port to the next model: 40111 failed and exited, then gemma was spawned on 40111
    and loaded. That is another instance, so the first one's error stays the cause (a log written for this test from
    the lines of the real router logs above)."""
    log = (
        ROUTER_START
        + SPAWN.format(name="qwen3", port=40111)
        + HTTPS.format(port=40111)
        + EXITED.format(port=40111)
        + SPAWN.format(name="gemma", port=40111)
        + LOADED.format(port=40111)
    )
    assert_named("llamacpp-download-no-https", log)


def test_the_instance_spawned_before_its_error_still_outlives_it():
    log = (
        ROUTER_START
        + SPAWN.format(name="qwen3", port=40111)
        + HTTPS.format(port=40111)
        + LOADED.format(port=40111)
    )
    assert top_cause(run(log)) is None


def test_an_instance_that_exits_after_its_error_keeps_the_cause():
    log = ROUTER_START + LOADED.format(port=40111) + HTTPS.format(port=40111) + EXITED.format(port=40111)
    assert_named("llamacpp-download-no-https", log)


def test_without_a_router_the_rule_does_not_apply():
    """A plain llama-server (no '[PORT] ' prefix) that logs the error keeps it as its cause."""
    log = HTTPS.format(port=1).replace("[1] ", "") + LOADED.format(port=1).replace("[1] ", "")
    assert_named("llamacpp-download-no-https", log)
