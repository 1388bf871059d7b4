"""`servebox check model.gguf` for llama.cpp: each rule fires on the input that the pinned llama-server
refuses or warns about, and stays quiet on a good command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from servebox.check.llamacpp_rules import check_gguf
from servebox.engines.llamacpp.flags import parse_server_args
from servebox.errors import InputError
from tests.llamacpp_engine_runs import SERVER, make_models
from tests.llamacpp_tiny_gguf import write


@pytest.fixture(scope="session")
def models(tmp_path_factory) -> dict[str, Path]:
    return make_models(tmp_path_factory.getbasetemp() / "llamacpp-tiny")


def _rules(path: Path, *args: str, gpus: list[int] | None = None) -> dict[str, str]:
    report = check_gguf(str(path), parse_server_args(list(args)), gpus or [], "test")
    return {f.rule: f.severity for f in report.findings}


def test_good_command_line_has_no_errors_or_warnings(models):
    found = _rules(models["llama"], "-c", "4096", "-np", "1", gpus=[24 << 30])
    assert found == {"llamacpp-fit": "info"}


def test_quantized_v_cache_without_flash_attention_is_refused(models):
    assert (
        _rules(models["llama"], "-c", "4096", "-ctv", "q8_0", "-fa", "off")["llamacpp-v-cache-fa"] == "error"
    )
    assert "llamacpp-v-cache-fa" not in _rules(models["llama"], "-c", "4096", "-ctv", "q8_0", "-fa", "on")


def test_cache_block_must_divide_the_row(models):
    # qwen3's head_dim 96 x 2 KV heads = 192 values: q8_0 (32) divides it, a 256-block type would not
    assert "llamacpp-cache-block" not in _rules(models["qwen3"], "-c", "4096", "-ctk", "q8_0")


def test_context_past_the_trained_length_warns(models):
    assert _rules(models["qwen3"], "-c", "16384", "-np", "1")["llamacpp-context"] == "warn"
    # four slots of 4096 each are within the trained 8192
    assert "llamacpp-context" not in _rules(models["qwen3"], "-c", "16384", "-np", "4")


def test_vision_architecture_without_projector_warns_and_a_wrong_projector_is_an_error(models, tmp_path):
    assert _rules(models["gemma3"], "-c", "4096")["llamacpp-mmproj"] == "warn"
    assert (
        _rules(models["gemma3"], "-c", "4096", "--mmproj", str(models["llama"]))["llamacpp-mmproj"] == "error"
    )
    assert (
        _rules(models["gemma3"], "-c", "4096", "--mmproj", str(tmp_path / "none.gguf"))["llamacpp-mmproj"]
        == "error"
    )


def test_template_kwargs_are_checked_by_the_vllm_rule(models):
    found = _rules(models["llama"], "-c", "4096", "--chat-template-kwargs", '{"enable_thinking": false}')
    assert found["template-kwarg-unread"] == "warn"


def test_unknown_architecture_and_type_are_errors(models, tmp_path):
    odd = tmp_path / "odd.gguf"
    odd.write_bytes(models["llama"].read_bytes().replace(b"llama", b"llamz", 1))
    assert _rules(odd)["llamacpp-arch"] == "error"
    q = write("llama", tmp_path / "q.gguf", "q8_0")
    data = bytearray(q.read_bytes())
    # retag the first tensor's type (Q8_0 = 8) as 31, a repacked type llama.cpp removed from GGUF files
    marker = data.index(b"token_embd.weight") + len(b"token_embd.weight")
    n_dims = int.from_bytes(data[marker : marker + 4], "little")
    at = marker + 4 + 8 * n_dims
    assert int.from_bytes(data[at : at + 4], "little") == 8
    data[at : at + 4] = (31).to_bytes(4, "little")
    removed = tmp_path / "removed.gguf"
    removed.write_bytes(bytes(data))
    assert _rules(removed)["llamacpp-quant-type"] == "error"


def test_does_not_fit_is_an_error_with_the_fit_flags(models, run_cli):
    # a 24 GiB card with a 24,560 MiB --fit-target margin leaves 16 MiB: the full 8192 context does not fit
    args = ["check", models["qwen3"], "--gpu", "rtx3090-24gb", "-np", "1", "--fit-target", "24560", "--json"]
    res = run_cli(*args)
    assert res.code == 1, res.err
    fit = next(f for f in res.json()["findings"] if f["rule"] == "llamacpp-fit")
    assert fit["severity"] == "error" and "-c " in fit["fix"]
    assert run_cli(*args[:-3], "--json").code == 0


def test_flags_the_pinned_server_refuses(models):
    report = check_gguf(
        str(models["llama"]), parse_server_args(["-c", "4096", "--no-mmap", "--jinja"]), [], "cpu"
    )
    found = {f.rule: f for f in report.findings}
    assert found["llamacpp-flag"].severity == "error" and "-lm none" in found["llamacpp-flag"].fix
    assert parse_server_args(["--jinja", "--port", "8080", "-lv", "4"]).unknown == []
    assert parse_server_args(["--made-up", "3"]).unknown == ["--made-up"]


def test_the_model_flag_and_the_common_options_are_accepted():
    """-m, -hf and the other options arg.cpp gives every tool (LLAMA_EXAMPLE_COMMON) are llama-server's too: a
    pasted `llama-server -m model.gguf` was an error ('does not accept -m') before stop 30."""
    flags = parse_server_args(
        ["-m", "model.gguf", "-c", "4096", "-hf", "org/repo", "--offline", "-mmdev", "none"]
    )
    assert flags.unknown == [] and flags.model == "model.gguf"


@pytest.mark.skipif(not SERVER.exists(), reason="the real llama-server is not built (tools/llama-cpp.sh)")
def test_every_flag_the_real_llama_server_lists_is_accepted():
    """servebox's list of accepted flags against the real binary's own --help (stop 30 found 19 missing)."""
    import re
    import subprocess

    shown = subprocess.run([str(SERVER), "--help"], capture_output=True, text=True, timeout=60).stdout
    flags = set(re.findall(r"(?:^|[ ,])(-{1,2}[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])(?=[ ,\n])", shown, re.M))
    from servebox.engines.llamacpp.flags import accepted_flags

    assert flags and not sorted(flags - accepted_flags())


def test_a_number_with_a_unit_is_read_as_llama_server_reads_it(models):
    """std::stoi('8k') is 8 and std::stoi('8GiB') is 8: llama-server takes the leading number and drops the rest
    without a word (fresh-101's --cache-ram 8GiB served an 8 MiB cache); check says so, plan uses what it serves."""
    flags = parse_server_args(
        ["-c", "8k", "--cache-ram", "8GiB", "--fit-target", "1GB,2048", "--cpu-range", "0-3"]
    )
    assert flags.ctx_size == 8 and flags.fit_target_mib == [1, 2048]
    assert flags.truncated == ["-c 8k", "--cache-ram 8GiB", "--fit-target 1GB,2048"]
    found = [
        f
        for f in check_gguf(str(models["llama"]), flags, [], "cpu").findings
        if f.rule == "llamacpp-value-truncated"
    ]
    assert len(found) == 3 and all(f.severity == "warn" for f in found)
    assert parse_server_args(["-c", "8192", "--temp", "0.7"]).truncated == []
    with pytest.raises(InputError):
        parse_server_args(["-c", "eight"])  # no leading number: llama-server refuses it too


def test_the_model_given_with_minus_m_is_read_by_check_and_plan(models, run_cli):
    """`servebox check -m model.gguf ...` (llama-server's own spelling): click took '-m' as SOURCE and the run went
    to the vLLM branch, refused with an unrelated field (exit 2); the .gguf named by -m is the source now."""
    res = run_cli("check", "-m", str(models["llama"]), "-c", "4096", "-np", "1", "--json")
    assert res.code == 0, res.err
    assert res.json()["source"] == str(models["llama"]) and not res.json()["errors"]
    plan = run_cli("plan", "-m", str(models["llama"]), "-c", "4096", "-np", "1", "--json")
    assert plan.code == 0, plan.err
