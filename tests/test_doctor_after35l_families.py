"""Families taught by after35l from batch fresh-215's misses (learnt after scoring), each on another wording than the
corpus log's, its siblings in the engine's source, and the near misses that must stay elsewhere.

- llama.cpp src/llama-vocab.cpp llama_vocab::impl::load: 'unknown pre-tokenizer type: '%s'' and 'unknown tokenizer:
  '%s'' (both in llama-server 11434.0.0's strings). Every name the build's tables compare with (tokenizer.ggml.model:
  llama, bert, gpt2, t5, rwkv, plamo2, gemma4, ...; tokenizer.ggml.pre: default, llama3, qwen2, gpt-2, a.x-4.0,
  tiny_aya, ...) is lower case of [a-z0-9._-]: only such a name can be a model newer than the build
  (llamacpp-unknown-pre-tokenizer); upper case, spaces or nothing is the GGUF's metadata written wrongly
  (llamacpp-gguf-metadata-missing). Same function's sibling 'duplicate token in vocabulary: '%s' has ids %d and %u'
  (upstream llama.cpp, newer than 11434): rendered from its format string.
- vLLM 0.32 tokenizers/registry.py _TokenizerRegistry.load_tokenizer_cls: "No tokenizer registered for
  {tokenizer_mode=!r}." and 0.6.6-0.11's "Unknown tokenizer mode: X. Must be ..." name a mode that does not exist: the
  flag's value (cli-invalid-choice), not a real mode misfitting the files (tokenizer-mode-mismatch keeps 'No tokenizer
  file found').
- transformers 5.19 tokenization_utils_base.py PreTrainedTokenizerBase._from_pretrained and models/auto/
  tokenization_auto.py from_pretrained on a tokenizer file of the wrong JSON type: the wordings below were caught here
  with the .venv-vllm's transformers 5.19 on copies of tests/engine/make_tiny_model.py's checkpoint (added_tokens.json a
  string, special_tokens_map.json a string, tokenizer_config.json a list, added_tokens_decoder a list).
"""

from __future__ import annotations

from tests.doctor_text import family_tests

LOAD = "0.00.009.946 I srv    load_model: loading model '/models/m.gguf'\n"
VOCAB = "0.00.010.673 E llama_model_load: error loading model: error loading model vocabulary: "
FAIL = "0.00.010.673 E llama_model_load_from_file_impl: failed to load model\n"


def vocab(message: str) -> str:
    return LOAD + VOCAB + message + "\n" + FAIL


TB = "Traceback (most recent call last):\n"
SITE = "/opt/venv/lib/python3.11/site-packages/"
REGISTRY = (
    f'  File "{SITE}vllm/tokenizers/registry.py", line 224, in get_tokenizer\n'
    "    tokenizer_cls_ = TokenizerRegistry.load_tokenizer_cls(tokenizer_mode)\n"
    f'  File "{SITE}vllm/tokenizers/registry.py", line 81, in load_tokenizer_cls\n'
    '    raise ValueError(f"No tokenizer registered for {tokenizer_mode=!r}.")\n'
)


def from_pretrained(line: int, source: str, exception: str) -> str:
    """A transformers 5.19 traceback ending in _from_pretrained on `source` (as caught here)."""
    return (
        TB
        + f'  File "{SITE}vllm/tokenizers/hf.py", line 181, in from_pretrained\n'
        + "    tokenizer = AutoTokenizer.from_pretrained(\n"
        + f'  File "{SITE}transformers/tokenization_utils_base.py", line 1739, in from_pretrained\n'
        + "    return cls._from_pretrained(\n"
        + f'  File "{SITE}transformers/tokenization_utils_base.py", line {line}, in _from_pretrained\n'
        + f"    {source}\n"
        + exception
        + "\n"
    )


