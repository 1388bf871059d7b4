"""What the scored batch fresh-164 (making a GGUF from a Hugging Face checkpoint, a third round: the converter's other
checks, gguf-py's scripts, llama-quantize) taught after it was scored, each family on ANOTHER wording than its corpus
log (another program, version, C++ library or Python), from llama.cpp 11434.0.0's sources (conversion/base.py,
gguf-py/gguf/vocab.py, gguf-py/gguf/scripts/*.py, src/llama-quant.cpp, tools/gguf-split/gguf-split.cpp) and the
C++ libraries' own what() texts; the near misses check what must not match. Also the general rule fresh-164's confident
wrong showed: a message literal in a traceback's echo of its code is code, not a message.
"""

from __future__ import annotations

from servebox.doctor.structure import _inside_literal
from tests.doctor_text import family_tests, run, top_cause

INDEXED = (
    "INFO:hf-to-gguf:gguf: loading model weight map from 'model.safetensors.index.json'\n"
    "INFO:hf-to-gguf:gguf: indexing model part 'model-00001-of-00002.safetensors'\n"
    "INFO:hf-to-gguf:gguf: indexing model part 'model-00002-of-00002.safetensors'\n"
)
ECHO = '  File "/src/llama.cpp/conversion/base.py", line 301, in index_tensors\n'
QUANTIZE = "llama_quantize: quantizing 'model-f16.gguf' to '/out/model-Q4_K_M.gguf' as Q4_K_M\n"
SPLIT = "$ llama-gguf-split --split --split-max-size 2G model-f16.gguf /out/model\n"

CASES = [
    # safetensors-tensor-absent (fresh-164's index naming lm_head.bias): the converter (11434) opened every shard the
    # index names ('indexing model part'), so the files it calls missing are there and lack the tensors
    (
        "safetensors-tensor-absent",
        INDEXED + "ValueError: Missing or incomplete model files: ['model-00002-of-00002.safetensors']\n"
        "Missing tensors: ['model.layers.13.mlp.up_proj.weight', 'model.layers.13.mlp.down_proj.weight']\n",
    ),
    # ... and its other refusal (after29n had it as weights-missing), as the converter printed it here (11434, an index
    # leaving out lm_head.weight beside the tiny model's model.safetensors), its echoed raise line included
    (
        "safetensors-tensor-absent",
        INDEXED
        + ECHO.replace("301", "304")
        + '    raise ValueError("Mismatch between weight map and model parts '
        'for tensor names:\\n"\n'
        "ValueError: Mismatch between weight map and model parts for tensor names:\n"
        "Missing tensors: []\nExtra tensors: ['lm_head.weight']\n",
    ),
    # llamacpp-tool-output-write-failed (fresh-164's quantize into a read-only mount, no mount in sight): libc++'s
    # text (a macOS build), and gguf-split's uncaught failure (libstdc++)
    (
        "llamacpp-tool-output-write-failed",
        QUANTIZE
        + "llama_model_quantize: failed to quantize: ios_base::clear: unspecified iostream_category error\n",
    ),
    # (llama-gguf-split 11434 run here on an output folder that does not exist: the same text as read-only)
    (
        "llamacpp-tool-output-write-failed",
        SPLIT
        + "Writing file /out/model-00001-of-00005.gguf ... terminate called after throwing an instance of "
        "'std::__ios_failure'\n  what():  basic_ios::clear: iostream error\nAborted (core dumped)\n",
    ),
    # read-only-filesystem: the same failure where the command line mounts the output read-only (docker's :ro volume)
    (
        "read-only-filesystem",
        "$ docker run --rm -v /srv/models:/models:ro ghcr.io/ggml-org/llama.cpp:full --quantize "
        "/models/model-f16.gguf /models/model-Q4_K_M.gguf Q4_K_M\n"
        + QUANTIZE
        + "llama_model_quantize: failed to quantize: basic_ios::clear: iostream error\n",
    ),
    # convert-added-tokens-invalid (fresh-164's string id, on Python 3.10: no carets), gguf-py's BpeVocab and the
    # legacy convert.py's vocab check
    (
        "convert-added-tokens-invalid",
        "Traceback (most recent call last):\n"
        '  File "/src/llama.cpp/convert_hf_to_gguf.py", line 1962, in _create_vocab_sentencepiece\n'
        "    if token_id >= vocab_size:\n"
        "TypeError: '>=' not supported between instances of 'str' and 'int'\n",
    ),
    (
        "convert-added-tokens-invalid",
        "ValueError: Expected the 2 added token ID(s) to be sequential in the range 32000 - 32001; got [32000, 32005]\n",
    ),
    (
        "convert-added-tokens-invalid",
        "ValueError: Expected new token IDs [32000, 32001] to be sequential; got [32002, 32003]\n",
    ),
    # gguf-script-confirmation-no-input (fresh-164's gguf_new_metadata.py over its input): gguf_set_metadata.py's
    # prompt read from an empty stdin, and gguf_convert_endian.py given another answer than YES
    (
        "gguf-script-confirmation-no-input",
        "WARNING:gguf-set-metadata:* Changing fields in a GGUF file can make it unusable. Proceed at your own risk.\n"
        "WARNING:gguf-set-metadata:* Enter exactly YES if you are positive you want to proceed:\n"
        "YES, I am sure> Traceback (most recent call last):\n"
        '  File "/src/gguf-py/gguf/scripts/gguf_set_metadata.py", line 68, in set_metadata\n'
        "    response = input('YES, I am sure> ')\n"
        "EOFError: EOF when reading a line\n",
    ),
    (
        "gguf-script-confirmation-no-input",
        "WARNING:gguf-convert-endian:* the file will be corrupted. Enter exactly YES if you are positive you want to "
        "proceed:\nYES, I am sure> INFO:gguf-convert-endian:You didn't enter YES. Okay then, see ya!\n",
    ),
    # llamacpp-model-file-missing (fresh-164's gguf_dump.py): gguf_set_metadata.py's GGUFReader on Python 3.10
    (
        "llamacpp-model-file-missing",
        '  File "/usr/lib/python3/dist-packages/numpy/core/memmap.py", line 228, in __new__\n'
        "    f_ctx = open(os_fspath(filename), ('r' if mode == 'c' else mode)+'b')\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/models/Qwen3-8B-Q4_K_M.gguf'\n",
    ),
]

