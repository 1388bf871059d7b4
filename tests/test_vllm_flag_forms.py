"""The flag forms users paste from `vllm serve` lines: vLLM's FlexibleArgumentParser reads `-O3`, `-O=3` and `-O 3` as
--optimization-level (0.32: vllm/utils/argparse_utils.py), `-cc` as the compilation config. servebox read `-O3` as a
compilation config and refused it ("must be a JSON object"), so a pasted command from vllm#33155 failed to plan."""

from __future__ import annotations

import pytest

from servebox.engines.vllm.flags import parse_flags
from servebox.errors import InputError


@pytest.mark.parametrize(
    "argv, level", [(["-O3"], 3), (["-O=2"], 2), (["-O", "1"], 1), (["--optimization-level", "0"], 0)]
)
def test_optimization_level_shorthands(argv, level):
    flags, rest = parse_flags(["m", *argv])
    assert flags.optimization_level == level and rest == []
    assert flags.enforce_eager == (level == 0)  # -O0: no compilation, no CUDA graphs
    assert flags.compilation_config == {}


def test_a_json_after_o_or_cc_is_the_compilation_config():
    for argv in (["-O", '{"level": 3}'], ['-O{"level": 3}'], ["-cc", '{"level": 3}']):
        flags, _ = parse_flags(["m", *argv])
        assert flags.compilation_config == {"level": 3} and flags.optimization_level is None, argv


def test_an_unknown_level_is_one_line_bad_input():
    with pytest.raises(InputError) as err:
        parse_flags(["m", "-O7"])
    assert "optimization-level" in str(err.value.message) and "7" in str(err.value.message)


def test_o1_captures_piecewise_graphs_only_and_o0_none(run_cli):
    from tests.conftest import CHECKPOINTS

    def graphs(*extra):
        args = [
            "plan",
            CHECKPOINTS / "llama-3.1-8b-instruct",
            "--gpu",
            "h100-80gb",
            "--max-model-len",
            "8192",
        ]
        args += ["--vllm-version", "0.26.0"]  # the profile whose graph estimate splits piecewise and full
        return run_cli(*args, *extra, "--json").json()["cudagraph_estimate_gib"]

    assert graphs("-O0") == 0 < graphs("-O1") < graphs("-O3") == graphs()
