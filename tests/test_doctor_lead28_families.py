"""What the lead learnt after scoring fresh-46 (made here: parallelism and threading): llama.cpp's refusal of a feature
its build left out ('X not supported in this build') is that build's limit, not a malformed argument."""

from __future__ import annotations

from tests.doctor_text import run


def _top(log: str):
    return next(d for d in run(log).diagnoses if d.role == "cause")


def test_a_feature_left_out_of_the_build_is_named_with_its_build_option():
    # a second real wording, not the corpus's: the vendored mtmd helper of llama-cpp-python 0.3.36
    top = _top("mtmd_helper_eval_chunk: video is not supported in this build (MTMD_VIDEO is set to OFF)\n")
    assert top.id == "llamacpp-feature-not-in-build"
    assert "video" in top.cause and "MTMD_VIDEO" in top.cause


def test_the_build_refusal_outranks_the_argument_error_that_carries_it():
    log = 'error while handling argument "--rpc": RPC not supported in this build\n\nusage:\n--rpc SERVERS\n'
    assert [d.id for d in run(log).diagnoses if d.role == "cause"] == ["llamacpp-feature-not-in-build"]


def test_an_argument_refused_for_its_value_stays_an_invalid_argument():
    # near miss: the same handler refusing the value, with no word about the build
    log = 'error while handling argument "--rpc": failed to register RPC device at 10.0.0.2:50052\n'
    assert _top(log).id != "llamacpp-feature-not-in-build"
