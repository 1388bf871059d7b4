"""What the scored batch fresh-282 (llama.cpp version drift: a command, file or request written for an older release,
run on b11434) taught after scoring, with the neighbourhood of its miss in b11434's own source.

- gguf-tensor-type-removed (new): ggml/src/gguf.cpp gguf_init_from_reader's block-size check refusing a tensor in a type
  ggml.c's table keeps with block size 0 (Q4_2 / Q4_3 'DEPRECATED'; Q4_0_4_4.. / IQ4_NL_4_4.. 'TYPE_X REMOVED, use Y
  with runtime repacking'): a file older than the build.
- gguf-tensor-row-not-block-multiple: narrowed to a real block size (1 and up).
- llamacpp-build-too-old-for-tensor-type: b11434's wording of the range check ('... should be in [0, 43)').
- llamacpp-flag-removed-replaced (new note): common/arg.cpp's arg_removed and the load flags --load-mode replaced, under
  llamacpp-invalid-argument, which stayed the cause (learn49b made the removal itself the cause).
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run

G = "gguf_init_from_reader: "
LOAD_FAILED = (
    "llama_model_load: error loading model: llama_model_loader: failed to load model from /m/model.gguf\n"
    "llama_model_load_from_file_impl: failed to load model\n"
    "srv  llama_server: exiting due to model loading error\n"
)

CASES = [
    # Q4_3, the other type ggml.c names DEPRECATED (rendered)
    (
        "gguf-tensor-type-removed",
        G
        + "tensor 'blk.7.attn_v.weight' of type 5 (DEPRECATED) has 4096 elements per row, not a multiple of block "
        "size (0)\n" + G + "failed to read tensor info\n" + LOAD_FAILED,
    ),
    # an ARM-interleaved Q4_0_4_4 file, as a public README quoted it under gguf_init_from_file_impl
    (
        "gguf-tensor-type-removed",
        "gguf_init_from_file_impl: tensor 'blk.0.attn_k.weight' of type 31 (TYPE_Q4_0_4_4 REMOVED, use Q4_0 with runtime "
        "repacking) has 4096 elements per row, not a multiple of block size (0)\n" + LOAD_FAILED,
    ),
    # IQ4_NL_8_8 (rendered)
    (
        "gguf-tensor-type-removed",
        G
        + "tensor 'output.weight' of type 38 (TYPE_IQ4_NL_8_8 REMOVED, use IQ4_NL with runtime repacking) has 2048 "
        "elements per row, not a multiple of block size (0)\n" + LOAD_FAILED,
    ),
    # the block-size check's own case stays its own: a real block a row does not divide
    (
        "gguf-tensor-row-not-block-multiple",
        G
        + "tensor 'blk.0.ffn_down.weight' of type 12 (q4_K) has 11008 elements per row, not a multiple of block size "
        "(256)\n" + LOAD_FAILED,
    ),
    # b11434's range check for a type past the build's table (rendered)
    (
        "llamacpp-build-too-old-for-tensor-type",
        G
        + "tensor 'blk.0.ffn_down_exps.weight' has invalid ggml type 44. should be in [0, 43)\n"
        + LOAD_FAILED,
    ),
]

NEAR_MISSES = [
    # a removed type is not a row that does not divide, and not a build too old for the file
    (
        "gguf-tensor-row-not-block-multiple",
        G
        + "tensor 'blk.0.ffn_down.weight' of type 4 (DEPRECATED) has 512 elements per row, not a multiple of block "
        "size (0)\n" + LOAD_FAILED,
    ),
    (
        "llamacpp-build-too-old-for-tensor-type",
        G
        + "tensor 'blk.0.ffn_down.weight' of type 32 (TYPE_Q4_0_4_8 REMOVED, use Q4_0 with runtime repacking) has "
        "4096 elements per row, not a multiple of block size (0)\n" + LOAD_FAILED,
    ),
    # a type the build does not know yet is not a removed one
    (
        "gguf-tensor-type-removed",
        G
        + "tensor 'blk.0.ffn_down_exps.weight' has invalid ggml type 44. should be in [0, 43)\n"
        + LOAD_FAILED,
    ),
    # a row that does not divide a real block is not a removed type
    (
        "gguf-tensor-type-removed",
        G
        + "tensor 'blk.0.ffn_down.weight' of type 8 (q8_0) has 100 elements per row, not a multiple of block size "
        "(32)\n" + LOAD_FAILED,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def _note(log: str):
    return next((d for d in run(log).diagnoses if d.id == "llamacpp-flag-removed-replaced"), None)


def test_removed_load_flag_is_the_cause_with_its_replacement():
    """--mlock refused by b11434 (rendered): learn49b made the removal the cause (it stopped the server), naming
    --load-mode, over the generic refusal it supersedes."""
    log = "error: invalid argument: --mlock\n"
    causes = [d for d in run(log).diagnoses if d.role in ("cause", "symptom")]
    assert [d.id for d in causes] == ["llamacpp-flag-removed-replaced"]
    assert "--load-mode" in causes[0].cause and "--mlock" in causes[0].cause


def test_arg_removed_message_names_its_own_replacement():
    """arg.cpp's arg_removed for --spec-ngram-size-m (rendered): the replacement is the message's own."""
    note = _note(
        'error while handling argument "--spec-ngram-size-m": the argument has been removed. use the respective '
        "--spec-ngram-*-size-m\n\nusage:\n--spec-ngram-size-m N   the argument has been removed.\n"
    )
    assert note is not None and "use the respective --spec-ngram-*-size-m" in note.cause


def test_flag_no_release_had_gets_no_note():
    """A name no llama.cpp release had (learn50a: --memory-f32, which one had, is now a removal): the generic
    refusal only."""
    assert _note("error: invalid argument: --ctx-sizee\n") is None
    assert _note("error: invalid argument: --mlockall\n") is None
