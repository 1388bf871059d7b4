"""A family whose words the corpus saw under other causes is not confident alone, and says which causes.

The logs here are written for these tests, in wordings no corpus log has: a pydantic refusal of a field no
specific family knows (config-validation-error's words, which the corpus saw under 21 other causes), and a
flag typo (cli-unrecognized-argument, whose words nearly always are its own cause).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.shared_wording import BELOW_CONFIDENT, DATA, FLOOR, WIDE, cap
from servebox.doctor.triage import triage_stream

ROOT = Path(__file__).resolve().parent.parent


def triage(lines: list[str]):
    return triage_stream(io.BytesIO("\n".join(lines).encode()), "written-for-this-test.log")


PYDANTIC_NEW_FIELD = [
    "INFO 12-04 04:00:01 [api_server.py:1000] vLLM API server version 0.32.0",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 1400, in create_engine_config',
    "    cache_config = CacheConfig(",
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig",
    "  Value error, mamba_block_size must be a multiple of 8, got 12 [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]",
]


def test_generic_family_alone_is_capped_and_names_the_other_causes():
    top = triage(PYDANTIC_NEW_FIELD).diagnoses[0]
    assert top.id == "config-validation-error"  # still the answer: the message says what to change
    assert top.confidence < CONFIDENT and top.confidence >= FLOOR
    assert top.confidence_kind == "calibrated"
    assert "max-model-len-above-positions" in top.shared_with and len(top.shared_with) == 5
    assert "corpus logs" in top.shared_basis


def test_family_whose_words_are_its_own_stays_confident():
    result = triage(
        [
            "usage: vllm serve [model_tag] [options]",
            "vllm serve: error: unrecognized arguments: --gpu-memory-utilisation 0.8",
        ]
    )
    top = result.diagnoses[0]
    assert top.id == "cli-unrecognized-argument" and top.confidence >= CONFIDENT
    assert cap("cli-unrecognized-argument") >= CONFIDENT


def test_cap_formula_and_floor():
    data = json.loads(DATA.read_text())
    seen = data["config-validation-error"]
    formula = max(FLOOR, 1 - len(seen["others"]) / (seen["matched"] + 2))
    assert seen["own"] < seen["matched"] - seen["own"]  # pydantic's words: mostly other causes'
    assert cap("config-validation-error") == min(formula, BELOW_CONFIDENT) < CONFIDENT
    mostly_own = [f for f, v in data.items() if v["own"] >= v["matched"] - v["own"] or v["matched"] < WIDE]
    assert mostly_own and all(
        cap(f) == max(FLOOR, 1 - len(data[f]["others"]) / (data[f]["matched"] + 2)) for f in mostly_own
    )
    assert cap("no-such-family") is None
    assert all(cap(f) >= FLOOR for f in data)


def test_json_shows_the_calibration(tmp_path):
    from typer.testing import CliRunner

    from servebox.cli.app import app

    log = tmp_path / "pydantic.log"
    log.write_text("\n".join(PYDANTIC_NEW_FIELD) + "\n")
    out = CliRunner().invoke(app, ["doctor", "--log", str(log), "--json"])
    top = json.loads(out.stdout)["triage"]["diagnoses"][0]
    assert top["confidence_kind"] == "calibrated" and top["shared_with"]


def test_data_file_is_what_the_harvest_reads_from_the_corpus():
    """Stale when a family's wording or the corpus changed: run tools/harvest_shared_wordings.py."""
    sys.path.insert(0, str(ROOT))
    from tools.harvest_shared_wordings import harvest

    assert harvest() == json.loads(DATA.read_text())


def test_harvest_counts_a_context_wording_only_in_its_context(tmp_path):
    """A `context_pattern` wording's hit counts as the family's words only where its `context_requires` was seen
    (as in ranking): an IndexError anywhere is not cuda-arch-native-without-gpu-at-build's surface (vocab30d, stop 30:
    counting such hits raw capped families by logs they never named)."""
    sys.path.insert(0, str(ROOT))
    from tools.harvest_shared_wordings import raw_causes

    bare = tmp_path / "bare.log"
    bare.write_text("Traceback (most recent call last):\nIndexError: list index out of range\n")
    framed = tmp_path / "framed.log"
    framed.write_text(
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/torch/utils/cpp_extension.py", line 2000, in _get_cuda_arch_flags\n'
        "IndexError: list index out of range\n"
    )
    assert "cuda-arch-native-without-gpu-at-build" not in raw_causes(bare)
    assert "cuda-arch-native-without-gpu-at-build" in raw_causes(framed)


def test_a_family_whose_words_are_mostly_others_is_never_confident_however_large_the_corpus(monkeypatch):
    """The formula alone rises towards 1 as N grows with S fixed: 3 other causes in 1,000 logs would give 0.997."""
    import servebox.doctor.shared_wording as sw

    fake = {"wide": {"matched": 1000, "own": 10, "others": {"a": 500, "b": 300, "c": 190}}}
    monkeypatch.setattr(sw, "shared", lambda: fake)
    assert sw.cap("wide") == BELOW_CONFIDENT
    fake["wide"]["own"] = 600
    assert sw.cap("wide") > CONFIDENT
    fake["rare"] = {"matched": 2, "own": 0, "others": {"a": 2}}  # seen twice: not yet a finding
    assert sw.cap("rare") == 0.75
