"""What the scored batches fresh-305 (making a GGUF with llama.cpp b11434's convert_hf_to_gguf.py and gguf-py's scripts)
and fresh-306 (llama-server, two faults) taught after scoring, with the neighbourhood in b11434's source.

- convert-architecture-name-invalid (new): main's 'Model %s is not supported' (hf-to-gguf, lora-to-gguf) for a class
  name not in conversion/__init__.py's TEXT_MODEL_MAP; below 0.70 (misspelt/renamed/custom name or a newer model).
- mistral-config-format-without-params-json: conversion/base.py load_hparams' open of DIR/params.json under
  --mistral-format.
- llamacpp-relative-model-path: steps aside where gguf.cpp's reader refused the file (it opened: the path was found).
- llamacpp-gguf-metadata-missing: llama-vocab.cpp's 'bad special token' below gguf_set_metadata.py's edit of that
  field, a non-fatal cause where the server came up.
- llamacpp-rank-pooling-on-generative-model (new, a note; a modest cause since learn42e): llama-context.cpp's pooling override warning with rank.
- convert-hf-option-conflict, gguf-metadata-edit-refused (new): the converter's option refusals and gguf-py's editors'.
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from servebox.doctor.triage import TriageResult
from tests.doctor_text import family_tests, run, top_cause

CONVERT = "$ python convert_hf_to_gguf.py {model} --outfile out.gguf --outtype {outtype}{flags}\nINFO:hf-to-gguf:Loading model: {name}\n"


def convert(model: str, body: str, flags: str = "", outtype: str = "bf16") -> str:
    name = model.rstrip("/").rsplit("/", 1)[-1]
    return CONVERT.format(model=model, outtype=outtype, flags=flags, name=name) + body


SERVER_UP = (
    "0.01.570.140 I srv  llama_server: model loaded\n"
    "0.01.570.155 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    "# request: POST http://127.0.0.1:8080/v1/chat/completions {}\nHTTP/1.1 200 OK\n"
)

CASES = [
    # get_model_class's refusal logged by main, another made-up class (rendered)
    (
        "convert-architecture-name-invalid",
        convert(
            "./gemma-ft",
            "INFO:hf-to-gguf:Model architecture: Gemma3TextForCausalLM_v2\n"
            "ERROR:hf-to-gguf:Model Gemma3TextForCausalLM_v2 is not supported\n",
        ),
    ),
    # convert_lora_to_gguf.py's same refusal for the base model's class (rendered)
    (
        "convert-architecture-name-invalid",
        "$ python convert_lora_to_gguf.py ./adapter --base ./base\n"
        "ERROR:lora-to-gguf:Model MyCustomLM is not supported\n",
    ),
    # --mistral-format on a Hugging Face folder, an absolute path (rendered from load_hparams' open)
    (
        "mistral-config-format-without-params-json",
        convert(
            "/models/Llama-3.2-1B",
            "Traceback (most recent call last):\n"
            '  File "/src/llama.cpp/conversion/base.py", line 1273, in load_hparams\n'
            '    with open(dir_model / "params.json", "r", encoding="utf-8") as f:\n'
            "FileNotFoundError: [Errno 2] No such file or directory: '/models/Llama-3.2-1B/params.json'\n",
            flags=" --mistral-format",
        ),
    ),
    # a relative -m that opened but is no GGUF: the reader's refusal is the cause, not the path (rendered)
    (
        "llamacpp-bad-gguf",
        "$ llama-server -m models/qwen.gguf --port 8080\n"
        "E gguf_init_from_reader: invalid magic characters: 'PK\\x03\\x04', expected 'GGUF'\n"
        "E llama_model_load: error loading model: llama_model_loader: failed to load model from models/qwen.gguf\n"
        "E srv    load_model: failed to load model, 'models/qwen.gguf'\n",
    ),
    # gguf_set_metadata.py wrote a bos id outside the vocabulary, the server came up on the default (rendered)
    (
        "llamacpp-gguf-metadata-missing",
        "$ python gguf-py/gguf/scripts/gguf_set_metadata.py m.gguf tokenizer.ggml.bos_token_id 64000 --force\n"
        "INFO:gguf-set-metadata:* Preparing to change field 'tokenizer.ggml.bos_token_id' from 1 to 64000\n"
        "INFO:gguf-set-metadata:* Field changed. Successful completion.\n"
        "$ llama-server -m m.gguf --port 8080\n"
        "0.01.106.391 W load: bad special token: 'tokenizer.ggml.bos_token_id' = 64000, using default id 1\n"
        + SERVER_UP,
    ),
    # the converter's option refusals (rendered)
    (
        "convert-hf-option-conflict",
        convert(
            "./qwen",
            "ERROR:hf-to-gguf:Error: Cannot use temp file when splitting\n",
            " --use-temp-file --split-max-size 2G",
        ),
    ),
    (
        "convert-hf-option-conflict",
        convert(
            "./glm",
            "ERROR:hf-to-gguf:--mtp, --no-nextn, and --dspark are mutually exclusive\n",
            " --mtp --no-nextn",
        ),
    ),
    # gguf-py's editors' refusals (rendered)
    (
        "gguf-metadata-edit-refused",
        "$ python gguf_set_metadata.py m.gguf llama.context_length 8192\n"
        "ERROR:gguf-set-metadata:! Field 'llama.context_length' not found\n",
    ),
    (
        "gguf-metadata-edit-refused",
        "$ python gguf_new_metadata.py in.gguf out.gguf --special-token eos '<|end|>'\n"
        "Traceback (most recent call last):\n"
        'LookupError: Unable to find "<|end|>" in token list!\n',
    ),
    (
        "gguf-metadata-edit-refused",
        "$ python gguf_new_metadata.py in.gguf out.gguf --special-token-by-id eos 99999\n"
        "LookupError: Token ID 99999 is not within token list!\n",
    ),
]

NEAR_MISSES = [
    # the old converter's raised wording stays unknown-architecture's (an old converter that knew a dozen classes)
    (
        "convert-architecture-name-invalid",
        'NotImplementedError: Architecture "LlamaForCausalLM" not supported!\n',
    ),
    # a missing params.json without --mistral-format (another reader) is not the Mistral-format slip
    (
        "mistral-config-format-without-params-json",
        "$ python train.py --ckpt ./run1\nFileNotFoundError: [Errno 2] No such file or directory: 'run1/params.json'\n",
    ),
    # the bare warning (an --override-kv, no hand edit in view) is the healthy fallback its makers read it as
    (
        "llamacpp-gguf-metadata-missing",
        "$ llama-server -m m.gguf --override-kv tokenizer.ggml.eos_token_id=int:99999\n"
        "0.01.106.391 W load: bad special token: 'tokenizer.ggml.eos_token_id' = 99999, using default id 11\n"
        + SERVER_UP,
    ),
    # 'not found' outside gguf-py's editors
    ("gguf-metadata-edit-refused", "ERROR:app:! Field 'name' not found\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def _note(result: TriageResult, family: str):
    return next((d for d in result.diagnoses if d.id == family), None)


RANK = "W llama_init_from_model: model default pooling_type is [{default}], but [{given}] was specified\n"


def test_rank_pooling_on_a_non_reranker_is_a_modest_cause():
    # a cls-pooled embedding model forced to rank (rendered): the server serves, but what it ranks means nothing; a
    # non-fatal cause below confident since learn42e (s42: the lead's one reading for the corpus, was a note here)
    result = run(
        "$ llama-server -m bge-small.gguf --reranking\n" + RANK.format(default=2, given=4) + SERVER_UP
    )
    top = top_cause(result)
    assert top is not None and top.id == "llamacpp-rank-pooling-on-generative-model"
    assert top.role == "cause" and not top.fatal and top.confidence < 0.7


def test_pooling_override_other_than_rank_is_not_the_rank_note():
    # mean pooling of a generative model is a legitimate embedding (rendered)
    result = run(
        "$ llama-server -m qwen.gguf --embeddings --pooling mean\n" + RANK.format(default=-1, given=1)
    )
    assert _note(result, "llamacpp-rank-pooling-on-generative-model") is None


def test_architecture_refusal_is_below_confident():
    top = top_cause(run(convert("./m", "ERROR:hf-to-gguf:Model Qwen2_5ForCausalLM is not supported\n")))
    assert top is not None and top.id == "convert-architecture-name-invalid" and top.confidence < 0.7