NEAR_MISSES = [
    # without the converter's 'indexing model part' lines the log cannot say whether the shard is absent (older
    # converters list the folder) or whole: weights-missing only as a guess
    (
        "weights-missing",
        "ValueError: Missing or incomplete model files: ['model-00002-of-00002.safetensors']\n"
        "Missing tensors: ['model.layers.1.mlp.up_proj.weight']\n",
    ),
    # the stream failure with no read-only mount in the log is no read-only filesystem (llama-quantize 11434 run here
    # with an output folder that does not exist prints exactly this)
    (
        "read-only-filesystem",
        QUANTIZE + "llama_model_quantize: failed to quantize: basic_ios::clear: iostream error\n",
    ),
    # a str/int comparison elsewhere is no added token
    (
        "convert-added-tokens-invalid",
        '  File "/app/serve.py", line 88, in pick\n    if n_ctx >= limit:\n'
        "TypeError: '>=' not supported between instances of 'str' and 'int'\n",
    ),
    # input() at EOF without gguf-py's prompt is no confirmation
    (
        "gguf-script-confirmation-no-input",
        '  File "/app/chat.py", line 12, in <module>\n    line = input("> ")\nEOFError: EOF when reading a line\n',
    ),
    # a missing JSON is no GGUF file
    (
        "llamacpp-model-file-missing",
        "FileNotFoundError: [Errno 2] No such file or directory: '/models/qwen/config.json'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_bare_missing_files_is_hedged_weights_missing():
    """Without the converter's indexing lines 'Missing or incomplete model files' stays weights-missing, below 0.70,
    saying the log cannot tell an absent shard from one the index disagrees with."""
    top = top_cause(
        run("ValueError: Missing or incomplete model files: ['model-00003-of-00004.safetensors']\n")
    )
    assert top.id == "weights-missing" and top.confidence < 0.7
    assert "does not say which" in top.cause and "model-00003-of-00004.safetensors" in top.cause


def test_message_literal_in_an_echoed_source_line_is_not_evidence():
    """fresh-164's defect: a pattern matched the traceback's echo of `raise ValueError(f"... {missing_files}\\n"` and
    copied code into the cause. The raised message below gives the evidence and the values."""
    log = (
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/model_loader/weight_utils.py", line 421, '
        "in download_weights\n"
        '    raise RuntimeError(f"Cannot find any model weights with `{model_name_or_path}`")\n'
        "RuntimeError: Cannot find any model weights with `/models/qwen3-8b`\n"
    )
    top = top_cause(run(log))
    assert top.id == "weights-missing"
    assert "/models/qwen3-8b" in top.cause and "{" not in top.cause
    assert [e.line for e in top.evidence] == [3]


def test_code_on_an_echoed_source_line_still_counts():
    """Only a string literal's text is skipped: an f-string's {expression} and the code itself say where it failed
    (public-vllmscale-p2pnccl-extra-config-no-http-port's kv_connector_extra_config['http_port'])."""
    assert _inside_literal('    raise ValueError(f"Missing or ')
    assert _inside_literal("    msg = 'it\\'s ")
    assert not _inside_literal("    f\"{self.config.kv_connector_extra_config['")
    assert not _inside_literal('    assert "a" in names and ')
    log = (
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/kv_transfer/p2p_nccl_engine.py", line 95, '
        "in __init__\n"
        "    f\"{self.config.kv_connector_extra_config['http_port']}\")\n"
        "KeyError: 'http_port'\n"
    )
    assert top_cause(run(log)).id == "kv-connector-extra-config-key-missing"


def test_same_words_outside_a_traceback_still_count():
    """The rule is about echoed code: the same text printed as a message line is evidence."""
    log = "note: raise ValueError(f\"Missing or incomplete model files: ['model-00002-of-00002.safetensors']\"\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "weights-missing"
