"""Property-based fuzzing (hypothesis) of the verbs that read a spec: `render` (into a fresh output
directory, which must not exist after a refusal) and `provision` (its spec load: the run names a
model that no spec holds, so a spec that loads is answered with exit 2 before anything is built).
Hostile TOML values replace one value of the real example spec, or the text itself is damaged;
each run keeps tests/fuzz_contract.py's contract."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from servebox.deploy.verify import verify_unit
from tests.fuzz_contract import assert_contract, examples, report

MAX_VERIFIED = 15
VERIFIED = [0]

EXAMPLE = Path(__file__).resolve().parent.parent / "servebox" / "examples" / "digest-2xv100.toml"
TEXT = EXAMPLE.read_text()
ASSIGNMENT = re.compile(r"^(\s*[\w\"-]+\s*=\s*)(.+)$", re.M)
VALUES = list(ASSIGNMENT.finditer(TEXT))
FUZZ = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}


def toml_string(text: str) -> str:
    return json.dumps(text)  # JSON's escapes (\n, \u0000, \") are TOML's basic-string escapes


hostile_literal = st.one_of(
    st.text(max_size=30).map(toml_string),
    st.sampled_from(["\n", "\r\n[Service]\nExecStartPre=/bin/sh", "\x00", "\u2028", "\x1b[31m"]).map(
        lambda bad: toml_string("/opt/x" + bad)
    ),
    st.sampled_from("+-!@:|").map(lambda p: toml_string(p + "/usr/bin/true")),
    st.sampled_from(
        [
            "nan",
            "inf",
            "-inf",
            "-5",
            "0",
            "99999",
            "1e400",
            "true",
            "[]",
            '[1, "a"]',
            "{ a = 1 }",
            "'''x\ny'''",
        ]
    ),
    st.integers(-(2**64), 2**64).map(str),
    st.sampled_from(
        [
            '"127.0.0.1:99999"',
            '"[::1]:8000"',
            '"::1:8000"',
            '"localhost"',
            '":0"',
            '"[zz]:1"',
            '"256.1.1.1:80"',
        ]
    ),
)


@st.composite
def spec_damage(draw) -> str:
    kind = draw(st.sampled_from(["value", "value", "value", "value", "key", "bytes"]))
    if kind == "bytes":
        cut = draw(st.integers(0, len(TEXT)))
        return TEXT[:cut] + draw(st.text(max_size=20)) + TEXT[cut + draw(st.integers(0, 5)) :]
    match = draw(st.sampled_from(VALUES))
    if kind == "key":
        key = draw(st.sampled_from(["script", "ExecStartPre", "User", "run_as_unit", "listen"]))
        return TEXT[: match.end()] + f"\n{key} = {draw(hostile_literal)}" + TEXT[match.end() :]
    return TEXT[: match.start(2)] + draw(hostile_literal) + TEXT[match.end(2) :]


@settings(**FUZZ, max_examples=examples(400))
@given(text=spec_damage())
def test_fuzz_render_spec(text):
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(text)
        out = Path(tmp) / "out"
        code = assert_contract(
            "render spec", Path(tmp), "render", [str(spec), "--out", str(out)], "spec.toml", out
        )
        if code == 0:  # what was accepted rendered no directive of its own and no prefix
            if shutil.which("systemd-analyze") and VERIFIED[0] < MAX_VERIFIED:
                VERIFIED[0] += 1  # and systemd's own parser accepts the units (the first few, for time)
                for unit in (out / "systemd").glob("*.service"):
                    rc, text, _missing, _reasons = verify_unit(unit)
                    assert rc == 0, text
            for unit in (out / "systemd").glob("*.service"):
                lines = unit.read_text().splitlines()
                assert not any(line.startswith(("ExecStartPre", "ExecStartPost")) for line in lines)
                assert all(
                    not line.startswith("ExecStart=") or line[10:11] == "/" or line[10:11] == '"'
                    for line in lines
                )


@settings(**FUZZ, max_examples=examples(150))
@given(text=spec_damage())
def test_fuzz_provision_spec(text):
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(text)
        code = assert_contract(
            "provision spec", Path(tmp), "provision", [str(spec), "--model", "no-such-model"], "spec.toml"
        )
        assert code == 2


def test_fuzz_spec_report(capsys):
    with capsys.disabled():
        print("\n" + report("spec"))
