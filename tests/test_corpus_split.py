"""tools/corpus_split.py: one thread, one side, whatever URL form it is cited by; and the corpus keeps the rule
(no unseen batch case from a train-side thread, no taught case from a measure-side one)."""

from __future__ import annotations

from tests.conftest import load_script


def load():
    return load_script("tools/corpus_split.py")


def test_one_thread_has_one_side_under_every_url_form():
    split = load()
    forms = [
        "https://github.com/ggerganov/llama.cpp/issues/1005",
        "https://github.com/ggml-org/llama.cpp/issues/1005#issuecomment-99",
        "http://github.com/ggml-org/llama.cpp/pull/1005/files",
        "https://github.com/GGML-ORG/llama.cpp/issues/1005/",
    ]
    assert len({split.normalise(u) for u in forms}) == 1
    assert len({split.side(u) for u in forms}) == 1
    sides = {split.side(f"https://github.com/vllm-project/vllm/issues/{n}") for n in range(100, 140)}
    assert sides == {"train", "measure"}  # the hash splits, it does not put everything on one side


def test_the_corpus_keeps_the_split():
    assert load().contaminated() == []
