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
        "https://hdoplus.com/proxy_gol.php?url=https%3A%2F%2Fgithub.com%2Fggml-org%2Fllama.cpp%2Fissues%2F1005",
        "https://github-users.example.workers.dev/ggml-org/llama.cpp/issues/1005",  # a mirror of GitHub's paths
    ]
    assert len({split.normalise(u) for u in forms}) == 1
    assert len({split.side(u) for u in forms}) == 1
    # a renamed repository: the old owner's URL is the same thread as the new one's
    renamed = [
        "https://github.com/go-skynet/LocalAI/issues/1005",
        "https://github.com/mudler/LocalAI/issues/1005",
    ]
    assert len({split.normalise(u) for u in renamed}) == 1
    sides = {split.side(f"https://github.com/vllm-project/vllm/issues/{n}") for n in range(100, 140)}
    assert sides == {"train", "measure"}  # the hash splits, it does not put everything on one side
    # pages of one blog told apart only by their query are different threads
    assert split.normalise("https://blog.example/?p=833") != split.normalise("https://blog.example/?p=834")


def test_the_corpus_keeps_the_split():
    assert load().contaminated() == []