CASES = [
    # miscased or implausible names: the file's metadata, not a newer model
    ("llamacpp-gguf-metadata-missing", vocab("unknown pre-tokenizer type: 'Llama3'")),
    ("llamacpp-gguf-metadata-missing", vocab("unknown pre-tokenizer type: 'qwen 2'")),
    ("llamacpp-gguf-metadata-missing", vocab("unknown tokenizer: 'Llama'")),
    ("llamacpp-gguf-metadata-missing", vocab("unknown tokenizer: ''")),
    # older builds (llama-cpp-python's vendored src/llama.cpp llm_load_vocab): the same throw, without the prefix
    ("llamacpp-gguf-metadata-missing", "llama_model_load: error loading model: unknown tokenizer: 'BPE'\n"),
    ("llamacpp-gguf-metadata-missing", vocab("duplicate token in vocabulary: 'hello' has ids 12 and 700")),
    # a lower-case name no build of this age knows stays a newer model's
    ("llamacpp-unknown-pre-tokenizer", vocab("unknown pre-tokenizer type: 'kimi-k3'")),
    ("llamacpp-unknown-pre-tokenizer", vocab("unknown tokenizer: 'gemma5'")),
    ("llamacpp-unknown-pre-tokenizer", vocab("unknown pre-tokenizer type: 'a.x-5.0'")),
    # vLLM: a tokenizer mode nothing registered ('slow' was a mode of 0.11 and before)
    (
        "cli-invalid-choice",
        TB + REGISTRY + "ValueError: No tokenizer registered for tokenizer_mode='slow'.\n",
    ),
    ("cli-invalid-choice", "ValueError: No tokenizer registered for tokenizer_mode='mistral_common'.\n"),
    (
        "cli-invalid-choice",
        "ValueError: Unknown tokenizer mode: hf-fast. Must be one of ('auto', 'slow', 'mistral', 'custom').\n",
    ),
    # a real mode whose files the checkpoint lacks stays tokenizer-mode-mismatch
    ("tokenizer-mode-mismatch", "ValueError: No tokenizer file found.\n"),
    # transformers reading a tokenizer file of the wrong JSON type (caught here, transformers 5.19)
    (
        "tokenizer-corrupt",
        from_pretrained(
            1897,
            "for str_token, index in added_tok_encoder.items():",
            "AttributeError: 'str' object has no attribute 'items'",
        ),
    ),
    (
        "tokenizer-corrupt",
        from_pretrained(
            1852,
            'for idx, token in init_kwargs["added_tokens_decoder"].items():',
            "AttributeError: 'list' object has no attribute 'items'",
        ),
    ),
    (
        "tokenizer-corrupt",
        TB
        + f'  File "{SITE}transformers/models/auto/tokenization_auto.py", line 818, in from_pretrained\n'
        + '    tokenizer_config_class = tokenizer_config.get("tokenizer_class", None)\n'
        + "AttributeError: 'list' object has no attribute 'get'\n",
    ),
    # its own raise for an added_tokens_decoder entry that is no object (5.19 tokenization_utils_base.py)
    (
        "tokenizer-corrupt",
        from_pretrained(
            1857,
            "raise TypeError(",
            "TypeError: Found a <class 'str'> in the saved `added_tokens_decoder`, should be a dictionary or an "
            "AddedToken instance",
        ),
    ),
]

NEAR_MISSES = [
    # the corpus wordings must not be the newer-build family
    ("llamacpp-unknown-pre-tokenizer", vocab("unknown pre-tokenizer type: 'Default'")),
    ("llamacpp-unknown-pre-tokenizer", vocab("unknown tokenizer: 'GPT2'")),
    # nor a lower-case unknown name the metadata family
    ("llamacpp-gguf-metadata-missing", vocab("unknown pre-tokenizer type: 'deepseek-r1-qwen'")),
    # a mode name is no longer a mismatch of files
    ("tokenizer-mode-mismatch", "ValueError: No tokenizer registered for tokenizer_mode='custom'.\n"),
    # the mode vLLM sets itself for --model-impl terratorch is no value the user gave
    ("cli-invalid-choice", "ValueError: No tokenizer registered for tokenizer_mode='terratorch'.\n"),
    # the registry's other refusal (resolve_tokenizer_args): an internal kwarg, not the flag's value
    (
        "cli-invalid-choice",
        "ValueError: mistral_format=True is not supported with tokenizer_mode='hf'\n",
    ),
    # the same AttributeError far from transformers' tokenizer loading is not a tokenizer file
    (
        "tokenizer-corrupt",
        TB
        + f'  File "{SITE}vllm/entrypoints/openai/serving_chat.py", line 300, in create_chat_completion\n'
        + "    for key, value in request.extra.items():\n"
        + "AttributeError: 'list' object has no attribute 'items'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
