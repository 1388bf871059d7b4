"""Families widened by learnllama26 from fresh-33, each in a wording other than its corpus log's."""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

CASES = [
    (
        "cmake-build-program-missing",
        "-- Building for: Ninja\nCMake Error at CMakeLists.txt:5 (project):\n  Running\n\n"
        "   '/usr/bin/ninja' '--version'\n\n  failed with:\n\n   No such file or directory\n",
    ),
    (
        "llamacpp-split-mode-row-unsupported",
        "/src/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:2011: GGML_ASSERT(!(split && ne02 < ne12)) failed\n"
        "Aborted (core dumped)\n",
    ),
]


@pytest.mark.parametrize(("family", "text"), CASES, ids=[c[0] for c in CASES])
def test_widened_family_reads_other_wording(family: str, text: str) -> None:
    top = top_cause(run(text))
    assert top is not None and top.id == family
