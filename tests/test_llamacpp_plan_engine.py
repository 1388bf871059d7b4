"""servebox's llama.cpp plan against the real llama-server (b11434, the CPU build of tools/llama-cpp.sh)
on tiny GGUFs of six architectures (llama, qwen2, qwen3, qwen3moe, gemma3 sliding window, qwen35 Gated
DeltaNet hybrid), three flag sets each: model, output, KV (cells, K, V per cache kind) and recurrent
buffers equal to the log's 0.01 MiB, the compute buffer within 10%. Skipped, saying why, when the binary
has not been built. benchmarks/llamacpp_plan_accuracy.py prints the same comparison as a table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.llamacpp_engine_runs import CASES, SERVER, make_models, run_case

pytestmark = [
    pytest.mark.engine,
    pytest.mark.skipif(not SERVER.exists(), reason=f"{SERVER} not built (bash tools/llama-cpp.sh)"),
]


@pytest.fixture(scope="session")
def models(tmp_path_factory) -> dict[str, Path]:
    return make_models(tmp_path_factory.getbasetemp() / "llamacpp-tiny")


@pytest.mark.parametrize("arch", sorted({arch for arch, _ in CASES}))
def test_plan_matches_the_real_llama_server(models, arch):
    checked = 0
    for case_arch, flags in CASES:
        if case_arch != arch:
            continue
        rows, log = run_case(models, arch, flags)
        off = [
            f"{c.figure}: planned {c.predicted_mib:.2f}, logged {c.reported_mib:.2f} MiB"
            for c in rows
            if not c.ok
        ]
        assert not off, f"{arch} {' '.join(flags)}: " + "; ".join(off)
        assert any(c.figure.startswith("KV") for c in rows) and any(
            c.figure == "compute buffer" for c in rows
        )
        checked += 1
    assert checked >= (1 if "-" in arch else 3)  # three flag sets per architecture


def test_calibrate_reads_a_real_log(models, tmp_path, run_cli):
    flags = ["-c", "4096", "-np", "2", "-fa", "off"]
    _, log = run_case(models, "gemma3", flags)
    path = tmp_path / "llama-server.log"
    path.write_text(log)
    res = run_cli("plan", models["gemma3"], *flags, "--calibrate", path, "--json")
    assert res.code == 0, res.err
    rows = {(r["device"], r["figure"]): r for r in res.json()["calibration"]}
    assert rows[("CPU", "kv")]["predicted_mib"] == rows[("CPU", "kv")]["reported_mib"]
    assert rows[("CPU", "model")]["predicted_mib"] == rows[("CPU", "model")]["reported_mib"]
    assert abs(rows[("CPU", "compute")]["relative_error"]) < 0.10
