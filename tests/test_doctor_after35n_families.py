"""What after35n learnt from fresh-217's miss (fresh217-llama-model-tilde-unexpanded), after scoring.

- path-tilde-not-expanded: a path that begins with '~/' (or '~user/') reached the program unexpanded (no shell ran
  over it: a unit's ExecStart=, a quoted argument, a JSON / YAML / INI config, an environment variable), for any
  engine and any file argument. Wordings: llama-server 11434.0.0's own (the corpus log, -m '~/models/tiny.gguf');
  the rest rendered from the programs' format strings: llama.cpp gguf.cpp gguf_init_from_file ("failed to open GGUF
  file '%s' (%s)"), server load_model ("failed to load draft model, '%s'", "failed to load multimodal model, '%s'"),
  llama-adapter.cpp ("failed to load lora adapter file from %s"), common.cpp common_control_vector_load_one ("%s:
  failed to load control vector file from %s"), arg.cpp read_file ("error: failed to open file '%s'"), the router's
  "preset file does not exist: %s"; huggingface_hub validate_repo_id (run here on '~/models/qwen'), transformers'
  "%s is not a local folder and is not a valid model identifier", vLLM ModelConfig's "Invalid repository ID or local
  directory specified: '%s'", Python's FileNotFoundError, Go's os.Open error. Near misses: a '~' inside a name or a
  folder (model~1.gguf, /srv/a~b/) keeps the relative-path / file-missing / repo-id families.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

FAMILY = "path-tilde-not-expanded"

CASES = [
    (
        FAMILY,
        "0.00.007.707 E gguf_init_from_file: failed to open GGUF file '~/models/tiny.gguf' (No such file or directory)\n"
        "0.00.007.796 E llama_model_load: error loading model: llama_model_loader: failed to load model from"
        " ~/models/tiny.gguf\n"
        "0.00.007.832 E srv    load_model: failed to load model, '~/models/tiny.gguf'\n",
    ),
    (FAMILY, "E srv    load_model: failed to load draft model, '~/models/qwen3-0.6b-q8_0.gguf'\n"),
    (FAMILY, "E srv    load_model: failed to load multimodal model, '~alice/models/mmproj-f16.gguf'\n"),
    (FAMILY, "llama_adapter_lora_init_impl: failed to load lora adapter file from ~/loras/style.gguf\n"),
    (FAMILY, "common_control_vector_load_one: failed to load control vector file from ~/cv/happy.gguf\n"),
    (
        FAMILY,
        "error while handling argument \"--chat-template-file\": error: failed to open file '~/t/chatml.jinja'\n",
    ),
    (FAMILY, "failed to initialize router models: preset file does not exist: ~/llama/presets.ini\n"),
    (
        FAMILY,
        "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name':"
        " '~/models/qwen'. Use `repo_type` argument if needed.\n",
    ),
    (
        FAMILY,
        "OSError: ~/models/Qwen3-8B is not a local folder and is not a valid model identifier listed on"
        " 'https://huggingface.co/models'\n",
    ),
    (FAMILY, "  Value error, Invalid repository ID or local directory specified: '~/models/qwen3-8b'.\n"),
    (FAMILY, "FileNotFoundError: [Errno 2] No such file or directory: '~/templates/tool_chat.jinja'\n"),
    (FAMILY, "Error: open ~/.ollama/models/Modelfile: no such file or directory\n"),
]

NEAR_MISSES = [
    # a '~' inside a name or a folder is no tilde prefix
    (FAMILY, "gguf_init_from_file: failed to open GGUF file 'model~1.gguf' (No such file or directory)\n"),
    (
        FAMILY,
        "gguf_init_from_file: failed to open GGUF file '/srv/a~b/model.gguf' (No such file or directory)\n",
    ),
    (FAMILY, "FileNotFoundError: [Errno 2] No such file or directory: '/data/backup~/config.json'\n"),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_tilde_outranks_relative_path_and_file_missing():
    top = top_cause(
        run(
            "gguf_init_from_file: failed to open GGUF file '~/models/tiny.gguf' (No such file or directory)\n"
        )
    )
    assert top.id == FAMILY and top.confidence >= 0.7
    assert "~/models/tiny.gguf" in top.cause


def test_tilde_inside_a_name_keeps_the_old_families():
    assert_named(
        "llamacpp-relative-model-path",
        "gguf_init_from_file: failed to open GGUF file 'model~1.gguf' (No such file or directory)\n",
    )
    assert_named(
        "llamacpp-model-file-missing",
        "gguf_init_from_file: failed to open GGUF file '/srv/a~b/model.gguf' (No such file or directory)\n",
    )


def test_a_repo_id_with_a_tilde_inside_stays_hub_bad_repo_id():
    assert_named(
        "hub-bad-repo-id",
        "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or"
        " 'namespace/repo_name': 'org/model~v2/extra'. Use `repo_type` argument if needed.\n",
    )
